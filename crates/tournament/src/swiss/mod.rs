//! Swiss tournaments: a fixed number of rounds, each paired by FIDE's Dutch system
//! ([`dutch`]) among the players of equal score, with byes, late joining, withdrawals and
//! forbidden pairings; results written as FIDE's TRF ([`trf`]).
//!
//! A [`Swiss`] is the record of what happened; [`Swiss::next_request`] reads from it what the
//! pairing needs (scores, colours, floats, byes) and [`Swiss::start_round`] writes the pairing
//! back. Players are numbered for pairing by rating, highest first (FIDE's initial order), the
//! order of joining breaking ties; a late entrant takes its place by rating.

pub mod dutch;
pub mod trf;
mod wide;

use crate::{Colour, Outcome};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

/// A player of the tournament.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// The name shown (and written in the TRF).
    pub name: String,
    /// The rating at entry: the initial order.
    pub rating: i32,
    /// Left the tournament: no more pairings.
    pub withdrawn: bool,
    /// Asked for a half-point bye in the next round (granted when it is paired).
    pub wants_half_bye: bool,
}

/// One player's round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RoundResult {
    /// A game over the board, finished.
    Played {
        /// The opponent's index among [`Swiss::players`].
        opponent: usize,
        /// This player's colour.
        colour: Colour,
        /// This player's result.
        outcome: Outcome,
    },
    /// A game not played because one side did not come: a win for the one who did.
    Forfeit {
        /// The opponent's index.
        opponent: usize,
        /// The colour this player would have had.
        colour: Colour,
        /// Whether this player is the one who came.
        won: bool,
    },
    /// A game paired and not yet finished.
    Pending {
        /// The opponent's index.
        opponent: usize,
        /// This player's colour.
        colour: Colour,
    },
    /// The bye an odd number of players leaves: a point.
    PairingBye,
    /// A bye the player asked for: half a point.
    HalfPointBye,
    /// Not paired (not yet joined, withdrawn, or absent): nothing.
    Absent,
}

impl RoundResult {
    /// The points it scored, in halves.
    #[must_use]
    pub fn half_points(self) -> u32 {
        match self {
            RoundResult::Played { outcome, .. } => outcome.half_points(),
            RoundResult::Forfeit { won, .. } => 2 * u32::from(won),
            RoundResult::PairingBye => 2,
            RoundResult::HalfPointBye => 1,
            RoundResult::Pending { .. } | RoundResult::Absent => 0,
        }
    }

    /// The opponent and colour of a game over the board (finished).
    #[must_use]
    pub fn game(self) -> Option<(usize, Colour, Outcome)> {
        match self {
            RoundResult::Played { opponent, colour, outcome } => Some((opponent, colour, outcome)),
            _ => None,
        }
    }
}

/// Why a Swiss refused a change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SwissError {
    /// Every round has been paired.
    Finished,
    /// The current round still has games going.
    RoundUnfinished,
    /// No round is going.
    NoRound,
    /// No such player.
    UnknownPlayer(usize),
    /// The player has no game in the current round.
    NotPaired(usize),
    /// The pairing failed.
    Pairing(dutch::PairingError),
}

impl std::fmt::Display for SwissError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SwissError::Finished => write!(f, "every round has been played"),
            SwissError::RoundUnfinished => write!(f, "the round still has games going"),
            SwissError::NoRound => write!(f, "no round is going"),
            SwissError::UnknownPlayer(i) => write!(f, "no player {i} in this tournament"),
            SwissError::NotPaired(i) => write!(f, "player {i} has no game this round"),
            SwissError::Pairing(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for SwissError {}

/// A Swiss tournament's record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Swiss {
    /// Everyone who joined, in the order they joined.
    pub players: Vec<Player>,
    /// The rounds so far: `rounds[r][i]` is player `i`'s round `r` (players who joined after
    /// round `r` was paired are [`RoundResult::Absent`] there).
    pub rounds: Vec<Vec<RoundResult>>,
    /// How many rounds the tournament has.
    pub total_rounds: u32,
    /// Pairs of players (indices) who must not meet: family, clubmates, a suspected farm.
    pub forbidden: Vec<(usize, usize)>,
}

