//! `flurry profile effects --effects N [--particles P] [--blend alpha|additive | --mix]`: what
//! many small effects cost a host: the first effect of a kind added cold, warmed, compiled
//! off the thread and from a pipeline cache (`first_add.rs`), the time of each
//! `add_effect`, update + encode per frame on the CPU, and the GPU's time pass by pass
//! beside one effect holding as many particles (the two timed in turn, frame by frame).
//! `--host` measures update + encode as a host does instead (`profile_host.rs`).

use std::time::Instant;

use serde_json::json;

use flurry::effect::*;
use flurry::{glam, Camera, GpuContext, Invalid, ParticleRenderer};

use super::args::ProfileArgs;
use super::first_add::first_add;
use super::setup;
use crate::host::scene::check_size;
use crate::host::timing::{median, Samples, Timing};
use crate::host::{AppError, HeadlessTarget, Scene};
use crate::progress::Progress;

/// Most effects `profile effects` adds.
const MAX_EFFECTS: i64 = 4096;
/// Particles per effect when `--particles` is not given.
pub(super) const DEFAULT_PARTICLES: u32 = 1024;

/// A small alpha-blended puff of `capacity` particles at `at`: the pool stays about full
/// (rate × mean lifetime = capacity), so every effect has work every frame.
pub fn puff(at: [f32; 3], capacity: u32) -> EffectDesc {
    puff_blended(at, capacity, Blend::Alpha)
}

/// [`puff`] blended by `blend`.
fn puff_blended(at: [f32; 3], capacity: u32, blend: Blend) -> EffectDesc {
    let lifetime = 1.5;
    EffectDesc {
        name: "puff".into(),
        emitters: vec![EmitterDesc {
            shape: Shape::Sphere {
                center: at,
                radius: 0.3,
                surface: false,
            },
            rate: 0.9 * capacity as f32 / lifetime,
            velocity: Velocity::Linear {
                mean: [0.0, 0.8, 0.0],
                variance: [0.3, 0.2, 0.3],
            },
            lifetime: Range::new(lifetime, 0.3),
            size: Range::new(0.12, 0.03),
            color: ColorRange::new([1.0, 0.55, 0.2, 0.6], [0.0, 0.1, 0.1, 0.1]),
            rotation: Range::new(0.0, std::f32::consts::PI),
            spin: Range::new(0.0, 1.0),
            ..Default::default()
        }],
        forces: Forces::NONE,
        blend,
        over_life: OverLife {
            color_end: [1.0, 1.0, 1.0, 0.0],
            size_end: 1.5,
        },
        ..Default::default()
    }
}

/// The `i`-th of [`puff`]s that differ as a game's effects do (`--mix`): every combination
/// of blend, sort (the blend's default, sorted, unsorted), render mode, sprite and size in
/// turn, every fifth with turbulence, two in four spawning in a box.
pub(super) fn mixed_puff(i: u32, at: [f32; 3], capacity: u32) -> EffectDesc {
    let blend = [Blend::Alpha, Blend::Additive][i as usize % 2];
    let mut e = puff_blended(at, capacity, blend);
    e.name = format!("puff {i}");
    e.sort = [None, Some(true), Some(false)][(i / 2) as usize % 3];
    let emitter = &mut e.emitters[0];
    emitter.render = Some(match (i / 6) % 5 {
        0 => RenderMode::Billboard,
        1 => RenderMode::Upright,
        2 => RenderMode::Stretched { seconds: 0.05 },
        3 => RenderMode::Tumbling,
        _ => RenderMode::Flat,
    });
    emitter.sprite = Some(match (i / 30) % 3 {
        0 => Sprite::Disc,
        1 => Sprite::Snowflakes,
        _ => Sprite::Ring,
    });
    // (their mean area is the plain puff's, which the GPU's time is compared with)
    emitter.size = Range::new([0.08, 0.12, 0.15][i as usize % 3], 0.02);
    if i % 4 >= 2 {
        emitter.shape = Shape::Box {
            min: [at[0] - 0.3, at[1] - 0.3, at[2] - 0.3],
            max: [at[0] + 0.3, at[1] + 0.3, at[2] + 0.3],
        };
    }
    if i.is_multiple_of(5) {
        e.forces.turbulence = Some(Turbulence {
            speed: 0.6,
            scale: 1.0,
        });
    }
    e
}

/// Warm-up frames of 0.1 s before the GPU is timed: a puff lives 1.5 s, so the pools are
/// full and every pipeline is built.
const WARM_FRAMES: u32 = 16;

