//! `qi banqi-engine`: the banqi engine behind a line protocol shaped like UCI.
//!
//! One command a line on standard input; replies on standard output. A search runs in the
//! background, so `stop`, `isready` and `quit` are answered while it thinks. A bad line is
//! answered with `info string error ...` and otherwise ignored; nothing ends the session but
//! `quit` or the end of the input.
//!
//! | command | reply |
//! |---|---|
//! | `banqi` | `id name Qi`, `id author ...`, one `option name <key> type combo\|spin ...` per rule option, then `banqiok` |
//! | `isready` | `readyok` |
//! | `setoption name <rule key> value <v>` | nothing; a rule option (`ranks`, `chain`, `rush`, `capture_hidden`, `draw`) as in `--rules`; the current position is kept |
//! | `banqinewgame` | nothing; the engine forgets what it learnt |
//! | `position <startpos \| startpos:<seed> \| position string> [moves <m> ...]` | nothing |
//! | `go [movetime <ms>] [depth <n>] [nodes <n>] [infinite]` | `info depth <d> score cp <x> \| mate <n> nodes <n> time <ms> pv <moves>` per completed depth, then `bestmove <move>` (`bestmove (none)` when the game is over) |
//! | `stop` | the search ends at once with its `bestmove` |
//! | `quit` | the session ends |
//!
//! `go` with no limit thinks until `stop`. Any command but `isready` stops a running search
//! first (its `bestmove` is still printed), so a client is never left waiting. The position string is the one in the rules crate
//! (six fields, `?` for a face-down piece whose identity the sender does not know, with the pool
//! of such pieces in the fifth field), so a client that hides the deal from the engine sends
//! `?` squares. Whatever it sends, the engine never looks at a face-down identity.
//!
//! # Moves
//! Moves are in coordinates: a move `c3-c4`, a capture `c3xc4` (or `c3-c4`), ending a chain
//! capture `stop`, and a flip `c3`. A flip's result is part of the game, so in `position ...
//! moves` a flip (and, with `capture_hidden`, a cannon capture of a face-down piece) carries the
//! piece it revealed after `=`, as a piece letter (red upper case, black lower case):
//! `c3=K` turned up the red general, `c3=p` a black soldier, `a1xa3=n` took a face-down black
//! horse. Without `=`, a flip is accepted only where the position string knows the piece
//! (`*K`). `bestmove` never carries a result (the engine cannot know it): the client plays the
//! flip and sends the result in the next `position`.
//!
//! ```text
//! > banqi
//! < id name Qi
//! < ...
//! < banqiok
//! > position ???????/???????/????????/???????? 1 - 0 KAABBRRNNCCPPPPPkaabbrrnnccppppp moves b2=K b3=p
//! > go movetime 500
//! < info depth 1 score cp 12 nodes 210 time 1 pv a4
//! < ...
//! < bestmove b1
//! ```

use std::io::BufRead;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;

use qi_ai::Engine;
use qi_ai::SearchInfo;
use qi_ai::banqi::BanqiEngine;
use qi_ai::search::{Budget, Limits, Score, native_clock};
use qi_rules::banqi::{Banqi, BanqiMove, BanqiRules, Piece, deal};
use qi_rules::{Game, RuleSet};

use crate::{Output, capped, each_line, line_text, say, stdout_output};

/// One protocol session.
pub struct Session {
    rules: BanqiRules,
    game: Banqi,
    /// The engine, while no search has it.
    engine: Option<BanqiEngine>,
    search: Option<JoinHandle<BanqiEngine>>,
    stop: Arc<AtomicBool>,
    out: Output,
    /// The most nodes any search may spend (see [`Session::cap_nodes`]).
    node_cap: Option<u64>,
}

/// Runs a session on standard input and output until `quit` or the end of the input.
///
/// # Errors
/// None: the `Result` is the shape of the binary's commands.
pub fn run() -> Result<String, String> {
    serve(std::io::stdin().lock(), stdout_output());
    Ok(String::new())
}

