//! The effect graph: an effect's parameters, named nodes, curves and gradients, and each
//! emitter's stacks of lines (`init`: once at birth; `update`: every step), compiled into
//! one typed program per emitter and stage that both the WGSL generator (the specialised
//! emit and simulate) and the CPU evaluator (the CPU twin) read.
//!
//! A stack's lines run in order: each reads what the lines before it wrote (`size *= 2`
//! after `size = 0.1` reads 0.1), while the named nodes read the particle as it entered the
//! stage. `force += …` sums accelerations the step then applies with gravity and drag;
//! `kill if …` joins its conditions: the particle dies where any holds.

pub(crate) mod attributes;
#[cfg(test)]
pub(crate) mod cpu;
mod fold;
pub(crate) mod module;
pub(crate) mod spawn;
pub(crate) mod wgsl;

use serde::{Deserialize, Serialize};

use crate::expr::{
    Action, BinaryOp, Compiler, Curve, Env, ErrorKind, ExprError, Gradient, Kind, Node, NodeId,
    Program, Statement, TableKind, Type, UserFunction, Value, SEED_CALL, SEED_PARTICLE, TABLE_BASE,
};
use attributes::{Attribute, Clock, Place};

use super::EffectDesc;

/// Most parameters an effect may declare (each takes one 16-byte slot of its uniform block).
pub const MAX_PARAMETERS: usize = 16;

/// Most components an effect's own attributes may have in all (a vec3 takes three): 64
/// bytes a particle, so that they never need a larger buffer than the particles do.
pub const MAX_ATTRIBUTE_WORDS: usize = 16;

/// A value the host sets while the effect runs
/// ([`ParticleRenderer::set_parameter`](crate::ParticleRenderer::set_parameter)), read by
/// name in expressions. Its type is its default's; a value set outside `min..=max` (each
/// component of a vector, each bound where given) is refused.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Parameter {
    /// Its value until the host sets one: a number, `true`/`false`, or a constant
    /// expression in quotes (`"vec3(1.0, 0.5, 0.2)"`, `"3u"`).
    pub default: Value,
    /// The least value of each component (none: no bound); a file writes the number.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "bound")]
    pub min: Option<f32>,
    /// The greatest value of each component (none: no bound); a file writes the number.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "bound")]
    pub max: Option<f32>,
}

/// A bound as a file writes it: the number (left out: none).
mod bound {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &Option<f32>, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f32(v.unwrap_or(f32::NAN))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f32>, D::Error> {
        f32::deserialize(d).map(Some)
    }
}

impl Parameter {
    /// A parameter of `default`'s type, unbounded.
    pub fn new(default: impl Into<Value>) -> Self {
        Parameter {
            default: default.into(),
            min: None,
            max: None,
        }
    }

    /// Bounded to `min..=max` (each component).
    pub fn range(self, min: f32, max: f32) -> Self {
        Parameter {
            min: Some(min),
            max: Some(max),
            ..self
        }
    }

    /// What values it takes, in words: `f32 in 0..=4`.
    pub fn allowed(&self) -> String {
        let ty = self.default.ty();
        let lo = self.min.map_or(String::new(), |m| format!("{m}"));
        let hi = self.max.map_or(String::new(), |m| format!("{m}"));
        match (self.min, self.max, ty) {
            (None, None, _) | (_, _, Type::Bool) => format!("a value of type {ty}"),
            _ if ty.is_vector() => format!("a {ty} with each component in {lo}..={hi}"),
            _ => format!("a value of type {ty} in {lo}..={hi}"),
        }
    }

    /// Whether `value` is one it takes: its type, finite, every component in range.
    pub fn admits(&self, value: Value) -> bool {
        if value.ty() != self.default.ty() {
            return false;
        }
        if value.ty() == Type::Bool {
            return true;
        }
        let n = value.ty().components();
        value.components()[..n].iter().all(|&c| {
            c.is_finite()
                && self.min.is_none_or(|m| c >= m as f64)
                && self.max.is_none_or(|m| c <= m as f64)
        })
    }
}

