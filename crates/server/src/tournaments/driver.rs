//! The driver: runs every tournament that is due, on every node, once a second.
//!
//! One step of a tournament reads its stored document, counts the results of its finished
//! games (read from the games' own rows: the result a game stored is the one that counts), asks
//! the crate what happens now ([`Tournament::tick`](qi_tournament::event::Tournament::tick)), and writes the next version of the
//! document only if nobody wrote meanwhile — else it starts again on what is there now. Only
//! after that write does it create the games the pairing asked for, under the ids chosen and
//! stored with the pairing; a game whose id is kept but not stored (its driver died in
//! between) is created by the next step that sees it. So a result is counted once, a pairing
//! is made once and each of its games created once, whichever node steps, and whichever dies.
//!
//! A game nobody starts loses by forfeit: a Swiss or arena game whose side to move has not
//! made its first move [`FIRST_MOVE_SECONDS`] after the game was made (Black's window opens
//! with White's first move), a round-robin game at its round's deadline
//! ([`Action::NoShow`](crate::session::Action::NoShow)); a Swiss or arena player who forfeits
//! so is withdrawn (an arena's paused), as on lichess. A game that ends otherwise before both
//! sides moved (a resignation, an agreed draw) counts as played, unrated.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use qi_protocol::{ClockSpec, EndReason, GameResult, GameSpec, Seat};
use qi_tournament::Outcome;
use qi_tournament::event::{Action, Stage};
use qi_tournament::spec::Format;
use tokio_util::sync::CancellationToken;

use super::{Kept, TournamentGame, family_name, parse, record};
use crate::hub::Hub;
use crate::session::{Action as GameAction, Player};
use crate::storage::{GameProgress, StorageErrorKind, Write, stored_rules};

/// How long a paired player has to make their first move (Swiss and arena).
pub const FIRST_MOVE_SECONDS: u64 = 60;
/// The result kept for a game the tournament no longer counts (an arena's last games).
pub const UNCOUNTED: &str = "*";
/// How often the driver looks at the tournaments.
const PERIOD: Duration = Duration::from_secs(1);
/// How many times a step starts again after another writer changed the tournament.
const RETRIES: usize = 16;

/// Steps every tournament due, every [`PERIOD`], until `shutdown`.
pub async fn drive_every(hub: Arc<Hub>, shutdown: CancellationToken) {
    let mut every = tokio::time::interval(PERIOD);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            () = shutdown.cancelled() => return,
            _ = every.tick() => {}
        }
        if hub.lease_lost() {
            continue;
        }
        drive_once(&hub).await;
    }
}

/// One pass over the tournaments due now; returns how many were stepped.
pub async fn drive_once(hub: &Arc<Hub>) -> usize {
    let now = crate::storage::unix_ms() / 1000;
    let records = match hub.storage().tournaments(super::LIST_LIMIT).await {
        Ok(records) => records,
        Err(error) => {
            tracing::warn!(%error, "tournaments could not be listed");
            return 0;
        }
    };
    let due = records.iter().filter(|r| match r.stage.as_str() {
        "upcoming" => r.starts_at <= now,
        "running" => true,
        _ => false,
    });
    let mut stepped = 0;
    for record in due {
        if let Err(error) = step(hub, &record.id).await {
            tracing::warn!(tournament = %record.id, %error, "a tournament step failed");
        }
        stepped += 1;
    }
    stepped
}

/// What a step leaves to do once its write has gone through.
#[derive(Default)]
struct After {
    /// Games to create (new pairings, and kept pairings whose game is not stored).
    create: Vec<TournamentGame>,
    /// Games whose players did not start in time.
    no_show: Vec<String>,
}

/// One step of tournament `id` (see the module's documentation).
///
/// # Errors
/// Storage failing, or the tournament changing under every retry.
pub async fn step(hub: &Arc<Hub>, id: &str) -> Result<(), String> {
    let storage = hub.storage();
    for _ in 0..RETRIES {
        let Some(stored) = storage.tournament(id.to_owned()).await.map_err(|e| e.to_string())?
        else {
            return Ok(());
        };
        let Some(mut kept) = parse(&stored) else { return Ok(()) };
        if matches!(kept.tournament.stage, Stage::Finished | Stage::Cancelled) {
            return Ok(());
        }
        let going: Vec<String> =
            kept.games.iter().filter(|g| g.result.is_none()).map(|g| g.id.clone()).collect();
        let progress = storage.game_progress(going).await.map_err(|e| e.to_string())?;
        let now = crate::storage::unix_ms() / 1000;
        // Pairing a large Swiss takes a second: not on the server's async threads.
        let (kept_after, after) = tokio::task::spawn_blocking(move || {
            let after = advance(&mut kept, &progress, now);
            (kept, after)
        })
        .await
        .map_err(|e| e.to_string())?;
        kept = kept_after;
        let next = record(&kept, stored.version + 1, stored.created_unix_ms)
            .map_err(|_| "the tournament could not be written out".to_owned())?;
        if next.document != stored.document {
            match storage.write(vec![Write::Tournament(next)]).await {
                Ok(()) => {}
                Err(e) if e.kind == StorageErrorKind::Fenced => continue,
                Err(e) => return Err(e.to_string()),
            }
        }
        for game in &after.create {
            create_game(hub, &kept, game).await;
        }
        for game in &after.no_show {
            no_show(hub, game).await;
        }
        return Ok(());
    }
    Err("the tournament kept changing".into())
}