/// Runs a session over `input`, replying on `out`.
pub fn serve(input: impl BufRead, out: Output) {
    let mut session = Session::new(out);
    each_line(input, |line| session.handle_bytes(line));
    session.finish();
}

impl Session {
    /// A session replying on `out`, with the default rules and the deal numbered 0.
    #[must_use]
    pub fn new(out: Output) -> Session {
        let rules = BanqiRules::default();
        Session {
            rules,
            game: deal(&rules, 0),
            engine: Some(BanqiEngine::new()),
            search: None,
            stop: Arc::new(AtomicBool::new(false)),
            out,
            node_cap: None,
        }
    }

    /// Caps every search at `nodes`, whatever `go` asks: for tests and fuzzing, which cannot
    /// wait for `go infinite`.
    pub fn cap_nodes(&mut self, nodes: u64) {
        self.node_cap = Some(nodes);
    }

    /// The position the next `go` searches.
    #[must_use]
    pub fn game(&self) -> &Banqi {
        &self.game
    }

    /// The end of the input: a search under way ends and gives its `bestmove`.
    pub fn finish(&mut self) {
        self.stop_search();
    }

    /// Handles one line as read from the input (its `\n`, and a `\r` before it, included);
    /// `false` ends the session. A line that is not UTF-8 gets an error and changes nothing.
    pub fn handle_bytes(&mut self, line: &[u8]) -> bool {
        match line_text(line) {
            Ok(text) => self.handle(text),
            Err(_) => {
                say(&self.out, "info string error input is not valid UTF-8");
                true
            }
        }
    }

    /// Handles one line; `false` ends the session.
    pub fn handle(&mut self, line: &str) -> bool {
        let mut words = line.split_whitespace();
        let Some(command) = words.next() else { return true };
        let rest: Vec<&str> = words.collect();
        let result = match command {
            "banqi" => {
                self.greet();
                Ok(())
            }
            "isready" => {
                say(&self.out, "readyok");
                Ok(())
            }
            "setoption" => {
                self.stop_search();
                self.set_option(&rest)
            }
            "banqinewgame" => {
                self.stop_search();
                if let Some(engine) = &mut self.engine {
                    engine.new_game();
                }
                Ok(())
            }
            "position" => {
                self.stop_search();
                self.set_position(&rest)
            }
            "go" => {
                self.stop_search();
                self.go(&rest)
            }
            "stop" => {
                self.stop_search();
                Ok(())
            }
            "quit" => return false,
            _ => Err(format!("unknown command {}", qi_rules::options::shorten(command))),
        };
        if let Err(message) = result {
            say(&self.out, &format!("info string error {}", message.replace('\n', " ")));
        }
        true
    }

    fn greet(&self) {
        say(&self.out, "id name Qi");
        say(&self.out, "id author the Qi authors");
        for doc in BanqiRules::DOCS {
            let line = match doc.values {
                [default, range] if range.contains('-') => {
                    let (min, max) = range.split_once('-').unwrap_or((range, range));
                    format!(
                        "option name {} type spin default {default} min {min} max {max}",
                        doc.key
                    )
                }
                values => {
                    let vars: String = values.iter().map(|v| format!(" var {v}")).collect();
                    format!("option name {} type combo default {}{vars}", doc.key, values[0])
                }
            };
            say(&self.out, &line);
        }
        say(&self.out, "banqiok");
    }

    /// Ends the running search, if any, and takes the engine back.
    fn stop_search(&mut self) {
        if let Some(handle) = self.search.take() {
            self.stop.store(true, Ordering::Relaxed);
            match handle.join() {
                Ok(engine) => self.engine = Some(engine),
                Err(_) => self.engine = Some(BanqiEngine::new()),
            }
        }
    }

    fn set_option(&mut self, words: &[&str]) -> Result<(), String> {
        let (Some(&"name"), Some(value_at)) =
            (words.first(), words.iter().position(|&w| w == "value"))
        else {
            return Err("expected setoption name <key> value <value>".into());
        };
        let key = words[1..value_at].join(" ");
        let value = words[value_at + 1..].join(" ");
        let mut rules = self.rules;
        rules.set(&key, &value).map_err(|e| e.to_string())?;
        let game =
            Banqi::from_position(&rules, &self.game.position()).map_err(|e| e.to_string())?;
        self.rules = rules;
        self.game = game;
        Ok(())
    }

