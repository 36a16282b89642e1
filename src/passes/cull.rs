//! Cull pass (`shaders/cull.wgsl`): frustum test of every alive particle; visible ones go
//! to the pool's visible list as (distance key, index), or to its splat list when they are
//! small enough on screen for the compute splat (`shaders/splat.wgsl`); ribbon points go
//! to its ribbon list.

use super::{bind_buffers, buffer_layout, compute_pipeline, dispatch_over_alive};
use super::{read_only, read_write, uniform, BufferSlot};
use crate::pool::ParticlePool;
use crate::shaders::Shader;
use crate::types::*;

/// cull.wgsl's group 0, in binding order.
pub(super) fn slots() -> [BufferSlot; 9] {
    [
        read_only::<Particle>(),
        read_only::<u32>(),
        read_write::<[u32; 2]>(),
        read_write::<Counters>(),
        uniform::<FrameUniforms>(),
        uniform::<EffectParams>(),
        read_write::<u32>(),
        read_write::<[u32; 2]>(),
        read_write::<Counters>(), // DrawCounters, of the same 64 bytes
    ]
}

pub(crate) struct CullPass {
    layout: wgpu::BindGroupLayout,
    pipeline: wgpu::ComputePipeline,
}

impl CullPass {
    pub fn new(device: &wgpu::Device) -> Self {
        let layout = buffer_layout(device, "cull", wgpu::ShaderStages::COMPUTE, &slots());
        let pipeline = compute_pipeline(device, Shader::Cull, "main", &[Some(&layout)], &[]);
        CullPass { layout, pipeline }
    }

    /// Bind group testing the particles of alive list `live`.
    pub fn bind(
        &self,
        device: &wgpu::Device,
        pool: &ParticlePool,
        live: usize,
        frame: &wgpu::Buffer,
        effect: &wgpu::Buffer,
    ) -> wgpu::BindGroup {
        bind_buffers(
            device,
            "cull",
            &self.layout,
            &[
                &pool.particles,
                &pool.alive[live],
                &pool.visible,
                &pool.counters,
                frame,
                effect,
                &pool.splat,
                &pool.ribbon_list,
                &pool.draw_counters,
            ],
        )
    }

    /// Indirect dispatch sized on the GPU from the alive count.
    pub fn record(
        &self,
        pass: &mut wgpu::ComputePass,
        bind: &wgpu::BindGroup,
        pool: &ParticlePool,
    ) {
        dispatch_over_alive(pass, &self.pipeline, bind, pool);
    }
}
