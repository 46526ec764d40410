//! Any of the four games behind one value: for the command line, links and anything else that
//! picks the game at run time.
//!
//! Moves come two ways. Inside the project they travel as [`AnyMove`] values, read from text
//! once; at the edges (records, links, the wire, engine protocols) they are text, in coordinates
//! ([`AnyGame::legal_moves`], [`AnyGame::play`]) or the game's notation. The text methods are the
//! typed ones with the reading or writing added, so the two cannot disagree.

use std::fmt;

use shakmaty::Position as _;

use crate::banqi::{Banqi, BanqiMove, BanqiRules};
use crate::chess::{ChessGame, ChessMove, ChessRules};
use crate::gomoku::{Gomoku, GomokuMove, GomokuRules};
use crate::options::{RuleSet, shorten};
use crate::xiangqi::{Xiangqi, XiangqiMove, XiangqiRules};
use crate::{
    Cell, Game, GameKind, IllegalMove, IllegalReason, MoveError, Outcome, ParseMoveError,
    ParsePositionError, RuleDoc, RuleError, Side,
};

/// The names a game is chosen by: the four games, and `chess960` for chess with that option.
pub const VARIANT_NAMES: [&str; 5] = ["chess", "chess960", "xiangqi", "banqi", "gomoku"];

/// Why a game could not be set up from its name, rule options and position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// No game has that name.
    UnknownGame {
        /// The name given.
        name: String,
    },
    /// A rule option is unknown or has a bad value.
    Rules(RuleError),
    /// The position string is malformed or impossible.
    Position(ParsePositionError),
    /// `startpos:<seed>` with a seed that is not a number.
    BadSeed {
        /// The seed given.
        seed: String,
    },
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::UnknownGame { name } => {
                write!(f, "unknown game {name:?} (expected one of {})", VARIANT_NAMES.join(", "))
            }
            SetupError::Rules(e) => e.fmt(f),
            SetupError::Position(e) => e.fmt(f),
            SetupError::BadSeed { seed } => {
                write!(f, "bad seed {seed:?} in startpos:<seed> (expected a whole number)")
            }
        }
    }
}

impl std::error::Error for SetupError {}

/// One game of any kind.
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)] // One game lives at a time; boxing buys nothing.
pub enum AnyGame {
    /// Chess or Chess960.
    Chess(ChessGame),
    /// Xiangqi.
    Xiangqi(Xiangqi),
    /// Banqi.
    Banqi(Banqi),
    /// Gomoku.
    Gomoku(Gomoku),
}

/// Runs `$body` with `$g` bound to the game inside, whatever its kind.
macro_rules! each {
    ($any:expr, $g:ident => $body:expr) => {
        match $any {
            AnyGame::Chess($g) => $body,
            AnyGame::Xiangqi($g) => $body,
            AnyGame::Banqi($g) => $body,
            AnyGame::Gomoku($g) => $body,
        }
    };
}

/// One move of any of the four games, as a value: what code inside the project passes around,
/// keeping text for the edges.
///
/// A move is only meaningful with the game it was made for: [`AnyGame::read_move`],
/// [`AnyGame::legal_move_values`] and [`AnyGame::move_between`] give moves of the game's kind,
/// and [`AnyGame::check`] or [`AnyGame::apply`] refuse a move of another kind with
/// [`IllegalReason::WrongGame`] (never a panic).
///
/// It prints (`Display`) as coordinates, exactly as [`AnyGame::move_text`] writes it: every
/// game's move text depends on the move alone. Chess castling is no exception, because a
/// [`ChessMove`] already holds castling in its game's form (the king's two-square step `e1g1` in
/// standard chess, king onto rook `e1h1` in Chess960: the game gives and accepts only that one),
/// so the value, not the position, decides the text. The game's notation (SAN, WXF) does need
/// the position: [`AnyGame::move_notation`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AnyMove {
    /// A chess or Chess960 move.
    Chess(ChessMove),
    /// A xiangqi move.
    Xiangqi(XiangqiMove),
    /// A banqi flip, step, capture or chain stop.
    Banqi(BanqiMove),
    /// A gomoku stone.
    Gomoku(GomokuMove),
}

impl AnyMove {
    /// Which game the move is for.
    #[must_use]
    pub const fn kind(self) -> GameKind {
        match self {
            AnyMove::Chess(_) => GameKind::Chess,
            AnyMove::Xiangqi(_) => GameKind::Xiangqi,
            AnyMove::Banqi(_) => GameKind::Banqi,
            AnyMove::Gomoku(_) => GameKind::Gomoku,
        }
    }
}

impl fmt::Display for AnyMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnyMove::Chess(mv) => mv.fmt(f),
            AnyMove::Xiangqi(mv) => mv.fmt(f),
            AnyMove::Banqi(mv) => mv.fmt(f),
            AnyMove::Gomoku(mv) => mv.fmt(f),
        }
    }
}

