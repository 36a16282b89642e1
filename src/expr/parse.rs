//! Text to [`Node`]s: a lexer and a precedence-climbing parser, every node with its span.
//!
//! ```text
//! expr    := binary
//! binary  := unary (op unary)*        by precedence: || < && < comparisons < + - < * / %
//!                                     (left-associative; comparisons do not chain)
//! unary   := ("-" | "!") unary | postfix
//! postfix := primary ("." letters)*   swizzles: xyzw or rgba, 1 to 4 of them
//! primary := number | "true" | "false" | name | name "(" (expr ("," expr)*)? ")" | "(" expr ")"
//! number  := digits ("." digits?)? (("e"|"E") ("+"|"-")? digits)? ("i"|"u"|"f")?
//!          | "." digits ...
//! ```

use super::ast::{BinaryOp, Kind, Literal, Node, Span, UnaryOp};
use super::error::{ErrorKind, ExprError};

#[derive(Clone, Debug, PartialEq)]
enum Token {
    Number(Literal),
    Name(String),
    Op(BinaryOp),
    Minus,
    Not,
    LParen,
    RParen,
    Comma,
    Dot,
    End,
}

impl Token {
    fn describe(&self) -> String {
        match self {
            Token::Number(l @ Literal::Bool(_)) => format!("`{l}`"),
            Token::Number(l) => format!("the number `{l}`"),
            Token::Name(n) => format!("the name `{n}`"),
            Token::Op(op) => format!("`{}`", op.symbol()),
            Token::Minus => "`-`".into(),
            Token::Not => "`!`".into(),
            Token::LParen => "`(`".into(),
            Token::RParen => "`)`".into(),
            Token::Comma => "`,`".into(),
            Token::Dot => "`.`".into(),
            Token::End => "the end of the expression".into(),
        }
    }
}

