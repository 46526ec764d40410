//! Opening names: which named opening a game is in, for chess (the ECO code and name, from
//! lichess's public-domain table) and xiangqi (the common openings and defences with their
//! xqbase.com ECCO codes, in English, 简体中文 and Tiếng Việt).
//!
//! The tables, in `data/`, are text, one opening a line; blank lines and lines starting with `#`
//! are comments:
//! - `chess-openings.tsv`: `eco<TAB>name<TAB>moves`, made from lichess-org/chess-openings by
//!   `scripts/openings-chess.py`;
//! - `xiangqi-openings.tsv`: `code<TAB>English<TAB>简体中文<TAB>Tiếng Việt<TAB>moves`, written
//!   for Qi; a code of `-` means none.
//!
//! The moves are coordinates, as [`AnyGame::play`] reads them.
//!
//! A book maps positions, not move orders, to names, so a game that reaches a named position by
//! another order (a transposition) gets its name, as on lichess. Each line is replayed from the
//! standard start and the position after its last move takes the line's name. The position's
//! key is [`AnyGame::hash`]: a Zobrist hash of the pieces, the side to move and, in chess, the
//! castling rights and a legal en passant file. Move counters are not in it, so it tells
//! positions apart the way lichess's EPD does.
//!
//! When several lines reach one position, the first keeps it. Lichess's table has one line a
//! position (a test checks that every line names its own position), so the rule only matters
//! for hand-written xiangqi lines, where it lets the table's order decide. Xiangqi openings are
//! symmetric (炮二平五 and 炮八平五 are both 中炮): each line's mirror image (files a↔i) names
//! its position too, but only after every line as written has been entered, so a line always
//! names the position it lists.
//!
//! A game's opening is the deepest named position along its moves; the start itself names none.
//! The tables are compiled in only where [`chess`] and [`xiangqi`] are called (the Web Worker),
//! so a binary that never asks for a name (the page) does not carry them.

use std::collections::HashMap;
use std::fmt;
use std::sync::OnceLock;

use qi_rules::GameKind;
use qi_rules::any::{AnyGame, StartFrom};
use qi_rules::options::shorten;

/// A named opening.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// Its code: the ECO code in chess (`C60`), the ECCO code in xiangqi (`C00`); empty when
    /// the table gives none.
    pub code: String,
    /// The name in English.
    pub name: String,
    /// The name in 简体中文 (xiangqi; chess openings have none).
    pub name_zh: Option<String>,
    /// The name in Tiếng Việt (xiangqi; chess openings have none).
    pub name_vi: Option<String>,
}

/// Why a table could not be read: the first line that failed and what was wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookError {
    /// The line's number, from 1; 0 when the fault is not in a line (a game without a book).
    pub line: usize,
    /// What was wrong.
    pub reason: String,
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            f.write_str(&self.reason)
        } else {
            write!(f, "line {}: {}", self.line, self.reason)
        }
    }
}

impl std::error::Error for BookError {}

/// The named positions of one game.
#[derive(Clone, Debug)]
pub struct OpeningBook {
    kind: GameKind,
    /// The standard start's key: a game from anywhere else is not in the book.
    start: u64,
    /// The openings in the table's order.
    openings: Vec<Opening>,
    /// Position key → index in `openings`.
    positions: HashMap<u64, usize>,
    /// The longest line, in plies: no named position lies deeper, so a game is replayed no
    /// further.
    deepest: usize,
}

/// The standard start of `kind` (seed 0: for chess that is the standard position, not a
/// Chess960 one).
fn standard_start(kind: GameKind) -> Option<AnyGame> {
    AnyGame::new(kind.name(), "", &StartFrom::Start { seed: 0 }).ok()
}

/// A xiangqi move seen in a mirror: files a↔i, ranks kept (`h3e3` → `b3e3`).
fn mirrored(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            'a'..='i' => char::from(b'a' + (b'i' - c as u8)),
            _ => c,
        })
        .collect()
}

