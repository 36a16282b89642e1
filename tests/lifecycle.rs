//! Driving an effect from a game: a paused effect holds every particle bit for bit and is
//! still drawn (no emit or simulate of it recorded), and goes on where it was when played;
//! half the time scale over two frames is a step of half the frame each, as the integrator
//! says; an effect that stops emitting emits nothing more and empties as its particles
//! die; a cleared effect loses every particle at once; a restarted one starts from time 0
//! with its first burst again. Out of view, an effect's bounds hold its particles, and it
//! goes on, freezes (no simulate recorded) or freezes and catches up, as the host chose.

mod common;

use common::host::Scene;
use flurry::effect::*;
use flurry::{Aabb, Camera, OffScreen, Pass, Playback, PoolSnapshot};
use glam::Vec3;

const GRAVITY: Vec3 = Vec3::new(0.0, -9.81, 0.0);

/// A fountain: `rate` particles a second and a burst of `burst` at t = 0 from a small box,
/// thrown up at 4 m/s with some spread under gravity, living `lifetime` seconds.
fn fountain(rate: f32, burst: u32, lifetime: f32) -> EffectDesc {
    let desc = EffectDesc {
        name: "fountain".into(),
        emitters: vec![EmitterDesc {
            shape: Shape::Box {
                min: [-0.5, 0.0, -0.5],
                max: [0.5, 0.2, 0.5],
            },
            bursts: match burst {
                0 => vec![],
                n => vec![Burst::once(0.0, n)],
            },
            rate,
            velocity: Velocity::Linear {
                mean: [0.0, 4.0, 0.0],
                variance: [1.0, 0.5, 1.0],
            },
            lifetime: Range::constant(lifetime),
            size: Range::constant(0.05),
            ..Default::default()
        }],
        forces: Forces {
            gravity: GRAVITY.to_array(),
            ..Forces::NONE
        },
        ..Default::default()
    };
    desc.validate().unwrap();
    desc
}

fn scene(gpu: &flurry::GpuContext, desc: &EffectDesc) -> Scene {
    let camera = |a| Camera::look_at(Vec3::new(0.0, 2.0, 12.0), Vec3::new(0.0, 1.0, 0.0), a);
    Scene::new(gpu, desc, 4096, 7, (64, 48), camera).unwrap()
}

/// The living particles, each as its bytes, ordered by emission id.
fn living(snap: &PoolSnapshot) -> Vec<(u32, Vec<u8>)> {
    let mut out: Vec<(u32, Vec<u8>)> = snap
        .alive
        .iter()
        .map(|&i| {
            let p = &snap.particles[i as usize];
            (p.id, bytemuck::bytes_of(p).to_vec())
        })
        .collect();
    out.sort_by_key(|(id, _)| *id);
    out
}

#[test]
fn a_paused_effect_holds_every_particle_bit_for_bit_is_drawn_and_goes_on_when_played() {
    let gpu = common::gpu();
    let mut s = scene(&gpu, &fountain(300.0, 0, 3.0));
    for _ in 0..10 {
        s.frame(&gpu, 1.0 / 30.0, true);
    }
    s.renderer.pause(s.effect).unwrap();
    assert_eq!(s.renderer.playback(s.effect), Some(Playback::Paused));
    s.frame(&gpu, 1.0 / 30.0, true);
    let held = s.snapshot(&gpu).unwrap();
    let time = s.renderer.time(s.effect).unwrap();
    assert!(held.stats.alive > 50, "{:?}", held.stats);
    assert!(
        held.stats.visible > 0,
        "drawn while paused: {:?}",
        held.stats
    );
    let passes = s.renderer.passes();
    assert!(
        !passes.contains(&Pass::Simulate),
        "no simulate recorded: {passes:?}"
    );
    for frame in 0..5 {
        s.frame(&gpu, 1.0 / 30.0, true);
        let now = s.snapshot(&gpu).unwrap();
        assert_eq!(living(&now), living(&held), "paused frame {frame}");
        assert_eq!(now.stats.emitted_total, held.stats.emitted_total);
        assert_eq!(now.stats.visible, held.stats.visible, "still drawn");
        assert_eq!(s.renderer.time(s.effect), Some(time), "its clock stopped");
    }
    s.renderer.play(s.effect).unwrap();
    s.frame(&gpu, 1.0 / 30.0, true);
    let played = s.snapshot(&gpu).unwrap();
    assert!(played.stats.emitted_total > held.stats.emitted_total);
    let t = s.renderer.time(s.effect).unwrap();
    assert!((t - time - 1.0 / 30.0).abs() < 1e-6, "{t} after {time}");
    let moved = living(&played)
        .iter()
        .zip(living(&held))
        .filter(|(a, b)| a.0 == b.0 && a.1 != b.1)
        .count();
    assert!(moved > 50, "played, the particles move again: {moved}");
}

