//! The spawn clock: how many particles each emitter asks for in a frame (continuous rate
//! with fractional carry, plus scheduled bursts), shared by the GPU system and the CPU twin.
//!
//! What the clock asks for waits as pending until a frame that records the emit takes it:
//! a frame that was updated but never recorded (a host that skipped drawing when its
//! surface was not ready) leaves its spawns, a t = 0 burst among them, to the next one.
//!
//! Spawns carry their time within the frame: the continuous ones are spread evenly over
//! it, a burst is born when it is due (so a hose held still draws a stream, not one clump
//! per frame). Spawns left pending by a frame nobody recorded are overdue: their bursts are
//! born at the start of the frame that takes them.

use super::graph::spawn::Spawning;
use super::schema::{Burst, EffectDesc, Trigger};
use super::MAX_EMITTERS;

/// The per-frame spawn clock: continuous rate with fractional carry plus scheduled bursts in
/// `[t, t + dt)`, and the spawns no recorded frame has taken yet.
#[derive(Clone, Debug, Default)]
pub(crate) struct SpawnClock {
    /// Seconds simulated so far.
    pub time: f64,
    /// Per emitter: the fraction of a spawn its rate carries into the next frame. (Inline
    /// arrays, not lists: every effect's clock is read every frame, and a list is one more
    /// load to wait for.)
    carry: [f64; MAX_EMITTERS],
    /// Spawns requested since the start, taken or pending.
    pub requested_total: u64,
    /// Per emitter: asked for, not taken yet (at most a pool's capacity in all); none past
    /// the effect's emitters.
    pending: [Pending; MAX_EMITTERS],
    /// Spawns sent to the emit pass so far: the ids of the pending ones start here.
    pub taken_total: u64,
}

/// One emitter's spawns for the next emit pass: `burst` of them born together at `burst_at`
/// (a fraction of the frame, 0 = its start), then `spread` born one after another at even
/// intervals over the frame.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Spawns {
    pub burst: u32,
    pub burst_at: f32,
    pub spread: u32,
}

impl Spawns {
    /// Every spawn, bursts and spread.
    pub fn total(&self) -> u32 {
        self.burst + self.spread
    }
}

/// One emitter's pending spawns (`Spawns` before the pool's limit).
#[derive(Clone, Copy, Debug, Default)]
struct Pending {
    burst: u64,
    burst_at: f64,
    spread: u64,
}

impl Pending {
    fn total(&self) -> u64 {
        self.burst.saturating_add(self.spread)
    }
}

impl SpawnClock {
    /// Advance the clock by `dt` seconds, adding what each emitter asks for to the
    /// pending spawns (at the rate and burst factor `spawning` gives it, where it gives one:
    /// the spawn stage's; else its `rate` and its bursts' counts), and limit them to
    /// `capacity` (more cannot spawn in one frame; later emitters lose first). Returns how
    /// many were dropped so.
    pub fn advance(
        &mut self,
        desc: &EffectDesc,
        dt: f32,
        capacity: u32,
        spawning: &[Spawning],
    ) -> u64 {
        let counts = self.counts(desc, dt, spawning);
        let emitters = desc.emitters.len().min(MAX_EMITTERS);
        for (p, c) in self.pending[..emitters].iter_mut().zip(&counts) {
            // bursts left by a frame nobody recorded are overdue: born at this one's start
            p.burst_at = if p.burst > 0 { 0.0 } else { c.burst_at };
            p.burst = p.burst.saturating_add(c.burst);
            p.spread = p.spread.saturating_add(c.spread);
        }
        let before = self.pending_total();
        clamp_request(&mut self.pending, capacity);
        before - self.pending_total()
    }

    /// The pending spawns per emitter (what the next recorded emit spawns), none past its
    /// emitters (an array, not a list: every effect asks every frame).
    pub fn pending(&self) -> [Spawns; MAX_EMITTERS] {
        let mut spawns = [Spawns::default(); MAX_EMITTERS];
        for (s, p) in spawns.iter_mut().zip(&self.pending) {
            *s = Spawns {
                burst: p.burst as u32,
                burst_at: p.burst_at as f32,
                spread: p.spread as u32,
            };
        }
        spawns
    }

