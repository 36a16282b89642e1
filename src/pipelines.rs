//! Every pipeline a renderer uses, compiled once per renderer on first use and shared by
//! every effect (in the manner of glyphon's `Cache` or vello's `FullShaders`): an effect owns
//! only its buffers, bind groups and CPU state, so adding an effect whose variants exist
//! compiles nothing, and removing one recompiles nothing.
//!
//! A variant is a pass built for one key: simulate, cull and splat with only what an effect
//! uses compiled in (`SimulateVariant`, `CullVariant`, `SplatVariant`: on CPU drivers every
//! branch costs its work, taken or not), the draw for one blend mode, the composite for the
//! host's targets. The sort's
//! pipelines serve every list length (a length is a plan of buffers, not a pipeline).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use crate::compiler::Compiler;
use crate::effect::Blend;
use crate::error::{Error, Result};
use crate::passes::{
    args::ArgsPass,
    batch_emit::BatchEmitPass,
    batch_merge::BatchMergePass,
    batch_relist::BatchRelistPass,
    batch_simulate::{batch_simulate_layout, BatchSimulatePass},
    bodies::BodiesPass,
    composite::CompositePass,
    crowd::CrowdPass,
    cull::{CullPass, CullVariant},
    downsample::DownsamplePass,
    draw::{DrawKinds, DrawPass, DrawSprites},
    emit::EmitPass,
    flock::FlockPass,
    flow::FlowPass,
    gravity::GravityPass,
    grid::GridPasses,
    merge::MergePass,
    mesh::{MeshCull, MeshPass, MeshVariant},
    relist::RelistPass,
    ribbon::RibbonPieces,
    sdf::SdfPass,
    simulate::{SimulatePass, SimulateVariant},
    sort::SortPass,
    splat::SplatPass,
};
use crate::renderer::Targets;
use crate::shaders::Shader;

mod warm;
pub(crate) use warm::{EffectKind, WarmEffect, WarmFrame};

/// The passes of one renderer, each built the first time it is asked for.
pub(crate) struct Pipelines {
    /// The device, and the cache and counter every pipeline is built through.
    device: Compiler,
    /// The host's targets, for the composite and the depth downsample.
    targets: Targets,
    emit: OnceLock<EmitPass>,
    args: OnceLock<ArgsPass>,
    /// By [`SimulateVariant::index`]: the features an effect uses compiled in.
    simulate: Vec<OnceLock<SimulatePass>>,
    /// Simulate's group 0, shared by every variant.
    simulate_layout: OnceLock<wgpu::BindGroupLayout>,
    /// Simulate's group 1 (the previous frame's depth), shared by every variant.
    collision: OnceLock<wgpu::BindGroupLayout>,
    gravity: OnceLock<GravityPass>,
    bodies: OnceLock<BodiesPass>,
    /// By [`CullVariant::index`]: the render modes an effect uses compiled in.
    cull: Vec<OnceLock<CullPass>>,
    /// Cull's group 0, shared by every variant.
    cull_layout: OnceLock<wgpu::BindGroupLayout>,
    sort: OnceLock<SortPass>,
    merge: OnceLock<MergePass>,
    relist: OnceLock<RelistPass>,
    batch_relist: OnceLock<BatchRelistPass>,
    batch_merge: OnceLock<BatchMergePass>,
    batch_emit: OnceLock<BatchEmitPass>,
    /// By [`SimulateVariant::index`], for the variants that batch.
    batch_simulate: Vec<OnceLock<BatchSimulatePass>>,
    /// The batched simulate's group 0, shared by every variant.
    batch_simulate_layout: OnceLock<wgpu::BindGroupLayout>,
    /// By blend mode (additive, alpha), what the list holds ([`DrawKinds`]) and whether
    /// some particle shows an image.
    draw: [[[OnceLock<DrawPass>; DrawSprites::COUNT]; 3]; 2],
    /// The merged draw (alpha, any number of effects), without images and with.
    merged_draw: [OnceLock<DrawPass>; DrawSprites::COUNT],
    ribbon_pieces: OnceLock<RibbonPieces>,
    grid: OnceLock<GridPasses>,
    shadow: OnceLock<crate::passes::shadow::ShadowPass>,
    flock: OnceLock<FlockPass>,
    crowd: OnceLock<CrowdPass>,
    sdf: OnceLock<Arc<SdfPass>>,
    flow: OnceLock<Arc<FlowPass>>,
    mesh_cull: OnceLock<MeshCull>,
    /// Per [`MeshVariant`] (depth convention, closed mesh): the lit mesh draw into the
    /// host's targets, and the distances into the particle target.
    mesh_lit: [OnceLock<MeshPass>; 4],
    mesh_distance: [OnceLock<MeshPass>; 4],
    splat: OnceLock<SplatPass>,
    downsample: OnceLock<DownsamplePass>,
    composite: OnceLock<CompositePass>,
    /// The emits of effects with init stacks, by their generated block.
    graph_emit: Mutex<HashMap<String, Arc<EmitPass>>>,
    /// The simulates of effects with update stacks, by variant and generated block.
    graph_simulate: Mutex<HashMap<(usize, String), Arc<SimulatePass>>>,
    /// Pipelines built for effects' stacks so far (each distinct block once).
    graph_builds: AtomicU64,
    /// Simulate's group 1 for recording without a renderer's depth: nothing to collide with.
    no_collision: OnceLock<(wgpu::Buffer, wgpu::BindGroup)>,
    /// Simulate's host-event buffer for effects the host does not listen to (never written:
    /// their variant compiles the events out).
    no_events: OnceLock<wgpu::Buffer>,
}

