//! Small pools that emit, simulate, relist and cull together (one dispatch over a chunk of
//! the arena) do exactly as each pool alone: the same particles born and alive, each where
//! it would be, the same drawn and splatted, and the pool's books balanced, while effects
//! come and go (a new one in the range one left) and while a pool leaves its batch for
//! more steps or for instances. Pools whose simulates or culls differ (eddies, a box that
//! kills, streaks) are batched apart, or alone.

use glam::{Mat4, Vec3};

use super::{gpu, Hosted};
use crate::effect::{Bounds, EffectDesc, EmitterDesc, Forces, MeshSource, OnExit, Range, Shape};
use crate::effect::{OverLife, RenderMode, Turbulence, Velocity};
use crate::gpu::GpuContext;
use crate::{Camera, EffectId};

/// How a spray's particles move besides falling.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Plain,
    /// Carried by eddies of the wind, which change with the effect's clock.
    Eddies,
    /// Killed when they leave a box.
    Boxed,
    /// Born on a mesh's surface (the renderer's triangles), moving as plain ones do.
    OnMesh,
}

/// A spray of `capacity` at `x`: spawning twice its capacity a second for 0.2–0.6 s each, so
/// that particles die every frame and the pool is sometimes full.
fn spray(x: f32, capacity: u32, kind: Kind) -> EffectDesc {
    let turbulence = Some(Turbulence {
        speed: 2.0,
        scale: 0.4,
    });
    let bounds = Some(Bounds {
        min: [x - 0.3, -0.3, -0.3],
        max: [x + 0.3, 0.3, 0.3],
        on_exit: OnExit::Kill,
        follow_camera: false,
    });
    let shape = match kind {
        Kind::OnMesh => Shape::Mesh {
            mesh: MeshSource::Tetrahedron,
            center: [x, 0.0, 0.0],
            scale: 0.4,
        },
        _ => Shape::Sphere {
            center: [x, 0.0, 0.0],
            radius: 0.2,
            surface: false,
        },
    };
    EffectDesc {
        forces: Forces {
            // (each spray's own: a batched pool reads its effect's constants)
            drag: 1.5 + 0.5 * x,
            turbulence: turbulence.filter(|_| kind == Kind::Eddies),
            ..Default::default()
        },
        bounds: bounds.filter(|_| kind == Kind::Boxed),
        name: "spray".into(),
        emitters: vec![EmitterDesc {
            shape,
            rate: 2.0 * capacity as f32,
            velocity: Velocity::Linear {
                mean: [0.0, 1.0, 0.0],
                variance: [0.5, 0.2, 0.5],
            },
            lifetime: Range::new(0.4, 0.2),
            size: Range::constant(0.05),
            ..Default::default()
        }],
        ..Default::default()
    }
}

/// Whether `id`'s emit, relist and simulate are batched in `host`, as (emit, relist,
/// simulate).
fn batched(host: &Hosted, id: EffectId) -> (bool, bool, bool) {
    let b = host.renderer.batched(id);
    (b.emit, b.relist, b.simulate)
}

/// The effect's alive particles by emission ordinal (slots are handed out in the order
/// deaths came back, which workgroups race for), with its balanced books checked.
fn alive(gpu: &GpuContext, host: &Hosted, id: EffectId) -> Vec<(u32, [f32; 8])> {
    let snap = host.renderer.snapshot(&gpu.device, &gpu.queue, id).unwrap();
    snap.check().unwrap();
    let mut particles: Vec<_> = snap
        .alive
        .iter()
        .map(|&i| {
            let p = &snap.particles[i as usize];
            let (x, v) = (p.pos, p.vel);
            (p.id, [x.x, x.y, x.z, v.x, v.y, v.z, p.age, p.lifetime])
        })
        .collect();
    particles.sort_by_key(|p| p.0);
    particles
}

