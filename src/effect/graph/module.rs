//! Reusable functions: declared in an effect (`functions`) or in a module file an effect
//! imports (`imports: ["modules/vortex.ron"]`), called from any expression of its stacks
//! and nodes as the built-in functions are. A call is compiled in place: its arguments
//! become the function's parameters, its body reads them and, like the line that calls it,
//! the particle's attributes as the lines before wrote them.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::expr::{ErrorKind, Expr, ExprError, Type};

/// A function: typed parameters and a body, an expression of them.
///
/// ```ron
/// "vortex": (
///     parameters: ["axis: vec3", "center: vec3", "strength: f32"],
///     body: "cross(normalize(axis), position - center) * strength",
/// ),
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Function {
    /// Each parameter as `name: type` (`f32`, `vec2`, `vec3`, `vec4`, `i32`, `u32`,
    /// `bool`), in the order a call gives them.
    #[serde(default)]
    pub parameters: Vec<String>,
    /// What it gives: an expression of its parameters (and of what the calling stack can
    /// read).
    pub body: Expr,
}

/// A module file: functions effects import by the file's path.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Module {
    /// Its functions, by name.
    pub functions: BTreeMap<String, Function>,
}

impl Module {
    /// Parse a module file's RON text.
    pub fn from_ron(src: &str) -> Result<Module, String> {
        let src = src.strip_prefix('\u{feff}').unwrap_or(src);
        ron::from_str(src).map_err(|e| e.to_string())
    }
}

impl Function {
    /// Its parameters as (name, type), or what is wrong with the `index`th and where in
    /// its text.
    pub(crate) fn signature(&self) -> Result<Vec<(String, Type)>, (usize, ExprError)> {
        let mut out: Vec<(String, Type)> = Vec::new();
        for (index, text) in self.parameters.iter().enumerate() {
            let fail = |message: String| {
                let e = ExprError::new(ErrorKind::Parse, text, 0..text.len(), message);
                (index, e)
            };
            let Some((name, ty)) = text.split_once(':') else {
                return Err(fail("expected `name: type`, as `axis: vec3`".into()));
            };
            let (name, ty) = (name.trim(), ty.trim());
            if !super::names::is_name(name) {
                return Err(fail(format!(
                    "`{name}` is not a name (ASCII letters, digits and _, not starting with a \
                     digit)"
                )));
            }
            let Some(ty) = Type::ALL.into_iter().find(|t| t.name() == ty) else {
                let names: Vec<&str> = Type::ALL.iter().map(|t| t.name()).collect();
                return Err(fail(format!(
                    "unknown type `{ty}`: expected one of {}",
                    names.join(", ")
                )));
            };
            if out.iter().any(|(n, _)| n == name) {
                return Err(fail(format!("`{name}` is a parameter twice")));
            }
            out.push((name.to_string(), ty));
        }
        Ok(out)
    }
}
