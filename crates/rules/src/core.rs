//! Types shared by all four games: sides, cells, outcomes, errors and the [`Game`] trait.

use std::fmt;
use std::hash::Hash;
use std::str::FromStr;

use crate::options::RuleSet;

/// One of the two players, in turn order.
///
/// Each game names them its own way: chess White/Black, xiangqi Red/Black, gomoku Black/White
/// (Black moves first), banqi the first and second player (colours are decided by the first flip).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// The side that moves first.
    First,
    /// The side that moves second.
    Second,
}

impl Side {
    /// Both sides, in turn order.
    pub const ALL: [Side; 2] = [Side::First, Side::Second];

    /// The opponent.
    #[must_use]
    pub const fn other(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    /// 0 for the first side, 1 for the second: for tables indexed by side.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// A value for each side, so code says `by_side[side]` instead of indexing with `as usize`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct BySide<T> {
    /// The first side's value.
    pub first: T,
    /// The second side's value.
    pub second: T,
}

impl<T> BySide<T> {
    /// Builds one from the two values.
    pub const fn new(first: T, second: T) -> Self {
        BySide { first, second }
    }
}

impl<T> std::ops::Index<Side> for BySide<T> {
    type Output = T;
    fn index(&self, side: Side) -> &T {
        match side {
            Side::First => &self.first,
            Side::Second => &self.second,
        }
    }
}

impl<T> std::ops::IndexMut<Side> for BySide<T> {
    fn index_mut(&mut self, side: Side) -> &mut T {
        match side {
            Side::First => &mut self.first,
            Side::Second => &mut self.second,
        }
    }
}

/// A square or point on any of the boards, counted from the first player's bottom-left corner.
///
/// Written as a file letter and a 1-based rank: `a1`, `e4`, `i10` (xiangqi), `o15` (gomoku).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    /// File, 0 for `a`.
    pub file: u8,
    /// Rank, 0 for `1`.
    pub rank: u8,
}

impl Cell {
    /// The cell at `file` (0 = `a`) and `rank` (0 = `1`).
    #[must_use]
    pub const fn new(file: u8, rank: u8) -> Cell {
        Cell { file, rank }
    }

    /// Reads a cell at the start of `text`; returns it and the number of bytes read.
    ///
    /// Accepts files `a`-`z` and ranks `1`-`99`. Whether the cell is on a given board is the
    /// game's business.
    #[must_use]
    pub fn parse_prefix(text: &str) -> Option<(Cell, usize)> {
        let bytes = text.as_bytes();
        let file = *bytes.first()?;
        if !file.is_ascii_lowercase() {
            return None;
        }
        let digits = bytes[1..].iter().take_while(|b| b.is_ascii_digit()).count();
        if digits == 0 || digits > 2 || bytes[1] == b'0' {
            return None;
        }
        let rank: u8 = text[1..1 + digits].parse().ok()?;
        Some((Cell::new(file - b'a', rank - 1), 1 + digits))
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Cells built by hand (not parsed) may lie off every board; they still print, as
        // `(file,rank)`, so an error message about them can be written.
        if self.file < 26 {
            write!(f, "{}{}", char::from(b'a' + self.file), u32::from(self.rank) + 1)
        } else {
            write!(f, "({},{})", self.file, self.rank)
        }
    }
}

impl FromStr for Cell {
    type Err = ParseMoveError;
    fn from_str(text: &str) -> Result<Cell, ParseMoveError> {
        match Cell::parse_prefix(text) {
            Some((cell, len)) if len == text.len() => Ok(cell),
            _ => Err(ParseMoveError::syntax(text, "a square such as e4")),
        }
    }
}

/// Which of the four games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "snake_case")
)]
pub enum GameKind {
    /// International chess (and Chess960, a rule option).
    Chess,
    /// Xiangqi, Chinese chess.
    Xiangqi,
    /// Banqi, dark chess, on half a xiangqi set.
    Banqi,
    /// Gomoku, five in a row.
    Gomoku,
}

