//! What a score means to a player, and what a move cost: winning chances from scores, the
//! judgement of each move of a reviewed game (best, good, inaccuracy, mistake, blunder), and an
//! accuracy figure per player.
//!
//! **Winning chances.** A score in centipawns becomes a chance by a logistic curve, lichess's
//! for chess and xiangqi: a lead of [`ten_to_one`] units makes the side ten times as likely to
//! win as to lose. A forced win is 100%, a forced loss (and a lost, finished position) 0%.
//!
//! **Judging a move** compares the mover's chance before it (the best the engine found there)
//! with the chance after it (the engine's view of the position the move made, turned to the
//! mover's side). The drop in percentage points decides: 15 or more is a blunder, 10 a mistake, 5
//! an inaccuracy (the thresholds lichess uses, on its −1…1 scale 0.3, 0.2, 0.1). A move that
//! loses less is "best" when it is the engine's own first choice, "good" otherwise.
//!
//! **Accuracy** of one move is `103.1668·e^(−0.04354·drop) − 3.1669`, clamped to 0…100 (lichess's
//! fit of how accuracy falls with the chances lost: no loss is 100%, a 10-point drop about 64%);
//! a player's accuracy is the mean of the arithmetic and the harmonic mean of their moves', so a
//! single blunder weighs more than in a plain average.
//!
//! No float is printed and no C library function is called here: the page shows whole
//! percentages, and `exp` is computed without `libm` (see [`exp`]).

use qi_rules::{GameKind, Side};

use crate::search::Score;

/// How many score units make a 10:1 favourite, by game. Chess and xiangqi: lichess's curve,
/// `1 / (1 + e^(−0.00368208·cp))` (pychess-variants uses it for xiangqi too), a 10:1 favourite at
/// 625 centipawns; its blunder, mistake and inaccuracy thresholds ([`judge`]) were set on this
/// curve, so they are used on it. (A steeper curve, 400 centipawns, made small opening slips
/// blunders: after 1.e4 Nc6, 2.Qh5, which Stockfish at depth 20 scores from +0.51 to −0.91,
/// lost 20 points on it, 13 on lichess's.) Banqi's engine counts in units of its own, 400 a
/// 10:1 favourite; gomoku's evaluation counts threats in larger units (and gives the side to
/// move a quarter more), so its curve is flatter. Banqi's and gomoku's are first guesses, not
/// yet fitted to game results.
#[must_use]
pub fn ten_to_one(kind: GameKind) -> f64 {
    match kind {
        GameKind::Gomoku => 1000.0,
        GameKind::Chess | GameKind::Xiangqi => std::f64::consts::LN_10 / LICHESS_K,
        GameKind::Banqi => 400.0,
    }
}

/// Lichess's winning-chance coefficient per centipawn (`lila`'s `WinPercent`).
const LICHESS_K: f64 = 0.003_682_08;

/// The side to move's winning chance in percent (0–100) for a score from its point of view.
/// `Mate(0)` is a side that has already lost (mated, or no move left).
#[must_use]
pub fn chance(kind: GameKind, score: Score) -> f64 {
    match score {
        Score::Mate(n) if n > 0 => 100.0,
        Score::Mate(_) => 0.0,
        Score::Cp(cp) => {
            let x = (-f64::from(cp) / ten_to_one(kind)).clamp(-6.0, 6.0);
            100.0 / (1.0 + exp(x * std::f64::consts::LN_10))
        }
    }
}

/// The first player's winning chance in whole percent, for a score given for `to_move`.
#[must_use]
pub fn first_player_chance(kind: GameKind, score: Score, to_move: Side) -> u32 {
    let own = chance(kind, score);
    let first = if to_move == Side::First { own } else { 100.0 - own };
    first.round() as u32
}

/// e^y for |y| up to about 14, as (1 + y/1024)^1024: within a fraction of a percent here, and
/// without the C library's `exp`/`pow`, whose code the page would otherwise download.
#[must_use]
pub fn exp(y: f64) -> f64 {
    let mut value = 1.0 + y / 1024.0;
    for _ in 0..10 {
        value *= value;
    }
    value
}

/// What a move was, by the winning chances it cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Judgement {
    /// The engine's own first choice (and it lost less than an inaccuracy).
    Best,
    /// Not the engine's choice, but within 5 points of it.
    Good,
    /// 5 to 10 points of winning chance lost.
    Inaccuracy,
    /// 10 to 15 points lost.
    Mistake,
    /// 15 points or more lost.
    Blunder,
}

impl Judgement {
    /// All judgements, best first.
    pub const ALL: [Judgement; 5] = [
        Judgement::Best,
        Judgement::Good,
        Judgement::Inaccuracy,
        Judgement::Mistake,
        Judgement::Blunder,
    ];
}

/// One reviewed move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveReview {
    /// What it was.
    pub judgement: Judgement,
    /// Percentage points of winning chance lost (0 when it gained).
    pub loss: f64,
    /// Its accuracy, 0–100.
    pub accuracy: f64,
}