impl Swiss {
    /// A tournament of `total_rounds` rounds, nobody in it yet.
    #[must_use]
    pub fn new(total_rounds: u32) -> Swiss {
        Swiss { players: Vec::new(), rounds: Vec::new(), total_rounds, forbidden: Vec::new() }
    }

    /// Adds a player (also after the start: missed rounds score nothing). Returns their index.
    pub fn join(&mut self, name: &str, rating: i32) -> usize {
        self.players.push(Player {
            name: name.to_owned(),
            rating,
            withdrawn: false,
            wants_half_bye: false,
        });
        for round in &mut self.rounds {
            round.push(RoundResult::Absent);
        }
        self.players.len() - 1
    }

    /// The player leaves: not paired again; a game going on stays to be finished.
    ///
    /// # Errors
    /// An unknown index.
    pub fn withdraw(&mut self, player: usize) -> Result<(), SwissError> {
        self.players.get_mut(player).ok_or(SwissError::UnknownPlayer(player))?.withdrawn = true;
        Ok(())
    }

    /// A player's score in half points.
    #[must_use]
    pub fn half_points(&self, player: usize) -> u32 {
        self.rounds.iter().map(|round| round[player].half_points()).sum()
    }

    /// The standings by score and then the tie-breaks `order`; games still going count nothing
    /// yet (their round is left out).
    #[must_use]
    pub fn standings(&self, order: &[crate::tiebreak::Tiebreak]) -> Vec<crate::tiebreak::Standing> {
        let rounds: Vec<Vec<crate::tiebreak::Round>> = (0..self.players.len())
            .map(|i| {
                self.rounds
                    .iter()
                    .filter(|round| !matches!(round[i], RoundResult::Pending { .. }))
                    .map(|round| crate::tiebreak::Round {
                        opponent: round[i].game().map(|g| g.0),
                        half_points: round[i].half_points(),
                    })
                    .collect()
            })
            .collect();
        crate::tiebreak::standings(&rounds, order)
    }

    /// The players' pairing numbers: 1 for the highest rated, ties by order of joining.
    #[must_use]
    pub fn pairing_numbers(&self) -> Vec<u32> {
        let mut order: Vec<usize> = (0..self.players.len()).collect();
        order.sort_by_key(|&i| (std::cmp::Reverse(self.players[i].rating), i));
        let mut numbers = vec![0; self.players.len()];
        for (place, &i) in order.iter().enumerate() {
            numbers[i] = place as u32 + 1;
        }
        numbers
    }

    /// Whether every game of the last round has a result.
    #[must_use]
    pub fn round_finished(&self) -> bool {
        self.rounds
            .last()
            .is_none_or(|round| !round.iter().any(|r| matches!(r, RoundResult::Pending { .. })))
    }

