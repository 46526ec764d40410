//! Computer opponents for Qi's four games: alpha-beta search with iterative deepening for chess,
//! xiangqi and gomoku (with threat search), and expectimax over the face-down pieces for banqi.
//! Pure Rust over the rules crate: no clock, no threads, no I/O of its own — the caller passes a
//! millisecond clock and a stop flag, so the same code runs natively and in a browser worker.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use qi_ai::{AnyEngine, Level};
//! use qi_rules::any::{AnyGame, StartFrom};
//!
//! let game = AnyGame::new("xiangqi", "", &StartFrom::Start { seed: 0 }).unwrap();
//! let clock = qi_ai::search::native_clock();
//! let stop = AtomicBool::new(false);
//! let mut engine = AnyEngine::default();
//! let result = engine.think(&game, Level::new(2), &clock, &stop, 1, &mut |_| {});
//! assert!(result.best.is_some());
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod banqi;
pub mod chess;
pub mod gomoku;
pub mod level;
pub mod search;
pub mod xiangqi;

use std::sync::atomic::AtomicBool;

use qi_rules::Game;
use qi_rules::any::AnyGame;

pub use crate::level::{Level, LevelSettings};
pub use crate::search::{Budget, Limits, Score, SearchInfo, SearchResult};

/// A search engine for one game.
pub trait Engine {
    /// The game it plays.
    type Game: Game;

    /// Finds a move for the side to move in `game` within `budget`, reporting each completed
    /// depth to `on_info`. Returns at once with `best: None` when there is no legal move.
    fn search(
        &mut self,
        game: &Self::Game,
        budget: &mut Budget<'_>,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult;

    /// Forgets what it learnt (transposition table, history) before a new game.
    fn new_game(&mut self);
}

/// One engine for each game, made on first use.
#[derive(Default)]
pub struct AnyEngine {
    chess: Option<chess::ChessEngine>,
    xiangqi: Option<xiangqi::XiangqiEngine>,
    gomoku: Option<gomoku::GomokuEngine>,
    banqi: Option<banqi::BanqiEngine>,
}

impl AnyEngine {
    /// Searches `game` at `level`. `now` gives milliseconds; `stop` ends the search early;
    /// `seed` drives the level's noise (the same seed gives the same move).
    pub fn think(
        &mut self,
        game: &AnyGame,
        level: Level,
        now: &dyn Fn() -> f64,
        stop: &AtomicBool,
        seed: u64,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let settings = level::settings(game.kind(), level);
        self.search_with(game, settings, now, stop, seed, on_info)
    }

    /// Searches `game` under explicit settings (the protocols' `go movetime` and friends).
    pub fn search_with(
        &mut self,
        game: &AnyGame,
        settings: LevelSettings,
        now: &dyn Fn() -> f64,
        stop: &AtomicBool,
        seed: u64,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let mut budget = Budget::new(settings.limits, now, stop);
        budget.noise = settings.noise;
        budget.seed = seed;
        match game {
            AnyGame::Chess(g) => self.chess.get_or_insert_with(chess::ChessEngine::new).search(
                g,
                &mut budget,
                on_info,
            ),
            AnyGame::Xiangqi(g) => self
                .xiangqi
                .get_or_insert_with(xiangqi::XiangqiEngine::new)
                .search(g, &mut budget, on_info),
            AnyGame::Gomoku(g) => self.gomoku.get_or_insert_with(gomoku::GomokuEngine::new).search(
                g,
                &mut budget,
                on_info,
            ),
            AnyGame::Banqi(g) => self.banqi.get_or_insert_with(banqi::BanqiEngine::new).search(
                g,
                &mut budget,
                on_info,
            ),
        }
    }

    /// Sizes the chess transposition table to about `mb` megabytes (the UCI `Hash` option),
    /// forgetting what it held.
    pub fn set_hash_mb(&mut self, mb: usize) {
        self.chess = Some(chess::ChessEngine::with_hash_mb(mb));
    }

    /// Forgets every game's learning (a new game).
    pub fn new_game(&mut self) {
        if let Some(e) = &mut self.chess {
            e.new_game();
        }
        if let Some(e) = &mut self.xiangqi {
            e.new_game();
        }
        if let Some(e) = &mut self.gomoku {
            e.new_game();
        }
        if let Some(e) = &mut self.banqi {
            e.new_game();
        }
    }
}
