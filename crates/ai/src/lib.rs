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
pub mod driver;
pub mod gomoku;
pub mod level;
pub mod net;
pub mod review;
pub mod search;
pub mod terms;
pub mod xiangqi;

use std::sync::atomic::AtomicBool;

use qi_rules::Game;
use qi_rules::any::{AnyGame, AnyMove};

pub use crate::driver::{Line, SearchInfo, SearchResult};
pub use crate::level::{Level, LevelSettings};
pub use crate::search::{Budget, Limits, RootShare, Score};

/// The move type of an engine's game.
pub type MoveOf<E> = <<E as Engine>::Game as Game>::Move;

/// A search engine for one game.
pub trait Engine {
    /// The game it plays.
    type Game: Game;

    /// Finds the `lines` best moves for the side to move in `game` within `budget`, each with
    /// its line (see [`driver::DriveOptions::lines`]), reporting each completed depth to
    /// `on_info`. Returns at once with `best: None` when there is no legal move.
    fn search_lines(
        &mut self,
        game: &Self::Game,
        budget: &mut Budget<'_>,
        lines: usize,
        on_info: &mut dyn FnMut(&SearchInfo<MoveOf<Self>>),
    ) -> SearchResult<MoveOf<Self>>;

    /// Finds a move for the side to move in `game` within `budget` (one line).
    fn search(
        &mut self,
        game: &Self::Game,
        budget: &mut Budget<'_>,
        on_info: &mut dyn FnMut(&SearchInfo<MoveOf<Self>>),
    ) -> SearchResult<MoveOf<Self>> {
        self.search_lines(game, budget, 1, on_info)
    }

