//! Built-in demos: an effect sized to the pool, a camera and a background.

mod fireworks;
mod snow;

use crate::camera::Camera;
use crate::effect::EffectDesc;

/// The demos `flurry demo|stats|profile` know.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Demo {
    /// Snow in a wrapping box around the camera (seeds 000, 001, 002).
    Snow,
    /// Additive bursts with random colours (seed 001).
    Fireworks,
}

impl Demo {
    pub fn name(self) -> &'static str {
        match self {
            Demo::Snow => "snow",
            Demo::Fireworks => "fireworks",
        }
    }

    /// The effect, scaled so that `capacity` particles are about what it needs.
    pub fn effect(self, capacity: u32) -> EffectDesc {
        match self {
            Demo::Snow => snow::effect(capacity),
            Demo::Fireworks => fireworks::effect(capacity),
        }
    }

    /// The demo's camera for a target of `aspect` = width / height.
    pub fn camera(self, aspect: f32) -> Camera {
        match self {
            Demo::Snow => snow::camera(aspect),
            Demo::Fireworks => fireworks::camera(aspect),
        }
    }

    /// Clear colour behind the particles (linear RGB).
    pub fn background(self) -> [f64; 4] {
        match self {
            Demo::Snow => [0.012, 0.018, 0.035, 1.0],
            Demo::Fireworks => [0.002, 0.002, 0.008, 1.0],
        }
    }

    /// Default pool size.
    pub fn default_particles(self) -> u32 {
        match self {
            Demo::Snow => 65_536,
            Demo::Fireworks => 65_536,
        }
    }
}
