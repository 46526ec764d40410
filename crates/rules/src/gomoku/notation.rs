//! Reading and writing gomoku points, position strings and move strings.

use super::board::{Board, Stone};
use crate::core::{Cell, MAX_POSITION_TEXT, ParseMoveError, ParsePositionError, Side};

/// Longest move string [`read_points`] looks at: every point of a 19x19 board, with room to spare.
pub(crate) const MAX_MOVE_STRING: usize = MAX_POSITION_TEXT;

/// Reads one point such as `h8` or `H8` on `board`.
pub(crate) fn read_point(board: &Board, text: &str) -> Result<usize, ParseMoveError> {
    ParseMoveError::check_length(text)?;
    let cell: Cell = text.to_ascii_lowercase().parse()?;
    board.index(cell).ok_or_else(|| ParseMoveError::OffBoard { text: text.to_owned() })
}

/// Reads points written one after another (`h8i9j10`, spaces allowed between them).
pub(crate) fn read_points(board: &Board, text: &str) -> Result<Vec<usize>, ParseMoveError> {
    if text.len() > MAX_MOVE_STRING {
        return Err(ParseMoveError::TooLong { len: text.len() });
    }
    let lower = text.to_ascii_lowercase();
    let mut rest = lower.trim_start();
    let mut points = Vec::new();
    while !rest.is_empty() {
        let (cell, len) = Cell::parse_prefix(rest)
            .ok_or_else(|| ParseMoveError::syntax(rest, "points such as h8i9j10"))?;
        let point = &rest[..len];
        points.push(
            board.index(cell).ok_or_else(|| ParseMoveError::OffBoard { text: point.to_owned() })?,
        );
        rest = rest[len..].trim_start();
    }
    Ok(points)
}

/// Writes the board and side to move: rows from the top separated by `/`, `x` black, `o`
/// white, a number for each run of empty points, then `b` or `w`.
pub(crate) fn write_position(board: &Board, to_move: Side) -> String {
    let size = board.size();
    let mut text = String::with_capacity(usize::from(size) * (usize::from(size) + 1) + 2);
    for rank in (0..size).rev() {
        let mut empties = 0;
        for file in 0..size {
            let stone = board.index(Cell::new(file, rank)).map_or(Stone::Wall, |i| board.at(i));
            let letter = match stone {
                Stone::Black => 'x',
                Stone::White => 'o',
                Stone::Empty | Stone::Wall => {
                    empties += 1;
                    continue;
                }
            };
            if empties > 0 {
                text.push_str(&empties.to_string());
                empties = 0;
            }
            text.push(letter);
        }
        if empties > 0 {
            text.push_str(&empties.to_string());
        }
        text.push(if rank == 0 { ' ' } else { '/' });
    }
    text.push(if to_move == Side::First { 'b' } else { 'w' });
    text
}

/// Reads the board and side to move of a position string on a board of `size` points a side.
/// Only the shape is checked here; the stone counts are the caller's business.
pub(crate) fn read_position(size: u8, text: &str) -> Result<(Board, Side), ParsePositionError> {
    ParsePositionError::check_length(text)?;
    let fields: Vec<&str> = text.split_whitespace().collect();
    let [rows, side] = fields[..] else {
        return Err(ParsePositionError::field(
            "position",
            "expected the board and the side to move",
        ));
    };
    let to_move = match side {
        "b" | "B" => Side::First,
        "w" | "W" => Side::Second,
        _ => return Err(ParsePositionError::field("side to move", "expected b or w")),
    };
    let rows: Vec<&str> = rows.split('/').collect();
    if rows.len() != usize::from(size) {
        let detail = format!("{} rows where the board has {size}", rows.len());
        return Err(ParsePositionError::field("board", detail));
    }
    let mut board = Board::empty(size);
    for (row, rank) in rows.iter().zip((0..size).rev()) {
        read_row(&mut board, row, rank)?;
    }
    Ok((board, to_move))
}

