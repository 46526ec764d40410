//! `qi match` and `qi levels`: games between engines, refereed by the rules core.
//!
//! `qi match` plays two engines at a fixed time per move, from varied openings, each opening twice
//! with colours swapped, and reports the score and an Elo estimate with its 95% error bar: UCI
//! engines for chess and xiangqi (`qi uci`, `stockfish`, `fairy-stockfish`), Gomocup (Piskvork)
//! engines for gomoku (`qi piskvork`, Rapfi's `pbrain-rapfi`). Gomoku under `opening=swap` or
//! `opening=swap2` (Gomocup's rules 5 and 6) is opened by the engines themselves: each step is
//! asked with `SWAP2BOARD`, the first engine opening every other game. `--jobs N` plays N games at once,
//! each with its own pair of engine processes; `--resign` and `--draw` call UCI games early from
//! the engines' scores ([`Adjudication`]). `qi levels` plays the built-in levels of one game
//! against each other in-process, each level against the one below.

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use qi_ai::{AnyEngine, Level};
use qi_rules::any::{AnyGame, StartFrom};
use qi_rules::gomoku::{Gomoku, GomokuMove, OpeningRule, Phase, WinRule};
use qi_rules::zobrist::splitmix64;
use qi_rules::{Cell, Game, Side};

use crate::engine_process::EngineProcess;
use crate::sprt::{Pentanomial, Sprt, Verdict as SprtVerdict};

/// Games longer than this many plies are adjudicated drawn.
const MAX_PLIES: usize = 400;

/// A running UCI engine.
struct UciEngine {
    process: EngineProcess,
}

impl UciEngine {
    fn start(
        command: &str,
        options: &[(String, String)],
        variant: &str,
    ) -> Result<UciEngine, String> {
        let mut engine = UciEngine { process: EngineProcess::start(command)? };
        engine.send("uci")?;
        engine.wait_for("uciok", Duration::from_secs(10))?;
        if variant == "xiangqi" {
            engine.send("setoption name UCI_Variant value xiangqi")?;
        }
        if variant == "chess960" {
            engine.send("setoption name UCI_Chess960 value true")?;
        }
        for (name, value) in options {
            engine.send(&format!("setoption name {name} value {value}"))?;
        }
        engine.send("isready")?;
        engine.wait_for("readyok", Duration::from_secs(10))?;
        Ok(engine)
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        self.process.send(line)
    }

    fn wait_for(&mut self, prefix: &str, limit: Duration) -> Result<String, String> {
        self.process.wait_for(prefix, limit)
    }

    /// The engine's move after `moves` from `position`, and the score of its last `info` line
    /// (centipawns from its own side; mates as ±[`MATE_CP`]), if it gave one.
    /// With `nodes`, the search is limited to that many nodes instead of `movetime`.
    fn best_move(
        &mut self,
        position: &str,
        moves: &[String],
        movetime: u64,
        nodes: Option<u64>,
    ) -> Result<(String, Option<i32>), String> {
        let moves =
            if moves.is_empty() { String::new() } else { format!(" moves {}", moves.join(" ")) };
        self.send(&format!("position {position}{moves}"))?;
        let wait = match nodes {
            Some(nodes) => {
                self.send(&format!("go nodes {nodes}"))?;
                120_000
            }
            None => {
                self.send(&format!("go movetime {movetime}"))?;
                movetime * 20 + 2000
            }
        };
        let deadline = std::time::Instant::now() + Duration::from_millis(wait);
        let mut score = None;
        loop {
            let line = self
                .process
                .next_line(deadline)
                .map_err(|_| format!("{}: no \"bestmove\" in time", self.process.name))?;
            if line.starts_with("info") {
                score = info_score(&line).or(score);
            } else if line.starts_with("bestmove") {
                let mv = line.split_whitespace().nth(1).map(str::to_owned);
                return mv
                    .map(|mv| (mv, score))
                    .ok_or_else(|| format!("{}: {line}", self.process.name));
            }
        }
    }
}

impl Drop for UciEngine {
    fn drop(&mut self) {
        self.process.close("quit", Duration::from_secs(2));
    }
}

/// A mate in an engine's `info` line, counted as this many centipawns (signed).
const MATE_CP: i32 = 100_000;

/// The score of a UCI `info` line, from the side to move: `score cp N` as N (within
/// ±[`MATE_CP`]), `score mate N` as ±[`MATE_CP`]; `None` if the line has no score or is not
/// the best line (`multipv 2` and on).
fn info_score(line: &str) -> Option<i32> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if let Some(at) = words.iter().position(|w| *w == "multipv")
        && words.get(at + 1) != Some(&"1")
    {
        return None;
    }
    let at = words.iter().position(|w| *w == "score")?;
    let value: i32 = words.get(at + 2)?.parse().ok()?;
    match *words.get(at + 1)? {
        "cp" => Some(value.clamp(-MATE_CP, MATE_CP)),
        "mate" if value > 0 => Some(MATE_CP),
        "mate" => Some(-MATE_CP),
        _ => None,
    }
}

/// When a match calls a game before its end, from the scores the engines report (after
/// cutechess-cli's `-resign ... twosided=true` and `-draw`, which fishtest uses): it saves the
/// hours engines spend mating a lone king or shuffling in a dead-drawn ending, without changing
/// who wins. Unlike cutechess-cli's, the draw run is not restarted by a capture or a pawn move,
/// and only plies from `from_move` on count towards it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Adjudication {
    /// `(moves, cp)`: a side loses when, for `moves` of its moves in a row, its score is at most
    /// −`cp` and, for as many of its opponent's moves, the opponent's is at least `cp`.
    pub resign: Option<(u32, i32)>,
    /// `(from_move, moves, cp)`: a draw when, from full move `from_move` on, both engines'
    /// scores stay within ±`cp` for `moves` moves each (twice as many plies).
    pub draw: Option<(u32, u32, i32)>,
}

/// How an adjudicated game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verdict {
    /// This side loses.
    Loses(Side),
    Draw,
}

