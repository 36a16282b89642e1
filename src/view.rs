//! The host's view and projection, and the depth convention read from the projection.
//!
//! Everything flurry needs of a camera comes from the two matrices: the frustum planes
//! (culling), the eye (billboards, bounds that follow the camera), the distance of a point
//! along the view axis (sorting, soft particles, depth collision) and how the host's depth
//! buffer maps to that distance. The host's depth buffer is turned into distances once per
//! frame, so every later pass works the same under any convention.

use glam::{Mat4, Vec3, Vec4};

use crate::camera::Camera;
use crate::error::{Invalid, Result};

/// A host's camera: world to view space, and view space to wgpu's clip space.
///
/// View space is right-handed and the camera looks down −Z, as
/// [`glam::camera::rh::view::look_at_mat4`] gives (and wgpu's examples use). Clip space is
/// wgpu's, Direct3D's: x and y in [−1, 1], depth in [0, 1] after the divide by w, as the
/// projections of [`glam::camera::rh::proj::directx`] give.
///
/// The depth convention is read from `proj` (see [`View::convention`]): standard
/// (0 = near, 1 = far) or reversed Z (1 = near, 0 = far), a finite or an infinite far
/// plane, perspective or orthographic. A projection jittered for temporal anti-aliasing
/// (a sub-pixel offset in x and y) is a projection like any other: the particles move with
/// the jitter as the host's geometry does. A projection whose depth depends on x or y (an
/// oblique near plane) is refused. A left-handed host (camera looking down +Z) gives
/// `view` and `proj` with Z flipped: `S * view` and `proj * S`, `S = diag(1, 1, −1, 1)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct View {
    /// World to view space.
    pub view: Mat4,
    /// View to clip space.
    pub proj: Mat4,
}

/// The depth convention of a projection, as [`View::convention`] reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DepthConvention {
    /// Depth 1 at the near plane and 0 at the far one (the host clears depth to 0 and
    /// tests with `Greater`).
    pub reversed: bool,
    /// The far plane is at infinity.
    pub infinite_far: bool,
    /// An orthographic projection (parallel rays, no eye position).
    pub orthographic: bool,
}

impl View {
    /// A view of `view` and `proj` matrices (see [`View`] for the conventions).
    pub fn new(view: Mat4, proj: Mat4) -> Self {
        View { view, proj }
    }

    /// Projection × view: world to clip space.
    pub fn view_proj(&self) -> Mat4 {
        self.proj * self.view
    }

    /// The depth convention of the projection, or an error naming what flurry cannot use:
    /// matrices that are not finite or cannot be inverted, a projection whose depth depends
    /// on x or y, a left-handed one, or one that puts the near plane behind the camera.
    pub fn convention(&self) -> Result<DepthConvention> {
        Ok(self.model()?.depth.convention)
    }

    /// Everything the passes need, checked.
    pub(crate) fn model(&self) -> Result<ViewModel> {
        let finite = |m: &Mat4| m.to_cols_array().iter().all(|x| x.is_finite());
        if !finite(&self.view) || !finite(&self.proj) {
            return Err(Invalid::new("view", "a matrix with NaN or infinity", "finite").into());
        }
        let view = self.view.as_dmat4();
        if view.determinant().abs() < 1e-12 {
            let allowed = "an invertible world-to-view matrix";
            return Err(Invalid::new("view.view", "a singular matrix", allowed).into());
        }
        let depth = DepthMapping::of(&self.proj)?;
        let inverse_view = view.inverse();
        let vp = self.view_proj();
        if vp.as_dmat4().determinant().abs() < 1e-30 {
            let allowed = "an invertible projection × view";
            return Err(Invalid::new("view", "a singular projection × view", allowed).into());
        }
        // the eye: the view's origin; for an orthographic view only bounds that follow the
        // camera use it (billboards face along the view axis instead)
        let eye = inverse_view.col(3).truncate().as_vec3();
        // lin(x) = -(view x).z: distance along the view axis
        let row = -view.row(2);
        Ok(ViewModel {
            view_proj: vp,
            inverse_view_proj: vp.inverse(),
            eye,
            right: inverse_view.col(0).truncate().normalize().as_vec3(),
            up: inverse_view.col(1).truncate().normalize().as_vec3(),
            view_depth: row.as_vec4(),
            pixels_per_unit: self.proj.y_axis.y.abs(),
            planes: frustum_planes(vp),
            depth,
        })
    }
}

impl From<Camera> for View {
    fn from(camera: Camera) -> Self {
        View::new(camera.view(), camera.proj())
    }
}

