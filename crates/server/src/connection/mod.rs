//! One client connection: a send task and a receive task under `select!`, over any
//! `Sink`/`Stream` of [`Frame`]s (a WebSocket in the server, channels in tests).
//!
//! The receive task reads frames, enforces the limits (a frame over [`MAX_FRAME_BYTES`] closes
//! the socket with 1009; a text frame that is not UTF-8 with 1007; more than [`RATE_MAX_MESSAGES`] frames in [`RATE_WINDOW_MS`] with 1008,
//! and so do more than [`RATE_MAX_KEEP_ALIVES`] pongs and pings, counted apart so that answering
//! pings never uses up the messages; nothing heard for [`ConnectionConfig::dead_after`] drops
//! it), reads messages and passes them
//! to the hub and the games. The send task writes what the outbox holds, and a protocol `Ping`
//! every [`ConnectionConfig::ping_every`], whose `Pong` measures the connection's lag.

#[cfg(test)]
mod tests;

use std::collections::VecDeque;
use std::net::{IpAddr, Ipv4Addr};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use futures_util::{Sink, SinkExt, Stream, StreamExt};
use qi_protocol::{
    ClientMessage, DEAD_PEER_MS, ErrorCode, GameAction, HELLO_WITHIN_MS, MAX_FRAME_BYTES,
    PING_INTERVAL_MS, RATE_MAX_KEEP_ALIVES, RATE_MAX_MESSAGES, RATE_WINDOW_MS, ServerMessage,
    VERSION, clean_name,
};
use tokio::sync::mpsc;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use crate::actor::{AttachReply, Command};
use crate::hub::Hub;
use crate::outbox::{
    CLOSE_BAD_DATA, CLOSE_POLICY, CLOSE_PROTOCOL, CLOSE_RESTART, CLOSE_TOO_BIG, Closer, Outbox,
};
use crate::session::{Action, Attach, ConnId, Denied, Player};
use crate::storage::unix_ms;

/// The longest game id looked up; longer ones name no game.
const MAX_GAME_ID_LEN: usize = 64;
/// How long closing may take (writing what is queued and the close frame).
const CLOSE_TIMEOUT: Duration = Duration::from_secs(1);

/// A WebSocket frame, as far as the protocol cares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Frame {
    /// A text frame: one message.
    Text(String),
    /// A binary frame (never a message).
    Binary(Vec<u8>),
    /// A WebSocket ping.
    Ping(Vec<u8>),
    /// A WebSocket pong.
    Pong(Vec<u8>),
    /// The closing handshake, with its code.
    Close(Option<u16>),
}

/// Why a frame could not be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrameError {
    /// It was larger than the WebSocket layer accepts.
    TooBig,
    /// A text frame (or message) that is not UTF-8.
    BadUtf8,
    /// The connection broke.
    Broken,
}

/// Timing of a connection's liveness checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConnectionConfig {
    /// How often the server pings.
    pub ping_every: Duration,
    /// How long a silent client is kept.
    pub dead_after: Duration,
    /// How long a client may stay without saying hello (answering pings does not count): a
    /// socket held open and never used is closed with 1008.
    pub hello_within: Duration,
}

impl Default for ConnectionConfig {
    fn default() -> Self {
        ConnectionConfig {
            ping_every: Duration::from_millis(PING_INTERVAL_MS),
            dead_after: Duration::from_millis(DEAD_PEER_MS),
            hello_within: Duration::from_millis(HELLO_WITHIN_MS),
        }
    }
}

/// The pings in flight and the lag they measured.
#[derive(Debug, Default)]
struct Pings {
    last_nonce: u64,
    outstanding: Option<(u64, Instant)>,
    lag_ms: u64,
}

impl Pings {
    fn start(&mut self, now: Instant) -> u64 {
        self.last_nonce += 1;
        self.outstanding = Some((self.last_nonce, now));
        self.last_nonce
    }

