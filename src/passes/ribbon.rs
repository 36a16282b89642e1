//! The ribbon piece listing, `shaders/ribbon_pieces.wgsl`: the pieces of every span of the
//! sorted ribbon list, also put in the visible list, which the draw
//! (`shaders/draw.wgsl`, with `shaders/ribbon.wgsl`'s geometry) draws among the
//! billboards (the counts written on the GPU: no read-back).

use super::Binding;
use super::{bind_buffers, buffer_layout, compute_pipeline, dispatch_over_alive};
use super::{read_only, read_write, uniform, BufferSlot};
use crate::compiler::Compiler;
use crate::pool::ParticlePool;

/// A `RibbonPoint` (common.wgsl) as bytes: the Rust side never reads one.
pub(super) type RibbonPointBytes = [u32; 12];
use crate::shaders::Shader;
use crate::types::{Counters, EffectParams, FrameUniforms, Particle};

/// ribbon_pieces.wgsl's group 0, in binding order.
pub(super) fn piece_slots() -> [BufferSlot; 9] {
    [
        read_only::<Particle>(),
        read_only::<[u32; 2]>(),
        read_write::<Counters>(),
        read_write::<[u32; 2]>(),
        uniform::<FrameUniforms>(),
        uniform::<EffectParams>(),
        read_write::<RibbonPointBytes>(),
        read_write::<[u32; 2]>(),
        read_write::<Counters>(),
    ]
}

/// The piece listing (one per renderer).
pub(crate) struct RibbonPieces {
    layout: wgpu::BindGroupLayout,
    pipeline: wgpu::ComputePipeline,
}

impl RibbonPieces {
    pub fn new(device: &Compiler) -> Self {
        let c = wgpu::ShaderStages::COMPUTE;
        let layout = buffer_layout(device, "ribbon_pieces", c, &piece_slots());
        let pipeline =
            compute_pipeline(device, Shader::RibbonPieces, "main", &[Some(&layout)], &[]);
        RibbonPieces { layout, pipeline }
    }

    pub fn bind(
        &self,
        device: &wgpu::Device,
        pool: &ParticlePool,
        frame: &dyn Binding,
        effect: &wgpu::Buffer,
    ) -> wgpu::BindGroup {
        let buffers: [&dyn Binding; 9] = [
            &pool.particles,
            &pool.ribbon_list,
            &pool.draw_counters,
            &pool.ribbon_pieces,
            frame,
            effect,
            &pool.ribbon_points,
            &pool.visible,
            &pool.counters,
        ];
        bind_buffers(device, "ribbon_pieces", &self.layout, &buffers)
    }

    /// One thread per alive particle (at least one per ribbon point), sized on the GPU.
    pub fn record(
        &self,
        pass: &mut wgpu::ComputePass,
        bind: &wgpu::BindGroup,
        pool: &ParticlePool,
    ) {
        dispatch_over_alive(pass, &self.pipeline, bind, pool);
    }
}
