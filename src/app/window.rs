//! Windowed demos (winit): the renderer composited onto a window's surface, with an orbit
//! and fly camera.
//!
//! Mouse: drag to rotate, wheel to zoom. Keys: W/A/S/D/Q/E fly, Space pause (the effect's
//! `pause`; . then steps one frame), R reset, 1/2/4 particle-target scale 1, 1/2, 1/4, O sort
//! on/off, U nearest-depth/bilinear upsampling, I explicit/symplectic Euler (resets), F fire
//! (the gun demo), Esc quit. The title shows frames per second (and with P the per-pass GPU
//! times) once a second.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Instant;

use winit::application::ApplicationHandler;
use winit::event::{ElementState, MouseButton, MouseScrollDelta, WindowEvent};
use winit::event_loop::{ActiveEventLoop, EventLoop};
use winit::keyboard::{KeyCode, PhysicalKey};
use winit::window::{Window, WindowId};

use flurry::effect::{EffectDesc, Integrator};
use flurry::{wgpu, Camera, EffectId, FrameTargets, GpuContext, ParticleRenderer};

use crate::host::post::{Post, HDR_FORMAT};
use flurry::{Scale, Settings, Targets, Upsample};

use crate::host::demos::{self, Demo};
use crate::host::headless::host_depth;
use crate::host::live_effect::{LiveEffect, Reload};
use crate::host::stage::{HostScene, Stage, HOST_DEPTH_FORMAT};
use crate::host::timing::{gpu_profiler, Samples};
use crate::host::{AppError, HostSetup, Result};
use crate::orbit::OrbitController;
use crate::pipeline_cache_file::CacheFile;

/// What a windowed demo shows.
#[derive(Clone, Debug)]
pub struct WindowOptions {
    pub demo: Demo,
    pub stage: Stage,
    pub capacity: u32,
    pub seed: u32,
    pub settings: Settings,
    /// Fixed time step; real time when absent.
    pub dt: Option<f32>,
    /// Simulate steps per frame.
    pub substeps: u32,
    /// The effect's level of detail.
    pub lod: Option<flurry::Lod>,
    /// Galaxies in the galaxy demo (`--bodies`); its default when absent.
    pub galaxies: Option<u32>,
    pub size: (u32, u32),
    /// Present at the display's refresh (`--vsync on`, the default) or at once.
    pub vsync: bool,
    /// The `--param`s, set on every effect the window adds.
    pub params: Vec<(String, String)>,
    /// Draw in half floats and finish each frame with a bloom and a filmic tonemap.
    pub hdr: bool,
    /// The effect's time scale (`--time-scale`).
    pub time_scale: f32,
}

/// What a key asks of a windowed demo beyond the settings it changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    None,
    /// Rebuild the effect (R).
    Reset,
    /// Sorting on/off, then rebuild (O).
    ToggleSort,
    /// Explicit/symplectic Euler, then rebuild (I).
    ToggleIntegrator,
    /// Per-pass GPU times in the title on/off (P).
    ToggleProfiler,
}

/// The keyboard state of a windowed demo, apart from the window and the GPU: held keys,
/// pause, and the renderer settings the keys change.
#[derive(Clone, Debug, Default)]
pub struct Controls {
    keys: HashSet<KeyCode>,
    pub paused: bool,
    /// A single step asked for while paused (.), not taken yet.
    pub step: bool,
}

impl Controls {
    /// A key went down; repeats of a held key do nothing.
    pub fn press(&mut self, code: KeyCode, settings: &mut Settings) -> Action {
        if !self.keys.insert(code) {
            return Action::None;
        }
        match code {
            KeyCode::Space => self.paused = !self.paused,
            KeyCode::Period => self.step = self.paused,
            KeyCode::Digit1 => settings.scale = Scale::Full,
            KeyCode::Digit2 => settings.scale = Scale::Half,
            KeyCode::Digit4 => settings.scale = Scale::Quarter,
            KeyCode::KeyU => {
                settings.upsample = match settings.upsample {
                    Upsample::NearestDepth => Upsample::Bilinear,
                    Upsample::Bilinear => Upsample::NearestDepth,
                }
            }
            KeyCode::KeyR => return Action::Reset,
            KeyCode::KeyO => return Action::ToggleSort,
            KeyCode::KeyI => return Action::ToggleIntegrator,
            KeyCode::KeyP => return Action::ToggleProfiler,
            _ => {}
        }
        Action::None
    }

