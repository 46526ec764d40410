//! Arbitrary text through the banqi position and move readers (see `text_common.rs`); a move
//! that turns up an unknown piece is then played with `apply_revealing`: a piece the position's
//! pool of unknown pieces has plays, one it has not is refused and changes nothing.
#![no_main]

#[path = "text_common.rs"]
mod text_common;

use libfuzzer_sys::fuzz_target;
use qi_rules::banqi::{Banqi, Piece};
use qi_rules::{Game, IllegalReason};

fuzz_target!(|data: &[u8]| {
    text_common::exercise_revealing::<Banqi>(data, |game, mv| {
        let pool = game.unknown_pool();
        // Which piece turns up: one of the pool's, chosen by the input, so each gets its turn.
        let choices: Vec<Piece> = Piece::ALL.into_iter().filter(|p| pool[p.index()] > 0).collect();
        if let Some(absent) = Piece::ALL.into_iter().find(|p| pool[p.index()] == 0) {
            let before = game.position();
            let refused = game.apply_revealing(mv, absent).expect_err("no such piece is unknown");
            assert_eq!(refused.reason, IllegalReason::FlipResultImpossible);
            assert_eq!(game.position(), before, "a refused reveal changes nothing");
        }
        let piece = choices[data.len() % choices.len()];
        game.apply_revealing(mv, piece).expect("a piece of the pool turns up");
    });
});
