//! Batched simulate (`shaders/batch_simulate.wgsl`): the step of many small pools in one
//! dispatch, the pools sized per slot of one chunk of the arena ([`crate::arena`]) whose
//! effects compile to the same [`SimulateVariant`], a workgroup row a pool.

use super::batch_relist::{BatchMember, BATCH_ROWS};
use super::simulate::SimulateVariant;
use super::{bind_buffers, buffer_layout, compute_pipeline, read_write, BufferSlot};
use super::{uniform_array, uniform_rows};
use crate::arena::Chunk;
use crate::compiler::Compiler;
use crate::shaders::Shader;
use crate::types::{Counters, EffectParams, Particle};

/// batch_simulate.wgsl's group 0, in binding order.
pub(super) fn slots() -> [BufferSlot; 8] {
    [
        read_write::<Particle>(),
        // (read only, but beside lists written in the same buffer: bound for writing too)
        read_write::<u32>(),
        read_write::<u32>(),
        read_write::<u32>(),
        read_write::<Counters>(),
        uniform_array::<BatchMember>(BATCH_ROWS),
        uniform_rows::<EffectParams>(BATCH_ROWS),
        uniform_array::<StepClock>(BATCH_ROWS),
    ]
}

/// What a step reads of a member's frame uniforms (`StepClock` in batch_simulate.wgsl),
/// written every frame.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub(crate) struct StepClock {
    /// The view's origin.
    pub eye: [f32; 3],
    /// The step, seconds.
    pub dt: f32,
    /// The effect's clock, seconds.
    pub time: f32,
    pub _pad: [u32; 3],
}

/// batch_simulate.wgsl's group 0 layout, shared by every variant.
pub(crate) fn batch_simulate_layout(device: &wgpu::Device) -> wgpu::BindGroupLayout {
    buffer_layout(
        device,
        "batch_simulate",
        wgpu::ShaderStages::COMPUTE,
        &slots(),
    )
}

/// One variant's batched simulate.
pub(crate) struct BatchSimulatePass {
    layout: wgpu::BindGroupLayout,
    pipeline: wgpu::ComputePipeline,
}

/// One batch's bind group and dispatch size.
pub(crate) struct BatchSimulate {
    bind: wgpu::BindGroup,
    /// Workgroups of its largest pool (x) and its pools (y).
    groups: (u32, u32),
}

/// The tables of one batch, a row a pool: where it is in the chunk, its effect's constants
/// (each laid out as its uniform is), its clock. Uniforms of [`BATCH_ROWS`] rows.
pub(crate) struct BatchTables<'a> {
    pub members: &'a wgpu::Buffer,
    pub effects: &'a wgpu::Buffer,
    pub clocks: &'a wgpu::Buffer,
}

impl BatchSimulatePass {
    /// The pass for pools of `variant` (one that [`SimulateVariant::batches`]), its group
    /// 0 laid out by `layout` ([`batch_simulate_layout`]).
    pub fn new(
        device: &Compiler,
        variant: SimulateVariant,
        layout: &wgpu::BindGroupLayout,
    ) -> Self {
        let groups = [Some(layout)];
        let consts = variant.consts();
        let pipeline = compute_pipeline(device, Shader::BatchSimulate, "main", &groups, &consts);
        BatchSimulatePass {
            layout: layout.clone(),
            pipeline,
        }
    }

    /// The simulate of the `pools` pools of `chunk` that `tables` list (no more than
    /// [`BATCH_ROWS`]), the largest of `most_slots`.
    pub fn bind(
        &self,
        device: &wgpu::Device,
        chunk: &Chunk,
        tables: &BatchTables,
        (pools, most_slots): (u32, u32),
    ) -> BatchSimulate {
        let buffers: [&dyn super::Binding; 8] = [
            &chunk.particles,
            &chunk.alive(0),
            &chunk.alive(1),
            &chunk.dead(),
            &chunk.counters,
            tables.members,
            tables.effects,
            tables.clocks,
        ];
        BatchSimulate {
            bind: bind_buffers(device, "batch_simulate", &self.layout, &buffers),
            groups: (most_slots.div_ceil(64), pools),
        }
    }

    /// One step of every pool of the batch, through its current alive list into its next
    /// (the batched relist follows).
    pub fn record(&self, pass: &mut wgpu::ComputePass, batch: &BatchSimulate) {
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, &batch.bind, &[]);
        pass.dispatch_workgroups(batch.groups.0, batch.groups.1, 1);
    }
}
