//! `flurry profile`: time every GPU pass of a demo.

use serde_json::json;

use flurry::{wgpu, EffectDesc, Invalid};

use super::args::{ProfileArgs, ProfileTarget};
use super::{check_writable, setup, write_file};
use crate::host::demos::Demo;
use crate::host::scene::check_size;
use crate::host::timing::{memcpy_gb_s, Timing};
use crate::host::AppError;
use crate::progress::Progress;

pub fn run(a: ProfileArgs) -> Result<(), AppError> {
    check_writable("--json", a.json.as_deref(), "json")?;
    check_writable("--trace", a.trace.as_deref(), "json")?;
    match a.target.demo() {
        Some(demo) => {
            let demo = a.common.mode.apply(demo)?;
            passes(a, demo)
        }
        None if a.target == ProfileTarget::Effects => super::profile_effects::run(a),
        None => super::profile_sort::run(a),
    }
}

fn passes(a: ProfileArgs, demo: Demo) -> Result<(), AppError> {
    let (gpu, capacity, dt) = setup(&a.common, demo.default_particles())?;
    let size = check_size(&gpu, a.size.0, a.size.1)?;
    let has_ts = gpu
        .device
        .features()
        .contains(wgpu::Features::TIMESTAMP_QUERY);
    let timing = match a.timing.as_deref() {
        Some("cpu-sync") => Timing::CpuSync,
        Some(_) if !has_ts => {
            return Err(Invalid::new(
                "--timing",
                "gpu-timestamps",
                "cpu-sync (this adapter has no timestamp queries)",
            )
            .into())
        }
        Some(_) => Timing::GpuTimestamps,
        None => Timing::default_for(gpu.is_cpu(), has_ts),
    };
    let settings = a.render.settings()?;
    let effect = a.effect.as_deref().map(EffectDesc::from_file).transpose()?;
    let no_collision = a.no_collision;
    let scene = super::demo_scene(
        &gpu,
        demo,
        &a.common,
        capacity,
        size,
        no_collision,
        effect.as_ref(),
    );
    let mut scene = scene?.with_settings(settings);
    let dt = dt.unwrap_or(demo.default_dt());
    // a crowd's navigation fields are computed once, at its first frame: timed on their own
    // (every pass of that frame submitted on its own and waited for)
    let once = if scene.renderer.passes().contains(&flurry::Pass::Navigation) {
        let first = scene.profile(&gpu, 1, dt, Timing::CpuSync, |_| {})?;
        let summary = first.summary().into_iter();
        summary
            .filter(|s| s.0 == "navigation")
            .map(|s| (s.0, s.1))
            .collect()
    } else {
        Vec::new()
    };
    // warm-up: fill the pool, compile pipelines
    for _ in 0..3 {
        scene.frame(&gpu, dt, true);
    }
    gpu.wait()?;
    let mut progress = Progress::new(demo.name(), a.frames);
    let samples = scene.profile(&gpu, a.frames, dt, timing, |done| progress.frame(done))?;
    drop(progress);
    let snap = scene.snapshot(&gpu)?;
    let alive = snap.counters.alive;
    let memcpy = memcpy_gb_s();
    out!(
        "{} on {} ({}), {} particles ({} alive), {} frames, {}x{}",
        demo.name(),
        gpu.adapter_name(),
        timing.name(),
        capacity,
        alive,
        a.frames,
        size.0,
        size.1
    );
    out!(
        "{:<10} {:>10} {:>10} {:>10}",
        "pass",
        "median ms",
        "min",
        "max"
    );
    let mut passes = serde_json::Map::new();
    let mut frame_ms = 0.0;
    let mut simulate_ms = 0.0;
    for (name, med, lo, hi) in samples.summary() {
        out!("{name:<10} {med:>10.3} {lo:>10.3} {hi:>10.3}");
        match name.as_str() {
            "frame" => frame_ms = med,
            _ => {
                if name == "simulate" {
                    simulate_ms = med;
                }
                passes.insert(name, json!(med));
            }
        }
    }
    for (name, ms) in &once {
        out!("{name:<10} {ms:>10.3} (once, at the first frame)");
    }
    // simulate reads and writes each particle (64 B + 64 B) and one index in, one out
    let simulate_gb_s = alive as f64 * 136.0 / (simulate_ms * 1e-3) / 1e9;
    out!("memcpy {memcpy:.1} GB/s (read + write); simulate moves {simulate_gb_s:.1} GB/s ({:.0}% of it)",
        100.0 * simulate_gb_s / memcpy);
    let mut report = json!({"adapter": gpu.adapter_name(), "timing": timing.name(), "particles": capacity,
        "alive": alive, "frames": a.frames, "scale": settings.scale.value(), "size": [size.0, size.1], "passes": passes,
        "frame_ms": frame_ms, "memcpy_gb_s": memcpy, "simulate_gb_s": simulate_gb_s,
        "once": once.iter().map(|(n, ms)| (n.clone(), json!(ms))).collect::<serde_json::Map<_, _>>()});
    if let Some(gravity_ms) = report["passes"]["gravity"].as_f64() {
        // all-pairs gravity: N² interactions a step, 20 flops each by convention
        let per_s = (alive as f64).powi(2) / (gravity_ms * 1e-3);
        out!(
            "gravity: {:.3e} interactions/s, {:.1} GFLOP/s",
            per_s,
            per_s * 20.0 / 1e9
        );
        report["interactions_per_s"] = json!(per_s);
        report["gflops"] = json!(per_s * 20.0 / 1e9);
    }
    // the adapter's own ceilings, measured now: simulate's bytes against the copy kernel's
    // bandwidth, all-pairs gravity's flops against the FMA kernel's throughput
    let roof = flurry::roofline::Roofline::measure(&gpu, 5)?;
    let mut roof_passes = serde_json::Map::new();
    roof_passes.insert(
        "simulate".into(),
        json!({"bytes": alive as f64 * 136.0, "gb_s": simulate_gb_s,
               "of_copy": simulate_gb_s / roof.copy_gb_s}),
    );
    if let Some(gflops) = report["gflops"].as_f64() {
        let flops = (alive as f64).powi(2) * 20.0;
        roof_passes.insert(
            "gravity".into(),
            json!({"flops": flops, "gflop_s": gflops, "of_fma": gflops / roof.fma_gflop_s}),
        );
    }
    out!(
        "roofline: copy kernel {:.1} GB/s, FMA kernel {:.1} GFLOP/s; simulate at {:.0}% of the copy",
        roof.copy_gb_s,
        roof.fma_gflop_s,
        100.0 * simulate_gb_s / roof.copy_gb_s
    );
    report["roofline"] = json!({"copy_gb_s": roof.copy_gb_s, "fma_gflop_s": roof.fma_gflop_s,
                                "passes": roof_passes});
    if let Some(path) = &a.trace {
        write_file(path, samples.chrome_trace())?;
    }
    super::write_json(a.json.as_deref(), &report)?;
    Ok(())
}
