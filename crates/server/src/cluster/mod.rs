//! Several `qi-server` nodes as one site: games in PostgreSQL ([`PgStorage`]), messages between
//! nodes over Redis, any node serving any socket.
//!
//! # Who runs a game
//! Each game is run (clock, referee, order of moves) by one node at a time: its **owner**, in
//! `games.owner`, with a **fencing token** `games.fence` raised by every change of owner. A node
//! becomes a game's owner by claiming it when one of its sockets asks for it and nobody (or a
//! dead node) holds it; it writes every change with [`Write::Fence`], so a node that lost the
//! game (it was thought dead, then came back) can write nothing more to it. A node lets the
//! game go when its task stops (nobody in it for a while).
//!
//! # Other nodes' games
//! A socket on node B in a game owned by node A reaches it through a remote
//! [`GameHandle`](crate::actor::GameHandle): its commands are published on A's Redis channel
//! (`qi:n:A`) and A answers on B's. On A the socket is a **ghost**: an [`Outbox`] whose frames are
//! published to B, which writes them to the socket. The game's task and its [`Session`] do not
//! know the difference; banqi's hidden pieces are hidden by the session before any frame leaves
//! it, as for a local socket.
//!
//! # Liveness
//! Each node writes a heartbeat to `qi_nodes` every quarter of the lease TTL (every second by
//! default), and stops acting for its games when its heartbeat has not gone through for most of
//! a TTL. A node whose heartbeat is older than
//! the lease TTL (4 s by default) is marked dead by whichever node notices first (a node only
//! judges others after its own heartbeat has been going for a TTL, so that after an outage of
//! the database nobody is judged on heartbeats nobody could write); then the live nodes take over
//! its games with running clocks (in batches, `FOR UPDATE SKIP LOCKED`), read back from
//! PostgreSQL, so flags still fall; its other games are claimed when someone asks for them. Every
//! socket that was in a game on the dead node is closed with 1012: the page reconnects and
//! resumes (to any node), and gets any move it missed. A node that finds itself marked dead
//! (it was cut off) gives up all its games the same way, then joins again.
//!
//! Redis going away stops what crosses nodes (a move to another node's game gets a clear error,
//! and is not played); when it is back, every socket that was in another node's game is closed
//! with 1012, for the same resume: frames lost while Redis was down are not lost for the page.
//!
//! # Quick pairing and limits
//! The pairing queue is one Redis list per game kind, popped and pushed by one script, so no
//! seeker is paired twice. The limits per client address (new games and aborts a minute,
//! unfinished games held) are Redis sorted sets and sets, shared by every node.

mod limits;
pub(crate) use limits::shared_rate;
mod lobby_share;
mod pairing;
mod wire;

use std::collections::{HashMap, HashSet};
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError, Weak};
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use redis::AsyncCommands;
use tokio::sync::oneshot;
use tokio_postgres::Client;

use crate::actor::{AttachReply, Boxed, Command, GameHandle};
use crate::outbox::{CLOSE_RESTART, Outbox};
use crate::session::{ConnId, Denied, Session};
use crate::storage::{PgStorage, StorageError, StoredGame};

pub use limits::SharedSocket;
pub(crate) use wire::Packet;
use wire::{Forwarded, Reply};

/// How long a node waits for another's answer before it gives up.
const ANSWER_WITHIN: Duration = Duration::from_secs(5);
/// How many games of dead nodes one node takes over per heartbeat.
const TAKEOVER_BATCH: i64 = 200;
/// How many games' owners a node remembers (each is looked up again when forgotten).
const MAX_CACHED_OWNERS: usize = 100_000;
/// How many frames go in one Redis message.
const FRAMES_PER_PACKET: usize = 64;

/// What the cluster needs of its node's hub (`crate::hub`): the games it runs and who is in
/// them, and a new game for a pair. A trait, so that the cluster does not know the hub that
/// holds it.
pub trait NodeGames: Send + Sync + 'static {
    /// The node's clock, in milliseconds.
    fn now_ms(&self) -> u64;
    /// The client address of a connection.
    fn address(&self, conn: ConnId) -> IpAddr;
    /// Notes the client address of `conn`, a socket of another node in a game here.
    fn note_address(&self, conn: ConnId, address: IpAddr);
    /// Whether connection `conn` is in any game on this node.
    fn is_in_any_game(&self, conn: ConnId) -> bool;
    /// Makes room for `conn` to come into game `id` (it may be in only so many at once).
    fn make_room<'a>(&'a self, conn: ConnId, id: Option<&'a str>) -> Boxed<'a, Result<(), Denied>>;
    /// Forgets `conn` on this node: its seeks, its address, its games.
    fn disconnect_here(&self, conn: ConnId) -> Boxed<'_, ()>;
    /// Game `id` when it is in memory here.
    fn loaded(&self, id: &str) -> Option<GameHandle>;
    /// The ids of the games in memory here.
    fn loaded_ids(&self) -> Vec<String>;
    /// Game `id`, loaded (or claimed) if it is this node's to run.
    fn find<'a>(self: Arc<Self>, id: &'a str) -> Boxed<'a, Option<GameHandle>>;
    /// Gives up every game of this node.
    fn evict_all(&self) -> Boxed<'_, ()>;
    /// Runs `session`, taken over from a dead node, under lease `fence`.
    fn adopt(self: Arc<Self>, session: Session, fence: u64);
    /// Whether these addresses may have a new game now.
    fn admit_addresses<'a>(&'a self, addresses: &'a [IpAddr]) -> Boxed<'a, Result<(), Denied>>;
    /// A seat by lot.
    ///
    /// # Errors
    /// [`Denied`] when no random number could be had.
    fn random_seat(&self) -> Result<qi_protocol::Seat, Denied>;
    /// Creates a game for two players and starts its task.
    fn make_game(
        self: Arc<Self>,
        spec: qi_protocol::GameSpec,
        players: [Option<crate::session::Player>; 2],
    ) -> Boxed<'static, Result<(GameHandle, String), Denied>>;
    /// Notes that these addresses hold a seat in game `id`.
    fn note_seated_addresses<'a>(&'a self, addresses: &'a [IpAddr], id: &'a str) -> Boxed<'a, ()>;
}

