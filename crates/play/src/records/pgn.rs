//! The PGN shape shared by every game's record: reading tags and the main line's words and
//! comments, and writing a record back.

use qi_rules::any::AnyGame;
use qi_rules::{GameKind, Side};

use super::dialect::Dialect;
use super::error::{
    Pos, RecordError, RecordErrorKind, RecordWarning, RecordWarningKind, TagExpected,
};
use super::pgn_lexer::{Lexer, Token};
use crate::record::GameRecord;

/// A tag pair as read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Tag {
    pub name: String,
    pub value: String,
    /// Where the value starts.
    pub pos: Pos,
}

/// Something in the moves, in the order written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Item<'a> {
    /// A move's text (a gomoku word may hold several points), without its move number or marks.
    Move(Pos, &'a str),
    /// A comment, trimmed and not empty.
    Comment(&'a str),
    /// A mark on the move before: a NAG (`$14`) or a suffix (`!?`), by its number.
    Mark(u8),
    /// `(`: an alternative to the move before starts.
    VariationOpen(Pos),
    /// `)`: the alternative ends.
    VariationClose,
}

/// The first game of a text, read as far as it goes.
#[derive(Debug)]
pub(crate) struct Parsed<'a> {
    pub tags: Vec<Tag>,
    pub items: Vec<Item<'a>>,
    /// Whether move numbers were seen.
    pub numbered: bool,
    /// Whether another game follows.
    pub more_games: bool,
    /// Where it starts (a byte offset in the text), when it does.
    pub next_game: Option<usize>,
    /// The result token that ended the main line (`1-0`, `*`, ...), if there was one.
    pub result: Option<&'a str>,
    /// A problem in the moves: the items before it were read.
    pub error: Option<RecordError>,
    /// What was skipped among the moves (stray characters).
    pub warnings: Vec<RecordWarning>,
}

impl Parsed<'_> {
    /// The first tag named `name`.
    pub(crate) fn tag(&self, name: &str) -> Option<&Tag> {
        self.tags.iter().find(|tag| tag.name == name)
    }
}

/// The Seven Tag Roster, in its order, with the value written when a record has none.
pub(crate) const ROSTER: [(&str, &str); 7] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
    ("Result", "*"),
];

/// Tags that describe the game itself: written from the record, never kept in its tags. (`Result`
/// is read into the record's [`Ending`](crate::record::Ending), with `Termination`; that tag is
/// kept too unless it says just what export writes for the ending.)
pub(crate) const DESCRIBING: [&str; 6] = ["FEN", "Variant", "SetUp", "Result", "Rules", "Format"];

fn is_tag_name(word: &str) -> bool {
    let mut chars = word.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// A result token.
pub(crate) fn is_result(word: &str) -> bool {
    matches!(word, "1-0" | "0-1" | "1/2-1/2" | "*" | "½-½" | "1/2")
}

/// Reads the tag section and the main line of the first game.
///
/// # Errors
/// A problem in the tag section (malformed tag, unterminated string); problems in the moves go
/// to [`Parsed::error`].
pub(crate) fn parse(text: &str) -> Result<Parsed<'_>, RecordError> {
    let mut lexer = Lexer::new(text);
    let mut tags = Vec::new();
    let mut token = lexer.next_token()?;
    while token.1 == Token::TagOpen {
        let (pos, name) = lexer.next_token()?;
        let name = match name {
            Token::Word(word) if is_tag_name(word) => word,
            _ => return Err(tag_error(pos, TagExpected::Name)),
        };
        let (pos, value) = lexer.next_token()?;
        let Token::Str(value) = value else { return Err(tag_error(pos, TagExpected::Value)) };
        let (close, token_after) = lexer.next_token()?;
        if token_after != Token::TagClose {
            return Err(tag_error(close, TagExpected::Close));
        }
        tags.push(Tag { name: name.to_owned(), value, pos });
        token = lexer.next_token()?;
    }
    let mut parsed = Parsed {
        tags,
        items: Vec::new(),
        numbered: false,
        more_games: false,
        next_game: None,
        result: None,
        error: None,
        warnings: Vec::new(),
    };
    if let Err(error) = movetext(&mut lexer, token, &mut parsed) {
        parsed.error = Some(error);
    }
    Ok(parsed)
}

fn tag_error(pos: Pos, expected: TagExpected) -> RecordError {
    RecordError::at(pos, RecordErrorKind::TagSyntax { expected })
}