#[test]
fn pools_batched_together_step_as_each_alone() {
    let gpu = gpu();
    let camera = Camera::look_at(Vec3::new(0.0, 0.0, 8.0), Vec3::ZERO, 1.0);
    // capacities sized per slot (4,096 at most), of different lengths in the chunk
    use Kind::*;
    let sprays = [
        (64, 1, Plain),
        (200, 2, Eddies),
        (1000, 3, Plain),
        (4096, 4, Eddies),
        (333, 5, Boxed),
        (500, 6, OnMesh),
    ];
    let mut together = Hosted::new(&gpu);
    let mut ids = vec![];
    let mut alone = vec![];
    for (k, &(capacity, seed, kind)) in sprays.iter().enumerate() {
        let desc = spray(k as f32 - 2.0, capacity, kind);
        let (device, queue) = (&gpu.device, &gpu.queue);
        ids.push(
            together
                .renderer
                .add_effect(device, queue, &desc, capacity, seed),
        );
        let mut host = Hosted::new(&gpu);
        let id = host
            .renderer
            .add_effect(device, queue, &desc, capacity, seed);
        alone.push((host, id.unwrap()));
    }
    let mut ids: Vec<EffectId> = ids.into_iter().map(Result::unwrap).collect();
    let run = |frames, together: &mut Hosted, alone: &mut Vec<(Hosted, EffectId)>| {
        for _ in 0..frames {
            together.frame(&gpu, 1.0 / 60.0, camera);
            for (host, _) in alone.iter_mut() {
                host.frame(&gpu, 1.0 / 60.0, camera);
            }
        }
    };
    let compare = |together: &Hosted, ids: &[EffectId], alone: &[(Hosted, EffectId)], when| {
        for (&id, (host, alone_id)) in ids.iter().zip(alone) {
            assert_eq!(
                batched(host, *alone_id),
                (false, false, false),
                "one pool alone is never batched"
            );
            let (a, b) = (alive(&gpu, together, id), alive(&gpu, host, *alone_id));
            assert!(a.len() > 10, "{when}: {} alive", a.len());
            assert_eq!(a, b, "{when}: effect {id:?}, together and alone");
        }
    };
    run(40, &mut together, &mut alone);
    // every pool emitting and relisted in the chunk's batch; simulated with the others of
    // its kind, the one in a box alone
    let simulated = [true, true, true, true, false, true];
    for (&id, simulated) in ids.iter().zip(simulated) {
        assert_eq!(batched(&together, id), (true, true, simulated), "{id:?}");
    }
    compare(&together, &ids, &alone, "after 40 frames");
    // one goes, between a frame's update and its encode: until the next update every pool
    // emits, simulates and relists on its own (its own emit reading the uniforms its
    // update staged); then its range comes free and the batches are rebuilt without it
    // (the other pool with eddies is left to simulate alone)
    let (device, queue) = (&gpu.device, &gpu.queue);
    let r = &mut together.renderer;
    r.update(device, queue, 1.0 / 60.0, camera, (32, 32))
        .unwrap();
    assert!(r.remove_effect(ids.remove(1)));
    let mut encoder = device.create_command_encoder(&Default::default());
    let targets = crate::FrameTargets::new(&together.view, None);
    r.encode(device, &mut encoder, &targets).unwrap();
    queue.submit([encoder.finish()]);
    alone.remove(1);
    for (host, _) in alone.iter_mut() {
        host.frame(&gpu, 1.0 / 60.0, camera);
    }
    compare(&together, &ids, &alone, "a frame removed from");
    run(20, &mut together, &mut alone);
    assert_eq!(batched(&together, ids[2]), (true, true, false));
    compare(&together, &ids, &alone, "after a removal");
    // one comes into the range it left (first fit), which held live particles
    let (device, queue) = (&gpu.device, &gpu.queue);
    // (carried by eddies, on a clock that started later than its batch's other pool's)
    let desc = spray(0.5, 150, Eddies);
    ids.push(
        together
            .renderer
            .add_effect(device, queue, &desc, 150, 9)
            .unwrap(),
    );
    let mut host = Hosted::new(&gpu);
    let id = host
        .renderer
        .add_effect(device, queue, &desc, 150, 9)
        .unwrap();
    alone.push((host, id));
    run(20, &mut together, &mut alone);
    assert_eq!(batched(&together, ids[5]), (true, true, true));
    assert_eq!(batched(&together, ids[2]), (true, true, true));
    compare(&together, &ids, &alone, "in a range another pool had");
    // two steps a frame: the pools are counted, out of the batch, and relist themselves
    together.renderer.set_substeps(2).unwrap();
    for (host, _) in &mut alone {
        host.renderer.set_substeps(2).unwrap();
    }
    run(20, &mut together, &mut alone);
    for &id in &ids {
        let counted = (false, false, false);
        assert_eq!(
            batched(&together, id),
            counted,
            "{id:?} is counted, not batched"
        );
    }
    compare(&together, &ids, &alone, "in two steps");
    // one step again: batched again
    together.renderer.set_substeps(1).unwrap();
    for (host, _) in &mut alone {
        host.renderer.set_substeps(1).unwrap();
    }
    run(20, &mut together, &mut alone);
    assert_eq!(batched(&together, ids[0]), (true, true, true));
    compare(&together, &ids, &alone, "batched again");
}

