//! Compiling ahead: after `warm`, adding the effects warmed, in any number and size, alone
//! or together, placed as instances or listened to, and drawing them compiles nothing.

mod common;

use common::host::HeadlessTarget;
use common::hosted::Hosted;
use flurry::{EffectDesc, EventSettings, Instance, ParticleRenderer};
use glam::{Mat4, Vec3};

fn shipped(name: &str) -> EffectDesc {
    let path = format!("{}/effects/{name}.ron", env!("CARGO_MANIFEST_DIR"));
    EffectDesc::from_file(path.as_ref()).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Every shipped effect: every kind of pass between them (sorted and unsorted, both
/// blends, images and flipbooks, ribbons, meshes, bodies, self-shadowing, GPU events, a
/// flock, a crowd).
const EFFECTS: [&str; 15] = [
    "campfire",
    "crowd",
    "debris",
    "embers",
    "explosion",
    "fireworks",
    "flock",
    "fountain",
    "gun",
    "rain",
    "snow",
    "spell",
    "streamer",
    "sword",
    "vortex",
];

/// The test host seen from above and in front of the effects.
fn host() -> Hosted {
    Hosted::new(common::settings(), (64, 48), Vec3::new(0.0, 3.0, 20.0))
}

/// `n` frames of 0.02 s.
fn frames(host: &mut Hosted, n: usize) {
    for _ in 0..n {
        host.frame(0.02);
    }
}

#[test]
fn warmed_effects_compile_nothing_when_added_drawn_placed_and_listened_to() {
    let mut host = host();
    let descs: Vec<EffectDesc> = EFFECTS.iter().map(|n| shipped(n)).collect();
    let refs: Vec<&EffectDesc> = descs.iter().collect();
    assert_eq!(
        host.renderer.compiled_pipelines(),
        0,
        "new() compiles nothing"
    );
    let device = host.gpu.device.clone();
    let warmed = host.renderer.warm(&device, &refs).unwrap();
    assert!(warmed > 40, "{warmed} pipelines for twelve kinds of effect");
    assert_eq!(host.renderer.compiled_pipelines(), warmed as u64);
    assert_eq!(
        host.renderer.warm(&device, &refs).unwrap(),
        0,
        "warmed twice"
    );
    // their images and meshes added after (the sword's ribbon shows the renderer's first
    // image; its sparks are born on its blade, the renderer's first mesh)
    let gpu = &host.gpu;
    let blade = common::host::demos::sword::blade();
    host.renderer.add_mesh(&gpu.device, blade).unwrap();
    let streak = flurry::Image::new(4, 4, vec![[255; 4]; 16]).unwrap();
    host.renderer
        .add_image(&gpu.device, &gpu.queue, &streak)
        .unwrap();
    let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("effects");
    let mut descs = descs;
    for desc in &mut descs {
        host.renderer
            .load_images(&gpu.device, &gpu.queue, desc, &folder)
            .unwrap();
    }
    let compiled = |h: &Hosted| h.renderer.compiled_pipelines() - warmed as u64;

    // each alone, in a small pool (batched with other small ones) and a large one
    for desc in &descs {
        let small = host.add(desc, 256, 7);
        assert_eq!(compiled(&host), 0, "adding {}", desc.name);
        frames(&mut host, 2);
        assert_eq!(compiled(&host), 0, "{} alone", desc.name);
        let large = host.add(desc, 8192, 7);
        frames(&mut host, 2);
        assert_eq!(
            compiled(&host),
            0,
            "{} twice, in pools of two sizes",
            desc.name
        );
        host.renderer.remove_effect(small);
        host.renderer.remove_effect(large);
    }
    // every two kinds together, in small pools: their merged lists and batches
    for (i, a) in descs.iter().enumerate() {
        for b in &descs[i + 1..] {
            let ids = [host.add(a, 256, 7), host.add(b, 256, 7)];
            frames(&mut host, 1);
            assert_eq!(compiled(&host), 0, "{} with {}", a.name, b.name);
            for id in ids {
                host.renderer.remove_effect(id);
            }
        }
    }
    // all together, twice each in small pools: merged lists and batches of every kind
    let mut ids = vec![];
    for desc in descs.iter().chain(&descs) {
        ids.push(host.add(desc, 256, 7));
    }
    frames(&mut host, 2);
    assert_eq!(compiled(&host), 0, "every effect together");
    // placed as instances, listened to
    let gpu = &host.gpu;
    let instances = [
        Instance::new(Mat4::from_translation(Vec3::X * -3.0), 0.0),
        Instance::new(Mat4::from_translation(Vec3::X * 3.0), 0.0),
    ];
    let events = EventSettings {
        deaths: true,
        ..EventSettings::default()
    };
    for (&id, desc) in ids.iter().zip(&descs) {
        // (refused for an effect with ribbons or a crowd)
        if let Err(e) = host.renderer.set_instances(&gpu.device, id, &instances) {
            let message = e.to_string();
            let refused = message.contains("ribbon") || message.contains("crowd");
            assert!(refused, "{}: {message}", desc.name);
        }
        host.renderer
            .set_events(&gpu.device, id, Some(events))
            .unwrap();
    }
    frames(&mut host, 2);
    assert_eq!(compiled(&host), 0, "placed as instances and listened to");
}

#[test]
fn warm_refuses_a_bad_effect_as_add_effect_does() {
    let mut host = host();
    let mut bad = shipped("snow");
    bad.emitters[0].rate = -1.0;
    let device = host.gpu.device.clone();
    let warm = host.renderer.warm(&device, &[&bad]).unwrap_err();
    let gpu = &host.gpu;
    let add = ParticleRenderer::new(&gpu.device, HeadlessTarget::TARGETS, common::settings())
        .unwrap()
        .add_effect(&gpu.device, &gpu.queue, &bad, 64, 1)
        .unwrap_err();
    assert_eq!(warm.to_string(), add.to_string());
    // and another device (of the same adapter) than the renderer's
    let request = host.gpu.adapter.request_device(&Default::default());
    let (other, _) = pollster::block_on(request).unwrap();
    let err = host.renderer.warm(&other, &[&shipped("snow")]);
    assert!(err.unwrap_err().to_string().contains("device"));
    assert_eq!(host.renderer.compiled_pipelines(), 0);
}