/// What a stack's expressions can read besides the effect's own declarations: each
/// attribute of a particle and the clock, as (name, type, what it is).
pub fn inputs() -> Vec<(&'static str, Type, &'static str)> {
    let attributes = Attribute::ALL.map(|a| (a.name(), a.ty(), a.doc()));
    let clock = Clock::ALL.map(|c| (c.name(), Type::F32, c.doc()));
    let places = Place::ALL.map(|p| (p.name(), Type::Vec3, p.doc()));
    attributes.into_iter().chain(clock).chain(places).collect()
}

/// Where a stack runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stage {
    /// Once, as a particle is born (the emit pass), after its ranges are drawn.
    Init,
    /// Every step (the simulate pass), before the step's forces are applied.
    Update,
    /// The render stage: how the particle is drawn, as it is born (emit) and after every
    /// step (simulate); it sets what is drawn, never the particle the other stages read.
    Draw,
}

impl Stage {
    /// Its field in an emitter.
    pub const fn field(self) -> &'static str {
        match self {
            Stage::Init => "init",
            Stage::Update => "update",
            Stage::Draw => "draw",
        }
    }
}

/// What a draw stack may set: the look word's colour (or its alpha alone), size, rotation.
const DRAWN: [Attribute; 3] = [Attribute::Color, Attribute::Size, Attribute::Rotation];

/// What an input of a stage's program reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Source {
    Attribute(Attribute),
    Clock(Clock),
    Place(Place),
    /// The effect's parameter of this slot.
    Parameter(usize),
    /// The effect's own attribute of this index ([`Graph::attributes`]).
    Custom(usize),
    /// The seed of `rand()`: new at each evaluation.
    CallSeed,
    /// The seed of `particle_rand(k)`: the particle's for its life.
    ParticleSeed,
    /// The effect's first row of the table.
    TableBase,
}

/// One emitter's stack of one stage, compiled.
#[derive(Clone, Debug)]
pub(crate) struct StageProgram {
    pub program: Program,
    /// What each of the program's inputs reads.
    pub sources: Vec<Source>,
    /// The attributes the stack writes, each with its final value, in attribute order.
    pub writes: Vec<(Attribute, NodeId)>,
    /// The effect's own attributes it writes (their index), each with its final value.
    pub stores: Vec<(usize, NodeId)>,
    /// The acceleration its `force` lines add (m/s²).
    pub force: Option<NodeId>,
    /// Where the particle dies.
    pub kill: Option<NodeId>,
}

/// An effect's graph, compiled: what its passes generate code from and its twin evaluates.
#[derive(Clone, Debug, Default)]
pub(crate) struct Graph {
    /// The parameters in slot order (by name), with their declarations.
    pub parameters: Vec<(String, Parameter)>,
    /// The curves' and gradients' baked rows, in the order expressions index them.
    pub table: Vec<[f32; 4]>,
    /// The effect's own attributes (by name), each stored per particle.
    pub attributes: Vec<Custom>,
    /// Per emitter: its init stack, if it has one.
    pub init: Vec<Option<StageProgram>>,
    /// Per emitter: its update stack, if it has one.
    pub update: Vec<Option<StageProgram>>,
    /// Per emitter: its draw stack, if it has one.
    pub draw: Vec<Option<StageProgram>>,
    /// Per emitter: its spawn lines, if it has any.
    pub spawn: Vec<Option<spawn::SpawnProgram>>,
    /// The attributes some draw stack sets, each with the word of a particle's record that
    /// holds its own value meanwhile (the look word holds the drawn one): colour packed as
    /// the look word packs it, size, rotation at age 0.
    pub kept: Vec<(Attribute, u32)>,
    /// The force the update stacks add where it is a gravity and a drag, folded into the
    /// effect's own (`fold.rs`).
    pub folded: Option<fold::Linear>,
}

/// One of an effect's own attributes: its name, the value a particle is born with (its
/// type), and its first word in a particle's record of them.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Custom {
    pub name: String,
    pub initial: Value,
    pub offset: u32,
}

impl Custom {
    /// Its words in a particle's record.
    pub fn words(&self) -> std::ops::Range<usize> {
        let start = self.offset as usize;
        start..start + self.initial.ty().components()
    }
}

