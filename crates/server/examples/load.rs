//! Load benchmark for `qi-server`: many concurrent games between bots on loopback, each with
//! spectators, for a fixed time; reports how long a move takes from one player's `Move` to the
//! opponent's `Moved` (p50/p90/p99/max) and the server's memory and CPU.
//!
//! ```text
//! cargo build --release -p qi-server --bin qi-server --example load
//! target/release/examples/load --games 1000 --seconds 60
//! ```
//!
//! By default it starts `qi-server` from beside its own directory (`target/release/`) on a free
//! port with a temporary data directory; `--addr HOST:PORT` measures a server already running
//! (then without memory and CPU figures). Each player thinks 1-3 s (`--think MIN-MAX` in ms)
//! per move. The variants rotate through chess, xiangqi, gomoku and banqi; a finished game is
//! followed by a rematch. Both this process and the server raise their open-file limit to the
//! hard limit; if that is below about 4,000, run `ulimit -n 8192` first.
//!
//! The games are listed in the lobby (as open challenges accepted at once). `--challenges N`
//! adds N open challenges nobody accepts, and `--lobby N` N lobby followers: a prober then
//! posts a new challenge five times a second (and leaves it a second later), and the benchmark
//! reports how long each follower took to see it after its creator was seated (p50/p99/max),
//! and the bytes a second each follower received.
//!
//! `--nodes N` (N > 1) measures a cluster instead: it starts a throwaway PostgreSQL and Redis
//! (Debian's packages, [`qi_server::services`]) and N nodes over them, and puts each game's
//! creator, joiner and spectator on three different nodes (game `i`: nodes `i`, `i+1`, `i+2`),
//! so that most moves cross nodes; it reports each node's memory and CPU, and PostgreSQL's and
//! Redis's CPU.

use qi_protocol::{AnyRules, GameAction, Variant};
use std::net::SocketAddr;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use qi_protocol::{ClientMessage, GameSpec, PlayedMove, Seat, SeatChoice, ServerMessage, VERSION};
use qi_rules::any::{AnyGame, StartFrom};
use qi_rules::banqi::Piece;
use qi_rules::{Game, Side};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio_tungstenite::tungstenite::Message;

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

const VARIANTS: [&str; 4] = ["chess", "xiangqi", "gomoku", "banqi"];

struct Options {
    games: usize,
    seconds: u64,
    watchers: usize,
    think: (u64, u64),
    addr: Option<SocketAddr>,
    nodes: usize,
    challenges: usize,
    followers: usize,
}

