//! Why a record could not be read, and where in the text.

use std::fmt;

use qi_rules::{GameKind, IllegalMove, ParseMoveError, ParsePositionError, RuleError, Side};

use crate::record::GameRecord;

/// A place in the imported text: 1-based line and column. Columns count characters (Unicode
/// scalar values), not bytes; a tab is one column.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Pos {
    /// The line, from 1.
    pub line: usize,
    /// The column, from 1.
    pub column: usize,
}

impl Pos {
    /// The start of the text.
    pub const START: Pos = Pos { line: 1, column: 1 };

    /// The place `chars` characters further along the same line.
    #[must_use]
    pub(crate) fn right(self, chars: usize) -> Pos {
        Pos { line: self.line, column: self.column + chars }
    }
}

/// What a malformed tag pair lacked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TagExpected {
    /// `[` was not followed by a tag name (a letter, then letters, digits or `_`).
    Name,
    /// The name was not followed by a value in double quotes.
    Value,
    /// The value was not followed by `]`.
    Close,
}

/// Why a record could not be read. Every variant keeps its data in fields, so that the app can
/// word the message in the player's language; `Display` gives English.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordErrorKind {
    /// The text is empty or only white space.
    Empty,
    /// The text is longer than [`MAX_INPUT`](super::MAX_INPUT).
    TooLong {
        /// Its length in bytes.
        len: usize,
        /// The limit in bytes.
        max: usize,
    },
    /// A tag pair is not `[Name "value"]`.
    TagSyntax {
        /// What was missing.
        expected: TagExpected,
    },
    /// A tag value's `"` has no closing `"` on its line.
    UnterminatedString,
    /// A `{` comment has no closing `}`.
    UnterminatedComment,
    /// A `(` variation has no closing `)`.
    UnterminatedVariation,
    /// A `)` closes no variation.
    UnmatchedParen,
    /// A DhtmlXQ element (`[DhtmlXQ_movelist]`) has no closing tag (`[/DhtmlXQ_movelist]`).
    UnclosedElement {
        /// The element's name (shortened when long).
        name: String,
    },
    /// A character that has no place in the moves (`]` or `"` outside a tag).
    UnexpectedChar {
        /// The character.
        found: char,
    },
    /// The `Variant` tag names a game Qi does not play.
    UnknownVariant {
        /// The variant named (shortened when long).
        name: String,
    },
    /// The `Rules` tag (or the rules a variant implies) does not read.
    BadRules {
        /// The rules' complaint.
        error: RuleError,
    },
    /// A position (a `FEN` tag, or a bare position) does not read or cannot occur.
    BadPosition {
        /// The game whose position format was used.
        game: GameKind,
        /// The rules' complaint.
        error: ParsePositionError,
    },
    /// A move's text is not a move.
    UnreadableMove {
        /// How many moves (plies) of the main line came before it.
        ply: usize,
        /// Its move number, as the record numbers moves.
        number: u32,
        /// Who was to play it.
        side: Side,
        /// The text (shortened when long).
        text: String,
        /// The rules' complaint.
        error: ParseMoveError,
    },
    /// A move reads but may not be played.
    IllegalMove {
        /// How many moves (plies) of the main line came before it.
        ply: usize,
        /// Its move number.
        number: u32,
        /// Who was to play it.
        side: Side,
        /// The text (shortened when long).
        text: String,
        /// The rules' reason.
        error: IllegalMove,
    },
    /// Banqi: a flip's annotation names another piece than the deal has on that square.
    FlipMismatch {
        /// How many moves came before the flip.
        ply: usize,
        /// Its move number.
        number: u32,
        /// Who flipped.
        side: Side,
        /// The flipped square.
        cell: qi_rules::Cell,
        /// The piece the annotation names.
        written: qi_rules::banqi::Piece,
        /// The piece the deal has there.
        dealt: qi_rules::banqi::Piece,
    },
    /// Banqi: a move that reveals no face-down piece carries a `=` annotation.
    NothingRevealed {
        /// How many moves came before it.
        ply: usize,
        /// Its move number.
        number: u32,
        /// Who played it.
        side: Side,
        /// The text (shortened when long).
        text: String,
    },
}

/// A record that could not be read: where, why, and as much of the game as could be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    /// The line of the offending token, from 1.
    pub line: usize,
    /// Its column, from 1, in characters.
    pub column: usize,
    /// What is wrong.
    pub kind: RecordErrorKind,
    /// When the error lies in the moves (after the game was set up from its tags or
    /// position): the record up to the problem, that is the longest legal prefix of the main
    /// line with its tags and the comments up to it. `None` for errors before the moves.
    pub partial: Option<Box<GameRecord>>,
}

