//! Navigation fields against exact CPU computations: the GPU's signed distance field of a
//! city is the exact Euclidean distance transform within one cell.

mod common;

use flurry::nav::{CityMap, DistanceField};

/// The exact signed distance of every cell centre (metres, as `DistanceField` defines it):
/// outside, the distance to the nearest blocked cell centre or the nearest cell beyond the
/// map's edge, less half a cell; inside, minus the distance to the nearest free cell centre,
/// less half a cell. By brute force.
fn exact_field(map: &CityMap) -> Vec<f32> {
    let (w, h) = map.size();
    let (w, h) = (w as i64, h as i64);
    let cells: Vec<(i64, i64, bool)> = (0..h)
        .flat_map(|z| (0..w).map(move |x| (x, z)))
        .map(|(x, z)| (x, z, map.is_blocked(x, z)))
        .collect();
    let nearest = |x: i64, z: i64, blocked: bool| {
        cells
            .iter()
            .filter(|c| c.2 == blocked)
            .map(|c| (((c.0 - x).pow(2) + (c.1 - z).pow(2)) as f32).sqrt())
            .fold(f32::INFINITY, f32::min)
    };
    let half = 0.5 * map.cell();
    cells
        .iter()
        .map(|&(x, z, blocked)| {
            if blocked {
                -(nearest(x, z, false) * map.cell() - half)
            } else {
                let edge = (x + 1).min(w - x).min(z + 1).min(h - z) as f32;
                nearest(x, z, true).min(edge) * map.cell() - half
            }
        })
        .collect()
}

#[test]
fn the_gpu_distance_field_of_a_city_is_exact_within_one_cell() {
    // 96 × 80 cells of 2 m: blocks of 6 cells between streets 2 wide, squares and yards
    let map = CityMap::city(2.0, (96, 80), (6, 2), 3).unwrap();
    let gpu = common::gpu();
    let field = DistanceField::new(&gpu.device, &map).unwrap();
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    field.record(&mut encoder);
    gpu.queue.submit([encoder.finish()]);
    let got = field.read(&gpu.device, &gpu.queue).unwrap();
    let want = exact_field(&map);
    assert_eq!(got.len(), want.len());
    let mut worst = (0, 0.0f32);
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        let err = (g - w).abs();
        if err > worst.1 {
            worst = (i, err);
        }
        assert!(
            g.signum() == w.signum() || w.abs() < 1e-6,
            "cell {i}: {g} m where the exact field is {w} m"
        );
    }
    // jump flooding misses the nearest seed only now and then: nearly every cell is exact
    let exact = got
        .iter()
        .zip(&want)
        .filter(|(g, w)| (*g - *w).abs() < 1e-4)
        .count();
    assert!(
        exact * 100 >= 99 * got.len(),
        "only {exact} of {} cells exact",
        got.len()
    );
    let (i, err) = worst;
    assert!(
        err <= map.cell(),
        "cell {i}: off by {err} m (a cell is {} m): {} against {}",
        map.cell(),
        got[i],
        want[i]
    );
    // the field reaches well into the squares: some street cell is more than 3 cells from
    // any wall
    let deepest = got.iter().cloned().fold(f32::MIN, f32::max);
    assert!(
        deepest > 3.0 * map.cell(),
        "deepest street cell {deepest} m"
    );
}
