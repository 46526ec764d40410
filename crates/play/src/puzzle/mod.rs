//! Puzzles: a position, the opponent's move that sets the task, and the one line that answers
//! it; read and written as lichess's puzzle database writes them, and solved move by move
//! ([`run::PuzzleRun`]).
//!
//! **The file** is lichess's CSV, one puzzle a row, with its header:
//!
//! ```text
//! PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags
//! 00sHx,q3k1nr/1pp1nQpp/3p4/1P2p3/4P3/B1PP1b2/B5PP/5K2 b k - 0 17,e8d7 a2e6 d7d8 f7f8,1760,80,83,72,mate mateIn2 middlegame short,https://lichess.org/yyznGmXs/black#34,Italian_Game
//! ```
//!
//! `FEN` is the position before the opponent's move in the game's own position format (chess
//! FEN, Qi's xiangqi, banqi and gomoku strings), `Moves` the opponent's move and then the
//! solution, alternately the solver's and the opponent's, in the game's coordinates, separated
//! by spaces; the line ends on a solver's move, so there is an even number of moves. `Themes`
//! are tokens separated by spaces ([`Theme`]). The file is one game's: the game is named
//! beside it (`qi puzzles import chess FILE`), and a row carries no other rule options: a
//! gomoku puzzle under a rule other than freestyle carries the rule as a theme (`renju`,
//! `standardRule`, `caro`), and its board's size is its position's number of rows; the other
//! games' puzzles are under their default rules (`qi puzzles generate` keeps no other). So
//! lichess's own database (CC0) reads as it comes. A banqi puzzle has every piece face up.
//!
//! Every row is untrusted: a row that is not a puzzle (an unreadable position, an illegal
//! move, a line that ends on the opponent's move) is reported with its line number and the
//! rest of the file is read on.

pub mod link;
pub mod pick;
pub mod profile;
pub mod rating;
pub mod run;
pub mod theme;

use std::fmt;

use qi_rules::MoveError;
use qi_rules::any::{AnyGame, AnyMove, AnyRules, StartFrom, Variant};

pub use run::{Answer, PuzzleRun, RunState};
pub use theme::Theme;

/// The header row of the puzzle file, lichess's.
pub const CSV_HEADER: &str =
    "PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags";

/// The longest line read: the opponent's move and 29 more, ending on the solver's 15th
/// (lichess's longest is 20 in all).
pub const MAX_MOVES: usize = 30;

/// The longest game URL or opening tags read.
pub const MAX_TEXT: usize = 2000;

/// The longest row read; a longer one is refused unread.
pub const MAX_ROW: usize = 6000;

/// A puzzle's name in its database: letters and digits, 1 to 16 (lichess's are five).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PuzzleId(Box<str>);

impl PuzzleId {
    /// Reads an id.
    ///
    /// # Errors
    /// [`PuzzleError::BadId`] for an empty or over-long id or one with other characters.
    pub fn parse(text: &str) -> Result<PuzzleId, PuzzleError> {
        if text.is_empty() || text.len() > 16 || !text.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Err(PuzzleError::BadId(text.chars().take(20).collect()));
        }
        Ok(PuzzleId(text.into()))
    }

    /// The id Qi gives a puzzle it made: five letters and digits from a hash of its game, start
    /// and moves, so the same puzzle gets the same id on every machine (FNV-1a, 64 bits, written
    /// in base 62).
    #[must_use]
    pub fn derive(variant: Variant, position: &str, moves: &[String]) -> PuzzleId {
        const DIGITS: &[u8; 62] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        let text = [variant.name(), position].into_iter().chain(moves.iter().map(String::as_str));
        for part in text {
            for byte in part.bytes().chain([0]) {
                hash ^= u64::from(byte);
                hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
            }
        }
        let id: String = (0..5)
            .map(|_| {
                let digit = DIGITS[(hash % 62) as usize];
                hash /= 62;
                char::from(digit)
            })
            .collect();
        PuzzleId(id.into())
    }

    /// The id as text.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for PuzzleId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// One puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// Its name in its database.
    pub id: PuzzleId,
    /// The rules it is played under.
    pub rules: AnyRules,
    /// The position before the opponent's move, in the game's own format.
    pub position: String,
    /// The opponent's move, then the solution: the solver's moves and the opponent's replies in
    /// turn, ending on the solver's. Each legal where it is played.
    pub moves: Vec<AnyMove>,
    /// Its rating (Glicko-2, as players are rated; from its difficulty until people play it).
    pub rating: u16,
    /// The rating's deviation.
    pub deviation: u16,
    /// Players' votes, −100 to 100.
    pub popularity: i16,
    /// How many times it was played.
    pub plays: u32,
    /// What it trains.
    pub themes: Vec<Theme>,
    /// Where it came from (a game's link), or empty.
    pub game_url: String,
    /// The opening of the game it came from, lichess's tags, or empty.
    pub opening_tags: String,
}

