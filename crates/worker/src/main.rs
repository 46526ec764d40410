//! The Web Worker that runs the computer's search, so the page never freezes while it thinks.
//!
//! It keeps one engine (see `qi_worker::engine`) and answers the page's requests one at a time,
//! in order. The page may run several of these workers at once, each searching a share of the
//! root moves of the same position (`ToWorker::AskShare`), to use several cores. Messages are `qi_tasks::think::ToWorker` and `FromWorker`,
//! bincode in a `Uint8Array`; one other message may come, once: a `SharedArrayBuffer` of
//! stop flags, which the page sends when it is cross-origin isolated, so a search under way
//! can be stopped at once (the page writes the search's sequence number into its slot). A
//! ponder runs in slices (`PONDER_SLICE_MS` in browser.rs) and reads its messages between them, so it
//! ends within a slice of the person's move wherever the page is served.

#[cfg(target_arch = "wasm32")]
mod browser;
#[cfg(all(target_arch = "wasm32", target_feature = "atomics"))]
mod threads;

#[cfg(target_arch = "wasm32")]
fn main() {
    browser::main();
}

/// Built natively (`cargo build --workspace`), the worker has nothing to run: it lives in a
/// browser's Web Worker (scripts/lib.sh's `build_worker`).
#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("qi-worker runs in a browser's Web Worker: build it for wasm32-unknown-unknown");
    std::process::exit(2);
}
