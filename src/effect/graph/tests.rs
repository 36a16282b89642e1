//! The effect graph's refusals, each with its message, and what its stacks compile to.

use super::*;
use crate::effect::EmitterDesc;
use crate::error::Error;
use crate::expr::ErrorKind;

/// An effect of one emitter whose update stack is `update`, with a parameter `heat`, a node
/// `cooling` and a curve `fade`.
fn effect(init: &[&str], update: &[&str]) -> EffectDesc {
    let lines = |v: &[&str]| v.iter().map(|l| l.parse().unwrap()).collect();
    let mut desc = EffectDesc {
        emitters: vec![EmitterDesc {
            rate: 10.0,
            init: lines(init),
            update: lines(update),
            ..Default::default()
        }],
        ..Default::default()
    };
    desc.parameters
        .insert("heat".into(), Parameter::new(1.0).range(0.0, 4.0));
    desc.nodes
        .insert("cooling".into(), "heat * age / lifetime".parse().unwrap());
    desc.curves.insert(
        "fade".into(),
        crate::expr::Curve {
            keys: vec![crate::expr::Key(0.0, 1.0), crate::expr::Key(1.0, 0.0)],
            interpolation: Default::default(),
        },
    );
    desc
}

/// `graph`'s blocks for simulate and emit, each validated in its pass's source as wgpu would.
fn validated_blocks(graph: &Graph) -> Vec<String> {
    let simulate = crate::passes::simulate::SimulateVariant::default().consts();
    let passes = [
        (
            crate::shaders::Shader::Simulate,
            Stage::Update,
            simulate.to_vec(),
        ),
        (crate::shaders::Shader::Emit, Stage::Init, Vec::new()),
    ];
    passes
        .into_iter()
        .map(|(shader, stage, consts)| {
            let block = graph.wgsl(stage);
            let source = shader.generated(&consts, &block);
            crate::shaders::validate(&source).unwrap_or_else(|e| panic!("{stage:?}: {e}"));
            block
        })
        .collect()
}

fn refusal(desc: &EffectDesc) -> GraphError {
    Graph::compile(desc).expect_err("refused")
}

#[test]
fn stacks_compile_to_their_writes_force_and_kill() {
    let desc = effect(
        &["size = 0.2 * curve(fade, particle_rand(1))"],
        &[
            "force += vec3(0, heat, 0)",
            "force -= velocity * 0.5",
            "size *= 0.99",
            "kill if cooling > 0.9",
            "kill if position.y < 0",
        ],
    );
    let graph = Graph::compile(&desc).unwrap();
    let update = graph.update[0].as_ref().unwrap();
    assert_eq!(update.writes.len(), 1, "size, once");
    assert!(update.force.is_some() && update.kill.is_some());
    assert!(graph.init[0].as_ref().unwrap().force.is_none());
    assert_eq!(graph.table.len(), 128, "one curve: one row");
    let block = graph.wgsl(Stage::Update);
    assert!(block.contains("const GRAPH_UPDATE: u32 = 1u;"));
    assert!(
        block.contains("const GRAPH_LOOK: u32 = 1u;"),
        "size is written"
    );
    assert!(
        block.contains("const GRAPH_INIT: u32 = 0u;"),
        "the other hook is empty"
    );
    // both passes' sources with the blocks validate
    validated_blocks(&graph);
}

#[test]
fn an_effect_without_stacks_keeps_the_empty_hooks() {
    let graph = Graph::compile(&effect(&[], &[])).unwrap();
    assert_eq!(graph.wgsl(Stage::Init), wgsl::NO_GRAPH);
    assert_eq!(graph.wgsl(Stage::Update), wgsl::NO_GRAPH);
}

#[test]
fn equal_stacks_generate_equal_text() {
    let a = Graph::compile(&effect(&[], &["force += vec3(0, heat, 0)"])).unwrap();
    let b = Graph::compile(&effect(&[], &["force += vec3(0.0, heat, 0.0)"])).unwrap();
    assert_eq!(a.wgsl(Stage::Update), b.wgsl(Stage::Update));
}