fn parse_options() -> Result<Options, String> {
    let mut options = Options {
        games: 1000,
        seconds: 60,
        watchers: 1,
        think: (1000, 3000),
        addr: None,
        nodes: 1,
        challenges: 0,
        followers: 0,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut iter = args.iter();
    while let Some(flag) = iter.next() {
        let value = iter.next().ok_or(format!("{flag} needs a value"))?;
        let bad = |_: std::num::ParseIntError| format!("{flag} {value}: not understood");
        match flag.as_str() {
            "--games" => options.games = value.parse().map_err(bad)?,
            "--seconds" => options.seconds = value.parse().map_err(bad)?,
            "--watchers" => options.watchers = value.parse().map_err(bad)?,
            "--nodes" => options.nodes = value.parse::<usize>().map_err(bad)?.max(1),
            "--challenges" => options.challenges = value.parse().map_err(bad)?,
            "--lobby" => options.followers = value.parse().map_err(bad)?,
            "--addr" => {
                options.addr =
                    Some(value.parse().map_err(|_| format!("--addr {value}: HOST:PORT"))?);
            }
            "--think" => {
                let (low, high) =
                    value.split_once('-').ok_or(format!("--think {value}: MIN-MAX"))?;
                options.think = (low.parse().map_err(bad)?, high.parse().map_err(bad)?);
            }
            _ => return Err(format!("unknown argument {flag}")),
        }
    }
    Ok(options)
}

/// What all the bots add up.
#[derive(Default)]
struct Totals {
    latencies_us: Vec<u64>,
    refusals: u64,
    errors: u64,
    games_ended: u64,
    watcher_messages: u64,
    /// From a probe challenge's creator being seated to a follower seeing it, in microseconds.
    lobby_delays_us: Vec<u64>,
    /// Bytes of text each follower received during the run.
    follower_bytes: Vec<u64>,
    probes: u64,
}

/// The probe challenges, by game id: when their creator was seated.
type Probes = Arc<Mutex<std::collections::HashMap<String, Instant>>>;

/// Follows the lobby (all games) until `end`, counting the bytes it gets and timing the probe
/// challenges it sees.
async fn follower(mut ws: Socket, probes: Probes, totals: Arc<Mutex<Totals>>, end: Instant) {
    send(&mut ws, &ClientMessage::Lobby { variant: None, seek: None }).await;
    let (mut bytes, mut delays) = (0_u64, Vec::new());
    while let Ok(Some(frame)) =
        tokio::time::timeout(end.saturating_duration_since(Instant::now()), ws.next()).await
    {
        let Ok(Message::Text(text)) = frame else { continue };
        bytes += text.len() as u64;
        match ServerMessage::parse(text.as_str()) {
            Ok(ServerMessage::Ping { nonce }) => {
                send(&mut ws, &ClientMessage::Pong { nonce }).await
            }
            Ok(ServerMessage::Lobby { update }) => {
                let now = Instant::now();
                let probes = probes.lock().unwrap();
                for row in &update.challenges {
                    if let Some(seated) = probes.get(&row.game) {
                        delays.push(now.saturating_duration_since(*seated).as_micros() as u64);
                    }
                }
            }
            _ => {}
        }
    }
    let mut totals = totals.lock().unwrap();
    totals.follower_bytes.push(bytes);
    totals.lobby_delays_us.extend(delays);
}

/// Posts a challenge five times a second until `end`, each left a second later.
async fn prober(
    addrs: Arc<[SocketAddr]>,
    probes: Probes,
    totals: Arc<Mutex<Totals>>,
    end: Instant,
) {
    let mut index = 0_usize;
    let mut tick = tokio::time::interval(Duration::from_millis(200));
    while Instant::now() + Duration::from_secs(2) < end {
        tick.tick().await;
        index += 1;
        let addr = addrs[index % addrs.len()];
        let (probes, totals) = (Arc::clone(&probes), Arc::clone(&totals));
        tokio::spawn(async move {
            let Ok(mut ws) = connect(addr, "probe").await else { return };
            let spec = GameSpec::of(Variant::Gomoku);
            send(&mut ws, &ClientMessage::Challenge { spec, seat: SeatChoice::First }).await;
            while let Some(message) = receive(&mut ws).await {
                if let ServerMessage::Seated { game, .. } = message {
                    probes.lock().unwrap().insert(game, Instant::now());
                    totals.lock().unwrap().probes += 1;
                    break;
                }
            }
            let _ = tokio::time::timeout(Duration::from_secs(1), receive_all(&mut ws)).await;
        });
    }
}

/// Reads and drops frames until the socket closes.
async fn receive_all(ws: &mut Socket) {
    while receive(ws).await.is_some() {}
}

/// Posts an open challenge nobody accepts; returns its creator's socket once seated.
async fn post_challenge(addr: SocketAddr, index: usize) -> Result<Socket, String> {
    let mut ws = connect(addr, "waiting").await?;
    let variant = VARIANTS[index % VARIANTS.len()];
    let spec = GameSpec {
        rules: AnyRules::of(Variant::parse(variant).expect("a variant")),
        clock: None,
        rated: false,
    };
    send(&mut ws, &ClientMessage::Challenge { spec, seat: SeatChoice::Random }).await;
    loop {
        match receive(&mut ws).await {
            Some(ServerMessage::Seated { .. }) => return Ok(ws),
            Some(ServerMessage::Error { detail, .. }) => return Err(detail),
            Some(_) => {}
            None => return Err("closed while posting a challenge".into()),
        }
    }
}

/// When the last move of a game was sent, for the opponent to time its arrival.
type Sent = Arc<Mutex<Option<(String, u32, Instant)>>>;

struct Dice(u64);

impl Dice {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n.max(1)
    }
}