/// How to join a cluster.
#[derive(Clone, Debug)]
pub struct ClusterConfig {
    /// The PostgreSQL connection string (`postgres://…` or `host=… user=…`).
    pub database_url: String,
    /// The Redis URL (`redis://host:port/`).
    pub redis_url: String,
    /// This node's name, for the logs and `qi_nodes` (its number is given by the database).
    pub node_name: String,
    /// How long a node's heartbeat may be silent before its games are taken over.
    pub lease_ttl: Duration,
}

impl ClusterConfig {
    /// The heartbeat interval: a quarter of the TTL, so three missed beats are forgiven.
    #[must_use]
    pub fn heartbeat(&self) -> Duration {
        (self.lease_ttl / 4).max(Duration::from_millis(100))
    }
}

/// A socket of this node that is in games of other nodes.
#[derive(Debug)]
struct Remote {
    outbox: Outbox,
    /// The nodes whose games it is in.
    nodes: HashSet<u32>,
    /// The nodes asked something for it and not answered yet, with how many questions.
    asking: HashMap<u32, usize>,
    /// The order of the frames each node sends it.
    order: wire::FrameOrder,
}

impl Remote {
    /// Whether frames from `node` are for this socket: it is in a game there, or waits for an
    /// answer from there (a game's first frames may come before the answer). A node that
    /// answers a question given up on long ago (it was frozen) is neither.
    fn hears(&self, node: u32) -> bool {
        self.nodes.contains(&node) || self.asking.contains_key(&node)
    }
}

#[derive(Debug, Default)]
struct State {
    /// Answers awaited from other nodes.
    pending: HashMap<u64, oneshot::Sender<Reply>>,
    /// Who owns the games this node forwarded to lately.
    owners: HashMap<String, u32>,
    /// This node's sockets in other nodes' games.
    remotes: HashMap<ConnId, Remote>,
    /// Other nodes' sockets in this node's games: where their frames go.
    ghosts: HashMap<ConnId, (u32, Outbox)>,
    /// Nodes known dead.
    dead: HashSet<u32>,
}

/// This node's place in the cluster.
pub struct Cluster {
    num: u32,
    config: ClusterConfig,
    /// For claims, releases and takeovers (storage has its own connection, on the storage
    /// thread).
    db: tokio::sync::Mutex<Option<Client>>,
    /// For the heartbeat alone, so that a queue of claims never makes it late.
    beat_db: tokio::sync::Mutex<Option<Client>>,
    /// Until when this node's lease holds (milliseconds since `started`): a node whose
    /// heartbeat has not gone through for most of a TTL stops acting for its games before the
    /// others may take them.
    lease_until_ms: AtomicU64,
    started: Instant,
    /// A takeover is running (on its own task).
    taking_over: std::sync::atomic::AtomicBool,
    redis: redis::aio::ConnectionManager,
    redis_client: redis::Client,
    state: Mutex<State>,
    next_request: AtomicU64,
    /// Numbers this node's ghost outboxes (their frame streams).
    next_ghost: AtomicU64,
    hub: OnceLock<Weak<dyn NodeGames>>,
    pairing: pairing::Pairing,
    /// The lobby shared with the other nodes.
    lobby_share: lobby_share::LobbyShare,
}

impl std::fmt::Debug for Cluster {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cluster").field("num", &self.num).finish_non_exhaustive()
    }
}

/// What asking for a game found.
pub(crate) enum Claim {
    /// This node holds it now, with this fencing token; here it is.
    Mine(u64, Box<StoredGame>),
    /// Another node runs it.
    Owner(u32),
    /// There is no such game.
    Missing,
}

fn db_error(e: &tokio_postgres::Error) -> StorageError {
    crate::storage::postgres_error(e)
}

fn redis_error(e: &redis::RedisError) -> StorageError {
    StorageError::unavailable(format!("Redis: {e}"))
}

impl Cluster {
    /// Joins the cluster: opens the store (migrating its schema), registers this node and
    /// connects to Redis. Returns the node and the storage for the hub.
    ///
    /// # Errors
    /// [`StorageError`] when PostgreSQL or Redis cannot be reached.
    pub async fn join(config: ClusterConfig) -> Result<(Arc<Cluster>, PgStorage), StorageError> {
        let url = config.database_url.clone();
        let storage = tokio::task::spawn_blocking(move || PgStorage::open(&url))
            .await
            .map_err(|e| StorageError::new(format!("opening the database failed: {e}")))??;
        let client = crate::storage::postgres_connect(&config.database_url).await?;
        // Joining writes the first heartbeat (`heartbeat_at` defaults to now()): the lease holds
        // from here, so a game made before the heartbeat task's first beat is not given up.
        let started = Instant::now();
        let row = client
            .query_one(
                "INSERT INTO qi_nodes (name) VALUES ($1) RETURNING num",
                &[&config.node_name],
            )
            .await
            .map_err(|e| db_error(&e))?;
        let num = u32::try_from(row.get::<_, i32>(0)).unwrap_or(0);
        let redis_client =
            redis::Client::open(config.redis_url.as_str()).map_err(|e| redis_error(&e))?;
        let redis_config = redis::aio::ConnectionManagerConfig::new()
            .set_connection_timeout(Some(Duration::from_secs(2)))
            .set_response_timeout(Some(Duration::from_secs(2)))
            .set_number_of_retries(2);
        let redis =
            redis::aio::ConnectionManager::new_with_config(redis_client.clone(), redis_config)
                .await
                .map_err(|e| redis_error(&e))?;
        // Counted among the live nodes before it takes its first socket.
        let mut live = redis.clone();
        redis::cmd("SADD")
            .arg(limits::LIVE_NODES)
            .arg(num)
            .query_async::<i64>(&mut live)
            .await
            .map_err(|e| redis_error(&e))?;
        tracing::info!(node = num, name = %config.node_name, "joined the cluster");
        let first_lease_ms =
            u64::try_from(config.lease_ttl.saturating_sub(config.heartbeat()).as_millis())
                .unwrap_or(u64::MAX);
        let cluster = Arc::new(Cluster {
            num,
            config,
            db: tokio::sync::Mutex::new(Some(client)),
            beat_db: tokio::sync::Mutex::new(None),
            lease_until_ms: AtomicU64::new(first_lease_ms),
            started,
            taking_over: std::sync::atomic::AtomicBool::new(false),
            redis,
            redis_client,
            state: Mutex::new(State::default()),
            next_request: AtomicU64::new(1),
            next_ghost: AtomicU64::new(1),
            hub: OnceLock::new(),
            pairing: pairing::Pairing::default(),
            lobby_share: lobby_share::LobbyShare::default(),
        });
        Ok((cluster, storage))
    }

