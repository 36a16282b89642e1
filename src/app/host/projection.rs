//! How the stand-in host projects and stores depth: the conventions real engines use
//! (standard or reversed Z, an infinite far plane, orthographic views) and MSAA, so the
//! demos and tests can run flurry under each of them.

use flurry::glam::{Mat4, Vec2, Vec4};
use flurry::{Camera, View};

/// The host's projection and depth convention.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Projection {
    /// Perspective, depth 0 at the near plane and 1 at the far one (cleared to 1, `Less`).
    #[default]
    Standard,
    /// Perspective with reversed Z: 1 at the near plane, 0 at the far one (cleared to 0,
    /// `Greater`).
    Reversed,
    /// Reversed Z with the far plane at infinity.
    ReversedInfinite,
    /// Orthographic, framing what the perspective camera frames at its target's distance
    /// (standard depth).
    Orthographic,
}

impl Projection {
    /// Every convention, for tests that run under each.
    pub const ALL: [Projection; 4] = [
        Projection::Standard,
        Projection::Reversed,
        Projection::ReversedInfinite,
        Projection::Orthographic,
    ];

    /// Whether depth 1 is near.
    pub fn reversed(self) -> bool {
        matches!(self, Projection::Reversed | Projection::ReversedInfinite)
    }

    /// The depth the host clears to (the far plane's).
    pub fn clear_depth(self) -> f32 {
        if self.reversed() {
            0.0
        } else {
            1.0
        }
    }

    /// What passes the host's depth test.
    pub fn depth_compare(self) -> flurry::wgpu::CompareFunction {
        if self.reversed() {
            flurry::wgpu::CompareFunction::Greater
        } else {
            flurry::wgpu::CompareFunction::Less
        }
    }

    /// The projection of `camera` in this convention.
    pub fn proj(self, camera: &Camera) -> Mat4 {
        use flurry::glam::camera::rh::proj::directx as proj;
        let (fov, aspect, near, far) = (camera.fov_y, camera.aspect, camera.near, camera.far);
        match self {
            Projection::Standard => proj::perspective(fov, aspect, near, far),
            Projection::Reversed => proj::perspective(fov, aspect, far, near),
            Projection::ReversedInfinite => proj::perspective_infinite_reverse(fov, aspect, near),
            Projection::Orthographic => {
                let h = camera.eye.distance(camera.target) * (0.5 * fov).tan();
                let w = h * aspect;
                proj::orthographic(-w, w, -h, h, near, far)
            }
        }
    }

    /// The host's view of `camera` in this convention, its projection shifted by `jitter`
    /// pixels of a `size` target (as a temporal anti-aliasing host jitters it).
    pub fn view(self, camera: &Camera, jitter: Vec2, size: (u32, u32)) -> View {
        let ndc = 2.0 * jitter / Vec2::new(size.0 as f32, size.1 as f32);
        // a move of (x, y) in normalised device coordinates is x_clip += x · w_clip (pixel
        // y points down, NDC y up)
        let shift = Mat4::from_cols(
            Vec4::X,
            Vec4::Y,
            Vec4::Z,
            Vec4::new(ndc.x, -ndc.y, 0.0, 1.0),
        );
        View::new(camera.view(), shift * self.proj(camera))
    }
}

/// The host's depth convention and sample count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HostSetup {
    pub projection: Projection,
    /// Samples per pixel of the host's colour and depth (1: no MSAA).
    pub samples: u32,
    /// Draws in half floats, unclamped, and finishes its image with a bloom and a filmic
    /// tonemap (post.rs); else draws in 8-bit sRGB, where flurry tonemaps the particles.
    pub hdr: bool,
}

impl HostSetup {
    /// Standard depth, one sample.
    pub const STANDARD: HostSetup = HostSetup {
        projection: Projection::Standard,
        samples: 1,
        hdr: false,
    };

    /// Standard depth, one sample, HDR with a bloom and a filmic tonemap.
    pub const HDR: HostSetup = HostSetup {
        hdr: true,
        ..HostSetup::STANDARD
    };
}

impl Default for HostSetup {
    fn default() -> Self {
        HostSetup::STANDARD
    }
}
