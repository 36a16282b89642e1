//! `ParticleRenderer`: the render node. The host gives its device, queue, encoder and the
//! colour and depth views of its frame; the renderer records its passes into the encoder and
//! never submits, never blocks and never owns a window.
//!
//! Per frame: compute steps of every effect (emit, simulate with depth collision against
//! the previous frame's depth, cull, sort) → the host depth downsampled to the particle
//! target (farthest of each footprint; kept for the next frame's collisions) → particles a
//! few target pixels across splatted by compute and resolved into the low-resolution
//! Rgba16Float target → the larger ones drawn over them as sorted triangles, both
//! depth-tested against it with a soft-particle fade → the target upsampled (nearest-depth
//! or bilinear) and blended onto the host's colour.

use wgpu_profiler::GpuProfiler;

use crate::camera::Camera;
use crate::effect::EffectDesc;
use crate::error::{Invalid, Result};
use crate::passes::composite::CompositePass;
use crate::passes::downsample::{DownsamplePass, LOW_DEPTH_FORMAT};
use crate::passes::draw::{target_layout, PARTICLE_FORMAT};
use crate::passes::draw::{DrawPass, MAX_SLOTS};
use crate::passes::merge::MergePass;
use crate::passes::simulate::collision_bind;
use crate::passes::sort::{padded_len, SortBinding, SortPass, SortPlan};
use crate::passes::splat::{SplatPass, SplatTarget};
use crate::profiler::{compute_pass_in, render_pass_in, Profiling};
use crate::sprites::Sprites;
use crate::system::{ParticleSystem, Step};
use crate::types::{
    uniform_bytes, CollisionFrame, CompositeParams, DownsampleParams, IndirectArgs, MergeParams,
};

/// Resolution of the particle target relative to the host's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Scale {
    Full,
    #[default]
    Half,
    Quarter,
}

impl Scale {
    /// Host pixels per particle-target pixel, per axis.
    pub fn factor(self) -> u32 {
        match self {
            Scale::Full => 1,
            Scale::Half => 2,
            Scale::Quarter => 4,
        }
    }

    pub fn value(self) -> f32 {
        1.0 / self.factor() as f32
    }

    /// 1, 0.5 or 0.25; anything else is refused naming `field`.
    pub fn from_value(field: &str, x: f64) -> Result<Self> {
        match x {
            1.0 => Ok(Scale::Full),
            0.5 => Ok(Scale::Half),
            0.25 => Ok(Scale::Quarter),
            _ => Err(Invalid::new(field, x, "1, 0.5 or 0.25").into()),
        }
    }
}

/// How the particle target is brought back to the host's resolution.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Upsample {
    Bilinear,
    /// Bilinear except at depth edges, where the texel of closest depth is taken.
    #[default]
    NearestDepth,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    pub scale: Scale,
    pub upsample: Upsample,
    /// Relative view-depth difference that nearest-depth upsampling treats as an edge.
    pub edge_threshold: f32,
    /// Particles whose projected radius is at most this many particle-target pixels are
    /// drawn by the compute splat (`shaders/splat.wgsl`, order-independent), larger ones
    /// as sorted triangles; 0 draws every particle as triangles. Off (0) by itself when
    /// the target's accumulators (32 bytes a texel) exceed the device's storage limit.
    pub splat_radius: f32,
}

/// Half resolution and a 4-pixel splat radius by default: for 262,144 snow flakes at
/// 1920x1080 on lavapipe, splat + draw + composite measured 155 / 149 ms at scale 1,
/// 69 / 71 ms at 1/2 and 53 / 48 ms at 1/4 (every flake drawn as a triangle: 152-160 ms at
/// 1/2), with `flurry profile snow --particles 262144 --frames 12 --size 1920x1080
/// --scale S [--splat R]`; 1/4 visibly coarsens small particles, and splat radii 2, 4
/// and 8 cost the same within noise (69-71 ms at 1/2).
impl Default for Settings {
    fn default() -> Self {
        Settings {
            scale: Scale::Half,
            upsample: Upsample::NearestDepth,
            edge_threshold: 0.1,
            splat_radius: 4.0,
        }
    }
}

