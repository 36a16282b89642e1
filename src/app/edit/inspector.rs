//! The inspector: every number of the effect that validation checks against a range, as a
//! slider (a range narrow enough to slide across) or a drag value, clamped to the range,
//! grouped by what it belongs to (the effect, each emitter, its forces, bounds, …), its
//! range and unit on hover.
//!
//! A drag is one edit, made when it ends: while it goes on the widget shows the value
//! dragged to and the viewport the effect as it was (each edit starts the effect afresh).
//!
//! Each emitter's stacks and the effect's named nodes are text: checked as they are typed,
//! the error shown under the text, and made an edit when the text loses the keyboard and
//! is good; the viewport runs the last good effect meanwhile.

use eframe::egui;
use flurry::effect::Parameter;
use flurry::effect::{Choice, EffectEdit, FieldRange, TextField};
use flurry::expr::{Curve, Gradient, Value};

use super::keys::{self, Edited};

/// Ranges at most this wide are sliders; wider ones (positions within ±1e9) drag values.
const SLIDER_SPAN: f32 = 1000.0;

/// What the user set: a number, or a text (a stack or a node), by its path.
#[derive(Clone, Debug, PartialEq)]
pub enum Change {
    Number {
        path: String,
        value: f32,
    },
    Text {
        path: String,
        text: String,
    },
    Choice {
        path: String,
        option: String,
    },
    Curve {
        name: String,
        curve: Curve,
    },
    /// `picking`: a colour being picked (one edit with the others of the same pick).
    Gradient {
        name: String,
        gradient: Gradient,
        picking: bool,
    },
    Emitter(EmitterAction),
    /// A colour's four channels (its paths `base[0]`..`base[3]`); `picking`: one edit with
    /// the others of the same pick.
    Colour {
        base: String,
        rgba: [f32; 4],
        picking: bool,
    },
    /// `dragging`: a drag goes on (one edit with the others of the same drag).
    Parameter {
        name: String,
        value: Value,
        dragging: bool,
    },
}

/// What is done to an emitter, by its index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EmitterAction {
    Duplicate(usize),
    Remove(usize),
    /// Swap it with the one before it.
    Up(usize),
}

/// The group a path belongs to and its name within it: `emitters[0].size.mean` is
/// (`emitters[0]`, `size.mean`), `forces.drag` (`forces`, `drag`), `soft_distance`
/// (`effect`, `soft_distance`).
pub fn group(path: &str) -> (&str, &str) {
    match path.split_once('.') {
        Some((head, rest)) => (head, rest),
        None => ("effect", path),
    }
}

/// The fields and texts of one group.
#[derive(Default)]
struct Group<'a> {
    choices: Vec<&'a Choice>,
    numbers: Vec<&'a FieldRange>,
    texts: Vec<&'a TextField>,
}

