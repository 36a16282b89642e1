//! Depth-buffer collision against the host's scene: snow settles on a ground plane, a
//! dropped ball of particles bounces with the effect's restitution (under every depth
//! convention a host may use, and multisampled), and particles passing
//! behind a thin wall are not stopped by it.

mod common;

use common::host::demos::Demo;
use common::host::stage::HostQuad;
use common::host::{HostSetup, Scene, Stage};
use flurry::effect::*;
use flurry::{Camera, GpuContext, Particle, PoolSnapshot};
use glam::{Vec3, Vec4};

fn on_screen(camera: &Camera, p: Vec3, margin: f32) -> bool {
    let c = camera.view_proj() * p.extend(1.0);
    let lim = c.w * (1.0 - margin);
    c.w > 0.0 && c.x.abs() <= lim && c.y.abs() <= lim && c.z >= 0.0 && c.z <= c.w
}

fn run(gpu: &GpuContext, scene: &mut Scene, frames: u32, dt: f32) -> PoolSnapshot {
    for _ in 0..frames {
        scene.frame(gpu, dt, false);
    }
    scene.snapshot(gpu).unwrap()
}

#[test]
fn snow_settles_on_the_plane_and_none_falls_through_on_screen() {
    let gpu = common::gpu();
    let capacity = 16_384;
    // the demo's snow over the ground, but killed only 2 m below it and without wind, so
    // a flake under the ground on screen could only have fallen through there
    let mut desc = Demo::Snow.effect_in(Stage::Plane, capacity);
    desc.bounds.as_mut().unwrap().min[1] = -2.0;
    desc.forces.wind = [0.0; 3];
    let camera = |a| Demo::Snow.camera_in(Stage::Plane, a);
    let mut scene = Scene::new(&gpu, &desc, capacity, 5, (160, 120), camera).unwrap();
    scene.target.scene.quads = Stage::Plane.quads();
    let snap = run(&gpu, &mut scene, 400, 0.016);
    let (mut settled, mut shown, mut below) = (0, 0, vec![]);
    for &i in &snap.alive {
        let p = &snap.particles[i as usize];
        settled += (p.flags & Particle::SETTLED != 0) as u32;
        // the outer 5 % of the screen is left out: a flake that fell through just off
        // screen may still drift in a few centimetres
        if on_screen(&scene.camera, p.pos, 0.05) {
            shown += 1;
            if p.pos.y < -0.1 {
                below.push(p.pos);
            }
        }
    }
    assert!(shown > 3000, "only {shown} flakes on screen");
    assert!(
        below.is_empty(),
        "{} on-screen flakes below the ground, e.g. {:?}",
        below.len(),
        &below[..below.len().min(3)]
    );
    assert!(settled >= 1000, "only {settled} flakes at rest");
    assert!(snap.counters.hits as u64 >= settled as u64);
}

/// A ball of particles 3 m above the ground, falling from rest.
fn ball(restitution: f32) -> EffectDesc {
    let ball = Shape::Sphere {
        center: [0.0, 3.0, 0.0],
        radius: 0.3,
        surface: false,
    };
    let bounce = Response::Bounce {
        restitution,
        friction: 0.0,
    };
    EffectDesc {
        forces: Forces::default(),
        collision: Some(Collision::new(bounce)),
        ..common::still(
            "ball",
            vec![common::held(
                ball,
                256,
                Range::constant(0.05),
                [1.0; 4],
                [0.0; 3],
            )],
        )
    }
}

#[test]
fn a_dropped_ball_rebounds_with_the_restitution_in_every_depth_convention() {
    let gpu = common::gpu();
    for setup in common::setups() {
        rebounds_with_the_restitution(&gpu, setup);
    }
}

