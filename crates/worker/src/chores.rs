//! The worker's chores beside the engine: records read and written (in any encoding), a game's
//! files listed, QR codes drawn and openings named ([`answer`] to a `qi_tasks` task). Done
//! here so that the page carries neither the encodings' tables nor the opening books.

use qi_play::openings::Opening;
use qi_play::record::GameRecord;
use qi_play::records::Format;
use qi_tasks::tasks::{GameEntry, TaskReply, TaskRequest};

/// The QR code of `text` (error correction level L, a 4-module quiet zone): its size in modules
/// and an SVG path of its dark modules; `None` when the text is too long for a QR code.
#[must_use]
pub fn qr_path(text: &str) -> Option<(usize, String)> {
    const QUIET: usize = 4;
    let code =
        qrcode::QrCode::with_error_correction_level(text.as_bytes(), qrcode::EcLevel::L).ok()?;
    let width = code.width();
    let mut path = String::new();
    for (index, color) in code.to_colors().iter().enumerate() {
        if *color == qrcode::Color::Dark {
            let (x, y) = (index % width + QUIET, index / width + QUIET);
            path.push_str(&format!("M{x} {y}h1v1h-1z"));
        }
    }
    Some((width + 2 * QUIET, path))
}

/// The named opening of `record`'s main line, and the moves that reach it.
#[must_use]
pub fn opening_of(record: &GameRecord) -> Option<(usize, &'static Opening)> {
    qi_play::openings::book_for(record.kind)?.identify(&record.start_game(), &record.moves)
}

/// Adds the opening's tags to a record about to be written as PGN, unless it has them: `ECO`
/// and `Opening` for chess (as lichess writes them), `ECCO` and `Opening` for xiangqi (as
/// xqbase.com writes them; the name in Chinese for a record in Chinese notation).
fn name_the_opening(record: &mut GameRecord, format: Format) {
    let (code_tag, chinese) = match format {
        Format::ChessPgn => ("ECO", false),
        Format::XiangqiPgn => ("ECCO", false),
        Format::XiangqiChinese => ("ECCO", true),
        Format::XiangqiIccs => ("ECCO", false),
        _ => return,
    };
    let Some((_, opening)) = opening_of(record) else { return };
    let has = |record: &GameRecord, tag: &str| record.tags.iter().any(|(name, _)| name == tag);
    if !opening.code.is_empty() && !has(record, code_tag) {
        record.tags.push((code_tag.to_owned(), opening.code.clone()));
    }
    if !has(record, "Opening") {
        let name = if chinese { opening.name_zh.clone() } else { None };
        record.tags.push(("Opening".to_owned(), name.unwrap_or_else(|| opening.name.clone())));
    }
}

/// Milliseconds on a clock: the browser's in the worker, the system's natively.
fn clock() -> f64 {
    #[cfg(target_arch = "wasm32")]
    {
        js_sys::Date::now()
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
    }
}

/// The puzzles `player` let go in `record`'s main line, as rows of the puzzle file: the
/// judge's (`qi_puzzles`), at its fixed depths, so the worker and `qi puzzles` agree. A record
/// whose moves do not replay gives the puzzles of the moves that do.
#[must_use]
pub fn puzzles_from_game(record: &GameRecord, player: qi_rules::Side) -> Vec<String> {
    let (start, moves) = record.main_line();
    let stop = std::sync::atomic::AtomicBool::new(false);
    let mut judge = qi_puzzles::Judge::new(record.kind, &clock, &stop);
    qi_puzzles::from_own_game(&mut judge, &start, &moves, player)
        .iter()
        .filter_map(|found| found.puzzle("").ok())
        .map(|puzzle| puzzle.to_row())
        .collect()
}

