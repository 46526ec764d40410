//! `qi`: the rules of Qi's four games on the command line — perft, legal moves, playing out a
//! line, and benchmarks. Bad input gets one line on stderr naming the argument and exit status 2.

mod banqi_match;
mod bench;
mod engine_process;
mod lab;
mod match_gomoku;
mod matches;
mod puzzle_referee;
mod puzzles;
mod record;
mod review;
mod sprt;
mod think;
mod tournament;

use std::fmt::Write as _;
use std::process::ExitCode;

use qi_cli::{banqi_protocol, piskvork, uci};
use qi_rules::GameKind;
use qi_rules::any::{AnyGame, StartFrom, VARIANT_NAMES, parse_variant, rule_docs};
use qi_rules::options::shorten;

/// Exit status for bad input, as the command-line convention for usage errors.
const USAGE_ERROR: u8 = 2;

/// A command-line mistake: which argument, and what is wrong with it.
#[derive(Debug)]
struct ArgError {
    argument: String,
    reason: String,
}

impl ArgError {
    fn new(argument: &str, reason: impl std::fmt::Display) -> ArgError {
        ArgError { argument: shorten(argument), reason: reason.to_string() }
    }
}

/// Arguments after the command, with `--rules` and flags taken out.
struct Parsed {
    positional: Vec<String>,
    rules: String,
    divide: bool,
}

fn parse_arguments(args: &[String], allow_divide: bool) -> Result<Parsed, ArgError> {
    let mut parsed = Parsed { positional: Vec::new(), rules: String::new(), divide: false };
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        if arg == "--rules" {
            let value = iter.next().ok_or_else(|| ArgError::new(arg, "needs key=value,..."))?;
            if !parsed.rules.is_empty() {
                parsed.rules.push(',');
            }
            parsed.rules.push_str(value);
        } else if let Some(value) = arg.strip_prefix("--rules=") {
            if !parsed.rules.is_empty() {
                parsed.rules.push(',');
            }
            parsed.rules.push_str(value);
        } else if arg == "--divide" && allow_divide {
            parsed.divide = true;
        } else if arg.starts_with("--") {
            return Err(ArgError::new(arg, "unknown option (see qi --help)"));
        } else {
            parsed.positional.push(arg.clone());
        }
    }
    Ok(parsed)
}

/// Sets up the game from `<game> <position>` and plays the moves after them.
fn game_with_moves(parsed: &Parsed, first_move: usize) -> Result<AnyGame, ArgError> {
    let [variant, position, ..] = parsed.positional.as_slice() else {
        return Err(ArgError::new("", "expected <game> <position> (see qi --help)"));
    };
    let start = StartFrom::parse(position).map_err(|e| ArgError::new(position, e))?;
    let mut game = AnyGame::new(variant, &parsed.rules, &start).map_err(|e| {
        use qi_rules::any::SetupError as E;
        match e {
            E::UnknownGame { .. } => ArgError::new(variant, e),
            E::Rules(_) => ArgError::new(&format!("--rules {}", parsed.rules), e),
            E::Position(_) | E::BadSeed { .. } => ArgError::new(position, e),
        }
    })?;
    for (index, text) in parsed.positional.iter().enumerate().skip(first_move) {
        game.play(text)
            .map_err(|e| ArgError::new(text, format!("move {}: {e}", index - first_move + 1)))?;
    }
    Ok(game)
}

/// The deepest perft worth starting: one more ply would take hours at these branching factors.
fn max_perft_depth(kind: GameKind) -> u32 {
    match kind {
        GameKind::Chess | GameKind::Banqi => 10,
        GameKind::Xiangqi => 9,
        GameKind::Gomoku => 4,
    }
}

