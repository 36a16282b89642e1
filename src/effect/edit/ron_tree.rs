//! RON text read as a tree of values that each know where they lie in the text, so that a
//! save can change one value's bytes and keep every other byte (comments, blank lines,
//! the author's order and layout) as written. It reads what the effect files use: structs
//! and tuples in brackets (named or not), enum variants, `Some(…)`, lists, maps, strings
//! (raw ones too), characters, numbers, identifiers, `//` and nested `/* */` comments and
//! `#![enable(…)]` lines; what a value means is serde's business, not this reader's.

use std::ops::Range;

/// One value and the bytes it spans.
#[derive(Debug)]
pub(super) struct Node {
    pub span: Range<usize>,
    pub kind: Kind,
}

#[derive(Debug)]
pub(super) enum Kind {
    /// A number, string, character, boolean or bare identifier (`None`, a unit variant).
    Atom,
    /// `Name(…)` or `(…)`: a struct's fields, or the items of a tuple or variant.
    Group { name: Option<String>, body: Body },
    /// `[…]`.
    List(Body),
    /// `{…}`.
    Map(Body),
}

/// What lies between a value's brackets.
#[derive(Debug)]
pub(super) struct Body {
    /// The byte after the opening bracket, and the closing bracket's.
    pub inside: Range<usize>,
    pub entries: Vec<Entry>,
}

/// One field, item or map entry of a body.
#[derive(Debug)]
pub(super) struct Entry {
    /// A struct field's name, or a map key's text (a string key unquoted); None for items.
    pub key: Option<String>,
    /// Where its key (or, for an item, its value) starts.
    pub start: usize,
    pub value: Node,
    /// Past its comma, or past its value where no comma follows.
    pub end: usize,
    pub comma: bool,
}

impl Body {
    /// Whether a line break lies between its brackets.
    pub fn multiline(&self, src: &str) -> bool {
        src[self.inside.clone()].contains('\n')
    }

    /// Whether its entries are a struct's fields (named) rather than items.
    pub fn fields(&self) -> bool {
        self.entries.first().is_some_and(|e| e.key.is_some())
    }

    pub fn find(&self, key: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.key.as_deref() == Some(key))
    }
}

#[cfg(test)]
impl Node {
    /// The body of a group, list or map.
    pub fn body(&self) -> Option<&Body> {
        match &self.kind {
            Kind::Atom => None,
            Kind::Group { body, .. } | Kind::List(body) | Kind::Map(body) => Some(body),
        }
    }
}

/// The value `src` holds, or where and why it is not RON this reader takes.
pub(super) fn parse(src: &str) -> Result<Node, String> {
    let mut p = Parser { src, at: 0 };
    p.space()?;
    while p.rest().starts_with("#![") {
        p.attribute()?;
        p.space()?;
    }
    // (a file may start with a byte-order mark)
    if p.rest().starts_with('\u{feff}') {
        p.at += '\u{feff}'.len_utf8();
        p.space()?;
    }
    let node = p.value(0)?;
    p.space()?;
    match p.rest().is_empty() {
        true => Ok(node),
        false => Err(p.error("text after the value")),
    }
}

/// How deep brackets may nest (the effect schema needs a handful): past it the text is
/// refused rather than read by a recursion that could exhaust the stack.
const MAX_DEPTH: usize = 128;

struct Parser<'a> {
    src: &'a str,
    at: usize,
}

impl<'a> Parser<'a> {
    fn rest(&self) -> &'a str {
        &self.src[self.at..]
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn error(&self, what: &str) -> String {
        format!("{what} at byte {}", self.at)
    }

    /// Skip white space and comments.
    fn space(&mut self) -> Result<(), String> {
        loop {
            let rest = self.rest();
            let trimmed = rest.trim_start();
            self.at += rest.len() - trimmed.len();
            if trimmed.starts_with("//") {
                self.at += trimmed.find('\n').unwrap_or(trimmed.len());
            } else if trimmed.starts_with("/*") {
                self.block_comment()?;
            } else {
                return Ok(());
            }
        }
    }

    /// A `/* */` comment, nested ones within it.
    fn block_comment(&mut self) -> Result<(), String> {
        let mut depth = 0usize;
        while !self.rest().is_empty() {
            if self.rest().starts_with("/*") {
                (depth, self.at) = (depth + 1, self.at + 2);
            } else if self.rest().starts_with("*/") {
                (depth, self.at) = (depth - 1, self.at + 2);
                if depth == 0 {
                    return Ok(());
                }
            } else {
                self.at += self.peek().map_or(1, char::len_utf8);
            }
        }
        Err(self.error("a comment not closed"))
    }

