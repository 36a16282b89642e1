//! The CPU evaluator of a [`Program`]: what the CPU twin and the tests run, and what folds
//! constants while compiling. Values are held as four f64 components; in [`Precision::F32`]
//! every float operation's result is rounded to f32, as the GPU rounds it, and in
//! [`Precision::F64`] nothing is rounded (the reference that tells an ill-conditioned
//! expression from a wrong one).

use super::ast::{BinaryOp, UnaryOp};
use super::functions::Func;
use super::ir::{Node, NodeId, Op, Program};
use super::noise;
use super::types::{Type, Value};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(
    not(test),
    expect(
        dead_code,
        reason = "the f64 reference is the random-expression test's"
    )
)]
pub(crate) enum Precision {
    F32,
    F64,
}

/// A value as the evaluator holds it.
pub(crate) type Components = [f64; 4];

/// What an evaluation reads besides the nodes: the inputs' values (by input index) and the
/// baked curve and gradient table.
pub(crate) struct Context<'a> {
    pub inputs: &'a [Components],
    pub table: &'a [[f32; 4]],
}

/// Every node of `program`, in order (a node's value at its index).
pub(crate) fn evaluate(program: &Program, ctx: &Context, p: Precision) -> Vec<Components> {
    let mut values: Vec<Components> = Vec::with_capacity(program.nodes().len());
    for node in program.nodes() {
        let args: Vec<(Components, Type)> = node
            .args
            .iter()
            .map(|&a| (values[a as usize], program.ty(a)))
            .collect();
        let v = apply(node, &args, p, Some(ctx));
        values.push(v);
    }
    values
}

/// The value of `node` if every argument is a constant and it reads nothing else.
pub(crate) fn fold(program: &Program, node: &Node, p: Precision) -> Option<Value> {
    if matches!(
        node.op,
        Op::Const(_) | Op::Input(_) | Op::Rand { .. } | Op::ParticleRand | Op::Table { .. }
    ) {
        return None;
    }
    let args: Option<Vec<(Components, Type)>> = node
        .args
        .iter()
        .map(|&a: &NodeId| program.value(a).map(|v| (v.components(), v.ty())))
        .collect();
    let v = apply(node, &args?, p, None);
    Some(Value::from_components(node.ty, v))
}

fn round(p: Precision, x: f64) -> f64 {
    match p {
        Precision::F32 => x as f32 as f64,
        Precision::F64 => x,
    }
}

/// The i-th component of an argument (a scalar spread over a vector's).
fn comp(arg: &(Components, Type), i: usize) -> f64 {
    if arg.1.components() == 1 {
        arg.0[0]
    } else {
        arg.0[i]
    }
}

fn apply(
    node: &Node,
    args: &[(Components, Type)],
    p: Precision,
    ctx: Option<&Context>,
) -> Components {
    let ty = node.ty;
    let n = ty.components();
    let r = |x: f64| if ty.is_float() { round(p, x) } else { x };
    let each = |f: &dyn Fn(usize) -> f64| -> Components {
        let mut out = [0.0; 4];
        for (i, o) in out.iter_mut().enumerate().take(n) {
            *o = r(f(i));
        }
        out
    };
    let a = |i: usize| comp(&args[0], i);
    match &node.op {
        Op::Const(words) => Value::from_words(ty, *words).components(),
        Op::Input(i) => ctx.map_or([0.0; 4], |c| c.inputs[*i as usize]),
        Op::Unary(UnaryOp::Neg) => each(&|i| match ty {
            Type::I32 => (a(i) as i32).wrapping_neg() as f64,
            _ => -a(i),
        }),
        Op::Unary(UnaryOp::Not) => [(a(0) == 0.0) as u8 as f64, 0.0, 0.0, 0.0],
        Op::Binary(op) => binary(*op, args, ty, p),
        Op::Call(f) => call(*f, args, ty, p),
        Op::Construct => {
            let mut out = [0.0; 4];
            if args.len() == 1 && args[0].1.components() == 1 {
                out[..n].fill(args[0].0[0]);
            } else {
                let mut k = 0;
                for (v, t) in args {
                    for &x in &v[..t.components()] {
                        out[k] = x;
                        k += 1;
                    }
                }
            }
            out
        }
        Op::Convert => [convert(args[0].0[0], args[0].1, ty, p), 0.0, 0.0, 0.0],
        Op::Swizzle { picks, len } => {
            let mut out = [0.0; 4];
            for k in 0..*len as usize {
                out[k] = args[0].0[picks[k] as usize];
            }
            out
        }
        Op::Rand { site } => [noise::rand(args[0].0[0] as u32, *site), 0.0, 0.0, 0.0],
        Op::ParticleRand => [
            noise::particle_rand(args[0].0[0] as u32, args[1].0[0] as u32),
            0.0,
            0.0,
            0.0,
        ],
        Op::Table { row } => {
            let table = ctx.map_or(&[][..], |c| c.table);
            let row = (args[0].0[0] as u32).wrapping_add(*row);
            let x = args[1].0[0];
            match p {
                Precision::F32 => noise::table(table, row, x as f32).map(|v| v as f64),
                Precision::F64 => noise::table(table, row, x),
            }
        }
    }
}

