//! The move tree as one line of text, for storage, the worker and (later) links: moves in
//! coordinates separated by spaces, and after a move its marks (`$1`), its comment (`{...}`),
//! its shapes (`[Ge2e4,Rd5]`) and then its alternatives (`( ... )`), as PGN orders them.
//!
//! ```text
//! {Open game} e2e4 e7e5 $1 {the classical reply} [Gg1f3] (c7c5 g1f3 (c2c3)) g1f3
//! ```
//!
//! A game without variations or notes is its moves separated by spaces, as records were
//! written before the tree. Comments escape `%`, `{`, `}`, `|` and line breaks as `%XX`.

use std::fmt;

use qi_rules::Cell;

use crate::mark::Mark;
use crate::shape::{Brush, Shape};
use crate::tree::Line;

/// How deep variations may nest in text read from outside (storage, links).
pub const MAX_DEPTH: usize = 32;

/// Why a text is not a move tree, and where (a byte offset).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MovetextError {
    /// The byte offset of the problem.
    pub at: usize,
    /// What is wrong.
    pub problem: Problem,
}

/// What is wrong with a movetext.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Problem {
    /// A `{` without its `}`.
    UnclosedComment,
    /// A `(` without its `)`.
    UnclosedVariation,
    /// A `)` with no `(` open.
    StrayClose,
    /// A `}` or `]` that closes nothing.
    StrayBracket,
    /// A `(` before any move of its line: there is no move for it to replace.
    NothingToReplace,
    /// Variations nested deeper than [`MAX_DEPTH`].
    TooDeep,
    /// A `$` not followed by a number from 0 to 255, or a mark before any move.
    BadMark,
    /// A `[...]` that is not a list of shapes.
    BadShape,
    /// A `%` not followed by two hexadecimal digits, or an escape that is not UTF-8.
    BadEscape,
}

impl fmt::Display for MovetextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.problem {
            Problem::UnclosedComment => "a comment is not closed with }",
            Problem::UnclosedVariation => "a variation is not closed with )",
            Problem::StrayClose => "a ) closes no variation",
            Problem::StrayBracket => "a } or ] closes nothing",
            Problem::NothingToReplace => "a variation comes before any move it could replace",
            Problem::TooDeep => "variations nest too deeply",
            Problem::BadMark => "a mark is not $0 to $255 after a move",
            Problem::BadShape => "a shape list is not like [Ge2e4,Rd5]",
            Problem::BadEscape => "a comment has a bad % escape",
        };
        write!(f, "{what} (at byte {})", self.at)
    }
}

impl std::error::Error for MovetextError {}

/// Writes `line` as movetext. Variations nested deeper than [`MAX_DEPTH`] are left out, so
/// that what is written always reads back (the rest of the tree with it).
#[must_use]
pub fn write(line: &Line) -> String {
    let mut out = String::new();
    write_line(line, &mut out, 0);
    out
}

fn write_line(line: &Line, out: &mut String, depth: usize) {
    let mut token = |out: &mut String, text: &str| {
        if !out.is_empty() && !out.ends_with('(') {
            out.push(' ');
        }
        out.push_str(text);
    };
    let notes = |out: &mut String, n: usize, token: &mut dyn FnMut(&mut String, &str)| {
        for mark in line.marks.get(&n).into_iter().flatten() {
            token(out, &format!("${}", mark.0));
        }
        if let Some(comment) = line.comments.get(&n) {
            token(out, &format!("{{{}}}", escape(comment)));
        }
        if let Some(shapes) = line.shapes.get(&n).filter(|s| !s.is_empty()) {
            let list: Vec<String> = shapes.iter().map(|&s| shape_text(s)).collect();
            token(out, &format!("[{}]", list.join(",")));
        }
    };
    notes(out, 0, &mut token);
    for (i, mv) in line.moves.iter().enumerate() {
        token(out, mv);
        notes(out, i + 1, &mut token);
        for variation in line.variations.get(&i).into_iter().flatten().filter(|_| depth < MAX_DEPTH)
        {
            token(out, "(");
            write_line(variation, out, depth + 1);
            out.push(')');
        }
    }
}

fn shape_text(shape: Shape) -> String {
    if shape.is_circle() {
        format!("{}{}", shape.brush.letter(), shape.from)
    } else {
        format!("{}{}{}", shape.brush.letter(), shape.from, shape.to)
    }
}

fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '%' | '{' | '}' | '|' | '\n' | '\r' => out.push_str(&format!("%{:02X}", c as u32)),
            _ => out.push(c),
        }
    }
    out
}

