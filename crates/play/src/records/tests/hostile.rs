//! Hostile and broken input: never a panic, always the right error in the right place.

use qi_rules::any::{AnyGame, StartFrom};
use qi_rules::{GameKind, IllegalReason, Side};

use super::{Rng, read};
use crate::record::GameRecord;
use crate::records::{
    Format, MAX_INPUT, RecordError, RecordErrorKind as K, TagExpected, export, import,
};

fn error(text: &str, hint: Option<GameKind>) -> RecordError {
    match import(text, hint) {
        Ok(imported) => panic!("read {text:?} as {imported:?}"),
        Err(error) => error,
    }
}

fn at(error: &RecordError) -> (usize, usize) {
    (error.line, error.column)
}

#[test]
fn random_bytes_and_token_soup_never_panic() {
    let mut rng = Rng(99);
    const PIECES: [&str; 24] = [
        "[",
        "]",
        "{",
        "}",
        "(",
        ")",
        "\"",
        ";",
        "\n",
        " ",
        "1.",
        "e4",
        "Nf3",
        "O-O",
        "$3",
        "1-0",
        "*",
        "C2.5",
        "h8i9",
        "c3=R",
        "=",
        "/",
        "[FEN \"",
        "[Variant \"",
    ];
    for round in 0..3000 {
        let text = if round % 2 == 0 {
            let bytes: Vec<u8> = (0..rng.below(300)).map(|_| rng.next() as u8).collect();
            String::from_utf8_lossy(&bytes).into_owned()
        } else {
            (0..rng.below(60)).map(|_| PIECES[rng.below(PIECES.len())]).collect()
        };
        for hint in [None, Some(GameKind::ALL[round % 4])] {
            if let Ok(imported) = import(&text, hint) {
                for &format in Format::for_game(imported.record.kind) {
                    let _ = export(&imported.record, format);
                }
            }
        }
    }
}

#[test]
fn every_truncation_of_a_record_reads_or_fails_cleanly() {
    let mut rng = Rng(7);
    let mut record = GameRecord::new(GameKind::Banqi, "chain=true,capture_hidden=true", 3);
    let mut game = record.start_game();
    for _ in 0..80 {
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.below(moves.len())].clone();
        game.play(&mv).unwrap();
        record.moves.push(mv);
    }
    record.comments.insert(3, "a comment".into());
    let texts = [
        export(&record, Format::BanqiPgn),
        include_str!("../testdata/immortal.pgn").to_owned(),
        include_str!("../testdata/xiangqi.pgn").to_owned(),
    ];
    for text in &texts {
        for (cut, _) in text.char_indices() {
            let prefix = &text[..cut];
            if let Err(error) = import(prefix, None) {
                // The part before an error in the moves is offered, and it replays.
                if let Some(partial) = &error.partial {
                    assert!(partial.replay(usize::MAX).error.is_none(), "{prefix}");
                }
            }
        }
    }
}

#[test]
fn too_long_and_empty_texts() {
    let huge = "1. e4 e5 ".repeat(10 * 1024 * 1024 / 9);
    let e = error(&huge, None);
    assert_eq!(e.kind, K::TooLong { len: huge.len(), max: MAX_INPUT });
    assert_eq!(at(&e), (1, 1));
    for empty in ["", "   \n\t", "\u{feff}"] {
        assert_eq!(error(empty, None).kind, K::Empty);
    }
}

