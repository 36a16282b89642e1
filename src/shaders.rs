//! WGSL sources: `shaders/common.wgsl` prepended to each pass's file (and, for the draw,
//! `shaders/ribbon.wgsl`, the geometry of ribbon pieces; for the grid and its queries,
//! `shaders/grid_cells.wgsl`; for both all-pairs gravity kernels, `shaders/gravity_pairs.wgsl`;
//! for the three culls, `shaders/cull_test.wgsl`; for both culls into a merged list's
//! list, `shaders/merge_list.wgsl`; for the draw and the splat,
//! `shaders/members.wgsl`; for the argument passes and relist, `shaders/survivors.wgsl`;
//! for both simulates, `shaders/step.wgsl`; for both emits, `shaders/spawn.wgsl`; for the
//! batched passes, `shaders/batch.wgsl`).

/// Structs, constants and helpers shared by every pass.
pub(crate) const COMMON: &str = include_str!("../shaders/common.wgsl");

/// The geometry of ribbon pieces (functions only), composed into the draw.
const RIBBON: &str = include_str!("../shaders/ribbon.wgsl");

/// The neighbour grid's cells (structs and functions), composed into the passes that build
/// and query it.
const GRID_CELLS: &str = include_str!("../shaders/grid_cells.wgsl");

/// What both all-pairs gravity kernels share: bindings, targets, the pull of a body.
const GRAVITY_PAIRS: &str = include_str!("../shaders/gravity_pairs.wgsl");
const MEMBERS: &str = include_str!("../shaders/members.wgsl");

/// Where cull puts one alive particle (functions and the variant's constants), composed
/// into the culls: into an effect's own lists and into a merged list, of one
/// effect and of many batched.
const CULL_TEST: &str = include_str!("../shaders/cull_test.wgsl");

/// How a cull into a merged list lists what it keeps, composed into its two culls:
/// of one effect and of many batched.
const MERGE_LIST: &str = include_str!("../shaders/merge_list.wgsl");

/// What follows a simulate step (a function of the counters both passes bind), composed
/// into the argument passes and relist.
const SURVIVORS: &str = include_str!("../shaders/survivors.wgsl");

/// One particle's step (forces, Euler, lifetime, bounds) and its listing, composed into
/// both simulates: of one pool and of many batched.
const STEP: &str = include_str!("../shaders/step.wgsl");

/// How a spawn is born (functions, and what they read of the frame), composed into both
/// emits: of one effect and of many batched.
const SPAWN: &str = include_str!("../shaders/spawn.wgsl");

/// The hooks an effect's stacks are generated into, empty (an effect without stacks),
/// composed into both emits and both simulates.
const GRAPH: &str = crate::effect::graph::wgsl::NO_GRAPH;

/// Where a pool is in its chunk of the arena, composed into the batched passes.
const BATCH: &str = include_str!("../shaders/batch.wgsl");

/// The WGSL passes, by file stem.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shader {
    Emit,
    Args,
    Simulate,
    GravityStage,
    Gravity,
    GravitySubgroups,
    Bodies,
    Cull,
    Sort,
    Merge,
    Relist,
    BatchRelist,
    BatchSimulate,
    BatchMerge,
    BatchEmit,
    Splat,
    Draw,
    RibbonPieces,
    Grid,
    Shadow,
    Flock,
    Crowd,
    Sdf,
    Flow,
    Scan,
    MeshCull,
    Mesh,
    Downsample,
    Composite,
    Roofline,
}

impl Shader {
    /// Every pass, for validation.
    #[cfg(test)]
    pub const ALL: [Shader; 30] = [
        Shader::Emit,
        Shader::Args,
        Shader::Simulate,
        Shader::GravityStage,
        Shader::Gravity,
        Shader::GravitySubgroups,
        Shader::Bodies,
        Shader::Cull,
        Shader::Sort,
        Shader::Merge,
        Shader::Relist,
        Shader::BatchRelist,
        Shader::BatchSimulate,
        Shader::BatchMerge,
        Shader::BatchEmit,
        Shader::Splat,
        Shader::Draw,
        Shader::RibbonPieces,
        Shader::Grid,
        Shader::Shadow,
        Shader::Flock,
        Shader::Crowd,
        Shader::Sdf,
        Shader::Flow,
        Shader::Scan,
        Shader::MeshCull,
        Shader::Mesh,
        Shader::Downsample,
        Shader::Composite,
        Shader::Roofline,
    ];