/// Small effects share their dispatches (one emit, simulate and relist for all): a paused
/// one leaves them, and its neighbour goes on.
#[test]
fn a_paused_effect_among_batched_ones_holds_while_the_others_move() {
    let gpu = common::gpu();
    let desc = fountain(200.0, 0, 3.0);
    let mut s = scene(&gpu, &desc);
    let (device, queue) = (&gpu.device, &gpu.queue);
    let others: Vec<_> = (0..3)
        .map(|k| {
            s.renderer
                .add_effect(device, queue, &desc, 1024, 20 + k)
                .unwrap()
        })
        .collect();
    let paused = others[1];
    for _ in 0..6 {
        s.frame(&gpu, 1.0 / 30.0, true);
    }
    s.renderer.pause(paused).unwrap();
    s.frame(&gpu, 1.0 / 30.0, true);
    let read = |s: &Scene, id| s.renderer.snapshot(device, queue, id).unwrap();
    let held = read(&s, paused);
    let neighbour = read(&s, others[0]);
    for _ in 0..4 {
        s.frame(&gpu, 1.0 / 30.0, true);
    }
    assert_eq!(living(&read(&s, paused)), living(&held));
    let after = read(&s, others[0]);
    assert!(after.stats.emitted_total > neighbour.stats.emitted_total);
    assert_ne!(living(&after), living(&neighbour));
    // played again, it rejoins them
    s.renderer.play(paused).unwrap();
    s.frame(&gpu, 1.0 / 30.0, true);
    assert!(read(&s, paused).stats.emitted_total > held.stats.emitted_total);
}

/// The burst's particles after a first frame, then stepped `frames` frames of `dt` at
/// `scale`.
fn stepped(
    gpu: &flurry::GpuContext,
    scale: f32,
    frames: u32,
    dt: f32,
) -> (PoolSnapshot, PoolSnapshot) {
    let mut s = scene(gpu, &fountain(0.0, 256, 10.0));
    s.frame(gpu, 0.1, false);
    let start = s.snapshot(gpu).unwrap();
    s.renderer.set_time_scale(s.effect, scale).unwrap();
    for _ in 0..frames {
        s.frame(gpu, dt, false);
    }
    (start, s.snapshot(gpu).unwrap())
}

/// Time scale 0.5 over two frames of 0.1 s is two steps of 0.05 s, bit for bit; against one
/// frame of 0.1 s at scale 1 the velocities and ages agree, and the positions differ as
/// explicit Euler says: from x₀, v₀ after n steps of h (T = n·h),
/// x = x₀ + v₀·T + g·h²·n(n − 1)/2.
#[test]
fn half_the_time_scale_over_two_frames_is_one_frame_of_its_time_as_the_integrator_says() {
    let gpu = common::gpu();
    let (start, half) = stepped(&gpu, 0.5, 2, 0.1);
    let (_, small) = stepped(&gpu, 1.0, 2, 0.05);
    let (_, whole) = stepped(&gpu, 1.0, 1, 0.1);
    assert_eq!(
        living(&half),
        living(&small),
        "scale 0.5 at 0.1 s is 0.05 s steps"
    );
    let by_id = |s: &PoolSnapshot| {
        let mut v: Vec<_> = s.alive.iter().map(|&i| s.particles[i as usize]).collect();
        v.sort_by_key(|p| p.id);
        v
    };
    let (x0, a, b) = (by_id(&start), by_id(&half), by_id(&whole));
    assert_eq!(x0.len(), 256);
    assert_eq!((a.len(), b.len()), (256, 256));
    let t = 0.1f32;
    for ((p0, two), one) in x0.iter().zip(&a).zip(&b) {
        assert!(p0.id == two.id && p0.id == one.id);
        let v = p0.vel + GRAVITY * t;
        assert!((two.vel - v).length() < 1e-5 && (one.vel - v).length() < 1e-5);
        assert!((two.age - one.age).abs() < 1e-6, "{} {}", two.age, one.age);
        let law = |n: f32| {
            let h = t / n;
            p0.pos + p0.vel * t + GRAVITY * (h * h * n * (n - 1.0) / 2.0)
        };
        assert!(
            (two.pos - law(2.0)).length() < 1e-5,
            "{:?} {:?}",
            two.pos,
            law(2.0)
        );
        assert!(
            (one.pos - law(1.0)).length() < 1e-5,
            "{:?} {:?}",
            one.pos,
            law(1.0)
        );
    }
}

