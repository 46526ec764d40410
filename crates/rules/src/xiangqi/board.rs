//! The xiangqi board: a padded 16x16 mailbox, piece slots, Zobrist keys, and make/unmake.
//!
//! Geometry is data here; the move rules live in `movegen.rs`.

use crate::core::Cell;
use crate::zobrist;

/// A piece type of xiangqi.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Piece {
    /// The general (king): one orthogonal step, inside the palace.
    General,
    /// The advisor: one diagonal step, inside the palace.
    Advisor,
    /// The elephant: two diagonal steps, not across the river, blocked on its eye.
    Elephant,
    /// The horse: one orthogonal then one diagonal step, blocked on its leg.
    Horse,
    /// The chariot: any distance orthogonally.
    Chariot,
    /// The cannon: moves like a chariot, captures by jumping exactly one screen.
    Cannon,
    /// The soldier: one step forward, also sideways once across the river.
    Soldier,
}

impl Piece {
    /// All seven piece types.
    pub const ALL: [Piece; 7] = [
        Piece::General,
        Piece::Advisor,
        Piece::Elephant,
        Piece::Horse,
        Piece::Chariot,
        Piece::Cannon,
        Piece::Soldier,
    ];

    /// The FEN letter (lowercase; Red's pieces are written uppercase).
    #[must_use]
    pub const fn fen_letter(self) -> char {
        match self {
            Piece::General => 'k',
            Piece::Advisor => 'a',
            Piece::Elephant => 'b',
            Piece::Horse => 'n',
            Piece::Chariot => 'r',
            Piece::Cannon => 'c',
            Piece::Soldier => 'p',
        }
    }

    /// The WXF letter: `K A E H R C P`.
    #[must_use]
    pub const fn wxf_letter(self) -> char {
        match self {
            Piece::General => 'K',
            Piece::Advisor => 'A',
            Piece::Elephant => 'E',
            Piece::Horse => 'H',
            Piece::Chariot => 'R',
            Piece::Cannon => 'C',
            Piece::Soldier => 'P',
        }
    }

    /// Reads a FEN letter (either case; `h` and `e` are accepted for horse and elephant).
    #[must_use]
    pub fn from_letter(letter: char) -> Option<Piece> {
        Some(match letter.to_ascii_lowercase() {
            'k' => Piece::General,
            'a' => Piece::Advisor,
            'b' | 'e' => Piece::Elephant,
            'n' | 'h' => Piece::Horse,
            'r' => Piece::Chariot,
            'c' => Piece::Cannon,
            'p' => Piece::Soldier,
            _ => return None,
        })
    }

    /// How many of this piece one side has in the full set.
    #[must_use]
    pub const fn set_count(self) -> usize {
        match self {
            Piece::General => 1,
            Piece::Soldier => 5,
            _ => 2,
        }
    }

    /// The first piece slot of this type (slots are grouped by type, see [`SLOT_PIECE`]).
    pub(crate) const fn first_slot(self) -> usize {
        match self {
            Piece::General => 0,
            Piece::Advisor => 1,
            Piece::Elephant => 3,
            Piece::Horse => 5,
            Piece::Chariot => 7,
            Piece::Cannon => 9,
            Piece::Soldier => 11,
        }
    }
}

/// A FEN or WXF letter that names no xiangqi piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnknownPiece;

impl std::fmt::Display for UnknownPiece {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("not a xiangqi piece letter")
    }
}

impl std::error::Error for UnknownPiece {}

impl std::str::FromStr for Piece {
    type Err = UnknownPiece;
    /// Reads one piece letter, FEN (`k a b n r c p`, also `e h`) or WXF (`K A E H R C P`).
    fn from_str(text: &str) -> Result<Piece, UnknownPiece> {
        let mut chars = text.chars();
        match (chars.next(), chars.next()) {
            (Some(letter), None) => Piece::from_letter(letter).ok_or(UnknownPiece),
            _ => Err(UnknownPiece),
        }
    }
}

impl std::fmt::Display for Piece {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.wxf_letter())
    }
}

/// Board width and height of the padded mailbox; two sentinel rows/files on every side.
pub(crate) const STRIDE: u8 = 16;
/// The cell value of an empty point.
pub(crate) const EMPTY: u8 = 0;
/// The cell value of the sentinel border.
pub(crate) const OFF: u8 = 0x40;
/// Cell values are `side bit | slot`: Red's pieces `0x10..=0x1F`, Black's `0x20..=0x2F`.
pub(crate) const fn side_bit(side: usize) -> u8 {
    0x10 << side
}