/// Why a puzzle, or a row of the file, was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PuzzleError {
    /// The row does not have the file's ten columns.
    Columns {
        /// How many it has.
        found: usize,
    },
    /// The row is longer than [`MAX_ROW`].
    TooLong,
    /// The id is not letters and digits, 1 to 16.
    BadId(String),
    /// The position cannot be read under the puzzle's rules.
    Position(String),
    /// A move is unreadable or illegal where it comes.
    Move {
        /// Its place in `Moves`, from 1.
        index: usize,
        /// Its text, shortened.
        text: String,
        /// What was wrong.
        error: MoveError,
    },
    /// The line is not the opponent's move and a solution ending on the solver's move.
    LineShape {
        /// How many moves it has.
        moves: usize,
    },
    /// The game is over before the line ends.
    OverEarly {
        /// The move after which it ended, from 1.
        index: usize,
    },
    /// A number column is not a number in its range.
    Number {
        /// The column's name.
        column: &'static str,
        /// What it held.
        text: String,
    },
    /// A theme token is not one.
    Theme(theme::BadTheme),
    /// A link's `puzzle=` is not `<game>:<id>` of a known game, or its row is another puzzle.
    Link(String),
    /// The game URL or the opening tags hold characters a row cannot (a comma, a quote, a line
    /// break), or are over 2000 characters.
    Text {
        /// The column's name.
        column: &'static str,
    },
}

impl fmt::Display for PuzzleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PuzzleError::Columns { found } => {
                write!(f, "a puzzle row has 10 columns ({CSV_HEADER}); this one has {found}")
            }
            PuzzleError::TooLong => write!(f, "the row is longer than {MAX_ROW} characters"),
            PuzzleError::BadId(id) => {
                write!(f, "“{id}” is not a puzzle id (letters and digits, 1 to 16)")
            }
            PuzzleError::Position(why) => write!(f, "the position cannot be read: {why}"),
            PuzzleError::Move { index, text, error } => write!(f, "move {index} ({text}): {error}"),
            PuzzleError::LineShape { moves } => write!(
                f,
                "a puzzle is the opponent's move and a solution that ends on the solver's move \
                 (an even number of moves, 2 to {MAX_MOVES}); this one has {moves}"
            ),
            PuzzleError::OverEarly { index } => {
                write!(f, "the game is over after move {index}, before the line ends")
            }
            PuzzleError::Number { column, text } => {
                write!(f, "{column} “{text}” is not a number in its range")
            }
            PuzzleError::Theme(bad) => bad.fmt(f),
            PuzzleError::Link(text) => {
                write!(f, "“{text}” is not a puzzle of a known game (<game>:<id>)")
            }
            PuzzleError::Text { column } => write!(
                f,
                "{column} holds a comma, a quote or a line break, or is over 2000 characters"
            ),
        }
    }
}

impl std::error::Error for PuzzleError {}

