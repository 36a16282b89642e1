//! The curve and gradient editors: keys drawn where they are, dragged, added (double-click
//! where there is none) and removed (right-click a key; the last one stays). A drag is one
//! edit, made when it ends; a key's colour is picked in egui's colour picker.

use eframe::egui;
use flurry::expr::{Curve, Gradient, Interpolation, Key};

/// Pixels within which a pointer takes a key.
const REACH: f32 = 8.0;

/// Samples drawn along a curve or gradient.
const SAMPLES: usize = 96;

/// The ways between keys, for the drop-down list.
const WAYS: [Interpolation; 3] = [
    Interpolation::Linear,
    Interpolation::Smooth,
    Interpolation::Step,
];

/// What a key editor's user did this frame.
pub enum Edited<T> {
    /// A new set of keys (a drag ended, a key added or removed, the interpolation).
    Done(T),
    /// A colour being picked: one edit with the others of the same pick.
    Picking(T),
}

/// The positions a curve or gradient spans on screen: its keys' range, and at least 0..1.
fn span<T>(keys: &[Key<T>]) -> (f32, f32) {
    let first = keys.first().map_or(0.0, |k| k.0).min(0.0);
    let last = keys.last().map_or(1.0, |k| k.0).max(1.0);
    (first, if last > first { last } else { first + 1.0 })
}

/// The interpolation drop-down list; the way picked, if changed.
fn interpolation(ui: &mut egui::Ui, id: &str, now: Interpolation) -> Option<Interpolation> {
    let mut picked = None;
    egui::ComboBox::from_id_salt((id, "interpolation"))
        .selected_text(format!("{now:?}"))
        .show_ui(ui, |ui| {
            for way in WAYS {
                if ui
                    .selectable_label(way == now, format!("{way:?}"))
                    .clicked()
                {
                    picked = Some(way);
                }
            }
        });
    picked.filter(|&w| w != now)
}

/// The index of the key nearest to `x` on screen, if within reach.
fn nearest(xs: impl Iterator<Item = f32>, x: f32) -> Option<usize> {
    xs.enumerate()
        .map(|(k, kx)| (k, (kx - x).abs()))
        .filter(|&(_, d)| d <= REACH)
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(k, _)| k)
}

/// Where key `k` may go: between its neighbours.
fn between<T>(keys: &[Key<T>], k: usize, x: f32) -> f32 {
    let lo = if k > 0 { keys[k - 1].0 } else { f32::MIN };
    let hi = keys.get(k + 1).map_or(f32::MAX, |n| n.0);
    x.clamp(lo, hi)
}

/// A drag of one of the keys of `shown` (at `screen_x` across the editor), by `id`'s
/// `response`: it takes the key within reach of where the press began (a drag starts once
/// the pointer has moved a little), keeps the keys as `moved` moves it in egui's memory
/// while it goes on, and gives them when it ends.
fn drag<T: Clone + Send + Sync + 'static>(
    ui: &mut egui::Ui,
    (id, response): (egui::Id, &egui::Response),
    (shown, screen_x): (&T, &[f32]),
    moved: impl FnOnce(&mut T, usize, egui::Pos2),
) -> Option<T> {
    let dragging = ui.data(|d| d.get_temp::<(T, usize)>(id));
    if let Some(p) = response.interact_pointer_pos() {
        if response.drag_started() {
            let origin = ui.input(|i| i.pointer.press_origin()).unwrap_or(p);
            if let Some(k) = nearest(screen_x.iter().copied(), origin.x) {
                ui.data_mut(|d| d.insert_temp(id, (shown.clone(), k)));
            }
        } else if let Some((mut keys, k)) = dragging {
            moved(&mut keys, k, p);
            ui.data_mut(|d| d.insert_temp(id, (keys, k)));
        }
    }
    if !response.drag_stopped() {
        return None;
    }
    let ended = ui
        .data(|d| d.get_temp::<(T, usize)>(id))
        .map(|(keys, _)| keys);
    ui.data_mut(|d| d.remove::<(T, usize)>(id));
    ended
}

