//! A murmuration: boids steered on the GPU through the neighbour grid, circling a roost,
//! drawn as lit birds whose wings beat (mesh particles: a bird seen from any side, banking
//! as it turns, reads as a bird where a sprite shows one side only).

use flurry::effect::{EffectDesc, Shape};
use flurry::glam::Vec3;
use flurry::Camera;

/// The shipped effect file the demo shows.
pub const SHIPPED: &str = include_str!("../../../../effects/flock.ron");

/// `effects/flock.ron` (written for 262,144 birds) with `capacity` birds at its density:
/// its box of sky narrowed (or widened) in x and z.
pub fn effect(capacity: u32) -> EffectDesc {
    let mut e = EffectDesc::from_ron(SHIPPED).expect("effects/flock.ron parses (tests/shipped.rs)");
    let shipped = e.emitters[0].bursts[0].count;
    let scale = (capacity as f32 / shipped as f32).sqrt();
    if let Shape::Box { min, max } = &mut e.emitters[0].shape {
        for axis in [0, 2] {
            min[axis] *= scale;
            max[axis] *= scale;
        }
    }
    e.emitters[0].bursts[0].count = capacity;
    e
}

/// Just outside the roost's circle, below the flock, looking along it: the nearest birds
/// overhead several pixels across, the far side of the circle a haze of specks.
pub fn camera(aspect: f32) -> Camera {
    let eye = Vec3::new(20.0, 30.0, 70.0);
    Camera::look_at(eye, Vec3::new(-35.0, 44.0, 15.0), aspect)
}
