//! An emitter's stack run on the CPU, as the generated WGSL runs it (`wgsl.rs`): the same
//! inputs, random streams and f32 arithmetic (the evaluator rounds every operation), the
//! same writes. The CPU twin runs it.

use glam::{Vec3, Vec4};

use super::attributes::{Attribute, Clock, Placement};
use super::wgsl::{CALL_SALT, PARTICLE_SALT};
use super::{Custom, Source, Stage, StageProgram, MAX_PARAMETERS};
use crate::expr::{evaluate, Components, Context, Precision, Value};
use crate::hash::pcg_hash;
use crate::types::Particle;

/// What a stack reads besides the particle.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Surroundings<'a> {
    /// Seconds since the effect started, and of this step.
    pub time: f32,
    pub dt: f32,
    /// The effect's seed.
    pub seed: u32,
    /// The parameters' uniform block.
    pub params: &'a [[u32; 4]; MAX_PARAMETERS],
    /// The baked curves and gradients.
    pub table: &'a [[f32; 4]],
    /// The effect's own attributes.
    pub customs: &'a [Custom],
    /// Where the effect, each emitter's space and the camera are.
    pub placement: Placement<'a>,
    /// The attributes a draw stack sets, and the record's word that keeps each.
    pub kept: &'a [(Attribute, u32)],
}

/// `p` with the attributes `record` keeps (where a draw stack sets them) as the particle's
/// own values: what the stacks read and write.
fn own(p: &Particle, record: &[u32], kept: &[(Attribute, u32)]) -> Particle {
    let mut own = *p;
    for &(a, k) in kept {
        let word = record[k as usize];
        match a {
            Attribute::Color => own.color = word,
            Attribute::Size => own.size = f32::from_bits(word),
            _ => own.rotation = f32::from_bits(word),
        }
    }
    own
}

/// How `p` is drawn now, as graph.wgsl's draw hook sets it: its look from its own values
/// (`record`), then what its emitter's draw stack sets.
pub(crate) fn draw(graph: &super::Graph, p: &mut Particle, record: &mut [u32], s: &Surroundings) {
    *p = Particle {
        color: own(p, record, s.kept).color,
        size: own(p, record, s.kept).size,
        rotation: own(p, record, s.kept).rotation,
        ..*p
    };
    if let Some(Some(stack)) = graph.draw.get(p.emitter as usize) {
        stack.run(Stage::Draw, (p, record), s);
    }
}

/// WGSL `unpack4x8unorm`.
fn unpack4x8unorm(c: u32) -> Vec4 {
    let channel = |k: u32| ((c >> (8 * k)) & 0xff) as f32 / 255.0;
    Vec4::new(channel(0), channel(1), channel(2), channel(3))
}

fn vector(v: Vec3) -> Components {
    [v.x as f64, v.y as f64, v.z as f64, 0.0]
}

fn scalar(x: f32) -> Components {
    [x as f64, 0.0, 0.0, 0.0]
}