/// The running counts [`Adjudication`] judges by, for one game.
#[derive(Debug, Default)]
struct Adjudicator {
    rule: Adjudication,
    /// Per side (first, second): its moves in a row scored at or below −cp, at or above cp.
    losing: [u32; 2],
    winning: [u32; 2],
    /// Plies in a row with a score within the draw band.
    level_plies: u32,
}

impl Adjudicator {
    fn new(rule: Adjudication) -> Adjudicator {
        Adjudicator { rule, ..Adjudicator::default() }
    }

    /// After `mover` played its `fullmove`-th move and said `score` (from its side; `None`
    /// when it said none, which breaks every run): the verdict, if the game is called.
    fn after_move(&mut self, mover: Side, fullmove: u32, score: Option<i32>) -> Option<Verdict> {
        let me = usize::from(mover != Side::First);
        if let Some((moves, cp)) = self.rule.resign {
            let bump = |count: u32, holds: bool| if holds { count + 1 } else { 0 };
            self.losing[me] = bump(self.losing[me], score.is_some_and(|s| s <= -cp));
            self.winning[me] = bump(self.winning[me], score.is_some_and(|s| s >= cp));
            let other = 1 - me;
            if self.losing[me] >= moves && self.winning[other] >= moves {
                return Some(Verdict::Loses(mover));
            }
            if self.winning[me] >= moves && self.losing[other] >= moves {
                return Some(Verdict::Loses(mover.other()));
            }
        }
        if let Some((from_move, moves, cp)) = self.rule.draw {
            let level = fullmove >= from_move && score.is_some_and(|s| s.abs() <= cp);
            self.level_plies = if level { self.level_plies + 1 } else { 0 };
            if self.level_plies >= moves * 2 {
                return Some(Verdict::Draw);
            }
        }
        None
    }
}

/// Reads `--resign MOVES/CP`.
fn parse_resign(text: &str) -> Result<(u32, i32), String> {
    let bad = || format!("--resign takes MOVES/CP (as 4/1000), not {text:?}");
    let (moves, cp) = text.split_once('/').ok_or_else(bad)?;
    let moves = moves.parse().ok().filter(|m| (1..=1000).contains(m)).ok_or_else(bad)?;
    let cp = cp.parse().ok().filter(|c| (1..=MATE_CP).contains(c)).ok_or_else(bad)?;
    Ok((moves, cp))
}

/// Reads `--draw FROM_MOVE/MOVES/CP`.
fn parse_draw(text: &str) -> Result<(u32, u32, i32), String> {
    let bad = || format!("--draw takes FROM_MOVE/MOVES/CP (as 40/8/10), not {text:?}");
    let parts: Vec<&str> = text.split('/').collect();
    let [from, moves, cp] = parts[..] else { return Err(bad()) };
    let from = from.parse().ok().filter(|m| (1..=10_000).contains(m)).ok_or_else(bad)?;
    let moves = moves.parse().ok().filter(|m| (1..=1000).contains(m)).ok_or_else(bad)?;
    let cp = cp.parse().ok().filter(|c| (0..MATE_CP).contains(c)).ok_or_else(bad)?;
    Ok((from, moves, cp))
}

/// A running Gomocup (Piskvork protocol) engine.
struct PiskvorkEngine {
    process: EngineProcess,
    size: u8,
}

impl PiskvorkEngine {
    /// Starts the engine on a `size` board under `rule` (Gomocup's `INFO rule` flags), with
    /// `movetime` ms a move and `options` sent as `INFO <name> <value>` (Rapfi's `max_node`,
    /// `max_depth`; `qi piskvork`'s `level`).
    fn start(
        command: &str,
        options: &[(String, String)],
        size: u8,
        rule: u8,
        movetime: u64,
    ) -> Result<PiskvorkEngine, String> {
        let mut engine = PiskvorkEngine { process: EngineProcess::start(command)?, size };
        engine.send(&format!("START {size}"))?;
        engine.wait_for_ok()?;
        engine.send(&format!("INFO timeout_turn {movetime}"))?;
        engine.send("INFO timeout_match 0")?;
        engine.send("INFO time_left 2147483647")?;
        engine.send(&format!("INFO rule {rule}"))?;
        for (name, value) in options {
            engine.send(&format!("INFO {name} {value}"))?;
        }
        Ok(engine)
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        self.process.send(line)
    }

    fn next_line(&mut self, deadline: std::time::Instant) -> Result<String, String> {
        self.process.next_line(deadline)
    }

    fn wait_for_ok(&mut self) -> Result<(), String> {
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        loop {
            let line = self.next_line(deadline)?;
            if line.trim() == "OK" {
                return Ok(());
            }
            if line.starts_with("ERROR") {
                return Err(format!("{}: {line}", self.process.name));
            }
        }
    }

    /// A new game on the same board.
    fn new_game(&mut self) -> Result<(), String> {
        // Some engines (Rapfi) answer a move a moment before they read the next command.
        std::thread::sleep(Duration::from_millis(30));
        self.send("RESTART")?;
        self.wait_for_ok()
    }

    /// Sends `command` and the stones, each `x,y,1` for the side to move's and `x,y,2` for the
    /// other's, then `DONE`.
    fn send_stones(&mut self, command: &str, stones: &[Cell]) -> Result<(), String> {
        std::thread::sleep(Duration::from_millis(30));
        self.send(command)?;
        // The last stone is the other side's.
        let to_move = stones.len() % 2;
        for (index, cell) in stones.iter().enumerate() {
            let own = if index % 2 == to_move { 1 } else { 2 };
            self.send(&format!("{},{},{own}", cell.file, self.size - 1 - cell.rank))?;
        }
        self.send("DONE")
    }

