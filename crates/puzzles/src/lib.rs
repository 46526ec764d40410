//! Puzzles for Qi's four games, found in games: a position where one side has just gone wrong,
//! and the one line that punishes it.
//!
//! **The judge** ([`Judge::judge`]) takes a position and the move that sets the task (in a game,
//! the opponent's mistake) and searches the solver's side deeply with two lines (MultiPV 2).
//! A puzzle is kept only where each of the solver's moves is the only good one — lichess's rule
//! (`lichess-puzzler`'s generator), with its thresholds on the winning chances of
//! [`qi_ai::review::chance`]:
//!
//! - **a mate**: the best move mates (in at most [`Settings::max_mate`] moves) and the second
//!   best neither mates nor comes within [`Settings::margin`] points of a sure win; the mating
//!   move itself may have rivals (any mate on the spot is accepted while solving, as lichess
//!   accepts any mate in one). Each move of the mate must be the only one, or the puzzle is
//!   refused.
//! - **an advantage**: the best move leaves the solver at least [`Settings::winning`] percent
//!   to win and the second best at least [`Settings::margin`] points less. The line goes on
//!   while the solver's next move is the only good one and ends on the solver's last such move.
//! - **holding the draw** (xiangqi, [`Settings::hold`]): the best move keeps the solver's
//!   chance between 40% and 60%, the second best is at least [`Settings::margin`] points
//!   worse, and it loses (leaves the other side [`Settings::winning`] percent or more); the
//!   line goes on as an advantage's does, while each move still holds.
//!
//! The defender's replies are the engine's best. Every search goes to a fixed depth
//! ([`Settings::depth`]), so the same candidate gives the same verdict on any machine. The
//! thresholds by game ([`Settings::of`]): 21 points (lichess-puzzler's `is_valid_attack` today:
//! 0.42 on its −1…1 scale; it was 0.7 once) and a 70% win for chess, xiangqi and banqi; gomoku puzzles must be forced wins of at least two
//! moves (its chance curve is a first guess, a five-in-a-row puzzle without a forced win has no
//! clear answer, and completing a four is no task). A
//! banqi puzzle's position has no face-down piece: a flip's outcome is chance, and a puzzle
//! must not depend on it.
//!
//! **Where candidates come from**: [`mine`] plays games between engines that make mistakes and
//! hands the judge each position where one was made; records from elsewhere go through
//! [`mine::mistakes_in`] too.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod difficulty;
pub mod mine;
pub mod themes;

use std::fmt;
use std::sync::atomic::AtomicBool;

use qi_ai::review::chance;
use qi_ai::{AnyEngine, LevelSettings, Limits, Score};
use qi_play::puzzle::{Puzzle, PuzzleError, PuzzleId, Theme};
use qi_rules::GameKind;
use qi_rules::any::{AnyGame, AnyMove};

/// The judge's settings for one game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// Plies each search goes to.
    pub depth: u32,
    /// How many percentage points of winning chance the best move must lead the second best by.
    pub margin: f64,
    /// The winning chance (percent) the best move must leave the solver for an advantage puzzle.
    pub winning: f64,
    /// Whether an advantage (not a forced win) may make a puzzle.
    pub advantage: bool,
    /// The longest mate kept, in the solver's moves.
    pub max_mate: u8,
    /// The shortest mate kept (gomoku 2: completing an open four is no puzzle).
    pub min_mate: u8,
    /// The most solver moves in an advantage puzzle.
    pub max_solver_moves: usize,
    /// The band of winning chances (percent) that counts as holding the draw, when a puzzle
    /// may ask for it (xiangqi's composition tradition: the only move that saves the game);
    /// `None` where it may not.
    pub hold: Option<(f64, f64)>,
    /// The most nodes one of the judge's searches may visit; a candidate whose search would
    /// need more is refused ([`Rejection::TooComplex`]) rather than judged on half a search.
    /// `None`: no cap.
    pub max_nodes: Option<u64>,
}