/// White's outcome in a finished game, and whether it was a forfeit (a side never came: the
/// server ended it at the first-move deadline).
fn outcome_of(result: &GameResult, progress: &GameProgress) -> (Outcome, bool) {
    let outcome = match result.winner {
        Some(Seat::First) => Outcome::Win,
        Some(Seat::Second) => Outcome::Loss,
        None => Outcome::Draw,
    };
    (outcome, result.reason == EndReason::Abandoned && !progress.both_moved)
}

/// When the side to move's first-move window opened (Unix seconds): at White's first move
/// for Black, else when the game was made (never before its pairing).
fn window_opened(game: &TournamentGame, progress: &GameProgress) -> u64 {
    match progress.last_move_unix_ms {
        Some(ms) => ms / 1000,
        None => game.paired_at.max(progress.created_unix_ms / 1000),
    }
}

/// The result as a record shows it, White's first.
fn shown(outcome: Outcome, forfeit: bool) -> &'static str {
    match (outcome, forfeit) {
        (Outcome::Win, false) => "1-0",
        (Outcome::Draw, false) => "1/2-1/2",
        (Outcome::Loss, false) => "0-1",
        (Outcome::Win, true) => "+--",
        (Outcome::Loss, true) => "--+",
        (Outcome::Draw, true) => "--",
    }
}

/// The decisions of one step on the kept tournament: results counted, the clock moved on,
/// new pairings kept with their games' ids. Pure but for the ids drawn.
fn advance(kept: &mut Kept, progress: &[GameProgress], now: u64) -> After {
    let mut after = After::default();
    let by_id: HashMap<&str, &GameProgress> = progress.iter().map(|p| (p.id.as_str(), p)).collect();
    let round_robin = matches!(kept.tournament.spec.format, Format::RoundRobin { .. });
    let mut forfeited = Vec::new();
    for game in kept.games.iter_mut().filter(|g| g.result.is_none()) {
        match by_id.get(game.id.as_str()) {
            None => after.create.push(game.clone()),
            Some(p) => match &p.result {
                Some(result) => {
                    let (outcome, forfeit) = outcome_of(result, p);
                    let t = &mut kept.tournament;
                    if let Err(error) =
                        t.finished(game.white, game.black, outcome, p.plies, [false; 2], forfeit)
                    {
                        // An arena that ended on time no longer counts its last games.
                        tracing::info!(game = %game.id, %error, "a result not counted");
                    }
                    game.result = Some(shown(outcome, forfeit).to_owned());
                    if forfeit && !round_robin {
                        match outcome {
                            Outcome::Win => forfeited.push(game.black),
                            Outcome::Loss => forfeited.push(game.white),
                            Outcome::Draw => forfeited.extend([game.white, game.black]),
                        }
                    }
                }
                None if !round_robin
                    && !p.both_moved
                    && now >= window_opened(game, p) + FIRST_MOVE_SECONDS =>
                {
                    after.no_show.push(game.id.clone());
                }
                None => {}
            },
        }
    }
    for member in forfeited {
        // Withdrawn (an arena's paused): they may join again.
        if let Some(account) = kept.tournament.members.get(member).map(|m| m.account.clone()) {
            let _ = kept.tournament.withdraw(&account);
        }
    }
    for action in kept.tournament.tick(now) {
        match action {
            Action::StartGame { white, black, round } => {
                let Ok(id) = crate::tokens::new_game_id() else {
                    tracing::error!("no game id could be drawn for a pairing");
                    continue;
                };
                let game = TournamentGame { id, white, black, round, paired_at: now, result: None };
                after.create.push(game.clone());
                kept.games.push(game);
            }
            Action::Overdue { white, black } => {
                let overdue = kept.games.iter().find(|g| {
                    g.result.is_none()
                        && (g.white, g.black) == (white, black)
                        && by_id.get(g.id.as_str()).is_some_and(|p| !p.both_moved)
                });
                // A game under way runs on its clock to its end.
                if let Some(game) = overdue {
                    after.no_show.push(game.id.clone());
                }
            }
            Action::Finished => {
                // An arena ends on time: its games still going do not count (`*`), and nobody
                // is sent to them any more.
                for game in kept.games.iter_mut().filter(|g| g.result.is_none()) {
                    game.result = Some(UNCOUNTED.to_owned());
                }
                tracing::info!(tournament = %kept.tournament.id, "a tournament finished");
            }
        }
    }
    after
}