    /// The engine's next answer line that `read` accepts (others, such as `MESSAGE`, `DEBUG`
    /// or a stray `OK`, are passed over), within the time a move may take.
    fn answer<T>(
        &mut self,
        movetime: u64,
        read: impl Fn(&Self, &str) -> Option<T>,
    ) -> Result<T, String> {
        let deadline = std::time::Instant::now() + Duration::from_millis(movetime * 20 + 2000);
        loop {
            let line = self.next_line(deadline)?;
            let line = line.trim();
            if line.starts_with("ERROR") || line.starts_with("UNKNOWN") {
                return Err(format!("{}: {line}", self.process.name));
            }
            if let Some(answer) = read(self, line) {
                return Ok(answer);
            }
        }
    }

    /// A point `x,y` of the engine's answer in our coordinates; `None` for anything else.
    fn point(&self, text: &str) -> Option<Cell> {
        let (x, y) = text.split_once(',')?;
        match (x.trim().parse::<u8>(), y.trim().parse::<u8>()) {
            (Ok(x), Ok(y)) if x < self.size && y < self.size => {
                Some(Cell::new(x, self.size - 1 - y))
            }
            _ => None,
        }
    }

    /// The engine's move in `game` (sent whole, as `BOARD`): the point in our coordinates.
    fn best_move(&mut self, stones: &[Cell], movetime: u64) -> Result<Cell, String> {
        self.send_stones("BOARD", stones)?;
        self.answer(movetime, Self::point)
    }

    /// The engine's step of a swap or swap2 opening in `game` (asked as Gomocup's
    /// `SWAP2BOARD`): its moves as our move texts. On the empty board three stones; after
    /// three, `SWAP` (it takes black), one stone (it takes white and plays it) or, under swap2,
    /// two more stones; after five, `SWAP` or one stone.
    fn opening_step(&mut self, game: &Gomoku, movetime: u64) -> Result<Vec<String>, String> {
        let stones: Vec<Cell> = game.history().iter().filter_map(|mv| mv.point()).collect();
        self.send_stones("SWAP2BOARD", &stones)?;
        // `SWAP`, or points on one line (other lines are passed over).
        let points = |engine: &Self, line: &str| -> Option<Option<Vec<Cell>>> {
            if line.eq_ignore_ascii_case("SWAP") {
                return Some(None);
            }
            let points: Option<Vec<Cell>> =
                line.split_whitespace().map(|p| engine.point(p)).collect();
            points.filter(|p| !p.is_empty()).map(Some)
        };
        let mut moves = Vec::new();
        match self.answer(movetime, points)? {
            None => moves.push(GomokuMove::Take(Side::First)),
            Some(points) => {
                match (stones.len(), points.len()) {
                    (0, 3) | (3, 2) => {}
                    (3 | 5, 1) => moves.push(GomokuMove::Take(Side::Second)),
                    (had, answered) => {
                        let name = &self.process.name;
                        return Err(format!(
                            "{name}: {answered} stones do not answer SWAP2BOARD after {had} stones"
                        ));
                    }
                }
                moves.extend(points.into_iter().map(GomokuMove::Stone));
            }
        }
        Ok(moves.into_iter().map(|mv| game.move_text(mv)).collect())
    }
}

impl Drop for PiskvorkEngine {
    fn drop(&mut self) {
        self.process.close("END", Duration::from_millis(50));
    }
}

/// Either kind of engine, as a match uses it.
enum Player {
    Uci(UciEngine),
    Piskvork(PiskvorkEngine),
}

impl Player {
    fn start(command: &str, options: &[(String, String)], setup: &Setup) -> Result<Player, String> {
        match &setup.board {
            None => Ok(Player::Uci(UciEngine::start(command, options, &setup.variant)?)),
            Some((size, rule)) => Ok(Player::Piskvork(PiskvorkEngine::start(
                command,
                options,
                *size,
                *rule,
                setup.movetime,
            )?)),
        }
    }

    fn name(&self) -> &str {
        match self {
            Player::Uci(engine) => &engine.process.name,
            Player::Piskvork(engine) => &engine.process.name,
        }
    }

    fn new_game(&mut self) -> Result<(), String> {
        match self {
            Player::Uci(engine) => engine.send("ucinewgame"),
            Player::Piskvork(engine) => engine.new_game(),
        }
    }

    /// What the side to act in `game` (reached by `moves` from the start) plays.
    fn answer(
        &mut self,
        game: &AnyGame,
        moves: &[String],
        movetime: u64,
        nodes: Option<u64>,
    ) -> Result<Answer, String> {
        match (self, game) {
            (Player::Uci(engine), _) => {
                let (mv, score) = engine.best_move("startpos", moves, movetime, nodes)?;
                Ok(Answer { moves: vec![mv], score })
            }
            (Player::Piskvork(engine), AnyGame::Gomoku(g)) if g.phase() != Phase::Play => {
                Ok(Answer { moves: engine.opening_step(g, movetime)?, score: None })
            }
            (Player::Piskvork(engine), AnyGame::Gomoku(g)) => {
                let stones: Vec<Cell> = g.history().iter().filter_map(|mv| mv.point()).collect();
                let cell = engine.best_move(&stones, movetime)?;
                Ok(Answer { moves: vec![g.move_text(GomokuMove::Stone(cell))], score: None })
            }
            (Player::Piskvork(engine), _) => {
                Err(format!("{}: a Piskvork engine plays gomoku only", engine.process.name))
            }
        }
    }
}

/// A player's turn: what it plays and what it thinks of the position.
struct Answer {
    /// As text: one move, or in a gomoku opening the step the engine takes (three stones, a
    /// colour and a stone, two stones).
    moves: Vec<String>,
    /// The score the engine gave, from its own side (UCI engines), if it gave one.
    score: Option<i32>,
}

/// What every game of a match shares.
struct Setup {
    variant: String,
    rules: String,
    movetime: u64,
    /// A node limit for each move instead of `movetime` (UCI engines).
    nodes: Option<u64>,
    /// For gomoku: the board's size and Gomocup's rule flags.
    board: Option<(u8, u8)>,
    /// When games are called early from the engines' scores.
    adjudication: Adjudication,
}

