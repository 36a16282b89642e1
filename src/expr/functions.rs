//! The built-in functions: their names, what they take and give, and one line each for the
//! reference. Their meaning is in `eval.rs` (CPU) and `wgsl.rs` / `shaders/expr.wgsl` (GPU).

use super::types::Type;

/// How a function's arguments and result are typed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    /// Component by component over one type shared by every argument, which is the result's;
    /// an f32 argument is spread over a vector call's components. `ints`: i32 and u32 are
    /// allowed too (`signed`: i32 only).
    Map {
        arity: usize,
        ints: bool,
        signed: bool,
    },
    /// Float vectors (or f32) of one type in, f32 out: length, distance, dot.
    Reduce { arity: usize },
    /// Float vectors of one type in and out (normalize, reflect, cross: vec3 only).
    Vector { arity: usize, vec3_only: bool },
    /// vec3 in, the function's own type out (the noises).
    Noise { out: Type },
    /// select(false_value, true_value, condition: bool).
    Select,
    /// A vec3 field at a vec3 point drifting with an f32 time, vec3 out (turbulence).
    Flow,
}

macro_rules! functions {
    ($($v:ident $name:literal $shape:expr, $doc:literal;)*) => {
        /// A built-in function.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub(crate) enum Func { $($v),* }

        impl Func {
            pub const ALL: &'static [Func] = &[$(Func::$v),*];

            /// Its name in expressions.
            pub const fn name(self) -> &'static str {
                match self { $(Func::$v => $name),* }
            }

            pub const fn shape(self) -> Shape {
                match self { $(Func::$v => $shape),* }
            }

            /// What it does, in one line.
            pub const fn doc(self) -> &'static str {
                match self { $(Func::$v => $doc),* }
            }
        }
    };
}

const fn map(arity: usize) -> Shape {
    Shape::Map {
        arity,
        ints: false,
        signed: false,
    }
}

const fn map_ints(arity: usize) -> Shape {
    Shape::Map {
        arity,
        ints: true,
        signed: false,
    }
}

functions! {
    Abs "abs" map_ints(1), "|x|";
    Sign "sign" Shape::Map { arity: 1, ints: true, signed: true }, "-1, 0 or 1";
    Floor "floor" map(1), "largest whole number ≤ x";
    Ceil "ceil" map(1), "smallest whole number ≥ x";
    Round "round" map(1), "nearest whole number, halves to even";
    Fract "fract" map(1), "x − floor(x)";
    Trunc "trunc" map(1), "whole part, towards zero";
    Sqrt "sqrt" map(1), "square root (x ≥ 0)";
    InverseSqrt "inverseSqrt" map(1), "1 / sqrt(x) (x > 0)";
    Exp "exp" map(1), "eˣ";
    Exp2 "exp2" map(1), "2ˣ";
    Log "log" map(1), "natural logarithm (x > 0)";
    Log2 "log2" map(1), "base-2 logarithm (x > 0)";
    Pow "pow" map(2), "xʸ (x ≥ 0)";
    Sin "sin" map(1), "sine, radians";
    Cos "cos" map(1), "cosine, radians";
    Tan "tan" map(1), "tangent, radians";
    Asin "asin" map(1), "arcsine (−1 ≤ x ≤ 1), radians";
    Acos "acos" map(1), "arccosine (−1 ≤ x ≤ 1), radians";
    Atan "atan" map(1), "arctangent, radians";
    Atan2 "atan2" map(2), "angle of the point (x, y) as atan2(y, x), radians";
    Sinh "sinh" map(1), "hyperbolic sine";
    Cosh "cosh" map(1), "hyperbolic cosine";
    Tanh "tanh" map(1), "hyperbolic tangent";
    Radians "radians" map(1), "degrees to radians";
    Degrees "degrees" map(1), "radians to degrees";
    Min "min" map_ints(2), "the smaller";
    Max "max" map_ints(2), "the larger";
    Clamp "clamp" map_ints(3), "clamp(x, lo, hi) = min(max(x, lo), hi)";
    Saturate "saturate" map(1), "clamp(x, 0, 1)";
    Mix "mix" map(3), "mix(a, b, t) = a·(1 − t) + b·t";
    Step "step" map(2), "step(edge, x): 1 where x ≥ edge, else 0";
    Smoothstep "smoothstep" map(3), "smoothstep(lo, hi, x): 0 below lo, 1 above hi, a smooth cubic between (lo < hi)";
    Fma "fma" map(3), "fma(a, b, c) = a·b + c";
    Length "length" Shape::Reduce { arity: 1 }, "a vector's length";
    Distance "distance" Shape::Reduce { arity: 2 }, "length(a − b)";
    Dot "dot" Shape::Reduce { arity: 2 }, "dot product";
    Cross "cross" Shape::Vector { arity: 2, vec3_only: true }, "cross product of vec3s";
    Normalize "normalize" Shape::Vector { arity: 1, vec3_only: false }, "the vector scaled to length 1 (not zero)";
    Reflect "reflect" Shape::Vector { arity: 2, vec3_only: false }, "reflect(d, n) = d − 2·dot(n, d)·n (n of length 1)";
    Select "select" Shape::Select, "select(if_false, if_true, condition)";
    ValueNoise "value_noise" Shape::Noise { out: Type::F32 }, "value noise at a vec3 point, in [−1, 1], one cell per unit";
    Noise "noise" Shape::Noise { out: Type::F32 }, "gradient (Perlin) noise at a vec3 point, about [−1, 1], one cell per unit";
    CurlNoise "curl_noise" Shape::Noise { out: Type::Vec3 }, "divergence-free vec3 field: the curl of three gradient noises";
    Turbulence "turbulence" Shape::Flow, "turbulence(q, t): the built-in turbulence's divergence-free field at the vec3 point q drifting with t, each component within [−1, 1], its larger eddies about one unit across (the built-in field is speed · turbulence(x / scale, time · speed / scale))";
}