/// Wraps a chess move, for code that has one from [`ChessGame`] directly (an engine).
impl From<ChessMove> for AnyMove {
    fn from(mv: ChessMove) -> AnyMove {
        AnyMove::Chess(mv)
    }
}

/// Wraps a xiangqi move, for code that has one from [`Xiangqi`] directly.
impl From<XiangqiMove> for AnyMove {
    fn from(mv: XiangqiMove) -> AnyMove {
        AnyMove::Xiangqi(mv)
    }
}

/// Wraps a banqi move, for code that has one from [`Banqi`] directly.
impl From<BanqiMove> for AnyMove {
    fn from(mv: BanqiMove) -> AnyMove {
        AnyMove::Banqi(mv)
    }
}

/// Wraps a gomoku move, for code that has one from [`Gomoku`] directly.
impl From<GomokuMove> for AnyMove {
    fn from(mv: GomokuMove) -> AnyMove {
        AnyMove::Gomoku(mv)
    }
}

/// A game whose moves an [`AnyMove`] can hold: lets code under `each!` take the move back out
/// without naming the game.
trait Wrapped: Game<Move: Into<AnyMove>> {
    /// The move inside `mv` if it is one of this game's.
    fn unwrap_move(mv: AnyMove) -> Option<Self::Move>;

    /// The move inside `mv`, or the error saying it is another game's.
    fn own_move(&self, mv: AnyMove) -> Result<Self::Move, IllegalMove> {
        Self::unwrap_move(mv).ok_or_else(|| {
            let reason = IllegalReason::WrongGame { move_kind: mv.kind(), game_kind: Self::KIND };
            IllegalMove::new(reason, mv.to_string())
        })
    }
}

impl Wrapped for ChessGame {
    fn unwrap_move(mv: AnyMove) -> Option<ChessMove> {
        if let AnyMove::Chess(mv) = mv { Some(mv) } else { None }
    }
}

impl Wrapped for Xiangqi {
    fn unwrap_move(mv: AnyMove) -> Option<XiangqiMove> {
        if let AnyMove::Xiangqi(mv) = mv { Some(mv) } else { None }
    }
}

impl Wrapped for Banqi {
    fn unwrap_move(mv: AnyMove) -> Option<BanqiMove> {
        if let AnyMove::Banqi(mv) = mv { Some(mv) } else { None }
    }
}

impl Wrapped for Gomoku {
    fn unwrap_move(mv: AnyMove) -> Option<GomokuMove> {
        if let AnyMove::Gomoku(mv) = mv { Some(mv) } else { None }
    }
}

/// A game as players name it: the four games, with Chess960 apart from chess (it is chess
/// with a rule option, but players pick it as a game of its own).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "snake_case")
)]
pub enum Variant {
    /// Standard chess.
    Chess,
    /// Chess960 (Fischer random chess).
    Chess960,
    /// Xiangqi.
    Xiangqi,
    /// Banqi.
    Banqi,
    /// Gomoku.
    Gomoku,
}

impl Variant {
    /// Every variant, in the order the app lists them.
    pub const ALL: [Variant; 5] =
        [Variant::Chess, Variant::Chess960, Variant::Xiangqi, Variant::Banqi, Variant::Gomoku];

    /// Its name on the command line, in links and on the wire (`chess960`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Chess => "chess",
            Variant::Chess960 => "chess960",
            Variant::Xiangqi => "xiangqi",
            Variant::Banqi => "banqi",
            Variant::Gomoku => "gomoku",
        }
    }

    /// The variant a name stands for.
    ///
    /// # Errors
    /// [`SetupError::UnknownGame`].
    pub fn parse(name: &str) -> Result<Variant, SetupError> {
        Variant::ALL
            .into_iter()
            .find(|variant| variant.name() == name)
            .ok_or_else(|| SetupError::UnknownGame { name: shorten(name) })
    }

    /// The game it is played with.
    #[must_use]
    pub const fn kind(self) -> GameKind {
        match self {
            Variant::Chess | Variant::Chess960 => GameKind::Chess,
            Variant::Xiangqi => GameKind::Xiangqi,
            Variant::Banqi => GameKind::Banqi,
            Variant::Gomoku => GameKind::Gomoku,
        }
    }

    /// The rule options its name implies (`variant=chess960`), over the game's defaults.
    #[must_use]
    pub const fn implied_rules(self) -> &'static str {
        match self {
            Variant::Chess960 => "variant=chess960",
            _ => "",
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The kind of game a variant name stands for, and the rule options the name implies.
///
/// # Errors
/// [`SetupError::UnknownGame`].
pub fn parse_variant(name: &str) -> Result<(GameKind, &'static str), SetupError> {
    Variant::parse(name).map(|variant| (variant.kind(), variant.implied_rules()))
}

/// The rule options each game takes, for help texts.
#[must_use]
pub fn rule_docs(kind: GameKind) -> &'static [RuleDoc] {
    match kind {
        GameKind::Chess => ChessRules::DOCS,
        GameKind::Xiangqi => XiangqiRules::DOCS,
        GameKind::Banqi => BanqiRules::DOCS,
        GameKind::Gomoku => GomokuRules::DOCS,
    }
}

