//! Helper threads for the worker's full-strength searches, in the build made with wasm threads
//! (`scripts/lib.sh`, `build_worker_threads`: the standard library rebuilt with atomics, one
//! shared memory). The page loads that build only where it is cross-origin isolated and the
//! player asked for more than one engine thread, and tells the worker how many
//! (`ToWorker::Threads`).
//!
//! Each helper is a Web Worker of the worker's own making that instantiates the same module on
//! the same memory and then waits, blocked, for a job ([`help_forever`]). A job is one search:
//! the position and one helper engine per helper, each sharing the main engine's
//! transposition table (Lazy SMP, see `qi_ai::AnyEngine::helper`). The worker posts it, runs
//! its own search, then stops the helpers and takes their engines back (with what they found,
//! for `qi_ai::deepest`). Nothing here is unsafe: the job travels through a mutex and two
//! condition variables, which wasm threads implement with `memory.atomic.wait32` (allowed in
//! workers, which is where all of this runs).

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use qi_ai::{AnyEngine, HelperPool, SearchResult};
use qi_rules::any::{AnyGame, AnyMove};
use qi_worker::engine::HelperThreads;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

/// The name the helpers' workers carry, so the module's start (which runs in every thread)
/// knows it is in one.
pub const HELPER_NAME: &str = "qi-helper";

/// A helper's stack: the searches recurse a few hundred frames deep at most.
const HELPER_STACK_BYTES: u32 = 4 << 20;

/// How long the worker waits for a stopped helper to give its engine back before going on
/// without it (a helper stops within a thousand nodes: only a dead one takes this long).
const GIVE_UP_MS: f64 = 2_000.0;

/// The step of the timed waits.
const WAIT_STEP_MS: u64 = 10;

/// One search the helpers join.
struct Job {
    game: AnyGame,
    /// Engines no helper has taken yet, with their helper number (from 1).
    waiting: Mutex<Vec<(usize, AnyEngine)>>,
    /// Set when the main search has returned.
    stop: AtomicBool,
    /// Engines given back, with their number and what they found.
    finished: Mutex<Vec<(usize, AnyEngine, SearchResult<AnyMove>)>>,
}

/// Where jobs are posted: a new job raises the generation.
struct Board {
    generation: u64,
    job: Option<Arc<Job>>,
    /// Helpers that have reached [`help_forever`].
    ready: usize,
}

static BOARD: Mutex<Board> = Mutex::new(Board { generation: 0, job: None, ready: 0 });
/// Signalled when a job is posted.
static POSTED: Condvar = Condvar::new();
/// Signalled when a helper gives its engine back.
static FINISHED: Condvar = Condvar::new();
/// Helper workers started (each joins jobs once its module is instantiated).
static STARTED: AtomicUsize = AtomicUsize::new(0);
/// How long the worker waits for new helpers to start before it goes on without them.
const WAIT_FOR_HELPERS_MS: u32 = 2_000;
/// Nodes the helpers visited since [`take_helped_nodes`] was last asked.
static HELPED_NODES: AtomicU64 = AtomicU64::new(0);

/// The nodes the helpers visited since the last time this was asked.
pub fn take_helped_nodes() -> u64 {
    HELPED_NODES.swap(0, Ordering::Relaxed)
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // A helper that panicked has no engine to give back; the data is still whole.
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A helper's life: waits for each job, searches it with one of its engines until told to
/// stop, gives the engine back. Called by the helper's script once the module is instantiated
/// on the shared memory; never returns.
#[wasm_bindgen]
pub fn help_forever() {
    let mut seen = {
        let mut board = lock(&BOARD);
        board.ready += 1;
        // A job under way when this helper came is joined too.
        board.generation.saturating_sub(1)
    };
    loop {
        let job = {
            let mut board = lock(&BOARD);
            while board.generation == seen {
                board = POSTED.wait(board).unwrap_or_else(PoisonError::into_inner);
            }
            seen = board.generation;
            board.job.clone()
        };
        let Some(job) = job else { continue };
        let Some((index, mut engine)) = lock(&job.waiting).pop() else { continue };
        let found = engine.help(&job.game, index, None, &js_sys::Date::now, &job.stop);
        lock(&job.finished).push((index, engine, found));
        FINISHED.notify_all();
    }
}

/// Helpers that have started and wait for jobs.
fn helpers_ready() -> usize {
    lock(&BOARD).ready
}

/// Starts helper workers until there are `count`, and waits (without blocking: a new worker
/// starts only while the one that made it is free) until they are ready, or for at most
/// [`WAIT_FOR_HELPERS_MS`].
pub async fn start_and_await_helpers(count: usize) {
    start_helpers(count);
    let started = STARTED.load(Ordering::Relaxed).min(count);
    let mut waited_ms = 0;
    while helpers_ready() < started && waited_ms < WAIT_FOR_HELPERS_MS {
        sleep_ms(20).await;
        waited_ms += 20;
    }
}

/// Resolves after `ms` milliseconds, the worker's event loop free meanwhile.
async fn sleep_ms(ms: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
        let _ = scope.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms);
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// Starts helper workers until there are `count`; the page's shim left the address of the
/// module's script on the worker's global (`qiGlue`).
fn start_helpers(count: usize) {
    let glue = js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str("qiGlue"))
        .ok()
        .and_then(|glue| glue.as_string());
    let Some(glue) = glue else { return };
    while STARTED.load(Ordering::Relaxed) < count {
        if start_helper(&glue).is_none() {
            // The browser refused (too many workers?): search with the ones there are.
            return;
        }
        STARTED.fetch_add(1, Ordering::Relaxed);
    }
}

