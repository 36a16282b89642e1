//! One line of a module stack: what it writes and the expression it writes.
//!
//! ```text
//! line := name "=" expr          set an attribute (or a render output)
//!       | name op "=" expr       op: + - * /   (`size *= 0.5` is `size = size * 0.5`)
//!       | "kill" "if" expr       the particle dies where the bool is true
//! ```
//!
//! `force += expr` adds an acceleration (m/s²) to the step's forces; it is the one target that
//! is no attribute, and it only adds.

use std::fmt;

use super::ast::BinaryOp;
use super::error::{ErrorKind, ExprError};
use super::Expr;

/// What a line does with its expression.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// `target = value`, or with `op` (`+=`, `-=`, `*=`, `/=`): `target = target op value`.
    Set {
        /// An attribute, a render output or `force`.
        target: String,
        /// The operator before `=`, if any.
        op: Option<BinaryOp>,
    },
    /// `kill if value`.
    Kill,
}

/// One line of a stage's stack, parsed: its action and its expression, which starts `offset`
/// bytes into the line's text (errors inside it are given as columns of the whole line).
#[derive(Clone, Debug)]
pub struct Statement {
    text: String,
    action: Action,
    value: Expr,
    offset: usize,
}

impl PartialEq for Statement {
    fn eq(&self, other: &Statement) -> bool {
        self.action == other.action && self.value == other.value
    }
}

impl Statement {
    /// Parse one line; a refusal names the column and what was expected there.
    pub fn parse(text: &str) -> Result<Statement, ExprError> {
        let error = |at: usize, message: String| {
            Err(ExprError::new(ErrorKind::Parse, text, at..at, message))
        };
        let start = text.len() - text.trim_start().len();
        let word_end = text[start..]
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .map_or(text.len(), |n| start + n);
        let word = &text[start..word_end];
        let first = word.chars().next();
        if !first.is_some_and(|c| c.is_alphabetic() || c == '_') {
            return error(
                start,
                format!(
                    "expected `attribute = expression`, `attribute += expression` or `kill if condition`, found {}",
                    found(&text[start..])
                ),
            );
        }
        let rest = &text[word_end..];
        let after = word_end + (rest.len() - rest.trim_start().len());
        let (action, offset) = if word == "kill" {
            let then = &text[after..];
            let is_if = then.starts_with("if")
                && !then[2..].starts_with(|c: char| c.is_alphanumeric() || c == '_');
            if !is_if {
                return error(
                    after,
                    format!("expected `if` after `kill`, found {}", found(then)),
                );
            }
            (Action::Kill, after + 2)
        } else {
            let then = &text[after..];
            let ops = [
                ("+=", Some(BinaryOp::Add)),
                ("-=", Some(BinaryOp::Sub)),
                ("*=", Some(BinaryOp::Mul)),
                ("/=", Some(BinaryOp::Div)),
                ("=", None),
            ];
            let Some(&(symbol, op)) = ops
                .iter()
                .find(|(s, _)| then.starts_with(s) && !then[s.len()..].starts_with('='))
            else {
                return error(
                    after,
                    format!(
                        "expected `=` (or `+=`, `-=`, `*=`, `/=`) after `{word}`, found {}",
                        found(then)
                    ),
                );
            };
            let target = word.to_string();
            (Action::Set { target, op }, after + symbol.len())
        };
        let value = Expr::parse(&text[offset..]).map_err(|e| shift(e, text, offset))?;
        Ok(Statement {
            text: text.to_string(),
            action,
            value,
            offset,
        })
    }

    /// `target = value` (`op`: none, or the operator of `+=`, `-=`, `*=`, `/=`).
    pub fn set(target: &str, op: Option<BinaryOp>, value: Expr) -> Statement {
        let symbol = op.map_or("", |op| op.symbol());
        Statement::built(&format!("{target} {symbol}= {value}"))
    }

    /// `kill if condition`.
    pub fn kill_if(condition: Expr) -> Statement {
        Statement::built(&format!("kill if {condition}"))
    }

