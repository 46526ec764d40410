//! What a protocol session promises, whatever it reads: the oracle of the fuzz targets
//! (`crates/cli/fuzz`: `uci_lines`, `banqi_lines`, `piskvork_lines`) and of this crate's tests
//! over hostile scripts.
//!
//! Each `*_script` function feeds a script to a fresh session, one line at a time, and checks:
//! - every reply is one line (no `\r` inside) of a shape the protocol has;
//! - a command refused with an error leaves the position as it was;
//! - every search that was started answers exactly once, with a move that is legal in the
//!   position it searched (or with "no move" only where there is none).
//!
//! Searches are capped at [`NODE_CAP`] nodes, so `go infinite` or a five-second turn ends at
//! once; only the first [`MOST_LINES`] lines are read.

use std::sync::{Arc, Mutex, PoisonError};

use qi_rules::Game;
use qi_rules::any::AnyGame;
use qi_rules::banqi::Banqi;
use qi_rules::gomoku::{Gomoku, GomokuMove};

use crate::{Output, banqi_protocol, line_text, piskvork, uci};

/// The most nodes a search of a checked session spends.
pub const NODE_CAP: u64 = 400;

/// The most lines of a script a check reads.
pub const MOST_LINES: usize = 64;

/// A session's replies, kept for the check.
#[derive(Clone, Default)]
struct Capture(Arc<Mutex<Vec<u8>>>);

impl Capture {
    fn output(&self) -> Output {
        Arc::clone(&self.0) as Output
    }

    fn len(&self) -> usize {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).len()
    }

    /// The replies written since `from` (a length of [`Capture::len`]).
    fn since(&self, from: usize) -> String {
        let bytes = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        String::from_utf8_lossy(&bytes[from.min(bytes.len())..]).into_owned()
    }
}

/// The script's lines as the binaries read them: bytes up to and with each `\n`.
fn script_lines(script: &[u8]) -> impl Iterator<Item = &[u8]> {
    script.split_inclusive(|&b| b == b'\n').take(MOST_LINES)
}

/// A line's command word, if it is text.
fn command_of(line: &[u8]) -> Option<&str> {
    line_text(line).ok()?.split_whitespace().next()
}

/// The reply lines in `text`: split at each `\n` only, so a `\r` before one stays in the line
/// (and fails [`check_reply_shape`]).
fn reply_lines(text: &str) -> impl Iterator<Item = &str> {
    text.strip_suffix('\n').unwrap_or(text).split('\n').filter(|_| !text.is_empty())
}

/// A script line, for a message.
fn show(line: &[u8]) -> String {
    String::from_utf8_lossy(line).into_owned()
}

/// A reply line broken in two, or of a shape the protocol does not have.
fn check_reply_shape(reply: &str, words: &[&str]) -> Result<(), String> {
    if reply.contains('\r') {
        return Err(format!("a reply holds a carriage return: {reply:?}"));
    }
    let first = reply.split(' ').next().unwrap_or("");
    if words.contains(&first) {
        Ok(())
    } else {
        Err(format!("a reply the protocol does not have: {reply:?}"))
    }
}

/// A session of a UCI-shaped protocol (`qi uci`, `qi banqi-engine`), as the checks drive it.
trait UciShaped {
    /// Its position.
    type Game: Clone;
    fn handle_bytes(&mut self, line: &[u8]) -> bool;
    fn game(&self) -> &Self::Game;
    /// Whether two positions are the same (the board, the side to move, the history's hash).
    fn same(a: &Self::Game, b: &Self::Game) -> bool;
    fn finish(&mut self);
}

impl UciShaped for uci::Uci {
    type Game = AnyGame;
    fn handle_bytes(&mut self, line: &[u8]) -> bool {
        uci::Uci::handle_bytes(self, line)
    }
    fn game(&self) -> &AnyGame {
        uci::Uci::game(self)
    }
    fn same(a: &AnyGame, b: &AnyGame) -> bool {
        a.position() == b.position() && a.hash() == b.hash()
    }
    fn finish(&mut self) {
        uci::Uci::finish(self);
    }
}

