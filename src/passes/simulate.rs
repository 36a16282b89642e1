//! Simulate pass (`shaders/simulate.wgsl`): forces, Euler step, age, spin, death by
//! lifetime or bounds; survivors to the next alive list, the dead to the dead list.

use super::{bind_buffers, compute_pipeline, layout, storage, uniform};
use crate::pool::ParticlePool;
use crate::shaders::Shader;
use crate::types::IndirectArgs;

const C: wgpu::ShaderStages = wgpu::ShaderStages::COMPUTE;

pub struct SimulatePass {
    layout: wgpu::BindGroupLayout,
    pipeline: wgpu::ComputePipeline,
}

impl SimulatePass {
    pub fn new(device: &wgpu::Device) -> Self {
        let layout = layout(
            device,
            "simulate",
            &[
                storage(0, false, C),
                storage(1, true, C),
                storage(2, false, C),
                storage(3, false, C),
                storage(4, false, C),
                uniform(5, C),
                uniform(6, C),
            ],
        );
        let pipeline = compute_pipeline(device, Shader::Simulate, "main", &layout);
        SimulatePass { layout, pipeline }
    }

    /// Bind group reading alive list `current` and appending to the other one.
    pub fn bind(
        &self,
        device: &wgpu::Device,
        pool: &ParticlePool,
        current: usize,
        frame: &wgpu::Buffer,
        effect: &wgpu::Buffer,
    ) -> wgpu::BindGroup {
        bind_buffers(
            device,
            "simulate",
            &self.layout,
            &[
                &pool.particles,
                &pool.alive[current],
                &pool.alive[1 - current],
                &pool.dead,
                &pool.counters,
                frame,
                effect,
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
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, bind, &[]);
        pass.dispatch_workgroups_indirect(&pool.args, IndirectArgs::SIM_OFFSET);
    }
}
