//! Banqi position strings and move text (formats in the module documentation).

use std::fmt::Write as _;

use crate::core::{Cell, ParseMoveError, ParsePositionError, Side};

use super::state::Banqi;
use super::{
    BanqiMove, BanqiRules, Colour, FILES, Piece, RANKS, SQUARES, Square, cell_of, colour_of,
    index_of, on_board,
};

/// Largest no-progress count a position string may give.
const MAX_QUIET: u16 = 10_000;

impl Banqi {
    /// The game from a position string (see the module documentation).
    pub(super) fn from_position_text(
        rules: &BanqiRules,
        text: &str,
    ) -> Result<Banqi, ParsePositionError> {
        read_position(rules, text)
    }

    /// The position string of the game (see the module documentation).
    pub(super) fn position_text(&self) -> String {
        write_position(self)
    }
}

impl BanqiMove {
    /// Reads move text: `c3` (a flip), `c3-c4`, `c3xc4` or `c3c4` (a step or capture), `stop`.
    pub(super) fn parse(text: &str) -> Result<BanqiMove, ParseMoveError> {
        parse_move(text)
    }

    /// The move's text; a step that captures is written with `x` when `capture`.
    pub(super) fn text(self, capture: bool) -> String {
        move_text(self, capture)
    }
}

/// Writes the six-field position string.
fn write_position(game: &Banqi) -> String {
    let mut text = String::with_capacity(96);
    for rank in (0..RANKS).rev() {
        let mut empty = 0;
        for file in 0..FILES {
            let square = game.board[index_of(Cell::new(file, rank))];
            if square == Square::Empty {
                empty += 1;
                continue;
            }
            if empty > 0 {
                let _ = write!(text, "{empty}");
                empty = 0;
            }
            match square {
                Square::FaceUp(piece) => text.push(piece.letter()),
                Square::Hidden(piece) => {
                    text.push('*');
                    text.push(piece.letter());
                }
                Square::Unknown => text.push('?'),
                Square::Empty => {}
            }
        }
        if empty > 0 {
            let _ = write!(text, "{empty}");
        }
        if rank > 0 {
            text.push('/');
        }
    }
    let side = if game.side == Side::First { '1' } else { '2' };
    let colour = match game.first_colour {
        None => '-',
        Some(Colour::Red) => 'r',
        Some(Colour::Black) => 'b',
    };
    let _ = write!(text, " {side} {colour} {} {} ", game.quiet_plies, pool_text(game));
    match game.chain_square() {
        Some(cell) => {
            let _ = write!(text, "{cell}");
        }
        None => text.push('-'),
    }
    text
}

fn pool_text(game: &Banqi) -> String {
    let letters: String = Piece::ALL
        .iter()
        .zip(game.unknown_pool)
        .flat_map(|(piece, count)| std::iter::repeat_n(piece.letter(), usize::from(count)))
        .collect();
    if letters.is_empty() { "-".to_owned() } else { letters }
}

/// Reads a position string under `rules`.
fn read_position(rules: &BanqiRules, text: &str) -> Result<Banqi, ParsePositionError> {
    ParsePositionError::check_length(text)?;
    let fields: Vec<&str> = text.split_ascii_whitespace().collect();
    if !(4..=6).contains(&fields.len()) {
        return Err(ParsePositionError::field("fields", "expected 4 to 6 fields"));
    }
    let board = read_board(fields[0])?;
    let side = match fields[1] {
        "1" => Side::First,
        "2" => Side::Second,
        _ => return Err(ParsePositionError::field("side to move", "expected 1 or 2")),
    };
    let first_colour = match fields[2] {
        "-" => None,
        "r" => Some(Colour::Red),
        "b" => Some(Colour::Black),
        _ => return Err(ParsePositionError::field("colours", "expected r, b or -")),
    };
    let quiet = fields[3].parse::<u16>().ok().filter(|&n| n <= MAX_QUIET).ok_or_else(|| {
        ParsePositionError::field("no-progress count", format!("expected 0 to {MAX_QUIET}"))
    })?;
    let pool = read_pool(fields.get(4).copied().unwrap_or("-"))?;
    let chain = read_chain(fields.get(5).copied().unwrap_or("-"))?;
    validate(rules, &board, side, first_colour, &pool, chain)?;
    Ok(Banqi::from_parts(*rules, board, side, first_colour, quiet, pool, chain))
}

fn read_board(text: &str) -> Result<[Square; SQUARES], ParsePositionError> {
    let bad = |detail: &str| ParsePositionError::field("board", detail);
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != usize::from(RANKS) {
        return Err(bad("expected 4 ranks separated by /"));
    }
    let mut board = [Square::Empty; SQUARES];
    for (row, rank_text) in ranks.iter().enumerate() {
        let rank = RANKS - 1 - row as u8;
        let mut file = 0u8;
        let mut chars = rank_text.chars();
        while let Some(c) = chars.next() {
            let (square, width) = match c {
                '1'..='8' => (Square::Empty, c as u8 - b'0'),
                '?' => (Square::Unknown, 1),
                '*' => {
                    let piece = chars.next().and_then(Piece::from_letter);
                    (
                        Square::Hidden(
                            piece.ok_or_else(|| bad("expected a piece letter after *"))?,
                        ),
                        1,
                    )
                }
                _ => {
                    (Square::FaceUp(Piece::from_letter(c).ok_or_else(|| bad("unknown piece"))?), 1)
                }
            };
            if file + width > FILES {
                return Err(bad("a rank has more than 8 squares"));
            }
            for _ in 0..width {
                board[index_of(Cell::new(file, rank))] = square;
                file += 1;
            }
        }
        if file != FILES {
            return Err(bad("a rank has fewer than 8 squares"));
        }
    }
    Ok(board)
}

