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
    /// Compile the pipelines of a new kind of effect on a worker thread (on, the default):
    /// [`crate::ParticleRenderer::add_effect`] returns at once, and the effect records
    /// nothing, its clock waiting at 0, until they are built
    /// ([`crate::ParticleRenderer::is_ready`]); a burst at its start then appears whole,
    /// and no frame of the host waits for a compile (one kind takes a CPU driver half a
    /// second and more). Effects of kinds already built ([`crate::ParticleRenderer::warm`],
    /// or an earlier effect's compile) start at once. Off: `add_effect` compiles them on
    /// the calling thread, and a frame those that only a frame needs, so that an effect
    /// starts at the frame it is added (tools that step a fixed number of frames, tests).
    pub background_compile: bool,
}

/// Half resolution with nearest-depth upsampling, a 4-pixel splat radius and compiles off
/// the host's thread: on a CPU
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
            background_compile: true,
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
    /// An 8-bit UNORM format that has an sRGB twin but is not it (`Bgra8Unorm`, the
    /// format egui and many UI toolkits draw their windows in) is taken to show what it
    /// stores as gamma-encoded: flurry encodes its colours for it, exactly where they are
    /// opaque or over black, while the blending itself then happens in gamma space, as the
    /// toolkit's own does. Take the sRGB format where the host can.
    pub color_format: wgpu::TextureFormat,
    /// The host's depth format, if it has a depth buffer; its views must show the depth
    /// aspect only and have `TEXTURE_BINDING` usage.
    pub depth_format: Option<wgpu::TextureFormat>,
    /// Samples per pixel of the host's colour and depth (1 without MSAA; 2, 4, 8 or 16
    /// where the formats allow it). The composite draws into the multisampled colour and
    /// the depth is read sample by sample.
    pub sample_count: u32,
    /// Whether the pass the particles are composited in ([`crate::ParticleRenderer::render`])
    /// has the host's depth as a read-only depth attachment (true, the default) or has no
    /// depth attachment at all (false: a UI toolkit's pass, egui's among them, or a
    /// post-processing pass). Either way the depth is given in [`FrameTargets`] and read as
    /// a texture: particles behind the host's scene stay hidden.
    pub depth_in_pass: bool,
}

impl Targets {
    /// Single-sampled targets of `color_format` and `depth_format`.
    pub fn new(
        color_format: wgpu::TextureFormat,
        depth_format: Option<wgpu::TextureFormat>,
    ) -> Self {
        Targets {
            color_format,
            depth_format,
            sample_count: 1,
            depth_in_pass: true,
        }
    }

    /// The same formats with `sample_count` samples per pixel.
    pub fn with_samples(self, sample_count: u32) -> Self {
        Targets {
            sample_count,
            ..self
        }
    }

    /// Whether [`Targets::color_format`] is shown as gamma-encoded (a UNORM format with an
    /// sRGB twin, taken without it): flurry then writes encoded colour.
    pub(crate) fn gamma_encoded(&self) -> bool {
        let f = self.color_format;
        !f.is_srgb() && f.add_srgb_suffix() != f
    }

    /// Whether [`Targets::color_format`] holds high dynamic range (floats): the particle
    /// colour is then composited as it is, else tonemapped.
    pub(crate) fn hdr(&self) -> bool {
        use wgpu::TextureFormat as F;
        matches!(
            self.color_format,
            F::Rgba16Float | F::Rgba32Float | F::Rg11b10Ufloat
        )
    }

    /// The same, composited in a pass without a depth attachment
    /// ([`Targets::depth_in_pass`]).
    pub fn without_depth_in_pass(self) -> Self {
        Targets {
            depth_in_pass: false,
            ..self
        }
    }
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
        if let Some(depth) = self.depth_format.filter(|d| !d.has_depth_aspect()) {
            let allowed = "a depth format (Depth32Float, Depth24Plus, …) or none";
            return Err(Invalid::new("depth_format", format!("{depth:?}"), allowed).into());
        }
        let n = self.sample_count;
        let formats = std::iter::once(color).chain(self.depth_format);
        // the counts every format supports (as the device guarantees for it)
        let all_support = |k: u32| {
            formats.clone().all(|f| {
                let features = f.guaranteed_format_features(device.features());
                features.flags.sample_count_supported(k)
            })
        };
        if n != 1 && !all_support(n) {
            let counts: Vec<String> = [2, 4, 8, 16]
                .into_iter()
                .filter(|&k| all_support(k))
                .map(|k| k.to_string())
                .collect();
            let allowed = format!("1 or {} for these formats", counts.join(", "));
            return Err(Invalid::new("sample_count", n, allowed).into());
        }
        Ok(())
    }
}

/// One frame of the host: the views the particles are composited onto. Their textures
/// have [`Targets`]' formats and sample count, and the size given to
/// [`crate::ParticleRenderer::update`]; the colour has `RENDER_ATTACHMENT` usage, the depth
/// `RENDER_ATTACHMENT` and `TEXTURE_BINDING` (flurry checks these and refuses others). The
/// depth view must show the depth aspect only (a view's aspect cannot be checked: a view of
/// both aspects of a depth-stencil format is a wgpu validation error).
pub struct FrameTargets<'a> {
    /// The host's colour, drawn over (loaded and stored).
    pub color: &'a wgpu::TextureView,
    /// The host's depth, read only: it hides particles and is what they collide with.
    pub depth: Option<&'a wgpu::TextureView>,
    /// Where [`crate::ParticleRenderer::encode`]'s composite pass resolves a multisampled
    /// colour to (one sample, the colour's format and size), if the host wants it resolved
    /// there; none leaves the resolve to the host's later passes. Unused by
    /// [`crate::ParticleRenderer::render`], whose pass is the host's.
    pub resolve: Option<&'a wgpu::TextureView>,
}

impl<'a> FrameTargets<'a> {
    /// A frame of `color` and `depth`, resolved nowhere.
    pub fn new(color: &'a wgpu::TextureView, depth: Option<&'a wgpu::TextureView>) -> Self {
        FrameTargets {
            color,
            depth,
            resolve: None,
        }
    }
}
