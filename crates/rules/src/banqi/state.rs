//! The banqi position, the deal, playing and taking back moves, and the [`Game`] impl.

use crate::core::{
    Cell, EndReason, Game, GameKind, IllegalMove, IllegalReason, MoveCells, Outcome,
    ParseMoveError, ParsePositionError, Side,
};
use crate::zobrist;

use super::{
    BanqiMove, BanqiRules, Colour, Piece, SQUARES, Square, cell_of, colour_of, index_of, on_board,
};

/// Zobrist keys: face-up piece per square, face-down per square, side, first colour, chain.
const UP_KEYS: usize = 0;
const DOWN_KEYS: usize = 14 * SQUARES;
const SIDE_KEY: usize = DOWN_KEYS + SQUARES;
const COLOUR_KEYS: usize = SIDE_KEY + 1;
const CHAIN_KEYS: usize = COLOUR_KEYS + 2;
const KEY_COUNT: usize = CHAIN_KEYS + SQUARES;
static KEYS: zobrist::LazyKeys<KEY_COUNT> = zobrist::LazyKeys::new(0xBA9_0001);

/// The hash key of what a square holds; face-down pieces all hash alike.
pub(super) fn square_key(square: Square, index: usize) -> u64 {
    match square {
        Square::Empty => 0,
        Square::FaceUp(piece) => KEYS.get(UP_KEYS + piece.index() * SQUARES + index),
        Square::Hidden(_) | Square::Unknown => KEYS.get(DOWN_KEYS + index),
    }
}

fn colour_key(first: Option<Colour>) -> u64 {
    first.map_or(0, |colour| KEYS.get(COLOUR_KEYS + colour.index()))
}

fn chain_key(chain: Option<u8>) -> u64 {
    chain.map_or(0, |index| KEYS.get(CHAIN_KEYS + usize::from(index)))
}

fn side_key(side: Side) -> u64 {
    if side == Side::Second { KEYS.get(SIDE_KEY) } else { 0 }
}

/// Everything a move changes, to take it back exactly.
#[derive(Clone, Copy, Debug)]
struct Undo {
    mv: BanqiMove,
    from: Square,
    to: Square,
    side: Side,
    first_colour: Option<Colour>,
    quiet_plies: u16,
    chain: Option<u8>,
    unknown_pool: [u8; 14],
    pieces_left: [u8; 2],
    hash: u64,
}

/// A banqi game: the position, its rules and the moves played.
#[derive(Clone, Debug)]
pub struct Banqi {
    pub(super) rules: BanqiRules,
    pub(super) board: [Square; SQUARES],
    pub(super) side: Side,
    pub(super) first_colour: Option<Colour>,
    pub(super) quiet_plies: u16,
    /// The square of the piece in the middle of a chain capture.
    pub(super) chain: Option<u8>,
    /// How many of each piece stand face down on the [`Square::Unknown`] squares.
    pub(super) unknown_pool: [u8; 14],
    /// Pieces of each colour still in the game, face up or down.
    pub(super) pieces_left: [u8; 2],
    pub(super) hash: u64,
    history: Vec<Undo>,
}

/// A small deterministic generator (SplitMix64), so a seed deals alike on every platform.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        zobrist::splitmix64(self.0)
    }

    /// A number below `bound` (> 0), by multiply-shift.
    fn below(&mut self, bound: usize) -> usize {
        ((u128::from(self.next()) * bound as u128) >> 64) as usize
    }
}

/// The face-down deal for `seed` under `rules`: the same as [`Game::start`].
#[must_use]
pub fn deal(rules: &BanqiRules, seed: u64) -> Banqi {
    let mut pieces = Vec::with_capacity(SQUARES);
    for piece in Piece::ALL {
        pieces.extend(std::iter::repeat_n(piece, usize::from(piece.role.count())));
    }
    let mut rng = SplitMix64(seed);
    for i in (1..pieces.len()).rev() {
        pieces.swap(i, rng.below(i + 1));
    }
    let mut board = [Square::Empty; SQUARES];
    for (square, piece) in board.iter_mut().zip(pieces) {
        *square = Square::Hidden(piece);
    }
    Banqi::from_parts(*rules, board, Side::First, None, 0, [0; 14], None)
}