fn unescape(text: &str, at: usize) -> Result<String, MovetextError> {
    let bad = || MovetextError { at, problem: Problem::BadEscape };
    let mut bytes = Vec::with_capacity(text.len());
    let mut rest = text.as_bytes();
    while let Some((&b, tail)) = rest.split_first() {
        if b == b'%' {
            let hex = tail.get(..2).ok_or_else(bad)?;
            let hex = std::str::from_utf8(hex).map_err(|_| bad())?;
            bytes.push(u8::from_str_radix(hex, 16).map_err(|_| bad())?);
            rest = &tail[2..];
        } else {
            bytes.push(b);
            rest = tail;
        }
    }
    String::from_utf8(bytes).map_err(|_| bad())
}

/// Reads [`write()`]'s form. Moves are taken as written: whether they are legal is for the rules
/// to say when the line is replayed.
///
/// # Errors
/// A [`MovetextError`] saying what is wrong and where.
pub fn read(text: &str) -> Result<Line, MovetextError> {
    let mut reader = Reader { text, at: 0 };
    let line = reader.line(0)?;
    match reader.peek() {
        None => Ok(line),
        Some(_) => Err(MovetextError { at: reader.at, problem: Problem::StrayClose }),
    }
}

struct Reader<'a> {
    text: &'a str,
    at: usize,
}

impl Reader<'_> {
    fn peek(&mut self) -> Option<char> {
        let rest = &self.text[self.at..];
        let trimmed = rest.trim_start();
        self.at += rest.len() - trimmed.len();
        trimmed.chars().next()
    }

    fn fail(&self, problem: Problem) -> MovetextError {
        MovetextError { at: self.at, problem }
    }

    /// Reads a line up to a `)` or the end (neither consumed).
    fn line(&mut self, depth: usize) -> Result<Line, MovetextError> {
        if depth > MAX_DEPTH {
            return Err(self.fail(Problem::TooDeep));
        }
        let mut line = Line::default();
        loop {
            let Some(c) = self.peek() else { return Ok(line) };
            let n = line.len();
            match c {
                ')' => return Ok(line),
                '(' => {
                    if n == 0 {
                        return Err(self.fail(Problem::NothingToReplace));
                    }
                    let open = self.at;
                    self.at += 1;
                    let variation = self.line(depth + 1)?;
                    if self.peek() != Some(')') {
                        return Err(MovetextError {
                            at: open,
                            problem: Problem::UnclosedVariation,
                        });
                    }
                    self.at += 1;
                    if !variation.is_empty() {
                        line.variations.entry(n - 1).or_default().push(variation);
                    }
                }
                '{' => {
                    let rest = &self.text[self.at + 1..];
                    let end = rest.find('}').ok_or_else(|| self.fail(Problem::UnclosedComment))?;
                    let comment = unescape(&rest[..end], self.at)?;
                    self.at += end + 2;
                    let slot = line.comments.entry(n).or_default();
                    if !slot.is_empty() {
                        slot.push(' ');
                    }
                    slot.push_str(comment.trim());
                }
                '[' => {
                    let rest = &self.text[self.at + 1..];
                    let end = rest.find(']').ok_or_else(|| self.fail(Problem::BadShape))?;
                    let shapes = rest[..end]
                        .split(',')
                        .map(parse_shape)
                        .collect::<Option<Vec<_>>>()
                        .ok_or_else(|| self.fail(Problem::BadShape))?;
                    self.at += end + 2;
                    line.shapes.entry(n).or_default().extend(shapes);
                }
                _ => {
                    let rest = &self.text[self.at..];
                    let end = rest
                        .find(|c: char| c.is_whitespace() || "(){}[]".contains(c))
                        .unwrap_or(rest.len());
                    if end == 0 {
                        return Err(self.fail(Problem::StrayBracket));
                    }
                    let word = &rest[..end];
                    if word.starts_with('$') {
                        let mark = Mark::parse(word).filter(|_| n > 0);
                        let mark = mark.ok_or_else(|| self.fail(Problem::BadMark))?;
                        line.marks.entry(n).or_default().push(mark);
                    } else {
                        line.moves.push(word.to_owned());
                    }
                    self.at += end;
                }
            }
        }
    }
}

