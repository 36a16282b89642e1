//! Boids through the neighbour grid: the steering equals its CPU twin's particle by
//! particle, and a flock that starts as noise turns into one that flies as one without two
//! birds ever crowding each other.

use std::collections::HashMap;

use glam::{IVec3, Vec3};

use super::Solo;
use crate::effect::{EffectDesc, Shape};
use crate::Camera;

/// `effects/flock.ron` with `birds` birds at its density: its box narrowed in x and z.
fn flock(birds: u32) -> EffectDesc {
    let mut e = EffectDesc::from_ron(include_str!("../../effects/flock.ron")).unwrap();
    let shipped = e.emitters[0].bursts[0].count;
    let narrow = (birds as f32 / shipped as f32).sqrt();
    if let Shape::Box { min, max } = &mut e.emitters[0].shape {
        for axis in [0, 2] {
            min[axis] *= narrow;
            max[axis] *= narrow;
        }
    }
    e.emitters[0].bursts[0].count = birds;
    e
}

/// The birds (position, velocity) alive in `solo`.
fn birds(solo: &Solo) -> Vec<(Vec3, Vec3)> {
    let snap = solo.snapshot();
    snap.alive
        .iter()
        .map(|&i| {
            let p = snap.particles[i as usize];
            (p.pos, p.vel)
        })
        .collect()
}

/// For each bird, the pairs (other bird, distance) within `radius`, through a hash grid.
fn pairs_within(birds: &[(Vec3, Vec3)], radius: f32) -> Vec<Vec<(usize, f32)>> {
    let cell = |x: Vec3| (x / radius).floor().as_ivec3();
    let mut cells: HashMap<IVec3, Vec<usize>> = HashMap::new();
    for (i, b) in birds.iter().enumerate() {
        cells.entry(cell(b.0)).or_default().push(i);
    }
    birds
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let c = cell(b.0);
            let mut near = Vec::new();
            for k in 0..27 {
                let d = IVec3::new(k % 3 - 1, (k / 3) % 3 - 1, k / 9 - 1);
                for &j in cells.get(&(c + d)).into_iter().flatten() {
                    let dist = b.0.distance(birds[j].0);
                    if j != i && dist <= radius {
                        near.push((j, dist));
                    }
                }
            }
            near
        })
        .collect()
}

/// The flock's local order: for each bird with neighbours within `radius`, the length of
/// the mean of their unit velocities, averaged over those birds (1: every neighbourhood
/// flies one way; about 1/√n for n neighbours flying at random).
fn local_order(birds: &[(Vec3, Vec3)], radius: f32) -> f32 {
    let near = pairs_within(birds, radius);
    let orders: Vec<f32> = near
        .iter()
        .filter(|n| !n.is_empty())
        .map(|n| {
            let sum: Vec3 = n.iter().map(|&(j, _)| birds[j].1.normalize_or_zero()).sum();
            sum.length() / n.len() as f32
        })
        .collect();
    orders.iter().sum::<f32>() / orders.len().max(1) as f32
}

/// The distance between the two nearest birds.
fn closest_pair(birds: &[(Vec3, Vec3)], radius: f32) -> f32 {
    let near = pairs_within(birds, radius);
    near.iter()
        .flatten()
        .map(|&(_, d)| d)
        .fold(f32::INFINITY, f32::min)
}

#[test]
fn a_scattered_flock_turns_into_one_that_flies_as_one() {
    // 16,384 birds at the shipped effect's density, each flying its own way: their local
    // order starts below 0.3 and is above 0.8 after 75 frames of 1/30 s; from then on to
    // frame 300 (10 s) no two birds come nearer than half the separation radius
    let desc = flock(16_384);
    let separation = desc.flock.unwrap().separation;
    let radius = desc.neighbours.unwrap();
    let mut solo = Solo::new(&desc, 16_384, 5);
    let camera = Camera::look_at(Vec3::new(0.0, 40.0, 120.0), Vec3::new(0.0, 40.0, 0.0), 1.0);
    solo.frame(1e-4, &camera);
    let start = birds(&solo);
    assert_eq!(start.len(), 16_384);
    let order = local_order(&start, radius);
    assert!(order < 0.3, "a random start has local order {order}");
    for frame in 1..=300 {
        solo.frame(1.0 / 30.0, &camera);
        if frame >= 75 && frame % 25 == 0 {
            let b = birds(&solo);
            let order = local_order(&b, radius);
            assert!(order > 0.8, "frame {frame}: local order {order}");
            let closest = closest_pair(&b, radius);
            assert!(
                closest >= 0.5 * separation,
                "frame {frame}: two birds {closest} m apart (separation {separation} m)"
            );
        }
    }
}

#[test]
fn the_flock_steers_as_its_cpu_twin() {
    // 2,048 birds for three frames: the GPU's steering through the grid and the twin's over
    // every pair move each bird alike
    let desc = flock(2048);
    super::pool::compare_with_twin(&desc, 2048, 3, 3, 1.0 / 30.0);
}
