//! The spawn stage: each emitter's `spawn` lines, run on the CPU once a frame before its
//! spawns are counted, setting its `rate` (particles per second) and `burst` (the factor
//! every burst due in the frame multiplies its count by) from the clock, the effect's
//! parameters and where the effect and the camera are. The evaluator is the one the CPU
//! twin checks the GPU's stacks with.

use glam::Vec3;

use super::attributes::{Attribute, Clock, Place, Placement, Space};
use super::{GraphError, MAX_PARAMETERS};
use crate::effect::{EffectDesc, EmitterDesc};
use crate::expr::{
    evaluate, Action, Compiler, Components, Context, Env, ErrorKind, Kind, Node, NodeId, Precision,
    Program, Statement, Type, Value, TABLE_BASE,
};

/// What a spawn program's input reads.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum SpawnSource {
    Clock(Clock),
    Place(Place),
    Axis(Space, u8),
    Parameter(usize),
    /// Where the effect's curves and gradients start in its table (its own: row 0).
    TableBase,
    /// The emitter's `rate` field.
    Rate,
    /// 1: every burst's count as written.
    Burst,
}

/// One emitter's spawn lines, compiled.
#[derive(Clone, Debug)]
pub(crate) struct SpawnProgram {
    pub program: Program,
    pub sources: Vec<SpawnSource>,
    /// The rate the lines leave, and the burst factor, where they set them.
    pub rate: Option<NodeId>,
    pub burst: Option<NodeId>,
}

/// What the spawn stage reads besides the clock, and where a frame is.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SpawnInputs<'a> {
    /// Seconds since the effect started, at the frame's start, and the frame's seconds.
    pub time: f32,
    pub dt: f32,
    /// The parameters' uniform block.
    pub params: &'a [[u32; 4]; MAX_PARAMETERS],
    /// Where the effect, its emitters and the camera are.
    pub placement: Placement<'a>,
}

/// What each emitter spawns by this frame: its rate (particles per second) and the factor of
/// its bursts' counts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Spawning {
    pub rate: f32,
    pub burst: f32,
}

/// The names the spawn stage reads: the clock, `origin`, `emitter_origin`, `eye`, the
/// parameters, and `rate`
/// and `burst` as the lines before left them (the particles' attributes are refused: no
/// particle exists yet).
fn environment(desc: &EffectDesc, env: &Env) -> Env {
    let mut inputs: Vec<(String, Type)> = Vec::new();
    for c in Clock::ALL {
        inputs.push((c.name().into(), Type::F32));
    }
    for p in Place::ALL {
        inputs.push((p.name().into(), Type::Vec3));
    }
    // (`instance_origin` is a particle's: refused below, with the attributes)
    for (name, p) in &desc.parameters {
        inputs.push((name.clone(), p.default.ty()));
    }
    inputs.push(("rate".into(), Type::F32));
    inputs.push(("burst".into(), Type::F32));
    // (attributes are declared so that a line naming one is refused saying why)
    for a in Attribute::ALL {
        inputs.push((a.name().into(), a.ty()));
    }
    for (name, initial) in &desc.attributes {
        inputs.push((name.clone(), initial.ty()));
    }
    let particles = "is a particle's: the spawn stage runs for the emitter, once a frame, \
        before its particles are born";
    let mut frames = Vec::new();
    for space in Space::ALL {
        if space.origin().particles() {
            frames.push(space.frame(Some(particles.into())));
        } else {
            inputs.extend((0..3).map(|k| (space.axis(k), Type::Vec3)));
            frames.push(space.frame(None));
        }
    }
    Env {
        inputs,
        // (nodes read as every stack reads them; one that reads a particle's attribute is
        // refused naming it)
        lets: env.lets.clone(),
        tables: env.tables.clone(),
        random: false,
        functions: env.functions.clone(),
        frames,
    }
}

/// Emitter `e`'s spawn lines compiled (None without lines).
pub(super) fn compile(
    desc: &EffectDesc,
    env: &Env,
    emitter: &EmitterDesc,
    prefix: &str,
) -> Result<Option<SpawnProgram>, GraphError> {
    if emitter.spawn.is_empty() {
        return Ok(None);
    }
    let env = environment(desc, env);
    let mut c = Compiler::new(&env);
    let (mut rate, mut burst) = (None, None);
    for (k, line) in emitter.spawn.iter().enumerate() {
        let fail = |error| GraphError {
            field: format!("{prefix}[{k}]"),
            text: line.text().to_string(),
            error,
        };
        let (target, op) = match line.action() {
            Action::Set { target, op } if target == "rate" || target == "burst" => (target, op),
            Action::Kill => {
                let message = "`kill if` belongs in the update stack: the spawn stage sets \
                    `rate` and `burst`";
                return Err(fail(
                    line.target_error(ErrorKind::NotAllowed, message.into()),
                ));
            }
            Action::Set { target, .. } => {
                let message = format!(
                    "`{target}` is not set by the spawn stage: it sets `rate` (particles per \
                     second) and `burst` (the factor of the bursts' counts)"
                );
                return Err(fail(line.target_error(ErrorKind::NotAllowed, message)));
            }
        };
        let value = line.value();
        let root = match op {
            None => value.root().clone(),
            Some(op) => {
                let span = value.root().span.clone();
                let name = Node::new(Kind::Name(target.clone()), span.clone());
                let both = Kind::Binary(*op, Box::new(name), Box::new(value.root().clone()));
                Node::new(both, span)
            }
        };
        let id = c
            .compile_parsed(&root, value.text(), Some(Type::F32))
            .map_err(|e| fail(line.locate(e)))?;
        if let Some(refusal) = particle_input(&c.program, line, desc) {
            return Err(fail(refusal));
        }
        c.bind(target, id);
        match target.as_str() {
            "rate" => rate = Some(id),
            _ => burst = Some(id),
        }
    }
    let mut sources = Vec::new();
    for input in &c.program.inputs {
        let Some(source) = source(&input.name, desc) else {
            // (every name the stage declares has a source: a name without one is a defect
            // of flurry's, refused rather than run)
            let message = format!("`{}` cannot be read by the spawn stage", input.name);
            let text = emitter.spawn.iter().map(|l| l.text()).collect::<Vec<_>>();
            return Err(GraphError {
                field: prefix.to_string(),
                text: text.join("; "),
                error: crate::expr::ExprError::new(ErrorKind::NotAllowed, "", 0..0, message),
            });
        };
        sources.push(source);
    }
    Ok(Some(SpawnProgram {
        program: c.program,
        sources,
        rate,
        burst,
    }))
}

