//! An offscreen host: an sRGB colour target and a depth buffer (no window, no surface),
//! with a stand-in scene, read back as a PNG.

use std::path::Path;

use wgpu_profiler::GpuProfiler;

use super::host::{HostScene, HOST_DEPTH_FORMAT};
use crate::error::{Error, Result};
use crate::gpu::texture_2d;
use crate::readback::map_and_copy;
use crate::renderer::{FrameTargets, Targets};

/// Format of the host's colour target (LDR: the composite tonemaps particles into it).
pub const OUTPUT_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;

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
        let color = texture_2d(
            device,
            "flurry.host_color",
            size,
            OUTPUT_FORMAT,
            U::RENDER_ATTACHMENT | U::COPY_SRC,
        );
        let depth = texture_2d(
            device,
            "flurry.host_depth",
            size,
            HOST_DEPTH_FORMAT,
            U::RENDER_ATTACHMENT | U::TEXTURE_BINDING,
        );
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
        profiler: Option<&GpuProfiler>,
    ) {
        let views = (&self.color_view, &self.depth_view);
        self.scene.encode(encoder, views, background, profiler);
    }

    /// Read the colour target back as tightly packed RGBA8 (sRGB). Blocks.
    pub fn read_rgba(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
    ) -> Result<image::RgbaImage> {
        let row = self.width * 4;
        let align = wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
        let padded = row.div_ceil(align) * align;
        let staging = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("flurry.png_readback"),
            size: padded as u64 * self.height as u64,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut encoder = device.create_command_encoder(&Default::default());
        encoder.copy_texture_to_buffer(
            self.color.as_image_copy(),
            wgpu::TexelCopyBufferInfo {
                buffer: &staging,
                layout: wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(padded),
                    rows_per_image: Some(self.height),
                },
            },
            self.color.size(),
        );
        queue.submit([encoder.finish()]);
        let bytes = map_and_copy(device, &staging)?;
        let mut pixels = Vec::with_capacity((row * self.height) as usize);
        for y in 0..self.height as usize {
            let start = y * padded as usize;
            pixels.extend_from_slice(&bytes[start..start + row as usize]);
        }
        image::RgbaImage::from_raw(self.width, self.height, pixels)
            .ok_or_else(|| Error::Readback("image size mismatch".into()))
    }

    /// Read the colour target back and write it as a PNG.
    pub fn save_png(&self, device: &wgpu::Device, queue: &wgpu::Queue, path: &Path) -> Result<()> {
        let img = self.read_rgba(device, queue)?;
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|source| Error::Io {
                path: dir.to_path_buf(),
                source,
            })?;
        }
        img.save(path).map_err(|e| Error::Image {
            path: path.to_path_buf(),
            message: e.to_string(),
        })
    }
}
