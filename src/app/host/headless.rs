//! An offscreen host: an sRGB colour target and a depth buffer (no window, no surface),
//! with a stand-in scene, read back as an image or written as a PNG.

use std::path::Path;

use flurry::{wgpu, FrameTargets, GpuContext, Targets};

use super::error::{AppError, Result};
use super::stage::{HostScene, HOST_DEPTH_FORMAT};

/// Format of the host's colour target (LDR: the composite tonemaps particles into it).
pub const OUTPUT_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;

/// A 2D texture of one level and sample.
pub fn texture(
    device: &wgpu::Device,
    label: &str,
    (width, height): (u32, u32),
    format: wgpu::TextureFormat,
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
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format,
        usage,
        view_formats: &[],
    })
}

/// The host's depth buffer: flurry reads it, so it is bindable as a texture too.
pub fn host_depth(device: &wgpu::Device, size: (u32, u32)) -> wgpu::Texture {
    let usage = wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING;
    texture(device, "host depth", size, HOST_DEPTH_FORMAT, usage)
}

/// The offscreen host's targets and scene.
pub struct HeadlessTarget {
    pub width: u32,
    pub height: u32,
    color: wgpu::Texture,
    color_view: wgpu::TextureView,
    depth_view: wgpu::TextureView,
    /// The host's own geometry, drawn before the particles.
    pub scene: HostScene,
}

impl HeadlessTarget {
    /// The formats a renderer drawing into this host needs.
    pub const TARGETS: Targets = Targets {
        color_format: OUTPUT_FORMAT,
        depth_format: Some(HOST_DEPTH_FORMAT),
    };

    /// Targets of `width × height` (checked against the device by the caller).
    pub fn new(device: &wgpu::Device, width: u32, height: u32) -> Self {
        use wgpu::TextureUsages as U;
        let size = (width, height);
        let color_usage = U::RENDER_ATTACHMENT | U::COPY_SRC;
        let color = texture(device, "host color", size, OUTPUT_FORMAT, color_usage);
        let depth = host_depth(device, size);
        HeadlessTarget {
            width,
            height,
            color_view: color.create_view(&Default::default()),
            depth_view: depth.create_view(&Default::default()),
            color,
            scene: HostScene::new(device, OUTPUT_FORMAT),
        }
    }

    pub fn aspect(&self) -> f32 {
        self.width as f32 / self.height as f32
    }

    pub fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    /// The views a renderer composites into.
    pub fn frame(&self) -> FrameTargets<'_> {
        FrameTargets {
            color: &self.color_view,
            depth: Some(&self.depth_view),
        }
    }

    /// The host's own pass: clear to `background` (linear) and far depth, draw the scene.
    pub fn encode_scene(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        background: [f64; 4],
        profiler: Option<&wgpu_profiler::GpuProfiler>,
    ) {
        let views = (&self.color_view, &self.depth_view);
        self.scene.encode(encoder, views, background, profiler);
    }

    /// Read the colour target back as RGBA8 (sRGB). Blocks.
    pub fn read_rgba(&self, gpu: &GpuContext) -> Result<image::RgbaImage> {
        let pixels = gpu.read_texture(&self.color)?;
        image::RgbaImage::from_raw(self.width, self.height, pixels)
            .ok_or_else(|| AppError::Image("the read-back has the wrong size".into()))
    }

    /// Read the colour target back and write it as a PNG (through a temporary file, so a
    /// reader never sees half of one).
    pub fn save_png(&self, gpu: &GpuContext, path: &Path) -> Result<()> {
        let img = self.read_rgba(gpu)?;
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|source| AppError::Io {
                path: dir.to_path_buf(),
                source,
            })?;
        }
        let partial = path.with_extension("png.partial");
        img.save_with_format(&partial, image::ImageFormat::Png)
            .map_err(|e| AppError::Image(format!("writing {}: {e}", path.display())))?;
        std::fs::rename(&partial, path).map_err(|source| AppError::Io {
            path: path.to_path_buf(),
            source,
        })
    }
}