/// A part of an effect's graph that does not compile: the field it is written in
/// (`emitters[0].update[2]`, `nodes.heat`), its text, and what is wrong at which column of
/// that text.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{field} `{text}`: {error}")]
pub struct GraphError {
    /// The field's path.
    pub field: String,
    /// The line or expression as written.
    pub text: String,
    /// What is wrong, and the column inside `text`.
    pub error: ExprError,
}

impl Graph {
    /// The stacks of `stage`, per emitter.
    pub fn stage(&self, stage: Stage) -> &[Option<StageProgram>] {
        match stage {
            Stage::Init => &self.init,
            Stage::Update => &self.update,
            Stage::Draw => &self.draw,
        }
    }

    /// What each emitter spawns this frame: its rate and burst factor as its spawn lines set
    /// them from `inputs` (its `rate` and 1 without lines; none at all where no emitter has
    /// spawn lines).
    pub fn spawning(&self, desc: &EffectDesc, inputs: &spawn::SpawnInputs) -> Vec<spawn::Spawning> {
        if self.spawn.iter().all(Option::is_none) {
            return Vec::new(); // (the clock reads the emitters' own)
        }
        desc.emitters
            .iter()
            .zip(&self.spawn)
            .enumerate()
            .map(|(i, (e, program))| match program {
                Some(p) => p.run((i, e.rate), inputs, &self.table),
                None => spawn::Spawning {
                    rate: e.rate,
                    burst: 1.0,
                },
            })
            .collect()
    }

    /// The record's word that keeps `attribute`'s own value, where a draw stack sets it.
    pub fn kept(&self, attribute: Attribute) -> Option<u32> {
        self.kept
            .iter()
            .find(|(a, _)| *a == attribute)
            .map(|&(_, k)| k)
    }

    /// The slot of parameter `name`, and its declaration.
    pub fn parameter(&self, name: &str) -> Option<(usize, &Parameter)> {
        self.parameters
            .iter()
            .enumerate()
            .find(|(_, (n, _))| n == name)
            .map(|(slot, (_, p))| (slot, p))
    }

    /// Words of a particle's record: the effect's own attributes, then the attributes a
    /// draw stack sets kept (0: none of either).
    pub fn stride(&self) -> u32 {
        let own: u32 = self.attributes.iter().map(|c| c.words().len() as u32).sum();
        own + self.kept.len() as u32
    }

    /// Whether the pass of `stage` (emit for `Init`, simulate for `Update`) needs generated
    /// code: some emitter has a stack of it or a draw stack (run by both), or (born with
    /// their initial values) the effect declares attributes of its own.
    pub fn generates(&self, stage: Stage) -> bool {
        let stacks = |stage| self.stage(stage).iter().any(Option::is_some);
        let draws = stacks(Stage::Draw);
        match stage {
            Stage::Init => stacks(Stage::Init) || draws || !self.attributes.is_empty(),
            Stage::Update => stacks(Stage::Update) || draws,
            Stage::Draw => draws,
        }
    }

    /// A particle's record of the effect's own attributes as it is born (before its init
    /// stack runs; the kept attributes' words are then filled from the particle).
    pub fn initial_record(&self) -> Vec<u32> {
        let mut record = vec![0; self.stride() as usize];
        for c in &self.attributes {
            let words = c.words();
            let n = words.len();
            record[words].copy_from_slice(&c.initial.to_words()[..n]);
        }
        record
    }

    /// The parameters' default values, as the uniform block holds them.
    pub fn default_block(&self) -> [[u32; 4]; MAX_PARAMETERS] {
        let mut block = [[0; 4]; MAX_PARAMETERS];
        for (slot, (_, p)) in self.parameters.iter().enumerate().take(MAX_PARAMETERS) {
            block[slot] = p.default.to_words();
        }
        block
    }

