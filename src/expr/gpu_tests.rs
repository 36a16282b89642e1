//! The safety net of the language: seeded random well-typed expression trees (depth up to 6,
//! every function and operator) evaluated on the GPU through the generated WGSL and on the
//! CPU by the evaluator, compared value by value.
//!
//! Where the two may honestly differ is where the expression's value rests on the last bits
//! of its operands: a difference of nearly equal numbers, a sine of a large angle, a
//! comparison of nearly equal values. Each (tree, input) pair is first checked on the CPU:
//! evaluated in f32 and in f64, and in f64 with every float input moved by a few f32 ulps;
//! where those disagree by more than 1e-6 relative (or an integer or bool changes), the pair
//! is ill-conditioned and counted, not compared. Every other pair must agree within 1e-5
//! relative, or 4 ulp of the operands' scale near zero; the ill-conditioned share is
//! bounded, so the check cannot hollow the test out.

use wgpu::util::DeviceExt;

use super::ast::{BinaryOp, Kind, Literal, Node, UnaryOp};
use super::check::{Compiler, Env, TableKind, SEED_CALL, SEED_PARTICLE, TABLE_BASE};
use super::eval::{evaluate, Components, Context, Precision};
use super::functions::{Func, Shape};
use super::ir::{NodeId, Op, Program};
use super::noise::{pcg_hash, TABLE_SAMPLES, TABLE_STRIDE};
use super::types::Type;
use super::wgsl::{generate, PRELUDE};

use crate::tests::rng::Rng;

const INPUTS: [(&str, Type); 10] = [
    ("a", Type::F32),
    ("b", Type::F32),
    ("c", Type::F32),
    ("uv", Type::Vec2),
    ("p", Type::Vec3),
    ("q", Type::Vec3),
    ("rgba", Type::Vec4),
    ("n", Type::I32),
    ("k", Type::U32),
    ("flag", Type::Bool),
];

fn env() -> Env {
    Env {
        inputs: INPUTS.iter().map(|&(n, t)| (n.to_string(), t)).collect(),
        lets: Vec::new(),
        tables: vec![
            ("ramp".into(), TableKind::Curve),
            ("steps".into(), TableKind::Gradient),
        ],
        random: true,
        functions: Vec::new(),
        // a space whose origin and axes are inputs: `space_point(v)`, `space_vector(v)`
        frames: vec![super::check::Frame {
            name: "effect",
            origin: "p".into(),
            axes: ["q".into(), "p".into(), "q".into()],
            refusal: None,
        }],
    }
}

fn node(kind: Kind) -> Node {
    Node::new(kind, 0..0)
}

fn call(name: &str, args: Vec<Node>) -> Node {
    node(Kind::Call {
        name: name.into(),
        name_span: 0..0,
        args,
    })
}

fn bin(op: BinaryOp, a: Node, b: Node) -> Node {
    node(Kind::Binary(op, Box::new(a), Box::new(b)))
}

fn float(x: f64) -> Node {
    node(Kind::Literal(Literal::Float(x)))
}

/// Random well-typed trees.
struct Trees {
    rng: Rng,
}

impl Trees {
    fn literal(&mut self, ty: Type) -> Node {
        let r = &mut self.rng;
        match ty {
            Type::Bool => node(Kind::Literal(Literal::Bool(r.chance(0.5)))),
            Type::I32 => node(Kind::Literal(Literal::I32(r.below(41) as i32 - 20))),
            Type::U32 => node(Kind::Literal(Literal::U32(r.below(100) as u32))),
            Type::F32 => float(((r.unit() * 8.0 - 4.0) * 64.0).round() / 64.0),
            t => {
                let n = t.components();
                let args = (0..n).map(|_| self.literal(Type::F32)).collect();
                call(t.name(), args)
            }
        }
    }

    fn leaf(&mut self, ty: Type) -> Node {
        if self.rng.chance(0.25) {
            return self.literal(ty);
        }
        let names: Vec<&str> = INPUTS
            .iter()
            .filter(|(_, t)| *t == ty)
            .map(|(n, _)| *n)
            .collect();
        if names.is_empty() {
            return self.literal(ty);
        }
        node(Kind::Name(names[self.rng.below(names.len())].into()))
    }

