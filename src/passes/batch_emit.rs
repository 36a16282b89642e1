//! Batched emit (`shaders/batch_emit.wgsl`): the frame's spawns of many small pools in one
//! dispatch, the pools sized per slot of one chunk of the arena ([`crate::arena`]) whose
//! effects are placed once and have no massive bodies, a workgroup row a pool.

use super::batch_relist::BatchMember;
use super::{bind_buffers, buffer_layout, compute_pipeline, read_only, read_only_table};
use super::{read_write, Binding, BufferSlot};
use crate::arena::Chunk;
use crate::compiler::Compiler;
use crate::mesh::SurfaceTriangle;
use crate::shaders::Shader;
use crate::types::{Counters, EffectParams, EmitUniforms, Particle};

/// batch_emit.wgsl's group 0, in binding order.
pub(super) fn slots() -> [BufferSlot; 8] {
    [
        read_write::<Particle>(),
        // (read only, but beside lists written in the same buffer: bound for writing too)
        read_write::<u32>(),
        read_write::<u32>(),
        read_write::<Counters>(),
        read_only::<BatchMember>(),
        read_only_table::<EffectParams>(),
        read_only_table::<EmitUniforms>(),
        read_only::<SurfaceTriangle>(),
    ]
}

pub(crate) struct BatchEmitPass {
    layout: wgpu::BindGroupLayout,
    pipeline: wgpu::ComputePipeline,
}

/// One batch's bind group and pools.
pub(crate) struct BatchEmit {
    bind: wgpu::BindGroup,
    pools: u32,
}

/// The tables of one batch, a row a pool: where it is in the chunk, its effect's constants
/// and its frame's emit uniforms (each laid out as its uniform is; the last written every
/// frame).
pub(crate) struct BatchEmitTables<'a> {
    pub members: &'a wgpu::Buffer,
    pub effects: &'a wgpu::Buffer,
    pub emits: &'a wgpu::Buffer,
}

impl BatchEmitPass {
    pub fn new(device: &Compiler) -> Self {
        let c = wgpu::ShaderStages::COMPUTE;
        let layout = buffer_layout(device, "batch_emit", c, &slots());
        let groups = [Some(&layout)];
        let pipeline = compute_pipeline(device, Shader::BatchEmit, "main", &groups, &[]);
        BatchEmitPass { layout, pipeline }
    }

    /// The emit of the `pools` pools of `chunk` that `tables` list (no more than the
    /// per-dimension dispatch limit); `surface`: the renderer's mesh triangles.
    pub fn bind(
        &self,
        device: &wgpu::Device,
        chunk: &Chunk,
        tables: &BatchEmitTables,
        (surface, pools): (&wgpu::Buffer, u32),
    ) -> BatchEmit {
        let buffers: [&dyn Binding; 8] = [
            &chunk.particles,
            &chunk.dead(),
            &chunk.alive(0),
            &chunk.counters,
            tables.members,
            tables.effects,
            tables.emits,
            surface,
        ];
        BatchEmit {
            bind: bind_buffers(device, "batch_emit", &self.layout, &buffers),
            pools,
        }
    }

    /// The frame's spawns of every pool of the batch, the most any of them asks for being
    /// `most_request` (at most its capacity: the clock drops the rest); one workgroup a
    /// pool at least, whose first thread starts the pool's frame as emit.wgsl's does.
    pub fn record(&self, pass: &mut wgpu::ComputePass, batch: &BatchEmit, most_request: u32) {
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, &batch.bind, &[]);
        pass.dispatch_workgroups(most_request.div_ceil(64).max(1), batch.pools, 1);
    }
}
