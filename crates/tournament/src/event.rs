//! A tournament as the server runs it: its settings, its members, and the format's state,
//! moved on by the clock ([`Tournament::tick`]) and by finished games
//! ([`Tournament::finished`]). Every decision is here; the server keeps the value, creates the
//! games the [`Action`]s ask for and reports back how they ended.
//!
//! - An **arena** starts at its time, pairs whoever waits on every tick until its end, and
//!   finishes when its last game does.
//! - A **Swiss** pairs round 1 at its time and each next round a pause after the last game of
//!   the one before; it finishes after its last round (or when no pairing is left).
//! - A **round robin** fixes its table from the members at the start (Berger's, numbered by
//!   rating); round r opens r − 1 round lengths after the start, and its games still going at
//!   the round's deadline are reported overdue for the server to adjudicate.

use crate::arena::{Arena, Presence};
use crate::round_robin::{self, Board};
use crate::spec::{Format, Refusal, Spec, SpecError};
use crate::swiss::{RoundResult, Swiss};
use crate::tiebreak::{self, Tiebreak};
use crate::{Outcome, round_robin::Round};
use serde::{Deserialize, Serialize};

/// A member: an account that joined.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Member {
    /// The account's key.
    pub account: String,
    /// The name shown.
    pub name: String,
    /// The rating when they joined.
    pub rating: i32,
}

/// Where a tournament is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Stage {
    /// Not started: members join.
    Upcoming,
    /// Games are played.
    Running,
    /// Over.
    Finished,
    /// Did not take place (fewer than two members at the start).
    Cancelled,
}

/// A round robin in play: its table, numbered by rating, and its results.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundRobinPlay {
    /// The schedule, by player number (1-based).
    pub schedule: Vec<Round>,
    /// The member of each player number: `members_by_number[n - 1]`.
    pub members_by_number: Vec<usize>,
    /// How many rounds have opened.
    pub opened: usize,
    /// Each round's boards' results.
    pub results: Vec<Vec<Option<BoardResult>>>,
    /// Members who withdrew: their later games are forfeited.
    pub withdrawn: Vec<usize>,
}

/// How a round-robin board ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum BoardResult {
    /// Played: White's outcome.
    Played(Outcome),
    /// Not played, one side absent: White's outcome (a win when Black did not come).
    Forfeit(Outcome),
    /// Neither came (or both withdrew): nobody scores.
    DoubleForfeit,
}

/// The format's own state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Play {
    /// An arena.
    Arena(Arena),
    /// A Swiss, and when its next round is due (Unix seconds).
    Swiss {
        /// The record.
        swiss: Swiss,
        /// When the next round is paired, once the last one has finished.
        next_round_at: Option<u64>,
    },
    /// A round robin (empty until it starts).
    RoundRobin(Option<RoundRobinPlay>),
}

/// What the server must do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Action {
    /// Create this game (members' indices, White first); report its end with
    /// [`Tournament::finished`].
    StartGame {
        /// White's member index.
        white: usize,
        /// Black's member index.
        black: usize,
        /// The round (Swiss and round robin).
        round: Option<u32>,
    },
    /// A round robin game went past its round's deadline: the server ends it (a forfeit for
    /// whoever never moved, or adjudicated) and reports it. Repeated on every tick until then.
    Overdue {
        /// White's member index.
        white: usize,
        /// Black's member index.
        black: usize,
    },
    /// The tournament has ended.
    Finished,
}

/// Why a change was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EventError {
    /// The settings are wrong.
    Spec(SpecError),
    /// Joining refused.
    Refused(Refusal),
    /// The tournament is over, or past the point where this is possible.
    Closed,
    /// The account is not a member.
    NotMember,
    /// No such game going.
    NoSuchGame,
}

impl std::fmt::Display for EventError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EventError::Spec(e) => write!(f, "{e}"),
            EventError::Refused(r) => write!(f, "{r}"),
            EventError::Closed => write!(f, "this tournament no longer takes that"),
            EventError::NotMember => write!(f, "not a member of this tournament"),
            EventError::NoSuchGame => write!(f, "no such game in this tournament"),
        }
    }
}