    /// A tree of type `ty` at most `depth` deep.
    fn tree(&mut self, ty: Type, depth: usize) -> Node {
        if depth == 0 || self.rng.chance(0.12) {
            return self.leaf(ty);
        }
        let d = depth - 1;
        match ty {
            Type::Bool => self.boolean(d),
            Type::I32 | Type::U32 => self.integer(ty, d),
            _ => self.float(ty, d),
        }
    }

    fn boolean(&mut self, d: usize) -> Node {
        match self.rng.below(5) {
            0 => {
                let ops = [
                    BinaryOp::Lt,
                    BinaryOp::Le,
                    BinaryOp::Gt,
                    BinaryOp::Ge,
                    BinaryOp::Eq,
                    BinaryOp::Ne,
                ];
                let op = ops[self.rng.below(ops.len())];
                let ty = [Type::F32, Type::I32, Type::U32][self.rng.below(3)];
                bin(op, self.tree(ty, d), self.tree(ty, d))
            }
            1 => bin(
                BinaryOp::And,
                self.tree(Type::Bool, d),
                self.tree(Type::Bool, d),
            ),
            2 => bin(
                BinaryOp::Or,
                self.tree(Type::Bool, d),
                self.tree(Type::Bool, d),
            ),
            3 => node(Kind::Unary(
                UnaryOp::Not,
                Box::new(self.tree(Type::Bool, d)),
            )),
            _ => {
                let from = [Type::I32, Type::U32][self.rng.below(2)];
                call("bool", vec![self.tree(from, d)])
            }
        }
    }

    fn integer(&mut self, ty: Type, d: usize) -> Node {
        let signed = ty == Type::I32;
        match self.rng.below(9) {
            0..=2 => {
                let ops = &BinaryOp::ALL[..5];
                bin(
                    ops[self.rng.below(ops.len())],
                    self.tree(ty, d),
                    self.tree(ty, d),
                )
            }
            3 if signed => node(Kind::Unary(UnaryOp::Neg, Box::new(self.tree(ty, d)))),
            4 => {
                let f = ["abs", "min", "max", "clamp", "sign"]
                    [self.rng.below(if signed { 5 } else { 4 })];
                let n = match f {
                    "abs" | "sign" => 1,
                    "clamp" => 3,
                    _ => 2,
                };
                call(f, (0..n).map(|_| self.tree(ty, d)).collect())
            }
            5 => call(
                "select",
                vec![self.tree(ty, d), self.tree(ty, d), self.tree(Type::Bool, d)],
            ),
            6 => {
                // from a float of a modest size (saturation is tested apart)
                let x = self.tree(Type::F32, d);
                let x = call("clamp", vec![x, float(-1e6), float(1e6)]);
                let x = if signed { x } else { call("abs", vec![x]) };
                call(ty.name(), vec![bin(BinaryOp::Mul, x, float(8.0))])
            }
            7 => {
                let other = if signed { Type::U32 } else { Type::I32 };
                call(ty.name(), vec![self.tree(other, d)])
            }
            _ => call(ty.name(), vec![self.tree(Type::Bool, d)]),
        }
    }

