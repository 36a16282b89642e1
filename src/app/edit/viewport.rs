//! The editor's viewport: the effect in a demo's host, drawn through egui-wgpu's paint
//! callback as any host draws flurry. The callback's prepare step advances the effect and
//! records the host's scene and flurry's `prepare` into egui's encoder; its paint step, in
//! egui's own render pass (no depth attachment; the viewport set to the callback's
//! rectangle), copies the scene's image in and composites the particles over it with
//! flurry's `render`.

use std::path::Path;

use eframe::egui_wgpu::{CallbackResources, CallbackTrait, ScreenDescriptor};
use flurry::effect::EffectDesc;
use flurry::{wgpu, EffectId, GpuContext};

use super::blit::Blit;
use crate::host::demos::Demo;
use crate::host::live_effect::images_found;
use crate::host::scene::Scene;
use crate::host::{AppError, HeadlessTarget};
use crate::orbit::OrbitController;

/// Seconds at most that an edited effect is run ahead to where the one it replaces was.
pub const CARRY_ON: f32 = 2.0;

/// What the viewport shows and how: the scene (its renderer, effect, camera and host), kept
/// in egui-wgpu's callback resources between frames.
pub struct Viewport {
    gpu: GpuContext,
    pub scene: Scene,
    /// The demo whose host shows the effect.
    demo: Demo,
    capacity: u32,
    seed: u32,
    blit: Blit,
    /// The scene's image, bound for the blit (made again when the viewport is resized).
    image: wgpu::BindGroup,
    /// Whether the effect's time runs.
    playing: bool,
    /// Run one frame, then hold again.
    step: bool,
    /// The edited effect while a worker thread builds its pipelines (a new kind), added
    /// paused at its start: the effect shown stays until it is ready.
    incoming: Option<EffectId>,
    /// The last failure of a frame or of showing an effect, for the status line.
    pub error: Option<String>,
    /// Whether the renderer times its passes (the adapter has timestamps).
    pub timed: bool,
}

/// What [`Viewport::frame`] needs: the viewport's size in pixels and the frame's seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FrameRequest {
    pub size: (u32, u32),
    pub dt: f32,
}

impl Viewport {
    /// `desc` (read from `file`, whose folder its image paths are relative to) with
    /// `capacity` particles and `seed`, in `demo`'s host at `size` pixels, drawn into a
    /// window of `format`.
    pub fn new(
        gpu: GpuContext,
        demo: Demo,
        (desc, file): (&EffectDesc, Option<&Path>),
        (capacity, seed): (u32, u32),
        (format, size): (wgpu::TextureFormat, (u32, u32)),
    ) -> Result<Self, AppError> {
        let target = HeadlessTarget::stored_as(&gpu.device, size, format);
        let found = shown(desc, file);
        let subject = (&found, capacity, seed);
        let stage = demo.default_stage();
        let mut scene = Scene::demo_into(&gpu, demo, stage, subject, target)?;
        // an edit that makes a new kind of effect compiles beside the frames; every variant
        // of the first one's kind is built now, so that an edit keeping its kind shows at once
        let settings = scene.renderer.settings();
        (scene.renderer).set_settings(flurry::Settings {
            background_compile: true,
            ..settings
        });
        scene.renderer.warm(&gpu.device, &[&found])?;
        let blit = Blit::new(&gpu.device, format);
        let image = blit.bind(&gpu.device, scene.target.frame().color);
        let mut viewport = Viewport {
            gpu,
            scene,
            demo,
            capacity,
            seed,
            blit,
            image,
            playing: true,
            step: false,
            incoming: None,
            error: None,
            timed: false,
        };
        viewport.configure(viewport.scene.effect)?;
        Ok(viewport)
    }