    /// Whether `code` is held down.
    pub fn held(&self, code: KeyCode) -> bool {
        self.keys.contains(&code)
    }

    pub fn release(&mut self, code: KeyCode) {
        self.keys.remove(&code);
    }

    /// (forward, right, up) from the held W/S, D/A, E/Q keys, each −1, 0 or 1.
    pub fn fly_axes(&self) -> (f32, f32, f32) {
        let axis = |plus: KeyCode, minus: KeyCode| {
            self.keys.contains(&plus) as i32 as f32 - self.keys.contains(&minus) as i32 as f32
        };
        (
            axis(KeyCode::KeyW, KeyCode::KeyS),
            axis(KeyCode::KeyD, KeyCode::KeyA),
            axis(KeyCode::KeyE, KeyCode::KeyQ),
        )
    }
}

/// Why no window could be opened (the caller falls back to headless).
#[derive(Debug)]
pub struct NoDisplay(pub String);

/// Open a window and run the demo until it is closed. `Err(Ok(NoDisplay))` when this
/// machine has no display to open a window on. `live` replaces the demo's own effect (an
/// `--effect` file), reloaded whenever the file changes.
pub fn run(
    options: WindowOptions,
    live: Option<LiveEffect>,
) -> std::result::Result<(), std::result::Result<NoDisplay, AppError>> {
    let event_loop = EventLoop::new().map_err(|e| Ok(NoDisplay(e.to_string())))?;
    let mut app = App {
        options,
        live,
        polled: Instant::now(),
        state: None,
        error: None,
    };
    event_loop
        .run_app(&mut app)
        .map_err(|e| Err(AppError::Window(format!("event loop: {e}"))))?;
    match app.error {
        Some(e) => Err(Err(e)),
        None => Ok(()),
    }
}

struct App {
    options: WindowOptions,
    /// The `--effect` file, watched for edits.
    live: Option<LiveEffect>,
    /// When the file was last looked at (four times a second).
    polled: Instant,
    state: Option<State>,
    error: Option<AppError>,
}

struct State {
    window: Arc<Window>,
    surface: wgpu::Surface<'static>,
    config: wgpu::SurfaceConfiguration,
    gpu: GpuContext,
    renderer: ParticleRenderer,
    /// Seconds simulated (where the demo holds a moving effect).
    time: f64,
    /// Where the renderer's pipeline cache is kept between runs.
    cache: Option<CacheFile>,
    /// The demo's effect in `renderer` (none before the first reset).
    effect_id: Option<EffectId>,
    /// The effect it replaces, shown until it is ready.
    outgoing: Option<EffectId>,
    host: HostScene,
    depth: wgpu::TextureView,
    /// HDR: the half-float image the scene and the particles are drawn into, and the bloom
    /// and tonemap that finish it onto the surface.
    hdr: Option<(wgpu::TextureView, Post)>,
    camera: Camera,
    orbit: OrbitController,
    sort: Option<bool>,
    /// Integrator override (I toggles explicit / symplectic Euler).
    integrator: Option<Integrator>,
    controls: Controls,
    /// The `--effect` file shown instead of the demo's effect.
    effect: Option<EffectDesc>,
    /// What the last reload of the file said, shown first in the title until the next.
    notice: Option<String>,
    dragging: bool,
    cursor: Option<(f64, f64)>,
    last: Instant,
    title_at: Instant,
    frames: u32,
    /// The longest time between two frames since the title last changed, seconds (a hitch
    /// shows there).
    longest: f64,
    profiler: Option<wgpu_profiler::GpuProfiler>,
    samples: Samples,
}

fn depth_view(device: &wgpu::Device, config: &wgpu::SurfaceConfiguration) -> wgpu::TextureView {
    host_depth(device, (config.width, config.height), 1).create_view(&Default::default())
}

