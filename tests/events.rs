//! GPU events: rockets that burst into sparks where they die, spawned on the GPU.

mod common;

use common::host::Scene;
use flurry::{Camera, EffectDesc};
use glam::Vec3;

/// The shipped fireworks without the sparks' trails (tests/trails.rs has those): every
/// spawn on the GPU here is a spark of a rocket's death.
fn rockets() -> EffectDesc {
    let path = std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/effects/fireworks.ron"
    ));
    let mut fireworks = EffectDesc::from_file(path).unwrap();
    fireworks
        .emitters
        .retain(|e| !matches!(e.trigger, flurry::effect::Trigger::Trail { .. }));
    fireworks
}

fn run(capacity: u32, frames: u32) -> (flurry::PoolSnapshot, flurry::Stats) {
    let gpu = common::gpu();
    let camera =
        |aspect| Camera::look_at(Vec3::new(0.0, 4.0, 8.0), Vec3::new(0.0, 9.0, -14.0), aspect);
    let mut scene = Scene::new(&gpu, &rockets(), capacity, 3, (64, 64), camera).unwrap();
    for _ in 0..frames {
        scene.frame(&gpu, 1.0 / 60.0, false);
    }
    let snap = scene.snapshot(&gpu).unwrap();
    let stats = snap.stats;
    (snap, stats)
}

#[test]
fn every_rocket_death_bursts_into_its_sparks() {
    let (snap, stats) = run(65_536, 300);
    let rockets_alive = snap
        .alive
        .iter()
        .filter(|&&i| snap.particles[i as usize].emitter == 0)
        .count() as u64;
    let sparks_alive = snap.alive.len() as u64 - rockets_alive;
    let launched = stats.requested_total - snap.counters.hit_spawned as u64;
    let burst = launched - rockets_alive;
    assert!(burst >= 5, "only {burst} rockets burst in 5 s");
    assert_eq!(
        snap.counters.hit_spawned as u64,
        400 * burst,
        "400 sparks asked for per rocket death"
    );
    assert_eq!(stats.dropped_total, 0, "the pool had room for every spark");
    assert_eq!(stats.emitted_total, launched + 400 * burst);
    assert!(sparks_alive > 0);
    for &i in &snap.alive {
        let p = &snap.particles[i as usize];
        if p.emitter == 1 {
            assert!(
                p.id & 0x8000_0000 != 0,
                "a spark without the event-spawn id bit"
            );
        }
    }
}

#[test]
fn sparks_beyond_the_capacity_are_counted_as_dropped() {
    // a pool too small for even one burst: the excess is dropped, never lost
    let (snap, stats) = run(256, 180);
    assert!(snap.counters.hit_spawned > 0);
    assert!(
        stats.dropped_total > 0,
        "nothing dropped with a 256-particle pool"
    );
    assert_eq!(
        stats.emitted_total + stats.dropped_total,
        stats.requested_total
    );
    assert_eq!(snap.counters.alive + snap.counters.dead as u32, 256);
}
