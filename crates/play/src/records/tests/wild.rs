//! The records-from-the-wild corpus (`testdata/wild`, written by its `make.py`): a record in
//! each dialect and encoding players meet, each game read to the coordinates python-chess or
//! pyffish gave, then written in every format of its game and in the old encodings, and read
//! back to the same moves.

use std::path::PathBuf;

use qi_rules::GameKind;

use super::super::{Format, decode, encode, export, games, import};

fn corpus() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src/records/testdata/wild")
}

/// One line of `expected.txt`: file, game number, encoding, moves.
struct Expected {
    file: String,
    game: usize,
    encoding: String,
    moves: Vec<String>,
}

fn expected() -> Vec<Expected> {
    let text = std::fs::read_to_string(corpus().join("expected.txt")).expect("expected.txt");
    text.lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| {
            let (head, moves) = line.split_once(':').expect("a colon");
            let mut head = head.split_whitespace();
            Expected {
                file: head.next().expect("a file").to_owned(),
                game: head.next().and_then(|n| n.parse().ok()).expect("a game number"),
                encoding: head.next().expect("an encoding").to_owned(),
                moves: moves.split_whitespace().map(str::to_owned).collect(),
            }
        })
        .collect()
}

#[test]
fn every_record_of_the_corpus_reads_to_the_moves_the_oracles_gave() {
    let all = expected();
    assert!(all.len() >= 15, "{} games", all.len());
    for case in &all {
        let bytes = std::fs::read(corpus().join(&case.file)).expect("the file");
        let decoded = decode(&bytes);
        let context = format!("{} game {}", case.file, case.game);
        assert_eq!(decoded.encoding, case.encoding, "{context}");
        assert_eq!(decoded.replaced, 0, "{context}");
        let spans = games(&decoded.text);
        let span = spans.get(case.game - 1).unwrap_or_else(|| panic!("{context}: {spans:?}"));
        let imported = match import(&decoded.text[span.range.clone()], None) {
            Ok(imported) => imported,
            Err(error) => panic!("{context}: {error}"),
        };
        assert_eq!(imported.record.moves, case.moves, "{context}");
        // A file of one game reads the same whole (the app hands it over whole), web page
        // around a DhtmlXQ block and all.
        if spans.len() == 1 {
            let whole = import(&decoded.text, None).unwrap_or_else(|e| panic!("{context}: {e}"));
            assert_eq!(whole.record.moves, case.moves, "{context}, whole");
        }
        round_trip(&imported.record, &context);
    }
}

/// Writes `record` in every format of its game, in UTF-8 and (xiangqi) GBK and Big5 and
/// (chess) Windows-1252 and UTF-16, and reads each back to the same moves.
fn round_trip(record: &crate::record::GameRecord, context: &str) {
    let encodings: &[&str] = match record.kind {
        GameKind::Xiangqi => &["utf-8", "gbk", "big5", "utf-16le"],
        GameKind::Chess => &["utf-8", "windows-1252", "utf-16le"],
        _ => &["utf-8", "utf-16le"],
    };
    for &format in Format::for_game(record.kind) {
        let text = export(record, format);
        for &encoding in encodings {
            let bytes = encode(&text, encoding).expect("a known encoding");
            // What an encoding lacks it writes as `&#...;` (Vietnamese names in
            // Windows-1252): that text is not the record's any more, and is not compared.
            if String::from_utf8_lossy(&bytes).contains("&#") && !text.contains("&#") {
                continue;
            }
            let back = decode(&bytes);
            assert_eq!(
                back.text.trim_start_matches('\u{feff}'),
                text,
                "{context} {format:?} {encoding}"
            );
            let read = import(&back.text, Some(record.kind))
                .unwrap_or_else(|e| panic!("{context} {format:?} {encoding}: {e}\n{text}"));
            if format.is_position() {
                assert!(read.record.moves.is_empty());
                assert_eq!(
                    read.record.start_game().position(),
                    record.replay(usize::MAX).game.position(),
                    "{context} {format:?}"
                );
            } else if format == Format::GomokuPsq {
                // Stones only: a colour choice has no place in a `.psq`.
                let stones = |moves: &[String]| -> Vec<String> {
                    moves.iter().filter(|m| m.parse::<qi_rules::Cell>().is_ok()).cloned().collect()
                };
                assert_eq!(
                    stones(&read.record.moves),
                    stones(&record.moves),
                    "{context} {encoding}"
                );
            } else {
                assert_eq!(read.record.moves, record.moves, "{context} {format:?} {encoding}");
                assert_eq!(
                    read.format, format,
                    "{context} {encoding}: found as the format written"
                );
            }
        }
    }
}

