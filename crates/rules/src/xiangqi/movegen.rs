//! Legal move generation, attack detection and perft.
//!
//! Speed comes from testing few moves: when the side to move is not in check, a move of a piece
//! other than the general can only expose the general if it starts or ends on a "risky" square:
//! a ray from the general that has an enemy chariot/general as its second piece or an enemy cannon
//! as its first or third piece, or a horse-leg point next to the general with an enemy horse
//! behind it. Only those moves, general moves, and all moves while in check are tested by playing
//! them on the mailbox.

use super::board::{
    Board, EMPTY, KIND, OFF, OWN_HALF, PALACE, Piece, SLOT_PIECE, STRIDE, kind, side_bit,
};

/// The four orthogonal steps.
pub(crate) const ORTHO: [u8; 4] = [1, 255, STRIDE, 0u8.wrapping_sub(STRIDE)];
/// The four diagonal steps.
pub(crate) const DIAG: [u8; 4] =
    [STRIDE + 1, STRIDE - 1, 0u8.wrapping_sub(STRIDE - 1), 0u8.wrapping_sub(STRIDE + 1)];

/// One step forward for a side's soldiers.
#[inline]
pub(crate) const fn forward(side: usize) -> u8 {
    if side == 0 { STRIDE } else { 0u8.wrapping_sub(STRIDE) }
}

#[inline]
fn step(sq: u8, d: u8) -> u8 {
    sq.wrapping_add(d)
}

/// Receives generated moves: a list, or a counter for bulk counting.
pub(crate) trait Sink {
    /// Takes one legal move.
    fn push(&mut self, from: u8, to: u8);
}

/// A fixed-capacity list of moves (no position has more than 128 pseudo-legal moves).
pub(crate) struct MoveList {
    pub moves: [(u8, u8); 128],
    pub len: usize,
}

impl MoveList {
    pub fn new() -> MoveList {
        MoveList { moves: [(0, 0); 128], len: 0 }
    }
    pub fn as_slice(&self) -> &[(u8, u8)] {
        &self.moves[..self.len]
    }
}

impl Sink for MoveList {
    #[inline]
    fn push(&mut self, from: u8, to: u8) {
        if let Some(slot) = self.moves.get_mut(self.len) {
            *slot = (from, to);
            self.len += 1;
        }
    }
}

/// Counts moves without storing them.
pub(crate) struct Counter(pub u64);

impl Sink for Counter {
    #[inline]
    fn push(&mut self, _: u8, _: u8) {
        self.0 += 1;
    }
}

/// A set of mailbox squares.
#[derive(Clone, Copy, Default)]
struct SquareSet([u64; 4]);

impl SquareSet {
    #[inline]
    fn insert(&mut self, sq: u8) {
        self.0[(sq >> 6) as usize] |= 1 << (sq & 63);
    }
    #[inline]
    fn contains(&self, sq: u8) -> bool {
        self.0[(sq >> 6) as usize] >> (sq & 63) & 1 != 0
    }
}

/// The first piece at or beyond `sq` along `d` (may be the OFF sentinel).
#[inline]
fn next_piece(cells: &[u8; 256], mut sq: u8, d: u8) -> u8 {
    while cells[sq as usize] == EMPTY {
        sq = step(sq, d);
    }
    sq
}

