//! A whole game as a value: which game, its rule options, where it started and every move. This
//! is what storage keeps now, and what links and the server carry later.

use crate::{Line, Mark, Path, Shape, Sparse, movetext};
use qi_rules::any::{AnyGame, AnyMove, StartFrom};
use qi_rules::banqi::BanqiMove;
use qi_rules::{GameKind, MoveError, Side};

/// Where a game started.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// The rules' start position; the seed picks the banqi deal or the Chess960 start.
    Seed(u64),
    /// A position string in the game's own format.
    Position(String),
}

/// A game: enough to rebuild it exactly, and what an imported record said about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// Which game.
    pub kind: GameKind,
    /// Its rule options as a `key=value,...` list.
    pub rules: String,
    /// Where it started.
    pub start: Start,
    /// Every move of the main line, in coordinate notation.
    pub moves: Vec<String>,
    /// Header tags of an imported record (`Event`, `White`, `Date`, ...), in their order, kept so
    /// that exporting gives them back. The tags that describe the game itself (`FEN`,
    /// `Variant`, `SetUp`, `Result`) are not kept here: they follow from the game.
    pub tags: Vec<(String, String)>,
    /// Comments by ply: the comment at `n` follows the `n`-th move (0: before the first move).
    pub comments: Sparse<String>,
    /// Move and position marks by ply: those at `n` are the `n`-th move's.
    pub marks: Sparse<Vec<Mark>>,
    /// Arrows and circles by ply: those at `n` are drawn on the position after `n` moves.
    pub shapes: Sparse<Vec<Shape>>,
    /// Variations: those at `i` are alternatives to the `i`-th move (0-based), each a
    /// [`Line`] from the position before it. Together with `moves`, `comments`, `marks` and
    /// `shapes` they make the game's move tree ([`GameRecord::take_tree`]).
    pub variations: Sparse<Vec<Line>>,
    /// How the game ended when its moves do not say: a resignation, a flag, an agreed draw, or a
    /// result a record gives without saying why. `None` while the game goes on, and when the
    /// rules end it (mate, five in a row, ...): that follows from the moves.
    pub ending: Option<Ending>,
}

/// An ending the moves do not show. A resignation has a winner; an agreement is a draw; a flag
/// or a recorded result may be either (see [`Ending::is_consistent`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ending {
    /// The winner, or `None` for a draw.
    pub winner: Option<Side>,
    /// Why the game ended.
    pub by: EndedBy,
}

/// Why a game ended, when its moves do not say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndedBy {
    /// The loser resigned.
    Resignation,
    /// The loser's clock ran out.
    Time,
    /// The players agreed a draw.
    Agreement,
    /// A record gave the result and not the reason (an adjudication, an abandoned game, ...).
    Recorded,
}

impl Ending {
    /// The result as a PGN result token: `1-0`, `0-1` or `1/2-1/2` (the first player is `1`).
    #[must_use]
    pub fn result_token(self) -> &'static str {
        match self.winner {
            Some(Side::First) => "1-0",
            Some(Side::Second) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// The ending a PGN result token and `Termination` tag describe, for a game whose moves do
    /// not end it; `None` for `*` or anything else. `time forfeit` is a flag; `normal` is a
    /// resignation when someone won and an agreement when it is a draw; any other termination
    /// (`adjudication`, `abandoned`, ...) or none at all is [`EndedBy::Recorded`].
    #[must_use]
    pub fn from_pgn(result: &str, termination: Option<&str>) -> Option<Ending> {
        let winner = match result {
            "1-0" => Some(Side::First),
            "0-1" => Some(Side::Second),
            "1/2-1/2" | "½-½" | "1/2" => None,
            _ => return None,
        };
        let termination = termination.map(|t| t.trim().to_ascii_lowercase());
        let by = match termination.as_deref() {
            Some("time forfeit") => EndedBy::Time,
            Some("normal") if winner.is_some() => EndedBy::Resignation,
            Some("normal") => EndedBy::Agreement,
            _ => EndedBy::Recorded,
        };
        Some(Ending { winner, by })
    }

    /// The `Termination` tag that [`Ending::from_pgn`] reads back as this ending; `None` for
    /// [`EndedBy::Recorded`].
    #[must_use]
    pub fn termination(self) -> Option<&'static str> {
        match self.by {
            EndedBy::Time => Some("time forfeit"),
            EndedBy::Resignation | EndedBy::Agreement => Some("normal"),
            EndedBy::Recorded => None,
        }
    }

