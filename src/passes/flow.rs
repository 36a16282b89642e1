//! The flow field pass (`shaders/flow.wgsl`): walking distances over a map by parallel
//! relaxation.

use super::{bind_buffers, buffer_layout, compute_pipeline, dispatch_threads};
use super::{read_only, read_write, uniform, BufferSlot};
use crate::shaders::Shader;
use crate::types::FlowParams;

/// flow.wgsl's group 0, in binding order.
pub(super) fn slots() -> [BufferSlot; 7] {
    [
        read_only::<u32>(),
        read_only::<f32>(),
        read_only::<f32>(),
        read_write::<f32>(),
        uniform::<FlowParams>(),
        read_write::<u32>(),
        read_write::<[f32; 2]>(),
    ]
}

/// The relaxation's pipelines.
pub(crate) struct FlowPass {
    layout: wgpu::BindGroupLayout,
    seed: wgpu::ComputePipeline,
    clear: wgpu::ComputePipeline,
    relax: wgpu::ComputePipeline,
    direct: wgpu::ComputePipeline,
}

impl FlowPass {
    pub fn new(device: &wgpu::Device) -> Self {
        let c = wgpu::ShaderStages::COMPUTE;
        let layout = buffer_layout(device, "flow", c, &slots());
        let pipeline = |entry| compute_pipeline(device, Shader::Flow, entry, &[Some(&layout)], &[]);
        FlowPass {
            seed: pipeline("seed"),
            clear: pipeline("clear"),
            relax: pipeline("relax"),
            direct: pipeline("direct"),
            layout,
        }
    }

    /// A bind group reading `dist_in`, writing `dist_out`.
    pub fn bind(
        &self,
        device: &wgpu::Device,
        [cells, sdf, dist_in, dist_out, params, changed, directions]: [&wgpu::Buffer; 7],
    ) -> wgpu::BindGroup {
        let buffers = [cells, sdf, dist_in, dist_out, params, changed, directions];
        bind_buffers(device, "flow", &self.layout, &buffers)
    }

    /// Record the whole computation over `cells` cells: the seed (written through
    /// `binds[1]`), `relaxations` relaxations alternating between the two bind groups (the
    /// last writes through `binds[(relaxations - 1) % 2]`), the change count cleared before
    /// the last, then the directions from what the last wrote.
    pub fn record(
        &self,
        pass: &mut wgpu::ComputePass,
        binds: &[wgpu::BindGroup; 2],
        cells: u32,
        relaxations: u32,
    ) {
        pass.set_pipeline(&self.seed);
        pass.set_bind_group(0, &binds[1], &[]);
        dispatch_threads(pass, cells);
        for r in 0..relaxations {
            if r + 1 == relaxations {
                // through the other group: the relaxation then binds anew, and waits for it
                pass.set_pipeline(&self.clear);
                pass.set_bind_group(0, &binds[(r as usize + 1) % 2], &[]);
                pass.dispatch_workgroups(1, 1, 1);
            }
            pass.set_pipeline(&self.relax);
            pass.set_bind_group(0, &binds[r as usize % 2], &[]);
            dispatch_threads(pass, cells);
        }
        // the other group reads what the last relaxation wrote
        pass.set_pipeline(&self.direct);
        pass.set_bind_group(0, &binds[relaxations as usize % 2], &[]);
        dispatch_threads(pass, cells);
    }
}
