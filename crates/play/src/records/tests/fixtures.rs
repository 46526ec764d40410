//! Real games from files: the main line, its comments and its final position.

use qi_rules::{GameKind, Side};

use super::read;
use crate::record::{GameRecord, Start};
use crate::records::{Format, export, export_all, import};

const OPERA: &str = include_str!("../testdata/opera.pgn");
const IMMORTAL: &str = include_str!("../testdata/immortal.pgn");
const XIANGQI: &str = include_str!("../testdata/xiangqi.pgn");
const ANNOTATED_CHESS: &str = include_str!("../testdata/annotated-lichess.pgn");
const ANNOTATED_XIANGQI: &str = include_str!("../testdata/annotated-xiangqi.pgn");

fn final_fen(record: &GameRecord) -> String {
    let replayed = record.replay(usize::MAX);
    assert!(replayed.error.is_none());
    replayed.game.position()
}

#[test]
fn the_opera_game() {
    let imported = read(OPERA, Some(GameKind::Xiangqi));
    let record = &imported.record;
    assert_eq!(imported.format, Format::ChessPgn);
    assert!(!imported.more_games);
    assert_eq!(record.kind, GameKind::Chess);
    assert_eq!(record.start, Start::Seed(0));
    assert_eq!(record.moves.len(), 33);
    assert_eq!(final_fen(record), "1n1Rkb1r/p4ppp/4q3/4p1B1/4P3/8/PPP2PPP/2K5 b k - 1 17");
    let outcome = record.replay(usize::MAX).game.outcome().unwrap();
    assert_eq!(outcome.winner, Some(Side::First));
    assert_eq!(record.moves[22], "e1c1", "12. O-O-O");
    // The placeholder round is dropped; the others stay in order, ECO included.
    let names: Vec<&str> = record.tags.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(names, ["Event", "Site", "Date", "White", "Black", "ECO"]);
    assert_eq!(record.comments.len(), 3);
    assert!(record.comments[&0].starts_with("Played in a box"));
    assert!(record.comments[&0].contains("Barber of\nSeville."));
    assert_eq!(record.comments[&4], "Philidor's Defence.");
    assert_eq!(record.comments[&13], "A double attack on f7 and b7.");
    // Exported again: SAN, the result from the mate, the comments in place.
    let text = export(record, Format::ChessPgn);
    assert!(text.contains("[Result \"1-0\"]"), "{text}");
    assert!(text.contains("2. Nf3 d6 {Philidor's Defence.} 3. d4"), "{text}");
    assert!(text.contains("12. O-O-O Rd8"), "{text}");
    assert!(text.trim_end().ends_with("17. Rd8# 1-0"), "{text}");
}

#[test]
fn the_immortal_game_with_variations_and_a_second_game() {
    let imported = read(IMMORTAL, None);
    let record = &imported.record;
    assert!(imported.more_games);
    assert_eq!(record.moves.len(), 45);
    assert_eq!(final_fen(record), "r1bk3r/p2pBpNp/n4n2/1p1NP2P/6P1/3P4/P1P1K3/q5b1 b - - 1 23");
    // Comments in variations are dropped; those on the main line stay, `;` ones included.
    let comments: Vec<(usize, &str)> =
        record.comments.iter().map(|(ply, text)| (*ply, text.as_str())).collect();
    assert_eq!(
        comments,
        [
            (0, "The Immortal Game."),
            (3, "The King's Gambit."),
            (8, "Bryan's Countergambit."),
            (36, "the bishop takes the rook"),
            (45, "White has\ngiven up both rooks, a bishop and the queen."),
        ]
    );
    assert!(record.tags.contains(&("Annotator".into(), "Qi test data".into())));
}

