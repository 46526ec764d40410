//! The replay of a record's moves into a move tree: move numbers, variations, comments, marks
//! and lichess's arrows. It knows no game's notation: each game's [`Dialect`] reads its words
//! and calls [`Reader::play`] (see [`dialect`](super::dialect)).
//!
//! [`Dialect`]: super::dialect::Dialect

use crate::{Brush, Line, Mark, Path, Shape};
use qi_rules::any::AnyGame;
use qi_rules::options::shorten;
use qi_rules::{Cell, MoveError, Side};

use super::error::{Pos, RecordError, RecordErrorKind, RecordWarning};

/// Replays moves read from a text, keeping what a record needs.
pub(crate) struct Reader {
    /// The game after the moves so far (of the line being read).
    pub game: AnyGame,
    /// The moves from the start to here, in coordinates (into the variation being read).
    pub moves: Vec<String>,
    number: u32,
    previous: Option<Side>,
    /// `number` and `previous` before the last move: a variation replacing it starts there.
    before_last: (u32, Option<Side>),
    /// The move tree read so far, and where in it the reading is.
    tree: Line,
    path: Path,
    /// A comment read right after `(`, before the variation's first move.
    before_first: Option<String>,
    /// The lines left to read variations, innermost last.
    open: Vec<OpenLine>,
    /// Ends of lines still being read that a variation went past (`(3... Bc5 4. c3)` after
    /// `3... Bc5`, before the main line's own fourth move): the line's own next move there is
    /// its continuation, and what the variation put there becomes an alternative to it.
    provisional: Vec<Path>,
    /// What a dialect passed over and read on (a gomoku opening choice).
    pub warnings: Vec<RecordWarning>,
}

/// A line left at a `(`, to go on with at its `)`.
struct OpenLine {
    game: AnyGame,
    moves: Vec<String>,
    number: u32,
    previous: Option<Side>,
    before_last: (u32, Option<Side>),
    path: Path,
}

impl Reader {
    /// A reader at the start `game`, with an empty tree.
    pub(crate) fn new(game: AnyGame) -> Reader {
        let number = super::start_number(&game);
        Reader {
            game,
            moves: Vec::new(),
            number,
            previous: None,
            before_last: (number, None),
            tree: Line::default(),
            path: Path::main(0),
            before_first: None,
            open: Vec::new(),
            provisional: Vec::new(),
            warnings: Vec::new(),
        }
    }

    /// The number of the next move and who plays it.
    pub(crate) fn next_number(&self) -> (u32, Side) {
        let side = self.game.side_to_move();
        let number = if self.previous == Some(Side::Second) && side == Side::First {
            self.number.saturating_add(1)
        } else {
            self.number
        };
        (number, side)
    }

    /// Notes a move played by `side` (taken before playing it).
    pub(crate) fn record_move(&mut self, number: u32, side: Side, coordinates: String) {
        self.before_last = (self.number, self.previous);
        self.number = number;
        self.previous = Some(side);
        let before = self.path.clone().normalized();
        // Is an outer line still being read here (a variation that began with the move it
        // replaces), and is this its end? Then a move here goes past what that line has read.
        let outer_reads_here = self.open.iter().any(|left| left.path.branches == before.branches);
        let at_end = self.tree.line(&before.branches).is_some_and(|line| line.len() == before.ply);
        let provisional = self.provisional.iter().position(|p| *p == before);
        if let Some(mut path) = self.tree.add_move(&self.path, &coordinates) {
            if !outer_reads_here && let Some(index) = provisional {
                // The line's own move where a variation went first: the line keeps it.
                self.provisional.remove(index);
                if path.branches.len() > before.branches.len() {
                    path = self.tree.promote(&path).unwrap_or(path);
                }
            } else if outer_reads_here && at_end {
                self.provisional.push(before.clone());
            }
            self.path = path;
            if let Some(comment) = self.before_first.take() {
                self.keep_comment_before(&before, comment);
            }
        }
        self.moves.push(coordinates);
    }