/// An effect emptying frame by frame, as `is_finished` must see it: never finished while a
/// particle lives, finished within 3 frames of the first frame with none.
#[derive(Default)]
struct Emptying {
    /// The first frame that ended with none alive.
    at: Option<u32>,
}

impl Emptying {
    fn frame(&mut self, frame: u32, alive: u32, finished: bool) {
        assert!(
            !finished || alive == 0,
            "finished with {alive} alive at frame {frame}"
        );
        if alive == 0 && self.at.is_none() {
            self.at = Some(frame);
        }
        if let (Some(at), false) = (self.at, finished) {
            assert!(
                frame < at + 3,
                "not finished 3 frames after the last died ({at})"
            );
        }
    }
}

#[test]
fn an_effect_that_stops_emitting_emits_nothing_more_and_empties_as_its_particles_die() {
    let gpu = common::gpu();
    let mut s = scene(&gpu, &fountain(300.0, 0, 0.5));
    for _ in 0..10 {
        s.frame(&gpu, 1.0 / 30.0, true);
    }
    s.renderer.stop_emitting(s.effect).unwrap();
    assert_eq!(s.renderer.playback(s.effect), Some(Playback::Stopped));
    s.frame(&gpu, 1.0 / 30.0, true);
    let stopped = s.snapshot(&gpu).unwrap().stats;
    assert!(stopped.alive > 50, "{stopped:?}");
    let mut alive = stopped.alive;
    let mut emptied = Emptying::default();
    for frame in 0..24 {
        s.frame(&gpu, 1.0 / 30.0, true);
        let stats = s.snapshot(&gpu).unwrap().stats;
        assert_eq!(stats.emitted_total, stopped.emitted_total, "frame {frame}");
        assert!(
            stats.alive <= alive,
            "frame {frame}: {} after {alive}",
            stats.alive
        );
        alive = stats.alive;
        emptied.frame(frame, alive, s.renderer.is_finished(s.effect).unwrap());
    }
    // 0.8 s after the last spawn of particles living 0.5 s
    assert_eq!(alive, 0);
    assert_eq!(s.renderer.is_finished(s.effect), Some(true));
    s.renderer.play(s.effect).unwrap();
    s.frame(&gpu, 1.0 / 30.0, true);
    assert!(s.snapshot(&gpu).unwrap().stats.alive > 0, "it emits again");
    assert_eq!(
        s.renderer.is_finished(s.effect),
        Some(false),
        "it has a rate again"
    );
}

/// A one-shot effect (a burst) is finished a frame or two after its last particle died,
/// never before; one marked so is then removed by itself.
#[test]
fn a_burst_is_finished_after_its_last_particle_dies_and_removed_when_marked_so() {
    let gpu = common::gpu();
    let mut s = scene(&gpu, &fountain(0.0, 150, 0.4));
    let (device, queue) = (&gpu.device, &gpu.queue);
    let marked = s
        .renderer
        .add_effect(device, queue, &fountain(0.0, 150, 0.4), 256, 3)
        .unwrap();
    s.renderer.set_remove_when_finished(marked, true).unwrap();
    let (mut emptied, mut removed) = (Emptying::default(), None);
    for frame in 0..30 {
        s.frame(&gpu, 1.0 / 30.0, true);
        let alive = s.snapshot(&gpu).unwrap().stats.alive;
        if frame == 0 {
            assert_eq!(alive, 150);
        }
        emptied.frame(frame, alive, s.renderer.is_finished(s.effect).unwrap());
        if s.renderer.effect(marked).is_none() && removed.is_none() {
            let at = emptied.at.expect("removed only once its twin emptied too");
            assert!(frame <= at + 3, "removed at frame {frame}, emptied at {at}");
            removed = Some(frame);
        }
    }
    assert!(
        emptied.at.is_some_and(|at| at >= 10),
        "lives of 0.4 s: {:?}",
        emptied.at
    );
    assert_eq!(s.renderer.is_finished(s.effect), Some(true));
    assert!(removed.is_some(), "removed when finished");
    assert_eq!(s.renderer.is_finished(marked), None);
}

