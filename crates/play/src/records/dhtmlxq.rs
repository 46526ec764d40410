//! DhtmlXQ blocks, the UBB code Chinese xiangqi sites and forums post games in (dpxq.com's
//! viewer; xqbase and many blogs embed them):
//!
//! ```text
//! [DhtmlXQ]
//! [DhtmlXQ_title]示例[/DhtmlXQ_title]
//! [DhtmlXQ_red]林[/DhtmlXQ_red]
//! [DhtmlXQ_black]陈[/DhtmlXQ_black]
//! [DhtmlXQ_result]红胜[/DhtmlXQ_result]
//! [DhtmlXQ_binit]8979695949392919097717866646260600102030405060708012720323436383[/DhtmlXQ_binit]
//! [DhtmlXQ_movelist]77477062[/DhtmlXQ_movelist]
//! [DhtmlXQ_comment1]中炮[/DhtmlXQ_comment1]
//! [DhtmlXQ_move_0_2_1]1927[/DhtmlXQ_move_0_2_1]
//! [/DhtmlXQ]
//! ```
//!
//! - A square is two digits: the file from Red's left, `0` to `8` (`a` to `i`), and the rank
//!   from Black's side, `0` to `9` (rank 10 to rank 1). A move is four digits, from and to:
//!   `7747` is h3-e3, 炮二平五.
//! - `binit` places the 32 pieces in a fixed order, two digits each (`99`: not on the board):
//!   Red's chariot, horse, elephant, advisor, general, advisor, elephant, horse, chariot, two
//!   cannons and five soldiers, then Black's the same. Without it the game starts from the
//!   usual position. The side to move first is the one whose piece the first move moves.
//! - `movelist` is the main line. `move_P_S_B` is branch `B`, an alternative to the `S`th move
//!   (from 1) of branch `P` (the main line is 0). `commentS` is said after the main line's `S`th
//!   move (`comment0` before the first), `commentB_S` after branch `B`'s `S`th.
//! - `result` is 红胜/红先胜 (Red won), 黑胜/红先负 (Black won), 和/和棋/红先和 (a draw).
//!   `title`, `event`, `date`, `place`, `round`, `red`, `black` and `open` become tags.
//!
//! A block is written out as a PGN-style record with a move a line, each line remembering where
//! its four digits stood, so that an error names the block's own line and column.

use std::collections::BTreeMap;

use super::error::{Pos, RecordError, RecordErrorKind};
use super::foreign::{Converted, comment_text, tag_line};

/// The tag each element becomes.
const TAGS: [(&str, &str); 10] = [
    ("event", "Event"),
    ("title", "Title"),
    ("date", "Date"),
    ("place", "Site"),
    ("round", "Round"),
    ("red", "Red"),
    ("black", "Black"),
    ("open", "Opening"),
    ("redteam", "RedTeam"),
    ("blackteam", "BlackTeam"),
];

/// The most branches a block may hold (a hostile page could hold millions).
const MAX_BRANCHES: usize = 10_000;

/// Whether `text` holds a DhtmlXQ move list (and is not a PGN record that merely quotes one:
/// one whose first thing is a tag pair `[Name "...`).
pub(crate) fn is_dhtmlxq(text: &str) -> bool {
    let first = text.trim_start();
    let pgn = first.starts_with('[')
        && first[1..].split_once(char::is_whitespace).is_some_and(|(name, rest)| {
            name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') && rest.starts_with('"')
        });
    !pgn && ["[DhtmlXQ_movelist]", "[DhtmlXQ_binit]", "[DhtmlXQ_fen]"]
        .iter()
        .any(|needle| find_ci(text, needle).is_some())
}

/// The byte offset of `needle` (ASCII) in `text`, ignoring ASCII case.
fn find_ci(text: &str, needle: &str) -> Option<usize> {
    let (bytes, needle) = (text.as_bytes(), needle.as_bytes());
    bytes.windows(needle.len()).position(|window| window.eq_ignore_ascii_case(needle))
}

/// The games of a page: each `[DhtmlXQ]...[/DhtmlXQ]` block (one, the whole text, when the
/// elements stand without the wrapper).
pub(crate) fn blocks(text: &str) -> Vec<std::ops::Range<usize>> {
    let mut found = Vec::new();
    let mut from = 0;
    while found.len() < super::MAX_GAMES
        && let Some(open) = find_ci(&text[from..], "[DhtmlXQ]").map(|at| from + at)
    {
        let end = find_ci(&text[open..], "[/DhtmlXQ]").map_or(text.len(), |at| open + at + 10);
        found.push(open..end);
        from = end;
    }
    if found.is_empty() {
        found.push(0..text.len());
    }
    found
}