impl Banqi {
    /// Builds a game from checked parts, counting the pieces and computing the hash.
    pub(super) fn from_parts(
        rules: BanqiRules,
        board: [Square; SQUARES],
        side: Side,
        first_colour: Option<Colour>,
        quiet_plies: u16,
        unknown_pool: [u8; 14],
        chain: Option<u8>,
    ) -> Banqi {
        let mut pieces_left = [0u8; 2];
        for square in board {
            if let Square::FaceUp(piece) | Square::Hidden(piece) = square {
                pieces_left[piece.colour.index()] += 1;
            }
        }
        for (piece, count) in Piece::ALL.iter().zip(unknown_pool) {
            pieces_left[piece.colour.index()] += count;
        }
        let mut game = Banqi {
            rules,
            board,
            side,
            first_colour,
            quiet_plies,
            chain,
            unknown_pool,
            pieces_left,
            hash: 0,
            history: Vec::new(),
        };
        game.hash = game.full_hash();
        game
    }

    /// The hash computed from scratch.
    pub(super) fn full_hash(&self) -> u64 {
        let squares = self.board.iter().enumerate().map(|(i, &sq)| square_key(sq, i));
        squares.fold(0, |h, key| h ^ key)
            ^ side_key(self.side)
            ^ colour_key(self.first_colour)
            ^ chain_key(self.chain)
    }

    /// What `cell` holds (`Empty` off the board).
    #[must_use]
    pub fn square(&self, cell: Cell) -> Square {
        if on_board(cell) { self.board[index_of(cell)] } else { Square::Empty }
    }

    /// The colour `side` plays, once the first flip has decided it.
    #[must_use]
    pub fn colour_of(&self, side: Side) -> Option<Colour> {
        self.first_colour.map(|first| colour_of(side, first))
    }

    /// Plies since the last flip or capture.
    #[must_use]
    pub fn quiet_plies(&self) -> u32 {
        u32::from(self.quiet_plies)
    }

    /// The square of the piece in the middle of a chain capture (it must capture again or stop).
    #[must_use]
    pub fn chain_square(&self) -> Option<Cell> {
        self.chain.map(|index| cell_of(usize::from(index)))
    }

    /// How many of each piece (indexed by [`Piece::index`]) stand on the unknown squares.
    #[must_use]
    pub fn unknown_pool(&self) -> [u8; 14] {
        self.unknown_pool
    }

    /// How many of each piece (indexed by [`Piece::index`]) are face down, known or not.
    #[must_use]
    pub fn face_down_pool(&self) -> [u8; 14] {
        let mut pool = self.unknown_pool;
        for square in self.board {
            if let Square::Hidden(piece) = square {
                pool[piece.index()] += 1;
            }
        }
        pool
    }

    /// How many of each piece (indexed by [`Piece::index`]) have been captured: the full set
    /// less what stands on the board, face up or face down. Public knowledge in banqi, since
    /// every capture is seen (the piece taken is face up, or turned up as it leaves).
    #[must_use]
    pub fn captured(&self) -> [u8; 14] {
        let mut left = self.face_down_pool();
        for square in self.board {
            if let Square::FaceUp(piece) = square {
                left[piece.index()] += 1;
            }
        }
        Piece::ALL.map(|piece| piece.role.count().saturating_sub(left[piece.index()]))
    }

    /// A copy with every face-down identity erased (moved into the unknown pool) and no history:
    /// what a server sends to a client. The hash and the legal moves are unchanged.
    #[must_use]
    pub fn conceal(&self) -> Banqi {
        let mut concealed = self.clone();
        for square in &mut concealed.board {
            if let Square::Hidden(piece) = *square {
                concealed.unknown_pool[piece.index()] += 1;
                *square = Square::Unknown;
            }
        }
        concealed.history.clear();
        concealed
    }

    /// Plays a flip, giving the identity of the piece if this state does not know it.
    ///
    /// # Errors
    /// As [`Banqi::apply_revealing`].
    pub fn apply_flip(&mut self, cell: Cell, piece: Piece) -> Result<(), IllegalMove> {
        self.apply_revealing(BanqiMove::Flip(cell), piece)
    }

    /// Plays a move that reveals a face-down piece (a flip, or with `capture_hidden` a cannon
    /// capturing a face-down piece), with `piece` the revealed identity.
    ///
    /// # Errors
    /// What [`Game::check`] says; [`IllegalReason::FlipResultImpossible`] when `piece` is not
    /// among the face-down pieces it could be; [`IllegalReason::WrongMovement`] when the move
    /// reveals nothing.
    pub fn apply_revealing(&mut self, mv: BanqiMove, piece: Piece) -> Result<(), IllegalMove> {
        self.check(mv)?;
        let illegal = |reason| IllegalMove::new(reason, self.move_text(mv));
        let target = match mv {
            BanqiMove::Flip(cell) | BanqiMove::Step { to: cell, .. } => index_of(cell),
            BanqiMove::Stop => return Err(illegal(IllegalReason::WrongMovement)),
        };
        match self.board[target] {
            Square::Hidden(known) if known == piece => self.play_unchecked(mv),
            Square::Hidden(_) => return Err(illegal(IllegalReason::FlipResultImpossible)),
            Square::Unknown if self.unknown_pool[piece.index()] == 0 => {
                return Err(illegal(IllegalReason::FlipResultImpossible));
            }
            Square::Unknown => self.play_revealing(mv, target, Some(piece)),
            Square::Empty | Square::FaceUp(_) => return Err(illegal(IllegalReason::WrongMovement)),
        }
        Ok(())
    }

