//! Chess records: SAN or UCI moves in, SAN out; `Variant`, `SetUp` and `FEN` tags for Chess960
//! and set-up positions.

use std::borrow::Cow;

use qi_rules::any::AnyGame;
use qi_rules::{Game, RuleSet};

use super::dialect::Dialect;
use super::error::{Pos, RecordError};
use super::reader::Reader;
use crate::record::{GameRecord, Start};

/// Whether `word` has the shape of a UCI move (`e2e4`, `e7e8q`).
fn is_uci(word: &str) -> bool {
    let b = word.as_bytes();
    let square = |f: u8, r: u8| (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r);
    (b.len() == 4 || (b.len() == 5 && b"qrbn".contains(&b[4])))
        && square(b[0], b[1])
        && square(b[2], b[3])
}

/// SAN as some programs write it, put into the form shakmaty reads: castling with zeros
/// (`0-0-0`), promotion without `=` (`e8Q`, `exd8N+`).
fn normalize(word: &str) -> Cow<'_, str> {
    for (zeros, letters) in [("0-0-0", "O-O-O"), ("0-0", "O-O")] {
        if let Some(rest) = word.strip_prefix(zeros) {
            return Cow::Owned(format!("{letters}{rest}"));
        }
    }
    if is_uci(word) {
        return Cow::Borrowed(word);
    }
    let body = word.trim_end_matches(['+', '#']);
    let b = body.as_bytes();
    if let [_, .., b'1' | b'8', b'Q' | b'R' | b'B' | b'N'] = b {
        let split = body.len() - 1;
        return Cow::Owned(format!("{}={}{}", &body[..split], &body[split..], &word[body.len()..]));
    }
    Cow::Borrowed(word)
}

/// Chess records: SAN (as programs write it) or UCI.
pub(crate) struct ChessDialect;

impl Dialect for ChessDialect {
    fn read_word(&mut self, reader: &mut Reader, pos: Pos, word: &str) -> Result<(), RecordError> {
        reader.play(pos, &normalize(word), word)
    }

    fn default_start(&self, rules: &str) -> Start {
        // Chess960 without a start position: the standard one is number 518.
        if rules.contains("chess960") { Start::Seed(518) } else { Start::Seed(0) }
    }

    fn describing_tags(&self, record: &GameRecord, start: &AnyGame) -> Vec<(String, String)> {
        describing_tags(record, start)
    }
}

/// `Variant` for Chess960, `SetUp` and `FEN` when the game does not start from the standard
/// position, and `Rules` for any rule options besides the variant.
fn describing_tags(record: &GameRecord, start: &AnyGame) -> Vec<(String, String)> {
    let mut tags = Vec::new();
    let AnyGame::Chess(game) = start else { return tags };
    let rules = game.rules();
    if rules.chess960 {
        tags.push(("Variant".to_owned(), "Chess960".to_owned()));
    }
    if rules.chess960 || matches!(record.start, Start::Position(_)) {
        tags.push(("SetUp".to_owned(), "1".to_owned()));
        tags.push(("FEN".to_owned(), start.position()));
    }
    let others: Vec<String> = rules
        .pairs()
        .into_iter()
        .filter(|(key, _)| *key != "variant")
        .map(|(key, value)| format!("{key}={value}"))
        .collect();
    if !others.is_empty() {
        tags.push(("Rules".to_owned(), others.join(",")));
    }
    tags
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn san_variants_are_normalized() {
        assert_eq!(normalize("0-0"), "O-O");
        assert_eq!(normalize("0-0-0+"), "O-O-O+");
        assert_eq!(normalize("e8Q"), "e8=Q");
        assert_eq!(normalize("exd1N#"), "exd1=N#");
        assert_eq!(normalize("e7e8q"), "e7e8q");
        assert_eq!(normalize("Nf3"), "Nf3");
        assert_eq!(normalize("e8=Q"), "e8=Q");
        assert_eq!(normalize("Q"), "Q");
        assert_eq!(normalize("é8Q"), "é8=Q");
    }
}
