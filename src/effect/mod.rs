//! Effects: what an effect emits, how its particles move and how they look, written in Rust
//! or read from a RON file (`effects/fountain.ron` documents every field).
//!
//! Every initial attribute is a mean ± variance (uniform in `[mean - variance, mean +
//! variance]`), and every field has a default, so an effect names only what differs:
//!
//! ```
//! use flurry::effect::*;
//!
//! let fountain = EffectDesc {
//!     name: "fountain".into(),
//!     emitters: vec![EmitterDesc {
//!         shape: Shape::Disk { center: [0.0, 0.2, 0.0], radius: 0.15, normal: [0.0, 1.0, 0.0] },
//!         rate: 4000.0,
//!         velocity: Velocity::Linear { mean: [0.0, 7.0, 0.0], variance: [0.6, 0.8, 0.6] },
//!         lifetime: Range::new(1.8, 0.3),
//!         size: Range::new(0.06, 0.02),
//!         color: ColorRange::new([0.55, 0.75, 1.0, 0.7], [0.1, 0.1, 0.0, 0.2]),
//!         ..Default::default()
//!     }],
//!     over_life: OverLife { color_end: [1.0, 1.0, 1.0, 0.0], size_end: 1.5 },
//!     ..Default::default()
//! };
//! assert!(fountain.validate().is_ok());
//! ```

mod annotate;
pub(crate) mod clock;
mod crowd;
#[cfg(feature = "edit")]
mod edit;
mod encode;
mod generated;
pub(crate) mod graph;
mod host_assets;
mod parse;
pub(crate) mod reach;
mod schema;
#[cfg(test)]
mod shipped;
mod sprite_image;
mod validate;

use std::path::Path;

pub(crate) use clock::{SpawnClock, Spawns};
pub(crate) use crowd::STATE_TEXELS;
pub use crowd::{City, Crowd, Gait, WalkerState, MAX_STATES};
#[cfg(feature = "edit")]
pub use edit::{Choice, EffectEdit, TextField};
pub use generated::GeneratedCode;
pub use graph::module::{Function, Module};
pub use graph::{inputs, GraphError, Parameter, MAX_ATTRIBUTE_WORDS, MAX_PARAMETERS};
pub use host_assets::HostAssets;
pub use schema::*;
pub use sprite_image::{Flipbook, FrameTiming, ImageSource, ImageSprite};
pub use validate::FieldRange;

use crate::error::{Error, Invalid, Result};

/// Most emitters an effect may have.
pub const MAX_EMITTERS: usize = crate::types::MAX_EMITTERS;
/// Most massive bodies an effect may have.
pub const MAX_BODIES: usize = crate::types::MAX_BODIES;
/// Most particles an effect with [`SelfGravity`] may have (O(N²) work per step).
pub const MAX_NBODY: u32 = 65_536;
/// Most particles one GPU event (a hit or a death) may spawn.
pub const MAX_EVENT_SPAWN: u32 = 4096;
/// Most extra pieces per span of a [`RenderMode::Ribbon`].
pub const MAX_SUBDIVISIONS: u32 = 16;

/// What reads an effect's module files: given an import as written, its text or why not.
type Reader<'a> = dyn FnMut(&str) -> std::result::Result<String, String> + 'a;

impl EffectDesc {
    /// Whether the visible list is sorted back to front each frame: the effect's `sort`,
    /// else for alpha-blended effects only.
    pub fn sorts(&self) -> bool {
        self.sort.unwrap_or(self.blend == Blend::Alpha)
    }

    /// Parse and validate RON source (an effect that imports module files needs
    /// [`EffectDesc::from_ron_importing`] or [`EffectDesc::from_file`]).
    pub fn from_ron(src: &str) -> Result<Self> {
        Self::parse(src, None, None)
    }

    /// Parse and validate RON source whose `imports` are read through `read` (given each
    /// import as written; it gives the module's text, or why it cannot): an effect built
    /// into a program together with its modules.
    pub fn from_ron_importing(
        src: &str,
        mut read: impl FnMut(&str) -> std::result::Result<String, String>,
    ) -> Result<Self> {
        Self::parse(src, None, Some(&mut read))
    }

