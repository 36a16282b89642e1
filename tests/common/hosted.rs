//! A renderer drawing into the test host's offscreen target (its stand-in scene, depth
//! included) from one camera: what tests of the public API that add effects and step frames
//! share.

use flurry::{Camera, EffectDesc, EffectId, GpuContext, ParticleRenderer, Settings};

use super::host::HeadlessTarget;

pub struct Hosted {
    pub gpu: GpuContext,
    pub renderer: ParticleRenderer,
    pub target: HeadlessTarget,
    pub camera: Camera,
}

impl Hosted {
    /// A renderer of `settings` drawing `size` pixels, seen from `eye` looking at the
    /// origin; wgpu's errors fail the test.
    pub fn new(settings: Settings, (width, height): (u32, u32), eye: glam::Vec3) -> Self {
        let gpu = super::gpu();
        gpu.device
            .on_uncaptured_error(std::sync::Arc::new(|e| panic!("wgpu error: {e}")));
        let renderer = ParticleRenderer::new(&gpu.device, HeadlessTarget::TARGETS, settings);
        let target = HeadlessTarget::new(&gpu.device, width, height);
        let aspect = width as f32 / height as f32;
        Hosted {
            renderer: renderer.unwrap(),
            camera: Camera::look_at(eye, glam::Vec3::ZERO, aspect),
            gpu,
            target,
        }
    }

    /// `desc` added with a pool of `capacity` and `seed`.
    pub fn add(&mut self, desc: &EffectDesc, capacity: u32, seed: u32) -> EffectId {
        let gpu = &self.gpu;
        self.renderer
            .add_effect(&gpu.device, &gpu.queue, desc, capacity, seed)
            .unwrap_or_else(|e| panic!("{}: {e}", desc.name))
    }

    /// One frame of `dt` seconds: update, the host's scene, the particles over it, submitted.
    pub fn frame(&mut self, dt: f32) {
        super::host_frame(
            &self.gpu,
            &mut self.renderer,
            &self.target,
            &self.camera,
            dt,
        );
    }
}
