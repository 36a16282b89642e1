//! How an effect plays: running, paused or no longer emitting, and how fast its time runs
//! ([`crate::ParticleRenderer::play`], [`crate::ParticleRenderer::pause`],
//! [`crate::ParticleRenderer::stop_emitting`], [`crate::ParticleRenderer::set_time_scale`]).

use crate::error::{Invalid, Result};

/// An effect's state of play.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Playback {
    /// Emitting and simulated (an effect starts so).
    #[default]
    Playing,
    /// Frozen: nothing emitted or simulated, its particles drawn where they are (the
    /// camera may move), its clock stopped. Spawns asked for before the pause wait for
    /// [`crate::ParticleRenderer::play`].
    Paused,
    /// No longer emitting on its schedule (its rates and bursts; spawns not yet emitted are
    /// dropped): the living particles finish their lives, and what they spawn when they
    /// hit or die is still spawned.
    Stopped,
}

/// An effect's playback and time scale, kept by its system.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Lifecycle {
    pub playback: Playback,
    pub time_scale: f32,
    /// Frozen while out of view ([`crate::OffScreen::Pause`] or `CatchUp`), whatever its
    /// playback.
    pub out_of_view: bool,
}

impl Default for Lifecycle {
    fn default() -> Self {
        Lifecycle {
            playback: Playback::Playing,
            time_scale: 1.0,
            out_of_view: false,
        }
    }
}

impl Lifecycle {
    /// The effect's step for a host frame of `dt` seconds: scaled, and none while paused.
    pub fn step(self, dt: f32) -> f32 {
        match self.held() {
            true => 0.0,
            false => dt * self.time_scale,
        }
    }

    /// Whether its particles are held where they are (nothing emitted or simulated).
    pub fn held(self) -> bool {
        self.playback == Playback::Paused || self.out_of_view
    }

    /// Whether it emits on its schedule.
    pub fn emits(self) -> bool {
        self.playback == Playback::Playing && !self.out_of_view
    }
}

/// The largest time scale: a hundred times real time (a frame of 1/60 s steps 1.7 s).
pub const MAX_TIME_SCALE: f32 = 100.0;

/// `scale` as a time scale: finite, 0 (frozen in time, still simulated) up to
/// [`MAX_TIME_SCALE`].
pub(crate) fn check_time_scale(scale: f32) -> Result<f32> {
    if scale.is_finite() && (0.0..=MAX_TIME_SCALE).contains(&scale) {
        return Ok(scale);
    }
    let allowed = format!("a finite number from 0 to {MAX_TIME_SCALE}");
    Err(Invalid::new("time_scale", scale, allowed).into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_paused_effect_steps_nothing_and_a_scaled_one_its_share() {
        let mut l = Lifecycle::default();
        assert_eq!(l.step(0.5), 0.5);
        l.time_scale = 0.25;
        assert_eq!(l.step(0.5), 0.125);
        l.playback = Playback::Stopped;
        assert_eq!(l.step(0.5), 0.125);
        assert!(!l.emits() && !l.held());
        l.playback = Playback::Paused;
        assert_eq!(l.step(0.5), 0.0);
        assert!(l.held());
        // frozen out of view, whatever it plays
        l.playback = Playback::Playing;
        l.out_of_view = true;
        assert_eq!(l.step(0.5), 0.0);
        assert!(l.held() && !l.emits());
    }

    #[test]
    fn time_scales_outside_0_to_100_are_refused() {
        for bad in [-0.1, f32::NAN, f32::INFINITY, 100.5] {
            let e = check_time_scale(bad).unwrap_err().to_string();
            assert!(e.contains("time_scale") && e.contains("0 to 100"), "{e}");
        }
        assert_eq!(check_time_scale(0.0).unwrap(), 0.0);
        assert_eq!(check_time_scale(100.0).unwrap(), 100.0);
    }
}