impl Pipelines {
    /// Nothing is compiled yet; the composite will draw into passes over `targets`.
    pub fn new(device: &wgpu::Device, targets: Targets) -> Self {
        Pipelines {
            device: Compiler::cached(device),
            targets,
            emit: OnceLock::new(),
            args: OnceLock::new(),
            simulate: (0..SimulateVariant::COUNT)
                .map(|_| OnceLock::new())
                .collect(),
            simulate_layout: OnceLock::new(),
            collision: OnceLock::new(),
            gravity: OnceLock::new(),
            bodies: OnceLock::new(),
            cull: (0..CullVariant::COUNT).map(|_| OnceLock::new()).collect(),
            cull_layout: OnceLock::new(),
            sort: OnceLock::new(),
            merge: OnceLock::new(),
            relist: OnceLock::new(),
            batch_relist: OnceLock::new(),
            batch_merge: OnceLock::new(),
            batch_emit: OnceLock::new(),
            batch_simulate: (0..SimulateVariant::COUNT)
                .map(|_| OnceLock::new())
                .collect(),
            batch_simulate_layout: OnceLock::new(),
            draw: Default::default(),
            merged_draw: Default::default(),
            ribbon_pieces: OnceLock::new(),
            grid: OnceLock::new(),
            shadow: OnceLock::new(),
            flock: OnceLock::new(),
            crowd: OnceLock::new(),
            sdf: OnceLock::new(),
            flow: OnceLock::new(),
            mesh_cull: OnceLock::new(),
            mesh_lit: Default::default(),
            mesh_distance: Default::default(),
            splat: OnceLock::new(),
            downsample: OnceLock::new(),
            composite: OnceLock::new(),
            graph_emit: Mutex::default(),
            graph_simulate: Mutex::default(),
            graph_builds: AtomicU64::new(0),
            no_collision: OnceLock::new(),
            no_events: OnceLock::new(),
        }
    }

    /// The device and the cache and counter every pipeline is built through.
    pub fn compiler(&self) -> &Compiler {
        &self.device
    }

    pub fn emit(&self) -> &EmitPass {
        self.emit.get_or_init(|| EmitPass::new(&self.device, None))
    }

    /// The emit of an effect whose init stacks generated `block`
    /// ([`crate::effect::graph::Graph::wgsl`]): built the first time a block is seen, then
    /// shared by every effect that generates the same text.
    /// A block the validator refuses is an error naming `effect`.
    pub fn graph_emit(&self, effect: &str, block: &str) -> Result<Arc<EmitPass>> {
        let mut built = self.graph_emit.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(pass) = built.get(block) {
            return Ok(pass.clone());
        }
        let source = Shader::Emit.generated(&[], block);
        crate::shaders::validate(&source).map_err(|message| Error::GeneratedCode {
            effect: effect.to_string(),
            stage: "init".into(),
            message,
        })?;
        self.graph_builds.fetch_add(1, Ordering::Relaxed);
        let pass = Arc::new(EmitPass::new(&self.device, Some(block)));
        built.insert(block.to_string(), pass.clone());
        Ok(pass)
    }