/// A ball of 256 particles dropped on the host's ground plane: every particle hits it and
/// comes back up at the restitution times its impact speed.
fn rebounds_with_the_restitution(gpu: &GpuContext, setup: HostSetup) {
    let e = 0.5;
    let camera = |a| Camera::look_at(Vec3::new(0.0, 4.0, 8.0), Vec3::new(0.0, 1.0, 0.0), a);
    let subject = (&ball(e), 256, 1);
    let mut scene = Scene::hosted(gpu, subject, (160, 120), camera, setup).unwrap();
    scene.target.scene.quads = Stage::Plane.quads();
    // per particle: the fastest downward speed before the hit and upward speed after it
    let mut impact = vec![0.0f32; 256];
    let mut rebound = vec![0.0f32; 256];
    let mut events = 0;
    for _ in 0..90 {
        let snap = run(gpu, &mut scene, 1, 0.01);
        // the hit events of this frame: on the ground, facing up; impacts (not the
        // contacts of particles already moving away) carry the speed into the ground
        for e in &snap.hit_events {
            assert!(e.normal.y > 0.95, "{setup:?}: hit normal {:?}", e.normal);
            assert!(e.pos.y.abs() < 0.05, "{setup:?}: hit at {:?}", e.pos);
            assert!(e.particle < 256);
        }
        assert_eq!(snap.hit_events.len() as u32, snap.counters.events);
        events += snap.hit_events.iter().filter(|e| e.speed > 1.0).count();
        for &i in &snap.alive {
            let p = &snap.particles[i as usize];
            let k = p.id as usize;
            if rebound[k] == 0.0 {
                impact[k] = impact[k].max(-p.vel.y);
            }
            if p.vel.y > 0.0 {
                rebound[k] = rebound[k].max(p.vel.y);
            }
        }
    }
    assert!(
        events >= 256,
        "{setup:?}: only {events} impact events for 256 particles"
    );
    let bounced: Vec<f32> = (0..256)
        .filter(|&k| rebound[k] > 0.0)
        .map(|k| rebound[k] / impact[k])
        .collect();
    assert!(
        bounced.len() > 200,
        "{setup:?}: only {} of 256 bounced",
        bounced.len()
    );
    let mean = bounced.iter().sum::<f32>() / bounced.len() as f32;
    assert!(
        (mean - e).abs() <= 0.1 * e,
        "{setup:?}: rebound / impact = {mean}, restitution {e}"
    );
    for r in &bounced {
        assert!(
            (r - e).abs() <= 0.2 * e,
            "{setup:?}: a particle rebounded at {r} of its impact speed"
        );
    }
}

/// A hit takes a tumbling particle's spin down (a bounce by its friction, settling to
/// zero) and its rotation carries on from where the hit found it: each frame every
/// particle turns by the spin it had at the frame's start, times the frame's dt.
#[test]
fn a_hit_slows_the_spin_and_the_rotation_carries_on() {
    let gpu = common::gpu();
    let camera = |a| Camera::look_at(Vec3::new(0.0, 4.0, 8.0), Vec3::new(0.0, 1.0, 0.0), a);
    let bounce = Response::Bounce {
        restitution: 0.5,
        friction: 0.5,
    };
    for (response, kept) in [(bounce, 0.5), (Response::Settle { time: 10.0 }, 0.0)] {
        let mut desc = ball(0.5);
        desc.collision = Some(Collision::new(response));
        desc.emitters[0].rotation = Range::new(0.0, 3.0);
        desc.emitters[0].spin = Range::constant(4.0);
        let setup = common::setups()[0];
        let mut scene = Scene::hosted(&gpu, (&desc, 256, 1), (160, 120), camera, setup).unwrap();
        scene.target.scene.quads = Stage::Plane.quads();
        let dt = 0.01;
        // each particle's rotation and spin after the frame before
        let mut before = std::collections::HashMap::<u32, (f32, f32)>::new();
        let mut slowed = 0;
        for frame in 0..90 {
            let snap = run(&gpu, &mut scene, 1, dt);
            let mut now = std::collections::HashMap::new();
            for &i in &snap.alive {
                let p = &snap.particles[i as usize];
                if let Some(&(rotation, spin)) = before.get(&p.id) {
                    let turned = p.rotation_now() - rotation;
                    assert!(
                        (turned - spin * dt).abs() < 1e-4,
                        "{response:?}, frame {frame}, particle {}: turned {turned} at {spin} rad/s",
                        p.id
                    );
                    if p.spin != spin {
                        assert!(
                            (p.spin - kept * spin).abs() < 1e-5,
                            "{response:?}: {}",
                            p.spin
                        );
                        slowed += 1;
                    }
                }
                now.insert(p.id, (p.rotation_now(), p.spin));
            }
            before = now;
        }
        assert!(
            slowed >= 200,
            "{response:?}: only {slowed} spins slowed by a hit"
        );
    }
}