/// Formats of the host's targets.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Targets {
    pub color_format: wgpu::TextureFormat,
    /// The host's depth format; its views must show the depth aspect only.
    pub depth_format: Option<wgpu::TextureFormat>,
}

/// One frame of the host.
pub struct FrameTargets<'a> {
    pub color: &'a wgpu::TextureView,
    pub depth: Option<&'a wgpu::TextureView>,
}

/// Two to four alpha-blended, sorted effects gathered into one list, sorted together and
/// drawn in one draw (each keeps its own pool and effect constants in a draw slot).
struct Merged {
    /// Indices into the renderer's systems, by slot.
    slots: Vec<usize>,
    /// Kept alive for the bind groups that use it.
    _pairs: wgpu::Buffer,
    counters: wgpu::Buffer,
    args: wgpu::Buffer,
    merge: MergePass,
    gather_binds: Vec<wgpu::BindGroup>,
    sort: SortPass,
    plan: SortPlan,
    sort_bind: SortBinding,
    draw: DrawPass,
    draw_bind: wgpu::BindGroup,
}

impl Merged {
    /// The merged set for `systems`, marking its members; None when fewer than two
    /// alpha-blended sorted effects exist (the first four are merged).
    fn new(device: &wgpu::Device, systems: &mut [ParticleSystem]) -> Option<Self> {
        use wgpu::util::DeviceExt;
        for s in systems.iter_mut() {
            s.set_merged(false);
        }
        let slots: Vec<usize> = systems
            .iter()
            .enumerate()
            .filter(|(_, s)| s.desc().blend == crate::effect::Blend::Alpha && s.desc().sorts())
            .map(|(i, _)| i)
            .take(MAX_SLOTS)
            .collect();
        if slots.len() < 2 {
            return None;
        }
        let total: u32 = slots.iter().map(|&i| systems[i].capacity()).sum();
        let storage = wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC;
        let pairs = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("flurry.merged_pairs"),
            size: padded_len(total) as u64 * 8,
            usage: storage,
            mapped_at_creation: false,
        });
        let counters = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("flurry.merged_counters"),
            size: std::mem::size_of::<crate::types::Counters>() as u64,
            usage: storage | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let args = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("flurry.merged_args"),
            size: std::mem::size_of::<IndirectArgs>() as u64,
            usage: storage | wgpu::BufferUsages::INDIRECT,
            mapped_at_creation: false,
        });
        let merge = MergePass::new(device);
        let gather_binds = slots
            .iter()
            .enumerate()
            .map(|(slot, &i)| {
                let params = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                    label: Some("flurry.merge_slot"),
                    contents: &uniform_bytes(&MergeParams {
                        slot: slot as u32,
                        ..Default::default()
                    }),
                    usage: wgpu::BufferUsages::UNIFORM,
                });
                merge.bind(device, systems[i].pool(), &pairs, &counters, &params, &args)
            })
            .collect();
        let sort = SortPass::new(device);
        let plan = SortPlan::bitonic(device, total);
        let sort_bind = sort.bind(device, &plan, &pairs, &counters);
        let draw = DrawPass::new(device, crate::effect::Blend::Alpha);
        let sources: Vec<(&wgpu::Buffer, &wgpu::Buffer)> = slots
            .iter()
            .map(|&i| (&systems[i].pool().particles, systems[i].uniforms().1))
            .collect();
        let frame = systems[slots[0]].uniforms().0;
        let draw_bind = draw.bind_slots(device, &sources, &pairs, frame);
        for &i in &slots {
            systems[i].set_merged(true);
        }
        Some(Merged {
            slots,
            _pairs: pairs,
            counters,
            args,
            merge,
            gather_binds,
            sort,
            plan,
            sort_bind,
            draw,
            draw_bind,
        })
    }

    /// Gather every member's visible pairs, sort them together, size the draw.
    fn record(&self, pass: &mut wgpu::ComputePass, systems: &[ParticleSystem]) {
        for (bind, &i) in self.gather_binds.iter().zip(&self.slots) {
            self.merge.record_gather(pass, bind, systems[i].capacity());
        }
        self.sort.record(pass, &self.plan, &self.sort_bind);
        self.merge.record_args(pass, &self.gather_binds[0]);
    }
}

