//! Gomoku's static evaluation: what each side would make with a stone on each candidate point
//! (its shapes along the four lines, and a bonus for a combination that wins: two fours, a four
//! and an open three, two open threes), the side to move's points weighed apart from the
//! waiting side's, since it gets to use them first. Every number it adds is a weight of
//! [`weights`], counted by [`terms`], so the lab's tuner (`qi tune --game gomoku`) fits exactly
//! the weights the engine adds. Each weight is a pair, for a board with few stones and one with
//! [`FULL_PHASE`] or more, blended by the stones on the board.
//!
//! The move ordering keeps its own fixed shape values (`position::SHAPE_VALUE`): the tuner fits
//! what a position is worth, not which move to try first.

use std::sync::LazyLock;

use qi_rules::Side;
use qi_rules::gomoku::Gomoku;

use super::position::{Position, shape};
use super::weights::WEIGHTS;
use crate::terms::Terms;

/// The shapes a stone can make along one line that count (two to five, in `shape`'s order).
const SHAPES: usize = 7;
/// The combinations that count: two fours, a four and an open three, two open threes.
const COMBINATIONS: usize = 3;
/// The parameters of one role (to move, or waiting).
const ROLE: usize = SHAPES + COMBINATIONS;
/// The number of weights (each an opening and a crowded-board value).
pub const PARAMS: usize = 2 * ROLE;

/// The groups of weights in their order, each with how many it holds: what the tuner writes as
/// comments in `weights.rs`.
pub const GROUPS: &[(&str, usize)] = &[
    ("to move: a shape on one line (two, open two, three, open three, four, open four, five)", 7),
    ("to move: a combination (two fours, a four and an open three, two open threes)", 3),
    ("waiting: a shape on one line (two, open two, three, open three, four, open four, five)", 7),
    ("waiting: a combination (two fours, a four and an open three, two open threes)", 3),
];

/// Stones on the board from which the second weight of each pair counts alone; with fewer, the
/// first counts `(FULL_PHASE - stones) / FULL_PHASE` of the blend.
pub const FULL_PHASE: i32 = 40;

/// The weights the evaluation uses, `[opening, crowded]` for each parameter.
#[must_use]
pub fn weights() -> &'static [[i32; 2]; PARAMS] {
    &WEIGHTS
}

/// The terms of a stone making `shapes` (one per direction) for a side in `role` (0 to move,
/// 1 waiting).
#[inline]
fn combination_terms(shapes: [u8; 4], role: usize, terms: &mut impl Terms) {
    let base = role * ROLE;
    let (mut fours, mut threes) = (0, 0);
    for shape in shapes {
        if shape != shape::NONE {
            terms.add(base + usize::from(shape) - 1, 1);
        }
        fours += usize::from(shape == shape::FOUR || shape == shape::OPEN_FOUR);
        threes += usize::from(shape == shape::OPEN_THREE);
    }
    let combination = if fours >= 2 {
        Some(0)
    } else if fours == 1 && threes >= 1 {
        Some(1)
    } else if threes >= 2 {
        Some(2)
    } else {
        None
    };
    if let Some(combination) = combination {
        terms.add(base + SHAPES + combination, 1);
    }
}

/// The weights summed, the two ends of the blend apart.
#[derive(Default, Clone, Copy)]
struct Sum {
    opening: i32,
    crowded: i32,
}

impl Terms for Sum {
    #[inline]
    fn add(&mut self, param: usize, count: i32) {
        let [opening, crowded] = WEIGHTS[param];
        self.opening += opening * count;
        self.crowded += crowded * count;
    }
}

/// The value of every combination of four shapes (by `Position::shape_index`) for each role:
/// the evaluation looks two up per candidate point.
static VALUES: LazyLock<[[Sum; 4096]; 2]> = LazyLock::new(|| {
    let mut values = [[Sum::default(); 4096]; 2];
    for (role, table) in values.iter_mut().enumerate() {
        for (index, value) in table.iter_mut().enumerate() {
            let shapes = [index & 7, (index >> 3) & 7, (index >> 6) & 7, index >> 9];
            combination_terms(shapes.map(|s| s as u8), role, value);
        }
    }
    values
});