    /// Read, parse and validate a RON file, and the module files it imports (relative to
    /// it).
    pub fn from_file(path: &Path) -> Result<Self> {
        let limit = crate::files::MAX_TEXT_FILE;
        let bytes =
            crate::files::read_bounded(path, limit, "an effect file").map_err(|source| {
                Error::Io {
                    path: path.to_path_buf(),
                    source,
                }
            })?;
        // a file that is not text is a bad effect file, not a failure to read one
        let src = String::from_utf8(bytes).map_err(|e| Error::EffectSyntax {
            path: Some(path.to_path_buf()),
            message: format!(
                "not UTF-8 text: invalid byte at offset {}",
                e.utf8_error().valid_up_to()
            ),
        })?;
        // a file's modules lie relative to it
        let folder = path.parent().unwrap_or(Path::new("")).to_path_buf();
        let mut read = |import: &str| read_import(&folder, import);
        Self::parse(&src, Some(path), Some(&mut read))
    }

    /// Parse `src` (from the file at `path`, if any), read its imports through `read` (if
    /// given), and validate it.
    fn parse(src: &str, path: Option<&Path>, read: Option<&mut Reader>) -> Result<Self> {
        // editors on some systems start UTF-8 files with a byte-order mark
        let src = src.strip_prefix('\u{feff}').unwrap_or(src);
        let mut desc = parse::effect(src).map_err(|message| Error::EffectSyntax {
            path: path.map(Path::to_path_buf),
            message,
        })?;
        if let Some(read) = read {
            desc.resolve_imports(read).map_err(|e| match e {
                Error::Import { error, .. } => Error::Import {
                    path: path.map(Path::to_path_buf),
                    place: parse::place_of(src, &error.import),
                    error,
                },
                e => e,
            })?;
        }
        desc.check(path).map_err(|e| match e {
            Error::EffectGraph { path, error, .. } => {
                let place = parse::place_of(src, &error.text);
                Error::EffectGraph { path, place, error }
            }
            e => e,
        })?;
        Ok(desc)
    }

    /// Read the module files of `imports` through `read` (given each import as written;
    /// it gives the file's text or why it cannot): an effect parsed from text, or built in
    /// code, whose stacks call imported functions. [`EffectDesc::from_file`] reads them
    /// relative to the effect's file. A module that cannot be read or parsed is an
    /// [`Error::Import`] naming the import.
    pub fn resolve_imports(
        &mut self,
        mut read: impl FnMut(&str) -> std::result::Result<String, String>,
    ) -> Result<()> {
        let mut modules = Vec::with_capacity(self.imports.len());
        for (k, import) in self.imports.iter().enumerate() {
            let refused = |reason: String| Error::Import {
                path: None,
                place: None,
                error: Box::new(crate::error::ImportError {
                    field: format!("imports[{k}]"),
                    import: import.clone(),
                    reason,
                }),
            };
            let text = read(import).map_err(refused)?;
            let module =
                Module::from_ron(&text).map_err(|e| refused(format!("not a module file: {e}")))?;
            modules.push(module);
        }
        self.imported = modules;
        Ok(())
    }

    /// The effect as pretty RON, which [`EffectDesc::from_ron`] reads back.
    pub fn to_ron(&self) -> String {
        ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::default())
            .unwrap_or_else(|e| format!("// cannot serialise: {e}"))
    }

    /// `Ok` when every field is in range, else every problem at once.
    pub fn validate(&self) -> Result<()> {
        self.check(None)
    }

    fn check(&self, path: Option<&Path>) -> Result<()> {
        self.check_fields(path)?;
        self.compiled(path)?;
        Ok(())
    }

    /// `Ok` when every field is in range (its stacks not compiled), else every problem at
    /// once; a refusal names the file at `path`, if any.
    pub(crate) fn check_fields(&self, path: Option<&Path>) -> Result<()> {
        let problems = self.problems();
        if !problems.is_empty() {
            return Err(Error::EffectInvalid {
                path: path.map(Path::to_path_buf),
                problems,
            });
        }
        Ok(())
    }

    /// Its stacks compiled (the fields' ranges checked before, by the caller); a refusal
    /// names the file at `path`, if any.
    pub(crate) fn compiled(&self, path: Option<&Path>) -> Result<graph::Graph> {
        graph::Graph::compile(self).map_err(|error| Error::EffectGraph {
            path: path.map(Path::to_path_buf),
            place: None,
            error: Box::new(error),
        })
    }

    /// Every out-of-range field, with its path (`emitters[0].lifetime`), value and allowed
    /// range.
    pub fn problems(&self) -> Vec<Invalid> {
        validate::problems(self)
    }

    /// Every number of the effect as it is that validation checks against a range, with the
    /// range: what an editor's sliders span and clamp to (a field of a variant or an
    /// optional section the effect does not have is not among them).
    pub fn field_ranges(&self) -> Vec<FieldRange> {
        validate::field_ranges(self)
    }
}