/// Reads the moves from `token` on, up to the result, the next game's tags or the end.
fn movetext<'a>(
    lexer: &mut Lexer<'a>,
    mut token: (Pos, Token<'a>),
    parsed: &mut Parsed<'a>,
) -> Result<(), RecordError> {
    // Where the outermost open variation started, and how deep the nesting is.
    let mut variation = Pos::START;
    let mut depth = 0usize;
    loop {
        let (pos, kind) = token;
        match kind {
            Token::End if depth > 0 => {
                return Err(RecordError::at(variation, RecordErrorKind::UnterminatedVariation));
            }
            Token::End => return Ok(()),
            Token::TagOpen if depth == 0 => {
                parsed.more_games = true;
                parsed.next_game = Some(lexer.token_offset());
                return Ok(());
            }
            Token::TagOpen | Token::TagClose | Token::Str(_) => {
                let found = if kind == Token::TagOpen {
                    '['
                } else if kind == Token::TagClose {
                    ']'
                } else {
                    '"'
                };
                return Err(RecordError::at(pos, RecordErrorKind::UnexpectedChar { found }));
            }
            Token::VariationOpen => {
                if depth == 0 {
                    variation = pos;
                }
                depth += 1;
                parsed.items.push(Item::VariationOpen(pos));
            }
            Token::VariationClose if depth == 0 => {
                return Err(RecordError::at(pos, RecordErrorKind::UnmatchedParen));
            }
            Token::VariationClose => {
                depth -= 1;
                parsed.items.push(Item::VariationClose);
            }
            Token::Nag(number) => {
                // A NAG out of range is skipped, as other readers do.
                if let Ok(number) = number.parse::<u8>() {
                    parsed.items.push(Item::Mark(number));
                }
            }
            Token::Comment(text) => {
                let text = text.trim();
                if !text.is_empty() {
                    parsed.items.push(Item::Comment(text));
                }
            }
            // A result inside a variation ends nothing: some editors write one there.
            Token::Word(word) if depth > 0 && is_result(word) => {}
            Token::Word(word) if is_result(word) => {
                parsed.result = Some(word);
                // Anything but comments after the result is another game.
                loop {
                    match lexer.next_token() {
                        Ok((_, Token::Comment(_))) => {}
                        Ok((_, Token::End)) => return Ok(()),
                        _ => {
                            parsed.more_games = true;
                            parsed.next_game = Some(lexer.token_offset());
                            return Ok(());
                        }
                    }
                }
            }
            Token::Word(word) => {
                let (skipped, rest) = split_number(word);
                parsed.numbered |= skipped > 0;
                let bare = rest.trim_end_matches(['!', '?']);
                let suffix = crate::Mark::parse(&rest[bare.len()..]);
                let bare = bare.strip_suffix("e.p.").unwrap_or(bare);
                let apart = (skipped == 0).then(|| crate::Mark::parse(rest)).flatten();
                if let Some(mark) = apart {
                    // A mark standing apart from its move (`e4 !?`, ChessBase's `e4 ±`).
                    parsed.items.push(Item::Mark(mark.0));
                } else if is_stray(rest) {
                    // No letter or digit: no move, whatever it is (`\`, `|`, a stray `}`).
                    let text = qi_rules::options::shorten(rest);
                    let kind = RecordWarningKind::StrayText { text };
                    parsed.warnings.push(RecordWarning::at(pos.right(skipped), kind));
                } else if !bare.is_empty() && !bare.bytes().all(|b| b == b'.') {
                    parsed.items.push(Item::Move(pos.right(skipped), bare));
                    if let Some(mark) = suffix {
                        parsed.items.push(Item::Mark(mark.0));
                    }
                }
            }
        }
        token = lexer.next_token()?;
    }
}

/// Whether a word among the moves is stray characters: no letter or digit in it, and not the
/// dots after a move number or chess's null move `--` (which then reads as a bad move).
fn is_stray(word: &str) -> bool {
    !word.is_empty()
        && !word.chars().any(char::is_alphanumeric)
        && !word.bytes().all(|b| b == b'.')
        && word != "--"
}