impl Settings {
    /// The thresholds for `kind` (see the crate documentation).
    #[must_use]
    pub const fn of(kind: GameKind) -> Settings {
        let depth = match kind {
            GameKind::Chess => 12,
            GameKind::Xiangqi => 11,
            GameKind::Banqi => 8,
            GameKind::Gomoku => 10,
        };
        Settings {
            depth,
            margin: 21.0,
            winning: 70.0,
            advantage: !matches!(kind, GameKind::Gomoku),
            // Renju problems' VCFs run long; a chess mate past five is a study, not a puzzle.
            max_mate: if matches!(kind, GameKind::Gomoku) { 8 } else { 5 },
            min_mate: if matches!(kind, GameKind::Gomoku) { 2 } else { 1 },
            max_solver_moves: 4,
            // Qi's xiangqi engine scores a held position near 0 (a 50% chance); every other
            // move must then lose (leave the other side 70% or more).
            hold: if matches!(kind, GameKind::Xiangqi) { Some((40.0, 60.0)) } else { None },
            // Crowded banqi positions can need tens of millions of nodes at depth 8 (cannons
            // that take over any screen keep the capture search going); the others' searches
            // stay within reach.
            max_nodes: if matches!(kind, GameKind::Banqi) { Some(3_000_000) } else { None },
        }
    }
}

/// What the puzzle asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// Mate (in gomoku, a five) in this many of the solver's moves.
    Mate(u8),
    /// Win material or position: a clear advantage at the end.
    Advantage,
    /// Hold the draw: the only move that saves a position that every other move loses.
    Hold,
}

/// A puzzle the judge kept.
#[derive(Clone, Debug)]
pub struct Found {
    /// The game before the move that sets the task.
    pub before: AnyGame,
    /// That move, then the solution (ending on the solver's move).
    pub moves: Vec<AnyMove>,
    /// What it asks.
    pub goal: Goal,
    /// The solver's score at the last move of the line.
    pub final_score: Score,
    /// The shallowest depth from which the engine kept the first answer as its choice: how
    /// deep one must look to find it (see [`difficulty`]).
    pub found_at_depth: u32,
}

impl Found {
    /// The puzzle this is, with its id (from its game, position and moves), its starting
    /// rating ([`difficulty`]) and the themes its line shows: mate and its length, or an
    /// advantage (`crushing` when the solver ends with 90% or more), and the line's length.
    /// `game_url` is where it came from.
    ///
    /// # Errors
    /// The [`PuzzleError`] of a line the file cannot hold (none of the judge's lines: each is
    /// legal, ends on the solver's move and is at most a mate in 8).
    pub fn puzzle(&self, game_url: &str) -> Result<Puzzle, PuzzleError> {
        let position = self.before.position();
        let texts = self.move_texts();
        let id = PuzzleId::derive(self.before.rules().variant(), &position, &texts);
        let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
        let mut puzzle = Puzzle::new(id, self.before.rules(), &position, &texts)?;
        puzzle.rating = difficulty::rating(self);
        puzzle.deviation = difficulty::DEVIATION;
        let solver_moves = puzzle.solver_moves();
        match self.goal {
            Goal::Mate(_) => {
                puzzle.themes.push(Theme::Mate);
                if let Ok(n) = u8::try_from(solver_moves)
                    && (1..=5).contains(&n)
                {
                    puzzle.themes.push(Theme::MateIn(n));
                }
            }
            Goal::Advantage => {
                let crushing = chance(self.before.kind(), self.final_score) >= 90.0;
                puzzle.themes.push(if crushing { Theme::Crushing } else { Theme::Advantage });
            }
            Goal::Hold => puzzle.themes.push(Theme::Equality),
        }
        puzzle.themes.extend(themes::tag(&self.before, &self.moves));
        puzzle.themes.push(match solver_moves {
            1 => Theme::OneMove,
            2 => Theme::Short,
            3 => Theme::Long,
            _ => Theme::VeryLong,
        });
        puzzle.game_url = game_url.chars().take(qi_play::puzzle::MAX_TEXT).collect();
        Ok(puzzle)
    }

    /// The line's moves in coordinates.
    #[must_use]
    pub fn move_texts(&self) -> Vec<String> {
        qi_play::puzzle::move_texts(&self.before, &self.moves)
    }
}