    /// Simulate of `variant` for an effect whose update stacks generated `block`, built the
    /// first time the pair is seen.
    pub fn graph_simulate(
        &self,
        effect: &str,
        variant: SimulateVariant,
        block: &str,
    ) -> Result<Arc<SimulatePass>> {
        let mut built = self
            .graph_simulate
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        let key = (variant.index(), block.to_string());
        if let Some(pass) = built.get(&key) {
            return Ok(pass.clone());
        }
        let source = Shader::Simulate.generated(&variant.consts(), block);
        crate::shaders::validate(&source).map_err(|message| Error::GeneratedCode {
            effect: effect.to_string(),
            stage: "update".into(),
            message,
        })?;
        self.graph_builds.fetch_add(1, Ordering::Relaxed);
        let device = &self.device;
        let layout = self
            .simulate_layout
            .get_or_init(|| crate::passes::simulate::simulate_layout(device));
        let collision = self.collision_layout();
        let pass = SimulatePass::new(device, (variant, Some(block)), layout, collision);
        let pass = Arc::new(pass);
        built.insert(key, pass.clone());
        Ok(pass)
    }

    /// How many pipelines effects' stacks have needed built so far: adding an effect whose
    /// stacks another already generated, or setting a parameter, builds none.
    #[cfg(test)]
    pub fn graph_builds(&self) -> u64 {
        self.graph_builds.load(Ordering::Relaxed)
    }

    pub fn args(&self) -> &ArgsPass {
        self.args.get_or_init(|| ArgsPass::new(&self.device))
    }

    /// Simulate with what `variant` names compiled in.
    pub fn simulate(&self, variant: SimulateVariant) -> &SimulatePass {
        self.simulate[variant.index()].get_or_init(|| {
            let device = &self.device;
            let layout = self
                .simulate_layout
                .get_or_init(|| crate::passes::simulate::simulate_layout(device));
            SimulatePass::new(device, (variant, None), layout, self.collision_layout())
        })
    }

    fn collision_layout(&self) -> &wgpu::BindGroupLayout {
        self.collision
            .get_or_init(|| crate::passes::simulate::collision_layout(&self.device))
    }

    /// Simulate's group 1 over `depth` (the previous frame's, Rg32Float) and a
    /// [`crate::types::CollisionFrame`] uniform `frame`.
    pub fn collision_bind(
        &self,
        depth: &wgpu::TextureView,
        frame: &dyn crate::passes::Binding,
    ) -> wgpu::BindGroup {
        let layout = self.collision_layout();
        crate::passes::simulate::collision_bind(&self.device, layout, depth, frame)
    }

    pub fn gravity(&self) -> &GravityPass {
        self.gravity.get_or_init(|| GravityPass::new(&self.device))
    }

    pub fn bodies(&self) -> &BodiesPass {
        self.bodies.get_or_init(|| BodiesPass::new(&self.device))
    }

    /// Cull with the render modes `variant` names compiled in.
    pub fn cull(&self, variant: CullVariant) -> &CullPass {
        self.cull[variant.index()].get_or_init(|| {
            let layout = self
                .cull_layout
                .get_or_init(|| CullPass::layout(&self.device));
            CullPass::new(&self.device, variant, layout)
        })
    }

    pub fn sort(&self) -> &SortPass {
        self.sort.get_or_init(|| SortPass::new(&self.device))
    }

    pub fn merge(&self) -> &MergePass {
        self.merge.get_or_init(|| MergePass::new(&self.device))
    }

    pub fn relist(&self) -> &RelistPass {
        self.relist.get_or_init(|| RelistPass::new(&self.device))
    }

    pub fn batch_relist(&self) -> &BatchRelistPass {
        self.batch_relist
            .get_or_init(|| BatchRelistPass::new(&self.device))
    }

