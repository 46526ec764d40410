//! The page's side of the Web Worker (crates/worker), which runs the engine and the heavy tasks
//! (records, QR codes, opening books) off the page's thread.
//!
//! One worker for the page, started on the first request, takes every request. Requests go in
//! order, each with a sequence number; each answer goes back to whoever asked.
//!
//! To use several cores ([`set_threads`], the player's "Engine threads"; one by default), a
//! full-strength think and an analysis run on several threads:
//! - where the page is cross-origin isolated, in the worker built with wasm threads
//!   (`threads/qi-worker.js`, crates/worker/src/threads.rs): its helper threads search the same
//!   position beside it with one shared transposition table (Lazy SMP, as Stockfish does);
//! - elsewhere (no shared memory: a static host, the embed on another site), or if that build
//!   fails to start, split across as many workers: each searches one share of the root moves
//!   ([`qi_ai::RootShare`]) with its own engine, and the answers are merged (`merge_think`,
//!   `merge_analysis`).
//!
//! The levels below full strength are bounded by nodes and never get more threads, so they play
//! alike on every device. The first worker keeps the ponders and the tasks; split helpers start
//! on the first split search and keep their engines, as the first does, from move to move.
//!
//! A request the page no longer wants is [cancelled](cancel): its asker gets `None` at once, and
//! a search under way stops:
//! - where the page is cross-origin isolated (served with COOP and COEP, as `qi-server` and
//!   `scripts/serve.mjs` serve it), through a `SharedArrayBuffer` of stop flags the search
//!   reads as it goes: it stops within a thousand nodes and the engine keeps its table;
//! - elsewhere (a static host, the app framed on another site), by replacing the worker when
//!   the search has more than [`REPLACE_ABOVE_MS`] left: the old one is terminated at once, a
//!   new one takes the other requests, and the engine starts afresh. A search waiting behind
//!   another is skipped when its turn comes, and one about to end is let end.
//!
//! A ponder is never the reason for a replacement: it reads its messages between slices of a
//! few tens of milliseconds, so a cancel (or any request) ends it there.

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;

use futures_channel::oneshot;
use qi_ai::RootShare;
use qi_tasks::codec;
use qi_tasks::think::{
    FromWorker, STOP_SLOTS, ToWorker, WorkerReply, WorkerRequest, merge_analysis, merge_think,
    stop_slot,
};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::MessageEvent;

/// Where the worker's script is, relative to the app's root (so any sub-path works).
const WORKER_PATH: &str = "qi-worker.js";

thread_local! {
    /// The app's root relative to this page: empty for the app's page, `../` for a page one
    /// folder down (the puzzles), which loads the same worker.
    static ROOT: std::cell::Cell<&'static str> = const { std::cell::Cell::new("") };
}

/// Sets where the app's root is relative to this page (see [`ROOT`]); before the first request.
pub fn set_root(root: &'static str) {
    ROOT.with(|r| r.set(root));
}

/// Where the worker built with wasm threads is (`build_worker_threads` in scripts/lib.sh).
const THREADED_WORKER_PATH: &str = "threads/qi-worker.js";

/// A request not yet answered.
struct Pending {
    request: WorkerRequest,
    /// The share of the moves this worker searches, when the search is split.
    share: Option<RootShare>,
    /// Whether it has been posted to the current worker (else it waits for it to be ready).
    posted: bool,
    /// When it was posted (milliseconds, the page's clock).
    posted_at: f64,
    answer: oneshot::Sender<Option<WorkerReply>>,
}

/// A search with less than this left is let finish rather than the worker replaced: a new
/// worker takes about as long to start (it compiles the engine's wasm again) and its engine
/// starts empty.
const REPLACE_ABOVE_MS: f64 = 700.0;

