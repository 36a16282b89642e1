//! # flurry
//!
//! A GPU compute-driven particle engine on wgpu. Every particle lives in GPU buffers: a
//! pool with a dead list and two alive lists, filled by an emit pass and advanced by a
//! simulate pass (explicit or symplectic Euler) with workgroup-aggregated atomic appends,
//! culled to the frustum and sorted back to front on the GPU; indirect arguments are
//! written on the GPU, a compute splat draws the particles a few pixels across and the draw
//! pulls the larger ones from the sorted visible list into a low-resolution target, both
//! depth-tested against the host's depth, and a composite upsamples it onto the host's
//! image. The CPU writes a few uniforms per frame and records commands; it never reads
//! particles back in the frame loop and never blocks; it never submits: everything it does
//! in a frame, an off-screen effect's catch-up included, is recorded into the host's
//! encoder (a prewarm, asked for between frames, submits its steps at once).
//!
//! [`ParticleRenderer`] is the render node: the host gives its device, queue, encoder, its
//! own view and projection ([`View`]: standard or reversed Z, finite or infinite far,
//! perspective or orthographic, read from the matrix) and the colour and depth views of its
//! frame, multisampled or not. Effects are [`EffectDesc`]s, written in Rust or read from RON
//! files ([`effect`]). A particle is drawn as a billboard, a streak, a control point of a
//! ribbon (an emitter's afterimage, or each particle's trail, showing the host's [`Image`]
//! if it names one, added with [`ParticleRenderer::add_image`]) or a lit [`Mesh`] (built in,
//! or the host's, added with [`ParticleRenderer::add_mesh`], lit by its [`Light`]); emitters
//! spawn in volumes, on surfaces and on meshes. One effect placed many times
//! ([`ParticleRenderer::set_instances`], an [`Instance`] each) shares one pool and one chain
//! of dispatches; [`ParticleRenderer::traffic`] says what each pass moved and computed, for
//! judging it against the adapter's own ceilings ([`roofline`]). A game drives each effect:
//! [`ParticleRenderer::play`], [`ParticleRenderer::pause`],
//! [`ParticleRenderer::stop_emitting`], [`ParticleRenderer::clear`],
//! [`ParticleRenderer::restart`], [`ParticleRenderer::set_time_scale`] and
//! [`ParticleRenderer::prewarm`] (seconds of it run at once, before it is first seen), and
//! learns when one is over ([`ParticleRenderer::is_finished`]) and where its particles hit
//! the scene or died ([`ParticleRenderer::set_events`], [`ParticleRenderer::drain_events`]:
//! read back a frame or two late, never a stall); [`ParticleRenderer::set_off_screen`] says
//! whether an effect goes on, freezes or freezes and catches up while its bounds
//! ([`ParticleRenderer::bounds`]) lie outside the view, [`ParticleRenderer::set_lod`] thins it
//! out with distance and draws its far mesh particles as discs; [`ParticleRenderer::set_budget`]
//! caps the particles all effects have alive together, served by
//! [`ParticleRenderer::set_priority`].
//!
//! ```
//! use flurry::effect::{ColorRange, EffectDesc, EmitterDesc, Range, Shape, Velocity};
//! use flurry::{wgpu, Camera, FrameTargets, GpuContext, ParticleRenderer, Settings, Targets};
//! # fn main() -> Result<(), flurry::Error> {
//! let gpu = GpuContext::new_headless()?;
//! # let target = |format, usage| gpu.device.create_texture(&wgpu::TextureDescriptor {
//! #     label: None, size: wgpu::Extent3d { width: 640, height: 360, depth_or_array_layers: 1 },
//! #     mip_level_count: 1, sample_count: 1, dimension: wgpu::TextureDimension::D2, format,
//! #     usage, view_formats: &[] }).create_view(&Default::default());
//! # use wgpu::TextureUsages as U;
//! // the host's frame: an sRGB colour target and a depth buffer it drew its scene into
//! let color = target(wgpu::TextureFormat::Rgba8UnormSrgb, U::RENDER_ATTACHMENT);
//! let depth = target(wgpu::TextureFormat::Depth32Float, U::RENDER_ATTACHMENT | U::TEXTURE_BINDING);
//! let targets = Targets::new(
//!     wgpu::TextureFormat::Rgba8UnormSrgb,
//!     Some(wgpu::TextureFormat::Depth32Float),
//! );
//! let mut particles = ParticleRenderer::new(&gpu.device, targets, Settings::default())?;
//! let sparks = EffectDesc {
//!     emitters: vec![EmitterDesc {
//!         shape: Shape::Sphere { center: [0.0, 1.0, 0.0], radius: 0.5, surface: false },
//!         rate: 2000.0,
//!         velocity: Velocity::Radial { speed: Range::new(3.0, 1.0) },
//!         color: ColorRange::constant([1.0, 0.6, 0.2, 0.8]),
//!         ..Default::default()
//!     }],
//!     ..Default::default()
//! };
//! // its pipelines built now, at a loading screen (else on a worker thread: the effect starts
//! // once they are ready, a frame or many later)
//! particles.warm(&gpu.device, &[&sparks])?;
//! let id = particles.add_effect(&gpu.device, &gpu.queue, &sparks, 4096, 7)?;
//! let camera = Camera::look_at(flurry::glam::Vec3::new(0.0, 2.0, 10.0), flurry::glam::Vec3::ZERO, 16.0 / 9.0);
//! // each frame
//! particles.update(&gpu.device, &gpu.queue, 1.0 / 60.0, camera, (640, 360))?;
//! let mut encoder = gpu.device.create_command_encoder(&Default::default());
//! let frame = FrameTargets::new(&color, Some(&depth));
//! particles.encode(&gpu.device, &mut encoder, &frame)?;
//! gpu.queue.submit([encoder.finish()]); // the host submits, never the library
//! # let snap = particles.snapshot(&gpu.device, &gpu.queue, id)?;
//! # assert_eq!(snap.counters.emitted, 33); // 2000/s for 1/60 s
//! # Ok(()) }
//! ```
//!
//! ## What to know when embedding
//!
//! - **Camera conventions.** `View { view, proj }` is the host's own pair of matrices: view space
//!   right-handed, looking down −Z ([`glam::camera::rh::view::look_at_mat4`]), clip space wgpu's
//!   (depth 0..1: [`glam::camera::rh::proj::directx`]'s projections). The depth
//!   convention is read from the projection matrix, nothing to declare: standard (0 near, 1 far) or
//!   reversed Z (1 near, 0 far, cleared to 0), a finite or an infinite far plane, perspective or
//!   orthographic; `View::convention()` says what it found. A projection jittered for TAA works (the
//!   particles move with the jitter). Refused with an error: an oblique near plane (depth that
//!   depends on x or y) and a left-handed projection (flip Z into both matrices instead). flurry
//!   turns the host's depth into distances along the view axis once per frame, so hiding, soft
//!   particles, depth collision and nearest-depth upsampling work the same in every convention.
//! - **Targets.** `Targets` names the colour format, the depth format and the sample count. The
//!   depth texture needs `RENDER_ATTACHMENT` and `TEXTURE_BINDING` usage and its view must show the
//!   depth aspect only; with MSAA the composite draws into the multisampled colour and reads every
//!   depth sample. The pass given to `render` has the colour as its one attachment and the depth
//!   read-only, or no depth at all with `Targets::without_depth_in_pass` (a UI toolkit's pass:
//!   the depth is still read, and hides the particles behind the scene). Without a depth buffer
//!   particles are never hidden or collided with, and the composite upsamples bilinearly. An HDR
//!   colour format gets the particles as they are; an LDR one gets them tonemapped. `render`
//!   covers the viewport the pass has set, so the host's image may be a rectangle of a larger
//!   target (an editor's viewport in its window: egui-wgpu's paint callback sets it). A UNORM
//!   target taken without its sRGB twin (`Bgra8Unorm`, egui's window) shows what it stores as
//!   gamma-encoded: flurry encodes its colours for it, exact where they are opaque or over
//!   black, blended in gamma space as the toolkit blends.
//! - **One recorded frame per `update`.** A second `encode` or `prepare` for one update is refused
//!   (it would step twice). A frame updated but never recorded (the surface was not ready) loses
//!   nothing: the next one emits its spawns. A frame recorded into an encoder that is then dropped
//!   loses its spawns (never counted as requested) and nothing else: an effect placed again
//!   or a parameter set just before it is placed and set all the same (what the frames after
//!   keep of them is written through the queue too), unless a frame recorded before it, in
//!   which they changed too, was still to be submitted.
//! - **Moving effects.** `set_transform(id, matrix)` places an effect in the world (and
//!   `set_emitter_transform` an emitter within it); set it every frame to carry an effect with a
//!   host's object: each spawn is born at its own time in the frame (a burst when it is due),
//!   where the emitter was then, so a fast emitter leaves a line and a still one a stream.
//! - **Meshes and light.** `add_mesh(&device, Mesh::new(positions, normals, indices)?)` gives a
//!   mesh that emitters spawn on (`Shape::Mesh`) and mesh particles are (`RenderMode::Mesh`), as
//!   `MeshSource::Host(id)`; six are built in (cube, tetrahedron, shard, leaf, bird, figure). Mesh
//!   particles are opaque and lit by `set_light(Light { direction, color, ambient })`, drawn into the
//!   host's colour and depth (so the depth texture is written); a flying one turns along its
//!   velocity, beating its wings; a crowd's walker faces its way, the figure's legs swinging.
//! - **Images and flipbooks.** A particle may show an image (`Sprite::Image`): one the host adds
//!   (`add_image(&device, &queue, &Image::new(w, h, rgba)?)`, `image: 0` in a file) or a PNG an
//!   effect file names by path, which `load_images(&device, &queue, &mut desc, folder)` loads and
//!   adds (feature `png`); a `Flipbook` plays a sheet's frames over life or at a rate, from a
//!   random start, blended. Every frame is one layer of a texture array the renderer keeps (256²
//!   texels, premultiplied linear light, mipmapped), so merged and batched effects still draw
//!   together, and the splat samples at its footprint's mip level.
//! - **Lit and self-shadowed billboards.** An effect's `lighting` lights its billboards by the
//!   renderer's light (a sphere's normal per pixel, wrap lighting); with `shadows` its particles
//!   shadow one another (a density grid round them each frame, the light marched through it),
//!   and `unlit` emitters (flames, sparks) keep their own light. Colours above 1 (`emission`)
//!   reach an HDR host unclamped.
//! - **Ribbons** may show an image the host adds along their length. They are sorted **piece by piece** with
//!   their effect's other particles (a ribbon through a cloud is hidden where it is behind it; one
//!   depth per ribbon would be wrong along most of it). An effect with ribbons is sorted on its own.
//! - **Many effects, one renderer.** Pipelines are compiled once per renderer, the first time an
//!   effect needs a variant, and shared. Each pass is specialised for what an effect uses (its
//!   forces, render modes, blend and sprites; the rest compiled out): adding an effect whose
//!   variants exist compiles nothing (under 0.2 ms on lavapipe, against 0.7–1.2 s for the first).
//!   Every sorted effect without ribbons is sorted and drawn together with the others (as many
//!   as the device's largest storage buffer holds copies of): their particles interleave back to
//!   front, and a hundred small effects cost one sort, one splat and one draw. Alpha-blended and
//!   additive effects share it: the draw writes premultiplied colour, additive light being
//!   colour with alpha 0, so one blend state serves both, and the splat adds each particle as
//!   its effect blends. So an additive effect that asks to be sorted is drawn in order among
//!   the alpha-blended ones. The unsorted effects without ribbons, of either blend, share a
//!   list of their own the same way, drawn after the sorted list and before the effects drawn
//!   alone.
//!   A small effect (a pool of up to 4,096 particles, simulated in one step a frame, without
//!   trails, hit spawns, ribbons or mesh particles) runs its passes one thread a slot, with no
//!   argument passes between them, in buffers shared with the other small effects. Small
//!   effects are batched by what their passes compile to, one dispatch per 65,536 slots for each
//!   batch. Those placed once and without massive bodies emit together. Those whose simulation
//!   compiles the same (no depth collision, massive bodies, N-body gravity, flocking or deaths
//!   that spawn) are simulated together, and one dispatch relists them all. Those sorted
//!   together whose render modes agree, placed once, are culled together into their shared list.
//!   So a few hundred small effects cost about the GPU time of one effect holding all their
//!   particles, not a few hundred chains of dispatches.
//! - **One effect, many places.** `set_instances(&device, id, &[Instance::new(transform, radius)])`
//!   places an effect many times (a torch on every wall): each instance spawns what the effect
//!   alone would into the effect's one pool (give it the capacity of them all), one chain of
//!   dispatches for all; an instance whose bounds lie outside the view has none of its particles
//!   drawn. Set the list every frame to move them (spawns spread along each one's way).
//! - **Errors, not panics.** A bad effect is refused with every field out of range named, a pool the
//!   device cannot hold with the limit that binds (`ParticleRenderer::check_capacity`), colour
//!   formats that cannot blend, frames past the texture limit and views unlike those declared before
//!   wgpu sees them. `set_targets` switches formats (an HDR toggle) and keeps every effect's pool.
//! - **Navigation.** `flurry::nav` has a `CityMap` of streets and buildings, its signed
//!   `DistanceField` and `FlowField`s (walking distances and directions to destinations), all
//!   computed on the GPU and recorded into the host's encoder: what an effect's `crowd` walks on
//!   (a snapshot's `walkers` hold each walker's state, destination and clock).
//! - **No hitch when an effect first appears.** The first effect of a kind compiles its
//!   pipelines (tens of milliseconds each on a CPU driver). `warm(&device, &[&desc, …])`
//!   compiles every one those effects may need (alone or together, batched, placed as
//!   instances, listened to) ahead, at a loading screen. Otherwise (`Settings::background_compile`,
//!   on by default) `add_effect` returns at once and a worker thread compiles, the effect
//!   recording nothing (its clock waiting at 0) until `is_ready(id)`. Where the device has
//!   `wgpu::Features::PIPELINE_CACHE`, `pipeline_cache()` gives what the driver compiled as
//!   bytes to store and `seed_pipeline_cache(&device, &bytes)` seeds the next run's renderer
//!   (damaged or foreign bytes are refused, never a failure); `compiled_pipelines()` counts.
//! - **Read-back.** `snapshot(device, queue, id)` reads a pool back (tests and tools, never the frame
//!   loop); `counted(id)` gives its counts a frame or two late without ever waiting (the frame
//!   loop's). What the frame loop reads back (counts where an effect may finish, is asked about
//!   or is under a budget; events where the host listens) goes back in one buffer a frame, and
//!   nothing when nothing is wanted. `GpuContext::new_headless` gives a host without a GPU
//!   context of its own one, `GpuContext::webgpu_defaults` one on WebGPU's default limits.
//! - **Timing.** `enable_profiling` times every pass with GPU timestamps (`pass_times()`, a frame or
//!   more late); the `wgpu-profiler` feature's `encode_profiled` nests them in the host's profiler.
//!   `passes()` and `encode_pass` record one pass at a time, to time each on the clock (CPU adapters).
//!
//! Features: `wgpu-profiler` nests every pass in a scope of the host's own wgpu-profiler;
//! `edit` gives `effect::EffectEdit`, an effect edited as an editor edits it (each number clamped
//! to its range, choices, stacks and nodes as text, curves, gradients, parameters, emitters
//! added, removed and moved; every edit validated and undoable; adds serde_json); `app` (default)
//! builds the `flurry` program (demos, editor, CLI, windows, PNG output; egui through eframe),
//! which the library never needs:
//! `default-features = false` leaves wgpu, bytemuck, glam, encase, serde, ron,
//! serde_path_to_error, thiserror and pollster.

