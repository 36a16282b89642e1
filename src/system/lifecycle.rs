//! A system's lifecycle: play, pause, stop emitting, clear, restart, its time scale
//! ([`crate::playback`]).

use super::ParticleSystem;
use crate::playback::{Lifecycle, Playback};

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

    /// Every particle gone at the next submission, and nothing pending.
    pub fn clear(&mut self, queue: &wgpu::Queue) {
        self.take_recorded_emit();
        self.clock.drop_pending();
        self.pool.clear(queue);
    }

    /// Cleared, back to time 0 and playing (its bursts at 0 due again). Whether the
    /// batches must be made again.
    pub fn restart(&mut self, queue: &wgpu::Queue) -> bool {
        self.clear(queue);
        self.clock.restart();
        self.set_playback(Playback::Playing)
    }
}
