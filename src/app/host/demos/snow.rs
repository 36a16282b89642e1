//! Snow: the DirectX 9 chapter's wrapping box and tumbling flakes, the particle-system
//! lecture's drift, the rain-and-snow thesis's mean ± variance:
//! the whole box is filled at t = 0, flakes sink at a terminal speed set by drag towards the
//! wind and re-enter at the top when they fall through the floor.

use flurry::glam::Vec3;

use flurry::effect::*;
use flurry::Camera;

const HALF: f32 = 12.0;
const HEIGHT: f32 = 12.0;

/// The shipped effect file the demo shows.
pub const SHIPPED: &str = include_str!("../../../../effects/snow.ron");

/// `effects/snow.ron` with its burst (the whole box at t = 0) sized to the pool.
pub fn effect(capacity: u32) -> EffectDesc {
    let mut e = EffectDesc::from_ron(SHIPPED).expect("effects/snow.ron parses (tests/shipped.rs)");
    e.emitters[0].bursts[0].count = capacity;
    e
}

pub fn camera(aspect: f32) -> Camera {
    Camera::look_at(Vec3::new(0.0, 1.6, 9.0), Vec3::new(0.0, 4.0, -4.0), aspect)
}

/// Snow over the terrain: as over the ground plane, in a box that follows the
/// camera, the kill plane below the lowest hill.
pub fn effect_over_terrain(capacity: u32) -> EffectDesc {
    let mut e = effect_over_ground(capacity);
    let low = -super::TERRAIN.amplitude - 0.05;
    if let Some(b) = &mut e.bounds {
        b.min[1] = low;
        b.follow_camera = true;
    }
    // the first fill starts above the highest hill: a flake born inside a hill would
    // settle on its surface from below
    if let Shape::Box { min, .. } = &mut e.emitters[0].shape {
        min[1] = super::TERRAIN.amplitude;
    }
    e
}

/// Snow over the ground plane: flakes settle where they land on screen, rest 4 s fading
/// out, then die; a layer at the top of the box replaces them. Flakes that land off screen
/// fall through (screen-space collision cannot see there) and die at a kill plane 5 cm
/// below the ground, before the wind can carry them into view under it.
pub fn effect_over_ground(capacity: u32) -> EffectDesc {
    let mut e = effect(capacity);
    let mut top = e.emitters[0].clone();
    top.shape = Shape::Box {
        min: [-HALF, HEIGHT - 1.0, -HALF],
        max: [HALF, HEIGHT, HALF],
    };
    top.bursts.clear();
    top.rate = capacity as f32 / 12.0;
    top.lifetime = Range::new(60.0, 10.0);
    e.emitters[0].lifetime = Range::new(60.0, 10.0);
    e.emitters.push(top);
    e.bounds = Some(Bounds {
        min: [-HALF, -0.05, -HALF],
        max: [HALF, HEIGHT, HALF],
        on_exit: OnExit::Kill,
        follow_camera: false,
    });
    e.collision = Some(Collision {
        response: Response::Settle { time: 4.0 },
        thickness: 0.5,
    });
    e
}
