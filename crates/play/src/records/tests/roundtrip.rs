//! Export then import gives the same game, for random playouts of every game and rule set.

use crate::{Brush, Mark, Shape};
use qi_rules::{Cell, GameKind, Side};

use super::{Rng, assert_same_game, read};
use crate::record::{EndedBy, Ending, GameRecord, Start};
use crate::records::{Format, export, import};

const COMMENTS: [&str; 8] = [
    "A quiet move.",
    "Threatens mate: {not really}",
    "two\nlines",
    "braces } and ; inside",
    "x}\ny",
    "<b>bold</b> & \"quoted\"",
    "中文注释",
    "(not a variation)",
];

/// Tags, the roster's in the roster's order (export writes them first, in that order).
const TAGS: [(&str, &str); 6] = [
    ("Event", "Club \"open\" \\ 2024"),
    ("Date", "2024.05.01"),
    ("White", "Ann"),
    ("Black", "<script>alert(1)</script>"),
    ("Annotator", "Qi"),
    ("TimeControl", "40/7200:3600"),
];

/// A random game of `kind` under `rules` from the start picked by `seed`, up to `max_plies`,
/// with random tags and comments.
fn random_record(rng: &mut Rng, kind: GameKind, rules: &str, max_plies: usize) -> GameRecord {
    let mut record = GameRecord::new(kind, rules, rng.next());
    let mut game = record.start_game();
    for _ in 0..max_plies {
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.below(moves.len())].clone();
        game.play(&mv).unwrap();
        record.moves.push(mv);
    }
    for _ in 0..rng.below(4) {
        let ply = rng.below(record.moves.len() + 1);
        record.comments.insert(ply, COMMENTS[rng.below(COMMENTS.len())].to_owned());
    }
    add_tree(rng, &mut record);
    let mut tags: Vec<(String, String)> =
        TAGS.iter().map(|(n, v)| ((*n).to_owned(), (*v).to_owned())).collect();
    tags.retain(|_| rng.below(2) == 0);
    record.tags = tags;
    // Half the games the moves leave open end otherwise: a resignation, a flag, a draw agreed,
    // or a result given without a reason.
    if game.outcome().is_none() && rng.below(2) == 0 {
        let (first, second) = (Some(Side::First), Some(Side::Second));
        let endings = [
            (first, EndedBy::Resignation),
            (second, EndedBy::Resignation),
            (first, EndedBy::Time),
            (second, EndedBy::Time),
            (None, EndedBy::Agreement),
            (first, EndedBy::Recorded),
            (second, EndedBy::Recorded),
            (None, EndedBy::Recorded),
        ];
        let (winner, by) = endings[rng.below(endings.len())];
        record.ending = Some(Ending { winner, by });
    }
    record
}

/// Gives `record` random variations (nested too), marks, shapes and comments in them.
fn add_tree(rng: &mut Rng, record: &mut GameRecord) {
    let (files, ranks) = record.start_game().board_size();
    let mut tree = record.take_tree();
    for _ in 0..rng.below(6) {
        let paths = tree.paths();
        let mut path = paths[rng.below(paths.len())].clone();
        for step in 0..1 + rng.below(4) {
            let replay = {
                let mut probe = record.clone();
                probe.put_tree(tree.clone());
                probe.game_at(&path).expect("a path of the tree")
            };
            let moves = replay.game.legal_moves();
            if moves.is_empty() || replay.error.is_some() {
                break;
            }
            let mv = &moves[rng.below(moves.len())];
            path = tree.add_move(&path, mv).expect("a path of the tree");
            if rng.below(3) == 0 {
                tree.toggle_mark(&path, Mark([1, 2, 3, 4, 5, 6, 14, 16, 19, 146][rng.below(10)]));
            }
            if rng.below(4) == 0 {
                tree.set_comment(&path, COMMENTS[rng.below(COMMENTS.len())]);
            }
            if step == 0 && rng.below(3) == 0 {
                let cell = |rng: &mut Rng| {
                    Cell::new(
                        rng.below(usize::from(files)) as u8,
                        rng.below(usize::from(ranks)) as u8,
                    )
                };
                let from = cell(rng);
                let to = if rng.below(2) == 0 { from } else { cell(rng) };
                let brush = [Brush::Green, Brush::Red, Brush::Blue, Brush::Yellow][rng.below(4)];
                tree.toggle_shape(&path, Shape { from, to, brush });
            }
        }
    }
    record.put_tree(tree);
}