    /// How many spawns are pending.
    pub fn pending_total(&self) -> u64 {
        self.pending.iter().map(Pending::total).sum()
    }

    /// Advance the clock by `dt` seconds asking for nothing (an effect that stopped
    /// emitting): its bursts in that time are skipped, its rates' carry kept.
    pub fn idle(&mut self, dt: f32) {
        self.time += dt as f64;
    }

    /// Drop the pending spawns (an effect that stopped emitting, or was cleared): they
    /// count as never asked for.
    pub fn drop_pending(&mut self) {
        self.requested_total = self.requested_total.saturating_sub(self.pending_total());
        self.pending
            .iter_mut()
            .for_each(|p| *p = Pending::default());
    }

    /// Back to time 0 with nothing pending (an effect restarted): its bursts at 0 are due
    /// again; what it asked for and took so far is kept.
    pub fn restart(&mut self) {
        self.drop_pending();
        self.time = 0.0;
        self.carry = [0.0; MAX_EMITTERS];
    }

    /// A frame recorded the emit of the pending spawns.
    pub fn take(&mut self) {
        self.taken_total += self.pending_total();
        self.pending
            .iter_mut()
            .for_each(|p| *p = Pending::default());
    }

    /// What each emitter asks for in a step of `dt` seconds, advancing the clock.
    fn counts(
        &mut self,
        desc: &EffectDesc,
        dt: f32,
        spawning: &[Spawning],
    ) -> [Pending; MAX_EMITTERS] {
        let dt = dt as f64;
        let (t0, t1) = (self.time, self.time + dt);
        let mut counts = [Pending::default(); MAX_EMITTERS];
        let emitters = desc.emitters.iter().zip(self.carry.iter_mut());
        for (i, (count, (e, carry))) in counts.iter_mut().zip(emitters).enumerate() {
            if e.trigger != Trigger::Schedule {
                continue; // spawned on the GPU, at events: none asked for here
            }
            *count = {
                let (rate, factor) = spawning.get(i).map_or((e.rate, 1.0), |s| (s.rate, s.burst));
                let exact = rate as f64 * dt + *carry;
                let whole = exact.floor();
                *carry = exact - whole;
                let mut burst = 0;
                let mut first_due = t1;
                for b in &e.bursts {
                    if let Some((hits, due)) = burst_hits(b, t0, t1) {
                        burst = (burst + hits.saturating_mul(scaled(b.count, factor)))
                            .min(MAX_FRAME_REQUEST);
                        first_due = first_due.min(due);
                    }
                }
                Pending {
                    burst,
                    // several bursts in one frame are born together, at the first one's time
                    burst_at: if burst > 0 {
                        (first_due - t0) / dt
                    } else {
                        0.0
                    },
                    // (a spawn stage may ask for 1e30 a second: what no pool holds, held
                    // to what a frame can count)
                    spread: whole.min(MAX_FRAME_REQUEST as f64) as u64,
                }
            };
        }
        self.time = t1;
        let asked = counts.iter().map(Pending::total).sum::<u64>();
        self.requested_total = self.requested_total.saturating_add(asked);
        counts
    }
}

/// The most spawns one emitter asks for in a frame, of its rate and of its bursts each:
/// more than any pool holds (what a pool cannot hold is dropped and counted), and few enough
/// that the totals counted over 2³² frames do not wrap.
pub(crate) const MAX_FRAME_REQUEST: u64 = u32::MAX as u64;

/// How many occurrences of `b` fall in `[t0, t1)`, and when the first does; `None` if none.
/// A burst's `count` times the spawn stage's `factor` (1: as written), to the nearest whole.
fn scaled(count: u32, factor: f32) -> u64 {
    if factor == 1.0 {
        return count as u64;
    }
    (count as f64 * factor as f64).round().min(u32::MAX as f64) as u64
}

