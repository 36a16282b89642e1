//! Whether a system can be seen: its bounds in the world, kept from where it spawned over
//! its particles' longest life, tested against each frame's view; and what it does while
//! it cannot be ([`OffScreen`]).

use std::collections::VecDeque;

use super::ParticleSystem;
use crate::effect::reach::Reach;
use crate::view::ViewModel;
use crate::visibility::{Aabb, OffScreen};

/// A system's sight of the view.
#[derive(Debug, Default)]
pub(crate) struct Sight {
    /// How far its particles reach (None: unbounded).
    reach: Option<Reach>,
    /// Bounds the host declared, in place of its own.
    declared: Option<Aabb>,
    pub off_screen: OffScreen,
    /// Where it spawned last, in the world: (its time then, the box). Kept inline, apart
    /// from the older ones: an effect at rest reads only this one every frame.
    latest: Option<(f64, Aabb)>,
    /// Where it spawned before that, within its particles' longest life, oldest first.
    earlier: VecDeque<(f64, Aabb)>,
    /// Its bounds as the last view saw them.
    pub seen_bounds: Option<Aabb>,
    /// Its bounds lay wholly outside the last view.
    pub hidden: bool,
    /// Its seconds frozen out of view since it was last seen (to catch up).
    missed: f64,
    /// How often the host placed it (its transforms, instances, emitters or declared
    /// bounds): what it spawns in, and its bounds, change only then, or while older spawn
    /// boxes expire.
    placed: u64,
    /// What `placed` was at the last look, and where it spawned then.
    looked: Option<(u64, Option<Aabb>)>,
    /// The last look's bounds came from its latest spawn box alone.
    settled: bool,
}

impl Sight {
    pub fn new(reach: Option<Reach>) -> Self {
        Sight {
            reach,
            ..Default::default()
        }
    }

    /// How often the host placed it so far (its transforms, instances, emitters or
    /// declared bounds).
    pub fn placed(&self) -> u64 {
        self.placed
    }

    /// How far its particles reach from now on (an emitter changed); where it spawned
    /// before is kept.
    pub fn set_reach(&mut self, reach: Option<Reach>) {
        self.reach = reach;
    }
}

impl ParticleSystem {
    /// Where its particles can be now (None: unbounded and not declared).
    pub fn bounds(&self) -> Option<Aabb> {
        self.bounds_around(self.spawn_box())
    }

    /// Where its particles can be now, its emitters spawning in `spawning` now.
    fn bounds_around(&self, spawning: Option<Aabb>) -> Option<Aabb> {
        if let Some(declared) = self.sight.declared {
            return Some(declared);
        }
        let reach = self.sight.reach.as_ref()?;
        if let Some(city) = reach.city {
            return Some(city);
        }
        let spawned = (self.sight.earlier.iter().chain(&self.sight.latest))
            .map(|&(_, b)| b)
            .chain(spawning)
            .reduce(Aabb::union)?;
        let f = &self.effect.desc().forces;
        let bounds = reach.around(spawned, self.turned(), f.gravity.into(), f.wind.into());
        Some(match reach.confined {
            // (a box that kills or wraps them: never beyond it)
            Some(confined) => bounds.intersection(confined).unwrap_or(confined),
            None => bounds,
        })
    }

    /// Whether a transform of the host's turns or scales its emitters (and their
    /// velocities with them), not only moves them: then the most it scales them by.
    fn turned(&self) -> Option<f32> {
        let linear = |m: &glam::Mat4| glam::Mat3::from_mat4(*m);
        // (iterated again rather than collected: every effect is looked at every frame)
        let own = || (self.own_transforms().iter()).map(|e| linear(&(self.transform * *e)));
        let placed = || self.instances.list().iter().map(|i| linear(&i.transform));
        if own().chain(placed()).all(|m| m == glam::Mat3::IDENTITY) {
            return None;
        }
        let most = |ms: &mut dyn Iterator<Item = glam::Mat3>| {
            ms.flat_map(|m| [m.x_axis, m.y_axis, m.z_axis])
                .map(glam::Vec3::length)
                .fold(1.0f32, f32::max)
        };
        Some(most(&mut own()) * most(&mut placed()))
    }

    /// Where its scheduled emitters spawn now, in the world (each instance's place too).
    fn spawn_box(&self) -> Option<Aabb> {
        let reach = self.sight.reach.as_ref()?;
        let own = (reach.spawn.iter().zip(self.own_transforms()))
            .filter_map(|(b, t)| b.map(|b| b.transformed(self.transform * *t)))
            .reduce(Aabb::union)?;
        let instances = self.instances.list();
        if instances.is_empty() {
            return Some(own);
        }
        // each instance's ball round the box (one point carried, not eight: thousands of
        // instances are looked at every frame)
        let (centre, radius) = (
            (own.min + own.max) / 2.0,
            (own.max - own.min).length() / 2.0,
        );
        (instances.iter())
            .map(|i| {
                let m = i.transform;
                let scale = [m.x_axis, m.y_axis, m.z_axis]
                    .iter()
                    .map(|a| a.truncate().length())
                    .fold(0.0f32, f32::max);
                Aabb::ball(m.transform_point3(centre), radius * scale)
            })
            .reduce(Aabb::union)
    }

