//! `flurry profile effects --host --effects N [--particles P] [--frames F]`: what N small
//! effects cost a host's thread a frame, measured as a host measures it: the CPU time of
//! the thread that calls `update` and `encode` (not the wall clock, which counts the
//! driver's threads and the machine's other work), each call on its own, the median of
//! `--frames` frames after ten of warm-up. Two renderers take turns frame by frame: one
//! holds N effects that differ as a game's do (`--mix`'s), the other N copies of one
//! alpha-blended puff, compiled once (`ParticleRenderer::compile`), added N times and each
//! placed by its transform, as a host adds copies of one effect. The host submits each frame
//! and waits for it outside what is timed.

use serde_json::json;

use flurry::{glam, Camera, ParticleRenderer};

use super::args::ProfileArgs;
use super::profile_effects::{mixed_puff, puff};
use super::setup;
use crate::host::scene::check_size;
use crate::host::timing::median;
use crate::host::{AppError, HeadlessTarget};
use crate::progress::Progress;

/// Frames before the timed ones: every pool full, every pipeline and list built.
const WARM_FRAMES: u32 = 10;

/// The CPU time this thread has used, in µs, and the clock that measured it.
#[cfg(unix)]
fn thread_cpu_us() -> (f64, &'static str) {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes the timespec it is given, nothing else
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    assert_eq!(rc, 0, "CLOCK_THREAD_CPUTIME_ID is always there on unix");
    (
        t.tv_sec as f64 * 1e6 + t.tv_nsec as f64 * 1e-3,
        "thread-cpu",
    )
}

/// Elsewhere the wall clock, said so in the report.
#[cfg(not(unix))]
fn thread_cpu_us() -> (f64, &'static str) {
    use std::sync::OnceLock;
    static START: OnceLock<std::time::Instant> = OnceLock::new();
    let start = START.get_or_init(std::time::Instant::now);
    (start.elapsed().as_secs_f64() * 1e6, "wall")
}

/// One renderer of the two and what its frames cost.
struct Case {
    name: &'static str,
    renderer: ParticleRenderer,
    update_us: Vec<f64>,
    encode_us: Vec<f64>,
}

/// The report (`--json`'s content) of `profile effects --host` with `n` effects.
pub fn report(a: &ProfileArgs, n: u32) -> Result<serde_json::Value, AppError> {
    let (gpu, particles, dt) = setup(&a.common, super::profile_effects::DEFAULT_PARTICLES)?;
    let size = check_size(&gpu, a.size.0, a.size.1)?;
    let settings = a.render.settings()?;
    let target = HeadlessTarget::new(&gpu.device, size.0, size.1);
    // the effects on a square grid in front of the camera, 2 m apart
    let side = (n as f32).sqrt().ceil() as u32;
    let half = 0.5 * (side - 1) as f32;
    let at = |i: u32| {
        let (x, y) = ((i % side) as f32, (i / side) as f32);
        [2.0 * (x - half), 2.0 * (y - half), 0.0]
    };
    let mut cases = Vec::new();
    for name in ["distinct", "copies"] {
        let mut renderer = ParticleRenderer::new(&gpu.device, HeadlessTarget::TARGETS, settings)?;
        let mut progress = Progress::new(format!("adding {name} effects"), n);
        // (copies: one effect compiled once, added n times, each placed by its transform)
        let copied = renderer.compile(&puff([0.0; 3], particles))?;
        for i in 0..n {
            let seed = a.common.pool.seed + i;
            let (device, queue) = (&gpu.device, &gpu.queue);
            match name {
                "distinct" => {
                    let desc = mixed_puff(i, at(i), particles);
                    renderer.add_effect(device, queue, &desc, particles, seed)?
                }
                _ => {
                    let id = renderer.add_compiled(device, queue, &copied, particles, seed)?;
                    let place = glam::Mat4::from_translation(at(i).into());
                    renderer.set_transform(id, place)?;
                    id
                }
            };
            progress.frame(i + 1);
        }
        cases.push(Case {
            name,
            renderer,
            update_us: Vec::new(),
            encode_us: Vec::new(),
        });
    }
    let camera = Camera::look_at(
        glam::Vec3::new(0.0, 0.0, 2.4 * side as f32 + 3.0),
        glam::Vec3::ZERO,
        target.aspect(),
    );
    let dt = dt.unwrap_or(1.0 / 60.0);
    let mut clock = "thread-cpu";
    let mut progress = Progress::new(format!("{n} effects, as a host"), WARM_FRAMES + a.frames);
    for frame in 0..WARM_FRAMES + a.frames {
        // the two renderers take turns, so that a busy spell of the machine falls on both
        for case in &mut cases {
            let mut encoder = gpu.device.create_command_encoder(&Default::default());
            target.encode_scene(&mut encoder, [0.0, 0.0, 0.0, 1.0], None);
            let (start, name) = thread_cpu_us();
            clock = name;
            case.renderer
                .update(&gpu.device, &gpu.queue, dt, camera, size)?;
            let (updated, _) = thread_cpu_us();
            case.renderer
                .encode(&gpu.device, &mut encoder, &target.frame())?;
            let (encoded, _) = thread_cpu_us();
            gpu.queue.submit([encoder.finish()]);
            gpu.wait()?;
            if frame >= WARM_FRAMES {
                case.update_us.push(updated - start);
                case.encode_us.push(encoded - updated);
            }
        }
        progress.frame(frame + 1);
    }
    drop(progress);
    out!(
        "{n} effects of {particles} particles on {}, as a host measures them: the {clock} \
         time of its thread, median of {} frames after {WARM_FRAMES}",
        gpu.adapter_name(),
        a.frames
    );
    let mut report = json!({"effects": n, "particles_per_effect": particles, "clock": clock,
        "frames": a.frames, "warm_frames": WARM_FRAMES, "adapter": gpu.adapter_name(),
        "size": [size.0, size.1]});
    for case in &cases {
        let totals: Vec<f64> = (case.update_us.iter().zip(&case.encode_us))
            .map(|(u, e)| u + e)
            .collect();
        let (update, encode, total) = (
            median(&case.update_us),
            median(&case.encode_us),
            median(&totals),
        );
        out!(
            "{:<9} update + encode {total:7.1} µs a frame (update {update:.1}, encode {encode:.1})",
            case.name
        );
        report[case.name] = json!({"update_encode_us": total, "update_us": update,
            "encode_us": encode});
    }
    Ok(report)
}
