//! Games kept in memory: for unit tests (clones share the same games, so a test can "restart"
//! on the same storage).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::{Storage, StorageError, StoredGame, Write};

/// Games in memory, shared by clones.
#[derive(Clone, Debug, Default)]
pub struct MemoryStorage {
    games: Arc<Mutex<HashMap<String, StoredGame>>>,
}

impl MemoryStorage {
    /// An empty store.
    #[must_use]
    pub fn new() -> MemoryStorage {
        MemoryStorage::default()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, StoredGame>> {
        self.games.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

fn apply(games: &mut HashMap<String, StoredGame>, write: &Write) -> Result<(), StorageError> {
    let missing = |id: &str| StorageError(format!("no game {id}"));
    match write {
        Write::Create(record) => {
            if games.contains_key(&record.id) {
                return Err(StorageError(format!("game {} exists", record.id)));
            }
            let stored = StoredGame {
                game: record.clone(),
                moves: Vec::new(),
                result: None,
                final_clocks: None,
            };
            games.insert(record.id.clone(), stored);
        }
        Write::TakeSeat { game, seat, name, token_hash } => {
            let stored = games.get_mut(game).ok_or_else(|| missing(game))?;
            stored.game.names[seat.index()] = Some(name.clone());
            stored.game.token_hashes[seat.index()].clone_from(token_hash);
        }
        Write::Move { game, mv } => {
            let stored = games.get_mut(game).ok_or_else(|| missing(game))?;
            if usize::try_from(mv.ply).ok() != Some(stored.moves.len()) {
                return Err(StorageError(format!("ply {} out of order in {game}", mv.ply)));
            }
            stored.moves.push(mv.clone());
        }
        Write::Finish { game, result, clocks, .. } => {
            let stored = games.get_mut(game).ok_or_else(|| missing(game))?;
            stored.result = Some(result.clone());
            stored.final_clocks = *clocks;
        }
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
        Ok(self.lock().get(game).cloned())
    }

    fn unfinished(&mut self) -> Result<Vec<StoredGame>, StorageError> {
        Ok(self.lock().values().filter(|game| game.result.is_none()).cloned().collect())
    }
}
