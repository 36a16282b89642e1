//! The compute splat (`shaders/splat.wgsl`) against the rasteriser: the same frames drawn
//! with every particle as a triangle (`splat_radius` 0) and with small ones splatted must
//! look the same, for each render mode and blend of the demos and behind a wall.

mod common;

use common::host::HostSetup;

use common::host::demos::Demo;
use common::host::Scene;
use common::Render;
use flurry::Settings;
use image::RgbaImage;

/// Mean absolute difference per channel (0..255) and the largest channel difference.
fn difference(a: &RgbaImage, b: &RgbaImage) -> (f64, u8) {
    let d = a
        .as_raw()
        .iter()
        .zip(b.as_raw())
        .map(|(&x, &y)| x.abs_diff(y));
    let (sum, max) = d.fold((0u64, 0u8), |(s, m), v| (s + v as u64, m.max(v)));
    (sum as f64 / a.as_raw().len() as f64, max)
}

fn lit(img: &RgbaImage) -> usize {
    let bright = |p: &&image::Rgba<u8>| p.0[..3].iter().any(|&c| c > 60);
    img.pixels().filter(bright).count()
}

/// `frames` frames of `demo` at 192x144; the picture and the share of the last frame's
/// visible particles that were splatted.
fn render(demo: Demo, capacity: u32, frames: u32, splat_radius: f32) -> (RgbaImage, f64) {
    let gpu = common::gpu();
    let settings = Settings {
        splat_radius,
        ..Default::default()
    };
    let mut scene = Scene::for_demo(&gpu, demo, capacity, 3, (192, 144))
        .unwrap()
        .with_settings(settings);
    for _ in 0..frames {
        scene.frame(&gpu, 1.0 / 60.0, true);
    }
    let s = scene.snapshot(&gpu).unwrap().stats;
    let share = s.splatted as f64 / s.visible.max(1) as f64;
    (scene.image(&gpu).unwrap(), share)
}

fn splat_matches_raster(demo: Demo, capacity: u32, frames: u32, min_share: f64) {
    let (raster, none) = render(demo, capacity, frames, 0.0);
    let (splat, share) = render(demo, capacity, frames, Settings::default().splat_radius);
    assert_eq!(none, 0.0, "{demo:?}: splatted with the splat off");
    assert!(
        share >= min_share,
        "{demo:?}: only {:.0} % splatted",
        share * 100.0
    );
    assert_alike(&raster, &splat, (100, 1.0), &format!("{demo:?}"));
}

/// The drawn and the splatted picture alike: at least `least_lit` pixels lit in the drawn
/// one, a mean difference under `mean_below` and lit pixels within a tenth of each other.
fn assert_alike(
    raster: &RgbaImage,
    splat: &RgbaImage,
    (least_lit, mean_below): (usize, f64),
    what: &str,
) {
    let (mean, max) = difference(raster, splat);
    let (a, b) = (lit(raster), lit(splat));
    assert!(a > least_lit, "{what}: {a} lit pixels: a weak test");
    assert!(
        mean < mean_below && (a as f64 - b as f64).abs() < 0.1 * a as f64,
        "{what}: mean difference {mean:.2} (max {max}), lit {a} drawn vs {b} splatted"
    );
}

#[test]
fn snow_tumbling_alpha_blended() {
    splat_matches_raster(Demo::Snow, 32_768, 20, 0.9);
}

#[test]
fn fireworks_additive_streaks() {
    splat_matches_raster(Demo::Fireworks, 8192, 150, 0.5);
}

#[test]
fn rain_streaks_over_its_ground() {
    splat_matches_raster(Demo::Rain, 16_384, 40, 0.5);
}

#[test]
fn galaxy_additive_billboards() {
    splat_matches_raster(Demo::Galaxy, 16_384, 3, 0.9);
}

/// One colour, many overlaps, half behind a wall: the weighted blend is exact for one
/// colour, and the splat tests the scene's depth as the draw does.
#[test]
fn behind_a_wall() {
    let gpu = common::gpu();
    let img = |splat_radius| {
        let settings = Settings {
            splat_radius,
            ..Default::default()
        };
        common::wall_scene(&gpu, settings, HostSetup::STANDARD).render(&gpu)
    };
    let (raster, splat) = (img(0.0), img(4.0));
    let (mean, max) = difference(&raster, &splat);
    assert!(lit(&raster) > 500, "a weak test");
    assert!(mean < 1.0, "mean difference {mean:.2} (max {max})");
}

/// The end-of-life colours of the merged tests' six clouds, one an effect.
const CLOUD_COLOURS: [[f32; 4]; 6] = [
    [1.0, 0.0, 0.0, 1.0],
    [0.0, 1.0, 0.0, 1.0],
    [0.0, 0.0, 1.0, 1.0],
    [1.0, 1.0, 0.0, 1.0],
    [0.0, 1.0, 1.0, 1.0],
    [1.0, 0.0, 1.0, 1.0],
];

/// A renderer for the headless target with `splat_radius` (0: every particle drawn).
fn cloud_renderer(gpu: &flurry::GpuContext, splat_radius: f32) -> flurry::ParticleRenderer {
    let settings = Settings {
        splat_radius,
        ..Default::default()
    };
    let targets = common::host::HeadlessTarget::TARGETS;
    flurry::ParticleRenderer::new(&gpu.device, targets, settings).unwrap()
}

