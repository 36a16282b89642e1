//! The pool's invariants (lists, counters, indirect arguments) and the simulation against
//! its CPU twin, on the headless adapter, one effect without a renderer.

use std::collections::BTreeMap;

use glam::Vec3;

use super::{snow, still, Solo};
use crate::cpu::CpuTwin;
use crate::effect::*;
use crate::pool::Sizing;
use crate::Camera;

fn camera() -> Camera {
    Camera::look_at(Vec3::new(0.0, 2.0, 10.0), Vec3::ZERO, 1.0)
}

/// Relative closeness with an absolute floor of 1 (|a - b| <= tol · max(1, |b|)).
fn close(a: f32, b: f32, tol: f32) -> bool {
    (a - b).abs() <= tol * b.abs().max(1.0)
}

fn close3(a: Vec3, b: Vec3, tol: f32) -> bool {
    close(a.x, b.x, tol) && close(a.y, b.y, tol) && close(a.z, b.z, tol)
}

fn emitter(shape: Shape, velocity: Velocity, lifetime: Range) -> EmitterDesc {
    EmitterDesc {
        shape,
        velocity,
        lifetime,
        size: Range::new(0.1, 0.05),
        color: ColorRange::new([0.5, 0.5, 0.5, 1.0], [0.5, 0.5, 0.5, 0.0]),
        rotation: Range::new(0.0, 3.0),
        spin: Range::new(1.0, 2.0),
        ..Default::default()
    }
}

/// Bursts and a high rate against a small pool, short lives, deaths by bounds too.
fn churny() -> EffectDesc {
    let mut a = emitter(
        Shape::Sphere {
            center: [0.0; 3],
            radius: 1.0,
            surface: false,
        },
        Velocity::Radial {
            speed: Range::new(4.0, 3.0),
        },
        Range::new(0.3, 0.25),
    );
    a.rate = 90_000.0;
    let mut b = emitter(
        Shape::Point([0.0, 1.0, 0.0]),
        Velocity::Linear {
            mean: [0.0, 2.0, 0.0],
            variance: [3.0, 1.0, 3.0],
        },
        Range::new(0.5, 0.4),
    );
    b.bursts = vec![Burst {
        time: 0.05,
        count: 3000,
        every: Some(0.2),
        cycles: None,
    }];
    EffectDesc {
        forces: Forces {
            gravity: [0.0, -9.81, 0.0],
            wind: [1.0, 0.0, 0.0],
            drag: 0.5,
            turbulence: None,
        },
        bounds: Some(Bounds {
            min: [-2.0; 3],
            max: [2.0; 3],
            on_exit: OnExit::Kill,
            follow_camera: false,
        }),
        blend: Blend::Additive,
        ..still("churny", vec![a, b])
    }
}

#[test]
fn pool_accounting_holds_after_every_frame_sized_per_slot() {
    pool_accounting_holds_after_every_frame(Sizing::PerSlot);
}

#[test]
fn pool_accounting_holds_after_every_frame_counted() {
    pool_accounting_holds_after_every_frame(Sizing::Counted);
}

fn pool_accounting_holds_after_every_frame(sizing: Sizing) {
    let capacity = 4096;
    let mut solo = Solo::new(&churny(), capacity, 11);
    solo.system.set_sizing(sizing);
    let mut saw_drops = false;
    let mut saw_recycling = false;
    for f in 0..300 {
        solo.frame(1.0 / 60.0, &camera());
        let snap = solo.snapshot();
        let s = snap.stats;
        let c = snap.counters;
        assert!(c.dead >= 0, "frame {f}: dead count {}", c.dead);
        assert_eq!(c.alive + c.dead as u32, capacity, "frame {f}: alive + dead");
        let mut seen = vec![false; capacity as usize];
        for &i in snap.alive.iter().chain(&snap.dead) {
            assert!(i < capacity, "frame {f}: index {i} out of range");
            assert!(!seen[i as usize], "frame {f}: index {i} twice");
            seen[i as usize] = true;
        }
        assert!(seen.iter().all(|&s| s), "frame {f}: an index is missing");
        assert_eq!(
            s.emitted_total + s.dropped_total,
            s.requested_total,
            "frame {f}"
        );
        assert_eq!(c.next_alive, 0, "frame {f}: scratch counter reset");
        assert_eq!(snap.args.draw[1], c.alive, "frame {f}: draw instance count");
        for &i in &snap.alive {
            let p = &snap.particles[i as usize];
            assert!(
                p.age < p.lifetime,
                "frame {f}: a dead particle is in the alive list"
            );
        }
        saw_drops |= s.dropped_total > 0;
        saw_recycling |= s.emitted_total > capacity as u64;
    }
    assert!(saw_drops, "the effect must demand more than the pool holds");
    assert!(saw_recycling, "slots must be reused");
}