    /// Shares this node's lobby rows and reads the others' (one tick of the lobby).
    pub(crate) async fn share_lobby(&self, lobby: &crate::lobby::Lobby, games: bool) {
        self.lobby_share.tick(self, lobby, games).await;
    }

    /// This node's number (unique in the cluster's lifetime).
    #[must_use]
    pub fn num(&self) -> u32 {
        self.num
    }

    /// The first connection number of this node: numbers are unique across nodes.
    #[must_use]
    pub fn first_conn(&self) -> ConnId {
        (u64::from(self.num) << 40) + 1
    }

    /// Starts the node's work (heartbeat, takeover, listening on Redis) for `hub`, until
    /// `shutdown`.
    pub fn start(
        self: &Arc<Self>,
        hub: &Arc<dyn NodeGames>,
        shutdown: tokio_util::sync::CancellationToken,
    ) {
        let _ = self.hub.set(Arc::downgrade(hub));
        tokio::spawn(Arc::clone(self).listen(shutdown.clone()));
        tokio::spawn(Arc::clone(self).beat(shutdown));
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn hub(&self) -> Option<Arc<dyn NodeGames>> {
        self.hub.get().and_then(Weak::upgrade)
    }

    fn channel(node: u32) -> String {
        format!("qi:n:{node}")
    }

    /// Runs `work` with the connection for claims, opening it again if it closed.
    async fn with_db<T>(
        &self,
        work: impl AsyncFnOnce(&Client) -> Result<T, tokio_postgres::Error>,
    ) -> Result<T, StorageError> {
        self.with_db_on(&self.db, work).await
    }

    /// Runs `work` with the connection in `slot`, opening it again if it closed.
    async fn with_db_on<T>(
        &self,
        slot: &tokio::sync::Mutex<Option<Client>>,
        work: impl AsyncFnOnce(&Client) -> Result<T, tokio_postgres::Error>,
    ) -> Result<T, StorageError> {
        let mut db = slot.lock().await;
        if db.as_ref().is_none_or(Client::is_closed) {
            *db = Some(crate::storage::postgres_connect(&self.config.database_url).await?);
        }
        let Some(client) = db.as_ref() else {
            return Err(StorageError::unavailable("no database connection"));
        };
        let outcome = work(client).await.map_err(|e| db_error(&e));
        if client.is_closed() {
            *db = None;
        }
        outcome
    }

    /// Publishes `packet` to `node`; how many nodes heard it (0: nobody listens there).
    async fn publish(&self, node: u32, packet: &Packet) -> Result<usize, StorageError> {
        let text = serde_json::to_string(packet).unwrap_or_default();
        let mut redis = self.redis.clone();
        redis.publish(Cluster::channel(node), text).await.map_err(|e| redis_error(&e))
    }

    /// Claims game `id` for this node if nobody (or a dead node) holds it, reading it back;
    /// else says who runs it.
    pub(crate) async fn claim(&self, id: &str) -> Result<Claim, StorageError> {
        let me = i32::try_from(self.num).unwrap_or(i32::MAX);
        for _ in 0..3 {
            let claimed = self
                .with_db(async |db| {
                    let claimed = db
                        .query_opt(
                            "UPDATE games SET owner = $2, fence = fence + 1
                             WHERE id = $1 AND (owner IS NULL OR owner = $2
                                 OR NOT EXISTS (SELECT 1 FROM qi_nodes
                                     WHERE qi_nodes.num = games.owner AND NOT qi_nodes.dead))
                             RETURNING fence",
                            &[&id, &me],
                        )
                        .await?;
                    if let Some(row) = claimed {
                        return Ok(Ok(row.get::<_, i64>(0)));
                    }
                    let owner =
                        db.query_opt("SELECT owner FROM games WHERE id = $1", &[&id]).await?;
                    Ok(Err(owner.map(|row| row.get::<_, Option<i32>>(0))))
                })
                .await?;
            match claimed {
                Ok(fence) => {
                    let stored = self
                        .with_db(async |db| Ok(crate::storage::postgres_load(db, id).await))
                        .await??;
                    let Some(stored) = stored else { return Ok(Claim::Missing) };
                    return Ok(Claim::Mine(u64::try_from(fence).unwrap_or(0), Box::new(stored)));
                }
                Err(None) => return Ok(Claim::Missing),
                // Let go between the two statements: claim again.
                Err(Some(None)) => {}
                Err(Some(Some(owner))) => {
                    let owner = u32::try_from(owner).unwrap_or(0);
                    let mut state = self.lock();
                    // A cache: past its size it starts again rather than grow for ever.
                    if state.owners.len() >= MAX_CACHED_OWNERS {
                        state.owners.clear();
                    }
                    state.owners.insert(id.to_owned(), owner);
                    return Ok(Claim::Owner(owner));
                }
            }
        }
        Err(StorageError::unavailable(format!("game {id} changes hands too fast; try again")))
    }

    /// Claims game `id`, just created here; returns the fencing token.
    pub(crate) async fn claim_new(&self, id: &str) -> Result<u64, StorageError> {
        let me = i32::try_from(self.num).unwrap_or(i32::MAX);
        let fence = self
            .with_db(async |db| {
                let row = db
                    .query_one(
                        "UPDATE games SET owner = $2, fence = fence + 1 WHERE id = $1
                         RETURNING fence",
                        &[&id, &me],
                    )
                    .await?;
                Ok(row.get::<_, i64>(0))
            })
            .await?;
        Ok(u64::try_from(fence).unwrap_or(0))
    }

    /// Lets game `id` go (its task stopped), unless it changed hands since `fence`.
    pub(crate) fn release(self: &Arc<Self>, id: &str, fence: u64) {
        let cluster = Arc::clone(self);
        let id = id.to_owned();
        tokio::spawn(async move {
            let fence = i64::try_from(fence).unwrap_or(i64::MAX);
            let me = i32::try_from(cluster.num).unwrap_or(i32::MAX);
            let released = cluster
                .with_db(async |db| {
                    db.execute(
                        "UPDATE games SET owner = NULL WHERE id = $1 AND owner = $2 AND fence = $3",
                        &[&id, &me, &fence],
                    )
                    .await
                })
                .await;
            if let Err(e) = released {
                // It stays ours until a claim sees us dead or we claim it again.
                tracing::warn!(game = %id, error = %e, "letting a game go failed");
            }
        });
    }

    /// Whether this node's lease has run out (its heartbeat has not gone through lately): it
    /// must stop acting for its games, which other nodes may be taking over.
    #[must_use]
    pub fn lease_lost(&self) -> bool {
        let now = u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX);
        now >= self.lease_until_ms.load(Ordering::Relaxed)
    }