/// A game's rule options in their one canonical text form: `list` (a `key=value,...` list of
/// changes over the defaults, in any order) written out in full, every key in the game's own
/// order. Records, links, storage and the wire all keep rules in this form.
///
/// # Errors
/// A [`RuleError`] when a key or a value is not one the game takes.
pub fn canonical_rules(kind: GameKind, list: &str) -> Result<String, RuleError> {
    fn full<R: RuleSet>(list: &str) -> Result<String, RuleError> {
        R::parse(list).map(|rules| rules.to_list())
    }
    match kind {
        GameKind::Chess => full::<ChessRules>(list),
        GameKind::Xiangqi => full::<XiangqiRules>(list),
        GameKind::Banqi => full::<BanqiRules>(list),
        GameKind::Gomoku => full::<GomokuRules>(list),
    }
}

/// A game's default rules in their canonical form (see [`canonical_rules`]).
#[must_use]
pub fn default_rules(kind: GameKind) -> String {
    canonical_rules(kind, "").unwrap_or_default()
}

/// `list` (a game's `key=value,...` rule options) with `key` set to `value`, written out in full.
///
/// # Errors
/// A [`RuleError`] when the list, the key or the value is not one the game takes.
pub fn rules_with(kind: GameKind, list: &str, key: &str, value: &str) -> Result<String, RuleError> {
    fn set<R: RuleSet>(list: &str, key: &str, value: &str) -> Result<String, RuleError> {
        let mut rules = R::parse(list)?;
        rules.set(key, value)?;
        Ok(rules.to_list())
    }
    match kind {
        GameKind::Chess => set::<ChessRules>(list, key, value),
        GameKind::Xiangqi => set::<XiangqiRules>(list, key, value),
        GameKind::Banqi => set::<BanqiRules>(list, key, value),
        GameKind::Gomoku => set::<GomokuRules>(list, key, value),
    }
}

/// A game's rule options as one value: which game, and its options under that game's rules.
///
/// Inside the project and on the online wire a game's rules travel as this value; the
/// `key=value,...` text ([`AnyRules::parse`], [`AnyRules::to_list`]) is for records, links,
/// storage and the command line. With the `serde` feature it is an object tagged by the game
/// (`{"game":"gomoku","size":15,"rule":"renju","opening":"swap2"}`); an option left out takes
/// its default, an unknown one is refused, and so is a value the rules do not take (a board of
/// 17 points): reading checks what the text form's reader checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(tag = "game", rename_all = "snake_case")
)]
pub enum AnyRules {
    /// Chess's options.
    Chess(ChessRules),
    /// Xiangqi's options.
    Xiangqi(XiangqiRules),
    /// Banqi's options.
    Banqi(BanqiRules),
    /// Gomoku's options.
    Gomoku(GomokuRules),
}

impl AnyRules {
    /// The variant's rules with every option at its default (and the options its name implies:
    /// Chess960's shuffled back rank).
    #[must_use]
    pub fn of(variant: Variant) -> AnyRules {
        match variant {
            Variant::Chess => AnyRules::Chess(ChessRules::default()),
            Variant::Chess960 => AnyRules::Chess(ChessRules { chess960: true }),
            Variant::Xiangqi => AnyRules::Xiangqi(XiangqiRules::default()),
            Variant::Banqi => AnyRules::Banqi(BanqiRules::default()),
            Variant::Gomoku => AnyRules::Gomoku(GomokuRules::default()),
        }
    }

    /// The variant's rules with the changes of `list` (`key=value,...`, may be empty) over them.
    ///
    /// # Errors
    /// A [`RuleError`] when a key or a value is not one the game takes.
    pub fn parse(variant: Variant, list: &str) -> Result<AnyRules, RuleError> {
        let implied = variant.implied_rules();
        let list = match (implied.is_empty(), list.trim().is_empty()) {
            (true, _) => list.to_owned(),
            (false, true) => implied.to_owned(),
            (false, false) => format!("{implied},{list}"),
        };
        Ok(match variant.kind() {
            GameKind::Chess => AnyRules::Chess(ChessRules::parse(&list)?),
            GameKind::Xiangqi => AnyRules::Xiangqi(XiangqiRules::parse(&list)?),
            GameKind::Banqi => AnyRules::Banqi(BanqiRules::parse(&list)?),
            GameKind::Gomoku => AnyRules::Gomoku(GomokuRules::parse(&list)?),
        })
    }

    /// The game these rules are for.
    #[must_use]
    pub const fn kind(&self) -> GameKind {
        match self {
            AnyRules::Chess(_) => GameKind::Chess,
            AnyRules::Xiangqi(_) => GameKind::Xiangqi,
            AnyRules::Banqi(_) => GameKind::Banqi,
            AnyRules::Gomoku(_) => GameKind::Gomoku,
        }
    }