/// The half-float image of a window of `config`'s size and its finishing onto the surface.
fn hdr_image(
    device: &wgpu::Device,
    config: &wgpu::SurfaceConfiguration,
) -> (wgpu::TextureView, Post) {
    use wgpu::TextureUsages as U;
    let size = (config.width, config.height);
    let usage = U::RENDER_ATTACHMENT | U::TEXTURE_BINDING;
    let image = crate::host::headless::texture(device, "window hdr", size, HDR_FORMAT, usage);
    let view = image.create_view(&Default::default());
    let post = Post::new(device, &view, size, config.format);
    (view, post)
}

impl State {
    fn new(
        event_loop: &ActiveEventLoop,
        options: &WindowOptions,
        effect: Option<EffectDesc>,
    ) -> Result<Self> {
        let attributes = Window::default_attributes()
            .with_title(format!("flurry — {}", options.demo.name()))
            .with_inner_size(winit::dpi::PhysicalSize::new(
                options.size.0,
                options.size.1,
            ));
        let window = Arc::new(
            event_loop
                .create_window(attributes)
                .map_err(|e| AppError::Window(format!("cannot open a window: {e}")))?,
        );
        let instance = wgpu::Instance::new(GpuContext::instance_from_env(
            wgpu::InstanceDescriptor::new_with_display_handle(Box::new(
                event_loop.owned_display_handle(),
            )),
        ));
        let surface = instance
            .create_surface(window.clone())
            .map_err(|e| AppError::Window(format!("cannot create a surface: {e}")))?;
        let wanted = std::env::var("FLURRY_ADAPTER")
            .ok()
            .filter(|s| !s.is_empty());
        let gpu = GpuContext::with_instance(instance, wanted.as_deref(), Some(&surface))?;
        let size = window.inner_size();
        let mut config = surface
            .get_default_config(&gpu.adapter, size.width.max(1), size.height.max(1))
            .ok_or_else(|| {
                AppError::Window("the surface cannot be used with this adapter".into())
            })?;
        let caps = surface.get_capabilities(&gpu.adapter);
        if let Some(srgb) = caps.formats.iter().find(|f| f.is_srgb()) {
            config.format = *srgb;
        }
        config.present_mode = if options.vsync {
            wgpu::PresentMode::AutoVsync
        } else {
            wgpu::PresentMode::AutoNoVsync
        };
        surface.configure(&gpu.device, &config);
        let aspect = config.width as f32 / config.height as f32;
        let camera = match options.demo {
            // in a window the viewer is the shooter
            Demo::Gun => demos::gun::player(aspect),
            _ => options.demo.camera_in(options.stage, aspect),
        };
        let color_format = match options.hdr {
            true => HDR_FORMAT,
            false => config.format,
        };
        let setup = HostSetup {
            hdr: options.hdr,
            ..HostSetup::STANDARD
        };
        let mut host = HostScene::new(&gpu.device, color_format, setup);
        let hdr = options.hdr.then(|| hdr_image(&gpu.device, &config));
        options.stage.apply(&mut host);
        let depth = depth_view(&gpu.device, &config);
        let targets = Targets::new(color_format, Some(HOST_DEPTH_FORMAT));
        // a new kind of effect (R, O, I, a reload) compiles beside the frames, the one
        // before it shown until it is ready
        let settings = flurry::Settings {
            background_compile: true,
            ..options.settings
        };
        let mut renderer = ParticleRenderer::new(&gpu.device, targets, settings)?;
        // what the driver compiled in the last run, where it keeps a pipeline cache
        let cache = CacheFile::for_adapter(&gpu.adapter.get_info());
        if let Some(note) = cache
            .as_ref()
            .and_then(|c| c.seed(&mut renderer, &gpu.device))
        {
            eprintln!("{note}");
        }
        // the demo's meshes (the sword's blade) and images before any effect names them
        for mesh in options.demo.meshes() {
            renderer.add_mesh(&gpu.device, mesh)?;
        }
        for image in options.demo.images() {
            renderer.add_image(&gpu.device, &gpu.queue, &image)?;
        }
        let mut state = State {
            renderer,
            cache,
            time: 0.0,
            effect_id: None,
            outgoing: None,
            window,
            surface,
            config,
            host,
            depth,
            hdr,
            orbit: OrbitController::from_camera(&camera),
            camera,
            sort: None,
            integrator: None,
            controls: Controls::default(),
            effect,
            dragging: false,
            cursor: None,
            last: Instant::now(),
            title_at: Instant::now(),
            notice: None,
            frames: 0,
            longest: 0.0,
            profiler: None,
            samples: Samples::default(),
            gpu,
        };
        state.reset(options)?;
        Ok(state)
    }