impl std::error::Error for EventError {}

/// A line of the standings, whatever the format.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Row {
    /// The member's index.
    pub member: usize,
    /// Their place; equal players share it.
    pub rank: usize,
    /// Arena points, or (Swiss, round robin) half points.
    pub points: u32,
    /// Whether `points` counts half points.
    pub halves: bool,
    /// The tie-breaks' values in quarter points (Swiss, round robin), in their order.
    pub tiebreaks: Vec<(Tiebreak, u64)>,
    /// The arena's tie-break.
    pub performance: Option<i32>,
    /// On fire in an arena: the next win counts double.
    pub on_fire: bool,
    /// Still playing (not withdrawn or paused).
    pub active: bool,
}

/// A tournament.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tournament {
    /// Its key.
    pub id: String,
    /// Its settings.
    pub spec: Spec,
    /// The account that created it.
    pub creator: String,
    /// Who joined, in order.
    pub members: Vec<Member>,
    /// Its stage.
    pub stage: Stage,
    /// The format's state.
    pub play: Play,
    /// When it ended (Unix seconds).
    pub ended_at: Option<u64>,
}

impl Tournament {
    /// A new tournament, its settings checked against `now`.
    ///
    /// # Errors
    /// The settings' first fault.
    pub fn new(
        id: &str,
        mut spec: Spec,
        creator: &str,
        now: u64,
    ) -> Result<Tournament, EventError> {
        spec.name = spec.name.trim().to_owned();
        spec.validate(now).map_err(EventError::Spec)?;
        let play = match spec.format {
            Format::Arena { streaks, .. } => Play::Arena(Arena::new(streaks)),
            Format::Swiss { rounds, .. } => {
                Play::Swiss { swiss: Swiss::new(rounds), next_round_at: None }
            }
            Format::RoundRobin { .. } => Play::RoundRobin(None),
        };
        Ok(Tournament {
            id: id.to_owned(),
            spec,
            creator: creator.to_owned(),
            members: Vec::new(),
            stage: Stage::Upcoming,
            play,
            ended_at: None,
        })
    }

    /// The member index of `account`.
    #[must_use]
    pub fn member(&self, account: &str) -> Option<usize> {
        self.members.iter().position(|m| m.account == account)
    }

    /// When an arena's clock runs out (Unix seconds).
    #[must_use]
    pub fn ends_at(&self) -> Option<u64> {
        match self.spec.format {
            Format::Arena { minutes, .. } => Some(self.spec.starts_at + u64::from(minutes) * 60),
            _ => None,
        }
    }

    /// How many members still take part (not left, withdrawn).
    #[must_use]
    pub fn active_members(&self) -> u32 {
        match &self.play {
            Play::Arena(arena) => {
                arena.entrants.iter().filter(|e| e.presence != Presence::Left).count() as u32
            }
            Play::Swiss { swiss, .. } => {
                swiss.players.iter().filter(|p| !p.withdrawn).count() as u32
            }
            Play::RoundRobin(None) => self.members.len() as u32,
            Play::RoundRobin(Some(play)) => (self.members.len() - play.withdrawn.len()) as u32,
        }
    }