/// A curve's editor: its line over its keys' span, its keys as dots.
pub fn curve(ui: &mut egui::Ui, name: &str, curve: &Curve) -> Option<Curve> {
    let id = ui.scope_id().with(("curve", name));
    // during a drag: the keys as dragged, and which one
    let dragging = ui.data(|d| d.get_temp::<(Curve, usize)>(id));
    let shown = dragging.as_ref().map_or(curve, |(c, _)| c);
    let width = ui.available_width().max(120.0);
    let (rect, response) =
        ui.allocate_exact_size(egui::vec2(width, 100.0), egui::Sense::click_and_drag());
    let (x0, x1) = span(&shown.keys);
    let samples: Vec<(f32, f32)> = (0..=SAMPLES)
        .map(|i| {
            let x = x0 + (x1 - x0) * i as f32 / SAMPLES as f32;
            (x, shown.at(x))
        })
        .collect();
    let values = samples
        .iter()
        .map(|s| s.1)
        .chain(shown.keys.iter().map(|k| k.1));
    let (lo, hi) = values.fold((f32::MAX, f32::MIN), |(l, h), v| (l.min(v), h.max(v)));
    let pad = ((hi - lo) * 0.1).max(0.05);
    let (y0, y1) = (lo - pad, hi + pad);
    let to_screen = |x: f32, y: f32| {
        egui::pos2(
            rect.left() + (x - x0) / (x1 - x0) * rect.width(),
            rect.bottom() - (y - y0) / (y1 - y0) * rect.height(),
        )
    };
    let to_data = |p: egui::Pos2| {
        let x = x0 + (p.x - rect.left()) / rect.width() * (x1 - x0);
        let y = y0 + (rect.bottom() - p.y) / rect.height() * (y1 - y0);
        (x, y)
    };
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 2.0, ui.visuals().extreme_bg_color);
    let line: Vec<egui::Pos2> = samples.iter().map(|&(x, y)| to_screen(x, y)).collect();
    let stroke = egui::Stroke::new(1.5, ui.visuals().text_color());
    painter.add(egui::Shape::line(line, stroke));
    for key in &shown.keys {
        let colour = ui.visuals().selection.bg_fill;
        painter.circle_filled(to_screen(key.0, key.1), 4.0, colour);
    }
    let screen_x: Vec<f32> = shown.keys.iter().map(|k| to_screen(k.0, k.1).x).collect();
    let pointer = response.interact_pointer_pos();
    let moved = |c: &mut Curve, k: usize, p: egui::Pos2| {
        let (x, y) = to_data(p);
        c.keys[k] = Key(between(&c.keys, k, x), y);
    };
    let mut done = drag(ui, (id, &response), (shown, &screen_x), moved);
    if let Some(p) = pointer.filter(|_| response.double_clicked()) {
        if nearest(screen_x.iter().copied(), p.x).is_none() {
            let (x, _) = to_data(p);
            let mut c = curve.clone();
            let at = c.keys.partition_point(|k| k.0 <= x);
            c.keys.insert(at, Key(x, curve.at(x)));
            done = Some(c);
        }
    }
    if let Some(p) = pointer.filter(|_| response.secondary_clicked()) {
        if let Some(k) = nearest(screen_x.iter().copied(), p.x).filter(|_| curve.keys.len() > 1) {
            let mut c = curve.clone();
            c.keys.remove(k);
            done = Some(c);
        }
    }
    if let Some(way) = interpolation(ui, name, curve.interpolation) {
        done = Some(Curve {
            interpolation: way,
            ..curve.clone()
        });
    }
    done
}