impl GameKind {
    /// All four, in the order the app lists them.
    pub const ALL: [GameKind; 4] =
        [GameKind::Chess, GameKind::Xiangqi, GameKind::Banqi, GameKind::Gomoku];

    /// The lowercase name used on the command line and in links.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            GameKind::Chess => "chess",
            GameKind::Xiangqi => "xiangqi",
            GameKind::Banqi => "banqi",
            GameKind::Gomoku => "gomoku",
        }
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "snake_case")
)]
pub enum EndReason {
    /// The side to move is in check and has no legal move.
    Checkmate,
    /// The side to move is not in check and has no legal move (a draw in chess, a loss in xiangqi).
    Stalemate,
    /// The side to move has no legal action (banqi).
    NoLegalMoves,
    /// The side to move has no pieces left (banqi).
    NoPieces,
    /// The same position occurred three times (chess, and xiangqi without perpetual check).
    Repetition,
    /// The side that checked on every move of a threefold repetition loses (xiangqi).
    PerpetualCheck,
    /// Fifty moves by each side with no capture and no pawn move (chess).
    FiftyMoves,
    /// Neither side can checkmate (chess).
    InsufficientMaterial,
    /// Too many plies without progress: no capture or flip in banqi, no capture in xiangqi's
    /// natural limit (the count is a rule option of each).
    NoProgress,
    /// Five (or more, where allowed) stones in a line (gomoku).
    FiveInARow,
    /// Every point is taken and nobody has five (gomoku).
    BoardFull,
}

impl EndReason {
    /// A short English description, for the command line and logs. The app translates the variant.
    #[must_use]
    pub const fn describe(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate",
            EndReason::NoLegalMoves => "no legal moves",
            EndReason::NoPieces => "no pieces left",
            EndReason::Repetition => "threefold repetition",
            EndReason::PerpetualCheck => "perpetual check",
            EndReason::FiftyMoves => "fifty-move rule",
            EndReason::InsufficientMaterial => "insufficient material",
            EndReason::NoProgress => "no capture or flip for too long",
            EndReason::FiveInARow => "five in a row",
            EndReason::BoardFull => "board full",
        }
    }
}

/// How a finished game ended.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The winner, or `None` for a draw.
    pub winner: Option<Side>,
    /// Why it ended.
    pub reason: EndReason,
    /// The winning line of stones in gomoku; empty otherwise.
    pub line: Vec<Cell>,
}

impl Outcome {
    /// A win for `winner` without a line.
    #[must_use]
    pub fn win(winner: Side, reason: EndReason) -> Outcome {
        Outcome { winner: Some(winner), reason, line: Vec::new() }
    }

    /// A draw.
    #[must_use]
    pub fn draw(reason: EndReason) -> Outcome {
        Outcome { winner: None, reason, line: Vec::new() }
    }
}

