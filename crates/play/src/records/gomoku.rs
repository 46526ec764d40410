//! Gomoku records: points in (one per word, or several run together as in `h8i9j10`), points
//! out; the move string format with its optional header line.

use qi_rules::any::AnyGame;
use qi_rules::{Cell, Game, GameKind, RuleSet};

use super::dialect::Dialect;
use super::error::{Pos, RecordError, RecordWarning, RecordWarningKind};
use super::reader::Reader;
use crate::record::{GameRecord, Start};

/// The points run together in `word` (`h8`, `H8i9J10`): each one's byte offset and text.
/// `None` unless the whole word is points.
fn points(word: &str) -> Option<Vec<(usize, &str)>> {
    if !word.is_ascii() {
        return None;
    }
    let lower = word.to_ascii_lowercase();
    let mut found = Vec::new();
    let mut at = 0;
    while at < word.len() {
        let (_, len) = Cell::parse_prefix(&lower[at..])?;
        found.push((at, &word[at..at + len]));
        at += len;
    }
    (!found.is_empty()).then_some(found)
}

/// Whether `word` is one or more points run together.
pub(crate) fn is_points(word: &str) -> bool {
    points(word).is_some()
}

/// What the comment kept for an opening choice starts with.
const OPENING_CHOICE: &str = "opening choice: ";

/// Whether `word` is a colour choice of an opening rule as PlayOK writes it: `black`, `white`.
pub(crate) fn is_opening_choice(word: &str) -> bool {
    word.eq_ignore_ascii_case("black") || word.eq_ignore_ascii_case("white")
}

/// Gomoku records: points, one a word or several run together.
pub(crate) struct GomokuDialect;

impl Dialect for GomokuDialect {
    fn read_word(&mut self, reader: &mut Reader, pos: Pos, word: &str) -> Result<(), RecordError> {
        if is_opening_choice(word) {
            // A colour choice of the game's opening rule is a move.
            if reader.play(pos, word, word).is_ok() {
                return Ok(());
            }
            // One no rule of the record asks for (PlayOK's swap read without its opening
            // rule): the stones alternate as placed, so the game reads the same; the choice
            // stays as a comment and the player is told.
            reader.comment(&format!("{OPENING_CHOICE}{}", word.to_ascii_lowercase()));
            let kind = RecordWarningKind::OpeningChoice { choice: word.to_owned() };
            reader.warnings.push(RecordWarning::at(pos, kind));
            return Ok(());
        }
        let Some(points) = points(word) else { return reader.play(pos, word, word) };
        for (offset, point) in points {
            reader.play(pos.right(offset), &point.to_ascii_lowercase(), point)?;
        }
        Ok(())
    }

    fn describing_tags(&self, record: &GameRecord, start: &AnyGame) -> Vec<(String, String)> {
        describing_tags(record, start)
    }
}

/// `Variant`, `FEN` (when the game does not start on the empty board) and `Rules`.
fn describing_tags(record: &GameRecord, start: &AnyGame) -> Vec<(String, String)> {
    let mut tags = vec![("Variant".to_owned(), GameKind::Gomoku.name().to_owned())];
    let rules = match start {
        AnyGame::Gomoku(game) => *game.rules(),
        _ => Default::default(),
    };
    if matches!(record.start, Start::Position(_))
        && start.position() != qi_rules::gomoku::Gomoku::start(&rules, 0).position()
    {
        tags.push(("FEN".to_owned(), start.position()));
    }
    tags.push(("Rules".to_owned(), rules.to_list()));
    tags
}

/// The move string `h8i9j10`, after a header line of tags when the rules are not the defaults,
/// the game does not start on the empty board, there are no moves, or the game ended in a way
/// its moves do not show (`[Result "0-1"] [Termination "normal"]` for a resignation).
pub(crate) fn export_moves(record: &GameRecord) -> String {
    let replayed = record.replay(usize::MAX);
    let start = record.start_game();
    let moves = match &replayed.game {
        AnyGame::Gomoku(game) => game.move_string(),
        _ => String::new(),
    };
    let mut tags = describing_tags(record, &start);
    let default_rules = qi_rules::gomoku::GomokuRules::default().to_list();
    let ending =
        record.ending.filter(|_| replayed.error.is_none() && replayed.game.outcome().is_none());
    let plain =
        tags.len() == 2 && tags[1].1 == default_rules && !moves.is_empty() && ending.is_none();
    if let Some(ending) = ending {
        tags.push(("Result".to_owned(), ending.result_token().to_owned()));
        if let Some(termination) = ending.termination() {
            tags.push(("Termination".to_owned(), termination.to_owned()));
        }
    }
    let mut out = String::new();
    if !plain {
        let header: Vec<String> =
            tags.iter().map(|(name, value)| format!("[{name} \"{value}\"]")).collect();
        out.push_str(&header.join(" "));
        out.push('\n');
    }
    out.push_str(&moves);
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_split_into_points() {
        assert_eq!(points("h8i9J10"), Some(vec![(0, "h8"), (2, "i9"), (4, "J10")]));
        assert_eq!(points("o15"), Some(vec![(0, "o15")]));
        for not in ["", "h", "h8i", "8h", "Nf3", "h0", "é8", "h8-i9"] {
            assert_eq!(points(not), None, "{not}");
        }
    }
}
