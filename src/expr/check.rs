//! From written [`Node`]s to the typed [`Program`]: names resolved (named nodes compiled on
//! first use, cycles refused), types checked, literals given the type their use asks for,
//! operations on constants folded.

use std::collections::HashMap;

use super::ast::{BinaryOp, Kind, Literal, Node, Span, UnaryOp};
use super::error::{nearest, suggestion, ErrorKind, ExprError};
use super::eval::{fold, Precision};
use super::functions::{callable, transform_kind, Func, Shape};
use super::ir::{self, NodeId, Op, Program};
use super::parse::parse;
use super::types::{Type, Value};

/// A named table: a curve (read as f32) or a gradient (read as vec4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TableKind {
    Curve,
    Gradient,
}

/// The inputs an expression may read, the hidden inputs the generator feeds random numbers
/// and tables from.
pub(crate) const SEED_CALL: &str = "$seed";
pub(crate) const SEED_PARTICLE: &str = "$particle_seed";
pub(crate) const TABLE_BASE: &str = "$table";

/// What expressions compiled together can name.
#[derive(Clone, Debug, Default)]
pub(crate) struct Env {
    /// Inputs by name: attributes, parameters, time, ...
    pub inputs: Vec<(String, Type)>,
    /// Named nodes (`let heat = …`), by name: their text.
    pub lets: Vec<(String, String)>,
    /// Curves and gradients, in the order of their rows.
    pub tables: Vec<(String, TableKind)>,
    /// Whether `rand()` and `particle_rand(k)` may be used here (the pass seeds them).
    pub random: bool,
    /// Functions the effect declares or imports, called by name.
    pub functions: Vec<UserFunction>,
    /// Spaces a point or a direction can be carried out of (`effect_point(p)`).
    pub frames: Vec<Frame>,
}

/// A space expressions carry points and directions out of, into the world: `{name}_point(p)`
/// is `origin + p.x·x + p.y·y + p.z·z`, `{name}_vector(v)` the same without the origin, from
/// the inputs that hold its origin and its axes (each scaled as the space is).
#[derive(Clone, Debug)]
pub(crate) struct Frame {
    pub name: &'static str,
    /// The inputs holding its origin and its x, y and z axes (vec3, world).
    pub origin: String,
    pub axes: [String; 3],
    /// Why it cannot be read here, if it cannot (the call is refused with this).
    pub refusal: Option<String>,
}

/// A function an effect declares or imports: its parameters and its body's text.
#[derive(Clone, Debug)]
pub(crate) struct UserFunction {
    pub name: String,
    pub parameters: Vec<(String, Type)>,
    pub body: String,
}

/// During checking: a node, or a literal (folded) that has not yet taken a type.
#[derive(Clone, Copy, Debug)]
enum Typed {
    Node(NodeId),
    Int(i64),
    Float(f64),
}

/// Compiles expressions against one [`Env`] into one [`Program`], sharing nodes.
pub(crate) struct Compiler<'e> {
    env: &'e Env,
    pub program: Program,
    /// Named nodes compiled so far.
    lets: HashMap<String, NodeId>,
    /// Named nodes being compiled (for cycles).
    stack: Vec<String>,
    /// Names bound to nodes by [`Compiler::bind`] (a stack's line writing an attribute).
    bound: HashMap<String, NodeId>,
    /// The arguments of the function whose body is being compiled, by parameter name.
    arguments: HashMap<String, NodeId>,
    /// How deep checking is now: through the tree, the named nodes it reads and the
    /// functions it calls (each recurses once a level).
    depth: usize,
    /// Nodes checked so far (a function called twice over by a function called twice over
    /// … is compiled 2ⁿ times: the work, not the text, is what is bounded).
    steps: usize,
    /// What went wrong folding the node being checked (a constant that is no finite number
    /// or wraps): refused at that node.
    folded: Option<String>,
}

/// Checking deeper than this (a tree, and the named nodes and functions it reads and
/// calls within one another) is refused: the checker recurses once a level, and the
/// deepest allowed stays within a megabyte and a half of stack in a debug build (a thread
/// of Rust's default 2 MiB stack compiles it).
pub(crate) const MAX_CHECK_DEPTH: usize = 256;

/// The levels a call counts for (its frames are about three times a level's).
const CALL_LEVELS: usize = 3;

/// Checking more nodes than this for one compiler is refused (functions that expand to
/// more than any effect needs).
pub(crate) const MAX_CHECK_STEPS: usize = 200_000;

/// Where checking is: the text (for columns) and the named node it belongs to.
struct At<'t> {
    text: &'t str,
    within: Option<&'t str>,
}

impl At<'_> {
    fn error(&self, kind: ErrorKind, span: &Span, message: impl Into<String>) -> ExprError {
        let mut e = ExprError::new(kind, self.text, span.clone(), message);
        if let Some(name) = self.within {
            e.message = format!("in `{name}`: {}", e.message);
        }
        e
    }
}

impl<'e> Compiler<'e> {
    pub fn new(env: &'e Env) -> Self {
        Compiler {
            env,
            program: Program::default(),
            lets: HashMap::new(),
            stack: Vec::new(),
            bound: HashMap::new(),
            arguments: HashMap::new(),
            depth: 0,
            steps: 0,
            folded: None,
        }
    }

