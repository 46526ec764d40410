//! FEN, coordinate moves and WXF notation.

use super::board::{
    Board, PALACE, Piece, advisor_point, elephant_point, file_of, rank_of, relative_rank,
    soldier_point, square,
};
use super::{Xiangqi, XiangqiMove, judge};
use crate::core::{
    Cell, Game, IllegalMove, IllegalReason, MoveError, ParseMoveError, ParsePositionError,
};

/// A read FEN.
pub(crate) struct Fen {
    pub board: Board,
    pub quiet_plies: u32,
    pub move_number: u32,
}

/// Reads and validates a xiangqi FEN.
pub(crate) fn parse_fen(text: &str) -> Result<Fen, ParsePositionError> {
    ParsePositionError::check_length(text)?;
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() > 6 {
        return Err(ParsePositionError::field("position", "more than six fields"));
    }
    let mut board = read_board(fields[0])?;
    let side = match fields.get(1) {
        Some(&"w" | &"r" | &"W" | &"R") => 0,
        Some(&"b" | &"B") => 1,
        Some(other) => {
            return Err(ParsePositionError::field(
                "side to move",
                format!("{} is not w, r or b", crate::options::shorten(other)),
            ));
        }
        None => return Err(ParsePositionError::field("side to move", "missing")),
    };
    board.set_side(side);
    let number = |index: usize, name: &'static str, default: u32| match fields.get(index) {
        None => Ok(default),
        Some(text) => text.parse::<u32>().map_err(|_| {
            ParsePositionError::field(
                name,
                format!("{} is not a number", crate::options::shorten(text)),
            )
        }),
    };
    let quiet_plies = number(4, "halfmove clock", 0)?;
    let move_number = number(5, "move number", 1)?.max(1);
    validate(&board)?;
    Ok(Fen { board, quiet_plies, move_number })
}

fn read_board(text: &str) -> Result<Board, ParsePositionError> {
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != 10 {
        return Err(ParsePositionError::field(
            "board",
            format!("{} ranks instead of 10", ranks.len()),
        ));
    }
    let mut board = Board::empty();
    for (row, rank_text) in ranks.iter().enumerate() {
        let rank = 9 - row as u8;
        let mut file: u8 = 0;
        for ch in rank_text.chars() {
            if let Some(skip) = ch.to_digit(10).filter(|d| (1..=9).contains(d)) {
                file = file.saturating_add(skip as u8);
                if file > 9 {
                    break;
                }
                continue;
            }
            let piece = Piece::from_letter(ch).ok_or_else(|| {
                ParsePositionError::field("board", format!("unknown piece letter {ch:?}"))
            })?;
            if file >= 9 {
                file = 10;
                break;
            }
            let side = usize::from(ch.is_ascii_lowercase());
            if !board.put(side, piece, square(file, rank)) {
                return Err(ParsePositionError::impossible(format!(
                    "{} has more than {} {piece:?} pieces",
                    ["Red", "Black"][side],
                    piece.set_count()
                )));
            }
            file += 1;
        }
        if file != 9 {
            return Err(ParsePositionError::field(
                "board",
                format!("rank {} does not have 9 files", rank + 1),
            ));
        }
    }
    Ok(board)
}

fn validate(board: &Board) -> Result<(), ParsePositionError> {
    for side in 0..2 {
        let name = ["Red", "Black"][side];
        let general = board.general(side);
        if general == 0 {
            return Err(ParsePositionError::impossible(format!("{name} has no general")));
        }
        if !PALACE[side][general as usize] {
            return Err(ParsePositionError::impossible(format!(
                "{name}'s general is outside the palace"
            )));
        }
        for (slot, &sq) in board.slots[side].iter().enumerate().skip(1) {
            if sq == 0 {
                continue;
            }
            let (file, rank) = (file_of(sq), rank_of(sq));
            let piece = super::board::SLOT_PIECE[slot];
            let reachable = match piece {
                Piece::Advisor => advisor_point(side, file, rank),
                Piece::Elephant => elephant_point(side, file, rank),
                Piece::Soldier => soldier_point(side, file, rank),
                _ => true,
            };
            if !reachable {
                return Err(ParsePositionError::impossible(format!(
                    "{name}'s {piece:?} on {} is on a point it cannot reach",
                    Cell::new(file, rank)
                )));
            }
        }
    }
    let waiting = board.us ^ 1;
    if board.attacked(waiting, board.general(waiting)) {
        return Err(ParsePositionError::impossible("the side not to move is in check"));
    }
    Ok(())
}

