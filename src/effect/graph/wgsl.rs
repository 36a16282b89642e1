//! An effect's stacks as WGSL: the block spliced into emit (the init hook) and simulate (the
//! update hook), each with the draw hook, in place of the empty ones every other effect's
//! passes have. The text is the pipeline's key: effects whose stacks generate the same text
//! share pipelines.
//!
//! Where a draw stack sets an attribute (colour, size, rotation), the particle's own value
//! of it lives in its record (`Graph::kept`) and every stack reads and writes it there; the
//! particle's look word holds what the draw hook made of it, which the cull, sort, splat and
//! draw read as they read any particle's.

use std::fmt::Write;

use super::attributes::{Attribute, Clock};
use super::{Custom, Graph, Source, Stage, StageProgram};
use crate::expr::{from_words, generate, Type, PRELUDE};

/// The hooks of an effect without stacks (shaders/graph.wgsl), which the passes compose.
pub(crate) const NO_GRAPH: &str = include_str!("../../../shaders/graph.wgsl");

/// Texel `i` of the effect's baked table, which the pass binds as the rows of a float
/// texture (`graph_table`, as wide as its rows).
const TABLE_TEXEL: &str = "fn expr_table_texel(i: u32) -> vec4<f32> {
    let width = textureDimensions(graph_table).x;
    return textureLoad(graph_table, vec2<u32>(i % width, i / width), 0);
}
";

/// Salts of the random streams (the CPU twin draws the same: `cpu.rs`).
pub(crate) const CALL_SALT: u32 = 0x68e3_1da4;
pub(crate) const PARTICLE_SALT: u32 = 0x2545_f491;

impl Graph {
    /// The block of the pass of `stage` (`Init`: emit, `Update`: simulate) for this effect:
    /// the empty one (shaders/graph.wgsl) where it generates nothing for the pass
    /// ([`Graph::generates`]), else the generated functions with the expression prelude.
    /// The other stage's hook stays empty.
    pub fn wgsl(&self, stage: Stage) -> String {
        if !self.generates(stage) {
            return NO_GRAPH.to_string();
        }
        let stride = self.stride();
        // what graph.wgsl declares before its hooks, with this effect's stride
        let mut out = NO_GRAPH[..hook_start("init")].replace(
            "const GRAPH_STRIDE: u32 = 0u;",
            &format!("const GRAPH_STRIDE: u32 = {stride}u;"),
        );
        out += TABLE_TEXEL;
        out += INSTANCE_ORIGIN;
        out += INSTANCE_AXIS;
        if stride > 0 {
            out += ATTRIBUTE_ACCESS;
        }
        out += PRELUDE;
        out += "\n";
        out + &self.hooks(stage)
    }

    /// The hooks of the pass of `stage` and the functions they call (the stacks' own code:
    /// what [`Graph::wgsl`] puts after graph.wgsl's declarations and the expression
    /// prelude), for an effect that generates code there.
    pub fn hooks(&self, stage: Stage) -> String {
        let mut out = String::new();
        let draws = self.generates(Stage::Draw);
        match stage {
            Stage::Init => {
                out += &empty_hook("update");
                out += "const GRAPH_INIT: u32 = 1u;\n";
                out += &self.stack_functions(Stage::Init);
                out += &self.init_hook(draws);
            }
            _ => {
                out += &empty_hook("init");
                if self.stage(Stage::Update).iter().any(Option::is_some) {
                    let look = draws
                        || self.update.iter().flatten().any(|s| {
                            s.writes
                                .iter()
                                .any(|(a, _)| self.kept(*a).is_none() && looks(*a))
                        });
                    out += "const GRAPH_UPDATE: u32 = 1u;\n";
                    let _ = writeln!(out, "const GRAPH_LOOK: u32 = {}u;", look as u32);
                    out += &self.stack_functions(Stage::Update);
                    out += &self.switch(Stage::Update);
                } else {
                    // only a draw stack: no update, but the look word written every step
                    out += &empty_hook("update")
                        .replace("const GRAPH_LOOK: u32 = 0u;", "const GRAPH_LOOK: u32 = 1u;");
                }
            }
        }
        if draws {
            out += "const GRAPH_DRAW: u32 = 1u;\n";
            out += &self.stack_functions(Stage::Draw);
            out += &self.draw_hook();
        } else {
            out += &empty_hook("draw");
        }
        out
    }