#![warn(missing_docs)]

pub use glam;
pub use wgpu;

mod adapter;
mod arena;
pub mod bench;
pub(crate) mod budget;
mod camera;
mod compiler;
#[cfg(test)]
mod cpu;
pub mod effect;
mod error;
mod events;
pub mod expr;
mod files;
mod gpu;
mod hash;
pub mod image;
mod instances;
mod light;
mod lod;
pub mod mesh;
pub mod nav;
mod passes;
mod pipeline_cache;
mod pipelines;
mod playback;
mod pool;
mod prefetch;
mod profiler;
mod readback;
mod renderer;
mod ring;
pub mod roofline;
mod shaders;
mod sprites;
mod system;
#[cfg(test)]
mod tests;
mod timer;
mod types;
mod uniform_pages;
mod uploads;
mod view;
mod visibility;

pub use camera::Camera;
pub use effect::EffectDesc;
pub use error::{Error, ImportError, Invalid, Result, INSTALL_HINT};
pub use events::{
    DrainedEvents, EventKind, EventSettings, ParticleEvent, MAX_EVENTS_KEPT, MAX_EVENTS_PER_FRAME,
};
pub use gpu::GpuContext;
pub use image::{Image, ImageId};
pub use instances::{Instance, MAX_INSTANCES};
pub use light::Light;
pub use lod::{Lod, MAX_MESH_LOD_PIXELS};
pub use mesh::{Mesh, MeshId};
pub use pipeline_cache::CacheIgnored;
pub use playback::{Playback, MAX_TIME_SCALE};
pub use pool::{PoolSnapshot, Stats};
pub use renderer::{
    EffectId, FrameTargets, ParticleRenderer, Pass, Scale, Settings, Targets, Upsample,
    MAX_PREWARM, MAX_SPLAT_RADIUS, MAX_SUBSTEPS, PREWARM_STEPS,
};
pub use system::CompiledEffect;
pub use types::{Body, Counters, HitEvent, Particle, Walker};
pub use view::{DepthConvention, View};
pub use visibility::{Aabb, OffScreen};
