//! `qi puzzles`: the puzzle database — made from games (`generate`), printed as lichess's CSV
//! (`export`) and read from it (`import`). The database is one file a game,
//! `static/puzzles/<game>.csv`, in that same format (`qi_play::puzzle`), which the app fetches
//! when puzzles are opened.

use std::collections::{BTreeMap, HashSet};
use std::fmt::Write as _;
use std::sync::atomic::AtomicBool;

use qi_ai::AnyEngine;
use qi_ai::search::native_clock;
use qi_play::link::encode_component;
use qi_play::puzzle::{self, Puzzle};
use qi_puzzles::mine::{
    ENDGAME_GAP, SelfPlay, banqi_endgame_tasks, mistakes_in, takes_what_just_moved,
};
use qi_puzzles::{Found, Judge};
use qi_rules::any::{AnyGame, AnyMove, AnyRules, Variant};

use crate::puzzle_referee::Referee;

/// The usage text.
pub const USAGE: &str = "\
  qi puzzles generate <game> [--count N] [--seed S] [--rules k=v,...] [--records R] [--file F]
      Plays games between engines that make mistakes (or reads the games of the record file R:
      PGN and every format `qi record` reads), searches every mistake deeply and keeps
      the positions where each answer is the only good one (crates/puzzles documents the
      rule); appends each puzzle to F (default static/puzzles/<game>.csv) as it is found,
      until N new ones (default 10). Progress and the tally of rejections go to stderr.
      Chess and xiangqi puzzles are re-checked by a referee (Stockfish, Fairy-Stockfish, or
      --referee CMD) to --depth D (default 18) before they are kept; --no-referee skips it.
      Gomoku puzzles rest on the judge's own threat search unless --referee CMD is given
      (Rapfi: ../shared/engines/rapfi/pbrain-rapfi).
  qi puzzles check <game> [--sample N] [--depth D] [--referee CMD] [--drop] [--file F]
      The referee's verdict (Stockfish, Fairy-Stockfish, Rapfi beside the checkout, or
      --referee CMD) on N puzzles spread over the database (default all): how many
      it agrees with (its best move is the solution's at every solver move) and how many
      are only-move puzzles by its own scores; each disagreement on stderr. --drop removes
      the puzzles it disagrees with from F.
  qi puzzles retag <game> [--file F]
      Reads each puzzle's themes off its line again (after the theme rules changed).
  qi puzzles export <game> [--file F]
      Prints the database as lichess's CSV (PuzzleId,FEN,Moves,Rating,...).
  qi puzzles import <game> <csv> [--file F]
      Reads a file in lichess's format (lichess's own database reads as it comes), reports
      each row it refuses with its line number, and adds the rest to F (a puzzle whose id is
      there already is left as it was).";

/// Runs `qi puzzles ...`; the text to print.
///
/// # Errors
/// What was wrong with the arguments or a file.
pub fn run(args: &[String]) -> Result<String, String> {
    let Some((verb, rest)) = args.split_first() else {
        return Err(format!("expected generate, check, retag, export or import\n{USAGE}"));
    };
    let options = Options::parse(rest)?;
    match verb.as_str() {
        "generate" => generate(&options),
        "export" => export(&options),
        "import" => import(&options),
        "check" => check(&options),
        "retag" => retag(&options),
        other => Err(format!("“{other}”: expected generate, check, retag, export or import")),
    }
}

/// The arguments after the verb.
struct Options {
    variant: Variant,
    rules: AnyRules,
    positional: Vec<String>,
    count: usize,
    seed: u64,
    file: String,
    /// The referee's command; `None` for none.
    referee: Option<String>,
    /// Whether `--referee` was given (not the game's default).
    referee_given: bool,
    depth: u32,
    sample: Option<usize>,
    drop: bool,
    /// A record file whose games are the candidates' source instead of self-play.
    records: Option<String>,
}