    /// Each emitter's function of `stage`.
    fn stack_functions(&self, stage: Stage) -> String {
        let mut out = String::new();
        for (e, s) in self.stage(stage).iter().enumerate() {
            if let Some(s) = s {
                out += &function(stage, e, s, self);
            }
        }
        out
    }

    /// The hook of `stage`: the function of the particle's emitter, where it has one.
    fn switch(&self, stage: Stage) -> String {
        let (signature, call, none) = hook(stage);
        let mut out = format!("{signature} {{\n");
        out += &self.cases(stage, call, none);
        out + "}\n"
    }

    /// `switch (*p).emitter` over the emitters with a stack of `stage`.
    fn cases(&self, stage: Stage, call: &str, none: &str) -> String {
        let mut out = "    switch (*p).emitter {\n".to_string();
        for (e, s) in self.stage(stage).iter().enumerate() {
            if s.is_some() {
                let call = call.replace("{e}", &e.to_string());
                let _ = writeln!(out, "        case {e}u: {{ {call}; }}");
            }
        }
        let _ = writeln!(out, "        default: {{ {none} }}");
        out + "    }\n"
    }

    /// The init hook: the record born (the effect's own attributes at their initial values,
    /// the kept ones as the particle's ranges drew them), the emitter's init stack, then
    /// how it is drawn.
    fn init_hook(&self, draws: bool) -> String {
        let (signature, call, none) = hook(Stage::Init);
        let mut out = format!("{signature} {{\n");
        let own = self.initial_record();
        for (k, word) in own
            .iter()
            .enumerate()
            .take(self.stride() as usize - self.kept.len())
        {
            let _ = writeln!(out, "    graph_store({k}u, {word}u);");
        }
        for &(a, k) in &self.kept {
            let _ = writeln!(out, "    graph_store({k}u, {});", look_bits(a));
        }
        out += &self.cases(Stage::Init, call, none);
        if draws {
            out += "    graph_draw(p);\n";
        }
        out + "}\n"
    }

    /// The draw hook: the look word from the particle's own values, then what the
    /// emitter's draw stack sets of it.
    fn draw_hook(&self) -> String {
        let (signature, call, none) = hook(Stage::Draw);
        let mut out = format!("{signature} {{\n");
        for &(a, k) in &self.kept {
            let word = format!("graph_load({k}u)");
            let _ = match a {
                Attribute::Color => writeln!(out, "    (*p).color = {word};"),
                Attribute::Size => writeln!(out, "    (*p).size = bitcast<f32>({word});"),
                _ => writeln!(out, "    (*p).rotation = bitcast<f32>({word});"),
            };
        }
        out += &self.cases(Stage::Draw, call, none);
        out + "}\n"
    }
}

/// Whether `a` lies in the particle's look word (what the draw reads).
fn looks(a: Attribute) -> bool {
    matches!(
        a,
        Attribute::Size | Attribute::Color | Attribute::Rotation | Attribute::Spin
    )
}

/// The particle's look-word bits of attribute `a` (colour, size, rotation at age 0).
fn look_bits(a: Attribute) -> &'static str {
    match a {
        Attribute::Color => "(*p).color",
        Attribute::Size => "bitcast<u32>((*p).size)",
        _ => "bitcast<u32>((*p).rotation)",
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
        Stage::Draw => (
            "fn graph_draw(p: ptr<function, Particle>)",
            "graph_draw_{e}(p)",
            "",
        ),
    }
}

