//! The effect parser against mutated files: no input panics, and every refusal of a value
//! names the field, the value and the allowed range.

use flurry::effect::EffectDesc;
use flurry::Error;

/// `src` read as an effect whose module files lie where the shipped ones do.
fn parse(src: &str) -> flurry::Result<EffectDesc> {
    let dir = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/effects"));
    EffectDesc::from_ron_importing(src, |import| {
        std::fs::read_to_string(dir.join(import)).map_err(|e| e.to_string())
    })
}

fn shipped() -> Vec<(String, String)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/effects");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .map(|p| {
            (
                p.display().to_string(),
                std::fs::read_to_string(&p).unwrap(),
            )
        })
        .collect();
    files.sort();
    assert!(!files.is_empty());
    files
}

/// Byte ranges of the numbers in a RON source (outside comments, and outside strings: the
/// numbers in an expression's text are the expression's, which its own tests mutate).
fn numbers(src: &str) -> Vec<(usize, usize)> {
    let b = src.as_bytes();
    let mut out = vec![];
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if b[i] == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += 1 + (b[i] == b'\\') as usize;
            }
            i += 1;
            continue;
        }
        let starts = b[i].is_ascii_digit()
            || (b[i] == b'-' && b.get(i + 1).is_some_and(|c| c.is_ascii_digit()));
        let after_word = i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_');
        if starts && !after_word {
            let s = i;
            i += 1;
            while i < b.len()
                && (b[i].is_ascii_digit() || b[i] == b'.' || b[i] == b'e' || b[i] == b'-')
            {
                i += 1;
            }
            out.push((s, i));
            continue;
        }
        i += 1;
    }
    out
}

#[path = "common/rng.rs"]
mod rng;
use rng::Rng;

#[test]
fn every_number_replaced_by_minus_1e30_is_refused_by_name_or_accepted() {
    for (name, src) in shipped() {
        let nums = numbers(&src);
        assert!(nums.len() > 10, "{name}: only {} numbers found", nums.len());
        let mut refused = 0;
        for &(s, e) in &nums {
            let mutated = format!("{}-1e30{}", &src[..s], &src[e..]);
            match parse(&mutated) {
                Ok(_) => {} // a field where any value goes (an angle, a position...)
                Err(Error::EffectInvalid { problems, .. }) => {
                    refused += 1;
                    for p in &problems {
                        assert!(
                            !p.field.is_empty() && !p.allowed.is_empty(),
                            "{name}: {p:?}"
                        );
                        assert!(
                            p.value.contains("1e30")
                                || p.value.contains("inf")
                                || p.value.contains("1000000000000000000000000000000"),
                            "{name}: the message does not show the value: {p}"
                        );
                    }
                }
                Err(Error::EffectSyntax { message, .. }) => {
                    // whole-number fields cannot hold -1e30: the reader names the field,
                    // the value and the range, and where
                    let field = message.split(" = ").next().unwrap_or_default();
                    assert!(
                        !field.is_empty()
                            && message.contains(" = -1e30: allowed ")
                            && message.contains("0..=4294967295")
                            && message.contains("(line "),
                        "{name}: {message}"
                    );
                }
                Err(other) => panic!("{name}: unexpected error {other}"),
            }
        }
        assert!(
            refused > nums.len() / 3,
            "{name}: only {refused} of {} refused",
            nums.len()
        );
    }
}

