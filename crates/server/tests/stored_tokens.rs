//! The database keeps hashes of tokens, never the tokens: a copy of it served by another server
//! seats nobody with anything read from it, while the players' own tokens still work there. And
//! the server, which forgets tokens, still gives a creator their invite back and a joiner a
//! token that works, after a restart or after the game left memory.

mod common;

use std::path::Path;
use std::time::Duration;

use common::{Client, Server, Table, WAIT, spec, start_server, start_server_in, temp_dir};
use qi_protocol::{ClientMessage, ErrorCode, Seat, SeatChoice, ServerMessage, Status};
use qi_server::app::DATABASE_FILE;
use qi_server::tokens::hash_token;

/// What a `Seated` says: the game, the token, the seat and the invite.
type Seated = (String, String, Seat, Option<String>);

async fn seated(client: &mut Client) -> Seated {
    client
        .until(|m| match m {
            ServerMessage::Seated { game, token, seat, invite } => {
                Some((game.clone(), token.clone(), *seat, invite.clone()))
            }
            _ => None,
        })
        .await
}

/// `name` creates a gomoku game in the first seat; its `Seated`.
async fn create(addr: std::net::SocketAddr, name: &str) -> (Client, Seated) {
    let mut client = Client::hello(addr, name).await;
    let create = ClientMessage::Create { spec: spec("gomoku", ""), seat: SeatChoice::First };
    client.send(&create).await;
    let seat = seated(&mut client).await;
    (client, seat)
}

async fn resume(client: &mut Client, game: &str, token: &str) {
    let resume = ClientMessage::Resume { game: game.into(), token: token.into(), have_plies: None };
    client.send(&resume).await;
}

/// Every column of `games` whose name speaks of a token or an invite, and each game's values in
/// them: (game id, [(column, value)]).
fn secret_columns(database: &Path) -> Vec<(String, Vec<(String, String)>)> {
    let db = rusqlite::Connection::open(database).unwrap();
    let columns: Vec<String> = {
        let mut info = db.prepare("SELECT name FROM pragma_table_info('games')").unwrap();
        let names = info.query_map([], |row| row.get::<_, String>(0)).unwrap();
        let names = names.map(Result::unwrap);
        names.filter(|name| name.contains("token") || name.contains("invite")).collect()
    };
    assert_eq!(columns.len(), 3, "{columns:?}: the invite and two seats");
    let mut select = db.prepare(&format!("SELECT id, {} FROM games", columns.join(", "))).unwrap();
    let rows = select
        .query_map([], |row| {
            let values = (0..columns.len())
                .map(|index| Ok((columns[index].clone(), row.get(index + 1)?)))
                .collect::<rusqlite::Result<Vec<_>>>()?;
            Ok((row.get(0)?, values))
        })
        .unwrap();
    rows.map(Result::unwrap).collect()
}

/// A copy of the server's database, as someone who got hold of its files would have it (the
/// write-ahead log checkpointed into the main file first).
fn copy_database(from: &Server) -> std::path::PathBuf {
    let original = from.data.join(DATABASE_FILE);
    let db = rusqlite::Connection::open(&original).unwrap();
    let busy: i64 = db.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |row| row.get(0)).unwrap();
    assert_eq!(busy, 0, "the checkpoint went through");
    drop(db);
    let dir = temp_dir("copy");
    std::fs::copy(&original, dir.join(DATABASE_FILE)).unwrap();
    dir
}