    /// Compile function `f`'s body with its parameters as inputs of their types (checked
    /// on its own, called or not); the error is in the body's text.
    pub fn check_function(&mut self, f: &UserFunction) -> Result<NodeId, ExprError> {
        let arguments = f
            .parameters
            .iter()
            .map(|(n, ty)| {
                (
                    n.clone(),
                    self.program.input(&format!("{}.{n}", f.name), *ty),
                )
            })
            .collect();
        let saved = std::mem::replace(&mut self.arguments, arguments);
        let node = parse(&f.body);
        let result = node.and_then(|node| {
            let at = At {
                text: &f.body,
                within: None,
            };
            let typed = self.check(&node, &at)?;
            self.finish(typed, None, &node, &at)
        });
        self.arguments = saved;
        result
    }

    /// From now on `name`, read by the expressions compiled next (not by named nodes, which
    /// read the inputs as they came), is the value of node `id`: what a stack's line wrote.
    pub fn bind(&mut self, name: &str, id: NodeId) {
        self.bound.insert(name.to_string(), id);
    }

    /// `a op b` for two nodes of one type (a stack's forces summed, its kills joined).
    pub fn combine(&mut self, op: BinaryOp, a: NodeId, b: NodeId) -> NodeId {
        let ty = match op {
            BinaryOp::Eq
            | BinaryOp::Ne
            | BinaryOp::Lt
            | BinaryOp::Le
            | BinaryOp::Gt
            | BinaryOp::Ge => Type::Bool,
            _ => self.program.ty(a),
        };
        self.add(Op::Binary(op), vec![a, b], ty)
    }

    /// `-a`.
    pub fn negate(&mut self, a: NodeId) -> NodeId {
        let ty = self.program.ty(a);
        self.add(Op::Unary(UnaryOp::Neg), vec![a], ty)
    }

    /// Compile `text`; its value must be of `expected` (a literal takes it), if given.
    #[cfg(test)]
    pub fn compile(&mut self, text: &str, expected: Option<Type>) -> Result<NodeId, ExprError> {
        let node = parse(text)?;
        self.compile_parsed(&node, text, expected)
    }

    /// As [`Compiler::compile`] for an already parsed `node` of `text`.
    pub fn compile_parsed(
        &mut self,
        node: &Node,
        text: &str,
        expected: Option<Type>,
    ) -> Result<NodeId, ExprError> {
        let at = At { text, within: None };
        let typed = self.check(node, &at)?;
        self.finish(typed, expected, node, &at)
    }

    fn finish(
        &mut self,
        typed: Typed,
        expected: Option<Type>,
        node: &Node,
        at: &At,
    ) -> Result<NodeId, ExprError> {
        let id = self.concrete(typed, expected, node, at)?;
        let ty = self.program.ty(id);
        match expected {
            Some(want) if want != ty => Err(at.error(
                ErrorKind::Type,
                &node.span,
                format!("expected a value of type {want}, found {ty}"),
            )),
            _ => Ok(id),
        }
    }

    /// A literal as a node of type `want` (or its own default: i32, f32).
    fn concrete(
        &mut self,
        typed: Typed,
        want: Option<Type>,
        node: &Node,
        at: &At,
    ) -> Result<NodeId, ExprError> {
        let value = match (typed, want) {
            (Typed::Node(id), _) => return Ok(id),
            (Typed::Int(i), None | Some(Type::I32)) => i32::try_from(i)
                .map(Value::I32)
                .map_err(|_| format!("{i} is out of an i32's range -2147483648..=2147483647")),
            (Typed::Int(i), Some(Type::U32)) => u32::try_from(i)
                .map(Value::U32)
                .map_err(|_| format!("{i} is out of a u32's range 0..=4294967295")),
            (Typed::Int(i), Some(t)) if t.is_float() => Ok(splat(t, i as f64)),
            (Typed::Float(x), None) => Ok(Value::F32(x as f32)),
            (Typed::Float(x), Some(t)) if t.is_float() => Ok(splat(t, x)),
            (Typed::Float(x), Some(t)) => Err(format!(
                "the number {x:?} where {t} is expected (whole numbers only)"
            )),
            (Typed::Int(i), Some(Type::Bool)) => {
                Err(format!("the number {i} where bool is expected"))
            }
            (Typed::Int(_), Some(_)) => unreachable!("every type is matched above"),
        };
        match value {
            Ok(v) => Ok(self.program.constant(v)),
            Err(message) => Err(at.error(ErrorKind::Type, &node.span, message)),
        }
    }

    fn ty(&self, t: Typed) -> Option<Type> {
        match t {
            Typed::Node(id) => Some(self.program.ty(id)),
            _ => None,
        }
    }

    fn add(&mut self, op: Op, args: Vec<NodeId>, ty: Type) -> NodeId {
        // an integer divided by a constant zero is itself and its remainder 0 (what the
        // evaluator and naga's helpers give for a zero computed at run time; naga refuses
        // a literal zero divisor)
        if let (Op::Binary(div @ (BinaryOp::Div | BinaryOp::Rem)), true) = (&op, ty.is_integer()) {
            let zero = matches!(
                self.program.value(args[1]),
                Some(Value::I32(0) | Value::U32(0))
            );
            if zero {
                return match div {
                    BinaryOp::Div => args[0],
                    _ => self.program.constant(Value::from_components(ty, [0.0; 4])),
                };
            }
        }
        let node = ir::Node { op, args, ty };
        match fold(&self.program, &node, Precision::F32) {
            Some(value) => {
                if let Some(problem) = folded_problem(&self.program, &node, value) {
                    self.folded.get_or_insert(problem);
                }
                self.program.constant(value)
            }
            None => self.program.add(node),
        }
    }

