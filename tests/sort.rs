//! Culling and sorting on the headless adapter, against independent CPU references.

mod common;

use std::collections::HashSet;

use common::host::demos::Demo;
use common::host::{HostSetup, Projection, Scene, Stage};
use flurry::bench::{random_pairs, SortBench, SortKind};
use flurry::{Camera, Settings};
use glam::{Mat4, Vec3, Vec4};

/// The key cull writes for a distance, as `PoolSnapshot::visible` documents it: ascending
/// keys run far to near.
fn sort_key(distance: f32) -> u32 {
    0xffff_fffe - distance.max(0.0).to_bits()
}

/// Frustum planes built from the frustum's corners (unprojected NDC corners), not from
/// the rows of the matrix as the library does: an independent reference.
fn planes_from_corners(view_proj: Mat4) -> Vec<(Vec3, f32)> {
    let inv = view_proj.inverse();
    let corner = |x: f32, y: f32, z: f32| {
        let p = inv * Vec4::new(x, y, z, 1.0);
        p.truncate() / p.w
    };
    // (near z = 0, far z = 1); each plane from three corners, oriented to contain the centre
    let c = |x, y, z| corner(x, y, z);
    let faces = [
        [c(-1.0, -1.0, 0.0), c(-1.0, 1.0, 0.0), c(-1.0, -1.0, 1.0)], // left
        [c(1.0, -1.0, 0.0), c(1.0, -1.0, 1.0), c(1.0, 1.0, 0.0)],    // right
        [c(-1.0, -1.0, 0.0), c(-1.0, -1.0, 1.0), c(1.0, -1.0, 0.0)], // bottom
        [c(-1.0, 1.0, 0.0), c(1.0, 1.0, 0.0), c(-1.0, 1.0, 1.0)],    // top
        [c(-1.0, -1.0, 0.0), c(1.0, -1.0, 0.0), c(-1.0, 1.0, 0.0)],  // near
        [c(-1.0, -1.0, 1.0), c(-1.0, 1.0, 1.0), c(1.0, -1.0, 1.0)],  // far
    ];
    let centre = corner(0.0, 0.0, 0.5);
    faces
        .iter()
        .map(|[a, b, d]| {
            let mut n = (*b - *a).cross(*d - *a).normalize();
            if n.dot(centre - *a) < 0.0 {
                n = -n;
            }
            (n, -n.dot(*a))
        })
        .collect()
}

#[test]
fn visible_set_matches_an_independent_cpu_frustum_test() {
    let gpu = common::gpu();
    // snow fills a box around the camera: many particles on every side of every plane
    let mut scene = Scene::for_demo(&gpu, Demo::Snow, 32_768, 5, (160, 90)).unwrap();
    scene.camera = Camera::look_at(
        Vec3::new(2.0, 3.0, 6.0),
        Vec3::new(-1.0, 5.0, -3.0),
        16.0 / 9.0,
    );
    scene.camera.far = 15.0; // bring the far plane inside the box
                             // a splat radius that splits the flakes in view between the two lists
    let splat_radius = 0.1;
    let settings = scene.renderer.settings();
    scene.renderer.set_settings(Settings {
        splat_radius,
        ..settings
    });
    for _ in 0..5 {
        scene.frame(&gpu, 0.016, false);
    }
    let snap = scene.snapshot(&gpu).unwrap();
    let planes = planes_from_corners(scene.camera.view_proj());
    let size_end = scene.desc().over_life.size_end;
    let drawn: HashSet<u32> = snap.visible.iter().map(|p| p[1]).collect();
    let splatted: HashSet<u32> = snap.splat.iter().copied().collect();
    let gpu_visible: HashSet<u32> = drawn.union(&splatted).copied().collect();
    assert_eq!(
        gpu_visible.len(),
        snap.visible.len() + snap.splat.len(),
        "an index is visible twice"
    );
    // the split: projected radius in particle-target pixels against the splat radius
    let target_h = scene.renderer.target_size(scene.target.size()).1 as f32;
    let pixel_scale = target_h / (2.0 * (0.5 * scene.camera.fov_y).tan());
    let forward = (scene.camera.target - scene.camera.eye).normalize();
    let (mut small, mut large) = (0, 0);
    let (mut inside, mut outside, mut borderline) = (0, 0, 0);
    for &i in &snap.alive {
        let p = &snap.particles[i as usize];
        let t = (p.age / p.lifetime).clamp(0.0, 1.0);
        let radius = 0.5 * p.size * (1.0 + (size_end - 1.0) * t);
        let margin = planes
            .iter()
            .map(|(n, d)| n.dot(p.pos) + d + radius)
            .fold(f32::INFINITY, f32::min);
        if margin.abs() < 1e-3 {
            borderline += 1;
            continue;
        }
        let cpu = margin >= 0.0;
        assert_eq!(
            gpu_visible.contains(&i),
            cpu,
            "particle {i} at {:?}: margin {margin}",
            p.pos
        );
        let radius_px = radius * pixel_scale / (p.pos - scene.camera.eye).dot(forward);
        if cpu && radius_px < 0.99 * splat_radius {
            assert!(splatted.contains(&i), "particle {i}: {radius_px} px, drawn");
            small += 1;
        } else if cpu && radius_px > 1.01 * splat_radius {
            assert!(drawn.contains(&i), "particle {i}: {radius_px} px, splatted");
            large += 1;
        }
        if cpu {
            inside += 1;
        } else {
            outside += 1;
        }
    }
    assert!(
        inside > 1000 && outside > 1000,
        "inside {inside}, outside {outside}: a weak test"
    );
    assert!(
        small > 500 && large > 500,
        "splatted {small}, drawn {large}: a weak test"
    );
    assert!(
        borderline < 50,
        "{borderline} particles within 1e-3 of a plane"
    );
    assert!(
        gpu_visible.iter().all(|i| snap.alive.contains(i)),
        "a dead particle is visible"
    );
}

