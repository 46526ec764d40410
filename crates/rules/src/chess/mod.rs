//! International chess and Chess960, on [`shakmaty`].
//!
//! Move generation, FEN and SAN come from shakmaty; this module adds what Qi needs on top: moves
//! as plain from/to/promotion triples (what a board drag produces), reasons for illegal moves,
//! undo, automatic draws (stalemate, threefold repetition, fifty moves, insufficient material),
//! and Chess960 start positions by number.
//!
//! - Position string: FEN (`rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1`); Chess960
//!   positions take X-FEN or Shredder-FEN castling rights.
//! - Coordinate moves: UCI (`e2e4`, `e7e8q`). Castling is the king's two-square move (`e1g1`) in
//!   standard chess, and king-takes-own-rook (`e1h1`) in Chess960, as `UCI_Chess960` engines write it;
//!   both forms are read in either mode where they are unambiguous.
//! - Move list notation: SAN with check marks (`Nf3`, `exd5`, `O-O`, `Qxf7#`, `e8=Q+`).
//! - Rule options: `variant=standard|chess960`.

mod reasons;

use std::fmt;

use shakmaty::fen::Fen;
use shakmaty::san::{San, SanError, SanPlus};
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position, Role, Square};

use crate::options::{RuleDoc, RuleError, RuleSet, choose, unknown};
use crate::zobrist::{self, LazyKeys};
use crate::{
    Cell, EndReason, Game, GameKind, IllegalMove, IllegalReason, MoveCells, MoveError, Outcome,
    ParseMoveError, ParsePositionError, Side,
};

pub use shakmaty;

/// Rule options of chess.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(remote = "Self", default, deny_unknown_fields)
)]
pub struct ChessRules {
    /// Chess960 (Fischer random): shuffled back ranks, castling to the standard king files.
    /// Serde names it as the text does: `"variant": "standard" | "chess960"`.
    #[cfg_attr(feature = "serde", serde(rename = "variant", with = "variant_name"))]
    pub chess960: bool,
}

/// Chess's `variant` option by name, as the text writes it.
#[cfg(feature = "serde")]
mod variant_name {
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    pub(super) fn serialize<S: Serializer>(
        chess960: &bool,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(if *chess960 { "chess960" } else { "standard" })
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<bool, D::Error> {
        match <std::borrow::Cow<'de, str>>::deserialize(deserializer)?.as_ref() {
            "standard" => Ok(false),
            "chess960" => Ok(true),
            other => Err(D::Error::unknown_variant(other, &["standard", "chess960"])),
        }
    }
}

#[cfg(feature = "serde")]
crate::options::checked_serde!(ChessRules);

impl ChessRules {
    /// How castling rights and castling moves are read and written under these rules.
    #[must_use]
    pub fn castling_mode(self) -> CastlingMode {
        if self.chess960 { CastlingMode::Chess960 } else { CastlingMode::Standard }
    }
}

impl RuleSet for ChessRules {
    const DOCS: &'static [RuleDoc] = &[RuleDoc {
        key: "variant",
        values: &["standard", "chess960"],
        help: "standard chess, or Chess960 with a shuffled back rank",
    }];

    fn set(&mut self, key: &str, value: &str) -> Result<(), RuleError> {
        match key {
            "variant" => {
                self.chess960 = choose(key, value, &[("standard", false), ("chess960", true)])?;
                Ok(())
            }
            _ => Err(unknown(key)),
        }
    }

    fn pairs(&self) -> Vec<(&'static str, String)> {
        let variant = if self.chess960 { "chess960" } else { "standard" };
        vec![("variant", variant.to_owned())]
    }
}

/// A chess move as a board gesture gives it: from, to and the promotion piece.
///
/// Castling is written as in UCI for the game's mode (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ChessMove {
    /// The square the piece leaves.
    pub from: Square,
    /// The square it goes to (for Chess960 castling, the rook's square).
    pub to: Square,
    /// The piece a pawn becomes on the last rank.
    pub promotion: Option<Role>,
}