    /// `account` joins (or, in an arena, comes back after a pause).
    ///
    /// # Errors
    /// Over or past joining (a round robin that started, a Swiss whose last round is paired),
    /// or refused: password, rating bounds, full. A withdrawn Swiss player may not come back.
    pub fn join(
        &mut self,
        account: &str,
        name: &str,
        rating: i32,
        password: Option<&str>,
    ) -> Result<usize, EventError> {
        if matches!(self.stage, Stage::Finished | Stage::Cancelled) {
            return Err(EventError::Closed);
        }
        if let Some(i) = self.member(account) {
            let active = self.active_members();
            return match &mut self.play {
                Play::Arena(arena) => {
                    // One who left before playing takes a place again: there must be room.
                    if arena.entrants[i].presence == Presence::Left {
                        self.spec.admits(rating, password, active).map_err(EventError::Refused)?;
                    }
                    arena.resume(i).map_err(|_| EventError::NotMember)?;
                    Ok(i)
                }
                Play::Swiss { swiss, .. } if !swiss.players[i].withdrawn => Ok(i),
                // Withdrawn before the first round: back in, if there is room.
                Play::Swiss { swiss, .. } if swiss.rounds.is_empty() => {
                    self.spec.admits(rating, password, active).map_err(EventError::Refused)?;
                    swiss.players[i].withdrawn = false;
                    Ok(i)
                }
                Play::RoundRobin(None) => Ok(i),
                _ => Err(EventError::Closed),
            };
        }
        let open = match &self.play {
            Play::Arena(_) => true,
            Play::Swiss { swiss, .. } => (swiss.rounds.len() as u32) < swiss.total_rounds,
            Play::RoundRobin(play) => play.is_none(),
        };
        if !open {
            return Err(EventError::Closed);
        }
        self.spec.admits(rating, password, self.active_members()).map_err(EventError::Refused)?;
        self.members.push(Member { account: account.to_owned(), name: name.to_owned(), rating });
        match &mut self.play {
            Play::Arena(arena) => {
                arena.join(name, rating);
            }
            Play::Swiss { swiss, .. } => {
                swiss.join(name, rating);
            }
            Play::RoundRobin(_) => {}
        }
        Ok(self.members.len() - 1)
    }

    /// `account` withdraws: before the start a round robin drops them, an arena and a Swiss
    /// keep them listed but out (they may come back while there is room); after the start an
    /// arena pauses them, a Swiss pairs them no more, and a round robin forfeits their later
    /// games.
    ///
    /// # Errors
    /// Not a member, or the tournament is over.
    pub fn withdraw(&mut self, account: &str) -> Result<(), EventError> {
        if matches!(self.stage, Stage::Finished | Stage::Cancelled) {
            return Err(EventError::Closed);
        }
        let i = self.member(account).ok_or(EventError::NotMember)?;
        match &mut self.play {
            Play::Arena(arena) => arena.leave(i).map_err(|_| EventError::NotMember),
            Play::Swiss { swiss, .. } => swiss.withdraw(i).map_err(|_| EventError::NotMember),
            Play::RoundRobin(None) => {
                self.members.remove(i);
                Ok(())
            }
            Play::RoundRobin(Some(play)) => {
                if !play.withdrawn.contains(&i) {
                    play.withdrawn.push(i);
                }
                Ok(())
            }
        }
    }

    fn finish(&mut self, now: u64) -> Vec<Action> {
        self.stage = Stage::Finished;
        self.ended_at = Some(now);
        vec![Action::Finished]
    }

