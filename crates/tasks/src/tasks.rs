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

#[cfg(test)]
mod tests {
    use super::*;

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
}
