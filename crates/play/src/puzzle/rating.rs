//! A player's puzzle rating: Glicko-2 (the `skillratings` crate's), the player against the
//! puzzle as lichess rates them — solving is a win against a player rated as the puzzle is,
//! failing a loss. One rating per game, kept by the caller (the browser's storage, or the
//! server with an account).

use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};

use super::Puzzle;

/// A player's puzzle rating.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PuzzleRating {
    /// The rating (1500 to start).
    pub rating: f64,
    /// Its deviation (350 to start; smaller as results come).
    pub deviation: f64,
    /// Its volatility (0.06 to start).
    pub volatility: f64,
}

impl Default for PuzzleRating {
    fn default() -> Self {
        let start = Glicko2Rating::new();
        PuzzleRating {
            rating: start.rating,
            deviation: start.deviation,
            volatility: start.volatility,
        }
    }
}

impl PuzzleRating {
    /// The rating after `puzzle` was solved (or failed), and the change, rounded as shown
    /// (`+12`, `-9`).
    #[must_use]
    pub fn after(self, puzzle: &Puzzle, solved: bool) -> (PuzzleRating, i32) {
        let player = Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        };
        let opponent = Glicko2Rating {
            rating: f64::from(puzzle.rating),
            deviation: f64::from(puzzle.deviation).max(30.0),
            volatility: 0.06,
        };
        let outcome = if solved { Outcomes::WIN } else { Outcomes::LOSS };
        let (next, _) = glicko2(&player, &opponent, &outcome, &Glicko2Config::new());
        let next = PuzzleRating {
            rating: next.rating.clamp(400.0, 4000.0),
            deviation: next.deviation.clamp(30.0, 500.0),
            volatility: next.volatility.clamp(0.01, 0.2),
        };
        let change = next.rating.round() as i32 - self.rating.round() as i32;
        (next, change)
    }

    /// The rating as shown, a whole number.
    #[must_use]
    pub fn shown(self) -> i32 {
        self.rating.round() as i32
    }

    /// Whether it is still provisional (lichess's `?`: a deviation over 110).
    #[must_use]
    pub fn provisional(self) -> bool {
        self.deviation > 110.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::PuzzleId;
    use qi_rules::any::{AnyRules, Variant};

    fn puzzle(rating: u16) -> Puzzle {
        let mut puzzle = Puzzle::new(
            PuzzleId::parse("r1").unwrap(),
            AnyRules::of(Variant::Chess),
            "6k1/5ppp/8/n7/8/8/5PPP/RR4K1 b - - 0 1",
            &["a5c4", "a1a8"],
        )
        .unwrap();
        puzzle.rating = rating;
        puzzle.deviation = 80;
        puzzle
    }

    #[test]
    fn solving_raises_failing_lowers_and_harder_puzzles_count_more() {
        let start = PuzzleRating::default();
        assert!(start.provisional());
        let (up, gain) = start.after(&puzzle(1500), true);
        let (down, loss) = start.after(&puzzle(1500), false);
        assert!(gain > 0 && loss < 0 && up.rating > down.rating);
        let (_, hard_gain) = start.after(&puzzle(2200), true);
        let (_, easy_gain) = start.after(&puzzle(900), true);
        assert!(hard_gain > gain && gain > easy_gain, "{hard_gain} {gain} {easy_gain}");
        let mut settled = start;
        for _ in 0..60 {
            settled = settled.after(&puzzle(1500), true).0.after(&puzzle(1500), false).0;
        }
        assert!(!settled.provisional() && settled.deviation < up.deviation);
    }
}