    /// The batched emit.
    pub fn batch_emit(&self) -> &BatchEmitPass {
        self.batch_emit
            .get_or_init(|| BatchEmitPass::new(&self.device))
    }

    /// The batched cull into a merged list.
    pub fn batch_merge(&self) -> &BatchMergePass {
        self.batch_merge
            .get_or_init(|| BatchMergePass::new(&self.device))
    }

    /// The batched simulate of pools whose effects compile to `variant` (one that
    /// [`SimulateVariant::batches`]).
    pub fn batch_simulate(&self, variant: SimulateVariant) -> &BatchSimulatePass {
        self.batch_simulate[variant.index()].get_or_init(|| {
            let device = &self.device;
            let layout = self
                .batch_simulate_layout
                .get_or_init(|| batch_simulate_layout(device));
            BatchSimulatePass::new(device, variant, layout)
        })
    }

    /// An effect's own draw, for `blend`, its list holding `kinds`, sampling the `sprites`
    /// some particle shows.
    pub fn draw(&self, blend: Blend, kinds: DrawKinds, sprites: DrawSprites) -> &DrawPass {
        let k = DrawKinds::ALL.iter().position(|&k| k == kinds).unwrap_or(0);
        self.draw[blend_slot(blend)][k][sprites.index()]
            .get_or_init(|| DrawPass::new(&self.device, blend, (false, kinds, sprites)))
    }

    /// The draw of a merged list (any number of effects; its premultiplied output serves
    /// both blends, so additive members are drawn by it too), sampling the `sprites` some
    /// member shows.
    pub fn merged_draw(&self, sprites: DrawSprites) -> &DrawPass {
        self.merged_draw[sprites.index()].get_or_init(|| {
            let variant = (true, DrawKinds::Billboards, sprites);
            DrawPass::new(&self.device, Blend::Alpha, variant)
        })
    }

    /// The listing of the ribbons' pieces.
    pub fn ribbon_pieces(&self) -> &RibbonPieces {
        self.ribbon_pieces
            .get_or_init(|| RibbonPieces::new(&self.device))
    }

    /// Self-shadowing's passes.
    pub fn shadow(&self) -> &crate::passes::shadow::ShadowPass {
        self.shadow
            .get_or_init(|| crate::passes::shadow::ShadowPass::new(&self.device))
    }

    /// The neighbour grid's passes.
    pub fn grid(&self) -> &GridPasses {
        self.grid.get_or_init(|| GridPasses::new(&self.device))
    }

    /// The flock's steering through the neighbour grid.
    pub fn flock(&self) -> &FlockPass {
        self.flock.get_or_init(|| FlockPass::new(&self.device))
    }

    /// The crowd's walkers steered through the grid and their flow fields.
    pub fn crowd(&self) -> &CrowdPass {
        self.crowd.get_or_init(|| CrowdPass::new(&self.device))
    }

    /// A map's distance field (crowds).
    pub fn sdf(&self) -> &Arc<SdfPass> {
        self.sdf
            .get_or_init(|| Arc::new(SdfPass::new(&self.device)))
    }

    /// A map's flow fields (crowds).
    pub fn flow(&self) -> &Arc<FlowPass> {
        self.flow
            .get_or_init(|| Arc::new(FlowPass::new(&self.device)))
    }

    /// The listing of the mesh particles on screen.
    pub fn mesh_cull(&self) -> &MeshCull {
        self.mesh_cull.get_or_init(|| MeshCull::new(&self.device))
    }

    /// The lit mesh draw into the host's targets, for `variant`.
    pub fn mesh_lit(&self, variant: MeshVariant) -> &MeshPass {
        self.mesh_lit[variant.slot()]
            .get_or_init(|| MeshPass::lit(&self.device, &self.targets, variant))
    }

    /// The mesh distances into the particle target, for `variant`.
    pub fn mesh_distance(&self, variant: MeshVariant) -> &MeshPass {
        self.mesh_distance[variant.slot()].get_or_init(|| MeshPass::distance(&self.device, variant))
    }

