//! Effect instances: one effect placed many times shares one pool. Each instance spawns
//! what the effect alone would, where its transform puts it (moving ones along their way),
//! and an instance whose bounds are off screen has none of its particles drawn.

mod common;

use common::hosted::Hosted;
use flurry::effect::*;
use flurry::glam::{Mat4, Vec3};
use flurry::{EffectId, Instance, PoolSnapshot};

/// A still point source at `at` (in the effect's space), `rate` a second, living 10 s.
fn source(at: [f32; 3], rate: f32) -> EffectDesc {
    EffectDesc {
        forces: Forces::NONE,
        emitters: vec![EmitterDesc {
            shape: Shape::Point(at),
            rate,
            velocity: Velocity::Linear {
                mean: [0.0; 3],
                variance: [0.0; 3],
            },
            lifetime: Range::constant(10.0),
            size: Range::constant(0.05),
            ..Default::default()
        }],
        ..Default::default()
    }
}

/// The test host 30 m in front of the origin.
fn host() -> Hosted {
    Hosted::new(common::settings(), (64, 48), Vec3::new(0.0, 0.0, 30.0))
}

/// Effect `id`'s pool read back, its invariants checked.
fn snapshot(host: &Hosted, id: EffectId) -> PoolSnapshot {
    let gpu = &host.gpu;
    let snap = host.renderer.snapshot(&gpu.device, &gpu.queue, id).unwrap();
    snap.check().unwrap();
    snap
}

fn at(x: f32, y: f32, z: f32) -> Mat4 {
    Mat4::from_translation(Vec3::new(x, y, z))
}

#[test]
fn each_instance_spawns_what_the_effect_alone_would_where_it_stands() {
    let mut host = host();
    let desc = source([0.0; 3], 1000.0);
    let alone = host.add(&desc, 4096, 3);
    let placed = host.add(&desc, 3 * 4096, 3);
    let instances: Vec<Instance> = (0..3)
        .map(|k| Instance::new(at(10.0 * (k as f32 - 1.0), 0.0, 0.0), 1.0))
        .collect();
    let gpu = &host.gpu;
    host.renderer
        .set_instances(&gpu.device, placed, &instances)
        .unwrap();
    for _ in 0..5 {
        host.frame(0.1);
    }
    let one = snapshot(&host, alone);
    assert_eq!(one.stats.alive, 500, "1000 a second for 0.5 s");
    assert!(one
        .alive
        .iter()
        .all(|&i| one.particles[i as usize].instance().is_none()));
    let three = snapshot(&host, placed);
    assert_eq!(three.stats.alive, 3 * 500);
    assert_eq!(three.stats.requested_total, 3 * one.stats.requested_total);
    let mut per = [0u32; 3];
    for &i in &three.alive {
        let p = &three.particles[i as usize];
        let k = p.instance().expect("spawned by an instance") as usize;
        per[k] += 1;
        let x = 10.0 * (k as f32 - 1.0);
        assert!(
            (p.pos - Vec3::new(x, 0.0, 0.0)).length() < 1e-4,
            "instance {k}'s particle at {:?}",
            p.pos
        );
    }
    assert_eq!(per, [500; 3], "spawns per instance");
    // no instances: placed once again, at its own transform
    host.renderer
        .set_instances(&host.gpu.device, placed, &[])
        .unwrap();
    host.frame(0.1);
    let again = snapshot(&host, placed);
    assert_eq!(again.stats.alive, 3 * 500 + 100);
}

