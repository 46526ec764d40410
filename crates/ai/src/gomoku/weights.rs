//! The gomoku evaluation's weights: a (few stones, a crowded board) pair for each of the
//! evaluation's parameters, in the order of its layout (`eval::PARAMS`). Written by `qi tune`;
//! the line below says how they were made.
//!
//! Made from: qi tune --game gomoku --epochs 1000 --rate 1 --lambda 0.3 --l2 0.00000001 on 62978 positions of 3980 games
//! (gomoku-g0.qid: qi datagen --game gomoku --games 3980 --nodes 5000 --seed 1, played by the hand-set values),
//! starting from the hand-set values; k 0.000920; loss 0.055887 -> 0.032525, held-out games' results 0.225070 -> 0.204077.
//! SPRT against the hand-set values: qi sprt --variant gomoku --movetime 60000 --first-option max_node=20000
//! --second-option max_node=20000 --sprt 0,10 --jobs 2: H1 accepted after 140 pairs (12/1/73/0/54), LLR 2.95, Elo +106.2 ± 39.4.

#[rustfmt::skip]
pub(super) const WEIGHTS: [[i32; 2]; 20] = [
    // to move: a shape on one line (two, open two, three, open three, four, open four, five)
    [4, 14], [66, 14], [80, 52], [294, 159], [373, 287], [1500, 1500], [25000, 25000],
    // to move: a combination (two fours, a four and an open three, two open threes)
    [1250, 1250], [1249, 1249], [580, 590],
    // waiting: a shape on one line (two, open two, three, open three, four, open four, five)
    [-14, 1], [43, 22], [54, 44], [230, 125], [280, 198], [1059, 1085], [20000, 20000],
    // waiting: a combination (two fours, a four and an open three, two open threes)
    [999, 991], [993, 971], [452, 473],
];