/// Names an effect in a [`ParticleRenderer`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EffectId(u64);

/// The passes of a frame, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pass {
    /// One compute step of every effect.
    Compute(Step),
    /// Alpha-blended effects gathered into one list and sorted together.
    Merge,
    Downsample,
    /// Small particles drawn by compute, resolved into the particle target.
    Splat,
    Draw,
    Composite,
}

impl Pass {
    pub fn name(self) -> &'static str {
        match self {
            Pass::Compute(step) => step.name(),
            Pass::Merge => "merge",
            Pass::Downsample => "downsample",
            Pass::Splat => "splat",
            Pass::Draw => "draw",
            Pass::Composite => "composite",
        }
    }
}

/// Size-dependent resources.
struct LowRes {
    host: (u32, u32),
    size: (u32, u32),
    color: wgpu::TextureView,
    depth: wgpu::TextureView,
    draw_bind: wgpu::BindGroup,
    /// The compute splat's accumulators (None: splat off).
    splat: Option<SplatTarget>,
    /// Simulate's view of `depth` (holding the previous frame's) and its camera.
    collision_bind: wgpu::BindGroup,
}

pub struct ParticleRenderer {
    settings: Settings,
    targets: Targets,
    systems: Vec<ParticleSystem>,
    /// `ids[i]` names `systems[i]`.
    ids: Vec<EffectId>,
    /// `splat_binds[i]`: the splat's bind group over `systems[i]` (made when it is added).
    splat_binds: Vec<wgpu::BindGroup>,
    next_id: u64,
    /// Per-pass GPU timing for library users ([`ParticleRenderer::enable_profiling`]).
    profiler: Option<GpuProfiler>,
    /// Kept to let the profiler's read-backs finish before it is dropped.
    device: wgpu::Device,
    /// Alpha-blended effects sorted and drawn together (two to four of them).
    merged: Option<Merged>,
    /// Effects changed: the merged set is rebuilt at the next update.
    merge_dirty: bool,
    pass_times: Vec<(String, f64)>,
    downsample: DownsamplePass,
    splat: SplatPass,
    composite: CompositePass,
    target_layout: wgpu::BindGroupLayout,
    /// The snowflake array (uploaded at the first update).
    sprites: Sprites,
    downsample_buf: wgpu::Buffer,
    composite_buf: wgpu::Buffer,
    collision_buf: wgpu::Buffer,
    /// The camera of the previous update: the one the stored depth was seen through.
    prev_camera: Option<Camera>,
    /// Set when a downsample is recorded: the next frame may collide with its depth.
    depth_recorded: std::cell::Cell<bool>,
    /// Bound where the host has no depth (the shaders do not read it then).
    no_depth: wgpu::TextureView,
    low: Option<LowRes>,
}

fn is_hdr(format: wgpu::TextureFormat) -> bool {
    use wgpu::TextureFormat as F;
    matches!(format, F::Rgba16Float | F::Rgba32Float | F::Rg11b10Ufloat)
}

fn texture(
    device: &wgpu::Device,
    label: &str,
    size: (u32, u32),
    format: wgpu::TextureFormat,
    usage: wgpu::TextureUsages,
) -> wgpu::TextureView {
    crate::gpu::texture_2d(device, label, size, format, usage).create_view(&Default::default())
}

fn uniform_buffer<T: encase::ShaderType>(device: &wgpu::Device, label: &str) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size: T::min_size().get(),
        usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

