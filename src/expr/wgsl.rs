//! A [`Program`]'s nodes as WGSL: one `let` per operation, in order, constants written in
//! place, inputs as the text the pass reads them with. The text is the pipeline's key: equal
//! programs generate equal text.

use std::fmt::Write;

use super::ast::{BinaryOp, UnaryOp};
use super::functions::Func;
use super::ir::{NodeId, Op, Program};
use super::types::{Type, Value};

/// The prelude generated code calls (random numbers, noises, the table).
pub(crate) const PRELUDE: &str = include_str!("../../shaders/expr.wgsl");

/// Statements computing `roots`, and the WGSL expression of each root.
pub(crate) struct Generated {
    pub statements: String,
    pub roots: Vec<String>,
}

/// The WGSL function a call of `f` calls: WGSL's own of its name, or the prelude's.
pub(crate) fn called_as(f: Func) -> &'static str {
    match f {
        Func::ValueNoise => "expr_value_noise",
        Func::Noise => "expr_noise",
        Func::CurlNoise => "expr_curl_noise",
        Func::Turbulence => "expr_turbulence",
        f => f.name(),
    }
}

/// WGSL for `roots`: `input(i)` is the WGSL that reads input i; names start with `prefix`
/// (one per block of a function, so blocks do not collide).
pub(crate) fn generate(
    program: &Program,
    roots: &[NodeId],
    input: &dyn Fn(usize) -> String,
    prefix: &str,
) -> Generated {
    let used = program.reachable(roots);
    let mut names: Vec<String> = vec![String::new(); program.nodes().len()];
    let mut statements = String::new();
    for (id, node) in program.nodes().iter().enumerate() {
        if !used[id] {
            continue;
        }
        let arg = |k: usize| names[node.args[k] as usize].clone();
        let text = match &node.op {
            Op::Const(words) => {
                names[id] = literal(Value::from_words(node.ty, *words));
                continue;
            }
            Op::Input(i) => {
                names[id] = input(*i as usize);
                continue;
            }
            Op::Unary(UnaryOp::Neg) => format!("-{}", arg(0)),
            Op::Unary(UnaryOp::Not) => format!("!{}", arg(0)),
            Op::Binary(BinaryOp::Rem) if node.ty.is_float() => {
                let (a, b) = (arg(0), arg(1));
                format!("{a} - {b} * trunc({a} / {b})")
            }
            Op::Binary(op) => format!("{} {} {}", arg(0), op.symbol(), arg(1)),
            Op::Call(Func::Clamp) => format!("min(max({}, {}), {})", arg(0), arg(1), arg(2)),
            Op::Call(f) if componentwise(*f).is_some() => {
                let helper = componentwise(*f).unwrap_or_default();
                let n = node.ty.components();
                let one = |c: Option<char>| {
                    let args: Vec<String> = (0..node.args.len())
                        .map(|k| match c {
                            Some(c) => format!("{}.{c}", arg(k)),
                            None => arg(k),
                        })
                        .collect();
                    format!("{helper}({})", args.join(", "))
                };
                if n == 1 {
                    one(None)
                } else {
                    let parts: Vec<String> = "xyzw".chars().take(n).map(|c| one(Some(c))).collect();
                    format!("{}({})", node.ty.wgsl(), parts.join(", "))
                }
            }
            Op::Call(f) => {
                let name = called_as(*f);
                let args: Vec<String> = (0..node.args.len()).map(arg).collect();
                format!("{name}({})", args.join(", "))
            }
            Op::Construct => {
                let args: Vec<String> = (0..node.args.len()).map(arg).collect();
                format!("{}({})", node.ty.wgsl(), args.join(", "))
            }
            Op::Convert => format!("{}({})", node.ty.wgsl(), arg(0)),
            Op::Swizzle { picks, len } => {
                let letters: String = picks[..*len as usize]
                    .iter()
                    .map(|&i| b"xyzw"[i as usize] as char)
                    .collect();
                format!("{}.{letters}", arg(0))
            }
            Op::Rand { site } => format!("expr_rand({}, {site}u)", arg(0)),
            Op::ParticleRand => format!("expr_particle_rand({}, {})", arg(0), arg(1)),
            Op::Table { row } => {
                let read = format!("expr_table({} + {row}u, {})", arg(0), arg(1));
                match node.ty {
                    Type::F32 => format!("{read}.x"),
                    _ => read,
                }
            }
        };
        let name = format!("{prefix}{id}");
        let _ = writeln!(statements, "let {name}: {} = {text};", node.ty.wgsl());
        names[id] = name;
    }
    let roots = roots.iter().map(|&r| names[r as usize].clone()).collect();
    Generated { statements, roots }
}

/// The WGSL that reads a value of type `ty` from `word`, a `vec4<u32>` holding its words
/// ([`Value::to_words`]): a parameter's uniform slot, a test's input.
pub(crate) fn from_words(word: &str, ty: Type) -> String {
    match ty {
        Type::F32 => format!("bitcast<f32>({word}.x)"),
        Type::Vec2 => format!("bitcast<vec2<f32>>({word}.xy)"),
        Type::Vec3 => format!("bitcast<vec3<f32>>({word}.xyz)"),
        Type::Vec4 => format!("bitcast<vec4<f32>>({word})"),
        Type::I32 => format!("bitcast<i32>({word}.x)"),
        Type::U32 => format!("{word}.x"),
        Type::Bool => format!("({word}.x != 0u)"),
    }
}

/// The prelude's function for `f`, where the language does not use the driver's (it
/// takes and gives f32, and vectors are done component by component).
fn componentwise(f: Func) -> Option<&'static str> {
    match f {
        Func::Atan => Some("expr_atan"),
        Func::Atan2 => Some("expr_atan2"),
        Func::Asin => Some("expr_asin"),
        Func::Acos => Some("expr_acos"),
        _ => None,
    }
}

/// A value as a WGSL expression that is exactly it (parenthesised where negative, so it
/// can stand as any operand).
pub(crate) fn literal(value: Value) -> String {
    fn float(x: f32) -> String {
        // WGSL has no literal for these, and may refuse subnormal ones
        if !x.is_finite() || x.is_subnormal() {
            return format!("bitcast<f32>({}u)", x.to_bits());
        }
        let s = format!("{x:?}f");
        if x.is_sign_negative() {
            format!("({s})")
        } else {
            s
        }
    }
    fn vector(name: &str, c: &[f32]) -> String {
        let list: Vec<String> = c.iter().map(|&x| float(x)).collect();
        format!("{name}({})", list.join(", "))
    }
    match value {
        Value::Bool(b) => b.to_string(),
        Value::I32(i32::MIN) => "bitcast<i32>(2147483648u)".to_string(),
        Value::I32(i) if i < 0 => format!("({i}i)"),
        Value::I32(i) => format!("{i}i"),
        Value::U32(u) => format!("{u}u"),
        Value::F32(x) => float(x),
        Value::Vec2(v) => vector("vec2<f32>", &v.to_array()),
        Value::Vec3(v) => vector("vec3<f32>", &v.to_array()),
        Value::Vec4(v) => vector("vec4<f32>", &v.to_array()),
    }
}