    /// A pong came: the lag is half the round trip.
    fn answer(&mut self, nonce: u64, now: Instant) {
        if let Some((sent_nonce, sent_at)) = self.outstanding
            && sent_nonce == nonce
        {
            self.outstanding = None;
            let round_trip = now.saturating_duration_since(sent_at).as_millis();
            self.lag_ms = u64::try_from(round_trip / 2).unwrap_or(u64::MAX);
        }
    }
}

type SharedPings = Arc<Mutex<Pings>>;

fn lock(pings: &SharedPings) -> std::sync::MutexGuard<'_, Pings> {
    pings.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Who is at the other end of a connection, and the server's stop signal.
#[derive(Clone, Debug)]
pub struct Peer {
    /// The client's address (for the limits per address).
    pub address: IpAddr,
    /// Cancelled when the server stops: the connection closes with 1012 and the client
    /// reconnects (to this server once it is back, or another).
    pub shutdown: CancellationToken,
    /// The session the page's cookie names (its token's hash), if it sent one: checked when
    /// the client says hello and again whenever it takes a seat, so that a session ended
    /// elsewhere ("log out everywhere") stops counting for new games at once.
    pub session: Option<String>,
}

impl Default for Peer {
    fn default() -> Self {
        Peer {
            address: IpAddr::V4(Ipv4Addr::LOCALHOST),
            shutdown: CancellationToken::new(),
            session: None,
        }
    }
}

/// Serves one connection from this machine until it closes, then takes it out of every game it
/// was in.
pub async fn serve<Si, St>(hub: Arc<Hub>, config: ConnectionConfig, sink: Si, stream: St)
where
    Si: Sink<Frame> + Unpin,
    St: Stream<Item = Result<Frame, FrameError>> + Unpin,
{
    serve_peer(Peer::default(), hub, config, sink, stream).await;
}

/// Serves one connection from `peer` until it closes or the server stops, then takes it out
/// of every game it was in.
pub async fn serve_peer<Si, St>(
    peer: Peer,
    hub: Arc<Hub>,
    config: ConnectionConfig,
    sink: Si,
    stream: St,
) where
    Si: Sink<Frame> + Unpin,
    St: Stream<Item = Result<Frame, FrameError>> + Unpin,
{
    let conn = hub.new_connection_from(peer.address);
    hub.metrics().sockets.inc();
    let (outbox, frames) = Outbox::new();
    let pings = SharedPings::default();
    let sending = send_frames(sink, frames, outbox.closer(), Arc::clone(&pings), config);
    let receiver = Receiver {
        hub: Arc::clone(&hub),
        conn,
        outbox,
        name: None,
        session: peer.session.clone(),
        fallback_name: String::new(),
        pings,
        messages: Rate::new(RATE_MAX_MESSAGES),
        keep_alives: Rate::new(RATE_MAX_KEEP_ALIVES),
        joined: false,
    };
    let closer = receiver.outbox.clone();
    let stopping = async {
        peer.shutdown.cancelled().await;
        closer.close(CLOSE_RESTART);
        std::future::pending::<()>().await;
    };
    tokio::select! {
        () = sending => {}
        () = receiver.run(stream, config) => {}
        () = stopping => {}
    }
    hub.disconnect(conn).await;
    hub.metrics().sockets.dec();
}

/// The send task: the outbox's frames and the pings, until a close is asked for or the socket
/// fails; then what is still queued and the close frame, within [`CLOSE_TIMEOUT`].
async fn send_frames<Si: Sink<Frame> + Unpin>(
    mut sink: Si,
    mut frames: mpsc::Receiver<Arc<str>>,
    closer: Arc<Closer>,
    pings: SharedPings,
    config: ConnectionConfig,
) {
    let mut ticker = tokio::time::interval(config.ping_every);
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        let frame = tokio::select! {
            biased;
            () = closer.closed() => break,
            text = frames.recv() => match text {
                Some(text) => Frame::Text(text.to_string()),
                None => break,
            },
            _ = ticker.tick() => {
                let nonce = lock(&pings).start(Instant::now());
                Frame::Text(ServerMessage::Ping { nonce }.to_json())
            }
        };
        tokio::select! {
            biased;
            () = closer.closed() => break,
            sent = sink.send(frame) => if sent.is_err() { return },
        }
    }
    let code = closer.code().unwrap_or(1000);
    let _ = tokio::time::timeout(CLOSE_TIMEOUT, async {
        while let Ok(text) = frames.try_recv() {
            if sink.send(Frame::Text(text.to_string())).await.is_err() {
                return;
            }
        }
        let _ = sink.send(Frame::Close(Some(code))).await;
    })
    .await;
}

