//! Bodies pass (`shaders/bodies.wgsl`): the effect's massive bodies move under each other's
//! gravity (one workgroup, after simulate).

use super::{bind_buffers, compute_pipeline, layout, storage, uniform};
use crate::shaders::Shader;

const C: wgpu::ShaderStages = wgpu::ShaderStages::COMPUTE;

pub struct BodiesPass {
    layout: wgpu::BindGroupLayout,
    pipeline: wgpu::ComputePipeline,
}

impl BodiesPass {
    pub fn new(device: &wgpu::Device) -> Self {
        let layout = layout(
            device,
            "bodies",
            &[storage(0, false, C), uniform(1, C), uniform(2, C)],
        );
        let pipeline = compute_pipeline(device, Shader::Bodies, "main", &layout);
        BodiesPass { layout, pipeline }
    }

    pub fn bind(
        &self,
        device: &wgpu::Device,
        bodies: &wgpu::Buffer,
        frame: &wgpu::Buffer,
        effect: &wgpu::Buffer,
    ) -> wgpu::BindGroup {
        bind_buffers(device, "bodies", &self.layout, &[bodies, frame, effect])
    }

    pub fn record(&self, pass: &mut wgpu::ComputePass, bind: &wgpu::BindGroup) {
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, bind, &[]);
        pass.dispatch_workgroups(1, 1, 1);
    }
}