/// How many loopback addresses the bots come from: the server limits each address (64 game
/// sockets, 30 new games a minute by default), as it would a household or an office, so the
/// bots spread over many, as real players would.
const SOURCE_ADDRESSES: u32 = 500;

/// The next loopback address to connect from (127.0.0.1 is left to others).
fn next_source() -> std::net::IpAddr {
    static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed) % SOURCE_ADDRESSES;
    std::net::IpAddr::from([127, 0, 1 + (n / 250) as u8, 1 + (n % 250) as u8])
}

async fn connect(addr: SocketAddr, name: &str) -> Result<Socket, String> {
    let url = format!("ws://{addr}/ws");
    let socket = match addr {
        SocketAddr::V4(_) => tokio::net::TcpSocket::new_v4(),
        SocketAddr::V6(_) => tokio::net::TcpSocket::new_v6(),
    }
    .map_err(|e| e.to_string())?;
    if addr.ip().is_loopback() && addr.is_ipv4() {
        socket.bind(SocketAddr::new(next_source(), 0)).map_err(|e| e.to_string())?;
    }
    let stream = socket.connect(addr).await.map_err(|e| e.to_string())?;
    let _ = stream.set_nodelay(true);
    let stream = tokio_tungstenite::MaybeTlsStream::Plain(stream);
    let (mut ws, _) =
        tokio_tungstenite::client_async(url, stream).await.map_err(|e| e.to_string())?;
    send(&mut ws, &ClientMessage::Hello { version: VERSION, name: name.into() }).await;
    Ok(ws)
}

async fn send(ws: &mut Socket, message: &ClientMessage) {
    let _ = ws.send(Message::text(message.to_json())).await;
}

async fn receive(ws: &mut Socket) -> Option<ServerMessage> {
    loop {
        match ws.next().await? {
            Ok(Message::Text(text)) => match ServerMessage::parse(text.as_str()) {
                Ok(ServerMessage::Ping { nonce }) => send(ws, &ClientMessage::Pong { nonce }).await,
                Ok(message) => return Some(message),
                Err(_) => {}
            },
            Ok(Message::Close(_)) | Err(_) => return None,
            Ok(_) => {}
        }
    }
}

/// A player's copy of its game, from what the server sent.
fn play_seen(game: &mut AnyGame, mv: &PlayedMove) {
    if let (AnyGame::Banqi(banqi), Some(letter)) = (&mut *game, &mv.reveal) {
        let piece = letter.chars().next().and_then(Piece::from_letter);
        if let (Ok(parsed), Some(piece)) = (banqi.parse_move(&mv.text), piece) {
            let _ = banqi.apply_revealing(parsed, piece);
        }
        return;
    }
    let _ = game.play(&mv.text);
}

/// A player's current game.
struct Current {
    id: String,
    seat: Seat,
    seen: AnyGame,
}

/// One player: keeps its game, moves after thinking, times the opponent's moves.
async fn player(
    mut ws: Socket,
    sent: Sent,
    totals: Arc<Mutex<Totals>>,
    think: (u64, u64),
    end: Instant,
    seed: u64,
) {
    let mut dice = Dice(seed | 1);
    let mut game: Option<Current> = None;
    let mut move_at: Option<tokio::time::Instant> = None;
    let mut awaiting = false;
    while Instant::now() < end {
        let wake = move_at.unwrap_or_else(|| tokio::time::Instant::from_std(end));
        tokio::select! {
            message = receive(&mut ws) => match message {
                Some(message) => on_message(message, &mut game, &mut awaiting, &sent, &totals, &mut ws).await,
                None => return,
            },
            () = tokio::time::sleep_until(wake) => {
                move_at = None;
                if let Some(current) = &game {
                    let legal = current.seen.legal_moves();
                    if !legal.is_empty() {
                        let text = legal[dice.below(legal.len() as u64) as usize].clone();
                        let ply = seen_plies(&current.seen);
                        *sent.lock().unwrap() = Some((current.id.clone(), ply, Instant::now()));
                        send(&mut ws, &ClientMessage::Move { game: current.id.clone(), ply, text }).await;
                        awaiting = true;
                    }
                }
            }
        }
        if let Some(current) = &game
            && move_at.is_none()
            && !awaiting
            && current.seen.outcome().is_none()
            && seen_side(&current.seen) == current.seat
        {
            let delay = think.0 + dice.below(think.1.saturating_sub(think.0) + 1);
            move_at = Some(tokio::time::Instant::now() + Duration::from_millis(delay));
        }
    }
}

