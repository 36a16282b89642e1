//! Rain (seed 002): fast drops drawn as velocity-stretched streaks, slanted by the wind;
//! where a drop hits the host's scene it dies and spawns a few splash droplets on the GPU
//! (an OnHit emitter fed by the collision's hit events, no CPU round trip).

use glam::Vec3;

use crate::camera::Camera;
use crate::effect::*;

const HALF: f32 = 10.0;

pub fn effect(capacity: u32) -> EffectDesc {
    let drop = EmitterDesc {
        shape: Shape::Box {
            min: [-HALF, 8.0, -HALF],
            max: [HALF, 10.0, HALF],
        },
        // a drop falls for about a second: the pool keeps a fifth for splashes
        rate: capacity as f32 * 0.6 / 1.1,
        bursts: vec![],
        velocity: Velocity::Linear {
            mean: [1.5, -9.0, 0.5],
            variance: [0.2, 1.0, 0.2],
        },
        lifetime: Range::new(2.0, 0.2),
        size: Range::new(0.007, 0.002),
        color: ColorRange {
            mean: [0.7, 0.75, 0.85, 0.4],
            variance: [0.05, 0.05, 0.05, 0.15],
        },
        rotation: Range::default(),
        spin: Range::default(),
        trigger: Trigger::Schedule,
        over_life: None,
        render: None,
        sprite: None,
    };
    let splash = EmitterDesc {
        shape: Shape::Point([0.0; 3]),
        rate: 0.0,
        bursts: vec![],
        velocity: Velocity::Radial {
            speed: Range::new(1.2, 0.4),
        },
        lifetime: Range::new(0.35, 0.1),
        size: Range::new(0.01, 0.003),
        color: ColorRange {
            mean: [0.8, 0.85, 0.95, 0.6],
            variance: [0.05, 0.05, 0.05, 0.1],
        },
        rotation: Range::default(),
        spin: Range::default(),
        trigger: Trigger::OnHit { count: 4 },
        over_life: None,
        render: None,
        sprite: None,
    };
    EffectDesc {
        name: "rain".into(),
        emitters: vec![drop, splash],
        // terminal speed about 9.8 m/s, drifting with the wind
        forces: Forces {
            gravity: [0.0, -9.81, 0.0],
            wind: [1.5, 0.0, 0.5],
            drag: 1.0,
            turbulence: None,
        },
        integrator: Integrator::ExplicitEuler,
        bounds: Some(Bounds {
            min: [-HALF, -1.0, -HALF],
            max: [HALF, 12.0, HALF],
            on_exit: OnExit::Kill,
            follow_camera: false,
        }),
        over_life: OverLife::default(),
        blend: Blend::Alpha,
        sort: None,
        soft_distance: 0.0,
        collision: Some(Collision {
            response: Response::Kill,
            thickness: 0.5,
        }),
        bodies: None,
        self_gravity: None,
        render: RenderMode::Stretched { seconds: 0.04 },
        sprite: Sprite::Disc,
    }
}

pub fn camera(aspect: f32) -> Camera {
    Camera::look_at(Vec3::new(0.0, 2.5, 12.5), Vec3::new(0.0, 0.8, 0.0), aspect)
}
