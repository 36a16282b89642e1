//! The language as a user meets it: what compiles to what, and each refusal's message.

use super::check::{Compiler, Env, TableKind};
use super::error::ErrorKind;
use super::eval::{evaluate, Context, Precision};
use super::types::{Type, Value};

fn env() -> Env {
    Env {
        inputs: vec![
            ("age".into(), Type::F32),
            ("lifetime".into(), Type::F32),
            ("position".into(), Type::Vec3),
            ("velocity".into(), Type::Vec3),
            ("color".into(), Type::Vec4),
            ("id".into(), Type::U32),
            ("count".into(), Type::I32),
            ("heat".into(), Type::F32),
        ],
        lets: vec![
            ("life".into(), "age / lifetime".into()),
            ("glow".into(), "heat * (1 - life)".into()),
            ("a".into(), "b + 1".into()),
            ("b".into(), "c * 2".into()),
            ("c".into(), "a - 1".into()),
        ],
        tables: vec![
            ("flame".into(), TableKind::Gradient),
            ("puff".into(), TableKind::Curve),
        ],
        random: true,
        functions: vec![
            function("twice", &[("x", Type::F32)], "x * 2"),
            function(
                "swirl",
                &[("axis", Type::Vec3), ("k", Type::F32)],
                "cross(axis, position) * k + vec3(twice(age))",
            ),
            function("ping", &[("x", Type::F32)], "pong(x) + 1"),
            function("pong", &[("x", Type::F32)], "ping(x) * 2"),
            function("broken", &[], "x + nosuch"),
        ],
        // origin: the velocity; axes: the position, the velocity, the position
        frames: vec![
            super::check::Frame {
                name: "effect",
                origin: "velocity".into(),
                axes: ["position".into(), "velocity".into(), "position".into()],
                refusal: None,
            },
            super::check::Frame {
                name: "instance",
                origin: "position".into(),
                axes: ["position".into(), "position".into(), "position".into()],
                refusal: Some("is a particle's here".into()),
            },
        ],
    }
}

fn function(name: &str, parameters: &[(&str, Type)], body: &str) -> super::check::UserFunction {
    super::check::UserFunction {
        name: name.into(),
        parameters: parameters
            .iter()
            .map(|&(n, t)| (n.to_string(), t))
            .collect(),
        body: body.into(),
    }
}

/// `text` compiled and evaluated with age 1, lifetime 4, position (1, 2, 3), velocity
/// (0, -1, 0), colour (1, 0.5, 0.25, 1), id 7, count -3, heat 2.
fn value(text: &str) -> Value {
    let env = env();
    let mut c = Compiler::new(&env);
    let root = c
        .compile(text, None)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    let inputs: Vec<[f64; 4]> = c
        .program
        .inputs
        .iter()
        .map(|i| match i.name.as_str() {
            "age" => [1.0; 4],
            "lifetime" => [4.0; 4],
            "position" => [1.0, 2.0, 3.0, 0.0],
            "velocity" => [0.0, -1.0, 0.0, 0.0],
            "color" => [1.0, 0.5, 0.25, 1.0],
            "id" => [7.0; 4],
            "count" => [-3.0; 4],
            "heat" => [2.0; 4],
            _ => [0.0; 4],
        })
        .collect();
    let ctx = Context {
        inputs: &inputs,
        table: &[],
    };
    let values = evaluate(&c.program, &ctx, Precision::F32);
    Value::from_components(c.program.ty(root), values[root as usize])
}

fn error(text: &str) -> (ErrorKind, usize, String) {
    let env = env();
    let mut c = Compiler::new(&env);
    let e = c.compile(text, None).expect_err(text);
    (e.kind, e.column, e.message)
}