    /// An engine for another thread helping this one's searches: it shares this engine's
    /// transposition table (what either finds, the other reads) and learns the rest on its
    /// own. See [`AnyEngine::helper`].
    #[must_use]
    fn helper(&self) -> Self
    where
        Self: Sized;

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
        on_info: &mut dyn FnMut(&SearchInfo<AnyMove>),
    ) -> SearchResult<AnyMove> {
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
        on_info: &mut dyn FnMut(&SearchInfo<AnyMove>),
    ) -> SearchResult<AnyMove> {
        let mut budget = Budget::new(settings.limits, now, stop);
        budget.noise = settings.noise;
        budget.seed = seed;
        self.search_budget(game, &mut budget, 1, on_info)
    }

    /// [`search_with`](AnyEngine::search_with) for the `lines` best lines (the protocols'
    /// `MultiPV`); the result's `info.lines` holds them, best first.
    #[allow(clippy::too_many_arguments)]
    pub fn search_lines_with(
        &mut self,
        game: &AnyGame,
        settings: LevelSettings,
        lines: usize,
        now: &dyn Fn() -> f64,
        stop: &AtomicBool,
        seed: u64,
        on_info: &mut dyn FnMut(&SearchInfo<AnyMove>),
    ) -> SearchResult<AnyMove> {
        let mut budget = Budget::new(settings.limits, now, stop);
        budget.noise = settings.noise;
        budget.seed = seed;
        self.search_budget(game, &mut budget, lines.max(1), on_info)
    }

    fn search_budget(
        &mut self,
        game: &AnyGame,
        budget: &mut Budget<'_>,
        lines: usize,
        on_info: &mut dyn FnMut(&SearchInfo<AnyMove>),
    ) -> SearchResult<AnyMove> {
        fn run<E: Engine>(
            engine: &mut E,
            game: &E::Game,
            budget: &mut Budget<'_>,
            lines: usize,
            on_info: &mut dyn FnMut(&SearchInfo<AnyMove>),
        ) -> SearchResult<AnyMove>
        where
            MoveOf<E>: Into<AnyMove>,
        {
            let mut report = |info: &SearchInfo<MoveOf<E>>| on_info(&info.clone().map(Into::into));
            engine.search_lines(game, budget, lines, &mut report).map(Into::into)
        }
        match game {
            AnyGame::Chess(g) => run(
                self.chess.get_or_insert_with(chess::ChessEngine::new),
                g,
                budget,
                lines,
                on_info,
            ),
            AnyGame::Xiangqi(g) => run(
                self.xiangqi.get_or_insert_with(xiangqi::XiangqiEngine::new),
                g,
                budget,
                lines,
                on_info,
            ),
            AnyGame::Gomoku(g) => run(
                self.gomoku.get_or_insert_with(gomoku::GomokuEngine::new),
                g,
                budget,
                lines,
                on_info,
            ),
            AnyGame::Banqi(g) => run(
                self.banqi.get_or_insert_with(banqi::BanqiEngine::new),
                g,
                budget,
                lines,
                on_info,
            ),
        }
    }

    /// The `lines` best lines of `game` at full strength within `limits`, best first, in one
    /// search (MultiPV: each depth searches every line, each line the best of the root moves the
    /// earlier lines do not start with, so each score is its move's own). Fewer lines come back
    /// when there are fewer legal moves; none when the game is over (`best` is `None`).
    pub fn analyse_lines(
        &mut self,
        game: &AnyGame,
        limits: Limits,
        lines: usize,
        now: &dyn Fn() -> f64,
        stop: &AtomicBool,
    ) -> SearchResult<AnyMove> {
        let mut budget = Budget::new(limits, now, stop);
        self.search_budget(game, &mut budget, lines.max(1), &mut |_| {})
    }

    /// Sizes the chess transposition table to about `mb` megabytes (the UCI `Hash` option),
    /// forgetting what it held.
    pub fn set_hash_mb(&mut self, mb: usize) {
        self.chess = Some(chess::ChessEngine::with_hash_mb(mb));
    }

    /// An engine for a thread helping this one search `game` (Lazy SMP, as Stockfish does):
    /// it shares this engine's transposition table for `game`'s kind, so what either thread
    /// searches the other finds there, and keeps its own history and killers. Run it with
    /// [`AnyEngine::help`] while this engine searches the same position, and stop it when
    /// this engine's search returns: that search's answer is the one to play.
    #[must_use]
    pub fn helper(&mut self, game: &AnyGame) -> AnyEngine {
        let mut helper = AnyEngine::default();
        match game {
            AnyGame::Chess(_) => {
                helper.chess =
                    Some(self.chess.get_or_insert_with(chess::ChessEngine::new).helper());
            }
            AnyGame::Xiangqi(_) => {
                let main = self.xiangqi.get_or_insert_with(xiangqi::XiangqiEngine::new);
                helper.xiangqi = Some(main.helper());
            }
            AnyGame::Gomoku(_) => {
                let main = self.gomoku.get_or_insert_with(gomoku::GomokuEngine::new);
                helper.gomoku = Some(main.helper());
            }
            AnyGame::Banqi(_) => {
                helper.banqi =
                    Some(self.banqi.get_or_insert_with(banqi::BanqiEngine::new).helper());
            }
        }
        helper
    }

    /// Searches `game` at full strength as helper number `index` (from 1) of a search another
    /// thread runs with the engine this one is a [helper](AnyEngine::helper) of, until `stop`
    /// is set; returns what it found (see [`deepest`]). Odd helpers start a depth deeper than
    /// the main search, so the threads spread over two depths and fill the shared table ahead
    /// of it. `depth` is the main search's depth limit, if it has one: a helper goes no deeper
    /// (it returns at that depth), so the answer of a search to depth N is a
    /// depth-N answer whichever thread gave it.
    pub fn help(
        &mut self,
        game: &AnyGame,
        index: usize,
        depth: Option<u32>,
        now: &dyn Fn() -> f64,
        stop: &AtomicBool,
    ) -> SearchResult<AnyMove> {
        let first = (1 + (index % 2) as u32).min(depth.unwrap_or(u32::MAX).max(1));
        let limits = Limits { depth, from_depth: Some(first), ..Limits::default() };
        let mut budget = Budget::new(limits, now, stop);
        self.search_budget(game, &mut budget, 1, &mut |_| {})
    }

    /// Helper engines for `threads - 1` threads helping this engine search `game`, kept in
    /// `pool` from search to search (their history is worth keeping) and made anew when the
    /// game's kind or the number changes.
    pub fn helpers<'p>(
        &mut self,
        pool: &'p mut HelperPool,
        game: &AnyGame,
        threads: usize,
    ) -> &'p mut [AnyEngine] {
        let count = threads.saturating_sub(1);
        if pool.kind != Some(game.kind()) || pool.engines.len() != count {
            pool.kind = Some(game.kind());
            pool.engines = (0..count).map(|_| self.helper(game)).collect();
        }
        &mut pool.engines
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

