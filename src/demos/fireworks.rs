//! Fireworks (seed 001): bursts from four launch points, random unit-sphere velocities,
//! random colours around a hue per shell, about 2 s of life, additive blending, fading to orange as they die.

use glam::Vec3;

use crate::camera::Camera;
use crate::effect::*;

/// Launch point and dominant colour of each shell.
const SHELLS: [([f32; 3], [f32; 3]); 4] = [
    ([-6.0, 9.0, -14.0], [1.0, 0.35, 0.3]),
    ([5.0, 11.0, -18.0], [0.35, 0.8, 1.0]),
    ([0.0, 13.0, -24.0], [1.0, 0.85, 0.35]),
    ([9.0, 8.0, -12.0], [0.6, 1.0, 0.45]),
];

pub fn effect(capacity: u32) -> EffectDesc {
    // each shell bursts every 1.6 s and lives ~2 s, so at most two bursts per shell overlap:
    // 4 shells × 2 × capacity/8 fills the pool
    let count = (capacity / 8).max(1);
    let emitters = SHELLS
        .iter()
        .enumerate()
        .map(|(i, &(p, [r, g, b]))| EmitterDesc {
            shape: Shape::Point(p),
            rate: 0.0,
            bursts: vec![Burst {
                time: 0.4 * i as f32,
                count,
                every: Some(1.6),
                cycles: None,
            }],
            velocity: Velocity::Radial {
                speed: Range::new(6.0, 1.5),
            },
            lifetime: Range::new(2.0, 0.3),
            size: Range::new(0.18, 0.06),
            // random colours around the shell's hue
            color: ColorRange {
                mean: [r * 0.9, g * 0.9, b * 0.9, 0.55],
                variance: [0.1, 0.1, 0.1, 0.15],
            },
            rotation: Range::default(),
            spin: Range::default(),
            trigger: Trigger::Schedule,
        })
        .collect();
    EffectDesc {
        name: "fireworks".into(),
        emitters,
        forces: Forces {
            gravity: [0.0, -3.0, 0.0],
            wind: [0.0, 0.0, 0.0],
            drag: 0.8,
        },
        integrator: Integrator::ExplicitEuler,
        bounds: Some(Bounds {
            min: [-100.0, 0.0, -100.0],
            max: [100.0, 100.0, 100.0],
            on_exit: OnExit::Kill,
        }),
        over_life: OverLife {
            color_end: [1.0, 0.55, 0.25, 0.0],
            size_end: 0.6,
        },
        blend: Blend::Additive,
        sort: None,
        soft_distance: 0.0,
        collision: None,
        bodies: None,
        self_gravity: None,
        render: RenderMode::Stretched { seconds: 0.05 },
    }
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
