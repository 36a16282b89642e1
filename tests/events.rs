//! Events: rockets that burst into sparks where they die, spawned on the GPU; and the hits
//! and deaths of particles reported to the host (`set_events`, `drain_events`), every one
//! delivered or counted lost.

mod common;

use common::host::{Scene, Stage};
use flurry::effect::{Collision, Forces, Range, Response, Shape};
use flurry::{Camera, EffectDesc, EventKind, EventSettings, GpuContext, ParticleEvent};
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

/// A layer of `count` balls 1 m above the host's ground plane, falling from rest, killed
/// where they hit it: all of them hit it in the same frame.
fn layer(count: u32) -> EffectDesc {
    let layer = Shape::Disk {
        center: [0.0, 1.0, 0.0],
        radius: 1.0,
        normal: [0.0, 1.0, 0.0],
    };
    EffectDesc {
        forces: Forces::default(),
        collision: Some(Collision::new(Response::Kill)),
        ..common::still(
            "layer",
            vec![common::held(
                layer,
                count,
                Range::constant(0.02),
                [1.0; 4],
                [0.0; 3],
            )],
        )
    }
}

/// `desc` over the host's ground plane, listened to with `settings`.
fn over_the_plane(gpu: &GpuContext, desc: &EffectDesc, settings: EventSettings) -> Scene {
    // from above: the ground's depth is about flat across a pixel's footprint, so that
    // balls crossing it in one step are all seen behind it in that step
    let camera = |a| Camera::look_at(Vec3::new(0.0, 5.0, 0.5), Vec3::ZERO, a);
    let capacity = desc.emitters.iter().map(|e| e.bursts[0].count).sum();
    let mut scene = Scene::new(gpu, desc, capacity, 1, (160, 120), camera).unwrap();
    scene.target.scene.quads = Stage::Plane.quads();
    let id = scene.effect;
    scene
        .renderer
        .set_events(&gpu.device, id, Some(settings))
        .unwrap();
    scene
}

/// `frames` frames of `scene`, draining its events after each: every event, and the count
/// lost.
fn drained(gpu: &GpuContext, scene: &mut Scene, frames: u32) -> (Vec<ParticleEvent>, u64) {
    let (mut events, mut lost) = (Vec::new(), 0);
    for _ in 0..frames {
        scene.frame(gpu, 1.0 / 60.0, false);
        let d = scene.renderer.drain_events(scene.effect).unwrap();
        events.extend(d.events);
        lost += d.lost;
    }
    (events, lost)
}

/// How many of `events` each frame recorded (by their time), the most first.
fn per_frame(events: &[ParticleEvent]) -> Vec<usize> {
    let mut frames = std::collections::BTreeMap::new();
    for e in events {
        *frames.entry(e.time.to_bits()).or_insert(0) += 1;
    }
    let mut counts: Vec<usize> = frames.into_values().collect();
    counts.sort_unstable_by(|a, b| b.cmp(a));
    counts
}

#[test]
fn balls_dropped_on_the_plane_report_every_hit_where_it_lies() {
    let gpu = common::gpu();
    let mut scene = over_the_plane(&gpu, &layer(4096), EventSettings::default());
    // 0.45 s to fall, and a few frames for the last read-back to land
    let (events, lost) = drained(&gpu, &mut scene, 40);
    let hits = scene.snapshot(&gpu).unwrap().counters.hits_total();
    assert_eq!(lost, 0);
    assert_eq!(
        events.len() as u64,
        hits,
        "one event per hit the GPU counted"
    );
    assert_eq!(hits, 4096, "every ball hit the plane");
    assert_eq!(per_frame(&events)[0], 4096, "all in one frame");
    for e in &events {
        assert_eq!(e.kind, EventKind::Hit);
        assert!(e.position.y.abs() < 0.01, "a hit at {}", e.position);
        assert!(
            e.position.x.hypot(e.position.z) <= 1.01,
            "a hit at {}",
            e.position
        );
        assert!(e.normal.y > 0.99, "normal {}", e.normal);
        // arriving straight down at about sqrt(2 g h) = 4.4 m/s
        assert!(e.velocity.x == 0.0 && e.velocity.z == 0.0);
        assert!((e.velocity.y + 4.43).abs() < 0.2, "velocity {}", e.velocity);
        assert_eq!(e.emitter, 0);
        assert!((0.4..0.55).contains(&e.time), "time {}", e.time);
    }
}

#[test]
fn hits_beyond_a_small_buffer_are_counted_lost() {
    let gpu = common::gpu();
    let small = EventSettings {
        per_frame: 1000,
        ..Default::default()
    };
    let mut scene = over_the_plane(&gpu, &layer(4096), small);
    let (events, lost) = drained(&gpu, &mut scene, 40);
    let hits = scene.snapshot(&gpu).unwrap().counters.hits_total();
    assert_eq!(hits, 4096);
    assert_eq!(events.len(), 1000, "as many as the frame's buffer holds");
    assert_eq!(lost, hits - 1000, "the rest counted, none silently gone");
    // and so for what the host keeps undrained: 1000 a frame, 600 kept
    let kept = EventSettings {
        per_frame: 1000,
        kept: 600,
        ..Default::default()
    };
    let mut scene = over_the_plane(&gpu, &layer(4096), kept);
    let (events, lost) = drained(&gpu, &mut scene, 40);
    assert_eq!(events.len(), 600);
    assert_eq!(events.len() as u64 + lost, 4096);
}

