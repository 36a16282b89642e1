//! The editor's window contents, the same in a window and offscreen: a tool bar (save,
//! undo, playback), the inspector, a status strip and the viewport.

use eframe::egui;
use eframe::egui_wgpu;

use super::inspector::{self, Change};
use super::session::Session;
use super::viewport::{FrameRequest, Viewport, ViewportCallback};
use crate::cli::Clock;

/// The status line while an edit of a new kind of effect compiles.
const COMPILING: &str =
    "compiling the edited effect's pipelines: the effect before it shows until then";

/// The editor: its session and clock.
pub struct Editor {
    pub session: Session,
    clock: Clock,
    /// The "save as" field.
    save_as: String,
    /// The viewport's rectangle in the window, in pixels, as last laid out.
    pub viewport_px: Option<egui::Rect>,
    /// The frame's seconds, as last ticked (for the status strip).
    dt: f32,
}

impl Editor {
    /// `session` advanced by `fixed` seconds a frame, or by real time.
    pub fn new(session: Session, fixed: Option<f32>) -> Self {
        let save_as = session
            .file()
            .map(|p| p.display().to_string())
            .unwrap_or_else(|| format!("{}.ron", session.edit().effect().name));
        Editor {
            session,
            clock: Clock::new(fixed),
            save_as,
            viewport_px: None,
            dt: 0.0,
        }
    }

    /// The window's title: the file, and whether it has unsaved changes.
    pub fn title(&self) -> String {
        let file = match self.session.file() {
            Some(p) => p.display().to_string(),
            None => format!("{} (not saved yet)", self.session.edit().effect().name),
        };
        let star = if self.session.unsaved() { " *" } else { "" };
        format!("flurry edit: {file}{star}")
    }

    /// One frame of the whole window.
    pub fn ui(&mut self, ui: &mut egui::Ui, viewport: &mut Viewport) {
        self.dt = self.clock.tick();
        self.session.poll();
        self.shortcuts(ui, viewport);
        egui::Panel::top("tools").show(ui, |ui| self.tools(ui, viewport));
        egui::Panel::bottom("status").show(ui, |ui| self.status(ui, viewport));
        egui::Panel::left("inspector")
            .default_size(360.0)
            .resizable(true)
            .show(ui, |ui| match inspector::show(ui, self.session.edit()) {
                Some(Change::Number { path, value }) => self.session.set_number(&path, value),
                Some(Change::Text { path, text }) => self.session.set_text(&path, &text),
                Some(Change::Choice { path, option }) => self.session.set_choice(&path, &option),
                Some(Change::Curve { name, curve }) => self.session.set_curve(&name, curve),
                Some(Change::Gradient {
                    name,
                    gradient,
                    picking,
                }) => self.session.set_gradient(&name, gradient, picking),
                Some(Change::Emitter(action)) => self.session.emitter(action),
                Some(Change::Imports(paths)) => self.session.set_imports(paths),
                Some(Change::Colour {
                    base,
                    rgba,
                    picking,
                }) => self.session.set_colour(&base, rgba, picking),
                Some(Change::Parameter {
                    name,
                    value,
                    dragging,
                }) => self.session.set_parameter(&name, value, dragging),
                None => {}
            });
        egui::CentralPanel::no_frame().show(ui, |ui| self.view(ui, viewport));
        self.session.sync(viewport);
    }

    /// Ctrl+S saves, Ctrl+Z undoes, Ctrl+Shift+Z and Ctrl+Y redo, space plays or holds
    /// (unless a text field has the keyboard).
    fn shortcuts(&mut self, ui: &mut egui::Ui, viewport: &mut Viewport) {
        use egui::{Key, KeyboardShortcut, Modifiers};
        let ctrl = |key| KeyboardShortcut::new(Modifiers::COMMAND, key);
        let ctrl_shift = |key| KeyboardShortcut::new(Modifiers::COMMAND | Modifiers::SHIFT, key);
        let ctx = ui.ctx().clone();
        if ctx.input_mut(|i| i.consume_shortcut(&ctrl_shift(Key::Z)))
            || ctx.input_mut(|i| i.consume_shortcut(&ctrl(Key::Y)))
        {
            self.session.redo();
        }
        if ctx.input_mut(|i| i.consume_shortcut(&ctrl(Key::Z))) {
            self.session.undo();
        }
        if ctx.input_mut(|i| i.consume_shortcut(&ctrl(Key::S))) {
            self.save(None);
        }
        let typing = ctx.egui_wants_keyboard_input();
        if !typing && ctx.input(|i| i.key_pressed(Key::Space)) {
            self.play_or_hold(viewport);
        }
    }

    /// Save to the file (or `to`), saying why where it could not.
    pub fn save(&mut self, to: Option<std::path::PathBuf>) {
        if let Err(e) = self.session.save(to.as_deref()) {
            self.session.notice = Some(format!("not saved: {e}"));
        }
    }

    fn play_or_hold(&mut self, viewport: &mut Viewport) {
        let playing = viewport.playing();
        if let Err(e) = viewport.set_playing(!playing) {
            viewport.error = Some(e.to_string());
        }
    }

