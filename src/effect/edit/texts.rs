//! The texts of an effect: its emitters' stacks, its named nodes and its functions' bodies,
//! edited whole and checked as the parser and the graph check them.

use super::{EffectDesc, EffectEdit};
use crate::error::{Invalid, Result};

/// A text of an effect an editor edits whole ([`EffectEdit::texts`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextField {
    /// `emitters[0].update` (a stack), `nodes.heat` (a named expression),
    /// `functions.orbit.body` (a function's body) or `attributes.heat` (the value a
    /// particle's own attribute is born with).
    pub path: String,
    /// A stack's statements, one a line; a node's or a body's expression.
    pub text: String,
}

impl EffectEdit {
    /// The texts that may be edited: each emitter's four stacks (`emitters[0].update`: its
    /// lines, one statement a line, empty where it has none), each named node
    /// (`nodes.heat`: its expression), the body of each function the effect declares
    /// (`functions.orbit.body`) and the value each attribute it declares is born with
    /// (`attributes.heat`: a constant expression, `1.0`, `vec3(0.0, 1.0, 0.0)`).
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
        for (name, value) in &self.effect.attributes {
            out.push(TextField {
                path: format!("attributes.{name}"),
                text: value.to_string(),
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
        let expression = ["nodes.", "attributes."]
            .iter()
            .any(|p| field.path.starts_with(p))
            || field.path.ends_with(".body");
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::effect::shipped;

    /// The text at `path` of the effect under `edit`.
    fn text_at(edit: &EffectEdit, path: &str) -> TextField {
        let found = edit.texts().into_iter().find(|t| t.path == path);
        found.unwrap_or_else(|| panic!("no text at {path}"))
    }

    /// A stack edited as text: a good line changes the effect; a line that does not parse,
    /// or names what the effect does not declare, is refused with the reason (checked as it
    /// is typed, committed only when good), and the effect is as it was.
    #[test]
    fn stacks_and_nodes_are_edited_as_text() {
        let campfire = shipped::named("campfire.ron");
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
        let now = text_at(&edit, &update.path);
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
        let spell = EffectEdit::new(shipped::named("spell.ron")).unwrap();
        let body = (spell.texts().into_iter())
            .find(|t| t.path.starts_with("functions.") && t.path.ends_with(".body"))
            .expect("the spell declares a function");
        let mut spell = spell;
        let doubled = format!("({}) * 2.0", body.text);
        spell.set_text(&body.path, &doubled).unwrap();
        let now = text_at(&spell, &body.path);
        assert_eq!(now.text, doubled);
        assert!(spell.set_text(&body.path, "nope(").is_err());
        // the campfire's heat, born at 1.0
        let heat = texts.iter().find(|t| t.path == "attributes.heat").unwrap();
        assert_eq!(heat.text, "1.0");
        edit.set_text("attributes.heat", "0.75").unwrap();
        let born = edit.effect().attributes["heat"];
        assert_eq!(born, crate::expr::Value::F32(0.75));
        let e = edit.check_text("attributes.heat", "vec3(1.0").unwrap_err();
        assert!(e.to_string().contains("heat"), "{e}");
        if let Some(node) = texts.iter().find(|t| t.path.starts_with("nodes.")) {
            edit.set_text(&node.path, "0.5").unwrap();
            let now = text_at(&edit, &node.path);
            assert_eq!(now.text, "0.5");
        }
    }
}
