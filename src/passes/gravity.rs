//! Gravity pass (`shaders/gravity.wgsl`): all-pairs accelerations of an effect's particles
//! (N-body mode), tiled through workgroup memory, or where the device has subgroup
//! operations shared through the subgroups' registers (`shaders/gravity_subgroups.wgsl`);
//! simulate adds them.

use super::{bind_buffers, buffer_layout, compute_pipeline, dispatch_over_pool, BufferSlot};
use super::{read_only, read_write, uniform};
use crate::pool::ParticlePool;
use crate::shaders::Shader;
use crate::types::*;

/// gravity.wgsl's group 0, in binding order.
pub(super) fn slots() -> [BufferSlot; 5] {
    [
        read_only::<Particle>(),
        read_only::<u32>(),
        read_write::<Counters>(),
        uniform::<EffectParams>(),
        read_write::<[f32; 4]>(),
    ]
}

pub(crate) struct GravityPass {
    layout: wgpu::BindGroupLayout,
    pipeline: wgpu::ComputePipeline,
}

impl GravityPass {
    /// The subgroup kernel where `device` has the `SUBGROUP` feature, else the tiled one.
    pub fn new(device: &wgpu::Device) -> Self {
        let layout = buffer_layout(device, "gravity", wgpu::ShaderStages::COMPUTE, &slots());
        let shader = match device.features().contains(wgpu::Features::SUBGROUP) {
            true => Shader::GravitySubgroups,
            false => Shader::Gravity,
        };
        let pipeline = compute_pipeline(device, shader, "main", &[Some(&layout)], &[]);
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
        let offset = IndirectArgs::SIM_OFFSET;
        dispatch_over_pool(pass, &self.pipeline, &[bind], pool, offset);
    }
}
