//! The server binary killed with SIGKILL mid-game and started again on the same data: every
//! acknowledged move is there, games go on, nobody's clock pays for the downtime. And a flag
//! that falls while its player is away.

mod common;

use qi_protocol::GameAction;
use std::net::SocketAddr;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use common::{Client, Table, start_server, temp_dir, timed};
use qi_protocol::{ClientMessage, Clocks, EndReason, Seat, SeatChoice, ServerMessage, Status};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

/// Starts the `qi-server` binary and waits for the line that says it listens.
async fn spawn_server(addr: SocketAddr, data: &Path) -> Child {
    let mut child = Command::new(env!("CARGO_BIN_EXE_qi-server"))
        .args(["--addr", &addr.to_string(), "--dist"])
        .arg(data.join("dist"))
        .arg("--data")
        .arg(data)
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let mut lines = BufReader::new(stdout).lines();
    let line = tokio::time::timeout(Duration::from_secs(30), lines.next_line()).await;
    let line = line.unwrap().unwrap().unwrap();
    assert!(line.starts_with("qi-server: http://"), "{line}");
    child
}

fn free_port() -> SocketAddr {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap()
}

/// The clocks in the next `Moved` for `ply`.
async fn moved_clocks(client: &mut Client, ply: u32) -> Clocks {
    client
        .until(|m| match m {
            ServerMessage::Moved { mv, clocks, .. } if mv.ply == ply => *clocks,
            _ => None,
        })
        .await
}

