//! Xiangqi (Chinese chess).
//!
//! # Rules
//! A 9x10 board; Red ([`Side::First`]) moves first, Black is [`Side::Second`]. General and
//! advisors stay in the palace, elephants do not cross the river and are blocked on the eye,
//! horses are blocked on the leg, cannons capture by jumping exactly one screen, soldiers step
//! forward and, once across the river, sideways. The generals may never face each other on an
//! open file, and no move may leave one's own general attacked.
//!
//! The game ends when:
//! - the side to move has no legal move: it loses, by [`EndReason::Checkmate`] if in check,
//!   else by [`EndReason::Stalemate`];
//! - the current position occurs for the third time (counted back to the last capture): if every
//!   move of one side since the first occurrence gave check and the other side's did not all
//!   give check, the checking side loses ([`EndReason::PerpetualCheck`]); otherwise a draw
//!   ([`EndReason::Repetition`]);
//! - the rule option `natural_limit` (default 120 plies, the Asian-rules "natural limit" of 60
//!   moves each) passes without a capture: a draw by [`EndReason::NoProgress`]. `0` turns it off.
//!
//! # Position string
//! Xiangqi FEN as Fairy-Stockfish and Pikafish write it, rank 10 (Black's back rank) first:
//! `rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1`. Uppercase is Red;
//! `r` chariot, `n` horse (`h` accepted), `b` elephant (`e` accepted), `a` advisor, `k` general,
//! `c` cannon, `p` soldier. The side is `w` (or `r`) for Red, `b` for Black; then two unused
//! fields `- -`, the plies since the last capture and the move number. Everything after the side
//! may be left out. Positions are validated: one general each inside its palace, every piece on a
//! point it can reach, no more pieces than the set has, and the side not to move not in check.
//!
//! # Move notation
//! - Coordinates, as Fairy-Stockfish writes them: files `a`-`i` from Red's left, ranks `1`-`10`
//!   from Red's side: `h3e3` (central cannon), `h10g8` (a black horse). [`Game::move_text`] writes
//!   them, [`Game::parse_move`] reads them.
//! - WXF for move lists ([`Game::move_notation`]): piece letter `K A E H R C P`, the file it
//!   stands on (1-9 from the mover's own right), `+` forward / `-` backward / `=` sideways, and
//!   either the number of ranks moved (straight moves of K R C P) or the destination file (sideways
//!   moves and all moves of H E A): `C2=5`, `H2+3`, `R1+1`, `A4+5`, `E3+5`, `K5+1`, `P7+1`.
//!   Two like pieces on one file are told apart by `+` (front) or `-` (rear) in front of the
//!   letter, without the file: `+C=5`. Soldiers, following the WXF rules for tandem pawns: three on
//!   one file are `+P`, `P<file>`, `-P`; four are `++`, `+P`, `-P`, `--`; five `++`, `+P`,
//!   `P<file>`, `-P`, `--`. When two files each hold two or more soldiers, the file digit replaces
//!   the letter and `+`/`-` (or the file digit again for a middle soldier) follow: `3+=4`, `33=4`,
//!   `3-=4`. [`Game::read_move`] reads coordinates or WXF (also with `.` for `=`, `N`/`B` for
//!   horse/elephant, and `C+=5` for `+C=5`).
//!
//! # Rule options
//! `natural_limit=<plies>`: plies without a capture after which the game is drawn (default 120,
//! `0` = no limit).

mod board;
mod chinese;
mod judge;
mod movegen;
mod notation;
#[cfg(test)]
mod tests;

use std::fmt;

use crate::core::{
    Cell, EndReason, Game, GameKind, IllegalMove, MoveCells, MoveError, Outcome, ParseMoveError,
    ParsePositionError, Side,
};
use crate::options::{self, RuleDoc, RuleError, RuleSet};

use board::{Board, EMPTY, cell_square, square_cell};
pub use board::{Piece, UnknownPiece};
use movegen::MoveList;

/// The start position in FEN.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// The rule options of xiangqi.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(remote = "Self", default, deny_unknown_fields)
)]
pub struct XiangqiRules {
    /// Plies without a capture after which the game is a draw; 0 for no limit.
    pub natural_limit: u32,
}

#[cfg(feature = "serde")]
crate::options::checked_serde!(XiangqiRules);

impl Default for XiangqiRules {
    fn default() -> Self {
        XiangqiRules { natural_limit: 120 }
    }
}

impl RuleSet for XiangqiRules {
    const DOCS: &'static [RuleDoc] = &[RuleDoc {
        key: "natural_limit",
        values: &["120", "0", "1-1000"],
        help: "plies without a capture after which the game is drawn (the Asian rules' natural \
               limit of 60 moves each); 0 turns it off",
    }];

    fn set(&mut self, key: &str, value: &str) -> Result<(), RuleError> {
        match key {
            "natural_limit" => {
                self.natural_limit = options::number_in(key, value, 0..=1000)?;
                Ok(())
            }
            _ => Err(options::unknown(key)),
        }
    }

    fn pairs(&self) -> Vec<(&'static str, String)> {
        vec![("natural_limit", self.natural_limit.to_string())]
    }
}

