//! Chess engine (placeholder until the engine lands: plays the first legal move).

use qi_rules::Game;

use crate::Engine;
use crate::search::{Budget, Score, SearchInfo, SearchResult};

/// The chess engine.
#[derive(Default)]
pub struct ChessEngine;

impl ChessEngine {
    /// A new engine.
    #[must_use]
    pub fn new() -> Self {
        Self
    }
}

impl Engine for ChessEngine {
    type Game = qi_rules::chess::ChessGame;

    fn search(
        &mut self,
        game: &Self::Game,
        budget: &mut Budget<'_>,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let best = game.legal_moves().first().map(|&mv| game.move_text(mv));
        let info = SearchInfo {
            depth: 0,
            score: Score::Cp(0),
            nodes: budget.nodes(),
            time_ms: budget.elapsed_ms(),
            pv: best.iter().cloned().collect(),
        };
        on_info(&info);
        SearchResult { best, info }
    }

    fn new_game(&mut self) {}
}