impl ParticleRenderer {
    pub fn new(device: &wgpu::Device, targets: Targets, settings: Settings) -> Self {
        use wgpu::TextureUsages as U;
        ParticleRenderer {
            downsample: DownsamplePass::new(device),
            splat: SplatPass::new(device),
            composite: CompositePass::new(device, targets.color_format),
            target_layout: target_layout(device),
            sprites: Sprites::new(device),
            downsample_buf: uniform_buffer::<DownsampleParams>(device, "flurry.downsample"),
            composite_buf: uniform_buffer::<CompositeParams>(device, "flurry.composite"),
            collision_buf: uniform_buffer::<CollisionFrame>(device, "flurry.collision"),
            prev_camera: None,
            depth_recorded: std::cell::Cell::new(false),
            no_depth: texture(
                device,
                "flurry.no_depth",
                (1, 1),
                wgpu::TextureFormat::Depth32Float,
                U::TEXTURE_BINDING,
            ),
            settings,
            targets,
            systems: Vec::new(),
            ids: Vec::new(),
            splat_binds: Vec::new(),
            next_id: 0,
            profiler: None,
            device: device.clone(),
            merged: None,
            merge_dirty: false,
            pass_times: Vec::new(),
            low: None,
        }
    }

    /// Add an effect with a pool of `capacity` particles. Effects are drawn in the order
    /// they were added, each sorted on its own.
    pub fn add_effect(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        desc: &EffectDesc,
        capacity: u32,
        seed: u32,
    ) -> Result<EffectId> {
        let system = ParticleSystem::new(device, queue, desc, capacity, seed)?;
        let (frame, effect) = system.uniforms();
        let splat_bind = self.splat.bind(device, system.pool(), frame, effect);
        self.systems.push(system);
        self.splat_binds.push(splat_bind);
        let id = EffectId(self.next_id);
        self.next_id += 1;
        self.ids.push(id);
        self.merge_dirty = true;
        Ok(id)
    }

    /// Remove an effect and free its buffers; false if `id` is not (or no longer) here.
    pub fn remove_effect(&mut self, id: EffectId) -> bool {
        match self.ids.iter().position(|&i| i == id) {
            Some(k) => {
                self.ids.remove(k);
                self.systems.remove(k);
                self.splat_binds.remove(k);
                self.merge_dirty = true;
                true
            }
            None => false,
        }
    }

    /// Every effect, in drawing order.
    pub fn systems(&self) -> &[ParticleSystem] {
        &self.systems
    }

    /// Every effect, to move or re-aim emitters ([`ParticleSystem::set_emitter`]).
    pub fn systems_mut(&mut self) -> &mut [ParticleSystem] {
        &mut self.systems
    }

    pub fn system(&self, id: EffectId) -> Option<&ParticleSystem> {
        let k = self.ids.iter().position(|&i| i == id)?;
        self.systems.get(k)
    }

    pub fn system_mut(&mut self, id: EffectId) -> Option<&mut ParticleSystem> {
        let k = self.ids.iter().position(|&i| i == id)?;
        self.systems.get_mut(k)
    }

    /// Time every pass with GPU timestamps from now on (when the device has
    /// `TIMESTAMP_QUERY`; false otherwise). Results arrive a few frames late through
    /// [`ParticleRenderer::pass_times`]. On CPU adapters such as lavapipe the times inside a
    /// frame are misattributed once a render pass runs (`flurry profile` has a cpu-sync
    /// mode for that).
    pub fn enable_profiling(&mut self, device: &wgpu::Device) -> bool {
        if !device.features().contains(wgpu::Features::TIMESTAMP_QUERY) {
            return false;
        }
        self.profiler = crate::profiler::gpu_profiler(device);
        self.profiler.is_some()
    }

    /// Milliseconds per pass of the latest frame whose timestamps have come back.
    pub fn pass_times(&self) -> &[(String, f64)] {
        &self.pass_times
    }

