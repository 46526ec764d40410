//! `qi match-banqi`: the banqi engine at full strength (or at a level, `--engine level:N`)
//! against the greedy player ([`qi_ai::banqi::GreedyPlayer`]), another level
//! (`--opponent level:N`) or another program speaking the `qi banqi-engine` protocol
//! (`--opponent "program:/path/to/qi banqi-engine"`, an older build for instance: it is told the
//! deal's number and the moves with what each flip revealed, and its own search must hide the
//! face-down pieces, as ours does). Games come in pairs: each deal is played twice, the engine
//! moving first once and second once, so a deal that favours one side favours both players
//! alike; `--jobs N` plays N pairs at once. Prints one line per game with `--verbose`, then the
//! totals for the engine (wins, draws, losses, its score with draws as half a point, the five
//! pair counts and the Elo they show) and the engine's speed. `--sprt elo0,elo1[,alpha,beta]`
//! stops when a sequential probability ratio test on the pairs decides, as `qi sprt` does for
//! the other games.

use std::fmt::Write as _;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::Duration;

use qi_ai::banqi::{BanqiEngine, GreedyPlayer};
use qi_ai::search::{Budget, Limits, native_clock};
use qi_ai::{Engine, Level, LevelSettings, level};
use qi_rules::banqi::{Banqi, BanqiMove, BanqiRules, deal};
use qi_rules::{Game, GameKind, RuleSet, Side};

use crate::engine_process::EngineProcess;
use crate::sprt::{Pentanomial, Sprt, Verdict};

/// Who plays: the greedy player, or the engine at some settings.
#[derive(Clone, Debug)]
enum Who {
    Greedy,
    Engine(Option<Level>),
    /// A command speaking the `qi banqi-engine` protocol.
    Program(String),
}

fn parse_who(text: &str) -> Result<Who, String> {
    if let Some(command) = text.strip_prefix("program:") {
        return Ok(Who::Program(command.to_owned()));
    }
    match text {
        "greedy" => Ok(Who::Greedy),
        "full" => Ok(Who::Engine(None)),
        _ => match text.strip_prefix("level:").and_then(|n| n.parse::<u8>().ok()) {
            Some(n @ 1..=6) => Ok(Who::Engine(Some(Level::new(n)))),
            _ => Err(format!(
                "{text}: expected greedy, full, level:1 to level:6 or program:<command>"
            )),
        },
    }
}

/// A banqi engine in another process, over the `qi banqi-engine` protocol.
struct Program {
    process: EngineProcess,
}

impl Program {
    fn start(command: &str, rules: &BanqiRules) -> Result<Program, String> {
        let mut engine = Program { process: EngineProcess::start(command)? };
        engine.send("banqi")?;
        engine.wait_for("banqiok", Duration::from_secs(10))?;
        for (key, value) in rules.pairs() {
            engine.send(&format!("setoption name {key} value {value}"))?;
        }
        engine.send("banqinewgame")?;
        Ok(engine)
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        self.process.send(line)
    }

    fn wait_for(&mut self, prefix: &str, limit: Duration) -> Result<String, String> {
        self.process.wait_for(prefix, limit)
    }

    /// The program's move after `moves` (protocol text, flips with what they revealed) from
    /// deal `seed`.
    fn choose(
        &mut self,
        game: &Banqi,
        seed: u64,
        moves: &[String],
        limits: Limits,
    ) -> Result<BanqiMove, String> {
        let listed =
            if moves.is_empty() { String::new() } else { format!(" moves {}", moves.join(" ")) };
        self.send(&format!("position startpos:{seed}{listed}"))?;
        let go = match (limits.time_ms, limits.nodes, limits.depth) {
            (_, Some(nodes), _) => format!("go nodes {nodes}"),
            (_, _, Some(depth)) => format!("go depth {depth}"),
            (Some(ms), _, _) => format!("go movetime {}", ms.round() as u64),
            _ => "go movetime 100".to_owned(),
        };
        self.send(&go)?;
        let limit = Duration::from_millis(limits.time_ms.unwrap_or(100.0) as u64 * 20 + 5_000);
        let line = self.wait_for("bestmove", limit)?;
        let text = line.split_whitespace().nth(1).unwrap_or_default();
        game.parse_move(text).map_err(|e| format!("{}: bestmove {text}: {e}", self.process.name))
    }
}