fn parse_shape(text: &str) -> Option<Shape> {
    let mut chars = text.chars();
    let brush = Brush::from_letter(chars.next()?)?;
    let cells = chars.as_str();
    let (from, used) = Cell::parse_prefix(cells)?;
    let to = if used == cells.len() {
        from
    } else {
        let (to, rest) = Cell::parse_prefix(&cells[used..])?;
        (used + rest == cells.len()).then_some(to)?
    };
    Some(Shape { from, to, brush })
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::tree::Path;

    #[test]
    fn plain_moves_are_the_old_form() {
        let line = read("e2e4 e7e5  g1f3").unwrap();
        assert_eq!(line, Line::of_moves(vec!["e2e4".into(), "e7e5".into(), "g1f3".into()]));
        assert_eq!(write(&line), "e2e4 e7e5 g1f3");
        assert_eq!(read("").unwrap(), Line::default());
    }

    #[test]
    fn a_whole_tree_reads_back() {
        let text = "{Open | game} e2e4 e7e5 $1 $16 {the 100%25 %7Bclassical%7D reply} [Gg1f3,Re5] \
                    ( c7c5 g1f3 ( {or} c2c3 ) ) g1f3";
        let line = read(text).unwrap();
        assert_eq!(line.comments[&0], "Open | game");
        assert_eq!(line.marks[&2], [Mark(1), Mark(16)]);
        assert_eq!(line.comments[&2], "the 100% {classical} reply");
        assert_eq!(line.shapes[&2].len(), 2);
        assert!(line.shapes[&2][1].is_circle());
        let sicilian = &line.variations[&1][0];
        assert_eq!(sicilian.moves, ["c7c5", "g1f3"]);
        assert_eq!(sicilian.variations[&1][0].comments[&0], "or");
        let written = write(&line);
        assert!(!written.contains('|'), "the record's field separator never appears: {written}");
        assert_eq!(read(&written).unwrap(), line);
    }

    #[test]
    fn bad_text_says_what_and_where() {
        for (text, problem) in [
            ("e2e4 {open", Problem::UnclosedComment),
            ("e2e4 ( e7e5", Problem::UnclosedVariation),
            ("e2e4 )", Problem::StrayClose),
            ("( e2e4 )", Problem::NothingToReplace),
            ("$1 e2e4", Problem::BadMark),
            ("e2e4 $300", Problem::BadMark),
            ("e2e4 [Xe2e4]", Problem::BadShape),
            ("e2e4 [Ge2e4", Problem::BadShape),
            ("e2e4 {100%}", Problem::BadEscape),
            ("e2e4 } e7e5", Problem::StrayBracket),
            ("e2e4]", Problem::StrayBracket),
            ("e2e4 {%FF}", Problem::BadEscape),
        ] {
            assert_eq!(read(text).map_err(|e| e.problem), Err(problem), "{text}");
        }
        let deep = format!("a1{}{}", " ( b1".repeat(MAX_DEPTH + 2), " )".repeat(MAX_DEPTH + 2));
        assert_eq!(read(&deep).map_err(|e| e.problem), Err(Problem::TooDeep));
        // A tree nested deeper than that is written without its deepest variations, and reads.
        let mut tree = Line::of_moves(vec!["a1".into()]);
        for _ in 0..MAX_DEPTH + 3 {
            let mut outer = Line::of_moves(vec!["a1".into(), "b1".into()]);
            outer.variations.insert(1, vec![tree]);
            tree = outer;
        }
        let text = write(&tree);
        let back = read(&text).expect("what is written reads back");
        assert_eq!(back.moves, tree.moves);
        let error = read("e2e4 e7e5 )").unwrap_err();
        assert_eq!(error.to_string(), "a ) closes no variation (at byte 10)");
    }

    fn word() -> impl Strategy<Value = String> {
        prop_oneof![Just("e2e4"), Just("h10g8"), Just("c3xc4"), Just("stop"), Just("o15")]
            .prop_map(str::to_owned)
    }

    proptest! {
        #[test]
        fn random_trees_read_back(
            adds in proptest::collection::vec((any::<usize>(), word()), 0..40),
            notes in proptest::collection::vec((any::<usize>(), "[ -~é棋\n|{}%]{0,12}", 0..20u8), 0..10),
        ) {
            let mut tree = Line::default();
            for (pick, mv) in adds {
                let paths = tree.paths();
                tree.add_move(&paths[pick % paths.len()], &mv);
            }
            for (pick, comment, mark) in notes {
                let paths = tree.paths();
                let path: &Path = &paths[pick % paths.len()];
                tree.set_comment(path, &comment);
                tree.toggle_mark(path, Mark(mark));
            }
            let text = write(&tree);
            prop_assert_eq!(read(&text).unwrap(), tree);
        }

        #[test]
        fn any_text_reads_or_is_refused_without_panic(text in "\\PC{0,80}") {
            let _ = read(&text);
        }
    }
}
