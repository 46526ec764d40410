//! The banqi evaluation's weights: a (pieces face down, all face up) pair for each of the
//! evaluation's parameters, in the order of its layout (`eval::PARAMS`). Written by `qi tune`;
//! the line below says how they were made.
//!
//! Made from: the hand-set values, in 64ths.

#[rustfmt::skip]
pub(super) const WEIGHTS: [[i32; 2]; 6] = [
    // material, per unit of the pieces' values (64ths)
    [64, 64],
    // mobility, per empty square next to a face-up piece
    [192, 192],
    // hunt, per step closer to the nearest prey, with pieces face down
    [256, 256],
    // hunt, per step closer to the nearest prey, all face up
    [768, 768],
    // the side to move's most valuable threatened piece, per unit of its value
    [-8, -8],
    // its second most valuable threatened piece, per unit of its value
    [-32, -32],
];
