//! Banqi engine tests: tactics, hidden-piece independence, budgets and the stop signal.

use std::sync::atomic::{AtomicBool, Ordering};

use qi_rules::Game;
use qi_rules::banqi::{Banqi, BanqiRules};
use qi_rules::options::RuleSet;

use super::*;
use crate::SearchResult;
use crate::search::{Limits, assert_keeps_a_time_limit, native_clock};

fn game(rules: &str, position: &str) -> Banqi {
    let rules = BanqiRules::parse(rules).expect("rules");
    Banqi::from_position(&rules, position).unwrap_or_else(|e| panic!("{position}: {e}"))
}

fn search(game: &Banqi, limits: Limits) -> SearchResult<String> {
    let stop = AtomicBool::new(false);
    let clock = native_clock();
    let mut budget = Budget::new(limits, &clock, &stop);
    BanqiEngine::new().search(game, &mut budget, &mut |_| {}).map(|m| game.move_text(m))
}

fn depth(n: u32) -> Limits {
    Limits { depth: Some(n), ..Limits::default() }
}

fn nodes(n: u64) -> Limits {
    Limits { nodes: Some(n), ..Limits::default() }
}

fn is_legal(game: &Banqi, text: &str) -> bool {
    game.parse_move(text).is_ok_and(|mv| game.check(mv).is_ok())
}

#[test]
fn takes_a_free_piece() {
    // The red horse on b3 takes the unguarded black cannon on c3.
    let g = game("", "*p*a6/1Nc5/8/7k 1 r 0");
    let result = search(&g, depth(4));
    assert_eq!(result.best.as_deref(), Some("b3-c3"), "{result:?}");
}

#[test]
fn takes_the_most_valuable_piece() {
    // The red general can take a black horse or a black advisor.
    let g = game("", "8/1n6/1Ka5/7p 1 r 0");
    let result = search(&g, depth(3));
    assert_eq!(result.best.as_deref(), Some("b2-c2"), "{result:?}");
}

#[test]
fn saves_an_attacked_piece() {
    // The black general on b1 attacks the red advisor on a1: it steps away.
    let g = game("", "7P/8/7p/Ak6 1 r 0");
    let result = search(&g, depth(4));
    assert_eq!(result.best.as_deref(), Some("a1-a2"), "{result:?}");
}

#[test]
fn the_cannon_captures_over_a_screen() {
    // The red cannon on a4 jumps the face-down piece on b4 to take the black chariot on c4.
    let g = game("", "C*pr5/8/8/6*P1 1 r 0");
    let result = search(&g, depth(3));
    assert_eq!(result.best.as_deref(), Some("a4-c4"), "{result:?}");
}

#[test]
fn chain_captures_go_on() {
    // With chain captures the red chariot on b4 takes c4 and then d4 in the same turn.
    let g = game("chain=true", "1Rnn4/8/8/7P 1 r 0");
    let result = search(&g, depth(4));
    assert_eq!(result.best.as_deref(), Some("b4-c4"), "{result:?}");
    let mut after = g.clone();
    after.apply(after.parse_move("b4-c4").expect("move")).expect("legal");
    assert_eq!(after.side_to_move(), Side::First);
    let result = search(&after, depth(4));
    assert_eq!(result.best.as_deref(), Some("c4-d4"), "{result:?}");
}

#[test]
fn face_down_pieces_do_not_change_the_move() {
    // The same face-up pieces; the face-down ones are swapped around.
    let pairs = [
        ("*K*p*n*C4/1N2c3/8/6*a1 2 r 0", "*a*C*K*n4/1N2c3/8/6*p1 2 r 0"),
        ("8/8/8/8 1 - 0", "8/8/8/8 1 - 0"),
    ];
    for (a, b) in &pairs[..1] {
        let (a, b) = (game("", a), game("", b));
        assert_ne!(a.position(), b.position());
        for limits in [depth(4), nodes(20_000)] {
            let (ra, rb) = (search(&a, limits), search(&b, limits));
            assert_eq!(ra.best, rb.best);
            assert_eq!(ra.info.score, rb.info.score);
            assert_eq!(ra.info.nodes, rb.info.nodes);
        }
    }
    // Two different deals, after the same three flips revealed the same pieces.
    let rules = BanqiRules::default();
    let deal = qi_rules::banqi::deal(&rules, 7);
    let mut swapped = Banqi::from_position(&rules, &swap_hidden(&deal.position())).expect("swap");
    let mut original = deal.clone();
    for g in [&mut original, &mut swapped] {
        for text in ["a1", "h4"] {
            let mv = g.parse_move(text).expect("flip");
            g.apply(mv).expect("flip");
        }
    }
    assert_ne!(original.position(), swapped.position());
    assert_eq!(original.conceal().position(), swapped.conceal().position());
    let limits = nodes(30_000);
    assert_eq!(search(&original, limits).best, search(&swapped, limits).best);
}

