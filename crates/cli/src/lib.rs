//! The line protocols of the `qi` binary, as a library: `qi uci` ([`uci`]), `qi banqi-engine`
//! ([`banqi_protocol`]) and `qi piskvork` ([`piskvork`]). Each session takes one line at a time
//! and replies on an [`Output`] (or, for Piskvork, returns its reply lines), so the binary runs
//! it over stdin and stdout, and tests and the fuzz targets (`crates/cli/fuzz`) drive it line
//! by line and check what it answers.

use std::io::Write;
use std::sync::{Arc, Mutex};

pub mod banqi_protocol;
pub mod conformance;
pub mod piskvork;
pub mod uci;

/// Where a session's replies go: shared by the session and its search thread, which writes its
/// `info` lines and its `bestmove` while the session reads the next command.
pub type Output = Arc<Mutex<dyn Write + Send>>;

/// The process's standard output, as an [`Output`].
#[must_use]
pub fn stdout_output() -> Output {
    Arc::new(Mutex::new(std::io::stdout()))
}

/// Writes one reply line and flushes it, so the other side reads it at once. A closed output
/// (the GUI went away) is not an error worth a panic: the line is dropped.
pub fn say(out: &Output, line: &str) {
    if let Ok(mut out) = out.lock() {
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    }
}

/// The most nodes a session's searches may spend, whatever a command asks: `None` in the
/// binary. Tests and the fuzz targets set it, since they can wait neither for `go infinite`
/// nor for a five-second turn.
pub(crate) fn capped(nodes: Option<u64>, cap: Option<u64>) -> Option<u64> {
    match (nodes, cap) {
        (Some(nodes), Some(cap)) => Some(nodes.min(cap)),
        (nodes, cap) => nodes.or(cap),
    }
}