/// A running worker and what it was asked.
struct Bridge {
    worker: web_sys::Worker,
    /// Whether the worker said it listens.
    ready: bool,
    /// Requests not yet answered, by sequence number (so the oldest posted one is the one the
    /// worker is working on).
    pending: BTreeMap<u64, Pending>,
    /// When the worker last answered: the request after it started then, or when posted.
    last_answer_at: f64,
    /// The stop flags shared with the worker, where the page is cross-origin isolated.
    stop_flags: Option<js_sys::Int32Array>,
    /// Kept alive for as long as the worker listens to it.
    _listener: Closure<dyn FnMut(MessageEvent)>,
    /// Likewise, for the worker's failure.
    _failed: Closure<dyn FnMut()>,
    /// How many workers this page has started in this slot (the first is 1).
    generation: u32,
    /// Whether it is the build with wasm threads (it searches on [`set_threads`]'s number).
    threaded: bool,
}

impl Bridge {
    fn post(&self, seq: u64, pending: &Pending) {
        post(&self.worker, &ask_message(seq, pending));
    }
}

/// The message that asks for `pending`.
fn ask_message(seq: u64, pending: &Pending) -> ToWorker {
    let request = pending.request.clone();
    match pending.share {
        Some(share) => {
            ToWorker::AskShare(seq, u64::from(share.part()), u64::from(share.parts()), request)
        }
        None => ToWorker::Ask(seq, request),
    }
}

/// The most workers a search is split across: past four, a split of the root moves gains
/// little, and each worker holds an engine's tables.
pub const MOST_THREADS: u8 = 4;

thread_local! {
    /// The page's workers by slot: the first takes every request, the others the other shares
    /// of a split search.
    static BRIDGES: RefCell<Vec<Option<Bridge>>> = const { RefCell::new(Vec::new()) };
    /// The last sequence number given (one numbering for all the workers and split searches).
    static LAST_SEQ: Cell<u64> = const { Cell::new(0) };
    /// How many workers a split search uses.
    static THREADS: Cell<u8> = const { Cell::new(1) };
    /// Split searches under way: each one's sequence number and its shares' (a cancel of the
    /// one cancels the others).
    static SPLITS: RefCell<BTreeMap<u64, Vec<u64>>> = const { RefCell::new(BTreeMap::new()) };
    /// Whether a helper worker failed: the page then searches in one worker only.
    static HELPERS_FAILED: Cell<bool> = const { Cell::new(false) };
    /// Nodes the threaded worker's helpers visited, in all (for the tests).
    static HELPED_NODES: Cell<u64> = const { Cell::new(0) };
    /// Whether the worker with wasm threads failed to start: the page then splits searches
    /// across workers instead.
    static THREADED_FAILED: Cell<bool> = const { Cell::new(false) };
    /// What the page's ponders did: how many were asked, how many ended, the last one's reply.
    static PONDERS: RefCell<(u32, u32, Option<qi_tasks::think::ThinkReply>)> =
        const { RefCell::new((0, 0, None)) };
}

/// A request sent: its sequence number (to [cancel] it) and its answer to come.
pub struct Asked {
    seq: u64,
    answer: oneshot::Receiver<Option<WorkerReply>>,
}

impl Asked {
    /// The request's sequence number.
    #[must_use]
    pub fn seq(&self) -> u64 {
        self.seq
    }

    /// The answer; `None` when the request was cancelled or the worker could not run.
    pub async fn answer(self) -> Option<WorkerReply> {
        self.answer.await.ok().flatten()
    }
}

/// How many workers a split search uses: the player's choice, or 0 for as many as the
/// device has cores, up to [`MOST_THREADS`]. Fewer workers than before end the others.
pub fn set_threads(threads: u8) {
    let threads = if threads == 0 { automatic_threads() } else { threads };
    let threads = threads.clamp(1, MOST_THREADS);
    THREADS.with(|t| t.set(threads));
    let threaded = uses_threaded_worker();
    BRIDGES.with(|bridges| {
        let mut bridges = bridges.borrow_mut();
        if let Some(first) = bridges.first_mut() {
            match first.as_ref() {
                // The threaded worker takes the new number at once.
                Some(bridge) if bridge.threaded && threaded && bridge.ready => {
                    post(&bridge.worker, &ToWorker::Threads(u64::from(threads)));
                }
                // The other build is wanted now: it takes over at once.
                Some(bridge) if bridge.threaded != threaded => replace(first, 0),
                _ => {}
            }
        }
        let keep = if threaded { 1 } else { usize::from(threads) };
        for bridge in bridges.iter_mut().skip(keep) {
            // Only idle helpers: a search under way keeps its worker until it answers.
            if bridge.as_ref().is_some_and(|b| b.pending.is_empty())
                && let Some(old) = bridge.take()
            {
                end(&old);
            }
        }
    });
}

