//! Games kept in memory: for unit tests (clones share the same games, so a test can "restart"
//! on the same storage).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use qi_protocol::{EndReason, Seat};

use super::{
    AccountRecord, GameProgress, ProfileData, PuzzleResultRecord, RatingRecord, RatingStep,
    SessionRecord, Storage, StorageError, StoredGame, TournamentRecord, Write, rate_finish,
};
use crate::rating::RatedGame;

/// A game and when it ended (which [`StoredGame`] does not carry, and sweeping needs).
#[derive(Clone, Debug)]
struct Entry {
    stored: StoredGame,
    ended_unix_ms: Option<u64>,
}

type Games = HashMap<String, Entry>;

/// Everything a store keeps.
#[derive(Clone, Debug, Default)]
struct Data {
    games: Games,
    accounts: HashMap<String, AccountRecord>,
    sessions: HashMap<String, SessionRecord>,
    ratings: HashMap<(String, RatedGame), RatingRecord>,
    history: HashMap<String, Vec<RatingStep>>,
    puzzles: HashMap<String, Vec<PuzzleResultRecord>>,
    tournaments: HashMap<String, TournamentRecord>,
}

/// Games in memory, shared by clones.
#[derive(Clone, Debug, Default)]
pub struct MemoryStorage {
    data: Arc<Mutex<Data>>,
}

impl MemoryStorage {
    /// An empty store.
    #[must_use]
    pub fn new() -> MemoryStorage {
        MemoryStorage::default()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Data> {
        self.data.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

fn entry<'a>(games: &'a mut Games, id: &str) -> Result<&'a mut Entry, StorageError> {
    games.get_mut(id).ok_or_else(|| StorageError::new(format!("no game {id}")))
}

fn apply(data: &mut Data, write: &Write) -> Result<(), StorageError> {
    let games = &mut data.games;
    match write {
        Write::Create(record) => {
            if games.contains_key(&record.id) {
                return Err(StorageError::new(format!("game {} exists", record.id)));
            }
            let stored = StoredGame {
                game: record.clone(),
                moves: Vec::new(),
                result: None,
                final_clocks: None,
                chat: Vec::new(),
            };
            games.insert(record.id.clone(), Entry { stored, ended_unix_ms: None });
        }
        Write::TakeSeat { game, seat, name, account, token_hash } => {
            let stored = &mut entry(games, game)?.stored;
            stored.game.names[seat.index()] = Some(name.clone());
            stored.game.accounts[seat.index()].clone_from(account);
            stored.game.token_hashes[seat.index()].clone_from(token_hash);
        }
        Write::Move { game, mv } => {
            let stored = &mut entry(games, game)?.stored;
            if usize::try_from(mv.ply).ok() != Some(stored.moves.len()) {
                return Err(StorageError::new(format!("ply {} out of order in {game}", mv.ply)));
            }
            stored.moves.push(mv.clone());
        }
        Write::Finish { game, result, clocks, unix_ms } => {
            let found = entry(games, game)?;
            // A game is rated once, when it first gets its result.
            let had_result = found.stored.result.is_some();
            found.stored.result = Some(result.clone());
            found.stored.final_clocks = *clocks;
            found.ended_unix_ms = Some(*unix_ms);
            let record = found.stored.game.clone();
            // A game where a side never moved (a tournament's forfeit) is not rated.
            let movers = &found.stored.moves;
            let both_moved = [Seat::First, Seat::Second]
                .iter()
                .all(|seat| movers.iter().any(|mv| mv.seat == *seat));
            let rated =
                super::rated_kind(&record.spec, &record.accounts, result).filter(|_| both_moved);
            if let Some(kind) = rated.filter(|_| !had_result) {
                let keys = record.accounts.clone().map(Option::unwrap_or_default);
                let current = keys.clone().map(|key| data.ratings.get(&(key, kind)).copied());
                if let Some(next) =
                    rate_finish(&record.spec, &record.accounts, result, *unix_ms, current)
                {
                    for (key, rating) in keys.into_iter().zip(next) {
                        data.ratings.insert((key.clone(), kind), rating);
                        data.history.entry(key).or_default().push(RatingStep {
                            kind,
                            game: game.clone(),
                            unix_ms: *unix_ms,
                            rating: rating.rating.rating,
                            deviation: rating.rating.deviation,
                        });
                    }
                }
            }
        }
        Write::Chat { game, line } => entry(games, game)?.stored.chat.push(line.clone()),
        Write::Takeback { game, plies } => {
            let stored = &mut entry(games, game)?.stored;
            stored.moves.truncate(usize::try_from(*plies).unwrap_or(usize::MAX));
        }
        Write::Clocks { game, ply, remaining_ms } => {
            let stored = &mut entry(games, game)?.stored;
            let index = usize::try_from(*ply).unwrap_or(usize::MAX);
            let mv = stored
                .moves
                .get_mut(index)
                .ok_or_else(|| StorageError::new(format!("no ply {ply} in {game}")))?;
            mv.remaining_ms = Some(*remaining_ms);
        }
        Write::Session(session) => {
            if !data.accounts.contains_key(&session.account) {
                return Err(StorageError::new(format!("no account {}", session.account)));
            }
            data.sessions.insert(session.token_hash.clone(), session.clone());
        }
        Write::EndSession { token_hash } => {
            data.sessions.remove(token_hash);
        }
        Write::EndSessions { account } => data.sessions.retain(|_, s| s.account != *account),
        Write::Password { account, password_hash } => {
            let found = data
                .accounts
                .get_mut(account)
                .ok_or_else(|| StorageError::new(format!("no account {account}")))?;
            found.password_hash.clone_from(password_hash);
        }
        Write::PuzzleResult(result) => {
            if !data.accounts.contains_key(&result.account) {
                return Err(StorageError::new(format!("no account {}", result.account)));
            }
            let results = data.puzzles.entry(result.account.clone()).or_default();
            if !results.iter().any(|r| r.game == result.game && r.puzzle == result.puzzle) {
                results.push(result.clone());
            }
        }
        Write::Tournament(record) => {
            let stored = data.tournaments.get(&record.id).map(|t| t.version);
            match (stored, record.version) {
                (None, 1) => {}
                (Some(_), 1) => {
                    return Err(StorageError::new(format!("tournament {} exists", record.id)));
                }
                (Some(v), next) if v + 1 == next => {}
                _ => {
                    return Err(StorageError::fenced(format!(
                        "tournament {} changed meanwhile",
                        record.id
                    )));
                }
            }
            data.tournaments.insert(record.id.clone(), record.clone());
        }
        // One writer: no lease to check.
        Write::Fence { .. } => {}
    }
    Ok(())
}

impl Storage for MemoryStorage {
    fn write(&mut self, writes: &[Write]) -> Result<(), StorageError> {
        let mut data = self.lock();
        let mut next = data.clone();
        for write in writes {
            apply(&mut next, write)?;
        }
        *data = next;
        Ok(())
    }