fn binary(op: BinaryOp, args: &[(Components, Type)], ty: Type, p: Precision) -> Components {
    use BinaryOp::*;
    let operand = args[0].1;
    let n = ty.components();
    let mut out = [0.0; 4];
    for (i, o) in out.iter_mut().enumerate().take(n) {
        let (x, y) = (comp(&args[0], i), comp(&args[1], i));
        *o = match (op, operand) {
            (Eq, _) => (x == y) as u8 as f64,
            (Ne, _) => (x != y) as u8 as f64,
            (Lt, _) => (x < y) as u8 as f64,
            (Le, _) => (x <= y) as u8 as f64,
            (Gt, _) => (x > y) as u8 as f64,
            (Ge, _) => (x >= y) as u8 as f64,
            (And, _) => (x != 0.0 && y != 0.0) as u8 as f64,
            (Or, _) => (x != 0.0 || y != 0.0) as u8 as f64,
            (_, Type::I32) => {
                let (x, y) = (x as i32, y as i32);
                let degenerate = y == 0 || (x == i32::MIN && y == -1);
                (match op {
                    Add => x.wrapping_add(y),
                    Sub => x.wrapping_sub(y),
                    Mul => x.wrapping_mul(y),
                    Div if degenerate => x,
                    Div => x / y,
                    Rem if degenerate => 0,
                    _ => x % y,
                }) as f64
            }
            (_, Type::U32) => {
                let (x, y) = (x as u32, y as u32);
                (match op {
                    Add => x.wrapping_add(y),
                    Sub => x.wrapping_sub(y),
                    Mul => x.wrapping_mul(y),
                    Div if y == 0 => x,
                    Div => x / y,
                    Rem if y == 0 => 0,
                    _ => x % y,
                }) as f64
            }
            _ => match op {
                Add => round(p, x + y),
                Sub => round(p, x - y),
                Mul => round(p, x * y),
                Div => round(p, x / y),
                // x − y·trunc(x / y), each step rounded as the GPU rounds it
                _ => {
                    let q = round(p, x / y).trunc();
                    round(p, x - round(p, y * q))
                }
            },
        };
    }
    out
}

fn convert(x: f64, from: Type, to: Type, p: Precision) -> f64 {
    match to {
        Type::F32 => round(p, x),
        Type::Bool => (x != 0.0) as u8 as f64,
        Type::I32 => match from {
            // saturating, towards zero (NaN: 0)
            Type::F32 => x as i32 as f64,
            _ => x as i64 as u32 as i32 as f64,
        },
        _ => match from {
            Type::F32 => x as u32 as f64,
            _ => x as i64 as i32 as u32 as f64,
        },
    }
}

