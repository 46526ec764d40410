//! The gomoku board as one flat array with a wall around it, so scans along a line stop at the
//! wall instead of testing coordinates.

use crate::core::{Cell, Side};
use crate::zobrist;

/// Row length of the flat array: the largest board (20) plus a wall point each side. A point's
/// right wall is also the next row's left wall, but two keep the arithmetic obvious.
pub(crate) const STRIDE: usize = 22;
/// Points in the flat array, walls included.
pub(crate) const POINTS: usize = STRIDE * STRIDE;
/// The four line directions as index steps: along a rank, along a file, and the two diagonals.
pub(crate) const DIRECTIONS: [usize; 4] = [1, STRIDE, STRIDE + 1, STRIDE - 1];

/// What stands on one point of the flat array.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Stone {
    /// Nothing: a stone may go here.
    Empty,
    /// A stone of the first player.
    Black,
    /// A stone of the second player.
    White,
    /// Off the board.
    Wall,
}

impl Stone {
    /// The stone a side plays.
    pub(crate) const fn of(side: Side) -> Stone {
        match side {
            Side::First => Stone::Black,
            Side::Second => Stone::White,
        }
    }
}

/// Zobrist keys: one per point for each colour, then one for White to move.
const KEY_SEED: u64 = 0x60_40_4B_55;
static STONE_KEYS: zobrist::LazyKeys<{ 2 * POINTS }> = zobrist::LazyKeys::new(KEY_SEED);

/// The Zobrist key of a stone of `side` on point `index`.
#[inline]
pub(crate) fn stone_key(side: Side, index: usize) -> u64 {
    STONE_KEYS.get(side.index() * POINTS + index)
}

/// The Zobrist key toggled when White is to move.
pub(crate) const WHITE_TO_MOVE_KEY: u64 = zobrist::key(KEY_SEED, 2 * POINTS);

/// The stones on a board of `size` points a side.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Board {
    stones: [Stone; POINTS],
    size: u8,
}

impl Board {
    /// An empty board `size` points a side (at most 20).
    pub(crate) fn empty(size: u8) -> Board {
        let mut stones = [Stone::Wall; POINTS];
        for rank in 0..size {
            for file in 0..size {
                stones[Self::index_unchecked(Cell::new(file, rank))] = Stone::Empty;
            }
        }
        Board { stones, size }
    }

    /// Points on each side.
    pub(crate) const fn size(&self) -> u8 {
        self.size
    }

    /// The array index of a cell known to be on the largest board.
    const fn index_unchecked(cell: Cell) -> usize {
        (cell.rank as usize + 1) * STRIDE + cell.file as usize + 1
    }

    /// The array index of `cell`, or `None` when it is off this board.
    pub(crate) const fn index(&self, cell: Cell) -> Option<usize> {
        if cell.file < self.size && cell.rank < self.size {
            Some(Self::index_unchecked(cell))
        } else {
            None
        }
    }

    /// The cell at array index `index` (a point on the board, not a wall).
    pub(crate) const fn cell(index: usize) -> Cell {
        Cell::new((index % STRIDE - 1) as u8, (index / STRIDE - 1) as u8)
    }

    /// What stands on `index`.
    pub(crate) fn at(&self, index: usize) -> Stone {
        self.stones[index]
    }

    /// Puts `stone` on `index` (a point, never a wall).
    pub(crate) fn put(&mut self, index: usize, stone: Stone) {
        debug_assert_ne!(self.stones[index], Stone::Wall);
        self.stones[index] = stone;
    }

    /// The array indices of every point on the board, bottom rank first, `a` to the right.
    pub(crate) fn points(&self) -> impl Iterator<Item = usize> + use<> {
        let size = usize::from(self.size);
        (0..size).flat_map(move |rank| (0..size).map(move |file| (rank + 1) * STRIDE + file + 1))
    }

    /// How many stones like `stone` follow `index` in direction `step` (backwards when
    /// `forward` is false), not counting `index` itself. Walls stop the count.
    pub(crate) fn count_from(
        &self,
        index: usize,
        step: usize,
        forward: bool,
        stone: Stone,
    ) -> usize {
        let mut count = 0;
        let mut at = index;
        loop {
            // A wall always comes before the array edge, so the steps never leave the array.
            at = if forward { at + step } else { at - step };
            if self.stones[at] != stone {
                return count;
            }
            count += 1;
        }
    }

    /// The length of the line of `stone` through `index` in direction `step`, as if `index`
    /// held that stone, and the index where it starts (the lowest).
    pub(crate) fn run(&self, index: usize, step: usize, stone: Stone) -> (usize, usize) {
        let back = self.count_from(index, step, false, stone);
        let ahead = self.count_from(index, step, true, stone);
        (index - back * step, back + 1 + ahead)
    }

    /// Counts the stones of each colour.
    pub(crate) fn count(&self, stone: Stone) -> usize {
        self.stones.iter().filter(|&&s| s == stone).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_and_cells_agree() {
        let board = Board::empty(15);
        assert_eq!(board.points().count(), 225);
        for index in board.points() {
            assert_eq!(board.index(Board::cell(index)), Some(index));
            assert_eq!(board.at(index), Stone::Empty);
        }
        assert_eq!(board.index(Cell::new(15, 0)), None);
        assert_eq!(Board::empty(19).index(Cell::new(18, 18)), Some(19 * STRIDE + 19));
        assert_eq!(board.count(Stone::Wall), POINTS - 225);
    }

    #[test]
    fn runs_stop_at_walls_and_other_stones() {
        let mut board = Board::empty(15);
        let a1 = board.index(Cell::new(0, 0)).unwrap();
        for file in 1..4 {
            board.put(a1 + file, Stone::Black);
        }
        board.put(a1 + 4, Stone::White);
        assert_eq!(board.run(a1, 1, Stone::Black), (a1, 4));
        assert_eq!(board.run(a1 + 2, 1, Stone::Black), (a1 + 1, 3));
        assert_eq!(board.run(a1, STRIDE, Stone::Black), (a1, 1));
    }
}