impl Puzzle {
    /// A puzzle from its parts, with the line checked: `position` readable under `rules`, every
    /// move legal in turn, the game not over before the last, an even number of moves (2 to
    /// [`MAX_MOVES`]). The position is kept as the game writes it back. Rating 1500 ± 500 until
    /// set; no themes.
    ///
    /// # Errors
    /// [`PuzzleError::Position`], [`PuzzleError::Move`], [`PuzzleError::OverEarly`] or
    /// [`PuzzleError::LineShape`].
    pub fn new(
        id: PuzzleId,
        rules: AnyRules,
        position: &str,
        moves: &[&str],
    ) -> Result<Puzzle, PuzzleError> {
        let mut game = AnyGame::with_rules(rules, &StartFrom::Position(position))
            .map_err(|e| PuzzleError::Position(e.to_string()))?;
        let position = game.position();
        if rules.kind() == qi_rules::GameKind::Banqi && position.contains(['*', '?']) {
            // A puzzle must not hang on a flip's chance, nor show what lies face down.
            return Err(PuzzleError::Position("a banqi puzzle has every piece face up".into()));
        }
        if moves.len() < 2 || moves.len() > MAX_MOVES || !moves.len().is_multiple_of(2) {
            return Err(PuzzleError::LineShape { moves: moves.len() });
        }
        let mut values = Vec::with_capacity(moves.len());
        for (index, text) in moves.iter().enumerate() {
            if game.outcome().is_some() {
                return Err(PuzzleError::OverEarly { index });
            }
            let bad = |error: MoveError| PuzzleError::Move {
                index: index + 1,
                text: text.chars().take(12).collect(),
                error,
            };
            let mv = game.read_move(text).map_err(bad)?;
            game.apply(mv).map_err(|e| bad(MoveError::Illegal(e)))?;
            values.push(mv);
        }
        Ok(Puzzle {
            id,
            rules,
            position,
            moves: values,
            rating: 1500,
            deviation: 500,
            popularity: 0,
            plays: 0,
            themes: Vec::new(),
            game_url: String::new(),
            opening_tags: String::new(),
        })
    }

    /// The game at the puzzle's position, before the opponent's move.
    #[must_use]
    pub fn start(&self) -> AnyGame {
        // `new` and `read_row` checked the position under these rules; a puzzle put together
        // by hand with a bad one starts from the rules' start instead of failing.
        AnyGame::with_rules(self.rules, &StartFrom::Position(&self.position))
            .or_else(|_| AnyGame::with_rules(self.rules, &StartFrom::Start { seed: 0 }))
            .or_else(|_| {
                AnyGame::with_rules(AnyRules::of(Variant::Chess), &StartFrom::Start { seed: 0 })
            })
            .expect("the standard chess start always sets up")
    }

    /// The moves in coordinates.
    #[must_use]
    pub fn move_texts(&self) -> Vec<String> {
        move_texts(&self.start(), &self.moves)
    }

    /// How many moves the solver makes.
    #[must_use]
    pub fn solver_moves(&self) -> usize {
        self.moves.len() / 2
    }

    /// The puzzle as a row of the file (without a line break).
    #[must_use]
    pub fn to_row(&self) -> String {
        let mut themes: Vec<String> = self.themes.iter().map(|t| t.token().into_owned()).collect();
        if let AnyRules::Gomoku(_) = self.rules {
            let rule = self.rules.to_list();
            let rule = rule.split(',').find_map(|pair| pair.strip_prefix("rule="));
            if let Some(theme) = rule.and_then(Theme::of_gomoku_rule)
                && !self.themes.contains(&theme)
            {
                themes.push(theme.token().into_owned());
            }
        }
        format!(
            "{},{},{},{},{},{},{},{},{},{}",
            self.id,
            self.position,
            self.move_texts().join(" "),
            self.rating,
            self.deviation,
            self.popularity,
            self.plays,
            themes.join(" "),
            self.game_url,
            self.opening_tags
        )
    }

    /// Reads one row of the file for `variant` (see the module documentation).
    ///
    /// # Errors
    /// A [`PuzzleError`] naming the first thing wrong.
    pub fn read_row(variant: Variant, row: &str) -> Result<Puzzle, PuzzleError> {
        if row.len() > MAX_ROW {
            return Err(PuzzleError::TooLong);
        }
        let columns = split_row(row);
        if columns.len() != 10 {
            return Err(PuzzleError::Columns { found: columns.len() });
        }
        let id = PuzzleId::parse(columns[0].trim())?;
        let themes = columns[7]
            .split_whitespace()
            .map(Theme::parse)
            .collect::<Result<Vec<_>, _>>()
            .map_err(PuzzleError::Theme)?;
        let rules = AnyRules::parse(variant, &row_rules(variant, &themes, &columns[1]))
            .map_err(|e| PuzzleError::Position(e.to_string()))?;
        let moves: Vec<&str> = columns[2].split_whitespace().collect();
        let mut puzzle = Puzzle::new(id, rules, columns[1].trim(), &moves)?;
        puzzle.rating = number(&columns[3], "Rating", 0, 4000)?;
        puzzle.deviation = number(&columns[4], "RatingDeviation", 0, 1000)?;
        puzzle.popularity = number(&columns[5], "Popularity", -100, 100)?;
        puzzle.plays = number(&columns[6], "NbPlays", 0, u32::MAX)?;
        puzzle.themes = themes;
        puzzle.game_url = plain_text(&columns[8], "GameUrl")?;
        puzzle.opening_tags = plain_text(&columns[9], "OpeningTags")?;
        Ok(puzzle)
    }
}

