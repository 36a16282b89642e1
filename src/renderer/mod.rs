//! `ParticleRenderer`: the render node. The host gives its device, queue, encoder and the
//! colour and depth views of its frame; the renderer records its passes into the encoder and
//! never submits them (only a prewarm, asked for between frames, submits its steps through
//! the queue), never blocks and never owns a window.
//!
//! Per frame: compute steps of every effect (emit, simulate with depth collision against
//! the previous frame's depth, cull, sort) → the host depth downsampled to the particle
//! target as distances along the view axis, whatever the host's depth convention (farthest
//! and nearest of each footprint and sample; kept for the next frame's collisions) → particles a
//! few target pixels across splatted by compute and resolved into the low-resolution
//! Rgba16Float target → the larger ones drawn over them as sorted triangles, both
//! depth-tested against it with a soft-particle fade → the target upsampled (nearest-depth
//! or bilinear) and blended onto the host's colour.

mod batched;
mod budget;
mod cache;
mod compile;
mod events;
mod lifecycle;
mod lod;
mod merged;
mod meshes;
mod prewarm;
mod reads;
mod settings;
mod target;
mod traffic;
mod visibility;
mod warm;

pub use prewarm::{MAX_PREWARM, PREWARM_STEPS};

use std::sync::atomic::{AtomicBool, Ordering};

pub use settings::{FrameTargets, Scale, Settings, Targets, Upsample, MAX_SPLAT_RADIUS};

use crate::effect::{EffectDesc, Shape, Velocity};
use crate::error::{Invalid, Result};
use crate::image::Images;
use crate::mesh::{Mesh, MeshId, Meshes};
use crate::passes::splat::Accumulated;
use crate::pipelines::Pipelines;
use crate::pool::PoolSnapshot;
use crate::profiler::{compute_pass_in, render_pass_in, Scopes};
use crate::sprites::Sprites;
use crate::system::{Assets, CompiledEffect, ParticleSystem, Step};
use crate::timer::PassTimer;
use crate::types::{CollisionFrame, CompositeParams, DownsampleParams};
use crate::uniform_pages::{RendererUniforms, UniformPages};
use crate::view::{View, ViewModel};
use batched::Batches;
use merged::Merged;
use target::{HostBinds, LowRes};

/// Most simulate steps a frame ([`ParticleRenderer::set_substeps`]).
pub const MAX_SUBSTEPS: u32 = 64;

/// Names an effect in a [`ParticleRenderer`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EffectId(u64);

/// The passes of a frame, in the order [`ParticleRenderer::encode`] records them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pass {
    /// Spawn this frame's particles (compute).
    Emit,
    /// All-pairs gravity (effects with self-gravity only; compute).
    Gravity,
    /// The neighbour grid built (effects with neighbours only; compute).
    Grid,
    /// Boids steered through the grid (flocks only; compute).
    Flock,
    /// A crowd's map distance field and flow fields, at its first frame (crowds only;
    /// compute).
    Navigation,
    /// Walkers steered by their states, flow fields, walls and neighbours (crowds only;
    /// compute).
    Crowd,
    /// Forces, integration, collision, deaths, GPU events (compute).
    Simulate,
    /// Self-shadowing: the particles' density gathered, the light marched through it
    /// (effects lit with shadows only; compute).
    Shadow,
    /// Frustum culling into the draw and splat lists (compute).
    Cull,
    /// Back-to-front sort of each sorted effect on its own (compute).
    Sort,
    /// Alpha-blended effects' visible particles copied into one list and sorted together
    /// (compute).
    Merge,
    /// The host's depth at the particle target's resolution (compute).
    Downsample,
    /// Mesh particles, lit into the host's colour and depth, and their distances into the
    /// particle target's (effects with mesh particles only).
    Meshes,
    /// Small particles drawn by compute, resolved into the particle target.
    Splat,
    /// Larger particles drawn as triangles into the particle target.
    Draw,
    /// The particle target upsampled onto the host's colour.
    Composite,
}

impl Pass {
    /// Its name in profiles and scopes.
    pub fn name(self) -> &'static str {
        match self {
            Pass::Emit => "emit",
            Pass::Gravity => "gravity",
            Pass::Grid => "grid",
            Pass::Flock => "flock",
            Pass::Navigation => "navigation",
            Pass::Crowd => "crowd",
            Pass::Simulate => "simulate",
            Pass::Shadow => "shadow",
            Pass::Cull => "cull",
            Pass::Sort => "sort",
            Pass::Merge => "merge",
            Pass::Downsample => "downsample",
            Pass::Meshes => "meshes",
            Pass::Splat => "splat",
            Pass::Draw => "draw",
            Pass::Composite => "composite",
        }
    }

    /// The compute step of every effect this pass records, if it is one.
    fn step(self) -> Option<Step> {
        match self {
            Pass::Emit => Some(Step::Emit),
            Pass::Gravity => Some(Step::Gravity),
            Pass::Grid => Some(Step::Grid),
            Pass::Flock => Some(Step::Flock),
            Pass::Navigation => Some(Step::Navigate),
            Pass::Crowd => Some(Step::Crowd),
            Pass::Simulate => Some(Step::Simulate),
            Pass::Shadow => Some(Step::Shadow),
            Pass::Cull => Some(Step::Cull),
            Pass::Sort => Some(Step::Sort),
            _ => None,
        }
    }
}

/// One effect of the renderer.
pub(crate) struct Entry {
    id: EffectId,
    system: ParticleSystem,
}