/// Reads one row of a position string onto `rank`.
fn read_row(board: &mut Board, row: &str, rank: u8) -> Result<(), ParsePositionError> {
    let size = usize::from(board.size());
    let bad =
        |detail: &str| ParsePositionError::field("board", format!("rank {}: {detail}", rank + 1));
    let mut file = 0usize;
    let mut empties = 0usize;
    for byte in row.bytes() {
        let stone = match byte {
            b'0'..=b'9' => {
                if empties == 0 && byte == b'0' {
                    return Err(bad("a run of empty points cannot start with 0"));
                }
                empties = empties * 10 + usize::from(byte - b'0');
                if file + empties > size {
                    return Err(bad("longer than the board is wide"));
                }
                continue;
            }
            b'x' | b'X' => Stone::Black,
            b'o' | b'O' => Stone::White,
            _ => return Err(bad("expected x, o or a number of empty points")),
        };
        file += std::mem::take(&mut empties);
        let cell = u8::try_from(file).ok().map(|f| Cell::new(f, rank));
        let index = cell
            .and_then(|c| board.index(c))
            .ok_or_else(|| bad("longer than the board is wide"))?;
        board.put(index, stone);
        file += 1;
    }
    if file + empties != size {
        return Err(bad("shorter than the board is wide"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_read_in_either_case() {
        let board = Board::empty(15);
        let h8 = read_point(&board, "h8").unwrap();
        assert_eq!(Board::cell(h8), Cell::new(7, 7));
        assert_eq!(read_point(&board, "H8"), Ok(h8));
        assert_eq!(read_point(&board, "o15").map(Board::cell), Ok(Cell::new(14, 14)));
        assert_eq!(read_point(&board, "p1"), Err(ParseMoveError::OffBoard { text: "p1".into() }));
        assert_eq!(read_point(&board, "a16"), Err(ParseMoveError::OffBoard { text: "a16".into() }));
        assert_eq!(read_point(&Board::empty(19), "s19").map(Board::cell), Ok(Cell::new(18, 18)));
        for garbage in ["", "h", "8h", "h0", "h08", "h8 ", "hh8", "ä8", "h８", "-1", "a100"] {
            assert!(read_point(&board, garbage).is_err(), "{garbage:?}");
        }
        assert_eq!(
            read_point(&board, &"h8".repeat(100)),
            Err(ParseMoveError::TooLong { len: 200 })
        );
    }

    #[test]
    fn move_strings_read() {
        let board = Board::empty(15);
        let points = read_points(&board, "h8i9 J10").unwrap();
        let cells: Vec<String> = points.into_iter().map(|p| Board::cell(p).to_string()).collect();
        assert_eq!(cells, ["h8", "i9", "j10"]);
        assert_eq!(read_points(&board, ""), Ok(vec![]));
        assert!(read_points(&board, "h8i").is_err());
        assert!(read_points(&board, "h8z9").is_err());
        assert!(read_points(&board, "h8;i9").is_err());
        assert!(read_points(&board, "h8é").is_err());
        assert!(read_points(&board, &"h8".repeat(5000)).is_err());
    }

    #[test]
    fn positions_round_trip_and_refuse_bad_shapes() {
        let text = "15/15/15/15/15/15/15/7x7/6o8/15/15/15/15/15/x13o b";
        let (board, side) = read_position(15, text).unwrap();
        assert_eq!(side, Side::First);
        assert_eq!(write_position(&board, side), text);
        let bad = [
            "15/15 b",
            "15/15/15/15/15/15/15/7x7/15/15/15/15/15/15/15",
            "15/15/15/15/15/15/15/7x7/15/15/15/15/15/15/15 x",
            "15/15/15/15/15/15/15/7x8/15/15/15/15/15/15/15 b",
            "15/15/15/15/15/15/15/7x6/15/15/15/15/15/15/15 b",
            "15/15/15/15/15/15/15/7y7/15/15/15/15/15/15/15 b",
            "15/15/15/15/15/15/15/07x7/15/15/15/15/15/15/15 b",
            "15/15/15/15/15/15/15/99999999999999999999/15/15/15/15/15/15/15 b",
            "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 b",
            "15/15/15/15/15/15/15/xxxxxxxxxxxxxxxx/15/15/15/15/15/15/15 b",
            "15/15/15/15/15/15/15/7é6/15/15/15/15/15/15/15 b",
            "",
            "   ",
        ];
        for text in bad {
            assert!(read_position(15, text).is_err(), "{text:?}");
        }
        assert!(read_position(15, &"1".repeat(10_000)).is_err());
        assert!(read_position(19, "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 b").is_err());
    }
}