    /// The variant they make: Chess960 for chess with its shuffled back rank.
    #[must_use]
    pub const fn variant(&self) -> Variant {
        match self {
            AnyRules::Chess(ChessRules { chess960: true }) => Variant::Chess960,
            AnyRules::Chess(_) => Variant::Chess,
            AnyRules::Xiangqi(_) => Variant::Xiangqi,
            AnyRules::Banqi(_) => Variant::Banqi,
            AnyRules::Gomoku(_) => Variant::Gomoku,
        }
    }

    /// The options as a `key=value,...` list, every key in the game's own order (the canonical
    /// form of [`canonical_rules`]).
    #[must_use]
    pub fn to_list(&self) -> String {
        match self {
            AnyRules::Chess(rules) => rules.to_list(),
            AnyRules::Xiangqi(rules) => rules.to_list(),
            AnyRules::Banqi(rules) => rules.to_list(),
            AnyRules::Gomoku(rules) => rules.to_list(),
        }
    }
}

/// Where a game starts: the rules' start position (with a seed for banqi deals and Chess960), or a
/// position string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartFrom<'a> {
    /// The start position; the seed picks the banqi deal or the Chess960 position.
    Start {
        /// The seed.
        seed: u64,
    },
    /// A position string in the game's own format.
    Position(&'a str),
}

impl<'a> StartFrom<'a> {
    /// Reads `startpos`, `startpos:<seed>` or a position string.
    ///
    /// # Errors
    /// [`SetupError::BadSeed`] when the seed is not a number.
    pub fn parse(text: &'a str) -> Result<StartFrom<'a>, SetupError> {
        match text.strip_prefix("startpos") {
            Some("") => Ok(StartFrom::Start { seed: 0 }),
            Some(rest) if rest.starts_with(':') => rest[1..]
                .parse()
                .map(|seed| StartFrom::Start { seed })
                .map_err(|_| SetupError::BadSeed { seed: shorten(&rest[1..]) }),
            _ => Ok(StartFrom::Position(text)),
        }
    }
}

fn build<G: Game>(rules: &G::Rules, start: &StartFrom<'_>) -> Result<G, SetupError> {
    match start {
        StartFrom::Start { seed } => Ok(G::start(rules, *seed)),
        StartFrom::Position(text) => G::from_position(rules, text).map_err(SetupError::Position),
    }
}

impl AnyGame {
    /// Sets up a game from its variant name (see [`VARIANT_NAMES`]), a `key=value,...` list of
    /// rule options (may be empty) and where it starts.
    ///
    /// # Errors
    /// A [`SetupError`] naming what was wrong.
    pub fn new(variant: &str, rules: &str, start: &StartFrom<'_>) -> Result<AnyGame, SetupError> {
        let rules = AnyRules::parse(Variant::parse(variant)?, rules).map_err(SetupError::Rules)?;
        AnyGame::with_rules(rules, start)
    }

    /// Sets up a game under `rules` from where it starts.
    ///
    /// # Errors
    /// [`SetupError::Position`] for a position the game cannot start from, and
    /// [`SetupError::BadSeed`] never (the seed is already a number).
    pub fn with_rules(rules: AnyRules, start: &StartFrom<'_>) -> Result<AnyGame, SetupError> {
        Ok(match rules {
            AnyRules::Chess(rules) => AnyGame::Chess(build(&rules, start)?),
            AnyRules::Xiangqi(rules) => AnyGame::Xiangqi(build(&rules, start)?),
            AnyRules::Banqi(rules) => AnyGame::Banqi(build(&rules, start)?),
            AnyRules::Gomoku(rules) => AnyGame::Gomoku(build(&rules, start)?),
        })
    }

    /// The game's rule options as a value.
    #[must_use]
    pub fn rules(&self) -> AnyRules {
        match self {
            AnyGame::Chess(g) => AnyRules::Chess(*g.rules()),
            AnyGame::Xiangqi(g) => AnyRules::Xiangqi(*g.rules()),
            AnyGame::Banqi(g) => AnyRules::Banqi(*g.rules()),
            AnyGame::Gomoku(g) => AnyRules::Gomoku(*g.rules()),
        }
    }

    /// Which game this is.
    #[must_use]
    pub fn kind(&self) -> GameKind {
        match self {
            AnyGame::Chess(_) => GameKind::Chess,
            AnyGame::Xiangqi(_) => GameKind::Xiangqi,
            AnyGame::Banqi(_) => GameKind::Banqi,
            AnyGame::Gomoku(_) => GameKind::Gomoku,
        }
    }

    /// The rule options as a `key=value,...` list.
    #[must_use]
    pub fn rules_list(&self) -> String {
        each!(self, g => g.rules().to_list())
    }

    /// The position string.
    #[must_use]
    pub fn position(&self) -> String {
        each!(self, g => g.position())
    }

