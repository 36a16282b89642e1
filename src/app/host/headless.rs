//! An offscreen host: an sRGB colour target and a depth buffer (no window, no surface),
//! with a stand-in scene, read back as an image or written as a PNG; or, HDR, a half-float
//! target finished into the sRGB image by a bloom and a filmic tonemap (post.rs).

use flurry::{wgpu, FrameTargets, GpuContext, Targets};

use super::error::{AppError, Result};
use super::projection::HostSetup;
use super::stage::{HostScene, HOST_DEPTH_FORMAT};

/// Format of the host's colour target (LDR: the composite tonemaps particles into it).
pub const OUTPUT_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;

/// A 2D texture of one level and sample.
pub fn texture(
    device: &wgpu::Device,
    label: &str,
    size: (u32, u32),
    format: wgpu::TextureFormat,
    usage: wgpu::TextureUsages,
) -> wgpu::Texture {
    multisampled(device, label, size, (format, 1), usage)
}

/// A 2D texture of one level and `samples` samples.
pub fn multisampled(
    device: &wgpu::Device,
    label: &str,
    (width, height): (u32, u32),
    (format, samples): (wgpu::TextureFormat, u32),
    usage: wgpu::TextureUsages,
) -> wgpu::Texture {
    device.create_texture(&wgpu::TextureDescriptor {
        label: Some(label),
        size: wgpu::Extent3d {
            width,
            height,
            depth_or_array_layers: 1,
        },
        mip_level_count: 1,
        sample_count: samples,
        dimension: wgpu::TextureDimension::D2,
        format,
        usage,
        view_formats: &[],
    })
}

/// The host's depth buffer of `samples` samples: flurry reads it, so it is bindable as a
/// texture too.
pub fn host_depth(device: &wgpu::Device, size: (u32, u32), samples: u32) -> wgpu::Texture {
    let usage = wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING;
    multisampled(
        device,
        "host depth",
        size,
        (HOST_DEPTH_FORMAT, samples),
        usage,
    )
}

/// The offscreen host's targets and scene.
pub struct HeadlessTarget {
    pub width: u32,
    pub height: u32,
    /// The image (resolved from `multisampled` when the host has MSAA; HDR: the half-float
    /// image the post-processing reads).
    color: wgpu::Texture,
    color_view: wgpu::TextureView,
    /// HDR: the sRGB image the post-processing finishes `color` into, and it.
    finished: Option<(wgpu::Texture, wgpu::TextureView, super::post::Post)>,
    /// The multisampled colour the host and the particles draw into (MSAA only).
    multisampled: Option<wgpu::TextureView>,
    /// An image stored gamma-encoded without an sRGB format (`stored_as`): the sRGB view
    /// of it the host's scene is drawn through (flurry gets `color_view`).
    scene_view: Option<wgpu::TextureView>,
    /// The format of `color_view`: what a renderer drawing into this host composites into.
    format: wgpu::TextureFormat,
    depth_view: wgpu::TextureView,
    /// The host's own geometry, drawn before the particles.
    pub scene: HostScene,
}

impl HeadlessTarget {
    /// The formats a renderer drawing into a standard host needs.
    pub const TARGETS: Targets = Targets {
        color_format: OUTPUT_FORMAT,
        depth_format: Some(HOST_DEPTH_FORMAT),
        sample_count: 1,
        depth_in_pass: true,
    };

    /// Standard targets of `width × height` (checked against the device by the caller).
    pub fn new(device: &wgpu::Device, width: u32, height: u32) -> Self {
        Self::of(device, (width, height), HostSetup::STANDARD)
    }

    /// Targets of `size` in `setup`'s depth convention, sample count and range.
    pub fn of(device: &wgpu::Device, size: (u32, u32), setup: HostSetup) -> Self {
        use wgpu::TextureUsages as U;
        let format = Self::color_format(setup);
        let color_usage = U::RENDER_ATTACHMENT | U::COPY_SRC | U::TEXTURE_BINDING;
        let color = texture(device, "host color", size, format, color_usage);
        let multisampled = (setup.samples > 1).then(|| {
            multisampled(
                device,
                "host msaa color",
                size,
                (format, setup.samples),
                U::RENDER_ATTACHMENT,
            )
            .create_view(&Default::default())
        });
        let depth = host_depth(device, size, setup.samples);
        let color_view = color.create_view(&Default::default());
        let finished = setup.hdr.then(|| {
            let usage = U::RENDER_ATTACHMENT | U::COPY_SRC;
            let image = texture(device, "host image", size, OUTPUT_FORMAT, usage);
            let view = image.create_view(&Default::default());
            let post = super::post::Post::new(device, &color_view, size, OUTPUT_FORMAT);
            (image, view, post)
        });
        HeadlessTarget {
            width: size.0,
            height: size.1,
            color_view,
            finished,
            multisampled,
            scene_view: None,
            format,
            depth_view: depth.create_view(&Default::default()),
            color,
            scene: HostScene::new(device, format, setup),
        }
    }

