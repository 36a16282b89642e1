//! An effect saved over its author's file: the file's text with only what changed
//! rewritten, as Cargo's `toml_edit` keeps a manifest. The author's text, the old effect
//! and the new one are read as trees of values that know their bytes ([`super::ron_tree`]);
//! the old and the new are both serde's pretty RON, so equal values are equal text, and
//! wherever the two differ the author's value there is replaced (a number, a string, a
//! variant), a field or map entry the author left at its default is inserted beside its
//! siblings (indented as they are), one that went back to its default and an item that
//! went away are removed with the comment lines just above them, and an item that came is
//! inserted where it stands. Everything else (comments, blank lines, order, layout) stays
//! byte for byte. The result is read back and must be the new effect, or nothing is
//! patched.

use std::ops::Range;

use super::ron_tree::{self, Body, Entry, Kind, Node};
use crate::effect::EffectDesc;
use crate::error::{Invalid, Result};

impl EffectDesc {
    /// `original` (the text of an effect file) changed to say this effect, with every byte
    /// that need not change kept: comments, blank lines, order and layout. Refused where
    /// `original` is not an effect's RON (write [`EffectDesc::to_ron_commented`] instead),
    /// or, a defect of flurry's, where the patched text would not read back as this effect.
    pub fn patch_ron(&self, original: &str) -> Result<String> {
        // (a byte-order mark some editors write stays where it is)
        if let Some(text) = original.strip_prefix('\u{feff}') {
            return self
                .patch_ron(text)
                .map(|patched| format!("\u{feff}{patched}"));
        }
        let refused = |why: String| Invalid::new("original", "the file's text", why);
        let old = crate::effect::parse::effect(original)
            .map_err(|e| refused(format!("an effect's RON ({e})")))?;
        let author = ron_tree::parse(original).map_err(|e| refused(format!("RON ({e})")))?;
        let (old_text, new_text) = (old.to_ron(), self.to_ron());
        let generated = |text: &str| ron_tree::parse(text).map_err(|e| refused(e.to_string()));
        let (old_tree, new_tree) = (generated(&old_text)?, generated(&new_text)?);
        let mut patch = Patch {
            author: original,
            old: &old_text,
            new: &new_text,
            edits: Vec::new(),
        };
        patch.value(&author, &old_tree, &new_tree);
        let patched = patch.apply();
        // (an effect's own words: what it says, not how; flurry's defect where they differ)
        let reads_back = crate::effect::parse::effect(&patched).map(|e| e.to_ron());
        match reads_back {
            Ok(text) if text == new_text => Ok(patched),
            _ => Err(refused(
                "a text this patch can keep (flurry could not: a defect of flurry's)".into(),
            )
            .into()),
        }
    }
}

struct Patch<'a> {
    /// The author's text, and serde's texts of the old and new effect.
    author: &'a str,
    old: &'a str,
    new: &'a str,
    /// Replacements of ranges of the author's text (insertions: empty ranges).
    edits: Vec<(Range<usize>, String)>,
}