#[test]
fn particles_passing_behind_a_thin_wall_are_not_stopped() {
    let gpu = common::gpu();
    // a wall 0.1 m thick seen edge-on from the camera: a thin strip on screen whose depth
    // is its near end, 4 m in front of the particles moving sideways behind it
    let mut desc = ball(0.5);
    desc.emitters[0].shape = Shape::Box {
        min: [-3.0, 0.5, -3.1],
        max: [-2.0, 1.5, -2.9],
    };
    desc.emitters[0].velocity = Velocity::Linear {
        mean: [4.0, 0.0, 0.0],
        variance: [0.0; 3],
    };
    desc.forces.gravity = [0.0; 3];
    let camera = |a| Camera::look_at(Vec3::new(0.0, 1.0, 6.0), Vec3::new(0.0, 1.0, 0.0), a);
    let mut scene = Scene::new(&gpu, &desc, 256, 1, (160, 120), camera).unwrap();
    scene.target.scene.quads = vec![
        HostQuad::rect(
            Vec3::new(0.0, 1.0, 0.0),
            Vec3::new(0.0, 0.0, 1.0),
            Vec3::new(0.0, 1.5, 0.0),
            Vec3::splat(0.3),
        ),
        HostQuad::rect(
            Vec3::new(0.0, 1.0, 1.0),
            Vec3::new(0.05, 0.0, 0.0),
            Vec3::new(0.0, 1.5, 0.0),
            Vec3::splat(0.3),
        ),
    ];
    // 1.5 s at 4 m/s: every particle crosses x = 0 behind the wall
    let snap = run(&gpu, &mut scene, 150, 0.01);
    assert_eq!(snap.alive.len(), 256);
    for &i in &snap.alive {
        let p = &snap.particles[i as usize];
        assert!(
            (p.vel - Vec3::new(4.0, 0.0, 0.0)).length() < 1e-3,
            "a particle was deflected: {:?}",
            p.vel
        );
        assert!(p.pos.x > 2.5, "a particle was held back at {:?}", p.pos);
    }
    assert_eq!(snap.counters.hits, 0);
    // the wall is really there: the same particles sent into it do stop
    let mut into = desc.clone();
    into.emitters[0].shape = Shape::Box {
        min: [-0.2, 0.5, 3.0],
        max: [0.2, 1.5, 3.2],
    };
    into.emitters[0].velocity = Velocity::Linear {
        mean: [0.0, 0.0, -2.0],
        variance: [0.0; 3],
    };
    let mut scene2 = Scene::new(&gpu, &into, 256, 1, (160, 120), camera).unwrap();
    scene2.target.scene.quads = scene.target.scene.quads.clone();
    let snap = run(&gpu, &mut scene2, 150, 0.01);
    assert!(
        snap.counters.hits > 100,
        "particles flew into the wall's face without a hit ({})",
        snap.counters.hits
    );
    let _ = Vec4::ZERO;
}

/// 64 drops that fall onto the plane and die there, each hit spawning 3 splash particles
/// (emitter 1) that live 5 s; and the scene that shows them.
fn drops_and_splashes(gpu: &GpuContext, extra: Option<EmitterDesc>) -> Scene {
    let mut desc = ball(0.5);
    desc.emitters[0].bursts[0].count = 64;
    desc.collision = Some(Collision {
        response: Response::Kill,
        thickness: 0.5,
    });
    let mut splash = desc.emitters[0].clone();
    splash.shape = Shape::Point([0.0, 0.0, 0.0]);
    splash.bursts.clear();
    splash.velocity = Velocity::Radial {
        speed: Range::new(2.0, 0.5),
    };
    splash.lifetime = Range::new(5.0, 0.0);
    splash.trigger = Trigger::OnHit { count: 3 };
    desc.emitters.push(splash);
    desc.emitters.extend(extra);
    desc.forces.gravity = [0.0, -9.81, 0.0];
    let camera = |a| Camera::look_at(Vec3::new(0.0, 4.0, 8.0), Vec3::new(0.0, 1.0, 0.0), a);
    let mut scene = Scene::new(gpu, &desc, 1024, 1, (160, 120), camera).unwrap();
    scene.target.scene.quads = Stage::Plane.quads();
    scene
}

#[test]
fn hits_spawn_splashes_on_the_gpu() {
    let gpu = common::gpu();
    let mut scene = drops_and_splashes(&gpu, None);
    let mut splashes_seen = 0;
    for _ in 0..90 {
        let snap = run(&gpu, &mut scene, 1, 0.01);
        for &i in &snap.alive {
            let p = &snap.particles[i as usize];
            if p.emitter == 1 {
                assert!(
                    p.id & 0x8000_0000 != 0,
                    "a splash without the hit-spawn id bit"
                );
                splashes_seen += 1;
            }
        }
    }
    let snap = scene.snapshot(&gpu).unwrap();
    let stats = snap.stats;
    assert_eq!(snap.counters.hits, 64, "every drop hits once and dies");
    assert_eq!(
        snap.counters.hit_spawned,
        3 * 64,
        "3 splashes asked for per hit"
    );
    assert_eq!(
        stats.emitted_total,
        64 + 3 * 64,
        "all splashes spawned (capacity allows)"
    );
    assert_eq!(
        stats.emitted_total + stats.dropped_total,
        stats.requested_total
    );
    assert!(splashes_seen > 0);
    // the splashes live on (5 s) and never collide themselves
    let alive_splashes = snap
        .alive
        .iter()
        .filter(|&&i| snap.particles[i as usize].emitter == 1)
        .count();
    assert_eq!(alive_splashes, 3 * 64);
}