#[tokio::test]
async fn kill_9_and_restart_loses_no_acknowledged_move_and_charges_no_downtime() {
    let data = temp_dir("restart");
    let addr = free_port();
    let mut server = spawn_server(addr, &data).await;
    let mut table = Table::new(addr, timed("chess", 60, 0)).await;
    for (seat, mv) in [(Seat::First, "e2e4"), (Seat::Second, "e7e5"), (Seat::First, "g1f3")] {
        table.play(seat, mv).await;
    }
    table.play(Seat::Second, "b8c6").await;
    // A game still waiting for its second player.
    let mut cy = Client::hello(addr, "Cy").await;
    cy.send(&ClientMessage::Create { spec: timed("gomoku", 60, 0), seat: SeatChoice::First }).await;
    let (waiting, cy_token, invite) = cy
        .until(|m| match m {
            ServerMessage::Seated { game, token, invite: Some(invite), .. } => {
                Some((game.clone(), token.clone(), invite.clone()))
            }
            _ => None,
        })
        .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let game = table.game.clone();
    table.players[0]
        .send(&ClientMessage::Move { game: game.clone(), ply: 4, text: "f1c4".into() })
        .await;
    let acknowledged = moved_clocks(&mut table.players[0], 4).await;
    server.start_kill().unwrap();
    server.wait().await.unwrap();
    assert_eq!(acknowledged.running, Some(Seat::Second));

    let downtime = Duration::from_secs(3);
    tokio::time::sleep(downtime).await;
    let mut server = spawn_server(addr, &data).await;
    let mut bo = Client::hello(addr, "Bo").await;
    let resume = ClientMessage::Resume {
        game: game.clone(),
        token: table.tokens[1].clone(),
        have_plies: None,
    };
    let asked = Instant::now();
    bo.send(&resume).await;
    let view = bo.state().await;
    let texts: Vec<&str> = view.moves.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(texts, ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4"], "every acknowledged move");
    assert_eq!(view.status, Status::Playing);
    let clocks = view.clocks.unwrap();
    assert_eq!(clocks.running, Some(Seat::Second));
    assert_eq!(clocks.remaining_ms[0], acknowledged.remaining_ms[0]);
    let charged = acknowledged.remaining_ms[1] - clocks.remaining_ms[1];
    let since_restart = asked.elapsed().as_millis() as u64 + 1_000;
    assert!(charged < since_restart, "charged {charged} ms, downtime was {downtime:?}");

    // Both players come back and play on.
    let mut ann = Client::hello(addr, "Ann").await;
    let resume = ClientMessage::Resume {
        game: game.clone(),
        token: table.tokens[0].clone(),
        have_plies: Some(5),
    };
    ann.send(&resume).await;
    let view = ann.state().await;
    assert_eq!((view.from_ply, view.moves.len()), (5, 0));
    bo.send(&ClientMessage::Move { game: game.clone(), ply: 5, text: "g8f6".into() }).await;
    let after = moved_clocks(&mut ann, 5).await;
    assert_eq!(after.running, Some(Seat::First));
    // The waiting game's creator gets its invite back (the server keeps no invite, only a
    // hash, and makes it again from her token), and it still works.
    let mut cy = Client::hello(addr, "Cy").await;
    let resume = ClientMessage::Resume { game: waiting.clone(), token: cy_token, have_plies: None };
    cy.send(&resume).await;
    let echoed = cy
        .until(|m| match m {
            ServerMessage::Seated { invite, .. } => Some(invite.clone()),
            _ => None,
        })
        .await;
    assert_eq!(echoed.as_ref(), Some(&invite));
    let mut dee = Client::hello(addr, "Dee").await;
    dee.send(&ClientMessage::Join { game: waiting, invite }).await;
    let seat = dee
        .until(|m| match m {
            ServerMessage::Seated { seat, .. } => Some(*seat),
            _ => None,
        })
        .await;
    assert_eq!(seat, Seat::Second);
    server.start_kill().unwrap();
    server.wait().await.unwrap();
    let _ = std::fs::remove_dir_all(&data);
}

#[tokio::test]
async fn a_flag_falls_while_its_player_is_away() {
    let server = start_server("flag").await;
    let mut table = Table::new(server.addr, timed("gomoku", 1, 0)).await;
    table.play(Seat::First, "h8").await;
    // Ann's second starts when the server applies h9, after this instant.
    let started = Instant::now();
    table.play(Seat::Second, "h9").await;
    let game = table.game.clone();
    let ann = std::mem::replace(&mut table.players[0], Client::hello(server.addr, "Tmp").await);
    drop(ann);
    let bo = &mut table.players[1];
    let (result, _) = bo.ended().await;
    let took = started.elapsed();
    assert_eq!(result.winner, Some(Seat::Second));
    assert_eq!(result.reason, EndReason::Timeout);
    // Not before her second was up; the upper bound only tells "fell while away" from "never"
    // and leaves a busy machine plenty of room.
    assert!(took >= Duration::from_secs(1) && took < Duration::from_secs(20), "{took:?}");
    let mut ann = Client::hello(server.addr, "Ann").await;
    let resume = ClientMessage::Resume { game, token: table.tokens[0].clone(), have_plies: None };
    ann.send(&resume).await;
    let view = ann.state().await;
    assert!(matches!(view.status, Status::Ended { .. }));
    assert_eq!(view.clocks.unwrap().remaining_ms[0], 0);
}

#[tokio::test]
async fn sigterm_tells_clients_to_reconnect_stores_everything_and_exits_cleanly() {
    let data = temp_dir("sigterm");
    let addr = free_port();
    let mut server = spawn_server(addr, &data).await;
    let mut table = Table::new(addr, timed("chess", 300, 0)).await;
    table.watch(addr).await;
    table.play(Seat::First, "e2e4").await;
    table.play(Seat::Second, "e7e5").await;
    let game = table.game.clone();
    // A move on its way as the signal comes: acknowledged, so stored.
    table.players[0]
        .send(&ClientMessage::Move { game: game.clone(), ply: 2, text: "g1f3".into() })
        .await;
    moved_clocks(&mut table.players[0], 2).await;
    let pid = server.id().unwrap().to_string();
    let signalled = Command::new("kill").args(["-TERM", &pid]).status().await.unwrap();
    assert!(signalled.success());
    for client in table.everyone() {
        assert_eq!(client.close_code().await, Some(1012), "told to reconnect");
    }
    let status = tokio::time::timeout(Duration::from_secs(20), server.wait()).await;
    let status = status.expect("stopped in time").unwrap();
    assert!(status.success(), "exit status {status:?}");
    // Not listening any more.
    assert!(tokio::net::TcpStream::connect(addr).await.is_err());

    let _server = spawn_server(addr, &data).await;
    let mut bo = Client::hello(addr, "Bo").await;
    let resume = ClientMessage::Resume {
        game: game.clone(),
        token: table.tokens[1].clone(),
        have_plies: None,
    };
    bo.send(&resume).await;
    let view = bo.state().await;
    let texts: Vec<&str> = view.moves.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(texts, ["e2e4", "e7e5", "g1f3"]);
    let _ = std::fs::remove_dir_all(&data);
}

#[tokio::test]
async fn accounts_sessions_and_a_rated_result_survive_kill_9() {
    let data = temp_dir("restart-accounts");
    let addr = free_port();
    let mut server = spawn_server(addr, &data).await;
    let ann = common::register(addr, "Ann", "password one").await.cookie();
    let bo = common::register(addr, "Bo_B", "password two").await.cookie();
    let rated = qi_protocol::GameSpec { rated: true, ..common::spec("gomoku", "") };
    let (mut first, _) = common::signed_in_client(addr, &ann, "").await;
    first.send(&ClientMessage::Challenge { spec: rated, seat: SeatChoice::First }).await;
    let game = first
        .until(|m| match m {
            ServerMessage::Seated { game, .. } => Some(game.clone()),
            _ => None,
        })
        .await;
    let (mut second, _) = common::signed_in_client(addr, &bo, "").await;
    second.send(&ClientMessage::Accept { game: game.clone() }).await;
    second.state().await;
    // Bo resigns once both have moved (earlier would be an abort, unrated): the result and
    // both ratings are stored before anyone hears of it.
    first.send(&ClientMessage::Move { game: game.clone(), ply: 0, text: "h8".into() }).await;
    second.moved(0).await;
    second.send(&ClientMessage::Move { game: game.clone(), ply: 1, text: "a1".into() }).await;
    first.moved(1).await;
    second.send(&ClientMessage::Act { game: game.clone(), action: GameAction::Resign }).await;
    let (result, _) = first.ended().await;
    assert_eq!(result.winner, Some(Seat::First));
    server.start_kill().unwrap();
    server.wait().await.unwrap();

    let _server = spawn_server(addr, &data).await;
    // The sessions hold, the ratings and the history are there.
    let me = common::request(addr, "GET", "/api/account", Some(&ann), None).await;
    assert_eq!(me.status, 200, "{me:?}");
    let gomoku = me.account().ratings.into_iter().find(|r| r.kind == "gomoku").unwrap();
    assert!(gomoku.rating.rating > 1500 && gomoku.games == 1, "{gomoku:?}");
    let page = common::request(addr, "GET", "/api/profile/bo_b", None, None).await;
    let profile: qi_protocol::ProfileView = serde_json::from_str(&page.body).unwrap();
    assert_eq!(profile.games.len(), 1);
    assert_eq!(profile.games[0].game, game);
    let history = &profile.ratings.iter().find(|r| r.now.kind == "gomoku").unwrap().history;
    assert_eq!(history.len(), 1);
    assert!(history[0].rating.rating < 1500);
}
