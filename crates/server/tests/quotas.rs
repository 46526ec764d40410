//! What one client address can make the server keep: games created and aborted a minute,
//! unfinished games, games per connection. A flood of create-and-abort is refused with an error
//! that names the limit, and the games it made do not stay in memory.

mod common;

use common::{Client, spec, start_server_settings, temp_dir};
use qi_protocol::GameAction;
use qi_protocol::{ClientMessage, ErrorCode, SeatChoice, ServerMessage};
use qi_server::app::Settings;
use qi_server::limits::{Limit, Limits};

async fn server(tag: &str, limits: Limits) -> common::Server {
    let data = temp_dir(tag);
    let mut settings = Settings::new(data.join("dist"));
    settings.limits = limits;
    start_server_settings(data, settings).await
}

/// Creates a gomoku game; its id, or the error's code and detail.
async fn create(client: &mut Client) -> Result<String, (ErrorCode, String)> {
    let spec = spec("gomoku", "");
    client.send(&ClientMessage::Create { spec, seat: SeatChoice::First }).await;
    client
        .until(|m| match m {
            ServerMessage::Seated { game, .. } => Some(Ok(game.clone())),
            ServerMessage::Error { code, detail } => Some(Err((*code, detail.clone()))),
            _ => None,
        })
        .await
}

/// Aborts `game`; `Ok` once it ended, or the error.
async fn abort(client: &mut Client, game: &str) -> Result<(), (ErrorCode, String)> {
    client.send(&ClientMessage::Act { game: game.to_owned(), action: GameAction::Abort }).await;
    client
        .until(|m| match m {
            ServerMessage::Ended { .. } => Some(Ok(())),
            ServerMessage::Error { code, detail } => Some(Err((*code, detail.clone()))),
            _ => None,
        })
        .await
}