    /// A fresh effect (R, or after sort on/off): the old one removed, the new one added to
    /// the same renderer, so only a variant it has not compiled yet is compiled.
    fn reset(&mut self, options: &WindowOptions) -> Result<()> {
        let mut desc = match (&self.effect, options.demo, options.galaxies) {
            (Some(file), _, _) => file.clone(),
            // the window's gun fires while F is held, not on a schedule
            (None, Demo::Gun, _) => demos::gun::effect(&self.camera, false),
            (None, Demo::Galaxy, Some(m)) => demos::galaxy::effect_with(options.capacity, m),
            (None, _, _) => options.demo.effect_in(options.stage, options.capacity),
        };
        desc.sort = self.sort;
        if let Some(integrator) = self.integrator {
            desc.integrator = integrator;
        }
        // (the one before stays until the new one is ready; one that never got there goes)
        if let Some(old) = self.effect_id.take() {
            if let Some(older) = self.outgoing.replace(old) {
                self.renderer.remove_effect(older);
            }
        }
        let (gpu, capacity) = (&self.gpu, options.capacity);
        // an effect file's images, by path (each file loaded once)
        let folder = std::path::Path::new("");
        self.renderer
            .load_images(&gpu.device, &gpu.queue, &mut desc, folder)?;
        let id = self
            .renderer
            .add_effect(&gpu.device, &gpu.queue, &desc, capacity, options.seed)
            .map_err(crate::host::scene::particles_flag)?;
        self.effect_id = Some(id);
        self.renderer.set_substeps(options.substeps)?;
        self.renderer.set_time_scale(id, options.time_scale)?;
        self.renderer.set_lod(id, options.lod)?;
        crate::cli::set_params(&mut self.renderer, id, &options.params)
    }

    /// Look at the `--effect` file: a good edit replaces the effect (its pool starts
    /// afresh, the pipelines stay); a bad one is said on stderr and in the title, and the
    /// last good effect keeps running.
    fn reload(&mut self, live: &mut LiveEffect, options: &WindowOptions) -> Result<()> {
        let file = live.path().display().to_string();
        match live.poll() {
            Reload::Unchanged => Ok(()),
            Reload::Reloaded => {
                eprintln!("reloaded {file}");
                self.notice = Some(format!("reloaded {file}"));
                self.effect = Some(live.good().clone());
                self.title_at = Instant::now() - std::time::Duration::from_secs(2);
                match self.reset(options) {
                    // an edit that drops or retypes a `--param`'s parameter: the new effect
                    // runs with its defaults, and the window says why
                    Err(AppError::Flurry(flurry::Error::Invalid(why)))
                        if why.field == "--param" =>
                    {
                        eprintln!("error: {why} (the reloaded effect runs with its defaults)");
                        self.notice = Some(format!("{why} (running with its defaults)"));
                        Ok(())
                    }
                    other => other,
                }
            }
            Reload::Refused(why) => {
                eprintln!("error: {why} (still showing the last good effect)");
                // one line in the title: the problems after each other
                let line = why.replace(":\n  - ", ": ").replace("\n  - ", "; ");
                self.notice = Some(format!("{line} (still showing the last good effect)"));
                self.window
                    .set_title(self.notice.as_deref().unwrap_or_default());
                Ok(())
            }
        }
    }

    /// The demo's effect as it is now.
    fn desc(&self) -> Option<&EffectDesc> {
        self.effect_id.and_then(|id| self.renderer.effect(id))
    }

    fn resize(&mut self, width: u32, height: u32) {
        if width == 0 || height == 0 {
            return; // minimised: keep the old configuration, draw nothing
        }
        self.config.width = width;
        self.config.height = height;
        self.surface.configure(&self.gpu.device, &self.config);
        self.depth = depth_view(&self.gpu.device, &self.config);
        if self.hdr.is_some() {
            self.hdr = Some(hdr_image(&self.gpu.device, &self.config));
        }
    }

