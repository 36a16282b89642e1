//! The whole editor rendered offscreen, with no window and no display: egui run on input
//! that only says the screen's size, drawn by egui-wgpu into an sRGB texture exactly as
//! in a window (the viewport through the same paint callback), read back as a PNG.

use eframe::egui;
use eframe::egui_wgpu::{self, ScreenDescriptor};
use flurry::{wgpu, GpuContext};

use super::editor::Editor;
use super::viewport::Viewport;
use crate::host::AppError;

/// The format the offscreen window is drawn in (a window's would be egui's choice).
pub const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;

/// Passes egui lays the window out in before its first frame is drawn: panels take their
/// sizes on the first, so the viewport has its final size from the first frame drawn.
const LAYOUT_PASSES: u32 = 2;

/// An editor window of `size` pixels drawn offscreen.
pub struct Offscreen {
    gpu: GpuContext,
    egui: egui::Context,
    renderer: egui_wgpu::Renderer,
    texture: wgpu::Texture,
    size: (u32, u32),
    /// Frames egui has laid out (the first [`LAYOUT_PASSES`] are not drawn).
    passes: u32,
}

impl Offscreen {
    /// A window of `size` showing `viewport` (made for [`FORMAT`]) on `gpu`.
    pub fn new(gpu: GpuContext, size: (u32, u32), viewport: Viewport) -> Self {
        let options = egui_wgpu::RendererOptions::default();
        let mut renderer = egui_wgpu::Renderer::new(&gpu.device, FORMAT, options);
        renderer.callback_resources.insert(viewport);
        let usage = wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC;
        let texture = crate::host::headless::texture(&gpu.device, "editor", size, FORMAT, usage);
        Offscreen {
            gpu,
            egui: egui::Context::default(),
            renderer,
            texture,
            size,
            passes: 0,
        }
    }

    /// Lay the editor out and, once the layout has settled, draw it: one frame of the
    /// viewport each time it is drawn. Returns whether it was drawn.
    pub fn frame(&mut self, editor: &mut Editor) -> Result<bool, AppError> {
        let (w, h) = (self.size.0 as f32, self.size.1 as f32);
        let input = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(
                egui::Pos2::ZERO,
                egui::vec2(w, h),
            )),
            ..Default::default()
        };
        let resources = &mut self.renderer.callback_resources;
        let mut output = self.egui.run_ui(input, |ui| {
            if let Some(viewport) = resources.get_mut::<Viewport>() {
                editor.ui(ui, viewport);
            }
        });
        let (device, queue) = (&self.gpu.device, &self.gpu.queue);
        // every delta applied (egui checks in debug builds that none is dropped unapplied)
        let mut textures = std::mem::take(&mut output.textures_delta);
        for (id, deltas) in textures.set.drain() {
            for delta in &deltas {
                self.renderer.update_texture(device, queue, id, delta);
            }
        }
        self.passes += 1;
        let drawn = self.passes > LAYOUT_PASSES;
        if drawn {
            let ppp = output.pixels_per_point;
            let jobs = self.egui.tessellate(output.shapes, ppp);
            let screen = ScreenDescriptor {
                size_in_pixels: [self.size.0, self.size.1],
                pixels_per_point: ppp,
            };
            let mut encoder = device.create_command_encoder(&Default::default());
            let mut buffers =
                (self.renderer).update_buffers(device, queue, &mut encoder, &jobs, &screen);
            let view = self.texture.create_view(&Default::default());
            let pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("egui"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: &view,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Clear(wgpu::Color::BLACK),
                        store: wgpu::StoreOp::Store,
                    },
                })],
                depth_stencil_attachment: None,
                timestamp_writes: None,
                occlusion_query_set: None,
                multiview_mask: None,
            });
            self.renderer
                .render(&mut pass.forget_lifetime(), &jobs, &screen);
            buffers.push(encoder.finish());
            queue.submit(buffers);
        }
        for id in textures.free.drain() {
            self.renderer.free_texture(&id);
        }
        Ok(drawn)
    }

    /// The window as last drawn, as a PNG file's bytes. Blocks.
    pub fn png(&self) -> Result<Vec<u8>, AppError> {
        let pixels = self.gpu.read_texture(&self.texture)?;
        let image = image::RgbaImage::from_raw(self.size.0, self.size.1, pixels)
            .ok_or_else(|| AppError::Image("the read-back has the wrong size".into()))?;
        let mut bytes = std::io::Cursor::new(Vec::new());
        image
            .write_to(&mut bytes, image::ImageFormat::Png)
            .map_err(|e| AppError::Image(format!("encoding a PNG: {e}")))?;
        Ok(bytes.into_inner())
    }
}