    pub fn splat(&self) -> &SplatPass {
        self.splat.get_or_init(|| SplatPass::new(&self.device))
    }

    /// The depth downsample for the host's sample count.
    pub fn downsample(&self) -> &DownsamplePass {
        self.downsample.get_or_init(|| {
            DownsamplePass::new(
                &self.device,
                self.targets.sample_count,
                self.targets.depth_format.is_some(),
            )
        })
    }

    /// The composite into the host's passes.
    pub fn composite(&self) -> &CompositePass {
        self.composite
            .get_or_init(|| CompositePass::new(&self.device, &self.targets))
    }

    /// New host targets: the composite and the lit mesh draw are rebuilt when next
    /// needed, and the downsample when the sample count changed; nothing else depends on
    /// them.
    pub fn set_targets(&mut self, targets: Targets) {
        if targets.sample_count != self.targets.sample_count {
            self.downsample = OnceLock::new();
        }
        if targets != self.targets {
            self.targets = targets;
            self.composite = OnceLock::new();
            self.mesh_lit = Default::default();
        }
    }

    /// Simulate's group 1 over a 1×1 depth and a zeroed (disabled) collision frame (a
    /// prewarm before the first frame).
    pub fn no_collision(&self) -> &wgpu::BindGroup {
        let (_, bind) = self.no_collision.get_or_init(|| {
            use encase::ShaderType;
            let device = &self.device;
            let depth = crate::gpu::texture_2d(
                device,
                "flurry.no_collision_depth",
                (1, 1),
                crate::passes::downsample::LOW_DEPTH_FORMAT,
                wgpu::TextureUsages::TEXTURE_BINDING,
            )
            .create_view(&Default::default());
            // zero-initialised: enabled = 0
            let frame = device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("flurry.no_collision"),
                size: crate::types::CollisionFrame::min_size().get(),
                usage: wgpu::BufferUsages::UNIFORM,
                mapped_at_creation: false,
            });
            let bind = self.collision_bind(&depth, &frame);
            (frame, bind)
        });
        bind
    }

    /// A host-event buffer for simulates without events for the host: a header and one
    /// event.
    pub fn no_events(&self) -> &wgpu::Buffer {
        self.no_events.get_or_init(|| {
            crate::system::events::event_buffer(&self.device, "flurry.no_events", 1)
        })
    }

    /// How many pass variants have been built (each compiles its pipelines once).
    #[cfg(test)]
    pub fn built(&self) -> usize {
        fn n<T>(cells: &[OnceLock<T>]) -> usize {
            cells.iter().filter(|c| c.get().is_some()).count()
        }
        n(std::slice::from_ref(&self.emit))
            + n(std::slice::from_ref(&self.args))
            + n(&self.simulate)
            + n(std::slice::from_ref(&self.gravity))
            + n(std::slice::from_ref(&self.bodies))
            + n(&self.cull)
            + n(std::slice::from_ref(&self.sort))
            + self.merge.get().map_or(0, MergePass::built)
            + n(std::slice::from_ref(&self.relist))
            + n(std::slice::from_ref(&self.batch_relist))
            + self.batch_merge.get().map_or(0, BatchMergePass::built)
            + n(std::slice::from_ref(&self.batch_emit))
            + n(&self.batch_simulate)
            + n(self.draw.as_flattened().as_flattened())
            + n(&self.merged_draw)
            + n(std::slice::from_ref(&self.ribbon_pieces))
            + n(std::slice::from_ref(&self.grid))
            + n(std::slice::from_ref(&self.shadow))
            + n(std::slice::from_ref(&self.flock))
            + n(std::slice::from_ref(&self.crowd))
            + n(std::slice::from_ref(&self.sdf))
            + n(std::slice::from_ref(&self.flow))
            + n(std::slice::from_ref(&self.mesh_cull))
            + n(&self.mesh_lit)
            + n(&self.mesh_distance)
            + n(std::slice::from_ref(&self.splat))
            + n(std::slice::from_ref(&self.downsample))
            + n(std::slice::from_ref(&self.composite))
    }
}

fn blend_slot(blend: Blend) -> usize {
    match blend {
        Blend::Additive => 0,
        Blend::Alpha => 1,
    }
}
