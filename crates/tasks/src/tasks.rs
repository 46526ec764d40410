//! Work the page hands to the Web Worker besides the computer's moves: reading and writing game
//! records, and drawing QR codes. Their code (a PGN reader, SAN and WXF, a QR encoder) is
//! large and rarely needed, so it lives in the worker's download, not the page's first load.
//!
//! Requests and replies are text, like the computer's ([`crate::think`]): a request starts with
//! the line `records`, then a line naming the task.

use qi_rules::GameKind;

use qi_i18n::text::Lang;
use qi_play::openings::Opening;
use qi_play::record::GameRecord;
use qi_play::records::Format;

/// One game of a file, as the list to pick from shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameEntry {
    /// Where its text is in the file's (byte offsets).
    pub range: std::ops::Range<usize>,
    /// The line it starts on.
    pub line: usize,
    /// Its tags (players, result, date, event, and any others).
    pub tags: Vec<(String, String)>,
}

impl GameEntry {
    /// A tag's value, unless it is a placeholder (`?`, `????.??.??`).
    #[must_use]
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
            .filter(|v| !v.is_empty() && !v.contains('?'))
    }
}

/// The first line of every request handled here.
pub const PREFIX: &str = "records\n";

/// A task for the worker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TaskRequest {
    /// Read a pasted or loaded record; errors worded in `lang`; `hint` is the game shown.
    Import {
        /// The player's language.
        lang: Lang,
        /// The game shown, for texts that could be several.
        hint: GameKind,
        /// The text.
        text: String,
    },
    /// Write a game in a format.
    Export {
        /// The game.
        record: GameRecord,
        /// The format.
        format: Format,
    },
    /// The QR code of a text.
    Qr {
        /// The text (a link).
        text: String,
    },
    /// The named opening of a game (chess and xiangqi from their standard starts).
    Opening {
        /// The game.
        record: GameRecord,
    },
    /// The games of a record file, to pick one from when there are several.
    ListGames {
        /// The file's text.
        text: String,
    },
    /// The text of a record file in whatever encoding it came (see
    /// [`qi_play::records::decode`]): done here, so the page does not carry the encodings'
    /// tables.
    Decode {
        /// The file's bytes.
        bytes: Vec<u8>,
    },
    /// A written record's bytes in an encoding (see [`qi_play::records::encode`]), for a
    /// download old tools read (GBK for xiangqi programs).
    Encode {
        /// The text.
        text: String,
        /// The encoding's label (`utf-8`, `gbk`, `big5`, `utf-16le` ...).
        encoding: String,
    },
}

/// The worker's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TaskReply {
    /// A record was read.
    Imported {
        /// The game.
        record: GameRecord,
        /// What was skipped and read on, worded, in the text's order.
        warnings: Vec<String>,
    },
    /// It could not be: why (worded), and the moves before the problem when it was in them.
    Failed {
        /// The message, with line and column.
        message: String,
        /// The game up to the problem.
        partial: Option<GameRecord>,
    },
    /// The written record.
    Exported {
        /// The text.
        text: String,
    },
    /// A QR code: `size` modules a side (quiet zone included) and an SVG path of the dark ones.
    Qr {
        /// Modules a side.
        size: usize,
        /// The SVG path.
        path: String,
    },
    /// A file's games (see [`GameEntry`]).
    Games {
        /// In the file's order.
        games: Vec<GameEntry>,
    },
    /// A file's text and how it was read.
    Decoded {
        /// The text.
        text: String,
        /// The encoding, by its WHATWG name.
        encoding: String,
        /// How many characters could not be read.
        replaced: usize,
        /// Where the first of them is (line and column, from 1).
        first_bad: Option<(usize, usize)>,
    },
    /// A text's bytes in the encoding asked for.
    Encoded {
        /// The bytes.
        bytes: Vec<u8>,
        /// How many characters the encoding lacks (written as `&#...;`).
        unmappable: usize,
    },
    /// The game's opening: the deepest named position along its main line.
    Opening {
        /// The moves that reach it.
        ply: usize,
        /// Its name and code (ECO for chess, xqbase's ECCO for xiangqi).
        opening: Opening,
    },
    /// No QR code (the text is too long for one), no opening, or an unreadable request.
    Nothing,
}

