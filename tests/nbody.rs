//! All-pairs gravity (N-body mode): the tiled kernel against a CPU O(N²) sum, and momentum
//! conservation.

mod common;

use flurry::effect::*;
use flurry::{Camera, GpuContext, ParticleSystem};
use glam::Vec3;

fn cluster(n: u32, integrator: Integrator) -> EffectDesc {
    let ball = Shape::Sphere {
        center: [0.0; 3],
        radius: 2.0,
        surface: false,
    };
    let stars = EmitterDesc {
        lifetime: Range::new(1e6, 0.0),
        ..common::held(ball, n, Range::new(0.02, 0.0), [1.0; 4], [0.0; 3])
    };
    EffectDesc {
        integrator,
        blend: Blend::Additive,
        self_gravity: Some(SelfGravity {
            g: 1.0,
            mass: 1.0 / n as f32,
            softening: 0.05,
        }),
        ..common::still("cluster", vec![stars])
    }
}

fn step(gpu: &GpuContext, system: &mut ParticleSystem, dt: f32) {
    let camera = Camera::look_at(Vec3::new(0.0, 0.0, 8.0), Vec3::ZERO, 1.0);
    system.update(&gpu.queue, dt, &camera);
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    system.encode_compute(&mut encoder, None);
    gpu.queue.submit([encoder.finish()]);
}

#[test]
fn tiled_accelerations_equal_the_cpu_sum() {
    let gpu = common::gpu();
    for n in [1024u32, 1000] {
        let desc = cluster(n, Integrator::ExplicitEuler);
        let mut system = ParticleSystem::new(&gpu.device, &gpu.queue, &desc, n, 9).unwrap();
        // one explicit Euler step from rest moves nothing: the positions read back are the
        // ones the accelerations were computed from
        step(&gpu, &mut system, 0.01);
        let snap = system.snapshot(&gpu.device, &gpu.queue).unwrap();
        let accel = system.read_nbody_accel(&gpu.device, &gpu.queue).unwrap();
        assert_eq!(snap.alive.len() as u32, n);
        let (m, eps2) = (1.0 / n as f64, 0.05f64 * 0.05);
        let pos: Vec<[f64; 3]> = snap
            .alive
            .iter()
            .map(|&i| snap.particles[i as usize].pos.to_array().map(|c| c as f64))
            .collect();
        for (k, &i) in snap.alive.iter().enumerate() {
            let mut a = [0.0f64; 3];
            for p in &pos {
                let d = [p[0] - pos[k][0], p[1] - pos[k][1], p[2] - pos[k][2]];
                let r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + eps2;
                let f = m / (r2 * r2.sqrt());
                for c in 0..3 {
                    a[c] += d[c] * f;
                }
            }
            let g = accel[i as usize];
            let err = ((g[0] as f64 - a[0]).powi(2)
                + (g[1] as f64 - a[1]).powi(2)
                + (g[2] as f64 - a[2]).powi(2))
            .sqrt();
            let norm = (a[0] * a[0] + a[1] * a[1] + a[2] * a[2]).sqrt();
            assert!(
                err <= 1e-4 * norm.max(1e-3),
                "n {n}, particle {i}: {g:?} against {a:?}"
            );
        }
    }
}

#[test]
fn total_momentum_is_conserved() {
    let gpu = common::gpu();
    let n = 1024;
    let desc = cluster(n, Integrator::SymplecticEuler);
    let mut system = ParticleSystem::new(&gpu.device, &gpu.queue, &desc, n, 4).unwrap();
    for _ in 0..100 {
        step(&gpu, &mut system, 0.01);
    }
    let snap = system.snapshot(&gpu.device, &gpu.queue).unwrap();
    let (mut p, mut scale) = (Vec3::ZERO, 0.0f32);
    for &i in &snap.alive {
        let v = snap.particles[i as usize].vel;
        p += v;
        scale += v.length();
    }
    assert!(
        scale > 1.0,
        "the cluster did not move (sum of speeds {scale})"
    );
    assert!(
        p.length() <= 1e-5 * scale,
        "momentum {p:?} against a sum of speeds {scale}"
    );
}

#[test]
fn all_pairs_gravity_refuses_too_many_particles() {
    let gpu = common::gpu();
    let desc = cluster(16, Integrator::SymplecticEuler);
    let err = ParticleSystem::new(&gpu.device, &gpu.queue, &desc, MAX_NBODY + 1, 1)
        .err()
        .expect("refused");
    assert!(err.to_string().contains("--particles"), "{err}");
}
