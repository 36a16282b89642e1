//! Listening to an effect's particles: their hits and deaths reach the host a frame or two
//! late, without a stall ([`crate::events`]).

use super::{EffectId, ParticleRenderer};
use crate::error::{Invalid, Result};
use crate::events::{DrainedEvents, EventSettings};

impl ParticleRenderer {
    /// Report the events `settings` names of effect `id`'s particles from the next frame
    /// on, for [`ParticleRenderer::drain_events`] (None: stop; what was not drained is
    /// dropped, as it is when settings change). The effect's simulate is compiled with its
    /// events the first time (as an effect of a new kind is), and leaves the batch of small
    /// effects simulated together. Hits are those of the host's depth: an effect without a
    /// collision response has none. Refuses an unknown effect and settings out of range
    /// ([`EventSettings::check`]).
    pub fn set_events(
        &mut self,
        device: &wgpu::Device,
        id: EffectId,
        settings: Option<EventSettings>,
    ) -> Result<()> {
        let p = &self.pipelines;
        let system = match self.entries.iter_mut().find(|e| e.id == id) {
            Some(e) => &mut e.system,
            None => return Err(super::unknown(id)),
        };
        system.set_events(device, p, settings)?;
        // its simulate is its own until the batches are made again, at the next update
        system.set_batched(Default::default());
        self.uniform_pages.emit_everywhere();
        self.merge_dirty = true;
        Ok(())
    }

    /// The events of effect `id` read back since the last drain, oldest first, and how many
    /// the GPU recorded that never reached them ([`DrainedEvents::lost`]). Never blocks:
    /// each [`ParticleRenderer::update`] asks for the read-back of the frames submitted
    /// before it, which lands once the GPU is done with them (at that update, or at a drain
    /// after it), so events arrive a frame or two late. Removing the effect drops what was
    /// not drained. Refuses an unknown effect and one the host does not listen to
    /// ([`ParticleRenderer::set_events`]).
    pub fn drain_events(&mut self, id: EffectId) -> Result<DrainedEvents> {
        // (what landed since the update: taken now, never waited for)
        self.reads.poll();
        self.collect_reads();
        self.system_mut(id)?.drain_events().ok_or_else(|| {
            let allowed = "an effect listened to (set_events first)";
            Invalid::new("id", format!("{id:?} (not listened to)"), allowed).into()
        })
    }
}
