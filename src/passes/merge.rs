//! Merge pass (`shaders/merge.wgsl`): gathers several alpha-blended effects' visible pairs
//! into one list (tagged with each effect's draw slot), so one sort and one draw order them
//! all back to front together.

use super::{bind_buffers, compute_pipeline, layout, storage, uniform};
use crate::pool::ParticlePool;
use crate::shaders::Shader;
use crate::types::WORKGROUP;

const C: wgpu::ShaderStages = wgpu::ShaderStages::COMPUTE;

pub struct MergePass {
    layout: wgpu::BindGroupLayout,
    gather: wgpu::ComputePipeline,
    args: wgpu::ComputePipeline,
}

impl MergePass {
    pub fn new(device: &wgpu::Device) -> Self {
        let layout = layout(
            device,
            "merge",
            &[
                storage(0, true, C),
                storage(1, false, C),
                storage(2, false, C),
                storage(3, false, C),
                uniform(4, C),
                storage(5, false, C),
            ],
        );
        MergePass {
            gather: compute_pipeline(device, Shader::Merge, "gather", &layout),
            args: compute_pipeline(device, Shader::Merge, "merged_args", &layout),
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
        pass.dispatch_workgroups(capacity.div_ceil(WORKGROUP), 1, 1);
    }

    /// Write the merged draw's arguments (after every gather and the sort).
    pub fn record_args(&self, pass: &mut wgpu::ComputePass, bind: &wgpu::BindGroup) {
        pass.set_pipeline(&self.args);
        pass.set_bind_group(0, bind, &[]);
        pass.dispatch_workgroups(1, 1, 1);
    }
}