    /// Whether the square a move ends on is face down with its identity unknown here.
    fn turns_up_unknown(&self, mv: BanqiMove) -> bool {
        match mv {
            BanqiMove::Flip(cell) | BanqiMove::Step { to: cell, .. } => {
                on_board(cell) && self.board[index_of(cell)] == Square::Unknown
            }
            BanqiMove::Stop => false,
        }
    }

    /// Plays `mv`, first putting `revealed` on the unknown square `target` (if given).
    fn play_revealing(&mut self, mv: BanqiMove, target: usize, revealed: Option<Piece>) {
        self.history.push(self.snapshot(mv));
        if let Some(piece) = revealed {
            self.board[target] = Square::Hidden(piece);
            self.unknown_pool[piece.index()] -= 1;
        }
        match mv {
            BanqiMove::Flip(cell) => self.play_flip(index_of(cell)),
            BanqiMove::Step { from, to } => self.play_step(index_of(from), index_of(to)),
            BanqiMove::Stop => self.end_turn(),
        }
    }

    fn snapshot(&self, mv: BanqiMove) -> Undo {
        let (from, to) = match mv {
            BanqiMove::Flip(cell) => (cell, cell),
            BanqiMove::Step { from, to } => (from, to),
            BanqiMove::Stop => (Cell::new(0, 0), Cell::new(0, 0)),
        };
        Undo {
            mv,
            from: self.square(from),
            to: self.square(to),
            side: self.side,
            first_colour: self.first_colour,
            quiet_plies: self.quiet_plies,
            chain: self.chain,
            unknown_pool: self.unknown_pool,
            pieces_left: self.pieces_left,
            hash: self.hash,
        }
    }

    fn play_flip(&mut self, index: usize) {
        if let Square::Hidden(piece) = self.board[index] {
            self.board[index] = Square::FaceUp(piece);
            self.hash ^= square_key(Square::Unknown, index) ^ square_key(self.board[index], index);
            if self.first_colour.is_none() {
                let first =
                    if self.side == Side::First { piece.colour } else { piece.colour.other() };
                self.first_colour = Some(first);
                self.hash ^= colour_key(self.first_colour);
            }
        }
        self.quiet_plies = 0;
        self.end_turn();
    }

    fn play_step(&mut self, from: usize, to: usize) {
        let mover = self.board[from];
        let target = self.board[to];
        self.hash ^= square_key(mover, from) ^ square_key(target, to) ^ square_key(mover, to);
        self.board[to] = mover;
        self.board[from] = Square::Empty;
        if !target.is_occupied() {
            self.quiet_plies = self.quiet_plies.saturating_add(1);
            self.end_turn();
            return;
        }
        if let Square::FaceUp(piece) | Square::Hidden(piece) = target {
            let left = &mut self.pieces_left[piece.colour.index()];
            *left = left.saturating_sub(1);
        }
        self.quiet_plies = 0;
        let to_byte = to as u8;
        if self.rules.chain && self.can_capture_from(to_byte) && !self.opponent_out_of_pieces() {
            self.hash ^= chain_key(self.chain) ^ chain_key(Some(to_byte));
            self.chain = Some(to_byte);
        } else {
            self.end_turn();
        }
    }

    fn opponent_out_of_pieces(&self) -> bool {
        self.colour_of(self.side.other())
            .is_some_and(|colour| self.pieces_left[colour.index()] == 0)
    }

    /// Passes the turn, ending any chain capture.
    fn end_turn(&mut self) {
        self.hash ^= chain_key(self.chain) ^ side_key(self.side) ^ side_key(self.side.other());
        self.chain = None;
        self.side = self.side.other();
    }

    /// The outcome from the piece counts and the no-progress count, before looking for moves.
    fn outcome_without_moves(&self) -> Option<Outcome> {
        if let Some(mine) = self.colour_of(self.side) {
            if self.pieces_left[mine.index()] == 0 {
                return Some(Outcome::win(self.side.other(), EndReason::NoPieces));
            }
            if self.pieces_left[mine.other().index()] == 0 {
                return Some(Outcome::win(self.side, EndReason::NoPieces));
            }
        }
        (u32::from(self.quiet_plies) >= self.rules.draw)
            .then(|| Outcome::draw(EndReason::NoProgress))
    }
}

