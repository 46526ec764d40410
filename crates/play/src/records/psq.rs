//! Gomocup's `.psq` records (Piskvork's own format): a header line `Piskvorky 20x20, 11:11, 0`,
//! then a move a line as `x,y,time` (columns and rows from 1, row 1 at the top, time in
//! milliseconds), ended by a line that is not a move (`-1`, the engines' names). Read by writing
//! them out as the record the reader takes, line for line, so that an error names the file's
//! own line.
//!
//! Plain coordinate pairs (`8,8 9,9 7,7`, as gomoku tutorials and programs print them) are read
//! the same way: `x,y` with columns and rows counted as Gomocup counts them (from 1, row 1 at
//! the top), or from 0 when a 0 appears; the board is the smallest of 15 and 19 that holds
//! them all.

use super::error::{Pos, RecordError, RecordErrorKind};
use super::foreign::Converted;
use crate::record::GameRecord;
use qi_rules::Game;

/// The sizes Qi's gomoku offers.
const SIZES: [usize; 3] = [15, 19, 20];

/// The board size a `.psq` header line gives (`Piskvorky 20x20, 11:11, 0`): width and height.
fn header(line: &str) -> Option<(usize, usize)> {
    let rest = line.trim();
    let rest = rest.get(..9).filter(|w| w.eq_ignore_ascii_case("piskvorky")).map(|_| &rest[9..])?;
    let size = rest.trim_start().split([',', ' ']).next()?;
    let (width, height) = size.split_once(['x', 'X'])?;
    Some((width.trim().parse().ok()?, height.trim().parse().ok()?))
}

/// A move line: `x,y` or `x,y,time`.
fn move_of(line: &str) -> Option<(usize, usize)> {
    let fields: Vec<&str> = line.trim().split(',').map(str::trim).collect();
    if !(2..=3).contains(&fields.len())
        || !fields.iter().all(|f| f.bytes().all(|b| b.is_ascii_digit()) && !f.is_empty())
    {
        return None;
    }
    Some((fields[0].parse().ok()?, fields[1].parse().ok()?))
}

/// Whether `text` is a `.psq` file: its first line that is not blank is the header.
pub(crate) fn is_psq(text: &str) -> bool {
    text.lines().find(|line| !line.trim().is_empty()).is_some_and(|line| header(line).is_some())
}

/// The board size refused: `gomoku on a 20×20 board`, at `pos`.
fn unknown_size(width: usize, height: usize, pos: Pos) -> RecordError {
    let name = format!("gomoku on a {width}×{height} board");
    RecordError::at(pos, RecordErrorKind::UnknownVariant { name })
}

/// A point on a board of `size`, from a column and a row counted from 1 with row 1 at the top;
/// off the board, the text the reader names (`x=16/y=2`).
fn point(size: usize, x: usize, y: usize) -> String {
    if (1..=size).contains(&x) && (1..=size).contains(&y) {
        let column = char::from(b'a' + u8::try_from(x - 1).unwrap_or(0));
        format!("{column}{}", size + 1 - y)
    } else {
        format!("x={x}/y={y}")
    }
}

/// The tags a gomoku record of `size` starts with.
fn tags(size: usize) -> String {
    let rules = if size == 15 { String::new() } else { format!(" [Rules \"size={size}\"]") };
    format!("[Variant \"gomoku\"]{rules}")
}

