//! Textured ribbons: the host's image runs along a ribbon from its newest point (0) to its
//! oldest (`repeats`), evenly by point, and across it from one edge to the other.

mod common;

use common::host::scene::Subject;
use common::host::{HostSetup, Scene};
use flurry::effect::*;
use flurry::{Camera, Image, ImageId, Scale, Settings};
use glam::Vec3;

const SIZE: (u32, u32) = (256, 256);
const DT: f32 = 1.0 / 16.0;

fn camera(aspect: f32) -> Camera {
    Camera::look_at(Vec3::new(0.0, 0.0, 10.0), Vec3::ZERO, aspect)
}

const RED: [u8; 4] = [255, 0, 0, 255];
const BLUE: [u8; 4] = [0, 0, 255, 255];

/// 64 texels along: the first half red, the second blue (two rows alike).
fn red_then_blue() -> Image {
    let row: Vec<_> = (0..64).map(|x| if x < 32 { RED } else { BLUE }).collect();
    Image::new(64, 2, [row.clone(), row].concat()).unwrap()
}

/// 16 rows across: the top half red, the bottom half blue (two texels along alike).
fn red_over_blue() -> Image {
    let pixels = (0..16)
        .flat_map(|y| [if y < 8 { RED } else { BLUE }; 2])
        .collect();
    Image::new(2, 16, pixels).unwrap()
}

fn textured(repeats: f32) -> RenderMode {
    RenderMode::Ribbon {
        subdivisions: 4,
        texture: Some(RibbonTexture {
            image: ImageId(0),
            repeats,
        }),
    }
}

fn scene(effect: &EffectDesc, image: Image) -> (flurry::GpuContext, Scene) {
    let gpu = common::gpu();
    let subject = Subject {
        desc: effect,
        capacity: 4096,
        seed: 3,
        meshes: Vec::new(),
        images: vec![image],
    };
    let scene = Scene::hosted(&gpu, subject, SIZE, camera, HostSetup::STANDARD)
        .unwrap()
        .with_settings(Settings {
            scale: Scale::Full,
            ..common::settings()
        });
    (gpu, scene)
}

/// The colour the picture shows at world point `x`: 'r', 'b' or '?'.
fn colour_at(img: &image::RgbaImage, x: Vec3) -> char {
    common::red_or_blue(img, common::to_pixel(camera(1.0).view_proj(), SIZE, x))
}

const POINTS: usize = 25;

/// A straight white ribbon of 25 points, one a frame from x = -3 (the oldest) to x = 3
/// (the newest), 0.8 m wide, showing `image` with `render`; the last frame's picture.
fn straight_ribbon(render: RenderMode, image: Image) -> image::RgbaImage {
    let effect = EffectDesc {
        name: "textured".into(),
        emitters: vec![EmitterDesc {
            rate: 16.0,
            lifetime: Range::constant(100.0),
            size: Range::constant(0.8),
            render: Some(render),
            ..Default::default()
        }],
        forces: Forces::NONE,
        blend: Blend::Additive,
        ..Default::default()
    };
    let (gpu, mut scene) = scene(&effect, image);
    let id = scene.effect;
    for k in 0..POINTS {
        let shape = Shape::Point(point(k).to_array());
        let still = Velocity::default();
        scene
            .renderer
            .set_emitter(id, 0, shape, still, 16.0)
            .unwrap();
        scene.frame(&gpu, DT, k + 1 == POINTS);
    }
    scene.image(&gpu).unwrap()
}

/// Point k of the straight ribbon (0 the oldest).
fn point(k: usize) -> Vec3 {
    Vec3::new(-3.0 + 0.25 * k as f32, 0.0, 0.0)
}

/// What the image shows at each point, newest first, with `repeats` along.
fn along(repeats: f32) -> String {
    let img = straight_ribbon(textured(repeats), red_then_blue());
    (0..POINTS)
        .rev()
        .map(|k| colour_at(&img, point(k)))
        .collect()
}

/// Whether `seen` (a colour per point, newest first) matches `expected` (a colour per
/// point, newest first, '.' where a point sits within a texel of a colour change: there
/// linear filtering blends them).
fn matches(seen: &str, expected: &str) -> bool {
    seen.chars()
        .zip(expected.chars())
        .all(|(s, e)| e == '.' || s == e)
}

#[test]
fn the_image_runs_once_from_the_newest_point_to_the_oldest() {
    // u = rank / 24: red for ranks 0..12, blue for 12..=24 (the ends wrap: '.')
    let seen = along(1.0);
    let expected = ".rrrrrrrrrr...bbbbbbbbbb.";
    assert!(matches(&seen, expected), "seen {seen}, expected {expected}");
}

#[test]
fn repeats_tile_the_image_along_the_ribbon() {
    // u = rank / 12: red, blue, red, blue over ranks 0..6, 6..12, 12..18, 18..24
    let seen = along(2.0);
    let expected = ".rrrrr.bbbbb.rrrrr.bbbbb.";
    assert!(matches(&seen, expected), "seen {seen}, expected {expected}");
}