    /// Compile `desc`'s graph; the first part that does not compile is the error.
    pub fn compile(desc: &EffectDesc) -> Result<Graph, GraphError> {
        let env = environment(desc)?;
        // every function compiles on its own, called or not
        for (field, f) in functions(desc)? {
            Compiler::new(&env)
                .check_function(&f)
                .map_err(|error| GraphError {
                    field: format!("{field}.body"),
                    text: f.body.clone(),
                    error,
                })?;
        }
        // every named node compiles on its own, used or not
        for (name, expr) in &desc.nodes {
            // (by name, so that a cycle is named from this node round)
            let mut c = Compiler::new(&env);
            let by_name = Node::new(Kind::Name(name.clone()), 0..name.len());
            c.compile_parsed(&by_name, name, None)
                .map_err(|error| GraphError {
                    field: format!("nodes.{name}"),
                    text: expr.text().to_string(),
                    error,
                })?;
        }
        let mut graph = Graph {
            parameters: desc
                .parameters
                .iter()
                .map(|(n, p)| (n.clone(), p.clone()))
                .collect(),
            table: table(desc),
            attributes: customs(desc),
            ..Graph::default()
        };
        // (random numbers are drawn where particles are born and step, not where drawn)
        let drawn = Env {
            random: false,
            ..env.clone()
        };
        for (i, e) in desc.emitters.iter().enumerate() {
            let prefix = format!("emitters[{i}].spawn");
            graph.spawn.push(spawn::compile(desc, &env, e, &prefix)?);
            let stages = [
                (Stage::Init, &e.init, &env),
                (Stage::Update, &e.update, &env),
                (Stage::Draw, &e.draw, &drawn),
            ];
            for (stage, lines, env) in stages {
                let prefix = format!("emitters[{i}].{}", stage.field());
                let compiled = stack(env, desc, lines, stage, &prefix)?;
                match stage {
                    Stage::Init => graph.init.push(compiled),
                    Stage::Update => graph.update.push(compiled),
                    Stage::Draw => graph.draw.push(compiled),
                }
            }
        }
        graph.fold_forces(desc.forces.drag);
        // what the draw stacks set is kept in the record after the effect's own attributes
        let first = graph.stride();
        let set = |a: Attribute| {
            graph
                .draw
                .iter()
                .flatten()
                .any(|s| s.writes.iter().any(|(w, _)| *w == a))
        };
        let kept: Vec<Attribute> = DRAWN.into_iter().filter(|&a| set(a)).collect();
        graph.kept = kept
            .into_iter()
            .enumerate()
            .map(|(k, a)| (a, first + k as u32))
            .collect();
        Ok(graph)
    }
}

/// The hidden inputs every stage's program may read, after the named ones.
const HIDDEN: [(&str, Source); 3] = [
    (SEED_CALL, Source::CallSeed),
    (SEED_PARTICLE, Source::ParticleSeed),
    (TABLE_BASE, Source::TableBase),
];

/// What the effect's expressions can name: the attributes, the clock, the parameters (by
/// name), the named nodes, the curves and gradients. A name declared twice, or a
/// declaration that takes an attribute's or the clock's name, is refused.
fn environment(desc: &EffectDesc) -> Result<Env, GraphError> {
    let mut env = Env {
        random: true,
        ..Env::default()
    };
    for a in Attribute::ALL {
        env.inputs.push((a.name().to_string(), a.ty()));
    }
    for c in Clock::ALL {
        env.inputs.push((c.name().to_string(), Type::F32));
    }
    for p in Place::ALL {
        env.inputs.push((p.name().to_string(), Type::Vec3));
    }
    let taken = |name: &str| {
        Attribute::by_name(name).is_some()
            || Clock::ALL.iter().any(|c| c.name() == name)
            || Place::ALL.iter().any(|p| p.name() == name)
            || name == "force"
    };
    let declared = desc
        .parameters
        .keys()
        .map(|n| ("parameters", n))
        .chain(desc.attributes.keys().map(|n| ("attributes", n)))
        .chain(desc.nodes.keys().map(|n| ("nodes", n)))
        .chain(desc.curves.keys().map(|n| ("curves", n)))
        .chain(desc.gradients.keys().map(|n| ("gradients", n)));
    let mut seen: Vec<(&str, &String)> = Vec::new();
    for (section, name) in declared {
        let clash = if taken(name) {
            Some("the name of an attribute, of the clock or of origin or eye".to_string())
        } else {
            seen.iter()
                .find(|(_, n)| *n == name)
                .map(|(s, _)| format!("the name of one of the {s} too"))
        };
        let valid = name.starts_with(|c: char| c.is_alphabetic() || c == '_')
            && name.chars().all(|c| c.is_alphanumeric() || c == '_');
        let problem = match (clash, valid) {
            (_, false) => {
                Some("not a name (letters, digits and _, not starting with a digit)".into())
            }
            (Some(c), _) => Some(format!("a name already taken: {c}")),
            _ => None,
        };
        if let Some(problem) = problem {
            return Err(GraphError {
                field: format!("{section}.{name}"),
                text: name.clone(),
                error: ExprError::new(ErrorKind::NotAllowed, name, 0..name.len(), problem),
            });
        }
        seen.push((section, name));
    }
    for (name, p) in &desc.parameters {
        env.inputs.push((name.clone(), p.default.ty()));
    }
    for (name, initial) in &desc.attributes {
        env.inputs.push((name.clone(), initial.ty()));
    }
    for (name, ty) in HIDDEN.map(|(n, _)| (n, Type::U32)) {
        env.inputs.push((name.to_string(), ty));
    }
    for (name, expr) in &desc.nodes {
        env.lets.push((name.clone(), expr.text().to_string()));
    }
    for name in desc.curves.keys() {
        env.tables.push((name.clone(), TableKind::Curve));
    }
    for name in desc.gradients.keys() {
        env.tables.push((name.clone(), TableKind::Gradient));
    }
    env.functions = functions(desc)?.into_iter().map(|(_, f)| f).collect();
    Ok(env)
}