/// How a cloud's particles look: its size and size at the end of life, and whether they are
/// streaks (a streak's length follows its speed).
struct Look {
    size: f32,
    size_end: f32,
    streaks: bool,
}

/// Alpha-blended effects (sorted together) whose small pools share a chunk are culled into
/// the merged list together, a dispatch for all (by a variant with streaks), exactly as each culls
/// alone into its own lists: the same particles drawn and splatted, by each effect's own
/// look (sizes that shrink over life from drawn to splatted, streaks), at the edge of the
/// view too; one placed as instances leaves the batch for a cull of its own.
#[test]
fn pools_culled_together_into_the_merged_list_as_each_alone() {
    let gpu = gpu();
    // 60° across from 8 m: the view's edge is some 4.6 m from its axis at the clouds, and a
    // particle is splatted up to a radius of about 2.3 m
    let camera = Camera::look_at(Vec3::new(0.0, 0.0, 8.0), Vec3::ZERO, 1.0);
    let looks = [
        (
            -3.0,
            300,
            Look {
                size: 0.1,
                size_end: 1.0,
                streaks: false,
            },
        ),
        (
            -1.5,
            1000,
            Look {
                size: 8.0,
                size_end: 0.2,
                streaks: false,
            },
        ),
        // across the view's right edge
        (
            4.6,
            500,
            Look {
                size: 2.0,
                size_end: 2.0,
                streaks: false,
            },
        ),
        (
            0.0,
            800,
            Look {
                size: 1.0,
                size_end: 1.0,
                streaks: true,
            },
        ),
        (
            1.5,
            64,
            Look {
                size: 3.0,
                size_end: 0.5,
                streaks: true,
            },
        ),
    ];
    let desc = |x: f32, capacity: u32, look: &Look| {
        let mut desc = spray(x, capacity, Kind::Plain);
        let emitter = &mut desc.emitters[0];
        // never full, placed twice too (when a pool is full, which spawns find a slot is
        // a race)
        emitter.rate = 0.5 * capacity as f32;
        emitter.size = Range::constant(look.size);
        emitter.over_life = Some(OverLife {
            size_end: look.size_end,
            ..Default::default()
        });
        if look.streaks {
            emitter.render = Some(RenderMode::Stretched { seconds: 0.8 });
        }
        desc
    };
    let (device, queue) = (&gpu.device, &gpu.queue);
    let mut together = Hosted::new(&gpu);
    let mut ids = vec![];
    let mut alone = vec![];
    for (k, (x, capacity, look)) in looks.iter().enumerate() {
        let desc = desc(*x, *capacity, look);
        let seed = 20 + k as u32;
        let add = |host: &mut Hosted| {
            host.renderer
                .add_effect(device, queue, &desc, *capacity, seed)
                .unwrap()
        };
        ids.push(add(&mut together));
        let mut host = Hosted::new(&gpu);
        let id = add(&mut host);
        alone.push((host, id));
    }
    let run = |frames, together: &mut Hosted, alone: &mut Vec<(Hosted, EffectId)>| {
        for _ in 0..frames {
            together.frame(&gpu, 1.0 / 60.0, camera);
            for (host, _) in alone.iter_mut() {
                host.frame(&gpu, 1.0 / 60.0, camera);
            }
        }
    };
    let compare = |together: &Hosted, alone: &[(Hosted, EffectId)], when| {
        let (mut drawn, mut splatted) = (0, 0);
        for (&id, (host, alone_id)) in ids.iter().zip(alone) {
            let stats = |host: &Hosted, id| {
                let snap = host.renderer.snapshot(device, queue, id).unwrap();
                let s = snap.stats;
                (s.alive, s.visible, s.splatted)
            };
            let (pa, pb) = (alive(&gpu, together, id), alive(&gpu, host, *alone_id));
            assert_eq!(pa, pb, "{when}: effect {id:?}'s particles");
            let (a, b) = (stats(together, id), stats(host, *alone_id));
            assert_eq!(a, b, "{when}: effect {id:?} (alive, visible, splatted)");
            drawn += a.1 - a.2;
            splatted += a.2;
        }
        // (a weak test otherwise)
        assert!(
            drawn > 50 && splatted > 100,
            "{when}: {drawn} drawn, {splatted} splatted"
        );
    };
    run(30, &mut together, &mut alone);
    // the round sprites and the streaks in one batch
    for &id in &ids {
        assert!(together.renderer.culled_in_batch(id), "{id:?}");
        assert!(!alone[0].0.renderer.culled_in_batch(alone[0].1));
    }
    compare(&together, &alone, "after 30 frames");
    // placed twice, the second cloud is culled alone (by its instances' bounds, the second
    // of them out of the view)
    let instances = [
        crate::Instance::new(Mat4::IDENTITY, 3.0),
        crate::Instance::new(Mat4::from_translation(Vec3::new(0.0, 30.0, 0.0)), 3.0),
    ];
    together
        .renderer
        .set_instances(device, ids[1], &instances)
        .unwrap();
    let (host, id) = &mut alone[1];
    host.renderer
        .set_instances(device, *id, &instances)
        .unwrap();
    run(20, &mut together, &mut alone);
    let in_batch: Vec<bool> = ids
        .iter()
        .map(|&id| together.renderer.culled_in_batch(id))
        .collect();
    assert_eq!(in_batch, [true, false, true, true, true]);
    compare(&together, &alone, "one placed as instances");
}