#[test]
fn across_the_ribbon_each_edge_shows_its_own_half_of_the_image_everywhere() {
    let img = straight_ribbon(textured(1.0), red_over_blue());
    let edge = |dy: f32| -> String {
        (1..POINTS - 1)
            .map(|k| colour_at(&img, point(k) + Vec3::new(0.0, dy, 0.0)))
            .collect()
    };
    let (below, above) = (edge(-0.15), edge(0.15));
    let one = |s: &str, c: char| s.chars().all(|x| x == c);
    assert!(
        (one(&below, 'r') && one(&above, 'b')) || (one(&below, 'b') && one(&above, 'r')),
        "below {below}, above {above}"
    );
}

#[test]
fn a_trail_shows_its_image_from_its_newest_point_back() {
    // a spark at 2 m/s along x laying a point every 0.1 s: after 1.25 s its 13 points lie
    // at x = 0, 0.2, .., 2.4, the newest (u = 0) next to the spark
    let spark = EmitterDesc {
        bursts: vec![Burst::once(0.0, 1)],
        velocity: Velocity::Linear {
            mean: [2.0, 0.0, 0.0],
            variance: [0.0; 3],
        },
        lifetime: Range::constant(100.0),
        size: Range::constant(0.01),
        ..Default::default()
    };
    let trail = EmitterDesc {
        trigger: Trigger::Trail { of: 0, every: 0.1 },
        lifetime: Range::constant(100.0),
        size: Range::constant(0.6),
        render: Some(textured(1.0)),
        ..Default::default()
    };
    let effect = EffectDesc {
        name: "trail".into(),
        emitters: vec![spark, trail],
        forces: Forces::NONE,
        blend: Blend::Additive,
        ..Default::default()
    };
    let (gpu, mut scene) = scene(&effect, red_then_blue());
    let frames = 20; // 1.25 s at 1/16 s
    for f in 0..frames {
        scene.frame(&gpu, DT, f + 1 == frames);
    }
    let img = scene.image(&gpu).unwrap();
    // seq 12 (x = 2.4) is the newest: u = (12 - seq) / 12
    let seen: String = (0..=12)
        .rev()
        .map(|seq| colour_at(&img, Vec3::new(0.2 * seq as f32, 0.0, 0.0)))
        .collect();
    let expected = ".rrrrr.bbbbb.";
    assert!(matches(&seen, expected), "seen {seen}, expected {expected}");
}

#[test]
fn bad_textures_are_refused_by_field() {
    let mut effect = EffectDesc {
        emitters: vec![EmitterDesc {
            render: Some(textured(0.0)),
            ..Default::default()
        }],
        ..Default::default()
    };
    let problems = effect.validate().unwrap_err().to_string();
    assert!(
        problems.contains("emitters[0].render.Ribbon.texture.repeats = 0: allowed 0.01..=1000"),
        "{problems}"
    );
    // one image per effect: its ribbons are one draw
    effect.emitters[0].render = Some(textured(1.0));
    effect.emitters.push(EmitterDesc {
        render: Some(RenderMode::Ribbon {
            subdivisions: 0,
            texture: Some(RibbonTexture {
                image: ImageId(1),
                repeats: 1.0,
            }),
        }),
        ..Default::default()
    });
    let problems = effect.validate().unwrap_err().to_string();
    assert!(
        problems.contains("emitters[1].render.Ribbon.texture.image = 1: allowed 0, the image"),
        "{problems}"
    );
    // an image the renderer does not hold
    effect.emitters.pop();
    let gpu = common::gpu();
    let targets = flurry::Targets::new(wgpu::TextureFormat::Rgba8UnormSrgb, None);
    let mut renderer =
        flurry::ParticleRenderer::new(&gpu.device, targets, common::settings()).unwrap();
    let err = renderer
        .add_effect(&gpu.device, &gpu.queue, &effect, 64, 1)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("emitters[0].render.Ribbon.texture.image = 0: allowed an image added to this renderer (none has been)"),
        "{err}"
    );
    let id = renderer
        .add_image(&gpu.device, &gpu.queue, &red_then_blue())
        .unwrap();
    assert_eq!(id, ImageId(0));
    renderer
        .add_effect(&gpu.device, &gpu.queue, &effect, 64, 1)
        .unwrap();
}

#[test]
fn effect_files_name_an_image_and_may_leave_the_repeats() {
    let text = "(emitters: [(render: Some(Ribbon(subdivisions: 4, texture: Some((image: 0)))))])";
    let e = EffectDesc::from_ron(text).unwrap();
    assert_eq!(e.emitters[0].render, Some(textured(1.0)));
    // a ribbon without a texture needs no mention of one
    let text = "(emitters: [(render: Some(Ribbon(subdivisions: 4)))])";
    let e = EffectDesc::from_ron(text).unwrap();
    let plain = RenderMode::Ribbon {
        subdivisions: 4,
        texture: None,
    };
    assert_eq!(e.emitters[0].render, Some(plain));
}
