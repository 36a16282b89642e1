//! `flurry demo|stats|profile|check` — the CLI contract of DESIGN.md.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::{Args, Parser, Subcommand};
use serde_json::json;

use flurry::app::{check_size, Scene};
use flurry::effect::EffectDesc;
use flurry::error::{Error, Invalid};
use flurry::profiler::{memcpy_gb_s, Timing};
use flurry::{Camera, Demo, GpuContext};

#[derive(Parser)]
#[command(
    name = "flurry",
    version,
    about = "GPU compute-driven particles on wgpu"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run a demo; renders headless to a PNG with --headless or when no display exists.
    Demo(DemoArgs),
    /// Simulate a demo or effect file and print counts as JSON (last line).
    Stats(StatsArgs),
    /// Time every GPU pass of a demo.
    Profile(ProfileArgs),
    /// Validate an effect file (exit 1 with the reasons when it is refused).
    Check { file: PathBuf },
}

#[derive(Args)]
struct Common {
    /// Pool capacity (particles); 1 up to what the adapter's buffer limits allow.
    #[arg(long, allow_hyphen_values = true)]
    particles: Option<i64>,
    /// Random seed; the same seed reproduces a run.
    #[arg(long, default_value_t = 1)]
    seed: u32,
    /// Fixed time step in seconds (0 < dt <= 1); without it the clock is real time.
    #[arg(long, allow_hyphen_values = true)]
    dt: Option<f64>,
}

#[derive(Args)]
struct DemoArgs {
    demo: Demo,
    #[command(flatten)]
    common: Common,
    /// Output size, WIDTHxHEIGHT.
    #[arg(long, default_value = "1280x720", value_parser = parse_size, allow_hyphen_values = true)]
    size: (i64, i64),
    /// Render offscreen and write a PNG instead of opening a window.
    #[arg(long)]
    headless: bool,
    /// Frames to render headless.
    #[arg(long, default_value_t = 120, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    frames: u32,
    /// PNG path for headless output (default flurry-<demo>.png).
    #[arg(long)]
    out: Option<PathBuf>,
}

#[derive(Args)]
struct StatsArgs {
    /// A built-in demo (or use --effect).
    #[arg(required_unless_present = "effect", conflicts_with = "effect")]
    demo: Option<Demo>,
    /// An effect file in RON.
    #[arg(long)]
    effect: Option<PathBuf>,
    #[command(flatten)]
    common: Common,
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    frames: u32,
    /// Write the GPU state after the last frame as JSON.
    #[arg(long)]
    dump: Option<PathBuf>,
}

#[derive(Args)]
struct ProfileArgs {
    demo: Demo,
    #[command(flatten)]
    common: Common,
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    frames: u32,
    /// Target size, WIDTHxHEIGHT.
    #[arg(long, default_value = "1280x720", value_parser = parse_size, allow_hyphen_values = true)]
    size: (i64, i64),
    /// Timing mode; default: cpu-sync on CPU adapters, gpu-timestamps elsewhere.
    #[arg(long, value_parser = ["gpu-timestamps", "cpu-sync"])]
    timing: Option<String>,
    /// Write the results as JSON.
    #[arg(long)]
    json: Option<PathBuf>,
    /// Write every timed pass as a chrome://tracing / Perfetto JSON trace.
    #[arg(long)]
    trace: Option<PathBuf>,
}