#[test]
fn a_xiangqi_game_in_wxf() {
    let imported = read(XIANGQI, Some(GameKind::Chess));
    let record = &imported.record;
    assert_eq!(record.kind, GameKind::Xiangqi);
    let coordinates = "h3e3 h10g8 h1g3 i10h10 i1h1 b10c8 c4c5 g7g6 b1c3 h8i8";
    assert_eq!(record.moves.join(" "), coordinates);
    assert_eq!(record.comments[&0], "Central cannon against screen horses.");
    assert!(record.tags.contains(&("Red".into(), "?".into())));
    let text = export(record, Format::XiangqiPgn);
    assert!(text.contains("1. C2=5 H8+7 2. H2+3 R9=8"), "{text}");
    assert!(text.contains("[Variant \"xiangqi\"]") && !text.contains("[FEN"), "{text}");
    // The same moves in coordinates, and in ICCS.
    let plain = read(&format!("[Variant \"xiangqi\"]\n{coordinates}"), None);
    assert_eq!(plain.record.moves, record.moves);
    let iccs = "[Game \"Chinese Chess\"]\n[Format \"ICCS\"]\n1. H2-E2 H9-G7 2. H0-G2 I9-H9 3. I0-H0 \
                B9-C7 4. C3-C4 G6-G5 5. B0-C2 H7-I7 *";
    assert_eq!(read(iccs, None).record.moves, record.moves);
    let untagged = iccs.replace("[Format \"ICCS\"]\n", "");
    assert_eq!(read(&untagged, None).record.moves, record.moves, "h0g2 says ICCS");
}

