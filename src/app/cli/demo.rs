//! `flurry demo`: a demo in a window, or headless to a PNG (asked for, or no display).

use std::path::PathBuf;
use std::time::Instant;

use flurry::effect::EffectDesc;

use super::args::DemoArgs;
use super::{has_display, setup};
use crate::host::live_effect::LiveEffect;
use crate::host::scene::check_size;
use crate::host::AppError;
use crate::progress::Progress;
use crate::window::{self, NoDisplay, WindowOptions};

pub fn run(mut a: DemoArgs) -> Result<(), AppError> {
    a.demo = a.common.mode.apply(a.demo)?;
    let live = a.effect.as_deref().map(LiveEffect::open).transpose()?;
    let effect = live.as_ref().map(|l| l.good().clone());
    let (gpu, capacity, dt) = setup(&a.common, a.demo.default_particles())?;
    let size = check_size(&gpu, a.size.0, a.size.1)?;
    let settings = a.render.settings()?;
    let time_scale = a.time_scale as f32;
    if !(0.0..=flurry::MAX_TIME_SCALE as f64).contains(&a.time_scale) {
        let allowed = format!("0..={}", flurry::MAX_TIME_SCALE);
        return Err(flurry::Invalid::new("--time-scale", a.time_scale, allowed).into());
    }
    if !a.headless {
        if !has_display() {
            out!("no display (DISPLAY / WAYLAND_DISPLAY unset): rendering headless");
        } else {
            let options = WindowOptions {
                demo: a.demo,
                stage: a.common.scene.unwrap_or(a.demo.default_stage()),
                capacity,
                seed: a.common.pool.seed,
                settings,
                dt,
                size,
                substeps: a.common.substeps,
                lod: a.common.lod(a.demo.lod())?,
                galaxies: a.common.bodies,
                vsync: a.vsync.as_deref() != Some("off"),
                params: a.common.params.clone(),
                hdr: a.hdr.as_deref() != Some("off"),
                time_scale,
            };
            drop(gpu);
            match window::run(options, live) {
                Ok(()) => return Ok(()),
                Err(Err(e)) => return Err(e),
                Err(Ok(NoDisplay(why))) => {
                    out!("cannot open a window ({why}): rendering headless");
                    return headless(a, effect.as_ref(), capacity, dt, size, settings);
                }
            }
        }
    }
    headless(a, effect.as_ref(), capacity, dt, size, settings)
}

fn headless(
    a: DemoArgs,
    effect: Option<&EffectDesc>,
    capacity: u32,
    dt: Option<f32>,
    size: (u32, u32),
    settings: flurry::Settings,
) -> Result<(), AppError> {
    let out = a
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("flurry-{}.png", a.demo.name())));
    super::output::check(&[("--out", Some(&out), "png")])?;
    let gpu = flurry::GpuContext::new_headless()?;
    let file = a.effect.as_deref().zip(effect);
    // the program's host renders HDR (a bloom, a filmic tonemap) unless asked not to
    let setup = match a.hdr.as_deref() {
        Some("off") => crate::host::HostSetup::STANDARD,
        _ => crate::host::HostSetup::HDR,
    };
    let mut scene = super::demo_scene(
        &gpu,
        a.demo,
        &a.common,
        capacity,
        (size, setup),
        false,
        file,
    )?
    .with_settings(settings);
    scene
        .renderer
        .set_time_scale(scene.effect, a.time_scale as f32)?;
    // headless frames advance at 60 Hz unless --dt says otherwise
    let dt = dt.unwrap_or(a.demo.default_dt());
    let start = Instant::now();
    let mut progress = Progress::new(a.demo.name(), a.frames);
    for done in 0..a.frames {
        scene.frame(&gpu, dt, true);
        if progress.shown() {
            // the line follows the GPU, not the queue of recorded frames
            gpu.wait()?;
            progress.frame(done + 1);
        }
    }
    gpu.wait()?;
    drop(progress);
    super::output::write("--out", &out, &scene.target.png(&gpu)?)?;
    out!(
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