/// The receive side of a connection.
struct Receiver {
    hub: Arc<Hub>,
    conn: ConnId,
    outbox: Outbox,
    /// The player's name, once they said hello (a signed-in player's username).
    name: Option<String>,
    /// The session cookie's hash, if the page sent one.
    session: Option<String>,
    /// The name said at hello by a signed-in page (played under if its session ends).
    fallback_name: String,
    pings: SharedPings,
    /// The rate limit of every frame but the keep-alive ones.
    messages: Rate,
    /// The rate limit of the keep-alive frames: protocol pongs, WebSocket pings and pongs.
    keep_alives: Rate,
    /// Whether the last [`Receiver::enter`] brought the connection into the game.
    joined: bool,
}

/// A frame as the receive task sorts it, before counting it against a rate limit.
enum Incoming {
    /// A message.
    Message(ClientMessage),
    /// A frame within the size limit that is not a message; why not.
    NotAMessage(String),
    /// A WebSocket ping or pong.
    KeepAlive,
    /// A frame over [`MAX_FRAME_BYTES`].
    TooBig,
    /// The closing handshake.
    Closed,
}

impl Incoming {
    /// Reads a frame: its size, then its message.
    fn sort(frame: Frame) -> Incoming {
        match frame {
            Frame::Text(text) if text.len() > MAX_FRAME_BYTES => Incoming::TooBig,
            Frame::Binary(bytes) if bytes.len() > MAX_FRAME_BYTES => Incoming::TooBig,
            Frame::Text(text) => match ClientMessage::parse(&text) {
                Ok(message) => Incoming::Message(message),
                Err(e) => Incoming::NotAMessage(e.to_string()),
            },
            Frame::Binary(_) => Incoming::NotAMessage("messages are text frames".into()),
            Frame::Ping(_) | Frame::Pong(_) => Incoming::KeepAlive,
            Frame::Close(_) => Incoming::Closed,
        }
    }

    /// Whether it only keeps the connection alive: counted apart from the messages.
    fn is_keep_alive(&self) -> bool {
        matches!(self, Incoming::KeepAlive | Incoming::Message(ClientMessage::Pong { .. }))
    }
}

/// A limit on how many frames may come within [`RATE_WINDOW_MS`], over a sliding window.
#[derive(Debug)]
struct Rate {
    max: usize,
    /// When the frames of the window came.
    arrivals: VecDeque<Instant>,
}

impl Rate {
    fn new(max: usize) -> Rate {
        Rate { max, arrivals: VecDeque::with_capacity(max) }
    }

    /// Counts a frame; false once there are too many in the window.
    fn admit(&mut self, now: Instant) -> bool {
        let window = Duration::from_millis(RATE_WINDOW_MS);
        while self.arrivals.front().is_some_and(|&at| now.duration_since(at) >= window) {
            self.arrivals.pop_front();
        }
        if self.arrivals.len() >= self.max {
            return false;
        }
        self.arrivals.push_back(now);
        true
    }
}

