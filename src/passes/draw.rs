//! Draw pass (`shaders/draw.wgsl`): camera-facing billboards pulled from the visible list by
//! `draw_indirect` (instance count written on the GPU), into an Rgba16Float target.

use super::{bind_buffers, layout, read_only, render_pipeline, texture, uniform};
use crate::effect::Blend;
use crate::pool::ParticlePool;
use crate::shaders::Shader;
use crate::types::{EffectParams, FrameUniforms, IndirectArgs, Particle};

/// Effects one draw can take from (`particles0..3`, `effect0..3` in draw.wgsl).
pub(crate) const MAX_SLOTS: usize = 4;

/// Format of the particle colour target.
pub(crate) const PARTICLE_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba16Float;

pub(crate) struct DrawPass {
    layout: wgpu::BindGroupLayout,
    pipeline: wgpu::RenderPipeline,
}

/// The particle target as a draw of `blend` writes it (the draw's and the ribbons').
pub(super) fn particle_target(blend: Blend) -> wgpu::ColorTargetState {
    wgpu::ColorTargetState {
        format: PARTICLE_FORMAT,
        blend: Some(blend_state(blend)),
        write_mask: wgpu::ColorWrites::ALL,
    }
}

fn blend_state(blend: Blend) -> wgpu::BlendState {
    let color = match blend {
        // premultiplied colour: additive is (One, One), "over" is (One, OneMinusSrcAlpha)
        Blend::Additive => wgpu::BlendComponent {
            src_factor: wgpu::BlendFactor::One,
            dst_factor: wgpu::BlendFactor::One,
            operation: wgpu::BlendOperation::Add,
        },
        Blend::Alpha => wgpu::BlendComponent {
            src_factor: wgpu::BlendFactor::One,
            dst_factor: wgpu::BlendFactor::OneMinusSrcAlpha,
            operation: wgpu::BlendOperation::Add,
        },
    };
    wgpu::BlendState {
        color,
        alpha: wgpu::BlendComponent {
            src_factor: wgpu::BlendFactor::One,
            dst_factor: wgpu::BlendFactor::OneMinusSrcAlpha,
            operation: wgpu::BlendOperation::Add,
        },
    }
}

impl DrawPass {
    pub fn new(device: &wgpu::Device, blend: Blend) -> Self {
        let vf = wgpu::ShaderStages::VERTEX_FRAGMENT;
        let v = wgpu::ShaderStages::VERTEX;
        // particles0..3, the draw list, the frame, effect0..3
        let particles = (0..4).map(|b| read_only::<Particle>().entry(b, v));
        let list = read_only::<[u32; 2]>().entry(4, v);
        let frame = uniform::<FrameUniforms>().entry(5, vf);
        let effects = (6..10).map(|b| uniform::<EffectParams>().entry(b, v));
        let entries: Vec<_> = particles.chain([list, frame]).chain(effects).collect();
        let layout = layout(device, "draw", &entries);
        let layouts = [&layout, &target_layout(device)];
        let target = (particle_target(blend), 1);
        let pipeline = render_pipeline(device, (Shader::Draw, &[]), &layouts, target, None);
        DrawPass { layout, pipeline }
    }

    /// Bind group drawing the pool's visible list in order.
    pub fn bind(
        &self,
        device: &wgpu::Device,
        pool: &ParticlePool,
        frame: &wgpu::Buffer,
        effect: &wgpu::Buffer,
    ) -> wgpu::BindGroup {
        self.bind_slots(device, &[(&pool.particles, effect)], &pool.visible, frame)
    }

    /// Bind group drawing `list`, whose entries' top 8 bits pick one of up to four
    /// (particles, effect) `slots` (unused slots repeat the first).
    pub fn bind_slots(
        &self,
        device: &wgpu::Device,
        slots: &[(&wgpu::Buffer, &wgpu::Buffer)],
        list: &wgpu::Buffer,
        frame: &wgpu::Buffer,
    ) -> wgpu::BindGroup {
        let slot = |k: usize| slots.get(k).unwrap_or(&slots[0]);
        let (p, e): (Vec<_>, Vec<_>) = (0..MAX_SLOTS).map(slot).map(|&(p, e)| (p, e)).unzip();
        bind_buffers(
            device,
            "draw",
            &self.layout,
            &[p[0], p[1], p[2], p[3], list, frame, e[0], e[1], e[2], e[3]],
        )
    }

    /// Draw `list` from a pass that already set bind group 1, with `count_args` holding
    /// the draw_indirect arguments at `offset`.
    pub fn record_list(
        &self,
        pass: &mut wgpu::RenderPass,
        bind: &wgpu::BindGroup,
        count_args: &wgpu::Buffer,
        offset: u64,
    ) {
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, bind, &[]);
        pass.draw_indirect(count_args, offset);
    }

    /// Draw into a pass whose bind group 1 ([`target_layout`]) is already set.
    pub fn record(&self, pass: &mut wgpu::RenderPass, bind: &wgpu::BindGroup, pool: &ParticlePool) {
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, bind, &[]);
        pass.draw_indirect(&pool.args, IndirectArgs::DRAW_OFFSET);
    }
}

/// Bind group 1 of the draw: the particle target's scene depth (Rg32Float: farthest,
/// nearest), the sprite array and its sampler ([`crate::sprites`]).
pub(crate) fn target_layout(device: &wgpu::Device) -> wgpu::BindGroupLayout {
    let depth = wgpu::TextureSampleType::Float { filterable: false };
    let f = wgpu::ShaderStages::FRAGMENT;
    let [sprites, sampler] = crate::sprites::layout_entries(1, f);
    layout(
        device,
        "draw_target",
        &[texture(0, depth, f), sprites, sampler],
    )
}