/// Splits a leading move number (`12.`, `12...`, or a bare `12`) off a word: the number of
/// characters skipped and the rest. A number followed by a digit is kept whole (the xiangqi
/// move `33.4`).
fn split_number(word: &str) -> (usize, &str) {
    let digits = word.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return (0, word);
    }
    let dots = word[digits..].bytes().take_while(|&b| b == b'.').count();
    let rest = &word[digits + dots..];
    if rest.is_empty() && (dots > 0 || digits == word.len()) {
        return (word.len(), "");
    }
    // `4.0-0`: castling written with zeros after its number.
    let castling = rest.starts_with("0-0");
    if dots > 0 && (castling || !rest.starts_with(|c: char| c.is_ascii_digit())) {
        return (digits + dots, rest);
    }
    (0, word)
}

/// Keeps a read tag in the record's tags: not a describing tag, not a roster placeholder.
pub(crate) fn keeps_tag(tag: &Tag, kind: GameKind) -> bool {
    // Xiangqi's `Game "Chinese Chess"` and PlayOK's gomoku `GameType "61,15"` say the game too.
    let says_the_game = match kind {
        GameKind::Xiangqi => tag.name == "Game",
        GameKind::Gomoku => tag.name == "GameType",
        GameKind::Chess | GameKind::Banqi => false,
    };
    if DESCRIBING.contains(&tag.name.as_str()) || says_the_game {
        return false;
    }
    !ROSTER.iter().any(|&(name, placeholder)| tag.name == name && tag.value == placeholder)
}

/// Writes text wrapped at 80 columns.
struct Wrapper {
    out: String,
    column: usize,
    /// Opening parentheses waiting to be glued to the next token: `(1. d4`.
    open: String,
}

impl Wrapper {
    fn token(&mut self, token: &str) {
        let glued;
        let token = if self.open.is_empty() {
            token
        } else {
            glued = format!("{}{token}", std::mem::take(&mut self.open));
            &glued
        };
        let width = token.chars().count();
        if self.column > 0 && self.column + 1 + width > 80 {
            self.out.push('\n');
            self.column = 0;
        }
        if self.column > 0 {
            self.out.push(' ');
            self.column += 1;
        }
        self.out.push_str(token);
        self.column = match token.rfind('\n') {
            Some(at) => token[at + 1..].chars().count(),
            None => self.column + width,
        };
    }

    /// A closing parenthesis, glued to what came before: `d5)`. A variation that wrote nothing
    /// (its first move could not be replayed) takes back its opening parenthesis instead, so
    /// the text stays balanced (found by fuzzing: a lone `)` the reader refuses).
    /// Returns whether the variation was written.
    fn close(&mut self, paren: char) -> bool {
        if self.open.pop().is_some() {
            return false;
        }
        if self.out.ends_with('\n') {
            self.token(&paren.to_string());
        } else {
            self.out.push(paren);
            self.column += 1;
        }
        true
    }

    fn comment(&mut self, comment: &str) {
        if !comment.contains('}') {
            self.token(&format!("{{{comment}}}"));
            return;
        }
        // A `}` cannot stand in a brace comment: one `;` comment per line (blank lines go).
        for line in comment.split(['\n', '\r']).map(str::trim).filter(|line| !line.is_empty()) {
            self.token(&format!("; {line}"));
            self.out.push('\n');
            self.column = 0;
        }
    }
}

/// A tag value with `\` and `"` escaped and line breaks turned into spaces.
pub(crate) fn escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// The result token of a finished or unfinished game.
pub(crate) fn result_token(outcome: Option<&qi_rules::Outcome>) -> &'static str {
    match outcome.map(|o| o.winner) {
        None => "*",
        Some(Some(Side::First)) => "1-0",
        Some(Some(Side::Second)) => "0-1",
        Some(None) => "1/2-1/2",
    }
}

/// How a record's moves are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Notation {
    /// The game's own: SAN, WXF, banqi's squares, gomoku's points.
    Own,
    /// Xiangqi in Chinese notation (炮二平五).
    Chinese,
    /// Xiangqi in ICCS coordinates (`H2-E2`, ranks from 0).
    Iccs,
}

impl Notation {
    /// The `Format` tag's value for xiangqi.
    fn format_tag(self) -> &'static str {
        match self {
            Notation::Own => "WXF",
            Notation::Chinese => "Chinese",
            Notation::Iccs => "ICCS",
        }
    }
}

/// How moves are written: the game's dialect, and which notation.
#[derive(Clone, Copy)]
pub(crate) struct Style<'a> {
    /// The record's game.
    pub dialect: &'a dyn Dialect,
    /// The notation of the moves.
    pub notation: Notation,
}

