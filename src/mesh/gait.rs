//! The figure's walk cycles baked into an animation texture: per gait and frame of its
//! cycle, each bone's pose (mesh.wgsl reads them for a crowd's walkers).

use super::builtin::{FIGURE_BONES, FIGURE_PIVOTS};

/// Frames baked per cycle of a gait (mesh.wgsl blends between two).
pub(crate) const GAIT_FRAMES: usize = 16;
/// Gaits baked, in [`Gait`](crate::effect::Gait) order: stand, walk, run.
pub(crate) const GAITS: usize = 3;

/// The poses as a texture's texels: a row per (gait, frame), gait by gait, and in a row a
/// texel per bone: (radians the bone turns about the figure's x axis, its pivot's y and z,
/// metres the whole figure is lifted). A positive turn swings a leg's foot back and leans
/// the body forward.
pub(crate) fn figure_poses() -> Vec<[f32; 4]> {
    let mut texels = Vec::with_capacity(GAITS * GAIT_FRAMES * FIGURE_BONES);
    for gait in 0..GAITS {
        // (lean, leg swing, arm swing, bob) of the gait
        let (lean, legs, arms, bob) = match gait {
            0 => (0.0, 0.0, 0.05, 0.004),
            1 => (0.05, 0.45, 0.35, 0.03),
            _ => (0.2, 0.8, 0.8, 0.07),
        };
        for frame in 0..GAIT_FRAMES {
            let t = std::f32::consts::TAU * frame as f32 / GAIT_FRAMES as f32;
            let s = t.sin();
            // the body rises twice a cycle, as each leg passes under it
            let lift = bob * (2.0 * t).cos().abs();
            // each arm swings against the leg on its side
            let angles = [lean, legs * s, -legs * s, -arms * s, arms * s];
            for (angle, [y, z]) in angles.iter().zip(FIGURE_PIVOTS) {
                texels.push([*angle, y, z, lift]);
            }
        }
    }
    texels
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_walk_swings_the_legs_against_each_other_and_standing_hardly_moves() {
        let poses = figure_poses();
        assert_eq!(poses.len(), GAITS * GAIT_FRAMES * FIGURE_BONES);
        let texel = |gait: usize, frame: usize, bone: usize| {
            poses[(gait * GAIT_FRAMES + frame) * FIGURE_BONES + bone]
        };
        // a quarter of the walk's cycle: the legs at their widest, opposite
        let (left, right) = (texel(1, 4, 1)[0], texel(1, 4, 2)[0]);
        assert!((left - 0.45).abs() < 1e-5 && (right + 0.45).abs() < 1e-5);
        // a running stride is wider than a walking one
        assert!(texel(2, 4, 1)[0] > left);
        for frame in 0..GAIT_FRAMES {
            for bone in 1..3 {
                assert_eq!(texel(0, frame, bone)[0], 0.0, "a standing leg swings");
            }
        }
    }
}
