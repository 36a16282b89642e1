//! `ParticleSystem`: one effect's pool, uniforms, bind groups and CPU state (its spawn
//! clock, which alive list is current). It owns no pipeline: it records through the
//! renderer's shared [`Pipelines`].
//!
//! Per frame: [`ParticleSystem::update`] writes the uniforms (camera, clock, this frame's
//! spawn request); [`ParticleSystem::record_step`] records emit → args → simulate → args →
//! cull → args → sort into compute passes; [`ParticleSystem::record_draw`] records the
//! indirect draw. Nothing here submits or waits.

use crate::effect::{EffectDesc, Shape, SpawnClock, Velocity};
use crate::error::{Invalid, Result};
use crate::image::Images;
use crate::instances::{Instance, Instances};
use crate::mesh::{MeshSet, Meshes};
use crate::passes::args::After;
use crate::passes::batch_simulate::StepClock;
use crate::passes::cull::CullVariant;
use crate::passes::draw::{DrawArgs, DrawBinding, DrawKinds, DrawSprites};
use crate::passes::emit::EmitPass;
use crate::passes::simulate::{SimulatePass, SimulateVariant};
use crate::passes::sort::{SortBinding, SortPlan};
use crate::passes::splat::SplatVariant;
use crate::passes::GraphInputs;
use crate::pipelines::Pipelines;
use crate::playback::Lifecycle;
use crate::pool::{ParticlePool, PoolSnapshot, Sizing, Stats};
use crate::types::MAX_EMITTERS;
use crate::types::{uniform_bytes, EffectParams, EmitUniforms, FrameUniforms, GraphParams};
use crate::uniform_pages::{Binding, BufferRange, EmitStaged, UniformPages, UniformSlot};
use crate::view::ViewModel;
pub use compiled::CompiledEffect;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

mod budgeting;
pub(crate) mod compiled;
pub(crate) mod events;
mod lifecycle;
mod lod;
pub(crate) mod variants;
mod visibility;

/// The compute steps of one frame, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// Emit, then size the simulate dispatch.
    Emit,
    /// All-pairs gravity between the particles (effects with self-gravity only).
    Gravity,
    /// Bin the particles into the neighbour grid (effects with neighbours only).
    Grid,
    /// Steer every bird of a flock by its neighbours (flocks only).
    Flock,
    /// A crowd's map distance field and flow fields (crowds only, their first frame).
    Navigate,
    /// Every walker of a crowd: its state, destination and velocity (crowds only).
    Crowd,
    /// Simulate, then size the cull dispatch; spawns at this frame's GPU events.
    Simulate,
    /// Self-shadowing: the light reaching each particle through the others (effects lit
    /// with shadows only).
    Shadow,
    /// Frustum cull into the visible and splat lists, then write the draw arguments.
    Cull,
    /// Sort the visible list back to front (effects that sort on their own).
    Sort,
}

impl Step {
    /// Its bit in a set of steps.
    fn bit(self) -> u16 {
        1 << self as u16
    }

    /// The steps only some effects record, by what their bound passes have.
    fn optional(b: &Bound) -> u16 {
        let has = [
            (Step::Sort, b.sort.is_some() || b.ribbon.is_some()),
            (Step::Gravity, b.gravity_bind.is_some()),
            (Step::Grid, b.grid.is_some()),
            (Step::Shadow, b.shadow.is_some()),
            (Step::Flock, b.flock.is_some()),
            (Step::Navigate, b.walkers.is_some()),
            (Step::Crowd, b.walkers.is_some()),
        ];
        (has.into_iter())
            .filter(|&(_, has)| has)
            .fold(0, |set, (step, _)| set | step.bit())
    }

    #[cfg(test)]
    pub const ALL: [Step; 10] = [
        Step::Emit,
        Step::Gravity,
        Step::Grid,
        Step::Flock,
        Step::Navigate,
        Step::Crowd,
        Step::Simulate,
        Step::Shadow,
        Step::Cull,
        Step::Sort,
    ];
}

/// What a renderer holds for its effects to use: the meshes, the images and the arena its
/// small pools keep their lists and counters in (None: every pool has its own).
#[derive(Clone, Copy)]
pub(crate) struct Assets<'a> {
    pub meshes: &'a Meshes,
    pub images: &'a Images,
    pub arena: Option<&'a crate::arena::PoolArena>,
    /// What new buffers start with, written as the next frame is recorded.
    pub uploads: &'a std::sync::Mutex<crate::uploads::Uploads>,
}

/// An effect's ribbons: the sort of its ribbon list into ribbons and the piece listing's
/// bind group (the draw draws the pieces with the particles).
struct Ribbons {
    plan: SortPlan,
    sort: SortBinding,
    pieces: wgpu::BindGroup,
}

/// What an effect records through the renderer's passes: their bind groups over its
/// buffers, and what is made with them. Made once the passes' pipelines exist.
struct Bound {
    /// Indexed by the alive list emit appends to (and simulate reads).
    /// Every pass reads and appends to alive list 0; simulate writes the survivors to list
    /// 1 and relist copies them back (`relist.wgsl`).
    emit_bind: wgpu::BindGroup,
    simulate_bind: wgpu::BindGroup,
    relist_bind: wgpu::BindGroup,
    gravity_bind: Option<crate::passes::gravity::GravityGroups>,
    bodies_bind: Option<wgpu::BindGroup>,
    /// Indexed by the alive list holding the particles after simulate.
    cull_bind: wgpu::BindGroup,
    args_bind: wgpu::BindGroup,
    /// Its own sort (effects that sort); unused while it is merged with others.
    sort: Option<(SortPlan, SortBinding)>,
    /// Effects with mesh particles: the listing's and the draws' bind groups.
    mesh: Option<[wgpu::BindGroup; 2]>,
    /// Effects with ribbons.
    ribbon: Option<Ribbons>,
    /// Effects with neighbours: their grid.
    grid: Option<crate::passes::grid::NeighbourGrid>,
    /// Effects lit with shadows: their density grid.
    shadow: Option<crate::passes::shadow::ShadowGrid>,
    /// Flocks: the steering's bind group and its parameters (kept for it).
    flock: Option<(wgpu::BindGroup, wgpu::Buffer)>,
    /// Crowds: their navigation fields and walkers.
    walkers: Option<crate::nav::Walkers>,
    draw_bind: DrawBinding,
    /// Its emit and simulate where its stacks generated code (else the shared ones).
    graph_emit: Option<Arc<EmitPass>>,
    graph_simulate: Option<Arc<SimulatePass>>,
}

impl Bound {
    /// Its emit: the shared one, or its own where its init stacks generated code.
    fn emit_pass<'a>(&'a self, p: &'a Pipelines) -> &'a EmitPass {
        self.graph_emit.as_deref().unwrap_or_else(|| p.emit())
    }

    /// Its simulate: the shared `variant`, or its own where its update stacks generated
    /// code.
    fn simulate_pass<'a>(&'a self, p: &'a Pipelines, variant: SimulateVariant) -> &'a SimulatePass {
        self.graph_simulate
            .as_deref()
            .unwrap_or_else(|| p.simulate(variant))
    }
}