    /// Simulate every effect in `substeps` steps of dt / substeps per frame.
    pub fn set_substeps(&mut self, substeps: u32) {
        for system in &mut self.systems {
            system.set_substeps(substeps);
        }
    }

    pub fn settings(&self) -> Settings {
        self.settings
    }

    /// New settings take effect at the next [`ParticleRenderer::update`].
    pub fn set_settings(&mut self, settings: Settings) {
        let splats = |s: &Settings| splat_radius(s.splat_radius) > 0.0;
        if settings.scale != self.settings.scale || splats(&settings) != splats(&self.settings) {
            self.low = None; // reallocated (with or without accumulators) at the next update
        }
        self.settings = settings;
    }

    /// Size of the particle target for a host of `size`.
    pub fn target_size(&self, (w, h): (u32, u32)) -> (u32, u32) {
        let f = self.settings.scale.factor();
        (w.div_ceil(f).max(1), h.div_ceil(f).max(1))
    }

    /// Advance every effect by `dt` seconds for `camera`, and size the particle target for
    /// a host frame of `size` pixels (reallocated only when the size changes).
    ///
    /// Each update writes this frame's uniforms (camera, spawn request); follow it with one
    /// [`ParticleRenderer::encode`] that the host submits. A frame that is updated but never
    /// submitted loses its spawns.
    pub fn update(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        dt: f32,
        camera: &Camera,
        size: (u32, u32),
    ) {
        if let Some(p) = self.profiler.as_mut() {
            // the host has submitted the previous frame's encoder by now
            let _ = p.end_frame();
            while let Some(results) = p.process_finished_frame(queue.get_timestamp_period()) {
                // the frame scope, then the passes nested in it
                let ms = |r: &wgpu_profiler::GpuTimerQueryResult| {
                    r.time
                        .as_ref()
                        .map(|t| (r.label.clone(), (t.end - t.start) * 1e3))
                };
                self.pass_times = results
                    .iter()
                    .flat_map(|r| std::iter::once(r).chain(&r.nested_queries))
                    .filter_map(ms)
                    .collect();
            }
        }
        self.sprites.upload(queue);
        if self.merge_dirty {
            self.merged = Merged::new(device, &mut self.systems);
            self.merge_dirty = false;
        }
        if let Some(m) = &self.merged {
            // this frame's gathers start from an empty list
            queue.write_buffer(
                &m.counters,
                0,
                &[0; std::mem::size_of::<crate::types::Counters>()],
            );
        }
        let fresh = self.low.as_ref().is_none_or(|l| l.host != size);
        if fresh {
            self.low = Some(self.allocate(device, size));
        }
        let low = self.low.as_ref().expect("allocated above");
        let pixel_scale = low.size.1 as f32 / (2.0 * (0.5 * camera.fov_y).tan());
        let splat_radius = match low.splat {
            Some(_) => splat_radius(self.settings.splat_radius),
            None => 0.0,
        };
        for system in &mut self.systems {
            system.set_splat(pixel_scale, splat_radius);
            system.update(queue, dt, camera);
        }
        let has_depth = self.targets.depth_format.is_some() as u32;
        // the particle target's depth still holds the previous frame's, unless it was just
        // (re)allocated or no downsample was recorded since
        let stored = self.depth_recorded.replace(false) && !fresh && has_depth == 1;
        let prev = self.prev_camera.replace(*camera).unwrap_or(*camera);
        let prev_view_proj = prev.view_proj();
        let collision = CollisionFrame {
            prev_view_proj,
            prev_inv_view_proj: prev_view_proj.inverse(),
            near: prev.near,
            far: prev.far,
            enabled: stored as u32,
            _pad: 0,
        };
        queue.write_buffer(&self.collision_buf, 0, &uniform_bytes(&collision));
        let downsample = DownsampleParams {
            factor: self.settings.scale.factor(),
            has_depth,
            ..Default::default()
        };
        let composite = CompositeParams {
            near: camera.near,
            far: camera.far,
            threshold: self.settings.edge_threshold,
            nearest_depth: (self.settings.upsample == Upsample::NearestDepth) as u32,
            tonemap: !is_hdr(self.targets.color_format) as u32,
            has_depth,
            width: size.0,
            height: size.1,
        };
        queue.write_buffer(&self.downsample_buf, 0, &uniform_bytes(&downsample));
        queue.write_buffer(&self.composite_buf, 0, &uniform_bytes(&composite));
    }

