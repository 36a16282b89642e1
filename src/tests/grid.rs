//! The neighbour grid against a brute-force search: for 4,096 particles scattered through a
//! box, the grid's query finds, for every particle, exactly the others within the radius
//! (their number and the sum of their indices), as an O(N²) search on the CPU does.

use glam::Vec3;

use super::{held, still, Solo};
use crate::effect::Shape;
use crate::passes::grid::{GridPasses, NeighbourGrid};
use crate::Camera;

/// (neighbours, sum of their indices) of every particle within `radius`, by brute force;
/// None for a particle with a pair within a relative 1e-5 of the radius (the GPU's
/// rounding may count it either way).
fn brute_force(positions: &[(u32, Vec3)], radius: f32) -> Vec<Option<(u32, u32)>> {
    let r2 = radius * radius;
    positions
        .iter()
        .map(|&(q, x)| {
            let (mut n, mut sum, mut unsure) = (0u32, 0u32, false);
            for &(j, y) in positions {
                let e = y - x;
                let d2 = e.dot(e);
                unsure |= j != q && (d2 - r2).abs() < 1e-5 * r2;
                if j != q && d2 <= r2 {
                    n += 1;
                    sum = sum.wrapping_add(j);
                }
            }
            (!unsure).then_some((n, sum))
        })
        .collect()
}

#[test]
fn the_grid_finds_exactly_the_neighbours_a_brute_force_search_finds() {
    // 4,096 particles in a 4 m box, about 33 within 0.5 m of each; part of the box lies
    // below zero, where cells have negative coordinates
    let count = 4096;
    let radius = 0.5;
    let box_shape = Shape::Box {
        min: [-1.5, -2.0, -0.7],
        max: [2.5, 2.0, 3.3],
    };
    let desc = still("grid", vec![held(box_shape, count)]);
    let mut solo = Solo::new(&desc, count, 11);
    let camera = Camera::look_at(Vec3::new(0.0, 0.0, 8.0), Vec3::ZERO, 1.0);
    solo.frame(0.01, &camera);
    let snap = solo.snapshot();
    assert_eq!(snap.stats.alive, count);
    let (device, queue) = (&solo.gpu.device, &solo.gpu.queue);
    let pool = solo.system.pool();
    let passes = GridPasses::new(&crate::compiler::Compiler::new(device));
    let mut uploads = crate::uploads::Uploads::default();
    let grid = NeighbourGrid::new((device, &mut uploads), &passes, pool, radius);
    uploads.write_init(queue);
    let mut encoder = device.create_command_encoder(&Default::default());
    {
        let mut pass = encoder.begin_compute_pass(&Default::default());
        grid.record(&passes, &mut pass, pool);
        grid.record_count_neighbours(&passes, &mut pass, pool);
    }
    queue.submit([encoder.finish()]);
    let bytes =
        crate::readback::read_buffer(device, queue, grid.found(), 0, count as u64 * 8).unwrap();
    let found: Vec<[u32; 2]> = bytemuck::pod_collect_to_vec(&bytes);

    let positions: Vec<(u32, Vec3)> = snap
        .alive
        .iter()
        .map(|&i| (i, snap.particles[i as usize].pos))
        .collect();
    let expected = brute_force(&positions, radius);
    let mut checked = 0;
    let mut pairs = 0u64;
    for (&(q, _), want) in positions.iter().zip(&expected) {
        let Some((n, sum)) = *want else { continue };
        assert_eq!(
            found[q as usize],
            [n, sum],
            "particle {q}: the grid found (neighbours, index sum) {:?}, brute force ({n}, {sum})",
            found[q as usize]
        );
        checked += 1;
        pairs += n as u64;
    }
    // nearly every particle is checked, with tens of neighbours each
    assert!(
        checked > count - 16,
        "only {checked} particles away from the radius's edge"
    );
    let mean = pairs as f64 / checked as f64;
    assert!((20.0..50.0).contains(&mean), "{mean} neighbours a particle");
}
