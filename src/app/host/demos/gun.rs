//! The particle gun of the Direct3D 9 particle-system lecture: bullets leave from just below the shooter's camera along
//! its look direction at 100 m/s and live 1 s. In a window it fires while the left mouse button or
//! F is held; headless, it fires on a schedule so it can be rendered and tested.

use flurry::glam::Vec3;

use flurry::effect::*;
use flurry::Camera;

/// Muzzle speed, m/s (the lecture's look direction × 100).
pub const SPEED: f32 = 100.0;
/// Shots per second while the trigger is held.
pub const RATE: f32 = 30.0;

/// Where the bullets leave from and how fast, for `camera`.
pub fn muzzle(camera: &Camera) -> (Shape, Velocity) {
    let forward = (camera.target - camera.eye).normalize_or(Vec3::NEG_Z);
    let (right, up) = camera.axes();
    let at = camera.eye + forward * 0.5 - up * 0.25 + right * 0.15;
    let v = forward * SPEED;
    (
        Shape::Point(at.to_array()),
        Velocity::Linear {
            mean: v.to_array(),
            variance: [0.4; 3],
        },
    )
}

/// The shipped effect file the demo shows (written for [`player`]).
pub const SHIPPED: &str = include_str!("../../../../effects/gun.ron");

/// `effects/gun.ron` with the muzzle at `camera`; `scheduled` keeps its bursts of 3 every
/// 0.1 s (headless runs), else it fires only when the window's trigger asks.
pub fn effect(camera: &Camera, scheduled: bool) -> EffectDesc {
    let mut e = EffectDesc::from_ron(SHIPPED).expect("effects/gun.ron parses (tests/shipped.rs)");
    let (shape, velocity) = muzzle(camera);
    let gun = &mut e.emitters[0];
    gun.shape = shape;
    gun.velocity = velocity;
    if !scheduled {
        gun.bursts.clear();
    }
    e
}

/// The shooter of headless runs: where the bullets come from.
pub fn player(aspect: f32) -> Camera {
    Camera::look_at(
        Vec3::new(0.0, 2.0, 10.0),
        Vec3::new(1.5, 3.0, -20.0),
        aspect,
    )
}

/// Headless pictures look at the shots from the side; in a window the viewer is the
/// shooter.
pub fn camera(aspect: f32) -> Camera {
    Camera::look_at(
        Vec3::new(-42.0, 9.0, -35.0),
        Vec3::new(0.0, 2.0, -35.0),
        aspect,
    )
}