/// Escapes a field for the line format: `\`, line breaks and tabs.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c => out.push(c),
        }
    }
    out
}

fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('t') => out.push('\t'),
            Some(other) => out.push(other),
            None => {}
        }
    }
    out
}

/// A whole record (tags and comments too) as lines: [`GameRecord::to_text`], then `T` lines
/// for tags and `C` lines for comments, tab-separated and escaped.
#[must_use]
pub fn record_to_lines(record: &GameRecord) -> String {
    let mut out = escape(&record.to_text());
    for (name, value) in &record.tags {
        out.push_str(&format!("\nT\t{}\t{}", escape(name), escape(value)));
    }
    for (ply, comment) in &record.comments {
        out.push_str(&format!("\nC\t{ply}\t{}", escape(comment)));
    }
    out
}

/// Reads [`record_to_lines`]'s text.
#[must_use]
pub fn record_from_lines(text: &str) -> Option<GameRecord> {
    let mut lines = text.split('\n');
    let mut record = GameRecord::from_text(&unescape(lines.next()?))?;
    let mut comments = qi_play::Sparse::new();
    for line in lines {
        let mut fields = line.splitn(3, '\t');
        match (fields.next()?, fields.next()?, fields.next()?) {
            ("T", name, value) => record.tags.push((unescape(name), unescape(value))),
            ("C", ply, comment) => {
                comments.insert(ply.parse().ok()?, unescape(comment));
            }
            _ => return None,
        }
    }
    record.comments = comments;
    Some(record)
}

/// Bytes carried in text: each byte as the character of that number (U+0000 to U+00FF).
fn carry(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| char::from(b)).collect()
}

/// The bytes [`carry`] carried; `None` for a character above U+00FF.
fn uncarry(text: &str) -> Option<Vec<u8>> {
    text.chars().map(|c| u8::try_from(c).ok()).collect()
}

fn lang_code(lang: Lang) -> &'static str {
    &lang.tag()[..2]
}

impl TaskRequest {
    /// The request as text.
    #[must_use]
    pub fn encode(&self) -> String {
        match self {
            TaskRequest::Import { lang, hint, text } => {
                format!("{PREFIX}import\n{}\n{}\n{text}", lang_code(*lang), hint.name())
            }
            TaskRequest::Export { record, format } => {
                format!("{PREFIX}export\n{}\n{}", format.name(), record_to_lines(record))
            }
            TaskRequest::Qr { text } => format!("{PREFIX}qr\n{text}"),
            TaskRequest::Opening { record } => {
                format!("{PREFIX}opening\n{}", escape(&record.to_text()))
            }
            TaskRequest::ListGames { text } => format!("{PREFIX}games\n{text}"),
            // Each byte as the character of that number (U+0000 to U+00FF): text that carries
            // the bytes as they are.
            TaskRequest::Decode { bytes } => format!("{PREFIX}decode\n{}", carry(bytes)),
            TaskRequest::Encode { text, encoding } => {
                format!("{PREFIX}encode\n{}\n{text}", escape(encoding))
            }
        }
    }

    /// Reads [`encode`](TaskRequest::encode)'s text.
    #[must_use]
    pub fn decode(text: &str) -> Option<TaskRequest> {
        let rest = text.strip_prefix(PREFIX)?;
        let (task, rest) = rest.split_once('\n').unwrap_or((rest, ""));
        match task {
            "import" => {
                let mut fields = rest.splitn(3, '\n');
                let lang = Lang::from_tag(fields.next()?);
                let (hint, _) = qi_rules::any::parse_variant(fields.next()?).ok()?;
                Some(TaskRequest::Import { lang, hint, text: fields.next()?.to_owned() })
            }
            "export" => {
                let (format, record) = rest.split_once('\n')?;
                let format = Format::from_name(format)?;
                Some(TaskRequest::Export { record: record_from_lines(record)?, format })
            }
            "qr" => Some(TaskRequest::Qr { text: rest.to_owned() }),
            "opening" => {
                Some(TaskRequest::Opening { record: GameRecord::from_text(&unescape(rest))? })
            }
            "games" => Some(TaskRequest::ListGames { text: rest.to_owned() }),
            "decode" => Some(TaskRequest::Decode { bytes: uncarry(rest)? }),
            "encode" => {
                let (encoding, text) = rest.split_once('\n')?;
                Some(TaskRequest::Encode { text: text.to_owned(), encoding: unescape(encoding) })
            }
            _ => None,
        }
    }
}