    /// The node that runs `id`, as last seen (unless it died since).
    pub(crate) fn cached_owner(&self, id: &str) -> Option<u32> {
        let state = self.lock();
        state.owners.get(id).copied().filter(|owner| !state.dead.contains(owner))
    }

    fn forget_owner(&self, id: &str) {
        self.lock().owners.remove(id);
    }

    /// Sends `packet` to `node` and waits for its answer (a timeout, or nobody listening, is
    /// [`Reply::Unreachable`]).
    async fn ask(&self, node: u32, make: impl FnOnce(u64) -> Packet) -> Reply {
        let request = self.next_request.fetch_add(1, Ordering::Relaxed);
        let (reply, answer) = oneshot::channel();
        self.lock().pending.insert(request, reply);
        // The waiting entry goes however this ends, also when the asking socket closes (and
        // this future is dropped) before the answer.
        let _pending = PendingGuard { cluster: self, request };
        let heard = self.publish(node, &make(request)).await;
        match heard {
            Ok(0) => Reply::Unreachable,
            Err(e) => {
                tracing::warn!(node, error = %e, "forwarding failed");
                Reply::Unreachable
            }
            Ok(_) => tokio::time::timeout(ANSWER_WITHIN, answer)
                .await
                .ok()
                .and_then(Result::ok)
                .unwrap_or(Reply::Unreachable),
        }
    }

    /// Notes that this node's socket `conn` asks something of `node` (before asking, so that
    /// a game's first frames, which may come before the answer, find the socket).
    fn note_remote(&self, conn: ConnId, outbox: &Outbox, node: u32) {
        let mut state = self.lock();
        let remote = state.remotes.entry(conn).or_insert_with(|| Remote {
            outbox: outbox.clone(),
            nodes: HashSet::new(),
            asking: HashMap::new(),
            order: wire::FrameOrder::default(),
        });
        *remote.asking.entry(node).or_default() += 1;
    }

    /// Notes how `node` answered for socket `conn`. Answered `done`, the socket is in a game
    /// there: it reconnects if that node dies, and that node hears when it closes. (A node
    /// that did not answer is none of the socket's business.)
    fn answered_remote(&self, conn: ConnId, node: u32, done: bool) {
        if let Some(remote) = self.lock().remotes.get_mut(&conn) {
            if let Some(count) = remote.asking.get_mut(&node) {
                *count -= 1;
                if *count == 0 {
                    remote.asking.remove(&node);
                }
            }
            if done {
                remote.nodes.insert(node);
            }
        }
    }

    /// A command for game `game` on `node`, from one of this node's sockets. False when it did
    /// not get there (the caller looks the game up again).
    pub(crate) async fn forward(&self, node: u32, game: &str, command: Command) -> bool {
        let from = self.num;
        let hub = self.hub();
        let address = match (&command, &hub) {
            (
                Command::Attach { conn, .. }
                | Command::Move { conn, .. }
                | Command::Act { conn, .. }
                | Command::Detach { conn },
                Some(hub),
            ) => hub.address(*conn),
            _ => IpAddr::V4(std::net::Ipv4Addr::LOCALHOST),
        };
        match command {
            Command::Attach { conn, outbox, how, have_plies, reply } => {
                self.note_remote(conn, &outbox, node);
                let answer = self
                    .ask(node, |req| Packet::Attach {
                        req,
                        from,
                        conn,
                        address,
                        game: game.to_owned(),
                        how,
                        have_plies,
                    })
                    .await;
                self.answered_remote(conn, node, answer == Reply::Done);
                let answer = match answer {
                    // The game's node keeps the socket's room there (`make_room` on a
                    // ghost), since only it hears when the game ends.
                    Reply::Done => AttachReply::Done,
                    Reply::Denied { code, detail } => AttachReply::Denied(Denied { code, detail }),
                    Reply::Retry | Reply::NotOwner | Reply::Unreachable => {
                        self.forget_owner(game);
                        AttachReply::Retry
                    }
                };
                let _ = reply.send(answer);
                true
            }
            Command::Move { conn, outbox, ply, text, lag_ms, received: _ } => {
                let command = Forwarded::Move { ply, text, lag_ms };
                self.forward_command(node, game, conn, &outbox, address, command).await
            }
            Command::Act { conn, outbox, action } => {
                let command = Forwarded::Act { action };
                self.forward_command(node, game, conn, &outbox, address, command).await
            }
            Command::Detach { conn } => {
                let packet = Packet::Detach { conn, game: game.to_owned() };
                let _ = self.publish(node, &packet).await;
                true
            }
            Command::Evict => true,
        }
    }

