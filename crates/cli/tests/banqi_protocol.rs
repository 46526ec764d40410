//! `qi banqi-engine` as a client drives it: the handshake, positions with flip results,
//! searches under each limit, `stop`, and bad input answered without a crash.

mod common;
use common::{Engine, bestmove};

#[test]
fn handshake_lists_the_rule_options() {
    let mut engine = Engine::start("banqi-engine");
    engine.send("banqi");
    let lines = engine.until("banqiok");
    assert_eq!(lines[0], "id name Qi");
    for key in ["ranks", "chain", "rush", "capture_hidden", "draw"] {
        assert!(lines.iter().any(|l| l.starts_with(&format!("option name {key} "))), "{key}");
    }
    engine.send("isready");
    assert_eq!(engine.line(), "readyok");
    engine.quit();
}

#[test]
fn searches_with_each_limit() {
    let mut engine = Engine::start("banqi-engine");
    engine.send("position startpos moves b2 c3");
    engine.send("go depth 1");
    let lines = engine.until("bestmove");
    assert!(lines.iter().any(|l| l.starts_with("info depth 1 score cp ")), "{lines:?}");
    engine.send("go nodes 2000");
    let lines = engine.until("bestmove");
    let nodes: Vec<u64> = lines
        .iter()
        .filter_map(|l| l.split(" nodes ").nth(1)?.split(' ').next()?.parse().ok())
        .collect();
    assert!(nodes.iter().all(|&n| n <= 2000), "{lines:?}");
    engine.send("go movetime 200");
    let lines = engine.until("bestmove");
    assert_ne!(bestmove(&lines), "(none)");
    engine.quit();
}

#[test]
fn a_free_capture_is_taken() {
    let mut engine = Engine::start("banqi-engine");
    engine.send("position *p*a6/1Nc5/8/7k 1 r 0");
    engine.send("go depth 4");
    assert_eq!(bestmove(&engine.until("bestmove")), "b3-c3");
    engine.quit();
}

#[test]
fn flips_carry_their_result() {
    let mut engine = Engine::start("banqi-engine");
    let hidden = "????????/????????/????????/???????? 1 - 0 KAABBRRNNCCPPPPPkaabbrrnnccppppp";
    // Red general on b2, then a black soldier on b3: the general may not take a soldier, so
    // red's moves are flips and general steps; the soldier threatens the general.
    engine.send(&format!("position {hidden} moves b2=K b3=p"));
    engine.send("go depth 2");
    let best = bestmove(&engine.until("bestmove"));
    assert_ne!(best, "(none)");
    // A flip without its result on an unknown square is an error, and so is an impossible one.
    engine.send(&format!("position {hidden} moves b2"));
    assert!(engine.line().starts_with("info string error move 1 b2"));
    engine.send(&format!("position {hidden} moves b2=K c2=K"));
    assert!(engine.line().starts_with("info string error move 2 c2=K"));
    engine.send(&format!("position {hidden} moves b2=X"));
    assert!(engine.line().starts_with("info string error"));
    // On a dealt position the pieces are known, so plain flips are fine; a wrong result is not.
    engine.send("position startpos:3 moves a1 b1");
    engine.send("position startpos moves b2=R");
    assert!(engine.line().starts_with("info string error"));
    engine.send("isready");
    assert_eq!(engine.line(), "readyok");
    engine.quit();
}

#[test]
fn rule_options_are_set() {
    let mut engine = Engine::start("banqi-engine");
    engine.send("setoption name chain value true");
    engine.send("position 1Rnn4/8/8/7P 1 r 0");
    engine.send("go depth 3");
    assert_eq!(bestmove(&engine.until("bestmove")), "b4-c4");
    engine.send("position 1Rnn4/8/8/7P 1 r 0 moves b4-c4");
    engine.send("go depth 3");
    assert_eq!(bestmove(&engine.until("bestmove")), "c4-d4");
    engine.send("setoption name rush value maybe");
    assert!(engine.line().starts_with("info string error"));
    engine.send("setoption name colour value red");
    assert!(engine.line().starts_with("info string error"));
    engine.quit();
}

#[test]
fn stop_ends_an_infinite_search() {
    let mut engine = Engine::start("banqi-engine");
    engine.send("position startpos moves d2 e3");
    engine.send("go infinite");
    std::thread::sleep(std::time::Duration::from_millis(200));
    engine.send("isready");
    assert_eq!(engine.until("readyok").last().map(String::as_str), Some("readyok"));
    // Without the stop the search would never end (the watchdog would fail the test).
    engine.send("stop");
    let lines = engine.until("bestmove");
    assert_ne!(bestmove(&lines), "(none)");
    engine.quit();
}

#[test]
fn a_finished_game_has_no_best_move() {
    let mut engine = Engine::start("banqi-engine");
    engine.send("position K7/8/8/8 2 r 0");
    engine.send("go depth 3");
    assert_eq!(bestmove(&engine.until("bestmove")), "(none)");
    engine.quit();
}

#[test]
fn bad_input_gets_an_error_line() {
    let mut engine = Engine::start("banqi-engine");
    for line in [
        "frobnicate",
        "position",
        "position 9/8/8/8 1 r 0",
        "position startpos:x",
        "position startpos moves z9",
        "go depth",
        "go nodes many",
        "go sideways 3",
        "setoption",
        "setoption name draw value 5",
    ] {
        engine.send(line);
        let reply = engine.line();
        assert!(reply.starts_with("info string error "), "{line}: {reply}");
    }
    engine.send("\u{0}\u{7f} ?");
    assert!(engine.line().starts_with("info string error "));
    engine.send("isready");
    assert_eq!(engine.line(), "readyok");
    engine.quit();
}
