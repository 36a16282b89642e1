//! `flurry profile suite [--quick] --json PATH [--plot PATH.svg]`: every figure the
//! measurements report, in one run, so that any machine with a GPU fills the table with one
//! command: each demo at 64K and 1M particles (16M where the device's buffers allow), the
//! sort at 1M and 16M keys, all-pairs gravity at 16K and 64K bodies, many small effects,
//! one effect placed 1,000 times, each demo profile with the adapter's roofline. `--quick` is sized for a CPU adapter: each demo
//! at 64K over a few small frames, the galaxy at 1M, the sort at 1M, gravity at 16K.
//!
//! Each run is the command line it stands for, parsed and run in this process: the suite
//! measures exactly what `flurry profile …` would (with the suite's `--seed`).

use std::time::Instant;

use clap::Parser;
use serde_json::json;

use flurry::{GpuContext, Invalid, ParticleRenderer};

use super::args::{Cli, Command, ProfileArgs};
use crate::host::AppError;

/// One run of the suite: its name in the report and its command line.
struct Run {
    name: String,
    args: Vec<String>,
}

fn run_of(name: impl Into<String>, args: &[&str]) -> Run {
    Run {
        name: name.into(),
        args: args.iter().map(|s| s.to_string()).collect(),
    }
}

/// The demos every suite profiles.
const DEMOS: [&str; 8] = [
    "snow",
    "fireworks",
    "rain",
    "gun",
    "galaxy",
    "sword",
    "flock",
    "crowd",
];

/// The suite's runs on a device whose pools hold up to `max_particles` and whose sort takes
/// up to `max_keys`.
fn runs(quick: bool, max_particles: u64, max_keys: u64) -> Vec<Run> {
    let mut runs = vec![];
    let (counts, frames, size): (&[u64], &str, &str) = match quick {
        true => (&[1 << 16], "3", "320x180"),
        false => (&[1 << 16, 1 << 20, 1 << 24], "20", "1280x720"),
    };
    for demo in DEMOS {
        // a crowd's navigation grows with its city: 1M walkers at most
        let most = if demo == "crowd" { 1 << 20 } else { u64::MAX };
        for &n in counts.iter().filter(|&&n| n <= max_particles && n <= most) {
            let particles = n.to_string();
            let args = [demo, "--particles", &particles, "--frames", frames];
            let mut run = run_of(format!("{demo}-{n}"), &args);
            run.args.extend(["--size".into(), size.into()]);
            runs.push(run);
        }
    }
    if quick && max_particles >= 1 << 20 {
        // the roofline's headline figure: the galaxy's simulate at 1M stars
        let args = ["galaxy", "--particles", "1048576", "--frames", "3"];
        let mut run = run_of("galaxy-1048576", &args);
        run.args.extend(["--size".into(), size.into()]);
        runs.push(run);
    }
    let keys: &[u64] = if quick {
        &[1 << 20]
    } else {
        &[1 << 20, 1 << 24]
    };
    let sort_runs = if quick { "3" } else { "5" };
    for &n in keys.iter().filter(|&&n| n <= max_keys) {
        let k = n.to_string();
        runs.push(run_of(
            format!("sort-{n}"),
            &["sort", "--keys", &k, "--runs", sort_runs],
        ));
    }
    let bodies: &[u64] = if quick {
        &[1 << 14]
    } else {
        &[1 << 14, 1 << 16]
    };
    let nbody_frames = if quick { "2" } else { "10" };
    for &n in bodies {
        let b = n.to_string();
        let args = ["galaxy", "--mode", "nbody", "--particles", &b];
        let mut run = run_of(format!("nbody-{n}"), &args);
        run.args.extend(["--frames".into(), nbody_frames.into()]);
        run.args.extend(["--size".into(), size.into()]);
        runs.push(run);
    }
    let effect_frames = if quick { "5" } else { "30" };
    let args = ["effects", "--effects", "100", "--particles", "1024"];
    let mut run = run_of("effects-100x1024", &args);
    run.args.extend(["--frames".into(), effect_frames.into()]);
    runs.push(run);
    let args = ["instances", "--instances", "1000", "--particles", "256"];
    let mut run = run_of("instances-1000x256", &args);
    run.args.extend(["--frames".into(), effect_frames.into()]);
    runs.push(run);
    runs
}

