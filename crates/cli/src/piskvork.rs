//! `qi piskvork`: gomoku over the Gomocup (Piskvork) protocol, one command a line on stdin,
//! one reply a line on stdout.
//!
//! Commands: `START n`, `RESTART`, `BEGIN`, `TURN x,y`, `BOARD` ... `DONE`, `SWAP2BOARD` ...
//! `DONE`, `TAKEBACK x,y`, `INFO key value`, `ABOUT`, `END`. Replies: a move `x,y`, `OK`, `ERROR what was wrong` for a
//! command that cannot be carried out (a bad size, a bad or illegal point, a missing `START`),
//! `UNKNOWN command` for a command the protocol does not have, and `MESSAGE ...` lines with the
//! search's depth, score and principal variation before each move. Nothing makes it crash.
//!
//! # Coordinates
//!
//! Gomocup counts from the top-left corner, 0-based: `x` is the column, `y` the row going
//! down. Qi counts from the bottom left (`a1`). So on an `n`x`n` board Gomocup `x,y` is qi's
//! file letter number `x` (`a` = 0) and rank `n - y`: on 15x15, `0,0` is `a15`, `7,7` is `h8`
//! and `14,14` is `o1`.
//!
//! # Rules and time
//!
//! `INFO rule` takes Gomocup's codes: 5 = swap and 6 = swap2 (freestyle, the opening run by the
//! manager through `SWAP2BOARD`), else bit flags: 4 = renju, else 8 = caro, else 1 = exactly
//! five (our `standard`), else freestyle (bit 2, continuous game, is ignored). Board sizes 15,
//! 19 and 20 are played.
//!
//! `SWAP2BOARD`, then the stones so far as `x,y` lines (black first, in turn) and `DONE`: on the
//! empty board the reply is three opening stones `x,y x,y x,y`; after three, `SWAP` (we take
//! black), one stone (we take white and play it) or two stones (we put two more and leave the
//! choice); after five, `SWAP` or one stone. The engine decides from its own search, and the
//! game goes on from those stones with `TURN` and `BOARD`. Each move thinks for `timeout_turn` less a safety margin,
//! and never more than a fifteenth of `time_left` when the match has a time limit.
//!
//! `INFO level N` (1 to 6, our own key; managers send nothing like it) plays at one of the app's
//! levels within those times: its own time, node budget, depth and noise, so that a match can put a level
//! against a Gomocup engine. Level 6 is full strength.
//!
//! `INFO max_node N` (Rapfi's key) caps every search at `N` nodes (0: no cap), whatever the
//! turn's time: the lab's SPRTs play at a node count, so that a busy machine changes nothing.

use std::io::{BufRead, Write};
use std::sync::atomic::AtomicBool;

use qi_ai::gomoku::GomokuEngine;
use qi_ai::search::{Budget, Limits, Score, native_clock};
use qi_ai::{Engine, Level, LevelSettings};
use qi_rules::gomoku::{Gomoku, GomokuMove, GomokuRules, OpeningRule, Phase, WinRule};
use qi_rules::{Cell, Game, Side};

/// Milliseconds kept back from each turn for reading, writing and the manager.
const SAFETY_MARGIN_MS: f64 = 60.0;

/// One protocol session: the game, the settings and the engine.
pub struct Session {
    game: Option<Gomoku>,
    rule: WinRule,
    /// The opening rule `INFO rule` named (5 swap, 6 swap2): the manager runs it with
    /// `SWAP2BOARD`; the game itself is then played as usual.
    opening: OpeningRule,
    /// Stones read so far after `SWAP2BOARD`, until `DONE`.
    swap_board: Option<Vec<Cell>>,
    timeout_turn_ms: u64,
    timeout_match_ms: u64,
    time_left_ms: Option<u64>,
    /// The app's level to play at (`INFO level`); `None` is full strength.
    level: Option<Level>,
    /// Stones read so far after `BOARD`, until `DONE`.
    board: Option<Vec<(Cell, u8)>>,
    /// The first bad line of the `BOARD` or `SWAP2BOARD` being read (`None` outside a block):
    /// the lines up to `DONE` are still read as stones, not as commands, and `DONE` answers
    /// this error, the game as it was.
    stones_refused: Option<String>,
    engine: GomokuEngine,
    /// Games started in this session (`RESTART`s): mixed into the search's seed, so the
    /// openings it proposes vary from game to game of a match, the same in every rerun.
    games: u64,
    ended: bool,
    /// The most nodes any search may spend (see [`Session::cap_nodes`]).
    node_cap: Option<u64>,
}

