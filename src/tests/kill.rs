//! `kill if` kills, whatever else its stack holds and whichever way the renderer runs the
//! effect: alone, drawn with others in one merged list, placed as instances, in substeps,
//! prewarmed. Each case is a burst of particles that would live 1,000 s and a condition
//! that holds for some of them after a step: the particles it holds for die, the others
//! live.

use glam::{Mat4, Vec3};

use super::{gpu, Hosted};
use crate::effect::*;
use crate::expr::Value;
use crate::{Camera, EffectId, Instance};

fn lines(v: &[&str]) -> Vec<crate::expr::Statement> {
    v.iter().map(|l| l.parse().unwrap()).collect()
}

/// Particles born in a burst of 512 at the origin, moving along x at `speed` m/s, living
/// 1,000 s, with `update` as their update stack.
fn burst(update: &[&str], forces: Forces, speed: f32) -> EffectDesc {
    EffectDesc {
        name: "kill".into(),
        emitters: vec![EmitterDesc {
            bursts: vec![Burst::once(0.0, 512)],
            velocity: Velocity::Linear {
                mean: [speed, 0.0, 0.0],
                variance: [0.0; 3],
            },
            lifetime: Range::constant(1000.0),
            update: lines(update),
            ..Default::default()
        }],
        forces,
        ..Default::default()
    }
}

fn camera() -> Camera {
    Camera::look_at(Vec3::new(0.0, 2.0, 10.0), Vec3::ZERO, 1.0)
}

/// How the renderer runs the effect.
#[derive(Clone, Copy, Debug)]
enum Path {
    Alone,
    /// Beside a second copy of it, both drawn from one merged, sorted list.
    Merged,
    /// Placed as two instances.
    Instanced,
    /// Each frame in four steps.
    Substeps,
    /// A quarter of a second run ahead before its first frame.
    Prewarmed,
}

const PATHS: [Path; 5] = [
    Path::Alone,
    Path::Merged,
    Path::Instanced,
    Path::Substeps,
    Path::Prewarmed,
];

/// `descs` run on `path`, side by side in one renderer, for `frames` frames of 16 ms:
/// (alive, killed) of each.
fn run(descs: &[&EffectDesc], path: Path, frames: u32) -> Vec<(u32, u64)> {
    let stats = run_stats(descs, path, frames);
    stats.iter().map(|s| (s.alive, s.killed_total)).collect()
}

/// `descs` run on `path` as [`run`] runs them: the stats of each.
fn run_stats(descs: &[&EffectDesc], path: Path, frames: u32) -> Vec<crate::Stats> {
    let gpu = gpu();
    let (device, queue) = (&gpu.device, &gpu.queue);
    let mut host = Hosted::new(&gpu);
    let r = &mut host.renderer;
    if let Path::Substeps = path {
        r.set_substeps(4).unwrap();
    }
    let mut ids: Vec<EffectId> = Vec::new();
    for (k, desc) in descs.iter().enumerate() {
        let id = r.add_effect(device, queue, desc, 2048, k as u32).unwrap();
        ids.push(id);
        match path {
            Path::Merged => {
                r.add_effect(device, queue, desc, 2048, 100 + k as u32)
                    .unwrap();
            }
            Path::Instanced => {
                let at =
                    |x: f32| Instance::new(Mat4::from_translation(Vec3::new(x, 0.0, 0.0)), 0.0);
                r.set_instances(device, id, &[at(-1.0), at(1.0)]).unwrap();
            }
            Path::Prewarmed => {
                r.prewarm(device, queue, id, (0.25, 0.016), camera())
                    .unwrap();
            }
            Path::Alone | Path::Substeps => {}
        }
    }
    for _ in 0..frames {
        host.frame(&gpu, 0.016, camera());
    }
    let snap = |id| host.renderer.snapshot(device, queue, id).unwrap();
    ids.into_iter()
        .map(|id| {
            let snap = snap(id);
            snap.check().unwrap();
            snap.stats
        })
        .collect()
}

/// Every particle is killed a step after its birth, on every path, whatever comes before
/// the kill in its stack or in its effect.
#[test]
fn kill_if_kills_on_every_path_whatever_the_stack_holds() {
    let moving = |update: &[&str], forces| burst(update, forces, 1.0);
    let cases = [
        (
            "alone in its stack",
            moving(&["kill if age > 0.01"], Forces::NONE),
        ),
        (
            "after a colour line",
            moving(
                &["color = vec4(1.0, 0.5, 0.2, 1.0)", "kill if age > 0.01"],
                Forces::NONE,
            ),
        ),
        (
            "after a position line",
            moving(
                &["position += vec3(0.0, 0.001, 0.0)", "kill if age > 0.01"],
                Forces::NONE,
            ),
        ),
        (
            "after a force folded into the effect's",
            moving(
                &["force += vec3(0.0, 0.1, 0.0)", "kill if age > 0.01"],
                Forces::NONE,
            ),
        ),
        (
            "with gravity and drag",
            moving(
                &["kill if length(position) > 0.01"],
                Forces {
                    drag: 0.5,
                    ..Default::default()
                },
            ),
        ),
    ];
    let descs: Vec<&EffectDesc> = cases.iter().map(|(_, d)| d).collect();
    for path in PATHS {
        let born = if matches!(path, Path::Instanced) {
            1024
        } else {
            512
        };
        for ((what, _), (alive, killed)) in cases.iter().zip(run(&descs, path, 6)) {
            assert_eq!(alive, 0, "{what}, {path:?}: {alive} alive");
            assert_eq!(killed, born, "{what}, {path:?}: killed");
        }
    }
}