    /// Moves the tournament on to `now` (Unix seconds): starts it, pairs, opens rounds,
    /// reports overdue games, ends it. The server calls it every second or two.
    pub fn tick(&mut self, now: u64) -> Vec<Action> {
        match self.stage {
            Stage::Finished | Stage::Cancelled => return Vec::new(),
            Stage::Upcoming if now < self.spec.starts_at => return Vec::new(),
            Stage::Upcoming => {
                if self.active_members() < 2 {
                    self.stage = Stage::Cancelled;
                    self.ended_at = Some(now);
                    return vec![Action::Finished];
                }
                self.stage = Stage::Running;
                if let Play::RoundRobin(play @ None) = &mut self.play {
                    let mut by_rating: Vec<usize> = (0..self.members.len()).collect();
                    by_rating.sort_by_key(|&i| (std::cmp::Reverse(self.members[i].rating), i));
                    let cycles = match self.spec.format {
                        Format::RoundRobin { cycles, .. } => cycles as usize,
                        _ => 1,
                    };
                    let schedule =
                        round_robin::schedule(by_rating.len(), cycles).unwrap_or_default();
                    let results = schedule.iter().map(|r| vec![None; r.boards.len()]).collect();
                    *play = Some(RoundRobinPlay {
                        schedule,
                        members_by_number: by_rating,
                        opened: 0,
                        results,
                        withdrawn: Vec::new(),
                    });
                }
                let present = self.active_members();
                if let Play::Swiss { swiss, next_round_at } = &mut self.play {
                    // No more rounds than a field can play without meeting twice.
                    swiss.total_rounds = swiss.total_rounds.min(present - 1).max(1);
                    *next_round_at = Some(now);
                }
            }
            Stage::Running => {}
        }
        let ends_at = self.ends_at();
        let start = self.spec.starts_at;
        let pause = match self.spec.format {
            Format::Swiss { pause_seconds, .. } => u64::from(pause_seconds),
            _ => 0,
        };
        let round_seconds = match self.spec.format {
            Format::RoundRobin { round_hours, .. } => u64::from(round_hours) * 3600,
            _ => 0,
        };
        let mut actions = Vec::new();
        match &mut self.play {
            Play::Arena(arena) => {
                let end = ends_at.unwrap_or(u64::MAX);
                if now >= end {
                    // As lichess: the arena ends on time; games still going do not count.
                    arena.games.clear();
                    return self.finish(now);
                }
                // Pairings close before the end (lichess: half the clock's initial time, at
                // least 30 s and at most 2 minutes), so the last games can finish in time.
                let closing = u64::from(self.spec.clock.initial_seconds / 2).clamp(30, 120);
                if now + closing < end {
                    for (white, black) in arena.pair_waiting() {
                        actions.push(Action::StartGame { white, black, round: None });
                    }
                }
            }
            Play::Swiss { swiss, next_round_at } => {
                if swiss.round_finished() && next_round_at.is_none() {
                    if swiss.rounds.len() as u32 >= swiss.total_rounds {
                        return self.finish(now);
                    }
                    *next_round_at = Some(now + pause);
                }
                if next_round_at.is_some_and(|at| now >= at) {
                    *next_round_at = None;
                    let Ok(pairings) = swiss.start_round() else { return self.finish(now) };
                    let round = swiss.rounds.len() as u32;
                    for &(white, black) in &pairings.boards {
                        actions.push(Action::StartGame {
                            white: white as usize,
                            black: black as usize,
                            round: Some(round),
                        });
                    }
                }
            }
            Play::RoundRobin(Some(play)) => {
                // Games past their round's deadline (before the next round's start, so the server
                // ends them first).
                for r in 0..play.opened {
                    if now >= start + (r as u64 + 1) * round_seconds {
                        for (b, board) in play.schedule[r].boards.iter().enumerate() {
                            if play.results[r][b].is_none() {
                                let Board { white, black } = *board;
                                actions.push(Action::Overdue {
                                    white: play.members_by_number[white - 1],
                                    black: play.members_by_number[black - 1],
                                });
                            }
                        }
                    }
                }
                // Rounds open on the clock.
                while play.opened < play.schedule.len()
                    && now >= start + play.opened as u64 * round_seconds
                {
                    let r = play.opened;
                    play.opened += 1;
                    for (b, board) in play.schedule[r].boards.iter().enumerate() {
                        let (white, black) = (
                            play.members_by_number[board.white - 1],
                            play.members_by_number[board.black - 1],
                        );
                        let (w_out, b_out) =
                            (play.withdrawn.contains(&white), play.withdrawn.contains(&black));
                        if w_out || b_out {
                            // Whoever withdrew forfeits; if both did, nobody scores.
                            play.results[r][b] = Some(match (w_out, b_out) {
                                (true, true) => BoardResult::DoubleForfeit,
                                (true, false) => BoardResult::Forfeit(Outcome::Loss),
                                _ => BoardResult::Forfeit(Outcome::Win),
                            });
                        } else {
                            actions.push(Action::StartGame {
                                white,
                                black,
                                round: Some(r as u32 + 1),
                            });
                        }
                    }
                }
                if play.opened == play.schedule.len()
                    && play.results.iter().flatten().all(Option::is_some)
                {
                    return self.finish(now);
                }
            }
            Play::RoundRobin(None) => {}
        }
        actions
    }