    fn set_position(&mut self, words: &[&str]) -> Result<(), String> {
        let moves_at = words.iter().position(|&w| w == "moves").unwrap_or(words.len());
        let position = words[..moves_at].join(" ");
        let mut game = match position.as_str() {
            "" => return Err("expected position <startpos | position string> [moves ...]".into()),
            "startpos" => deal(&self.rules, 0),
            text if text.starts_with("startpos:") => {
                let seed = text["startpos:".len()..]
                    .parse::<u64>()
                    .map_err(|_| format!("bad deal number in {text}"))?;
                deal(&self.rules, seed)
            }
            text => Banqi::from_position(&self.rules, text).map_err(|e| e.to_string())?,
        };
        for (number, text) in words.iter().skip(moves_at + 1).enumerate() {
            play(&mut game, text).map_err(|e| format!("move {} {text}: {e}", number + 1))?;
        }
        self.game = game;
        Ok(())
    }

    fn go(&mut self, words: &[&str]) -> Result<(), String> {
        let mut limits = Limits::default();
        let mut iter = words.iter();
        while let Some(&word) = iter.next() {
            if word == "infinite" {
                continue;
            }
            let value = iter.next().ok_or_else(|| format!("go {word} needs a number"))?;
            let number =
                value.parse::<u64>().map_err(|_| format!("go {word}: {value} is not a number"))?;
            match word {
                "movetime" => limits.time_ms = Some(number as f64),
                "depth" => limits.depth = Some(u32::try_from(number).unwrap_or(u32::MAX)),
                "nodes" => limits.nodes = Some(number),
                _ => return Err(format!("unknown go parameter {word}")),
            }
        }
        limits.nodes = capped(limits.nodes, self.node_cap);
        let mut engine = self.engine.take().unwrap_or_default();
        let game = self.game.clone();
        let out = Arc::clone(&self.out);
        self.stop = Arc::new(AtomicBool::new(false));
        let stop = Arc::clone(&self.stop);
        self.search = Some(std::thread::spawn(move || {
            let clock = native_clock();
            let mut budget = Budget::new(limits, &clock, &stop);
            let result = engine.search(&game, &mut budget, &mut |info| say(&out, &info_line(info)));
            say(
                &out,
                &format!(
                    "bestmove {}",
                    result.best.map_or_else(|| "(none)".to_owned(), |mv| mv.to_string())
                ),
            );
            engine
        }));
        Ok(())
    }
}

/// Plays one protocol move (`c3`, `c3=K`, `c3-c4`, `a1xa3=n`, `stop`) on `game`.
fn play(game: &mut Banqi, text: &str) -> Result<(), String> {
    let (move_text, revealed) = match text.split_once('=') {
        Some((mv, piece)) => {
            let mut letters = piece.chars();
            let piece = match (letters.next().and_then(Piece::from_letter), letters.next()) {
                (Some(piece), None) => piece,
                _ => {
                    return Err(format!(
                        "{piece} is not a piece letter (K A B R N C P, k a b r n c p)"
                    ));
                }
            };
            (mv, Some(piece))
        }
        None => (text, None),
    };
    let mv: BanqiMove = game.parse_move(move_text).map_err(|e| e.to_string())?;
    match revealed {
        Some(piece) => game.apply_revealing(mv, piece),
        None => game.apply(mv),
    }
    .map_err(|e| e.to_string())
}

fn info_line(info: &SearchInfo<BanqiMove>) -> String {
    let score = match info.score {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(moves) => format!("mate {moves}"),
    };
    format!(
        "info depth {} score {score} nodes {} time {} pv {}",
        info.depth,
        info.nodes,
        info.time_ms.round() as u64,
        info.pv_text()
    )
}
