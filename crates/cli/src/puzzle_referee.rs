//! A UCI engine as a puzzle's referee: Stockfish for chess, Fairy-Stockfish for xiangqi (a
//! development tool; nothing of theirs ships). At each of the solver's moves it searches the
//! position with two lines to a fixed depth; the puzzle passes when its best move is the
//! solution's (or, where the solution mates on the spot, another mate on the spot) and its own
//! scores make that move the only good one by the judge's rule ([`qi_puzzles::only_move`]).

use std::time::Duration;

use qi_ai::Score;
use qi_play::puzzle::Puzzle;
use qi_puzzles::{Settings, only_move};
use qi_rules::GameKind;

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
}

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
            GameKind::Banqi | GameKind::Gomoku => None,
        }
    }

    /// Starts `command` as the referee for `kind`, searching to `depth`.
    ///
    /// # Errors
    /// The engine does not start or does not speak UCI.
    pub fn start(kind: GameKind, command: &str, depth: u32) -> Result<Referee, String> {
        let mut engine = EngineProcess::start(command)?;
        engine.send("uci")?;
        engine.wait_for("uciok", Duration::from_secs(20))?;
        if kind == GameKind::Xiangqi {
            engine.send("setoption name UCI_Variant value xiangqi")?;
        }
        engine.send("setoption name MultiPV value 2")?;
        engine.send("setoption name Threads value 1")?;
        engine.send("isready")?;
        engine.wait_for("readyok", Duration::from_secs(20))?;
        Ok(Referee { engine, kind, depth })
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

    /// Judges `puzzle` (see the module documentation).
    ///
    /// # Errors
    /// The engine stopped answering.
    pub fn judge(&mut self, puzzle: &Puzzle) -> Result<Verdict, String> {
        let settings = Settings::of(self.kind);
        let moves = puzzle.move_texts();
        // Each puzzle from a clean table, so a verdict does not depend on the ones before.
        self.engine.send("ucinewgame")?;
        self.engine.send("isready")?;
        self.engine.wait_for("readyok", Duration::from_secs(20))?;
        let mut verdict = Verdict { agrees: true, only_moves: true, differs_at: None };
        let mut game = puzzle.start();
        for (index, &mv) in puzzle.moves.iter().enumerate() {
            if index % 2 == 1 {
                let lines = self.lines(&puzzle.position, &moves[..index])?;
                let Some(best) = lines.first() else {
                    verdict.agrees = false;
                    verdict.only_moves = false;
                    break;
                };
                let mut after = game.clone();
                let _ = after.apply(mv);
                let solution_mates = after.outcome().is_some_and(|o| o.winner.is_some());
                let same =
                    best.first == moves[index] || (solution_mates && best.score == Score::Mate(1));
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
        self.engine.close("quit", Duration::from_secs(2));
    }
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
}
