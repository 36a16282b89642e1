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
    /// or thawed by its [`OffScreen`] (one seen again after missing seconds stays frozen
    /// until the frame recorded next has run them: [`Self::record_catch_ups`]).
    pub(super) fn look(&mut self, view: &ViewModel, dt: f32) {
        self.dt = dt;
        // (one still compiling has no clock running to freeze or catch up)
        for e in self.entries.iter_mut().filter(|e| e.system.is_bound()) {
            self.merge_dirty |= e.system.look(view, dt);
        }
    }

    /// Into the host's `encoder`, before the frame's own passes: the seconds each effect
    /// seen again missed out of view, run as a prewarm runs them (the part beyond its
    /// particles' longest life only on its clock), so that the frame draws it as if it had
    /// never stopped. A cost of that frame, submitted with it by the host.
    pub(super) fn record_catch_ups(
        &mut self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
    ) {
        let due = |e: &super::Entry| e.system.catch_up_due();
        let (Some(queue), Some(view)) = (self.queue.clone(), self.prev_view) else {
            return; // no update yet: nothing seen
        };
        if !self.entries.iter().any(due) {
            return;
        }
        // the frame's collision uniforms first: the catch-up collides with the scene as the
        // frame's own steps do
        {
            let mut uploads = self.uploads.lock().expect("not poisoned");
            self.uniforms.flush(&mut uploads);
            uploads.record((device, &queue), encoder);
        }
        for at in 0..self.entries.len() {
            if !due(&self.entries[at]) {
                continue;
            }
            let system = &mut self.entries[at].system;
            let missed = system.take_catch_up();
            let (run, skipped) = system.catch_up_split(missed);
            system.skip(skipped);
            let (shortest, longest) = (*super::PREWARM_STEPS.start(), *super::PREWARM_STEPS.end());
            let step = (self.dt.max(run as f32 / CATCH_UP_STEPS)).clamp(shortest, longest);
            let steps = super::prewarm::steps_of(run as f32, step);
            let lifecycle = self.begin_ahead(at);
            self.record_ahead((device, &queue), at, &steps, &view, encoder);
            self.end_ahead(at, lifecycle);
        }
    }
}
