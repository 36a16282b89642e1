//! What effects cost when they cannot be seen: each one's bounds tested against the frame's
//! view at every update, and frozen or caught up by its [`OffScreen`].

use super::{EffectId, ParticleRenderer};
use crate::error::Result;
use crate::view::ViewModel;
use crate::visibility::{Aabb, OffScreen};

/// Most steps a catch-up takes: it runs at the host's frame time, or in longer steps (up
/// to [`super::PREWARM_STEPS`]' longest) where the seconds it missed need more.
const CATCH_UP_STEPS: f32 = 32.0;

impl ParticleRenderer {
    /// What effect `id` does while its bounds ([`ParticleRenderer::bounds`]) lie wholly
    /// outside the view, from the next update on: go on ([`OffScreen::Simulate`], the
    /// default), freeze, or freeze and catch up when seen again. An unbounded effect is
    /// always seen. Refuses an unknown effect.
    pub fn set_off_screen(&mut self, id: EffectId, off_screen: OffScreen) -> Result<()> {
        if self.system_mut(id)?.set_off_screen(off_screen) {
            self.merge_dirty = true;
        }
        Ok(())
    }

    /// Effect `id`'s [`OffScreen`] (None: no such effect).
    pub fn off_screen(&self, id: EffectId) -> Option<OffScreen> {
        self.system(id).map(|s| s.off_screen())
    }

    /// Where effect `id`'s particles can be in the world now: where its emitters (at each
    /// instance) spawned over its particles' longest life, grown by how far a particle, and
    /// what it spawns, can travel in that life (its fastest start, gravity, wind and
    /// turbulence), within its kill or wrap bounds; a crowd's city; or what the host
    /// declared ([`ParticleRenderer::declare_bounds`]). None: no such effect, or one that
    /// cannot be bounded so (massive bodies, all-pairs gravity, flocks, stacks that set
    /// positions or forces, bounds that follow the camera), which is always simulated.
    pub fn bounds(&self, id: EffectId) -> Option<Aabb> {
        self.system(id).and_then(|s| s.bounds())
    }

    /// Declare where effect `id`'s particles are, in place of its own bounds (None: its own
    /// again): for an effect that cannot be bounded, or bounds tighter than the worst case.
    /// Refuses an unknown effect.
    pub fn declare_bounds(&mut self, id: EffectId, bounds: Option<Aabb>) -> Result<()> {
        self.system_mut(id)?.declare_bounds(bounds);
        Ok(())
    }

    /// Whether effect `id`'s bounds met the last update's view (None: no such effect).
    pub fn is_on_screen(&self, id: EffectId) -> Option<bool> {
        self.system(id).map(|s| s.on_screen())
    }

    /// At an update, before the effects step `dt`: each one's bounds against `view`, frozen
    /// or thawed by its [`OffScreen`]; one seen again after missing seconds runs them now
    /// (the part beyond its particles' longest life only on its clock).
    pub(super) fn look(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        view: &ViewModel,
        dt: f32,
    ) {
        let mut catch_ups = Vec::new();
        // (one still compiling has no clock running to freeze or catch up)
        let bound = self.entries.iter_mut().enumerate();
        for (at, e) in bound.filter(|(_, e)| e.system.is_bound()) {
            let looked = e.system.look(view, dt);
            self.merge_dirty |= looked.held_changed;
            if let Some(missed) = looked.catch_up {
                catch_ups.push((at, missed));
            }
        }
        for (at, missed) in catch_ups {
            let (run, skipped) = self.entries[at].system.catch_up_split(missed);
            self.entries[at].system.skip(skipped);
            let (shortest, longest) = (*super::PREWARM_STEPS.start(), *super::PREWARM_STEPS.end());
            let step = (dt.max(run as f32 / CATCH_UP_STEPS)).clamp(shortest, longest);
            let steps = super::prewarm::steps_of(run as f32, step);
            self.run_ahead(device, queue, at, steps, view);
        }
    }
}
