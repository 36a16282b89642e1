//! Snow (seed 000's wrapping box and tumbling flakes, seed 001's drift, seed 002's mean ±
//! variance):
//! the whole box is filled at t = 0, flakes sink at a terminal speed set by drag towards the
//! wind and re-enter at the top when they fall through the floor.

use glam::Vec3;

use crate::camera::Camera;
use crate::effect::*;

const HALF: f32 = 12.0;
const HEIGHT: f32 = 12.0;

pub fn effect(capacity: u32) -> EffectDesc {
    let min = [-HALF, 0.0, -HALF];
    let max = [HALF, HEIGHT, HALF];
    EffectDesc {
        name: "snow".into(),
        emitters: vec![EmitterDesc {
            shape: Shape::Box { min, max },
            rate: 0.0,
            bursts: vec![Burst {
                time: 0.0,
                count: capacity,
                every: None,
                cycles: None,
            }],
            velocity: Velocity::Linear {
                mean: [0.3, -1.0, 0.1],
                variance: [0.2, 0.3, 0.2],
            },
            lifetime: Range::new(3600.0, 0.0),
            size: Range::new(0.035, 0.015),
            color: ColorRange {
                mean: [0.95, 0.97, 1.0, 0.85],
                variance: [0.05, 0.03, 0.0, 0.15],
            },
            rotation: Range::new(0.0, std::f32::consts::PI),
            spin: Range::new(0.0, 5.5),
            trigger: Trigger::Schedule,
            over_life: None,
            render: None,
            sprite: None,
        }],
        forces: Forces {
            gravity: [0.0, -1.5, 0.0],
            wind: [0.6, 0.0, 0.2],
            drag: 1.5,
            turbulence: Some(Turbulence {
                speed: 0.5,
                scale: 2.5,
            }),
        },
        integrator: Integrator::ExplicitEuler,
        bounds: Some(Bounds {
            min,
            max,
            on_exit: OnExit::Wrap,
            follow_camera: true,
        }),
        over_life: OverLife::default(),
        blend: Blend::Alpha,
        sort: None,
        soft_distance: 0.0,
        collision: None,
        bodies: None,
        self_gravity: None,
        render: RenderMode::Tumbling,
        sprite: Sprite::Snowflakes,
    }
}

pub fn camera(aspect: f32) -> Camera {
    Camera::look_at(Vec3::new(0.0, 1.6, 9.0), Vec3::new(0.0, 4.0, -4.0), aspect)
}

/// Snow over seed 000's terrain: as over the ground plane, in a box that follows the
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