#[test]
fn draw_order_is_back_to_front_along_the_view_axis_in_every_projection() {
    let gpu = common::gpu();
    for projection in Projection::ALL {
        let setup = HostSetup {
            projection,
            samples: 1,
            hdr: false,
        };
        let (stage, demo) = (Stage::Empty, Demo::Snow);
        let desc = demo.effect_in(stage, 16_384);
        let camera = |a| demo.camera_in(stage, a);
        let mut scene = Scene::hosted(&gpu, (&desc, 16_384, 9), (160, 90), camera, setup).unwrap();
        // every visible particle drawn (and sorted), none splatted
        let settings = scene.renderer.settings();
        scene.renderer.set_settings(Settings {
            splat_radius: 0.0,
            ..settings
        });
        for _ in 0..10 {
            scene.frame(&gpu, 0.016, false);
        }
        let snap = scene.snapshot(&gpu).unwrap();
        assert!(snap.visible.len() > 1000, "{projection:?}");
        let view = scene.camera.view();
        let dist: Vec<f32> = snap
            .visible
            .iter()
            .map(|p| -(view * snap.particles[p[1] as usize].pos.extend(1.0)).z)
            .collect();
        for w in dist.windows(2) {
            assert!(
                w[0] >= w[1] - 1e-4 * w[0].max(1.0),
                "{projection:?}: not back to front: {} then {}",
                w[0],
                w[1]
            );
        }
    }
}

/// Sort `count` pairs keyed by random distances; the result must be ordered far to near
/// and a permutation of the input.
fn sort_distances(bench: &mut SortBench, gpu: &flurry::GpuContext, count: u32) {
    let raw = random_pairs(count, count, 1 << 20);
    let data: Vec<[u32; 2]> = raw
        .iter()
        .map(|&[k, i]| [sort_key(k as f32 * 1e-3), i])
        .collect();
    bench.upload(gpu, &data).unwrap();
    bench.run(gpu, SortKind::Bitonic).unwrap();
    let out = bench.read(gpu).unwrap();
    assert_eq!(out.len(), count as usize);
    let mut seen = vec![false; count as usize];
    for p in &out {
        assert!(
            p[1] < count && !seen[p[1] as usize],
            "count {count}: index {} lost or repeated",
            p[1]
        );
        seen[p[1] as usize] = true;
        assert_eq!(
            p[0], data[p[1] as usize][0],
            "count {count}: key and index separated"
        );
    }
    for w in out.windows(2) {
        let (a, b) = (raw[w[0][1] as usize][0], raw[w[1][1] as usize][0]);
        assert!(a >= b, "count {count}: distance {a} before {b}");
    }
}

#[test]
fn sort_orders_every_count_far_to_near() {
    let gpu = common::gpu();
    let mut bench = SortBench::new(&gpu, 65_536).unwrap();
    for count in [0, 1, 2, 1023, 1024, 1025, 2047, 2048, 2049, 65_535, 65_536] {
        sort_distances(&mut bench, &gpu, count);
    }
}

#[test]
fn sort_with_duplicate_keys_equals_the_cpu_sort() {
    let gpu = common::gpu();
    let mut bench = SortBench::new(&gpu, 50_000).unwrap();
    for (n, range) in [(50_000, 100), (40_000, 1), (33_333, u32::MAX)] {
        let data = random_pairs(n, 7 + n, range);
        bench.upload(&gpu, &data).unwrap();
        bench.run(&gpu, SortKind::Bitonic).unwrap();
        let gpu_sorted = bench.read(&gpu).unwrap();
        let mut cpu = data.clone();
        cpu.sort_unstable_by_key(|p| p[0]);
        let keys = |v: &[[u32; 2]]| v.iter().map(|p| p[0]).collect::<Vec<_>>();
        assert_eq!(
            keys(&gpu_sorted),
            keys(&cpu),
            "n {n}, keys < {range}: key order"
        );
        let mut a = gpu_sorted.clone();
        let mut b = cpu.clone();
        a.sort_unstable();
        b.sort_unstable();
        assert_eq!(a, b, "n {n}: pairs differ as a multiset");
    }
}

#[test]
fn naive_sort_agrees_and_the_plan_is_small() {
    let gpu = common::gpu();
    let mut bench = SortBench::new(&gpu, 8192).unwrap();
    let data = random_pairs(8192, 3, 5000);
    let mut results = vec![];
    for kind in [SortKind::Bitonic, SortKind::Naive] {
        bench.upload(&gpu, &data).unwrap();
        bench.run(&gpu, kind).unwrap();
        results.push(
            bench
                .read(&gpu)
                .unwrap()
                .iter()
                .map(|p| p[0])
                .collect::<Vec<_>>(),
        );
    }
    assert_eq!(results[0], results[1]);
    // 8192 = 2^13: the argument pass, runs of 2^7 sorted in one pass, then each stage
    // k = 2^m (m steps) in passes of up to 7 steps
    let passes: usize = (8..=13).map(|m: usize| m.div_ceil(7)).sum();
    assert_eq!(bench.dispatches(SortKind::Bitonic), 1 + 1 + passes);
    assert_eq!(bench.dispatches(SortKind::Naive), (1..=13).sum::<usize>());
}
