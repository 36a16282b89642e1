//! Parameters: values the host sets while an effect runs, each with its type (its
//! default's) and range.

use serde::{Deserialize, Serialize};

use crate::expr::{Type, Value};

/// A value the host sets while the effect runs
/// ([`ParticleRenderer::set_parameter`](crate::ParticleRenderer::set_parameter)), read by
/// name in expressions. Its type is its default's; a value set outside `min..=max` (each
/// component of a vector, each bound where given) is refused.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Parameter {
    /// Its value until the host sets one: a number, `true`/`false`, or a constant
    /// expression in quotes (`"vec3(1.0, 0.5, 0.2)"`, `"3u"`).
    pub default: Value,
    /// The least value of each component (none: no bound); a file writes the number.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "bound")]
    pub min: Option<f32>,
    /// The greatest value of each component (none: no bound); a file writes the number.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "bound")]
    pub max: Option<f32>,
}

/// A bound as a file writes it: the number (left out: none).
mod bound {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &Option<f32>, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f32(v.unwrap_or(f32::NAN))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f32>, D::Error> {
        f32::deserialize(d).map(Some)
    }
}

impl Parameter {
    /// A parameter of `default`'s type, unbounded.
    pub fn new(default: impl Into<Value>) -> Self {
        Parameter {
            default: default.into(),
            min: None,
            max: None,
        }
    }

    /// Bounded to `min..=max` (each component).
    pub fn range(self, min: f32, max: f32) -> Self {
        Parameter {
            min: Some(min),
            max: Some(max),
            ..self
        }
    }

    /// What values it takes, in words: `f32 in 0..=4`.
    pub fn allowed(&self) -> String {
        let ty = self.default.ty();
        let lo = self.min.map_or(String::new(), |m| format!("{m}"));
        let hi = self.max.map_or(String::new(), |m| format!("{m}"));
        match (self.min, self.max, ty) {
            (None, None, _) | (_, _, Type::Bool) => format!("a value of type {ty}"),
            _ if ty.is_vector() => format!("a {ty} with each component in {lo}..={hi}"),
            _ => format!("a value of type {ty} in {lo}..={hi}"),
        }
    }

    /// Whether `value` is one it takes: its type, finite, every component in range.
    pub fn admits(&self, value: Value) -> bool {
        if value.ty() != self.default.ty() {
            return false;
        }
        if value.ty() == Type::Bool {
            return true;
        }
        let n = value.ty().components();
        value.components()[..n].iter().all(|&c| {
            c.is_finite()
                && self.min.is_none_or(|m| c >= m as f64)
                && self.max.is_none_or(|m| c <= m as f64)
        })
    }
}