    /// What the Dutch system needs to pair the next round: who plays, with their scores,
    /// colours, floats and byes.
    #[must_use]
    pub fn next_request(&self) -> dutch::Request {
        let numbers = self.pairing_numbers();
        // Scores before each round, for the floats.
        let mut before: Vec<Vec<u32>> = vec![vec![0; self.players.len()]];
        for round in &self.rounds {
            let last = before.last().expect("one row at least");
            before.push(last.iter().zip(round).map(|(p, r)| p + r.half_points()).collect());
        }
        let float_in = |r: usize, i: usize| -> dutch::Float {
            match self.rounds[r][i] {
                RoundResult::Played { opponent, .. } => {
                    match before[r][i].cmp(&before[r][opponent]) {
                        std::cmp::Ordering::Greater => dutch::Float::Down,
                        std::cmp::Ordering::Less => dutch::Float::Up,
                        std::cmp::Ordering::Equal => dutch::Float::None,
                    }
                }
                _ => dutch::Float::Down,
            }
        };
        let played = self.rounds.len();
        let entrants = (0..self.players.len())
            .filter(|&i| !self.players[i].withdrawn && !self.players[i].wants_half_bye)
            .map(|i| {
                let games: Vec<(usize, Colour, Outcome)> =
                    self.rounds.iter().filter_map(|r| r[i].game()).collect();
                dutch::Entrant {
                    number: numbers[i],
                    points: before[played][i],
                    colours: games.iter().map(|g| g.1).collect(),
                    opponents: games.iter().map(|g| numbers[g.0]).collect::<HashSet<u32>>(),
                    floats: [
                        if played >= 1 { float_in(played - 1, i) } else { dutch::Float::None },
                        if played >= 2 { float_in(played - 2, i) } else { dutch::Float::None },
                    ],
                    had_bye: self.rounds.iter().any(|r| {
                        matches!(
                            r[i],
                            RoundResult::PairingBye | RoundResult::Forfeit { won: true, .. }
                        )
                    }),
                }
            })
            .collect();
        dutch::Request {
            entrants,
            round: played as u32 + 1,
            last_round: played as u32 + 1 == self.total_rounds,
            forbidden: self.forbidden.iter().map(|&(a, b)| (numbers[a], numbers[b])).collect(),
            first_white: true,
        }
    }

    /// Pairs the next round and records it: games pending, the bye, half-point byes asked for,
    /// the rest absent. Returns the pairings as player indices.
    ///
    /// # Errors
    /// The tournament is over, the last round is unfinished, or no pairing exists.
    pub fn start_round(&mut self) -> Result<dutch::Pairings, SwissError> {
        if self.rounds.len() as u32 >= self.total_rounds {
            return Err(SwissError::Finished);
        }
        if !self.round_finished() {
            return Err(SwissError::RoundUnfinished);
        }
        let pairings = dutch::pair(&self.next_request()).map_err(SwissError::Pairing)?;
        self.apply(&pairings)
    }

    /// Records a round paired elsewhere (an arbiter's pairing, or another program's), by
    /// pairing numbers as [`dutch::pair`] gives them. Returns the pairings as player indices.
    ///
    /// # Errors
    /// The tournament is over, the last round is unfinished, or a number is no player's.
    pub fn apply(&mut self, pairings: &dutch::Pairings) -> Result<dutch::Pairings, SwissError> {
        if self.rounds.len() as u32 >= self.total_rounds {
            return Err(SwissError::Finished);
        }
        if !self.round_finished() {
            return Err(SwissError::RoundUnfinished);
        }
        let numbers = self.pairing_numbers();
        for &n in pairings.boards.iter().flat_map(|(w, b)| [w, b]).chain(&pairings.bye) {
            if !numbers.contains(&n) {
                return Err(SwissError::UnknownPlayer(n as usize));
            }
        }
        let index_of = |number: u32| numbers.iter().position(|&n| n == number).unwrap_or_default();
        let mut round = vec![RoundResult::Absent; self.players.len()];
        for (i, player) in self.players.iter_mut().enumerate() {
            if player.wants_half_bye && !player.withdrawn {
                round[i] = RoundResult::HalfPointBye;
            }
            player.wants_half_bye = false;
        }
        let mut boards = Vec::with_capacity(pairings.boards.len());
        for &(w, b) in &pairings.boards {
            let (white, black) = (index_of(w), index_of(b));
            round[white] = RoundResult::Pending { opponent: black, colour: Colour::White };
            round[black] = RoundResult::Pending { opponent: white, colour: Colour::Black };
            boards.push((white as u32, black as u32));
        }
        let bye = pairings.bye.map(index_of);
        if let Some(i) = bye {
            round[i] = RoundResult::PairingBye;
        }
        self.rounds.push(round);
        Ok(dutch::Pairings { boards, bye: bye.map(|i| i as u32) })
    }

