//! An engine as a puzzle's referee (a development tool; nothing of theirs ships): over UCI,
//! Stockfish for chess and Fairy-Stockfish for xiangqi; over Gomocup's protocol, Rapfi for
//! gomoku (its `YXBOARD` and `YXNBEST 2`, the two best moves). At each of the solver's moves it
//! searches the position with two lines to a fixed depth; the puzzle passes when its best move
//! is the solution's (or, where the solution mates or makes five on the spot, another that does)
//! and its own scores make that move the only good one by the judge's rule
//! ([`qi_puzzles::only_move`]). Rapfi's evaluation is a win rate (a logistic curve of scale
//! 200), put on the judge's gomoku curve before the rule is applied.

use std::time::Duration;

use qi_ai::Score;
use qi_play::puzzle::Puzzle;
use qi_puzzles::{Settings, only_move};
use qi_rules::GameKind;
use qi_rules::any::AnyGame;

use crate::engine_process::EngineProcess;

/// How long one search may take before the referee is given up on.
const SEARCH_LIMIT: Duration = Duration::from_secs(120);

/// What the referee said of one puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// Its best move was the solution's at every solver move.
    pub agrees: bool,
    /// By its own scores, each solver move was the only good one.
    pub only_moves: bool,
    /// The first solver move (from 1) where it differed, and its move there.
    pub differs_at: Option<(usize, String)>,
}

/// A running referee engine.
pub struct Referee {
    engine: EngineProcess,
    kind: GameKind,
    depth: u32,
    /// Gomocup's board size and rule code the engine was last given (gomoku only).
    gomocup: Option<(u8, u8)>,
}

/// Where Rapfi's build lies, beside the checkout (`../shared/engines/rapfi/README.md`).
pub const RAPFI: &str = "../shared/engines/rapfi/pbrain-rapfi";

/// One line of the referee's last complete depth: its score and first move.
struct RefLine {
    score: Score,
    first: String,
}

