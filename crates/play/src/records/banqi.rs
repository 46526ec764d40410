//! Banqi records: the deal in the `FEN` tag, each flip annotated with the piece it turned up
//! (`c3=R`), and the checks of those annotations on import. The format is documented in the
//! module docs of [`records`](super).

use qi_rules::any::{AnyGame, StartFrom};
use qi_rules::banqi::{Banqi, BanqiMove, Piece, Square};
use qi_rules::{Cell, Game, GameKind, MoveError, ParseMoveError};

use super::dialect::Dialect;
use super::error::{Pos, RecordError, RecordErrorKind};
use super::reader::Reader;
use crate::record::{GameRecord, Start};

/// The start with the deal unknown: every square face down and unknown, the whole set in the
/// pool.
const UNKNOWN_DEAL: &str =
    "????????/????????/????????/???????? 1 - 0 KAABBRRNNCCPPPPPkaabbrrnnccppppp -";

/// The square whose face-down piece `mv` would turn up, if any.
fn revealed_square(game: &Banqi, mv: BanqiMove) -> Option<Cell> {
    let cell = match mv {
        BanqiMove::Flip(cell) | BanqiMove::Step { to: cell, .. } => cell,
        BanqiMove::Stop => return None,
    };
    game.square(cell).is_face_down().then_some(cell)
}

/// What went wrong with an annotated move.
enum Problem {
    Move(MoveError),
    Mismatch { cell: Cell, dealt: Piece },
    NothingRevealed,
}

/// Plays the move `text`, which the annotation says turns up `piece`. Returns its coordinates,
/// and the square it revealed when the deal did not know it.
fn play_annotated(
    game: &mut Banqi,
    text: &str,
    piece: Piece,
) -> Result<(String, Option<Cell>), Problem> {
    let mv = game.parse_move(text).map_err(|e| Problem::Move(e.into()))?;
    game.check(mv).map_err(|e| Problem::Move(e.into()))?;
    let coordinates = game.move_text(mv);
    let Some(cell) = revealed_square(game, mv) else { return Err(Problem::NothingRevealed) };
    let learned = match game.square(cell) {
        Square::Hidden(dealt) if dealt != piece => return Err(Problem::Mismatch { cell, dealt }),
        Square::Hidden(_) => game.apply(mv).map(|()| None),
        _ => game.apply_revealing(mv, piece).map(|()| Some(cell)),
    };
    learned.map(|learned| (coordinates, learned)).map_err(|e| Problem::Move(e.into()))
}

/// Banqi records: moves in coordinates, each flip annotated with the piece it turned up.
#[derive(Default)]
pub(crate) struct BanqiDialect {
    /// The pieces that moves revealed on squares unknown at the start, in the line being read.
    learned: Vec<(Cell, Piece)>,
    /// How many were learned where each open variation began: a variation's flips are not the
    /// game's deal.
    variations: Vec<usize>,
}

impl Dialect for BanqiDialect {
    /// Plays one move word: `c3`, `c3=R`, `c3-c4`, `c3xc4`, `c3xc6=p`, `stop`.
    fn read_word(&mut self, reader: &mut Reader, pos: Pos, word: &str) -> Result<(), RecordError> {
        let Some((text, annotation)) = word.split_once('=') else {
            return reader.play(pos, word, word);
        };
        let mut letters = annotation.chars();
        let piece = match (letters.next(), letters.next()) {
            (Some(letter), None) => Piece::from_letter(letter),
            _ => None,
        };
        let Some(piece) = piece else {
            let expected = "a flip such as c3=R: a square, = and a piece letter (KABRNCP, kabrncp)";
            let error = MoveError::Parse(ParseMoveError::syntax(word, expected));
            return Err(reader.move_error(pos, word, error));
        };
        let (number, side) = reader.next_number();
        let AnyGame::Banqi(game) = &mut reader.game else { return reader.play(pos, word, word) };
        let played = play_annotated(game, text, piece);
        let ply = reader.moves.len();
        match played {
            Ok((coordinates, learned)) => {
                self.learned.extend(learned.map(|cell| (cell, piece)));
                reader.record_move(number, side, coordinates);
                Ok(())
            }
            Err(Problem::Move(error)) => Err(reader.move_error(pos, word, error)),
            Err(Problem::Mismatch { cell, dealt }) => {
                let kind = RecordErrorKind::FlipMismatch {
                    ply,
                    number,
                    side,
                    cell,
                    written: piece,
                    dealt,
                };
                Err(RecordError::at(pos, kind))
            }
            Err(Problem::NothingRevealed) => {
                let text = qi_rules::options::shorten(word);
                let kind = RecordErrorKind::NothingRevealed { ply, number, side, text };
                Err(RecordError::at(pos, kind))
            }
        }
    }