/// The result of a match.
#[derive(Debug, Default, Clone, Copy)]
pub struct Tally {
    /// Games the first engine won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games the first engine lost.
    pub losses: u32,
}

impl Tally {
    fn add(&mut self, score_for_first: f64) {
        if score_for_first > 0.75 {
            self.wins += 1;
        } else if score_for_first < 0.25 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }

    /// Games played.
    #[must_use]
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The first engine's score, 0 to 1.
    #[must_use]
    pub fn score(&self) -> f64 {
        (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(self.games().max(1))
    }

    /// The Elo difference for the first engine and its 95% error bar.
    #[must_use]
    pub fn elo(&self) -> (f64, f64) {
        let n = f64::from(self.games().max(1));
        let p = self.score();
        let variance = (f64::from(self.wins) * (1.0 - p).powi(2)
            + f64::from(self.draws) * (0.5 - p).powi(2)
            + f64::from(self.losses) * p.powi(2))
            / n;
        let margin = 1.96 * (variance / n).sqrt();
        let elo = |p: f64| -400.0 * (1.0 / p.clamp(0.001, 0.999) - 1.0).log10();
        (elo(p), (elo((p + margin).min(0.999)) - elo((p - margin).max(0.001))) / 2.0)
    }

    /// One line: `+W =D -L  score S%  Elo E ± M`.
    #[must_use]
    pub fn summary(&self) -> String {
        let (elo, margin) = self.elo();
        format!(
            "+{} ={} -{}  score {:.1}%  Elo {elo:+.0} ± {margin:.0}",
            self.wins,
            self.draws,
            self.losses,
            self.score() * 100.0
        )
    }
}

/// The openings of a book file (`crates/lab/books/`): one a line, moves in coordinates separated
/// by spaces, `#` starting a comment.
fn read_book(path: &str) -> Result<Vec<Vec<String>>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("--book {path}: {e}"))?;
    let book: Vec<Vec<String>> = text
        .lines()
        .map(|line| {
            line.split('#').next().unwrap_or("").split_whitespace().map(str::to_owned).collect()
        })
        .filter(|moves: &Vec<String>| !moves.is_empty())
        .collect();
    if book.is_empty() {
        return Err(format!("--book {path}: no openings"));
    }
    Ok(book)
}

/// A random opening: `plies` random legal moves from the start, avoiding any that end the game.
fn opening(variant: &str, seed: u64, plies: usize) -> Vec<String> {
    let Ok(mut game) = AnyGame::new(variant, "", &StartFrom::Start { seed: 0 }) else {
        return Vec::new();
    };
    let mut moves = Vec::new();
    let mut state = seed;
    for _ in 0..plies {
        let legal = game.legal_moves();
        if legal.is_empty() {
            break;
        }
        state = splitmix64(state);
        let choice = &legal[(state % legal.len() as u64) as usize];
        if game.play(choice).is_err() || game.outcome().is_some() {
            break;
        }
        moves.push(choice.clone());
    }
    moves
}

/// A gomoku opening: three stones (Black, White, Black) put at random within two points of the
/// centre, none making a line of three, so neither side starts with a won position.
fn gomoku_opening(game: &AnyGame, seed: u64) -> Vec<String> {
    let AnyGame::Gomoku(start) = game else { return Vec::new() };
    let centre = start.rules().size() / 2;
    let mut state = seed;
    for _attempt in 0..100 {
        let mut board = start.clone();
        let mut moves = Vec::new();
        while moves.len() < 3 {
            state = splitmix64(state);
            let file = centre - 2 + (state % 5) as u8;
            let rank = centre - 2 + ((state >> 8) % 5) as u8;
            let mv = GomokuMove::Stone(Cell::new(file, rank));
            if board.apply(mv).is_ok() {
                moves.push(board.move_text(mv));
            }
        }
        let stones: Vec<Cell> = board.history().iter().filter_map(|mv| mv.point()).collect();
        let (a, b) = (stones[0], stones[2]);
        let lined_up = a.file.abs_diff(b.file) <= 1 && a.rank.abs_diff(b.rank) <= 1;
        if !lined_up {
            return moves;
        }
    }
    Vec::new()
}

/// Plays one game; returns the first engine's score (1, 0.5, 0) and how it ended.
fn play_game(
    setup: &Setup,
    engines: &mut [Player; 2],
    first_plays: Side,
    opening_moves: &[String],
) -> Result<(f64, String), String> {
    let mut game = AnyGame::new(&setup.variant, &setup.rules, &StartFrom::Start { seed: 0 })
        .map_err(|e| e.to_string())?;
    let mut moves: Vec<String> = Vec::new();
    for mv in opening_moves {
        game.play(mv).map_err(|e| e.to_string())?;
        moves.push(mv.clone());
    }
    for engine in engines.iter_mut() {
        engine.new_game()?;
    }
    let score_for = |winner: Option<Side>| match winner {
        None => 0.5,
        Some(side) if side == first_plays => 1.0,
        Some(_) => 0.0,
    };
    let mut adjudicator = Adjudicator::new(setup.adjudication);
    // Under an opening rule, the engines' opening steps are said with the result.
    let mut opened: Option<String> = None;
    let in_opening =
        |game: &AnyGame| matches!(game, AnyGame::Gomoku(g) if g.phase() != Phase::Play);
    let said = |how: String, opened: &Option<String>| match opened {
        Some(steps) => format!("{how} (opening: {steps})"),
        None => how,
    };
    loop {
        if opened.is_none() && !moves.is_empty() && !in_opening(&game) && opening_moves.is_empty() {
            opened = Some(moves.join(" "));
        }
        if let Some(outcome) = game.outcome() {
            return Ok((score_for(outcome.winner), said(game.outcome_text(), &opened)));
        }
        if moves.len() >= MAX_PLIES {
            return Ok((0.5, said("draw by adjudication (move limit)".to_owned(), &opened)));
        }
        // The seat to act (in a gomoku opening, the seat the opening names).
        let to_move = game.side_to_move();
        let index = usize::from(to_move != first_plays);
        let answer = match engines[index].answer(&game, &moves, setup.movetime, setup.nodes) {
            Ok(answer) => answer,
            Err(e) => return Ok((score_for(Some(to_move.other())), format!("forfeit: {e}"))),
        };
        let fullmove = u32::try_from(moves.len() / 2 + 1).unwrap_or(u32::MAX);
        for mv in answer.moves {
            if let Err(e) = game.play(&mv) {
                let who = engines[index].name();
                return Ok((
                    score_for(Some(to_move.other())),
                    format!("forfeit: {who} played {mv}: {e}"),
                ));
            }
            moves.push(mv);
        }
        if game.outcome().is_none() {
            match adjudicator.after_move(to_move, fullmove, answer.score) {
                Some(Verdict::Loses(side)) => {
                    let loser = engines[usize::from(side != first_plays)].name();
                    let (moves, cp) = setup.adjudication.resign.unwrap_or_default();
                    let how = format!(
                        "adjudicated: {loser} loses (its score at most -{cp} cp, the other's at \
                         least +{cp}, for {moves} moves each)"
                    );
                    return Ok((score_for(Some(side.other())), said(how, &opened)));
                }
                Some(Verdict::Draw) => {
                    let (_, moves, cp) = setup.adjudication.draw.unwrap_or_default();
                    let how = format!(
                        "draw by adjudication (both scores within {cp} cp for {moves} moves each)"
                    );
                    return Ok((0.5, said(how, &opened)));
                }
                None => {}
            }
        }
    }
}