/// A line that reads a particle's attribute, refused where it names it.
fn particle_input(
    program: &Program,
    line: &Statement,
    desc: &EffectDesc,
) -> Option<crate::expr::ExprError> {
    let input = program
        .inputs
        .iter()
        .find(|i| source_of_particle(&i.name, desc))?;
    let name = &input.name;
    let text = line.text();
    // (the name as a whole word: `id` is not the one in `idle`)
    let word = |c: char| c.is_alphanumeric() || c == '_';
    let at = text
        .match_indices(name.as_str())
        .map(|(at, _)| at)
        .find(|&at| {
            let before = text[..at].chars().next_back().is_none_or(|c| !word(c));
            let after = text[at + name.len()..]
                .chars()
                .next()
                .is_none_or(|c| !word(c));
            before && after
        })
        .unwrap_or(0);
    let message = format!(
        "`{name}` is a particle's: the spawn stage runs for the emitter, once a frame, \
         before its particles are born"
    );
    Some(crate::expr::ExprError::new(
        ErrorKind::NotAllowed,
        text,
        at..at + name.len(),
        message,
    ))
}

/// Whether `name` is a particle's: a built-in attribute, the effect's own, or a place
/// only a particle has.
fn source_of_particle(name: &str, desc: &EffectDesc) -> bool {
    let place = Place::ALL.iter().any(|p| p.particles() && p.name() == name);
    Attribute::by_name(name).is_some() || desc.attributes.contains_key(name) || place
}

/// What the input named `name` reads (the particle's attributes are refused before;
/// None: nothing the spawn stage declares).
fn source(name: &str, desc: &EffectDesc) -> Option<SpawnSource> {
    if let Some(&c) = Clock::ALL.iter().find(|c| c.name() == name) {
        return Some(SpawnSource::Clock(c));
    }
    if let Some(&p) = Place::ALL.iter().find(|p| p.name() == name) {
        return Some(SpawnSource::Place(p));
    }
    if let Some((space, k)) = Space::by_axis(name) {
        return Some(SpawnSource::Axis(space, k));
    }
    match name {
        "rate" => Some(SpawnSource::Rate),
        "burst" => Some(SpawnSource::Burst),
        TABLE_BASE => Some(SpawnSource::TableBase),
        _ => {
            let slot = desc.parameters.keys().position(|n| n == name)?;
            Some(SpawnSource::Parameter(slot))
        }
    }
}

impl SpawnProgram {
    /// The rate and burst factor of emitter `e`, whose `rate` field is `rate`, this frame: a
    /// value below zero or not finite spawns nothing.
    pub fn run(&self, (e, rate): (usize, f32), s: &SpawnInputs, table: &[[f32; 4]]) -> Spawning {
        let scalar = |x: f32| [x as f64, 0.0, 0.0, 0.0];
        let vector = |v: Vec3| [v.x as f64, v.y as f64, v.z as f64, 0.0];
        let inputs: Vec<Components> = self
            .sources
            .iter()
            .zip(&self.program.inputs)
            .map(|(&source, input)| match source {
                SpawnSource::Clock(Clock::Time) => scalar(s.time),
                SpawnSource::Clock(Clock::Dt) => scalar(s.dt),
                SpawnSource::Place(Place::InstanceOrigin)
                | SpawnSource::Axis(Space::Instance, _) => {
                    unreachable!("refused when compiled: a particle's")
                }
                SpawnSource::Place(place) => vector(s.placement.place(place, e)),
                SpawnSource::Axis(space, k) => vector(s.placement.axis(space, k, e)),
                SpawnSource::Parameter(slot) => {
                    Value::from_words(input.ty, s.params[slot]).components()
                }
                SpawnSource::TableBase => scalar(0.0),
                SpawnSource::Rate => scalar(rate),
                SpawnSource::Burst => scalar(1.0),
            })
            .collect();
        let ctx = Context {
            inputs: &inputs,
            table,
        };
        let values = evaluate(&self.program, &ctx, Precision::F32);
        let sane = |x: f64| {
            if x.is_finite() {
                x.max(0.0) as f32
            } else {
                0.0
            }
        };
        Spawning {
            rate: self.rate.map_or(rate, |id| sane(values[id as usize][0])),
            burst: self.burst.map_or(1.0, |id| sane(values[id as usize][0])),
        }
    }
}