    fn built(text: &str) -> Statement {
        Statement::parse(text).unwrap_or_else(|e| unreachable!("printed `{text}` reads back: {e}"))
    }

    /// The line as written.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// What the line does: set a target, or kill.
    pub fn action(&self) -> &Action {
        &self.action
    }

    /// The expression the line writes (or tests, for `kill if`).
    pub fn value(&self) -> &Expr {
        &self.value
    }

    /// An error about the expression, with its column counted in the whole line.
    pub(crate) fn locate(&self, e: ExprError) -> ExprError {
        shift(e, &self.text, self.offset)
    }

    /// An error about the line's target (the name before `=`).
    pub(crate) fn target_error(&self, kind: ErrorKind, message: String) -> ExprError {
        let start = self.text.len() - self.text.trim_start().len();
        let end = self.text[start..]
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .map_or(self.text.len(), |n| start + n);
        ExprError::new(kind, &self.text, start..end, message)
    }
}

/// `e`, found in the part of `line` from byte `offset`, as an error of the whole line.
fn shift(e: ExprError, line: &str, offset: usize) -> ExprError {
    let span = e.span.start + offset..e.span.end + offset;
    ExprError::new(e.kind, line, span, e.message)
}

/// What a parse found at the start of `rest`, as an error message says it.
fn found(rest: &str) -> String {
    match rest.trim().chars().next() {
        None => "the end".to_string(),
        Some(_) => {
            let token: String = rest
                .trim()
                .chars()
                .take_while(|c| !c.is_whitespace())
                .take(12)
                .collect();
            format!("`{token}`")
        }
    }
}

impl fmt::Display for Statement {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match &self.action {
            Action::Kill => write!(f, "kill if {}", self.value),
            Action::Set { target, op } => {
                let symbol = op.map_or("", |op| op.symbol());
                write!(f, "{target} {symbol}= {}", self.value)
            }
        }
    }
}

impl std::str::FromStr for Statement {
    type Err = ExprError;
    fn from_str(text: &str) -> Result<Statement, ExprError> {
        Statement::parse(text)
    }
}

impl serde::Serialize for Statement {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.text)
    }
}

impl<'de> serde::Deserialize<'de> for Statement {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Statement, D::Error> {
        let text = String::deserialize(d)?;
        Statement::parse(&text).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_read_as_their_action_and_expression() {
        let s = Statement::parse("  velocity += vec3(0, 1, 0) * dt").unwrap();
        assert_eq!(
            s.action(),
            &Action::Set {
                target: "velocity".into(),
                op: Some(BinaryOp::Add)
            }
        );
        assert_eq!(s.value().to_string(), "vec3(0, 1, 0) * dt");
        assert_eq!(s.to_string(), "velocity += vec3(0, 1, 0) * dt");
        let k = Statement::parse("kill if length(position) < 0.5").unwrap();
        assert_eq!(k.action(), &Action::Kill);
        assert_eq!(k, Statement::kill_if(k.value().clone()));
        // `==` is a comparison, not an assignment
        let e = Statement::parse("size == 2").unwrap_err();
        assert_eq!(e.column, 6);
        assert!(e.message.starts_with("expected `=`"), "{}", e.message);
        // `killed = …` sets an attribute named killed; `kill` alone needs `if`
        assert!(Statement::parse("killed = 1").is_ok());
        let e = Statement::parse("kill when age > 1").unwrap_err();
        assert_eq!(
            (e.column, e.message.as_str()),
            (6, "expected `if` after `kill`, found `when`")
        );
    }

    #[test]
    fn an_error_inside_the_expression_counts_columns_of_the_line() {
        let e = Statement::parse("size = 1 + * 2").unwrap_err();
        assert_eq!(e.kind, ErrorKind::Parse);
        assert_eq!(e.column, 12, "{e}");
        let e = Statement::parse("= 2").unwrap_err();
        assert_eq!(e.column, 1);
        assert!(e.message.contains("found `=`"), "{}", e.message);
    }
}