fn perft(args: &[String]) -> Result<String, ArgError> {
    let parsed = parse_arguments(args, true)?;
    if parsed.positional.len() != 3 {
        return Err(ArgError::new("", "usage: qi perft <game> <position> <depth> [--divide]"));
    }
    let depth_text = &parsed.positional[2];
    let depth: u32 =
        depth_text.parse().ok().filter(|d| *d <= 12).ok_or_else(|| {
            ArgError::new(depth_text, "depth must be a whole number from 0 to 12")
        })?;
    let mut game = game_with_moves(&parsed, usize::MAX)?;
    let max_depth = max_perft_depth(game.kind());
    if depth > max_depth {
        let reason =
            format!("too deep for {} (at most {max_depth}: it would run for hours)", game.kind());
        return Err(ArgError::new(depth_text, reason));
    }
    let mut out = String::new();
    if parsed.divide && depth > 0 {
        let counts = game.perft_divide(depth);
        for (mv, count) in &counts {
            let _ = writeln!(out, "{mv}: {count}");
        }
        let _ = writeln!(out, "{}", counts.iter().map(|(_, n)| n).sum::<u64>());
    } else {
        let _ = writeln!(out, "{}", game.perft(depth));
    }
    Ok(out)
}

fn moves(args: &[String]) -> Result<String, ArgError> {
    let parsed = parse_arguments(args, false)?;
    let game = game_with_moves(&parsed, 2)?;
    Ok(game.legal_moves().iter().map(|mv| format!("{mv}\n")).collect())
}

fn play(args: &[String]) -> Result<String, ArgError> {
    let parsed = parse_arguments(args, false)?;
    let game = game_with_moves(&parsed, 2)?;
    Ok(format!("{}\n{}\n", game.position(), game.outcome_text()))
}

fn think_command(args: &[String]) -> Result<String, ArgError> {
    let mut rest = Vec::new();
    let mut level = None;
    let mut movetime = None;
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        match arg.as_str() {
            "--level" | "--movetime" => {
                let value = iter.next().ok_or_else(|| ArgError::new(arg, "needs a number"))?;
                if arg == "--level" {
                    level =
                        Some(value.parse::<u8>().ok().filter(|l| (1..=6).contains(l)).ok_or_else(
                            || ArgError::new(value, "the level is a whole number from 1 to 6"),
                        )?);
                } else {
                    movetime = Some(
                        value
                            .parse::<f64>()
                            .ok()
                            .filter(|m| *m > 0.0 && *m <= 3_600_000.0)
                            .ok_or_else(|| {
                                ArgError::new(value, "movetime is milliseconds, more than 0")
                            })?,
                    );
                }
            }
            _ => rest.push(arg.clone()),
        }
    }
    let parsed = parse_arguments(&rest, false)?;
    let game = game_with_moves(&parsed, 2)?;
    Ok(think::think(&game, level, movetime))
}

fn review_command(args: &[String]) -> Result<String, ArgError> {
    let mut rest = Vec::new();
    let mut budgets = qi_tasks::review::Budgets::default();
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        match arg.as_str() {
            "--movetime" | "--check" => {
                let value = iter.next().ok_or_else(|| ArgError::new(arg, "needs a number"))?;
                let ms =
                    value.parse::<u32>().ok().filter(|ms| (1..=30_000).contains(ms)).ok_or_else(
                        || ArgError::new(value, "milliseconds, a whole number from 1 to 30000"),
                    )?;
                if arg == "--movetime" {
                    budgets.position_ms = ms;
                } else {
                    budgets.check_ms = ms;
                }
            }
            _ => rest.push(arg.clone()),
        }
    }
    let parsed = parse_arguments(&rest, false)?;
    // Every move is checked (and named when one is wrong) before anything is searched.
    game_with_moves(&parsed, 2)?;
    let [_, position, moves @ ..] = parsed.positional.as_slice() else {
        return Err(ArgError::new("", "expected <game> <position> (see qi --help)"));
    };
    let start = match StartFrom::parse(position).map_err(|e| ArgError::new(position, e))? {
        StartFrom::Start { seed } => qi_play::record::Start::Seed(seed),
        StartFrom::Position(text) => qi_play::record::Start::Position(text.to_owned()),
    };
    // The record keeps moves in coordinates, whatever notation they were given in.
    let from_start = Parsed {
        positional: parsed.positional[..2].to_vec(),
        rules: parsed.rules.clone(),
        divide: false,
    };
    let mut game = game_with_moves(&from_start, 2)?;
    let mut coordinates = Vec::with_capacity(moves.len());
    for text in moves {
        let mv = game.read_move(text).map_err(|e| ArgError::new(text, e))?;
        coordinates.push(game.move_text(mv));
        game.play(text).map_err(|e| ArgError::new(text, e))?;
    }
    let record =
        qi_play::record::GameRecord::from_parts(game.kind(), game.rules_list(), start, coordinates);
    review::review(&record, budgets)
        .ok_or_else(|| ArgError::new("", "the moves did not replay as a record"))
}