impl Options {
    fn parse(args: &[String]) -> Result<Options, String> {
        let mut positional = Vec::new();
        let (mut count, mut seed, mut file, mut rules) = (10, 1, None, String::new());
        let (mut referee, mut no_referee, mut depth, mut sample, mut drop) =
            (None, false, 18, None, false);
        let mut records = None;
        let mut iter = args.iter();
        while let Some(arg) = iter.next() {
            let mut value =
                |name: &str| iter.next().cloned().ok_or_else(|| format!("{name} needs a value"));
            match arg.as_str() {
                "--count" => {
                    count = value(arg)?.parse().map_err(|_| "--count: not a number".to_owned())?;
                }
                "--seed" => {
                    seed = value(arg)?.parse().map_err(|_| "--seed: not a number".to_owned())?;
                }
                "--file" => file = Some(value(arg)?),
                "--rules" => rules = value(arg)?,
                "--referee" => referee = Some(value(arg)?),
                "--no-referee" => no_referee = true,
                "--drop" => drop = true,
                "--records" => records = Some(value(arg)?),
                "--depth" => {
                    depth = value(arg)?
                        .parse()
                        .ok()
                        .filter(|d| (1..=60).contains(d))
                        .ok_or("--depth: a number from 1 to 60")?;
                }
                "--sample" => {
                    sample = Some(
                        value(arg)?.parse().ok().filter(|n| *n > 0).ok_or("--sample: a count")?,
                    );
                }
                flag if flag.starts_with("--") => return Err(format!("{flag}: unknown option")),
                _ => positional.push(arg.clone()),
            }
        }
        let Some(game) = positional.first() else { return Err("which game?".into()) };
        let variant = Variant::parse(game).map_err(|e| e.to_string())?;
        let rules = AnyRules::parse(variant, &rules).map_err(|e| format!("--rules: {e}"))?;
        let file = file.unwrap_or_else(|| format!("static/puzzles/{}.csv", variant.kind().name()));
        let referee_given = referee.is_some();
        let referee = if no_referee {
            None
        } else {
            referee.or_else(|| Referee::default_command(variant.kind()).map(str::to_owned))
        };
        Ok(Options {
            variant,
            rules,
            positional: positional[1..].to_vec(),
            count,
            seed,
            file,
            referee,
            referee_given,
            depth,
            sample,
            drop,
            records,
        })
    }
}

/// Reads the database file (none yet is an empty database); refused rows are an error, since
/// the database is ours and must read whole.
fn read_database(options: &Options) -> Result<Vec<Puzzle>, String> {
    let text = match std::fs::read_to_string(&options.file) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("{}: {e}", options.file)),
    };
    let read = puzzle::read_file(options.variant, &text);
    if let Some((line, error)) = read.refused.first() {
        return Err(format!("{}:{line}: {error}", options.file));
    }
    Ok(read.puzzles)
}

fn write_database(options: &Options, puzzles: &[Puzzle]) -> Result<(), String> {
    if let Some(dir) = std::path::Path::new(&options.file).parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    std::fs::write(&options.file, puzzle::write_file(puzzles))
        .map_err(|e| format!("{}: {e}", options.file))
}

fn export(options: &Options) -> Result<String, String> {
    Ok(puzzle::write_file(&read_database(options)?))
}

fn import(options: &Options) -> Result<String, String> {
    let Some(path) = options.positional.first() else { return Err("import: which file?".into()) };
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let read = puzzle::read_file(options.variant, &text);
    for (line, error) in &read.refused {
        eprintln!("{path}:{line}: {error}");
    }
    let mut puzzles = read_database(options)?;
    let known: HashSet<_> = puzzles.iter().map(|p| p.id.clone()).collect();
    let fresh: Vec<Puzzle> = read.puzzles.into_iter().filter(|p| !known.contains(&p.id)).collect();
    let added = fresh.len();
    puzzles.extend(fresh);
    write_database(options, &puzzles)?;
    Ok(format!(
        "{added} puzzles added to {} ({} there now); {} rows refused\n",
        options.file,
        puzzles.len(),
        read.refused.len()
    ))
}

/// The readable link of a game up to `plies` moves (where the puzzle starts).
fn game_link(start: &AnyGame, moves: &[AnyMove]) -> String {
    let rules = AnyRules::of(start.rules().variant());
    let mut link = format!("?game={}", start.rules().variant());
    if start.rules() != rules {
        let _ = write!(
            link,
            "&rules={}",
            encode_component(&start.rules().to_list()).replace(',', "%2C")
        );
    }
    let fen = start.position().replace(' ', "_");
    let _ = write!(link, "&fen={}", encode_component(&fen).replace(',', "%2C"));
    let mut game = start.clone();
    let texts: Vec<String> = moves
        .iter()
        .map(|&mv| {
            let text = game.move_text(mv);
            let _ = game.apply(mv);
            text
        })
        .collect();
    if !texts.is_empty() {
        let _ = write!(link, "&moves={}", texts.join("+"));
    }
    link
}