    fn key(&mut self, code: KeyCode, options: &WindowOptions) -> Result<()> {
        let mut settings = self.renderer.settings();
        match self.controls.press(code, &mut settings) {
            Action::None => {}
            Action::Reset => self.reset(options)?,
            Action::ToggleSort => {
                let sorted = self.desc().is_some_and(EffectDesc::sorts);
                self.sort = Some(!sorted);
                self.reset(options)?;
            }
            Action::ToggleIntegrator => {
                let now = self.desc().map(|d| d.integrator);
                self.integrator = Some(match now {
                    Some(Integrator::SymplecticEuler) => Integrator::ExplicitEuler,
                    _ => Integrator::SymplecticEuler,
                });
                self.reset(options)?;
            }
            Action::ToggleProfiler => {
                self.profiler = match self.profiler.take() {
                    Some(_) => None,
                    None => gpu_profiler(&self.gpu.device),
                };
                self.samples = Samples::default();
            }
        }
        self.renderer.set_settings(settings);
        Ok(())
    }

    fn fly(&mut self, dt: f32) {
        let (forward, right, up) = self.controls.fly_axes();
        self.orbit.fly(forward, right, up, dt);
    }

    fn render(&mut self, options: &WindowOptions) -> Result<()> {
        let now = Instant::now();
        let between = (now - self.last).as_secs_f64();
        self.longest = self.longest.max(between);
        let real = (between as f32).clamp(1e-4, 0.1);
        self.last = now;
        self.fly(real);
        self.orbit.apply(&mut self.camera);
        self.camera.aspect = self.config.width as f32 / self.config.height as f32;
        // paused, the effect is (nothing of it simulated) and the demo's motion too; a
        // single step (.) plays one frame of the fixed step, or of 1/60 s
        let stepping = std::mem::take(&mut self.controls.step);
        let held = self.controls.paused && !stepping;
        let dt = match (held, stepping) {
            (true, _) => 0.0,
            (false, true) => options.dt.unwrap_or(1.0 / 60.0),
            (false, false) => options.dt.unwrap_or(real),
        };
        if let Some(id) = self.effect_id {
            match held {
                true => self.renderer.pause(id)?,
                false => self.renderer.play(id)?,
            }
            if self.outgoing.is_some() && self.renderer.is_ready(id)? {
                let old = self.outgoing.take().expect("checked");
                self.renderer.remove_effect(old);
            }
        }
        if options.demo == Demo::Gun && self.effect.is_none() {
            // the gun follows the camera and fires while F is held
            let (shape, velocity) = demos::gun::muzzle(&self.camera);
            let rate = if self.controls.held(KeyCode::KeyF) {
                demos::gun::RATE
            } else {
                0.0
            };
            if let Some(id) = self.effect_id {
                self.renderer.set_emitter(id, 0, shape, velocity, rate)?;
            }
        }
        self.time += dt as f64;
        if let (Some(motion), Some(id)) = (options.demo.motion(), self.effect_id) {
            // the demo moves its effect (the swung sword)
            self.renderer.set_transform(id, motion(self.time))?;
        }
        let size = (self.config.width, self.config.height);
        let gpu = &self.gpu;
        self.renderer
            .update(&gpu.device, &gpu.queue, dt, self.camera, size)?;
        self.host.update(&gpu.queue, self.camera.view_proj());
        let frame = match self.surface.get_current_texture() {
            wgpu::CurrentSurfaceTexture::Success(f) => f,
            wgpu::CurrentSurfaceTexture::Suboptimal(f) => {
                self.surface.configure(&gpu.device, &self.config);
                f
            }
            wgpu::CurrentSurfaceTexture::Timeout | wgpu::CurrentSurfaceTexture::Occluded => {
                return Ok(());
            }
            wgpu::CurrentSurfaceTexture::Outdated => {
                self.surface.configure(&gpu.device, &self.config);
                return Ok(());
            }
            wgpu::CurrentSurfaceTexture::Lost => {
                self.surface = gpu
                    .instance
                    .create_surface(self.window.clone())
                    .map_err(|e| AppError::Window(format!("cannot recreate the surface: {e}")))?;
                self.surface.configure(&gpu.device, &self.config);
                return Ok(());
            }
            wgpu::CurrentSurfaceTexture::Validation => {
                return Err(AppError::Window("surface validation error".into()));
            }
        };
        let surface = frame.texture.create_view(&Default::default());
        // HDR: drawn into the half-float image, finished onto the surface below
        let view = self.hdr.as_ref().map_or(&surface, |(image, _)| image);
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        let profiler = self.profiler.as_ref();
        self.host.encode(
            &mut encoder,
            (view, &self.depth),
            options.demo.background(),
            profiler,
        );
        let targets = FrameTargets::new(view, Some(&self.depth));
        match profiler {
            Some(p) => self
                .renderer
                .encode_profiled(&gpu.device, &mut encoder, &targets, p)?,
            None => self.renderer.encode(&gpu.device, &mut encoder, &targets)?,
        }
        if let Some((_, post)) = &self.hdr {
            post.encode(&mut encoder, &surface);
        }
        if let Some(p) = self.profiler.as_mut() {
            p.resolve_queries(&mut encoder);
        }
        gpu.queue.submit([encoder.finish()]);
        gpu.queue.present(frame);
        if let Some(p) = self.profiler.as_mut() {
            let _ = p.end_frame();
            while let Some(results) = p.process_finished_frame(gpu.queue.get_timestamp_period()) {
                self.samples.add_gpu_frame(&results);
            }
        }
        self.frames += 1;
        self.title(options);
        Ok(())
    }

