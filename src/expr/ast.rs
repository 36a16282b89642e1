//! Expressions as written: the tree the parser builds from text and the Rust builder builds
//! with operators, before names are resolved or types checked. Printing one gives text that
//! parses back to the same tree.

use std::fmt;
use std::ops::Range;

/// Byte offsets into the expression's text.
pub type Span = Range<usize>;

/// `-x` and `!b`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum UnaryOp {
    Neg,
    Not,
}

/// The operators between two values, by their symbols.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
}

impl BinaryOp {
    /// Every operator, the five arithmetic ones first.
    pub const ALL: [BinaryOp; 13] = [
        BinaryOp::Add,
        BinaryOp::Sub,
        BinaryOp::Mul,
        BinaryOp::Div,
        BinaryOp::Rem,
        BinaryOp::Eq,
        BinaryOp::Ne,
        BinaryOp::Lt,
        BinaryOp::Le,
        BinaryOp::Gt,
        BinaryOp::Ge,
        BinaryOp::And,
        BinaryOp::Or,
    ];

    /// As written: `+`, `<=`, `&&`, ...
    pub const fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::Rem => "%",
            BinaryOp::Eq => "==",
            BinaryOp::Ne => "!=",
            BinaryOp::Lt => "<",
            BinaryOp::Le => "<=",
            BinaryOp::Gt => ">",
            BinaryOp::Ge => ">=",
            BinaryOp::And => "&&",
            BinaryOp::Or => "||",
        }
    }

    /// Binding strength: higher binds tighter.
    pub(crate) const fn precedence(self) -> u8 {
        match self {
            BinaryOp::Or => 1,
            BinaryOp::And => 2,
            BinaryOp::Eq
            | BinaryOp::Ne
            | BinaryOp::Lt
            | BinaryOp::Le
            | BinaryOp::Gt
            | BinaryOp::Ge => 3,
            BinaryOp::Add | BinaryOp::Sub => 4,
            BinaryOp::Mul | BinaryOp::Div | BinaryOp::Rem => 5,
        }
    }

    /// A comparison: yields a bool.
    pub(crate) const fn compares(self) -> bool {
        self.precedence() == 3
    }

    /// `&&` or `||`.
    pub(crate) const fn logical(self) -> bool {
        self.precedence() < 3
    }
}

/// A literal number as written: without a suffix it takes the type its use asks for
/// (`age * 2` is f32 arithmetic), as WGSL's abstract numbers do.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Literal {
    /// Digits only: any number type.
    Int(i64),
    /// With a point or an exponent: f32 (or a float vector's component).
    Float(f64),
    /// `7i`
    I32(i32),
    /// `7u`
    U32(u32),
    /// `1.5f`
    F32(f32),
    Bool(bool),
}

/// A node of an expression as written, with where it is in the text.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub kind: Kind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    Literal(Literal),
    /// An attribute, parameter, named node or input.
    Name(String),
    /// A function, constructor or conversion, by name.
    Call {
        name: String,
        name_span: Span,
        args: Vec<Node>,
    },
    /// `v.x`, `color.rgb`: components picked by letter.
    Swizzle {
        value: Box<Node>,
        components: String,
    },
    Unary(UnaryOp, Box<Node>),
    Binary(BinaryOp, Box<Node>, Box<Node>),
}

impl Node {
    pub(crate) fn new(kind: Kind, span: Span) -> Node {
        Node { kind, span }
    }

    /// How tightly the printed node binds (for parentheses): postfix and primaries bind
    /// tightest, then unary operators, then the binary ones by precedence.
    fn binding(&self) -> u8 {
        match &self.kind {
            Kind::Binary(op, ..) => op.precedence(),
            Kind::Unary(..) => 6,
            Kind::Literal(Literal::Int(i)) if *i < 0 => 6,
            Kind::Literal(Literal::Float(x)) if x.is_sign_negative() => 6,
            Kind::Literal(Literal::F32(x)) if x.is_sign_negative() => 6,
            Kind::Literal(Literal::I32(x)) if *x < 0 => 6,
            _ => 7,
        }
    }
}

impl fmt::Display for Literal {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match *self {
            Literal::Int(i) => write!(f, "{i}"),
            Literal::Float(x) => {
                let s = format!("{x:?}");
                // always with a point or an exponent, so it reads back as a float
                if s.contains(['.', 'e', 'E']) {
                    f.write_str(&s)
                } else {
                    write!(f, "{s}.0")
                }
            }
            Literal::I32(i) => write!(f, "{i}i"),
            Literal::U32(u) => write!(f, "{u}u"),
            Literal::F32(x) => write!(f, "{x:?}f"),
            Literal::Bool(b) => write!(f, "{b}"),
        }
    }
}

impl fmt::Display for Node {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let paren = |f: &mut fmt::Formatter, node: &Node, min: u8| {
            if node.binding() < min {
                write!(f, "({node})")
            } else {
                write!(f, "{node}")
            }
        };
        match &self.kind {
            Kind::Literal(l) => write!(f, "{l}"),
            Kind::Name(n) => f.write_str(n),
            Kind::Call { name, args, .. } => {
                write!(f, "{name}(")?;
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{a}")?;
                }
                f.write_str(")")
            }
            Kind::Swizzle { value, components } => {
                paren(f, value, 7)?;
                write!(f, ".{components}")
            }
            Kind::Unary(op, x) => {
                f.write_str(match op {
                    UnaryOp::Neg => "-",
                    UnaryOp::Not => "!",
                })?;
                paren(f, x, 6)
            }
            Kind::Binary(op, a, b) => {
                let p = op.precedence();
                // left-associative: the right operand of equal precedence needs parentheses
                // (and comparisons do not chain, so both sides of one do)
                paren(f, a, if op.compares() { p + 1 } else { p })?;
                write!(f, " {} ", op.symbol())?;
                paren(f, b, p + 1)
            }
        }
    }
}
