//! The WXF file layout (the World Xiangqi Federation's file format, drafted by Huayong Yang; PlayOK
//! exports xiangqi games in it): header lines `KEY value`, then the moves between `START{` and
//! `}END`.
//!
//! ```text
//! FORMAT     WXF
//! RED        Lin;1500;
//! BLACK      Tran;1480;
//! DATE       2026.11.20
//! RESULT     1-0
//! START{
//!  1. C2.5      H8+7
//!  2. H++7 ...
//! }END
//! ```
//!
//! `FORMAT` says how moves are written: `WXF` (or its older name `AXF`) for `C2.5`, `ICCS` for
//! `H2-E2`. A player's line may carry more fields after `;` (a rating); the name is the first.
//! The file is written out as a PGN-style record line for line: header lines become tags,
//! `START{` and `}END` blank lines, the moves stay where they stood, so errors name the file's
//! own lines.

use super::foreign::{Converted, tag_line};
use crate::record::GameRecord;

/// The header keys and the tags they become.
const KEYS: [(&str, &str); 12] = [
    ("GAME", "Event"),
    ("EVENT", "Event"),
    ("PLACE", "Site"),
    ("SITE", "Site"),
    ("DATE", "Date"),
    ("ROUND", "Round"),
    ("RED", "Red"),
    ("BLACK", "Black"),
    ("RESULT", "Result"),
    ("OPENING", "Opening"),
    ("FEN", "FEN"),
    ("TIME", "TimeControl"),
];

/// A header line's key and value (`RED   Lin;1500;`).
fn header(line: &str) -> Option<(&str, &str)> {
    let line = line.trim();
    let key_len = line.bytes().take_while(|b| b.is_ascii_alphabetic() || *b == b'_').count();
    if key_len == 0 {
        return None;
    }
    let (key, value) = line.split_at(key_len);
    (value.is_empty() || value.starts_with(char::is_whitespace)).then(|| (key, value.trim()))
}

/// Whether `text` is a WXF file: its first line that is not blank is `FORMAT` and a move format
/// (`WXF`, `AXF`, `ICCS`), and a `START{` line follows.
pub(crate) fn is_wxf_file(text: &str) -> bool {
    let mut lines = text.lines().filter(|line| !line.trim().is_empty());
    let format =
        lines.next().and_then(header).filter(|(key, _)| key.eq_ignore_ascii_case("FORMAT"));
    let known = format.is_some_and(|(_, value)| {
        let moves = value.split([',', ' ']).next().unwrap_or_default();
        ["WXF", "AXF", "ICCS"].iter().any(|name| moves.eq_ignore_ascii_case(name))
    });
    known && lines.any(|line| line.trim_start().to_ascii_uppercase().starts_with("START{"))
}

/// The WXF file `text` as a PGN-style record, line for line.
pub(crate) fn as_record(text: &str) -> Converted {
    let mut out = Vec::new();
    let mut in_moves = false;
    let mut ended = false;
    for line in text.split('\n') {
        let line = line.strip_suffix('\r').unwrap_or(line);
        let leading = line.len() - line.trim_start().len();
        // ASCII upper case keeps every byte where it was.
        let upper = line.to_ascii_uppercase();
        if ended {
            out.push(String::new());
        } else if in_moves {
            match upper.find("}END") {
                Some(at) => {
                    ended = true;
                    out.push(line[..at].to_owned());
                }
                None => out.push(line.to_owned()),
            }
        } else if upper[leading..].starts_with("START{") {
            in_moves = true;
            // The moves may start on the same line: kept where they stood, `START{` blanked.
            let mut moves = &line[leading + "START{".len()..];
            // `START{ 1. C2.5 H8+7 }END` on one line: the end is here too.
            if let Some(at) = moves.to_ascii_uppercase().find("}END") {
                moves = &moves[..at];
                ended = true;
            }
            out.push(format!("{}{moves}", " ".repeat(line[..leading].chars().count() + 6)));
        } else if let Some((key, value)) = header(line) {
            out.push(header_tag(key, value));
        } else {
            out.push(String::new());
        }
    }
    Converted::line_for_line(out.join("\n"))
}