    async fn forward_command(
        &self,
        node: u32,
        game: &str,
        conn: ConnId,
        outbox: &Outbox,
        address: IpAddr,
        command: Forwarded,
    ) -> bool {
        self.note_remote(conn, outbox, node);
        let from = self.num;
        let answer = self
            .ask(node, |req| Packet::Command {
                req,
                from,
                conn,
                address,
                game: game.to_owned(),
                command,
            })
            .await;
        self.answered_remote(conn, node, answer == Reply::Done);
        match answer {
            Reply::Done => true,
            Reply::Denied { code, detail } => {
                outbox.send(&qi_protocol::ServerMessage::Error { code, detail });
                true
            }
            Reply::Unreachable if self.is_alive_somewhere(node) => {
                let detail = "the server running this game cannot be reached; try again".into();
                let code = qi_protocol::ErrorCode::Unexpected;
                outbox.send(&qi_protocol::ServerMessage::Error { code, detail });
                true
            }
            Reply::Retry | Reply::NotOwner | Reply::Unreachable => {
                self.forget_owner(game);
                false
            }
        }
    }

    /// Whether `node` is not known dead (so a silence is Redis's, not the node's).
    fn is_alive_somewhere(&self, node: u32) -> bool {
        !self.lock().dead.contains(&node)
    }

    /// One of this node's sockets closed: the nodes it talked to forget it, and so does the
    /// pairing queue.
    pub(crate) async fn disconnect(&self, conn: ConnId) {
        let nodes = self.lock().remotes.remove(&conn).map(|r| r.nodes).unwrap_or_default();
        for node in nodes {
            let _ = self.publish(node, &Packet::Disconnect { conn }).await;
        }
        self.pairing.leave(self, conn).await;
    }

    /// The outbox on this node for socket `conn` of node `origin`.
    fn ghost(self: &Arc<Self>, origin: u32, conn: ConnId) -> Outbox {
        let mut state = self.lock();
        if let Some((_, outbox)) = state.ghosts.get(&conn)
            && !outbox.is_closed()
        {
            return outbox.clone();
        }
        let (outbox, frames) = Outbox::new();
        state.ghosts.insert(conn, (origin, outbox.clone()));
        tokio::spawn(Arc::clone(self).relay_ghost(origin, conn, outbox.clone(), frames));
        outbox
    }

    /// Publishes a ghost's frames to its node until it closes.
    async fn relay_ghost(
        self: Arc<Self>,
        origin: u32,
        conn: ConnId,
        outbox: Outbox,
        mut frames: tokio::sync::mpsc::Receiver<Arc<str>>,
    ) {
        let closer = outbox.closer();
        drop(outbox);
        let ghost = self.next_ghost.fetch_add(1, Ordering::Relaxed);
        let mut seq = 0;
        loop {
            let first = tokio::select! {
                biased;
                () = closer.closed() => {
                    let code = closer.code().unwrap_or(CLOSE_RESTART);
                    let close = Packet::Close { from: self.num, conn, code };
                    // The socket must hear of it, or it would wait for frames that never come:
                    // tried again while Redis hiccups (its node resyncs anyway if Redis went).
                    for _ in 0..10 {
                        if matches!(self.publish(origin, &close).await, Ok(heard) if heard > 0)
                            || self.lock().dead.contains(&origin)
                        {
                            break;
                        }
                        tokio::time::sleep(Duration::from_millis(200)).await;
                    }
                    break;
                }
                first = frames.recv() => first,
            };
            let Some(first) = first else { break };
            let mut texts = vec![first.to_string()];
            while texts.len() < FRAMES_PER_PACKET {
                match frames.try_recv() {
                    Ok(text) => texts.push(text.to_string()),
                    Err(_) => break,
                }
            }
            let from = self.num;
            let packet = Packet::Frames { from, conn, ghost, seq, texts };
            seq += 1;
            match self.publish(origin, &packet).await {
                Ok(heard) if heard > 0 => {}
                // Its node is gone, or Redis is: the socket leaves the games here (its page
                // resumes when it reconnects).
                _ => {
                    closer.close(CLOSE_RESTART);
                }
            }
        }
        let mut state = self.lock();
        if state
            .ghosts
            .get(&conn)
            .is_some_and(|(_, o)| o.closer().code().is_some() || o.is_closed())
        {
            state.ghosts.remove(&conn);
        }
    }

    /// Listens on this node's Redis channel, subscribing again after Redis went away.
    async fn listen(self: Arc<Self>, shutdown: tokio_util::sync::CancellationToken) {
        let mut first = true;
        loop {
            let subscribed = async {
                let mut pubsub = self.redis_client.get_async_pubsub().await?;
                pubsub.subscribe(Cluster::channel(self.num)).await?;
                Ok::<_, redis::RedisError>(pubsub)
            };
            let pubsub = tokio::select! {
                () = shutdown.cancelled() => return,
                pubsub = subscribed => pubsub,
            };
            match pubsub {
                Ok(mut pubsub) => {
                    if !first {
                        tracing::info!("Redis is back: sockets in other nodes' games resume");
                        self.resync();
                    }
                    let mut messages = pubsub.on_message();
                    loop {
                        let message = tokio::select! {
                            () = shutdown.cancelled() => return,
                            message = messages.next() => message,
                        };
                        let Some(message) = message else { break };
                        let Ok(text) = message.get_payload::<String>() else { continue };
                        match serde_json::from_str::<Packet>(&text) {
                            // Frames are written here, in the order they came (a task each
                            // could reorder them); the rest may wait, on tasks of their own.
                            Ok(packet) => {
                                if let Some(later) = self.on_frames(packet) {
                                    let cluster = Arc::clone(&self);
                                    tokio::spawn(async move { cluster.on_packet(later).await });
                                }
                            }
                            Err(e) => tracing::warn!(error = %e, "an unreadable packet"),
                        }
                    }
                    tracing::warn!("lost Redis; subscribing again");
                }
                Err(e) => tracing::warn!(error = %e, "cannot subscribe on Redis; trying again"),
            }
            first = false;
            self.resync();
            tokio::select! {
                () = shutdown.cancelled() => return,
                () = tokio::time::sleep(Duration::from_millis(250)) => {}
            }
        }
    }