/// An element `[DhtmlXQ_name]value[/DhtmlXQ_name]`: its name (lower case), value, and where the
/// value starts.
struct Element<'a> {
    name: String,
    value: &'a str,
    pos: Pos,
}

/// Places in a text, found moving forward only, so that finding them all costs one pass.
struct Cursor<'a> {
    text: &'a str,
    offset: usize,
    pos: Pos,
}

impl Cursor<'_> {
    /// The place of byte `offset` (at or after the last one asked for).
    fn pos_of(&mut self, offset: usize) -> Pos {
        for c in self.text[self.offset..offset].chars() {
            if c == '\n' {
                self.pos = Pos { line: self.pos.line + 1, column: 1 };
            } else {
                self.pos.column += 1;
            }
        }
        self.offset = offset;
        self.pos
    }
}

/// Every element of the first block of `text`.
///
/// # Errors
/// An element with no closing tag, named where it opens.
fn elements(text: &str) -> Result<Vec<Element<'_>>, RecordError> {
    let mut found = Vec::new();
    let mut from = 0;
    let mut cursor = Cursor { text, offset: 0, pos: Pos::START };
    while let Some(open) = find_ci(&text[from..], "[DhtmlXQ_").map(|at| from + at) {
        let name_start = open + "[DhtmlXQ_".len();
        let opened = cursor.pos_of(open);
        let unclosed = |name: &str| {
            let name = qi_rules::options::shorten(&format!("DhtmlXQ_{name}"));
            RecordError::at(opened, RecordErrorKind::UnclosedElement { name })
        };
        let Some(name_len) = text[name_start..].find(']') else { return Err(unclosed("")) };
        let name = &text[name_start..name_start + name_len];
        let value_start = name_start + name_len + 1;
        let close = format!("[/DhtmlXQ_{name}]");
        let Some(value_len) = find_ci(&text[value_start..], &close) else {
            return Err(unclosed(name));
        };
        found.push(Element {
            name: name.to_ascii_lowercase(),
            value: &text[value_start..value_start + value_len],
            pos: cursor.pos_of(value_start),
        });
        from = value_start + value_len + close.len();
    }
    Ok(found)
}

/// A square's two digits as coordinates (`77` is h3); `None` off the board.
fn square(x: u8, y: u8) -> Option<String> {
    let (x, y) = (x.checked_sub(b'0')?, y.checked_sub(b'0')?);
    (x <= 8 && y <= 9).then(|| format!("{}{}", char::from(b'a' + x), 10 - y))
}

/// The moves of a move list: each one's four digits as coordinates (or as written when they
/// are no move, for the reader to name) and where it stands.
fn moves(element: &Element<'_>) -> Vec<(String, Pos)> {
    let mut out = Vec::new();
    let mut pos = element.pos;
    let mut digits = String::new();
    let mut start = pos;
    for c in element.value.chars() {
        if c.is_ascii_digit() {
            if digits.is_empty() {
                start = pos;
            }
            digits.push(c);
            if digits.len() == 4 {
                let b = digits.as_bytes();
                let read = square(b[0], b[1]).zip(square(b[2], b[3]));
                // Off the board: kept as written, marked so that no reader takes the digits
                // for a move number, and the error names them.
                let text = read.map_or_else(|| format!("DhtmlXQ:{digits}"), |(f, t)| f + &t);
                out.push((text, start));
                digits.clear();
            }
        } else if !c.is_whitespace() && !digits.is_empty() {
            out.push((format!("DhtmlXQ:{}", std::mem::take(&mut digits)), start));
        }
        if c == '\n' {
            pos = Pos { line: pos.line + 1, column: 1 };
        } else {
            pos.column += 1;
        }
    }
    if !digits.is_empty() {
        out.push((format!("DhtmlXQ:{digits}"), start));
    }
    out
}

/// The pieces of `binit`, in its order, as FEN letters.
const BINIT_PIECES: &[u8; 32] = b"RNBAKABNRCCPPPPPrnbakabnrccppppp";

