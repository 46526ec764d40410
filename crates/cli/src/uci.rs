//! `qi uci`: the Universal Chess Interface over stdin and stdout, for chess, Chess960 and
//! xiangqi (with Fairy-Stockfish's `UCI_Variant`, FEN and coordinate moves such as `h3e3`).
//!
//! The search runs in its own thread, so `stop`, `isready` and `quit` are answered while it
//! thinks. Bad input gets `info string error <what was wrong>` and changes nothing.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;

use qi_ai::search::native_clock;
use qi_ai::{AnyEngine, HelperPool, Level, LevelSettings, Limits, Score, SearchInfo, SearchResult};
use qi_rules::Side;
use qi_rules::any::{AnyGame, AnyMove, StartFrom};

use crate::{Output, capped, each_line, line_text, say, stdout_output};

/// Milliseconds kept back from every time limit for the protocol's round trip.
const MOVE_OVERHEAD_MS: f64 = 5.0;

/// The line that tells the GUI what was wrong with its command, on one line.
fn error_line(what: impl std::fmt::Display) -> String {
    format!("info string error {}", what.to_string().replace(['\n', '\r'], " "))
}

/// The variants `UCI_Variant` offers.
const VARIANTS: [&str; 2] = ["chess", "xiangqi"];

/// What a `go` asked for.
#[derive(Default, Debug, PartialEq)]
struct Go {
    movetime: Option<f64>,
    depth: Option<u32>,
    nodes: Option<u64>,
    time: [Option<f64>; 2],
    increment: [f64; 2],
    moves_to_go: Option<u32>,
    infinite: bool,
}

fn number<T: std::str::FromStr>(name: &str, value: Option<&str>) -> Result<T, String> {
    let value = value.ok_or_else(|| format!("go {name} needs a number"))?;
    value.parse().map_err(|_| format!("go {name}: {value:?} is not a valid number"))
}

impl Go {
    fn parse(words: &[&str]) -> Result<Go, String> {
        let mut go = Go::default();
        let mut iter = words.iter().copied();
        while let Some(word) = iter.next() {
            match word {
                "movetime" => go.movetime = Some(number::<u64>(word, iter.next())? as f64),
                "depth" => go.depth = Some(number(word, iter.next())?),
                "nodes" => go.nodes = Some(number(word, iter.next())?),
                "wtime" => go.time[0] = Some(number::<i64>(word, iter.next())?.max(0) as f64),
                "btime" => go.time[1] = Some(number::<i64>(word, iter.next())?.max(0) as f64),
                "winc" => go.increment[0] = number::<i64>(word, iter.next())?.max(0) as f64,
                "binc" => go.increment[1] = number::<i64>(word, iter.next())?.max(0) as f64,
                "movestogo" => go.moves_to_go = Some(number(word, iter.next())?),
                "infinite" => go.infinite = true,
                "ponder" | "mate" | "searchmoves" => {
                    // Not supported: searchmoves' moves and mate's number are skipped as words.
                }
                _ if word.chars().all(|c| c.is_ascii_alphanumeric()) && word.len() <= 5 => {}
                _ => return Err(format!("go: unexpected {word:?}")),
            }
        }
        Ok(go)
    }

    /// The search limits for the side to move.
    fn limits(&self, side: Side) -> Limits {
        let mut limits = Limits { nodes: self.nodes, depth: self.depth, ..Limits::default() };
        if let Some(movetime) = self.movetime {
            limits.time_ms = Some((movetime - MOVE_OVERHEAD_MS).max(1.0));
        } else if let Some(time) = self.time[side.index()] {
            let increment = self.increment[side.index()];
            let moves_left = f64::from(self.moves_to_go.unwrap_or(30).clamp(1, 30));
            // The soft limit is the move's share of the clock: no depth starts past it. A depth
            // under way may go on to three shares (the hard limit), never past 40% of the clock.
            let share = time / moves_left + increment * 0.8;
            let cap = time * 0.4;
            let usable = |ms: f64| (ms.min(cap) - MOVE_OVERHEAD_MS).max(1.0);
            limits.soft_time_ms = Some(usable(share));
            limits.time_ms = Some(usable(share * 3.0));
        }
        limits
    }
}