#[test]
fn deep_nesting_is_skipped_or_reported_where_it_opens() {
    let depth = 200_000;
    let nested = format!("1. e4 {}{} e5", "(".repeat(depth), ")".repeat(depth));
    assert_eq!(read(&nested, None).record.moves, ["e2e4", "e7e5"]);
    let open = format!("1. e4 e5\n2. Nf3 {}", "(".repeat(depth));
    let e = error(&open, None);
    assert_eq!((e.kind.clone(), at(&e)), (K::UnterminatedVariation, (2, 8)));
    assert_eq!(e.partial.map(|p| p.moves.len()), Some(3));
    let e = error("1. e4 ) e5", None);
    assert_eq!((e.kind.clone(), at(&e)), (K::UnmatchedParen, (1, 7)));
    // Variations that each hold two moves, nested far deeper than kept: the first levels are
    // read, the rest skipped (each level would otherwise copy the line so far).
    let mut game = AnyGame::new("chess", "", &StartFrom::Start { seed: 0 }).unwrap();
    game.play("e2e4").unwrap();
    let (mut text, mut last) = (String::from("e2e4"), String::from("e2e4"));
    let mut levels = 0;
    for i in 0..200 {
        let mut before = game.clone();
        before.undo();
        let Some(other) = before.legal_moves().into_iter().find(|m| *m != last) else { break };
        before.play(&other).unwrap();
        let replies = before.legal_moves();
        let Some(next) = replies.get(i * 7 % replies.len().max(1)).cloned() else { break };
        before.play(&next).unwrap();
        text.push_str(&format!(" ({other} {next}"));
        (game, last) = (before, next);
        levels += 1;
    }
    assert!(levels > crate::movetext::MAX_DEPTH + 10, "{levels} levels");
    text.push_str(&")".repeat(levels));
    text.push_str(" e7e5");
    let record = read(&text, None).record;
    assert_eq!(record.moves, ["e2e4", "e7e5"]);
    let (mut depth, mut line) = (0, record.tree());
    loop {
        let inner = line.variations.values().next().and_then(|v| v.first()).cloned();
        let Some(inner) = inner else { break };
        depth += 1;
        line = inner;
    }
    assert_eq!(depth, crate::movetext::MAX_DEPTH);
    // A bad move inside a variation skips the rest of it; the main line reads on.
    let record = read("1. e4 e5 (1... c5 2. Qxh7 d6) 2. Nf3", None).record;
    assert_eq!(record.moves, ["e2e4", "e7e5", "g1f3"]);
    assert_eq!(record.variations[&1][0].moves, ["c7c5"]);
}

#[test]
fn unterminated_comments_and_strings() {
    let e = error("[Event \"x\"]\n\n1. e4 e5 2. Nf3 {never\nclosed 2... Nc6", None);
    assert_eq!((e.kind.clone(), at(&e)), (K::UnterminatedComment, (3, 17)));
    assert_eq!(e.partial.as_ref().map(|p| p.moves.len()), Some(3));
    assert_eq!(e.partial.map(|p| p.tags), Some(vec![("Event".into(), "x".into())]));
    let e = error("[Event \"x]\n1. e4", None);
    assert_eq!((e.kind.clone(), at(&e)), (K::UnterminatedString, (1, 8)));
    assert_eq!(e.partial, None);
}

#[test]
fn malformed_tags() {
    let cases = [
        ("[Event x]\n1. e4", (1, 8), TagExpected::Value),
        ("[\"Event\" \"x\"]", (1, 2), TagExpected::Name),
        ("[Event \"x\"\n[Site \"y\"]", (2, 1), TagExpected::Close),
        ("[1st \"x\"]", (1, 2), TagExpected::Name),
    ];
    for (text, pos, expected) in cases {
        let e = error(text, None);
        assert_eq!((e.kind.clone(), at(&e)), (K::TagSyntax { expected }, pos), "{text}");
    }
    let e = error("1. e4 ] e5", None);
    assert_eq!((e.kind.clone(), at(&e)), (K::UnexpectedChar { found: ']' }, (1, 7)));
}

#[test]
fn html_in_tags_is_kept_as_text() {
    let text = "[Event \"<img src=x onerror=alert(1)>\"]\n[White \"</pre><b>\"]\n1. e4 *";
    let record = read(text, None).record;
    assert_eq!(record.tags[0].1, "<img src=x onerror=alert(1)>");
    let out = export(&record, Format::ChessPgn);
    assert!(out.contains("[White \"</pre><b>\"]"), "{out}");
}

