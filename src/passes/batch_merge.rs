//! Batched cull into a merged list (`shaders/batch_merge.wgsl`): the culls of many
//! small members of a merged list in one dispatch, the members whose pools are sized per
//! slot in one chunk of the arena ([`crate::arena`]), with no instances, by a
//! [`CullVariant`] with every render mode any of them shows, a workgroup row a member.

use crate::compiler::Compiler;
use std::sync::OnceLock;

use encase::ShaderType;

use super::batch_relist::BATCH_ROWS;
use super::cull::CullVariant;
use super::merge::MergedList;
use super::{bind_buffers, buffer_layout, compute_pipeline, read_only, read_write, uniform};
use super::{Binding, BufferSlot};
use crate::arena::Chunk;
use crate::shaders::Shader;
use crate::types::{uniform_bytes, Counters, EffectParams, FrameUniforms, Particle};

/// batch_merge.wgsl's group 0, in binding order.
pub(super) fn slots() -> [BufferSlot; 9] {
    [
        read_only::<Particle>(),
        read_only::<u32>(),
        read_write::<Counters>(),
        read_write::<[u32; 2]>(),
        uniform::<FrameUniforms>(),
        BufferSlot {
            ty: wgpu::BufferBindingType::Uniform,
            min: row_size() * BATCH_ROWS as u64,
        },
        read_write::<u32>(),
        read_write::<Particle>(),
        read_write::<Counters>(),
    ]
}

/// Which member a row of the batch culls, and where its pool is in the chunk (`CullMember`
/// in batch_merge.wgsl).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub(crate) struct CullMember {
    /// Its pool's first slot in the chunk, and its lists' first entry.
    pub first: u32,
    /// Its pool's counters' index in the chunk.
    pub counters: u32,
    /// Its index in the merged list (the instance bits of its copies).
    pub member: u32,
    /// The copies the merged lists hold.
    pub copies: u32,
}

/// Bytes of a row of the table (`CullRow`): the member, then its effect's constants as
/// their uniform holds them (an `EffectParams`' size is a multiple of its alignment, 16).
pub(crate) fn row_size() -> u64 {
    std::mem::size_of::<CullMember>() as u64 + EffectParams::min_size().get()
}

/// The table of a batch, a row a member: `rows` (at most [`BATCH_ROWS`]) of (member, its
/// effect's constants).
pub(crate) fn row_table(rows: &[(CullMember, &EffectParams)]) -> Vec<u8> {
    let mut table = Vec::with_capacity(rows.len() * row_size() as usize);
    for (member, params) in rows {
        table.extend_from_slice(bytemuck::bytes_of(member));
        table.extend_from_slice(&uniform_bytes(*params));
    }
    table
}

pub(crate) struct BatchMergePass {
    device: Compiler,
    layout: wgpu::BindGroupLayout,
    /// Its variants, built when a batch first needs one.
    cull: Vec<OnceLock<wgpu::ComputePipeline>>,
}

/// One batch's bind group and dispatch size.
pub(crate) struct BatchCull {
    bind: wgpu::BindGroup,
    /// Workgroups of its largest pool (x) and its members (y).
    groups: (u32, u32),
}

impl BatchMergePass {
    pub fn new(device: &Compiler) -> Self {
        let c = wgpu::ShaderStages::COMPUTE;
        BatchMergePass {
            device: device.clone(),
            layout: buffer_layout(device, "batch_merge", c, &slots()),
            cull: (0..CullVariant::COUNT).map(|_| OnceLock::new()).collect(),
        }
    }

    /// The batched cull's `variant` (no ribbons, no instances), built the first time a
    /// batch needs it (when the merged set is made, so that no frame's encode compiles it).
    pub fn cull(&self, variant: CullVariant) -> &wgpu::ComputePipeline {
        debug_assert!(
            !variant.ribbons && !variant.instanced && !variant.dots,
            "a batched member has no ribbons and no instances, and lists no dots apart"
        );
        self.cull[variant.index()].get_or_init(|| {
            let layouts = [Some(&self.layout)];
            let consts = variant.consts();
            compute_pipeline(&self.device, Shader::BatchMerge, "cull", &layouts, &consts)
        })
    }

    /// The cull into `list` of the `members` pools of `chunk` that `rows` (a
    /// [`row_table`]) names, no more than [`BATCH_ROWS`], the largest
    /// of `most_slots`; `frame`: any member's frame uniforms (the view is the renderer's).
    pub fn bind(
        &self,
        device: &wgpu::Device,
        (chunk, list): (&Chunk, &MergedList),
        (frame, rows): (&dyn Binding, &wgpu::Buffer),
        (members, most_slots): (u32, u32),
    ) -> BatchCull {
        let buffers: [&dyn Binding; 9] = [
            &chunk.particles,
            &chunk.alive(0),
            &chunk.counters,
            list.pairs,
            frame,
            rows,
            list.splat,
            list.copies,
            list.counters,
        ];
        BatchCull {
            bind: bind_buffers(device, "batch_merge", &self.layout, &buffers),
            groups: (most_slots.div_ceil(64), members),
        }
    }

    /// The variants built so far.
    #[cfg(test)]
    pub fn built(&self) -> usize {
        self.cull.iter().filter(|c| c.get().is_some()).count()
    }

    /// Cull every member of the batch into the merged lists with the cull's `variant`.
    pub fn record(&self, pass: &mut wgpu::ComputePass, variant: CullVariant, batch: &BatchCull) {
        pass.set_pipeline(self.cull(variant));
        pass.set_bind_group(0, &batch.bind, &[]);
        pass.dispatch_workgroups(batch.groups.0, batch.groups.1, 1);
    }
}