/// A xiangqi move: the piece on `from` goes to `to` (capturing whatever stands there).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct XiangqiMove {
    from: u8,
    to: u8,
}

impl XiangqiMove {
    /// The move from `from` to `to`, if both cells are on the board.
    #[must_use]
    pub fn new(from: Cell, to: Cell) -> Option<XiangqiMove> {
        Some(XiangqiMove { from: cell_square(from)?, to: cell_square(to)? })
    }

    /// The starting cell.
    #[must_use]
    pub const fn from(self) -> Cell {
        square_cell(self.from)
    }

    /// The destination cell.
    #[must_use]
    pub const fn to(self) -> Cell {
        square_cell(self.to)
    }
}

impl fmt::Display for XiangqiMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())
    }
}

impl fmt::Debug for XiangqiMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// What `undo` needs to take a move back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Played {
    mv: XiangqiMove,
    captured: u8,
}

/// A xiangqi game: the position, the rules and the moves played.
#[derive(Clone, PartialEq, Eq)]
pub struct Xiangqi {
    board: Board,
    rules: XiangqiRules,
    history: Vec<Played>,
    /// Hash of every position since the start, the current one last.
    hashes: Vec<u64>,
    /// Plies without capture before the start position (from the FEN).
    start_quiet_plies: u32,
    /// The move number of the start position (from the FEN).
    start_move_number: u32,
    start_side: usize,
}

impl fmt::Debug for Xiangqi {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Xiangqi({})", self.position())
    }
}

impl Xiangqi {
    /// The piece on a cell, with its side.
    #[must_use]
    pub fn piece_at(&self, cell: Cell) -> Option<(Side, Piece)> {
        let (side, piece) = self.board.piece_at(cell_square(cell)?)?;
        Some((Side::ALL[side], piece))
    }

    /// The cell of `side`'s general.
    #[must_use]
    pub fn general(&self, side: Side) -> Cell {
        square_cell(self.board.general(side.index()))
    }

    /// Plies since the last capture, counting those before the start position.
    #[must_use]
    pub fn quiet_plies(&self) -> u32 {
        let since = self.history.iter().rev().take_while(|p| p.captured == EMPTY).count();
        if since == self.history.len() {
            self.start_quiet_plies.saturating_add(since as u32)
        } else {
            since as u32
        }
    }

    /// Every legal move into `moves` (appended), ignoring whether the game is over: no
    /// repetition or move-limit check, for engines that judge those themselves.
    pub fn moves_into(&self, moves: &mut Vec<XiangqiMove>) {
        self.generate_into(moves, false);
    }

    /// The legal captures into `moves` (appended), ignoring whether the game is over: for an
    /// engine's quiescence search.
    pub fn captures_into(&self, moves: &mut Vec<XiangqiMove>) {
        self.generate_into(moves, true);
    }

    fn generate_into(&self, moves: &mut Vec<XiangqiMove>, captures_only: bool) {
        let mut board = self.board;
        let mut list = MoveList::new();
        board.generate_where(&mut list, captures_only);
        moves.extend(list.as_slice().iter().map(|&(from, to)| XiangqiMove { from, to }));
    }

    /// Passes the turn without moving (an engine's null move); calling it again takes the pass
    /// back. The pass is not recorded in the history: take it back before playing or undoing
    /// anything else. Only sound when the side to move is not in check.
    pub fn pass_turn(&mut self) {
        self.board.set_side(self.board.us ^ 1);
    }

    fn from_board(rules: &XiangqiRules, board: Board, quiet: u32, move_number: u32) -> Xiangqi {
        Xiangqi {
            board,
            rules: *rules,
            history: Vec::new(),
            hashes: vec![board.hash],
            start_quiet_plies: quiet,
            start_move_number: move_number,
            start_side: board.us,
        }
    }

    /// Every legal move, ignoring whether the game is over.
    fn moves_ignoring_outcome(&self) -> MoveList {
        let mut board = self.board;
        let mut list = MoveList::new();
        board.generate(&mut list);
        list
    }

    fn has_legal_move(&self) -> bool {
        self.moves_ignoring_outcome().len > 0
    }
}

impl Game for Xiangqi {
    type Move = XiangqiMove;
    type Rules = XiangqiRules;
    const KIND: GameKind = GameKind::Xiangqi;

    fn start(rules: &XiangqiRules, _seed: u64) -> Xiangqi {
        // Not `expect`: that would bring the error's `Debug` (and the formatting of strings
        // it needs) into the browser's download for a case that cannot happen.
        Xiangqi::from_position(rules, START_FEN)
            .unwrap_or_else(|_| unreachable!("the start position is valid"))
    }

    fn from_position(rules: &XiangqiRules, text: &str) -> Result<Xiangqi, ParsePositionError> {
        let fen = notation::parse_fen(text)?;
        Ok(Xiangqi::from_board(rules, fen.board, fen.quiet_plies, fen.move_number))
    }

    fn position(&self) -> String {
        let plies = self.history.len() as u32;
        let move_number =
            self.start_move_number.saturating_add((plies + u32::from(self.start_side == 1)) / 2);
        notation::write_fen(&self.board, self.quiet_plies(), move_number)
    }