async fn on_message(
    message: ServerMessage,
    game: &mut Option<Current>,
    awaiting: &mut bool,
    sent: &Sent,
    totals: &Mutex<Totals>,
    ws: &mut Socket,
) {
    match message {
        ServerMessage::State { view } => {
            let Some(seat) = view.you else { return };
            let start = StartFrom::Position(&view.start);
            let Ok(mut seen) = AnyGame::with_rules(view.spec.rules, &start) else {
                return;
            };
            view.moves.iter().for_each(|mv| play_seen(&mut seen, mv));
            if game.as_ref().is_none_or(|current| current.id != view.game) {
                *awaiting = false;
            }
            *game = Some(Current { id: view.game, seat, seen });
        }
        ServerMessage::Moved { game: id, mv, .. } => {
            let Some(current) = game else { return };
            if id != current.id || mv.ply != seen_plies(&current.seen) {
                return;
            }
            let mover = seen_side(&current.seen);
            if mover == current.seat {
                *awaiting = false;
            } else if let Some((sent_game, ply, at)) = sent.lock().unwrap().clone()
                && sent_game == id
                && ply == mv.ply
            {
                totals.lock().unwrap().latencies_us.push(at.elapsed().as_micros() as u64);
            }
            play_seen(&mut current.seen, &mv);
        }
        ServerMessage::Ended { game: id, .. } => {
            if game.as_ref().is_some_and(|current| current.seat == Seat::First) {
                totals.lock().unwrap().games_ended += 1;
            }
            send(ws, &ClientMessage::Act { game: id, action: GameAction::Rematch }).await;
        }
        ServerMessage::Refused { .. } => {
            *awaiting = false;
            totals.lock().unwrap().refusals += 1;
        }
        ServerMessage::Error { .. } => totals.lock().unwrap().errors += 1,
        _ => {}
    }
}

fn seen_plies(game: &AnyGame) -> u32 {
    let plies = match game {
        AnyGame::Chess(g) => g.history().len(),
        AnyGame::Xiangqi(g) => g.history().len(),
        AnyGame::Banqi(g) => g.history().len(),
        AnyGame::Gomoku(g) => g.history().len(),
    };
    plies as u32
}

fn seen_side(game: &AnyGame) -> Seat {
    if game.side_to_move() == Side::First { Seat::First } else { Seat::Second }
}

async fn watcher(mut ws: Socket, totals: Arc<Mutex<Totals>>, end: Instant) {
    let mut count = 0;
    while let Ok(Some(_)) =
        tokio::time::timeout(end.saturating_duration_since(Instant::now()), receive(&mut ws)).await
    {
        count += 1;
    }
    totals.lock().unwrap().watcher_messages += count;
}

/// Sets up one game: a creator, a joiner, spectators; returns their sockets.
async fn set_up(
    addrs: &[SocketAddr],
    index: usize,
    watchers: usize,
) -> Result<(Socket, Socket, Vec<Socket>), String> {
    let node = |k: usize| addrs[(index + k) % addrs.len()];
    let addr = node(0);
    let variant = VARIANTS[index % VARIANTS.len()];
    let spec = GameSpec {
        rules: AnyRules::of(Variant::parse(variant).expect("a variant")),
        clock: None,
        rated: false,
    };
    let mut first = connect(addr, "bot").await?;
    send(&mut first, &ClientMessage::Challenge { spec, seat: SeatChoice::First }).await;
    let (game, invite) = loop {
        match receive(&mut first).await {
            Some(ServerMessage::Seated { game, invite: Some(invite), .. }) => break (game, invite),
            Some(_) => {}
            None => return Err("closed while creating".into()),
        }
    };
    let mut second = connect(node(1), "bot").await?;
    send(&mut second, &ClientMessage::Join { game: game.clone(), invite }).await;
    let mut spectators = Vec::new();
    for w in 0..watchers {
        let mut ws = connect(node(2 + w), "fan").await?;
        send(&mut ws, &ClientMessage::Watch { game: game.clone(), have_plies: None }).await;
        spectators.push(ws);
    }
    Ok((first, second, spectators))
}