    /// Effect `id`'s settings as the demo's host gives them (`flurry demo`'s).
    fn configure(&mut self, id: EffectId) -> Result<(), AppError> {
        self.scene.renderer.set_lod(id, self.demo.lod())?;
        // pass times on adapters with timestamps (false elsewhere: the strip says so)
        self.timed = (self.scene.renderer).enable_profiling(&self.gpu.device, &self.gpu.queue);
        if !self.playing {
            self.scene.renderer.pause(id)?;
        }
        Ok(())
    }

    /// The effect shown from now on: `desc` as written in `file` (or nowhere yet), in a
    /// new pool. While playing it is run ahead to where the effect it replaces was (at
    /// most [`CARRY_ON`] seconds), so that an edit shows the effect going on as edited
    /// rather than from its start; held, it starts from its start.
    ///
    /// An edit that makes a new kind of effect is shown once a worker thread has built its
    /// pipelines ([`Viewport::compiling`]): the effect before it stays on screen meanwhile,
    /// and the editor's frames go on. An edit made during that wait replaces the one
    /// waiting.
    pub fn show(&mut self, desc: &EffectDesc, file: Option<&Path>) -> Result<(), AppError> {
        let mut found = shown(desc, file);
        let renderer = &mut self.scene.renderer;
        let (device, queue) = (&self.gpu.device, &self.gpu.queue);
        // the new effect first: one the renderer refuses leaves the old one showing
        renderer.load_images(device, queue, &mut found, Path::new(""))?;
        let id = renderer
            .add_effect(device, queue, &found, self.capacity, self.seed)
            .map_err(crate::host::scene::particles_flag)?;
        // held at its start until it replaces the one shown (nothing of it drawn before)
        renderer.pause(id)?;
        if let Some(superseded) = self.incoming.replace(id) {
            renderer.remove_effect(superseded);
        }
        self.take_incoming()
    }

    /// Whether an edited effect waits for its pipelines, the one before it shown meanwhile.
    pub fn compiling(&self) -> bool {
        self.incoming.is_some()
    }

    /// The waiting effect in place of the one shown, if its pipelines are built: run ahead
    /// to where the one shown was (see [`Viewport::show`]). One whose pipelines failed is
    /// dropped, and the error says why.
    fn take_incoming(&mut self) -> Result<(), AppError> {
        let Some(id) = self.incoming else {
            return Ok(());
        };
        let ready = self.scene.renderer.is_ready(id);
        if ready.as_ref().is_ok_and(|ready| !ready) {
            return Ok(());
        }
        self.incoming = None;
        ready?;
        let renderer = &mut self.scene.renderer;
        let before = renderer.time(self.scene.effect).unwrap_or(0.0) as f32;
        renderer.remove_effect(self.scene.effect);
        self.scene.effect = id;
        if self.playing {
            self.scene.renderer.play(id)?;
        }
        self.configure(id)?;
        let ahead = before.min(CARRY_ON);
        if !self.playing || ahead <= 0.0 {
            self.scene.time = 0.0;
            return Ok(());
        }
        let view = self.scene.view();
        let (device, queue) = (&self.gpu.device, &self.gpu.queue);
        let step = (ahead, 1.0 / 60.0);
        self.scene.renderer.prewarm(device, queue, id, step, view)?;
        Ok(())
    }

    /// Set the effect's parameters to these values (it goes on as it was).
    pub fn set_parameters(
        &mut self,
        values: &[(String, flurry::expr::Value)],
    ) -> Result<(), AppError> {
        // the edited effect waiting for its pipelines too: it was made before these values
        for id in [Some(self.scene.effect), self.incoming]
            .into_iter()
            .flatten()
        {
            for (name, value) in values {
                self.scene.renderer.set_parameter(id, name, *value)?;
            }
        }
        Ok(())
    }

    /// The effect's id in the renderer.
    pub fn effect(&self) -> EffectId {
        self.scene.effect
    }

    pub fn capacity(&self) -> u32 {
        self.capacity
    }

    /// The largest side a viewport's textures may have on the device.
    pub fn max_side(&self) -> u32 {
        self.gpu.device.limits().max_texture_dimension_2d
    }