impl From<&Camera> for View {
    fn from(camera: &Camera) -> Self {
        View::from(*camera)
    }
}

/// A checked view: what the uniforms are made of.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct ViewModel {
    pub view_proj: Mat4,
    pub inverse_view_proj: Mat4,
    /// World position of the view's origin.
    pub eye: Vec3,
    /// World-space right and up axes of the view (billboard axes).
    pub right: Vec3,
    pub up: Vec3,
    /// Distance along the view axis of a point x: `dot(view_depth, (x, 1))`.
    pub view_depth: Vec4,
    /// Clip-space units per view-space unit vertically at w = 1 (|proj[1][1]|): times half
    /// the target's height, pixels per metre at a distance of 1 (perspective) or anywhere
    /// (orthographic).
    pub pixels_per_unit: f32,
    /// Frustum planes (left, right, bottom, top, and the two depth planes), inside where
    /// `xyz·p + w >= 0`; a plane at infinity is `(0, 0, 0, 1)`.
    pub planes: [Vec4; 6],
    pub depth: DepthMapping,
}

/// How the host's depth buffer value d relates to view-space z:
/// `d = (a z + b) / (c z + d)` (rows 2 and 3 of the projection), so the distance along the
/// view axis is `(b − d·dd) / (a − d·c)` with `dd` the w row's constant.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct DepthMapping {
    /// a, b, c, d of the projection's depth and w rows.
    pub coeffs: Vec4,
    /// The depth of the far plane (where the host clears): 1, or 0 when reversed.
    pub background: f32,
    pub convention: DepthConvention,
}

impl DepthMapping {
    pub(crate) fn of(proj: &Mat4) -> Result<Self> {
        let p = proj.as_dmat4();
        let (r2, r3) = (p.row(2), p.row(3));
        let scale = r2.abs().max_element().max(r3.abs().max_element());
        let eps = 1e-6 * scale;
        let refuse = |value: &str, allowed: &str| -> Result<Self> {
            Err(Invalid::new("view.proj", value, allowed).into())
        };
        if scale == 0.0 {
            return refuse("a projection with zero depth and w rows", "a projection");
        }
        if r2.x.abs() > eps || r2.y.abs() > eps || r3.x.abs() > eps || r3.y.abs() > eps {
            return refuse(
                "a depth that depends on x or y (an oblique near plane)",
                "a perspective or orthographic projection whose depth and w rows \
                 depend on view z only",
            );
        }
        let (a, b, c, d) = (r2.z, r2.w, r3.z, r3.w);
        let orthographic = c.abs() <= eps;
        if !orthographic && d.abs() > eps {
            return refuse(
                "a w row that is neither -z (perspective) nor constant (orthographic)",
                "a perspective or orthographic projection",
            );
        }
        if !orthographic && c > 0.0 {
            return refuse(
                "a left-handed projection (w = +z)",
                "right-handed view space (flip Z into both matrices: see flurry::View)",
            );
        }
        let distance = |depth: f64| {
            let den = a - depth * c;
            if den.abs() <= 1e-12 * scale {
                f64::INFINITY
            } else {
                (b - depth * d) / den
            }
        };
        let (at0, at1) = (distance(0.0), distance(1.0));
        if at0 == at1 || at0.is_nan() || at1.is_nan() {
            return refuse(
                "a projection with no depth range",
                "near and far planes apart",
            );
        }
        let reversed = at0 > at1;
        let (near, far) = if reversed { (at1, at0) } else { (at0, at1) };
        if !orthographic && near <= 0.0 {
            return refuse(
                "a near plane at or behind the eye",
                "a near plane in front of the eye",
            );
        }
        Ok(DepthMapping {
            coeffs: glam::DVec4::new(a, b, c, d).as_vec4(),
            background: if reversed { 0.0 } else { 1.0 },
            convention: DepthConvention {
                reversed,
                infinite_far: far.is_infinite(),
                orthographic,
            },
        })
    }

    /// Distance along the view axis of depth `depth` (the WGSL twin is `view_distance`).
    #[cfg(test)]
    pub(crate) fn distance(&self, depth: f32) -> f32 {
        let [a, b, c, d] = self.coeffs.to_array();
        (b - depth * d) / (a - depth * c)
    }
}