    /// `#![enable(…)]`.
    fn attribute(&mut self) -> Result<(), String> {
        match self.rest().find(']') {
            Some(end) => {
                self.at += end + 1;
                Ok(())
            }
            None => Err(self.error("an attribute not closed")),
        }
    }

    fn expect(&mut self, c: char) -> Result<(), String> {
        match self.peek() == Some(c) {
            true => {
                self.at += c.len_utf8();
                Ok(())
            }
            false => Err(self.error(&format!("`{c}` expected"))),
        }
    }

    fn identifier(&mut self) -> Option<&'a str> {
        let rest = self.rest();
        let first = rest.chars().next()?;
        if !(first.is_alphabetic() || first == '_') {
            return None;
        }
        let len = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        self.at += len;
        Some(&rest[..len])
    }

    fn value(&mut self, depth: usize) -> Result<Node, String> {
        if depth > MAX_DEPTH {
            return Err(self.error("brackets nested too deep"));
        }
        let start = self.at;
        let kind = match self.peek() {
            Some('(') => self.group(None, depth)?,
            Some('[') => Kind::List(self.body(']', Mode::Items, depth)?),
            Some('{') => Kind::Map(self.body('}', Mode::Map, depth)?),
            Some('"') => self.string()?,
            Some('\'') => self.character()?,
            Some('r') if matches!(self.rest()[1..].chars().next(), Some('"' | '#')) => {
                self.raw_string()?
            }
            Some(c) if c.is_alphabetic() || c == '_' => {
                let name = self.identifier().expect("starts as one").to_string();
                let after = self.at;
                self.space()?;
                match self.peek() == Some('(') {
                    true => self.group(Some(name), depth)?,
                    false => {
                        self.at = after;
                        Kind::Atom
                    }
                }
            }
            Some(c) if c.is_ascii_digit() || matches!(c, '-' | '+' | '.') => self.number()?,
            _ => return Err(self.error("a value expected")),
        };
        Ok(Node {
            span: start..self.at,
            kind,
        })
    }

    fn group(&mut self, name: Option<String>, depth: usize) -> Result<Kind, String> {
        // fields when the first entry is `name:` (not `name(`, not a bare identifier)
        let open = self.at;
        self.at += 1;
        self.space()?;
        let fields = {
            let at = self.at;
            let named = self.identifier().is_some() && {
                self.space()?;
                self.peek() == Some(':')
            };
            self.at = at;
            named
        };
        self.at = open;
        let mode = if fields { Mode::Fields } else { Mode::Items };
        Ok(Kind::Group {
            name,
            body: self.body(')', mode, depth)?,
        })
    }

    fn body(&mut self, close: char, mode: Mode, depth: usize) -> Result<Body, String> {
        self.at += 1;
        let open = self.at;
        let mut entries = Vec::new();
        loop {
            self.space()?;
            if self.peek() == Some(close) {
                break;
            }
            let start = self.at;
            let key = match mode {
                Mode::Items => None,
                Mode::Fields => {
                    let name = self
                        .identifier()
                        .ok_or_else(|| self.error("a field name"))?;
                    let name = name.to_string();
                    self.space()?;
                    self.expect(':')?;
                    Some(name)
                }
                Mode::Map => {
                    let key = self.value(depth + 1)?;
                    self.space()?;
                    self.expect(':')?;
                    Some(key_text(&self.src[key.span]))
                }
            };
            self.space()?;
            let value = self.value(depth + 1)?;
            let value_end = self.at;
            self.space()?;
            let comma = self.peek() == Some(',');
            let end = match comma {
                true => {
                    self.at += 1;
                    self.at
                }
                false => {
                    if self.peek() != Some(close) {
                        return Err(self.error(&format!("`,` or `{close}` expected")));
                    }
                    value_end
                }
            };
            entries.push(Entry {
                key,
                start,
                value,
                end,
                comma,
            });
        }
        let inside = open..self.at;
        self.at += 1;
        Ok(Body { inside, entries })
    }

    fn string(&mut self) -> Result<Kind, String> {
        self.at += 1;
        loop {
            match self.peek() {
                None => return Err(self.error("a string not closed")),
                Some('"') => {
                    self.at += 1;
                    return Ok(Kind::Atom);
                }
                Some('\\') => {
                    self.at += 1;
                    self.at += self.peek().map_or(0, char::len_utf8);
                }
                Some(c) => self.at += c.len_utf8(),
            }
        }
    }

    fn character(&mut self) -> Result<Kind, String> {
        self.at += 1;
        if self.peek() == Some('\\') {
            self.at += 1;
        }
        self.at += self.peek().map_or(0, char::len_utf8);
        while self.peek().is_some_and(|c| c != '\'') {
            self.at += self.peek().map_or(0, char::len_utf8);
        }
        self.expect('\'')?;
        Ok(Kind::Atom)
    }

    /// `r"…"`, `r#"…"#`, …
    fn raw_string(&mut self) -> Result<Kind, String> {
        self.at += 1;
        let hashes = self.rest().len() - self.rest().trim_start_matches('#').len();
        self.at += hashes;
        self.expect('"')?;
        let close = format!("\"{}", "#".repeat(hashes));
        match self.rest().find(&close) {
            Some(end) => {
                self.at += end + close.len();
                Ok(Kind::Atom)
            }
            None => Err(self.error("a raw string not closed")),
        }
    }

    fn number(&mut self) -> Result<Kind, String> {
        let rest = self.rest();
        let mut len = 0;
        let mut previous = ' ';
        for c in rest.chars() {
            let exponent_sign = matches!(c, '+' | '-') && matches!(previous, 'e' | 'E');
            let sign = matches!(c, '+' | '-') && len == 0;
            if !(c.is_ascii_alphanumeric() || matches!(c, '.' | '_') || exponent_sign || sign) {
                break;
            }
            len += c.len_utf8();
            previous = c;
        }
        self.at += len;
        Ok(Kind::Atom)
    }
}

