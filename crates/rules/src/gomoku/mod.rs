//! Gomoku: Black and White take turns putting stones on the points of a 15x15 (or 19x19, or
//! 20x20 as Gomocup plays) board; the first to make five in a row wins.
//!
//! # Rule options
//!
//! - `size=15|19|20` — points on each side of the board (default 15).
//! - `rule=freestyle|standard|renju|caro` (default freestyle):
//!   - `freestyle`: five or more in a row wins;
//!   - `standard`: exactly five wins, six or more wins nothing, for either side;
//!   - `renju`: White wins with five or more; Black wins with exactly five and may not make a
//!     double three, a double four (also two fours in one line, `x.xxx.x`) or an overline —
//!     such a move is illegal ([`IllegalReason::DoubleThree`], [`IllegalReason::DoubleFour`],
//!     [`IllegalReason::Overline`]) unless it makes a five at the same time. A three counts only
//!     when the stone that would make it a straight four is itself allowed (the Renju
//!     International Federation's recursive rule);
//!   - `caro`: Vietnam's cờ caro: five or more in a row wins, for both sides, unless the
//!     opponent's stones close the row at both ends (`oxxxxxo` wins nothing). The board's edge
//!     closes nothing: caro is played on paper without edges, and the apps that put it on a
//!     board count only stones (so a row against the edge with an opponent's stone at its
//!     other end wins).
//! - `opening=none|swap|swap2|soosorv8` (default none): who puts the first stones and who then
//!   holds which colour; see [`OpeningRule`]. Soosõrv-8 needs a centre point: 15 or 19 only.
//!
//! Black ([`Side::First`]) moves first. The game ends with [`EndReason::FiveInARow`] (the
//! outcome's `line` lists every stone of the winning row, from the lower end), or as a draw
//! with [`EndReason::BoardFull`]. Should renju leave Black without any allowed point, the game
//! is a draw with [`EndReason::NoLegalMoves`].
//!
//! # Notation
//!
//! A move is a point: file letter `a`-`o` (`a`-`s` on 19x19, `a`-`t` on 20x20, `i` included) from the left and
//! rank `1`-`15` from the bottom, as in `h8`, the centre of the 15x15 board. Upper case (`H8`)
//! is read too. The moves of a game write as one string, `h8i9j10`
//! ([`Gomoku::move_string`], [`Gomoku::from_move_string`]). An opening rule's steps are words
//! standing apart: a colour choice `black` or `white`, Soosõrv-8's declaration `offers=3` and
//! offers `offer=h9` (`h8i9j10 black a1 offers=2 white offer=g9 offer=k5 k5`).
//!
//! # Position string
//!
//! The rows from the top (rank 15) down, separated by `/`; in each row from the `a` file, `x` a
//! black stone, `o` a white stone and a number (1-20) for a run of empty points; then a space and
//! the side to move, `b` or `w`. The empty board with one black stone on h8, White to move:
//! `15/15/15/15/15/15/15/7x7/15/15/15/15/15/15/15 w`. The board size comes from the rules, and a
//! string of another size is refused. Black must have as many stones as White with Black to
//! move, or one more with White to move. A position may already hold a winning line: the game
//! is then over and [`Game::outcome`] says who won — but only the side that moved last can
//! have won, and not both sides.

mod board;
mod notation;
mod opening;
mod renju;
mod rules;

use std::fmt;

use self::board::{Board, DIRECTIONS, Stone, WHITE_TO_MOVE_KEY, stone_key};
use self::opening::Actor;
pub use self::opening::{MAX_OFFERS, OpeningRule, Phase};
pub use self::rules::{GomokuRules, WinRule};
use crate::core::{
    Cell, EndReason, Game, GameKind, IllegalMove, IllegalReason, MoveCells, MoveError, Outcome,
    ParseMoveError, ParsePositionError, Side,
};

