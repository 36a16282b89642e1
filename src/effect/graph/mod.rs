//! The effect graph: an effect's parameters, attributes of its own, named nodes, curves,
//! gradients and functions (its own and its modules'), and each emitter's stacks of lines
//! (`spawn`: its rate and bursts, once a frame; `init`: once at birth; `update`: every step;
//! `draw`: how it is drawn), compiled into one typed program per emitter and stage that both
//! the WGSL generator (the specialised emit and simulate) and the CPU evaluator (the spawn
//! stage, the CPU twin) read.
//!
//! A stack's lines run in order: each reads what the lines before it wrote (`size *= 2`
//! after `size = 0.1` reads 0.1), while the named nodes read the particle as it entered the
//! stage. `force += …` sums accelerations the step then applies with gravity and drag
//! (folded into them where it is one: `fold.rs`); `kill if …` joins its conditions: the
//! particle dies where any holds.

pub(crate) mod attributes;
#[cfg(test)]
pub(crate) mod cpu;
mod fold;
pub(crate) mod module;
mod names;
mod parameter;
pub(crate) mod spawn;
mod stack;
pub(crate) mod wgsl;

pub use parameter::Parameter;

use crate::expr::{Compiler, Env, ExprError, Kind, Node, NodeId, Program, Type, Value};
use attributes::{Attribute, Clock, Place, Space};
use names::{customs, environment, functions, table};

use super::EffectDesc;

/// Most parameters an effect may declare (each takes one 16-byte slot of its uniform block).
pub const MAX_PARAMETERS: usize = 16;

/// Most components an effect's own attributes may have in all (a vec3 takes three): 64
/// bytes a particle, so that they never need a larger buffer than the particles do.
pub const MAX_ATTRIBUTE_WORDS: usize = 16;

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
    /// Axis `k` of a space (world).
    Axis(Space, u8),
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
    /// The emitters whose draw stacks were their looks over life, folded (`fold.rs`).
    pub looks: Vec<(usize, crate::effect::OverLife)>,
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
#[error("{field} `{}`: {error}", crate::error::shortened(.text))]
pub struct GraphError {
    /// The field's path.
    pub field: String,
    /// The line or expression as written.
    pub text: String,
    /// What is wrong, and the column inside `text`.
    pub error: ExprError,
}

#[cfg(test)]
thread_local! {
    /// Graphs compiled on this thread so far (tests count one compile per add).
    static COMPILES: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

impl Graph {
    /// Graphs compiled on this thread so far.
    #[cfg(test)]
    pub fn compiles_on_this_thread() -> u64 {
        COMPILES.with(std::cell::Cell::get)
    }

    /// The stacks of `stage`, per emitter.
    pub fn stage(&self, stage: Stage) -> &[Option<StageProgram>] {
        match stage {
            Stage::Init => &self.init,
            Stage::Update => &self.update,
            Stage::Draw => &self.draw,
        }
    }

    /// Whether some emitter has spawn lines.
    pub fn spawns(&self) -> bool {
        self.spawn.iter().any(Option::is_some)
    }

    /// What each emitter spawns this frame: its rate and burst factor as its spawn lines set
    /// them from `inputs` (its `rate` and 1 without lines; none at all where no emitter has
    /// spawn lines).
    pub fn spawning(&self, desc: &EffectDesc, inputs: &spawn::SpawnInputs) -> Vec<spawn::Spawning> {
        if !self.spawns() {
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
        #[cfg(test)]
        COMPILES.with(|c| c.set(c.get() + 1));
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
        // every named node compiles, used or not: each once, the nodes it reads shared
        // (a chain of nodes compiled again for each was quadratic in its length)
        let mut c = Compiler::new(&env);
        for (name, expr) in &desc.nodes {
            // (by name, so that a cycle is named from this node round)
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
                let compiled = stack::stack(env, desc, lines, stage, &prefix)?;
                match stage {
                    Stage::Init => graph.init.push(compiled),
                    Stage::Update => graph.update.push(compiled),
                    Stage::Draw => graph.draw.push(compiled),
                }
            }
        }
        graph.fold_forces(&desc.forces);
        graph.fold_looks(desc);
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

#[cfg(test)]
mod tests;
