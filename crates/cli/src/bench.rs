//! `qi bench`: perft speed of every game, with the reference engines measured in the same run.
//!
//! The machine this runs on is shared and noisy, so each side is run twice, interleaved, and the
//! faster run of each counts; the figure to read is the ratio, not the seconds.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use qi_rules::any::{AnyGame, StartFrom};

/// What is counted.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Measure {
    /// Perft with bulk counting at the last ply (the usual perft figure).
    Perft,
    /// Every move played and taken back, leaves too: what a search does at each node.
    PlayEveryMove,
}

/// One perft measurement to make.
struct Case {
    variant: &'static str,
    rules: &'static str,
    start: &'static str,
    depth: u32,
    measure: Measure,
    /// The reference engine and the UCI commands that put it on the same position.
    reference: Option<(&'static str, &'static [&'static str])>,
}

const ROUNDS: usize = 2;

const RENJU_MIDGAME: &str = "15/15/15/15/15/7x7/7x7/8xx5/15/15/15/15/15/15/o1o1o1o8 b";
const BANQI_MIDGAME: &str = "R*b*B*C*B*p*KP/Nn*pcP*kp*r/PP*CN*a*b*p*P/1R*n*r*aA*A*c 1 r 0 - -";

fn cases(quick: bool) -> Vec<Case> {
    let less = u32::from(quick);
    let case = |variant, rules, start, depth, measure| Case {
        variant,
        rules,
        start,
        depth,
        measure,
        reference: None,
    };
    use Measure::{Perft, PlayEveryMove};
    vec![
        Case {
            reference: Some((
                "fairy-stockfish",
                &["setoption name UCI_Variant value xiangqi", "position startpos"],
            )),
            ..case("xiangqi", "", "startpos", 5 - less, Perft)
        },
        Case {
            reference: Some(("stockfish", &["position startpos"])),
            ..case("chess", "", "startpos", 6 - less, Perft)
        },
        case("banqi", "", "startpos:1", 6 - less, Perft),
        case("banqi", "", BANQI_MIDGAME, 6 - less, Perft),
        case("banqi", "", BANQI_MIDGAME, 5 - less, PlayEveryMove),
        case("gomoku", "", "startpos", 3, Perft),
        case("gomoku", "", "startpos", 3 - less, PlayEveryMove),
        case("gomoku", "rule=renju", RENJU_MIDGAME, 3 - less, Perft),
        case("gomoku", "rule=renju", RENJU_MIDGAME, 3 - less, PlayEveryMove),
    ]
}

fn time_ours(case: &Case) -> Result<(u64, Duration), String> {
    let start = StartFrom::parse(case.start).map_err(|e| e.to_string())?;
    let mut game = AnyGame::new(case.variant, case.rules, &start).map_err(|e| e.to_string())?;
    let clock = Instant::now();
    let nodes = match case.measure {
        Measure::Perft => game.perft(case.depth),
        Measure::PlayEveryMove => game.visit_all(case.depth),
    };
    Ok((nodes, clock.elapsed()))
}

/// Runs `go perft` in a UCI engine and times it from the command to the node count, so the
/// engine's start-up is not counted.
fn time_reference(engine: &str, setup: &[&str], depth: u32) -> Result<(u64, Duration), String> {
    // Debian installs engines in /usr/games, which is not on every PATH.
    let program = std::env::var_os("PATH")
        .into_iter()
        .flat_map(|path| std::env::split_paths(&path).collect::<Vec<_>>())
        .chain([std::path::PathBuf::from("/usr/games")])
        .map(|dir| dir.join(engine))
        .find(|candidate| candidate.is_file())
        .ok_or_else(|| format!("{engine} is not installed"))?;
    let mut child = Command::new(program)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start {engine}: {e}"))?;
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    let mut lines = BufReader::new(child.stdout.take().ok_or("no stdout")?).lines();
    let mut send = |line: &str| writeln!(stdin, "{line}").map_err(|e| e.to_string());
    send("uci")?;
    for line in setup {
        send(line)?;
    }
    send("isready")?;
    wait_for(&mut lines, |line| line == "readyok")?;
    let clock = Instant::now();
    send(&format!("go perft {depth}"))?;
    let found = wait_for(&mut lines, |line| line.starts_with("Nodes searched"))?;
    let elapsed = clock.elapsed();
    let _ = send("quit");
    let _ = child.wait();
    let nodes = found
        .rsplit(' ')
        .next()
        .and_then(|n| n.trim().parse().ok())
        .ok_or_else(|| format!("{engine} printed {found:?}"))?;
    Ok((nodes, elapsed))
}

fn wait_for(
    lines: &mut impl Iterator<Item = std::io::Result<String>>,
    wanted: impl Fn(&str) -> bool,
) -> Result<String, String> {
    for line in lines {
        let line = line.map_err(|e| e.to_string())?;
        if wanted(line.trim()) {
            return Ok(line);
        }
    }
    Err("the engine stopped before answering".to_owned())
}

fn mnps(nodes: u64, time: Duration) -> f64 {
    nodes as f64 / time.as_secs_f64().max(1e-9) / 1e6
}

fn measure(case: &Case) -> Result<String, String> {
    let mut ours: Option<(u64, Duration)> = None;
    let mut theirs: Option<Result<(u64, Duration), String>> = None;
    for _ in 0..ROUNDS {
        let run = time_ours(case)?;
        ours = Some(ours.map_or(run, |best| if run.1 < best.1 { run } else { best }));
        if let Some((engine, setup)) = case.reference {
            let run = time_reference(engine, setup, case.depth);
            theirs = Some(match (theirs, run) {
                (Some(Ok(best)), Ok(run)) => Ok(if run.1 < best.1 { run } else { best }),
                (_, run) => run,
            });
        }
    }
    let (nodes, time) = ours.ok_or("no run")?;
    let rules = if case.rules.is_empty() { String::new() } else { format!(" {}", case.rules) };
    let start = if case.start.starts_with("startpos") { case.start } else { "midgame" };
    let what = match case.measure {
        Measure::Perft => "perft",
        Measure::PlayEveryMove => "play+undo every move",
    };
    let mut line = format!(
        "{:8}{rules:11} {start:10} {what} {}  {nodes:>10} nodes  qi {:6.2} s {:7.1} Mnps",
        case.variant,
        case.depth,
        time.as_secs_f64(),
        mnps(nodes, time)
    );
    if let (Some((engine, _)), Some(result)) = (case.reference, theirs) {
        match result {
            Ok((their_nodes, their_time)) => {
                let agree = if their_nodes == nodes { "" } else { "  NODE COUNTS DIFFER" };
                line.push_str(&format!(
                    "  | {engine} {:6.2} s {:7.1} Mnps  | qi/{engine} speed ratio {:.2}x{agree}",
                    their_time.as_secs_f64(),
                    mnps(their_nodes, their_time),
                    their_time.as_secs_f64() / time.as_secs_f64().max(1e-9)
                ));
            }
            Err(e) => line.push_str(&format!("  | {engine}: not measured ({e})")),
        }
    }
    Ok(line)
}

/// Runs the benchmark and returns its report.
///
/// # Errors
/// A message when an argument is unknown or a measurement fails.
pub fn run(args: &[String]) -> Result<String, String> {
    let quick = match args {
        [] => false,
        [flag] if flag == "--quick" => true,
        _ => return Err("usage: qi bench [--quick]".to_owned()),
    };
    // Each line is printed as soon as it is measured; a full run takes a minute or two.
    for case in cases(quick) {
        let line = measure(&case)?;
        // A closed pipe (`qi bench | head -1`) ends the run quietly.
        if writeln!(std::io::stdout(), "{line}").is_err() {
            break;
        }
    }
    Ok(String::new())
}
