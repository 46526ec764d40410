//! The storage on a thread of its own, so that a slow disk never stalls the async runtime, with
//! group commit: writes that queue up while one commit is in flight go into the next commit
//! together, so they share one fsync.
//!
//! Requests are carried out in the order they were queued (a group of writes is committed
//! before whatever came after it is answered); [`StorageHandle::flush`] rests on that.

use std::sync::mpsc;

use tokio::sync::oneshot;

use super::{
    AccountRecord, ProfileData, RatingRecord, SessionRecord, Storage, StorageError, StoredGame,
    Write,
};

/// The most writes committed together.
const MAX_GROUP: usize = 256;

type Reply<T> = oneshot::Sender<Result<T, StorageError>>;

enum Request {
    Write(Vec<Write>, Reply<()>),
    Load(String, Reply<Option<StoredGame>>),
    Unfinished(Reply<Vec<StoredGame>>),
    Sweep {
        cutoff_unix_ms: u64,
        keep: Vec<String>,
        reply: Reply<usize>,
    },
    Flush(Reply<()>),
    /// Anything else that reads: the account queries.
    Call(Job),
}

type Job = Box<dyn FnOnce(&mut dyn Storage) + Send>;

/// The way to the storage thread; clones share it. The thread ends when the last clone is gone.
#[derive(Clone, Debug)]
pub struct StorageHandle {
    requests: mpsc::Sender<Request>,
}

