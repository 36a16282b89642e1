//! The flow field pass (`shaders/flow.wgsl`): walking distances over a map by a block fast
//! iterative method (tiles of [`TILE`]² cells, each settled in workgroup memory, taken up
//! again only when a neighbour lowered the cells around it).

use super::Binding;
use super::{bind_buffers, buffer_layout, compute_pipeline, dispatch_threads};
use super::{read_only, read_write, uniform, BufferSlot};
use crate::compiler::Compiler;
use crate::shaders::Shader;
use crate::types::FlowParams;

/// Cells a tile is wide (`FLOW_TILE` in flow.wgsl): a solve workgroup is `TILE` × `TILE`
/// threads.
pub(crate) const TILE: u32 = 16;

/// flow.wgsl's group 0, in binding order.
pub(super) fn slots() -> [BufferSlot; 7] {
    [
        read_only::<u32>(),
        read_only::<f32>(),
        read_write::<u32>(),
        uniform::<FlowParams>(),
        read_write::<[f32; 4]>(),
        // a list of tiles: its count and at least one entry
        read_write::<[u32; 2]>(),
        read_write::<[u32; 2]>(),
    ]
}

/// The bytes of a list of tiles (flow.wgsl's `Tiles`) for `tiles` tiles: the count, the
/// entries and a mark per tile.
pub(crate) fn tiles_size(tiles: u32) -> u64 {
    4 + 8 * tiles as u64
}

/// flow.wgsl's group 1 (seed, start and gate): the solve passes' indirect arguments.
fn args_slots() -> [BufferSlot; 1] {
    [read_write::<[u32; 3]>()]
}

/// The solver's pipelines.
pub(crate) struct FlowPass {
    layout: wgpu::BindGroupLayout,
    args_layout: wgpu::BindGroupLayout,
    seed: wgpu::ComputePipeline,
    start: wgpu::ComputePipeline,
    gate: wgpu::ComputePipeline,
    solve: wgpu::ComputePipeline,
    direct: wgpu::ComputePipeline,
}

impl FlowPass {
    pub fn new(device: &Compiler) -> Self {
        let c = wgpu::ShaderStages::COMPUTE;
        let layout = buffer_layout(device, "flow", c, &slots());
        let args_layout = buffer_layout(device, "flow_args", c, &args_slots());
        let pipeline = |entry, layouts: &[Option<&wgpu::BindGroupLayout>]| {
            compute_pipeline(device, Shader::Flow, entry, layouts, &[])
        };
        let with_args = [Some(&layout), Some(&args_layout)];
        FlowPass {
            seed: pipeline("seed", &with_args),
            start: pipeline("start", &with_args),
            gate: pipeline("gate", &with_args),
            solve: pipeline("solve", &[Some(&layout)]),
            direct: pipeline("direct", &[Some(&layout)]),
            layout,
            args_layout,
        }
    }

    /// A bind group whose passes take the tiles listed in `tiles_in` and list those of the
    /// next pass in `tiles_out`.
    pub fn bind(
        &self,
        device: &wgpu::Device,
        [cells, sdf, dist, params, way, tiles_in, tiles_out]: [&wgpu::Buffer; 7],
    ) -> wgpu::BindGroup {
        let buffers: [&dyn Binding; _] = [cells, sdf, dist, params, way, tiles_in, tiles_out];
        bind_buffers(device, "flow", &self.layout, &buffers)
    }

    /// Group 1 of the seed, the start and the gates: the solve passes' indirect arguments.
    pub fn bind_args(&self, device: &wgpu::Device, args: &wgpu::Buffer) -> wgpu::BindGroup {
        bind_buffers(device, "flow_args", &self.args_layout, &[args])
    }

    /// Record the whole computation over `cells` cells and `tiles` tiles through `binds`:
    /// `[0]` takes list A and fills list B, `[1]` the other way round, `[2]` and `[3]` are
    /// their twins for the gates (so that every dispatch binds a group the one before did
    /// not, and waits for it). The seed (through `[1]`), the goals' tiles listed in A
    /// (through `[3]`), then `passes` solve passes alternating between `[0]` and `[1]`, each
    /// after a gate (through `[2]` or `[3]`) that sizes it from the list it takes (`args`:
    /// its indirect dispatch, bound to the seed and the gates as group 1 by `args_bind`),
    /// then the directions.
    pub fn record(
        &self,
        pass: &mut wgpu::ComputePass,
        binds: &[wgpu::BindGroup; 4],
        (cells, tiles, passes): (u32, u32, u32),
        (args, args_bind): (&wgpu::Buffer, &wgpu::BindGroup),
    ) {
        pass.set_pipeline(&self.seed);
        pass.set_bind_group(0, &binds[1], &[]);
        pass.set_bind_group(1, args_bind, &[]);
        dispatch_threads(pass, cells);
        pass.set_pipeline(&self.start);
        pass.set_bind_group(0, &binds[3], &[]);
        dispatch_threads(pass, tiles);
        for p in 0..passes as usize {
            pass.set_pipeline(&self.gate);
            pass.set_bind_group(0, &binds[2 + p % 2], &[]);
            pass.dispatch_workgroups(1, 1, 1);
            pass.set_pipeline(&self.solve);
            pass.set_bind_group(0, &binds[p % 2], &[]);
            pass.dispatch_workgroups_indirect(args, 0);
        }
        // a group the last pass did not bind, so that it waits for it
        pass.set_pipeline(&self.direct);
        pass.set_bind_group(0, &binds[passes as usize % 2], &[]);
        dispatch_threads(pass, cells);
    }
}