/// One gomoku move: a stone on a point, or a step of an opening rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GomokuMove {
    /// A stone of the colour to move on a point (under Soosõrv-8, White's pick of an offered
    /// fifth stone is the black stone put on it).
    Stone(Cell),
    /// The player to act takes a colour (written `black` or `white`): [`Side::First`] is
    /// black. Only when the opening rule asks for a choice (see [`OpeningRule`]).
    Take(Side),
    /// Soosõrv-8: White declares how many fifth stones Black offers, 1 to [`MAX_OFFERS`]
    /// (written `offers=4`).
    Declare(u8),
    /// Soosõrv-8: Black offers a fifth stone on a point (written `offer=h9`); no stone is put
    /// until White picks one.
    Offer(Cell),
}

impl GomokuMove {
    /// The point a stone goes on; `None` for the steps of an opening that put no stone.
    #[must_use]
    pub const fn point(self) -> Option<Cell> {
        match self {
            GomokuMove::Stone(cell) => Some(cell),
            GomokuMove::Take(_) | GomokuMove::Declare(_) | GomokuMove::Offer(_) => None,
        }
    }

    /// Whether the move is a word of its own in a move string (`black`, `offers=4`,
    /// `offer=h9`) rather than a point.
    #[must_use]
    pub const fn is_word(self) -> bool {
        !matches!(self, GomokuMove::Stone(_))
    }
}

/// The words of the colour choices, black's first.
const COLOUR_WORDS: [&str; 2] = ["black", "white"];
/// How a declaration of fifth-stone offers starts (`offers=4`).
const DECLARE_WORD: &str = "offers=";
/// How an offered fifth stone starts (`offer=h9`).
const OFFER_WORD: &str = "offer=";

impl fmt::Display for GomokuMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GomokuMove::Stone(cell) => cell.fmt(f),
            GomokuMove::Take(colour) => f.write_str(COLOUR_WORDS[colour.index()]),
            GomokuMove::Declare(count) => write!(f, "{DECLARE_WORD}{count}"),
            GomokuMove::Offer(cell) => write!(f, "{OFFER_WORD}{cell}"),
        }
    }
}

/// A gomoku game: the stones, the side to move and the moves played.
#[derive(Clone, Debug)]
pub struct Gomoku {
    rules: GomokuRules,
    board: Board,
    /// The colour of the next stone ([`Side::First`] black).
    to_move: Side,
    hash: u64,
    /// Moves played since the start, opening steps included.
    played: Vec<GomokuMove>,
    /// Where the opening stands.
    phase: Phase,
    /// The seat holding black (the first player's, until an opening choice says otherwise).
    black_seat: Side,
    /// The phase and black's seat before each move, for undo.
    before: Vec<(Phase, Side)>,
    /// Soosõrv-8: how many fifth stones White asked for (0 before the declaration).
    declared: u8,
    /// Soosõrv-8: the points of the fifth stones offered so far, in order.
    offers: Vec<usize>,
    empty_points: usize,
    /// A stone of the winning line, when the game is won.
    win: Option<Win>,
    /// The win already on the board the game was read from, if any.
    start_win: Option<Win>,
}

/// Who won, and a point of the winning line to find it again from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Win {
    winner: Side,
    point: usize,
}

impl Gomoku {
    /// Reads a game from its moves written one after another (`h8i9j10`), played from the
    /// empty board under `rules`.
    ///
    /// # Errors
    /// [`MoveError::Parse`] when the text is not points of this board and opening words,
    /// [`MoveError::Illegal`] for the first move that may not be played.
    pub fn from_move_string(rules: &GomokuRules, text: &str) -> Result<Gomoku, MoveError> {
        let mut game = Gomoku::start(rules, 0);
        // Points run together, words apart: `h8i9j10 black k11`.
        for word in text.split_whitespace() {
            if let Some(step) = opening_word(&game.board, word) {
                game.apply(step?)?;
                continue;
            }
            for point in notation::read_points(&game.board, word)? {
                game.apply(GomokuMove::Stone(Board::cell(point)))?;
            }
        }
        Ok(game)
    }