/// How many workers the automatic choice uses on this device: its logical cores
/// (`navigator.hardwareConcurrency`), up to [`MOST_THREADS`].
#[must_use]
pub fn automatic_threads() -> u8 {
    let cores = web_sys::window().map_or(1.0, |w| w.navigator().hardware_concurrency());
    (cores as u8).clamp(1, MOST_THREADS)
}

/// How many workers a search of `request` is split across: a full-strength think and an
/// analysis across [`set_threads`]'s number; the rest (lower levels, ponders, tasks) in one.
fn parts_for(request: &WorkerRequest) -> u8 {
    // The threaded worker runs its own helpers.
    if uses_threaded_worker() {
        return 1;
    }
    let splits = match request {
        WorkerRequest::Think(think) => qi_ai::Level::new(think.level) == qi_ai::Level::MAX,
        WorkerRequest::Analyse(_) => true,
        WorkerRequest::Ponder(_) | WorkerRequest::Task(_) => false,
    };
    if splits && !HELPERS_FAILED.with(Cell::get) { THREADS.with(Cell::get) } else { 1 }
}

/// Whether the first worker is the build with wasm threads: where the page may share memory
/// with it (cross-origin isolated), more than one thread is wanted, and it has not failed.
fn uses_threaded_worker() -> bool {
    THREADS.with(Cell::get) > 1 && cross_origin_isolated() && !THREADED_FAILED.with(Cell::get)
}

fn next_seq() -> u64 {
    LAST_SEQ.with(|last| {
        last.set(last.get() + 1);
        last.get()
    })
}

/// Sends `request` to the workers: to the first, or split across several (see the module's
/// documentation).
#[must_use]
pub fn ask(request: WorkerRequest) -> Asked {
    let parts = parts_for(&request);
    if parts <= 1 {
        return ask_in(0, request, None);
    }
    let shares: Vec<Asked> = (0..parts)
        .map(|part| ask_in(usize::from(part), request.clone(), RootShare::new(part, parts)))
        .collect();
    let seq = next_seq();
    SPLITS.with(|splits| splits.borrow_mut().insert(seq, shares.iter().map(Asked::seq).collect()));
    let (sender, receiver) = oneshot::channel();
    wasm_bindgen_futures::spawn_local(async move {
        let mut answers = Vec::with_capacity(shares.len());
        for share in shares {
            answers.push(share.answer().await);
        }
        // Cancelled: its entry is gone, and its asker has had its `None`.
        if SPLITS.with(|splits| splits.borrow_mut().remove(&seq)).is_none() {
            return;
        }
        // Only a helper's silence makes the page give up on helpers: the first worker's own
        // failure is not theirs (it is replaced, and asked again below).
        let helper_failed = answers.iter().skip(1).any(Option::is_none);
        let answer = match merged(&request, answers) {
            Some(answer) => Some(answer),
            None => {
                // A share went unanswered (a worker failed to start or trapped): its moves
                // were never searched. The first worker searches them all; if a helper failed,
                // it does so from now on for every search.
                if helper_failed {
                    HELPERS_FAILED.with(|failed| failed.set(true));
                }
                ask_in(0, request, None).answer().await
            }
        };
        let _ = sender.send(answer);
    });
    Asked { seq, answer: receiver }
}

