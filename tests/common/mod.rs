//! Shared helpers of the GPU tests: an adapter or a failure that says what to install, the
//! program's host (demos, stand-in scene, offscreen target; the same code the `flurry`
//! program runs, written against the public API), still subjects and golden images.
#![allow(dead_code)]

#[path = "../../src/app/host/mod.rs"]
#[allow(unused_imports)]
pub mod host;

mod adapter;
pub mod hdr;
pub mod hosted;
pub mod paths;

use flurry::GpuContext;

#[allow(unused_imports)]
pub use adapter::gpu;

/// The settings of a test's renderer: the defaults, but compiling on the test's thread
/// (`background_compile` off), so that an effect starts at the frame it is added and a
/// test's frames are the effect's (tests of compiling off the thread turn it on).
pub fn settings() -> Settings {
    Settings {
        background_compile: false,
        ..Settings::default()
    }
}

/// One frame of the test host: update, the host's pass (cleared, its scene), the particles
/// composited over it, submitted.
pub fn host_frame(
    gpu: &GpuContext,
    renderer: &mut flurry::ParticleRenderer,
    target: &host::HeadlessTarget,
    camera: &flurry::Camera,
    dt: f32,
) {
    renderer
        .update(&gpu.device, &gpu.queue, dt, camera, target.size())
        .unwrap();
    target.scene.update(&gpu.queue, camera.view_proj());
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    target.encode_scene(&mut encoder, [0.0, 0.0, 0.0, 1.0], None);
    renderer
        .encode(&gpu.device, &mut encoder, &target.frame())
        .unwrap();
    gpu.queue.submit([encoder.finish()]);
}

/// The share of a picture's pixels brighter than its background could be: a picture that is
/// all background would pass against a blank golden, so tests demand particles with it.
pub fn lit_fraction(img: &image::RgbaImage) -> f64 {
    let lit = img
        .pixels()
        .filter(|p| p.0[..3].iter().any(|&c| c > 60))
        .count();
    lit as f64 / (img.width() * img.height()) as f64
}

/// Relative closeness with an absolute floor of 1 (|a - b| <= tol · max(1, |b|)).
pub fn close(a: f32, b: f32, tol: f32) -> bool {
    (a - b).abs() <= tol * b.abs().max(1.0)
}

pub fn close3(a: glam::Vec3, b: glam::Vec3, tol: f32) -> bool {
    close(a.x, b.x, tol) && close(a.y, b.y, tol) && close(a.z, b.z, tol)
}

/// Where world point `x` lands on a picture of `size` seen through `view_proj`, in pixels
/// (y down, pixel centres at +0.5).
pub fn to_pixel(view_proj: glam::Mat4, (width, height): (u32, u32), x: glam::Vec3) -> glam::Vec2 {
    let clip = view_proj * x.extend(1.0);
    let ndc = clip.truncate() / clip.w;
    glam::Vec2::new(
        (ndc.x * 0.5 + 0.5) * width as f32,
        (0.5 - ndc.y * 0.5) * height as f32,
    )
}

/// What a picture shows at pixel `p`: 'r' (clearly red), 'b' (clearly blue) or '?'.
pub fn red_or_blue(img: &image::RgbaImage, p: glam::Vec2) -> char {
    let [r, _, b, _] = img.get_pixel(p.x as u32, p.y as u32).0;
    match (r, b) {
        (r, b) if r > 120 && b < 60 => 'r',
        (r, b) if b > 120 && r < 60 => 'b',
        _ => '?',
    }
}

use flurry::effect::*;
use flurry::glam::Vec3;
use flurry::{Camera, Settings};
use host::stage::HostQuad;
use host::{HostSetup, Projection, Scene};

/// `count` particles born at t = 0 in `shape` with one size range, colour and velocity,
/// living 100 s: the still subjects of picture tests.
pub fn held(
    shape: Shape,
    count: u32,
    size: Range,
    color: [f32; 4],
    velocity: [f32; 3],
) -> EmitterDesc {
    EmitterDesc {
        shape,
        bursts: vec![Burst::once(0.0, count)],
        velocity: Velocity::Linear {
            mean: velocity,
            variance: [0.0; 3],
        },
        lifetime: Range::constant(100.0),
        size,
        color: ColorRange::constant(color),
        ..Default::default()
    }
}

/// An effect of `emitters` with no forces, bounds or sorting: alpha-blended billboards.
pub fn still(name: &str, emitters: Vec<EmitterDesc>) -> EffectDesc {
    EffectDesc {
        name: name.into(),
        emitters,
        forces: Forces::NONE,
        ..Default::default()
    }
}

/// Linear grey of the test wall, and its sRGB byte.
pub const WALL_GREY: f32 = 0.3;

/// The host conventions every depth test runs under: standard, reversed, reversed with an
/// infinite far plane and orthographic projections with one sample, and reversed-infinite
/// with 4× MSAA.
pub fn setups() -> [HostSetup; 5] {
    let one = |projection| HostSetup {
        projection,
        samples: 1,
        hdr: false,
    };
    [
        one(Projection::Standard),
        one(Projection::Reversed),
        one(Projection::ReversedInfinite),
        one(Projection::Orthographic),
        HostSetup {
            projection: Projection::ReversedInfinite,
            samples: 4,
            hdr: false,
        },
    ]
}