/// Alpha-blended effects sorted together splat together: six effects, each a cloud of
/// small dots born white that turn their own effect's colour over life, look the same
/// splatted (one splat of the merged list, each particle with its effect's constants) as
/// drawn, and nearly all of them are splatted.
#[test]
fn merged_effects_splat_each_with_its_constants() {
    use common::host::HeadlessTarget;
    use flurry::effect::*;
    use flurry::Camera;
    let gpu = common::gpu();
    let render = |splat_radius| {
        let mut renderer = cloud_renderer(&gpu, splat_radius);
        // each effect's cloud in a band of its own across the view
        let ids: Vec<_> = (0..CLOUD_COLOURS.len())
            .map(|k| {
                let y = k as f32 - 2.5;
                let shape = Shape::Box {
                    min: [-3.0, y - 0.4, -0.5],
                    max: [3.0, y + 0.4, 0.5],
                };
                let white = [1.0, 1.0, 1.0, 0.9];
                let size = Range::new(0.12, 0.0);
                let mut emitter = common::held(shape, 200, size, white, [0.0; 3]);
                emitter.lifetime = Range::constant(1.0);
                let mut desc = common::still("cloud", vec![emitter]);
                desc.over_life.color_end = CLOUD_COLOURS[k];
                renderer
                    .add_effect(&gpu.device, &gpu.queue, &desc, 256, 7 + k as u32)
                    .unwrap()
            })
            .collect();
        let target = HeadlessTarget::new(&gpu.device, 192, 192);
        let camera = Camera::look_at(glam::Vec3::new(0.0, 0.0, 9.0), glam::Vec3::ZERO, 1.0);
        // nine tenths of their lives: mostly their end colour
        for _ in 0..9 {
            common::host_frame(&gpu, &mut renderer, &target, &camera, 0.1);
        }
        assert!(renderer.passes().contains(&flurry::Pass::Merge));
        let (mut splatted, mut visible) = (0, 0);
        for id in ids {
            let s = renderer
                .snapshot(&gpu.device, &gpu.queue, id)
                .unwrap()
                .stats;
            splatted += s.splatted;
            visible += s.visible;
        }
        let share = splatted as f64 / visible.max(1) as f64;
        (target.read_rgba(&gpu).unwrap(), share)
    };
    let (raster, none) = render(0.0);
    let (splat, share) = render(Settings::default().splat_radius);
    assert_eq!(none, 0.0, "splatted with the splat off");
    assert!(share > 0.9, "only {:.0} % splatted", share * 100.0);
    assert_alike(&raster, &splat, (500, 1.5), "six merged effects");
}

/// Additive effects are drawn and splatted together from one list, unsorted (light adds up
/// in any order): six clouds, each its own colour over life, look as they do drawn one
/// effect at a time (the same effects asking to be sorted, which keeps each on its own),
/// drawn as triangles and splatted.
#[test]
fn additive_effects_drawn_together_look_as_drawn_one_by_one() {
    use common::host::HeadlessTarget;
    use flurry::effect::*;
    use flurry::{Camera, Pass};
    let gpu = common::gpu();
    let render = |splat_radius, sort| {
        let mut renderer = cloud_renderer(&gpu, splat_radius);
        // overlapping bands, so that the clouds' light adds up
        for (k, &color_end) in CLOUD_COLOURS.iter().enumerate() {
            let y = 0.3 * k as f32 - 0.75;
            let shape = Shape::Box {
                min: [-2.0, y - 1.0, -0.5],
                max: [2.0, y + 1.0, 0.5],
            };
            let white = [1.0, 1.0, 1.0, 0.5];
            let size = Range::new(0.6, 0.0);
            let mut emitter = common::held(shape, 200, size, white, [0.0; 3]);
            emitter.lifetime = Range::constant(1.0);
            let mut desc = common::still("glow", vec![emitter]);
            desc.blend = Blend::Additive;
            desc.sort = sort;
            desc.over_life.color_end = color_end;
            renderer
                .add_effect(&gpu.device, &gpu.queue, &desc, 256, 7 + k as u32)
                .unwrap();
        }
        let target = HeadlessTarget::new(&gpu.device, 192, 192);
        let camera = Camera::look_at(glam::Vec3::new(0.0, 0.0, 9.0), glam::Vec3::ZERO, 1.0);
        for _ in 0..6 {
            common::host_frame(&gpu, &mut renderer, &target, &camera, 0.1);
        }
        let passes = renderer.passes();
        (target.read_rgba(&gpu).unwrap(), passes)
    };
    for splat_radius in [0.0, Settings::default().splat_radius] {
        let (together, passes) = render(splat_radius, None);
        assert!(passes.contains(&Pass::Merge), "{passes:?}");
        assert!(!passes.contains(&Pass::Sort), "{passes:?}");
        let (alone, passes) = render(splat_radius, Some(true));
        assert!(!passes.contains(&Pass::Merge), "{passes:?}");
        let what = format!("six additive effects, splat radius {splat_radius}");
        assert_alike(&alone, &together, (2000, 0.5), &what);
    }
}