impl ChessMove {
    fn uci(self) -> UciMove {
        UciMove::Normal { from: self.from, to: self.to, promotion: self.promotion }
    }
}

impl fmt::Display for ChessMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.uci().fmt(f)
    }
}

/// A position before a move, kept for undo.
#[derive(Clone, Debug)]
struct Snapshot {
    position: Chess,
    played: ChessMove,
}

/// A game of chess: the current position, the moves that led to it, and the rules.
#[derive(Clone, Debug)]
pub struct ChessGame {
    rules: ChessRules,
    position: Chess,
    undo_stack: Vec<Snapshot>,
    /// Hashes of every position so far, the current one last, for repetitions.
    hashes: Vec<u64>,
}

/// The Chess960 back rank numbered `index` (0-959) in Scharnagl's scheme; 518 is the standard one.
#[must_use]
pub fn chess960_back_rank(index: u16) -> [Role; 8] {
    let mut rank: [Option<Role>; 8] = [None; 8];
    let mut n = usize::from(index % 960);
    // Bishops on a light square (b, d, f, h) and a dark one (a, c, e, g).
    rank[(n % 4) * 2 + 1] = Some(Role::Bishop);
    n /= 4;
    rank[(n % 4) * 2] = Some(Role::Bishop);
    n /= 4;
    place_in_nth_free(&mut rank, n % 6, Role::Queen);
    n /= 6;
    // The ten ways to put two knights on the five squares left.
    const KNIGHTS: [(usize, usize); 10] =
        [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)];
    let (first, second) = KNIGHTS[n];
    // Place the later one first so the earlier index still counts the same free squares.
    place_in_nth_free(&mut rank, second, Role::Knight);
    place_in_nth_free(&mut rank, first, Role::Knight);
    for role in [Role::Rook, Role::King, Role::Rook] {
        place_in_nth_free(&mut rank, 0, role);
    }
    rank.map(|role| role.unwrap_or(Role::Pawn))
}

fn place_in_nth_free(rank: &mut [Option<Role>; 8], n: usize, role: Role) {
    if let Some(slot) = rank.iter_mut().filter(|slot| slot.is_none()).nth(n) {
        *slot = Some(role);
    }
}

fn chess960_fen(index: u16) -> String {
    let back: String = chess960_back_rank(index).iter().map(|role| role.char()).collect();
    format!("{back}/pppppppp/8/8/8/8/PPPPPPPP/{} w KQkq - 0 1", back.to_ascii_uppercase())
}

fn side_of(color: shakmaty::Color) -> Side {
    match color {
        shakmaty::Color::White => Side::First,
        shakmaty::Color::Black => Side::Second,
    }
}

fn cell_of(square: Square) -> Cell {
    Cell::new(u8::from(square.file()), u8::from(square.rank()))
}

pub(crate) fn square_of(cell: Cell) -> Option<Square> {
    (cell.file < 8 && cell.rank < 8).then(|| {
        Square::from_coords(
            shakmaty::File::new(u32::from(cell.file)),
            shakmaty::Rank::new(u32::from(cell.rank)),
        )
    })
}

/// The position hash's keys: a piece (6 roles of each colour) on a square, a castling right by
/// its rook's square (Chess960 too), the file of a legal en passant capture, then Black to move.
/// Ours rather than shakmaty's Zobrist tables: these are made on first use, so the browser's
/// download carries no table (see [`zobrist`]). The engine hashes with shakmaty's own, apart.
const CASTLING_KEYS: usize = 12 * 64;
const EN_PASSANT_KEYS: usize = CASTLING_KEYS + 64;
const HASH_KEY_COUNT: usize = EN_PASSANT_KEYS + 8;
const HASH_SEED: u64 = 0x4368_6573_7331;
static HASH_KEYS: LazyKeys<HASH_KEY_COUNT> = LazyKeys::new(HASH_SEED);
const BLACK_TO_MOVE_KEY: u64 = zobrist::key(HASH_SEED, HASH_KEY_COUNT);

