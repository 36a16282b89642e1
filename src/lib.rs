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
//! particles back in the frame loop, never submits on the host's behalf and never blocks.
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
//! judging it against the adapter's own ceilings ([`roofline`]).
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
//! Features: `wgpu-profiler` nests every pass in a scope of the host's own wgpu-profiler; `app`
//! (default) builds the `flurry` program (demos, CLI, windows, PNG output), which the
//! library never needs: `default-features = false` leaves wgpu, bytemuck, glam, encase,
//! serde, ron, thiserror and pollster.

#![warn(missing_docs)]

pub use glam;
pub use wgpu;

mod adapter;
mod arena;
pub mod bench;
mod camera;
#[cfg(test)]
mod cpu;
pub mod effect;
mod error;
mod gpu;
mod hash;
pub mod image;
mod instances;
mod light;
pub mod mesh;
pub mod nav;
mod passes;
mod pipelines;
mod pool;
mod profiler;
mod readback;
mod renderer;
pub mod roofline;
mod shaders;
mod sprites;
mod system;
#[cfg(test)]
mod tests;
mod timer;
mod types;
mod uniform_pages;
mod view;

pub use camera::Camera;
pub use effect::EffectDesc;
pub use error::{Error, Invalid, Result, INSTALL_HINT};
pub use gpu::GpuContext;
pub use image::{Image, ImageId};
pub use instances::{Instance, MAX_INSTANCES};
pub use light::Light;
pub use mesh::{Mesh, MeshId};
pub use pool::{PoolSnapshot, Stats};
pub use renderer::{
    EffectId, FrameTargets, ParticleRenderer, Pass, Scale, Settings, Targets, Upsample,
    MAX_SPLAT_RADIUS, MAX_SUBSTEPS,
};
pub use types::{Body, Counters, HitEvent, Particle, Walker};
pub use view::{DepthConvention, View};
