//! Gravity pass (`shaders/gravity.wgsl`): all-pairs accelerations of an effect's particles
//! (N-body mode), tiled through workgroup memory; simulate adds them.

use super::{bind_buffers, compute_pipeline, dispatch_from_args, layout, storage, uniform};
use crate::pool::ParticlePool;
use crate::shaders::Shader;
use crate::types::IndirectArgs;

const C: wgpu::ShaderStages = wgpu::ShaderStages::COMPUTE;

pub struct GravityPass {
    layout: wgpu::BindGroupLayout,
    pipeline: wgpu::ComputePipeline,
}

impl GravityPass {
    pub fn new(device: &wgpu::Device) -> Self {
        let layout = layout(
            device,
            "gravity",
            &[
                storage(0, true, C),
                storage(1, true, C),
                storage(2, false, C),
                uniform(3, C),
                storage(4, false, C),
            ],
        );
        let pipeline = compute_pipeline(device, Shader::Gravity, "main", &layout);
        GravityPass { layout, pipeline }
    }

    /// Bind group over alive list `current` (the particles simulate will move).
    pub fn bind(
        &self,
        device: &wgpu::Device,
        pool: &ParticlePool,
        current: usize,
        effect: &wgpu::Buffer,
    ) -> wgpu::BindGroup {
        bind_buffers(
            device,
            "gravity",
            &self.layout,
            &[
                &pool.particles,
                &pool.alive[current],
                &pool.counters,
                effect,
                &pool.accel,
            ],
        )
    }

    /// One thread per alive particle (the simulate dispatch, sized on the GPU).
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
            IndirectArgs::SIM_OFFSET,
        );
    }
}