/// Resident memory and CPU ticks of a process, from /proc.
fn process_figures(pid: u32) -> Option<(u64, u64, u64)> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let kib = |key: &str| {
        status.lines().find(|l| l.starts_with(key))?.split_whitespace().nth(1)?.parse::<u64>().ok()
    };
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some((kib("VmRSS:")?, kib("VmHWM:")?, ticks))
}

/// CPU ticks of a process and all its children (PostgreSQL's backends).
fn tree_ticks(pid: u32) -> u64 {
    let mut total = process_figures(pid).map_or(0, |f| f.2);
    let Ok(entries) = std::fs::read_dir("/proc") else { return total };
    for entry in entries.flatten() {
        let Some(child) = entry.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) else {
            continue;
        };
        let parent = std::fs::read_to_string(format!("/proc/{child}/stat")).ok().and_then(|stat| {
            stat.rsplit_once(')')?.1.split_whitespace().nth(1)?.parse::<u32>().ok()
        });
        if parent == Some(pid) {
            total += process_figures(child).map_or(0, |f| f.2);
        }
    }
    total
}

/// Starts one `qi-server` (over SQLite in `dir`, or the cluster `services` as node `name`) on a
/// free port; returns it and its address.
async fn spawn_server(
    dir: &std::path::Path,
    cluster: Option<(&str, &str)>,
    name: &str,
) -> Result<(tokio::process::Child, SocketAddr), String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let server =
        exe.parent().and_then(|p| p.parent()).map(|p| p.join("qi-server")).ok_or("no qi-server")?;
    let addr = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map_err(|e| e.to_string())?;
    let mut command = tokio::process::Command::new(&server);
    command
        .args(["--addr", &addr.to_string(), "--dist"])
        .arg(dir.join("dist"))
        .arg("--data")
        .arg(dir.join(name))
        .stdout(Stdio::piped())
        // A line a game would drown what this prints.
        .env("RUST_LOG", "warn")
        .kill_on_drop(true);
    if let Some((database, redis)) = cluster {
        command.args(["--database-url", database, "--redis-url", redis, "--node-name", name]);
    }
    let mut spawned = command.spawn().map_err(|e| {
        format!("{}: {e} (build it: cargo build --release -p qi-server)", server.display())
    })?;
    let stdout = spawned.stdout.take().ok_or("no stdout")?;
    let line = BufReader::new(stdout).lines().next_line().await.map_err(|e| e.to_string())?;
    println!("{name}: {}", line.unwrap_or_default());
    Ok((spawned, addr))
}

/// Ticks per second of /proc's CPU times (USER_HZ: 100 on Linux).
const TICKS_PER_SECOND: f64 = 100.0;

fn percentile(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let index = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[index] as f64 / 1000.0
}