impl Drop for Program {
    fn drop(&mut self) {
        self.process.close("quit", Duration::from_secs(2));
    }
}

/// A move as the protocol writes it: a flip (or a cannon taking a face-down piece) with what it
/// revealed, read from `after`, the game once the move is played.
fn protocol_text(before: &Banqi, mv: BanqiMove, after: &Banqi) -> String {
    let text = before.move_text(mv);
    let revealed = match mv {
        BanqiMove::Flip(cell) => Some(cell),
        BanqiMove::Step { to, .. } if before.square(to).is_face_down() => Some(to),
        _ => None,
    };
    match revealed.map(|cell| after.square(cell)) {
        Some(qi_rules::banqi::Square::FaceUp(piece)) => format!("{text}={}", piece.letter()),
        _ => text,
    }
}

/// A player during one game.
enum Player {
    Greedy(GreedyPlayer),
    Engine(Box<BanqiEngine>, LevelSettings),
    Program(Program, Limits),
}

impl Player {
    fn new(who: &Who, limits: Limits, seed: u64, rules: &BanqiRules) -> Result<Player, String> {
        Ok(match who {
            Who::Greedy => Player::Greedy(GreedyPlayer::new(seed)),
            Who::Engine(level) => Player::Engine(
                Box::new(BanqiEngine::new()),
                level.map_or(LevelSettings::full_strength(limits), |level| {
                    level::settings(GameKind::Banqi, level)
                }),
            ),
            Who::Program(command) => Player::Program(Program::start(command, rules)?, limits),
        })
    }

    /// The move to play, with the nodes and milliseconds the engine spent on it. `deal` and
    /// `moves` (protocol text) are what a program is told.
    fn choose(
        &mut self,
        game: &Banqi,
        seed: u64,
        deal: u64,
        moves: &[String],
    ) -> Result<(BanqiMove, u64, f64), String> {
        match self {
            Player::Program(program, limits) => {
                Ok((program.choose(game, deal, moves, *limits)?, 0, 0.0))
            }
            Player::Greedy(greedy) => {
                Ok((greedy.choose(game).ok_or("the greedy player found no move")?, 0, 0.0))
            }
            Player::Engine(engine, settings) => {
                let clock = native_clock();
                let stop = AtomicBool::new(false);
                let mut budget = Budget::new(settings.limits, &clock, &stop);
                budget.noise = settings.noise;
                budget.seed = seed;
                let result = engine.search(game, &mut budget, &mut |_| {});
                let mv = result.best.ok_or("the engine found no move")?;
                Ok((mv, budget.nodes(), budget.elapsed_ms()))
            }
        }
    }
}

/// The settings of a match.
struct Settings {
    games: u32,
    limits: Limits,
    seed: u64,
    rules: BanqiRules,
    verbose: bool,
    engine: Who,
    opponent: Who,
    jobs: u32,
    sprt: Option<Sprt>,
}