/// Every shape, the three velocity modes the twin knows, drag, wind and kill bounds, sized
/// to never drop.
fn twin_effect() -> EffectDesc {
    let radial = Velocity::Radial {
        speed: Range::new(3.0, 1.0),
    };
    let normal = Velocity::Normal {
        speed: Range::new(2.0, 0.5),
    };
    let linear = Velocity::Linear {
        mean: [0.5, 3.0, -0.2],
        variance: [1.0, 1.0, 1.0],
    };
    let life = Range::new(1.0, 0.5);
    let shapes = [
        Shape::Point([0.0, 1.0, 0.0]),
        Shape::Box {
            min: [-1.0, 0.0, -1.0],
            max: [1.0, 0.5, 1.0],
        },
        Shape::Sphere {
            center: [0.5, 1.0, 0.0],
            radius: 0.7,
            surface: false,
        },
        Shape::Sphere {
            center: [-0.5, 1.0, 0.0],
            radius: 0.4,
            surface: true,
        },
        Shape::Disk {
            center: [0.0, 0.2, 0.0],
            radius: 1.5,
            normal: [0.2, 1.0, 0.1],
        },
        Shape::Mesh {
            mesh: MeshSource::Shard,
            center: [0.3, 1.5, -0.2],
            scale: 0.8,
        },
        Shape::Mesh {
            mesh: MeshSource::Leaf,
            center: [-0.3, 0.5, 0.4],
            scale: 1.2,
        },
    ];
    let emitters = shapes
        .iter()
        .enumerate()
        .map(|(i, &shape)| {
            let velocity = [radial, linear, normal][i % 3];
            let mut e = emitter(shape, velocity, life);
            e.rate = 2000.0 + 500.0 * i as f32;
            e.bursts = vec![Burst {
                time: 0.1 * i as f32,
                count: 300,
                every: Some(0.5),
                cycles: Some(3),
            }];
            e
        })
        .collect();
    EffectDesc {
        forces: Forces {
            gravity: [0.0, -4.0, 0.0],
            wind: [2.0, 0.0, 1.0],
            drag: 0.3,
            turbulence: None,
        },
        bounds: Some(Bounds {
            min: [-3.0, -1.0, -3.0],
            max: [3.0, 5.0, 3.0],
            on_exit: OnExit::Kill,
            follow_camera: false,
        }),
        ..still("twin", emitters)
    }
}

/// Run `desc` for `frames` on the GPU and its CPU twin, compare them particle by particle,
/// and give the GPU's pool at the end.
pub(super) fn compare_with_twin(
    desc: &EffectDesc,
    capacity: u32,
    seed: u32,
    frames: u32,
    dt: f32,
) -> crate::PoolSnapshot {
    compare_moving_with_twin(desc, (capacity, seed), frames, dt, |_| glam::Mat4::IDENTITY)
}

/// As [`compare_with_twin`], the effect placed by the host at `placed(frame)` every frame.
fn compare_moving_with_twin(
    desc: &EffectDesc,
    (capacity, seed): (u32, u32),
    frames: u32,
    dt: f32,
    placed: impl Fn(u32) -> glam::Mat4,
) -> crate::PoolSnapshot {
    let mut solo = Solo::new(desc, capacity, seed);
    let mut twin = CpuTwin::new(desc, capacity, seed);
    twin.eye = camera().eye; // bounds that follow the camera follow it on both sides
    twin.view_dir = (camera().target - camera().eye).normalize();
    for f in 0..frames {
        solo.system.set_transform(None, placed(f)).unwrap();
        let start = placed(f.saturating_sub(1));
        twin.motion = vec![(start, placed(f)); desc.emitters.len()];
        solo.frame(dt, &camera());
        twin.frame(dt);
    }
    compare_pools(desc, &solo, &twin, 1001)
}

/// `solo`'s pool against `twin`'s, as [`compare_snapshot`] compares them.
pub(super) fn compare_pools(
    desc: &EffectDesc,
    solo: &Solo,
    twin: &CpuTwin,
    least_alive: usize,
) -> crate::PoolSnapshot {
    compare_snapshot(desc, solo.snapshot(), twin, least_alive)
}

