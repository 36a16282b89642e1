//! `flurry demo`: render a demo (headless to a PNG for now).

use std::path::PathBuf;
use std::time::Instant;

use flurry::app::{check_size, Scene};
use flurry::error::Error;

use super::args::DemoArgs;
use super::{has_display, setup};

pub fn run(a: DemoArgs) -> Result<(), Error> {
    let (gpu, capacity, dt) = setup(&a.common, a.demo.default_particles())?;
    let size = check_size(&gpu, a.size.0, a.size.1)?;
    if !a.headless {
        if has_display() {
            println!("windowed demos are not built yet; rendering headless instead");
        } else {
            println!("no display (DISPLAY / WAYLAND_DISPLAY unset): rendering headless");
        }
    }
    let settings = a.render.settings()?;
    let mut scene =
        Scene::for_demo_in(&gpu, a.demo, a.common.scene, capacity, a.common.seed, size)?
            .with_settings(settings);
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