/// The counts read back without blocking are the pool's own, a frame or two late: a burst
/// of 400 into a pool of 256 has 256 alive, 256 emitted and 144 dropped, as a blocking
/// snapshot says; and they follow the pool as its particles die.
#[test]
fn the_counts_read_back_without_blocking_are_the_pools_a_frame_or_two_late() {
    let gpu = common::gpu();
    let mut s = scene(&gpu, &fountain(0.0, 1, 0.4));
    let (device, queue) = (&gpu.device, &gpu.queue);
    let burst = (s.renderer)
        .add_effect(device, queue, &fountain(0.0, 400, 0.5), 256, 3)
        .unwrap();
    assert!(
        s.renderer.counted(burst).is_none(),
        "nothing counted before a frame"
    );
    for _ in 0..4 {
        s.frame(&gpu, 1.0 / 60.0, true);
        gpu.wait().unwrap();
    }
    let counted = s.renderer.counted(burst).expect("counted by now");
    let snapshot = s.renderer.snapshot(device, queue, burst).unwrap().stats;
    assert_eq!((counted.alive, counted.emitted_total), (256, 256));
    assert_eq!(counted.dropped_total, 144);
    assert_eq!(counted.capacity, 256);
    assert_eq!(
        (counted.dropped_total, counted.requested_total),
        (snapshot.dropped_total, snapshot.requested_total)
    );
    // past their half-second lives they are all gone, and counted so
    for _ in 0..40 {
        s.frame(&gpu, 1.0 / 60.0, true);
    }
    gpu.wait().unwrap();
    s.frame(&gpu, 1.0 / 60.0, true);
    gpu.wait().unwrap();
    s.frame(&gpu, 0.0, true);
    let counted = s.renderer.counted(burst).unwrap();
    assert_eq!((counted.alive, counted.killed_total), (0, 256));
}

#[test]
fn a_cleared_effect_loses_every_particle_at_once_and_a_restarted_one_bursts_again() {
    let gpu = common::gpu();
    let mut s = scene(&gpu, &fountain(60.0, 200, 10.0));
    for _ in 0..10 {
        s.frame(&gpu, 1.0 / 30.0, true);
    }
    let before = s.snapshot(&gpu).unwrap().stats;
    assert!(before.alive >= 210, "{before:?}");
    s.renderer.clear(s.effect).unwrap();
    s.frame(&gpu, 1.0 / 30.0, true);
    let snap = s.snapshot(&gpu).unwrap();
    // only this frame's two spawns (60 a second), none older than the frame
    assert!(snap.stats.alive <= 3, "{:?}", snap.stats);
    for &i in &snap.alive {
        assert!(snap.particles[i as usize].age <= 1.0 / 30.0 + 1e-6);
    }
    assert!(
        snap.stats.emitted_total > before.emitted_total,
        "the totals are kept"
    );
    assert!(
        s.renderer.time(s.effect).unwrap() > 0.3,
        "the clock runs on"
    );
    s.renderer.pause(s.effect).unwrap();
    s.renderer.restart(s.effect).unwrap();
    assert_eq!(s.renderer.playback(s.effect), Some(Playback::Playing));
    let emitted = snap.stats.emitted_total;
    s.frame(&gpu, 1.0 / 30.0, true);
    let restarted = s.snapshot(&gpu).unwrap().stats;
    assert!((s.renderer.time(s.effect).unwrap() - 1.0 / 30.0).abs() < 1e-6);
    // the burst at 0 again, and this frame's spawns
    assert!((200..=203).contains(&restarted.alive), "{restarted:?}");
    assert_eq!(restarted.emitted_total, emitted + restarted.alive as u64);
}

#[test]
fn unknown_effects_and_time_scales_outside_0_to_100_are_refused() {
    let gpu = common::gpu();
    let mut s = scene(&gpu, &fountain(10.0, 0, 1.0));
    let gone = s.effect;
    assert!(s.renderer.remove_effect(gone));
    let e = s.renderer.pause(gone).unwrap_err().to_string();
    assert!(e.contains("id"), "{e}");
    assert!(s.renderer.clear(gone).is_err());
    assert_eq!(s.renderer.playback(gone), None);
    let (device, queue) = (&gpu.device, &gpu.queue);
    let id = s
        .renderer
        .add_effect(device, queue, &fountain(10.0, 0, 1.0), 64, 1)
        .unwrap();
    for bad in [-1.0, f32::NAN, 101.0] {
        let e = s.renderer.set_time_scale(id, bad).unwrap_err().to_string();
        assert!(e.contains("time_scale"), "{e}");
    }
    assert_eq!(s.renderer.time_scale(id), Some(1.0));
    s.renderer.set_time_scale(id, 0.0).unwrap();
    assert_eq!(s.renderer.time_scale(id), Some(0.0));
}

