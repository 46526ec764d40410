//! Round robin: everyone meets everyone, in the order of FIDE's Berger tables (Handbook C.05,
//! Annex 1), which every arbiter's program prints the same way.
//!
//! Players are numbered 1..=n by their draw (or their rating). With an odd number a phantom
//! player n + 1 joins the table and whoever meets it sits the round out. A double round robin
//! plays the table twice, colours reversed in the second cycle.

use crate::Colour;
use serde::{Deserialize, Serialize};

/// The most players a round robin holds: 16 players play 15 rounds (30 double), already a
/// long event for a site's calendar.
pub const MAX_PLAYERS: usize = 16;

/// One board of a round: two players' numbers (1-based), White first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Board {
    /// The player with the first move.
    pub white: usize,
    /// The other player.
    pub black: usize,
}

/// A round of the schedule: its boards, and who sits it out when the number of players is odd.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Round {
    /// The games, board 1 first.
    pub boards: Vec<Board>,
    /// The player without a game this round (odd fields only).
    pub resting: Option<usize>,
}

/// Why a schedule cannot be made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScheduleError {
    /// Fewer than two players.
    TooFew,
    /// More than [`MAX_PLAYERS`].
    TooMany(usize),
}

impl std::fmt::Display for ScheduleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ScheduleError::TooFew => write!(f, "a round robin needs at least two players"),
            ScheduleError::TooMany(n) => {
                write!(f, "a round robin holds at most {MAX_PLAYERS} players, not {n}")
            }
        }
    }
}

impl std::error::Error for ScheduleError {}

/// The whole schedule for `players` players, played `cycles` times (1 single, 2 double; the
/// second cycle repeats the first with colours reversed).
///
/// # Errors
/// Fewer than two or more than [`MAX_PLAYERS`] players.
pub fn schedule(players: usize, cycles: usize) -> Result<Vec<Round>, ScheduleError> {
    if players < 2 {
        return Err(ScheduleError::TooFew);
    }
    if players > MAX_PLAYERS {
        return Err(ScheduleError::TooMany(players));
    }
    let table = berger_table(players + players % 2);
    let mut rounds = Vec::with_capacity(table.len() * cycles);
    for cycle in 0..cycles {
        // FIDE's note to the tables: in a double round robin the first cycle's last two rounds
        // swap places, so that nobody has the same colour three times running where the
        // cycles meet.
        let mut order: Vec<&Vec<Board>> = table.iter().collect();
        if cycles > 1 && cycle == 0 && order.len() >= 2 {
            let last = order.len() - 1;
            order.swap(last - 1, last);
        }
        for boards in order {
            let mut round = Round { boards: Vec::with_capacity(boards.len()), resting: None };
            for &board in boards {
                let board = if cycle % 2 == 1 {
                    Board { white: board.black, black: board.white }
                } else {
                    board
                };
                // The phantom of an odd field: its opponent rests.
                if board.white > players {
                    round.resting = Some(board.black);
                } else if board.black > players {
                    round.resting = Some(board.white);
                } else {
                    round.boards.push(board);
                }
            }
            rounds.push(round);
        }
    }
    Ok(rounds)
}

/// Berger's table for an even `n`: n − 1 rounds of n / 2 boards.
///
/// In round r the players 1..n−1 whose numbers sum to r + 1 (mod n − 1) meet, and the one
/// whose double is r + 1 (mod n − 1) meets n instead; n has Black in odd rounds. Of the other
/// pairs, White is the player from whom the opponent lies an odd number of steps on (mod n − 1).
/// Board 1 is the last player's; the others spread out from its opponent.
fn berger_table(n: usize) -> Vec<Vec<Board>> {
    let m = n - 1;
    // Numbers 1..=m on a circle of m.
    let wrap = |k: usize| (k + m - 1) % m + 1;
    (1..=m)
        .map(|round| {
            let against_last = (1..=m).find(|&i| (2 * i) % m == (round + 1) % m).unwrap_or(m);
            let mut boards = Vec::with_capacity(n / 2);
            boards.push(if round % 2 == 1 {
                Board { white: against_last, black: n }
            } else {
                Board { white: n, black: against_last }
            });
            for k in 2..=n / 2 {
                let a = wrap(against_last + k - 1);
                let b = wrap(against_last + m - (k - 1));
                let a_is_white = (b + m - a) % m % 2 == 1;
                boards.push(if a_is_white {
                    Board { white: a, black: b }
                } else {
                    Board { white: b, black: a }
                });
            }
            boards
        })
        .collect()
}

