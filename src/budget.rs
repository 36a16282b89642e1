//! A renderer-wide budget of living particles ([`crate::ParticleRenderer::set_budget`]).
//!
//! The GPU's alive counts reach the CPU a frame or two late, so each effect's living
//! particles are bounded from above: its count at the last frame read back, plus every
//! spawn asked of its emit since (deaths only lower it). A frame's spawns are allowed only
//! as far as the bounds leave room under the budget, effects of a higher priority first;
//! where a priority's effects want more than is left, each gets the same share of what it
//! wants. Room that frees up as particles die would go to whoever asks first, and a full
//! budget frees little at a time: so the effects of a lower priority also leave room for
//! what those of a higher one are still to grow to (the particles their rates keep alive,
//! rate × mean lifetime, less what they have). So the living never outnumber the budget,
//! whatever the lag; what effects spawn at their particles' hits and deaths (on the GPU) is
//! not held to it.

/// Frames of spawns an effect remembers while its counts are not read back; past them its
/// bound is its pool's capacity.
const REMEMBERED: usize = 16;

/// One effect's place under the budget.
#[derive(Clone, Debug, Default)]
pub(crate) struct EffectBudget {
    /// The spawns the budget allows it this frame (None: no budget).
    pub allowed: Option<u64>,
    /// What the budget allowed of what it wanted, this frame (1: all of it).
    pub scale: Option<f32>,
    /// Spawns held back by the budget since it was added.
    pub held_back_total: u64,
    /// Higher first.
    pub priority: i32,
    /// (frame, spawns asked of its emit) of its frames after the last read back.
    recent: Recent,
    /// More frames went by unread than are remembered.
    forgotten: bool,
}

/// The last [`REMEMBERED`] frames' spawns, oldest first: a ring inside the budget, not a
/// list elsewhere (every effect's is written every frame it spawns).
#[derive(Clone, Copy, Debug, Default)]
struct Recent {
    frames: [(u64, u32); REMEMBERED],
    /// Where the oldest is, and how many there are.
    start: usize,
    len: usize,
}

impl Recent {
    fn len(&self) -> usize {
        self.len
    }

    fn front(&self) -> Option<&(u64, u32)> {
        (self.len > 0).then(|| &self.frames[self.start])
    }

    fn pop_front(&mut self) {
        if self.len > 0 {
            self.start = (self.start + 1) % REMEMBERED;
            self.len -= 1;
        }
    }

    /// Keep `frame` (the caller makes room first).
    fn push_back(&mut self, frame: (u64, u32)) {
        debug_assert!(self.len < REMEMBERED);
        self.frames[(self.start + self.len) % REMEMBERED] = frame;
        self.len += 1;
    }

    fn iter(&self) -> impl Iterator<Item = &(u64, u32)> {
        (0..self.len).map(|k| &self.frames[(self.start + k) % REMEMBERED])
    }
}

impl EffectBudget {
    /// Its frame `frame` asked its emit for `request` spawns.
    pub fn spawned(&mut self, frame: u64, request: u32) {
        if request == 0 {
            return;
        }
        if self.recent.len() == REMEMBERED {
            self.recent.pop_front();
            self.forgotten = true;
        }
        self.recent.push_back((frame, request));
    }

    /// The most particles it can have alive now, its count at the end of frame `frame`
    /// being `alive` (None: never read back) in a pool of `capacity`.
    pub fn bound(&mut self, observed: Option<(u64, u32)>, capacity: u32) -> u64 {
        let since = match observed {
            Some((frame, alive)) => {
                // what came before the count is in it
                while self.recent.front().is_some_and(|&(f, _)| f <= frame) {
                    self.recent.pop_front();
                    self.forgotten = false;
                }
                alive as u64
            }
            None => 0,
        };
        let recent: u64 = self.recent.iter().map(|&(_, n)| n as u64).sum();
        match self.forgotten {
            true => capacity as u64,
            false => (since + recent).min(capacity as u64),
        }
    }
}