fn generate(options: &Options) -> Result<String, String> {
    let mut puzzles = read_database(options)?;
    let mut ids: HashSet<_> = puzzles.iter().map(|p| p.id.clone()).collect();
    // The positions of the puzzles kept (one puzzle a position), and each task judged in this
    // run: games that start alike meet the same mistakes, and the same candidate would get the
    // same verdict again.
    let mut known: HashSet<String> = puzzles.iter().map(|p| p.position.clone()).collect();
    let mut judged: HashSet<String> = HashSet::new();
    let clock = native_clock();
    let stop = AtomicBool::new(false);
    let mut judge = Judge::new(options.rules.kind(), &clock, &stop);
    let mut engine = AnyEngine::default();
    let selfplay = SelfPlay::new(options.rules);
    // Gomoku's judge is its own threat search; Rapfi referees generation only when asked.
    let referee_command = match options.rules.kind() {
        qi_rules::GameKind::Gomoku if !options.referee_given => None,
        _ => options.referee.as_ref(),
    };
    let mut referee = match referee_command {
        Some(command) => Some(Referee::start(options.rules.kind(), command, options.depth)?),
        None => None,
    };
    let mut rejections: BTreeMap<String, usize> = BTreeMap::new();
    let (mut added, mut games, mut candidates) = (0, 0, 0);
    let started = clock();
    let mut seed = options.seed;
    let mut recorded = match &options.records {
        Some(path) => Some(recorded_games(path, options.variant)?.into_iter()),
        None => None,
    };
    while added < options.count {
        let (start, moves) = match &mut recorded {
            Some(games) => match games.next() {
                Some(game) => game,
                None => break,
            },
            None => selfplay.play(seed, &mut engine, &clock, &stop),
        };
        seed = seed.wrapping_add(1);
        games += 1;
        // A puzzle's line covers the plies after it: the same idea found again one move later
        // is the same puzzle, shorter.
        let mut covered_until = 0;
        // Each mistake is a task for its opponent; where the game's puzzles may ask to hold the
        // draw (xiangqi), the move before it is a task for the one who then erred, had they
        // found the only move that saved it.
        let holds = judge.settings.hold.is_some();
        let mut tasks: Vec<(usize, AnyMove)> =
            mistakes_in(&start, &moves, &mut engine, &clock, &stop)
                .into_iter()
                .flat_map(|ply| {
                    let before = (holds && ply > 0).then(|| ply - 1);
                    before.into_iter().chain(std::iter::once(ply))
                })
                .map(|ply| (ply, moves[ply]))
                .collect();
        // Banqi: the moves that would have been mistakes in the game's sparse open positions.
        if recorded.is_none() {
            tasks.extend(banqi_endgame_tasks(&start, &moves, &mut engine, &clock, &stop));
            tasks.sort_by_key(|&(ply, _)| ply);
        }
        for (ply, task) in tasks {
            if ply < covered_until {
                continue;
            }
            candidates += 1;
            let mut before = start.clone();
            for &mv in &moves[..ply] {
                let _ = before.apply(mv);
            }
            let key = format!("{} {}", before.position(), before.move_text(task));
            if known.contains(&before.position()) || !judged.insert(key) {
                *rejections.entry("SeenBefore".into()).or_default() += 1;
                continue;
            }
            // A task of the game's own moves, or a move its player had (banqi's endings).
            let hypothetical = task != moves[ply];
            match judge.judge(&before, task) {
                Ok(found) if hypothetical && takes_what_just_moved(&found) => {
                    *rejections.entry("TakesWhatJustMoved".into()).or_default() += 1;
                }
                Ok(found) => {
                    let puzzle = match keep(&found, &start, &moves[..ply]) {
                        Ok(puzzle) => puzzle,
                        Err(error) => {
                            eprintln!("not kept: {error}");
                            continue;
                        }
                    };
                    if let Some(referee) = &mut referee {
                        let verdict = referee.judge(&puzzle)?;
                        if !verdict.agrees || !verdict.only_moves {
                            *rejections.entry("RefereeDisagrees".into()).or_default() += 1;
                            continue;
                        }
                    }
                    if ids.insert(puzzle.id.clone()) && known.insert(puzzle.position.clone()) {
                        let gap = if hypothetical { ENDGAME_GAP } else { 0 };
                        covered_until = ply + found.moves.len().max(gap);
                        puzzles.push(puzzle);
                        added += 1;
                        write_database(options, &puzzles)?;
                    }
                }
                Err(why) => {
                    let name = format!("{why:?}");
                    let name = name.split([' ', '(', '{']).next().unwrap_or("").to_owned();
                    *rejections.entry(name).or_default() += 1;
                }
            }
            if added >= options.count {
                break;
            }
        }
        eprintln!(
            "game {games} (seed {}): {candidates} candidates, {added} puzzles, {:.0} s",
            seed.wrapping_sub(1),
            (clock() - started) / 1000.0
        );
        // A long run is often stopped by hand: the tally so far, now and then.
        if games % 100 == 0 {
            eprintln!("rejected so far:{}", tally(&rejections));
        }
    }
    if let Some(referee) = referee {
        referee.close();
    }
    let mut report = format!(
        "{added} puzzles added to {} ({} there now) from {games} games, {candidates} candidates, in {:.0} s\nrejected:",
        options.file,
        puzzles.len(),
        (clock() - started) / 1000.0
    );
    report.push_str(&tally(&rejections));
    report.push('\n');
    Ok(report)
}