fn hash_of(position: &Chess) -> u64 {
    let keys = HASH_KEYS.table();
    let mut hash = if position.turn() == shakmaty::Color::Black { BLACK_TO_MOVE_KEY } else { 0 };
    for (square, piece) in position.board() {
        let piece_index = usize::from(piece.color.is_black()) * 6 + (piece.role as usize - 1);
        hash ^= keys[piece_index * 64 + square as usize];
    }
    for rook in position.castles().castling_rights() {
        hash ^= keys[CASTLING_KEYS + rook as usize];
    }
    if let Some(square) = position.ep_square(EnPassantMode::Legal) {
        hash ^= keys[EN_PASSANT_KEYS + square.file() as usize];
    }
    hash
}

impl ChessGame {
    /// A game starting from a shakmaty position.
    #[must_use]
    pub fn from_shakmaty(rules: ChessRules, position: Chess) -> ChessGame {
        let hash = hash_of(&position);
        ChessGame { rules, position, undo_stack: Vec::new(), hashes: vec![hash] }
    }

    /// The current position, for engines that search with shakmaty directly.
    #[must_use]
    pub fn shakmaty_position(&self) -> &Chess {
        &self.position
    }

    /// The shakmaty move a legal [`ChessMove`] stands for, or `None` when it is not legal here.
    #[must_use]
    pub fn resolve(&self, mv: ChessMove) -> Option<shakmaty::Move> {
        mv.uci().to_move(&self.position).ok()
    }

    /// The move written the way this game's mode writes it: either castling gesture (the king's
    /// two-square step, or king onto its rook) becomes the one [`legal_moves`](Game::legal_moves)
    /// lists. Other moves are returned unchanged.
    #[must_use]
    pub fn canonical(&self, mv: ChessMove) -> ChessMove {
        match self.resolve(mv) {
            Some(resolved @ shakmaty::Move::Castle { .. }) => self.chess_move(resolved),
            _ => mv,
        }
    }

    /// The [`ChessMove`] for a shakmaty move, with castling written for this game's mode.
    #[must_use]
    pub fn chess_move(&self, mv: shakmaty::Move) -> ChessMove {
        ChessMove::from_uci(mv.to_uci(self.rules.castling_mode()))
    }

    /// How many times the current position has occurred, counting back to the last capture or
    /// pawn move (nothing before it can repeat).
    fn occurrences(&self) -> usize {
        let current = *self.hashes.last().unwrap_or(&0);
        let reversible = self.position.halfmoves() as usize + 1;
        self.hashes.iter().rev().take(reversible).step_by(2).filter(|&&h| h == current).count()
    }

    fn read_san(&self, text: &str) -> Result<ChessMove, MoveError> {
        let expected = "a UCI move such as e2e4 or SAN such as Nf3";
        let san = match SanPlus::from_ascii(text.as_bytes()) {
            // Drops and null moves are SAN of other variants, not chess moves.
            Ok(SanPlus { san: san @ (San::Normal { .. } | San::Castle(_)), .. }) => san,
            _ => return Err(ParseMoveError::syntax(text, expected).into()),
        };
        if let Some(outcome_reason) = self.game_over_reason() {
            return Err(IllegalMove::new(outcome_reason, text).into());
        }
        match san.to_move(&self.position).or_else(|e| {
            // Be lenient about the capture mark: `Qd5` for `Qxd5`, `Nxf3` onto an empty square,
            // and `ed5` for `exd5` all mean one move when only one fits.
            let San::Normal { role, file, rank, capture, to, promotion } = san else {
                return Err(e);
            };
            let toggled = San::Normal { role, file, rank, capture: !capture, to, promotion };
            toggled.to_move(&self.position).map_err(|_| e)
        }) {
            Ok(mv) => Ok(self.chess_move(mv)),
            Err(SanError::AmbiguousSan) => {
                Err(IllegalMove::new(IllegalReason::Ambiguous, text).into())
            }
            Err(SanError::IllegalSan) => {
                Err(IllegalMove::new(reasons::why_san_illegal(&self.position, san), text).into())
            }
        }
    }

