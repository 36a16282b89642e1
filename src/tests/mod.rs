//! GPU tests that need the library's insides: the simulation against its CPU twin, the
//! pool's lists and indirect arguments, the N-body kernel's accelerations, the pipelines
//! shared between effects. Everything a host can see is tested through the public API in
//! `tests/`.

mod batch;
mod compile_once;
mod dispatch;
mod doc_rules;
mod flock;
mod graph;
mod grid;
mod kill;
mod nbody;
mod pipelines;
mod pool;
mod random_effects;
#[path = "../../tests/common/rng.rs"]
pub(crate) mod rng;
mod totals;

use std::sync::Arc;

use crate::effect::{EffectDesc, EmitterDesc, Forces, Range, Shape};
use crate::gpu::GpuContext;
use crate::mesh::Meshes;
use crate::pipelines::Pipelines;
use crate::system::ParticleSystem;
use crate::Camera;

#[path = "../../tests/common/adapter.rs"]
mod adapter;
pub(crate) use adapter::gpu;

/// A renderer drawing into a 32 × 32 colour target of its own, without depth.
struct Hosted {
    renderer: crate::ParticleRenderer,
    view: wgpu::TextureView,
}

impl Hosted {
    fn new(gpu: &GpuContext) -> Self {
        Self::with_settings(gpu, blocking())
    }

    /// As [`Hosted::new`], the renderer made with `settings`.
    fn with_settings(gpu: &GpuContext, settings: crate::Settings) -> Self {
        let targets = crate::Targets::new(wgpu::TextureFormat::Rgba8UnormSrgb, None);
        let renderer = crate::ParticleRenderer::new(&gpu.device, targets, settings).unwrap();
        let usage = wgpu::TextureUsages::RENDER_ATTACHMENT;
        let format = targets.color_format;
        let color = crate::gpu::texture_2d(&gpu.device, "host color", (32, 32), format, usage);
        let view = color.create_view(&Default::default());
        Hosted { renderer, view }
    }

    /// Update by `dt` seen by `camera`, encode and submit one frame.
    fn frame(&mut self, gpu: &GpuContext, dt: f32, camera: Camera) {
        let encoder = self.record(gpu, dt, camera);
        gpu.queue.submit([encoder.finish()]);
    }

    /// Update by `dt` seen by `camera` and encode one frame, not submitted.
    fn record(&mut self, gpu: &GpuContext, dt: f32, camera: Camera) -> wgpu::CommandEncoder {
        let (device, queue) = (&gpu.device, &gpu.queue);
        self.renderer
            .update(device, queue, dt, camera, (32, 32))
            .unwrap();
        let mut encoder = device.create_command_encoder(&Default::default());
        let targets = crate::FrameTargets::new(&self.view, None);
        self.renderer
            .encode(device, &mut encoder, &targets)
            .unwrap();
        encoder
    }
}

/// The pipelines of a solo on `gpu` (compiled as its effects need them).
fn solo_pipelines(gpu: &GpuContext) -> Pipelines {
    let targets = crate::Targets::new(wgpu::TextureFormat::Rgba8UnormSrgb, None);
    Pipelines::new(&gpu.device, targets)
}

/// One effect simulated on its own, without a renderer: no depth to collide with, every
/// particle drawn (no splat).
struct Solo {
    gpu: GpuContext,
    pipelines: Arc<Pipelines>,
    meshes: Meshes,
    uniform_pages: crate::uniform_pages::UniformPages,
    system: ParticleSystem,
    /// Each frame's uniforms, copied in.
    uploads: std::sync::Mutex<crate::uploads::Uploads>,
}

impl Solo {
    fn new(desc: &EffectDesc, capacity: u32, seed: u32) -> Self {
        Solo::on(gpu(), desc, capacity, seed)
    }

    /// As [`Solo::new`] on `gpu`.
    fn on(gpu: GpuContext, desc: &EffectDesc, capacity: u32, seed: u32) -> Self {
        let pipelines = Arc::new(solo_pipelines(&gpu));
        Solo::sharing(gpu, &pipelines, desc, capacity, seed)
    }