/// The render node: any number of effects drawn into a host's frame.
///
/// Pipelines are compiled once per renderer, the first time an effect needs them (or ahead:
/// [`ParticleRenderer::warm`], or on a worker thread: [`Settings::background_compile`]), and
/// shared by every effect: adding an effect whose variants exist compiles nothing.
pub struct ParticleRenderer {
    settings: Settings,
    targets: Targets,
    /// Shared with the worker that compiles off the host's thread.
    pipelines: std::sync::Arc<Pipelines>,
    /// That worker, and what the pipelines built serve.
    compiling: compile::Compiling,
    /// The meshes emitters spawn on and mesh particles are: the built-ins and the host's.
    meshes: Meshes,
    /// The host's images, shown along ribbons.
    images: Images,
    /// The image files loaded so far ([`ParticleRenderer::load_images`]), by path.
    #[cfg(feature = "png")]
    image_files: Vec<(std::path::PathBuf, crate::ImageId)>,
    /// What lights mesh particles.
    light: crate::Light,
    /// Every effect, in drawing order.
    entries: Vec<Entry>,
    /// Their frame and emit uniforms, written once a page a frame.
    uniform_pages: UniformPages,
    next_id: u64,
    /// Per-pass GPU timing ([`ParticleRenderer::enable_profiling`]).
    timer: Option<PassTimer>,
    /// Effects drawn together from one list, two or more of a blend: the alpha-blended
    /// sorted ones, then the additive unsorted ones.
    merged: Vec<Merged>,
    /// Where its small pools keep their lists and counters.
    arena: crate::arena::PoolArena,
    /// The small pools relisted together, a dispatch a chunk of the arena.
    batches: Batches,
    /// Effects changed: the merged set and the batches are rebuilt at the next update.
    merge_dirty: bool,
    /// The snowflake array (uploaded at the first update).
    sprites: Sprites,
    /// The collision's, the downsample's and the composite's uniforms, in one buffer.
    uniforms: RendererUniforms,
    /// The view of the previous update: the one the stored depth was seen through.
    prev_view: Option<ViewModel>,
    /// The last update's view has reversed depth (mesh particles test depth by it).
    reversed: bool,
    /// Simulate steps a frame, of every effect ([`ParticleRenderer::set_substeps`]).
    substeps: u32,
    /// Set when a downsample is recorded: the next frame may collide with its depth.
    depth_recorded: AtomicBool,
    /// Whether the last downsample recorded kept the host's distances apart from the drawn
    /// ones (mesh particles were drawn into those): where the next frame's collisions
    /// read them ([`LowRes::collision_bind`]).
    depth_apart: AtomicBool,
    /// Bound where the host has no depth (the shaders do not read it then).
    no_depth: wgpu::TextureView,
    low: Option<LowRes>,
    /// The host frame size given to the last update.
    size: (u32, u32),
    /// The composite's bind group over the frame [`ParticleRenderer::prepare`] was given,
    /// for [`ParticleRenderer::render`].
    composite_bind: Option<wgpu::BindGroup>,
    /// The host's seconds the last update stepped (a catch-up steps at least as much).
    dt: f32,
    /// A frame was recorded since the last update (a second would step the simulation
    /// twice on one update's uniforms).
    recorded: bool,
    /// What a frame writes into buffers its passes read (uniform pages, batches' rows,
    /// instances), copied in by commands in the host's encoder.
    uploads: std::sync::Mutex<crate::uploads::Uploads>,
    /// The host's queue, as the last update was given it: the frame's uploads are written
    /// through it when the frame is recorded.
    queue: Option<wgpu::Queue>,
    /// Effects' counts (is_finished, the budget, counted) and events, read back a frame or
    /// two late, at most once a frame.
    reads: reads::FrameReads,
    /// The most particles alive in all effects together (None: no limit).
    budget: Option<u64>,
}

/// What the shaders bind where the host has no depth (they never read it then): a 1×1
/// depth texture of the host's sample count.
fn no_depth(device: &wgpu::Device, samples: u32) -> wgpu::TextureView {
    // a multisampled texture must be renderable
    let usage = wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::RENDER_ATTACHMENT;
    let format = (wgpu::TextureFormat::Depth32Float, samples);
    crate::gpu::multisampled_2d(device, "flurry.no_depth", (1, 1), format, usage)
        .create_view(&Default::default())
}

/// The error for an effect id this renderer does not hold.
fn unknown(id: EffectId) -> crate::Error {
    Invalid::new("id", format!("{id:?}"), "an effect of this renderer").into()
}

/// The compute steps of a frame, in order: those that move the particles (up to and with
/// simulate: what a prewarm records), then those that light and list them for drawing.
const COMPUTE_STEPS: [Pass; 10] = [
    Pass::Emit,
    Pass::Gravity,
    Pass::Grid,
    Pass::Flock,
    Pass::Navigation,
    Pass::Crowd,
    Pass::Simulate,
    Pass::Shadow,
    Pass::Cull,
    Pass::Sort,
];

/// What depth collision reads: the particle target's depth as the frame seen through
/// `prev` left it, and whether it holds one (`enabled`).
fn collision_frame(prev: &ViewModel, enabled: bool) -> CollisionFrame {
    CollisionFrame {
        // without a previous frame's depth every position projects off screen: the
        // simulate tests no flag (a branch on a uniform lavapipe would compile again at
        // every bind)
        prev_view_proj: match enabled {
            true => prev.view_proj,
            false => glam::Mat4::ZERO,
        },
        prev_inv_view_proj: prev.inverse_view_proj,
        prev_view_depth: prev.view_depth,
        prev_depth: prev.depth.into(),
        prev_viewer: match prev.depth.convention.orthographic {
            true => (-prev.view_depth.truncate()).extend(0.0),
            false => prev.eye.extend(1.0),
        },
        enabled: enabled as u32,
        ..Default::default()
    }
}

impl ParticleRenderer {
    /// A renderer drawing into targets of `targets`' formats. Compiles nothing yet: each
    /// pipeline is built the first time a frame or an effect needs it. Refuses a device
    /// whose limits are below what the passes need (naming each), a colour format particles
    /// cannot be blended into and a depth format without a depth aspect.
    pub fn new(device: &wgpu::Device, targets: Targets, settings: Settings) -> Result<Self> {
        let short = crate::adapter::short_limits(&device.limits());
        if !short.is_empty() {
            return Err(crate::error::Error::DeviceLimits {
                short: short.join(", "),
            });
        }
        targets.check(device)?;
        Ok(ParticleRenderer {
            pipelines: std::sync::Arc::new(Pipelines::new(device, targets)),
            compiling: Default::default(),
            meshes: Meshes::new(device),
            images: Images::new(device),
            #[cfg(feature = "png")]
            image_files: Vec::new(),
            light: crate::Light::default(),
            sprites: Sprites::new(device),
            uniforms: RendererUniforms::new(device),
            prev_view: None,
            reversed: false,
            depth_recorded: AtomicBool::new(false),
            depth_apart: AtomicBool::new(false),
            no_depth: no_depth(device, targets.sample_count),
            settings,
            targets,
            entries: Vec::new(),
            uniform_pages: UniformPages::new(device),
            next_id: 0,
            timer: None,
            merged: Vec::new(),
            arena: Default::default(),
            batches: Batches::default(),
            merge_dirty: false,
            substeps: 1,
            low: None,
            size: (0, 0),
            composite_bind: None,
            dt: 0.0,
            recorded: false,
            uploads: Default::default(),
            queue: None,
            reads: reads::FrameReads::new(device),
            budget: None,
        })
    }

    /// Draw into targets of other formats from now on (an HDR toggle, a window moved to
    /// another monitor): every effect and its pool stay; only the composite is rebuilt.
    pub fn set_targets(&mut self, device: &wgpu::Device, targets: Targets) -> Result<()> {
        targets.check(device)?;
        if targets.sample_count != self.targets.sample_count {
            self.no_depth = no_depth(device, targets.sample_count);
        }
        let own_depth = |t: Targets| (t.depth_format.is_none(), t.sample_count);
        if own_depth(targets) != own_depth(self.targets) {
            // the mesh particles' full-size depth buffer changes: the low-resolution
            // target is made anew at the next update, its depth with no frame behind it
            self.low = None;
            self.depth_recorded.store(false, Ordering::Relaxed);
        }
        self.targets = targets;
        // (the worker holds the pipelines while it builds: waited for, its report taken at
        // the next update)
        self.wait_for_worker();
        std::sync::Arc::get_mut(&mut self.pipelines)
            .expect("no worker holds the pipelines once waited for")
            .set_targets(targets);
        // (the composite and the mesh draws are built anew for them: nothing is covered)
        self.forget_covered();
        self.composite_bind = None;
        if let Some(low) = &self.low {
            // over the composite and downsample pipelines of the targets before
            *low.host_binds.lock().expect("not poisoned") = None;
        }
        Ok(())
    }