/// The FEN board of a `binit` value (`w` to move; the caller fixes the side).
fn binit_board(value: &str, pos: Pos) -> Result<[[Option<u8>; 9]; 10], RecordError> {
    let digits: Vec<u8> = value.bytes().filter(u8::is_ascii_digit).collect();
    let bad = |why: &str| {
        let error = qi_rules::ParsePositionError::field("binit", why.to_owned());
        RecordError::at(
            pos,
            RecordErrorKind::BadPosition { game: qi_rules::GameKind::Xiangqi, error },
        )
    };
    if digits.len() != 64 {
        return Err(bad("64 digits are needed, two for each of the 32 pieces"));
    }
    let mut board = [[None; 9]; 10];
    for (index, pair) in digits.chunks(2).enumerate() {
        let (x, y) = (pair[0] - b'0', pair[1] - b'0');
        if x == 9 && y == 9 {
            continue;
        }
        if x > 8 {
            return Err(bad("a file is 0 to 8"));
        }
        let row = &mut board[usize::from(y)][usize::from(x)];
        if row.is_some() {
            return Err(bad("two pieces on one square"));
        }
        *row = Some(BINIT_PIECES[index]);
    }
    Ok(board)
}

/// A FEN for `board` with `side` (`w` or `b`) to move.
fn fen(board: &[[Option<u8>; 9]; 10], side: char) -> String {
    let ranks: Vec<String> = board
        .iter()
        .map(|rank| {
            let mut out = String::new();
            let mut empty = 0;
            for cell in rank {
                match cell {
                    None => empty += 1,
                    Some(piece) => {
                        if empty > 0 {
                            out.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        out.push(char::from(*piece));
                    }
                }
            }
            if empty > 0 {
                out.push(char::from(b'0' + empty));
            }
            out
        })
        .collect();
    format!("{} {side} - - 0 1", ranks.join("/"))
}

/// The result an element says, as a PGN result token: 红胜, 红先胜 and 黑负 are Red's win; 黑胜,
/// 红负 and 红先负 Black's; anything with 和 a draw.
fn result(value: &str) -> &'static str {
    let value = value.trim();
    if matches!(value, "1-0" | "0-1") {
        return if value == "1-0" { "1-0" } else { "0-1" };
    }
    if value.contains('和') || value == "1/2-1/2" {
        return "1/2-1/2";
    }
    let won = value.contains('胜') || value.contains('勝');
    let lost = value.contains('负') || value.contains('負');
    let black = value.starts_with('黑');
    match (won, lost) {
        (true, false) if black => "0-1",
        (true, false) => "1-0",
        (false, true) if black => "1-0",
        (false, true) => "0-1",
        _ => "*",
    }
}

/// The file (0 for `a`) and rank (from 1) a move's coordinates start from (`h3e3`: 7, 3).
fn from_square(mv: &str) -> Option<(usize, usize)> {
    let file = usize::from(mv.as_bytes().first()?.checked_sub(b'a')?);
    let digits = mv[1..].bytes().take_while(u8::is_ascii_digit).count();
    Some((file, mv.get(1..1 + digits)?.parse().ok()?))
}