/// Why a move that was understood cannot be played. The app shows each in the player's language.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "snake_case")
)]
pub enum IllegalReason {
    // --- any game ---
    /// The game is over.
    GameOver,
    /// The move starts or lands off the board.
    OffBoard,
    /// There is no piece on the starting square.
    NoPieceThere,
    /// The piece on the starting square belongs to the opponent.
    NotYourPiece,
    /// The destination holds one of your own pieces.
    OwnPieceOnTarget,
    /// The piece does not move that way (wrong shape or distance).
    WrongMovement,
    /// Another piece stands in the way.
    PathBlocked,
    /// The move would leave your king or general in check.
    LeavesKingInCheck,
    /// A move of one game given to another (an [`AnyMove`](crate::any::AnyMove) of the wrong
    /// kind): a mistake in the code that passed it rather than a player's, so it names both
    /// games to say where to look.
    WrongGame {
        /// The game the move was made for.
        move_kind: GameKind,
        /// The game it was given to.
        game_kind: GameKind,
    },
    // --- chess ---
    /// A pawn reaching the last rank must say which piece it becomes.
    PromotionRequired,
    /// Only a pawn reaching the last rank may promote, and not to a king or pawn.
    BadPromotion,
    /// Castling is not allowed now (rights lost, pieces between, or passing through check).
    CastlingNotAllowed,
    /// The king may not castle out of check.
    CastleOutOfCheck,
    /// Castling written in the other mode's form: the king's two-square step in standard chess,
    /// king onto its rook in Chess960 (reading text converts; this is for moves built by hand).
    CastlingNotation,
    /// A move given in notation fits more than one legal move.
    Ambiguous,
    // --- xiangqi ---
    /// The general or an advisor may not leave the palace.
    LeavesPalace,
    /// A piece next to the horse blocks its leg.
    HorseLegBlocked,
    /// A piece on the elephant's eye (the midpoint of its move) blocks it.
    ElephantEyeBlocked,
    /// The elephant may not cross the river.
    ElephantCannotCrossRiver,
    /// The two generals would face each other on an open file.
    GeneralsFacing,
    /// A soldier never moves backwards.
    SoldierCannotRetreat,
    /// A soldier may move sideways only after crossing the river.
    SoldierSidewaysBeforeRiver,
    /// A cannon captures by jumping exactly one piece.
    CannonNeedsOneScreen,
    // --- banqi ---
    /// The piece is face down: flip it first.
    PieceFaceDown,
    /// The piece is already face up.
    AlreadyFaceUp,
    /// A piece may not capture a piece of higher rank.
    CannotCaptureHigherRank,
    /// The general may not capture a soldier.
    GeneralCannotCaptureSoldier,
    /// Face-down pieces may not be captured under these rules.
    CannotCaptureFaceDown,
    /// The face-down piece is unknown here: its identity must be supplied with the flip.
    FlipResultUnknown,
    /// The supplied identity of a flipped piece is not among the pieces still face down.
    FlipResultImpossible,
    /// In the middle of a chain capture only the capturing piece may capture again (or stop).
    ChainCaptureOnly,
    /// There is no chain capture to stop.
    NoChainToStop,
    // --- gomoku ---
    /// The point already holds a stone.
    PointOccupied,
    /// Renju: Black may not make two open threes at once.
    DoubleThree,
    /// Renju: Black may not make two fours at once.
    DoubleFour,
    /// Renju: Black may not make six or more in a row.
    Overline,
    /// The opening rule asks for a colour choice now, not a stone.
    ChoiceDue,
    /// No colour choice is due now.
    NoChoiceDue,
    /// Soosõrv-8: an opening stone outside its square around the centre (the first on the
    /// centre, the second within 3×3, the third within 5×5).
    OutsideOpeningArea,
    /// Soosõrv-8: White must declare now how many fifth stones Black offers.
    OfferCountDue,
    /// Soosõrv-8: Black must offer fifth stones now.
    OffersDue,
    /// Soosõrv-8: White must pick one of the offered fifth stones.
    ChooseOffer,
    /// No declaration or offer of fifth stones is due now.
    NoOfferDue,
    /// Soosõrv-8: the number of fifth stones declared must be 1 to 8.
    OfferCountOutOfRange,
    /// Soosõrv-8: the point, or its mirror image by the board's symmetry, is already offered.
    OfferMirrored,
}