    fn game_over_reason(&self) -> Option<IllegalReason> {
        self.outcome().map(|_| IllegalReason::GameOver)
    }
}

impl Game for ChessGame {
    type Move = ChessMove;
    type Rules = ChessRules;
    const KIND: GameKind = GameKind::Chess;

    fn start(rules: &ChessRules, seed: u64) -> ChessGame {
        if !rules.chess960 {
            return ChessGame::from_shakmaty(*rules, Chess::default());
        }
        let index = u16::try_from(seed % 960).unwrap_or(0);
        // Every numbered Chess960 start is a valid position; fall back to the standard one anyway
        // rather than panic.
        ChessGame::from_position(rules, &chess960_fen(index))
            .unwrap_or_else(|_| ChessGame::from_shakmaty(*rules, Chess::default()))
    }

    fn from_position(rules: &ChessRules, text: &str) -> Result<ChessGame, ParsePositionError> {
        ParsePositionError::check_length(text)?;
        let fen = Fen::from_ascii(text.trim().as_bytes()).map_err(|e| {
            use shakmaty::fen::ParseFenError as E;
            let field = match e {
                E::InvalidBoard => "board",
                E::InvalidTurn => "side to move",
                E::InvalidCastling => "castling rights",
                E::InvalidEpSquare => "en passant square",
                E::InvalidHalfmoveClock => "halfmove clock",
                E::InvalidFullmoves => "move number",
                _ => "FEN",
            };
            ParsePositionError::field(field, e.to_string())
        })?;
        let position: Chess = fen
            .into_position(rules.castling_mode())
            .map_err(|e| ParsePositionError::impossible(e.to_string()))?;
        Ok(ChessGame::from_shakmaty(*rules, position))
    }

    fn position(&self) -> String {
        Fen::from_position(&self.position, EnPassantMode::Legal).to_string()
    }

    fn rules(&self) -> &ChessRules {
        &self.rules
    }

    fn side_to_move(&self) -> Side {
        side_of(self.position.turn())
    }

    fn legal_moves_into(&self, moves: &mut Vec<ChessMove>) {
        if self.outcome().is_some() {
            return;
        }
        moves.extend(self.position.legal_moves().into_iter().map(|mv| self.chess_move(mv)));
    }

    fn move_cells(&self, mv: ChessMove) -> MoveCells {
        MoveCells { from: Some(cell_of(mv.from)), to: cell_of(mv.to) }
    }

    fn legal_destinations(&self, from: Cell) -> Vec<Cell> {
        let Some(from) = square_of(from) else { return Vec::new() };
        let mut cells: Vec<Cell> = Vec::new();
        if self.outcome().is_some() {
            return cells;
        }
        for mv in self.position.legal_moves().into_iter().filter(|mv| mv.from() == Some(from)) {
            // Offer both castling gestures: the king's two-square step and king-onto-rook.
            let standard = ChessMove::from_uci(mv.to_uci(CastlingMode::Standard));
            let chess960 = ChessMove::from_uci(mv.to_uci(CastlingMode::Chess960));
            for to in [standard.to, chess960.to] {
                let cell = cell_of(to);
                if !cells.contains(&cell) {
                    cells.push(cell);
                }
            }
        }
        cells
    }

    fn check(&self, mv: ChessMove) -> Result<(), IllegalMove> {
        if let Some(reason) = self.game_over_reason() {
            return Err(IllegalMove::new(reason, mv.to_string()));
        }
        match self.resolve(mv) {
            Some(resolved) if self.chess_move(resolved) == mv => Ok(()),
            // The other castling gesture: legal, but written in the form this mode does not use.
            // `parse_move` turns it into the right one; a move built by hand must use it.
            Some(_) => Err(IllegalMove::new(IllegalReason::CastlingNotation, mv.to_string())),
            None => Err(IllegalMove::new(reasons::why_illegal(&self.position, mv), mv.to_string())),
        }
    }

