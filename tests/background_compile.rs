//! Compiling off the host's thread: with `Settings::background_compile`, adding an effect of
//! a new kind returns at once, the host's frames cost what they did without it while a
//! worker builds its pipelines, and it starts whole once they are built (its t = 0 burst
//! all there, nothing dropped).

mod common;

use std::time::{Duration, Instant};

use common::hosted::Hosted;
use flurry::effect::{Blend, Burst, Collision, Range, Response, Shape, Turbulence};
use flurry::{EffectDesc, EffectId, Settings};
use glam::Vec3;

/// CPU time of the calling thread (the host's), not of the worker beside it.
#[cfg(unix)]
fn thread_cpu() -> Duration {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: a valid timespec to write into, a clock every Unix has
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    assert_eq!(rc, 0, "the thread's CPU clock");
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

/// Elsewhere the wall clock stands in for it.
#[cfg(not(unix))]
fn thread_cpu() -> Duration {
    use std::sync::OnceLock;
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed()
}

/// The test host, compiling in the background.
fn host() -> Hosted {
    let settings = Settings {
        background_compile: true,
        ..common::settings()
    };
    Hosted::new(settings, (64, 48), Vec3::new(0.0, 2.0, 14.0))
}

/// One frame: the host's CPU time in update + encode, then submitted and waited for (so
/// that the GPU's work never overlaps the next frame's timing).
fn timed_frame(host: &mut Hosted) -> Duration {
    let gpu = &host.gpu;
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    host.target
        .encode_scene(&mut encoder, [0.0, 0.0, 0.0, 1.0], None);
    let start = thread_cpu();
    let (renderer, size) = (&mut host.renderer, host.target.size());
    renderer
        .update(&gpu.device, &gpu.queue, 0.02, host.camera, size)
        .unwrap();
    renderer
        .encode(&gpu.device, &mut encoder, &host.target.frame())
        .unwrap();
    let spent = thread_cpu() - start;
    gpu.queue.submit([encoder.finish()]);
    gpu.wait().unwrap();
    spent
}

/// Effect `id`'s counts, read back.
fn stats(host: &Hosted, id: EffectId) -> flurry::Stats {
    let gpu = &host.gpu;
    let snapshot = host.renderer.snapshot(&gpu.device, &gpu.queue, id);
    snapshot.unwrap().stats
}

/// The median of `d`.
fn median(mut d: Vec<Duration>) -> Duration {
    d.sort();
    d[d.len() / 2]
}

/// Points held still: the host's running effect.
fn embers() -> EffectDesc {
    common::still(
        "embers",
        vec![common::held(
            Shape::Sphere {
                center: [0.0; 3],
                radius: 1.0,
                surface: false,
            },
            256,
            Range::constant(0.05),
            [1.0, 0.5, 0.2, 1.0],
            [0.0; 3],
        )],
    )
}

/// A kind the renderer has not built: 1,000 sparks at t = 0, additive, in a turbulent
/// wind, killed where they hit the scene.
fn sparks() -> EffectDesc {
    let mut emitter = common::held(
        Shape::Sphere {
            center: [0.0, 1.0, 0.0],
            radius: 0.5,
            surface: false,
        },
        1000,
        Range::constant(0.04),
        [1.0, 0.9, 0.5, 1.0],
        [0.0, 0.2, 0.0],
    );
    emitter.bursts = vec![Burst::once(0.0, 1000)];
    let mut sparks = common::still("sparks", vec![emitter]);
    sparks.blend = Blend::Additive;
    sparks.forces.turbulence = Some(Turbulence {
        speed: 0.3,
        scale: 1.0,
    });
    sparks.collision = Some(Collision::new(Response::Kill));
    sparks
}

#[test]
fn a_new_kind_compiles_beside_the_host_and_starts_whole() {
    let mut host = host();
    let embers = host.add(&embers(), 256, 5);
    // the running effect is compiled by the worker too: wait, then time the frames
    let waited = Instant::now();
    while !host.renderer.is_ready(embers).unwrap() {
        timed_frame(&mut host);
        assert!(
            waited.elapsed() < Duration::from_secs(60),
            "embers never ready"
        );
    }
    for _ in 0..3 {
        timed_frame(&mut host);
    }
    let before: Vec<_> = (0..7).map(|_| timed_frame(&mut host)).collect();

    let compiled = host.renderer.compiled_pipelines();
    let start = thread_cpu();
    let id = host.add(&sparks(), 1024, 5);
    let add = thread_cpu() - start;
    assert!(
        !host.renderer.is_ready(id).unwrap(),
        "a new kind waits for its pipelines"
    );
    let mut during = vec![];
    let waited = Instant::now();
    loop {
        during.push(timed_frame(&mut host));
        // (the update that binds it starts it: its clock runs from that frame on)
        if host.renderer.is_ready(id).unwrap() {
            break;
        }
        assert_eq!(host.renderer.time(id), Some(0.0), "its clock waits at 0");
        assert_eq!(stats(&host, id).alive, 0, "nothing spawned while compiling");
        assert!(waited.elapsed() < Duration::from_secs(120), "never ready");
    }
    let after = host.renderer.compiled_pipelines();
    assert!(after > compiled, "the worker compiled its pipelines");
    assert!(during.len() >= 2, "{} frames while compiling", during.len());
    let (before, during_median) = (median(before), median(during.clone()));
    eprintln!(
        "add_effect {add:?}; {} frames while compiling, update + encode {during_median:?} \
         (median, the host's thread) against {before:?} without",
        during.len()
    );
    let limit = before + Duration::from_millis(2);
    assert!(
        during_median <= limit,
        "update + encode took {during_median:?} (median of {}) while compiling, {before:?} without",
        during.len()
    );
    assert!(add < Duration::from_millis(20), "add_effect took {add:?}");

    // the burst appeared whole at its first frame, nothing dropped
    let started = stats(&host, id);
    assert_eq!(started.alive, 1000, "{started:?}");
    assert_eq!(started.dropped_total, 0);
    assert_eq!(
        host.renderer.compiled_pipelines(),
        after,
        "its frames compile nothing"
    );

    // another of its kind starts at once
    let again = host.add(&sparks(), 1024, 5);
    assert!(host.renderer.is_ready(again).unwrap());
    timed_frame(&mut host);
    assert_eq!(stats(&host, again).alive, 1000);
    assert_eq!(host.renderer.compiled_pipelines(), after);
}

#[test]
fn a_warmed_kind_starts_at_once_and_a_prewarm_waits_for_its_compile() {
    let mut host = host();
    let device = host.gpu.device.clone();
    host.renderer.warm(&device, &[&embers()]).unwrap();
    let id = host.add(&embers(), 256, 5);
    assert!(host.renderer.is_ready(id).unwrap(), "warmed: ready at once");
    // a prewarm of an effect still waiting builds it first
    let sparks_desc = sparks;
    let sparks = host.add(&sparks_desc(), 1024, 5);
    let gpu = &host.gpu;
    host.renderer
        .prewarm(&gpu.device, &gpu.queue, sparks, (0.1, 0.02), host.camera)
        .unwrap();
    assert!(host.renderer.is_ready(sparks).unwrap());
    timed_frame(&mut host);
    // one removed while its pipelines compile: gone, and the worker's report is let be
    let mut other = sparks_desc();
    other.forces.turbulence = None;
    let gone = host.add(&other, 64, 5);
    assert!(!host.renderer.is_ready(gone).unwrap());
    assert!(host.renderer.remove_effect(gone));
    assert!(host.renderer.is_ready(gone).is_err(), "an unknown id");
    for _ in 0..3 {
        timed_frame(&mut host);
    }
    assert_eq!(
        stats(&host, sparks).alive + stats(&host, sparks).killed_total as u32,
        1000
    );
}

#[test]
fn new_targets_while_a_kind_compiles_wait_for_the_worker_and_it_still_starts() {
    let mut host = host();
    let id = host.add(&sparks(), 1024, 5);
    assert!(!host.renderer.is_ready(id).unwrap());
    // (the pipelines the worker holds are changed: it is waited for first)
    let targets = common::host::HeadlessTarget::TARGETS.without_depth_in_pass();
    let device = host.gpu.device.clone();
    host.renderer.set_targets(&device, targets).unwrap();
    let waited = Instant::now();
    while !host.renderer.is_ready(id).unwrap() {
        timed_frame(&mut host);
        assert!(waited.elapsed() < Duration::from_secs(120), "never ready");
    }
    timed_frame(&mut host);
    assert_eq!(stats(&host, id).alive, 1000);
}
