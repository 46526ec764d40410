//! Tie-breaks: how players on the same score are ordered, and each game's customary order of
//! them (FIDE's Tie-Break Regulations, C.07, for the definitions).
//!
//! Values are kept in quarter points so that every tie-break is an exact integer: Buchholz in
//! half points doubled, Sonneborn–Berger as the opponent's half points times one's own.

use crate::Family;
use serde::{Deserialize, Serialize};

/// A tie-break.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Tiebreak {
    /// The sum of the opponents' scores. An unplayed round (bye, forfeit, absence) counts as a
    /// game against an opponent with the player's own score, FIDE's "virtual opponent".
    Buchholz,
    /// Buchholz without the lowest opponent's score.
    BuchholzCut1,
    /// The sum of the scores of the opponents beaten and half those drawn.
    SonnebornBerger,
    /// The points scored in games among the players tied, when they have all met.
    DirectEncounter,
    /// Games won over the board (FIDE's `WON`; byes and forfeits not counted).
    Wins,
}

impl Tiebreak {
    /// Its usual short name, as on standings tables.
    #[must_use]
    pub fn short_name(self) -> &'static str {
        match self {
            Tiebreak::Buchholz => "BH",
            Tiebreak::BuchholzCut1 => "BH-C1",
            Tiebreak::SonnebornBerger => "SB",
            Tiebreak::DirectEncounter => "DE",
            Tiebreak::Wins => "WON",
        }
    }
}

/// A tournament's format, for its customary tie-breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Format {
    /// Rounds paired by score.
    Swiss,
    /// Everyone meets everyone.
    RoundRobin,
}

/// The tie-breaks in the order each game's events apply them: chess Swiss opens FIDE's usual
/// Buchholz Cut 1, Buchholz, Sonneborn–Berger, direct encounter; xiangqi (and banqi, played
/// in the same clubs) breaks ties by Buchholz, then the direct game, then wins, as the Asian
/// Xiangqi Federation's championships do; renju and gomoku events use Buchholz, then
/// Sonneborn–Berger; every round robin uses FIDE's direct encounter, wins, Sonneborn–Berger.
#[must_use]
pub fn customary(family: Family, format: Format) -> &'static [Tiebreak] {
    use Tiebreak::*;
    match (format, family) {
        (Format::RoundRobin, _) => &[DirectEncounter, Wins, SonnebornBerger],
        (Format::Swiss, Family::Chess) => {
            &[BuchholzCut1, Buchholz, SonnebornBerger, DirectEncounter]
        }
        (Format::Swiss, Family::Xiangqi | Family::Banqi) => &[Buchholz, DirectEncounter, Wins],
        (Format::Swiss, Family::Gomoku) => &[Buchholz, SonnebornBerger, Wins],
    }
}

/// One round of one player, as the tie-breaks read it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Round {
    /// The opponent over the board, or `None` for a round not played.
    pub opponent: Option<usize>,
    /// The points the round gave, in halves.
    pub half_points: u32,
}

/// A player's place in the standings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    /// The player's index.
    pub player: usize,
    /// Their score, in half points.
    pub half_points: u32,
    /// Each tie-break's value in quarter points (wins and direct encounter counted plainly,
    /// times four), in the order asked for.
    pub tiebreaks: Vec<u64>,
    /// Their rank: players equal on everything share one.
    pub rank: usize,
}

/// The standings of players whose rounds are `rounds[player]`, ordered by score and then by
/// `order`. Players equal on everything share a rank (and stay in index order).
#[must_use]
pub fn standings(rounds: &[Vec<Round>], order: &[Tiebreak]) -> Vec<Standing> {
    let score: Vec<u32> = rounds.iter().map(|r| r.iter().map(|x| x.half_points).sum()).collect();
    let mut table: Vec<Standing> = (0..rounds.len())
        .map(|player| Standing {
            player,
            half_points: score[player],
            tiebreaks: Vec::new(),
            rank: 0,
        })
        .collect();
    for &tiebreak in order {
        if tiebreak == Tiebreak::DirectEncounter {
            // Depends on who is still tied: grouped by everything so far.
            let mut groups: std::collections::BTreeMap<(u32, Vec<u64>), Vec<usize>> =
                Default::default();
            for s in &table {
                groups.entry((s.half_points, s.tiebreaks.clone())).or_default().push(s.player);
            }
            let mut value = vec![0u64; rounds.len()];
            for tied in groups.values().filter(|g| g.len() > 1) {
                for (p, v) in direct_encounter(rounds, tied) {
                    value[p] = v;
                }
            }
            for s in &mut table {
                s.tiebreaks.push(value[s.player]);
            }
        } else {
            for s in &mut table {
                s.tiebreaks.push(single(rounds, &score, s.player, tiebreak));
            }
        }
    }
    table.sort_by(|a, b| {
        (b.half_points, &b.tiebreaks)
            .cmp(&(a.half_points, &a.tiebreaks))
            .then(a.player.cmp(&b.player))
    });
    for k in 0..table.len() {
        table[k].rank = if k > 0
            && table[k].half_points == table[k - 1].half_points
            && table[k].tiebreaks == table[k - 1].tiebreaks
        {
            table[k - 1].rank
        } else {
            k + 1
        };
    }
    table
}