fn start_helper(glue: &str) -> Option<()> {
    let source = format!(
        "importScripts({glue:?});self.onmessage=function(e){{self.onmessage=null;\
         wasm_bindgen({{module_or_path:e.data[0],memory:e.data[1],\
         thread_stack_size:{HELPER_STACK_BYTES}}}).then(function(){{wasm_bindgen.help_forever();}});}};"
    );
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("application/javascript");
    let parts = js_sys::Array::of1(&JsValue::from_str(&source));
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options).ok()?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).ok()?;
    let worker_options = web_sys::WorkerOptions::new();
    worker_options.set_name(HELPER_NAME);
    let worker = web_sys::Worker::new_with_options(&url, &worker_options).ok()?;
    let start = js_sys::Array::of2(&wasm_bindgen::module(), &wasm_bindgen::memory());
    worker.post_message(&start).ok()
}

/// The worker's helper threads: `threads - 1` helpers beside each full-strength search.
pub struct WasmHelpers {
    /// Threads in all, the worker's own included.
    pub threads: usize,
}

impl HelperThreads for WasmHelpers {
    fn run(
        &self,
        engine: &mut AnyEngine,
        pool: &mut HelperPool,
        game: &AnyGame,
        pick_deepest: bool,
        search: &mut dyn FnMut(&mut AnyEngine) -> SearchResult<AnyMove>,
    ) -> SearchResult<AnyMove> {
        if helpers_ready() == 0 {
            return search(engine);
        }
        let helpers = engine.helpers(pool, game, self.threads);
        let waiting = helpers.iter_mut().map(std::mem::take).enumerate().map(|(i, e)| (i + 1, e));
        let job = Arc::new(Job {
            game: game.clone(),
            waiting: Mutex::new(waiting.collect()),
            stop: AtomicBool::new(false),
            finished: Mutex::new(Vec::new()),
        });
        {
            let mut board = lock(&BOARD);
            board.generation += 1;
            board.job = Some(Arc::clone(&job));
        }
        POSTED.notify_all();
        let answer = search(engine);
        job.stop.store(true, Ordering::Relaxed);
        // Engines no helper took (still starting, or busy waking) come straight back; the
        // others come back within a thousand nodes of the stop.
        let unclaimed = std::mem::take(&mut *lock(&job.waiting));
        let taken = helpers.len() - unclaimed.len();
        let mut finished = lock(&job.finished);
        let waiting_since = js_sys::Date::now();
        while finished.len() < taken && js_sys::Date::now() - waiting_since < GIVE_UP_MS {
            let step = Duration::from_millis(WAIT_STEP_MS);
            finished =
                FINISHED.wait_timeout(finished, step).unwrap_or_else(PoisonError::into_inner).0;
        }
        let finished = std::mem::take(&mut *finished);
        lock(&BOARD).job = None;
        let lost = finished.len() < taken;
        for (index, helper) in unclaimed {
            helpers[index - 1] = helper;
        }
        let mut found = Vec::with_capacity(finished.len());
        for (index, helper, result) in finished {
            helpers[index - 1] = helper;
            HELPED_NODES.fetch_add(result.info.nodes, Ordering::Relaxed);
            found.push(result);
        }
        if lost {
            // A helper never gave its engine back (its thread died): its slot holds an engine
            // of no table. The next search makes the helpers anew.
            pool.clear();
        }
        if pick_deepest { qi_ai::deepest(answer, found) } else { answer }
    }
}
