//! Puzzle ratings of accounts: the puzzle page of a signed-in player sends each puzzle's first
//! result (`POST /api/puzzles`, [`qi_protocol::PuzzleResult`]: the game, the puzzle's id,
//! solved or not); the server takes the puzzle's rating from the databases it serves
//! ([`PuzzleBook`], never the browser's word, so no made-up puzzle moves a rating), keeps it
//! ([`Write::PuzzleResult`](crate::storage::Write::PuzzleResult), the first result on a puzzle
//! only) and rates the player against the puzzle with Glicko-2, as lichess rates puzzles: a
//! solve is a win against a player rated as the puzzle, a failure a loss. The rating is worked
//! out from the kept results, in their order, so two tabs sending at once cannot lose one, and a
//! result sent twice counts once. The page shows the server's rating where it has one
//! (`GET /api/puzzles`).

use std::collections::HashMap;
use std::path::Path;

use qi_protocol::{PUZZLE_GAMES, PuzzleRatingView};
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};

use crate::storage::PuzzleResultRecord;

/// The puzzles the server serves (`<dist>/puzzles/data/<game>.csv`, lichess's CSV), by game and
/// id: their rating and deviation. Read once at start; a game without a file has none.
#[derive(Clone, Debug, Default)]
pub struct PuzzleBook {
    puzzles: HashMap<(String, String), (u16, u16)>,
}

impl PuzzleBook {
    /// Reads the databases under `dist`; a missing or unreadable file gives no puzzles of its
    /// game, and a row that is not `id,position,moves,rating,deviation,...` is left out.
    #[must_use]
    pub fn load(dist: &Path) -> PuzzleBook {
        let mut book = PuzzleBook::default();
        for game in PUZZLE_GAMES {
            let path = dist.join("puzzles").join("data").join(format!("{game}.csv"));
            if let Ok(text) = std::fs::read_to_string(&path) {
                book.add(game, &text);
            }
        }
        book
    }

    /// Adds the rows of one game's file.
    pub fn add(&mut self, game: &str, text: &str) {
        for row in text.lines().skip(1) {
            let columns: Vec<&str> = row.splitn(6, ',').collect();
            let (Some(id), Some(rating), Some(deviation)) =
                (columns.first(), columns.get(3), columns.get(4))
            else {
                continue;
            };
            if let (Ok(rating), Ok(deviation)) = (rating.parse(), deviation.parse()) {
                self.puzzles.insert((game.to_owned(), (*id).to_owned()), (rating, deviation));
            }
        }
    }

    /// A puzzle's rating and deviation, if the server has it.
    #[must_use]
    pub fn rating_of(&self, game: &str, id: &str) -> Option<(u16, u16)> {
        self.puzzles.get(&(game.to_owned(), id.to_owned())).copied()
    }

    /// How many puzzles it holds.
    #[must_use]
    pub fn len(&self) -> usize {
        self.puzzles.len()
    }

    /// Whether it holds none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.puzzles.is_empty()
    }
}

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
    fn the_book_reads_rows_and_leaves_out_the_rest() {
        let mut book = PuzzleBook::default();
        book.add(
            "chess",
            "PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags\n\
             00sHx,q3k1nr/1pp1nQpp/3p4/1P2p3/4P3/B1PP1b2/B5PP/5K2 b k - 0 17,e8d7 a2e6,1760,80,83,72,mate,https://x/a,b\n\
             bad,row\nnum,x,y,high,80\n",
        );
        assert_eq!(book.rating_of("chess", "00sHx"), Some((1760, 80)));
        assert_eq!(book.rating_of("xiangqi", "00sHx"), None);
        assert_eq!(book.len(), 1);
        // The databases in the repository are read as the server reads them from its dist/.
        let here = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../static/puzzles");
        let mut served = PuzzleBook::default();
        for game in PUZZLE_GAMES {
            served.add(game, &std::fs::read_to_string(here.join(format!("{game}.csv"))).unwrap());
        }
        assert!(served.len() > 500, "{}", served.len());
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
