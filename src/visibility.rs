//! What an effect costs when it cannot be seen: its bounds in the world (where its
//! particles can be), tested against each frame's view, and what it does while they lie
//! outside it ([`OffScreen`]; [`crate::ParticleRenderer::set_off_screen`]).

use glam::{Mat4, Vec3, Vec4};

use crate::error::{Invalid, Result};

/// An axis-aligned box in world space, metres.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Aabb {
    /// The corner with the smallest coordinates.
    pub min: Vec3,
    /// The corner with the largest coordinates.
    pub max: Vec3,
}

impl Aabb {
    /// The box from `min` to `max`; refuses corners that are not finite or not ordered.
    pub fn new(min: Vec3, max: Vec3) -> Result<Self> {
        if !(min.is_finite() && max.is_finite() && min.cmple(max).all()) {
            let value = format!("min {min} max {max}");
            return Err(Invalid::new("bounds", value, "finite corners, min <= max").into());
        }
        Ok(Aabb { min, max })
    }

    /// The box round a ball.
    pub(crate) fn ball(center: Vec3, radius: f32) -> Self {
        Aabb {
            min: center - Vec3::splat(radius),
            max: center + Vec3::splat(radius),
        }
    }

    /// The smallest box holding both.
    pub(crate) fn union(self, other: Aabb) -> Self {
        Aabb {
            min: self.min.min(other.min),
            max: self.max.max(other.max),
        }
    }

    /// Grown by `margin` metres on every side.
    pub(crate) fn grown(self, margin: f32) -> Self {
        Aabb {
            min: self.min - Vec3::splat(margin),
            max: self.max + Vec3::splat(margin),
        }
    }

    /// Every point of one plus every point of the other (their Minkowski sum).
    pub(crate) fn plus(self, other: Aabb) -> Self {
        Aabb {
            min: self.min + other.min,
            max: self.max + other.max,
        }
    }

    /// How far its farthest corner lies from the origin.
    pub(crate) fn farthest(self) -> f32 {
        self.min.abs().max(self.max.abs()).length()
    }

    /// Swept along `v`: every point from its own place to that place plus `v`.
    pub(crate) fn swept(self, v: Vec3) -> Self {
        Aabb {
            min: self.min + v.min(Vec3::ZERO),
            max: self.max + v.max(Vec3::ZERO),
        }
    }

    /// What both hold (None: nothing).
    pub(crate) fn intersection(self, other: Aabb) -> Option<Self> {
        let (min, max) = (self.min.max(other.min), self.max.min(other.max));
        min.cmple(max).all().then_some(Aabb { min, max })
    }

    /// The box holding this one carried by `m` (its eight corners).
    pub(crate) fn transformed(self, m: Mat4) -> Self {
        // the centre carried, and the half-extent as far as each axis's absolute row reaches
        // (Arvo's bound: exactly the box round the eight corners carried, for an affine `m`)
        let centre = m.transform_point3((self.min + self.max) * 0.5);
        let half = (self.max - self.min) * 0.5;
        let linear = glam::Mat3::from_mat4(m);
        let reach = glam::Mat3::from_cols(
            linear.x_axis.abs(),
            linear.y_axis.abs(),
            linear.z_axis.abs(),
        ) * half;
        Aabb {
            min: centre - reach,
            max: centre + reach,
        }
    }

    /// Whether any of it lies inside the frustum whose planes are `planes` (inside where
    /// `dot(xyz, p) + w >= 0`): false only when it lies wholly outside one plane.
    pub(crate) fn meets(&self, planes: &[Vec4; 6]) -> bool {
        planes.iter().all(|p| {
            // the corner farthest along the plane's normal
            let n = p.truncate();
            let far = Vec3::select(n.cmpge(Vec3::ZERO), self.max, self.min);
            n.dot(far) + p.w >= 0.0
        })
    }
}

/// What an effect does while its bounds lie wholly outside the view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OffScreen {
    /// Goes on as if seen (the default): what it does off screen can matter (a fountain
    /// filling a basin the camera turns to).
    #[default]
    Simulate,
    /// Frozen, as if paused, until seen again: no emit or simulate recorded, its clock
    /// stopped. It goes on from where it was (torches along a corridor).
    Pause,
    /// Frozen while unseen; when seen again it first runs the time it missed, at once (as
    /// a prewarm does, at most its particles' longest life: what is older is gone anyway),
    /// so it looks as if it had never stopped. Those steps are recorded into the host's
    /// encoder before the passes of the first frame that sees it again: a cost of that
    /// frame, submitted with it.
    CatchUp,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A box carried by a turn, a scale and a move is the box round its eight corners
    /// carried, no larger.
    #[test]
    fn a_carried_box_holds_its_carried_corners_exactly() {
        let b = Aabb {
            min: Vec3::new(-1.0, 0.5, 2.0),
            max: Vec3::new(3.0, 1.5, 2.5),
        };
        let m = Mat4::from_scale_rotation_translation(
            Vec3::new(2.0, 0.5, 1.0),
            glam::Quat::from_euler(glam::EulerRot::YXZ, 0.7, -0.4, 1.9),
            Vec3::new(5.0, -2.0, 0.25),
        );
        let corners = (0..8).map(|k: u32| {
            let pick = |bit: u32, lo: f32, hi: f32| if k >> bit & 1 == 1 { hi } else { lo };
            let c = Vec3::new(
                pick(0, b.min.x, b.max.x),
                pick(1, b.min.y, b.max.y),
                pick(2, b.min.z, b.max.z),
            );
            m.transform_point3(c)
        });
        let (min, max) = corners.fold((Vec3::INFINITY, Vec3::NEG_INFINITY), |(lo, hi), c| {
            (lo.min(c), hi.max(c))
        });
        let carried = b.transformed(m);
        assert!(carried.min.abs_diff_eq(min, 1e-5), "{carried:?} vs {min}");
        assert!(carried.max.abs_diff_eq(max, 1e-5), "{carried:?} vs {max}");
    }
}
