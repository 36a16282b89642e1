//! What a stack says that the built-in fields already say, folded into them when the effect
//! is compiled, so that its lines generate no code: an effect written with such modules
//! compiles to the same passes, and costs the same, as the one written with the fields.
//!
//! - Forces: an acceleration that is a constant and a multiple of the velocity (`force +=
//!   vec3(0.0, -9.81, 0.0)`, `force += (wind - velocity) * 0.5`: a gravity, a drag towards a
//!   wind) becomes the effect's gravity, drag and wind; the drag so folded is integrated
//!   exactly over each step, as the built-in one is. With it, the built-in turbulence's
//!   field felt through that drag (`(wind + speed * turbulence(position / scale, time *
//!   speed / scale) - velocity) * k`) becomes the effect's turbulence.
//! - Looks over life: a draw stack that only multiplies the colour and the size by
//!   `mix(1, end, saturate(age / lifetime))` becomes the emitter's `over_life`.

use glam::Vec3;

use super::attributes::Attribute;
use super::{Graph, Stage, StageProgram};
use crate::effect::{EffectDesc, Forces, OverLife};
use crate::expr::{BinaryOp, Func, NodeId, Op, Program, Type, UnaryOp, Value};
use crate::types::EffectParams;

/// The built-in turbulence's field of largest speed `speed` (m/s) over eddies of `scale`
/// metres: `speed · turbulence(position / scale, time · speed / scale)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Eddies {
    pub speed: f32,
    pub scale: f32,
}

/// `a + b·velocity + c·turbulence(position / scale, time · speed / scale)`: what an
/// acceleration is where it is one of those.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Linear {
    pub a: Vec3,
    pub b: f32,
    /// The turbulence's factor `c` and its field, if it has one.
    pub eddies: Option<(f32, Eddies)>,
}

impl Linear {
    const ZERO: Linear = Linear {
        a: Vec3::ZERO,
        b: 0.0,
        eddies: None,
    };

    /// The sum, if it is one of these (one turbulence field at most).
    fn add(self, o: Linear) -> Option<Linear> {
        let eddies = match (self.eddies, o.eddies) {
            (None, e) | (e, None) => e,
            (Some((c, e)), Some((d, f))) if e == f => Some((c + d, e)),
            _ => return None,
        };
        Some(Linear {
            a: self.a + o.a,
            b: self.b + o.b,
            eddies,
        })
    }

    fn scale(self, k: f32) -> Linear {
        Linear {
            a: self.a * k,
            b: self.b * k,
            eddies: self.eddies.map(|(c, e)| (c * k, e)),
        }
    }
}

/// The field of `turbulence(q, t)` where `q` is `position / scale` and `t` is `time · speed /
/// scale` for constants `speed` and `scale` (as the function `eddies` of
/// `effects/modules/forces.ron` writes them).
fn eddies(program: &Program, q: NodeId, t: NodeId) -> Option<Eddies> {
    let scalar = |k: u32| match program.value(k) {
        Some(Value::F32(x)) => Some(x),
        _ => None,
    };
    let divided = |id: NodeId| {
        let node = program.node(id);
        match (&node.op, node.args.as_slice()) {
            (Op::Binary(BinaryOp::Div), &[x, y]) => Some((x, scalar(y)?)),
            _ => None,
        }
    };
    let (position, scale) = divided(q)?;
    let (drift, also) = divided(t)?;
    let node = program.node(drift);
    let speed = match (&node.op, node.args.as_slice()) {
        (Op::Binary(BinaryOp::Mul), &[x, y]) if reads(program, x, "time") => scalar(y)?,
        (Op::Binary(BinaryOp::Mul), &[x, y]) if reads(program, y, "time") => scalar(x)?,
        _ => return None,
    };
    let valid = speed > 0.0 && scale > 0.0 && scale == also;
    (reads(program, position, "position") && valid).then_some(Eddies { speed, scale })
}

