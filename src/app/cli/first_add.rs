//! What the first effect of a kind costs the host, four ways (`flurry profile effects`
//! reports it): added to a fresh renderer (its pipelines compiled inside `add_effect` and
//! its first frame), added after `warm`, added with the compile on a worker thread, and
//! added to a renderer seeded with the pipeline cache the first one left.

use std::time::Instant;

use serde_json::json;

use flurry::{Camera, EffectDesc, GpuContext, ParticleRenderer, Settings};

use crate::host::{AppError, HeadlessTarget};

/// Most frames the off-thread case waits for the effect to be ready.
const MOST_FRAMES: u32 = 100_000;

/// Milliseconds since `start`.
fn ms(start: Instant) -> f64 {
    start.elapsed().as_secs_f64() * 1e3
}

/// A fresh renderer of `settings` drawing into the headless target's formats, seeded with
/// `cache` (a note where it was not used).
fn renderer(
    gpu: &GpuContext,
    settings: Settings,
    cache: Option<&[u8]>,
) -> Result<ParticleRenderer, AppError> {
    let mut r = ParticleRenderer::new(&gpu.device, HeadlessTarget::TARGETS, settings)?;
    if let Some(bytes) = cache {
        if let Err(why) = r.seed_pipeline_cache(&gpu.device, bytes) {
            eprintln!("note: the pipeline cache was not used: {why}");
        }
    }
    Ok(r)
}

/// One frame (update + encode timed on this thread, then submitted and waited for); its
/// host time in milliseconds.
fn frame(
    gpu: &GpuContext,
    r: &mut ParticleRenderer,
    target: &HeadlessTarget,
    camera: Camera,
) -> Result<f64, AppError> {
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    target.encode_scene(&mut encoder, [0.0, 0.0, 0.0, 1.0], None);
    let start = Instant::now();
    r.update(&gpu.device, &gpu.queue, 1.0 / 60.0, camera, target.size())?;
    r.encode(&gpu.device, &mut encoder, &target.frame())?;
    let host = ms(start);
    gpu.queue.submit([encoder.finish()]);
    gpu.wait()?;
    Ok(host)
}

/// The first add of `desc` (a pool of `capacity`) four ways, as a JSON object; each case
/// on a fresh renderer of `settings` on `gpu`'s device, drawing into `target` seen by
/// `camera`.
pub fn first_add(
    gpu: &GpuContext,
    (target, camera): (&HeadlessTarget, Camera),
    settings: Settings,
    (desc, capacity): (&EffectDesc, u32),
) -> Result<serde_json::Value, AppError> {
    let (device, queue) = (&gpu.device, &gpu.queue);
    let add = |r: &mut ParticleRenderer| -> Result<(f64, flurry::EffectId), AppError> {
        let start = Instant::now();
        let id = r.add_effect(device, queue, desc, capacity, 1)?;
        Ok((ms(start), id))
    };
    // cold: compiled inside add_effect, and the frame-level passes at the first frame
    let mut cold = renderer(gpu, settings, None)?;
    let (cold_add, _) = add(&mut cold)?;
    let cold_frame = frame(gpu, &mut cold, target, camera)?;
    let cold_pipelines = cold.compiled_pipelines();
    let cache = cold.pipeline_cache();

    // warmed: the same pipelines compiled by warm, before the add
    let mut warmed = renderer(gpu, settings, None)?;
    let start = Instant::now();
    let warmed_pipelines = warmed.warm(device, &[desc])?;
    let warm_ms = ms(start);
    let (warmed_add, _) = add(&mut warmed)?;
    let warmed_frame = frame(gpu, &mut warmed, target, camera)?;
    let after_warm = warmed.compiled_pipelines() - warmed_pipelines as u64;

    // off the thread: add returns, the frames go on until it is ready
    let background = Settings {
        background_compile: true,
        ..settings
    };
    let mut off = renderer(gpu, background, None)?;
    let start = Instant::now();
    let (off_add, id) = add(&mut off)?;
    let mut host_ms = vec![];
    while !off.is_ready(id)? && (host_ms.len() as u32) < MOST_FRAMES {
        host_ms.push(frame(gpu, &mut off, target, camera)?);
    }
    let ready_ms = ms(start);
    let off_frames = host_ms.len();
    // its first frames drawn
    let mut started = vec![];
    for _ in 0..3 {
        started.push(frame(gpu, &mut off, target, camera)?);
    }
    let started_max = started.iter().copied().fold(0.0, f64::max);
    // (a fresh renderer's first frame makes its particle target: apart from the rest)
    let host_first = host_ms.first().copied().unwrap_or(0.0);
    let rest = host_ms
        .get(1..)
        .filter(|r| !r.is_empty())
        .unwrap_or(&host_ms);
    let host_max = rest.iter().copied().fold(0.0, f64::max);
    let host_median = crate::host::timing::median(rest);

    // seeded with the cold renderer's cache
    let mut seeded = renderer(gpu, settings, cache.as_deref())?;
    let (seeded_add, _) = add(&mut seeded)?;
    let seeded_frame = frame(gpu, &mut seeded, target, camera)?;

    out!(
        "first add_effect of a kind: cold {cold_add:.1} ms (+ first frame {cold_frame:.1} ms, {cold_pipelines} pipelines)"
    );
    out!(
        "  warmed: warm {warm_ms:.1} ms ({warmed_pipelines} pipelines), then add {warmed_add:.2} ms, first frame {warmed_frame:.1} ms, {after_warm} compiled after"
    );
    out!(
        "  off the host's thread: add {off_add:.2} ms, ready after {ready_ms:.1} ms ({off_frames} frames; host update + encode: the first {host_first:.2} ms, the particle target made; the rest median {host_median:.3} ms, most {host_max:.2} ms; its first three frames drawn at most {started_max:.2} ms)"
    );
    let cache_note = match &cache {
        Some(bytes) => format!("{} bytes of cache", bytes.len()),
        None => "no pipeline cache on this device".into(),
    };
    out!(
        "  seeded with the cold run's pipeline cache ({cache_note}): add {seeded_add:.1} ms (+ first frame {seeded_frame:.1} ms)"
    );
    Ok(json!({
        "cold_add_ms": cold_add, "cold_first_frame_ms": cold_frame,
        "cold_pipelines": cold_pipelines,
        "warm_ms": warm_ms, "warmed_pipelines": warmed_pipelines, "warmed_add_ms": warmed_add,
        "warmed_first_frame_ms": warmed_frame, "compiled_after_warm": after_warm,
        "background_add_ms": off_add, "background_ready_ms": ready_ms,
        "background_frames": off_frames, "background_host_first_ms": host_first,
        "background_host_median_ms": host_median,
        "background_host_max_ms": host_max, "background_started_max_ms": started_max,
        "pipeline_cache_bytes": cache.as_ref().map(Vec::len),
        "seeded_add_ms": seeded_add, "seeded_first_frame_ms": seeded_frame,
    }))
}
