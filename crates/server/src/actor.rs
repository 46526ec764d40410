//! One task per game: it owns the game's [`Session`], its connections' outboxes and its timer,
//! and takes [`Command`]s from connections through a channel, one at a time.
//!
//! Each command is applied to a copy of the session; the copy's writes are stored (and synced)
//! before the copy replaces the session and before anyone hears of the change. A refused command
//! or a failed write changes nothing.

use std::collections::{HashMap, VecDeque};
use std::future::Future;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::time::{Duration, Instant};

use qi_protocol::{EndReason, ErrorCode, ServerMessage};
use tokio::sync::{mpsc, oneshot};

use crate::lobby::Lobby;
use crate::metrics::Metrics;
use crate::outbox::{CLOSE_RESTART, Outbox};
use crate::session::{Action, Attach, ConnId, Denied, Effects, Outgoing, RematchPlan, Session};
use crate::storage::{StorageErrorKind, StorageHandle, Write};

/// A future a trait object can return.
pub type Boxed<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// What a game's task needs of the node that runs it (the hub, `crate::hub`): its clock, store,
/// lobby and metrics, and to be told who is in which game. A trait, so that the tasks do not
/// know the hub that starts them.
pub trait GameHost: Send + Sync + 'static {
    /// The node's clock, in milliseconds.
    fn now_ms(&self) -> u64;
    /// How long a game nobody is in stays in memory.
    fn idle_stop(&self) -> Duration;
    /// The lobby's rows.
    fn lobby(&self) -> &Lobby;
    /// The game store.
    fn storage(&self) -> &StorageHandle;
    /// The node's metrics.
    fn metrics(&self) -> &Metrics;
    /// The client address of a connection.
    fn address(&self, conn: ConnId) -> IpAddr;
    /// Whether this node lost its lease on the games it runs (several nodes).
    fn lease_lost(&self) -> bool;
    /// The game's task stopped: forget `handle` for `id` (unless another task runs it now).
    fn forget(&self, id: &str, handle: &GameHandle, fence: Option<u64>);
    /// A connection came into game `id` (`going`: the game is being played).
    fn note_attached(&self, conn: ConnId, id: &str, going: bool);
    /// A connection left game `id`.
    fn note_detached(&self, conn: ConnId, id: &str);
    /// Game `id` ended with these connections in it.
    fn note_ended(&self, id: &str, conns: &[ConnId]);
    /// Starts the rematch both players asked for.
    fn start_rematch(
        self: Arc<Self>,
        plan: RematchPlan,
        outboxes: [Vec<(ConnId, Outbox)>; 2],
    ) -> Boxed<'static, ()>;
}

/// Where commands for another node's games go (the cluster, `crate::cluster`). A trait, so that
/// a game's handle does not know the cluster that forwards it.
pub trait RemoteGames: Send + Sync + std::fmt::Debug {
    /// Sends `command` to game `game` on node `owner`: false when that node no longer runs it.
    fn forward<'a>(&'a self, owner: u32, game: &'a str, command: Command) -> Boxed<'a, bool>;
}

/// How long a flag that could not be stored waits before it is tried again.
const FLAG_RETRY: Duration = Duration::from_secs(1);
/// How long a game with no move, nobody in it and no clock running stays in memory.
const UNSTARTED_IDLE_STOP: Duration = Duration::from_secs(2);
/// How many commands may wait for a game's task.
const COMMAND_QUEUE: usize = 256;

/// How an attach went.
#[derive(Debug, PartialEq, Eq)]
pub enum AttachReply {
    /// The connection is in the game; its messages are in its outbox.
    Done,
    /// Turned down.
    Denied(Denied),
    /// The game's task was stopping: look the game up again.
    Retry,
}