/// A pool as read back (`snap`) against `twin`'s, particle by particle, with at least
/// `least_alive` alive (fewer would prove little): the same particles emitted, alive and
/// dead, each within a tolerance of the twin's attributes and its own.
pub(super) fn compare_snapshot(
    desc: &EffectDesc,
    snap: crate::PoolSnapshot,
    twin: &CpuTwin,
    least_alive: usize,
) -> crate::PoolSnapshot {
    snap.check().unwrap();
    let stats = snap.stats;
    assert_eq!(
        stats.dropped_total, 0,
        "the twin comparison needs an effect that never drops"
    );
    assert_eq!(twin.dropped, 0);
    assert_eq!(stats.emitted_total, twin.emitted, "emitted");
    let gpu_set: BTreeMap<u32, crate::Particle> = snap
        .alive
        .iter()
        .map(|&i| (snap.particles[i as usize].id, snap.particles[i as usize]))
        .collect();
    assert_eq!(gpu_set.len(), snap.alive.len(), "ids are unique");
    assert!(
        gpu_set.len() >= least_alive,
        "only {} alive: the test would prove little",
        gpu_set.len()
    );
    let missing: Vec<_> = twin
        .particles
        .keys()
        .filter(|id| !gpu_set.contains_key(id))
        .take(5)
        .collect();
    let extra: Vec<_> = gpu_set
        .keys()
        .filter(|id| !twin.particles.contains_key(id))
        .take(5)
        .collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "alive sets differ: missing on GPU {missing:?}, extra {extra:?}"
    );
    for (id, g) in &gpu_set {
        let c = &twin.particles[id];
        let tol = 1e-4;
        assert!(
            close3(g.pos, c.pos, tol),
            "id {id}: pos {:?} vs cpu {:?}",
            g.pos,
            c.pos
        );
        assert!(
            close3(g.vel, c.vel, tol),
            "id {id}: vel {:?} vs cpu {:?}",
            g.vel,
            c.vel
        );
        assert!(
            close(g.age, c.age, tol) && close(g.lifetime, c.lifetime, tol),
            "id {id}: age/lifetime"
        );
        assert!(
            close(g.size, c.size, tol) && close(g.rotation, c.rotation, tol),
            "id {id}: size/rotation"
        );
        // a channel drawn within an ulp of a rounding boundary may round either way (the
        // GPU may fuse a multiply-add the CPU rounds twice)
        let channels = |c: u32| c.to_le_bytes().map(i16::from);
        let (gc, cc) = (channels(g.color), channels(c.color));
        assert!(
            gc.iter().zip(cc).all(|(a, b)| (a - b).abs() <= 1) && g.emitter == c.emitter,
            "id {id}: colour {gc:?} vs cpu {cc:?}, emitter {} vs {}",
            g.emitter,
            c.emitter
        );
    }
    // the effect's own attributes, slot by slot against the twin's records
    let mut first = 0;
    for (name, initial) in &desc.attributes {
        let n = initial.ty().components();
        let values = snap
            .attribute(name)
            .expect("every declared attribute is read back");
        for &i in &snap.alive {
            let id = snap.particles[i as usize].id;
            let mut words = [0; 4];
            words[..n].copy_from_slice(&twin.attributes[&id][first..first + n]);
            let c = crate::expr::Value::from_words(initial.ty(), words);
            let g = values[i as usize];
            let near = g.components().iter().zip(c.components()).all(|(a, b)| {
                let (a, b) = (*a as f32, b as f32);
                close(a, b, 1e-4) || a == b
            });
            assert!(
                near && g.ty() == c.ty(),
                "id {id}: {name} {g:?} vs cpu {c:?}"
            );
        }
        first += n;
    }
    snap
}

#[test]
fn gpu_matches_cpu_twin_after_100_frames() {
    compare_with_twin(&twin_effect(), 65_536, 7, 100, 0.016);
}

#[test]
fn gpu_matches_cpu_twin_for_an_effect_the_host_moves() {
    // carried along x and turned about y every frame: spawns spread along each frame's way
    let placed = |f: u32| {
        let t = f as f32;
        glam::Mat4::from_translation(Vec3::new(0.3 * t, 0.0, 0.0))
            * glam::Mat4::from_rotation_y(0.05 * t)
    };
    compare_moving_with_twin(&twin_effect(), (65_536, 7), 60, 0.016, placed);
}

