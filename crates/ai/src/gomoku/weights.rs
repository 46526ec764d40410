//! The gomoku evaluation's weights: a (few stones, a crowded board) pair for each of the
//! evaluation's parameters, in the order of its layout (`eval::PARAMS`). Written by `qi tune`;
//! the line below says how they were made.
//!
//! Made from: the hand-set shape values (the side to move's a quarter above the waiting side's).

#[rustfmt::skip]
pub(super) const WEIGHTS: [[i32; 2]; super::eval::PARAMS] = [
    // to move: a shape on one line (two, open two, three, open three, four, open four, five)
    [8, 8], [25, 25], [30, 30], [138, 138], [163, 163], [1500, 1500], [25000, 25000],
    // to move: a combination (two fours, a four and an open three, two open threes)
    [1250, 1250], [1250, 1250], [625, 625],
    // waiting: a shape on one line (two, open two, three, open three, four, open four, five)
    [6, 6], [20, 20], [24, 24], [110, 110], [130, 130], [1200, 1200], [20000, 20000],
    // waiting: a combination (two fours, a four and an open three, two open threes)
    [1000, 1000], [1000, 1000], [500, 500],
];
