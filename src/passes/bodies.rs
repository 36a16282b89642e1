//! Bodies pass (`shaders/bodies.wgsl`): the effect's massive bodies move under each other's
//! gravity (one workgroup, after simulate).

use super::Binding;
use super::{
    bind_buffers, buffer_layout, compute_pipeline, dispatch_one, read_write, uniform, BufferSlot,
};
use crate::compiler::Compiler;
use crate::shaders::Shader;
use crate::types::{Body, EffectParams, FrameUniforms};

/// bodies.wgsl's group 0, in binding order.
pub(super) fn slots() -> [BufferSlot; 3] {
    [
        read_write::<Body>(),
        uniform::<FrameUniforms>(),
        uniform::<EffectParams>(),
    ]
}

pub(crate) struct BodiesPass {
    layout: wgpu::BindGroupLayout,
    pipeline: wgpu::ComputePipeline,
}

impl BodiesPass {
    pub fn new(device: &Compiler) -> Self {
        let layout = buffer_layout(device, "bodies", wgpu::ShaderStages::COMPUTE, &slots());
        let pipeline = compute_pipeline(device, Shader::Bodies, "main", &[Some(&layout)], &[]);
        BodiesPass { layout, pipeline }
    }

    pub fn bind(
        &self,
        device: &wgpu::Device,
        bodies: &wgpu::Buffer,
        frame: &dyn Binding,
        effect: &wgpu::Buffer,
    ) -> wgpu::BindGroup {
        bind_buffers(device, "bodies", &self.layout, &[bodies, frame, effect])
    }

    pub fn record(&self, pass: &mut wgpu::ComputePass, bind: &wgpu::BindGroup) {
        dispatch_one(pass, &self.pipeline, bind);
    }
}
