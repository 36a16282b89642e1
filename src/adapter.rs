//! What flurry needs of an adapter or a device: compute shaders and indirect dispatches,
//! storage buffers read by vertex shaders, a depth attachment read-only while it is
//! sampled, storage textures of the formats its passes write, and enough bindings per
//! stage. [`crate::GpuContext`] skips adapters that lack any of it (a GL fallback among
//! them); [`crate::ParticleRenderer::new`] refuses a host's device whose limits are short.

use crate::passes::downsample::LOW_DEPTH_FORMAT;
use crate::passes::draw::PARTICLE_FORMAT;

/// Capabilities beyond WebGPU's downlevel baseline that the passes use.
const DOWNLEVEL: wgpu::DownlevelFlags = wgpu::DownlevelFlags::COMPUTE_SHADERS
    .union(wgpu::DownlevelFlags::INDIRECT_EXECUTION)
    .union(wgpu::DownlevelFlags::VERTEX_STORAGE)
    .union(wgpu::DownlevelFlags::READ_ONLY_DEPTH_STENCIL);

/// Formats written as storage textures: the downsampled depth and the splat's resolve.
const STORAGE_WRITES: [wgpu::TextureFormat; 2] = [LOW_DEPTH_FORMAT, PARTICLE_FORMAT];

/// The most storage buffers one pipeline binds a stage: WebGPU's baseline, 8 (simulate's:
/// the particles, its three lists as one, the counters, the hit events for its spawns, a
/// pass's acceleration, the effect's attributes and instances, the events for the host;
/// its curves are a texture's rows). src/passes/mod.rs checks it against every layout.
pub(crate) const STORAGE_BUFFERS_PER_STAGE: u32 = 8;

/// The most storage textures one stage writes: the downsample's two.
pub(crate) const STORAGE_TEXTURES_PER_STAGE: u32 = 2;

/// The most bind groups one pipeline sets: the draw's three.
pub(crate) const BIND_GROUPS: u32 = 3;

/// The most workgroup memory one entry point holds: the flow field's solve, its tiles.
pub(crate) const WORKGROUP_MEMORY: u32 = 14_464;

/// The largest uniform binding: a batch's table of its members' cull rows (within WebGPU's
/// baseline of 64 KiB).
fn largest_uniform() -> u64 {
    let rows = crate::passes::batch_relist::BATCH_ROWS as u64;
    rows * crate::passes::batch_merge::row_size()
}

/// The least of each limit the passes need: (name, what the device has, needed).
fn limits(l: &wgpu::Limits) -> [(&'static str, u64, u64); 8] {
    [
        (
            "max_storage_buffers_per_shader_stage",
            l.max_storage_buffers_per_shader_stage.into(),
            STORAGE_BUFFERS_PER_STAGE.into(),
        ),
        (
            "max_storage_textures_per_shader_stage",
            l.max_storage_textures_per_shader_stage.into(),
            STORAGE_TEXTURES_PER_STAGE.into(),
        ),
        (
            "max_bind_groups",
            l.max_bind_groups.into(),
            BIND_GROUPS.into(),
        ),
        (
            "max_uniform_buffer_binding_size",
            l.max_uniform_buffer_binding_size,
            largest_uniform(),
        ),
        (
            "max_compute_workgroup_storage_size",
            l.max_compute_workgroup_storage_size.into(),
            WORKGROUP_MEMORY.into(),
        ),
        (
            "max_compute_workgroup_size_x",
            l.max_compute_workgroup_size_x.into(),
            64,
        ),
        (
            "max_compute_invocations_per_workgroup",
            l.max_compute_invocations_per_workgroup.into(),
            64,
        ),
        (
            "max_compute_workgroups_per_dimension",
            l.max_compute_workgroups_per_dimension.into(),
            65_535,
        ),
    ]
}

/// The limits of `l` that fall short, each as "name: has N, needs M".
pub(crate) fn short_limits(l: &wgpu::Limits) -> Vec<String> {
    limits(l)
        .into_iter()
        .filter(|&(_, has, needs)| has < needs)
        .map(|(name, has, needs)| format!("{name}: has {has}, needs {needs}"))
        .collect()
}

/// What `adapter` lacks of what flurry needs (empty: nothing).
pub(crate) fn missing(adapter: &wgpu::Adapter) -> Vec<String> {
    let mut missing = Vec::new();
    let flags = adapter.get_downlevel_capabilities().flags;
    if !flags.contains(DOWNLEVEL) {
        missing.push(format!("{:?}", DOWNLEVEL.difference(flags)));
    }
    for format in STORAGE_WRITES {
        let features = adapter.get_texture_format_features(format);
        let storage = features
            .allowed_usages
            .contains(wgpu::TextureUsages::STORAGE_BINDING)
            && features
                .flags
                .contains(wgpu::TextureFormatFeatureFlags::STORAGE_WRITE_ONLY);
        if !storage {
            missing.push(format!("write-only {format:?} storage textures"));
        }
    }
    missing.extend(short_limits(&adapter.limits()));
    missing
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn webgpu_default_limits_are_enough_and_less_is_refused_by_name() {
        assert_eq!(short_limits(&wgpu::Limits::default()), Vec::<String>::new());
        // (16 KiB of uniform: a batch's table does not fit)
        let short = short_limits(&wgpu::Limits::downlevel_defaults());
        let uniform = format!(
            "max_uniform_buffer_binding_size: has 16384, needs {}",
            largest_uniform()
        );
        assert!(short.contains(&uniform), "{short:?}");
        let short = short_limits(&wgpu::Limits::downlevel_webgl2_defaults());
        assert!(
            short
                .iter()
                .any(|s| s.starts_with("max_storage_buffers_per_shader_stage: has 0")),
            "{short:?}"
        );
    }
}
