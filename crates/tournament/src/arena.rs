//! The arena: a timed pool in which a player who finishes a game is paired again within
//! seconds, scored by lichess's sheet.
//!
//! Scoring ([`sheet`]), as lichess's `Sheet`: a win scores 2 and a draw 1; a player whose two
//! last games were wins is *on fire* and scores double (4 and 2) until a game is not won; a
//! player who berserked (halved their clock) gets 1 more for a win that lasted at least 7 moves;
//! a draw of fewer than 10 moves scores nothing, and neither does a draw that follows another
//! draw with no win between, unless the game was long (30 moves or more).
//!
//! Pairing ([`pair`]), as lichess's: the players waiting are matched at the least total cost,
//! where pairing two players costs the gap between their ranks, weighted more near the top of
//! the table, plus the gap between their ratings; nobody meets the opponent they just played,
//! and nobody gets the same colour a fourth time in a row.

use crate::{Colour, Outcome};
use serde::{Deserialize, Serialize};

/// Plies a berserker's win must last for the extra point (lichess: 7 moves).
pub const BERSERK_MIN_PLIES: u32 = 14;
/// A draw shorter than this scores nothing (lichess: 10 moves).
pub const QUICK_DRAW_PLIES: u32 = 20;
/// A draw at least this long scores even in a draw streak (lichess: 30 moves).
pub const LONG_GAME_PLIES: u32 = 60;
/// The most games in a row a player may have the same colour.
pub const MAX_SAME_COLOUR: usize = 3;

/// A finished arena game, for one of its players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Game {
    /// This player's result.
    pub outcome: Outcome,
    /// How long the game lasted, in plies (half-moves).
    pub plies: u32,
    /// Whether this player berserked.
    pub berserk: bool,
}

/// How a game counted on the sheet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Flag {
    /// Counted as usual.
    Normal,
    /// Counted double: the player was on fire.
    Double,
    /// Counted nothing: an early draw, or a draw in a draw streak.
    Null,
}

/// One game's line on a player's sheet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mark {
    /// The result.
    pub outcome: Outcome,
    /// How it counted.
    pub flag: Flag,
    /// Whether it earned berserk's extra point.
    pub berserk_point: bool,
    /// The points it scored.
    pub points: u32,
}

/// A player's arena sheet: each game's mark, oldest first, and the total.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sheet {
    /// The games' marks, in the order they were played.
    pub marks: Vec<Mark>,
    /// The score: the marks' points summed.
    pub total: u32,
}

impl Sheet {
    /// Whether the player's next win counts double.
    #[must_use]
    pub fn on_fire(&self) -> bool {
        self.marks.iter().rev().take(2).filter(|m| m.outcome == Outcome::Win).count() == 2
    }
}

/// Scores `games`, oldest first. `streaks` is the tournament's "on fire" option (lichess's
/// `streakable`); without it wins always score 2 and draws 1 (early draws still score nothing).
#[must_use]
pub fn sheet(games: &[Game], streaks: bool) -> Sheet {
    let mut sheet = Sheet::default();
    for game in games {
        let on_fire = streaks && sheet.on_fire();
        // A draw after a draw with only losses between, as lichess's `isDrawStreak`.
        let draw_streak = sheet
            .marks
            .iter()
            .rev()
            .find(|m| m.outcome != Outcome::Loss)
            .is_some_and(|m| m.outcome == Outcome::Draw);
        let flag = match game.outcome {
            Outcome::Draw if game.plies < QUICK_DRAW_PLIES => Flag::Null,
            Outcome::Draw if on_fire => Flag::Double,
            Outcome::Draw if draw_streak && game.plies < LONG_GAME_PLIES => Flag::Null,
            Outcome::Win if on_fire => Flag::Double,
            _ => Flag::Normal,
        };
        let base = match (game.outcome, flag) {
            (_, Flag::Null) | (Outcome::Loss, _) => 0,
            (Outcome::Win, Flag::Double) => 4,
            (Outcome::Win, _) | (Outcome::Draw, Flag::Double) => 2,
            (Outcome::Draw, Flag::Normal) => 1,
        };
        let berserk_point =
            game.berserk && game.outcome == Outcome::Win && game.plies >= BERSERK_MIN_PLIES;
        let points = base + u32::from(berserk_point);
        sheet.total += points;
        sheet.marks.push(Mark { outcome: game.outcome, flag, berserk_point, points });
    }
    sheet
}