    /// Whose turn it is.
    #[must_use]
    pub fn side_to_move(&self) -> Side {
        each!(self, g => g.side_to_move())
    }

    /// Whether the side to move is in check.
    #[must_use]
    pub fn in_check(&self) -> bool {
        each!(self, g => g.in_check())
    }

    /// The Zobrist hash of the position.
    #[must_use]
    pub fn hash(&self) -> u64 {
        each!(self, g => g.hash())
    }

    /// How the game ended, if it has.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        each!(self, g => g.outcome())
    }

    /// Every legal move in coordinate notation, in the order of
    /// [`legal_move_values`](AnyGame::legal_move_values).
    #[must_use]
    pub fn legal_moves(&self) -> Vec<String> {
        self.legal_move_values().into_iter().map(|mv| self.move_text(mv)).collect()
    }

    /// Every legal move, as values. Empty when the game is over.
    #[must_use]
    pub fn legal_move_values(&self) -> Vec<AnyMove> {
        each!(self, g => g.legal_moves().into_iter().map(Into::into).collect())
    }

    /// Reads move text in coordinates or the game's notation (SAN, WXF, Chinese...) and judges
    /// it against the position, as the game's own `read_move` does. Nothing is played.
    ///
    /// # Errors
    /// [`MoveError::Parse`] when the text is not a move, [`MoveError::Illegal`] when it is one
    /// that may not be played here.
    pub fn read_move(&self, text: &str) -> Result<AnyMove, MoveError> {
        each!(self, g => g.read_move(text).map(Into::into))
    }

    /// A move in coordinates, as [`legal_moves`](AnyGame::legal_moves) lists it and
    /// [`read_move`](AnyGame::read_move) reads it back; the same text as the move's `Display`.
    /// A move of another game is written all the same, so an error message can show it.
    #[must_use]
    pub fn move_text(&self, mv: AnyMove) -> String {
        each!(self, g => g.own_move(mv).map_or_else(|_| mv.to_string(), |own| g.move_text(own)))
    }

    /// A legal move in the game's notation for move lists (chess SAN, xiangqi WXF, banqi and
    /// gomoku coordinates), as seen from the current position, so call it before playing the
    /// move. A move of another game comes out in its coordinates, as chess writes a move it
    /// cannot resolve.
    #[must_use]
    pub fn move_notation(&self, mv: AnyMove) -> String {
        each!(self, g => g.own_move(mv).map_or_else(|_| mv.to_string(), |own| g.move_notation(own)))
    }

    /// Judges a move without playing it.
    ///
    /// A typed move needs no reading, so the only errors are rule errors (an [`IllegalMove`],
    /// which `?` turns into a [`MoveError`] where text was read too).
    ///
    /// # Errors
    /// An [`IllegalMove`] with its reason; [`IllegalReason::WrongGame`] for a move of another
    /// game.
    pub fn check(&self, mv: AnyMove) -> Result<(), IllegalMove> {
        each!(self, g => g.check(g.own_move(mv)?))
    }

    /// Whether `mv` is legal here but turns up a face-down banqi piece this game does not know
    /// (see [`Game::reveals_unknown`]); false for a move of another game.
    #[must_use]
    pub fn reveals_unknown(&self, mv: AnyMove) -> bool {
        each!(self, g => g.own_move(mv).is_ok_and(|own| g.reveals_unknown(own)))
    }

    /// Plays a move after checking it; on error nothing changes. A banqi move that turns up a
    /// face-down piece this game does not know is refused with
    /// [`IllegalReason::FlipResultUnknown`], as [`Banqi`]'s own `apply` does (see
    /// [`Game`]'s contract).
    ///
    /// # Errors
    /// The same as [`check`](AnyGame::check), and `FlipResultUnknown` for a move
    /// [`reveals_unknown`](AnyGame::reveals_unknown) names.
    pub fn apply(&mut self, mv: AnyMove) -> Result<(), IllegalMove> {
        each!(self, g => {
            let own = g.own_move(mv)?;
            g.apply(own)
        })
    }

    /// Where `mv` starts and ends; `None` for a move of another game.
    #[must_use]
    pub fn move_cells(&self, mv: AnyMove) -> Option<crate::MoveCells> {
        each!(self, g => g.own_move(mv).ok().map(|own| g.move_cells(own)))
    }

    /// Whether `mv` takes a piece of the other side standing on its destination (chess's en
    /// passant aside); false for a move of another game and in gomoku.
    #[must_use]
    pub fn takes_piece(&self, mv: AnyMove) -> bool {
        self.move_cells(mv).is_some_and(|cells| {
            cells.from.is_some_and(|from| from != cells.to)
                && self.owner(cells.to).is_some_and(|owner| owner != self.side_to_move())
        })
    }

    /// Takes back the last move and returns it, or `None` if there was none.
    pub fn undo_move(&mut self) -> Option<AnyMove> {
        each!(self, g => g.undo().map(Into::into))
    }