/// The rejections counted so far, as " why count;" each.
fn tally(rejections: &BTreeMap<String, usize>) -> String {
    rejections.iter().fold(String::new(), |mut text, (why, count)| {
        let _ = write!(text, " {why} {count};");
        text
    })
}

fn check(options: &Options) -> Result<String, String> {
    let Some(command) = &options.referee else {
        return Err(format!("no referee for {} (give --referee CMD)", options.variant));
    };
    let mut puzzles = read_database(options)?;
    let mut referee = Referee::start(options.variant.kind(), command, options.depth)?;
    let count = options.sample.map_or(puzzles.len(), |n| n.min(puzzles.len()));
    // Spread over the whole file: the i-th of `count` is at i·len/count.
    let sample: Vec<usize> = (0..count).map(|i| i * puzzles.len() / count.max(1)).collect();
    let (mut judged, mut agreed, mut only) = (0, 0, 0);
    let mut dropped = HashSet::new();
    for puzzle in sample.iter().map(|&i| &puzzles[i]) {
        let verdict = referee.judge(puzzle)?;
        judged += 1;
        agreed += usize::from(verdict.agrees);
        only += usize::from(verdict.only_moves);
        if !verdict.agrees || !verdict.only_moves {
            let at = verdict
                .differs_at
                .map_or(String::new(), |(n, mv)| format!(", at solver move {n} it plays {mv}"));
            eprintln!(
                "{}: agrees {}, only moves {}{at}",
                puzzle.id, verdict.agrees, verdict.only_moves
            );
            dropped.insert(puzzle.id.clone());
        }
    }
    referee.close();
    let percent = |n: usize| 100.0 * n as f64 / judged.max(1) as f64;
    let mut report = format!(
        "{command} to depth {}: {judged} puzzles of {}; best move agrees on {agreed} ({:.1}%), only moves by its scores on {only} ({:.1}%)\n",
        options.depth,
        puzzles.len(),
        percent(agreed),
        percent(only)
    );
    if options.drop && !dropped.is_empty() {
        puzzles.retain(|p| !dropped.contains(&p.id));
        write_database(options, &puzzles)?;
        report.push_str(&format!(
            "{} dropped; {} left in {}\n",
            dropped.len(),
            puzzles.len(),
            options.file
        ));
    }
    Ok(report)
}

fn retag(options: &Options) -> Result<String, String> {
    let mut puzzles = read_database(options)?;
    let mut changed = 0;
    for puzzle in &mut puzzles {
        let before = puzzle.themes.clone();
        qi_puzzles::themes::retag(puzzle);
        changed += usize::from(puzzle.themes != before);
    }
    write_database(options, &puzzles)?;
    Ok(format!("{changed} of {} puzzles in {} tagged anew\n", puzzles.len(), options.file))
}

/// The games of the record file at `path` that are `variant`'s, each as its start and main line.
fn recorded_games(path: &str, variant: Variant) -> Result<Vec<(AnyGame, Vec<AnyMove>)>, String> {
    let decoded = crate::record::read(path)?;
    let mut games = Vec::new();
    for span in qi_play::records::games(&decoded.text) {
        let text = &decoded.text[span.range.clone()];
        let Ok(imported) = qi_play::records::import(text, Some(variant.kind())) else { continue };
        let (start, moves) = imported.record.main_line();
        if start.rules().variant() != variant {
            continue;
        }
        games.push((start, moves));
    }
    if games.is_empty() {
        return Err(format!("{path}: no {variant} game read"));
    }
    Ok(games)
}

/// The puzzle `found` makes, with the link of its game; refused when a row of the file could
/// not carry its rules (the file names only the game, and for gomoku the rule and the board's
/// size: a Chess960 start or a gomoku opening rule would read back as another game).
fn keep(found: &Found, start: &AnyGame, played: &[AnyMove]) -> Result<Puzzle, String> {
    let puzzle = found.puzzle(&game_link(start, played)).map_err(|e| e.to_string())?;
    let back =
        Puzzle::read_row(puzzle.rules.variant(), &puzzle.to_row()).map_err(|e| e.to_string())?;
    if back.rules != puzzle.rules {
        return Err(format!("a row cannot carry the rules {}", puzzle.rules.to_list()));
    }
    Ok(puzzle)
}