    /// Whether the ending makes sense: a resignation has a winner, an agreement has none (a
    /// flag may be either: the other side may have nothing left to win with).
    #[must_use]
    pub fn is_consistent(self) -> bool {
        match self.by {
            EndedBy::Resignation => self.winner.is_some(),
            EndedBy::Agreement => self.winner.is_none(),
            EndedBy::Time | EndedBy::Recorded => true,
        }
    }

    /// The ending as text, for storage and links: the result token and a word for why,
    /// `0-1 resignation` (`time`, `agreement`, `recorded`).
    #[must_use]
    pub fn to_text(self) -> String {
        let by = match self.by {
            EndedBy::Resignation => "resignation",
            EndedBy::Time => "time",
            EndedBy::Agreement => "agreement",
            EndedBy::Recorded => "recorded",
        };
        format!("{} {by}", self.result_token())
    }

    /// Reads [`Ending::to_text`]'s form; `None` when it does not.
    #[must_use]
    pub fn from_text(text: &str) -> Option<Ending> {
        let (result, by) = text.trim().split_once(' ')?;
        let mut ending = Ending::from_pgn(result, None)?;
        ending.by = match by {
            "resignation" => EndedBy::Resignation,
            "time" => EndedBy::Time,
            "agreement" => EndedBy::Agreement,
            "recorded" => EndedBy::Recorded,
            _ => return None,
        };
        ending.is_consistent().then_some(ending)
    }
}

/// A record whose moves could not all be replayed: the game up to the bad move, and why.
#[derive(Clone, Debug)]
pub struct ReplayError {
    /// How many moves were replayed before the bad one.
    pub ply: usize,
    /// Why that move was refused.
    pub error: MoveError,
}

/// A game rebuilt from its record: as far as its moves could be played.
#[derive(Clone, Debug)]
pub struct Replayed {
    /// The game after the moves.
    pub game: AnyGame,
    /// Each move played, in the game's notation (SAN, WXF, coordinates).
    pub notations: Vec<String>,
    /// Why the replay stopped before the end, if it did.
    pub error: Option<ReplayError>,
}

impl GameRecord {
    /// A new game of `kind` under `rules` (a `key=value,...` list), from its start position.
    #[must_use]
    pub fn new(kind: GameKind, rules: &str, seed: u64) -> GameRecord {
        GameRecord::from_parts(kind, rules.to_owned(), Start::Seed(seed), Vec::new())
    }

    /// A record of these moves, with no tags or comments.
    #[must_use]
    pub fn from_parts(
        kind: GameKind,
        rules: String,
        start: Start,
        moves: Vec<String>,
    ) -> GameRecord {
        GameRecord {
            kind,
            rules,
            start,
            moves,
            tags: Vec::new(),
            comments: Sparse::new(),
            marks: Sparse::new(),
            shapes: Sparse::new(),
            variations: Sparse::new(),
            ending: None,
        }
    }

    /// Keeps the first `plies` moves, and the comments, marks, shapes and variations up to
    /// them. A game cut short goes on, so its recorded ending goes.
    pub fn truncate(&mut self, plies: usize) {
        if plies < self.moves.len() {
            self.ending = None;
        }
        let mut tree = self.take_tree();
        tree.truncate(plies);
        self.put_tree(tree);
    }

    /// Takes the move tree out of the record (its main line, notes and variations), to edit it
    /// with [`crate::tree`]'s operations; [`put_tree`](GameRecord::put_tree) puts it back.
    #[must_use]
    pub fn take_tree(&mut self) -> Line {
        Line {
            moves: std::mem::take(&mut self.moves),
            comments: std::mem::take(&mut self.comments),
            marks: std::mem::take(&mut self.marks),
            shapes: std::mem::take(&mut self.shapes),
            variations: std::mem::take(&mut self.variations),
        }
    }

    /// Puts a move tree into the record, as its main line, notes and variations.
    pub fn put_tree(&mut self, tree: Line) {
        let Line { moves, comments, marks, shapes, variations } = tree;
        self.moves = moves;
        self.comments = comments;
        self.marks = marks;
        self.shapes = shapes;
        self.variations = variations;
    }

