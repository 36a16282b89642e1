//! One headless run: a renderer with one effect, a camera and an offscreen host, stepped a
//! frame at a time, read back or timed pass by pass.

use std::time::Instant;

use flurry::effect::EffectDesc;
use flurry::glam::Vec2;
use flurry::{
    wgpu, Camera, EffectId, GpuContext, Invalid, ParticleRenderer, Pass, PoolSnapshot, Settings,
    View,
};

use super::demos::Demo;
use super::error::{AppError, Result};
use super::headless::HeadlessTarget;
use super::projection::HostSetup;
use super::stage::Stage;
use super::timing::{Samples, Timing};

/// A renderer with one effect, a camera and an offscreen host: one headless run.
pub struct Scene {
    pub renderer: ParticleRenderer,
    /// The scene's effect.
    pub effect: EffectId,
    pub target: HeadlessTarget,
    pub camera: Camera,
    /// The projection's offset in host pixels (a temporal anti-aliasing host's jitter).
    pub jitter: Vec2,
    /// The host's clear colour (linear).
    pub background: [f64; 4],
    /// Where the host holds the effect at a time (seconds): set before every update (a
    /// swung sword); None leaves it where it is.
    pub motion: Option<fn(f64) -> flurry::glam::Mat4>,
    /// Seconds the scene has run.
    pub time: f64,
}

/// What a scene shows: an effect, its pool's capacity and random seed, the meshes its
/// emitters name as `MeshSource::Host(n)` and the images its ribbons name as `image: n`
/// (the n-th of them).
pub struct Subject<'a> {
    pub desc: &'a EffectDesc,
    pub capacity: u32,
    pub seed: u32,
    pub meshes: Vec<flurry::Mesh>,
    pub images: Vec<flurry::Image>,
}