/// ICCS coordinates (`H2-E2`) of a xiangqi move in Qi's coordinates (`h3e3`).
pub(crate) fn iccs(coordinates: &str) -> Option<String> {
    let bytes = coordinates.as_bytes();
    let square = |from: usize| -> Option<(char, u32, usize)> {
        let file = char::from(*bytes.get(from)?).to_ascii_uppercase();
        let digits = bytes[from + 1..].iter().take_while(|b| b.is_ascii_digit()).count();
        let rank: u32 = coordinates.get(from + 1..from + 1 + digits)?.parse().ok()?;
        Some((file, rank.checked_sub(1)?, from + 1 + digits))
    };
    let (from_file, from_rank, next) = square(0)?;
    let (to_file, to_rank, end) = square(next)?;
    (end == bytes.len()).then(|| format!("{from_file}{from_rank}-{to_file}{to_rank}"))
}

/// Writes `record` as a PGN-style record.
pub(crate) fn export(record: &GameRecord, style: Style<'_>) -> String {
    let start = record.start_game();
    let mut game = start.clone();
    let mut played = 0;
    for text in &record.moves {
        if game.play(text).is_err() {
            break;
        }
        played += 1;
    }
    // The moves' own ending, else the recorded one (a resignation, a flag, ...) when every move
    // was played.
    let outcome = game.outcome();
    let ending = record.ending.filter(|_| outcome.is_none() && played == record.moves.len());
    let result = ending.map_or_else(|| result_token(outcome.as_ref()), |e| e.result_token());
    let mut out = String::new();
    for (name, placeholder) in ROSTER {
        let value = if name == "Result" {
            result
        } else {
            record.tags.iter().find(|(n, _)| n == name).map_or(placeholder, |(_, v)| v.as_str())
        };
        out.push_str(&format!("[{name} \"{}\"]\n", escape(value)));
    }
    for (name, mut value) in style.dialect.describing_tags(record, &start) {
        if name == "Format" {
            style.notation.format_tag().clone_into(&mut value);
        }
        out.push_str(&format!("[{name} \"{}\"]\n", escape(&value)));
    }
    // The record's own Termination tag (an imported `Abandoned`, say) stands; else the ending's.
    let has_termination = record.tags.iter().any(|(name, _)| name == "Termination");
    if let Some(termination) = ending.and_then(|e| e.termination()).filter(|_| !has_termination) {
        out.push_str(&format!("[Termination \"{termination}\"]\n"));
    }
    let mut roster_written = [false; 7];
    for (name, value) in &record.tags {
        if let Some(i) = ROSTER.iter().position(|(n, _)| n == name)
            && !roster_written[i]
        {
            roster_written[i] = true;
            continue;
        }
        if DESCRIBING.contains(&name.as_str()) || !is_tag_name(name) {
            continue;
        }
        out.push_str(&format!("[{name} \"{}\"]\n", escape(value)));
    }
    out.push('\n');
    out.push_str(&write_tree(record, &start, result, style));
    out
}

/// The move tree with numbers, marks (`$n`), comments (arrows and circles in them as lichess's
/// `[%cal]` and `[%csl]`) and variations in `( ... )`, then the result; wrapped at 80 columns.
fn write_tree(record: &GameRecord, start: &AnyGame, result: &str, style: Style<'_>) -> String {
    let mut wrapper = Wrapper { out: String::new(), column: 0, open: String::new() };
    let tree = record.tree();
    let numbering =
        Numbering { number: super::start_number(start), previous: None, restate: false };
    write_line(&mut wrapper, &tree, start.clone(), numbering, style);
    wrapper.token(result);
    wrapper.out.push('\n');
    wrapper.out
}

/// Where the move numbers stand while writing: the number of the next first-player move, who
/// moved last, and whether the next move must say its number (after a comment or a variation).
#[derive(Clone, Copy)]
struct Numbering {
    number: u32,
    previous: Option<Side>,
    restate: bool,
}

