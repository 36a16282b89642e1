//! Ribbon pass (`shaders/ribbon.wgsl`): each ribbon emitter's points, sorted into spawn
//! order, drawn as a camera-facing strip along a centripetal Catmull-Rom spline, into the
//! particle target after the effect's billboards (one instance per span, its vertex count
//! and instance count written on the GPU: no read-back).

use super::draw::{blend_state, target_layout, PARTICLE_FORMAT};
use super::{bind_buffers, read_only, render_pipeline, uniform, BufferSlot};
use crate::effect::Blend;
use crate::pool::{ParticlePool, RIBBON_DRAW_OFFSET};
use crate::shaders::Shader;
use crate::types::{EffectParams, FrameUniforms, Particle};

/// ribbon.wgsl's group 0, in binding order.
pub(super) fn slots() -> [BufferSlot; 4] {
    [
        read_only::<Particle>(),
        read_only::<[u32; 2]>(),
        uniform::<FrameUniforms>(),
        uniform::<EffectParams>(),
    ]
}

/// Vertices an instance draws for spans of up to `subdivisions` extra pieces: two
/// triangles per piece.
pub(crate) fn vertices_per_span(subdivisions: u32) -> u32 {
    6 * (subdivisions + 1)
}

pub(crate) struct RibbonPass {
    layout: wgpu::BindGroupLayout,
    pipeline: wgpu::RenderPipeline,
}

impl RibbonPass {
    pub fn new(device: &wgpu::Device, blend: Blend) -> Self {
        let vf = wgpu::ShaderStages::VERTEX_FRAGMENT;
        let entries: Vec<_> = slots()
            .iter()
            .enumerate()
            .map(|(b, slot)| slot.entry(b as u32, vf))
            .collect();
        let layout = super::layout(device, "ribbon", &entries);
        let target = wgpu::ColorTargetState {
            format: PARTICLE_FORMAT,
            blend: Some(blend_state(blend)),
            write_mask: wgpu::ColorWrites::ALL,
        };
        let layouts = [&layout, &target_layout(device)];
        let pipeline = render_pipeline(device, (Shader::Ribbon, &[]), &layouts, (target, 1), None);
        RibbonPass { layout, pipeline }
    }

    /// Bind group drawing the pool's sorted ribbon list.
    pub fn bind(
        &self,
        device: &wgpu::Device,
        pool: &ParticlePool,
        frame: &wgpu::Buffer,
        effect: &wgpu::Buffer,
    ) -> wgpu::BindGroup {
        let buffers = [&pool.particles, &pool.ribbon_list, frame, effect];
        bind_buffers(device, "ribbon", &self.layout, &buffers)
    }

    /// Draw into a pass whose bind group 1 (the draw's [`target_layout`]) is already set.
    pub fn record(&self, pass: &mut wgpu::RenderPass, bind: &wgpu::BindGroup, pool: &ParticlePool) {
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, bind, &[]);
        pass.draw_indirect(&pool.ribbon_counters, RIBBON_DRAW_OFFSET);
    }
}
