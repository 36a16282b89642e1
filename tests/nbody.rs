//! All-pairs gravity (N-body mode): momentum conservation, and the limit on the particle
//! count. (The tiled kernel's accelerations against a CPU O(N²) sum are checked in the
//! library's own tests: they read a buffer no host sees.)

mod common;

use common::host::Scene;
use flurry::effect::*;
use flurry::{Camera, GpuContext};
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

fn scene(gpu: &GpuContext, desc: &EffectDesc, n: u32, seed: u32) -> flurry::Result<Scene> {
    let camera = |aspect| Camera::look_at(Vec3::new(0.0, 0.0, 8.0), Vec3::ZERO, aspect);
    Scene::new(gpu, desc, n, seed, (64, 64), camera).map_err(|e| match e {
        common::host::AppError::Flurry(e) => e,
        other => panic!("{other}"),
    })
}

#[test]
fn total_momentum_is_conserved() {
    let gpu = common::gpu();
    let n = 1024;
    let desc = cluster(n, Integrator::SymplecticEuler);
    let mut scene = scene(&gpu, &desc, n, 4).unwrap();
    for _ in 0..100 {
        scene.frame(&gpu, 0.01, false);
    }
    let snap = scene.snapshot(&gpu).unwrap();
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
    let desc = cluster(16, Integrator::SymplecticEuler);
    // the renderer names its argument; the program's scene names the flag that set it
    let mut host = common::hosted::Hosted::new(common::settings(), (64, 64), Vec3::Z * 8.0);
    let gpu = &host.gpu;
    let refused = host
        .renderer
        .add_effect(&gpu.device, &gpu.queue, &desc, MAX_NBODY + 1, 1)
        .expect_err("refused");
    let text = refused.to_string();
    assert!(
        text.contains("capacity = 65537") && text.contains("65536"),
        "{text}"
    );
    let gpu = common::gpu();
    let err = scene(&gpu, &desc, MAX_NBODY + 1, 1).err().expect("refused");
    let text = err.to_string();
    assert!(
        text.contains("--particles = 65537") && text.contains("65536"),
        "{text}"
    );
}
