//! Banqi evaluation from the side to move's point of view: material (face-down pieces at their
//! expected worth, from the pool counts), mobility, threats against the side to move, and the
//! hunt (strong pieces closing in on pieces they can capture, which wins endgames before the
//! no-progress draw), faded out as the no-progress draw comes near. Only face-up identities
//! and pool counts are read.
//!
//! Every number it adds is a weight of [`weights`] counted by [`terms`], so the lab's tuner
//! (`qi tune --game banqi`) fits exactly the weights the engine adds. The piece values
//! themselves come from the pool (`board::Values`); the material weight scales them against the
//! rest. Each weight is a pair, for a board with every piece face down and one with all face
//! up, blended by the face-down pieces left.

use arrayvec::ArrayVec;
use qi_rules::Game;
use qi_rules::banqi::{Banqi, BanqiRules, Colour, Piece, Square};

use super::board::{SQUARES, Values, beats, for_each_capture, neighbour, squares};
use super::weights::WEIGHTS;
use crate::terms::Terms;

/// Plies before the no-progress draw over which an advantage fades to nothing (at most half
/// the draw count).
const DRAW_FADE: u32 = 16;

/// The weights are in 64ths of a score unit, so that a threatened piece can cost an eighth of
/// its value.
pub const UNIT: i32 = 64;

/// Parameter: the pieces' values (face up, and face down at their expected worth), per unit.
const MATERIAL: usize = 0;
/// Parameter: an empty square next to a face-up piece.
const MOBILITY: usize = 1;
/// Parameter: a step closer to the nearest piece a piece can capture, while pieces are face down.
const HUNT: usize = 2;
/// Parameter: the same with every piece face up (the hunt is how such endgames are won).
const HUNT_ALL_FACE_UP: usize = 3;
/// Parameter: the side to move's most valuable threatened piece, per unit of its value.
const THREATENED_FIRST: usize = 4;
/// Parameter: its second most valuable threatened piece, per unit of its value.
const THREATENED_SECOND: usize = 5;
/// The number of weights (each a value with pieces face down and one with all face up).
pub const PARAMS: usize = THREATENED_SECOND + 1;

/// The groups of weights in their order, each with how many it holds: what the tuner writes as
/// comments in `weights.rs`.
pub const GROUPS: &[(&str, usize)] = &[
    ("material, per unit of the pieces' values (64ths)", 1),
    ("mobility, per empty square next to a face-up piece", 1),
    ("hunt, per step closer to the nearest prey, with pieces face down", 1),
    ("hunt, per step closer to the nearest prey, all face up", 1),
    ("the side to move's most valuable threatened piece, per unit of its value", 1),
    ("its second most valuable threatened piece, per unit of its value", 1),
];

/// The face-down pieces of the deal: the first weight of each pair counts
/// `face_down / FULL_PHASE` of the blend, the second the rest.
pub const FULL_PHASE: i32 = 32;

/// The weights the evaluation uses, `[pieces face down, all face up]` for each parameter, in
/// 64ths of a score unit.
#[must_use]
pub fn weights() -> &'static [[i32; 2]; PARAMS] {
    &WEIGHTS
}

/// The search's terms: the weights summed, the two ends of the blend apart.
#[derive(Default, Clone, Copy)]
struct Sum {
    hidden: i32,
    face_up: i32,
}

impl Terms for Sum {
    #[inline]
    fn add(&mut self, param: usize, count: i32) {
        let [hidden, face_up] = WEIGHTS[param];
        self.hidden += hidden * count;
        self.face_up += face_up * count;
    }
}

/// The piece values of the last position evaluated. They change only when a capture changes
/// what is alive (or with the rules), so the search keeps them from node to node rather than
/// work them out at every evaluation.
#[derive(Debug, Default)]
pub(crate) struct ValuesCache {
    last: Option<(BanqiRules, [u8; 14], Values)>,
}

impl ValuesCache {
    /// The values for `alive` under `rules`: the kept ones when they were for the same.
    fn values(&mut self, alive: &[u8; 14], rules: &BanqiRules) -> Values {
        match &self.last {
            Some((kept_rules, kept_alive, values))
                if kept_rules == rules && kept_alive == alive =>
            {
                *values
            }
            _ => {
                let values = Values::new(alive, rules);
                self.last = Some((*rules, *alive, values));
                values
            }
        }
    }
}

/// The static evaluation of `game` for the side to move (0 before the first flip): what the
/// search adds at its leaves, without a level's noise.
#[must_use]
pub fn evaluate(game: &Banqi) -> i32 {
    evaluate_cached(game, &mut ValuesCache::default())
}

/// [`evaluate`] with the piece values kept in `cache`.
pub(crate) fn evaluate_cached(game: &Banqi, cache: &mut ValuesCache) -> i32 {
    let Some(me) = game.colour_of(game.side_to_move()) else {
        return 0;
    };
    let mut sides = [Sum::default(), Sum::default()];
    let Some(shape) = terms_cached(game, cache, &mut sides) else {
        return 0;
    };
    let (mine, theirs) = (sides[me.index()], sides[other(me).index()]);
    let hidden = mine.hidden - theirs.hidden;
    let face_up = mine.face_up - theirs.face_up;
    let balance =
        (hidden * shape.phase + face_up * (FULL_PHASE - shape.phase)) / (FULL_PHASE * UNIT);
    balance * shape.fade_left / shape.fade
}