/// The piece type of each of a side's 16 slots.
pub(crate) const SLOT_PIECE: [Piece; 16] = [
    Piece::General,
    Piece::Advisor,
    Piece::Advisor,
    Piece::Elephant,
    Piece::Elephant,
    Piece::Horse,
    Piece::Horse,
    Piece::Chariot,
    Piece::Chariot,
    Piece::Cannon,
    Piece::Cannon,
    Piece::Soldier,
    Piece::Soldier,
    Piece::Soldier,
    Piece::Soldier,
    Piece::Soldier,
];

/// Mailbox square of a board point.
pub(crate) const fn square(file: u8, rank: u8) -> u8 {
    (rank + 2) * STRIDE + file + 2
}

/// File (0 = a) of a mailbox square.
pub(crate) const fn file_of(sq: u8) -> u8 {
    (sq % STRIDE).wrapping_sub(2)
}

/// Rank (0 = Red's back rank) of a mailbox square.
pub(crate) const fn rank_of(sq: u8) -> u8 {
    (sq / STRIDE).wrapping_sub(2)
}

/// The mailbox square of a cell, if the cell is on the 9x10 board.
pub(crate) fn cell_square(cell: Cell) -> Option<u8> {
    (cell.file < 9 && cell.rank < 10).then(|| square(cell.file, cell.rank))
}

/// The cell of a mailbox square on the board.
pub(crate) const fn square_cell(sq: u8) -> Cell {
    Cell::new(file_of(sq), rank_of(sq))
}

/// A compact "kind" code per cell value: `side << 3 | type + 1`, 0 for empty and off-board.
pub(crate) const KIND: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut side = 0;
    while side < 2 {
        let mut slot = 0;
        while slot < 16 {
            table[(side_bit(side) | slot as u8) as usize] = kind(side, SLOT_PIECE[slot]);
            slot += 1;
        }
        side += 1;
    }
    table
};

/// The kind code of a side's piece type (see [`KIND`]).
pub(crate) const fn kind(side: usize, piece: Piece) -> u8 {
    ((side as u8) << 3) | (piece as u8 + 1)
}

/// Which region [`point_table`] marks.
#[derive(Clone, Copy)]
enum Region {
    Palace(usize),
    OwnHalf(usize),
}

const fn in_region(region: Region, file: u8, rank: u8) -> bool {
    match region {
        Region::Palace(side) => in_palace(side, file, rank),
        Region::OwnHalf(side) => relative_rank(side, rank) <= 4,
    }
}

const fn point_table(region: Region) -> [bool; 256] {
    let mut table = [false; 256];
    let mut rank = 0;
    while rank < 10 {
        let mut file = 0;
        while file < 9 {
            table[square(file, rank) as usize] = in_region(region, file, rank);
            file += 1;
        }
        rank += 1;
    }
    table
}

/// The rank counted from a side's own back rank.
pub(crate) const fn relative_rank(side: usize, rank: u8) -> u8 {
    if side == 0 { rank } else { 9 - rank }
}

const fn in_palace(side: usize, file: u8, rank: u8) -> bool {
    file >= 3 && file <= 5 && relative_rank(side, rank) <= 2
}

/// The palace of each side.
pub(crate) const PALACE: [[bool; 256]; 2] =
    [point_table(Region::Palace(0)), point_table(Region::Palace(1))];
/// Each side's half of the board (where its elephants may stand).
pub(crate) const OWN_HALF: [[bool; 256]; 2] =
    [point_table(Region::OwnHalf(0)), point_table(Region::OwnHalf(1))];

/// The points a side's advisor can ever reach.
pub(crate) const fn advisor_point(side: usize, file: u8, rank: u8) -> bool {
    in_palace(side, file, rank) && (file + relative_rank(side, rank)) % 2 == 1
}

/// The points a side's elephant can ever reach.
pub(crate) const fn elephant_point(side: usize, file: u8, rank: u8) -> bool {
    let r = relative_rank(side, rank);
    r <= 4 && r.is_multiple_of(2) && file.is_multiple_of(2) && (file + r) % 4 == 2
}

/// The points a side's soldier can ever reach.
pub(crate) const fn soldier_point(side: usize, file: u8, rank: u8) -> bool {
    let r = relative_rank(side, rank);
    r >= 5 || (r >= 3 && file.is_multiple_of(2))
}

/// The 90 points of the board.
const POINTS: usize = 90;