#[test]
fn unknown_variants_and_bad_positions() {
    let e = error("[Event \"x\"]\n[Variant \"Crazyhouse\"]\n1. e4", None);
    assert_eq!(
        (e.kind.clone(), at(&e)),
        (K::UnknownVariant { name: "Crazyhouse".into() }, (2, 10))
    );
    let e = error("[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1\"]", None);
    assert!(matches!(e.kind, K::BadPosition { game: GameKind::Chess, .. }), "{e}");
    assert_eq!(at(&e), (1, 6));
    let e = error("\n  rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w", None);
    assert!(matches!(e.kind, K::BadPosition { game: GameKind::Xiangqi, .. }), "{e}");
    assert_eq!(at(&e), (2, 3));
    let e = error("[Variant \"xiangqi\"]\n[Rules \"natural_limit=lots\"]\n", None);
    assert!(matches!(e.kind, K::BadRules { .. }), "{e}");
    assert_eq!(at(&e), (2, 8));
}

#[test]
fn a_bad_move_in_the_middle_keeps_the_legal_prefix() {
    let text = "[White \"A\"]\n\n1. e4 e5 2. Nf3 {develops} Nc6\n3. Bb5 a6 4. Bxc6 dxc6 5. Qh5 Qd4";
    let e = error(text, None);
    match &e.kind {
        K::IllegalMove { ply, number, side, text, error } => {
            assert_eq!((*ply, *number, *side, text.as_str()), (8, 5, Side::First, "Qh5"));
            assert_eq!(error.reason, IllegalReason::PathBlocked);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(at(&e), (4, 27));
    let partial = e.partial.unwrap();
    assert_eq!(partial.moves.len(), 8);
    assert_eq!(partial.comments[&3], "develops");
    let e = error("1. e4 e5 2. Nf3 Nc6 3. Bb5 Zz9", None);
    assert!(matches!(e.kind, K::UnreadableMove { ply: 5, number: 3, side: Side::Second, .. }));
    assert_eq!(at(&e), (1, 28));
    assert_eq!(
        e.to_string(),
        "line 1, column 28: move 3... Zz9: cannot read move \"Zz9\": expected a UCI move such \
         as e2e4 or SAN such as Nf3"
    );
}

#[test]
fn banqi_flips_are_checked_against_the_deal() {
    let mut record = GameRecord::new(GameKind::Banqi, "", 0);
    record.moves = ["a4", "b4", "c4", "b4-c4"].map(String::from).to_vec();
    let text = export(&record, Format::BanqiPgn);
    assert!(text.contains("1. a4=R b4=b 2. c4=B b4xc4 *"), "{text}");
    let line = text.lines().position(|l| l.starts_with("1.")).unwrap() + 1;
    let e = error(&text.replace("b4=b", "b4=n"), None);
    match e.kind {
        K::FlipMismatch { ply, number, side, cell, written, dealt } => {
            assert_eq!((ply, number, side, cell.to_string()), (1, 1, Side::Second, "b4".into()));
            assert_eq!((written.letter(), dealt.letter()), ('n', 'b'));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(at(&e), (line, 9));
    let e = error(&text.replace("b4xc4", "b4xc4=B"), None);
    assert!(matches!(e.kind, K::NothingRevealed { ply: 3, .. }), "{e}");
    // Without the deal, the flips tell it.
    let unknown = read("[Variant \"banqi\"]\n1. a4=R b4=b 2. c4=B b3=p", None).record;
    let start = unknown.start_game().position();
    assert!(start.starts_with("*R*b*B?????/?*p??????/"), "{start}");
    assert!(unknown.replay(usize::MAX).error.is_none());
    let e = error("[Variant \"banqi\"]\n1. a4 b4=b", None);
    match e.kind {
        K::IllegalMove { error, .. } => assert_eq!(error.reason, IllegalReason::FlipResultUnknown),
        other => panic!("{other:?}"),
    }
    let e = error("[Variant \"banqi\"]\n1. a4=K b4=K", None);
    match e.kind {
        K::IllegalMove { error, .. } => {
            assert_eq!(error.reason, IllegalReason::FlipResultImpossible);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn bare_positions_are_told_apart_by_their_shape() {
    let cases = [
        ("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", GameKind::Chess),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            GameKind::Xiangqi,
        ),
        (
            "*R*b*B*C*B*p*K*P/*N*n*p*c*P*k*p*r/*P*P*C*N*a*b*p*P/*R*p*n*r*a*A*A*c 1 - 0 - -",
            GameKind::Banqi,
        ),
        ("15/15/15/15/15/15/15/7x7/15/15/15/15/15/15/15 w", GameKind::Gomoku),
    ];
    for (text, kind) in cases {
        for hint in [None, Some(GameKind::Chess), Some(GameKind::Gomoku)] {
            let imported = read(text, hint);
            assert_eq!(imported.record.kind, kind);
            assert!(imported.format.is_position());
            assert_eq!(imported.record.start_game().position(), text);
        }
    }
    let nineteen = format!("{}7x11/{} w", "19/".repeat(9), "19/".repeat(8) + "19");
    assert_eq!(read(&nineteen, None).record.rules, "size=19,rule=freestyle");
    // A Chess960 position read as a bare FEN.
    let fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
    assert_eq!(read(fen, None).record.rules, "variant=chess960");
}

#[test]
fn files_from_the_wild_gone_wrong_fail_cleanly_and_in_bounded_time() {
    // Ten thousand games in one file: each listed with its tags, the last one read.
    let one =
        "[Event \"E\"]\n[White \"W\"]\n[Black \"B\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 *\n\n";
    let many = one.repeat(10_000);
    let spans = super::super::games(&many);
    assert_eq!(spans.len(), 10_000);
    assert_eq!(spans[9_999].line, 9_999 * 7 + 1);
    let last = read(&many[spans[9_999].range.clone()], None);
    assert_eq!(last.record.moves.len(), 3);
    // A binary file: decoded with its damage counted, listed, and each game refused or read
    // without a panic.
    let mut rng = super::Rng(17);
    let bytes: Vec<u8> = (0..200_000).map(|_| rng.next() as u8).collect();
    let decoded = super::super::decode(&bytes);
    for span in super::super::games(&decoded.text).into_iter().take(50) {
        let _ = super::super::import(&decoded.text[span.range], None);
    }
    // A xiangqi record in the chess app: read as the xiangqi it is; a chess record that says
    // it is xiangqi: refused at its first move, named.
    let xiangqi = read("1. 炮二平五 马８进７ 2. 马二进三 *", Some(GameKind::Chess));
    assert_eq!(xiangqi.record.kind, GameKind::Xiangqi);
    let e = error("[Variant \"xiangqi\"]\n1. e4 e5", Some(GameKind::Chess));
    assert_eq!(at(&e), (2, 4));
    assert!(matches!(e.kind, K::UnreadableMove { ref text, .. } if text == "e4"), "{e:?}");
    // A WXF file cut before `}END`, a DhtmlXQ block whose binit is short or piles two pieces
    // on a square, and one with ten thousand branches: read as far as they go, or refused.
    let cut = read("FORMAT WXF\nSTART{\n 1. C2.5 H8+7\n", None);
    assert_eq!(cut.record.moves, ["h3e3", "h10g8"]);
    let e =
        error("[DhtmlXQ_binit]0010[/DhtmlXQ_binit][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]", None);
    assert!(matches!(e.kind, K::BadPosition { .. }), "{e:?}");
    let doubled = format!("[DhtmlXQ_binit]{}[/DhtmlXQ_binit]", "00".repeat(32));
    let e = error(&doubled, None);
    assert!(matches!(e.kind, K::BadPosition { .. }), "{e:?}");
    let e = error("x\n  [DhtmlXQ_binit]0000", None);
    assert_eq!(
        (e.kind.clone(), at(&e)),
        (K::UnclosedElement { name: "DhtmlXQ_binit".into() }, (2, 3))
    );
    let branches: String = (1..=10_001)
        .map(|b| format!("[DhtmlXQ_move_0_1_{b}]1927[/DhtmlXQ_move_0_1_{b}]"))
        .collect();
    let e = error(&format!("[DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]{branches}"), None);
    assert!(matches!(e.kind, K::TooLong { .. }), "{e:?}");
    // A DhtmlXQ move off the board: named where its digits stand.
    let e = error("[DhtmlXQ]\n[DhtmlXQ_movelist]77479 999[/DhtmlXQ_movelist]\n[/DhtmlXQ]", None);
    assert_eq!(at(&e), (2, 23), "{e:?}");
    // UCCI coordinates (ranks from 0) in a record that never touches rank 0: read as such.
    let ucci = read("h2e2 h9g7 h0g2 i9h9", Some(GameKind::Xiangqi));
    assert_eq!(ucci.record.moves, ["h3e3", "h10g8", "h1g3", "i10h10"]);
    assert_eq!(ucci.format, Format::XiangqiIccs);
    let short = read("h2e2 h9g7", Some(GameKind::Xiangqi));
    assert_eq!(short.record.moves, ["h3e3", "h10g8"]);
    // An EPD line: the position, its clocks from `hmvc` and `fmvn`.
    let epd =
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - bm e5; hmvc 0; fmvn 1; id \"x\";";
    let read_epd = read(epd, None);
    assert_eq!(read_epd.format, Format::ChessFen);
    assert!(read_epd.record.start_game().position().ends_with(" b KQkq - 0 1"));
    // Gomoku pairs up to 20 read on 20×20; past it, the first point off the board is named.
    assert!(read("8,8 20,20", None).record.rules.contains("size=20"));
    let e = error("8,8 21,21", None);
    assert_eq!(at(&e), (1, 5), "{e:?}");
    // PlayOK's 20×20 gomoku reads; a size Qi does not offer is named.
    assert!(read("[GameType \"61,20\"]\n1. h8 i9", None).record.rules.contains("size=20"));
    let e = error("[GameType \"61,21\"]\n1. h8 i9", None);
    assert!(matches!(e.kind, K::UnknownVariant { ref name } if name.contains("21×21")), "{e:?}");
}

#[test]
fn other_programs_layouts_gone_wrong_stay_in_bounds_and_in_place() {
    // A page of a million empty DhtmlXQ blocks: listed up to the cap, in one pass.
    let page = format!(
        "{}[DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]",
        "[DhtmlXQ][/DhtmlXQ]\n".repeat(1_000_000)
    );
    let spans = super::super::games(&page);
    assert_eq!(spans.len(), super::super::MAX_GAMES);
    assert_eq!(spans[99_999].line, 100_000);
    // One line of pairs a megabyte long: read in one pass (the board fills up: an error, no hang).
    let pairs = "1,1 ".repeat(MAX_INPUT / 4 - 1);
    let e = error(&pairs, None);
    assert_eq!(at(&e), (1, 5), "the same point twice: {e:?}");
    // A comment over two lines (`||`) and then a bad move: the move's own line and column.
    let text = "[DhtmlXQ]\n[DhtmlXQ_movelist]77477062\n9999[/DhtmlXQ_movelist]\n[DhtmlXQ_comment1]a||b\nc[/DhtmlXQ_comment1]\n[/DhtmlXQ]";
    let e = error(text, None);
    assert_eq!(at(&e), (3, 1), "{e:?}");
    // A binit that places no legal game: named at the binit.
    let no_general = format!("x\n[DhtmlXQ_binit]{}[/DhtmlXQ_binit]", "99".repeat(32));
    let e = error(&no_general, None);
    assert!(matches!(e.kind, K::BadPosition { .. }), "{e:?}");
    assert_eq!(at(&e), (2, 16));
    // 黑负 is Red's win; a start given as a FEN is read.
    let red = read(
        "[DhtmlXQ_result]黑负[/DhtmlXQ_result][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]",
        None,
    );
    assert_eq!(red.record.ending.map(|e| e.winner), Some(Some(Side::First)));
    let fen = "[DhtmlXQ_fen]3k5/9/9/9/9/9/9/9/9/4K3R w - - 0 1[/DhtmlXQ_fen][DhtmlXQ_movelist]8988[/DhtmlXQ_movelist]";
    assert_eq!(read(fen, None).record.moves, ["i1i2"]);
    // A PGN record that quotes a DhtmlXQ block in a comment is a PGN record.
    let quoting = "[Event \"x\"]\n\n1. e4 {[DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]} e5 *";
    assert_eq!(read(quoting, None).record.moves, ["e2e4", "e7e5"]);
    // A WXF file on one line.
    assert_eq!(read("FORMAT WXF\nSTART{ 1. C2.5 H8+7 }END", None).record.moves, ["h3e3", "h10g8"]);
}

#[test]
fn a_psq_of_a_game_from_a_position_plays_its_stones_first() {
    let start = "15/15/15/15/15/15/15/7x7/6o8/15/15/15/15/15/15 b";
    let mut record = GameRecord::from_parts(
        GameKind::Gomoku,
        String::new(),
        crate::record::Start::Position(start.into()),
        vec!["i9".into()],
    );
    record.tags.clear();
    let text = export(&record, Format::GomokuPsq);
    let back = read(&text, None).record;
    assert_eq!(back.moves, ["h8", "g7", "i9"]);
    assert_eq!(back.replay(usize::MAX).game.position(), record.replay(usize::MAX).game.position());
}

/// Found by fuzzing (`fuzz/`, `record_text`): control characters in a tag value read as the
/// spaces the writer writes for them, so an imported record exports and reads back the same.
#[test]
fn control_characters_in_a_tag_value_read_back_as_they_were_read() {
    let text =
        "[Event \"Paris\"]\n[Date \"1858.??\u{1}\u{f}?\"]\n[Round \"\tfirst\"]\n\n1. e4 e5 *\n";
    let first = read(text, None).record;
    let tag = |record: &GameRecord, name: &str| {
        record.tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone())
    };
    assert_eq!(tag(&first, "Date").as_deref(), Some("1858.??  ?"));
    assert_eq!(tag(&first, "Round").as_deref(), Some(" first"));
    let again = read(&export(&first, Format::ChessPgn), None).record;
    for name in ["Event", "Date", "Round"] {
        assert_eq!(tag(&again, name), tag(&first, name), "{name}");
    }
}

/// Found by fuzzing (`fuzz/`, `record_text`): a banqi variation whose first flip turns up a piece
/// the deal leaves unknown (a variation's flips are not the deal) cannot be replayed, so it is
/// not written; the text written stays balanced and reads back, with the rest of the game.
#[test]
fn an_unreplayable_variation_is_left_out_and_the_text_stays_readable() {
    let text = "[Event \"?\"]\n\n1. a1=p {First flip.} 1... b1=p (1... g1=p {Or further away.} \
                2. e1=a $6)\n2. c1=P $5 d1=P 3. e1=a f1=r *\n";
    let first = read(text, Some(GameKind::Banqi)).record;
    assert_eq!(first.variations[&1][0].moves, ["g1", "e1"]);
    let written = export(&first, Format::BanqiPgn);
    assert!(!written.contains('(') && !written.contains(')'), "{written}");
    let again = read(&written, Some(GameKind::Banqi)).record;
    assert_eq!(again.moves, first.moves);
    assert_eq!(again.comments, first.comments);
    let mut playable = first.clone();
    playable.keep_playable_variations();
    assert_eq!(again.tree(), playable.tree());
    // And the move after it is numbered as if it were not there: the text writes back the same.
    assert_eq!(export(&again, Format::BanqiPgn), written);
    // Nested: an empty variation inside a written one takes back only its own parenthesis.
    let nested =
        "[Variant \"banqi\"]\n\n1. a1=p 1... b1=K (1... c1=P (1... g1=R) 2. d1=k) 2. c1=P *\n";
    let record = read(nested, None).record;
    let written = export(&record, Format::BanqiPgn);
    assert_eq!(written.matches('(').count(), written.matches(')').count(), "{written}");
    read(&written, Some(GameKind::Banqi));
}

/// Found by fuzzing (`fuzz/`, `record_text`): shapes given twice, or arrows before circles, read
/// as the board draws them — one per cell or pair of cells, in the last colour given, circles
/// first — so the record exports and reads back the same.
#[test]
fn repeated_and_mixed_shapes_read_as_the_board_draws_them() {
    let text = "1. e4 {[%cal Rc8g4,Rc8g4] [%csl Rg4,Gg4] [%cal Bc8g4] x} e5 *\n";
    let first = read(text, Some(GameKind::Chess)).record;
    let shapes = &first.tree().shapes[&1];
    let drawn: Vec<String> =
        shapes.iter().map(|s| format!("{:?}{}{}", s.brush, s.from, s.to)).collect();
    assert_eq!(drawn, ["Greeng4g4", "Bluec8g4"]);
    let again = read(&export(&first, Format::ChessPgn), None).record;
    assert_eq!(again.tree(), first.tree());
}
