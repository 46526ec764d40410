//! The storage on a thread of its own, so that a slow disk never stalls the async runtime, with
//! group commit: writes that queue up while one commit is in flight go into the next commit
//! together, so they share one fsync.

use std::sync::mpsc;

use tokio::sync::oneshot;

use super::{Storage, StorageError, StoredGame, Write};

/// The most writes committed together.
const MAX_GROUP: usize = 256;

type Reply<T> = oneshot::Sender<Result<T, StorageError>>;

enum Request {
    Write(Vec<Write>, Reply<()>),
    Load(String, Reply<Option<StoredGame>>),
    Unfinished(Reply<Vec<StoredGame>>),
}

/// The way to the storage thread; clones share it. The thread ends when the last clone is gone.
#[derive(Clone, Debug)]
pub struct StorageHandle {
    requests: mpsc::Sender<Request>,
}

fn gone() -> StorageError {
    StorageError("the storage thread has stopped".into())
}

impl StorageHandle {
    /// Starts the storage thread around `storage`.
    ///
    /// # Errors
    /// [`StorageError`] when the thread cannot be started.
    pub fn spawn(storage: impl Storage) -> Result<StorageHandle, StorageError> {
        let (requests, queue) = mpsc::channel();
        std::thread::Builder::new()
            .name("qi-storage".into())
            .spawn(move || serve(storage, &queue))
            .map_err(|e| StorageError(format!("cannot start the storage thread: {e}")))?;
        Ok(StorageHandle { requests })
    }

    async fn ask<T>(&self, make: impl FnOnce(Reply<T>) -> Request) -> Result<T, StorageError> {
        let (reply, answer) = oneshot::channel();
        self.requests.send(make(reply)).map_err(|_| gone())?;
        answer.await.map_err(|_| gone())?
    }

    /// Writes `writes` together, durably; returns once they are on disk.
    ///
    /// # Errors
    /// [`StorageError`]; nothing was written then.
    pub async fn write(&self, writes: Vec<Write>) -> Result<(), StorageError> {
        self.ask(|reply| Request::Write(writes, reply)).await
    }

    /// One game, if stored.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn load(&self, game: String) -> Result<Option<StoredGame>, StorageError> {
        self.ask(|reply| Request::Load(game, reply)).await
    }

    /// Every unfinished game.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn unfinished(&self) -> Result<Vec<StoredGame>, StorageError> {
        self.ask(Request::Unfinished).await
    }
}

fn serve(mut storage: impl Storage, queue: &mpsc::Receiver<Request>) {
    while let Ok(first) = queue.recv() {
        let mut group = Vec::new();
        let mut others = Vec::new();
        let mut next = Some(first);
        while let Some(request) = next.take() {
            match request {
                Request::Write(writes, reply) => group.push((writes, reply)),
                other => others.push(other),
            }
            if group.len() < MAX_GROUP && others.is_empty() {
                next = queue.try_recv().ok();
            }
        }
        commit(&mut storage, group);
        for request in others {
            answer(&mut storage, request);
        }
    }
}

/// Commits a group of writes in one transaction; if that fails, each on its own, so one bad
/// write does not fail the others.
fn commit(storage: &mut impl Storage, group: Vec<(Vec<Write>, Reply<()>)>) {
    if group.is_empty() {
        return;
    }
    let all: Vec<Write> = group.iter().flat_map(|(writes, _)| writes.iter().cloned()).collect();
    if group.len() == 1 || storage.write(&all).is_err() {
        for (writes, reply) in group {
            let _ = reply.send(storage.write(&writes));
        }
        return;
    }
    for (_, reply) in group {
        let _ = reply.send(Ok(()));
    }
}

fn answer(storage: &mut impl Storage, request: Request) {
    match request {
        Request::Write(writes, reply) => {
            let _ = reply.send(storage.write(&writes));
        }
        Request::Load(game, reply) => {
            let _ = reply.send(storage.load(&game));
        }
        Request::Unfinished(reply) => {
            let _ = reply.send(storage.unfinished());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::{GameRecord, MemoryStorage};
    use qi_protocol::GameSpec;

    fn create(id: &str) -> Write {
        Write::Create(GameRecord {
            id: id.into(),
            spec: GameSpec { variant: "gomoku".into(), rules: String::new(), clock: None },
            start: String::new(),
            invite_hash: String::new(),
            token_hashes: [String::new(), String::new()],
            names: [None, None],
            created_unix_ms: 0,
            rematch_of: None,
        })
    }

    #[tokio::test]
    async fn writes_together_succeed_or_fail_one_by_one() {
        let handle = StorageHandle::spawn(MemoryStorage::new()).unwrap();
        let mut writes = Vec::new();
        for n in 0..50 {
            let handle = handle.clone();
            writes.push(tokio::spawn(
                async move { handle.write(vec![create(&n.to_string())]).await },
            ));
        }
        for write in writes {
            write.await.unwrap().unwrap();
        }
        // A write that must fail (the game exists) among good ones fails alone.
        let mut mixed = Vec::new();
        for id in ["x1", "7", "x2"] {
            let handle = handle.clone();
            mixed.push(tokio::spawn(async move { handle.write(vec![create(id)]).await }));
        }
        let results: Vec<bool> = futures_util::future::join_all(mixed)
            .await
            .into_iter()
            .map(|joined| joined.unwrap().is_ok())
            .collect();
        assert_eq!(results, [true, false, true]);
        assert_eq!(handle.unfinished().await.unwrap().len(), 52);
    }
}