impl UciShaped for banqi_protocol::Session {
    type Game = Banqi;
    fn handle_bytes(&mut self, line: &[u8]) -> bool {
        banqi_protocol::Session::handle_bytes(self, line)
    }
    fn game(&self) -> &Banqi {
        banqi_protocol::Session::game(self)
    }
    fn same(a: &Banqi, b: &Banqi) -> bool {
        a.position() == b.position() && a.hash() == b.hash()
    }
    fn finish(&mut self) {
        banqi_protocol::Session::finish(self);
    }
}

/// How a UCI-shaped protocol answers: its reply lines' first words, its "no move", and what a
/// legal answer and a position without moves are.
struct Answers<'a, G> {
    shapes: &'a [&'a str],
    none: &'a str,
    legal: &'a dyn Fn(&G, &str) -> Result<(), String>,
    nothing_to_play: &'a dyn Fn(&G) -> bool,
}

/// Drives `session` (replying into `capture`) over `script` and checks its promises.
fn check_uci_shaped<S: UciShaped>(
    mut session: S,
    capture: &Capture,
    script: &[u8],
    answers: &Answers<'_, S::Game>,
) -> Result<usize, String> {
    let mut searched: Vec<S::Game> = Vec::new();
    for line in script_lines(script) {
        let before = session.game().clone();
        let written = capture.len();
        let going_on = session.handle_bytes(line);
        // Only the session itself writes errors (its search writes `info` and `bestmove`).
        let refused =
            reply_lines(&capture.since(written)).any(|l| l.starts_with("info string error"));
        if refused && !S::same(session.game(), &before) {
            return Err(format!("{:?} was refused, but the position changed", show(line)));
        }
        if !refused && command_of(line) == Some("go") {
            searched.push(session.game().clone());
        }
        if !going_on {
            break;
        }
    }
    session.finish();
    let replies = capture.since(0);
    let mut given = Vec::new();
    for reply in reply_lines(&replies) {
        check_reply_shape(reply, answers.shapes)?;
        if let Some(answer) = reply.strip_prefix("bestmove ") {
            given.push(answer);
        }
    }
    check_answers(&searched, &given, answers.none, answers.legal, answers.nothing_to_play)
}

/// Checks a `qi uci` session over `script`.
///
/// Returns how many searches answered.
///
/// # Errors
/// The first promise it broke, with the line that broke it.
pub fn uci_script(script: &[u8]) -> Result<usize, String> {
    let capture = Capture::default();
    let mut session = uci::Uci::new(capture.output());
    session.cap(NODE_CAP, 1);
    let answers = Answers {
        shapes: &["id", "option", "uciok", "readyok", "info", "bestmove"],
        none: "0000",
        legal: &|game: &AnyGame, answer: &str| {
            game.clone().play(answer).map(|_| ()).map_err(|e| e.to_string())
        },
        nothing_to_play: &|game: &AnyGame| {
            game.legal_moves().is_empty() || game.outcome().is_some()
        },
    };
    check_uci_shaped(session, &capture, script, &answers)
}

/// Checks a `qi banqi-engine` session over `script`.
///
/// Returns how many searches answered.
///
/// # Errors
/// The first promise it broke, with the line that broke it.
pub fn banqi_script(script: &[u8]) -> Result<usize, String> {
    let capture = Capture::default();
    let mut session = banqi_protocol::Session::new(capture.output());
    session.cap_nodes(NODE_CAP);
    let answers = Answers {
        shapes: &["id", "option", "banqiok", "readyok", "info", "bestmove"],
        none: "(none)",
        legal: &|game: &Banqi, answer: &str| {
            let mv = game.parse_move(answer).map_err(|e| e.to_string())?;
            game.check(mv).map_err(|e| e.to_string())
        },
        nothing_to_play: &|game: &Banqi| game.legal_moves().is_empty() || game.outcome().is_some(),
    };
    check_uci_shaped(session, &capture, script, &answers)
}