#[test]
fn every_number_replaced_by_a_value_of_another_type_is_refused_by_name() {
    // a string, a word, a group where a number goes: the field's path, the text found and
    // what the field takes, not only a position and "Expected float"
    for (name, src) in shipped() {
        for &(s, e) in &numbers(&src) {
            for other in ["\"x\"", "true", "(1)"] {
                let mutated = format!("{}{other}{}", &src[..s], &src[e..]);
                match parse(&mutated) {
                    Err(Error::EffectSyntax { message, .. }) => {
                        let field = message.split(" = ").next().unwrap_or_default();
                        assert!(
                            !field.is_empty()
                                && message.contains(&format!(" = {other}: allowed "))
                                && message.contains("(line "),
                            "{name}: {other} at {s}: {message}"
                        );
                    }
                    // a value whose type is its own (a parameter's default, an attribute's
                    // initial value) takes another type: the stacks that read it refuse it,
                    // with their line
                    Err(Error::EffectGraph {
                        place: Some(_),
                        error,
                        ..
                    }) if error.error.kind == flurry::expr::ErrorKind::Type => {}
                    other_result => panic!("{name}: {other} at {s}: {other_result:?}"),
                }
            }
        }
    }
}

#[test]
fn thousands_of_random_mutations_never_panic() {
    let junk = [
        "NaN",
        "inf",
        "-0",
        "1e39",
        "(",
        ")",
        ",",
        "\"",
        "Some(",
        "[]",
        "99999999999",
        ":",
        "x",
    ];
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut cases = 0;
    for (name, src) in shipped() {
        let nums = numbers(&src);
        for _ in 0..1500 {
            let mut s = src.clone();
            for _ in 0..1 + rng.next() % 3 {
                let r = rng.next();
                s = match r % 3 {
                    // a number replaced by junk
                    0 => {
                        let (a, b) = nums[(r / 3) as usize % nums.len()];
                        if b <= s.len() {
                            format!(
                                "{}{}{}",
                                &s[..a],
                                junk[(r >> 20) as usize % junk.len()],
                                &s[b..]
                            )
                        } else {
                            s
                        }
                    }
                    // a byte range deleted
                    1 => {
                        let a = (r / 3) as usize % s.len();
                        let b = (a + (r >> 40) as usize % 12).min(s.len());
                        if s.is_char_boundary(a) && s.is_char_boundary(b) {
                            format!("{}{}", &s[..a], &s[b..])
                        } else {
                            s
                        }
                    }
                    // junk inserted
                    _ => {
                        let a = (r / 3) as usize % s.len();
                        if s.is_char_boundary(a) {
                            format!(
                                "{}{}{}",
                                &s[..a],
                                junk[(r >> 30) as usize % junk.len()],
                                &s[a..]
                            )
                        } else {
                            s
                        }
                    }
                };
            }
            cases += 1;
            match std::panic::catch_unwind(|| EffectDesc::from_ron(&s)) {
                Err(_) => panic!("{name}: the parser panicked on:\n{s}"),
                Ok(Err(Error::EffectInvalid { problems, .. })) => {
                    assert!(
                        problems
                            .iter()
                            .all(|p| !p.field.is_empty() && !p.allowed.is_empty()),
                        "{name}: {problems:?}"
                    );
                }
                Ok(_) => {}
            }
        }
    }
    assert!(cases >= 3000, "{cases} cases");
}

