//! The CLI's flags (clap).

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::host::demos::{Demo, GalaxyMode};
use crate::host::Stage;

#[derive(Parser)]
#[command(
    name = "flurry",
    version,
    about = "GPU compute-driven particles on wgpu"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
    /// Run a demo; renders headless to a PNG with --headless or when no display exists.
    Demo(DemoArgs),
    /// Simulate a demo or effect file and print counts as JSON (last line).
    Stats(StatsArgs),
    /// Time every GPU pass of a demo.
    Profile(ProfileArgs),
    /// Edit an effect in a window: a live viewport, every number with its range, undo,
    /// save; the file is watched for changes made elsewhere.
    Edit(EditArgs),
    /// Validate an effect file (exit 1 with the reasons when it is refused).
    Check {
        file: PathBuf,
        /// Also print the WGSL its stacks generate (the emit and simulate passes' blocks)
        /// and what was folded into the built-in fields instead.
        #[arg(long)]
        wgsl: bool,
    },
    /// Make the shipped images (smoke, flame, fireball, spark) from noise, as PNG files.
    Images {
        /// The folder they are written to.
        #[arg(long, default_value = "effects/images")]
        out: PathBuf,
    },
}

/// The effect's pool and its random numbers.
#[derive(Args)]
pub struct Pool {
    /// Pool capacity (particles); 1 up to what the adapter's buffer limits allow (default:
    /// the demo's).
    #[arg(long, allow_hyphen_values = true, value_parser = count("1 up to what the adapter's buffers hold"))]
    pub particles: Option<i64>,
    /// Random seed; the same seed reproduces a run.
    #[arg(long, default_value_t = 1, value_parser = whole(0, u32::MAX), allow_hyphen_values = true)]
    pub seed: u32,
}

#[derive(Args)]
pub struct Common {
    #[command(flatten)]
    pub pool: Pool,
    /// Fixed time step in seconds (1e-6..=1); without it the clock is real time.
    #[arg(long, value_parser = number("1e-6..=1 seconds"), allow_hyphen_values = true)]
    pub dt: Option<f64>,
    /// The host scene: empty, a ground plane at y = 0, or terrain (hills and pillars);
    /// particles collide with it (default: the demo's own; rain and gun have the plane,
    /// snow the terrain).
    #[arg(long, value_enum)]
    pub scene: Option<Stage>,
    /// Galaxies (massive cores) in the galaxy demo's collision mode.
    #[arg(long, value_parser = whole(1, 4), allow_hyphen_values = true)]
    pub bodies: Option<u32>,
    /// Simulate steps per frame (each of dt / substeps).
    #[arg(long, default_value_t = 1, value_parser = whole(1, flurry::MAX_SUBSTEPS), allow_hyphen_values = true)]
    pub substeps: u32,
    /// Galaxy gravity: massive cores and tracer stars, or all-pairs N-body (≤ 65,536 stars).
    #[arg(long, value_enum, default_value_t = GalaxyMode::Collision)]
    pub mode: GalaxyMode,
    /// Set a parameter the effect declares, NAME=VALUE (repeatable): the value a number,
    /// true or false, or a constant expression of the parameter's type (`vec3(1, 0.5, 0)`,
    /// `3u`).
    #[arg(id = "param", long = "param", value_name = "NAME=VALUE", value_parser = parse_param)]
    pub params: Vec<(String, String)>,
    /// Mesh particles spanning at most this many pixels in radius are drawn as lit discs
    /// (0..=64; 0: always meshes). Default: 8 for the crowd, 0 for the others.
    #[arg(long, value_parser = number("0..=64 pixels"), allow_hyphen_values = true)]
    pub mesh_lod: Option<f64>,
}

/// How particles reach the host's image.
#[derive(Args)]
pub struct RenderArgs {
    /// Particle target resolution relative to the output: 1, 0.5 or 0.25.
    #[arg(long, value_parser = number("1, 0.5 or 0.25"), allow_hyphen_values = true)]
    pub scale: Option<f64>,
    /// Upsampling of the particle target: nearest-depth or bilinear.
    #[arg(long, value_parser = ["nearest-depth", "bilinear"])]
    pub upsample: Option<String>,
    /// Largest projected radius, in particle-target pixels, drawn by the compute splat
    /// (0..=16; 0: every particle as a triangle). Default 4.
    #[arg(long, value_parser = number("0..=16 pixels"), allow_hyphen_values = true)]
    pub splat: Option<f64>,
}

