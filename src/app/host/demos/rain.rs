//! Rain as the rain-and-snow thesis draws it: fast drops drawn as velocity-stretched streaks, slanted by the wind;
//! where a drop hits the host's scene it dies and spawns a few splash droplets and a ripple
//! on the GPU (two OnHit emitters fed by the collision's hit events, no CPU round trip).

use flurry::glam::Vec3;

use flurry::effect::EffectDesc;
use flurry::Camera;

/// The shipped effect file the demo shows.
pub const SHIPPED: &str = include_str!("../../../../effects/rain.ron");

/// `effects/rain.ron` (written for 65,536 particles) with the drops' rate sized to the pool:
/// 0.42 drops per second per slot. A drop falls for about a second and every hit adds
/// splashes and a ripple; `flurry stats rain --particles 65536 --frames 240 --dt 0.016`
/// measured the pool 90 % full with nothing dropped.
pub fn effect(capacity: u32) -> EffectDesc {
    let mut e = EffectDesc::from_ron(SHIPPED).expect("effects/rain.ron parses (tests/shipped.rs)");
    e.emitters[0].rate = capacity as f32 * 0.42;
    e
}

pub fn camera(aspect: f32) -> Camera {
    Camera::look_at(Vec3::new(0.0, 2.5, 12.5), Vec3::new(0.0, 0.8, 0.0), aspect)
}
