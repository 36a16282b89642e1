//! Navigation fields against exact CPU computations: the GPU's signed distance field of a
//! city is the exact Euclidean distance transform within one cell; its walking distances are
//! Dijkstra's, and its directions walk them.

mod common;

use common::paths::dijkstra;

use flurry::nav::{CityMap, DistanceField, Distances, FlowField, WallCost};

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

#[test]
fn the_gpu_walking_distances_are_dijkstra_s_and_its_directions_walk_them() {
    // two destinations in the streets of a 101 × 83 city (the solver takes the same steps
    // as Dijkstra: the same sums, but for rounding; its tiles of 16 × 16 cells do not fit
    // the map, so the last row and column of tiles are cut short)
    let map = CityMap::city(2.0, (101, 83), (6, 2), 3).unwrap();
    let goals = [(0, 0), (57, 41)];
    let gpu = common::gpu();
    let field = DistanceField::new(&gpu.device, &map).unwrap();
    let cost = WallCost::default();
    let (w, _) = map.size();
    let passes = FlowField::passes_for(&map);
    let flow = FlowField::new(&gpu.device, &map, &field, &goals, cost, passes).unwrap();
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    field.record(&mut encoder);
    flow.record(&mut encoder);
    gpu.queue.submit([encoder.finish()]);
    let sdf = field.read(&gpu.device, &gpu.queue).unwrap();
    let got = flow.read(&gpu.device, &gpu.queue).unwrap();
    assert_eq!(got.unsettled, 0, "the last pass still lowered cells");
    let want = dijkstra(&map, &sdf, &goals, cost);
    let mut far = 0.0f32;
    for (i, (g, d)) in got.metres.iter().zip(&want).enumerate() {
        if d.is_infinite() {
            assert_eq!(
                *g,
                Distances::UNREACHED,
                "cell {i}: reached where no way leads"
            );
            continue;
        }
        far = far.max(*d);
        assert!(
            (g - d).abs() <= map.cell().min(1e-4 * d.max(1.0)),
            "cell {i}: {g} m on the GPU, {d} m by Dijkstra"
        );
    }
    // the farthest street is a long walk, so the test compares real paths
    assert!(far > 100.0, "the farthest cell is {far} m away");
    // walking the directions from any street cell reaches a destination along a way as long
    // as the distance says (each step to the neighbour the shortest way leaves through)
    let weight = |i: usize| 1.0 + cost.extra * (1.0 - sdf[i] / cost.range).max(0.0);
    let at_goal = |i: usize| goals.iter().any(|&(x, z)| (z * w + x) as usize == i);
    for start in (0..got.metres.len()).step_by(7) {
        if !want[start].is_finite() {
            assert_eq!(
                got.directions[start],
                [0.0, 0.0],
                "cell {start}: a way out of nowhere"
            );
            continue;
        }
        let (mut i, mut walked, mut steps) = (start, 0.0f32, 0);
        while !at_goal(i) {
            let [dx, dz] = got.directions[i];
            let (sx, sz) = (dx.round() as i64, dz.round() as i64);
            assert!(
                (sx, sz) != (0, 0),
                "cell {i} (from {start}): no way to walk"
            );
            let (x, z) = (i as i64 % w as i64 + sx, i as i64 / w as i64 + sz);
            assert!(!map.is_blocked(x, z), "cell {i} walks into a building");
            let j = (z * w as i64 + x) as usize;
            let length = if sx != 0 && sz != 0 { 2f32.sqrt() } else { 1.0 } * map.cell();
            walked += length * 0.5 * (weight(i) + weight(j));
            (i, steps) = (j, steps + 1);
            assert!(
                steps <= got.metres.len(),
                "cell {start}: the walk goes round in circles"
            );
        }
        assert!(
            (walked - got.metres[start]).abs() <= 1e-3 * got.metres[start].max(1.0),
            "cell {start}: walked {walked} m where its distance is {} m",
            got.metres[start]
        );
    }
    // computed again (after a run that stopped its passes early), the same field
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    flow.record(&mut encoder);
    gpu.queue.submit([encoder.finish()]);
    assert_eq!(flow.read(&gpu.device, &gpu.queue).unwrap(), got);
    // too few passes leave it unsettled, and say so
    let short = FlowField::new(&gpu.device, &map, &field, &goals, cost, 2).unwrap();
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    field.record(&mut encoder);
    short.record(&mut encoder);
    gpu.queue.submit([encoder.finish()]);
    assert!(short.read(&gpu.device, &gpu.queue).unwrap().unsettled > 0);
    // refusals name the field
    let err = FlowField::new(&gpu.device, &map, &field, &[(2, 2)], cost, 10);
    let err = err.err().unwrap().to_string();
    assert!(err.contains("goals[0] = (2, 2)"), "{err}");
}