#[test]
fn chess960_castling_both_ways() {
    let text = "[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"rk4r1/pppppppp/8/8/8/8/PPPPPPPP/RK4R1 w KQkq - 0 1\"]\n\n\
                1. O-O 0-0-0 *";
    let record = read(text, None).record;
    assert_eq!(record.rules, "variant=chess960");
    assert_eq!(record.moves, ["b1g1", "b8a8"]);
    assert_eq!(final_fen(&record), "2kr2r1/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 w - - 2 2");
    let out = export(&record, Format::ChessPgn);
    assert!(out.contains("[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"rk4r1/"), "{out}");
    assert!(out.contains("\n1. O-O O-O-O *"), "{out}");
    // Without the Variant tag, castling rights only Chess960 has make it Chess960.
    let untagged = read(&text.replace("[Variant \"Chess960\"]\n", ""), None).record;
    assert_eq!(untagged.rules, "variant=chess960");
    assert_eq!(untagged.moves, record.moves);
}

/// A result the moves do not reach is the record's ending; `*` after the moves means the game
/// goes on whatever the `Result` tag says; a `Termination` tag that is not ours is kept.
#[test]
fn results_and_terminations_the_moves_do_not_show() {
    use crate::record::{EndedBy, Ending};
    let resigned = read("[Result \"0-1\"]\n[Termination \"Normal\"]\n\n1. e4 e5 0-1\n", None);
    let ending = Ending { winner: Some(Side::Second), by: EndedBy::Resignation };
    assert_eq!(resigned.record.ending, Some(ending));
    let going_on = read("[Result \"1-0\"]\n\n1. e4 e5 *\n", None);
    assert_eq!(going_on.record.ending, None, "the moves' `*` says the game goes on");
    let tag_only = read("[Result \"1/2-1/2\"]\n\n1. e4 e5\n", None);
    assert_eq!(tag_only.record.ending, Some(Ending { winner: None, by: EndedBy::Recorded }));
    let flagged = read("[Termination \"time forfeit\"]\n\n1. e4 e5 1-0\n", None);
    assert_eq!(
        flagged.record.ending,
        Some(Ending { winner: Some(Side::First), by: EndedBy::Time })
    );
    assert!(flagged.record.tags.is_empty(), "our own termination is the ending's");
    let abandoned = read("[Termination \"Abandoned\"]\n\n1. e4 e5 1-0\n", None);
    let ending = Ending { winner: Some(Side::First), by: EndedBy::Recorded };
    assert_eq!(abandoned.record.ending, Some(ending));
    assert_eq!(abandoned.record.tags, [("Termination".to_owned(), "Abandoned".to_owned())]);
    let text = export(&abandoned.record, Format::ChessPgn);
    assert!(text.contains("[Termination \"Abandoned\"]") && text.trim_end().ends_with("1-0"));
    assert_eq!(text.matches("Termination").count(), 1, "{text}");
    // A mate with `Normal`: the moves' own ending, and the tag kept as it was.
    let mate = read("[Termination \"Normal\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n", None);
    assert_eq!(mate.record.ending, None);
    assert!(export(&mate.record, Format::ChessPgn).contains("[Termination \"Normal\"]"));
}

/// A lichess analysis export: variations nested two deep, NAGs, move-suffix marks, comments
/// before and after moves, `[%eval]` and `[%clk]` (kept in the comments), `[%cal]` and `[%csl]`
/// (arrows and circles). Everything comes in; export and import again lose nothing.
#[test]
fn an_annotated_lichess_game_keeps_its_tree() {
    use crate::{Brush, Mark, Path, tree::Branch};

    let imported = import(ANNOTATED_CHESS, None).expect("reads");
    let record = &imported.record;
    assert_eq!(record.moves.len(), 19);
    assert_eq!(record.replay(usize::MAX).notations[18], "b4");
    // 3... Nf6 4. Ng5 d5 5. exd5 Na5 (5... Nxd5?! 6. Nxf7!? (6. d4) 6... Kxf7?) 6. Bb5+
    let two_knights = &record.variations[&5][0];
    assert_eq!(two_knights.moves.len(), 6);
    assert_eq!(two_knights.comments[&1], "The Two Knights.");
    assert_eq!(two_knights.marks[&2], [Mark(5)]);
    assert_eq!(two_knights.marks[&6], [Mark(14)]);
    let arrows = &two_knights.shapes[&2];
    assert_eq!(arrows.len(), 2);
    assert!(arrows.iter().all(|a| a.brush == Brush::Green && !a.is_circle()));
    assert_eq!(two_knights.comments[&2], "Both pieces hit f7.");
    let fried_liver = &two_knights.variations[&4][0];
    assert_eq!(fried_liver.moves, ["f6d5", "g5f7", "e8f7"]);
    assert_eq!(fried_liver.marks[&1], [Mark(6)], "?! as a suffix");
    assert_eq!(fried_liver.marks[&2], [Mark(5)]);
    assert_eq!(fried_liver.marks[&3], [Mark(2)]);
    assert_eq!(fried_liver.variations[&1][0].marks[&1], [Mark(14)], "three deep");
    // The main line's notes.
    assert_eq!(record.comments[&0], "An Italian with a quiet plan.");
    assert_eq!(record.comments[&1], "[%eval 0.36] [%clk 0:10:00]", "other commands stay");
    assert_eq!(record.marks[&10], [Mark(6)]);
    let at_d6 = &record.shapes[&10];
    assert_eq!(at_d6.len(), 2);
    assert!(at_d6.iter().any(|s| s.is_circle() && s.brush == Brush::Red));
    // The second comment held only an arrow.
    assert_eq!(record.comments[&12], "[%eval 1.2] Mistake. h6 was best.");
    assert_eq!(record.shapes[&12].len(), 1);
    assert_eq!(record.marks[&13], [Mark(1)]);
    assert_eq!(record.marks[&14], [Mark(4)]);
    assert_eq!(record.variations.keys().copied().collect::<Vec<_>>(), [5, 9, 11, 13]);
    // Export, then import: the same tree, and the same text again.
    let text = export(record, Format::ChessPgn);
    assert!(text.contains("(3... Nf6 {The Two Knights.} 4. Ng5 $5"), "{text}");
    let back = import(&text, None).expect("reads back").record;
    assert_eq!(back.tree(), record.tree(), "{text}");
    assert_eq!(export(&back, Format::ChessPgn), text);
    // A path into the third level reaches a real position.
    let deep = Path {
        branches: vec![
            Branch { at: 5, index: 0 },
            Branch { at: 4, index: 0 },
            Branch { at: 1, index: 0 },
        ],
        ply: 1,
    };
    let game = record.game_at(&deep).expect("in the tree").game;
    assert_eq!(game.piece_code(qi_rules::Cell::new(3, 3)).as_deref(), Some("wP"), "6. d4");
}

/// A WXF xiangqi record with comments, marks and variations, two of them at the same move.
#[test]
fn an_annotated_xiangqi_record_keeps_its_tree() {
    let imported = import(ANNOTATED_XIANGQI, None).expect("reads");
    let record = &imported.record;
    assert_eq!(record.kind, GameKind::Xiangqi);
    assert_eq!(record.moves.len(), 10);
    let answers = &record.variations[&1];
    assert_eq!(answers.len(), 2, "two alternatives to 1... H8+7");
    assert_eq!(answers[0].comments[&1], "Same-direction cannons.");
    assert_eq!(answers[0].variations[&2][0].marks[&1], [crate::Mark(6)]);
    assert_eq!(answers[1].marks[&1], [crate::Mark(5)]);
    assert_eq!(record.comments[&1], "The most popular first move.");
    assert_eq!(record.shapes[&6].len(), 1);
    let text = export(record, Format::XiangqiPgn);
    let back = import(&text, None).expect("reads back").record;
    assert_eq!(back.tree(), record.tree(), "{text}");
}

/// A record in Chinese notation (full-width and ASCII digits, traditional characters, a
/// variation and comments) reads as the same game as its WXF twin, and writes back in Chinese.
#[test]
fn a_chinese_xiangqi_record_imports_and_exports() {
    const CHINESE: &str = include_str!("../testdata/xiangqi-chinese.pgn");
    let chinese = import(CHINESE, None).expect("reads");
    let wxf = import(XIANGQI, None).expect("reads");
    assert_eq!(chinese.format, Format::XiangqiChinese);
    assert_eq!(chinese.record.moves, wxf.record.moves);
    assert_eq!(chinese.record.comments[&2], "屏风马。");
    assert_eq!(chinese.record.variations[&1][0].moves, ["h8e8"]);
    let text = export(&chinese.record, Format::XiangqiChinese);
    assert!(
        text.contains(
            "1. 炮二平五 马８进７ {屏风马。} (1... 炮８平５ {顺炮。}) 2. 马二进三 车９平８"
        ),
        "{text}"
    );
    assert!(text.contains("[Format \"Chinese\"]"), "{text}");
    let back = import(&text, None).expect("reads back");
    assert_eq!(back.record.tree(), chinese.record.tree());
    // The same game in WXF letters, for a reader that wants them.
    assert!(export(&chinese.record, Format::XiangqiPgn).contains("1. C2=5 H8+7"));
}

/// A variation that begins with the very move it replaces and goes past what the main line
/// has read so far: the main line keeps its own moves, the variation's become alternatives,
/// and a comment before such a variation is added to what is said there, not put over it.
#[test]
fn a_variation_repeating_the_main_move_does_not_take_over_the_main_line() {
    let pgn = "[Event \"?\"]\n\n1. e4 { The game starts. } 1... e5 \
               ( { Or the same move: } 1... e5 2. Nf3 Nc6 ) 2. Bc4 Bc5 3. Qh5 *";
    let record = import(pgn, None).expect("reads").record;
    assert_eq!(record.moves, ["e2e4", "e7e5", "f1c4", "f8c5", "d1h5"]);
    let alternatives = &record.variations[&2];
    assert_eq!(alternatives.len(), 1, "{alternatives:?}");
    assert_eq!(alternatives[0].moves, ["g1f3", "b8c6"]);
    assert_eq!(record.comments[&1], "The game starts.\nOr the same move:");
    // Written out and read back, the tree is the same.
    let again = import(&export(&record, Format::ChessPgn), None).expect("reads again").record;
    assert_eq!(again.moves, record.moves);
    assert_eq!(again.variations[&2][0].moves, ["g1f3", "b8c6"]);
}

/// Annotated gomoku and banqi records (comments before and after moves, marks, an arrow, a
/// variation): everything comes in, and writing them out gives the same text.
#[test]
fn annotated_gomoku_and_banqi_records_keep_their_trees() {
    use crate::{Brush, Mark, Path};

    let gomoku = import(include_str!("../testdata/annotated-gomoku.pgn"), None).expect("reads");
    let record = &gomoku.record;
    assert_eq!(record.kind, GameKind::Gomoku);
    assert_eq!(record.moves.len(), 7);
    assert_eq!(record.comments[&0], "A quiet start.");
    assert_eq!(record.marks[&6], [Mark(2)]);
    assert_eq!(record.shapes[&5][0].brush, Brush::Red);
    let block = &record.variations[&5][0];
    assert_eq!(block.moves, ["l8"]);
    assert_eq!(block.marks[&1], [Mark(1)]);
    assert_eq!(block.comments[&1], "Blocking the other end.");
    assert_eq!(export(record, Format::GomokuPgn), include_str!("../testdata/annotated-gomoku.pgn"));

    let banqi = import(include_str!("../testdata/annotated-banqi.pgn"), None).expect("reads");
    let record = &banqi.record;
    assert_eq!(record.kind, GameKind::Banqi);
    assert_eq!(record.moves.len(), 6);
    assert_eq!(record.comments[&1], "First flip.");
    assert_eq!(record.marks[&3], [Mark(5)]);
    let further = &record.variations[&1][0];
    assert_eq!(further.moves.len(), 2);
    assert_eq!(further.comments[&1], "Or further away.");
    assert_eq!(further.marks[&2], [Mark(6)]);
    // The variation's flips replay from the same deal.
    let path = Path { branches: vec![crate::tree::Branch { at: 1, index: 0 }], ply: 2 };
    assert!(record.game_at(&path).is_some_and(|r| r.error.is_none()));
    assert_eq!(export(record, Format::BanqiPgn), include_str!("../testdata/annotated-banqi.pgn"));
}

#[test]
fn positions_missing_their_last_fields_read_with_the_usual_defaults() {
    // Xiangqi FEN as some tools write it: the board alone, or with `r` for Red to move.
    for text in [
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w -",
    ] {
        let imported = import(text, None).unwrap_or_else(|e| panic!("{text}: {e:?}"));
        assert_eq!(imported.record.kind, GameKind::Xiangqi, "{text}");
        let crate::record::Start::Position(position) = &imported.record.start else { panic!() };
        assert!(position.contains(" w "), "Red to move: {position}");
    }
    // Black to move said, the rest left out.
    let imported =
        import("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b", None).unwrap();
    let crate::record::Start::Position(position) = &imported.record.start else { panic!() };
    assert!(position.contains(" b "), "{position}");
    // Chess: the board alone is White to move, no castling.
    let imported = import("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR", None).unwrap();
    assert_eq!(imported.record.kind, GameKind::Chess);
    // In a record's FEN tag too.
    let text = "[Variant \"xiangqi\"]\n[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r\"]\n\n1. h3e3 *\n";
    let imported = import(text, None).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(imported.record.moves, ["h3e3"]);
    // A board that is wrong stays an error that says so.
    assert!(import("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP", Some(GameKind::Chess)).is_err());
}

#[test]
fn a_tag_value_over_two_lines_reads_as_one_value() {
    // As some xiangqi tools write a long event name: the string goes on to the next line.
    let text = "[Game \"Chinese Chess\"]\n[Event \"全国象棋个人赛\n第一轮\"]\n[Format \"ICCS\"]\n\n1. H2-E2 H9-G7 *\n";
    let imported = import(text, None).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(imported.record.kind, GameKind::Xiangqi);
    assert_eq!(imported.record.moves, ["h3e3", "h10g8"]);
    let event = imported.record.tags.iter().find(|(name, _)| name == "Event").unwrap();
    assert_eq!(event.1, "全国象棋个人赛 第一轮");
}

#[test]
fn a_study_exports_escaped_nag_reads_as_the_nag() {
    let imported = import("1. e4 e5 2. f3! \\$14 Nf6 3. Nc3 *", None).unwrap();
    assert_eq!(imported.record.moves, ["e2e4", "e7e5", "f2f3", "g8f6", "b1c3"]);
}

#[test]
fn a_file_of_several_games_lists_each_with_its_tags_and_each_imports() {
    let text = "[Event \"First\"]\n[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 1-0\n\n\
                [Event \"Second\"]\n[White \"C\"]\n\n1. d4 d5 2. c4 *\n\
                1. Nf3 *\n";
    let spans = crate::records::games(text);
    assert_eq!(spans.len(), 3, "{spans:?}");
    assert_eq!(spans[0].tag("event"), Some("First"));
    assert_eq!((spans[1].tag("White"), spans[1].line), (Some("C"), 7));
    assert_eq!((spans[2].tags.len(), spans[2].line), (0, 11), "a game without tags");
    let moves: Vec<usize> = spans
        .iter()
        .map(|span| import(&text[span.range.clone()], None).unwrap().record.moves.len())
        .collect();
    assert_eq!(moves, [2, 3, 1]);
    // Anything but a PGN with several games is one game.
    assert_eq!(crate::records::games("h8 i9 j10").len(), 1);
    assert_eq!(crate::records::games("Piskvorky 15x15, 8:8, 0\n8,8,0\n").len(), 1);
    // A game whose text does not read is listed to the end.
    let broken = "[Event \"x\"]\n1. e4 *\n[Event \"y\"]\n1. e4 {never closed\n";
    let spans = crate::records::games(broken);
    assert_eq!(spans.len(), 2);
    assert!(import(&broken[spans[1].range.clone()], None).is_err());
}

#[test]
fn ten_thousand_games_are_listed() {
    let game = "[Event \"e\"]\n[White \"w\"]\n\n1. e4 e5 2. Nf3 Nc6 1/2-1/2\n\n";
    let text = game.repeat(10_000);
    let spans = crate::records::games(&text);
    assert_eq!(spans.len(), 10_000);
    assert_eq!(spans[9_999].line, 1 + 9_999 * 5);
}

#[test]
fn a_tournaments_games_are_written_as_one_file_and_read_back_game_by_game() {
    let game = |white: &str, black: &str, round: &str, moves: &[&str]| GameRecord {
        moves: moves.iter().map(|m| (*m).to_owned()).collect(),
        tags: vec![
            ("Event".into(), "Friday arena".into()),
            ("Round".into(), round.into()),
            ("White".into(), white.into()),
            ("Black".into(), black.into()),
        ],
        ..GameRecord::new(GameKind::Chess, "", 0)
    };
    let records = [
        game("Ada", "Bo", "1", &["e2e4", "e7e5", "g1f3"]),
        game("Cy", "Di", "1", &["d2d4"]),
        game("Bo", "Cy", "2", &["f2f3", "e7e5", "g2g4", "d8h4"]),
    ];
    // A position format holds one game: each is written as PGN instead.
    for format in [Format::ChessPgn, Format::ChessFen] {
        let text = export_all(&records, format);
        let spans = crate::records::games(&text);
        assert_eq!(spans.len(), 3, "{text}");
        for (span, record) in spans.iter().zip(&records) {
            assert_eq!(span.tag("White"), record.tags.iter().find(|t| t.0 == "White").map(|t| t.1.as_str()));
            assert_eq!(span.tag("Round"), record.tags.iter().find(|t| t.0 == "Round").map(|t| t.1.as_str()));
            let back = import(&text[span.range.clone()], None).unwrap().record;
            assert_eq!(back.moves, record.moves);
        }
        assert!(text.contains("0-1"), "the fool's mate is scored: {text}");
    }
    assert_eq!(export_all(&[], Format::ChessPgn), "");
}