#[test]
fn the_corpus_keeps_what_each_dialect_says_beyond_the_moves() {
    let read = |file: &str, game: usize| {
        let bytes = std::fs::read(corpus().join(file)).expect("the file");
        let text = decode(&bytes).text;
        let spans = games(&text);
        import(&text[spans[game - 1].range.clone()], None).expect("reads")
    };
    // lichess: the variation, the NAG after a stray backslash, the arrows; the stray `|` said.
    let study = read("chess-lichess-study.pgn", 1);
    assert_eq!(study.record.variations.len(), 1);
    assert!(study.record.marks.values().flatten().any(|mark| mark.0 == 14));
    assert!(!study.record.shapes.is_empty());
    assert_eq!(study.warnings.len(), 1, "{:?}", study.warnings);
    // ChessBase in Windows-1252: the accented names; the assessment standing apart is a mark.
    let chessbase = read("chess-chessbase-1252.pgn", 1);
    assert!(chessbase.record.tags.contains(&("Black".into(), "Réti, Richard".into())));
    assert!(chessbase.record.marks.values().flatten().any(|mark| mark.0 == 16));
    // xqbase's layout in GBK: the tags in Chinese.
    let xqbase = read("xiangqi-xqbase-gbk.pgn", 1);
    assert_eq!(xqbase.format, Format::XiangqiChinese);
    assert!(xqbase.record.tags.contains(&("Red".into(), "林小红".into())));
    // PlayOK's WXF file: the players without their ratings.
    let playok = read("xiangqi-playok-wxf.txt", 1);
    assert!(playok.record.tags.contains(&("Red".into(), "lin_red".into())));
    // ICCS with a tag value over two lines.
    let iccs = read("xiangqi-iccs.pgn", 1);
    assert_eq!(iccs.format, Format::XiangqiIccs);
    assert!(iccs.record.tags.iter().any(|(_, v)| v.ends_with("tool wrapped")));
    // DhtmlXQ: the title, the result, the comment with its line break, the variation.
    let dhtml = read("xiangqi-dhtmlxq-gbk.htm", 1);
    assert!(dhtml.record.tags.contains(&("Event".into(), "全国赛".into())));
    assert!(dhtml.record.tags.contains(&("Title".into(), "顺炮横车对直车".into())));
    assert_eq!(dhtml.record.comments.get(&1).map(String::as_str), Some("开局\n第二行"));
    assert_eq!(dhtml.record.variations.len(), 1);
    let tree = dhtml.record.tree();
    let variation = &tree.variations[&2][0];
    assert_eq!(variation.comments.get(&1).map(String::as_str), Some("变着"));
    // PlayOK's gomoku: read under swap, the choice a move; the second player took black, so
    // PlayOK's White (the first player) stays Qi's White.
    let gomoku = read("gomoku-playok.pgn", 1);
    assert!(gomoku.record.rules.contains("opening=swap"), "{}", gomoku.record.rules);
    assert!(
        gomoku.record.tags.contains(&("White".into(), "anh".into())),
        "{:?}",
        gomoku.record.tags
    );
    assert!(gomoku.record.tags.contains(&("Black".into(), "binh".into())));
    assert!(gomoku.warnings.is_empty(), "{:?}", gomoku.warnings);
    // A FEN with only the board and the side: Red to move.
    let fen = read("xiangqi-fen-short.txt", 1);
    assert!(fen.record.start_game().position().contains(" w "));
}
