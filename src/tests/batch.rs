//! Small pools relisted together (one dispatch over a chunk of the arena) step exactly as
//! each pool alone: the same particles alive, each where it would be, and the pool's books
//! balanced, while effects come and go (a new one in the range one left) and while a pool
//! leaves its batch for more steps.

use glam::Vec3;

use super::{gpu, Hosted};
use crate::effect::{EffectDesc, EmitterDesc, Range, Shape, Velocity};
use crate::gpu::GpuContext;
use crate::{Camera, EffectId};

/// A spray of `capacity` at `x`: spawning twice its capacity a second for 0.2–0.6 s each, so
/// that particles die every frame and the pool is sometimes full.
fn spray(x: f32, capacity: u32) -> EffectDesc {
    EffectDesc {
        name: "spray".into(),
        emitters: vec![EmitterDesc {
            shape: Shape::Sphere {
                center: [x, 0.0, 0.0],
                radius: 0.2,
                surface: false,
            },
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
fn pools_relisted_together_step_as_each_alone() {
    let gpu = gpu();
    let camera = Camera::look_at(Vec3::new(0.0, 0.0, 8.0), Vec3::ZERO, 1.0);
    // capacities sized per slot (4,096 at most), of different lengths in the chunk
    let sprays = [(64, 1), (200, 2), (1000, 3), (4096, 4), (333, 5)];
    let mut together = Hosted::new(&gpu);
    let mut ids = vec![];
    let mut alone = vec![];
    for (k, &(capacity, seed)) in sprays.iter().enumerate() {
        let desc = spray(k as f32 - 2.0, capacity);
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
            assert!(
                !host.renderer.batched(*alone_id),
                "one pool alone is never batched"
            );
            let (a, b) = (alive(&gpu, together, id), alive(&gpu, host, *alone_id));
            assert!(a.len() > 10, "{when}: {} alive", a.len());
            assert_eq!(a, b, "{when}: effect {id:?}, together and alone");
        }
    };
    run(40, &mut together, &mut alone);
    for &id in &ids {
        assert!(
            together.renderer.batched(id),
            "{id:?} is relisted in the batch"
        );
    }
    compare(&together, &ids, &alone, "after 40 frames");
    // one goes: its range comes free and the batch is rebuilt without it
    assert!(together.renderer.remove_effect(ids.remove(1)));
    alone.remove(1);
    run(20, &mut together, &mut alone);
    compare(&together, &ids, &alone, "after a removal");
    // one comes into the range it left (first fit), which held live particles
    let (device, queue) = (&gpu.device, &gpu.queue);
    let desc = spray(0.5, 150);
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
    compare(&together, &ids, &alone, "in a range another pool had");
    // two steps a frame: the pools are counted, out of the batch, and relist themselves
    together.renderer.set_substeps(2);
    for (host, _) in &mut alone {
        host.renderer.set_substeps(2);
    }
    run(20, &mut together, &mut alone);
    for &id in &ids {
        assert!(
            !together.renderer.batched(id),
            "{id:?} is counted, not batched"
        );
    }
    compare(&together, &ids, &alone, "in two steps");
    // one step again: batched again
    together.renderer.set_substeps(1);
    for (host, _) in &mut alone {
        host.renderer.set_substeps(1);
    }
    run(20, &mut together, &mut alone);
    assert!(together.renderer.batched(ids[0]));
    compare(&together, &ids, &alone, "batched again");
}
