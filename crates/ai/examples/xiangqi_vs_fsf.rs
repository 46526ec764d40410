//! Plays the xiangqi engine against Fairy-Stockfish (UCI) at a fixed time per move.
//! `cargo run --release -p qi-ai --example xiangqi_vs_fsf -- GAMES MOVETIME_MS [SEED] [FSF_PATH]`
//! or `... -- bench MS [FEN]` to search one position and print the reports.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::atomic::AtomicBool;

use qi_ai::search::{Budget, Limits, native_clock};
use qi_ai::{Engine, xiangqi::XiangqiEngine};
use qi_rules::xiangqi::{Xiangqi, XiangqiRules};
use qi_rules::{Game, Side};

fn ours(engine: &mut XiangqiEngine, game: &Xiangqi, ms: f64, verbose: bool) -> (String, u32) {
    let clock = native_clock();
    let stop = AtomicBool::new(false);
    let mut budget = Budget::new(Limits { time_ms: Some(ms), ..Limits::default() }, &clock, &stop);
    let result = engine.search(game, &mut budget, &mut |info| {
        if verbose {
            println!(
                "depth {} score {:?} nodes {} time {:.0} nps {:.0} pv {}",
                info.depth,
                info.score,
                info.nodes,
                info.time_ms,
                info.nodes as f64 / info.time_ms.max(1.0) * 1000.0,
                info.pv.iter().map(ToString::to_string).collect::<Vec<_>>().join(" ")
            );
        }
    });
    (result.best.expect("a move").to_string(), result.info.depth)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("bench") {
        let ms: f64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1000.0);
        // A FEN, or "moves" and the moves from the start.
        let game = match args.get(2).map(String::as_str) {
            Some("moves") => {
                let mut game = Xiangqi::start(&XiangqiRules::default(), 0);
                for text in &args[3..] {
                    let mv = game.read_move(text).unwrap();
                    game.play_unchecked(mv);
                }
                game
            }
            Some(fen) => Xiangqi::from_position(&XiangqiRules::default(), fen).unwrap(),
            None => Xiangqi::start(&XiangqiRules::default(), 0),
        };
        let mut engine = XiangqiEngine::new();
        let (best, _) = ours(&mut engine, &game, ms, true);
        println!("bestmove {best}");
        return;
    }
    let games: u32 = args.first().and_then(|s| s.parse().ok()).unwrap_or(10);
    let ms: f64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(100.0);
    let mut seed: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let path = args.get(3).cloned().unwrap_or_else(|| "/usr/games/fairy-stockfish".into());
    let mut child = Command::new(path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("fairy-stockfish runs");
    let mut input = child.stdin.take().unwrap();
    let mut output = BufReader::new(child.stdout.take().unwrap());
    let mut send = |text: &str| writeln!(input, "{text}").unwrap();
    let mut read_until = |prefix: &str| -> String {
        let mut line = String::new();
        loop {
            line.clear();
            output.read_line(&mut line).unwrap();
            if line.starts_with(prefix) {
                return line.trim().to_string();
            }
        }
    };
    send("uci");
    read_until("uciok");
    send("setoption name UCI_Variant value xiangqi");
    send("isready");
    read_until("readyok");
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    let mut engine = XiangqiEngine::new();
    let mut depth_sum = 0u64;
    let mut our_moves = 0u64;
    for n in 0..games {
        let our_side = if n % 2 == 0 { Side::First } else { Side::Second };
        // Pairs of games share a random two-ply opening.
        if n % 2 == 0 {
            seed = qi_rules::zobrist::splitmix64(seed);
        }
        let mut game = Xiangqi::start(&XiangqiRules::default(), 0);
        let mut s = seed;
        for _ in 0..2 {
            let moves = game.legal_moves();
            s = qi_rules::zobrist::splitmix64(s);
            game.play_unchecked(moves[(s % moves.len() as u64) as usize]);
        }
        engine.new_game();
        send("ucinewgame");
        let mut texts: Vec<String> = game.history().iter().map(|m| game.move_text(*m)).collect();
        let outcome = loop {
            if let Some(outcome) = game.outcome() {
                break Some(outcome);
            }
            if texts.len() >= 300 {
                break None;
            }
            let text = if game.side_to_move() == our_side {
                let (mv, depth) = ours(&mut engine, &game, ms, false);
                depth_sum += u64::from(depth);
                our_moves += 1;
                mv
            } else {
                send(&format!("position startpos moves {}", texts.join(" ")));
                send(&format!("go movetime {}", ms as u64));
                let line = read_until("bestmove");
                line.split_whitespace().nth(1).unwrap().to_string()
            };
            let mv = game.read_move(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
            game.play_unchecked(mv);
            texts.push(text);
        };
        let result = match outcome.as_ref().and_then(|o| o.winner) {
            Some(w) if w == our_side => {
                wins += 1;
                "win"
            }
            Some(_) => {
                if outcome.as_ref().is_some_and(|o| o.reason != qi_rules::EndReason::Checkmate) {
                    println!("moves: {}", texts.join(" "));
                }
                losses += 1;
                "loss"
            }
            None => {
                draws += 1;
                "draw"
            }
        };
        println!(
            "game {} as {:?}: {result} ({:?}) after {} plies; +{wins} ={draws} -{losses}",
            n + 1,
            our_side,
            outcome.map(|o| o.reason),
            texts.len()
        );
    }
    let score = (wins as f64 + draws as f64 / 2.0) / f64::from(games);
    let elo =
        if score > 0.0 && score < 1.0 { -400.0 * (1.0 / score - 1.0).log10() } else { f64::NAN };
    println!(
        "result +{wins} ={draws} -{losses}: score {:.1}% elo {elo:.0}; our mean depth {:.1}",
        score * 100.0,
        depth_sum as f64 / our_moves.max(1) as f64
    );
    send("quit");
    child.wait().ok();
}