#[test]
fn gpu_matches_cpu_twin_in_a_pool_sized_per_slot() {
    // no argument passes after emit and simulate: the passes run one thread per slot
    let capacity = crate::pool::PER_SLOT_MOST;
    assert_eq!(Sizing::of(capacity, 1, false), Sizing::PerSlot);
    compare_with_twin(&snow(capacity), capacity, 3, 100, 0.016);
}

/// A pool filled to 95 % at once, dying over the run (lifetimes of 0.5 to 1.5 s, kill
/// bounds): simulated slot by slot while at least three quarters full, then through its
/// alive list.
fn filled_pool(capacity: u32) -> EffectDesc {
    let mut e = emitter(
        Shape::Sphere {
            center: [0.0; 3],
            radius: 1.0,
            surface: false,
        },
        Velocity::Radial {
            speed: Range::new(1.5, 1.0),
        },
        Range::new(1.0, 0.5),
    );
    e.bursts = vec![Burst::once(0.0, capacity / 20 * 19)];
    EffectDesc {
        forces: Forces {
            gravity: [0.0, -2.0, 0.0],
            wind: [0.5, 0.0, 0.0],
            drag: 0.2,
            turbulence: None,
        },
        bounds: Some(Bounds {
            min: [-2.5; 3],
            max: [2.5; 3],
            on_exit: OnExit::Kill,
            follow_camera: false,
        }),
        ..still("filled", vec![e])
    }
}

#[test]
fn gpu_matches_cpu_twin_simulated_slot_by_slot() {
    let capacity = 8192;
    let desc = filled_pool(capacity);
    // the first frames run over the slots (the list's dispatch empty), the last ones not
    let mut solo = Solo::new(&desc, capacity, 5);
    let mut by_slot = Vec::new();
    let mut listed_in_place = 0;
    for _ in 0..60 {
        solo.frame(0.016, &camera());
        let snap = solo.snapshot();
        snap.check().unwrap();
        by_slot.push(snap.args.step_slots[0] > 0);
        assert_eq!(snap.args.step_slots[0] > 0, snap.args.step_list[0] == 0);
        // a step over the slots listed its survivors in the current list itself (nothing
        // for relist to copy back), each workgroup's together and in the order of its slots
        if snap.args.relist == [0, 1, 1] && (snap.alive.len() as u32) < capacity / 20 * 19 {
            in_workgroup_order(&snap.alive);
            listed_in_place += 1;
        }
    }
    assert!(
        by_slot[0] && !by_slot[59],
        "slot by slot in turn: {by_slot:?}"
    );
    assert!(listed_in_place > 0, "no step over the slots after deaths");
    compare_with_twin(&desc, capacity, 5, 60, 0.016);
}

/// Each workgroup's slots (64 each) appear in `list` together, in increasing order.
fn in_workgroup_order(list: &[u32]) {
    let mut seen = std::collections::HashSet::new();
    for run in list.chunk_by(|a, b| a / 64 == b / 64) {
        assert!(
            seen.insert(run[0] / 64),
            "workgroup {} listed twice",
            run[0] / 64
        );
        assert!(run.is_sorted_by(|a, b| a < b), "out of order: {run:?}");
    }
}

#[test]
fn gpu_matches_cpu_twin_for_wrapping_snow() {
    compare_with_twin(&snow(16_384), 16_384, 3, 100, 0.016);
}

fn constant_acceleration(integrator: Integrator) -> EffectDesc {
    let mut e = emitter(
        Shape::Point([1.0, 2.0, 3.0]),
        Velocity::Linear {
            mean: [2.0, 5.0, -1.0],
            variance: [0.0; 3],
        },
        Range::new(100.0, 0.0),
    );
    e.bursts = vec![Burst::once(0.0, 64)];
    EffectDesc {
        forces: Forces {
            gravity: [0.5, -9.81, 0.25],
            wind: [0.0; 3],
            drag: 0.0,
            turbulence: None,
        },
        integrator,
        ..still("euler", vec![e])
    }
}