fn burst_hits(b: &Burst, t0: f64, t1: f64) -> Option<(u64, f64)> {
    let start = b.time as f64;
    let (hits, due) = match b.every {
        None => ((start >= t0 && start < t1) as u64, start),
        Some(every) => {
            let every = every as f64;
            // occurrences k >= 0 with t0 <= start + k·every < t1
            let first = ((t0 - start) / every).ceil().max(0.0);
            let end = ((t1 - start) / every).ceil().max(0.0);
            let end = match b.cycles {
                Some(c) => end.min(c as f64),
                None => end,
            };
            ((end - first).max(0.0) as u64, start + first * every)
        }
    };
    // (the clamp only mends rounding: the first occurrence lies in the frame)
    (hits > 0).then(|| (hits, due.clamp(t0, t1)))
}

/// Whether `desc`'s schedule asks for anything at or after `time` seconds: an emitter of
/// the schedule with a rate, or a burst still to come.
pub(crate) fn schedules_after(desc: &EffectDesc, time: f64) -> bool {
    let scheduled = desc
        .emitters
        .iter()
        .filter(|e| e.trigger == Trigger::Schedule);
    scheduled
        .into_iter()
        .any(|e| e.rate > 0.0 || e.bursts.iter().any(|b| due_after(b, time)))
}

/// Whether burst `b` occurs at or after `time` (a repeating one without an end always does).
fn due_after(b: &Burst, time: f64) -> bool {
    if b.count == 0 {
        return false;
    }
    let last = match (b.every, b.cycles) {
        (None, _) => b.time as f64,
        (Some(_), None) => return true,
        (Some(_), Some(0)) => return false,
        (Some(every), Some(c)) => b.time as f64 + (c - 1) as f64 * every as f64,
    };
    last >= time
}