    fn check(&mut self, node: &Node, at: &At) -> Result<Typed, ExprError> {
        self.steps += 1;
        // (a call recurses through frames three times a level's: counted so)
        let levels = match node.kind {
            Kind::Call { .. } => CALL_LEVELS,
            _ => 1,
        };
        if self.depth + levels > MAX_CHECK_DEPTH {
            let message = format!(
                "nested more than {MAX_CHECK_DEPTH} levels deep, counting the named nodes \
                 and functions it reads within one another (a call counts {CALL_LEVELS}): \
                 split it, or read fewer nodes or functions in a chain"
            );
            return Err(at.error(ErrorKind::Parse, &node.span, message));
        }
        if self.steps > MAX_CHECK_STEPS {
            let message = format!(
                "expands to more than {MAX_CHECK_STEPS} operations (functions that call \
                 functions several times each multiply): call them fewer times"
            );
            return Err(at.error(ErrorKind::Parse, &node.span, message));
        }
        self.depth += levels;
        let checked = self.check_kind(node, at);
        self.depth -= levels;
        // (a constant folded here that is no number the GPU should carry)
        let problem = match checked {
            Ok(Typed::Float(x)) if !(x as f32).is_finite() => Some(format!(
                "comes out as {x:?}, which is no finite f32 (at most ±3.4e38)"
            )),
            _ => self.folded.take(),
        };
        match problem {
            Some(message) => {
                self.folded = None;
                Err(at.error(ErrorKind::Value, &node.span, message))
            }
            None => checked,
        }
    }

    fn check_kind(&mut self, node: &Node, at: &At) -> Result<Typed, ExprError> {
        match &node.kind {
            Kind::Literal(l) => Ok(match *l {
                Literal::Int(i) => Typed::Int(i),
                Literal::Float(x) => Typed::Float(x),
                Literal::I32(i) => Typed::Node(self.program.constant(Value::I32(i))),
                Literal::U32(u) => Typed::Node(self.program.constant(Value::U32(u))),
                Literal::F32(x) => Typed::Node(self.program.constant(Value::F32(x))),
                Literal::Bool(b) => Typed::Node(self.program.constant(Value::Bool(b))),
            }),
            Kind::Name(name) => self.name(name, &node.span, at).map(Typed::Node),
            Kind::Unary(op, x) => self.unary(*op, x, node, at),
            Kind::Binary(op, a, b) => self.binary(*op, a, b, node, at),
            Kind::Swizzle { value, components } => self.swizzle(value, components, node, at),
            Kind::Call {
                name,
                name_span,
                args,
            } => self.call(name, name_span, args, node, at),
        }
    }

    fn name(&mut self, name: &str, span: &Span, at: &At) -> Result<NodeId, ExprError> {
        if let Some(&id) = self.arguments.get(name) {
            return Ok(id);
        }
        if let (Some(&id), true) = (self.bound.get(name), at.within.is_none()) {
            return Ok(id);
        }
        if let Some(&id) = self.lets.get(name) {
            return Ok(id);
        }
        if let Some((_, text)) = self.env.lets.iter().find(|(n, _)| n == name) {
            if let Some(start) = self.stack.iter().position(|n| n == name) {
                let mut cycle: Vec<&str> = self.stack[start..].iter().map(String::as_str).collect();
                cycle.push(name);
                return Err(at.error(
                    ErrorKind::Cycle,
                    span,
                    format!(
                        "the named nodes refer to one another in a circle: {}",
                        cycle.join(" → ")
                    ),
                ));
            }
            self.stack.push(name.to_string());
            let arguments = std::mem::take(&mut self.arguments);
            let result = parse(text)
                .map_err(|mut e| {
                    e.message = format!("in `{name}`: {}", e.message);
                    e
                })
                .and_then(|node| {
                    let inner = At {
                        text,
                        within: Some(name),
                    };
                    let typed = self.check(&node, &inner)?;
                    self.finish(typed, None, &node, &inner)
                });
            self.stack.pop();
            self.arguments = arguments;
            let id = result?;
            self.lets.insert(name.to_string(), id);
            return Ok(id);
        }
        if let Some(&(_, ty)) = self.env.inputs.iter().find(|(n, _)| n == name) {
            return Ok(self.program.input(name, ty));
        }
        let hint = if Func::by_name(name).is_some() || name.starts_with("vec") {
            format!("; `{name}` is a function: call it as {name}(…)")
        } else if self.env.tables.iter().any(|(n, _)| n == name) {
            format!("; `{name}` is a curve or gradient: read it with curve({name}, x) or gradient({name}, x)")
        } else {
            let known = self
                .arguments
                .keys()
                .map(String::as_str)
                .chain(self.env.lets.iter().map(|(n, _)| n.as_str()))
                .chain(self.env.inputs.iter().map(|(n, _)| n.as_str()))
                .filter(|n| !n.starts_with('$'));
            suggestion(&nearest(name, known))
        };
        Err(at.error(
            ErrorKind::UnknownName,
            span,
            format!("unknown name `{name}`{hint}"),
        ))
    }

