//! Batched emit (`shaders/batch_emit.wgsl`): the frame's spawns of many small pools in one
//! dispatch, the pools sized per slot of one chunk of the arena ([`crate::arena`]) whose
//! effects are placed once and have no massive bodies, a workgroup row a pool.
//!
//! Its tables: where each pool is, its effect's constants and its emit uniforms (written
//! when its emitters' fields change), and a uniform table of each pool's spawns of the frame
//! ([`BatchSpawns`]: the one part of them that changes every frame, copied in one piece).

use super::batch_relist::{BatchMember, BATCH_ROWS};
use super::{bind_buffers, buffer_layout, compute_pipeline, read_only, read_only_table};
use super::{read_write, uniform_array, Binding, BufferSlot};
use crate::arena::Chunk;
use crate::compiler::Compiler;
use crate::mesh::SurfaceTriangle;
use crate::shaders::Shader;
use crate::types::{Counters, EffectParams, EmitUniforms, Particle, MAX_EMITTERS};

/// One pool's spawns of the frame (`BatchSpawns` in batch_emit.wgsl, 160 bytes): the head
/// of its emit uniforms and each emitter's spawns, as its update staged them.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub(crate) struct BatchSpawns {
    pub request: u32,
    pub id_base: u32,
    pub emitter_count: u32,
    pub step: f32,
    pub frame: f32,
    pub instances: u32,
    pub per_instance: u32,
    pub time: f32,
    pub emitters: [EmitterSpawns; MAX_EMITTERS],
}

/// One emitter's spawns of the frame (`EmitterSpawns` in batch_emit.wgsl).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub(crate) struct EmitterSpawns {
    pub first: u32,
    pub count: u32,
    pub burst_count: u32,
    pub burst_at: f32,
}

impl BatchSpawns {
    /// The spawns of `emit` (its emitters past its count left as zeros).
    pub fn of(emit: &EmitUniforms) -> Self {
        let mut emitters = [EmitterSpawns::default(); MAX_EMITTERS];
        let used = (emit.emitter_count as usize).min(MAX_EMITTERS);
        for (s, e) in emitters.iter_mut().zip(&emit.emitters[..used]) {
            *s = EmitterSpawns {
                first: e.spawn_first,
                count: e.spawn_count,
                burst_count: e.burst_count,
                burst_at: e.burst_at,
            };
        }
        BatchSpawns {
            request: emit.request,
            id_base: emit.id_base,
            emitter_count: emit.emitter_count,
            step: emit.step,
            frame: emit.frame,
            instances: emit.instances,
            per_instance: emit.per_instance,
            time: emit.time,
            emitters,
        }
    }
}

/// batch_emit.wgsl's group 0, in binding order.
pub(super) fn slots() -> [BufferSlot; 9] {
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
        uniform_array::<BatchSpawns>(BATCH_ROWS),
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

/// The tables of one batch (at most [`BATCH_ROWS`] pools), a row a pool: where it is in the
/// chunk, its effect's constants, its emit uniforms (each laid out as its uniform is) and
/// its spawns of the frame.
pub(crate) struct BatchEmitTables<'a> {
    pub members: &'a wgpu::Buffer,
    pub effects: &'a wgpu::Buffer,
    pub emits: &'a wgpu::Buffer,
    pub spawns: &'a wgpu::Buffer,
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
        let buffers: [&dyn Binding; 9] = [
            &chunk.particles,
            &chunk.dead(),
            &chunk.alive(0),
            &chunk.counters,
            tables.members,
            tables.effects,
            tables.emits,
            surface,
            tables.spawns,
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