    /// Frames per second (and per-pass GPU times) in the title, once a second.
    fn title(&mut self, options: &WindowOptions) {
        let elapsed = self.title_at.elapsed().as_secs_f64();
        if elapsed < 1.0 {
            return;
        }
        let s = self.renderer.settings();
        let time = self.effect_id.and_then(|id| self.renderer.time(id));
        let integrator = self.desc().map(|d| format!("{:?}", d.integrator));
        let compiling = self
            .effect_id
            .is_some_and(|id| !self.renderer.is_ready(id).unwrap_or(true));
        let notice = self
            .notice
            .as_deref()
            .map(|n| format!("{n} — "))
            .unwrap_or_default()
            + if compiling {
                "compiling its pipelines — "
            } else {
                ""
            };
        let mut title = format!(
            "{notice}flurry — {} — {} particles — t {:.2} — {} — {:.1} fps (longest frame {:.0} ms) — scale {} — {}{}",
            options.demo.name(),
            options.capacity,
            time.unwrap_or(0.0),
            integrator.unwrap_or_default(),
            self.frames as f64 / elapsed,
            self.longest * 1e3,
            s.scale.value(),
            if self.desc().is_some_and(EffectDesc::sorts) {
                "sorted"
            } else {
                "unsorted"
            },
            if self.controls.paused {
                " — paused"
            } else {
                ""
            },
        );
        for (pass, median, _, _) in self.samples.summary() {
            title.push_str(&format!(" | {pass} {median:.2} ms"));
        }
        self.window.set_title(&title);
        self.samples = Samples::default();
        self.frames = 0;
        self.longest = 0.0;
        self.title_at = Instant::now();
    }
}

impl State {
    /// Keep what the driver compiled for the next run (a note where it cannot be).
    fn store_cache(&self) {
        let note = self.cache.as_ref().and_then(|c| c.store(&self.renderer));
        if let Some(note) = note {
            eprintln!("{note}");
        }
    }
}

impl App {
    fn fail(&mut self, event_loop: &ActiveEventLoop, e: AppError) {
        self.error = Some(e);
        event_loop.exit();
    }
}

