//! Banqi's face-down pieces never leak. Bots play 20 games under several rule sets (cannons that
//! take face-down pieces, chains, rush), try illegal moves, drop their connections and resume;
//! every frame sent to either player or the spectator is kept and checked against the deal
//! revealed at the end:
//! - no frame but the end carries a known face-down piece (`*` and a letter), and every start
//!   position sent is face down on all 32 squares;
//! - a move carries a piece exactly when it turned that face-down piece up, and it is the right
//!   piece;
//! - a refusal says what a client that does not know the deal would say itself.

mod common;

use common::{Client, Dice, Table, banqi_from_view, play_seen, spec, start_server};
use qi_protocol::{ClientMessage, PlayedMove, Refusal, Seat, ServerMessage};
use qi_rules::any::{AnyGame, StartFrom};
use qi_rules::banqi::{BanqiMove, Square};
use qi_rules::{Game, MoveError, Side};

const RULE_SETS: [&str; 4] = [
    "draw=10",
    "draw=10,capture_hidden=true",
    "draw=12,chain=true,capture_hidden=true,ranks=hongkong",
    "draw=10,rush=true",
];

/// What a client that knows only what it was sent says of `text`.
fn refusal_seen(seen: &AnyGame, text: &str) -> Option<Refusal> {
    match seen.canonical_move(text) {
        Ok(_) => None,
        Err(MoveError::Parse(_)) => Some(Refusal::Unreadable),
        Err(MoveError::Illegal(e)) => Some(Refusal::Illegal { reason: e.reason }),
    }
}

/// Moves that are wrong, some of them about face-down squares.
fn bad_moves(seen: &AnyGame, dice: &mut Dice) -> String {
    let cell =
        |dice: &mut Dice| format!("{}{}", (b'a' + dice.below(8) as u8) as char, 1 + dice.below(4));
    match dice.below(4) {
        0 => cell(dice),
        1 => format!("{}-{}", cell(dice), cell(dice)),
        2 => "stop".into(),
        _ => {
            // A step onto a neighbouring square, whatever stands there.
            let moves = seen.legal_moves();
            let from =
                moves.iter().find(|m| m.contains('-')).cloned().unwrap_or_else(|| "a1-a2".into());
            let start = &from[..2];
            format!("{start}-{}", cell(dice))
        }
    }
}

/// What one bot game left: every client's frames, the moves and the deal.
struct Record {
    logs: Vec<Vec<String>>,
    moves: Vec<PlayedMove>,
    deal: String,
}

/// One bot game.
async fn bot_game(addr: std::net::SocketAddr, rules: &str, dice: &mut Dice) -> Record {
    let mut table = Table::new(addr, spec("banqi", rules)).await;
    table.watch(addr).await;
    let mut logs = Vec::new();
    let mut seen = banqi_from_view(rules, &table.start, &[]);
    let mut moves = Vec::new();
    while seen.outcome().is_none() {
        let seat = if seen.side_to_move() == Side::First { Seat::First } else { Seat::Second };
        if dice.below(5) == 0 {
            let text = bad_moves(&seen, dice);
            if let Some(expected) = refusal_seen(&seen, &text) {
                let game = table.game.clone();
                let player = &mut table.players[seat.index()];
                player
                    .send(&ClientMessage::Move { game, ply: table.ply, text: text.clone() })
                    .await;
                let reason = player
                    .until(|m| match m {
                        ServerMessage::Refused { reason, .. } => Some(reason.clone()),
                        _ => None,
                    })
                    .await;
                assert_eq!(reason, expected, "{text} in {}", seen.position());
            }
        }
        if dice.below(12) == 0 {
            let index = dice.below(2);
            let fresh = Client::hello(addr, "Back").await;
            let old = std::mem::replace(&mut table.players[index], fresh);
            logs.push(old.log);
            let have_plies = Some(dice.below(table.ply as usize + 1) as u32);
            let token = table.tokens[index].clone();
            let resume = ClientMessage::Resume { game: table.game.clone(), token, have_plies };
            table.players[index].send(&resume).await;
            table.players[index].state().await;
        }
        let legal = seen.legal_moves();
        let mv = table.play(seat, &legal[dice.below(legal.len())]).await;
        play_seen(&mut seen, &mv);
        moves.push(mv);
    }
    let (_, deal) = table.ended().await;
    // A player who comes back after the end: their State carries the whole deal.
    let game = table.game.clone();
    let resume = ClientMessage::Resume { game, token: table.tokens[0].clone(), have_plies: None };
    table.players[0].send(&resume).await;
    let view = table.players[0].state().await;
    assert_eq!(view.deal, deal, "a State after the end carries the deal");
    for client in table.everyone() {
        logs.push(std::mem::take(&mut client.log));
    }
    Record { logs, moves, deal: deal.expect("the deal comes with the end") }
}