fn parse(args: &[String]) -> Result<Settings, String> {
    let mut settings = Settings {
        games: 200,
        limits: Limits { time_ms: Some(100.0), ..Limits::default() },
        seed: 1,
        rules: BanqiRules::default(),
        verbose: false,
        engine: Who::Engine(None),
        opponent: Who::Greedy,
        jobs: 1,
        sprt: None,
    };
    let mut games_given = false;
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        if arg == "--verbose" {
            settings.verbose = true;
            continue;
        }
        let value = iter.next().ok_or_else(|| format!("{arg} needs a value"))?;
        let number = || value.parse::<u64>().map_err(|_| format!("{arg}: expected a number"));
        match arg.as_str() {
            "--games" => {
                settings.games = u32::try_from(number()?).map_err(|e| e.to_string())?;
                games_given = true;
            }
            "--movetime" => settings.limits.time_ms = Some(number()? as f64),
            "--nodes" => {
                settings.limits.nodes = Some(number()?);
                settings.limits.time_ms = None;
            }
            "--depth" => {
                settings.limits.depth = Some(u32::try_from(number()?).map_err(|e| e.to_string())?);
                settings.limits.time_ms = None;
            }
            "--seed" => settings.seed = number()?,
            "--engine" => settings.engine = parse_who(value)?,
            "--opponent" => settings.opponent = parse_who(value)?,
            "--rules" => settings.rules = BanqiRules::parse(value).map_err(|e| e.to_string())?,
            "--jobs" => match number()? {
                jobs @ 1..=64 => settings.jobs = jobs as u32,
                _ => return Err("--jobs takes a number of pairs at once, 1 to 64".to_owned()),
            },
            "--sprt" => settings.sprt = Some(Sprt::parse(value)?),
            _ => return Err(format!("{arg}: unknown option")),
        }
    }
    // A test runs until it decides: --games is then only its cap, as in `qi sprt`.
    if settings.sprt.is_some() && !games_given {
        settings.games = 20_000;
    }
    if !settings.games.is_multiple_of(2) || settings.games == 0 {
        return Err("--games: each deal is played twice, so an even number above 0".to_owned());
    }
    Ok(settings)
}

/// How one game went for the engine.
struct GameRecord {
    winner: Option<Side>,
    plies: u32,
    /// The final position.
    position: String,
    nodes: u64,
    time_ms: f64,
}

/// Plays deal `seed`, the engine on `engine_side`.
fn play_one(settings: &Settings, seed: u64, engine_side: Side) -> Result<GameRecord, String> {
    let mut game: Banqi = deal(&settings.rules, seed);
    let mut engine = Player::new(&settings.engine, settings.limits, seed, &settings.rules)?;
    let mut opponent =
        Player::new(&settings.opponent, settings.limits, seed ^ 0x5EED, &settings.rules)?;
    let mut moves: Vec<String> = Vec::new();
    let mut record =
        GameRecord { winner: None, plies: 0, position: String::new(), nodes: 0, time_ms: 0.0 };
    while game.outcome().is_none() && record.plies < 5_000 {
        let move_seed = seed.wrapping_mul(1_000_003).wrapping_add(u64::from(record.plies));
        let mv = if game.side_to_move() == engine_side {
            let (mv, nodes, time_ms) = engine.choose(&game, move_seed, seed, &moves)?;
            record.nodes += nodes;
            record.time_ms += time_ms;
            mv
        } else {
            opponent.choose(&game, move_seed, seed, &moves)?.0
        };
        let before = game.clone();
        game.apply(mv).map_err(|e| e.to_string())?;
        moves.push(protocol_text(&before, mv, &game));
        record.plies += 1;
    }
    record.winner = game.outcome().and_then(|outcome| outcome.winner);
    record.position = game.position();
    Ok(record)
}

fn describe(who: &Who) -> String {
    match who {
        Who::Greedy => "greedy".to_owned(),
        Who::Engine(None) => "engine".to_owned(),
        Who::Engine(Some(level)) => format!("level {}", level.number()),
        Who::Program(command) => command.clone(),
    }
}

/// The totals so far, kept in the order pairs finish.
#[derive(Default)]
struct Totals {
    wins: u32,
    draws: u32,
    losses: u32,
    nodes: u64,
    time_ms: f64,
    pairs: Pentanomial,
    /// The first error, which stops the match.
    error: Option<String>,
    /// The test's verdict once it is decided, with the pairs that decided it (pairs already
    /// under way on other jobs are still played and counted after).
    decided: Option<(Verdict, Pentanomial)>,
}

/// The engine's score in one game: 1, ½ or 0.
fn points(record: &GameRecord, engine_side: Side) -> f64 {
    match record.winner {
        Some(side) if side == engine_side => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    }
}