/// The heights of the living particles.
fn heights(snap: &PoolSnapshot) -> Vec<f32> {
    snap.alive
        .iter()
        .map(|&i| snap.particles[i as usize].pos.y)
        .collect()
}

/// The two-sample Kolmogorov–Smirnov statistic: the largest gap between the samples'
/// cumulative distributions.
fn ks_statistic(mut a: Vec<f32>, mut b: Vec<f32>) -> f64 {
    a.sort_by(f32::total_cmp);
    b.sort_by(f32::total_cmp);
    let (mut i, mut j, mut most) = (0, 0, 0.0f64);
    while i < a.len() && j < b.len() {
        let x = a[i].min(b[j]);
        while i < a.len() && a[i] <= x {
            i += 1;
        }
        while j < b.len() && b[j] <= x {
            j += 1;
        }
        let gap = (i as f64 / a.len() as f64 - j as f64 / b.len() as f64).abs();
        most = most.max(gap);
    }
    most
}

/// Rain on the host's plane prewarmed 5 s looks like 5 s of frames: its living particles'
/// count within 2 %, their heights one distribution by a two-sample Kolmogorov–Smirnov
/// test at 1 % (statistic below 1.628·√((n + m)/(n·m))), in under a quarter of the wall
/// time of stepping 60 Hz frames (each updated, simulated and drawn into a host of 640 ×
/// 360 and submitted, the GPU waited for at the end of both; frames that only simulate
/// cost about twice the prewarm on lavapipe, where the rain's simulate is most of its
/// step).
#[test]
fn rain_prewarmed_five_seconds_is_five_seconds_of_frames_in_a_quarter_of_the_time() {
    use common::host::{demos::Demo, stage::Stage};
    let gpu = common::gpu();
    let rain = |seed| Scene::for_demo_in(&gpu, Demo::Rain, Stage::Plane, 16384, seed, (640, 360));
    let wait = || {
        gpu.device
            .poll(flurry::wgpu::PollType::wait_indefinitely())
            .unwrap()
    };
    let dt = 1.0 / 60.0;
    let steps = (5.0f32 / dt).round() as u32;
    let (mut framed, mut warmed) = (rain(5).unwrap(), rain(6).unwrap());
    // one frame first for both: the plane's depth, which the drops die on
    for s in [&mut framed, &mut warmed] {
        s.frame(&gpu, dt, true);
    }
    wait();
    let start = std::time::Instant::now();
    for _ in 0..steps {
        framed.frame(&gpu, dt, true);
    }
    wait();
    let framing = start.elapsed();
    let start = std::time::Instant::now();
    let view = warmed.view();
    warmed
        .renderer
        .prewarm(&gpu.device, &gpu.queue, warmed.effect, (5.0, dt), view)
        .unwrap();
    wait();
    let prewarming = start.elapsed();
    let (a, b) = (
        framed.snapshot(&gpu).unwrap(),
        warmed.snapshot(&gpu).unwrap(),
    );
    let time = warmed.renderer.time(warmed.effect).unwrap();
    assert!((time - framed.renderer.time(framed.effect).unwrap()).abs() < 1e-3);
    let (n, m) = (a.stats.alive as f64, b.stats.alive as f64);
    assert!(n > 4000.0, "{:?}", a.stats);
    assert!(
        (m - n).abs() <= 0.02 * n,
        "alive: prewarmed {m}, framed {n}"
    );
    let d = ks_statistic(heights(&a), heights(&b));
    let critical = 1.628 * ((n + m) / (n * m)).sqrt();
    assert!(d < critical, "heights: D = {d:.4} (critical {critical:.4})");
    let ratio = prewarming.as_secs_f64() / framing.as_secs_f64();
    eprintln!("prewarm {prewarming:?} against {framing:?} of frames: {ratio:.3}");
    assert!(
        ratio < 0.25,
        "prewarm {prewarming:?} against {framing:?} of frames"
    );
}