impl IllegalReason {
    /// A short English description, for the command line and logs. The app translates the variant.
    /// `Display` writes the same, except that it names the two games of a
    /// [`WrongGame`](IllegalReason::WrongGame).
    #[must_use]
    pub const fn describe(self) -> &'static str {
        use IllegalReason as R;
        match self {
            R::GameOver => "the game is over",
            R::OffBoard => "the square is off the board",
            R::NoPieceThere => "there is no piece on the starting square",
            R::NotYourPiece => "that piece belongs to the opponent",
            R::OwnPieceOnTarget => "your own piece stands on the destination",
            R::WrongMovement => "the piece does not move that way",
            R::PathBlocked => "another piece blocks the path",
            R::LeavesKingInCheck => "the move leaves your king in check",
            // A fixed text cannot name the two games; `Display` does.
            R::WrongGame { .. } => "the move belongs to another game",
            R::PromotionRequired => "say which piece the pawn promotes to",
            R::BadPromotion => "that promotion is not allowed",
            R::CastlingNotAllowed => "castling is not allowed here",
            R::CastleOutOfCheck => "the king may not castle out of check",
            R::CastlingNotation => {
                "castle with the king's two-square step (onto the rook in Chess960)"
            }
            R::Ambiguous => "the move is ambiguous: more than one piece can make it",
            R::LeavesPalace => "the general and advisors must stay in the palace",
            R::HorseLegBlocked => "the horse's leg is blocked",
            R::ElephantEyeBlocked => "the elephant's eye is blocked",
            R::ElephantCannotCrossRiver => "the elephant cannot cross the river",
            R::GeneralsFacing => "the generals would face each other",
            R::SoldierCannotRetreat => "a soldier cannot retreat",
            R::SoldierSidewaysBeforeRiver => {
                "a soldier moves sideways only after crossing the river"
            }
            R::CannonNeedsOneScreen => "a cannon captures by jumping exactly one piece",
            R::PieceFaceDown => "that piece is face down: flip it first",
            R::AlreadyFaceUp => "that piece is already face up",
            R::CannotCaptureHigherRank => "a piece cannot capture a higher-ranked piece",
            R::GeneralCannotCaptureSoldier => "the general cannot capture a soldier",
            R::CannotCaptureFaceDown => "face-down pieces cannot be captured",
            R::FlipResultUnknown => "the face-down piece is unknown: supply the flip's result",
            R::FlipResultImpossible => "no such piece is still face down",
            R::ChainCaptureOnly => "in a chain capture the same piece must capture again or stop",
            R::NoChainToStop => "there is no chain capture to stop",
            R::PointOccupied => "that point is already taken",
            R::DoubleThree => "renju: Black may not make a double three",
            R::DoubleFour => "renju: Black may not make a double four",
            R::Overline => "renju: Black may not make six or more in a row",
            R::ChoiceDue => "a colour must be chosen now (black or white), not a stone",
            R::NoChoiceDue => "no colour choice is due now: put a stone",
            R::OutsideOpeningArea => {
                "opening stones go on the centre, then within 3x3 and 5x5 squares around it"
            }
            R::OfferCountDue => "declare how many fifth stones Black offers (1 to 8)",
            R::OffersDue => "offer the declared fifth stones now",
            R::ChooseOffer => "choose one of the offered fifth stones",
            R::NoOfferDue => "no fifth-stone offer is due now",
            R::OfferCountOutOfRange => "between 1 and 8 fifth stones may be offered",
            R::OfferMirrored => "that point, or its mirror image, is already offered",
        }
    }
}

impl fmt::Display for IllegalReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalReason::WrongGame { move_kind, game_kind } => {
                write!(f, "a {move_kind} move in a {game_kind} game")
            }
            _ => f.write_str(self.describe()),
        }
    }
}

/// A move that was understood but may not be played, with the reason.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct IllegalMove {
    /// Why it may not be played.
    pub reason: IllegalReason,
    /// The move as it was given (or written), for messages.
    pub text: String,
}

impl IllegalMove {
    /// An illegal-move error for the move written as `text`.
    pub fn new(reason: IllegalReason, text: impl Into<String>) -> IllegalMove {
        IllegalMove { reason, text: text.into() }
    }
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal move {}: {}", self.text, self.reason)
    }
}

impl std::error::Error for IllegalMove {}

/// Longest move text any parser looks at; longer input is refused before parsing.
pub const MAX_MOVE_TEXT: usize = 32;
/// Longest position string any parser looks at.
pub const MAX_POSITION_TEXT: usize = 4096;

/// Move text that could not be read at all (a syntax error, not an illegal move).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ParseMoveError {
    /// The text was empty.
    Empty,
    /// The text was longer than any move.
    TooLong {
        /// Its length in bytes.
        len: usize,
    },
    /// The text does not have the shape of a move.
    Syntax {
        /// The text (shortened when long).
        text: String,
        /// What was expected, in words.
        expected: &'static str,
    },
    /// A square or point in the move is not on this board.
    OffBoard {
        /// The text.
        text: String,
    },
}