    /// A copy of the move tree.
    #[must_use]
    pub fn tree(&self) -> Line {
        Line {
            moves: self.moves.clone(),
            comments: self.comments.clone(),
            marks: self.marks.clone(),
            shapes: self.shapes.clone(),
            variations: self.variations.clone(),
        }
    }

    /// Edits the move tree in place with `edit`, and returns what it returns.
    pub fn edit_tree<T>(&mut self, edit: impl FnOnce(&mut Line) -> T) -> T {
        let mut tree = self.take_tree();
        let result = edit(&mut tree);
        self.put_tree(tree);
        result
    }

    /// Takes `saved`'s variations, comments, marks and shapes when it is the same game (same
    /// game, rules, start and main line) and this record has none of its own: a link carries
    /// the moves, the browser's storage the rest.
    pub fn adopt_notes(&mut self, saved: GameRecord) {
        // A link leaves out a start seed that changes nothing (standard chess, xiangqi,
        // gomoku): the same start position is the same start.
        let same = saved.kind == self.kind
            && saved.rules == self.rules
            && saved.moves == self.moves
            && (saved.start == self.start
                || saved.start_game().position() == self.start_game().position());
        if same && !self.has_notes() {
            let tree = {
                let mut saved = saved;
                saved.take_tree()
            };
            self.put_tree(tree);
        }
    }

