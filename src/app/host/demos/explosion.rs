//! An explosion every four seconds: a fireball flipbook, a shockwave ring on the ground,
//! glinting sparks with trails, bouncing metal debris and lingering smoke that is lit and
//! shadows itself, all one effect file.

use flurry::glam::Vec3;

use flurry::effect::EffectDesc;
use flurry::Camera;

/// The shipped effect file the demo shows.
pub const SHIPPED: &str = include_str!("../../../../effects/explosion.ron");

/// `effects/explosion.ron` as written (about 3,000 particles alive at most: a pool of
/// 16,384 holds two explosions' worth), its images named by the ids the demo's renderer
/// gives the shipped images.
pub fn effect() -> EffectDesc {
    let desc =
        EffectDesc::from_ron(SHIPPED).expect("effects/explosion.ron parses (tests/shipped.rs)");
    super::shipped_images::named(desc)
}

pub fn camera(aspect: f32) -> Camera {
    Camera::look_at(Vec3::new(0.0, 2.6, 12.0), Vec3::new(0.0, 2.2, 0.0), aspect)
}
