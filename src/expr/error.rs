//! What goes wrong in an expression, and where in its text.

use super::ast::Span;

/// The kind of an [`ExprError`], for callers that act on it (an editor colouring it, a test).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The text is not an expression: an unexpected character or token, a missing operand.
    Parse,
    /// Operands or arguments of types the operator or function does not take.
    Type,
    /// A name that is no attribute, parameter, node, input, function, curve or gradient.
    UnknownName,
    /// Named nodes that refer to one another in a circle.
    Cycle,
    /// Something the place the expression is written in does not allow (writing an
    /// attribute in the render stage, a random number where none is seeded).
    NotAllowed,
    /// A constant that comes out as no finite number (`1.0 / 0.0`, `sqrt(-1.0)`, `1e39`
    /// as an f32) or past its whole-number type's range (`2147483647i + 1i`).
    Value,
}

/// An expression refused, with the column inside its text (1-based, in characters) and what
/// was expected; the effect file's reader adds the file's line and column.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("column {column}: {message}")]
pub struct ExprError {
    /// What went wrong.
    pub kind: ErrorKind,
    /// 1-based, in characters, of the start of the offending part.
    pub column: usize,
    /// Byte offsets of the offending part in the text.
    pub span: Span,
    /// What was found and what was expected there (the nearest names for an unknown one).
    pub message: String,
}

impl ExprError {
    pub(crate) fn new(kind: ErrorKind, text: &str, span: Span, message: impl Into<String>) -> Self {
        let start = span.start.min(text.len());
        let column = text
            .get(..start)
            .map_or(start, |before| before.chars().count())
            + 1;
        ExprError {
            kind,
            column,
            span,
            message: message.into(),
        }
    }
}

/// The known names nearest to `name` (by edit distance, at most a third of its length plus
/// one, nearest first, at most three), for "did you mean".
pub(crate) fn nearest<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
    let limit = name.chars().count() / 3 + 1;
    let mut scored: Vec<(usize, &str)> = known
        .into_iter()
        .map(|k| (edit_distance(name, k), k))
        .filter(|&(d, k)| d <= limit || k.starts_with(name) || name.starts_with(k))
        .collect();
    scored.sort();
    scored.dedup_by(|a, b| a.1 == b.1);
    scored.into_iter().take(3).map(|(_, k)| k).collect()
}

/// Levenshtein distance, in characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let next = (diagonal + (ca != cb) as usize)
                .min(row[j] + 1)
                .min(row[j + 1] + 1);
            diagonal = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

/// "; did you mean `a`, `b`?" or nothing.
pub(crate) fn suggestion(near: &[&str]) -> String {
    if near.is_empty() {
        return String::new();
    }
    let list: Vec<String> = near.iter().map(|n| format!("`{n}`")).collect();
    format!("; did you mean {}?", list.join(" or "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance_counts_edits() {
        assert_eq!(edit_distance("lifetme", "lifetime"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }

    #[test]
    fn nearest_names_come_first() {
        let known = ["lifetime", "life", "age", "velocity"];
        assert_eq!(nearest("lifetme", known), ["lifetime", "life"]);
        assert!(nearest("zzzzzz", known).is_empty());
    }

    #[test]
    fn columns_count_characters() {
        let e = ExprError::new(ErrorKind::Parse, "é + )", 5..6, "x");
        assert_eq!(e.column, 5);
        assert_eq!(e.to_string(), "column 5: x");
    }
}