/// Does one task (in the worker).
#[must_use]
pub fn answer(request: TaskRequest) -> TaskReply {
    match request {
        TaskRequest::Import { lang, hint, text } => {
            match qi_play::records::import(&text, Some(hint)) {
                Ok(imported) => {
                    let kind = imported.record.kind;
                    let warnings = imported
                        .warnings
                        .iter()
                        .map(|warning| qi_i18n::records::record_warning(lang, kind, warning))
                        .collect();
                    TaskReply::Imported { record: imported.record, warnings }
                }
                Err(error) => TaskReply::Failed {
                    message: qi_i18n::records::record_error(lang, &error),
                    partial: error.partial.map(|partial| *partial),
                },
            }
        }
        TaskRequest::Export { mut record, format } => {
            name_the_opening(&mut record, format);
            TaskReply::Exported { text: qi_play::records::export(&record, format) }
        }
        TaskRequest::Opening { record } => match opening_of(&record) {
            Some((ply, opening)) => TaskReply::Opening { ply, opening: opening.clone() },
            None => TaskReply::Nothing,
        },
        TaskRequest::Qr { text } => match qr_path(&text) {
            Some((size, path)) => TaskReply::Qr { size, path },
            None => TaskReply::Nothing,
        },
        TaskRequest::ListGames { text } => {
            let games = qi_play::records::games(&text)
                .into_iter()
                .map(|span| GameEntry { range: span.range, line: span.line, tags: span.tags })
                .collect();
            TaskReply::Games { games }
        }
        TaskRequest::Encode { text, encoding } => {
            // An unknown label writes UTF-8, which every tool of today reads.
            let bytes = qi_play::records::encode(&text, &encoding)
                .unwrap_or_else(|| text.clone().into_bytes());
            // The standard writes what the encoding lacks as `&#...;`: count those it added.
            let references = |haystack: &[u8]| haystack.windows(2).filter(|w| w == b"&#").count();
            let unmappable = references(&bytes).saturating_sub(references(text.as_bytes()));
            TaskReply::Encoded { bytes, unmappable }
        }
        TaskRequest::Puzzles { record, first } => {
            let player = if first { qi_rules::Side::First } else { qi_rules::Side::Second };
            TaskReply::Puzzles { rows: puzzles_from_game(&record, player) }
        }
        TaskRequest::Decode { bytes } => {
            let decoded = qi_play::records::decode(&bytes);
            TaskReply::Decoded {
                text: decoded.text,
                encoding: decoded.encoding.to_owned(),
                replaced: decoded.replaced,
                first_bad: decoded.first_bad,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use qi_i18n::text::Lang;
    use qi_rules::GameKind;

    /// A task as the worker gets it: the request through the codec, answered, and the answer
    /// back the same way.
    fn wire(request: &TaskRequest) -> Option<TaskReply> {
        let request = qi_tasks::codec::round_trip(request).expect("the request reads back");
        qi_tasks::codec::round_trip(&answer(request)).ok()
    }

    #[test]
    fn a_files_games_are_listed_over_the_wire() {
        // A backslash crosses the wire escaped; a tab in a tag reads as a space (the PGN lexer).
        let text =
            "[White \"A\tB\\\\C\"]\n[Black \"C\"]\n\n1. e4 *\n\n[Event \"Two\"]\n\n1. d4 *\n";
        let Some(TaskReply::Games { games }) = wire(&TaskRequest::ListGames { text: text.into() })
        else {
            panic!("no list")
        };
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].tag("White"), Some("A B\\C"));
        assert_eq!((games[1].line, games[1].tag("event")), (6, Some("Two")));
        assert_eq!(&text[games[1].range.clone()], "[Event \"Two\"]\n\n1. d4 *\n");
    }

    #[test]
    fn a_file_in_gbk_comes_back_as_its_text_over_the_wire() {
        // `1. 炮二平五 马８进７ *` in GBK, with a newline and a byte of every value after it.
        let mut bytes = vec![0x31, 0x2E, 0x20, 0xC5, 0xDA, 0xB6, 0xFE, 0xC6, 0xBD, 0xCE, 0xE5];
        bytes.extend(b" \xC2\xED\xA3\xB8\xBD\xF8\xA3\xB7 *\n");
        let Some(TaskReply::Decoded { text, encoding, replaced, first_bad }) =
            wire(&TaskRequest::Decode { bytes: bytes.clone() })
        else {
            panic!("no text")
        };
        assert_eq!((text.as_str(), encoding.as_str()), ("1. 炮二平五 马８进７ *\n", "gb18030"));
        assert_eq!((replaced, first_bad), (0, None));
        // Every byte value travels as it is.
        let all: Vec<u8> = (0..=255).collect();
        let request = TaskRequest::Decode { bytes: all.clone() };
        assert_eq!(qi_tasks::codec::round_trip(&request), Ok(request));
        // A file that breaks: where, over the wire.
        let mut mixed = "炮二平五\n".as_bytes().to_vec();
        mixed.extend([0xC2, 0xED]);
        let Some(TaskReply::Decoded { first_bad, .. }) =
            wire(&TaskRequest::Decode { bytes: mixed })
        else {
            panic!("no text")
        };
        assert_eq!(first_bad, Some((2, 1)));
    }

    /// A short game read from PGN, with a tag and comments that hold a line break, a tab and
    /// backslashes, and a resignation.
    fn record() -> GameRecord {
        let pgn = "[Event \"A\\\\B\"]\n[Termination \"resignation\"]\n\n\
                   {before\nall} 1. e4 e5 {odd\t\\n} 0-1\n";
        let record = qi_play::records::import(pgn, Some(GameKind::Chess)).expect("a record").record;
        assert_eq!(record.comments.len(), 2, "{record:?}");
        record
    }

    #[test]
    fn the_opening_is_named_and_written_into_pgn() {
        let mut ruy = GameRecord::new(GameKind::Chess, "", 0);
        ruy.moves = ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"].map(String::from).to_vec();
        let request = TaskRequest::Opening { record: ruy.clone() };
        let Some(TaskReply::Opening { ply, opening }) = wire(&request) else {
            panic!("an opening");
        };
        assert_eq!((ply, opening.code.as_str()), (6, "C70"));
        assert!(opening.name.starts_with("Ruy Lopez"), "{opening:?}");
        let export = TaskRequest::Export { record: ruy, format: Format::ChessPgn };
        let Some(TaskReply::Exported { text }) = wire(&export) else {
            panic!("a record");
        };
        assert!(text.contains("[ECO \"C70\"]") && text.contains("[Opening \"Ruy Lopez"), "{text}");
        // Xiangqi in Chinese notation: the Chinese name.
        let mut screen = GameRecord::new(GameKind::Xiangqi, "", 0);
        screen.moves = ["h3e3", "h10g8", "h1g3", "b10c8"].map(String::from).to_vec();
        let export = TaskRequest::Export { record: screen, format: Format::XiangqiChinese };
        let Some(TaskReply::Exported { text }) = wire(&export) else {
            panic!("a record");
        };
        assert!(text.contains("[Opening \"中炮对屏风马\"]"), "{text}");
        // xqbase's tag for its classification, not chess's.
        assert!(text.contains("[ECCO \"C00\"]") && !text.contains("[ECO "), "{text}");
        // Gomoku has no book: nothing.
        let gomoku = TaskRequest::Opening { record: GameRecord::new(GameKind::Gomoku, "", 0) };
        assert_eq!(wire(&gomoku), Some(TaskReply::Nothing));
    }

    #[test]
    fn the_worker_imports_exports_and_draws() {
        let export = TaskRequest::Export { record: record(), format: Format::ChessPgn };
        let Some(TaskReply::Exported { text }) = wire(&export) else { panic!("no export") };
        assert!(text.contains("1. e4"), "{text}");
        let import = TaskRequest::Import { lang: Lang::En, hint: GameKind::Chess, text };
        let Some(TaskReply::Imported { record: back, warnings }) = wire(&import) else {
            panic!("no import")
        };
        assert_eq!(back.moves, record().moves);
        assert!(warnings.is_empty(), "{warnings:?}");
        // A stray character is skipped and said, in the reader's language.
        let stray = TaskRequest::Import {
            lang: Lang::Vi,
            hint: GameKind::Chess,
            text: "1. e4 | e5".into(),
        };
        let Some(TaskReply::Imported { record: read, warnings }) = wire(&stray) else {
            panic!("no import")
        };
        assert_eq!((read.moves.len(), warnings.len()), (2, 1));
        assert!(warnings[0].starts_with("Dòng 1, cột 7"), "{warnings:?}");
        // A GBK download of a Chinese record: the worker writes the bytes old tools read.
        let encode = TaskRequest::Encode { text: "炮二平五".into(), encoding: "gbk".into() };
        let Some(TaskReply::Encoded { bytes, unmappable }) = wire(&encode) else {
            panic!("no bytes")
        };
        assert_eq!(bytes, [0xC5, 0xDA, 0xB6, 0xFE, 0xC6, 0xBD, 0xCE, 0xE5]);
        assert_eq!(unmappable, 0);
        // Vietnamese has no place in GBK: two letters become references, and are counted.
        let encode = TaskRequest::Encode { text: "Đặng &#1;".into(), encoding: "gbk".into() };
        let Some(TaskReply::Encoded { unmappable, .. }) = wire(&encode) else { panic!("no bytes") };
        assert_eq!(unmappable, 2);
        assert_eq!(back.comments, record().comments);
        let bad = TaskRequest::Import {
            lang: Lang::Zh,
            hint: GameKind::Chess,
            text: "1. e4 e5 2. Ke3".into(),
        };
        match wire(&bad) {
            Some(TaskReply::Failed { message, partial: Some(partial) }) => {
                assert!(message.starts_with("第 1 行第 13 列"), "{message}");
                assert_eq!(partial.moves.len(), 2);
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            wire(&TaskRequest::Qr { text: "https://x.test/".into() }),
            Some(TaskReply::Qr { size: 29, .. })
        ));
        let long = TaskRequest::Qr { text: "x".repeat(5000) };
        assert_eq!(wire(&long), Some(TaskReply::Nothing));
    }

    #[test]
    fn a_win_let_go_in_a_game_comes_back_as_a_puzzle() {
        use qi_play::record::Start;
        // Lichess's puzzle 00sHx as a game: after Kd7 White mates in two (Be6+ Kd8 Qf8#) but
        // plays Bb1, and Black takes on g2.
        let record = GameRecord::from_parts(
            GameKind::Chess,
            String::new(),
            Start::Position("q3k1nr/1pp1nQpp/3p4/1P2p3/4P3/B1PP1b2/B5PP/5K2 b k - 0 17".into()),
            vec!["e8d7".into(), "a2b1".into(), "f3g2".into()],
        );
        let Some(TaskReply::Puzzles { rows }) =
            wire(&TaskRequest::Puzzles { record: record.clone(), first: true })
        else {
            panic!("puzzles")
        };
        assert_eq!(rows.len(), 1, "{rows:?}");
        let puzzle = qi_play::puzzle::Puzzle::read_row(qi_rules::any::Variant::Chess, &rows[0]).unwrap();
        assert_eq!(puzzle.move_texts(), ["e8d7", "a2e6", "d7d8", "f7f8"]);
        // Black let nothing go.
        assert_eq!(wire(&TaskRequest::Puzzles { record, first: false }), Some(TaskReply::Puzzles { rows: Vec::new() }));
    }
}