/// The colour `player` has in `round` of a schedule, if it plays.
#[must_use]
pub fn colour_of(round: &Round, player: usize) -> Option<Colour> {
    round.boards.iter().find_map(|board| {
        if board.white == player {
            Some(Colour::White)
        } else if board.black == player {
            Some(Colour::Black)
        } else {
            None
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(round: &Round) -> Vec<(usize, usize)> {
        round.boards.iter().map(|b| (b.white, b.black)).collect()
    }

    /// FIDE's published Berger table for six players (Handbook C.05, Annex 1), board by board.
    #[test]
    fn six_players_match_fides_table() {
        let rounds = schedule(6, 1).unwrap();
        let expected = [
            vec![(1, 6), (2, 5), (3, 4)],
            vec![(6, 4), (5, 3), (1, 2)],
            vec![(2, 6), (3, 1), (4, 5)],
            vec![(6, 5), (1, 4), (2, 3)],
            vec![(3, 6), (4, 2), (5, 1)],
        ];
        assert_eq!(rounds.iter().map(pairs).collect::<Vec<_>>(), expected);
    }

    /// And for eight.
    #[test]
    fn eight_players_match_fides_table() {
        let rounds = schedule(8, 1).unwrap();
        let expected = [
            vec![(1, 8), (2, 7), (3, 6), (4, 5)],
            vec![(8, 5), (6, 4), (7, 3), (1, 2)],
            vec![(2, 8), (3, 1), (4, 7), (5, 6)],
            vec![(8, 6), (7, 5), (1, 4), (2, 3)],
            vec![(3, 8), (4, 2), (5, 1), (6, 7)],
            vec![(8, 7), (1, 6), (2, 5), (3, 4)],
            vec![(4, 8), (5, 3), (6, 2), (7, 1)],
        ];
        assert_eq!(rounds.iter().map(pairs).collect::<Vec<_>>(), expected);
    }

    /// Every size up to sixteen, single and double: each pair meets once a cycle, nobody plays
    /// twice in a round, one player rests per round in an odd field and each rests once a
    /// cycle, Whites differ by at most one between any two players, and colours alternate
    /// within a pair's two games of a double round robin.
    #[test]
    fn every_schedule_is_complete_and_fair() {
        for n in 2..=MAX_PLAYERS {
            for cycles in 1..=2 {
                let rounds = schedule(n, cycles).unwrap();
                let per_cycle = n - 1 + n % 2;
                assert_eq!(rounds.len(), per_cycle * cycles, "{n} players");
                let mut met = vec![vec![0usize; n + 1]; n + 1];
                let mut whites = vec![0usize; n + 1];
                let mut rests = vec![0usize; n + 1];
                let mut first_white = vec![vec![None; n + 1]; n + 1];
                for round in &rounds {
                    let mut seen = vec![false; n + 1];
                    for b in &round.boards {
                        assert!(b.white != b.black && b.white <= n && b.black <= n);
                        assert!(!seen[b.white] && !seen[b.black], "{n}: someone plays twice");
                        seen[b.white] = true;
                        seen[b.black] = true;
                        met[b.white][b.black] += 1;
                        met[b.black][b.white] += 1;
                        whites[b.white] += 1;
                        match first_white[b.white.min(b.black)][b.white.max(b.black)] {
                            None => {
                                first_white[b.white.min(b.black)][b.white.max(b.black)] =
                                    Some(b.white)
                            }
                            Some(w) => assert_ne!(w, b.white, "{n}: the return game swaps colours"),
                        }
                    }
                    if let Some(r) = round.resting {
                        assert!(!seen[r]);
                        rests[r] += 1;
                        seen[r] = true;
                    }
                    assert_eq!(round.resting.is_some(), n % 2 == 1);
                    assert!(seen[1..].iter().all(|&s| s), "{n}: everyone plays or rests");
                }
                for a in 1..=n {
                    for (b, &times) in met[a].iter().enumerate().skip(1) {
                        assert_eq!(times, if a == b { 0 } else { cycles }, "{n}: {a} and {b}");
                    }
                    if n % 2 == 1 {
                        assert_eq!(rests[a], cycles);
                    }
                }
                let most = whites[1..].iter().max().unwrap();
                let least = whites[1..].iter().min().unwrap();
                assert!(most - least <= 1, "{n}×{cycles}: whites {whites:?}");
            }
        }
    }

    /// The longest run of one colour a player has over the schedule (rests skipped).
    fn longest_run(rounds: &[Round], player: usize) -> usize {
        let (mut longest, mut run, mut last) = (0, 0, None);
        for round in rounds {
            let Some(colour) = colour_of(round, player) else { continue };
            run = if Some(colour) == last { run + 1 } else { 1 };
            last = Some(colour);
            longest = longest.max(run);
        }
        longest
    }

    #[test]
    fn nobody_has_one_colour_three_times_running() {
        for n in 3..=MAX_PLAYERS {
            for cycles in 1..=2 {
                let rounds = schedule(n, cycles).unwrap();
                for player in 1..=n {
                    assert!(longest_run(&rounds, player) <= 2, "{n}×{cycles}: player {player}");
                }
            }
        }
    }

    #[test]
    fn sizes_out_of_range_are_refused() {
        assert_eq!(schedule(1, 1), Err(ScheduleError::TooFew));
        assert_eq!(schedule(17, 1), Err(ScheduleError::TooMany(17)));
        assert_eq!(
            schedule(17, 1).unwrap_err().to_string(),
            "a round robin holds at most 16 players, not 17"
        );
    }

    #[test]
    fn an_odd_field_rests_the_phantoms_opponent() {
        let rounds = schedule(5, 1).unwrap();
        assert_eq!(rounds[0].resting, Some(1));
        assert_eq!(pairs(&rounds[0]), vec![(2, 5), (3, 4)]);
        assert_eq!(colour_of(&rounds[0], 2), Some(Colour::White));
        assert_eq!(colour_of(&rounds[0], 1), None);
    }
}