    fn unary(&mut self, op: UnaryOp, x: &Node, node: &Node, at: &At) -> Result<Typed, ExprError> {
        let t = self.check(x, at)?;
        match (op, t) {
            (UnaryOp::Neg, Typed::Int(i)) => return Ok(Typed::Int(-i)),
            (UnaryOp::Neg, Typed::Float(v)) => return Ok(Typed::Float(-v)),
            _ => {}
        }
        let id = self.concrete(t, None, x, at)?;
        let ty = self.program.ty(id);
        let ok = match op {
            UnaryOp::Neg => ty.is_numeric() && ty != Type::U32,
            UnaryOp::Not => ty == Type::Bool,
        };
        if !ok {
            let (sym, takes) = match op {
                UnaryOp::Neg => ("-", "f32, a float vector or i32"),
                UnaryOp::Not => ("!", "bool"),
            };
            return Err(at.error(
                ErrorKind::Type,
                &node.span,
                format!("`{sym}` takes {takes}, found {ty}"),
            ));
        }
        Ok(Typed::Node(self.add(Op::Unary(op), vec![id], ty)))
    }

    fn binary(
        &mut self,
        op: BinaryOp,
        a: &Node,
        b: &Node,
        node: &Node,
        at: &At,
    ) -> Result<Typed, ExprError> {
        let (ta, tb) = (self.check(a, at)?, self.check(b, at)?);
        if let (Some(x), Some(y), true) = (literal(ta), literal(tb), op.compares()) {
            let b = match op {
                BinaryOp::Eq => x == y,
                BinaryOp::Ne => x != y,
                BinaryOp::Lt => x < y,
                BinaryOp::Le => x <= y,
                BinaryOp::Gt => x > y,
                _ => x >= y,
            };
            return Ok(Typed::Node(self.program.constant(Value::Bool(b))));
        }
        if let Some(folded) = fold_literals(op, ta, tb) {
            return folded.map_err(|m| at.error(ErrorKind::Type, &node.span, m));
        }
        // a literal takes the other side's scalar type
        let scalar = |t: Option<Type>| t.map(|t| if t.is_vector() { Type::F32 } else { t });
        let (ia, ib) = match (self.ty(ta), self.ty(tb)) {
            (Some(_), Some(_)) => (
                self.concrete(ta, None, a, at)?,
                self.concrete(tb, None, b, at)?,
            ),
            (Some(x), None) => {
                let want = scalar(Some(x));
                let ib = self.concrete(tb, want, b, at)?;
                (self.concrete(ta, None, a, at)?, ib)
            }
            (None, y) => {
                let want = scalar(y);
                let ia = self.concrete(ta, want, a, at)?;
                (ia, self.concrete(tb, None, b, at)?)
            }
        };
        let (x, y) = (self.program.ty(ia), self.program.ty(ib));
        let found = format!("found {x} and {y}");
        let ty = if op.logical() {
            if x != Type::Bool || y != Type::Bool {
                return Err(at.error(
                    ErrorKind::Type,
                    &node.span,
                    format!("`{}` takes bools, {found}", op.symbol()),
                ));
            }
            Type::Bool
        } else if op.compares() {
            let ordered = !matches!(op, BinaryOp::Eq | BinaryOp::Ne);
            if x != y || x.is_vector() || (ordered && x == Type::Bool) {
                let what = if x.is_vector() || y.is_vector() {
                    "compare components (`a.x < b.x`) or lengths"
                } else {
                    "compare two values of one type"
                };
                return Err(at.error(
                    ErrorKind::Type,
                    &node.span,
                    format!("`{}` cannot compare these: {what}; {found}", op.symbol()),
                ));
            }
            Type::Bool
        } else if (x == y && x.is_numeric()) || (x.is_vector() && y == Type::F32) {
            x
        } else if y.is_vector() && x == Type::F32 {
            y
        } else {
            return Err(at.error(
                ErrorKind::Type,
                &node.span,
                format!(
                    "`{}` takes two numbers of one type (or a float vector and an f32), {found}{}",
                    op.symbol(),
                    if x.is_numeric()
                        && y.is_numeric()
                        && x != y
                        && !x.is_vector()
                        && !y.is_vector()
                    {
                        format!(": convert one, as {x}(…) or {y}(…)")
                    } else {
                        String::new()
                    }
                ),
            ));
        };
        Ok(Typed::Node(self.add(Op::Binary(op), vec![ia, ib], ty)))
    }

    fn swizzle(
        &mut self,
        value: &Node,
        components: &str,
        node: &Node,
        at: &At,
    ) -> Result<Typed, ExprError> {
        let t = self.check(value, at)?;
        let id = self.concrete(t, None, value, at)?;
        let ty = self.program.ty(id);
        let field_span = node.span.end - components.len()..node.span.end;
        if !ty.is_vector() {
            return Err(at.error(
                ErrorKind::Type,
                &field_span,
                format!("`.{components}` picks components of a vector; found {ty}"),
            ));
        }
        let sets = ["xyzw", "rgba"];
        let set = sets
            .iter()
            .find(|s| components.chars().all(|c| s.contains(c)));
        let picks: Option<Vec<u8>> = set.map(|s| {
            components
                .chars()
                .map(|c| s.find(c).unwrap_or(0) as u8)
                .collect()
        });
        let n = ty.components();
        let len = components.len();
        match picks {
            Some(p) if (1..=4).contains(&len) && p.iter().all(|&i| (i as usize) < n) => {
                let mut picks = [0u8; 4];
                picks[..len].copy_from_slice(&p);
                let out = Type::float_of(len).unwrap_or(Type::F32);
                let op = Op::Swizzle {
                    picks,
                    len: len as u8,
                };
                Ok(Typed::Node(self.add(op, vec![id], out)))
            }
            _ => {
                let allowed: String = sets
                    .iter()
                    .map(|s| &s[..n])
                    .collect::<Vec<_>>()
                    .join(" or ");
                Err(at.error(
                    ErrorKind::Type,
                    &field_span,
                    format!("`.{components}` is no swizzle of a {ty}: 1 to 4 letters of {allowed}"),
                ))
            }
        }
    }

