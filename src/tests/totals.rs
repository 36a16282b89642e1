//! Totals that never wrap: the GPU keeps them as 64-bit (a low and a high word), so a pool
//! that has emitted past 2^32 particles (72 minutes at a million a second) still reports
//! exact totals. Tested by starting the counters just below 2^32.

use super::{held, still, Solo};
use crate::effect::Shape;

#[test]
fn totals_carry_past_two_to_the_thirty_second() {
    // two bursts of 50 into a pool of 64: the second finds 14 free slots, so the GPU emits
    // 14 and drops 36, on totals 10 and 5 below the wrap of a 32-bit word
    let mut burst = held(Shape::Point([0.0; 3]), 50);
    burst.bursts.push(crate::effect::Burst::once(0.015, 50));
    let desc = still("bursts", vec![burst]);
    let mut solo = Solo::new(&desc, 64, 1);
    let camera = crate::Camera::look_at(glam::Vec3::Z, glam::Vec3::ZERO, 1.0);
    solo.frame(0.01, &camera);
    let mut counters = solo.snapshot().counters;
    assert_eq!((counters.emitted, counters.alive), (50, 50));
    counters.emitted = u32::MAX - 9;
    counters.dropped = u32::MAX - 4;
    let pool = solo.system.pool();
    let queue = &solo.gpu.queue;
    queue.write_buffer(
        &pool.counters.buffer,
        pool.counters.offset,
        bytemuck::bytes_of(&counters),
    );
    solo.frame(0.01, &camera);
    let snap = solo.snapshot();
    let start = 1u64 << 32;
    assert_eq!(snap.counters.emitted_total(), start - 10 + 14);
    assert_eq!(snap.counters.dropped_total(), start - 5 + 36);
    assert_eq!((snap.counters.emitted_hi, snap.counters.dropped_hi), (1, 1));
    assert_eq!(snap.stats.alive, 64);
    assert_eq!(snap.stats.emitted_total, start + 4);
}