#[test]
fn literals_take_the_type_their_use_asks_for() {
    assert_eq!(value("age * 2"), Value::F32(2.0));
    assert_eq!(value("count + 1"), Value::I32(-2));
    assert_eq!(value("id + 1"), Value::U32(8));
    assert_eq!(value("position * 2 + 1").ty(), Type::Vec3);
    assert_eq!(
        value("position * 2 + 1"),
        Value::Vec3(glam::vec3(3.0, 5.0, 7.0))
    );
    assert_eq!(value("1.0 / 2"), Value::F32(0.5));
    assert_eq!(value("6 / 3 * age"), Value::F32(2.0));
    assert_eq!(
        value("clamp(color, 0, 0.5)"),
        Value::Vec4(glam::vec4(0.5, 0.5, 0.25, 0.5))
    );
    assert_eq!(value("vec4(position, 1).w"), Value::F32(1.0));
    assert_eq!(value("color.rgb.z"), Value::F32(0.25));
    assert_eq!(value("select(1, 2, age > 0.5)"), Value::I32(2));
    assert_eq!(value("f32(count) / 2"), Value::F32(-1.5));
    assert_eq!(value("u32(count)"), Value::U32(4294967293));
    assert_eq!(value("-7i % 0i + -7i / 0i"), Value::I32(-7));
    assert_eq!(value("-7.5 % 2"), Value::F32(-1.5));
}

#[test]
fn named_nodes_are_shared() {
    assert_eq!(value("glow"), Value::F32(1.5));
    let env = env();
    let mut c = Compiler::new(&env);
    let a = c.compile("life * 2", None).unwrap();
    let n = c.program.nodes().len();
    let b = c.compile("life * 2", None).unwrap();
    assert_eq!(a, b, "equal expressions are one node");
    assert_eq!(c.program.nodes().len(), n);
}

#[test]
fn constants_fold() {
    let env = env();
    let mut c = Compiler::new(&env);
    let id = c.compile("sin(0.5) * 2 + vec3(1, 2, 3).y", None).unwrap();
    assert_eq!(
        c.program.value(id),
        Some(Value::F32((0.5f64.sin() as f32 * 2.0) + 2.0))
    );
    // only the constant is left
    assert_eq!(c.program.reachable(&[id]).iter().filter(|u| **u).count(), 1);
}

#[test]
fn rand_is_a_new_number_per_call() {
    let env = env();
    let mut c = Compiler::new(&env);
    let a = c.compile("rand()", None).unwrap();
    let b = c.compile("rand()", None).unwrap();
    assert_ne!(a, b, "two calls are two streams");
    let p = c.compile("particle_rand(3)", None).unwrap();
    let q = c.compile("particle_rand(3)", None).unwrap();
    assert_eq!(p, q, "a particle's number for one stream is one");
}

#[test]
fn parse_errors_name_the_column_and_what_was_expected() {
    let (kind, column, message) = error("age * (lifetime + ");
    assert_eq!((kind, column), (ErrorKind::Parse, 19));
    assert!(message.starts_with("expected an expression"), "{message}");
}

#[test]
fn type_errors_say_what_was_found() {
    let (kind, column, message) = error("age + position.xy * velocity");
    assert_eq!((kind, column), (ErrorKind::Type, 7));
    assert_eq!(
        message,
        "`*` takes two numbers of one type (or a float vector and an f32), found vec2 and vec3"
    );
    let (_, _, message) = error("count + id");
    assert!(
        message.ends_with("found i32 and u32: convert one, as i32(…) or u32(…)"),
        "{message}"
    );
    let (_, column, message) = error("position < velocity");
    assert_eq!(column, 1);
    assert!(message.contains("compare components"), "{message}");
    let (_, column, message) = error("velocity.xw");
    assert_eq!(column, 10);
    assert_eq!(
        message,
        "`.xw` is no swizzle of a vec3: 1 to 4 letters of xyz or rgb"
    );
    let (_, _, message) = error("mix(color, position, 0.5)");
    assert_eq!(
        message,
        "`mix` takes f32 or float vectors, all of one type; found (vec4, vec3, a number)"
    );
    let (_, _, message) = error("1 / 2");
    assert!(message.contains("write 1.0 / 2 for 0.5"), "{message}");
    let (_, _, message) = error("vec3(1, 2)");
    assert_eq!(
        message,
        "`vec3` needs 3 components (or one f32 for all); found 2"
    );
    let (_, _, message) = error("sin(age, 2)");
    assert_eq!(message, "`sin` takes 1 argument, found 2");
    let (_, _, message) = error("u32(-1)");
    assert_eq!(message, "-1 is out of a u32's range 0..=4294967295");
}