    fn call(
        &mut self,
        name: &str,
        name_span: &Span,
        args: &[Node],
        node: &Node,
        at: &At,
    ) -> Result<Typed, ExprError> {
        let arity = |want: usize| -> Result<(), ExprError> {
            if args.len() == want {
                Ok(())
            } else {
                Err(at.error(
                    ErrorKind::Type,
                    &node.span,
                    format!(
                        "`{name}` takes {want} argument{}, found {}",
                        if want == 1 { "" } else { "s" },
                        args.len()
                    ),
                ))
            }
        };
        match name {
            "vec2" | "vec3" | "vec4" => return self.construct(name, args, node, at),
            "f32" | "i32" | "u32" | "bool" => {
                arity(1)?;
                return self.convert(name, &args[0], at);
            }
            "rand" | "particle_rand" => {
                if !self.env.random {
                    return Err(at.error(
                        ErrorKind::NotAllowed,
                        &node.span,
                        format!("`{name}` is not available here: random numbers are drawn when particles are born and step, not when they are drawn"),
                    ));
                }
                if name == "rand" {
                    arity(0)?;
                    let seed = self.program.input(SEED_CALL, Type::U32);
                    let site = self.program.next_site();
                    return Ok(Typed::Node(self.add(
                        Op::Rand { site },
                        vec![seed],
                        Type::F32,
                    )));
                }
                arity(1)?;
                let t = self.check(&args[0], at)?;
                let k = self.finish(t, Some(Type::U32), &args[0], at)?;
                let seed = self.program.input(SEED_PARTICLE, Type::U32);
                return Ok(Typed::Node(self.add(
                    Op::ParticleRand,
                    vec![seed, k],
                    Type::F32,
                )));
            }
            "curve" | "gradient" => {
                arity(2)?;
                let kind = if name == "curve" {
                    TableKind::Curve
                } else {
                    TableKind::Gradient
                };
                let Kind::Name(table) = &args[0].kind else {
                    return Err(at.error(
                        ErrorKind::Type,
                        &args[0].span,
                        format!("`{name}` takes the {name}'s name first, as {name}(flame, age / lifetime)"),
                    ));
                };
                let Some(row) = self
                    .env
                    .tables
                    .iter()
                    .position(|(n, k)| n == table && *k == kind)
                else {
                    let known = self
                        .env
                        .tables
                        .iter()
                        .filter(|(_, k)| *k == kind)
                        .map(|(n, _)| n.as_str());
                    let near = nearest(table, known);
                    let none = if self.env.tables.iter().any(|(_, k)| *k == kind) {
                        suggestion(&near)
                    } else {
                        format!("; this effect declares no {name}s")
                    };
                    return Err(at.error(
                        ErrorKind::UnknownName,
                        &args[0].span,
                        format!("unknown {name} `{table}`{none}"),
                    ));
                };
                let t = self.check(&args[1], at)?;
                let x = self.finish(t, Some(Type::F32), &args[1], at)?;
                let base = self.program.input(TABLE_BASE, Type::U32);
                let ty = match kind {
                    TableKind::Curve => Type::F32,
                    TableKind::Gradient => Type::Vec4,
                };
                let op = Op::Table { row: row as u32 };
                return Ok(Typed::Node(self.add(op, vec![base, x], ty)));
            }
            _ => {}
        }
        if let Some(f) = self.env.functions.iter().find(|f| f.name == name) {
            return self.call_function(f, args, node, at).map(Typed::Node);
        }
        if let Some(point) = transform_kind(name) {
            return self.transform(name, point, args, node, at);
        }
        let Some(func) = Func::by_name(name) else {
            let hint = if self.env.inputs.iter().any(|(n, _)| n == name)
                || self.env.lets.iter().any(|(n, _)| n == name)
            {
                format!("; `{name}` is a value, not a function")
            } else {
                let mut known: Vec<&str> = callable().collect();
                known.extend(self.env.functions.iter().map(|f| f.name.as_str()));
                suggestion(&nearest(name, known))
            };
            return Err(at.error(
                ErrorKind::UnknownName,
                name_span,
                format!("unknown function `{name}`{hint}"),
            ));
        };
        let typed: Vec<Typed> = args
            .iter()
            .map(|a| self.check(a, at))
            .collect::<Result<_, _>>()?;
        let types: Vec<Option<Type>> = typed.iter().map(|&t| self.ty(t)).collect();
        let shown = || {
            let list: Vec<String> = types
                .iter()
                .map(|t| t.map_or("a number".to_string(), |t| t.to_string()))
                .collect();
            list.join(", ")
        };
        let mismatch = |takes: &str| {
            at.error(
                ErrorKind::Type,
                &node.span,
                format!("`{name}` takes {takes}; found ({})", shown()),
            )
        };
        match func.shape() {
            Shape::Map {
                arity: n,
                ints,
                signed,
            } => {
                arity(n)?;
                // the call's type: the vector argument's, else a typed scalar's, else f32
                // (or i32 for whole-number literals of a function that takes integers)
                let vector = types.iter().flatten().find(|t| t.is_vector()).copied();
                let scalar = types.iter().flatten().find(|t| !t.is_vector()).copied();
                let all_ints = typed.iter().all(|t| matches!(t, Typed::Int(_)));
                let call = vector.or(scalar).unwrap_or(if ints && all_ints {
                    Type::I32
                } else {
                    Type::F32
                });
                let takes = if signed {
                    "f32, float vectors or i32, all of one type"
                } else if ints {
                    "numbers or float vectors, all of one type"
                } else {
                    "f32 or float vectors, all of one type"
                };
                let allowed = call.is_float()
                    || (ints && (call == Type::I32 || (!signed && call == Type::U32)));
                if !allowed {
                    return Err(mismatch(takes));
                }
                let mut ids = Vec::new();
                for (t, a) in typed.iter().zip(args) {
                    let want = if call.is_vector() { Type::F32 } else { call };
                    let id = match t {
                        Typed::Node(id) => *id,
                        _ => self.concrete(*t, Some(want), a, at)?,
                    };
                    let ty = self.program.ty(id);
                    let id = if ty == call {
                        id
                    } else if ty == Type::F32 && call.is_vector() {
                        self.add(Op::Construct, vec![id], call)
                    } else {
                        return Err(mismatch(takes));
                    };
                    ids.push(id);
                }
                Ok(Typed::Node(self.add(Op::Call(func), ids, call)))
            }
            Shape::Reduce { arity: n } | Shape::Vector { arity: n, .. } => {
                arity(n)?;
                let reduce = matches!(func.shape(), Shape::Reduce { .. });
                // (WGSL's length and distance take an f32 too; its dot, vectors only)
                let scalars = reduce && func != Func::Dot;
                let vec3_only = matches!(
                    func.shape(),
                    Shape::Vector {
                        vec3_only: true,
                        ..
                    }
                );
                let call = types.iter().flatten().copied().next().unwrap_or(Type::F32);
                let takes = if vec3_only {
                    "two vec3s"
                } else if scalars {
                    "f32 or float vectors of one type"
                } else {
                    "float vectors of one type"
                };
                let ok_type = if vec3_only {
                    call == Type::Vec3
                } else if scalars {
                    call.is_float()
                } else {
                    call.is_vector()
                };
                if !ok_type {
                    return Err(mismatch(takes));
                }
                let mut ids = Vec::new();
                for (t, a) in typed.iter().zip(args) {
                    let id = self.concrete(*t, Some(call), a, at)?;
                    if self.program.ty(id) != call {
                        return Err(mismatch(takes));
                    }
                    ids.push(id);
                }
                let out = if reduce { Type::F32 } else { call };
                Ok(Typed::Node(self.add(Op::Call(func), ids, out)))
            }
            Shape::Noise { out } => {
                arity(1)?;
                let id = self.concrete(typed[0], Some(Type::Vec3), &args[0], at)?;
                if self.program.ty(id) != Type::Vec3 {
                    return Err(mismatch("a vec3 point"));
                }
                Ok(Typed::Node(self.add(Op::Call(func), vec![id], out)))
            }
            Shape::Flow => {
                arity(2)?;
                let q = self.concrete(typed[0], Some(Type::Vec3), &args[0], at)?;
                let t = self.concrete(typed[1], Some(Type::F32), &args[1], at)?;
                if (self.program.ty(q), self.program.ty(t)) != (Type::Vec3, Type::F32) {
                    return Err(mismatch("a vec3 point and an f32 time"));
                }
                Ok(Typed::Node(self.add(
                    Op::Call(func),
                    vec![q, t],
                    Type::Vec3,
                )))
            }
            Shape::Select => {
                arity(3)?;
                let cond = self.concrete(typed[2], Some(Type::Bool), &args[2], at)?;
                if self.program.ty(cond) != Type::Bool {
                    return Err(mismatch(
                        "(if_false, if_true, condition: bool), both values of one type",
                    ));
                }
                let call = types[..2].iter().flatten().copied().next();
                let call = call.or(if typed[..2].iter().all(|t| matches!(t, Typed::Int(_))) {
                    Some(Type::I32)
                } else {
                    Some(Type::F32)
                });
                let f = self.concrete(typed[0], call, &args[0], at)?;
                let t = self.concrete(typed[1], call, &args[1], at)?;
                let ty = self.program.ty(f);
                if self.program.ty(t) != ty {
                    return Err(mismatch(
                        "(if_false, if_true, condition: bool), both values of one type",
                    ));
                }
                Ok(Typed::Node(self.add(Op::Call(func), vec![f, t, cond], ty)))
            }
        }
    }

