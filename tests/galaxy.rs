//! Massive bodies: circular orbits of tracer stars, the parabolic two-core encounter, and
//! a small picture of the galaxy demo.

mod common;

use common::host::demos::{galaxy, Demo};
use common::host::Scene;
use flurry::effect::*;
use flurry::{Camera, GpuContext};
use glam::Vec3;

/// `desc` with `capacity` particles, seen from above.
fn scene(gpu: &GpuContext, desc: &EffectDesc, capacity: u32, seed: u32) -> Scene {
    let camera = |aspect| Camera::look_at(Vec3::new(0.0, 5.0, 5.0), Vec3::ZERO, aspect);
    Scene::new(gpu, desc, capacity, seed, (64, 64), camera).unwrap()
}

/// One core of mass 1 (softening 0.1) at rest, 512 stars on a ring of radius 1 about it.
fn ring(integrator: Integrator) -> EffectDesc {
    let normal = [0.0, 1.0, 0.0];
    // a scale length far beyond the cut puts every star at the cut radius
    let shape = Shape::Galaxy {
        body: 0,
        scale_length: 1e4,
        max_radius: 1.0,
        thickness: 0.0,
        normal,
    };
    let stars = EmitterDesc {
        velocity: Velocity::Orbit {
            body: 0,
            normal,
            dispersion: 0.0,
        },
        lifetime: Range::new(1e6, 0.0),
        ..common::held(shape, 512, Range::new(0.02, 0.0), [1.0; 4], [0.0; 3])
    };
    EffectDesc {
        integrator,
        blend: Blend::Additive,
        bodies: Some(Bodies {
            g: 1.0,
            bodies: vec![BodyDesc {
                pos: [0.0; 3],
                vel: [0.0; 3],
                mass: 1.0,
                softening: 0.1,
            }],
        }),
        ..common::still("ring", vec![stars])
    }
}

/// Radii of the stars after one orbital period.
fn radii_after_a_period(integrator: Integrator) -> Vec<f32> {
    let gpu = common::gpu();
    let mut system = scene(&gpu, &ring(integrator), 512, 3);
    // circular speed at r = 1 with softening 0.1: v^2 = r^2 / (r^2 + eps^2)^(3/2)
    let v = (1.0f32 / 1.01f32.powf(1.5)).sqrt();
    let period = std::f32::consts::TAU / v;
    let dt = 0.01;
    for _ in 0..(period / dt).round() as u32 {
        system.frame(&gpu, dt, false);
    }
    let snap = system.snapshot(&gpu).unwrap();
    assert_eq!(snap.alive.len(), 512);
    snap.alive
        .iter()
        .map(|&i| snap.particles[i as usize].pos.length())
        .collect()
}

#[test]
fn stars_keep_circular_orbits_with_symplectic_euler() {
    for r in radii_after_a_period(Integrator::SymplecticEuler) {
        assert!(
            (r - 1.0).abs() < 0.01,
            "a star drifted to radius {r} in one period"
        );
    }
}

#[test]
fn explicit_euler_gains_energy_on_orbits() {
    // the known behaviour, shown rather than hidden: every star spirals outwards
    let radii = radii_after_a_period(Integrator::ExplicitEuler);
    let mean = radii.iter().sum::<f32>() / radii.len() as f32;
    println!("explicit Euler: mean radius {mean} after one period (started at 1)");
    assert!(
        radii.iter().all(|&r| r > 1.0),
        "explicit Euler should gain energy"
    );
    assert!(mean > 1.01, "mean radius {mean}");
}

