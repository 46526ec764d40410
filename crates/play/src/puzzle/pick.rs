//! Which puzzle comes next: one near the player's rating (of a theme, when one is picked), the
//! day's puzzle, and the climbing ladders of Streak and Storm. Deterministic for a given seed,
//! so a test (or two tabs) sees the same choice.

use qi_rules::zobrist::splitmix64;

use super::{Puzzle, PuzzleId, Theme};

/// How far from the player's rating a puzzle may be, widened step by step until one is found.
const WINDOWS: [u16; 5] = [150, 300, 600, 1200, 4000];

/// A puzzle for a player rated `rating`: of `theme` when given, not one of `recent`, within the
/// narrowest rating window that has one; among those, the one `seed` picks. `None` when no
/// puzzle is left (every one recent, or none of the theme).
#[must_use]
pub fn next<'p>(
    puzzles: &'p [Puzzle],
    rating: f64,
    theme: Option<&Theme>,
    recent: &[PuzzleId],
    seed: u64,
) -> Option<&'p Puzzle> {
    let target = rating.clamp(0.0, 4000.0) as u16;
    let fits = |puzzle: &&Puzzle| {
        theme.is_none_or(|theme| puzzle.themes.contains(theme)) && !recent.contains(&puzzle.id)
    };
    WINDOWS.iter().find_map(|&window| {
        let near: Vec<&Puzzle> = puzzles
            .iter()
            .filter(fits)
            .filter(|puzzle| puzzle.rating.abs_diff(target) <= window)
            .collect();
        choose(&near, seed)
    })
}

fn choose<'p>(among: &[&'p Puzzle], seed: u64) -> Option<&'p Puzzle> {
    if among.is_empty() {
        return None;
    }
    Some(among[(splitmix64(seed) % among.len() as u64) as usize])
}

/// The day's puzzle: one of the puzzles with a line of two solver moves or more (a one-mover is
/// too quick for the day's), picked by the day (days since 1970) and the game, the same for
/// everyone that day. Falls back to any puzzle when none is that long.
#[must_use]
pub fn daily(puzzles: &[Puzzle], day: u64) -> Option<&Puzzle> {
    let long: Vec<&Puzzle> = puzzles.iter().filter(|p| p.solver_moves() >= 2).collect();
    let game = puzzles.first().map_or(0, |p| p.rules.variant() as u64);
    let seed = day.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ game;
    choose(&long, seed).or_else(|| choose(&puzzles.iter().collect::<Vec<_>>(), seed))
}

/// The rating Streak's and Storm's `n`-th puzzle (from 0) aims at: from 800, 60 points a
/// puzzle (lichess's Streak climbs so), up to 2600.
#[must_use]
pub fn ladder_rating(n: usize) -> f64 {
    (800.0 + 60.0 * n as f64).min(2600.0)
}

/// Streak's and Storm's `n`-th puzzle: the nearest to [`ladder_rating`] not yet `recent`.
#[must_use]
pub fn ladder<'p>(
    puzzles: &'p [Puzzle],
    n: usize,
    recent: &[PuzzleId],
    seed: u64,
) -> Option<&'p Puzzle> {
    next(puzzles, ladder_rating(n), None, recent, seed ^ n as u64)
}

/// Storm's clock: three minutes, less ten seconds for each mistake (lichess's Storm takes time
/// for a mistake too); the milliseconds left at `now` for a run started at `started`.
#[must_use]
pub fn storm_left_ms(started: f64, now: f64, mistakes: u32) -> f64 {
    (STORM_MS - f64::from(mistakes) * STORM_MISTAKE_MS - (now - started)).max(0.0)
}

/// Storm's time.
pub const STORM_MS: f64 = 180_000.0;
/// What a mistake costs in Storm.
pub const STORM_MISTAKE_MS: f64 = 10_000.0;

#[cfg(test)]
mod tests {
    use qi_rules::any::{AnyRules, Variant};

    use super::*;

    fn puzzles() -> Vec<Puzzle> {
        (0..40u16)
            .map(|i| {
                let mut puzzle = Puzzle::new(
                    PuzzleId::parse(&format!("p{i}")).unwrap(),
                    AnyRules::of(Variant::Chess),
                    "6k1/5ppp/8/n7/8/8/5PPP/RR4K1 b - - 0 1",
                    &["a5c4", "a1a8"],
                )
                .unwrap();
                puzzle.rating = 700 + 50 * i;
                if i % 4 == 0 {
                    puzzle.themes.push(Theme::Fork);
                }
                puzzle
            })
            .collect()
    }

    #[test]
    fn the_next_puzzle_is_near_the_rating_of_the_theme_and_not_recent() {
        let all = puzzles();
        for seed in 0..20 {
            let pick = next(&all, 1500.0, None, &[], seed).unwrap();
            assert!(pick.rating.abs_diff(1500) <= 150, "{}", pick.rating);
            let fork = next(&all, 1500.0, Some(&Theme::Fork), &[], seed).unwrap();
            assert!(fork.themes.contains(&Theme::Fork));
        }
        assert_eq!(next(&all, 1500.0, None, &[], 7), next(&all, 1500.0, None, &[], 7));
        let recent: Vec<PuzzleId> = all.iter().map(|p| p.id.clone()).collect();
        assert!(next(&all, 1500.0, None, &recent, 1).is_none());
        // Far from every puzzle, the window widens.
        assert!(next(&all, 3900.0, None, &[], 1).is_some());
        assert!(next(&all, 1500.0, Some(&Theme::Pin), &[], 1).is_none());
    }

    #[test]
    fn the_days_puzzle_is_the_same_all_day_and_changes_with_the_day() {
        let all = puzzles();
        assert_eq!(daily(&all, 20_000).unwrap().id, daily(&all, 20_000).unwrap().id);
        let days: std::collections::HashSet<_> =
            (20_000..20_030).map(|d| daily(&all, d).unwrap().id.clone()).collect();
        assert!(days.len() > 10);
        assert!(daily(&[], 1).is_none());
    }

    #[test]
    fn the_ladders_climb_and_storms_clock_runs_down() {
        let all = puzzles();
        let first = ladder(&all, 0, &[], 1).unwrap().rating;
        let tenth = ladder(&all, 10, &[], 1).unwrap().rating;
        assert!(first < 1000 && tenth > first, "{first} {tenth}");
        assert_eq!(storm_left_ms(0.0, 60_000.0, 0), 120_000.0);
        assert_eq!(storm_left_ms(0.0, 60_000.0, 2), 100_000.0);
        assert_eq!(storm_left_ms(0.0, 200_000.0, 0), 0.0);
    }
}