/// The tag line a header line becomes (an unknown key is kept under its own name).
fn header_tag(key: &str, value: &str) -> String {
    let upper = key.to_ascii_uppercase();
    if upper == "FORMAT" {
        let moves = value.split([',', ' ']).next().unwrap_or_default().to_ascii_uppercase();
        let moves = if moves == "ICCS" { "ICCS" } else { "WXF" };
        return format!("[Variant \"xiangqi\"] [Format \"{moves}\"]");
    }
    let name = KEYS.iter().find(|(k, _)| *k == upper).map(|(_, name)| (*name).to_owned());
    let value = match upper.as_str() {
        // `Lin;1500;`: the name, then the rating.
        "RED" | "BLACK" => value.split(';').next().unwrap_or_default(),
        _ => value,
    };
    let name = name.unwrap_or_else(|| {
        let mut chars = upper.chars();
        chars
            .next()
            .map(|c| c.to_string() + &chars.as_str().to_ascii_lowercase())
            .unwrap_or_default()
    });
    if value.is_empty() { String::new() } else { tag_line(&name, value) }
}

/// `record` in the WXF file layout: the header from its tags (the players' names, event,
/// place, date, round, result; `FEN` when it does not start from the usual position), then its
/// main line in WXF, two moves a numbered line. Comments and variations have no place in it.
pub(crate) fn export(record: &GameRecord) -> String {
    let replayed = record.replay(usize::MAX);
    let tag = |names: &[&str]| {
        names.iter().find_map(|name| {
            record.tags.iter().find(|(n, v)| n == name && !v.trim().is_empty()).map(|(_, v)| {
                v.chars().map(|c| if c.is_control() { ' ' } else { c }).collect::<String>()
            })
        })
    };
    let outcome = replayed.game.outcome();
    let ending = record.ending.filter(|_| outcome.is_none() && replayed.error.is_none());
    let result = ending
        .map_or_else(|| super::pgn::result_token(outcome.as_ref()), |ending| ending.result_token());
    let mut out = String::from("FORMAT     WXF\n");
    let fields = [
        ("GAME", tag(&["Event"])),
        ("RED", tag(&["Red", "White"])),
        ("BLACK", tag(&["Black"])),
        ("DATE", tag(&["Date"])),
        ("PLACE", tag(&["Site"])),
        ("ROUND", tag(&["Round"])),
        ("RESULT", Some(result.to_owned())),
    ];
    for (key, value) in fields {
        if let Some(value) = value.filter(|v| !v.contains('?')) {
            out.push_str(&format!("{key:<11}{value}\n"));
        }
    }
    let start = record.start_game();
    let position = start.position();
    if position != qi_rules::xiangqi::START_FEN {
        out.push_str(&format!("{:<11}{position}\n", "FEN"));
    }
    out.push_str("START{\n");
    let black_first = start.side_to_move() == qi_rules::Side::Second;
    let mut moves: Vec<&str> = Vec::new();
    if black_first {
        moves.push("....");
    }
    moves.extend(replayed.notations.iter().map(String::as_str));
    let first = super::start_number(&start);
    for (index, pair) in moves.chunks(2).enumerate() {
        let number = first as usize + index;
        let second = pair.get(1).copied().unwrap_or_default();
        out.push_str(format!("{number:>3}. {:<10}{second}", pair[0]).trim_end());
        out.push('\n');
    }
    out.push_str("}END\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wxf_file_is_known_by_its_format_line_and_start() {
        assert!(is_wxf_file("\nFORMAT  WXF\nRED x\nSTART{\n1. C2.5 H8+7\n}END\n"));
        assert!(is_wxf_file("format iccs\r\nstart{\r\n}end\r\n"));
        assert!(!is_wxf_file("FORMAT WXF\n1. C2.5\n"), "no START{{");
        assert!(!is_wxf_file("[Event \"x\"]\nFORMAT WXF\nSTART{\n"));
        assert!(!is_wxf_file("FORMATTED WXF\nSTART{\n"));
    }

    #[test]
    fn lines_stay_where_they_stood() {
        let text = "FORMAT WXF\nRED Lin;1500;\nRESULT 1-0\nSTART{ 1. C2.5\n  H8+7\n}END\ntrailer";
        let converted = as_record(text);
        let lines: Vec<&str> = converted.text.split('\n').collect();
        assert_eq!(lines.len(), 7);
        assert_eq!(lines[0], "[Variant \"xiangqi\"] [Format \"WXF\"]");
        assert_eq!(lines[1], "[Red \"Lin\"]");
        assert_eq!(lines[2], "[Result \"1-0\"]");
        assert_eq!(lines[3], "       1. C2.5", "the moves keep their columns");
        assert_eq!(lines[4], "  H8+7");
        assert_eq!(lines[6], "");
    }
}