/// `text`, a `.psq` file, as a record the reader takes: the same lines, the header become the
/// tags and each move its point (`h8`); a point off the board is kept as written, so that the
/// reader names it.
///
/// # Errors
/// A board size Qi does not offer yet, named, at the header line.
pub(crate) fn as_record(text: &str) -> Result<Converted, RecordError> {
    let mut lines = text.lines();
    let mut out = Vec::new();
    let (index, (width, height)) = loop {
        let Some(line) = lines.next() else {
            return Err(RecordError::at(Pos::START, RecordErrorKind::Empty));
        };
        if line.trim().is_empty() {
            out.push(String::new());
            continue;
        }
        let Some(size) = header(line) else {
            return Err(RecordError::at(Pos::START, RecordErrorKind::Empty));
        };
        break (out.len(), size);
    };
    if width != height || !SIZES.contains(&width) {
        return Err(unknown_size(width, height, Pos { line: index + 1, column: 1 }));
    }
    let size = width;
    out.push(tags(size));
    let mut moving = true;
    for line in lines {
        match move_of(line).filter(|_| moving) {
            Some((x, y)) => out.push(point(size, x, y)),
            None => {
                // The moves end at the first line that is not one; the rest is kept as comments.
                moving = false;
                let rest = line.trim().replace(['{', '}'], "");
                out.push(if rest.is_empty() { String::new() } else { format!("{{{rest}}}") });
            }
        }
    }
    Ok(Converted::line_for_line(out.join("\n")))
}

/// The coordinate pairs of `text` (`8,8 9,9`, spaces around the comma allowed), each with
/// where it stands; `None` unless the whole text is pairs.
fn pairs(text: &str) -> Option<Vec<(Pos, usize, usize)>> {
    let mut found = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let mut rest = line;
        // The column where `rest` starts, kept as `rest` moves on (one pass over the line).
        let mut column = 1;
        loop {
            let trimmed = rest.trim_start();
            column += rest[..rest.len() - trimmed.len()].chars().count();
            if trimmed.is_empty() {
                break;
            }
            let number = |s: &str| -> Option<(usize, usize)> {
                let digits = s.bytes().take_while(u8::is_ascii_digit).count();
                if digits == 0 || digits > 3 {
                    return None;
                }
                Some((s[..digits].parse().ok()?, digits))
            };
            let (x, used) = number(trimmed)?;
            let after = trimmed[used..].trim_start().strip_prefix(',')?.trim_start();
            let (y, used_y) = number(after)?;
            let tail = &after[used_y..];
            // A pair ends at white space, a `;` or the end of the line.
            let tail = tail.strip_prefix(';').unwrap_or(tail);
            if !(tail.is_empty() || tail.starts_with(char::is_whitespace)) {
                return None;
            }
            found.push((Pos { line: index + 1, column }, x, y));
            column += trimmed[..trimmed.len() - tail.len()].chars().count();
            rest = tail;
        }
    }
    (!found.is_empty()).then_some(found)
}

/// Whether `text` is gomoku coordinate pairs and nothing else.
pub(crate) fn is_pairs(text: &str) -> bool {
    pairs(text).is_some()
}

/// Coordinate pairs as a gomoku record: a point a line, each line's origin the pair's place.
///
/// # Errors
/// None yet: a pair off every board is written so that the reader names it.
pub(crate) fn pairs_as_record(text: &str) -> Result<Converted, RecordError> {
    let Some(found) = pairs(text) else {
        return Err(RecordError::at(Pos::START, RecordErrorKind::Empty));
    };
    let from_zero = found.iter().any(|&(_, x, y)| x == 0 || y == 0);
    let shift = usize::from(from_zero);
    let largest = found.iter().map(|&(_, x, y)| x.max(y) + shift).max().unwrap_or(1);
    let size = SIZES.into_iter().find(|&size| largest <= size);
    // Off every board: the reader names the first point off the largest.
    let size = size.unwrap_or(20);
    let mut lines = vec![tags(size)];
    let mut origin = vec![None];
    for (pos, x, y) in found {
        lines.push(point(size, x + shift, y + shift));
        origin.push(Some(pos));
    }
    Ok(Converted { text: lines.join("\n"), origin })
}