/// What a connection asks of a game.
#[derive(Debug)]
pub enum Command {
    /// Come into the game.
    Attach {
        /// The connection.
        conn: ConnId,
        /// Its outbox.
        outbox: Outbox,
        /// As what.
        how: Attach,
        /// How many moves it has.
        have_plies: Option<u32>,
        /// The answer.
        reply: oneshot::Sender<AttachReply>,
    },
    /// Play a move.
    Move {
        /// The connection.
        conn: ConnId,
        /// Its outbox (for a refusal, even if it is not in the game).
        outbox: Outbox,
        /// The ply.
        ply: u32,
        /// The move.
        text: String,
        /// The connection's measured lag.
        lag_ms: u64,
        /// When the move arrived (for the relay-latency metric).
        received: Instant,
    },
    /// Another action.
    Act {
        /// The connection.
        conn: ConnId,
        /// Its outbox.
        outbox: Outbox,
        /// What.
        action: Action,
    },
    /// Leave the game (the connection closed).
    Detach {
        /// The connection.
        conn: ConnId,
    },
    /// Give the game up at once: this node no longer holds it (several nodes: see
    /// [`crate::cluster`]). Everyone in it is disconnected with 1012, to resume where the game
    /// is now.
    Evict,
}

/// The way to a game's task: on this node, or on another (through [`crate::cluster`]).
#[derive(Clone, Debug)]
pub struct GameHandle {
    route: Route,
}

#[derive(Clone, Debug)]
enum Route {
    Local(mpsc::Sender<Command>),
    Remote { cluster: Arc<dyn RemoteGames>, owner: u32, game: Arc<str> },
}

impl GameHandle {
    /// The handle of game `game`, run by node `owner` of `cluster`.
    #[must_use]
    pub fn remote(cluster: Arc<dyn RemoteGames>, owner: u32, game: &str) -> GameHandle {
        GameHandle { route: Route::Remote { cluster, owner, game: game.into() } }
    }

    /// Whether the game runs on this node.
    #[must_use]
    pub fn is_local(&self) -> bool {
        matches!(self.route, Route::Local(_))
    }

    /// Sends a command; false if the game's task has stopped (or, for another node's game,
    /// that node no longer runs it): look the game up again.
    pub async fn send(&self, command: Command) -> bool {
        match &self.route {
            Route::Local(commands) => commands.send(command).await.is_ok(),
            Route::Remote { cluster, owner, game } => cluster.forward(*owner, game, command).await,
        }
    }

    /// Brings a connection into the game and waits for the answer.
    pub async fn attach(
        &self,
        conn: ConnId,
        outbox: Outbox,
        how: Attach,
        have_plies: Option<u32>,
    ) -> AttachReply {
        let (reply, answer) = oneshot::channel();
        if !self.send(Command::Attach { conn, outbox, how, have_plies, reply }).await {
            return AttachReply::Retry;
        }
        answer.await.unwrap_or(AttachReply::Retry)
    }

    /// Whether both handles lead to the same task.
    #[must_use]
    pub fn same_game(&self, other: &GameHandle) -> bool {
        match (&self.route, &other.route) {
            (Route::Local(mine), Route::Local(theirs)) => mine.same_channel(theirs),
            (Route::Remote { owner: a, game: x, .. }, Route::Remote { owner: b, game: y, .. }) => {
                a == b && x == y
            }
            _ => false,
        }
    }
}

/// A game's task.
struct Actor {
    session: Session,
    hub: Arc<dyn GameHost>,
    outboxes: HashMap<ConnId, Outbox>,
    commands: mpsc::Receiver<Command>,
    handle: GameHandle,
    /// After a flag could not be stored: not before then again.
    flag_retry_at: Option<tokio::time::Instant>,
    /// The game was aborted: its task stops at once (it is loaded again if asked for).
    stop_now: bool,
    /// The fencing token of this node's lease on the game, when nodes share the store: every
    /// write carries it ([`Write::Fence`]).
    fence: Option<u64>,
    /// Given up ([`Command::Evict`]): nothing more is changed or written.
    evicted: bool,
    /// The game's row in the lobby as last set.
    listing: Option<crate::session::Listing>,
}