    /// File stem under `shaders/`.
    pub fn name(self) -> &'static str {
        match self {
            Shader::Emit => "emit",
            Shader::Args => "args",
            Shader::Simulate => "simulate",
            Shader::Bodies => "bodies",
            Shader::GravityStage => "gravity_stage",
            Shader::Gravity => "gravity",
            Shader::GravitySubgroups => "gravity_subgroups",
            Shader::Cull => "cull",
            Shader::Sort => "sort",
            Shader::Merge => "merge",
            Shader::Relist => "relist",
            Shader::BatchRelist => "batch_relist",
            Shader::BatchSimulate => "batch_simulate",
            Shader::BatchMerge => "batch_merge",
            Shader::BatchEmit => "batch_emit",
            Shader::Splat => "splat",
            Shader::Draw => "draw",
            Shader::RibbonPieces => "ribbon_pieces",
            Shader::Grid => "grid",
            Shader::Shadow => "shadow",
            Shader::Flock => "flock",
            Shader::Crowd => "crowd",
            Shader::Sdf => "sdf",
            Shader::Flow => "flow",
            Shader::Scan => "scan",
            Shader::MeshCull => "mesh_cull",
            Shader::Mesh => "mesh",
            Shader::Downsample => "downsample",
            Shader::Composite => "composite",
            Shader::Roofline => "roofline",
        }
    }

    fn body(self) -> &'static str {
        match self {
            Shader::Emit => include_str!("../shaders/emit.wgsl"),
            Shader::Args => include_str!("../shaders/args.wgsl"),
            Shader::Simulate => include_str!("../shaders/simulate.wgsl"),
            Shader::Bodies => include_str!("../shaders/bodies.wgsl"),
            Shader::GravityStage => include_str!("../shaders/gravity_stage.wgsl"),
            Shader::Gravity => include_str!("../shaders/gravity.wgsl"),
            Shader::GravitySubgroups => include_str!("../shaders/gravity_subgroups.wgsl"),
            Shader::Cull => include_str!("../shaders/cull.wgsl"),
            Shader::Sort => include_str!("../shaders/sort.wgsl"),
            Shader::Merge => include_str!("../shaders/merge.wgsl"),
            Shader::Relist => include_str!("../shaders/relist.wgsl"),
            Shader::BatchRelist => include_str!("../shaders/batch_relist.wgsl"),
            Shader::BatchSimulate => include_str!("../shaders/batch_simulate.wgsl"),
            Shader::BatchMerge => include_str!("../shaders/batch_merge.wgsl"),
            Shader::BatchEmit => include_str!("../shaders/batch_emit.wgsl"),
            Shader::Splat => include_str!("../shaders/splat.wgsl"),
            Shader::Draw => include_str!("../shaders/draw.wgsl"),
            Shader::RibbonPieces => include_str!("../shaders/ribbon_pieces.wgsl"),
            Shader::Grid => include_str!("../shaders/grid.wgsl"),
            Shader::Shadow => include_str!("../shaders/shadow.wgsl"),
            Shader::Flock => include_str!("../shaders/flock.wgsl"),
            Shader::Crowd => include_str!("../shaders/crowd.wgsl"),
            Shader::Sdf => include_str!("../shaders/sdf.wgsl"),
            Shader::Flow => include_str!("../shaders/flow.wgsl"),
            Shader::Scan => include_str!("../shaders/scan.wgsl"),
            Shader::MeshCull => include_str!("../shaders/mesh_cull.wgsl"),
            Shader::Mesh => include_str!("../shaders/mesh.wgsl"),
            Shader::Downsample => include_str!("../shaders/downsample.wgsl"),
            Shader::Composite => include_str!("../shaders/composite.wgsl"),
            Shader::Roofline => include_str!("../shaders/roofline.wgsl"),
        }
    }

    /// Shared files composed between common.wgsl and the pass, by file stem.
    fn includes(self) -> &'static [(&'static str, &'static str)] {
        match self {
            Shader::Draw => &[("ribbon", RIBBON), ("members", MEMBERS)],
            Shader::Splat => &[("members", MEMBERS)],
            Shader::Emit => &[("graph", GRAPH), ("spawn", SPAWN)],
            Shader::BatchEmit => &[("batch", BATCH), ("graph", GRAPH), ("spawn", SPAWN)],
            Shader::Cull => &[("cull_test", CULL_TEST)],
            Shader::Merge => &[("cull_test", CULL_TEST), ("merge_list", MERGE_LIST)],
            Shader::BatchMerge => &[
                ("batch", BATCH),
                ("cull_test", CULL_TEST),
                ("merge_list", MERGE_LIST),
            ],
            Shader::Args | Shader::Relist => &[("survivors", SURVIVORS)],
            Shader::Simulate => &[("graph", GRAPH), ("step", STEP)],
            Shader::BatchSimulate => &[("batch", BATCH), ("graph", GRAPH), ("step", STEP)],
            Shader::BatchRelist => &[("batch", BATCH)],
            Shader::Grid | Shader::Flock | Shader::Crowd => &[("grid_cells", GRID_CELLS)],
            Shader::Gravity | Shader::GravitySubgroups => &[("gravity_pairs", GRAVITY_PAIRS)],
            _ => &[],
        }
    }

    /// Whether the pass needs subgroup operations (the device's `SUBGROUP` feature).
    #[cfg(test)]
    pub fn uses_subgroups(self) -> bool {
        self == Shader::GravitySubgroups
    }

    /// The composed module source: common.wgsl, the pass's includes, the pass. (naga 30
    /// takes subgroup operations where the device has the feature, and refuses the
    /// `enable subgroups;` directive.)
    pub fn source(self) -> String {
        let mut src = COMMON.to_string();
        for (name, body) in self.includes().iter().chain([&(self.name(), self.body())]) {
            src += &format!("\n// ---- {name}.wgsl ----\n{body}");
        }
        src
    }

    /// The composed source with each `override NAME: u32 = ...;` named in `consts` turned
    /// into a `const` of the given value. (naga 30's SPIR-V writer fails on some uses of
    /// pipeline-overridable constants, so variants are specialised in the source.)
    /// `SAMPLES` above 1 also makes `host_depth` a multisampled depth texture (the same
    /// `textureLoad(host_depth, pixel, s)` then reads sample s instead of level 0).
    pub fn specialised(self, consts: &[(&str, u32)]) -> String {
        let mut src = self.source();
        if consts.iter().any(|&(name, n)| name == "SAMPLES" && n > 1) {
            src = src.replace(
                "var host_depth: texture_depth_2d;",
                "var host_depth: texture_depth_multisampled_2d;",
            );
        }
        for (name, value) in consts {
            let prefix = format!("override {name}: u32");
            let Some(start) = src.find(&prefix) else {
                continue;
            };
            let end = start + src[start..].find(';').unwrap_or(0) + 1;
            src.replace_range(start..end, &format!("const {name}: u32 = {value}u;"));
        }
        src
    }

    /// Create the module of [`Shader::specialised`]`(consts)` on `device`.
    pub fn module(self, device: &wgpu::Device, consts: &[(&str, u32)]) -> wgpu::ShaderModule {
        self.module_of(device, self.specialised(consts))
    }

    /// Create a module of this pass from `source` (its specialised source, changed).
    pub fn module_of(self, device: &wgpu::Device, source: String) -> wgpu::ShaderModule {
        device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some(self.name()),
            source: wgpu::ShaderSource::Wgsl(source.into()),
        })
    }

    /// [`Shader::specialised`]`(consts)` with an effect's generated stacks (`block`, from
    /// [`crate::effect::graph::Graph::wgsl`]) in place of the empty hooks (graph.wgsl).
    pub fn generated(self, consts: &[(&str, u32)], block: &str) -> String {
        self.specialised(consts).replacen(GRAPH, block, 1)
    }
}