/// Why a candidate is not a puzzle.
#[derive(Clone, Debug, PartialEq)]
pub enum Rejection {
    /// The move that sets the task is illegal, or the game is over after it.
    NoTask(String),
    /// A banqi position with a face-down piece.
    HiddenPieces,
    /// The solver's best is not a clear win.
    NotWinning {
        /// The best score.
        best: Score,
    },
    /// The solver has two good answers at the first move.
    TwoGoodAnswers {
        /// The best move's score.
        best: Score,
        /// The second best's.
        second: Score,
    },
    /// A later move of a mate has a rival.
    MateNotUnique {
        /// Which solver move (from 1).
        solver_move: usize,
    },
    /// A mate longer than [`Settings::max_mate`].
    TooLong,
    /// A mate shorter than [`Settings::min_mate`].
    TooShort,
    /// A search would need more than [`Settings::max_nodes`].
    TooComplex,
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rejection::NoTask(why) => write!(f, "no task: {why}"),
            Rejection::HiddenPieces => f.write_str("a face-down piece is on the board"),
            Rejection::NotWinning { best } => {
                write!(f, "the best answer is no clear win ({best:?})")
            }
            Rejection::TwoGoodAnswers { best, second } => {
                write!(f, "two good answers ({best:?} and {second:?})")
            }
            Rejection::MateNotUnique { solver_move } => {
                write!(f, "the mate's move {solver_move} has a rival")
            }
            Rejection::TooLong => f.write_str("the mate is too long"),
            Rejection::TooShort => f.write_str("the mate is too short"),
            Rejection::TooComplex => f.write_str("too many positions to search"),
        }
    }
}

/// Whether `best` is the only good move when `second` is the next best, by `settings` (see the
/// crate documentation): a mate on the spot always is (any mate is right there); otherwise the
/// second best must not mate and must trail by [`Settings::margin`] points of winning chance.
#[must_use]
pub fn only_move(kind: GameKind, settings: &Settings, best: Score, second: Option<Score>) -> bool {
    let Some(second) = second else { return true };
    if best == Score::Mate(1) {
        return true;
    }
    if matches!(second, Score::Mate(n) if n > 0) {
        return false;
    }
    chance(kind, best) - chance(kind, second) >= settings.margin
}

/// How far short of [`Settings::winning`] (points) the glance at two thirds of the depth may
/// see the best move and still pass the candidate to the full search (a deeper look often
/// finds more).
pub const GLANCE_SLACK: f64 = 17.5;

/// Searches candidates and keeps the puzzles (see the crate documentation).
pub struct Judge<'a> {
    engine: AnyEngine,
    now: &'a dyn Fn() -> f64,
    stop: &'a AtomicBool,
    /// The thresholds.
    pub settings: Settings,
}

/// The lines of one search and the depth from which its best move stayed best.
struct Analysis {
    lines: Vec<qi_ai::Line<AnyMove>>,
    stable_from: u32,
}