/// Ten effects that together want twice a budget of 2,000 living particles: over 1,000
/// frames the living never outnumber it, yet fill most of it; the effect of the highest
/// priority keeps what its rate keeps alive, and the others' held-back spawns are counted.
#[test]
fn ten_effects_never_outnumber_the_budget_and_the_highest_priority_is_served_first() {
    let gpu = common::gpu();
    // 400 a second living 1 s: about 400 alive each, 4,000 wanted in all
    let desc = fountain(400.0, 0, 1.0);
    let mut s = scene(&gpu, &desc);
    let (device, queue) = (&gpu.device, &gpu.queue);
    let mut ids = vec![s.effect];
    ids.extend((1..10).map(|k| s.renderer.add_effect(device, queue, &desc, 512, k).unwrap()));
    const BUDGET: u64 = 2000;
    s.renderer.set_budget(Some(BUDGET));
    let first = ids[3];
    s.renderer.set_priority(first, 5).unwrap();
    let (mut late, mut least_scale) = (Vec::new(), 1.0f32);
    for frame in 0..1000 {
        s.frame(&gpu, 1.0 / 60.0, false);
        let alive: u64 = (ids.iter())
            .map(|&id| s.renderer.snapshot(device, queue, id).unwrap().stats.alive as u64)
            .sum();
        assert!(alive <= BUDGET, "frame {frame}: {alive} alive");
        if frame >= 900 {
            late.push(alive);
            least_scale = least_scale.min(s.renderer.budget_scale(ids[0]).unwrap());
        }
    }
    let mean = late.iter().sum::<u64>() as f64 / late.len() as f64;
    assert!(
        mean > 0.8 * BUDGET as f64,
        "the budget is used: {mean} alive on average"
    );
    assert!(least_scale < 1.0, "the others are held back");
    let stats = |id| s.renderer.snapshot(device, queue, id).unwrap().stats;
    let served = stats(first);
    assert!(served.alive >= 360, "kept at its rate's 400: {served:?}");
    assert!(
        served.held_back_total * 20 < served.requested_total,
        "{served:?}"
    );
    for &id in ids.iter().filter(|&&id| id != first) {
        let st = stats(id);
        assert!(
            st.held_back_total > 0 && st.held_back_total <= st.dropped_total,
            "{st:?}"
        );
    }
}

/// The camera of [`scene`] turned round: the fountain behind it.
fn looking_away(aspect: f32) -> Camera {
    Camera::look_at(Vec3::new(0.0, 2.0, 12.0), Vec3::new(0.0, 2.0, 30.0), aspect)
}

/// A fountain whose bounds leave the view as the camera turns away: frozen there (no
/// simulate recorded, every particle bit for bit, its clock stopped), it goes on from
/// where it was when seen again.
#[test]
fn a_frozen_effect_out_of_view_records_no_simulate_and_goes_on_when_seen() {
    let gpu = common::gpu();
    let mut s = scene(&gpu, &fountain(300.0, 0, 3.0));
    let id = s.effect;
    assert_eq!(s.renderer.off_screen(id), Some(OffScreen::Simulate));
    s.renderer.set_off_screen(id, OffScreen::Pause).unwrap();
    for _ in 0..10 {
        s.frame(&gpu, 1.0 / 30.0, true);
    }
    assert_eq!(s.renderer.is_on_screen(id), Some(true));
    let seen = s.camera;
    s.camera = looking_away(seen.aspect);
    s.frame(&gpu, 1.0 / 30.0, true);
    assert_eq!(s.renderer.is_on_screen(id), Some(false));
    let passes = s.renderer.passes();
    assert!(!passes.contains(&Pass::Simulate), "{passes:?}");
    let held = s.snapshot(&gpu).unwrap();
    let time = s.renderer.time(id).unwrap();
    for _ in 0..5 {
        s.frame(&gpu, 1.0 / 30.0, true);
    }
    assert_eq!(living(&s.snapshot(&gpu).unwrap()), living(&held));
    assert_eq!(s.renderer.time(id), Some(time), "its clock stopped");
    assert_eq!(
        s.renderer.playback(id),
        Some(Playback::Playing),
        "the host's choice"
    );
    s.camera = seen;
    s.frame(&gpu, 1.0 / 30.0, true);
    assert_eq!(s.renderer.is_on_screen(id), Some(true));
    assert!(s.renderer.passes().contains(&Pass::Simulate));
    let t = s.renderer.time(id).unwrap();
    assert!((t - time - 1.0 / 30.0).abs() < 1e-6, "{t} after {time}");
    assert!(s.snapshot(&gpu).unwrap().stats.emitted_total > held.stats.emitted_total);
}

