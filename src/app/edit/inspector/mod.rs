//! The inspector, generated from what the effect has: its parameters (set live), curves
//! and gradients (graph.rs), then a group for the effect and one for each part of it (each
//! emitter, its forces, bounds, …) with its colours, choices, stacks and nodes as text, and
//! every number validation checks against a range, clamped to it, the range and unit on
//! hover (widgets.rs); each emitter with its buttons (duplicate, remove, move up).
//!
//! A drag is one edit, made when it ends: while it goes on the widget shows the value
//! dragged to and the viewport the effect as it was (an edit starts the effect afresh).
//! A text is checked as it is typed, the error shown under it, and made an edit when it
//! loses the keyboard and is good; the viewport runs the last good effect meanwhile.

mod graph;
mod widgets;

use eframe::egui;
use flurry::effect::{Choice, EffectEdit, FieldRange, TextField};
use flurry::expr::{Curve, Gradient, Value};

use graph::{imports, parameters, tables};
use widgets::{choice, colour, colours, number, text};

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
    /// The module files the effect imports, as written.
    Imports(Vec<String>),
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
        // (rarely changed: last)
        change = imports(ui, edit).or(change.take());
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