    /// The moves played since the start, as one string such as `h8i9j10`; an opening step
    /// stands apart as its word (`h8i9j10 black k11`, `offers=2 offer=j9 offer=g6`).
    #[must_use]
    pub fn move_string(&self) -> String {
        let mut out = String::new();
        let mut after_word = false;
        for &mv in &self.played {
            if !out.is_empty() && (mv.is_word() || after_word) {
                out.push(' ');
            }
            out.push_str(&mv.to_string());
            after_word = mv.is_word();
        }
        out
    }

    /// Soosõrv-8: the fifth stones offered so far, in the order offered (they stay listed
    /// after White's pick, which is the stone on one of them).
    #[must_use]
    pub fn offers(&self) -> Vec<Cell> {
        self.offers.iter().map(|&point| Board::cell(point)).collect()
    }

    /// Soosõrv-8: how many fifth stones White declared (0 before the declaration).
    #[must_use]
    pub const fn declared_offers(&self) -> u8 {
        self.declared
    }

    /// How many stones have been put since the start.
    fn stones_played(&self) -> usize {
        self.played.iter().filter(|mv| mv.point().is_some()).count()
    }

    /// The colour of the next stone ([`Side::First`] black), whoever plays it. In play it is
    /// the colour of the [side to move](Game::side_to_move)'s stones.
    #[must_use]
    pub const fn colour_to_move(&self) -> Side {
        self.to_move
    }

    /// Where the opening stands ([`Phase::Play`] once it is over, or without an opening rule).
    #[must_use]
    pub const fn phase(&self) -> Phase {
        self.phase
    }

    /// The colour `seat` plays ([`Side::First`] black): before an opening choice, the first
    /// player's is black.
    #[must_use]
    pub fn colour_of(&self, seat: Side) -> Side {
        if seat == self.black_seat { Side::First } else { Side::Second }
    }

    /// The seat holding `colour`.
    fn seat_of(&self, colour: Side) -> Side {
        if colour == Side::First { self.black_seat } else { self.black_seat.other() }
    }

    /// The stone on `cell`: `Some(side)` for a stone, `None` for an empty point or off the board.
    #[must_use]
    pub fn stone_at(&self, cell: Cell) -> Option<Side> {
        match self.board.at(self.board.index(cell)?) {
            Stone::Black => Some(Side::First),
            Stone::White => Some(Side::Second),
            Stone::Empty | Stone::Wall => None,
        }
    }

    /// Builds a game over `board`, computing its hash, counts and any win already on it.
    fn over_board(rules: GomokuRules, board: Board, to_move: Side) -> Gomoku {
        let mut hash = if to_move == Side::Second { WHITE_TO_MOVE_KEY } else { 0 };
        let mut empty_points = 0;
        for point in board.points() {
            match board.at(point) {
                Stone::Black => hash ^= stone_key(Side::First, point),
                Stone::White => hash ^= stone_key(Side::Second, point),
                Stone::Empty | Stone::Wall => empty_points += 1,
            }
        }
        // An opening rule starts on the empty board; a game read from a position is past it.
        let empty = board.count(Stone::Black) + board.count(Stone::White) == 0;
        let phase = if empty { Phase::start(rules.opening) } else { Phase::Play };
        let mut game = Gomoku {
            rules,
            board,
            to_move,
            hash,
            played: Vec::new(),
            phase,
            black_seat: Side::First,
            before: Vec::new(),
            declared: 0,
            offers: Vec::new(),
            empty_points,
            win: None,
            start_win: None,
        };
        game.start_win = game.find_win();
        game.win = game.start_win;
        game
    }

    /// Any winning line on the board, for positions read from text.
    fn find_win(&self) -> Option<Win> {
        self.board.points().find_map(|point| {
            let winner = match self.board.at(point) {
                Stone::Black => Side::First,
                Stone::White => Side::Second,
                Stone::Empty | Stone::Wall => return None,
            };
            self.winning_line(point, winner).map(|_| Win { winner, point })
        })
    }