impl Patch<'_> {
    /// Make the author's value `a` (which reads as `o`) say `n`.
    fn value(&mut self, a: &Node, o: &Node, n: &Node) {
        if self.old[o.span.clone()] == self.new[n.span.clone()] {
            return;
        }
        match (&a.kind, &o.kind, &n.kind) {
            (
                Kind::Group { name: an, body: ab },
                Kind::Group { name: on, body: ob },
                Kind::Group { name: nn, body: nb },
            ) if on == nn && (an == on || on.is_none()) => {
                let keyed = ob.fields() || nb.fields();
                match keyed {
                    true if ab.fields() || ab.entries.is_empty() => self.keyed(ab, ob, nb),
                    false if !ab.fields() => self.items((a, n), ab, ob, nb),
                    _ => self.replace(a, n),
                }
            }
            (Kind::List(ab), Kind::List(ob), Kind::List(nb)) => self.items((a, n), ab, ob, nb),
            (Kind::Map(ab), Kind::Map(ob), Kind::Map(nb)) => self.keyed(ab, ob, nb),
            _ => self.replace(a, n),
        }
    }

    /// The author's value replaced whole by the new one, laid out where it stands.
    fn replace(&mut self, a: &Node, n: &Node) {
        let text = match self.author[a.span.clone()].contains('\n') {
            true => reindented(
                self.new,
                n.span.clone(),
                &indent_of(self.author, a.span.start),
            ),
            false => compact(&self.new[n.span.clone()]),
        };
        self.edits.push((a.span.clone(), text));
    }

    /// Fields or map entries, matched by key.
    fn keyed(&mut self, ab: &Body, ob: &Body, nb: &Body) {
        let mut inserted = Vec::new();
        for ne in &nb.entries {
            let key = ne.key.as_deref().expect("keyed");
            match (ab.find(key), ob.find(key)) {
                (Some(ae), Some(oe)) => self.value(&ae.value, &oe.value, &ne.value),
                // written by the author at a default serde leaves out
                (Some(ae), None) => self.replace(&ae.value, &ne.value),
                (None, Some(oe))
                    if self.old[oe.value.span.clone()] == self.new[ne.value.span.clone()] => {}
                (None, _) => inserted.push(ne),
            }
        }
        if !inserted.is_empty() {
            let texts = inserted
                .iter()
                .map(|e| (self.new, e.start..e.value.span.end));
            self.insert(ab, ab.entries.len(), texts.collect());
        }
        let gone = (ob.entries.iter())
            .filter_map(|oe| oe.key.as_deref())
            .filter(|key| nb.find(key).is_none());
        let gone: Vec<usize> = gone
            .filter_map(|key| {
                ab.entries
                    .iter()
                    .position(|e| e.key.as_deref() == Some(key))
            })
            .collect();
        self.remove(ab, &gone);
    }

    /// Items of a list, tuple or variant, matched in order: those equal kept, those that
    /// changed in place patched, those gone removed, those new inserted where they stand.
    fn items(&mut self, (a, n): (&Node, &Node), ab: &Body, ob: &Body, nb: &Body) {
        // (the author's items read as other items: the new value whole)
        if ab.entries.len() != ob.entries.len() {
            return self.replace(a, n);
        }
        let (o, n) = (&ob.entries, &nb.entries);
        if o.len() == n.len() {
            for ((ae, oe), ne) in ab.entries.iter().zip(o).zip(n) {
                self.value(&ae.value, &oe.value, &ne.value);
            }
            return;
        }
        let same = |i: usize, j: usize| {
            self.old[o[i].value.span.clone()] == self.new[n[j].value.span.clone()]
        };
        let pairs = common_subsequence(o.len(), n.len(), same);
        // between two kept pairs: the old items left paired with the new ones in order
        // (changed), the rest removed or inserted
        let mut gone = Vec::new();
        let (mut i, mut j) = (0, 0);
        for (pi, pj) in pairs.into_iter().chain([(o.len(), n.len())]) {
            let paired = (pi - i).min(pj - j);
            for k in 0..paired {
                self.value(&ab.entries[i + k].value, &o[i + k].value, &n[j + k].value);
            }
            gone.extend(i + paired..pi);
            // (one that equals an item the author wrote, a duplicate, is written as the
            // author wrote that one)
            let came: Vec<(&str, Range<usize>)> = (n[j + paired..pj].iter())
                .map(|ne| {
                    let text = &self.new[ne.value.span.clone()];
                    match o
                        .iter()
                        .position(|oe| &self.old[oe.value.span.clone()] == text)
                    {
                        Some(k) => (
                            self.author,
                            ab.entries[k].start..ab.entries[k].value.span.end,
                        ),
                        None => (self.new, ne.start..ne.value.span.end),
                    }
                })
                .collect();
            if !came.is_empty() {
                self.insert(ab, pi, came);
            }
            (i, j) = (pi + 1, pj + 1);
        }
        self.remove(ab, &gone);
    }

    /// New entries (each a span of the new text or of the author's) inserted into the
    /// author's body before its entry `at` (its end: after the last), laid out as their
    /// siblings are: each on a line of its own, indented as they are, where they stand on
    /// lines of their own; else on the line.
    fn insert(&mut self, ab: &Body, at: usize, came: Vec<(&str, Range<usize>)>) {
        let author = self.author;
        let spans = || came.iter().cloned();
        let on_line = |texts: Vec<String>| texts.join(", ");
        let (next, last) = (ab.entries.get(at), ab.entries.last());
        let own_line = |e: &Entry| {
            author[line_start(author, e.start)..e.start]
                .trim()
                .is_empty()
        };
        let lines = ab.multiline(author) && next.or(last).is_none_or(own_line);
        if !lines {
            let text = on_line(spans().map(|(src, s)| compact(&src[s])).collect());
            let edit = match (next, last) {
                (Some(next), _) => (next.start, format!("{text}, ")),
                (None, Some(last)) if last.comma => (last.end, format!(" {text},")),
                (None, Some(last)) => (last.end, format!(", {text}")),
                (None, None) => (ab.inside.start, text),
            };
            return self.edits.push((edit.0..edit.0, edit.1));
        }
        let indent = match next.or(last) {
            Some(sibling) => indent_of(author, sibling.start),
            // (an empty body across lines: one level in from its closing bracket)
            None => format!("{}    ", indent_of(author, ab.inside.end)),
        };
        let texts: Vec<String> = (spans())
            .map(|(src, s)| reindented(src, s, &indent))
            .collect();
        let edit = match (next, last) {
            (Some(next), _) => {
                let line = line_start(author, decor_start(author, next.start));
                let text: String = texts.iter().map(|t| format!("{indent}{t},\n")).collect();
                (line, text)
            }
            (None, last) => {
                let comma = match last {
                    Some(last) if !last.comma => ",",
                    _ => "",
                };
                let text: String = texts.iter().map(|t| format!("\n{indent}{t},")).collect();
                let at = last.map_or(ab.inside.start, |l| l.end);
                (at, format!("{comma}{text}"))
            }
        };
        self.edits.push((edit.0..edit.0, edit.1));
    }

    /// The author's entries `gone` (by index) removed: across lines with their comment
    /// lines just above and their line's end; on one line with the comma between.
    fn remove(&mut self, ab: &Body, gone: &[usize]) {
        if gone.is_empty() {
            return;
        }
        let author = self.author;
        if ab.multiline(author) {
            for &k in gone {
                let e = &ab.entries[k];
                let own_line = author[line_start(author, e.start)..e.start]
                    .trim()
                    .is_empty();
                let start = match own_line {
                    true => line_start(author, decor_start(author, e.start)),
                    false => e.start,
                };
                // (a comment after it on its line goes with it)
                let rest = &author[e.end..];
                let line_end = rest.find('\n').map_or(rest.len(), |n| n + 1);
                let trailing = rest[..line_end].trim();
                let end = match own_line && (trailing.is_empty() || trailing.starts_with("//")) {
                    true => e.end + line_end,
                    false => e.end,
                };
                self.edits.push((start..end, String::new()));
            }
            return;
        }
        // on one line: each run of removed entries with the separator after it, or, at the
        // end, before it
        let mut k = 0;
        while k < gone.len() {
            let first = gone[k];
            let mut last = first;
            while k + 1 < gone.len() && gone[k + 1] == last + 1 {
                (k, last) = (k + 1, last + 1);
            }
            let range = match (ab.entries.get(last + 1), first.checked_sub(1)) {
                (Some(next), _) => ab.entries[first].start..next.start,
                (None, Some(before)) => ab.entries[before].value.span.end..ab.entries[last].end,
                (None, None) => ab.entries[first].start..ab.entries[last].end,
            };
            self.edits.push((range, String::new()));
            k += 1;
        }
    }

    /// The author's text with the edits made (they never overlap: each is a value, an
    /// entry or a point between entries).
    fn apply(mut self) -> String {
        self.edits
            .sort_by_key(|(range, _)| (range.start, range.end));
        let mut out = String::with_capacity(self.author.len());
        let mut at = 0;
        for (range, text) in &self.edits {
            let start = range.start.max(at);
            out.push_str(&self.author[at..start]);
            out.push_str(text);
            at = range.end.max(start);
        }
        out.push_str(&self.author[at..]);
        out
    }
}

