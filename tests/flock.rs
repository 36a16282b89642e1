//! A flock as its effect file describes it: birds that start as noise turn into one flock
//! flying as one, and never crowd each other.

mod common;

use std::collections::HashMap;

use common::host::demos::Demo;
use common::host::Scene;
use glam::{IVec3, Vec3};

/// The birds (position, velocity) alive in `scene`.
fn birds(scene: &Scene, gpu: &flurry::GpuContext) -> Vec<(Vec3, Vec3)> {
    let snap = scene.snapshot(gpu).unwrap();
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
    // 16,384 birds of the flock demo (effects/flock.ron at its density), each flying its
    // own way: their local order starts below 0.3 and is above 0.8 after 75 frames of
    // 1/30 s; from then on to frame 300 (10 s, looked at every 5th frame) no two birds come
    // nearer than half the separation radius
    let gpu = common::gpu();
    let mut scene = Scene::for_demo(&gpu, Demo::Flock, 16_384, 5, (64, 48)).unwrap();
    let desc = scene.desc().clone();
    let separation = desc.flock.unwrap().separation;
    let radius = desc.neighbours.unwrap();
    scene.frame(&gpu, 1e-4, false);
    let start = birds(&scene, &gpu);
    assert_eq!(start.len(), 16_384);
    let order = local_order(&start, radius);
    assert!(order < 0.3, "a random start has local order {order}");
    for frame in 1..=300 {
        scene.frame(&gpu, 1.0 / 30.0, false);
        if frame >= 75 && frame % 5 == 0 {
            let b = birds(&scene, &gpu);
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
fn every_bird_flies_within_the_flock_speed_range_at_any_substep_count() {
    // the flock demo's effect, 4,096 birds, 40 frames of 1/30 s each stepped in 1, 2, 4 or
    // 8 substeps: every bird's speed stays within the flock's [mean − variance, mean +
    // variance] (the steering is found once a frame; its limit holds for the frame's end,
    // whatever the substeps). Before, 4 substeps put birds at 1e17 m/s.
    let gpu = common::gpu();
    for substeps in [1, 2, 4, 8] {
        let mut scene = Scene::for_demo(&gpu, Demo::Flock, 4096, 5, (64, 48)).unwrap();
        let speed = scene.desc().flock.unwrap().speed;
        let (slowest, fastest) = (speed.mean - speed.variance, speed.mean + speed.variance);
        scene.renderer.set_substeps(substeps).unwrap();
        for frame in 1..=40 {
            scene.frame(&gpu, 1.0 / 30.0, false);
            if frame % 10 != 0 {
                continue;
            }
            let b = birds(&scene, &gpu);
            assert_eq!(b.len(), 4096);
            for (pos, vel) in b {
                let s = vel.length();
                assert!(
                    pos.is_finite() && s >= slowest * 0.999 && s <= fastest * 1.001,
                    "{substeps} substeps, frame {frame}: a bird at {pos} flies {s} m/s \
                     (allowed {slowest}..={fastest})"
                );
            }
        }
    }
}
