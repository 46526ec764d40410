//! Tests of the gomoku engine.

use std::sync::atomic::AtomicBool;

use qi_rules::Game;
use qi_rules::gomoku::Gomoku;

use super::position::Position;
use super::threats::{FailCache, vcf};
use crate::search::{Budget, Limits};

#[test]
#[ignore = "finds VCF positions for the tests below"]
fn find_vcf_positions() {
    let stop = AtomicBool::new(false);
    let clock = || 0.0;
    let mut state = 12345u64;
    let mut found = [0usize; 8];
    for _ in 0..200_000 {
        let mut game = Gomoku::start(&Default::default(), 0);
        let stones = 16 + (qi_rules::zobrist::splitmix64(state) % 12) as usize;
        for _ in 0..stones {
            state = qi_rules::zobrist::splitmix64(state);
            let file = 3 + (state % 9) as u8;
            let rank = 3 + ((state >> 8) % 9) as u8;
            let _ =
                game.apply(qi_rules::gomoku::GomokuMove::Stone(qi_rules::Cell::new(file, rank)));
            if game.outcome().is_some() {
                break;
            }
        }
        if game.outcome().is_some() {
            continue;
        }
        let mut position = Position::new(&game);
        let mut budget = Budget::new(Limits::default(), &clock, &stop);
        let mut cache = FailCache::new();
        // Nothing forced on the board: no fives, no fours against the attacker.
        if !matches!(super::GomokuEngine::verdict(&position), super::Verdict::Open) {
            continue;
        }
        for depth in 1..8u32 {
            cache.clear();
            cache.allow(1_000_000);
            let mut line = Vec::new();
            if vcf(&mut position, &mut budget, &mut cache, depth, &mut line) {
                if found[depth as usize] < 3 {
                    found[depth as usize] += 1;
                    println!(
                        "depth {depth}: {} line {:?}",
                        game.position(),
                        line.iter()
                            .map(|&p| Position::cell_of(p.into()).to_string())
                            .collect::<Vec<_>>()
                    );
                }
                break;
            }
        }
    }
}

use qi_rules::gomoku::{GomokuRules, WinRule};
use qi_rules::{Cell, Side};

use super::GomokuEngine;
use crate::Engine;
use crate::driver::SearchResult;
use crate::search::{Score, assert_keeps_a_time_limit, native_clock};

fn search(game: &Gomoku, limits: Limits) -> SearchResult<String> {
    let stop = AtomicBool::new(false);
    let clock = native_clock();
    let mut budget = Budget::new(limits, &clock, &stop);
    GomokuEngine::new().search(game, &mut budget, &mut |_| {}).map(|m| game.move_text(m))
}

fn millis(ms: f64) -> Limits {
    Limits { time_ms: Some(ms), ..Limits::default() }
}

fn from_position(text: &str) -> Gomoku {
    Gomoku::from_position(&GomokuRules::default(), text).unwrap()
}

fn from_moves(rule: WinRule, moves: &str) -> Gomoku {
    Gomoku::from_move_string(&GomokuRules::new(15, rule).unwrap(), moves).unwrap()
}

/// Positions with a victory by continuous fours for the side to move, the number of fours it
/// takes, and the first move our search found.
const VCF_POSITIONS: [(&str, u32, &str); 4] = [
    ("15/15/15/4x1x8/6x1x2x3/3x1oxx2o4/3o2oo7/4o5o4/6ox3o3/6x8/3o1o9/5x2x6/15/15/15 w", 3, "f9"),
    ("15/15/15/3o2x8/8x2o3/6x1xxo4/3oxoo8/3o11/8x2x3/15/10o4/15/15/15/15 b", 5, "i9"),
    ("15/15/15/11o3/5o1oo6/3x11/8x1xo3/4x1x1xoo4/5o9/4x10/3o2o8/6x1x1x4/15/15/15 b", 6, "f8"),
    ("15/15/15/4x2x2o4/7x7/4x2o7/7o2o4/4x1x1x6/6o3o4/11o3/3x2x8/5o1o7/15/15/15 b", 7, "e9"),
];

#[test]
fn vcf_needs_the_fours_it_takes() {
    let stop = AtomicBool::new(false);
    let clock = || 0.0;
    for (text, fours, _) in VCF_POSITIONS {
        let mut position = Position::new(&from_position(text));
        let mut budget = Budget::new(Limits::default(), &clock, &stop);
        let mut cache = FailCache::new();
        cache.allow(1_000_000);
        let mut line = Vec::new();
        assert!(!vcf(&mut position, &mut budget, &mut cache, fours - 1, &mut line), "{text}");
        cache.clear();
        cache.allow(1_000_000);
        assert!(vcf(&mut position, &mut budget, &mut cache, fours, &mut line), "{text}");
        assert_eq!(line.len() as u32, 2 * fours - 1, "{text}");
    }
}