impl Receiver {
    async fn run<St>(mut self, mut stream: St, config: ConnectionConfig)
    where
        St: Stream<Item = Result<Frame, FrameError>> + Unpin,
    {
        let hello_by = Instant::now() + config.hello_within;
        loop {
            let wait = if self.name.is_some() {
                config.dead_after
            } else {
                config.dead_after.min(hello_by.saturating_duration_since(Instant::now()))
            };
            let frame = match tokio::time::timeout(wait, stream.next()).await {
                // The hello deadline passed: closed with a reason. Silence (the peer is gone):
                // dropped.
                Err(_) if self.name.is_none() && Instant::now() >= hello_by => {
                    return self.close(CLOSE_POLICY).await;
                }
                Err(_) | Ok(None | Some(Err(FrameError::Broken))) => return,
                Ok(Some(Err(FrameError::TooBig))) => return self.close(CLOSE_TOO_BIG).await,
                Ok(Some(Err(FrameError::BadUtf8))) => return self.close(CLOSE_BAD_DATA).await,
                Ok(Some(Ok(frame))) => frame,
            };
            let incoming = Incoming::sort(frame);
            let now = Instant::now();
            let rate =
                if incoming.is_keep_alive() { &mut self.keep_alives } else { &mut self.messages };
            if !rate.admit(now) {
                self.hub.metrics().refused(crate::limits::Limit::MessageRate);
                return self.close(CLOSE_POLICY).await;
            }
            if self.name.is_none() && now >= hello_by {
                return self.close(CLOSE_POLICY).await;
            }
            let close = match incoming {
                Incoming::Message(message) => self.on_message(message).await,
                Incoming::NotAMessage(detail) => self.error(ErrorCode::BadMessage, detail),
                Incoming::KeepAlive => None,
                Incoming::TooBig => Some(CLOSE_TOO_BIG),
                Incoming::Closed => return,
            };
            if let Some(code) = close {
                return self.close(code).await;
            }
        }
    }

    /// Asks the send task to close with `code`, and waits for it to finish.
    async fn close(&self, code: u16) {
        self.outbox.close(code);
        std::future::pending::<()>().await;
    }

    fn send(&self, message: &ServerMessage) {
        self.outbox.send(message);
    }

    /// Sends an error; never closes.
    fn error(&self, code: ErrorCode, detail: impl Into<String>) -> Option<u16> {
        self.send(&ServerMessage::Error { code, detail: detail.into() });
        None
    }

    fn deny(&self, denied: Denied) -> Option<u16> {
        self.error(denied.code, denied.detail)
    }

    /// Handles one message; returns a close code when the connection must close.
    async fn on_message(&mut self, message: ClientMessage) -> Option<u16> {
        if let ClientMessage::Pong { nonce } = message {
            lock(&self.pings).answer(nonce, Instant::now());
            return None;
        }
        let Some(name) = self.name.clone() else { return self.hello(message).await };
        let (conn, outbox) = (self.conn, self.outbox.clone());
        match message {
            ClientMessage::Hello { .. } => self.error(ErrorCode::Unexpected, "hello was said"),
            ClientMessage::Create { spec, seat } => {
                let player = self.player(name).await;
                self.create(spec, seat, false, player).await
            }
            ClientMessage::Challenge { spec, seat } => {
                let player = self.player(name).await;
                self.create(spec, seat, true, player).await
            }
            ClientMessage::Accept { game } => {
                if let Err(denied) = self.hub.admit_seat(conn).await {
                    return self.deny(denied);
                }
                let player = self.player(name).await;
                let answer = self.enter(&game, Attach::Accept { player }, None).await;
                if answer.is_none() && self.joined {
                    self.hub.note_seated(&[conn], &game).await;
                    self.hub.challenge_taken(&game).await;
                }
                answer
            }
            ClientMessage::Lobby { variant, seek } => {
                let key = match seek.as_ref().map(crate::session::check_spec).transpose() {
                    Ok(key) => key,
                    Err(denied) => return self.deny(denied),
                };
                match self.hub.lobby().follow(conn, outbox, variant, key) {
                    Ok(()) => None,
                    Err(denied) => self.deny(denied),
                }
            }
            ClientMessage::LeaveLobby => {
                self.hub.lobby().leave(conn);
                None
            }
            ClientMessage::Seek { spec } => {
                if let Err(denied) = self.hub.make_room(conn, None).await {
                    return self.deny(denied);
                }
                let player = self.player(name).await;
                self.hub.seek(spec, player, conn, outbox).await.err().and_then(|d| self.deny(d))
            }
            ClientMessage::CancelSeek => {
                self.hub.cancel_seek(conn).await;
                None
            }
            ClientMessage::Join { game, invite } => {
                if let Err(denied) = self.hub.admit_seat(conn).await {
                    return self.deny(denied);
                }
                let player = self.player(name).await;
                let answer = self.enter(&game, Attach::Invite { invite, player }, None).await;
                if answer.is_none() && self.joined {
                    self.hub.note_seated(&[conn], &game).await;
                    self.hub.challenge_taken(&game).await;
                }
                answer
            }
            ClientMessage::Resume { game, token, have_plies } => {
                self.enter(&game, Attach::Token(token), have_plies).await
            }
            ClientMessage::Sit { game, have_plies } => {
                // A session that ended meanwhile watches, as `sit` does for an account
                // without a seat.
                let how = match self.player(name).await.account {
                    Some(account) => Attach::Account(account),
                    None => Attach::Watch,
                };
                self.enter(&game, how, have_plies).await
            }
            ClientMessage::Watch { game, have_plies } => {
                self.enter(&game, Attach::Watch, have_plies).await
            }
            ClientMessage::Move { game, ply, text } => {
                let lag_ms = lock(&self.pings).lag_ms;
                let received = std::time::Instant::now();
                let command = move || Command::Move {
                    conn,
                    outbox: outbox.clone(),
                    ply,
                    text: text.clone(),
                    lag_ms,
                    received,
                };
                self.command(&game, command).await
            }
            ClientMessage::Act { game, action } => {
                if action == GameAction::Abort
                    && let Err(denied) = self.hub.admit_abort(conn).await
                {
                    return self.deny(denied);
                }
                self.act(&game, Action::Game(action)).await
            }
            ClientMessage::Chat { game, body } => {
                let name = self.name.clone().unwrap_or_default();
                self.act(&game, Action::Chat { name, body }).await
            }
            ClientMessage::Pong { .. } => None,
            ClientMessage::Unknown => self.error(ErrorCode::Unexpected, "unknown message type"),
        }
    }

