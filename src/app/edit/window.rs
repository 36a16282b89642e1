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
            Ok(Box::new(App { editor, title }))
        }),
    );
    result.map_err(|e| AppError::Window(e.to_string()))
}