/// The blend's share of the opening weights for `stones` on the board, out of [`FULL_PHASE`].
fn phase(stones: usize) -> i32 {
    FULL_PHASE - (stones as i32).min(FULL_PHASE)
}

/// The static value of `position` for the side to move.
pub(super) fn evaluate_position(position: &Position) -> i32 {
    let values = &*VALUES;
    let me = position.side_to_move();
    let (mut opening, mut crowded) = (0, 0);
    for point in position.candidates() {
        let mine = values[0][position.shape_index(me, point)];
        let theirs = values[1][position.shape_index(me.other(), point)];
        opening += mine.opening - theirs.opening;
        crowded += mine.crowded - theirs.crowded;
    }
    let phase = phase(position.stones());
    (opening * phase + crowded * (FULL_PHASE - phase)) / FULL_PHASE
}

/// The static value of `game` for the colour to move (what the search adds at its leaves,
/// without a level's noise).
#[must_use]
pub fn evaluate(game: &Gomoku) -> i32 {
    evaluate_position(&Position::new(game))
}

/// Whether the static evaluation judges `game` as the search would: nobody can make a five and
/// the side to move has no winning four (the search answers those exactly, not by weights).
#[must_use]
pub fn is_quiet(game: &Gomoku) -> bool {
    let position = Position::new(game);
    let me = position.side_to_move();
    // As the search's verdict: any five of the opponent's, and the side to move's own five or
    // winning four only where it may play (renju forbids Black some points).
    position.candidates().all(|point| {
        !position.makes_five(me.other(), point)
            && !((position.makes_five(me, point) || position.makes_winning_four(me, point))
                && position.is_legal(point))
    })
}

/// Reports `game`'s terms to `sides` (indexed by colour: black first) and returns the blend's
/// share of the opening weights, out of [`FULL_PHASE`]. The evaluation for the colour to move is
/// the weights of its side's terms less those of the other's, blended.
pub fn terms(game: &Gomoku, sides: &mut [impl Terms; 2]) -> i32 {
    let position = Position::new(game);
    let me = position.side_to_move();
    for point in position.candidates() {
        for (colour, role) in [(me, 0), (me.other(), 1)] {
            let index = position.shape_index(colour, point);
            let shapes = [index & 7, (index >> 3) & 7, (index >> 6) & 7, index >> 9];
            combination_terms(shapes.map(|s| s as u8), role, &mut sides[side_slot(colour)]);
        }
    }
    phase(position.stones())
}

/// The slot of a colour in [`terms`]' `sides`.
const fn side_slot(colour: Side) -> usize {
    colour.index()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_groups_cover_the_weights() {
        assert_eq!(GROUPS.iter().map(|(_, n)| n).sum::<usize>(), PARAMS);
    }

    #[test]
    fn the_terms_sum_to_the_evaluation() {
        let rules =
            qi_rules::gomoku::GomokuRules::new(15, qi_rules::gomoku::WinRule::Freestyle).unwrap();
        for line in ["h8", "h8i9", "h8i9h9", "h8i9h9h10g8", "h8i9h9h10g8f8j8e8"] {
            let game = Gomoku::from_move_string(&rules, line).unwrap();
            let mut sides = [Sum::default(), Sum::default()];
            let phase = terms(&game, &mut sides);
            let me = side_slot(game.colour_to_move());
            let opening = sides[me].opening - sides[1 - me].opening;
            let crowded = sides[me].crowded - sides[1 - me].crowded;
            let blended = (opening * phase + crowded * (FULL_PHASE - phase)) / FULL_PHASE;
            assert_eq!(blended, evaluate(&game), "{line}");
        }
    }
}