struct Lexer<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Lexer<'a> {
    fn error(&self, span: Span, message: String) -> ExprError {
        ExprError::new(ErrorKind::Parse, self.text, span, message)
    }

    fn tokens(mut self) -> Result<Vec<(Token, Span)>, ExprError> {
        let mut out = Vec::new();
        loop {
            let (token, span) = self.next()?;
            let end = token == Token::End;
            out.push((token, span));
            if end {
                return Ok(out);
            }
        }
    }

    fn next(&mut self) -> Result<(Token, Span), ExprError> {
        let bytes = self.text.as_bytes();
        while self.pos < bytes.len() && bytes[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
        let start = self.pos;
        let Some(&c) = bytes.get(start) else {
            return Ok((Token::End, start..start));
        };
        let next = bytes.get(start + 1).copied();
        let two = |t: Token| (t, start..start + 2);
        let (token, span) = match (c, next) {
            (b'=', Some(b'=')) => two(Token::Op(BinaryOp::Eq)),
            (b'!', Some(b'=')) => two(Token::Op(BinaryOp::Ne)),
            (b'<', Some(b'=')) => two(Token::Op(BinaryOp::Le)),
            (b'>', Some(b'=')) => two(Token::Op(BinaryOp::Ge)),
            (b'&', Some(b'&')) => two(Token::Op(BinaryOp::And)),
            (b'|', Some(b'|')) => two(Token::Op(BinaryOp::Or)),
            (b'.', Some(d)) if d.is_ascii_digit() => return self.number(),
            (d, _) if d.is_ascii_digit() => return self.number(),
            (a, _) if a.is_ascii_alphabetic() || a == b'_' => {
                let len = bytes[start..]
                    .iter()
                    .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
                    .count();
                let name = &self.text[start..start + len];
                let token = match name {
                    "true" => Token::Number(Literal::Bool(true)),
                    "false" => Token::Number(Literal::Bool(false)),
                    _ => Token::Name(name.to_string()),
                };
                (token, start..start + len)
            }
            _ => {
                let token = match c {
                    b'+' => Token::Op(BinaryOp::Add),
                    b'-' => Token::Minus,
                    b'*' => Token::Op(BinaryOp::Mul),
                    b'/' => Token::Op(BinaryOp::Div),
                    b'%' => Token::Op(BinaryOp::Rem),
                    b'<' => Token::Op(BinaryOp::Lt),
                    b'>' => Token::Op(BinaryOp::Gt),
                    b'!' => Token::Not,
                    b'(' => Token::LParen,
                    b')' => Token::RParen,
                    b',' => Token::Comma,
                    b'.' => Token::Dot,
                    _ => {
                        let ch = self.text[start..].chars().next().unwrap_or('?');
                        let span = start..start + ch.len_utf8();
                        let hint = match ch {
                            '=' => " (assignments are written by the module: `attribute = expression`; compare with `==`)",
                            '&' | '|' => " (the logical operators are `&&` and `||`)",
                            '^' | '~' => " (bit operations are not part of the language)",
                            _ => "",
                        };
                        return Err(self.error(span, format!("unexpected character `{ch}`{hint}")));
                    }
                };
                (token, start..start + 1)
            }
        };
        self.pos = span.end;
        Ok((token, span))
    }

    fn number(&mut self) -> Result<(Token, Span), ExprError> {
        let bytes = self.text.as_bytes();
        let start = self.pos;
        let digits = |mut i: usize| {
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            i
        };
        let mut end = digits(start);
        let mut float = false;
        if bytes.get(end) == Some(&b'.') && !bytes.get(end + 1).is_some_and(u8::is_ascii_alphabetic)
        {
            float = true;
            end = digits(end + 1);
        }
        if matches!(bytes.get(end), Some(b'e' | b'E')) {
            let mut e = end + 1;
            if matches!(bytes.get(e), Some(b'+' | b'-')) {
                e += 1;
            }
            if bytes.get(e).is_some_and(u8::is_ascii_digit) {
                float = true;
                end = digits(e);
            }
        }
        let body = &self.text[start..end];
        let suffix = bytes.get(end).copied();
        let after = |n: usize| end + n;
        let bad = |what: &str, span: Span| {
            ExprError::new(ErrorKind::Parse, self.text, span, what.to_string())
        };
        let (literal, end) = match suffix {
            Some(b'f') => {
                let x: f32 = body.parse().map_err(|_| bad("not a number", start..end))?;
                (Literal::F32(x), after(1))
            }
            Some(b'i') if !float => {
                let x: i32 = body.parse().map_err(|_| {
                    bad(&format!("{body}i is out of range: allowed 0..=2147483647 (write -2147483648i as -2147483647i - 1i)"), start..after(1))
                })?;
                (Literal::I32(x), after(1))
            }
            Some(b'u') if !float => {
                let x: u32 = body.parse().map_err(|_| {
                    bad(
                        &format!("{body}u is out of range: allowed 0..=4294967295"),
                        start..after(1),
                    )
                })?;
                (Literal::U32(x), after(1))
            }
            _ if float => {
                let x: f64 = body.parse().map_err(|_| bad("not a number", start..end))?;
                (Literal::Float(x), end)
            }
            _ => {
                let x: i64 = body.parse().ok().filter(|x| *x <= u32::MAX as i64).ok_or_else(|| {
                    bad(&format!("{body} is out of range: whole numbers are allowed up to 4294967295"), start..end)
                })?;
                (Literal::Int(x), end)
            }
        };
        if bytes
            .get(end)
            .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_')
        {
            let rest = bytes[end..]
                .iter()
                .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
                .count();
            return Err(bad(
                "a number runs into a name: numbers end in `i` (i32), `u` (u32) or `f` (f32) or nothing",
                start..end + rest,
            ));
        }
        self.pos = end;
        Ok((Token::Number(literal), start..end))
    }
}

struct Parser<'a> {
    text: &'a str,
    tokens: Vec<(Token, Span)>,
    at: usize,
}

/// Nesting deeper than this is refused (the parser and the checker recurse).
pub const MAX_DEPTH: usize = 64;

/// A tree taller than this is refused, however it is written: what walks it (the checker,
/// printing, dropping it) recurses once a level.
pub const MAX_HEIGHT: usize = 128;

/// A node as parsed, and the height of its tree (1: a leaf).
type Parsed = (Node, usize);

