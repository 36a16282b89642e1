//! The language's types and the values a host passes in (parameters) or reads back.

use std::fmt;

/// The type of an expression: a scalar or a float vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    /// true or false
    Bool,
    /// 32-bit signed integer (wrapping)
    I32,
    /// 32-bit unsigned integer (wrapping)
    U32,
    /// 32-bit float
    F32,
    /// two f32s (x, y)
    Vec2,
    /// three f32s (x, y, z)
    Vec3,
    /// four f32s (x, y, z, w; r, g, b, a for colours)
    Vec4,
}

impl Type {
    /// Every type, in the order the reference lists them.
    pub const ALL: [Type; 7] = [
        Type::F32,
        Type::Vec2,
        Type::Vec3,
        Type::Vec4,
        Type::I32,
        Type::U32,
        Type::Bool,
    ];

    /// How many components a value of this type has (1 for scalars).
    pub const fn components(self) -> usize {
        match self {
            Type::Vec2 => 2,
            Type::Vec3 => 3,
            Type::Vec4 => 4,
            _ => 1,
        }
    }

    /// f32 or a vector of f32.
    pub const fn is_float(self) -> bool {
        matches!(self, Type::F32 | Type::Vec2 | Type::Vec3 | Type::Vec4)
    }

    /// A vector of f32.
    pub const fn is_vector(self) -> bool {
        matches!(self, Type::Vec2 | Type::Vec3 | Type::Vec4)
    }

    /// i32 or u32.
    pub const fn is_integer(self) -> bool {
        matches!(self, Type::I32 | Type::U32)
    }

    /// A number or a vector of them (everything but bool).
    pub const fn is_numeric(self) -> bool {
        !matches!(self, Type::Bool)
    }

    /// The float vector of `n` components (f32 for 1), if there is one.
    pub const fn float_of(n: usize) -> Option<Type> {
        match n {
            1 => Some(Type::F32),
            2 => Some(Type::Vec2),
            3 => Some(Type::Vec3),
            4 => Some(Type::Vec4),
            _ => None,
        }
    }

    /// The name in effect files and in messages.
    pub const fn name(self) -> &'static str {
        match self {
            Type::Bool => "bool",
            Type::I32 => "i32",
            Type::U32 => "u32",
            Type::F32 => "f32",
            Type::Vec2 => "vec2",
            Type::Vec3 => "vec3",
            Type::Vec4 => "vec4",
        }
    }

    /// The WGSL spelling.
    pub(crate) const fn wgsl(self) -> &'static str {
        match self {
            Type::Bool => "bool",
            Type::I32 => "i32",
            Type::U32 => "u32",
            Type::F32 => "f32",
            Type::Vec2 => "vec2<f32>",
            Type::Vec3 => "vec3<f32>",
            Type::Vec4 => "vec4<f32>",
        }
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A value of one of the language's types: a parameter's default or what a host sets it to.
#[derive(Clone, Copy, Debug, PartialEq)]
#[allow(missing_docs)]
pub enum Value {
    Bool(bool),
    I32(i32),
    U32(u32),
    F32(f32),
    Vec2(glam::Vec2),
    Vec3(glam::Vec3),
    Vec4(glam::Vec4),
}

impl Value {
    /// Its type.
    pub const fn ty(&self) -> Type {
        match self {
            Value::Bool(_) => Type::Bool,
            Value::I32(_) => Type::I32,
            Value::U32(_) => Type::U32,
            Value::F32(_) => Type::F32,
            Value::Vec2(_) => Type::Vec2,
            Value::Vec3(_) => Type::Vec3,
            Value::Vec4(_) => Type::Vec4,
        }
    }

    /// The components as the evaluator holds them (integers and bools exactly).
    pub(crate) fn components(&self) -> [f64; 4] {
        match *self {
            Value::Bool(b) => [b as u8 as f64, 0.0, 0.0, 0.0],
            Value::I32(i) => [i as f64, 0.0, 0.0, 0.0],
            Value::U32(u) => [u as f64, 0.0, 0.0, 0.0],
            Value::F32(x) => [x as f64, 0.0, 0.0, 0.0],
            Value::Vec2(v) => [v.x as f64, v.y as f64, 0.0, 0.0],
            Value::Vec3(v) => [v.x as f64, v.y as f64, v.z as f64, 0.0],
            Value::Vec4(v) => v.to_array().map(|c| c as f64),
        }
    }

    /// The value of type `ty` whose components are `c` (floats rounded to f32).
    pub(crate) fn from_components(ty: Type, c: [f64; 4]) -> Value {
        let f = c.map(|x| x as f32);
        match ty {
            Type::Bool => Value::Bool(c[0] != 0.0),
            Type::I32 => Value::I32(c[0] as i32),
            Type::U32 => Value::U32(c[0] as u32),
            Type::F32 => Value::F32(f[0]),
            Type::Vec2 => Value::Vec2(glam::Vec2::new(f[0], f[1])),
            Type::Vec3 => Value::Vec3(glam::Vec3::new(f[0], f[1], f[2])),
            Type::Vec4 => Value::Vec4(glam::Vec4::from_array(f)),
        }
    }

