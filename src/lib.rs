//! # flurry
//!
//! A GPU compute-driven particle engine on wgpu. Every particle lives in GPU buffers: a
//! pool with a dead list and two alive lists, filled by an emit pass and advanced by a
//! simulate pass (explicit Euler) with workgroup-aggregated atomic appends, culled to the
//! frustum and sorted back to front on the GPU; indirect arguments are written on the GPU,
//! a compute splat draws the particles a few pixels across and the draw pulls the larger
//! ones from the sorted visible list into a low-resolution target, both depth-tested
//! against the host's depth, and a composite upsamples it onto the host's
//! image. The CPU writes a few uniforms per frame and records commands; it never reads
//! particles back in the frame loop, never submits on the host's behalf and never blocks.
//!
//! [`ParticleRenderer`] is the render node: the host gives its device, queue, encoder and
//! the colour and depth views of its frame.
//!
//! ```
//! use flurry::{Camera, FrameTargets, GpuContext, ParticleRenderer, Settings, Targets};
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
//! let targets = Targets {
//!     color_format: wgpu::TextureFormat::Rgba8UnormSrgb,
//!     depth_format: Some(wgpu::TextureFormat::Depth32Float),
//! };
//! let mut particles = ParticleRenderer::new(&gpu.device, targets, Settings::default());
//! let snow = flurry::Demo::Snow.effect(16_384);
//! particles.add_effect(&gpu.device, &gpu.queue, &snow, 16_384, 7)?;
//! let camera = Camera::look_at(glam::Vec3::new(0.0, 2.0, 10.0), glam::Vec3::ZERO, 16.0 / 9.0);
//! // each frame
//! particles.update(&gpu.device, &gpu.queue, 1.0 / 60.0, &camera, (640, 360));
//! let mut encoder = gpu.device.create_command_encoder(&Default::default());
//! let frame = FrameTargets { color: &color, depth: Some(&depth) };
//! particles.encode(&gpu.device, &mut encoder, &frame, None);
//! gpu.queue.submit([encoder.finish()]); // the host submits, never the library
//! # let snap = particles.systems()[0].snapshot(&gpu.device, &gpu.queue)?;
//! # assert_eq!(snap.counters.emitted, 16_384); // the first frame emitted the whole box
//! # Ok(()) }
//! ```

pub mod app;
pub mod camera;
pub mod cpu;
pub mod demos;
pub mod effect;
pub mod error;
pub mod gpu;
pub mod passes;
pub mod pool;
pub mod profiler;
pub mod readback;
pub mod renderer;
pub mod shaders;
pub mod sprites;
pub mod system;
pub mod types;

pub use camera::Camera;
pub use demos::Demo;
pub use effect::EffectDesc;
pub use error::{Error, Result};
pub use gpu::GpuContext;
pub use pool::{ParticlePool, PoolSnapshot};
pub use renderer::{EffectId, FrameTargets, ParticleRenderer, Scale, Settings, Targets, Upsample};
pub use system::{ParticleSystem, Stats, Step};