    fn float(&mut self, ty: Type, d: usize) -> Node {
        let vector = ty.is_vector();
        let choice = self.rng.below(16);
        match choice {
            0..=3 => {
                let ops = &BinaryOp::ALL[..5];
                let op = ops[self.rng.below(ops.len())];
                // a vector with an f32 on either side now and then
                let (ta, tb) = match (vector, self.rng.below(3)) {
                    (true, 1) => (ty, Type::F32),
                    (true, 2) => (Type::F32, ty),
                    _ => (ty, ty),
                };
                let b = self.tree(tb, d);
                let b = if matches!(op, BinaryOp::Div | BinaryOp::Rem) {
                    // away from zero
                    bin(BinaryOp::Add, call("abs", vec![b]), float(0.5))
                } else {
                    b
                };
                bin(op, self.tree(ta, d), b)
            }
            4 => node(Kind::Unary(UnaryOp::Neg, Box::new(self.tree(ty, d)))),
            5..=8 => self.map(ty, d),
            9 => call(
                "select",
                vec![self.tree(ty, d), self.tree(ty, d), self.tree(Type::Bool, d)],
            ),
            10 if vector => self.construct(ty, d),
            11 if vector => {
                let from = [Type::Vec2, Type::Vec3, Type::Vec4][self.rng.below(3)];
                let letters = if self.rng.chance(0.5) { "xyzw" } else { "rgba" };
                let n = from.components();
                let picks: String = (0..ty.components())
                    .map(|_| letters.as_bytes()[self.rng.below(n)] as char)
                    .collect();
                node(Kind::Swizzle {
                    value: Box::new(self.tree(from, d)),
                    components: picks,
                })
            }
            12 if ty == Type::Vec3 => match self.rng.below(6) {
                3 => call(
                    "turbulence",
                    vec![self.tree(ty, d), self.tree(Type::F32, d)],
                ),
                0 => call("cross", vec![self.tree(ty, d), self.tree(ty, d)]),
                1 => call("curl_noise", vec![self.tree(ty, d)]),
                2 => call(
                    ["effect_point", "effect_vector"][self.rng.below(2)],
                    vec![self.tree(ty, d)],
                ),
                _ => call("normalize", vec![self.tree(ty, d)]),
            },
            12 if vector => call(
                "reflect",
                vec![self.tree(ty, d), call("normalize", vec![self.tree(ty, d)])],
            ),
            13 if ty == Type::Vec4 => call(
                "gradient",
                vec![node(Kind::Name("steps".into())), self.tree(Type::F32, d)],
            ),
            10..=13 if !vector => {
                // f32 from elsewhere: a reduction, a noise, a component, a table, a conversion
                match self.rng.below(9) {
                    0 => {
                        let v = [Type::Vec2, Type::Vec3, Type::Vec4][self.rng.below(3)];
                        let f = ["length", "distance", "dot"][self.rng.below(3)];
                        let n = if f == "length" { 1 } else { 2 };
                        call(f, (0..n).map(|_| self.tree(v, d)).collect())
                    }
                    1 => call(
                        ["noise", "value_noise"][self.rng.below(2)],
                        vec![self.tree(Type::Vec3, d)],
                    ),
                    2 => call(
                        "curve",
                        vec![node(Kind::Name("ramp".into())), self.tree(Type::F32, d)],
                    ),
                    3 => call("rand", vec![]),
                    4 => call("particle_rand", vec![self.tree(Type::U32, d)]),
                    5 => {
                        let from = [Type::I32, Type::U32, Type::Bool][self.rng.below(3)];
                        call("f32", vec![self.tree(from, d)])
                    }
                    6 => {
                        let v = [Type::Vec2, Type::Vec3, Type::Vec4][self.rng.below(3)];
                        let c = ["x", "y", "r", "g"][self.rng.below(4)];
                        node(Kind::Swizzle {
                            value: Box::new(self.tree(v, d)),
                            components: c.into(),
                        })
                    }
                    _ => self.map(ty, d),
                }
            }
            _ => self.map(ty, d),
        }
    }

    fn construct(&mut self, ty: Type, d: usize) -> Node {
        let n = ty.components();
        if self.rng.chance(0.2) {
            return call(ty.name(), vec![self.tree(Type::F32, d)]);
        }
        let mut args = Vec::new();
        let mut left = n;
        while left > 0 {
            let take = 1 + self.rng.below(left.min(3));
            let take = if take == n { 1 } else { take };
            args.push(self.tree(Type::float_of(take).unwrap_or(Type::F32), d));
            left -= take;
        }
        call(ty.name(), args)
    }