#[test]
fn each_error_kind_names_its_field_column_and_what_was_expected() {
    // a type error: the column inside the line
    let e = refusal(&effect(&[], &["size = velocity * 2"]));
    assert_eq!(e.field, "emitters[0].update[0]");
    assert_eq!(e.error.kind, ErrorKind::Type);
    assert_eq!(e.error.column, 8, "{e}");
    assert!(
        e.error
            .message
            .contains("expected a value of type f32, found vec3"),
        "{e}"
    );
    // an unknown name with the nearest known ones
    let e = refusal(&effect(&[], &["size = hete * 0.1"]));
    assert_eq!(e.error.kind, ErrorKind::UnknownName);
    assert_eq!(
        e.error.message,
        "unknown name `hete`; did you mean `eye` or `heat`?"
    );
    assert_eq!(e.error.column, 8);
    // an unknown target
    let e = refusal(&effect(&[], &["sise = 0.1"]));
    assert_eq!(e.error.kind, ErrorKind::UnknownName);
    assert!(e.error.message.contains("did you mean `size`?"), "{e}");
    // the engine's attributes are read only; so are parameters
    let e = refusal(&effect(&[], &["age = 0"]));
    assert_eq!(e.error.kind, ErrorKind::NotAllowed);
    assert!(e.error.message.starts_with("`age` is read only"), "{e}");
    let e = refusal(&effect(&[], &["heat = 2"]));
    assert!(e.error.message.contains("is a parameter"), "{e}");
    // what belongs in the update stack
    let e = refusal(&effect(&["force += vec3(0, 1, 0)"], &[]));
    assert_eq!(
        (e.field.as_str(), e.error.kind),
        ("emitters[0].init[0]", ErrorKind::NotAllowed)
    );
    let e = refusal(&effect(&["kill if age > 1"], &[]));
    assert!(e.error.message.contains("update stack"), "{e}");
    let e = refusal(&effect(&[], &["force = vec3(0, 1, 0)"]));
    assert!(e.error.message.contains("force += "), "{e}");
    // a cycle among named nodes
    let mut cyclic = effect(&[], &["size = a"]);
    cyclic.nodes.insert("a".into(), "b + 1".parse().unwrap());
    cyclic.nodes.insert("b".into(), "a * 2".parse().unwrap());
    let e = refusal(&cyclic);
    assert_eq!(e.error.kind, ErrorKind::Cycle);
    assert!(e.error.message.contains("a → b → a"), "{e}");
    // a declaration that takes an attribute's name
    let mut clash = effect(&[], &[]);
    clash
        .nodes
        .insert("velocity".into(), "1.0".parse().unwrap());
    let e = refusal(&clash);
    assert_eq!(e.field, "nodes.velocity");
    assert!(e.error.message.contains("already taken"), "{e}");
}

#[test]
fn parameters_take_their_type_and_range() {
    let p = Parameter::new(1.0).range(0.0, 4.0);
    assert!(p.admits(Value::F32(4.0)));
    assert!(!p.admits(Value::F32(4.5)));
    assert!(!p.admits(Value::F32(f32::NAN)));
    assert!(!p.admits(Value::I32(1)));
    assert_eq!(p.allowed(), "a value of type f32 in 0..=4");
    let tint = Parameter::new(glam::Vec3::ONE).range(0.0, 1.0);
    assert!(tint.admits(glam::vec3(0.2, 0.5, 1.0).into()));
    assert!(!tint.admits(glam::vec3(0.2, 1.5, 1.0).into()));
    assert_eq!(tint.allowed(), "a vec3 with each component in 0..=1");
    // a default outside its own range is refused when the effect is validated
    let mut desc = effect(&[], &[]);
    desc.parameters
        .insert("wind".into(), Parameter::new(5.0).range(0.0, 4.0));
    let problems = desc.problems();
    assert_eq!(problems.len(), 1);
    assert_eq!(
        problems[0].to_string(),
        "parameters.wind.default = 5.0: allowed a value of type f32 in 0..=4"
    );
}