/// A search under way.
struct Running {
    stop: Arc<AtomicBool>,
    infinite: bool,
    /// Set just before the search writes its `bestmove`: from then on it is over for the GUI,
    /// which may send the next `go` before the thread has quite finished.
    answered: Arc<AtomicBool>,
    thread: JoinHandle<()>,
}

/// The protocol's state between commands: one session with a GUI.
pub struct Uci {
    variant: &'static str,
    chess960: bool,
    game: AnyGame,
    engine: Arc<Mutex<AnyEngine>>,
    /// The engines helping it on more `threads`.
    helpers: Arc<Mutex<HelperPool>>,
    level: Option<Level>,
    /// Best lines a search reports (`MultiPV`).
    lines: usize,
    /// Threads a full-strength search runs on (`Threads`): the first plays, the others help
    /// it through the shared table ([`AnyEngine::helper`]).
    threads: usize,
    running: Option<Running>,
    /// Where the replies go.
    out: Output,
    /// The most nodes any search may spend (see [`Uci::cap`]).
    node_cap: Option<u64>,
    /// The largest hash table `setoption name Hash` may ask for, in MB.
    most_hash_mb: usize,
}

fn start_position(variant: &str) -> Result<AnyGame, String> {
    // Chess960's `startpos` is the standard array (number 518) with Chess960 castling.
    let seed = if variant == "chess960" { 518 } else { 0 };
    AnyGame::new(variant, "", &StartFrom::Start { seed }).map_err(|e| e.to_string())
}

/// The largest `Hash` the protocol offers, in MB.
const MOST_HASH_MB: usize = 1024;

/// The most `Threads` the protocol offers.
const MOST_THREADS: usize = 64;

impl Uci {
    /// A session replying on `out`, with the standard start position of chess.
    #[must_use]
    pub fn new(out: Output) -> Uci {
        Uci {
            variant: "chess",
            chess960: false,
            game: start_position("chess").unwrap_or_else(|_| unreachable!("chess always starts")),
            engine: Arc::new(Mutex::new(AnyEngine::default())),
            helpers: Arc::new(Mutex::new(HelperPool::default())),
            level: None,
            lines: 1,
            threads: 1,
            running: None,
            out,
            node_cap: None,
            most_hash_mb: MOST_HASH_MB,
        }
    }

    /// Caps every search at `nodes` and the hash table at `hash_mb`, whatever the commands
    /// ask (a `setoption name Hash` above it is taken as `hash_mb`): for tests and fuzzing,
    /// which can wait neither for `go infinite` nor for a gigabyte to be cleared.
    pub fn cap(&mut self, nodes: u64, hash_mb: usize) {
        self.node_cap = Some(nodes);
        self.most_hash_mb = hash_mb.max(1);
    }

    /// The position the next `go` searches.
    #[must_use]
    pub fn game(&self) -> &AnyGame {
        &self.game
    }

    fn send(&self, line: &str) {
        say(&self.out, line);
    }

    fn error(&self, what: impl std::fmt::Display) {
        self.send(&error_line(what));
    }

    /// The end of the input: a search under way finishes (an infinite one now) and gives its
    /// `bestmove`, as if `stop` had come.
    pub fn finish(&mut self) {
        if let Some(running) = self.running.take() {
            if running.infinite {
                running.stop.store(true, Ordering::Relaxed);
            }
            let _ = running.thread.join();
        }
    }