#[tokio::test]
async fn a_copied_database_seats_nobody_but_the_players_tokens_still_work() {
    let server = start_server("stolen").await;
    let mut table = Table::new(server.addr, spec("gomoku", "")).await;
    table.play(Seat::First, "h8").await;
    table.play(Seat::Second, "h9").await;
    let (_cy, (waiting, cy_token, _, invite)) = create(server.addr, "Cy").await;
    let invite = invite.unwrap();

    let copy = start_server_in(copy_database(&server), Default::default()).await;
    let stored = secret_columns(&copy.data.join(DATABASE_FILE));
    let ids: Vec<&str> = stored.iter().map(|(id, _)| id.as_str()).collect();
    assert!(ids.contains(&table.game.as_str()) && ids.contains(&waiting.as_str()), "{ids:?}");
    let plain = [&table.tokens[0], &table.tokens[1], &cy_token, &invite];
    let mut eve = Client::hello(copy.addr, "Eve").await;
    for (game, values) in &stored {
        for (column, value) in values {
            assert!(!plain.contains(&value), "{column} of {game} holds a token");
            let (attempt, how) = if column.contains("invite") {
                (ClientMessage::Join { game: game.clone(), invite: value.clone() }, "join")
            } else {
                let token = value.clone();
                (ClientMessage::Resume { game: game.clone(), token, have_plies: None }, "resume")
            };
            eve.send(&attempt).await;
            assert_eq!(eve.error().await, ErrorCode::BadToken, "{how} with {column} of {game}");
        }
    }

    // The data did carry over: the players' own tokens resume on the copy.
    for (seat, token) in [Seat::First, Seat::Second].into_iter().zip(&table.tokens) {
        let mut player = Client::hello(copy.addr, "Player").await;
        resume(&mut player, &table.game, token).await;
        assert_eq!(seated(&mut player).await, (table.game.clone(), token.clone(), seat, None));
        let view = player.state().await;
        assert_eq!((view.status, view.moves.len()), (Status::Playing, 2));
    }
    // The creator of the waiting game gets the invite back from a server that never saw it.
    let mut cy = Client::hello(copy.addr, "Cy").await;
    resume(&mut cy, &waiting, &cy_token).await;
    let back = seated(&mut cy).await;
    assert_eq!(back, (waiting.clone(), cy_token.clone(), Seat::First, Some(invite.clone())));
    // The invite seats a joiner, whose new token is stored hashed and holds the seat.
    let mut dee = Client::hello(copy.addr, "Dee").await;
    dee.send(&ClientMessage::Join { game: waiting.clone(), invite }).await;
    let (_, dee_token, seat, _) = seated(&mut dee).await;
    assert_eq!(seat, Seat::Second);
    let stored = secret_columns(&copy.data.join(DATABASE_FILE));
    let (_, values) = stored.iter().find(|(id, _)| *id == waiting).unwrap();
    let dee_hash = hash_token(&dee_token);
    assert!(values.iter().any(|(_, value)| *value == dee_hash), "{values:?}");
    assert!(values.iter().all(|(_, value)| *value != dee_token));
    dee.close().await;
    let mut dee = Client::hello(copy.addr, "Dee").await;
    resume(&mut dee, &waiting, &dee_token).await;
    assert_eq!(seated(&mut dee).await.2, Seat::Second);
}

/// Waits until game `id` has left the server's memory.
async fn unloaded(server: &Server, id: &str) {
    let waited = tokio::time::timeout(WAIT, async {
        while server.hub.is_loaded(id) {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    });
    waited.await.expect("the idle game leaves memory");
}

#[tokio::test]
async fn after_the_game_left_memory_the_creator_gets_the_invite_and_the_joiner_a_token() {
    let server = start_server("unloaded").await;
    server.hub.set_idle_stop(Duration::from_millis(50));
    let (cy, (game, cy_token, _, invite)) = create(server.addr, "Cy").await;
    cy.close().await;
    unloaded(&server, &game).await;

    let mut cy = Client::hello(server.addr, "Cy").await;
    resume(&mut cy, &game, &cy_token).await;
    assert_eq!(seated(&mut cy).await.3, invite, "the same invite");
    cy.close().await;
    unloaded(&server, &game).await;

    let mut dee = Client::hello(server.addr, "Dee").await;
    dee.send(&ClientMessage::Join { game: game.clone(), invite: invite.unwrap() }).await;
    let (_, dee_token, seat, _) = seated(&mut dee).await;
    assert_eq!(seat, Seat::Second);
    dee.close().await;
    unloaded(&server, &game).await;

    let mut dee = Client::hello(server.addr, "Dee").await;
    resume(&mut dee, &game, &dee_token).await;
    assert_eq!(seated(&mut dee).await, (game.clone(), dee_token, Seat::Second, None));
    assert_eq!(dee.state().await.status, Status::Playing);
}
