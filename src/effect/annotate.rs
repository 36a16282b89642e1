//! An effect written as RON with each number's range (and unit) as a comment after it, as
//! the shipped files are commented: what an editor saves, so that whoever opens the file in
//! a text editor next sees what each number may be.
//!
//! The pretty RON that serde writes has one field per line and opens every struct, tuple
//! of fields, enum variant and list on the line of its field: following those openings and
//! closings line by line gives each number's path as validation names it
//! (`emitters[0].shape.Sphere.radius`, `bounds.min[1]`), whose range
//! [`EffectDesc::field_ranges`] has.

use std::collections::HashMap;

use super::{EffectDesc, FieldRange};

/// One level of the nesting the pretty RON is in.
#[derive(Debug)]
enum Level {
    /// A struct, tuple or variant of fields: what its lines name are keys.
    Fields,
    /// A list: each `(` line is its next element.
    List { next: usize },
}

impl EffectDesc {
    /// The effect as pretty RON ([`EffectDesc::to_ron`]) with the range of every number
    /// validation checks written as a comment at the end of its line (`rate: 40.0, //
    /// 0..=1e9 particles per second`; a vector's line names its components' ranges).
    /// Reads back as the same effect.
    pub fn to_ron_commented(&self) -> String {
        let ranges: HashMap<String, FieldRange> = (self.field_ranges().into_iter())
            .map(|r| (r.path.clone(), r))
            .collect();
        let mut out = String::new();
        // the path of each open level (the root's is empty), and what kind of level it is
        let mut stack: Vec<(String, Level)> = Vec::new();
        for line in self.to_ron().lines() {
            let text = line.trim();
            let mut comment = None;
            if let Some((key, value)) = field(text) {
                let base = stack.last().map(|(p, _)| p.as_str()).unwrap_or("");
                let path = join(base, key);
                match opening(value) {
                    Some(opened) => stack.push(opened.level(path)),
                    None => comment = range_comment(&ranges, &path, value),
                }
            } else if let Some(opened) = opening(text) {
                // an element of a list (or the root): its path is the list's and its index
                let element = match stack.last_mut() {
                    Some((path, Level::List { next })) => {
                        *next += 1;
                        format!("{path}[{}]", *next - 1)
                    }
                    Some((path, Level::Fields)) => path.clone(),
                    None => String::new(),
                };
                stack.push(opened.level(element));
            } else if text.starts_with(')') || text.starts_with(']') {
                stack.pop();
            }
            out += line;
            if let Some(c) = comment {
                out += " // ";
                out += &c;
            }
            out.push('\n');
        }
        out
    }
}

/// What a field's value opens on its line.
enum Opening<'a> {
    /// `Name(`: an enum variant with fields (its name is a step of the path).
    Variant(&'a str),
    /// `(` or `Some((`: a struct or tuple of fields.
    Fields,
    /// `[`: a list.
    List,
}

impl Opening<'_> {
    /// The level it opens at `path`.
    fn level(self, path: String) -> (String, Level) {
        match self {
            Opening::Variant(name) => (join(&path, name), Level::Fields),
            Opening::Fields => (path, Level::Fields),
            Opening::List => (path, Level::List { next: 0 }),
        }
    }
}

/// What a value that ends its line open opens: `(`, `Name(`, `Name((`, `[`, each maybe in
/// `Some(` (closed on one line with it); None for a value complete on its line.
fn opening(value: &str) -> Option<Opening<'_>> {
    let v = value.strip_prefix("Some(").unwrap_or(value);
    if v == "[" {
        return Some(Opening::List);
    }
    let name = v.trim_end_matches('(');
    if name.len() == v.len() {
        return None;
    }
    let is_name = name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    match (name.is_empty(), is_name) {
        (true, _) => Some(Opening::Fields),
        (false, true) => Some(Opening::Variant(name)),
        (false, false) => None,
    }
}

/// `key: value` of a line that names a field (the value without its trailing comma).
fn field(text: &str) -> Option<(&str, &str)> {
    let (key, value) = text.split_once(": ")?;
    let is_key = !key.is_empty() && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    is_key.then(|| (key, value.trim_end_matches(',')))
}

fn join(base: &str, key: &str) -> String {
    match base.is_empty() {
        true => key.to_string(),
        false => format!("{base}.{key}"),
    }
}

/// The comment for a number, or a one-line tuple of numbers (a vector, its components
/// `path[0]`, `path[1]`, …), at `path`; None where validation checks no range there.
fn range_comment(ranges: &HashMap<String, FieldRange>, path: &str, value: &str) -> Option<String> {
    let number = |s: &str| s.trim().parse::<f64>().is_ok();
    if number(value) {
        return ranges.get(path).map(|r| r.allowed.clone());
    }
    let inner = value.strip_prefix('(')?.strip_suffix(')')?;
    let parts: Vec<&str> = inner.split(',').collect();
    if parts.is_empty() || !parts.iter().all(|p| number(p)) {
        return None;
    }
    let each: Vec<Option<&FieldRange>> = (0..parts.len())
        .map(|k| ranges.get(&format!("{path}[{k}]")))
        .collect();
    let first = each.first().copied().flatten()?;
    if each
        .iter()
        .all(|r| r.is_some_and(|r| r.allowed == first.allowed))
    {
        return Some(format!("each {}", first.allowed));
    }
    let named: Vec<String> = (each.iter().enumerate())
        .filter_map(|(k, r)| r.map(|r| format!("[{k}] {}", r.allowed)))
        .collect();
    Some(named.join("; "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::effect::shipped;

    /// Every shipped effect written with its ranges reads back as itself, and every number
    /// of it whose range validation checks, written on a line of its own, has that range
    /// in the comment of its line.
    #[test]
    fn commented_effects_read_back_and_name_each_range() {
        for (path, effect) in shipped::all() {
            let text = effect.to_ron_commented();
            let name = path.display();
            let again = shipped::read_as(&text, &path).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(again, effect, "{name}");
            let commented = text.lines().filter(|l| l.contains(" // ")).count();
            assert!(commented >= 8, "{name}: {commented} comments");
        }
    }

    #[test]
    fn comments_name_the_range_and_unit_of_their_field() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/effects/snow.ron");
        let snow = EffectDesc::from_file(std::path::Path::new(path)).unwrap();
        let text = snow.to_ron_commented();
        let line = |start: &str| {
            (text.lines().map(str::trim))
                .find(|l| l.starts_with(start))
                .unwrap_or_else(|| panic!("no line {start}:\n{text}"))
                .to_string()
        };
        assert_eq!(line("rate:"), "rate: 0.0, // 0..=1e9 particles per second");
        assert_eq!(line("drag:"), "drag: 1.5, // 0..=1000 per second");
        // in a variant's fields (shape: Box(…)), a vector: each component's range
        assert_eq!(
            line("min: (-12.0"),
            "min: (-12.0, 0.0, -12.0), // each a finite number within ±1e9"
        );
        // in a struct (size: (mean, variance)), and in an optional one (turbulence)
        assert!(line("mean: 0.035").ends_with("// 0..=1e6 metres"));
        assert!(line("scale: 2.5").ends_with("// 0.01..=10000 m"));
        // the burst's time, in the first element of a list
        assert!(line("time: 0.0").ends_with("// 0..=1e9 seconds"));
        // strings, names and flags get none
        assert!(!line("name:").contains("//"));
        assert!(!line("follow_camera:").contains("//"));
    }
}
