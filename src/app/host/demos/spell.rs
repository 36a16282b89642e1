//! A spell's motes orbiting their caster: the demo walks the effect round a circle, facing
//! the way it walks and leaning into the turn, and the motes' update stack follows its
//! transform (`effect_point`: the orbit is in the caster's own space, so it leans too) in the
//! colour of the `tint` parameter (`--param "tint=vec3(1, 0.35, 0.1)"`).

use flurry::glam::{Mat4, Quat, Vec3};

use flurry::effect::EffectDesc;
use flurry::Camera;

/// The shipped effect file the demo shows.
pub const SHIPPED: &str = include_str!("../../../../effects/spell.ron");

/// `effects/spell.ron` as written (about 3,000 particles alive).
pub fn effect() -> EffectDesc {
    EffectDesc::from_ron(SHIPPED).expect("effects/spell.ron parses (tests/shipped.rs)")
}

/// Where the caster is at `t` seconds: walking a circle of 1.5 m at 0.9 m/s, facing along
/// it (its z the way it walks) and leaning 0.35 rad into the turn.
pub fn caster_at(t: f64) -> Mat4 {
    let a = 0.6 * t as f32;
    let at = Vec3::new(1.5 * a.cos(), 0.0, 1.5 * a.sin());
    // walking anticlockwise seen from above: the way ahead is (-sin a, 0, cos a), whose
    // heading about y is -a; leaning in is a turn about that way ahead
    let facing = Quat::from_rotation_y(-a);
    let lean = Quat::from_rotation_z(0.35);
    Mat4::from_rotation_translation(facing * lean, at)
}

pub fn camera(aspect: f32) -> Camera {
    Camera::look_at(Vec3::new(0.0, 3.0, 4.8), Vec3::new(0.0, 0.9, 0.0), aspect)
}