/// A random stack line from hostile pieces: every name an effect may read (and some it may
/// not), every built-in function with a random number of arguments, constants at and past
/// the edges of their types, deep and long chains.
fn hostile_line(rng: &mut Rng, depth: u32) -> String {
    const NAMES: [&str; 24] = [
        "age",
        "lifetime",
        "position",
        "velocity",
        "color",
        "size",
        "rotation",
        "id",
        "time",
        "dt",
        "origin",
        "eye",
        "view_dir",
        "emitter_origin",
        "heat",
        "warmth",
        "glow",
        "rate",
        "burst",
        "steps",
        "nosuch",
        "fade",
        "flame",
        "force",
    ];
    const CONSTANTS: [&str; 16] = [
        "0.0",
        "1.0",
        "-1.0",
        "1e38",
        "1e39",
        "-1e39",
        "3.4e38",
        "0.5",
        "2147483647i",
        "-2147483648i",
        "4294967295u",
        "0u",
        "1i",
        "true",
        "1e-45",
        "65536",
    ];
    const FUNCTIONS: [&str; 30] = [
        "sin",
        "cos",
        "sqrt",
        "log",
        "exp",
        "asin",
        "acos",
        "pow",
        "step",
        "smoothstep",
        "mix",
        "clamp",
        "normalize",
        "length",
        "distance",
        "dot",
        "cross",
        "reflect",
        "noise",
        "curl_noise",
        "turbulence",
        "curve",
        "gradient",
        "rand",
        "particle_rand",
        "vec3",
        "vec4",
        "f32",
        "u32",
        "wobble",
    ];
    const OPS: [&str; 12] = [
        " + ", " - ", " * ", " / ", " % ", " < ", " == ", " && ", " || ", " >= ", " != ", " > ",
    ];
    let r = rng.next();
    if depth == 0 || r.is_multiple_of(7) {
        return match r % 3 {
            0 => NAMES[(r >> 8) as usize % NAMES.len()].to_string(),
            1 => CONSTANTS[(r >> 8) as usize % CONSTANTS.len()].to_string(),
            _ => format!(
                "{}.{}",
                NAMES[(r >> 8) as usize % NAMES.len()],
                ["x", "xyz", "w", "rgba", "q"][(r >> 16) as usize % 5]
            ),
        };
    }
    match r % 6 {
        0 => {
            let f = FUNCTIONS[(r >> 8) as usize % FUNCTIONS.len()];
            let n = (r >> 16) as usize % 4;
            let args: Vec<String> = (0..n).map(|_| hostile_line(rng, depth - 1)).collect();
            format!("{f}({})", args.join(", "))
        }
        1 => format!("({})", hostile_line(rng, depth - 1)),
        2 => format!("-{}", hostile_line(rng, depth - 1)),
        // a long flat chain
        3 if (r >> 8).is_multiple_of(16) => vec!["age"; 100 + (r >> 12) as usize % 200].join(" + "),
        _ => format!(
            "{}{}{}",
            hostile_line(rng, depth - 1),
            OPS[(r >> 8) as usize % OPS.len()],
            hostile_line(rng, depth - 1)
        ),
    }
}

/// A random f32 expression, well typed for the most part: what a user writes, with now and
/// then a constant at or past the edge of an f32.
fn scalar_line(rng: &mut Rng, depth: u32, spawn: bool) -> String {
    const PARTICLE: [&str; 6] = ["age", "lifetime", "size", "warmth", "glow", "rotation"];
    const ANYWHERE: [&str; 4] = ["time", "dt", "heat", "origin.y"];
    const CONSTANTS: [&str; 8] = [
        "0.5", "2.0", "1e38", "1e39", "0.0", "-3.0", "1e-30", "100.0",
    ];
    let r = rng.next();
    if depth == 0 || r.is_multiple_of(5) {
        return match r % 3 {
            0 if !spawn => PARTICLE[(r >> 8) as usize % PARTICLE.len()].to_string(),
            0 | 1 => ANYWHERE[(r >> 8) as usize % ANYWHERE.len()].to_string(),
            _ => CONSTANTS[(r >> 8) as usize % CONSTANTS.len()].to_string(),
        };
    }
    let a = scalar_line(rng, depth - 1, spawn);
    match r % 8 {
        0 => format!(
            "{}({a})",
            ["sin", "cos", "sqrt", "log", "exp", "abs", "fract"][(r >> 8) as usize % 7]
        ),
        1 => format!(
            "{}({a}, {})",
            ["min", "max", "pow", "step", "atan2"][(r >> 8) as usize % 5],
            scalar_line(rng, depth - 1, spawn)
        ),
        2 => format!("curve(fade, {a})"),
        3 => format!("wobble({a})"),
        4 => format!("clamp({a}, 0.0, 1.0)"),
        _ => format!(
            "{a}{}{}",
            [" + ", " - ", " * ", " / ", " % "][(r >> 8) as usize % 5],
            scalar_line(rng, depth - 1, spawn)
        ),
    }
}