/// By default an effect goes on out of view; one that catches up, seen again after 4 s
/// away, has run them: its clock and its living particles as the effect that went on.
#[test]
fn an_effect_out_of_view_goes_on_or_catches_up_when_seen() {
    let gpu = common::gpu();
    let desc = fountain(300.0, 0, 2.0);
    let (mut on, mut caught) = (scene(&gpu, &desc), scene(&gpu, &desc));
    caught
        .renderer
        .set_off_screen(caught.effect, OffScreen::CatchUp)
        .unwrap();
    let dt = 1.0 / 30.0;
    for s in [&mut on, &mut caught] {
        s.frame(&gpu, dt, false);
        let seen = s.camera;
        s.camera = looking_away(seen.aspect);
        for _ in 0..120 {
            s.frame(&gpu, dt, false);
        }
        assert_eq!(s.renderer.is_on_screen(s.effect), Some(false));
        s.camera = seen;
    }
    assert!(
        on.renderer.passes().contains(&Pass::Simulate),
        "simulated out of view"
    );
    assert!(!caught.renderer.passes().contains(&Pass::Simulate));
    assert!(caught.renderer.time(caught.effect).unwrap() < 0.1);
    for s in [&mut on, &mut caught] {
        s.frame(&gpu, dt, false);
    }
    let t = |s: &Scene| s.renderer.time(s.effect).unwrap();
    assert!(
        (t(&caught) - t(&on)).abs() < 1e-3,
        "{} against {}",
        t(&caught),
        t(&on)
    );
    let alive = |s: &Scene| s.snapshot(&gpu).unwrap().stats.alive as f32;
    let (a, b) = (alive(&on), alive(&caught));
    // 300 a second living 2 s
    assert!((a - 600.0).abs() < 30.0, "{a}");
    assert!((b - a).abs() <= 0.05 * a, "caught up {b}, went on {a}");
}

/// Whether an effect can be seen follows where the host places it and what it declares,
/// frame by frame, also while it stands still between placings (its bounds are then those
/// of the last look until its older spawns expire).
#[test]
fn an_effect_is_seen_where_the_host_places_it_and_declares_it() {
    let gpu = common::gpu();
    let mut s = scene(&gpu, &fountain(100.0, 0, 0.5));
    let id = s.effect;
    let seen = |s: &mut Scene| {
        s.frame(&gpu, 1.0 / 30.0, false);
        s.renderer.is_on_screen(id).unwrap()
    };
    for _ in 0..3 {
        assert!(seen(&mut s), "at the origin, in front of the camera");
    }
    let behind = glam::Mat4::from_translation(Vec3::new(0.0, 0.0, 60.0));
    s.renderer.set_transform(id, behind).unwrap();
    // (spawned in front less than a life ago: still seen until those spawns expire)
    let mut frames = 0;
    while seen(&mut s) {
        frames += 1;
        assert!(frames < 30, "its spawns in front expire after their 0.5 s");
    }
    for _ in 0..5 {
        assert!(!seen(&mut s), "standing still behind the camera");
    }
    let far = Aabb::new(Vec3::splat(100.0), Vec3::splat(101.0)).unwrap();
    s.renderer.set_transform(id, glam::Mat4::IDENTITY).unwrap();
    assert!(seen(&mut s), "back at the origin");
    s.renderer.declare_bounds(id, Some(far)).unwrap();
    assert!(!seen(&mut s), "declared far away");
    s.renderer.declare_bounds(id, None).unwrap();
    assert!(seen(&mut s), "its own bounds again");
    // an emitter moved behind the camera by the host: seen until what it spawned in front
    // expires, then no longer
    let emitter = fountain(100.0, 0, 0.5).emitters[0].clone();
    let behind = Shape::Point([0.0, 0.0, 60.0]);
    (s.renderer)
        .set_emitter(id, 0, behind, emitter.velocity, emitter.rate)
        .unwrap();
    let mut frames = 0;
    while seen(&mut s) {
        frames += 1;
        assert!(frames < 30, "an emitter behind the camera is not seen");
    }
    let b = s.renderer.bounds(id).unwrap();
    assert!(
        b.max.z >= 60.0,
        "its bounds hold where it spawns now: {b:?}"
    );
}

/// Where the host holds an effect at frame `frame`: along x, and for the later half of
/// the run turned and grown half as large again (its velocities with it).
fn moved(frame: u32, x: f32) -> glam::Mat4 {
    let at = Vec3::new(x, 0.0, 0.0);
    match frame < 120 {
        true => glam::Mat4::from_translation(at),
        false => {
            let turn = glam::Quat::from_rotation_z(0.4);
            glam::Mat4::from_scale_rotation_translation(Vec3::splat(1.5), turn, at)
        }
    }
}