/// Frustum planes of `m` in wgpu clip space (0 <= z <= w), normalised so that `xyz·p + w`
/// is the signed distance, positive inside; a plane at infinity (an infinite far plane)
/// keeps nothing out.
fn frustum_planes(m: Mat4) -> [Vec4; 6] {
    let (r0, r1, r2, r3) = (m.row(0), m.row(1), m.row(2), m.row(3));
    [r3 + r0, r3 - r0, r3 + r1, r3 - r1, r2, r3 - r2].map(|p| {
        let n = p.truncate().length();
        if n > 1e-6 * p.w.abs().max(1e-30) && n > 0.0 {
            p / n
        } else {
            Vec4::new(0.0, 0.0, 0.0, 1.0)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::camera::rh::proj::directx as proj;

    fn look() -> Mat4 {
        glam::camera::rh::view::look_at_mat4(Vec3::new(0.0, 0.0, 5.0), Vec3::ZERO, Vec3::Y)
    }

    fn conventions() -> [(Mat4, DepthConvention); 4] {
        let c = |reversed, infinite_far, orthographic| DepthConvention {
            reversed,
            infinite_far,
            orthographic,
        };
        let fov = 1.0;
        [
            (
                proj::perspective(fov, 1.5, 0.1, 100.0),
                c(false, false, false),
            ),
            (
                proj::perspective(fov, 1.5, 100.0, 0.1),
                c(true, false, false),
            ),
            (
                proj::perspective_infinite_reverse(fov, 1.5, 0.1),
                c(true, true, false),
            ),
            (
                proj::orthographic(-3.0, 3.0, -2.0, 2.0, 0.1, 100.0),
                c(false, false, true),
            ),
        ]
    }

    #[test]
    fn the_convention_is_read_from_the_projection() {
        for (p, expected) in conventions() {
            let view = View::new(look(), p);
            assert_eq!(view.convention().unwrap(), expected, "{p:?}");
        }
        let infinite = proj::perspective_infinite(1.0, 1.5, 0.1);
        let c = View::new(look(), infinite).convention().unwrap();
        assert!(!c.reversed && c.infinite_far && !c.orthographic);
    }

    #[test]
    fn depth_maps_back_to_the_distance_along_the_view_axis() {
        for (p, _) in conventions() {
            let m = View::new(look(), p).model().unwrap();
            for distance in [0.5f32, 2.0, 5.0, 40.0] {
                let x = Vec3::new(0.3, -0.2, 5.0 - distance);
                let c = m.view_proj * x.extend(1.0);
                let depth = c.z / c.w;
                let back = m.depth.distance(depth);
                assert!(
                    (back - distance).abs() < 1e-3 * distance,
                    "{p:?}: {back} vs {distance}"
                );
                assert!((m.view_depth.dot(x.extend(1.0)) - distance).abs() < 1e-5);
            }
        }
    }

    #[test]
    fn frustum_planes_contain_the_target_and_exclude_what_is_behind_or_aside() {
        for (p, c) in conventions() {
            let m = View::new(look(), p).model().unwrap();
            let inside = |x: Vec3| m.planes.iter().all(|pl| pl.truncate().dot(x) + pl.w >= 0.0);
            assert!(inside(Vec3::ZERO), "{c:?}");
            assert!(!inside(Vec3::new(0.0, 0.0, 6.0)), "{c:?}");
            assert!(!inside(Vec3::new(100.0, 0.0, 0.0)), "{c:?}");
            assert!(m.planes.iter().all(|p| p.is_finite()));
        }
    }

    #[test]
    fn projections_flurry_cannot_use_are_refused() {
        let mut oblique = proj::perspective(1.0, 1.0, 0.1, 10.0);
        oblique.x_axis.z = 0.3; // depth depends on x
        let mut left_handed = proj::perspective(1.0, 1.0, 0.1, 10.0);
        left_handed.z_axis.w = 1.0;
        let nan = Mat4::from_cols_array(&[f32::NAN; 16]);
        for p in [oblique, left_handed, nan, Mat4::ZERO] {
            let err = View::new(look(), p).convention().unwrap_err().to_string();
            assert!(err.contains("view"), "{err}");
        }
        assert!(
            View::new(Mat4::ZERO, proj::perspective(1.0, 1.0, 0.1, 10.0))
                .convention()
                .is_err()
        );
    }

    #[test]
    fn a_camera_is_a_standard_perspective_view() {
        let camera = Camera::look_at(Vec3::new(1.0, 2.0, 3.0), Vec3::ZERO, 1.5);
        let m = View::from(camera).model().unwrap();
        assert!((m.eye - camera.eye).length() < 1e-5);
        let (right, up) = camera.axes();
        assert!((m.right - right).length() < 1e-5 && (m.up - up).length() < 1e-5);
        assert_eq!(
            m.depth.convention,
            DepthConvention {
                reversed: false,
                infinite_far: false,
                orthographic: false
            }
        );
    }
}
