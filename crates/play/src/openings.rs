//! Opening names: which named opening a game is in, for chess (the ECO code and name, from
//! lichess's public-domain table, `data/chess-openings.tsv`) and xiangqi (the common openings
//! and defences in English, 简体中文 and Tiếng Việt, `data/xiangqi-openings.tsv`).
//!
//! A book maps positions, not move orders, to names: a game that reaches a named position by
//! another order (a transposition) gets its name, as on lichess. Each table line is replayed
//! from the standard start and its last position takes the line's name; when two lines end in
//! the same position the first keeps it (the tables list the more general name first). Xiangqi
//! openings are symmetric (炮二平五 and 炮八平五 are both 中炮), so each line is entered with its
//! mirror image too. A game's opening is the deepest named position along its main line.
//!
//! The tables are compiled in only where [`chess`] and [`xiangqi`] are called: the Web Worker,
//! not the page.

use std::collections::HashMap;
use std::sync::OnceLock;

use qi_rules::GameKind;
use qi_rules::any::{AnyGame, StartFrom};

/// A named opening.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The ECO code (chess, `C60`); empty for xiangqi.
    pub code: String,
    /// The name in English.
    pub name: String,
    /// The name in 简体中文 (xiangqi).
    pub name_zh: Option<String>,
    /// The name in Tiếng Việt (xiangqi).
    pub name_vi: Option<String>,
}

/// A table line that could not be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookError {
    /// Its line number, from 1.
    pub line: usize,
    /// What was wrong.
    pub reason: String,
}

impl std::fmt::Display for BookError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.reason)
    }
}

impl std::error::Error for BookError {}

/// The named positions of one game.
#[derive(Clone, Debug, Default)]
pub struct OpeningBook {
    kind: Option<GameKind>,
    openings: Vec<Opening>,
    /// Position hash → index in `openings`.
    positions: HashMap<u64, usize>,
    /// The longest line, in plies: no named position lies deeper.
    deepest: usize,
}

/// The standard start of `kind`.
fn standard_start(kind: GameKind) -> Option<AnyGame> {
    AnyGame::new(kind.name(), "", &StartFrom::Start { seed: 0 }).ok()
}

/// A xiangqi move seen in a mirror: files a↔i, ranks kept (`h3e3` → `b3e3`).
fn mirrored(text: &str) -> String {
    text.chars()
        .map(|c| if ('a'..='i').contains(&c) { char::from(b'a' + (b'i' - c as u8)) } else { c })
        .collect()
}

impl OpeningBook {
    /// Reads a table of `kind` (see the module docs for its two forms; `#` lines are comments).
    ///
    /// # Errors
    /// The first line that does not read or whose moves do not replay from the start.
    pub fn parse(kind: GameKind, text: &str) -> Result<OpeningBook, BookError> {
        let start = standard_start(kind).ok_or(BookError {
            line: 0,
            reason: format!("{} has no standard start", kind.name()),
        })?;
        let mut book = OpeningBook { kind: Some(kind), ..OpeningBook::default() };
        for (index, line) in text.lines().enumerate() {
            let number = index + 1;
            let error = |reason: String| BookError { line: number, reason };
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let fields: Vec<&str> = line.split('\t').collect();
            let (opening, moves) = match (kind, fields.as_slice()) {
                (GameKind::Chess, [code, name, moves]) => (
                    Opening {
                        code: (*code).to_owned(),
                        name: (*name).to_owned(),
                        name_zh: None,
                        name_vi: None,
                    },
                    *moves,
                ),
                (GameKind::Xiangqi, [name, zh, vi, moves]) => (
                    Opening {
                        code: String::new(),
                        name: (*name).to_owned(),
                        name_zh: Some((*zh).to_owned()),
                        name_vi: Some((*vi).to_owned()),
                    },
                    *moves,
                ),
                _ => {
                    return Err(error(format!(
                        "expected {} tab-separated fields",
                        match kind {
                            GameKind::Chess => "3 (code, name, moves)",
                            _ => "4 (English, 简体中文, Tiếng Việt, moves)",
                        }
                    )));
                }
            };
            let moves: Vec<&str> = moves.split_whitespace().collect();
            if moves.is_empty() {
                return Err(error("no moves".to_owned()));
            }
            let at = book.openings.len();
            book.openings.push(opening);
            let mut lines = vec![moves.iter().map(|m| (*m).to_owned()).collect::<Vec<_>>()];
            if kind == GameKind::Xiangqi {
                lines.push(moves.iter().map(|m| mirrored(m)).collect());
            }
            for line in lines {
                let mut game = start.clone();
                for text in &line {
                    game.play(text).map_err(|e| error(format!("{text}: {e}")))?;
                }
                book.positions.entry(game.hash()).or_insert(at);
                book.deepest = book.deepest.max(line.len());
            }
        }
        Ok(book)
    }

    /// How many openings it names.
    #[must_use]
    pub fn len(&self) -> usize {
        self.openings.len()
    }