/// Writes the FEN of a board.
pub(crate) fn write_fen(board: &Board, quiet_plies: u32, move_number: u32) -> String {
    let mut out = String::with_capacity(90);
    for rank in (0..10u8).rev() {
        let mut empty = 0;
        for file in 0..9u8 {
            match board.piece_at(square(file, rank)) {
                None => empty += 1,
                Some((side, piece)) => {
                    if empty > 0 {
                        out.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    let letter = piece.fen_letter();
                    out.push(if side == 0 { letter.to_ascii_uppercase() } else { letter });
                }
            }
        }
        if empty > 0 {
            out.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            out.push('/');
        }
    }
    let side = if board.us == 0 { 'w' } else { 'b' };
    format!("{out} {side} - - {quiet_plies} {move_number}")
}

/// Reads a coordinate move such as `h3e3` or `h10g8`.
pub(crate) fn parse_coordinates(text: &str) -> Result<XiangqiMove, ParseMoveError> {
    ParseMoveError::check_length(text)?;
    const EXPECTED: &str = "a move such as h3e3";
    let (from, len) =
        Cell::parse_prefix(text).ok_or_else(|| ParseMoveError::syntax(text, EXPECTED))?;
    let rest = text.get(len..).ok_or_else(|| ParseMoveError::syntax(text, EXPECTED))?;
    let (to, len2) =
        Cell::parse_prefix(rest).ok_or_else(|| ParseMoveError::syntax(text, EXPECTED))?;
    if len2 != rest.len() {
        return Err(ParseMoveError::syntax(text, EXPECTED));
    }
    XiangqiMove::new(from, to).ok_or_else(|| ParseMoveError::OffBoard { text: text.to_owned() })
}

/// A file number 1-9 counted from `side`'s own right.
fn wxf_file(side: usize, file: u8) -> u8 {
    if side == 0 { 9 - file } else { file + 1 }
}

/// Writes a move in WXF notation.
pub(crate) fn wxf(board: &Board, from: u8, to: u8) -> String {
    let Some((side, piece)) = board.piece_at(from) else {
        return format!("{}{}", super::board::square_cell(from), super::board::square_cell(to));
    };
    let mut out = designation(board, side, piece, from);
    let forward_steps =
        i32::from(relative_rank(side, rank_of(to))) - i32::from(relative_rank(side, rank_of(from)));
    let op = match forward_steps {
        0 => '=',
        n if n > 0 => '+',
        _ => '-',
    };
    out.push(op);
    let straight =
        matches!(piece, Piece::General | Piece::Chariot | Piece::Cannon | Piece::Soldier);
    let digit = if straight && forward_steps != 0 {
        forward_steps.unsigned_abs() as u8
    } else {
        wxf_file(side, file_of(to))
    };
    out.push(char::from(b'0' + digit));
    out
}

/// The first two characters: which piece moves.
fn designation(board: &Board, side: usize, piece: Piece, from: u8) -> String {
    let letter = piece.wxf_letter();
    let file = file_of(from);
    let digit = char::from(b'0' + wxf_file(side, file));
    if matches!(piece, Piece::General | Piece::Advisor | Piece::Elephant) {
        return format!("{letter}{digit}");
    }
    let on_file = |f: u8| -> Vec<u8> {
        let mut squares: Vec<u8> =
            pieces_of(board, side, piece).filter(|&sq| file_of(sq) == f).collect();
        // Front first: nearest the enemy.
        front_first(side, &mut squares);
        squares
    };
    let tandem = on_file(file);
    let index = tandem.iter().position(|&sq| sq == from).unwrap_or(0);
    let count = tandem.len();
    if count < 2 {
        return format!("{letter}{digit}");
    }
    if piece == Piece::Soldier {
        let crowded_files = (0..9).filter(|&f| on_file(f).len() >= 2).count();
        if crowded_files >= 2 {
            let mark = match index {
                0 => '+',
                i if i + 1 == count => '-',
                _ => digit,
            };
            return format!("{digit}{mark}");
        }
        let marks: &[&str] = match count {
            2 => &["+P", "-P"],
            3 => &["+P", "P", "-P"],
            4 => &["++", "+P", "-P", "--"],
            _ => &["++", "+P", "P", "-P", "--"],
        };
        let mark = marks.get(index).copied().unwrap_or("P");
        return if mark == "P" { format!("P{digit}") } else { mark.to_owned() };
    }
    let sign = if index == 0 { '+' } else { '-' };
    format!("{sign}{letter}")
}

/// Orders `squares` (a side's few pieces of one kind) front first, nearest the enemy. By hand,
/// not with `sort`: this runs in the browser's page, where every sort's code is downloaded.
pub(crate) fn front_first(side: usize, squares: &mut [u8]) {
    let key = |sq: u8| relative_rank(side, rank_of(sq));
    for i in 1..squares.len() {
        let mut j = i;
        while j > 0 && key(squares[j - 1]) < key(squares[j]) {
            squares.swap(j - 1, j);
            j -= 1;
        }
    }
}

pub(crate) fn pieces_of(board: &Board, side: usize, piece: Piece) -> impl Iterator<Item = u8> + '_ {
    let first = piece.first_slot();
    board.slots[side][first..first + piece.set_count()].iter().copied().filter(|&sq| sq != 0)
}