    /// `{frame}_point(p)` (`point`) or `{frame}_vector(v)`: the vec3 carried out of the frame
    /// into the world, as sums of its axes scaled by the components (and its origin, for a
    /// point), so that both back ends compute it from the same nodes.
    fn transform(
        &mut self,
        name: &str,
        point: bool,
        args: &[Node],
        node: &Node,
        at: &At,
    ) -> Result<Typed, ExprError> {
        let suffix = if point { "_point" } else { "_vector" };
        let space = &name[..name.len() - suffix.len()];
        let Some(frame) = self.env.frames.iter().find(|f| f.name == space) else {
            let known: Vec<&str> = self.env.frames.iter().map(|f| f.name).collect();
            let message = match known.is_empty() {
                true => format!(
                    "`{name}` is not available here: only an effect's stacks have spaces to \
                     carry points out of"
                ),
                false => format!(
                    "`{name}` is not available here (spaces: {})",
                    known.join(", ")
                ),
            };
            return Err(at.error(ErrorKind::NotAllowed, &node.span, message));
        };
        if let Some(refusal) = &frame.refusal {
            return Err(at.error(
                ErrorKind::NotAllowed,
                &node.span,
                format!("`{name}` {refusal}"),
            ));
        }
        if args.len() != 1 {
            return Err(at.error(
                ErrorKind::Type,
                &node.span,
                format!("`{name}` takes 1 argument, found {}", args.len()),
            ));
        }
        let t = self.check(&args[0], at)?;
        let v = self.concrete(t, Some(Type::Vec3), &args[0], at)?;
        let ty = self.program.ty(v);
        if ty != Type::Vec3 {
            let what = if point { "point" } else { "direction" };
            return Err(at.error(
                ErrorKind::Type,
                &node.span,
                format!("`{name}` takes a vec3 {what}; found ({ty})"),
            ));
        }
        let axes = frame.axes.clone();
        let origin = frame.origin.clone();
        let mut sum = point.then(|| self.program.input(&origin, Type::Vec3));
        for (k, axis) in axes.iter().enumerate() {
            let axis = self.program.input(axis, Type::Vec3);
            let picks = [k as u8, 0, 0, 0];
            let c = self.add(Op::Swizzle { picks, len: 1 }, vec![v], Type::F32);
            let term = self.combine(BinaryOp::Mul, axis, c);
            sum = Some(match sum {
                None => term,
                Some(s) => self.combine(BinaryOp::Add, s, term),
            });
        }
        Ok(Typed::Node(sum.expect("three axes")))
    }