/// Where graph.wgsl's hook of `stage` ("init", "update" or "draw") starts.
fn hook_start(stage: &str) -> usize {
    NO_GRAPH
        .find(&format!("// {stage} hook"))
        .unwrap_or_else(|| unreachable!("graph.wgsl marks its {stage} hook"))
}

/// Where the particle's instance has the effect's origin now (the origin itself for a
/// particle of no instance: an effect placed once, a hit's splash).
const INSTANCE_ORIGIN: &str = "fn graph_instance_origin(p: Particle) -> vec3<f32> {
    let k = instance_of(p);
    if k == NO_INSTANCE {
        return graph_params.transform[3].xyz;
    }
    return (instance_at(k).end * graph_params.transform[3]).xyz;
}
";

/// Axis `axis` of the effect's space as the particle's instance places it (the effect's
/// own for a particle of no instance).
const INSTANCE_AXIS: &str = "fn graph_instance_axis(p: Particle, axis: u32) -> vec3<f32> {
    let k = instance_of(p);
    if k == NO_INSTANCE {
        return graph_params.transform[axis].xyz;
    }
    return (instance_at(k).end * graph_params.transform[axis]).xyz;
}
";

/// How a generated block reads and writes word `k` of the particle's record.
const ATTRIBUTE_ACCESS: &str = "fn graph_load(k: u32) -> u32 {
    return graph_attributes[graph_slot * GRAPH_STRIDE + k];
}
fn graph_store(k: u32, word: u32) {
    graph_attributes[graph_slot * GRAPH_STRIDE + k] = word;
}
";

/// The empty hook of `stage` ("init", "update" or "draw"), as shaders/graph.wgsl writes it.
fn empty_hook(stage: &str) -> String {
    let start = hook_start(stage);
    let end = NO_GRAPH[start..]
        .find("// end")
        .map_or(NO_GRAPH.len(), |n| start + n);
    NO_GRAPH[start..end].to_string()
}

