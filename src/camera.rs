//! A perspective camera (right-handed, wgpu clip space with depth 0..1, 1 = far).

use glam::{Mat4, Vec3};

/// A simple right-handed perspective camera in wgpu's clip space (depth 0 at `near`, 1 at
/// `far`), for hosts without matrices of their own: it converts into the [`crate::View`]
/// that [`crate::ParticleRenderer::update`] takes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    /// The eye, metres.
    pub eye: Vec3,
    /// The point looked at.
    pub target: Vec3,
    /// World up (tilts the view about the look direction).
    pub up: Vec3,
    /// Vertical field of view, radians.
    pub fov_y: f32,
    /// Width / height.
    pub aspect: f32,
    /// Near plane, metres.
    pub near: f32,
    /// Far plane, metres.
    pub far: f32,
}

impl Camera {
    /// A camera at `eye` looking at `target`, +Y up, 60° vertical field of view, near and
    /// far planes at 0.05 and 500 m.
    pub fn look_at(eye: Vec3, target: Vec3, aspect: f32) -> Self {
        Camera {
            eye,
            target,
            up: Vec3::Y,
            fov_y: 60f32.to_radians(),
            aspect,
            near: 0.05,
            far: 500.0,
        }
    }

    /// World to view space.
    pub fn view(&self) -> Mat4 {
        glam::camera::rh::view::look_at_mat4(self.eye, self.target, self.up)
    }

    /// View to clip space (depth 0..1).
    pub fn proj(&self) -> Mat4 {
        glam::camera::rh::proj::directx::perspective(self.fov_y, self.aspect, self.near, self.far)
    }

    /// Projection × view, column-major, wgpu clip space.
    pub fn view_proj(&self) -> Mat4 {
        self.proj() * self.view()
    }

    /// World-space right and up axes of the view (billboard axes).
    pub fn axes(&self) -> (Vec3, Vec3) {
        let v = self.view();
        (v.row(0).truncate(), v.row(1).truncate())
    }
}
