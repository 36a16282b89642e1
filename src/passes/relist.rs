//! Relist pass (`shaders/relist.wgsl`): after each simulate step, the survivors' list is
//! copied back into the current alive list on the GPU, so the CPU never has to track which
//! of two lists is current (a recorded frame the host never submits would leave it wrong).

use super::Binding;
use super::{
    bind_buffers, buffer_layout, compute_pipeline, dispatch_from_args, read_only, read_write,
    BufferSlot,
};
use crate::pool::ParticlePool;
use crate::shaders::Shader;
use crate::types::{Counters, IndirectArgs};

/// relist.wgsl's group 0, in binding order.
pub(super) fn slots() -> [BufferSlot; 3] {
    [
        read_only::<u32>(),
        read_write::<u32>(),
        read_write::<Counters>(),
    ]
}

pub(crate) struct RelistPass {
    layout: wgpu::BindGroupLayout,
    pipeline: wgpu::ComputePipeline,
}

impl RelistPass {
    pub fn new(device: &wgpu::Device) -> Self {
        let layout = buffer_layout(device, "relist", wgpu::ShaderStages::COMPUTE, &slots());
        let pipeline = compute_pipeline(device, Shader::Relist, "main", &[Some(&layout)], &[]);
        RelistPass { layout, pipeline }
    }

    /// The survivors (list 1) back into the current list (list 0) of `pool`.
    pub fn bind(&self, device: &wgpu::Device, pool: &ParticlePool) -> wgpu::BindGroup {
        let buffers: [&dyn Binding; _] = [&pool.alive[1], &pool.alive[0], &pool.counters];
        bind_buffers(device, "relist", &self.layout, &buffers)
    }

    /// One thread per survivor, sized by the simulate arguments written after the step.
    pub fn record(
        &self,
        pass: &mut wgpu::ComputePass,
        bind: &wgpu::BindGroup,
        pool: &ParticlePool,
    ) {
        dispatch_from_args(
            pass,
            &self.pipeline,
            &[bind],
            &pool.args,
            IndirectArgs::SIM_OFFSET,
        );
    }
}