    /// The formats the renderer draws into.
    pub fn targets(&self) -> Targets {
        self.targets
    }

    /// The shared pipelines (for tests of what is compiled when).
    #[cfg(test)]
    pub(crate) fn pipelines(&self) -> &Pipelines {
        &self.pipelines
    }

    /// The most particles one effect's pool may hold on `device` (its buffer limits).
    pub fn max_capacity(device: &wgpu::Device) -> u32 {
        crate::pool::max_capacity(&device.limits()).0 as u32
    }

    /// `requested` as a pool size `device` allows (1 up to
    /// [`ParticleRenderer::max_capacity`]), else an error naming `field`, the value, the
    /// limit that binds and the range allowed. [`ParticleRenderer::add_effect`] checks its
    /// capacity so; a host can check its own input (a flag, a setting) the same way first.
    pub fn check_capacity(device: &wgpu::Device, field: &str, requested: u64) -> Result<u32> {
        crate::pool::check_capacity(device, field, requested)
    }

    /// Add an effect with a pool of `capacity` particles (1 up to
    /// [`ParticleRenderer::max_capacity`]) and a random `seed`. Effects are drawn in the
    /// order they were added. The effect is validated and compiled first
    /// ([`ParticleRenderer::compile`]): a bad one is an error naming every field out of
    /// range, or the line that does not compile. To add one effect many times, compile it
    /// once and add that ([`ParticleRenderer::add_compiled`]).
    pub fn add_effect(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        desc: &EffectDesc,
        capacity: u32,
        seed: u32,
    ) -> Result<EffectId> {
        let effect = self.compile(desc)?;
        self.add_compiled(device, queue, &effect, capacity, seed)
    }

    /// Validate `desc` and compile its stacks, once: what
    /// [`ParticleRenderer::add_compiled`] adds, any number of times, compiling nothing
    /// again (its copies share it, and the CPU work of their frames is less). The errors
    /// are [`EffectDesc::validate`]'s. Its pipelines are not built here
    /// ([`ParticleRenderer::warm`] builds them ahead), and the images and meshes it names
    /// need not be loaded until it is added.
    pub fn compile(&self, desc: &EffectDesc) -> Result<CompiledEffect> {
        CompiledEffect::new(desc)
    }

    /// Add `effect` (made by [`ParticleRenderer::compile`]) with a pool of `capacity`
    /// particles and a random `seed`, as [`ParticleRenderer::add_effect`] adds a
    /// description, without compiling it again. The images and meshes it names must be
    /// loaded.
    pub fn add_compiled(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        effect: &CompiledEffect,
        capacity: u32,
        seed: u32,
    ) -> Result<EffectId> {
        // the frames its particles show, in the images' array (a new effect that shows
        // none leaves it as it is)
        let desc = effect.desc();
        self.images.check(desc)?;
        self.images.place_sprites((device, queue), desc)?;
        let assets = Assets {
            meshes: &self.meshes,
            images: &self.images,
            arena: Some(&self.arena),
            uploads: &self.uploads,
        };
        let p = &self.pipelines;
        let slot = self.uniform_pages.slot(device);
        let sized = (capacity, seed);
        let made = match self.settings.background_compile {
            false => ParticleSystem::new(device, queue, p, assets, effect, sized, slot.clone()),
            true => ParticleSystem::unbound(device, assets, effect, sized, slot.clone()),
        };
        let mut system = made.inspect_err(|_| self.uniform_pages.release(&slot))?;
        if !system.is_bound() {
            // its kind built already (warmed, or an earlier effect's): it starts at once;
            // else the worker builds for it
            if self.covers(&system.kind()) {
                let bound = system.bind((device, queue), &self.pipelines, assets);
                bound.inspect_err(|_| self.uniform_pages.release(&slot))?;
            }
        }
        system.set_substeps(self.substeps);
        let id = EffectId(self.next_id);
        self.next_id += 1;
        let waits = !system.is_bound();
        self.entries.push(Entry { id, system });
        self.merge_dirty = true;
        if waits {
            self.compiling.waiting = true;
            self.start_worker();
        }
        Ok(id)
    }

    /// Remove an effect and free its buffers; false if `id` is not (or no longer) here.
    pub fn remove_effect(&mut self, id: EffectId) -> bool {
        let Some(at) = self.entries.iter().position(|e| e.id == id) else {
            return false;
        };
        let gone = self.entries.remove(at);
        self.uniform_pages.release(gone.system.uniform_slot());
        // the merged set and the batches name entries by position: until the next update
        // rebuilds them, every effect sorts, draws, simulates and relists on its own
        self.merged.clear();
        self.batches = Batches::default();
        for e in &mut self.entries {
            e.system.set_merged(false);
            e.system.set_batched(Default::default());
        }
        self.uniform_pages.emit_everywhere();
        self.merge_dirty = true;
        true
    }

    /// Which of the effect `id`'s passes are recorded in a batch this frame (for the batch
    /// tests).
    #[cfg(test)]
    pub(crate) fn batched(&self, id: EffectId) -> crate::system::Batched {
        self.system(id)
            .map(ParticleSystem::batched)
            .unwrap_or_default()
    }

    /// Whether the effect `id` is culled into a merged list in a batch this frame
    /// (for the batch tests).
    #[cfg(test)]
    pub(crate) fn culled_in_batch(&self, id: EffectId) -> bool {
        let i = self.entries.iter().position(|e| e.id == id);
        i.is_some_and(|i| self.merged.iter().any(|m| m.culled_in_batch(i)))
    }

    fn system(&self, id: EffectId) -> Option<&ParticleSystem> {
        self.entries.iter().find(|e| e.id == id).map(|e| &e.system)
    }

