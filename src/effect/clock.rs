//! The spawn clock: how many particles each emitter asks for in a frame (continuous rate
//! with fractional carry, plus scheduled bursts), shared by the GPU system and the CPU twin.
//!
//! What the clock asks for waits as pending until a frame that records the emit takes it:
//! a frame that was updated but never recorded (a host that skipped drawing when its
//! surface was not ready) leaves its spawns, a t = 0 burst among them, to the next one.

use super::schema::{Burst, EffectDesc, Trigger};

/// The per-frame spawn clock: continuous rate with fractional carry plus scheduled bursts in
/// `[t, t + dt)`, and the spawns no recorded frame has taken yet.
#[derive(Clone, Debug, Default)]
pub(crate) struct SpawnClock {
    /// Seconds simulated so far.
    pub time: f64,
    carry: Vec<f64>,
    /// Spawns requested since the start, taken or pending.
    pub requested_total: u64,
    /// Per emitter: asked for, not taken yet (at most a pool's capacity in all).
    pending: Vec<u64>,
    /// Spawns sent to the emit pass so far: the ids of the pending ones start here.
    pub taken_total: u64,
}

impl SpawnClock {
    /// Advance the clock by `dt` seconds, adding what each emitter asks for to the
    /// pending spawns, and limit them to `capacity` (more cannot spawn in one frame; later
    /// emitters lose first). Returns how many were dropped so.
    pub fn advance(&mut self, desc: &EffectDesc, dt: f32, capacity: u32) -> u64 {
        let counts = self.counts(desc, dt);
        self.pending.resize(counts.len(), 0);
        for (p, c) in self.pending.iter_mut().zip(&counts) {
            *p += c;
        }
        let clamped = clamp_request(&self.pending, capacity);
        let before: u64 = self.pending.iter().sum();
        self.pending = clamped.iter().map(|&c| c as u64).collect();
        before - self.pending.iter().sum::<u64>()
    }

    /// The pending spawns per emitter (what the next recorded emit spawns).
    pub fn pending(&self) -> Vec<u32> {
        self.pending.iter().map(|&c| c as u32).collect()
    }

    /// How many spawns are pending.
    pub fn pending_total(&self) -> u64 {
        self.pending.iter().sum()
    }

    /// A frame recorded the emit of the pending spawns.
    pub fn take(&mut self) {
        self.taken_total += self.pending_total();
        self.pending.iter_mut().for_each(|p| *p = 0);
    }

    /// Spawn counts per emitter for a step of `dt` seconds, advancing the clock.
    fn counts(&mut self, desc: &EffectDesc, dt: f32) -> Vec<u64> {
        let dt = dt as f64;
        let (t0, t1) = (self.time, self.time + dt);
        self.carry.resize(desc.emitters.len(), 0.0);
        let counts = desc
            .emitters
            .iter()
            .zip(self.carry.iter_mut())
            .map(|(e, carry)| {
                if e.trigger != Trigger::Schedule {
                    return 0; // spawned on the GPU, at events
                }
                let exact = e.rate as f64 * dt + *carry;
                let whole = exact.floor();
                *carry = exact - whole;
                let bursts: u64 = e
                    .bursts
                    .iter()
                    .map(|b| burst_hits(b, t0, t1) * b.count as u64)
                    .sum();
                whole as u64 + bursts
            })
            .collect::<Vec<_>>();
        self.time = t1;
        self.requested_total += counts.iter().sum::<u64>();
        counts
    }
}

/// How many occurrences of `b` fall in `[t0, t1)`.
fn burst_hits(b: &Burst, t0: f64, t1: f64) -> u64 {
    let start = b.time as f64;
    match b.every {
        None => (start >= t0 && start < t1) as u64,
        Some(every) => {
            let every = every as f64;
            // occurrences k >= 0 with t0 <= start + k·every < t1
            let first = ((t0 - start) / every).ceil().max(0.0);
            let end = ((t1 - start) / every).ceil().max(0.0);
            let end = match b.cycles {
                Some(c) => end.min(c as f64),
                None => end,
            };
            (end - first).max(0.0) as u64
        }
    }
}

/// Limit a frame's request to the pool's capacity (anything beyond it must drop anyway);
/// later emitters lose first. The excess is counted as dropped by the caller.
fn clamp_request(counts: &[u64], capacity: u32) -> Vec<u32> {
    let mut left = capacity as u64;
    counts
        .iter()
        .map(|&c| {
            let take = c.min(left);
            left -= take;
            take as u32
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::effect::{EmitterDesc, Range};

    #[test]
    fn spawn_clock_carries_fractions_and_repeats_bursts() {
        let d = EffectDesc {
            emitters: vec![EmitterDesc {
                rate: 10.0,
                bursts: vec![Burst {
                    every: Some(0.5),
                    cycles: Some(3),
                    ..Burst::once(0.0, 100)
                }],
                lifetime: Range::constant(1.0),
                ..Default::default()
            }],
            ..Default::default()
        };
        let mut clock = SpawnClock::default();
        let total: u64 = (0..100)
            .map(|_| {
                assert_eq!(clock.advance(&d, 0.03, 1000), 0);
                let n = clock.pending()[0] as u64;
                clock.take();
                n
            })
            .sum();
        // 3 s at 10/s = 30 (to within the carry), and three bursts of 100
        assert!((329..=330).contains(&total), "{total}");
        assert_eq!(clock.requested_total, total);
        assert_eq!(clock.taken_total, total);
    }

    #[test]
    fn spawns_no_frame_took_wait_for_the_next_one() {
        let d = EffectDesc {
            emitters: vec![EmitterDesc {
                rate: 100.0,
                bursts: vec![Burst::once(0.0, 50)],
                ..Default::default()
            }],
            ..Default::default()
        };
        let mut clock = SpawnClock::default();
        clock.advance(&d, 0.1, 1000); // the t = 0 burst and 10, never recorded
        clock.advance(&d, 0.1, 1000);
        assert_eq!(clock.pending(), [70]);
        clock.take();
        assert_eq!((clock.pending(), clock.taken_total), (vec![0], 70));
        // more than the pool holds is dropped, not kept for later
        let dropped = clock.advance(&d, 1.0, 60);
        assert_eq!((clock.pending(), dropped), (vec![60], 40));
        assert_eq!(clock.requested_total, 170);
    }

    #[test]
    fn requests_beyond_the_pool_are_cut_from_the_last_emitters() {
        assert_eq!(clamp_request(&[30, 50, 40], 60), [30, 30, 0]);
        assert_eq!(clamp_request(&[5, 6], 100), [5, 6]);
    }
}