    pub fn adapter(&self) -> String {
        self.gpu.adapter_name()
    }

    pub fn playing(&self) -> bool {
        self.playing
    }

    /// Run or hold the effect's time (the view stays live either way).
    pub fn set_playing(&mut self, playing: bool) -> Result<(), AppError> {
        let id = self.scene.effect;
        match playing {
            true => self.scene.renderer.play(id)?,
            false => self.scene.renderer.pause(id)?,
        }
        self.playing = playing;
        Ok(())
    }

    /// Run one frame of the held effect.
    pub fn step(&mut self) -> Result<(), AppError> {
        if !self.playing {
            self.scene.renderer.play(self.scene.effect)?;
            self.step = true;
        }
        Ok(())
    }

    /// The effect from its start again.
    pub fn restart(&mut self) -> Result<(), AppError> {
        let id = self.scene.effect;
        self.scene.renderer.restart(id)?;
        self.scene.time = 0.0;
        Ok(())
    }

    /// Turn the camera with an orbit controller.
    pub fn orbit(&mut self, turn: impl FnOnce(&mut OrbitController)) {
        let mut orbit = OrbitController::from_camera(&self.scene.camera);
        turn(&mut orbit);
        orbit.apply(&mut self.scene.camera);
    }

    /// The camera the demo starts with, at the viewport's aspect.
    pub fn reset_camera(&mut self) {
        let stage = self.demo.default_stage();
        self.scene.camera = self.demo.camera_in(stage, self.scene.target.aspect());
    }

    /// One frame: resized to `request.size` if it changed, advanced by `request.dt`,
    /// recorded into `encoder` up to the composite.
    pub fn frame(&mut self, encoder: &mut wgpu::CommandEncoder, request: FrameRequest) {
        // before the frame's update: the edited effect, if its pipelines are built
        if let Err(e) = self.take_incoming() {
            self.error = Some(e.to_string());
        }
        if request.size != self.scene.target.size() {
            self.scene.resize(&self.gpu.device, request.size);
            let image = self.scene.target.frame().color;
            self.image = self.blit.bind(&self.gpu.device, image);
        }
        if let Err(e) = self.scene.prepare(&self.gpu, encoder, request.dt) {
            self.error = Some(e.to_string());
        }
        if std::mem::take(&mut self.step) {
            if let Err(e) = self.scene.renderer.pause(self.scene.effect) {
                self.error = Some(e.to_string());
            }
        }
    }

    /// The scene's image, then the particles over it, in the pass's viewport.
    pub fn paint(&self, pass: &mut wgpu::RenderPass<'_>) {
        self.blit.record(pass, &self.image);
        self.scene.renderer.render(pass);
    }
}

/// `desc` as the renderer is given it: the images it names relative to `file`'s folder
/// named from the working directory.
fn shown(desc: &EffectDesc, file: Option<&Path>) -> EffectDesc {
    match file {
        Some(file) => images_found(desc.clone(), file),
        None => desc.clone(),
    }
}

/// The paint callback of one frame of the viewport.
pub struct ViewportCallback(pub FrameRequest);

impl CallbackTrait for ViewportCallback {
    fn prepare(
        &self,
        _device: &wgpu::Device,
        _queue: &wgpu::Queue,
        _screen: &ScreenDescriptor,
        encoder: &mut wgpu::CommandEncoder,
        resources: &mut CallbackResources,
    ) -> Vec<wgpu::CommandBuffer> {
        if let Some(viewport) = resources.get_mut::<Viewport>() {
            viewport.frame(encoder, self.0);
        }
        Vec::new()
    }

    fn paint(
        &self,
        _info: eframe::egui::PaintCallbackInfo,
        pass: &mut wgpu::RenderPass<'static>,
        resources: &CallbackResources,
    ) {
        if let Some(viewport) = resources.get::<Viewport>() {
            viewport.paint(pass);
        }
    }
}