/// The report (`--json`'s content) of one run.
pub fn report(a: &ProfileArgs) -> Result<serde_json::Value, AppError> {
    let n = match a.effects {
        Some(n) if (1..=MAX_EFFECTS).contains(&n) => n as u32,
        Some(n) => return Err(Invalid::new("--effects", n, format!("1..={MAX_EFFECTS}")).into()),
        None => {
            let why = format!("1..={MAX_EFFECTS} (required by `profile effects`)");
            return Err(Invalid::new("--effects", "none", why).into());
        }
    };
    let blend = match a.blend.as_deref() {
        Some("additive") => Blend::Additive,
        _ => Blend::Alpha,
    };
    if a.host {
        return super::profile_host::report(a, n);
    }
    let (gpu, particles, dt) = setup(&a.common, DEFAULT_PARTICLES)?;
    let effect = |i: u32, at: [f32; 3]| match a.mix {
        true => mixed_puff(i, at, particles),
        false => puff_blended(at, particles, blend),
    };

    let size = check_size(&gpu, a.size.0, a.size.1)?;
    let settings = a.render.settings()?;
    let target = HeadlessTarget::new(&gpu.device, size.0, size.1);
    let mut renderer = ParticleRenderer::new(&gpu.device, HeadlessTarget::TARGETS, settings)?;
    // the effects on a square grid in front of the camera, 2 m apart
    let side = (n as f32).sqrt().ceil() as u32;
    let half = 0.5 * (side - 1) as f32;
    let mut add_ms = Vec::with_capacity(n as usize);
    let mut ids = Vec::with_capacity(n as usize);
    let mut progress = Progress::new("adding effects", n);
    for i in 0..n {
        let (x, y) = ((i % side) as f32, (i / side) as f32);
        let at = [2.0 * (x - half), 2.0 * (y - half), 0.0];
        let desc = effect(i, at);
        let start = Instant::now();
        ids.push(renderer.add_effect(
            &gpu.device,
            &gpu.queue,
            &desc,
            particles,
            a.common.pool.seed + i,
        )?);
        add_ms.push(start.elapsed().as_secs_f64() * 1e3);
        progress.frame(i + 1);
    }
    drop(progress);
    let reach = side as f32 * 2.0;
    let camera = Camera::look_at(
        glam::Vec3::new(0.0, 0.0, 1.2 * reach + 3.0),
        glam::Vec3::ZERO,
        target.aspect(),
    );
    let dt = dt.unwrap_or(1.0 / 60.0);
    let (mut encode_us, mut frame_ms) = (vec![], vec![]);
    let mut progress = Progress::new(format!("{n} effects"), a.frames + 3);
    // three frames of warm-up (pools fill, the merged lists are built), then the measured ones
    for frame in 0..a.frames + 3 {
        let start = Instant::now();
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        target.encode_scene(&mut encoder, [0.0, 0.0, 0.0, 1.0], None);
        let cpu = Instant::now();
        renderer.update(&gpu.device, &gpu.queue, dt, camera, size)?;
        renderer.encode(&gpu.device, &mut encoder, &target.frame())?;
        let cpu = cpu.elapsed();
        gpu.queue.submit([encoder.finish()]);
        gpu.wait()?;
        if frame >= 3 {
            encode_us.push(cpu.as_secs_f64() * 1e6);
            frame_ms.push(start.elapsed().as_secs_f64() * 1e3);
        }
        progress.frame(frame + 1);
    }
    drop(progress);
    // the GPU's time pass by pass, for the effects and for one effect as big spawning over
    // their grid's area, the two in turn
    let many = Scene::around(renderer, ids[0], target, camera);
    let mut single = puff_blended([0.0; 3], n * particles, blend);
    let reach = 2.0 * half + 0.3;
    single.emitters[0].shape = Shape::Box {
        min: [-reach, -reach, -0.3],
        max: [reach, reach, 0.3],
    };
    let one = Scene::new(
        &gpu,
        &single,
        n * particles,
        a.common.pool.seed,
        size,
        |_| camera,
    )?
    .with_settings(settings);
    let [many, one] = gpu_passes(&gpu, [many, one], a.frames, dt)?;
    let add_first = add_ms[0];
    // with one effect there is no rest
    let add_rest = (n > 1).then(|| median(&add_ms[1..]));
    let (encode, frame) = (median(&encode_us), median(&frame_ms));
    let blended = match a.mix {
        true => "mixed".to_string(),
        false => format!("{blend:?}").to_lowercase(),
    };
    out!(
        "{n} {blended} effects of {particles} particles on {}, {} frames at {}x{}",
        gpu.adapter_name(),
        a.frames,
        size.0,
        size.1
    );
    let nth = |k: usize| add_ms.get(k).map_or("-".into(), |t| format!("{t:.2} ms"));
    let rest = add_rest.map_or("-".into(), |t| format!("{t:.2} ms"));
    out!(
        "add_effect: first {add_first:.2} ms, second {}, tenth {}, median of the rest {rest}",
        nth(1),
        nth(9)
    );
    out!("update + encode on the CPU {encode:.1} µs a frame (median); frame {frame:.2} ms");
    out!(
        "GPU, submit to finish (median ms): {n} effects {:.2}, one effect of {} particles {:.2} ({:.2}x)",
        many.frame,
        n * particles,
        one.frame,
        many.frame / one.frame
    );
    out!("each pass submitted on its own (median ms):");
    out!("{:<10} {:>10} {:>10}", "pass", "effects", "one");
    for (name, ms) in &many.passes {
        let single = one.passes.get(name).and_then(|v| v.as_f64());
        let single = single.map_or("-".into(), |t| format!("{t:.3}"));
        out!(
            "{name:<10} {:>10.3} {single:>10}",
            ms.as_f64().unwrap_or(0.0)
        );
    }
    // what the first of a kind costs a fresh renderer (measured after the rest: four
    // renderers made and dropped before them cost the frames above a tenth more)
    let near = Camera::look_at(glam::Vec3::new(0.0, 0.0, 5.0), glam::Vec3::ZERO, 16.0 / 9.0);
    let first = effect(0, [0.0; 3]);
    let target = HeadlessTarget::new(&gpu.device, size.0, size.1);
    let first_add = first_add(&gpu, (&target, near), settings, (&first, particles))?;
    let report = json!({"effects": n, "particles_per_effect": particles, "blend": blended,
        "add_first_ms": add_first, "first_add": first_add,
        "add_rest_ms": add_rest, "encode_cpu_us": encode, "frame_ms": frame, "add_ms": add_ms,
        "gpu_ms": many.frame, "single_effect_gpu_ms": one.frame,
        "gpu_ratio": many.frame / one.frame, "passes": many.passes,
        "single_effect_passes": one.passes, "timing": Timing::CpuSync.name(),
        "adapter": gpu.adapter_name(), "frames": a.frames, "size": [size.0, size.1]});
    Ok(report)
}