/// `span` of `src`, its following lines moved from the indent of its first line there to
/// `indent`.
fn reindented(src: &str, span: Range<usize>, indent: &str) -> String {
    let from = indent_of(src, span.start);
    let mut out = String::with_capacity(span.len());
    for (k, line) in src[span].split('\n').enumerate() {
        if k > 0 {
            out.push('\n');
            out.push_str(indent);
            out.push_str(line.strip_prefix(from.as_str()).unwrap_or(line));
        } else {
            out.push_str(line);
        }
    }
    out
}

/// The white space from its line's start to `at`, where only white space precedes it
/// there (else none).
fn indent_of(src: &str, at: usize) -> String {
    let start = line_start(src, at);
    let before = &src[start..at];
    let len = before.len() - before.trim_start().len();
    before[..len].to_string()
}

fn line_start(src: &str, at: usize) -> usize {
    src[..at].rfind('\n').map_or(0, |n| n + 1)
}

/// Where the comment lines directly above the line of `at` start (no blank line between):
/// what is said of an entry goes with it.
fn decor_start(src: &str, at: usize) -> usize {
    let mut start = line_start(src, at);
    while start > 0 {
        let above = line_start(src, start - 1);
        let line = src[above..start].trim();
        if !line.starts_with("//") {
            break;
        }
        start = above;
    }
    start
}