    /// The line a path of the tree ends in, as its parts (without copying the main line): its
    /// comments, marks and shapes. `None` when the tree has no such line.
    fn notes_at(&self, path: &Path) -> Option<NotesOf<'_>> {
        let Some((first, rest)) = path.branches.split_first() else {
            return Some(NotesOf {
                comments: &self.comments,
                marks: &self.marks,
                shapes: &self.shapes,
            });
        };
        let line = self.variations.get(&first.at)?.get(first.index)?.line(rest)?;
        Some(NotesOf { comments: &line.comments, marks: &line.marks, shapes: &line.shapes })
    }

    /// The moves of the line `branches` leads to (the main line for none), without copying
    /// the tree.
    fn line_moves(&self, branches: &[crate::tree::Branch]) -> Option<&[String]> {
        let Some((first, rest)) = branches.split_first() else { return Some(&self.moves) };
        let line = self.variations.get(&first.at)?.get(first.index)?.line(rest)?;
        Some(&line.moves)
    }

    /// Whether the move tree has the position `path` (as [`Line::contains`], without copying
    /// the tree).
    #[must_use]
    pub fn contains(&self, path: &Path) -> bool {
        self.line_moves(&path.branches).is_some_and(|moves| {
            path.ply <= moves.len() && (path.ply > 0 || path.branches.is_empty())
        })
    }

    /// The position one move further along the line `path` is on (as [`Line::next`]).
    #[must_use]
    pub fn next(&self, path: &Path) -> Option<Path> {
        let moves = self.line_moves(&path.branches)?;
        (path.ply < moves.len())
            .then(|| Path { branches: path.branches.clone(), ply: path.ply + 1 })
    }

    /// The position one move back (as [`Line::previous`]).
    #[must_use]
    pub fn previous(&self, path: &Path) -> Option<Path> {
        if !self.contains(path) || (path.ply == 0 && path.branches.is_empty()) {
            return None;
        }
        Some(Path { branches: path.branches.clone(), ply: path.ply - 1 }.normalized())
    }

    /// The end of the line `path` is on (as [`Line::end_of_line`]).
    #[must_use]
    pub fn end_of_line(&self, path: &Path) -> Option<Path> {
        let moves = self.line_moves(&path.branches)?;
        Some(Path { branches: path.branches.clone(), ply: moves.len() })
    }

    /// The moves from the start to `path` (as [`Line::moves_to`], without copying the tree).
    #[must_use]
    pub fn moves_to(&self, path: &Path) -> Option<Vec<&str>> {
        if !self.contains(path) {
            return None;
        }
        let mut moves = Vec::with_capacity(path.depth());
        for (depth, branch) in path.branches.iter().enumerate() {
            let line = self.line_moves(&path.branches[..depth])?;
            moves.extend(line.get(..branch.at)?.iter().map(String::as_str));
        }
        let line = self.line_moves(&path.branches)?;
        moves.extend(line.get(..path.ply)?.iter().map(String::as_str));
        Some(moves)
    }

    /// The arrows and circles drawn on the position at `path`.
    #[must_use]
    pub fn shapes_at(&self, path: &Path) -> &[Shape] {
        self.notes_at(path).and_then(|n| n.shapes.get(&path.ply)).map_or(&[], Vec::as_slice)
    }

    /// The marks of the move that led to `path`.
    #[must_use]
    pub fn marks_at(&self, path: &Path) -> &[Mark] {
        self.notes_at(path).and_then(|n| n.marks.get(&path.ply)).map_or(&[], Vec::as_slice)
    }

    /// The comment after the move that led to `path` (at the start: before the first move).
    #[must_use]
    pub fn comment_at(&self, path: &Path) -> Option<&str> {
        self.notes_at(path).and_then(|n| n.comments.get(&path.ply)).map(String::as_str)
    }

    /// Whether any move has an alternative, or anything is said or drawn.
    #[must_use]
    pub fn has_notes(&self) -> bool {
        !(self.variations.is_empty()
            && self.comments.is_empty()
            && self.marks.is_empty()
            && self.shapes.is_empty())
    }

    /// The game at its start, before any move. Falls back to default rules and the standard
    /// start if the record's own do not read (records come from storage and links).
    #[must_use]
    pub fn start_game(&self) -> AnyGame {
        let start = match &self.start {
            Start::Seed(seed) => StartFrom::Start { seed: *seed },
            Start::Position(text) => StartFrom::Position(text),
        };
        AnyGame::new(self.kind.name(), &self.rules, &start)
            .or_else(|_| AnyGame::new(self.kind.name(), "", &start))
            .or_else(|_| AnyGame::new(self.kind.name(), "", &StartFrom::Start { seed: 0 }))
            .unwrap_or_else(|_| unreachable_start(self.kind))
    }

    /// The start and the main line's moves as values, as far as they replay (a move that
    /// does not read or is not legal ends them): what a search over the game works on.
    #[must_use]
    pub fn main_line(&self) -> (AnyGame, Vec<AnyMove>) {
        let start = self.start_game();
        let mut game = start.clone();
        let mut moves = Vec::with_capacity(self.moves.len());
        for text in &self.moves {
            let Ok(mv) = game.read_move(text) else { break };
            if game.apply(mv).is_err() {
                break;
            }
            moves.push(mv);
        }
        (start, moves)
    }

    /// The game at `path` of the move tree: its moves replayed from the start, as far as they
    /// go (`None` when the tree has no such position).
    #[must_use]
    pub fn game_at(&self, path: &Path) -> Option<Replayed> {
        let moves = self.moves_to(path)?;
        let mut game = self.start_game();
        let mut notations = Vec::with_capacity(moves.len());
        for (ply, text) in moves.into_iter().enumerate() {
            match game.play(text) {
                Ok(notation) => notations.push(notation),
                Err(error) => {
                    return Some(Replayed {
                        game,
                        notations,
                        error: Some(ReplayError { ply, error }),
                    });
                }
            }
        }
        Some(Replayed { game, notations, error: None })
    }

    /// Every move of the tree in the game's notation, line by line (see [`Notated`]); a line
    /// stops at a move that does not replay.
    #[must_use]
    pub fn notate_tree(&self) -> Notated {
        self.notate_tree_in(false)
    }

    /// [`notate_tree`](GameRecord::notate_tree), with xiangqi moves in Chinese notation when
    /// `chinese` (炮二平五, for the 简体中文 interface).
    #[must_use]
    pub fn notate_tree_in(&self, chinese: bool) -> Notated {
        fn notate(line: &Line, mut game: AnyGame, chinese: bool) -> Notated {
            let mut out = Notated::default();
            for (i, text) in line.moves.iter().enumerate() {
                for variation in line.variations.get(&i).into_iter().flatten() {
                    let notated = notate(variation, game.clone(), chinese);
                    out.variations.entry(i).or_default().push(notated);
                }
                let in_chinese = if chinese { game.chinese_notation(text) } else { None };
                // A banqi flip's square says nothing of what came up: the piece is read off
                // the board once it is face up.
                let flipped = match game.kind() {
                    GameKind::Banqi => match game.read_move(text) {
                        Ok(AnyMove::Banqi(BanqiMove::Flip(cell))) => Some(cell),
                        _ => None,
                    },
                    _ => None,
                };
                match game.play(text) {
                    Ok(notation) => out.notations.push(in_chinese.unwrap_or(notation)),
                    Err(_) => break,
                }
                if let Some(code) = flipped.and_then(|cell| game.piece_code(cell)) {
                    out.turned_up.insert(i, code);
                }
            }
            out
        }
        notate(&self.tree(), self.start_game(), chinese)
    }

    /// Cuts every variation at its first move that does not replay (and drops the ones left
    /// empty): a tree from a link or the browser's storage is someone else's text, and a
    /// variation must be a line that can be shown, stepped through, promoted and written out.
    /// The main line is left as it is (its replay says where it stops, and why).
    pub fn keep_playable_variations(&mut self) {
        fn prune(line: &mut Line, mut game: AnyGame) {
            for i in 0..line.moves.len() {
                if let Some(alternatives) = line.variations.get_mut(&i) {
                    for variation in alternatives.iter_mut() {
                        let mut replay = game.clone();
                        let playable = variation
                            .moves
                            .iter()
                            .take_while(|text| replay.play(text).is_ok())
                            .count();
                        variation.truncate(playable);
                        prune(variation, game.clone());
                    }
                    alternatives.retain(|variation| !variation.is_empty());
                    if alternatives.is_empty() {
                        line.variations.remove(&i);
                    }
                }
                if game.play(&line.moves[i]).is_err() {
                    // Past the main line's last playable move nothing can be shown.
                    line.variations.retain(|&at, _| at <= i);
                    break;
                }
            }
            line.variations.retain(|&at, _| at < line.moves.len());
        }
        let game = self.start_game();
        self.edit_tree(|tree| prune(tree, game));
    }

    /// Replays the first `plies` moves (all of them when `plies` is larger), stopping at the
    /// first move that cannot be played: the longest legal prefix, and why it stopped.
    #[must_use]
    pub fn replay(&self, plies: usize) -> Replayed {
        let mut game = self.start_game();
        let mut notations = Vec::with_capacity(self.moves.len().min(plies));
        for (ply, text) in self.moves.iter().take(plies).enumerate() {
            match game.play(text) {
                Ok(notation) => notations.push(notation),
                Err(error) => {
                    let error = Some(ReplayError { ply, error });
                    return Replayed { game, notations, error };
                }
            }
        }
        Replayed { game, notations, error: None }
    }
}