/// Show every number and text of the effect under edit; what the user set this frame, if
/// anything.
pub fn show(ui: &mut egui::Ui, edit: &EffectEdit) -> Option<Change> {
    let (fields, texts, choices) = (edit.fields(), edit.texts(), edit.choices());
    let mut groups: Vec<(&str, Group)> = Vec::new();
    let mut member = |path| {
        let (head, _) = group(path);
        match groups.iter().position(|(h, _)| *h == head) {
            Some(k) => k,
            None => {
                groups.push((head, Group::default()));
                groups.len() - 1
            }
        }
    };
    let numbers: Vec<usize> = fields.iter().map(|f| member(&f.path)).collect();
    let lines: Vec<usize> = texts.iter().map(|t| member(&t.path)).collect();
    let ways: Vec<usize> = choices.iter().map(|c| member(&c.path)).collect();
    for (c, k) in choices.iter().zip(ways) {
        groups[k].1.choices.push(c);
    }
    for (f, k) in fields.iter().zip(numbers) {
        groups[k].1.numbers.push(f);
    }
    for (t, k) in texts.iter().zip(lines) {
        groups[k].1.texts.push(t);
    }
    // the effect's own fields first, then what it is made of, in the schema's order
    groups.sort_by_key(|(head, _)| *head != "effect");
    let mut change = None;
    egui::ScrollArea::vertical().show(ui, |ui| {
        change = parameters(ui, edit);
        change = tables(ui, edit).or(change.take());
        for (head, members) in groups {
            egui::CollapsingHeader::new(head)
                .default_open(true)
                .show(ui, |ui| {
                    if let Some(index) = emitter_index(head) {
                        let count = edit.effect().emitters.len();
                        change = emitter_tools(ui, index, count).or(change.take());
                    }
                    // the stacks first (open where they have lines), then the numbers
                    let written = members.texts.iter().any(|t| !t.text.is_empty());
                    if !members.texts.is_empty() {
                        egui::CollapsingHeader::new("stacks and nodes")
                            .id_salt((head, "texts"))
                            .default_open(written)
                            .show(ui, |ui| {
                                for t in &members.texts {
                                    change = text(ui, edit, t).or(change.take());
                                }
                            });
                    }
                    egui::Grid::new(head)
                        .num_columns(2)
                        .striped(true)
                        .show(ui, |ui| {
                            for (base, rgba) in colours(&members.numbers) {
                                ui.label(group(&base).1).on_hover_text(&base);
                                change = colour(ui, base, rgba).or(change.take());
                                ui.end_row();
                            }
                            for c in members.choices {
                                ui.label(group(&c.path).1).on_hover_text(&c.path);
                                change = choice(ui, c).or(change.take());
                                ui.end_row();
                            }
                            for f in members.numbers {
                                ui.label(group(&f.path).1).on_hover_text(&f.path);
                                change = number(ui, f).or(change.take());
                                ui.end_row();
                            }
                        });
                });
        }
    });
    change
}

/// `emitters[3]`'s 3.
fn emitter_index(head: &str) -> Option<usize> {
    head.strip_prefix("emitters[")?
        .strip_suffix(']')?
        .parse()
        .ok()
}

/// An emitter's buttons: duplicate, remove, move up.
fn emitter_tools(ui: &mut egui::Ui, index: usize, count: usize) -> Option<Change> {
    let mut action = None;
    ui.horizontal(|ui| {
        if ui
            .button("Duplicate")
            .on_hover_text("a copy after the last emitter")
            .clicked()
        {
            action = Some(EmitterAction::Duplicate(index));
        }
        if ui
            .add_enabled(count > 1, egui::Button::new("Remove"))
            .clicked()
        {
            action = Some(EmitterAction::Remove(index));
        }
        if ui.add_enabled(index > 0, egui::Button::new("Up")).clicked() {
            action = Some(EmitterAction::Up(index));
        }
    });
    action.map(Change::Emitter)
}