/// Every search answered once, in order, with a legal move or with `none` where none is.
fn check_answers<G>(
    searched: &[G],
    answers: &[&str],
    none: &str,
    legal: &dyn Fn(&G, &str) -> Result<(), String>,
    nothing_to_play: &dyn Fn(&G) -> bool,
) -> Result<usize, String> {
    if searched.len() != answers.len() {
        return Err(format!("{} searches started, {} answered", searched.len(), answers.len()));
    }
    for (game, &answer) in searched.iter().zip(answers) {
        if answer == none {
            if !nothing_to_play(game) {
                return Err("a search gave up where moves were legal".into());
            }
        } else if let Err(e) = legal(game, answer) {
            return Err(format!("bestmove {answer} is not legal where it was searched: {e}"));
        }
    }
    Ok(answers.len())
}

/// The stones of a game, in order.
fn stones(game: Option<&Gomoku>) -> Vec<GomokuMove> {
    game.map(Game::history).unwrap_or_default()
}

/// Reads a Piskvork `x,y` reply as a point of a `size`x`size` board (qi's cell numbers:
/// file, rank from the bottom).
fn piskvork_point(text: &str, size: u8) -> Option<(u8, u8)> {
    let (x, y) = text.split_once(',')?;
    let (x, y) = (x.parse::<u8>().ok()?, y.parse::<u8>().ok()?);
    (x < size && y < size).then(|| (x, size - 1 - y))
}

