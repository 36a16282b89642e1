//! The inspector: every number of the effect that validation checks against a range, as a
//! slider (a range narrow enough to slide across) or a drag value, clamped to the range,
//! grouped by what it belongs to (the effect, each emitter, its forces, bounds, …), its
//! range and unit on hover.
//!
//! A drag is one edit, made when it ends: while it goes on the widget shows the value
//! dragged to and the viewport the effect as it was (each edit starts the effect afresh).

use eframe::egui;
use flurry::effect::FieldRange;

/// Ranges at most this wide are sliders; wider ones (positions within ±1e9) drag values.
const SLIDER_SPAN: f32 = 1000.0;

/// A number set by the user: its path and the value.
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    pub path: String,
    pub value: f32,
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

/// Show every field; the number the user set this frame, if any.
pub fn show(ui: &mut egui::Ui, fields: &[FieldRange]) -> Option<Change> {
    let mut change = None;
    let mut groups: Vec<(&str, Vec<&FieldRange>)> = Vec::new();
    for f in fields {
        let (head, _) = group(&f.path);
        match groups.iter_mut().find(|(h, _)| *h == head) {
            Some((_, members)) => members.push(f),
            None => groups.push((head, vec![f])),
        }
    }
    egui::ScrollArea::vertical().show(ui, |ui| {
        for (head, members) in groups {
            egui::CollapsingHeader::new(head)
                .default_open(true)
                .show(ui, |ui| {
                    egui::Grid::new(head)
                        .num_columns(2)
                        .striped(true)
                        .show(ui, |ui| {
                            for f in members {
                                ui.label(group(&f.path).1).on_hover_text(&f.path);
                                if let Some(c) = number(ui, f) {
                                    change = Some(c);
                                }
                                ui.end_row();
                            }
                        });
                });
        }
    });
    change
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
    (done && value != f.value).then(|| Change {
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
