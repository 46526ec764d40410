//! `qi piskvork` driven over stdin and stdout as a Gomocup manager would.

use std::io::Write;
use std::process::{Command, Stdio};

use qi_rules::Game;

/// Feeds `input` to `qi piskvork` and returns the reply lines that are not `MESSAGE`s.
fn session(input: &str) -> Vec<String> {
    all_replies(input).into_iter().filter(|l| !l.starts_with("MESSAGE")).collect()
}

/// Feeds `input` to `qi piskvork` and returns every reply line.
fn all_replies(input: &str) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_qi"))
        .arg("piskvork")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("qi runs");
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap().lines().map(str::to_owned).collect()
}

fn is_point(reply: &str, size: u8) -> bool {
    reply
        .split_once(',')
        .is_some_and(|(x, y)| [x, y].iter().all(|v| v.parse::<u8>().is_ok_and(|v| v < size)))
}

#[test]
fn start_begin_and_turns() {
    let replies = session(
        "ABOUT\nSTART 15\nINFO timeout_turn 200\nINFO timeout_match 100000\nINFO time_left 100000\nBEGIN\nTURN 8,8\nEND\n",
    );
    assert!(replies[0].starts_with("name=\"qi\""), "{replies:?}");
    assert_eq!(replies[1], "OK");
    // The first stone goes in the centre.
    assert_eq!(replies[2], "7,7");
    assert!(is_point(&replies[3], 15), "{replies:?}");
    assert_eq!(replies.len(), 4);
}

#[test]
fn board_sets_up_a_position_and_the_four_is_blocked() {
    // Gomocup x,y from the top left: the opponent (2) has four on row 7 from x=3 to x=6,
    // blocked on the left by our stone (1) at 2,7; we must answer at 7,7.
    let replies = session(
        "START 15\nINFO timeout_turn 300\nBOARD\n2,7,1\n3,7,2\n10,10,1\n4,7,2\n12,12,1\n5,7,2\n6,7,2\n0,0,1\nDONE\nEND\n",
    );
    assert_eq!(replies, ["OK", "7,7"]);
}

#[test]
fn our_five_is_completed_and_coordinates_map_to_a1_bottom_left() {
    // Our stones on the bottom row (y = 14, qi's rank 1) a1..d1: e1 is 4,14.
    let replies = session(
        "START 15\nINFO timeout_turn 200\nBOARD\n0,14,1\n7,7,2\n1,14,1\n7,8,2\n2,14,1\n7,9,2\n3,14,1\n8,0,2\nDONE\nEND\n",
    );
    assert_eq!(replies, ["OK", "4,14"]);
}

#[test]
fn renju_rule_flag_and_nineteen() {
    let replies = session("START 19\nINFO rule 4\nINFO timeout_turn 100\nBEGIN\nTURN 0,0\nEND\n");
    assert_eq!(replies[0], "OK");
    assert_eq!(replies[1], "9,9");
    assert!(is_point(&replies[2], 19));
}

#[test]
fn takeback_and_restart() {
    let replies =
        session("START 15\nINFO timeout_turn 100\nBEGIN\nTAKEBACK 7,7\nRESTART\nBEGIN\nEND\n");
    assert_eq!(replies, ["OK", "7,7", "OK", "OK", "7,7"]);
}

#[test]
fn gomocup_boards_of_twenty_and_caro_are_played() {
    // Gomocup's own board, and caro (INFO rule 8): the first stone, then a reply on the board.
    let replies = session("START 20\nINFO rule 8\nBEGIN\nTURN 0,0\nEND\n");
    assert_eq!(replies.len(), 3, "{replies:?}");
    assert_eq!(replies[0], "OK");
    for reply in &replies[1..] {
        let (x, y) = reply.split_once(',').expect("a move");
        let (x, y): (u32, u32) = (x.parse().unwrap(), y.parse().unwrap());
        assert!(x < 20 && y < 20, "{reply}");
    }
}

#[test]
fn bad_input_gets_an_error_not_a_crash() {
    let replies = session(concat!(
        "BEGIN\n",     // no START yet
        "START 21\n",  // unsupported size
        "START x\n",   // not a number
        "START 15\n",  // OK
        "TURN 15,3\n", // off the board
        "TURN 3\n",    // no comma
        "TURN -1,2\n", // negative
        "INFO timeout_turn soon\n",
        "FROB 1\n",       // not a command
        "TURN 7,7\n",     // fine: we answer
        "TURN 7,7\n",     // taken
        "TAKEBACK 1,1\n", // not the last stone
        "BOARD\n1,1,3\n", // bad field: the board is refused at its DONE
        "\u{0}\u{ff}garbage\n",
        "DONE\n",
        "END\n",
    ));
    let errors = replies.iter().filter(|r| r.starts_with("ERROR ")).count();
    assert_eq!(errors, 10, "{replies:?}");
    assert!(replies.iter().any(|r| r.starts_with("UNKNOWN")), "{replies:?}");
    assert!(replies.contains(&"OK".to_owned()));
    assert!(replies.iter().any(|r| is_point(r, 15)), "{replies:?}");
    assert!(replies.iter().any(|r| r.contains("size 21")), "{replies:?}");
}

