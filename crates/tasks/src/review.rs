//! A game review: every position of the main line analysed, one after the other, with a fixed
//! budget; each move judged by the winning chances it lost (see `qi_ai::review`), an accuracy
//! per player, and the first player's chances for the evaluation graph.
//!
//! A move the first pass calls a mistake or a blunder is checked before it is marked. Two
//! searches of a few hundred milliseconds each, one before the move and one after it, disagree
//! by more than a mistake's worth often enough: the second one starts a ply deeper and sees what
//! the first missed, or the first ran out of time in the middle of a capture sequence. So the
//! review searches the two positions the move decided between, the one the played move made and
//! the one the engine's choice would have made, each for longer ([`CHECK_BUDGET_MS`]), and
//! judges the move by the difference between those two: the same budget from the same ply, so
//! their errors mostly cancel (not entirely: the worker's engine keeps its table, and the
//! position the move made was searched in the first pass just before, so it starts a little
//! deeper). A move whose check finds it as good as the engine's choice is not
//! marked. When the move played was the engine's own first choice, there is no other move to
//! compare it with, and the drop is the engine changing its mind: the position before the move
//! is searched again for the longer time instead, and the move judged from that. A move that
//! was the only legal one is never marked. Banqi's moves are not checked: a flip's value is the
//! luck of what it turns up.
//!
//! The review is a plan of searches, not their runner: [`Review::next_job`] says which search is
//! due, [`Review::request`] makes it an [`AnalyseRequest`], and [`Review::record`] takes the
//! answer. The page runs the jobs in its Web Worker, one at a time so the review can be
//! cancelled between two; `qi review` runs them natively (`review_game` in crates/worker).

use qi_ai::Score;
use qi_ai::review::{Judgement, MoveReview, accuracy, first_player_chance, judge};
use qi_play::Mark;
use qi_play::record::GameRecord;
use qi_rules::any::AnyMove;
use qi_rules::{GameKind, Side};

use crate::think::{AnalyseRequest, Analysis};

/// Milliseconds of search for each position in the first pass. With the checks, a 40-move chess
/// game (81 positions, about ten moves checked) takes about 25 s: e2e/bench/bench-review.mjs holds it to
/// its goal of 30 s, which is what set both budgets.
pub const REVIEW_BUDGET_MS: u32 = 250;

/// Milliseconds of search for each of the two positions a move is checked by.
pub const CHECK_BUDGET_MS: u32 = 350;

/// How long a review searches: each position of the first pass, and each of a check's two.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budgets {
    /// Milliseconds for each position of the first pass.
    pub position_ms: u32,
    /// Milliseconds for each position a move is checked by.
    pub check_ms: u32,
}

impl Default for Budgets {
    fn default() -> Budgets {
        Budgets { position_ms: REVIEW_BUDGET_MS, check_ms: CHECK_BUDGET_MS }
    }
}

/// The engine's view of one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Evaluation {
    /// The score for the side to move there.
    pub score: Score,
    /// The engine's first choice there (none when the game is over).
    pub best: Option<AnyMove>,
}

impl Evaluation {
    /// The evaluation an analysis gives (its best line's score and first move); `None` when
    /// it has no line.
    #[must_use]
    pub fn of(analysis: Analysis) -> Option<Evaluation> {
        let line = analysis.lines.into_iter().next()?;
        Some(Evaluation { score: line.score, best: line.moves.into_iter().next() })
    }
}

/// One search a review wants.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Job {
    /// The first pass: the position after this many moves of the main line.
    Position(usize),
    /// A check of the move with this index (0 the first move): the position it made, or the
    /// one the engine's choice would have made.
    Check {
        /// The move checked.
        index: usize,
        /// Which of the two positions.
        child: Child,
    },
}

impl Job {
    /// A number for the job, different for each job of a review.
    #[must_use]
    pub fn number(self) -> u64 {
        let (index, offset) = match self {
            Job::Position(index) => (index, 0),
            Job::Check { index, child: Child::Played } => (index, 1),
            Job::Check { index, child: Child::EngineChoice } => (index, 2),
        };
        index as u64 * 3 + offset
    }
}