    /// The last move played since the position the game started or was read from, if any.
    #[must_use]
    pub fn last_played(&self) -> Option<AnyMove> {
        each!(self, g => g.history().last().map(|&mv| mv.into()))
    }

    /// The cells the piece on `from` may move to.
    #[must_use]
    pub fn legal_destinations(&self, from: Cell) -> Vec<Cell> {
        each!(self, g => g.legal_destinations(from))
    }

    /// Reads a move (coordinates or the game's notation), plays it and returns it in the game's
    /// notation. On error nothing changes.
    ///
    /// # Errors
    /// [`MoveError::Parse`] or [`MoveError::Illegal`].
    pub fn play(&mut self, text: &str) -> Result<String, MoveError> {
        let mv = self.read_move(text)?;
        let notation = self.move_notation(mv);
        self.apply(mv)?;
        Ok(notation)
    }

    /// A move written in any form the game reads (coordinates or its notation), checked against
    /// the position and written back in canonical coordinates, as [`legal_moves`] lists them.
    /// Nothing is played.
    ///
    /// # Errors
    /// [`MoveError::Parse`] or [`MoveError::Illegal`].
    ///
    /// [`legal_moves`]: AnyGame::legal_moves
    pub fn canonical_move(&self, text: &str) -> Result<String, MoveError> {
        self.read_move(text).map(|mv| self.move_text(mv))
    }

    /// Takes back the last move; returns it in coordinates, or `None` if there was none.
    pub fn undo(&mut self) -> Option<String> {
        // Coordinates depend on the move alone, so writing it after taking it back is right.
        self.undo_move().map(|mv| self.move_text(mv))
    }

    /// Perft: the number of leaf nodes `depth` plies deep.
    pub fn perft(&mut self, depth: u32) -> u64 {
        each!(self, g => g.perft(depth))
    }

    /// Like perft but plays and takes back every move, leaves included, as a search does; returns
    /// the number of moves played. A measure of generation plus play/undo speed.
    pub fn visit_all(&mut self, depth: u32) -> u64 {
        fn visit<G: Game>(game: &mut G, depth: u32, moves: &mut Vec<Vec<G::Move>>) -> u64 {
            if depth == 0 {
                return 0;
            }
            let mut list = moves.pop().unwrap_or_default();
            list.clear();
            game.legal_moves_into(&mut list);
            let mut played = 0;
            for &mv in &list {
                game.play_unchecked(mv);
                played += 1 + visit(game, depth - 1, moves);
                game.undo();
            }
            moves.push(list);
            played
        }
        each!(self, g => visit(g, depth, &mut Vec::new()))
    }

    /// Perft split by first move: each move in coordinates and its subtree's leaf count; they add
    /// up to [`perft`](AnyGame::perft). Empty at depth 0.
    pub fn perft_divide(&mut self, depth: u32) -> Vec<(String, u64)> {
        each!(self, g => {
            let counts = g.perft_divide(depth);
            counts.into_iter().map(|(mv, n)| (g.move_text(mv), n)).collect()
        })
    }

    /// The board's width and height in cells (files, ranks).
    #[must_use]
    pub fn board_size(&self) -> (u8, u8) {
        match self {
            AnyGame::Chess(_) => (8, 8),
            AnyGame::Xiangqi(_) => (9, 10),
            AnyGame::Banqi(_) => (8, 4),
            AnyGame::Gomoku(g) => (g.rules().size(), g.rules().size()),
        }
    }

    /// What stands on `cell`, as a short code: chess `wK`...`bP`; xiangqi and banqi `rK`...`bP`
    /// (K general, A advisor, B elephant, N horse, R chariot, C cannon, P soldier); a face-down
    /// banqi piece `?`; gomoku stones `b` and `w`. `None` for an empty or off-board cell.
    #[must_use]
    pub fn piece_code(&self, cell: Cell) -> Option<String> {
        match self {
            AnyGame::Chess(g) => {
                let piece = g.shakmaty_position().board().piece_at(chess_square(cell)?)?;
                let colour = if piece.color.is_white() { 'w' } else { 'b' };
                Some(format!("{colour}{}", piece.role.upper_char()))
            }
            AnyGame::Xiangqi(g) => {
                let (side, piece) = g.piece_at(cell)?;
                let colour = if side == Side::First { 'r' } else { 'b' };
                Some(format!("{colour}{}", piece.fen_letter().to_ascii_uppercase()))
            }
            AnyGame::Banqi(g) => match g.square(cell) {
                crate::banqi::Square::Empty => None,
                crate::banqi::Square::FaceUp(piece) => {
                    let colour = match piece.colour {
                        crate::banqi::Colour::Red => 'r',
                        crate::banqi::Colour::Black => 'b',
                    };
                    Some(format!("{colour}{}", piece.role.letter()))
                }
                crate::banqi::Square::Hidden(_) | crate::banqi::Square::Unknown => {
                    Some("?".to_owned())
                }
            },
            AnyGame::Gomoku(g) => {
                g.stone_at(cell).map(|side| if side == Side::First { "b" } else { "w" }.to_owned())
            }
        }
    }