    /// A component-by-component function, its arguments kept where it is defined.
    fn map(&mut self, ty: Type, d: usize) -> Node {
        let maps: Vec<Func> = Func::ALL
            .iter()
            .copied()
            .filter(|f| matches!(f.shape(), Shape::Map { .. }))
            .collect();
        let f = maps[self.rng.below(maps.len())];
        let mut x = || self.tree(ty, d);
        let a = x();
        let within = |x: Node, lo: f64, hi: f64| call("clamp", vec![x, float(lo), float(hi)]);
        let positive = |x: Node, floor: f64| bin(BinaryOp::Add, call("abs", vec![x]), float(floor));
        let args = match f {
            Func::Sqrt => vec![call("abs", vec![a])],
            Func::InverseSqrt | Func::Log | Func::Log2 => vec![positive(a, 0.25)],
            Func::Exp | Func::Exp2 => vec![within(a, -8.0, 8.0)],
            Func::Sinh | Func::Cosh => vec![within(a, -4.0, 4.0)],
            Func::Tan => vec![within(a, -1.3, 1.3)],
            Func::Asin | Func::Acos => vec![within(a, -0.95, 0.95)],
            Func::Pow => vec![positive(a, 0.25), within(x(), -3.0, 3.0)],
            Func::Smoothstep => {
                let lo = x();
                let hi = bin(BinaryOp::Add, lo.clone(), positive(x(), 0.25));
                vec![lo, hi, a]
            }
            f => {
                let Shape::Map { arity, .. } = f.shape() else {
                    unreachable!()
                };
                let mut args = vec![a];
                for _ in 1..arity {
                    // now and then an f32 spread over a vector call
                    let t = if ty.is_vector() && self.rng.chance(0.3) {
                        Type::F32
                    } else {
                        ty
                    };
                    args.push(self.tree(t, d));
                }
                args
            }
        };
        call(f.name(), args)
    }
}

const INVOCATIONS: usize = 64;
const TREES: usize = 1200;
const CHUNK: usize = 60;

/// Every float input moved by a few f32 ulps, one way or the other.
fn nudge(values: &[Components], types: &[Type], rng: &mut Rng) -> Vec<Components> {
    values
        .iter()
        .zip(types)
        .map(|(v, t)| {
            if t.is_float() {
                v.map(|x| x * (1.0 + (rng.unit() * 2.0 - 1.0) * 6e-7))
            } else {
                *v
            }
        })
        .collect()
}

/// Whether f32 `g` agrees with `c`: within 1e-5 relative, or within 4 ulp of `scale`.
fn agrees(g: f64, c: f64, scale: f64) -> bool {
    if g.is_nan() && c.is_nan() || g == c {
        return true;
    }
    let ulp = (scale.abs().max(c.abs()) as f32).max(f32::MIN_POSITIVE);
    let ulp = (f32::from_bits(ulp.to_bits() + 1) - ulp) as f64;
    (g - c).abs() <= 1e-5 * c.abs() || (g - c).abs() <= 4.0 * ulp
}

/// The largest magnitude among a node's float operands, node by node (the scale its
/// rounding happens at).
fn scales(program: &Program, values: &[Components]) -> Vec<f64> {
    let mut out = vec![0.0f64; values.len()];
    for (i, node) in program.nodes().iter().enumerate() {
        let own = values[i]
            .iter()
            .take(node.ty.components())
            .fold(0.0f64, |m, x| m.max(x.abs()));
        let args = node
            .args
            .iter()
            .fold(0.0f64, |m, &a| m.max(out[a as usize]));
        out[i] = if node.ty.is_float() {
            own.max(args)
        } else {
            0.0
        };
    }
    out
}

