//! Hostile and broken clients: big frames, floods, garbage, clients that stop reading or go
//! silent, and moves sent twice or for the wrong ply. None of them changes a game.

mod common;

use qi_protocol::GameAction;
use std::time::Duration;

use common::{Client, Table, spec, start_server, start_server_with};
use qi_protocol::{
    ClientMessage, ErrorCode, MAX_FRAME_BYTES, RATE_MAX_KEEP_ALIVES, RATE_MAX_MESSAGES, Refusal,
    Seat, ServerMessage, VERSION,
};
use qi_server::connection::ConnectionConfig;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::frame::Frame;
use tokio_tungstenite::tungstenite::protocol::frame::coding::{Data, OpCode};

#[tokio::test]
async fn a_frame_over_8_kib_closes_with_1009() {
    let server = start_server("big").await;
    for size in [MAX_FRAME_BYTES + 1, 100 * 1024] {
        let mut client = Client::hello(server.addr, "Ann").await;
        let padding = "x".repeat(size);
        client.send_text(format!(r#"{{"type":"hello","version":1,"name":"{padding}"}}"#)).await;
        assert_eq!(client.close_code().await, Some(1009), "{size} bytes");
    }
}

#[tokio::test]
async fn a_text_frame_that_is_not_utf_8_closes_with_1007() {
    let server = start_server("utf8").await;
    // A hello whose name holds a lone continuation byte and a byte UTF-8 never uses.
    let mut bytes = br#"{"type":"hello","version":1,"name":"A"#.to_vec();
    bytes.extend_from_slice(&[0x80, 0xFF]);
    bytes.extend_from_slice(br#""}"#);
    assert!(std::str::from_utf8(&bytes).is_err());
    let whole = || vec![Frame::message(bytes.clone(), OpCode::Data(Data::Text), true)];
    let (head, tail) = bytes.split_at(10);
    let fragments = vec![
        Frame::message(head.to_vec(), OpCode::Data(Data::Text), false),
        Frame::message(tail.to_vec(), OpCode::Data(Data::Continue), true),
    ];
    for (case, said_hello, frames) in [
        ("before hello", false, whole()),
        ("after hello", true, whole()),
        ("in two fragments", true, fragments),
    ] {
        let mut client = if said_hello {
            Client::hello(server.addr, "Ann").await
        } else {
            Client::connect(server.addr).await
        };
        for frame in frames {
            client.send_raw(Message::Frame(frame)).await;
        }
        assert_eq!(client.close_code().await, Some(1007), "{case}");
    }
}

#[tokio::test]
async fn a_frame_of_exactly_8_kib_is_read() {
    let server = start_server("edge").await;
    let mut client = Client::hello(server.addr, "Ann").await;
    let mut text = r#"{"type":"cancel_seek","pad":""#.to_owned();
    text.push_str(&"x".repeat(MAX_FRAME_BYTES - text.len() - 2));
    text.push_str(r#""}"#);
    assert_eq!(text.len(), MAX_FRAME_BYTES);
    client.send_text(text).await;
    client.send(&ClientMessage::Act { game: "none".into(), action: GameAction::Resign }).await;
    assert_eq!(client.error().await, ErrorCode::UnknownGame, "still connected");
}

#[tokio::test]
async fn the_101st_message_in_20_s_closes_with_1008() {
    let server = start_server("flood").await;
    let mut client = Client::hello(server.addr, "Ann").await;
    // The hello was the first; the 100th is still answered.
    for _ in 2..RATE_MAX_MESSAGES {
        client.send(&ClientMessage::CancelSeek).await;
    }
    client.send(&ClientMessage::Act { game: "none".into(), action: GameAction::Resign }).await;
    assert_eq!(client.error().await, ErrorCode::UnknownGame, "the 100th is read");
    client.send(&ClientMessage::CancelSeek).await;
    assert_eq!(client.close_code().await, Some(1008));
}

/// The `i`th keep-alive: a protocol pong, a WebSocket ping or a WebSocket pong, in turn.
fn keep_alive(i: usize) -> Message {
    match i % 3 {
        0 => Message::text(ClientMessage::Pong { nonce: 0 }.to_json()),
        1 => Message::Ping(vec![1].into()),
        _ => Message::Pong(vec![2].into()),
    }
}

/// How many of the server's pings `client` has answered (each answer is a keep-alive that counts
/// in the same window as the test's own: the server pings as soon as a socket opens).
fn answered_pings(client: &Client) -> usize {
    let ping = |text: &String| matches!(ServerMessage::parse(text), Ok(ServerMessage::Ping { .. }));
    client.log.iter().filter(|text| ping(text)).count()
}

#[tokio::test]
async fn pongs_and_pings_do_not_count_toward_the_100_messages() {
    let server = start_server("keepalive").await;
    let mut client = Client::hello(server.addr, "Ann").await;
    // Messages 2 to 99, with as many keep-alives as may come in the window between and after.
    let mut keep_alives = answered_pings(&client)..RATE_MAX_KEEP_ALIVES;
    for _ in 2..RATE_MAX_MESSAGES {
        client.send(&ClientMessage::CancelSeek).await;
        if let Some(i) = keep_alives.next() {
            client.send_raw(keep_alive(i)).await;
        }
    }
    for i in keep_alives {
        client.send_raw(keep_alive(i)).await;
    }
    client.send(&ClientMessage::Act { game: "none".into(), action: GameAction::Resign }).await;
    assert_eq!(client.error().await, ErrorCode::UnknownGame, "still open after 100 messages");
    client.send(&ClientMessage::CancelSeek).await;
    assert_eq!(client.close_code().await, Some(1008), "the 101st message");
}

#[tokio::test]
async fn a_flood_of_pongs_closes_with_1008() {
    let server = start_server("pongs").await;
    let mut client = Client::hello(server.addr, "Ann").await;
    for i in answered_pings(&client)..RATE_MAX_KEEP_ALIVES {
        client.send_raw(keep_alive(i)).await;
    }
    client.send(&ClientMessage::Act { game: "none".into(), action: GameAction::Resign }).await;
    assert_eq!(client.error().await, ErrorCode::UnknownGame, "messages keep their own room");
    client.send(&ClientMessage::Pong { nonce: 0 }).await;
    assert_eq!(client.close_code().await, Some(1008));
}

#[tokio::test]
async fn garbage_gets_errors_and_changes_nothing() {
    let server = start_server("garbage").await;
    let mut table = Table::new(server.addr, spec("chess", "")).await;
    table.play(Seat::First, "e2e4").await;
    let game = table.game.clone();
    let bo = &mut table.players[1];
    for (text, code) in [
        ("not json".to_owned(), ErrorCode::BadMessage),
        (r#"{"type":"move","game":"x"}"#.to_owned(), ErrorCode::BadMessage),
        (
            format!(r#"{{"type":"move","game":"{game}","ply":-1,"text":"e7e5"}}"#),
            ErrorCode::BadMessage,
        ),
        (r#"{"type":"fly_to_the_moon"}"#.to_owned(), ErrorCode::Unexpected),
        (r#"{"type":"hello","version":1,"name":"again"}"#.to_owned(), ErrorCode::Unexpected),
        (format!(r#"{{"type":"decline_draw","game":"{game}"}}"#), ErrorCode::Unexpected),
        (format!(r#"{{"type":"rematch","game":"{game}"}}"#), ErrorCode::Unexpected),
        (format!(r#"{{"type":"claim_win","game":"{game}"}}"#), ErrorCode::Unexpected),
        (r#"{"type":"watch","game":"no-such-game"}"#.to_owned(), ErrorCode::UnknownGame),
        (format!(r#"{{"type":"resume","game":"{game}","token":"guess"}}"#), ErrorCode::BadToken),
        (format!(r#"{{"type":"join","game":"{game}","invite":"guess"}}"#), ErrorCode::BadToken),
    ] {
        bo.send_text(text.clone()).await;
        assert_eq!(bo.error().await, code, "{text}");
    }
    bo.send(&ClientMessage::Move { game: game.clone(), ply: 1, text: "e7e4".into() }).await;
    let refusal = bo
        .until(|m| match m {
            ServerMessage::Refused { reason, .. } => Some(reason.clone()),
            _ => None,
        })
        .await;
    assert!(matches!(refusal, Refusal::Illegal { .. }), "{refusal:?}");
    // Nothing changed: the game goes on from where it was.
    bo.send(&ClientMessage::Watch { game: game.clone(), have_plies: None }).await;
    let view = bo.state().await;
    assert_eq!((view.moves.len(), view.status), (1, qi_protocol::Status::Playing));
    table.play(Seat::Second, "e7e5").await;
}

#[tokio::test]
async fn a_move_sent_twice_is_played_once_and_stale_or_future_plies_are_refused() {
    let server = start_server("dupes").await;
    let mut table = Table::new(server.addr, spec("gomoku", "")).await;
    table.watch(server.addr).await;
    table.play(Seat::First, "h8").await;
    let game = table.game.clone();
    let again = ClientMessage::Move { game: game.clone(), ply: 0, text: "h8".into() };
    table.players[0].send(&again).await;
    let view = table.players[0].state().await;
    assert_eq!((view.from_ply, view.moves.len()), (0, 1), "answered with the state");
    let refused = |ply, expected| {
        move |m: &ServerMessage| match m {
            ServerMessage::Refused { ply: p, reason, .. } if *p == ply => {
                assert_eq!(*reason, Refusal::WrongPly { expected });
                Some(())
            }
            ServerMessage::Moved { .. } => panic!("nothing may be played"),
            _ => None,
        }
    };
    let stale = ClientMessage::Move { game: game.clone(), ply: 0, text: "a1".into() };
    table.players[0].send(&stale).await;
    table.players[0].until(refused(0, 1)).await;
    let future = ClientMessage::Move { game: game.clone(), ply: 5, text: "a1".into() };
    table.players[1].send(&future).await;
    table.players[1].until(refused(5, 1)).await;
    let early = ClientMessage::Move { game: game.clone(), ply: 1, text: "a1".into() };
    table.players[0].send(&early).await;
    let reason = table.players[0]
        .until(|m| match m {
            ServerMessage::Refused { reason, .. } => Some(reason.clone()),
            _ => None,
        })
        .await;
    assert_eq!(reason, Refusal::NotYourTurn);
    // The next real move is ply 1, and everyone sees each move exactly once.
    table.play(Seat::Second, "a1").await;
    for client in table.everyone() {
        let moved = client.log.iter().filter(|t| t.contains(r#""type":"moved""#)).count();
        assert_eq!(moved, 2);
    }
}

/// How many spectators arrive, then leave, between two reads of the table's clients.
const VISITORS_PER_ROUND: usize = 5;

/// A spectator that never reads is dropped once 64 messages wait for it, and the game goes on.
#[tokio::test]
async fn a_client_that_does_not_read_is_dropped() {
    let server = start_server("slow").await;
    let mut table = Table::new(server.addr, spec("gomoku", "")).await;
    table.watch(server.addr).await;
    let mut sleeper = Client::connect_small(server.addr).await;
    sleeper.send(&ClientMessage::Hello { version: VERSION, name: "Zz".into() }).await;
    sleeper.send(&ClientMessage::Watch { game: table.game.clone(), have_plies: None }).await;
    let game = table.game.clone();
    let watchers_seen = |count| {
        move |m: &ServerMessage| {
            matches!(m, ServerMessage::Watchers { count: c, .. } if *c == count).then_some(())
        }
    };
    table.watchers[0].until(watchers_seen(2)).await;
    // Others come and go: every arrival and departure is a message for the sleeper. They come in
    // small batches and the players and the spectator read everything after each one: they must
    // read promptly themselves, or (with the server's small socket buffers and one tiny TCP
    // segment per message) they too would be dropped as readers that do not keep up.
    let mut dropped = false;
    for round in 0..600 {
        let mut batch = Vec::new();
        for _ in 0..VISITORS_PER_ROUND {
            let mut visitor = Client::hello(server.addr, "Vi").await;
            visitor.send(&ClientMessage::Watch { game: game.clone(), have_plies: None }).await;
            visitor.state().await;
            batch.push(visitor);
        }
        for visitor in batch {
            visitor.close().await;
        }
        // Bring everyone up to date; the spectator's count is 1 once the sleeper is gone.
        let mut seen = 0;
        for client in table.everyone() {
            seen = client
                .until(|m| match m {
                    ServerMessage::Watchers { count, .. } if *count <= 2 => Some(*count),
                    _ => None,
                })
                .await;
        }
        if seen == 1 {
            println!("dropped after {} visitors", (round + 1) * VISITORS_PER_ROUND);
            dropped = true;
            break;
        }
    }
    assert!(dropped, "the sleeper was never dropped");
    // Its socket ends: whatever it had buffered, then no more.
    let ended = tokio::time::timeout(Duration::from_secs(10), sleeper.close_code()).await;
    assert!(ended.is_ok(), "the sleeper's connection ends");
    // The players go on undisturbed.
    table.play(Seat::First, "h8").await;
}

#[tokio::test]
async fn a_silent_client_is_dropped_and_one_that_answers_pings_is_kept() {
    let config = ConnectionConfig {
        ping_every: Duration::from_millis(100),
        dead_after: Duration::from_millis(1_000),
        ..ConnectionConfig::default()
    };
    let server = start_server_with("pings", config).await;
    let mut silent = Client::connect(server.addr).await;
    let mut lively = Client::hello(server.addr, "Ann").await;
    // The lively one answers pings as it reads; it is still there after twice the limit.
    let deadline = tokio::time::Instant::now() + Duration::from_millis(2_500);
    while tokio::time::Instant::now() < deadline {
        let _ = tokio::time::timeout(Duration::from_millis(50), lively.next()).await;
    }
    lively.send(&ClientMessage::Act { game: "none".into(), action: GameAction::Resign }).await;
    assert_eq!(lively.error().await, ErrorCode::UnknownGame);
    // The silent one got pings, then nothing: its connection is gone.
    assert_eq!(silent.close_code().await, None, "dropped without a close handshake");
    assert!(silent.log.iter().any(|t| t.contains(r#""type":"ping""#)));
}
