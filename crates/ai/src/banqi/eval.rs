//! Banqi evaluation from the side to move's point of view: material (face-down pieces at their
//! expected worth, from the pool counts), mobility, threats against the side to move, and the
//! hunt (strong pieces closing in on pieces they can capture, which wins endgames before the
//! no-progress draw), faded out as the no-progress draw comes near. Only face-up identities
//! and pool counts are read.

use arrayvec::ArrayVec;
use qi_rules::Game;
use qi_rules::banqi::{Banqi, BanqiRules, Colour, Piece, Square};

use super::board::{SQUARES, Values, beats, for_each_capture, neighbour, squares};

/// Score units per empty square next to a face-up piece.
const MOBILITY: i32 = 3;
/// Plies before the no-progress draw over which an advantage fades to nothing (at most half
/// the draw count).
const DRAW_FADE: u32 = 16;
/// Score units per step closer to the nearest piece a piece can capture.
const HUNT: i32 = 4;

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

/// The static evaluation of `game` for the side to move (0 before the first flip), with the
/// piece values kept in `cache`.
pub(crate) fn evaluate(game: &Banqi, cache: &mut ValuesCache) -> i32 {
    let Some(me) = game.colour_of(game.side_to_move()) else {
        return 0;
    };
    let board = squares(game);
    let pool = game.unknown_pool();
    // One pass over the board finds the face-up pieces (the hunt below pairs them up: a scan
    // of the whole board for each piece was a quarter of the evaluation), how many of each
    // piece is alive (face up, or face down in the pool), and whether any is still face down.
    let mut face_up: ArrayVec<(usize, Piece), SQUARES> = ArrayVec::new();
    let mut alive = pool;
    let mut endgame = true;
    for (at, square) in board.iter().enumerate() {
        match *square {
            Square::FaceUp(piece) => {
                face_up.push((at, piece));
                alive[piece.index()] += 1;
            }
            Square::Hidden(_) | Square::Unknown => endgame = false,
            Square::Empty => {}
        }
    }
    let values = cache.values(&alive, game.rules());
    let mut score = [0i32; 2];
    for (index, count) in pool.iter().enumerate() {
        let piece = Piece::ALL[index];
        score[piece.colour.index()] += values.of(piece) * i32::from(*count);
    }
    // The two most valuable threatened pieces of each colour.
    let mut threatened = [[0i32; 2]; 2];
    for &(from, piece) in &face_up {
        let side = piece.colour.index();
        score[side] += values.of(piece);
        score[side] += MOBILITY * empty_neighbours(&board, from);
        score[side] += hunt(&face_up, from, piece, game.rules()) * if endgame { 3 } else { 1 };
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
    score[me.index()] -= first / 8 + second / 2;
    let balance = score[me.index()] - score[other(me).index()];
    // Near the no-progress draw an advantage is worth less, so the side ahead captures or flips
    // in time and the side behind plays for the draw.
    let fade = (game.rules().draw / 2).min(DRAW_FADE);
    let left = game.rules().draw.saturating_sub(game.quiet_plies()).min(fade);
    balance * left as i32 / fade as i32
}

fn other(colour: Colour) -> Colour {
    colour.other()
}

fn empty_neighbours(board: &[Square; SQUARES], from: usize) -> i32 {
    (0..4).filter_map(|d| neighbour(from, d)).filter(|&to| !board[to].is_occupied()).count() as i32
}

/// A bonus for the `hunter` on `from` being close to the nearest enemy piece of `face_up` it
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
    if nearest == u32::MAX { 0 } else { HUNT * (10 - nearest.min(10) as i32) }
}