impl Common {
    /// The level of detail of the effect run: `--mesh-lod`'s, else `default` (a demo's own,
    /// none for an effect file's).
    pub fn lod(&self, default: Option<flurry::Lod>) -> Result<Option<flurry::Lod>, flurry::Error> {
        let Some(pixels) = self.mesh_lod else {
            return Ok(default);
        };
        let max = flurry::MAX_MESH_LOD_PIXELS as f64;
        if !(0.0..=max).contains(&pixels) {
            let allowed = format!("0 <= pixels <= {max}");
            return Err(flurry::Invalid::new("--mesh-lod", pixels, allowed).into());
        }
        let lod = crate::host::demos::mesh_lod(pixels as f32);
        Ok((pixels > 0.0).then_some(lod))
    }
}

impl RenderArgs {
    pub fn settings(&self) -> Result<flurry::Settings, flurry::Error> {
        // (a run of the program steps a set number of frames from the effect's start: its
        // compiles happen on the thread that adds; the window turns them off it)
        let mut s = flurry::Settings {
            background_compile: false,
            ..flurry::Settings::default()
        };
        if let Some(x) = self.scale {
            s.scale = flurry::Scale::from_value("--scale", x)?;
        }
        if self.upsample.as_deref() == Some("bilinear") {
            s.upsample = flurry::Upsample::Bilinear;
        }
        if let Some(r) = self.splat {
            let max = flurry::MAX_SPLAT_RADIUS as f64;
            if !(0.0..=max).contains(&r) {
                let range = format!("0 <= pixels <= {max}");
                return Err(flurry::Invalid::new("--splat", r, range).into());
            }
            s.splat_radius = r as f32;
        }
        Ok(s)
    }
}

#[derive(Args)]
pub struct DemoArgs {
    pub demo: Demo,
    /// An effect file shown in place of the demo's own effect (its camera and scene stay).
    #[arg(long)]
    pub effect: Option<PathBuf>,
    #[command(flatten)]
    pub common: Common,
    /// Output size, WIDTHxHEIGHT.
    #[arg(long, default_value = "1280x720", value_parser = parse_size, allow_hyphen_values = true)]
    pub size: (i64, i64),
    #[command(flatten)]
    pub render: RenderArgs,
    /// Render offscreen and write a PNG instead of opening a window.
    #[arg(long)]
    pub headless: bool,
    /// Windows: wait for the display's refresh (on, the default) or present as fast as
    /// frames are made (off: the title's frame rate is then what the engine reaches).
    #[arg(long, value_parser = ["on", "off"])]
    pub vsync: Option<String>,
    /// The host's range: on (the default) draws in half floats and finishes the image with a
    /// bloom (light above white glows) and a filmic tonemap; off draws in 8-bit sRGB.
    #[arg(long, value_parser = ["on", "off"])]
    pub hdr: Option<String>,
    /// Frames to render headless.
    #[arg(long, default_value_t = 120, value_parser = whole(1, 1_000_000), allow_hyphen_values = true)]
    pub frames: u32,
    /// PNG path for headless output (default flurry-<demo>.png).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// The effect's time runs this many times as fast as the frames' (0..=100: 0.25 is
    /// slow motion, 0 frozen in time).
    #[arg(long, default_value_t = 1.0, value_parser = number("0..=100"), allow_hyphen_values = true)]
    pub time_scale: f64,
}

#[derive(Args)]
pub struct EditArgs {
    /// The effect file to edit; without one, the demo's own effect (saved where the editor's
    /// "save as" says).
    pub file: Option<PathBuf>,
    /// The demo whose host shows the effect: its camera, scene, meshes and images (default:
    /// the demo the file is named after, else the first whose host has what the effect
    /// needs).
    #[arg(long, value_enum)]
    pub demo: Option<Demo>,
    #[command(flatten)]
    pub pool: Pool,
    /// Fixed time step in seconds (1e-6..=1); without it the window runs in real time and
    /// a screenshot at the demo's own step.
    #[arg(long, value_parser = number("1e-6..=1 seconds"), allow_hyphen_values = true)]
    pub dt: Option<f64>,
    /// The window's size, WIDTHxHEIGHT.
    #[arg(long, default_value = "1280x720", value_parser = parse_size, allow_hyphen_values = true)]
    pub size: (i64, i64),
    /// Render the whole editor offscreen after --frames frames, write it to this PNG and
    /// exit (no display needed).
    #[arg(long)]
    pub screenshot: Option<PathBuf>,
    /// Frames before the screenshot.
    #[arg(long, default_value_t = 60, value_parser = whole(1, 100_000), allow_hyphen_values = true)]
    pub frames: u32,
}

