//! Emitters duplicated, removed and moved, the triggers that name them following.

use super::EffectEdit;
use crate::effect::{EffectDesc, Trigger};
use crate::error::{Invalid, Result};

impl EffectEdit {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::effect::shipped;

    /// Emitters duplicated, moved and removed: the triggers that watch an emitter follow
    /// it; an emitter another one watches stays, and so does the only one.
    #[test]
    fn emitters_are_duplicated_moved_and_removed_with_their_triggers() {
        use crate::effect::Trigger;
        let fireworks = shipped::named("fireworks.ron");
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
        let mut single = EffectEdit::new(shipped::named("snow.ron")).unwrap();
        assert!(single.remove_emitter(0).is_err());
        assert!(single.move_emitter(0, 1).is_err());
    }

    /// Where the expressions read which emitter a particle came from, only the last emitter
    /// may be removed: the others' numbers would change under the expressions.
    #[test]
    fn emitters_keep_their_numbers_where_expressions_read_them() {
        let mut effect = shipped::named("campfire.ron");
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
}
