//! What an expression may name, and checking and evaluating one against it on the CPU: what
//! an editor shows as one types, and what a host's tools and tests compute with.

use super::check::{Compiler, Env, TableKind, SEED_CALL, SEED_PARTICLE, TABLE_BASE};
use super::error::{ErrorKind, ExprError};
use super::eval::{evaluate, Context, Precision};
use super::tables::{Curve, Gradient};
use super::types::{Type, Value};
use super::Expr;

/// The names an expression may read: inputs of given types, named nodes (expressions other
/// expressions use by name), curves and gradients; and whether random numbers are drawn.
///
/// ```
/// use flurry::expr::{Expr, Scope, Type, Value};
/// let scope = Scope::new()
///     .input("age", Type::F32)
///     .input("lifetime", Type::F32)
///     .node("life", &"age / lifetime".parse().unwrap());
/// let e: Expr = "1 - life * life".parse().unwrap();
/// assert_eq!(e.check(&scope), Ok(Type::F32));
/// let v = e.evaluate(&scope, &[("age", Value::F32(1.0)), ("lifetime", Value::F32(2.0))]);
/// assert_eq!(v, Ok(Value::F32(0.75)));
/// ```
#[derive(Clone, Debug, Default)]
pub struct Scope {
    env: Env,
    curves: Vec<Curve>,
    gradients: Vec<Gradient>,
}

impl Scope {
    /// Nothing named; random numbers not drawn.
    pub fn new() -> Self {
        Scope::default()
    }

    /// An input of type `ty` (its value given when evaluating).
    pub fn input(mut self, name: &str, ty: Type) -> Self {
        self.env.inputs.push((name.to_string(), ty));
        self
    }

    /// A named node: `expr` under `name`, for other expressions to use.
    pub fn node(mut self, name: &str, expr: &Expr) -> Self {
        self.env
            .lets
            .push((name.to_string(), expr.text().to_string()));
        self
    }

    /// A curve, read with `curve(name, x)`.
    pub fn curve(mut self, name: &str, curve: Curve) -> Self {
        self.env.tables.push((name.to_string(), TableKind::Curve));
        self.curves.push(curve);
        self
    }

    /// A gradient, read with `gradient(name, x)`.
    pub fn gradient(mut self, name: &str, gradient: Gradient) -> Self {
        self.env
            .tables
            .push((name.to_string(), TableKind::Gradient));
        self.gradients.push(gradient);
        self
    }

    /// Whether `rand()` and `particle_rand(k)` may be used (in an effect: where particles
    /// are born and step; not where they are drawn).
    pub fn random(mut self, drawn: bool) -> Self {
        self.env.random = drawn;
        self
    }

    /// The baked rows of the curves and gradients, in the order the names were declared.
    fn table(&self) -> Vec<[f32; 4]> {
        let (mut curves, mut gradients) = (self.curves.iter(), self.gradients.iter());
        let mut table = Vec::new();
        for (_, kind) in &self.env.tables {
            let row = match kind {
                TableKind::Curve => curves.next().map(Curve::bake),
                TableKind::Gradient => gradients.next().map(Gradient::bake),
            };
            table.extend(row.into_iter().flatten());
        }
        table
    }
}

impl Expr {
    /// The expression's type where `scope` is what it may name, or why it has none.
    pub fn check(&self, scope: &Scope) -> Result<Type, ExprError> {
        let mut compiler = Compiler::new(&scope.env);
        let root = compiler.compile_parsed(self.root(), self.text(), None)?;
        Ok(compiler.program.ty(root))
    }

    /// The expression's value on the CPU (f32 arithmetic, as the GPU computes it) with
    /// `values` for its inputs; `rand()` and `particle_rand(k)` draw from a stream seeded 0.
    /// An input without a value, or a value of another type, is an error naming it.
    pub fn evaluate(&self, scope: &Scope, values: &[(&str, Value)]) -> Result<Value, ExprError> {
        self.value(scope, values, None)
    }