/// The answer of a split search from its shares' answers; `None` when one is missing.
fn merged(request: &WorkerRequest, answers: Vec<Option<WorkerReply>>) -> Option<WorkerReply> {
    let answers: Vec<WorkerReply> = answers.into_iter().collect::<Option<_>>()?;
    match request {
        WorkerRequest::Think(think) => {
            let replies: Vec<_> = answers.into_iter().filter_map(WorkerReply::think).collect();
            Some(WorkerReply::Think(merge_think(think.id, &replies)))
        }
        WorkerRequest::Analyse(analyse) => {
            let replies: Vec<_> = answers.into_iter().filter_map(WorkerReply::analysis).collect();
            Some(WorkerReply::Analysis(merge_analysis(analyse.id, analyse.lines, &replies)))
        }
        WorkerRequest::Ponder(_) | WorkerRequest::Task(_) => answers.into_iter().next(),
    }
}

/// Sends `request` (to search `share` of, when given) to the worker in `slot`, started if need
/// be.
fn ask_in(slot: usize, request: WorkerRequest, share: Option<RootShare>) -> Asked {
    let (sender, receiver) = oneshot::channel();
    let seq = next_seq();
    BRIDGES.with(|bridges| {
        let mut bridges = bridges.borrow_mut();
        if bridges.len() <= slot {
            bridges.resize_with(slot + 1, || None);
        }
        // A first worker of the other build than the one wanted now (the number of threads
        // changed) gives way to the right one.
        if slot == 0 && bridges[0].as_ref().is_some_and(|b| b.threaded != uses_threaded_worker()) {
            replace(&mut bridges[0], 0);
        }
        if bridges[slot].is_none() {
            bridges[slot] = start(slot, 1);
        }
        let Some(bridge) = bridges[slot].as_mut() else {
            // No worker could start (scripts blocked): the asker hears nothing to wait for.
            let _ = sender.send(None);
            return;
        };
        if matches!(request, WorkerRequest::Ponder(_)) {
            PONDERS.with(|ponders| ponders.borrow_mut().0 += 1);
        }
        let posted = bridge.ready;
        let pending = Pending { request, share, posted, posted_at: now_ms(), answer: sender };
        if posted {
            bridge.post(seq, &pending);
        }
        bridge.pending.insert(seq, pending);
    });
    Asked { seq, answer: receiver }
}

/// Sends `request` and waits for its answer (`None` if the worker could not run).
pub async fn run(request: WorkerRequest) -> Option<WorkerReply> {
    ask(request).answer().await
}

/// The page no longer wants the answer to request `seq`: its asker gets `None` now, and the
/// worker stops working on it (see the module's documentation); for a split search, every
/// worker on it. Nothing happens for a request already answered.
pub fn cancel(seq: u64) {
    if let Some(shares) = SPLITS.with(|splits| splits.borrow_mut().remove(&seq)) {
        for share in shares {
            cancel(share);
        }
        return;
    }
    BRIDGES.with(|bridges| {
        let mut bridges = bridges.borrow_mut();
        let Some(slot) =
            bridges.iter().position(|b| b.as_ref().is_some_and(|b| b.pending.contains_key(&seq)))
        else {
            return;
        };
        let guard = &mut bridges[slot];
        let Some(bridge) = guard.as_mut() else { return };
        // The worker works on its requests in order: the oldest one posted is under way.
        let running = bridge
            .pending
            .iter()
            .find(|(_, p)| p.posted)
            .map(|(&seq, p)| (seq, p.posted_at.max(bridge.last_answer_at)));
        let Some(pending) = bridge.pending.remove(&seq) else { return };
        let _ = pending.answer.send(None);
        if !pending.posted {
            return;
        }
        // The worker skips a request whose cancel it finds queued, and a ponder ends on it.
        post(&bridge.worker, &ToWorker::Cancel(seq));
        let Some(budget_ms) = search_budget_ms(&pending.request) else { return };
        if let Some(flags) = &bridge.stop_flags {
            // Under way or waiting, the search stops at its first look at the clock.
            let (stop, value) = stop_slot(seq);
            let _ = js_sys::Atomics::store(flags, stop, value);
            return;
        }
        let Some((_, started_at)) = running.filter(|(running, _)| *running == seq) else {
            return;
        };
        if budget_ms - (now_ms() - started_at) < REPLACE_ABOVE_MS {
            return;
        }
        // No way into a search under way: a new worker, the old one ended at once. The other
        // requests are the new worker's (a ponder's answer would say nothing: it ends).
        replace(guard, slot);
    });
}

