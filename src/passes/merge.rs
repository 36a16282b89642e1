//! Merge pass (`shaders/merge.wgsl`): alpha-blended effects' culls list their particles
//! straight into one list (a copy of each, marked with the member it came from), so that
//! one sort and one draw order them all back to front together, however many they are;
//! and the particles they splat into one splat list, splatted in one dispatch. Additive,
//! unsorted effects share a list of their own the same way, not sorted.

use crate::compiler::Compiler;
use std::num::NonZeroU64;
use std::sync::OnceLock;

use super::cull::CullVariant;
use super::{bind, bind_buffers, compute_pipeline, dispatch_one, layout, Binding, BufferSlot};
use super::{read_only, read_write, uniform};
use crate::pool::ParticlePool;
use crate::shaders::Shader;
use crate::types::{Counters, EffectParams, FrameUniforms, IndirectArgs, InstanceGpu};
use crate::types::{MergeParams, Particle};
use crate::uniform_pages::BufferRange;

/// merge.wgsl's group 0, in binding order: the cull's bindings 0..=10, then the merged
/// arguments, which only `write_args` binds (with the merged counters).
pub(super) fn slots() -> [BufferSlot; 12] {
    [
        read_only::<Particle>(),
        read_only::<u32>(),
        read_write::<Counters>(),
        read_write::<[u32; 2]>(),
        uniform::<FrameUniforms>(),
        uniform::<EffectParams>(),
        read_write::<u32>(),
        read_write::<Particle>(),
        read_write::<Counters>(),
        read_only::<InstanceGpu>(),
        uniform::<MergeParams>(),
        read_write::<IndirectArgs>(),
    ]
}

/// The cull's bindings (0.., as `bind_buffers` numbers them) and those of the pass
/// writing the merged arguments.
pub(super) const CULL_BINDINGS: [u32; 11] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
pub(super) const ARGS_BINDINGS: [u32; 2] = [8, 11];

/// A layout of `bindings` of merge.wgsl's group 0.
fn subset(device: &wgpu::Device, label: &str, bindings: &[u32]) -> wgpu::BindGroupLayout {
    let slots = slots();
    let entries: Vec<_> = bindings
        .iter()
        .map(|&b| slots[b as usize].entry(b, wgpu::ShaderStages::COMPUTE))
        .collect();
    layout(device, label, &entries)
}

/// Bytes from one of the merged lists' [`Counters`] to the next (merge_list.wgsl
/// `COUNTERS_APART`): the most a storage binding's offset must be aligned to, so that the
/// sort and each splat bind their list's as their own.
pub(crate) const COUNTERS_APART: u64 = 256;

/// Bytes of the merged lists' counters: the drawn list's and the plain splat list's, the
/// rich splat list's, and the copies the splat lists took.
pub(crate) const COUNTERS_BYTES: u64 = 2 * COUNTERS_APART + std::mem::size_of::<Counters>() as u64;

/// One of a merged list's two splat lists (merge_list.wgsl), each splatted by a variant of
/// its own: the plain one, of particles whose splat samples no texture and lights nothing,
/// and the rich one (snowflakes, images, lit billboards). A CPU driver runs a variant's
/// every feature for every lane, so one splat of both made each disc of a list with one
/// snowflake effect sample the snowflakes' texture at every pixel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SplatList {
    Plain,
    Rich,
}

impl SplatList {
    pub const ALL: [SplatList; 2] = [SplatList::Plain, SplatList::Rich];

    /// Where its entries start in the splat lists' buffer of a merged list of `room` copies
    /// (merge_list.wgsl `rich_splat_start`), in bytes.
    fn start(self, room: u32) -> u64 {
        match self {
            SplatList::Plain => 0,
            SplatList::Rich => room.next_multiple_of(64) as u64 * 4,
        }
    }

    /// Bytes of the splat lists' buffer of a merged list of `room` copies.
    pub fn buffer_bytes(room: u32) -> u64 {
        SplatList::Rich.start(room) + room as u64 * 4
    }

    /// Where its count (`Counters::splatted`) is in the merged counters, in bytes.
    fn counters(self) -> u64 {
        match self {
            SplatList::Plain => 0,
            SplatList::Rich => COUNTERS_APART,
        }
    }

    /// Where its splat's [`IndirectArgs`] start in the merged arguments.
    pub fn args(self) -> u64 {
        self as u64 * std::mem::size_of::<IndirectArgs>() as u64
    }
}

