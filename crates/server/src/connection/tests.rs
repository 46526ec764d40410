//! The connection handler driven through channels, with no socket.

use qi_protocol::{ClockSpec, GameAction, Variant};
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use futures_util::{Sink, Stream, sink, stream};
use qi_protocol::{
    ClientMessage, ErrorCode, GameSpec, GameView, Seat, SeatChoice, ServerMessage, VERSION,
};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use super::*;
use crate::clock::MonotonicClock;
use crate::storage::{MemoryStorage, StorageHandle};

type FrameSink = Pin<Box<dyn Sink<Frame, Error = ()> + Send>>;
type FrameStream = Pin<Box<dyn Stream<Item = Result<Frame, FrameError>> + Send>>;

/// A client's end of a connection served through channels.
struct Client {
    to_server: mpsc::Sender<Result<Frame, FrameError>>,
    from_server: mpsc::Receiver<Frame>,
    served: JoinHandle<()>,
}

fn hub() -> Arc<Hub> {
    hub_with(crate::limits::Limits::default())
}

fn hub_with(limits: crate::limits::Limits) -> Arc<Hub> {
    let storage = StorageHandle::spawn(MemoryStorage::new()).unwrap();
    Hub::with_limits(storage, Arc::new(MonotonicClock::new()), limits)
}

/// Limits on games per address out of the way, for tests of other limits.
fn roomy() -> crate::limits::Limits {
    crate::limits::Limits {
        games_per_minute: 1_000,
        aborts_per_minute: 1_000,
        ..crate::limits::Limits::default()
    }
}

fn connect(hub: &Arc<Hub>, config: ConnectionConfig) -> Client {
    let (to_client, from_server) = mpsc::channel(256);
    let (to_server, from_client) = mpsc::channel(256);
    let frames_out: FrameSink = Box::pin(sink::unfold(to_client, |to_client, frame| async move {
        to_client.send(frame).await.map_err(|_| ())?;
        Ok(to_client)
    }));
    let frames_in: FrameStream =
        Box::pin(stream::unfold(
            from_client,
            |mut rx| async move { rx.recv().await.map(|f| (f, rx)) },
        ));
    let served = tokio::spawn(serve(Arc::clone(hub), config, frames_out, frames_in));
    Client { to_server, from_server, served }
}

impl Client {
    async fn send(&self, message: &ClientMessage) {
        self.send_text(message.to_json()).await;
    }

    async fn send_text(&self, text: impl Into<String>) {
        self.to_server.send(Ok(Frame::Text(text.into()))).await.unwrap();
    }

    /// The `i`th keep-alive: a protocol pong, a WebSocket ping or a WebSocket pong, in turn.
    async fn send_keep_alive(&self, i: usize) {
        let frame = match i % 3 {
            0 => Frame::Text(ClientMessage::Pong { nonce: 0 }.to_json()),
            1 => Frame::Ping(vec![1]),
            _ => Frame::Pong(vec![2]),
        };
        self.to_server.send(Ok(frame)).await.unwrap();
    }

    /// The next frame that is not a protocol ping.
    async fn next(&mut self) -> Frame {
        loop {
            let frame = tokio::time::timeout(Duration::from_secs(5), self.from_server.recv())
                .await
                .expect("a frame in time")
                .expect("the connection is open");
            if let Frame::Text(text) = &frame
                && matches!(ServerMessage::parse(text), Ok(ServerMessage::Ping { .. }))
            {
                continue;
            }
            return frame;
        }
    }

    async fn message(&mut self) -> ServerMessage {
        match self.next().await {
            Frame::Text(text) => ServerMessage::parse(&text).unwrap(),
            other => panic!("expected a message, got {other:?}"),
        }
    }

    async fn error_code(&mut self) -> ErrorCode {
        match self.message().await {
            ServerMessage::Error { code, .. } => code,
            other => panic!("expected an error, got {other:?}"),
        }
    }

    async fn hello(&mut self) {
        self.send(&ClientMessage::Hello { version: VERSION, name: "Ann".into() }).await;
        assert_eq!(
            self.message().await,
            ServerMessage::Welcome { version: VERSION, account: None }
        );
    }

    /// Reads messages until `pick` picks one.
    async fn until<T>(&mut self, mut pick: impl FnMut(&ServerMessage) -> Option<T>) -> T {
        loop {
            if let Some(found) = pick(&self.message().await) {
                return found;
            }
        }
    }

    /// The next `Seated`: game, token, seat, invite.
    async fn seated(&mut self) -> (String, String, Seat, Option<String>) {
        self.until(|m| match m {
            ServerMessage::Seated { game, token, seat, invite } => {
                Some((game.clone(), token.clone(), *seat, invite.clone()))
            }
            _ => None,
        })
        .await
    }