    /// As [`Expr::evaluate`], the value of type `ty` (a number written without a suffix
    /// takes it; another type is an error saying so).
    pub(crate) fn value(
        &self,
        scope: &Scope,
        values: &[(&str, Value)],
        ty: Option<Type>,
    ) -> Result<Value, ExprError> {
        let mut compiler = Compiler::new(&scope.env);
        let root = compiler.compile_parsed(self.root(), self.text(), ty)?;
        let program = &compiler.program;
        let mut inputs = Vec::new();
        for input in &program.inputs {
            let hidden = [SEED_CALL, SEED_PARTICLE, TABLE_BASE].contains(&input.name.as_str());
            let given = values
                .iter()
                .find(|(n, _)| *n == input.name)
                .map(|(_, v)| *v);
            let value = match given {
                Some(v) if v.ty() == input.ty => v,
                _ if hidden => Value::U32(0),
                found => {
                    let found = found.map_or("none".to_string(), |v| format!("{v} ({})", v.ty()));
                    let message = format!(
                        "the input `{}` needs a value of type {}; given {found}",
                        input.name, input.ty
                    );
                    return Err(ExprError::new(
                        ErrorKind::NotAllowed,
                        self.text(),
                        0..0,
                        message,
                    ));
                }
            };
            inputs.push(value.components());
        }
        let table = scope.table();
        let ctx = Context {
            inputs: &inputs,
            table: &table,
        };
        let all = evaluate(program, &ctx, Precision::F32);
        Ok(Value::from_components(program.ty(root), all[root as usize]))
    }
}

#[cfg(test)]
mod tests {
    use super::super::tables::{Interpolation, Key};
    use super::*;

    #[test]
    fn curves_and_gradients_are_read_by_name() {
        let size = Curve {
            keys: vec![Key(0.0, 0.0), Key(0.5, 2.0), Key(1.0, 0.0)],
            interpolation: Interpolation::Linear,
        };
        let flame = Gradient {
            keys: vec![
                Key(0.0, [1.0, 1.0, 1.0, 1.0]),
                Key(1.0, [1.0, 0.0, 0.0, 0.0]),
            ],
            interpolation: Interpolation::Linear,
        };
        let scope = Scope::new()
            .input("t", Type::F32)
            .curve("size", size)
            .gradient("flame", flame);
        let e: Expr = "gradient(flame, t).g * curve(size, t)".parse().unwrap();
        assert_eq!(e.check(&scope), Ok(Type::F32));
        let v = e.evaluate(&scope, &[("t", Value::F32(0.5))]).unwrap();
        assert_eq!(v, Value::F32(1.0));
    }

    #[test]
    fn a_missing_or_mistyped_value_is_named() {
        let scope = Scope::new().input("heat", Type::F32);
        let e: Expr = "heat * 2".parse().unwrap();
        let err = e.evaluate(&scope, &[]).unwrap_err();
        assert_eq!(
            err.message,
            "the input `heat` needs a value of type f32; given none"
        );
        let err = e.evaluate(&scope, &[("heat", Value::I32(2))]).unwrap_err();
        assert_eq!(
            err.message,
            "the input `heat` needs a value of type f32; given 2i (i32)"
        );
    }

    #[test]
    fn the_builder_and_the_text_compile_alike() {
        use super::super::{call, name};
        let scope = Scope::new()
            .input("age", Type::F32)
            .input("velocity", Type::Vec3);
        let built = call("length", [name("velocity")]) * 0.5 + name("age").gt(1.0).not_equals(true);
        assert!(built.check(&scope).is_err(), "f32 + bool is refused alike");
        let built = call("length", [name("velocity")]) * 0.5 - -name("age");
        let text: Expr = built.to_string().parse().unwrap();
        assert_eq!(built, text);
        let values = [
            ("age", Value::F32(1.0)),
            ("velocity", Value::Vec3(glam::vec3(0.0, 4.0, 0.0))),
        ];
        assert_eq!(built.evaluate(&scope, &values), Ok(Value::F32(3.0)));
        assert_eq!(built.to_string(), "length(velocity) * 0.5 - -age");
    }
}
