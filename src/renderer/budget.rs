//! The renderer's particle budget: how many particles all its effects may have alive
//! together ([`crate::budget`] says how it holds).

use super::{EffectId, ParticleRenderer};
use crate::budget::{allocate, Claim};
use crate::error::Result;
use crate::view::ViewModel;

impl ParticleRenderer {
    /// Limit the particles all effects have alive together to `budget` from the next update
    /// on (None: no limit, the default). Each frame the effects' spawns are allowed only as
    /// far as there is room under it, counting each effect's particles as many as it can
    /// have (its alive count read back a frame or two late, and every spawn since): so the
    /// living never outnumber the budget. Effects of a higher priority
    /// ([`ParticleRenderer::set_priority`]) are served first; effects of one priority that
    /// want more than is left each get the same share of what they want. What is held back
    /// counts as dropped ([`crate::Stats::held_back_total`]; [`ParticleRenderer::budget_scale`]
    /// says the share of a frame). Spawns at particles' hits and deaths, made on the GPU,
    /// are not held to it.
    pub fn set_budget(&mut self, budget: Option<u64>) {
        self.budget = budget;
    }

    /// The particle budget (None: no limit).
    pub fn budget(&self) -> Option<u64> {
        self.budget
    }

    /// Effect `id`'s priority under the budget: higher is served first (0 by default; a
    /// muzzle flash may outrank rain). Refuses an unknown effect.
    pub fn set_priority(&mut self, id: EffectId, priority: i32) -> Result<()> {
        self.system_mut(id)?.set_priority(priority);
        Ok(())
    }

    /// The share of the spawns effect `id` wanted at the last update that the budget
    /// allowed (1: all of them, as without a budget). None: no such effect.
    pub fn budget_scale(&self, id: EffectId) -> Option<f32> {
        self.system(id).map(|s| s.budget_scale().unwrap_or(1.0))
    }

    /// Before the effects' updates of `dt` through `view`: what the budget allows each.
    pub(super) fn apply_budget(&mut self, dt: f32, view: &ViewModel) {
        let Some(budget) = self.budget else {
            for e in &mut self.entries {
                e.system.set_allowed(None, None);
            }
            return;
        };
        let claims: Vec<Claim> = (self.entries.iter_mut())
            .map(|e| e.system.budget_claim(dt, view))
            .collect();
        let allowed = allocate(budget, &claims);
        for ((e, claim), allowed) in self.entries.iter_mut().zip(&claims).zip(allowed) {
            let scale = match claim.wanted {
                0 => 1.0,
                w => allowed as f32 / w as f32,
            };
            e.system.set_allowed(Some(allowed), Some(scale));
        }
    }
}