/// Exports `record` in every format of its game and reads each back.
fn check_round_trip(record: &GameRecord, context: &str) {
    for &format in Format::for_game(record.kind) {
        let text = export(record, format);
        // A `.psq` does not say the rule (the tournament does): it reads back as freestyle.
        let freestyle = super::full_rules(record.kind, &record.rules)
            .is_ok_and(|r| r.contains("rule=freestyle"));
        if format == Format::GomokuPsq && !freestyle {
            // Stones only: an opening's choices, declaration and offers are left out.
            let stones = record.moves.iter().filter(|m| m.parse::<qi_rules::Cell>().is_ok());
            assert_eq!(text.lines().count(), stones.count() + 2, "{context}\n{text}");
            continue;
        }
        let hint = if record.kind == GameKind::Gomoku { None } else { Some(record.kind) };
        for hint in [None, hint] {
            let imported = match import(&text, hint) {
                Ok(imported) => imported,
                Err(error) => panic!("{context} {format:?} {hint:?}: {error}\n{text}"),
            };
            let back = &imported.record;
            let context = format!("{context} {format:?} {hint:?}\n{text}");
            if format.is_position() {
                let end = record.replay(usize::MAX).game;
                assert_eq!(back.start_game().position(), end.position(), "{context}");
                assert!(back.moves.is_empty(), "{context}");
                continue;
            }
            assert!(!imported.more_games, "{context}");
            if matches!(format, Format::GomokuPsq | Format::XiangqiWxfFile) {
                // Formats of the moves alone: no comments, no variations, and no way to say
                // how a game the moves do not finish ended (a WXF file says the result only).
                assert_eq!(imported.format, format, "{context}");
                assert_eq!(back.start_game().position(), record.start_game().position());
                // A `.psq` holds stones only: an opening's colour choices are left out.
                let stones = |moves: &[String]| -> Vec<String> {
                    moves.iter().filter(|m| m.parse::<qi_rules::Cell>().is_ok()).cloned().collect()
                };
                assert_eq!(stones(&back.moves), stones(&record.moves), "{context}");
                let winner = |r: &GameRecord| r.ending.map(|e| e.winner);
                if format == Format::XiangqiWxfFile
                    && record.replay(usize::MAX).game.outcome().is_none()
                {
                    assert_eq!(winner(back), winner(record), "{context}");
                }
                continue;
            }
            assert_same_game(record, back, &context);
            if format == Format::GomokuMoves {
                continue;
            }
            assert_eq!(imported.format, format, "{context}");
            assert_eq!(back.tags, record.tags, "{context}");
            assert_eq!(back.comments, record.comments, "{context}");
            // The whole tree: variations, comments, marks, arrows and circles.
            assert_eq!(back.tree(), record.tree(), "{context}");
            // Writing the imported record gives the same text.
            assert_eq!(export(back, format), text, "{context}");
        }
    }
}

#[test]
fn chess_games_round_trip() {
    let mut rng = Rng(1);
    let mut finished = 0;
    for i in 0..120 {
        let rules = if i % 3 == 0 { "variant=chess960" } else { "" };
        let plies = 20 + rng.below(400);
        let record = random_record(&mut rng, GameKind::Chess, rules, plies);
        finished += usize::from(record.replay(usize::MAX).game.outcome().is_some());
        check_round_trip(&record, &format!("chess game {i}"));
    }
    assert!(finished > 10, "only {finished} finished games");
}

#[test]
fn chess_from_a_position_round_trips() {
    let mut rng = Rng(2);
    for i in 0..20 {
        let mut record = random_record(&mut rng, GameKind::Chess, "", 30);
        // Start from where that game got to, with Black to move half of the time.
        let middle = record.replay(15 + i % 2).game.position();
        let mut game = GameRecord::from_parts(
            GameKind::Chess,
            String::new(),
            Start::Position(middle),
            Vec::new(),
        );
        game.moves = record.moves.split_off(15 + i % 2);
        game.comments.insert(0, "from a position".into());
        check_round_trip(&game, &format!("chess position game {i}"));
    }
}

#[test]
fn xiangqi_games_round_trip() {
    let mut rng = Rng(3);
    let mut finished = 0;
    for i in 0..80 {
        let rules = if i % 4 == 0 { "natural_limit=30" } else { "" };
        let plies = 10 + rng.below(300);
        let record = random_record(&mut rng, GameKind::Xiangqi, rules, plies);
        finished += usize::from(record.replay(usize::MAX).game.outcome().is_some());
        check_round_trip(&record, &format!("xiangqi game {i}"));
    }
    assert!(finished > 10, "only {finished} finished games");
}