/// Whether `text` names a known face-down piece (`*` and a letter).
fn names_a_face_down_piece(text: &str) -> bool {
    text.as_bytes().windows(2).any(|w| w[0] == b'*' && b"KABRNCPkabrncp".contains(&w[1]))
}

/// Checks a move as sent against the real game (the deal), before the move is played on it.
fn check_move(real: &AnyGame, mv: &PlayedMove) {
    let AnyGame::Banqi(banqi) = real else { unreachable!() };
    let target = match banqi.parse_move(&mv.text).unwrap() {
        BanqiMove::Flip(cell) | BanqiMove::Step { to: cell, .. } => Some(cell),
        BanqiMove::Stop => None,
    };
    let hidden = target.and_then(|cell| match banqi.square(cell) {
        Square::Hidden(piece) => Some(piece.letter().to_string()),
        _ => None,
    });
    assert_eq!(mv.reveal, hidden, "ply {} {}", mv.ply, mv.text);
}

/// Checks one client's frames against the game's moves and its deal.
fn check_log(log: &[String], rules: &str, record: &Record) {
    let real_before = |ply: usize| {
        let start = StartFrom::Position(&record.deal);
        let mut real = AnyGame::new("banqi", rules, &start).unwrap();
        for mv in &record.moves[..ply] {
            real.play(&mv.text).unwrap();
        }
        real
    };
    let mut over = false;
    for text in log {
        let message = ServerMessage::parse(text).unwrap();
        if matches!(message, ServerMessage::Ended { .. }) {
            over = true;
            continue;
        }
        if let ServerMessage::State { view } = &message
            && view.deal.is_some()
        {
            assert!(over, "a deal before the end: {text}");
            assert_eq!(view.deal.as_deref(), Some(record.deal.as_str()));
            continue;
        }
        assert!(!names_a_face_down_piece(text), "leak: {text}");
        match message {
            ServerMessage::State { view } => {
                let board = view.start.split(' ').next().unwrap();
                assert!(board.bytes().all(|b| b == b'?' || b == b'/'), "{}", view.start);
                let from = view.from_ply as usize;
                assert_eq!(view.moves[..], record.moves[from..from + view.moves.len()]);
                let mut real = real_before(from);
                for mv in &view.moves {
                    check_move(&real, mv);
                    real.play(&mv.text).unwrap();
                }
            }
            ServerMessage::Moved { mv, .. } => {
                assert_eq!(mv, record.moves[mv.ply as usize]);
                check_move(&real_before(mv.ply as usize), &mv);
            }
            _ => {}
        }
    }
}

#[tokio::test]
async fn no_face_down_piece_is_ever_told_before_it_is_turned_up() {
    let server = start_server("leak").await;
    let mut dice = Dice(0x5EED_BA9C);
    let mut frames = 0;
    for game in 0..20 {
        let rules = RULE_SETS[game % RULE_SETS.len()];
        let record = bot_game(server.addr, rules, &mut dice).await;
        assert!(record.deal.contains('*'));
        for log in &record.logs {
            check_log(log, rules, &record);
            frames += log.len();
        }
    }
    println!("{frames} frames checked");
    assert!(frames > 2_000);
}
