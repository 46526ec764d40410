//! The `qi` binary as scripts use it: output formats, exit statuses and error lines.

use std::process::{Command, Output};

fn qi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_qi")).args(args).output().expect("qi runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 output")
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("UTF-8 errors")
}

#[test]
fn perft_prints_the_leaf_count_last() {
    for (args, count) in [
        (&["perft", "chess", "startpos", "3"][..], "8902"),
        (&["perft", "xiangqi", "startpos", "3"], "79666"),
        (&["perft", "gomoku", "startpos", "2"], "50400"),
        (&["perft", "gomoku", "startpos", "1", "--rules", "size=19"], "361"),
    ] {
        let output = qi(args);
        assert!(output.status.success(), "{args:?}: {}", stderr(&output));
        assert_eq!(stdout(&output).lines().last(), Some(count), "{args:?}");
    }
}

#[test]
fn perft_divide_lists_each_move_then_the_total() {
    let output = qi(&["perft", "xiangqi", "startpos", "2", "--divide"]);
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 45);
    assert!(lines.contains(&"h3e3: 45"), "{text}");
    assert_eq!(lines.last(), Some(&"1920"));

    // Bare kings: the game is drawn, yet perft counts the king moves, and so does divide.
    let bare = "8/8/8/8/8/8/8/K6k w - - 0 1";
    let plain = stdout(&qi(&["perft", "chess", bare, "1"]));
    let divided = stdout(&qi(&["perft", "chess", bare, "1", "--divide"]));
    assert_eq!(plain.trim(), "3");
    assert_eq!(divided.lines().last(), Some("3"));
    assert_eq!(stdout(&qi(&["perft", "chess", "startpos", "0", "--divide"])).trim(), "1");
}