/// One table line read into its opening and its moves.
fn read_line(kind: GameKind, line: &str) -> Result<(Opening, Vec<&str>), String> {
    let fields: Vec<&str> = line.split('\t').map(str::trim).collect();
    let (opening, moves) = match (kind, fields.as_slice()) {
        (GameKind::Chess, &[code, name, moves]) => (
            Opening { code: code.to_owned(), name: name.to_owned(), name_zh: None, name_vi: None },
            moves,
        ),
        (GameKind::Xiangqi, &[code, name, zh, vi, moves]) => {
            let nonempty = |text: &str| (!text.is_empty()).then(|| text.to_owned());
            (
                Opening {
                    // `-` rather than an empty field, so a missing code is visibly meant.
                    code: if code == "-" { String::new() } else { code.to_owned() },
                    name: name.to_owned(),
                    name_zh: nonempty(zh),
                    name_vi: nonempty(vi),
                },
                moves,
            )
        }
        (GameKind::Chess, _) => {
            return Err(format!(
                "expected 3 tab-separated fields (code, name, moves), found {}",
                fields.len()
            ));
        }
        _ => {
            return Err(format!(
                "expected 5 tab-separated fields (code, English, 简体中文, Tiếng Việt, moves), \
                 found {}",
                fields.len()
            ));
        }
    };
    if opening.code.is_empty() && kind == GameKind::Chess {
        return Err("no ECO code".to_owned());
    }
    if opening.name.is_empty() {
        return Err("no name".to_owned());
    }
    let moves: Vec<&str> = moves.split_whitespace().collect();
    if moves.is_empty() {
        return Err("no moves".to_owned());
    }
    Ok((opening, moves))
}

/// The key of the position after `moves` from `start`, or the first move that does not play
/// (its number from 1, its text, why).
fn replay(start: &AnyGame, moves: &[String]) -> Result<u64, String> {
    let mut game = start.clone();
    for (index, text) in moves.iter().enumerate() {
        // The text may be anything: it is cut short in the message.
        game.play(text).map_err(|e| format!("move {} {}: {e}", index + 1, shorten(text)))?;
    }
    Ok(game.hash())
}

impl OpeningBook {
    /// Reads a table of `kind` (chess or xiangqi; see the module docs for the two forms),
    /// replaying every line from the standard start.
    ///
    /// The text may come from anywhere: a line that does not read or whose moves do not replay
    /// is an error, never a panic.
    ///
    /// # Errors
    /// The first line that does not read, with its number and what was wrong; line 0 for a game
    /// that has no openings (gomoku, banqi).
    pub fn parse(kind: GameKind, text: &str) -> Result<OpeningBook, BookError> {
        let whole = |reason: String| BookError { line: 0, reason };
        if !matches!(kind, GameKind::Chess | GameKind::Xiangqi) {
            return Err(whole(format!("{kind} has no opening names")));
        }
        let start =
            standard_start(kind).ok_or_else(|| whole(format!("{kind} has no standard start")))?;
        let mut book = OpeningBook {
            kind,
            start: start.hash(),
            openings: Vec::new(),
            positions: HashMap::new(),
            deepest: 0,
        };
        // Mirror images wait until every line as written is in (see the module docs).
        let mut mirrors = Vec::new();
        for (index, line) in text.lines().enumerate() {
            let number = index + 1;
            let error = |reason: String| BookError { line: number, reason };
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let (opening, moves) = read_line(kind, line).map_err(error)?;
            let moves: Vec<String> = moves.into_iter().map(str::to_owned).collect();
            let key = replay(&start, &moves).map_err(error)?;
            let at = book.openings.len();
            book.openings.push(opening);
            book.positions.entry(key).or_insert(at);
            book.deepest = book.deepest.max(moves.len());
            if kind == GameKind::Xiangqi {
                mirrors.push((number, at, moves.iter().map(|m| mirrored(m)).collect::<Vec<_>>()));
            }
        }
        for (number, at, moves) in mirrors {
            // The start is symmetric, so a legal line's mirror image is legal; still, say so.
            let key = replay(&start, &moves)
                .map_err(|e| BookError { line: number, reason: format!("mirror image: {e}") })?;
            book.positions.entry(key).or_insert(at);
        }
        Ok(book)
    }

    /// A book of `kind` that names nothing.
    fn empty(kind: GameKind) -> OpeningBook {
        OpeningBook {
            kind,
            start: standard_start(kind).map_or(0, |game| game.hash()),
            openings: Vec::new(),
            positions: HashMap::new(),
            deepest: 0,
        }
    }

    /// The game it names openings of.
    #[must_use]
    pub fn kind(&self) -> GameKind {
        self.kind
    }