/// The rule options a row carries: for gomoku, the rule its theme names and the board's size
/// its position shows (its rows); nothing for the other games (their defaults).
fn row_rules(variant: Variant, themes: &[Theme], position: &str) -> String {
    if variant != Variant::Gomoku {
        return String::new();
    }
    let mut list = Vec::new();
    if let Some(rule) = themes.iter().find_map(Theme::gomoku_rule) {
        list.push(format!("rule={rule}"));
    }
    let rows = position.split_whitespace().next().map_or(0, |board| board.split('/').count());
    if rows != 15 && rows > 0 {
        list.push(format!("size={rows}"));
    }
    list.join(",")
}

/// `moves` played from `start`, each in coordinates (where it is played); the moves after one
/// that cannot be played are written without the position.
#[must_use]
pub fn move_texts(start: &AnyGame, moves: &[AnyMove]) -> Vec<String> {
    let mut game = start.clone();
    moves
        .iter()
        .map(|&mv| {
            let text = game.move_text(mv);
            let _ = game.apply(mv);
            text
        })
        .collect()
}

/// Reads a number column.
fn number<T: std::str::FromStr + PartialOrd>(
    text: &str,
    column: &'static str,
    low: T,
    high: T,
) -> Result<T, PuzzleError> {
    let text = text.trim();
    text.parse::<T>()
        .ok()
        .filter(|n| *n >= low && *n <= high)
        .ok_or_else(|| PuzzleError::Number { column, text: text.chars().take(20).collect() })
}

/// A text column, which must not need quoting when written back.
fn plain_text(text: &str, column: &'static str) -> Result<String, PuzzleError> {
    let text = text.trim();
    if text.len() > MAX_TEXT || text.contains([',', '"', '\n', '\r']) {
        return Err(PuzzleError::Text { column });
    }
    Ok(text.to_owned())
}

/// Splits a row at its commas; a field in double quotes may hold commas and `""` for a quote
/// (RFC 4180). A small reader of our own: the file's fields are plain, and a CSV crate would
/// add its code to the page's download for no gain.
fn split_row(row: &str) -> Vec<String> {
    let mut fields = vec![String::new()];
    let mut quoted = false;
    let mut chars = row.chars().peekable();
    while let Some(c) = chars.next() {
        let field = fields.last_mut().expect("there is always a field");
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            '"' if quoted => quoted = false,
            '"' if field.is_empty() => quoted = true,
            ',' if !quoted => fields.push(String::new()),
            _ => field.push(c),
        }
    }
    fields
}

/// What reading a puzzle file gave: the puzzles, and each refused row with its line number
/// (from 1) and why.
#[derive(Debug, Default)]
pub struct FileRead {
    /// The puzzles read, in the file's order.
    pub puzzles: Vec<Puzzle>,
    /// The rows refused.
    pub refused: Vec<(usize, PuzzleError)>,
}

/// Reads a puzzle file of `variant` (see the module documentation): the header row is optional,
/// blank lines are passed over, a refused row is reported and the rest read on. A second row
/// with an id already read is refused.
#[must_use]
pub fn read_file(variant: Variant, text: &str) -> FileRead {
    let mut read = FileRead::default();
    let mut seen = std::collections::HashSet::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty()
            || (number == 0 && line.trim_start_matches('\u{feff}') == CSV_HEADER)
        {
            continue;
        }
        match Puzzle::read_row(variant, line) {
            Ok(puzzle) if !seen.insert(puzzle.id.clone()) => {
                read.refused
                    .push((number + 1, PuzzleError::BadId(format!("{} (again)", puzzle.id))));
            }
            Ok(puzzle) => read.puzzles.push(puzzle),
            Err(error) => read.refused.push((number + 1, error)),
        }
    }
    read
}

/// Writes puzzles as a file: the header and a row each.
#[must_use]
pub fn write_file(puzzles: &[Puzzle]) -> String {
    let mut text = String::from(CSV_HEADER);
    text.push('\n');
    for puzzle in puzzles {
        text.push_str(&puzzle.to_row());
        text.push('\n');
    }
    text
}

#[cfg(test)]
mod tests;
