//! `flurry profile instances --instances N [--particles P]`: one small effect (a torch's
//! puff of P particles) placed N times through `set_instances`, against one effect holding
//! as many particles spawned over the same area; frames alternated in one process, with the
//! pools full. What it costs: the GPU time of a frame (from submit to the GPU's finish, on
//! the clock) and update + encode on the CPU, with the instances set once (torches on
//! walls) and with all of them set anew every frame (a host moving each one).

use std::time::Instant;

use serde_json::json;

use flurry::effect::Shape;
use flurry::glam::{Mat4, Vec3};
use flurry::{Camera, Instance, Invalid, ParticleRenderer};

use super::args::ProfileArgs;
use super::profile_effects::puff;
use super::setup;
use crate::host::scene::check_size;
use crate::host::timing::median;
use crate::host::{AppError, HeadlessTarget};
use crate::progress::Progress;

/// Particles per instance when `--particles` is not given.
const DEFAULT_PARTICLES: u32 = 256;

/// The instances on a square grid 2 m apart in the x-y plane, about the origin, bobbing up
/// and down by a few centimetres with the frame (a host moving them every frame).
fn placements(n: u32, frame: u32) -> Vec<Instance> {
    let side = (n as f32).sqrt().ceil() as u32;
    let half = 0.5 * (side - 1) as f32;
    (0..n)
        .map(|i| {
            let (x, y) = ((i % side) as f32 - half, (i / side) as f32 - half);
            let bob = 0.05 * ((frame + i) as f32 * 0.1).sin();
            let at = Vec3::new(2.0 * x, 2.0 * y + bob, 0.0);
            // a puff rises about 1.2 m over its life and grows to 0.2 m
            Instance::new(Mat4::from_translation(at), 2.0)
        })
        .collect()
}

/// How a configuration places its effect.
#[derive(Clone, Copy, PartialEq)]
enum Placing {
    /// One effect as big as all the instances.
    Single,
    /// The instances set once.
    Still,
    /// The instances set anew every frame, each moved a little.
    Moving,
}

/// One configuration's renderer and effect.
struct Config {
    renderer: ParticleRenderer,
    id: flurry::EffectId,
    placing: Placing,
    cpu_us: Vec<f64>,
    gpu_ms: Vec<f64>,
}

