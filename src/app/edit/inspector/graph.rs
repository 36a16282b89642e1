//! The inspector's parts for the effect graph's declarations: its parameters (set live), its
//! curves and gradients, each in its key editor, and the module files it imports.

use eframe::egui;
use flurry::effect::{EffectEdit, Parameter};
use flurry::expr::Value;

use super::Change;
use crate::edit::keys::{self, Edited};

/// The effect's parameters: their defaults, set live (a parameter is a uniform: the
/// effect goes on, nothing restarts), each drag one edit.
pub(super) fn parameters(ui: &mut egui::Ui, edit: &EffectEdit) -> Option<Change> {
    let declared = &edit.effect().parameters;
    if declared.is_empty() {
        return None;
    }
    let mut change = None;
    egui::CollapsingHeader::new("parameters")
        .default_open(true)
        .show(ui, |ui| {
            egui::Grid::new("parameters").num_columns(2).show(ui, |ui| {
                for (name, p) in declared {
                    ui.label(name).on_hover_text(p.allowed());
                    if let Some((value, dragging)) = parameter(ui, p) {
                        let name = name.clone();
                        change = Some(Change::Parameter {
                            name,
                            value,
                            dragging,
                        });
                    }
                    ui.end_row();
                }
            });
        });
    change
}

/// One parameter's default: a check box, or a value per component within its bounds; the
/// value set and whether a drag goes on.
fn parameter(ui: &mut egui::Ui, p: &Parameter) -> Option<(Value, bool)> {
    let (lo, hi) = (p.min.unwrap_or(-1e9) as f64, p.max.unwrap_or(1e9) as f64);
    if let Value::Bool(mut on) = p.default {
        return ui
            .checkbox(&mut on, "")
            .changed()
            .then_some((Value::Bool(on), false));
    }
    let mut parts: Vec<f64> = match p.default {
        Value::I32(i) => vec![i as f64],
        Value::U32(u) => vec![u as f64],
        Value::F32(x) => vec![x as f64],
        Value::Vec2(v) => v.to_array().map(f64::from).to_vec(),
        Value::Vec3(v) => v.to_array().map(f64::from).to_vec(),
        Value::Vec4(v) => v.to_array().map(f64::from).to_vec(),
        Value::Bool(_) => unreachable!("a check box, above"),
    };
    let (mut changed, mut dragging) = (false, false);
    ui.horizontal(|ui| {
        for part in parts.iter_mut() {
            let speed = (part.abs() * 0.01).max(0.01);
            let integer = matches!(p.default, Value::U32(_) | Value::I32(_));
            let lo = if matches!(p.default, Value::U32(_)) {
                lo.max(0.0)
            } else {
                lo
            };
            let widget = egui::DragValue::new(part).range(lo..=hi).speed(speed);
            let widget = if integer {
                widget.fixed_decimals(0)
            } else {
                widget
            };
            let response = ui.add(widget);
            changed |= response.changed();
            dragging |= response.dragged();
        }
    });
    let value = match p.default {
        Value::I32(_) => Value::I32(parts[0].round() as i32),
        Value::U32(_) => Value::U32(parts[0].round() as u32),
        Value::F32(_) => Value::F32(parts[0] as f32),
        Value::Vec2(_) => Value::Vec2(flurry::glam::DVec2::from_slice(&parts).as_vec2()),
        Value::Vec3(_) => Value::Vec3(flurry::glam::DVec3::from_slice(&parts).as_vec3()),
        Value::Vec4(_) => Value::Vec4(flurry::glam::DVec4::from_slice(&parts).as_vec4()),
        Value::Bool(_) => unreachable!("a check box, above"),
    };
    (changed && value != p.default).then_some((value, dragging))
}

/// The effect's curves and gradients, each in its editor.
pub(super) fn tables(ui: &mut egui::Ui, edit: &EffectEdit) -> Option<Change> {
    let effect = edit.effect();
    let mut change = None;
    if !effect.curves.is_empty() {
        egui::CollapsingHeader::new("curves")
            .default_open(true)
            .show(ui, |ui| {
                for (name, c) in &effect.curves {
                    ui.label(name);
                    if let Some(curve) = keys::curve(ui, name, c) {
                        let name = name.clone();
                        change = Some(Change::Curve { name, curve });
                    }
                }
            });
    }
    if !effect.gradients.is_empty() {
        egui::CollapsingHeader::new("gradients")
            .default_open(true)
            .show(ui, |ui| {
                for (name, g) in &effect.gradients {
                    ui.label(name);
                    let (gradient, picking) = match keys::gradient(ui, name, g) {
                        Some(Edited::Done(g)) => (g, false),
                        Some(Edited::Picking(g)) => (g, true),
                        None => continue,
                    };
                    let name = name.clone();
                    change = Some(Change::Gradient {
                        name,
                        gradient,
                        picking,
                    });
                }
            });
    }
    change
}

/// The module files the effect imports, one path a line (relative to its file): made the
/// edit when the text loses the keyboard (a module that cannot be read, or whose loss
/// leaves a call unanswered, is refused on the status line).
pub(super) fn imports(ui: &mut egui::Ui, edit: &EffectEdit) -> Option<Change> {
    let now = edit.effect().imports.join("\n");
    let id = ui.make_persistent_id("imports");
    let mut typed = ui
        .data(|d| d.get_temp::<String>(id))
        .unwrap_or_else(|| now.clone());
    let mut change = None;
    egui::CollapsingHeader::new("imports")
        .default_open(!now.is_empty())
        .show(ui, |ui| {
            let response = ui
                .add(
                    egui::TextEdit::multiline(&mut typed)
                        .code_editor()
                        .desired_rows(1)
                        .hint_text("modules/forces.ron")
                        .desired_width(f32::INFINITY),
                )
                .on_hover_text("module files, one a line, relative to the effect's file");
            if response.lost_focus() && typed != now {
                let paths = typed.lines().map(str::trim).filter(|l| !l.is_empty());
                change = Some(Change::Imports(paths.map(String::from).collect()));
            }
        });
    ui.data_mut(|d| match change.is_some() || typed == now {
        true => {
            d.remove::<String>(id);
        }
        false => {
            d.insert_temp(id, typed);
        }
    });
    change
}