#[test]
fn banqi_games_round_trip() {
    let rule_sets = [
        "",
        "chain=true",
        "chain=true,capture_hidden=true,rush=true",
        "ranks=hongkong,capture_hidden=true,draw=20",
    ];
    let mut rng = Rng(4);
    let (mut chains, mut hidden_captures, mut finished) = (0, 0, 0);
    for i in 0..120 {
        let rules = rule_sets[i % rule_sets.len()];
        let record = random_record(&mut rng, GameKind::Banqi, rules, 400);
        let text = export(&record, Format::BanqiPgn);
        chains += usize::from(text.contains("stop"));
        hidden_captures +=
            usize::from(text.split_whitespace().any(|w| w.contains('x') && w.contains('=')));
        finished += usize::from(record.replay(usize::MAX).game.outcome().is_some());
        check_round_trip(&record, &format!("banqi game {i} ({rules})"));
    }
    assert!(
        chains > 5 && hidden_captures > 5 && finished > 50,
        "{chains} {hidden_captures} {finished}"
    );
}

#[test]
fn gomoku_games_round_trip() {
    let rule_sets = [
        "",
        "size=19",
        "rule=renju",
        "size=19,rule=standard",
        "size=20",
        "rule=caro",
        "opening=swap2",
        "rule=renju,opening=soosorv8",
        "size=19,opening=soosorv8",
    ];
    let mut rng = Rng(5);
    let mut finished = 0;
    for i in 0..80 {
        let rules = rule_sets[i % rule_sets.len()];
        let plies = 1 + rng.below(400);
        let record = random_record(&mut rng, GameKind::Gomoku, rules, plies);
        finished += usize::from(record.replay(usize::MAX).game.outcome().is_some());
        check_round_trip(&record, &format!("gomoku game {i} ({rules})"));
    }
    assert!(finished > 10, "only {finished} finished games");
}

#[test]
fn comments_with_braces_and_carriage_returns_read_back() {
    let mut record = GameRecord::new(GameKind::Chess, "", 0);
    record.moves = vec!["e2e4".into()];
    record.comments.insert(1, "a}\rb\r\n\nc".into());
    let back = read(&export(&record, Format::ChessPgn), None).record;
    assert_eq!(back.comments[&1], "a}\nb\nc");
    assert_eq!(back.moves, record.moves);
}

#[test]
fn gomoku_move_strings_read_in_several_spellings() {
    for text in ["h8i9j10", "h8 i9 j10", "H8, I9, J10", "  h8i9\nj10  "] {
        let imported = read(text, None);
        assert_eq!(imported.record.kind, GameKind::Gomoku);
        assert_eq!(imported.record.moves, ["h8", "i9", "j10"]);
        assert_eq!(imported.format, Format::GomokuMoves);
    }
    let renju = read("[Variant \"renju\"]\nh8 i9", Some(GameKind::Chess));
    assert_eq!(renju.record.rules, "size=15,rule=renju");
    // A game of gomoku that is also a list of chess coordinates: the hint decides.
    assert_eq!(read("e2e4", Some(GameKind::Chess)).record.kind, GameKind::Chess);
    assert_eq!(read("e2e4", None).record.kind, GameKind::Gomoku);
}

#[test]
fn random_trees_have_variations_and_the_pgn_shows_them() {
    let mut rng = Rng(11);
    let mut with_variations = 0;
    for _ in 0..20 {
        let record = random_record(&mut rng, GameKind::Chess, "", 30);
        if !record.variations.is_empty() {
            with_variations += 1;
            let text = export(&record, Format::ChessPgn);
            assert!(text.contains('('), "{text}");
        }
    }
    assert!(with_variations >= 10, "{with_variations} of 20");
}

/// A banqi record without a deal: the main line's flips fill in the start, a variation's flips
/// don't (they turn up pieces in another game than the one played).
#[test]
fn banqi_flips_in_a_variation_are_not_the_deal() {
    let text = "[Variant \"banqi\"]\n\n1. a1=p 1... b1=K (1... g1=R 2. h1=c) 2. c1=P *\n";
    let record = import(text, None).expect("reads").record;
    let Start::Position(start) = &record.start else { panic!("a deal: {:?}", record.start) };
    let rank_one = start.split(['/', ' ']).nth(3).expect("four ranks");
    assert_eq!(rank_one, "*p*K*P?????", "{start}");
    assert_eq!(record.variations[&1][0].moves, ["g1", "h1"]);
}