    /// A game ended: White's `outcome`, its length in plies, who berserked, whether it was a
    /// forfeit (the loser never came).
    ///
    /// # Errors
    /// No such game going between these members.
    pub fn finished(
        &mut self,
        white: usize,
        black: usize,
        outcome: Outcome,
        plies: u32,
        berserk: [bool; 2],
        forfeit: bool,
    ) -> Result<(), EventError> {
        let berserk_allowed = matches!(self.spec.format, Format::Arena { berserk: true, .. });
        match &mut self.play {
            Play::Arena(arena) => {
                let berserk = if berserk_allowed { berserk } else { [false; 2] };
                let plies = if forfeit { 0 } else { plies };
                arena
                    .finish(white, black, outcome, plies, berserk)
                    .map_err(|_| EventError::NoSuchGame)
            }
            Play::Swiss { swiss, .. } => {
                let pending = swiss.rounds.last().and_then(|r| r.get(white)).copied();
                match pending {
                    Some(RoundResult::Pending { opponent, colour: crate::Colour::White })
                        if opponent == black =>
                    {
                        swiss.record(white, outcome, forfeit).map_err(|_| EventError::NoSuchGame)
                    }
                    _ => Err(EventError::NoSuchGame),
                }
            }
            Play::RoundRobin(Some(play)) => {
                for r in 0..play.opened {
                    for (b, board) in play.schedule[r].boards.iter().enumerate() {
                        let pair = (
                            play.members_by_number[board.white - 1],
                            play.members_by_number[board.black - 1],
                        );
                        if pair == (white, black) && play.results[r][b].is_none() {
                            play.results[r][b] = Some(match (forfeit, outcome) {
                                (false, o) => BoardResult::Played(o),
                                // A forfeit "drawn": neither came.
                                (true, Outcome::Draw) => BoardResult::DoubleForfeit,
                                (true, o) => BoardResult::Forfeit(o),
                            });
                            return Ok(());
                        }
                    }
                }
                Err(EventError::NoSuchGame)
            }
            Play::RoundRobin(None) => Err(EventError::NoSuchGame),
        }
    }

    /// The standings, whatever the format, best first.
    #[must_use]
    pub fn standings(&self) -> Vec<Row> {
        let family = self.spec.family;
        match &self.play {
            Play::Arena(arena) => arena
                .standings()
                .into_iter()
                .map(|s| Row {
                    member: s.player,
                    rank: s.rank,
                    points: s.sheet.total,
                    halves: false,
                    tiebreaks: Vec::new(),
                    performance: s.performance,
                    on_fire: arena.streaks && s.sheet.on_fire(),
                    active: arena.entrants[s.player].presence != Presence::Paused,
                })
                .collect(),
            Play::Swiss { swiss, .. } => {
                let order = tiebreak::customary(family, tiebreak::Format::Swiss);
                swiss
                    .standings(order)
                    .into_iter()
                    .map(|s| {
                        let active = !swiss.players[s.player].withdrawn;
                        scored_row(s, order, active)
                    })
                    .collect()
            }
            Play::RoundRobin(play) => {
                let order = tiebreak::customary(family, tiebreak::Format::RoundRobin);
                let mut rounds: Vec<Vec<tiebreak::Round>> = vec![Vec::new(); self.members.len()];
                if let Some(play) = play {
                    for (r, round) in play.schedule.iter().enumerate() {
                        for (b, board) in round.boards.iter().enumerate() {
                            let Some(result) = play.results[r][b] else { continue };
                            let (w, bl) = (
                                play.members_by_number[board.white - 1],
                                play.members_by_number[board.black - 1],
                            );
                            let (white_half, played) = match result {
                                BoardResult::Played(o) => (Some(o), true),
                                BoardResult::Forfeit(o) => (Some(o), false),
                                BoardResult::DoubleForfeit => (None, false),
                            };
                            for (me, other, outcome) in
                                [(w, bl, white_half), (bl, w, white_half.map(Outcome::reversed))]
                            {
                                rounds[me].push(tiebreak::Round {
                                    opponent: played.then_some(other),
                                    half_points: outcome.map_or(0, Outcome::half_points),
                                });
                            }
                        }
                    }
                }
                tiebreak::standings(&rounds, order)
                    .into_iter()
                    .map(|s| {
                        let active = play.as_ref().is_none_or(|p| !p.withdrawn.contains(&s.player));
                        scored_row(s, order, active)
                    })
                    .collect()
            }
        }
    }
}