/// Pretty RON on one line: its line breaks and indents dropped (a space after a comma),
/// the commas before closing brackets too.
fn compact(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_string = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if in_string {
            out.push(c);
            match c {
                '\\' => out.extend(chars.next()),
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => {
                in_string = true;
                out.push(c);
            }
            '\n' => {
                while chars.peek().is_some_and(|c| *c == ' ' || *c == '\t') {
                    chars.next();
                }
                let closing = chars.peek().is_some_and(|c| matches!(c, ')' | ']' | '}'));
                if closing && out.ends_with(',') {
                    out.pop();
                } else if out.ends_with(',') {
                    out.push(' ');
                }
            }
            c => out.push(c),
        }
    }
    out
}

/// The longest common subsequence of `0..m` and `0..n` under `same`, as index pairs in
/// order.
fn common_subsequence(
    m: usize,
    n: usize,
    same: impl Fn(usize, usize) -> bool,
) -> Vec<(usize, usize)> {
    // lengths[i][j]: of the suffixes from i and j
    let mut lengths = vec![vec![0u32; n + 1]; m + 1];
    for i in (0..m).rev() {
        for j in (0..n).rev() {
            lengths[i][j] = match same(i, j) {
                true => lengths[i + 1][j + 1] + 1,
                false => lengths[i + 1][j].max(lengths[i][j + 1]),
            };
        }
    }
    let (mut i, mut j, mut pairs) = (0, 0, Vec::new());
    while i < m && j < n {
        if same(i, j) {
            pairs.push((i, j));
            (i, j) = (i + 1, j + 1);
        } else if lengths[i + 1][j] >= lengths[i][j + 1] {
            i += 1;
        } else {
            j += 1;
        }
    }
    pairs
}

#[cfg(test)]
mod tests {
    use crate::effect::EffectDesc;
    use crate::expr::{Statement, Value};

    /// Every shipped effect file: its name, its text and the effect it says (its imports
    /// read).
    fn shipped() -> Vec<(String, String, EffectDesc)> {
        (crate::effect::shipped::all().into_iter())
            .map(|(path, effect)| {
                let text = std::fs::read_to_string(&path).unwrap();
                (path.display().to_string(), text, effect)
            })
            .collect()
    }