    /// Standard targets whose image is stored in `format`, an 8-bit RGBA or BGRA format
    /// with or without sRGB, as a UI toolkit's window is (egui's is `Bgra8Unorm`: shown
    /// as gamma-encoded, not converted). The host's scene is drawn through an sRGB view,
    /// so it is the same picture either way; a renderer composites into `format`.
    pub fn stored_as(device: &wgpu::Device, size: (u32, u32), format: wgpu::TextureFormat) -> Self {
        use wgpu::TextureUsages as U;
        let srgb = format.add_srgb_suffix();
        let color = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("host color"),
            size: wgpu::Extent3d {
                width: size.0,
                height: size.1,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format,
            usage: U::RENDER_ATTACHMENT | U::COPY_SRC | U::TEXTURE_BINDING,
            view_formats: &[srgb],
        });
        let scene_view = color.create_view(&wgpu::TextureViewDescriptor {
            format: Some(srgb),
            ..Default::default()
        });
        let setup = HostSetup::STANDARD;
        HeadlessTarget {
            width: size.0,
            height: size.1,
            color_view: color.create_view(&Default::default()),
            finished: None,
            multisampled: None,
            scene_view: Some(scene_view),
            format,
            depth_view: host_depth(device, size, 1).create_view(&Default::default()),
            color,
            scene: HostScene::new(device, srgb, setup),
        }
    }

    /// What the scene and the particles are drawn into in `setup`.
    fn color_format(setup: HostSetup) -> wgpu::TextureFormat {
        match setup.hdr {
            true => super::post::HDR_FORMAT,
            false => OUTPUT_FORMAT,
        }
    }

    /// The formats and sample count a renderer drawing into this host needs (a target
    /// [`HeadlessTarget::stored_as`] a window's format stands for a UI toolkit's window,
    /// whose pass has no depth attachment).
    pub fn targets(&self) -> Targets {
        Targets {
            color_format: self.format,
            sample_count: self.scene.setup.samples,
            depth_in_pass: self.scene_view.is_none(),
            ..Self::TARGETS
        }
    }

    /// The same targets at `size`, the host's scene kept.
    pub fn resize(&mut self, device: &wgpu::Device, size: (u32, u32)) {
        let mut resized = match self.scene_view {
            Some(_) => Self::stored_as(device, size, self.format),
            None => Self::of(device, size, self.scene.setup),
        };
        std::mem::swap(&mut resized.scene, &mut self.scene);
        *self = resized;
    }

    /// HDR: bloom the drawn image and tonemap it into the sRGB image (after the
    /// particles); nothing for an LDR host.
    pub fn encode_finish(&self, encoder: &mut wgpu::CommandEncoder) {
        if let Some((_, view, post)) = &self.finished {
            post.encode(encoder, view);
        }
    }

    pub fn aspect(&self) -> f32 {
        self.width as f32 / self.height as f32
    }

    pub fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    /// The views a renderer composites into (resolved into the image under MSAA).
    pub fn frame(&self) -> FrameTargets<'_> {
        match &self.multisampled {
            Some(ms) => FrameTargets {
                color: ms,
                depth: Some(&self.depth_view),
                resolve: Some(&self.color_view),
            },
            None => FrameTargets::new(&self.color_view, Some(&self.depth_view)),
        }
    }

    /// The host's own pass: clear to `background` (linear) and far depth, draw the scene.
    pub fn encode_scene(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        background: [f64; 4],
        profiler: Option<&wgpu_profiler::GpuProfiler>,
    ) {
        let color = (self.multisampled.as_ref())
            .or(self.scene_view.as_ref())
            .unwrap_or(&self.color_view);
        self.scene
            .encode(encoder, (color, &self.depth_view), background, profiler);
    }

    /// Read the image back as RGBA8 (sRGB; HDR: as finished). Blocks.
    pub fn read_rgba(&self, gpu: &GpuContext) -> Result<image::RgbaImage> {
        let image = self.finished.as_ref().map_or(&self.color, |(t, _, _)| t);
        let pixels = gpu.read_texture(image)?;
        image::RgbaImage::from_raw(self.width, self.height, pixels)
            .ok_or_else(|| AppError::Image("the read-back has the wrong size".into()))
    }

    /// Read the colour target back as a PNG file's bytes. Blocks.
    pub fn png(&self, gpu: &GpuContext) -> Result<Vec<u8>> {
        let img = self.read_rgba(gpu)?;
        let mut bytes = std::io::Cursor::new(Vec::new());
        img.write_to(&mut bytes, image::ImageFormat::Png)
            .map_err(|e| AppError::Image(format!("encoding a PNG: {e}")))?;
        Ok(bytes.into_inner())
    }
}