/// Checks a `qi piskvork` session over `script`.
///
/// Returns how many moves the engine answered.
///
/// # Errors
/// The first promise it broke, with the line that broke it.
pub fn piskvork_script(script: &[u8]) -> Result<usize, String> {
    let mut session = piskvork::Session::default();
    session.cap_nodes(NODE_CAP);
    let mut moves = 0;
    for line in script_lines(script) {
        let before = stones(session.current_game());
        let command = command_of(line).unwrap_or("").to_ascii_uppercase();
        let ends_board = session.reading_stones() && command == "DONE";
        let reads_board = session.reading_stones();
        let replies = session.handle_bytes(line);
        let line = show(line);
        for reply in &replies {
            if reply.contains(['\n', '\r']) {
                return Err(format!("{line:?}: a reply is two lines: {reply:?}"));
            }
        }
        let after = stones(session.current_game());
        let refused = replies.iter().any(|r| r.starts_with("ERROR") || r.starts_with("UNKNOWN"));
        // A refused INFO, START or TAKEBACK changes nothing (TURN may have played the
        // opponent's stone before finding the game over; BOARD's DONE sets its board).
        if refused
            && !reads_board
            && matches!(command.as_str(), "INFO" | "START" | "TAKEBACK")
            && after != before
        {
            return Err(format!("{line:?} was refused, but the stones changed"));
        }
        // An accepted TURN, BEGIN or board asks for a move, and gets one.
        let asks = !reads_board && matches!(command.as_str(), "TURN" | "BEGIN") || ends_board;
        let answered = replies.last().is_some_and(|a| a == "SWAP" || a.split_once(',').is_some());
        if asks && !refused && !answered {
            return Err(format!("{line:?} was accepted but answered no move: {replies:?}"));
        }
        let Some(answer) = replies.last() else { continue };
        let Some(game) = session.current_game() else { continue };
        let size = game.rules().size();
        // A single point is the engine's own stone, just played: the last one of the game.
        if let Some((file, rank)) = piskvork_point(answer, size) {
            let last = after.last().and_then(|mv| mv.point());
            if last.map(|c| (c.file, c.rank)) != Some((file, rank)) {
                return Err(format!(
                    "{line:?}: answered {answer}, but the game's last stone is elsewhere"
                ));
            }
            moves += 1;
        } else if answer.contains(',') && !answer.contains(' ') {
            return Err(format!("{line:?}: answered {answer:?}, not a point of the board"));
        }
        if session.ended() {
            break;
        }
    }
    Ok(moves)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_uci_session_keeps_its_promises_under_hostile_lines() {
        // A GUI's `go` during a search is refused; `stop` first makes the count certain.
        let script = "uci\nisready\nposition startpos moves e2e4 e7e5\ngo depth 2\nstop\n\
            position startpos moves e2e5\ngo nodes x\nsetoption name Hash value 99999\n\
            setoption name UCI_Variant value xiangqi\nposition startpos moves h2e2\ngo infinite\n\
            go movetime 10\nstop\nposition fen 4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1 moves d0d1\n\
            position fen rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3\n\
            setoption name UCI_Variant value chess\nposition fen \
            rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3\ngo depth 3\nstop\n\
            \u{1}\u{7f}go\r\nsetoption name UCI_Chess960 value true\ngo wtime 1 btime 1\nquit\ngo\n";
        // depth 2, infinite (stopped), depth 3 (mate: none), the 960 clock one.
        assert_eq!(uci_script(script.as_bytes()), Ok(4));
    }

    #[test]
    fn a_banqi_session_keeps_its_promises_under_hostile_lines() {
        let script = "banqi\nisready\nposition startpos:7 moves b2=K c3\ngo depth 2\n\
            position ?7/8/8/8 1 - 0 K moves a4\ngo nodes 50\nsetoption name chain value yes\n\
            setoption name ranks value bogus\nposition startpos moves a1=Q\ngo infinite\n\
            stop\nposition 8/8/8/8 1 - 0 -\ngo\ngo depth -1\nquit\n";
        assert_eq!(banqi_script(script.as_bytes()), Ok(4));
    }

    #[test]
    fn a_piskvork_session_keeps_its_promises_under_hostile_lines() {
        let script = "TURN 7,7\nSTART 16\nSTART 15\nINFO timeout_turn 99999999\nBEGIN\n\
            TURN 7,7\nTURN 99,0\nTURN 8,8\nTAKEBACK 3,3\nINFO rule 4\nBOARD\n1,1,1\n2,2,2\n\
            x\nDONE\nSWAP2BOARD\nDONE\nRESTART\nINFO level 9\nINFO level 2\nBEGIN\nEND\n";
        // BEGIN, TURN 8,8 and the second BEGIN; SWAP2BOARD's three stones are not one move.
        assert_eq!(piskvork_script(script.as_bytes()), Ok(3));
    }

    /// A line that is not UTF-8 is one bad command: the session answers it and reads on (the
    /// banqi engine once ended there, without a word).
    #[test]
    fn a_line_that_is_not_utf8_is_refused_and_the_session_goes_on() {
        let script = b"\xff\xfego\ngo depth 1\nstop\nposition startpos\r\ngo depth 1\nstop\n";
        assert_eq!(uci_script(script), Ok(2));
        assert_eq!(banqi_script(script), Ok(2));
        assert_eq!(piskvork_script(b"START 15\n\xff\xfe\nBEGIN\n"), Ok(1));
    }

    /// The check can fail: an answer illegal where it was searched, a search without answer,
    /// a give-up with moves on the board.
    #[test]
    fn the_answers_check_catches_what_it_should() {
        let start =
            AnyGame::new("chess", "", &qi_rules::any::StartFrom::Start { seed: 0 }).unwrap();
        let legal = |game: &AnyGame, answer: &str| {
            game.clone().play(answer).map(|_| ()).map_err(|e| e.to_string())
        };
        let none = |game: &AnyGame| game.legal_moves().is_empty();
        let searched = [start];
        assert!(check_answers(&searched, &["e2e4"], "0000", &legal, &none).is_ok());
        assert!(check_answers(&searched, &["e2e5"], "0000", &legal, &none).is_err());
        assert!(check_answers(&searched, &[], "0000", &legal, &none).is_err());
        assert!(check_answers(&searched, &["0000"], "0000", &legal, &none).is_err());
        assert!(check_reply_shape("bestmove e2e4\r", &["bestmove"]).is_err());
        assert!(check_reply_shape("hello", &["bestmove"]).is_err());
    }
}