/// Plays pair `pair` (deal `seed + pair`, the engine first, then second) and counts it.
fn play_pair(settings: &Settings, pair: u32, totals: &Mutex<Totals>) -> Result<(), String> {
    let seed = settings.seed.wrapping_add(u64::from(pair));
    let mut scores = [0.0; 2];
    for (game, engine_side) in [Side::First, Side::Second].into_iter().enumerate() {
        let record = play_one(settings, seed, engine_side)?;
        scores[game] = points(&record, engine_side);
        let mut totals = totals.lock().map_err(|_| "a match thread failed".to_owned())?;
        match record.winner {
            Some(side) if side == engine_side => totals.wins += 1,
            Some(_) => totals.losses += 1,
            None => totals.draws += 1,
        }
        totals.nodes += record.nodes;
        totals.time_ms += record.time_ms;
        if settings.verbose {
            let first = describe(if engine_side == Side::First {
                &settings.engine
            } else {
                &settings.opponent
            });
            let result = ["loss", "draw", "win"][(scores[game] * 2.0) as usize];
            eprintln!(
                "game {:3}: deal {seed}, {first} first, {result} in {} plies: {}",
                2 * pair + game as u32 + 1,
                record.plies,
                record.position
            );
        }
    }
    let mut totals = totals.lock().map_err(|_| "a match thread failed".to_owned())?;
    totals.pairs.add_pair(scores[0], scores[1]);
    if let Some(sprt) = &settings.sprt {
        eprintln!("sprt after {} pairs: {}", totals.pairs.pairs(), sprt.summary(&totals.pairs));
        let verdict = sprt.verdict(&totals.pairs);
        if verdict != Verdict::Continue && totals.decided.is_none() {
            totals.decided = Some((verdict, totals.pairs));
        }
    }
    Ok(())
}

/// Runs the match described by `args`.
pub fn run(args: &[String]) -> Result<String, String> {
    let settings = parse(args)?;
    let total_pairs = settings.games / 2;
    let next_pair = AtomicU32::new(0);
    let totals = Mutex::new(Totals::default());
    std::thread::scope(|scope| {
        for _ in 0..settings.jobs.min(total_pairs) {
            scope.spawn(|| {
                loop {
                    let stop =
                        totals.lock().map_or(true, |t| t.error.is_some() || t.decided.is_some());
                    let pair = next_pair.fetch_add(1, Ordering::Relaxed);
                    if stop || pair >= total_pairs {
                        break;
                    }
                    if let Err(error) = play_pair(&settings, pair, &totals) {
                        if let Ok(mut totals) = totals.lock() {
                            totals.error.get_or_insert(error);
                        }
                        break;
                    }
                }
            });
        }
    });
    let totals = totals.into_inner().map_err(|_| "a match thread failed".to_owned())?;
    if let Some(error) = totals.error {
        return Err(error);
    }
    let Totals { wins, draws, losses, nodes, time_ms, pairs, .. } = totals;
    let games = wins + draws + losses;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} vs {}: {wins} wins, {draws} draws, {losses} losses of {games} games: {:.1}% won, score {:.1}%",
        describe(&settings.engine),
        describe(&settings.opponent),
        100.0 * f64::from(wins) / f64::from(games.max(1)),
        100.0 * (f64::from(wins) + f64::from(draws) / 2.0) / f64::from(games.max(1))
    );
    let counts = pairs.0.map(|c| c.to_string()).join("/");
    let elo = pairs
        .elo()
        .map_or_else(String::new, |(elo, margin)| format!(", Elo {elo:+.1} ± {margin:.1}"));
    let _ = writeln!(out, "pairs (0, ½, 1, 1½, 2 points): {counts}{elo}");
    if let Some(sprt) = &settings.sprt {
        let _ = match totals.decided {
            Some((verdict, at)) => writeln!(
                out,
                "sprt: {} after {} pairs: {}{}",
                if verdict == Verdict::Accepted { "H1 accepted" } else { "H0 accepted" },
                at.pairs(),
                sprt.summary(&at),
                if at == pairs {
                    String::new()
                } else {
                    format!(" (then {} pairs under way were finished)", pairs.pairs() - at.pairs())
                }
            ),
            None => writeln!(out, "sprt: undecided: {}", sprt.summary(&pairs)),
        };
    }
    let _ = writeln!(
        out,
        "engine: {nodes} nodes in {:.1} s, {:.0} nodes/s",
        time_ms / 1000.0,
        nodes as f64 / (time_ms / 1000.0).max(1e-9)
    );
    Ok(out)
}