/// A standing's tie-break: the linear performance rating over the games played — the
/// opponents' mean rating plus 400 × (wins − losses) / games — or `None` before the first game.
#[must_use]
pub fn performance(opponent_ratings_and_outcomes: &[(i32, Outcome)]) -> Option<i32> {
    let games = i64::try_from(opponent_ratings_and_outcomes.len()).ok().filter(|&g| g > 0)?;
    let ratings: i64 = opponent_ratings_and_outcomes.iter().map(|&(r, _)| i64::from(r)).sum();
    let balance: i64 = opponent_ratings_and_outcomes
        .iter()
        .map(|&(_, o)| match o {
            Outcome::Win => 1,
            Outcome::Draw => 0,
            Outcome::Loss => -1,
        })
        .sum();
    i32::try_from((ratings + 400 * balance).div_euclid(games)).ok()
}

/// A player waiting for a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Waiting {
    /// The player's place in the standings, 1 for the leader.
    pub rank: usize,
    /// The player's rating.
    pub rating: i32,
    /// Who they just played, as the caller's index of players (the same space as `id`).
    pub last_opponent: Option<u64>,
    /// The caller's key for this player.
    pub id: u64,
    /// Their colours, oldest first (only the last few matter).
    pub colours: Vec<Colour>,
}

impl Waiting {
    /// The colour this player must have next, after [`MAX_SAME_COLOUR`] of the other in a row.
    fn forced(&self) -> Option<Colour> {
        let last = *self.colours.last()?;
        (self.colours.len() >= MAX_SAME_COLOUR
            && self.colours.iter().rev().take(MAX_SAME_COLOUR).all(|&c| c == last))
        .then(|| last.opposite())
    }

    /// Whites minus blacks over the last games: who has had more of White.
    fn white_balance(&self) -> i32 {
        self.colours.iter().rev().take(6).map(|&c| if c == Colour::White { 1 } else { -1 }).sum()
    }
}

/// A pairing of two waiting players, by their indices in the slice given to [`pair`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pairing {
    /// Who moves first.
    pub white: usize,
    /// The other.
    pub black: usize,
}

/// Lichess's rank factor: a rank gap costs up to 2,000 rating points near the top of a table of
/// `max_rank` players and 300 at its foot, so leaders meet leaders.
fn rank_factor(a: &Waiting, b: &Waiting, max_rank: usize) -> i64 {
    let max_rank = max_rank.max(1) as i64;
    let top = a.rank.min(b.rank) as i64;
    300 + 1700 * (max_rank - top.min(max_rank)) / max_rank
}

/// The cost of pairing `a` with `b`, or `None` where they may not meet: they just played each
/// other (unless `allow_rematch`), or both must have the same colour.
fn cost(a: &Waiting, b: &Waiting, max_rank: usize, allow_rematch: bool) -> Option<i64> {
    let rematch = a.last_opponent == Some(b.id) || b.last_opponent == Some(a.id);
    if rematch && !allow_rematch {
        return None;
    }
    if let (Some(x), Some(y)) = (a.forced(), b.forced())
        && x == y
    {
        return None;
    }
    let rank_gap = a.rank.abs_diff(b.rank) as i64;
    let rating_gap = i64::from(a.rating.abs_diff(b.rating));
    Some(rank_gap * rank_factor(a, b, max_rank) + rating_gap)
}

/// Gives White to the one who needs it more: a forced colour first, then the one who has had
/// fewer Whites lately, then the one who had Black last, then the higher-ranked.
fn colours(a: usize, b: usize, waiting: &[Waiting]) -> Pairing {
    let (pa, pb) = (&waiting[a], &waiting[b]);
    let a_white = match (pa.forced(), pb.forced()) {
        (Some(c), _) => c == Colour::White,
        (None, Some(c)) => c == Colour::Black,
        (None, None) => match pa.white_balance().cmp(&pb.white_balance()) {
            std::cmp::Ordering::Less => true,
            std::cmp::Ordering::Greater => false,
            std::cmp::Ordering::Equal => match (pa.colours.last(), pb.colours.last()) {
                (Some(Colour::Black), Some(Colour::White)) => true,
                (Some(Colour::White), Some(Colour::Black)) => false,
                _ => pa.rank <= pb.rank,
            },
        },
    };
    if a_white { Pairing { white: a, black: b } } else { Pairing { white: b, black: a } }
}