impl Func {
    pub fn by_name(name: &str) -> Option<Func> {
        Func::ALL.iter().copied().find(|f| f.name() == name)
    }
}

/// Names that are called but are not [`Func`]s: the checker types them itself.
pub(crate) const SPECIAL: &[(&str, &str)] = &[
    ("vec2", "vec2(x, y), vec2(s): a vector from components (or one f32 for all)"),
    ("vec3", "vec3(x, y, z), vec3(v2, z), vec3(s), …"),
    ("vec4", "vec4(x, y, z, w), vec4(v3, w), vec4(s), …"),
    ("f32", "conversion to f32 (from i32, u32, bool)"),
    ("i32", "conversion to i32 (from f32: towards zero, saturating; from u32: the same bits)"),
    ("u32", "conversion to u32 (from f32: towards zero, saturating; from i32: the same bits)"),
    ("bool", "x != 0"),
    ("rand", "rand(): uniform in [0, 1), new at every evaluation and call"),
    ("particle_rand", "particle_rand(k): uniform in [0, 1), the same for a particle's whole life; k picks the stream"),
    ("curve", "curve(name, x): the named curve at x (f32)"),
    ("gradient", "gradient(name, x): the named gradient at x (vec4, straight alpha)"),
    ("effect_point", "effect_point(p): the point p of the effect's own space, in the world (its transform applied)"),
    ("effect_vector", "effect_vector(v): the direction v of the effect's own space, in the world (turned and scaled, not moved)"),
    ("emitter_point", "emitter_point(p): the point p of the particle's emitter's space, in the world"),
    ("emitter_vector", "emitter_vector(v): the direction v of the particle's emitter's space, in the world"),
    ("instance_point", "instance_point(p): the point p of the effect's space as the particle's instance places it, in the world"),
    ("instance_vector", "instance_vector(v): the direction v of the effect's space as the particle's instance places it, in the world"),
];

/// Whether `name` carries a point (true) or a direction (false) out of a space, if it is
/// one of the functions that do.
pub(crate) fn transform_kind(name: &str) -> Option<bool> {
    let special = SPECIAL.iter().any(|(n, _)| *n == name);
    match (special, name.ends_with("_point"), name.ends_with("_vector")) {
        (true, true, _) => Some(true),
        (true, _, true) => Some(false),
        _ => None,
    }
}

/// Every name that can be called, for suggestions.
pub(crate) fn callable() -> impl Iterator<Item = &'static str> {
    Func::ALL
        .iter()
        .map(|f| f.name())
        .chain(SPECIAL.iter().map(|(n, _)| *n))
}