fn read_pool(text: &str) -> Result<[u8; 14], ParsePositionError> {
    let mut pool = [0u8; 14];
    if text == "-" {
        return Ok(pool);
    }
    if text.len() > SQUARES {
        return Err(ParsePositionError::field("pool", "more pieces than squares"));
    }
    for c in text.chars() {
        let piece = Piece::from_letter(c)
            .ok_or_else(|| ParsePositionError::field("pool", "expected piece letters or -"))?;
        pool[piece.index()] += 1;
    }
    Ok(pool)
}

fn read_chain(text: &str) -> Result<Option<u8>, ParsePositionError> {
    if text == "-" {
        return Ok(None);
    }
    match Cell::parse_prefix(text) {
        Some((cell, len)) if len == text.len() && on_board(cell) => Ok(Some(index_of(cell) as u8)),
        _ => Err(ParsePositionError::field("chain", "expected a square a1-h4 or -")),
    }
}

/// Checks that the parts make a position that can occur.
fn validate(
    rules: &BanqiRules,
    board: &[Square; SQUARES],
    side: Side,
    first_colour: Option<Colour>,
    pool: &[u8; 14],
    chain: Option<u8>,
) -> Result<(), ParsePositionError> {
    let mut counts = *pool;
    let mut unknown = 0usize;
    for square in board {
        match square {
            Square::FaceUp(piece) | Square::Hidden(piece) => counts[piece.index()] += 1,
            Square::Unknown => unknown += 1,
            Square::Empty => {}
        }
    }
    if let Some(piece) = Piece::ALL.iter().find(|p| counts[p.index()] > p.role.count()) {
        return Err(ParsePositionError::impossible(format!("too many {piece}")));
    }
    if unknown != pool.iter().map(|&n| usize::from(n)).sum::<usize>() {
        return Err(ParsePositionError::impossible("the pool must name one piece per ?"));
    }
    // The last capture always leaves the capturer on the board.
    if board.iter().all(|square| matches!(square, Square::Empty)) {
        return Err(ParsePositionError::impossible("the board has no pieces"));
    }
    let face_up = board.iter().any(|square| matches!(square, Square::FaceUp(_)));
    if first_colour.is_none() && (face_up || chain.is_some()) {
        return Err(ParsePositionError::impossible("face-up pieces before the first flip"));
    }
    let Some(index) = chain else { return Ok(()) };
    let chain_ok = rules.chain
        && matches!((board[usize::from(index)], first_colour),
            (Square::FaceUp(piece), Some(first)) if piece.colour == colour_of(side, first));
    if chain_ok {
        Ok(())
    } else {
        Err(ParsePositionError::impossible(format!(
            "no chain capture can go on from {}",
            cell_of(usize::from(index))
        )))
    }
}

/// Reads `c3`, `c3-c4`, `c3xc4`, `c3c4` or `stop`.
fn parse_move(text: &str) -> Result<BanqiMove, ParseMoveError> {
    ParseMoveError::check_length(text)?;
    const EXPECTED: &str = "a flip c3, a move c3-c4, a capture c3xc4 or stop";
    if text == "stop" {
        return Ok(BanqiMove::Stop);
    }
    let (from, len) =
        Cell::parse_prefix(text).ok_or_else(|| ParseMoveError::syntax(text, EXPECTED))?;
    let rest = &text[len..];
    let mv = if rest.is_empty() {
        BanqiMove::Flip(from)
    } else {
        let rest = rest.strip_prefix(['-', 'x']).unwrap_or(rest);
        match Cell::parse_prefix(rest) {
            Some((to, len)) if len == rest.len() => BanqiMove::Step { from, to },
            _ => return Err(ParseMoveError::syntax(text, EXPECTED)),
        }
    };
    let cells_on_board = match mv {
        BanqiMove::Flip(cell) => on_board(cell),
        BanqiMove::Step { from, to } => on_board(from) && on_board(to),
        BanqiMove::Stop => true,
    };
    if cells_on_board { Ok(mv) } else { Err(ParseMoveError::OffBoard { text: text.to_owned() }) }
}

/// Writes a move; a step as `c3xc4` when `capture`, else `c3-c4`.
fn move_text(mv: BanqiMove, capture: bool) -> String {
    match mv {
        BanqiMove::Flip(cell) => cell.to_string(),
        BanqiMove::Step { from, to } => format!("{from}{}{to}", if capture { 'x' } else { '-' }),
        BanqiMove::Stop => "stop".to_owned(),
    }
}