/// Pairs the waiting players: as many games as the rules allow, and among those the least
/// total cost. `max_rank` is the number of players in the standings (the rank factor's scale);
/// `allow_rematch` lets the last opponents meet again (a tournament of two).
///
/// Players left out (an odd one, or one whose only possible opponents just played them) wait
/// for the next wave.
#[must_use]
pub fn pair(waiting: &[Waiting], max_rank: usize, allow_rematch: bool) -> Vec<Pairing> {
    let n = waiting.len();
    if n < 2 {
        return Vec::new();
    }
    let costs: Vec<Option<i64>> = (0..n * n)
        .map(|k| {
            let (i, j) = (k / n, k % n);
            if i < j { cost(&waiting[i], &waiting[j], max_rank, allow_rematch) } else { None }
        })
        .collect();
    // Each pair is worth more than any sum of costs, so the most pairs come first.
    let worst = costs.iter().flatten().copied().max().unwrap_or(0);
    let pair_value = i128::from(worst + 1) * (n as i128 / 2 + 1);
    let weights: Vec<i128> =
        costs.iter().map(|c| c.map_or(0, |c| pair_value - i128::from(c))).collect();
    let mates = integer_blossom::max_weight_matching(&weights, n);
    let mut pairings: Vec<Pairing> = mates
        .iter()
        .enumerate()
        .filter_map(|(i, m)| m.filter(|&j| i < j).map(|j| colours(i, j, waiting)))
        .collect();
    pairings.sort_by_key(|p| waiting[p.white].rank.min(waiting[p.black].rank));
    pairings
}

/// Where an arena player stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Presence {
    /// Waiting to be paired.
    Waiting,
    /// In a game.
    Playing,
    /// Not to be paired until they come back; still in the standings.
    Paused,
    /// Left before playing: not in the standings.
    Left,
}

/// A finished game, as an arena player's history keeps it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Played {
    /// The opponent's index.
    pub opponent: usize,
    /// The opponent's rating when they met.
    pub opponent_rating: i32,
    /// This player's colour.
    pub colour: Colour,
    /// The game as the sheet scores it.
    pub game: Game,
}

/// An arena player.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entrant {
    /// The name shown.
    pub name: String,
    /// The rating (pairing and performance).
    pub rating: i32,
    /// Where they stand.
    pub presence: Presence,
    /// Their finished games, oldest first.
    pub played: Vec<Played>,
}

/// An arena's line in the standings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    /// The player's index.
    pub player: usize,
    /// The sheet.
    pub sheet: Sheet,
    /// The performance rating (the tie-break), if they have played.
    pub performance: Option<i32>,
    /// Their place: 1 for the leader; players equal on score and performance share it.
    pub rank: usize,
}

/// Why an arena refused a change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArenaError {
    /// No such player.
    UnknownPlayer(usize),
    /// The two players are not playing each other.
    NotPlaying(usize, usize),
}

impl std::fmt::Display for ArenaError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ArenaError::UnknownPlayer(i) => write!(f, "no player {i} in this arena"),
            ArenaError::NotPlaying(a, b) => write!(f, "players {a} and {b} have no game together"),
        }
    }
}

impl std::error::Error for ArenaError {}

/// An arena: its players and their games. The server calls [`Arena::pair_waiting`] every few
/// seconds while the clock runs and [`Arena::finish`] as games end.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Arena {
    /// Everyone who joined, in order of joining.
    pub entrants: Vec<Entrant>,
    /// Whether wins in a row set players on fire (lichess's option, on by default there).
    pub streaks: bool,
    /// Games going: (white, black).
    pub games: Vec<(usize, usize)>,
}

impl Arena {
    /// An empty arena.
    #[must_use]
    pub fn new(streaks: bool) -> Arena {
        Arena { entrants: Vec::new(), streaks, games: Vec::new() }
    }

    /// Adds a player, waiting. Returns their index.
    pub fn join(&mut self, name: &str, rating: i32) -> usize {
        self.entrants.push(Entrant {
            name: name.to_owned(),
            rating,
            presence: Presence::Waiting,
            played: Vec::new(),
        });
        self.entrants.len() - 1
    }

    fn entrant(&mut self, player: usize) -> Result<&mut Entrant, ArenaError> {
        self.entrants.get_mut(player).ok_or(ArenaError::UnknownPlayer(player))
    }

