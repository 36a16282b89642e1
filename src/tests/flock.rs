//! Boids through the neighbour grid: the steering equals its CPU twin's particle by
//! particle (tests/flock.rs watches a whole flock form).

use crate::effect::{EffectDesc, Shape};

#[test]
fn the_flock_steers_as_its_cpu_twin() {
    // 2,048 birds of effects/flock.ron in a 12 m box (about its density) for three frames:
    // the GPU's steering through the grid and the twin's over every pair move each bird
    // alike
    let mut desc = EffectDesc::from_ron(include_str!("../../effects/flock.ron")).unwrap();
    desc.emitters[0].shape = Shape::Box {
        min: [-6.0, 35.0, -6.0],
        max: [6.0, 45.0, 6.0],
    };
    desc.emitters[0].bursts[0].count = 2048;
    super::pool::compare_with_twin(&desc, 2048, 3, 3, 1.0 / 30.0);
}