/// The two positions a move is checked by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Child {
    /// After the move played.
    Played,
    /// After the engine's first choice instead; or, when the move played was that choice, the
    /// position before the move, searched again.
    EngineChoice,
}

/// The check of one move: what it is compared with, and the longer searches' scores as they
/// come.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Check {
    /// The engine's first choice in the position the move was played in, when it was not the
    /// move played; `None` when it was (the position before the move is searched again).
    pub engine_choice: Option<AnyMove>,
    /// The score after the move played (for the side to move then, the opponent).
    pub played: Option<Score>,
    /// The score after the engine's choice (for the opponent), or, without one, of the position
    /// before the move (for the mover).
    pub engine: Option<Score>,
}

impl Check {
    fn done(&self) -> bool {
        self.played.is_some() && self.engine.is_some()
    }
}

/// A review under way or done.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Review {
    /// Tells this review from earlier ones (answers to a cancelled review are dropped).
    pub id: u64,
    /// The game.
    pub kind: GameKind,
    /// The main line reviewed, as the record writes it.
    pub moves: Vec<String>,
    /// The same moves as values, to compare with the engine's choices.
    played: Vec<AnyMove>,
    /// The side to move in each position (one more than the moves).
    pub sides: Vec<Side>,
    /// The evaluations so far, in order: the `n`-th is of the position after `n` moves.
    pub evaluations: Vec<Evaluation>,
    /// The checks, by move index: only for the moves the first pass called a mistake or worse.
    pub checks: Vec<Option<Check>>,
    /// Whether each move was the only legal one in its position (never marked).
    pub forced: Vec<bool>,
    /// Whether it was cancelled before the end.
    pub cancelled: bool,
    /// How long each search is.
    pub budgets: Budgets,
    /// The game's rules and start, for the positions' requests.
    record: GameRecord,
}

/// One player's figures.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct PlayerSummary {
    /// How many of their moves got each judgement, in [`Judgement::ALL`]'s order.
    pub counts: [usize; 5],
    /// Their accuracy, 0–100, when they moved at all.
    pub accuracy: Option<f64>,
}

/// A position's score for the side that moved into it: the score of the position after a move,
/// as the value of that move in the position before. A loss in `n` for the side to move after it
/// (0: it is mated there) is a win in `n + 1` for the mover; a win in `n` for them, a loss in `n`.
fn for_the_other_side(score: Score) -> Score {
    match score {
        Score::Cp(cp) => Score::Cp(-cp),
        Score::Mate(n) if n <= 0 => Score::Mate(1 - n),
        Score::Mate(n) => Score::Mate(-n),
    }
}

impl Review {
    /// A review of `record`'s main line; `None` when a move of it does not replay.
    #[must_use]
    pub fn of(id: u64, record: &GameRecord) -> Option<Review> {
        let mut game = record.start_game();
        let mut sides = vec![game.side_to_move()];
        let mut forced = Vec::with_capacity(record.moves.len());
        let mut played = Vec::with_capacity(record.moves.len());
        for text in &record.moves {
            forced.push(game.legal_move_values().len() == 1);
            let mv = game.read_move(text).ok()?;
            game.apply(mv).ok()?;
            played.push(mv);
            sides.push(game.side_to_move());
        }
        let mut record = GameRecord::from_parts(
            record.kind,
            record.rules.clone(),
            record.start.clone(),
            record.moves.clone(),
        );
        record.ending = None;
        Some(Review {
            id,
            kind: record.kind,
            moves: record.moves.clone(),
            played,
            checks: vec![None; record.moves.len()],
            forced,
            sides,
            evaluations: Vec::new(),
            cancelled: false,
            budgets: Budgets::default(),
            record,
        })
    }

    /// How many positions the first pass analyses.
    #[must_use]
    pub fn positions(&self) -> usize {
        self.moves.len() + 1
    }

    /// The search due next: a check of a move already judged (in the order of the moves), else
    /// the first pass's next position; `None` when the review is done or cancelled.
    #[must_use]
    pub fn next_job(&self) -> Option<Job> {
        if self.cancelled {
            return None;
        }
        let check = self.checks.iter().enumerate().find_map(|(index, check)| {
            let check = check.as_ref()?;
            let child = if check.played.is_none() {
                Child::Played
            } else if check.engine.is_none() {
                Child::EngineChoice
            } else {
                return None;
            };
            Some(Job::Check { index, child })
        });
        check.or_else(|| {
            (self.evaluations.len() < self.positions())
                .then_some(Job::Position(self.evaluations.len()))
        })
    }

