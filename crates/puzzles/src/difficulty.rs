//! A new puzzle's starting rating, from how hard it looks before anyone has played it.
//!
//! Lichess starts each puzzle at 1500 and lets the players' results move it; Qi's puzzles have
//! no players yet when the database is made, so each starts from an estimate (with a wide
//! deviation, [`DEVIATION`], so the first results move it quickly):
//!
//! `1000 + 250·(solver moves − 1) + 40·(depth found − 1) + 200 if the first answer is quiet +
//! 100 for an advantage (not a mate)`, kept within 600…2600.
//!
//! - *solver moves*: each move more is one more to find;
//! - *depth found*: the shallowest search depth from which the engine kept the answer
//!   ([`Found::found_at_depth`]), a measure of how far one must look;
//! - *quiet*: the first answer neither takes a piece nor gives check (and no gomoku move does
//!   either), the moves players overlook;
//! - *advantage*: winning material is harder to see through than a mate, whose end is plain.

use crate::{Found, Goal};

/// The deviation a new puzzle's rating starts with.
pub const DEVIATION: u16 = 300;

/// The starting rating of `found` (see the module documentation).
#[must_use]
pub fn rating(found: &Found) -> u16 {
    let solver_moves = found.moves.len() / 2;
    let mut game = found.before.clone();
    let _ = game.apply(found.moves[0]);
    let answer = found.moves[1];
    let takes = game.takes_piece(answer);
    let _ = game.apply(answer);
    let quiet = !takes && !game.in_check();
    let mut rating =
        1000 + 250 * (solver_moves as i32 - 1) + 40 * (found.found_at_depth as i32 - 1);
    if quiet {
        rating += 200;
    }
    match found.goal {
        Goal::Advantage => rating += 100,
        // Seeing that every other move loses is harder than seeing one that wins.
        Goal::Hold => rating += 200,
        Goal::Mate(_) => {}
    }
    rating.clamp(600, 2600) as u16
}