impl RecordError {
    /// An error at `pos` with no partial record.
    #[must_use]
    pub(crate) fn at(pos: Pos, kind: RecordErrorKind) -> RecordError {
        RecordError { line: pos.line, column: pos.column, kind, partial: None }
    }

    /// Where the error is.
    #[must_use]
    pub fn pos(&self) -> Pos {
        Pos { line: self.line, column: self.column }
    }
}

fn side_dots(side: Side) -> &'static str {
    if side == Side::First { "." } else { "..." }
}

impl fmt::Display for RecordErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use RecordErrorKind as K;
        match self {
            K::Empty => f.write_str("the text is empty"),
            K::TooLong { len, max } => {
                write!(f, "the text is too long ({len} bytes; at most {max} are read)")
            }
            K::TagSyntax { expected } => f.write_str(match expected {
                TagExpected::Name => "a tag pair must start with a name, as in [Event \"...\"]",
                TagExpected::Value => "a tag's value must be in double quotes",
                TagExpected::Close => "a tag pair must end with ]",
            }),
            K::UnterminatedString => f.write_str("a tag value has no closing \" on its line"),
            K::UnterminatedComment => f.write_str("a comment { has no closing }"),
            K::UnterminatedVariation => f.write_str("a variation ( has no closing )"),
            K::UnmatchedParen => f.write_str("a ) closes no variation"),
            K::UnclosedElement { name } => write!(f, "[{name}] has no closing [/{name}]"),
            K::UnexpectedChar { found } => write!(f, "unexpected {found:?} among the moves"),
            K::UnknownVariant { name } => write!(f, "unknown variant {name:?}"),
            K::BadRules { error } => write!(f, "bad rules: {error}"),
            K::BadPosition { game, error } => write!(f, "bad {game} position: {error}"),
            K::UnreadableMove { number, side, text, error, .. } => {
                write!(f, "move {number}{} {text}: {error}", side_dots(*side))
            }
            K::IllegalMove { number, side, text, error, .. } => {
                write!(f, "move {number}{} {text} is illegal: {}", side_dots(*side), error.reason)
            }
            K::FlipMismatch { number, side, cell, written, dealt, .. } => write!(
                f,
                "move {number}{} flips {cell}: the record says {written} but the deal has {dealt}",
                side_dots(*side)
            ),
            K::NothingRevealed { number, side, text, .. } => write!(
                f,
                "move {number}{} {text} reveals no face-down piece, yet names one",
                side_dots(*side)
            ),
        }
    }
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}: {}", self.line, self.column, self.kind)
    }
}

impl std::error::Error for RecordError {}

/// Something an import passed over and read on: the record still reads, but the player should
/// know. Like [`RecordErrorKind`], each variant keeps its data in fields for the app to word.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordWarningKind {
    /// Characters among the moves that are no move, number, result or annotation (a stray `\`,
    /// `|` or `}`), skipped as python-chess skips them.
    StrayText {
        /// The text skipped (shortened when long).
        text: String,
    },
    /// A variation that could not be read from its move on: that much of it was left out, and
    /// the main line read on.
    VariationSkipped {
        /// Why its move could not be read or played.
        reason: Box<RecordErrorKind>,
    },
    /// Gomoku: a colour choice of an opening rule (PlayOK's `black` after a swap), kept as a
    /// comment on the move before it; the stones play on as they were placed.
    OpeningChoice {
        /// The choice as written.
        choice: String,
    },
}

/// A [`RecordWarningKind`] and where in the text it was met.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordWarning {
    /// The line, from 1.
    pub line: usize,
    /// The column, from 1, in characters.
    pub column: usize,
    /// What was passed over.
    pub kind: RecordWarningKind,
}

impl RecordWarning {
    /// A warning at `pos`.
    #[must_use]
    pub(crate) fn at(pos: Pos, kind: RecordWarningKind) -> RecordWarning {
        RecordWarning { line: pos.line, column: pos.column, kind }
    }
}

impl fmt::Display for RecordWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}: ", self.line, self.column)?;
        match &self.kind {
            RecordWarningKind::StrayText { text } => {
                write!(f, "skipped {text:?}, which is no move")
            }
            RecordWarningKind::VariationSkipped { reason } => {
                write!(f, "the rest of a variation was left out: {reason}")
            }
            RecordWarningKind::OpeningChoice { choice } => write!(
                f,
                "the opening choice {choice:?} is kept as a comment; the stones play on as placed"
            ),
        }
    }
}
