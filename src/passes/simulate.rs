//! Simulate pass (`shaders/simulate.wgsl`): forces, Euler step, age, spin, death by
//! lifetime or bounds, depth collision; survivors to the next alive list, the dead to the
//! dead list, events to the hit-event buffer.

use super::{bind, bind_buffers, buffer_layout, compute_pipeline, dispatch_from_args};
use super::{layout, read_only, read_write, texture, uniform, BufferSlot};
use crate::pool::ParticlePool;
use crate::shaders::Shader;
use crate::types::*;

const C: wgpu::ShaderStages = wgpu::ShaderStages::COMPUTE;

/// simulate.wgsl's group 0, in binding order.
pub(super) fn slots() -> [BufferSlot; 10] {
    [
        read_write::<Particle>(),
        read_only::<u32>(),
        read_write::<u32>(),
        read_write::<u32>(),
        read_write::<Counters>(),
        uniform::<FrameUniforms>(),
        uniform::<EffectParams>(),
        read_only::<Body>(),
        read_write::<HitEvent>(),
        read_only::<[f32; 4]>(),
    ]
}

pub(crate) struct SimulatePass {
    layout: wgpu::BindGroupLayout,
    pipeline: wgpu::ComputePipeline,
}

impl SimulatePass {
    /// `collide`: compile depth collision in (effects that have a collision response; on
    /// lavapipe even the untaken branch into it doubled the pass). Group 1 is laid out by
    /// `collision` ([`collision_layout`]).
    pub fn new(device: &wgpu::Device, collide: bool, collision: &wgpu::BindGroupLayout) -> Self {
        let layout = buffer_layout(device, "simulate", C, &slots());
        let consts = [("COLLIDE", collide as u32)];
        let layouts = [Some(&layout), Some(collision)];
        let pipeline = compute_pipeline(device, Shader::Simulate, "main", &layouts, &consts);
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

    /// Indirect dispatch sized on the GPU from the alive count; bind group 1 (a
    /// [`collision_bind`]) must be set.
    pub fn record(
        &self,
        pass: &mut wgpu::ComputePass,
        bind: &wgpu::BindGroup,
        pool: &ParticlePool,
    ) {
        let offset = IndirectArgs::SIM_OFFSET;
        dispatch_from_args(pass, &self.pipeline, &[bind], pool, offset);
    }
}

/// Simulate's group 1: the previous frame's depth (Rg32Float: farthest, nearest) and a
/// [`CollisionFrame`] uniform.
pub(crate) fn collision_layout(device: &wgpu::Device) -> wgpu::BindGroupLayout {
    let depth = wgpu::TextureSampleType::Float { filterable: false };
    let frame = uniform::<CollisionFrame>().entry(1, C);
    layout(device, "collision", &[texture(0, depth, C), frame])
}

/// A group 1 of simulate over `depth` and a [`CollisionFrame`] uniform `frame`.
pub(crate) fn collision_bind(
    device: &wgpu::Device,
    layout: &wgpu::BindGroupLayout,
    depth: &wgpu::TextureView,
    frame: &wgpu::Buffer,
) -> wgpu::BindGroup {
    let resources = [
        (0, wgpu::BindingResource::TextureView(depth)),
        (1, frame.as_entire_binding()),
    ];
    bind(device, "collision", layout, &resources)
}