#[derive(Args)]
pub struct StatsArgs {
    /// A built-in demo (or --effect alone).
    pub demo: Option<Demo>,
    /// An effect file in RON: alone (over an empty scene, or --scene's), or with a demo in
    /// place of the demo's own effect (its camera, scene, meshes and images stay).
    #[arg(long)]
    pub effect: Option<PathBuf>,
    #[command(flatten)]
    pub common: Common,
    #[arg(long, default_value_t = 100, value_parser = whole(1, 1_000_000), allow_hyphen_values = true)]
    pub frames: u32,
    /// Write the GPU state after the last frame as JSON.
    #[arg(long)]
    pub dump: Option<PathBuf>,
    /// Listen to the effect's hits and deaths and write every event drained during the run
    /// as JSON (kind, position, velocity, surface normal, emitter, time), with the count
    /// lost.
    #[arg(long)]
    pub events: Option<PathBuf>,
    /// Run the effect this many seconds before the frames (0..=600), in steps of --dt (1/60
    /// s without it) batched into a few submissions, after one frame of no time that draws
    /// the scene it collides with.
    #[arg(long, value_parser = number("0..=600 seconds"), allow_hyphen_values = true)]
    pub prewarm: Option<f64>,
    /// Soak: read the pool back every K frames and check its invariants (every slot once in
    /// the alive or dead list, alive + dead = capacity, requested = emitted + dropped,
    /// killed = emitted - alive, drawn particles alive, positions and velocities finite);
    /// exit 1 at the first violation.
    #[arg(long, value_parser = whole(1, u32::MAX), allow_hyphen_values = true)]
    pub check_every: Option<u32>,
}

/// What `profile` measures: a demo's passes, or the sort on its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ProfileTarget {
    Snow,
    Fireworks,
    Rain,
    Gun,
    Galaxy,
    Sword,
    Flock,
    Crowd,
    Campfire,
    Explosion,
    Vortex,
    Spell,
    /// The bitonic sort against a naive global bitonic sort and the CPU sort (--keys N).
    Sort,
    /// Many small effects in one renderer (--effects N, --blend alpha|additive): what adding
    /// one costs and what a frame costs the CPU.
    Effects,
    /// One small effect placed many times (--instances N, --particles P each) against one
    /// effect of as many particles: GPU time and update + encode on the CPU.
    Instances,
    /// Every figure the measurements report, in one run (--json PATH, --quick on CPU
    /// adapters, --plot PATH.svg for the picture).
    Suite,
}

impl ProfileTarget {
    pub fn demo(self) -> Option<Demo> {
        match self {
            ProfileTarget::Snow => Some(Demo::Snow),
            ProfileTarget::Fireworks => Some(Demo::Fireworks),
            ProfileTarget::Rain => Some(Demo::Rain),
            ProfileTarget::Gun => Some(Demo::Gun),
            ProfileTarget::Galaxy => Some(Demo::Galaxy),
            ProfileTarget::Sword => Some(Demo::Sword),
            ProfileTarget::Flock => Some(Demo::Flock),
            ProfileTarget::Crowd => Some(Demo::Crowd),
            ProfileTarget::Campfire => Some(Demo::Campfire),
            ProfileTarget::Explosion => Some(Demo::Explosion),
            ProfileTarget::Vortex => Some(Demo::Vortex),
            ProfileTarget::Spell => Some(Demo::Spell),
            ProfileTarget::Sort
            | ProfileTarget::Effects
            | ProfileTarget::Instances
            | ProfileTarget::Suite => None,
        }
    }
}