impl TaskReply {
    /// The reply as text.
    #[must_use]
    pub fn encode(&self) -> String {
        match self {
            TaskReply::Imported { record, warnings } => {
                let warnings: Vec<String> = warnings.iter().map(|w| escape(w)).collect();
                format!("imported\n{}\n{}", warnings.join("\t"), record_to_lines(record))
            }
            TaskReply::Encoded { bytes, unmappable } => {
                format!("encoded\n{unmappable}\n{}", carry(bytes))
            }
            TaskReply::Failed { message, partial } => format!(
                "failed\n{}\n{}",
                escape(message),
                partial.as_ref().map(record_to_lines).unwrap_or_default()
            ),
            TaskReply::Exported { text } => format!("exported\n{text}"),
            TaskReply::Qr { size, path } => format!("qr\n{size}\n{path}"),
            TaskReply::Opening { ply, opening } => format!(
                "opening\n{ply}\t{}\t{}\t{}\t{}",
                escape(&opening.code),
                escape(&opening.name),
                escape(opening.name_zh.as_deref().unwrap_or("")),
                escape(opening.name_vi.as_deref().unwrap_or("")),
            ),
            TaskReply::Games { games } => {
                let mut out = "games".to_owned();
                for game in games {
                    out.push_str(&format!(
                        "\n{}\t{}\t{}",
                        game.range.start, game.range.end, game.line
                    ));
                    for (name, value) in &game.tags {
                        out.push_str(&format!("\t{}\t{}", escape(name), escape(value)));
                    }
                }
                out
            }
            TaskReply::Decoded { text, encoding, replaced, first_bad } => {
                let place = first_bad.map_or_else(|| "-".to_owned(), |(l, c)| format!("{l},{c}"));
                format!("decoded\n{encoding}\n{replaced}\n{place}\n{text}")
            }
            TaskReply::Nothing => "nothing".to_owned(),
        }
    }