/// The functions the effect declares and imports, each with the field it is declared in
/// (`functions.orbit`, `imports[0].vortex`). A module not read, a function named as a
/// built-in one or declared twice, and a parameter written wrong are refused.
fn functions(desc: &EffectDesc) -> Result<Vec<(String, UserFunction)>, GraphError> {
    if let Some((k, import)) = desc.imports.iter().enumerate().nth(desc.imported.len()) {
        let message = "the module file is not read: load the effect with \
            EffectDesc::from_file (which reads it relative to the file), or call \
            EffectDesc::resolve_imports";
        return Err(GraphError {
            field: format!("imports[{k}]"),
            text: import.clone(),
            error: ExprError::new(ErrorKind::NotAllowed, import, 0..import.len(), message),
        });
    }
    let own = desc
        .functions
        .iter()
        .map(|(name, f)| (format!("functions.{name}"), name, f));
    let imported = desc.imported.iter().enumerate().flat_map(|(k, m)| {
        m.functions
            .iter()
            .map(move |(name, f)| (format!("imports[{k}].{name}"), name, f))
    });
    let mut out: Vec<(String, UserFunction)> = Vec::new();
    for (field, name, f) in own.chain(imported) {
        let clash = if crate::expr::callable().any(|n| n == name) {
            Some("the name of a built-in function".to_string())
        } else {
            out.iter()
                .find(|(_, g)| g.name == *name)
                .map(|(other, _)| format!("declared as {other} too"))
        };
        if let Some(clash) = clash {
            let message = format!("a function name already taken: {clash}");
            return Err(GraphError {
                field,
                text: name.clone(),
                error: ExprError::new(ErrorKind::NotAllowed, name, 0..name.len(), message),
            });
        }
        let parameters = f.signature().map_err(|(index, error)| GraphError {
            field: format!("{field}.parameters[{index}]"),
            text: f.parameters[index].clone(),
            error,
        })?;
        let function = UserFunction {
            name: name.clone(),
            parameters,
            body: f.body.text().to_string(),
        };
        out.push((field, function));
    }
    Ok(out)
}

/// The baked rows of the curves, then the gradients, by name (the order of
/// [`environment`]'s tables).
fn table(desc: &EffectDesc) -> Vec<[f32; 4]> {
    let curves = desc.curves.values().map(Curve::bake);
    let gradients = desc.gradients.values().map(Gradient::bake);
    curves.chain(gradients).flatten().collect()
}

/// The effect's own attributes in name order, each after the one before in the record.
fn customs(desc: &EffectDesc) -> Vec<Custom> {
    let mut offset = 0;
    let mut out = Vec::new();
    for (name, &initial) in &desc.attributes {
        out.push(Custom {
            name: name.clone(),
            initial,
            offset,
        });
        offset += initial.ty().components() as u32;
    }
    out
}