/// What was said, marked and drawn along one line of the tree.
struct NotesOf<'a> {
    comments: &'a Sparse<String>,
    marks: &'a Sparse<Vec<Mark>>,
    shapes: &'a Sparse<Vec<Shape>>,
}

/// A move tree's notations: each line's moves in the game's notation (SAN, WXF, coordinates),
/// and its variations' the same way, keyed as in [`Line`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Notated {
    /// The line's moves that replayed, in notation.
    pub notations: Vec<String>,
    /// The variations' notations, by the index of the move they replace.
    pub variations: Sparse<Vec<Notated>>,
    /// What each banqi flip of the line turned face up, as a piece code (`rC`, `bK`), by the
    /// index of the move: records write a flip as its square alone (`b3`), as the game's
    /// notation does, and a move list shows the piece too.
    pub turned_up: Sparse<String>,
}

impl GameRecord {
    /// The record as one line of text: `game|rules|start|moves`, the start as
    /// `startpos:<seed>` or a position string, the moves as [`movetext`] (for a game without
    /// variations or notes, the moves separated by spaces); then, for a game with a recorded
    /// [`Ending`], `|<result> <why>` (`|0-1 resignation`).
    #[must_use]
    pub fn to_text(&self) -> String {
        let start = match &self.start {
            Start::Seed(seed) => format!("startpos:{seed}"),
            Start::Position(position) => position.clone(),
        };
        let moves =
            if self.has_notes() { movetext::write(&self.tree()) } else { self.moves.join(" ") };
        let mut text = format!("{}|{}|{start}|{moves}", self.kind.name(), self.rules);
        if let Some(ending) = self.ending {
            text.push('|');
            text.push_str(&ending.to_text());
        }
        text
    }

