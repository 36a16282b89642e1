//! Cull pass (`shaders/cull.wgsl`): frustum test of every alive particle; visible ones go
//! to the pool's visible list as (distance key, index), or to its splat list when they are
//! small enough on screen for the compute splat (`shaders/splat.wgsl`).

use super::{bind_buffers, compute_pipeline, dispatch_from_args, layout, storage, uniform};
use crate::pool::ParticlePool;
use crate::shaders::Shader;
use crate::types::IndirectArgs;

const C: wgpu::ShaderStages = wgpu::ShaderStages::COMPUTE;

pub struct CullPass {
    layout: wgpu::BindGroupLayout,
    pipeline: wgpu::ComputePipeline,
}

impl CullPass {
    pub fn new(device: &wgpu::Device) -> Self {
        let layout = layout(
            device,
            "cull",
            &[
                storage(0, true, C),
                storage(1, true, C),
                storage(2, false, C),
                storage(3, false, C),
                uniform(4, C),
                uniform(5, C),
                storage(6, false, C),
            ],
        );
        let pipeline = compute_pipeline(device, Shader::Cull, "main", &layout);
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
        dispatch_from_args(
            pass,
            &self.pipeline,
            &[bind],
            pool,
            IndirectArgs::CULL_OFFSET,
        );
    }
}
