//! Orbit and fly control for the windowed demos.

use flurry::glam::Vec3;
use flurry::Camera;

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
}
