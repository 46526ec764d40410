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

/// One input line as the sessions read it: without its `\n` and a `\r` before it, and as text
/// if it is UTF-8.
pub(crate) fn line_text(line: &[u8]) -> Result<&str, std::str::Utf8Error> {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    std::str::from_utf8(line)
}

/// Reads `input` a line at a time (bytes, so a line that is not UTF-8 is one bad command and
/// not the end of the session), giving each to `handle` until it returns `false` or the input
/// ends; a read error ends it too.
pub(crate) fn each_line(mut input: impl std::io::BufRead, mut handle: impl FnMut(&[u8]) -> bool) {
    let mut bytes = Vec::new();
    loop {
        bytes.clear();
        match input.read_until(b'\n', &mut bytes) {
            Ok(0) | Err(_) => return,
            Ok(_) => {
                if !handle(&bytes) {
                    return;
                }
            }
        }
    }
}