/// Limit a frame's request to the pool's capacity (anything beyond it must drop anyway);
/// later emitters lose first, and within one its spread spawns before its bursts. The
/// excess is counted as dropped by the caller.
fn clamp_request(pending: &mut [Pending], capacity: u32) {
    let mut left = capacity as u64;
    for p in pending {
        p.burst = p.burst.min(left);
        left -= p.burst;
        p.spread = p.spread.min(left);
        left -= p.spread;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::effect::{EmitterDesc, Range};

    #[test]
    fn a_schedule_asks_for_more_while_a_rate_runs_or_a_burst_is_to_come() {
        let mut desc = EffectDesc {
            emitters: vec![crate::effect::EmitterDesc {
                rate: 0.0,
                bursts: vec![Burst::once(1.0, 10)],
                ..Default::default()
            }],
            ..Default::default()
        };
        assert!(schedules_after(&desc, 0.5) && schedules_after(&desc, 1.0));
        assert!(!schedules_after(&desc, 1.01));
        desc.emitters[0].bursts = vec![Burst {
            time: 0.0,
            count: 5,
            every: Some(0.5),
            cycles: Some(3),
        }];
        assert!(schedules_after(&desc, 1.0) && !schedules_after(&desc, 1.2));
        desc.emitters[0].bursts[0].cycles = None;
        assert!(schedules_after(&desc, 1e6));
        desc.emitters[0].bursts.clear();
        desc.emitters[0].rate = 1.0;
        assert!(schedules_after(&desc, 1e6));
    }

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
                assert_eq!(clock.advance(&d, 0.03, 1000, &[]), 0);
                let n = clock.pending()[0].total() as u64;
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
        clock.advance(&d, 0.1, 1000, &[]); // the t = 0 burst and 10, never recorded
        clock.advance(&d, 0.1, 1000, &[]);
        // the overdue burst is born at the start of the frame that takes it
        let due = Spawns {
            burst: 50,
            burst_at: 0.0,
            spread: 20,
        };
        assert_eq!(clock.pending()[..1], [due]);
        clock.take();
        assert_eq!(clock.pending_total(), 0);
        assert_eq!(clock.taken_total, 70);
        // more than the pool holds is dropped, not kept for later
        let dropped = clock.advance(&d, 1.0, 60, &[]);
        assert_eq!((clock.pending()[0].total(), dropped), (60, 40));
        assert_eq!(clock.requested_total, 170);
    }

    /// A spawn stage asking for 1e30 a second, and bursts scaled past any count: a frame
    /// asks for at most [`MAX_FRAME_REQUEST`] an emitter, the pool takes what it holds, and
    /// the totals count on without wrapping (they once wrapped to 18446744073709551606).
    #[test]
    fn an_absurd_request_is_held_and_the_totals_do_not_wrap() {
        let d = EffectDesc {
            emitters: vec![EmitterDesc {
                rate: 10.0,
                bursts: vec![Burst {
                    time: 0.0,
                    count: u32::MAX,
                    every: Some(1e-3),
                    cycles: None,
                }],
                ..Default::default()
            }],
            ..Default::default()
        };
        let absurd = [Spawning {
            rate: 1e30,
            burst: 1e30,
        }];
        let mut clock = SpawnClock::default();
        for frame in 1..=5u64 {
            let dropped = clock.advance(&d, 0.1, 1000, &absurd);
            assert_eq!(clock.pending()[0].total(), 1000, "the pool's share");
            assert_eq!(dropped, 2 * MAX_FRAME_REQUEST - 1000);
            assert_eq!(clock.requested_total, frame * 2 * MAX_FRAME_REQUEST);
            clock.take();
        }
    }

    #[test]
    fn bursts_are_born_when_they_are_due() {
        let d = EffectDesc {
            emitters: vec![EmitterDesc {
                rate: 30.0,
                bursts: vec![
                    Burst::once(0.125, 7),
                    Burst {
                        every: Some(0.25),
                        cycles: Some(2),
                        ..Burst::once(0.15, 3)
                    },
                ],
                ..Default::default()
            }],
            ..Default::default()
        };
        let mut clock = SpawnClock::default();
        let frame = |clock: &mut SpawnClock| {
            clock.advance(&d, 0.1, 1000, &[]);
            let s = clock.pending()[0];
            clock.take();
            s
        };
        // [0, 0.1): only the rate
        let s = frame(&mut clock);
        assert_eq!((s.burst, s.spread), (0, 3));
        // [0.1, 0.2): the burst at 0.125 and the first repeat at 0.15, born together at
        // the first one's time
        let s = frame(&mut clock);
        assert_eq!((s.burst, s.spread), (10, 3));
        assert!((s.burst_at - 0.25).abs() < 1e-5, "{}", s.burst_at);
        // [0.2, 0.3): nothing due; [0.3, 0.4): the repeat at 0.4 is not in it
        assert_eq!(frame(&mut clock).burst, 0);
        assert_eq!(frame(&mut clock).burst, 0);
        // [0.4, 0.5): the second repeat, at the frame's start
        let s = frame(&mut clock);
        assert_eq!(s.burst, 3);
        assert!(s.burst_at.abs() < 1e-5, "{}", s.burst_at);
    }

    #[test]
    fn requests_beyond_the_pool_are_cut_from_the_last_emitters() {
        let pending = |burst, spread| Pending {
            burst,
            spread,
            burst_at: 0.0,
        };
        let mut p = [pending(10, 20), pending(20, 30), pending(0, 40)];
        clamp_request(&mut p, 60);
        let kept: Vec<_> = p.iter().map(|p| (p.burst, p.spread)).collect();
        // the second emitter keeps its burst and loses its spread spawns first
        assert_eq!(kept, [(10, 20), (20, 10), (0, 0)]);
        let mut p = [pending(2, 3), pending(0, 6)];
        clamp_request(&mut p, 100);
        assert_eq!((p[0].total(), p[1].total()), (5, 6));
    }
}
