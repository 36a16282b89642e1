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

/// xorshift, so the mutations are the same on every run.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

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
