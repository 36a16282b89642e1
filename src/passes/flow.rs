//! The flow field pass (`shaders/flow.wgsl`): walking distances over a map by parallel
//! relaxation.

use super::Binding;
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
        read_write::<[f32; 4]>(),
    ]
}

/// flow.wgsl's group 1 (seed and gate): the relaxations' indirect arguments.
fn args_slots() -> [BufferSlot; 1] {
    [read_write::<[u32; 3]>()]
}

/// The relaxation's pipelines.
pub(crate) struct FlowPass {
    layout: wgpu::BindGroupLayout,
    args_layout: wgpu::BindGroupLayout,
    seed: wgpu::ComputePipeline,
    gate: wgpu::ComputePipeline,
    relax: wgpu::ComputePipeline,
    direct: wgpu::ComputePipeline,
}

impl FlowPass {
    pub fn new(device: &wgpu::Device) -> Self {
        let c = wgpu::ShaderStages::COMPUTE;
        let layout = buffer_layout(device, "flow", c, &slots());
        let args_layout = buffer_layout(device, "flow_args", c, &args_slots());
        let pipeline = |entry, layouts: &[Option<&wgpu::BindGroupLayout>]| {
            compute_pipeline(device, Shader::Flow, entry, layouts, &[])
        };
        let with_args = [Some(&layout), Some(&args_layout)];
        FlowPass {
            seed: pipeline("seed", &with_args),
            gate: pipeline("gate", &with_args),
            relax: pipeline("relax", &[Some(&layout)]),
            direct: pipeline("direct", &[Some(&layout)]),
            layout,
            args_layout,
        }
    }

    /// A bind group reading `dist_in`, writing `dist_out`.
    pub fn bind(
        &self,
        device: &wgpu::Device,
        [cells, sdf, dist_in, dist_out, params, changed, way]: [&wgpu::Buffer; 7],
    ) -> wgpu::BindGroup {
        let buffers: [&dyn Binding; _] = [cells, sdf, dist_in, dist_out, params, changed, way];
        bind_buffers(device, "flow", &self.layout, &buffers)
    }

    /// Group 1 of the seed and the gates: the relaxations' indirect arguments.
    pub fn bind_args(&self, device: &wgpu::Device, args: &wgpu::Buffer) -> wgpu::BindGroup {
        bind_buffers(device, "flow_args", &self.args_layout, &[args])
    }

    /// Record the whole computation over `cells` cells: the seed (written through
    /// `binds[1]`), `relaxations` relaxations alternating between `binds[0]` and `binds[1]`
    /// (the last writes through `binds[(relaxations - 1) % 2]`), each after a gate (through
    /// `binds[2]`, so that every dispatch binds anew and waits for the one before) that stops
    /// the rest once one lowered nothing (`args`: their indirect dispatch, bound to the seed
    /// and the gates as group 1 by `args_bind`), then the directions from what the last
    /// wrote.
    pub fn record(
        &self,
        pass: &mut wgpu::ComputePass,
        binds: &[wgpu::BindGroup; 3],
        (cells, relaxations): (u32, u32),
        (args, args_bind): (&wgpu::Buffer, &wgpu::BindGroup),
    ) {
        pass.set_pipeline(&self.seed);
        pass.set_bind_group(0, &binds[1], &[]);
        pass.set_bind_group(1, args_bind, &[]);
        dispatch_threads(pass, cells);
        for r in 0..relaxations as usize {
            pass.set_pipeline(&self.gate);
            pass.set_bind_group(0, &binds[2], &[]);
            pass.dispatch_workgroups(1, 1, 1);
            pass.set_pipeline(&self.relax);
            pass.set_bind_group(0, &binds[r % 2], &[]);
            pass.dispatch_workgroups_indirect(args, 0);
        }
        // the other group reads what the last relaxation wrote
        pass.set_pipeline(&self.direct);
        pass.set_bind_group(0, &binds[relaxations as usize % 2], &[]);
        dispatch_threads(pass, cells);
    }
}