/// Creates a tournament's game between its two members (logged if it cannot be: the next
/// step tries again while the game is not stored).
async fn create_game(hub: &Arc<Hub>, kept: &Kept, game: &TournamentGame) {
    let t = &kept.tournament;
    let Ok(rules) = stored_rules(family_name(t.spec.family), &t.spec.rules) else {
        tracing::error!(tournament = %t.id, "a tournament's rule options do not read");
        return;
    };
    let clock = ClockSpec {
        base_secs: t.spec.clock.initial_seconds,
        increment_secs: t.spec.clock.increment_seconds,
    };
    let spec = GameSpec { rules, clock: Some(clock), rated: t.spec.rated };
    let mut players = Vec::with_capacity(2);
    for index in [game.white, game.black] {
        let Some(member) = t.members.get(index) else { return };
        let ratings = hub.storage().ratings(member.account.clone()).await.unwrap_or_default();
        players.push(Player {
            name: member.name.clone(),
            account: Some(member.account.clone()),
            ratings: crate::hub::shown_ratings(&ratings, crate::storage::unix_ms()),
        });
    }
    let Ok(players) = <[Player; 2]>::try_from(players) else { return };
    if let Err(denied) = hub.tournament_game(game.id.clone(), t.id.clone(), spec, players).await {
        tracing::warn!(game = %game.id, detail = %denied.detail, "a tournament game not created");
    }
}

/// Tells a game its first-move deadline passed.
async fn no_show(hub: &Arc<Hub>, id: &str) {
    let Some(handle) = hub.find(id).await else { return };
    let (outbox, _frames) = crate::outbox::Outbox::new();
    let conn = hub.new_connection();
    let command = crate::actor::Command::Act { conn, outbox, action: GameAction::NoShow };
    if !handle.send(command).await {
        tracing::info!(game = %id, "a no-show not sent: the game's task was stopping");
    }
    // The stand-in connection goes, here and on the game's node.
    hub.disconnect(conn).await;
}

#[cfg(test)]
mod tests {
    use super::*;
    use qi_tournament::Family;
    use qi_tournament::event::Tournament;
    use qi_tournament::spec::{Clock, Spec};

    fn swiss(players: usize) -> Kept {
        let spec = Spec {
            name: "Test".into(),
            family: Family::Chess,
            rules: String::new(),
            starts_at: 1_000,
            clock: Clock { initial_seconds: 60, increment_seconds: 0 },
            format: Format::Swiss { rounds: 3, pause_seconds: 10 },
            rated: false,
            password: None,
            min_rating: None,
            max_rating: None,
            max_players: 16,
        };
        let mut t = Tournament::new("t1", spec, "maker", 900).unwrap();
        for i in 0..players {
            t.join(&format!("p{i}"), &format!("P{i}"), 1500 + i as i32 * 10, None).unwrap();
        }
        Kept { tournament: t, games: Vec::new() }
    }

    fn over(id: &str, winner: Option<Seat>, plies: u32, both_moved: bool) -> GameProgress {
        let reason = if both_moved { EndReason::Resignation } else { EndReason::Abandoned };
        GameProgress {
            id: id.into(),
            result: Some(GameResult { winner, reason }),
            plies,
            both_moved,
            created_unix_ms: 1_000_000,
            last_move_unix_ms: None,
        }
    }

    fn going(id: &str, plies: u32) -> GameProgress {
        GameProgress {
            id: id.into(),
            result: None,
            plies,
            both_moved: plies >= 2,
            created_unix_ms: 1_000_000,
            last_move_unix_ms: (plies > 0).then_some(1_010_000),
        }
    }

    #[test]
    fn a_swiss_is_paired_at_its_start_and_each_pairing_is_kept_with_its_game_id() {
        let mut kept = swiss(4);
        assert!(advance(&mut kept, &[], 999).create.is_empty(), "not before its start");
        let after = advance(&mut kept, &[], 1_000);
        assert_eq!(after.create.len(), 2);
        assert_eq!(kept.games, after.create, "each new game is kept with the pairing");
        // The next step, with the games not stored yet (the driver died before creating them):
        // the same games are asked for again, and no new pairing is made.
        let again = advance(&mut kept, &[], 1_001);
        assert_eq!(again.create, kept.games);
        assert_eq!(kept.games.len(), 2);
    }