fn gone() -> StorageError {
    StorageError::new("the storage thread has stopped")
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
            .map_err(|e| StorageError::new(format!("cannot start the storage thread: {e}")))?;
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

    /// Deletes old aborted and never-started games, as [`Storage::sweep`]; returns how many.
    ///
    /// Meant to be called now and then (say hourly) by a task of the hub, with `keep` every
    /// game in memory and the hub's loading lock held from listing them until this returns, so
    /// that no game is loaded (and then written to) between the list and the sweep; and a
    /// cutoff at least [`INVITE_EXPIRY_MS`](crate::hub::INVITE_EXPIRY_MS) ago.
    ///
    /// # Errors
    /// [`StorageError`]; nothing was deleted then.
    pub async fn sweep(
        &self,
        cutoff_unix_ms: u64,
        keep: Vec<String>,
    ) -> Result<usize, StorageError> {
        self.ask(|reply| Request::Sweep { cutoff_unix_ms, keep, reply }).await
    }

    async fn call<T: Send + 'static>(
        &self,
        query: impl FnOnce(&mut dyn Storage) -> Result<T, StorageError> + Send + 'static,
    ) -> Result<T, StorageError> {
        self.ask(|reply| {
            Request::Call(Box::new(move |storage: &mut dyn Storage| {
                let _ = reply.send(query(storage));
            }))
        })
        .await
    }

    /// Makes an account and its first session, as [`Storage::register`]: `false` when the
    /// name's key is taken.
    ///
    /// # Errors
    /// [`StorageError`]; nothing was written then.
    pub async fn register(
        &self,
        account: AccountRecord,
        session: SessionRecord,
    ) -> Result<bool, StorageError> {
        self.call(move |storage| storage.register(&account, &session)).await
    }

    /// The account with this key, as [`Storage::account`].
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn account(&self, key: String) -> Result<Option<AccountRecord>, StorageError> {
        self.call(move |storage| storage.account(&key)).await
    }

    /// The name of the account that looks like `skeleton`, as [`Storage::account_named_like`].
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn account_named_like(
        &self,
        skeleton: String,
    ) -> Result<Option<String>, StorageError> {
        self.call(move |storage| storage.account_named_like(&skeleton)).await
    }

    /// A session and its account, as [`Storage::session`].
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn session(
        &self,
        token_hash: String,
    ) -> Result<Option<(SessionRecord, AccountRecord)>, StorageError> {
        self.call(move |storage| storage.session(&token_hash)).await
    }

    /// An account's ratings, as [`Storage::ratings`].
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn ratings(&self, account: String) -> Result<Vec<RatingRecord>, StorageError> {
        self.call(move |storage| storage.ratings(&account)).await
    }

    /// An account's puzzle results, as [`Storage::puzzle_results`].
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn puzzle_results(
        &self,
        account: String,
    ) -> Result<Vec<super::PuzzleResultRecord>, StorageError> {
        self.call(move |storage| storage.puzzle_results(&account)).await
    }

    /// A tournament, as [`Storage::tournament`].
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn tournament(
        &self,
        id: String,
    ) -> Result<Option<super::TournamentRecord>, StorageError> {
        self.call(move |storage| storage.tournament(&id)).await
    }

    /// The lobby's tournaments, as [`Storage::tournaments`].
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn tournaments(
        &self,
        limit: usize,
    ) -> Result<Vec<super::TournamentRecord>, StorageError> {
        self.call(move |storage| storage.tournaments(limit)).await
    }

    /// How these games stand, as [`Storage::game_progress`].
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn game_progress(
        &self,
        ids: Vec<String>,
    ) -> Result<Vec<super::GameProgress>, StorageError> {
        self.call(move |storage| storage.game_progress(&ids)).await
    }

    /// What an account created lately, as [`Storage::tournaments_created`].
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn tournaments_created(
        &self,
        creator: String,
        since_unix_ms: u64,
    ) -> Result<Vec<super::TournamentRecord>, StorageError> {
        self.call(move |storage| storage.tournaments_created(&creator, since_unix_ms)).await
    }

    /// An account's profile, as [`Storage::profile`].
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn profile(
        &self,
        account: String,
        max_games: usize,
    ) -> Result<Option<ProfileData>, StorageError> {
        self.call(move |storage| storage.profile(&account, max_games)).await
    }

    /// Resolves once every request queued before it has been carried out (each write stored or
    /// failed): for a server shutting down, to finish the writes under way before it exits.
    ///
    /// # Errors
    /// [`StorageError`] when the storage thread has stopped.
    pub async fn flush(&self) -> Result<(), StorageError> {
        self.ask(Request::Flush).await
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
    let together = if group.len() == 1 { None } else { Some(storage.write(&all)) };
    // A store that cannot be reached fails every one of them the same way: not tried one by
    // one (each would wait for the store again).
    if let Some(Err(e)) = &together
        && e.kind == super::StorageErrorKind::Unavailable
    {
        for (_, reply) in group {
            let _ = reply.send(Err(e.clone()));
        }
        return;
    }
    if together.as_ref().is_none_or(Result::is_err) {
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
        Request::Sweep { cutoff_unix_ms, keep, reply } => {
            let _ = reply.send(storage.sweep(cutoff_unix_ms, &keep));
        }
        // Everything queued before it was taken off the queue and done before it.
        Request::Flush(reply) => {
            let _ = reply.send(Ok(()));
        }
        Request::Call(job) => job(storage),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::{GameRecord, MemoryStorage};
    use qi_protocol::GameSpec;
    use qi_protocol::Variant;

    fn create(id: &str) -> Write {
        Write::Create(GameRecord {
            id: id.into(),
            spec: GameSpec::of(Variant::Gomoku),
            start: String::new(),
            invite_hash: String::new(),
            token_hashes: [String::new(), String::new()],
            names: [None, None],
            accounts: [None, None],
            created_unix_ms: 0,
            rematch_of: None,
            listed: false,
            tournament: None,
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

    /// Storage whose writes each wait for a permit, saying first that they wait.
    struct Gated {
        inner: MemoryStorage,
        waiting: tokio::sync::mpsc::UnboundedSender<()>,
        permits: mpsc::Receiver<()>,
    }

    impl Storage for Gated {
        fn write(&mut self, writes: &[Write]) -> Result<(), StorageError> {
            let _ = self.waiting.send(());
            // Once the test drops the permits' sender, every write goes through.
            let _ = self.permits.recv();
            self.inner.write(writes)
        }
        fn load(&mut self, game: &str) -> Result<Option<StoredGame>, StorageError> {
            self.inner.load(game)
        }
        fn unfinished(&mut self) -> Result<Vec<StoredGame>, StorageError> {
            self.inner.unfinished()
        }
        fn sweep(&mut self, cutoff: u64, keep: &[String]) -> Result<usize, StorageError> {
            self.inner.sweep(cutoff, keep)
        }
        crate::storage::delegate_accounts!();
    }

    #[tokio::test]
    async fn a_flush_waits_for_the_writes_queued_before_it() {
        let inner = MemoryStorage::new();
        let (waiting, mut waits) = tokio::sync::mpsc::unbounded_channel();
        let (permit, permits) = mpsc::channel();
        let gated = Gated { inner: inner.clone(), waiting, permits };
        let handle = StorageHandle::spawn(gated).unwrap();
        // A first write holds the thread, so the next ones queue up behind it.
        let first = tokio::spawn({
            let handle = handle.clone();
            async move { handle.write(vec![create("first")]).await }
        });
        waits.recv().await.unwrap();
        // A request is queued on a future's first poll.
        let mut queued = Vec::new();
        for n in 0..4 {
            let mut write = Box::pin(handle.write(vec![create(&format!("queued{n}"))]));
            assert!(futures_util::poll!(&mut write).is_pending());
            queued.push(write);
        }
        let mut flush = Box::pin(handle.flush());
        assert!(futures_util::poll!(&mut flush).is_pending());
        permit.send(()).unwrap();
        first.await.unwrap().unwrap();
        // The queued writes are being committed (together) and wait for their permit: the
        // flush cannot be through yet.
        waits.recv().await.unwrap();
        assert!(futures_util::poll!(&mut flush).is_pending(), "flushed before the writes");
        drop(permit);
        flush.await.unwrap();
        let mut stored = inner.clone();
        for n in 0..4 {
            assert!(stored.load(&format!("queued{n}")).unwrap().is_some(), "queued{n}");
        }
        for write in queued {
            write.await.unwrap();
        }
    }

    #[tokio::test]
    async fn sweeping_goes_through_the_thread() {
        let handle = StorageHandle::spawn(MemoryStorage::new()).unwrap();
        handle.write(vec![create("old"), create("kept")]).await.unwrap();
        // Created at 0 and never started: older than any cutoff after it.
        assert_eq!(handle.sweep(1, vec!["kept".into()]).await.unwrap(), 1);
        assert!(handle.load("old".into()).await.unwrap().is_none());
        assert!(handle.load("kept".into()).await.unwrap().is_some());
    }
}