    /// The player stops being paired: paused if they have played (or are playing: after this
    /// game), gone from the standings if not.
    ///
    /// # Errors
    /// An unknown player.
    pub fn leave(&mut self, player: usize) -> Result<(), ArenaError> {
        let entrant = self.entrant(player)?;
        entrant.presence = match entrant.presence {
            Presence::Playing | Presence::Paused => Presence::Paused,
            _ if entrant.played.is_empty() => Presence::Left,
            _ => Presence::Paused,
        };
        Ok(())
    }

    /// A paused (or departed) player comes back to be paired.
    ///
    /// # Errors
    /// An unknown player.
    pub fn resume(&mut self, player: usize) -> Result<(), ArenaError> {
        let playing = self.games.iter().any(|&(w, b)| w == player || b == player);
        let entrant = self.entrant(player)?;
        entrant.presence = if playing { Presence::Playing } else { Presence::Waiting };
        Ok(())
    }

    /// The standings: by score, then performance; the departed left out.
    #[must_use]
    pub fn standings(&self) -> Vec<Standing> {
        let mut table: Vec<Standing> = self
            .entrants
            .iter()
            .enumerate()
            .filter(|(_, e)| e.presence != Presence::Left)
            .map(|(player, e)| {
                let games: Vec<Game> = e.played.iter().map(|p| p.game).collect();
                let faced: Vec<(i32, Outcome)> =
                    e.played.iter().map(|p| (p.opponent_rating, p.game.outcome)).collect();
                Standing {
                    player,
                    sheet: sheet(&games, self.streaks),
                    performance: performance(&faced),
                    rank: 0,
                }
            })
            .collect();
        table.sort_by(|a, b| {
            (b.sheet.total, b.performance)
                .cmp(&(a.sheet.total, a.performance))
                .then(a.player.cmp(&b.player))
        });
        for k in 0..table.len() {
            let tied = k > 0
                && table[k].sheet.total == table[k - 1].sheet.total
                && table[k].performance == table[k - 1].performance;
            table[k].rank = if tied { table[k - 1].rank } else { k + 1 };
        }
        table
    }

    /// Pairs everyone waiting who can be paired now; returns the new games (white, black),
    /// already marked as going.
    pub fn pair_waiting(&mut self) -> Vec<(usize, usize)> {
        let standings = self.standings();
        let mut rank = vec![standings.len() + 1; self.entrants.len()];
        for s in &standings {
            rank[s.player] = s.rank;
        }
        let waiting_players: Vec<usize> = (0..self.entrants.len())
            .filter(|&i| self.entrants[i].presence == Presence::Waiting)
            .collect();
        let waiting: Vec<Waiting> = waiting_players
            .iter()
            .map(|&i| {
                let e = &self.entrants[i];
                Waiting {
                    rank: rank[i],
                    rating: e.rating,
                    last_opponent: e.played.last().map(|p| p.opponent as u64),
                    id: i as u64,
                    colours: e.played.iter().map(|p| p.colour).collect(),
                }
            })
            .collect();
        let active = self
            .entrants
            .iter()
            .filter(|e| matches!(e.presence, Presence::Waiting | Presence::Playing))
            .count();
        let games: Vec<(usize, usize)> = pair(&waiting, standings.len(), active == 2)
            .iter()
            .map(|p| (waiting_players[p.white], waiting_players[p.black]))
            .collect();
        for &(w, b) in &games {
            self.entrants[w].presence = Presence::Playing;
            self.entrants[b].presence = Presence::Playing;
            self.games.push((w, b));
        }
        games
    }