/// Writes one line of the tree from `game`, its position before the line's first move.
fn write_line(
    wrapper: &mut Wrapper,
    line: &crate::Line,
    mut game: AnyGame,
    mut at: Numbering,
    style: Style<'_>,
) {
    at.restate |= write_notes(wrapper, line, 0);
    for (i, text) in line.moves.iter().enumerate() {
        let before = line.variations.contains_key(&i).then(|| (game.clone(), at));
        let side = game.side_to_move();
        let revealed = style.dialect.after_move(&game, text);
        let written = match style.notation {
            Notation::Own => None,
            Notation::Chinese => game.chinese_notation(text),
            Notation::Iccs => iccs(text),
        };
        let Ok(notation) = game.play(text) else { return };
        let notation = written.unwrap_or(notation);
        if at.previous == Some(Side::Second) && side == Side::First {
            at.number += 1;
        }
        let number = at.number;
        match side {
            Side::First if at.previous != Some(side) || at.restate => {
                wrapper.token(&format!("{number}. {notation}{revealed}"));
            }
            Side::Second if at.previous.is_none() || at.restate => {
                wrapper.token(&format!("{number}... {notation}{revealed}"));
            }
            _ => wrapper.token(&format!("{notation}{revealed}")),
        }
        for mark in line.marks.get(&(i + 1)).into_iter().flatten() {
            wrapper.token(&format!("${}", mark.0));
        }
        at.previous = Some(side);
        at.restate = write_notes(wrapper, line, i + 1);
        if let Some((game_before, numbering)) = before {
            for variation in &line.variations[&i] {
                wrapper.open.push('(');
                let inner = Numbering { restate: true, ..numbering };
                write_line(wrapper, variation, game_before.clone(), inner, style);
                // The next move says its number after a variation, not after one left out.
                at.restate |= wrapper.close(')');
            }
        }
    }
}

/// Writes the comment and the shapes at `n` of `line`, as one comment; whether it wrote one.
fn write_notes(wrapper: &mut Wrapper, line: &crate::Line, n: usize) -> bool {
    let mut parts = Vec::new();
    if let Some(shapes) = line.shapes.get(&n) {
        let cell = |c: qi_rules::Cell| c.to_string();
        let arrows: Vec<String> = shapes
            .iter()
            .filter(|s| !s.is_circle())
            .map(|s| format!("{}{}{}", s.brush.letter(), cell(s.from), cell(s.to)))
            .collect();
        let circles: Vec<String> = shapes
            .iter()
            .filter(|s| s.is_circle())
            .map(|s| format!("{}{}", s.brush.letter(), cell(s.from)))
            .collect();
        if !circles.is_empty() {
            parts.push(format!("[%csl {}]", circles.join(",")));
        }
        if !arrows.is_empty() {
            parts.push(format!("[%cal {}]", arrows.join(",")));
        }
    }
    if let Some(comment) = line.comments.get(&n).map(|c| c.trim()).filter(|c| !c.is_empty()) {
        parts.push(comment.to_owned());
    }
    if parts.is_empty() {
        return false;
    }
    wrapper.comment(&parts.join(" "));
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_numbers_split_off_but_xiangqi_digits_stay() {
        assert_eq!(split_number("12."), (3, ""));
        assert_eq!(split_number("12..."), (5, ""));
        assert_eq!(split_number("7"), (1, ""));
        assert_eq!(split_number("1.e4"), (2, "e4"));
        assert_eq!(split_number("3...C2.5"), (4, "C2.5"));
        assert_eq!(split_number("33.4"), (0, "33.4"));
        assert_eq!(split_number("4.0-0"), (2, "0-0"));
        assert_eq!(split_number("12...0-0-0"), (5, "0-0-0"));
        assert_eq!(split_number("3+=4"), (0, "3+=4"));
        assert_eq!(split_number("e4"), (0, "e4"));
    }

    #[test]
    fn moves_comments_marks_and_variations_come_in_order() {
        let text = "[Event \"x\"]\n1. e4 $1 {good} (1. d4 {no} (1. c4)) e5!? ; line\n2. Nf3 $300 1-0\n\n[Event \"y\"]";
        let parsed = parse(text).unwrap();
        assert!(parsed.error.is_none() && parsed.more_games && parsed.numbered);
        let items: Vec<String> = parsed
            .items
            .iter()
            .map(|item| match item {
                Item::Move(_, text) | Item::Comment(text) => (*text).to_owned(),
                Item::Mark(number) => format!("${number}"),
                Item::VariationOpen(_) => "(".into(),
                Item::VariationClose => ")".into(),
            })
            .collect();
        assert_eq!(
            items,
            ["e4", "$1", "good", "(", "d4", "no", "(", "c4", ")", ")", "e5", "$5", "line", "Nf3"]
        );
        assert_eq!(parsed.items[0], Item::Move(Pos { line: 2, column: 4 }, "e4"));
    }
}