/// The snow demo's 16,384 flakes over its terrain (hills and pillars), seen by its camera at
/// 160 × 120.
pub fn snow_on_the_terrain(gpu: &GpuContext) -> Scene {
    use host::demos::Demo;
    use host::stage::Stage;
    let capacity = 16_384;
    let desc = Demo::Snow.effect_in(Stage::Terrain, capacity);
    let camera = |a| Demo::Snow.camera_in(Stage::Terrain, a);
    let mut scene = Scene::new(gpu, &desc, capacity, 5, (160, 120), camera).unwrap();
    Stage::Terrain.apply(&mut scene.target.scene);
    scene
}

/// A static cloud of orange particles (radius 1.5 m at the origin) behind an opaque grey
/// wall at z = 2 that covers the left half of a 128×96 view from (0, 0, 6), in a host of
/// `setup`.
pub fn wall_scene(gpu: &GpuContext, settings: Settings, setup: HostSetup) -> Scene {
    let cloud = wall_cloud();
    let size = Range::new(0.15, 0.05);
    let orange = [1.0, 0.5, 0.1, 0.9];
    let desc = still("cloud", vec![held(cloud, 4096, size, orange, [0.0; 3])]);
    behind_the_wall(gpu, settings, setup, (&desc, 4096))
}

/// Where wall_scene's cloud is: a ball of 1.5 m at the origin, the wall's edges across it.
pub fn wall_cloud() -> Shape {
    Shape::Sphere {
        center: [0.0; 3],
        radius: 1.5,
        surface: false,
    }
}

/// `capacity` particles of `desc` seen from (0, 0, 6) through wall_scene's wall, over black.
pub fn behind_the_wall(
    gpu: &GpuContext,
    settings: Settings,
    setup: HostSetup,
    (desc, capacity): (&EffectDesc, u32),
) -> Scene {
    let camera = |aspect| Camera::look_at(Vec3::new(0.0, 0.0, 6.0), Vec3::ZERO, aspect);
    let mut scene = Scene::hosted(gpu, (desc, capacity, 1), (128, 96), camera, setup)
        .unwrap()
        .with_settings(settings);
    scene.background = [0.0, 0.0, 0.0, 1.0];
    // reaching well past the frame (an orthographic view frames more of it)
    scene.target.scene.quads = vec![HostQuad::rect(
        Vec3::new(-4.0, 0.0, 2.0),
        Vec3::new(4.0, 0.0, 0.0),
        Vec3::new(0.0, 5.0, 0.0),
        Vec3::splat(WALL_GREY),
    )];
    scene
}

pub trait Render {
    /// Two frames (emit, then draw) and the host's image.
    fn render(self, gpu: &GpuContext) -> image::RgbaImage;
}

impl Render for Scene {
    fn render(mut self, gpu: &GpuContext) -> image::RgbaImage {
        self.frame(gpu, 0.01, true);
        self.frame(gpu, 0.01, true);
        self.image(gpu).unwrap()
    }
}

use image::RgbaImage;
use std::path::PathBuf;

/// Mean absolute difference per channel, 0..255.
pub const TOLERANCE: f64 = 2.0;

pub fn mean_error(a: &RgbaImage, b: &RgbaImage) -> f64 {
    let sum: u64 = a
        .as_raw()
        .iter()
        .zip(b.as_raw())
        .map(|(&x, &y)| x.abs_diff(y) as u64)
        .sum();
    sum as f64 / a.as_raw().len() as f64
}

/// The golden image `tests/golden/<name>.png`.
pub fn golden(name: &str) -> RgbaImage {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let path = dir.join(format!("{name}.png"));
    image::open(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (FLURRY_BLESS=1 creates it)", path.display()))
        .to_rgba8()
}

/// Compare with (or, with FLURRY_BLESS set, write) `tests/golden/<name>.png`.
pub fn check_golden(name: &str, actual: &RgbaImage) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let golden_path = dir.join(format!("{name}.png"));
    if std::env::var_os("FLURRY_BLESS").is_some() {
        actual.save(&golden_path).unwrap();
        return;
    }
    let golden = golden(name);
    assert_eq!(golden.dimensions(), actual.dimensions(), "{name}: size");
    let err = mean_error(&golden, actual);
    if err > TOLERANCE {
        actual.save(dir.join(format!("{name}-actual.png"))).unwrap();
        let diff = RgbaImage::from_fn(actual.width(), actual.height(), |x, y| {
            let (a, g) = (actual.get_pixel(x, y).0, golden.get_pixel(x, y).0);
            image::Rgba([
                a[0].abs_diff(g[0]),
                a[1].abs_diff(g[1]),
                a[2].abs_diff(g[2]),
                255,
            ])
        });
        diff.save(dir.join(format!("{name}-diff.png"))).unwrap();
        panic!(
            "{name}: mean error {err:.2} > {TOLERANCE} (see {name}-actual.png, {name}-diff.png)"
        );
    }
}
