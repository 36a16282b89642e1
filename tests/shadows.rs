//! Self-shadowing (`Lighting::shadows`): a column of smoke lit from above is bright on top
//! and dark beneath with shadows on, evenly lit with them off; the light reaching each puff
//! falls with the smoke above it as Beer and Lambert's law says.

mod common;

use common::hdr::HdrHost;
use flurry::effect::*;
use flurry::glam::Vec3;
use flurry::{Camera, Light};

/// Puffs in the column, their diameter and opacity: an extinction of n π r² α / 2 =
/// 50 × π × 0.04 × 0.35 / 2 ≈ 1.1 per metre.
const PUFFS: u32 = 200;
const SIZE: f32 = 0.4;
const ALPHA: f32 = 0.35;
const HEIGHT: f32 = 4.0;

fn extinction() -> f64 {
    let density = PUFFS as f64 / HEIGHT as f64; // a column of 1 m²
    let r = SIZE as f64 / 2.0;
    density * std::f64::consts::PI * r * r * ALPHA as f64 / 2.0
}

/// The column (1 × 4 × 1 m, standing on the origin) lit from straight above, seen from the
/// side on a 64 × 96 HDR host: the light of its top and bottom fifths (its rows), and each
/// puff's position and the light reaching it (from its flags).
fn column(shadows: bool) -> ((f64, f64), Vec<(Vec3, f64)>) {
    let gpu = common::gpu();
    let size = (64, 96);
    let host = HdrHost::new(&gpu, size);
    let camera = Camera::look_at(
        Vec3::new(0.0, 2.0, 9.0),
        Vec3::new(0.0, 2.0, 0.0),
        64.0 / 96.0,
    );
    let targets = flurry::Targets::new(HdrHost::FORMAT, None);
    let mut renderer =
        flurry::ParticleRenderer::new(&gpu.device, targets, common::settings()).unwrap();
    renderer
        .set_light(Light {
            direction: [0.0, 1.0, 0.0],
            color: [1.0; 3],
            ambient: [0.1; 3],
        })
        .unwrap();
    let shape = Shape::Box {
        min: [-0.5, 0.0, -0.5],
        max: [0.5, HEIGHT, 0.5],
    };
    let puffs = common::held(
        shape,
        PUFFS,
        Range::constant(SIZE),
        [0.8, 0.8, 0.8, ALPHA],
        [0.0; 3],
    );
    let mut desc = common::still("column", vec![puffs]);
    desc.lighting = Some(Lighting {
        wrap: 0.5,
        shadows: shadows.then(Shadows::default),
    });
    let id = renderer
        .add_effect(&gpu.device, &gpu.queue, &desc, PUFFS, 3)
        .unwrap();
    for _ in 0..3 {
        host.frame(&gpu, &mut renderer, &camera, 1.0 / 60.0);
    }
    let snapshot = renderer.snapshot(&gpu.device, &gpu.queue, id).unwrap();
    assert_eq!(snapshot.alive.len(), PUFFS as usize);
    let lit: Vec<(Vec3, f64)> = (snapshot.alive.iter())
        .map(|&i| {
            let p = snapshot.particles[i as usize];
            let hidden = (p.flags >> 1) & 127;
            (p.pos, 1.0 - hidden as f64 / 127.0)
        })
        .collect();
    let pixels = host.pixels(&gpu);
    let rows: Vec<f64> = (0..size.1 as usize)
        .map(|y| {
            let row = &pixels[y * size.0 as usize..(y + 1) * size.0 as usize];
            row.iter().map(|p| p[0] + p[1] + p[2]).sum()
        })
        .collect();
    let lit_rows: Vec<usize> = (0..rows.len()).filter(|&y| rows[y] > 0.05).collect();
    let (first, last) = (lit_rows[0], *lit_rows.last().unwrap());
    let fifth = (last - first) / 5;
    let band = |from: usize| rows[from..from + fifth].iter().sum::<f64>() / fifth as f64;
    ((band(first), band(last + 1 - fifth)), lit)
}

/// Lit from above with shadows on, the column's bottom is much darker than its top; with
/// them off both are lit alike. (The same puffs either way: each band's light is compared
/// with itself unshadowed, so that where the puffs happen to crowd does not count.)
#[test]
fn a_smoke_columns_underside_is_darker_than_its_top_with_shadows_and_not_without() {
    let ((top_off, bottom_off), _) = column(false);
    let ((top_on, bottom_on), _) = column(true);
    let (top, bottom) = (top_on / top_off, bottom_on / bottom_off);
    assert!(
        top > 0.6,
        "the top keeps most of its light: {top:.2} of it unshadowed"
    );
    assert!(
        bottom < 0.5 * top,
        "shadowed, the bottom keeps {bottom:.2} of its unshadowed light, the top {top:.2}"
    );
}

/// The light reaching the puffs falls with the depth of smoke above them as Beer and
/// Lambert say, exp(−σ d), band by band within the grid's blur (the puffs a cell or more
/// inside the column's sides, whose light is not mixed with the empty air beside it); with
/// shadows off every puff is fully lit.
#[test]
fn the_light_through_the_smoke_falls_as_beer_and_lambert_say() {
    let (_, unshadowed) = column(false);
    assert!(unshadowed.iter().all(|&(_, t)| t == 1.0));
    let (_, puffs) = column(true);
    let sigma = extinction();
    let mut last = f64::MAX;
    for band in 0..4 {
        let (lo, hi) = (HEIGHT - band as f32 - 1.0, HEIGHT - band as f32);
        let inside: Vec<f64> = (puffs.iter())
            .filter(|(p, _)| (lo..hi).contains(&p.y) && p.x.abs() < 0.25 && p.z.abs() < 0.25)
            .map(|&(_, t)| t)
            .collect();
        let mean = inside.iter().sum::<f64>() / inside.len() as f64;
        // the mean of exp(−σ d) over the band's depths
        let depth = |d: f64| (-sigma * d).exp();
        let want = (0..100)
            .map(|k| depth(band as f64 + (k as f64 + 0.5) / 100.0))
            .sum::<f64>()
            / 100.0;
        assert!(
            (mean - want).abs() < 0.1 + 0.25 * want,
            "{lo}..{hi} m: {mean:.3} of the light reaches its puffs, the law says {want:.3}"
        );
        assert!(
            mean < last,
            "{lo}..{hi} m: no darker than above ({mean:.3})"
        );
        last = mean;
    }
}
