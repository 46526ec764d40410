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
pub mod review;
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
        self.search_budget(game, &mut budget, on_info)
    }

    fn search_budget(
        &mut self,
        game: &AnyGame,
        budget: &mut Budget<'_>,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        match game {
            AnyGame::Chess(g) => {
                self.chess.get_or_insert_with(chess::ChessEngine::new).search(g, budget, on_info)
            }
            AnyGame::Xiangqi(g) => self
                .xiangqi
                .get_or_insert_with(xiangqi::XiangqiEngine::new)
                .search(g, budget, on_info),
            AnyGame::Gomoku(g) => {
                self.gomoku.get_or_insert_with(gomoku::GomokuEngine::new).search(g, budget, on_info)
            }
            AnyGame::Banqi(g) => {
                self.banqi.get_or_insert_with(banqi::BanqiEngine::new).search(g, budget, on_info)
            }
        }
    }

    /// The `lines` best lines of `game` at full strength, best first, within `limits` together:
    /// the first line gets half the time, the others share the rest. Each later line is a search
    /// that leaves out the earlier lines' first moves, so its score is that move's own. Fewer
    /// lines come back when there are fewer legal moves (none when the game is over).
    pub fn analyse_lines(
        &mut self,
        game: &AnyGame,
        limits: Limits,
        lines: usize,
        now: &dyn Fn() -> f64,
        stop: &AtomicBool,
    ) -> Vec<SearchResult> {
        let lines = lines.max(1);
        let mut found: Vec<SearchResult> = Vec::with_capacity(lines);
        for index in 0..lines {
            let mut line_limits = limits;
            line_limits.time_ms = limits.time_ms.map(|ms| {
                if lines == 1 {
                    ms
                } else if index == 0 {
                    ms / 2.0
                } else {
                    ms / 2.0 / (lines - 1) as f64
                }
            });
            let mut budget = Budget::new(line_limits, now, stop);
            budget.skip_root_moves(found.iter().filter_map(|r| r.best.clone()).collect());
            let result = self.search_budget(game, &mut budget, &mut |_| {});
            if result.best.is_none() || stop.load(std::sync::atomic::Ordering::Relaxed) {
                if index == 0 {
                    found.push(result);
                }
                break;
            }
            found.push(result);
        }
        found
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

#[cfg(test)]
mod tests {
    use super::*;
    use qi_rules::any::StartFrom;

    fn lines_of(variant: &str, start: StartFrom<'_>, plies: u32) -> Vec<SearchResult> {
        let game = AnyGame::new(variant, "", &start).expect("a game");
        let clock = search::native_clock();
        let stop = AtomicBool::new(false);
        let limits = Limits { depth: Some(plies), ..Limits::default() };
        AnyEngine::default().analyse_lines(&game, limits, 3, &clock, &stop)
    }

    fn first_moves(lines: &[SearchResult]) -> Vec<String> {
        lines.iter().map(|l| l.best.clone().expect("a move")).collect()
    }

    #[test]
    fn three_lines_have_three_different_first_moves_best_first() {
        // Black's queen on d5 hangs to the knight: taking it is line one, by far.
        let hung = "rnb1kbnr/ppp1pppp/8/3q4/8/2N5/PPPP1PPP/R1BQKBNR w KQkq - 0 3";
        let lines = lines_of("chess", StartFrom::Position(hung), 4);
        let moves = first_moves(&lines);
        assert_eq!(moves.len(), 3);
        assert_eq!(moves[0], "c3d5");
        assert!(moves[1] != moves[0] && moves[2] != moves[0] && moves[1] != moves[2], "{moves:?}");
        let cp = |r: &SearchResult| match r.info.score {
            Score::Cp(cp) => cp,
            Score::Mate(n) => n.signum() * MATE_FOR_TESTS,
        };
        assert!(cp(&lines[0]) >= cp(&lines[1]) && cp(&lines[0]) > cp(&lines[2]) + 500, "{lines:?}");
        assert!(lines.iter().all(|l| l.info.pv.first() == l.best.as_ref()));
        // An empty gomoku board has one sensible move (the centre): start after two stones.
        for (variant, opening) in
            [("xiangqi", &[][..]), ("gomoku", &["h8", "i9"][..]), ("banqi", &[])]
        {
            let mut game = AnyGame::new(variant, "", &StartFrom::Start { seed: 3 }).unwrap();
            for text in opening {
                game.play(text).unwrap();
            }
            let clock = search::native_clock();
            let stop = AtomicBool::new(false);
            let limits = Limits { depth: Some(3), ..Limits::default() };
            let lines = AnyEngine::default().analyse_lines(&game, limits, 3, &clock, &stop);
            let moves = first_moves(&lines);
            assert_eq!(moves.len(), 3, "{variant}");
            assert!(
                moves[1] != moves[0] && moves[2] != moves[0] && moves[1] != moves[2],
                "{moves:?}"
            );
        }
    }

    const MATE_FOR_TESTS: i32 = 100_000;

    #[test]
    fn fewer_lines_when_fewer_moves_and_none_after_the_end() {
        // The black king has one move (h8 is covered by nothing; g8-h8 is the only square).
        let one_move = "6k1/8/6K1/8/8/8/8/7R b - - 0 1";
        let game = AnyGame::new("chess", "", &StartFrom::Position(one_move)).unwrap();
        let legal = game.legal_moves();
        let lines = lines_of("chess", StartFrom::Position(one_move), 3);
        assert_eq!(lines.len(), legal.len().min(3));
        assert_eq!(first_moves(&lines).len(), lines.len());
        let mated = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
        let mut game = AnyGame::new("chess", "", &StartFrom::Position(mated)).unwrap();
        game.play("a1a8").unwrap();
        let clock = search::native_clock();
        let stop = AtomicBool::new(false);
        let limits = Limits { depth: Some(3), ..Limits::default() };
        let lines = AnyEngine::default().analyse_lines(&game, limits, 3, &clock, &stop);
        assert_eq!(lines.len(), 1);
        assert_eq!(lines[0].best, None);
    }
}