#[tokio::main]
async fn main() -> Result<(), String> {
    let options = parse_options()?;
    let files = qi_server::app::raise_fd_limit();
    let mut children = Vec::new();
    let mut addrs = Vec::new();
    let dir = std::env::temp_dir().join(format!("qi-load-{}", std::process::id()));
    let mut services = None;
    match options.addr {
        Some(addr) => addrs.push(addr),
        None if options.nodes == 1 => {
            let (child, addr) = spawn_server(&dir, None, "server").await?;
            children.push(child);
            addrs.push(addr);
        }
        None => {
            let postgres = qi_server::services::TempPostgres::start()?;
            let redis = qi_server::services::TempRedis::start()?;
            for node in 1..=options.nodes {
                let cluster = Some((postgres.url(), redis.url()));
                let cluster = cluster.as_ref().map(|(d, r)| (d.as_str(), r.as_str()));
                let (child, addr) = spawn_server(&dir, cluster, &format!("node{node}")).await?;
                children.push(child);
                addrs.push(addr);
            }
            services = Some((postgres, redis));
        }
    }
    let pids: Vec<u32> = children.iter().filter_map(tokio::process::Child::id).collect();
    let idle: Vec<_> = pids.iter().map(|&pid| process_figures(pid)).collect();
    println!(
        "load: {} games, {} spectators each, {} s, think {}-{} ms, {} node(s); open files allowed here: {files:?}",
        options.games,
        options.watchers,
        options.seconds,
        options.think.0,
        options.think.1,
        addrs.len()
    );

    let setup_started = Instant::now();
    let limit = Arc::new(tokio::sync::Semaphore::new(64));
    let mut setups = Vec::new();
    let shared_addrs: Arc<[SocketAddr]> = addrs.clone().into();
    for index in 0..options.games {
        let limit = Arc::clone(&limit);
        let watchers = options.watchers;
        let addrs = Arc::clone(&shared_addrs);
        setups.push(tokio::spawn(async move {
            let _permit = limit.acquire().await;
            set_up(&addrs, index, watchers).await
        }));
    }
    let mut tables = Vec::new();
    for setup in setups {
        match setup.await {
            Ok(Ok(table)) => tables.push(table),
            Ok(Err(e)) => eprintln!("load: a game failed to start: {e}"),
            Err(e) => eprintln!("load: {e}"),
        }
    }
    let sockets = tables.len() * (2 + options.watchers);
    println!(
        "load: {} games ({sockets} sockets) set up in {:.1} s",
        tables.len(),
        setup_started.elapsed().as_secs_f64()
    );

    let totals = Arc::new(Mutex::new(Totals::default()));
    let probes_early = Probes::default();
    // The open challenges and the followers come in before the clock starts.
    let mut posts = Vec::new();
    for index in 0..options.challenges {
        let limit = Arc::clone(&limit);
        let addr = addrs[index % addrs.len()];
        posts.push(tokio::spawn(async move {
            let _permit = limit.acquire().await;
            post_challenge(addr, index).await
        }));
    }
    let mut challengers = Vec::new();
    for post in posts {
        match post.await {
            Ok(Ok(ws)) => challengers.push(ws),
            Ok(Err(e)) => eprintln!("load: a challenge was not posted: {e}"),
            Err(e) => eprintln!("load: {e}"),
        }
    }
    let mut lobby_tasks = Vec::new();
    let mut followers = Vec::new();
    for index in 0..options.followers {
        let ws = connect(addrs[index % addrs.len()], "follower").await?;
        followers.push(ws);
    }
    if options.challenges + options.followers > 0 {
        println!(
            "load: {} open challenges, {} lobby followers",
            challengers.len(),
            followers.len()
        );
    }
    let start = Instant::now();
    let end = start + Duration::from_secs(options.seconds);
    for mut ws in challengers {
        lobby_tasks.push(tokio::spawn(async move {
            let left = end.saturating_duration_since(Instant::now());
            let _ = tokio::time::timeout(left, receive_all(&mut ws)).await;
            Some(())
        }));
    }
    for ws in followers {
        lobby_tasks.push(tokio::spawn({
            let (probes, totals) = (Arc::clone(&probes_early), Arc::clone(&totals));
            async move {
                follower(ws, probes, totals, end).await;
                Some(())
            }
        }));
    }
    let before: Vec<_> = pids.iter().map(|&pid| process_figures(pid)).collect();
    let service_pids: Vec<(&str, u32)> = services
        .as_ref()
        .map(|(postgres, redis)| {
            [("PostgreSQL", postgres.pid()), ("Redis", redis.pid())]
                .into_iter()
                .filter_map(|(name, pid)| Some((name, pid?)))
                .collect()
        })
        .unwrap_or_default();
    let services_before: Vec<u64> = service_pids.iter().map(|(_, pid)| tree_ticks(*pid)).collect();
    let mut tasks = Vec::new();
    for (index, (first, second, spectators)) in tables.into_iter().enumerate() {
        let sent = Sent::default();
        for (n, ws) in [first, second].into_iter().enumerate() {
            let seed = (index as u64) << 1 | n as u64;
            tasks.push(tokio::spawn(player(
                ws,
                Arc::clone(&sent),
                Arc::clone(&totals),
                options.think,
                end,
                seed.wrapping_mul(0x9E37_79B9_7F4A_7C15),
            )));
        }
        for ws in spectators {
            tasks.push(tokio::spawn(watcher(ws, Arc::clone(&totals), end)));
        }
    }
    if options.followers > 0 {
        tasks.push(tokio::spawn(prober(
            Arc::clone(&shared_addrs),
            Arc::clone(&probes_early),
            Arc::clone(&totals),
            end,
        )));
    }
    for task in tasks {
        let _ = task.await;
    }
    for task in lobby_tasks {
        let _ = task.await;
    }
    let elapsed = start.elapsed().as_secs_f64();
    let after: Vec<_> = pids.iter().map(|&pid| process_figures(pid)).collect();
    let mut totals = Arc::try_unwrap(totals)
        .map_err(|_| "bots still running")?
        .into_inner()
        .map_err(|e| e.to_string())?;
    totals.latencies_us.sort_unstable();
    let moves = totals.latencies_us.len();
    println!(
        "load: {moves} moves relayed in {elapsed:.1} s ({:.0} a second); {} games ended; {} refusals, {} errors; {} messages to spectators",
        moves as f64 / elapsed,
        totals.games_ended,
        totals.refusals,
        totals.errors,
        totals.watcher_messages
    );
    let l = &totals.latencies_us;
    println!(
        "load: Move -> opponent's Moved: p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        percentile(l, 0.5),
        percentile(l, 0.9),
        percentile(l, 0.99),
        percentile(l, 1.0)
    );
    if options.followers > 0 {
        totals.lobby_delays_us.sort_unstable();
        let d = &totals.lobby_delays_us;
        let bytes: u64 = totals.follower_bytes.iter().sum();
        let most = totals.follower_bytes.iter().max().copied().unwrap_or(0);
        let per = |b: f64| b / elapsed / 1024.0;
        println!(
            "load: lobby: {} probe challenges seen {} times; creator seated -> follower sees it: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
            totals.probes,
            d.len(),
            percentile(d, 0.5),
            percentile(d, 0.99),
            percentile(d, 1.0)
        );
        println!(
            "load: lobby: {:.2} KB/s per follower on average, {:.2} KB/s the most",
            per(bytes as f64 / totals.follower_bytes.len().max(1) as f64),
            per(most as f64)
        );
    }
    for (node, ((idle, before), after)) in idle.iter().zip(&before).zip(&after).enumerate() {
        let (Some(idle), Some(before), Some(after)) = (idle, before, after) else { continue };
        let cpu = (after.2 - before.2) as f64 / TICKS_PER_SECOND / elapsed * 100.0;
        let name = if pids.len() == 1 { "server".to_owned() } else { format!("node{}", node + 1) };
        println!(
            "load: {name} memory {:.1} MiB idle, {:.1} MiB with the games, peak {:.1} MiB; CPU {cpu:.0}% of one core",
            idle.0 as f64 / 1024.0,
            after.0 as f64 / 1024.0,
            after.1 as f64 / 1024.0
        );
    }
    for ((name, pid), before) in service_pids.iter().zip(&services_before) {
        let cpu = (tree_ticks(*pid) - before) as f64 / TICKS_PER_SECOND / elapsed * 100.0;
        println!("load: {name} CPU {cpu:.0}% of one core");
    }
    if let Some((_, _, ticks)) = process_figures(std::process::id()) {
        println!("load: this load generator used {:.0} s of CPU", ticks as f64 / TICKS_PER_SECOND);
    }
    println!(
        "reproduce: cargo build --release -p qi-server --bin qi-server --example load && target/release/examples/load --games {} --seconds {} --watchers {} --think {}-{} --nodes {} --challenges {} --lobby {}",
        options.games,
        options.seconds,
        options.watchers,
        options.think.0,
        options.think.1,
        options.nodes,
        options.challenges,
        options.followers
    );
    for mut child in children {
        let _ = child.kill().await;
    }
    drop(services);
    let _ = std::fs::remove_dir_all(dir);
    Ok(())
}
