//! An effect's stacks as WGSL: the block spliced into emit (the init hook) and simulate (the
//! update hook) in place of the empty one every other effect's passes have. The text is
//! the pipeline's key: effects whose stacks generate the same text share pipelines.

use std::fmt::Write;

use super::attributes::{Attribute, Clock};
use super::{Custom, Graph, Source, Stage, StageProgram};
use crate::expr::{from_words, generate, Type, PRELUDE};

/// The hooks of an effect without stacks (shaders/graph.wgsl), which the passes compose.
pub(crate) const NO_GRAPH: &str = include_str!("../../../shaders/graph.wgsl");

/// Salts of the random streams (the CPU twin draws the same: `cpu.rs`).
pub(crate) const CALL_SALT: u32 = 0x68e3_1da4;
pub(crate) const PARTICLE_SALT: u32 = 0x2545_f491;

impl Graph {
    /// The block of `stage`'s hooks for this effect: the empty one (shaders/graph.wgsl)
    /// where it generates nothing for the stage ([`Graph::generates`]), else the generated
    /// functions with the expression prelude. Its other stage's hook stays empty.
    pub fn wgsl(&self, stage: Stage) -> String {
        if !self.generates(stage) {
            return NO_GRAPH.to_string();
        }
        let stacks = self.stage(stage);
        let stride = self.stride();
        // what graph.wgsl declares before its hooks, with this effect's stride
        let mut out = NO_GRAPH[..hook_start("init")].replace(
            "const GRAPH_STRIDE: u32 = 0u;",
            &format!("const GRAPH_STRIDE: u32 = {stride}u;"),
        );
        // the other stage's hook as the empty block has it (its constant says it is off)
        let other = match stage {
            Stage::Init => "update",
            Stage::Update => "init",
        };
        out += &empty_hook(other);
        let look = stacks.iter().flatten().any(|s| {
            s.writes.iter().any(|(a, _)| {
                matches!(
                    a,
                    Attribute::Size | Attribute::Color | Attribute::Rotation | Attribute::Spin
                )
            })
        });
        match stage {
            Stage::Init => out += "const GRAPH_INIT: u32 = 1u;\n",
            Stage::Update => {
                out += "const GRAPH_UPDATE: u32 = 1u;\n";
                let _ = writeln!(out, "const GRAPH_LOOK: u32 = {}u;", look as u32);
            }
        }
        out += "fn expr_table_texel(i: u32) -> vec4<f32> {\n    return graph_table[i];\n}\n";
        if stride > 0 {
            out += ATTRIBUTE_ACCESS;
        }
        out += PRELUDE;
        out += "\n";
        for (e, s) in stacks.iter().enumerate() {
            if let Some(s) = s {
                out += &function(stage, e, s, &self.attributes);
            }
        }
        // the hook: the stack of the particle's emitter
        let (signature, call, none) = hook(stage);
        let _ = writeln!(out, "{signature} {{");
        if stage == Stage::Init {
            // born with the initial values of the effect's own attributes (a stack may
            // then read and write them)
            for (k, word) in self.initial_record().iter().enumerate() {
                let _ = writeln!(out, "    graph_store({k}u, {word}u);");
            }
        }
        let _ = writeln!(out, "    switch (*p).emitter {{");
        for (e, s) in stacks.iter().enumerate() {
            if s.is_some() {
                let _ = writeln!(
                    out,
                    "        case {e}u: {{ {}; }}",
                    call.replace("{e}", &e.to_string())
                );
            }
        }
        let _ = writeln!(out, "        default: {{ {none} }}");
        out += "    }\n}\n";
        out
    }
}

/// (the hook's signature, the call of emitter {e}'s function, what the hook does for an
/// emitter without a stack).
fn hook(stage: Stage) -> (&'static str, &'static str, &'static str) {
    match stage {
        Stage::Init => (
            "fn graph_init(p: ptr<function, Particle>, seed: u32)",
            "graph_init_{e}(p, seed)",
            "",
        ),
        Stage::Update => (
            "fn graph_update(p: ptr<function, Particle>, force: ptr<function, vec3<f32>>, seed: u32) -> bool",
            "return graph_update_{e}(p, force, seed)",
            "return true;",
        ),
    }
}

/// Where graph.wgsl's hook of `stage` ("init" or "update") starts.
fn hook_start(stage: &str) -> usize {
    NO_GRAPH
        .find(&format!("// {stage} hook"))
        .unwrap_or_else(|| unreachable!("graph.wgsl marks its {stage} hook"))
}

/// How a generated block reads and writes word `k` of the particle's record of the
/// effect's own attributes.
const ATTRIBUTE_ACCESS: &str = "fn graph_load(k: u32) -> u32 {
    return graph_attributes[graph_slot * GRAPH_STRIDE + k];
}
fn graph_store(k: u32, word: u32) {
    graph_attributes[graph_slot * GRAPH_STRIDE + k] = word;
}
";

/// The empty hook of `stage` ("init" or "update"), as shaders/graph.wgsl writes it.
fn empty_hook(stage: &str) -> String {
    let start = hook_start(stage);
    let end = NO_GRAPH[start..]
        .find("// end")
        .map_or(NO_GRAPH.len(), |n| start + n);
    NO_GRAPH[start..end].to_string()
}