#[derive(Clone, Copy)]
enum Mode {
    Fields,
    Items,
    Map,
}

/// A map key as compared between texts: a plain string's content, else its text.
fn key_text(text: &str) -> String {
    match text.strip_prefix('"').and_then(|t| t.strip_suffix('"')) {
        Some(inner) if !inner.contains('\\') => inner.to_string(),
        _ => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text<'a>(src: &'a str, node: &Node) -> &'a str {
        &src[node.span.clone()]
    }

    /// Every kind of value the effect files hold is read with the bytes it spans.
    #[test]
    fn values_know_their_bytes() {
        let src = r#"// a comment
#![enable(implicit_some)]
(
    name: "fire", /* a /* nested */ comment */
    rate: -1.5e-3,
    shape: Sphere(center: (0.0, 1.0, 2.0), radius: 0.2),
    keys: [(0.0, 0.5), (1.0, 2.0),],
    params: { "heat": (default: 1.0), r"raw": 'c' },
    sprite: Some(Image((image: "a \"b\".png"))),
    none: None,
)"#;
        let root = parse(src).unwrap();
        let body = root.body().unwrap();
        assert!(body.fields() && body.multiline(src));
        let value = |key: &str| text(src, &body.find(key).unwrap().value);
        assert_eq!(value("name"), "\"fire\"");
        assert_eq!(value("rate"), "-1.5e-3");
        assert_eq!(
            value("shape"),
            "Sphere(center: (0.0, 1.0, 2.0), radius: 0.2)"
        );
        assert_eq!(value("none"), "None");
        assert_eq!(value("sprite"), r#"Some(Image((image: "a \"b\".png")))"#);
        let keys = body.find("keys").unwrap().value.body().unwrap();
        assert_eq!(keys.entries.len(), 2);
        assert!(keys.entries[1].comma && !keys.multiline(src));
        assert_eq!(text(src, &keys.entries[1].value), "(1.0, 2.0)");
        let params = body.find("params").unwrap().value.body().unwrap();
        let names: Vec<_> = params.entries.iter().map(|e| e.key.clone()).collect();
        assert_eq!(names, [Some("heat".into()), Some("r\"raw\"".into())]);
        let Kind::Group { name, body } = &body.find("shape").unwrap().value.kind else {
            panic!("a variant is a group");
        };
        assert_eq!(name.as_deref(), Some("Sphere"));
        assert!(body.fields());
    }

    /// Text that is not RON is refused with where, never read past its end.
    #[test]
    fn broken_text_is_refused() {
        for src in [
            "(a: 1", "(a: \"x)", "[1 2]", "(a: 1) x", "/* open", "(a: (((", "",
        ] {
            assert!(parse(src).is_err(), "{src}");
        }
        let deep = format!("{}{}", "[".repeat(MAX_DEPTH + 5), "]".repeat(MAX_DEPTH + 5));
        assert!(parse(&deep).is_err());
    }
}
