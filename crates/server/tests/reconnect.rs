//! Coming back after a dropped connection, presence, spectators who cannot act, and tokens that
//! give no seat.

mod common;

use common::{Client, Table, spec, start_server};
use qi_protocol::GameAction;
use qi_protocol::{ClientMessage, ErrorCode, Refusal, Seat, ServerMessage, Status};

fn presence(seat: Seat, connected: bool) -> impl FnMut(&ServerMessage) -> Option<()> {
    move |m| {
        matches!(m, ServerMessage::Presence { seat: s, connected: c, .. } if *s == seat && *c == connected)
            .then_some(())
    }
}

#[tokio::test]
async fn resume_brings_the_missing_moves_or_the_whole_game() {
    let server = start_server("resume").await;
    let mut table = Table::new(server.addr, spec("gomoku", "")).await;
    for (seat, mv) in [(Seat::First, "h8"), (Seat::Second, "h9"), (Seat::First, "g8")] {
        table.play(seat, mv).await;
    }
    let game = table.game.clone();
    let token = table.tokens[0].clone();
    // Ann's connection drops; Bo hears of it and plays on.
    let ann = std::mem::replace(&mut table.players[0], Client::hello(server.addr, "Tmp").await);
    drop(ann);
    let bo = &mut table.players[1];
    bo.until(presence(Seat::First, false)).await;
    let move_3 = ClientMessage::Move { game: game.clone(), ply: 3, text: "g9".into() };
    bo.send(&move_3).await;
    bo.moved(3).await;

    let mut ann = Client::hello(server.addr, "Ann").await;
    let resume =
        |have_plies| ClientMessage::Resume { game: game.clone(), token: token.clone(), have_plies };
    ann.send(&resume(Some(2))).await;
    let seat = ann
        .until(|m| match m {
            ServerMessage::Seated { seat, .. } => Some(*seat),
            _ => None,
        })
        .await;
    assert_eq!(seat, Seat::First);
    let view = ann.state().await;
    assert_eq!(view.from_ply, 2);
    let texts: Vec<&str> = view.moves.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(texts, ["g8", "g9"]);
    assert_eq!(view.you, Some(Seat::First));
    assert!(view.players[0].connected && view.players[1].connected);
    bo.until(presence(Seat::First, true)).await;

    for (have, from, count) in [(None, 0, 4), (Some(9), 0, 4), (Some(4), 4, 0)] {
        ann.send(&resume(have)).await;
        let view = ann.state().await;
        assert_eq!((view.from_ply, view.moves.len()), (from, count), "have {have:?}");
    }
    // Ann plays on from her new connection.
    ann.send(&ClientMessage::Move { game: game.clone(), ply: 4, text: "f8".into() }).await;
    ann.moved(4).await;
    bo.moved(4).await;
}

#[tokio::test]
async fn spectators_see_everything_and_can_do_nothing() {
    let server = start_server("spectators").await;
    let mut table = Table::new(server.addr, spec("chess", "")).await;
    table.watch(server.addr).await;
    for player in &mut table.players {
        player.until(|m| matches!(m, ServerMessage::Watchers { count: 1, .. }).then_some(())).await;
    }
    table.play(Seat::First, "e2e4").await;
    let game = table.game.clone();
    let watcher = &mut table.watchers[0];
    watcher.send(&ClientMessage::Move { game: game.clone(), ply: 1, text: "e7e5".into() }).await;
    let reason = watcher
        .until(|m| match m {
            ServerMessage::Refused { reason, .. } => Some(reason.clone()),
            _ => None,
        })
        .await;
    assert_eq!(reason, Refusal::NotAPlayer);
    let actions = [
        ClientMessage::Act { game: game.clone(), action: GameAction::Resign },
        ClientMessage::Act { game: game.clone(), action: GameAction::OfferDraw },
        ClientMessage::Act { game: game.clone(), action: GameAction::DeclineDraw },
        ClientMessage::Act { game: game.clone(), action: GameAction::Abort },
        ClientMessage::Act { game: game.clone(), action: GameAction::Rematch },
        ClientMessage::Act { game: game.clone(), action: GameAction::ClaimWin },
    ];
    for action in &actions {
        watcher.send(action).await;
        assert_eq!(watcher.error().await, ErrorCode::Unexpected, "{action:?}");
    }
    // Guessed or spent credentials give no seat.
    let invite_again = ClientMessage::Join { game: game.clone(), invite: "x".repeat(22) };
    watcher.send(&invite_again).await;
    assert_eq!(watcher.error().await, ErrorCode::BadToken);
    let mut forged = table.tokens[0].clone();
    forged.replace_range(0..1, if forged.starts_with('A') { "B" } else { "A" });
    watcher
        .send(&ClientMessage::Resume { game: game.clone(), token: forged, have_plies: None })
        .await;
    assert_eq!(watcher.error().await, ErrorCode::BadToken);
    watcher.send(&ClientMessage::Move { game: game.clone(), ply: 1, text: "e7e5".into() }).await;
    watcher.until(|m| matches!(m, ServerMessage::Refused { .. }).then_some(())).await;
    // Bo's seat cannot move for Ann.
    let bo = &mut table.players[1];
    bo.send(&ClientMessage::Move { game: game.clone(), ply: 1, text: "e7e5".into() }).await;
    bo.moved(1).await;
    bo.send(&ClientMessage::Move { game: game.clone(), ply: 2, text: "d2d4".into() }).await;
    let reason = bo
        .until(|m| match m {
            ServerMessage::Refused { reason, .. } => Some(reason.clone()),
            _ => None,
        })
        .await;
    assert_eq!(reason, Refusal::NotYourTurn);
    // Nothing the spectator did reached the players, and the game goes on.
    table.ply = 2;
    table.play(Seat::First, "d2d4").await;
    for player in &table.players {
        assert!(!player.log.iter().any(|t| t.contains("draw_offered") || t.contains("rematch")));
    }
    let watcher = &mut table.watchers[0];
    watcher.send(&ClientMessage::Watch { game: game.clone(), have_plies: Some(3) }).await;
    let view = watcher.state().await;
    assert_eq!((view.status, view.you, view.from_ply), (Status::Playing, None, 3));
    // A spectator leaving is counted.
    let watcher = table.watchers.pop().unwrap();
    watcher.close().await;
    table.players[0]
        .until(|m| matches!(m, ServerMessage::Watchers { count: 0, .. }).then_some(()))
        .await;
}