    /// The side whose piece (or stone) stands on `cell`: `None` for an empty cell, a face-down
    /// banqi piece, and a banqi colour before the first flip gave it to a side.
    #[must_use]
    pub fn owner(&self, cell: Cell) -> Option<Side> {
        match self {
            AnyGame::Banqi(g) => match g.square(cell) {
                crate::banqi::Square::FaceUp(piece) => [Side::First, Side::Second]
                    .into_iter()
                    .find(|&side| g.colour_of(side) == Some(piece.colour)),
                _ => None,
            },
            AnyGame::Gomoku(g) => g.stone_at(cell),
            AnyGame::Xiangqi(g) => g.piece_at(cell).map(|(side, _)| side),
            AnyGame::Chess(g) => {
                let piece = g.shakmaty_position().board().piece_at(chess_square(cell)?)?;
                Some(if piece.color.is_white() { Side::First } else { Side::Second })
            }
        }
    }

    /// The cell of the side to move's king or general when it is in check.
    #[must_use]
    pub fn checked_king(&self) -> Option<Cell> {
        if !self.in_check() {
            return None;
        }
        match self {
            AnyGame::Chess(g) => {
                let position = g.shakmaty_position();
                let square = position.board().king_of(position.turn())?;
                Some(Cell::new(u8::from(square.file()), u8::from(square.rank())))
            }
            AnyGame::Xiangqi(g) => Some(g.general(g.side_to_move())),
            AnyGame::Banqi(_) | AnyGame::Gomoku(_) => None,
        }
    }

    /// Where the last move started and ended, if there was one.
    #[must_use]
    pub fn last_move(&self) -> Option<crate::MoveCells> {
        each!(self, g => {
            let mut before = g.clone();
            let mv = before.undo()?;
            Some(before.move_cells(mv))
        })
    }

    /// A xiangqi move (in any notation [`play`](AnyGame::play) reads) in Chinese notation,
    /// 炮二平五; `None` for the other games and for a move that is not legal here.
    #[must_use]
    pub fn chinese_notation(&self, text: &str) -> Option<String> {
        let AnyGame::Xiangqi(game) = self else { return None };
        let mv = game.read_move(text).ok()?;
        Some(game.chinese_notation(mv))
    }

    /// [`chinese_notation`](AnyGame::chinese_notation) of a move value: `None` unless this is
    /// xiangqi and `mv` a legal move here.
    #[must_use]
    pub fn chinese_notation_of(&self, mv: AnyMove) -> Option<String> {
        self.check(mv).ok()?;
        let (AnyGame::Xiangqi(game), AnyMove::Xiangqi(mv)) = (self, mv) else { return None };
        Some(game.chinese_notation(mv))
    }

    /// The move a board gesture makes, from `from` to `to` (with a chess promotion letter),
    /// found as a typed move and judged by the rules: both chess castling gestures (the king's
    /// two-square step, king onto its rook) give the castling move; a banqi flip is
    /// `from == to`; a gomoku stone goes on `to` (an offer there while Soosõrv-8's fifth stones
    /// are offered). The move is not written as text and read back (text is written only for
    /// the message about a cell off the board): the result is the one
    /// [`read_move`](AnyGame::read_move) gives for
    /// [`move_text_between`](AnyGame::move_text_between)'s text (a test holds them together).
    ///
    /// # Errors
    /// [`MoveError::Illegal`] with the rules' reason, or [`MoveError::Parse`] for a cell off
    /// the board or a letter that names no piece.
    pub fn move_between(
        &self,
        from: Cell,
        to: Cell,
        promotion: Option<char>,
    ) -> Result<AnyMove, MoveError> {
        let (width, height) = self.board_size();
        let on_board = |cell: Cell| cell.file < width && cell.rank < height;
        let off_board = || {
            let text = self.move_text_between(from, to, promotion);
            MoveError::Parse(ParseMoveError::syntax(&text, "a move between two cells of the board"))
        };
        // A gomoku stone has no `from`: only where it goes counts.
        let from_counts = self.kind() != GameKind::Gomoku;
        if (from_counts && !on_board(from)) || !on_board(to) {
            return Err(off_board());
        }
        let mv = match self {
            AnyGame::Chess(game) => {
                let role = match promotion {
                    Some(letter) => Some(shakmaty::Role::from_char(letter).ok_or_else(off_board)?),
                    None => None,
                };
                let (Some(from), Some(to)) =
                    (crate::chess::square_of(from), crate::chess::square_of(to))
                else {
                    return Err(off_board());
                };
                AnyMove::Chess(game.canonical(ChessMove { from, to, promotion: role }))
            }
            AnyGame::Xiangqi(_) => {
                AnyMove::Xiangqi(XiangqiMove::new(from, to).ok_or_else(off_board)?)
            }
            AnyGame::Banqi(_) if from == to => AnyMove::Banqi(BanqiMove::Flip(from)),
            AnyGame::Banqi(_) => AnyMove::Banqi(BanqiMove::Step { from, to }),
            AnyGame::Gomoku(game) if game.phase() == crate::gomoku::Phase::Offer => {
                AnyMove::Gomoku(GomokuMove::Offer(to))
            }
            AnyGame::Gomoku(_) => AnyMove::Gomoku(GomokuMove::Stone(to)),
        };
        self.check(mv)?;
        Ok(mv)
    }