impl<'a> From<(&'a EffectDesc, u32, u32)> for Subject<'a> {
    fn from((desc, capacity, seed): (&'a EffectDesc, u32, u32)) -> Self {
        Subject {
            desc,
            capacity,
            seed,
            meshes: Vec::new(),
            images: Vec::new(),
        }
    }
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

/// An error of adding an effect of `--particles` slots, naming the flag where the renderer
/// names its `capacity` argument (a pool too large for all-pairs gravity, or for ribbons).
pub fn particles_flag(e: flurry::Error) -> flurry::Error {
    match e {
        flurry::Error::Invalid(mut invalid) if invalid.field == "capacity" => {
            invalid.field = "--particles".into();
            flurry::Error::Invalid(invalid)
        }
        e => e,
    }
}

impl Scene {
    /// `desc` with `capacity` particles seen by `camera(aspect)` over a black background,
    /// in a standard host.
    pub fn new(
        gpu: &GpuContext,
        desc: &EffectDesc,
        capacity: u32,
        seed: u32,
        size: (u32, u32),
        camera: impl FnOnce(f32) -> Camera,
    ) -> Result<Self> {
        let subject = (desc, capacity, seed);
        Self::hosted(gpu, subject, size, camera, HostSetup::STANDARD)
    }

    /// `subject` (an effect, its capacity and seed, the meshes it names) seen by
    /// `camera(aspect)` in a host of `setup`'s depth convention and sample count.
    pub fn hosted<'a>(
        gpu: &GpuContext,
        subject: impl Into<Subject<'a>>,
        size: (u32, u32),
        camera: impl FnOnce(f32) -> Camera,
        setup: HostSetup,
    ) -> Result<Self> {
        let target = HeadlessTarget::of(&gpu.device, size, setup);
        Self::hosted_into(gpu, subject.into(), target, camera)
    }

    /// `subject` seen by `camera(aspect)` drawn into `target`.
    pub fn hosted_into(
        gpu: &GpuContext,
        subject: Subject<'_>,
        mut target: HeadlessTarget,
        camera: impl FnOnce(f32) -> Camera,
    ) -> Result<Self> {
        let Subject {
            desc,
            capacity,
            seed,
            meshes,
            images,
        } = subject;
        if let Some(crowd) = &desc.crowd {
            // a crowd walks a city: the host draws its buildings
            target
                .scene
                .set_city(&gpu.device, &crowd.map()?, crowd.ground);
        }
        // (the program's runs step a set number of frames from the effect's start: their
        // compiles happen on the thread that adds, as a tool's should)
        let settings = Settings {
            background_compile: false,
            ..Settings::default()
        };
        let mut renderer = ParticleRenderer::new(&gpu.device, target.targets(), settings)?;
        for mesh in meshes {
            renderer.add_mesh(&gpu.device, mesh)?;
        }
        for image in &images {
            renderer.add_image(&gpu.device, &gpu.queue, image)?;
        }
        // an effect file's images, by path
        let mut desc = desc.clone();
        let folder = std::path::Path::new("");
        renderer.load_images(&gpu.device, &gpu.queue, &mut desc, folder)?;
        let effect = renderer
            .add_effect(&gpu.device, &gpu.queue, &desc, capacity, seed)
            .map_err(particles_flag)?;
        let camera = camera(target.aspect());
        Ok(Scene::around(renderer, effect, target, camera))
    }

    /// A scene of a renderer the caller filled (`effect` one of its effects, the one the
    /// scene moves and reads back) drawing into `target`, seen by `camera`, over black.
    pub fn around(
        renderer: ParticleRenderer,
        effect: EffectId,
        target: HeadlessTarget,
        camera: Camera,
    ) -> Self {
        Scene {
            renderer,
            effect,
            camera,
            jitter: Vec2::ZERO,
            target,
            background: [0.0, 0.0, 0.0, 1.0],
            motion: None,
            time: 0.0,
        }
    }

    /// The host's view: its camera in its projection, jittered.
    pub fn view(&self) -> View {
        let projection = self.target.scene.setup.projection;
        projection.view(&self.camera, self.jitter, self.target.size())
    }

    /// A built-in demo's effect, camera and background in the empty scene.
    pub fn for_demo(
        gpu: &GpuContext,
        demo: Demo,
        capacity: u32,
        seed: u32,
        size: (u32, u32),
    ) -> Result<Self> {
        Self::for_demo_in(gpu, demo, Stage::Empty, capacity, seed, size)
    }

    /// A built-in demo on a host stage (`--scene`).
    pub fn for_demo_in(
        gpu: &GpuContext,
        demo: Demo,
        stage: Stage,
        capacity: u32,
        seed: u32,
        size: (u32, u32),
    ) -> Result<Self> {
        let desc = demo.effect_in(stage, capacity);
        Self::demo(
            gpu,
            demo,
            stage,
            (&desc, capacity, seed),
            (size, HostSetup::STANDARD),
        )
    }

    /// `desc` with `capacity` particles and `seed` shown as `demo` on `stage`: its camera,
    /// background, meshes and motion.
    pub fn demo(
        gpu: &GpuContext,
        demo: Demo,
        stage: Stage,
        subject: (&EffectDesc, u32, u32),
        (size, setup): ((u32, u32), HostSetup),
    ) -> Result<Self> {
        let target = HeadlessTarget::of(&gpu.device, size, setup);
        Self::demo_into(gpu, demo, stage, subject, target)
    }

    /// As [`Scene::demo`], drawn into `target`.
    pub fn demo_into(
        gpu: &GpuContext,
        demo: Demo,
        stage: Stage,
        (desc, capacity, seed): (&EffectDesc, u32, u32),
        target: HeadlessTarget,
    ) -> Result<Self> {
        let subject = Subject {
            desc,
            capacity,
            seed,
            meshes: demo.meshes(),
            images: demo.images(),
        };
        let camera = |a| demo.camera_in(stage, a);
        let mut scene = Self::hosted_into(gpu, subject, target, camera)?;
        scene.background = demo.background();
        scene.motion = demo.motion();
        stage.apply(&mut scene.target.scene);
        Ok(scene)
    }

    pub fn with_settings(mut self, settings: Settings) -> Self {
        self.renderer.set_settings(settings);
        self
    }

    /// The effect as the renderer has it.
    pub fn desc(&self) -> &EffectDesc {
        self.renderer
            .effect(self.effect)
            .expect("the scene's effect is never removed")
    }

    /// The effect's pool read back. Blocks.
    pub fn snapshot(&self, gpu: &GpuContext) -> Result<PoolSnapshot> {
        let snap = self
            .renderer
            .snapshot(&gpu.device, &gpu.queue, self.effect)?;
        Ok(snap)
    }

    /// The host's image read back. Blocks.
    pub fn image(&self, gpu: &GpuContext) -> Result<image::RgbaImage> {
        self.target.read_rgba(gpu)
    }

    fn update(&mut self, gpu: &GpuContext, dt: f32) -> Result<()> {
        self.time += dt as f64;
        if let Some(motion) = self.motion {
            self.renderer
                .set_transform(self.effect, motion(self.time))?;
        }
        let (size, view) = (self.target.size(), self.view());
        self.renderer
            .update(&gpu.device, &gpu.queue, dt, view, size)?;
        self.target.scene.update(&gpu.queue, view.view_proj());
        Ok(())
    }

    /// Advance `dt` seconds and record the host's scene and every particle pass but the
    /// composite into `encoder`: the host composites with `renderer.render` in a pass of
    /// its own (a UI toolkit's, where the scene's image is shown).
    pub fn prepare(
        &mut self,
        gpu: &GpuContext,
        encoder: &mut wgpu::CommandEncoder,
        dt: f32,
    ) -> Result<()> {
        self.update(gpu, dt)?;
        self.target.encode_scene(encoder, self.background, None);
        let frame = self.target.frame();
        self.renderer.prepare(&gpu.device, encoder, &frame)?;
        Ok(())
    }

    /// Targets of `size` from the next frame on (the host's scene kept), and the camera's
    /// aspect to match.
    pub fn resize(&mut self, device: &wgpu::Device, size: (u32, u32)) {
        self.target.resize(device, size);
        self.camera.aspect = self.target.aspect();
    }

    /// Record and submit one frame of `dt` seconds. Without `draw` only the host scene,
    /// the compute steps and the depth downsample run (what simulation and collision need),
    /// not the particle draw and composite.
    ///
    /// The scene's own targets always fit its renderer: an error here is a bug, so it panics
    /// with the reason.
    pub fn frame(&mut self, gpu: &GpuContext, dt: f32, draw: bool) {
        self.try_frame(gpu, dt, draw)
            .unwrap_or_else(|e| panic!("a frame of the scene: {e}"))
    }

    fn try_frame(&mut self, gpu: &GpuContext, dt: f32, draw: bool) -> Result<()> {
        self.update(gpu, dt)?;
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        let frame = self.target.frame();
        self.target
            .encode_scene(&mut encoder, self.background, None);
        for pass in self.renderer.passes() {
            let drawing = matches!(pass, Pass::Splat | Pass::Draw | Pass::Composite);
            if draw || !drawing {
                self.renderer
                    .encode_pass(&gpu.device, &mut encoder, &frame, pass)?;
            }
        }
        self.target.encode_finish(&mut encoder);
        gpu.queue.submit([encoder.finish()]);
        Ok(())
    }

    /// Run `frames` frames for the profiler, collecting per-pass milliseconds.
    pub fn profile(
        &mut self,
        gpu: &GpuContext,
        frames: u32,
        dt: f32,
        timing: Timing,
        mut progress: impl FnMut(u32),
    ) -> Result<Samples> {
        let mut samples = Samples::default();
        match timing {
            Timing::CpuSync => {
                for done in 0..frames {
                    self.profile_frame(gpu, dt, &mut samples)?;
                    progress(done + 1);
                }
            }
            Timing::GpuTimestamps => {
                self.profile_timestamps(gpu, frames, dt, &mut samples, progress)?;
            }
        }
        Ok(samples)
    }

    /// One frame, every pass submitted on its own and waited for, into `samples`.
    pub fn profile_frame(
        &mut self,
        gpu: &GpuContext,
        dt: f32,
        samples: &mut Samples,
    ) -> Result<()> {
        self.update(gpu, dt)?;
        let mut total = self.timed(gpu, samples, "host", |s, e| {
            s.target.encode_scene(e, s.background, None);
            Ok::<_, AppError>(())
        })?;
        for pass in self.renderer.passes() {
            total += self.timed(gpu, samples, pass.name(), |s, e| {
                let frame = s.target.frame();
                s.renderer.encode_pass(&gpu.device, e, &frame, pass)
            })?;
        }
        samples.add("frame", total);
        Ok(())
    }

    /// One submission per frame with a timestamp scope around every pass.
    fn profile_timestamps(
        &mut self,
        gpu: &GpuContext,
        frames: u32,
        dt: f32,
        samples: &mut Samples,
        mut progress: impl FnMut(u32),
    ) -> Result<()> {
        let mut profiler = super::timing::gpu_profiler(&gpu.device)
            .ok_or_else(|| AppError::Profiler("cannot create a GPU profiler".into()))?;
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
        for done in 0..frames {
            self.update(gpu, dt)?;
            let mut encoder = gpu.device.create_command_encoder(&Default::default());
            self.target
                .encode_scene(&mut encoder, self.background, Some(&profiler));
            let frame = self.target.frame();
            self.renderer
                .encode_profiled(&gpu.device, &mut encoder, &frame, &profiler)?;
            profiler.resolve_queries(&mut encoder);
            gpu.queue.submit([encoder.finish()]);
            profiler
                .end_frame()
                .map_err(|e| AppError::Profiler(e.to_string()))?;
            let _ = gpu.device.poll(wgpu::PollType::Poll);
            drain(&mut profiler, samples);
            progress(done + 1);
        }
        gpu.wait()?;
        drain(&mut profiler, samples);
        Ok(())
    }

    /// Encode with `f`, submit alone, wait, and record the wall time under `name`.
    fn timed<E>(
        &mut self,
        gpu: &GpuContext,
        samples: &mut Samples,
        name: &str,
        f: impl FnOnce(&mut Scene, &mut wgpu::CommandEncoder) -> std::result::Result<(), E>,
    ) -> Result<f64>
    where
        AppError: From<E>,
    {
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        f(self, &mut encoder)?;
        let start = Instant::now();
        gpu.queue.submit([encoder.finish()]);
        gpu.wait()?;
        let elapsed = start.elapsed();
        samples.add_timed(name, start, elapsed);
        Ok(elapsed.as_secs_f64() * 1e3)
    }
}