/// One emitter's stack of `stage` compiled (None when it has no lines).
fn stack(
    env: &Env,
    desc: &EffectDesc,
    lines: &[Statement],
    stage: Stage,
    prefix: &str,
) -> Result<Option<StageProgram>, GraphError> {
    if lines.is_empty() {
        return Ok(None);
    }
    let mut c = Compiler::new(env);
    let mut writes: Vec<(Attribute, NodeId)> = Vec::new();
    let mut stores: Vec<(usize, NodeId)> = Vec::new();
    let mut force: Option<NodeId> = None;
    let mut kill: Option<NodeId> = None;
    for (k, line) in lines.iter().enumerate() {
        let fail = |error: ExprError| GraphError {
            field: format!("{prefix}[{k}]"),
            text: line.text().to_string(),
            error,
        };
        let value = line.value();
        if stage == Stage::Draw {
            if let Some(refusal) = drawn_target(line) {
                return Err(fail(refusal));
            }
        }
        // `alpha = a` in a draw stack: the colour with its alpha set
        let alpha: Node;
        let (action, value_root) = match line.action() {
            Action::Set { target, op } if stage == Stage::Draw && target == "alpha" => {
                let span = value.root().span.clone();
                let color = Node::new(Kind::Name("color".into()), span.clone());
                let old = Node::new(
                    Kind::Swizzle {
                        value: Box::new(color.clone()),
                        components: "a".into(),
                    },
                    span.clone(),
                );
                let a = match op {
                    None => value.root().clone(),
                    Some(op) => Node::new(
                        Kind::Binary(*op, Box::new(old), Box::new(value.root().clone())),
                        span.clone(),
                    ),
                };
                let rgb = Node::new(
                    Kind::Swizzle {
                        value: Box::new(color),
                        components: "rgb".into(),
                    },
                    span.clone(),
                );
                let call = Kind::Call {
                    name: "vec4".into(),
                    name_span: span.clone(),
                    args: vec![rgb, a],
                };
                alpha = Node::new(call, span);
                (
                    Action::Set {
                        target: "color".into(),
                        op: None,
                    },
                    &alpha,
                )
            }
            other => (other.clone(), value.root()),
        };
        match &action {
            Action::Kill => {
                if stage == Stage::Init {
                    let message =
                        "`kill if` belongs in the update stack (a particle is born alive)";
                    return Err(fail(
                        line.target_error(ErrorKind::NotAllowed, message.into()),
                    ));
                }
                let id = c
                    .compile_parsed(value.root(), value.text(), Some(Type::Bool))
                    .map_err(|e| fail(line.locate(e)))?;
                kill = Some(match kill {
                    None => id,
                    Some(before) => c.combine(BinaryOp::Or, before, id),
                });
            }
            Action::Set { target, op } if target == "force" => {
                let message = match (stage, op) {
                    (Stage::Init, _) => {
                        Some("`force` belongs in the update stack (forces act on steps)")
                    }
                    (_, Some(BinaryOp::Add | BinaryOp::Sub)) => None,
                    _ => Some("`force` only adds up: write `force += acceleration` (or `-=`)"),
                };
                if let Some(message) = message {
                    return Err(fail(
                        line.target_error(ErrorKind::NotAllowed, message.into()),
                    ));
                }
                let id = c
                    .compile_parsed(value.root(), value.text(), Some(Type::Vec3))
                    .map_err(|e| fail(line.locate(e)))?;
                let id = match op {
                    Some(BinaryOp::Sub) => c.negate(id),
                    _ => id,
                };
                force = Some(match force {
                    None => id,
                    Some(before) => c.combine(BinaryOp::Add, before, id),
                });
            }
            Action::Set { target, op } => {
                let custom = desc.attributes.get(target);
                let builtin = Attribute::by_name(target);
                let ty = match (builtin, custom) {
                    (Some(a), _) => a.ty(),
                    (None, Some(initial)) => initial.ty(),
                    (None, None) => return Err(fail(unknown_target(line, target, desc))),
                };
                if builtin.is_some_and(|a| !a.writable()) {
                    let message = format!(
                        "`{target}` is read only (the engine keeps a particle's age, id and emitter)"
                    );
                    return Err(fail(line.target_error(ErrorKind::NotAllowed, message)));
                }
                let root = match op {
                    None => value_root.clone(),
                    Some(op) => {
                        let span = value_root.span.clone();
                        let name = Node::new(Kind::Name(target.clone()), span.clone());
                        let both = Kind::Binary(*op, Box::new(name), Box::new(value_root.clone()));
                        Node::new(both, span)
                    }
                };
                let id = c
                    .compile_parsed(&root, value.text(), Some(ty))
                    .map_err(|e| fail(line.locate(e)))?;
                c.bind(target, id);
                match builtin {
                    Some(attribute) => {
                        writes.retain(|(a, _)| *a != attribute);
                        writes.push((attribute, id));
                    }
                    None => {
                        let index = desc.attributes.keys().position(|n| n == target);
                        let index = index.unwrap_or_else(|| unreachable!("declared above"));
                        stores.retain(|(i, _)| *i != index);
                        stores.push((index, id));
                    }
                }
            }
        }
    }
    writes.sort_by_key(|(a, _)| Attribute::ALL.iter().position(|b| b == a));
    stores.sort_by_key(|&(i, _)| i);
    let sources = c
        .program
        .inputs
        .iter()
        .map(|input| source(&input.name, desc))
        .collect();
    Ok(Some(StageProgram {
        program: c.program,
        sources,
        writes,
        stores,
        force,
        kill,
    }))
}