/// Swaps the identities of the face-down pieces on b1..g1 with those on b4..g4, keeping a1 and h4.
fn swap_hidden(position: &str) -> String {
    let (board, rest) = position.split_once(' ').expect("fields");
    let ranks: Vec<&str> = board.split('/').collect();
    let [top, second, third, bottom] = ranks[..] else { panic!("ranks") };
    let pieces = |rank: &str| rank.split('*').skip(1).map(str::to_owned).collect::<Vec<_>>();
    let (mut t, mut b) = (pieces(top), pieces(bottom));
    for i in 0..7 {
        if i > 0 {
            std::mem::swap(&mut t[i - 1], &mut b[i]);
        }
    }
    let join = |p: &[String]| p.iter().map(|s| format!("*{s}")).collect::<String>();
    format!("{}/{second}/{third}/{} {rest}", join(&t), join(&b))
}

#[test]
fn every_rule_option_searches() {
    for rules in ["", "ranks=hongkong", "chain=true", "rush=true", "capture_hidden=true", "draw=10"]
    {
        let mut g = game(rules, "*K*p*n*C4/1N2c3/1R6/6*a1 1 r 0");
        for _ in 0..12 {
            if g.outcome().is_some() {
                break;
            }
            let result = search(&g, nodes(5_000));
            let text = result.best.expect("a move");
            assert!(is_legal(&g, &text), "{rules}: {text}");
            let mv = g.parse_move(&text).expect("move");
            let revealed = qi_rules::banqi::Piece::ALL
                .into_iter()
                .find(|&p| g.clone().apply_revealing(mv, p).is_ok());
            match revealed {
                Some(piece) => g.apply_revealing(mv, piece).expect("reveal"),
                None => g.apply(mv).expect("legal"),
            }
        }
    }
}

#[test]
fn node_limit_is_respected() {
    let g = qi_rules::banqi::deal(&BanqiRules::default(), 3);
    for limit in [1, 100, 5_000] {
        let result = search(&g, nodes(limit));
        assert!(result.info.nodes <= limit, "{} > {limit}", result.info.nodes);
        assert!(is_legal(&g, result.best.as_deref().expect("move")));
    }
}

#[test]
fn time_limit_is_respected() {
    let mut g = qi_rules::banqi::deal(&BanqiRules::default(), 5);
    for text in ["c2", "d3", "e2", "f3"] {
        let mv = g.parse_move(text).expect("flip");
        g.apply(mv).expect("flip");
    }
    let mut engine = BanqiEngine::new();
    let result = assert_keeps_a_time_limit(|budget| {
        engine.search(&g, budget, &mut |_| {}).map(|m| g.move_text(m))
    });
    assert!(is_legal(&g, result.best.as_deref().expect("move")));
}

#[test]
fn the_stop_signal_ends_the_search() {
    let g = qi_rules::banqi::deal(&BanqiRules::default(), 9);
    let stop = AtomicBool::new(true);
    let clock = native_clock();
    let mut budget = Budget::new(Limits::default(), &clock, &stop);
    let result = BanqiEngine::new().search(&g, &mut budget, &mut |_| {});
    assert!(is_legal(&g, &g.move_text(result.best.expect("move"))));

    let stop = AtomicBool::new(false);
    let clock = native_clock();
    std::thread::scope(|scope| {
        let handle = scope.spawn(|| {
            let mut budget = Budget::new(Limits::default(), &clock, &stop);
            let result = BanqiEngine::new().search(&g, &mut budget, &mut |_| {});
            (result, clock())
        });
        std::thread::sleep(std::time::Duration::from_millis(100));
        let signalled = clock();
        stop.store(true, Ordering::Relaxed);
        let (result, finished) = handle.join().expect("search thread");
        assert!(finished - signalled < 100.0, "{} ms after the signal", finished - signalled);
        assert!(is_legal(&g, &g.move_text(result.best.expect("move"))));
    });
}

#[test]
fn no_move_gives_none() {
    // Black has no pieces: the game is over.
    let g = game("", "K7/8/8/8 2 r 0");
    let result = search(&g, depth(3));
    assert_eq!(result.best, None);
}

#[test]
fn greedy_takes_the_best_capture() {
    let g = game("", "8/1n6/1Ka5/7p 1 r 0");
    assert_eq!(GreedyPlayer::new(1).choose(&g).map(|mv| g.move_text(mv)).as_deref(), Some("b2-c2"));
}

/// The piece values the engine keeps from one evaluation to the next are the ones worked out
/// afresh, through games with captures (which change them) under every rank order and with
/// the chariot's rush (which the values read), one cache kept across all the games.
#[test]
fn kept_piece_values_are_the_fresh_ones() {
    let mut kept = eval::ValuesCache::default();
    let mut captures = 0;
    for (seed, rules) in [(1, ""), (2, "ranks=hongkong"), (3, "rush=true"), (4, "")].into_iter() {
        let mut g = qi_rules::banqi::deal(&BanqiRules::parse(rules).expect("rules"), seed);
        let mut pick = seed;
        for _ in 0..200 {
            if g.outcome().is_some() {
                break;
            }
            assert_eq!(
                eval::evaluate_cached(&g, &mut kept),
                eval::evaluate(&g),
                "{rules}: {}",
                g.position()
            );
            let moves = g.legal_moves();
            pick = qi_rules::zobrist::splitmix64(pick);
            let occupied = |g: &Banqi| board::squares(g).iter().filter(|s| s.is_occupied()).count();
            let before = occupied(&g);
            g.apply(moves[pick as usize % moves.len()]).expect("legal");
            captures += usize::from(occupied(&g) < before);
        }
    }
    assert!(captures >= 10, "only {captures} captures: the values hardly changed");
}