/// One effect as the budget sees it: its priority, the bound of its living, the spawns it
/// wants this frame, and how many its rates keep alive.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Claim {
    pub priority: i32,
    pub bound: u64,
    pub wanted: u64,
    pub steady: u64,
}

/// The spawns each claim is allowed under `budget`: room is what the bounds leave, given to
/// the highest priority first; a priority that wants more than is left gets the same
/// share of it for each of its effects (rounded down). A lower priority is given only what
/// is left beside the room the higher ones are still to grow into (their steady living
/// less their bound and what they were just given).
pub(crate) fn allocate(budget: u64, claims: &[Claim]) -> Vec<u64> {
    let living: u64 = claims.iter().map(|c| c.bound).sum();
    let mut left = budget.saturating_sub(living);
    let mut allowed = vec![0; claims.len()];
    let mut reserved = 0u64;
    let mut priorities: Vec<i32> = claims.iter().map(|c| c.priority).collect();
    priorities.sort_unstable_by(|a, b| b.cmp(a));
    priorities.dedup();
    for priority in priorities {
        let tier: Vec<usize> = (0..claims.len())
            .filter(|&i| claims[i].priority == priority)
            .collect();
        let room = left.saturating_sub(reserved);
        let wanted: u64 = tier.iter().map(|&i| claims[i].wanted).sum();
        let share = match wanted {
            0 => 1.0,
            w => (room as f64 / w as f64).min(1.0),
        };
        for &i in &tier {
            let c = &claims[i];
            allowed[i] = (c.wanted as f64 * share).floor() as u64;
            left -= allowed[i];
            reserved += c.steady.saturating_sub(c.bound + allowed[i]);
        }
    }
    allowed
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claim(priority: i32, bound: u64, wanted: u64) -> Claim {
        Claim {
            priority,
            bound,
            wanted,
            steady: 0,
        }
    }

    #[test]
    fn room_goes_to_the_higher_priority_first_and_a_tier_shares_what_is_left() {
        // 1,000 under the budget: the first tier wants 600 (all given), the second 800
        // (400 left: half each), the third nothing
        let claims = [
            claim(2, 500, 600),
            claim(1, 1000, 200),
            claim(1, 500, 600),
            claim(0, 0, 50),
        ];
        assert_eq!(allocate(3000, &claims), vec![600, 100, 300, 0]);
        // over the budget already: nothing for anyone
        assert_eq!(allocate(1000, &claims), vec![0; 4]);
        // room for all
        assert_eq!(allocate(10_000, &claims), vec![600, 200, 600, 50]);
    }

    #[test]
    fn a_lower_priority_leaves_room_for_what_a_higher_one_is_still_to_grow_to() {
        // the first keeps 800 alive at its rates and has 300: 490 of the 700 left are kept
        // for it beyond the 10 it asks for now, and the second shares the other 200
        let first = Claim {
            steady: 800,
            ..claim(1, 300, 10)
        };
        let claims = [first, claim(0, 1000, 400)];
        assert_eq!(allocate(2000, &claims), vec![10, 200]);
        // grown to what its rates keep alive, it keeps nothing back
        let grown = Claim {
            bound: 800,
            ..first
        };
        assert_eq!(allocate(2200, &[grown, claim(0, 1000, 400)]), vec![10, 390]);
    }

    #[test]
    fn an_effects_bound_is_its_last_count_and_what_it_asked_for_since() {
        let mut b = EffectBudget::default();
        b.spawned(1, 100);
        b.spawned(2, 50);
        b.spawned(3, 25);
        assert_eq!(b.bound(None, 1000), 175);
        // frame 2 counted 120 alive: frame 3's spawns may have joined them
        assert_eq!(b.bound(Some((2, 120)), 1000), 145);
        assert_eq!(b.bound(Some((2, 120)), 130), 130, "never past the pool");
        // unread for longer than it remembers: the pool's capacity
        for f in 4..40 {
            b.spawned(f, 1);
        }
        assert_eq!(b.bound(Some((2, 120)), 1000), 1000);
        assert_eq!(b.bound(Some((39, 7)), 1000), 7);
    }
}
