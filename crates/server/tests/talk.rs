//! Chat and takeback over real WebSockets: rooms kept apart, lines given back to whoever comes
//! back, a takeback declined and one accepted. (That chat is stored with the game and restored
//! with it is shown by the storage and session tests.)

mod common;

use common::{Client, Table, spec, start_server};
use qi_protocol::GameAction;
use qi_protocol::{
    ChatBody, ChatRoom, ClientMessage, ErrorCode, QuickMessage, Seat, ServerMessage,
};

fn chat(game: &str, text: &str) -> ClientMessage {
    ClientMessage::Chat { game: game.into(), body: ChatBody::Text { text: text.into() } }
}

async fn heard(client: &mut Client) -> qi_protocol::ChatLine {
    client
        .until(|m| match m {
            ServerMessage::Chat { line, .. } => Some(line.clone()),
            _ => None,
        })
        .await
}

#[tokio::test]
async fn players_and_spectators_chat_apart_and_come_back_to_their_room() {
    let server = start_server("talk-chat").await;
    let mut table = Table::new(server.addr, spec("chess", "")).await;
    table.watch(server.addr).await;
    let game = table.game.clone();
    table.players[0].send(&chat(&game, "<b>good luck</b>")).await;
    for player in &mut table.players {
        let line = heard(player).await;
        assert_eq!(
            (line.room, line.seat, line.name.as_str()),
            (ChatRoom::Players, Some(Seat::First), "Ann")
        );
        assert_eq!(line.body, ChatBody::Text { text: "<b>good luck</b>".into() });
    }
    let quick = ClientMessage::Chat {
        game: game.clone(),
        body: ChatBody::Quick { code: QuickMessage::Hello },
    };
    table.watchers[0].send(&quick).await;
    let line = heard(&mut table.watchers[0]).await;
    assert_eq!((line.room, line.name.as_str()), (ChatRoom::Spectators, "Cy"));
    // A refused line says why; the players never hear the spectators' room.
    table.watchers[0].send(&chat(&game, &"x".repeat(141))).await;
    assert_eq!(table.watchers[0].error().await, ErrorCode::BadChat);
    table.players[1].send(&chat(&game, "thanks")).await;
    let next = heard(&mut table.players[0]).await;
    assert_eq!(next.body, ChatBody::Text { text: "thanks".into() }, "not the spectator's hello");
    // Coming back, each room's readers get their own lines with the game.
    let tokens = table.tokens.clone();
    let mut ann = Client::hello(server.addr, "Ann").await;
    ann.send(&ClientMessage::Resume {
        game: game.clone(),
        token: tokens[0].clone(),
        have_plies: None,
    })
    .await;
    let view = ann.state().await;
    let texts: Vec<_> = view.chat.iter().map(|line| line.body.clone()).collect();
    assert_eq!(
        texts,
        vec![
            ChatBody::Text { text: "<b>good luck</b>".into() },
            ChatBody::Text { text: "thanks".into() }
        ]
    );
    let mut cy = Client::hello(server.addr, "Cy").await;
    cy.send(&ClientMessage::Watch { game, have_plies: None }).await;
    let view = cy.state().await;
    assert_eq!(view.chat.len(), 1);
    assert_eq!(view.chat[0].body, ChatBody::Quick { code: QuickMessage::Hello });
}

#[tokio::test]
async fn a_takeback_declined_then_one_accepted() {
    let server = start_server("talk-takeback").await;
    let mut table = Table::new(server.addr, spec("chess", "")).await;
    let game = table.game.clone();
    table.play(Seat::First, "e2e4").await;
    table.play(Seat::Second, "e7e5").await;
    let ask = ClientMessage::Act { game: game.clone(), action: GameAction::ProposeTakeback };
    table.players[1].send(&ask).await;
    let by = table.players[0]
        .until(|m| match m {
            ServerMessage::TakebackOffered { by, .. } => Some(*by),
            _ => None,
        })
        .await;
    assert_eq!(by, Seat::Second);
    table.players[0]
        .send(&ClientMessage::Act { game: game.clone(), action: GameAction::DeclineTakeback })
        .await;
    table.players[1]
        .until(|m| matches!(m, ServerMessage::TakebackDeclined { .. }).then_some(()))
        .await;
    table.players[1].send(&ask).await;
    assert_eq!(table.players[1].error().await, ErrorCode::NoTakeback, "not again before a move");
    table.play(Seat::First, "g1f3").await;
    table.players[1].send(&ask).await;
    table.players[0]
        .until(|m| matches!(m, ServerMessage::TakebackOffered { .. }).then_some(()))
        .await;
    table.players[0]
        .send(&ClientMessage::Act { game: game.clone(), action: GameAction::AcceptTakeback })
        .await;
    // Bo's e7e5 and Ann's Nf3 after it are gone; Bo is to move again.
    for player in &mut table.players {
        let view = player
            .until(|m| match m {
                ServerMessage::State { view } if view.moves.len() == 1 => Some(view.clone()),
                _ => None,
            })
            .await;
        assert_eq!(view.moves[0].text, "e2e4");
        assert_eq!(view.takeback_offer, None);
    }
    table.ply = 1;
    table.play(Seat::Second, "c7c5").await;
}

/// Issue 46: 25 spectators' lines went through in 1.1 s over 5 sockets, each socket with a
/// window of its own. The window is the address's.
#[tokio::test]
async fn spectators_chat_limit_is_per_address_not_per_socket() {
    let server = start_server("talk-chat-address").await;
    let mut table = Table::new(server.addr, spec("chess", "")).await;
    for _ in 0..5 {
        table.watch(server.addr).await;
    }
    let game = table.game.clone();
    let mut said = 0;
    for (index, watcher) in table.watchers.iter_mut().enumerate() {
        for line in 0..qi_protocol::CHAT_RATE_MAX {
            let text = format!("line {line} from socket {index}");
            watcher.send(&chat(&game, &text)).await;
            let went = watcher
                .until(|m| match m {
                    ServerMessage::Chat { line, .. }
                        if line.body == ChatBody::Text { text: text.clone() } =>
                    {
                        Some(true)
                    }
                    ServerMessage::Error { code: ErrorCode::BadChat, .. } => Some(false),
                    _ => None,
                })
                .await;
            said += usize::from(went);
        }
    }
    assert_eq!(said, qi_protocol::CHAT_RATE_MAX);
    // The players' room is counted by seat, apart from the spectators'.
    table.players[0].send(&chat(&game, "still here")).await;
    assert_eq!(
        heard(&mut table.players[1]).await.body,
        ChatBody::Text { text: "still here".into() }
    );
}
