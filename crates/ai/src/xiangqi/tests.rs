use std::sync::atomic::{AtomicBool, Ordering};

use qi_rules::EndReason;
use qi_rules::xiangqi::XiangqiRules;

use super::*;
use crate::SearchResult;
use crate::search::{Limits, assert_keeps_a_time_limit, native_clock};

fn game(fen: &str) -> Xiangqi {
    Xiangqi::from_position(&XiangqiRules::default(), fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn search(game: &Xiangqi, limits: Limits) -> SearchResult<String> {
    let clock = native_clock();
    let stop = AtomicBool::new(false);
    let mut budget = Budget::new(limits, &clock, &stop);
    XiangqiEngine::new().search(game, &mut budget, &mut |_| {}).map(|m| game.move_text(m))
}

fn depth(plies: u32) -> Limits {
    Limits { depth: Some(plies), time_ms: Some(20_000.0), ..Limits::default() }
}

/// Whether the side to move can force a win within `moves` of its moves, by the rules alone.
fn forced_win(game: &mut Xiangqi, moves: u32) -> bool {
    let attacker = game.side_to_move();
    if moves == 0 {
        return false;
    }
    game.legal_moves().into_iter().any(|mv| {
        game.play_unchecked(mv);
        let wins = match game.outcome() {
            Some(outcome) => outcome.winner == Some(attacker),
            None => {
                moves > 1
                    && game.legal_moves().into_iter().all(|reply| {
                        game.play_unchecked(reply);
                        let wins = match game.outcome() {
                            Some(outcome) => outcome.winner == Some(attacker),
                            None => forced_win(game, moves - 1),
                        };
                        game.undo();
                        wins
                    })
            }
        };
        game.undo();
        wins
    })
}

/// The engine finds a mate in exactly `moves`, which the rules confirm, and its first move keeps
/// the forced win.
fn assert_mate_in(fen: &str, moves: u32) {
    let mut position = game(fen);
    assert!(forced_win(&mut position, moves), "{fen}: no mate in {moves}");
    assert!(moves == 1 || !forced_win(&mut position, moves - 1), "{fen}: a faster mate");
    let result = search(&position, depth(2 * moves + 2));
    assert_eq!(result.info.score, Score::Mate(moves as i32), "{fen}: {:?}", result.info);
    let best = position.read_move(result.best.as_deref().unwrap()).unwrap();
    position.play_unchecked(best);
    if moves == 1 {
        let outcome = position.outcome().expect("mated");
        assert_eq!(outcome.reason, EndReason::Checkmate);
    } else {
        // Every reply still loses within the remaining moves.
        for reply in position.legal_moves() {
            position.play_unchecked(reply);
            assert!(forced_win(&mut position, moves - 1), "{fen}: {best} {reply} escapes");
            position.undo();
        }
    }
}

#[test]
fn mate_in_one_chariot_and_horse() {
    // The horse on c8 guards d10 and e9; the chariot closes rank 10.
    assert_mate_in("4k4/9/2N6/9/9/9/9/9/8R/3K5 w", 1);
}

#[test]
fn mate_in_one_double_cannon() {
    // Cannon to e5 screens the e4 cannon; a block on e9 would let the front cannon give check.
    assert_mate_in("3aka3/9/9/9/9/1C7/4C4/9/9/3K5 w", 1);
}

#[test]
fn mate_in_two() {
    assert_mate_in("2bak4/3Pa4/6R2/9/9/C6N1/9/9/9/3K5 w", 2);
}

#[test]
fn mate_in_three() {
    assert_mate_in("2bak4/4a4/1C5P1/3N5/2R6/9/9/9/9/3K5 w", 3);
}

#[test]
fn mate_in_three_for_black() {
    // The same attack mirrored: Black mates Red.
    assert_mate_in("3k5/9/9/9/9/2r6/3n5/1c5p1/4A4/2BAK4 b", 3);
}

#[test]
fn takes_a_hanging_chariot() {
    // Black's chariot on d6 hangs to the cannon (the horse on d4 is its screen); the soldier on
    // g6, which the other horse attacks, is a smaller bait.
    let position = game("2bakab2/9/9/4p4/3r2p2/9/3N1N3/9/3C5/2BAKAB2 w");
    let result = search(&position, depth(4));
    assert_eq!(result.best.as_deref(), Some("d2d6"), "{:?}", result.info);
}

#[test]
fn no_legal_move_gives_no_move() {
    let result = search(&game("3k5/9/9/9/9/9/9/9/r8/r3K4 w"), depth(3));
    assert_eq!(result.best, None);
}

#[test]
fn time_limit_is_respected() {
    let position = Xiangqi::start(&XiangqiRules::default(), 0);
    let mut engine = XiangqiEngine::new();
    let result = assert_keeps_a_time_limit(|budget| {
        engine.search(&position, budget, &mut |_| {}).map(|m| position.move_text(m))
    });
    assert!(result.info.depth >= 2, "{:?}", result.info);
    assert!(position.read_move(result.best.as_deref().unwrap()).is_ok());
}

#[test]
fn node_limit_is_respected() {
    let position = Xiangqi::start(&XiangqiRules::default(), 0);
    let result = search(&position, Limits { nodes: Some(5_000), ..Limits::default() });
    assert!(result.info.nodes <= 5_000, "{:?}", result.info);
    assert!(position.read_move(result.best.as_deref().unwrap()).is_ok());
}

#[test]
fn stop_before_the_search_still_gives_a_legal_move() {
    let position = Xiangqi::start(&XiangqiRules::default(), 0);
    let clock = native_clock();
    let stop = AtomicBool::new(true);
    let mut budget = Budget::new(Limits::default(), &clock, &stop);
    let result = XiangqiEngine::new().search(&position, &mut budget, &mut |_| {});
    assert!(position.check(result.best.unwrap()).is_ok());
}

#[test]
fn stop_during_the_search_returns_promptly() {
    let position = Xiangqi::start(&XiangqiRules::default(), 0);
    let clock = native_clock();
    let stop = AtomicBool::new(false);
    let (result, signalled_at, returned_at) = std::thread::scope(|scope| {
        let signaller = scope.spawn(|| {
            std::thread::sleep(std::time::Duration::from_millis(100));
            stop.store(true, Ordering::Relaxed);
            clock()
        });
        let mut budget = Budget::new(Limits::default(), &clock, &stop);
        let result = XiangqiEngine::new().search(&position, &mut budget, &mut |_| {});
        let returned_at = clock();
        (result, signaller.join().unwrap(), returned_at)
    });
    let late = returned_at - signalled_at;
    assert!(late < 50.0, "returned {late} ms after the stop signal");
    assert!(position.check(result.best.unwrap()).is_ok());
}

#[test]
fn reports_each_depth_with_a_legal_pv() {
    let position = Xiangqi::start(&XiangqiRules::default(), 0);
    let clock = native_clock();
    let stop = AtomicBool::new(false);
    let mut budget = Budget::new(depth(5), &clock, &stop);
    let mut depths = Vec::new();
    let result = XiangqiEngine::new().search(&position, &mut budget, &mut |info| {
        let mut line = position.clone();
        for &mv in &info.pv {
            line.check(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
            line.play_unchecked(mv);
        }
        depths.push(info.depth);
    });
    assert_eq!(depths, vec![1, 2, 3, 4, 5]);
    assert_eq!(result.info.pv.first(), result.best.as_ref());
}

#[test]
fn a_perpetual_checker_loses_and_the_victim_draws_or_wins() {
    // Red checks from h10 and h9 in turn; the cycle below has Red checking every move. Red, to
    // move in the repeated position, must see that going on loses.
    let mut position = game("3k5/9/9/9/9/9/9/9/9/4K2R1 w");
    for text in ["h1h10", "d10d9", "h10h9", "d9d10", "h9h10", "d10d9", "h10h9", "d9d10"] {
        let mv = position.read_move(text).unwrap();
        position.play_unchecked(mv);
    }
    // The position after h1h10 d10d9 repeats on h10 again: the engine avoids h9h10.
    let result = search(&position, depth(4));
    let best = result.best.unwrap();
    assert_ne!(best, "h9h10", "{:?}", result.info);
}

#[test]
fn reductions_come_from_the_formula() {
    for depth in -2..130 {
        for searched in -1..300 {
            assert_eq!(lmr(depth, searched), lmr_formula(depth, searched), "{depth} {searched}");
        }
    }
}