    /// Declare where its particles are (None: its own bounds, from its emitters, forces and
    /// lives).
    pub fn declare_bounds(&mut self, bounds: Option<Aabb>) {
        self.sight.declared = bounds;
        self.placed_again();
    }

    /// The host placed it again (a transform, its instances, an emitter): where it spawns
    /// and its bounds are worked out afresh at the next look.
    pub(crate) fn placed_again(&mut self) {
        self.sight.placed += 1;
    }

    pub fn set_off_screen(&mut self, off_screen: OffScreen) -> bool {
        self.sight.off_screen = off_screen;
        if off_screen != OffScreen::CatchUp {
            // (one that no longer catches up goes on from where it was)
            self.sight.missed = 0.0;
        }
        self.look_again()
    }

    pub fn off_screen(&self) -> OffScreen {
        self.sight.off_screen
    }

    /// Whether it lay in the last view (an unbounded effect always does).
    pub fn on_screen(&self) -> bool {
        !self.sight.hidden
    }

    /// At an update, before it steps `dt` of the host's seconds: keep where it spawns, and
    /// whether its bounds meet `view`; freeze or thaw it by its [`OffScreen`].
    /// Whether it froze or thawed (its batches must be made again).
    pub fn look(&mut self, view: &ViewModel, dt: f32) -> bool {
        let now = self.clock.time;
        // (where it spawns is worked out again only when the host placed it again: most
        // effects stand still, and every one is looked at every frame)
        let placed = self.sight.placed;
        let kept = self.sight.looked.filter(|&(p, _)| p == placed);
        let same_place = kept.is_some();
        let spawning = match kept {
            Some((_, spawned)) => spawned,
            None => self.spawn_box(),
        };
        self.sight.looked = Some((placed, spawning));
        if let Some(spawned) = spawning {
            let life = self.sight.reach.as_ref().map_or(0.0, |r| r.lifetime as f64);
            let sight = &mut self.sight;
            while sight.earlier.front().is_some_and(|&(t, _)| t < now - life) {
                sight.earlier.pop_front();
            }
            // (one box a frame while it moves; at rest, one for all)
            match &mut sight.latest {
                Some((t, b)) if *b == spawned => *t = now,
                latest => {
                    if let Some(before) = latest.replace((now, spawned)) {
                        sight.earlier.push_back(before);
                    }
                }
            }
        }
        // its bounds as at the last look while it spawns in one place and nothing older is
        // left to expire
        let settled = self.sight.earlier.is_empty();
        if !(same_place && settled && self.sight.settled) {
            self.sight.seen_bounds = self.bounds_around(spawning);
        }
        self.sight.settled = settled;
        self.sight.hidden = self
            .sight
            .seen_bounds
            .is_some_and(|b| !b.meets(&view.planes));
        let held_changed = self.look_again();
        // this frame's seconds go by unseen while it is frozen (a paused effect's do not go
        // by at all), also the frame it is seen again with seconds still to catch up: the
        // catch-up runs up to the present, this frame's step in it
        let playing = self.lifecycle.playback != crate::Playback::Paused;
        if self.lifecycle.out_of_view && self.sight.off_screen == OffScreen::CatchUp && playing {
            self.sight.missed += (dt * self.lifecycle.time_scale) as f64;
        }
        held_changed
    }

    /// Freeze or thaw it as its sight and [`OffScreen`] say; whether that changed whether
    /// it is held. One that catches up stays frozen when seen again until the next recorded
    /// frame has run the seconds it missed ([`ParticleSystem::take_catch_up`]).
    fn look_again(&mut self) -> bool {
        let was = self.lifecycle.held();
        let off_screen = self.sight.off_screen;
        let waiting = off_screen == OffScreen::CatchUp && self.sight.missed > 0.0;
        self.lifecycle.out_of_view =
            off_screen != OffScreen::Simulate && (self.sight.hidden || waiting);
        was != self.lifecycle.held()
    }

    /// Seen again, frozen, with seconds missed out of view to run before it is drawn: what
    /// the next recorded frame runs first.
    pub fn catch_up_due(&self) -> bool {
        self.is_bound()
            && self.lifecycle.out_of_view
            && !self.sight.hidden
            && self.sight.missed > 0.0
    }

    /// The seconds it missed, taken: what a catch-up runs now. It stays frozen for the rest
    /// of the frame (its step is in the catch-up) and thaws at the next look.
    pub fn take_catch_up(&mut self) -> f64 {
        std::mem::take(&mut self.sight.missed)
    }

    /// How much of `missed` seconds a catch-up runs (its particles' longest life: what is
    /// older is gone) and skips (the rest, its clock only).
    pub fn catch_up_split(&self, missed: f64) -> (f64, f64) {
        let life = self
            .sight
            .reach
            .as_ref()
            .map_or(missed, |r| r.lifetime as f64);
        let run = missed.min(life).min(crate::renderer::MAX_PREWARM as f64);
        (run, missed - run)
    }

    /// Advance its clock `seconds` without spawning or simulating (a catch-up's part older
    /// than its particles' lives).
    pub fn skip(&mut self, seconds: f64) {
        if seconds > 0.0 {
            self.clock.idle(seconds as f32);
        }
    }
}