/// Starts the task of `session`; `fence` is the token of this node's lease on it, when nodes
/// share the store.
pub fn spawn(session: Session, hub: Arc<dyn GameHost>, fence: Option<u64>) -> GameHandle {
    let (commands, queue) = mpsc::channel(COMMAND_QUEUE);
    let handle = GameHandle { route: Route::Local(commands) };
    let actor = Actor {
        session,
        hub,
        outboxes: HashMap::new(),
        commands: queue,
        handle: handle.clone(),
        flag_retry_at: None,
        stop_now: false,
        fence,
        evicted: false,
        listing: None,
    };
    tokio::spawn(actor.run());
    handle
}

/// Attaches a connection to a game just created (its task cannot be stopping).
pub(crate) async fn into_game(
    handle: &GameHandle,
    conn: ConnId,
    outbox: Outbox,
    how: Attach,
) -> Result<(), Denied> {
    match handle.attach(conn, outbox, how, None).await {
        AttachReply::Done => Ok(()),
        AttachReply::Denied(denied) => Err(denied),
        AttachReply::Retry => {
            tracing::error!("a new game's task stopped");
            Err(Denied::new(ErrorCode::Unexpected, "the server could not do that now; try again"))
        }
    }
}

/// Sleeps `ms` milliseconds, or for ever when there is nothing to wait for.
async fn sleep_for(ms: Option<u64>) {
    match ms {
        Some(ms) => tokio::time::sleep(Duration::from_millis(ms)).await,
        None => std::future::pending().await,
    }
}

impl Actor {
    fn now(&self) -> u64 {
        self.hub.now_ms()
    }

    async fn run(mut self) {
        loop {
            let mut flag_in = self.session.next_deadline().map(|at| at.saturating_sub(self.now()));
            if let Some(at) = self.flag_retry_at {
                let wait = at.saturating_duration_since(tokio::time::Instant::now()).as_millis();
                let wait = u64::try_from(wait).unwrap_or(u64::MAX);
                flag_in = flag_in.map(|ms| ms.max(wait));
            }
            if self.stop_now {
                break;
            }
            // A game nobody is in waits a while for its players, unless it never started:
            // then nothing is lost by loading it again when someone comes, and it goes as
            // soon as whoever looked it up has had time to come in.
            let idle_stop = if self.session.plies() == 0 {
                self.hub.idle_stop().min(UNSTARTED_IDLE_STOP)
            } else {
                self.hub.idle_stop()
            };
            let idle = self.session.is_idle().then_some(idle_stop.as_millis() as u64);
            self.list();
            tokio::select! {
                command = self.commands.recv() => match command {
                    Some(command) => self.handle(command).await,
                    None => break,
                },
                () = sleep_for(flag_in) => {
                    let now = self.now();
                    let mut next = self.session.clone();
                    let effects = next.tick(now);
                    let stored = self.commit(next, effects, None).await;
                    self.flag_retry_at =
                        (!stored).then(|| tokio::time::Instant::now() + FLAG_RETRY);
                }
                () = sleep_for(idle) => break,
            }
        }
        self.stop().await;
    }

    /// Sets the game's row in the lobby, when it changed.
    fn list(&mut self) {
        let listing = if self.evicted { None } else { self.session.listing() };
        if listing != self.listing {
            self.hub.lobby().set(self.session.id(), listing.clone());
            self.listing = listing;
        }
    }

    /// Leaves the hub, then answers what is still queued (an attach is told to look again).
    async fn stop(mut self) {
        self.hub.lobby().set(self.session.id(), None);
        // A game given up is not let go: its lease may be someone else's by now, and if not,
        // this node runs it again (its own games' sweep in crate::cluster).
        let fence = if self.evicted { None } else { self.fence };
        self.hub.forget(self.session.id(), &self.handle, fence);
        // Whoever is still in the game (an aborted game stops with its players in it) leaves it.
        for conn in self.session.members() {
            self.hub.note_detached(conn, self.session.id());
        }
        self.commands.close();
        while let Some(command) = self.commands.recv().await {
            match command {
                Command::Attach { reply, .. } => {
                    let _ = reply.send(AttachReply::Retry);
                }
                other => self.handle(other).await,
            }
        }
    }

