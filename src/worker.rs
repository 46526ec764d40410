//! The page's side of the Web Worker (crates/worker), which runs the engine and the heavy tasks
//! (records, QR codes, opening books) off the page's thread.
//!
//! One worker for the page, started on the first request. Requests go in order, each with a
//! sequence number; each answer goes back to whoever asked. A request the page no longer wants
//! is [cancelled](cancel): its asker gets `None` at once, and a search under way stops:
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

use std::cell::RefCell;
use std::collections::BTreeMap;

use futures_channel::oneshot;
use qi_tasks::codec;
use qi_tasks::think::{FromWorker, STOP_SLOTS, ToWorker, WorkerReply, WorkerRequest, stop_slot};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::MessageEvent;

/// Where the worker's script is, relative to the page (so any sub-path works).
const WORKER_PATH: &str = "qi-worker.js";

/// A request not yet answered.
struct Pending {
    request: WorkerRequest,
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

/// The running worker and what it was asked.
struct Bridge {
    worker: web_sys::Worker,
    /// Whether the worker said it listens.
    ready: bool,
    /// Requests not yet answered, by sequence number (so the oldest posted one is the one the
    /// worker is working on).
    pending: BTreeMap<u64, Pending>,
    next_seq: u64,
    /// When the worker last answered: the request after it started then, or when posted.
    last_answer_at: f64,
    /// The stop flags shared with the worker, where the page is cross-origin isolated.
    stop_flags: Option<js_sys::Int32Array>,
    /// Kept alive for as long as the worker listens to it.
    _listener: Closure<dyn FnMut(MessageEvent)>,
    /// Likewise, for the worker's failure.
    _failed: Closure<dyn FnMut()>,
    /// How many workers this page has started (the first is 1).
    generation: u32,
}

thread_local! {
    static BRIDGE: RefCell<Option<Bridge>> = const { RefCell::new(None) };
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

/// Sends `request` to the worker (started if need be).
#[must_use]
pub fn ask(request: WorkerRequest) -> Asked {
    let (sender, receiver) = oneshot::channel();
    let seq = BRIDGE.with(|bridge| {
        let mut bridge = bridge.borrow_mut();
        if bridge.is_none() {
            *bridge = start(1);
        }
        let Some(bridge) = bridge.as_mut() else {
            // No worker could start (scripts blocked): the asker hears nothing to wait for.
            let _ = sender.send(None);
            return 0;
        };
        bridge.next_seq += 1;
        let seq = bridge.next_seq;
        if matches!(request, WorkerRequest::Ponder(_)) {
            PONDERS.with(|ponders| ponders.borrow_mut().0 += 1);
        }
        let posted = bridge.ready;
        if posted {
            post(&bridge.worker, &ToWorker::Ask(seq, request.clone()));
        }
        let posted_at = now_ms();
        bridge.pending.insert(seq, Pending { request, posted, posted_at, answer: sender });
        seq
    });
    Asked { seq, answer: receiver }
}

/// Sends `request` and waits for its answer (`None` if the worker could not run).
pub async fn run(request: WorkerRequest) -> Option<WorkerReply> {
    ask(request).answer().await
}

/// The page no longer wants the answer to request `seq`: its asker gets `None` now, and the
/// worker stops working on it (see the module's documentation). Nothing happens for a request
/// already answered.
pub fn cancel(seq: u64) {
    BRIDGE.with(|bridge| {
        let mut guard = bridge.borrow_mut();
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
            let (slot, value) = stop_slot(seq);
            let _ = js_sys::Atomics::store(flags, slot, value);
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
        if let Some(old) = guard.take() {
            old.worker.set_onmessage(None);
            old.worker.set_onerror(None);
            old.worker.terminate();
            let mut new = start(old.generation + 1);
            if let Some(new) = new.as_mut() {
                new.next_seq = old.next_seq;
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
    });
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

/// Whether the page shares stop flags with the worker (it is cross-origin isolated), so a
/// stopped search keeps the engine's table.
#[must_use]
pub fn stops_in_place() -> bool {
    BRIDGE.with(|bridge| bridge.borrow().as_ref().is_some_and(|b| b.stop_flags.is_some()))
}

/// How many workers the page has started so far (0 before the first request): a test's view
/// of whether a cancel replaced the worker.
#[must_use]
pub fn generation() -> u32 {
    BRIDGE.with(|bridge| bridge.borrow().as_ref().map_or(0, |b| b.generation))
}

fn post(worker: &web_sys::Worker, message: &ToWorker) {
    // A worker that failed to load can't take messages; its askers' answers never come, as
    // with any failed load.
    let _ = worker.post_message(&codec::encode(message));
}

/// Starts a worker; `None` when the browser refuses to.
fn start(generation: u32) -> Option<Bridge> {
    let worker = web_sys::Worker::new(&shim_url()?).ok()?;
    let listener = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
        received(generation, &event.data());
    });
    worker.set_onmessage(Some(listener.as_ref().unchecked_ref()));
    let failed = Closure::<dyn FnMut()>::new(move || failed(generation));
    worker.set_onerror(Some(failed.as_ref().unchecked_ref()));
    Some(Bridge {
        worker,
        ready: false,
        pending: BTreeMap::new(),
        next_seq: 0,
        last_answer_at: 0.0,
        stop_flags: None,
        _listener: listener,
        _failed: failed,
        generation,
    })
}

/// The worker of `generation` failed (its script or module did not load, or it threw): every
/// request waiting for it is answered `None`, and the next request starts another.
fn failed(generation: u32) {
    BRIDGE.with(|bridge| {
        let mut guard = bridge.borrow_mut();
        if guard.as_ref().is_none_or(|b| b.generation != generation) {
            return;
        }
        if let Some(old) = guard.take() {
            old.worker.set_onmessage(None);
            old.worker.set_onerror(None);
            old.worker.terminate();
            for pending in old.pending.into_values() {
                let _ = pending.answer.send(None);
            }
        }
    });
}

/// The worker's script is wasm-bindgen's loader, which defines `wasm_bindgen` and waits to be
/// told where the module is: a small script of the page's making (a `blob:` address, allowed by
/// the servers' `worker-src`) loads it and says so.
fn shim_url() -> Option<String> {
    let page = web_sys::window()?.location().href().ok()?;
    let script = web_sys::Url::new_with_base(WORKER_PATH, &page).ok()?.href();
    let module = script.replace(".js", "_bg.wasm");
    // The module's memory is kept on the worker's global, for the memory soak
    // (e2e/soak-memory.mjs) to read.
    let source = js_sys::Array::of1(&JsValue::from_str(&format!(
        "importScripts({script:?});wasm_bindgen({{module_or_path:{module:?}}})\
         .then(function(w){{self.qiWasmMemory=w.memory;}});"
    )));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("application/javascript");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&source, &options).ok()?;
    web_sys::Url::create_object_url_with_blob(&blob).ok()
}

/// A message from the worker of `generation` (one replaced since is not listened to).
fn received(generation: u32, data: &JsValue) {
    let Ok(message) = codec::decode::<FromWorker>(data) else { return };
    BRIDGE.with(|bridge| {
        let mut bridge = bridge.borrow_mut();
        let Some(bridge) = bridge.as_mut().filter(|b| b.generation == generation) else {
            return;
        };
        match message {
            FromWorker::Ready => {
                bridge.ready = true;
                if cross_origin_isolated() {
                    let flags = js_sys::SharedArrayBuffer::new(STOP_SLOTS * 4);
                    if bridge.worker.post_message(&flags).is_ok() {
                        bridge.stop_flags = Some(js_sys::Int32Array::new(&flags));
                    }
                }
                let now = now_ms();
                for (&seq, pending) in &mut bridge.pending {
                    post(&bridge.worker, &ToWorker::Ask(seq, pending.request.clone()));
                    pending.posted = true;
                    pending.posted_at = now;
                }
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

/// Puts `window.__qiEngine` on the page for tests and benchmarks (e2e/bench-ai.mjs, the
/// browser-against-native match): `ask(text)` sends a request in its text form (a think, an
/// analysis `A|…` or a ponder `P|…`) and returns `{ seq, answer }`, the answer a promise of the
/// reply's text (`null` when cancelled); `cancel(seq)`; `generation()` (how many workers the
/// page started); `stopsInPlace()` (whether stops keep the worker); `ponders()`, the page's
/// ponders so far as `asked|ended|` and the last one's reply text. It is in every build (the
/// benchmarks measure the real one): it asks nothing the page could not ask itself.
pub fn expose_for_tests() {
    use qi_tasks::think::{AnalyseRequest, PonderRequest, ThinkRequest};
    let Some(window) = web_sys::window() else { return };
    let hook = js_sys::Object::new();
    let set = |name: &str, value: &JsValue| {
        let _ = js_sys::Reflect::set(&hook, &JsValue::from_str(name), value);
    };
    let ask_text = Closure::<dyn Fn(String) -> JsValue>::new(|text: String| {
        let request = AnalyseRequest::decode(&text)
            .map(WorkerRequest::Analyse)
            .or_else(|| PonderRequest::decode(&text).map(WorkerRequest::Ponder))
            .or_else(|| ThinkRequest::decode(&text).map(WorkerRequest::Think));
        let Some(request) = request else { return JsValue::NULL };
        let asked = ask(request);
        let result = js_sys::Object::new();
        let _ =
            js_sys::Reflect::set(&result, &"seq".into(), &JsValue::from_f64(asked.seq() as f64));
        let answer = wasm_bindgen_futures::future_to_promise(async move {
            Ok(match asked.answer().await {
                Some(WorkerReply::Think(reply) | WorkerReply::Pondered(reply)) => {
                    reply.encode().into()
                }
                Some(WorkerReply::Analysis(analysis)) => analysis.encode().into(),
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
            let last = last.as_ref().map(qi_tasks::think::ThinkReply::encode).unwrap_or_default();
            format!("{asked}|{ended}|{last}")
        })
    });
    set("ponders", ponders.as_ref());
    ponders.forget();
    // The page's whole life.
    ask_text.forget();
    cancel_seq.forget();
    generation.forget();
    in_place.forget();
    let _ = js_sys::Reflect::set(&window, &JsValue::from_str("__qiEngine"), &hook);
}
