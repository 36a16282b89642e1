//! Expressions: the small typed language effects compute with.
//!
//! An expression is written as text in an effect file (`"gradient(flame, age / lifetime) *
//! heat"`) or built in Rust with operators (`name("age") / name("lifetime")`); either way it
//! is an [`Expr`], which prints as the text it parses from. Compiled against what its place
//! in an effect can read (the particle's attributes, the effect's parameters and named nodes,
//! time, ...), it becomes one typed form that drives both the WGSL generated into the passes
//! and the CPU evaluator the tests compare them with.
//!
//! # The language
//!
//! ```text
//! expr    := binary
//! binary  := unary (op unary)*     op, loosest first: ||  &&  == != < <= > >=  + -  * / %
//! unary   := "-" unary | "!" unary | postfix
//! postfix := primary ("." swizzle)*          swizzle: 1–4 of x y z w (or r g b a)
//! primary := number | true | false | name | name "(" args ")" | "(" expr ")"
//! number  := 12   12u   12i   1.5   1e-3   1.5f
//! ```
//!
//! Types: `f32`, `vec2`, `vec3`, `vec4` (of f32), `i32`, `u32`, `bool`. A number written
//! without a suffix takes the type its use asks for (`age * 2` multiplies f32s, `count + 1`
//! adds i32s); a whole number divided by one it does not divide is refused rather than
//! truncated (`1 / 2`: write `1.0 / 2`). Arithmetic takes two values of one type, or a float
//! vector and an f32 (applied to every component). Comparisons take two scalars of one type
//! and give a bool; `&&`, `||` and `!` take bools. Integers wrap; an integer divided by zero is
//! itself and its remainder 0; a float's remainder is `x − y·trunc(x / y)`.
//!
//! Functions (an f32 argument of a component-by-component function is spread over the call's
//! vector type: `clamp(color, 0, 1)`): [`functions`] lists them with what each does.

mod ast;
mod check;
mod error;
mod eval;
mod functions;
mod ir;
mod noise;
mod parse;
mod scope;
mod statement;
mod tables;
mod types;
mod wgsl;

#[cfg(test)]
mod gpu_tests;
#[cfg(test)]
mod tests;

use std::fmt;
use std::ops;

pub use ast::{BinaryOp, UnaryOp};
pub use error::{ErrorKind, ExprError};
pub use scope::Scope;
pub use statement::{Action, Statement};
pub use tables::{Curve, Gradient, Interpolation, Key, KeysError};
pub use types::{Type, Value};

pub(crate) use ast::{Kind, Node};
pub(crate) use check::{
    Compiler, Env, Frame, TableKind, UserFunction, SEED_CALL, SEED_PARTICLE, TABLE_BASE,
};
pub(crate) use eval::{evaluate, Components, Context, Precision};
pub(crate) use functions::{callable, Func};
pub(crate) use ir::{NodeId, Op, Program};
#[cfg(test)]
pub(crate) use noise::{curl_octaves, turbulence};
#[cfg(test)]
pub(crate) use wgsl::called_as;
pub(crate) use wgsl::{from_words, generate, PRELUDE};

/// "; did you mean `a` or `b`?" for the names of `known` nearest to `name` (empty if none is
/// near).
pub(crate) fn nearest_names<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> String {
    error::suggestion(&error::nearest(name, known))
}

/// Every function an expression can call: (name and arguments, what it does).
pub fn functions() -> Vec<(&'static str, &'static str)> {
    functions::Func::ALL
        .iter()
        .map(|f| (f.name(), f.doc()))
        .chain(functions::SPECIAL.iter().copied())
        .collect()
}

/// An expression: its text and its parsed form (names not yet resolved, types not yet
/// checked; that happens when the effect it belongs to is compiled).
///
/// Built from text with [`Expr::parse`] (or `"…".parse()`), or in Rust with [`name`],
/// [`call`], numbers and operators:
///
/// ```
/// use flurry::expr::{call, name, Expr};
/// let fade = call("smoothstep", [Expr::from(0.0), 0.2.into(), name("age") / name("lifetime")]);
/// let e = name("color") * (name("heat") + 0.5) * fade;
/// assert_eq!(e.to_string(), "color * (heat + 0.5) * smoothstep(0.0, 0.2, age / lifetime)");
/// assert_eq!(e, e.to_string().parse().unwrap());
/// ```
#[derive(Clone, Debug)]
pub struct Expr {
    text: String,
    root: ast::Node,
}

impl PartialEq for Expr {
    /// The same text (spaces and parentheses as printed).
    fn eq(&self, other: &Expr) -> bool {
        self.root.to_string() == other.root.to_string()
    }
}

impl Expr {
    /// Parse `text`; a refusal names the column inside it and what was expected there.
    pub fn parse(text: &str) -> Result<Expr, ExprError> {
        let root = parse::parse(text)?;
        Ok(Expr {
            text: text.to_string(),
            root,
        })
    }

    /// The text as written (or as printed, for a built one).
    pub fn text(&self) -> &str {
        &self.text
    }