/// Each mailbox square's point index (`rank * 9 + file`); 0 off the board (never looked up).
/// The key table is by point rather than by square: the browser downloads every key, and
/// random keys do not compress.
const POINT_INDEX: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut rank = 0;
    while rank < 10 {
        let mut file = 0;
        while file < 9 {
            table[square(file, rank) as usize] = rank * 9 + file;
            file += 1;
        }
        rank += 1;
    }
    table
};

/// Zobrist keys: 16 kinds x 90 points, and the side key.
static PIECE_KEYS: zobrist::LazyKeys<{ 16 * POINTS }> =
    zobrist::LazyKeys::new(0x5869_616E_6771_6931);
const BLACK_TO_MOVE_KEY: u64 = zobrist::splitmix64(0x5869_616E_6771_6932);

/// The key of the piece in cell value `cell` standing on `sq`.
#[inline]
fn piece_key(cell: u8, sq: u8) -> u64 {
    PIECE_KEYS.get((KIND[cell as usize] as usize & 15) * POINTS + POINT_INDEX[sq as usize] as usize)
}

/// The position without its history: mailbox, piece slots, side to move and hash.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct Board {
    /// Cell values by mailbox square.
    pub cells: [u8; 256],
    /// Each side's squares by slot; 0 for a slot without a piece.
    pub slots: [[u8; 16]; 2],
    /// The side to move, 0 = Red.
    pub us: usize,
    /// Zobrist hash of pieces and side to move.
    pub hash: u64,
}

impl Board {
    /// An empty board, Red to move.
    pub fn empty() -> Board {
        let mut cells = [OFF; 256];
        for rank in 0..10 {
            for file in 0..9 {
                cells[square(file, rank) as usize] = EMPTY;
            }
        }
        Board { cells, slots: [[0; 16]; 2], us: 0, hash: 0 }
    }

    /// Puts a piece on an empty square; `false` when the side has no free slot of that type.
    pub fn put(&mut self, side: usize, piece: Piece, sq: u8) -> bool {
        let first = piece.first_slot();
        let Some(slot) = (first..first + piece.set_count()).find(|&s| self.slots[side][s] == 0)
        else {
            return false;
        };
        let cell = side_bit(side) | slot as u8;
        self.slots[side][slot] = sq;
        self.cells[sq as usize] = cell;
        self.hash ^= piece_key(cell, sq);
        true
    }

    /// Sets the side to move.
    pub fn set_side(&mut self, side: usize) {
        if side != self.us {
            self.us = side;
            self.hash ^= BLACK_TO_MOVE_KEY;
        }
    }

    /// The side and piece on a mailbox square.
    pub fn piece_at(&self, sq: u8) -> Option<(usize, Piece)> {
        let cell = self.cells[sq as usize];
        (cell != EMPTY && cell != OFF)
            .then(|| (usize::from(cell >> 5), SLOT_PIECE[(cell & 15) as usize]))
    }

    /// Plays `from -> to`; returns the captured cell value (EMPTY if none).
    #[inline]
    pub fn make(&mut self, from: u8, to: u8) -> u8 {
        let mover = self.cells[from as usize];
        let captured = self.cells[to as usize];
        self.cells[to as usize] = mover;
        self.cells[from as usize] = EMPTY;
        self.slots[self.us][(mover & 15) as usize] = to;
        let mut hash =
            self.hash ^ piece_key(mover, from) ^ piece_key(mover, to) ^ BLACK_TO_MOVE_KEY;
        if captured != EMPTY {
            self.slots[self.us ^ 1][(captured & 15) as usize] = 0;
            hash ^= piece_key(captured, to);
        }
        self.hash = hash;
        self.us ^= 1;
        captured
    }

    /// Takes back `from -> to` that captured `captured`.
    #[inline]
    pub fn unmake(&mut self, from: u8, to: u8, captured: u8) {
        self.us ^= 1;
        let mover = self.cells[to as usize];
        self.cells[from as usize] = mover;
        self.cells[to as usize] = captured;
        self.slots[self.us][(mover & 15) as usize] = from;
        let mut hash =
            self.hash ^ piece_key(mover, from) ^ piece_key(mover, to) ^ BLACK_TO_MOVE_KEY;
        if captured != EMPTY {
            self.slots[self.us ^ 1][(captured & 15) as usize] = to;
            hash ^= piece_key(captured, to);
        }
        self.hash = hash;
    }

    /// The general's square of `side` (0 if it has none, which a valid position never has).
    #[inline]
    pub fn general(&self, side: usize) -> u8 {
        self.slots[side][0]
    }
}