/// Emitter `e`'s stack as a function of the particle `p` (and, updating, the force it adds
/// to): its inputs read, its nodes computed, its writes stored, its kill returned.
fn function(stage: Stage, e: usize, s: &StageProgram, customs: &[Custom]) -> String {
    let mut roots: Vec<_> = s.writes.iter().map(|&(_, id)| id).collect();
    roots.extend(s.stores.iter().map(|&(_, id)| id));
    roots.extend(s.force);
    roots.extend(s.kill);
    let read = |i: usize| input(s.sources[i], s.program.inputs[i].ty, customs);
    let generated = generate(&s.program, &roots, &read, "g");
    let mut out = String::new();
    let (signature, returns) = match stage {
        Stage::Init => (
            format!("fn graph_init_{e}(p: ptr<function, Particle>, seed: u32)"),
            false,
        ),
        Stage::Update => (
            format!(
                "fn graph_update_{e}(p: ptr<function, Particle>, force: ptr<function, vec3<f32>>, seed: u32) -> bool"
            ),
            true,
        ),
    };
    let _ = writeln!(out, "{signature} {{");
    let uses = |source: Source| s.sources.contains(&source);
    if uses(Source::CallSeed) {
        // a new stream each evaluation: the particle's id with its age (which every step
        // and every birth changes) and the effect's seed
        let salt = match stage {
            Stage::Init => "seed".to_string(),
            Stage::Update => "bitcast<u32>((*p).age) ^ seed".to_string(),
        };
        let _ = writeln!(
            out,
            "    let call_seed = pcg_hash((*p).id ^ pcg_hash({salt} ^ {CALL_SALT}u));"
        );
    }
    if uses(Source::ParticleSeed) {
        let _ = writeln!(
            out,
            "    let particle_seed = pcg_hash((*p).id ^ pcg_hash(seed ^ {PARTICLE_SALT}u));"
        );
    }
    for line in generated.statements.lines() {
        let _ = writeln!(out, "    {line}");
    }
    let mut roots = generated.roots.iter();
    for &(attribute, _) in &s.writes {
        let value = roots.next().cloned().unwrap_or_default();
        match attribute {
            Attribute::Position => writeln!(out, "    (*p).pos = {value};"),
            Attribute::Velocity => writeln!(out, "    (*p).vel = {value};"),
            Attribute::Lifetime => writeln!(out, "    (*p).lifetime = {value};"),
            Attribute::Size => writeln!(out, "    (*p).size = {value};"),
            Attribute::Color => writeln!(out, "    (*p).color = pack4x8unorm({value});"),
            // (after the rotation, in attribute order: a new spin keeps the rotation now)
            Attribute::Spin => writeln!(out, "    respin(p, {value});"),
            Attribute::Rotation => {
                writeln!(out, "    (*p).rotation = {value} - (*p).spin * (*p).age;")
            }
            Attribute::Age | Attribute::Id | Attribute::Emitter => {
                unreachable!("read-only attributes are refused when compiled")
            }
        }
        .unwrap_or_default();
    }
    for &(index, _) in &s.stores {
        let value = roots.next().cloned().unwrap_or_default();
        let custom = &customs[index];
        out += &store(custom, &value);
    }
    if let Some(force) = s.force.and(roots.next()) {
        let _ = writeln!(out, "    *force = {force};");
    }
    if returns {
        match s.kill.and(roots.next()) {
            Some(kill) => {
                let _ = writeln!(out, "    return !({kill});");
            }
            None => out += "    return true;\n",
        }
    }
    out += "}\n";
    out
}

/// The WGSL that stores `value` as the particle's attribute `custom` (its words).
fn store(custom: &Custom, value: &str) -> String {
    let ty = custom.initial.ty();
    let words = match ty {
        Type::F32 | Type::I32 => format!("bitcast<u32>({value})"),
        Type::U32 => value.to_string(),
        Type::Bool => format!("select(0u, 1u, {value})"),
        Type::Vec2 | Type::Vec3 | Type::Vec4 => {
            let n = ty.components();
            format!("bitcast<vec{n}<u32>>({value})")
        }
    };
    let first = custom.offset;
    if !ty.is_vector() {
        return format!("    graph_store({first}u, {words});\n");
    }
    let mut out = format!("    {{\n        let words = {words};\n");
    for (k, c) in ["x", "y", "z", "w"]
        .iter()
        .take(ty.components())
        .enumerate()
    {
        let _ = writeln!(
            out,
            "        graph_store({}u, words.{c});",
            first + k as u32
        );
    }
    out + "    }\n"
}

/// The WGSL that reads the particle's attribute `custom` (as the words `from_words` takes).
fn load(custom: &Custom) -> String {
    let mut words: Vec<String> = custom
        .words()
        .map(|k| format!("graph_load({k}u)"))
        .collect();
    words.resize(4, "0u".to_string());
    from_words(
        &format!("vec4<u32>({})", words.join(", ")),
        custom.initial.ty(),
    )
}

/// The WGSL that reads input `source` of type `ty` in a stack's function.
fn input(source: Source, ty: Type, customs: &[Custom]) -> String {
    match source {
        Source::Custom(index) => load(&customs[index]),
        Source::Attribute(a) => a.wgsl_read().to_string(),
        Source::Clock(Clock::Time) => "graph_time()".to_string(),
        Source::Clock(Clock::Dt) => "graph_dt()".to_string(),
        Source::Place(p) => p.wgsl_read().to_string(),
        Source::Parameter(slot) => from_words(&format!("graph_params.slots[{slot}]"), ty),
        Source::CallSeed => "call_seed".to_string(),
        Source::ParticleSeed => "particle_seed".to_string(),
        Source::TableBase => "0u".to_string(),
    }
}