/// Ends the worker in `slot` (held in `guard`) at once and starts another, which takes its
/// requests (a ponder's answer would say nothing: it ends).
fn replace(guard: &mut Option<Bridge>, slot: usize) {
    if let Some(old) = guard.take() {
        end(&old);
        let mut new = start(slot, old.generation + 1);
        if let Some(new) = new.as_mut() {
            for (seq, mut pending) in old.pending {
                if matches!(pending.request, WorkerRequest::Ponder(_)) {
                    let _ = pending.answer.send(None);
                } else {
                    pending.posted = false;
                    new.pending.insert(seq, pending);
                }
            }
        }
        *guard = new;
    }
}

/// Ends a worker: it is not listened to any more.
fn end(bridge: &Bridge) {
    bridge.worker.set_onmessage(None);
    bridge.worker.set_onerror(None);
    bridge.worker.terminate();
}

/// How long a request's search may take at most (milliseconds); `None` for what is not a
/// search the page waits for (a task, or a ponder, which ends by itself within a slice).
fn search_budget_ms(request: &WorkerRequest) -> Option<f64> {
    match request {
        WorkerRequest::Think(think) => {
            let level = qi_ai::Level::new(think.level);
            qi_ai::level::settings(think.record.kind, level).limits.time_ms
        }
        WorkerRequest::Analyse(analyse) => Some(f64::from(analyse.budget_ms)),
        WorkerRequest::Ponder(_) | WorkerRequest::Task(_) => None,
    }
}

fn now_ms() -> f64 {
    js_sys::Date::now()
}

/// Whether the page shares stop flags with its first worker (it is cross-origin isolated), so
/// a stopped search keeps the engine's table.
#[must_use]
pub fn stops_in_place() -> bool {
    first(|b| b.stop_flags.is_some()).unwrap_or(false)
}

/// How many workers the page has started in the first slot so far (0 before the first
/// request): a test's view of whether a cancel replaced the worker.
#[must_use]
pub fn generation() -> u32 {
    first(|b| b.generation).unwrap_or(0)
}

/// How many workers are running now.
#[must_use]
pub fn running_workers() -> usize {
    BRIDGES.with(|bridges| bridges.borrow().iter().flatten().count())
}

fn first<T>(read: impl FnOnce(&Bridge) -> T) -> Option<T> {
    BRIDGES.with(|bridges| bridges.borrow().first().and_then(Option::as_ref).map(read))
}

fn post(worker: &web_sys::Worker, message: &ToWorker) {
    // A worker that failed to load can't take messages; its askers' answers never come, as
    // with any failed load.
    let _ = worker.post_message(&codec::encode(message));
}

/// Starts a worker for `slot`; `None` when the browser refuses to.
fn start(slot: usize, generation: u32) -> Option<Bridge> {
    let threaded = slot == 0 && uses_threaded_worker();
    let path = if threaded { THREADED_WORKER_PATH } else { WORKER_PATH };
    let path = format!("{}{path}", ROOT.with(std::cell::Cell::get));
    let worker = web_sys::Worker::new(&shim_url(&path)?).ok()?;
    let listener = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
        received(slot, generation, &event.data());
    });
    worker.set_onmessage(Some(listener.as_ref().unchecked_ref()));
    let failed = Closure::<dyn FnMut()>::new(move || failed(slot, generation));
    worker.set_onerror(Some(failed.as_ref().unchecked_ref()));
    Some(Bridge {
        worker,
        ready: false,
        pending: BTreeMap::new(),
        last_answer_at: 0.0,
        stop_flags: None,
        _listener: listener,
        _failed: failed,
        generation,
        threaded,
    })
}

/// Runs `change` on the worker in `slot` when it is still that of `generation` (one replaced
/// since is not listened to).
fn with_bridge(slot: usize, generation: u32, change: impl FnOnce(&mut Option<Bridge>)) {
    BRIDGES.with(|bridges| {
        let mut bridges = bridges.borrow_mut();
        if let Some(guard) = bridges.get_mut(slot)
            && guard.as_ref().is_some_and(|b| b.generation == generation)
        {
            change(guard);
        }
    });
}

