//! Emit pass (`shaders/emit.wgsl`): pop dead indices, initialise, append to the alive list.

use super::{bind_buffers, compute_pipeline, layout, storage, uniform};
use crate::pool::ParticlePool;
use crate::shaders::Shader;
use crate::types::WORKGROUP;

const C: wgpu::ShaderStages = wgpu::ShaderStages::COMPUTE;

pub struct EmitPass {
    layout: wgpu::BindGroupLayout,
    pipeline: wgpu::ComputePipeline,
    on_hit: wgpu::ComputePipeline,
}

impl EmitPass {
    pub fn new(device: &wgpu::Device) -> Self {
        // one layout for both entry points: `main` leaves the hit events (binding 7) unused
        let layout = layout(
            device,
            "emit",
            &[
                storage(0, false, C),
                storage(1, true, C),
                storage(2, false, C),
                storage(3, false, C),
                uniform(4, C),
                uniform(5, C),
                storage(6, true, C),
                storage(7, true, C),
            ],
        );
        let pipeline = compute_pipeline(device, Shader::Emit, "main", &layout);
        let on_hit = compute_pipeline(device, Shader::Emit, "spawn_on_hit", &layout);
        EmitPass {
            layout,
            pipeline,
            on_hit,
        }
    }

    /// Bind group appending to alive list `current`; `record` spawns from the CPU's request,
    /// `record_on_hit` at the hit events into the list simulate wrote.
    pub fn bind(
        &self,
        device: &wgpu::Device,
        pool: &ParticlePool,
        current: usize,
        emit: &wgpu::Buffer,
        effect: &wgpu::Buffer,
        bodies: &wgpu::Buffer,
    ) -> wgpu::BindGroup {
        bind_buffers(
            device,
            "emit",
            &self.layout,
            &[
                &pool.particles,
                &pool.dead,
                &pool.alive[current],
                &pool.counters,
                emit,
                effect,
                bodies,
                &pool.hit_events,
            ],
        )
    }

    /// One thread per spawn the hits ask for (sized on the GPU after simulate).
    pub fn record_on_hit(
        &self,
        pass: &mut wgpu::ComputePass,
        bind: &wgpu::BindGroup,
        pool: &ParticlePool,
    ) {
        let offset = crate::types::IndirectArgs::SPAWN_OFFSET;
        super::dispatch_from_args(pass, &self.on_hit, &[bind], pool, offset);
    }

    /// One thread per requested spawn (the request is known on the CPU: rate·dt + bursts).
    pub fn record(&self, pass: &mut wgpu::ComputePass, bind: &wgpu::BindGroup, request: u32) {
        if request == 0 {
            return;
        }
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, bind, &[]);
        pass.dispatch_workgroups(request.div_ceil(WORKGROUP), 1, 1);
    }
}
