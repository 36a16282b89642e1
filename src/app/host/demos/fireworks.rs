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

/// `effects/fireworks.ron` with each rocket's burst sized to the pool: about 12 bursts
/// are alive at once, each spark with its trail's points, so `capacity / (12 × (1 +
/// points a trail keeps))` sparks, at most 1024 (denser bursts saturate to white), at
/// least 1.
pub fn effect(capacity: u32) -> EffectDesc {
    let mut e =
        EffectDesc::from_ron(SHIPPED).expect("effects/fireworks.ron parses (tests/shipped.rs)");
    let trail_points = e.emitters.iter().find_map(|t| match t.trigger {
        Trigger::Trail { every, .. } => Some((t.lifetime.mean / every).ceil() as u32),
        _ => None,
    });
    let per_spark = 1 + trail_points.unwrap_or(0);
    for emitter in &mut e.emitters {
        if let Trigger::OnDeath { count, .. } = &mut emitter.trigger {
            *count = (capacity / (12 * per_spark)).clamp(1, MAX_BURST);
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
