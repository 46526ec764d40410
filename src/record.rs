//! A whole game as a value: which game, its rule options, where it started and every move. This
//! is what storage keeps now, and what links and the server carry later.

use std::collections::BTreeMap;

use qi_rules::any::{AnyGame, StartFrom};
use qi_rules::{GameKind, MoveError, RuleSet};

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
    /// Every move, in coordinate notation.
    pub moves: Vec<String>,
    /// Header tags of an imported record (`Event`, `White`, `Date`, ...), in their order, kept so
    /// that exporting gives them back. The tags that describe the game itself (`FEN`,
    /// `Variant`, `SetUp`, `Result`) are not kept here: they follow from the game.
    pub tags: Vec<(String, String)>,
    /// Comments by ply: the comment at `n` follows the `n`-th move (0: before the first move).
    pub comments: BTreeMap<usize, String>,
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
        GameRecord { kind, rules, start, moves, tags: Vec::new(), comments: BTreeMap::new() }
    }

    /// Keeps the first `plies` moves, and the comments up to them.
    pub fn truncate(&mut self, plies: usize) {
        self.moves.truncate(plies);
        self.comments.retain(|&ply, _| ply <= plies);
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

impl GameRecord {
    /// The record as one line of text: `game|rules|start|moves`, the start as
    /// `startpos:<seed>` or a position string, the moves separated by spaces.
    #[must_use]
    pub fn to_text(&self) -> String {
        let start = match &self.start {
            Start::Seed(seed) => format!("startpos:{seed}"),
            Start::Position(position) => position.clone(),
        };
        format!("{}|{}|{start}|{}", self.kind.name(), self.rules, self.moves.join(" "))
    }

    /// Reads [`to_text`](GameRecord::to_text)'s form. `None` when the shape is wrong or the game
    /// unknown; the moves themselves are judged when the record is replayed.
    #[must_use]
    pub fn from_text(text: &str) -> Option<GameRecord> {
        const MAX_RECORD: usize = 64 * 1024;
        if text.len() > MAX_RECORD {
            return None;
        }
        let mut fields = text.splitn(4, '|');
        let (kind, _) = qi_rules::any::parse_variant(fields.next()?).ok()?;
        let rules = fields.next()?.to_owned();
        let start = match StartFrom::parse(fields.next()?).ok()? {
            StartFrom::Start { seed } => Start::Seed(seed),
            StartFrom::Position(position) => Start::Position(position.to_owned()),
        };
        let moves = fields.next()?.split_whitespace().map(str::to_owned).collect();
        Some(GameRecord::from_parts(kind, rules, start, moves))
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

/// The default rule list of a game, written out in full.
#[must_use]
pub fn default_rules(kind: GameKind) -> String {
    match kind {
        GameKind::Chess => qi_rules::chess::ChessRules::default().to_list(),
        GameKind::Xiangqi => qi_rules::xiangqi::XiangqiRules::default().to_list(),
        GameKind::Banqi => qi_rules::banqi::BanqiRules::default().to_list(),
        GameKind::Gomoku => qi_rules::gomoku::GomokuRules::default().to_list(),
    }
}

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
        let mut commented = GameRecord::new(GameKind::Gomoku, "", 0);
        commented.moves = ["h8", "i9", "j10"].map(String::from).to_vec();
        commented.comments.insert(2, "a reply".into());
        commented.comments.insert(3, "later".into());
        commented.truncate(2);
        assert_eq!(commented.moves.len(), 2);
        assert_eq!(commented.comments.keys().copied().collect::<Vec<_>>(), [2]);
        for bad in ["", "checkers|||", "chess", "chess|x", &"x".repeat(100_000)] {
            assert_eq!(GameRecord::from_text(bad), None, "{bad:.20}");
        }
    }

    #[test]
    fn bad_rules_fall_back_to_defaults() {
        let record = GameRecord::new(GameKind::Gomoku, "size=99", 0);
        assert_eq!(record.start_game().board_size(), (15, 15));
    }
}