impl Referee {
    /// The default referee command for `kind` (`stockfish`, `fairy-stockfish`), if it has one.
    #[must_use]
    pub fn default_command(kind: GameKind) -> Option<&'static str> {
        match kind {
            GameKind::Chess => Some("stockfish"),
            GameKind::Xiangqi => Some("fairy-stockfish"),
            GameKind::Gomoku => Some(RAPFI),
            GameKind::Banqi => None,
        }
    }

    /// Starts `command` as the referee for `kind`, searching to `depth`.
    ///
    /// # Errors
    /// The engine does not start or does not speak its protocol.
    pub fn start(kind: GameKind, command: &str, depth: u32) -> Result<Referee, String> {
        let mut engine = EngineProcess::start(command)?;
        if kind == GameKind::Gomoku {
            // The board's size and rule come with each puzzle (`judge`).
            return Ok(Referee { engine, kind, depth, gomocup: None });
        }
        engine.send("uci")?;
        engine.wait_for("uciok", Duration::from_secs(20))?;
        if kind == GameKind::Xiangqi {
            engine.send("setoption name UCI_Variant value xiangqi")?;
        }
        engine.send("setoption name MultiPV value 2")?;
        engine.send("setoption name Threads value 1")?;
        engine.send("isready")?;
        engine.wait_for("readyok", Duration::from_secs(20))?;
        Ok(Referee { engine, kind, depth, gomocup: None })
    }

    /// Its two best lines after `moves` from `position`.
    fn lines(&mut self, position: &str, moves: &[String]) -> Result<Vec<RefLine>, String> {
        let mut command = format!("position fen {position}");
        if !moves.is_empty() {
            command.push_str(" moves ");
            command.push_str(&moves.join(" "));
        }
        self.engine.send(&command)?;
        self.engine.send(&format!("go depth {}", self.depth))?;
        let deadline = std::time::Instant::now() + SEARCH_LIMIT;
        let mut lines: Vec<Option<RefLine>> = vec![None, None];
        loop {
            let line = self.engine.next_line(deadline)?;
            if line.starts_with("bestmove") {
                break;
            }
            if let Some((index, read)) = read_info(&line) {
                lines[index] = Some(read);
            }
        }
        Ok(lines.into_iter().flatten().collect())
    }

    /// Gomocup: gives the engine the board's size and rule of `game` when they change.
    fn gomocup_board(&mut self, game: &AnyGame) -> Result<(), String> {
        let board = crate::matches::piskvork_rule(game)?
            .ok_or_else(|| "a gomoku referee judges gomoku puzzles".to_owned())?;
        if self.gomocup != Some(board) {
            let (size, rule) = board;
            self.engine.send(&format!("START {size}"))?;
            self.engine.wait_for("OK", Duration::from_secs(20))?;
            self.engine.send(&format!("INFO rule {rule}"))?;
            self.engine.send(&format!("INFO max_depth {}", self.depth))?;
            self.engine.send(&format!("INFO timeout_turn {}", SEARCH_LIMIT.as_millis()))?;
            self.engine.send("INFO timeout_match 0")?;
            self.engine.send("INFO time_left 2147483647")?;
            self.gomocup = Some(board);
        }
        Ok(())
    }

    /// Gomocup: the engine's two best lines in `game` (its stones sent whole with `YXBOARD`,
    /// then `YXNBEST 2`), best first, each with its first move as our move text.
    fn gomocup_lines(&mut self, game: &AnyGame) -> Result<Vec<RefLine>, String> {
        let AnyGame::Gomoku(gomoku) = game else {
            return Err("a gomoku referee judges gomoku puzzles".into());
        };
        let size = qi_rules::Game::rules(gomoku).size();
        let own = gomoku.colour_of(game.side_to_move());
        // Rapfi answers a moment before it reads the next command.
        std::thread::sleep(Duration::from_millis(30));
        // Rapfi lays the stones as moves in the order given, the first black's: black and
        // white in turn, so the last is the side that has just moved.
        let mut stones: [Vec<(u8, u8)>; 2] = [Vec::new(), Vec::new()];
        for rank in 0..size {
            for file in 0..size {
                if let Some(colour) = gomoku.stone_at(qi_rules::Cell::new(file, rank)) {
                    stones[usize::from(colour != qi_rules::Side::First)].push((file, rank));
                }
            }
        }
        self.engine.send("YXBOARD")?;
        let [black, white] = &stones;
        let turns = black.iter().map(|&cell| (cell, qi_rules::Side::First)).map(Some);
        let replies = white.iter().map(|&cell| (cell, qi_rules::Side::Second)).map(Some);
        let longest = black.len().max(white.len());
        let interleaved = turns
            .chain(std::iter::repeat(None))
            .zip(replies.chain(std::iter::repeat(None)))
            .take(longest)
            .flat_map(|(b, w)| [b, w])
            .flatten();
        for ((file, rank), colour) in interleaved {
            let whose = if colour == own { 1 } else { 2 };
            self.engine.send(&format!("{file},{},{whose}", size - 1 - rank))?;
        }
        self.engine.send("DONE")?;
        std::thread::sleep(Duration::from_millis(30));
        self.engine.send("YXNBEST 2")?;
        let deadline = std::time::Instant::now() + SEARCH_LIMIT * 2;
        let mut values: [Option<Score>; 2] = [None, None];
        loop {
            let line = self.engine.next_line(deadline)?;
            let line = line.trim();
            if line.starts_with("ERROR") || line.starts_with("UNKNOWN") {
                return Err(format!("{}: {line}", self.engine.name));
            }
            if let Some((index, score)) = read_rapfi_message(line) {
                values[index] = Some(score);
                continue;
            }
            // Where its threat search settles the position at once, Rapfi prints no line by
            // line, only its closing summary: the best move's score, no second.
            if let Some(score) = read_rapfi_summary(line) {
                values[0].get_or_insert(score);
                continue;
            }
            let Some((x, y)) = line.split_once(',') else { continue };
            let (Ok(x), Ok(y)) = (x.trim().parse::<u8>(), y.trim().parse::<u8>()) else {
                continue;
            };
            if x >= size || y >= size {
                return Err(format!("{}: a move off the board: {line}", self.engine.name));
            }
            // Gomocup's x is the file from `a`, its y the row from the top.
            let best = format!("{}{}", char::from(b'a' + x), size - y);
            // A five on the spot is played at once, with no message at all.
            if values[0].is_none() && wins_on_the_spot(game, &best) {
                values[0] = Some(Score::Mate(1));
            }
            let mut lines = Vec::new();
            if let Some(score) = values[0] {
                lines.push(RefLine { score, first: best });
                if let Some(score) = values[1] {
                    // The second line's move is not needed: only its score.
                    lines.push(RefLine { score, first: String::new() });
                }
            }
            return Ok(lines);
        }
    }

    /// Judges `puzzle` (see the module documentation).
    ///
    /// # Errors
    /// The engine stopped answering.
    pub fn judge(&mut self, puzzle: &Puzzle) -> Result<Verdict, String> {
        let settings = Settings::of(self.kind);
        let moves = puzzle.move_texts();
        if self.kind == GameKind::Gomoku {
            self.gomocup_board(&puzzle.start())?;
            // Each puzzle from a clean table (Rapfi's own command; it answers nothing).
            self.engine.send("YXHASHCLEAR")?;
        } else {
            // Each puzzle from a clean table, so a verdict does not depend on the ones before.
            self.engine.send("ucinewgame")?;
            self.engine.send("isready")?;
            self.engine.wait_for("readyok", Duration::from_secs(20))?;
        }
        let mut verdict = Verdict { agrees: true, only_moves: true, differs_at: None };
        let mut game = puzzle.start();
        for (index, &mv) in puzzle.moves.iter().enumerate() {
            if index % 2 == 1 {
                let lines = if self.kind == GameKind::Gomoku {
                    self.gomocup_lines(&game)?
                } else {
                    self.lines(&puzzle.position, &moves[..index])?
                };
                let Some(best) = lines.first() else {
                    verdict.agrees = false;
                    verdict.only_moves = false;
                    break;
                };
                let mut after = game.clone();
                let _ = after.apply(mv);
                let solution_mates = after.outcome().is_some_and(|o| o.winner.is_some());
                let same = best.first == moves[index]
                    || (solution_mates && best.score == Score::Mate(1))
                    || (solution_mates
                        && self.kind == GameKind::Gomoku
                        && wins_on_the_spot(&game, &best.first));
                if !same {
                    verdict.agrees = false;
                    verdict.differs_at.get_or_insert((index.div_ceil(2), best.first.clone()));
                }
                let second = lines.get(1).map(|line| line.score);
                if !only_move(self.kind, &settings, best.score, second) {
                    verdict.only_moves = false;
                }
            }
            let _ = game.apply(mv);
        }
        Ok(verdict)
    }

    /// Ends the engine.
    pub fn close(mut self) {
        let last_word = if self.kind == GameKind::Gomoku { "END" } else { "quit" };
        self.engine.close(last_word, Duration::from_secs(2));
    }
}