    /// The variant name for `AnyGame`: chess, chess960 or xiangqi.
    fn game_variant(&self) -> &'static str {
        match (self.variant, self.chess960) {
            ("chess", true) => "chess960",
            (variant, _) => variant,
        }
    }

    /// Handles one line as read from the input (its `\n`, and a `\r` before it, included);
    /// returns `false` on `quit`. A line that is not UTF-8 gets an error and changes nothing.
    pub fn handle_bytes(&mut self, line: &[u8]) -> bool {
        match line_text(line) {
            Ok(text) => self.handle(text),
            Err(_) => {
                self.error("input is not valid UTF-8");
                true
            }
        }
    }

    /// Handles one line; returns `false` on `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, rest)) = words.split_first() else { return true };
        self.reap();
        match command {
            "uci" => self.identify(),
            "isready" => self.send("readyok"),
            "ucinewgame" => {
                self.stop();
                self.engine.lock().unwrap_or_else(PoisonError::into_inner).new_game();
                self.helpers.lock().unwrap_or_else(PoisonError::into_inner).new_game();
                if let Ok(game) = start_position(self.game_variant()) {
                    self.game = game;
                }
            }
            "setoption" => self.set_option(rest),
            "position" => match self.position(rest) {
                Ok(game) => self.game = game,
                Err(e) => self.error(e),
            },
            "go" => match Go::parse(rest) {
                Ok(go) => self.go(&go),
                Err(e) => self.error(e),
            },
            "stop" => self.stop(),
            "quit" => {
                self.stop();
                return false;
            }
            "debug" | "register" | "ponderhit" => {}
            _ => self.error(format_args!("unknown command {:?}", shorten(command))),
        }
        true
    }

    fn identify(&self) {
        self.send("id name Qi");
        self.send("id author the Qi authors");
        self.send("option name UCI_Chess960 type check default false");
        self.send("option name UCI_Variant type combo default chess var chess var xiangqi");
        self.send("option name Hash type spin default 16 min 1 max 1024");
        self.send("option name Level type spin default 6 min 1 max 6");
        self.send("option name MultiPV type spin default 1 min 1 max 10");
        self.send(&format!("option name Threads type spin default 1 min 1 max {MOST_THREADS}"));
        self.send("uciok");
    }

    fn set_option(&mut self, words: &[&str]) {
        // setoption name <name words> [value <value words>]
        let Some(("name", rest)) = words.split_first().map(|(w, r)| (*w, r)) else {
            return self.error("setoption needs: name <name> [value <value>]");
        };
        let split = rest.iter().position(|w| *w == "value").unwrap_or(rest.len());
        let name = rest[..split].join(" ");
        let value = rest.get(split + 1..).map(|v| v.join(" ")).unwrap_or_default();
        match name.to_ascii_lowercase().as_str() {
            "uci_chess960" => match value.as_str() {
                "true" | "false" => {
                    self.chess960 = value == "true";
                    self.reset_position();
                }
                _ => self.error(format_args!("UCI_Chess960 must be true or false, not {value:?}")),
            },
            "uci_variant" => match VARIANTS.iter().find(|v| **v == value) {
                Some(variant) => {
                    self.variant = variant;
                    self.reset_position();
                }
                None => self.error(format_args!(
                    "unknown UCI_Variant {:?} (chess or xiangqi)",
                    shorten(&value)
                )),
            },
            "hash" => match value.parse::<usize>() {
                Ok(mb) if (1..=MOST_HASH_MB).contains(&mb) => {
                    self.stop();
                    let mb = mb.min(self.most_hash_mb);
                    self.engine.lock().unwrap_or_else(PoisonError::into_inner).set_hash_mb(mb);
                    // They share the old table: the next search makes new ones.
                    self.helpers.lock().unwrap_or_else(PoisonError::into_inner).clear();
                }
                _ => {
                    self.error(format_args!(
                        "Hash must be 1 to 1024 (MB), not {:?}",
                        shorten(&value)
                    ));
                }
            },
            "multipv" => match value.parse::<usize>() {
                Ok(n) if (1..=10).contains(&n) => self.lines = n,
                _ => self.error(format_args!("MultiPV must be 1 to 10, not {:?}", shorten(&value))),
            },
            "threads" => match value.parse::<usize>() {
                Ok(n) if (1..=MOST_THREADS).contains(&n) => self.threads = n,
                _ => self.error(format_args!(
                    "Threads must be 1 to {MOST_THREADS}, not {:?}",
                    shorten(&value)
                )),
            },
            "level" | "skill level" => match value.parse::<u8>() {
                Ok(n) if (1..=6).contains(&n) => self.level = (n < 6).then(|| Level::new(n)),
                _ => self.error(format_args!("Level must be 1 to 6, not {:?}", shorten(&value))),
            },
            _ => self.error(format_args!("unknown option {:?}", shorten(&name))),
        }
    }

    /// After a variant change, the start position of the new variant.
    fn reset_position(&mut self) {
        match start_position(self.game_variant()) {
            Ok(game) => self.game = game,
            Err(e) => self.error(e),
        }
    }

    fn position(&self, words: &[&str]) -> Result<AnyGame, String> {
        let moves_at = words.iter().position(|w| *w == "moves").unwrap_or(words.len());
        let mut game = match words.first() {
            Some(&"startpos") if moves_at == 1 => start_position(self.game_variant())?,
            Some(&"fen") if moves_at > 1 => {
                let fen = words[1..moves_at].join(" ");
                AnyGame::new(self.game_variant(), "", &StartFrom::Position(&fen))
                    .map_err(|e| format!("bad FEN: {e}"))?
            }
            _ => return Err("position needs: startpos | fen <fen> [moves ...]".into()),
        };
        for (index, text) in words.iter().skip(moves_at + 1).enumerate() {
            game.play(text).map_err(|e| format!("move {} ({}): {e}", index + 1, shorten(text)))?;
        }
        Ok(game)
    }

    fn go(&mut self, go: &Go) {
        if self.running.is_some() {
            return self.error("already searching (send stop first)");
        }
        let mut limits = go.limits(self.game.side_to_move());
        limits.nodes = capped(limits.nodes, self.node_cap);
        let settings = match self.level {
            Some(level) => qi_ai::level::settings(self.game.kind(), level).within(limits),
            None => LevelSettings::full_strength(limits),
        };
        let stop = Arc::new(AtomicBool::new(false));
        let game = self.game.clone();
        let engine = Arc::clone(&self.engine);
        let infinite = go.infinite
            || (go.movetime.is_none()
                && go.depth.is_none()
                && go.nodes.is_none()
                && go.time == [None, None]);
        let lines = self.lines;
        // Levels are defined by their nodes and time: more threads would make them stronger.
        let threads = if self.level.is_none() { self.threads } else { 1 };
        let helpers = Arc::clone(&self.helpers);
        let thread_stop = Arc::clone(&stop);
        let answered = Arc::new(AtomicBool::new(false));
        let thread_answered = Arc::clone(&answered);
        let out = Arc::clone(&self.out);
        let thread = std::thread::spawn(move || {
            let clock = native_clock();
            let seed = game.hash();
            let mut engine = engine.lock().unwrap_or_else(PoisonError::into_inner);
            let mut helpers = helpers.lock().unwrap_or_else(PoisonError::into_inner);
            // The depth and first move of the last line said, to say the answer's line if it
            // is not that one.
            let reported = std::cell::RefCell::new((0, None));
            let (result, _) = with_helpers(
                &mut engine,
                &mut helpers,
                &game,
                Helping { threads, depth: settings.limits.depth, pick_deepest: lines <= 1 },
                &clock,
                |engine| {
                    engine.search_lines_with(
                        &game,
                        settings,
                        lines,
                        &clock,
                        &thread_stop,
                        seed,
                        &mut |info| {
                            *reported.borrow_mut() = (info.depth, info.pv.first().cloned());
                            for line in info_lines(info) {
                                say(&out, &line);
                            }
                        },
                    )
                },
            );
            // A helper's deeper answer, or a move a depth cut short proved better, is said
            // before it is played, as the main search's answers are.
            // (Nothing is said for a search that completed no depth.)
            let (depth, first) = reported.into_inner();
            let another_move = result.best.is_some() && result.best != first;
            if result.info.depth > 0 && (result.info.depth > depth || another_move) {
                for line in info_lines(&result.info) {
                    say(&out, &line);
                }
            }
            // In infinite mode the answer waits for `stop`, as the protocol asks.
            while infinite && !thread_stop.load(Ordering::Relaxed) {
                std::thread::sleep(std::time::Duration::from_millis(2));
            }
            thread_answered.store(true, Ordering::SeqCst);
            say(
                &out,
                &format!(
                    "bestmove {}",
                    result.best.map_or_else(|| "0000".to_owned(), |mv| mv.to_string())
                ),
            );
        });
        self.running = Some(Running { stop, infinite, answered, thread });
    }

    /// Ends the search under way (if any) and waits for its `bestmove`.
    fn stop(&mut self) {
        if let Some(running) = self.running.take() {
            running.stop.store(true, Ordering::Relaxed);
            let _ = running.thread.join();
        }
    }

    /// Forgets a search that has given its answer (waiting for its thread, which is at most
    /// writing that answer).
    fn reap(&mut self) {
        if self.running.as_ref().is_some_and(|r| r.answered.load(Ordering::SeqCst)) {
            self.stop();
        }
    }
}

