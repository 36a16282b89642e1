//! Fireworks as the particle-system lecture has them: rockets launched in volleys that
//! burst, where they die, into sparks spawned on the GPU: random unit-sphere velocities,
//! random colours, about 2 s of life, gravity and drag, additive blending, fading to orange
//! as they die.

use flurry::glam::Vec3;

use flurry::effect::*;
use flurry::Camera;

/// Most sparks a rocket bursts into in the demo.
const MAX_BURST: u32 = 1024;

/// The shipped effect file the demo shows.
pub const SHIPPED: &str = include_str!("../../../../effects/fireworks.ron");

/// `effects/fireworks.ron` with each rocket's burst sized to the pool: `capacity / 12`
/// sparks, at most 1024 (denser bursts saturate to white), at least 1.
pub fn effect(capacity: u32) -> EffectDesc {
    let mut e =
        EffectDesc::from_ron(SHIPPED).expect("effects/fireworks.ron parses (tests/shipped.rs)");
    for emitter in &mut e.emitters {
        if let Trigger::OnDeath { count, .. } = &mut emitter.trigger {
            *count = (capacity / 12).clamp(1, MAX_BURST);
        }
    }
    e
}

pub fn camera(aspect: f32) -> Camera {
    Camera::look_at(Vec3::new(0.0, 4.0, 8.0), Vec3::new(0.0, 9.0, -14.0), aspect)
}

/// Fireworks over the ground plane: sparks that reach it bounce.
pub fn effect_over_ground(capacity: u32) -> EffectDesc {
    let mut e = effect(capacity);
    e.bounds = Some(Bounds {
        min: [-100.0, -2.0, -100.0],
        max: [100.0, 100.0, 100.0],
        on_exit: OnExit::Kill,
        follow_camera: false,
    });
    e.collision = Some(Collision {
        response: Response::Bounce {
            restitution: 0.4,
            friction: 0.3,
        },
        thickness: 0.5,
    });
    e
}
