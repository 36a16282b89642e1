//! The signed distance field pass (`shaders/sdf.wgsl`): jump flooding over a map's cells.

use super::Binding;
use super::{bind_buffers, buffer_layout, compute_pipeline, dispatch_threads};
use super::{read_only, read_write, uniform, BufferSlot};
use crate::compiler::Compiler;
use crate::shaders::Shader;
use crate::types::SdfParams;

/// sdf.wgsl's group 0, in binding order.
pub(super) fn slots() -> [BufferSlot; 5] {
    [
        read_only::<u32>(),
        read_only::<[u32; 2]>(),
        read_write::<[u32; 2]>(),
        uniform::<SdfParams>(),
        read_write::<f32>(),
    ]
}

/// The jump flooding's pipelines.
pub(crate) struct SdfPass {
    layout: wgpu::BindGroupLayout,
    init: wgpu::ComputePipeline,
    jump: wgpu::ComputePipeline,
    distance: wgpu::ComputePipeline,
}

/// One dispatch of the flooding: its pipeline's role and its bind group.
pub(crate) enum Stage {
    Init,
    Jump,
    Distance,
}

impl SdfPass {
    pub fn new(device: &Compiler) -> Self {
        let c = wgpu::ShaderStages::COMPUTE;
        let layout = buffer_layout(device, "sdf", c, &slots());
        let pipeline = |entry| compute_pipeline(device, Shader::Sdf, entry, &[Some(&layout)], &[]);
        SdfPass {
            init: pipeline("init"),
            jump: pipeline("jump"),
            distance: pipeline("distance"),
            layout,
        }
    }

    /// A bind group reading `seeds_in`, writing `seeds_out` (and the field).
    pub fn bind(
        &self,
        device: &wgpu::Device,
        [blocked, seeds_in, seeds_out, params, field]: [&wgpu::Buffer; 5],
    ) -> wgpu::BindGroup {
        let buffers: [&dyn Binding; _] = [blocked, seeds_in, seeds_out, params, field];
        bind_buffers(device, "sdf", &self.layout, &buffers)
    }

    /// Record `stage` over `cells` cells with `bind`.
    pub fn record(
        &self,
        pass: &mut wgpu::ComputePass,
        stage: &Stage,
        bind: &wgpu::BindGroup,
        cells: u32,
    ) {
        let pipeline = match stage {
            Stage::Init => &self.init,
            Stage::Jump => &self.jump,
            Stage::Distance => &self.distance,
        };
        pass.set_pipeline(pipeline);
        pass.set_bind_group(0, bind, &[]);
        dispatch_threads(pass, cells);
    }
}

/// The jump steps for a map of `width` × `height` cells: half the longer side rounded up to
/// a power of two, halving to 1, then 1 again.
pub(crate) fn jump_steps(width: u32, height: u32) -> Vec<u32> {
    let mut k = width.max(height).next_power_of_two() / 2;
    let mut steps = Vec::new();
    while k >= 1 {
        steps.push(k);
        k /= 2;
    }
    steps.push(1);
    steps
}