/// A Swiss or round-robin standing as a row: half points and tie-breaks.
fn scored_row(s: tiebreak::Standing, order: &[Tiebreak], active: bool) -> Row {
    Row {
        member: s.player,
        rank: s.rank,
        points: s.half_points,
        halves: true,
        tiebreaks: order.iter().copied().zip(s.tiebreaks).collect(),
        performance: None,
        on_fire: false,
        active,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Family;
    use crate::spec::Clock;

    const NOW: u64 = 1_800_000_000;

    fn spec(format: Format) -> Spec {
        Spec {
            name: "Test".into(),
            family: Family::Chess,
            rules: String::new(),
            starts_at: NOW + 60,
            clock: Clock { initial_seconds: 180, increment_seconds: 0 },
            format,
            rated: true,
            password: None,
            min_rating: None,
            max_rating: None,
            max_players: 16,
        }
    }

    fn with_members(format: Format, n: usize) -> Tournament {
        let mut t = Tournament::new("t1", spec(format), "creator", NOW).unwrap();
        for i in 0..n {
            t.join(&format!("acc{i}"), &format!("P{i}"), 1500 + 37 * i as i32, None).unwrap();
        }
        t
    }

    /// Plays every game an action starts: the lower member index wins.
    fn play_all(t: &mut Tournament, actions: &[Action]) -> usize {
        let mut games = 0;
        for action in actions {
            if let Action::StartGame { white, black, .. } = *action {
                let outcome = if white < black { Outcome::Win } else { Outcome::Loss };
                t.finished(white, black, outcome, 40, [false, false], false).unwrap();
                games += 1;
            }
        }
        games
    }

    #[test]
    fn a_whole_arena_from_start_to_finish() {
        let mut t = with_members(Format::Arena { minutes: 10, berserk: true, streaks: true }, 6);
        assert!(t.tick(NOW).is_empty(), "not yet");
        let mut now = NOW + 60;
        let mut games = 0;
        while now < NOW + 60 + 600 {
            let actions = t.tick(now);
            assert_eq!(t.stage, Stage::Running);
            games += play_all(&mut t, &actions);
            now += 30;
        }
        assert!(games >= 40, "{games} games in ten minutes of ticks");
        assert_eq!(t.tick(now), vec![Action::Finished]);
        assert_eq!(t.stage, Stage::Finished);
        let table = t.standings();
        assert_eq!(table.len(), 6);
        assert_eq!(table[0].member, 0, "member 0 wins every game");
        assert!(table[0].points > table[5].points);
        assert_eq!(t.join("late", "Late", 1500, None), Err(EventError::Closed));
    }

    #[test]
    fn a_whole_swiss_with_its_pauses() {
        let mut t = with_members(Format::Swiss { rounds: 4, pause_seconds: 30 }, 7);
        let mut now = NOW + 60;
        let mut rounds = 0;
        loop {
            let actions = t.tick(now);
            if actions.contains(&Action::Finished) {
                break;
            }
            if actions.iter().any(|a| matches!(a, Action::StartGame { .. })) {
                rounds += 1;
                assert_eq!(play_all(&mut t, &actions), 3, "seven players: three games and a bye");
            }
            now += 10;
            assert!(now < NOW + 10_000, "the Swiss never ends");
        }
        assert_eq!(rounds, 4);
        let table = t.standings();
        assert_eq!((table[0].member, table[0].points), (0, 8), "member 0 wins all four");
        assert_eq!(table[0].tiebreaks.len(), 4, "chess Swiss: four tie-breaks");
        assert_eq!(t.stage, Stage::Finished);
    }

    #[test]
    fn a_round_robin_opens_rounds_on_time_and_reports_overdue_games() {
        let mut t = with_members(Format::RoundRobin { cycles: 1, round_hours: 1 }, 4);
        let start = NOW + 60;
        let first = t.tick(start);
        assert_eq!(first.len(), 2, "round 1: two games");
        play_all(&mut t, &first[..1]);
        // An hour later round 2 opens and round 1's unfinished game is overdue.
        let later = t.tick(start + 3600);
        assert_eq!(
            later.iter().filter(|a| matches!(a, Action::StartGame { round: Some(2), .. })).count(),
            2
        );
        let overdue: Vec<_> =
            later.iter().filter(|a| matches!(a, Action::Overdue { .. })).collect();
        assert_eq!(overdue.len(), 1);
        if let Action::Overdue { white, black } = *overdue[0] {
            t.finished(white, black, Outcome::Draw, 0, [false, false], true).unwrap();
        }
        // A member withdraws: their round-3 game is forfeited when it opens.
        t.withdraw("acc3").unwrap();
        play_all(&mut t, &later);
        let third = t.tick(start + 7200);
        assert_eq!(third.iter().filter(|a| matches!(a, Action::StartGame { .. })).count(), 1);
        play_all(&mut t, &third);
        assert_eq!(t.tick(start + 7201), vec![Action::Finished]);
        let table = t.standings();
        assert_eq!(table.len(), 4);
        assert!(!table.iter().find(|r| r.member == 3).unwrap().active);
    }

    #[test]
    fn too_few_members_cancel_and_joining_follows_the_rules() {
        let mut t = with_members(Format::Arena { minutes: 10, berserk: false, streaks: false }, 1);
        assert_eq!(t.tick(NOW + 60), vec![Action::Finished]);
        assert_eq!(t.stage, Stage::Cancelled);

        let mut spec = spec(Format::RoundRobin { cycles: 1, round_hours: 24 });
        spec.max_players = 3;
        spec.password = Some("pw".into());
        let mut t = Tournament::new("t2", spec, "c", NOW).unwrap();
        assert_eq!(t.join("a", "A", 1500, Some("no")), Err(EventError::Refused(Refusal::Password)));
        for k in 0..3 {
            t.join(&format!("a{k}"), "A", 1500, Some("pw")).unwrap();
        }
        assert_eq!(t.join("a9", "A", 1500, Some("pw")), Err(EventError::Refused(Refusal::Full)));
        t.withdraw("a2").unwrap();
        assert_eq!(t.members.len(), 2, "gone before the start");
        t.tick(NOW + 60);
        assert_eq!(
            t.join("a5", "A", 1500, Some("pw")),
            Err(EventError::Closed),
            "a round robin's table is fixed"
        );
        assert_eq!(t.withdraw("nobody"), Err(EventError::NotMember));
        assert_eq!(
            t.finished(0, 0, Outcome::Win, 1, [false, false], false),
            Err(EventError::NoSuchGame)
        );
        let bad = spec_with_name("");
        assert!(matches!(
            Tournament::new("t3", bad, "c", NOW),
            Err(EventError::Spec(SpecError::Name))
        ));
    }

    fn spec_with_name(name: &str) -> Spec {
        let mut s = spec(Format::Swiss { rounds: 3, pause_seconds: 60 });
        s.name = name.into();
        s
    }

    #[test]
    fn a_tournament_survives_a_trip_through_json() {
        let mut t = with_members(Format::Swiss { rounds: 3, pause_seconds: 30 }, 5);
        let actions = t.tick(NOW + 60);
        play_all(&mut t, &actions[..1]);
        let text = serde_json::to_string(&t).unwrap();
        let back: Tournament = serde_json::from_str(&text).unwrap();
        assert_eq!(back, t);
    }

    #[test]
    fn two_withdrawn_round_robin_players_both_score_nothing_from_their_game() {
        let mut t = with_members(Format::RoundRobin { cycles: 1, round_hours: 1 }, 4);
        t.tick(NOW + 60);
        t.withdraw("acc2").unwrap();
        t.withdraw("acc3").unwrap();
        let mut now = NOW + 60;
        loop {
            now += 3600;
            let actions = t.tick(now);
            for action in &actions {
                if let Action::Overdue { white, black } = *action {
                    t.finished(white, black, Outcome::Draw, 0, [false, false], true).unwrap();
                }
            }
            play_all(&mut t, &actions);
            if actions.contains(&Action::Finished) || now > NOW + 10 * 3600 {
                break;
            }
        }
        assert_eq!(t.stage, Stage::Finished);
        let table = t.standings();
        for member in [2, 3] {
            let row = table.iter().find(|r| r.member == member).unwrap();
            // Their game with each other scores nothing; their forfeits against 0 and 1 neither.
            assert_eq!(row.points, 0, "member {member}");
        }
    }

    #[test]
    fn an_arena_stops_pairing_before_its_end_and_ends_on_time() {
        let mut t = with_members(Format::Arena { minutes: 10, berserk: false, streaks: true }, 4);
        let start = NOW + 60;
        let end = start + 600;
        assert_eq!(t.tick(start).len(), 2);
        // Those games finish a minute before the end: pairings are closed by then (90 s with
        // a three-minute clock).
        for (w, b) in [
            (0, 1),
            (2, 3),
            (1, 0),
            (3, 2),
            (0, 2),
            (2, 0),
            (1, 3),
            (3, 1),
            (0, 3),
            (3, 0),
            (1, 2),
            (2, 1),
        ] {
            let _ = t.finished(w, b, Outcome::Draw, 40, [false, false], false);
        }
        assert!(t.tick(end - 60).is_empty(), "no pairing in the last 90 s");
        assert_eq!(t.tick(end - 100).len(), 2, "still pairing 100 s before the end");
        // The end comes with those two games going: the arena ends, and they do not count.
        assert_eq!(t.tick(end), vec![Action::Finished]);
        assert_eq!(
            t.finished(0, 1, Outcome::Win, 40, [false, false], false),
            Err(EventError::NoSuchGame)
        );
    }

    #[test]
    fn coming_back_needs_room_and_a_swiss_can_be_rejoined_before_its_first_round() {
        let mut spec = spec(Format::Arena { minutes: 30, berserk: false, streaks: false });
        spec.max_players = 2;
        let mut t = Tournament::new("a", spec, "c", NOW).unwrap();
        t.join("x", "X", 1500, None).unwrap();
        t.join("y", "Y", 1500, None).unwrap();
        t.withdraw("x").unwrap();
        t.join("z", "Z", 1500, None).unwrap();
        assert_eq!(t.join("x", "X", 1500, None), Err(EventError::Refused(Refusal::Full)));
        assert_eq!(t.active_members(), 2);

        let mut t = with_members(Format::Swiss { rounds: 3, pause_seconds: 30 }, 3);
        t.withdraw("acc1").unwrap();
        assert_eq!(t.active_members(), 2);
        assert_eq!(t.join("acc1", "P1", 1537, None), Ok(1), "back before round 1");
        assert_eq!(t.active_members(), 3);
        t.tick(NOW + 60);
        t.withdraw("acc1").unwrap();
        assert_eq!(t.join("acc1", "P1", 1537, None), Err(EventError::Closed), "not after it");
    }

    #[test]
    fn a_small_swiss_plays_no_more_rounds_than_its_field_allows() {
        let mut t = with_members(Format::Swiss { rounds: 9, pause_seconds: 10 }, 4);
        t.tick(NOW + 60);
        match &t.play {
            Play::Swiss { swiss, .. } => assert_eq!(swiss.total_rounds, 3),
            other => panic!("{other:?}"),
        }
    }
}