/// `count` effects whose stacks are random hostile lines, each parsed, checked and its code
/// generated: none panics or takes more than 10 s, and none that is accepted folds to no
/// finite number (a refusal is fine: most such lines are wrong).
fn hostile_stacks(count: usize, seed: u64) -> (usize, usize) {
    let mut rng = Rng(seed);
    let (mut accepted, mut refused) = (0, 0);
    let targets = [
        "size", "velocity", "color", "rotation", "warmth", "force", "rate", "burst", "position",
    ];
    for k in 0..count {
        let stage = ["spawn", "init", "update", "draw"][rng.next() as usize % 4];
        let lines: Vec<String> = (0..1 + rng.next() % 3)
            .map(|_| {
                let r = rng.next();
                let target = targets[r as usize % targets.len()];
                let op = ["=", "+=", "*=", "-=", "/="][(r >> 8) as usize % 5];
                let spawn = stage == "spawn";
                let scalar = match spawn {
                    true => ["rate", "burst"][(r >> 24) as usize % 2],
                    false => ["size", "rotation", "warmth"][(r >> 24) as usize % 3],
                };
                match (r >> 16) % 9 {
                    0 => format!("kill if {}", hostile_line(&mut rng, 4)),
                    1..=4 => format!("{scalar} {op} {}", scalar_line(&mut rng, 4, spawn)),
                    _ => format!("{target} {op} {}", hostile_line(&mut rng, 4)),
                }
            })
            .collect();
        let quoted: Vec<String> = lines.iter().map(|l| format!("{l:?}")).collect();
        let src = format!(
            r#"(
    parameters: {{"heat": (default: 1.0, min: 0.0, max: 4.0)}},
    attributes: {{"warmth": 0.5, "steps": "0u"}},
    nodes: {{"glow": "heat * 0.5 + age"}},
    curves: {{"fade": (keys: [(0.0, 1.0), (1.0, 0.0)])}},
    gradients: {{"flame": (keys: [(0.0, (1.0, 0.5, 0.0, 1.0)), (1.0, (0.2, 0.2, 0.2, 0.0))])}},
    functions: {{"wobble": (parameters: ["x: f32"], body: "sin(x * 3.0)")}},
    emitters: [(rate: 100.0, {stage}: [{}])],
)"#,
            quoted.join(", ")
        );
        let started = std::time::Instant::now();
        let result = std::panic::catch_unwind(|| {
            EffectDesc::from_ron(&src).and_then(|d| d.generated_code().map(|_| d))
        });
        let took = started.elapsed();
        assert!(took.as_secs_f64() < 10.0, "case {k} took {took:?}:\n{src}");
        match result {
            Err(_) => panic!("case {k} panicked:\n{src}"),
            Ok(Ok(_)) => accepted += 1,
            Ok(Err(_)) => refused += 1,
        }
    }
    (accepted, refused)
}

/// Random hostile stacks in every stage never panic or hang, and some are accepted (the
/// pieces are not all wrong).
#[test]
fn random_hostile_stacks_never_panic_or_hang() {
    let (accepted, refused) = hostile_stacks(2_000, 0x9e37_79b9_7f4a_7c15);
    eprintln!("{accepted} accepted, {refused} refused");
    assert!(accepted >= 200, "{accepted} accepted, {refused} refused");
}

/// The long run of the above: `cargo test --release --test effect_fuzz -- --ignored`.
#[test]
#[ignore = "a long seeded run: 20,000 effects; run in release before closing a change to effect files or their checks, the counts going to docs/measurements.md"]
fn random_hostile_stacks_long() {
    let (accepted, refused) = hostile_stacks(20_000, 0x2545_f491_4f6c_dd1d);
    eprintln!("{accepted} accepted, {refused} refused");
}