/// More small pools of one kind in a chunk than a batch's tables hold rows: they emit,
/// simulate and cull in batches of at most `BATCH_ROWS` each, and those past the first
/// batch (their rows read from a table of their own) do exactly as each alone, as the
/// first ones do.
#[test]
fn more_pools_than_a_batch_holds_step_and_cull_as_each_alone() {
    use crate::passes::batch_relist::BATCH_ROWS;
    let gpu = gpu();
    let camera = Camera::look_at(Vec3::new(0.0, 0.0, 8.0), Vec3::ZERO, 1.0);
    let n = BATCH_ROWS + 2;
    let capacity = 64;
    // each its own drag (spray's, by where it is), every other one drawn (0.05 m is splatted)
    let desc = |k: usize| {
        let mut desc = spray(-3.0 + 6.0 * k as f32 / n as f32, capacity, Kind::Plain);
        let emitter = &mut desc.emitters[0];
        emitter.rate = 0.5 * capacity as f32;
        emitter.size = Range::constant([0.05, 8.0][k % 2]);
        desc
    };
    let (device, queue) = (&gpu.device, &gpu.queue);
    let mut together = Hosted::new(&gpu);
    let ids: Vec<EffectId> = (0..n)
        .map(|k| {
            let seed = 40 + k as u32;
            together
                .renderer
                .add_effect(device, queue, &desc(k), capacity, seed)
                .unwrap()
        })
        .collect();
    // the first and last of the first batch, and the two of the second
    let watched = [0, BATCH_ROWS - 1, BATCH_ROWS, BATCH_ROWS + 1];
    let mut alone: Vec<(Hosted, EffectId)> = watched
        .iter()
        .map(|&k| {
            let mut host = Hosted::new(&gpu);
            let seed = 40 + k as u32;
            let id = host
                .renderer
                .add_effect(device, queue, &desc(k), capacity, seed)
                .unwrap();
            (host, id)
        })
        .collect();
    for _ in 0..30 {
        together.frame(&gpu, 1.0 / 60.0, camera);
        for (host, _) in &mut alone {
            host.frame(&gpu, 1.0 / 60.0, camera);
        }
    }
    let stats = |host: &Hosted, id| {
        let s = host.renderer.snapshot(device, queue, id).unwrap().stats;
        (s.alive, s.visible, s.splatted)
    };
    let (mut drawn, mut splatted) = (0, 0);
    for (&k, (host, alone_id)) in watched.iter().zip(&alone) {
        let id = ids[k];
        assert_eq!(batched(&together, id), (true, true, true), "effect {k}");
        assert!(together.renderer.culled_in_batch(id), "effect {k}");
        let (a, b) = (alive(&gpu, &together, id), alive(&gpu, host, *alone_id));
        assert!(a.len() > 10, "effect {k}: {} alive", a.len());
        assert_eq!(a, b, "effect {k}'s particles, together and alone");
        let (a, b) = (stats(&together, id), stats(host, *alone_id));
        assert_eq!(
            a, b,
            "effect {k} (alive, visible, splatted), together and alone"
        );
        drawn += a.1 - a.2;
        splatted += a.2;
    }
    assert!(
        drawn > 10 && splatted > 10,
        "{drawn} drawn, {splatted} splatted"
    );
}