    #[test]
    fn results_are_counted_once_and_the_next_round_follows_the_pause() {
        let mut kept = swiss(4);
        advance(&mut kept, &[], 1_000);
        let ids: Vec<String> = kept.games.iter().map(|g| g.id.clone()).collect();
        let results = [over(&ids[0], Some(Seat::First), 40, true), going(&ids[1], 10)];
        advance(&mut kept, &results, 1_100);
        assert_eq!(kept.games[0].result.as_deref(), Some("1-0"));
        // Counted once: the same finished game seen again changes nothing.
        let before = kept.clone();
        advance(&mut kept, &[going(&ids[1], 12)], 1_101);
        assert_eq!(kept, before);
        let results = [over(&ids[1], None, 60, true)];
        advance(&mut kept, &results, 1_200);
        assert_eq!(kept.games[1].result.as_deref(), Some("1/2-1/2"));
        assert!(advance(&mut kept, &[], 1_205).create.is_empty(), "the pause");
        let round_two = advance(&mut kept, &[], 1_211);
        assert_eq!(round_two.create.len(), 2);
        assert!(round_two.create.iter().all(|g| g.round == Some(2)));
    }

    #[test]
    fn a_side_that_never_moves_forfeits_and_is_withdrawn() {
        let mut kept = swiss(4);
        advance(&mut kept, &[], 1_000);
        let ids: Vec<String> = kept.games.iter().map(|g| g.id.clone()).collect();
        let waiting = [going(&ids[0], 0), going(&ids[1], 2)];
        assert!(advance(&mut kept, &waiting, 1_000 + FIRST_MOVE_SECONDS - 1).no_show.is_empty());
        let late = advance(&mut kept, &waiting, 1_000 + FIRST_MOVE_SECONDS);
        assert_eq!(late.no_show, [ids[0].clone()], "only the game not begun");
        // Black's window opens with White's first move (at 1,010 here), not at the pairing.
        let answered = [going(&ids[0], 1), going(&ids[1], 2)];
        let early = advance(&mut kept.clone(), &answered, 1_010 + FIRST_MOVE_SECONDS - 1);
        assert!(early.no_show.is_empty());
        let made_late = GameProgress { created_unix_ms: 1_030_000, ..going(&ids[0], 0) };
        let waits = advance(&mut kept.clone(), &[made_late, going(&ids[1], 2)], 1_060);
        assert!(waits.no_show.is_empty(), "a game made late (a node died) gets its whole minute");
        // The game ends: White never moved.
        let white = kept.games[0].white;
        let results = [over(&ids[0], Some(Seat::Second), 0, false), going(&ids[1], 4)];
        advance(&mut kept, &results, 1_070);
        assert_eq!(kept.games[0].result.as_deref(), Some("--+"));
        let standings = kept.tournament.standings();
        let row = standings.iter().find(|r| r.member == white).unwrap();
        assert!(!row.active, "the no-show is withdrawn");
    }

    #[test]
    fn a_game_ended_early_by_the_players_counts_as_played_and_nobody_is_withdrawn() {
        let mut kept = swiss(4);
        advance(&mut kept, &[], 1_000);
        let ids: Vec<String> = kept.games.iter().map(|g| g.id.clone()).collect();
        // A draw agreed after one move: a played draw, not a double forfeit.
        let agreed = GameProgress {
            result: Some(GameResult { winner: None, reason: EndReason::Agreement }),
            ..going(&ids[0], 1)
        };
        advance(&mut kept, &[agreed, going(&ids[1], 4)], 1_020);
        assert_eq!(kept.games[0].result.as_deref(), Some("1/2-1/2"));
        assert!(kept.tournament.standings().iter().all(|row| row.active));
        // Nobody came to the other: both forfeit, nobody scores, both are withdrawn.
        let deserted = over(&ids[1], None, 0, false);
        advance(&mut kept, &[deserted], 1_100);
        assert_eq!(kept.games[1].result.as_deref(), Some("--"));
        let out = kept.tournament.standings().iter().filter(|row| !row.active).count();
        assert_eq!(out, 2);
    }

    #[test]
    fn an_arena_that_ends_on_time_leaves_no_game_going() {
        let spec = Spec {
            format: Format::Arena { minutes: 10, berserk: true, streaks: true },
            ..swiss(0).tournament.spec
        };
        let mut t = Tournament::new("t2", spec, "maker", 900).unwrap();
        for i in 0..4 {
            t.join(&format!("p{i}"), &format!("P{i}"), 1500, None).unwrap();
        }
        let mut kept = Kept { tournament: t, games: Vec::new() };
        advance(&mut kept, &[], 1_000);
        assert_eq!(kept.games.len(), 2);
        let ids: Vec<String> = kept.games.iter().map(|g| g.id.clone()).collect();
        let going_now = [going(&ids[0], 10), going(&ids[1], 10)];
        advance(&mut kept, &going_now, 1_000 + 10 * 60);
        assert_eq!(kept.tournament.stage, Stage::Finished);
        assert!(kept.games.iter().all(|g| g.result.as_deref() == Some(UNCOUNTED)));
    }
}
