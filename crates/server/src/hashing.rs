//! Password hashing on a small fixed pool of threads, each with one Argon2 memory block of its
//! own that it keeps and reuses.
//!
//! Argon2id at its defaults needs 19 MiB for each hash. Run on tokio's blocking pool, the hashes
//! of a sign-in flood landed on many different threads, and glibc gives each thread its own
//! malloc arena, which keeps the 19 MiB once freed: 160 failed sign-ins left 400-515 MiB resident
//! for good. Here [`HashingPool`] has a fixed number of threads, each allocating its block once
//! (on its first hash) and hashing into it ever after, so the memory of hashing is at most
//! threads × 19 MiB, whatever comes. Requests wait in a bounded queue; when it is full, the
//! request is answered at once ([`HashingError::Busy`]) instead of piling up.

use std::panic::AssertUnwindSafe;
use std::sync::mpsc::{Receiver, SyncSender, TrySendError};
use std::sync::{Arc, Mutex, PoisonError};

use argon2::password_hash::{Output, ParamsString, PasswordHash, SaltString};
use argon2::{Algorithm, Argon2, Block, Params, Version};

/// The most memory a stored hash may ask for (64 MiB, in blocks of 1 KiB): more than ours
/// (19 MiB) for when the defaults grow, and a bound on what one thread keeps.
pub const MAX_HASH_BLOCKS: usize = 64 * 1024;

/// One piece of work for a hashing thread: it gets the thread's memory block.
type Job = Box<dyn FnOnce(&mut Vec<Block>) + Send>;

/// Why a hash was not worked out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HashingError {
    /// The queue is full: the server is busy with other hashes; try again in a moment.
    Busy,
    /// The pool has stopped (or the work failed on its thread).
    Gone,
}

impl std::fmt::Display for HashingError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            HashingError::Busy => "too many passwords are being checked; try again in a moment",
            HashingError::Gone => "password hashing has stopped",
        })
    }
}

impl std::error::Error for HashingError {}

/// A fixed number of hashing threads behind a bounded queue.
#[derive(Debug)]
pub struct HashingPool {
    jobs: SyncSender<Job>,
    threads: usize,
    queue: usize,
}

impl HashingPool {
    /// Starts `threads` hashing threads (named `qi-hash-N`) taking work from a queue of at
    /// most `queue` waiting requests.
    ///
    /// # Errors
    /// When a thread cannot be started.
    pub fn start(threads: usize, queue: usize) -> std::io::Result<HashingPool> {
        let (jobs, waiting) = std::sync::mpsc::sync_channel::<Job>(queue);
        let waiting = Arc::new(Mutex::new(waiting));
        for index in 0..threads {
            let waiting = Arc::clone(&waiting);
            std::thread::Builder::new()
                .name(format!("qi-hash-{index}"))
                .spawn(move || work(&waiting))?;
        }
        Ok(HashingPool { jobs, threads, queue })
    }

    /// How many hashing threads there are: the most hashes at once, and the most memory
    /// blocks kept.
    #[must_use]
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// How many requests may wait.
    #[must_use]
    pub fn queue(&self) -> usize {
        self.queue
    }

    /// Hands `work` to a hashing thread (with its memory block) and waits for its answer.
    /// A request dropped while it waits still has its work done (it is in the queue), but the
    /// queue's bound holds.
    ///
    /// # Errors
    /// [`HashingError::Busy`] at once when the queue is full; [`HashingError::Gone`] when the
    /// pool has stopped or the work panicked.
    pub async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce(&mut Vec<Block>) -> T + Send + 'static,
    ) -> Result<T, HashingError> {
        let (answer, answered) = tokio::sync::oneshot::channel();
        self.submit(work, answer)?;
        answered.await.map_err(|_| HashingError::Gone)
    }

    fn submit<T: Send + 'static>(
        &self,
        work: impl FnOnce(&mut Vec<Block>) -> T + Send + 'static,
        answer: tokio::sync::oneshot::Sender<T>,
    ) -> Result<(), HashingError> {
        self.enqueue(Box::new(move |memory| {
            let _ = answer.send(work(memory));
        }))
    }

    fn enqueue(&self, job: Job) -> Result<(), HashingError> {
        self.jobs.try_send(job).map_err(|error| match error {
            TrySendError::Full(_) => HashingError::Busy,
            TrySendError::Disconnected(_) => HashingError::Gone,
        })
    }
}

