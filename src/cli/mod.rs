//! The `flurry` subcommands, one file each, and what they share.

pub mod args;
pub mod demo;
pub mod profile;
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
