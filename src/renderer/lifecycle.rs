//! Driving an effect from a game: play, pause, stop emitting, clear, restart and its time
//! scale ([`Playback`]).

use super::{unknown, EffectId, ParticleRenderer};
use crate::error::Result;
use crate::playback::{check_time_scale, Playback};
use crate::system::ParticleSystem;

impl ParticleRenderer {
    /// Play effect `id` from the next update on: a paused effect goes on from where it
    /// stopped, one that stopped emitting emits again. Refuses an unknown effect.
    pub fn play(&mut self, id: EffectId) -> Result<()> {
        self.set_playback(id, Playback::Playing)
    }

    /// Pause effect `id` from the next update on: nothing is emitted or simulated (no
    /// dispatch of its emit or simulate is recorded), its particles are drawn where they
    /// are as the camera moves, and its clock stops until [`ParticleRenderer::play`].
    /// Refuses an unknown effect.
    pub fn pause(&mut self, id: EffectId) -> Result<()> {
        self.set_playback(id, Playback::Paused)
    }

    /// Stop effect `id`'s emitters from the next update on: its scheduled spawns (rates and
    /// bursts) end, those asked for but not yet emitted are dropped, and the living
    /// particles finish their lives (spawning at their hits and deaths as before).
    /// [`ParticleRenderer::play`] starts the emitters again. Refuses an unknown effect.
    pub fn stop_emitting(&mut self, id: EffectId) -> Result<()> {
        self.set_playback(id, Playback::Stopped)
    }

    /// Whether effect `id` is playing, paused or stopped (None: no such effect).
    pub fn playback(&self, id: EffectId) -> Option<Playback> {
        self.system(id).map(|s| s.lifecycle().playback)
    }

    /// Run effect `id`'s time `scale` times as fast as the host's from the next update on:
    /// its steps, its clock and its emitters' schedules alike (0.5: slow motion; 0: frozen
    /// in time yet still simulated, unlike [`ParticleRenderer::pause`]). Refuses an unknown
    /// effect and a scale outside 0 to [`crate::MAX_TIME_SCALE`].
    pub fn set_time_scale(&mut self, id: EffectId, scale: f32) -> Result<()> {
        let scale = check_time_scale(scale)?;
        self.system_mut(id)?.set_time_scale(scale);
        Ok(())
    }

    /// Effect `id`'s time scale (None: no such effect).
    pub fn time_scale(&self, id: EffectId) -> Option<f32> {
        self.system(id).map(|s| s.lifecycle().time_scale)
    }

    /// Remove every particle of effect `id` at once (written through the queue as the next
    /// frame is recorded, landing before it) and drop the spawns not yet emitted; it goes on
    /// playing, pausing or stopped as it was. Its totals (emitted, dropped) are kept: the
    /// cleared particles count as killed. Refuses an unknown effect.
    pub fn clear(&mut self, id: EffectId) -> Result<()> {
        let (system, uploads) = self.system_and_uploads(id)?;
        system.clear(uploads);
        Ok(())
    }

    /// Start effect `id` again: cleared as by [`ParticleRenderer::clear`], its clock back to
    /// 0 (its bursts at 0 fire again) and playing. Refuses an unknown effect.
    pub fn restart(&mut self, id: EffectId) -> Result<()> {
        let (system, uploads) = self.system_and_uploads(id)?;
        if system.restart(uploads) {
            self.merge_dirty = true;
        }
        Ok(())
    }

    /// Effect `id`'s system, and what the next frame writes (its pool cleared there).
    fn system_and_uploads(
        &mut self,
        id: EffectId,
    ) -> Result<(&mut ParticleSystem, &mut crate::uploads::Uploads)> {
        let uploads = self.uploads.get_mut().expect("not poisoned");
        match self.entries.iter_mut().find(|e| e.id == id) {
            Some(e) => Ok((&mut e.system, uploads)),
            None => Err(unknown(id)),
        }
    }

    fn set_playback(&mut self, id: EffectId, playback: Playback) -> Result<()> {
        let system = match self.entries.iter_mut().find(|e| e.id == id) {
            Some(e) => &mut e.system,
            None => return Err(unknown(id)),
        };
        // a paused pool leaves its batches (nothing of it is emitted, simulated or
        // relisted), a resumed one may join them: they are made again at the next update
        if system.set_playback(playback) {
            self.merge_dirty = true;
        }
        Ok(())
    }
}

/// Finished effects.
impl ParticleRenderer {
    /// Whether effect `id` is over: nothing more on its schedule (it stopped emitting, or
    /// it has bursts only and all of them are past), nothing waiting to be emitted, and no
    /// particle alive, as counted at the end of a frame after the last one that spawned.
    /// The counts come back without blocking, a frame or two after the frame they count, so
    /// it turns true a frame or two late and never while a particle lives. None: no such
    /// effect (removed by the host, or when finished: see
    /// [`ParticleRenderer::set_remove_when_finished`]).
    pub fn is_finished(&self, id: EffectId) -> Option<bool> {
        self.system(id).map(|s| s.finished())
    }

    /// Effect `id`'s counts (alive, emitted, dropped, …) as last read back. They come
    /// back without blocking, a frame or two after the frame they count (as for
    /// [`ParticleRenderer::is_finished`]); [`ParticleRenderer::snapshot`] reads them now,
    /// waiting for the GPU. None: no such effect, or no count back yet.
    pub fn counted(&self, id: EffectId) -> Option<crate::Stats> {
        self.system(id).and_then(|s| s.observed_stats())
    }

    /// Remove effect `id` as soon as it is finished ([`ParticleRenderer::is_finished`]),
    /// at an update: an explosion spawned on impact goes away by itself. Refuses an unknown
    /// effect.
    pub fn set_remove_when_finished(&mut self, id: EffectId, remove: bool) -> Result<()> {
        self.system_mut(id)?.set_remove_when_finished(remove);
        Ok(())
    }

    /// At an update (after the device was polled) and a drain: the counts and events read
    /// back since the last, and the effects marked so removed once finished.
    pub(super) fn collect_reads(&mut self) {
        let (seen, heard) = self.reads.read_mapped();
        for seen in seen {
            if let Some(e) = self.entries.iter_mut().find(|e| e.id == seen.id) {
                e.system.observe(seen.frame, seen.counters);
            }
        }
        for heard in heard {
            if let Some(e) = self.entries.iter_mut().find(|e| e.id == heard.id) {
                e.system.take_events(heard.stream, &heard.bytes);
            }
        }
        let done: Vec<EffectId> = (self.entries.iter())
            .filter(|e| e.system.remove_when_finished() && e.system.finished())
            .map(|e| e.id)
            .collect();
        for id in done {
            self.remove_effect(id);
        }
    }
}