    /// Reads [`encode`](TaskReply::encode)'s text.
    #[must_use]
    pub fn decode(text: &str) -> Option<TaskReply> {
        let (kind, rest) = text.split_once('\n').unwrap_or((text, ""));
        match kind {
            "imported" => {
                let (warnings, record) = rest.split_once('\n')?;
                let warnings =
                    warnings.split('\t').filter(|w| !w.is_empty()).map(unescape).collect();
                Some(TaskReply::Imported { record: record_from_lines(record)?, warnings })
            }
            "encoded" => {
                let (unmappable, bytes) = rest.split_once('\n')?;
                let unmappable = unmappable.parse().ok()?;
                Some(TaskReply::Encoded { bytes: uncarry(bytes)?, unmappable })
            }
            "failed" => {
                let (message, partial) = rest.split_once('\n').unwrap_or((rest, ""));
                let partial =
                    if partial.is_empty() { None } else { Some(record_from_lines(partial)?) };
                Some(TaskReply::Failed { message: unescape(message), partial })
            }
            "exported" => Some(TaskReply::Exported { text: rest.to_owned() }),
            "qr" => {
                let (size, path) = rest.split_once('\n')?;
                Some(TaskReply::Qr { size: size.parse().ok()?, path: path.to_owned() })
            }
            "opening" => {
                let fields: Vec<String> = rest.split('\t').map(unescape).collect();
                let [ply, code, name, zh, vi] = fields.as_slice() else { return None };
                let some = |text: &String| (!text.is_empty()).then(|| text.clone());
                let opening = Opening {
                    code: code.clone(),
                    name: name.clone(),
                    name_zh: some(zh),
                    name_vi: some(vi),
                };
                Some(TaskReply::Opening { ply: ply.parse().ok()?, opening })
            }
            "games" => {
                let mut games = Vec::new();
                for line in rest.split('\n').filter(|line| !line.is_empty()) {
                    let fields: Vec<String> = line.split('\t').map(unescape).collect();
                    let [start, end, at, tags @ ..] = fields.as_slice() else { return None };
                    if tags.len() % 2 != 0 {
                        return None;
                    }
                    let tags =
                        tags.chunks(2).map(|pair| (pair[0].clone(), pair[1].clone())).collect();
                    let range = start.parse().ok()?..end.parse().ok()?;
                    games.push(GameEntry { range, line: at.parse().ok()?, tags });
                }
                Some(TaskReply::Games { games })
            }
            "decoded" => {
                let mut fields = rest.splitn(4, '\n');
                let encoding = fields.next()?.to_owned();
                let replaced = fields.next()?.parse().ok()?;
                let first_bad = match fields.next()? {
                    "-" => None,
                    place => {
                        let (line, column) = place.split_once(',')?;
                        Some((line.parse().ok()?, column.parse().ok()?))
                    }
                };
                let text = fields.next()?.to_owned();
                Some(TaskReply::Decoded { text, encoding, replaced, first_bad })
            }
            "nothing" => Some(TaskReply::Nothing),
            _ => None,
        }
    }
}

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

    /// A task as the worker gets it: the request through its text form and back, answered, and
    /// the answer the same way.
    fn wire(request: &TaskRequest) -> Option<TaskReply> {
        let request = TaskRequest::decode(&request.encode()).expect("the request reads back");
        TaskReply::decode(&answer(request).encode())
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
        assert_eq!(TaskRequest::decode(&request.encode()), Some(request));
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

    fn record() -> GameRecord {
        let mut record = GameRecord::new(GameKind::Chess, "", 0);
        record.moves = ["e2e4", "e7e5"].map(String::from).to_vec();
        record.tags.push(("Event".into(), "A\tB \\ C\nD".into()));
        record.comments.insert(0, "before\nall".into());
        record.comments.insert(2, "{odd} \\n".into());
        record.ending = Some(qi_play::record::Ending {
            winner: Some(qi_rules::Side::Second),
            by: qi_play::record::EndedBy::Resignation,
        });
        record
    }

    #[test]
    fn the_opening_is_named_and_written_into_pgn() {
        let mut ruy = GameRecord::new(GameKind::Chess, "", 0);
        ruy.moves = ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"].map(String::from).to_vec();
        let request = TaskRequest::Opening { record: ruy.clone() };
        assert_eq!(TaskRequest::decode(&request.encode()), Some(request.clone()));
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
    fn records_travel_whole() {
        let mut record = record();
        record.comments.insert(1, "carriage\r\nreturn\t\\".into());
        assert_eq!(record_from_lines(&record_to_lines(&record)), Some(record));
    }

    #[test]
    fn requests_and_replies_read_back() {
        let requests = [
            TaskRequest::Import {
                lang: Lang::Vi,
                hint: GameKind::Gomoku,
                text: "h8 i9\nj10".into(),
            },
            TaskRequest::Export { record: record(), format: Format::ChessPgn },
            TaskRequest::Qr { text: "https://x.test/?g=AQ".into() },
            TaskRequest::Encode { text: "炮二平五\n".into(), encoding: "gbk".into() },
        ];
        for request in requests {
            assert_eq!(TaskRequest::decode(&request.encode()), Some(request));
        }
        let replies = [
            TaskReply::Imported { record: record(), warnings: Vec::new() },
            TaskReply::Imported {
                record: record(),
                warnings: vec!["Line 1, column 7: “\\” is no move;\tskipped.".into(), "b".into()],
            },
            TaskReply::Encoded { bytes: vec![0, 0xB7, 0xFF, b'\n'], unmappable: 2 },
            TaskReply::Failed { message: "Line 1\ncolumn".into(), partial: Some(record()) },
            TaskReply::Failed { message: "x".into(), partial: None },
            TaskReply::Exported { text: "[Event \"x\"]\n\n1. e4 *\n".into() },
            TaskReply::Qr { size: 29, path: "M4 4h1v1h-1z".into() },
            TaskReply::Nothing,
        ];
        for reply in replies {
            assert_eq!(TaskReply::decode(&reply.encode()), Some(reply));
        }
        assert_eq!(TaskRequest::decode("3|1|2|chess||startpos:0|"), None, "a think request");
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
        assert_eq!(TaskRequest::decode("records\nnonsense"), None);
    }
}