    async fn state(&mut self) -> GameView {
        self.until(|m| match m {
            ServerMessage::State { view } => Some(view.clone()),
            _ => None,
        })
        .await
    }

    /// Closes the connection and waits until the server is done with it.
    async fn close(self) {
        drop(self.to_server);
        tokio::time::timeout(Duration::from_secs(5), self.served).await.unwrap().unwrap();
    }
}

async fn wait_unloaded(hub: &Hub, game: &str) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    while hub.is_loaded(game) {
        assert!(tokio::time::Instant::now() < deadline, "game {game} still in memory");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[tokio::test]
async fn a_game_nobody_is_in_without_a_running_clock_leaves_memory_and_comes_back_intact() {
    let hub = hub();
    hub.set_idle_stop(Duration::from_millis(50));
    let spec = GameSpec::of(Variant::Gomoku);
    let mut ann = connect(&hub, ConnectionConfig::default());
    ann.hello().await;
    ann.send(&ClientMessage::Create { spec: spec.clone(), seat: SeatChoice::First }).await;
    let (game, ann_token, _, invite) = ann.seated().await;
    ann.close().await;
    wait_unloaded(&hub, &game).await;

    // Unloaded while waiting: the invite still seats the second player.
    let mut bo = connect(&hub, ConnectionConfig::default());
    bo.hello().await;
    bo.send(&ClientMessage::Join { game: game.clone(), invite: invite.unwrap() }).await;
    let (_, bo_token, bo_seat, _) = bo.seated().await;
    assert_eq!(bo_seat, Seat::Second);
    bo.close().await;
    wait_unloaded(&hub, &game).await;
    let mut ann = connect(&hub, ConnectionConfig::default());
    ann.hello().await;
    let resume =
        ClientMessage::Resume { game: game.clone(), token: ann_token.clone(), have_plies: None };
    ann.send(&resume).await;
    ann.send(&ClientMessage::Move { game: game.clone(), ply: 0, text: "h8".into() }).await;
    ann.until(|m| matches!(m, ServerMessage::Moved { .. }).then_some(())).await;
    ann.close().await;
    wait_unloaded(&hub, &game).await;

    let mut cy = connect(&hub, ConnectionConfig::default());
    cy.hello().await;
    cy.send(&ClientMessage::Watch { game: game.clone(), have_plies: None }).await;
    let view = cy.state().await;
    let texts: Vec<&str> = view.moves.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(texts, ["h8"]);
    assert_eq!(view.players[0].name.as_deref(), Some("Ann"));
    assert_eq!(view.players[1].name.as_deref(), Some("Ann"));
    assert_eq!(view.status, qi_protocol::Status::Playing);
    cy.close().await;
    wait_unloaded(&hub, &game).await;

    let mut bo = connect(&hub, ConnectionConfig::default());
    bo.hello().await;
    let resume = ClientMessage::Resume { game: game.clone(), token: bo_token, have_plies: None };
    bo.send(&resume).await;
    assert_eq!(bo.seated().await.2, Seat::Second);
    let mut ann = connect(&hub, ConnectionConfig::default());
    ann.hello().await;
    let resume = ClientMessage::Resume { game: game.clone(), token: ann_token, have_plies: None };
    ann.send(&resume).await;
    assert_eq!(ann.seated().await.2, Seat::First);
    bo.send(&ClientMessage::Move { game: game.clone(), ply: 1, text: "h9".into() }).await;
    let mv = ann
        .until(|m| match m {
            ServerMessage::Moved { mv, .. } => Some(mv.clone()),
            _ => None,
        })
        .await;
    assert_eq!((mv.ply, mv.text.as_str()), (1, "h9"));
}

#[tokio::test]
async fn hello_first_then_errors_change_nothing() {
    let hub = hub();
    let mut client = connect(&hub, ConnectionConfig::default());
    client.send(&ClientMessage::CancelSeek).await;
    assert_eq!(client.error_code().await, ErrorCode::Unexpected);
    let long_name = ClientMessage::Hello { version: VERSION, name: "x".repeat(21) };
    client.send(&long_name).await;
    assert_eq!(client.error_code().await, ErrorCode::BadName);
    client.hello().await;
    client.send_text("{not json").await;
    assert_eq!(client.error_code().await, ErrorCode::BadMessage);
    client.send_text(r#"{"type":"teleport"}"#).await;
    assert_eq!(client.error_code().await, ErrorCode::Unexpected);
    client.to_server.send(Ok(Frame::Binary(vec![1, 2]))).await.unwrap();
    assert_eq!(client.error_code().await, ErrorCode::BadMessage);
    client.send(&ClientMessage::Act { game: "nope".into(), action: GameAction::Resign }).await;
    assert_eq!(client.error_code().await, ErrorCode::UnknownGame);
    // A game that does not exist, an option its rules do not have and a value they do not
    // take do not read as a spec: the message is no message.
    for spec in [
        r#"{"rules":{"game":"checkers"}}"#,
        r#"{"rules":{"game":"chess","nonsense":1}}"#,
        r#"{"rules":{"game":"gomoku","size":16}}"#,
    ] {
        client.send_text(&format!(r#"{{"type":"create","spec":{spec},"seat":"first"}}"#)).await;
        assert_eq!(client.error_code().await, ErrorCode::BadMessage, "{spec}");
    }
    // A clock the server does not run is a spec refused.
    let clock = Some(ClockSpec { base_secs: 0, increment_secs: 0 });
    let spec = GameSpec { clock, ..GameSpec::of(Variant::Chess) };
    client.send(&ClientMessage::Create { spec, seat: SeatChoice::First }).await;
    assert_eq!(client.error_code().await, ErrorCode::BadSpec);
}

#[tokio::test]
async fn a_created_game_seats_its_creator() {
    let hub = hub();
    let mut client = connect(&hub, ConnectionConfig::default());
    client.hello().await;
    let spec = GameSpec::of(Variant::Gomoku);
    client.send(&ClientMessage::Create { spec, seat: SeatChoice::Second }).await;
    let ServerMessage::Seated { seat, invite, .. } = client.message().await else { panic!() };
    assert_eq!(seat, qi_protocol::Seat::Second);
    assert!(invite.is_some());
    assert!(matches!(client.message().await, ServerMessage::Presence { connected: true, .. }));
    let ServerMessage::State { view } = client.message().await else { panic!() };
    assert_eq!(view.you, Some(qi_protocol::Seat::Second));
}

#[tokio::test]
async fn ended_games_do_not_count_against_the_games_at_once() {
    let hub = hub_with(roomy());
    let spec = GameSpec::of(Variant::Gomoku);
    let mut ann = connect(&hub, ConnectionConfig::default());
    ann.hello().await;
    for _ in 0..crate::hub::MAX_GAMES_PER_CONNECTION {
        ann.send(&ClientMessage::Create { spec: spec.clone(), seat: SeatChoice::First }).await;
        let (game, ..) = ann.seated().await;
        ann.send(&ClientMessage::Act { game, action: GameAction::Abort }).await;
        ann.until(|m| matches!(m, ServerMessage::Ended { .. }).then_some(())).await;
    }
    ann.send(&ClientMessage::Create { spec, seat: SeatChoice::First }).await;
    let seated = ann.until(|m| match m {
        ServerMessage::Seated { .. } => Some(true),
        ServerMessage::Error { .. } => Some(false),
        _ => None,
    });
    assert!(seated.await, "a 17th game after 16 aborted ones");
}

#[tokio::test]
async fn another_version_is_told_and_closed() {
    let hub = hub();
    let mut client = connect(&hub, ConnectionConfig::default());
    client.send(&ClientMessage::Hello { version: VERSION + 1, name: String::new() }).await;
    assert_eq!(client.error_code().await, ErrorCode::VersionMismatch);
    assert_eq!(client.next().await, Frame::Close(Some(CLOSE_PROTOCOL)));
}

#[tokio::test]
async fn a_frame_over_the_limit_closes_with_1009() {
    let hub = hub();
    let mut client = connect(&hub, ConnectionConfig::default());
    client.hello().await;
    client.send_text("x".repeat(MAX_FRAME_BYTES + 1)).await;
    assert_eq!(client.next().await, Frame::Close(Some(CLOSE_TOO_BIG)));
    client.served.await.unwrap();

    let mut client = connect(&hub, ConnectionConfig::default());
    client.to_server.send(Err(FrameError::TooBig)).await.unwrap();
    assert_eq!(client.next().await, Frame::Close(Some(CLOSE_TOO_BIG)));
}

#[tokio::test]
async fn a_text_frame_that_is_not_utf_8_closes_with_1007() {
    let hub = hub();
    let mut client = connect(&hub, ConnectionConfig::default());
    client.hello().await;
    client.to_server.send(Err(FrameError::BadUtf8)).await.unwrap();
    assert_eq!(client.next().await, Frame::Close(Some(CLOSE_BAD_DATA)));
    client.served.await.unwrap();
}

#[tokio::test]
async fn the_101st_message_closes_with_1008_and_keep_alives_do_not_count() {
    let hub = hub();
    let mut client = connect(&hub, ConnectionConfig::default());
    client.hello().await;
    // Messages 2 to 99, with as many keep-alives as may come in the window between them.
    let mut keep_alives = 0..RATE_MAX_KEEP_ALIVES;
    for _ in 2..RATE_MAX_MESSAGES {
        client.send(&ClientMessage::CancelSeek).await;
        if let Some(i) = keep_alives.next() {
            client.send_keep_alive(i).await;
        }
    }
    for i in keep_alives {
        client.send_keep_alive(i).await;
    }
    // The 100th is still read and answered; the 101st closes.
    client.send(&ClientMessage::Act { game: "none".into(), action: GameAction::Resign }).await;
    assert_eq!(client.error_code().await, ErrorCode::UnknownGame);
    client.send(&ClientMessage::CancelSeek).await;
    assert_eq!(client.next().await, Frame::Close(Some(CLOSE_POLICY)));
    client.served.await.unwrap();
}

#[tokio::test]
async fn a_flood_of_keep_alives_closes_with_1008() {
    let hub = hub();
    let mut client = connect(&hub, ConnectionConfig::default());
    client.hello().await;
    for i in 0..RATE_MAX_KEEP_ALIVES {
        client.send_keep_alive(i).await;
    }
    client.send(&ClientMessage::Act { game: "none".into(), action: GameAction::Resign }).await;
    assert_eq!(client.error_code().await, ErrorCode::UnknownGame, "messages have their own room");
    client.send(&ClientMessage::Pong { nonce: 0 }).await;
    assert_eq!(client.next().await, Frame::Close(Some(CLOSE_POLICY)));
    client.served.await.unwrap();
}

#[tokio::test]
async fn a_client_that_never_says_hello_is_closed_with_1008() {
    let hub = hub();
    let config = ConnectionConfig {
        hello_within: Duration::from_millis(200),
        ..ConnectionConfig::default()
    };
    let mut idle = connect(&hub, config);
    // Busy, but never saying hello: answering pings keeps a socket alive, not in.
    idle.send(&ClientMessage::Pong { nonce: 0 }).await;
    assert_eq!(idle.next().await, Frame::Close(Some(CLOSE_POLICY)));
    idle.served.await.unwrap();
    // One that said hello in time stays past the deadline.
    let mut ann = connect(&hub, config);
    ann.hello().await;
    tokio::time::sleep(Duration::from_millis(400)).await;
    ann.send(&ClientMessage::Act { game: "none".into(), action: GameAction::Resign }).await;
    assert!(matches!(ann.message().await, ServerMessage::Error { .. }));
}

#[tokio::test]
async fn a_silent_peer_is_dropped() {
    let hub = hub();
    let config = ConnectionConfig {
        ping_every: Duration::from_millis(20),
        dead_after: Duration::from_millis(100),
        ..ConnectionConfig::default()
    };
    let client = connect(&hub, config);
    tokio::time::timeout(Duration::from_secs(5), client.served).await.unwrap().unwrap();
}

#[test]
fn pongs_measure_half_the_round_trip() {
    let mut pings = Pings::default();
    let start = Instant::now();
    let nonce = pings.start(start);
    pings.answer(nonce + 1, start + Duration::from_millis(10));
    assert_eq!(pings.lag_ms, 0, "a pong for another ping counts for nothing");
    pings.answer(nonce, start + Duration::from_millis(120));
    assert_eq!(pings.lag_ms, 60);
}

#[tokio::test]
async fn a_refused_name_is_told_what_was_wrong_and_a_good_one_is_kept_composed() {
    let hub = hub();
    let mut client = connect(&hub, ConnectionConfig::default());
    client.send(&ClientMessage::Hello { version: VERSION, name: "\u{3164}".into() }).await;
    match client.message().await {
        ServerMessage::Error { code: ErrorCode::BadName, detail } => {
            assert!(detail.contains("U+3164"), "{detail}");
        }
        other => panic!("expected a bad name, got {other:?}"),
    }
    // Decomposed, as some systems type it: longer than the limit, but not once composed.
    let decomposed = "Nguye\u{302}\u{303}n Thi\u{323} Ngo\u{323}c A\u{301}nh";
    client.send(&ClientMessage::Hello { version: VERSION, name: decomposed.into() }).await;
    assert_eq!(client.message().await, ServerMessage::Welcome { version: VERSION, account: None });
    let spec = GameSpec::of(Variant::Gomoku);
    client.send(&ClientMessage::Create { spec, seat: SeatChoice::First }).await;
    let view = client.state().await;
    assert_eq!(view.players[0].name.as_deref(), Some("Nguyễn Thị Ngọc Ánh"));
}
