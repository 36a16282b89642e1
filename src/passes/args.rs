//! Indirect-argument passes (`shaders/args.wgsl`): one thread turns counters into the
//! simulate dispatch (after emit), the cull dispatch (after simulate), the hit-spawn cull
//! (after the spawns) and the draw and splat arguments (after cull); a paused pool's lists
//! start again in place of emit and simulate (held). A pool sized per slot
//! ([`Sizing::PerSlot`](crate::pool::Sizing)) has only the last: its other passes run one
//! thread a slot.

use super::Binding;
use super::{
    bind_buffers, buffer_layout, compute_pipeline, dispatch_one, read_write, uniform, BufferSlot,
};
use crate::compiler::Compiler;
use crate::pool::ParticlePool;
use crate::shaders::Shader;
use crate::types::{Counters, EffectParams, IndirectArgs};

/// args.wgsl's group 0, in binding order.
pub(super) fn slots() -> [BufferSlot; 4] {
    [
        read_write::<Counters>(),
        read_write::<IndirectArgs>(),
        uniform::<EffectParams>(),
        read_write::<Counters>(),
    ]
}

pub(crate) struct ArgsPass {
    layout: wgpu::BindGroupLayout,
    after_emit: wgpu::ComputePipeline,
    after_simulate: wgpu::ComputePipeline,
    after_cull: wgpu::ComputePipeline,
    after_pieces: wgpu::ComputePipeline,
    after_spawn: wgpu::ComputePipeline,
    before_trails: wgpu::ComputePipeline,
    held: wgpu::ComputePipeline,
}

/// Which counters-to-arguments step to run.
#[derive(Clone, Copy, Debug)]
pub(crate) enum After {
    Emit,
    Simulate,
    Spawn,
    Cull,
    /// The ribbon pieces listed into the visible list, after the cull's arguments.
    Pieces,
    /// Not a step's end but a start: the trails' count of parents.
    BeforeTrails,
    /// In place of emit and simulate, a paused pool's frame: its particles listed again
    /// where they are.
    Held,
}

impl ArgsPass {
    pub fn new(device: &Compiler) -> Self {
        let layout = buffer_layout(device, "args", wgpu::ShaderStages::COMPUTE, &slots());
        let pipeline = |entry| compute_pipeline(device, Shader::Args, entry, &[Some(&layout)], &[]);
        ArgsPass {
            after_emit: pipeline("after_emit"),
            after_simulate: pipeline("after_simulate"),
            after_cull: pipeline("after_cull"),
            after_pieces: pipeline("after_pieces"),
            after_spawn: pipeline("after_spawn"),
            before_trails: pipeline("before_trails"),
            held: pipeline("held"),
            layout,
        }
    }

    pub fn bind(
        &self,
        device: &wgpu::Device,
        pool: &ParticlePool,
        effect: &wgpu::Buffer,
    ) -> wgpu::BindGroup {
        let buffers: [&dyn Binding; _] = [&pool.counters, &pool.args, effect, &pool.draw_counters];
        bind_buffers(device, "args", &self.layout, &buffers)
    }

    /// Write the arguments that follow step `after`.
    pub fn record(&self, pass: &mut wgpu::ComputePass, bind: &wgpu::BindGroup, after: After) {
        let pipeline = match after {
            After::Emit => &self.after_emit,
            After::Simulate => &self.after_simulate,
            After::Spawn => &self.after_spawn,
            After::Cull => &self.after_cull,
            After::Pieces => &self.after_pieces,
            After::BeforeTrails => &self.before_trails,
            After::Held => &self.held,
        };
        dispatch_one(pass, pipeline, bind);
    }
}