/// The module file `import` (as an effect's `imports` name it) relative to `folder`, read
/// as [`EffectDesc::from_file`] reads an effect's modules: a regular file of at most
/// 4 MiB of UTF-8 text. For [`EffectDesc::from_ron_importing`] where the text comes from
/// a file of its own (an editor's buffer).
pub fn read_import(folder: &Path, import: &str) -> std::result::Result<String, String> {
    let file = folder.join(import);
    crate::files::read_text(&file, "a module file")
        .map_err(|e| format!("cannot read {}: {e}", file.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two emitters: rockets on a schedule, and what their deaths spawn.
    fn sample() -> EffectDesc {
        let rockets = EmitterDesc {
            rate: 5.0,
            velocity: Velocity::Linear {
                mean: [0.0, 20.0, 0.0],
                variance: [2.0, 2.0, 2.0],
            },
            lifetime: Range::new(1.2, 0.1),
            ..Default::default()
        };
        let sparks = EmitterDesc {
            trigger: Trigger::OnDeath { of: 0, count: 100 },
            velocity: Velocity::Radial {
                speed: Range::new(8.0, 2.0),
            },
            lifetime: Range::new(2.0, 0.5),
            ..Default::default()
        };
        EffectDesc {
            name: "sample".into(),
            emitters: vec![rockets, sparks],
            blend: Blend::Additive,
            ..Default::default()
        }
    }

    #[test]
    fn ron_round_trip() {
        let d = sample();
        let back = EffectDesc::from_ron(&d.to_ron()).expect("round trip");
        assert_eq!(d, back);
    }

    #[test]
    fn a_file_names_only_what_differs_from_the_defaults() {
        let d = EffectDesc::from_ron("(name: \"dot\", emitters: [(rate: 10.0)])").unwrap();
        let expected = EffectDesc {
            name: "dot".into(),
            emitters: vec![EmitterDesc {
                rate: 10.0,
                ..Default::default()
            }],
            ..Default::default()
        };
        assert_eq!(d, expected);
    }

    #[test]
    fn an_effect_without_emitters_is_refused() {
        let fields: Vec<_> = EffectDesc::default()
            .problems()
            .into_iter()
            .map(|p| p.field)
            .collect();
        assert_eq!(fields, ["emitters"]);
    }

    #[test]
    fn rejects_out_of_range_fields() {
        let mut d = sample();
        d.emitters[0].rate = -1.0;
        d.emitters[0].lifetime = Range::new(0.0, 0.0);
        d.emitters[0].size.mean = f32::NAN;
        d.emitters[1].render = Some(RenderMode::Stretched { seconds: -1.0 });
        let p = d.problems();
        let fields: Vec<_> = p.iter().map(|p| p.field.as_str()).collect();
        for field in [
            "emitters[0].rate",
            "emitters[0].lifetime",
            "emitters[0].size.mean",
            "emitters[1].render.Stretched.seconds",
        ] {
            assert!(fields.contains(&field), "{field} not in {fields:?}");
        }
    }

    #[test]
    fn rejects_zero_normals_and_values_past_what_f32_frames_survive() {
        let mut d = sample();
        d.emitters[0].shape = Shape::Galaxy {
            body: 0,
            scale_length: 1.0,
            max_radius: 5.0,
            thickness: 0.1,
            normal: [0.0; 3],
        };
        d.emitters[0].velocity = Velocity::Orbit {
            body: 0,
            normal: [0.0; 3],
            dispersion: 0.0,
        };
        d.bodies = Some(Bodies {
            g: 1.0,
            bodies: vec![BodyDesc {
                pos: [0.0; 3],
                vel: [0.0; 3],
                mass: 1.0,
                softening: 0.1,
            }],
        });
        d.emitters[1].shape = Shape::Point([3e38, 0.0, 0.0]);
        d.emitters[1].velocity = Velocity::Linear {
            mean: [0.0, -3e38, 0.0],
            variance: [0.0, 0.0, 3e38],
        };
        let problems = d.problems();
        let fields: Vec<_> = problems.iter().map(|p| p.field.as_str()).collect();
        for field in [
            "emitters[0].shape.Galaxy.normal",
            "emitters[0].velocity.Orbit.normal",
            "emitters[1].shape.Point[0]",
            "emitters[1].velocity.Linear.mean[1]",
            "emitters[1].velocity.Linear.variance[2]",
        ] {
            assert!(fields.contains(&field), "{field} not in {fields:?}");
        }
        let point = problems
            .iter()
            .find(|p| p.field == "emitters[1].shape.Point[0]")
            .unwrap();
        assert!(point.allowed.contains("1e9"), "{point}");
    }

    #[test]
    fn rejects_a_flock_without_neighbours_or_with_bad_steering() {
        let shipped = EffectDesc::from_ron(include_str!("../../effects/flock.ron")).unwrap();
        assert_eq!(shipped.problems(), []);
        let mut d = shipped.clone();
        d.neighbours = None;
        let problems = d.problems();
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert_eq!(problems[0].field, "flock");
        assert!(
            problems[0].allowed.contains("neighbours"),
            "{}",
            problems[0]
        );
        let mut d = shipped;
        let f = d.flock.as_mut().unwrap();
        f.separation = 2.0; // past the 1.5 m neighbours radius
        f.align = f32::NAN;
        f.roost.radius = 0.0;
        f.speed = Range::new(1.0, 3.0); // down to -2 m/s
        d.render = RenderMode::Mesh {
            mesh: MeshSource::Bird,
            flight: Some(Flight {
                beat: 200.0,
                angle: -0.1,
            }),
        };
        let problems = d.problems();
        let fields: Vec<_> = problems.iter().map(|p| p.field.as_str()).collect();
        for field in [
            "flock.separation",
            "flock.align",
            "flock.roost.radius",
            "flock.speed",
            "render.Mesh.flight.beat",
            "render.Mesh.flight.angle",
        ] {
            assert!(fields.contains(&field), "{field} not in {fields:?}");
        }
        let separation = problems
            .iter()
            .find(|p| p.field == "flock.separation")
            .unwrap();
        assert!(separation.allowed.contains("1.5"), "{separation}");
    }

    #[test]
    fn rejects_bad_event_triggers() {
        let mut d = sample();
        d.emitters[1].trigger = Trigger::OnDeath { of: 1, count: 0 };
        let fields: Vec<_> = d.problems().into_iter().map(|p| p.field).collect();
        assert!(
            fields.contains(&"emitters[1].trigger.OnDeath.of".into()),
            "{fields:?}"
        );
        assert!(
            fields.contains(&"emitters[1].trigger.count".into()),
            "{fields:?}"
        );
        d.emitters[1].trigger = Trigger::OnDeath { of: 0, count: 400 };
        assert!(d.problems().is_empty(), "{:?}", d.problems());
        assert_eq!(d.death_source(), Some(0));
        // two emitters watching different ones: one watched emitter per effect
        d.emitters[0].trigger = Trigger::OnDeath { of: 1, count: 1 };
        let fields: Vec<_> = d.problems().into_iter().map(|p| p.field).collect();
        assert_eq!(fields, ["emitters[1].trigger.OnDeath.of"]);
        // a third event emitter is one too many
        d.emitters[0].trigger = Trigger::Schedule;
        d.emitters.push(d.emitters[1].clone());
        d.emitters.push(d.emitters[1].clone());
        let fields: Vec<_> = d.problems().into_iter().map(|p| p.field).collect();
        assert_eq!(fields, ["emitters[].trigger"]);
    }

    #[test]
    fn counts_out_of_range_name_the_field_and_the_range() {
        for (count, shown) in [
            ("1e30", "count = 1e30"),
            ("4294967296", "count = 4294967296"),
        ] {
            let src = format!("(emitters: [(bursts: [(time: 0.0, count: {count})])])");
            let err = EffectDesc::from_ron(&src).unwrap_err().to_string();
            assert!(
                err.contains(shown) && err.contains("0..=4294967295"),
                "{err}"
            );
        }
        let ok = EffectDesc::from_ron("(emitters: [(bursts: [(time: 0.0, count: 7)])])").unwrap();
        assert_eq!(ok.emitters[0].bursts[0].count, 7);
    }

    #[test]
    fn unknown_field_is_a_syntax_error() {
        let src = sample().to_ron().replacen("name:", "colour: 3, name:", 1);
        let err = EffectDesc::from_ron(&src).unwrap_err().to_string();
        assert!(err.contains("colour"), "{err}");
    }
}
