//! The `flurry` subcommands, one file each, and what they share.

/// `println!` that shrugs off a closed stdout (`flurry stats snow | head -c 0`): the reader
/// has gone, which is no failure of the command, and no panic either.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        $crate::cli::note_stdout(writeln!(std::io::stdout(), $($arg)*));
    }};
}

/// The first failure to write standard output, but a closed pipe (a reader such as `head`
/// may close it at will): the program reports it and exits non-zero once its work is done.
static STDOUT_ERROR: std::sync::Mutex<Option<std::io::Error>> = std::sync::Mutex::new(None);

/// Keep a failed write to standard output for [`stdout_error`] (a closed pipe is no error).
pub fn note_stdout(written: std::io::Result<()>) {
    if let Err(e) = written {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            let mut first = STDOUT_ERROR.lock().unwrap_or_else(|p| p.into_inner());
            first.get_or_insert(e);
        }
    }
}

/// Standard output flushed: the first write that failed, if any (a full disk, /dev/full).
pub fn stdout_error() -> Option<std::io::Error> {
    use std::io::Write as _;
    note_stdout(std::io::stdout().flush());
    STDOUT_ERROR
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .take()
}

pub mod applies;
pub mod args;
pub mod demo;
pub mod first_add;
pub mod output;
pub mod profile;
pub mod profile_effects;
mod profile_host;
pub mod profile_instances;
pub mod profile_sort;
pub mod profile_suite;
pub mod stats;
pub mod suite_plot;
pub mod temp_files;

use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use flurry::effect::EffectDesc;
use flurry::{Error, GpuContext, ImageId, Invalid, ParticleRenderer};

use crate::host::demos::Demo;
use crate::host::{AppError, Scene};
use args::Common;

