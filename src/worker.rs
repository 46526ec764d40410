//! The page's side of the Web Worker (crates/worker), which runs the engine and the heavy tasks
//! (records, QR codes, opening books) off the page's thread.
//!
//! One worker for the page, started on the first request. Requests go in order, each with a
//! sequence number; each answer goes back to whoever asked. A request the page no longer wants
//! is [cancelled](cancel): its asker gets `None` at once, and a search under way stops:
//! - where the page is cross-origin isolated (served with COOP and COEP, as `qi-server` and
//!   `scripts/serve.mjs` serve it), through a `SharedArrayBuffer` of stop flags the search
//!   reads as it goes: it stops within a thousand nodes and the engine keeps its table;
//! - elsewhere (a static host, an embed on a blog), by replacing the worker: the old one is
//!   terminated at once, a new one takes the other requests, and the engine starts afresh.
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
    answer: oneshot::Sender<Option<WorkerReply>>,
}

/// The running worker and what it was asked.
struct Bridge {
    worker: web_sys::Worker,
    /// Whether the worker said it listens.
    ready: bool,
    /// Requests not yet answered, by sequence number (so the oldest posted one is the one the
    /// worker is working on).
    pending: BTreeMap<u64, Pending>,
    next_seq: u64,
    /// The stop flags shared with the worker, where the page is cross-origin isolated.
    stop_flags: Option<js_sys::Int32Array>,
    /// Kept alive for as long as the worker listens to it.
    _listener: Closure<dyn FnMut(MessageEvent)>,
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
        bridge.pending.insert(seq, Pending { request, posted, answer: sender });
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
        let running = bridge.pending.iter().find(|(_, p)| p.posted).map(|(&seq, _)| seq);
        let Some(pending) = bridge.pending.remove(&seq) else { return };
        let _ = pending.answer.send(None);
        if !pending.posted {
            return;
        }
        // The worker skips a request whose cancel it finds queued, and a ponder ends on it.
        post(&bridge.worker, &ToWorker::Cancel(seq));
        let searching =
            matches!(pending.request, WorkerRequest::Think(_) | WorkerRequest::Analyse(_));
        if !searching || running != Some(seq) {
            return;
        }
        if let Some(flags) = &bridge.stop_flags {
            let (slot, value) = stop_slot(seq);
            let _ = js_sys::Atomics::store(flags, slot, value);
        } else {
            // No way into a search under way: a new worker, the old one ended at once.
            let generation = bridge.generation + 1;
            let old = guard.take();
            if let Some(old) = old {
                old.worker.terminate();
                let mut new = start(generation);
                if let Some(new) = new.as_mut() {
                    new.next_seq = old.next_seq;
                    for (seq, mut pending) in old.pending {
                        if matches!(pending.request, WorkerRequest::Task(_)) {
                            // Tasks are the new worker's to do, once it is ready.
                            pending.posted = false;
                            new.pending.insert(seq, pending);
                        } else {
                            // The engine's requests were for the engine that is gone.
                            let _ = pending.answer.send(None);
                        }
                    }
                }
                *guard = new;
            }
        }
    });
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
    Some(Bridge {
        worker,
        ready: false,
        pending: BTreeMap::new(),
        next_seq: 0,
        stop_flags: None,
        _listener: listener,
        generation,
    })
}

/// The worker's script is wasm-bindgen's loader, which defines `wasm_bindgen` and waits to be
/// told where the module is: a small script of the page's making (a `blob:` address, allowed by
/// the servers' `worker-src`) loads it and says so.
fn shim_url() -> Option<String> {
    let page = web_sys::window()?.location().href().ok()?;
    let script = web_sys::Url::new_with_base(WORKER_PATH, &page).ok()?.href();
    let module = script.replace(".js", "_bg.wasm");
    let source = js_sys::Array::of1(&JsValue::from_str(&format!(
        "importScripts({script:?});wasm_bindgen({module:?});"
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
                for (&seq, pending) in &mut bridge.pending {
                    post(&bridge.worker, &ToWorker::Ask(seq, pending.request.clone()));
                    pending.posted = true;
                }
            }
            FromWorker::Answer(seq, reply) => {
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
/// ponders so far as `asked|ended|` and the last one's reply text.
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
