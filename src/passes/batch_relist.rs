//! Batched relist (`shaders/batch_relist.wgsl`): relist's count and copy for many pools
//! sized per slot in one dispatch, the pools whose lists and counters share a chunk of the
//! arena ([`crate::arena`]), a workgroup row a pool.

use super::{bind_buffers, buffer_layout, compute_pipeline, read_only, read_write, BufferSlot};
use crate::arena::Chunk;
use crate::compiler::Compiler;
use crate::shaders::Shader;
use crate::types::Counters;

/// batch_relist.wgsl's group 0, in binding order.
pub(super) fn slots() -> [BufferSlot; 4] {
    [
        // (read only, but beside lists written in the same buffer: bound for writing too)
        read_write::<u32>(),
        read_write::<u32>(),
        read_write::<Counters>(),
        read_only::<BatchMember>(),
    ]
}

/// Rows of a batch's uniform tables (`BATCH_ROWS` in batch.wgsl): the most pools one
/// batched simulate or cull dispatch serves. As many of the largest row (a cull's, a
/// [`super::batch_merge::row_size`]) as fit in the 64 KiB every device binds as a uniform.
/// (Read from a uniform, a row's constants cost a CPU driver a gather a field, where a
/// storage buffer's cost it a loop over the SIMD lanes: lavapipe's batched simulate and
/// cull of 100 small effects each took about 0.4 ms less.)
pub(crate) const BATCH_ROWS: usize = 60;

/// Where one pool of a batch is in its chunk (`BatchMember` in batch.wgsl).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, bytemuck::Pod, bytemuck::Zeroable)]
pub(crate) struct BatchMember {
    /// Its first slot in the chunk, and its lists' first entry.
    pub first: u32,
    /// Its counters' index in the chunk.
    pub counters: u32,
    pub _pad: [u32; 2],
}

pub(crate) struct BatchRelistPass {
    layout: wgpu::BindGroupLayout,
    pipeline: wgpu::ComputePipeline,
}

/// One batch's bind group and dispatch size.
pub(crate) struct BatchRelist {
    bind: wgpu::BindGroup,
    /// Workgroups of its largest pool (x) and its pools (y).
    groups: (u32, u32),
}

impl BatchRelistPass {
    pub fn new(device: &Compiler) -> Self {
        let c = wgpu::ShaderStages::COMPUTE;
        let layout = buffer_layout(device, "batch_relist", c, &slots());
        let groups = [Some(&layout)];
        let pipeline = compute_pipeline(device, Shader::BatchRelist, "main", &groups, &[]);
        BatchRelistPass { layout, pipeline }
    }

    /// The relist of the pools of `chunk` that `members` (a table of [`BatchMember`], one a
    /// pool, no more than the per-dimension dispatch limit) names, the largest of
    /// `most_slots`.
    pub fn bind(
        &self,
        device: &wgpu::Device,
        chunk: &Chunk,
        members: &wgpu::Buffer,
        most_slots: u32,
    ) -> BatchRelist {
        let pools = (members.size() / std::mem::size_of::<BatchMember>() as u64) as u32;
        let buffers: [&dyn super::Binding; 4] =
            [&chunk.alive(1), &chunk.alive(0), &chunk.counters, members];
        BatchRelist {
            bind: bind_buffers(device, "batch_relist", &self.layout, &buffers),
            groups: (most_slots.div_ceil(64), pools),
        }
    }

    /// Relist every pool of the batch (after all their simulates).
    pub fn record(&self, pass: &mut wgpu::ComputePass, batch: &BatchRelist) {
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, &batch.bind, &[]);
        pass.dispatch_workgroups(batch.groups.0, batch.groups.1, 1);
    }
}

#[cfg(test)]
mod tests {
    use encase::ShaderType;

    use super::*;
    use crate::passes::batch_merge::row_size;
    use crate::types::EffectParams;

    /// A batch's tables of `BATCH_ROWS` rows fit the uniform binding every WebGPU device
    /// has, and one row more would not.
    #[test]
    fn a_batch_table_fits_the_uniforms_every_device_binds() {
        let most = wgpu::Limits::default().max_uniform_buffer_binding_size;
        let rows = BATCH_ROWS as u64;
        // (the cull's row is the largest: a member, then its effect's constants)
        assert!(row_size() > EffectParams::min_size().get());
        assert!(rows * row_size() <= most, "{rows} rows of {}", row_size());
        assert!((rows + 1) * row_size() > most, "room for a row more");
    }
}