pub(crate) struct ParticleSystem {
    /// Its description, stacks and variants, compiled once (copies share them).
    effect: CompiledEffect,
    /// Some emitter of it has spawn lines (read every frame: kept here, not looked up).
    spawn_lines: bool,
    pool: ParticlePool,
    /// Its frame and emit uniforms: a slot of the renderer's pages, written every frame.
    uniforms: UniformSlot,
    effect_buf: wgpu::Buffer,
    /// What it holds (a merged list's members' table copies how its particles look).
    params: EffectParams,
    /// The massive bodies (one unused slot when the effect has none).
    bodies: wgpu::Buffer,
    /// What it records through the renderer's passes (None until their pipelines exist:
    /// an effect whose pipelines compile in the background records nothing till then).
    bound: Option<Bound>,
    /// Its random seed (a crowd's walkers draw from it).
    seed: u32,
    /// What its simulate compiles in now (with its events, once the host listens).
    simulate_variant: SimulateVariant,
    /// It has mesh particles, of a mesh the renderer holds.
    has_mesh: bool,
    /// Its mesh particles' mesh is closed (their back faces are culled).
    closed_mesh: bool,
    /// The compute splat's bind group, made the first time the splat runs (hosts that turn
    /// the splat off never compile its pipelines).
    splat_bind: std::sync::OnceLock<wgpu::BindGroup>,
    clock: SpawnClock,
    /// Playing, paused or stopped, and its time scale.
    lifecycle: Lifecycle,
    /// Its place under the renderer's particle budget.
    budget: crate::budget::EffectBudget,
    /// The last of its frames that asked its emit for spawns.
    last_spawn_frame: u64,
    /// Its latest alive count read back, and the frame it counts.
    observed: Option<(u64, crate::types::Counters)>,
    /// The host asked for its counts: they go back every frame.
    counts_asked: std::sync::atomic::AtomicBool,
    /// Removed by the renderer once finished.
    remove_when_finished: bool,
    /// Updates so far.
    frames: u64,
    /// This frame's emit was recorded: its pending spawns are taken at the next update.
    emit_recorded: AtomicBool,
    /// Simulate steps per frame, each of dt / substeps.
    substeps: u32,
    /// (target pixels per metre at 1 m, largest splatted radius in pixels) for cull.
    splat: (f32, f32),
    /// Particle-target pixels per host pixel.
    target_per_host: f32,
    /// How it thins out with distance and size on screen (None: never).
    lod: Option<crate::lod::Lod>,
    /// Sorted and drawn together with other effects by the renderer.
    merged: bool,
    /// Which of its passes the renderer records together with other pools' of its chunk of
    /// the arena.
    batched: Batched,
    /// What its simulate reads of this frame's uniforms (a batched simulate reads it from
    /// its batch's table).
    step_clock: StepClock,
    request: u32,
    dropped_on_cpu: u64,
    /// The host's transform of the whole effect, and of each emitter within it (the
    /// identity past its emitters). Inline arrays, not lists, as what follows: every
    /// effect reads them every frame, and a list is one more load to wait for.
    transform: glam::Mat4,
    emitter_transforms: [glam::Mat4; MAX_EMITTERS],
    /// How many emitters it has.
    emitters: usize,
    /// Each emitter's world transform at the last update: where this frame's motion starts
    /// (NaN: not placed yet).
    placed: [glam::Mat4; MAX_EMITTERS],
    /// What lights its mesh particles.
    light: crate::Light,
    /// Where the host placed it, when it is placed many times (none: once).
    instances: Instances,
    /// Particle ids given out so far (each instance's spawns take their own).
    ids_taken: u64,
    /// Its parameters' values now, staged with its uniforms at an update when they changed.
    parameters: GraphParams,
    /// The camera (eye, view direction) its parameters were last staged with, and whether
    /// they were staged to be kept (by the frame after they changed, which found them the
    /// same); None when they changed since (a parameter set, the effect or an emitter moved)
    /// or were never staged. A frame that finds the same camera, kept, stages none of their
    /// 1.6 KiB.
    graph_staged: Option<((glam::Vec3, glam::Vec3), bool)>,
    /// What its emitters' fields were last written whole for, standing still: how often
    /// the host had placed it, the camera offset its scheduled emitters follow, whether a
    /// batch's table holds them; None while it moves, or never written. A frame that finds
    /// the same writes only each emitter's spawns of its 288 bytes (see
    /// [`crate::uniform_pages::EMITTER_SPAWNS`]).
    emitters_staged: Option<(u64, glam::Vec3, bool)>,
    /// Its curves and gradients, baked into the rows of a float texture (a zero texel for
    /// an effect without): a texture, not a storage buffer, as emit and simulate already
    /// bind as many storage buffers as WebGPU allows a stage.
    table: wgpu::TextureView,
    /// Its particles' own attributes, [`Graph::stride`] words a slot (one word for an
    /// effect without).
    attributes: wgpu::Buffer,
    /// What the host listens to of it, and what it has not drained yet.
    events: Option<events::EventStream>,
    /// Being prewarmed: its steps report nothing to the host.
    prewarming: bool,
    /// Its bounds and whether the last view saw them.
    sight: visibility::Sight,
    /// Of the steps only some effects record, those its bound passes have (a bit each:
    /// [`Step::bit`]): the renderer asks every effect for every step each frame, and this
    /// answers most of them without reading its bind groups.
    optional_steps: u16,
}

/// Which of a pool's passes the renderer records in a batch with other small pools.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Batched {
    /// Its emit.
    pub emit: bool,
    /// Its relist (after every simulate of the step).
    pub relist: bool,
    /// Its simulate (then its relist too).
    pub simulate: bool,
}

/// Whether `desc` spawns after simulate (trails, hit spawns): their counts come from the
/// argument passes.
fn spawns_after_simulate(desc: &EffectDesc) -> bool {
    desc.trail().is_some() || desc.hit_emitter().is_some()
}