    /// How many openings (table lines) it has.
    #[must_use]
    pub fn len(&self) -> usize {
        self.openings.len()
    }

    /// Whether it has none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.openings.is_empty()
    }

    /// The opening of a game that starts at `start` and goes on with `moves` (coordinates, as
    /// [`AnyGame::play`] reads them): the deepest named position along them, with the number
    /// of moves that reach it (from 1: the start itself names no opening). The replay stops at
    /// the first move that does not play. `None` when no position is named, or the game is not
    /// this book's or does not start from the standard position (names belong to positions
    /// reached from it).
    #[must_use]
    pub fn identify(&self, start: &AnyGame, moves: &[String]) -> Option<(usize, &Opening)> {
        if start.kind() != self.kind || start.hash() != self.start {
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

/// The chess book (lichess's ECO table), read on first use.
///
/// A table that did not read would give an empty book rather than a panic; a test makes sure
/// the one compiled in reads.
#[must_use]
pub fn chess() -> &'static OpeningBook {
    // Here and only here, so only a binary that asks for chess names carries the table.
    static BOOK: OnceLock<OpeningBook> = OnceLock::new();
    BOOK.get_or_init(|| {
        OpeningBook::parse(GameKind::Chess, include_str!("../data/chess-openings.tsv"))
            .unwrap_or_else(|_| OpeningBook::empty(GameKind::Chess))
    })
}

/// The xiangqi book, read on first use.
///
/// A table that did not read would give an empty book rather than a panic; a test makes sure
/// the one compiled in reads.
#[must_use]
pub fn xiangqi() -> &'static OpeningBook {
    // Here and only here, so only a binary that asks for xiangqi names carries the table.
    static BOOK: OnceLock<OpeningBook> = OnceLock::new();
    BOOK.get_or_init(|| {
        OpeningBook::parse(GameKind::Xiangqi, include_str!("../data/xiangqi-openings.tsv"))
            .unwrap_or_else(|_| OpeningBook::empty(GameKind::Xiangqi))
    })
}