impl Parser<'_> {
    fn peek(&self) -> &(Token, Span) {
        &self.tokens[self.at.min(self.tokens.len() - 1)]
    }

    fn bump(&mut self) -> (Token, Span) {
        let t = self.peek().clone();
        self.at += 1;
        t
    }

    fn error(&self, span: Span, message: String) -> ExprError {
        ExprError::new(ErrorKind::Parse, self.text, span, message)
    }

    fn expected(&self, what: &str) -> ExprError {
        let (token, span) = self.peek();
        self.error(
            span.clone(),
            format!("expected {what}, found {}", token.describe()),
        )
    }

    fn expect(&mut self, token: Token, what: &str) -> Result<Span, ExprError> {
        if self.peek().0 == token {
            Ok(self.bump().1)
        } else {
            Err(self.expected(what))
        }
    }

    /// A node over children of `heights`, refused when the tree grows taller than
    /// [`MAX_HEIGHT`] (a long flat chain, `a + b + …` or `v.x.x…`, is as deep as a nested
    /// one to what walks the tree).
    fn join(&self, kind: Kind, span: Span, heights: &[usize]) -> Result<Parsed, ExprError> {
        let height = heights.iter().max().map_or(1, |h| h + 1);
        if height > MAX_HEIGHT {
            let message =
                format!("more than {MAX_HEIGHT} operations deep: split it into named nodes");
            return Err(self.error(span, message));
        }
        Ok((Node::new(kind, span), height))
    }

    fn binary(&mut self, min: u8, depth: usize) -> Result<Parsed, ExprError> {
        let mut left = self.unary(depth)?;
        loop {
            let op = match self.peek().0 {
                Token::Op(op) => op,
                Token::Minus => BinaryOp::Sub,
                _ => return Ok(left),
            };
            let p = op.precedence();
            if p < min {
                return Ok(left);
            }
            self.bump();
            let right = self.binary(p + 1, depth + 1)?;
            if op.compares() {
                if let (Token::Op(next), span) = self.peek() {
                    if next.compares() {
                        return Err(self.error(
                            span.clone(),
                            format!(
                                "comparisons do not chain: write `(a {} b) && (b {} c)`",
                                op.symbol(),
                                next.symbol()
                            ),
                        ));
                    }
                }
            }
            let span = left.0.span.start..right.0.span.end;
            let heights = [left.1, right.1];
            let kind = Kind::Binary(op, Box::new(left.0), Box::new(right.0));
            left = self.join(kind, span, &heights)?;
        }
    }

    fn unary(&mut self, depth: usize) -> Result<Parsed, ExprError> {
        if depth > MAX_DEPTH {
            let span = self.peek().1.clone();
            return Err(self.error(span, format!("nested deeper than {MAX_DEPTH} levels")));
        }
        let op = match self.peek().0 {
            Token::Minus => UnaryOp::Neg,
            Token::Not => UnaryOp::Not,
            _ => return self.postfix(depth),
        };
        let start = self.bump().1.start;
        let (x, height) = self.unary(depth + 1)?;
        let span = start..x.span.end;
        self.join(Kind::Unary(op, Box::new(x)), span, &[height])
    }

    fn postfix(&mut self, depth: usize) -> Result<Parsed, ExprError> {
        let mut node = self.primary(depth)?;
        while self.peek().0 == Token::Dot {
            self.bump();
            let (token, span) = self.bump();
            let Token::Name(components) = token else {
                self.at -= 1;
                return Err(self.expected("components after `.` (x, y, z, w or r, g, b, a)"));
            };
            let whole = node.0.span.start..span.end;
            let value = Box::new(node.0);
            node = self.join(Kind::Swizzle { value, components }, whole, &[node.1])?;
        }
        Ok(node)
    }

    fn primary(&mut self, depth: usize) -> Result<Parsed, ExprError> {
        let (token, span) = self.bump();
        match token {
            Token::Number(l) => Ok((Node::new(Kind::Literal(l), span), 1)),
            Token::Name(name) => {
                if self.peek().0 != Token::LParen {
                    return Ok((Node::new(Kind::Name(name), span), 1));
                }
                self.bump();
                let (mut args, mut heights) = (Vec::new(), Vec::new());
                if self.peek().0 != Token::RParen {
                    loop {
                        let (arg, height) = self.binary(0, depth + 1)?;
                        args.push(arg);
                        heights.push(height);
                        if self.peek().0 == Token::Comma {
                            self.bump();
                        } else {
                            break;
                        }
                    }
                }
                let end = self.expect(Token::RParen, "`,` or `)` after an argument")?;
                let kind = Kind::Call {
                    name,
                    name_span: span.clone(),
                    args,
                };
                self.join(kind, span.start..end.end, &heights)
            }
            Token::LParen => {
                let (inner, height) = self.binary(0, depth + 1)?;
                let end = self.expect(Token::RParen, "`)`")?;
                // the parentheses belong to the span, so errors point at all of it
                Ok((Node::new(inner.kind, span.start..end.end), height))
            }
            _ => {
                self.at -= 1;
                Err(self.expected("an expression (a number, a name, a call or `(`)"))
            }
        }
    }
}