    /// The winning line of `side` through `point` (which holds, or is about to hold, a stone of
    /// `side`): its first point, step and length.
    fn winning_line(&self, point: usize, side: Side) -> Option<(usize, usize, usize)> {
        DIRECTIONS.into_iter().find_map(|step| {
            let (start, length) = self.board.run(point, step, Stone::of(side));
            let wins = self.rules.rule.wins(side, length)
                && !(self.rules.rule == WinRule::Caro
                    && self.closed_at_both_ends(start, step, length, side));
            wins.then_some((start, step, length))
        })
    }

    /// Caro: whether the opponent's stones stand at both ends of the run of `length` from
    /// `start` along `step` (the wall around the board is not a stone).
    fn closed_at_both_ends(&self, start: usize, step: usize, length: usize, side: Side) -> bool {
        let theirs = Stone::of(side.other());
        // The wall around the board keeps both neighbours inside the array.
        self.board.at(start - step) == theirs && self.board.at(start + length * step) == theirs
    }

    /// Whether the game is over by a win or a full board: no stone may be played.
    fn finished(&self) -> bool {
        self.win.is_some() || self.empty_points == 0
    }

    /// Whether the side to move may put a stone on the empty point `point`, and why not.
    fn judge_empty_point(&self, point: usize) -> Result<(), IllegalReason> {
        let renju_black = self.rules.rule == WinRule::Renju && self.to_move == Side::First;
        if renju_black && let Some(reason) = renju::forbidden(&self.board, point) {
            return Err(reason);
        }
        Ok(())
    }

    /// What the opening asks for now when only one kind of step will do, as the reason
    /// another kind is refused.
    fn due(&self) -> Option<IllegalReason> {
        match self.phase {
            Phase::Choose if self.rules.opening == OpeningRule::Swap2 => None,
            Phase::Choose | Phase::ChooseAgain | Phase::ChooseAfterFourth => {
                Some(IllegalReason::ChoiceDue)
            }
            Phase::Declare => Some(IllegalReason::OfferCountDue),
            Phase::Offer => Some(IllegalReason::OffersDue),
            Phase::Select => Some(IllegalReason::ChooseOffer),
            Phase::FirstThree | Phase::Fifth | Phase::Fourth | Phase::Play => None,
        }
    }

    /// Why the side to move may not play `mv`, or `Ok` when it may.
    fn judge(&self, mv: GomokuMove) -> Result<(), IllegalReason> {
        if self.finished() {
            return Err(IllegalReason::GameOver);
        }
        let wrong_step = |otherwise| Err(self.due().unwrap_or(otherwise));
        match mv {
            GomokuMove::Take(_) if self.phase.takes_colour() => Ok(()),
            GomokuMove::Take(_) => wrong_step(IllegalReason::NoChoiceDue),
            GomokuMove::Declare(count) if self.phase == Phase::Declare => {
                let fits = (1..=MAX_OFFERS).contains(&count);
                if fits { Ok(()) } else { Err(IllegalReason::OfferCountOutOfRange) }
            }
            GomokuMove::Declare(_) => wrong_step(IllegalReason::NoOfferDue),
            GomokuMove::Offer(cell) if self.phase == Phase::Offer => {
                let point = self.empty_point(cell)?;
                if self.offer_mirrored(point) {
                    return Err(IllegalReason::OfferMirrored);
                }
                self.judge_empty_point(point)
            }
            GomokuMove::Offer(_) => wrong_step(IllegalReason::NoOfferDue),
            GomokuMove::Stone(_) if !self.phase.takes_stone(self.rules.opening) => {
                wrong_step(IllegalReason::ChoiceDue)
            }
            GomokuMove::Stone(cell) if self.phase == Phase::Select => {
                let point = self.board.index(cell).ok_or(IllegalReason::OffBoard)?;
                if self.offers.contains(&point) { Ok(()) } else { Err(IllegalReason::ChooseOffer) }
            }
            GomokuMove::Stone(cell) => {
                let point = self.empty_point(cell)?;
                if self.outside_opening_area(point) {
                    return Err(IllegalReason::OutsideOpeningArea);
                }
                self.judge_empty_point(point)
            }
        }
    }