    /// As [`Solo::on`], with pipelines other solos on `gpu` share ([`solo_pipelines`]):
    /// what they compiled is not compiled again.
    fn sharing(
        gpu: GpuContext,
        pipelines: &Arc<Pipelines>,
        desc: &EffectDesc,
        capacity: u32,
        seed: u32,
    ) -> Self {
        let pipelines = Arc::clone(pipelines);
        let meshes = Meshes::new(&gpu.device);
        let images = crate::image::Images::new(&gpu.device);
        let (device, queue) = (&gpu.device, &gpu.queue);
        let uploads = std::sync::Mutex::default();
        let assets = crate::system::Assets {
            meshes: &meshes,
            images: &images,
            arena: None,
            uploads: &uploads,
        };
        let mut uniform_pages = crate::uniform_pages::UniformPages::new(device);
        let slot = uniform_pages.slot(device);
        let sized = (capacity, seed);
        let effect = crate::CompiledEffect::new(desc).unwrap();
        let system =
            ParticleSystem::new(device, queue, &pipelines, assets, &effect, sized, slot).unwrap();
        // what its buffers start with, copied in now: the tests that drive its passes
        // directly (without a frame) find it there
        let mut uploads = uploads;
        uploads.get_mut().expect("not poisoned").write_init(queue);
        Solo {
            gpu,
            pipelines,
            meshes,
            uniform_pages,
            system,
            uploads,
        }
    }

    /// One frame of `dt` seconds seen by `camera`: update, record, submit.
    fn frame(&mut self, dt: f32, camera: &Camera) {
        let view = crate::View::from(camera).model().expect("a usable camera");
        let pages = &mut self.uniform_pages;
        self.system.update(pages, dt, &view, self.meshes.set());
        let mut encoder = self.gpu.device.create_command_encoder(&Default::default());
        let uploads = self.uploads.get_mut().expect("not poisoned");
        pages.flush(uploads);
        uploads.record((&self.gpu.device, &self.gpu.queue), &mut encoder);
        self.system.encode_compute(&self.pipelines, &mut encoder);
        self.gpu.queue.submit([encoder.finish()]);
    }

    fn snapshot(&self) -> crate::PoolSnapshot {
        let mut uploads = self.uploads.lock().expect("not poisoned");
        uploads.write_init(&self.gpu.queue);
        self.system
            .snapshot(&self.gpu.device, &self.gpu.queue)
            .unwrap()
    }
}

/// `count` particles born at t = 0 in `shape`, at rest, living 100 s.
fn held(shape: Shape, count: u32) -> EmitterDesc {
    EmitterDesc {
        shape,
        bursts: vec![crate::effect::Burst::once(0.0, count)],
        lifetime: Range::constant(100.0),
        size: Range::constant(0.02),
        ..Default::default()
    }
}

/// An effect of `emitters` with no forces.
fn still(name: &str, emitters: Vec<EmitterDesc>) -> EffectDesc {
    EffectDesc {
        name: name.into(),
        emitters,
        forces: Forces::NONE,
        ..Default::default()
    }
}

/// `effects/snow.ron` with its first fill sized to `capacity`, as the snow demo shows it.
fn snow(capacity: u32) -> EffectDesc {
    let mut e = EffectDesc::from_ron(include_str!("../../effects/snow.ron")).unwrap();
    e.emitters[0].bursts[0].count = capacity;
    e
}

/// Hosts keep the render node in their own resources, which many require to be shareable
/// between threads (an ECS resource, a render-graph node).
#[test]
fn the_render_node_and_its_types_are_send_and_sync() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<crate::ParticleRenderer>();
    send_sync::<crate::EffectDesc>();
    send_sync::<crate::CompiledEffect>();
    send_sync::<crate::PoolSnapshot>();
    send_sync::<crate::Error>();
    send_sync::<GpuContext>();
}

/// The settings of a unit test's renderer: the defaults, compiling on the test's thread, so
/// that an effect starts at the frame it is added.
pub(crate) fn blocking() -> crate::Settings {
    crate::Settings {
        background_compile: false,
        ..crate::Settings::default()
    }
}
