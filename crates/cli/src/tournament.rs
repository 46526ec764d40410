//! `qi swiss check`: Qi's Dutch pairing beside another program's, round by round over random
//! tournaments; `qi arena bench`: how long the arena takes to pair a wave of finishers.
//!
//! Each tournament draws its players (ratings, late entries), its rounds, and as it goes its
//! results (by rating, with draws and forfeits), withdrawals, half-point byes and a forbidden
//! pair now and then. Before each round its TRF is written and given to the reference
//! (py4swiss by default: `py4swiss -t FILE -p OUT`, bbpPairings' output format); Qi pairs the
//! same round from the same record. The round goes on with the reference's pairing, so every
//! round compares like with like.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::Command;

use qi_rules::zobrist::splitmix64;
use qi_tournament::Outcome;
use qi_tournament::arena::{Arena, Presence};
use qi_tournament::swiss::Swiss;
use qi_tournament::swiss::dutch::{self, Pairings};
use qi_tournament::swiss::trf::{self, Event};

/// The usage text.
pub const USAGE: &str = "\
  qi swiss check [--tournaments N] [--players MIN-MAX] [--rounds MIN-MAX] [--seed S] [--reference CMD]
      Plays N random Swiss tournaments (default 100; 6-40 players, 3-9 rounds) with late
      entries, withdrawals, half-point byes, forfeits and forbidden pairs, and pairs every
      round with Qi's Dutch system and with the reference (default py4swiss, run as
      CMD -t FILE -p OUT). Prints how many rounds agree board for board, colours included;
      each disagreement's TRF goes to stderr.
  qi swiss bench [--players N] [--rounds R] [--seed S]
      Pairs a whole Swiss of N players (default 300) over R rounds (default 9) with random
      results and prints how long each round's pairing took.
  qi arena bench [--players N] [--wave W] [--waves K] [--seed S]
      An arena of N players (default 1000) with a few games each behind them; times the
      pairing of K waves (default 20) of W players waiting at once (default 500) and prints
      the median and the slowest.";

struct Options {
    tournaments: u64,
    players: (u64, u64),
    rounds: (u64, u64),
    seed: u64,
    reference: String,
}

fn range(text: &str, what: &str) -> Result<(u64, u64), String> {
    let bad = || format!("{what}: expected MIN-MAX (like 6-40), got {text:?}");
    let (lo, hi) = text.split_once('-').ok_or_else(bad)?;
    let lo: u64 = lo.parse().map_err(|_| bad())?;
    let hi: u64 = hi.parse().map_err(|_| bad())?;
    if lo > hi || lo < 2 {
        return Err(bad());
    }
    Ok((lo, hi))
}

impl Options {
    fn parse(args: &[String]) -> Result<Options, String> {
        let mut options = Options {
            tournaments: 100,
            players: (6, 40),
            rounds: (3, 9),
            seed: 1,
            reference: "py4swiss".into(),
        };
        let mut it = args.iter();
        while let Some(flag) = it.next() {
            let mut value = || it.next().ok_or_else(|| format!("{flag} needs a value"));
            match flag.as_str() {
                "--tournaments" => {
                    let v = value()?;
                    options.tournaments =
                        v.parse().map_err(|_| format!("--tournaments: not a count: {v:?}"))?;
                }
                "--players" => options.players = range(value()?, "--players")?,
                "--rounds" => options.rounds = range(value()?, "--rounds")?,
                "--seed" => {
                    let v = value()?;
                    options.seed = v.parse().map_err(|_| format!("--seed: not a number: {v:?}"))?;
                }
                "--reference" => options.reference = value()?.clone(),
                other => return Err(format!("unknown option {other:?}\n{USAGE}")),
            }
        }
        Ok(options)
    }
}

/// A small deterministic generator for the draws.
struct Draws(u64);