#[test]
fn end_of_input_ends_quietly() {
    assert_eq!(session("START 15\n"), ["OK"]);
    assert!(session("").is_empty());
}

#[test]
fn info_level_plays_at_an_app_level_and_refuses_others() {
    /// A number after `name` in a `MESSAGE` line.
    fn field(message: &str, name: &str) -> u64 {
        let words: Vec<&str> = message.split_whitespace().collect();
        let at = words.iter().position(|w| *w == name).expect(name);
        words[at + 1].parse().expect("a number")
    }
    // After a stone each (many candidates), level 1 searches one ply within 300 nodes however
    // long the turn; then, in the same session, level 6 (full strength) goes deeper.
    let replies = all_replies(concat!(
        "START 15\nINFO timeout_turn 1000\nINFO level 1\nBEGIN\nTURN 8,8\n",
        "INFO level 6\nTURN 6,6\nEND\n",
    ));
    assert!(!replies.iter().any(|l| l.starts_with("ERROR")), "{replies:?}");
    let messages: Vec<&String> = replies.iter().filter(|l| l.starts_with("MESSAGE")).collect();
    let points = replies.iter().filter(|l| is_point(l, 15)).count();
    assert_eq!(points, 3, "{replies:?}");
    // The reply lines run: BEGIN's message and move, TURN's message and move, and so on; the
    // second message is level 1's answer to 8,8, the third level 6's answer to 6,6.
    assert_eq!(messages.len(), 3, "{replies:?}");
    assert_eq!(field(messages[1], "depth"), 1, "{}", messages[1]);
    assert!(field(messages[1], "nodes") <= 300, "{}", messages[1]);
    assert!(field(messages[2], "depth") >= 4, "{}", messages[2]);
    assert!(field(messages[2], "nodes") > 300, "{}", messages[2]);
    let refused = session("START 15\nINFO level 7\nINFO level two\nEND\n");
    assert_eq!(refused.len(), 3, "{refused:?}");
    assert!(refused[1].starts_with("ERROR INFO level: 7"), "{refused:?}");
    assert!(refused[2].starts_with("ERROR INFO level"), "{refused:?}");
}

#[test]
fn max_node_caps_each_search_whatever_the_time() {
    // Rapfi's key: with a long turn, the search still stops at the node count (the lab's
    // SPRTs play by nodes), and it is the same move however busy the machine is.
    let input = "START 15\nINFO timeout_turn 20000\nINFO max_node 3000\nBEGIN\nTURN 8,8\nEND\n";
    let replies = all_replies(input);
    assert!(!replies.iter().any(|l| l.starts_with("ERROR")), "{replies:?}");
    let last_message = replies.iter().rfind(|l| l.starts_with("MESSAGE")).expect("a message");
    let words: Vec<&str> = last_message.split_whitespace().collect();
    let nodes: u64 = words[words.iter().position(|w| *w == "nodes").unwrap() + 1].parse().unwrap();
    assert!(nodes <= 3000, "{last_message}");
    let moves = |replies: Vec<String>| -> Vec<String> {
        replies.into_iter().filter(|l| is_point(l, 15)).collect()
    };
    assert_eq!(moves(session(input)), moves(replies.clone()), "the same moves again");
    let refused = session("START 15\nINFO max_node lots\nEND\n");
    assert!(refused[1].starts_with("ERROR INFO max_node"), "{refused:?}");
}

#[test]
fn swap2board_is_answered_as_gomocup_specifies_on_twenty() {
    let points = |reply: &str, n: usize| {
        let parts: Vec<&str> = reply.split(' ').collect();
        parts.len() == n && parts.iter().all(|p| is_point(p, 20))
    };
    // The empty board: three opening stones.
    let replies = session("START 20\nINFO rule 6\nINFO timeout_turn 300\nSWAP2BOARD\nDONE\nEND\n");
    assert_eq!(replies[0], "OK");
    assert!(points(&replies[1], 3), "{replies:?}");
    // Three stones: SWAP, a stone (taking white), or two more.
    let three =
        "START 20\nINFO rule 6\nINFO timeout_turn 300\nSWAP2BOARD\n9,9\n10,10\n11,9\nDONE\nEND\n";
    let replies = session(three);
    let answer = &replies[1];
    assert!(answer == "SWAP" || points(answer, 1) || points(answer, 2), "{replies:?}");
    // Five stones: SWAP or a stone; and play goes on from there with TURN.
    let five = "START 20\nINFO rule 6\nINFO timeout_turn 300\nSWAP2BOARD\n9,9\n10,10\n11,9\n0,0\n19,19\nDONE\nTURN 5,5\nEND\n";
    let replies = session(five);
    assert!(replies[1] == "SWAP" || points(&replies[1], 1), "{replies:?}");
    assert!(replies.iter().skip(2).all(|r| is_point(r, 20)), "{replies:?}");
    // The stones written with their owners, as `BOARD` writes them (Rapfi's and `qi match`'s
    // way): read the same.
    let owned = "START 20\nINFO rule 6\nINFO timeout_turn 300\nSWAP2BOARD\n9,9,2\n10,10,1\n11,9,2\nDONE\nEND\n";
    let replies = session(owned);
    let answer = &replies[1];
    assert!(answer == "SWAP" || points(answer, 1) || points(answer, 2), "{replies:?}");
    // Four stones is no swap2 question; a stone off the board is named, at the block's DONE.
    let replies = session(
        "START 20\nINFO rule 6\nSWAP2BOARD\n9,9\n10,10\n11,9\n1,1\nDONE\nSWAP2BOARD\n20,1\n\
         1,1\nDONE\nEND\n",
    );
    assert!(replies[1].starts_with("ERROR SWAP2BOARD: 4 stones"), "{replies:?}");
    assert!(replies[2].starts_with("ERROR SWAP2BOARD line 20,1"), "{replies:?}");
    assert_eq!(replies.len(), 3, "{replies:?}");
}