/// The worker of `generation` in `slot` failed (its script or module did not load, or it
/// threw): every request waiting for it is answered `None`, and the next request starts
/// another.
fn failed(slot: usize, generation: u32) {
    with_bridge(slot, generation, |guard| {
        if guard.as_ref().is_some_and(|old| old.threaded) {
            // Not built, or refused by this browser: the build without threads takes its
            // requests, and searches are split across workers from now on.
            THREADED_FAILED.with(|failed| failed.set(true));
            replace(guard, slot);
            return;
        }
        if let Some(old) = guard.take() {
            end(&old);
            for pending in old.pending.into_values() {
                let _ = pending.answer.send(None);
            }
        }
    });
}

/// The worker's script is wasm-bindgen's loader, which defines `wasm_bindgen` and waits to be
/// told where the module is: a small script of the page's making (a `blob:` address, allowed by
/// the servers' `worker-src`) loads it and says so.
fn shim_url(path: &str) -> Option<String> {
    let page = web_sys::window()?.location().href().ok()?;
    let script = web_sys::Url::new_with_base(path, &page).ok()?.href();
    let module = script.replace(".js", "_bg.wasm");
    // The module's memory is kept on the worker's global, for the memory soak
    // (e2e/bench/soak-memory.mjs) to read.
    let source = js_sys::Array::of1(&JsValue::from_str(&format!(
        "self.qiGlue={script:?};importScripts({script:?});wasm_bindgen({{module_or_path:{module:?}}})\
         .then(function(w){{self.qiWasmMemory=w.memory;}})\
         .catch(function(e){{setTimeout(function(){{throw e;}});}});"
    )));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("application/javascript");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&source, &options).ok()?;
    web_sys::Url::create_object_url_with_blob(&blob).ok()
}

/// A message from the worker of `generation` in `slot`.
fn received(slot: usize, generation: u32, data: &JsValue) {
    let Ok(message) = codec::decode::<FromWorker>(data) else { return };
    with_bridge(slot, generation, |guard| {
        let Some(bridge) = guard.as_mut() else { return };
        match message {
            FromWorker::Ready => {
                bridge.ready = true;
                if cross_origin_isolated() {
                    let flags = js_sys::SharedArrayBuffer::new(STOP_SLOTS * 4);
                    if bridge.worker.post_message(&flags).is_ok() {
                        bridge.stop_flags = Some(js_sys::Int32Array::new(&flags));
                    }
                }
                if bridge.threaded {
                    let threads = u64::from(THREADS.with(Cell::get));
                    post(&bridge.worker, &ToWorker::Threads(threads));
                }
                let now = now_ms();
                for (&seq, pending) in &mut bridge.pending {
                    post(&bridge.worker, &ask_message(seq, pending));
                    pending.posted = true;
                    pending.posted_at = now;
                }
            }
            FromWorker::Helped(_, nodes) => {
                HELPED_NODES.with(|helped| helped.set(helped.get() + nodes));
            }
            FromWorker::Answer(seq, reply) => {
                bridge.last_answer_at = now_ms();
                if let WorkerReply::Pondered(pondered) = &reply {
                    PONDERS.with(|ponders| {
                        let mut ponders = ponders.borrow_mut();
                        ponders.1 += 1;
                        ponders.2 = Some(pondered.clone());
                    });
                }
                if let Some(pending) = bridge.pending.remove(&seq) {
                    let _ = pending.answer.send(Some(reply));
                }
            }
        }
    });
}

/// Whether the page may share memory with its workers (`crossOriginIsolated`).
fn cross_origin_isolated() -> bool {
    js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str("crossOriginIsolated"))
        .is_ok_and(|value| value.is_truthy())
}