    /// After Redis was away: frames may have been lost both ways, so every socket of this node
    /// in another node's game reconnects (and resumes), and every ghost here goes.
    fn resync(&self) {
        let (remotes, ghosts) = {
            let mut state = self.lock();
            state.owners.clear();
            (std::mem::take(&mut state.remotes), std::mem::take(&mut state.ghosts))
        };
        for remote in remotes.into_values() {
            remote.outbox.close(CLOSE_RESTART);
        }
        for (_, outbox) in ghosts.into_values() {
            outbox.close(CLOSE_RESTART);
        }
        // The pairing queue was in Redis: whoever waited in it is told to seek again.
        self.pairing.interrupted();
    }

    /// Handles at once what must not wait or be reordered: answers, frames for this node's
    /// sockets, closes. Returns what is left to do on a task: any other packet, or frames that
    /// found no socket (their node is told the socket is gone).
    fn on_frames(&self, packet: Packet) -> Option<Packet> {
        match packet {
            Packet::Reply { req, reply } => {
                if let Some(waiting) = self.lock().pending.remove(&req) {
                    let _ = waiting.send(reply);
                }
                None
            }
            Packet::Frames { from, conn, ghost, seq, texts } => {
                let (outbox, in_order) = {
                    let mut state = self.lock();
                    match state.remotes.get_mut(&conn).filter(|r| r.hears(from)) {
                        Some(remote) => {
                            (Some(remote.outbox.clone()), remote.order.next(from, ghost, seq))
                        }
                        None => (None, true),
                    }
                };
                if let Some(outbox) = &outbox
                    && !in_order
                {
                    // Frames were lost on the way: the page reconnects and resumes, and gets
                    // them again.
                    outbox.close(CLOSE_RESTART);
                    return None;
                }
                let delivered = outbox.is_some_and(|outbox| {
                    texts.into_iter().all(|text| outbox.send_text(text.into()))
                });
                (!delivered).then_some(Packet::Frames { from, conn, ghost, seq, texts: Vec::new() })
            }
            Packet::Close { from, conn, code } => {
                let outbox = self
                    .lock()
                    .remotes
                    .get(&conn)
                    .filter(|r| r.hears(from))
                    .map(|r| r.outbox.clone());
                // Whatever the game's node closed it for (its queue to here overflowed, it gave
                // the game up), the page's remedy is to reconnect and resume.
                let _ = code;
                if let Some(outbox) = outbox {
                    outbox.close(CLOSE_RESTART);
                }
                None
            }
            other => Some(other),
        }
    }

    async fn on_packet(self: Arc<Self>, packet: Packet) {
        let Some(hub) = self.hub() else { return };
        match packet {
            Packet::Attach { req, from, conn, address, game, how, have_plies } => {
                let reply = match self.local_game(&hub, &game).await {
                    Some(handle) => {
                        hub.note_address(conn, address);
                        match hub.make_room(conn, Some(&game)).await {
                            Err(d) => Reply::Denied { code: d.code, detail: d.detail },
                            Ok(()) => {
                                let ghost = self.ghost(from, conn);
                                match handle.attach(conn, ghost, how, have_plies).await {
                                    AttachReply::Done => Reply::Done,
                                    AttachReply::Denied(d) => {
                                        Reply::Denied { code: d.code, detail: d.detail }
                                    }
                                    AttachReply::Retry => Reply::Retry,
                                }
                            }
                        }
                    }
                    None => Reply::NotOwner,
                };
                if reply != Reply::Done && !hub.is_in_any_game(conn) {
                    // Nothing here for that socket: no ghost or address kept for it.
                    self.lock().ghosts.remove(&conn);
                    hub.disconnect_here(conn).await;
                }
                let _ = self.publish(from, &Packet::Reply { req, reply }).await;
            }
            Packet::Command { req, from, conn, address, game, command } => {
                let reply = match self.local_game(&hub, &game).await {
                    Some(handle) => {
                        hub.note_address(conn, address);
                        let outbox = self.ghost(from, conn);
                        let command = match command {
                            Forwarded::Move { ply, text, lag_ms } => Command::Move {
                                conn,
                                outbox,
                                ply,
                                text,
                                lag_ms,
                                received: std::time::Instant::now(),
                            },
                            Forwarded::Act { action } => Command::Act { conn, outbox, action },
                        };
                        if handle.send(command).await { Reply::Done } else { Reply::Retry }
                    }
                    None => Reply::NotOwner,
                };
                let _ = self.publish(from, &Packet::Reply { req, reply }).await;
            }
            Packet::Detach { conn, game } => {
                if let Some(handle) = hub.loaded(&game) {
                    handle.send(Command::Detach { conn }).await;
                }
            }
            Packet::Disconnect { conn } => {
                self.lock().ghosts.remove(&conn);
                hub.disconnect_here(conn).await;
            }
            Packet::Reply { .. } | Packet::Frames { .. } | Packet::Close { .. } => {
                if let Some(Packet::Frames { from, conn, .. }) = self.on_frames(packet) {
                    let _ = self.publish(from, &Packet::Disconnect { conn }).await;
                }
            }
            Packet::TakeSeeker { req, from, conn, entry } => {
                let taken = self.pairing.take_for(&self, conn, &entry);
                let reply = if taken { Reply::Done } else { Reply::Retry };
                let _ = self.publish(from, &Packet::Reply { req, reply }).await;
            }
            Packet::SeekRefused { conn, code, detail } => self.pairing.refused(conn, code, detail),
            Packet::Paired { owner, game, conn, seat } => {
                self.pairing.paired(&self, &hub, owner, game, conn, seat).await;
            }
        }
    }