#[test]
fn the_search_finds_and_plays_out_forced_wins() {
    for (text, fours, first) in VCF_POSITIONS {
        let mut game = from_position(text);
        let attacker = game.side_to_move();
        let result = search(&game, millis(500.0));
        assert!(matches!(result.info.score, Score::Mate(n) if n > 0), "{text}: {result:?}");
        assert_eq!(result.best.as_deref(), Some(first), "{text}");
        // Play it out against the engine itself defending: the attacker wins within the line.
        // The defender's own fours may lengthen it.
        for _ in 0..4 * fours + 10 {
            if game.outcome().is_some() {
                break;
            }
            let limit = if game.side_to_move() == attacker { 200.0 } else { 50.0 };
            let mv = search(&game, millis(limit)).best.unwrap();
            game.apply(game.parse_move(&mv).unwrap()).unwrap();
        }
        let outcome = game.outcome().unwrap_or_else(|| panic!("{text}: {}", game.move_string()));
        assert_eq!(outcome.winner, Some(attacker), "{text}");
    }
}

#[test]
fn a_five_is_completed_at_once() {
    // Black has h8-k8 open at both ends and White a four of its own: Black just wins.
    let game = from_moves(WinRule::Freestyle, "h8a1i8a2j8a3k8a4");
    let result = search(&game, millis(200.0));
    assert!(matches!(result.best.as_deref(), Some("g8" | "l8")), "{result:?}");
    assert_eq!(result.info.score, Score::Mate(1));
}

#[test]
fn fours_are_blocked() {
    // White to move; Black has a four h8-k8 closed by White's g8: l8 is the only block.
    let game = from_moves(WinRule::Freestyle, "h8g8i8a1j8a3k8");
    assert_eq!(search(&game, millis(200.0)).best.as_deref(), Some("l8"));
    // A split four h8 i8 _ k8 l8: the gap.
    let game = from_moves(WinRule::Freestyle, "h8a1i8a3k8a5l8");
    assert_eq!(search(&game, millis(200.0)).best.as_deref(), Some("j8"));
    // Against an open four White blocks an end and knows it has lost.
    let game = from_moves(WinRule::Freestyle, "h8a1i8a3j8a5k8");
    let result = search(&game, millis(200.0));
    assert!(matches!(result.best.as_deref(), Some("g8" | "l8")), "{result:?}");
}

#[test]
fn open_threes_are_stopped() {
    // Black has an open three i8 j8 k8 and White nothing: White must answer at h8 or l8
    // (or g8 / m8, which also stop the open four), or lose to the open four.
    let game = from_moves(WinRule::Freestyle, "i8a1j8a15k8");
    let best = search(&game, millis(300.0)).best.unwrap();
    assert!(["h8", "l8", "g8", "m8"].contains(&best.as_str()), "{best}");
}

#[test]
fn renju_black_never_plays_a_forbidden_point() {
    // Black h8 i9 and h10 j8... a double three at i8? Make one: black g8 h8 (row) and i9 i10
    // (column): i8 would make two open threes at once, and it is Black's most tempting point.
    let game = from_moves(WinRule::Renju, "g8a1h8a3i9a5i10a7");
    assert_eq!(game.side_to_move(), Side::First);
    let i8 = game.parse_move("i8").unwrap();
    assert!(game.check(i8).is_err(), "i8 is a double three");
    for ms in [50.0, 300.0] {
        let best = search(&game, millis(ms)).best.unwrap();
        assert_ne!(best, "i8");
        assert!(game.check(game.parse_move(&best).unwrap()).is_ok(), "{best}");
    }
    // A black five is allowed in renju and taken; l8 would be an overline (forbidden).
    let game = from_moves(WinRule::Renju, "h8a1i8a3j8a5k8m8");
    assert_eq!(search(&game, millis(100.0)).best.as_deref(), Some("g8"));
}

#[test]
fn the_time_limit_is_kept() {
    let game = from_moves(WinRule::Freestyle, "h8i9g9i7h10h9i10");
    let mut engine = GomokuEngine::new();
    let result = assert_keeps_a_time_limit(|budget| {
        engine.search(&game, budget, &mut |_| {}).map(|m| game.move_text(m))
    });
    assert!(result.best.is_some());
}

#[test]
fn the_stop_signal_and_node_limit_stop_the_search() {
    let game = from_moves(WinRule::Freestyle, "h8i9g9i7h10h9i10");
    let clock = native_clock();
    let stop = AtomicBool::new(true);
    let mut budget = Budget::new(Limits::default(), &clock, &stop);
    let started = clock();
    let result = GomokuEngine::new().search(&game, &mut budget, &mut |_| {});
    assert!(clock() - started < 100.0);
    let mv = result.best.unwrap();
    assert!(game.check(mv).is_ok());

    for nodes in [1, 100, 5_000] {
        let limits = Limits { nodes: Some(nodes), ..Limits::default() };
        let result = search(&game, limits);
        assert!(result.info.nodes <= nodes + 1, "{nodes}: {}", result.info.nodes);
        assert!(result.best.is_some());
    }
}