#[test]
fn unknown_names_list_the_nearest_known_ones() {
    let (kind, column, message) = error("age / lifetme");
    assert_eq!((kind, column), (ErrorKind::UnknownName, 7));
    assert_eq!(
        message,
        "unknown name `lifetme`; did you mean `lifetime` or `life`?"
    );
    let (_, column, message) = error("1 + smoothstop(0, 1, age)");
    assert_eq!(column, 5);
    assert_eq!(
        message,
        "unknown function `smoothstop`; did you mean `smoothstep`?"
    );
    let (_, _, message) = error("gradient(flam, life)");
    assert_eq!(message, "unknown gradient `flam`; did you mean `flame`?");
    let (_, _, message) = error("curve(flame, life)");
    assert_eq!(message, "unknown curve `flame`");
    let (_, _, message) = error("sin + 1");
    assert_eq!(
        message,
        "unknown name `sin`; `sin` is a function: call it as sin(…)"
    );
}

#[test]
fn cycles_are_named() {
    let (kind, _, message) = error("a * 2");
    assert_eq!(kind, ErrorKind::Cycle);
    assert_eq!(
        message,
        "in `c`: the named nodes refer to one another in a circle: a → b → c → a"
    );
}

#[test]
fn random_numbers_only_where_seeded() {
    let mut env = env();
    env.random = false;
    let mut c = Compiler::new(&env);
    let e = c.compile("age * rand()", None).unwrap_err();
    assert_eq!((e.kind, e.column), (ErrorKind::NotAllowed, 7));
}

#[test]
fn an_expected_type_is_checked() {
    let env = env();
    let mut c = Compiler::new(&env);
    assert!(c.compile("2", Some(Type::F32)).is_ok());
    assert!(c.compile("2", Some(Type::Vec4)).is_ok());
    let e = c.compile("position", Some(Type::Vec4)).unwrap_err();
    assert_eq!(e.message, "expected a value of type vec4, found vec3");
}

#[test]
fn functions_are_called_with_their_parameters_in_place() {
    // age 1, position (1, 2, 3): cross(y, p) * 2 + twice(age)
    assert_eq!(value("twice(age + 0.5)"), Value::F32(3.0));
    let v = glam::Vec3::new(8.0, 2.0, 0.0);
    assert_eq!(value("swirl(vec3(0, 1, 0), 2)"), Value::Vec3(v));
    assert_eq!(value("twice(3)"), Value::F32(6.0));
}

#[test]
fn function_calls_are_checked() {
    let (kind, _, message) = error("twice(position)");
    assert_eq!(kind, ErrorKind::Type);
    assert!(
        message.contains("expected a value of type f32, found vec3")
            && message.contains("`twice`'s parameter `x`"),
        "{message}"
    );
    let (_, _, message) = error("swirl(vec3(1))");
    assert!(
        message.contains("takes 2 arguments (axis: vec3, k: f32), found 1"),
        "{message}"
    );
    let (kind, _, message) = error("ping(1)");
    assert_eq!(kind, ErrorKind::Cycle);
    assert!(message.contains("ping() → pong() → ping()"), "{message}");
    let (kind, _, message) = error("broken()");
    assert_eq!(kind, ErrorKind::UnknownName);
    assert!(
        message.starts_with("in function `broken` (column 1 of its body)"),
        "{message}"
    );
    let (_, _, message) = error("twicee(1)");
    assert!(message.contains("did you mean `twice`"), "{message}");
}

