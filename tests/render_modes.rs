//! Quad orientation per render mode, measured on the picture: one large particle at the
//! origin seen from a camera pitched 45° down.

mod common;

use common::host::Scene;
use flurry::effect::*;
use flurry::{Camera, Scale, Settings};
use glam::Vec3;

fn one_particle(render: RenderMode, vel: [f32; 3]) -> EffectDesc {
    let one = common::held(
        Shape::Point([0.0; 3]),
        1,
        Range::new(1.0, 0.0),
        [1.0; 4],
        vel,
    );
    EffectDesc {
        render,
        ..common::still("one", vec![one])
    }
}

/// Height / width of the lit region.
fn aspect(render: RenderMode, vel: [f32; 3]) -> f32 {
    let gpu = common::gpu();
    let d = 4.0f32;
    let s = std::f32::consts::FRAC_1_SQRT_2;
    let camera = |a| Camera::look_at(Vec3::new(0.0, d * s, d * s), Vec3::ZERO, a);
    let mut scene = Scene::new(&gpu, &one_particle(render, vel), 16, 1, (96, 96), camera)
        .unwrap()
        .with_settings(Settings {
            scale: Scale::Full,
            ..common::settings()
        });
    scene.frame(&gpu, 1e-4, true);
    scene.frame(&gpu, 1e-4, true);
    let img = scene.image(&gpu).unwrap();
    let lit: Vec<(u32, u32)> = img
        .enumerate_pixels()
        .filter(|(_, _, p)| p.0[0] > 40)
        .map(|(x, y, _)| (x, y))
        .collect();
    assert!(lit.len() > 50, "{render:?}: the particle is not on screen");
    let (x0, x1) = (
        lit.iter().map(|p| p.0).min().unwrap(),
        lit.iter().map(|p| p.0).max().unwrap(),
    );
    let (y0, y1) = (
        lit.iter().map(|p| p.1).min().unwrap(),
        lit.iter().map(|p| p.1).max().unwrap(),
    );
    (y1 - y0 + 1) as f32 / (x1 - x0 + 1) as f32
}

#[test]
fn billboards_face_the_camera_and_upright_ones_keep_the_world_up() {
    let billboard = aspect(RenderMode::Billboard, [0.0; 3]);
    let upright = aspect(RenderMode::Upright, [0.0; 3]);
    println!("height/width: billboard {billboard}, upright {upright}");
    assert!(
        (billboard - 1.0).abs() < 0.1,
        "a billboard should look round: {billboard}"
    );
    // a vertical disc seen from 45° above is foreshortened by about cos 45°
    assert!(
        (upright - 0.71).abs() < 0.1,
        "an upright billboard should stay vertical: {upright}"
    );
}

#[test]
fn stretched_particles_streak_along_their_velocity() {
    let wide = aspect(RenderMode::Stretched { seconds: 0.5 }, [8.0, 0.0, 0.0]);
    assert!(
        wide < 0.4,
        "a particle moving sideways at 8 m/s should streak sideways: {wide}"
    );
}

/// Lit fraction on a ring around the picture's centre, at 96 angles.
fn ring(img: &image::RgbaImage, radius: f32) -> Vec<f32> {
    let (cx, cy) = (img.width() as f32 / 2.0, img.height() as f32 / 2.0);
    (0..96)
        .map(|i| {
            let a = i as f32 / 96.0 * std::f32::consts::TAU;
            let (x, y) = (cx + radius * a.cos(), cy + radius * a.sin());
            img.get_pixel(x as u32, y as u32).0[0] as f32 / 255.0
        })
        .collect()
}

/// One particle facing the camera, drawn with `sprite`: 128x128 pixels, the quad about
/// 90 pixels across.
fn facing(sprite: Sprite, splat_radius: f32) -> image::RgbaImage {
    let gpu = common::gpu();
    let desc = EffectDesc {
        sprite,
        ..one_particle(RenderMode::Billboard, [0.0; 3])
    };
    let camera = |a| Camera::look_at(Vec3::new(0.0, 0.0, 1.2), Vec3::ZERO, a);
    let mut scene = Scene::new(&gpu, &desc, 16, 1, (128, 128), camera)
        .unwrap()
        .with_settings(Settings {
            scale: Scale::Full,
            splat_radius,
            ..common::settings()
        });
    scene.frame(&gpu, 1e-4, true);
    scene.frame(&gpu, 1e-4, true);
    scene.image(&gpu).unwrap()
}

/// The snow demo's snowflakes: the sprite shows six arms (what is lit at an angle is lit 60°
/// on, and a quarter of a ring through the arm tips is dark), where the disc is lit all
/// round.
fn six_arms(img: &image::RgbaImage, what: &str) {
    let r = ring(img, 34.0); // through the arms' tips, beyond the side branches
    let shift = |k: usize| (0..96).map(|i| (r[i] - r[(i + k) % 96]).abs()).sum::<f32>() / 96.0;
    let (sixty, thirty) = (shift(16), shift(8));
    let dark = r.iter().filter(|&&v| v < 0.2).count();
    assert!(
        thirty > 0.1 && sixty < 0.4 * thirty && dark >= 24,
        "{what}: 60° shift {sixty}, 30° shift {thirty}, {dark} of 96 dark"
    );
}

#[test]
fn snowflake_sprites_have_six_arms_drawn_or_splatted() {
    let disc = ring(&facing(Sprite::Disc, 0.0), 25.0);
    assert!(
        disc.iter().all(|&v| v > 0.5),
        "the disc is not lit all round"
    );

    six_arms(&facing(Sprite::Snowflakes, 0.0), "drawn");
    // the same flake through the compute splat (radius up to 64 target pixels)
    six_arms(&facing(Sprite::Snowflakes, 16.0), "splatted");
}