/// Parse `text` as one expression.
pub fn parse(text: &str) -> Result<Node, ExprError> {
    let tokens = Lexer { text, pos: 0 }.tokens()?;
    let mut parser = Parser {
        text,
        tokens,
        at: 0,
    };
    let (node, _) = parser.binary(0, 0)?;
    if parser.peek().0 != Token::End {
        return Err(parser.expected("an operator or the end of the expression"));
    }
    Ok(node)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(text: &str, printed: &str) {
        let node = parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(node.to_string(), printed, "{text}");
        let again = parse(printed).unwrap();
        assert_eq!(again.to_string(), printed);
    }

    #[test]
    fn precedence_and_associativity() {
        round_trip("1 + 2 * 3", "1 + 2 * 3");
        round_trip("(1 + 2) * 3", "(1 + 2) * 3");
        round_trip("a - (b - c)", "a - (b - c)");
        round_trip("a - b - c", "a - b - c");
        round_trip("a < b && c >= d || !e", "a < b && c >= d || !e");
        round_trip("-x.y", "-x.y");
        round_trip("(-x).y", "(-x).y");
        round_trip("-(a + b)", "-(a + b)");
        round_trip(
            "mix(a, b, age / lifetime).rgb",
            "mix(a, b, age / lifetime).rgb",
        );
        round_trip(
            "gradient(flame, age / lifetime) * heat",
            "gradient(flame, age / lifetime) * heat",
        );
        round_trip("f()", "f()");
    }

    #[test]
    fn numbers() {
        round_trip(
            "1.5 + .5 + 2. + 1e3 + 7u + 7i + 2.5f",
            "1.5 + 0.5 + 2.0 + 1000.0 + 7u + 7i + 2.5f",
        );
        round_trip("1e-7", "1e-7");
        assert_eq!(
            parse("4294967296").unwrap_err().message,
            "4294967296 is out of range: whole numbers are allowed up to 4294967295"
        );
        assert_eq!(parse("3x").unwrap_err().column, 1);
    }

    #[test]
    fn errors_point_inside_the_expression() {
        let e = parse("age / ").unwrap_err();
        assert_eq!(e.column, 7);
        assert_eq!(
            e.message,
            "expected an expression (a number, a name, a call or `(`), found the end of the expression"
        );
        let e = parse("mix(a, b c)").unwrap_err();
        assert_eq!(e.column, 10);
        assert_eq!(
            e.message,
            "expected `,` or `)` after an argument, found the name `c`"
        );
        let e = parse("a < b < c").unwrap_err();
        assert_eq!(e.column, 7);
        assert!(
            e.message.starts_with("comparisons do not chain"),
            "{}",
            e.message
        );
        let e = parse("x = 1").unwrap_err();
        assert_eq!(e.column, 3);
        assert!(e.message.contains("compare with `==`"), "{}", e.message);
        let e = parse("(1 + 2").unwrap_err();
        assert_eq!(e.message, "expected `)`, found the end of the expression");
        assert_eq!(parse("v.").unwrap_err().column, 3);
    }

    #[test]
    fn deep_nesting_is_refused_not_overflowed() {
        let text = "(".repeat(500) + "1" + &")".repeat(500);
        assert!(parse(&text).unwrap_err().message.contains("nested deeper"));
        let text = "-".repeat(500) + "1";
        assert!(parse(&text).unwrap_err().message.contains("nested deeper"));
    }

    /// Long flat text is as deep to what walks its tree as nested text: a sum of 7,000
    /// terms and a chain of 10,000 swizzles are refused where they grow too tall (each
    /// once overflowed the stack); the tallest allowed parses.
    #[test]
    fn long_flat_chains_are_refused_not_overflowed() {
        let sum = vec!["1.0"; 7_000].join(" + ");
        let e = parse(&sum).unwrap_err();
        assert!(e.message.contains("more than 128 operations deep"), "{e}");
        assert_eq!(e.column, 1, "the error spans the tree that grew too tall");
        let swizzles = "v".to_string() + &".xyzw".repeat(10_000);
        let e = parse(&swizzles).unwrap_err();
        assert!(e.message.contains("split it into named nodes"), "{e}");
        let (tallest, over) = (vec!["x"; MAX_HEIGHT].join(" + "), vec!["x"; MAX_HEIGHT + 1]);
        assert!(parse(&tallest).is_ok());
        assert!(parse(&over.join(" + ")).is_err());
    }
}