fn help() -> String {
    let mut text = String::from(
        "qi - the rules of chess, xiangqi, banqi and gomoku

Usage:
  qi perft <game> <position> <depth> [--divide] [--rules k=v,...]
      Count the leaf nodes of the legal move tree; the last line is the count.
  qi moves <game> <position> [move ...] [--rules k=v,...]
      Play the moves, then print every legal move, one a line, in coordinates.
  qi play <game> <position> [move ...] [--rules k=v,...]
      Play the moves, then print the position string and the outcome.
  qi bench [--quick]
      Perft speed of every game; xiangqi and chess side by side with fairy-stockfish and
      stockfish where installed, as ratios.
  qi think <game> <position> [move ...] [--level 1-6 | --movetime MS] [--rules k=v,...]
      One search by the built-in engine: a line per depth, then the best move and nodes/s.
  qi review <game> <position> [move ...] [--movetime MS] [--check MS] [--rules k=v,...]
      The app's game review of the moves: each position searched for MS (default 250), each
      move judged by the winning chances it lost; a move that looks like a mistake or worse is
      checked by searching the position it made and the one the engine's choice would have
      made for the --check time (default 350) before it is judged. One line a move, then each
      player's counts and accuracy and the time taken.
  qi match [--variant chess|xiangqi|gomoku] [--rules k=v,...] [--games N] [--movetime MS]
           [--nodes N] [--book FILE] [--jobs N] [--seed S] [--first CMD] [--second CMD]
           [--first-option NAME=VALUE] [--second-option NAME=VALUE]
           [--resign MOVES/CP] [--draw FROM_MOVE/MOVES/CP]
      Two engines from varied openings, each opening twice with colours swapped, N games at
      once (--jobs): UCI engines for chess and xiangqi (default 'qi uci' against stockfish or
      fairy-stockfish), Gomocup (Piskvork) engines for gomoku (default 'qi piskvork' against
      pbrain-rapfi); prints each game, then the score and an Elo estimate with its 95% error bar.
      UCI games can be called early from the engines' scores, as cutechess-cli does: --resign
      4/1000 when one says -1000 cp or worse and the other +1000 or better for 4 moves each;
      --draw 40/8/10 when, from move 40, both stay within 10 cp for 8 moves each.
      UCI engines may search N nodes a move instead (--nodes: the same work however busy the
      machine), and open from a book (--book crates/lab/books/chess.txt: one opening a line,
      taken in order from the seed's) instead of random moves.
  qi sprt --sprt ELO0,ELO1[,ALPHA,BETA] [the options of qi match]
      qi match that stops when a sequential probability ratio test on the game pairs (each
      opening with colours swapped: pentanomial counts) decides whether the first engine is
      worth ELO1 rather than ELO0 logistic Elo (alpha and beta default to 0.05; --games is
      then the most it plays, default 20000). Prints the ratio and its bounds after each pair.
  qi datagen --game <game> --out FILE [--games N] [--nodes N] [--random-plies N] [--jobs N]
             [--seed S] [--rules k=v,...] [--max-opening SCORE] [--append]
      Self-play training data: the full engine plays both sides at N nodes a move (default
      5000) from varied openings (random plies; ones judged beyond SCORE, default 300, 1000 in
      gomoku, drawn again, and a seed given up after 20 tries, which is counted), each position
      written with the search's score and the game's result (positions in check, before a
      capture or with a mate found are marked not kept). The format is in docs/engine-lab.md.
      An existing FILE is only added to with --append (give another --seed); a damaged end (a
      stopped run) is cut back to its last complete game first.
  qi data FILE...
      What each data file holds: games, plies, positions kept, bytes a position, results.
  qi tune --game <game> --data FILE... [--epochs 500] [--rate 1] [--lambda 0.5] [--threads 2]
          [--l2 X] [--most N] [--write]
      Fits the evaluation's weights to the data's positions (gradient descent on win
      probability; the target is lambda of the game's result and the rest the search's
      score): prints the loss before and after, on the data and on the results of every tenth
      game (held out). --l2 holds the weights near their values before (the loss gains X for
      each squared unit moved); --write rewrites the engine's weights file (run from the
      workspace's root). All four games.
  qi train --game <game> --data FILE... --out FILE [--epochs 20] [--batch 16384]
           [--rate 0.001] [--lambda 0.5] [--threads 2] [--seed 1] [--most N] [--mirror]
           [--on-top]
      Trains the game's network ((inputs -> 128) x 2 -> 1) from random weights on the data's
      positions, with the same target as qi tune; prints each pass's loss and the held-out
      games' loss, and writes the network's file (crates/ai/nets/ holds the engine's).
      --mirror trains on each position's mirror image (files a-h turned round) as well;
      --on-top trains a network whose output the engine adds to its hand-written evaluation.
      Chess for now.
  qi levels --game <game> [--games N] [--scale F] [--levels A-B]
      The computer's levels against each other, each from A to B (default 2-6) against the one
      below (F scales every level's thinking time and node budget, e.g. 0.25 for quick runs).
  qi piskvork
      Play gomoku over the Gomocup (Piskvork) protocol on stdin and stdout.
  qi match-gomoku [--games 100] [--movetime 200] [--seed 1]
      Our gomoku engine against the seed tutorial's AI (freestyle 15x15, colours alternating,
      random openings near the centre); prints each game and the win rate.
  qi uci
      Speak UCI on stdin/stdout: chess, Chess960 (UCI_Chess960) and xiangqi (UCI_Variant).
  qi banqi-engine
      The banqi engine on a UCI-like line protocol (standard input and output).
  qi match-banqi [--games 200] [--movetime 100 | --nodes N | --depth N] [--seed 1]
                 [--engine full|level:N] [--opponent greedy|level:N|program:CMD] [--rules k=v,...]
                 [--jobs 1] [--sprt elo0,elo1[,alpha,beta]] [--verbose]
      The banqi engine at full strength (or a level) against the greedy player, a level, or
      another program speaking the banqi-engine protocol (an older build, for instance).
      Each deal is played twice, the engine first once and second once; --jobs plays that
      many pairs at once; --sprt stops when the test decides. Prints the engine's totals,
      its score, the pairs' five counts and the Elo they show.
  qi record check FILE...
      Each file's encoding and games: per game its format and moves read, or where it stopped
      and why (exit status 1 when a game stopped early).
  qi record convert --to FORMAT [--encoding LABEL] [--game N] FILE
      The file's games (or the Nth) written in FORMAT (see qi record formats) to standard
      output, in UTF-8 or the encoding LABEL (gbk, big5, utf-16le ...).
{puzzles}
{swiss}
  qi help | --help
      This text.

<game>: ",
    )
    .replace("{puzzles}", puzzles::USAGE)
    .replace("{swiss}", tournament::USAGE);
    text.push_str(&VARIANT_NAMES.join(", "));
    text.push_str(
        "
<position>: startpos, startpos:<seed> (the banqi deal, or the Chess960 start number 0-959),
            or a position string (FEN for chess and xiangqi; see crates/rules/README.md for banqi and gomoku)
[move]: coordinates (e2e4, h3e3, banqi c3 / c3-c4 / c3xc4, gomoku h8) or the game's notation
        (chess SAN Nf3, xiangqi WXF C2=5)

Rule options (--rules key=value,...; the first value is the default):
",
    );
    for variant in ["chess", "xiangqi", "banqi", "gomoku"] {
        let Ok((kind, _)) = parse_variant(variant) else { continue };
        for doc in rule_docs(kind) {
            let _ = writeln!(
                text,
                "  {variant:8} {}={:30} {}",
                doc.key,
                doc.values.join("|"),
                doc.help
            );
        }
    }
    text.push_str("\nExit status: 0 on success, 2 on bad input (one line on stderr says which argument and why).\n");
    text
}

fn run(args: &[String]) -> Result<String, ArgError> {
    let Some((command, rest)) = args.split_first() else {
        return Err(ArgError::new("", "no command given (see qi --help)"));
    };
    match command.as_str() {
        "perft" => perft(rest),
        "moves" => moves(rest),
        "play" => play(rest),
        "bench" => bench::run(rest).map_err(|e| ArgError::new("bench", e)),
        "match" => matches::run_match(rest).map_err(|e| ArgError::new("match", e)),
        "sprt" => matches::run_sprt(rest).map_err(|e| ArgError::new("sprt", e)),
        "datagen" => lab::run_datagen(rest).map_err(|e| ArgError::new("datagen", e)),
        "data" => lab::run_data(rest).map_err(|e| ArgError::new("data", e)),
        "tune" => lab::run_tune(rest).map_err(|e| ArgError::new("tune", e)),
        "train" => lab::run_train(rest).map_err(|e| ArgError::new("train", e)),
        "think" => think_command(rest),
        "puzzles" => puzzles::run(rest).map_err(|e| ArgError::new("puzzles", e)),
        "swiss" => tournament::run_swiss(rest).map_err(|e| ArgError::new("swiss", e)),
        "arena" => tournament::run_arena(rest).map_err(|e| ArgError::new("arena", e)),
        "review" => review_command(rest),
        "levels" => matches::run_levels(rest).map_err(|e| ArgError::new("levels", e)),
        "piskvork" => piskvork::run(rest).map_err(|e| ArgError::new("piskvork", e)),
        "match-gomoku" => match_gomoku::run(rest).map_err(|e| ArgError::new("match-gomoku", e)),
        "uci" => {
            uci::run();
            Ok(String::new())
        }
        "banqi-engine" => banqi_protocol::run().map_err(|e| ArgError::new("banqi-engine", e)),
        "match-banqi" => banqi_match::run(rest).map_err(|e| ArgError::new("match-banqi", e)),
        "help" | "--help" | "-h" => Ok(help()),
        _ => Err(ArgError::new(
            command,
            "unknown command (expected perft, moves, play, think, review, bench, match, sprt, datagen, data, tune, train, levels, puzzles, swiss, arena, piskvork, match-gomoku, uci, banqi-engine, match-banqi, record or help)",
        )),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = match std::env::args_os()
        .skip(1)
        .map(|arg| arg.into_string())
        .collect::<Result<Vec<String>, _>>()
    {
        Ok(args) => args,
        Err(arg) => {
            eprintln!("qi: {}: not valid UTF-8", shorten(&arg.to_string_lossy()));
            return ExitCode::from(USAGE_ERROR);
        }
    };
    // Records say per game whether each read through (exit status 1 when one did not).
    if args.first().is_some_and(|command| command == "record") {
        return record::main(&args[1..]);
    }
    match run(&args) {
        Ok(output) => {
            // A closed pipe (`qi moves ... | head`) is not an error worth a panic.
            let _ = std::io::Write::write_all(&mut std::io::stdout().lock(), output.as_bytes());
            ExitCode::SUCCESS
        }
        Err(ArgError { argument, reason }) => {
            let line = if argument.is_empty() {
                format!("qi: {reason}")
            } else {
                format!("qi: {argument}: {reason}")
            };
            // One line, whatever the arguments held: line breaks in them are shown escaped.
            eprintln!("{}", line.replace('\n', "\\n").replace('\r', "\\r"));
            ExitCode::from(USAGE_ERROR)
        }
    }
}
