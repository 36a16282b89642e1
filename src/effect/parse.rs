//! Reading an effect from RON text: a value the schema cannot take is refused naming the
//! field's path (`emitters[0].bursts[1].cycles`), the text found there, what is allowed and
//! where (line and column), as validation names a value out of range. RON's own messages
//! give only a position and the type it expected ("Expected float").

use serde::Deserialize as _;

use super::EffectDesc;

/// What a whole-number field of the schema holds (every one is a `u32`).
const WHOLE: &str = "a whole number 0..=4294967295";

/// Parse `src` as an effect; a refusal is one message naming field, value and range.
pub(super) fn effect(src: &str) -> Result<EffectDesc, String> {
    let mut de = ron::Deserializer::from_str(src).map_err(|e| describe(src, "", e))?;
    let mut track = serde_path_to_error::Track::new();
    let tracked = serde_path_to_error::Deserializer::new(&mut de, &mut track);
    let parsed = EffectDesc::deserialize(tracked);
    let desc = parsed.map_err(|e| {
        // (the root is "." and a part not yet known "?": neither names a field)
        let path = track.path().to_string();
        let path = path.trim_end_matches(['?', '.']);
        describe(src, path, de.span_error(e))
    })?;
    de.end().map_err(|e| describe(src, "", de.span_error(e)))?;
    Ok(desc)
}