/// Node `id` of `program` as `a + b·velocity`, if it is one (by its operations: constants,
/// the velocity, sums, differences, negations and products or quotients by an f32
/// constant).
fn linear(program: &Program, id: u32) -> Option<Linear> {
    let node = program.node(id);
    let scalar = |k: u32| match program.value(k) {
        Some(Value::F32(x)) => Some(x),
        _ => None,
    };
    if node.ty != Type::Vec3 {
        return None;
    }
    match (&node.op, node.args.as_slice()) {
        (Op::Const(_), []) => match program.value(id) {
            Some(Value::Vec3(v)) => Some(Linear {
                a: v,
                ..Linear::ZERO
            }),
            _ => None,
        },
        (Op::Input(i), []) if program.inputs[*i as usize].name == "velocity" => Some(Linear {
            b: 1.0,
            ..Linear::ZERO
        }),
        (Op::Call(Func::Turbulence), &[q, t]) => Some(Linear {
            eddies: Some((1.0, eddies(program, q, t)?)),
            ..Linear::ZERO
        }),
        (Op::Unary(UnaryOp::Neg), &[x]) => linear(program, x).map(|l| l.scale(-1.0)),
        (Op::Binary(BinaryOp::Add), &[x, y]) => linear(program, x)?.add(linear(program, y)?),
        (Op::Binary(BinaryOp::Sub), &[x, y]) => {
            linear(program, x)?.add(linear(program, y)?.scale(-1.0))
        }
        (Op::Binary(BinaryOp::Mul), &[x, y]) => match (scalar(x), scalar(y)) {
            (Some(k), None) => linear(program, y).map(|l| l.scale(k)),
            (None, Some(k)) => linear(program, x).map(|l| l.scale(k)),
            _ => None,
        },
        (Op::Binary(BinaryOp::Div), &[x, y]) => match scalar(y) {
            Some(k) if k != 0.0 => linear(program, x).map(|l| l.scale(1.0 / k)),
            _ => None,
        },
        _ => None,
    }
}

/// Whether node `id` reads input `name` (as the stack received it).
fn reads(program: &Program, id: NodeId, name: &str) -> bool {
    match program.node(id).op {
        Op::Input(i) => program.inputs[i as usize].name == name,
        _ => false,
    }
}

/// Whether node `id` is `saturate(age / lifetime)` (spread over a vector or not): the
/// built-in looks' time of life.
fn life(program: &Program, id: NodeId) -> bool {
    let node = program.node(id);
    match (&node.op, node.args.as_slice()) {
        (Op::Construct, &[t]) => life(program, t),
        (Op::Call(Func::Saturate), &[x]) => {
            let d = program.node(x);
            matches!((&d.op, d.args.as_slice()), (Op::Binary(BinaryOp::Div), &[a, l])
                if reads(program, a, "age") && reads(program, l, "lifetime"))
        }
        _ => false,
    }
}

/// The end value of node `id` where it is `a * mix(1, end, life)` (either order) with `a`
/// the attribute as received and `end` a constant: the built-in look over life.
fn over_life(program: &Program, id: NodeId, a: Attribute) -> Option<Value> {
    let node = program.node(id);
    let (Op::Binary(BinaryOp::Mul), &[x, y]) = (&node.op, node.args.as_slice()) else {
        return None;
    };
    let m = match (reads(program, x, a.name()), reads(program, y, a.name())) {
        (true, false) => y,
        (false, true) => x,
        _ => return None,
    };
    let mix = program.node(m);
    let (Op::Call(Func::Mix), &[one, end, t]) = (&mix.op, mix.args.as_slice()) else {
        return None;
    };
    let ones = program.value(one).is_some_and(|v| {
        v.components()[..v.ty().components()]
            .iter()
            .all(|&c| c == 1.0)
    });
    (ones && life(program, t))
        .then(|| program.value(end))
        .flatten()
}