    /// A call of function `f`, compiled in place: the arguments (each of its parameter's
    /// type) stand for the parameters in its body.
    fn call_function(
        &mut self,
        f: &UserFunction,
        args: &[Node],
        node: &Node,
        at: &At,
    ) -> Result<NodeId, ExprError> {
        let name = &f.name;
        let want = f.parameters.len();
        if args.len() != want {
            let list: Vec<String> = f
                .parameters
                .iter()
                .map(|(n, t)| format!("{n}: {t}"))
                .collect();
            return Err(at.error(
                ErrorKind::Type,
                &node.span,
                format!(
                    "`{name}` takes {want} argument{} ({}), found {}",
                    if want == 1 { "" } else { "s" },
                    list.join(", "),
                    args.len()
                ),
            ));
        }
        let mut arguments = HashMap::new();
        for ((param, ty), arg) in f.parameters.iter().zip(args) {
            let t = self.check(arg, at)?;
            let id = self.finish(t, Some(*ty), arg, at).map_err(|mut e| {
                e.message = format!("{} (`{name}`'s parameter `{param}`)", e.message);
                e
            })?;
            arguments.insert(param.clone(), id);
        }
        let call = format!("{name}()");
        if let Some(start) = self.stack.iter().position(|n| *n == call) {
            let mut cycle: Vec<&str> = self.stack[start..].iter().map(String::as_str).collect();
            cycle.push(&call);
            return Err(at.error(
                ErrorKind::Cycle,
                &node.span,
                format!(
                    "the functions call one another in a circle: {}",
                    cycle.join(" → ")
                ),
            ));
        }
        self.stack.push(call);
        let saved = std::mem::replace(&mut self.arguments, arguments);
        // (within a named node, the body too reads the particle as it entered)
        let result = parse(&f.body)
            .and_then(|body| {
                let inner = At {
                    text: &f.body,
                    within: at.within,
                };
                let typed = self.check(&body, &inner)?;
                self.finish(typed, None, &body, &inner)
            })
            .map_err(|mut e| {
                e.message = format!(
                    "in function `{name}` (column {} of its body): {}",
                    e.column, e.message
                );
                e
            });
        self.arguments = saved;
        self.stack.pop();
        result
    }

    fn construct(
        &mut self,
        name: &str,
        args: &[Node],
        node: &Node,
        at: &At,
    ) -> Result<Typed, ExprError> {
        let n = match name {
            "vec2" => 2,
            "vec3" => 3,
            _ => 4,
        };
        let ty = Type::float_of(n).unwrap_or(Type::Vec4);
        let mut ids = Vec::new();
        let mut count = 0;
        for a in args {
            let t = self.check(a, at)?;
            let id = self.concrete(t, Some(Type::F32).filter(|_| self.ty(t).is_none()), a, at)?;
            let at_ty = self.program.ty(id);
            if !at_ty.is_float() {
                return Err(at.error(
                    ErrorKind::Type,
                    &a.span,
                    format!("`{name}` is built from f32s and float vectors; found {at_ty} (convert it with f32(…))"),
                ));
            }
            count += at_ty.components();
            ids.push(id);
        }
        let splat = ids.len() == 1 && count == 1;
        if count != n && !splat {
            return Err(at.error(
                ErrorKind::Type,
                &node.span,
                format!("`{name}` needs {n} components (or one f32 for all); found {count}"),
            ));
        }
        if ids.len() == 1 && count == n {
            // vec3(v) of a vec3: itself
            return Ok(Typed::Node(ids[0]));
        }
        Ok(Typed::Node(self.add(Op::Construct, ids, ty)))
    }