/// Whether `source` parses and validates as wgpu would check it, else the validator's
/// message: code generated from an effect is checked so before wgpu sees it.
pub(crate) fn validate(source: &str) -> Result<(), String> {
    let module = naga::front::wgsl::parse_str(source).map_err(|e| e.emit_to_string(source))?;
    let flags = naga::valid::ValidationFlags::all();
    naga::valid::Validator::new(flags, naga::valid::Capabilities::default())
        .validate(&module)
        .map_err(|e| e.emit_to_string(source))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn validate(shader: Shader, src: &str) {
        let module = naga::front::wgsl::parse_str(src)
            .unwrap_or_else(|e| panic!("{}.wgsl: {}", shader.name(), e.emit_to_string(src)));
        let mut capabilities = naga::valid::Capabilities::default();
        if shader.uses_subgroups() {
            capabilities |= naga::valid::Capabilities::SUBGROUP;
        }
        naga::valid::Validator::new(naga::valid::ValidationFlags::all(), capabilities)
            .validate(&module)
            .unwrap_or_else(|e| panic!("{}.wgsl: {}", shader.name(), e.emit_to_string(src)));
    }

    #[test]
    fn every_composed_module_validates() {
        for shader in Shader::ALL {
            validate(shader, &shader.source());
        }
    }

    /// What one entry point of `module` uses against WebGPU's default limits: storage
    /// buffers and storage textures it reads or writes, bind groups, bytes of workgroup
    /// memory, invocations of a workgroup (its size, after the module's overrides take
    /// their defaults).
    fn entry_point_use(
        module: &naga::Module,
        info: &naga::valid::ModuleInfo,
        e: usize,
    ) -> [u64; 5] {
        let entry = &module.entry_points[e];
        let used = info.get_entry_point(e);
        let mut layouter = naga::proc::Layouter::default();
        layouter.update(module.to_ctx()).expect("layout");
        let (mut buffers, mut textures, mut groups, mut workgroup) = (0, 0, 0, 0);
        for (handle, var) in module.global_variables.iter() {
            if used[handle].is_empty() {
                continue;
            }
            if let Some(b) = &var.binding {
                groups = groups.max(b.group as u64 + 1);
            }
            match var.space {
                naga::AddressSpace::Storage { .. } => buffers += 1,
                naga::AddressSpace::WorkGroup => workgroup += layouter[var.ty].size as u64,
                naga::AddressSpace::Handle => {
                    let storage = matches!(
                        module.types[var.ty].inner,
                        naga::TypeInner::Image {
                            class: naga::ImageClass::Storage { .. },
                            ..
                        }
                    );
                    textures += storage as u64;
                }
                _ => {}
            }
        }
        let size = entry
            .workgroup_size
            .iter()
            .map(|&n| n.max(1) as u64)
            .product();
        [buffers, textures, groups, workgroup, size]
    }

    /// Every entry point of every pass fits WebGPU's default limits, which is what
    /// [`crate::adapter`] asks of a device (the layouts may bind a little more than an entry
    /// point uses: src/passes/mod.rs counts those, and every GPU test runs on a device of
    /// these limits).
    #[test]
    fn every_entry_point_fits_webgpus_default_limits() {
        let limits = wgpu::Limits::default();
        let most = [
            (
                "storage buffers",
                limits.max_storage_buffers_per_shader_stage as u64,
            ),
            (
                "storage textures",
                limits.max_storage_textures_per_shader_stage as u64,
            ),
            ("bind groups", limits.max_bind_groups as u64),
            (
                "bytes of workgroup memory",
                limits.max_compute_workgroup_storage_size as u64,
            ),
            (
                "invocations",
                limits.max_compute_invocations_per_workgroup as u64,
            ),
        ];
        assert_eq!(most[0].1, crate::adapter::STORAGE_BUFFERS_PER_STAGE as u64);
        let mut fullest = (0, String::new());
        let mut needed = [0u64; 4];
        for shader in Shader::ALL {
            let src = shader.source();
            let module = naga::front::wgsl::parse_str(&src).expect("parses");
            let mut capabilities = naga::valid::Capabilities::default();
            if shader.uses_subgroups() {
                capabilities |= naga::valid::Capabilities::SUBGROUP;
            }
            let flags = naga::valid::ValidationFlags::all();
            let info = naga::valid::Validator::new(flags, capabilities)
                .validate(&module)
                .expect("validates");
            let (module, info) = naga::back::pipeline_constants::process_overrides(
                &module,
                &info,
                None,
                &Default::default(),
            )
            .expect("overrides take their defaults");
            for (e, entry) in module.entry_points.iter().enumerate() {
                let uses = entry_point_use(&module, &info, e);
                for (need, n) in needed.iter_mut().zip(uses) {
                    *need = (*need).max(n);
                }
                if uses[0] > fullest.0 {
                    fullest = (uses[0], format!("{}.wgsl {}", shader.name(), entry.name));
                }
                for ((what, limit), n) in most.iter().zip(uses) {
                    assert!(
                        n <= *limit,
                        "{}.wgsl {}: {n} {what}, WebGPU allows {limit}",
                        shader.name(),
                        entry.name
                    );
                }
            }
        }
        // (the count sees what it should: the cull and simulate use all they may)
        assert_eq!(fullest.0, 8, "the fullest, {}", fullest.1);
        // what a device is asked for is what the passes use
        use crate::adapter::{BIND_GROUPS, STORAGE_TEXTURES_PER_STAGE, WORKGROUP_MEMORY};
        let asked = [STORAGE_TEXTURES_PER_STAGE, BIND_GROUPS, WORKGROUP_MEMORY];
        assert_eq!(needed[1..], asked.map(u64::from));
    }

    #[test]
    fn every_draw_variant_validates() {
        for merged in [0, 1] {
            for (billboards, ribbons) in [(1, 0), (0, 1), (1, 1)] {
                for (flakes, images) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                    let consts = [
                        ("MERGED", merged),
                        ("BILLBOARDS", billboards),
                        ("RIBBONS", ribbons),
                        ("FLAKES", flakes),
                        ("IMAGES", images),
                    ];
                    let src = Shader::Draw.specialised(&consts);
                    assert!(src.contains(&format!("const RIBBONS: u32 = {ribbons}u;")));
                    assert!(src.contains(&format!("const MERGED: u32 = {merged}u;")));
                    assert!(src.contains(&format!("const FLAKES: u32 = {flakes}u;")));
                    assert!(src.contains(&format!("const IMAGES: u32 = {images}u;")));
                    validate(Shader::Draw, &src);
                }
            }
        }
    }

    /// Every variant of `shader`, given as (dense index, constants): the indices all
    /// differ and lie below `count`, the constants are specialised in, and the module
    /// validates.
    /// (Validated on every core: simulate alone has thousands of variants.)
    fn validate_variants<const N: usize>(
        shader: Shader,
        count: usize,
        variants: impl Iterator<Item = (usize, [(&'static str, u32); N])>,
    ) {
        let mut seen = std::collections::HashSet::new();
        let variants: Vec<_> = variants.collect();
        for (index, consts) in &variants {
            assert!(
                *index < count && seen.insert(*index),
                "{consts:?}: index {index}"
            );
        }
        assert_eq!(seen.len(), count, "{}: every variant", shader.name());
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        std::thread::scope(|scope| {
            for chunk in variants.chunks(variants.len().div_ceil(cores)) {
                scope.spawn(move || {
                    for (_, consts) in chunk {
                        let src = shader.specialised(consts);
                        for (name, value) in consts {
                            let line = format!("const {name}: u32 = {value}u;");
                            assert!(src.contains(&line), "{consts:?}: {line}");
                        }
                        validate(shader, &src);
                    }
                });
            }
        });
    }

    #[test]
    fn every_simulate_variant_validates() {
        use crate::passes::simulate::SimulateVariant as V;
        let variants = V::all().map(|v| (v.index(), v.consts()));
        validate_variants(Shader::Simulate, V::COUNT, variants);
    }

    /// Every variant that batches, batched: specialised the same way, with what batching
    /// leaves out never compiled in.
    #[test]
    fn every_batched_simulate_variant_validates() {
        use crate::passes::simulate::SimulateVariant as V;
        let mut batched = 0;
        for v in V::all().filter(|v| v.batches()) {
            let src = Shader::BatchSimulate.specialised(&v.consts());
            for (name, value) in v.consts() {
                let specialised = src.contains(&format!("const {name}: u32 = {value}u;"));
                // (the features that batch are specialised; the others are not in its source)
                assert!(specialised || value == 0, "{v:?}: {name}");
            }
            assert!(
                !src.contains("override "),
                "{v:?}: every constant specialised"
            );
            validate(Shader::BatchSimulate, &src);
            batched += 1;
        }
        // anchored, turbulence and three bounds modes
        assert_eq!(batched, 2 * 2 * 3);
    }

    #[test]
    fn every_cull_variant_validates() {
        use crate::passes::cull::CullVariant as V;
        let variants = V::all().map(|v| (v.index(), v.consts()));
        validate_variants(Shader::Cull, V::COUNT, variants);
    }

    #[test]
    fn every_merged_cull_variant_validates() {
        use crate::passes::cull::CullVariant as V;
        // (a merged list lists no dots apart: the highest bit, clear)
        let variants = V::all()
            .filter(|v| !v.dots)
            .map(|v| (v.index(), v.consts()));
        validate_variants(Shader::Merge, V::COUNT / 2, variants);
    }

    #[test]
    fn every_batched_merged_cull_variant_validates() {
        use crate::passes::cull::CullVariant as V;
        // (a merged list lists no dots apart: the highest bit, clear)
        let variants = V::all()
            .filter(|v| !v.dots)
            .map(|v| (v.index(), v.consts()));
        validate_variants(Shader::BatchMerge, V::COUNT / 2, variants);
    }

    #[test]
    fn every_splat_variant_validates() {
        use crate::passes::splat::SplatVariant as V;
        let variants = V::all().map(|v| (v.index(), v.consts()));
        validate_variants(Shader::Splat, V::COUNT, variants);
    }

    #[test]
    fn every_resolve_variant_validates() {
        use crate::passes::splat::Accumulated as A;
        let variants = A::all().map(|a| (a.index(), a.consts()));
        validate_variants(Shader::Splat, A::COUNT, variants);
    }

    #[test]
    fn multisampled_host_variants_validate() {
        for shader in [Shader::Downsample, Shader::Composite] {
            let src = shader.specialised(&[("SAMPLES", 4)]);
            assert!(src.contains("var host_depth: texture_depth_multisampled_2d;"));
            assert!(src.contains("const SAMPLES: u32 = 4u;"));
            validate(shader, &src);
        }
    }

    /// The downsample at every scale, of single-sampled and multisampled depth, with the
    /// host's distances kept apart or not.
    #[test]
    fn every_downsample_variant_validates() {
        for (samples, factor) in [1, 4].into_iter().flat_map(|s| [1, 2, 4].map(|f| (s, f))) {
            for apart in [0, 1] {
                let consts = [("SAMPLES", samples), ("FACTOR", factor), ("APART", apart)];
                let src = Shader::Downsample.specialised(&consts);
                assert!(src.contains(&format!("const FACTOR: u32 = {factor}u;")));
                assert!(src.contains(&format!("const APART: u32 = {apart}u;")));
                validate(Shader::Downsample, &src);
            }
        }
    }

    /// The composite of a particle target of the host's size.
    #[test]
    fn same_size_composite_validates() {
        for samples in [1, 4] {
            let src = Shader::Composite.specialised(&[("SAMPLES", samples), ("SAME_SIZE", 1)]);
            assert!(src.contains("const SAME_SIZE: u32 = 1u;"));
            validate(Shader::Composite, &src);
        }
    }

    /// The variants that encode their colour for a gamma-encoded host target.
    #[test]
    fn gamma_target_variants_validate() {
        for shader in [Shader::Composite, Shader::Mesh] {
            let src = shader.specialised(&[("GAMMA_TARGET", 1)]);
            assert!(src.contains("const GAMMA_TARGET: u32 = 1u;"));
            validate(shader, &src);
        }
    }

    #[test]
    fn sort_variants_validate() {
        for steps in 1..=crate::types::MAX_SORT_STEPS {
            let src = Shader::Sort.specialised(&[("STEPS", steps)]);
            assert!(src.contains(&format!("const STEPS: u32 = {steps}u;")));
            validate(Shader::Sort, &src);
        }
    }
}