/// An effect's bounds hold every particle it has, over a fountain's, fireworks' and a
/// burst's life, wherever the host moves, turns or scales it; an effect that cannot be
/// bounded so has none unless the host declares them.
#[test]
fn an_effects_bounds_hold_its_particles() {
    let gpu = common::gpu();
    let fireworks = EffectDesc::from_file(std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/effects/fireworks.ron"
    )))
    .unwrap();
    // drops drifting back along x at 2 m/s for 2 s (as the host carries the emitter on),
    // nothing else moving them: what the host's scale does to their velocities is all
    // their bounds may miss
    let drifting = EffectDesc {
        name: "drifting".into(),
        emitters: vec![EmitterDesc {
            shape: Shape::Point([0.0; 3]),
            rate: 100.0,
            velocity: Velocity::Linear {
                mean: [-2.0, 0.0, 0.0],
                variance: [0.0; 3],
            },
            lifetime: Range::constant(2.0),
            size: Range::constant(0.05),
            ..Default::default()
        }],
        forces: Forces::NONE,
        ..Default::default()
    };
    for desc in [fountain(300.0, 50, 2.0), fireworks, drifting] {
        let mut s = scene(&gpu, &desc);
        for frame in 0..240 {
            let x = 0.05 * frame as f32;
            s.renderer.set_transform(s.effect, moved(frame, x)).unwrap();
            s.frame(&gpu, 1.0 / 30.0, false);
            if frame % 40 != 39 {
                continue;
            }
            let b = s.renderer.bounds(s.effect).expect("bounded");
            let snap = s.snapshot(&gpu).unwrap();
            assert!(snap.stats.alive > 0);
            for &i in &snap.alive {
                let p = snap.particles[i as usize].pos;
                assert!(
                    p.cmpge(b.min).all() && p.cmple(b.max).all(),
                    "{}: a particle at {p} outside {b:?}",
                    desc.name
                );
            }
        }
    }
    let galaxy = common::host::demos::Demo::Galaxy.effect(4096);
    let mut s = scene(&gpu, &galaxy);
    assert_eq!(s.renderer.bounds(s.effect), None, "massive bodies move it");
    let declared = Aabb::new(Vec3::splat(-60.0), Vec3::splat(60.0)).unwrap();
    s.renderer.declare_bounds(s.effect, Some(declared)).unwrap();
    assert_eq!(s.renderer.bounds(s.effect), Some(declared));
    assert!(Aabb::new(Vec3::ONE, Vec3::ZERO).is_err());
}

/// Under a level of detail an effect spawns its full rates near the view and a share of
/// them far off: a quarter from 100 m, half way between at 50 m.
#[test]
fn a_far_effect_spawns_a_share_of_its_rates() {
    let gpu = common::gpu();
    let lod = flurry::Lod {
        near: 10.0,
        far: 90.0,
        far_rates: 0.25,
        mesh_pixels: 0.0,
    };
    let emitted = |distance: f32| {
        let mut s = scene(&gpu, &fountain(600.0, 0, 3.0));
        s.renderer.set_lod(s.effect, Some(lod)).unwrap();
        // seen from `distance` beyond the fountain's nearest bound, across the ground
        let near = s.renderer.bounds(s.effect).map_or(0.0, |b| b.max.z);
        let eye = Vec3::new(0.0, 0.0, near + distance);
        s.camera = Camera::look_at(eye, Vec3::ZERO, s.camera.aspect);
        for _ in 0..30 {
            s.frame(&gpu, 1.0 / 30.0, false);
        }
        s.snapshot(&gpu).unwrap().stats.emitted_total as f32
    };
    let (close, half, far) = (emitted(5.0), emitted(50.0), emitted(150.0));
    assert!((close - 600.0).abs() <= 2.0, "{close} within 10 m");
    assert!((half - 0.625 * 600.0).abs() <= 15.0, "{half} at 50 m");
    assert!((far - 0.25 * 600.0).abs() <= 10.0, "{far} at 150 m");
    let mut s = scene(&gpu, &fountain(1.0, 0, 1.0));
    let bad = flurry::Lod { far: 5.0, ..lod };
    let err = s
        .renderer
        .set_lod(s.effect, Some(bad))
        .unwrap_err()
        .to_string();
    assert!(err.contains("lod.far"), "{err}");
}