    /// The analysis request for `job`; its id tells it from every other request of this and
    /// other reviews (so a late reply can't be taken for another's).
    #[must_use]
    pub fn request(&self, job: Job) -> Option<AnalyseRequest> {
        let request_id = (self.id << 32) | (job.number() & 0xFFFF_FFFF);
        let (moves, budget_ms) = match job {
            Job::Position(index) => (self.moves.get(..index)?.to_vec(), self.budgets.position_ms),
            Job::Check { index, child: Child::Played } => {
                (self.moves.get(..=index)?.to_vec(), self.budgets.check_ms)
            }
            Job::Check { index, child: Child::EngineChoice } => {
                let check = self.checks.get(index)?.as_ref()?;
                let mut moves = self.moves.get(..index)?.to_vec();
                // Into the request's record, which holds moves as records write them.
                moves.extend(check.engine_choice.map(|choice| choice.to_string()));
                (moves, self.budgets.check_ms)
            }
        };
        let mut record = self.record.clone();
        record.moves = moves;
        Some(AnalyseRequest { id: request_id, budget_ms, lines: 1, record })
    }

    /// Whether every search is done.
    #[must_use]
    pub fn finished(&self) -> bool {
        self.evaluations.len() >= self.positions() && self.checks.iter().flatten().all(Check::done)
    }

    /// Whether the engine is still at work on it.
    #[must_use]
    pub fn running(&self) -> bool {
        !self.finished() && !self.cancelled
    }

    /// How far it has come, 0–100 (checks count as they are found, so it may pause on a
    /// number while a move is checked).
    #[must_use]
    pub fn progress_percent(&self) -> u32 {
        let checks = self.checks.iter().flatten();
        let wanted = self.positions() + 2 * checks.clone().count();
        let done = self.evaluations.len()
            + checks
                .map(|c| usize::from(c.played.is_some()) + usize::from(c.engine.is_some()))
                .sum::<usize>();
        (done * 100 / wanted.max(1)) as u32
    }

    /// The rules' verdict on the position `moves` lead to, when the game is over there: a loss
    /// for the side to move (`Mate(0)`) or a draw. The engines score some finished positions
    /// as level (a xiangqi mate, a gomoku five), which would make the winning move look like a
    /// blunder.
    fn decided(&self, moves: &[String]) -> Option<Score> {
        let mut game = self.record.start_game();
        for text in moves {
            game.play(text).ok()?;
        }
        let outcome = game.outcome()?;
        Some(match outcome.winner {
            Some(winner) if winner == game.side_to_move() => Score::Mate(1),
            Some(_) => Score::Mate(0),
            None => Score::Cp(0),
        })
    }

    /// Takes the answer to `job`, if that search is still wanted. A first-pass answer that
    /// makes the move before it look like a mistake or worse schedules that move's check. A
    /// finished position's score is the rules' verdict, whatever the engine said.
    pub fn record(&mut self, job: Job, mut evaluation: Evaluation) {
        if !self.running() {
            return;
        }
        if let Some(request) = self.request(job)
            && let Some(verdict) = self.decided(&request.record.moves)
        {
            evaluation.score = verdict;
        }
        match job {
            Job::Position(index) if index == self.evaluations.len() => {
                self.evaluations.push(evaluation);
                if let Some(moved) = index.checked_sub(1) {
                    self.schedule_check(moved);
                }
            }
            Job::Position(_) => {}
            Job::Check { index, child } => {
                let Some(Some(check)) = self.checks.get_mut(index) else { return };
                let slot = match child {
                    Child::Played => &mut check.played,
                    Child::EngineChoice => &mut check.engine,
                };
                slot.get_or_insert(evaluation.score);
            }
        }
    }