/// How [`with_helpers`] helps a search.
#[derive(Debug, Clone, Copy)]
pub struct Helping {
    /// Threads in all, the main search's included.
    pub threads: usize,
    /// The search's depth limit, which the helpers keep too.
    pub depth: Option<u32>,
    /// Whether the answer is the deepest thread's ([`qi_ai::deepest`]) or always the main
    /// search's (several lines: a helper searches one).
    pub pick_deepest: bool,
}

/// Runs `search` on `engine` with `threads - 1` more threads helping it (Lazy SMP: each
/// searches the same position with an engine from `pool` sharing `engine`'s table), and stops
/// them when it returns. Returns the answer and the nodes the helpers visited.
pub fn with_helpers(
    engine: &mut AnyEngine,
    pool: &mut HelperPool,
    game: &AnyGame,
    helping: Helping,
    clock: &(dyn Fn() -> f64 + Sync),
    search: impl FnOnce(&mut AnyEngine) -> SearchResult<AnyMove>,
) -> (SearchResult<AnyMove>, u64) {
    let Helping { threads, depth, pick_deepest } = helping;
    if threads <= 1 {
        return (search(engine), 0);
    }
    let helpers = engine.helpers(pool, game, threads);
    let helpers_stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let running: Vec<_> = helpers
            .iter_mut()
            .enumerate()
            .map(|(index, helper)| {
                let helpers_stop = &helpers_stop;
                scope.spawn(move || helper.help(game, index + 1, depth, clock, helpers_stop))
            })
            .collect();
        let answer = search(engine);
        helpers_stop.store(true, Ordering::Relaxed);
        // A helper that panicked found nothing; the main search's answer stands.
        let found: Vec<SearchResult<AnyMove>> =
            running.into_iter().filter_map(|helper| helper.join().ok()).collect();
        let nodes = found.iter().map(|result| result.info.nodes).sum();
        (if pick_deepest { qi_ai::deepest(answer, found) } else { answer }, nodes)
    })
}