impl Graph {
    /// Fold each emitter's draw stack that is the built-in look over life (its colour and
    /// size multiplied by `mix(1, end, saturate(age / lifetime))`, nothing else) into its
    /// `over_life`, where it has none of its own: what is folded is no stack.
    pub(super) fn fold_looks(&mut self, desc: &EffectDesc) {
        for (e, stack) in self.draw.iter_mut().enumerate() {
            let Some(s) = stack else { continue };
            let own = desc.emitters[e].over_life.unwrap_or(desc.over_life);
            if own != OverLife::default() || !s.stores.is_empty() {
                continue;
            }
            let mut look = OverLife::default();
            let folded = s.writes.iter().all(|&(a, id)| {
                match (a, over_life(&s.program, id, a)) {
                    (Attribute::Color, Some(Value::Vec4(end))) => look.color_end = end.into(),
                    (Attribute::Size, Some(Value::F32(end))) => look.size_end = end,
                    _ => return false,
                }
                true
            });
            if folded {
                *stack = None;
                self.looks.push((e, look));
            }
        }
    }

    /// Fold the forces every emitter's update stack adds, where they are one `a +
    /// b·velocity` for all of them and the drag stays a drag (`b` no more than the effect's
    /// drag), out of the stacks: what is left of a stack without other work is no stack.
    /// A turbulence field folds with them where the effect has none of its own and it is
    /// felt through the whole drag, as the built-in one is (`c = (drag − b)·speed`). The
    /// folded force is kept ([`Graph::folded`]) for [`Graph::fold_into`].
    pub(super) fn fold_forces(&mut self, own: &Forces) {
        let drag = own.drag;
        let force = |s: &Option<StageProgram>| match s {
            Some(s) => s.force.map(|f| linear(&s.program, f)),
            None => Some(Some(Linear::ZERO)),
        };
        let forces: Vec<Option<Option<Linear>>> = self.update.iter().map(force).collect();
        let Some(Some(Some(first))) = forces.first().copied() else {
            return;
        };
        let same = forces.iter().all(|f| *f == Some(Some(first)));
        let any = self.update.iter().flatten().any(|s| s.force.is_some());
        // (the step's drag acts on the velocity as the stack left it: a stack that writes it
        // keeps its force)
        let moved = self.update.iter().flatten().any(|s| {
            s.writes
                .iter()
                .any(|(a, _)| *a == super::attributes::Attribute::Velocity)
        });
        let felt = first.eddies.is_none_or(|(c, e)| {
            let whole = (drag - first.b) * e.speed;
            own.turbulence.is_none() && (c - whole).abs() <= 1e-6 * whole.abs()
        });
        if !same || !any || moved || first.b > drag || !felt {
            return;
        }
        for stack in &mut self.update {
            if let Some(s) = stack {
                s.force = None;
                if s.writes.is_empty() && s.stores.is_empty() && s.kill.is_none() {
                    *stack = None;
                }
            }
        }
        self.folded = Some(first);
        debug_assert!(self
            .stage(Stage::Update)
            .iter()
            .all(|s| s.as_ref().is_none_or(|s| s.force.is_none())));
    }

    /// The emitters' looks over life in `params` where their draw stacks were folded, and
    /// the effect's gravity, drag and wind with the folded force added:
    /// `g + d·(w − v) + a + b·v = (g + a) + (d − b)·(w' − v)` with `(d − b)·w' = d·w`.
    pub fn fold_into(&self, params: &mut EffectParams) {
        for &(e, look) in &self.looks {
            params.looks[e].color_end = look.color_end.into();
            params.looks[e].size_end = look.size_end;
        }
        let Some(f) = self.folded else {
            return;
        };
        if let Some((_, e)) = f.eddies {
            params.turbulence = e.speed;
            params.turbulence_scale = e.scale;
        }
        let (d, w) = (params.drag, params.wind);
        let folded = d - f.b;
        params.gravity += f.a;
        if folded > 0.0 {
            params.wind = w * (d / folded);
        } else {
            // no drag left: what the wind gave is a constant
            params.gravity += w * d;
            params.wind = Vec3::ZERO;
        }
        params.drag = folded.max(0.0);
    }
}
