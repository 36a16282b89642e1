//! Merge pass (`shaders/merge.wgsl`): gathers several alpha-blended effects' visible pairs
//! into one list (tagged with each effect's draw slot), so one sort and one draw order them
//! all back to front together.

use super::{bind_buffers, buffer_layout, compute_pipeline, dispatch_one, BufferSlot};
use super::{read_only, read_write, uniform};
use crate::pool::ParticlePool;
use crate::shaders::Shader;
use crate::types::{Counters, IndirectArgs, MergeParams};

/// merge.wgsl's group 0, in binding order.
pub(super) fn slots() -> [BufferSlot; 6] {
    [
        read_only::<[u32; 2]>(),
        read_write::<Counters>(),
        read_write::<[u32; 2]>(),
        read_write::<Counters>(),
        uniform::<MergeParams>(),
        read_write::<IndirectArgs>(),
    ]
}

pub(crate) struct MergePass {
    layout: wgpu::BindGroupLayout,
    gather: wgpu::ComputePipeline,
    args: wgpu::ComputePipeline,
}

impl MergePass {
    pub fn new(device: &wgpu::Device) -> Self {
        let layout = buffer_layout(device, "merge", wgpu::ShaderStages::COMPUTE, &slots());
        let pipeline =
            |entry| compute_pipeline(device, Shader::Merge, entry, &[Some(&layout)], &[]);
        MergePass {
            gather: pipeline("gather"),
            args: pipeline("merged_args"),
            layout,
        }
    }

    /// Bind group appending `pool`'s visible pairs to the merged list under `params`' slot.
    pub fn bind(
        &self,
        device: &wgpu::Device,
        pool: &ParticlePool,
        merged: &wgpu::Buffer,
        merged_counters: &wgpu::Buffer,
        params: &wgpu::Buffer,
        merged_args: &wgpu::Buffer,
    ) -> wgpu::BindGroup {
        bind_buffers(
            device,
            "merge",
            &self.layout,
            &[
                &pool.visible,
                &pool.counters,
                merged,
                merged_counters,
                params,
                merged_args,
            ],
        )
    }

    /// Gather one effect (dispatched for its capacity; threads past its count idle).
    pub fn record_gather(
        &self,
        pass: &mut wgpu::ComputePass,
        bind: &wgpu::BindGroup,
        capacity: u32,
    ) {
        pass.set_pipeline(&self.gather);
        pass.set_bind_group(0, bind, &[]);
        super::dispatch_threads(pass, capacity);
    }

    /// Write the merged draw's arguments (after every gather and the sort).
    pub fn record_args(&self, pass: &mut wgpu::ComputePass, bind: &wgpu::BindGroup) {
        dispatch_one(pass, &self.args, bind);
    }
}