pub fn check(file: &std::path::Path, wgsl: bool) -> ExitCode {
    match EffectDesc::from_file(file) {
        Ok(desc) => {
            // the image files it names, opened and decoded as a run opens them
            let folder = file.parent().unwrap_or(std::path::Path::new(""));
            let open = |f: &std::path::Path| flurry::Image::open(f).map(|_| ImageId(0));
            if let Err(e) = desc.clone().resolve_images(folder, open) {
                eprintln!("error: {}: {e}", file.display());
                return ExitCode::from(1);
            }
            let n = desc.emitters.len();
            let s = if n == 1 { "" } else { "s" };
            out!("{}: ok ({n} emitter{s})", file.display());
            if let Some(needs) = host_needs(&desc, file) {
                out!("{needs}");
            }
            if wgsl {
                match desc.generated_code() {
                    Ok(code) => print_code(&code),
                    Err(e) => {
                        eprintln!("error: {e}");
                        return ExitCode::from(1);
                    }
                }
            }
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

/// An effect's generated code as `check --wgsl` prints it: what was folded, then each
/// pass's block (or that it runs the shared one).
fn print_code(code: &flurry::effect::GeneratedCode) {
    out!("folded into the built-in fields:");
    if code.folded.is_empty() {
        out!("  nothing");
    }
    for said in &code.folded {
        out!("  {said}");
    }
    for (pass, block) in [("emit", &code.emit), ("simulate", &code.simulate)] {
        match block {
            Some(block) => out!("// the {pass} pass's block\n{block}"),
            None => out!(
                "// the {pass} pass: the shared one (no stack of this effect generates code there)"
            ),
        }
    }
}

/// What a host must add before the effect read from `file` (None: nothing), and which
/// demos add it (they run the file with `--effect`).
pub fn host_needs(desc: &EffectDesc, file: &Path) -> Option<String> {
    use clap::ValueEnum as _;
    let needs = desc.host_assets();
    if needs.is_empty() {
        return None;
    }
    let count = |n: u32, what: &str| match n {
        0 => None,
        1 => Some(format!("1 {what}")),
        n => Some(format!("{n} {what}s")),
    };
    let named: Vec<_> = [count(needs.meshes, "mesh"), count(needs.images, "image")]
        .into_iter()
        .flatten()
        .collect();
    let hosts: Vec<_> = Demo::value_variants()
        .iter()
        .filter(|d| {
            d.meshes().len() as u32 >= needs.meshes && d.images().len() as u32 >= needs.images
        })
        .map(|d| d.name())
        .collect();
    let runs = match hosts.first() {
        Some(demo) => format!(
            "the {} demo{} add{} them: `flurry demo|stats|profile {demo} --effect {}`",
            hosts.join(", "),
            if hosts.len() > 1 { "s" } else { "" },
            if hosts.len() > 1 { "" } else { "s" },
            file.display()
        ),
        None => "no demo adds as many: only a host of your own can add it".into(),
    };
    Some(format!(
        "it names {} of its host's (MeshSource::Host, a ribbon's image), which a host adds \
         before the effect; {runs}",
        named.join(" and ")
    ))
}

/// Validated `--particles`, `--dt` and the GPU.
pub fn setup(
    common: &Common,
    default_particles: u32,
) -> Result<(GpuContext, u32, Option<f32>), AppError> {
    let dt = fixed_dt(common.dt)?;
    let gpu = GpuContext::new_headless()?;
    let capacity = capacity(&gpu, common.pool.particles, default_particles)?;
    Ok((gpu, capacity, dt))
}

/// A `--dt` checked: at least a microsecond (smaller steps round to nothing against the
/// clock: 1e-50 is 0 as an f32), at most a second.
pub fn fixed_dt(dt: Option<f64>) -> Result<Option<f32>, AppError> {
    match dt {
        None => Ok(None),
        Some(dt) if dt.is_finite() && (1e-6..=1.0).contains(&dt) => Ok(Some(dt as f32)),
        Some(dt) => Err(Invalid::new("--dt", format!("{dt:?}"), "1e-6..=1 seconds").into()),
    }
}

/// A `--particles` (or `default` without one) checked against what `gpu` can hold.
pub fn capacity(gpu: &GpuContext, particles: Option<i64>, default: u32) -> Result<u32, AppError> {
    let requested = particles.unwrap_or(default as i64);
    if requested < 1 {
        let max = ParticleRenderer::max_capacity(&gpu.device);
        let allowed = format!("1..={max} on {}", gpu.adapter_name());
        return Err(Invalid::new("--particles", requested, allowed).into());
    }
    let capacity = ParticleRenderer::check_capacity(&gpu.device, "--particles", requested as u64)?;
    Ok(capacity)
}

/// An error of adding the effect read from `file` that names the file (the renderer knows
/// only the effect: a mesh or an image it names that the host did not add).
pub fn in_file(e: AppError, file: &Path) -> AppError {
    match e {
        AppError::Flurry(Error::EffectInvalid {
            path: None,
            problems,
        }) => AppError::Flurry(Error::EffectInvalid {
            path: Some(file.to_path_buf()),
            problems,
        }),
        e => e,
    }
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
/// file (its path and effect) in place of the demo's own effect, and with `no_collision`
/// its depth collision left out.
pub fn demo_scene(
    gpu: &GpuContext,
    demo: Demo,
    common: &Common,
    capacity: u32,
    (size, setup): ((u32, u32), crate::host::HostSetup),
    no_collision: bool,
    effect: Option<(&Path, &EffectDesc)>,
) -> Result<Scene, AppError> {
    let stage = common.scene.unwrap_or(demo.default_stage());
    let lod = common.lod(demo.lod())?;
    let mut desc = match (effect, demo, common.bodies) {
        (Some((_, file)), ..) => file.clone(),
        (None, Demo::Galaxy, Some(m)) => crate::host::demos::galaxy::effect_with(capacity, m),
        (None, _, Some(_)) => {
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
    let subject = (&desc, capacity, common.pool.seed);
    let scene = Scene::demo(gpu, demo, stage, subject, (size, setup));
    let mut scene = match effect {
        Some((file, _)) => scene.map_err(|e| in_file(e, file))?,
        None => scene?,
    };
    scene.renderer.set_substeps(common.substeps)?;
    let id = scene.effect;
    set_params(&mut scene.renderer, id, &common.params)?;
    scene.renderer.set_lod(id, lod)?;
    Ok(scene)
}

/// Set the `--param`s on effect `id`: a name the effect does not declare, or a value its
/// declaration does not admit, is refused naming the flag.
pub fn set_params(
    renderer: &mut flurry::ParticleRenderer,
    id: flurry::EffectId,
    params: &[(String, String)],
) -> Result<(), AppError> {
    for (name, text) in params {
        let declared = renderer.effect(id).map(|d| d.parameters.clone());
        let declared = declared.unwrap_or_default();
        let Some(p) = declared.get(name) else {
            let names: Vec<&str> = declared.keys().map(String::as_str).collect();
            let allowed = match names.is_empty() {
                true => "none: the effect declares no parameters".to_string(),
                false => format!("one of the effect's parameters: {}", names.join(", ")),
            };
            return Err(Invalid::new("--param", name, allowed).into());
        };
        let given = format!("{name}={text}");
        let value = flurry::expr::Value::parse_as(text, p.default.ty())
            .map_err(|e| Invalid::new("--param", &given, format!("{}: {e}", p.allowed())))?;
        if !p.admits(value) {
            let allowed = format!("{name} = {}", p.allowed());
            return Err(Invalid::new("--param", given, allowed).into());
        }
        renderer.set_parameter(id, name, value)?;
    }
    Ok(())
}