    /// Every effect, in drawing order.
    pub fn effects(&self) -> impl Iterator<Item = EffectId> + '_ {
        self.entries.iter().map(|e| e.id)
    }

    /// The effect `id` as it is now (its emitters moved by
    /// [`ParticleRenderer::set_emitter`]).
    pub fn effect(&self, id: EffectId) -> Option<&EffectDesc> {
        self.system(id).map(ParticleSystem::desc)
    }

    /// Seconds effect `id` has simulated.
    pub fn time(&self, id: EffectId) -> Option<f64> {
        self.system(id).map(ParticleSystem::time)
    }

    /// Move or re-aim emitter `index` of effect `id` (its shape, velocity and rate, e.g. a
    /// gun that follows the camera) from the next update on; a rate of 0 stops it. The
    /// effect so changed is validated like a new one: an unknown effect or emitter, or a
    /// value out of range, is an error naming it, and changes nothing.
    pub fn set_emitter(
        &mut self,
        id: EffectId,
        index: usize,
        shape: Shape,
        velocity: Velocity,
        rate: f32,
    ) -> Result<()> {
        let meshes = self.meshes.set();
        let system = match self.entries.iter_mut().find(|e| e.id == id) {
            Some(e) => &mut e.system,
            None => return Err(unknown(id)),
        };
        system.set_emitter(index, (shape, velocity, rate), meshes)
    }

    /// Light mesh particles by `light` from the next update on (the default: white light
    /// from above, a quarter of it ambient). Refuses a zero or non-finite direction and
    /// colours outside 0..=1000, naming the field.
    pub fn set_light(&mut self, light: crate::Light) -> Result<()> {
        light.check()?;
        self.light = light;
        Ok(())
    }

    /// The light mesh particles are lit by.
    pub fn light(&self) -> crate::Light {
        self.light
    }

    /// Add a triangle mesh that emitters can spawn on (`Shape::Mesh` with
    /// `MeshSource::Host(id)`, the id returned; in an effect file `Host(0)` is the first
    /// mesh added). Meshes stay for the renderer's life. Refuses a mesh past what one
    /// storage binding holds.
    pub fn add_mesh(&mut self, device: &wgpu::Device, mesh: Mesh) -> Result<MeshId> {
        let id = self.meshes.add(device, mesh)?;
        for e in &mut self.entries {
            e.system
                .rebind_meshes(device, &self.pipelines, &self.meshes);
        }
        // the batched emits bind the meshes' triangles too
        self.merge_dirty = true;
        Ok(id)
    }

    /// Add an image that particles can show ([`Sprite::Image`](crate::effect::Sprite::Image):
    /// a still image or a flipbook's frames) and ribbons along their length
    /// ([`RibbonTexture`](crate::effect::RibbonTexture)), naming the id returned; in an
    /// effect file `image: 0` is the first image added. Images stay for the renderer's
    /// life; effects added after it can show it. The frames particles show are cut and
    /// resampled to 256 × 256 texels each, with their mip levels, when an effect first
    /// shows them. Refuses a side past the device's 2D texture limit.
    pub fn add_image(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        image: &crate::Image,
    ) -> Result<crate::ImageId> {
        self.images.add(device, queue, image)
    }

    /// Load the image files `desc` names by path (PNG; relative to `folder`, the folder of
    /// the effect file it was read from), add each to this renderer (once per file, however
    /// many effects name it) and name them in `desc` by their ids, so that `desc` can be
    /// added. The one call an effect file's images need:
    ///
    /// ```no_run
    /// # fn f(r: &mut flurry::ParticleRenderer, device: &wgpu::Device, queue: &wgpu::Queue)
    /// # -> flurry::Result<()> {
    /// let path = std::path::Path::new("effects/campfire.ron");
    /// let mut fire = flurry::EffectDesc::from_file(path)?;
    /// r.load_images(device, queue, &mut fire, path.parent().unwrap())?;
    /// let id = r.add_effect(device, queue, &fire, 65_536, 1)?;
    /// # Ok(()) }
    /// ```
    ///
    /// Needs the `png` feature. Refuses a file that cannot be read or decoded, naming it.
    #[cfg(feature = "png")]
    pub fn load_images(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        desc: &mut EffectDesc,
        folder: &std::path::Path,
    ) -> Result<()> {
        desc.resolve_images(folder, |file| {
            let key = file.canonicalize().unwrap_or_else(|_| file.to_path_buf());
            if let Some(&(_, id)) = self.image_files.iter().find(|(f, _)| *f == key) {
                return Ok(id);
            }
            let id = self.images.add(device, queue, &crate::Image::open(file)?)?;
            self.image_files.push((key, id));
            Ok(id)
        })
    }

    /// Place effect `id` in the world (its emitters' shapes and velocities are in its own
    /// space; the identity until set), from the next update on. Set it every frame to move
    /// the effect with a host's object: each frame's spawns are born spread along the way
    /// from the last update's transform to this one (particle k of n at (k + ½) / n of it),
    /// so a fast emitter leaves a line, not clumps. Refuses an unknown effect and a matrix
    /// that is not finite or cannot be inverted.
    pub fn set_transform(&mut self, id: EffectId, transform: glam::Mat4) -> Result<()> {
        self.system_mut(id)?.set_transform(None, transform)
    }

    /// Place effect `id` many times, at each [`crate::Instance`] of `instances`, from the
    /// next update on (empty: once again, at its own transform): each instance spawns what
    /// the effect alone would, carried by its transform, into the effect's one pool (give
    /// it the capacity of them all; each has an equal share), and the pool runs through one
    /// chain of dispatches whatever their number. An instance whose bounds lie outside the
    /// view has none of its particles drawn. Set the list every frame to move instances:
    /// each frame's spawns are spread along the way from the last update's transform, as
    /// [`ParticleRenderer::set_transform`]'s are. Refuses an unknown effect, one with
    /// ribbons or a crowd, more instances than the pool's capacity, a transform that is not
    /// finite or cannot be inverted and a radius below 0, naming the instance.
    pub fn set_instances(
        &mut self,
        device: &wgpu::Device,
        id: EffectId,
        instances: &[crate::Instance],
    ) -> Result<()> {
        let (p, meshes) = (&self.pipelines, &self.meshes);
        let Some(e) = self.entries.iter_mut().find(|e| e.id == id) else {
            return Err(unknown(id));
        };
        // a member's cull into the merged list binds its instances, and one placed as
        // instances is culled and emits alone: the set and the batches are made again
        let instanced = e.system.cull_variant().instanced;
        let moved = e.system.set_instances(device, p, instances, meshes)?;
        if moved || e.system.cull_variant().instanced != instanced {
            self.merge_dirty = true;
        }
        Ok(())
    }

    /// Set parameter `name` of effect `id` (declared in its `parameters`) to `value` from
    /// the next update on. It costs a write into the effect's staged uniforms: nothing is
    /// compiled or validated again, so a game may set it every frame. An unknown effect or
    /// parameter, or a value of another type or outside the parameter's range, is an error
    /// naming it and what it takes, and changes nothing.
    ///
    /// ```no_run
    /// # fn f(r: &mut flurry::ParticleRenderer, fire: flurry::EffectId) -> flurry::Result<()> {
    /// use flurry::expr::Value;
    /// r.set_parameter(fire, "intensity", Value::F32(2.5))?;
    /// r.set_parameter(fire, "tint", flurry::glam::vec3(1.0, 0.4, 0.1).into())?;
    /// # Ok(()) }
    /// ```
    pub fn set_parameter(
        &mut self,
        id: EffectId,
        name: &str,
        value: crate::expr::Value,
    ) -> Result<()> {
        self.system_mut(id)?.set_parameter(name, value)
    }

    /// The value of parameter `name` of effect `id` now (None: no such effect or
    /// parameter).
    pub fn parameter(&self, id: EffectId, name: &str) -> Option<crate::expr::Value> {
        self.system(id)?.parameter(name)
    }

    /// Place emitter `index` of effect `id` within the effect (after the effect's own
    /// transform), from the next update on, as [`ParticleRenderer::set_transform`] does.
    pub fn set_emitter_transform(
        &mut self,
        id: EffectId,
        index: usize,
        transform: glam::Mat4,
    ) -> Result<()> {
        self.system_mut(id)?.set_transform(Some(index), transform)
    }

    fn system_mut(&mut self, id: EffectId) -> Result<&mut ParticleSystem> {
        match self.entries.iter_mut().find(|e| e.id == id) {
            Some(e) => Ok(&mut e.system),
            None => Err(unknown(id)),
        }
    }

    /// Read effect `id`'s pool back: its particles, lists, counters and totals. Blocks
    /// until the GPU is done: for tests, statistics and tools, never the frame loop.
    pub fn snapshot(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        id: EffectId,
    ) -> Result<PoolSnapshot> {
        // (an effect added, or cleared, since the last frame starts as that frame would
        // have started it)
        let mut uploads = self.uploads.lock().expect("not poisoned");
        uploads.write_init(queue);
        drop(uploads);
        match self.system(id) {
            Some(s) => s.snapshot(device, queue),
            None => {
                let allowed = "an effect of this renderer";
                Err(crate::error::Invalid::new("id", format!("{id:?}"), allowed).into())
            }
        }
    }

    /// Simulate every effect, and those added later, in `substeps` steps of dt / substeps
    /// per frame (1 by default): orbits and collisions stay accurate at a frame rate the
    /// effect cannot. Refused outside 1..=[`MAX_SUBSTEPS`] (each step is a chain of
    /// dispatches an effect).
    pub fn set_substeps(&mut self, substeps: u32) -> Result<()> {
        if !(1..=MAX_SUBSTEPS).contains(&substeps) {
            let allowed = format!("1..={MAX_SUBSTEPS}");
            return Err(Invalid::new("substeps", substeps, allowed).into());
        }
        self.substeps = substeps;
        for e in &mut self.entries {
            e.system.set_substeps(substeps);
        }
        // a pool simulated in more than one step is counted: it leaves its batch, which
        // is rebuilt at the next update (until then every pool simulates and relists itself)
        self.batches = Batches::default();
        for e in &mut self.entries {
            e.system.set_batched(Default::default());
        }
        self.uniform_pages.emit_everywhere();
        self.merge_dirty = true;
        Ok(())
    }

    /// The settings in use.
    pub fn settings(&self) -> Settings {
        self.settings
    }

    /// New settings take effect at the next [`ParticleRenderer::update`].
    pub fn set_settings(&mut self, settings: Settings) {
        let splats = |s: &Settings| s.splat_radius() > 0.0;
        if settings.scale != self.settings.scale || splats(&settings) != splats(&self.settings) {
            self.low = None; // reallocated (with or without accumulators) at the next update
        }
        self.settings = settings;
    }

    /// The accumulators this frame's splats add to (the union of their blends): what the
    /// resolve reads.
    fn accumulated(&self) -> Accumulated {
        let mut accumulated = Accumulated::default();
        for m in &self.merged {
            accumulated.add(m.splat_blend());
        }
        for e in self.entries.iter().filter(|e| e.system.splats_alone()) {
            accumulated.add(e.system.splat_variant().blend);
        }
        accumulated
    }

    /// Whether frames record nothing: compiling off the host's thread, no effect is ready
    /// yet (a frame without particles leaves the host's image as it is; its passes'
    /// pipelines are the worker's to build, not the host's thread's).
    fn draws_nothing(&self) -> bool {
        self.settings.background_compile && !self.entries.iter().any(|e| e.system.is_bound())
    }

    /// Whether the particle target has the host's size, composited texel for pixel.
    fn composites_same_size(&self) -> bool {
        self.settings.scale == Scale::Full
    }

    /// Whether the composite upsamples by nearest depth (else bilinearly).
    fn composites_by_nearest_depth(&self) -> bool {
        self.settings.upsample == Upsample::NearestDepth
    }

    /// Size of the particle target for a host of `size`.
    pub fn target_size(&self, (w, h): (u32, u32)) -> (u32, u32) {
        let f = self.settings.scale.factor();
        (w.div_ceil(f).max(1), h.div_ceil(f).max(1))
    }

    /// Advance every effect by `dt` seconds seen through `view` (the host's view and
    /// projection, or a [`crate::Camera`]), and size the particle target for a host frame
    /// of `size` pixels (reallocated only when the size changes).
    ///
    /// Each update writes this frame's uniforms (view, spawn request); follow it with one
    /// [`ParticleRenderer::encode`] (or [`ParticleRenderer::prepare`] and
    /// [`ParticleRenderer::render`]) that the host submits: a second is refused, as it would
    /// simulate the same step again. An update whose frame is never recorded loses nothing:
    /// its spawns wait for the next recorded frame. Refuses a `dt` that is negative or not
    /// finite, a size of 0 or past the device's `max_texture_dimension_2d`, and a view flurry
    /// cannot use ([`View::convention`] says why).
    pub fn update(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        dt: f32,
        view: impl Into<View>,
        size: (u32, u32),
    ) -> Result<()> {
        if !(dt.is_finite() && dt >= 0.0) {
            return Err(Invalid::new("dt", dt, "a finite number of seconds >= 0").into());
        }
        let max = device.limits().max_texture_dimension_2d;
        if !(1..=max).contains(&size.0) || !(1..=max).contains(&size.1) {
            let allowed = format!("1..={max} pixels in each dimension on this device");
            return Err(Invalid::new("size", format!("{}x{}", size.0, size.1), allowed).into());
        }
        let view = view.into().model()?;
        self.size = size;
        if self.queue.as_ref() != Some(queue) {
            self.queue = Some(queue.clone());
        }
        // effects whose pipelines the worker built start now
        self.take_compiled(device, queue);
        // (one seen again after seconds missed out of view runs them in the frame recorded
        // next)
        self.look(&view, dt);
        self.recorded = false;
        if let Some(timer) = &mut self.timer {
            timer.collect();
        }
        // what the frames submitted since the last update copied back: their maps asked
        // for, the device polled once (never waited for), what has landed taken
        self.reads.map_recorded();
        let _ = device.poll(wgpu::PollType::Poll);
        self.collect_reads();
        // (the snowflakes, drawn off the host's thread, wait for nothing while no effect is
        // ready to be drawn)
        let due = self.entries.iter().any(|e| e.system.is_bound());
        self.sprites.upload(queue, due);
        if self.merge_dirty {
            let shared = (&*self.pipelines, &self.images);
            for e in &mut self.entries {
                e.system.set_merged(false);
            }
            // the sorted list, then the unsorted one (drawn in that order)
            self.merged = [true, false]
                .into_iter()
                .filter_map(|sorted| {
                    let uploads = self.uploads.get_mut().expect("not poisoned");
                    Merged::new((device, uploads), shared, &mut self.entries, sorted)
                })
                .collect();
            let surface = self.meshes.surface();
            let uploads = self.uploads.get_mut().expect("not poisoned");
            let p = &self.pipelines;
            self.batches = Batches::new((device, uploads), p, &mut self.entries, surface);
            self.merge_dirty = false;
        }
        // (made again for a new size, and for a larger images' array: its bind groups hold
        // the array's view)
        let generation = self.images.layers.generation();
        let fresh = self
            .low
            .as_ref()
            .is_none_or(|l| l.host != size || l.images != generation);
        if fresh {
            let low_size = (size, self.target_size(size));
            let splat = self.settings.splat_radius() > 0.0;
            let own_depth = self.targets.depth_format.is_none();
            let host_mesh_depth = own_depth.then_some(self.targets.sample_count);
            let p = &self.pipelines;
            let arrays = (&self.sprites, &self.images.layers.view);
            let options = (splat, host_mesh_depth);
            let mut low = LowRes::new(
                device,
                p,
                low_size,
                arrays,
                &self.uniforms.collision,
                options,
            );
            low.images = generation;
            self.low = Some(low);
        }
        let low = self.low.as_ref().expect("allocated above");
        let pixel_scale = view.pixels_per_unit * 0.5 * low.size.1 as f32;
        let target_per_host = low.size.1 as f32 / size.1 as f32;
        let splat_radius = match low.splat {
            Some(_) => self.settings.splat_radius(),
            None => 0.0,
        };
        self.apply_budget(dt, &view);
        for i in 0..self.entries.len() {
            // (the next effect's state on its way meanwhile: crate::prefetch)
            if let Some(next) = self.entries.get(i + 1) {
                next.system.prefetch(&self.uniform_pages);
            }
            let e = &mut self.entries[i];
            e.system
                .set_splat(pixel_scale, splat_radius, target_per_host);
            e.system.set_light(self.light);
            // (one still compiling waits at its start: its clock too)
            if e.system.is_bound() {
                let pages = &mut self.uniform_pages;
                e.system.update(pages, dt, &view, self.meshes.set());
            }
        }
        // (the pages and the batches' rows are copied in at the frame's start)
        self.batches.plan_frame(&self.entries);
        let has_depth = self.targets.depth_format.is_some();
        // the particle target's depth still holds the previous frame's, unless it was just
        // (re)allocated or no downsample was recorded since
        let recorded = self.depth_recorded.swap(false, Ordering::Relaxed);
        let stored = recorded && !fresh && has_depth;
        self.reversed = view.depth.convention.reversed;
        let prev = self.prev_view.replace(view).unwrap_or(view);
        let collision = collision_frame(&prev, stored);
        let downsample = DownsampleParams {
            depth: view.depth.into(),
        };
        let composite = CompositeParams {
            depth: view.depth.into(),
            threshold: self.settings.edge_threshold,
            width: size.0,
            height: size.1,
            ..Default::default()
        };
        (self.uniforms).write((&collision, &downsample, &composite));
        Ok(())
    }

    /// The passes [`ParticleRenderer::encode`] records, in order.
    pub fn passes(&self) -> Vec<Pass> {
        if self.draws_nothing() {
            return vec![];
        }
        let steps = COMPUTE_STEPS;
        let recorded = |pass: &Pass| {
            let step = pass.step().expect("a compute step");
            // (the emit pass copies the frame's uploads in first: it is there whenever the
            // frame is drawn, every effect paused or none added)
            let copies = step == Step::Emit;
            copies || self.entries.iter().any(|e| e.system.records(step))
        };
        let mut passes: Vec<Pass> = steps.into_iter().filter(recorded).collect();
        if !self.merged.is_empty() {
            passes.push(Pass::Merge);
        }
        passes.push(Pass::Downsample);
        if self.has_meshes() {
            passes.push(Pass::Meshes);
        }
        if self.low.as_ref().is_some_and(|l| l.splat.is_some()) {
            passes.push(Pass::Splat);
        }
        passes.extend([Pass::Draw, Pass::Composite]);
        passes
    }

    /// Record the whole frame (after [`ParticleRenderer::update`]) into the host's
    /// `encoder`, the particles composited onto `frame` in a pass of flurry's own; the host
    /// submits it. [`ParticleRenderer::prepare`] and [`ParticleRenderer::render`] do the same
    /// in two steps, compositing inside a pass of the host's. With profiling enabled
    /// ([`ParticleRenderer::enable_profiling`]) every pass is timed.
    pub fn encode(
        &mut self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        frame: &FrameTargets,
    ) -> Result<()> {
        self.record_frame(device, encoder, frame, true)
    }

    /// One recorded frame per update: a second would simulate the same step again.
    fn check_once(&mut self) -> Result<()> {
        if std::mem::replace(&mut self.recorded, true) {
            let allowed = "one encode or prepare per update (update first)";
            return Err(Invalid::new("frame", "a second frame for one update", allowed).into());
        }
        Ok(())
    }

    /// The frame's passes, timed when profiling, with the composite in a pass of flurry's
    /// own (`encode`) or left to the host's pass (`prepare`).
    fn record_frame(
        &mut self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        frame: &FrameTargets,
        composite: bool,
    ) -> Result<()> {
        self.check_frame(frame)?;
        self.check_once()?;
        self.record_catch_ups(device, encoder);
        let scopes = self.begin_timing();
        self.prepare_in(device, encoder, frame, scopes);
        if composite && !self.draws_nothing() {
            self.encode_pass_in(device, encoder, frame, Pass::Composite, scopes);
        }
        self.end_timing(encoder);
        Ok(())
    }

    /// Record everything up to the particle target into the host's `encoder`, after the
    /// host drew its scene into `frame` (colour and depth): the compute steps, the host's
    /// depth downsampled, the particles splatted and drawn at low resolution. Then, in a
    /// render pass of the host's, [`ParticleRenderer::render`] composites them. With
    /// profiling enabled these passes are timed (the composite, inside the host's pass, is
    /// not).
    pub fn prepare(
        &mut self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        frame: &FrameTargets,
    ) -> Result<()> {
        self.record_frame(device, encoder, frame, false)?;
        self.composite_bind = match self.draws_nothing() {
            true => None,
            false => self.composite_bind(device, frame),
        };
        Ok(())
    }

    /// The scopes of a frame's passes: timed by the renderer's timer when profiling.
    fn begin_timing(&self) -> Scopes<'_> {
        match &self.timer {
            Some(timer) => {
                timer.begin_frame();
                Scopes::Timer(timer)
            }
            None => Scopes::None,
        }
    }

    /// The frame's timestamps resolved and copied for reading back.
    fn end_timing(&mut self, encoder: &mut wgpu::CommandEncoder) {
        if let Some(timer) = &mut self.timer {
            timer.end_frame(encoder);
        }
    }

    /// Every pass of the frame but the composite, each in its scope of `scopes`.
    fn prepare_in(
        &self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        frame: &FrameTargets,
        scopes: Scopes<'_>,
    ) {
        for pass in self.passes() {
            if pass != Pass::Composite {
                self.encode_pass_in(device, encoder, frame, pass, scopes);
            }
        }
    }

    /// Composite the particles [`ParticleRenderer::prepare`] drew onto the host's image,
    /// inside the host's own render pass (the host may draw more after them, a UI). That
    /// pass must have the host's colour view (of [`Targets::sample_count`] samples; it may
    /// resolve it) as its one colour attachment and, when [`Targets::depth_format`] is set,
    /// the host's depth view as a read-only depth attachment (`depth_ops: None`), or none
    /// where [`Targets::depth_in_pass`] says so: the composite reads the depth as a
    /// texture, tests nothing and writes nothing. Draws nothing before the first
    /// `prepare`.
    pub fn render(&self, pass: &mut wgpu::RenderPass<'_>) {
        if let Some(bind) = &self.composite_bind {
            let variant = (
                self.composites_same_size(),
                self.composites_by_nearest_depth(),
            );
            self.pipelines.composite().record(pass, bind, variant);
        }
    }

    /// Record one pass of the frame (profilers submit them one at a time to time each), in
    /// the order of [`ParticleRenderer::passes`]: the emit pass, first, copies in the
    /// uniforms the update staged (and runs the seconds an effect seen again missed out of
    /// view, as [`ParticleRenderer::encode`] does first).
    pub fn encode_pass(
        &mut self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        frame: &FrameTargets,
        pass: Pass,
    ) -> Result<()> {
        self.check_frame(frame)?;
        if pass == Pass::Emit {
            self.record_catch_ups(device, encoder);
        }
        self.encode_pass_in(device, encoder, frame, pass, Scopes::None);
        Ok(())
    }

    /// A host frame the renderer can draw into: the formats and sample count of
    /// [`Targets`], the size of the last update, the usages flurry needs.
    fn check_frame(&self, frame: &FrameTargets) -> Result<()> {
        let color = frame.color.texture();
        let (w, h) = self.size;
        let expected = (self.targets.color_format, w, h);
        let got = (color.format(), color.width(), color.height());
        if got != expected {
            let value = format!("{:?} {}x{}", got.0, got.1, got.2);
            let allowed = format!(
                "{:?} {w}x{h} (Targets and the size given to update)",
                expected.0
            );
            return Err(Invalid::new("frame.color", value, allowed).into());
        }
        let samples = self.targets.sample_count;
        let textures = std::iter::once(("frame.color", color))
            .chain(frame.depth.map(|d| ("frame.depth", d.texture())));
        for (field, texture) in textures {
            if texture.sample_count() != samples {
                let allowed = format!("{samples} (Targets::sample_count)");
                let value = format!("{} samples", texture.sample_count());
                return Err(Invalid::new(field, value, allowed).into());
            }
        }
        if let Some(resolve) = frame.resolve.map(|r| r.texture()) {
            let got = (resolve.format(), resolve.width(), resolve.height());
            let single = resolve.sample_count() == 1 && samples > 1;
            let attachable = resolve
                .usage()
                .contains(wgpu::TextureUsages::RENDER_ATTACHMENT);
            if got != expected || !single || !attachable {
                let value = format!(
                    "{:?} {}x{}, {} samples, {:?}",
                    got.0,
                    got.1,
                    got.2,
                    resolve.sample_count(),
                    resolve.usage()
                );
                let allowed = format!(
                    "{:?} {w}x{h}, 1 sample, RENDER_ATTACHMENT, and a multisampled colour",
                    expected.0
                );
                return Err(Invalid::new("frame.resolve", value, allowed).into());
            }
        }
        if !color
            .usage()
            .contains(wgpu::TextureUsages::RENDER_ATTACHMENT)
        {
            let usage = format!("{:?}", color.usage());
            return Err(Invalid::new("frame.color", usage, "RENDER_ATTACHMENT usage").into());
        }
        match (self.targets.depth_format, frame.depth.map(|d| d.texture())) {
            (None, None) => Ok(()),
            (Some(format), Some(depth)) => {
                let needed =
                    wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING;
                if depth.format() != format || !depth.usage().contains(needed) {
                    let value = format!("{:?} {:?}", depth.format(), depth.usage());
                    let allowed =
                        format!("{format:?} with RENDER_ATTACHMENT and TEXTURE_BINDING usage");
                    return Err(Invalid::new("frame.depth", value, allowed).into());
                }
                if (depth.width(), depth.height()) != (w, h) {
                    let value = format!("{}x{}", depth.width(), depth.height());
                    return Err(Invalid::new(
                        "frame.depth",
                        value,
                        format!("{w}x{h}, as the colour"),
                    )
                    .into());
                }
                Ok(())
            }
            (want, _) => {
                let value = if frame.depth.is_some() {
                    "a view"
                } else {
                    "none"
                };
                let allowed = match want {
                    Some(f) => format!("a {f:?} view, as Targets::depth_format says"),
                    None => "none, as Targets::depth_format says".to_string(),
                };
                Err(Invalid::new("frame.depth", value, allowed).into())
            }
        }
    }

    /// The downsample's and the composite's bind groups over `frame`'s depth: made the
    /// first time a depth view is seen, kept while the host draws into it (None before the
    /// first update).
    fn host_binds(&self, device: &wgpu::Device, frame: &FrameTargets) -> Option<HostBinds> {
        let low = self.low.as_ref()?;
        let host_depth = frame.depth.unwrap_or(&self.no_depth);
        let mut cache = low.host_binds.lock().expect("not poisoned");
        if let Some(binds) = cache.as_ref().filter(|b| &b.depth == host_depth) {
            return Some(binds.clone());
        }
        let targets = (&low.depth, &low.drawn);
        let downsample_buf = &self.uniforms.downsample;
        let downsample = self.pipelines.downsample();
        let binds = HostBinds {
            depth: host_depth.clone(),
            downsample: downsample.bind(device, host_depth, targets, downsample_buf),
            composite: self.pipelines.composite().bind(
                device,
                &low.color,
                &low.drawn,
                host_depth,
                &self.uniforms.composite,
            ),
        };
        *cache = Some(binds.clone());
        Some(binds)
    }

    /// The composite's bind group over `frame` (None before the first update).
    fn composite_bind(
        &self,
        device: &wgpu::Device,
        frame: &FrameTargets,
    ) -> Option<wgpu::BindGroup> {
        self.host_binds(device, frame).map(|b| b.composite)
    }

    fn encode_pass_in(
        &self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        frame: &FrameTargets,
        pass: Pass,
        profiler: Scopes<'_>,
    ) {
        let Some(low) = &self.low else {
            return; // update() has not run: nothing to draw into
        };
        let p = &self.pipelines;
        if pass == Pass::Emit {
            // the effects' uniforms as their updates staged them, the batches' rows of
            // them, the instances emit and cull read and the renderer's own uniforms,
            // copied in before the frame's first pass (a frame updated and never recorded
            // leaves nothing behind but what its next recorded frame copies)
            let mut uploads = self.uploads.lock().expect("not poisoned");
            self.uniforms.flush(&mut uploads);
            self.uniform_pages.flush(&mut uploads);
            let pages = &self.uniform_pages;
            self.batches.write_frame(&mut uploads, &self.entries, pages);
            for e in &self.entries {
                e.system.copy_instances(&mut uploads);
            }
            if let Some(queue) = &self.queue {
                uploads.record((device, queue), encoder);
            }
        }
        if let Some(step) = pass.step() {
            // the merged lists' members are culled into them, which start empty
            let merged: &[Merged] = if step == Step::Cull {
                &self.merged
            } else {
                &[]
            };
            for m in merged {
                m.reset(encoder);
            }
            compute_pass_in(encoder, profiler, pass.name(), |c| {
                for e in self.entries.iter().filter(|e| e.system.records(step)) {
                    let collision = low.collision_bind(self.depth_apart.load(Ordering::Relaxed));
                    e.system.record_step(p, step, c, collision);
                }
                match step {
                    Step::Emit => self.batches.record_emit(p, c),
                    Step::Simulate => self.batches.record(p, c),
                    _ => {}
                }
                for m in merged {
                    m.record_cull(p, c, &self.entries);
                }
            });
            // the frame's particles are all counted and its events all reported: what is
            // wanted of them goes back
            if step == Step::Cull {
                let budget = self.budget.is_some();
                self.reads.record(encoder, &self.entries, budget);
            }
            return;
        }
        match pass {
            Pass::Merge => {
                if !self.merged.is_empty() {
                    compute_pass_in(encoder, profiler, "merge", |c| {
                        for m in &self.merged {
                            m.record(p, c);
                        }
                    });
                }
            }
            Pass::Downsample => {
                self.depth_recorded.store(true, Ordering::Relaxed);
                let Some(binds) = self.host_binds(device, frame) else {
                    return;
                };
                let scale = self.settings.scale;
                // (the host's distances apart only where mesh particles are drawn into the
                // drawn ones this frame)
                let apart = self.has_meshes();
                self.depth_apart.store(apart, Ordering::Relaxed);
                compute_pass_in(encoder, profiler, "downsample", |c| {
                    p.downsample()
                        .record(c, &binds.downsample, (low.size, scale, apart))
                });
            }
            Pass::Splat => {
                let Some(target) = &low.splat else {
                    return;
                };
                let splat = p.splat();
                // the target cleared: the resolve writes only the texels the splats touched
                // (a cloud of 65,536 particles in a tenth of a 960 × 540 target: the resolve
                // of every texel took 2.3 ms of its splat on lavapipe; cleared and resolved
                // where touched, its splat took 1.8 ms less)
                let clear = wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT);
                let attachments = [Some(color_attachment(&low.color, clear))];
                let desc = pass_desc("splat clear", &attachments);
                render_pass_in(encoder, profiler, desc, "splat clear", |_| {});
                compute_pass_in(encoder, profiler, "splat", |c| {
                    // the merged lists' members splat from them
                    for m in &self.merged {
                        m.record_splat(p, c, target);
                    }
                    for e in self.entries.iter().filter(|e| e.system.splats_alone()) {
                        let bind = e.system.splat_bind(device, p);
                        let variant = e.system.splat_variant();
                        splat.record(c, (bind, variant), target, (&e.system.pool().args, 0));
                        if e.system.lists_dots() {
                            let counters = &e.system.pool().draw_counters;
                            splat.record_dots(c, (bind, variant), target, counters);
                        }
                    }
                    splat.record_resolve(c, target, self.accumulated());
                });
            }
            Pass::Draw => {
                // the resolved splats are the target's background; without them, clear
                let load = match low.splat {
                    Some(_) => wgpu::LoadOp::Load,
                    None => wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT),
                };
                let attachments = [Some(color_attachment(&low.color, load))];
                let desc = pass_desc("draw", &attachments);
                render_pass_in(encoder, profiler, desc, "draw", |r| {
                    r.set_bind_group(1, &low.draw_bind, &[]);
                    // the merged lists first (sorted, then unsorted), then the
                    // effects drawn alone, in the order they were added
                    for m in &self.merged {
                        m.record_draw(p, r);
                    }
                    for e in self.entries.iter().filter(|e| !e.system.merged()) {
                        e.system.record_draw(p, r);
                    }
                });
            }
            Pass::Meshes => self.record_meshes(encoder, frame, low, profiler),
            Pass::Composite => {
                let Some(bind) = self.composite_bind(device, frame) else {
                    return;
                };
                let mut attachment = color_attachment(frame.color, wgpu::LoadOp::Load);
                attachment.resolve_target = frame.resolve;
                let attachments = [Some(attachment)];
                let mut desc = pass_desc("composite", &attachments);
                // the host's depth, read only: the composite samples it (and attaches it, as
                // a host's pass would, unless the host's pass carries none)
                let attached = frame.depth.filter(|_| self.targets.depth_in_pass);
                desc.depth_stencil_attachment =
                    attached.map(|view| wgpu::RenderPassDepthStencilAttachment {
                        view,
                        depth_ops: None,
                        stencil_ops: None,
                    });
                let variant = (
                    self.composites_same_size(),
                    self.composites_by_nearest_depth(),
                );
                render_pass_in(encoder, profiler, desc, "composite", |r| {
                    p.composite().record(r, &bind, variant)
                });
            }
            _ => unreachable!("the compute steps are recorded above"),
        }
    }
}

