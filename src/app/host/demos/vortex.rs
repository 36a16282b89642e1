//! A dust vortex whose forces come from a module file (`effects/modules/vortex.ron`) the
//! effect imports: the program carries both files and reads the module through
//! [`EffectDesc::from_ron_importing`], as a game shipping its effects would.

use flurry::glam::Vec3;

use flurry::effect::EffectDesc;
use flurry::Camera;

/// The shipped effect file the demo shows, and the module it imports.
pub const SHIPPED: &str = include_str!("../../../../effects/vortex.ron");
pub const MODULE: &str = include_str!("../../../../effects/modules/vortex.ron");

/// `effects/vortex.ron` (written for 65,536 particles: 9,000 a second living about 5 s)
/// with its dust's rate sized to the pool.
pub fn effect(capacity: u32) -> EffectDesc {
    let read = |import: &str| match import {
        "modules/vortex.ron" => Ok(MODULE.to_string()),
        other => Err(format!("not built into the program: {other}")),
    };
    let mut e = EffectDesc::from_ron_importing(SHIPPED, read)
        .expect("effects/vortex.ron parses (tests/shipped.rs)");
    e.emitters[0].rate = 9_000.0 * capacity as f32 / 65_536.0;
    e
}

pub fn camera(aspect: f32) -> Camera {
    Camera::look_at(Vec3::new(0.0, 1.2, 9.0), Vec3::new(0.0, 2.4, 0.0), aspect)
}