    fn allocate(&self, device: &wgpu::Device, host: (u32, u32)) -> LowRes {
        use wgpu::TextureUsages as U;
        let size = self.target_size(host);
        let color = texture(
            device,
            "flurry.particle_target",
            size,
            PARTICLE_FORMAT,
            U::RENDER_ATTACHMENT | U::TEXTURE_BINDING | U::STORAGE_BINDING,
        );
        let depth = texture(
            device,
            "flurry.particle_depth",
            size,
            LOW_DEPTH_FORMAT,
            U::STORAGE_BINDING | U::TEXTURE_BINDING,
        );
        let draw_bind = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("draw_target"),
            layout: &self.target_layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::TextureView(&depth),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: wgpu::BindingResource::TextureView(&self.sprites.view),
                },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: wgpu::BindingResource::Sampler(&self.sprites.sampler),
                },
            ],
        });
        let collision_bind = collision_bind(device, &depth, &self.collision_buf);
        let bytes = SplatPass::accum_bytes(size);
        let limits = device.limits();
        let fits =
            bytes <= limits.max_storage_buffer_binding_size && bytes <= limits.max_buffer_size;
        let splat = (splat_radius(self.settings.splat_radius) > 0.0 && fits).then(|| {
            self.splat
                .target(device, size, &depth, &color, &self.sprites)
        });
        LowRes {
            host,
            size,
            color,
            depth,
            draw_bind,
            splat,
            collision_bind,
        }
    }

    /// The passes [`ParticleRenderer::encode`] records, in order.
    pub fn passes(&self) -> Vec<Pass> {
        let mut passes: Vec<Pass> = Step::ALL
            .into_iter()
            .filter(|&step| self.systems.iter().any(|s| s.steps().any(|t| t == step)))
            .map(Pass::Compute)
            .collect();
        if self.merged.is_some() {
            passes.push(Pass::Merge);
        }
        passes.push(Pass::Downsample);
        if self.low.as_ref().is_some_and(|l| l.splat.is_some()) {
            passes.push(Pass::Splat);
        }
        passes.extend([Pass::Draw, Pass::Composite]);
        passes
    }

    /// Record the whole frame (after [`ParticleRenderer::update`]); `profiler` times every
    /// pass in the caller's own wgpu-profiler (else the renderer's, if enabled).
    pub fn encode(
        &mut self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        frame: &FrameTargets,
        profiler: Option<&GpuProfiler>,
    ) {
        let own = profiler.is_none() && self.profiler.is_some();
        let profiler = profiler.or(self.profiler.as_ref());
        // every pass's scope nests under one "frame" scope
        let frame_query = profiler.map(|p| p.begin_query("frame", encoder));
        let profiling = profiler.map(|profiler| Profiling {
            profiler,
            parent: frame_query.as_ref(),
        });
        for pass in self.passes() {
            self.encode_pass_in(device, encoder, frame, pass, profiling);
        }
        if let (Some(p), Some(q)) = (profiler, frame_query) {
            p.end_query(encoder, q);
        }
        if own {
            if let Some(p) = self.profiler.as_mut() {
                p.resolve_queries(encoder);
            }
        }
    }

    /// Record one pass of the frame (profilers submit them one at a time); its scope, if
    /// any, is top-level.
    pub fn encode_pass(
        &self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        frame: &FrameTargets,
        pass: Pass,
        profiler: Option<&GpuProfiler>,
    ) {
        self.encode_pass_in(device, encoder, frame, pass, profiler.map(Profiling::top));
    }

    fn encode_pass_in(
        &self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        frame: &FrameTargets,
        pass: Pass,
        profiler: Option<Profiling<'_>>,
    ) {
        let Some(low) = &self.low else {
            return; // update() has not run: nothing to draw into
        };
        let host_depth = frame.depth.unwrap_or(&self.no_depth);
        match pass {
            Pass::Compute(step) => compute_pass_in(encoder, profiler, step.name(), |p| {
                for system in &self.systems {
                    if system.steps().any(|s| s == step) {
                        system.record_step_with(step, p, &low.collision_bind);
                    }
                }
            }),
            Pass::Merge => {
                if let Some(m) = &self.merged {
                    compute_pass_in(encoder, profiler, "merge", |p| m.record(p, &self.systems));
                }
            }
            Pass::Downsample => {
                self.depth_recorded.set(true);
                let bind =
                    self.downsample
                        .bind(device, host_depth, &low.depth, &self.downsample_buf);
                compute_pass_in(encoder, profiler, "downsample", |p| {
                    self.downsample.record(p, &bind, low.size)
                });
            }
            Pass::Splat => {
                let Some(target) = &low.splat else {
                    return;
                };
                compute_pass_in(encoder, profiler, "splat", |p| {
                    for (system, bind) in self.systems.iter().zip(&self.splat_binds) {
                        self.splat.record(p, bind, target, system.pool());
                    }
                    self.splat.record_resolve(p, target);
                });
            }
            Pass::Draw => {
                // the resolved splats are the target's background; without them, clear
                let load = match low.splat {
                    Some(_) => wgpu::LoadOp::Load,
                    None => wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT),
                };
                let attachments = [Some(color_attachment(&low.color, load))];
                render_pass_in(
                    encoder,
                    profiler,
                    pass_desc("draw", &attachments),
                    "draw",
                    |p| {
                        p.set_bind_group(1, &low.draw_bind, &[]);
                        if let Some(m) = &self.merged {
                            let offset = IndirectArgs::DRAW_OFFSET;
                            m.draw.record_list(p, &m.draw_bind, &m.args, offset);
                        }
                        for system in self.systems.iter().filter(|s| !s.merged()) {
                            system.record_draw(p);
                        }
                    },
                );
            }
            Pass::Composite => {
                let bind = self.composite.bind(
                    device,
                    &low.color,
                    &low.depth,
                    host_depth,
                    &self.composite_buf,
                );
                let attachments = [Some(color_attachment(frame.color, wgpu::LoadOp::Load))];
                let desc = pass_desc("composite", &attachments);
                render_pass_in(encoder, profiler, desc, "composite", |p| {
                    self.composite.record(p, &bind)
                });
            }
        }
    }
}

impl Drop for ParticleRenderer {
    /// The profiler's timestamp read-backs may still be in flight: let them land first
    /// (dropping mapped-pending buffers crashes some drivers, lavapipe among them).
    fn drop(&mut self) {
        if let Some(mut p) = self.profiler.take() {
            let _ = p.end_frame();
            let _ = self.device.poll(wgpu::PollType::wait_indefinitely());
            while p.process_finished_frame(1.0).is_some() {}
        }
    }
}

/// Largest splat radius in target pixels (each splat walks at most (2r + 3)^2 texels).
pub const MAX_SPLAT_RADIUS: f32 = 16.0;

/// `Settings::splat_radius` as used: within [0, MAX_SPLAT_RADIUS], NaN as 0.
fn splat_radius(r: f32) -> f32 {
    if r.is_nan() {
        0.0
    } else {
        r.clamp(0.0, MAX_SPLAT_RADIUS)
    }
}

/// A colour attachment that stores.
pub fn color_attachment(
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
pub fn pass_desc<'a>(
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