/// Puts WXF text into the form `move_notation` writes: uppercase, `=` for `.`, `H`/`E` letters,
/// and a front/rear sign before the letter.
fn normalize_wxf(text: &str) -> Option<[u8; 4]> {
    let bytes = text.trim().as_bytes();
    let [a, b, c, d] = <[u8; 4]>::try_from(bytes).ok()?;
    let fix = |ch: u8| match ch.to_ascii_uppercase() {
        b'.' => b'=',
        b'N' => b'H',
        b'B' => b'E',
        other => other,
    };
    let mut out = [fix(a), fix(b), fix(c), fix(d)];
    let is_letter = |ch: u8| b"KAEHRCP".contains(&ch);
    if is_letter(out[0]) && matches!(out[1], b'+' | b'-') {
        out.swap(0, 1);
    }
    let valid_first = is_letter(out[0]) || matches!(out[0], b'+' | b'-' | b'1'..=b'9');
    let valid_second = is_letter(out[1]) || matches!(out[1], b'+' | b'-' | b'1'..=b'9');
    let valid = valid_first
        && valid_second
        && matches!(out[2], b'+' | b'-' | b'=')
        && matches!(out[3], b'1'..=b'9');
    valid.then_some(out)
}

/// Reads a WXF move and judges it.
pub(crate) fn read_wxf(game: &Xiangqi, text: &str) -> Result<XiangqiMove, MoveError> {
    let Some(wanted) = normalize_wxf(text) else {
        return Err(
            ParseMoveError::syntax(text, "coordinates such as h3e3 or WXF such as C2=5").into()
        );
    };
    let moves = game.moves_ignoring_outcome();
    for &(from, to) in moves.as_slice() {
        if wxf(&game.board, from, to).as_bytes() == wanted {
            let mv = XiangqiMove { from, to };
            game.check(mv)?;
            return Ok(mv);
        }
    }
    if game.outcome().is_some() {
        return Err(IllegalMove::new(IllegalReason::GameOver, text).into());
    }
    match explain_wxf(&game.board, wanted) {
        // A legal move written in a form other than ours (a file digit where we write `+`/`-`).
        Ok((from, to)) => Ok(XiangqiMove { from, to }),
        Err(reason) => Err(IllegalMove::new(reason, text).into()),
    }
}