    /// The four 32-bit words the GPU holds it in (a uniform's or a buffer's layout: bools
    /// as 0 or 1, unused components 0).
    pub fn to_words(&self) -> [u32; 4] {
        match *self {
            Value::Bool(b) => [b as u32, 0, 0, 0],
            Value::I32(i) => [i as u32, 0, 0, 0],
            Value::U32(u) => [u, 0, 0, 0],
            _ => self.components().map(|c| (c as f32).to_bits()),
        }
    }

    /// The value of type `ty` held in `words` (the inverse of [`Value::to_words`]).
    pub fn from_words(ty: Type, words: [u32; 4]) -> Value {
        match ty {
            Type::Bool => Value::Bool(words[0] != 0),
            Type::I32 => Value::I32(words[0] as i32),
            Type::U32 => Value::U32(words[0]),
            _ => Value::from_components(ty, words.map(|w| f32::from_bits(w) as f64)),
        }
    }
}

impl fmt::Display for Value {
    /// As an expression that evaluates to it: `1.5`, `vec3(0, 1, 0)`, `7u`.
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        fn list(f: &mut fmt::Formatter, name: &str, c: &[f32]) -> fmt::Result {
            write!(f, "{name}(")?;
            for (i, x) in c.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write!(f, "{x:?}")?;
            }
            f.write_str(")")
        }
        match self {
            Value::Bool(b) => write!(f, "{b}"),
            Value::I32(i) => write!(f, "{i}i"),
            Value::U32(u) => write!(f, "{u}u"),
            Value::F32(x) => write!(f, "{x:?}"),
            Value::Vec2(v) => list(f, "vec2", &v.to_array()),
            Value::Vec3(v) => list(f, "vec3", &v.to_array()),
            Value::Vec4(v) => list(f, "vec4", &v.to_array()),
        }
    }
}

macro_rules! value_from {
    ($($t:ty => $v:ident),*) => {$(
        impl From<$t> for Value {
            fn from(x: $t) -> Value {
                Value::$v(x)
            }
        }
    )*};
}
value_from!(bool => Bool, i32 => I32, u32 => U32, f32 => F32, glam::Vec2 => Vec2,
    glam::Vec3 => Vec3, glam::Vec4 => Vec4);

/// The value of a constant expression: `2.5`, `true`, `vec3(1.0, 0.5, 0.2)`, `3u`,
/// `-2i`, `0.5 * pi`.
impl std::str::FromStr for Value {
    type Err = super::ExprError;

    fn from_str(text: &str) -> Result<Value, Self::Err> {
        super::Expr::parse(text)?.evaluate(&super::Scope::new(), &[])
    }
}

impl Value {
    /// The value of the constant expression `text` as type `ty`: a number written without a
    /// suffix takes it (`"2"` as f32 is 2.0, as u32 2u); a value of another type is an error
    /// saying which was expected.
    pub fn parse_as(text: &str, ty: Type) -> Result<Value, super::ExprError> {
        super::Expr::parse(text)?.value(&super::Scope::new(), &[], Some(ty))
    }
}

/// In an effect file: a number (f32), `true` or `false`, or the text of an expression of
/// constants (`"vec3(1.0, 0.5, 0.2)"`, `"3u"`), which is evaluated.
impl serde::Serialize for Value {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match *self {
            Value::F32(x) => s.serialize_f32(x),
            Value::Bool(b) => s.serialize_bool(b),
            other => s.serialize_str(&other.to_string()),
        }
    }
}

impl<'de> serde::Deserialize<'de> for Value {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Value, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = Value;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a number, true or false, or a constant expression in quotes")
            }

            fn visit_f64<E: serde::de::Error>(self, x: f64) -> Result<Value, E> {
                Ok(Value::F32(x as f32))
            }

            fn visit_i64<E: serde::de::Error>(self, x: i64) -> Result<Value, E> {
                Ok(Value::F32(x as f32))
            }

            fn visit_u64<E: serde::de::Error>(self, x: u64) -> Result<Value, E> {
                Ok(Value::F32(x as f32))
            }

            fn visit_bool<E: serde::de::Error>(self, b: bool) -> Result<Value, E> {
                Ok(Value::Bool(b))
            }

            fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<Value, E> {
                // (as the effect reader words a value refused: `value: allowed …`)
                text.parse().map_err(|e| {
                    E::custom(format!(
                        "{text:?}: allowed a number, true or false, or a constant expression ({e})"
                    ))
                })
            }
        }
        d.deserialize_any(Visitor)
    }
}
