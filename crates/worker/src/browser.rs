//! The worker in the browser: its message loop (see the binary's docs).

#[cfg(target_feature = "atomics")]
use crate::threads;

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};

use qi_ai::RootShare;
use qi_tasks::codec;
use qi_tasks::think::{FromWorker, ToWorker, WorkerReply, WorkerRequest, stop_slot};
use qi_worker::engine::{Pondered, ponder_slice, pondered_reply};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{DedicatedWorkerGlobalScope, MessageChannel, MessageEvent};

/// How long one slice of a ponder searches before the worker reads its messages.
const PONDER_SLICE_MS: f64 = 30.0;

/// What the worker holds between messages.
#[derive(Default)]
struct Worker {
    /// Messages not yet handled, in the order they came.
    queue: VecDeque<ToWorker>,
    /// Whether the loop that handles them is running.
    running: bool,
    /// The page's stop flags, when it shared them.
    stop_flags: Option<js_sys::Int32Array>,
}

fn scope() -> DedicatedWorkerGlobalScope {
    js_sys::global().unchecked_into()
}

fn post(message: &FromWorker) {
    // A page that has gone away can't be told anything: nothing to do.
    let _ = scope().post_message(&codec::encode(message));
}

/// Starts the worker: its panic hook, then its message loop (a helper thread of the threaded
/// build only helps).
pub fn main() {
    // A panic aborts (the worker build's profile): say what it was in the console first, so a
    // failed search has a reason to look at.
    std::panic::set_hook(Box::new(|info| {
        web_sys::console::error_1(&JsValue::from_str(&format!("qi-worker: {info}")));
    }));
    // The module's start runs in every thread of the threaded build: a helper's thread only
    // helps (its script calls `help_forever`).
    #[cfg(target_feature = "atomics")]
    if scope().name() == threads::HELPER_NAME {
        return;
    }
    let worker = Rc::new(RefCell::new(Worker::default()));
    let listener = {
        let worker = worker.clone();
        Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
            let data = event.data();
            if let Some(flags) = data.dyn_ref::<js_sys::SharedArrayBuffer>() {
                worker.borrow_mut().stop_flags = Some(js_sys::Int32Array::new(flags));
                return;
            }
            // Only the page can post here, and it posts only these; anything else is dropped.
            let Ok(message) = codec::decode::<ToWorker>(&data) else { return };
            let start = {
                let mut worker = worker.borrow_mut();
                worker.queue.push_back(message);
                !std::mem::replace(&mut worker.running, true)
            };
            if start {
                wasm_bindgen_futures::spawn_local(handle_messages(worker.clone()));
            }
        })
    };
    scope().set_onmessage(Some(listener.as_ref().unchecked_ref()));
    // The worker listens for as long as it lives.
    listener.forget();
    post(&FromWorker::Ready);
}

