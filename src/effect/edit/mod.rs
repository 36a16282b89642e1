//! An effect edited as an editor edits it (feature `edit`). A number is named by its path
//! and clamped to the range validation allows it ([`EffectDesc::field_ranges`]); a choice is
//! one of its ways; stacks and nodes are text, refused with the parser's or the graph's
//! error; curves and gradients take new keys, parameters new defaults; emitters are
//! duplicated, removed and moved with the triggers that name them. Every edit is validated
//! (refused, the effect unchanged, if it would leave it invalid) and undoable; a gesture of
//! many edits (a drag) can be made one ([`EffectEdit::merge_since`]).

mod choices;
mod emitters;
mod graph;
mod patch;
mod path;
mod ron_tree;
mod texts;

pub use choices::Choice;
pub use texts::TextField;

use super::{EffectDesc, FieldRange};
use crate::error::{Invalid, Result};
use path::set;

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

/// An edit serde could not carry out at `path` (a bug of the schema's paths, not the user's).
fn unusable(path: &str, why: impl std::fmt::Display) -> crate::Error {
    Invalid::new("path", path, format!("a field serde can set ({why})")).into()
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
        let snow = shipped::named("snow.ron");
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

    /// A colour's four channels set as one edit, each clamped; one bad number refuses
    /// them all.
    #[test]
    fn numbers_set_together_are_one_edit_or_none() {
        let mut edit = EffectEdit::new(shipped::named("snow.ron")).unwrap();
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