impl Default for Session {
    fn default() -> Self {
        Session {
            game: None,
            rule: WinRule::Freestyle,
            opening: OpeningRule::None,
            swap_board: None,
            timeout_turn_ms: 5_000,
            timeout_match_ms: 0,
            time_left_ms: None,
            level: None,
            board: None,
            stones_refused: None,
            engine: GomokuEngine::new(),
            games: 0,
            ended: false,
            node_cap: None,
        }
    }
}

impl Session {
    /// Caps every search at `nodes`, whatever the turn's time: for tests and fuzzing, which
    /// cannot wait five seconds a turn.
    pub fn cap_nodes(&mut self, nodes: u64) {
        self.node_cap = Some(nodes);
    }

    /// The game as the session knows it: `None` before `START`.
    #[must_use]
    pub fn current_game(&self) -> Option<&Gomoku> {
        self.game.as_ref()
    }

    /// Whether the session is reading stones (after `BOARD` or `SWAP2BOARD`, until `DONE`).
    #[must_use]
    pub fn reading_stones(&self) -> bool {
        self.board.is_some() || self.swap_board.is_some()
    }

    /// Handles one line as read from the input, its `\n` and any `\r` before it included:
    /// bytes that are not UTF-8 are a bad command, not a crash.
    pub fn handle_bytes(&mut self, line: &[u8]) -> Vec<String> {
        self.handle(&String::from_utf8_lossy(line))
    }

    /// Whether `END` was read.
    #[must_use]
    pub fn ended(&self) -> bool {
        self.ended
    }

