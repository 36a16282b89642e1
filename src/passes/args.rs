//! Indirect-argument passes (`shaders/args.wgsl`): one thread turns counters into the
//! simulate dispatch (after emit), the cull dispatch (after simulate) and the draw
//! arguments (after cull).

use super::{bind_buffers, compute_pipeline, layout, storage, uniform};
use crate::pool::ParticlePool;
use crate::shaders::Shader;

const C: wgpu::ShaderStages = wgpu::ShaderStages::COMPUTE;

pub struct ArgsPass {
    layout: wgpu::BindGroupLayout,
    after_emit: wgpu::ComputePipeline,
    after_simulate: wgpu::ComputePipeline,
    after_cull: wgpu::ComputePipeline,
    after_spawn: wgpu::ComputePipeline,
}

impl ArgsPass {
    pub fn new(device: &wgpu::Device) -> Self {
        let layout = layout(
            device,
            "args",
            &[storage(0, false, C), storage(1, false, C), uniform(2, C)],
        );
        ArgsPass {
            after_emit: compute_pipeline(device, Shader::Args, "after_emit", &layout),
            after_simulate: compute_pipeline(device, Shader::Args, "after_simulate", &layout),
            after_cull: compute_pipeline(device, Shader::Args, "after_cull", &layout),
            after_spawn: compute_pipeline(device, Shader::Args, "after_spawn", &layout),
            layout,
        }
    }

    pub fn bind(
        &self,
        device: &wgpu::Device,
        pool: &ParticlePool,
        effect: &wgpu::Buffer,
    ) -> wgpu::BindGroup {
        bind_buffers(
            device,
            "args",
            &self.layout,
            &[&pool.counters, &pool.args, effect],
        )
    }

    pub fn record_after_emit(&self, pass: &mut wgpu::ComputePass, bind: &wgpu::BindGroup) {
        pass.set_pipeline(&self.after_emit);
        pass.set_bind_group(0, bind, &[]);
        pass.dispatch_workgroups(1, 1, 1);
    }

    pub fn record_after_simulate(&self, pass: &mut wgpu::ComputePass, bind: &wgpu::BindGroup) {
        pass.set_pipeline(&self.after_simulate);
        pass.set_bind_group(0, bind, &[]);
        pass.dispatch_workgroups(1, 1, 1);
    }

    pub fn record_after_spawn(&self, pass: &mut wgpu::ComputePass, bind: &wgpu::BindGroup) {
        pass.set_pipeline(&self.after_spawn);
        pass.set_bind_group(0, bind, &[]);
        pass.dispatch_workgroups(1, 1, 1);
    }

    pub fn record_after_cull(&self, pass: &mut wgpu::ComputePass, bind: &wgpu::BindGroup) {
        pass.set_pipeline(&self.after_cull);
        pass.set_bind_group(0, bind, &[]);
        pass.dispatch_workgroups(1, 1, 1);
    }
}