    fn load(&mut self, game: &str) -> Result<Option<StoredGame>, StorageError> {
        Ok(self.lock().games.get(game).map(|entry| entry.stored.clone()))
    }

    fn unfinished(&mut self) -> Result<Vec<StoredGame>, StorageError> {
        let data = self.lock();
        let unfinished = data.games.values().filter(|entry| entry.stored.result.is_none());
        Ok(unfinished.map(|entry| entry.stored.clone()).collect())
    }

    fn sweep(&mut self, cutoff_unix_ms: u64, keep: &[String]) -> Result<usize, StorageError> {
        let mut data = self.lock();
        let expired = cutoff_unix_ms.saturating_sub(super::SESSION_LIFETIME_MS);
        data.sessions.retain(|_, session| session.created_unix_ms >= expired);
        let games = &mut data.games;
        let before = games.len();
        games.retain(|id, entry| {
            let stored = &entry.stored;
            let aborted = stored.result.as_ref().is_some_and(|r| r.reason == EndReason::Aborted)
                && entry.ended_unix_ms.is_some_and(|ended| ended < cutoff_unix_ms);
            let never_started = stored.result.is_none()
                && stored.moves.is_empty()
                && stored.game.created_unix_ms < cutoff_unix_ms;
            let tournament = stored.game.tournament.is_some();
            !(aborted || never_started) || tournament || keep.contains(id)
        });
        Ok(before - games.len())
    }

