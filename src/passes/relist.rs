//! Relist pass (`shaders/relist.wgsl`): after each simulate step, the survivors' list is
//! copied back into the current alive list on the GPU, so the CPU never has to track which
//! of two lists is current (a recorded frame the host never submits would leave it wrong).
//! A pool sized per slot ([`Sizing::PerSlot`]) takes its survivors' count here too.

use super::Binding;
use super::{
    bind_buffers, buffer_layout, compute_pipeline, dispatch_over_pool, read_write, BufferSlot,
};
use crate::compiler::Compiler;
use crate::pool::{ParticlePool, Sizing};
use crate::shaders::Shader;
use crate::types::{Counters, IndirectArgs};

/// relist.wgsl's group 0, in binding order.
pub(super) fn slots() -> [BufferSlot; 4] {
    [
        // (read only, but beside lists written in the same buffer: bound for writing too)
        read_write::<u32>(),
        read_write::<u32>(),
        read_write::<Counters>(),
        read_write::<Counters>(),
    ]
}

pub(crate) struct RelistPass {
    layout: wgpu::BindGroupLayout,
    /// The copy (a counted pool: args.wgsl took the count).
    copy: wgpu::ComputePipeline,
    /// The copy and the count (a pool sized per slot).
    recount: wgpu::ComputePipeline,
}

impl RelistPass {
    pub fn new(device: &Compiler) -> Self {
        let layout = buffer_layout(device, "relist", wgpu::ShaderStages::COMPUTE, &slots());
        let pipeline =
            |entry| compute_pipeline(device, Shader::Relist, entry, &[Some(&layout)], &[]);
        RelistPass {
            copy: pipeline("main"),
            recount: pipeline("recount"),
            layout,
        }
    }

    /// The survivors (list 1) back into the current list (list 0) of `pool`.
    pub fn bind(&self, device: &wgpu::Device, pool: &ParticlePool) -> wgpu::BindGroup {
        let buffers: [&dyn Binding; _] = [
            &pool.alive[1],
            &pool.alive[0],
            &pool.counters,
            &pool.draw_counters,
        ];
        bind_buffers(device, "relist", &self.layout, &buffers)
    }

    /// One thread per survivor, sized by the relist arguments written after the step (a
    /// counted pool: none after a step over the slots, which listed its survivors in
    /// place), or one per slot.
    pub fn record(
        &self,
        pass: &mut wgpu::ComputePass,
        bind: &wgpu::BindGroup,
        pool: &ParticlePool,
    ) {
        let (pipeline, offset) = match pool.sizing {
            Sizing::Counted => (&self.copy, IndirectArgs::RELIST_OFFSET),
            Sizing::PerSlot => (&self.recount, IndirectArgs::SIM_OFFSET),
        };
        dispatch_over_pool(pass, pipeline, &[bind], pool, offset);
    }
}
