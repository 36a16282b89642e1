//! Emit pass (`shaders/emit.wgsl`): pop dead indices, initialise, append to the alive list;
//! `spawn_on_hit` does the same at the GPU events simulate wrote.

use super::{bind, buffer_entries, buffer_resources, graph_table_entry, layout, module_pipeline};
use super::{dispatch_from_args, read_only, read_write, uniform, uniform_array, BufferSlot};
use super::{Binding, GraphInputs};
use crate::compiler::Compiler;
use crate::mesh::SurfaceTriangle;
use crate::pool::{ParticlePool, Sizing};
use crate::shaders::Shader;
use crate::types::*;

/// emit.wgsl's group 0 buffers, in binding order (`main` leaves the hit events unused);
/// the effect's baked table follows them.
pub(super) fn slots() -> [BufferSlot; 12] {
    [
        read_write::<Particle>(),
        // (read only, but a range of the buffer alive lists are in: bound for writing too)
        read_write::<u32>(),
        read_write::<u32>(),
        read_write::<Counters>(),
        uniform::<EmitUniforms>(),
        uniform::<EffectParams>(),
        uniform_array::<Body>(MAX_BODIES),
        read_only::<HitEvent>(),
        read_only::<SurfaceTriangle>(),
        read_only::<InstanceGpu>(),
        uniform::<GraphParams>(),
        read_write::<u32>(),
    ]
}

/// Where emit.wgsl binds the effect's baked table.
const TABLE_BINDING: u32 = 12;

pub(crate) struct EmitPass {
    layout: wgpu::BindGroupLayout,
    pipeline: wgpu::ComputePipeline,
    on_hit: wgpu::ComputePipeline,
    trails: wgpu::ComputePipeline,
}

impl EmitPass {
    /// The emit with an effect's init stacks (`graph`: a block of
    /// [`crate::effect::graph::Graph::wgsl`], or None for the empty hooks).
    pub fn new(device: &Compiler, graph: Option<&str>) -> Self {
        let mut entries = buffer_entries(wgpu::ShaderStages::COMPUTE, &slots());
        entries.push(graph_table_entry(TABLE_BINDING));
        let layout = layout(device, "emit", &entries);
        let source = match graph {
            Some(block) => Shader::Emit.generated(&[], block),
            None => Shader::Emit.specialised(&[]),
        };
        let module = Shader::Emit.module_of(device, source);
        let layouts = [Some(&layout)];
        let pipeline = |entry| module_pipeline(device, (&module, "emit"), entry, &layouts);
        EmitPass {
            pipeline: pipeline("main"),
            on_hit: pipeline("spawn_on_hit"),
            trails: pipeline("spawn_trails"),
            layout,
        }
    }

    /// Bind group appending to alive list 0; `record` spawns from the CPU's request,
    /// `record_on_hit` at the hit events. `surface`: the renderer's mesh triangles.
    pub fn bind(
        &self,
        device: &wgpu::Device,
        pool: &ParticlePool,
        emit: &dyn Binding,
        (effect, bodies): (&wgpu::Buffer, &wgpu::Buffer),
        (surface, instances): (&wgpu::Buffer, &wgpu::Buffer),
        (params, table, attributes): GraphInputs,
    ) -> wgpu::BindGroup {
        let mut resources = buffer_resources(&[
            &pool.particles,
            &pool.dead,
            &pool.alive[0],
            &pool.counters,
            emit,
            effect,
            bodies,
            &pool.hit_events,
            surface,
            instances,
            params,
            attributes,
        ]);
        resources.push((TABLE_BINDING, wgpu::BindingResource::TextureView(table)));
        bind(device, "emit", &self.layout, &resources)
    }

    /// One thread per spawn the hits ask for (sized on the GPU after simulate).
    pub fn record_on_hit(
        &self,
        pass: &mut wgpu::ComputePass,
        bind: &wgpu::BindGroup,
        pool: &ParticlePool,
    ) {
        let offset = IndirectArgs::SPAWN_OFFSET;
        dispatch_from_args(pass, &self.on_hit, &[bind], &pool.args, offset);
    }

    /// One thread per particle of the live list (args.wgsl `before_trails` sized it).
    pub fn record_trails(
        &self,
        pass: &mut wgpu::ComputePass,
        bind: &wgpu::BindGroup,
        pool: &ParticlePool,
    ) {
        super::dispatch_over_alive(pass, &self.trails, bind, pool);
    }

    /// One thread per requested spawn (the request is known on the CPU: rate·dt + bursts);
    /// for a pool sized per slot at least one, whose first thread starts the frame's event
    /// count (args.wgsl `after_emit` does for a counted pool).
    pub fn record(
        &self,
        pass: &mut wgpu::ComputePass,
        bind: &wgpu::BindGroup,
        request: u32,
        sizing: Sizing,
    ) {
        let threads = match sizing {
            Sizing::Counted => request,
            Sizing::PerSlot => request.max(1),
        };
        if threads == 0 {
            return;
        }
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, bind, &[]);
        super::dispatch_threads(pass, threads);
    }
}