#[test]
fn a_moving_instance_lays_its_spawns_along_its_way() {
    // 2,000 a second: a 0.1 s frame's 200 spawns of an instance moved from x = 0 to x = 1
    // lie spread over the metre, as a moving effect's do
    let mut host = host();
    let id = host.add(&source([0.0; 3], 2000.0), 2 * 4096, 3);
    let place = |host: &mut Hosted, x: f32| {
        let list = [
            Instance::new(at(x, 0.0, 0.0), 2.0),
            Instance::new(at(0.0, 5.0, 0.0), 2.0),
        ];
        let gpu = &host.gpu;
        host.renderer.set_instances(&gpu.device, id, &list).unwrap();
    };
    place(&mut host, 0.0);
    host.frame(0.1);
    place(&mut host, 1.0);
    host.frame(0.1);
    let snap = snapshot(&host, id);
    let mut tenths = [0u32; 10];
    for &i in &snap.alive {
        let p = &snap.particles[i as usize];
        if p.instance() == Some(0) && p.age < 0.1 {
            assert!(p.pos.y.abs() < 1e-4 && (-1e-4..=1.0 + 1e-4).contains(&p.pos.x));
            tenths[((p.pos.x * 10.0) as usize).min(9)] += 1;
        }
    }
    assert_eq!(tenths.iter().sum::<u32>(), 200, "the second frame's spawns");
    assert!(
        tenths.iter().all(|&n| n > 0 && n <= 2 * 20),
        "spawns per tenth of the way: {tenths:?}"
    );
}

#[test]
fn an_instance_whose_bounds_are_off_screen_has_none_of_its_particles_drawn() {
    // the source lies 100 m behind the instance's origin, so its particles are at the world
    // origin, in the middle of the view, while the instance itself is behind the camera: with
    // bounds of 1 m about it they are culled with it; with none (radius 0) they are drawn
    let mut host = host();
    let id = host.add(&source([0.0, 0.0, -100.0], 1000.0), 4096, 3);
    let shown = |host: &mut Hosted, radius: f32| {
        let list = [Instance::new(at(0.0, 0.0, 100.0), radius)];
        let gpu = &host.gpu;
        host.renderer.set_instances(&gpu.device, id, &list).unwrap();
        host.frame(0.1);
        let snap = snapshot(host, id);
        let alive = snap.stats.alive;
        assert!(snap.alive.iter().all(|&i| {
            let p = &snap.particles[i as usize];
            p.pos.length() < 1e-3
        }));
        (snap.stats.visible, alive)
    };
    let (visible, alive) = shown(&mut host, 1.0);
    assert_eq!((visible, alive), (0, 100), "culled with their instance");
    let (visible, alive) = shown(&mut host, 0.0);
    assert_eq!(
        (visible, alive),
        (200, 200),
        "an instance without bounds is never culled"
    );
}

#[test]
fn bad_instances_are_refused_by_field_and_change_nothing() {
    let mut host = host();
    let id = host.add(&source([0.0; 3], 50.0), 8, 3);
    let device = host.gpu.device.clone();
    let err = |host: &mut Hosted, list: &[Instance]| {
        host.renderer
            .set_instances(&device, id, list)
            .unwrap_err()
            .to_string()
    };
    let good = Instance::new(Mat4::IDENTITY, 1.0);
    let flat = Instance::new(Mat4::from_scale(Vec3::new(1.0, 0.0, 1.0)), 1.0);
    let e = err(&mut host, &[good, flat]);
    assert!(e.contains("instances[1].transform"), "{e}");
    let e = err(&mut host, &[Instance::new(Mat4::IDENTITY, -1.0)]);
    assert!(e.contains("instances[0].radius") && e.contains("-1"), "{e}");
    let nan = Instance::new(Mat4::IDENTITY, f32::NAN);
    assert!(err(&mut host, &[nan]).contains("instances[0].radius"));
    let e = err(&mut host, &[good; 9]);
    assert!(
        e.contains("instances") && e.contains('9') && e.contains("0..=8"),
        "{e}"
    );
    // nothing changed: the effect still spawns once
    host.frame(0.1);
    assert_eq!(snapshot(&host, id).stats.alive, 5);
    // ribbons are one per emitter: an effect with them is placed once
    let streamer =
        std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/effects/streamer.ron"));
    let ribbons = EffectDesc::from_file(streamer).unwrap();
    let rid = host.add(&ribbons, 4096, 3);
    let e = host
        .renderer
        .set_instances(&device, rid, &[good, good])
        .unwrap_err()
        .to_string();
    assert!(e.contains("instances") && e.contains("ribbons"), "{e}");
    host.renderer.remove_effect(rid);
    assert!(host.renderer.set_instances(&device, rid, &[good]).is_err());
}