    /// The index of `cell` when it is an empty point of the board.
    fn empty_point(&self, cell: Cell) -> Result<usize, IllegalReason> {
        let point = self.board.index(cell).ok_or(IllegalReason::OffBoard)?;
        if self.board.at(point) == Stone::Empty {
            Ok(point)
        } else {
            Err(IllegalReason::PointOccupied)
        }
    }

    /// Soosõrv-8: whether `point` lies outside the square the next opening stone must stand in.
    fn outside_opening_area(&self, point: usize) -> bool {
        if self.rules.opening != OpeningRule::Soosorv8 || self.phase != Phase::FirstThree {
            return false;
        }
        let centre = i32::from(self.rules.size() / 2);
        let cell = Board::cell(point);
        let away = (i32::from(cell.file) - centre).abs().max((i32::from(cell.rank) - centre).abs());
        away as usize > opening::opening_reach(self.stones_played() + 1)
    }

    /// Soosõrv-8: whether `point`, or its image by a symmetry of the board that leaves every
    /// stone where it is, is already offered (two such fifth stones are the same offer).
    fn offer_mirrored(&self, point: usize) -> bool {
        let size = self.rules.size();
        let stones: Vec<usize> =
            self.board.points().filter(|&p| self.board.at(p) != Stone::Empty).collect();
        (0..8).any(|symmetry| {
            let image = |p: usize| self.board.index(mirror(Board::cell(p), size, symmetry));
            let keeps_stones = stones
                .iter()
                .all(|&p| image(p).is_some_and(|i| self.board.at(i) == self.board.at(p)));
            keeps_stones && image(point).is_some_and(|i| self.offers.contains(&i))
        })
    }
}

/// `cell` under the `symmetry`-th (0-7) symmetry of a square board of `size` points a side:
/// bit 0 mirrors the files, bit 1 the ranks, bit 2 the diagonal. 0 leaves it where it is.
fn mirror(cell: Cell, size: u8, symmetry: u8) -> Cell {
    let last = size - 1;
    let (mut file, mut rank) = (cell.file, cell.rank);
    if symmetry & 4 != 0 {
        (file, rank) = (rank, file);
    }
    if symmetry & 1 != 0 {
        file = last - file;
    }
    if symmetry & 2 != 0 {
        rank = last - rank;
    }
    Cell::new(file, rank)
}

/// An opening step written as a word (`black`, `offers=4`, `offer=h9`, any case): `None` when
/// `word` is not one, else the step or why it does not read.
fn opening_word(board: &Board, word: &str) -> Option<Result<GomokuMove, ParseMoveError>> {
    if let Some(colour) = colour_word(word) {
        return Some(Ok(GomokuMove::Take(colour)));
    }
    let lower = word.trim().to_ascii_lowercase();
    if let Some(count) = lower.strip_prefix(DECLARE_WORD) {
        return Some(
            count
                .parse::<u8>()
                .map(GomokuMove::Declare)
                .map_err(|_| ParseMoveError::syntax(word, "offers= and a number, as offers=4")),
        );
    }
    let point = lower.strip_prefix(OFFER_WORD)?;
    Some(notation::read_point(board, point).map(|p| GomokuMove::Offer(Board::cell(p))))
}

/// The colour a choice word names (`black`, `white`, any case).
fn colour_word(word: &str) -> Option<Side> {
    COLOUR_WORDS
        .iter()
        .position(|w| w.eq_ignore_ascii_case(word.trim()))
        .map(|i| if i == 0 { Side::First } else { Side::Second })
}

impl Game for Gomoku {
    type Move = GomokuMove;
    type Rules = GomokuRules;
    const KIND: GameKind = GameKind::Gomoku;

