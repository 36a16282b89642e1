//! Drag as its law says, whatever its strength and the step: the velocity relaxes towards
//! `wind + gravity / drag` as `e^(−drag·t)` and never overshoots it, so no drag the effect
//! schema allows (up to 1000 per second) fills a pool with NaN at any step.

mod common;

use common::host::Scene;
use flurry::effect::*;
use flurry::Camera;
use glam::Vec3;

const GRAVITY: Vec3 = Vec3::new(0.0, -9.81, 0.0);
const WIND: Vec3 = Vec3::new(3.0, 0.0, -1.0);
const START: Vec3 = Vec3::new(0.0, 20.0, 4.0);

/// Particles born at the origin moving at `START` (or, with `scatter`, in random directions
/// at up to 20 m/s) under Earth's gravity and `drag` towards `WIND`; a burst at t = 0 and a
/// steady stream after it, living three seconds.
fn effect(drag: f32, scatter: bool) -> EffectDesc {
    let velocity = if scatter {
        Velocity::Radial {
            speed: Range::new(10.0, 10.0),
        }
    } else {
        Velocity::Linear {
            mean: START.to_array(),
            variance: [0.0; 3],
        }
    };
    let desc = EffectDesc {
        name: "drag".into(),
        emitters: vec![EmitterDesc {
            bursts: vec![Burst::once(0.0, 64)],
            rate: 200.0,
            velocity,
            lifetime: Range::constant(3.0),
            size: Range::constant(0.05),
            ..Default::default()
        }],
        forces: Forces {
            gravity: GRAVITY.to_array(),
            wind: WIND.to_array(),
            drag,
            turbulence: None,
        },
        ..Default::default()
    };
    desc.validate().unwrap();
    desc
}

fn scene(gpu: &flurry::GpuContext, desc: &EffectDesc) -> Scene {
    let camera = |a| Camera::look_at(Vec3::new(0.0, 5.0, 30.0), Vec3::ZERO, a);
    Scene::new(gpu, desc, 1024, 3, (32, 24), camera).unwrap()
}

#[test]
fn the_strongest_drag_is_stable_at_any_step_every_particle_finite_at_its_terminal_velocity() {
    // drag 400 and 1000 per second at steps of 1/60 and 1/30 s (drag·dt from 6.7 to 33:
    // explicit Euler diverges past 2), 600 frames, particles thrown every way at up to
    // 20 m/s: the pool's invariants hold (every particle finite among them), and every
    // particle stepped twice or more moves at wind + gravity/drag to within a millimetre a
    // second (what is left of its start after two steps is under 2e-6 of it; a particle
    // born within a frame has a first step shorter than dt, so two steps are an age over dt)
    let gpu = common::gpu();
    for drag in [400.0, 1000.0] {
        for dt in [1.0 / 60.0, 1.0 / 30.0] {
            let mut scene = scene(&gpu, &effect(drag, true));
            let terminal = WIND + GRAVITY / drag;
            for frame in 1..=600 {
                scene.frame(&gpu, dt, false);
                if frame % 100 != 0 {
                    continue;
                }
                let snap = scene.snapshot(&gpu).unwrap();
                let at = format!("drag {drag}, dt {dt}, frame {frame}");
                snap.check().unwrap_or_else(|e| panic!("{at}: {e}"));
                assert!(snap.alive.len() > 300, "{at}: {} alive", snap.alive.len());
                let stepped = snap.alive.iter().map(|&i| snap.particles[i as usize]);
                for p in stepped.filter(|p| p.age > dt * 1.0001) {
                    assert!(
                        (p.vel - terminal).length() < 1e-3,
                        "{at}: a particle of age {} moves at {} (terminal {terminal})",
                        p.age,
                        p.vel
                    );
                }
            }
        }
    }
}

#[test]
fn a_moderate_drag_relaxes_the_velocity_exactly_as_its_law_says() {
    // drag 2 per second at steps of 1/30 s (explicit Euler's (1 − k·dt)^n is 0.126 after a
    // second where e^(−k·t) is 0.135: 7 % off): after every frame, each particle of the
    // burst moves at v∞ + (v0 − v∞)·e^(−drag·age), v∞ = wind + gravity/drag, to within 1e-4
    // of its speed
    let gpu = common::gpu();
    let drag = 2.0;
    let dt = 1.0 / 30.0;
    let mut scene = scene(&gpu, &effect(drag, false));
    let terminal = WIND + GRAVITY / drag;
    for frame in 1..=60 {
        scene.frame(&gpu, dt, false);
        let snap = scene.snapshot(&gpu).unwrap();
        snap.check().unwrap();
        let burst: Vec<_> = snap
            .alive
            .iter()
            .map(|&i| snap.particles[i as usize])
            .filter(|p| p.id < 64)
            .collect();
        assert_eq!(burst.len(), 64, "frame {frame}");
        for p in burst {
            let t = frame as f32 * dt;
            assert!((p.age - t).abs() < 1e-5, "frame {frame}: age {}", p.age);
            let exact = terminal + (START - terminal) * (-drag * t).exp();
            assert!(
                (p.vel - exact).length() < 1e-4 * START.length(),
                "frame {frame}: velocity {} where the law gives {exact}",
                p.vel
            );
        }
    }
}