/// Emitter `e`'s stack of `stage` as a function of the particle `p` (and, updating, the
/// force it adds to): its inputs read, its nodes computed, its writes stored, its kill
/// returned.
fn function(stage: Stage, e: usize, s: &StageProgram, graph: &Graph) -> String {
    let mut roots: Vec<_> = s.writes.iter().map(|&(_, id)| id).collect();
    roots.extend(s.stores.iter().map(|&(_, id)| id));
    roots.extend(s.force);
    roots.extend(s.kill);
    let read = |i: usize| input(s.sources[i], s.program.inputs[i].ty, graph);
    let generated = generate(&s.program, &roots, &read, "g");
    let mut out = String::new();
    let signature = match stage {
        Stage::Init => format!("fn graph_init_{e}(p: ptr<function, Particle>, seed: u32)"),
        Stage::Update => format!(
            "fn graph_update_{e}(p: ptr<function, Particle>, force: ptr<function, vec3<f32>>, seed: u32) -> bool"
        ),
        Stage::Draw => format!("fn graph_draw_{e}(p: ptr<function, Particle>)"),
    };
    let _ = writeln!(out, "{signature} {{");
    let uses = |source: Source| s.sources.contains(&source);
    if uses(Source::CallSeed) {
        // a new stream each evaluation: the particle's id with its age (which every step
        // and every birth changes) and the effect's seed
        let salt = match stage {
            Stage::Init => "seed".to_string(),
            _ => "bitcast<u32>((*p).age) ^ seed".to_string(),
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
    // a draw stack sets the look word itself; the others set a kept attribute in the record
    let kept = |a: Attribute| graph.kept(a).filter(|_| stage != Stage::Draw);
    for &(attribute, _) in &s.writes {
        let value = roots.next().cloned().unwrap_or_default();
        out += &write(
            attribute,
            &value,
            kept(attribute),
            graph.kept(Attribute::Rotation),
        );
    }
    for &(index, _) in &s.stores {
        let value = roots.next().cloned().unwrap_or_default();
        out += &store(&graph.attributes[index], &value);
    }
    // (`and_then`: a stack without a force has no root of it to take)
    if let Some(force) = s.force.and_then(|_| roots.next()) {
        let _ = writeln!(out, "    *force = {force};");
    }
    if stage == Stage::Update {
        match s.kill.and_then(|_| roots.next()) {
            Some(kill) => {
                let _ = writeln!(out, "    return !({kill});");
            }
            None => out += "    return true;\n",
        }
    }
    out += "}\n";
    out
}

/// The WGSL that sets `attribute` to `value`: in the particle, or in word `kept` of its
/// record where a draw stack sets it (`rotation`: the word that keeps the rotation, which a
/// new spin turns).
fn write(attribute: Attribute, value: &str, kept: Option<u32>, rotation: Option<u32>) -> String {
    let age = "(*p).age";
    match (attribute, kept) {
        (Attribute::Color, Some(k)) => format!("    graph_store({k}u, pack4x8unorm({value}));\n"),
        (Attribute::Size, Some(k)) => format!("    graph_store({k}u, bitcast<u32>({value}));\n"),
        (Attribute::Rotation, Some(k)) => {
            format!("    graph_store({k}u, bitcast<u32>({value} - (*p).spin * {age}));\n")
        }
        (Attribute::Position, _) => format!("    (*p).pos = {value};\n"),
        (Attribute::Velocity, _) => format!("    (*p).vel = {value};\n"),
        (Attribute::Lifetime, _) => format!("    (*p).lifetime = {value};\n"),
        (Attribute::Size, None) => format!("    (*p).size = {value};\n"),
        (Attribute::Color, None) => format!("    (*p).color = pack4x8unorm({value});\n"),
        (Attribute::Rotation, None) => {
            format!("    (*p).rotation = {value} - (*p).spin * {age};\n")
        }
        (Attribute::Spin, _) => match rotation {
            // (after the rotation, in attribute order: a new spin keeps the rotation now)
            Some(k) => format!(
                "    {{\n        let now = bitcast<f32>(graph_load({k}u)) + (*p).spin * {age};\n        (*p).spin = {value};\n        graph_store({k}u, bitcast<u32>(now - (*p).spin * {age}));\n    }}\n"
            ),
            None => format!("    respin(p, {value});\n"),
        },
        (Attribute::Age | Attribute::Id | Attribute::Emitter, _) => {
            unreachable!("read-only attributes are refused when compiled")
        }
    }
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

/// The WGSL that reads built-in attribute `a`: from its kept word where a draw stack sets
/// it (every stage reads the particle's own value), else from the particle.
fn attribute(a: Attribute, graph: &Graph) -> String {
    match (a, graph.kept(a)) {
        (Attribute::Color, Some(k)) => format!("unpack4x8unorm(graph_load({k}u))"),
        (Attribute::Size, Some(k)) => format!("bitcast<f32>(graph_load({k}u))"),
        (Attribute::Rotation, Some(k)) => {
            format!("(bitcast<f32>(graph_load({k}u)) + (*p).spin * (*p).age)")
        }
        _ => a.wgsl_read().to_string(),
    }
}

/// The WGSL that reads input `source` of type `ty` in a stack's function.
fn input(source: Source, ty: Type, graph: &Graph) -> String {
    match source {
        Source::Attribute(a) => attribute(a, graph),
        Source::Custom(index) => load(&graph.attributes[index]),
        Source::Clock(Clock::Time) => "graph_time()".to_string(),
        Source::Clock(Clock::Dt) => "graph_dt()".to_string(),
        Source::Place(p) => p.wgsl_read().to_string(),
        Source::Axis(space, k) => space.wgsl_axis(k),
        Source::Parameter(slot) => from_words(&format!("graph_params.slots[{slot}]"), ty),
        Source::CallSeed => "call_seed".to_string(),
        Source::ParticleSeed => "particle_seed".to_string(),
        Source::TableBase => "0u".to_string(),
    }
}