/// A hashing thread: takes jobs until the pool is dropped, each with the same memory.
fn work(waiting: &Mutex<Receiver<Job>>) {
    let mut memory: Vec<Block> = Vec::new();
    loop {
        // The lock is held while waiting: the other threads wait for it, and each job goes to
        // one thread.
        let job = waiting.lock().unwrap_or_else(PoisonError::into_inner).recv();
        let Ok(job) = job else { return };
        // A job that panics drops its answer (the request hears `Gone`); the thread goes on.
        if std::panic::catch_unwind(AssertUnwindSafe(|| job(&mut memory))).is_err() {
            tracing::error!("a password hash panicked");
        }
    }
}

/// `memory` with room for `blocks` blocks (kept for the next hash).
fn room(memory: &mut Vec<Block>, blocks: usize) -> Result<&mut [Block], String> {
    if blocks > MAX_HASH_BLOCKS {
        return Err(format!(
            "a hash asks for {blocks} KiB, more than the {MAX_HASH_BLOCKS} allowed"
        ));
    }
    if memory.len() < blocks {
        memory.resize(blocks, Block::default());
    }
    Ok(&mut memory[..blocks])
}

/// Hashes `password` with Argon2id at the crate's defaults and a random salt into `memory`;
/// the PHC string (`$argon2id$v=19$m=19456,t=2,p=1$salt$hash`), as
/// `PasswordHasher::hash_password` writes it.
///
/// # Errors
/// No randomness, or the hash failed (never with the defaults).
pub fn hash_password_in(password: &str, memory: &mut Vec<Block>) -> Result<String, String> {
    let mut salt = [0u8; 16];
    getrandom::fill(&mut salt).map_err(|e| format!("no randomness: {e}"))?;
    let salt_text = SaltString::encode_b64(&salt).map_err(|e| e.to_string())?;
    let params = Params::default();
    let argon2 = Argon2::new(Algorithm::Argon2id, Version::V0x13, params.clone());
    let mut out = [0u8; Params::DEFAULT_OUTPUT_LEN];
    let blocks = room(memory, params.block_count())?;
    argon2
        .hash_password_into_with_memory(password.as_bytes(), &salt, &mut out, blocks)
        .map_err(|e| e.to_string())?;
    let hash = PasswordHash {
        algorithm: Algorithm::Argon2id.ident(),
        version: Some(Version::V0x13.into()),
        params: ParamsString::try_from(&params).map_err(|e| e.to_string())?,
        salt: Some(salt_text.as_salt()),
        hash: Some(Output::new(&out).map_err(|e| e.to_string())?),
    };
    Ok(hash.to_string())
}

