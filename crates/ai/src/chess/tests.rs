use std::sync::atomic::{AtomicBool, Ordering};

use qi_rules::Game;
use qi_rules::chess::{ChessGame, ChessRules};

use qi_rules::chess::shakmaty::MoveList;

use super::{ChessEngine, MAX_MOVES, reduction, reduction_formula};
use crate::Engine;
use crate::driver::SearchResult;
use crate::search::{Budget, Limits, Score, assert_keeps_a_time_limit, native_clock};

fn game(fen: &str) -> ChessGame {
    ChessGame::from_position(&ChessRules::default(), fen).expect("valid FEN")
}

fn search(game: &ChessGame, limits: Limits) -> SearchResult<String> {
    let clock = native_clock();
    let stop = AtomicBool::new(false);
    let mut budget = Budget::new(limits, &clock, &stop);
    ChessEngine::new().search(game, &mut budget, &mut |_| {}).map(|m| game.move_text(m))
}

fn depth(plies: u32) -> Limits {
    Limits { depth: Some(plies), time_ms: Some(20_000.0), ..Limits::default() }
}

fn assert_mate(fen: &str, moves: i32, first: &str) {
    let result = search(&game(fen), depth(2 * moves as u32 + 2));
    assert_eq!(result.info.score, Score::Mate(moves), "{fen}: {:?}", result.info);
    assert_eq!(result.best.as_deref(), Some(first), "{fen}");
}