/// Judges a move: `before` is the engine's score of the position it was played in (for the
/// mover), `after` its score of the position it made (for the side to move then, the
/// opponent), `engine_choice` whether it was the engine's first choice.
#[must_use]
pub fn judge(kind: GameKind, before: Score, after: Score, engine_choice: bool) -> MoveReview {
    let chance_before = chance(kind, before);
    let chance_after = 100.0 - chance(kind, after);
    let loss = (chance_before - chance_after).max(0.0);
    let judgement = if loss >= 15.0 {
        Judgement::Blunder
    } else if loss >= 10.0 {
        Judgement::Mistake
    } else if loss >= 5.0 {
        Judgement::Inaccuracy
    } else if engine_choice {
        Judgement::Best
    } else {
        Judgement::Good
    };
    let accuracy = (103.1668 * exp(-0.04354 * loss) - 3.1669).clamp(0.0, 100.0);
    MoveReview { judgement, loss, accuracy }
}

/// A player's accuracy from their moves' (see the module docs); `None` for no moves.
#[must_use]
pub fn accuracy(moves: &[f64]) -> Option<f64> {
    if moves.is_empty() {
        return None;
    }
    let n = moves.len() as f64;
    let mean = moves.iter().sum::<f64>() / n;
    // A move of 0% accuracy would make the harmonic mean 0: count it as 1%.
    let harmonic = n / moves.iter().map(|a| 1.0 / a.max(1.0)).sum::<f64>();
    Some((mean + harmonic) / 2.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chances_follow_the_logistic_curve() {
        let whole = |kind, score, side| first_player_chance(kind, score, side);
        assert_eq!(whole(GameKind::Chess, Score::Cp(0), Side::First), 50);
        // Lichess's curve: +4 is 81%, as lichess's WinPercent gives.
        assert_eq!(whole(GameKind::Chess, Score::Cp(400), Side::First), 81);
        assert_eq!(whole(GameKind::Chess, Score::Cp(-400), Side::First), 19);
        assert_eq!(whole(GameKind::Chess, Score::Cp(400), Side::Second), 19);
        assert_eq!(whole(GameKind::Xiangqi, Score::Cp(100), Side::First), 59);
        assert_eq!(whole(GameKind::Banqi, Score::Cp(400), Side::First), 91);
        assert_eq!(whole(GameKind::Gomoku, Score::Cp(1000), Side::First), 91);
        assert_eq!(whole(GameKind::Chess, Score::Mate(3), Side::Second), 0);
        // Mated: the side to move has lost, whoever it is.
        assert_eq!(whole(GameKind::Chess, Score::Mate(0), Side::Second), 100);
        assert_eq!(whole(GameKind::Chess, Score::Mate(0), Side::First), 0);
        for y in [-4.0_f64, -1.0, 0.0, 1.0, 3.0] {
            let relative = (exp(y) - y.exp()).abs() / y.exp();
            assert!(relative < 0.01, "exp({y})");
        }
    }

    #[test]
    fn moves_are_judged_by_the_chances_they_lose() {
        let judged = |before, after, best| judge(GameKind::Chess, before, after, best).judgement;
        // Level, then the opponent is a queen up: a blunder.
        assert_eq!(judged(Score::Cp(0), Score::Cp(900), false), Judgement::Blunder);
        assert_eq!(judged(Score::Cp(0), Score::Cp(0), true), Judgement::Best);
        assert_eq!(judged(Score::Cp(30), Score::Cp(-10), false), Judgement::Good);
        // From +1.5 to equal loses about 13 points: a mistake; from +1 to +0.2, 7: an
        // inaccuracy.
        assert_eq!(judged(Score::Cp(150), Score::Cp(0), false), Judgement::Mistake);
        assert_eq!(judged(Score::Cp(100), Score::Cp(-20), false), Judgement::Inaccuracy);
        // After 1.e4 Nc6, 2.Qh5 as Stockfish scores it at depth 20 (+0.51, then −0.91 for
        // White): a mistake, not a blunder.
        assert_eq!(judged(Score::Cp(51), Score::Cp(91), false), Judgement::Mistake);
        // Missing a mate in two for a won ending is a blunder; mating is best.
        assert_eq!(judged(Score::Mate(2), Score::Cp(0), false), Judgement::Blunder);
        assert_eq!(judged(Score::Mate(1), Score::Mate(0), true), Judgement::Best);
        // Far ahead, a pawn matters little: within the curve's flat end.
        assert_eq!(judged(Score::Cp(1500), Score::Cp(-1400), false), Judgement::Good);
        let perfect = judge(GameKind::Chess, Score::Cp(20), Score::Cp(-20), true);
        assert!((perfect.accuracy - 100.0).abs() < 0.5, "{perfect:?}");
        let blunder = judge(GameKind::Chess, Score::Cp(0), Score::Mate(1), false);
        assert!(blunder.loss > 49.0 && blunder.accuracy < 15.0, "{blunder:?}");
    }

    #[test]
    fn accuracy_weighs_a_blunder() {
        assert_eq!(accuracy(&[]), None);
        assert!((accuracy(&[100.0, 100.0]).unwrap() - 100.0).abs() < 1e-9);
        let with_blunder = accuracy(&[100.0, 100.0, 100.0, 5.0]).unwrap();
        let mean = (100.0 * 3.0 + 5.0) / 4.0;
        assert!(with_blunder < mean - 20.0, "{with_blunder}");
    }
}
