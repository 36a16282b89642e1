//! An effect edited as an editor edits it (feature `edit`). A number is named by its path
//! and clamped to the range validation allows it ([`EffectDesc::field_ranges`]); a choice is
//! one of its ways; stacks and nodes are text, refused with the parser's or the graph's
//! error; curves and gradients take new keys, parameters new defaults; emitters are
//! duplicated, removed and moved with the triggers that name them. Every edit is validated
//! (refused, the effect unchanged, if it would leave it invalid) and undoable; a gesture of
//! many edits (a drag) can be made one ([`EffectEdit::merge_since`]).

use super::{EffectDesc, FieldRange, Trigger};
use crate::error::{Invalid, Result};
use crate::expr::{Curve, Gradient, Value};

/// A text of an effect an editor edits whole ([`EffectEdit::texts`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextField {
    /// `emitters[0].update` (a stack), `nodes.heat` (a named expression) or
    /// `functions.orbit.body` (a function's body).
    pub path: String,
    /// A stack's statements, one a line; a node's or a body's expression.
    pub text: String,
}

/// A field of an effect that names one of a few ways ([`EffectEdit::choices`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// `blend`, `bounds.on_exit`, `emitters[1].shape`, …
    pub path: String,
    /// The way it names now.
    pub current: String,
    /// The ways it may be set to: a way with fields of its own starts from sensible ones
    /// (a sphere of 1 m about the emitter, streaks of 0.05 s, …).
    pub options: Vec<&'static str>,
}

/// A way: its name and, for one with fields of its own, what they start as (JSON, as serde
/// writes the way).
type Way = (&'static str, Option<&'static str>);