/// Gomocup's `INFO rule` code for a gomoku game's rules (the board's size beside it): `None`
/// for the other games, an error for rules Gomocup has no code for.
pub(crate) fn piskvork_rule(game: &AnyGame) -> Result<Option<(u8, u8)>, String> {
    let AnyGame::Gomoku(g) = game else { return Ok(None) };
    let rules = g.rules();
    let rule = match (rules.opening, rules.rule) {
        (OpeningRule::None, WinRule::Freestyle) => 0,
        (OpeningRule::None, WinRule::Standard) => 1,
        (OpeningRule::None, WinRule::Renju) => 4,
        (OpeningRule::None, WinRule::Caro) => 8,
        (OpeningRule::Swap, WinRule::Freestyle) => 5,
        (OpeningRule::Swap2, WinRule::Freestyle) => 6,
        (opening, rule) => {
            return Err(format!(
                "--rules: Gomocup's engines have no rule code for {rule} under opening={opening} \
                 (swap and swap2 are freestyle's)"
            ));
        }
    };
    Ok(Some((rules.size(), rule)))
}

/// `qi match`: see the module docs.
///
/// # Errors
/// A message for bad arguments or an engine that will not start.
pub fn run_match(args: &[String]) -> Result<String, String> {
    play_match(args, false)
}

/// `qi sprt`: `qi match` between two builds or option sets (the first is the one under test)
/// that stops when a sequential probability ratio test on the game pairs is decided
/// (`--sprt elo0,elo1[,alpha,beta]`, required; see [`crate::sprt`]). `--games` is then the most
/// it will play (default 20,000).
///
/// # Errors
/// A message for bad arguments or an engine that will not start.
pub fn run_sprt(args: &[String]) -> Result<String, String> {
    play_match(args, true)
}

