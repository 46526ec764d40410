//! An engine in another process, as the match commands talk to it: lines to its standard input,
//! lines from its standard output with a deadline. The protocols (UCI, Gomocup, `qi
//! banqi-engine`) are the callers' business.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

/// A running engine program.
pub struct EngineProcess {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// The command it was started with, to name it in errors.
    pub name: String,
}

impl EngineProcess {
    /// Starts `command` (a program and its arguments, split at white space; a bare program name
    /// is looked for in /usr/games, where Debian puts engines, before the `PATH`).
    ///
    /// # Errors
    /// The command is empty or the program will not start.
    pub fn start(command: &str) -> Result<EngineProcess, String> {
        let mut words = command.split_whitespace();
        let program = locate(words.next().ok_or("empty engine command")?);
        let mut child = Command::new(&program)
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {command:?}: {e}"))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (send, lines) = channel();
        // A thread per engine turns its output into a channel, so reads can time out.
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(EngineProcess { child, stdin, lines, name: command.to_owned() })
    }

    /// Writes one line.
    ///
    /// # Errors
    /// The engine has closed its input (it has quit or crashed).
    pub fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.stdin, "{line}").map_err(|e| format!("{}: {e}", self.name))
    }

    /// The next line, if one comes before `deadline`.
    ///
    /// # Errors
    /// Nothing came in time, or the engine ended.
    pub fn next_line(&mut self, deadline: Instant) -> Result<String, String> {
        let left = deadline.saturating_duration_since(Instant::now());
        self.lines.recv_timeout(left).map_err(|_| format!("{}: no answer in time", self.name))
    }

    /// Reads lines until one starts with `prefix`, within `limit`; that line.
    ///
    /// # Errors
    /// No such line came in time, or the engine ended.
    pub fn wait_for(&mut self, prefix: &str, limit: Duration) -> Result<String, String> {
        let deadline = Instant::now() + limit;
        loop {
            let line = self
                .next_line(deadline)
                .map_err(|_| format!("{}: no {prefix:?} in time", self.name))?;
            if line.starts_with(prefix) {
                return Ok(line);
            }
        }
    }

    /// Sends `last_word` (the protocol's quit), gives the engine `grace` to go, then ends it.
    pub fn close(&mut self, last_word: &str, grace: Duration) {
        let _ = self.send(last_word);
        let deadline = Instant::now() + grace;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        // After close() this finds the child gone; otherwise no engine outlives the match.
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

/// An engine program: as given, or from /usr/games where Debian puts engines.
fn locate(program: &str) -> String {
    let games = format!("/usr/games/{program}");
    if !program.contains('/') && std::path::Path::new(&games).is_file() {
        games
    } else {
        program.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_program_is_an_error_that_names_it() {
        let error = EngineProcess::start("/nonexistent/engine uci").err().unwrap_or_default();
        assert!(error.contains("/nonexistent/engine"), "{error}");
        assert_eq!(EngineProcess::start("  ").err().as_deref(), Some("empty engine command"));
    }

    #[test]
    fn lines_come_back_and_a_silent_engine_times_out() {
        let mut cat = EngineProcess::start("cat").expect("cat runs");
        cat.send("hello").unwrap();
        cat.send("bestmove e2e4").unwrap();
        assert_eq!(cat.wait_for("bestmove", Duration::from_secs(5)).unwrap(), "bestmove e2e4");
        let error = cat.wait_for("never", Duration::from_millis(50)).unwrap_err();
        assert!(error.contains("no \"never\" in time"), "{error}");
        cat.close("quit", Duration::from_millis(50));
    }
}