#[test]
fn moves_lists_legal_moves_after_the_given_ones() {
    let output = qi(&["moves", "chess", "startpos", "e2e4", "e7e5", "Nf3"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert_eq!(text.lines().count(), 29);
    assert!(text.lines().any(|line| line == "b8c6"));

    let output = qi(&["moves", "xiangqi", "startpos"]);
    assert_eq!(stdout(&output).lines().count(), 44);
    assert!(stdout(&output).lines().any(|line| line == "h3e3"));

    let output = qi(&["moves", "banqi", "startpos:42"]);
    assert_eq!(stdout(&output).lines().count(), 32, "every face-down piece can be flipped");
}

#[test]
fn play_prints_position_then_outcome() {
    let output = qi(&["play", "chess", "startpos", "f2f3", "e7e5", "g2g4", "Qh4"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
    assert_eq!(lines[1], "black wins by checkmate");

    let output = qi(&["play", "xiangqi", "startpos", "h3e3"]);
    assert_eq!(stdout(&output).lines().nth(1), Some("ongoing"));

    let five = ["play", "gomoku", "startpos", "h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4", "l8"];
    let text = stdout(&qi(&five));
    assert!(
        text.lines().nth(1).unwrap().starts_with("black wins by five in a row (h8 i8 j8 k8 l8)"),
        "{text}"
    );
}

#[test]
fn rules_change_the_game() {
    let renju = ["moves", "gomoku", "startpos", "--rules", "rule=renju,size=19"];
    let output = qi(&renju);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(stdout(&output).lines().count(), 361);
}

/// Bad input: exit status 2, nothing on stdout, exactly one line on stderr that names the
/// offending argument.
#[test]
fn bad_input_names_the_argument_and_exits_with_2() {
    let long = "x".repeat(100_000);
    let cases: &[(&[&str], &str)] = &[
        (&[], "no command"),
        (&["dance"], "dance"),
        (&["perft", "checkers", "startpos", "2"], "checkers"),
        (&["perft", "chess", "startpos", "deep"], "deep"),
        (&["perft", "chess", "startpos", "99"], "99"),
        (&["perft", "chess", "startpos"], "usage"),
        (&["moves", "chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1"], "board"),
        (&["moves", "chess", "startpos", "e2e5"], "e2e5"),
        (&["moves", "chess", "startpos", "e2e4", "e2e4"], "move 2"),
        (&["play", "chess", "startpos", "zz"], "zz"),
        (&["play", "xiangqi", "startpos", "h1g3", "b10c8", "g3e4"], "leg"),
        (&["play", "gomoku", "startpos", "p16"], "p16"),
        (&["play", "gomoku", "startpos", "--rules", "rule=rengu"], "rengu"),
        (&["play", "gomoku", "startpos", "--rules", "colour=red"], "colour"),
        (&["play", "banqi", "startpos:many"], "many"),
        (&["play", "chess", "startpos", "--frobnicate"], "--frobnicate"),
        (&["play", "chess", &long], "too long"),
        (&["moves", "xiangqi", "startpos", "你好"], "你好"),
        (&["play", "chess", "startpos", "e2\ne4"], "e2\\ne4"),
        (&["play", "che\nss", "startpos"], "che\\nss"),
        (&["perft", "gomoku", "startpos", "5"], "too deep"),
        (&["perft", "chess", "startpos", "11"], "too deep"),
        (&["play", "banqi", "8/8/8/8 1 - 0"], "no pieces"),
        (&["review", "chess", "startpos", "e4", "Nc7"], "move 2"),
        (&["review", "chess", "startpos", "e4", "--check", "0"], "30000"),
        (&["review", "chess", "startpos", "--movetime"], "needs a number"),
        (&["review", "xiangqi"], "expected <game> <position>"),
    ];
    for (args, mentions) in cases {
        let output = qi(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(output.stdout.is_empty(), "{args:?}");
        let err = stderr(&output);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("qi: "), "{err}");
        assert!(err.contains(mentions), "{args:?}: {err:?} should mention {mentions:?}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn review_judges_every_move_and_checks_the_doubtful_ones() {
    // 1. e4 e5 2. Nf3 Qg5?? 3. Nxg5 in SAN: the record is kept in coordinates.
    let output = qi(&[
        "review",
        "chess",
        "startpos",
        "e4",
        "e5",
        "Nf3",
        "Qg5",
        "Nxg5",
        "--movetime",
        "100",
        "--check",
        "150",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 5 + 3, "{text}");
    assert!(lines[3].starts_with("move   4 d8g5     blunder"), "{text}");
    assert!(lines[3].contains("checked: first pass"), "{text}");
    assert!(lines[5].starts_with("first player: best"), "{text}");
    assert!(lines[6].contains("blunder 1;"), "{text}");
    assert!(lines[7].starts_with("reviewed 6 positions and checked"), "{text}");
}

#[test]
fn help_lists_games_and_rule_options() {
    let output = qi(&["--help"]);
    assert!(output.status.success());
    let text = stdout(&output);
    for word in ["chess960", "xiangqi", "banqi", "gomoku", "rule=", "size=", "variant="] {
        assert!(text.contains(word), "help should mention {word}");
    }
}

/// `qi match` between two copies of our own engines: Gomocup engines for gomoku (as against
/// Rapfi), two games at once, every game reported and the total adding up.
#[test]
fn match_plays_piskvork_and_uci_engines_several_games_at_once() {
    let binary = env!("CARGO_BIN_EXE_qi");
    for (variant, protocol, games) in [("gomoku", "piskvork", "4"), ("chess", "uci", "2")] {
        let engine = format!("{binary} {protocol}");
        let output = Command::new(binary)
            .args(["match", "--variant", variant, "--games", games, "--movetime", "20"])
            .args(["--jobs", "2", "--first", &engine, "--second", &engine])
            .output()
            .expect("qi runs");
        let text = stdout(&output);
        assert!(output.status.success(), "{variant}: {}{text}", stderr(&output));
        let played = text.lines().filter(|l| l.starts_with("game ")).count();
        assert_eq!(played.to_string(), games, "{text}");
        assert!(!text.contains("forfeit"), "{text}");
        let summary = text.lines().last().expect("a summary");
        assert!(summary.contains(&format!("({variant}, 20 ms/move, {games} games)")), "{summary}");
    }
    // Swap2: the engines open the games themselves through `SWAP2BOARD`, each opening one.
    let engine = format!("{binary} piskvork");
    let output = Command::new(binary)
        .args(["match", "--variant", "gomoku", "--rules", "opening=swap2", "--games", "2"])
        .args(["--movetime", "20", "--first", &engine, "--second", &engine])
        .output()
        .expect("qi runs");
    let text = stdout(&output);
    assert!(output.status.success(), "swap2: {}{text}", stderr(&output));
    assert!(!text.contains("forfeit"), "{text}");
    for (game, role) in [(1, "opens"), (2, "answers the opening")] {
        let line = text.lines().find(|l| l.starts_with(&format!("game   {game}"))).expect("played");
        assert!(line.contains(role) && line.contains("(opening: "), "{line}");
        // Three stones and at least a colour.
        let opening = line.split("(opening: ").nth(1).unwrap_or_default();
        assert!(opening.contains("black") || opening.contains("white"), "{line}");
    }
    // Gomocup has no rule code for renju under swap2: said before any engine starts.
    let output = qi(&["match", "--variant", "gomoku", "--rules", "rule=renju,opening=swap2"]);
    assert!(stderr(&output).contains("no rule code"), "{}", stderr(&output));
    // A bad engine command is reported, not a panic.
    let output = qi(&["match", "--variant", "gomoku", "--games", "1", "--second", "/nonexistent"]);
    assert!(!output.status.success());
    assert!(stderr(&output).contains("cannot start"), "{}", stderr(&output));
    let output = qi(&["match", "--jobs", "0"]);
    assert!(stderr(&output).contains("--jobs"), "{}", stderr(&output));
}

/// `qi match --draw` and `--resign` call games from the engines' `info` scores: a draw band as
/// wide as any score calls every game on its first moves; a resign run of one move at 1 cp calls
/// a game as soon as the engines disagree by that much, and the score adds up either way.
#[test]
fn match_adjudicates_games_from_the_engines_scores() {
    let binary = env!("CARGO_BIN_EXE_qi");
    let engine = format!("{binary} uci");
    let play = |extra: &[&str]| {
        let output = Command::new(binary)
            .args(["match", "--games", "2", "--movetime", "20", "--first", &engine])
            .args(["--second", &engine])
            .args(extra)
            .output()
            .expect("qi runs");
        assert!(output.status.success(), "{}", stderr(&output));
        stdout(&output)
    };
    let text = play(&["--draw", "1/1/99999"]);
    let called = text.lines().filter(|l| l.contains("draw by adjudication (both scores")).count();
    assert_eq!(called, 2, "{text}");
    assert!(text.lines().last().unwrap_or_default().contains("+0 =2 -0"), "{text}");

    let text = play(&["--resign", "1/1"]);
    let games: Vec<&str> = text.lines().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(games.len(), 2, "{text}");
    assert!(games.iter().any(|l| l.contains("adjudicated:") && l.contains("loses")), "{text}");

    for (bad, says) in [("--resign", "MOVES/CP"), ("--draw", "FROM_MOVE/MOVES/CP")] {
        let output = qi(&["match", bad, "9"]);
        assert!(!output.status.success());
        assert!(stderr(&output).contains(says), "{}", stderr(&output));
    }
    let output = qi(&["match", "--variant", "gomoku", "--resign", "4/1000"]);
    assert!(stderr(&output).contains("chess and xiangqi only"), "{}", stderr(&output));
}

/// The resign rule calls the game against the engine that says it is lost, whichever colour
/// it has: two `qi uci`s whose every score is rewritten, one always +5000 and one always -5000
/// (by a POSIX shell script, so Unix only).
#[cfg(unix)]
#[test]
fn match_resigns_for_the_engine_whose_scores_say_it_is_lost() {
    /// A directory of the test's own, gone when the test ends (passed or failed).
    struct Scratch(std::path::PathBuf);
    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
    let binary = env!("CARGO_BIN_EXE_qi");
    let dir = Scratch(std::env::temp_dir().join(format!("qi-resign-test-{}", std::process::id())));
    std::fs::create_dir_all(&dir.0).expect("a temporary directory");
    let script = dir.0.join("scored-uci.sh");
    // `$1` is qi, `$2` the score every info line will carry (mates too).
    std::fs::write(
        &script,
        r#"#!/bin/sh
"$1" uci | while IFS= read -r line; do
  case $line in
    *" score "*)
      rest=${line#* score }; rest=${rest#* }; rest=${rest#* }
      line="${line%% score *} score cp $2 $rest" ;;
  esac
  printf '%s\n' "$line"
done
"#,
    )
    .expect("the script is written");
    let engine = |score: &str| format!("sh {} {binary} {score}", script.display());
    let (sure, doomed) = (engine("5000"), engine("-5000"));
    for (first, second, tally) in [(&sure, &doomed, "+2 =0 -0"), (&doomed, &sure, "+0 =0 -2")] {
        let output = Command::new(binary)
            .args(["match", "--games", "2", "--movetime", "20", "--resign", "2/1000"])
            .args(["--first", first, "--second", second])
            .output()
            .expect("qi runs");
        assert!(output.status.success(), "{}", stderr(&output));
        let text = stdout(&output);
        let games: Vec<&str> = text.lines().filter(|l| l.starts_with("game ")).collect();
        assert_eq!(games.len(), 2, "{text}");
        // The colours swap between the two games, and the doomed engine loses both.
        assert!(games[0].contains(&format!("{first} moves first")), "{text}");
        assert!(games[1].contains(&format!("{first} moves second")), "{text}");
        for game in games {
            assert!(game.contains(&format!("adjudicated: {doomed} loses")), "{text}");
        }
        assert!(text.lines().last().unwrap_or_default().contains(tally), "{text}");
    }
}

/// The lab's commands end to end: self-play into a file, its summary, appending only when asked,
/// tuning on it (without --write: the weights files stay as they are), and bad input refused.
#[test]
fn datagen_data_and_tune_work_together() {
    let dir = std::env::temp_dir().join(format!("qi-lab-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let file = dir.join("chess.qid");
    let path = file.to_str().expect("a UTF-8 path");
    let output =
        qi(&["datagen", "--game", "chess", "--out", path, "--games", "4", "--nodes", "200"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).starts_with("4 games, "), "{}", stdout(&output));
    // The same file again: refused without --append, added to with it.
    let again =
        qi(&["datagen", "--game", "chess", "--out", path, "--games", "2", "--nodes", "200"]);
    assert!(stderr(&again).contains("--append"), "{}", stderr(&again));
    let more = qi(&[
        "datagen", "--game", "chess", "--out", path, "--games", "2", "--nodes", "200", "--append",
        "--seed", "2", "--jobs", "2",
    ]);
    assert!(more.status.success(), "{}", stderr(&more));
    let summary = qi(&["data", path]);
    assert!(stdout(&summary).contains(": chess 6 games, "), "{}", stdout(&summary));
    let tuned =
        qi(&["tune", "--game", "chess", "--data", path, "--epochs", "20", "--threads", "1"]);
    assert!(tuned.status.success(), "{}", stderr(&tuned));
    assert!(stdout(&tuned).contains("held-out games' results"), "{}", stdout(&tuned));
    // Xiangqi positions are not in a chess file.
    let wrong = qi(&["tune", "--game", "xiangqi", "--data", path]);
    assert!(stderr(&wrong).contains("no xiangqi positions"), "{}", stderr(&wrong));
    // Openings judged off balance are drawn again; a seed whose twenty tries all are is given
    // up, and counted rather than passed over in silence.
    let strict = dir.join("strict.qid");
    let strict = strict.to_str().expect("a UTF-8 path");
    let given_up = qi(&[
        "datagen",
        "--game",
        "gomoku",
        "--out",
        strict,
        "--games",
        "2",
        "--nodes",
        "300",
        "--max-opening",
        "1",
    ]);
    assert!(given_up.status.success(), "{}", stderr(&given_up));
    assert!(stdout(&given_up).contains("seeds given up"), "{}", stdout(&given_up));
    let refused = qi(&["datagen", "--game", "gomoku", "--out", strict, "--max-opening", "0"]);
    assert!(stderr(&refused).contains("--max-opening"), "{}", stderr(&refused));
    // Gomoku's shape tables and banqi's weights are tuned the same way.
    for game in ["gomoku", "banqi"] {
        let file = dir.join(format!("{game}.qid"));
        let path = file.to_str().expect("a UTF-8 path");
        let made =
            qi(&["datagen", "--game", game, "--out", path, "--games", "6", "--nodes", "300"]);
        assert!(made.status.success(), "{game}: {}", stderr(&made));
        let tuned =
            qi(&["tune", "--game", game, "--data", path, "--epochs", "5", "--threads", "1"]);
        assert!(tuned.status.success(), "{game}: {}", stderr(&tuned));
        assert!(stdout(&tuned).starts_with(&format!("{game}: ")), "{}", stdout(&tuned));
    }
    // A network trained on the same data, on top of the hand-written evaluation, written in
    // the engine's format (its flags byte says "on top").
    let net = dir.join("chess.qnn");
    let net_path = net.to_str().expect("a UTF-8 path");
    let trained = qi(&[
        "train",
        "--game",
        "chess",
        "--data",
        path,
        "--out",
        net_path,
        "--epochs",
        "2",
        "--batch",
        "64",
        "--threads",
        "1",
        "--mirror",
        "--on-top",
    ]);
    assert!(trained.status.success(), "{}", stderr(&trained));
    assert!(stdout(&trained).contains("wrote "), "{}", stdout(&trained));
    let bytes = std::fs::read(&net).expect("the network was written");
    assert_eq!(&bytes[..6], b"QINET1");
    assert_eq!(bytes[7], 1, "trained on top of the hand-written evaluation");
    for (args, says) in [
        (vec!["train", "--game", "chess", "--data", path], "--out FILE is needed"),
        (vec!["train", "--game", "banqi", "--data", path, "--out", net_path], "no network yet"),
        (vec!["train", "--data", path, "--out", net_path, "--rate", "7"], "--rate"),
        (vec!["train", "--data", path, "--out", net_path, "--batch", "0"], "--batch"),
        (vec!["train", "--data", path, "--out", net_path, "--sideways"], "unknown train argument"),
    ] {
        let refused = qi(&args);
        assert_eq!(refused.status.code(), Some(2), "{args:?}");
        assert!(stderr(&refused).contains(says), "{args:?}: {}", stderr(&refused));
    }
    // A file that is not data, and a damaged one.
    let junk = dir.join("junk.qid");
    std::fs::write(&junk, b"not a data file").expect("written");
    let output = qi(&["data", junk.to_str().expect("UTF-8")]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("not a Qi data file"), "{}", stderr(&output));
    let mut bytes = std::fs::read(&file).expect("read");
    bytes.truncate(bytes.len() - 5);
    let cut = dir.join("cut.qid");
    std::fs::write(&cut, bytes).expect("written");
    let output = qi(&["data", cut.to_str().expect("UTF-8")]);
    assert!(stderr(&output).contains("game 6: at byte"), "{}", stderr(&output));
    for (args, says) in [
        (&["datagen", "--game", "chess"][..], "--out"),
        (&["datagen", "--game", "go", "--out", "x"][..], "go"),
        (&["datagen", "--out", "x", "--nodes", "0"][..], "--nodes"),
        (&["tune", "--game", "chess"][..], "--data"),
        (&["tune", "--data", path, "--lambda", "2"][..], "--lambda"),
        (&["data"][..], "data file"),
    ] {
        let output = qi(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(stderr(&output).contains(says), "{args:?}: {}", stderr(&output));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `qi match --nodes` gives each move a node count, and `--book` takes its openings in order.
#[test]
fn match_plays_by_nodes_from_a_book() {
    let binary = env!("CARGO_BIN_EXE_qi");
    let engine = format!("{binary} uci");
    let book = std::env::temp_dir().join(format!("qi-book-{}.txt", std::process::id()));
    std::fs::write(&book, "# a comment\ne2e4 e7e5 g1f3  # the king's knight\nd2d4 d7d5\n")
        .expect("written");
    let output = Command::new(binary)
        .args(["match", "--games", "2", "--nodes", "300", "--book", book.to_str().expect("UTF-8")])
        .args(["--first", &engine, "--second", &engine])
        .output()
        .expect("qi runs");
    let text = stdout(&output);
    assert!(output.status.success(), "{}{text}", stderr(&output));
    assert!(text.contains("opening e2e4 e7e5 g1f3;"), "{text}");
    assert!(text.lines().last().unwrap_or_default().contains("300 nodes/move"), "{text}");
    std::fs::write(&book, "e2e5\n").expect("written");
    let output = qi(&["match", "--book", book.to_str().expect("UTF-8")]);
    assert!(stderr(&output).contains("--book: opening 1: e2e5"), "{}", stderr(&output));
    let output = qi(&["match", "--variant", "gomoku", "--nodes", "100"]);
    assert!(stderr(&output).contains("chess and xiangqi"), "{}", stderr(&output));
    let _ = std::fs::remove_file(&book);
}

/// A data file whose last game was cut off (a stopped run): `qi data` summarises the games
/// before and says where the damage is; `qi datagen --append` cuts it back before adding.
#[test]
fn a_damaged_data_file_is_summarised_and_cut_back_when_appended_to() {
    let dir = std::env::temp_dir().join(format!("qi-lab-damage-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let file = dir.join("xq.qid");
    let path = file.to_str().expect("a UTF-8 path");
    let made =
        qi(&["datagen", "--game", "xiangqi", "--out", path, "--games", "3", "--nodes", "150"]);
    assert!(made.status.success(), "{}", stderr(&made));
    let mut bytes = std::fs::read(&file).expect("read");
    bytes.truncate(bytes.len() - 7);
    std::fs::write(&file, &bytes).expect("written");
    let output = qi(&["data", path]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stdout(&output).contains("xiangqi 2 games"), "{}", stdout(&output));
    assert!(stderr(&output).contains("game 3: at byte"), "{}", stderr(&output));
    let more = qi(&[
        "datagen", "--game", "xiangqi", "--out", path, "--games", "1", "--nodes", "150",
        "--append", "--seed", "9",
    ]);
    assert!(more.status.success(), "{}", stderr(&more));
    assert!(stderr(&more).contains("cut back to its last complete game"), "{}", stderr(&more));
    let output = qi(&["data", path]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains("xiangqi 3 games"), "{}", stdout(&output));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `qi match-banqi` plays each deal twice with the sides swapped, a pair at a time on each job,
/// and reports the pairs; an SPRT stops it once decided; bad settings are refused.
#[test]
fn match_banqi_plays_pairs_and_can_stop_on_an_sprt() {
    let output = qi(&[
        "match-banqi",
        "--games",
        "6",
        "--nodes",
        "300",
        "--opponent",
        "greedy",
        "--jobs",
        "2",
        "--verbose",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let out = stdout(&output);
    assert!(out.contains("of 6 games"), "{out}");
    let counts = out.split("pairs (0, ½, 1, 1½, 2 points): ").nth(1).expect("the pairs line");
    let counts: u32 = counts
        .split([',', '\n'])
        .next()
        .unwrap()
        .split('/')
        .map(|c| c.parse::<u32>().unwrap())
        .sum();
    assert_eq!(counts, 3, "{out}");
    // Each deal twice, once with each side first.
    let games = stderr(&output);
    for deal in 1..=3 {
        let firsts: Vec<&str> = games
            .lines()
            .filter(|l| l.contains(&format!(": deal {deal}, ")))
            .map(|l| l.split(", ").nth(1).unwrap())
            .collect();
        assert_eq!(firsts.len(), 2, "{games}");
        assert_ne!(firsts[0], firsts[1], "{games}");
    }
    // Full strength against greedy play is decided within a few dozen pairs: with --sprt and no
    // --games, the match runs until the test decides (20,000 games at most).
    let sprt = qi(&["match-banqi", "--nodes", "300", "--opponent", "greedy", "--sprt", "0,100"]);
    assert!(sprt.status.success(), "{}", stderr(&sprt));
    assert!(stdout(&sprt).contains("sprt: H1 accepted after "), "{}", stdout(&sprt));
    for bad in [["--games", "5"], ["--jobs", "0"], ["--sprt", "10,0"]] {
        let refused = qi(&["match-banqi", bad[0], bad[1]]);
        assert!(!refused.status.success(), "{bad:?}");
    }
}

/// A lichess puzzle row (CC0) and rows that are not puzzles.
const PUZZLE_ROWS: &str = "PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags
00sHx,q3k1nr/1pp1nQpp/3p4/1P2p3/4P3/B1PP1b2/B5PP/5K2 b k - 0 17,e8d7 a2e6 d7d8 f7f8,1760,80,83,72,mate mateIn2 middlegame short,https://lichess.org/yyznGmXs/black#34,Italian_Game
bad1,q3k1nr/1pp1nQpp/3p4/1P2p3/4P3/B1PP1b2/B5PP/5K2 b k - 0 17,e8d7 a2e9,1760,80,83,72,,,
bad2,not a position,e2e4 e7e5,1500,80,0,0,,,
";

#[test]
fn puzzles_import_reports_each_bad_row_and_export_writes_the_rest_back() {
    let dir = std::env::temp_dir().join(format!("qi-puzzles-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let incoming = dir.join("lichess.csv");
    let database = dir.join("chess.csv");
    std::fs::write(&incoming, PUZZLE_ROWS).unwrap();
    let (incoming, database) = (incoming.to_str().unwrap(), database.to_str().unwrap());
    let output = qi(&["puzzles", "import", "chess", incoming, "--file", database]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).starts_with("1 puzzles added"), "{}", stdout(&output));
    let errors = stderr(&output);
    assert!(
        errors.contains(":3: move 2 (a2e9): ")
            && errors.contains(":4: the position cannot be read"),
        "{errors}"
    );
    let output = qi(&["puzzles", "export", "chess", "--file", database]);
    let lines: Vec<String> = stdout(&output).lines().map(str::to_owned).collect();
    assert_eq!(lines, PUZZLE_ROWS.lines().take(2).collect::<Vec<_>>());
    // The same file again adds nothing: its id is there already.
    let output = qi(&["puzzles", "import", "chess", incoming, "--file", database]);
    assert!(stdout(&output).starts_with("0 puzzles added"), "{}", stdout(&output));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn puzzles_refuse_bad_arguments_with_one_line() {
    for (args, says) in [
        (&["puzzles"][..], "expected generate"),
        (&["puzzles", "solve", "chess"], "“solve”"),
        (&["puzzles", "export"], "which game"),
        (&["puzzles", "export", "draughts"], "draughts"),
        (&["puzzles", "generate", "chess", "--count", "many"], "--count"),
        (&["puzzles", "check", "banqi"], "no referee for banqi"),
        (&["puzzles", "import", "chess", "/no/such/file.csv"], "/no/such/file.csv"),
    ] {
        let output = qi(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(stderr(&output).contains(says), "{args:?}: {}", stderr(&output));
    }
}

#[test]
fn puzzles_are_made_from_a_record_files_games() {
    let dir = std::env::temp_dir().join(format!("qi-puzzles-records-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let database = dir.join("chess.csv");
    let records = concat!(env!("CARGO_MANIFEST_DIR"), "/../play/src/records/testdata/immortal.pgn");
    let args = ["puzzles", "generate", "chess", "--records", records, "--no-referee"];
    let output = qi(&[&args[..], &["--file", database.to_str().unwrap()]].concat());
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).starts_with("1 puzzles added"), "{}", stdout(&output));
    let file = std::fs::read_to_string(&database).unwrap();
    // The second game's 2.g4?? allows mate at once: a puzzle, mate in one, with its game's link.
    assert!(file.contains(",g2g4 d8h4,1000,300,0,0,mate mateIn1 oneMove,?game=chess&"), "{file}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_gomocup_referee_judges_gomoku_puzzles() {
    // A stand-in for Rapfi (its build lives outside the checkout: scripts/puzzle-referees runs
    // the real one) that answers `YXNBEST 2` as Rapfi does: line by line with a second line
    // where it searches, its closing summary alone where its threat search settles the
    // position, nothing but the move for a five. Its moves are ii1j4's solution: g8, f9, c12.
    let dir = std::env::temp_dir().join(format!("qi-puzzles-gomocup-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let engine = dir.join("fake-rapfi.sh");
    let script = r#"#!/bin/sh
n=0
while read -r line; do
  case "$line" in
    START*) echo OK ;;
    YXNBEST*)
      n=$((n + 1))
      case $n in
        1) echo "MESSAGE (1) +M5 | 13-3 | G8 G7"; echo "MESSAGE (2) 57 | 14-28 | G7 G8"; echo "6,7" ;;
        2) echo "MESSAGE Speed 30000 | Depth 16-2 | Eval +M3 | Node 30 | Time 0ms"; echo "5,6" ;;
        *) echo "2,3" ;;
      esac ;;
    END) exit 0 ;;
  esac
done
"#;
    std::fs::write(&engine, script).unwrap();
    let database = dir.join("gomoku.csv");
    let rows = [
        "PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags",
        "ii1j4,15/2o3x8/3x1o1o7/3ox1x8/3xoxx8/4x1x8/3x3o7/2o12/12x2/11o3/10o4/9o5/15/15/15 w,g13 g8 g9 f9 h7 c12,1700,300,0,0,mate mateIn3 vcf fourThree long,,",
    ];
    std::fs::write(&database, rows.join("\n") + "\n").unwrap();
    let command = format!("sh {}", engine.display());
    let args = ["puzzles", "check", "gomoku", "--referee", &command];
    let output = qi(&[&args[..], &["--file", database.to_str().unwrap()]].concat());
    assert!(output.status.success(), "{}", stderr(&output));
    let out = stdout(&output);
    assert!(
        out.contains("best move agrees on 1 (100.0%), only moves by its scores on 1 (100.0%)"),
        "{out}{}",
        stderr(&output)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn swiss_and_arena_refuse_bad_arguments_with_one_line() {
    for (args, says) in [
        (&["swiss"][..], "expected check or bench"),
        (&["swiss", "check", "--players", "9-3"], "--players"),
        (&["swiss", "check", "--rounds", "three"], "--rounds"),
        (&["swiss", "check", "--tournaments"], "needs a value"),
        (
            &["swiss", "check", "--tournaments", "1", "--reference", "/no/such/py4swiss"],
            "cannot run the reference",
        ),
        (&["swiss", "bench", "--players", "1"], "--players"),
        (&["arena"], "expected bench"),
        (&["arena", "bench", "--players", "10", "--wave", "20"], "--wave"),
        (&["arena", "bench", "--waves", "x"], "--waves"),
    ] {
        let output = qi(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(stderr(&output).contains(says), "{args:?}: {}", stderr(&output));
    }
}

#[test]
fn swiss_bench_pairs_every_round_and_arena_bench_times_its_waves() {
    let swiss = qi(&["swiss", "bench", "--players", "12", "--rounds", "4"]);
    assert!(swiss.status.success(), "{}", stderr(&swiss));
    assert_eq!(
        stdout(&swiss).lines().filter(|l| l.starts_with("round ")).count(),
        4,
        "{}",
        stdout(&swiss)
    );
    let arena = qi(&["arena", "bench", "--players", "40", "--wave", "20", "--waves", "2"]);
    assert!(arena.status.success(), "{}", stderr(&arena));
    assert!(stdout(&arena).contains("waves of 20 waiting, 2 waves: median"), "{}", stdout(&arena));
}