/// x_n = x0 + n·v0·dt + a·dt²·k with k = n(n-1)/2 (explicit) or n(n+1)/2 (symplectic).
fn euler_law(integrator: Integrator, k: fn(f32) -> f32) {
    let mut solo = Solo::new(&constant_acceleration(integrator), 64, 1);
    let (dt, n) = (0.02f32, 100u32);
    for _ in 0..n {
        solo.frame(dt, &camera());
    }
    let snap = solo.snapshot();
    assert_eq!(snap.alive.len(), 64);
    let (x0, v0, a) = (
        Vec3::new(1.0, 2.0, 3.0),
        Vec3::new(2.0, 5.0, -1.0),
        Vec3::new(0.5, -9.81, 0.25),
    );
    let nf = n as f32;
    let x = x0 + v0 * (nf * dt) + a * (dt * dt * k(nf));
    let v = v0 + a * (nf * dt);
    for &i in &snap.alive {
        let p = &snap.particles[i as usize];
        assert!(
            close3(p.pos, x, 1e-4),
            "{integrator:?}: pos {:?}, closed form {x:?}",
            p.pos
        );
        assert!(
            close3(p.vel, v, 1e-4),
            "{integrator:?}: vel {:?}, closed form {v:?}",
            p.vel
        );
    }
}

#[test]
fn explicit_euler_law_holds_on_the_gpu() {
    euler_law(Integrator::ExplicitEuler, |n| n * (n - 1.0) / 2.0);
}

#[test]
fn symplectic_euler_law_holds_on_the_gpu() {
    euler_law(Integrator::SymplecticEuler, |n| n * (n + 1.0) / 2.0);
}

/// The snow box follows the camera: wherever it flies, every flake is in the box around it
/// (emitted there, wrapped back into it as the camera moves on).
#[test]
fn the_snow_box_follows_the_camera() {
    let desc = snow(8192);
    let b = desc.bounds.unwrap();
    assert!(b.follow_camera);
    let mut solo = Solo::new(&desc, 8192, 2);
    for eye in [Vec3::new(100.0, 2.0, -50.0), Vec3::new(-300.0, 5.0, 40.0)] {
        let camera = Camera::look_at(eye, eye + Vec3::new(0.0, 0.0, -1.0), 1.0);
        for _ in 0..3 {
            solo.frame(0.016, &camera);
        }
        let snap = solo.snapshot();
        assert_eq!(snap.alive.len(), 8192);
        for &i in &snap.alive {
            let p = snap.particles[i as usize].pos;
            let rel = p - Vec3::new(eye.x, 0.0, eye.z);
            let inside = (0..3).all(|k| rel[k] >= b.min[k] - 1e-3 && rel[k] <= b.max[k] + 1e-3);
            assert!(inside, "flake at {p} outside the box around {eye}");
        }
    }
}

/// The invariant check a soak run and the fuzz test rely on finds every kind of breakage.
#[test]
fn the_pool_check_finds_each_broken_invariant() {
    // half the pool filled, seen from inside the snow box
    let mut solo = Solo::new(&snow(2048), 4096, 3);
    let camera = Camera::look_at(Vec3::new(0.0, 2.0, 10.0), Vec3::ZERO, 1.0);
    for _ in 0..3 {
        solo.frame(0.02, &camera);
    }
    let good = solo.snapshot();
    assert_eq!(good.check(), Ok(()));
    assert!(good.alive.len() > 2 && !good.dead.is_empty() && !good.visible.is_empty());
    let broken = |f: &dyn Fn(&mut crate::PoolSnapshot), needle: &str| {
        let mut s = good.clone();
        f(&mut s);
        let err = s.check().unwrap_err();
        assert!(err.contains(needle), "{needle}: {err}");
    };
    broken(&|s| s.alive[1] = s.alive[0], "listed twice");
    broken(&|s| s.dead[0] = s.alive[0], "listed twice");
    broken(&|s| s.alive[0] = 1 << 20, "past the capacity");
    broken(&|s| s.stats.dead += 1, "!= capacity");
    broken(&|s| s.stats.dropped_total += 1, "requested");
    broken(&|s| s.stats.killed_total += 1, "killed");
    broken(
        &|s| {
            let dead = s.dead[0];
            s.visible[0][1] = dead;
        },
        "drawn but not alive",
    );
    broken(
        &|s| s.particles[s.alive[0] as usize].lifetime *= -1.0,
        "of the alive list is not marked live",
    );
    broken(
        &|s| s.particles[s.dead[0] as usize].lifetime = 1.0,
        "of the dead list is marked live",
    );
    broken(
        &|s| s.particles[s.alive[1] as usize].pos.y = f32::NAN,
        "non-finite position",
    );
    broken(
        &|s| s.particles[s.alive[0] as usize].vel.x = f32::INFINITY,
        "non-finite velocity",
    );
    // a free slot keeps whatever its last particle left
    let mut freed = good.clone();
    freed.particles[freed.dead[0] as usize].pos.x = f32::NAN;
    assert_eq!(freed.check(), Ok(()));
}