    fn rules(&self) -> &XiangqiRules {
        &self.rules
    }

    fn side_to_move(&self) -> Side {
        Side::ALL[self.board.us]
    }

    fn legal_moves_into(&self, moves: &mut Vec<XiangqiMove>) {
        let list = self.moves_ignoring_outcome();
        if list.len == 0 || self.outcome().is_some() {
            return;
        }
        moves.extend(list.as_slice().iter().map(|&(from, to)| XiangqiMove { from, to }));
    }

    fn move_cells(&self, mv: XiangqiMove) -> MoveCells {
        MoveCells { from: Some(mv.from()), to: mv.to() }
    }

    fn check(&self, mv: XiangqiMove) -> Result<(), IllegalMove> {
        let reason = if self.outcome().is_some() {
            Some(crate::core::IllegalReason::GameOver)
        } else {
            judge::illegal_reason(&self.board, mv.from, mv.to)
        };
        match reason {
            None => Ok(()),
            Some(reason) => Err(IllegalMove::new(reason, mv.to_string())),
        }
    }

    fn play_unchecked(&mut self, mv: XiangqiMove) {
        let captured = self.board.make(mv.from, mv.to);
        self.history.push(Played { mv, captured });
        self.hashes.push(self.board.hash);
    }

    fn undo(&mut self) -> Option<XiangqiMove> {
        let played = self.history.pop()?;
        self.hashes.pop();
        self.board.unmake(played.mv.from, played.mv.to, played.captured);
        Some(played.mv)
    }

    fn history(&self) -> Vec<XiangqiMove> {
        self.history.iter().map(|p| p.mv).collect()
    }

    fn outcome(&self) -> Option<Outcome> {
        let mover = Side::ALL[self.board.us];
        if !self.has_legal_move() {
            let reason =
                if self.board.in_check() { EndReason::Checkmate } else { EndReason::Stalemate };
            return Some(Outcome::win(mover.other(), reason));
        }
        if let Some(outcome) = self.repetition_outcome() {
            return Some(outcome);
        }
        let limit = self.rules.natural_limit;
        (limit > 0 && self.quiet_plies() >= limit).then(|| Outcome::draw(EndReason::NoProgress))
    }

    fn in_check(&self) -> bool {
        self.board.in_check()
    }

    fn hash(&self) -> u64 {
        self.board.hash
    }

    fn parse_move(&self, text: &str) -> Result<XiangqiMove, ParseMoveError> {
        notation::parse_coordinates(text)
    }

    fn move_text(&self, mv: XiangqiMove) -> String {
        mv.to_string()
    }

    fn move_notation(&self, mv: XiangqiMove) -> String {
        notation::wxf(&self.board, mv.from, mv.to)
    }

    fn read_move(&self, text: &str) -> Result<XiangqiMove, MoveError> {
        ParseMoveError::check_length(text)?;
        if let Ok(mv) = notation::parse_coordinates(text) {
            self.check(mv)?;
            return Ok(mv);
        }
        if !text.is_ascii() {
            return chinese::read(self, text);
        }
        notation::read_wxf(self, text)
    }

    fn perft(&mut self, depth: u32) -> u64 {
        let mut board = self.board;
        board.perft(depth)
    }

    fn perft_divide(&mut self, depth: u32) -> Vec<(XiangqiMove, u64)> {
        if depth == 0 {
            return Vec::new();
        }
        let mut board = self.board;
        let moves = self.moves_ignoring_outcome();
        moves
            .as_slice()
            .iter()
            .map(|&(from, to)| {
                let captured = board.make(from, to);
                let nodes = board.perft(depth - 1);
                board.unmake(from, to, captured);
                (XiangqiMove { from, to }, nodes)
            })
            .collect()
    }
}

impl Xiangqi {
    /// The outcome of a threefold repetition of the current position, if it is one.
    fn repetition_outcome(&self) -> Option<Outcome> {
        let reversible = self.history.iter().rev().take_while(|p| p.captured == EMPTY).count();
        let now = self.hashes.len() - 1;
        let current = self.hashes[now];
        let window = &self.hashes[now - reversible..];
        let mut occurrences =
            window.iter().rev().step_by(2).enumerate().filter(|(_, h)| **h == current);
        let mut first_back = 0;
        let mut count = 0;
        for (i, _) in occurrences.by_ref() {
            count += 1;
            first_back = 2 * i;
        }
        if count < 3 {
            return None;
        }
        // Replay the cycle to see which moves gave check.
        let mut game = self.clone();
        let mut all_checks = [true, true];
        for _ in 0..first_back {
            let checked = game.board.in_check();
            let mv_side = game.board.us ^ 1;
            all_checks[mv_side] &= checked;
            game.undo();
        }
        Some(match all_checks {
            [true, false] => Outcome::win(Side::Second, EndReason::PerpetualCheck),
            [false, true] => Outcome::win(Side::First, EndReason::PerpetualCheck),
            _ => Outcome::draw(EndReason::Repetition),
        })
    }
}
