//! `flurry edit [FILE.ron]`: an effect editor on egui. The viewport is flurry in a demo's
//! host drawn through egui-wgpu's paint callback (`prepare` in its prepare step, `render`
//! in egui's own pass); the inspector sets every number validation knows a range for;
//! edits are undone and redone, saved with each number's range as a comment, and the file
//! is watched for changes made elsewhere. `--screenshot` draws the whole window offscreen.

pub(crate) mod blit;
mod editor;
mod inspector;
mod keys;
mod offscreen;
mod session;
mod viewport;
mod window;

use std::path::Path;

use flurry::effect::EffectDesc;
use flurry::GpuContext;

use crate::cli::args::EditArgs;
use crate::cli::has_display;
use crate::host::demos::Demo;
use crate::host::AppError;
use editor::Editor;
use session::Session;
use viewport::Viewport;

/// The smallest window the editor draws in: at 320×240 its panels left the viewport 58
/// pixels wide, hidden behind them.
const MIN_SIZE: (u32, u32) = (640, 400);

pub fn run(a: EditArgs) -> Result<(), AppError> {
    let file = a.file.as_deref();
    if let Some(out) = &a.screenshot {
        crate::cli::output::check(&[("--screenshot", Some(out), "png")])?;
    }
    let demo = match (a.demo, file) {
        (Some(demo), _) => demo,
        (None, Some(file)) => host_for(file)?,
        (None, None) => Demo::Fireworks,
    };
    let effect = match file {
        Some(file) => EffectDesc::from_file(file)?,
        None => demo.effect_in(demo.default_stage(), demo.default_particles()),
    };
    let dt = crate::cli::fixed_dt(a.dt)?;
    let gpu = GpuContext::new_headless()?;
    let size = crate::host::scene::check_size(&gpu, a.size.0, a.size.1)?;
    if size.0 < MIN_SIZE.0 || size.1 < MIN_SIZE.1 {
        let allowed = format!(
            "at least {}x{}: the editor's panels and its viewport share the window",
            MIN_SIZE.0, MIN_SIZE.1
        );
        let value = format!("{}x{}", size.0, size.1);
        return Err(flurry::Invalid::new("--size", value, allowed).into());
    }
    let capacity = crate::cli::capacity(&gpu, a.pool.particles, demo.default_particles())?;
    let session = Session::new(effect.clone(), file)?;
    let subject = (capacity, a.pool.seed);
    let file_path = file.map(Path::to_path_buf);
    let make_viewport = move |gpu: GpuContext, format, size| {
        Viewport::new(
            gpu,
            demo,
            (&effect, file_path.as_deref()),
            subject,
            (format, size),
        )
    };
    if let Some(out) = &a.screenshot {
        // offscreen, each frame the demo's own step unless --dt says otherwise
        let mut editor = Editor::new(session, Some(dt.unwrap_or(demo.default_dt())));
        let shared = GpuContext {
            instance: gpu.instance.clone(),
            adapter: gpu.adapter.clone(),
            device: gpu.device.clone(),
            queue: gpu.queue.clone(),
        };
        // the viewport starts at the window's size; the layout gives it its own at once
        let viewport = make_viewport(shared, offscreen::FORMAT, size)?;
        let mut window = offscreen::Offscreen::new(gpu, size, viewport);
        let mut drawn = 0;
        while drawn < a.frames {
            drawn += window.frame(&mut editor)? as u32;
        }
        crate::cli::output::write("--screenshot", out, &window.png()?)?;
        let at = editor.viewport_px.unwrap_or(eframe::egui::Rect::ZERO);
        out!(
            "edit: {} frames of {} at {}x{}; viewport at ({}, {}) {}x{} px; wrote {}",
            a.frames,
            editor.title(),
            size.0,
            size.1,
            at.min.x,
            at.min.y,
            at.width(),
            at.height(),
            out.display()
        );
        return Ok(());
    }
    if !has_display() {
        let why = "a display (DISPLAY or WAYLAND_DISPLAY), or --screenshot OUT.png";
        return Err(AppError::Window(format!(
            "no display to open a window on: {why}"
        )));
    }
    let editor = Editor::new(session, dt);
    let start = window::Start {
        editor,
        // the viewport starts at the window's size; the layout gives it its own at once
        make_viewport: Box::new(move |gpu, format| make_viewport(gpu, format, size)),
    };
    window::run(gpu, size, start)
}

/// The demo whose host shows the effect in `file`: the one it is named after, else the
/// first whose host adds the meshes and images it names, else the fireworks'.
fn host_for(file: &Path) -> Result<Demo, AppError> {
    use clap::ValueEnum as _;
    let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    if let Some(demo) = Demo::value_variants().iter().find(|d| d.name() == stem) {
        return Ok(*demo);
    }
    let needs = EffectDesc::from_file(file)?.host_assets();
    let hosts = Demo::value_variants().iter().find(|d| {
        d.meshes().len() as u32 >= needs.meshes && d.images().len() as u32 >= needs.images
    });
    Ok(hosts.copied().unwrap_or(Demo::Fireworks))
}
