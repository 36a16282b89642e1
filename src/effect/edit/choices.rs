//! Fields that name one of a few ways (an enum): which ways each may be set to, and the
//! fields a way of its own starts from.

use super::path::at;
use super::{unusable, EffectEdit};
use crate::error::{Invalid, Result};

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

impl EffectEdit {
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::effect::shipped;

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
        let snow = shipped::named("snow.ron");
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
}
