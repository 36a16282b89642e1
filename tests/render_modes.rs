//! Quad orientation per render mode, measured on the picture: one large particle at the
//! origin seen from a camera pitched 45° down.

mod common;

use flurry::app::Scene;
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
            ..Default::default()
        });
    scene.frame(&gpu, 1e-4, true);
    scene.frame(&gpu, 1e-4, true);
    let img = scene.target.read_rgba(&gpu.device, &gpu.queue).unwrap();
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