    /// Reads [`to_text`](GameRecord::to_text)'s form. `None` when the shape is wrong or the game
    /// unknown; the moves themselves are judged when the record is replayed.
    #[must_use]
    pub fn from_text(text: &str) -> Option<GameRecord> {
        const MAX_RECORD: usize = 64 * 1024;
        if text.len() > MAX_RECORD {
            return None;
        }
        let mut fields = text.splitn(5, '|');
        let (kind, _) = qi_rules::any::parse_variant(fields.next()?).ok()?;
        let rules = fields.next()?.to_owned();
        let start = match StartFrom::parse(fields.next()?).ok()? {
            StartFrom::Start { seed } => Start::Seed(seed),
            StartFrom::Position(position) => Start::Position(position.to_owned()),
        };
        let movetext = fields.next()?;
        // A tree that does not read keeps what it can as the main line: the replay then stops
        // at the first move that is not one, and says so.
        let tree = movetext::read(movetext).unwrap_or_else(|_| {
            Line::of_moves(
                movetext
                    .split_whitespace()
                    .take_while(|w| !w.contains(['(', ')', '{', '}', '[', ']', '$']))
                    .map(str::to_owned)
                    .collect(),
            )
        });
        let mut record = GameRecord::from_parts(kind, rules, start, Vec::new());
        record.put_tree(tree);
        record.keep_playable_variations();
        // An ending that does not read is dropped: the moves are what matters.
        record.ending = fields.next().and_then(Ending::from_text);
        Some(record)
    }
}

/// The start of a game of `kind` with default rules: always constructible.
fn unreachable_start(kind: GameKind) -> AnyGame {
    use qi_rules::Game;
    match kind {
        GameKind::Chess => {
            AnyGame::Chess(qi_rules::chess::ChessGame::start(&Default::default(), 0))
        }
        GameKind::Xiangqi => {
            AnyGame::Xiangqi(qi_rules::xiangqi::Xiangqi::start(&Default::default(), 0))
        }
        GameKind::Banqi => AnyGame::Banqi(qi_rules::banqi::Banqi::start(&Default::default(), 0)),
        GameKind::Gomoku => {
            AnyGame::Gomoku(qi_rules::gomoku::Gomoku::start(&Default::default(), 0))
        }
    }
}

/// Where the browser keeps the last game of `kind`, so a reload or a switch back goes on with it.
#[must_use]
pub fn storage_key(kind: GameKind) -> String {
    format!("qi.game.{}", kind.name())
}