#[test]
fn finds_mates_in_one() {
    assert_mate("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 1, "d1d8");
    assert_mate("r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 4 4", 1, "f3f7");
}

#[test]
fn finds_mates_in_two() {
    assert_mate("r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 10", 2, "d5f6");
    assert_mate("6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1", 2, "g2g1");
    assert_mate("1r6/4b2k/1q1pNrpp/p2Pp3/4P3/1P1R3Q/5PPP/5RK1 w - - 0 1", 2, "h3h6");
}

#[test]
fn finds_mates_in_three() {
    assert_mate("r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1", 3, "f8c5");
    assert_mate("2r3k1/p4p2/3Rp2p/1p2P1pK/8/1P4P1/P3Q2P/1q6 b - - 0 1", 3, "b1g6");
    assert_mate("r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1", 3, "f6a6");
}

#[test]
fn takes_a_hanging_queen() {
    let result = search(
        &game("rnb1kbnr/pppp1ppp/8/4p3/3qP3/2N2N2/PPPP1PPP/R1BQKB1R w KQkq - 0 4"),
        depth(5),
    );
    assert_eq!(result.best.as_deref(), Some("f3d4"));
    assert!(matches!(result.info.score, Score::Cp(cp) if cp > 500), "{:?}", result.info);
}

#[test]
fn sees_being_mated_and_stalemate() {
    // Mated: no move; stalemate: no move either.
    let mated = search(&game("6Rk/5Q2/8/8/8/8/8/6K1 b - - 0 1"), depth(3));
    assert_eq!(mated.best, None);
    let stalemate = search(&game("7k/5Q2/8/8/8/8/8/6K1 b - - 0 1"), depth(3));
    assert_eq!(stalemate.best, None);
}

#[test]
fn avoids_stalemating_when_winning() {
    // Qf7 stalemates? Qg6 stalemates: the engine must not play a stalemating move.
    let g = game("7k/8/6Q1/8/8/8/8/6K1 w - - 0 1");
    let result = search(&g, depth(6));
    let mut after = g.clone();
    after.apply(after.parse_move(result.best.as_deref().unwrap()).unwrap()).unwrap();
    assert!(after.outcome().is_none() || after.outcome().unwrap().winner.is_some());
}

#[test]
fn a_repetition_of_the_game_history_is_a_draw() {
    // Black is a queen down, but going back to h8 repeats a position of the game: a draw.
    let mut g = game("6k1/8/8/8/8/8/8/3QK3 b - - 0 1");
    for mv in ["g8h8", "d1d2", "h8g8", "d2d1"] {
        let m = g.parse_move(mv).unwrap();
        g.apply(m).unwrap();
    }
    let result = search(&g, depth(6));
    assert_eq!(result.info.score, Score::Cp(-super::CONTEMPT), "{:?}", result.info);
    assert_eq!(result.best.as_deref(), Some("g8h8"));
}

#[test]
fn respects_a_time_limit() {
    let g = game("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
    let mut engine = ChessEngine::new();
    let result = assert_keeps_a_time_limit(|budget| {
        engine.search(&g, budget, &mut |_| {}).map(|m| g.move_text(m))
    });
    assert!(result.best.is_some());
    assert!(result.info.depth >= 3, "{:?}", result.info);
}

#[test]
fn respects_a_node_limit() {
    let g = game("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
    for nodes in [1, 10, 1000, 50_000] {
        let result = search(&g, Limits { nodes: Some(nodes), ..Limits::default() });
        assert!(result.info.nodes <= nodes, "{nodes}: {:?}", result.info);
        let mv = g.parse_move(result.best.as_deref().unwrap()).unwrap();
        assert!(g.check(mv).is_ok());
    }
}

#[test]
fn stops_on_the_signal() {
    let g = game("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
    let clock = native_clock();
    // Set before the search: it returns at once, still with a legal move.
    let stop = AtomicBool::new(true);
    let mut budget = Budget::new(Limits::default(), &clock, &stop);
    let result = ChessEngine::new().search(&g, &mut budget, &mut |_| {});
    assert!(g.check(result.best.unwrap()).is_ok());

    // Set while searching without limits: it returns promptly.
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        scope.spawn(|| {
            std::thread::sleep(std::time::Duration::from_millis(100));
            stop.store(true, Ordering::Relaxed);
        });
        let started = clock();
        let mut budget = Budget::new(Limits::default(), &clock, &stop);
        let result = ChessEngine::new().search(&g, &mut budget, &mut |_| {});
        assert!(clock() - started < 400.0);
        assert!(g.check(result.best.unwrap()).is_ok());
    });
}

#[test]
fn plays_chess960_castling() {
    let rules = ChessRules { chess960: true };
    let g = ChessGame::from_position(
        &rules,
        "bqnbrkr1/pppppppp/6n1/8/8/6N1/PPPPPPPP/BQNBRKR1 w GEge - 2 2",
    )
    .unwrap();
    let result = search(&g, depth(4));
    assert!(g.check(g.parse_move(result.best.as_deref().unwrap()).unwrap()).is_ok());
}

#[test]
fn reports_each_depth() {
    let g = ChessGame::start(&ChessRules::default(), 0);
    let clock = native_clock();
    let stop = AtomicBool::new(false);
    let mut budget = Budget::new(depth(5), &clock, &stop);
    let mut depths = Vec::new();
    let result = ChessEngine::new().search(&g, &mut budget, &mut |info| {
        depths.push(info.depth);
        assert!(!info.pv.is_empty());
    });
    assert_eq!(depths, vec![1, 2, 3, 4, 5]);
    assert_eq!(result.info.pv.first(), result.best.as_ref());
}

#[test]
fn reductions_come_from_the_formula_and_scores_fit_every_move_list() {
    for depth in -2..130 {
        for index in 0..300 {
            let formula = reduction_formula(depth, index as i32);
            assert_eq!(reduction(depth, index), formula, "depth {depth}, move {index}");
        }
    }
    // `order` collects a score per move into an array of MAX_MOVES: never fewer than a move
    // list holds.
    assert!(MoveList::new().capacity() <= MAX_MOVES);
}

#[test]
fn history_ages_at_each_new_search_helpers_included_but_not_between_ponder_slices() {
    let clock = native_clock();
    let stop = AtomicBool::new(false);
    let mut engine = ChessEngine::new();
    let run = |engine: &mut ChessEngine, game: &ChessGame, limits: Limits| {
        let mut budget = Budget::new(limits, &clock, &stop);
        engine.search(game, &mut budget, &mut |_| {});
    };
    let weight = |engine: &ChessEngine| -> i64 {
        (0..12 * 64).map(|key| i64::from(engine.history.get(key)).abs()).sum()
    };
    run(&mut engine, &ChessGame::start(&ChessRules::default(), 0), depth(6));
    let learnt = weight(&engine);
    assert!(learnt > 0);
    // A checkmated side has nothing to search, so the history changes only by ageing.
    let mated = game("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
    let ponder_slice = Limits { from_depth: Some(5), resumes: true, ..depth(8) };
    run(&mut engine, &mated, ponder_slice);
    assert_eq!(weight(&engine), learnt, "a ponder's later slice keeps the history");
    // A helper thread's search starts at a staggered depth, and is a new search all the same.
    let helper = Limits { from_depth: Some(2), ..depth(8) };
    run(&mut engine, &mated, helper);
    assert!(weight(&engine) <= learnt / 8 + 12 * 64, "{} of {learnt}", weight(&engine));
    let aged = weight(&engine);
    run(&mut engine, &mated, depth(8));
    assert!(weight(&engine) < aged.max(1), "and so is the main search's");
}