    /// Records a game's result for `player` (and the reverse for the opponent).
    /// `forfeit` marks a game not played (the loser did not come).
    ///
    /// # Errors
    /// No round going, or the player has no game pending in it.
    pub fn record(
        &mut self,
        player: usize,
        outcome: Outcome,
        forfeit: bool,
    ) -> Result<(), SwissError> {
        let round = self.rounds.last_mut().ok_or(SwissError::NoRound)?;
        let Some(&RoundResult::Pending { opponent, colour }) = round.get(player) else {
            return Err(SwissError::NotPaired(player));
        };
        if forfeit {
            round[player] = RoundResult::Forfeit { opponent, colour, won: outcome == Outcome::Win };
            round[opponent] = RoundResult::Forfeit {
                opponent: player,
                colour: colour.opposite(),
                won: outcome == Outcome::Loss,
            };
        } else {
            round[player] = RoundResult::Played { opponent, colour, outcome };
            round[opponent] = RoundResult::Played {
                opponent: player,
                colour: colour.opposite(),
                outcome: outcome.reversed(),
            };
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(n: usize) -> Swiss {
        let mut swiss = Swiss::new(5);
        for i in 0..n {
            swiss.join(&format!("P{i}"), 2000 - 10 * i as i32);
        }
        swiss
    }

    #[test]
    fn a_whole_swiss_never_repeats_a_game_nor_a_bye() {
        let mut swiss = field(9);
        let mut met = HashSet::new();
        let mut byes = HashSet::new();
        for round in 0..5 {
            let p = swiss.start_round().unwrap();
            assert_eq!(p.boards.len(), 4);
            for &(w, b) in &p.boards {
                assert!(met.insert((w.min(b), w.max(b))), "round {round}: {w}-{b} again");
                // The higher rated wins, so scores spread.
                let winner = w.min(b) as usize;
                swiss.record(winner, Outcome::Win, false).unwrap();
            }
            assert!(byes.insert(p.bye.unwrap()), "a second bye");
        }
        assert_eq!(swiss.start_round(), Err(SwissError::Finished));
        assert_eq!(swiss.half_points(0), 10);
        let table = swiss.standings(crate::tiebreak::customary(
            crate::Family::Xiangqi,
            crate::tiebreak::Format::Swiss,
        ));
        assert_eq!((table[0].player, table[0].rank), (0, 1));
        assert!(table.windows(2).all(|w| w[0].half_points >= w[1].half_points));
    }

    #[test]
    fn a_round_waits_for_its_games() {
        let mut swiss = field(4);
        swiss.start_round().unwrap();
        assert_eq!(swiss.start_round(), Err(SwissError::RoundUnfinished));
        assert_eq!(swiss.record(7, Outcome::Win, false), Err(SwissError::NotPaired(7)));
    }

    #[test]
    fn late_entrants_withdrawals_and_half_point_byes() {
        let mut swiss = field(4);
        let p = swiss.start_round().unwrap();
        for &(w, _) in &p.boards {
            swiss.record(w as usize, Outcome::Draw, false).unwrap();
        }
        let late = swiss.join("Late", 2100);
        assert_eq!(swiss.pairing_numbers()[late], 1, "the highest rating takes number 1");
        assert_eq!(swiss.rounds[0][late], RoundResult::Absent);
        swiss.withdraw(3).unwrap();
        swiss.players[2].wants_half_bye = true;
        let p = swiss.start_round().unwrap();
        let playing: HashSet<u32> =
            p.boards.iter().flat_map(|&(w, b)| [w, b]).chain(p.bye).collect();
        assert_eq!(playing, HashSet::from([0, 1, 4]));
        assert_eq!(swiss.rounds[1][2], RoundResult::HalfPointBye);
        assert_eq!(swiss.rounds[1][3], RoundResult::Absent);
        assert_eq!(swiss.half_points(2), 2);
    }

    #[test]
    fn a_forfeit_scores_without_counting_as_a_game() {
        let mut swiss = field(2);
        swiss.start_round().unwrap();
        swiss.record(0, Outcome::Win, true).unwrap();
        assert_eq!(swiss.half_points(0), 2);
        let request = swiss.next_request();
        assert!(request.entrants[0].opponents.is_empty());
        assert!(request.entrants[0].had_bye, "a forfeit win counts as the bye (C.2)");
    }
}

#[cfg(test)]
mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(40))]

        /// Whatever the results, withdrawals and byes asked for, every round pairs each present
        /// player once, never repeats a game or a pairing-allocated bye, and never makes two
        /// players who both need the same colour meet.
        #[test]
        fn every_round_keeps_the_absolute_rules(seed in any::<u64>(), players in 4usize..24, rounds in 3u32..8) {
            let mut state = seed | 1;
            let mut next = move |n: u64| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state % n
            };
            let mut swiss = Swiss::new(rounds);
            for i in 0..players {
                swiss.join(&format!("p{i}"), 1000 + next(1500) as i32);
            }
            let mut met = HashSet::new();
            let mut byes = HashSet::new();
            for _ in 0..rounds {
                for i in 0..swiss.players.len() {
                    if next(30) == 0 {
                        swiss.players[i].wants_half_bye = true;
                    }
                }
                let request = swiss.next_request();
                let Ok(p) = swiss.start_round() else { break };
                let present: HashSet<u32> = (0..swiss.players.len() as u32)
                    .filter(|&i| !swiss.players[i as usize].withdrawn)
                    .filter(|&i| swiss.rounds.last().unwrap()[i as usize] != RoundResult::HalfPointBye)
                    .collect();
                let paired: Vec<u32> = p.boards.iter().flat_map(|&(w, b)| [w, b]).chain(p.bye).collect();
                prop_assert_eq!(paired.len(), present.len());
                prop_assert_eq!(paired.iter().copied().collect::<HashSet<u32>>(), present);
                for &(w, b) in &p.boards {
                    // A forfeited game was not played: those two may be paired again.
                    prop_assert!(!met.contains(&(w.min(b), w.max(b))), "a game repeated");
                    let numbers = swiss.pairing_numbers();
                    let entrant = |i: u32| request.entrants.iter().find(|e| e.number == numbers[i as usize]).unwrap();
                    let absolute = |e: &dutch::Entrant| {
                        let whites = e.colours.iter().filter(|&&c| c == Colour::White).count() as i64;
                        let diff = 2 * whites - e.colours.len() as i64;
                        let double = e.colours.len() > 1 && e.colours[e.colours.len() - 1] == e.colours[e.colours.len() - 2];
                        (diff.abs() > 1 || double).then(|| if diff > 0 || (diff == 0 && e.colours.last() == Some(&Colour::White)) { Colour::Black } else { Colour::White })
                    };
                    if !request.last_round {
                        let (x, y) = (absolute(entrant(w)), absolute(entrant(b)));
                        prop_assert!(x.is_none() || x != y, "two players needing the same colour met");
                    }
                    let outcome = match next(3) { 0 => Outcome::Win, 1 => Outcome::Draw, _ => Outcome::Loss };
                    let forfeit = next(40) == 0;
                    swiss.record(w as usize, outcome, forfeit).unwrap();
                    if !forfeit {
                        met.insert((w.min(b), w.max(b)));
                    }
                }
                if let Some(b) = p.bye {
                    prop_assert!(byes.insert(b), "a second bye");
                }
                if next(10) == 0 {
                    let i = next(swiss.players.len() as u64) as usize;
                    swiss.withdraw(i).unwrap();
                }
            }
        }
    }
}