    /// What `patched` changed of `original`: the bytes between their common start and
    /// end, in each.
    fn changed<'a>(original: &'a str, patched: &'a str) -> (&'a str, &'a str) {
        let common = |a: &mut dyn Iterator<Item = (u8, u8)>| a.take_while(|(x, y)| x == y).count();
        let (a, b) = (original.as_bytes(), patched.as_bytes());
        let start = common(&mut a.iter().copied().zip(b.iter().copied()));
        let room = a.len().min(b.len()) - start;
        let end = common(&mut a.iter().rev().copied().zip(b.iter().rev().copied())).min(room);
        (
            &original[start..a.len() - end],
            &patched[start..b.len() - end],
        )
    }

    /// An edit: what it does to an effect, and the text of the value it sets (None: the
    /// effect has nothing of its kind).
    type Edit = fn(&mut EffectDesc) -> Option<String>;

    /// One edit of each kind an editor makes: a parameter's default, a curve key, a
    /// gradient key, an emitter's field, a stack line.
    const EDITS: [(&str, Edit); 5] = [
        ("parameter", |e| {
            let (_, p) =
                (e.parameters.iter_mut()).find(|(_, p)| matches!(p.default, Value::F32(_)))?;
            let Value::F32(x) = p.default else {
                return None;
            };
            p.default = Value::F32(x + 0.63);
            Some(format!("{:?}", x + 0.63))
        }),
        ("curve key", |e| {
            let key = &mut e.curves.values_mut().next()?.keys[0];
            key.1 += 0.25;
            Some(format!("{:?}", key.1))
        }),
        ("gradient key", |e| {
            e.gradients.values_mut().next()?.keys[0].1[1] = 0.125;
            Some("0.125".into())
        }),
        ("emitter field", |e| {
            e.emitters[0].lifetime.mean += 0.37;
            Some(format!("{:?}", e.emitters[0].lifetime.mean))
        }),
        ("stack line", |e| {
            let mut stacks = (e.emitters.iter_mut())
                .flat_map(|m| [&mut m.init, &mut m.update, &mut m.draw, &mut m.spawn]);
            let line = &mut stacks.find(|s| !s.is_empty())?[0];
            let text = format!("{} * 1.0", line.text());
            *line = Statement::parse(&text).unwrap();
            Some(format!("{text:?}"))
        }),
    ];

    /// The reproducer, on every shipped file: one value of each kind changed and
    /// saved, the file differs from the original in that value's bytes alone: the value
    /// written there now, every other byte (its line's, every comment) as written.
    #[test]
    fn a_save_changes_the_edited_value_and_keeps_every_other_byte() {
        let mut kinds = std::collections::BTreeSet::new();
        for (file, original, effect) in shipped() {
            for (kind, edit) in EDITS {
                let mut edited = effect.clone();
                let Some(text) = edit(&mut edited) else {
                    continue;
                };
                let patched = edited.patch_ron(&original).unwrap();
                let (was, now) = changed(&original, &patched);
                let what = format!("{file}, {kind}: {was:?} became {now:?}, set to {text}");
                assert!(!was.contains('\n') && !now.contains('\n'), "{what}");
                assert!(!now.is_empty() && text.contains(now), "{what}");
                kinds.insert(kind);
            }
        }
        assert_eq!(
            kinds.len(),
            EDITS.len(),
            "every kind of edit was made: {kinds:?}"
        );
    }

    /// Every edit at once: as many lines, every comment kept, a changed line for each edit
    /// at most.
    #[test]
    fn edits_together_change_their_lines_alone() {
        for (file, original, effect) in shipped() {
            let mut edited = effect.clone();
            let made = EDITS
                .iter()
                .filter_map(|(_, edit)| edit(&mut edited))
                .count();
            let patched = edited.patch_ron(&original).unwrap();
            let (a, b): (Vec<&str>, Vec<&str>) =
                (original.lines().collect(), patched.lines().collect());
            assert_eq!(a.len(), b.len(), "{file}");
            let differing = a.iter().zip(&b).filter(|(x, y)| x != y).count();
            assert!(
                (1..=made).contains(&differing),
                "{file}: {differing} lines for {made} edits"
            );
            let comments = |lines: &[&str]| -> Vec<String> {
                (lines.iter())
                    .filter_map(|l| l.split_once("//").map(|(_, c)| c.to_string()))
                    .collect()
            };
            assert_eq!(comments(&a), comments(&b), "{file}: a comment changed");
        }
    }

    /// The lines `longer` has that `shorter` lacks, where they are one run and every other
    /// line is the same.
    fn run<'a>(longer: &'a str, shorter: &str) -> Vec<&'a str> {
        let (l, s): (Vec<&str>, Vec<&str>) = (longer.lines().collect(), shorter.lines().collect());
        let head = l.iter().zip(&s).take_while(|(a, b)| a == b).count();
        let tail = (l.iter().rev().zip(s.iter().rev()))
            .take_while(|(a, b)| a == b)
            .count()
            .min(s.len() - head);
        assert_eq!(head + tail, s.len(), "every other line the same");
        l[head..l.len() - tail].to_vec()
    }

    fn campfire() -> (String, EffectDesc) {
        let file = concat!(env!("CARGO_MANIFEST_DIR"), "/effects/campfire.ron");
        let text = std::fs::read_to_string(file).unwrap();
        let effect = crate::effect::parse::effect(&text).unwrap();
        (text, effect)
    }

    /// What comes and goes is written as the author's siblings are: a field the author
    /// left at its default, on lines of its own at their indent; an item removed with the
    /// comment lines above it; a duplicate as the author wrote the original; keys on one
    /// line added and removed on that line.
    #[test]
    fn entries_come_and_go_laid_out_as_their_siblings() {
        let (original, effect) = campfire();
        let patched = |edit: &dyn Fn(&mut EffectDesc)| {
            let mut e = effect.clone();
            edit(&mut e);
            e.patch_ron(&original).unwrap()
        };
        let spun = patched(&|e| e.emitters[0].spin.mean = 1.0);
        let indent = "            ";
        let lines = [
            format!("{indent}spin: ("),
            format!("{indent}    mean: 1.0,"),
            format!("{indent}    variance: 0.0,"),
            format!("{indent}),"),
        ];
        assert_eq!(run(&spun, &original), lines);
        let gone = patched(&|e| drop(e.emitters.remove(1)));
        let removed = run(&original, &gone);
        assert!(removed[0].contains("// sparks: thrown up"), "{removed:?}");
        assert_eq!(removed.last(), Some(&"        ),"));
        assert!(!gone.contains("images/spark.png"));
        let twice = patched(&|e| e.emitters.insert(1, e.emitters[1].clone()));
        let copy = run(&twice, &original);
        let sparks = original
            .find("        (\n            shape: Sphere(center: (0.0, 0.25")
            .unwrap();
        let written: Vec<&str> = original[sparks..].lines().take(copy.len()).collect();
        assert_eq!(
            copy, written,
            "the duplicate as the author wrote the original"
        );
        let keys = |edit: &dyn Fn(&mut Vec<crate::expr::Key<f32>>)| {
            let text = patched(&|e| edit(&mut e.curves.get_mut("tongue").unwrap().keys));
            let line = text
                .lines()
                .find(|l| l.contains("\"tongue\""))
                .unwrap()
                .trim()
                .to_string();
            line
        };
        let tail = "], interpolation: Smooth),";
        assert_eq!(
            keys(&|k| k.insert(1, crate::expr::Key(0.1, 0.7))),
            format!("\"tongue\": (keys: [(0.0, 0.5), (0.1, 0.7), (0.25, 1.0), (1.0, 0.15){tail}")
        );
        assert_eq!(
            keys(&|k| {
                k.remove(2);
            }),
            format!("\"tongue\": (keys: [(0.0, 0.5), (0.25, 1.0){tail}")
        );
        assert_eq!(
            keys(&|k| {
                k.remove(0);
            }),
            format!("\"tongue\": (keys: [(0.25, 1.0), (1.0, 0.15){tail}")
        );
    }

    /// A file that starts with a byte-order mark keeps it, and the rest as written.
    #[test]
    fn a_byte_order_mark_is_kept() {
        let (original, mut effect) = campfire();
        effect.emitters[0].rate = 2000.0;
        let marked = format!("\u{feff}{original}");
        let patched = effect.patch_ron(&marked).unwrap();
        assert!(patched.starts_with('\u{feff}'));
        let (was, now) = changed(&marked, &patched);
        assert_eq!((was, now), ("3", "2"));
    }

    /// Text that is not an effect is refused, not patched.
    #[test]
    fn text_that_is_no_effect_is_refused() {
        let (_, effect) = campfire();
        for text in ["", "(name: ", "(nonsense: 1)", "[1, 2]"] {
            assert!(effect.patch_ron(text).is_err(), "{text:?}");
        }
    }

    /// Every number and every choice the editor offers, on every shipped file, set and
    /// saved: each is patched in (never the file rewritten whole), the other lines kept.
    #[test]
    fn every_edit_the_editor_makes_is_patched_in() {
        let mut patched = 0;
        for (file, original, effect) in shipped() {
            let edit = crate::effect::EffectEdit::new(effect).unwrap();
            let mut edits: Vec<EffectDesc> = Vec::new();
            for field in edit.fields() {
                let mut e = edit.clone();
                let value = match field.value == field.min {
                    true => field.min + 0.5 * (field.max.min(field.min + 2.0) - field.min),
                    false => field.min,
                };
                if e.set_number(&field.path, value).is_ok() {
                    edits.push(e.effect().clone());
                }
            }
            for choice in edit.choices() {
                for option in choice.options.iter().filter(|o| **o != choice.current) {
                    let mut e = edit.clone();
                    if e.set_choice(&choice.path, option).is_ok() {
                        edits.push(e.effect().clone());
                    }
                }
            }
            assert!(edits.len() >= 20, "{file}: {} edits", edits.len());
            for e in edits {
                let text = e.patch_ron(&original);
                let text = text.unwrap_or_else(|err| panic!("{file}: {err}"));
                let (a, b) = (original.lines().count(), text.lines().count());
                assert!(b + 40 >= a, "{file}: {a} lines became {b}");
                patched += 1;
            }
        }
        assert!(patched > 500, "{patched}");
    }
}