    fn schedule_check(&mut self, index: usize) {
        if self.kind == GameKind::Banqi {
            return;
        }
        let Some(first_pass) = self.first_pass_judgement(index) else { return };
        if first_pass.judgement < Judgement::Mistake {
            return;
        }
        let best = self.evaluations[index].best;
        let engine_choice = best.filter(|best| *best != self.played[index]);
        if let Some(choice) = engine_choice {
            // The engine's choice must be a move of the position (a confused engine could say
            // otherwise): the check would search another one.
            let mut game = self.record.start_game();
            let legal = self.played[..index].iter().all(|&mv| game.apply(mv).is_ok())
                && game.check(choice).is_ok();
            if !legal {
                return;
            }
        }
        self.checks[index] = Some(Check { engine_choice, played: None, engine: None });
    }

    /// The first pass's judgement of move `index` (before any check), once both positions
    /// around it are evaluated.
    #[must_use]
    pub fn first_pass_judgement(&self, index: usize) -> Option<MoveReview> {
        let (before, after) = (self.evaluations.get(index)?, self.evaluations.get(index + 1)?);
        if self.forced.get(index) == Some(&true) {
            // No choice, no mistake: whatever the scores say, it was the best move there was.
            return Some(judge(self.kind, Score::Cp(0), Score::Cp(0), true));
        }
        let played = self.played[index];
        Some(judge(self.kind, before.score, after.score, before.best == Some(played)))
    }

    /// Each move's review, as far as it is settled: a move waiting for its check is not judged
    /// yet, so the list stops before it.
    #[must_use]
    pub fn judgements(&self) -> Vec<MoveReview> {
        let mut judged = Vec::new();
        for index in 0..self.moves.len() {
            let review = match self.checks.get(index).and_then(Option::as_ref) {
                Some(Check {
                    engine_choice: Some(_),
                    played: Some(played),
                    engine: Some(engine),
                }) => judge(self.kind, for_the_other_side(*engine), *played, false),
                Some(Check { engine_choice: None, played: Some(played), engine: Some(before) }) => {
                    judge(self.kind, *before, *played, true)
                }
                Some(_) => break,
                None => match self.first_pass_judgement(index) {
                    Some(review) => review,
                    None => break,
                },
            };
            judged.push(review);
        }
        judged
    }

    /// The figures for the first and the second player.
    #[must_use]
    pub fn summaries(&self) -> [PlayerSummary; 2] {
        let mut summaries = [PlayerSummary::default(), PlayerSummary::default()];
        let mut accuracies: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
        for (index, review) in self.judgements().iter().enumerate() {
            let mover = usize::from(self.sides.get(index) == Some(&Side::Second));
            let slot = Judgement::ALL.iter().position(|j| *j == review.judgement).unwrap_or(0);
            summaries[mover].counts[slot] += 1;
            accuracies[mover].push(review.accuracy);
        }
        for (summary, moves) in summaries.iter_mut().zip(&accuracies) {
            summary.accuracy = accuracy(moves);
        }
        summaries
    }

    /// The first player's winning chance in each evaluated position, in whole percent.
    #[must_use]
    pub fn first_player_chances(&self) -> Vec<u32> {
        self.evaluations
            .iter()
            .zip(&self.sides)
            .map(|(evaluation, &side)| first_player_chance(self.kind, evaluation.score, side))
            .collect()
    }
}