#[test]
fn the_empty_board_and_a_finished_game() {
    let game = Gomoku::start(&GomokuRules::default(), 0);
    assert_eq!(search(&game, millis(50.0)).best.as_deref(), Some("h8"));
    let game = from_moves(WinRule::Freestyle, "h8a1i8a2j8a3k8a4l8");
    assert_eq!(search(&game, millis(50.0)).best, None);
    let _ = Cell::new(0, 0);
}

#[test]
fn caro_knows_a_five_closed_at_both_ends_wins_nothing() {
    // Black to move: d8-g8 is closed by White's c8 and i8, so h8 wins nothing; d10-g10 is
    // closed by c10 at one end only, so h10 wins.
    let game = from_moves(WinRule::Caro, "d8c8e8i8f8a1g8a3d10a5e10a7f10a9g10c10");
    let result = search(&game, millis(300.0));
    assert_eq!(result.best.as_deref(), Some("h10"), "{result:?}");
    assert_eq!(result.info.score, Score::Mate(1));
    // White to move against Black's d8-g8, closed by c8 alone: h8 would win, so White blocks.
    let game = from_moves(WinRule::Caro, "d8c8e8a1f8a3g8");
    assert_eq!(search(&game, millis(300.0)).best.as_deref(), Some("h8"));
    // With White on i8 already, h8 gives Black nothing: White need not block it.
    let game = from_moves(WinRule::Caro, "d8c8e8i8f8a1g8");
    assert_ne!(search(&game, millis(300.0)).best.as_deref(), Some("h8"));
}

#[test]
fn the_engine_plays_the_openings_from_its_own_search() {
    use qi_rules::RuleSet;
    use qi_rules::gomoku::Phase;
    for opening in ["swap", "swap2", "soosorv8,rule=renju"] {
        let rules = GomokuRules::parse(&format!("opening={opening}")).unwrap();
        let mut game = Gomoku::start(&rules, 0);
        let mut seen = Vec::new();
        // The engine on both seats, through the opening and a few moves on.
        let mut after_opening = 0;
        while game.outcome().is_none() && after_opening < 3 && game.history().len() < 40 {
            after_opening += usize::from(game.phase() == Phase::Play);
            seen.push(game.phase());
            let mv = search(&game, millis(100.0)).best.expect("a move");
            let mv = game.parse_move(&mv).unwrap();
            game.apply(mv).unwrap_or_else(|e| panic!("{opening}: {e} in {}", game.move_string()));
        }
        assert!(seen.contains(&Phase::Choose), "{opening}: {seen:?}");
        if opening.starts_with("soosorv8") {
            for phase in [Phase::Declare, Phase::ChooseAfterFourth, Phase::Offer, Phase::Select] {
                assert!(seen.contains(&phase), "{opening}: {phase:?} in {seen:?}");
            }
        }
        assert_eq!(game.phase(), Phase::Play, "{opening}: {}", game.move_string());
        // The opening stones stay near the centre and do not give either side an early win.
        let stones: Vec<_> = game.history().iter().take(3).filter_map(|m| m.point()).collect();
        assert!(
            stones.iter().all(|c| c.file.abs_diff(7) <= 4 && c.rank.abs_diff(7) <= 4),
            "{stones:?}"
        );
    }
    // A colour is taken by the side the search prefers: Black's two in the middle against a
    // white stone in the corner is Black's game, so the chooser takes black.
    let rules = GomokuRules::parse("opening=swap").unwrap();
    let game = Gomoku::from_move_string(&rules, "h8 o15 i8").unwrap();
    assert_eq!(search(&game, millis(300.0)).best.as_deref(), Some("black"));
    // Soosõrv-8. White's fourth stone thrown into the corner leaves Black ahead even with
    // one fifth stone picked by White: Black's holder keeps black.
    let rules = GomokuRules::parse("rule=renju,opening=soosorv8").unwrap();
    let game = Gomoku::from_move_string(&rules, "h8i9j8 white a1 offers=1").unwrap();
    assert_eq!(search(&game, millis(300.0)).best.as_deref(), Some("black"));
    // Offered i8 (an open three h8-i8-j8) and o15 (the far corner), White picks the corner.
    let offered = "h8i9j8 white a1 offers=2 black offer=i8 offer=o15";
    let game = Gomoku::from_move_string(&rules, offered).unwrap();
    assert_eq!(search(&game, millis(300.0)).best.as_deref(), Some("o15"));
    // And Black, offering, starts with its best fifth stone, next to its own.
    let game = Gomoku::from_move_string(&rules, "h8i9j8 white a1 offers=2 black").unwrap();
    let offer = search(&game, millis(300.0)).best.expect("an offer");
    let cell = game.parse_move(&offer).map(|mv| game.move_cells(mv).to).unwrap();
    assert!(cell.file.abs_diff(8) <= 2 && cell.rank.abs_diff(7) <= 2, "{offer}");
}