/// A point that spawns 10 still particles a frame (at 0.1 s a frame) at `at`; `follows`:
/// in a region that follows the camera (its spawns moved by the camera's x and z).
fn still_points(at: [f32; 3], follows: bool) -> EffectDesc {
    EffectDesc {
        forces: Forces::NONE,
        bounds: follows.then_some(Bounds {
            min: [-100.0; 3],
            max: [100.0; 3],
            on_exit: OnExit::Wrap,
            follow_camera: true,
        }),
        emitters: vec![EmitterDesc {
            shape: Shape::Point(at),
            rate: 100.0,
            velocity: Velocity::Linear {
                mean: [0.0; 3],
                variance: [0.0; 3],
            },
            lifetime: Range::constant(100.0),
            ..Default::default()
        }],
        ..Default::default()
    }
}

/// An effect standing still writes only its spawns of its emitters' uniforms each frame
/// (the rest is as the frame that placed it wrote it), yet spawns where it is at once when
/// the host moves it, changes its emitter or moves the camera its region follows: in a
/// batch (its batch's row) and alone (its own uniforms), also when the host drops the
/// frame that placed it (recorded, never submitted: its spawns are lost, not its place).
#[test]
fn a_pool_standing_still_spawns_where_it_is_placed_again() {
    let gpu = gpu();
    let eye = |x: f32| Camera::look_at(Vec3::new(x, 0.0, 8.0), Vec3::new(x, 0.0, 0.0), 1.0);
    // moved by its transform, its emitter changed, following the camera
    let descs = [
        still_points([0.0; 3], false),
        still_points([0.0; 3], false),
        still_points([0.0; 3], true),
    ];
    let mut together = Hosted::new(&gpu);
    let mut alone: Vec<Hosted> = descs.iter().map(|_| Hosted::new(&gpu)).collect();
    let (device, queue) = (&gpu.device, &gpu.queue);
    let mut ids = vec![];
    for (k, desc) in descs.iter().enumerate() {
        let seed = k as u32 + 1;
        let together_id = together
            .renderer
            .add_effect(device, queue, desc, 1024, seed);
        let alone_id = alone[k]
            .renderer
            .add_effect(device, queue, desc, 1024, seed);
        ids.push((together_id.unwrap(), alone_id.unwrap()));
    }
    let mut hosts: Vec<(&mut Hosted, EffectId, usize)> = vec![];
    let (first, rest) = alone.split_at_mut(1);
    let (second, third) = rest.split_at_mut(1);
    for (host, k) in [(&mut first[0], 0), (&mut second[0], 1), (&mut third[0], 2)] {
        hosts.push((host, ids[k].1, k));
    }
    let run = |frames: u32, x: f32, together: &mut Hosted, hosts: &mut [(&mut Hosted, _, _)]| {
        for _ in 0..frames {
            together.frame(&gpu, 0.1, eye(x));
            for (host, _, _) in hosts.iter_mut() {
                host.frame(&gpu, 0.1, eye(x));
            }
        }
    };
    run(10, 0.0, &mut together, &mut hosts);
    for &(id, _) in &ids {
        assert!(batched(&together, id).0, "{id:?} emits in the batch");
    }
    // placed again: 5 m along x, its point 2 m up, the camera 3 m along x
    let place = |renderer: &mut crate::ParticleRenderer, id, k: usize| match k {
        0 => renderer.set_transform(id, Mat4::from_translation(Vec3::X * 5.0)),
        1 => {
            let shape = Shape::Point([0.0, 2.0, 0.0]);
            let velocity = descs[1].emitters[0].velocity;
            renderer.set_emitter(id, 0, shape, velocity, 100.0)
        }
        _ => Ok(()),
    };
    for (k, &(id, _)) in ids.iter().enumerate() {
        place(&mut together.renderer, id, k).unwrap();
    }
    for (host, id, k) in hosts.iter_mut() {
        place(&mut host.renderer, *id, *k).unwrap();
    }
    run(6, 3.0, &mut together, &mut hosts);
    // 100 spawned before, 10 in the frame it was placed again (along the way where it
    // moved), 50 after it
    let spawned_then = 160;
    let (before, after) = (
        [Vec3::ZERO, Vec3::ZERO, Vec3::new(0.0, 0.0, 8.0)],
        [Vec3::X * 5.0, Vec3::Y * 2.0, Vec3::new(3.0, 0.0, 8.0)],
    );
    let check = |host: &Hosted, id: EffectId, k: usize, how: &str| {
        let positions: Vec<Vec3> = alive(&gpu, host, id)
            .iter()
            .map(|(_, p)| Vec3::new(p[0], p[1], p[2]))
            .collect();
        assert_eq!(positions.len(), spawned_then, "{how} {k}");
        let at = |place: Vec3| {
            positions
                .iter()
                .filter(|p| p.distance(place) < 1e-4)
                .count()
        };
        assert!(
            at(before[k]) >= 100,
            "{how} {k}: {} where it was",
            at(before[k])
        );
        assert!(
            at(after[k]) >= 50,
            "{how} {k}: {} where it is",
            at(after[k])
        );
        assert_eq!(
            positions[..100],
            [before[k]; 100],
            "{how} {k}: first spawns"
        );
        let last = &positions[spawned_then - 50..];
        assert_eq!(last, [after[k]; 50], "{how} {k}: last spawns");
    };
    for (k, &(id, _)) in ids.iter().enumerate() {
        check(&together, id, k, "batched");
    }
    for (host, id, k) in &hosts {
        assert_eq!(batched(host, *id), (false, false, false));
        check(host, *id, *k, "alone");
    }
    // placed back, in a frame the host records and drops; then 5 frames
    let drop_frame = |host: &mut Hosted| drop(host.record(&gpu, 0.1, eye(0.0)));
    let place_back = |renderer: &mut crate::ParticleRenderer, id, k: usize| match k {
        0 => renderer.set_transform(id, Mat4::IDENTITY),
        1 => {
            let shape = Shape::Point([0.0; 3]);
            let velocity = descs[1].emitters[0].velocity;
            renderer.set_emitter(id, 0, shape, velocity, 100.0)
        }
        _ => Ok(()),
    };
    for (k, &(id, _)) in ids.iter().enumerate() {
        place_back(&mut together.renderer, id, k).unwrap();
    }
    drop_frame(&mut together);
    for (host, id, k) in hosts.iter_mut() {
        place_back(&mut host.renderer, *id, *k).unwrap();
        drop_frame(host);
    }
    run(5, 0.0, &mut together, &mut hosts);
    for (k, &(id, _)) in ids.iter().enumerate() {
        let positions = alive(&gpu, &together, id);
        let last = &positions[positions.len() - 50..];
        for (_, p) in last {
            let p = Vec3::new(p[0], p[1], p[2]);
            assert!(p.distance(before[k]) < 1e-4, "batched {k}: spawned at {p}");
        }
    }
    for (host, id, k) in &hosts {
        let positions = alive(&gpu, host, *id);
        assert_eq!(
            positions.len(),
            210,
            "alone {k}: the dropped frame's spawns lost"
        );
        for (_, p) in &positions[positions.len() - 50..] {
            let p = Vec3::new(p[0], p[1], p[2]);
            assert!(p.distance(before[*k]) < 1e-4, "alone {k}: spawned at {p}");
        }
    }
}
