//! The low-resolution particle target against the host's depth, in every depth convention
//! a host may use (standard, reversed, reversed with an infinite far plane, orthographic,
//! and multisampled): hidden behind opaque geometry at every scale, faded in front of it
//! over the soft distance, and nearest-depth upsampling leaves less halo than bilinear.

mod common;

use common::host::stage::HostQuad;
use common::host::{HostSetup, Scene};
use common::{Render, WALL_GREY};
use flurry::effect::{Blend, Range, Shape};
use flurry::glam::Vec3;
use flurry::{Camera, Scale, Settings, Upsample};
use image::RgbaImage;

/// The sRGB byte of the wall's linear grey.
fn wall_byte() -> u8 {
    let s = 1.055 * WALL_GREY.powf(1.0 / 2.4) - 0.055;
    (s * 255.0).round() as u8
}

/// The wall covers screen columns 0..64 of the 128×96 view.
const WALL_COLUMNS: u32 = 64;

/// Summed channel difference from the wall's colour over every wall pixel.
fn halo(img: &RgbaImage) -> u64 {
    let w = wall_byte();
    img.enumerate_pixels()
        .filter(|(x, _, _)| *x < WALL_COLUMNS)
        .map(|(_, _, p)| p.0[..3].iter().map(|&c| c.abs_diff(w) as u64).sum::<u64>())
        .sum()
}

#[test]
fn particles_show_only_where_the_wall_does_not_cover_them() {
    let gpu = common::gpu();
    let cases = common::setups()
        .into_iter()
        .flat_map(|setup| [(Scale::Full, setup), (Scale::Half, setup)]);
    for (scale, setup) in cases {
        let settings = Settings {
            scale,
            ..common::settings()
        };
        let img = common::wall_scene(&gpu, settings, setup).render(&gpu);
        // well inside the wall: its colour exactly, whatever is behind it
        let w = wall_byte();
        for y in 0..96 {
            for x in 0..WALL_COLUMNS - 4 {
                let p = img.get_pixel(x, y).0;
                assert!(
                    p[..3].iter().all(|&c| c.abs_diff(w) <= 1),
                    "{scale:?} {setup:?}: wall pixel ({x}, {y}) is {p:?}, the wall is {w}"
                );
            }
        }
        // the uncovered half of the cloud: orange over black
        let (mut red, mut n) = (0u64, 0u64);
        for y in 36..60 {
            for x in 70..84 {
                red += img.get_pixel(x, y).0[0] as u64;
                n += 1;
            }
        }
        assert!(
            red / n > 120,
            "{scale:?} {setup:?}: the visible half of the cloud is dark ({})",
            red / n
        );
    }
}

#[test]
fn nearest_depth_upsampling_leaves_less_halo_than_bilinear() {
    let gpu = common::gpu();
    let cases = common::setups()
        .into_iter()
        .map(|setup| (Scale::Half, setup))
        .chain([(Scale::Quarter, HostSetup::STANDARD)]);
    for (scale, setup) in cases {
        let render = |upsample| {
            let settings = Settings {
                scale,
                upsample,
                ..common::settings()
            };
            common::wall_scene(&gpu, settings, setup).render(&gpu)
        };
        let bilinear = halo(&render(Upsample::Bilinear));
        let nearest = halo(&render(Upsample::NearestDepth));
        println!("{scale:?} {setup:?}: halo bilinear {bilinear}, nearest-depth {nearest}");
        assert!(
            bilinear > 1000,
            "{scale:?} {setup:?}: bilinear shows no halo ({bilinear}): the test proves nothing"
        );
        assert!(
            nearest * 4 < bilinear,
            "{scale:?} {setup:?}: nearest-depth halo {nearest} vs bilinear {bilinear}"
        );
    }
}

/// The sRGB byte the composite writes over black for a white particle of coverage `a`
/// (an LDR host: premultiplied colour through the ACES fit, then sRGB-encoded).
fn over_black(a: f32) -> f32 {
    let aces = (a * (2.51 * a + 0.03)) / (a * (2.43 * a + 0.59) + 0.14);
    let c = aces.clamp(0.0, 1.0);
    let s = if c <= 0.003_130_8 {
        12.92 * c
    } else {
        1.055 * c.powf(1.0 / 2.4) - 0.055
    };
    255.0 * s
}

