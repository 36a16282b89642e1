//! A merged list's members' table (`shaders/members.wgsl`): what drawing a member's
//! particles takes from its effect (each emitter's look, the settled fade, the soft edge,
//! the blend), a few texels a member in a small float texture that the merged splat and
//! draw fetch per particle. CPU drivers read a storage buffer lane by lane: a whole
//! `EffectParams` read that way a particle took about half the merged splat's time
//! (100 effects of 1,024 particles on lavapipe; docs/measurements.md), where a texel fetch
//! is one gather for a whole SIMD group.

use crate::types::{EffectParams, MAX_EMITTERS};

/// Texels a texture row (`MEMBER_ROW` in members.wgsl).
pub(crate) const MEMBER_ROW: u32 = 256;

/// Texels a member (`MEMBER_TEXELS`): its fades, then three per emitter.
pub(crate) const MEMBER_TEXELS: u32 = 1 + 3 * MAX_EMITTERS as u32;

/// The most members one table holds on `device` (its rows within the texture size limit).
pub(crate) fn max_members(device: &wgpu::Device) -> usize {
    let rows = device.limits().max_texture_dimension_2d as usize;
    rows * MEMBER_ROW as usize / MEMBER_TEXELS as usize
}

/// Sprite codes a member's texel keeps room for beside the render mode (`SPRITE_KINDS` in
/// members.wgsl).
const SPRITE_KINDS: u32 = 4;
// (room for every sprite beside the render mode)
const _: () = assert!(crate::types::SPRITE_IMAGE < SPRITE_KINDS);

/// The texels of one member, as members.wgsl reads them: (settle_time, soft_distance,
/// additive, light_wrap), then per emitter its colour at the end of life and (size_end,
/// (render_mode × [`SPRITE_KINDS`] + sprite) × 2 + unlit, stretch, emission) and (image_layer,
/// image_frames, frame_rate, flipbook), the integers as floats
/// (small, so exact; their bits as floats would be denormals, which drivers may flush to
/// zero).
pub(crate) fn member_texels(params: &EffectParams) -> Vec<[f32; 4]> {
    let fades = [
        params.settle_time,
        params.soft_distance,
        params.additive as f32,
        params.light_wrap,
    ];
    let looks = params.looks.iter().flat_map(|l| {
        let kinds = (l.render_mode * SPRITE_KINDS + l.sprite) * 2 + l.unlit;
        let shape = [l.size_end, kinds as f32, l.stretch, l.emission];
        let frames = l.image_frames as f32;
        let image = [
            l.image_layer as f32,
            frames,
            l.frame_rate,
            l.flipbook as f32,
        ];
        [l.color_end.to_array(), shape, image]
    });
    std::iter::once(fades).chain(looks).collect()
}

/// The table of `members` in order ([`max_members`] at most), written as the next frame is
/// recorded ([`crate::uploads::Uploads::float_texture_init`]).
pub(crate) fn member_table(
    device: &wgpu::Device,
    uploads: &mut crate::uploads::Uploads,
    members: &[&EffectParams],
) -> wgpu::TextureView {
    let mut texels: Vec<[f32; 4]> = members.iter().flat_map(|p| member_texels(p)).collect();
    let rows = (texels.len() as u32).div_ceil(MEMBER_ROW).max(1);
    texels.resize((rows * MEMBER_ROW) as usize, [0.0; 4]);
    let size = (MEMBER_ROW, rows);
    let texture = uploads.float_texture_init(device, "flurry.merged_members", size, &texels);
    texture.create_view(&Default::default())
}

/// A table of no members, for the binding of an effect's own splat and draw, which their
/// variants never read.
pub(crate) fn no_members(device: &wgpu::Device) -> wgpu::TextureView {
    let format = wgpu::TextureFormat::Rgba32Float;
    let usage = wgpu::TextureUsages::TEXTURE_BINDING;
    let texture = crate::gpu::texture_2d(device, "flurry.no_members", (1, 1), format, usage);
    texture.create_view(&Default::default())
}

/// The table's layout entry at `binding`.
pub(crate) fn entry(binding: u32, visibility: wgpu::ShaderStages) -> wgpu::BindGroupLayoutEntry {
    let sample_type = wgpu::TextureSampleType::Float { filterable: false };
    super::texture(binding, sample_type, visibility)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::EmitterLook;
    use glam::Vec4;

    /// A member's texels hold its fades first and then each emitter's look, where
    /// members.wgsl fetches them (texel 1 + 2e the colour, 2 + 2e the shape), and the
    /// constants agree with the shader's.
    #[test]
    fn a_members_texels_are_where_the_shader_fetches_them() {
        let mut params = EffectParams {
            settle_time: 2.5,
            soft_distance: 0.25,
            additive: 0,
            light_wrap: 0.5,
            ..Default::default()
        };
        params.looks[3] = EmitterLook {
            color_end: Vec4::new(0.1, 0.2, 0.3, 0.4),
            size_end: 1.5,
            render_mode: crate::types::RENDER_STRETCHED,
            stretch: 0.05,
            sprite: 2,
            emission: 3.0,
            image_layer: 7,
            image_frames: 16,
            frame_rate: 24.0,
            flipbook: 3,
            unlit: 1,
            ..Default::default()
        };
        let texels = member_texels(&params);
        assert_eq!(texels.len(), MEMBER_TEXELS as usize);
        assert_eq!(texels[0], [2.5, 0.25, 0.0, 0.5]);
        assert_eq!(texels[1 + 3 * 3], [0.1, 0.2, 0.3, 0.4]);
        assert_eq!(
            texels[2 + 3 * 3],
            [1.5, (2.0 * 4.0 + 2.0) * 2.0 + 1.0, 0.05, 3.0]
        );
        assert_eq!(texels[3 + 3 * 3], [7.0, 16.0, 24.0, 3.0]);
        let src = crate::shaders::Shader::Splat.source();
        assert!(src.contains(&format!("const MEMBER_ROW: u32 = {MEMBER_ROW}u;")));
        assert!(src.contains("const MEMBER_TEXELS: u32 = 1u + 3u * MAX_EMITTERS;"));
        assert!(src.contains(&format!("const SPRITE_KINDS: u32 = {SPRITE_KINDS}u;")));
    }
}