impl ParseMoveError {
    /// A syntax error for `text`, which should have been `expected`.
    #[must_use]
    pub fn syntax(text: &str, expected: &'static str) -> ParseMoveError {
        if text.is_empty() {
            return ParseMoveError::Empty;
        }
        if text.len() > MAX_MOVE_TEXT {
            return ParseMoveError::TooLong { len: text.len() };
        }
        ParseMoveError::Syntax { text: text.to_owned(), expected }
    }

    /// Checks the length limits every move parser starts with.
    ///
    /// # Errors
    /// [`ParseMoveError::Empty`] or [`ParseMoveError::TooLong`].
    pub fn check_length(text: &str) -> Result<(), ParseMoveError> {
        if text.is_empty() {
            Err(ParseMoveError::Empty)
        } else if text.len() > MAX_MOVE_TEXT {
            Err(ParseMoveError::TooLong { len: text.len() })
        } else {
            Ok(())
        }
    }
}

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseMoveError::Empty => f.write_str("empty move"),
            ParseMoveError::TooLong { len } => write!(f, "move text too long ({len} bytes)"),
            ParseMoveError::Syntax { text, expected } => {
                write!(f, "cannot read move {text:?}: expected {expected}")
            }
            ParseMoveError::OffBoard { text } => write!(f, "move {text:?} leaves the board"),
        }
    }
}

impl std::error::Error for ParseMoveError {}

/// A position string that could not be read, or that describes an impossible position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ParsePositionError {
    /// The text was empty.
    Empty,
    /// The text was longer than any position.
    TooLong {
        /// Its length in bytes.
        len: usize,
    },
    /// A field of the position string is malformed.
    BadField {
        /// Which field (`board`, `side to move`, `castling`, ...).
        field: &'static str,
        /// What is wrong with it.
        detail: String,
    },
    /// The text reads well but the position cannot occur (no king, pawn on the back rank...).
    Impossible {
        /// What is wrong with it.
        detail: String,
    },
}

impl ParsePositionError {
    /// A malformed-field error.
    pub fn field(field: &'static str, detail: impl Into<String>) -> ParsePositionError {
        ParsePositionError::BadField { field, detail: detail.into() }
    }

    /// An impossible-position error.
    pub fn impossible(detail: impl Into<String>) -> ParsePositionError {
        ParsePositionError::Impossible { detail: detail.into() }
    }

    /// Checks the length limits every position parser starts with.
    ///
    /// # Errors
    /// [`ParsePositionError::Empty`] or [`ParsePositionError::TooLong`].
    pub fn check_length(text: &str) -> Result<(), ParsePositionError> {
        if text.trim().is_empty() {
            Err(ParsePositionError::Empty)
        } else if text.len() > MAX_POSITION_TEXT {
            Err(ParsePositionError::TooLong { len: text.len() })
        } else {
            Ok(())
        }
    }
}

impl fmt::Display for ParsePositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParsePositionError::Empty => f.write_str("empty position"),
            ParsePositionError::TooLong { len } => {
                write!(f, "position text too long ({len} bytes)")
            }
            ParsePositionError::BadField { field, detail } => write!(f, "bad {field}: {detail}"),
            ParsePositionError::Impossible { detail } => write!(f, "impossible position: {detail}"),
        }
    }
}

impl std::error::Error for ParsePositionError {}

/// Why move text from outside could not be played: it did not read, or it read but is illegal.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum MoveError {
    /// The text is not a move.
    Parse(ParseMoveError),
    /// The text is a move that may not be played here.
    Illegal(IllegalMove),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Parse(e) => e.fmt(f),
            MoveError::Illegal(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for MoveError {}

impl From<ParseMoveError> for MoveError {
    fn from(e: ParseMoveError) -> Self {
        MoveError::Parse(e)
    }
}

impl From<IllegalMove> for MoveError {
    fn from(e: IllegalMove) -> Self {
        MoveError::Illegal(e)
    }
}

/// Where a move starts and ends, for the board's highlights and hints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MoveCells {
    /// The starting cell; `None` for a gomoku stone.
    pub from: Option<Cell>,
    /// The destination; for a banqi flip, the flipped cell (equal to `from`).
    pub to: Cell,
}