#[test]
fn a_broken_expression_in_a_file_names_its_line_and_column() {
    let src = r#"(
    name: "broken",
    parameters: { "heat": (default: 1.0, min: 0.0, max: 2.0) },
    emitters: [(
        rate: 10.0,
        update: [
            "force += vec3(0.0, heat, 0.0)",
            "size = hieght * 0.1",
        ],
    )],
)"#;
    let err = EffectDesc::from_ron(src).unwrap_err();
    let Error::EffectGraph { place, error, .. } = &err else {
        panic!("{err}");
    };
    assert_eq!(*place, Some((8, 13)), "{err}");
    assert_eq!(error.field, "emitters[0].update[1]");
    assert_eq!(error.error.column, 8);
    assert_eq!(
        err.to_string(),
        "effect (line 8, column 13): emitters[0].update[1] `size = hieght * 0.1`: column 8: \
         unknown name `hieght`; did you mean `heat`?"
    );
    // a line that does not parse is refused as the file is read, with its place
    let err = EffectDesc::from_ron(&src.replace("hieght * 0.1", "0.1 +")).unwrap_err();
    let message = err.to_string();
    assert!(message.contains("emitters[0].update[1]"), "{message}");
    assert!(message.contains("line 8"), "{message}");
    assert!(message.contains("column 13: expected"), "{message}");
}

#[test]
fn parameters_and_stacks_read_back_from_a_file() {
    let desc = effect(&["size = 0.1"], &["force += vec3(0, heat, 0)"]);
    let text = desc.to_ron();
    let back = EffectDesc::from_ron(&text).unwrap();
    assert_eq!(back, desc);
    // an effect without them writes none of the new sections
    let plain = EffectDesc {
        emitters: vec![EmitterDesc::default()],
        ..Default::default()
    };
    let text = plain.to_ron();
    for section in [
        "parameters",
        "nodes",
        "curves",
        "gradients",
        "init",
        "update",
    ] {
        assert!(!text.contains(section), "{section} in {text}");
    }
}

#[test]
fn the_effects_own_attributes_are_stored_typed_and_refused_by_name() {
    let mut desc = effect(
        &["home = position"],
        &["heat_left -= dt", "force += (home - position) * heat_left"],
    );
    desc.attributes.insert("heat_left".into(), Value::F32(1.0));
    desc.attributes
        .insert("home".into(), Value::Vec3(glam::Vec3::ZERO));
    let graph = Graph::compile(&desc).unwrap();
    // in name order, each after the one before
    assert_eq!(graph.stride(), 4);
    assert_eq!(graph.attributes[0].name, "heat_left");
    assert_eq!(graph.attributes[1].words(), 1..4);
    assert_eq!(graph.initial_record(), vec![1.0f32.to_bits(), 0, 0, 0]);
    assert_eq!(graph.update[0].as_ref().unwrap().stores.len(), 1);
    for block in validated_blocks(&graph) {
        assert!(block.contains("const GRAPH_STRIDE: u32 = 4u;"), "{block}");
    }
    // an effect with attributes but no init stack still writes their initial values
    let mut bare = effect(&[], &[]);
    bare.attributes.insert("heat_left".into(), Value::F32(1.0));
    let graph = Graph::compile(&bare).unwrap();
    assert!(graph.generates(Stage::Init) && !graph.generates(Stage::Update));
    let block = graph.wgsl(Stage::Init);
    assert!(block.contains(&format!("graph_store(0u, {}u);", 1.0f32.to_bits())));
    // a value of another type
    let e = refusal(&{
        let mut d = desc.clone();
        d.emitters[0].update[0] = "heat_left = home".parse().unwrap();
        d
    });
    assert_eq!(e.error.kind, ErrorKind::Type, "{e}");
    assert!(
        e.to_string()
            .contains("expected a value of type f32, found vec3"),
        "{e}"
    );
    // a name an attribute or a parameter has
    for taken in ["size", "heat"] {
        let mut d = bare.clone();
        d.attributes.insert(taken.into(), Value::F32(0.0));
        let e = refusal(&d);
        assert_eq!(e.field, format!("attributes.{taken}"), "{e}");
        assert!(e.to_string().contains("a name already taken"), "{e}");
    }
    // a misspelt target suggests the effect's own
    let mut d = desc.clone();
    d.emitters[0].update[0] = "heat_lft -= dt".parse().unwrap();
    let e = refusal(&d);
    assert!(e.to_string().contains("did you mean `heat_left`"), "{e}");
}

#[test]
fn too_many_attribute_components_are_refused_when_validated() {
    let mut desc = effect(&[], &[]);
    for k in 0..5 {
        desc.attributes
            .insert(format!("a{k}"), Value::Vec4(glam::Vec4::ZERO));
    }
    let e = desc.validate().expect_err("20 components");
    let text = e.to_string();
    assert!(
        text.contains("attributes") && text.contains("20 components"),
        "{text}"
    );
    assert!(text.contains("at most 16 components"), "{text}");
}