/// The engines helping an [`AnyEngine`] on other threads (see [`AnyEngine::helpers`]).
#[derive(Default)]
pub struct HelperPool {
    kind: Option<qi_rules::GameKind>,
    engines: Vec<AnyEngine>,
}

impl HelperPool {
    /// Forgets the helpers: the next search makes new ones (after the main engine was
    /// replaced, say by a new table size, they would share the old one's table).
    pub fn clear(&mut self) {
        *self = HelperPool::default();
    }

    /// Forgets what the helpers learnt (a new game): the next search makes new ones. (Not
    /// each helper's own `new_game`: that would clear the table they share with the main
    /// engine once per helper, and the main engine's `new_game` clears it already.)
    pub fn new_game(&mut self) {
        self.clear();
    }
}

/// The answer of a search that threads ran together: the main thread's, unless a helper
/// completed a deeper iteration (then the deepest helper's, with its report). Helpers search
/// the same position with the same table, so a deeper result is the better founded one.
#[must_use]
pub fn deepest(
    main: SearchResult<AnyMove>,
    helpers: impl IntoIterator<Item = SearchResult<AnyMove>>,
) -> SearchResult<AnyMove> {
    helpers.into_iter().fold(main, |best, helper| {
        if helper.best.is_some() && helper.info.depth > best.info.depth { helper } else { best }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use qi_rules::any::StartFrom;

    fn analyse(game: &AnyGame, plies: u32) -> SearchResult<AnyMove> {
        let clock = search::native_clock();
        let stop = AtomicBool::new(false);
        let limits = Limits { depth: Some(plies), ..Limits::default() };
        AnyEngine::default().analyse_lines(game, limits, 3, &clock, &stop)
    }

    fn first_moves(result: &SearchResult<AnyMove>) -> Vec<String> {
        result.info.lines.iter().map(|l| l.pv[0].to_string()).collect()
    }

    #[test]
    fn a_helper_fills_the_table_its_engine_reads_and_a_new_game_clears_it() {
        let clock = search::native_clock();
        let stop = AtomicBool::new(false);
        for (variant, depth) in [("chess", 8), ("xiangqi", 6), ("banqi", 3), ("gomoku", 4)] {
            let game = AnyGame::new(variant, "", &StartFrom::Start { seed: 1 }).unwrap();
            let game = match variant {
                // An empty gomoku board is answered from the threats, without a search.
                "gomoku" => {
                    let mut game = game;
                    game.play("h8").unwrap();
                    game.play("i9").unwrap();
                    game
                }
                _ => game,
            };
            let limits = Limits { depth: Some(depth), ..Limits::default() };
            let nodes = |engine: &mut AnyEngine| {
                engine.analyse_lines(&game, limits, 1, &clock, &stop).info.nodes
            };
            let alone = nodes(&mut AnyEngine::default());
            let mut engine = AnyEngine::default();
            let mut helper = engine.helper(&game);
            let helped = nodes(&mut helper);
            assert!(helped > 0);
            // What the helper searched is in the table the engine reads.
            let after = nodes(&mut engine);
            assert!(
                after * 4 < alone * 3,
                "{variant}: {after} nodes after the helper, {alone} alone"
            );
            // A new game clears the shared table: the engine starts from nothing again (its
            // history is cleared too, so it searches as a new engine does).
            engine.new_game();
            assert_eq!(nodes(&mut engine), alone, "{variant}");
        }
    }

    #[test]
    fn the_deepest_thread_answers_the_main_one_on_a_tie() {
        let game = AnyGame::new("chess", "", &StartFrom::Start { seed: 0 }).unwrap();
        let clock = search::native_clock();
        let stop = AtomicBool::new(false);
        let at = |depth| {
            let limits = Limits { depth: Some(depth), ..Limits::default() };
            AnyEngine::default().analyse_lines(&game, limits, 1, &clock, &stop)
        };
        let (three, four, five) = (at(3), at(4), at(5));
        assert_eq!(deepest(three.clone(), [four.clone(), five.clone()]).info.depth, 5);
        assert_eq!(deepest(five.clone(), [three.clone(), four.clone()]).info.depth, 5);
        let mut other = four.clone();
        other.info.nodes += 1;
        assert_eq!(deepest(four.clone(), [other]), four, "a tie keeps the main thread's");
        // A helper stopped before it found anything is never chosen.
        let nothing = SearchResult { best: None, ..five };
        assert_eq!(deepest(three.clone(), [nothing]), three);
    }

    #[test]
    fn helpers_are_kept_between_searches_and_made_anew_for_another_game_or_count() {
        let chess = AnyGame::new("chess", "", &StartFrom::Start { seed: 0 }).unwrap();
        let xiangqi = AnyGame::new("xiangqi", "", &StartFrom::Start { seed: 0 }).unwrap();
        let mut engine = AnyEngine::default();
        let mut pool = HelperPool::default();
        assert!(engine.helpers(&mut pool, &chess, 1).is_empty());
        assert_eq!(engine.helpers(&mut pool, &chess, 3).len(), 2);
        let table_of = |engine: &AnyEngine| engine.chess.as_ref().map(|e| e.table_id());
        let first = table_of(&engine.helpers(&mut pool, &chess, 3)[0]);
        assert_eq!(first, table_of(&engine), "a helper shares its engine's table");
        engine.helpers(&mut pool, &chess, 3)[0].chess = None;
        assert!(engine.helpers(&mut pool, &chess, 3)[0].chess.is_none(), "kept, not made anew");
        let for_xiangqi = engine.helpers(&mut pool, &xiangqi, 3);
        assert!(for_xiangqi[0].xiangqi.is_some() && for_xiangqi[0].chess.is_none());
        assert_eq!(engine.helpers(&mut pool, &xiangqi, 2).len(), 1);
    }

    const MATE_FOR_TESTS: i32 = 100_000;

    #[test]
    fn three_lines_have_three_different_first_moves_best_first() {
        // Black's queen on d5 hangs to the knight: taking it is line one, by far.
        let hung = "rnb1kbnr/ppp1pppp/8/3q4/8/2N5/PPPP1PPP/R1BQKBNR w KQkq - 0 3";
        let game = AnyGame::new("chess", "", &StartFrom::Position(hung)).unwrap();
        let result = analyse(&game, 4);
        let moves = first_moves(&result);
        assert_eq!(moves.len(), 3);
        assert_eq!(moves[0], "c3d5");
        assert_eq!(result.best.map(|m| m.to_string()).as_deref(), Some("c3d5"));
        assert!(moves[1] != moves[0] && moves[2] != moves[0] && moves[1] != moves[2], "{moves:?}");
        let cp = |score: Score| match score {
            Score::Cp(cp) => cp,
            Score::Mate(n) => n.signum() * MATE_FOR_TESTS,
        };
        let lines = &result.info.lines;
        assert!(cp(lines[0].score) >= cp(lines[1].score), "{lines:?}");
        assert!(cp(lines[1].score) >= cp(lines[2].score), "{lines:?}");
        assert!(cp(lines[0].score) > cp(lines[2].score) + 500, "{lines:?}");
        assert_eq!(result.info.pv, lines[0].pv);
        // Every line is legal from the position.
        for line in lines {
            let mut replay = game.clone();
            for mv in &line.pv {
                replay.apply(*mv).unwrap();
            }
        }
        // An empty gomoku board has one sensible move (the centre): start after two stones.
        for (variant, opening) in
            [("xiangqi", &[][..]), ("gomoku", &["h8", "i9"][..]), ("banqi", &[])]
        {
            let mut game = AnyGame::new(variant, "", &StartFrom::Start { seed: 3 }).unwrap();
            for text in opening {
                game.play(text).unwrap();
            }
            let result = analyse(&game, 3);
            let moves = first_moves(&result);
            assert_eq!(moves.len(), 3, "{variant}");
            assert!(
                moves[1] != moves[0] && moves[2] != moves[0] && moves[1] != moves[2],
                "{moves:?}"
            );
        }
    }

    /// Searches `game` to `plies` under share `part` of `parts`, for every line the share has.
    fn search_share(game: &AnyGame, plies: u32, part: u8, parts: u8) -> SearchResult<AnyMove> {
        let clock = search::native_clock();
        let stop = AtomicBool::new(false);
        let limits = Limits {
            depth: Some(plies),
            root_share: RootShare::new(part, parts),
            ..Limits::default()
        };
        let settings = LevelSettings::full_strength(limits);
        AnyEngine::default().search_lines_with(game, settings, 400, &clock, &stop, 0, &mut |_| {})
    }

    #[test]
    fn shares_of_the_root_moves_search_every_move_once_and_the_best_share_has_the_best_move() {
        // Each share searches its own moves and no other, and the shares together search every
        // root move once: in all four games.
        for (variant, opening) in [
            ("chess", &[][..]),
            ("xiangqi", &[][..]),
            ("gomoku", &["h8", "i9"][..]),
            ("banqi", &[][..]),
        ] {
            let mut game = AnyGame::new(variant, "", &StartFrom::Start { seed: 3 }).unwrap();
            for text in opening {
                game.play(text).unwrap();
            }
            let whole = search_share(&game, 1, 0, 1);
            let mut all: Vec<String> = first_moves(&whole);
            let mut shared: Vec<String> =
                (0..3).flat_map(|part| first_moves(&search_share(&game, 1, part, 3))).collect();
            assert!(all.len() > 3, "{variant}: {all:?}");
            all.sort();
            shared.sort();
            assert_eq!(shared, all, "{variant}");
        }
        // The hung queen: the share holding the capture scores best, whichever it is.
        let hung = "rnb1kbnr/ppp1pppp/8/3q4/8/2N5/PPPP1PPP/R1BQKBNR w KQkq - 0 3";
        let game = AnyGame::new("chess", "", &StartFrom::Position(hung)).unwrap();
        let best = (0..2)
            .map(|part| search_share(&game, 4, part, 2))
            .max_by_key(|result| result.info.score)
            .unwrap();
        assert_eq!(best.best.map(|m| m.to_string()).as_deref(), Some("c3d5"));
        // One legal move: the share holding it plays it, the other has nothing to search.
        let one_move = "6k1/8/6K1/8/8/8/8/7R b - - 0 1";
        let game = AnyGame::new("chess", "", &StartFrom::Position(one_move)).unwrap();
        let answers: Vec<Option<String>> = (0..2)
            .map(|part| search_share(&game, 3, part, 2).best.map(|m| m.to_string()))
            .collect();
        assert_eq!(answers.iter().flatten().count(), 1, "{answers:?}");
    }

    #[test]
    fn fewer_lines_when_fewer_moves_and_none_after_the_end() {
        // The black king has one move (h8 is covered by nothing; g8-h8 is the only square).
        let one_move = "6k1/8/6K1/8/8/8/8/7R b - - 0 1";
        let game = AnyGame::new("chess", "", &StartFrom::Position(one_move)).unwrap();
        let legal = game.legal_moves();
        let result = analyse(&game, 3);
        assert_eq!(result.info.lines.len(), legal.len().min(3));
        let mated = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
        let mut game = AnyGame::new("chess", "", &StartFrom::Position(mated)).unwrap();
        game.play("a1a8").unwrap();
        let result = analyse(&game, 3);
        assert_eq!(result.best, None);
        assert!(result.info.lines.is_empty());
        assert_eq!(result.info.score, Score::Mate(0));
    }
}
