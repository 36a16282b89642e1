//! Programs built on the library: headless frames (PNG out) and the profiler loop.

pub mod headless;
pub mod sort_bench;

use std::time::Instant;

use crate::camera::Camera;
use crate::effect::EffectDesc;
use crate::error::{Invalid, Result};
use crate::gpu::GpuContext;
use crate::profiler::{Samples, Timing};
use crate::system::{ParticleSystem, Step};
use headless::HeadlessTarget;

/// A system, a camera and an offscreen target: everything one headless run needs.
pub struct Scene {
    pub system: ParticleSystem,
    pub target: HeadlessTarget,
    pub camera: Camera,
    pub background: [f64; 4],
}

/// Check a `--size` against the device.
pub fn check_size(gpu: &GpuContext, width: i64, height: i64) -> Result<(u32, u32)> {
    let max = gpu.device.limits().max_texture_dimension_2d as i64;
    if !(1..=max).contains(&width) || !(1..=max).contains(&height) {
        return Err(Invalid::new(
            "--size",
            format!("{width}x{height}"),
            format!("1..={max} in each dimension on {}", gpu.adapter_name()),
        )
        .into());
    }
    Ok((width as u32, height as u32))
}

impl Scene {
    pub fn new(
        gpu: &GpuContext,
        desc: &EffectDesc,
        capacity: u32,
        seed: u32,
        (width, height): (u32, u32),
        camera: impl FnOnce(f32) -> Camera,
        background: [f64; 4],
    ) -> Result<Self> {
        let system = ParticleSystem::new(&gpu.device, &gpu.queue, desc, capacity, seed)?;
        let target = HeadlessTarget::new(&gpu.device, width, height);
        let camera = camera(target.aspect());
        Ok(Scene {
            system,
            target,
            camera,
            background,
        })
    }

    /// A built-in demo's effect, camera and background.
    pub fn for_demo(
        gpu: &GpuContext,
        demo: crate::Demo,
        capacity: u32,
        seed: u32,
        size: (u32, u32),
    ) -> Result<Self> {
        let desc = demo.effect(capacity);
        Self::new(
            gpu,
            &desc,
            capacity,
            seed,
            size,
            |a| demo.camera(a),
            demo.background(),
        )
    }

    /// Record and submit one frame of `dt` seconds; `draw` adds the draw and tonemap passes.
    pub fn frame(&mut self, gpu: &GpuContext, dt: f32, draw: bool) {
        self.system.update(&gpu.queue, dt, &self.camera);
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        self.system.encode_compute(&mut encoder, None);
        if draw {
            self.target
                .encode_draw(&mut encoder, &self.system, self.background, None);
            self.target.encode_tonemap(&mut encoder, None);
        }
        gpu.queue.submit([encoder.finish()]);
    }

    /// Run `frames` frames for the profiler, collecting per-pass milliseconds.
    pub fn profile(
        &mut self,
        gpu: &GpuContext,
        frames: u32,
        dt: f32,
        timing: Timing,
    ) -> Result<Samples> {
        let mut samples = Samples::default();
        match timing {
            Timing::CpuSync => {
                for _ in 0..frames {
                    self.system.update(&gpu.queue, dt, &self.camera);
                    let mut total = 0.0;
                    for step in Step::ALL {
                        total += self.timed(gpu, &mut samples, step.name(), |s, e| {
                            crate::profiler::compute_pass(e, None, step.name(), |p| {
                                s.system.record_step(step, p)
                            })
                        })?;
                    }
                    total += self.timed(gpu, &mut samples, "draw", |s, e| {
                        s.target.encode_draw(e, &s.system, s.background, None)
                    })?;
                    total += self.timed(gpu, &mut samples, "tonemap", |s, e| {
                        s.target.encode_tonemap(e, None)
                    })?;
                    samples.add("frame", total);
                }
            }
            Timing::GpuTimestamps => {
                let mut profiler = crate::profiler::gpu_profiler(&gpu.device).ok_or_else(|| {
                    crate::error::Error::Readback("cannot create a GPU profiler".into())
                })?;
                let period = gpu.queue.get_timestamp_period();
                let drain = |profiler: &mut wgpu_profiler::GpuProfiler, samples: &mut Samples| {
                    while let Some(results) = profiler.process_finished_frame(period) {
                        samples.add_gpu_frame(&results);
                        let total: f64 = results
                            .iter()
                            .filter_map(|r| r.time.as_ref().map(|t| (t.end - t.start) * 1e3))
                            .sum();
                        samples.add("frame", total);
                    }
                };
                for _ in 0..frames {
                    self.system.update(&gpu.queue, dt, &self.camera);
                    let mut encoder = gpu.device.create_command_encoder(&Default::default());
                    self.system.encode_compute(&mut encoder, Some(&profiler));
                    self.target.encode_draw(
                        &mut encoder,
                        &self.system,
                        self.background,
                        Some(&profiler),
                    );
                    self.target.encode_tonemap(&mut encoder, Some(&profiler));
                    profiler.resolve_queries(&mut encoder);
                    gpu.queue.submit([encoder.finish()]);
                    profiler
                        .end_frame()
                        .map_err(|e| crate::error::Error::Readback(e.to_string()))?;
                    let _ = gpu.device.poll(wgpu::PollType::Poll);
                    drain(&mut profiler, &mut samples);
                }
                gpu.wait()?;
                drain(&mut profiler, &mut samples);
            }
        }
        Ok(samples)
    }

    /// Encode with `f`, submit alone, wait, and record the wall time under `name`.
    fn timed(
        &mut self,
        gpu: &GpuContext,
        samples: &mut Samples,
        name: &str,
        f: impl FnOnce(&Scene, &mut wgpu::CommandEncoder),
    ) -> Result<f64> {
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        f(self, &mut encoder);
        let start = Instant::now();
        gpu.queue.submit([encoder.finish()]);
        gpu.wait()?;
        let elapsed = start.elapsed();
        samples.add_timed(name, start, elapsed);
        Ok(elapsed.as_secs_f64() * 1e3)
    }
}