/// Puts `window.__qiEngine` on the page for tests and benchmarks (e2e/bench/bench-ai.mjs, the
/// browser-against-native match): `ask(text)` sends a request in its text form (a think, an
/// analysis `A|…` or a ponder `P|…`) and returns `{ seq, answer }`, the answer a promise of the
/// reply's text (`null` when cancelled); `cancel(seq)`; `generation()` (how many workers the
/// page started); `stopsInPlace()` (whether stops keep the worker); `ponders()`, the page's
/// ponders so far as `asked|ended|` and the last one's reply text; `setThreads(n)` (see
/// [`set_threads`]: 0 is automatic) and `workers()`, how many workers run; `threaded()`,
/// whether the first is the build with wasm threads, and `helped()`, the nodes its helper
/// threads have searched. It is in every build (the
/// benchmarks measure the real one): it asks nothing the page could not ask itself.
pub fn expose_for_tests() {
    use qi_tasks::think::{AnalyseRequest, PonderRequest, ThinkRequest};
    let Some(window) = web_sys::window() else { return };
    let hook = js_sys::Object::new();
    let set = |name: &str, value: &JsValue| {
        let _ = js_sys::Reflect::set(&hook, &JsValue::from_str(name), value);
    };
    let ask_text = Closure::<dyn Fn(String) -> JsValue>::new(|text: String| {
        let request = AnalyseRequest::from_text(&text)
            .map(WorkerRequest::Analyse)
            .or_else(|| PonderRequest::from_text(&text).map(WorkerRequest::Ponder))
            .or_else(|| ThinkRequest::from_text(&text).map(WorkerRequest::Think));
        let Some(request) = request else { return JsValue::NULL };
        let asked = ask(request);
        let result = js_sys::Object::new();
        let _ =
            js_sys::Reflect::set(&result, &"seq".into(), &JsValue::from_f64(asked.seq() as f64));
        let answer = wasm_bindgen_futures::future_to_promise(async move {
            Ok(match asked.answer().await {
                Some(WorkerReply::Think(reply) | WorkerReply::Pondered(reply)) => {
                    reply.text().into()
                }
                Some(WorkerReply::Analysis(analysis)) => analysis.text().into(),
                Some(WorkerReply::Task(_)) | None => JsValue::NULL,
            })
        });
        let _ = js_sys::Reflect::set(&result, &"answer".into(), &answer);
        result.into()
    });
    set("ask", ask_text.as_ref());
    let cancel_seq = Closure::<dyn Fn(f64)>::new(|seq: f64| cancel(seq as u64));
    set("cancel", cancel_seq.as_ref());
    let generation = Closure::<dyn Fn() -> u32>::new(generation);
    set("generation", generation.as_ref());
    let in_place = Closure::<dyn Fn() -> bool>::new(stops_in_place);
    set("stopsInPlace", in_place.as_ref());
    let ponders = Closure::<dyn Fn() -> String>::new(|| {
        PONDERS.with(|ponders| {
            let (asked, ended, last) = &*ponders.borrow();
            let last = last.as_ref().map(qi_tasks::think::ThinkReply::text).unwrap_or_default();
            format!("{asked}|{ended}|{last}")
        })
    });
    set("ponders", ponders.as_ref());
    ponders.forget();
    let threads = Closure::<dyn Fn(u8)>::new(set_threads);
    set("setThreads", threads.as_ref());
    threads.forget();
    let workers = Closure::<dyn Fn() -> usize>::new(running_workers);
    set("workers", workers.as_ref());
    workers.forget();
    let helped = Closure::<dyn Fn() -> f64>::new(|| HELPED_NODES.with(Cell::get) as f64);
    set("helped", helped.as_ref());
    helped.forget();
    let threaded = Closure::<dyn Fn() -> bool>::new(|| {
        BRIDGES.with(|b| b.borrow().first().is_some_and(|b| b.as_ref().is_some_and(|b| b.threaded)))
    });
    set("threaded", threaded.as_ref());
    threaded.forget();
    // The page's whole life.
    ask_text.forget();
    cancel_seq.forget();
    generation.forget();
    in_place.forget();
    let _ = js_sys::Reflect::set(&window, &JsValue::from_str("__qiEngine"), &hook);
}