    /// The coordinate text of the move from `from` to `to` (with a chess promotion letter), as
    /// [`play`](AnyGame::play) reads it: a banqi flip when `from == to`, a gomoku stone on `to`
    /// (or, while Soosõrv-8's fifth stones are offered, an offer there).
    ///
    /// The text is written whether or not the move is legal, so that playing it can say why not;
    /// [`move_between`](AnyGame::move_between) gives the legal move itself. It is the gesture as
    /// made (a standard-chess king dropped on its rook stays `e1h1`), not canonical text.
    #[must_use]
    pub fn move_text_between(&self, from: Cell, to: Cell, promotion: Option<char>) -> String {
        match self.kind() {
            GameKind::Chess => {
                format!("{from}{to}{}", promotion.map(String::from).unwrap_or_default())
            }
            GameKind::Xiangqi => format!("{from}{to}"),
            GameKind::Banqi if from == to => from.to_string(),
            GameKind::Banqi => format!("{from}-{to}"),
            // While Soosõrv-8's fifth stones are offered, a tap offers one.
            GameKind::Gomoku => match self {
                AnyGame::Gomoku(game) if game.phase() == crate::gomoku::Phase::Offer => {
                    crate::gomoku::GomokuMove::Offer(to).to_string()
                }
                _ => to.to_string(),
            },
        }
    }

    /// The pieces a pawn moving from `from` to `to` may promote to (`q`, `r`, `b`, `n`), found
    /// among the legal moves; empty when the move is not a promotion.
    #[must_use]
    pub fn promotion_choices(&self, from: Cell, to: Cell) -> Vec<char> {
        let AnyGame::Chess(game) = self else { return Vec::new() };
        let (Some(from), Some(to)) = (crate::chess::square_of(from), crate::chess::square_of(to))
        else {
            return Vec::new();
        };
        game.legal_moves()
            .into_iter()
            .filter(|mv| mv.from == from && mv.to == to)
            .filter_map(|mv| mv.promotion.map(shakmaty::Role::char))
            .collect()
    }

    /// What a side is called in this game (`white`, `red`, `black`...). Banqi sides are named by
    /// their colour once the first flip has decided it, gomoku's by the colour they hold (an
    /// opening rule's choice may give the first player white).
    #[must_use]
    pub fn side_name(&self, side: Side) -> &'static str {
        if let AnyGame::Banqi(game) = self
            && let Some(colour) = game.colour_of(side)
        {
            return match colour {
                crate::banqi::Colour::Red => "red",
                crate::banqi::Colour::Black => "black",
            };
        }
        // A gomoku opening rule may have handed the first player white.
        if let AnyGame::Gomoku(game) = self {
            return if game.colour_of(side) == Side::First { "black" } else { "white" };
        }
        match (self.kind(), side) {
            (GameKind::Chess, Side::First) => "white",
            (GameKind::Chess, Side::Second) => "black",
            (GameKind::Xiangqi, Side::First) => "red",
            (GameKind::Xiangqi, Side::Second) => "black",
            (GameKind::Banqi, Side::First) => "first player",
            (GameKind::Banqi, Side::Second) => "second player",
            (GameKind::Gomoku, Side::First) => "black",
            (GameKind::Gomoku, Side::Second) => "white",
        }
    }

    /// The outcome in words: `ongoing`, `draw by stalemate`, `red wins by checkmate`, with the
    /// winning line for gomoku.
    #[must_use]
    pub fn outcome_text(&self) -> String {
        let Some(outcome) = self.outcome() else { return "ongoing".to_owned() };
        let mut text = match outcome.winner {
            Some(side) => format!("{} wins by {}", self.side_name(side), outcome.reason.describe()),
            None => format!("draw by {}", outcome.reason.describe()),
        };
        if !outcome.line.is_empty() {
            let cells: Vec<String> = outcome.line.iter().map(Cell::to_string).collect();
            text.push_str(&format!(" ({})", cells.join(" ")));
        }
        text
    }
}

/// The chess square of `cell`, when it is on the board.
fn chess_square(cell: Cell) -> Option<shakmaty::Square> {
    let (file, rank) = (u32::from(cell.file), u32::from(cell.rank));
    (file < 8 && rank < 8).then(|| {
        shakmaty::Square::from_coords(shakmaty::File::new(file), shakmaty::Rank::new(rank))
    })
}

#[cfg(test)]
mod tests;
