//! What the server's tests share: a server on a free port with a temporary data directory, and
//! WebSocket clients that speak the protocol (tokio-tungstenite, as a browser would).

#![allow(dead_code)]

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use qi_protocol::{
    ClientMessage, ClockSpec, GameResult, GameSpec, GameView, PlayedMove, Seat, SeatChoice,
    ServerMessage, VERSION,
};
use qi_rules::Game;
use qi_rules::any::{AnyGame, StartFrom};
use qi_rules::banqi::Piece;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// How long a test waits for any one message.
pub const WAIT: Duration = Duration::from_secs(15);

/// A fresh temporary directory.
pub fn temp_dir(tag: &str) -> PathBuf {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let dir = std::env::temp_dir().join(format!("qi-server-{tag}-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A server running in this test's runtime.
pub struct Server {
    pub addr: SocketAddr,
    pub data: PathBuf,
    pub hub: std::sync::Arc<qi_server::hub::Hub>,
    /// Cancelling it stops the server.
    pub shutdown: tokio_util::sync::CancellationToken,
}

impl Drop for Server {
    fn drop(&mut self) {
        self.shutdown.cancel();
        let _ = std::fs::remove_dir_all(&self.data);
    }
}

/// Starts a server on a free loopback port with a new data directory.
pub async fn start_server(tag: &str) -> Server {
    start_server_with(tag, qi_server::connection::ConnectionConfig::default()).await
}

/// The same, with other ping timing.
pub async fn start_server_with(
    tag: &str,
    config: qi_server::connection::ConnectionConfig,
) -> Server {
    start_server_in(temp_dir(tag), config).await
}

/// The default limits with those on games (and open challenges) per address out of the way: every test client
/// comes from 127.0.0.1, and tests of other things play many games quickly.
pub fn roomy_limits() -> qi_server::limits::Limits {
    qi_server::limits::Limits {
        games_per_minute: 100_000,
        aborts_per_minute: 100_000,
        unfinished_per_address: 100_000,
        open_challenges_per_address: 100_000,
        ..qi_server::limits::Limits::default()
    }
}

/// A server with these settings, keeping its games in `data`.
pub async fn start_server_settings(data: PathBuf, settings: qi_server::app::Settings) -> Server {
    let (hub, _) = qi_server::app::open_hub_with(&data, settings.limits.clone()).await.unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let shutdown = tokio_util::sync::CancellationToken::new();
    tokio::spawn(qi_server::app::serve(listener, hub.clone(), settings, shutdown.clone()));
    Server { addr, data, hub, shutdown }
}

/// Starts a server on a free loopback port with the data directory `data` (removed when the
/// server is dropped).
pub async fn start_server_in(
    data: PathBuf,
    config: qi_server::connection::ConnectionConfig,
) -> Server {
    let mut settings = qi_server::app::Settings::new(data.join("dist"));
    settings.connection = config;
    settings.limits = roomy_limits();
    start_server_settings(data, settings).await
}

/// A server with tournaments on (the default) and the test limits.
#[allow(dead_code)]
pub async fn start_server_with_tournaments(tag: &str) -> Server {
    let data = temp_dir(tag);
    let mut settings = qi_server::app::Settings::new(data.join("dist"));
    settings.limits = roomy_limits();
    settings.tournaments = true;
    start_server_settings(data, settings).await
}

/// A game spec without a clock.
pub fn spec(variant: &str, rules: &str) -> GameSpec {
    let variant = qi_protocol::Variant::parse(variant).expect("a variant");
    let rules = qi_protocol::AnyRules::parse(variant, rules).expect("rule options");
    GameSpec { rules, clock: None, rated: false }
}

/// A game spec with a clock.
pub fn timed(variant: &str, base_secs: u32, increment_secs: u32) -> GameSpec {
    let variant = qi_protocol::Variant::parse(variant).expect("a variant");
    GameSpec { clock: Some(ClockSpec { base_secs, increment_secs }), ..GameSpec::of(variant) }
}

/// A protocol client over a real WebSocket.
pub struct Client {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    /// Every text frame received, in order (pings too).
    pub log: Vec<String>,
}

impl Client {
    /// Connects to `/ws`.
    pub async fn connect(addr: SocketAddr) -> Client {
        let (ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws")).await.unwrap();
        Client { ws, log: Vec::new() }
    }

    /// Connects with a small kernel receive buffer (for a client that stops reading).
    pub async fn connect_small(addr: SocketAddr) -> Client {
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.set_recv_buffer_size(2048).unwrap();
        let stream = socket.connect(addr).await.unwrap();
        let url = format!("ws://{addr}/ws");
        let (ws, _) =
            tokio_tungstenite::client_async(url, MaybeTlsStream::Plain(stream)).await.unwrap();
        Client { ws, log: Vec::new() }
    }

    /// Sends the closing handshake.
    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
    }

    /// Connects and says hello as `name`.
    pub async fn hello(addr: SocketAddr, name: &str) -> Client {
        let mut client = Client::connect(addr).await;
        client.send(&ClientMessage::Hello { version: VERSION, name: name.into() }).await;
        client.until(|m| matches!(m, ServerMessage::Welcome { .. }).then_some(())).await;
        client
    }

    pub async fn send(&mut self, message: &ClientMessage) {
        self.send_text(message.to_json()).await;
    }

    pub async fn send_text(&mut self, text: String) {
        self.ws.send(Message::text(text)).await.unwrap();
    }

    /// Sends a WebSocket message as it is: pings, pongs, frames made by hand.
    pub async fn send_raw(&mut self, message: Message) {
        self.ws.send(message).await.unwrap();
    }

    /// The next message (pings are answered and skipped); `Err(close code)` once closed.
    pub async fn next(&mut self) -> Result<ServerMessage, Option<u16>> {
        loop {
            let frame = tokio::time::timeout(WAIT, self.ws.next()).await.expect("a frame in time");
            match frame {
                Some(Ok(Message::Text(text))) => {
                    self.log.push(text.as_str().to_owned());
                    let message = ServerMessage::parse(text.as_str()).unwrap();
                    if let ServerMessage::Ping { nonce } = message {
                        let pong = ClientMessage::Pong { nonce }.to_json();
                        let _ = self.ws.send(Message::text(pong)).await;
                        continue;
                    }
                    return Ok(message);
                }
                Some(Ok(Message::Close(close))) => return Err(close.map(|c| u16::from(c.code))),
                Some(Ok(_)) => {}
                Some(Err(_)) | None => return Err(None),
            }
        }
    }

    /// Reads until `pick` takes a message, and returns what it took.
    pub async fn until<T>(&mut self, mut pick: impl FnMut(&ServerMessage) -> Option<T>) -> T {
        // Pings keep coming, so without a deadline of its own a wait for a message that never
        // comes would never end.
        let deadline = tokio::time::Instant::now() + 4 * WAIT;
        loop {
            // The deadline holds within a wait too: the pings answered inside `next` would
            // otherwise keep a wait for a message that never comes going for ever.
            let next = tokio::time::timeout_at(deadline, self.next()).await;
            let next = next.unwrap_or_else(|_| panic!("no such message in {:?}", 4 * WAIT));
            let message = next.unwrap_or_else(|code| panic!("closed ({code:?})"));
            if let Some(found) = pick(&message) {
                return found;
            }
        }
    }

    /// Reads until `pick` takes a message (`Some`) or the server closes the socket (`None`).
    pub async fn until_closed_or<T>(
        &mut self,
        mut pick: impl FnMut(&ServerMessage) -> Option<T>,
    ) -> Option<T> {
        let deadline = tokio::time::Instant::now() + 4 * WAIT;
        loop {
            let next = tokio::time::timeout_at(deadline, self.next()).await;
            match next.unwrap_or_else(|_| panic!("no such message in {:?}", 4 * WAIT)) {
                Ok(message) => {
                    if let Some(found) = pick(&message) {
                        return Some(found);
                    }
                }
                Err(_) => return None,
            }
        }
    }

    /// Reads until the server closes; the close code.
    pub async fn close_code(&mut self) -> Option<u16> {
        loop {
            if let Err(code) = self.next().await {
                return code;
            }
        }
    }

    /// The next `State`'s view.
    pub async fn state(&mut self) -> GameView {
        self.until(|m| match m {
            ServerMessage::State { view } => Some(view.clone()),
            _ => None,
        })
        .await
    }

    /// The next `Moved` for `ply`.
    pub async fn moved(&mut self, ply: u32) -> PlayedMove {
        self.until(|m| match m {
            ServerMessage::Moved { mv, .. } if mv.ply == ply => Some(mv.clone()),
            _ => None,
        })
        .await
    }

    /// The next `Ended`: the result and the deal.
    pub async fn ended(&mut self) -> (GameResult, Option<String>) {
        self.until(|m| match m {
            ServerMessage::Ended { result, deal, .. } => Some((result.clone(), deal.clone())),
            _ => None,
        })
        .await
    }

    /// The next `Error`'s code.
    pub async fn error(&mut self) -> qi_protocol::ErrorCode {
        self.until(|m| match m {
            ServerMessage::Error { code, .. } => Some(*code),
            _ => None,
        })
        .await
    }
}

/// A game with both seats taken, players indexed by seat, and its spectators.
pub struct Table {
    pub game: String,
    pub players: [Client; 2],
    pub tokens: [String; 2],
    pub watchers: Vec<Client>,
    pub start: String,
    /// The next ply.
    pub ply: u32,
}

impl Table {
    /// Ann creates a game in the first seat, Bo joins with the invite.
    pub async fn new(addr: SocketAddr, spec: GameSpec) -> Table {
        let mut ann = Client::hello(addr, "Ann").await;
        ann.send(&ClientMessage::Create { spec, seat: SeatChoice::First }).await;
        let (game, ann_token, invite) = ann
            .until(|m| match m {
                ServerMessage::Seated { game, token, invite, seat: Seat::First } => {
                    Some((game.clone(), token.clone(), invite.clone().unwrap()))
                }
                _ => None,
            })
            .await;
        let waiting = ann.state().await;
        assert_eq!(waiting.status, qi_protocol::Status::Waiting);
        let mut bo = Client::hello(addr, "Bo").await;
        bo.send(&ClientMessage::Join { game: game.clone(), invite }).await;
        let bo_token = bo
            .until(|m| match m {
                ServerMessage::Seated { token, seat: Seat::Second, invite: None, .. } => {
                    Some(token.clone())
                }
                _ => None,
            })
            .await;
        let view = bo.state().await;
        assert_eq!(view.status, qi_protocol::Status::Playing);
        let started = ann.state().await;
        assert_eq!(started.players[1].name.as_deref(), Some("Bo"));
        Table {
            game,
            players: [ann, bo],
            tokens: [ann_token, bo_token],
            watchers: Vec::new(),
            start: view.start,
            ply: 0,
        }
    }

    /// Adds a spectator.
    pub async fn watch(&mut self, addr: SocketAddr) {
        let mut watcher = Client::hello(addr, "Cy").await;
        watcher.send(&ClientMessage::Watch { game: self.game.clone(), have_plies: None }).await;
        watcher.state().await;
        self.watchers.push(watcher);
    }

    /// Every client, players first.
    pub fn everyone(&mut self) -> impl Iterator<Item = &mut Client> {
        self.players.iter_mut().chain(self.watchers.iter_mut())
    }

    /// `seat` plays `text`; everyone sees it. Returns the move as played.
    pub async fn play(&mut self, seat: Seat, text: &str) -> PlayedMove {
        let ply = self.ply;
        let game = self.game.clone();
        let mover = &mut self.players[seat.index()];
        mover.send(&ClientMessage::Move { game, ply, text: text.into() }).await;
        let mut played = None;
        for client in self.everyone() {
            let mv = client.moved(ply).await;
            assert!(played.as_ref().is_none_or(|p| *p == mv));
            played = Some(mv);
        }
        self.ply += 1;
        played.unwrap()
    }

    /// `seat` tries `text`, which is refused by the rules: returns their reason (the game stays
    /// at the same ply).
    pub async fn refused(&mut self, seat: Seat, text: &str) -> qi_protocol::IllegalReason {
        let (ply, game) = (self.ply, self.game.clone());
        let mover = &mut self.players[seat.index()];
        mover.send(&ClientMessage::Move { game, ply, text: text.into() }).await;
        let refusal = mover
            .until(|m| match m {
                ServerMessage::Refused { reason, .. } => Some(reason.clone()),
                _ => None,
            })
            .await;
        match refusal {
            qi_protocol::Refusal::Illegal { reason } => reason,
            other => panic!("{text}: refused as {other:?}, not as illegal"),
        }
    }

    /// Everyone hears the same end; returns it.
    pub async fn ended(&mut self) -> (GameResult, Option<String>) {
        let mut end = None;
        for client in self.everyone() {
            let heard = client.ended().await;
            assert!(end.as_ref().is_none_or(|e| *e == heard));
            end = Some(heard);
        }
        end.unwrap()
    }
}

/// A player's own copy of a banqi game, built only from what the server sent: the concealed
/// start and the moves with their reveals.
pub fn banqi_from_view(rules: &str, start: &str, moves: &[PlayedMove]) -> AnyGame {
    let mut game = AnyGame::new("banqi", rules, &StartFrom::Position(start)).unwrap();
    for mv in moves {
        play_seen(&mut game, mv);
    }
    game
}

/// Plays a move as a client learns it (a reveal names the piece turned up).
pub fn play_seen(game: &mut AnyGame, mv: &PlayedMove) {
    let AnyGame::Banqi(banqi) = game else {
        game.play(&mv.text).unwrap();
        return;
    };
    let parsed = banqi.parse_move(&mv.text).unwrap();
    match &mv.reveal {
        Some(letter) => {
            let piece = Piece::from_letter(letter.chars().next().unwrap()).unwrap();
            banqi.apply_revealing(parsed, piece).unwrap();
        }
        None => banqi.apply(parsed).unwrap(),
    }
}

/// A small deterministic generator for bots.
pub struct Dice(pub u64);

impl Dice {
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// The lobby as one follower has it, built from its updates.
#[derive(Default)]
pub struct LobbySeen {
    pub challenges: std::collections::HashMap<String, qi_protocol::ChallengeRow>,
    pub games: std::collections::HashMap<String, qi_protocol::LiveRow>,
    pub waiting: Option<u32>,
}

impl LobbySeen {
    /// Takes one update, as the page does.
    pub fn take(&mut self, update: &qi_protocol::LobbyUpdate) {
        if update.reset {
            self.challenges.clear();
            self.games.clear();
        }
        for id in &update.gone {
            self.challenges.remove(id);
            self.games.remove(id);
        }
        for row in &update.challenges {
            self.challenges.insert(row.game.clone(), row.clone());
        }
        for row in &update.games {
            self.games.insert(row.game.clone(), row.clone());
        }
        for moved in &update.moved {
            if let Some(row) = self.games.get_mut(&moved.game) {
                moved.apply(row);
            }
        }
        if update.waiting.is_some() {
            self.waiting = update.waiting;
        }
    }

    /// Reads `client`'s lobby updates until `done` holds of what it has seen.
    pub async fn until(&mut self, client: &mut Client, done: impl Fn(&LobbySeen) -> bool) {
        while !done(self) {
            let update = client
                .until(|m| match m {
                    ServerMessage::Lobby { update } => Some(update.clone()),
                    _ => None,
                })
                .await;
            self.take(&update);
        }
    }
}

// Accounts over HTTP, for the account and cluster tests.

use qi_protocol::{AccountError, AccountErrorCode, AccountView};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

/// An HTTP answer: status, the session cookie it set (if any) and the body.
#[derive(Debug)]
pub struct Answer {
    /// The status.
    pub status: u16,
    /// The `Set-Cookie` header.
    pub set_cookie: Option<String>,
    /// The body.
    pub body: String,
}

impl Answer {
    #[allow(dead_code)]
    pub fn error(&self) -> AccountErrorCode {
        serde_json::from_str::<AccountError>(&self.body)
            .unwrap_or_else(|e| panic!("not an account error ({e}): {self:?}"))
            .code
    }

    #[allow(dead_code)]
    pub fn account(&self) -> AccountView {
        serde_json::from_str(&self.body)
            .unwrap_or_else(|e| panic!("not an account ({e}): {self:?}"))
    }

    /// The cookie's `name=value`, for the next requests.
    #[allow(dead_code)]
    pub fn cookie(&self) -> String {
        let set = self.set_cookie.as_deref().unwrap_or_else(|| panic!("no cookie: {self:?}"));
        set.split(';').next().unwrap().to_owned()
    }
}

/// One HTTP request (POSTs as JSON), its answer.
#[allow(dead_code)]
pub async fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    cookie: Option<&str>,
    body: Option<&str>,
) -> Answer {
    let mut headers = Vec::new();
    if let Some(cookie) = cookie {
        headers.push(("Cookie", cookie));
    }
    if method == "POST" {
        headers.push(("Content-Type", "application/json"));
    }
    request_headers(addr, method, path, &headers, body).await
}

/// One HTTP request with exactly these headers (and `Host`, `Connection`, `Content-Length`).
#[allow(dead_code)]
pub async fn request_headers(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&str>,
) -> Answer {
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n");
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    let body = body.unwrap_or("");
    if method == "POST" {
        head.push_str(&format!("Content-Length: {}\r\n", body.len()));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(body.as_bytes()).await.unwrap();
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await.unwrap();
    let response = String::from_utf8_lossy(&response).into_owned();
    let (head, rest) = response.split_once("\r\n\r\n").unwrap_or((&response, ""));
    let status = head.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let set_cookie = head
        .lines()
        .find_map(|line| line.strip_prefix("set-cookie: ").or(line.strip_prefix("Set-Cookie: ")))
        .map(str::to_owned);
    // Bodies here are small: chunked transfer shows as one chunk.
    let body = match head.to_ascii_lowercase().contains("transfer-encoding: chunked") {
        true => rest
            .split_once("\r\n")
            .map_or("", |(_, b)| b)
            .rsplit_once("\r\n0\r\n")
            .map_or(rest, |(b, _)| b),
        false => rest,
    }
    .trim_end_matches("\r\n")
    .to_owned();
    Answer { status, set_cookie, body }
}

fn credentials(name: &str, password: &str) -> String {
    serde_json::json!({ "name": name, "password": password }).to_string()
}

/// Registers `name`.
#[allow(dead_code)]
pub async fn register(addr: SocketAddr, name: &str, password: &str) -> Answer {
    request(addr, "POST", "/api/account/register", None, Some(&credentials(name, password))).await
}

/// Signs in as `name`.
#[allow(dead_code)]
pub async fn login(addr: SocketAddr, name: &str, password: &str) -> Answer {
    request(addr, "POST", "/api/account/login", None, Some(&credentials(name, password))).await
}

/// A game socket opened with the session cookie, said hello.
#[allow(dead_code)]
pub async fn signed_in_client(
    addr: SocketAddr,
    cookie: &str,
    hello_name: &str,
) -> (Client, Option<String>) {
    let mut request = format!("ws://{addr}/ws").into_client_request().unwrap();
    request.headers_mut().insert("cookie", cookie.parse().unwrap());
    let (ws, _) = tokio_tungstenite::connect_async(request).await.unwrap();
    let mut client = Client { ws, log: Vec::new() };
    client.send(&ClientMessage::Hello { version: VERSION, name: hello_name.into() }).await;
    let account = client
        .until(|m| match m {
            ServerMessage::Welcome { account, .. } => Some(account.clone()),
            _ => None,
        })
        .await;
    (client, account)
}
