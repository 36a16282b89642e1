//! Simulate pass (`shaders/simulate.wgsl`): forces, Euler step, age, spin, death by
//! lifetime or bounds; survivors to the next alive list, the dead to the dead list.

use super::{
    bind_buffers, compute_pipeline_with, dispatch_from_args, layout, storage, texture, uniform,
};
use crate::pool::ParticlePool;
use crate::shaders::Shader;
use crate::types::IndirectArgs;

const C: wgpu::ShaderStages = wgpu::ShaderStages::COMPUTE;

pub struct SimulatePass {
    layout: wgpu::BindGroupLayout,
    pipeline: wgpu::ComputePipeline,
}

impl SimulatePass {
    /// `collide`: compile depth collision in (effects that have a collision response).
    pub fn new(device: &wgpu::Device, collide: bool) -> Self {
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
                storage(7, true, C),
                storage(8, false, C),
                storage(9, true, C),
            ],
        );
        let collision = collision_layout(device);
        let consts = [("COLLIDE", collide as u32)];
        let layouts = [&layout, &collision];
        let pipeline = compute_pipeline_with(device, Shader::Simulate, "main", &layouts, &consts);
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
        bodies: &wgpu::Buffer,
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
                bodies,
                &pool.hit_events,
                &pool.accel,
            ],
        )
    }

    /// Indirect dispatch sized on the GPU from the alive count; bind group 1
    /// ([`collision_layout`]) must be set.
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

/// Bind group 1 of simulate: the previous frame's depth (Rg32Float: farthest, nearest) and its camera.
pub fn collision_layout(device: &wgpu::Device) -> wgpu::BindGroupLayout {
    let depth = wgpu::TextureSampleType::Float { filterable: false };
    layout(device, "collision", &[texture(0, depth, C), uniform(1, C)])
}

/// A collision bind group over `depth` and a [`crate::types::CollisionFrame`] uniform.
pub fn collision_bind(
    device: &wgpu::Device,
    depth: &wgpu::TextureView,
    frame: &wgpu::Buffer,
) -> wgpu::BindGroup {
    device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("collision"),
        layout: &collision_layout(device),
        entries: &[
            wgpu::BindGroupEntry {
                binding: 0,
                resource: wgpu::BindingResource::TextureView(depth),
            },
            wgpu::BindGroupEntry {
                binding: 1,
                resource: frame.as_entire_binding(),
            },
        ],
    })
}