impl ParticleSystem {
    /// The pool and bind groups for `desc` (validated) with `capacity` particles (checked
    /// against the device) and a random `seed`, its uniforms in `uniforms`; builds the
    /// pipeline variants it needs that `pipelines` does not have yet.
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        pipelines: &Pipelines,
        assets: Assets<'_>,
        effect: &CompiledEffect,
        sized: (u32, u32),
        uniforms: UniformSlot,
    ) -> Result<Self> {
        let mut system = Self::unbound(device, assets, effect, sized, uniforms)?;
        system.bind((device, queue), pipelines, assets)?;
        Ok(system)
    }

    /// As [`ParticleSystem::new`], its buffers and CPU state only: it records nothing until
    /// [`ParticleSystem::bind`] (once the pipelines it needs exist), and compiles nothing.
    pub fn unbound(
        device: &wgpu::Device,
        assets: Assets<'_>,
        effect: &CompiledEffect,
        (capacity, seed): (u32, u32),
        uniforms: UniformSlot,
    ) -> Result<Self> {
        let (desc, graph) = (effect.desc(), effect.graph());
        let Assets {
            meshes,
            images,
            arena,
            uploads,
        } = assets;
        let mut uploads = uploads.lock().expect("not poisoned");
        meshes.set().check(desc)?;
        images.check(desc)?;
        let capacity = crate::pool::check_capacity(device, "capacity", capacity as u64)?;
        if desc.self_gravity.is_some() && capacity > crate::effect::MAX_NBODY {
            let allowed = format!("1..={} for all-pairs gravity", crate::effect::MAX_NBODY);
            return Err(Invalid::new("capacity", capacity, allowed).into());
        }
        let most_pieces = desc.ribbon_subdivisions().map_or(0, |s| s + 1);
        crate::pool::check_ribbon_capacity(device, capacity, most_pieces)?;
        // the mesh its mesh particles are, if any
        let mesh = desc.particle_mesh().and_then(|m| meshes.set().mesh(m));
        let needs = crate::pool::PoolNeeds {
            accel: desc.self_gravity.is_some() || desc.flock.is_some(),
            ribbon_pieces: most_pieces,
            mesh: desc.particle_mesh().and_then(|m| meshes.set().draw(m)),
        };
        let sizing = Sizing::of(capacity, 1, spawns_after_simulate(desc));
        let pool = ParticlePool::new((device, &mut uploads), capacity, needs, sizing, arena);
        let mut params = desc.effect_params(seed, capacity);
        // what its stacks say that the built-in fields already do (a gravity and a drag,
        // looks over life): folded into them (graph/fold.rs)
        graph.fold_into(&mut params);
        images.locate_frames(desc, &mut params.looks);
        for look in &mut params.looks {
            if look.render_mode == crate::types::RENDER_MESH {
                look.mesh_radius = mesh.map_or(0.0, crate::Mesh::bounding_radius);
                look.impostor = mesh.map_or(glam::Vec3::ZERO, crate::Mesh::impostor);
            }
        }
        let effect_buf = uploads.buffer_init(
            device,
            "flurry.effect",
            &uniform_bytes(&params),
            wgpu::BufferUsages::UNIFORM,
        );
        // massive bodies, in every slot simulate's uniform binding of them declares (2 KiB)
        let mut initial = desc.initial_bodies();
        initial.resize(crate::types::MAX_BODIES, Default::default());
        let bodies = uploads.buffer_init(
            device,
            "flurry.bodies",
            bytemuck::cast_slice(&initial),
            wgpu::BufferUsages::STORAGE
                | wgpu::BufferUsages::UNIFORM
                | wgpu::BufferUsages::COPY_SRC,
        );
        let table = graph_table(device, &mut uploads, &graph.table);
        let parameters = GraphParams {
            slots: graph.default_block().map(glam::UVec4::from_array),
            ..Default::default()
        };
        // (MAX_ATTRIBUTE_WORDS words a slot at most: never more bytes than the particles)
        let words = (capacity as u64 * graph.stride() as u64).max(1);
        let attributes = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("flurry.graph_attributes"),
            size: words * 4,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        Ok(ParticleSystem {
            bound: None,
            optional_steps: 0,
            seed,
            simulate_variant: effect.variants().simulate,
            has_mesh: mesh.is_some(),
            closed_mesh: mesh.is_some_and(crate::Mesh::is_closed),
            splat_bind: std::sync::OnceLock::new(),
            effect: effect.clone(),
            spawn_lines: graph.spawns(),
            pool,
            uniforms,
            effect_buf,
            params,
            bodies,
            clock: SpawnClock::default(),
            lifecycle: Lifecycle::default(),
            budget: Default::default(),
            last_spawn_frame: 0,
            observed: None,
            counts_asked: Default::default(),
            remove_when_finished: false,
            frames: 0,
            emit_recorded: AtomicBool::new(false),
            substeps: 1,
            splat: (0.0, 0.0),
            target_per_host: 1.0,
            lod: None,
            merged: false,
            batched: Batched::default(),
            step_clock: StepClock::default(),
            request: 0,
            dropped_on_cpu: 0,
            transform: glam::Mat4::IDENTITY,
            emitter_transforms: [glam::Mat4::IDENTITY; MAX_EMITTERS],
            emitters: desc.emitters.len().min(MAX_EMITTERS),
            placed: [glam::Mat4::NAN; MAX_EMITTERS],
            light: crate::Light::default(),
            instances: Instances::none(device),
            ids_taken: 0,
            parameters,
            graph_staged: None,
            emitters_staged: None,
            table,
            attributes,
            events: None,
            prewarming: false,
            sight: visibility::Sight::new(crate::effect::reach::reach(desc, |m| {
                meshes.set().mesh(m).map(crate::Mesh::bounding_radius)
            })),
        })
    }

    /// Its kind: what decides the pipelines its frames may record.
    pub fn kind(&self) -> crate::pipelines::EffectKind {
        let closed = self.has_mesh.then_some(self.closed_mesh);
        crate::pipelines::EffectKind::of_variants(
            self.effect.desc(),
            self.effect.variants().clone(),
            closed,
        )
    }

    /// Whether it records: its passes' bind groups are made ([`ParticleSystem::bind`]).
    pub fn is_bound(&self) -> bool {
        self.bound.is_some()
    }

    /// Make what it records through `pipelines`' passes over its buffers (building the
    /// pipeline variants it needs that do not exist yet); from now on it records.
    pub fn bind(
        &mut self,
        (device, queue): (&wgpu::Device, &wgpu::Queue),
        pipelines: &Pipelines,
        assets: Assets<'_>,
    ) -> Result<()> {
        let (p, desc, pool) = (pipelines, self.effect.desc(), &self.pool);
        let (meshes, images) = (assets.meshes, assets.images);
        let mut uploads = assets.uploads.lock().expect("not poisoned");
        let (frame, effect) = (&self.uniforms.frame, &self.effect_buf);
        let graph_emit = match &self.effect.variants().init {
            Some(block) => Some(p.graph_emit(&desc.name, block)?),
            None => None,
        };
        let graph_simulate = match &self.effect.variants().update {
            Some(block) => Some(p.graph_simulate(&desc.name, self.simulate_variant, block)?),
            None => None,
        };
        let capacity = pool.capacity;
        let most_pieces = desc.ribbon_subdivisions().map_or(0, |s| s + 1);
        let entries = crate::pool::visible_entries(capacity, most_pieces) as u32;
        let sort = desc.sorts().then(|| {
            let plan = SortPlan::bitonic((device, &mut uploads), entries);
            let bind = p.sort().bind(device, &plan, &pool.visible, &pool.counters);
            (plan, bind)
        });
        let ribbon = desc.ribbon_subdivisions().map(|_| {
            let plan = SortPlan::bitonic((device, &mut uploads), capacity);
            let sort = p
                .sort()
                .bind(device, &plan, &pool.ribbon_list, &pool.draw_counters);
            Ribbons {
                sort,
                plan,
                pieces: p.ribbon_pieces().bind(device, pool, frame, effect),
            }
        });
        let image = (images.view(desc.ribbon_image()), &images.sampler);
        let mesh = self.has_mesh.then(|| {
            let cull = p.mesh_cull().bind(device, pool, frame, effect);
            let poses = meshes.poses(device, queue);
            let draw = crate::passes::mesh::bind_draw(device, pool, (frame, effect), poses);
            [cull, draw]
        });
        let grid = desc.neighbours.map(|r| {
            crate::passes::grid::NeighbourGrid::new((device, &mut uploads), p.grid(), pool, r)
        });
        let shadow = desc.shadows().map(|s| {
            let bindings = (frame as &dyn Binding, effect);
            crate::passes::shadow::ShadowGrid::new(device, p.shadow(), pool, s.cells, bindings)
        });
        let flock = grid
            .as_ref()
            .zip(desc.flock_params())
            .map(|(grid, params)| {
                let buf = uploads.buffer_init(
                    device,
                    "flurry.flock",
                    &uniform_bytes(&params),
                    wgpu::BufferUsages::UNIFORM,
                );
                let bind = p.flock().bind(device, pool, grid, &buf, frame);
                (bind, buf)
            });
        let walkers = match (&desc.crowd, &grid) {
            (Some(crowd), Some(grid)) => Some(crate::nav::Walkers::new(
                device,
                queue,
                p,
                crowd,
                crate::nav::WalkerInputs {
                    pool,
                    grid,
                    frame,
                    seed: self.seed,
                },
            )?),
            _ => None,
        };
        let body_count = desc.initial_bodies().len();
        let instances = self.instances.buffer();
        let bound = Bound {
            grid,
            shadow,
            flock,
            walkers,
            mesh,
            ribbon,
            // (made below, over what it has now: its instances, its events)
            emit_bind: self.bind_emit(device, p, meshes, graph_emit.as_deref()),
            simulate_bind: self.bind_simulate(device, p, graph_simulate.as_deref()),
            relist_bind: p.relist().bind(device, pool),
            gravity_bind: desc
                .self_gravity
                .is_some()
                .then(|| p.gravity().bind(device, pool, 0, effect)),
            bodies_bind: (body_count > 0)
                .then(|| p.bodies().bind(device, &self.bodies, frame, effect)),
            cull_bind: p.cull(self.cull_variant()).bind(
                device,
                pool,
                0,
                (frame, effect, instances),
            ),
            args_bind: p.args().bind(device, pool, effect),
            sort,
            draw_bind: p
                .draw(
                    desc.blend,
                    self.effect.variants().kinds,
                    self.effect.variants().sprites(),
                )
                .bind(device, pool, (frame, effect), image),
            graph_emit,
            graph_simulate,
        };
        self.optional_steps = Step::optional(&bound);
        self.bound = Some(bound);
        Ok(())
    }

    /// Its emit's bind group over what it has now (the renderer's mesh surfaces, its
    /// instances), for its own emit (`graph`) or the shared one.
    fn bind_emit(
        &self,
        device: &wgpu::Device,
        p: &Pipelines,
        meshes: &Meshes,
        graph: Option<&EmitPass>,
    ) -> wgpu::BindGroup {
        let (emit, effect) = (&self.uniforms.emit, &self.effect_buf);
        let inputs = (meshes.surface(), self.instances.buffer());
        let stacks: GraphInputs = (&self.uniforms.graph, &self.table, &self.attributes);
        let pass = graph.unwrap_or_else(|| p.emit());
        pass.bind(
            device,
            &self.pool,
            emit,
            (effect, &self.bodies),
            inputs,
            stacks,
        )
    }

    /// Set parameter `name` to `value` from the next update on: a write into its staged
    /// uniforms, nothing compiled. A name it does not declare, or a value of another type
    /// or out of its range, is an error naming it and what it takes.
    pub fn set_parameter(&mut self, name: &str, value: crate::expr::Value) -> Result<()> {
        let Some((slot, parameter)) = self.effect.graph().parameter(name) else {
            let names: Vec<&str> = (self.effect.graph())
                .parameters
                .iter()
                .map(|(n, _)| n.as_str())
                .collect();
            let allowed = match names.is_empty() {
                true => "none: the effect declares no parameters".to_string(),
                false => format!("one of the effect's parameters: {}", names.join(", ")),
            };
            return Err(Invalid::new("parameter", name, allowed).into());
        };
        if !parameter.admits(value) {
            let field = format!("parameter {name}");
            return Err(Invalid::new(field, value, parameter.allowed()).into());
        }
        self.parameters.slots[slot] = glam::UVec4::from_array(value.to_words());
        self.graph_staged = None;
        Ok(())
    }

    /// Parameter `name`'s value now (None: the effect does not declare it).
    pub fn parameter(&self, name: &str) -> Option<crate::expr::Value> {
        let (slot, p) = self.effect.graph().parameter(name)?;
        let words = self.parameters.slots[slot].to_array();
        Some(crate::expr::Value::from_words(p.default.ty(), words))
    }

    pub fn desc(&self) -> &EffectDesc {
        self.effect.desc()
    }

    /// Move or re-aim emitter `index` (its shape, velocity, rate), e.g. a gun that follows
    /// the camera; takes effect at the next update. The effect so changed is validated as
    /// a whole: an emitter that does not exist or a value out of range is an error and
    /// changes nothing.
    pub fn set_emitter(
        &mut self,
        index: usize,
        (shape, velocity, rate): (Shape, Velocity, f32),
        meshes: &MeshSet,
    ) -> Result<()> {
        let count = self.effect.desc().emitters.len();
        let mut desc = self.effect.desc().clone();
        let Some(e) = desc.emitters.get_mut(index) else {
            let allowed = format!("0..{count} (the effect's emitters)");
            return Err(Invalid::new("index", index, allowed).into());
        };
        e.shape = shape;
        e.velocity = velocity;
        e.rate = rate;
        // (its stacks, parameters and attributes are as compiled: only its fields to check)
        desc.check_fields(None)?;
        meshes.check(&desc)?;
        // where it spawns, and how far from there its particles reach, as the emitter is now
        let reach = crate::effect::reach::reach(&desc, |m| {
            meshes.mesh(m).map(crate::Mesh::bounding_radius)
        });
        self.effect = self.effect.redescribed(desc);
        self.sight.set_reach(reach);
        self.placed_again();
        Ok(())
    }

    /// Place the whole effect (`emitter` None) or one emitter within it, from the next
    /// update on: spawns are spread along the way from where it was at the last update.
    /// Refuses a transform that is not finite or cannot be inverted, and an emitter that
    /// does not exist.
    pub fn set_transform(&mut self, emitter: Option<usize>, transform: glam::Mat4) -> Result<()> {
        let finite = transform.to_cols_array().iter().all(|x| x.is_finite());
        if !finite || transform.determinant().abs() < 1e-12 {
            let allowed = "a finite, invertible matrix";
            return Err(Invalid::new("transform", format!("{transform:?}"), allowed).into());
        }
        match emitter {
            None => self.transform = transform,
            Some(i) => {
                let count = self.emitters;
                let Some(slot) = self.emitter_transforms[..count].get_mut(i) else {
                    let allowed = format!("0..{count} (the effect's emitters)");
                    return Err(Invalid::new("index", i, allowed).into());
                };
                *slot = transform;
            }
        }
        self.graph_staged = None;
        self.placed_again();
        Ok(())
    }

    /// The host's transform of each of its emitters within it.
    pub(super) fn own_transforms(&self) -> &[glam::Mat4] {
        &self.emitter_transforms[..self.emitters]
    }

    /// Each emitter's (start, end) world transform for this frame; the end is remembered
    /// as the next frame's start.
    fn motion(&mut self) -> [(glam::Mat4, glam::Mat4); MAX_EMITTERS] {
        let mut motion = [(glam::Mat4::IDENTITY, glam::Mat4::IDENTITY); MAX_EMITTERS];
        let (transform, emitters) = (self.transform, &self.emitter_transforms[..self.emitters]);
        let placed = self.placed.iter_mut().zip(emitters);
        for (m, (before, e)) in motion.iter_mut().zip(placed) {
            let to = transform * *e;
            // (a new emitter starts where it is)
            let from = if before.is_nan() { to } else { *before };
            *m = (from, to);
            *before = to;
        }
        motion
    }

    pub fn capacity(&self) -> u32 {
        self.pool.capacity
    }

    pub fn pool(&self) -> &ParticlePool {
        &self.pool
    }

    /// Seconds simulated so far.
    pub fn time(&self) -> f64 {
        self.clock.time
    }

    /// Simulate `substeps` (at least 1) steps of dt / substeps per frame, from the next
    /// update on: orbits and collisions stay accurate at a frame rate the effect cannot.
    pub fn set_substeps(&mut self, substeps: u32) {
        self.substeps = substeps.max(1);
        let spawns = spawns_after_simulate(self.effect.desc());
        self.pool.sizing = Sizing::of(self.pool.capacity, self.substeps, spawns);
    }

    /// Size its passes as `sizing` says, whatever its pool and steps (tests of both ways;
    /// [`Sizing::Counted`] suits any pool).
    #[cfg(test)]
    pub fn set_sizing(&mut self, sizing: Sizing) {
        self.pool.sizing = sizing;
    }

    /// Let the renderer sort and draw this effect together with others: its own sort is
    /// then skipped.
    pub fn set_merged(&mut self, merged: bool) {
        self.merged = merged;
    }

    pub fn merged(&self) -> bool {
        self.merged
    }

    /// Whether it is splatted from its own list: bound, and not merged with others.
    pub fn splats_alone(&self) -> bool {
        !self.merged && self.bound.is_some()
    }

    /// Let the renderer relist this effect's pool, or simulate and relist it, together with
    /// the others of its chunk of the arena: its own passes for them are then skipped.
    pub fn set_batched(&mut self, batched: Batched) {
        self.batched = batched;
    }

    #[cfg(test)]
    pub fn batched(&self) -> Batched {
        self.batched
    }

    /// What its simulate compiles in, when it may be simulated in a batch with other small
    /// pools of the same: a pool relisted in a batch (in the arena, sized per slot: one step
    /// a frame, no trails or hit spawns recorded after its simulate) whose variant batches
    /// (which leaves out the bodies, all-pairs gravity and flocks, whose passes read or
    /// write the step).
    pub fn batch_variant(&self) -> Option<SimulateVariant> {
        let batches = self.relists_in_batch()
            && self.simulate_variant.batches()
            && self.effect.variants().update.is_none();
        batches.then_some(self.simulate_variant)
    }

    /// Whether it may be relisted in a batch with other small pools: a pool in the arena
    /// sized per slot, not paused (a paused pool is neither emitted, simulated nor relisted).
    pub fn relists_in_batch(&self) -> bool {
        let placed = self.pool.sizing == Sizing::PerSlot && self.pool.lease.is_some();
        placed && !self.lifecycle.held() && self.bound.is_some()
    }

    /// Whether it may emit in a batch with other small pools: a pool relisted in a batch,
    /// placed once (instances are read from its own buffer), without massive
    /// bodies (its orbits and galaxy disks read its own).
    pub fn emit_batches(&self) -> bool {
        self.relists_in_batch()
            && self.instances.count() == 0
            && self.effect.desc().bodies.is_none()
            && self.effect.variants().init.is_none()
    }

    /// The spawns the last update asked of its emit (at most its capacity).
    pub fn emit_request(&self) -> u32 {
        self.request
    }

    /// Its emit uniforms as the last update staged them in `pages`, where its batch's row
    /// of them is due, and whether to be kept ([`UniformPages::batch_row`]).
    pub fn batch_row<'a>(&self, pages: &'a UniformPages, fresh: bool) -> Option<(&'a [u8], bool)> {
        pages.batch_row(&self.uniforms, fresh)
    }

    /// Its emit uniforms as the last update staged them in `pages`.
    pub fn staged_emit<'a>(&self, pages: &'a UniformPages) -> &'a EmitUniforms {
        pages.staged_emit(&self.uniforms)
    }

    /// What its simulate reads of the frame uniforms of the last update.
    pub fn step_clock(&self) -> StepClock {
        self.step_clock
    }

    /// Light mesh particles by `light` from the next update on.
    pub fn set_light(&mut self, light: crate::Light) {
        self.light = light;
    }

    /// Let cull send particles at most `radius` pixels across (in radius) to the compute
    /// splat, for a target of `pixel_scale` pixels per metre at clip w = 1 and
    /// `target_per_host` pixels per pixel of the host's frame; `radius` 0 (the default)
    /// draws every particle. Takes effect at the next update.
    pub fn set_splat(&mut self, pixel_scale: f32, radius: f32, target_per_host: f32) {
        self.splat = (pixel_scale, radius);
        self.target_per_host = target_per_host;
    }

    /// Bind the renderer's mesh surfaces anew (a host added a mesh).
    pub fn rebind_meshes(&mut self, device: &wgpu::Device, p: &Pipelines, meshes: &Meshes) {
        let Some(graph) = self.bound.as_ref().map(|b| b.graph_emit.clone()) else {
            return;
        };
        let bind = self.bind_emit(device, p, meshes, graph.as_deref());
        if let Some(b) = &mut self.bound {
            b.emit_bind = bind;
        }
    }

    /// Place the effect at every one of `list` from the next update on (empty: once, at its
    /// own transform), each spawning what the effect alone would into the one pool. Refuses
    /// an effect with ribbons (an emitter's afterimage is one ribbon) or a crowd (its city
    /// is one), and what [`Instances::check`] refuses. Whether the instances moved to a new
    /// buffer (a bind group of them made elsewhere must be made again).
    pub fn set_instances(
        &mut self,
        device: &wgpu::Device,
        p: &Pipelines,
        list: &[Instance],
        meshes: &Meshes,
    ) -> Result<bool> {
        if !list.is_empty() && (self.has_ribbons() || self.effect.desc().crowd.is_some()) {
            let what = if self.has_ribbons() {
                "ribbons"
            } else {
                "a crowd"
            };
            let value = format!("{} for an effect with {what}", list.len());
            let allowed = "none: an effect with ribbons or a crowd is placed once";
            return Err(Invalid::new("instances", value, allowed).into());
        }
        Instances::check(device, list, self.pool.capacity)?;
        let moved = self.instances.set(device, list);
        self.placed_again();
        // (an effect not bound yet binds its instances when it is)
        if moved && self.bound.is_some() {
            self.rebind_meshes(device, p, meshes);
            self.rebind_simulate(device, p);
            let frame: &dyn Binding = &self.uniforms.frame;
            let inputs = (frame, &self.effect_buf, self.instances.buffer());
            let cull = p
                .cull(self.cull_variant())
                .bind(device, &self.pool, 0, inputs);
            if let Some(b) = &mut self.bound {
                b.cull_bind = cull;
            }
        }
        Ok(moved)
    }

    /// Its simulate's bind group over what it has now (its instances, its events), for its
    /// own simulate (`graph`) or the shared variant.
    fn bind_simulate(
        &self,
        device: &wgpu::Device,
        p: &Pipelines,
        graph: Option<&SimulatePass>,
    ) -> wgpu::BindGroup {
        let stacks: GraphInputs = (&self.uniforms.graph, &self.table, &self.attributes);
        let frame = &self.uniforms.frame;
        let instances = self.instances.buffer();
        let buffers = [
            &self.effect_buf,
            &self.bodies,
            instances,
            self.events_buffer(p),
        ];
        let pass = graph.unwrap_or_else(|| p.simulate(self.simulate_variant));
        pass.bind(device, &self.pool, frame, buffers, stacks)
    }

    /// Its simulate bound anew over what it has now (when bound).
    fn rebind_simulate(&mut self, device: &wgpu::Device, p: &Pipelines) {
        let Some(graph) = self.bound.as_ref().map(|b| b.graph_simulate.clone()) else {
            return;
        };
        let bind = self.bind_simulate(device, p, graph.as_deref());
        if let Some(b) = &mut self.bound {
            b.simulate_bind = bind;
        }
    }

    /// What its cull compiles in now (instanced or not).
    pub fn cull_variant(&self) -> CullVariant {
        CullVariant {
            instanced: self.instances.count() > 0,
            // (a pool in the arena is relisted with others, which zero no draw counters)
            dots: !self.merged && self.pool.lease.is_none(),
            ..self.effect.variants().cull
        }
    }

    /// Whether its cull lists its dots apart, for the splat's `dots` (cull_test.wgsl `DOTS`).
    pub fn lists_dots(&self) -> bool {
        self.cull_variant().dots
    }

    /// Ask the CPU's caches for what [`ParticleSystem::update`] reads first: the renderer
    /// asks for the next effect's while it updates one ([`crate::prefetch`]).
    pub fn prefetch(&self, pages: &UniformPages) {
        use crate::prefetch::value;
        value(&self.emit_recorded);
        value(&self.pool.capacity);
        value(&self.clock);
        value(&self.transform);
        value(&self.emitter_transforms[0]);
        value(&self.placed[0]);
        value(&self.budget);
        value(&self.instances);
        value(&self.lifecycle);
        value(&self.frames);
        value(&self.splat);
        value(&self.emitters_staged);
        value(&self.graph_staged);
        pages.prefetch(&self.uniforms);
    }

    /// Advance the clock by `dt` seconds and stage this frame's uniforms for `view` in
    /// `pages` (`meshes`: where the mesh emitters' triangles are); the caller flushes them.
    pub fn update(
        &mut self,
        pages: &mut UniformPages,
        dt: f32,
        view: &ViewModel,
        meshes: &MeshSet,
    ) {
        self.take_recorded_emit();
        // its own step: scaled, none while paused
        let dt = self.lifecycle.step(dt);
        // the clock runs for one instance, on its share of the pool (and of what the
        // renderer's budget allows it this frame)
        let copies = self.instances.count().max(1);
        let share = self.pool.capacity / copies;
        let allowed = self
            .budget
            .allowed
            .map_or(share, |a| (a / copies as u64) as u32);
        if self.lifecycle.emits() {
            let spawning = self.spawning(dt, view);
            let (pending, requested) = (self.clock.pending_total(), self.clock.requested_total);
            let dropped = self
                .clock
                .advance(self.effect.desc(), dt, share.min(allowed), &spawning);
            self.dropped_on_cpu += dropped * copies as u64;
            // what the budget held back: beyond what the pool's share alone would drop
            let wanted = pending + (self.clock.requested_total - requested);
            let over_share = wanted.saturating_sub(share as u64);
            self.budget.held_back_total += dropped.saturating_sub(over_share) * copies as u64;
        } else {
            self.clock.idle(dt);
        }
        let offset = self.effect.desc().camera_offset(view.eye);
        let id_base = self.ids_taken as u32;
        let motion = self.motion();
        // its emitters' fields written again only where they may have changed: placed
        // again, the camera it follows moved, moving (or moved in the last frame), into a
        // batch or out of one
        let staged = (self.sight.placed(), offset, self.batched.emit);
        let whole = self.emitters_staged != Some(staged);
        let still = motion[..self.emitters].iter().all(|(from, to)| from == to);
        self.emitters_staged = still.then_some(staged);
        // (2.3 KiB with every emitter's room: filled where the page stages it)
        let emit = pages.emit(&self.uniforms);
        let spawns = (&self.clock.pending()[..], id_base, offset, &motion[..]);
        (self.effect.desc()).fill_emit_uniforms(emit, spawns, meshes, whole);
        emit.step = dt / self.substeps as f32;
        emit.frame = dt;
        emit.instances = self.instances.count();
        emit.per_instance = emit.request;
        emit.request *= copies;
        self.instances.update();
        self.request = emit.request;
        self.frames += 1;
        if emit.request > 0 {
            self.last_spawn_frame = self.frames;
        }
        self.budget.spawned(self.frames, emit.request);
        let frame = FrameUniforms {
            view_proj: view.view_proj,
            eye: view.eye,
            dt: dt / self.substeps as f32,
            substeps: self.substeps,
            cam_right: view.right,
            time: self.clock.time as f32,
            cam_up: view.up,
            frame: self.frames as u32,
            planes: view.planes,
            view_depth: view.view_depth,
            pixel_scale: self.splat.0,
            splat_radius: self.splat.1,
            perspective: !view.depth.convention.orthographic as u32,
            id_end: id_base.wrapping_add(emit.request),
            light_dir: self.light.unit_direction(),
            light_color: self.light.color.into(),
            events: self.events_heard(),
            ambient: self.light.ambient.into(),
            mesh_lod: self.mesh_lod(),
        };
        emit.time = frame.time;
        // its parameters, staged again only when they or the camera changed, and by the
        // frame after, to be kept (written through the queue too: a frame the host drops
        // loses none of them)
        let camera = (view.eye, view.view_depth.truncate().normalize_or_zero());
        let same = self.graph_staged.filter(|&(c, _)| c == camera);
        let mut graph = None;
        if same.is_none_or(|(_, kept)| !kept) {
            let mut staged = self.parameters;
            (staged.transform, staged.eye, staged.view_dir) = (self.transform, camera.0, camera.1);
            for (slot, placed) in staged
                .emitters
                .iter_mut()
                .zip(&self.placed[..self.emitters])
            {
                *slot = *placed;
            }
            graph = Some(staged);
        }
        self.graph_staged = Some((camera, same.is_some()));
        // (a batched emit reads its emitters from its batch's table)
        let elsewhere = self.batched.emit;
        // (written whole standing still: what the frames after this one keep)
        let kept = whole && still;
        let emit = EmitStaged {
            whole,
            kept,
            elsewhere,
        };
        let graph = graph.as_ref().map(|g| (g, same.is_some()));
        pages.write(&self.uniforms, (&frame, emit), graph);
        self.step_clock = StepClock {
            eye: frame.eye.into(),
            dt: frame.dt,
            time: frame.time,
            ..Default::default()
        };
    }

    /// The spawns a recorded frame emitted are taken; a frame updated but never recorded
    /// changed nothing on the GPU, and its spawns stay pending (the particles are in alive
    /// list 0 whatever the host submitted).
    fn take_recorded_emit(&mut self) {
        // (not an atomic swap: a locked instruction waits for every store before it)
        if std::mem::take(self.emit_recorded.get_mut()) {
            self.clock.take();
            self.ids_taken += self.request as u64;
        }
    }

    /// Each emitter's rate and bursts by this frame: its spawn stage's (none to work out for
    /// an effect without spawn lines: the clock reads its emitters'), thinned out with
    /// distance by its level of detail. What the update asks for, and what it claims of the
    /// budget before.
    fn spawning(&self, dt: f32, view: &ViewModel) -> Vec<crate::effect::graph::spawn::Spawning> {
        let stage = match self.spawn_lines {
            true => self.spawn_stage(dt, view),
            false => Vec::new(),
        };
        self.thinned(stage, self.lod_rates(view))
    }

    /// What its spawn lines make of each emitter's rate and bursts this frame.
    fn spawn_stage(&self, dt: f32, view: &ViewModel) -> Vec<crate::effect::graph::spawn::Spawning> {
        let emitters: Vec<glam::Mat4> = (self.own_transforms().iter())
            .map(|e| self.transform * *e)
            .collect();
        self.effect.graph().spawning(
            self.effect.desc(),
            &crate::effect::graph::spawn::SpawnInputs {
                time: self.clock.time as f32,
                dt,
                params: &self.parameters.slots.map(|s| s.to_array()),
                placement: crate::effect::graph::attributes::Placement {
                    transform: self.transform,
                    emitters: &emitters,
                    eye: view.eye,
                    view_dir: view.view_depth.truncate().normalize_or_zero(),
                },
            },
        )
    }

    /// Whether this system records `step` each frame (no sort for effects that skip it or
    /// are sorted with others, no gravity without self-gravity, no grid without
    /// neighbours, no steering without a flock).
    pub fn records(&self, step: Step) -> bool {
        // (every effect has emit, simulate and cull; the rest, as its bound passes say)
        let optional = !matches!(step, Step::Emit | Step::Simulate | Step::Cull);
        if optional && self.optional_steps & step.bit() == 0 {
            return false;
        }
        // a paused effect: only its cull, sort and shadows (the camera and light may move)
        let moves = !matches!(step, Step::Cull | Step::Sort | Step::Shadow);
        if moves && self.lifecycle.held() {
            return false;
        }
        let Some(b) = &self.bound else {
            return false;
        };
        match step {
            Step::Sort => b.sort.is_some() && !self.merged || b.ribbon.is_some(),
            Step::Gravity => b.gravity_bind.is_some(),
            Step::Grid => b.grid.is_some(),
            Step::Shadow => b.shadow.is_some(),
            Step::Flock => b.flock.is_some(),
            Step::Navigate => b.walkers.as_ref().is_some_and(|w| w.needs_navigation()),
            Step::Crowd => b.walkers.is_some(),
            _ => true,
        }
    }

    /// Upload this frame's instances (if they changed) with the frame's `uploads`.
    pub fn copy_instances(&self, uploads: &mut crate::uploads::Uploads) {
        self.instances.copy(uploads);
    }

    /// Record one compute step into an open compute pass; simulate collides against
    /// `collision` (the renderer's, or [`Pipelines::no_collision`]).
    pub fn record_step(
        &self,
        p: &Pipelines,
        step: Step,
        pass: &mut wgpu::ComputePass,
        collision: &wgpu::BindGroup,
    ) {
        let Some(b) = &self.bound else {
            return;
        };
        let args = |pass: &mut wgpu::ComputePass, after| p.args().record(pass, &b.args_bind, after);
        match step {
            Step::Emit => {
                // (a batched pool's spawns are recorded with its batch's)
                self.emit_recorded.store(true, Ordering::Relaxed);
                if !self.batched.emit {
                    b.emit_pass(p)
                        .record(pass, &b.emit_bind, self.request, self.pool.sizing);
                }
                if self.pool.sizing == Sizing::Counted {
                    args(pass, After::Emit);
                }
            }
            Step::Gravity => self.record_gravity(p, pass),
            Step::Grid => {
                if let Some(grid) = &b.grid {
                    grid.record(p.grid(), pass, &self.pool);
                }
            }
            Step::Flock => {
                if let Some((bind, _)) = &b.flock {
                    p.flock().record(pass, bind, &self.pool);
                }
            }
            Step::Navigate => {
                if let Some(walkers) = &b.walkers {
                    walkers.record_navigation(pass);
                }
            }
            Step::Crowd => {
                if let Some(walkers) = &b.walkers {
                    walkers.record(p, pass, &self.pool);
                }
            }
            Step::Simulate => {
                let simulate = b.simulate_pass(p, self.simulate_variant);
                for sub in 0..self.substeps {
                    if sub > 0 {
                        // later substeps need the pull of the particles where they are now,
                        // and walkers their velocity for the step (never into a building)
                        self.record_gravity(p, pass);
                        if let Some(walkers) = &b.walkers {
                            walkers.record(p, pass, &self.pool);
                        }
                    }
                    if !self.batched.simulate {
                        pass.set_bind_group(1, collision, &[]);
                        simulate.record(pass, &b.simulate_bind, &self.pool);
                    }
                    if self.pool.sizing == Sizing::Counted {
                        args(pass, After::Simulate);
                    }
                    if !self.batched.relist {
                        p.relist().record(pass, &b.relist_bind, &self.pool);
                    }
                    if self.effect.desc().trail().is_some() {
                        // the live list lays its trails: each step its own stretch of them
                        args(pass, After::BeforeTrails);
                        b.emit_pass(p).record_trails(pass, &b.emit_bind, &self.pool);
                        args(pass, After::Spawn);
                    }
                    if let Some(bind) = &b.bodies_bind {
                        p.bodies().record(pass, bind);
                    }
                }
                if self.effect.desc().hit_emitter().is_some() {
                    b.emit_pass(p).record_on_hit(pass, &b.emit_bind, &self.pool);
                    args(pass, After::Spawn);
                }
            }
            Step::Shadow => {
                if let Some(shadow) = &b.shadow {
                    shadow.record(p.shadow(), pass, &self.pool);
                }
            }
            Step::Cull => {
                if self.lifecycle.held() {
                    // its lists start again where emit and simulate would have started them
                    args(pass, After::Held);
                }
                // a merged effect is culled into the merged list, drawn and splatted from
                // it (the renderer records that cull; the merge writes the list's arguments)
                if !self.merged {
                    p.cull(self.cull_variant())
                        .record(pass, &b.cull_bind, &self.pool);
                    args(pass, After::Cull);
                }
                if let Some([cull, _]) = &b.mesh {
                    p.mesh_cull().record(pass, cull, &self.pool);
                }
            }
            Step::Sort => {
                // the ribbons first: their pieces join the visible list, and
                // the draw's count with them, before it is sorted
                if let Some(r) = &b.ribbon {
                    p.sort().record(pass, &r.plan, &r.sort);
                    p.ribbon_pieces().record(pass, &r.pieces, &self.pool);
                    args(pass, After::Pieces);
                }
                if let Some((plan, bind)) = b.sort.as_ref().filter(|_| !self.merged) {
                    p.sort().record(pass, plan, bind);
                }
            }
        }
    }

    /// All-pairs gravity of the alive particles (effects with self-gravity).
    fn record_gravity(&self, p: &Pipelines, pass: &mut wgpu::ComputePass) {
        let Some(b) = &self.bound else {
            return;
        };
        if let Some(bind) = &b.gravity_bind {
            p.gravity().record(pass, bind, &self.pool);
        }
    }

    /// Record the indirect draw of the visible particles and ribbon pieces into a render
    /// pass on the particle target whose bind group 1 is set.
    pub fn record_draw(&self, p: &Pipelines, pass: &mut wgpu::RenderPass) {
        let Some(b) = &self.bound else {
            return;
        };
        let kinds = DrawKinds::of(self.effect.desc());
        let args = match kinds {
            DrawKinds::Billboards => {
                DrawArgs::Direct(&self.pool.args, crate::types::IndirectArgs::DRAW_OFFSET)
            }
            _ => DrawArgs::Indexed(&self.pool.draw_counters, crate::pool::RIBBON_DRAW_OFFSET),
        };
        p.draw(
            self.effect.desc().blend,
            kinds,
            DrawSprites::of(self.effect.variants().splat),
        )
        .record(pass, &b.draw_bind, args);
    }

    /// Whether it has ribbons (their pieces are drawn with its particles, so it is
    /// never sorted and drawn with other effects).
    pub fn has_ribbons(&self) -> bool {
        self.effect.desc().ribbon_subdivisions().is_some()
    }

    /// Whether it has mesh particles.
    pub fn has_meshes(&self) -> bool {
        self.has_mesh && self.bound.is_some()
    }

    /// Record the mesh particles' draw, lit into the host's targets (`lit`) or as
    /// distances into the particle target, into a pass that set what that draw needs;
    /// `reversed`: the host's depth convention.
    pub fn record_meshes(
        &self,
        p: &Pipelines,
        (lit, reversed): (bool, bool),
        pass: &mut wgpu::RenderPass,
        meshes: &Meshes,
    ) {
        let Some(b) = &self.bound else {
            return;
        };
        let Some([_, bind]) = &b.mesh else {
            return;
        };
        let variant = crate::passes::mesh::MeshVariant {
            reversed,
            closed: self.closed_mesh,
        };
        let draw = match lit {
            true => p.mesh_lit(variant),
            false => p.mesh_distance(variant),
        };
        draw.record(pass, bind, &self.pool, meshes);
    }

    /// What its splat compiles in.
    pub fn splat_variant(&self) -> SplatVariant {
        self.effect.variants().splat
    }

    /// The splat's bind group over this system.
    pub fn splat_bind(&self, device: &wgpu::Device, p: &Pipelines) -> &wgpu::BindGroup {
        self.splat_bind.get_or_init(|| {
            let (frame, effect) = self.uniforms();
            p.splat().bind(device, &self.pool, frame, effect)
        })
    }

    /// Read the pool back (blocks; for tests, statistics and dumps). A merged effect's
    /// visible and splat lists are left empty: its cull listed copies in the merged list.
    pub fn snapshot(&self, device: &wgpu::Device, queue: &wgpu::Queue) -> Result<PoolSnapshot> {
        let body_count = self
            .effect
            .desc()
            .bodies
            .as_ref()
            .map_or(0, |b| b.bodies.len()) as u64;
        let bodies = (&self.bodies, body_count);
        let stats = |c: &crate::types::Counters| self.stats(c);
        let lists = !self.merged;
        let mut snapshot = self.pool.snapshot(device, queue, lists, bodies, stats)?;
        if let Some(walkers) = self.bound.as_ref().and_then(|b| b.walkers.as_ref()) {
            snapshot.walkers = walkers.read(device, queue)?;
        }
        let stride = self.effect.graph().stride() as usize;
        if stride > 0 {
            let bytes = self.pool.capacity as u64 * stride as u64 * 4;
            let words = crate::readback::read_buffer(device, queue, &self.attributes, 0, bytes)?;
            let words: Vec<u32> = bytemuck::pod_collect_to_vec(&words);
            snapshot.attributes = (self.effect.graph())
                .attributes
                .iter()
                .map(|c| {
                    let ty = c.initial.ty();
                    let values = words.chunks_exact(stride).map(|record| {
                        let mut w = [0; 4];
                        w[..c.words().len()].copy_from_slice(&record[c.words()]);
                        crate::expr::Value::from_words(ty, w)
                    });
                    (c.name.clone(), values.collect())
                })
                .collect();
        }
        Ok(snapshot)
    }

    /// Totals from the GPU's counters and the CPU's spawn accounting.
    pub(super) fn stats(&self, c: &crate::types::Counters) -> Stats {
        let emitted = c.emitted_total();
        Stats {
            capacity: self.pool.capacity,
            alive: c.alive,
            dead: c.dead.max(0) as u32,
            visible: c.visible + c.splatted,
            splatted: c.splatted,
            emitted_total: emitted,
            dropped_total: c.dropped_total() + self.dropped_on_cpu,
            killed_total: emitted.saturating_sub(c.alive as u64),
            // what reached the GPU's emit pass, what the CPU refused beyond the pool's
            // capacity, and the spawns the GPU's events asked for
            requested_total: c.requested_total() + self.dropped_on_cpu + c.hit_spawned_total(),
            held_back_total: self.budget.held_back_total,
            non_finite_total: c.non_finite_total(),
        }
    }

    /// Where the host placed it (the cull reads each instance's bounds).
    pub fn instances_buffer(&self) -> &wgpu::Buffer {
        self.instances.buffer()
    }

    /// The buffers a later pass may bind (frame uniforms, effect constants).
    pub fn uniforms(&self) -> (&BufferRange, &wgpu::Buffer) {
        (&self.uniforms.frame, &self.effect_buf)
    }

    /// Its constants.
    pub fn params(&self) -> &EffectParams {
        &self.params
    }

    /// Its slot of the uniform pages (to give back when it goes).
    pub fn uniform_slot(&self) -> &UniformSlot {
        &self.uniforms
    }

    /// What its passes worked on in the last frame, from the GPU's counts (blocks; for
    /// profilers).
    pub fn work(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
    ) -> Result<crate::roofline::traffic::Work> {
        let (c, draw) = self.pool.read_counts(device, queue)?;
        // the draw counters, laid out as Counters: the mesh draw's index count in the first
        // word, the mesh particles listed in the second, ribbon points and pieces in the
        // sixth and seventh (DrawCounters in common.wgsl)
        let (ribbon_points, ribbon_pieces) = (draw.visible as u64, draw.hits as u64);
        // pairs its sorts move: its own (unless merged), its ribbons'
        let moved = |(passes, pairs): (u64, u64)| passes * pairs;
        let Some(b) = &self.bound else {
            // (nothing recorded yet: no work)
            return Ok(Default::default());
        };
        let own_sort = b.sort.as_ref().filter(|_| !self.merged);
        let sorted = own_sort.map_or(0, |(plan, _)| moved(plan.passes_for(c.visible as u64)))
            + b.ribbon
                .as_ref()
                .map_or(0, |r| moved(r.plan.passes_for(ribbon_points)));
        let meshes = b.mesh.is_some();
        // a step over the slots sizes its relist to nothing (args.wgsl after_simulate); a
        // pool sized per slot has no argument pass and steps through its list
        let by_slot = self.pool.sizing == Sizing::Counted
            && self.simulate_variant.by_slot()
            && c.alive > 0
            && self.pool.read_args(device, queue)?.relist[0] == 0;
        Ok(crate::roofline::traffic::Work {
            alive: c.alive as u64,
            capacity: self.pool.capacity as u64,
            by_slot,
            spawned: self.request as u64,
            visible: c.visible as u64,
            splatted: c.splatted as u64,
            ribbon_points,
            ribbon_pieces,
            meshes: if meshes { draw.alive as u64 } else { 0 },
            mesh_vertices: if meshes { draw.dead.max(0) as u64 } else { 0 },
            substeps: self.substeps as u64,
            bodies: self
                .effect
                .desc()
                .bodies
                .as_ref()
                .map_or(0, |b| b.bodies.len()) as u64,
            sorted,
            grid_buckets: b.grid.as_ref().map_or(0, |g| g.table() as u64),
            shadow_cells: b.shadow.as_ref().map_or(0, |g| g.cells() as u64),
            simulate: self.simulate_variant,
            cull: self.cull_variant(),
            instances: self.instances.count() as u64,
            merged: self.merged,
            flock: b.flock.is_some(),
            crowd: b.walkers.is_some(),
            gravity: b.gravity_bind.is_some(),
        })
    }

    /// The all-pairs gravity accelerations of the last frame, per slot (blocks; for tests).
    #[cfg(test)]
    pub fn read_nbody_accel(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
    ) -> Result<Vec<[f32; 4]>> {
        let n = self.pool.capacity as u64;
        let bytes = crate::readback::read_buffer(device, queue, &self.pool.accel, 0, n * 16)?;
        Ok(bytemuck::pod_collect_to_vec(&bytes))
    }

    /// Record the argument pass that follows `after` alone (tests write the counters first).
    #[cfg(test)]
    pub fn record_arguments(&self, p: &Pipelines, pass: &mut wgpu::ComputePass, after: After) {
        let Some(b) = &self.bound else {
            return;
        };
        p.args().record(pass, &b.args_bind, after);
    }

    /// Record the hit spawns alone with their argument passes (tests write the event
    /// count first).
    #[cfg(test)]
    pub fn record_hit_spawns(&self, p: &Pipelines, pass: &mut wgpu::ComputePass) {
        let Some(b) = &self.bound else {
            return;
        };
        self.record_arguments(p, pass, After::Simulate);
        b.emit_pass(p).record_on_hit(pass, &b.emit_bind, &self.pool);
        self.record_arguments(p, pass, After::Spawn);
    }

    /// Record the sort's argument pass alone, if this effect sorts; its plan.
    #[cfg(test)]
    pub fn record_sort_arguments(
        &self,
        p: &Pipelines,
        pass: &mut wgpu::ComputePass,
    ) -> Option<&SortPlan> {
        let Some(b) = &self.bound else {
            return None;
        };
        let (plan, bind) = b.sort.as_ref()?;
        p.sort().record_dispatch(pass, plan, bind, 0);
        Some(plan)
    }

    /// Record every compute step of the frame with no depth to collide with, each in its
    /// own compute pass (for tests of the simulation without a renderer).
    #[cfg(test)]
    pub fn encode_compute(&self, p: &Pipelines, encoder: &mut wgpu::CommandEncoder) {
        for step in Step::ALL.into_iter().filter(|&s| self.records(s)) {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            self.record_step(p, step, &mut pass, p.no_collision());
        }
    }
}

/// Texels a row of an effect's baked table holds (graph.wgsl reads its width back).
const TABLE_WIDTH: usize = 1024;

/// An effect's baked curves and gradients (`texels`, in order) as a float texture, row by
/// row [`TABLE_WIDTH`] texels wide, the last row padded with zeros (written as the next
/// frame is recorded); one zero texel for an effect without.
fn graph_table(
    device: &wgpu::Device,
    uploads: &mut crate::uploads::Uploads,
    texels: &[[f32; 4]],
) -> wgpu::TextureView {
    let width = texels.len().clamp(1, TABLE_WIDTH);
    let rows = texels.len().div_ceil(width).max(1);
    let mut padded = texels.to_vec();
    padded.resize(width * rows, [0.0; 4]);
    let size = (width as u32, rows as u32);
    let texture = uploads.float_texture_init(device, "flurry.graph_table", size, &padded);
    texture.create_view(&Default::default())
}