pub use qi_rules::any::default_rules;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replay_rebuilds_the_game_and_its_notation() {
        let mut record = GameRecord::new(GameKind::Chess, "", 0);
        record.moves = ["e2e4", "e7e5", "g1f3"].map(String::from).to_vec();
        let replayed = record.replay(usize::MAX);
        assert!(replayed.error.is_none());
        assert_eq!(replayed.notations, ["e4", "e5", "Nf3"]);
        assert_eq!(record.replay(1).notations, ["e4"]);
    }

    #[test]
    fn a_bad_move_keeps_the_legal_prefix() {
        let mut record = GameRecord::new(GameKind::Xiangqi, "", 0);
        record.moves = ["h3e3", "h10g8", "e3e3", "h1g3"].map(String::from).to_vec();
        let prefix = record.replay(usize::MAX);
        assert_eq!(prefix.error.map(|e| e.ply), Some(2));
        assert_eq!(prefix.notations.len(), 2);
        let (start, moves) = record.main_line();
        assert_eq!(moves.len(), 2, "the main line's values stop at the bad move too");
        assert_eq!(start.position(), GameRecord::new(GameKind::Xiangqi, "", 0).start_game().position());
    }

    #[test]
    fn a_banqi_flip_is_notated_with_the_piece_it_turned_up() {
        let mut record = GameRecord::new(GameKind::Banqi, "", 42);
        record.moves = ["c3", "d2"].map(String::from).to_vec();
        record.edit_tree(|tree| {
            tree.add_move(&Path::main(1), "a1").unwrap();
        });
        let notated = record.notate_tree();
        // The square stays the notation, as in records; the piece is what the board shows there.
        assert_eq!(notated.notations, ["c3", "d2"]);
        let board = record.replay(2).game;
        for (i, square) in [(0, "c3"), (1, "d2")] {
            let cell = square.parse().unwrap();
            let shown = board.piece_code(cell).expect("face up");
            assert_ne!(shown, "?");
            assert_eq!(notated.turned_up.get(&i), Some(&shown), "{square}");
        }
        let mut after_first = record.replay(1).game;
        after_first.play("a1").unwrap();
        let variation = &notated.variations.get(&1).unwrap()[0];
        let a1 = after_first.piece_code("a1".parse().unwrap());
        assert_eq!(variation.turned_up.get(&0), a1.as_ref());
        // Moves that flip nothing turn nothing up, and other games have no such entries.
        let mut chess = GameRecord::new(GameKind::Chess, "", 0);
        chess.moves = vec!["e2e4".into()];
        assert!(chess.notate_tree().turned_up.is_empty());
    }

    #[test]
    fn records_read_back_from_text() {
        let mut record = GameRecord::new(GameKind::Banqi, "chain=true", 42);
        record.moves = ["c3", "d2"].map(String::from).to_vec();
        assert_eq!(GameRecord::from_text(&record.to_text()), Some(record));
        let positioned = GameRecord::from_parts(
            GameKind::Chess,
            String::new(),
            Start::Position("4k3/P7/8/8/8/8/8/4K3 w - - 0 1".into()),
            vec!["a7a8q".into()],
        );
        assert_eq!(GameRecord::from_text(&positioned.to_text()), Some(positioned));
        for winner in [Some(Side::First), Some(Side::Second), None] {
            for by in [EndedBy::Resignation, EndedBy::Time, EndedBy::Agreement, EndedBy::Recorded] {
                let mut ended = GameRecord::new(GameKind::Xiangqi, "", 0);
                ended.moves = vec!["h3e3".into()];
                ended.ending = Some(Ending { winner, by });
                let back = GameRecord::from_text(&ended.to_text()).expect("reads back");
                if (Ending { winner, by }).is_consistent() {
                    assert_eq!(back, ended);
                } else {
                    // "1/2-1/2 resignation", "1-0 agreement": nonsense, dropped.
                    assert_eq!((back.ending, back.moves), (None, ended.moves));
                }
            }
        }
        let mut odd = GameRecord::new(GameKind::Chess, "", 0);
        odd.moves = vec!["e2e4".into()];
        assert_eq!(GameRecord::from_text(&format!("{}|2-0 spite", odd.to_text())), Some(odd));
        let mut commented = GameRecord::new(GameKind::Gomoku, "", 0);
        commented.moves = ["h8", "i9", "j10"].map(String::from).to_vec();
        commented.comments.insert(2, "a reply".into());
        commented.comments.insert(3, "later".into());
        commented.ending = Some(Ending { winner: None, by: EndedBy::Agreement });
        commented.truncate(3);
        assert!(commented.ending.is_some(), "nothing was cut");
        commented.truncate(2);
        assert_eq!(commented.ending, None, "a game cut short goes on");
        assert_eq!(commented.moves.len(), 2);
        assert_eq!(commented.comments.keys().copied().collect::<Vec<_>>(), [2]);
        for bad in ["", "checkers|||", "chess", "chess|x", &"x".repeat(100_000)] {
            assert_eq!(GameRecord::from_text(bad), None, "{bad:.20}");
        }
    }

    #[test]
    fn the_move_tree_travels_in_the_text_and_a_link_adopts_it() {
        let mut saved = GameRecord::new(GameKind::Chess, "variant=standard", 77);
        saved.moves = ["e2e4", "e7e5"].map(String::from).to_vec();
        saved.edit_tree(|tree| {
            let sicilian = tree.add_move(&Path::main(1), "c7c5").unwrap();
            tree.set_comment(&sicilian, "sharp | double-edged");
            tree.toggle_mark(&sicilian, Mark(5));
        });
        let text = saved.to_text();
        assert_eq!(
            text,
            "chess|variant=standard|startpos:77|e2e4 e7e5 (c7c5 $5 {sharp %7C double-edged})"
        );
        assert_eq!(GameRecord::from_text(&text).as_ref(), Some(&saved));
        // A link brings the same moves from a start it writes without the seed.
        let mut linked = GameRecord::new(GameKind::Chess, "variant=standard", 0);
        linked.moves = saved.moves.clone();
        linked.adopt_notes(saved.clone());
        assert_eq!(linked.variations, saved.variations);
        // Another game, or one with notes of its own, keeps its own.
        let mut other = GameRecord::new(GameKind::Chess, "variant=standard", 0);
        other.moves = vec!["d2d4".into()];
        other.adopt_notes(saved.clone());
        assert!(!other.has_notes());
        // A damaged tree keeps its main line up to the damage.
        let damaged =
            GameRecord::from_text("chess|variant=standard|startpos:0|e2e4 e7e5 (c7c5").unwrap();
        assert_eq!(damaged.moves, ["e2e4", "e7e5"]);
        assert!(damaged.variations.is_empty());
    }

    #[test]
    fn variations_that_do_not_replay_are_cut_where_they_stop() {
        let moves = |list: &[&str]| list.iter().map(|m| (*m).to_owned()).collect::<Vec<_>>();
        let mut record = GameRecord::new(GameKind::Chess, "", 0);
        let mut tree = Line::of_moves(moves(&["e2e4", "e7e5", "g1f3"]));
        // 1... d5 2. e1e8?? (not a move) — and under it 1... c5, fine.
        let mut sicilian_inside = Line::of_moves(moves(&["d7d5", "e1e8", "d2d4"]));
        sicilian_inside.variations.insert(0, vec![Line::of_moves(moves(&["c7c5"]))]);
        sicilian_inside.variations.insert(1, vec![Line::of_moves(moves(&["a7a8"]))]);
        tree.variations.insert(1, vec![sicilian_inside, Line::of_moves(moves(&["h1h8"]))]);
        // An alternative past the main line's end, and one to a move that is not there.
        tree.variations.insert(7, vec![Line::of_moves(moves(&["a2a3"]))]);
        record.put_tree(tree);
        record.keep_playable_variations();
        let alternatives = &record.variations[&1];
        assert_eq!(alternatives.len(), 1, "the illegal one-move variation is gone");
        assert_eq!(alternatives[0].moves, ["d7d5"]);
        assert_eq!(alternatives[0].variations[&0][0].moves, ["c7c5"]);
        assert!(!alternatives[0].variations.contains_key(&1));
        assert_eq!(record.variations.keys().copied().collect::<Vec<_>>(), [1]);
        // Read from text (storage, a worker message), the same happens.
        let mut damaged = record.clone();
        damaged.variations.get_mut(&1).unwrap()[0].moves.push("e8e1".into());
        let read = GameRecord::from_text(&damaged.to_text()).unwrap();
        assert_eq!(read.variations[&1][0].moves, ["d7d5"]);
    }

    #[test]
    fn bad_rules_fall_back_to_defaults() {
        let record = GameRecord::new(GameKind::Gomoku, "size=99", 0);
        assert_eq!(record.start_game().board_size(), (15, 15));
    }

    /// Walking the record's tree in place answers as walking a copy of it does, for every
    /// path of random trees (and some it lacks).
    #[test]
    fn the_tree_is_walked_without_copying_it() {
        let mut seed = 7u64;
        let mut below = |bound: usize| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            usize::try_from(seed >> 33).unwrap_or(0) % bound
        };
        for _ in 0..30 {
            let mut record = GameRecord::new(GameKind::Gomoku, "", 0);
            let mut paths = vec![Path::main(0)];
            for _ in 0..40 {
                let from = paths[below(paths.len())].clone();
                let point = format!("{}{}", char::from(b'a' + below(15) as u8), 1 + below(15));
                if let Some(path) = record.edit_tree(|tree| tree.add_move(&from, &point)) {
                    paths.push(path);
                }
            }
            let tree = record.tree();
            let mut probes = paths.clone();
            probes.push(Path { branches: vec![crate::tree::Branch { at: 0, index: 9 }], ply: 1 });
            probes.push(Path::main(record.moves.len() + 1));
            for path in &probes {
                assert_eq!(record.contains(path), tree.contains(path), "{path:?}");
                assert_eq!(record.next(path), tree.next(path), "{path:?}");
                assert_eq!(record.previous(path), tree.previous(path), "{path:?}");
                assert_eq!(record.end_of_line(path), tree.end_of_line(path), "{path:?}");
                assert_eq!(record.moves_to(path), tree.moves_to(path), "{path:?}");
            }
            assert!(paths.iter().any(|p| !p.is_main_line()), "no variations");
        }
    }
}