    fn register(
        &mut self,
        account: &AccountRecord,
        session: &SessionRecord,
    ) -> Result<bool, StorageError> {
        let mut data = self.lock();
        let skeleton = crate::names::name_skeleton(&account.name);
        let looks_alike =
            data.accounts.values().any(|a| crate::names::name_skeleton(&a.name) == skeleton);
        if data.accounts.contains_key(&account.key) || looks_alike {
            return Ok(false);
        }
        data.accounts.insert(account.key.clone(), account.clone());
        data.sessions.insert(session.token_hash.clone(), session.clone());
        Ok(true)
    }

    fn account(&mut self, key: &str) -> Result<Option<AccountRecord>, StorageError> {
        Ok(self.lock().accounts.get(key).cloned())
    }

    fn account_named_like(&mut self, skeleton: &str) -> Result<Option<String>, StorageError> {
        let data = self.lock();
        let found =
            data.accounts.values().find(|a| crate::names::name_skeleton(&a.name) == skeleton);
        Ok(found.map(|account| account.name.clone()))
    }

    fn session(
        &mut self,
        token_hash: &str,
    ) -> Result<Option<(SessionRecord, AccountRecord)>, StorageError> {
        let data = self.lock();
        let Some(session) = data.sessions.get(token_hash) else { return Ok(None) };
        Ok(data.accounts.get(&session.account).map(|account| (session.clone(), account.clone())))
    }

    fn ratings(&mut self, account: &str) -> Result<Vec<RatingRecord>, StorageError> {
        let data = self.lock();
        Ok(RatedGame::ALL
            .into_iter()
            .filter_map(|kind| data.ratings.get(&(account.to_owned(), kind)).copied())
            .collect())
    }

    fn puzzle_results(&mut self, account: &str) -> Result<Vec<PuzzleResultRecord>, StorageError> {
        Ok(self.lock().puzzles.get(account).cloned().unwrap_or_default())
    }

    fn tournament(&mut self, id: &str) -> Result<Option<TournamentRecord>, StorageError> {
        Ok(self.lock().tournaments.get(id).cloned())
    }

    fn tournaments(&mut self, limit: usize) -> Result<Vec<TournamentRecord>, StorageError> {
        let mut all: Vec<TournamentRecord> = self.lock().tournaments.values().cloned().collect();
        all.sort_by_key(|t| (super::tournament_order(t), t.id.clone()));
        all.truncate(limit);
        Ok(all)
    }

    fn tournaments_created(
        &mut self,
        creator: &str,
        since_unix_ms: u64,
    ) -> Result<Vec<TournamentRecord>, StorageError> {
        Ok(self
            .lock()
            .tournaments
            .values()
            .filter(|t| t.creator == creator && t.created_unix_ms >= since_unix_ms)
            .cloned()
            .collect())
    }

    fn game_progress(&mut self, ids: &[String]) -> Result<Vec<GameProgress>, StorageError> {
        let data = self.lock();
        Ok(ids
            .iter()
            .filter_map(|id| data.games.get(id))
            .map(|entry| {
                let stored = &entry.stored;
                let moved = |seat: Seat| stored.moves.iter().any(|mv| mv.seat == seat);
                GameProgress {
                    id: stored.game.id.clone(),
                    result: stored.result.clone(),
                    plies: u32::try_from(stored.moves.len()).unwrap_or(u32::MAX),
                    both_moved: moved(Seat::First) && moved(Seat::Second),
                    created_unix_ms: stored.game.created_unix_ms,
                    last_move_unix_ms: stored.moves.last().map(|mv| mv.unix_ms),
                }
            })
            .collect())
    }

    fn profile(
        &mut self,
        account: &str,
        max_games: usize,
    ) -> Result<Option<ProfileData>, StorageError> {
        let Some(record) = self.account(account)? else { return Ok(None) };
        let ratings = self.ratings(account)?;
        let data = self.lock();
        let mut games: Vec<(StoredGame, u64)> = data
            .games
            .values()
            .filter(|entry| {
                entry.stored.result.is_some()
                    && entry.stored.game.accounts.iter().any(|a| a.as_deref() == Some(account))
            })
            .filter_map(|entry| Some((entry.stored.clone(), entry.ended_unix_ms?)))
            .collect();
        games.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| b.0.game.id.cmp(&a.0.game.id)));
        games.truncate(max_games);
        let history = data.history.get(account).cloned().unwrap_or_default();
        Ok(Some(ProfileData { account: record, ratings, history, games }))
    }
}