fn shorten(text: &str) -> String {
    qi_rules::options::shorten(text)
}

/// The `info` lines of one report: one, or one per line with `multipv <k>` when several lines
/// were searched.
fn info_lines(info: &SearchInfo<AnyMove>) -> Vec<String> {
    let time = info.time_ms.max(0.0) as u64;
    let nps = (info.nodes * 1000).checked_div(time).unwrap_or(0);
    let head = |score: Score| {
        let score = match score {
            Score::Cp(cp) => format!("cp {cp}"),
            Score::Mate(n) => format!("mate {n}"),
        };
        format!(
            "info depth {} score {score} nodes {} time {time} nps {nps}",
            info.depth, info.nodes
        )
    };
    let with_pv = |mut line: String, pv: &[AnyMove]| {
        if !pv.is_empty() {
            let moves: Vec<String> = pv.iter().map(ToString::to_string).collect();
            line.push_str(" pv ");
            line.push_str(&moves.join(" "));
        }
        line
    };
    if info.lines.len() <= 1 {
        return vec![with_pv(head(info.score), &info.pv)];
    }
    info.lines
        .iter()
        .enumerate()
        .map(|(k, line)| {
            let text = head(line.score).replacen("info ", &format!("info multipv {} ", k + 1), 1);
            with_pv(text, &line.pv)
        })
        .collect()
}