/// One parse error as a message: `path = value: allowed … (line L, column C)` where the
/// value is the trouble, the parser's own words where the text is no value at all.
fn describe(src: &str, path: &str, e: ron::error::SpannedError) -> String {
    use ron::Error as E;
    let at = e.span.start;
    let place = format!("(line {}, column {})", at.line, at.col);
    let value = || token_at(src, at.line, at.col);
    let quoted = |names: &[&str]| match names {
        [] => "nothing".to_string(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    };
    // the field path up to the struct that holds an unknown or doubled field
    let holder = |field: &str| {
        let holder = path.strip_suffix(field).unwrap_or(path);
        holder.trim_end_matches('.').to_string()
    };
    let field = |name: &str| match holder(name).as_str() {
        "" => name.to_string(),
        h => format!("{h}.{name}"),
    };
    let allowed = match &e.code {
        E::ExpectedFloat => "a number".to_string(),
        E::ExpectedInteger | E::IntegerOutOfBounds | E::InvalidIntegerDigit { .. } => {
            WHOLE.to_string()
        }
        E::ExpectedBoolean => "true or false".into(),
        E::ExpectedString | E::ExpectedStringEnd => "a string in double quotes".into(),
        E::ExpectedOption | E::ExpectedOptionEnd => "None or Some(…)".into(),
        E::ExpectedArray | E::ExpectedArrayEnd => "a list [a, b, …]".into(),
        E::ExpectedNamedStructLike(name) if !name.is_empty() => {
            format!("{name}'s fields in brackets: (name: value, …)")
        }
        E::ExpectedStructLike | E::ExpectedNamedStructLike(_) | E::ExpectedStructLikeEnd => {
            "a group in brackets: (…)".into()
        }
        E::ExpectedDifferentLength { expected, found } => {
            // (the parser stops at the group's end: its count says more than its text)
            return format!("{path} = {found} values: allowed {expected} {place}");
        }
        E::InvalidValueForType { expected, .. } => expected.clone(),
        E::NoSuchEnumVariant {
            expected, found, ..
        } => {
            return format!("{path} = {found}: allowed {} {place}", quoted(expected));
        }
        E::NoSuchStructField {
            expected, found, ..
        } => {
            let f = field(found);
            return format!(
                "{f}: no such field; allowed the fields {} {place}",
                quoted(expected)
            );
        }
        E::MissingStructField { field: name, .. } => {
            return format!("{}: missing, and it has no default {place}", field(name));
        }
        E::DuplicateStructField { field: name, .. } => {
            return format!("{}: given twice {place}", field(name));
        }
        // the schema's own refusals (a count out of range) name value and range already
        E::Message(m) if m.contains(": allowed ") => return format!("{path} = {m} {place}"),
        other => {
            let at = if path.is_empty() {
                String::new()
            } else {
                format!("{path}: ")
            };
            return format!("{at}{other} {place}");
        }
    };
    let path = if path.is_empty() { "the effect" } else { path };
    format!("{path} = {}: allowed {allowed} {place}", value())
}

/// The text of the value at (`line`, `col`) (1-based, in characters) or the first after
/// it past blanks (the parser may stop just before a value): a quoted string, a bracketed
/// group (shortened), or a word or number from its start (the position may fall inside it).
fn token_at(src: &str, line: usize, col: usize) -> String {
    let chars: Vec<char> = src.chars().collect();
    let line_start = src
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(|l| l.chars().count())
        .sum::<usize>();
    let word = |c: char| c.is_alphanumeric() || "+-._".contains(c);
    let mut start = (line_start + col.saturating_sub(1)).min(chars.len());
    if chars.get(start).is_some_and(|c| c.is_whitespace()) {
        while chars.get(start).is_some_and(|c| c.is_whitespace()) {
            start += 1;
        }
    } else {
        while start > 0 && chars.get(start).is_none_or(|&c| word(c)) && word(chars[start - 1]) {
            start -= 1;
        }
        // (inside a string: from its opening quote)
        if start > 0 && chars[start - 1] == '"' && chars.get(start) != Some(&'"') {
            start -= 1;
        }
    }
    let rest = &chars[start..];
    let taken: String = match rest.first() {
        None => return "nothing (the end of the file)".into(),
        Some('"') => {
            let end = rest[1..]
                .iter()
                .position(|&c| c == '"')
                .map_or(rest.len(), |i| i + 2);
            rest[..end].iter().collect()
        }
        Some('(' | '[') => rest[..group_len(rest)].iter().collect(),
        Some(&c) if word(c) => {
            // a word and the group it opens: `Some(1)`, `Host(3)`
            let name = rest.iter().take_while(|&&c| word(c)).count();
            let group = match rest.get(name) {
                Some('(') => group_len(&rest[name..]),
                _ => 0,
            };
            rest[..name + group].iter().collect()
        }
        Some(&c) => c.to_string(),
    };
    // a group over several lines is shown on one, and only its start if long
    let taken = taken.split_whitespace().collect::<Vec<_>>().join(" ");
    const MOST: usize = 40;
    if taken.chars().count() > MOST {
        format!("{}…", taken.chars().take(MOST).collect::<String>())
    } else {
        taken
    }
}

/// The length of the bracketed group `text` starts with (all of it if never closed).
fn group_len(text: &[char]) -> usize {
    let (open, close) = if text.first() == Some(&'[') {
        ('[', ']')
    } else {
        ('(', ')')
    };
    let mut depth = 0;
    let end = text.iter().position(|&c| {
        depth += (c == open) as i32 - (c == close) as i32;
        depth == 0
    });
    end.map_or(text.len(), |i| i + 1)
}

/// Line and column (1-based, in characters) where `text` is written in `src` as a quoted
/// string (an expression or a stack's line), or as a bare name (a declaration's key); the
/// first place it is, if anywhere.
pub(super) fn place_of(src: &str, text: &str) -> Option<(usize, usize)> {
    let quoted = format!("{text:?}");
    let at = src.find(&quoted).or_else(|| src.find(text))?;
    let before = &src[..at];
    let line = before.matches('\n').count() + 1;
    let column = before[before.rfind('\n').map_or(0, |n| n + 1)..]
        .chars()
        .count()
        + 1;
    Some((line, column))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The message for `src`, which must be refused.
    fn refusal(src: &str) -> String {
        effect(src).map(|_| ()).unwrap_err()
    }

    #[test]
    fn whole_numbers_out_of_range_or_of_the_wrong_kind_name_field_value_and_range() {
        let cases = [
            (
                "(emitters: [(bursts: [(time: 0.0, count: 3, cycles: Some(-1))])])",
                "emitters[0].bursts[0].cycles = -1",
            ),
            (
                "(emitters: [(bursts: [(time: 0.0, count: 3, cycles: Some(1e30))])])",
                "emitters[0].bursts[0].cycles = 1e30",
            ),
            (
                "(emitters: [(bursts: [(time: 0.0, count: 3, cycles: Some(NaN))])])",
                "emitters[0].bursts[0].cycles = NaN",
            ),
            (
                "(render: Ribbon(subdivisions: 1e20))",
                "render.Ribbon.subdivisions = 1e20",
            ),
            (
                "(emitters: [(shape: Mesh(mesh: Host(-1)))])",
                "emitters[0].shape.Mesh.mesh.Host = -1",
            ),
            (
                "(render: Ribbon(subdivisions: 4, texture: Some((image: 1e30))))",
                "render.Ribbon.texture.image = 1e30",
            ),
            (
                "(crowd: Some((city: (size: (1e30, 4)))))",
                "crowd.city.size[0] = 1e30",
            ),
            (
                "(crowd: Some((city: (block: -1))))",
                "crowd.city.block = -1",
            ),
            (
                "(crowd: Some((city: (street: NaN))))",
                "crowd.city.street = NaN",
            ),
            (
                "(crowd: Some((city: (seed: 1e20))))",
                "crowd.city.seed = 1e20",
            ),
            (
                "(crowd: Some((destinations: -1)))",
                "crowd.destinations = -1",
            ),
        ];
        for (src, shown) in cases {
            let m = refusal(src);
            assert!(
                m.contains(shown) && m.contains(WHOLE) && m.contains("(line 1, column "),
                "{src}: {m}"
            );
        }
    }

    #[test]
    fn values_of_the_wrong_type_name_field_value_and_what_is_allowed() {
        let cases = [
            (
                "(forces: (drag: \"x\"))",
                "forces.drag = \"x\": allowed a number",
            ),
            (
                "(forces: (drag: (1)))",
                "forces.drag = (1): allowed a number",
            ),
            (
                "(forces: 3)",
                "forces = 3: allowed Forces's fields in brackets",
            ),
            ("(name: 3)", "name = 3: allowed a string in double quotes"),
            ("(sort: Some(3))", "sort = 3: allowed true or false"),
            (
                "(emitters: [(shape: Sphere(center: (0, 0, 0), radius: x))])",
                "emitters[0].shape.Sphere.radius = x: allowed a number",
            ),
            (
                "(blend: Multiply)",
                "blend = Multiply: allowed Additive or Alpha",
            ),
            (
                "(emitters: [(shape: Mesh(mesh: Cub))])",
                "emitters[0].shape.Mesh.mesh = Cub: allowed Cube, Tetrahedron",
            ),
            (
                "(forces: (drg: 1.0))",
                "forces.drg: no such field; allowed the fields gravity, wind, drag or turbulence",
            ),
            ("(emitters: 3)", "emitters = 3: allowed a list"),
            (
                "(forces: (gravity: (0.0, -9.8)))",
                "forces.gravity = 2 values: allowed an array of length 3",
            ),
            (
                "(forces: (wind: Some(1)))",
                "forces.wind = Some(1): allowed a group in brackets",
            ),
        ];
        for (src, shown) in cases {
            let m = refusal(src);
            assert!(
                m.contains(shown) && m.contains("(line 1, column "),
                "{src}: {m}"
            );
        }
    }

    #[test]
    fn a_counts_own_refusal_keeps_its_range_and_gains_its_path() {
        let m = refusal("(emitters: [(rate: 1.0), (bursts: [(time: 0.0, count: 1e30)])])");
        assert!(
            m.contains("emitters[1].bursts[0].count = 1e30: allowed whole numbers 0..=4294967295"),
            "{m}"
        );
    }

    #[test]
    fn the_value_is_read_from_its_start_on_its_line() {
        let src = "(\n  forces: (\n    drag: nope,\n  ),\n)";
        let m = refusal(src);
        assert!(
            m.contains("forces.drag = nope: allowed a number (line 3, column"),
            "{m}"
        );
        assert_eq!(token_at("a: [1, 2, (3)], b", 1, 4), "[1, 2, (3)]");
        assert_eq!(token_at("x: -12e3,", 1, 5), "-12e3");
        assert_eq!(token_at("x:", 1, 3), "nothing (the end of the file)");
        assert_eq!(token_at("a:\n   (1,\n 2)", 1, 3), "(1, 2)");
    }
}
