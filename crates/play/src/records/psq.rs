//! Gomocup's `.psq` records (Piskvork's own format): a header line `Piskvorky 20x20, 11:11, 0`,
//! then a move a line as `x,y,time` (columns and rows from 1, row 1 at the top, time in
//! milliseconds), ended by a line that is not a move (`-1`, the engines' names). Read by writing
//! them out as the record the reader takes, line for line, so that an error names the file's
//! own line.

use super::error::{Pos, RecordError, RecordErrorKind};

/// The sizes Qi's gomoku offers.
const SIZES: [usize; 2] = [15, 19];

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

/// `text` as a record the reader takes, if it is a `.psq` file: the same lines, the header
/// become the tags and each move its point (`h8`); a point off the board is kept as written, so
/// that the reader names it.
///
/// # Errors
/// A board size Qi does not offer yet, named, at the header line.
pub(crate) fn as_record(text: &str) -> Option<Result<String, RecordError>> {
    let mut lines = text.lines();
    let mut out = Vec::new();
    let (index, (width, height)) = loop {
        let line = lines.next()?;
        if line.trim().is_empty() {
            out.push(String::new());
            continue;
        }
        break (out.len(), header(line)?);
    };
    if width != height || !SIZES.contains(&width) {
        let name = format!("gomoku on a {width}×{height} board");
        let pos = Pos { line: index + 1, column: 1 };
        return Some(Err(RecordError::at(pos, RecordErrorKind::UnknownVariant { name })));
    }
    let size = width;
    let rules = if size == 15 { String::new() } else { format!(" [Rules \"size={size}\"]") };
    out.push(format!("[Variant \"gomoku\"]{rules}"));
    let mut moving = true;
    for line in lines {
        let point = move_of(line).filter(|_| moving);
        match point {
            Some((x, y)) if (1..=size).contains(&x) && (1..=size).contains(&y) => {
                let column = char::from(b'a' + u8::try_from(x - 1).unwrap_or(0));
                out.push(format!("{column}{}", size + 1 - y));
            }
            // Off the board: written so that the reader names it as it stood.
            Some((x, y)) => out.push(format!("x={x}/y={y}")),
            None => {
                // The moves end at the first line that is not one; the rest is kept as comments.
                moving = false;
                let rest = line.trim().replace(['{', '}'], "");
                out.push(if rest.is_empty() { String::new() } else { format!("{{{rest}}}") });
            }
        }
    }
    Some(Ok(out.join("\n")))
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
        let error = import("Piskvorky 20x20, 11:11, 0\n10,10,0\n", None).unwrap_err();
        assert_eq!((error.line, error.column), (1, 1));
        assert!(
            matches!(&error.kind, RecordErrorKind::UnknownVariant { name } if name.contains("20×20")),
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
        assert!(as_record("[Event \"x\"]\n1. e4 *").is_none());
        assert!(as_record("Piskvorky without a size").is_none());
    }
}
