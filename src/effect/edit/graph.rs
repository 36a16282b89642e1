//! The effect graph's declarations: curves and gradients take new keys, parameters new
//! defaults, and the module files it imports are named anew.

use super::EffectEdit;
use crate::error::{Invalid, Result};
use crate::expr::{Curve, Gradient, Value};

impl EffectEdit {
    /// Import the module files `imports` (paths as an effect file names them), each read
    /// through `read` (given the path as written; it gives the file's text or why it
    /// cannot). Refuses a module that cannot be read or parsed, naming the import, and an
    /// effect whose stacks then call a function no longer there: the effect is unchanged.
    pub fn set_imports(
        &mut self,
        imports: Vec<String>,
        read: impl FnMut(&str) -> std::result::Result<String, String>,
    ) -> Result<()> {
        let mut edited = self.effect.clone();
        edited.imports = imports;
        edited.resolve_imports(read)?;
        self.commit(edited)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::effect::shipped;

    /// A curve's and a gradient's keys replaced: good keys are one edit, keys out of order
    /// are refused naming the key, and an unknown name names the ones there are.
    #[test]
    fn curves_and_gradients_take_new_keys() {
        use crate::expr::Key;
        let mut edit = EffectEdit::new(shipped::named("campfire.ron")).unwrap();
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

    /// A parameter's default set within its bounds; out of them, of another type or an
    /// undeclared name, refused.
    #[test]
    fn parameter_defaults_are_set_within_their_bounds() {
        let mut edit = EffectEdit::new(shipped::named("campfire.ron")).unwrap();
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

    /// Imports named anew: a module read is imported (its functions there to call); one
    /// that cannot be read, one whose names clash with another's, and dropping one whose
    /// function a stack calls are refused, the effect unchanged.
    #[test]
    fn imports_are_named_anew_and_checked() {
        let vortex = shipped::named("vortex.ron");
        let folder = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/effects"));
        let read = |import: &str| crate::effect::read_import(folder, import);
        let mut edit = EffectEdit::new(vortex.clone()).unwrap();
        let imports = vortex.imports.clone();
        assert!(!imports.is_empty());
        // another module besides: its functions are there to call
        let more = [imports.clone(), vec!["modules/looks.ron".to_string()]].concat();
        edit.set_imports(more.clone(), read).unwrap();
        assert_eq!(edit.effect().imports, more);
        let fade = edit.effect().imported[1].functions.contains_key("fade");
        assert!(fade, "looks.ron's fade imported");
        // the same module twice: its names clash, refused
        let twice = [imports.clone(), imports.clone()].concat();
        let e = edit.set_imports(twice, read).unwrap_err().to_string();
        assert!(e.contains("already taken"), "{e}");
        let e = (edit.set_imports(vec!["modules/no_such.ron".into()], read))
            .unwrap_err()
            .to_string();
        assert!(e.contains("modules/no_such.ron"), "{e}");
        // without its module the vortex's stacks call a function it no longer has
        assert!(edit.set_imports(Vec::new(), read).is_err());
        assert_eq!(edit.effect().imports, more);
        assert!(edit.undo());
        assert_eq!(edit.effect(), &vortex);
    }
}
