//! Crowd pass (`shaders/crowd.wgsl`): every walker's state, destination and velocity from
//! its state table, its flow field, the walls and the walkers around it (found through the
//! neighbour grid built just before); simulate then moves it.

use super::grid::NeighbourGrid;
use super::{buffer_entries, texture, Binding, BufferSlot};
use super::{compute_pipeline, dispatch_over_pool, layout, read_only, read_write, uniform};
use crate::compiler::Compiler;
use crate::pool::ParticlePool;
use crate::shaders::Shader;
use crate::types::*;

/// crowd.wgsl's buffers in group 0, in binding order (the state table follows them).
pub(super) fn slots() -> [BufferSlot; 10] {
    [
        read_write::<Counters>(),
        read_only::<u32>(),
        read_only::<GridEntry>(),
        uniform::<GridParams>(),
        uniform::<CrowdParams>(),
        uniform::<FrameUniforms>(),
        read_write::<Particle>(),
        read_write::<Walker>(),
        read_only::<[f32; 4]>(),
        read_only::<f32>(),
    ]
}

/// What a crowd's bind group reads besides the pool and its grid.
pub(crate) struct CrowdInputs<'a> {
    /// Its [`CrowdParams`].
    pub params: &'a wgpu::Buffer,
    /// The system's [`FrameUniforms`].
    pub frame: &'a dyn Binding,
    /// A [`Walker`] per particle slot.
    pub walkers: &'a wgpu::Buffer,
    /// The flow fields, one after another (flow.wgsl's `way`).
    pub way: &'a wgpu::Buffer,
    /// The map's distance field (sdf.wgsl).
    pub sdf: &'a wgpu::Buffer,
    /// The state table.
    pub states: &'a wgpu::TextureView,
}

pub(crate) struct CrowdPass {
    layout: wgpu::BindGroupLayout,
    pipeline: wgpu::ComputePipeline,
}

impl CrowdPass {
    pub fn new(device: &Compiler) -> Self {
        let c = wgpu::ShaderStages::COMPUTE;
        let slots = slots();
        let mut entries = buffer_entries(c, &slots);
        let table = wgpu::TextureSampleType::Float { filterable: false };
        entries.push(texture(slots.len() as u32, table, c));
        let layout = layout(device, "crowd", &entries);
        let pipeline = compute_pipeline(device, Shader::Crowd, "main", &[Some(&layout)], &[]);
        CrowdPass { layout, pipeline }
    }

    /// Bind group over `pool`'s alive particles and their `grid`.
    pub fn bind(
        &self,
        device: &wgpu::Device,
        pool: &ParticlePool,
        grid: &NeighbourGrid,
        inputs: CrowdInputs<'_>,
    ) -> wgpu::BindGroup {
        let buffers: [&dyn Binding; _] = [
            &pool.counters,
            grid.buckets(),
            grid.entries(),
            grid.params(),
            inputs.params,
            inputs.frame,
            &pool.particles,
            inputs.walkers,
            inputs.way,
            inputs.sdf,
        ];
        let mut resources: Vec<_> = (0u32..)
            .zip(buffers)
            .map(|(b, buf)| (b, buf.resource()))
            .collect();
        let table = wgpu::BindingResource::TextureView(inputs.states);
        resources.push((buffers.len() as u32, table));
        super::bind(device, "crowd", &self.layout, &resources)
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
