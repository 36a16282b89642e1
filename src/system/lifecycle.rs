//! A system's lifecycle: play, pause, stop emitting, clear, restart, its time scale
//! ([`crate::playback`]).

use super::ParticleSystem;
use crate::effect::clock::schedules_after;
use crate::playback::{Lifecycle, Playback};
use crate::pool::Stats;
use crate::types::Counters;

impl ParticleSystem {
    pub fn lifecycle(&self) -> Lifecycle {
        self.lifecycle
    }

    /// Play, pause or stop emitting from the next update on. Whether the batches must be
    /// made again (a paused pool leaves them, a resumed one may join them).
    pub fn set_playback(&mut self, playback: Playback) -> bool {
        let was = self.lifecycle;
        self.lifecycle.playback = playback;
        if playback == Playback::Stopped && was.playback != Playback::Stopped {
            // what it asked for and did not emit yet is never emitted
            self.take_recorded_emit();
            self.clock.drop_pending();
        }
        was.held() != self.lifecycle.held()
    }

    /// Its steps from the next update on are `scale` times the host's (checked by the
    /// caller).
    pub fn set_time_scale(&mut self, scale: f32) {
        self.lifecycle.time_scale = scale;
    }

    /// Frozen out of view or not (a catch-up runs its steps unfrozen, in a frame it stays
    /// frozen for).
    pub fn set_out_of_view(&mut self, out_of_view: bool) {
        self.lifecycle.out_of_view = out_of_view;
    }

    /// After a step recorded without the frame's cull (a prewarm's): the step's lists start
    /// again as the cull would have started them. A pool sized per slot has no argument
    /// pass after its simulate, and its cull clears the survivors' scratch count, which
    /// would otherwise grow step by step.
    pub fn record_step_without_cull(
        &self,
        p: &crate::pipelines::Pipelines,
        pass: &mut wgpu::ComputePass,
    ) {
        let Some(b) = &self.bound else {
            return;
        };
        if self.pool.sizing == crate::pool::Sizing::PerSlot {
            p.args()
                .record(pass, &b.args_bind, crate::passes::args::After::Held);
        }
    }

    /// Every particle gone from the next recorded frame on (written with its `uploads`), and
    /// nothing pending.
    pub fn clear(&mut self, uploads: &mut crate::uploads::Uploads) {
        self.take_recorded_emit();
        self.clock.drop_pending();
        self.pool.clear(uploads);
    }

    /// Cleared, back to time 0 and playing (its bursts at 0 due again). Whether the
    /// batches must be made again.
    pub fn restart(&mut self, uploads: &mut crate::uploads::Uploads) -> bool {
        self.clear(uploads);
        self.clock.restart();
        self.set_playback(Playback::Playing)
    }

    /// Its frames so far (an update or a prewarm's step each).
    pub fn frame(&self) -> u64 {
        self.frames
    }

    /// Its alive count at the end of its frame `frame`, read back (older counts than the
    /// latest are ignored).
    pub fn observe(&mut self, frame: u64, counters: Counters) {
        if self.observed.is_none_or(|(f, _)| frame >= f) {
            self.observed = Some((frame, counters));
        }
    }

    /// Its counts as last read back, if any; asked for, they go back every frame from then
    /// on.
    pub fn observed_stats(&self) -> Option<Stats> {
        self.counts_asked
            .store(true, std::sync::atomic::Ordering::Relaxed);
        self.observed.map(|(_, counters)| self.stats(&counters))
    }

    /// Whether its counters go back after this frame: under a `budget` (what it has alive
    /// bounds what it may spawn), once the host asked for them
    /// ([`ParticleSystem::observed_stats`]), and while it may finish
    /// ([`ParticleSystem::finished`] needs them): nothing more on its schedule, and a step
    /// this frame (a paused effect's counts do not change). An effect that emits on and on
    /// and is not asked about reads nothing back.
    pub fn wants_counts(&self, budget: bool) -> bool {
        let asked = self.counts_asked.load(std::sync::atomic::Ordering::Relaxed);
        let may_finish = !self.scheduled() && self.records(super::Step::Simulate);
        self.is_bound() && (budget || asked || may_finish)
    }

    /// Whether its schedule goes on: it emits, and a rate or a burst still to come (or a
    /// spawn stack) says it will spawn again.
    fn scheduled(&self) -> bool {
        self.lifecycle.emits()
            && (self.spawn_lines || schedules_after(self.effect.desc(), self.clock.time))
    }

    /// Whether it is over: nothing more on its schedule (stopped, or bursts only and all of
    /// them past), nothing waiting to be emitted, and no particle alive at the end of a frame
    /// after the last that spawned (what spawns at hits and deaths comes from the living).
    pub fn finished(&self) -> bool {
        let empty = self
            .observed
            .is_some_and(|(frame, c)| c.alive == 0 && frame >= self.last_spawn_frame);
        empty && !self.scheduled() && self.clock.pending_total() == 0
    }

    pub fn set_remove_when_finished(&mut self, remove: bool) {
        self.remove_when_finished = remove;
    }

    pub fn remove_when_finished(&self) -> bool {
        self.remove_when_finished
    }
}