impl Board {
    /// Whether `side`'s general, standing on `general`, is attacked (flying general included).
    #[inline]
    pub fn attacked(&self, side: usize, general: u8) -> bool {
        let cells = &self.cells;
        let them = side ^ 1;
        let (chariot, cannon, enemy_general) =
            (kind(them, Piece::Chariot), kind(them, Piece::Cannon), kind(them, Piece::General));
        for d in ORTHO {
            let first = next_piece(cells, step(general, d), d);
            let k = KIND[cells[first as usize] as usize];
            if k == chariot || k == enemy_general {
                return true;
            }
            if cells[first as usize] != OFF {
                let second = next_piece(cells, step(first, d), d);
                if KIND[cells[second as usize] as usize] == cannon {
                    return true;
                }
            }
        }
        let horse = kind(them, Piece::Horse);
        for d in DIAG {
            let leg = step(general, d);
            if cells[leg as usize] == EMPTY {
                let (a, b) = horse_behind_leg(leg, d);
                if KIND[cells[a as usize] as usize] == horse
                    || KIND[cells[b as usize] as usize] == horse
                {
                    return true;
                }
            }
        }
        let soldier = kind(them, Piece::Soldier);
        [step(general, forward(side)), step(general, 1), step(general, 255)]
            .iter()
            .any(|&sq| KIND[cells[sq as usize] as usize] == soldier)
    }

    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        self.attacked(self.us, self.general(self.us))
    }

    /// Whether `from -> to` leaves the mover's general safe (the move must be pseudo-legal).
    #[inline]
    pub fn is_safe(&mut self, from: u8, to: u8) -> bool {
        let us = self.us;
        let general = if self.cells[from as usize] == side_bit(us) { to } else { self.general(us) };
        let captured = self.cells[to as usize];
        self.cells[to as usize] = self.cells[from as usize];
        self.cells[from as usize] = EMPTY;
        let attacked = self.attacked(us, general);
        self.cells[from as usize] = self.cells[to as usize];
        self.cells[to as usize] = captured;
        !attacked
    }

    /// Whether the generals face each other on an open file.
    pub fn generals_facing(&self) -> bool {
        let red = self.general(0);
        let black = self.general(1);
        if red == 0 || black == 0 || red % STRIDE != black % STRIDE {
            return false;
        }
        next_piece(&self.cells, step(red, STRIDE), STRIDE) == black
    }

    /// Squares where a move of a non-general piece starts or ends may expose the general, or
    /// `None` when the side to move is in check (then every move is tested).
    fn risky_squares(&self) -> Option<SquareSet> {
        let us = self.us;
        let them = us ^ 1;
        let general = self.general(us);
        if self.attacked(us, general) {
            return None;
        }
        let cells = &self.cells;
        let (chariot, cannon, enemy_general) =
            (kind(them, Piece::Chariot), kind(them, Piece::Cannon), kind(them, Piece::General));
        let mut risky = SquareSet::default();
        for d in ORTHO {
            let mut pieces = [0u8; 3];
            let mut sq = general;
            let mut found = 0;
            while found < 3 {
                sq = next_piece(cells, step(sq, d), d);
                if cells[sq as usize] == OFF {
                    break;
                }
                pieces[found] = KIND[cells[sq as usize] as usize];
                found += 1;
            }
            let hot = pieces[0] == cannon
                || pieces[1] == chariot
                || pieces[1] == enemy_general
                || pieces[2] == cannon;
            if hot {
                let mut s = step(general, d);
                while s != sq {
                    risky.insert(s);
                    s = step(s, d);
                }
                risky.insert(sq);
            }
        }
        let horse = kind(them, Piece::Horse);
        for d in DIAG {
            let leg = step(general, d);
            let (a, b) = horse_behind_leg(leg, d);
            if KIND[cells[a as usize] as usize] == horse
                || KIND[cells[b as usize] as usize] == horse
            {
                risky.insert(leg);
            }
        }
        Some(risky)
    }

    /// Generates every legal move of the side to move into `sink`.
    pub fn generate<S: Sink>(&mut self, sink: &mut S) {
        self.generate_where(sink, false);
    }

    /// Generates the legal moves of the side to move into `sink`: only captures when
    /// `captures_only` (engines' quiescence search), else all.
    #[inline]
    pub fn generate_where<S: Sink>(&mut self, sink: &mut S, captures_only: bool) {
        let risky = self.risky_squares();
        let us = self.us;
        for (slot, &piece) in SLOT_PIECE.iter().enumerate() {
            let from = self.slots[us][slot];
            if from == 0 {
                continue;
            }
            let test_all = piece == Piece::General || risky.is_none_or(|r| r.contains(from));
            let mut emit = |board: &mut Board, to: u8| {
                if captures_only && board.cells[to as usize] == EMPTY {
                    return;
                }
                let must_test = test_all || risky.is_some_and(|r| r.contains(to));
                if !must_test || board.is_safe(from, to) {
                    sink.push(from, to);
                }
            };
            self.piece_targets(piece, from, &mut emit);
        }
    }

    /// Calls `emit` for every pseudo-legal destination of the piece on `from`.
    #[inline]
    fn piece_targets(&mut self, piece: Piece, from: u8, emit: &mut impl FnMut(&mut Board, u8)) {
        let us = self.us;
        let own = side_bit(us);
        let enemy = side_bit(us ^ 1);
        let can_land = |cell: u8| cell & (own | OFF) == 0;
        match piece {
            Piece::General | Piece::Advisor => {
                let steps = if piece == Piece::General { ORTHO } else { DIAG };
                for d in steps {
                    let to = step(from, d);
                    if PALACE[us][to as usize] && can_land(self.cells[to as usize]) {
                        emit(self, to);
                    }
                }
            }
            Piece::Elephant => {
                for d in DIAG {
                    let eye = step(from, d);
                    let to = step(eye, d);
                    if self.cells[eye as usize] == EMPTY
                        && OWN_HALF[us][to as usize]
                        && can_land(self.cells[to as usize])
                    {
                        emit(self, to);
                    }
                }
            }
            Piece::Horse => {
                for d in ORTHO {
                    let leg = step(from, d);
                    if self.cells[leg as usize] != EMPTY {
                        continue;
                    }
                    let side = if d == 1 || d == 255 { STRIDE } else { 1 };
                    for to in [step(step(leg, d), side), step(step(leg, d), side.wrapping_neg())] {
                        if can_land(self.cells[to as usize]) {
                            emit(self, to);
                        }
                    }
                }
            }
            Piece::Chariot | Piece::Cannon => {
                for d in ORTHO {
                    let mut to = step(from, d);
                    while self.cells[to as usize] == EMPTY {
                        emit(self, to);
                        to = step(to, d);
                    }
                    if piece == Piece::Chariot {
                        if self.cells[to as usize] & enemy != 0 {
                            emit(self, to);
                        }
                    } else if self.cells[to as usize] != OFF {
                        let target = next_piece(&self.cells, step(to, d), d);
                        if self.cells[target as usize] & enemy != 0 {
                            emit(self, target);
                        }
                    }
                }
            }
            Piece::Soldier => {
                let ahead = step(from, forward(us));
                if can_land(self.cells[ahead as usize]) {
                    emit(self, ahead);
                }
                if !OWN_HALF[us][from as usize] {
                    for d in [1u8, 255] {
                        let to = step(from, d);
                        if can_land(self.cells[to as usize]) {
                            emit(self, to);
                        }
                    }
                }
            }
        }
    }

    /// Perft with bulk counting at the last ply.
    pub fn perft(&mut self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if depth == 1 {
            let mut counter = Counter(0);
            self.generate(&mut counter);
            return counter.0;
        }
        let mut list = MoveList::new();
        self.generate(&mut list);
        let mut nodes = 0;
        for &(from, to) in list.as_slice() {
            let captured = self.make(from, to);
            nodes += self.perft(depth - 1);
            self.unmake(from, to, captured);
        }
        nodes
    }
}

/// The two squares from which a horse attacks through `leg`, where `leg` is the general's
/// diagonal neighbour in direction `d`.
#[inline]
fn horse_behind_leg(leg: u8, d: u8) -> (u8, u8) {
    // d = dy*16 + dx; the horse sits one more step along dx or along dy beyond the leg.
    let dx = match d {
        17 | 241 => 1u8,
        _ => 255,
    };
    let dy = d.wrapping_sub(dx);
    (step(leg, dx), step(leg, dy))
}