    /// Handles one input line; returns the reply lines (none for `INFO`, board lines, `END`).
    pub fn handle(&mut self, line: &str) -> Vec<String> {
        let line = line.trim();
        if line.is_empty() {
            return Vec::new();
        }
        // `END` may come at any time, a board half read included (no stone reads as it).
        if self.reading_stones() && line.eq_ignore_ascii_case("END") {
            self.board = None;
            self.swap_board = None;
            self.stones_refused = None;
            self.ended = true;
            return Vec::new();
        }
        // A block with a bad line: read on to its `DONE`, which answers the error.
        if self.stones_refused.is_some() {
            if !line.eq_ignore_ascii_case("DONE") {
                return Vec::new();
            }
            self.board = None;
            self.swap_board = None;
            return self.stones_refused.take().into_iter().collect();
        }
        if self.board.is_some() {
            return self.board_line(line);
        }
        if self.swap_board.is_some() {
            return self.swap_board_line(line);
        }
        let (command, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        let result = match command.to_ascii_uppercase().as_str() {
            "START" => self.start(rest),
            "RESTART" => self.restart(),
            "BEGIN" => self.begin(),
            "TURN" => self.turn(rest),
            "BOARD" => self.open_board(),
            "SWAP2BOARD" => match self.game() {
                Ok(_) => {
                    self.swap_board = Some(Vec::new());
                    Ok(Vec::new())
                }
                Err(e) => Err(e),
            },
            "TAKEBACK" => self.takeback(rest),
            "INFO" => self.info(rest).map(|()| Vec::new()),
            "ABOUT" => Ok(vec![
                r#"name="qi", version="0.1.0", author="the Qi authors", country="-""#.to_owned(),
            ]),
            "END" => {
                self.ended = true;
                Ok(Vec::new())
            }
            _ => return vec![format!("UNKNOWN command {}", shorten(command))],
        };
        result.unwrap_or_else(|error| vec![format!("ERROR {error}")])
    }

    fn rules(&self, size: u8) -> Result<GomokuRules, String> {
        GomokuRules::new(size, self.rule)
            .map_err(|_| format!("unsupported board size {size}: qi plays 15x15, 19x19 and 20x20"))
    }

    fn start(&mut self, rest: &str) -> Result<Vec<String>, String> {
        let size: u8 = rest
            .parse()
            .map_err(|_| format!("START needs a board size, not {:?}", shorten(rest)))?;
        let rules = self.rules(size)?;
        self.game = Some(Gomoku::start(&rules, 0));
        self.engine.new_game();
        Ok(vec!["OK".to_owned()])
    }

    fn restart(&mut self) -> Result<Vec<String>, String> {
        let size = self.game()?.rules().size();
        self.game = Some(Gomoku::start(&self.rules(size)?, 0));
        self.engine.new_game();
        self.games += 1;
        Ok(vec!["OK".to_owned()])
    }

    fn game(&mut self) -> Result<&mut Gomoku, String> {
        self.game.as_mut().ok_or_else(|| "no game: send START first".to_owned())
    }

    fn begin(&mut self) -> Result<Vec<String>, String> {
        let game = self.game()?;
        if game.position() != empty_position(game) {
            return Err("BEGIN on a board that already has stones".to_owned());
        }
        self.think()
    }

    fn turn(&mut self, rest: &str) -> Result<Vec<String>, String> {
        let game = self.game()?;
        let cell = read_point(game, rest)?;
        game.apply(GomokuMove::Stone(cell))
            .map_err(|e| format!("TURN {}: {}", shorten(rest), e.reason))?;
        self.think()
    }

    fn takeback(&mut self, rest: &str) -> Result<Vec<String>, String> {
        let game = self.game()?;
        let cell = read_point(game, rest)?;
        if game.history().last() != Some(&GomokuMove::Stone(cell)) {
            return Err(format!("TAKEBACK {}: not the last stone played", shorten(rest)));
        }
        game.undo();
        Ok(vec!["OK".to_owned()])
    }

    fn open_board(&mut self) -> Result<Vec<String>, String> {
        self.game()?;
        self.board = Some(Vec::new());
        Ok(Vec::new())
    }

    /// A line between `BOARD` and `DONE`.
    fn board_line(&mut self, line: &str) -> Vec<String> {
        if line.eq_ignore_ascii_case("DONE") {
            let stones = self.board.take().unwrap_or_default();
            return self.set_board(&stones).unwrap_or_else(|e| vec![format!("ERROR {e}")]);
        }
        let parsed = (|| {
            let game = self.game.as_ref().ok_or("no game")?;
            let (point, field) = line.rsplit_once(',').ok_or("expected x,y,field")?;
            let cell = read_point(game, point)?;
            let field: u8 = field.trim().parse().map_err(|_| "the field must be 1 or 2")?;
            if !(1..=2).contains(&field) {
                return Err("the field must be 1 (own stone) or 2 (opponent's stone)".to_owned());
            }
            Ok::<_, String>((cell, field))
        })();
        match parsed {
            Ok(stone) => {
                if let Some(board) = &mut self.board {
                    board.push(stone);
                }
                Vec::new()
            }
            Err(e) => {
                // The board is refused whole at its `DONE` (a manager waits for one answer
                // then); the lines up to it are still stones, not commands.
                self.stones_refused = Some(format!("ERROR BOARD line {}: {e}", shorten(line)));
                Vec::new()
            }
        }
    }

    /// A line between `SWAP2BOARD` and `DONE`: a stone `x,y`, black first and then in turn.
    fn swap_board_line(&mut self, line: &str) -> Vec<String> {
        if line.eq_ignore_ascii_case("DONE") {
            let stones = self.swap_board.take().unwrap_or_default();
            return self.swap2(&stones).unwrap_or_else(|e| vec![format!("ERROR SWAP2BOARD: {e}")]);
        }
        // Managers (and Rapfi) may write each stone's owner as `BOARD` does, `x,y,1`: the
        // stones alternate from black anyway, so it is left aside.
        let fields: Vec<&str> = line.split(',').collect();
        let point =
            if fields.len() == 3 { &line[..line.rfind(',').unwrap_or(line.len())] } else { line };
        let read = self
            .game
            .as_ref()
            .ok_or_else(|| "no game".to_owned())
            .and_then(|g| read_point(g, point));
        match read {
            Ok(cell) => {
                if let Some(stones) = &mut self.swap_board {
                    stones.push(cell);
                }
                Vec::new()
            }
            Err(e) => {
                // As for `BOARD`: refused whole at `DONE`.
                self.stones_refused = Some(format!("ERROR SWAP2BOARD line {}: {e}", shorten(line)));
                Vec::new()
            }
        }
    }

    /// Answers `SWAP2BOARD` as Gomocup specifies: on the empty board three stones `x,y x,y x,y`;
    /// after three, `SWAP` (we take black), one stone (we take white and play it) or two stones
    /// (we put two more and leave the choice); after five, `SWAP` or one stone. The choices are
    /// the engine's own (see `qi_ai::gomoku`). The game then goes on with these stones.
    fn swap2(&mut self, stones: &[Cell]) -> Result<Vec<String>, String> {
        let size = self.game()?.rules().size();
        let mut rules = self.rules(size)?;
        // Gomocup asks `SWAP2BOARD` under swap2; under swap (rule 5) the same board answers
        // after three stones with a colour only.
        rules.opening =
            if self.opening == OpeningRule::Swap { OpeningRule::Swap } else { OpeningRule::Swap2 };
        let mut game = Gomoku::start(&rules, 0);
        for &cell in stones {
            game.apply(GomokuMove::Stone(cell)).map_err(|e| format!("{cell}: {}", e.reason))?;
        }
        let asked = if rules.opening == OpeningRule::Swap { &[0, 3][..] } else { &[0, 3, 5][..] };
        if !asked.contains(&stones.len()) {
            return Err(format!("{} stones: {} asks after {asked:?}", stones.len(), rules.opening));
        }
        let mut answer = Vec::new();
        let mut swapped = false;
        // The engine acts until the other player is to act (or the opening is over and our
        // first stone of the colour we took is played).
        let me = game.side_to_move();
        // One answer, one turn's time: shared among the searches still to come (three stones
        // on the empty board, a choice and maybe a stone after three or five).
        let turn = self.movetime();
        let clock = native_clock();
        while game.outcome().is_none() && game.side_to_move() == me && answer.len() < 3 {
            let searches_left = match stones.len() {
                0 => 3 - answer.len(),
                3 => 2 - answer.len().min(1),
                _ => 1,
            };
            let share = ((turn - clock()) / searches_left as f64).max(10.0);
            let result = self.search_result_within(&game, share);
            let mv = result.best.ok_or("no legal move")?;
            game.apply(mv).map_err(|e| e.to_string())?;
            match mv {
                GomokuMove::Stone(cell) => answer.push(write_point(&game, cell)),
                GomokuMove::Take(colour) if colour != game.colour_to_move() => {
                    swapped = true;
                    break;
                }
                // We took the colour to move: we play it at once, the move the choice's own
                // search found (no second search: one answer, one turn's time).
                GomokuMove::Take(_) => {
                    if let Some(&GomokuMove::Stone(cell)) = result.info.pv.get(1)
                        && game.apply(GomokuMove::Stone(cell)).is_ok()
                    {
                        answer.push(write_point(&game, cell));
                        break;
                    }
                }
                // Gomocup's openings are swap and swap2 only (the game here is under one).
                GomokuMove::Declare(_) | GomokuMove::Offer(_) => {
                    return Err(format!("{mv}: not a step of {}", rules.opening));
                }
            }
            if game.phase() == Phase::Play && !answer.is_empty() {
                break;
            }
        }
        let mut plain = rules;
        plain.opening = OpeningRule::None;
        let stones_now: String =
            game.history().iter().filter_map(|m| m.point()).map(|c| c.to_string()).collect();
        self.game = Some(Gomoku::from_move_string(&plain, &stones_now).map_err(|e| e.to_string())?);
        Ok(vec![if swapped { "SWAP".to_owned() } else { answer.join(" ") }])
    }

    /// The engine's search of `game`, within this session's time and level.
    fn search_result(&mut self, game: &Gomoku) -> qi_ai::SearchResult<GomokuMove> {
        let movetime = self.movetime();
        self.search_result_within(game, movetime)
    }

    /// A search of `game` in at most `movetime` milliseconds (within the level's own limits).
    fn search_result_within(
        &mut self,
        game: &Gomoku,
        movetime: f64,
    ) -> qi_ai::SearchResult<GomokuMove> {
        let clock = native_clock();
        let stop = AtomicBool::new(false);
        let limits = Limits { time_ms: Some(movetime), nodes: self.node_cap, ..Limits::default() };
        let settings = match self.level {
            Some(level) => qi_ai::level::settings(qi_rules::GameKind::Gomoku, level).within(limits),
            None => LevelSettings::full_strength(limits),
        };
        let mut budget = Budget::new(settings.limits, &clock, &stop);
        budget.noise = settings.noise;
        budget.seed = game.hash() ^ qi_rules::zobrist::splitmix64(self.games);
        self.engine.search(game, &mut budget, &mut |_| {})
    }

    /// Sets up the stones read after `BOARD` (we are to move) and thinks.
    fn set_board(&mut self, stones: &[(Cell, u8)]) -> Result<Vec<String>, String> {
        let size = self.game()?.rules().size();
        let own = stones.iter().filter(|s| s.1 == 1).count();
        let theirs = stones.len() - own;
        let ours = match theirs.checked_sub(own) {
            Some(0) => Side::First,
            Some(1) => Side::Second,
            _ => {
                return Err(format!(
                    "{own} own and {theirs} opponent stones: impossible with us to move"
                ));
            }
        };
        let mut grid = vec![None; usize::from(size) * usize::from(size)];
        for &(cell, field) in stones {
            let slot =
                &mut grid[usize::from(cell.rank) * usize::from(size) + usize::from(cell.file)];
            if slot.is_some() {
                return Err(format!("two stones on {cell}"));
            }
            *slot = Some(if field == 1 { ours } else { ours.other() });
        }
        let text = position_text(size, &grid, ours);
        let game = Gomoku::from_position(&self.rules(size)?, &text).map_err(|e| e.to_string())?;
        self.game = Some(game);
        self.think()
    }

    fn info(&mut self, rest: &str) -> Result<(), String> {
        let (key, value) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
        let value = value.trim();
        let number = || {
            value
                .parse::<u64>()
                .map_err(|_| format!("INFO {key}: {:?} is not a number", shorten(value)))
        };
        match key.to_ascii_lowercase().as_str() {
            "timeout_turn" => self.timeout_turn_ms = number()?,
            "timeout_match" => self.timeout_match_ms = number()?,
            "time_left" => self.time_left_ms = Some(number()?),
            "max_node" => self.node_cap = Some(number()?).filter(|&nodes| nodes > 0),
            "level" => match number()? {
                n @ 1..=6 => self.level = (n < 6).then(|| Level::new(n as u8)),
                n => return Err(format!("INFO level: {n} is not a level (1 to 6)")),
            },
            "rule" => {
                // Gomocup's codes: 5 swap and 6 swap2 (freestyle); else bit flags, 4 renju,
                // 8 caro, 1 exactly five.
                let flags = number()?;
                let (rule, opening) = match flags {
                    5 => (WinRule::Freestyle, OpeningRule::Swap),
                    6 => (WinRule::Freestyle, OpeningRule::Swap2),
                    f if f & 4 != 0 => (WinRule::Renju, OpeningRule::None),
                    f if f & 8 != 0 => (WinRule::Caro, OpeningRule::None),
                    f if f & 1 != 0 => (WinRule::Standard, OpeningRule::None),
                    _ => (WinRule::Freestyle, OpeningRule::None),
                };
                // The game under way is rebuilt under the new rule first: a position the rule
                // refuses is refused whole, and the session keeps its old rule.
                let rebuilt = match &self.game {
                    Some(game) => {
                        let size = game.rules().size();
                        let rules = GomokuRules::new(size, rule)
                            .map_err(|_| format!("unsupported board size {size}"))?;
                        let rebuilt =
                            Gomoku::from_position(&rules, &game.position()).map_err(|e| {
                                format!("INFO rule: the position under the new rule: {e}")
                            })?;
                        Some(rebuilt)
                    }
                    None => None,
                };
                (self.rule, self.opening) = (rule, opening);
                if rebuilt.is_some() {
                    self.game = rebuilt;
                }
            }
            // max_memory, game_type, evaluate, folder and keys yet to come: nothing to do.
            _ => {}
        }
        Ok(())
    }

    /// The thinking time for one move, in milliseconds.
    fn movetime(&self) -> f64 {
        let mut ms = if self.timeout_turn_ms == 0 { 100.0 } else { self.timeout_turn_ms as f64 };
        if self.timeout_match_ms > 0
            && let Some(left) = self.time_left_ms
        {
            ms = ms.min(left as f64 / 15.0);
        }
        (ms - SAFETY_MARGIN_MS).max(10.0)
    }

    /// Searches, plays the move found and writes it.
    fn think(&mut self) -> Result<Vec<String>, String> {
        let game = self.game.clone().ok_or("no game: send START first")?;
        if game.outcome().is_some() {
            return Err("the game is over".to_owned());
        }
        let result = self.search_result(&game);
        let mv = result.best.ok_or("no legal move")?;
        let game = self.game.as_mut().ok_or("no game: send START first")?;
        game.apply(mv).map_err(|e| e.to_string())?;
        let score = match result.info.score {
            Score::Cp(cp) => format!("{cp}"),
            Score::Mate(n) => format!("win in {n}").replace("win in -", "loss in "),
        };
        let message = format!(
            "MESSAGE depth {} score {score} nodes {} time {:.0} ms pv {}",
            result.info.depth,
            result.info.nodes,
            result.info.time_ms,
            result.info.pv_text()
        );
        // A plain game has no colour choice (`SWAP2BOARD` answers those); `SWAP` should one come.
        let answer = match mv {
            GomokuMove::Stone(cell) => write_point(game, cell),
            GomokuMove::Take(_) => "SWAP".to_owned(),
            // The game here has no opening rule, so no Soosõrv-8 step can come.
            GomokuMove::Declare(_) | GomokuMove::Offer(_) => {
                return Err(format!("{mv}: no opening rule here"));
            }
        };
        Ok(vec![message, answer])
    }
}

/// The empty board's position string with Black to move, to tell an empty board.
fn empty_position(game: &Gomoku) -> String {
    Gomoku::start(game.rules(), 0).position()
}

/// Reads Gomocup's `x,y` as a point of `game`'s board.
fn read_point(game: &Gomoku, text: &str) -> Result<Cell, String> {
    let size = game.rules().size();
    let (x, y) =
        text.split_once(',').ok_or_else(|| format!("expected x,y, not {:?}", shorten(text)))?;
    let coordinate =
        |t: &str| {
            t.trim().parse::<u8>().ok().filter(|&v| v < size).ok_or_else(|| {
                format!("{:?} is not a coordinate from 0 to {}", shorten(t), size - 1)
            })
        };
    let (x, y) = (coordinate(x)?, coordinate(y)?);
    Ok(Cell::new(x, size - 1 - y))
}

/// Writes a point of `game`'s board as Gomocup's `x,y`.
fn write_point(game: &Gomoku, cell: Cell) -> String {
    let size = game.rules().size();
    format!("{},{}", cell.file, size - 1 - cell.rank)
}

/// The position string for `grid` (indexed rank by rank from the bottom) with `to_move` to move.
fn position_text(size: u8, grid: &[Option<Side>], to_move: Side) -> String {
    let size = usize::from(size);
    let mut rows = Vec::with_capacity(size);
    for rank in (0..size).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for file in 0..size {
            match grid[rank * size + file] {
                None => empty += 1,
                Some(side) => {
                    if empty > 0 {
                        row.push_str(&empty.to_string());
                        empty = 0;
                    }
                    row.push(if side == Side::First { 'x' } else { 'o' });
                }
            }
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
        rows.push(row);
    }
    format!("{} {}", rows.join("/"), if to_move == Side::First { 'b' } else { 'w' })
}

/// Input quoted back in a reply, cut short and on one line.
fn shorten(text: &str) -> String {
    let mut short: String = text.chars().take(40).filter(|c| !c.is_control()).collect();
    if text.chars().count() > 40 {
        short.push_str("...");
    }
    short
}

/// Runs the protocol on stdin and stdout until `END` or the end of input.
///
/// # Errors
/// Arguments given (it takes none), or stdin/stdout failing.
pub fn run(args: &[String]) -> Result<String, String> {
    if let Some(arg) = args.first() {
        return Err(format!("takes no arguments, not {}", shorten(arg)));
    }
    let mut session = Session::default();
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout();
    let mut bytes = Vec::new();
    let mut input = stdin.lock();
    loop {
        bytes.clear();
        match input.read_until(b'\n', &mut bytes) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => return Err(format!("reading stdin: {e}")),
        }
        for reply in session.handle_bytes(&bytes) {
            if writeln!(stdout, "{reply}").and_then(|()| stdout.flush()).is_err() {
                return Ok(String::new());
            }
        }
        if session.ended() {
            break;
        }
    }
    Ok(String::new())
}
