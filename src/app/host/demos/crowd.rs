//! A city's crowd: walkers steered on the GPU by their state table, flow fields, the walls
//! and each other, drawn as lit figures whose legs swing (mesh particles: each vertex of the
//! figure follows one bone, posed from an animation texture by the walker's gait).

use flurry::effect::EffectDesc;
use flurry::glam::Vec3;
use flurry::Camera;

/// The shipped effect file the demo shows.
pub const SHIPPED: &str = include_str!("../../../../effects/crowd.ron");

/// `effects/crowd.ron` (written for 131,072 walkers) with `capacity` walkers at its
/// density: its city's sides scaled by the square root of the ratio (at least 16 cells).
pub fn effect(capacity: u32) -> EffectDesc {
    let mut e = EffectDesc::from_ron(SHIPPED).expect("effects/crowd.ron parses (tests/shipped.rs)");
    let shipped = e.emitters[0].bursts[0].count;
    let scale = (capacity as f32 / shipped as f32).sqrt();
    if let Some(crowd) = &mut e.crowd {
        for side in &mut crowd.city.size {
            *side = ((*side as f32 * scale).round() as u32).clamp(16, flurry::nav::MAX_MAP_SIDE);
        }
    }
    e.emitters[0].bursts[0].count = capacity;
    e
}

/// High above a street corner near the city's centre, looking down across a few blocks:
/// the nearest walkers over ten pixels tall at 640 × 400, the streets between the
/// buildings full of them.
pub fn camera(aspect: f32) -> Camera {
    let eye = Vec3::new(-32.0, 42.0, 40.0);
    Camera::look_at(eye, Vec3::new(5.0, 0.0, -5.0), aspect)
}