/// The merged lists' buffers every member's cull appends to.
pub(crate) struct MergedList<'a> {
    /// (key, index of the copy) pairs, sorted after the culls.
    pub pairs: &'a wgpu::Buffer,
    /// The indices of the copies to splat: the plain list's, then the rich list's
    /// ([`SplatList::buffer_bytes`]).
    pub splat: &'a wgpu::Buffer,
    /// The lists' counters ([`COUNTERS_BYTES`]).
    pub counters: &'a wgpu::Buffer,
    /// The merged draw's and plain splat's [`IndirectArgs`], then the rich splat's.
    pub args: &'a wgpu::Buffer,
    /// The copies of the members' visible and splatted particles.
    pub copies: &'a wgpu::Buffer,
    /// The copies they hold.
    pub room: u32,
}

impl MergedList<'_> {
    /// The entries of `list` and its counters, as its splat binds them.
    pub fn splat_list(&self, list: SplatList) -> (BufferRange, BufferRange) {
        let range = |buffer: &wgpu::Buffer, offset, size| BufferRange {
            buffer: buffer.clone(),
            offset,
            size: NonZeroU64::new(size).expect("a list holds a copy at least"),
        };
        let entries = range(self.splat, list.start(self.room), self.room as u64 * 4);
        let counters = std::mem::size_of::<Counters>() as u64;
        (entries, range(self.counters, list.counters(), counters))
    }
}

/// What one member's cull into the merged list reads of it besides its pool.
pub(crate) struct MemberInputs<'a> {
    pub frame: &'a dyn Binding,
    pub effect: &'a wgpu::Buffer,
    pub instances: &'a wgpu::Buffer,
    /// Its [`MergeParams`].
    pub params: &'a dyn Binding,
}

pub(crate) struct MergePass {
    device: Compiler,
    cull_layout: wgpu::BindGroupLayout,
    args_layout: wgpu::BindGroupLayout,
    /// The cull's variants, built when a member first needs one.
    cull: Vec<OnceLock<wgpu::ComputePipeline>>,
    args: wgpu::ComputePipeline,
}

impl MergePass {
    pub fn new(device: &Compiler) -> Self {
        let cull_layout = subset(device, "merge", &CULL_BINDINGS);
        let args_layout = subset(device, "merge_args", &ARGS_BINDINGS);
        // (the module specialised as any variant: write_args reads none of its constants)
        let consts = CullVariant::default().consts();
        let args = compute_pipeline(
            device,
            Shader::Merge,
            "write_args",
            &[Some(&args_layout)],
            &consts,
        );
        MergePass {
            device: device.clone(),
            cull: (0..CullVariant::COUNT).map(|_| OnceLock::new()).collect(),
            args,
            cull_layout,
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

    /// Bind group culling `pool`'s alive particles into the merged lists as the member
    /// `inputs.params` names.
    pub fn bind(
        &self,
        device: &wgpu::Device,
        pool: &ParticlePool,
        list: &MergedList,
        inputs: &MemberInputs,
    ) -> wgpu::BindGroup {
        let buffers: [&dyn Binding; 11] = [
            &pool.particles,
            &pool.alive[0],
            &pool.counters,
            list.pairs,
            inputs.frame,
            inputs.effect,
            list.splat,
            list.copies,
            list.counters,
            inputs.instances,
            inputs.params,
        ];
        bind_buffers(device, "merge", &self.cull_layout, &buffers)
    }

    /// Cull one member's alive particles into the merged lists with its cull's `variant`
    /// (a thread per alive particle; a member has no ribbons).
    pub fn record_cull(
        &self,
        pass: &mut wgpu::ComputePass,
        variant: CullVariant,
        bind: &wgpu::BindGroup,
        pool: &ParticlePool,
    ) {
        super::dispatch_over_alive(pass, self.cull(variant), bind, pool);
    }

    /// The merged cull's `variant`, built the first time a member needs it (when the merged
    /// set is made, so that no frame's encode compiles it).
    pub fn cull(&self, variant: CullVariant) -> &wgpu::ComputePipeline {
        debug_assert!(!variant.ribbons, "a merged effect has no ribbons");
        debug_assert!(!variant.dots, "a merged list lists no dots apart");
        self.cull[variant.index()].get_or_init(|| {
            let layouts = [Some(&self.cull_layout)];
            let consts = variant.consts();
            compute_pipeline(&self.device, Shader::Merge, "cull", &layouts, &consts)
        })
    }

    /// Write the merged draw's and splats' arguments (after every cull and the sort).
    pub fn record_args(&self, pass: &mut wgpu::ComputePass, bind: &wgpu::BindGroup) {
        dispatch_one(pass, &self.args, bind);
    }

    /// The pipelines built so far: the cull's variants and the arguments' pass.
    #[cfg(test)]
    pub fn built(&self) -> usize {
        self.cull.iter().filter(|c| c.get().is_some()).count() + 1
    }
}