#[tokio::test]
async fn a_create_and_abort_flood_is_refused_and_leaves_nothing_in_memory() {
    let limits = Limits { games_per_minute: 10, aborts_per_minute: 1_000, ..Limits::default() };
    let server = server("flood", limits).await;
    let mut client = Client::hello(server.addr, "Flood").await;
    let mut made = 0;
    let mut refusal = None;
    for _ in 0..40 {
        match create(&mut client).await {
            Ok(game) => {
                made += 1;
                abort(&mut client, &game).await.unwrap();
            }
            Err(error) => {
                refusal = Some(error);
                break;
            }
        }
    }
    assert_eq!(made, 10, "ten games a minute, then refused");
    let (code, detail) = refusal.expect("the 11th game is refused");
    assert_eq!(code, ErrorCode::RateLimited);
    assert!(detail.contains("at most 10 a minute") && detail.contains("try again in"), "{detail}");
    // Another connection from the same address is refused too: the limit is the address's.
    let mut other = Client::hello(server.addr, "Flood2").await;
    assert_eq!(create(&mut other).await.unwrap_err().0, ErrorCode::RateLimited);
    // Aborted games left memory at once.
    let hub = &server.hub;
    for _ in 0..100 {
        if hub.loaded_games() == 0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert_eq!(hub.loaded_games(), 0, "aborted games are not kept in memory");
    assert!(hub.metrics().refusals(Limit::GamesPerMinute) >= 2);
}

#[tokio::test]
async fn aborts_a_minute_and_unfinished_games_are_limited() {
    let limits = Limits {
        games_per_minute: 1_000,
        aborts_per_minute: 3,
        unfinished_per_address: 5,
        ..Limits::default()
    };
    let server = server("unfinished", limits).await;
    let mut client = Client::hello(server.addr, "Ann").await;
    let mut games = Vec::new();
    for _ in 0..5 {
        games.push(create(&mut client).await.unwrap());
    }
    let (code, detail) = create(&mut client).await.unwrap_err();
    assert_eq!(code, ErrorCode::RateLimited);
    assert!(detail.contains("unfinished games") && detail.contains("at most 5"), "{detail}");
    assert_eq!(server.hub.unfinished_of("127.0.0.1".parse().unwrap()).await, 5);
    // Three aborts a minute; the fourth is refused, and its game goes on.
    for game in &games[..3] {
        abort(&mut client, game).await.unwrap();
    }
    let (code, detail) = abort(&mut client, &games[3]).await.unwrap_err();
    assert_eq!(code, ErrorCode::RateLimited);
    assert!(detail.contains("aborted games") && detail.contains("at most 3 a minute"), "{detail}");
    // The aborted games no longer count: there is room for three more.
    for _ in 0..3 {
        create(&mut client).await.unwrap();
    }
    assert_eq!(create(&mut client).await.unwrap_err().0, ErrorCode::RateLimited);
}

#[tokio::test]
async fn a_connection_lets_go_of_its_oldest_finished_games_past_its_limit() {
    let limits = Limits { games_per_connection: 4, ..common::roomy_limits() };
    let server = server("per-connection", limits).await;
    let mut client = Client::hello(server.addr, "Ann").await;
    // Watching ten finished games one after another: always room, the oldest let go.
    let mut finished = Vec::new();
    for _ in 0..10 {
        let game = create(&mut client).await.unwrap();
        abort(&mut client, &game).await.unwrap();
        finished.push(game);
    }
    for game in &finished {
        client.send(&ClientMessage::Watch { game: game.clone(), have_plies: None }).await;
        client.state().await;
    }
    // And a new game still fits: finished games never block one.
    create(&mut client).await.unwrap();
}

#[tokio::test]
async fn games_going_past_the_connection_limit_are_refused_by_name() {
    let limits = Limits { games_per_connection: 4, ..common::roomy_limits() };
    let server = server("going", limits).await;
    let mut client = Client::hello(server.addr, "Bo").await;
    for _ in 0..4 {
        create(&mut client).await.unwrap();
    }
    let (code, detail) = create(&mut client).await.unwrap_err();
    assert_eq!(code, ErrorCode::TooManyGames);
    assert!(detail.contains("at most 4 per connection"), "{detail}");
    assert_eq!(server.hub.metrics().refusals(Limit::GamesPerConnection), 1);
}

/// Posts an open challenge (a listed gomoku game); its id, or the error's code and detail.
async fn challenge(client: &mut Client) -> Result<String, (ErrorCode, String)> {
    let spec = spec("gomoku", "");
    client.send(&ClientMessage::Challenge { spec, seat: SeatChoice::First }).await;
    client
        .until(|m| match m {
            ServerMessage::Seated { game, .. } => Some(Ok(game.clone())),
            ServerMessage::Error { code, detail } => Some(Err((*code, detail.clone()))),
            _ => None,
        })
        .await
}

/// Issue 46: one address held 64 open challenges, 30 of the lobby's 40 rows.
#[tokio::test]
async fn open_challenges_are_capped_per_address_and_a_taken_one_counts_no_more() {
    let server = server("challenges", Limits::default()).await;
    let cap = Limits::default().open_challenges_per_address;
    assert_eq!(cap, 5);
    let mut client = Client::hello(server.addr, "Ann").await;
    let mut games = Vec::new();
    for _ in 0..cap {
        games.push(challenge(&mut client).await.unwrap());
    }
    let (code, detail) = challenge(&mut client).await.unwrap_err();
    assert_eq!(code, ErrorCode::RateLimited);
    assert!(detail.contains("open challenges") && detail.contains("at most 5"), "{detail}");
    // The address's, not the socket's.
    let mut other = Client::hello(server.addr, "Bo").await;
    assert_eq!(challenge(&mut other).await.unwrap_err().0, ErrorCode::RateLimited);
    // A private game (by invite only) is not a challenge in the lobby.
    create(&mut client).await.unwrap();
    // A challenge taken, or aborted, makes room for one more.
    other.send(&ClientMessage::Accept { game: games[0].clone() }).await;
    other.state().await;
    challenge(&mut client).await.unwrap();
    assert_eq!(challenge(&mut client).await.unwrap_err().0, ErrorCode::RateLimited);
    abort(&mut client, &games[1]).await.unwrap();
    challenge(&mut client).await.unwrap();
    assert!(server.hub.metrics().refusals(Limit::OpenChallenges) >= 3);
}