fn play_match(args: &[String], sequential: bool) -> Result<String, String> {
    let mut variant = "chess".to_owned();
    let mut rules = String::new();
    let mut games = if sequential { 20_000u32 } else { 10u32 };
    let mut sprt: Option<Sprt> = None;
    let mut movetime = 100u64;
    let mut nodes = None;
    let mut book: Option<Vec<Vec<String>>> = None;
    let mut jobs = 1u32;
    let mut commands: [Option<String>; 2] = [None, None];
    let mut options: [Vec<(String, String)>; 2] = [Vec::new(), Vec::new()];
    let mut seed = 1u64;
    let mut adjudication = Adjudication::default();
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        let mut value = || iter.next().cloned().ok_or_else(|| format!("{arg} needs a value"));
        match arg.as_str() {
            "--variant" => variant = value()?,
            "--rules" => rules = value()?,
            "--games" => games = value()?.parse().map_err(|_| "--games takes a number")?,
            "--movetime" => {
                movetime = value()?
                    .parse()
                    .ok()
                    .filter(|ms| (1..=600_000).contains(ms))
                    .ok_or("--movetime takes milliseconds, 1 to 600000")?;
            }
            "--nodes" => {
                nodes = Some(
                    value()?
                        .parse::<u64>()
                        .ok()
                        .filter(|n| (1..=1_000_000_000).contains(n))
                        .ok_or("--nodes takes a number of nodes, 1 to 1000000000")?,
                );
            }
            "--book" => book = Some(read_book(&value()?)?),
            "--jobs" => {
                jobs = value()?
                    .parse()
                    .ok()
                    .filter(|n| (1..=64).contains(n))
                    .ok_or("--jobs takes a number of games at once, 1 to 64")?;
            }
            "--seed" => seed = value()?.parse().map_err(|_| "--seed takes a number")?,
            "--sprt" if sequential => sprt = Some(Sprt::parse(&value()?)?),
            "--resign" => adjudication.resign = Some(parse_resign(&value()?)?),
            "--draw" => adjudication.draw = Some(parse_draw(&value()?)?),
            "--first" => commands[0] = Some(value()?),
            "--second" => commands[1] = Some(value()?),
            "--first-option" | "--second-option" => {
                let text = value()?;
                let (name, val) = text.split_once('=').ok_or("an option is NAME=VALUE")?;
                options[usize::from(arg == "--second-option")]
                    .push((name.to_owned(), val.to_owned()));
            }
            other => return Err(format!("unknown match argument {other:?}")),
        }
    }
    if sequential && sprt.is_none() {
        return Err("--sprt elo0,elo1[,alpha,beta] is required (say --sprt 0,5)".to_owned());
    }
    if sequential && !games.is_multiple_of(2) {
        return Err("--games: an SPRT plays whole pairs, so an even number".to_owned());
    }
    if !matches!(variant.as_str(), "chess" | "xiangqi" | "gomoku") {
        return Err("--variant is chess, xiangqi or gomoku".to_owned());
    }
    let start = AnyGame::new(&variant, &rules, &StartFrom::Start { seed: 0 })
        .map_err(|e| format!("--rules: {e}"))?;
    let setup =
        Setup { board: piskvork_rule(&start)?, variant, rules, movetime, nodes, adjudication };
    if setup.board.is_some() && (nodes.is_some() || book.is_some()) {
        return Err("--nodes and --book are for UCI engines: chess and xiangqi".into());
    }
    if let Some(book) = &book {
        for (line, opening) in book.iter().enumerate() {
            let mut game = start.clone();
            for mv in opening {
                game.play(mv).map_err(|e| format!("--book: opening {}: {mv}: {e}", line + 1))?;
            }
        }
    }
    if setup.board.is_some() && adjudication != Adjudication::default() {
        return Err("--resign and --draw read UCI engines' scores: chess and xiangqi only".into());
    }
    // Under an opening rule the engines put the opening stones themselves (`SWAP2BOARD`).
    let engines_open =
        matches!(&start, AnyGame::Gomoku(g) if g.rules().opening != OpeningRule::None);
    let defaults = match setup.variant.as_str() {
        "gomoku" => ["qi piskvork", "pbrain-rapfi"],
        "xiangqi" => ["qi uci", "fairy-stockfish"],
        _ => ["qi uci", "stockfish"],
    };
    let commands = [0, 1].map(|i| commands[i].clone().unwrap_or_else(|| defaults[i].to_owned()));
    // Each job starts its own engines; start one pair first, so a bad command fails at once.
    drop([
        Player::start(&commands[0], &options[0], &setup)?,
        Player::start(&commands[1], &options[1], &setup)?,
    ]);
    let next_game = AtomicU32::new(0);
    let tally = Mutex::new(Tally::default());
    let failure: Mutex<Option<String>> = Mutex::new(None);
    // Under an SPRT: the first game's score of each pair still being played, the finished
    // pairs, and whether the test is decided (then no new game starts).
    let pairs: Mutex<(Vec<(u32, f64)>, Pentanomial)> =
        Mutex::new((Vec::new(), Pentanomial::default()));
    let decided = AtomicBool::new(false);
    // The counts when the test was decided: games already under way then still finish and are
    // counted in the tally, but the verdict is the one reached when a bound was crossed (pairs
    // finishing after it could pull the ratio back inside and hide it).
    let decision: Mutex<Option<Pentanomial>> = Mutex::new(None);
    let play_some = || -> Result<(), String> {
        let mut engines = [
            Player::start(&commands[0], &options[0], &setup)?,
            Player::start(&commands[1], &options[1], &setup)?,
        ];
        loop {
            let game = next_game.fetch_add(1, Ordering::SeqCst);
            if game >= games
                || decided.load(Ordering::SeqCst)
                || failure.lock().unwrap_or_else(PoisonError::into_inner).is_some()
            {
                return Ok(());
            }
            let opening_seed = seed.wrapping_add(u64::from(game / 2));
            let opening_moves = match setup.variant.as_str() {
                _ if book.is_some() => book.as_ref().map_or_else(Vec::new, |book| {
                    book[(opening_seed as usize).wrapping_sub(1) % book.len()].clone()
                }),
                "gomoku" if engines_open => Vec::new(),
                "gomoku" => gomoku_opening(&start, opening_seed),
                "chess" => opening(&setup.variant, opening_seed, 6),
                _ => opening(&setup.variant, opening_seed, 4),
            };
            let first_plays = if game.is_multiple_of(2) { Side::First } else { Side::Second };
            let (score, how) = play_game(&setup, &mut engines, first_plays, &opening_moves)?;
            let mut tally = tally.lock().unwrap_or_else(PoisonError::into_inner);
            tally.add(score);
            let colour = match (first_plays, engines_open) {
                (Side::First, false) => "moves first",
                (Side::Second, false) => "moves second",
                (Side::First, true) => "opens",
                (Side::Second, true) => "answers the opening",
            };
            let opening = if opening_moves.is_empty() {
                String::new()
            } else {
                format!("opening {}; ", opening_moves.join(" "))
            };
            println!(
                "game {:3} [{opening}{} {colour}]: {score} — {how}   running: {}",
                game + 1,
                commands[0],
                tally.summary()
            );
            drop(tally);
            if let Some(test) = &sprt {
                let mut pairs = pairs.lock().unwrap_or_else(PoisonError::into_inner);
                let (waiting, counts) = &mut *pairs;
                let pair = game / 2;
                match waiting.iter().position(|&(other, _)| other == pair) {
                    Some(at) => {
                        let (_, other) = waiting.swap_remove(at);
                        counts.add_pair(other, score);
                        println!("sprt after {} pairs: {}", counts.pairs(), test.summary(counts));
                        if test.verdict(counts) != SprtVerdict::Continue
                            && !decided.swap(true, Ordering::SeqCst)
                        {
                            *decision.lock().unwrap_or_else(PoisonError::into_inner) =
                                Some(*counts);
                        }
                    }
                    None => waiting.push((pair, score)),
                }
            }
        }
    };
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            scope.spawn(|| {
                if let Err(e) = play_some() {
                    failure.lock().unwrap_or_else(PoisonError::into_inner).get_or_insert(e);
                }
            });
        }
    });
    if let Some(e) = failure.into_inner().unwrap_or_else(PoisonError::into_inner) {
        return Err(e);
    }
    let tally = tally.into_inner().unwrap_or_else(PoisonError::into_inner);
    let limit = nodes.map_or_else(|| format!("{movetime} ms/move"), |n| format!("{n} nodes/move"));
    let mut report = format!(
        "{} vs {} ({}, {limit}, {} games): {}\n",
        commands[0],
        commands[1],
        setup.variant,
        tally.games(),
        tally.summary()
    );
    if let Some(test) = &sprt {
        let (_, counts) = pairs.into_inner().unwrap_or_else(PoisonError::into_inner);
        let decided_at = decision.into_inner().unwrap_or_else(PoisonError::into_inner);
        let at = decided_at.unwrap_or(counts);
        let verdict = match test.verdict(&at) {
            SprtVerdict::Accepted => "H1 accepted: the first gains",
            SprtVerdict::Rejected => "H0 accepted: the first does not gain",
            SprtVerdict::Continue => "undecided after the most games allowed",
        };
        report.push_str(&format!("SPRT {verdict}; {}\n", test.summary(&at)));
        if decided_at.is_some_and(|at| at != counts) {
            report.push_str(&format!(
                "(with the pairs under way when it was decided: {})\n",
                test.summary(&counts)
            ));
        }
    }
    Ok(report)
}

