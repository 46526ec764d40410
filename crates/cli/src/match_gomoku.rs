//! `qi match-gomoku`: our gomoku engine at full strength against the seed tutorial's AI
//! (`qi_ai::gomoku::seed_ai`), freestyle on 15x15. Colours alternate game by game; each game
//! opens with two or three stones put at random near the centre (from a seeded generator, so
//! a match can be replayed), then the two play it out. Prints one line per game and the score.

use std::fmt::Write as _;
use std::sync::atomic::AtomicBool;

use qi_ai::Engine;
use qi_ai::gomoku::{GomokuEngine, seed_ai};
use qi_ai::search::{Budget, Limits, native_clock};
use qi_rules::gomoku::{Gomoku, GomokuMove, GomokuRules};
use qi_rules::zobrist::splitmix64;
use qi_rules::{Cell, Game, Side};

/// The match's settings, from the command line.
struct Settings {
    games: u32,
    movetime_ms: f64,
    seed: u64,
}

fn parse(args: &[String]) -> Result<Settings, String> {
    let mut settings = Settings { games: 100, movetime_ms: 200.0, seed: 1 };
    let mut iter = args.iter();
    while let Some(flag) = iter.next() {
        let value = iter.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let number =
            |max: u64| {
                value.parse::<u64>().ok().filter(|n| (1..=max).contains(n)).ok_or_else(|| {
                    format!("{flag} {value}: expected a whole number from 1 to {max}")
                })
            };
        match flag.as_str() {
            "--games" => settings.games = number(10_000)? as u32,
            "--movetime" => settings.movetime_ms = number(600_000)? as f64,
            "--seed" => settings.seed = number(u64::MAX)?,
            _ => return Err(format!("{flag}: unknown option (--games, --movetime, --seed)")),
        }
    }
    Ok(settings)
}

/// Two or three stones near the centre, Black first, from the generator state `rng`.
fn opening(rng: &mut u64) -> Gomoku {
    let mut game = Gomoku::start(&GomokuRules::default(), 0);
    *rng = splitmix64(*rng);
    let stones = 2 + *rng % 2;
    while (game.history().len() as u64) < stones {
        *rng = splitmix64(*rng);
        let file = 5 + (*rng % 5) as u8;
        let rank = 5 + ((*rng >> 16) % 5) as u8;
        let _ = game.apply(GomokuMove::Stone(Cell::new(file, rank)));
    }
    game
}

/// What one game came to, from our engine's side.
struct GameResult {
    winner: Option<Side>,
    ours: Side,
    moves: String,
    nodes: u64,
    think_ms: f64,
}

fn play_game(engine: &mut GomokuEngine, mut game: Gomoku, ours: Side, movetime: f64) -> GameResult {
    let clock = native_clock();
    let stop = AtomicBool::new(false);
    engine.new_game();
    let (mut nodes, mut think_ms) = (0, 0.0);
    while game.outcome().is_none() {
        let mv = if game.side_to_move() == ours {
            let limits = Limits { time_ms: Some(movetime), ..Limits::default() };
            let mut budget = Budget::new(limits, &clock, &stop);
            let result = engine.search(&game, &mut budget, &mut |_| {});
            nodes += result.info.nodes;
            think_ms += budget.elapsed_ms();
            result.best
        } else {
            seed_ai::choose(&game).map(GomokuMove::Stone)
        };
        let mv =
            mv.filter(|&mv| game.check(mv).is_ok()).or_else(|| game.legal_moves().first().copied());
        let Some(mv) = mv else { break };
        game.play_unchecked(mv);
    }
    let winner = game.outcome().and_then(|o| o.winner);
    GameResult { winner, ours, moves: game.move_string(), nodes, think_ms }
}

/// Runs the match; prints a line per game as it ends and returns the summary.
pub fn run(args: &[String]) -> Result<String, String> {
    let settings = parse(args)?;
    let mut engine = GomokuEngine::new();
    let mut rng = settings.seed;
    let (mut wins, mut losses, mut draws, mut nodes, mut think_ms) = (0, 0, 0, 0u64, 0.0);
    for index in 0..settings.games {
        let ours = if index % 2 == 0 { Side::First } else { Side::Second };
        let result = play_game(&mut engine, opening(&mut rng), ours, settings.movetime_ms);
        let verdict = match result.winner {
            Some(side) if side == result.ours => {
                wins += 1;
                "win"
            }
            Some(_) => {
                losses += 1;
                "loss"
            }
            None => {
                draws += 1;
                "draw"
            }
        };
        nodes += result.nodes;
        think_ms += result.think_ms;
        let colour = if ours == Side::First { "black" } else { "white" };
        println!("game {:3}: qi {colour:5} {verdict:4} {}", index + 1, result.moves);
    }
    let games = f64::from(settings.games);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "qi vs seed AI, {} games, {} ms a move: {wins} wins, {losses} losses, {draws} draws; \
         win rate {:.1}% (score {:.1}%)",
        settings.games,
        settings.movetime_ms,
        100.0 * f64::from(wins) / games,
        100.0 * (f64::from(wins) + 0.5 * f64::from(draws)) / games,
    );
    let _ =
        writeln!(out, "qi searched {:.0} nodes/s", nodes as f64 / (think_ms / 1000.0).max(1e-9));
    Ok(out)
}
