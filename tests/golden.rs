//! Small headless renders against committed PNGs (mean-error tolerance): each demo, and a
//! wall in front of a particle cloud at particle-target scales 1 and 1/2.
//! `FLURRY_BLESS=1 cargo test --test golden` rewrites them; a failure writes
//! `tests/golden/<name>-actual.png` and `<name>-diff.png` beside the golden image.

mod common;

use std::path::PathBuf;

use common::Render;
use flurry::app::Scene;
use flurry::{Demo, Scale, Settings};
use image::RgbaImage;

/// Mean absolute difference per channel, 0..255.
const TOLERANCE: f64 = 2.0;

fn render_demo(demo: Demo, capacity: u32, frames: u32) -> RgbaImage {
    let gpu = common::gpu();
    let mut scene = Scene::for_demo(&gpu, demo, capacity, 1, (128, 96)).unwrap();
    for _ in 0..frames {
        scene.frame(&gpu, 1.0 / 60.0, true);
    }
    scene.target.read_rgba(&gpu.device, &gpu.queue).unwrap()
}

fn mean_error(a: &RgbaImage, b: &RgbaImage) -> f64 {
    let sum: u64 = a
        .as_raw()
        .iter()
        .zip(b.as_raw())
        .map(|(&x, &y)| x.abs_diff(y) as u64)
        .sum();
    sum as f64 / a.as_raw().len() as f64
}

fn check(name: &str, actual: RgbaImage) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let golden_path = dir.join(format!("{name}.png"));
    if std::env::var_os("FLURRY_BLESS").is_some() {
        actual.save(&golden_path).unwrap();
        return;
    }
    let golden = image::open(&golden_path)
        .unwrap_or_else(|e| panic!("{}: {e} (FLURRY_BLESS=1 creates it)", golden_path.display()))
        .to_rgba8();
    assert_eq!(golden.dimensions(), actual.dimensions(), "{name}: size");
    let err = mean_error(&golden, &actual);
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

/// A picture that is all background would pass against a blank golden: demand particles.
fn lit_fraction(img: &RgbaImage) -> f64 {
    let lit = img
        .pixels()
        .filter(|p| p.0[..3].iter().any(|&c| c > 60))
        .count();
    lit as f64 / (img.width() * img.height()) as f64
}

#[test]
fn snow_golden() {
    let img = render_demo(Demo::Snow, 16_384, 30);
    assert!(lit_fraction(&img) > 0.01, "snow shows no flakes");
    check("snow", img);
}

#[test]
fn fireworks_golden() {
    let img = render_demo(Demo::Fireworks, 4096, 40);
    assert!(lit_fraction(&img) > 0.005, "fireworks show no sparks");
    check("fireworks", img);
}

#[test]
fn wall_goldens_at_scales_1_and_half() {
    let gpu = common::gpu();
    for (name, scale) in [("wall-scale1", Scale::Full), ("wall-scale0.5", Scale::Half)] {
        let settings = Settings {
            scale,
            ..Default::default()
        };
        let img = common::wall_scene(&gpu, settings).render(&gpu);
        assert!(lit_fraction(&img) > 0.05, "{name}: no particles");
        check(name, img);
    }
}
