//! Small headless renders against committed PNGs (mean-error tolerance): the demos, and a
//! wall in front of a particle cloud at particle-target scales 1 and 1/2.
//! `FLURRY_BLESS=1 cargo test --test golden` rewrites them; a failure writes
//! `tests/golden/<name>-actual.png` and `<name>-diff.png` beside the golden image.

mod common;

use common::host::HostSetup;

use common::host::demos::Demo;
use common::host::Scene;
use common::Render;
use flurry::glam::Vec2;
use flurry::{Scale, Settings};
use image::RgbaImage;

fn render_demo(demo: Demo, capacity: u32, frames: u32) -> RgbaImage {
    let gpu = common::gpu();
    let mut scene = Scene::for_demo(&gpu, demo, capacity, 1, (128, 96)).unwrap();
    for _ in 0..frames {
        scene.frame(&gpu, 1.0 / 60.0, true);
    }
    scene.image(&gpu).unwrap()
}

#[test]
fn snow_golden() {
    let img = render_demo(Demo::Snow, 16_384, 30);
    // (most flakes here are a pixel or two across: faint, as their area says)
    assert!(common::lit_fraction(&img) > 0.004, "snow shows no flakes");
    common::check_golden("snow", &img);
}

#[test]
fn fireworks_golden() {
    let img = render_demo(Demo::Fireworks, 4096, 120);
    assert!(
        common::lit_fraction(&img) > 0.005,
        "fireworks show no sparks"
    );
    common::check_golden("fireworks", &img);
}

#[test]
fn explosion_golden() {
    // a second in, on its ground: the fireball's flipbook, sparks and their trails, the
    // smoke's first puffs lit and shadowing one another (every look of an image sprite, on an
    // LDR host)
    let gpu = common::gpu();
    let stage = common::host::stage::Stage::Plane;
    let demo = Demo::Explosion;
    let mut scene = Scene::for_demo_in(&gpu, demo, stage, 16_384, 1, (160, 90)).unwrap();
    for _ in 0..60 {
        scene.frame(&gpu, 1.0 / 60.0, true);
    }
    let img = scene.image(&gpu).unwrap();
    assert!(
        common::lit_fraction(&img) > 0.02,
        "the explosion shows nothing"
    );
    common::check_golden("explosion", &img);
}

#[test]
fn sword_golden() {
    // on its ground, mid-swing: the afterimage arc, sparks with trails, shards on the ground
    let gpu = common::gpu();
    let stage = common::host::stage::Stage::Plane;
    let mut scene = Scene::for_demo_in(&gpu, Demo::Sword, stage, 16_384, 1, (160, 90)).unwrap();
    for _ in 0..100 {
        scene.frame(&gpu, 1.0 / 60.0, true);
    }
    let img = scene.image(&gpu).unwrap();
    assert!(
        common::lit_fraction(&img) > 0.005,
        "the sword shows nothing"
    );
    common::check_golden("sword", &img);
}

#[test]
fn wall_goldens_at_scales_1_and_half() {
    let gpu = common::gpu();
    for (name, scale) in [("wall-scale1", Scale::Full), ("wall-scale0.5", Scale::Half)] {
        let settings = Settings {
            scale,
            ..common::settings()
        };
        let img = common::wall_scene(&gpu, settings, HostSetup::STANDARD).render(&gpu);
        assert!(common::lit_fraction(&img) > 0.05, "{name}: no particles");
        common::check_golden(name, &img);
    }
}

#[test]
fn a_jittered_projection_moves_the_particles_with_the_host() {
    // a temporal anti-aliasing host jitters its projection by a fraction of a pixel each
    // frame: the picture stays within the golden tolerance of the unjittered one
    let gpu = common::gpu();
    let settings = Settings {
        scale: Scale::Half,
        ..common::settings()
    };
    let golden = common::golden("wall-scale0.5");
    let mut scene = common::wall_scene(&gpu, settings, HostSetup::STANDARD);
    scene.jitter = Vec2::new(0.5, -0.5);
    let img = scene.render(&gpu);
    let err = common::mean_error(&golden, &img);
    assert!(
        err <= common::TOLERANCE,
        "half-pixel jitter: mean error {err:.2}"
    );
    // a jitter of exactly one particle-target texel (two host pixels) moves particles and
    // wall together: the picture is the golden one shifted by two pixels
    let mut scene = common::wall_scene(&gpu, settings, HostSetup::STANDARD);
    scene.jitter = Vec2::new(2.0, 2.0);
    let img = scene.render(&gpu);
    let (w, h) = img.dimensions();
    let crop = |img: &RgbaImage, dx: u32, dy: u32| {
        image::imageops::crop_imm(img, dx, dy, w - 2, h - 2).to_image()
    };
    let shifted = common::mean_error(&crop(&golden, 0, 0), &crop(&img, 2, 2));
    let unshifted = common::mean_error(&crop(&golden, 0, 0), &crop(&img, 0, 0));
    assert!(
        shifted <= 0.25 * common::TOLERANCE,
        "two-pixel jitter: mean error {shifted:.2} from the golden image moved by two pixels"
    );
    assert!(
        unshifted > 4.0 * shifted,
        "the jitter did not move the picture ({unshifted:.2} unmoved vs {shifted:.2} moved)"
    );
}

#[test]
fn rain_golden() {
    // rain falls on its own ground plane and splashes there
    let gpu = common::gpu();
    let demo = Demo::Rain;
    let mut scene =
        Scene::for_demo_in(&gpu, demo, demo.default_stage(), 8192, 4, (128, 96)).unwrap();
    for _ in 0..60 {
        scene.frame(&gpu, 1.0 / 60.0, true);
    }
    let snap = scene.snapshot(&gpu).unwrap();
    assert!(
        snap.counters.hit_spawned > 0,
        "no splashes after a second of rain"
    );
    let img = scene.image(&gpu).unwrap();
    common::check_golden("rain", &img);
}

#[test]
fn gun_golden() {
    // headless, the gun fires on a schedule: bursts of 3 every 0.1 s at 100 m/s
    let gpu = common::gpu();
    let demo = Demo::Gun;
    let mut scene =
        Scene::for_demo_in(&gpu, demo, demo.default_stage(), 1024, 4, (128, 96)).unwrap();
    for _ in 0..90 {
        scene.frame(&gpu, 1.0 / 60.0, true);
    }
    let snap = scene.snapshot(&gpu).unwrap();
    // 1 s of life, 3 shots every 0.1 s: about 30 alive
    assert!(
        (27..=33).contains(&snap.counters.alive),
        "{} bullets alive",
        snap.counters.alive
    );
    for &i in &snap.alive {
        let p = &snap.particles[i as usize];
        let speed = p.vel.length();
        assert!((95.0..=106.0).contains(&speed), "a bullet at {speed} m/s");
    }
    let img = scene.image(&gpu).unwrap();
    assert!(common::lit_fraction(&img) > 0.002, "no tracers on screen");
    common::check_golden("gun", &img);
}