    fn start(rules: &GomokuRules, _seed: u64) -> Gomoku {
        Gomoku::over_board(*rules, Board::empty(rules.size()), Side::First)
    }

    fn from_position(rules: &GomokuRules, text: &str) -> Result<Gomoku, ParsePositionError> {
        let (board, to_move) = notation::read_position(rules.size(), text)?;
        let (black, white) = (board.count(Stone::Black), board.count(Stone::White));
        let expected_black = if to_move == Side::First { white } else { white + 1 };
        if black != expected_black {
            let mover = if to_move == Side::First { "Black" } else { "White" };
            let detail = format!("{black} black and {white} white stones with {mover} to move");
            return Err(ParsePositionError::impossible(detail));
        }
        let game = Gomoku::over_board(*rules, board, to_move);
        if let Some(win) = game.win {
            if win.winner == to_move {
                return Err(ParsePositionError::impossible("the side to move has already won"));
            }
            if game.board.points().any(|p| {
                game.board.at(p) == Stone::of(to_move) && game.winning_line(p, to_move).is_some()
            }) {
                return Err(ParsePositionError::impossible("both sides have a winning line"));
            }
        }
        Ok(game)
    }

    fn position(&self) -> String {
        notation::write_position(&self.board, self.to_move)
    }

    fn rules(&self) -> &GomokuRules {
        &self.rules
    }

    /// The seat to act: in play the holder of the next stone's colour; in the opening the
    /// seat the phase names (see [`OpeningRule`]).
    fn side_to_move(&self) -> Side {
        match self.phase.actor(self.to_move) {
            Actor::Seat(seat) => seat,
            Actor::Holder(colour) => self.seat_of(colour),
        }
    }

    fn legal_moves_into(&self, moves: &mut Vec<GomokuMove>) {
        if self.finished() {
            return;
        }
        let empty = || self.board.points().filter(|&p| self.board.at(p) == Stone::Empty);
        match self.phase {
            Phase::Declare => {
                moves.extend((1..=MAX_OFFERS).map(GomokuMove::Declare));
                return;
            }
            Phase::Offer => {
                let offers = empty()
                    .filter(|&p| !self.offer_mirrored(p) && self.judge_empty_point(p).is_ok());
                moves.extend(offers.map(|p| GomokuMove::Offer(Board::cell(p))));
                return;
            }
            Phase::Select => {
                moves.extend(self.offers.iter().map(|&p| GomokuMove::Stone(Board::cell(p))));
                return;
            }
            _ => {}
        }
        if self.phase.takes_colour() {
            moves.extend([GomokuMove::Take(Side::First), GomokuMove::Take(Side::Second)]);
        }
        if !self.phase.takes_stone(self.rules.opening) {
            return;
        }
        for point in empty() {
            if !self.outside_opening_area(point) && self.judge_empty_point(point).is_ok() {
                moves.push(GomokuMove::Stone(Board::cell(point)));
            }
        }
    }

    /// A stone's or an offer's point; for a colour choice or a declaration, the last stone's
    /// (where the eye already is).
    fn move_cells(&self, mv: GomokuMove) -> MoveCells {
        let to = match mv {
            GomokuMove::Stone(cell) | GomokuMove::Offer(cell) => cell,
            GomokuMove::Take(_) | GomokuMove::Declare(_) => {
                let last = self.played.iter().rev().find_map(|mv| mv.point());
                last.unwrap_or(Cell::new(0, 0))
            }
        };
        MoveCells { from: None, to }
    }

    fn check(&self, mv: GomokuMove) -> Result<(), IllegalMove> {
        self.judge(mv).map_err(|reason| IllegalMove::new(reason, mv.to_string()))
    }