impl Draws {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        splitmix64(self.0)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    fn between(&mut self, (lo, hi): (u64, u64)) -> u64 {
        lo + self.below(hi - lo + 1)
    }
}

/// The reference's pairing of the TRF `text`: `Ok(None)` when it finds none.
fn reference_pairing(
    command: &str,
    text: &str,
    dir: &std::path::Path,
) -> Result<Option<Pairings>, String> {
    let input = dir.join("round.trf");
    let output = dir.join("pairings.txt");
    std::fs::write(&input, text).map_err(|e| format!("{}: {e}", input.display()))?;
    let _ = std::fs::remove_file(&output);
    let mut parts = command.split_whitespace();
    let program = parts.next().ok_or("--reference is empty")?;
    let run = Command::new(program)
        .args(parts)
        .arg("-t")
        .arg(&input)
        .arg("-p")
        .arg(&output)
        .output()
        .map_err(|e| format!("cannot run the reference {program:?}: {e} (pip install py4swiss)"))?;
    if !run.status.success() {
        let said = String::from_utf8_lossy(&run.stderr);
        if said.contains("can not be paired") || said.contains("PairingError") {
            return Ok(None);
        }
        return Err(format!("the reference failed: {}", said.lines().last().unwrap_or("")));
    }
    let text =
        std::fs::read_to_string(&output).map_err(|e| format!("{}: {e}", output.display()))?;
    let mut pairings = Pairings::default();
    for line in text.lines().skip(1) {
        let mut numbers = line.split_whitespace().map(str::parse::<u32>);
        match (numbers.next(), numbers.next()) {
            (Some(Ok(w)), Some(Ok(0))) => pairings.bye = Some(w),
            (Some(Ok(w)), Some(Ok(b))) => pairings.boards.push((w, b)),
            _ => return Err(format!("the reference wrote an unreadable line {line:?}")),
        }
    }
    Ok(Some(pairings))
}

/// Plays the round's games: the stronger usually wins; some draws, a few forfeits.
fn play_round(swiss: &mut Swiss, boards: &[(u32, u32)], draws: &mut Draws) {
    for &(white, _) in boards {
        let white = white as usize;
        let Some(qi_tournament::swiss::RoundResult::Pending { opponent, .. }) =
            swiss.rounds.last().map(|r| r[white])
        else {
            continue;
        };
        let gap = f64::from(swiss.players[white].rating - swiss.players[opponent].rating);
        let expected = 1.0 / (1.0 + 10f64.powf(-gap / 400.0));
        let forfeit = draws.chance(2);
        let outcome = if !forfeit && draws.chance(25) {
            Outcome::Draw
        } else if (draws.below(1000) as f64) < expected * 1000.0 {
            Outcome::Win
        } else {
            Outcome::Loss
        };
        let _ = swiss.record(white, outcome, forfeit);
    }
}

/// Runs `qi swiss ...`.
///
/// # Errors
/// Bad arguments, or a reference that cannot be run.
pub fn run_swiss(args: &[String]) -> Result<String, String> {
    match args.split_first() {
        Some((verb, rest)) if verb == "check" => check(&Options::parse(rest)?),
        Some((verb, rest)) if verb == "bench" => bench_swiss(rest),
        _ => Err(format!("expected check or bench\n{USAGE}")),
    }
}