    fn convert(&mut self, name: &str, arg: &Node, at: &At) -> Result<Typed, ExprError> {
        let to = match name {
            "f32" => Type::F32,
            "i32" => Type::I32,
            "u32" => Type::U32,
            _ => Type::Bool,
        };
        let t = self.check(arg, at)?;
        let id = match t {
            // a literal converted is the literal of that type (`u32(3)`), checked for range
            Typed::Int(_) if to != Type::Bool => self.concrete(t, Some(to), arg, at)?,
            _ => self.concrete(t, None, arg, at)?,
        };
        let from = self.program.ty(id);
        if from.is_vector() {
            return Err(at.error(
                ErrorKind::Type,
                &arg.span,
                format!("`{name}` converts a scalar; found {from}"),
            ));
        }
        if from == to {
            return Ok(Typed::Node(id));
        }
        Ok(Typed::Node(self.add(Op::Convert, vec![id], to)))
    }
}

/// A literal's value, if `t` is one.
fn literal(t: Typed) -> Option<f64> {
    match t {
        Typed::Int(i) => Some(i as f64),
        Typed::Float(x) => Some(x),
        Typed::Node(_) => None,
    }
}

fn splat(ty: Type, x: f64) -> Value {
    let c = [x; 4];
    Value::from_components(ty, c)
}

/// An operation on two literals, done on them as written (whole numbers stay whole, and a
/// whole-number division that leaves a remainder is refused rather than truncated silently).
/// Why a constant `node` folded to `value` is refused: a float that is no finite number,
/// a whole number that wrapped (None: it is fine).
fn folded_problem(program: &Program, node: &ir::Node, value: Value) -> Option<String> {
    let ty = value.ty();
    let n = ty.components();
    let c = value.components();
    if ty.is_float() && c[..n].iter().any(|x| !x.is_finite()) {
        return Some(format!(
            "comes out as {value}, which is no finite number (the particles would carry it)"
        ));
    }
    let Op::Binary(op @ (BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul)) = node.op else {
        return None;
    };
    let range = match ty {
        Type::I32 => i32::MIN as f64..=i32::MAX as f64,
        Type::U32 => 0.0..=u32::MAX as f64,
        _ => return None,
    };
    let arg = |k: usize| {
        program
            .value(node.args[k])
            .map(|v| (v.components(), v.ty()))
    };
    let (a, b) = (arg(0)?, arg(1)?);
    let at = |(c, t): &([f64; 4], Type), i: usize| c[if t.components() == 1 { 0 } else { i }];
    for i in 0..n {
        let (x, y) = (at(&a, i), at(&b, i));
        let exact = match op {
            BinaryOp::Add => x + y,
            BinaryOp::Sub => x - y,
            _ => x * y,
        };
        if !range.contains(&exact) {
            return Some(format!(
                "`{x} {} {y}` is out of the range of {} and would wrap to {value}",
                op.symbol(),
                ty
            ));
        }
    }
    None
}

fn fold_literals(op: BinaryOp, a: Typed, b: Typed) -> Option<Result<Typed, String>> {
    use BinaryOp::*;
    let (x, y, ints) = match (a, b) {
        (Typed::Int(x), Typed::Int(y)) => (x as f64, y as f64, Some((x, y))),
        (Typed::Int(x), Typed::Float(y)) => (x as f64, y, None),
        (Typed::Float(x), Typed::Int(y)) => (x, y as f64, None),
        (Typed::Float(x), Typed::Float(y)) => (x, y, None),
        _ => return None,
    };
    if op.logical() {
        return Some(Err(format!("`{}` takes bools, found numbers", op.symbol())));
    }
    if op.compares() {
        return None;
    }
    Some(match ints {
        Some((x, y)) => {
            let r = match op {
                Add => x.checked_add(y),
                Sub => x.checked_sub(y),
                Mul => x.checked_mul(y),
                Div | Rem if y == 0 => {
                    return Some(Err(format!("`{x} {} 0` divides by zero", op.symbol())))
                }
                Div if x % y != 0 => {
                    return Some(Err(format!(
                        "`{x} / {y}` divides whole numbers and would drop the remainder: write {x}.0 / {y} for {} (or {x}i / {y}i for whole-number division)",
                        x as f64 / y as f64
                    )))
                }
                Div => Some(x / y),
                Rem => Some(x % y),
                _ => unreachable!("arithmetic only"),
            };
            r.filter(|r| r.abs() <= u32::MAX as i64)
                .map(Typed::Int)
                .ok_or_else(|| format!("`{x} {} {y}` is out of range", op.symbol()))
        }
        None => Ok(Typed::Float(match op {
            Add => x + y,
            Sub => x - y,
            Mul => x * y,
            Div => x / y,
            Rem => x - y * (x / y).trunc(),
            _ => unreachable!("arithmetic only"),
        })),
    })
}