/// A rate's particles die as they pass the condition while others are still being born: a
/// frame after the last birth, none is left.
#[test]
fn kill_if_kills_a_rates_particles_as_they_go() {
    let mut desc = burst(&["kill if age > 0.05"], Forces::NONE, 1.0);
    let e = &mut desc.emitters[0];
    e.bursts.clear();
    e.rate = 2000.0;
    let (alive, killed) = run(&[&desc], Path::Alone, 20)[0];
    // alive: at most the last 0.05 s of births (plus the step that carries them past it)
    assert!(alive > 0 && alive <= 140, "{alive} alive");
    assert!(killed > 300, "{killed} killed");
}

/// A host's parameter holds a ring, and a custom attribute each particle counts up: those
/// past the parameter's value die, the rest live.
#[test]
fn kill_if_reads_custom_attributes_and_parameters() {
    let mut desc = burst(
        &[
            "phase += dt * (1.0 + particle_rand(1) * 100.0)",
            "kill if phase > limit",
        ],
        Forces::NONE,
        0.0,
    );
    desc.attributes.insert("phase".into(), Value::F32(0.0));
    desc.parameters
        .insert("limit".into(), Parameter::new(0.5).range(0.0, 10.0));
    let gpu = gpu();
    let (device, queue) = (&gpu.device, &gpu.queue);
    let mut host = Hosted::new(&gpu);
    let id = host
        .renderer
        .add_effect(device, queue, &desc, 1024, 3)
        .unwrap();
    host.renderer
        .set_parameter(id, "limit", Value::F32(std::f32::consts::PI))
        .unwrap();
    for _ in 0..10 {
        host.frame(&gpu, 0.016, camera());
    }
    let snap = host.renderer.snapshot(device, queue, id).unwrap();
    snap.check().unwrap();
    // phase after n steps: n · 0.016 · (1 + 100 r); past π for r above ~0.2 within 10 steps
    let (alive, killed) = (snap.stats.alive, snap.stats.killed_total);
    assert_eq!(alive as u64 + killed, 512);
    assert!(killed > 300 && alive > 50, "{alive} alive, {killed} killed");
}

/// A particle a step leaves holding inf or NaN dies at that step and is counted, on every
/// path, as the CPU twin counts it: here the square root of a parameter (0.5) less a random
/// number, negative for about half of the particles, and a division by a parameter left at
/// zero, infinite for all. The others live on.
#[test]
fn a_particle_left_holding_no_finite_number_dies_and_is_counted() {
    let with = |line: &str, name: &str, value: f32| {
        let mut desc = burst(&[line], Forces::NONE, 1.0);
        let parameter = Parameter::new(value).range(0.0, 1.0);
        desc.parameters.insert(name.into(), parameter);
        desc
    };
    let half = with("size = sqrt(half - particle_rand(1))", "half", 0.5);
    let all = with("velocity = vec3(1.0 / zero, 0.0, 0.0)", "zero", 0.0);
    for path in PATHS {
        let born = if matches!(path, Path::Instanced) {
            1024
        } else {
            512
        };
        let stats = run_stats(&[&half, &all], path, 3);
        let (h, a) = (&stats[0], &stats[1]);
        assert_eq!(a.alive, 0, "{path:?}: {a:?}");
        assert_eq!(a.non_finite_total, born, "{path:?}: {a:?}");
        assert_eq!(h.alive as u64 + h.non_finite_total, born, "{path:?}: {h:?}");
        assert_eq!(h.killed_total, h.non_finite_total, "{path:?}: {h:?}");
        let share = h.non_finite_total as f64 / born as f64;
        assert!((0.4..0.6).contains(&share), "{path:?}: {h:?}");
        if let Path::Alone = path {
            let mut twin = crate::cpu::CpuTwin::new(&half, 2048, 0);
            for _ in 0..3 {
                twin.frame(0.016);
            }
            assert_eq!(h.non_finite_total, twin.non_finite, "the twin's count");
            assert_eq!(h.alive as usize, twin.particles.len(), "the twin's living");
        }
    }
}