    /// A comment read before a variation's first move: before the variation's line when the
    /// move began one, otherwise (the variation repeats a move already there) after the move
    /// before it, added to what is said there.
    fn keep_comment_before(&mut self, before: &Path, comment: String) {
        let entered = self.path.branches.len() > before.branches.len() && self.path.ply == 1;
        let (branches, key) =
            if entered { (&self.path.branches, 0) } else { (&before.branches, before.ply) };
        let Some(line) = self.tree.line_mut(branches) else { return };
        line.comments
            .entry(key)
            .and_modify(|said| {
                said.push('\n');
                said.push_str(&comment);
            })
            .or_insert(comment);
    }

    /// How many variations are open (being read or skipped).
    pub(crate) fn depth(&self) -> usize {
        self.open.len()
    }

    /// `(`: the next moves are an alternative to the last one. `false` when there is no move
    /// to replace (the variation must then be [skipped](Reader::skip_variation)).
    pub(crate) fn open_variation(&mut self) -> bool {
        if self.moves.is_empty() || self.path.ply == 0 {
            return false;
        }
        let mut game = self.game.clone();
        if game.undo().is_none() {
            return false;
        }
        let left = OpenLine {
            game: std::mem::replace(&mut self.game, game),
            moves: self.moves.clone(),
            number: self.number,
            previous: self.previous,
            before_last: self.before_last,
            path: self.path.clone(),
        };
        self.moves.pop();
        (self.number, self.previous) = self.before_last;
        self.path = self.tree.previous(&self.path).unwrap_or_default();
        self.before_first = None;
        self.open.push(left);
        true
    }

    /// `(` where no variation can be read (none to replace, or too deep): the line stays as it
    /// is, and the `)` that ends the skipped text comes back to it.
    pub(crate) fn skip_variation(&mut self) {
        self.open.push(OpenLine {
            game: self.game.clone(),
            moves: self.moves.clone(),
            number: self.number,
            previous: self.previous,
            before_last: self.before_last,
            path: self.path.clone(),
        });
    }

    /// `)`: back to the line the variation left. `false` when none was open.
    pub(crate) fn close_variation(&mut self) -> bool {
        let Some(left) = self.open.pop() else { return false };
        self.game = left.game;
        self.moves = left.moves;
        self.number = left.number;
        self.previous = left.previous;
        self.before_last = left.before_last;
        self.path = left.path;
        self.before_first = None;
        true
    }

    /// The move tree read, and the game at the end of the line being read.
    pub(crate) fn finish(mut self) -> (Line, AnyGame) {
        while self.close_variation() {}
        (self.tree, self.game)
    }

    /// A mark on the last move.
    pub(crate) fn mark(&mut self, number: u8) {
        if self.path.ply == 0 {
            return;
        }
        if let Some(line) = self.tree.line_mut(&self.path.branches) {
            let marks = line.marks.entry(self.path.ply).or_default();
            if !marks.contains(&Mark(number)) {
                marks.push(Mark(number));
            }
        }
    }

    /// Reads `text` (the coordinates or the game's notation) and plays it; `shown` is the text
    /// as the record wrote it, for the error.
    pub(crate) fn play(&mut self, pos: Pos, text: &str, shown: &str) -> Result<(), RecordError> {
        let (number, side) = self.next_number();
        // Read once into a move; the tree keeps its canonical coordinates.
        let played = self.game.read_move(text).and_then(|mv| {
            let coordinates = self.game.move_text(mv);
            self.game.apply(mv)?;
            Ok(coordinates)
        });
        match played {
            Ok(coordinates) => {
                self.record_move(number, side, coordinates);
                Ok(())
            }
            Err(error) => Err(self.move_error(pos, shown, error)),
        }
    }