/// The move mark a judgement is written as in the move list and records (`?!`, `?`, `??`); the
/// good moves get none.
#[must_use]
pub fn mark_for(judgement: Judgement) -> Option<Mark> {
    match judgement {
        Judgement::Best | Judgement::Good => None,
        Judgement::Inaccuracy => Some(Mark(6)),
        Judgement::Mistake => Some(Mark(2)),
        Judgement::Blunder => Some(Mark(4)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A move written in coordinates, read without a position (tests only): a chess move in
    /// UCI form, else a gomoku stone.
    pub(super) fn mv(text: &str) -> AnyMove {
        use qi_rules::chess::ChessMove;
        use qi_rules::chess::shakmaty::uci::UciMove;
        match text.parse::<UciMove>() {
            Ok(UciMove::Normal { from, to, promotion }) => {
                AnyMove::Chess(ChessMove { from, to, promotion })
            }
            _ => AnyMove::Gomoku(qi_rules::gomoku::GomokuMove::Stone(text.parse().unwrap())),
        }
    }

    fn evaluation(cp: i32, best: &str) -> Evaluation {
        Evaluation { score: Score::Cp(cp), best: Some(mv(best)) }
    }

    fn chess(moves: &[&str]) -> GameRecord {
        let mut record = GameRecord::new(GameKind::Chess, "", 0);
        record.moves = moves.iter().map(|m| (*m).to_owned()).collect();
        record
    }

    /// 1. e4 e5 2. Nf3 Qg5?? 3. Nxg5, with the first pass's scores for the side to move.
    fn hung_queen() -> Review {
        let mut review = Review::of(1, &chess(&["e2e4", "e7e5", "g1f3", "d8g5", "f3g5"])).unwrap();
        let evaluations = [
            evaluation(30, "e2e4"),
            evaluation(-25, "g1f3"),
            evaluation(30, "g1f3"),
            evaluation(-30, "b8c6"),
            evaluation(880, "f3g5"),
            evaluation(-900, "b8c6"),
        ];
        for (index, evaluation) in evaluations.into_iter().enumerate() {
            // Once Qg5 has both its positions, its check comes before the last position.
            let due = if index == 5 {
                Job::Check { index: 3, child: Child::Played }
            } else {
                Job::Position(index)
            };
            assert_eq!(review.next_job(), Some(due));
            review.record(Job::Position(index), evaluation);
        }
        review
    }

    #[test]
    fn a_first_pass_blunder_is_checked_before_it_is_judged() {
        let mut review = hung_queen();
        // Qg5 looked like a blunder: its check is due, the move played first.
        let played = Job::Check { index: 3, child: Child::Played };
        let engine = Job::Check { index: 3, child: Child::EngineChoice };
        assert_eq!(review.next_job(), Some(played));
        assert!(review.running() && !review.finished());
        // Until it is checked, the moves before it are judged and it is not.
        assert_eq!(review.judgements().len(), 3);
        let request = review.request(played).unwrap();
        assert_eq!((request.id, request.budget_ms), ((1 << 32) + 10, CHECK_BUDGET_MS));
        assert_eq!(review.request(Job::Position(3)).unwrap().budget_ms, REVIEW_BUDGET_MS);
        assert_eq!(request.record.moves, ["e2e4", "e7e5", "g1f3", "d8g5"]);
        review.record(played, evaluation(850, "f3g5"));
        assert_eq!(review.next_job(), Some(engine));
        let request = review.request(engine).unwrap();
        assert_ne!(request.id, review.request(played).unwrap().id);
        assert_eq!(request.record.moves, ["e2e4", "e7e5", "g1f3", "b8c6"]);
        // An answer to a position already known is dropped.
        review.record(Job::Position(2), evaluation(5_000, "a2a3"));
        assert_eq!(review.evaluations[2], evaluation(30, "g1f3"));
        review.record(engine, evaluation(25, "f1b5"));
        assert!(review.finished() && review.next_job().is_none());
        assert_eq!(review.progress_percent(), 100);
        let judged: Vec<Judgement> = review.judgements().iter().map(|r| r.judgement).collect();
        assert_eq!(
            judged,
            [
                Judgement::Best,
                Judgement::Good,
                Judgement::Best,
                Judgement::Blunder,
                Judgement::Best
            ]
        );
        assert_eq!(mark_for(judged[3]), Some(Mark(4)));
        let [white, black] = review.summaries();
        assert_eq!(white.counts, [3, 0, 0, 0, 0]);
        assert_eq!(black.counts, [0, 1, 0, 0, 1]);
        assert!(white.accuracy.unwrap() > 95.0);
        assert!(black.accuracy.unwrap() < 40.0, "{black:?}");
        let chances = review.first_player_chances();
        assert_eq!(chances.len(), 6);
        // +0.30 on lichess's curve (qi_ai::review::ten_to_one).
        assert_eq!(chances[0], 53);
        assert!(chances[4] > 95 && chances[5] > 95);
    }

    #[test]
    fn a_move_its_check_finds_as_good_as_the_engines_choice_is_not_marked() {
        let mut review = hung_queen();
        // The longer searches find both positions alike (as if the queen could not be taken).
        review.record(Job::Check { index: 3, child: Child::Played }, evaluation(-10, "a2a3"));
        review.record(Job::Check { index: 3, child: Child::EngineChoice }, evaluation(-5, "a2a3"));
        let judged = review.judgements();
        assert_eq!(judged.len(), 5);
        assert_eq!(judged[3].judgement, Judgement::Good);
        assert_eq!(mark_for(judged[3].judgement), None);
        // A check that finds the played move better than the engine's choice loses nothing.
        let mut review = hung_queen();
        review.record(Job::Check { index: 3, child: Child::Played }, evaluation(-200, "a2a3"));
        review.record(Job::Check { index: 3, child: Child::EngineChoice }, evaluation(100, "a2a3"));
        assert_eq!(review.judgements()[3].loss, 0.0);
    }

    #[test]
    fn the_engines_own_choice_is_checked_against_the_position_before_and_a_forced_move_is_not_marked()
     {
        // 1. e4 e5 2. Qh5 Nc6 3. Qxf7+ Kxf7: after the check Black has one move, the king's.
        let mut review =
            Review::of(1, &chess(&["e2e4", "e7e5", "d1h5", "b8c6", "h5f7", "e8f7"])).unwrap();
        assert_eq!(review.forced, [false, false, false, false, false, true]);
        let evaluations = [
            evaluation(30, "e2e4"),
            evaluation(-30, "g1f3"),
            // The engine likes Qh5 at first, and its next search finds White worse.
            evaluation(40, "d1h5"),
            evaluation(300, "g8f6"),
        ];
        for (index, evaluation) in evaluations.into_iter().enumerate() {
            review.record(Job::Position(index), evaluation);
        }
        let check = review.checks[2].clone().expect("the engine's own choice is checked");
        assert_eq!(check.engine_choice, None);
        // Its check searches the position before the move again, not another move's.
        let again = Job::Check { index: 2, child: Child::EngineChoice };
        assert_eq!(review.request(again).unwrap().record.moves, ["e2e4", "e7e5"]);
        review.record(Job::Check { index: 2, child: Child::Played }, evaluation(60, "g7g6"));
        review.record(again, evaluation(-50, "d1h5"));
        // Searched longer, the position before was no better than the one after: best.
        assert_eq!(review.judgements()[2].judgement, Judgement::Best);
        // The queen sacrifice drops 7 pawns; Kxf7, the only move, is not marked for the swing.
        // (The engine's choice for White here, f8c5, is not a move of the position, so the
        // sacrifice's first-pass mark stands unchecked and the list goes on past it.)
        review.record(Job::Position(4), evaluation(-300, "f8c5"));
        review.record(Job::Position(5), evaluation(900, "h5f7"));
        review.record(Job::Position(6), evaluation(900, "d2d4"));
        let judged = review.judgements();
        assert_eq!(judged[5].judgement, Judgement::Best);
        assert_eq!(judged[5].loss, 0.0);
        assert!(review.checks[5].is_none());
    }

    #[test]
    fn an_illegal_engine_choice_is_not_checked_and_banqi_never_is() {
        // The engine's choice in the position before the "blunder" is not a legal move there.
        let mut review = Review::of(1, &chess(&["e2e4", "e7e5"])).unwrap();
        review.record(Job::Position(0), evaluation(30, "e2e4"));
        review.record(Job::Position(1), evaluation(30, "e1e3"));
        review.record(Job::Position(2), evaluation(900, "g1f3"));
        assert!(review.checks.iter().all(Option::is_none));
        assert!(review.finished());
        assert_eq!(review.judgements()[1].judgement, Judgement::Blunder);
        // Banqi: a flip's value is luck, so nothing is checked.
        let mut game = GameRecord::new(GameKind::Banqi, "", 7);
        let flips = game.start_game().legal_move_values();
        game.moves.push(flips[0].to_string());
        let mut review = Review::of(2, &game).unwrap();
        let score = |cp| Evaluation { score: Score::Cp(cp), best: Some(flips[1]) };
        review.record(Job::Position(0), score(0));
        review.record(Job::Position(1), score(2_000));
        assert!(review.finished() && review.checks.iter().all(Option::is_none));
    }

    #[test]
    fn a_cancelled_review_takes_no_more_and_a_bad_record_is_refused() {
        let mut record = GameRecord::new(GameKind::Gomoku, "", 0);
        record.moves = vec!["h8".into()];
        let mut review = Review::of(2, &record).unwrap();
        review.record(Job::Position(0), evaluation(0, "h8"));
        review.cancelled = true;
        assert_eq!(review.next_job(), None);
        review.record(Job::Position(1), evaluation(0, "h9"));
        assert_eq!(review.evaluations.len(), 1);
        assert!(!review.running() && !review.finished());
        assert_eq!(review.judgements(), Vec::new());
        record.moves.push("h8".into());
        assert_eq!(Review::of(3, &record), None);
    }
}

#[cfg(test)]
mod decided_tests {
    use super::*;

    use super::tests::mv;

    fn evaluation(cp: i32, best: &str) -> Evaluation {
        Evaluation { score: Score::Cp(cp), best: Some(mv(best)) }
    }

    #[test]
    fn a_mate_missed_is_a_blunder_after_its_check() {
        // 1. f3 e5 2. g4: Black mates with Qh4 and plays Nc6 instead.
        let mut record = GameRecord::new(GameKind::Chess, "", 0);
        record.moves = ["f2f3", "e7e5", "g2g4", "b8c6"].iter().map(|m| (*m).to_owned()).collect();
        let mut review = Review::of(1, &record).unwrap();
        review.record(Job::Position(0), evaluation(30, "e2e4"));
        review.record(Job::Position(1), evaluation(-60, "e7e5"));
        review.record(Job::Position(2), evaluation(90, "g2g4"));
        review
            .record(Job::Position(3), Evaluation { score: Score::Mate(1), best: Some(mv("d8h4")) });
        review.record(Job::Position(4), evaluation(-50, "d2d4"));
        // 2. g4?? allowed the mate: it is checked first (after it, mate; after d2d4, level).
        review.record(Job::Check { index: 2, child: Child::Played }, review_mate_in_one());
        review.record(Job::Check { index: 2, child: Child::EngineChoice }, evaluation(10, "e7e5"));
        let played = Job::Check { index: 3, child: Child::Played };
        let engine = Job::Check { index: 3, child: Child::EngineChoice };
        assert_eq!(review.next_job(), Some(played));
        review.record(played, evaluation(-40, "d2d4"));
        // The engine (wrongly) scores the mated position as level: the rules' verdict stands.
        review.record(engine, evaluation(0, "a2a3"));
        assert_eq!(review.checks[3].as_ref().unwrap().engine, Some(Score::Mate(0)));
        assert_eq!(for_the_other_side(Score::Mate(0)), Score::Mate(1));
        let judged = review.judgements();
        assert_eq!(judged[2].judgement, Judgement::Blunder);
        assert_eq!(judged[3].judgement, Judgement::Blunder);
    }

    fn review_mate_in_one() -> Evaluation {
        Evaluation { score: Score::Mate(1), best: Some(mv("d8h4")) }
    }

    #[test]
    fn the_winning_move_is_not_a_blunder_when_the_engine_scores_the_end_as_level() {
        // Gomoku: the first player makes five; an engine that scores the finished board as 0
        // would make the five look like a drop from a sure win to an even game.
        let mut record = GameRecord::new(GameKind::Gomoku, "", 0);
        record.moves = ["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a5", "l8"]
            .iter()
            .map(|m| (*m).to_owned())
            .collect();
        let mut review = Review::of(1, &record).unwrap();
        for index in 0..9 {
            review.record(Job::Position(index), evaluation(0, "o15"));
        }
        // Position 8: the five is on the board next move; the engine says a win in one.
        review.evaluations[8].score = Score::Mate(1);
        review.evaluations[8].best = Some(mv("l8"));
        review.record(Job::Position(9), evaluation(0, "o15"));
        assert_eq!(review.evaluations[9].score, Score::Mate(0));
        assert_eq!(review.judgements()[8].judgement, Judgement::Best);
        assert!(review.finished());
    }
}