/// The first DhtmlXQ block of `text` as a PGN-style record.
///
/// # Errors
/// A `binit` that places no legal set of pieces, or a block with too many branches.
pub(crate) fn as_record(text: &str) -> Result<Converted, RecordError> {
    let elements = elements(text)?;
    let mut lines = vec!["[Variant \"xiangqi\"]".to_owned()];
    let mut origin = vec![None];
    let tag = |lines: &mut Vec<String>, origin: &mut Vec<Option<Pos>>, line: String| {
        lines.push(line);
        origin.push(None);
    };
    let mut said = Vec::new();
    for element in &elements {
        if let Some((_, name)) = TAGS.iter().find(|(key, _)| *key == element.name)
            && !element.value.trim().is_empty()
            && !said.contains(name)
        {
            said.push(*name);
            tag(&mut lines, &mut origin, tag_line(name, element.value));
        }
    }
    let result = elements.iter().find(|e| e.name == "result").map_or("*", |e| result(e.value));
    tag(&mut lines, &mut origin, tag_line("Result", result));
    // The branches: 0 the main line; the others from `move_P_S_B`.
    let mut branches: BTreeMap<usize, Branch> = BTreeMap::new();
    let mut comments: BTreeMap<(usize, usize), String> = BTreeMap::new();
    for element in &elements {
        if element.name == "movelist" {
            branches.insert(0, (0, 1, moves(element)));
        } else if let Some(rest) = element.name.strip_prefix("move_") {
            let numbers: Vec<usize> = rest.split('_').filter_map(|n| n.parse().ok()).collect();
            if let [parent, step, branch] = numbers[..]
                && branch > 0
            {
                if branches.len() >= MAX_BRANCHES {
                    let kind = RecordErrorKind::TooLong { len: branches.len(), max: MAX_BRANCHES };
                    return Err(RecordError::at(element.pos, kind));
                }
                branches.insert(branch, (parent, step.max(1), moves(element)));
            }
        } else if let Some(rest) = element.name.strip_prefix("comment") {
            let numbers: Vec<usize> = rest.split('_').filter_map(|n| n.parse().ok()).collect();
            let key = match numbers[..] {
                [step] => (0, step),
                [branch, step] => (branch, step),
                _ => continue,
            };
            // `||` is the viewer's line break.
            let text = comment_text(&element.value.replace("||", "\n"));
            if !text.trim().is_empty() {
                comments.insert(key, text.trim().to_owned());
            }
        }
    }
    let main = branches.get(&0).map(|b| b.2.clone()).unwrap_or_default();
    let start = if let Some(binit) = elements.iter().find(|e| e.name == "binit") {
        let board = binit_board(binit.value, binit.pos)?;
        // The side whose piece the first move moves (a FEN letter's case).
        let side = main
            .first()
            .and_then(|(mv, _)| {
                let (file, rank) = from_square(mv)?;
                let piece = board.get(10usize.checked_sub(rank)?)?.get(file).copied().flatten()?;
                Some(if piece.is_ascii_lowercase() { 'b' } else { 'w' })
            })
            .unwrap_or('w');
        Some((fen(&board, side), binit.pos))
    } else {
        // Some viewers write the start as a FEN instead.
        elements.iter().find(|e| e.name == "fen").map(|e| (e.value.trim().to_owned(), e.pos))
    };
    if let Some((fen, pos)) = start {
        // Judged here, so that a bad start is named where the block says it.
        let from = qi_rules::any::StartFrom::Position(&fen);
        if let Err(error) = qi_rules::any::AnyGame::new("xiangqi", "", &from) {
            let error = match error {
                qi_rules::any::SetupError::Position(error) => error,
                other => qi_rules::ParsePositionError::field("binit", other.to_string()),
            };
            let kind = RecordErrorKind::BadPosition { game: qi_rules::GameKind::Xiangqi, error };
            return Err(RecordError::at(pos, kind));
        }
        tag(&mut lines, &mut origin, tag_line("FEN", &fen));
    }
    lines.push(String::new());
    origin.push(None);
    if let Some(comment) = comments.get(&(0, 0)) {
        push_comment(&mut lines, &mut origin, comment);
    }
    let mut children: BTreeMap<(usize, usize), Vec<usize>> = BTreeMap::new();
    for (&branch, &(parent, step, _)) in &branches {
        if branch != 0 {
            children.entry((parent, step)).or_default().push(branch);
        }
    }
    let mut writer = Writer { lines, origin, branches: &branches, children, comments: &comments };
    writer.branch(0, 0);
    Ok(Converted { text: writer.lines.join("\n"), origin: writer.origin })
}

/// A `{comment}`, one entry a line of its text, so that every line of the record written
/// keeps its own place in [`Converted::origin`].
fn push_comment(lines: &mut Vec<String>, origin: &mut Vec<Option<Pos>>, comment: &str) {
    let text = format!("{{{comment}}}");
    for line in text.split('\n') {
        lines.push(line.to_owned());
        origin.push(None);
    }
}

/// A branch: its parent, the step (from 1) of the parent's move it replaces, and its moves.
type Branch = (usize, usize, Vec<(String, Pos)>);

/// Writes branches, each variation after the move it replaces.
struct Writer<'a> {
    lines: Vec<String>,
    origin: Vec<Option<Pos>>,
    branches: &'a BTreeMap<usize, Branch>,
    /// The branches that replace each (branch, step).
    children: BTreeMap<(usize, usize), Vec<usize>>,
    comments: &'a BTreeMap<(usize, usize), String>,
}

impl Writer<'_> {
    /// Writes branch `index`, `depth` variations deep; deeper than a record keeps is left out
    /// (and a branch can't be its own ancestor: each has one parent, reached from the main line).
    fn branch(&mut self, index: usize, depth: usize) {
        let Some((_, first_step, moves)) = self.branches.get(&index) else { return };
        if depth > crate::movetext::MAX_DEPTH {
            return;
        }
        for (offset, (mv, pos)) in moves.iter().enumerate() {
            let step = first_step + offset;
            self.lines.push(mv.clone());
            self.origin.push(Some(*pos));
            if let Some(comment) = self.comments.get(&(index, step)) {
                push_comment(&mut self.lines, &mut self.origin, comment);
            }
            for child in self.children.get(&(index, step)).cloned().unwrap_or_default() {
                self.lines.push("(".to_owned());
                self.origin.push(None);
                self.branch(child, depth + 1);
                self.lines.push(")".to_owned());
                self.origin.push(None);
            }
        }
    }
}