    /// The error for the next move, written `text`.
    pub(crate) fn move_error(&self, pos: Pos, text: &str, error: MoveError) -> RecordError {
        let (number, side) = self.next_number();
        let ply = self.moves.len();
        let text = shorten(text);
        let kind = match error {
            MoveError::Parse(error) => {
                RecordErrorKind::UnreadableMove { ply, number, side, text, error }
            }
            MoveError::Illegal(error) => {
                RecordErrorKind::IllegalMove { ply, number, side, text, error }
            }
        };
        RecordError::at(pos, kind)
    }

    /// A comment after the last move; lichess's `[%cal ...]` and `[%csl ...]` commands in it
    /// become arrows and circles on the position.
    pub(crate) fn comment(&mut self, text: &str) {
        let (shapes, text) = take_shapes(text);
        if !shapes.is_empty() {
            let (line, at) = match self.tree.line_mut(&self.path.branches) {
                Some(line) => (line, self.path.ply),
                None => return,
            };
            // One shape per cell or pair of cells, the last colour given, circles before
            // arrows: as the board draws them (`shape::toggle`) and the writer writes them, so
            // a record reads back as it was read (found by fuzzing).
            let drawn = line.shapes.entry(at).or_default();
            for shape in shapes {
                match drawn.iter_mut().find(|s| s.from == shape.from && s.to == shape.to) {
                    Some(same) => same.brush = shape.brush,
                    None => drawn.push(shape),
                }
            }
            drawn.sort_by_key(|shape| !shape.is_circle());
        }
        if text.is_empty() {
            return;
        }
        // Right after `(`: before the variation's first move, kept for it.
        let opening = !self.open.is_empty()
            && self.open.last().is_some_and(|left| left.moves.len() == self.moves.len() + 1);
        if opening {
            let slot = self.before_first.get_or_insert_with(String::new);
            if !slot.is_empty() {
                slot.push('\n');
            }
            slot.push_str(&text);
            return;
        }
        let Some(line) = self.tree.line_mut(&self.path.branches) else { return };
        line.comments
            .entry(self.path.ply)
            .and_modify(|comment| {
                comment.push('\n');
                comment.push_str(&text);
            })
            .or_insert(text);
    }
}

/// Takes lichess's `[%cal Ge2e4,Rd7d5]` and `[%csl Gd4]` commands out of a comment: the shapes
/// they draw, and the comment without them (other commands, `[%eval]`, `[%clk]`, stay in it).
fn take_shapes(text: &str) -> (Vec<Shape>, String) {
    let mut shapes = Vec::new();
    let mut rest = String::with_capacity(text.len());
    let mut tail = text;
    while let Some(open) = tail.find("[%c") {
        let after = &tail[open..];
        let Some(close) = after.find(']') else { break };
        let command = &after[2..close];
        let (name, args) = command.split_once(char::is_whitespace).unwrap_or((command, ""));
        let read: Option<Vec<Shape>> = match name {
            "cal" | "csl" => args
                .split(',')
                .map(str::trim)
                .filter(|a| !a.is_empty())
                .map(|arg| {
                    let mut chars = arg.chars();
                    let brush = Brush::from_letter(chars.next()?)?;
                    let cells = chars.as_str();
                    let (from, used) = Cell::parse_prefix(cells)?;
                    let to = if name == "csl" {
                        (used == cells.len()).then_some(from)?
                    } else {
                        let (to, more) = Cell::parse_prefix(&cells[used..])?;
                        (used + more == cells.len()).then_some(to)?
                    };
                    Some(Shape { from, to, brush })
                })
                .collect(),
            _ => None,
        };
        match read {
            Some(read) => {
                shapes.extend(read);
                rest.push_str(&tail[..open]);
                // The space that separated the command from the text goes with it.
                tail = after[close + 1..].trim_start_matches(' ');
            }
            None => {
                rest.push_str(&tail[..open + close + 1]);
                tail = &after[close + 1..];
            }
        }
    }
    rest.push_str(tail);
    (shapes, rest.trim().to_owned())
}
