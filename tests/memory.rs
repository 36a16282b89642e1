//! A host's resident memory stays flat frame after frame: 2,000 frames of a mix of effects
//! (ribbons and trails, events drained every frame, image flipbooks, mesh particles, a
//! neighbour grid, depth collision that bounces and that settles), compiled off the host's
//! thread, grow the process by less than 16 MB after warm-up. (It once grew by ~0.76 MB a
//! frame: Mesa 22.3's lavapipe compiles a shader again at every bind, keeping each copy,
//! when inlining the uniforms its branches test removes enough of it: the composite's, then
//! the simulate's with depth collision. Those branches are now constants of the variants.)

// (resident memory as /proc/self/status gives it)
#![cfg(target_os = "linux")]

mod common;

use flurry::{EffectDesc, EventSettings, Settings};

/// The process's resident memory, bytes (Linux).
fn resident() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    let line = status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))
        .expect("a VmRSS line");
    let kib: u64 = line
        .split_whitespace()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .expect("VmRSS in kB");
    kib * 1024
}

/// Held by each test for its whole run: resident memory is the process's, and the tests of
/// one file run in one process, in parallel unless they take turns.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn one_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    // (a test that failed holding it leaves it poisoned; the next one still measures)
    ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner())
}

fn shipped(name: &str) -> (EffectDesc, std::path::PathBuf) {
    let folder = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/effects"));
    let path = folder.join(name);
    let desc = EffectDesc::from_file(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
    (desc, folder.to_path_buf())
}

#[test]
fn two_thousand_frames_of_a_mix_keep_resident_memory_flat() {
    let _turn = one_at_a_time();
    let settings = Settings {
        background_compile: true,
        ..common::settings()
    };
    let eye = glam::Vec3::new(0.0, 3.0, 12.0);
    let mut host = common::hosted::Hosted::new(settings, (160, 120), eye);
    let mut ids = Vec::new();
    for (k, name) in [
        "fireworks.ron",
        "campfire.ron",
        "embers.ron",
        "streamer.ron",
        "flock.ron",
        "fountain.ron",
        "rain.ron",
        "snow.ron",
    ]
    .into_iter()
    .enumerate()
    {
        let (mut desc, folder) = shipped(name);
        if name == "snow.ron" {
            // snow settling on the host's scene, as the demo's does
            let settle = flurry::effect::Response::Settle { time: 2.0 };
            desc.collision = Some(flurry::effect::Collision::new(settle));
        }
        let gpu = &host.gpu;
        host.renderer
            .load_images(&gpu.device, &gpu.queue, &mut desc, &folder)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        ids.push(host.add(&desc, 4096, k as u32 + 1));
    }
    let fireworks = ids[0];
    let deaths = EventSettings {
        hits: false,
        deaths: true,
        ..EventSettings::default()
    };
    let gpu = &host.gpu;
    host.renderer
        .set_events(&gpu.device, fireworks, Some(deaths))
        .unwrap();
    // every effect compiled off the host's thread first (seconds, frames running meanwhile:
    // what it compiles is not what this test measures)
    let started = std::time::Instant::now();
    while !ids.iter().all(|&id| host.renderer.is_ready(id).unwrap()) {
        host.frame(1.0 / 60.0);
        host.gpu.wait().unwrap();
        assert!(
            started.elapsed().as_secs() < 300,
            "compiled within 5 minutes"
        );
    }
    let (warm, frames) = (300, 2_000);
    let mut at_warm = 0;
    let mut heard = 0usize;
    for frame in 0..frames {
        host.frame(1.0 / 60.0);
        // (the host waits for each frame, as the report did: nothing queued is counted)
        host.gpu.wait().unwrap();
        heard += host.renderer.drain_events(fireworks).unwrap().events.len();
        if frame + 1 == warm {
            at_warm = resident();
        }
    }
    let grown = resident() as i64 - at_warm as i64;
    let mb = grown as f64 / (1 << 20) as f64;
    eprintln!(
        "resident {:.1} MB after {warm} frames, {mb:+.1} MB over the next {}; {heard} events",
        at_warm as f64 / (1 << 20) as f64,
        frames - warm
    );
    assert!(heard > 0, "the fireworks' deaths were heard");
    for &id in &ids {
        let gpu = &host.gpu;
        let stats = host
            .renderer
            .snapshot(&gpu.device, &gpu.queue, id)
            .unwrap()
            .stats;
        assert!(stats.emitted_total > 0, "every effect ran");
    }
    assert!(
        grown < 16 << 20,
        "resident memory grew {mb:.1} MB over {} frames after warm-up",
        frames - warm
    );
}

/// The longest prewarm an effect may ask for keeps memory bounded: 600 s of the fountain
/// (depth collision against the host's scene) in steps of 0.1 s, 6,000 steps recorded 64 to
/// a submission, grow the process by less than 16 MB after a first prewarm of 6 s. (Such a
/// prewarm once aborted: every step's simulate compiled again by the driver, kept, until
/// LLVM could allocate no more.)
#[test]
fn the_longest_prewarm_keeps_resident_memory_bounded() {
    let _turn = one_at_a_time();
    let mut host = common::hosted::Hosted::new(
        common::settings(),
        (160, 120),
        glam::Vec3::new(0.0, 3.0, 12.0),
    );
    // the ground the fountain falls on
    common::host::stage::Stage::Plane.apply(&mut host.target.scene);
    let (desc, _) = shipped("fountain.ron");
    assert!(desc.collision.is_some(), "the fountain collides");
    let id = host.add(&desc, 1024, 1);
    for _ in 0..10 {
        host.frame(1.0 / 60.0);
    }
    let camera = host.camera;
    let mut prewarm = |seconds: f32| {
        let gpu = &host.gpu;
        host.renderer
            .prewarm(&gpu.device, &gpu.queue, id, (seconds, 0.1), camera)
            .unwrap();
        gpu.wait().unwrap();
    };
    prewarm(6.0);
    let before = resident();
    prewarm(flurry::MAX_PREWARM);
    let grown = resident() as i64 - before as i64;
    let mb = grown as f64 / (1 << 20) as f64;
    eprintln!(
        "a prewarm of {} s grew resident memory by {mb:+.1} MB",
        flurry::MAX_PREWARM
    );
    let gpu = &host.gpu;
    let snap = host.renderer.snapshot(&gpu.device, &gpu.queue, id).unwrap();
    snap.check().unwrap();
    let (alive, hits) = (snap.stats.alive, snap.counters.hits_total());
    assert!(
        alive > 0 && hits > 0,
        "it ran and hit the scene: {alive} alive, {hits} hits"
    );
    assert!(
        grown < 16 << 20,
        "a prewarm of 600 s grew resident memory by {mb:.1} MB"
    );
}

/// The gaps between the live allocations of the device's memory blocks: what every new
/// buffer's placement searches (a frame's upload among them).
fn holes(device: &wgpu::Device) -> usize {
    let report = device
        .generate_allocator_report()
        .expect("an allocator report (Vulkan gives one: install lavapipe, mesa-vulkan-drivers)");
    let mut holes = 0;
    for block in &report.blocks {
        let mut placed: Vec<_> = report.allocations[block.allocations.clone()]
            .iter()
            .map(|a| (a.offset, a.size))
            .collect();
        placed.sort();
        let mut end = 0;
        for (offset, size) in placed {
            holes += (offset > end) as usize;
            end = end.max(offset + size);
        }
    }
    holes
}

/// Adding effects leaves no holes in the device's memory: what a new buffer starts with is
/// copied in by the next frame, not staged in a buffer of its own between the ones that
/// live on. (100 small effects once left ~600 holes, and a frame's upload, placed among
/// them, cost the host ~45 µs of CPU a frame.)
#[test]
fn adding_a_hundred_effects_leaves_the_devices_memory_without_holes() {
    let _turn = one_at_a_time();
    let eye = glam::Vec3::new(0.0, 3.0, 12.0);
    let count = |n: u32| {
        let mut host = common::hosted::Hosted::new(common::settings(), (160, 120), eye);
        // three kinds, taking turns (a flock: its neighbour grid and steering too)
        let kinds = ["embers.ron", "fountain.ron", "flock.ron"].map(|k| shipped(k).0);
        for seed in 0..n {
            host.add(&kinds[seed as usize % kinds.len()], 1024, seed);
        }
        for _ in 0..5 {
            host.frame(1.0 / 60.0);
        }
        holes(&host.gpu.device)
    };
    let (one, hundred) = (count(3), count(100));
    assert!(
        hundred <= one + 10,
        "100 effects left {hundred} holes, 3 left {one}"
    );
}
