//! Xiangqi records: WXF or coordinate moves in, WXF out; `Variant`, `Format`, `FEN` and
//! `Rules` tags.

use qi_rules::any::AnyGame;
use qi_rules::{GameKind, RuleSet};

use super::dialect::Dialect;
use super::error::{Pos, RecordError, RecordErrorKind};
use super::reader::Reader;
use crate::record::GameRecord;

/// A coordinate square at the start of `bytes`: file `a`-`i` in either case and a rank of one
/// or two digits. Returns the file letter, the rank and the bytes read.
fn square(bytes: &[u8]) -> Option<(u8, u32, usize)> {
    let file = bytes.first()?.to_ascii_lowercase();
    if !(b'a'..=b'i').contains(&file) {
        return None;
    }
    let digits = bytes[1..].iter().take_while(|b| b.is_ascii_digit()).take(3).count();
    if !(1..=2).contains(&digits) {
        return None;
    }
    let rank = bytes[1..=digits].iter().fold(0, |n, &d| n * 10 + u32::from(d - b'0'));
    Some((file, rank, 1 + digits))
}

/// Coordinates in the form the rules read (`h3e3`): lower case, no dash; ICCS ranks (from 0)
/// moved up by one. `None` when `word` is not coordinates.
fn coordinates(word: &str, iccs: bool) -> Option<String> {
    let bytes = word.as_bytes();
    let (from_file, from_rank, len) = square(bytes)?;
    let rest = &bytes[len..];
    let rest = rest.strip_prefix(b"-").unwrap_or(rest);
    let (to_file, to_rank, len) = square(rest)?;
    if len != rest.len() {
        return None;
    }
    let shift = u32::from(iccs);
    Some(format!(
        "{}{}{}{}",
        char::from(from_file),
        from_rank + shift,
        char::from(to_file),
        to_rank + shift
    ))
}

/// Whether `word` is coordinates with a square on rank 0, which only ICCS has.
pub(crate) fn on_rank_zero(word: &str) -> bool {
    let bytes = word.as_bytes();
    let Some((_, from_rank, len)) = square(bytes) else { return false };
    let rest = &bytes[len..];
    let rest = rest.strip_prefix(b"-").unwrap_or(rest);
    matches!(square(rest), Some((_, to_rank, len)) if len == rest.len() && (from_rank == 0 || to_rank == 0))
}

/// Xiangqi records: WXF, Chinese notation or coordinates.
pub(crate) struct XiangqiDialect {
    /// Coordinates are ICCS's, ranks from 0 (the record said so, or used rank 0).
    pub iccs: bool,
}

impl Dialect for XiangqiDialect {
    fn read_word(&mut self, reader: &mut Reader, pos: Pos, word: &str) -> Result<(), RecordError> {
        let text = coordinates(word, self.iccs).unwrap_or_else(|| word.to_owned());
        let played = reader.play(pos, &text, word);
        // `12.33.4`: a move number glued to a WXF move that starts with a digit.
        if let Err(RecordError { kind: RecordErrorKind::UnreadableMove { .. }, .. }) = played
            && let Some(split) = glued_number(word)
        {
            let (number, wxf) = word.split_at(split);
            return reader.play(pos.right(number.len()), wxf, wxf);
        }
        played
    }

    fn describing_tags(&self, record: &GameRecord, start: &AnyGame) -> Vec<(String, String)> {
        describing_tags(record, start)
    }
}

/// The length of a move number (digits and dots) glued to the front of a four-character WXF
/// move in `word`, if any.
fn glued_number(word: &str) -> Option<usize> {
    let digits = word.bytes().take_while(u8::is_ascii_digit).count();
    let dots = word[digits..].bytes().take_while(|&b| b == b'.').count();
    (digits > 0 && dots > 0 && word.len() - digits - dots == 4).then_some(digits + dots)
}

/// `Variant`, `Format`, `FEN` (when not the standard start) and `Rules`.
fn describing_tags(record: &GameRecord, start: &AnyGame) -> Vec<(String, String)> {
    let mut tags = vec![
        ("Variant".to_owned(), GameKind::Xiangqi.name().to_owned()),
        ("Format".to_owned(), "WXF".to_owned()),
    ];
    let position = start.position();
    if position != qi_rules::xiangqi::START_FEN {
        tags.push(("FEN".to_owned(), position));
    }
    let rules = match start {
        AnyGame::Xiangqi(game) => qi_rules::Game::rules(game).to_list(),
        _ => record.rules.clone(),
    };
    tags.push(("Rules".to_owned(), rules));
    tags
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_in_several_spellings() {
        assert_eq!(coordinates("h3e3", false).as_deref(), Some("h3e3"));
        assert_eq!(coordinates("H3-E3", false).as_deref(), Some("h3e3"));
        assert_eq!(coordinates("h10g8", false).as_deref(), Some("h10g8"));
        assert_eq!(coordinates("H2-E2", true).as_deref(), Some("h3e3"));
        assert_eq!(coordinates("h9g7", true).as_deref(), Some("h10g8"));
        assert_eq!(glued_number("12.33.4"), Some(3));
        assert_eq!(glued_number("33.4"), None);
        assert_eq!(glued_number("12."), None);
        assert_eq!(glued_number("C2.5"), None);
        assert!(on_rank_zero("h0g2") && on_rank_zero("B9-C0") && !on_rank_zero("h10g8"));
        for not in ["C2.5", "H2-3", "h3", "j3e3", "h3e3x", "h123e3", "", "é3e3"] {
            assert_eq!(coordinates(not, false), None, "{not}");
        }
    }
}
