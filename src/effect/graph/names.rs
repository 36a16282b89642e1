//! What an effect's expressions can name: the particle's attributes, the clock, where the
//! effect and the camera are, and what the effect declares (parameters, attributes, nodes,
//! curves, gradients, functions); declarations that clash are refused here.

use super::attributes::{Attribute, Clock, Place, Space};
use super::{Custom, GraphError, Source};
use crate::effect::EffectDesc;
use crate::expr::{
    Curve, Env, ErrorKind, ExprError, Gradient, TableKind, Type, UserFunction, SEED_CALL,
    SEED_PARTICLE, TABLE_BASE,
};

/// The hidden inputs every stage's program may read, after the named ones.
pub(super) const HIDDEN: [(&str, Source); 3] = [
    (SEED_CALL, Source::CallSeed),
    (SEED_PARTICLE, Source::ParticleSeed),
    (TABLE_BASE, Source::TableBase),
];

/// Words the stacks read that no declaration may take: `force` (the update's), `rate` and
/// `burst` (the spawn stage's), and the literals.
const RESERVED: [&str; 5] = ["force", "rate", "burst", "true", "false"];

const NOT_A_NAME: &str = "not a name (ASCII letters, digits and _, not starting with a digit)";

/// Whether `name` is a name an expression can write: ASCII letters, digits and `_`, not
/// starting with a digit (what the expressions' reader reads as one).
pub(super) fn is_name(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// What the effect's expressions can name: the attributes, the clock, the parameters (by
/// name), the named nodes, the curves and gradients. A name declared twice, or a
/// declaration that takes an attribute's or the clock's name, is refused.
pub(super) fn environment(desc: &EffectDesc) -> Result<Env, GraphError> {
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
            || RESERVED.contains(&name)
            || crate::expr::callable().any(|f| f == name)
    };
    let declared = desc
        .parameters
        .keys()
        .map(|n| ("parameters", n))
        .chain(desc.attributes.keys().map(|n| ("attributes", n)))
        .chain(desc.nodes.keys().map(|n| ("nodes", n)))
        .chain(desc.curves.keys().map(|n| ("curves", n)))
        .chain(desc.gradients.keys().map(|n| ("gradients", n)));
    // (by name: thousands of nodes are checked in time linear in their number)
    let mut seen: std::collections::HashMap<&String, &str> = Default::default();
    for (section, name) in declared {
        let clash = if taken(name) {
            Some(
                "the name of an attribute, of the clock, of a place (origin, eye, …), of a \
                 built-in function, or a word the stacks read (force, rate, burst, true, false)"
                    .to_string(),
            )
        } else {
            seen.get(name)
                .map(|s| format!("the name of one of the {s} too"))
        };
        let valid = is_name(name);
        let problem = match (clash, valid) {
            (_, false) => Some(NOT_A_NAME.into()),
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
        seen.insert(name, section);
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
    for space in Space::ALL {
        env.inputs
            .extend((0..3).map(|k| (space.axis(k), Type::Vec3)));
        env.frames.push(space.frame(None));
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
pub(super) fn functions(desc: &EffectDesc) -> Result<Vec<(String, UserFunction)>, GraphError> {
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
        let clash = if !is_name(name) {
            let message = NOT_A_NAME.to_string();
            return Err(GraphError {
                field,
                text: name.clone(),
                error: ExprError::new(ErrorKind::NotAllowed, name, 0..name.len(), message),
            });
        } else if crate::expr::callable().any(|n| n == name) {
            Some("the name of a built-in function".to_string())
        } else if RESERVED.contains(&name.as_str()) {
            Some("a word the stacks read".to_string())
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
pub(super) fn table(desc: &EffectDesc) -> Vec<[f32; 4]> {
    let curves = desc.curves.values().map(Curve::bake);
    let gradients = desc.gradients.values().map(Gradient::bake);
    curves.chain(gradients).flatten().collect()
}

/// The effect's own attributes in name order, each after the one before in the record.
pub(super) fn customs(desc: &EffectDesc) -> Vec<Custom> {
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