/// The pull of any number of bodies is the sum of each one's, G·m·d / (|d|² + ε²)^(3/2):
/// stars at rest gain a·dt in one explicit Euler step, whichever way the simulate pulls
/// them (a call a body up to four, a loop past that).
#[test]
fn the_pull_of_any_number_of_bodies_is_the_sum_of_theirs() {
    let gpu = common::gpu();
    for n in [1, 2, 3, 4, 5, 9] {
        let bodies: Vec<BodyDesc> = (0..n)
            .map(|k| {
                let t = k as f32 * 2.4;
                BodyDesc {
                    pos: [2.0 * t.cos(), 0.3 * k as f32 - 1.0, 2.0 * t.sin()],
                    vel: [0.0; 3],
                    mass: 0.5 + 0.25 * k as f32,
                    softening: 0.1,
                }
            })
            .collect();
        let cube = Shape::Box {
            min: [-1.5; 3],
            max: [1.5; 3],
        };
        let stars = common::held(cube, 256, Range::new(0.02, 0.0), [1.0; 4], [0.0; 3]);
        let g = 1.5;
        let desc = EffectDesc {
            bodies: Some(Bodies {
                g,
                bodies: bodies.clone(),
            }),
            ..common::still("pull", vec![stars])
        };
        let mut system = scene(&gpu, &desc, 256, 7);
        let dt = 0.01;
        system.frame(&gpu, dt, false);
        let snap = system.snapshot(&gpu).unwrap();
        assert_eq!(snap.alive.len(), 256, "{n} bodies");
        for &i in &snap.alive {
            // at rest, so still where it was born: x' = x + 0·dt
            let p = snap.particles[i as usize];
            let pull: Vec3 = bodies
                .iter()
                .map(|b| {
                    let d = Vec3::from(b.pos) - p.pos;
                    let r2 = d.length_squared() + b.softening * b.softening;
                    d * (g * b.mass / (r2 * r2.sqrt()))
                })
                .sum();
            let got = p.vel / dt;
            assert!(
                got.distance(pull) <= 1e-4 * pull.length().max(1.0),
                "{n} bodies, star {i} at {}: pulled {got}, the bodies' sum {pull}",
                p.pos
            );
        }
    }
}

#[test]
fn cores_pass_at_the_parabolic_pericentre() {
    let gpu = common::gpu();
    let mut desc = ring(Integrator::SymplecticEuler);
    let (q, start) = (1.5, 5.0);
    let [(p0, v0), (p1, v1)] = galaxy::cores(1.0, [1.0, 0.5], start, q);
    let soft = 0.005;
    desc.bodies = Some(Bodies {
        g: 1.0,
        bodies: vec![
            BodyDesc {
                pos: p0.to_array(),
                vel: v0.to_array(),
                mass: 1.0,
                softening: soft,
            },
            BodyDesc {
                pos: p1.to_array(),
                vel: v1.to_array(),
                mass: 0.5,
                softening: soft,
            },
        ],
    });
    desc.emitters[0].bursts[0].count = 1;
    let mut system = scene(&gpu, &desc, 16, 1);
    let mut closest = f32::INFINITY;
    let mut momentum = Vec3::ZERO;
    for _ in 0..700 {
        system.frame(&gpu, 0.01, false);
        let b = system.snapshot(&gpu).unwrap().bodies;
        closest = closest.min(b[0].pos.distance(b[1].pos));
        momentum = b[0].vel * b[0].mass + b[1].vel * b[1].mass;
    }
    assert!(
        (closest - q).abs() <= 0.02 * q,
        "pericentre {closest}, analytic {q}"
    );
    assert!(
        momentum.length() < 1e-4,
        "total momentum drifted to {momentum:?}"
    );
}

#[test]
fn galaxy_golden() {
    let gpu = common::gpu();
    let mut scene = Scene::for_demo(&gpu, Demo::Galaxy, 16_384, 1, (128, 96)).unwrap();
    for _ in 0..200 {
        scene.frame(&gpu, Demo::Galaxy.default_dt(), false);
    }
    scene.frame(&gpu, Demo::Galaxy.default_dt(), true);
    let img = scene.image(&gpu).unwrap();
    common::check_golden("galaxy", &img);
}

#[test]
fn substeps_equal_smaller_frames() {
    // 4 substeps of 0.01 per frame are the same arithmetic as 4 frames of 0.01
    let gpu = common::gpu();
    let desc = ring(Integrator::SymplecticEuler);
    let mut fine = scene(&gpu, &desc, 512, 3);
    let mut coarse = scene(&gpu, &desc, 512, 3);
    coarse.renderer.set_substeps(4).unwrap();
    for _ in 0..40 {
        fine.frame(&gpu, 0.01, false);
    }
    for _ in 0..10 {
        coarse.frame(&gpu, 0.04, false);
    }
    let a = fine.snapshot(&gpu).unwrap();
    let b = coarse.snapshot(&gpu).unwrap();
    let by_id = |s: &flurry::PoolSnapshot| {
        let mut v: Vec<_> = s.alive.iter().map(|&i| s.particles[i as usize]).collect();
        v.sort_by_key(|p| p.id);
        v
    };
    let (a, b) = (by_id(&a), by_id(&b));
    assert_eq!(a.len(), 512);
    assert_eq!(a.len(), b.len());
    for (p, q) in a.iter().zip(&b) {
        assert!(
            (p.pos - q.pos).length() < 1e-5,
            "id {}: {:?} against {:?}",
            p.id,
            p.pos,
            q.pos
        );
    }
}