/// A rule the game under way cannot be rebuilt under is refused whole: the session keeps its
/// old rule for the next game too (it once kept the new one, and `RESTART` played it).
#[test]
fn a_refused_rule_is_not_kept() {
    let mut session = qi_cli::piskvork::Session::default();
    session.cap_nodes(200);
    assert_eq!(session.handle("START 15"), ["OK"]);
    assert!(session.handle("INFO rule 8").is_empty(), "caro");
    // Each side has a five closed at both ends: no win under caro, both win under freestyle.
    session.handle("BOARD");
    for stone in ["0,0,2", "1,0,1", "2,0,1", "3,0,1", "4,0,1", "5,0,1", "6,0,2"]
        .into_iter()
        .chain(["0,2,1", "1,2,2", "2,2,2", "3,2,2", "4,2,2", "5,2,2", "6,2,1"])
    {
        assert!(session.handle(stone).is_empty(), "{stone}");
    }
    let answer = session.handle("DONE");
    assert!(answer.last().is_some_and(|a| is_point(a, 15)), "{answer:?}");
    let refused = session.handle("INFO rule 0");
    assert!(refused.last().is_some_and(|r| r.starts_with("ERROR INFO rule")), "{refused:?}");
    session.handle("RESTART");
    let rules = session.current_game().map(qi_rules::Game::rules).copied();
    assert_eq!(rules.map(|r| r.rule), Some(qi_rules::gomoku::WinRule::Caro));
}

/// A reply quotes the command's text without its control characters: a `\r` inside a
/// coordinate once came back in the `ERROR` line, breaking it in two for some managers.
#[test]
fn replies_quote_no_control_characters() {
    let replies =
        all_replies("START 15\nINFO timeout_turn 100\nBEGIN\nTURN 7\r,7\nTAKEBACK 3\r,3\n");
    let errors: Vec<_> = replies.iter().filter(|r| r.starts_with("ERROR")).collect();
    assert_eq!(errors.len(), 2, "{replies:?}");
    assert!(replies.iter().all(|r| !r.contains('\r')), "{replies:?}");
}

/// A bad line inside `BOARD` refuses the board whole, once, at its `DONE`; the lines up to it
/// are stones, not commands (they were once answered `UNKNOWN command`, `DONE` included), and
/// the game is left as it was.
#[test]
fn a_bad_board_line_refuses_the_board_at_done_and_keeps_the_game() {
    let mut session = qi_cli::piskvork::Session::default();
    session.cap_nodes(2_000);
    let mut replies = Vec::new();
    let script = "START 15\nBEGIN\nBOARD\n1,1,1\n99,0,2\nTURN 3,3\n2,2,1\nDONE\nTURN 4,4\n";
    for line in script.lines() {
        let before = session.current_game().map(|g| g.history().len());
        let answer = session.handle(line);
        if line == "DONE" {
            assert_eq!(session.current_game().map(|g| g.history().len()), before, "{answer:?}");
        }
        replies.extend(answer.into_iter().filter(|r| !r.starts_with("MESSAGE")));
    }
    // OK, BEGIN's stone, the board's error, TURN's answer.
    assert_eq!(replies.len(), 4, "{replies:?}");
    assert!(replies[2].starts_with("ERROR BOARD line 99,0,2"), "{replies:?}");
    assert!(!replies.iter().any(|r| r.starts_with("UNKNOWN")), "{replies:?}");
    // The game went on from BEGIN's stone: TURN 4,4 was played and answered.
    assert_eq!(session.current_game().map(|g| g.history().len()), Some(3), "{replies:?}");
    assert!(!session.reading_stones());
    // END inside a board ends the session.
    for line in ["BOARD", "1,1,1", "END"] {
        assert!(session.handle(line).is_empty());
    }
    assert!(session.ended());
}