/// The rules of one game, over one position with its history.
///
/// Every game keeps the moves played so far, so it can [`undo`](Game::undo) them and judge
/// repetitions. Moves from outside go through two steps: [`parse_move`](Game::parse_move) reads
/// text (a [`ParseMoveError`] if it cannot), [`check`](Game::check) or [`apply`](Game::apply)
/// judge it (an [`IllegalMove`] with its reason if it may not be played).
///
/// The contract between them (tested over random positions of all four games under every rule
/// option, `crates/rules/tests/properties.rs`): `check` accepts exactly the
/// [legal moves](Game::legal_moves); `apply` plays every move `check` accepts and refuses every
/// other with `check`'s reason, changing nothing. The one exception is a move whose result this
/// position does not know, which [`reveals_unknown`](Game::reveals_unknown) names: in banqi, a
/// flip (or a cannon's capture, under `capture_hidden`) of a face-down piece whose identity the
/// position leaves open, as on a client's concealed board. Such a move is legal, so `check`
/// accepts it and the legal moves include it, but only the result makes it playable: `apply`
/// refuses it with [`IllegalReason::FlipResultUnknown`], and the game's own
/// `apply_revealing(mv, piece)` plays it with the piece turned up.
pub trait Game: Clone + fmt::Debug {
    /// One move (or action: a banqi flip, a gomoku stone).
    type Move: Copy + Eq + Hash + fmt::Debug;
    /// The rule options of this game, recorded with every game.
    type Rules: RuleSet;

    /// Which game this is.
    const KIND: GameKind;

    /// The starting position under `rules`. `seed` picks the banqi deal and the Chess960
    /// start; the other games ignore it.
    fn start(rules: &Self::Rules, seed: u64) -> Self;

    /// Reads a position string (FEN for chess and xiangqi; see each game for its own).
    ///
    /// # Errors
    /// A [`ParsePositionError`] saying what is malformed or impossible.
    fn from_position(rules: &Self::Rules, text: &str) -> Result<Self, ParsePositionError>;

    /// Writes the position string; [`from_position`](Game::from_position) reads it back.
    fn position(&self) -> String;

    /// The rules this game is played under.
    fn rules(&self) -> &Self::Rules;

    /// Whose turn it is.
    fn side_to_move(&self) -> Side;

    /// Appends every legal move to `moves`. Nothing when the game is over.
    fn legal_moves_into(&self, moves: &mut Vec<Self::Move>);

    /// Every legal move. Empty when the game is over.
    fn legal_moves(&self) -> Vec<Self::Move> {
        let mut moves = Vec::with_capacity(64);
        self.legal_moves_into(&mut moves);
        moves
    }

    /// Where a move starts and ends.
    fn move_cells(&self, mv: Self::Move) -> MoveCells;

    /// The cells the piece on `from` may legally move to, for move hints. A face-down banqi
    /// piece that may be flipped gives its own cell.
    fn legal_destinations(&self, from: Cell) -> Vec<Cell> {
        let mut cells: Vec<Cell> = self
            .legal_moves()
            .into_iter()
            .map(|mv| self.move_cells(mv))
            .filter(|cells| cells.from == Some(from))
            .map(|cells| cells.to)
            .collect();
        cells.dedup();
        cells
    }

    /// Judges a move without playing it.
    ///
    /// # Errors
    /// An [`IllegalMove`] whose reason says why the move may not be played.
    fn check(&self, mv: Self::Move) -> Result<(), IllegalMove>;

