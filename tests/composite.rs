//! The low-resolution particle target against the host's depth: hidden behind opaque
//! geometry at every scale, and nearest-depth upsampling leaves less halo than bilinear.

mod common;

use common::{Render, WALL_GREY};
use flurry::{Scale, Settings, Upsample};
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
    for scale in [Scale::Full, Scale::Half] {
        let settings = Settings {
            scale,
            ..Default::default()
        };
        let img = common::wall_scene(&gpu, settings).render(&gpu);
        // well inside the wall: its colour exactly, whatever is behind it
        let w = wall_byte();
        for y in 0..96 {
            for x in 0..WALL_COLUMNS - 4 {
                let p = img.get_pixel(x, y).0;
                assert!(
                    p[..3].iter().all(|&c| c.abs_diff(w) <= 1),
                    "{scale:?}: wall pixel ({x}, {y}) is {p:?}, the wall is {w}"
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
            "{scale:?}: the visible half of the cloud is dark ({})",
            red / n
        );
    }
}

#[test]
fn nearest_depth_upsampling_leaves_less_halo_than_bilinear() {
    let gpu = common::gpu();
    for scale in [Scale::Half, Scale::Quarter] {
        let render = |upsample| {
            let settings = Settings {
                scale,
                upsample,
                ..Default::default()
            };
            common::wall_scene(&gpu, settings).render(&gpu)
        };
        let bilinear = halo(&render(Upsample::Bilinear));
        let nearest = halo(&render(Upsample::NearestDepth));
        println!("{scale:?}: halo bilinear {bilinear}, nearest-depth {nearest}");
        assert!(
            bilinear > 1000,
            "{scale:?}: bilinear shows no halo ({bilinear}): the test proves nothing"
        );
        assert!(
            nearest * 4 < bilinear,
            "{scale:?}: nearest-depth halo {nearest} vs bilinear {bilinear}"
        );
    }
}
