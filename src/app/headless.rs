//! Offscreen frames: particles into an Rgba16Float target, tonemapped into an sRGB texture
//! that can be read back as a PNG. No window, no surface.

use std::path::Path;

use wgpu_profiler::GpuProfiler;

use crate::error::{Error, Result};
use crate::passes::draw::PARTICLE_FORMAT;
use crate::passes::tonemap::TonemapPass;
use crate::profiler::render_pass;
use crate::readback::map_and_copy;
use crate::system::ParticleSystem;

/// Format of the LDR output image.
pub const OUTPUT_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;

pub struct HeadlessTarget {
    pub width: u32,
    pub height: u32,
    hdr_view: wgpu::TextureView,
    ldr: wgpu::Texture,
    ldr_view: wgpu::TextureView,
    tonemap: TonemapPass,
    tonemap_bind: wgpu::BindGroup,
}

fn texture(
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

fn clear_attachment(
    view: &wgpu::TextureView,
    clear: wgpu::Color,
) -> wgpu::RenderPassColorAttachment<'_> {
    wgpu::RenderPassColorAttachment {
        view,
        depth_slice: None,
        resolve_target: None,
        ops: wgpu::Operations {
            load: wgpu::LoadOp::Clear(clear),
            store: wgpu::StoreOp::Store,
        },
    }
}

fn pass_desc<'a>(
    label: &'a str,
    attachments: &'a [Option<wgpu::RenderPassColorAttachment<'a>>],
) -> wgpu::RenderPassDescriptor<'a> {
    wgpu::RenderPassDescriptor {
        label: Some(label),
        color_attachments: attachments,
        depth_stencil_attachment: None,
        timestamp_writes: None,
        occlusion_query_set: None,
        multiview_mask: None,
    }
}

impl HeadlessTarget {
    /// Targets of `width × height` (checked against the device by the caller).
    pub fn new(device: &wgpu::Device, width: u32, height: u32) -> Self {
        use wgpu::TextureUsages as U;
        let hdr = texture(
            device,
            "flurry.particle_target",
            (width, height),
            PARTICLE_FORMAT,
            U::RENDER_ATTACHMENT | U::TEXTURE_BINDING,
        );
        let ldr = texture(
            device,
            "flurry.output",
            (width, height),
            OUTPUT_FORMAT,
            U::RENDER_ATTACHMENT | U::COPY_SRC,
        );
        let hdr_view = hdr.create_view(&Default::default());
        let ldr_view = ldr.create_view(&Default::default());
        let tonemap = TonemapPass::new(device, OUTPUT_FORMAT);
        let tonemap_bind = tonemap.bind(device, &hdr_view);
        HeadlessTarget {
            width,
            height,
            hdr_view,
            ldr,
            ldr_view,
            tonemap,
            tonemap_bind,
        }
    }

    pub fn aspect(&self) -> f32 {
        self.width as f32 / self.height as f32
    }

    /// Clear to `background` and draw the system's particles.
    pub fn encode_draw(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        system: &ParticleSystem,
        background: [f64; 4],
        profiler: Option<&GpuProfiler>,
    ) {
        let [r, g, b, a] = background;
        let attachment = wgpu::RenderPassColorAttachment {
            view: &self.hdr_view,
            depth_slice: None,
            resolve_target: None,
            ops: wgpu::Operations {
                load: wgpu::LoadOp::Clear(wgpu::Color { r, g, b, a }),
                store: wgpu::StoreOp::Store,
            },
        };
        let desc = wgpu::RenderPassDescriptor {
            label: Some("draw"),
            color_attachments: &[Some(attachment)],
            depth_stencil_attachment: None,
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        };
        render_pass(encoder, profiler, desc, "draw", |pass| {
            system.record_draw(pass)
        });
    }

    /// Tonemap the particle image into the output texture.
    pub fn encode_tonemap(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        profiler: Option<&GpuProfiler>,
    ) {
        let attachment = [Some(clear_attachment(&self.ldr_view, wgpu::Color::BLACK))];
        let desc = pass_desc("tonemap", &attachment);
        render_pass(encoder, profiler, desc, "tonemap", |pass| {
            self.tonemap.record(pass, &self.tonemap_bind)
        });
    }

    /// Read the output image back as tightly packed RGBA8 (sRGB). Blocks.
    pub fn read_rgba(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
    ) -> Result<image::RgbaImage> {
        let row = self.width * 4;
        let padded =
            row.div_ceil(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT) * wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
        let staging = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("flurry.png_readback"),
            size: padded as u64 * self.height as u64,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut encoder = device.create_command_encoder(&Default::default());
        encoder.copy_texture_to_buffer(
            self.ldr.as_image_copy(),
            wgpu::TexelCopyBufferInfo {
                buffer: &staging,
                layout: wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(padded),
                    rows_per_image: Some(self.height),
                },
            },
            self.ldr.size(),
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

    /// Read the output back and write it as a PNG.
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
