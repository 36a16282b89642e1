//! The editor in a window of its own: eframe on the same device as flurry, drawing with
//! egui-wgpu.

use eframe::egui;
use eframe::egui_wgpu::{self, WgpuConfiguration, WgpuSetup, WgpuSetupExisting};
use flurry::GpuContext;

use super::editor::Editor;
use super::viewport::Viewport;
use crate::host::AppError;

/// What the window starts from: the editor and what its viewport needs but the window's
/// format, which eframe picks for the window's surface.
pub struct Start {
    pub editor: Editor,
    pub make_viewport:
        Box<dyn FnOnce(GpuContext, flurry::wgpu::TextureFormat) -> Result<Viewport, AppError>>,
}

struct App {
    editor: Editor,
    title: String,
    /// The window was asked to close with edits unsaved: the question is open.
    closing: bool,
    /// The user chose to close anyway.
    discard: bool,
}

impl App {
    /// A close with unsaved edits waits for the user: save, discard or go on editing.
    fn closing(&mut self, ctx: &egui::Context) {
        let asked = ctx.input(|i| i.viewport().close_requested());
        if asked && self.editor.session.unsaved() && !self.discard {
            ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.closing = true;
        }
        if !self.closing {
            return;
        }
        let modal = egui::Modal::new(egui::Id::unique("unsaved")).show(ctx, |ui| {
            ui.label("The effect has edits that are not saved.");
            ui.horizontal(|ui| {
                if ui.button("Save and close").clicked() {
                    self.editor.save(None);
                    if !self.editor.session.unsaved() {
                        self.close(ctx);
                    }
                }
                if ui.button("Close without saving").clicked() {
                    self.close(ctx);
                }
                if ui.button("Go on editing").clicked() {
                    self.closing = false;
                }
            });
        });
        if modal.should_close() {
            self.closing = false;
        }
    }

    fn close(&mut self, ctx: &egui::Context) {
        self.discard = true;
        self.closing = false;
        ctx.send_viewport_cmd(egui::ViewportCommand::Close);
    }
}

impl eframe::App for App {
    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        let Some(state) = frame.wgpu_render_state() else {
            return;
        };
        let mut renderer = state.renderer.write();
        if let Some(viewport) = renderer.callback_resources.get_mut::<Viewport>() {
            self.editor.ui(ui, viewport);
        }
        drop(renderer);
        self.closing(ui.ctx());
        let title = self.editor.title();
        if title != self.title {
            ui.ctx()
                .send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.title = title;
        }
        // the effect moves: draw the next frame as soon as this one is shown
        ui.ctx().request_repaint();
    }
}

/// Open the window on `gpu`'s device and run until it is closed.
pub fn run(gpu: GpuContext, size: (u32, u32), start: Start) -> Result<(), AppError> {
    let setup = WgpuSetupExisting {
        instance: gpu.instance.clone(),
        adapter: gpu.adapter.clone(),
        device: gpu.device.clone(),
        queue: gpu.queue.clone(),
    };
    let title = start.editor.title();
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_inner_size([size.0 as f32, size.1 as f32])
            .with_title(&title),
        wgpu_options: WgpuConfiguration {
            wgpu_setup: WgpuSetup::Existing(setup),
            ..Default::default()
        },
        ..Default::default()
    };
    let Start {
        editor,
        make_viewport,
    } = start;
    let result = eframe::run_native(
        "flurry edit",
        options,
        Box::new(|cc| {
            let state: &egui_wgpu::RenderState = cc
                .wgpu_render_state
                .as_ref()
                .ok_or("eframe started without wgpu")?;
            let viewport = make_viewport(gpu, state.target_format)?;
            state.renderer.write().callback_resources.insert(viewport);
            Ok(Box::new(App {
                editor,
                title,
                closing: false,
                discard: false,
            }))
        }),
    );
    result.map_err(|e| AppError::Window(e.to_string()))
}
