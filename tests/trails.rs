//! Trails: every particle of one emitter lays points behind it every T seconds on the GPU;
//! drawn as ribbons, each particle's points form its own ribbon.

mod common;

use common::host::Scene;
use flurry::effect::*;
use flurry::{Camera, Scale, Settings};
use glam::{Vec2, Vec3};

const DT: f32 = 1.0 / 32.0;
const SIZE: (u32, u32) = (256, 256);

fn camera(aspect: f32) -> Camera {
    Camera::look_at(Vec3::new(0.0, 0.0, 12.0), Vec3::ZERO, aspect)
}

/// `count` sparks from the origin at t = 0 with `velocity`, no forces, each laying a point
/// every `every` s by emitter 1, drawn as ribbons.
fn trailing(count: u32, velocity: Velocity, every: f32) -> EffectDesc {
    let sparks = EmitterDesc {
        bursts: vec![Burst::once(0.0, count)],
        velocity,
        lifetime: Range::constant(100.0),
        size: Range::constant(0.05),
        ..Default::default()
    };
    let trail = EmitterDesc {
        trigger: Trigger::Trail { of: 0, every },
        lifetime: Range::constant(100.0),
        size: Range::constant(0.12),
        render: Some(RenderMode::Ribbon {
            subdivisions: 4,
            texture: None,
        }),
        ..Default::default()
    };
    EffectDesc {
        name: "trails".into(),
        emitters: vec![sparks, trail],
        forces: Forces::NONE,
        blend: Blend::Additive,
        ..Default::default()
    }
}

fn scene(effect: &EffectDesc) -> (flurry::GpuContext, Scene) {
    let gpu = common::gpu();
    let scene = Scene::new(&gpu, effect, 4096, 5, SIZE, camera)
        .unwrap()
        .with_settings(Settings {
            scale: Scale::Full,
            ..common::settings()
        });
    (gpu, scene)
}

#[test]
fn a_particle_lays_a_point_every_interval_along_its_path() {
    let v = Vec3::new(2.0, 1.0, 0.0);
    let velocity = Velocity::Linear {
        mean: v.to_array(),
        variance: [0.0; 3],
    };
    let effect = trailing(1, velocity, 0.1);
    let (gpu, mut scene) = scene(&effect);
    let frames = 40; // 1.25 s
    for _ in 0..frames {
        scene.frame(&gpu, DT, false);
    }
    let snap = scene.snapshot(&gpu).unwrap();
    snap.check().unwrap();
    let age = frames as f32 * DT;
    let parent = snap
        .alive
        .iter()
        .map(|&i| snap.particles[i as usize])
        .find(|p| p.emitter == 0)
        .unwrap();
    assert!(
        (parent.pos - v * age).length() < 1e-4,
        "the spark is at {}",
        parent.pos
    );
    let mut points: Vec<_> = snap
        .alive
        .iter()
        .map(|&i| snap.particles[i as usize])
        .filter(|p| p.emitter == 1)
        .collect();
    points.sort_by_key(|p| p.id);
    // a point at 0, 0.1, ..., 1.2 s: the ages in [0, 1.25)
    assert_eq!(
        points.len(),
        13,
        "{:?}",
        points.iter().map(|p| p.pos).collect::<Vec<_>>()
    );
    for (k, p) in points.iter().enumerate() {
        let laid = v * (k as f32 * 0.1);
        assert!(
            (p.pos - laid).length() < 1e-4,
            "point {k} at {} where the spark was at {laid}",
            p.pos
        );
        assert_eq!(p.id & 0xfff, k as u32, "point {k}'s place along the trail");
        assert!(p.id & 0x8000_0000 != 0);
    }
    let s = snap.stats;
    assert_eq!(s.requested_total, s.emitted_total + s.dropped_total);
    assert_eq!(s.emitted_total, 14);
}

fn pixel(x: Vec3) -> Vec2 {
    common::to_pixel(camera(1.0).view_proj(), SIZE, x)
}

/// Distance in pixels from `p` to the segment from `a` to `b` (on the picture).
fn to_segment(p: Vec2, a: Vec2, b: Vec2) -> f32 {
    let ab = b - a;
    let t = ((p - a).dot(ab) / ab.length_squared().max(1e-9)).clamp(0.0, 1.0);
    p.distance(a + ab * t)
}

#[test]
fn each_particle_draws_its_own_trail() {
    // 24 sparks from one burst, in random directions
    let radial = Velocity::Radial {
        speed: Range::constant(3.0),
    };
    let effect = trailing(24, radial, 0.05);
    let (gpu, mut scene) = scene(&effect);
    let frames = 32; // 1 s
    for f in 0..frames {
        scene.frame(&gpu, DT, f + 1 == frames);
    }
    let snap = scene.snapshot(&gpu).unwrap();
    let sparks: Vec<Vec3> = snap
        .alive
        .iter()
        .map(|&i| snap.particles[i as usize])
        .filter(|p| p.emitter == 0)
        .map(|p| p.pos)
        .collect();
    assert_eq!(sparks.len(), 24);
    let img = scene.image(&gpu).unwrap();
    // every lit pixel lies on some spark's straight path from the origin: a span joining
    // two trails would cross the space between them
    let origin = pixel(Vec3::ZERO);
    let paths: Vec<(Vec2, Vec2)> = sparks.iter().map(|&s| (origin, pixel(s))).collect();
    let mut lit = 0;
    for (x, y, px) in img.enumerate_pixels() {
        if px.0[..3].iter().any(|&c| c > 60) {
            lit += 1;
            let p = Vec2::new(x as f32 + 0.5, y as f32 + 0.5);
            let d = paths
                .iter()
                .map(|&(a, b)| to_segment(p, a, b))
                .fold(f32::MAX, f32::min);
            assert!(
                d < 4.0,
                "pixel ({x}, {y}) is lit {d:.1} px from every spark's path"
            );
        }
    }
    // and each path is drawn: its midpoint and the point near its spark are lit
    for &(a, b) in &paths {
        for t in [0.5, 0.9] {
            let q = a + (b - a) * t;
            let near = (-1..=1).any(|dy| {
                (-1..=1).any(|dx| {
                    let (x, y) = (q.x as i32 + dx, q.y as i32 + dy);
                    img.get_pixel(x as u32, y as u32).0[..3]
                        .iter()
                        .any(|&c| c > 60)
                })
            });
            assert!(near, "the trail from {a} to {b} is not drawn at {t} of it");
        }
    }
    assert!(lit > 500, "only {lit} lit pixels");
}

#[test]
fn bad_trails_are_refused_by_field() {
    let mut effect = trailing(1, Velocity::default(), 0.0);
    effect.emitters.push(EmitterDesc {
        trigger: Trigger::Trail { of: 1, every: 0.1 },
        ..Default::default()
    });
    let problems: Vec<String> = effect.problems().iter().map(|p| p.to_string()).collect();
    let has = |s: &str| problems.iter().any(|p| p.starts_with(s));
    assert!(
        has("emitters[1].trigger.Trail.every = 0: allowed 1e-3..=1000 seconds"),
        "{problems:?}"
    );
    assert!(
        has("emitters[2].trigger.Trail.of = 1: allowed an emitter that is not itself a trail"),
        "{problems:?}"
    );
    assert!(has("emitters[2].trigger = a second Trail"), "{problems:?}");
    let text = "(emitters: [(rate: 5.0), (trigger: Trail(of: 0, every: 0.05), \
                render: Some(Ribbon(subdivisions: 2)))])";
    assert!(EffectDesc::from_ron(text).unwrap().validate().is_ok());
}
