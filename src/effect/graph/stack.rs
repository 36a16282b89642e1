//! One emitter's stack of lines compiled into a typed program: each line reads what the
//! lines before it wrote, forces summed, kills joined; what each stage may write.

use super::attributes::{Attribute, Clock, Place, Space};
use super::names::HIDDEN;
use super::{GraphError, Source, Stage, StageProgram, DRAWN};
use crate::effect::EffectDesc;
use crate::expr::{
    Action, BinaryOp, Compiler, Env, ErrorKind, ExprError, Kind, Node, NodeId, Statement, Type,
};

/// One emitter's stack of `stage` compiled (None when it has no lines).
pub(super) fn stack(
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
/// [`environment`](super::names::environment)).
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
    if let Some((space, k)) = Space::by_axis(name) {
        return Source::Axis(space, k);
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
