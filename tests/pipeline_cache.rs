//! The pipeline cache kept across runs: what one renderer's driver compiled, read back as
//! bytes, seeds the next renderer; damaged or foreign bytes are refused before the driver
//! sees them, and the renderer goes on as on a first run.

mod common;

use common::host::HeadlessTarget;
use flurry::{CacheIgnored, Camera, EffectDesc, ParticleRenderer};
use glam::Vec3;

fn snow() -> EffectDesc {
    let path = format!("{}/effects/snow.ron", env!("CARGO_MANIFEST_DIR"));
    EffectDesc::from_file(path.as_ref()).unwrap()
}

/// A renderer (seeded with `seed`, if any: what seeding said) that drew snow for two frames.
fn run(gpu: &flurry::GpuContext, seed: Option<&[u8]>) -> (ParticleRenderer, Option<CacheIgnored>) {
    let targets = HeadlessTarget::TARGETS;
    let mut renderer = ParticleRenderer::new(&gpu.device, targets, common::settings()).unwrap();
    let seeded = seed.and_then(|bytes| renderer.seed_pipeline_cache(&gpu.device, bytes).err());
    let target = HeadlessTarget::new(&gpu.device, 32, 24);
    let camera = Camera::look_at(Vec3::new(0.0, 2.0, 12.0), Vec3::ZERO, 4.0 / 3.0);
    renderer
        .add_effect(&gpu.device, &gpu.queue, &snow(), 2048, 1)
        .unwrap();
    for _ in 0..2 {
        common::host_frame(gpu, &mut renderer, &target, &camera, 0.02);
    }
    (renderer, seeded)
}

#[test]
fn a_cache_read_back_seeds_the_next_renderer_and_damaged_ones_are_ignored() {
    let gpu = common::gpu();
    let offered = gpu
        .device
        .features()
        .contains(wgpu::Features::PIPELINE_CACHE);
    let (first, _) = run(&gpu, None);
    let Some(bytes) = first.pipeline_cache() else {
        assert!(
            !offered,
            "a device with PIPELINE_CACHE gives its cache's bytes"
        );
        let (_, seeded) = run(&gpu, Some(b"anything"));
        assert_eq!(seeded, Some(CacheIgnored::Unsupported));
        return;
    };
    assert!(offered);
    // seeded with them, a second renderer draws and reads its own cache back
    let (second, seeded) = run(&gpu, Some(&bytes));
    assert_eq!(seeded, None, "a cache of this adapter is used");
    assert!(second.pipeline_cache().is_some());
    // a flipped bit, a cut-short file, another file: noted, and the renderer goes on
    let mut flipped = bytes.clone();
    *flipped.last_mut().unwrap() ^= 0x10;
    let cut = &bytes[..bytes.len() - 3];
    for (bad, why) in [
        (&flipped[..], CacheIgnored::Corrupt),
        (cut, CacheIgnored::Corrupt),
        (b"\x89PNG\r\n\x1a\n", CacheIgnored::NotACache),
    ] {
        let (renderer, seeded) = run(&gpu, Some(bad));
        assert_eq!(seeded, Some(why));
        assert!(
            renderer.pipeline_cache().is_some(),
            "an empty cache in its place"
        );
    }
}
