//! A system under the renderer's particle budget ([`crate::budget`]).

use std::sync::atomic::Ordering;

use super::ParticleSystem;
use crate::budget::Claim;
use crate::effect::Trigger;
use crate::view::ViewModel;

impl ParticleSystem {
    /// What it claims of the budget before an update of `dt` seconds: its priority, the most
    /// particles it can have alive now, and the spawns that update would ask for.
    pub fn budget_claim(&mut self, dt: f32, view: &ViewModel) -> Claim {
        let observed = self.observed.map(|(frame, c)| (frame, c.alive));
        let bound = self.budget.bound(observed, self.pool.capacity);
        Claim {
            priority: self.budget.priority,
            bound,
            wanted: self.wanted(dt, view),
            steady: self.steady(),
        }
    }

    /// How many particles its rates keep alive (rate × mean lifetime of each emitter of the
    /// schedule, all its instances'), at most its pool.
    fn steady(&self) -> u64 {
        if !self.lifecycle.emits() {
            return 0;
        }
        let scheduled = self
            .effect
            .desc()
            .emitters
            .iter()
            .filter(|e| e.trigger == Trigger::Schedule);
        let one: f64 = scheduled
            .map(|e| e.rate as f64 * e.lifetime.mean as f64)
            .sum();
        let copies = self.instances.count().max(1) as f64;
        (one * copies).min(self.pool.capacity as f64) as u64
    }

    /// The spawns its next update of `dt` would ask for (those pending among them), all its
    /// instances' together.
    fn wanted(&self, dt: f32, view: &ViewModel) -> u64 {
        if !self.lifecycle.emits() {
            return 0;
        }
        let dt = self.lifecycle.step(dt);
        let copies = self.instances.count().max(1);
        let share = self.pool.capacity / copies;
        let mut clock = self.clock.clone();
        if self.emit_recorded.load(Ordering::Relaxed) {
            clock.take();
        }
        clock.advance(self.effect.desc(), dt, share, &self.spawning(dt, view));
        clock.pending_total() * copies as u64
    }

    /// The spawns the budget allows its next update (None: all it wants), and what share
    /// of what it wanted that is.
    pub fn set_allowed(&mut self, allowed: Option<u64>, scale: Option<f32>) {
        self.budget.allowed = allowed;
        self.budget.scale = scale;
    }

    pub fn set_priority(&mut self, priority: i32) {
        self.budget.priority = priority;
    }

    /// What the budget allowed of the spawns it wanted at the last update (None: no
    /// budget).
    pub fn budget_scale(&self) -> Option<f32> {
        self.budget.scale
    }
}