/// Two emitters of `count` particles each from the origin, one moving along +x and one
/// along +z at 2 m/s, living 0.5 s and 0.25 s, with no forces.
fn darts(count: u32) -> EffectDesc {
    let dart = |velocity, lifetime| flurry::effect::EmitterDesc {
        lifetime: Range::constant(lifetime),
        ..common::held(
            Shape::Point([0.0; 3]),
            count,
            Range::constant(0.02),
            [1.0; 4],
            velocity,
        )
    };
    common::still(
        "darts",
        vec![dart([2.0, 0.0, 0.0], 0.5), dart([0.0, 0.0, 2.0], 0.25)],
    )
}

/// Deaths only.
const DEATHS: EventSettings = EventSettings {
    hits: false,
    deaths: true,
    per_frame: 4096,
    kept: 16_384,
};

#[test]
fn every_death_is_reported_where_it_died_by_its_emitter() {
    let gpu = common::gpu();
    let mut scene = over_the_plane(&gpu, &darts(300), DEATHS);
    let (events, lost) = drained(&gpu, &mut scene, 45);
    let snap = scene.snapshot(&gpu).unwrap();
    assert_eq!(lost, 0);
    assert_eq!(snap.stats.alive, 0);
    assert_eq!(
        events.len() as u64,
        snap.stats.killed_total,
        "one event per death"
    );
    assert_eq!(events.len(), 600);
    for e in &events {
        assert_eq!(e.kind, EventKind::Death);
        assert_eq!(e.normal, Vec3::ZERO);
        // dead once its age reaches its life: at the end of that frame's step
        let (axis, life) = match e.emitter {
            0 => (Vec3::X, 0.5),
            1 => (Vec3::Z, 0.25),
            k => panic!("emitter {k}"),
        };
        assert_eq!(e.velocity, 2.0 * axis);
        let travelled = e.position.dot(axis);
        assert!(
            (travelled - 2.0 * life).abs() <= 2.0 / 60.0 + 1e-4,
            "emitter {} died {travelled} m out",
            e.emitter
        );
        assert!(
            (e.time - life).abs() <= 1.0 / 60.0 + 1e-4,
            "time {}",
            e.time
        );
    }
}

#[test]
fn a_prewarm_reports_nothing_and_what_follows_is_reported() {
    let gpu = common::gpu();
    let mut scene = over_the_plane(&gpu, &darts(300), DEATHS);
    let camera = scene.camera;
    let id = scene.effect;
    // the short-lived darts die within the prewarm, the others after it
    (scene.renderer)
        .prewarm(&gpu.device, &gpu.queue, id, (0.3, 1.0 / 60.0), camera)
        .unwrap();
    // (a small pool, stepped by slot: its lists started again each step without its cull)
    let snap = scene.snapshot(&gpu).unwrap();
    assert_eq!(snap.stats.alive, 300);
    for &i in &snap.alive {
        let p = &snap.particles[i as usize];
        assert_eq!(p.emitter, 0);
        assert!((p.pos.x - 0.6).abs() < 1e-3, "at {}", p.pos);
    }
    let (events, lost) = drained(&gpu, &mut scene, 30);
    assert_eq!(lost, 0);
    assert_eq!(events.len(), 300);
    assert!(events.iter().all(|e| e.emitter == 0));
}

#[test]
fn listening_is_refused_out_of_range_and_draining_without_it() {
    let gpu = common::gpu();
    let mut scene = over_the_plane(&gpu, &darts(10), EventSettings::default());
    let id = scene.effect;
    let r = &mut scene.renderer;
    let none = EventSettings {
        per_frame: 0,
        ..Default::default()
    };
    let err = r.set_events(&gpu.device, id, Some(none)).unwrap_err();
    assert!(err.to_string().contains("per_frame"), "{err}");
    r.set_events(&gpu.device, id, None).unwrap();
    let err = r.drain_events(id).unwrap_err();
    assert!(err.to_string().contains("not listened to"), "{err}");
    r.remove_effect(id);
    assert!(r.drain_events(id).is_err());
    assert!(r.set_events(&gpu.device, id, None).is_err());
}

/// Snow on the terrain's hills: each hit's surface normal faces the camera whose depth the
/// flake hit (it crossed that surface from the camera's side), so on the hills, gentle
/// slopes, it points up. (Oriented by the flake's position before the step instead, 7 % of
/// them pointed down.)
#[test]
fn hits_on_the_hills_face_up_towards_the_view() {
    let gpu = common::gpu();
    let mut scene = common::snow_on_the_terrain(&gpu);
    let id = scene.effect;
    (scene.renderer)
        .set_events(&gpu.device, id, Some(EventSettings::default()))
        .unwrap();
    let (events, lost) = drained(&gpu, &mut scene, 240);
    assert_eq!(lost, 0);
    let eye = scene.camera.eye;
    let (mut on_hills, mut steep) = (0, 0);
    for e in &events {
        assert!((e.normal.length() - 1.0).abs() < 1e-3, "{e:?}");
        assert!(e.normal.dot(eye - e.position) > 0.0, "facing away: {e:?}");
        let ground = common::host::stage::ground(e.position.x, e.position.z);
        if (e.position.y - ground).abs() < 0.05 {
            on_hills += 1;
            // (the normal as the footprint of a coarse depth texel gives it: far off and
            // at a grazing view, a slope's is steeper than the hill)
            assert!(e.normal.y > 0.0, "a hit on a hill facing {}", e.normal);
            steep += (e.normal.y < 0.5) as usize;
        }
    }
    assert!(on_hills >= 100, "only {on_hills} hits on the hills");
    assert!(
        steep * 20 <= on_hills,
        "{steep} of {on_hills} hill normals steep"
    );
}