/// Whether the move `text` wins `game` at once (a five).
fn wins_on_the_spot(game: &AnyGame, text: &str) -> bool {
    let mut after = game.clone();
    after.read_move(text).is_ok_and(|mv| after.apply(mv).is_ok())
        && after.outcome().is_some_and(|o| o.winner.is_some())
}

/// Reads Rapfi's closing `MESSAGE Speed … | Eval value | …` line: the best move's score.
fn read_rapfi_summary(line: &str) -> Option<Score> {
    let rest = line.strip_prefix("MESSAGE Speed")?;
    let eval = rest.split('|').find_map(|part| part.trim().strip_prefix("Eval "))?;
    read_rapfi_value(eval.trim())
}

/// One of Rapfi's values for the side to move: a win or loss in n plies (`+M5`, `-M4`) as a
/// mate in moves, any other value put on the judge's gomoku curve.
fn read_rapfi_value(value: &str) -> Option<Score> {
    Some(if let Some(plies) = value.strip_prefix("+M") {
        Score::Mate((plies.parse::<i32>().ok()? + 1) / 2)
    } else if let Some(plies) = value.strip_prefix("-M") {
        Score::Mate(-(plies.parse::<i32>().ok()? / 2))
    } else {
        let value: f64 = value.parse().ok()?;
        // Rapfi's win rate 1 / (1 + e^(-v/200)) and the judge's 1 / (1 + 10^(-cp/T)) agree
        // at cp = v · T / (200 · ln 10).
        let scale = qi_ai::review::ten_to_one(GameKind::Gomoku) / (200.0 * std::f64::consts::LN_10);
        Score::Cp((value * scale).round() as i32)
    })
}