    /// Who takes a seat: the account, while its session holds (with its ratings now), else
    /// the name said at hello.
    async fn player(&self, name: String) -> Player {
        let Some(hash) = &self.session else { return Player::anonymous(name) };
        let storage = self.hub.storage();
        let signed_in = match storage.session(hash.clone()).await {
            Ok(Some((session, account))) if session.is_live(unix_ms()) => Some(account),
            _ => None,
        };
        // A session ended meanwhile (logged out everywhere): anonymous under the name said at
        // hello, not the username.
        let Some(account) = signed_in else { return Player::anonymous(self.fallback_name.clone()) };
        let ratings = storage.ratings(account.key.clone()).await.unwrap_or_default();
        Player {
            name: account.name,
            account: Some(account.key),
            ratings: crate::hub::shown_ratings(&ratings, unix_ms()),
        }
    }

    /// The registered account whose name `name` is or looks like, if any: a guest may not
    /// pass for it. A store that does not answer lets the name through (logged): guests
    /// play on while it is away, as they did before accounts.
    async fn account_named_like(&self, name: &str) -> Option<String> {
        if name.is_empty() {
            return None;
        }
        let skeleton = crate::names::name_skeleton(name);
        match self.hub.storage().account_named_like(skeleton).await {
            Ok(found) => found,
            Err(error) => {
                tracing::warn!(%error, "a guest's name could not be checked against the accounts");
                None
            }
        }
    }

