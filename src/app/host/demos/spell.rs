//! A spell's motes orbiting their caster: the demo walks the effect round a circle and the
//! motes' update stack follows its transform (`origin`) in the colour of the `tint`
//! parameter (`--param "tint=vec3(1, 0.35, 0.1)"`).

use flurry::glam::{Mat4, Vec3};

use flurry::effect::EffectDesc;
use flurry::Camera;

/// The shipped effect file the demo shows.
pub const SHIPPED: &str = include_str!("../../../../effects/spell.ron");

/// `effects/spell.ron` as written (about 3,000 particles alive).
pub fn effect() -> EffectDesc {
    EffectDesc::from_ron(SHIPPED).expect("effects/spell.ron parses (tests/shipped.rs)")
}

/// Where the caster is at `t` seconds: walking a circle of 1.5 m at 0.9 m/s.
pub fn caster_at(t: f64) -> Mat4 {
    let a = 0.6 * t as f32;
    Mat4::from_translation(Vec3::new(1.5 * a.cos(), 0.0, 1.5 * a.sin()))
}

pub fn camera(aspect: f32) -> Camera {
    Camera::look_at(Vec3::new(0.0, 3.0, 4.8), Vec3::new(0.0, 0.9, 0.0), aspect)
}
