//! A campfire written entirely as stacks of expressions: a flame coloured by a multi-key
//! gradient over its life, sparks bright while fast, smoke lifted by a `heat` of its own
//! that cools (the effect's own attribute), curl noise throughout.

use flurry::glam::Vec3;

use flurry::effect::EffectDesc;
use flurry::Camera;

/// The shipped effect file the demo shows.
pub const SHIPPED: &str = include_str!("../../../../effects/campfire.ron");

/// `effects/campfire.ron` as written (about 2,500 particles alive: any pool from 4,096 up
/// holds it), its images named by the ids the demo's renderer gives the shipped images.
pub fn effect() -> EffectDesc {
    let desc =
        EffectDesc::from_ron(SHIPPED).expect("effects/campfire.ron parses (tests/shipped.rs)");
    super::shipped_images::named(desc)
}

pub fn camera(aspect: f32) -> Camera {
    Camera::look_at(Vec3::new(0.0, 1.3, 4.2), Vec3::new(0.0, 1.1, 0.0), aspect)
}