/// The profile arguments of a run's command line, parsed as the program would.
fn parse(run: &Run) -> Result<ProfileArgs, AppError> {
    let line = ["flurry", "profile"]
        .into_iter()
        .map(String::from)
        .chain(run.args.iter().cloned());
    let cli = Cli::try_parse_from(line)
        .map_err(|e| AppError::Profiler(format!("suite run {}: {e}", run.name)))?;
    match cli.command {
        Command::Profile(a) => Ok(a),
        _ => Err(AppError::Profiler(format!("suite run {}", run.name))),
    }
}

pub fn run(a: &ProfileArgs) -> Result<(), AppError> {
    let Some(json_path) = a.json.as_deref() else {
        let allowed = "a path ending in .json (required by `profile suite`)";
        return Err(Invalid::new("--json", "none", allowed).into());
    };
    let start = Instant::now();
    let gpu = GpuContext::new_headless()?;
    let max_particles = ParticleRenderer::max_capacity(&gpu.device) as u64;
    let max_keys = flurry::bench::max_keys(&gpu.device.limits());
    let roof = flurry::roofline::Roofline::measure(&gpu, 5)?;
    let adapter = gpu.adapter_name();
    drop(gpu);
    let mut plan = runs(a.quick, max_particles, max_keys);
    for run in &mut plan {
        run.args
            .extend(["--seed".into(), a.common.pool.seed.to_string()]);
    }
    let mut reports = vec![];
    for (i, run) in plan.iter().enumerate() {
        out!(
            "\n== suite run {} of {}: flurry profile {}",
            i + 1,
            plan.len(),
            run.args.join(" ")
        );
        let args = parse(run)?;
        let begun = Instant::now();
        let report = super::profile::report(&args)?;
        let seconds = begun.elapsed().as_secs_f64();
        reports.push(
            json!({"name": run.name, "command": format!("flurry profile {}", run.args.join(" ")),
            "seconds": seconds, "report": report}),
        );
    }
    let seconds = start.elapsed().as_secs_f64();
    let suite = json!({"adapter": adapter, "quick": a.quick, "seconds": seconds,
        "roofline": {"copy_gb_s": roof.copy_gb_s, "copy_bytes": roof.copy_bytes, "fma_gflop_s": roof.fma_gflop_s},
        "runs": reports});
    out!(
        "\nsuite: {} runs on {adapter} in {seconds:.0} s",
        plan.len()
    );
    super::output::write_json("--json", Some(json_path), &suite)?;
    if let Some(path) = a.plot.as_deref() {
        super::output::write("--plot", path, super::suite_plot::svg(&suite).as_bytes())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_run_of_either_suite_parses_as_a_profile() {
        for quick in [true, false] {
            let plan = runs(quick, 1 << 24, 1 << 24);
            assert!(plan.iter().any(|r| r.name == "galaxy-1048576"));
            assert!(plan.iter().any(|r| r.name == "sort-1048576"));
            assert!(plan.iter().any(|r| r.name == "nbody-16384"));
            for run in &plan {
                parse(run).unwrap_or_else(|e| panic!("{}: {e}", run.name));
            }
        }
        // the full suite takes each demo to 16M where the device allows, the crowd to 1M
        let full = runs(false, 1 << 24, 1 << 24);
        assert!(full.iter().any(|r| r.name == "snow-16777216"));
        assert!(!full.iter().any(|r| r.name == "crowd-16777216"));
        let small = runs(false, 1 << 20, 1 << 20);
        assert!(!small.iter().any(|r| r.name.ends_with("-16777216")));
    }
}