/// Whether `password` is the one hashed in the PHC string `stored` (Argon2, its own
/// parameters), worked out in `memory`; compared in constant time. A string that does not
/// read, or asks for more than [`MAX_HASH_BLOCKS`], matches nothing.
#[must_use]
pub fn verify_password_in(password: &str, stored: &str, memory: &mut Vec<Block>) -> bool {
    let mut matches = || -> Result<bool, String> {
        let hash = PasswordHash::new(stored).map_err(|e| e.to_string())?;
        let algorithm = Algorithm::try_from(hash.algorithm).map_err(|e| e.to_string())?;
        let version = match hash.version {
            Some(version) => Version::try_from(version).map_err(|e| e.to_string())?,
            None => Version::default(),
        };
        let params = Params::try_from(&hash).map_err(|e| e.to_string())?;
        let (Some(salt), Some(expected)) = (hash.salt, hash.hash) else {
            return Err("no salt or no hash".into());
        };
        let mut salt_bytes = [0u8; 64];
        let salt = salt.decode_b64(&mut salt_bytes).map_err(|e| e.to_string())?;
        let mut out = vec![0u8; expected.len()];
        let argon2 = Argon2::new(algorithm, version, params.clone());
        let blocks = room(memory, params.block_count())?;
        argon2
            .hash_password_into_with_memory(password.as_bytes(), salt, &mut out, blocks)
            .map_err(|e| e.to_string())?;
        let computed = Output::new(&out).map_err(|e| e.to_string())?;
        // `Output`'s equality is constant-time.
        Ok(computed == expected)
    };
    matches().unwrap_or_else(|error| {
        tracing::warn!(%error, "a stored password hash could not be checked");
        false
    })
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use argon2::password_hash::{PasswordHasher, PasswordVerifier};

    use super::*;

    #[test]
    fn hashes_read_and_check_as_the_crates_own() {
        let mut memory = Vec::new();
        let ours = hash_password_in("correct horse", &mut memory).unwrap();
        assert!(ours.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{ours}");
        let parsed = PasswordHash::new(&ours).unwrap();
        assert!(Argon2::default().verify_password(b"correct horse", &parsed).is_ok());
        let salt = SaltString::encode_b64(b"sixteen byte slt").unwrap();
        let theirs = Argon2::default().hash_password(b"battery staple", &salt).unwrap().to_string();
        assert!(verify_password_in("battery staple", &theirs, &mut memory));
        assert!(!verify_password_in("battery stapler", &theirs, &mut memory));
        assert!(verify_password_in("correct horse", &ours, &mut memory));
        assert!(!verify_password_in("correct horse", "not a hash", &mut memory));
        // One block, reused: its length is the defaults' and no more.
        assert_eq!(memory.len(), Params::default().block_count());
    }

    #[test]
    fn a_hash_asking_for_too_much_memory_matches_nothing() {
        let greedy = "$argon2id$v=19$m=1048576,t=2,p=1$c2l4dGVlbiBieXRlIHNsdA$\
                      AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
        let mut memory = Vec::new();
        assert!(!verify_password_in("anything", greedy, &mut memory));
        assert!(memory.is_empty());
    }

    #[tokio::test]
    async fn work_runs_on_the_pools_threads_only_each_reusing_its_memory() {
        let pool = HashingPool::start(2, 64).unwrap();
        assert_eq!((pool.threads(), pool.queue()), (2, 64));
        let runs = (0..40).map(|_| {
            pool.run(|memory: &mut Vec<Block>| {
                if memory.is_empty() {
                    memory.resize(4, Block::default());
                }
                let name = std::thread::current().name().unwrap_or("").to_owned();
                (name, memory.as_ptr() as usize)
            })
        });
        let answers: Vec<_> = futures_util::future::join_all(runs).await;
        let answers: Vec<(String, usize)> = answers.into_iter().map(Result::unwrap).collect();
        let threads: HashSet<&str> = answers.iter().map(|(name, _)| name.as_str()).collect();
        assert!(threads.iter().all(|name| name.starts_with("qi-hash-")), "{threads:?}");
        assert!(threads.len() <= 2, "{threads:?}");
        // Each thread's memory is allocated once: one address per thread, whatever the jobs.
        let blocks: HashSet<usize> = answers.iter().map(|&(_, at)| at).collect();
        assert_eq!(blocks.len(), threads.len());
    }

    #[tokio::test]
    async fn a_full_queue_answers_busy_at_once() {
        let pool = HashingPool::start(1, 1).unwrap();
        // The one thread holds its first job until released, so the queue can fill.
        let (release, hold) = std::sync::mpsc::channel::<()>();
        let (started, running) = std::sync::mpsc::channel::<()>();
        let (first, first_done) = tokio::sync::oneshot::channel();
        let holding = move |_: &mut Vec<Block>| {
            started.send(()).unwrap();
            hold.recv().unwrap();
            1
        };
        pool.submit(holding, first).unwrap();
        running.recv().unwrap();
        let (second, second_done) = tokio::sync::oneshot::channel();
        pool.submit(|_: &mut Vec<Block>| 2, second).unwrap();
        let (third, _) = tokio::sync::oneshot::channel();
        assert_eq!(pool.submit(|_: &mut Vec<Block>| 3, third), Err(HashingError::Busy));
        assert_eq!(pool.run(|_: &mut Vec<Block>| 4).await, Err(HashingError::Busy));
        release.send(()).unwrap();
        assert_eq!((first_done.await, second_done.await), (Ok(1), Ok(2)));
        assert_eq!(pool.run(|_: &mut Vec<Block>| 5).await, Ok(5));
    }
}