/// A folder of its own under the system's temporary one, emptied.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("flurry-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("modules")).unwrap();
    dir
}

const IMPORTING: &str = r#"(
    name: "whirl",
    imports: ["modules/whirl.ron"],
    emitters: [(
        rate: 10.0,
        update: ["force += whirl(vec3(0.0, 1.0, 0.0), 2.0)"],
    )],
)"#;

const WHIRL: &str = r#"(
    functions: {
        "whirl": (
            parameters: ["axis: vec3", "strength: f32"],
            body: "cross(axis, position) * strength",
        ),
    },
)"#;

#[test]
fn module_files_are_read_relative_to_the_effect_and_their_functions_called() {
    let dir = scratch("modules");
    std::fs::write(dir.join("modules/whirl.ron"), WHIRL).unwrap();
    let path = dir.join("whirl.ron");
    std::fs::write(&path, IMPORTING).unwrap();
    let desc = EffectDesc::from_file(&path).unwrap();
    assert_eq!(desc.imported.len(), 1);
    let graph = Graph::compile(&desc).unwrap();
    assert!(graph.update[0].as_ref().unwrap().force.is_some());
    // the same effect from text: the module is read through the caller's reader
    let err = EffectDesc::from_ron(IMPORTING).unwrap_err();
    assert!(
        err.to_string().contains(
            "imports[0] `modules/whirl.ron`: column 1: the module file is not read: load the \
             effect with EffectDesc::from_file"
        ),
        "{err}"
    );
    let mut desc: EffectDesc = ron::from_str(IMPORTING).unwrap();
    desc.resolve_imports(|import| {
        assert_eq!(import, "modules/whirl.ron");
        Ok(WHIRL.to_string())
    })
    .unwrap();
    desc.validate().unwrap();
    // the imports, not the functions read, are written back
    let back = EffectDesc::from_ron(&desc.to_ron().replace("modules/whirl.ron", "x"));
    assert!(back.is_err(), "imports written back");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_module_file_missing_or_broken_is_refused_naming_the_import() {
    let dir = scratch("missing");
    let path = dir.join("whirl.ron");
    std::fs::write(&path, IMPORTING).unwrap();
    let err = EffectDesc::from_file(&path).unwrap_err();
    let Error::Import { place, error, .. } = &err else {
        panic!("{err}");
    };
    assert_eq!(
        (*place, error.field.as_str()),
        (Some((3, 15)), "imports[0]"),
        "{err}"
    );
    let message = err.to_string();
    assert!(
        message.contains("(line 3, column 15): imports[0] `modules/whirl.ron`: cannot read ")
            && message.contains("modules/whirl.ron"),
        "{message}"
    );
    // a module that does not parse
    std::fs::write(
        dir.join("modules/whirl.ron"),
        "(functions: {\"whirl\": (body: 3)})",
    )
    .unwrap();
    let message = EffectDesc::from_file(&path).unwrap_err().to_string();
    assert!(message.contains("not a module file"), "{message}");
    // a parameter written wrong, a function named as a built-in one
    let broken = WHIRL.replace("axis: vec3", "axis vec3");
    std::fs::write(dir.join("modules/whirl.ron"), broken).unwrap();
    let message = EffectDesc::from_file(&path).unwrap_err().to_string();
    assert!(
        message.contains(
            "imports[0].whirl.parameters[0] `axis vec3`: column 1: expected `name: type`"
        ),
        "{message}"
    );
    std::fs::write(
        dir.join("modules/whirl.ron"),
        WHIRL.replace("\"whirl\"", "\"mix\""),
    )
    .unwrap();
    let message = EffectDesc::from_file(&path).unwrap_err().to_string();
    assert!(
        message.contains("imports[0].mix `mix`: column 1: a function name already taken: the name of a built-in function"),
        "{message}"
    );
    // an error in a function's body names the function and the column in its body
    std::fs::write(
        dir.join("modules/whirl.ron"),
        WHIRL.replace("* strength", "* strenth"),
    )
    .unwrap();
    let message = EffectDesc::from_file(&path).unwrap_err().to_string();
    assert!(
        message.contains("imports[0].whirl.body `cross(axis, position) * strenth`: column 25: unknown name `strenth`; did you mean `strength`?"),
        "{message}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_draw_stack_sets_only_how_a_particle_is_drawn() {
    let drawn = |lines: &[&str]| {
        let mut desc = effect(&[], &["size *= 0.99"]);
        desc.emitters[0].draw = lines.iter().map(|l| l.parse().unwrap()).collect();
        desc
    };
    // writing an attribute in the render stage
    let e = refusal(&drawn(&["alpha = 0.5", "velocity = vec3(0.0)"]));
    assert_eq!(e.field, "emitters[0].draw[1]");
    assert_eq!(e.error.kind, ErrorKind::NotAllowed);
    assert_eq!(e.error.column, 1);
    assert!(
        e.to_string().contains(
            "`velocity` cannot be written in the render stage: a draw stack says how a \
             particle is drawn (color, alpha, size, rotation) and never changes the particle"
        ),
        "{e}"
    );
    for (line, said) in [
        ("kill if age > 1.0", "`kill if` belongs in the update stack"),
        ("force += vec3(1.0)", "`force` belongs in the update stack"),
    ] {
        let e = refusal(&drawn(&[line]));
        assert!(e.to_string().contains(said), "{e}");
    }
    // no random numbers where particles are drawn
    let e = refusal(&drawn(&["size = rand()"]));
    assert!(
        e.to_string().contains("`rand` is not available here"),
        "{e}"
    );
    // what it sets is kept in the record; its code validates in both passes
    let graph = Graph::compile(&drawn(&["alpha *= 0.5", "size = size * 2.0"])).unwrap();
    let kept: Vec<_> = graph.kept.iter().map(|(a, k)| (a.name(), *k)).collect();
    assert_eq!(kept, [("color", 0), ("size", 1)]);
    assert!(graph.generates(Stage::Init) && graph.generates(Stage::Update));
    for block in validated_blocks(&graph) {
        assert!(block.contains("const GRAPH_DRAW: u32 = 1u;"), "{block}");
    }
}

#[test]
fn the_spawn_stage_sets_rate_and_burst_from_the_clock_and_parameters() {
    let mut desc = effect(&[], &[]);
    desc.emitters[0].rate = 10.0;
    desc.emitters[0].spawn = [
        "rate *= heat * (1.0 + time)",
        "burst = 2.0 + step(1.0, origin.y) - step(1.0, effect_vector(vec3(0.0, 1.0, 0.0)).y - 1.0)",
    ]
    .iter()
    .map(|l| l.parse().unwrap())
    .collect();
    let graph = Graph::compile(&desc).unwrap();
    let mut params = graph.default_block();
    params[0] = Value::F32(3.0).to_words();
    let inputs = spawn::SpawnInputs {
        time: 1.0,
        dt: 0.1,
        params: &params,
        placement: attributes::Placement {
            transform: glam::Mat4::from_translation(glam::Vec3::new(0.0, 2.0, 0.0)),
            emitters: &[glam::Mat4::IDENTITY],
            eye: glam::Vec3::ZERO,
            view_dir: glam::Vec3::NEG_Z,
        },
    };
    let s = graph.spawning(&desc, &inputs);
    assert_eq!(
        s,
        [spawn::Spawning {
            rate: 60.0,
            burst: 3.0
        }]
    );
    // a rate below zero spawns nothing
    desc.emitters[0].spawn = vec!["rate = -5.0".parse().unwrap()];
    let graph = Graph::compile(&desc).unwrap();
    assert_eq!(graph.spawning(&desc, &inputs)[0].rate, 0.0);
    // refusals: a particle's attribute, anything but rate and burst, kills
    for (line, said) in [
        (
            "rate = 100.0 * age",
            "`age` is a particle's: the spawn stage runs for the emitter, once a frame",
        ),
        // (placed at the name itself, not where it stands inside another: `heat_idle`)
        (
            "rate = heat_idle * f32(id)",
            "column 24: `id` is a particle's",
        ),
        (
            "size = 1.0",
            "`size` is not set by the spawn stage: it sets `rate`",
        ),
        (
            "kill if time > 1.0",
            "`kill if` belongs in the update stack",
        ),
        ("rate = rand()", "`rand` is not available here"),
        (
            "rate = instance_point(vec3(1.0)).y",
            "column 8: `instance_point` is a particle's: the spawn stage runs for the emitter",
        ),
    ] {
        desc.emitters[0].spawn = vec![line.parse().unwrap()];
        desc.parameters
            .insert("heat_idle".into(), Parameter::new(1.0));
        let e = refusal(&desc);
        assert_eq!(e.field, "emitters[0].spawn[0]", "{e}");
        assert!(e.to_string().contains(said), "{line}: {e}");
    }
}

/// The spawn stage reads curves, gradients and nodes as every stack does, and refuses the
/// effect's own attributes as it refuses the built-in ones (each once a panic).
#[test]
fn the_spawn_stage_reads_tables_and_nodes_and_refuses_the_effects_own_attributes() {
    let mut desc = effect(&[], &[]);
    desc.emitters[0].rate = 10.0;
    desc.nodes
        .insert("doubled".into(), "2.0 * heat".parse().unwrap());
    desc.gradients.insert(
        "glow".into(),
        crate::expr::Gradient {
            keys: vec![
                crate::expr::Key(0.0, [0.0, 0.0, 0.0, 1.0]),
                crate::expr::Key(1.0, [1.0, 0.0, 0.0, 1.0]),
            ],
            interpolation: Default::default(),
        },
    );
    desc.attributes
        .insert("warmth".into(), crate::expr::Value::F32(1.0));
    desc.emitters[0].spawn = [
        "rate *= curve(fade, 0.25) * doubled",
        "burst = gradient(glow, 0.5).x",
    ]
    .iter()
    .map(|l| l.parse().unwrap())
    .collect();
    let graph = Graph::compile(&desc).unwrap();
    let params = graph.default_block();
    let inputs = spawn::SpawnInputs {
        time: 0.0,
        dt: 0.1,
        params: &params,
        placement: attributes::Placement {
            transform: glam::Mat4::IDENTITY,
            emitters: &[glam::Mat4::IDENTITY],
            eye: glam::Vec3::ZERO,
            view_dir: glam::Vec3::NEG_Z,
        },
    };
    let s = graph.spawning(&desc, &inputs)[0];
    assert!((s.rate - 10.0 * 0.75 * 2.0).abs() < 1e-3, "{s:?}");
    assert!((s.burst - 0.5).abs() < 1e-3, "{s:?}");
    for (line, said) in [
        ("rate *= warmth", "column 9: `warmth` is a particle's"),
        ("rate *= cooling", "`age` is a particle's"),
    ] {
        desc.emitters[0].spawn = vec![line.parse().unwrap()];
        let e = refusal(&desc);
        assert_eq!(e.field, "emitters[0].spawn[0]", "{e}");
        assert!(e.to_string().contains(said), "{line}: {e}");
    }
}

/// Chains of named nodes and of functions are checked in time linear in their text and
/// refused where they grow too deep for the checker's stack, and functions that multiply
/// their work where it grows too large: each once overflowed the stack or ran for minutes.
#[test]
fn chains_of_nodes_and_functions_are_refused_in_bounded_time_and_stack() {
    let started = std::time::Instant::now();
    let function = |body: String| crate::effect::Function {
        parameters: vec!["x: f32".into()],
        body: body.parse().unwrap(),
    };
    // 30,000 nodes, each reading the next
    let mut desc = effect(&[], &["size = n0"]);
    for i in 0..30_000 {
        let text = format!("n{} + 1.0", i + 1);
        desc.nodes.insert(format!("n{i}"), text.parse().unwrap());
    }
    desc.nodes.insert("n30000".into(), "1.0".parse().unwrap());
    let e = refusal(&desc);
    assert!(
        e.to_string().contains("nested more than 256 levels deep"),
        "{e}"
    );
    // 3,000 functions, each calling the next
    let mut desc = effect(&[], &["size = link0(1.0)"]);
    for i in 0..3_000 {
        let body = format!("link{}(x) + 1.0", i + 1);
        desc.functions.insert(format!("link{i}"), function(body));
    }
    desc.functions
        .insert("link3000".into(), function("x".into()));
    let e = refusal(&desc);
    assert!(e.to_string().contains("a call counts 3"), "{e}");
    // 27 functions, each calling the next twice: 2^27 bodies
    let mut desc = effect(&[], &["size = g0(1.0)"]);
    for i in 0..27 {
        let body = format!("g{k}(x) + g{k}(x * 1.0001)", k = i + 1);
        desc.functions.insert(format!("g{i}"), function(body));
    }
    desc.functions.insert("g27".into(), function("x".into()));
    let e = refusal(&desc);
    assert!(e.to_string().contains("expands to more than"), "{e}");
    assert!(
        started.elapsed().as_secs_f64() < 10.0,
        "checked in {:?}",
        started.elapsed()
    );
    // the deepest allowed compiles on this thread's stack, through to validated WGSL: a
    // node of a 121-term sum read at the bottom of another
    let sum = |first: &str| format!("{first} + {}", vec!["1.0"; 120].join(" + "));
    let mut desc = effect(&[], &["size = upper"]);
    desc.nodes
        .insert("upper".into(), sum("lower").parse().unwrap());
    desc.nodes
        .insert("lower".into(), sum("age").parse().unwrap());
    let graph = Graph::compile(&desc).unwrap();
    validated_blocks(&graph);
}

/// The shaders that host the stacks declare no function a stack may call by name: a
/// module's own `fn step` once took `step(edge, x)`'s place, and the update refused to
/// build.
#[test]
fn the_shaders_hosting_stacks_leave_the_stacks_names_alone() {
    let simulate = crate::passes::simulate::SimulateVariant::default().consts();
    for (shader, consts) in [
        (crate::shaders::Shader::Simulate, simulate.to_vec()),
        (crate::shaders::Shader::Emit, Vec::new()),
    ] {
        let source = shader.specialised(&consts);
        let module = naga::front::wgsl::parse_str(&source).expect("the shader parses");
        for (_, f) in module.functions.iter() {
            let name = f.name.as_deref().unwrap_or_default();
            let called = crate::expr::Func::ALL
                .iter()
                .map(|&f| crate::expr::called_as(f));
            let taken = called.into_iter().any(|n| n == name);
            assert!(!taken, "{}.wgsl declares `{name}`", shader.name());
        }
    }
    let graph = Graph::compile(&effect(
        &["size = step(0.5, rand())"],
        &["size = step(0.5, age) + distance(position, origin)"],
    ))
    .unwrap();
    validated_blocks(&graph);
}

/// A name an expression cannot write, or one the stacks already read, is refused where it
/// is declared (each was once accepted, then never readable or silently shadowed).
#[test]
fn declared_names_are_names_the_stacks_can_write_and_do_not_shadow() {
    for name in [
        "wärme", "", "a b", "1abc", "true", "rate", "burst", "sin", "vec3",
    ] {
        let mut desc = effect(&[], &[]);
        desc.parameters.insert(name.into(), Parameter::new(1.0));
        let e = refusal(&desc);
        assert_eq!(e.field, format!("parameters.{name}"), "{e}");
        let mut desc = effect(&[], &[]);
        desc.attributes.insert(name.into(), Value::F32(1.0));
        let e = refusal(&desc);
        assert_eq!(e.field, format!("attributes.{name}"), "{e}");
    }
    for name in ["", "a b", "1abc", "größe", "rate", "true"] {
        let mut desc = effect(&[], &[]);
        let function = crate::effect::Function {
            parameters: vec!["x: f32".into()],
            body: "x".parse().unwrap(),
        };
        desc.functions.insert(name.into(), function);
        let e = refusal(&desc);
        assert_eq!(e.field, format!("functions.{name}"), "{e}");
    }
    let mut desc = effect(&[], &[]);
    let function = crate::effect::Function {
        parameters: vec!["wärme: f32".into()],
        body: "1.0".parse().unwrap(),
    };
    desc.functions.insert("warm".into(), function);
    let e = refusal(&desc);
    assert!(
        e.to_string().contains("is not a name (ASCII letters"),
        "{e}"
    );
}

/// A stack that only kills still kills: its condition is what the update returns (the
/// force line before it, absent, takes nothing of it).
#[test]
fn a_kill_without_a_force_is_what_the_update_returns() {
    for update in [
        vec!["kill if age > 0.01"],
        vec!["color = vec4(1.0)", "kill if age > 0.01"],
        vec!["force += vec3(0.0, 0.1, 0.0)", "kill if age > 0.01"],
    ] {
        let graph = Graph::compile(&effect(&[], &update)).unwrap();
        let block = &validated_blocks(&graph)[0];
        let function = &block[block.find("fn graph_update_0").unwrap()..];
        let function = &function[..function.find("\n}").unwrap()];
        assert!(
            function.contains("return !(") && !function.contains("return true"),
            "{update:?}:\n{function}"
        );
    }
}