/// A gradient's editor: its colours along a bar, its keys as marks under it, the colour of
/// the key last clicked in a picker.
pub fn gradient(ui: &mut egui::Ui, name: &str, gradient: &Gradient) -> Option<Edited<Gradient>> {
    let id = ui.scope_id().with(("gradient", name));
    let dragging = ui.data(|d| d.get_temp::<(Gradient, usize)>(id));
    let shown = dragging.as_ref().map_or(gradient, |(g, _)| g);
    let width = ui.available_width().max(120.0);
    let (rect, response) =
        ui.allocate_exact_size(egui::vec2(width, 34.0), egui::Sense::click_and_drag());
    let bar = egui::Rect::from_min_size(rect.min, egui::vec2(rect.width(), 22.0));
    let (x0, x1) = span(&shown.keys);
    let to_x = |x: f32| rect.left() + (x - x0) / (x1 - x0) * rect.width();
    let painter = ui.painter_at(rect);
    painter.rect_filled(bar, 0.0, egui::Color32::from_gray(24));
    // a strip of quads whose corners take the colours there, blended between them
    let mut mesh = egui::Mesh::default();
    for i in 0..=SAMPLES {
        let t = i as f32 / SAMPLES as f32;
        let [r, g, b, a] = shown.at(x0 + (x1 - x0) * t).map(|c| c.clamp(0.0, 1.0));
        let colour = egui::Color32::from(egui::Rgba::from_rgba_unmultiplied(r, g, b, a));
        let x = bar.left() + bar.width() * t;
        mesh.colored_vertex(egui::pos2(x, bar.top()), colour);
        mesh.colored_vertex(egui::pos2(x, bar.bottom()), colour);
        if i > 0 {
            let k = 2 * i as u32;
            mesh.add_triangle(k - 2, k - 1, k);
            mesh.add_triangle(k - 1, k + 1, k);
        }
    }
    painter.add(egui::Shape::mesh(mesh));
    let selected_id = id.with("selected");
    let selected = ui.data(|d| d.get_temp::<usize>(selected_id));
    for (k, key) in shown.keys.iter().enumerate() {
        let x = to_x(key.0);
        let tip = egui::pos2(x, bar.bottom() + 1.0);
        let mark = vec![
            tip,
            egui::pos2(x - 5.0, rect.bottom()),
            egui::pos2(x + 5.0, rect.bottom()),
        ];
        let colour = match Some(k) == selected {
            true => ui.visuals().selection.bg_fill,
            false => ui.visuals().text_color(),
        };
        painter.add(egui::Shape::convex_polygon(
            mark,
            colour,
            egui::Stroke::NONE,
        ));
    }
    let screen_x: Vec<f32> = shown.keys.iter().map(|k| to_x(k.0)).collect();
    let pointer = response.interact_pointer_pos();
    let to_data = |px: f32| x0 + (px - rect.left()) / rect.width() * (x1 - x0);
    let moved = |g: &mut Gradient, k: usize, p: egui::Pos2| {
        g.keys[k].0 = between(&g.keys, k, to_data(p.x));
    };
    let mut done = drag(ui, (id, &response), (shown, &screen_x), moved).map(Edited::Done);
    if let Some(p) = pointer.filter(|_| response.clicked()) {
        if let Some(k) = nearest(screen_x.iter().copied(), p.x) {
            ui.data_mut(|d| d.insert_temp(selected_id, k));
        }
    }
    if let Some(p) = pointer.filter(|_| response.double_clicked()) {
        if nearest(screen_x.iter().copied(), p.x).is_none() {
            let x = to_data(p.x);
            let mut g = gradient.clone();
            let at = g.keys.partition_point(|k| k.0 <= x);
            g.keys.insert(at, Key(x, gradient.at(x)));
            done = Some(Edited::Done(g));
        }
    }
    if let Some(p) = pointer.filter(|_| response.secondary_clicked()) {
        let k = nearest(screen_x.iter().copied(), p.x).filter(|_| gradient.keys.len() > 1);
        if let Some(k) = k {
            let mut g = gradient.clone();
            g.keys.remove(k);
            ui.data_mut(|d| d.remove::<usize>(selected_id));
            done = Some(Edited::Done(g));
        }
    }
    ui.horizontal(|ui| {
        if let Some(way) = interpolation(ui, name, gradient.interpolation) {
            done = Some(Edited::Done(Gradient {
                interpolation: way,
                ..gradient.clone()
            }));
        }
        let Some(k) = selected.filter(|&k| k < gradient.keys.len()) else {
            ui.label("click a key for its colour");
            return;
        };
        let Key(at, [r, g, b, a]) = gradient.keys[k];
        ui.label(format!("key at {at:.3}"));
        let mut colour = egui::Rgba::from_rgba_unmultiplied(r, g, b, a);
        let picker = egui::widgets::color_picker::Alpha::OnlyBlend;
        if egui::widgets::color_picker::color_edit_button_rgba(ui, &mut colour, picker).changed() {
            let mut edited = gradient.clone();
            edited.keys[k].1 = colour.to_rgba_unmultiplied();
            done = Some(Edited::Picking(edited));
        }
    });
    done
}