#[test]
fn random_expressions_agree_on_gpu_and_cpu() {
    let gpu = crate::tests::gpu();
    let env = env();
    let mut trees = Trees {
        rng: Rng(0x5eed_f100_77aa_0001),
    };
    let mut rng = Rng(0x1234_5678_9abc_def1);

    // the inputs of each invocation, and a table of two rows: a ramp and steps
    let types: Vec<Type> = INPUTS.iter().map(|&(_, t)| t).collect();
    let mut inputs: Vec<Vec<Components>> = Vec::new();
    for inv in 0..INVOCATIONS {
        let mut row: Vec<Components> = types
            .iter()
            .map(|t| match t {
                // small numbers, and now and then the extremes (where wrapping shows)
                Type::I32 => {
                    let extremes = [i32::MAX as f64, i32::MIN as f64];
                    let x = match inv % 8 {
                        6 | 7 => extremes[inv % 2],
                        _ => rng.below(41) as f64 - 20.0,
                    };
                    [x, 0.0, 0.0, 0.0]
                }
                Type::U32 => {
                    let x = match inv % 8 {
                        7 => u32::MAX as f64,
                        _ => rng.below(100) as f64,
                    };
                    [x, 0.0, 0.0, 0.0]
                }
                Type::Bool => [(rng.chance(0.5)) as u8 as f64, 0.0, 0.0, 0.0],
                t => {
                    let mut c = [0.0; 4];
                    for x in c.iter_mut().take(t.components()) {
                        *x = (rng.unit() * 8.0 - 4.0) as f32 as f64;
                    }
                    c
                }
            })
            .collect();
        // the hidden inputs: the seeds and the table's first row
        row.push([pcg_hash(inv as u32 * 2 + 1) as f64, 0.0, 0.0, 0.0]);
        row.push([pcg_hash(inv as u32 * 2 + 2) as f64, 0.0, 0.0, 0.0]);
        row.push([0.0; 4]);
        inputs.push(row);
    }
    let mut table = vec![[0.0f32; 4]; 2 * TABLE_STRIDE as usize];
    table[0] = [-2.0, 0.25, 0.0, 0.0];
    table[TABLE_STRIDE as usize] = [-1.0, 0.5, 1.0, 0.0];
    for i in 0..TABLE_SAMPLES as usize {
        table[1 + i] = [((i as f32) * 0.37).sin(), 0.0, 0.0, 0.0];
        table[TABLE_STRIDE as usize + 1 + i] =
            std::array::from_fn(|c| rng.unit() as f32 * (c + 1) as f32);
    }

    let hidden = [SEED_CALL, SEED_PARTICLE, TABLE_BASE];
    let all_names: Vec<&str> = INPUTS.iter().map(|(n, _)| *n).chain(hidden).collect();
    let input_types: Vec<Type> = types.iter().copied().chain([Type::U32; 3]).collect();

    let (mut compared, mut ill, mut trees_compared) = (0usize, 0usize, 0usize);
    // per tree: on how many inputs it was compared
    let mut per_tree = vec![0usize; TREES];
    let mut used_ops = std::collections::HashSet::new();
    let mut failures = Vec::new();
    let mut bad = 0usize;
    let mut refused = 0usize;
    for chunk in 0..TREES / CHUNK {
        let mut compiler = Compiler::new(&env);
        let mut roots: Vec<(NodeId, String)> = Vec::new();
        while roots.len() < CHUNK {
            let ty = Type::ALL[trees.rng.below(Type::ALL.len())];
            let depth = 1 + trees.rng.below(6);
            let text = trees.tree(ty, depth).to_string();
            match compiler.compile(&text, None) {
                Ok(root) => roots.push((root, text)),
                // a constant part that folds to no finite number or wraps is refused where
                // written (the checker's rule): another tree is drawn
                Err(e) if e.kind == super::error::ErrorKind::Value => refused += 1,
                Err(e) => panic!("generated `{text}` is refused: {e}"),
            }
        }
        let program = &compiler.program;
        for node in program.nodes() {
            used_ops.insert(match &node.op {
                Op::Call(f) => format!("{f:?}"),
                Op::Binary(op) => format!("{op:?}"),
                Op::Unary(op) => format!("{op:?}"),
                Op::Convert => format!("Convert to {}", node.ty),
                op => format!("{op:?}")
                    .split([' ', '(', '{'])
                    .next()
                    .unwrap_or("")
                    .to_string(),
            });
        }
        // each program input is one of the declared inputs, by name
        let slot: Vec<usize> = program
            .inputs
            .iter()
            .map(|i| {
                all_names
                    .iter()
                    .position(|n| *n == i.name)
                    .expect("declared")
            })
            .collect();
        let read = |i: usize| {
            let s = slot[i];
            super::wgsl::from_words(&format!("inputs[base + {s}u]"), input_types[s])
        };
        let ids: Vec<NodeId> = roots.iter().map(|(r, _)| *r).collect();
        let generated = generate(program, &ids, &read, "e");
        let mut body = String::new();
        for (t, (expr, (root, _))) in generated.roots.iter().zip(&roots).enumerate() {
            let words = match program.ty(*root) {
                Type::F32 => format!("vec4<u32>(bitcast<u32>({expr}), 0u, 0u, 0u)"),
                Type::Vec2 => format!("vec4<u32>(bitcast<vec2<u32>>({expr}), 0u, 0u)"),
                Type::Vec3 => format!("vec4<u32>(bitcast<vec3<u32>>({expr}), 0u)"),
                Type::Vec4 => format!("bitcast<vec4<u32>>({expr})"),
                Type::I32 => format!("vec4<u32>(bitcast<u32>({expr}), 0u, 0u, 0u)"),
                Type::U32 => format!("vec4<u32>({expr}, 0u, 0u, 0u)"),
                Type::Bool => format!("vec4<u32>(select(0u, 1u, {expr}), 0u, 0u, 0u)"),
            };
            body += &format!("    out[k * {CHUNK}u + {t}u] = {words};\n");
        }
        let source = format!(
            "{}\n{PRELUDE}\n
@group(0) @binding(0) var<storage, read> inputs: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read> table: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> out: array<vec4<u32>>;
fn expr_table_texel(i: u32) -> vec4<f32> {{ return table[i]; }}
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {{
    let k = id.x;
    let base = k * {}u;
    // (the table bound whether or not this chunk's trees read it)
    _ = expr_table_texel(0u);
{}{body}}}
",
            crate::shaders::COMMON,
            all_names.len(),
            generated.statements,
        );
        let module = naga::front::wgsl::parse_str(&source)
            .unwrap_or_else(|e| panic!("chunk {chunk}: {}", e.emit_to_string(&source)));
        naga::valid::Validator::new(naga::valid::ValidationFlags::all(), Default::default())
            .validate(&module)
            .unwrap_or_else(|e| panic!("chunk {chunk}: {}", e.emit_to_string(&source)));

        let gpu_out = run(&gpu, &source, &inputs, &table, input_types.len());
        for (inv, row) in inputs.iter().enumerate() {
            let values: Vec<Components> = slot.iter().map(|&s| row[s]).collect();
            let ctx = |v: &[Components]| {
                evaluate(
                    program,
                    &Context {
                        inputs: v,
                        table: &table,
                    },
                    Precision::F64,
                )
            };
            let f32s = evaluate(
                program,
                &Context {
                    inputs: &values,
                    table: &table,
                },
                Precision::F32,
            );
            let f64s = ctx(&values);
            let kinds: Vec<Type> = program.inputs.iter().map(|i| i.ty).collect();
            let nudged: Vec<Vec<Components>> = (0..2)
                .map(|_| ctx(&nudge(&values, &kinds, &mut rng)))
                .collect();
            let scale = scales(program, &f32s);
            for (t, (root, text)) in roots.iter().enumerate() {
                let r = *root as usize;
                let ty = program.ty(*root);
                let n = ty.components();
                let well = (0..n).all(|c| {
                    let (x32, x64) = (f32s[r][c], f64s[r][c]);
                    if !x64.is_finite() || !x32.is_finite() {
                        return false;
                    }
                    let close = |y: f64| {
                        if ty.is_float() {
                            (y - x64).abs() <= 1e-6 * x64.abs().max(scale[r] * 1e-2)
                        } else {
                            y == x64
                        }
                    };
                    close(x32) && nudged.iter().all(|v| close(v[r][c]))
                });
                if !well {
                    ill += 1;
                    continue;
                }
                compared += 1;
                per_tree[chunk * CHUNK + t] += 1;
                let words = gpu_out[inv * CHUNK + t];
                for c in 0..n {
                    let g = match ty {
                        Type::I32 => words[c] as i32 as f64,
                        Type::U32 | Type::Bool => words[c] as f64,
                        _ => f32::from_bits(words[c]) as f64,
                    };
                    let cpu = f32s[r][c];
                    let ok = if ty.is_float() {
                        agrees(g, cpu, scale[r])
                    } else {
                        g == cpu
                    };
                    if !ok {
                        bad += 1;
                    }
                    if !ok
                        && failures.len() < 40
                        && !failures
                            .iter()
                            .any(|f: &String| f.starts_with(&format!("`{text}`")))
                    {
                        failures.push(format!("`{text}` ({ty}) at invocation {inv}, component {c}: GPU {g:e}, CPU {cpu:e} (f64 {:e}, scale {:e})", f64s[r][c], scale[r]));
                    }
                }
            }
        }
        trees_compared += CHUNK;
    }
    assert!(
        failures.is_empty(),
        "{bad} disagreements, in these trees (and more):\n{}",
        failures.join("\n")
    );
    let total = compared + ill;
    eprintln!("{trees_compared} trees, {compared} of {total} (tree, input) pairs compared, {ill} ill-conditioned");
    assert!(trees_compared >= 1000);
    eprintln!("{refused} trees drawn again: a constant part folded to no finite number");
    assert!(
        refused * 10 <= TREES,
        "{refused} trees refused for their constants"
    );
    let never = per_tree.iter().filter(|&&n| n == 0).count();
    eprintln!("{never} trees never compared");
    assert!(
        never * 20 <= TREES,
        "{never} of {TREES} trees ill-conditioned on every input"
    );
    assert!(
        ill * 5 <= total,
        "{ill} of {total} pairs ill-conditioned: the trees test rounding, not the compiler"
    );
    for f in Func::ALL {
        assert!(
            used_ops.contains(&format!("{f:?}")),
            "{f:?} never generated"
        );
    }
    for op in BinaryOp::ALL {
        assert!(
            used_ops.contains(&format!("{op:?}")),
            "{op:?} never generated"
        );
    }
    for what in [
        "Neg",
        "Not",
        "Construct",
        "Swizzle",
        "Rand",
        "ParticleRand",
        "Table",
        "Convert to f32",
        "Convert to i32",
        "Convert to u32",
        "Convert to bool",
    ] {
        assert!(
            used_ops.contains(what),
            "{what} never generated: {used_ops:?}"
        );
    }
}