    async fn handle(&mut self, command: Command) {
        if self.fence.is_some() && !self.evicted && self.hub.lease_lost() {
            // This node's lease ran out: others may be running the game by now, so nothing is
            // said from here any more, not even what needs no write.
            tracing::warn!(game = %self.session.id(), "lease lost: giving the game up");
            self.evict();
        }
        if self.evicted {
            match command {
                Command::Attach { reply, .. } => {
                    let _ = reply.send(AttachReply::Retry);
                }
                Command::Move { outbox, .. } | Command::Act { outbox, .. } => {
                    let detail = "this game moved to another server; reconnect".to_owned();
                    outbox.send(&ServerMessage::Error { code: ErrorCode::Unexpected, detail });
                }
                Command::Detach { .. } | Command::Evict => {}
            }
            return;
        }
        let now = self.now();
        let mut next = self.session.clone();
        match command {
            Command::Attach { conn, outbox, how, have_plies, reply } => {
                match next.attach(conn, how, have_plies, now) {
                    Err(denied) => {
                        let _ = reply.send(AttachReply::Denied(denied));
                    }
                    Ok(effects) => {
                        self.outboxes.insert(conn, outbox.clone());
                        let answer = if self.commit(next, effects, Some(&outbox)).await {
                            let going = self.session.result().is_none();
                            self.hub.note_attached(conn, self.session.id(), going);
                            AttachReply::Done
                        } else {
                            self.outboxes.remove(&conn);
                            AttachReply::Denied(Denied::new(ErrorCode::Unexpected, "try again"))
                        };
                        let _ = reply.send(answer);
                    }
                }
            }
            Command::Move { conn, outbox, ply, text, lag_ms, received } => {
                match next.play(conn, ply, &text, lag_ms, now) {
                    Ok(effects) => {
                        let played = next.plies() > self.session.plies();
                        if self.commit(next, effects, Some(&outbox)).await && played {
                            let metrics = self.hub.metrics();
                            metrics.moves_relayed.inc();
                            metrics.observe_relay(received.elapsed());
                        }
                    }
                    Err(reason) => {
                        let game = self.session.id().to_owned();
                        outbox.send(&ServerMessage::Refused { game, ply, reason });
                    }
                }
            }
            Command::Act { conn, outbox, action } => {
                match next.act_from(conn, Some(self.hub.address(conn)), action, now) {
                    Ok(effects) => {
                        self.commit(next, effects, Some(&outbox)).await;
                    }
                    Err(denied) => {
                        outbox.send(&ServerMessage::Error {
                            code: denied.code,
                            detail: denied.detail,
                        });
                    }
                }
            }
            Command::Detach { conn } => {
                self.outboxes.remove(&conn);
                self.hub.note_detached(conn, self.session.id());
                let effects = self.session.detach(conn, now);
                self.deliver(effects.out);
            }
            Command::Evict => self.evict(),
        }
    }

    /// Gives the game up: everyone in it reconnects (to resume where the game is now), and the
    /// task stops without writing anything more.
    fn evict(&mut self) {
        for outbox in self.outboxes.values() {
            outbox.close(CLOSE_RESTART);
        }
        self.stop_now = true;
        self.evicted = true;
    }