impl StageProgram {
    /// Run the stack of `stage` on `p` whose own attributes are `record`: its writes
    /// applied (a draw stack's to the particle's look, the others' to its own values); the
    /// acceleration it adds and whether the particle lives on (always, for an init stack).
    pub fn run(
        &self,
        stage: Stage,
        (drawn, record): (&mut Particle, &mut [u32]),
        s: &Surroundings,
    ) -> (Vec3, bool) {
        let mut own = own(drawn, record, s.kept);
        let p = &mut own;
        let inputs: Vec<Components> = self
            .sources
            .iter()
            .zip(&self.program.inputs)
            .map(|(&source, input)| match source {
                Source::Attribute(a) => match a {
                    Attribute::Position => vector(p.pos),
                    Attribute::Velocity => vector(p.vel),
                    Attribute::Age => scalar(p.age),
                    Attribute::Lifetime => scalar(p.lifetime),
                    Attribute::Size => scalar(p.size),
                    Attribute::Color => unpack4x8unorm(p.color).to_array().map(|c| c as f64),
                    Attribute::Rotation => scalar(p.rotation_now()),
                    Attribute::Spin => scalar(p.spin),
                    Attribute::Id => [p.id as f64, 0.0, 0.0, 0.0],
                    Attribute::Emitter => [p.emitter as f64, 0.0, 0.0, 0.0],
                },
                Source::Clock(Clock::Time) => scalar(s.time),
                Source::Clock(Clock::Dt) => scalar(s.dt),
                // (the twin places its effect once)
                Source::Place(place) => vector(s.placement.place(place, p.emitter as usize)),
                Source::Axis(space, k) => vector(s.placement.axis(space, k, p.emitter as usize)),
                Source::Parameter(slot) => Value::from_words(input.ty, s.params[slot]).components(),
                Source::Custom(index) => {
                    let mut words = [0; 4];
                    let at = s.customs[index].words();
                    words[..at.len()].copy_from_slice(&record[at]);
                    Value::from_words(input.ty, words).components()
                }
                Source::CallSeed => {
                    let salt = match stage {
                        Stage::Init => s.seed,
                        Stage::Update | Stage::Draw => p.age.to_bits() ^ s.seed,
                    };
                    let seed = pcg_hash(p.id ^ pcg_hash(salt ^ CALL_SALT));
                    [seed as f64, 0.0, 0.0, 0.0]
                }
                Source::ParticleSeed => {
                    let seed = pcg_hash(p.id ^ pcg_hash(s.seed ^ PARTICLE_SALT));
                    [seed as f64, 0.0, 0.0, 0.0]
                }
                Source::TableBase => [0.0; 4],
            })
            .collect();
        let ctx = Context {
            inputs: &inputs,
            table: s.table,
        };
        let values = evaluate(&self.program, &ctx, Precision::F32);
        // a draw stack sets the look; the others the particle's own values
        let p = if stage == Stage::Draw { &mut *drawn } else { p };
        let f32s = |id: u32| values[id as usize].map(|c| c as f32);
        for &(attribute, id) in &self.writes {
            let v = f32s(id);
            match attribute {
                Attribute::Position => p.pos = Vec3::new(v[0], v[1], v[2]),
                Attribute::Velocity => p.vel = Vec3::new(v[0], v[1], v[2]),
                Attribute::Lifetime => p.lifetime = v[0],
                Attribute::Size => p.size = v[0],
                Attribute::Color => p.color = crate::cpu::pack4x8unorm(Vec4::from_array(v)),
                Attribute::Rotation => p.rotation = v[0] - p.spin * p.age,
                Attribute::Spin => {
                    p.rotation = p.rotation_now() - v[0] * p.age;
                    p.spin = v[0];
                }
                Attribute::Age | Attribute::Id | Attribute::Emitter => {}
            }
        }
        for &(index, id) in &self.stores {
            let at = s.customs[index].words();
            let ty = s.customs[index].initial.ty();
            let words = Value::from_components(ty, values[id as usize]).to_words();
            record[at.clone()].copy_from_slice(&words[..at.len()]);
        }
        if stage != Stage::Draw {
            let look = (drawn.color, drawn.size, drawn.rotation);
            *drawn = own;
            (drawn.color, drawn.size, drawn.rotation) = look;
            for &(a, k) in s.kept {
                record[k as usize] = match a {
                    Attribute::Color => own.color,
                    Attribute::Size => own.size.to_bits(),
                    _ => own.rotation.to_bits(),
                };
            }
            // where nothing keeps them, the look is the particle's own
            for a in [Attribute::Color, Attribute::Size, Attribute::Rotation] {
                if !s.kept.iter().any(|&(k, _)| k == a) {
                    match a {
                        Attribute::Color => drawn.color = own.color,
                        Attribute::Size => drawn.size = own.size,
                        _ => drawn.rotation = own.rotation,
                    }
                }
            }
        }
        let force = self.force.map_or(Vec3::ZERO, |id| {
            let v = f32s(id);
            Vec3::new(v[0], v[1], v[2])
        });
        let alive = self.kill.is_none_or(|id| values[id as usize][0] == 0.0);
        (force, alive)
    }
}