fn call(f: Func, args: &[(Components, Type)], ty: Type, p: Precision) -> Components {
    use Func::*;
    let n = ty.components();
    let r = |x: f64| if ty.is_float() { round(p, x) } else { x };
    let a = |i: usize| comp(&args[0], i);
    let b = |i: usize| comp(&args[1], i);
    let c = |i: usize| comp(&args[2], i);
    let vec = |k: usize| -> Vec<f64> { args[k].0[..args[k].1.components()].to_vec() };
    let dot = |x: &[f64], y: &[f64]| -> f64 { x.iter().zip(y).map(|(a, b)| a * b).sum() };
    let mut out = [0.0; 4];
    match f {
        Length => out[0] = r(dot(&vec(0), &vec(0)).sqrt()),
        Distance => {
            let d: Vec<f64> = vec(0)
                .iter()
                .zip(vec(1))
                .map(|(x, y)| round(p, x - y))
                .collect();
            out[0] = r(dot(&d, &d).sqrt());
        }
        Dot => out[0] = r(dot(&vec(0), &vec(1))),
        Cross => {
            let (x, y) = (vec(0), vec(1));
            out[0] = r(x[1] * y[2] - x[2] * y[1]);
            out[1] = r(x[2] * y[0] - x[0] * y[2]);
            out[2] = r(x[0] * y[1] - x[1] * y[0]);
        }
        Normalize => {
            let x = vec(0);
            let len = dot(&x, &x).sqrt();
            for (o, x) in out.iter_mut().zip(&x) {
                *o = r(x / len);
            }
        }
        Reflect => {
            let (d, nn) = (vec(0), vec(1));
            let k = 2.0 * dot(&nn, &d);
            for ((o, d), nn) in out.iter_mut().zip(&d).zip(&nn) {
                *o = r(d - k * nn);
            }
        }
        ValueNoise | Noise | CurlNoise => {
            let q = [a(0), a(1), a(2)];
            let v: [f64; 3] = match p {
                Precision::F32 => {
                    let q = q.map(|x| x as f32);
                    match f {
                        ValueNoise => [noise::value_noise(q) as f64, 0.0, 0.0],
                        Noise => [noise::noise_d(q)[0] as f64, 0.0, 0.0],
                        _ => noise::curl_noise(q).map(|x| x as f64),
                    }
                }
                Precision::F64 => match f {
                    ValueNoise => [noise::value_noise(q), 0.0, 0.0],
                    Noise => [noise::noise_d(q)[0], 0.0, 0.0],
                    _ => noise::curl_noise(q),
                },
            };
            out[..3].copy_from_slice(&v);
        }
        Turbulence => {
            let (q, t) = ([a(0), a(1), a(2)], args[1].0[0]);
            let v: [f64; 3] = match p {
                Precision::F32 => {
                    noise::turbulence(q.map(|x| x as f32), t as f32).map(|x| x as f64)
                }
                Precision::F64 => noise::turbulence(q, t),
            };
            out[..3].copy_from_slice(&v);
        }
        Select => {
            let pick = if args[2].0[0] != 0.0 { 1 } else { 0 };
            out = args[pick].0;
        }
        _ => {
            for (i, o) in out.iter_mut().enumerate().take(n) {
                let b = if args.len() > 1 { b(i) } else { 0.0 };
                let c = if args.len() > 2 { c(i) } else { 0.0 };
                *o = r(map(f, ty, a(i), b, c));
            }
        }
    }
    out
}

/// One component of a function applied component by component.
fn map(f: Func, ty: Type, a: f64, b: f64, c: f64) -> f64 {
    use Func::*;
    let int = ty.is_integer();
    match f {
        Abs if ty == Type::I32 => (a as i32).wrapping_abs() as f64,
        Abs => a.abs(),
        Sign if int => (a as i32).signum() as f64,
        Sign => {
            if a > 0.0 {
                1.0
            } else if a < 0.0 {
                -1.0
            } else {
                0.0
            }
        }
        Floor => a.floor(),
        Ceil => a.ceil(),
        Round => a.round_ties_even(),
        Fract => a - a.floor(),
        Trunc => a.trunc(),
        Sqrt => a.sqrt(),
        InverseSqrt => 1.0 / a.sqrt(),
        Exp => a.exp(),
        Exp2 => a.exp2(),
        Log => a.ln(),
        Log2 => a.log2(),
        Pow => a.powf(b),
        Sin => a.sin(),
        Cos => a.cos(),
        Tan => a.tan(),
        Asin => a.asin(),
        Acos => a.acos(),
        Atan => a.atan(),
        // atan2(y, x), a zero y counted as positive (as expr_atan2 does)
        Atan2 if a == 0.0 => {
            if b < 0.0 {
                std::f64::consts::PI
            } else {
                0.0
            }
        }
        Atan2 => a.atan2(b),
        Sinh => a.sinh(),
        Cosh => a.cosh(),
        Tanh => a.tanh(),
        Radians => a * (std::f64::consts::PI / 180.0),
        Degrees => a * (180.0 / std::f64::consts::PI),
        Min => a.min(b),
        Max => a.max(b),
        Clamp => a.max(b).min(c),
        Saturate => a.clamp(0.0, 1.0),
        Mix => a * (1.0 - c) + b * c,
        Step => (b >= a) as u8 as f64,
        Smoothstep => {
            let t = ((c - a) / (b - a)).clamp(0.0, 1.0);
            t * t * (3.0 - 2.0 * t)
        }
        Fma => a * b + c,
        Length | Distance | Dot | Cross | Normalize | Reflect | Select | ValueNoise | Noise
        | CurlNoise | Turbulence => unreachable!("not component by component"),
    }
}