const RENDER_MODES: &[Way] = &[
    ("Billboard", None),
    ("Upright", None),
    ("Stretched", Some(r#"{"Stretched": {"seconds": 0.05}}"#)),
    ("Tumbling", None),
    ("Flat", None),
    ("Ribbon", Some(r#"{"Ribbon": {"subdivisions": 4}}"#)),
    ("Mesh", Some(r#"{"Mesh": {"mesh": "Cube"}}"#)),
];

const SPRITES: &[Way] = &[("Disc", None), ("Snowflakes", None), ("Ring", None)];

/// The fields that name one of a few ways, by where they are (`emitters[]` for each
/// emitter's), with those ways. (Ways that need what only the host knows, such as a body's
/// or a mesh's number, are left out.)
const CHOICES: &[(&str, &[Way])] = &[
    ("blend", &[("Alpha", None), ("Additive", None)]),
    (
        "integrator",
        &[("ExplicitEuler", None), ("SymplecticEuler", None)],
    ),
    ("render", RENDER_MODES),
    ("sprite", SPRITES),
    ("bounds.on_exit", &[("Kill", None), ("Wrap", None)]),
    (
        "collision.response",
        &[
            (
                "Bounce",
                Some(r#"{"Bounce": {"restitution": 0.5, "friction": 0.2}}"#),
            ),
            ("Kill", None),
            ("Settle", Some(r#"{"Settle": {"time": 1.0}}"#)),
        ],
    ),
    (
        "emitters[].shape",
        &[
            ("Point", Some(r#"{"Point": [0.0, 0.0, 0.0]}"#)),
            (
                "Box",
                Some(r#"{"Box": {"min": [-1.0, -1.0, -1.0], "max": [1.0, 1.0, 1.0]}}"#),
            ),
            (
                "Sphere",
                Some(r#"{"Sphere": {"center": [0.0, 0.0, 0.0], "radius": 1.0}}"#),
            ),
            (
                "Disk",
                Some(
                    r#"{"Disk": {"center": [0.0, 0.0, 0.0], "radius": 1.0, "normal": [0.0, 1.0, 0.0]}}"#,
                ),
            ),
        ],
    ),
    (
        "emitters[].velocity",
        &[
            (
                "Linear",
                Some(r#"{"Linear": {"mean": [0.0, 1.0, 0.0], "variance": [0.5, 0.5, 0.5]}}"#),
            ),
            (
                "Radial",
                Some(r#"{"Radial": {"speed": {"mean": 1.0, "variance": 0.5}}}"#),
            ),
        ],
    ),
    (
        "emitters[].trigger",
        &[
            ("Schedule", None),
            ("OnHit", Some(r#"{"OnHit": {"count": 4}}"#)),
            ("OnDeath", Some(r#"{"OnDeath": {"of": 0, "count": 10}}"#)),
            ("Trail", Some(r#"{"Trail": {"of": 0, "every": 0.05}}"#)),
        ],
    ),
    ("emitters[].render", RENDER_MODES),
    ("emitters[].sprite", SPRITES),
];

/// An effect under edit, with its history.
#[derive(Clone, Debug)]
pub struct EffectEdit {
    effect: EffectDesc,
    /// The effect before each edit, the latest last.
    undo: Vec<EffectDesc>,
    /// The effects undone, the latest last.
    redo: Vec<EffectDesc>,
}

impl EffectEdit {
    /// `effect` (valid, as [`EffectDesc::validate`] says) with no history yet.
    pub fn new(effect: EffectDesc) -> Result<Self> {
        effect.validate()?;
        Ok(EffectEdit {
            effect,
            undo: Vec::new(),
            redo: Vec::new(),
        })
    }

    /// The effect as edited so far: always valid.
    pub fn effect(&self) -> &EffectDesc {
        &self.effect
    }

    /// The numbers that may be edited, each with its range ([`EffectDesc::field_ranges`]).
    pub fn fields(&self) -> Vec<FieldRange> {
        self.effect.field_ranges()
    }

    /// The number at `path` (one of [`EffectEdit::fields`], a field left out at its
    /// default included; None: no such number).
    pub fn number(&self, path: &str) -> Option<f32> {
        let fields = self.fields();
        fields.iter().find(|f| f.path == path).map(|f| f.value)
    }

    /// Set the number at `path` (one of [`EffectEdit::fields`]) to `value` clamped to its
    /// range; the value set. Refuses a path that is not an editable number, a value that
    /// is not finite, and an edit that would leave the effect invalid (a box's min past its
    /// max, probabilities no longer summing to 1), naming the field: the effect is then
    /// unchanged.
    pub fn set_number(&mut self, path: &str, value: f32) -> Result<f32> {
        self.set_numbers(&[(path, value)]).map(|set| set[0])
    }

    /// Set several numbers at once (a colour's four channels), each as
    /// [`EffectEdit::set_number`] sets one, as one edit; the values set. Refused whole
    /// where any one is refused.
    pub fn set_numbers(&mut self, numbers: &[(&str, f32)]) -> Result<Vec<f32>> {
        let fields = self.fields();
        let mut values = Vec::with_capacity(numbers.len());
        for &(path, value) in numbers {
            let Some(range) = fields.iter().find(|f| f.path == path) else {
                let allowed = "the path of one of the effect's numbers (EffectEdit::fields)";
                return Err(Invalid::new("path", path, allowed).into());
            };
            if !value.is_finite() {
                return Err(Invalid::new(path, value, range.allowed.clone()).into());
            }
            values.push(value.clamp(range.min, range.max));
        }
        let changes: Vec<(&str, serde_json::Value)> = (numbers.iter().zip(&values))
            .map(|(&(path, _), &v)| (path, serde_json::Value::from(v as f64)))
            .collect();
        let edited = self.with(&changes)?;
        self.push(edited);
        Ok(values)
    }

    /// The fields that name one of a few ways (its blending, integrator, render mode and
    /// sprite, its bounds' way out, its collision's response; each emitter's shape,
    /// velocity and trigger, and its own render mode and sprite where it has them), each
    /// with its ways, which [`EffectEdit::set_choice`] sets.
    pub fn choices(&self) -> Vec<Choice> {
        let Ok(tree) = serde_json::to_value(&self.effect) else {
            return Vec::new();
        };
        let emitters = self.effect.emitters.len();
        let paths = CHOICES.iter().flat_map(|&(path, ways)| {
            let each: Vec<String> = match path.strip_prefix("emitters[]") {
                Some(rest) => (0..emitters)
                    .map(|i| format!("emitters[{i}]{rest}"))
                    .collect(),
                None => vec![path.to_string()],
            };
            each.into_iter().map(move |p| (p, ways))
        });
        paths
            .filter_map(|(path, ways)| {
                // a unit way is its name; a way with fields, an object keyed by it
                let current = match at(&tree, &path)? {
                    serde_json::Value::String(name) => name.clone(),
                    serde_json::Value::Object(way) => way.keys().next()?.clone(),
                    _ => return None,
                };
                let options = ways.iter().map(|w| w.0).collect();
                Some(Choice {
                    path,
                    current,
                    options,
                })
            })
            .collect()
    }

    /// Set the field at `path` (one of [`EffectEdit::choices`]) to `option`, one of its
    /// options (the way it names already: nothing changes, its fields stay). Refuses
    /// another path or option, and a way the rest of the effect does not allow, naming the
    /// field: the effect is then unchanged.
    pub fn set_choice(&mut self, path: &str, option: &str) -> Result<()> {
        let choices = self.choices();
        let Some(choice) = choices.iter().find(|c| c.path == path) else {
            let allowed = "the path of one of the effect's choices (EffectEdit::choices)";
            return Err(Invalid::new("path", path, allowed).into());
        };
        if !choice.options.contains(&option) {
            return Err(Invalid::new(path, option, choice.options.join(", ")).into());
        }
        if choice.current == option {
            return Ok(());
        }
        let pattern = path.split('[').next().unwrap_or(path);
        let pattern = match path.starts_with("emitters[") {
            true => format!("emitters[]{}", &path[path.find(']').map_or(0, |k| k + 1)..]),
            false => pattern.to_string(),
        };
        let way = (CHOICES.iter())
            .find(|(p, _)| *p == pattern)
            .and_then(|(_, ways)| ways.iter().find(|w| w.0 == option))
            .and_then(|w| w.1);
        let value = match way {
            Some(fields) => serde_json::from_str(fields).map_err(|e| unusable(path, e))?,
            None => serde_json::Value::from(option),
        };
        let edited = self.with(&[(path, value)])?;
        self.keep(edited);
        Ok(())
    }

    /// The texts that may be edited: each emitter's four stacks (`emitters[0].update`: its
    /// lines, one statement a line, empty where it has none), each named node
    /// (`nodes.heat`: its expression) and the body of each function the effect declares
    /// (`functions.orbit.body`).
    pub fn texts(&self) -> Vec<TextField> {
        let mut out = Vec::new();
        for (i, e) in self.effect.emitters.iter().enumerate() {
            let stacks = [
                ("spawn", &e.spawn),
                ("init", &e.init),
                ("update", &e.update),
                ("draw", &e.draw),
            ];
            for (name, lines) in stacks {
                let text: Vec<&str> = lines.iter().map(|s| s.text()).collect();
                out.push(TextField {
                    path: format!("emitters[{i}].{name}"),
                    text: text.join("\n"),
                });
            }
        }
        for (name, expr) in &self.effect.nodes {
            out.push(TextField {
                path: format!("nodes.{name}"),
                text: expr.text().to_string(),
            });
        }
        for (name, function) in &self.effect.functions {
            out.push(TextField {
                path: format!("functions.{name}.body"),
                text: function.body.text().to_string(),
            });
        }
        out
    }

    /// The effect with `text` at `path` (one of [`EffectEdit::texts`]; a stack's lines,
    /// blank ones left out), checked as [`EffectEdit::set_text`] checks it, without making
    /// it the effect: what an editor shows the errors of while the text is typed.
    pub fn check_text(&self, path: &str, text: &str) -> Result<EffectDesc> {
        let Some(field) = self.texts().into_iter().find(|t| t.path == path) else {
            let allowed = "the path of one of the effect's stacks or nodes (EffectEdit::texts)";
            return Err(Invalid::new("path", path, allowed).into());
        };
        // a node's or a function's body is one expression; a stack, lines of statements
        let expression = field.path.starts_with("nodes.") || field.path.ends_with(".body");
        let value = match expression {
            true => serde_json::Value::from(text.trim()),
            false => {
                let lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
                serde_json::Value::from(lines.collect::<Vec<_>>())
            }
        };
        self.with(&[(path, value)])
    }

    /// Set the text at `path` (one of [`EffectEdit::texts`]): a stack's lines or a node's
    /// expression. Refuses text that does not parse, or that makes the effect invalid (a
    /// name it does not declare, a type that does not fit), naming the line and what was
    /// expected: the effect is then unchanged.
    pub fn set_text(&mut self, path: &str, text: &str) -> Result<()> {
        let edited = self.check_text(path, text)?;
        self.keep(edited);
        Ok(())
    }

    /// The effect with each value at its path, validated.
    fn with(&self, changes: &[(&str, serde_json::Value)]) -> Result<EffectDesc> {
        let first = changes.first().map_or("", |c| c.0);
        let mut tree = serde_json::to_value(&self.effect).map_err(|e| unusable(first, e))?;
        for (path, value) in changes {
            set(&mut tree, path, value.clone()).ok_or_else(|| unusable(path, "no such field"))?;
        }
        let mut edited: EffectDesc = serde_json::from_value(tree).map_err(|e| {
            // a statement or expression that does not parse: serde says which and why
            Invalid::new(first, "text", e.to_string())
        })?;
        // (what its imports brought in is not serialised: it stays as it was read)
        edited.imported = self.effect.imported.clone();
        edited.validate()?;
        Ok(edited)
    }

    /// Make `edited` the effect, undoably.
    fn push(&mut self, edited: EffectDesc) {
        self.undo.push(std::mem::replace(&mut self.effect, edited));
        self.redo.clear();
    }

    /// Replace the whole effect by `effect` (valid, as [`EffectDesc::validate`] says; its
    /// file was changed in a text editor), as an edit that [`EffectEdit::undo`] takes back.
    /// An effect equal to the one under edit is no edit: false.
    pub fn replace(&mut self, effect: EffectDesc) -> Result<bool> {
        effect.validate()?;
        if effect == self.effect {
            return Ok(false);
        }
        self.push(effect);
        Ok(true)
    }

    /// Take the latest edit back; false when there is none.
    pub fn undo(&mut self) -> bool {
        let Some(before) = self.undo.pop() else {
            return false;
        };
        self.redo.push(std::mem::replace(&mut self.effect, before));
        true
    }

    /// Make the latest edit undone again; false when there is none (an edit since an undo
    /// forgets what was undone).
    pub fn redo(&mut self) -> bool {
        let Some(after) = self.redo.pop() else {
            return false;
        };
        self.undo.push(std::mem::replace(&mut self.effect, after));
        true
    }

    /// Replace the keys and interpolation of the effect's curve `name` (one it declares).
    /// Refuses keys out of order or not finite, naming the key: the effect is then
    /// unchanged.
    pub fn set_curve(&mut self, name: &str, curve: Curve) -> Result<()> {
        let mut edited = self.effect.clone();
        let Some(slot) = edited.curves.get_mut(name) else {
            return Err(undeclared("curves", name, self.effect.curves.keys()));
        };
        *slot = curve;
        self.commit(edited)
    }

    /// Replace the keys and interpolation of the effect's gradient `name` (one it
    /// declares), refused as [`EffectEdit::set_curve`] refuses.
    pub fn set_gradient(&mut self, name: &str, gradient: Gradient) -> Result<()> {
        let mut edited = self.effect.clone();
        let Some(slot) = edited.gradients.get_mut(name) else {
            return Err(undeclared("gradients", name, self.effect.gradients.keys()));
        };
        *slot = gradient;
        self.commit(edited)
    }

    /// Set the default of the effect's parameter `name` (one it declares) to `value`, of
    /// its type and within its bounds: what it is until the host sets it. Refuses another
    /// name, type or a value out of bounds, naming the parameter.
    pub fn set_parameter(&mut self, name: &str, value: Value) -> Result<()> {
        let mut edited = self.effect.clone();
        let Some(p) = edited.parameters.get_mut(name) else {
            return Err(undeclared(
                "parameters",
                name,
                self.effect.parameters.keys(),
            ));
        };
        if !p.admits(value) {
            let field = format!("parameters.{name}.default");
            return Err(Invalid::new(&field, value, p.allowed()).into());
        }
        p.default = value;
        self.commit(edited)
    }

    /// Add a copy of emitter `index` after the last one; the index of the copy. Refuses
    /// an unknown emitter, and an effect that has as many emitters as it may.
    pub fn duplicate_emitter(&mut self, index: usize) -> Result<usize> {
        let mut edited = self.effect.clone();
        let Some(emitter) = edited.emitters.get(index).cloned() else {
            return Err(unknown_emitter(index, edited.emitters.len()));
        };
        edited.emitters.push(emitter);
        self.commit(edited)?;
        Ok(self.effect.emitters.len() - 1)
    }

    /// Remove emitter `index`; the emitters after it move down one, and the triggers that
    /// name them (`OnDeath(of)`, `Trail(of)`) follow. Refuses the only emitter, one whose
    /// particles another emitter's trigger watches, and any but the last where the
    /// effect's expressions read the `emitter` input (its numbers would change under them).
    pub fn remove_emitter(&mut self, index: usize) -> Result<()> {
        let n = self.effect.emitters.len();
        if index >= n {
            return Err(unknown_emitter(index, n));
        }
        if let Some(k) = (0..n).find(|&k| k != index && watched(&self.effect, k) == Some(index)) {
            let why = format!("an emitter no other one's trigger watches (emitters[{k}]'s does)");
            return Err(Invalid::new("emitter", index, why).into());
        }
        self.renumbering_allowed(index, n - 1)?;
        let mut edited = self.effect.clone();
        edited.emitters.remove(index);
        renumber(&mut edited, |k| if k > index { k - 1 } else { k });
        self.commit(edited)
    }

    /// Move emitter `from` to place `to`, the others keeping their order; the triggers
    /// that name emitters follow them. Refused where the effect's expressions read the
    /// `emitter` input, as for [`EffectEdit::remove_emitter`].
    pub fn move_emitter(&mut self, from: usize, to: usize) -> Result<()> {
        let n = self.effect.emitters.len();
        for k in [from, to] {
            if k >= n {
                return Err(unknown_emitter(k, n));
            }
        }
        if from == to {
            return Ok(());
        }
        self.renumbering_allowed(from.min(to), from.max(to))?;
        let mut edited = self.effect.clone();
        let emitter = edited.emitters.remove(from);
        edited.emitters.insert(to, emitter);
        // where each old index is now
        let moved = |k: usize| match k {
            k if k == from => to,
            k if from < to && (from + 1..=to).contains(&k) => k - 1,
            k if to < from && (to..from).contains(&k) => k + 1,
            k => k,
        };
        renumber(&mut edited, moved);
        self.commit(edited)
    }

    /// Emitters `first..=last` may change their numbers: no expression reads `emitter`
    /// (or only the last one moves, which renumbers nothing).
    fn renumbering_allowed(&self, first: usize, last: usize) -> Result<()> {
        if first == last || !reads_emitter_input(&self.effect) {
            return Ok(());
        }
        let why = "the last emitter only: the effect's expressions read the `emitter` input, \
                   whose numbers would change under them";
        Err(Invalid::new("emitter", first, why).into())
    }

    /// Make the edits since [`EffectEdit::undo_depth`] was `depth` one edit (a drag, or a
    /// colour picked, made of many): one undo then takes them all back.
    pub fn merge_since(&mut self, depth: usize) {
        if self.undo.len() > depth + 1 {
            self.undo.truncate(depth + 1);
        }
    }

    /// Validate `edited` and make it the effect (no edit where it is the same).
    fn commit(&mut self, edited: EffectDesc) -> Result<()> {
        edited.validate()?;
        self.keep(edited);
        Ok(())
    }

    /// Make `edited` (valid) the effect where it differs from it.
    fn keep(&mut self, edited: EffectDesc) {
        if edited != self.effect {
            self.push(edited);
        }
    }

    /// Edits that [`EffectEdit::redo`] can make again.
    pub fn redo_depth(&self) -> usize {
        self.redo.len()
    }

    /// Edits that [`EffectEdit::undo`] can take back.
    pub fn undo_depth(&self) -> usize {
        self.undo.len()
    }
}

/// A curve or gradient the effect does not declare.
fn undeclared<'a>(
    field: &str,
    name: &str,
    names: impl Iterator<Item = &'a String>,
) -> crate::Error {
    let names: Vec<&str> = names.map(String::as_str).collect();
    let allowed = match names.is_empty() {
        true => format!("none: the effect declares no {field}"),
        false => format!("one of the effect's {field}: {}", names.join(", ")),
    };
    Invalid::new(field, name, allowed).into()
}

fn unknown_emitter(index: usize, emitters: usize) -> crate::Error {
    Invalid::new(
        "emitter",
        index,
        format!("0..{emitters} (the effect's emitters)"),
    )
    .into()
}

/// The emitter whose particles emitter `k`'s trigger watches, if any.
fn watched(effect: &EffectDesc, k: usize) -> Option<usize> {
    match effect.emitters[k].trigger {
        Trigger::OnDeath { of, .. } | Trigger::Trail { of, .. } => Some(of as usize),
        _ => None,
    }
}

/// Every trigger that names an emitter names `now(old)` instead.
fn renumber(effect: &mut EffectDesc, now: impl Fn(usize) -> usize) {
    for e in &mut effect.emitters {
        if let Trigger::OnDeath { of, .. } | Trigger::Trail { of, .. } = &mut e.trigger {
            *of = now(*of as usize) as u32;
        }
    }
}

/// Whether any text of the effect (its stacks, nodes and functions, and the functions of
/// the modules it imports) reads the `emitter` input: the word `emitter` in a string.
fn reads_emitter_input(effect: &EffectDesc) -> bool {
    let modules = effect
        .imported
        .iter()
        .map(|m| ron::ser::to_string(m).unwrap_or_default());
    let texts = std::iter::once(effect.to_ron()).chain(modules);
    texts.into_iter().any(|text| {
        // what lies inside quotes: every other piece between two quotes
        text.split('"').skip(1).step_by(2).any(|quoted| {
            quoted
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .any(|word| word == "emitter")
        })
    })
}

/// An edit serde could not carry out at `path` (a bug of the schema's paths, not the user's).
fn unusable(path: &str, why: impl std::fmt::Display) -> crate::Error {
    Invalid::new("path", path, format!("a field serde can set ({why})")).into()
}

/// What is at `path` of `tree` (None: nothing, or null).
fn at<'a>(tree: &'a serde_json::Value, path: &str) -> Option<&'a serde_json::Value> {
    let found = steps(path).try_fold(tree, |v, step| match step {
        Step::Key(k) => v.get(k),
        Step::Index(i) => v.get(i),
    })?;
    (!found.is_null()).then_some(found)
}

/// Set what is at `path` of `tree` to `value`, adding it where a default left it out; None
/// where the path leads nowhere.
fn set(tree: &mut serde_json::Value, path: &str, value: serde_json::Value) -> Option<()> {
    let all: Vec<Step> = steps(path).collect();
    let (last, parents) = all.split_last()?;
    let parent = parents.iter().try_fold(tree, |v, step| match *step {
        Step::Key(k) => v.get_mut(k),
        Step::Index(i) => v.get_mut(i),
    })?;
    match *last {
        Step::Key(k) => {
            parent.as_object_mut()?.insert(k.to_string(), value);
        }
        Step::Index(i) => *parent.get_mut(i)? = value,
    }
    Some(())
}

#[derive(Clone, Copy)]
enum Step<'a> {
    Key(&'a str),
    Index(usize),
}

/// A path's steps: `a.b[2][1].c` is a, b, 2, 1, c.
fn steps(path: &str) -> impl Iterator<Item = Step<'_>> {
    path.split('.').flat_map(|part| {
        let (key, indices) = part.split_once('[').unwrap_or((part, ""));
        let key = (!key.is_empty()).then_some(Step::Key(key));
        let indices = (indices.split('['))
            .filter(|s| !s.is_empty())
            .map(|s| Step::Index(s.trim_end_matches(']').parse().unwrap_or(usize::MAX)));
        key.into_iter().chain(indices)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::effect::shipped;

    /// Every number of every shipped effect edited through `set_number`, as the inspector
    /// will: the edited effect saves and loads back as itself, and undoing every edit gives
    /// the original.
    #[test]
    fn every_field_edited_saves_loads_back_and_undoes_to_the_original() {
        for (path, original) in shipped::all() {
            let name = path.display();
            let mut edit = EffectEdit::new(original.clone()).unwrap();
            let (mut taken, mut refused) = (0, 0);
            for field in edit.fields() {
                let now = edit.number(&field.path).unwrap();
                // a little more, within the range
                let wanted = (now + 0.1 * now.abs().max(0.5)).min(field.max);
                match edit.set_number(&field.path, wanted) {
                    Ok(set) => {
                        taken += 1;
                        assert_eq!(set, wanted, "{name}: {}", field.path);
                        assert_eq!(
                            edit.number(&field.path),
                            Some(set),
                            "{name}: {}",
                            field.path
                        );
                    }
                    // (an edit that breaks a rule across fields: a box's corners, a sum)
                    Err(_) => refused += 1,
                }
            }
            assert!(
                taken > 4 * refused,
                "{name}: {taken} edits taken, {refused} refused"
            );
            assert_eq!(edit.undo_depth(), taken);
            let saved = edit.effect().to_ron();
            let loaded = shipped::read_as(&saved, &path).unwrap();
            assert_eq!(&loaded, edit.effect(), "{name}: saved and loaded back");
            assert_ne!(&loaded, &original, "{name}: edited");
            let edited = edit.effect().clone();
            while edit.undo() {}
            assert_eq!(edit.effect(), &original, "{name}: every edit undone");
            while edit.redo() {}
            assert_eq!(edit.effect(), &edited, "{name}: every edit redone");
        }
    }

    #[test]
    fn a_value_out_of_range_is_clamped_and_a_bad_one_refused_leaving_the_effect() {
        let (_, snow) = shipped::all()
            .into_iter()
            .find(|(n, _)| n.ends_with("snow.ron"))
            .unwrap();
        let mut edit = EffectEdit::new(snow).unwrap();
        assert_eq!(edit.set_number("soft_distance", 5e3).unwrap(), 1e3);
        assert_eq!(edit.number("soft_distance"), Some(1e3));
        // emission, left out at its default of 1, is added where it is set
        assert_eq!(edit.number("emitters[0].emission"), Some(1.0));
        assert!(!edit.effect().to_ron().contains("emission"));
        assert_eq!(edit.set_number("emitters[0].emission", -2.0).unwrap(), 0.0);
        assert_eq!(edit.number("emitters[0].emission"), Some(0.0));
        let before = edit.effect().clone();
        for (path, value) in [("soft_distance", f32::NAN), ("no.such.field", 1.0)] {
            let e = edit.set_number(path, value).unwrap_err().to_string();
            assert!(e.contains(path), "{e}");
        }
        assert_eq!(edit.effect(), &before);
        assert_eq!(edit.undo_depth(), 2);
        // an edit after an undo forgets what was undone
        assert!(edit.undo());
        edit.set_number("soft_distance", 2.0).unwrap();
        assert!(!edit.redo());
    }

    /// The file changed under the editor: the new effect is one more edit, undone like any;
    /// the same effect again is none, and an invalid one is refused.
    #[test]
    fn a_replaced_effect_is_an_edit_undone_like_any() {
        let mut all = shipped::all().into_iter().map(|(_, e)| e);
        let (first, second) = (all.next().unwrap(), all.next().unwrap());
        let mut edit = EffectEdit::new(first.clone()).unwrap();
        assert!(!edit.replace(first.clone()).unwrap());
        assert_eq!(edit.undo_depth(), 0);
        assert!(edit.replace(second.clone()).unwrap());
        assert_eq!(edit.effect(), &second);
        let mut broken = second.clone();
        broken.soft_distance = -1.0;
        assert!(edit.replace(broken).is_err());
        assert_eq!(edit.effect(), &second);
        assert!(edit.undo());
        assert_eq!(edit.effect(), &first);
    }

    /// A stack edited as text: a good line changes the effect; a line that does not parse,
    /// or names what the effect does not declare, is refused with the reason (checked as it
    /// is typed, committed only when good), and the effect is as it was.
    #[test]
    fn stacks_and_nodes_are_edited_as_text() {
        let (_, campfire) = shipped::all()
            .into_iter()
            .find(|(n, _)| n.ends_with("campfire.ron"))
            .unwrap();
        let mut edit = EffectEdit::new(campfire).unwrap();
        let texts = edit.texts();
        assert_eq!(
            texts
                .iter()
                .filter(|t| t.path.starts_with("emitters[0]."))
                .count(),
            4,
            "an emitter's four stacks"
        );
        let update = texts
            .iter()
            .find(|t| t.path.ends_with(".update") && !t.text.is_empty())
            .expect("a stack with lines")
            .clone();
        let grown = format!("{}\n\n  force += vec3(0.0, 0.5, 0.0)  \n", update.text);
        edit.set_text(&update.path, &grown).unwrap();
        let now = edit
            .texts()
            .into_iter()
            .find(|t| t.path == update.path)
            .unwrap();
        assert_eq!(
            now.text,
            format!("{}\nforce += vec3(0.0, 0.5, 0.0)", update.text)
        );
        assert_eq!(edit.undo_depth(), 1);
        let before = edit.effect().clone();
        for (bad, says) in [
            ("force += vec3(0.0, 1.0", "expected"),
            ("force += no_such_name", "no_such_name"),
            ("size = vec3(1.0)", "size"),
        ] {
            let e = edit.check_text(&update.path, bad).unwrap_err().to_string();
            assert!(e.contains(says), "{bad}: {e}");
            assert!(edit.set_text(&update.path, bad).is_err());
        }
        assert_eq!(edit.effect(), &before);
        assert!(edit.undo());
        assert_eq!(edit.texts(), texts);
        let spell = EffectEdit::new(shipped_effect("spell.ron")).unwrap();
        let body = (spell.texts().into_iter())
            .find(|t| t.path.starts_with("functions.") && t.path.ends_with(".body"))
            .expect("the spell declares a function");
        let mut spell = spell;
        let doubled = format!("({}) * 2.0", body.text);
        spell.set_text(&body.path, &doubled).unwrap();
        let now = spell
            .texts()
            .into_iter()
            .find(|t| t.path == body.path)
            .unwrap();
        assert_eq!(now.text, doubled);
        assert!(spell.set_text(&body.path, "nope(").is_err());
        if let Some(node) = texts.iter().find(|t| t.path.starts_with("nodes.")) {
            edit.set_text(&node.path, "0.5").unwrap();
            let now = edit
                .texts()
                .into_iter()
                .find(|t| t.path == node.path)
                .unwrap();
            assert_eq!(now.text, "0.5");
        }
    }

    /// Every choice of every shipped effect set to each of its options: the effect takes
    /// it (or refuses a way the rest of it does not allow, unchanged), and undo gives the
    /// original. The options are ways serde knows, by their names in the files.
    #[test]
    fn every_choice_of_every_effect_is_set_and_undone() {
        let mut set = 0;
        for (path, original) in shipped::all() {
            let name = path.display();
            let mut edit = EffectEdit::new(original.clone()).unwrap();
            let choices = edit.choices();
            assert!(choices.len() >= 4, "{name}: {choices:?}");
            for choice in choices {
                assert!(!choice.current.is_empty(), "{name}: {choice:?}");
                for option in &choice.options {
                    match edit.set_choice(&choice.path, option) {
                        Ok(()) => {
                            let now = edit.choices();
                            let c = now.iter().find(|c| c.path == choice.path).unwrap();
                            assert_eq!(c.current, *option, "{name}: {}", choice.path);
                            set += 1;
                        }
                        // refused by the effect's rules, never as a way or fields serde does
                        // not know
                        Err(e) => {
                            let e = e.to_string();
                            for serde in
                                ["variant", "missing field", "unknown field", "invalid type"]
                            {
                                assert!(!e.contains(serde), "{name}: {option}: {e}");
                            }
                        }
                    }
                }
            }
            while edit.undo() {}
            assert_eq!(edit.effect(), &original, "{name}");
        }
        assert!(set > 60, "{set} choices set");
        let (_, snow) = shipped::all()
            .into_iter()
            .find(|(n, _)| n.ends_with("snow.ron"))
            .unwrap();
        let mut edit = EffectEdit::new(snow).unwrap();
        for (path, option) in [("blend", "Glow"), ("no.such", "Alpha")] {
            let e = edit.set_choice(path, option).unwrap_err().to_string();
            assert!(e.contains(path), "{e}");
        }
        edit.set_choice("bounds.on_exit", "Kill").unwrap();
        assert_eq!(
            edit.effect().bounds.unwrap().on_exit,
            crate::effect::OnExit::Kill
        );
        // a way with fields starts from its own; the way it names already keeps its fields
        use crate::effect::Shape;
        let shape = "emitters[0].shape";
        edit.set_choice(shape, "Box").unwrap();
        let kept = matches!(
            edit.effect().emitters[0].shape,
            Shape::Box {
                min: [-12.0, ..],
                ..
            }
        );
        assert!(kept, "{:?}", edit.effect().emitters[0].shape);
        edit.set_choice(shape, "Sphere").unwrap();
        let sphere = Shape::Sphere {
            center: [0.0; 3],
            radius: 1.0,
            surface: false,
        };
        assert_eq!(edit.effect().emitters[0].shape, sphere);
    }

    fn shipped_effect(file: &str) -> EffectDesc {
        let found = shipped::all().into_iter().find(|(n, _)| n.ends_with(file));
        found.unwrap().1
    }

    /// A curve's and a gradient's keys replaced: good keys are one edit, keys out of order
    /// are refused naming the key, and an unknown name names the ones there are.
    #[test]
    fn curves_and_gradients_take_new_keys() {
        use crate::expr::Key;
        let mut edit = EffectEdit::new(shipped_effect("campfire.ron")).unwrap();
        let mut tongue = edit.effect().curves["tongue"].clone();
        tongue.keys.insert(1, Key(0.1, 2.0));
        edit.set_curve("tongue", tongue.clone()).unwrap();
        assert_eq!(edit.effect().curves["tongue"], tongue);
        assert_eq!(edit.effect().curves["tongue"].at(0.1), 2.0);
        let mut flame = edit.effect().gradients["flame"].clone();
        flame.keys[0].1 = [0.2, 0.4, 1.0, 1.0];
        edit.set_gradient("flame", flame.clone()).unwrap();
        assert_eq!(
            edit.effect().gradients["flame"].at(0.0),
            [0.2, 0.4, 1.0, 1.0]
        );
        assert_eq!(edit.undo_depth(), 2);
        let mut backwards = tongue.clone();
        backwards.keys.swap(0, 2);
        let e = edit.set_curve("tongue", backwards).unwrap_err().to_string();
        assert!(e.contains("ascending"), "{e}");
        let e = edit.set_curve("no_such", tongue).unwrap_err().to_string();
        assert!(e.contains("billow") && e.contains("tongue"), "{e}");
        assert_eq!(edit.undo_depth(), 2);
        // a drag of many steps made one edit
        let depth = edit.undo_depth();
        for k in 1..=5 {
            let mut dragged = edit.effect().curves["billow"].clone();
            dragged.keys[1].1 = 2.0 + k as f32 * 0.1;
            edit.set_curve("billow", dragged).unwrap();
        }
        edit.merge_since(depth);
        assert_eq!(edit.undo_depth(), depth + 1);
        assert!(edit.undo());
        assert_eq!(edit.effect().curves["billow"].keys[1].1, 2.2);
    }

    /// Emitters duplicated, moved and removed: the triggers that watch an emitter follow
    /// it; an emitter another one watches stays, and so does the only one.
    #[test]
    fn emitters_are_duplicated_moved_and_removed_with_their_triggers() {
        use crate::effect::Trigger;
        let fireworks = shipped_effect("fireworks.ron");
        // rockets (0), sparks on their deaths (1), trails behind the sparks (2)
        let of = |e: &EffectDesc, k: usize| match e.emitters[k].trigger {
            Trigger::OnDeath { of, .. } | Trigger::Trail { of, .. } => Some(of),
            _ => None,
        };
        let mut edit = EffectEdit::new(fireworks.clone()).unwrap();
        assert_eq!((of(&fireworks, 1), of(&fireworks, 2)), (Some(0), Some(1)));
        let e = edit.remove_emitter(0).unwrap_err().to_string();
        assert!(e.contains("emitters[1]"), "{e}");
        // the rockets moved last: the sparks watch them there, the trails the sparks
        edit.move_emitter(0, 2).unwrap();
        let now = edit.effect().clone();
        assert_eq!(now.emitters[2], fireworks.emitters[0]);
        assert_eq!((of(&now, 0), of(&now, 1)), (Some(2), Some(0)));
        // (an effect has one trail emitter at most)
        let e = edit.duplicate_emitter(1).unwrap_err().to_string();
        assert!(e.contains("one Trail"), "{e}");
        let copy = edit.duplicate_emitter(0).unwrap();
        assert_eq!(copy, 3);
        assert_eq!(edit.effect().emitters[3], edit.effect().emitters[0]);
        edit.remove_emitter(3).unwrap();
        assert_eq!(edit.effect(), &now);
        while edit.undo() {}
        assert_eq!(edit.effect(), &fireworks);
        let mut single = EffectEdit::new(shipped_effect("snow.ron")).unwrap();
        assert!(single.remove_emitter(0).is_err());
        assert!(single.move_emitter(0, 1).is_err());
    }

    /// Where the expressions read which emitter a particle came from, only the last emitter
    /// may be removed: the others' numbers would change under the expressions.
    #[test]
    fn emitters_keep_their_numbers_where_expressions_read_them() {
        let mut effect = shipped_effect("campfire.ron");
        let first = effect.emitters[0].clone();
        effect.emitters.push(first);
        let line =
            crate::expr::Statement::parse("size = select(size, 0.5, emitter == 1u)").unwrap();
        effect.emitters[0].draw.push(line);
        let mut edit = EffectEdit::new(effect).unwrap();
        let n = edit.effect().emitters.len();
        let e = edit.remove_emitter(0).unwrap_err().to_string();
        assert!(e.contains("`emitter` input"), "{e}");
        assert!(edit.move_emitter(0, 1).is_err());
        edit.remove_emitter(n - 1).unwrap();
    }

    /// A parameter's default set within its bounds; out of them, of another type or an
    /// undeclared name, refused.
    #[test]
    fn parameter_defaults_are_set_within_their_bounds() {
        let mut edit = EffectEdit::new(shipped_effect("campfire.ron")).unwrap();
        // intensity: an f32 in 0..=3
        let name = "intensity".to_string();
        edit.set_parameter(&name, Value::F32(2.5)).unwrap();
        assert_eq!(edit.effect().parameters[&name].default, Value::F32(2.5));
        for bad in [Value::F32(3.5), Value::Bool(true)] {
            let e = edit.set_parameter(&name, bad).unwrap_err().to_string();
            assert!(e.contains(&name), "{e}");
        }
        assert!(edit.set_parameter("no_such", Value::F32(0.0)).is_err());
        assert_eq!(edit.undo_depth(), 1);
    }

    /// A colour's four channels set as one edit, each clamped; one bad number refuses
    /// them all.
    #[test]
    fn numbers_set_together_are_one_edit_or_none() {
        let mut edit = EffectEdit::new(shipped_effect("snow.ron")).unwrap();
        let channels = ["emitters[0].color.mean[0]", "emitters[0].color.mean[1]"];
        let set = edit
            .set_numbers(&[(channels[0], 0.25), (channels[1], 7.0)])
            .unwrap();
        assert_eq!(set, [0.25, 1.0]);
        assert_eq!(edit.effect().emitters[0].color.mean[..2], [0.25, 1.0]);
        assert_eq!(edit.undo_depth(), 1);
        let before = edit.effect().clone();
        let e = (edit.set_numbers(&[(channels[0], 0.5), ("no.such", 1.0)]))
            .unwrap_err()
            .to_string();
        assert!(e.contains("no.such"), "{e}");
        assert_eq!(edit.effect(), &before);
        assert_eq!(edit.undo_depth(), 1);
    }
}
