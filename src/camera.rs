//! A perspective camera (right-handed, wgpu clip space with depth 0..1).

use glam::{Mat4, Vec3, Vec4};

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    pub eye: Vec3,
    pub target: Vec3,
    pub up: Vec3,
    /// Vertical field of view, radians.
    pub fov_y: f32,
    /// Width / height.
    pub aspect: f32,
    pub near: f32,
    pub far: f32,
}

impl Camera {
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

    pub fn view(&self) -> Mat4 {
        glam::camera::rh::view::look_at_mat4(self.eye, self.target, self.up)
    }

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

impl Camera {
    /// Frustum planes (left, right, bottom, top, near, far) of `view_proj` in wgpu clip
    /// space (0 <= z <= w), normalised so that `xyz·p + w` is the signed distance, positive
    /// inside.
    pub fn frustum_planes(&self) -> [Vec4; 6] {
        let m = self.view_proj();
        let (r0, r1, r2, r3) = (m.row(0), m.row(1), m.row(2), m.row(3));
        [r3 + r0, r3 - r0, r3 + r1, r3 - r1, r2, r3 - r2].map(|p| p / p.truncate().length())
    }
}

/// Orbit and fly control for interactive viewers: drag to rotate about a centre, wheel to
/// zoom, keys to move the centre.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OrbitController {
    pub target: Vec3,
    pub distance: f32,
    /// Radians about +Y, 0 looking along −Z.
    pub yaw: f32,
    /// Radians above the horizon.
    pub pitch: f32,
}

impl OrbitController {
    /// The controller that reproduces `camera`'s eye and target.
    pub fn from_camera(camera: &Camera) -> Self {
        let offset = camera.eye - camera.target;
        let distance = offset.length().max(1e-3);
        OrbitController {
            target: camera.target,
            distance,
            yaw: offset.x.atan2(offset.z),
            pitch: (offset.y / distance).clamp(-1.0, 1.0).asin(),
        }
    }

    /// Rotate by a mouse drag of (dx, dy) pixels.
    pub fn rotate(&mut self, dx: f32, dy: f32) {
        self.yaw -= dx * 0.005;
        self.pitch = (self.pitch + dy * 0.005).clamp(-1.5, 1.5);
    }

    /// Zoom by wheel steps (positive: closer).
    pub fn zoom(&mut self, steps: f32) {
        self.distance = (self.distance * 0.9f32.powf(steps)).clamp(0.2, 1000.0);
    }

    /// Move the centre along the view (forward), sideways (right) and up, in units per
    /// second scaled by the distance, for `dt` seconds.
    pub fn fly(&mut self, forward: f32, right: f32, up: f32, dt: f32) {
        let speed = self.distance.max(1.0) * 0.6 * dt;
        let back = Vec3::new(self.yaw.sin(), 0.0, self.yaw.cos());
        let side = Vec3::Y.cross(back).normalize();
        self.target += (-back * forward + side * right + Vec3::Y * up) * speed;
    }

    /// Put `camera` where the controller says.
    pub fn apply(&self, camera: &mut Camera) {
        let (sy, cy) = self.yaw.sin_cos();
        let (sp, cp) = self.pitch.sin_cos();
        camera.target = self.target;
        camera.eye = self.target + Vec3::new(cp * sy, sp, cp * cy) * self.distance;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orbit_controller_round_trips_a_camera() {
        let camera = Camera::look_at(Vec3::new(3.0, 4.0, 12.0), Vec3::new(1.0, 1.0, -2.0), 1.5);
        let mut again = camera;
        OrbitController::from_camera(&camera).apply(&mut again);
        assert!((again.eye - camera.eye).length() < 1e-4, "{:?}", again.eye);
        assert_eq!(again.target, camera.target);
    }

    #[test]
    fn frustum_planes_contain_the_target_and_exclude_the_eye_behind() {
        let camera = Camera::look_at(Vec3::new(0.0, 0.0, 5.0), Vec3::ZERO, 1.0);
        let inside = |p: Vec3| {
            camera
                .frustum_planes()
                .iter()
                .all(|pl| pl.truncate().dot(p) + pl.w >= 0.0)
        };
        assert!(inside(Vec3::ZERO));
        assert!(!inside(Vec3::new(0.0, 0.0, 6.0)));
        assert!(!inside(Vec3::new(100.0, 0.0, 0.0)));
    }
}
