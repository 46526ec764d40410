//! A `qi` engine protocol (`qi uci`, `qi banqi-engine`) driven over stdin and stdout, as a GUI
//! or match runner drives it.
//!
//! Tests assert what the engine says, never how long it took (the machine may be busy; budgets
//! are tested on a work clock in `crates/ai`). A watchdog kills an engine that is still running
//! after [`WATCHDOG`], so an engine that never answers fails its test with "the engine closed its
//! output" instead of hanging the whole run.

#![allow(dead_code, reason = "each test file uses part of the harness")]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// How long an engine may run before the watchdog ends it: far beyond any search in these tests.
const WATCHDOG: Duration = Duration::from_secs(120);

/// A running engine protocol.
pub struct Engine {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    /// Dropping it tells the watchdog the test is over.
    _done: mpsc::Sender<()>,
}

impl Engine {
    /// Starts `qi <subcommand>`.
    pub fn start(subcommand: &str) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_qi"))
            .arg(subcommand)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("qi runs");
        let input = child.stdin.take().expect("stdin");
        let output = BufReader::new(child.stdout.take().expect("stdout"));
        let (done, finished) = mpsc::channel::<()>();
        let pid = child.id().to_string();
        std::thread::spawn(move || {
            if finished.recv_timeout(WATCHDOG) == Err(mpsc::RecvTimeoutError::Timeout) {
                eprintln!("watchdog: qi {pid} still running after {WATCHDOG:?}; killing it");
                let _ = Command::new("kill").args(["-9", &pid]).status();
            }
        });
        Engine { child, input, output, _done: done }
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        writeln!(self.input, "{line}").expect("the engine reads");
        self.input.flush().expect("the engine reads");
    }

    /// The next line, without its line ending.
    pub fn line(&mut self) -> String {
        let mut line = String::new();
        let read = self.output.read_line(&mut line).expect("the engine writes");
        assert!(read > 0, "the engine closed its output");
        line.trim_end().to_owned()
    }

    /// Lines up to and including the first that starts with `prefix`.
    pub fn until(&mut self, prefix: &str) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let line = self.line();
            let done = line.starts_with(prefix);
            lines.push(line);
            if done {
                return lines;
            }
        }
    }

    /// Waits for `bestmove` and returns the move it names.
    pub fn best_move(&mut self) -> String {
        bestmove(&self.until("bestmove"))
    }

    /// Sends `quit` and checks the engine exits by itself (the watchdog ends one that does not).
    pub fn quit(mut self) {
        self.send("quit");
        let status = self.child.wait().expect("wait");
        assert!(status.success(), "the engine exited with {status}");
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        // A test that failed stopped reading: the engine may be blocked writing to a full pipe
        // and never read a quit, so end it.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The move on a `bestmove` line, the last of `lines`.
pub fn bestmove(lines: &[String]) -> String {
    let last = lines.last().expect("a bestmove line");
    last.split_whitespace().nth(1).unwrap_or_else(|| panic!("no move in {last:?}")).to_owned()
}