/// Handles the queued messages, one after another, until there are none.
async fn handle_messages(worker: Rc<RefCell<Worker>>) {
    loop {
        let Some(message) = worker.borrow_mut().queue.pop_front() else {
            worker.borrow_mut().running = false;
            return;
        };
        // A cancel reaching the queue finds its request answered or never started (a ponder
        // under way reads it between slices, below): nothing to do.
        let (seq, share, request) = match message {
            ToWorker::Ask(seq, request) => (seq, None, request),
            ToWorker::AskShare(seq, part, parts, request) => {
                let share = RootShare::new(part.min(255) as u8, parts.min(255) as u8);
                (seq, share, request)
            }
            ToWorker::Cancel(_) => continue,
            ToWorker::Threads(threads) => {
                let threads = threads.clamp(1, MOST_THREADS as u64) as usize;
                use_threads(threads).await;
                continue;
            }
        };
        // A search runs without a break, so messages posted meanwhile wait in the browser's
        // queue, not ours: let them in before starting the next request, so one cancelled
        // while it waited is found here and not started.
        if !matches!(request, WorkerRequest::Task(_)) {
            yield_to_messages().await;
        }
        let cancelled = |m: &ToWorker| matches!(m, ToWorker::Cancel(c) if *c == seq);
        if worker.borrow().queue.iter().any(cancelled) {
            worker.borrow_mut().queue.retain(|m| !cancelled(m));
            continue;
        }
        let flags = worker.borrow().stop_flags.clone();
        let stop = AtomicBool::new(false);
        let (slot, stopped) = stop_slot(seq);
        // The search reads the clock every thousand nodes or so: the page's stop flag is read
        // with it.
        let now = || {
            if let Some(flags) = &flags
                && js_sys::Atomics::load(flags, slot).ok() == Some(stopped)
            {
                stop.store(true, Ordering::Relaxed);
            }
            js_sys::Date::now()
        };
        let reply = match request {
            WorkerRequest::Ponder(request) => {
                let game = request.record.replay(usize::MAX).game;
                let mut pondered = Pondered::default();
                loop {
                    ponder_slice(&request, &game, &mut pondered, PONDER_SLICE_MS, &now, &stop);
                    if pondered.done {
                        break;
                    }
                    yield_to_messages().await;
                    if ponder_interrupted(&worker, seq) {
                        break;
                    }
                }
                WorkerReply::Pondered(pondered_reply(request.id, &pondered))
            }
            request => qi_worker::engine::respond(request, share, &now, &stop),
        };
        // The helpers' count first: the page has it when the answer comes.
        #[cfg(target_feature = "atomics")]
        match threads::take_helped_nodes() {
            0 => {}
            nodes => post(&FromWorker::Helped(seq, nodes)),
        }
        post(&FromWorker::Answer(seq, reply));
    }
}

/// The most threads a search runs on.
const MOST_THREADS: usize = 16;

/// Searches full-strength thinks and analyses on `threads` threads from now on: in the build
/// with wasm threads, `threads - 1` helpers beside the worker's own; elsewhere one (the page
/// sends this only to the threaded build).
async fn use_threads(threads: usize) {
    #[cfg(target_feature = "atomics")]
    {
        threads::start_and_await_helpers(threads - 1).await;
        let helpers: Option<Box<dyn qi_worker::engine::HelperThreads>> =
            if threads > 1 { Some(Box::new(threads::WasmHelpers { threads })) } else { None };
        qi_worker::engine::set_helper_threads(helpers);
    }
    #[cfg(not(target_feature = "atomics"))]
    let _ = threads;
}

/// Whether the ponder `seq` must end, after the messages that came during its last slice: its
/// cancel, or a request for the engine (the person moved: that search keeps the table), ends
/// it; tasks (records, QR codes, the opening's name) are answered at once, and the ponder goes
/// on.
fn ponder_interrupted(worker: &Rc<RefCell<Worker>>, seq: u64) -> bool {
    let mut tasks = Vec::new();
    let mut interrupted = false;
    {
        let mut worker = worker.borrow_mut();
        let mut rest = VecDeque::new();
        for message in worker.queue.drain(..) {
            match message {
                // Tasks queued behind an engine request keep their turn.
                ToWorker::Ask(task_seq, WorkerRequest::Task(task)) if !interrupted => {
                    tasks.push((task_seq, task));
                }
                ToWorker::Cancel(cancelled) if cancelled == seq => interrupted = true,
                message @ (ToWorker::Ask(..) | ToWorker::AskShare(..)) => {
                    interrupted = true;
                    rest.push_back(message);
                }
                // Another request's cancel stays for that request to find; a number of threads
                // waits for the next search.
                message @ (ToWorker::Cancel(_) | ToWorker::Threads(_)) => rest.push_back(message),
            }
        }
        worker.queue = rest;
    }
    for (task_seq, task) in tasks {
        post(&FromWorker::Answer(task_seq, WorkerReply::Task(qi_worker::chores::answer(task))));
    }
    interrupted
}

/// Lets the worker's pending messages in: resolves on a message through a channel of its own,
/// which, unlike a timer, is not slowed down when called again and again.
async fn yield_to_messages() {
    let Ok(channel) = MessageChannel::new() else { return };
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        channel.port1().set_onmessage(Some(&resolve));
        let _ = channel.port2().post_message(&JsValue::NULL);
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
    channel.port1().set_onmessage(None);
}