    /// Stores `effects`' writes; once stored, `next` becomes the session and the messages go
    /// out. On a storage failure nothing changes and `asker` (if any) is told. Returns whether
    /// the change was made.
    async fn commit(&mut self, next: Session, effects: Effects, asker: Option<&Outbox>) -> bool {
        if self.evicted {
            if let Some(outbox) = asker {
                let detail = "this game moved to another server; reconnect".to_owned();
                outbox.send(&ServerMessage::Error { code: ErrorCode::Unexpected, detail });
            }
            return false;
        }
        let started = Instant::now();
        let written = if effects.writes.is_empty() {
            Ok(())
        } else {
            let mut writes = effects.writes;
            if let Some(token) = self.fence {
                writes.insert(0, Write::Fence { game: self.session.id().to_owned(), token });
            }
            let written = self.hub.storage().write(writes).await;
            self.hub.metrics().observe_storage(started.elapsed());
            written
        };
        if let Err(e) = written {
            tracing::error!(game = %self.session.id(), error = %e, "storing failed");
            if e.kind == StorageErrorKind::Fenced {
                // Another node runs the game now: whoever is here resumes there.
                self.evict();
                return false;
            }
            if e.kind == StorageErrorKind::Unavailable && self.fence.is_some() {
                // The database did not answer: the write may or may not have been committed.
                // Whoever is here reconnects and resumes from what was stored, so that no
                // move is lost or played twice.
                if let Some(outbox) = asker {
                    let detail = "the game store did not answer; reconnecting to resume from \
                                  what was stored"
                        .to_owned();
                    outbox.send(&ServerMessage::Error { code: ErrorCode::Unexpected, detail });
                }
                self.evict();
                return false;
            }
            if let Some(outbox) = asker {
                let detail = if e.kind == StorageErrorKind::Unavailable {
                    "the game store cannot be reached; nothing was played: try again in a moment"
                } else {
                    "the server could not store that; try again"
                };
                let detail = detail.to_owned();
                outbox.send(&ServerMessage::Error { code: ErrorCode::Unexpected, detail });
            }
            return false;
        }
        let ends = self.session.result().is_none() && next.result().is_some();
        self.session = next;
        if ends {
            self.hub.note_ended(self.session.id(), &self.session.members());
            if let Some(result) = self.session.result() {
                tracing::info!(game = %self.session.id(), ?result, "game ended");
                // A cancelled invitation (aborted with a seat still free) leaves memory at
                // once: nobody can offer a rematch or watch it with anyone. An aborted game
                // between two players stays for them like any finished game.
                self.stop_now = result.reason == EndReason::Aborted && self.session.has_free_seat();
            }
        }
        self.deliver(effects.out);
        if let Some(plan) = effects.rematch {
            let outboxes = plan.conns.clone().map(|conns| {
                let with_outbox = |conn| self.outboxes.get(&conn).map(|o| (conn, o.clone()));
                conns.into_iter().filter_map(with_outbox).collect::<Vec<_>>()
            });
            tokio::spawn(Arc::clone(&self.hub).start_rematch(plan, outboxes));
        }
        true
    }

    /// Sends each message to its connections; a connection whose outbox is gone or full leaves
    /// the game (and the others hear of it).
    fn deliver(&mut self, out: Vec<Outgoing>) {
        let now = self.now();
        let mut queue: VecDeque<Outgoing> = out.into();
        let mut dead = Vec::new();
        while let Some(item) = queue.pop_front() {
            match item {
                Outgoing::To(conn, message) => {
                    self.send_to(conn, message.to_json().into(), &mut dead)
                }
                Outgoing::All(message) => {
                    let text: Arc<str> = message.to_json().into();
                    for conn in self.session.members() {
                        self.send_to(conn, Arc::clone(&text), &mut dead);
                    }
                }
                Outgoing::Room(room, message) => {
                    let text: Arc<str> = message.to_json().into();
                    for conn in self.session.room_members(room) {
                        self.send_to(conn, Arc::clone(&text), &mut dead);
                    }
                }
                Outgoing::StateTo { conn, have_plies } => {
                    self.send_state(conn, have_plies, now, &mut dead)
                }
                Outgoing::StateToAll => {
                    for conn in self.session.members() {
                        self.send_state(conn, None, now, &mut dead);
                    }
                }
            }
            for conn in dead.drain(..) {
                self.outboxes.remove(&conn);
                self.hub.note_detached(conn, self.session.id());
                if self.session.has_member(conn) {
                    queue.extend(self.session.detach(conn, now).out);
                }
            }
        }
    }

    fn send_state(&self, conn: ConnId, have_plies: Option<u32>, now: u64, dead: &mut Vec<ConnId>) {
        let view = self.session.view_for(conn, have_plies, now);
        self.send_to(conn, ServerMessage::State { view }.to_json().into(), dead);
    }

    fn send_to(&self, conn: ConnId, text: Arc<str>, dead: &mut Vec<ConnId>) {
        match self.outboxes.get(&conn) {
            Some(outbox) if outbox.send_text(text) => {}
            _ => dead.push(conn),
        }
    }
}