/// Reads one of Rapfi's `MESSAGE (k) value | depth | moves` lines, printed for each of the
/// `YXNBEST` lines at each depth: which line (0 or 1) and its score for the side to move
/// ([`read_rapfi_value`]).
fn read_rapfi_message(line: &str) -> Option<(usize, Score)> {
    let rest = line.strip_prefix("MESSAGE (")?;
    let (index, rest) = rest.split_once(')')?;
    let index: usize = index.trim().parse().ok()?;
    if !(1..=2).contains(&index) {
        return None;
    }
    let value = rest.split('|').next()?.split_whitespace().next()?;
    let score = read_rapfi_value(value)?;
    Some((index - 1, score))
}

/// Reads a UCI `info` line with a score and a line: which line (0 or 1) and what it says.
/// Bound scores (`lowerbound`, `upperbound`) are passed over: they are not the line's value.
fn read_info(line: &str) -> Option<(usize, RefLine)> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.first() != Some(&"info")
        || words.contains(&"lowerbound")
        || words.contains(&"upperbound")
    {
        return None;
    }
    let after = |key: &str| words.iter().position(|w| *w == key).and_then(|i| words.get(i + 1));
    let multipv: usize = after("multipv").map_or(Some(1), |n| n.parse().ok())?;
    if !(1..=2).contains(&multipv) {
        return None;
    }
    let at = words.iter().position(|w| *w == "score")?;
    let value: i32 = words.get(at + 2)?.parse().ok()?;
    let score = match *words.get(at + 1)? {
        "cp" => Score::Cp(value),
        "mate" => Score::Mate(value),
        _ => return None,
    };
    let first = (*after("pv")?).to_owned();
    Some((multipv - 1, RefLine { score, first }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_are_read_and_bounds_passed_over() {
        let (index, line) =
            read_info("info depth 18 seldepth 24 multipv 2 score cp -35 nodes 1 pv e7e5 g1f3")
                .unwrap();
        assert_eq!((index, line.score, line.first.as_str()), (1, Score::Cp(-35), "e7e5"));
        let (index, line) = read_info("info depth 5 score mate 3 pv h3e3").unwrap();
        assert_eq!((index, line.score), (0, Score::Mate(3)));
        assert!(read_info("info depth 18 multipv 1 score cp 20 lowerbound pv e2e4").is_none());
        assert!(read_info("info string NNUE evaluation enabled").is_none());
        assert!(read_info("info depth 3 multipv 3 score cp 1 pv a2a3").is_none());
    }

    #[test]
    fn rapfi_messages_are_read() {
        assert_eq!(read_rapfi_message("MESSAGE (1) +M5 | 13-3 | G8 G7"), Some((0, Score::Mate(3))));
        assert_eq!(
            read_rapfi_message("MESSAGE (2) -M4 | 13-3 | G8 G7"),
            Some((1, Score::Mate(-2)))
        );
        // A win rate of 62% (100 on Rapfi's scale) is 62% on the judge's curve too.
        let Some((1, score)) = read_rapfi_message("MESSAGE (2) 100 | 14-37 | I3 F6 G7") else {
            panic!("not read");
        };
        let chance = qi_ai::review::chance(GameKind::Gomoku, score);
        assert!((chance - 62.2).abs() < 0.2, "{chance}");
        assert!(read_rapfi_message("MESSAGE Depth 14-3 | Eval +M5 | Time 217ms | G8 G7").is_none());
        assert!(read_rapfi_message("MESSAGE (3) 10 | 14-3 | G8").is_none());
        let summary = "MESSAGE Speed 30000 | Depth 16-2 | Eval +M3 | Node 30 | Time 0ms";
        assert_eq!(read_rapfi_summary(summary), Some(Score::Mate(2)));
    }
}