    /// Whether it names none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.openings.is_empty()
    }

    /// The opening of a game that starts at `start` and goes on with `moves` (coordinates): the
    /// deepest named position along them, with the number of moves that reach it. `None` when
    /// no position is named, or the game does not start from the standard position.
    #[must_use]
    pub fn identify(&self, start: &AnyGame, moves: &[String]) -> Option<(usize, &Opening)> {
        let kind = self.kind?;
        if start.kind() != kind || standard_start(kind)?.hash() != start.hash() {
            return None;
        }
        let mut game = start.clone();
        let mut found = None;
        for (ply, text) in moves.iter().take(self.deepest).enumerate() {
            if game.play(text).is_err() {
                break;
            }
            if let Some(&at) = self.positions.get(&game.hash()) {
                found = Some((ply + 1, &self.openings[at]));
            }
        }
        found
    }
}

/// The chess book (lichess's ECO table), read once.
///
/// # Panics
/// Never with the table compiled in (a test reads it).
#[must_use]
pub fn chess() -> &'static OpeningBook {
    static BOOK: OnceLock<OpeningBook> = OnceLock::new();
    BOOK.get_or_init(|| {
        OpeningBook::parse(GameKind::Chess, include_str!("../data/chess-openings.tsv"))
            .expect("the chess openings table reads")
    })
}

/// The xiangqi book, read once.
///
/// # Panics
/// Never with the table compiled in (a test reads it).
#[must_use]
pub fn xiangqi() -> &'static OpeningBook {
    static BOOK: OnceLock<OpeningBook> = OnceLock::new();
    BOOK.get_or_init(|| {
        OpeningBook::parse(GameKind::Xiangqi, include_str!("../data/xiangqi-openings.tsv"))
            .expect("the xiangqi openings table reads")
    })
}

/// The book of `kind`, for the games that have one.
#[must_use]
pub fn book_for(kind: GameKind) -> Option<&'static OpeningBook> {
    match kind {
        GameKind::Chess => Some(chess()),
        GameKind::Xiangqi => Some(xiangqi()),
        GameKind::Gomoku | GameKind::Banqi => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_owned).collect()
    }

    fn named(kind: GameKind, moves: &str) -> Option<(usize, Opening)> {
        let start = standard_start(kind).unwrap();
        book_for(kind)?.identify(&start, &line(moves)).map(|(ply, o)| (ply, o.clone()))
    }

    #[test]
    fn both_tables_replay_in_full() {
        // Every line is legal (parse replays them all) and none is lost.
        assert!(chess().len() > 3000, "{}", chess().len());
        assert_eq!(xiangqi().len(), 38);
    }

    #[test]
    fn chess_openings_by_position_with_transpositions() {
        let (ply, ruy) = named(GameKind::Chess, "e2e4 e7e5 g1f3 b8c6 f1b5").unwrap();
        assert_eq!((ply, ruy.code.as_str(), ruy.name.as_str()), (5, "C60", "Ruy Lopez"));
        // Out of book, the last named position stays the game's opening.
        let (ply, later) =
            named(GameKind::Chess, "e2e4 e7e5 g1f3 b8c6 f1b5 h7h6 h2h3 h6h5").unwrap();
        assert!(ply >= 5 && later.name.starts_with("Ruy Lopez"), "{later:?}");
        // The same position by two move orders has one name.
        let one = named(GameKind::Chess, "g1f3 d7d5 d2d4").unwrap();
        let other = named(GameKind::Chess, "d2d4 d7d5 g1f3").unwrap();
        assert_eq!(one.1, other.1);
        assert_eq!(one.1.code, "D02");
        assert_eq!(named(GameKind::Chess, ""), None);
    }

    #[test]
    fn xiangqi_openings_either_side_and_their_defences() {
        let (_, right) = named(GameKind::Xiangqi, "h3e3").unwrap();
        let (_, left) = named(GameKind::Xiangqi, "b3e3").unwrap();
        assert_eq!(right.name_zh.as_deref(), Some("中炮"));
        assert_eq!(left, right, "炮八平五 is 中炮 as well");
        let (ply, screen) = named(GameKind::Xiangqi, "h3e3 h10g8 h1g3 b10c8 a1a2").unwrap();
        assert_eq!(ply, 4);
        assert_eq!(screen.name_zh.as_deref(), Some("中炮对屏风马"));
        let (_, same) = named(GameKind::Xiangqi, "h3e3 h8e8").unwrap();
        assert_eq!(same.name, "Same Direction Cannons");
        assert_eq!(same.name_vi.as_deref(), Some("Thuận pháo"));
        assert_eq!(named(GameKind::Gomoku, "h8"), None);
    }

    #[test]
    fn a_non_standard_start_has_no_opening() {
        let start =
            AnyGame::new("chess", "", &StartFrom::Position("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"))
                .unwrap();
        assert_eq!(chess().identify(&start, &line("e2e4")), None);
    }

    #[test]
    fn a_bad_table_line_is_named() {
        let bad = OpeningBook::parse(GameKind::Chess, "# fine\nA00\tOne\te2e4\nB00\tTwo\te2e5\n");
        let error = bad.unwrap_err();
        assert_eq!(error.line, 3);
        assert!(error.reason.starts_with("e2e5"), "{error}");
        let short = OpeningBook::parse(GameKind::Xiangqi, "中炮\th3e3\n").unwrap_err();
        assert_eq!(short.line, 1);
        assert!(short.to_string().contains("4 (English"), "{short}");
    }
}
