//! Games kept in memory: for unit tests (clones share the same games, so a test can "restart"
//! on the same storage).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use qi_protocol::EndReason;

use super::{Storage, StorageError, StoredGame, Write};

/// A game and when it ended (which [`StoredGame`] does not carry, and sweeping needs).
#[derive(Clone, Debug)]
struct Entry {
    stored: StoredGame,
    ended_unix_ms: Option<u64>,
}

type Games = HashMap<String, Entry>;

/// Games in memory, shared by clones.
#[derive(Clone, Debug, Default)]
pub struct MemoryStorage {
    games: Arc<Mutex<Games>>,
}

impl MemoryStorage {
    /// An empty store.
    #[must_use]
    pub fn new() -> MemoryStorage {
        MemoryStorage::default()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Games> {
        self.games.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

fn entry<'a>(games: &'a mut Games, id: &str) -> Result<&'a mut Entry, StorageError> {
    games.get_mut(id).ok_or_else(|| StorageError::new(format!("no game {id}")))
}

fn apply(games: &mut Games, write: &Write) -> Result<(), StorageError> {
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
        Write::TakeSeat { game, seat, name, token_hash } => {
            let stored = &mut entry(games, game)?.stored;
            stored.game.names[seat.index()] = Some(name.clone());
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
            found.stored.result = Some(result.clone());
            found.stored.final_clocks = *clocks;
            found.ended_unix_ms = Some(*unix_ms);
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
        // One writer: no lease to check.
        Write::Fence { .. } => {}
    }
    Ok(())
}

impl Storage for MemoryStorage {
    fn write(&mut self, writes: &[Write]) -> Result<(), StorageError> {
        let mut games = self.lock();
        let mut next = games.clone();
        for write in writes {
            apply(&mut next, write)?;
        }
        *games = next;
        Ok(())
    }

    fn load(&mut self, game: &str) -> Result<Option<StoredGame>, StorageError> {
        Ok(self.lock().get(game).map(|entry| entry.stored.clone()))
    }

    fn unfinished(&mut self) -> Result<Vec<StoredGame>, StorageError> {
        let games = self.lock();
        let unfinished = games.values().filter(|entry| entry.stored.result.is_none());
        Ok(unfinished.map(|entry| entry.stored.clone()).collect())
    }

    fn sweep(&mut self, cutoff_unix_ms: u64, keep: &[String]) -> Result<usize, StorageError> {
        let mut games = self.lock();
        let before = games.len();
        games.retain(|id, entry| {
            let stored = &entry.stored;
            let aborted = stored.result.as_ref().is_some_and(|r| r.reason == EndReason::Aborted)
                && entry.ended_unix_ms.is_some_and(|ended| ended < cutoff_unix_ms);
            let never_started = stored.result.is_none()
                && stored.moves.is_empty()
                && stored.game.created_unix_ms < cutoff_unix_ms;
            !(aborted || never_started) || keep.contains(id)
        });
        Ok(before - games.len())
    }
}
