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

/// Pixels with a channel brighter than `above` (of 255).
fn lit(img: &RgbaImage, above: u8) -> usize {
    let bright = |p: &&image::Rgba<u8>| p.0[..3].iter().any(|&c| c > above);
    img.pixels().filter(bright).count()
}

/// `frames` frames of `demo` at 192x144; the picture and the share of the last frame's
/// visible particles that were splatted.
fn render(demo: Demo, capacity: u32, frames: u32, splat_radius: f32) -> (RgbaImage, f64) {
    let gpu = common::gpu();
    let settings = Settings {
        splat_radius,
        ..common::settings()
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

/// `above`: brighter than the demo's backdrop.
fn splat_matches_raster(demo: Demo, capacity: u32, frames: u32, min_share: f64, above: u8) {
    let (raster, none) = render(demo, capacity, frames, 0.0);
    let (splat, share) = render(demo, capacity, frames, Settings::default().splat_radius);
    assert_eq!(none, 0.0, "{demo:?}: splatted with the splat off");
    assert!(
        share >= min_share,
        "{demo:?}: only {:.0} % splatted",
        share * 100.0
    );
    assert_alike(&raster, &splat, (100, above, 1.0), &format!("{demo:?}"));
}

/// The drawn and the splatted picture alike: at least `least_lit` pixels brighter than
/// `above` in the drawn one (brighter than the backdrop: the particles are there), a mean
/// difference under `mean_below` and the same light within 5 %. (Not the same
/// lit pixels: a particle smaller than a pixel lights the pixels by its area either way, but
/// the splat spreads exactly its area's light over its pixels where the draw samples it at
/// their centres; and the draw samples a snowflake's coarse mip levels within its disc
/// only, which holds a little less than its light.)
fn assert_alike(
    raster: &RgbaImage,
    splat: &RgbaImage,
    (least_lit, above, mean_below): (usize, u8, f64),
    what: &str,
) {
    let (mean, max) = difference(raster, splat);
    let lit_pixels = lit(raster, above);
    assert!(
        lit_pixels > least_lit,
        "{what}: {lit_pixels} lit pixels: a weak test"
    );
    let (a, b) = (total_light(raster), total_light(splat));
    assert!(
        mean < mean_below && (b / a - 1.0).abs() < 0.05,
        "{what}: mean difference {mean:.2} (max {max}), light {a:.1} drawn vs {b:.1} splatted"
    );
}

#[test]
fn snow_tumbling_alpha_blended() {
    splat_matches_raster(Demo::Snow, 32_768, 20, 0.9, 60);
}

#[test]
fn fireworks_additive_streaks() {
    splat_matches_raster(Demo::Fireworks, 8192, 150, 0.5, 60);
}

#[test]
fn rain_streaks_over_its_ground() {
    splat_matches_raster(Demo::Rain, 16_384, 40, 0.5, 40);
}

#[test]
fn galaxy_additive_billboards() {
    splat_matches_raster(Demo::Galaxy, 16_384, 3, 0.9, 60);
}

/// One colour, many overlaps, half behind a wall: the weighted blend is exact for one
/// colour, and the splat tests the scene's depth as the draw does.
#[test]
fn behind_a_wall() {
    let gpu = common::gpu();
    let img = |splat_radius| {
        let settings = Settings {
            splat_radius,
            ..common::settings()
        };
        common::wall_scene(&gpu, settings, HostSetup::STANDARD).render(&gpu)
    };
    let (raster, splat) = (img(0.0), img(4.0));
    let (mean, max) = difference(&raster, &splat);
    assert!(lit(&raster, 60) > 500, "a weak test");
    assert!(mean < 1.0, "mean difference {mean:.2} (max {max})");
}

/// Dots (particles under a pixel across, each given to its four nearest pixels) are tested
/// against the scene pixel by pixel: a field of them behind the wall's edges lights no pixel
/// of the wall, where the four pixels of many straddle an edge, at full scale (a pixel of
/// the target a pixel of the host).
#[test]
fn dots_light_no_pixel_of_a_wall_in_front_of_them() {
    use flurry::effect::Range;
    let gpu = common::gpu();
    let field = common::wall_cloud();
    // 2 cm across, some 0.15 px at 6 m in a 96-pixel-high view
    let size = Range::new(0.02, 0.005);
    let white = [1.0, 1.0, 1.0, 1.0];
    let desc = common::still(
        "dots",
        vec![common::held(field, 16384, size, white, [0.0; 3])],
    );
    let img = |splat_radius| {
        let settings = Settings {
            splat_radius,
            scale: flurry::Scale::Full,
            ..common::settings()
        };
        let setup = HostSetup::STANDARD;
        common::behind_the_wall(&gpu, settings, setup, (&desc, 16384)).render(&gpu)
    };
    let (drawn, splatted) = (img(0.0), img(4.0));
    // the wall as drawn, its top left corner well inside it
    let grey = *drawn.get_pixel(0, 0);
    let wall = |x: u32, y: u32| *drawn.get_pixel(x, y) == grey;
    let (w, h) = drawn.dimensions();
    let (mut walled, mut lit_beside) = (0, 0);
    for (x, y, p) in splatted.enumerate_pixels() {
        if wall(x, y) {
            walled += 1;
            assert_eq!(*p, grey, "pixel ({x}, {y}) of the wall is lit");
        } else if p.0[..3].iter().any(|&c| c > 0) {
            // a lit pixel beside the wall: dots there have pixels on both sides
            let near = |dx: i32, dy: i32| {
                let (nx, ny) = (x as i32 + dx, y as i32 + dy);
                nx >= 0
                    && ny >= 0
                    && (nx as u32) < w
                    && (ny as u32) < h
                    && wall(nx as u32, ny as u32)
            };
            if near(-1, 0) || near(1, 0) || near(0, -1) || near(0, 1) {
                lit_beside += 1;
            }
        }
    }
    assert!(walled > 1000, "a weak test: {walled} pixels of wall");
    assert!(
        lit_beside > 20,
        "a weak test: {lit_beside} lit pixels beside the wall"
    );
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
        ..common::settings()
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
    // (dots about a pixel across: the splat spreads each over its four nearest pixels, the
    // draw over its quad grown to a pixel's radius, the same light differently placed)
    assert_alike(&raster, &splat, (500, 60, 2.0), "six merged effects");
}

/// Every renderer's frame into the host's target, one after another over the same scene
/// (each composites its particles over what the ones before drew).
fn frame_of(
    gpu: &flurry::GpuContext,
    renderers: &mut [flurry::ParticleRenderer],
    target: &common::host::HeadlessTarget,
    camera: &flurry::Camera,
    dt: f32,
) {
    target.scene.update(&gpu.queue, camera.view_proj());
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    target.encode_scene(&mut encoder, [0.0, 0.0, 0.0, 1.0], None);
    for renderer in renderers {
        renderer
            .update(&gpu.device, &gpu.queue, dt, camera, target.size())
            .unwrap();
        renderer
            .encode(&gpu.device, &mut encoder, &target.frame())
            .unwrap();
    }
    gpu.queue.submit([encoder.finish()]);
}

/// Cloud `k` of six overlapping bands of `blend`, at depth z: particles 0.6 m wide born
/// half-transparent white that turn colour `k` over their life.
fn band(k: usize, z: f32, blend: flurry::effect::Blend, sort: Option<bool>) -> flurry::EffectDesc {
    use flurry::effect::*;
    let y = 0.3 * k as f32 - 0.75;
    let shape = Shape::Box {
        min: [-2.0, y - 1.0, z - 0.5],
        max: [2.0, y + 1.0, z + 0.5],
    };
    let white = [1.0, 1.0, 1.0, 0.5];
    let size = Range::new(0.6, 0.0);
    let mut emitter = common::held(shape, 200, size, white, [0.0; 3]);
    emitter.lifetime = Range::constant(1.0);
    let mut desc = common::still("band", vec![emitter]);
    desc.blend = blend;
    desc.sort = sort;
    desc.over_life.color_end = CLOUD_COLOURS[k];
    desc
}

/// The host's target after six frames of the `groups` of effects, each group in a renderer
/// of its own (drawn one after another), and the passes of the first renderer.
fn render_groups(
    gpu: &flurry::GpuContext,
    splat_radius: f32,
    groups: &[Vec<(usize, flurry::EffectDesc)>],
) -> (RgbaImage, Vec<flurry::Pass>) {
    use common::host::HeadlessTarget;
    use flurry::{glam, Camera};
    let mut renderers: Vec<_> = groups
        .iter()
        .map(|group| {
            let mut renderer = cloud_renderer(gpu, splat_radius);
            for (k, desc) in group {
                renderer
                    .add_effect(&gpu.device, &gpu.queue, desc, 256, 7 + *k as u32)
                    .unwrap();
            }
            renderer
        })
        .collect();
    let target = HeadlessTarget::new(&gpu.device, 192, 192);
    let camera = Camera::look_at(glam::Vec3::new(0.0, 0.0, 9.0), glam::Vec3::ZERO, 1.0);
    for _ in 0..6 {
        frame_of(gpu, &mut renderers, &target, &camera, 0.1);
    }
    (target.read_rgba(gpu).unwrap(), renderers[0].passes())
}

/// Additive effects are drawn and splatted together from one list (light adds up in any
/// order): six glowing bands, each its own colour over life, look as they do drawn one
/// effect at a time (each in a renderer of its own, their light adding up in the host's
/// target), drawn as triangles and splatted; whether they share the unsorted list or, asking
/// to be sorted, the sorted one.
#[test]
fn additive_effects_drawn_together_look_as_drawn_one_by_one() {
    use flurry::effect::Blend;
    use flurry::Pass;
    let gpu = common::gpu();
    for splat_radius in [0.0, Settings::default().splat_radius] {
        let alone: Vec<_> = (0..6)
            .map(|k| vec![(k, band(k, 0.0, Blend::Additive, None))])
            .collect();
        let (alone, _) = render_groups(&gpu, splat_radius, &alone);
        for sort in [None, Some(true)] {
            let together = (0..6)
                .map(|k| (k, band(k, 0.0, Blend::Additive, sort)))
                .collect();
            let (together, passes) = render_groups(&gpu, splat_radius, &[together]);
            assert!(passes.contains(&Pass::Merge), "{passes:?}");
            // the sorted list is sorted in the merge pass, never an effect on its own
            assert!(!passes.contains(&Pass::Sort), "{passes:?}");
            let what = format!("six additive effects, sort {sort:?}, splat radius {splat_radius}");
            assert_alike(&alone, &together, (2000, 60, 0.5), &what);
        }
    }
}

/// Alpha-blended and additive effects share the sorted list, each particle blended as its
/// effect asks: three alpha-blended bands behind three additive ones look as the alpha ones
/// drawn first and the additive ones over them (two renderers), drawn and splatted. And an
/// alpha-blended effect that asks not to be sorted shares the unsorted list with additive
/// ones, looking as it does drawn before them.
#[test]
fn alpha_and_additive_effects_share_a_list() {
    use flurry::effect::Blend;
    use flurry::Pass;
    let gpu = common::gpu();
    for splat_radius in [0.0, Settings::default().splat_radius] {
        let behind = |k, sort| (k, band(k, -1.5, Blend::Alpha, sort));
        let in_front = |k, sort| (k, band(k, 1.5, Blend::Additive, sort));
        let apart = [
            (0..3).map(|k| behind(k, None)).collect(),
            (3..6).map(|k| in_front(k, None)).collect(),
        ];
        let (apart, _) = render_groups(&gpu, splat_radius, &apart);
        let sorted = (0..3)
            .map(|k| behind(k, None))
            .chain((3..6).map(|k| in_front(k, Some(true))))
            .collect();
        let (together, passes) = render_groups(&gpu, splat_radius, &[sorted]);
        assert!(passes.contains(&Pass::Merge), "{passes:?}");
        let what = format!("alpha and additive sorted together, splat radius {splat_radius}");
        assert_alike(&apart, &together, (2000, 60, 0.5), &what);
        let unsorted = [behind(0, Some(false))]
            .into_iter()
            .chain([1, 3, 5].into_iter().map(|k| in_front(k, None)))
            .collect();
        let (together, passes) = render_groups(&gpu, splat_radius, &[unsorted]);
        assert!(passes.contains(&Pass::Merge), "{passes:?}");
        assert!(!passes.contains(&Pass::Sort), "{passes:?}");
        let apart = [
            vec![behind(0, Some(false))],
            [1, 3, 5].into_iter().map(|k| in_front(k, None)).collect(),
        ];
        let (apart, _) = render_groups(&gpu, splat_radius, &apart);
        let what = format!("alpha and additive unsorted together, splat radius {splat_radius}");
        assert_alike(&apart, &together, (2000, 60, 0.5), &what);
    }
}

/// Effects whose splat samples a texture share a list with plain ones, each particle
/// splatted by a variant that shows its sprite: three bands of faint additive snowflakes
/// among three of discs look splatted as they do drawn (the merged list splats its
/// snowflakes and its discs apart).
#[test]
fn snowflakes_and_discs_share_a_list() {
    use flurry::effect::{Blend, ColorRange, Sprite};
    use flurry::Pass;
    let gpu = common::gpu();
    let bands: Vec<_> = (0..6)
        .map(|k| {
            let mut desc = band(k, 0.0, Blend::Additive, None);
            let emitter = &mut desc.emitters[0];
            emitter.color = ColorRange::constant([1.0, 1.0, 1.0, 0.1]);
            if k % 2 == 0 {
                emitter.sprite = Some(Sprite::Snowflakes);
            }
            (k, desc)
        })
        .collect();
    let bands = [bands];
    let (drawn, passes) = render_groups(&gpu, 0.0, &bands);
    assert!(passes.contains(&Pass::Merge), "{passes:?}");
    // (the bands' particles are about 6 pixels in radius: 16 splats them all)
    let (splatted, _) = render_groups(&gpu, 16.0, &bands);
    assert_alike(
        &drawn,
        &splatted,
        (2000, 30, 0.5),
        "snowflakes and discs together",
    );
}

/// The frame's total light (linear, summed over every pixel's red, green and blue).
fn total_light(img: &RgbaImage) -> f64 {
    let linear = |c: u8| {
        let s = c as f64 / 255.0;
        if s <= 0.04045 {
            s / 12.92
        } else {
            ((s + 0.055) / 1.055).powf(2.4)
        }
    };
    img.pixels()
        .map(|p| p.0[..3].iter().map(|&c| linear(c)).sum::<f64>())
        .sum()
}

/// A renderer splatting up to `splat_radius` pixels, a 48×48 target and a camera 10 m before
/// the plane z = 0, looking at it square on; and the metres a pixel spans on that plane.
fn facing_the_plane(
    gpu: &flurry::GpuContext,
    splat_radius: f32,
) -> (
    flurry::ParticleRenderer,
    common::host::HeadlessTarget,
    flurry::Camera,
    f32,
) {
    let renderer = cloud_renderer(gpu, splat_radius);
    let target = common::host::HeadlessTarget::new(&gpu.device, 48, 48);
    let camera = flurry::Camera::look_at(glam::Vec3::new(0.0, 0.0, 10.0), glam::Vec3::ZERO, 1.0);
    let pixel = 2.0 * 10.0 * (camera.fov_y / 2.0).tan() / 48.0;
    (renderer, target, camera, pixel)
}

/// Particles smaller than a pixel light the pixels they overlap by their area, not by
/// whether they happen to cover a pixel's centre: 2,048 dots a quarter of a pixel across,
/// drifting a tenth of a pixel a frame before a still camera on a 48×48 target, keep the
/// frame's total light within 2 % from one frame to the next over 60 frames (covering
/// centres, it jumped between a handful of lit pixels and none).
#[test]
fn sub_pixel_particles_light_pixels_by_their_area() {
    use flurry::effect::*;
    let gpu = common::gpu();
    let (mut renderer, target, camera, pixel) =
        facing_the_plane(&gpu, Settings::default().splat_radius);
    let dt = 1.0 / 60.0;
    // a box of the plane from 20 px left of the centre to 14 px right (6 px of drift keep
    // every dot in view) and 20 px above and below
    let shape = Shape::Box {
        min: [-20.0 * pixel, -20.0 * pixel, -0.001],
        max: [14.0 * pixel, 20.0 * pixel, 0.001],
    };
    let drift = [0.1 * pixel / dt, 0.037 * pixel / dt, 0.0];
    let size = Range::constant(0.25 * pixel);
    let dots = common::held(shape, 2048, size, [1.0, 1.0, 1.0, 1.0], drift);
    let desc = common::still("dust", vec![dots]);
    let id = renderer
        .add_effect(&gpu.device, &gpu.queue, &desc, 2048, 3)
        .unwrap();
    let mut light = Vec::new();
    for _ in 0..60 {
        common::host_frame(&gpu, &mut renderer, &target, &camera, dt);
        light.push(total_light(&target.read_rgba(&gpu).unwrap()));
    }
    let s = renderer
        .snapshot(&gpu.device, &gpu.queue, id)
        .unwrap()
        .stats;
    assert_eq!((s.alive, s.splatted), (2048, 2048), "every dot splatted");
    // (how much light: `a_particles_light_is_its_area`, on a host without a tonemap)
    assert!(light[1] > 20.0, "a dim frame: {light:.2?}");
    for (k, pair) in light[1..].windows(2).enumerate() {
        let change = (pair[1] / pair[0] - 1.0).abs();
        assert!(
            change < 0.02,
            "frame {}: the total light went from {:.3} to {:.3} ({:.1} %); all: {light:.2?}",
            k + 2,
            pair[0],
            pair[1],
            change * 100.0
        );
    }
}

/// A particle's light is its area whatever its size: white dots of a quarter pixel, 0.6 of
/// a pixel, 3 and 6 pixels across, added up on an HDR host (no tonemap), light the frame
/// with their discs' area times the soft disc's mean coverage of its square, within 3 %.
#[test]
fn a_particles_light_is_its_area() {
    use flurry::effect::*;
    use flurry::Camera;
    let gpu = common::gpu();
    let size = (64, 64);
    let host = common::hdr::HdrHost::new(&gpu, size);
    let camera = Camera::look_at(glam::Vec3::new(0.0, 0.0, 10.0), glam::Vec3::ZERO, 1.0);
    let pixel = 2.0 * 10.0 * (camera.fov_y / 2.0).tan() / size.1 as f32;
    // the soft disc's light over its square: ∫ 2πr (1 − smoothstep(0.25, 1, r²)) dr / 4
    let disc_mean = std::f64::consts::PI * 0.625 / 4.0;
    for (across, count) in [(0.25, 2048), (0.6, 512), (3.0, 24), (6.0, 6)] {
        let settings = Settings {
            splat_radius: Settings::default().splat_radius,
            ..common::settings()
        };
        let targets = flurry::Targets::new(common::hdr::HdrHost::FORMAT, None);
        let mut renderer = flurry::ParticleRenderer::new(&gpu.device, targets, settings).unwrap();
        let margin = 24.0 * pixel;
        let shape = Shape::Box {
            min: [-margin, -margin, -0.001],
            max: [margin, margin, 0.001],
        };
        let diameter = Range::constant(across * pixel);
        let dots = common::held(shape, count, diameter, [1.0; 4], [0.0; 3]);
        let mut desc = common::still("dots", vec![dots]);
        desc.blend = Blend::Additive;
        let stats = host.show(&gpu, &mut renderer, (&desc, count), &camera);
        assert_eq!(stats.alive, count);
        let light = host.total_light(&gpu);
        let area = count as f64 * (across * across) as f64 * disc_mean * 3.0;
        assert!(
            (light / area - 1.0).abs() < 0.03,
            "{count} dots {across} px across: light {light:.2}, by area {area:.2} (splatted {} of {})",
            stats.splatted,
            stats.visible
        );
    }
}

/// The splat resolves only the texels its particles touched (the target cleared first):
/// what it lit a frame before is gone where nothing is now. 64 discs 3 pixels across drift
/// a pixel a frame to the right on a 48×48 target; after 24 frames nothing is lit left of
/// where they now are, and they are lit where they are, as drawn by triangles.
#[test]
fn the_splat_leaves_nothing_where_its_particles_were() {
    use flurry::effect::*;
    let gpu = common::gpu();
    let render = |splat_radius| {
        let (mut renderer, target, camera, pixel) = facing_the_plane(&gpu, splat_radius);
        let dt = 1.0 / 60.0;
        // columns 6 to 12 of the target (18 to 12 px left of its centre), rows 16 to 32
        let shape = Shape::Box {
            min: [-18.0 * pixel, -8.0 * pixel, -0.001],
            max: [-12.0 * pixel, 8.0 * pixel, 0.001],
        };
        let drift = [pixel / dt, 0.0, 0.0];
        let discs = common::held(shape, 64, Range::constant(3.0 * pixel), [1.0; 4], drift);
        let desc = common::still("discs", vec![discs]);
        let id = renderer
            .add_effect(&gpu.device, &gpu.queue, &desc, 64, 5)
            .unwrap();
        for _ in 0..25 {
            common::host_frame(&gpu, &mut renderer, &target, &camera, dt);
        }
        let s = renderer
            .snapshot(&gpu.device, &gpu.queue, id)
            .unwrap()
            .stats;
        (target.read_rgba(&gpu).unwrap(), s.splatted)
    };
    let (raster, none) = render(0.0);
    let (splat, splatted) = render(Settings::default().splat_radius);
    assert_eq!(
        (none, splatted),
        (0, 64),
        "splatted with the splat off / on"
    );
    // now in columns 30 to 36 and a pixel and a half about them
    let lit_in = |img: &RgbaImage, columns: std::ops::Range<u32>| {
        let bright = |x, y| img.get_pixel(x, y).0[..3].iter().any(|&c| c > 40);
        columns
            .flat_map(|x| (0..img.height()).map(move |y| (x, y)))
            .filter(|&(x, y)| bright(x, y))
            .count()
    };
    for (name, img) in [("drawn", &raster), ("splatted", &splat)] {
        assert_eq!(lit_in(img, 0..26), 0, "{name}: lit where the discs were");
        assert!(
            lit_in(img, 28..40) > 40,
            "{name}: the discs unlit where they are"
        );
    }
    assert_alike(&raster, &splat, (40, 60, 2.0), "drifting discs");
}