/// The best reason a WXF move that names no legal move is illegal, or the legal move it names
/// in a form `move_notation` does not write.
fn explain_wxf(board: &Board, wanted: [u8; 4]) -> Result<(u8, u8), IllegalReason> {
    let side = board.us;
    let Some(piece) = Piece::ALL
        .into_iter()
        .find(|p| p.wxf_letter() as u8 == wanted[0] || p.wxf_letter() as u8 == wanted[1])
    else {
        return Err(IllegalReason::NoPieceThere);
    };
    let mut candidates: Vec<u8> = pieces_of(board, side, piece).collect();
    front_first(side, &mut candidates);
    match wanted[..2] {
        [b'+', _] | [b'-', _] => {
            let tandem: Vec<u8> = candidates
                .iter()
                .copied()
                .filter(|&a| candidates.iter().filter(|&&b| file_of(b) == file_of(a)).count() >= 2)
                .collect();
            candidates = if wanted[0] == b'+' { tandem.first() } else { tandem.last() }
                .into_iter()
                .copied()
                .collect();
        }
        [_, digit @ b'1'..=b'9'] => {
            candidates.retain(|&sq| wxf_file(side, file_of(sq)) == digit - b'0')
        }
        _ => candidates.clear(),
    }
    let mut legal = Vec::new();
    let mut best = IllegalReason::NoPieceThere;
    for from in candidates {
        let reason = match wxf_target(side, piece, from, wanted[2], wanted[3] - b'0') {
            None => IllegalReason::WrongMovement,
            Some(None) => IllegalReason::OffBoard,
            Some(Some(to)) => match judge::illegal_reason(board, from, to) {
                None => {
                    legal.push((from, to));
                    continue;
                }
                Some(reason) => reason,
            },
        };
        if specificity(reason) > specificity(best) {
            best = reason;
        }
    }
    match legal.as_slice() {
        [only] => Ok(*only),
        [] => Err(best),
        // Two like pieces on one file fit the file-digit form: `+`/`-` must say which.
        _ => Err(IllegalReason::Ambiguous),
    }
}

/// How telling a reason is, when several pieces could have been meant: a rule the move breaks
/// says more than "no such piece" or "not that shape".
fn specificity(reason: IllegalReason) -> u8 {
    match reason {
        IllegalReason::NoPieceThere => 0,
        IllegalReason::WrongMovement => 1,
        IllegalReason::OffBoard => 2,
        _ => 3,
    }
}

/// The destination a WXF operation names: `None` if the shape is impossible, `Some(None)` if it
/// leaves the board.
fn wxf_target(side: usize, piece: Piece, from: u8, op: u8, digit: u8) -> Option<Option<u8>> {
    let file = i32::from(file_of(from));
    let rank = i32::from(rank_of(from));
    let forward = if side == 0 { 1 } else { -1 };
    let target_file = if side == 0 { 9 - i32::from(digit) } else { i32::from(digit) - 1 };
    let sign = match op {
        b'+' => forward,
        b'-' => -forward,
        _ => 0,
    };
    let straight =
        matches!(piece, Piece::General | Piece::Chariot | Piece::Cannon | Piece::Soldier);
    let (f, r) = if straight {
        if sign == 0 { (target_file, rank) } else { (file, rank + sign * i32::from(digit)) }
    } else {
        let df = (target_file - file).abs();
        let dr = match (piece, df) {
            (Piece::Horse, 1) => 2,
            (Piece::Horse, 2) | (Piece::Advisor, 1) => 1,
            (Piece::Elephant, 2) => 2,
            _ => return None,
        };
        if sign == 0 {
            return None;
        }
        (target_file, rank + sign * dr)
    };
    let on_board = (0..9).contains(&f) && (0..10).contains(&r);
    Some(on_board.then(|| square(f as u8, r as u8)))
}
