//! What a steady frame allocates on the host's thread does not grow with the effects it
//! holds (it did by six allocations an effect: each effect's spawn clock, emitters' motion
//! and bounds were lists made anew every frame). (A counting
//! allocator wraps the system's; only this thread's allocations are counted, so the
//! driver's threads and the test harness's do not blur the count.)

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use flurry::effect::*;
use flurry::glam::Vec3;
use flurry::{Camera, ParticleRenderer};

use common::host::HeadlessTarget;

struct Counting;

thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count();
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// One allocation more, if this thread counts (`try_with`: never during its teardown).
fn count() {
    let _ = COUNTING.try_with(|on| {
        if on.get() {
            let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
        }
    });
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// A small puff that keeps its pool about full, at `x`.
fn puff(x: f32) -> EffectDesc {
    EffectDesc {
        name: "puff".into(),
        emitters: vec![EmitterDesc {
            shape: Shape::Sphere {
                center: [x, 0.0, 0.0],
                radius: 0.3,
                surface: false,
            },
            rate: 600.0,
            velocity: Velocity::Linear {
                mean: [0.0, 0.8, 0.0],
                variance: [0.3, 0.2, 0.3],
            },
            lifetime: Range::new(1.5, 0.3),
            size: Range::new(0.12, 0.03),
            ..Default::default()
        }],
        forces: Forces::NONE,
        ..Default::default()
    }
}

/// The median allocations of the host thread's update + encode, over 20 frames after 20,
/// with `n` puffs in pools of 1,024.
fn allocations_a_frame(n: u32) -> u64 {
    let gpu = common::gpu();
    let target = HeadlessTarget::new(&gpu.device, 64, 48);
    let mut renderer =
        ParticleRenderer::new(&gpu.device, HeadlessTarget::TARGETS, common::settings()).unwrap();
    for i in 0..n {
        let desc = puff(i as f32 * 0.5 - n as f32 * 0.25);
        renderer
            .add_effect(&gpu.device, &gpu.queue, &desc, 1024, i + 1)
            .unwrap();
    }
    let camera = Camera::look_at(Vec3::new(0.0, 0.0, 60.0), Vec3::ZERO, 4.0 / 3.0);
    let mut counts = Vec::new();
    for frame in 0..40 {
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        target.encode_scene(&mut encoder, [0.0, 0.0, 0.0, 1.0], None);
        ALLOCATIONS.with(|c| c.set(0));
        COUNTING.with(|c| c.set(true));
        renderer
            .update(&gpu.device, &gpu.queue, 1.0 / 60.0, camera, target.size())
            .unwrap();
        renderer
            .encode(&gpu.device, &mut encoder, &target.frame())
            .unwrap();
        COUNTING.with(|c| c.set(false));
        if frame >= 20 {
            counts.push(ALLOCATIONS.with(Cell::get));
        }
        gpu.queue.submit([encoder.finish()]);
        gpu.wait().unwrap();
    }
    counts.sort_unstable();
    counts[counts.len() / 2]
}

/// Update + encode of a steady frame allocate no more for each effect they hold: from 2
/// to 100 small effects (stepped, culled and drawn in batches and one merged list), under
/// one allocation more for each ten effects more. What does grow is wgpu's recording of
/// the batches' dispatches (a batch holds 60 effects: each more is a few commands more in
/// lists wgpu grows as it records); update allocates as often for 100 effects as for one.
#[test]
fn a_steady_frame_allocates_next_to_nothing_more_for_more_effects() {
    let one = allocations_a_frame(1);
    let two = allocations_a_frame(2);
    let hundred = allocations_a_frame(100);
    println!("allocations a steady frame: 1 effect {one}, 2 effects {two}, 100 effects {hundred}");
    let more = hundred.saturating_sub(two);
    assert!(
        more * 10 < 98,
        "a frame of 100 effects allocates {hundred} times, of two {two}"
    );
}