/// The snow demo's scene: snow settles on the hills (their height comes from the same formula
/// the host's terrain shader uses) and the pillars. Screen-space collision cannot see
/// behind what it sees: flakes hidden by a hill or a pillar may stop there, unseen.
#[test]
fn snow_settles_on_the_terrain_hills() {
    let gpu = common::gpu();
    let mut scene = common::snow_on_the_terrain(&gpu);
    let snap = run(&gpu, &mut scene, 400, 0.016);
    let eye = scene.camera.eye;
    let (mut on_ground, mut on_pillar, mut gaps, mut stray) = (0, 0, vec![], vec![]);
    for &i in &snap.alive {
        let p = &snap.particles[i as usize];
        let seen = on_screen(&scene.camera, p.pos, 0.05) && !hidden(eye, p.pos);
        if p.flags & Particle::SETTLED == 0 || !seen {
            continue;
        }
        let gap = p.pos.y - common::host::stage::ground(p.pos.x, p.pos.z);
        if gap.abs() <= 0.5 {
            on_ground += 1;
            gaps.push(gap.abs());
        } else if pillar_at(p.pos, 0.3).is_some() {
            on_pillar += 1;
        } else {
            stray.push((p.pos, gap));
        }
    }
    gaps.sort_by(f32::total_cmp);
    let median = gaps.get(gaps.len() / 2).copied().unwrap_or(f32::NAN);
    assert!(
        on_ground >= 300,
        "only {on_ground} flakes at rest on the hills"
    );
    assert!(
        on_pillar >= 5,
        "only {on_pillar} flakes at rest on the pillars"
    );
    assert!(
        median < 0.1,
        "settled flakes {median} m off the hills (median)"
    );
    assert!(
        stray.len() * 50 <= on_ground,
        "{} visible flakes at rest in the air, e.g. {:?}",
        stray.len(),
        &stray[..stray.len().min(3)]
    );
}

/// The pillar (x, z, top) whose box, grown by `margin`, holds p.
fn pillar_at(p: Vec3, margin: f32) -> Option<(f32, f32, f32)> {
    let half = 0.35 + margin;
    let tops = Stage::Terrain.quads();
    // every pillar's fifth quad is its top face
    tops.chunks(5)
        .map(|faces| faces[4].center.truncate())
        .find_map(|top| {
            let inside =
                (p.x - top.x).abs() <= half && (p.z - top.z).abs() <= half && p.y <= top.y + margin;
            inside.then_some((top.x, top.z, top.y))
        })
}

/// Whether a hill or a pillar stands between the eye and p (more than 0.3 m before p).
fn hidden(eye: Vec3, p: Vec3) -> bool {
    (1..400).any(|k| {
        let q = eye + (p - eye) * (k as f32 / 400.0);
        q.distance(p) > 0.3
            && (q.y < common::host::stage::ground(q.x, q.z) || pillar_at(q, 0.0).is_some())
    })
}

/// Two event emitters: every hit of the ball spawns 3 splashes (emitter 1) and one ripple
/// (emitter 2) that stays where it was born, anchored against gravity.
#[test]
fn hits_spawn_splashes_and_anchored_ripples() {
    let gpu = common::gpu();
    let ripple = EmitterDesc {
        shape: Shape::Point([0.0, 0.02, 0.0]),
        bursts: vec![],
        trigger: Trigger::OnHit { count: 1 },
        render: Some(RenderMode::Flat),
        sprite: Some(Sprite::Ring),
        anchored: true,
        ..ball(0.5).emitters[0].clone()
    };
    let mut scene = drops_and_splashes(&gpu, Some(ripple));
    let snap = run(&gpu, &mut scene, 90, 0.01);
    assert_eq!(snap.counters.hits, 64, "every drop hits once and dies");
    assert_eq!(
        snap.counters.hit_spawned,
        4 * 64,
        "3 splashes + 1 ripple a hit"
    );
    let of = |e: u32| {
        snap.alive
            .iter()
            .map(|&i| snap.particles[i as usize])
            .filter(move |p| p.emitter == e)
    };
    assert_eq!(of(1).count(), 3 * 64);
    assert_eq!(of(2).count(), 64);
    for r in of(2) {
        // born 2 cm above the ground where a drop hit, still there, still at rest
        assert_eq!(r.vel, Vec3::ZERO, "a ripple moved");
        assert!((r.pos.y - 0.02).abs() < 0.05, "a ripple at {}", r.pos);
    }
}