/// Per-pass GPU timing.
impl ParticleRenderer {
    /// Time every pass with GPU timestamp queries from now on: false (and nothing timed)
    /// when the device lacks `TIMESTAMP_QUERY`. Each frame's times are read back without
    /// blocking once the host has submitted it, and arrive a frame or more late through
    /// [`ParticleRenderer::pass_times`]. On CPU adapters such as lavapipe the times inside a
    /// frame are misattributed once a render pass runs (submit each pass on its own with
    /// [`ParticleRenderer::encode_pass`] and time it on the clock there).
    pub fn enable_profiling(&mut self, device: &wgpu::Device, queue: &wgpu::Queue) -> bool {
        if self.timer.is_none() {
            self.timer = PassTimer::new(device, queue);
        }
        self.timer.is_some()
    }

    /// Milliseconds of the latest frame whose timestamps have come back: `("frame", first
    /// pass's beginning to last pass's end)`, then each pass in recording order by its
    /// [`Pass::name`]. Empty before the first frame comes back or without profiling.
    pub fn pass_times(&self) -> &[(String, f64)] {
        self.timer.as_ref().map_or(&[], |t| t.times())
    }
}

/// Scopes in a host's wgpu-profiler (feature `wgpu-profiler`).
#[cfg(feature = "wgpu-profiler")]
impl ParticleRenderer {
    /// As [`ParticleRenderer::encode`], each pass in a scope of the host's own `profiler`,
    /// nested under one `frame` scope (the host resolves its queries and ends its frame).
    pub fn encode_profiled(
        &mut self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        frame: &FrameTargets,
        profiler: &wgpu_profiler::GpuProfiler,
    ) -> Result<()> {
        self.check_frame(frame)?;
        self.check_once()?;
        self.record_catch_ups(device, encoder);
        let frame_query = profiler.begin_query("frame", encoder);
        let scopes = Scopes::Profiler {
            profiler,
            parent: Some(&frame_query),
        };
        self.prepare_in(device, encoder, frame, scopes);
        self.encode_pass_in(device, encoder, frame, Pass::Composite, scopes);
        profiler.end_query(encoder, frame_query);
        Ok(())
    }
}

/// A colour attachment that stores.
fn color_attachment(
    view: &wgpu::TextureView,
    load: wgpu::LoadOp<wgpu::Color>,
) -> wgpu::RenderPassColorAttachment<'_> {
    wgpu::RenderPassColorAttachment {
        view,
        depth_slice: None,
        resolve_target: None,
        ops: wgpu::Operations {
            load,
            store: wgpu::StoreOp::Store,
        },
    }
}

/// A render pass over `attachments` with no depth.
fn pass_desc<'a>(
    label: &'a str,
    attachments: &'a [Option<wgpu::RenderPassColorAttachment<'a>>],
) -> wgpu::RenderPassDescriptor<'a> {
    wgpu::RenderPassDescriptor {
        label: Some(label),
        color_attachments: attachments,
        depth_stencil_attachment: None,
        timestamp_writes: None,
        occlusion_query_set: None,
        multiview_mask: None,
    }
}