    /// Whether playing `mv` turns up something this position does not know (see the trait's
    /// contract): `apply` then refuses it with [`IllegalReason::FlipResultUnknown`] although
    /// `check` accepts it. False in every game but banqi, and for any move `check` refuses.
    fn reveals_unknown(&self, mv: Self::Move) -> bool {
        let _ = mv;
        false
    }

    /// Plays a move after checking it; on error nothing changes.
    ///
    /// # Errors
    /// The same as [`check`](Game::check); [`IllegalReason::FlipResultUnknown`] for a move
    /// [`reveals_unknown`](Game::reveals_unknown) names.
    fn apply(&mut self, mv: Self::Move) -> Result<(), IllegalMove> {
        self.check(mv)?;
        self.play_unchecked(mv);
        Ok(())
    }

    /// Plays a move known to be legal (one from [`legal_moves`](Game::legal_moves)). For search.
    /// A move that is not legal leaves the game in an unspecified but memory-safe state.
    fn play_unchecked(&mut self, mv: Self::Move);

    /// Takes back the last move; `None` when there is none to take back.
    fn undo(&mut self) -> Option<Self::Move>;

    /// The moves played since the position this game was started or read from.
    fn history(&self) -> Vec<Self::Move>;

    /// How the game ended, or `None` while it goes on.
    fn outcome(&self) -> Option<Outcome>;

    /// Whether the side to move is in check (chess and xiangqi; always false in the others).
    fn in_check(&self) -> bool {
        false
    }

    /// The Zobrist hash of the position (pieces, side to move, and whatever else makes two
    /// positions differ for the rules).
    fn hash(&self) -> u64;

    /// Reads a move in coordinate notation (chess UCI `e2e4`, xiangqi `h3e3`, banqi `c3`,
    /// `c3-c4`, gomoku `h8`). Syntax only: the move may still be illegal.
    ///
    /// # Errors
    /// A [`ParseMoveError`] when the text is not a move on this board.
    fn parse_move(&self, text: &str) -> Result<Self::Move, ParseMoveError>;

    /// Writes a move in coordinate notation; [`parse_move`](Game::parse_move) reads it back.
    fn move_text(&self, mv: Self::Move) -> String;

    /// Writes a legal move in the game's notation for move lists (chess SAN, xiangqi WXF, banqi
    /// and gomoku coordinates), as seen from the position before it.
    fn move_notation(&self, mv: Self::Move) -> String;

    /// Reads move text in either coordinate notation or the game's notation, and judges it.
    ///
    /// # Errors
    /// [`MoveError::Parse`] when the text is not a move, [`MoveError::Illegal`] when it is
    /// one that may not be played here.
    fn read_move(&self, text: &str) -> Result<Self::Move, MoveError> {
        let mv = self.parse_move(text)?;
        self.check(mv)?;
        Ok(mv)
    }

    /// Counts the leaf nodes of the legal move tree `depth` plies deep (perft), with bulk
    /// counting at the last ply. Chess and xiangqi count as the published tables do, ignoring
    /// draws by rule (repetition, fifty moves, natural limit, insufficient material); banqi and
    /// gomoku stop wherever the game ends.
    fn perft(&mut self, depth: u32) -> u64 {
        let mut moves = Vec::with_capacity(64);
        self.legal_moves_into(&mut moves);
        if depth <= 1 {
            return if depth == 0 { 1 } else { moves.len() as u64 };
        }
        let mut nodes = 0;
        for mv in moves {
            self.play_unchecked(mv);
            nodes += self.perft(depth - 1);
            self.undo();
        }
        nodes
    }

    /// Perft split by first move: every move [`perft`](Game::perft) starts from, with its
    /// subtree's leaf count; the counts add up to `perft(depth)`. Empty at depth 0.
    fn perft_divide(&mut self, depth: u32) -> Vec<(Self::Move, u64)> {
        if depth == 0 {
            return Vec::new();
        }
        let mut counts = Vec::new();
        for mv in self.legal_moves() {
            self.play_unchecked(mv);
            counts.push((mv, self.perft(depth - 1)));
            self.undo();
        }
        counts
    }
}