/// The effect's parameters: their defaults, set live (a parameter is a uniform: the
/// effect goes on, nothing restarts), each drag one edit.
fn parameters(ui: &mut egui::Ui, edit: &EffectEdit) -> Option<Change> {
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
fn tables(ui: &mut egui::Ui, edit: &EffectEdit) -> Option<Change> {
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

/// The colours among `numbers`: the bases whose four channels `base[0]`..`base[3]` are all
/// there (an emitter's `color.mean`, the effect's `over_life.color_end`), with their values.
fn colours(numbers: &[&FieldRange]) -> Vec<(String, [f32; 4])> {
    let value = |path: String| numbers.iter().find(|f| f.path == path).map(|f| f.value);
    let bases = numbers.iter().filter_map(|f| {
        let base = f.path.strip_suffix("[0]")?;
        let named = base.ends_with("color.mean") || base.ends_with("color_end");
        named.then_some(base)
    });
    bases
        .filter_map(|base| {
            let mut rgba = [0.0; 4];
            for (c, v) in rgba.iter_mut().enumerate() {
                *v = value(format!("{base}[{c}]"))?;
            }
            Some((base.to_string(), rgba))
        })
        .collect()
}

/// A colour's picker (channels above 1, light brighter than white, are shown as white and
/// brought into 0..=1 when picked).
fn colour(ui: &mut egui::Ui, base: String, [r, g, b, a]: [f32; 4]) -> Option<Change> {
    let clamp = |c: f32| c.clamp(0.0, 1.0);
    let mut picked = egui::Rgba::from_rgba_unmultiplied(clamp(r), clamp(g), clamp(b), clamp(a));
    let alpha = egui::widgets::color_picker::Alpha::OnlyBlend;
    let response = egui::widgets::color_picker::color_edit_button_rgba(ui, &mut picked, alpha);
    response.changed().then(|| Change::Colour {
        base,
        rgba: picked.to_rgba_unmultiplied(),
        picking: true,
    })
}

/// One of a few ways, as a drop-down list.
fn choice(ui: &mut egui::Ui, c: &Choice) -> Option<Change> {
    let mut picked = None;
    egui::ComboBox::from_id_salt(&c.path)
        .selected_text(&c.current)
        .show_ui(ui, |ui| {
            for &option in &c.options {
                if ui.selectable_label(option == c.current, option).clicked() {
                    picked = Some(option);
                }
            }
        });
    let option = picked.filter(|&o| o != c.current)?;
    Some(Change::Choice {
        path: c.path.clone(),
        option: option.to_string(),
    })
}

/// A stack's lines or a node's expression: checked as typed, the change made when the
/// text loses the keyboard and is good.
fn text(ui: &mut egui::Ui, edit: &EffectEdit, t: &TextField) -> Option<Change> {
    let id = ui.scope_id().with(&t.path);
    // the text as typed and what checking it said (kept while it differs from the effect's)
    let typed = ui.data(|d| d.get_temp::<(String, Option<String>)>(id));
    let (mut now, mut error) = typed.unwrap_or_else(|| (t.text.clone(), None));
    ui.label(group(&t.path).1).on_hover_text(&t.path);
    let lines = now.lines().count().clamp(1, 12);
    let response = ui.add(
        egui::TextEdit::multiline(&mut now)
            .code_editor()
            .desired_rows(lines)
            .desired_width(f32::INFINITY),
    );
    if response.changed() {
        error = edit.check_text(&t.path, &now).err().map(|e| e.to_string());
    }
    if let Some(e) = &error {
        ui.colored_label(egui::Color32::LIGHT_RED, e);
    }
    let done = response.lost_focus() && error.is_none() && now != t.text;
    let settled = now == t.text || done;
    ui.data_mut(|d| {
        if settled {
            d.remove::<(String, Option<String>)>(id);
        } else {
            d.insert_temp(id, (now.clone(), error));
        }
    });
    done.then(|| Change::Text {
        path: t.path.clone(),
        text: now,
    })
}

/// One number's widget: the value set, when the user is done setting it.
fn number(ui: &mut egui::Ui, f: &FieldRange) -> Option<Change> {
    let id = ui.scope_id().with(&f.path);
    // the value a drag has reached (the effect keeps the old one until it ends)
    let dragging = ui.data(|d| d.get_temp::<f32>(id));
    let mut value = dragging.unwrap_or(f.value);
    let range = f.min..=f.max;
    let response = if f.max - f.min <= SLIDER_SPAN {
        let slider = egui::Slider::new(&mut value, range).clamping(egui::SliderClamping::Always);
        // a range of thousands starting at 0 is mostly used near its start
        let slider = slider.logarithmic(f.min >= 0.0 && f.max >= 100.0);
        ui.add(slider)
    } else {
        let speed = (f.value.abs() * 0.01).max(0.01);
        ui.add(egui::DragValue::new(&mut value).range(range).speed(speed))
    };
    let response = response.on_hover_text(format!("{}: {}", f.path, f.allowed));
    if response.dragged() {
        ui.data_mut(|d| d.insert_temp(id, value));
        return None;
    }
    let done = response.drag_stopped() || response.changed() || dragging.is_some();
    if dragging.is_some() {
        ui.data_mut(|d| d.remove::<f32>(id));
    }
    (done && value != f.value).then(|| Change::Number {
        path: f.path.clone(),
        value,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_group_by_what_they_belong_to() {
        assert_eq!(group("emitters[0].size.mean"), ("emitters[0]", "size.mean"));
        assert_eq!(group("forces.drag"), ("forces", "drag"));
        assert_eq!(group("soft_distance"), ("effect", "soft_distance"));
    }
}