/// A tie-break that depends on the player alone.
fn single(rounds: &[Vec<Round>], score: &[u32], player: usize, tiebreak: Tiebreak) -> u64 {
    let own = u64::from(score[player]);
    let opponents =
        || rounds[player].iter().map(move |r| r.opponent.map_or(own, |o| u64::from(score[o])));
    match tiebreak {
        Tiebreak::Buchholz => 2 * opponents().sum::<u64>(),
        Tiebreak::BuchholzCut1 => 2 * (opponents().sum::<u64>() - opponents().min().unwrap_or(0)),
        Tiebreak::SonnebornBerger => rounds[player]
            .iter()
            .filter_map(|r| r.opponent.map(|o| u64::from(score[o]) * u64::from(r.half_points)))
            .sum(),
        Tiebreak::Wins => {
            4 * rounds[player].iter().filter(|r| r.opponent.is_some() && r.half_points == 2).count()
                as u64
        }
        Tiebreak::DirectEncounter => 0,
    }
}

/// The direct encounter among `tied`: the points each scored against the others, when every
/// pair of them has met (otherwise it decides nothing: all zero).
fn direct_encounter(rounds: &[Vec<Round>], tied: &[usize]) -> Vec<(usize, u64)> {
    let among =
        |p: usize| rounds[p].iter().filter(move |r| r.opponent.is_some_and(|o| tied.contains(&o)));
    let all_met = tied
        .iter()
        .all(|&p| tied.iter().all(|&q| p == q || rounds[p].iter().any(|r| r.opponent == Some(q))));
    tied.iter()
        .map(|&p| {
            (
                p,
                if all_met {
                    2 * among(p).map(|r| u64::from(r.half_points)).sum::<u64>()
                } else {
                    0
                },
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(opponent: usize, half_points: u32) -> Round {
        Round { opponent: Some(opponent), half_points }
    }

    /// A four-player round robin: A beats B and C, draws D; B beats C and D; C beats D.
    /// Scores: A 2.5, B 2, C 1, D 0.5.
    fn four() -> Vec<Vec<Round>> {
        vec![
            vec![game(1, 2), game(2, 2), game(3, 1)],
            vec![game(0, 0), game(2, 2), game(3, 2)],
            vec![game(0, 0), game(1, 0), game(3, 2)],
            vec![game(0, 1), game(1, 0), game(2, 0)],
        ]
    }

    #[test]
    fn buchholz_and_sonneborn_berger_by_hand() {
        let r = four();
        let t = standings(
            &r,
            &[
                Tiebreak::Buchholz,
                Tiebreak::SonnebornBerger,
                Tiebreak::BuchholzCut1,
                Tiebreak::Wins,
            ],
        );
        let a = t.iter().find(|s| s.player == 0).unwrap();
        // Buchholz of A: 2 + 1 + 0.5 = 3.5 → 14 quarters. SB: beat B (2) and C (1), drew D (0.5 × ½):
        // 3.25 → 13 quarters. Cut 1 drops D's 0.5: 3 → 12. Two wins → 8.
        assert_eq!(a.tiebreaks, [14, 13, 12, 8]);
        assert_eq!(t.iter().map(|s| s.player).collect::<Vec<_>>(), [0, 1, 2, 3]);
        assert_eq!(t[0].half_points, 5);
    }

    #[test]
    fn an_unplayed_round_counts_the_players_own_score() {
        // B had a bye (a point) and lost to A: B's Buchholz = A's 2 + B's own 1.
        let r = vec![
            vec![game(1, 2), Round { opponent: None, half_points: 2 }],
            vec![game(0, 0), Round { opponent: None, half_points: 2 }],
        ];
        let t = standings(&r, &[Tiebreak::Buchholz]);
        let b = t.iter().find(|s| s.player == 1).unwrap();
        assert_eq!(b.tiebreaks, [4 * 3]);
    }

    #[test]
    fn direct_encounter_only_among_the_tied_and_only_when_all_met() {
        // A and B both 1 point; B beat A.
        let r = vec![
            vec![game(1, 0), game(2, 2)],
            vec![game(0, 2), game(3, 0)],
            vec![game(3, 1), game(0, 0)],
            vec![game(2, 1), game(1, 2)],
        ];
        let t = standings(&r, &[Tiebreak::DirectEncounter]);
        assert_eq!(t[0].player, 3, "D has 1.5");
        assert_eq!((t[1].player, t[2].player), (1, 0), "B beat A");
        assert_eq!(t[1].tiebreaks, [4]);
        // C is alone on 0.5: nothing to break.
        assert_eq!(t[3].tiebreaks, [0]);
    }

    #[test]
    fn players_equal_on_everything_share_a_rank() {
        let r = vec![vec![game(1, 1)], vec![game(0, 1)]];
        let t = standings(&r, &[Tiebreak::Buchholz]);
        assert_eq!((t[0].rank, t[1].rank), (1, 1));
    }

    #[test]
    fn each_game_has_its_customary_order() {
        assert_eq!(
            customary(Family::Xiangqi, Format::Swiss),
            [Tiebreak::Buchholz, Tiebreak::DirectEncounter, Tiebreak::Wins]
        );
        assert_eq!(customary(Family::Gomoku, Format::RoundRobin)[0], Tiebreak::DirectEncounter);
        assert_eq!(customary(Family::Chess, Format::Swiss)[0].short_name(), "BH-C1");
    }
}