    /// Game `game` if this node runs it (loading it, or claiming it, if it is ours to run).
    async fn local_game(&self, hub: &Arc<dyn NodeGames>, game: &str) -> Option<GameHandle> {
        Arc::clone(hub).find(game).await.filter(GameHandle::is_local)
    }

    /// The heartbeat, the watch for dead nodes and the takeover of their games.
    async fn beat(self: Arc<Self>, shutdown: tokio_util::sync::CancellationToken) {
        let mut ticker = tokio::time::interval(self.config.heartbeat());
        ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut healthy_since: Option<Instant> = None;
        let mut beats: u64 = 0;
        loop {
            tokio::select! {
                () = shutdown.cancelled() => break,
                _ = ticker.tick() => {}
            }
            beats += 1;
            // Now and then, games this node holds but does not run (a takeover that failed
            // half-way, games given up while it was cut off) are run again, so their flags fall.
            let sweep_own = beats.is_multiple_of(10);
            match self.beat_once(&mut healthy_since, sweep_own).await {
                Ok(()) => {}
                Err(e) => {
                    healthy_since = None;
                    tracing::warn!(error = %e, "heartbeat failed");
                }
            }
        }
    }

    /// Leaves the cluster on purpose (the server stops, its writes stored): the other nodes
    /// take over its games at once instead of waiting out the TTL.
    pub async fn leave(&self) {
        let mut redis = self.redis.clone();
        let _: Result<i64, _> =
            redis::cmd("SREM").arg(limits::LIVE_NODES).arg(self.num).query_async(&mut redis).await;
        let me = i32::try_from(self.num).unwrap_or(i32::MAX);
        let left = self
            .with_db(async |db| {
                db.execute("UPDATE qi_nodes SET dead = true WHERE num = $1", &[&me]).await
            })
            .await;
        if let Err(e) = left {
            tracing::warn!(error = %e, "could not say goodbye: the others wait out the TTL");
        }
    }

    async fn beat_once(
        self: &Arc<Self>,
        healthy_since: &mut Option<Instant>,
        sweep_own: bool,
    ) -> Result<(), StorageError> {
        let me = i32::try_from(self.num).unwrap_or(i32::MAX);
        let asked = Instant::now();
        let alive = self
            .with_db_on(&self.beat_db, async |db| {
                db.execute(
                    "UPDATE qi_nodes SET heartbeat_at = now() WHERE num = $1 AND NOT dead",
                    &[&me],
                )
                .await
            })
            .await?;
        if alive > 0 {
            // The lease holds for a TTL from when the heartbeat was sent, less one beat of
            // margin (the others count from when it was written).
            let until = asked.duration_since(self.started) + self.config.lease_ttl
                - self.config.heartbeat();
            let until = u64::try_from(until.as_millis()).unwrap_or(u64::MAX);
            self.lease_until_ms.store(until, Ordering::Relaxed);
        }
        if alive == 0 {
            tracing::error!("this node was taken for dead: giving up its games, joining again");
            if let Some(hub) = self.hub() {
                hub.evict_all().await;
            }
            self.resync();
            // Joins again under its number (the row may have been forgotten meanwhile).
            let name = self.config.node_name.clone();
            self.with_db_on(&self.beat_db, async |db| {
                db.execute(
                    "INSERT INTO qi_nodes (num, name) VALUES ($1, $2)
                     ON CONFLICT (num) DO UPDATE SET dead = false, heartbeat_at = now()",
                    &[&me, &name],
                )
                .await
            })
            .await?;
            *healthy_since = None;
            return Ok(());
        }
        // In the live set that counts socket places (again, after Redis restarted).
        let mut redis = self.redis.clone();
        let _: Result<i64, _> =
            redis::cmd("SADD").arg(limits::LIVE_NODES).arg(self.num).query_async(&mut redis).await;
        let since = *healthy_since.get_or_insert_with(Instant::now);
        let ttl_ms = i64::try_from(self.config.lease_ttl.as_millis()).unwrap_or(i64::MAX);
        if since.elapsed() >= self.config.lease_ttl {
            let newly_dead: Vec<i32> = self
                .with_db(async |db| {
                    let rows = db
                        .query(
                            "UPDATE qi_nodes SET dead = true
                             WHERE NOT dead AND heartbeat_at < now() - $1 * interval '1 millisecond'
                             RETURNING num",
                            &[&(ttl_ms as f64)],
                        )
                        .await?;
                    Ok(rows.iter().map(|row| row.get(0)).collect())
                })
                .await?;
            for node in &newly_dead {
                tracing::warn!(node, "a node stopped answering: its games are taken over");
                let mut redis = self.redis.clone();
                let _: Result<i64, _> = redis::cmd("SREM")
                    .arg(limits::LIVE_NODES)
                    .arg(node)
                    .query_async(&mut redis)
                    .await;
            }
        }
        let dead: HashSet<u32> = self
            .with_db(async |db| {
                let rows = db.query("SELECT num FROM qi_nodes WHERE dead", &[]).await?;
                Ok(rows
                    .iter()
                    .map(|row| u32::try_from(row.get::<_, i32>(0)).unwrap_or(0))
                    .collect())
            })
            .await?;
        self.note_dead(&dead);
        if (!dead.is_empty() || sweep_own) && !self.taking_over.swap(true, Ordering::AcqRel) {
            let cluster = Arc::clone(self);
            tokio::spawn(async move {
                if let Err(e) = cluster.take_over(sweep_own).await {
                    tracing::warn!(error = %e, "taking games over failed; trying again");
                }
                cluster.taking_over.store(false, Ordering::Release);
            });
        }
        if !dead.is_empty() {
            // Forgets nodes dead for an hour that hold no unfinished game (a claim takes a game
            // whose owner is not a live node, listed or not), so the table does not grow with
            // every start.
            self.with_db(async |db| {
                db.execute(
                    "DELETE FROM qi_nodes WHERE dead AND heartbeat_at < now() - interval '1 hour'
                     AND NOT EXISTS (SELECT 1 FROM games
                                     WHERE games.owner = qi_nodes.num AND games.result IS NULL)",
                    &[],
                )
                .await
            })
            .await?;
        }
        Ok(())
    }

