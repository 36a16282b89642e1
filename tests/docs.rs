//! What the documentation promises a reader: a README short enough to be read (the
//! embedding reference lives in the crate docs), a language reference with a row for every
//! function and input the expressions have, and no name of glam's that glam 0.34, the
//! version flurry re-exports, does not have.

use std::path::Path;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

#[test]
fn the_readme_is_at_most_300_lines() {
    let readme = std::fs::read_to_string(Path::new(ROOT).join("README.md")).unwrap();
    let lines = readme.lines().count();
    assert!(lines <= 300, "README.md has {lines} lines");
}

/// Every file under `dir` (recursively) with one of `extensions`.
fn files(dir: &Path, extensions: &[&str], out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, extensions, out);
        } else if path
            .extension()
            .is_some_and(|e| extensions.iter().any(|x| e == *x))
        {
            out.push(path);
        }
    }
}

#[test]
fn no_text_names_a_glam_constructor_glam_no_longer_has() {
    // glam 0.34 keeps its projections and look-at matrices under glam::camera::rh (and lh):
    // Mat4's own right-handed constructors are gone (names built here, so this file does
    // not name them itself)
    let gone: Vec<String> = [
        "look_at",
        "look_to",
        "perspective",
        "perspective_infinite",
        "perspective_infinite_reverse",
        "orthographic",
    ]
    .iter()
    .map(|name| format!("{name}_{}", "rh"))
    .collect();
    let mut texts = vec![Path::new(ROOT).join("README.md")];
    for dir in ["src", "examples", "docs", "benches"] {
        files(&Path::new(ROOT).join(dir), &["rs", "md"], &mut texts);
    }
    for path in texts {
        let text = std::fs::read_to_string(&path).unwrap();
        for name in &gone {
            // a name followed by more of a name (`look_at_rh_x`) is another one
            let named = text.match_indices(name.as_str()).any(|(at, _)| {
                let next = text[at + name.len()..].chars().next();
                !next.is_some_and(|c| c.is_alphanumeric() || c == '_')
            });
            assert!(!named, "{} names {name}", path.display());
        }
    }
}

#[test]
fn the_language_reference_and_the_readme_list_every_function_and_input() {
    let reference = std::fs::read_to_string(Path::new(ROOT).join("docs/expressions.md")).unwrap();
    let rows: Vec<&str> = reference.lines().filter(|l| l.starts_with("| `")).collect();
    let listed = |name: &str| {
        let quoted = format!("`{name}`");
        rows.iter()
            .any(|row| row.split('|').nth(1).is_some_and(|c| c.contains(&quoted)))
    };
    for (name, _) in flurry::expr::functions() {
        assert!(
            listed(name),
            "docs/expressions.md has no row for the function `{name}`"
        );
    }
    for (name, _, _) in flurry::effect::inputs() {
        assert!(listed(name), "docs/expressions.md has no row for `{name}`");
    }
    // and the README's summary names every one
    let readme = std::fs::read_to_string(Path::new(ROOT).join("README.md")).unwrap();
    let words: std::collections::HashSet<&str> = readme
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .collect();
    let functions = flurry::expr::functions().into_iter().map(|(n, _)| n);
    let inputs = flurry::effect::inputs().into_iter().map(|(n, _, _)| n);
    for name in functions.chain(inputs) {
        assert!(words.contains(name), "the README's summary lacks `{name}`");
    }
}