#[derive(Args)]
pub struct ProfileArgs {
    pub target: ProfileTarget,
    /// An effect file profiled in place of the demo's own effect (its camera and scene
    /// stay).
    #[arg(long)]
    pub effect: Option<PathBuf>,
    /// Keys to sort (`profile sort`): 1 up to what the adapter's buffers hold.
    #[arg(long, default_value_t = 1 << 20, value_parser = count("1 up to what the adapter's buffers hold"), allow_hyphen_values = true)]
    pub keys: i64,
    /// Effects added to one renderer (`profile effects`), 1..=4096.
    #[arg(long, value_parser = count("1..=4096"), allow_hyphen_values = true)]
    pub effects: Option<i64>,
    /// How the effects of `profile effects` blend: alpha (sorted and drawn together, the
    /// default) or additive.
    #[arg(long, value_parser = ["alpha", "additive"])]
    pub blend: Option<String>,
    /// The effects of `profile effects` differ as a game's do: every combination of blend,
    /// sort, render mode, sprite and size in turn, some with turbulence.
    #[arg(long, conflicts_with = "blend")]
    pub mix: bool,
    /// `profile effects` measures update + encode as a host does: its thread's CPU time,
    /// each call on its own, for effects that differ and for copies of one (compiled once).
    #[arg(long, conflicts_with_all = ["blend", "mix"])]
    pub host: bool,
    /// Instances of one effect (`profile instances`).
    #[arg(long, value_parser = count("1 up to as many as one pool holds at --particles each"), allow_hyphen_values = true)]
    pub instances: Option<i64>,
    /// Profile the demo with its depth collision switched off (to measure what it costs).
    #[arg(long)]
    pub no_collision: bool,
    /// Alternating runs of each sort (`profile sort`).
    #[arg(long, default_value_t = 5, value_parser = whole(1, 1000), allow_hyphen_values = true)]
    pub runs: u32,
    #[command(flatten)]
    pub common: Common,
    #[arg(long, default_value_t = 30, value_parser = whole(1, 100_000), allow_hyphen_values = true)]
    pub frames: u32,
    /// Target size, WIDTHxHEIGHT.
    #[arg(long, default_value = "1280x720", value_parser = parse_size, allow_hyphen_values = true)]
    pub size: (i64, i64),
    #[command(flatten)]
    pub render: RenderArgs,
    /// Timing mode; default: cpu-sync on CPU adapters, gpu-timestamps elsewhere.
    #[arg(long, value_parser = ["gpu-timestamps", "cpu-sync"])]
    pub timing: Option<String>,
    /// Write the results as JSON.
    #[arg(long)]
    pub json: Option<PathBuf>,
    /// Write every timed pass as a chrome://tracing / Perfetto JSON trace.
    #[arg(long)]
    pub trace: Option<PathBuf>,
    /// The suite's short form, sized for a CPU adapter (`profile suite`).
    #[arg(long)]
    pub quick: bool,
    /// Draw the suite's roofline and per-pass times as an SVG picture (`profile suite`).
    #[arg(long)]
    pub plot: Option<PathBuf>,
}

/// A whole number written as digits or in exponent form (1e6), if `s` is one (within
/// ±9e18).
fn whole_number(s: &str) -> Option<i64> {
    s.parse::<i64>().ok().or_else(|| {
        let x = s.parse::<f64>().ok()?;
        (x.fract() == 0.0 && x.abs() < 9e18).then_some(x as i64)
    })
}

/// A count checked later against the adapter or the target (`allowed` says how): any whole
/// number, as digits or in exponent form (`--particles 1e6`), or a refusal saying so.
pub fn count(allowed: impl std::fmt::Display) -> impl Fn(&str) -> Result<i64, String> + Clone {
    let refusal = format!("not a whole number: allowed {allowed} (as digits or as in 1e6)");
    move |s: &str| whole_number(s).ok_or_else(|| refusal.clone())
}

/// A whole number in `lo..=hi`, as digits or in exponent form, or a refusal with the range.
pub fn whole(lo: u32, hi: u32) -> impl Fn(&str) -> Result<u32, String> + Clone {
    move |s: &str| {
        whole_number(s)
            .and_then(|n| u32::try_from(n).ok())
            .filter(|n| (lo..=hi).contains(n))
            .ok_or_else(|| format!("allowed whole numbers {lo}..={hi}"))
    }
}

/// Any number (its range is checked where it is used: `allowed` says what it is), or a
/// refusal naming the range.
pub fn number(allowed: &'static str) -> impl Fn(&str) -> Result<f64, String> + Clone {
    move |s: &str| {
        s.trim()
            .parse::<f64>()
            .map_err(|_| format!("not a number: allowed {allowed}"))
    }
}

/// `NAME=VALUE` as its two sides (the value is read as the parameter's type once the
/// effect is known: `set_params`).
pub fn parse_param(s: &str) -> Result<(String, String), String> {
    let (name, value) = s
        .split_once('=')
        .ok_or_else(|| "allowed NAME=VALUE, e.g. heat=2.5 or tint=vec3(1, 0.5, 0)".to_string())?;
    let name = name.trim();
    if name.is_empty() {
        return Err("allowed NAME=VALUE: the parameter's name before the =".to_string());
    }
    if value.trim().is_empty() {
        return Err("allowed NAME=VALUE: the value after the =".to_string());
    }
    Ok((name.to_string(), value.trim().to_string()))
}

pub fn parse_size(s: &str) -> Result<(i64, i64), String> {
    let err = || "allowed WIDTHxHEIGHT, whole numbers of pixels from 1, e.g. 1280x720".to_string();
    let (w, h) = s.split_once(['x', 'X']).ok_or_else(err)?;
    Ok((
        w.trim().parse().map_err(|_| err())?,
        h.trim().parse().map_err(|_| err())?,
    ))
}
