//! The inspector's widgets for one field: a number (a slider or a drag value, clamped to its
//! range), a colour's picker, a choice's list and a text checked as typed.

use eframe::egui;
use flurry::effect::{Choice, EffectEdit, FieldRange, TextField};

use super::{group, Change};

/// Ranges at most this wide are sliders; wider ones (positions within ±1e9) drag values.
const SLIDER_SPAN: f32 = 1000.0;

/// One number's widget: the value set, when the user is done setting it.
pub(super) fn number(ui: &mut egui::Ui, f: &FieldRange) -> Option<Change> {
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

/// The colours among `numbers`: the bases whose four channels `base[0]`..`base[3]` are all
/// there (an emitter's `color.mean`, the effect's `over_life.color_end`), with their values.
pub(super) fn colours(numbers: &[&FieldRange]) -> Vec<(String, [f32; 4])> {
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
pub(super) fn colour(ui: &mut egui::Ui, base: String, [r, g, b, a]: [f32; 4]) -> Option<Change> {
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
pub(super) fn choice(ui: &mut egui::Ui, c: &Choice) -> Option<Change> {
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
pub(super) fn text(ui: &mut egui::Ui, edit: &EffectEdit, t: &TextField) -> Option<Change> {
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