/// What scales a banqi position's terms: the blend's phase and the fade before the draw.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    /// Face-down pieces (at most [`FULL_PHASE`]): the first weight's share of the blend.
    pub phase: i32,
    /// Plies of the fade still to run: the balance counts `fade_left / fade` of itself.
    pub fade_left: i32,
    /// The fade's length in plies.
    pub fade: i32,
}

/// Reports `game`'s terms to `sides` (indexed by colour, [`Colour::index`]) and returns what
/// scales them; `None` before the first flip (no side has a colour). The evaluation for the
/// side to move is its colour's weights less the other's, blended by the phase, divided by 64,
/// and faded: [`evaluate`].
pub fn terms(game: &Banqi, sides: &mut [impl Terms; 2]) -> Option<Shape> {
    terms_cached(game, &mut ValuesCache::default(), sides)
}

/// [`terms`] with the piece values kept in `cache`.
fn terms_cached(
    game: &Banqi,
    cache: &mut ValuesCache,
    sides: &mut [impl Terms; 2],
) -> Option<Shape> {
    let me = game.colour_of(game.side_to_move())?;
    let board = squares(game);
    let pool = game.unknown_pool();
    // One pass over the board finds the face-up pieces (the hunt below pairs them up: a scan
    // of the whole board for each piece was a quarter of the evaluation), how many of each
    // piece is alive (face up, or face down in the pool), and whether any is still face down.
    let mut face_up: ArrayVec<(usize, Piece), SQUARES> = ArrayVec::new();
    let mut alive = pool;
    let mut face_down = 0;
    for (at, square) in board.iter().enumerate() {
        match *square {
            Square::FaceUp(piece) => {
                face_up.push((at, piece));
                alive[piece.index()] += 1;
            }
            Square::Hidden(_) | Square::Unknown => face_down += 1,
            Square::Empty => {}
        }
    }
    let hunt_param = if face_down == 0 { HUNT_ALL_FACE_UP } else { HUNT };
    let values = cache.values(&alive, game.rules());
    for (index, count) in pool.iter().enumerate() {
        let piece = Piece::ALL[index];
        sides[piece.colour.index()].add(MATERIAL, values.of(piece) * i32::from(*count));
    }
    // The two most valuable threatened pieces of each colour.
    let mut threatened = [[0i32; 2]; 2];
    for &(from, piece) in &face_up {
        let side = &mut sides[piece.colour.index()];
        side.add(MATERIAL, values.of(piece));
        side.add(MOBILITY, empty_neighbours(&board, from));
        side.add(hunt_param, hunt(&face_up, from, piece, game.rules()));
        for_each_capture(&board, from, piece, game.rules(), &mut |victim| {
            if let Square::FaceUp(target) = board[victim] {
                let top = &mut threatened[target.colour.index()];
                let value = values.of(target);
                if value > top[0] {
                    *top = [value, top[0]];
                } else if value > top[1] {
                    top[1] = value;
                }
            }
        });
    }
    // The side to move can save one threatened piece, usually, but not two; the capture search
    // sees the other side's threatened pieces.
    let [first, second] = threatened[me.index()];
    sides[me.index()].add(THREATENED_FIRST, first);
    sides[me.index()].add(THREATENED_SECOND, second);
    // Near the no-progress draw an advantage is worth less, so the side ahead captures or flips
    // in time and the side behind plays for the draw.
    let fade = (game.rules().draw / 2).min(DRAW_FADE);
    let left = game.rules().draw.saturating_sub(game.quiet_plies()).min(fade);
    Some(Shape { phase: face_down.min(FULL_PHASE), fade_left: left as i32, fade: fade as i32 })
}

fn other(colour: Colour) -> Colour {
    colour.other()
}

fn empty_neighbours(board: &[Square; SQUARES], from: usize) -> i32 {
    (0..4).filter_map(|d| neighbour(from, d)).filter(|&to| !board[to].is_occupied()).count() as i32
}

/// The steps (out of 10) the `hunter` on `from` is close to the nearest enemy piece of `face_up` it
/// beats and that does not beat it back.
fn hunt(face_up: &[(usize, Piece)], from: usize, hunter: Piece, rules: &BanqiRules) -> i32 {
    let mut nearest = u32::MAX;
    for &(at, prey) in face_up {
        if prey.colour != hunter.colour
            && beats(hunter.role, prey.role, rules)
            && !beats(prey.role, hunter.role, rules)
        {
            let distance = ((from % 8) as i32 - (at % 8) as i32).unsigned_abs()
                + ((from / 8) as i32 - (at / 8) as i32).unsigned_abs();
            nearest = nearest.min(distance);
        }
    }
    if nearest == u32::MAX { 0 } else { 10 - nearest.min(10) as i32 }
}

#[cfg(test)]
mod tests {
    use super::*;

    // That the terms make the evaluation is checked in the lab
    // (`models::tests::a_banqi_samples_evaluation_is_the_engines`), through the tuner's own sum.
    #[test]
    fn the_groups_cover_the_weights() {
        assert_eq!(GROUPS.iter().map(|(_, n)| n).sum::<usize>(), PARAMS);
    }
}
