//! The `flurry` subcommands, one file each, and what they share.

/// `println!` that shrugs off a closed stdout (`flurry stats snow | head -c 0`): the reader
/// has gone, which is no failure of the command, and no panic either.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}

pub mod args;
pub mod demo;
pub mod profile;
pub mod profile_effects;
pub mod profile_sort;
pub mod stats;

use std::process::ExitCode;
use std::time::Instant;

use flurry::effect::EffectDesc;
use flurry::error::{Error, Invalid};
use flurry::GpuContext;

use args::Common;

pub fn check(file: &std::path::Path) -> ExitCode {
    match EffectDesc::from_file(file) {
        Ok(desc) => {
            let n = desc.emitters.len();
            let s = if n == 1 { "" } else { "s" };
            out!("{}: ok ({n} emitter{s})", file.display());
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
pub fn setup(
    common: &Common,
    default_particles: u32,
) -> Result<(GpuContext, u32, Option<f32>), Error> {
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

pub fn write_file(path: &std::path::Path, contents: String) -> Result<(), Error> {
    std::fs::write(path, contents).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// Frame clock: fixed `dt`, or the real time since the previous frame (capped at 0.1 s).
pub struct Clock {
    fixed: Option<f32>,
    last: Instant,
}

impl Clock {
    pub fn new(fixed: Option<f32>) -> Self {
        Clock {
            fixed,
            last: Instant::now(),
        }
    }

    pub fn tick(&mut self) -> f32 {
        let now = Instant::now();
        let real = (now - self.last).as_secs_f32().clamp(1e-4, 0.1);
        self.last = now;
        self.fixed.unwrap_or(real)
    }
}

pub fn has_display() -> bool {
    ["DISPLAY", "WAYLAND_DISPLAY", "WAYLAND_SOCKET"]
        .iter()
        .any(|v| std::env::var_os(v).is_some_and(|s| !s.is_empty()))
}

/// A demo's scene as the flags ask: `--scene`, `--bodies`, `--substeps`, an `--effect`
/// file in place of the demo's own effect, and with `no_collision` its depth collision
/// left out.
pub fn demo_scene(
    gpu: &GpuContext,
    demo: flurry::Demo,
    common: &Common,
    capacity: u32,
    size: (u32, u32),
    no_collision: bool,
    effect: Option<&EffectDesc>,
) -> Result<flurry::app::Scene, Error> {
    let stage = common.scene.unwrap_or(demo.default_stage());
    let mut desc = match (demo, common.bodies) {
        _ if effect.is_some() => effect.cloned().unwrap_or_else(|| demo.effect(capacity)),
        (flurry::Demo::Galaxy, Some(m)) => flurry::demos::galaxy::effect_with(capacity, m),
        (_, Some(_)) => {
            return Err(Invalid::new(
                "--bodies",
                common.bodies.unwrap_or_default(),
                "with the galaxy demo's collision mode only",
            )
            .into())
        }
        _ => demo.effect_in(stage, capacity),
    };
    if no_collision {
        desc.collision = None;
    }
    let camera = |aspect| demo.camera_in(stage, aspect);
    let mut scene = flurry::app::Scene::new(gpu, &desc, capacity, common.seed, size, camera)?;
    scene.background = demo.background();
    stage.apply(&mut scene.target.scene);
    scene.renderer.set_substeps(common.substeps);
    Ok(scene)
}