    pub(crate) fn root(&self) -> &ast::Node {
        &self.root
    }

    /// A built tree, printed and read back so that its spans point into its text. A tree
    /// the parser refuses (nested or chained deeper than text may be) is kept as built:
    /// compiling it refuses it, with the depth it goes past.
    fn built(kind: ast::Kind) -> Expr {
        let root = ast::Node::new(kind, 0..0);
        let text = root.to_string();
        Expr::parse(&text).unwrap_or(Expr { text, root })
    }

    fn binary(self, op: BinaryOp, other: Expr) -> Expr {
        Expr::built(ast::Kind::Binary(
            op,
            Box::new(self.root),
            Box::new(other.root),
        ))
    }

    /// `self < other`
    pub fn lt(self, other: impl Into<Expr>) -> Expr {
        self.binary(BinaryOp::Lt, other.into())
    }
    /// `self <= other`
    pub fn le(self, other: impl Into<Expr>) -> Expr {
        self.binary(BinaryOp::Le, other.into())
    }
    /// `self > other`
    pub fn gt(self, other: impl Into<Expr>) -> Expr {
        self.binary(BinaryOp::Gt, other.into())
    }
    /// `self >= other`
    pub fn ge(self, other: impl Into<Expr>) -> Expr {
        self.binary(BinaryOp::Ge, other.into())
    }
    /// `self == other`
    pub fn equals(self, other: impl Into<Expr>) -> Expr {
        self.binary(BinaryOp::Eq, other.into())
    }
    /// `self != other`
    pub fn not_equals(self, other: impl Into<Expr>) -> Expr {
        self.binary(BinaryOp::Ne, other.into())
    }
    /// `self && other`
    pub fn and(self, other: impl Into<Expr>) -> Expr {
        self.binary(BinaryOp::And, other.into())
    }
    /// `self || other`
    pub fn or(self, other: impl Into<Expr>) -> Expr {
        self.binary(BinaryOp::Or, other.into())
    }

    /// Components picked by letter: `.swizzle("xy")`, `.swizzle("a")`.
    pub fn swizzle(self, components: &str) -> Expr {
        Expr::built(ast::Kind::Swizzle {
            value: Box::new(self.root),
            components: components.to_string(),
        })
    }
}

/// An attribute, parameter, named node or input, by name.
pub fn name(name: &str) -> Expr {
    Expr::built(ast::Kind::Name(name.to_string()))
}

/// A function (or constructor, or conversion) called with `args`.
pub fn call(function: &str, args: impl IntoIterator<Item = Expr>) -> Expr {
    Expr::built(ast::Kind::Call {
        name: function.to_string(),
        name_span: 0..0,
        args: args.into_iter().map(|a| a.root).collect(),
    })
}

impl fmt::Display for Expr {
    /// The expression as text that parses back to it.
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}", self.root)
    }
}

impl std::str::FromStr for Expr {
    type Err = ExprError;
    fn from_str(text: &str) -> Result<Expr, ExprError> {
        Expr::parse(text)
    }
}

impl From<f32> for Expr {
    /// A number that takes the type its use asks for (f32 or a float vector's component).
    fn from(x: f32) -> Expr {
        // the f32's shortest text, read as the number written
        let x: f64 = format!("{x:?}").parse().unwrap_or(x as f64);
        Expr::built(ast::Kind::Literal(ast::Literal::Float(x)))
    }
}

impl From<bool> for Expr {
    fn from(b: bool) -> Expr {
        Expr::built(ast::Kind::Literal(ast::Literal::Bool(b)))
    }
}

impl From<Value> for Expr {
    fn from(v: Value) -> Expr {
        Expr::parse(&v.to_string()).unwrap_or_else(|e| unreachable!("{v}: {e}"))
    }
}

macro_rules! operators {
    ($($trait:ident $method:ident $op:ident;)*) => {$(
        impl<T: Into<Expr>> ops::$trait<T> for Expr {
            type Output = Expr;
            fn $method(self, other: T) -> Expr {
                self.binary(BinaryOp::$op, other.into())
            }
        }
        impl ops::$trait<Expr> for f32 {
            type Output = Expr;
            fn $method(self, other: Expr) -> Expr {
                Expr::from(self).binary(BinaryOp::$op, other)
            }
        }
    )*};
}
operators! {
    Add add Add;
    Sub sub Sub;
    Mul mul Mul;
    Div div Div;
    Rem rem Rem;
}

impl ops::Neg for Expr {
    type Output = Expr;
    fn neg(self) -> Expr {
        Expr::built(ast::Kind::Unary(UnaryOp::Neg, Box::new(self.root)))
    }
}

impl ops::Not for Expr {
    type Output = Expr;
    fn not(self) -> Expr {
        Expr::built(ast::Kind::Unary(UnaryOp::Not, Box::new(self.root)))
    }
}

impl serde::Serialize for Expr {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.text)
    }
}

impl<'de> serde::Deserialize<'de> for Expr {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Expr, D::Error> {
        let text = String::deserialize(d)?;
        Expr::parse(&text).map_err(serde::de::Error::custom)
    }
}
