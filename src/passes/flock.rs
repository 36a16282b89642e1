//! Flock pass (`shaders/flock.wgsl`): boids steering each bird by the birds around it,
//! found through the neighbour grid built just before; simulate adds the steering to the
//! effect's forces.

use super::grid::NeighbourGrid;
use super::Binding;
use super::{bind_buffers, buffer_layout, compute_pipeline, dispatch_over_pool, BufferSlot};
use super::{read_only, read_write, uniform};
use crate::compiler::Compiler;
use crate::pool::ParticlePool;
use crate::shaders::Shader;
use crate::types::*;

/// flock.wgsl's group 0, in binding order.
pub(super) fn slots() -> [BufferSlot; 7] {
    [
        read_write::<Counters>(),
        read_only::<u32>(),
        read_only::<GridEntry>(),
        uniform::<GridParams>(),
        uniform::<FlockParams>(),
        uniform::<FrameUniforms>(),
        read_write::<[f32; 4]>(),
    ]
}

pub(crate) struct FlockPass {
    layout: wgpu::BindGroupLayout,
    pipeline: wgpu::ComputePipeline,
}

impl FlockPass {
    pub fn new(device: &Compiler) -> Self {
        let layout = buffer_layout(device, "flock", wgpu::ShaderStages::COMPUTE, &slots());
        let pipeline = compute_pipeline(device, Shader::Flock, "main", &[Some(&layout)], &[]);
        FlockPass { layout, pipeline }
    }

    /// Bind group over `pool`'s alive particles and their `grid`, steering by `flock` (a
    /// [`FlockParams`] uniform) over a step of `frame` (the system's [`FrameUniforms`]).
    pub fn bind(
        &self,
        device: &wgpu::Device,
        pool: &ParticlePool,
        grid: &NeighbourGrid,
        flock: &wgpu::Buffer,
        frame: &dyn Binding,
    ) -> wgpu::BindGroup {
        bind_buffers(
            device,
            "flock",
            &self.layout,
            &[
                &pool.counters,
                grid.buckets(),
                grid.entries(),
                grid.params(),
                flock,
                frame,
                &pool.accel,
            ],
        )
    }

    /// One thread per alive particle (the simulate dispatch, sized on the GPU), after the
    /// grid's build.
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