impl ApplicationHandler for App {
    fn exiting(&mut self, _: &ActiveEventLoop) {
        if let Some(state) = &self.state {
            state.store_cache();
        }
    }

    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.state.is_some() {
            return;
        }
        let effect = self.live.as_ref().map(|l| l.good().clone());
        match State::new(event_loop, &self.options, effect) {
            Ok(state) => {
                state.window.request_redraw();
                self.state = Some(state);
            }
            Err(e) => self.fail(event_loop, e),
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _: WindowId, event: WindowEvent) {
        let options = self.options.clone();
        let Some(state) = self.state.as_mut() else {
            return;
        };
        let result = match event {
            WindowEvent::CloseRequested => {
                event_loop.exit();
                Ok(())
            }
            WindowEvent::Resized(size) => {
                state.resize(size.width, size.height);
                Ok(())
            }
            WindowEvent::RedrawRequested => {
                if let Some(live) = self
                    .live
                    .as_mut()
                    .filter(|_| self.polled.elapsed().as_secs_f32() > 0.25)
                {
                    self.polled = Instant::now();
                    if let Err(e) = state.reload(live, &options) {
                        return self.fail(event_loop, e);
                    }
                }
                let r = if state.config.width > 0 && state.window.inner_size().width > 0 {
                    state.render(&options)
                } else {
                    Ok(())
                };
                state.window.request_redraw();
                r
            }
            WindowEvent::KeyboardInput { event, .. } => match event.physical_key {
                PhysicalKey::Code(KeyCode::Escape) => {
                    event_loop.exit();
                    Ok(())
                }
                PhysicalKey::Code(code) => {
                    if event.state == ElementState::Pressed {
                        state.key(code, &options)
                    } else {
                        state.controls.release(code);
                        Ok(())
                    }
                }
                _ => Ok(()),
            },
            WindowEvent::MouseInput {
                state: s,
                button: MouseButton::Left,
                ..
            } => {
                state.dragging = s == ElementState::Pressed;
                Ok(())
            }
            WindowEvent::CursorMoved { position, .. } => {
                if let (true, Some((x, y))) = (state.dragging, state.cursor) {
                    state
                        .orbit
                        .rotate((position.x - x) as f32, (position.y - y) as f32);
                }
                state.cursor = Some((position.x, position.y));
                Ok(())
            }
            WindowEvent::MouseWheel { delta, .. } => {
                let steps = match delta {
                    MouseScrollDelta::LineDelta(_, y) => y,
                    MouseScrollDelta::PixelDelta(p) => p.y as f32 / 40.0,
                };
                state.orbit.zoom(steps);
                Ok(())
            }
            _ => Ok(()),
        };
        if let Err(e) = result {
            self.fail(event_loop, e);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_change_settings_once_per_press() {
        let mut c = Controls::default();
        let mut s = Settings::default();
        assert_eq!(c.press(KeyCode::Digit4, &mut s), Action::None);
        assert_eq!(s.scale, Scale::Quarter);
        c.release(KeyCode::Digit4);
        c.press(KeyCode::Digit1, &mut s);
        assert_eq!(s.scale, Scale::Full);
        let before = s.upsample;
        c.press(KeyCode::KeyU, &mut s);
        assert_ne!(s.upsample, before);
        // a held key repeating does not toggle again
        c.press(KeyCode::KeyU, &mut s);
        assert_ne!(s.upsample, before);
        c.press(KeyCode::Period, &mut s);
        assert!(!c.step, "a step only while paused");
        c.release(KeyCode::Period);
        c.press(KeyCode::Space, &mut s);
        assert!(c.paused);
        c.press(KeyCode::Period, &mut s);
        assert!(c.step, "paused, . asks for one step");
        c.release(KeyCode::Space);
        c.press(KeyCode::Space, &mut s);
        assert!(!c.paused);
        assert_eq!(c.press(KeyCode::KeyR, &mut s), Action::Reset);
        assert_eq!(c.press(KeyCode::KeyO, &mut s), Action::ToggleSort);
        assert_eq!(c.press(KeyCode::KeyI, &mut s), Action::ToggleIntegrator);
        assert_eq!(c.press(KeyCode::KeyP, &mut s), Action::ToggleProfiler);
    }

    #[test]
    fn held_keys_fly() {
        let mut c = Controls::default();
        let mut s = Settings::default();
        c.press(KeyCode::KeyW, &mut s);
        c.press(KeyCode::KeyA, &mut s);
        assert_eq!(c.fly_axes(), (1.0, -1.0, 0.0));
        c.press(KeyCode::KeyS, &mut s);
        assert_eq!(c.fly_axes(), (0.0, -1.0, 0.0));
        c.release(KeyCode::KeyW);
        c.release(KeyCode::KeyS);
        c.release(KeyCode::KeyA);
        c.press(KeyCode::KeyE, &mut s);
        assert_eq!(c.fly_axes(), (0.0, 0.0, 1.0));
    }
}