    fn play_unchecked(&mut self, mv: ChessMove) {
        let Some(resolved) = self.resolve(mv) else { return };
        let before = self.position.clone();
        self.position.play_unchecked(resolved);
        self.undo_stack.push(Snapshot { position: before, played: mv });
        self.hashes.push(hash_of(&self.position));
    }

    fn undo(&mut self) -> Option<ChessMove> {
        let snapshot = self.undo_stack.pop()?;
        self.position = snapshot.position;
        self.hashes.pop();
        Some(snapshot.played)
    }

    fn history(&self) -> Vec<ChessMove> {
        self.undo_stack.iter().map(|snapshot| snapshot.played).collect()
    }

    fn outcome(&self) -> Option<Outcome> {
        let position = &self.position;
        if position.is_checkmate() {
            return Some(Outcome::win(side_of(position.turn()).other(), EndReason::Checkmate));
        }
        if position.is_stalemate() {
            return Some(Outcome::draw(EndReason::Stalemate));
        }
        if position.is_insufficient_material() {
            return Some(Outcome::draw(EndReason::InsufficientMaterial));
        }
        if position.halfmoves() >= 100 {
            return Some(Outcome::draw(EndReason::FiftyMoves));
        }
        if self.occurrences() >= 3 {
            return Some(Outcome::draw(EndReason::Repetition));
        }
        None
    }

    fn in_check(&self) -> bool {
        self.position.is_check()
    }

    fn hash(&self) -> u64 {
        *self.hashes.last().unwrap_or(&0)
    }

    fn parse_move(&self, text: &str) -> Result<ChessMove, ParseMoveError> {
        ParseMoveError::check_length(text)?;
        match UciMove::from_ascii(text.as_bytes()) {
            Ok(uci @ UciMove::Normal { .. }) => Ok(self.canonical(ChessMove::from_uci(uci))),
            _ => Err(ParseMoveError::syntax(text, "a UCI move such as e2e4 or e7e8q")),
        }
    }

    fn move_text(&self, mv: ChessMove) -> String {
        mv.to_string()
    }

    fn move_notation(&self, mv: ChessMove) -> String {
        match self.resolve(mv) {
            Some(resolved) => SanPlus::from_move(self.position.clone(), resolved).to_string(),
            None => mv.to_string(),
        }
    }

    fn read_move(&self, text: &str) -> Result<ChessMove, MoveError> {
        ParseMoveError::check_length(text)?;
        match self.parse_move(text) {
            Ok(mv) => {
                self.check(mv)?;
                Ok(mv)
            }
            Err(_) => self.read_san(text),
        }
    }

    fn perft(&mut self, depth: u32) -> u64 {
        shakmaty::perft(&self.position, depth)
    }

    fn perft_divide(&mut self, depth: u32) -> Vec<(ChessMove, u64)> {
        if depth == 0 {
            return Vec::new();
        }
        let moves = self.position.legal_moves();
        moves
            .into_iter()
            .map(|mv| {
                let mut after = self.position.clone();
                after.play_unchecked(mv);
                (self.chess_move(mv), shakmaty::perft(&after, depth - 1))
            })
            .collect()
    }
}

impl ChessMove {
    fn from_uci(uci: UciMove) -> ChessMove {
        // Chess has no drops, and null moves are refused by the parser: neither reaches here
        // except through a bug, which gets a harmless non-move rather than a panic.
        match uci {
            UciMove::Normal { from, to, promotion } => ChessMove { from, to, promotion },
            UciMove::Put { to, .. } => ChessMove { from: to, to, promotion: None },
            UciMove::Null => ChessMove { from: Square::A1, to: Square::A1, promotion: None },
        }
    }
}

#[cfg(test)]
mod tests;