/// Run the kernel over every invocation's inputs; each tree's result as four words.
fn run(
    gpu: &crate::GpuContext,
    source: &str,
    inputs: &[Vec<Components>],
    table: &[[f32; 4]],
    per_invocation: usize,
) -> Vec<[u32; 4]> {
    let device = &gpu.device;
    let types: Vec<Type> = INPUTS
        .iter()
        .map(|&(_, t)| t)
        .chain([Type::U32; 3])
        .collect();
    let mut words: Vec<[u32; 4]> = Vec::new();
    for row in inputs {
        assert_eq!(row.len(), per_invocation);
        for (v, t) in row.iter().zip(&types) {
            words.push(super::types::Value::from_components(*t, *v).to_words());
        }
    }
    let storage = |label, contents: &[u8], usage| {
        device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some(label),
            contents,
            usage,
        })
    };
    let read_only = wgpu::BufferUsages::STORAGE;
    let input_buffer = storage("expr inputs", bytemuck::cast_slice(&words), read_only);
    let table_buffer = storage("expr table", bytemuck::cast_slice(table), read_only);
    let size = (INVOCATIONS * CHUNK * 16) as u64;
    let out = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("expr out"),
        size,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("expr test"),
        source: wgpu::ShaderSource::Wgsl(source.into()),
    });
    let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some("expr test"),
        layout: None,
        module: &module,
        entry_point: Some("main"),
        compilation_options: Default::default(),
        cache: None,
    });
    let bind = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: None,
        layout: &pipeline.get_bind_group_layout(0),
        entries: &[
            wgpu::BindGroupEntry {
                binding: 0,
                resource: input_buffer.as_entire_binding(),
            },
            wgpu::BindGroupEntry {
                binding: 1,
                resource: table_buffer.as_entire_binding(),
            },
            wgpu::BindGroupEntry {
                binding: 2,
                resource: out.as_entire_binding(),
            },
        ],
    });
    let mut encoder = device.create_command_encoder(&Default::default());
    {
        let mut pass = encoder.begin_compute_pass(&Default::default());
        pass.set_pipeline(&pipeline);
        pass.set_bind_group(0, &bind, &[]);
        pass.dispatch_workgroups(1, 1, 1);
    }
    gpu.queue.submit([encoder.finish()]);
    let bytes = crate::readback::read_buffer(device, &gpu.queue, &out, 0, size).unwrap();
    bytemuck::cast_slice::<u8, [u32; 4]>(&bytes).to_vec()
}