/// Plays `levels[0]` (first) against `levels[1]` in-process, with every time and node budget
/// multiplied by `scale`; returns the first's score.
fn play_levels(variant: &str, levels: [Level; 2], scale: f64, first_plays: Side, seed: u64) -> f64 {
    let Ok(mut game) = AnyGame::new(variant, "", &StartFrom::Start { seed }) else { return 0.5 };
    for mv in opening(variant, seed, if variant == "banqi" { 0 } else { 2 }) {
        if game.play(&mv).is_err() {
            break;
        }
    }
    let mut engines = [AnyEngine::default(), AnyEngine::default()];
    let clock = qi_ai::search::native_clock();
    let stop = AtomicBool::new(false);
    let mut plies = 0;
    while game.outcome().is_none() && plies < MAX_PLIES {
        let index = usize::from(game.side_to_move() != first_plays);
        let mut settings = qi_ai::level::settings(game.kind(), levels[index]);
        settings.limits.time_ms = settings.limits.time_ms.map(|ms| ms * scale);
        settings.limits.soft_time_ms = settings.limits.soft_time_ms.map(|ms| ms * scale);
        settings.limits.nodes =
            settings.limits.nodes.map(|nodes| ((nodes as f64 * scale).round() as u64).max(1));
        let noise_seed = seed ^ (plies as u64) ^ ((index as u64) << 32);
        let result =
            engines[index].search_with(&game, settings, &clock, &stop, noise_seed, &mut |_| {});
        let Some(mv) = result.best else { break };
        if game.apply(mv).is_err() {
            return if index == 0 { 0.0 } else { 1.0 };
        }
        plies += 1;
    }
    match game.outcome().and_then(|o| o.winner) {
        Some(side) if side == first_plays => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    }
}

/// `qi levels --game <variant> [--games N] [--scale F] [--levels A-B]`: each level from A to B
/// (default 2-6) against the one below it. `--scale 0.25` gives every level a quarter of its
/// thinking time and of its node budget (depth limits stay), so the levels keep their ratios
/// while many games run quickly.
///
/// # Errors
/// A message for bad arguments.
pub fn run_levels(args: &[String]) -> Result<String, String> {
    let mut variant = "chess".to_owned();
    let mut games = 10u32;
    let mut scale = 1.0f64;
    let mut uppers = 2..=6u8;
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        let mut value = || iter.next().cloned().ok_or_else(|| format!("{arg} needs a value"));
        match arg.as_str() {
            "--game" => variant = value()?,
            "--games" => games = value()?.parse().map_err(|_| "--games takes a number")?,
            "--scale" => {
                scale = value()?
                    .parse::<f64>()
                    .ok()
                    .filter(|f| *f > 0.0 && *f <= 10.0)
                    .ok_or("--scale takes a factor above 0, at most 10")?;
            }
            "--levels" => uppers = parse_level_range(&value()?)?,
            other => return Err(format!("unknown levels argument {other:?}")),
        }
    }
    qi_rules::any::parse_variant(&variant).map_err(|e| e.to_string())?;
    for upper in uppers {
        let levels = [Level::new(upper), Level::new(upper - 1)];
        let mut tally = Tally::default();
        for game in 0..games {
            let first_plays = if game % 2 == 0 { Side::First } else { Side::Second };
            let seed = u64::from(game / 2) + 1;
            tally.add(play_levels(&variant, levels, scale, first_plays, seed));
        }
        println!("{variant}: level {upper} vs level {}: {}", upper - 1, tally.summary());
    }
    Ok(String::new())
}