pub fn report(a: &ProfileArgs) -> Result<serde_json::Value, AppError> {
    let (gpu, particles, dt) = setup(&a.common, DEFAULT_PARTICLES)?;
    let max = ParticleRenderer::max_capacity(&gpu.device) as i64 / particles as i64;
    let n = match a.instances {
        Some(n) if (1..=max).contains(&n) => n as u32,
        given => {
            let value = given.map_or("none".into(), |n| n.to_string());
            let allowed = format!(
                "1..={max} (required by `profile instances`; {particles} particles each must fit one pool)"
            );
            return Err(Invalid::new("--instances", value, allowed).into());
        }
    };
    let size = check_size(&gpu, a.size.0, a.size.1)?;
    let target = HeadlessTarget::new(&gpu.device, size.0, size.1);
    let settings = a.render.settings()?;
    let total = n * particles;
    // the instanced torch, and one effect as big spawning over the grid's area
    let torch = puff([0.0; 3], particles);
    let side = (n as f32).sqrt().ceil();
    let mut single = puff([0.0; 3], total);
    let reach = side - 1.0 + 0.3;
    single.emitters[0].shape = Shape::Box {
        min: [-reach, -reach, -0.3],
        max: [reach, reach, 0.3],
    };
    let mut configs = vec![];
    let placings = [
        (&torch, Placing::Still),
        (&torch, Placing::Moving),
        (&single, Placing::Single),
    ];
    for (desc, placing) in placings {
        let mut renderer = ParticleRenderer::new(&gpu.device, HeadlessTarget::TARGETS, settings)?;
        let id = renderer.add_effect(&gpu.device, &gpu.queue, desc, total, a.common.pool.seed)?;
        if placing == Placing::Still {
            renderer.set_instances(&gpu.device, id, &placements(n, 0))?;
        }
        configs.push(Config {
            renderer,
            id,
            placing,
            cpu_us: vec![],
            gpu_ms: vec![],
        });
    }
    let camera = Camera::look_at(
        Vec3::new(0.0, 0.0, 2.4 * side + 3.0),
        Vec3::ZERO,
        target.aspect(),
    );
    let dt = dt.unwrap_or(1.0 / 60.0);
    // warm-up: 16 frames of 0.1 s each fill the pools (a puff lives 1.5 s) and build the
    // pipelines; then the measured frames, alternated
    let warm = 16;
    let mut progress = Progress::new(format!("{n} instances"), a.frames + warm);
    for frame in 0..a.frames + warm {
        let dt = if frame < warm { 0.1 } else { dt };
        for c in &mut configs {
            let mut encoder = gpu.device.create_command_encoder(&Default::default());
            target.encode_scene(&mut encoder, [0.0, 0.0, 0.0, 1.0], None);
            // the host's own work, making the list, is not timed; flurry's taking it is
            let list = (c.placing == Placing::Moving).then(|| placements(n, frame));
            let cpu = Instant::now();
            if let Some(list) = &list {
                c.renderer.set_instances(&gpu.device, c.id, list)?;
            }
            c.renderer
                .update(&gpu.device, &gpu.queue, dt, camera, size)?;
            c.renderer
                .encode(&gpu.device, &mut encoder, &target.frame())?;
            let cpu = cpu.elapsed();
            let submitted = Instant::now();
            gpu.queue.submit([encoder.finish()]);
            gpu.wait()?;
            if frame >= warm {
                c.cpu_us.push(cpu.as_secs_f64() * 1e6);
                c.gpu_ms.push(submitted.elapsed().as_secs_f64() * 1e3);
            }
        }
        progress.frame(frame + 1);
    }
    drop(progress);
    let alive = |c: &Config| -> Result<u32, AppError> {
        Ok(c.renderer
            .snapshot(&gpu.device, &gpu.queue, c.id)?
            .stats
            .alive)
    };
    let (placed, moving, one) = (&configs[0], &configs[1], &configs[2]);
    let (gpu_ms, single_ms) = (median(&placed.gpu_ms), median(&one.gpu_ms));
    let moving_ms = median(&moving.gpu_ms);
    let (cpu_us, single_cpu_us) = (median(&placed.cpu_us), median(&one.cpu_us));
    let moving_cpu_us = median(&moving.cpu_us);
    let (alive_placed, alive_one) = (alive(placed)?, alive(one)?);
    out!(
        "{n} instances of {particles} particles ({alive_placed} alive) against one effect of {total} ({alive_one} alive) on {}, {} frames alternated at {}x{}",
        gpu.adapter_name(),
        a.frames,
        size.0,
        size.1
    );
    out!(
        "GPU (submit to finish): {gpu_ms:.2} ms instanced ({moving_ms:.2} ms moving every frame), {single_ms:.2} ms one effect ({:.2}x)",
        gpu_ms / single_ms
    );
    out!("update + encode on the CPU: {cpu_us:.1} µs instanced, {moving_cpu_us:.1} µs with every instance set anew each frame, {single_cpu_us:.1} µs one effect");
    Ok(
        json!({"instances": n, "particles_per_instance": particles, "gpu_ms": gpu_ms,
        "single_effect_gpu_ms": single_ms, "gpu_ratio": gpu_ms / single_ms,
        "moving_gpu_ms": moving_ms, "encode_cpu_us": cpu_us,
        "moving_encode_cpu_us": moving_cpu_us, "single_effect_encode_cpu_us": single_cpu_us,
        "alive": alive_placed, "single_effect_alive": alive_one,
        "timing": "cpu-sync", "adapter": gpu.adapter_name(), "frames": a.frames,
        "size": [size.0, size.1]}),
    )
}