fn check(options: &Options) -> Result<String, String> {
    let dir: PathBuf = std::env::temp_dir().join(format!("qi-swiss-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let (mut rounds, mut same, mut same_order, mut both_refused) = (0u64, 0u64, 0u64, 0u64);
    let (mut byes, mut forfeits, mut late, mut withdrawn) = (0u64, 0u64, 0u64, 0u64);
    for t in 0..options.tournaments {
        let mut draws = Draws(options.seed.wrapping_mul(1_000_003).wrapping_add(t));
        let players = draws.between(options.players);
        let total = draws.between(options.rounds).min(players.saturating_sub(1)).max(1);
        let mut swiss = Swiss::new(total as u32);
        for i in 0..players {
            swiss.join(&format!("Player {i}"), 1200 + draws.below(1200) as i32);
        }
        if draws.chance(30) {
            let a = draws.below(players) as usize;
            let b = draws.below(players) as usize;
            if a != b {
                swiss.forbidden.push((a, b));
            }
        }
        for round in 1..=total {
            if round > 1 && draws.chance(20) {
                swiss.join(&format!("Late {round}"), 1200 + draws.below(1200) as i32);
                late += 1;
            }
            for i in 0..swiss.players.len() {
                if swiss.players[i].withdrawn {
                    continue;
                }
                if round > 1 && draws.chance(3) {
                    swiss.players[i].withdrawn = true;
                    withdrawn += 1;
                } else if draws.chance(3) {
                    swiss.players[i].wants_half_bye = true;
                }
            }
            let text =
                trf::write(&swiss, &Event { name: format!("check {t}"), ..Event::default() }, true);
            let theirs = reference_pairing(&options.reference, &text, &dir)?;
            let ours = dutch::pair(&swiss.next_request()).ok();
            rounds += 1;
            match (&ours, &theirs) {
                (None, None) => {
                    both_refused += 1;
                    same += 1;
                    same_order += 1;
                    break;
                }
                (Some(a), Some(b)) => {
                    let mut x = a.boards.clone();
                    let mut y = b.boards.clone();
                    if a.boards == b.boards && a.bye == b.bye {
                        same_order += 1;
                    }
                    x.sort_unstable();
                    y.sort_unstable();
                    if x == y && a.bye == b.bye {
                        same += 1;
                    } else {
                        eprintln!(
                            "tournament {t} round {round}: Qi {:?} bye {:?}; reference {:?} bye {:?}\n{text}",
                            a.boards, a.bye, b.boards, b.bye
                        );
                    }
                }
                _ => eprintln!(
                    "tournament {t} round {round}: Qi {}, the reference {}\n{text}",
                    if ours.is_some() { "pairs" } else { "finds no pairing" },
                    if theirs.is_some() { "pairs" } else { "finds no pairing" }
                ),
            }
            let Some(pairing) = theirs else { break };
            byes += u64::from(pairing.bye.is_some());
            let applied =
                swiss.apply(&pairing).map_err(|e| format!("tournament {t} round {round}: {e}"))?;
            let before: u64 = swiss.rounds.last().map_or(0, |r| {
                r.iter()
                    .filter(|x| matches!(x, qi_tournament::swiss::RoundResult::Forfeit { .. }))
                    .count() as u64
            });
            play_round(&mut swiss, &applied.boards, &mut draws);
            let after: u64 = swiss.rounds.last().map_or(0, |r| {
                r.iter()
                    .filter(|x| matches!(x, qi_tournament::swiss::RoundResult::Forfeit { .. }))
                    .count() as u64
            });
            forfeits += (after - before) / 2;
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    let percent = |k: u64| if rounds == 0 { 0.0 } else { 100.0 * k as f64 / rounds as f64 };
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} tournaments, {rounds} rounds paired by both ({byes} byes, {forfeits} forfeits, {late} late entries, {withdrawn} withdrawals)",
        options.tournaments
    );
    let _ = writeln!(out, "same boards and colours: {same} ({:.1}%)", percent(same));
    let _ = writeln!(out, "same board order too:    {same_order} ({:.1}%)", percent(same_order));
    if both_refused > 0 {
        let _ = writeln!(out, "both found no pairing:   {both_refused}");
    }
    Ok(out)
}

/// Runs `qi arena bench ...`.
///
/// # Errors
/// Bad arguments.
pub fn run_arena(args: &[String]) -> Result<String, String> {
    let Some((verb, rest)) = args.split_first().filter(|(v, _)| v.as_str() == "bench") else {
        return Err(format!("expected bench\n{USAGE}"));
    };
    let _ = verb;
    let (mut players, mut wave, mut waves, mut seed) = (1000usize, 500usize, 20usize, 1u64);
    let mut it = rest.iter();
    while let Some(flag) = it.next() {
        let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let number: u64 = value.parse().map_err(|_| format!("{flag}: not a number: {value:?}"))?;
        match flag.as_str() {
            "--players" => players = number as usize,
            "--wave" => wave = number as usize,
            "--waves" => waves = number as usize,
            "--seed" => seed = number,
            other => return Err(format!("unknown option {other:?}\n{USAGE}")),
        }
    }
    if wave > players || players < 2 || waves == 0 {
        return Err("--wave must be at most --players, with at least 2 players and 1 wave".into());
    }
    let mut draws = Draws(seed);
    let mut times = Vec::with_capacity(waves);
    for _ in 0..waves {
        let mut arena = Arena::new(true);
        for i in 0..players {
            arena.join(&format!("p{i}"), 1000 + draws.below(1500) as i32);
        }
        // A few rounds behind everyone, so ranks, streaks and last opponents are real.
        for _ in 0..3 {
            for (w, b) in arena.pair_waiting() {
                let outcome = match draws.below(10) {
                    0..=4 => Outcome::Win,
                    5..=7 => Outcome::Loss,
                    _ => Outcome::Draw,
                };
                let _ = arena.finish(
                    w,
                    b,
                    outcome,
                    20 + draws.below(80) as u32,
                    [draws.chance(10), draws.chance(10)],
                );
            }
        }
        // Everyone but the wave is in a game: the wave has just finished.
        let mut order: Vec<usize> = (0..players).collect();
        for k in (1..order.len()).rev() {
            order.swap(k, draws.below(k as u64 + 1) as usize);
        }
        for &i in &order[wave..] {
            arena.entrants[i].presence = Presence::Playing;
        }
        let started = std::time::Instant::now();
        let games = arena.pair_waiting();
        times.push(started.elapsed());
        if games.len() * 2 + 2 < wave {
            return Err(format!("only {} games for a wave of {wave}", games.len()));
        }
    }
    times.sort_unstable();
    let ms = |d: std::time::Duration| d.as_secs_f64() * 1000.0;
    Ok(format!(
        "arena of {players}, waves of {wave} waiting, {waves} waves: median {:.0} ms, slowest {:.0} ms\n",
        ms(times[times.len() / 2]),
        ms(times[times.len() - 1])
    ))
}

fn bench_swiss(args: &[String]) -> Result<String, String> {
    let (mut players, mut rounds, mut seed) = (300u64, 9u64, 1u64);
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let number: u64 = value.parse().map_err(|_| format!("{flag}: not a number: {value:?}"))?;
        match flag.as_str() {
            "--players" => players = number,
            "--rounds" => rounds = number,
            "--seed" => seed = number,
            other => return Err(format!("unknown option {other:?}\n{USAGE}")),
        }
    }
    if !(2..=10_000).contains(&players) || rounds == 0 || rounds >= players {
        return Err("--players must be 2 to 10000 and --rounds fewer than the players".into());
    }
    let mut draws = Draws(seed);
    let mut swiss = Swiss::new(rounds as u32);
    for i in 0..players {
        swiss.join(&format!("p{i}"), 1000 + draws.below(1500) as i32);
    }
    let mut out = format!("Swiss of {players} players, {rounds} rounds: pairing time per round\n");
    for round in 1..=rounds {
        let started = std::time::Instant::now();
        let pairing = swiss.start_round().map_err(|e| format!("round {round}: {e}"))?;
        let took = started.elapsed();
        let _ = writeln!(out, "round {round}: {:.0} ms", took.as_secs_f64() * 1000.0);
        play_round(&mut swiss, &pairing.boards, &mut draws);
    }
    Ok(out)
}
