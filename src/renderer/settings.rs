//! What a host chooses about the render node: the particle target's resolution, how it is
//! upsampled, which particles the compute splat draws, and the formats of its own targets.

use crate::error::{Invalid, Result};

/// Resolution of the particle target relative to the host's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Scale {
    /// The host's resolution.
    Full,
    /// Half the host's width and height (the default).
    #[default]
    Half,
    /// A quarter of the host's width and height.
    Quarter,
}

impl Scale {
    /// Host pixels per particle-target pixel, per axis.
    pub fn factor(self) -> u32 {
        match self {
            Scale::Full => 1,
            Scale::Half => 2,
            Scale::Quarter => 4,
        }
    }

    /// 1, 0.5 or 0.25.
    pub fn value(self) -> f32 {
        1.0 / self.factor() as f32
    }

    /// 1, 0.5 or 0.25; anything else is refused naming `field`.
    pub fn from_value(field: &str, x: f64) -> Result<Self> {
        match x {
            1.0 => Ok(Scale::Full),
            0.5 => Ok(Scale::Half),
            0.25 => Ok(Scale::Quarter),
            _ => Err(Invalid::new(field, x, "1, 0.5 or 0.25").into()),
        }
    }
}

/// How the particle target is brought back to the host's resolution.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Upsample {
    /// Bilinear everywhere (particles bleed onto nearer objects at depth edges).
    Bilinear,
    /// Bilinear except at depth edges, where the texel of closest depth is taken.
    #[default]
    NearestDepth,
}

/// Largest splat radius in target pixels (each splat walks at most (2r + 3)² texels).
pub const MAX_SPLAT_RADIUS: f32 = 16.0;

/// How the renderer draws particles into the host's image.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// The particle target's resolution.
    pub scale: Scale,
    /// How the particle target is upsampled onto the host's image.
    pub upsample: Upsample,
    /// Relative view-depth difference that nearest-depth upsampling treats as an edge.
    pub edge_threshold: f32,
    /// Particles whose projected radius is at most this many particle-target pixels are
    /// drawn by the compute splat (order-independent), larger ones as sorted triangles; 0
    /// draws every particle as triangles. At most [`MAX_SPLAT_RADIUS`]. Off by itself
    /// when the target's accumulators (32 bytes a texel) exceed the device's storage
    /// limit.
    pub splat_radius: f32,
}

/// Half resolution with nearest-depth upsampling and a 4-pixel splat radius: on a CPU
/// rasteriser (lavapipe) this drew 262,144 snowflakes at 1920×1080 about 2.1–2.2 times
/// faster than full resolution, and splat radii of 2, 4 and 8 cost the same there
/// (`docs/measurements.md`).
impl Default for Settings {
    fn default() -> Self {
        Settings {
            scale: Scale::Half,
            upsample: Upsample::NearestDepth,
            edge_threshold: 0.1,
            splat_radius: 4.0,
        }
    }
}

impl Settings {
    /// The splat radius as used: within [0, MAX_SPLAT_RADIUS], NaN as 0.
    pub(crate) fn splat_radius(&self) -> f32 {
        if self.splat_radius.is_nan() {
            0.0
        } else {
            self.splat_radius.clamp(0.0, MAX_SPLAT_RADIUS)
        }
    }
}

/// Formats of the host's targets.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Targets {
    /// The format of the colour views given to [`crate::ParticleRenderer::encode`]; an LDR
    /// format gets the particles tonemapped, an HDR one (`Rgba16Float`, …) as they are.
    pub color_format: wgpu::TextureFormat,
    /// The host's depth format, if it has a depth buffer; its views must show the depth
    /// aspect only and have `TEXTURE_BINDING` usage.
    pub depth_format: Option<wgpu::TextureFormat>,
}

impl Targets {
    /// Formats flurry can draw into on `device`: a colour format that can be rendered to
    /// and blended into (as the device guarantees for it), a depth format with a depth
    /// aspect.
    pub(crate) fn check(&self, device: &wgpu::Device) -> Result<()> {
        let color = self.color_format;
        let features = color.guaranteed_format_features(device.features());
        let renderable = features
            .allowed_usages
            .contains(wgpu::TextureUsages::RENDER_ATTACHMENT);
        let blendable = features
            .flags
            .contains(wgpu::TextureFormatFeatureFlags::BLENDABLE);
        if !(renderable && blendable) {
            let allowed = "a format that can be rendered to and blended into \
                (Rgba8UnormSrgb, Bgra8UnormSrgb, Rgba16Float, …)";
            return Err(Invalid::new("color_format", format!("{color:?}"), allowed).into());
        }
        match self.depth_format {
            Some(depth) if !depth.has_depth_aspect() => {
                let allowed = "a depth format (Depth32Float, Depth24Plus, …) or none";
                Err(Invalid::new("depth_format", format!("{depth:?}"), allowed).into())
            }
            _ => Ok(()),
        }
    }
}

/// One frame of the host: the views the particles are composited onto. Their textures
/// have [`Targets`]' formats, one sample, and the size given to
/// [`crate::ParticleRenderer::update`]; the colour has `RENDER_ATTACHMENT` usage, the depth
/// `RENDER_ATTACHMENT` and `TEXTURE_BINDING` (flurry checks these and refuses others). The
/// depth view must show the depth aspect only (a view's aspect cannot be checked: a view of
/// both aspects of a depth-stencil format is a wgpu validation error).
pub struct FrameTargets<'a> {
    /// The host's colour, drawn over (loaded and stored).
    pub color: &'a wgpu::TextureView,
    /// The host's depth, read only: it hides particles and is what they collide with.
    pub depth: Option<&'a wgpu::TextureView>,
}