/// The book of `kind`, for the games that have one (chess, xiangqi).
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

    const CHESS_TABLE: &str = include_str!("../data/chess-openings.tsv");
    const XIANGQI_TABLE: &str = include_str!("../data/xiangqi-openings.tsv");

    fn line(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_owned).collect()
    }

    /// The opening `moves` from the standard start reach: its ply, code and Chinese (xiangqi)
    /// or English (chess) name.
    fn named(kind: GameKind, moves: &str) -> Option<(usize, String, String)> {
        let start = standard_start(kind).unwrap();
        let (ply, opening) = book_for(kind)?.identify(&start, &line(moves))?;
        let name = opening.name_zh.clone().unwrap_or_else(|| opening.name.clone());
        Some((ply, opening.code.clone(), name))
    }

    fn expect(ply: usize, code: &str, name: &str) -> Option<(usize, String, String)> {
        Some((ply, code.to_owned(), name.to_owned()))
    }

    /// The table's lines (comments left out) as fields.
    fn table_lines(text: &str) -> impl Iterator<Item = Vec<&str>> {
        text.lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .map(|l| l.split('\t').collect())
    }

    #[test]
    fn both_tables_replay_in_full() {
        // Every line reads and is legal (parse replays them all), and none is lost.
        let chess = OpeningBook::parse(GameKind::Chess, CHESS_TABLE).unwrap();
        assert_eq!(chess.len(), table_lines(CHESS_TABLE).count());
        assert!(chess.len() > 3000, "{}", chess.len());
        let xiangqi = OpeningBook::parse(GameKind::Xiangqi, XIANGQI_TABLE).unwrap();
        assert_eq!(xiangqi.len(), table_lines(XIANGQI_TABLE).count());
        assert!((40..=80).contains(&xiangqi.len()), "{}", xiangqi.len());
        // The books the app uses are these, not the empty fallback.
        assert_eq!(super::chess().len(), chess.len());
        assert_eq!(super::xiangqi().len(), xiangqi.len());
        assert!(CHESS_TABLE.starts_with("# source: lichess-org/chess-openings (CC0) at commit "));
    }

    #[test]
    fn every_line_names_its_own_position() {
        // No line's position is taken by an earlier line (or, in xiangqi, a mirror image), so
        // replaying a line names it, at its full length; its mirror image names it too.
        for (kind, text) in [(GameKind::Chess, CHESS_TABLE), (GameKind::Xiangqi, XIANGQI_TABLE)] {
            let book = book_for(kind).unwrap();
            let start = standard_start(kind).unwrap();
            for fields in table_lines(text) {
                let moves = line(fields.last().unwrap());
                let (ply, opening) = book.identify(&start, &moves).unwrap();
                assert_eq!((ply, opening.name.as_str()), (moves.len(), fields[1]), "{fields:?}");
                if kind == GameKind::Xiangqi {
                    let mirror: Vec<String> = moves.iter().map(|m| mirrored(m)).collect();
                    let (ply, other) = book.identify(&start, &mirror).unwrap();
                    assert_eq!((ply, other), (moves.len(), opening), "{mirror:?}");
                }
            }
        }
    }

    #[test]
    fn chess_openings_by_eco_code_and_name() {
        assert_eq!(
            named(GameKind::Chess, "e2e4 e7e5 g1f3 b8c6 f1b5"),
            expect(5, "C60", "Ruy Lopez")
        );
        assert_eq!(named(GameKind::Chess, "e2e4 e7e5"), expect(2, "C20", "King's Pawn Game"));
        // Castling is the king's two-square move in the table, as the rules play it.
        let closed = "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7";
        assert_eq!(named(GameKind::Chess, closed), expect(10, "C84", "Ruy Lopez: Closed"));
        // The start names nothing.
        assert_eq!(named(GameKind::Chess, ""), None);
    }

    #[test]
    fn a_transposition_has_the_same_name() {
        let one = named(GameKind::Chess, "g1f3 d7d5 d2d4");
        assert_eq!(one, named(GameKind::Chess, "d2d4 d7d5 g1f3"));
        assert_eq!(one, expect(3, "D02", "Queen's Pawn Game: Zukertort Variation"));
        // Xiangqi: 屏风马 by either horse first.
        let screen = named(GameKind::Xiangqi, "h3e3 h10g8 h1g3 b10c8");
        assert_eq!(screen, named(GameKind::Xiangqi, "h3e3 b10c8 h1g3 h10g8"));
        assert_eq!(screen, expect(4, "C00", "中炮对屏风马"));
    }

    #[test]
    fn beyond_the_book_the_last_named_opening_stays() {
        let ruy = expect(5, "C60", "Ruy Lopez");
        assert_eq!(named(GameKind::Chess, "e2e4 e7e5 g1f3 b8c6 f1b5 h7h6 h2h3 h6h5 a2a3"), ruy);
        // The replay stops at the first move that does not play: a7a6 after it would be the
        // Morphy Defence, but it is not reached.
        assert_eq!(named(GameKind::Chess, "e2e4 e7e5 g1f3 b8c6 f1b5 e5e3 a7a6"), ruy);
        assert_eq!(named(GameKind::Chess, "e2e4 e7e5 g1f3 b8c6 f1b5 nonsense a7a6"), ruy);
        let (ply, code, _) =
            named(GameKind::Xiangqi, "h3e3 h10g8 h1g3 b10c8 a1a2 a10a9 a2d2").unwrap();
        assert_eq!((ply, code.as_str()), (4, "C00"));
    }

    #[test]
    fn xiangqi_central_cannon_from_either_side() {
        let central = expect(1, "B00", "中炮");
        assert_eq!(named(GameKind::Xiangqi, "h3e3"), central, "炮二平五");
        assert_eq!(named(GameKind::Xiangqi, "b3e3"), central, "炮八平五");
        let (_, opening) =
            xiangqi().identify(&standard_start(GameKind::Xiangqi).unwrap(), &line("b3e3")).unwrap();
        assert_eq!(opening.name, "Central Cannon");
        assert_eq!(opening.name_vi.as_deref(), Some("Pháo đầu"));
        // The whole line mirrored: 炮八平五 马2进3 马八进七 马8进7.
        assert_eq!(
            named(GameKind::Xiangqi, "b3e3 b10c8 b1c3 h10g8"),
            expect(4, "C00", "中炮对屏风马")
        );
    }

    #[test]
    fn xiangqi_central_cannon_and_the_horse_defences() {
        let xq = |moves| named(GameKind::Xiangqi, moves);
        // 炮二平五 马8进7, then 马二进三 马2进3: the screen horses.
        assert_eq!(xq("h3e3 h10g8"), expect(2, "B05", "中炮对进左马"));
        assert_eq!(xq("h3e3 h10g8 h1g3 b10c8"), expect(4, "C00", "中炮对屏风马"));
        assert_eq!(xq("h3e3 h10g8 h1g3 i10h10 i1h1 b10c8"), expect(6, "C00", "中炮对屏风马"));
        assert_eq!(
            xq("h3e3 h10g8 h1g3 i10h10 i1h1 b10c8 h1h7"),
            expect(7, "C17", "中炮过河车对屏风马")
        );
        assert_eq!(
            xq("h3e3 h10g8 h1g3 i10h10 i1h1 b10c8 b3c3"),
            expect(7, "C60", "五七炮对屏风马")
        );
        // 马2进3 then 马8进9: the single lifted horse; 炮8平6 and 马8进7: the reverse palcorner
        // horses; 炮8平9: the three-step tiger; 炮8进4: the left cannon blocking the chariot.
        assert_eq!(xq("h3e3 b10c8 h1g3 h10i8"), expect(4, "B10", "中炮对单提马"));
        assert_eq!(xq("h3e3 b10c8 h1g3 h8f8 i1h1 h10g8"), expect(6, "B31", "中炮对反宫马"));
        assert_eq!(xq("h3e3 h10g8 h1g3 h8i8"), expect(4, "B20", "中炮对左三步虎"));
        assert_eq!(xq("h3e3 h10g8 h1g3 i10h10 i1h1 h8h4"), expect(6, "B07", "中炮对左炮封车"));
        // The cannon duels.
        assert_eq!(xq("h3e3 h8e8"), expect(2, "D00", "顺炮"));
        assert_eq!(xq("h3e3 b8e8"), expect(2, "D50", "列炮"));
    }

    #[test]
    fn xiangqi_flank_openings() {
        let xq = |moves| named(GameKind::Xiangqi, moves);
        // 兵七进一 is the mirror image of the tabled 兵三进一.
        assert_eq!(xq("c4c5"), expect(1, "E00", "仙人指路"));
        assert_eq!(xq("c4c5 b8c8"), expect(2, "E10", "仙人指路对卒底炮"));
        assert_eq!(xq("c4c5 g7g6"), expect(2, "E40", "对兵局"));
        assert_eq!(xq("g1e3"), expect(1, "A10", "飞相局"));
        assert_eq!(xq("c1e3 b8e8"), expect(2, "A27", "飞相对左中炮"));
        assert_eq!(xq("h1g3"), expect(1, "A40", "起马局"));
        assert_eq!(xq("h3d3"), expect(1, "A60", "过宫炮局"));
        assert_eq!(xq("b3f3"), expect(1, "A60", "过宫炮局"), "炮八平四 crosses the palace too");
        assert_eq!(xq("h3f3"), expect(1, "A50", "仕角炮局"));
    }

    #[test]
    fn a_non_standard_start_has_no_opening() {
        let fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
        let start = AnyGame::new("chess", "", &StartFrom::Position(fen)).unwrap();
        assert_eq!(chess().identify(&start, &line("e2e4")), None);
        // The standard pieces with Black to move are another position.
        let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1";
        let start = AnyGame::new("chess", "", &StartFrom::Position(fen)).unwrap();
        assert_eq!(chess().identify(&start, &line("e7e5")), None);
        // The standard position as a FEN with other move counters is the standard start.
        let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 5 9";
        let start = AnyGame::new("chess", "", &StartFrom::Position(fen)).unwrap();
        assert_eq!(chess().identify(&start, &line("e2e4 e7e5")).unwrap().1.code, "C20");
        // Another game's start.
        let xiangqi_start = standard_start(GameKind::Xiangqi).unwrap();
        assert_eq!(chess().identify(&xiangqi_start, &line("h3e3")), None);
        let fen = "4k4/9/9/9/9/9/4P4/9/9/4K4 w - - 0 1";
        let start = AnyGame::new("xiangqi", "", &StartFrom::Position(fen)).unwrap();
        assert_eq!(xiangqi().identify(&start, &line("e4e5")), None);
    }

    #[test]
    fn only_chess_and_xiangqi_have_books() {
        assert!(book_for(GameKind::Gomoku).is_none());
        assert!(book_for(GameKind::Banqi).is_none());
        let error = OpeningBook::parse(GameKind::Gomoku, "x\ty\th8\n").unwrap_err();
        assert_eq!(error.line, 0);
        assert_eq!(error.to_string(), "gomoku has no opening names");
    }

    #[test]
    fn a_bad_table_line_is_named() {
        let bad = |kind, text| OpeningBook::parse(kind, text).unwrap_err();
        // An illegal move, counted from the text's first line (comments and blanks included).
        let error = bad(GameKind::Chess, "# fine\n\nA00\tOne\te2e4\nB00\tTwo\te2e4 e7e5 e2e5\n");
        assert_eq!(error.line, 4);
        assert!(error.reason.starts_with("move 3 e2e5: "), "{error}");
        assert!(error.to_string().starts_with("line 4: move 3 e2e5"), "{error}");
        // Not a move at all.
        let error = bad(GameKind::Chess, "A00\tOne\tpawn to e4\n");
        assert_eq!((error.line, error.reason.starts_with("move 1 pawn: ")), (1, true), "{error}");
        // A long token is cut short in the message.
        let long = format!("A00\tOne\t{}\n", "x".repeat(10_000));
        assert!(bad(GameKind::Chess, &long).reason.len() < 200);
        // Fields missing, empty, or too many.
        let error = bad(GameKind::Chess, "A00\tOne e2e4\n");
        assert_eq!(error.line, 1);
        assert!(error.reason.contains("3 tab-separated fields"), "{error}");
        assert_eq!(bad(GameKind::Chess, "A00\tOne\t\n").reason, "no moves");
        assert_eq!(bad(GameKind::Chess, "\tOne\te2e4\n").reason, "no ECO code");
        assert_eq!(bad(GameKind::Xiangqi, "-\t\t中炮\tPháo đầu\th3e3\n").reason, "no name");
        let error = bad(GameKind::Xiangqi, "B00\tCentral Cannon\t中炮\th3e3\n");
        assert!(error.reason.contains("5 tab-separated fields"), "{error}");
        // A xiangqi move the rules refuse: a horse cannot jump straight ahead.
        let error = bad(GameKind::Xiangqi, "-\tCannon\t炮\tPháo\th3e3\n-\tX\tX\tX\th1h3\n");
        assert_eq!(error.line, 2, "{error}");
        // `-` is no code; a good table reads.
        let book = OpeningBook::parse(GameKind::Xiangqi, "-\tCannon\t炮\t\th3e3\n").unwrap();
        let start = standard_start(GameKind::Xiangqi).unwrap();
        let (_, opening) = book.identify(&start, &line("b3e3")).unwrap();
        assert_eq!((opening.code.as_str(), opening.name_vi.as_deref()), ("", None));
    }

    #[test]
    fn the_first_line_to_reach_a_position_keeps_it() {
        let table = "A00\tFirst\tg1f3 d7d5 d2d4\nA00\tSecond\td2d4 d7d5 g1f3\n";
        let book = OpeningBook::parse(GameKind::Chess, table).unwrap();
        let start = standard_start(GameKind::Chess).unwrap();
        let (_, opening) = book.identify(&start, &line("d2d4 d7d5 g1f3")).unwrap();
        assert_eq!(opening.name, "First");
        // A line as written beats an earlier line's mirror image.
        let table = "-\tLeft\tL\tL\tb3e3\n-\tRight\tR\tR\th3e3\n";
        let book = OpeningBook::parse(GameKind::Xiangqi, table).unwrap();
        let start = standard_start(GameKind::Xiangqi).unwrap();
        assert_eq!(book.identify(&start, &line("h3e3")).unwrap().1.name, "Right");
        assert_eq!(book.identify(&start, &line("b3e3")).unwrap().1.name, "Left");
    }

    #[test]
    fn mirror_images_swap_files_and_keep_ranks() {
        assert_eq!(mirrored("h3e3"), "b3e3");
        assert_eq!(mirrored("h10g8"), "b10c8");
        assert_eq!(mirrored("e1e2"), "e1e2");
        assert_eq!(mirrored("a1i10"), "i1a10");
    }
}