    /// Before anything else: the version and the name.
    async fn hello(&mut self, message: ClientMessage) -> Option<u16> {
        let ClientMessage::Hello { version, name } = message else {
            return self.error(ErrorCode::Unexpected, "say hello first");
        };
        if version != VERSION {
            let detail = format!("this server speaks version {VERSION}");
            self.error(ErrorCode::VersionMismatch, detail);
            return Some(CLOSE_PROTOCOL);
        }
        if let Some(hash) = self.session.clone() {
            match self.hub.storage().session(hash).await {
                Ok(Some((session, account))) if session.is_live(unix_ms()) => {
                    // The name said is kept for when the session ends while the socket is open
                    // (then played as a guest's: not if it is an account's, this one's too).
                    let fallback = clean_name(&name).unwrap_or_default();
                    let registered = self.account_named_like(&fallback).await.is_some();
                    self.fallback_name = if registered { String::new() } else { fallback };
                    self.name = Some(account.name.clone());
                    let welcome =
                        ServerMessage::Welcome { version: VERSION, account: Some(account.name) };
                    self.send(&welcome);
                    return None;
                }
                // A cookie that names no live session counts for nothing.
                Ok(_) => self.session = None,
                // Not known now: the page comes back (and says hello again) in a moment rather
                // than play on unsigned while it shows the account.
                Err(error) => {
                    tracing::warn!(%error, "a session could not be read");
                    self.error(ErrorCode::Unexpected, "accounts cannot be reached; reconnecting");
                    return Some(CLOSE_RESTART);
                }
            }
        }
        match clean_name(&name) {
            Ok(name) => {
                if let Some(account) = self.account_named_like(&name).await {
                    let detail = format!(
                        "{account:?} is a registered player's name (or looks like one): sign in \
                         to play as {account}, or choose another name"
                    );
                    return self.error(ErrorCode::BadName, detail);
                }
                self.name = Some(name);
            }
            Err(refused) => return self.error(ErrorCode::BadName, refused.to_string()),
        }
        self.send(&ServerMessage::Welcome { version: VERSION, account: None });
        None
    }

    /// Creates a game (`listed`: an open challenge in the lobby) and seats the creator.
    async fn create(
        &self,
        spec: qi_protocol::GameSpec,
        seat: qi_protocol::SeatChoice,
        listed: bool,
        player: Player,
    ) -> Option<u16> {
        let (conn, outbox) = (self.conn, self.outbox.clone());
        if let Err(denied) = self.hub.make_room(conn, None).await {
            return self.deny(denied);
        }
        self.hub
            .create(spec, seat, listed, player, conn, outbox)
            .await
            .err()
            .and_then(|d| self.deny(d))
    }

    async fn act(&self, game: &str, action: Action) -> Option<u16> {
        let (conn, outbox) = (self.conn, self.outbox.clone());
        let command = move || Command::Act { conn, outbox: outbox.clone(), action: action.clone() };
        self.command(game, command).await
    }

    /// Sends a command to a game (looking it up again if its task was stopping).
    async fn command(&self, game: &str, command: impl Fn() -> Command) -> Option<u16> {
        for _ in 0..2 {
            let handle = match self.find(game).await {
                Ok(Some(handle)) => handle,
                Ok(None) => return self.error(ErrorCode::UnknownGame, "no such game"),
                Err(denied) => return self.deny(denied),
            };
            if handle.send(command()).await {
                return None;
            }
        }
        self.error(ErrorCode::Unexpected, "the game is busy; try again")
    }

    /// Comes into a game as a player or spectator.
    async fn enter(&mut self, game: &str, how: Attach, have_plies: Option<u32>) -> Option<u16> {
        self.joined = false;
        if game.len() > MAX_GAME_ID_LEN {
            return self.error(ErrorCode::UnknownGame, "no such game");
        }
        if let Err(denied) = self.hub.make_room(self.conn, Some(game)).await {
            return self.deny(denied);
        }
        for _ in 0..2 {
            let handle = match self.find(game).await {
                Ok(Some(handle)) => handle,
                Ok(None) => return self.error(ErrorCode::UnknownGame, "no such game"),
                Err(denied) => return self.deny(denied),
            };
            match handle.attach(self.conn, self.outbox.clone(), how.clone(), have_plies).await {
                AttachReply::Done => {
                    self.joined = true;
                    return None;
                }
                AttachReply::Denied(denied) => return self.deny(denied),
                AttachReply::Retry => {}
            }
        }
        self.error(ErrorCode::Unexpected, "the game is busy; try again")
    }

    /// The game, `None` if there is none, or why it cannot be looked up now.
    async fn find(&self, game: &str) -> Result<Option<crate::actor::GameHandle>, Denied> {
        if game.len() > MAX_GAME_ID_LEN {
            return Ok(None);
        }
        self.hub.lookup(game).await.map_err(|_| {
            Denied::new(
                ErrorCode::Unexpected,
                "the game store cannot be reached now; try again in a moment",
            )
        })
    }
}