/// Runs the protocol on stdin and stdout until `quit` or the end of input.
pub fn run() {
    let mut uci = Uci::new(stdout_output());
    each_line(std::io::stdin().lock(), |line| uci.handle_bytes(line));
    uci.finish();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn helpers_search_beside_the_main_search_and_stop_when_it_returns() {
        for (variant, depth) in [("chess", 9), ("xiangqi", 7), ("gomoku", 4), ("banqi", 3)] {
            let game = AnyGame::new(variant, "", &StartFrom::Start { seed: 3 }).unwrap();
            let mut engine = AnyEngine::default();
            let clock = native_clock();
            let stop = AtomicBool::new(false);
            let limits = Limits { depth: Some(depth), ..Limits::default() };
            let mut pool = HelperPool::default();
            let helping = Helping { threads: 3, depth: Some(depth), pick_deepest: true };
            let (result, helper_nodes) =
                with_helpers(&mut engine, &mut pool, &game, helping, &clock, |engine| {
                    engine.analyse_lines(&game, limits, 1, &clock, &stop)
                });
            let best = result.best.expect("a move");
            assert!(game.clone().apply(best).is_ok(), "{variant}: {best}");
            // The helpers keep to the search's depth limit, whichever thread answers. (Their
            // nodes may be none: a shallow main search can end before they start, and a helper
            // then finds the whole answer in the shared table.)
            assert_eq!(result.info.depth, depth, "{variant}: {helper_nodes} helper nodes");

            // Given time, the helpers search (their nodes came back: stopped and joined). On a
            // fresh table, and in gomoku past the first stone, which is played without a search.
            let mut game = game.clone();
            if variant == "gomoku" {
                game.play("h8").and_then(|_| game.play("i9")).expect("two stones");
            }
            let (mut engine, mut pool) = (AnyEngine::default(), HelperPool::default());
            let limits = Limits { time_ms: Some(300.0), ..Limits::default() };
            let helping = Helping { threads: 3, depth: None, pick_deepest: true };
            let (result, helper_nodes) =
                with_helpers(&mut engine, &mut pool, &game, helping, &clock, |engine| {
                    engine.analyse_lines(&game, limits, 1, &clock, &stop)
                });
            assert!(result.best.is_some_and(|best| game.clone().apply(best).is_ok()), "{variant}");
            assert!(helper_nodes > 0, "{variant}: {} main nodes", result.info.nodes);
        }
    }

    #[test]
    fn go_reads_its_limits() {
        let go = Go::parse(&["wtime", "60000", "btime", "30000", "winc", "1000"]).unwrap();
        let white = go.limits(Side::First);
        let soft = white.soft_time_ms.unwrap();
        assert!((2_500.0..=3_000.0).contains(&soft), "{soft}");
        let hard = white.time_ms.unwrap();
        assert!((7_500.0..=9_000.0).contains(&hard), "{hard}");
        // A second left: a thirtieth of it, less the overhead, so the flag never falls; a depth
        // under way stops at a tenth.
        let go = Go::parse(&["wtime", "1000", "btime", "1000", "winc", "0", "binc", "0"]).unwrap();
        let white = go.limits(Side::First);
        assert!((1.0..=34.0).contains(&white.soft_time_ms.unwrap()), "{white:?}");
        assert!((1.0..=100.0).contains(&white.time_ms.unwrap()), "{white:?}");
        // A fixed time per move is used whole: no soft limit before it.
        let go = Go::parse(&["movetime", "100"]).unwrap();
        let limits = go.limits(Side::Second);
        let budget = limits.time_ms.unwrap();
        assert!((50.0..100.0).contains(&budget), "{budget}");
        assert_eq!(limits.soft_time_ms, None);
        assert!(Go::parse(&["depth", "x"]).is_err());
        assert!(Go::parse(&["movetime"]).is_err());
        assert_eq!(Go::parse(&["depth", "3"]).unwrap().depth, Some(3));
    }

    /// A GUI may send the next `go` as soon as it reads `bestmove`, while the search's thread
    /// is still on its way out: that `go` starts a new search (it once got "already searching"
    /// and no answer, one time in eight on a busy machine).
    #[test]
    fn a_go_right_after_a_bestmove_starts_a_new_search() {
        let mut uci = Uci::new(stdout_output());
        let answered = Arc::new(AtomicBool::new(true));
        let finishing =
            std::thread::spawn(|| std::thread::sleep(std::time::Duration::from_millis(200)));
        let stop = Arc::new(AtomicBool::new(false));
        uci.running = Some(Running {
            stop,
            infinite: false,
            answered: Arc::clone(&answered),
            thread: finishing,
        });
        assert!(uci.handle("go depth 1"));
        let running = uci.running.as_ref().expect("a search runs");
        assert!(!Arc::ptr_eq(&running.answered, &answered), "a new search, not the old one");
        uci.stop();
    }
}