    fn tools(&mut self, ui: &mut egui::Ui, viewport: &mut Viewport) {
        ui.horizontal_wrapped(|ui| {
            if ui.button("Save").on_hover_text("Ctrl+S").clicked() {
                self.save(None);
            }
            ui.add(egui::TextEdit::singleline(&mut self.save_as).desired_width(180.0));
            if ui.button("Save as").clicked() {
                let to = std::path::PathBuf::from(self.save_as.trim());
                self.save(Some(to));
            }
            ui.separator();
            let edit = self.session.edit();
            let (undos, redos) = (edit.undo_depth(), edit.redo_depth());
            let undo = ui.add_enabled(undos > 0, egui::Button::new("Undo"));
            if undo.on_hover_text("Ctrl+Z").clicked() {
                self.session.undo();
            }
            let redo = ui.add_enabled(redos > 0, egui::Button::new("Redo"));
            if redo.on_hover_text("Ctrl+Shift+Z").clicked() {
                self.session.redo();
            }
            ui.separator();
            let label = if viewport.playing() { "Pause" } else { "Play" };
            if ui.button(label).on_hover_text("Space").clicked() {
                self.play_or_hold(viewport);
            }
            let step = ui.add_enabled(!viewport.playing(), egui::Button::new("Step"));
            if step.clicked() {
                if let Err(e) = viewport.step() {
                    viewport.error = Some(e.to_string());
                }
            }
            if ui.button("Restart").clicked() {
                if let Err(e) = viewport.restart() {
                    viewport.error = Some(e.to_string());
                }
            }
            if ui
                .button("Camera")
                .on_hover_text("the demo's camera")
                .clicked()
            {
                viewport.reset_camera();
            }
            let id = viewport.effect();
            let renderer = &mut viewport.scene.renderer;
            let mut scale = renderer.time_scale(id).unwrap_or(1.0);
            let max = flurry::MAX_TIME_SCALE;
            let slider = egui::Slider::new(&mut scale, 0.0..=max)
                .logarithmic(true)
                .text("time scale");
            if ui.add(slider).changed() {
                if let Err(e) = renderer.set_time_scale(id, scale) {
                    viewport.error = Some(e.to_string());
                }
            }
        });
    }

    /// Three lines, each cut to the window's width (whole on hover), so that the viewport
    /// keeps its size: the counts, the passes' times, what the last action said.
    fn status(&mut self, ui: &mut egui::Ui, viewport: &mut Viewport) {
        let line = |ui: &mut egui::Ui, text: egui::RichText| {
            let hover = text.text().to_string();
            ui.add(egui::Label::new(text).truncate())
                .on_hover_text(hover);
        };
        let id = viewport.effect();
        let renderer = &viewport.scene.renderer;
        let counts = match renderer.counted(id) {
            Some(c) => format!(
                "alive {} of {} · emitted {} · dropped {}",
                c.alive, c.capacity, c.emitted_total, c.dropped_total
            ),
            None => format!("alive … of {}", viewport.capacity()),
        };
        let time = renderer.time(id).unwrap_or(0.0);
        let adapter = viewport.adapter();
        let frame = format!(
            "{counts} · t {time:.2} s · {:.1} ms a frame · {adapter}",
            self.dt * 1e3
        );
        line(ui, frame.into());
        let passes = renderer.pass_times();
        let times = match (viewport.timed, passes.is_empty()) {
            (false, _) => "no pass times: the adapter has no timestamps".to_string(),
            (true, true) => "pass times on their way".to_string(),
            (true, false) => {
                let each: Vec<String> = (passes.iter())
                    .map(|(name, ms)| format!("{name} {ms:.2}"))
                    .collect();
                format!("GPU ms: {}", each.join(", "))
            }
        };
        line(ui, times.into());
        let said = match (&viewport.error, &self.session.notice) {
            (Some(e), _) => egui::RichText::new(e).color(egui::Color32::LIGHT_RED),
            _ if viewport.compiling() => {
                egui::RichText::new(COMPILING).color(egui::Color32::LIGHT_YELLOW)
            }
            (None, Some(n)) if n.starts_with("refused") || n.starts_with("not saved") => {
                egui::RichText::new(n).color(egui::Color32::LIGHT_RED)
            }
            (None, Some(n)) => egui::RichText::new(n).color(egui::Color32::LIGHT_GREEN),
            (None, None) => egui::RichText::new("ready").weak(),
        };
        line(ui, said);
    }

    /// The viewport: drag to turn the camera about its target, scroll to come closer.
    fn view(&mut self, ui: &mut egui::Ui, viewport: &mut Viewport) {
        let rect = ui.available_rect_before_wrap();
        let response = ui.allocate_rect(rect, egui::Sense::drag());
        if response.dragged() {
            let d = response.drag_delta();
            viewport.orbit(|o| o.rotate(d.x, d.y));
        }
        if response.hovered() {
            let scroll = ui.input(|i| i.smooth_scroll_delta.y);
            if scroll != 0.0 {
                viewport.orbit(|o| o.zoom(scroll / 50.0));
            }
        }
        // the pixels egui-wgpu's paint callback will cover (its own rounding)
        let ppp = ui.ctx().pixels_per_point();
        let px = |x: f32| (x * ppp).round();
        let (left, top) = (px(rect.min.x), px(rect.min.y));
        let (width, height) = (px(rect.max.x) - left, px(rect.max.y) - top);
        if width < 1.0 || height < 1.0 {
            return;
        }
        let max = viewport.max_side() as f32;
        let size = (width.min(max) as u32, height.min(max) as u32);
        self.viewport_px = Some(egui::Rect::from_min_size(
            egui::pos2(left, top),
            egui::vec2(width, height),
        ));
        let request = FrameRequest { size, dt: self.dt };
        let callback = egui_wgpu::Callback::new_paint_callback(rect, ViewportCallback(request));
        ui.painter().add(callback);
    }
}