    /// Records the end of the game between `white` and `black`: White's `outcome`, its length,
    /// who berserked. Both wait for a new game (unless they paused meanwhile).
    ///
    /// # Errors
    /// No such game going.
    pub fn finish(
        &mut self,
        white: usize,
        black: usize,
        outcome: Outcome,
        plies: u32,
        berserk: [bool; 2],
    ) -> Result<(), ArenaError> {
        let at = self
            .games
            .iter()
            .position(|&g| g == (white, black))
            .ok_or(ArenaError::NotPlaying(white, black))?;
        self.games.swap_remove(at);
        let ratings = [self.entrants[white].rating, self.entrants[black].rating];
        for (k, (me, other, colour, result)) in [
            (white, black, Colour::White, outcome),
            (black, white, Colour::Black, outcome.reversed()),
        ]
        .into_iter()
        .enumerate()
        {
            let entrant = &mut self.entrants[me];
            entrant.played.push(Played {
                opponent: other,
                opponent_rating: ratings[1 - k],
                colour,
                game: Game { outcome: result, plies, berserk: berserk[k] },
            });
            if entrant.presence == Presence::Playing {
                entrant.presence = Presence::Waiting;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Outcome::{Draw, Loss, Win};

    fn g(outcome: Outcome, plies: u32) -> Game {
        Game { outcome, plies, berserk: false }
    }

    fn points(games: &[Game]) -> Vec<u32> {
        sheet(games, true).marks.iter().map(|m| m.points).collect()
    }

    #[test]
    fn wins_and_draws_score_two_and_one() {
        assert_eq!(points(&[g(Win, 40), g(Loss, 40), g(Draw, 40), g(Loss, 40)]), [2, 0, 1, 0]);
    }

    #[test]
    fn two_wins_in_a_row_set_a_player_on_fire_until_a_game_is_not_won() {
        let games = [
            g(Win, 40),
            g(Win, 40),
            g(Win, 40),
            g(Draw, 40),
            g(Win, 40),
            g(Win, 40),
            g(Loss, 40),
            g(Win, 40),
        ];
        assert_eq!(points(&games), [2, 2, 4, 2, 2, 2, 0, 2]);
        // Without streaks every win is worth 2.
        assert_eq!(sheet(&games[..3], false).total, 6);
    }

    #[test]
    fn a_berserk_win_scores_one_more_only_after_seven_moves() {
        let berserk = |plies| Game { outcome: Win, plies, berserk: true };
        assert_eq!(points(&[berserk(14), berserk(13)]), [3, 2]);
        // On fire and berserk: 4 + 1.
        assert_eq!(points(&[g(Win, 30), g(Win, 30), berserk(30)]), [2, 2, 5]);
        // A berserk loss costs nothing more than a loss.
        assert_eq!(points(&[Game { outcome: Loss, plies: 30, berserk: true }]), [0]);
    }

    #[test]
    fn early_draws_and_draw_streaks_score_nothing() {
        assert_eq!(points(&[g(Draw, 19)]), [0]);
        assert_eq!(points(&[g(Draw, 20)]), [1]);
        // A second draw with only losses since the first: nothing, unless the game was long.
        assert_eq!(points(&[g(Draw, 40), g(Loss, 40), g(Draw, 40)]), [1, 0, 0]);
        assert_eq!(points(&[g(Draw, 40), g(Draw, 60)]), [1, 1]);
        // A win breaks the streak.
        assert_eq!(points(&[g(Draw, 40), g(Win, 40), g(Draw, 40)]), [1, 2, 1]);
        let marks = sheet(&[g(Draw, 40), g(Draw, 40)], true).marks;
        assert_eq!(marks[1].flag, Flag::Null);
    }

    #[test]
    fn performance_is_the_opponents_mean_shifted_by_the_score() {
        assert_eq!(performance(&[]), None);
        assert_eq!(performance(&[(1500, Win), (1700, Loss)]), Some(1600));
        assert_eq!(performance(&[(1500, Win), (1700, Win)]), Some(2000));
        assert_eq!(performance(&[(1500, Draw)]), Some(1500));
    }

    fn waiting(id: u64, rank: usize, rating: i32) -> Waiting {
        Waiting { rank, rating, last_opponent: None, id, colours: Vec::new() }
    }

    fn pairs(pairings: &[Pairing]) -> Vec<(usize, usize)> {
        let mut v: Vec<_> =
            pairings.iter().map(|p| (p.white.min(p.black), p.white.max(p.black))).collect();
        v.sort_unstable();
        v
    }

    #[test]
    fn neighbours_in_the_standings_meet() {
        let players: Vec<_> = (0..6).map(|i| waiting(i, i as usize + 1, 1500)).collect();
        assert_eq!(pairs(&pair(&players, 6, false)), [(0, 1), (2, 3), (4, 5)]);
    }

    #[test]
    fn nobody_meets_the_opponent_they_just_played() {
        let mut players: Vec<_> = (0..4).map(|i| waiting(i, i as usize + 1, 1500)).collect();
        players[0].last_opponent = Some(1);
        players[1].last_opponent = Some(0);
        assert_eq!(pairs(&pair(&players, 4, false)), [(0, 2), (1, 3)]);
        // Two alone wait, unless the tournament has only them.
        assert!(pair(&players[..2], 2, false).is_empty());
        assert_eq!(pairs(&pair(&players[..2], 2, true)), [(0, 1)]);
    }

    #[test]
    fn the_most_games_come_before_the_closest_ranks() {
        // 0 and 1 would like each other, but then 2 and 3 could not play (3 just played 2).
        let mut players: Vec<_> = (0..4).map(|i| waiting(i, i as usize + 1, 1500)).collect();
        players[2].last_opponent = Some(3);
        assert_eq!(pairs(&pair(&players, 4, false)), [(0, 2), (1, 3)]);
    }

    #[test]
    fn ratings_break_ties_between_equal_rank_gaps() {
        // Four players tied on points share a rank: the closest ratings meet.
        let players = vec![
            waiting(0, 1, 1500),
            waiting(1, 1, 2400),
            waiting(2, 1, 1510),
            waiting(3, 1, 2390),
        ];
        assert_eq!(pairs(&pair(&players, 4, false)), [(0, 2), (1, 3)]);
    }

    #[test]
    fn a_fourth_same_colour_in_a_row_is_never_given() {
        let mut a = waiting(0, 1, 1500);
        let mut b = waiting(1, 2, 1500);
        a.colours = vec![Colour::White; 3];
        b.colours = vec![Colour::White; 3];
        assert!(pair(&[a.clone(), b.clone()], 2, true).is_empty(), "both must have Black");
        b.colours = vec![Colour::Black, Colour::White, Colour::White];
        let p = pair(&[a, b], 2, true);
        assert_eq!(p, [Pairing { white: 1, black: 0 }]);
    }

    #[test]
    fn white_goes_to_who_had_fewer_whites_then_to_who_had_black_last() {
        let mut a = waiting(0, 1, 1500);
        let mut b = waiting(1, 2, 1500);
        a.colours = vec![Colour::White, Colour::White];
        b.colours = vec![Colour::White, Colour::Black];
        assert_eq!(pair(&[a.clone(), b.clone()], 2, true), [Pairing { white: 1, black: 0 }]);
        a.colours = vec![Colour::White, Colour::Black];
        b.colours = vec![Colour::Black, Colour::White];
        assert_eq!(pair(&[a, b], 2, true), [Pairing { white: 0, black: 1 }]);
    }

    #[test]
    fn an_arena_pairs_scores_and_ranks() {
        let mut arena = Arena::new(true);
        let names = ["a", "b", "c", "d", "e"];
        for (k, name) in names.iter().enumerate() {
            arena.join(name, 1500 + 100 * k as i32);
        }
        let first = arena.pair_waiting();
        assert_eq!(first.len(), 2, "five waiting: two games, one waits");
        let idle: Vec<usize> =
            (0..5).filter(|&i| arena.entrants[i].presence == Presence::Waiting).collect();
        assert_eq!(idle.len(), 1);
        // Nobody new to pair with: the one waiting stays.
        assert!(arena.pair_waiting().is_empty());
        let (w, b) = first[0];
        arena.finish(w, b, Outcome::Win, 40, [true, false]).unwrap();
        assert_eq!(
            arena.finish(w, b, Outcome::Win, 40, [false, false]),
            Err(ArenaError::NotPlaying(w, b))
        );
        let table = arena.standings();
        assert_eq!((table[0].player, table[0].sheet.total, table[0].rank), (w, 3, 1));
        // The winner and the loser wait again, with the one who waited: not each other.
        let next = arena.pair_waiting();
        assert_eq!(next.len(), 1);
        assert!(next[0] != (w, b) && next[0] != (b, w));
    }

    #[test]
    fn leaving_pauses_a_player_who_has_played_and_removes_one_who_has_not() {
        let mut arena = Arena::new(true);
        let a = arena.join("a", 1500);
        let b = arena.join("b", 1500);
        let c = arena.join("c", 1500);
        arena.leave(c).unwrap();
        assert_eq!(arena.entrants[c].presence, Presence::Left);
        assert_eq!(arena.standings().len(), 2);
        let games = arena.pair_waiting();
        assert_eq!(games.len(), 1);
        arena.leave(a).unwrap();
        arena.finish(games[0].0, games[0].1, Outcome::Draw, 30, [false, false]).unwrap();
        assert_eq!(arena.entrants[a].presence, Presence::Paused);
        assert_eq!(arena.entrants[b].presence, Presence::Waiting);
        // Two players in the arena may meet again, but a paused one is not paired.
        assert!(arena.pair_waiting().is_empty());
        arena.resume(a).unwrap();
        assert_eq!(arena.pair_waiting().len(), 1, "the only two active players rematch");
        assert_eq!(arena.leave(9), Err(ArenaError::UnknownPlayer(9)));
    }
}