    /// Sockets of this node in games of newly dead nodes reconnect (and resume elsewhere);
    /// ghosts of dead nodes' sockets go.
    fn note_dead(&self, dead: &HashSet<u32>) {
        let (closing, ghosts) = {
            let mut state = self.lock();
            let fresh: Vec<u32> = dead.difference(&state.dead).copied().collect();
            // A node back from the dead (it was cut off, and joined again) is alive again.
            state.dead.clone_from(dead);
            if fresh.is_empty() {
                return;
            }
            state.owners.retain(|_, owner| !fresh.contains(owner));
            let closing: Vec<Outbox> = state
                .remotes
                .values()
                .filter(|r| r.nodes.iter().any(|n| fresh.contains(n)))
                .map(|r| r.outbox.clone())
                .collect();
            let ghosts: Vec<Outbox> = state
                .ghosts
                .values()
                .filter(|(origin, _)| fresh.contains(origin))
                .map(|(_, outbox)| outbox.clone())
                .collect();
            (closing, ghosts)
        };
        for outbox in closing.into_iter().chain(ghosts) {
            outbox.close(CLOSE_RESTART);
        }
    }

    /// Takes over a batch of dead nodes' games whose clocks run, so their flags fall; with
    /// `own`, also runs again this node's own such games that no task of it runs.
    async fn take_over(&self, own: bool) -> Result<(), StorageError> {
        let Some(hub) = self.hub() else { return Ok(()) };
        let me = i32::try_from(self.num).unwrap_or(i32::MAX);
        let mut taken: Vec<(String, i64)> = self
            .with_db(async |db| {
                let rows = db
                    .query(
                        "UPDATE games SET owner = $1, fence = fence + 1 WHERE id IN (
                             SELECT id FROM games
                             WHERE result IS NULL
                               AND owner IN (SELECT num FROM qi_nodes WHERE dead)
                               AND clock_base_secs IS NOT NULL
                               AND name_first IS NOT NULL AND name_second IS NOT NULL
                             LIMIT $2 FOR UPDATE SKIP LOCKED)
                         RETURNING id, fence",
                        &[&me, &TAKEOVER_BATCH],
                    )
                    .await?;
                Ok(rows.iter().map(|row| (row.get(0), row.get(1))).collect())
            })
            .await?;
        if own {
            let loaded = hub.loaded_ids();
            let orphans: Vec<(String, i64)> = self
                .with_db(async |db| {
                    let rows = db
                        .query(
                            "UPDATE games SET fence = fence + 1
                             WHERE owner = $1 AND result IS NULL AND NOT (id = ANY($2))
                               AND clock_base_secs IS NOT NULL
                               AND name_first IS NOT NULL AND name_second IS NOT NULL
                             RETURNING id, fence",
                            &[&me, &loaded],
                        )
                        .await?;
                    Ok(rows.iter().map(|row| (row.get(0), row.get(1))).collect())
                })
                .await?;
            taken.extend(orphans);
        }
        for (id, fence) in taken {
            // One game that does not load leaves the others be: it stays ours, and the sweep
            // of our own games tries it again.
            let stored =
                self.with_db(async |db| Ok(crate::storage::postgres_load(db, &id).await)).await;
            let stored = match stored {
                Ok(Ok(Some(stored))) => stored,
                Ok(Ok(None)) => continue,
                Ok(Err(e)) | Err(e) => {
                    tracing::error!(game = %id, error = %e, "a taken-over game could not be read");
                    continue;
                }
            };
            match Session::restore(&stored, hub.now_ms()) {
                Ok(session) => {
                    tracing::info!(game = %id, "taken over");
                    Arc::clone(&hub).adopt(session, u64::try_from(fence).unwrap_or(0));
                }
                Err(e) => {
                    tracing::error!(game = %id, error = %e, "a taken-over game does not load")
                }
            }
        }
        Ok(())
    }

    /// The shared limits.
    pub(crate) fn limits(&self) -> limits::SharedLimits<'_> {
        limits::SharedLimits { cluster: self }
    }

    /// A place for one more game socket of `address`, counted on every node (`Ok(None)`: Redis
    /// could not answer, so this node's own count alone holds).
    ///
    /// # Errors
    /// `Err(())` past `max` sockets from the address on all nodes together.
    pub async fn admit_socket(
        self: &Arc<Self>,
        address: IpAddr,
        max: usize,
    ) -> Result<Option<SharedSocket>, ()> {
        limits::admit_socket(self, address, max).await
    }

    /// The shared pairing queue.
    pub(crate) fn pairing(&self) -> &pairing::Pairing {
        &self.pairing
    }
}

/// Takes a request out of [`State::pending`] when dropped.
struct PendingGuard<'a> {
    cluster: &'a Cluster,
    request: u64,
}

impl Drop for PendingGuard<'_> {
    fn drop(&mut self) {
        self.cluster.lock().pending.remove(&self.request);
    }
}

/// A handle of game `game`, run by node `owner`.
pub(crate) fn remote_handle(cluster: &Arc<Cluster>, owner: u32, game: &str) -> GameHandle {
    GameHandle::remote(cluster.clone(), owner, game)
}
/// Another node's games are reached through the cluster ([`crate::actor::RemoteGames`]).
impl crate::actor::RemoteGames for Cluster {
    fn forward<'a>(
        &'a self,
        owner: u32,
        game: &'a str,
        command: Command,
    ) -> crate::actor::Boxed<'a, bool> {
        Box::pin(Cluster::forward(self, owner, game, command))
    }
}