    fn enter_variation(&mut self) {
        self.variations.push(self.learned.len());
    }

    fn leave_variation(&mut self) {
        if let Some(len) = self.variations.pop() {
            self.learned.truncate(len);
        }
    }

    /// A record without a deal starts with every square unknown; the flips tell the rest.
    fn default_start(&self, _rules: &str) -> Start {
        Start::Position(UNKNOWN_DEAL.to_owned())
    }

    fn finish_start(&self, start: Start, rules: &str) -> Start {
        start_with(&start, &self.learned, rules)
    }

    fn describing_tags(&self, _record: &GameRecord, start: &AnyGame) -> Vec<(String, String)> {
        vec![
            ("Variant".to_owned(), GameKind::Banqi.name().to_owned()),
            ("FEN".to_owned(), start.position()),
            ("Rules".to_owned(), start.rules_list()),
        ]
    }

    fn after_move(&self, before: &AnyGame, coordinates: &str) -> String {
        revealed_by(before, coordinates)
    }
}

/// The annotation `=X` of the piece the move `text` turns up in `game`, or nothing.
fn revealed_by(game: &AnyGame, text: &str) -> String {
    let AnyGame::Banqi(game) = game else { return String::new() };
    let Some(cell) = game.parse_move(text).ok().and_then(|mv| revealed_square(game, mv)) else {
        return String::new();
    };
    match game.square(cell) {
        Square::Hidden(piece) => format!("={}", piece.letter()),
        _ => String::new(),
    }
}

/// `start` with the pieces `learned` on squares it had unknown (`?`) written in (`*X`), taken
/// out of its pool.
fn start_with(start: &Start, learned: &[(Cell, Piece)], rules: &str) -> Start {
    let Start::Position(text) = start else { return start.clone() };
    if learned.is_empty() {
        return start.clone();
    }
    let Some(filled) = fill_in(text, learned) else { return start.clone() };
    match AnyGame::new(GameKind::Banqi.name(), rules, &StartFrom::Position(&filled)) {
        Ok(game) => Start::Position(game.position()),
        Err(_) => start.clone(),
    }
}

fn fill_in(text: &str, learned: &[(Cell, Piece)]) -> Option<String> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    let mut squares: Vec<String> = Vec::with_capacity(32);
    for rank in fields.first()?.split('/') {
        let mut chars = rank.chars();
        while let Some(c) = chars.next() {
            match c {
                '1'..='8' => squares.extend((b'1'..=c as u8).map(|_| String::new())),
                '*' => squares.push(format!("*{}", chars.next()?)),
                c => squares.push(c.to_string()),
            }
        }
    }
    if squares.len() != 32 {
        return None;
    }
    let mut pool: Vec<Piece> =
        fields.get(4).copied().unwrap_or("-").chars().filter_map(Piece::from_letter).collect();
    for &(cell, piece) in learned {
        let index = (3usize.checked_sub(usize::from(cell.rank))?) * 8 + usize::from(cell.file);
        let square = squares.get_mut(index)?;
        if square == "?" {
            *square = format!("*{}", piece.letter());
            let at = pool.iter().position(|&p| p == piece)?;
            pool.remove(at);
        }
    }
    let mut board = String::new();
    for (row, rank) in squares.chunks(8).enumerate() {
        if row > 0 {
            board.push('/');
        }
        let mut empty = 0;
        for square in rank {
            if square.is_empty() {
                empty += 1;
                continue;
            }
            if empty > 0 {
                board.push_str(&empty.to_string());
                empty = 0;
            }
            board.push_str(square);
        }
        if empty > 0 {
            board.push_str(&empty.to_string());
        }
    }
    pool.sort_by_key(|piece| piece.index());
    let pool: String = pool.iter().map(|piece| piece.letter()).collect();
    let pool = if pool.is_empty() { "-".to_owned() } else { pool };
    let middle = fields.get(1..4)?.join(" ");
    let chain = fields.get(5).copied().unwrap_or("-");
    Some(format!("{board} {middle} {pool} {chain}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn learned_pieces_fill_the_unknown_deal() {
        let learned = [(Cell::new(0, 3), Piece::from_letter('R').unwrap())];
        let start = start_with(&Start::Position(UNKNOWN_DEAL.into()), &learned, "");
        assert_eq!(
            start,
            Start::Position(
                "*R???????/????????/????????/???????? 1 - 0 KAABBRNNCCPPPPPkaabbrrnnccppppp -"
                    .into()
            )
        );
    }
}
