//! # flurry
//!
//! A GPU compute-driven particle engine on wgpu. Every particle lives in GPU buffers: a
//! pool with a dead list and two alive lists, filled by an emit pass and advanced by a
//! simulate pass (explicit Euler) with workgroup-aggregated atomic appends; indirect
//! arguments are written on the GPU, and the draw pulls billboards straight from the alive
//! list. The CPU writes a few uniforms per frame and records commands; it never reads
//! particles back in the frame loop, never submits on the host's behalf and never blocks.
//!
//! ```no_run
//! use flurry::{Camera, EffectDesc, GpuContext, ParticleSystem};
//! # fn main() -> Result<(), flurry::Error> {
//! let gpu = GpuContext::new_headless()?;
//! let desc = flurry::Demo::Snow.effect(16_384);
//! let mut snow = ParticleSystem::new(&gpu.device, &gpu.queue, &desc, 16_384, 7)?;
//! let camera = Camera::look_at(glam::Vec3::new(0.0, 2.0, 10.0), glam::Vec3::ZERO, 16.0 / 9.0);
//! // each frame
//! snow.update(&gpu.queue, 1.0 / 60.0, &camera);
//! let mut encoder = gpu.device.create_command_encoder(&Default::default());
//! snow.encode_compute(&mut encoder, None);
//! // ... open a render pass on an Rgba16Float target and call snow.record_draw(&mut pass)
//! gpu.queue.submit([encoder.finish()]); // the host submits, never the library
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
pub mod system;
pub mod types;

pub use camera::Camera;
pub use demos::Demo;
pub use effect::EffectDesc;
pub use error::{Error, Result};
pub use gpu::GpuContext;
pub use pool::{ParticlePool, PoolSnapshot};
pub use renderer::{FrameTargets, ParticleRenderer, Scale, Settings, Targets, Upsample};
pub use system::{ParticleSystem, Stats, Step};