impl<'a> Judge<'a> {
    /// A judge for `kind` with its default [`Settings`]; `now` gives milliseconds, `stop`
    /// ends a search early (then the verdict stands on what was searched).
    #[must_use]
    pub fn new(kind: GameKind, now: &'a dyn Fn() -> f64, stop: &'a AtomicBool) -> Judge<'a> {
        Judge { engine: AnyEngine::default(), now, stop, settings: Settings::of(kind) }
    }

    fn analyse(&mut self, game: &AnyGame, lines: usize) -> Result<Analysis, Rejection> {
        self.analyse_to(game, lines, self.settings.depth)
    }

    /// The search of `game` to `depth` with `lines` lines; refused when it would visit more
    /// than [`Settings::max_nodes`].
    fn analyse_to(
        &mut self,
        game: &AnyGame,
        lines: usize,
        depth: u32,
    ) -> Result<Analysis, Rejection> {
        let limits =
            Limits { depth: Some(depth), nodes: self.settings.max_nodes, ..Limits::default() };
        let mut bests: Vec<(u32, Option<AnyMove>)> = Vec::new();
        let result = self.engine.search_lines_with(
            game,
            LevelSettings::full_strength(limits),
            lines,
            self.now,
            self.stop,
            0,
            &mut |info| bests.push((info.depth, info.pv.first().copied())),
        );
        let best = result.best;
        let stable_from = bests
            .iter()
            .rev()
            .take_while(|(_, mv)| *mv == best)
            .last()
            .map_or(self.settings.depth, |(depth, _)| *depth);
        if self.settings.max_nodes.is_some_and(|cap| result.info.nodes >= cap) {
            return Err(Rejection::TooComplex);
        }
        Ok(Analysis { lines: result.info.lines, stable_from })
    }

    /// Judges the task that `first` sets in `before` (see the crate documentation).
    ///
    /// # Errors
    /// The [`Rejection`] that ruled it out.
    pub fn judge(&mut self, before: &AnyGame, first: AnyMove) -> Result<Found, Rejection> {
        self.judge_line(before, first)
    }

    /// Whether `score` holds the draw (within the hold band, widened by `slack` points each
    /// way), where this game's puzzles may ask for that.
    fn holds(&self, kind: GameKind, score: Score, slack: f64) -> bool {
        let Some((low, high)) = self.settings.hold else { return false };
        !matches!(score, Score::Mate(_))
            && (low - slack..=high + slack).contains(&chance(kind, score))
    }

    fn judge_line(&mut self, before: &AnyGame, first: AnyMove) -> Result<Found, Rejection> {
        let kind = before.kind();
        if kind == GameKind::Banqi && before.position().contains(['*', '?']) {
            return Err(Rejection::HiddenPieces);
        }
        let mut game = before.clone();
        game.apply(first).map_err(|e| Rejection::NoTask(e.to_string()))?;
        if game.outcome().is_some() {
            return Err(Rejection::NoTask("the game is over".into()));
        }
        // Each candidate from a clean slate, so a verdict does not depend on the ones before.
        self.engine.new_game();
        let mut moves = vec![first];
        let mut goal = None;
        let mut found_at_depth = self.settings.depth;
        let mut final_score = Score::Cp(0);
        // Most candidates have two good answers, or no clear win, plain at two thirds of the
        // depth: those are turned away there (two answers within half the margin, a best move
        // more than GLANCE_SLACK short of a win), so a close call still gets the full search.
        let glance = self.analyse_to(&game, 2, self.settings.depth * 2 / 3)?;
        if let Some(best) = glance.lines.first()
            && self.settings.advantage
            && !matches!(best.score, Score::Mate(n) if n > 0)
            && chance(kind, best.score) < self.settings.winning - GLANCE_SLACK
            && !self.holds(kind, best.score, 10.0)
        {
            return Err(Rejection::NotWinning { best: best.score });
        }
        if let [best, second, ..] = glance.lines.as_slice()
            && !matches!(best.score, Score::Mate(_))
            && !matches!(second.score, Score::Mate(_))
            && chance(kind, best.score) - chance(kind, second.score) < self.settings.margin / 2.0
        {
            return Err(Rejection::TwoGoodAnswers { best: best.score, second: second.score });
        }
        loop {
            let analysis = self.analyse(&game, 2)?;
            let Some(best) = analysis.lines.first().cloned() else { break };
            let second = analysis.lines.get(1).map(|line| line.score);
            let unique = only_move(kind, &self.settings, best.score, second);
            // Holding the draw asks more of the rest: every other move loses (leaves the other
            // side its winning chance), not only trails.
            let others_lose = second.is_none_or(|second| {
                !matches!(second, Score::Mate(n) if n > 0)
                    && chance(kind, second) <= 100.0 - self.settings.winning
            });
            let solver_move = moves.len().div_ceil(2);
            match goal {
                None => {
                    goal = Some(match best.score {
                        Score::Mate(n) if n > 0 && n < i32::from(self.settings.min_mate) => {
                            return Err(Rejection::TooShort);
                        }
                        Score::Mate(n) if n > 0 && n <= i32::from(self.settings.max_mate) => {
                            Goal::Mate(n as u8)
                        }
                        Score::Mate(n) if n > 0 => return Err(Rejection::TooLong),
                        score
                            if self.settings.advantage
                                && chance(kind, score) >= self.settings.winning =>
                        {
                            Goal::Advantage
                        }
                        score if self.holds(kind, score, 0.0) => Goal::Hold,
                        score => return Err(Rejection::NotWinning { best: score }),
                    });
                    if !unique || (goal == Some(Goal::Hold) && !others_lose) {
                        let second = second.unwrap_or(Score::Cp(0));
                        return Err(Rejection::TwoGoodAnswers { best: best.score, second });
                    }
                    found_at_depth = analysis.stable_from;
                }
                Some(Goal::Mate(_)) if !unique => {
                    return Err(Rejection::MateNotUnique { solver_move });
                }
                Some(Goal::Mate(_)) if solver_move > usize::from(self.settings.max_mate) => {
                    return Err(Rejection::TooLong);
                }
                Some(Goal::Advantage)
                    if !unique || chance(kind, best.score) < self.settings.winning =>
                {
                    // The line ends on the solver's last only move: drop the reply after it.
                    moves.pop();
                    break;
                }
                Some(Goal::Hold)
                    if !unique || !others_lose || !self.holds(kind, best.score, 0.0) =>
                {
                    // The line ends on the solver's last only move: drop the reply after it.
                    moves.pop();
                    break;
                }
                Some(_) => {}
            }
            let Some(&answer) = best.pv.first() else { break };
            final_score = best.score;
            game.apply(answer).map_err(|e| Rejection::NoTask(e.to_string()))?;
            moves.push(answer);
            if game.outcome().is_some() {
                break;
            }
            if let Some(Goal::Advantage | Goal::Hold) = goal
                && solver_move >= self.settings.max_solver_moves
            {
                break;
            }
            let reply = self.analyse(&game, 1)?;
            let Some(&reply) = reply.lines.first().and_then(|line| line.pv.first()) else { break };
            game.apply(reply).map_err(|e| Rejection::NoTask(e.to_string()))?;
            moves.push(reply);
            if game.outcome().is_some() {
                // The reply ended the game (a draw the rules declare): the line ends before it.
                break;
            }
        }
        let goal = goal.ok_or_else(|| Rejection::NoTask("no move to answer with".into()))?;
        let solver = before.side_to_move().other();
        if let Goal::Mate(_) = goal
            && game.outcome().is_none_or(|outcome| outcome.winner != Some(solver))
        {
            // The search's mate did not come about within the line (a mate past the horizon of
            // a later search, a draw on the way): not a puzzle to trust.
            return Err(Rejection::MateNotUnique { solver_move: moves.len() / 2 });
        }
        if moves.len() % 2 == 1 {
            // Ended on the defender's move (its reply ended the game, or no search answered):
            // the line ends on the solver's move before it.
            moves.pop();
        }
        if moves.len() < 2 {
            return Err(Rejection::NoTask("no move to answer with".into()));
        }
        Ok(Found { before: before.clone(), moves, goal, final_score, found_at_depth })
    }
}

/// Puzzles for `player` from a game they played: each position where they let a win go (see
/// [`mine::missed_wins`]) that the judge finds an only answer in, the opponent's move before it
/// setting the task ("Puzzles from this game").
pub fn from_own_game(
    judge: &mut Judge<'_>,
    start: &AnyGame,
    moves: &[AnyMove],
    player: qi_rules::Side,
) -> Vec<Found> {
    let mut engine = AnyEngine::default();
    let missed = mine::missed_wins(start, moves, player, &mut engine, judge.now, judge.stop);
    let mut found: Vec<Found> = Vec::new();
    for ply in missed.into_iter().filter(|&ply| ply > 0) {
        let mut before = start.clone();
        for &mv in &moves[..ply - 1] {
            let _ = before.apply(mv);
        }
        if let Ok(puzzle) = judge.judge(&before, moves[ply - 1]) {
            found.push(puzzle);
        }
    }
    found
}

#[cfg(test)]
mod tests;