#[test]
fn points_and_directions_are_carried_out_of_a_space_by_its_axes() {
    // origin (0, -1, 0); axes x = (1, 2, 3), y = (0, -1, 0), z = (1, 2, 3)
    let p = value("effect_point(vec3(1.0, 2.0, 3.0))");
    assert_eq!(p, Value::Vec3(glam::Vec3::new(4.0, 5.0, 12.0)));
    let v = value("effect_vector(vec3(1.0, 2.0, 3.0))");
    assert_eq!(v, Value::Vec3(glam::Vec3::new(4.0, 6.0, 12.0)));
    // the axes scaled by a splatted literal
    assert_eq!(
        value("effect_vector(1)"),
        Value::Vec3(glam::Vec3::new(2.0, 3.0, 6.0))
    );
    for (text, kind, said) in [
        (
            "effect_point(age)",
            ErrorKind::Type,
            "`effect_point` takes a vec3 point; found (f32)",
        ),
        (
            "effect_vector(position, age)",
            ErrorKind::Type,
            "`effect_vector` takes 1 argument, found 2",
        ),
        (
            "emitter_point(position)",
            ErrorKind::NotAllowed,
            "`emitter_point` is not available here (spaces: effect, instance)",
        ),
        (
            "instance_vector(position)",
            ErrorKind::NotAllowed,
            "`instance_vector` is a particle's here",
        ),
    ] {
        let (k, _, message) = error(text);
        assert_eq!(k, kind, "{text}: {message}");
        assert!(message.contains(said), "{text}: {message}");
    }
    // a scope without spaces
    let e = super::Expr::parse("effect_point(vec3(1.0))")
        .unwrap()
        .check(&super::Scope::new())
        .unwrap_err();
    assert!(e.message.contains("only an effect's stacks"), "{e}");
}

/// A tree built with operators past what text may nest is kept, not a panic, and
/// compiling it refuses it with the depth it goes past.
#[test]
fn a_built_tree_too_deep_for_text_is_refused_when_compiled() {
    let mut sum = super::name("age");
    for _ in 0..300 {
        sum = sum + 1.0;
    }
    assert!(super::Expr::parse(sum.text()).is_err(), "too tall for text");
    let env = env();
    let mut c = Compiler::new(&env);
    let e = c
        .compile_parsed(sum.root(), sum.text(), None)
        .expect_err("too deep");
    assert!(
        e.message.contains("nested more than 256 levels"),
        "{}",
        e.message
    );
}

/// A constant that folds to no finite number, or past its whole-number type, is refused
/// where it is written (each once accepted, every particle then inf or NaN).
#[test]
fn constants_that_are_no_finite_number_are_refused_where_written() {
    for (text, column) in [
        ("1e39", 1),
        ("age + 1.0 / 0.0", 7),
        ("age * sqrt(-1.0)", 7),
        ("log(0.0) + age", 1),
        ("asin(2.0)", 1),
        ("exp(1000.0)", 1),
        ("normalize(vec3(0.0)).x", 1),
        ("smoothstep(1.0, 1.0, 1.0)", 1),
        ("1.0 % 0.0", 1),
        ("vec3(1.0, 1e39, 0.0).x", 11),
    ] {
        let (kind, at, message) = error(text);
        assert_eq!(kind, ErrorKind::Value, "{text}: {message}");
        assert_eq!(at, column, "{text}: {message}");
        assert!(message.contains("no finite"), "{text}: {message}");
    }
    let (kind, at, message) = error("count + (2147483647i + 1i)");
    assert_eq!((kind, at), (ErrorKind::Value, 9), "{message}");
    assert!(message.contains("out of the range of i32"), "{message}");
    let (kind, _, message) = error("0u - 1u");
    assert_eq!(kind, ErrorKind::Value, "{message}");
    // what stays finite folds as before
    assert_eq!(value("1.0 / 4.0 + age"), Value::F32(1.25));
    assert_eq!(value("2147483646i + 1i"), Value::I32(i32::MAX));
}

/// `dot` takes vectors, as WGSL's does (`dot(age, age)` once passed the checker and failed
/// in the shader); `length` and `distance` take an f32 too.
#[test]
fn dot_takes_vectors_only() {
    let (kind, _, message) = error("dot(age, age)");
    assert_eq!(kind, ErrorKind::Type, "{message}");
    assert!(message.contains("float vectors of one type"), "{message}");
    assert_eq!(value("dot(position, position)").ty(), Type::F32);
    assert_eq!(value("length(age) + distance(age, 1.0)").ty(), Type::F32);
}
