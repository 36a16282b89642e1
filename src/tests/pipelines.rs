//! Pipelines are compiled once per renderer and shared: an effect whose variants exist
//! compiles nothing when it is added, and removing effects recompiles nothing.

use glam::Vec3;

use super::{gpu, held, still, Hosted};
use crate::effect::{Blend, Collision, Response, Shape};
use crate::{Camera, ParticleRenderer, Settings, Targets};

#[test]
fn effects_share_the_renderer_pipelines() {
    let gpu = gpu();
    let mut host = Hosted::new(&gpu);
    let renderer = &mut host.renderer;
    assert_eq!(renderer.pipelines().built(), 0, "new() compiles nothing");
    let dot = |x: f32| still("dot", vec![held(Shape::Point([x, 0.0, 0.0]), 16)]);
    let first = renderer
        .add_effect(&gpu.device, &gpu.queue, &dot(0.0), 64, 1)
        .unwrap();
    // emit, args, simulate without collision, relist, cull, sort, alpha draw
    let after_first = renderer.pipelines().built();
    assert_eq!(after_first, 7);
    let mut ids = vec![first];
    for k in 1..6 {
        let desc = dot(k as f32);
        ids.push(
            renderer
                .add_effect(&gpu.device, &gpu.queue, &desc, 64 * k, k)
                .unwrap(),
        );
        assert_eq!(
            renderer.pipelines().built(),
            after_first,
            "effect {k} compiled a pipeline"
        );
    }
    // a frame merges the alpha effects (their cull into the merged list and its arguments'
    // pass are new) and draws
    let camera = Camera::look_at(Vec3::new(0.0, 0.0, 5.0), Vec3::ZERO, 1.0);
    host.frame(&gpu, 0.01, camera);
    let renderer = &mut host.renderer;
    // + the merged cull (of their six small pools in one batch, one variant: the effects
    // agree), the merged arguments, the merged draw (of all six effects), the batched
    // emit, simulate (one variant) and relist, downsample, splat, composite
    let after_frame = renderer.pipelines().built();
    assert_eq!(after_frame, after_first + 9);
    for id in ids.drain(..3) {
        assert!(host.renderer.remove_effect(id));
        host.frame(&gpu, 0.01, camera);
        assert_eq!(
            host.renderer.pipelines().built(),
            after_frame,
            "a removal compiled"
        );
    }
    // new variants compile once each: additive draw, simulate with collision
    let mut sparks = dot(1.0);
    sparks.blend = Blend::Additive;
    sparks.collision = Some(Collision::new(Response::Kill));
    let mut sparks_ids = vec![];
    for seed in 0..2 {
        let id = host
            .renderer
            .add_effect(&gpu.device, &gpu.queue, &sparks, 64, seed);
        sparks_ids.push(id.unwrap());
        assert_eq!(host.renderer.pipelines().built(), after_frame + 2);
    }
    // a frame merges the two additive ones into a list of their own, culled in the batch
    // of their chunk, drawn by the merged draw and splatted by the splat's additive
    // variant of a merged list (the splat's variants are one pass): nothing compiles
    host.frame(&gpu, 0.01, camera);
    for id in sparks_ids {
        assert!(host.renderer.culled_in_batch(id), "{id:?}");
    }
    assert_eq!(host.renderer.pipelines().built(), after_frame + 2);
}

#[test]
fn a_renderer_without_the_splat_never_compiles_it() {
    let gpu = gpu();
    let targets = Targets::new(wgpu::TextureFormat::Rgba8UnormSrgb, None);
    let settings = Settings {
        splat_radius: 0.0,
        ..super::blocking()
    };
    let mut renderer = ParticleRenderer::new(&gpu.device, targets, settings).unwrap();
    let desc = still("dot", vec![held(Shape::Point([0.0; 3]), 16)]);
    renderer
        .add_effect(&gpu.device, &gpu.queue, &desc, 64, 1)
        .unwrap();
    let camera = Camera::look_at(Vec3::new(0.0, 0.0, 5.0), Vec3::ZERO, 1.0);
    renderer
        .update(&gpu.device, &gpu.queue, 0.01, camera, (16, 16))
        .unwrap();
    assert!(!renderer.passes().contains(&crate::Pass::Splat));
    // emit, args, simulate, relist, cull, sort, draw; downsample and composite when a frame
    // is encoded
    assert_eq!(renderer.pipelines().built(), 7);
}

#[test]
fn a_device_without_a_pipeline_cache_has_none_to_seed_or_read() {
    let gpu = gpu().lacking(wgpu::Features::PIPELINE_CACHE).unwrap();
    let targets = Targets::new(wgpu::TextureFormat::Rgba8UnormSrgb, None);
    let mut renderer = ParticleRenderer::new(&gpu.device, targets, super::blocking()).unwrap();
    assert_eq!(renderer.pipeline_cache(), None);
    let seeded = renderer.seed_pipeline_cache(&gpu.device, b"FLURRYPC");
    assert_eq!(seeded, Err(crate::CacheIgnored::Unsupported));
    // and pipelines are built all the same: as many as with a cache
    let desc = still("dot", vec![held(Shape::Point([0.0; 3]), 16)]);
    renderer
        .add_effect(&gpu.device, &gpu.queue, &desc, 64, 1)
        .unwrap();
    let full = super::gpu();
    let mut cached = ParticleRenderer::new(&full.device, targets, super::blocking()).unwrap();
    cached
        .add_effect(&full.device, &full.queue, &desc, 64, 1)
        .unwrap();
    let offered = full
        .device
        .features()
        .contains(wgpu::Features::PIPELINE_CACHE);
    assert_eq!(cached.pipeline_cache().is_some(), offered);
    assert_eq!(renderer.compiled_pipelines(), cached.compiled_pipelines());
}