#[test]
fn soft_particles_fade_over_the_soft_distance_in_front_of_the_host() {
    // three large white particles facing a black wall at z = 0 from the camera on the z
    // axis, 0.1, 0.3 and 1.0 m in front of it, soft distance 0.4 m: coverage 1/4, 3/4, 1
    let gpu = common::gpu();
    let soft = 0.4;
    let gaps = [0.1f32, 0.3, 1.0];
    let xs = [-2.0f32, 0.0, 2.0];
    let emitters = gaps
        .iter()
        .zip(xs)
        .map(|(&gap, x)| {
            let at = Shape::Point([x, 0.0, gap]);
            common::held(at, 1, Range::constant(1.2), [1.0; 4], [0.0; 3])
        })
        .collect();
    let mut desc = common::still("soft", emitters);
    desc.blend = Blend::Alpha;
    desc.soft_distance = soft;
    let camera = |a| Camera::look_at(Vec3::new(0.0, 0.0, 6.0), Vec3::ZERO, a);
    for setup in common::setups() {
        let mut scene = Scene::hosted(&gpu, (&desc, 4, 1), (160, 96), camera, setup).unwrap();
        scene.target.scene.quads = vec![HostQuad::rect(
            Vec3::ZERO,
            Vec3::new(20.0, 0.0, 0.0),
            Vec3::new(0.0, 20.0, 0.0),
            Vec3::ZERO,
        )];
        let view_proj = scene.view().view_proj();
        let img = scene.render(&gpu);
        // the centre pixel of each particle: where the sprite is opaque
        for ((&gap, x), expected) in gaps.iter().zip(xs).zip([0.25f32, 0.75, 1.0]) {
            let c = view_proj * Vec3::new(x, 0.0, gap).extend(1.0);
            let ndc = c.truncate() / c.w;
            let px = ((0.5 + 0.5 * ndc.x) * img.width() as f32) as u32;
            let py = ((0.5 - 0.5 * ndc.y) * img.height() as f32) as u32;
            let got = img.get_pixel(px, py).0[0] as f32;
            let want = over_black(expected);
            assert!(
                (got - want).abs() <= 4.0,
                "{setup:?}: a particle {gap} m in front of the wall shows {got}, \
                 expected {want:.1} (coverage {expected})"
            );
        }
    }
}

/// At full scale the particle target has the host's size and the composite shows each of
/// its texels at its own pixel: a small dot's light, splatted into the target by area, is
/// centred on the composited picture where the dot projects, within a fifth of a pixel (the
/// sRGB bytes weigh it), at several places off the pixel grid; a texel shown one pixel
/// over is a pixel off.
#[test]
fn at_full_scale_each_pixel_shows_its_own_texel() {
    use common::host::HeadlessTarget;
    use flurry::effect::{Range, Shape};
    use flurry::ParticleRenderer;
    let gpu = common::gpu();
    let settings = Settings {
        scale: Scale::Full,
        ..common::settings()
    };
    let camera = Camera::look_at(Vec3::new(0.0, 0.0, 6.0), Vec3::ZERO, 1.0);
    let target = HeadlessTarget::new(&gpu.device, 64, 48);
    for point in [[0.0, 0.0, 0.0], [0.83, -0.41, 0.0], [-1.37, 0.66, 0.5]] {
        let mut renderer =
            ParticleRenderer::new(&gpu.device, HeadlessTarget::TARGETS, settings).unwrap();
        let white = [1.0, 1.0, 1.0, 1.0];
        let dot = common::held(
            Shape::Point(point),
            1,
            Range::constant(0.1),
            white,
            [0.0; 3],
        );
        let effect = common::still("dot", vec![dot]);
        renderer
            .add_effect(&gpu.device, &gpu.queue, &effect, 4, 1)
            .unwrap();
        for _ in 0..2 {
            common::host_frame(&gpu, &mut renderer, &target, &camera, 1e-4);
        }
        let img = target.read_rgba(&gpu).unwrap();
        let (mut sum, mut at) = (0.0, flurry::glam::Vec2::ZERO);
        for (x, y, p) in img.enumerate_pixels() {
            let light = p.0[0] as f32;
            sum += light;
            at += light * flurry::glam::Vec2::new(x as f32 + 0.5, y as f32 + 0.5);
        }
        assert!(sum > 0.0, "{point:?}: the dot shows nowhere");
        let projected = common::to_pixel(camera.view_proj(), target.size(), point.into());
        let centre = at / sum;
        assert!(
            centre.distance(projected) < 0.2,
            "{point:?}: its light is centred at {centre}, it projects to {projected}"
        );
    }
}
