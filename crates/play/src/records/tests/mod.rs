//! Tests of import and export across the four games: round trips of random games, real games
//! from files, and hostile input.

mod fixtures;
mod hostile;
mod roundtrip;
mod wild;

use qi_rules::GameKind;

use super::import::full_rules;
use crate::record::GameRecord;

/// A small seeded generator (SplitMix64) for random games.
pub(super) struct Rng(pub u64);

impl Rng {
    pub(super) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub(super) fn below(&mut self, bound: usize) -> usize {
        (self.next() % bound.max(1) as u64) as usize
    }
}

/// Asserts that two records hold the same game: rules, start, moves, final position, outcome.
pub(super) fn assert_same_game(a: &GameRecord, b: &GameRecord, context: &str) {
    assert_eq!(a.kind, b.kind, "{context}");
    assert_eq!(full_rules(a.kind, &a.rules), full_rules(b.kind, &b.rules), "{context}");
    assert_eq!(a.start_game().position(), b.start_game().position(), "{context}");
    assert_eq!(a.moves, b.moves, "{context}");
    let (ra, rb) = (a.replay(usize::MAX), b.replay(usize::MAX));
    assert!(ra.error.is_none() && rb.error.is_none(), "{context}");
    assert_eq!(ra.game.position(), rb.game.position(), "{context}");
    assert_eq!(ra.game.outcome(), rb.game.outcome(), "{context}");
    assert_eq!(a.ending, b.ending, "the same result: {context}");
}

/// The record of a game read from `text`, which must read without error.
pub(super) fn read(text: &str, hint: Option<GameKind>) -> super::Imported {
    match super::import(text, hint) {
        Ok(imported) => imported,
        Err(error) => panic!("{error}\n{text}"),
    }
}