impl Game for Banqi {
    type Move = BanqiMove;
    type Rules = BanqiRules;

    const KIND: GameKind = GameKind::Banqi;

    fn start(rules: &BanqiRules, seed: u64) -> Banqi {
        deal(rules, seed)
    }

    fn from_position(rules: &BanqiRules, text: &str) -> Result<Banqi, ParsePositionError> {
        Banqi::from_position_text(rules, text)
    }

    fn position(&self) -> String {
        self.position_text()
    }

    fn rules(&self) -> &BanqiRules {
        &self.rules
    }

    fn side_to_move(&self) -> Side {
        self.side
    }

    fn legal_moves_into(&self, moves: &mut Vec<BanqiMove>) {
        if self.outcome_without_moves().is_none() {
            self.generate(moves);
        }
    }

    fn move_cells(&self, mv: BanqiMove) -> MoveCells {
        match mv {
            BanqiMove::Flip(cell) => MoveCells { from: Some(cell), to: cell },
            BanqiMove::Step { from, to } => MoveCells { from: Some(from), to },
            BanqiMove::Stop => {
                MoveCells { from: None, to: self.chain_square().unwrap_or(Cell::new(0, 0)) }
            }
        }
    }

    fn check(&self, mv: BanqiMove) -> Result<(), IllegalMove> {
        if self.outcome().is_some() {
            return Err(IllegalMove::new(IllegalReason::GameOver, self.move_text(mv)));
        }
        self.judge(mv).map_err(|reason| IllegalMove::new(reason, self.move_text(mv)))
    }

    /// A flip of an [`Square::Unknown`] piece, or a cannon's capture of one (under
    /// `capture_hidden`), that `check` accepts.
    fn reveals_unknown(&self, mv: BanqiMove) -> bool {
        self.turns_up_unknown(mv) && self.check(mv).is_ok()
    }

    /// Checks and plays `mv`; a move revealing an unknown face-down piece is refused with
    /// [`IllegalReason::FlipResultUnknown`] (use [`Banqi::apply_revealing`]).
    fn apply(&mut self, mv: BanqiMove) -> Result<(), IllegalMove> {
        self.check(mv)?;
        if self.turns_up_unknown(mv) {
            return Err(IllegalMove::new(IllegalReason::FlipResultUnknown, self.move_text(mv)));
        }
        self.play_unchecked(mv);
        Ok(())
    }

    fn play_unchecked(&mut self, mv: BanqiMove) {
        let in_board = match mv {
            BanqiMove::Flip(cell) => on_board(cell),
            BanqiMove::Step { from, to } => on_board(from) && on_board(to),
            BanqiMove::Stop => true,
        };
        if in_board {
            self.play_revealing(mv, 0, None);
        }
    }

    fn undo(&mut self) -> Option<BanqiMove> {
        let undo = self.history.pop()?;
        match undo.mv {
            BanqiMove::Flip(cell) => self.board[index_of(cell)] = undo.from,
            BanqiMove::Step { from, to } => {
                self.board[index_of(from)] = undo.from;
                self.board[index_of(to)] = undo.to;
            }
            BanqiMove::Stop => {}
        }
        self.side = undo.side;
        self.first_colour = undo.first_colour;
        self.quiet_plies = undo.quiet_plies;
        self.chain = undo.chain;
        self.unknown_pool = undo.unknown_pool;
        self.pieces_left = undo.pieces_left;
        self.hash = undo.hash;
        Some(undo.mv)
    }

    fn history(&self) -> Vec<BanqiMove> {
        self.history.iter().map(|undo| undo.mv).collect()
    }

    fn outcome(&self) -> Option<Outcome> {
        if let Some(outcome) = self.outcome_without_moves() {
            return Some(outcome);
        }
        (!self.has_legal_move()).then(|| Outcome::win(self.side.other(), EndReason::NoLegalMoves))
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn parse_move(&self, text: &str) -> Result<BanqiMove, ParseMoveError> {
        BanqiMove::parse(text)
    }

    fn move_text(&self, mv: BanqiMove) -> String {
        mv.text(false)
    }

    fn move_notation(&self, mv: BanqiMove) -> String {
        let capture = match mv {
            BanqiMove::Step { to, .. } => self.square(to).is_occupied(),
            _ => false,
        };
        mv.text(capture)
    }
}