/// A scene's GPU time in milliseconds: the median frame submitted whole (submit to finish),
/// and each pass's median submitted on its own (the breakdown).
struct GpuPasses {
    frame: f64,
    passes: serde_json::Map<String, serde_json::Value>,
}

/// Time `frames` frames of each of `scenes` after the warm-up, whole and then pass by pass
/// (each submitted on its own and waited for: the same clock on every adapter). The scenes
/// take turns frame by frame, so that a busy spell of the machine falls on both alike.
fn gpu_passes(
    gpu: &GpuContext,
    mut scenes: [Scene; 2],
    frames: u32,
    dt: f32,
) -> Result<[GpuPasses; 2], AppError> {
    for scene in &mut scenes {
        for _ in 0..WARM_FRAMES {
            scene.frame(gpu, 0.1, true);
        }
    }
    gpu.wait()?;
    let mut progress = Progress::new("GPU, the effects and the one in turn", 2 * frames);
    let mut frame_ms = [vec![], vec![]];
    for done in 0..frames {
        for (scene, times) in scenes.iter_mut().zip(&mut frame_ms) {
            let start = Instant::now();
            scene.frame(gpu, dt, true);
            gpu.wait()?;
            times.push(start.elapsed().as_secs_f64() * 1e3);
        }
        progress.frame(done + 1);
    }
    let mut samples = [Samples::default(), Samples::default()];
    for done in 0..frames {
        for (scene, samples) in scenes.iter_mut().zip(&mut samples) {
            scene.profile_frame(gpu, dt, samples)?;
        }
        progress.frame(frames + done + 1);
    }
    Ok([0, 1].map(|k| GpuPasses {
        frame: median(&frame_ms[k]),
        passes: pass_medians(&samples[k]),
    }))
}

/// Each pass's median milliseconds in `samples`, by name (the frame's left out).
fn pass_medians(samples: &Samples) -> serde_json::Map<String, serde_json::Value> {
    let mut passes = serde_json::Map::new();
    for (name, med, _, _) in samples.summary() {
        if name != "frame" {
            passes.insert(name, json!(med));
        }
    }
    passes
}
