//! A game review: every position of the main line analysed, one after the other, with a fixed
//! budget; each move judged by the winning chances it lost (see `qi_ai::review`), an accuracy
//! per player, and the first player's chances for the evaluation graph.
//!
//! The review is the screen's state: the engine's answers come in order (the app asks for one
//! position at a time, so the review can be cancelled between two), and a review whose game
//! changed is dropped by the state, not here.

use qi_ai::Score;
use qi_ai::review::{Judgement, MoveReview, accuracy, first_player_chance, judge};
use qi_play::Mark;
use qi_rules::{GameKind, Side};

/// Milliseconds of search for each position: a 40-move game (81 positions) takes about 25 s.
pub const REVIEW_BUDGET_MS: u32 = 300;

/// The engine's view of one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Evaluation {
    /// The score for the side to move there.
    pub score: Score,
    /// The engine's first choice there (none when the game is over).
    pub best: Option<String>,
}

/// A review under way or done.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Review {
    /// Tells this review from earlier ones (answers to a cancelled review are dropped).
    pub id: u64,
    /// The game.
    pub kind: GameKind,
    /// The main line reviewed.
    pub moves: Vec<String>,
    /// The side to move in each position (one more than the moves).
    pub sides: Vec<Side>,
    /// The evaluations so far, in order: the `n`-th is of the position after `n` moves.
    pub evaluations: Vec<Evaluation>,
    /// Whether it was cancelled before the end.
    pub cancelled: bool,
}

/// One player's figures.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct PlayerSummary {
    /// How many of their moves got each judgement, in [`Judgement::ALL`]'s order.
    pub counts: [usize; 5],
    /// Their accuracy, 0–100, when they moved at all.
    pub accuracy: Option<f64>,
}

impl Review {
    /// A review of `moves`, with the side to move in each position.
    #[must_use]
    pub fn new(id: u64, kind: GameKind, moves: Vec<String>, sides: Vec<Side>) -> Review {
        Review { id, kind, moves, sides, evaluations: Vec::new(), cancelled: false }
    }

    /// How many positions it analyses.
    #[must_use]
    pub fn positions(&self) -> usize {
        self.moves.len() + 1
    }

    /// Whether every position has its evaluation.
    #[must_use]
    pub fn finished(&self) -> bool {
        self.evaluations.len() >= self.positions()
    }

    /// Whether the engine is still at work on it.
    #[must_use]
    pub fn running(&self) -> bool {
        !self.finished() && !self.cancelled
    }

    /// How far it has come, 0–100.
    #[must_use]
    pub fn progress_percent(&self) -> u32 {
        (self.evaluations.len() * 100 / self.positions()) as u32
    }

    /// Takes the evaluation of position `index`, if it is the next one expected.
    pub fn record(&mut self, index: usize, evaluation: Evaluation) {
        if index == self.evaluations.len() && self.running() {
            self.evaluations.push(evaluation);
        }
    }

    /// Each move's review, as far as both positions around it are evaluated.
    #[must_use]
    pub fn judgements(&self) -> Vec<MoveReview> {
        self.evaluations
            .windows(2)
            .zip(&self.moves)
            .map(|(pair, played)| {
                let engine_choice = pair[0].best.as_deref() == Some(played.as_str());
                judge(self.kind, pair[0].score, pair[1].score, engine_choice)
            })
            .collect()
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

    fn evaluation(cp: i32, best: &str) -> Evaluation {
        Evaluation { score: Score::Cp(cp), best: Some(best.to_owned()) }
    }

    #[test]
    fn a_hung_queen_is_a_blunder_and_costs_accuracy() {
        // 1. e4 e5 2. Nf3 Qg5?? 3. Nxg5: scores for the side to move in each position.
        let moves: Vec<String> =
            ["e2e4", "e7e5", "g1f3", "d8g5", "f3g5"].iter().map(|m| (*m).to_owned()).collect();
        let sides = [Side::First, Side::Second].into_iter().cycle().take(6).collect();
        let mut review = Review::new(1, GameKind::Chess, moves, sides);
        assert_eq!(review.progress_percent(), 0);
        let evaluations = [
            evaluation(30, "e2e4"),
            evaluation(-25, "g1f3"),
            evaluation(30, "g1f3"),
            evaluation(-30, "b8c6"),
            evaluation(880, "f3g5"),
            evaluation(-900, "b8c6"),
        ];
        // Out of order: ignored.
        review.record(3, evaluations[3].clone());
        assert!(review.evaluations.is_empty());
        for (index, evaluation) in evaluations.into_iter().enumerate() {
            review.record(index, evaluation);
        }
        assert!(review.finished() && !review.running());
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
    fn a_cancelled_review_takes_no_more() {
        let mut review = Review::new(2, GameKind::Gomoku, vec!["h8".into()], vec![Side::First; 2]);
        review.record(0, evaluation(0, "h8"));
        review.cancelled = true;
        review.record(1, evaluation(0, "h9"));
        assert_eq!(review.evaluations.len(), 1);
        assert!(!review.running() && !review.finished());
        assert_eq!(review.judgements(), Vec::new());
    }
}
