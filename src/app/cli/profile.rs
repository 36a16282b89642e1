//! `flurry profile`: time every GPU pass of a demo.

use serde_json::json;

use flurry::{wgpu, Invalid};

use super::args::{ProfileArgs, ProfileTarget};
use super::{output, setup};
use crate::host::demos::Demo;
use crate::host::scene::check_size;
use crate::host::timing::{memcpy_gb_s, Timing};
use crate::host::AppError;
use crate::progress::Progress;

pub fn run(a: ProfileArgs) -> Result<(), AppError> {
    output::check(&[
        ("--json", a.json.as_deref(), "json"),
        ("--trace", a.trace.as_deref(), "json"),
        ("--plot", a.plot.as_deref(), "svg"),
    ])?;
    if a.target == ProfileTarget::Suite {
        return super::profile_suite::run(&a);
    }
    let report = report(&a)?;
    output::write_json("--json", a.json.as_deref(), &report)
}

/// The report (`--json`'s content) of one target but the suite.
pub fn report(a: &ProfileArgs) -> Result<serde_json::Value, AppError> {
    match a.target {
        ProfileTarget::Effects => super::profile_effects::report(a),
        ProfileTarget::Sort => super::profile_sort::report(a),
        ProfileTarget::Instances => super::profile_instances::report(a),
        ProfileTarget::Suite => Err(AppError::Profiler("the suite holds no suite".into())),
        target => match target.demo() {
            Some(demo) => passes(a, a.common.mode.apply(demo)?),
            None => Err(AppError::Profiler(format!("{target:?} is no demo"))),
        },
    }
}

fn passes(a: &ProfileArgs, demo: Demo) -> Result<serde_json::Value, AppError> {
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
    let effect = a
        .effect
        .as_deref()
        .map(crate::host::live_effect::effect_file)
        .transpose()?;
    let no_collision = a.no_collision;
    let scene = super::demo_scene(
        &gpu,
        demo,
        &a.common,
        capacity,
        (size, crate::host::HostSetup::STANDARD),
        no_collision,
        a.effect.as_deref().zip(effect.as_ref()),
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
    for (name, med, lo, hi) in samples.summary() {
        out!("{name:<10} {med:>10.3} {lo:>10.3} {hi:>10.3}");
        match name.as_str() {
            "frame" => frame_ms = med,
            _ => {
                passes.insert(name, json!(med));
            }
        }
    }
    for (name, ms) in &once {
        out!("{name:<10} {ms:>10.3} (once, at the first frame)");
    }
    let memcpy = memcpy_gb_s();
    let mut report = json!({"adapter": gpu.adapter_name(), "timing": timing.name(), "particles": capacity,
        "alive": alive, "frames": a.frames, "scale": settings.scale.value(), "size": [size.0, size.1], "passes": passes,
        "frame_ms": frame_ms, "host_memcpy_gb_s": memcpy,
        "once": once.iter().map(|(n, ms)| (n.clone(), json!(ms))).collect::<serde_json::Map<_, _>>()});
    // the adapter's own ceilings, measured now, and every pass's bytes and flops (counted
    // from its kernel over the last frame's counts) against them
    let roof = flurry::roofline::Roofline::measure(&gpu, 5)?;
    let line = flurry::roofline::line_bytes(&gpu.adapter.get_info());
    let traffic = scene.renderer.traffic(&gpu.device, &gpu.queue, line)?;
    report["roofline"] = roofline_report(&roof, line, &traffic, &report["passes"]);
    out!(
        "roofline: copy kernel {:.2} GB/s ({} MiB a run), FMA kernel {:.1} GFLOP/s (host memcpy {memcpy:.1} GB/s)",
        roof.copy_gb_s,
        roof.copy_bytes >> 20,
        roof.fma_gflop_s
    );
    out!(
        "{:<10} {:>12} {:>12} {:>8} {:>9} {:>7} {:>7}",
        "pass",
        "MB",
        "MFLOP",
        "GB/s",
        "GFLOP/s",
        "of copy",
        "of FMA"
    );
    let rows = &report["roofline"]["passes"];
    for name in traffic.iter().map(|(p, _)| p.name()) {
        let r = &rows[name];
        if !r.is_null() {
            let f = |k: &str| r[k].as_f64().unwrap_or(0.0);
            out!(
                "{name:<10} {:>12.2} {:>12.2} {:>8.2} {:>9.2} {:>6.0}% {:>6.0}%",
                f("bytes") / 1e6,
                f("flops") / 1e6,
                f("gb_s"),
                f("gflop_s"),
                100.0 * f("of_copy"),
                100.0 * f("of_fma")
            );
        }
    }
    if let Some(us) = set_parameter_us(&mut scene)? {
        out!("set_parameter: {us:.3} µs a call (the CPU, {PARAMETER_CALLS} calls)");
        report["set_parameter_us"] = json!(us);
    }
    if let Some(path) = &a.trace {
        output::write("--trace", path, samples.chrome_trace().as_bytes())?;
    }
    Ok(report)
}

/// Calls `set_parameter_us` times.
const PARAMETER_CALLS: u32 = 100_000;

/// What setting the effect's first parameter costs the CPU a call (its value as it is, so
/// the run's figures stay as measured), if it declares one.
fn set_parameter_us(scene: &mut crate::host::Scene) -> Result<Option<f64>, AppError> {
    let id = scene.effect;
    let Some(name) = scene
        .renderer
        .effect(id)
        .and_then(|d| d.parameters.keys().next().cloned())
    else {
        return Ok(None);
    };
    let value = scene.renderer.parameter(id, &name);
    let value = value.unwrap_or_else(|| unreachable!("`{name}` is declared"));
    let start = std::time::Instant::now();
    for _ in 0..PARAMETER_CALLS {
        scene
            .renderer
            .set_parameter(id, std::hint::black_box(&name), value)?;
    }
    Ok(Some(
        start.elapsed().as_secs_f64() * 1e6 / PARAMETER_CALLS as f64,
    ))
}

/// The roofline of a profile: the ceilings, and for every timed pass its bytes and flops
/// (per frame), what it achieved in its median time and those as fractions of the ceilings.
fn roofline_report(
    roof: &flurry::roofline::Roofline,
    line: u32,
    traffic: &[(flurry::Pass, flurry::roofline::Traffic)],
    times: &serde_json::Value,
) -> serde_json::Value {
    let mut passes = serde_json::Map::new();
    for (pass, t) in traffic {
        let Some(ms) = times[pass.name()].as_f64().filter(|&ms| ms > 0.0) else {
            continue;
        };
        let (gb_s, gflop_s) = (t.bytes / ms / 1e6, t.flops / ms / 1e6);
        passes.insert(
            pass.name().into(),
            json!({"bytes": t.bytes, "flops": t.flops, "ms": ms, "gb_s": gb_s, "gflop_s": gflop_s,
                   "of_copy": gb_s / roof.copy_gb_s, "of_fma": gflop_s / roof.fma_gflop_s}),
        );
    }
    json!({"copy_gb_s": roof.copy_gb_s, "copy_bytes": roof.copy_bytes, "fma_gflop_s": roof.fma_gflop_s,
           "line_bytes": line, "passes": passes})
}