/// Why a draw stack's `line` is refused, if it is: a draw stack sets only what is drawn.
fn drawn_target(line: &Statement) -> Option<ExprError> {
    let what = "a draw stack says how a particle is drawn (color, alpha, size, rotation) and \
        never changes the particle";
    let message = match line.action() {
        Action::Kill => format!("`kill if` belongs in the update stack: {what}"),
        Action::Set { target, .. } if target == "force" => {
            format!("`force` belongs in the update stack: {what}")
        }
        Action::Set { target, .. } => {
            let drawn = DRAWN.iter().any(|a| a.name() == target) || target == "alpha";
            if drawn {
                return None;
            }
            format!("`{target}` cannot be written in the render stage: {what}; set it in the update stack")
        }
    };
    Some(line.target_error(ErrorKind::NotAllowed, message))
}

/// What the input named `name` reads (every input a program has was declared by
/// [`environment`]).
fn source(name: &str, desc: &EffectDesc) -> Source {
    if let Some(a) = Attribute::by_name(name) {
        return Source::Attribute(a);
    }
    if let Some(&c) = Clock::ALL.iter().find(|c| c.name() == name) {
        return Source::Clock(c);
    }
    if let Some(&p) = Place::ALL.iter().find(|p| p.name() == name) {
        return Source::Place(p);
    }
    if let Some(&(_, s)) = HIDDEN.iter().find(|(n, _)| *n == name) {
        return s;
    }
    if let Some(index) = desc.attributes.keys().position(|n| n == name) {
        return Source::Custom(index);
    }
    let slot = desc.parameters.keys().position(|n| n == name);
    Source::Parameter(slot.unwrap_or_else(|| unreachable!("`{name}` is declared")))
}

/// A line that writes something that is no attribute: the nearest attributes, or why a
/// parameter or node cannot be written.
fn unknown_target(line: &Statement, target: &str, desc: &EffectDesc) -> ExprError {
    let message = if desc.parameters.contains_key(target) {
        format!("`{target}` is a parameter: the host sets it (set_parameter); a stack reads it")
    } else if desc.nodes.contains_key(target) {
        format!("`{target}` is a named node: it is computed, not written")
    } else {
        let known = Attribute::ALL
            .iter()
            .filter(|a| a.writable())
            .map(|a| a.name())
            .chain(desc.attributes.keys().map(String::as_str))
            .chain(["force"]);
        let near = crate::expr::nearest_names(target, known);
        format!("`{target}` is no attribute a line can write{near}")
    };
    line.target_error(ErrorKind::UnknownName, message)
}

#[cfg(test)]
mod tests;