fn parse_size(s: &str) -> Result<(i64, i64), String> {
    let err = || format!("--size {s}: expected WIDTHxHEIGHT, e.g. 1280x720");
    let (w, h) = s.split_once(['x', 'X']).ok_or_else(err)?;
    Ok((
        w.trim().parse().map_err(|_| err())?,
        h.trim().parse().map_err(|_| err())?,
    ))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Check { file } => return check(&file),
        Command::Demo(a) => demo(a),
        Command::Stats(a) => stats(a),
        Command::Profile(a) => profile(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

fn check(file: &std::path::Path) -> ExitCode {
    match EffectDesc::from_file(file) {
        Ok(desc) => {
            println!("{}: ok ({} emitters)", file.display(), desc.emitters.len());
            ExitCode::SUCCESS
        }
        Err(Error::Io { path, source }) => {
            eprintln!("error: {}: {source}", path.display());
            ExitCode::from(2)
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}

/// Validated `--particles`, `--dt` and the GPU.
fn setup(common: &Common, default_particles: u32) -> Result<(GpuContext, u32, Option<f32>), Error> {
    let dt = match common.dt {
        None => None,
        Some(dt) if dt.is_finite() && dt > 0.0 && dt <= 1.0 => Some(dt as f32),
        Some(dt) => return Err(Invalid::new("--dt", dt, "0 < dt <= 1 seconds").into()),
    };
    let gpu = GpuContext::new_headless()?;
    let requested = common.particles.unwrap_or(default_particles as i64);
    let capacity = if requested < 1 {
        let (max, _, _) = flurry::pool::max_capacity(&gpu.device.limits());
        return Err(Invalid::new(
            "--particles",
            requested,
            format!("1..={max} on {}", gpu.adapter_name()),
        )
        .into());
    } else {
        flurry::pool::check_capacity(&gpu.device, &gpu.adapter_name(), requested as u64)?
    };
    Ok((gpu, capacity, dt))
}

fn write_file(path: &std::path::Path, contents: String) -> Result<(), Error> {
    std::fs::write(path, contents).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// Frame clock: fixed `dt`, or the real time since the previous frame (capped at 0.1 s).
struct Clock {
    fixed: Option<f32>,
    last: Instant,
}

impl Clock {
    fn new(fixed: Option<f32>) -> Self {
        Clock {
            fixed,
            last: Instant::now(),
        }
    }

    fn tick(&mut self) -> f32 {
        let now = Instant::now();
        let real = (now - self.last).as_secs_f32().clamp(1e-4, 0.1);
        self.last = now;
        self.fixed.unwrap_or(real)
    }
}

fn has_display() -> bool {
    ["DISPLAY", "WAYLAND_DISPLAY", "WAYLAND_SOCKET"]
        .iter()
        .any(|v| std::env::var_os(v).is_some_and(|s| !s.is_empty()))
}

fn demo(a: DemoArgs) -> Result<(), Error> {
    let (gpu, capacity, dt) = setup(&a.common, a.demo.default_particles())?;
    let size = check_size(&gpu, a.size.0, a.size.1)?;
    if !a.headless {
        if has_display() {
            println!("windowed demos are not built yet; rendering headless instead");
        } else {
            println!("no display (DISPLAY / WAYLAND_DISPLAY unset): rendering headless");
        }
    }
    let mut scene = Scene::for_demo(&gpu, a.demo, capacity, a.common.seed, size)?;
    // headless frames advance at 60 Hz unless --dt says otherwise
    let dt = dt.unwrap_or(1.0 / 60.0);
    let start = Instant::now();
    for _ in 0..a.frames {
        scene.frame(&gpu, dt, true);
    }
    gpu.wait()?;
    let out = a
        .out
        .unwrap_or_else(|| PathBuf::from(format!("flurry-{}.png", a.demo.name())));
    scene.target.save_png(&gpu.device, &gpu.queue, &out)?;
    println!(
        "{}: {} frames of {} particles at {}x{} on {} in {:.2} s; wrote {}",
        a.demo.name(),
        a.frames,
        capacity,
        size.0,
        size.1,
        gpu.adapter_name(),
        start.elapsed().as_secs_f64(),
        out.display()
    );
    Ok(())
}

fn stats(a: StatsArgs) -> Result<(), Error> {
    let file_desc = a.effect.as_deref().map(EffectDesc::from_file).transpose()?;
    let default_particles = a.demo.map_or(16_384, Demo::default_particles);
    let (gpu, capacity, dt) = setup(&a.common, default_particles)?;
    let (desc, name, camera, background): (EffectDesc, String, Box<dyn Fn(f32) -> Camera>, _) =
        match (a.demo, file_desc) {
            (Some(d), _) => (
                d.effect(capacity),
                d.name().into(),
                Box::new(move |x| d.camera(x)),
                d.background(),
            ),
            (None, Some(desc)) => {
                let name = desc.name.clone();
                let cam = |aspect| {
                    Camera::look_at(glam::Vec3::new(0.0, 5.0, 15.0), glam::Vec3::ZERO, aspect)
                };
                (desc, name, Box::new(cam), [0.0, 0.0, 0.0, 1.0])
            }
            (None, None) => unreachable!("clap requires a demo or --effect"),
        };
    let mut scene = Scene::new(
        &gpu,
        &desc,
        capacity,
        a.common.seed,
        (320, 240),
        camera,
        background,
    )?;
    let mut clock = Clock::new(dt);
    for _ in 0..a.frames {
        let dt = clock.tick();
        scene.frame(&gpu, dt, false);
    }
    let snap = scene.system.snapshot(&gpu.device, &gpu.queue)?;
    let s = scene.system.stats(&snap);
    if let Some(path) = &a.dump {
        let alive: Vec<_> = snap
            .alive
            .iter()
            .map(|&i| {
                let p = &snap.particles[i as usize];
                json!({"index": i, "id": p.id, "pos": p.pos.to_array(), "vel": p.vel.to_array(),
                       "age": p.age, "lifetime": p.lifetime})
            })
            .collect();
        let dump = json!({
            "capacity": capacity,
            "alive": alive,
            "dead": snap.dead,
            "visible_sorted": snap.visible.iter().map(|pair| pair[1]).collect::<Vec<_>>(),
            "camera": {"eye": scene.camera.eye.to_array(),
                       "view_proj": scene.camera.view_proj().to_cols_array()},
        });
        write_file(path, dump.to_string())?;
    }
    println!(
        "{}",
        json!({"demo": name, "capacity": capacity, "frames": a.frames, "alive": s.alive,
               "dead": s.dead, "visible": s.visible, "emitted_total": s.emitted_total,
               "dropped_total": s.dropped_total, "killed_total": s.killed_total,
               "requested_total": s.requested_total})
    );
    Ok(())
}

fn profile(a: ProfileArgs) -> Result<(), Error> {
    let (gpu, capacity, dt) = setup(&a.common, a.demo.default_particles())?;
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
    let mut scene = Scene::for_demo(&gpu, a.demo, capacity, a.common.seed, size)?;
    let dt = dt.unwrap_or(1.0 / 60.0);
    // warm-up: fill the pool, compile pipelines
    for _ in 0..3 {
        scene.frame(&gpu, dt, true);
    }
    gpu.wait()?;
    let samples = scene.profile(&gpu, a.frames, dt, timing)?;
    let snap = scene.system.snapshot(&gpu.device, &gpu.queue)?;
    let alive = snap.counters.alive;
    let memcpy = memcpy_gb_s();
    println!(
        "{} on {} ({}), {} particles ({} alive), {} frames, {}x{}",
        a.demo.name(),
        gpu.adapter_name(),
        timing.name(),
        capacity,
        alive,
        a.frames,
        size.0,
        size.1
    );
    println!(
        "{:<10} {:>10} {:>10} {:>10}",
        "pass", "median ms", "min", "max"
    );
    let mut passes = serde_json::Map::new();
    let mut frame_ms = 0.0;
    let mut simulate_ms = 0.0;
    for (name, med, lo, hi) in samples.summary() {
        println!("{name:<10} {med:>10.3} {lo:>10.3} {hi:>10.3}");
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
    // simulate reads and writes each particle (64 B + 64 B) and one index in, one out
    let simulate_gb_s = alive as f64 * 136.0 / (simulate_ms * 1e-3) / 1e9;
    println!("memcpy {memcpy:.1} GB/s (read + write); simulate moves {simulate_gb_s:.1} GB/s ({:.0}% of it)",
        100.0 * simulate_gb_s / memcpy);
    let report = json!({"adapter": gpu.adapter_name(), "timing": timing.name(), "particles": capacity,
        "alive": alive, "frames": a.frames, "scale": 1.0, "size": [size.0, size.1], "passes": passes,
        "frame_ms": frame_ms, "memcpy_gb_s": memcpy, "simulate_gb_s": simulate_gb_s});
    if let Some(path) = &a.trace {
        write_file(path, samples.chrome_trace())?;
    }
    if let Some(path) = &a.json {
        write_file(
            path,
            serde_json::to_string_pretty(&report).unwrap_or_default(),
        )?;
    }
    Ok(())
}
