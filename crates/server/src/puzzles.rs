//! Puzzle ratings of accounts: the puzzle page of a signed-in player sends each puzzle's first
//! result (`POST /api/puzzles`, [`qi_protocol::PuzzleResult`]); the server keeps it
//! ([`Write::PuzzleResult`](crate::storage::Write::PuzzleResult), the first result on a puzzle
//! only) and rates the player against the puzzle with Glicko-2, as lichess rates puzzles: a
//! solve is a win against a player rated as the puzzle, a failure a loss. The rating is worked
//! out from the kept results, in their order, so two tabs sending at once cannot lose one, and a
//! result sent twice counts once. The page shows the server's rating where it has one
//! (`GET /api/puzzles`).

use qi_protocol::{PUZZLE_GAMES, PuzzleRatingView};
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};

use crate::storage::PuzzleResultRecord;

/// The most puzzle results kept for one account: past it a result is refused (a bound on what
/// one account can make the store hold).
pub const MAX_RESULTS: usize = 20_000;

/// Each game's puzzle rating from `results` (oldest first), in [`PUZZLE_GAMES`]'s order; a game
/// never tried has the starting rating (1500, deviation 350).
#[must_use]
pub fn ratings(results: &[PuzzleResultRecord]) -> Vec<PuzzleRatingView> {
    PUZZLE_GAMES
        .iter()
        .map(|&game| {
            let mut player = Glicko2Rating::new();
            let (mut tried, mut solved) = (0, 0);
            for result in results.iter().filter(|r| r.game == game) {
                let puzzle = Glicko2Rating {
                    rating: f64::from(result.rating),
                    deviation: f64::from(result.deviation).max(30.0),
                    volatility: 0.06,
                };
                let outcome = if result.solved { Outcomes::WIN } else { Outcomes::LOSS };
                let (next, _) = glicko2(&player, &puzzle, &outcome, &Glicko2Config::new());
                player = Glicko2Rating {
                    rating: next.rating.clamp(400.0, 4000.0),
                    deviation: next.deviation.clamp(30.0, 500.0),
                    volatility: next.volatility.clamp(0.01, 0.2),
                };
                tried += 1;
                solved += u32::from(result.solved);
            }
            PuzzleRatingView {
                game: game.to_owned(),
                rating: player.rating,
                deviation: player.deviation,
                volatility: player.volatility,
                tried,
                solved,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(game: &str, puzzle: &str, rating: u16, solved: bool) -> PuzzleResultRecord {
        PuzzleResultRecord {
            account: "ann".into(),
            game: game.into(),
            puzzle: puzzle.into(),
            rating,
            deviation: 80,
            solved,
            unix_ms: 1,
        }
    }

    #[test]
    fn solves_raise_failures_lower_each_game_apart() {
        let start = ratings(&[]);
        assert_eq!(start.len(), 4);
        assert!(start.iter().all(|r| (r.rating - 1500.0).abs() < 1e-9 && r.tried == 0));
        let views = ratings(&[
            result("chess", "a", 1500, true),
            result("chess", "b", 1500, true),
            result("xiangqi", "c", 1500, false),
        ]);
        assert!(views[0].rating > 1500.0 && views[0].tried == 2 && views[0].solved == 2);
        assert!(views[1].rating < 1500.0 && views[1].tried == 1 && views[1].solved == 0);
        assert_eq!(views[3].tried, 0, "gomoku untouched");
        assert!(views[0].deviation < 350.0);
    }
}