    fn play_unchecked(&mut self, mv: GomokuMove) {
        let cell = match mv {
            GomokuMove::Stone(cell) => cell,
            GomokuMove::Take(colour) => {
                let chooser = self.side_to_move();
                self.before.push((self.phase, self.black_seat));
                self.black_seat = opening::black_seat_after(chooser, colour);
                self.phase = self.phase.after_take(self.rules.opening);
                self.played.push(mv);
                return;
            }
            GomokuMove::Declare(count) => {
                self.before.push((self.phase, self.black_seat));
                self.declared = count;
                self.phase = Phase::ChooseAfterFourth;
                self.played.push(mv);
                return;
            }
            GomokuMove::Offer(cell) => {
                let Some(point) = self.board.index(cell) else { return };
                self.before.push((self.phase, self.black_seat));
                self.offers.push(point);
                if self.offers.len() >= usize::from(self.declared) {
                    self.phase = Phase::Select;
                }
                self.played.push(mv);
                return;
            }
        };
        let Some(point) = self.board.index(cell) else { return };
        let side = self.to_move;
        if self.board.at(point) != Stone::Empty {
            return;
        }
        self.before.push((self.phase, self.black_seat));
        self.phase = self.phase.after_stone(self.stones_played() + 1);
        self.board.put(point, Stone::of(side));
        self.hash ^= stone_key(side, point) ^ WHITE_TO_MOVE_KEY;
        self.played.push(mv);
        self.empty_points -= 1;
        if self.winning_line(point, side).is_some() {
            self.win = Some(Win { winner: side, point });
        }
        self.to_move = side.other();
    }

    fn undo(&mut self) -> Option<GomokuMove> {
        let mv = self.played.pop()?;
        if let Some((phase, black_seat)) = self.before.pop() {
            (self.phase, self.black_seat) = (phase, black_seat);
        }
        let cell = match mv {
            GomokuMove::Stone(cell) => cell,
            GomokuMove::Take(_) => return Some(mv),
            GomokuMove::Declare(_) => {
                self.declared = 0;
                return Some(mv);
            }
            GomokuMove::Offer(_) => {
                self.offers.pop();
                return Some(mv);
            }
        };
        let point = self.board.index(cell)?;
        self.to_move = self.to_move.other();
        self.board.put(point, Stone::Empty);
        self.hash ^= stone_key(self.to_move, point) ^ WHITE_TO_MOVE_KEY;
        self.empty_points += 1;
        // Moves are only legal while the game goes on, so before the last move nobody had won.
        self.win = if self.played.is_empty() { self.start_win } else { None };
        Some(mv)
    }

    fn history(&self) -> Vec<GomokuMove> {
        self.played.clone()
    }

    fn outcome(&self) -> Option<Outcome> {
        if let Some(Win { winner, point }) = self.win {
            let (start, step, length) = self.winning_line(point, winner)?;
            let line = (0..length).map(|i| Board::cell(start + i * step)).collect();
            // The win is a colour's: the seat holding it won.
            let winner = self.seat_of(winner);
            return Some(Outcome { winner: Some(winner), reason: EndReason::FiveInARow, line });
        }
        if self.empty_points == 0 {
            return Some(Outcome::draw(EndReason::BoardFull));
        }
        let renju_black = self.rules.rule == WinRule::Renju && self.to_move == Side::First;
        let stuck = renju_black
            && !self
                .board
                .points()
                .any(|p| self.board.at(p) == Stone::Empty && self.judge_empty_point(p).is_ok());
        stuck.then(|| Outcome::draw(EndReason::NoLegalMoves))
    }

    /// The stones and the colour to move, as the [position string](self#position-string):
    /// neither says where an opening stands (a game read from a position is past its opening).
    fn hash(&self) -> u64 {
        self.hash
    }

    fn parse_move(&self, text: &str) -> Result<GomokuMove, ParseMoveError> {
        ParseMoveError::check_length(text)?;
        if let Some(step) = opening_word(&self.board, text) {
            return step;
        }
        notation::read_point(&self.board, text).map(|point| GomokuMove::Stone(Board::cell(point)))
    }

    fn move_text(&self, mv: GomokuMove) -> String {
        mv.to_string()
    }

    fn move_notation(&self, mv: GomokuMove) -> String {
        mv.to_string()
    }
}

#[cfg(test)]
mod tests;