/// The `.psq` file of a gomoku record: the header (`Piskvorky 15x15, 11:11, 0`), a stone a line
/// as `x,y,0` (no times are kept; an opening's colour choices are left out), and `-1`. `None`
/// for another game's record.
#[must_use]
pub(crate) fn export(record: &GameRecord) -> Option<String> {
    let replayed = record.replay(usize::MAX);
    let qi_rules::any::AnyGame::Gomoku(game) = &replayed.game else { return None };
    let size = usize::from(game.rules().size());
    let mut out = format!("Piskvorky {size}x{size}, 11:11, 0\n");
    let played = replayed.error.as_ref().map_or(record.moves.len(), |error| error.ply);
    // A `.psq` starts on the empty board: a game from a position gets its stones first, Black's
    // and White's in turn (the counts a position may have allow it).
    let start = record.start_game();
    let qi_rules::any::AnyGame::Gomoku(first) = &start else { return None };
    let stones = |side| {
        (0..size as u8)
            .flat_map(move |rank| (0..size as u8).map(move |file| qi_rules::Cell::new(file, rank)))
            .filter(move |&cell| first.stone_at(cell) == Some(side))
            .map(|cell| cell.to_string())
            .collect::<Vec<_>>()
    };
    let (black, white) = (stones(qi_rules::Side::First), stones(qi_rules::Side::Second));
    let mut setup = Vec::new();
    for i in 0..black.len().max(white.len()) {
        setup.extend(black.get(i).cloned());
        setup.extend(white.get(i).cloned());
    }
    for text in setup.iter().chain(&record.moves[..played.min(record.moves.len())]) {
        // A `.psq` holds stones only: an opening's colour choices have no place in it.
        let Ok(cell) = text.parse::<qi_rules::Cell>() else { continue };
        let x = usize::from(cell.file) + 1;
        let y = size - usize::from(cell.rank);
        out.push_str(&format!("{x},{y},0\n"));
    }
    out.push_str("-1\n");
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::import;
    use qi_rules::GameKind;

    #[test]
    fn a_fifteen_board_psq_reads_with_its_moves_and_trailer() {
        let text = "Piskvorky 15x15, 8:8, 0\n8,8,1000\n9,8,1200\n9,9,900\n-1\nrapfi\nqi\n";
        let imported = import(text, None).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(imported.record.kind, GameKind::Gomoku);
        // x 8 is column h, y 8 counted from the top of 15 is row 8.
        assert_eq!(imported.record.moves, ["h8", "i8", "i7"]);
    }

    #[test]
    fn a_nineteen_board_psq_is_read_on_nineteen() {
        let text = "Piskvorky 19x19, 10:10, 0\r\n10,10,0\r\n1,1,0\r\n";
        let imported = import(text, None).unwrap_or_else(|e| panic!("{e:?}"));
        assert!(imported.record.rules.contains("size=19"), "{}", imported.record.rules);
        assert_eq!(imported.record.moves, ["j10", "a19"]);
    }

    #[test]
    fn a_board_qi_does_not_offer_is_named_and_a_bad_move_has_its_line() {
        let twenty = import("Piskvorky 20x20, 11:11, 0\n10,10,0\n20,1,0\n", None).unwrap();
        assert!(twenty.record.rules.contains("size=20"), "{}", twenty.record.rules);
        assert_eq!(twenty.record.moves, ["j11", "t20"]);
        let error = import("Piskvorky 21x21, 11:11, 0\n10,10,0\n", None).unwrap_err();
        assert_eq!((error.line, error.column), (1, 1));
        assert!(
            matches!(&error.kind, RecordErrorKind::UnknownVariant { name } if name.contains("21×21")),
            "{error:?}"
        );
        // The same point twice, on line 3 of the file.
        let error = import("Piskvorky 15x15, 8:8, 0\n8,8,0\n8,8,0\n", None).unwrap_err();
        assert_eq!(error.line, 3, "{error:?}");
        // A point off the board, named as written.
        let error = import("Piskvorky 15x15, 8:8, 0\n8,8,0\n16,2,0\n", None).unwrap_err();
        assert_eq!(error.line, 3, "{error:?}");
        assert!(
            matches!(&error.kind, RecordErrorKind::UnreadableMove { text, .. } if text == "x=16/y=2"),
            "{error:?}"
        );
        // Not a psq at all: read as anything else would be.
        assert!(!is_psq("[Event \"x\"]\n1. e4 *"));
        assert!(!is_psq("Piskvorky without a size"));
    }
}
