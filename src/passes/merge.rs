//! Merge pass (`shaders/merge.wgsl`): copies alpha-blended effects' visible particles into
//! one list (each copy marked with the member it came from), so that one sort and one draw
//! order them all back to front together, however many they are; and the particles they
//! splat into one splat list, splatted in one dispatch.

use super::{bind, bind_buffers, compute_pipeline, dispatch_one, layout, Binding, BufferSlot};
use super::{read_only, read_write, uniform};
use crate::pool::ParticlePool;
use crate::shaders::Shader;
use crate::types::{Counters, IndirectArgs, MergeParams, Particle};

/// merge.wgsl's group 0, in binding order: the gather's bindings 0..=8, then the merged
/// arguments, which only `write_args` binds (with the merged counters).
pub(super) fn slots() -> [BufferSlot; 10] {
    [
        read_only::<[u32; 2]>(),
        read_write::<Counters>(),
        read_only::<Particle>(),
        read_only::<u32>(),
        read_write::<[u32; 2]>(),
        read_write::<u32>(),
        read_write::<Counters>(),
        read_write::<Particle>(),
        uniform::<MergeParams>(),
        read_write::<IndirectArgs>(),
    ]
}

/// The gather's bindings (0.., as `bind_buffers` numbers them) and those of the pass
/// writing the merged arguments.
const GATHER_BINDINGS: [u32; 9] = [0, 1, 2, 3, 4, 5, 6, 7, 8];
const ARGS_BINDINGS: [u32; 2] = [6, 9];

/// A layout of `bindings` of merge.wgsl's group 0.
fn subset(device: &wgpu::Device, label: &str, bindings: &[u32]) -> wgpu::BindGroupLayout {
    let slots = slots();
    let entries: Vec<_> = bindings
        .iter()
        .map(|&b| slots[b as usize].entry(b, wgpu::ShaderStages::COMPUTE))
        .collect();
    layout(device, label, &entries)
}

/// The merged lists' buffers every member's gather appends to.
pub(crate) struct MergedList<'a> {
    /// (key, index of the copy) pairs, sorted after the gathers.
    pub pairs: &'a wgpu::Buffer,
    /// The indices of the copies to splat.
    pub splat: &'a wgpu::Buffer,
    /// The lists' counters (`visible`, `splatted`).
    pub counters: &'a wgpu::Buffer,
    /// The merged draw's and splat's [`IndirectArgs`].
    pub args: &'a wgpu::Buffer,
    /// The copies of the members' visible and splatted particles.
    pub copies: &'a wgpu::Buffer,
}

pub(crate) struct MergePass {
    gather_layout: wgpu::BindGroupLayout,
    args_layout: wgpu::BindGroupLayout,
    gather: wgpu::ComputePipeline,
    args: wgpu::ComputePipeline,
}

impl MergePass {
    pub fn new(device: &wgpu::Device) -> Self {
        let gather_layout = subset(device, "merge", &GATHER_BINDINGS);
        let args_layout = subset(device, "merge_args", &ARGS_BINDINGS);
        let pipeline =
            |entry, layout| compute_pipeline(device, Shader::Merge, entry, &[Some(layout)], &[]);
        MergePass {
            gather: pipeline("gather", &gather_layout),
            args: pipeline("write_args", &args_layout),
            gather_layout,
            args_layout,
        }
    }

    /// Bind group writing the merged arguments from the merged counters.
    pub fn bind_args(&self, device: &wgpu::Device, list: &MergedList) -> wgpu::BindGroup {
        let [counters, args] = ARGS_BINDINGS;
        let resources = [
            (counters, list.counters.as_entire_binding()),
            (args, list.args.as_entire_binding()),
        ];
        bind(device, "merge_args", &self.args_layout, &resources)
    }

    /// Bind group appending `pool`'s visible and splatted particles to the merged lists
    /// as the member `params` names.
    pub fn bind(
        &self,
        device: &wgpu::Device,
        pool: &ParticlePool,
        list: &MergedList,
        params: &dyn Binding,
    ) -> wgpu::BindGroup {
        let buffers: [&dyn Binding; 9] = [
            &pool.visible,
            &pool.counters,
            &pool.particles,
            &pool.splat,
            list.pairs,
            list.splat,
            list.counters,
            list.copies,
            params,
        ];
        bind_buffers(device, "merge", &self.gather_layout, &buffers)
    }

    /// Gather one member's two lists: a thread per particle it culled (each list holds
    /// some of them; threads past a list's count idle).
    pub fn record_gather(
        &self,
        pass: &mut wgpu::ComputePass,
        bind: &wgpu::BindGroup,
        pool: &ParticlePool,
    ) {
        super::dispatch_over_alive(pass, &self.gather, bind, pool);
    }

    /// Write the merged draw's and splat's arguments (after every gather and the sort).
    pub fn record_args(&self, pass: &mut wgpu::ComputePass, bind: &wgpu::BindGroup) {
        dispatch_one(pass, &self.args, bind);
    }
}