/// Reads `A-B` (2 <= A <= B <= 6): the upper levels of the pairs to play.
fn parse_level_range(text: &str) -> Result<std::ops::RangeInclusive<u8>, String> {
    let error = || format!("--levels takes A-B with 2 <= A <= B <= 6, not {text:?}");
    let (low, high) = text.split_once('-').ok_or_else(error)?;
    let low: u8 = low.trim().parse().map_err(|_| error())?;
    let high: u8 = high.trim().parse().map_err(|_| error())?;
    if (2..=6).contains(&low) && (low..=6).contains(&high) { Ok(low..=high) } else { Err(error()) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_give_scores_from_the_side_to_move() {
        assert_eq!(info_score("info depth 9 score cp -35 nodes 100 pv e2e4"), Some(-35));
        assert_eq!(info_score("info depth 9 score mate 3 pv e2e4"), Some(MATE_CP));
        assert_eq!(info_score("info depth 9 score mate -2 pv e2e4"), Some(-MATE_CP));
        assert_eq!(info_score("info string hello"), None);
        assert_eq!(info_score("info depth 9 score cp"), None);
        assert_eq!(info_score("info depth 9 score cp abc"), None);
        // Out-of-range scores are kept within a mate's; only the best of several lines counts.
        assert_eq!(info_score("info depth 9 score cp -2147483648"), Some(-MATE_CP));
        assert_eq!(info_score("info multipv 1 depth 9 score cp 20 pv e2e4"), Some(20));
        assert_eq!(info_score("info multipv 3 depth 9 score cp -90 pv a2a3"), None);
    }

    #[test]
    fn resigning_needs_both_engines_to_agree_for_the_whole_run() {
        let rule = Adjudication { resign: Some((3, 1000)), draw: None };
        let mut judge = Adjudicator::new(rule);
        let (white, black) = (Side::First, Side::Second);
        // White sees itself lost, Black agrees: called after the third move of each.
        for fullmove in 1..=2 {
            assert_eq!(judge.after_move(white, fullmove, Some(-1200)), None);
            assert_eq!(judge.after_move(black, fullmove, Some(1500)), None);
        }
        assert_eq!(judge.after_move(white, 3, Some(-MATE_CP)), None);
        assert_eq!(judge.after_move(black, 3, Some(1000)), Some(Verdict::Loses(white)));

        // Black does not agree on one move: the run starts again.
        let mut judge = Adjudicator::new(rule);
        for (fullmove, black_says) in [(1, 1500), (2, 300), (3, 1500), (4, 1500)] {
            assert_eq!(judge.after_move(white, fullmove, Some(-1500)), None);
            assert_eq!(judge.after_move(black, fullmove, Some(black_says)), None);
        }
        assert_eq!(judge.after_move(white, 5, Some(-1500)), None);
        assert_eq!(judge.after_move(black, 5, Some(1500)), Some(Verdict::Loses(white)));

        // The loser's run completes on its own move, after the winner's.
        let mut judge = Adjudicator::new(rule);
        assert_eq!(judge.after_move(white, 1, Some(1200)), None);
        for fullmove in 1..=2 {
            assert_eq!(judge.after_move(black, fullmove, Some(-1200)), None);
            assert_eq!(judge.after_move(white, fullmove + 1, Some(1200)), None);
        }
        assert_eq!(judge.after_move(black, 3, Some(-1200)), Some(Verdict::Loses(black)));

        // An engine that gives no score is never adjudicated against.
        let mut judge = Adjudicator::new(rule);
        for fullmove in 1..=10 {
            assert_eq!(judge.after_move(white, fullmove, Some(-1500)), None);
            assert_eq!(judge.after_move(black, fullmove, None), None);
        }
    }

    #[test]
    fn a_draw_is_called_only_late_and_after_a_level_run() {
        let rule = Adjudication { resign: None, draw: Some((40, 2, 10)) };
        let mut judge = Adjudicator::new(rule);
        // Level scores before move 40 do not count.
        for fullmove in 30..40 {
            assert_eq!(judge.after_move(Side::First, fullmove, Some(0)), None);
            assert_eq!(judge.after_move(Side::Second, fullmove, Some(0)), None);
        }
        assert_eq!(judge.after_move(Side::First, 40, Some(5)), None);
        assert_eq!(judge.after_move(Side::Second, 40, Some(-10)), None);
        // One score outside the band breaks the run.
        assert_eq!(judge.after_move(Side::First, 41, Some(11)), None);
        assert_eq!(judge.after_move(Side::Second, 41, Some(0)), None);
        assert_eq!(judge.after_move(Side::First, 42, Some(0)), None);
        assert_eq!(judge.after_move(Side::Second, 42, Some(0)), None);
        assert_eq!(judge.after_move(Side::First, 43, Some(0)), Some(Verdict::Draw));
    }

    #[test]
    fn adjudication_arguments_are_checked() {
        assert_eq!(parse_resign("4/1000"), Ok((4, 1000)));
        assert_eq!(parse_draw("40/8/10"), Ok((40, 8, 10)));
        for bad in ["", "4", "4/", "0/100", "4/-5", "x/100", "4/100/1"] {
            assert!(parse_resign(bad).unwrap_err().contains("MOVES/CP"), "{bad}");
        }
        for bad in ["", "40/8", "40/8/-1", "0/8/10", "40/0/10", "40/8/10/1", "a/b/c"] {
            assert!(parse_draw(bad).unwrap_err().contains("FROM_MOVE/MOVES/CP"), "{bad}");
        }
    }

    #[test]
    fn elo_of_an_even_score_is_zero_and_of_a_good_score_positive() {
        let even = Tally { wins: 10, draws: 10, losses: 10 };
        assert!(even.elo().0.abs() < 1e-9);
        let good = Tally { wins: 60, draws: 20, losses: 20 };
        let (elo, margin) = good.elo();
        assert!((elo - 147.0).abs() < 2.0, "{elo}");
        assert!(margin > 30.0 && margin < 120.0, "{margin}");
    }

    #[test]
    fn level_ranges_are_checked() {
        assert_eq!(parse_level_range("2-6"), Ok(2..=6));
        assert_eq!(parse_level_range("6-6"), Ok(6..=6));
        for bad in ["1-6", "5-4", "2-7", "x", "3", "-", "2-"] {
            assert!(parse_level_range(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn gomoku_openings_are_three_legal_stones_near_the_centre() {
        let start = AnyGame::new("gomoku", "", &StartFrom::Start { seed: 0 }).unwrap();
        for seed in 0..50 {
            let moves = gomoku_opening(&start, seed);
            assert_eq!(moves, gomoku_opening(&start, seed));
            assert_eq!(moves.len(), 3, "{moves:?}");
            let mut game = start.clone();
            for mv in &moves {
                game.play(mv).unwrap();
            }
            assert!(game.outcome().is_none());
        }
        assert_ne!(gomoku_opening(&start, 1), gomoku_opening(&start, 2));
    }

    #[test]
    fn openings_are_legal_and_repeatable() {
        for variant in ["chess", "xiangqi"] {
            let a = opening(variant, 5, 6);
            assert_eq!(a, opening(variant, 5, 6));
            let mut game = AnyGame::new(variant, "", &StartFrom::Start { seed: 0 }).unwrap();
            for mv in &a {
                game.play(mv).unwrap();
            }
        }
    }
}
