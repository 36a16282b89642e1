//! Rain (seed 002): fast drops drawn as velocity-stretched streaks, slanted by the wind;
//! where a drop hits the host's scene it dies and spawns a few splash droplets and a ripple
//! on the GPU (two OnHit emitters fed by the collision's hit events, no CPU round trip).

use glam::Vec3;

use crate::camera::Camera;
use crate::effect::EffectDesc;

/// The shipped effect file the demo shows.
pub const SHIPPED: &str = include_str!("../../effects/rain.ron");

/// `effects/rain.ron` (written for 65,536 particles) with the drops' rate sized to the pool:
/// a drop falls for about a second, and a fifth of the pool is left for splashes and
/// ripples.
pub fn effect(capacity: u32) -> EffectDesc {
    let mut e = EffectDesc::from_ron(SHIPPED).expect("effects/rain.ron parses (tests/shipped.rs)");
    e.emitters[0].rate = capacity as f32 * 0.6 / 1.1;
    e
}

pub fn camera(aspect: f32) -> Camera {
    Camera::look_at(Vec3::new(0.0, 2.5, 12.5), Vec3::new(0.0, 0.8, 0.0), aspect)
}
