//! The registry of games: creating them, finding them (in memory or in storage), quick pairing,
//! rematches, and which connection is in which game so that a closed connection leaves them all.

use std::collections::{HashMap, HashSet};
use std::net::{IpAddr, Ipv4Addr};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use qi_protocol::{EndReason, ErrorCode, GameResult, GameSpec, Seat, SeatChoice, ServerMessage};
use qi_rules::any::{AnyGame, StartFrom};

use crate::actor::{self, Command, GameHandle, into_game};
use crate::clock::Clock;
use crate::cluster::{Claim, Cluster};
use crate::limits::{
    Limit, Limits, RateWindow, too_many_aborts, too_many_challenges, too_many_new_games,
    too_many_unfinished,
};
use crate::metrics::Metrics;
use crate::outbox::Outbox;
use crate::session::{Attach, ConnId, Denied, Player, RematchPlan, Session, check_spec};
use crate::storage::{GameRecord, StorageError, StorageHandle, StoredGame, Write, unix_ms};
use crate::tokens::{hash_token, invite_for, new_game_id, new_token, random_u64};

/// The most games one connection may be in at once (seats and watching together).
pub const MAX_GAMES_PER_CONNECTION: usize = 16;
/// How long a game nobody is in, with no clock running, stays in memory by default.
pub const IDLE_STOP: Duration = Duration::from_secs(300);
/// How long an invitation waits for a second player: a game still waiting this long after it was
/// created is aborted when it is next looked up (a waiting game with its creator on the page
/// stays in memory and does not expire).
pub const INVITE_EXPIRY_MS: u64 = 24 * 60 * 60 * 1000;
/// How often waiting rated seekers are looked at again ([`Hub::pair_every`]).
pub const PAIR_AGAIN_EVERY: Duration = Duration::from_secs(1);

/// Someone waiting to be paired.
#[derive(Debug)]
struct Seeker {
    conn: ConnId,
    key: String,
    spec: GameSpec,
    player: Player,
    /// When it began to wait (the hub's clock, milliseconds): a rated seeker's window widens.
    since_ms: u64,
    outbox: Outbox,
}

impl Seeker {
    /// For rated pairing: its rating and how long it has waited at `now_ms`.
    fn rated(&self, now_ms: u64) -> crate::rating::RatedSeeker {
        let rating = self.player.rating_in(&self.spec).unwrap_or(qi_protocol::START_RATING);
        let rating = f64::from(rating.rating);
        crate::rating::RatedSeeker { rating, waited_ms: now_ms.saturating_sub(self.since_ms) }
    }
}

/// One connection's place in a game.
#[derive(Clone, Copy, Debug)]
struct Attachment {
    /// Not over yet (an ended game does not count against [`MAX_GAMES_PER_CONNECTION`]).
    going: bool,
    /// When it came in (a sequence number): the finished game joined longest ago is let go
    /// first.
    order: u64,
}

/// What one client address did lately and holds.
#[derive(Debug)]
struct Ledger {
    created: RateWindow,
    aborted: RateWindow,
    /// Unfinished games in memory in which the address holds a seat.
    unfinished: HashSet<String>,
    /// Its open challenges: listed games it made that nobody has taken yet.
    challenges: HashSet<String>,
}

impl Ledger {
    fn new(limits: &Limits) -> Ledger {
        let minute = Duration::from_secs(60);
        Ledger {
            created: RateWindow::new(limits.games_per_minute, minute),
            aborted: RateWindow::new(limits.aborts_per_minute, minute),
            unfinished: HashSet::new(),
            challenges: HashSet::new(),
        }
    }
}

#[derive(Debug, Default)]
struct HubState {
    games: HashMap<String, GameHandle>,
    /// Each connection's games.
    attached: HashMap<ConnId, HashMap<String, Attachment>>,
    seeks: Vec<Seeker>,
    /// Each connection's client address.
    addresses: HashMap<ConnId, IpAddr>,
    /// Each client address's recent games and aborts, and what it holds.
    ledgers: HashMap<IpAddr, Ledger>,
    /// The addresses holding a seat in each unfinished game in memory.
    holders: HashMap<String, Vec<IpAddr>>,
    /// The address that made each open challenge.
    challengers: HashMap<String, IpAddr>,
    next_order: u64,
}

impl HubState {
    /// Lets go of `id` in the ledgers (it ended or left memory).
    fn release(&mut self, id: &str) {
        for address in self.holders.remove(id).unwrap_or_default() {
            if let Some(ledger) = self.ledgers.get_mut(&address) {
                ledger.unfinished.remove(id);
            }
        }
        self.challenge_gone(id);
    }

    /// `id` is no longer an open challenge (taken, ended or gone from memory).
    fn challenge_gone(&mut self, id: &str) {
        if let Some(address) = self.challengers.remove(id)
            && let Some(ledger) = self.ledgers.get_mut(&address)
        {
            ledger.challenges.remove(id);
        }
    }
}

/// Every game the server has in memory, and the pairing queue.
pub struct Hub {
    state: Mutex<HubState>,
    /// Loading a game from storage is done one at a time, so no game gets two tasks.
    loading: tokio::sync::Mutex<()>,
    storage: StorageHandle,
    clock: Arc<dyn Clock>,
    next_conn: AtomicU64,
    /// [`IDLE_STOP`], or shorter in tests (milliseconds).
    idle_stop_ms: AtomicU64,
    limits: Limits,
    metrics: Metrics,
    /// The listed games and who follows them.
    lobby: crate::lobby::Lobby,
    /// The other nodes, when several share the store ([`crate::cluster`]).
    cluster: Option<Arc<Cluster>>,
}

impl std::fmt::Debug for Hub {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Hub").finish_non_exhaustive()
    }
}

fn internal(e: impl std::fmt::Display) -> Denied {
    tracing::error!(error = %e, "internal error");
    Denied::new(ErrorCode::Unexpected, "the server could not do that now; try again")
}

/// The index in the queue of `seeker`'s partner, if one fits: the first of the same kind for a
/// casual seek; for a rated one the nearest rating both windows accept, never the same account.
fn partner_index(state: &HubState, seeker: &Seeker, now_ms: u64) -> Option<usize> {
    let has_room = |conn: ConnId| {
        state.attached.get(&conn).is_none_or(|games| {
            games.values().filter(|a| a.going).count() < MAX_GAMES_PER_CONNECTION
        })
    };
    let fits = |other: &Seeker| {
        other.conn != seeker.conn
            && other.key == seeker.key
            && has_room(other.conn)
            && !other.outbox.is_closed()
            && (!seeker.spec.rated || other.player.account != seeker.player.account)
    };
    if !seeker.spec.rated {
        return state.seeks.iter().position(fits);
    }
    let candidates: Vec<usize> =
        (0..state.seeks.len()).filter(|&i| fits(&state.seeks[i])).collect();
    let rated: Vec<crate::rating::RatedSeeker> =
        candidates.iter().map(|&i| state.seeks[i].rated(now_ms)).collect();
    crate::rating::partner(seeker.rated(now_ms), &rated).map(|found| candidates[found])
}

/// An account's ratings as a [`Player`] carries them.
#[must_use]
pub fn shown_ratings(
    ratings: &[crate::storage::RatingRecord],
    now_unix_ms: u64,
) -> Vec<(String, qi_protocol::ShownRating)> {
    ratings
        .iter()
        .map(|record| {
            (record.kind.name().to_owned(), crate::storage::kind_rating(record, now_unix_ms).rating)
        })
        .collect()
}

impl Hub {
    /// A hub over `storage`, reading time from `clock`, with the default limits.
    #[must_use]
    pub fn new(storage: StorageHandle, clock: Arc<dyn Clock>) -> Arc<Hub> {
        Hub::with_limits(storage, clock, Limits::default())
    }

    /// A hub over `storage`, reading time from `clock`, enforcing `limits`.
    #[must_use]
    pub fn with_limits(storage: StorageHandle, clock: Arc<dyn Clock>, limits: Limits) -> Arc<Hub> {
        Hub::build(storage, clock, limits, None)
    }

    /// A hub of one node of `cluster` (over the shared store `storage`), enforcing `limits`
    /// across the nodes.
    #[must_use]
    pub fn clustered(
        storage: StorageHandle,
        clock: Arc<dyn Clock>,
        limits: Limits,
        cluster: Arc<Cluster>,
    ) -> Arc<Hub> {
        Hub::build(storage, clock, limits, Some(cluster))
    }

    fn build(
        storage: StorageHandle,
        clock: Arc<dyn Clock>,
        limits: Limits,
        cluster: Option<Arc<Cluster>>,
    ) -> Arc<Hub> {
        Arc::new(Hub {
            state: Mutex::new(HubState::default()),
            loading: tokio::sync::Mutex::new(()),
            storage,
            clock,
            next_conn: AtomicU64::new(cluster.as_ref().map_or(1, |c| c.first_conn())),
            idle_stop_ms: AtomicU64::new(IDLE_STOP.as_millis() as u64),
            limits,
            metrics: Metrics::default(),
            lobby: crate::lobby::Lobby::default(),
            cluster,
        })
    }

    /// This hub as the cluster sees it.
    fn as_node(self: &Arc<Self>) -> Arc<dyn crate::cluster::NodeGames> {
        self.clone()
    }

    /// The lobby: the listed games and who follows them.
    #[must_use]
    pub fn lobby(&self) -> &crate::lobby::Lobby {
        &self.lobby
    }

    /// How many wait in each of the quick-pairing queues `keys` (of [`check_spec`]).
    async fn seekers_in(&self, keys: &[String]) -> HashMap<String, u32> {
        if keys.is_empty() {
            return HashMap::new();
        }
        if let Some(cluster) = &self.cluster {
            return cluster.pairing().waiting(cluster, keys).await;
        }
        let state = self.lock();
        let mut counts: HashMap<String, u32> = keys.iter().map(|key| (key.clone(), 0)).collect();
        for seeker in state.seeks.iter().filter(|seeker| !seeker.outbox.is_closed()) {
            if let Some(count) = counts.get_mut(&seeker.key) {
                *count += 1;
            }
        }
        counts
    }

    /// Sends the lobby's followers what changed, every [`crate::lobby::LOBBY_TICK`], until
    /// `shutdown` is cancelled.
    pub async fn lobby_every(self: Arc<Self>, shutdown: tokio_util::sync::CancellationToken) {
        let mut ticks: u64 = 0;
        let mut interval = tokio::time::interval(crate::lobby::LOBBY_TICK);
        interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                () = shutdown.cancelled() => return,
                _ = interval.tick() => {}
            }
            ticks += 1;
            let games = ticks.is_multiple_of(crate::lobby::GAMES_EVERY_TICKS);
            if let Some(cluster) = &self.cluster {
                cluster.share_lobby(&self.lobby, games).await;
            }
            let keys = self.lobby.counted_queues();
            let waiting = self.seekers_in(&keys).await;
            self.lobby.tick(games, &waiting);
        }
    }

    /// Rated seekers' windows widen as they wait: looks for pairs among them again every
    /// [`PAIR_AGAIN_EVERY`] until `shutdown` is cancelled (on a task of its own, so that a slow
    /// pairing never holds up the lobby's updates).
    pub async fn pair_every(self: Arc<Self>, shutdown: tokio_util::sync::CancellationToken) {
        let mut interval = tokio::time::interval(PAIR_AGAIN_EVERY);
        interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                () = shutdown.cancelled() => return,
                _ = interval.tick() => {}
            }
            match &self.cluster {
                Some(cluster) => cluster.pairing().retry_rated(cluster, &self.as_node()).await,
                None => self.pair_waiting().await,
            }
        }
    }

    /// The cluster this node is part of, if any.
    #[must_use]
    pub fn cluster(&self) -> Option<&Arc<Cluster>> {
        self.cluster.as_ref()
    }

    /// The limits in force.
    #[must_use]
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The server's metrics.
    #[must_use]
    pub fn metrics(&self) -> &Metrics {
        &self.metrics
    }

    /// The metrics as `/metrics` shows them, brought up to date.
    #[must_use]
    pub fn render_metrics(&self) -> String {
        let live = i64::try_from(self.lock().games.len()).unwrap_or(i64::MAX);
        self.metrics.live_games.set(live);
        self.metrics.render()
    }

    /// How long a game nobody is in, with no clock running, stays in memory.
    #[must_use]
    pub fn idle_stop(&self) -> Duration {
        Duration::from_millis(self.idle_stop_ms.load(Ordering::Relaxed))
    }

    /// Sets [`Hub::idle_stop`] (for games whose idle wait starts from now on).
    pub fn set_idle_stop(&self, after: Duration) {
        let ms = u64::try_from(after.as_millis()).unwrap_or(u64::MAX);
        self.idle_stop_ms.store(ms, Ordering::Relaxed);
    }

    fn lock(&self) -> MutexGuard<'_, HubState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The time now, in the clock's milliseconds.
    #[must_use]
    pub fn now_ms(&self) -> u64 {
        self.clock.now_ms()
    }

    /// The storage.
    #[must_use]
    pub fn storage(&self) -> &StorageHandle {
        &self.storage
    }

    /// A number for a new connection from this machine.
    pub fn new_connection(&self) -> ConnId {
        self.new_connection_from(IpAddr::V4(Ipv4Addr::LOCALHOST))
    }

    /// A number for a new connection from the client at `address`.
    pub fn new_connection_from(&self, address: IpAddr) -> ConnId {
        let conn = self.next_conn.fetch_add(1, Ordering::Relaxed);
        self.lock().addresses.insert(conn, address);
        conn
    }

    /// The client address of `conn`.
    fn address_of(state: &HubState, conn: ConnId) -> IpAddr {
        state.addresses.get(&conn).copied().unwrap_or(IpAddr::V4(Ipv4Addr::LOCALHOST))
    }

    /// The client address of `conn` (this machine's when unknown).
    pub(crate) fn address(&self, conn: ConnId) -> IpAddr {
        Hub::address_of(&self.lock(), conn)
    }

    /// Notes the client address of `conn`, a socket of another node in a game here.
    pub(crate) fn note_address(&self, conn: ConnId, address: IpAddr) {
        self.lock().addresses.insert(conn, address);
    }

    fn addresses_of(&self, conns: &[ConnId]) -> Vec<IpAddr> {
        let state = self.lock();
        let mut addresses: Vec<IpAddr> =
            conns.iter().filter_map(|conn| state.addresses.get(conn).copied()).collect();
        addresses.sort_unstable();
        addresses.dedup();
        addresses
    }

    /// Whether the clients of `conns` may have one more game made for them: each address is
    /// under [`Limits::games_per_minute`] and [`Limits::unfinished_per_address`]. If so, the
    /// game is counted for each address (once, however many of the connections share it).
    ///
    /// # Errors
    /// [`ErrorCode::RateLimited`] naming the limit.
    pub async fn admit_new_game(&self, conns: &[ConnId]) -> Result<(), Denied> {
        self.new_game_room(conns, true).await
    }

    /// [`Hub::admit_new_game`] for clients at `addresses` (seekers on other nodes among them).
    pub(crate) async fn admit_addresses(&self, addresses: &[IpAddr]) -> Result<(), Denied> {
        match &self.cluster {
            Some(cluster) => {
                cluster.limits().admit_new_game(addresses, true, &self.limits, &self.metrics).await
            }
            None => Ok(()),
        }
    }

    /// [`Hub::admit_new_game`], counting the game only if `take`.
    async fn new_game_room(&self, conns: &[ConnId], take: bool) -> Result<(), Denied> {
        if let Some(cluster) = &self.cluster {
            let addresses = self.addresses_of(conns);
            let shared = cluster.limits();
            return shared.admit_new_game(&addresses, take, &self.limits, &self.metrics).await;
        }
        let now = Instant::now();
        let mut state = self.lock();
        // A connection already closed (a rematch asked for just before) counts for nobody.
        let mut addresses: Vec<IpAddr> =
            conns.iter().filter_map(|conn| state.addresses.get(conn).copied()).collect();
        addresses.sort_unstable();
        addresses.dedup();
        for address in &addresses {
            let ledger = state.ledgers.entry(*address).or_insert_with(|| Ledger::new(&self.limits));
            if ledger.unfinished.len() >= self.limits.unfinished_per_address {
                self.metrics.refused(Limit::UnfinishedGames);
                return Err(too_many_unfinished(&self.limits));
            }
            if let Err(wait) = ledger.created.check(now) {
                self.metrics.refused(Limit::GamesPerMinute);
                return Err(too_many_new_games(&self.limits, wait));
            }
        }
        for address in addresses.into_iter().filter(|_| take) {
            if let Some(ledger) = state.ledgers.get_mut(&address) {
                let _ = ledger.created.take(now);
            }
        }
        Ok(())
    }

    /// Whether `conn`'s client may take a seat in one more unfinished game (by an invite).
    ///
    /// # Errors
    /// [`ErrorCode::RateLimited`] naming the limit.
    pub async fn admit_seat(&self, conn: ConnId) -> Result<(), Denied> {
        if let Some(cluster) = &self.cluster {
            let address = self.address(conn);
            return cluster.limits().admit_seat(address, &self.limits, &self.metrics).await;
        }
        let state = self.lock();
        let address = Hub::address_of(&state, conn);
        let held = state.ledgers.get(&address).map_or(0, |ledger| ledger.unfinished.len());
        if held >= self.limits.unfinished_per_address {
            self.metrics.refused(Limit::UnfinishedGames);
            return Err(too_many_unfinished(&self.limits));
        }
        Ok(())
    }

    /// Whether `conn`'s client may abort one more game this minute ([`Limits::aborts_per_minute`]);
    /// if so, the abort is counted.
    ///
    /// # Errors
    /// [`ErrorCode::RateLimited`] naming the limit.
    pub async fn admit_abort(&self, conn: ConnId) -> Result<(), Denied> {
        if let Some(cluster) = &self.cluster {
            let address = self.address(conn);
            return cluster.limits().admit_abort(address, &self.limits, &self.metrics).await;
        }
        let mut state = self.lock();
        let address = Hub::address_of(&state, conn);
        let ledger = state.ledgers.entry(address).or_insert_with(|| Ledger::new(&self.limits));
        ledger.aborted.take(Instant::now()).map_err(|wait| {
            self.metrics.refused(Limit::AbortsPerMinute);
            too_many_aborts(&self.limits, wait)
        })
    }

    /// Whether `conn`'s client may post one more open challenge
    /// ([`Limits::open_challenges_per_address`], on every node when several share the store).
    ///
    /// # Errors
    /// [`ErrorCode::RateLimited`] naming the limit.
    pub async fn admit_challenge(&self, conn: ConnId) -> Result<(), Denied> {
        let address = self.address(conn);
        let open = match &self.cluster {
            Some(cluster) => cluster.limits().challenges_of(address).await,
            None => self.lock().ledgers.get(&address).map_or(0, |l| l.challenges.len()),
        };
        if open >= self.limits.open_challenges_per_address {
            self.metrics.refused(Limit::OpenChallenges);
            return Err(too_many_challenges(&self.limits));
        }
        Ok(())
    }

    /// Notes that `conn`'s client made the open challenge `id`.
    async fn note_challenge(&self, conn: ConnId, id: &str) {
        let address = self.address(conn);
        if let Some(cluster) = &self.cluster {
            return cluster.limits().note_challenge(address, id).await;
        }
        let mut state = self.lock();
        let ledger = state.ledgers.entry(address).or_insert_with(|| Ledger::new(&self.limits));
        ledger.challenges.insert(id.to_owned());
        state.challengers.insert(id.to_owned(), address);
    }

    /// The game `id` got its second player: if it was an open challenge, it counts no more.
    pub async fn challenge_taken(&self, id: &str) {
        if let Some(cluster) = &self.cluster {
            return cluster.limits().challenge_gone(id).await;
        }
        self.lock().challenge_gone(id);
    }

    /// Notes that the clients at `addresses` hold seats in the unfinished game `id` (across
    /// nodes; one node's ledgers go by connection, [`Hub::note_seated`]).
    pub(crate) async fn note_seated_addresses(&self, addresses: &[IpAddr], id: &str) {
        if let Some(cluster) = &self.cluster {
            cluster.limits().note_seated(addresses, id).await;
        }
    }

    /// Notes that the clients of `conns` hold seats in the unfinished game `id`.
    pub async fn note_seated(&self, conns: &[ConnId], id: &str) {
        if self.cluster.is_some() {
            let addresses = self.addresses_of(conns);
            return self.note_seated_addresses(&addresses, id).await;
        }
        let mut state = self.lock();
        for &conn in conns {
            let address = Hub::address_of(&state, conn);
            let ledger = state.ledgers.entry(address).or_insert_with(|| Ledger::new(&self.limits));
            ledger.unfinished.insert(id.to_owned());
            let holders = state.holders.entry(id.to_owned()).or_default();
            if !holders.contains(&address) {
                holders.push(address);
            }
        }
    }

    /// How many unfinished games the client at `address` holds a seat in, in memory (on every
    /// node, when several share the store).
    pub async fn unfinished_of(&self, address: IpAddr) -> usize {
        if let Some(cluster) = &self.cluster {
            return cluster.limits().held_by(address).await;
        }
        self.lock().ledgers.get(&address).map_or(0, |ledger| ledger.unfinished.len())
    }

    /// How many games are in memory.
    #[must_use]
    pub fn loaded_games(&self) -> usize {
        self.lock().games.len()
    }

    /// Starts a task for every stored game whose clock runs (after a restart: its flag must
    /// fall on time); returns how many. Other unfinished games are loaded when asked for.
    ///
    /// # Errors
    /// [`StorageError`] when the games cannot be read.
    pub async fn restore(self: &Arc<Self>) -> Result<usize, StorageError> {
        if self.cluster.is_some() {
            // Several nodes: the games of nodes that stopped are taken over by the live ones
            // (crate::cluster), not by whichever node starts.
            return Ok(0);
        }
        let games = self.storage.unfinished().await?;
        let mut count = 0;
        for stored in games {
            match Session::restore(&stored, self.now_ms()) {
                Ok(session) if session.next_deadline().is_none() => {}
                Ok(session) => {
                    self.spawn(session, None);
                    count += 1;
                }
                Err(e) => tracing::error!(game = %stored.game.id, error = %e, "game not restored"),
            }
        }
        Ok(count)
    }

    fn spawn(self: &Arc<Self>, session: Session, fence: Option<u64>) -> GameHandle {
        let id = session.id().to_owned();
        let handle = actor::spawn(session, self.clone(), fence);
        self.lock().games.insert(id, handle.clone());
        handle
    }

    /// Runs a game this node has just taken over (its lease's token `fence`), unless it runs
    /// here already.
    pub(crate) fn adopt(self: &Arc<Self>, session: Session, fence: u64) {
        if !self.is_loaded(session.id()) {
            self.spawn(session, Some(fence));
        }
    }

    /// The ids of the games running on this node.
    #[must_use]
    pub fn loaded_ids(&self) -> Vec<String> {
        self.lock().games.keys().cloned().collect()
    }

    /// Whether connection `conn` is in any game on this node.
    #[must_use]
    pub fn is_in_any_game(&self, conn: ConnId) -> bool {
        self.lock().attached.get(&conn).is_some_and(|games| !games.is_empty())
    }

    /// Whether this node must stop acting for its games: its lease in the cluster ran out.
    #[must_use]
    pub fn lease_lost(&self) -> bool {
        self.cluster.as_ref().is_some_and(|cluster| cluster.lease_lost())
    }

    /// The game `id` if it runs on this node.
    #[must_use]
    pub fn loaded(&self, id: &str) -> Option<GameHandle> {
        self.lock().games.get(id).cloned()
    }

    /// Gives up every game of this node (it lost its leases): everyone in them reconnects.
    pub async fn evict_all(&self) {
        let handles: Vec<GameHandle> = self.lock().games.values().cloned().collect();
        for handle in handles {
            handle.send(Command::Evict).await;
        }
    }

    /// The game `id`, from memory or else from storage (several nodes: run by another node, or
    /// claimed for this one); `None` also when storage cannot be read ([`Hub::lookup`] tells).
    pub async fn find(self: &Arc<Self>, id: &str) -> Option<GameHandle> {
        self.lookup(id).await.ok().flatten()
    }

    /// [`Hub::find`], telling a game that is not there from storage that cannot be read now.
    ///
    /// # Errors
    /// [`StorageError`] when the game could not be read or claimed (logged).
    pub async fn lookup(self: &Arc<Self>, id: &str) -> Result<Option<GameHandle>, StorageError> {
        if let Some(handle) = self.lock().games.get(id) {
            return Ok(Some(handle.clone()));
        }
        if let Some(cluster) = &self.cluster
            && let Some(owner) = cluster.cached_owner(id)
        {
            return Ok(Some(crate::cluster::remote_handle(cluster, owner, id)));
        }
        let _one_at_a_time = self.loading.lock().await;
        if let Some(handle) = self.lock().games.get(id) {
            return Ok(Some(handle.clone()));
        }
        let (stored, fence) = match &self.cluster {
            None => match self.storage.load(id.to_owned()).await {
                Ok(Some(stored)) => (stored, None),
                Ok(None) => return Ok(None),
                Err(e) => {
                    tracing::error!(game = id, error = %e, "loading a game failed");
                    return Err(e);
                }
            },
            Some(cluster) => match cluster.claim(id).await {
                Ok(Claim::Mine(fence, stored)) => (*stored, Some(fence)),
                Ok(Claim::Owner(owner)) => {
                    return Ok(Some(crate::cluster::remote_handle(cluster, owner, id)));
                }
                Ok(Claim::Missing) => return Ok(None),
                Err(e) => {
                    tracing::error!(game = id, error = %e, "claiming a game failed");
                    return Err(e);
                }
            },
        };
        let mut stored = stored;
        if invitation_expired(&stored, unix_ms()) {
            let result = GameResult { winner: None, reason: EndReason::Aborted };
            let now = unix_ms();
            let finish = Write::Finish {
                game: id.to_owned(),
                result: result.clone(),
                clocks: None,
                unix_ms: now,
            };
            let mut writes = vec![finish];
            if let Some(token) = fence {
                writes.insert(0, Write::Fence { game: id.to_owned(), token });
            }
            match self.storage.write(writes).await {
                Ok(()) => stored.result = Some(result),
                Err(e) => tracing::error!(game = id, error = %e, "aborting an expired game failed"),
            }
        }
        match Session::restore(&stored, self.now_ms()) {
            Ok(session) => Ok(Some(self.spawn(session, fence))),
            Err(e) => {
                tracing::error!(game = id, error = %e, "a stored game does not load");
                Ok(None)
            }
        }
    }

    /// Whether game `id` is in memory (its task runs).
    #[must_use]
    pub fn is_loaded(&self, id: &str) -> bool {
        self.lock().games.contains_key(id)
    }

    /// Forgets a game whose task stops (unless another task has taken its place).
    pub fn forget(&self, id: &str, handle: &GameHandle, fence: Option<u64>) {
        let mut state = self.lock();
        if state.games.get(id).is_some_and(|known| known.same_game(handle)) {
            state.games.remove(id);
            state.release(id);
            drop(state);
            if let Some(cluster) = &self.cluster {
                self.release_shared(id);
                if let Some(fence) = fence {
                    cluster.release(id, fence);
                }
            }
        }
    }

    /// Lets game `id` go in the limits shared across nodes.
    fn release_shared(&self, id: &str) {
        if let Some(cluster) = &self.cluster {
            let cluster = Arc::clone(cluster);
            let id = id.to_owned();
            tokio::spawn(async move { cluster.limits().release(&id).await });
        }
    }

    /// Notes that `conn` is in game `id` (`going`: not over yet).
    pub fn note_attached(&self, conn: ConnId, id: &str, going: bool) {
        let mut state = self.lock();
        state.next_order += 1;
        let order = state.next_order;
        let games = state.attached.entry(conn).or_default();
        match games.get_mut(id) {
            Some(attachment) => attachment.going = going,
            None => {
                games.insert(id.to_owned(), Attachment { going, order });
            }
        }
    }

    /// Notes that `conn` left game `id`.
    pub fn note_detached(&self, conn: ConnId, id: &str) {
        let mut state = self.lock();
        if let Some(games) = state.attached.get_mut(&conn) {
            games.remove(id);
            if games.is_empty() {
                state.attached.remove(&conn);
            }
        }
    }

    /// Notes that game `id` ended: it no longer counts against its connections' room, nor
    /// against its players' addresses.
    pub fn note_ended(&self, id: &str, conns: &[ConnId]) {
        let mut state = self.lock();
        for conn in conns {
            if let Some(attachment) =
                state.attached.get_mut(conn).and_then(|games| games.get_mut(id))
            {
                attachment.going = false;
            }
        }
        state.release(id);
        drop(state);
        self.release_shared(id);
    }

    /// Whether `conn` may come into one more game going (or is in `id` already).
    #[must_use]
    pub fn has_room(&self, conn: ConnId, id: Option<&str>) -> bool {
        let state = self.lock();
        let Some(games) = state.attached.get(&conn) else { return true };
        let going = games.values().filter(|a| a.going).count();
        going < MAX_GAMES_PER_CONNECTION || id.is_some_and(|id| games.contains_key(id))
    }

    /// Makes room for `conn` to come into one more game (unless it is in `id` already): at most
    /// [`MAX_GAMES_PER_CONNECTION`] going, and [`Limits::games_per_connection`] in all, past
    /// which the finished games it joined longest ago are let go.
    ///
    /// # Errors
    /// [`ErrorCode::TooManyGames`] naming the limit.
    pub async fn make_room(&self, conn: ConnId, id: Option<&str>) -> Result<(), Denied> {
        let let_go: Vec<(String, Option<GameHandle>)> = {
            let mut state = self.lock();
            let Some(games) = state.attached.get_mut(&conn) else { return Ok(()) };
            if id.is_some_and(|id| games.contains_key(id)) {
                return Ok(());
            }
            let going = games.values().filter(|a| a.going).count();
            if going >= MAX_GAMES_PER_CONNECTION {
                self.metrics.refused(Limit::GamesPerConnection);
                return Err(Denied::new(
                    ErrorCode::TooManyGames,
                    format!("too many games at once: at most {MAX_GAMES_PER_CONNECTION} going"),
                ));
            }
            let mut finished: Vec<(u64, String)> = games
                .iter()
                .filter(|(_, a)| !a.going)
                .map(|(game, a)| (a.order, game.clone()))
                .collect();
            finished.sort_unstable();
            let excess = (games.len() + 1).saturating_sub(self.limits.games_per_connection);
            if excess > finished.len() {
                self.metrics.refused(Limit::GamesPerConnection);
                return Err(Denied::new(
                    ErrorCode::TooManyGames,
                    format!(
                        "too many games at once: at most {} per connection",
                        self.limits.games_per_connection
                    ),
                ));
            }
            let chosen: Vec<String> =
                finished.into_iter().take(excess).map(|(_, game)| game).collect();
            for game in &chosen {
                games.remove(game);
            }
            chosen.into_iter().map(|game| (game.clone(), state.games.get(&game).cloned())).collect()
        };
        for (game, handle) in let_go {
            let handle = match (handle, &self.cluster) {
                (Some(handle), _) => Some(handle),
                // Another node's game, if we know which.
                (None, Some(cluster)) => cluster
                    .cached_owner(&game)
                    .map(|owner| crate::cluster::remote_handle(cluster, owner, &game)),
                (None, None) => None,
            };
            if let Some(handle) = handle {
                handle.send(Command::Detach { conn }).await;
            }
        }
        Ok(())
    }

    /// A connection closed: it leaves the pairing queue and every game it was in (on every
    /// node).
    pub async fn disconnect(&self, conn: ConnId) {
        self.lobby.forget(conn);
        self.disconnect_here(conn).await;
        if let Some(cluster) = &self.cluster {
            cluster.disconnect(conn).await;
        }
    }

    /// A connection closed: it leaves the pairing queue and every game it was in on this node.
    pub(crate) async fn disconnect_here(&self, conn: ConnId) {
        let handles: Vec<GameHandle> = {
            let mut state = self.lock();
            state.seeks.retain(|seeker| seeker.conn != conn);
            state.addresses.remove(&conn);
            let games = state.attached.remove(&conn).unwrap_or_default();
            games.keys().filter_map(|id| state.games.get(id).cloned()).collect()
        };
        for handle in handles {
            handle.send(Command::Detach { conn }).await;
        }
    }

    /// Creates and stores a game and starts its task.
    ///
    /// Storage gets the hashes of the tokens alone; the task knows the taken seats' tokens to
    /// hand them out with [`Attach::Seat`]. A free seat's stored hash is of a token nobody keeps
    /// (its token is made when the seat is taken), and the invite is [`invite_for`] the
    /// creator's token, so that the creator coming back with their token gets it again; with no
    /// free seat it is of a random token nobody keeps.
    async fn new_game(
        self: &Arc<Self>,
        spec: GameSpec,
        players: [Option<Player>; 2],
        rematch_of: Option<String>,
        listed: bool,
    ) -> Result<(GameHandle, String), Denied> {
        let id = new_game_id().map_err(internal)?;
        self.new_game_as(id, None, spec, players, rematch_of, listed).await
    }

    /// A tournament's game between two accounts, under the id the tournament chose for it
    /// when it paired them (stored with the pairing first, so that a driver that dies between
    /// the two lets the next one create the game, once): the players come into it with
    /// [`Attach::Account`].
    ///
    /// # Errors
    /// [`Denied`]: a bad spec, or storage failing (a game with that id already stored too).
    pub async fn tournament_game(
        self: &Arc<Self>,
        id: String,
        tournament: String,
        spec: GameSpec,
        players: [Player; 2],
    ) -> Result<(), Denied> {
        check_spec(&spec)?;
        let players = players.map(Some);
        self.new_game_as(id, Some(tournament), spec, players, None, false).await.map(|_| ())
    }

    async fn new_game_as(
        self: &Arc<Self>,
        id: String,
        tournament: Option<String>,
        spec: GameSpec,
        players: [Option<Player>; 2],
        rematch_of: Option<String>,
        listed: bool,
    ) -> Result<(GameHandle, String), Denied> {
        let names = players.clone().map(|player| player.map(|p| p.name));
        let accounts = players.clone().map(|player| player.and_then(|p| p.account));
        let ratings = players.map(|player| player.and_then(|p| p.rating_in(&spec)));
        let seed = random_u64().map_err(internal)?;
        let game = AnyGame::with_rules(spec.rules, &StartFrom::Start { seed })
            .map_err(|e| Denied::new(ErrorCode::BadSpec, e.to_string()))?;
        let tokens = [new_token().map_err(internal)?, new_token().map_err(internal)?];
        let invite = match &names {
            [Some(_), None] => invite_for(&tokens[0]),
            [None, Some(_)] => invite_for(&tokens[1]),
            _ => new_token().map_err(internal)?,
        };
        let token_hashes = [hash_token(&tokens[0]), hash_token(&tokens[1])];
        let known = [0, 1].map(|index| names[index].is_some().then(|| tokens[index].clone()));
        let record = GameRecord {
            id,
            spec,
            start: game.position(),
            invite_hash: hash_token(&invite),
            token_hashes,
            names,
            accounts,
            created_unix_ms: unix_ms(),
            rematch_of,
            listed,
            tournament,
        };
        self.storage.write(vec![Write::Create(record.clone())]).await.map_err(internal)?;
        let fence = match &self.cluster {
            Some(cluster) => Some(cluster.claim_new(&record.id).await.map_err(internal)?),
            None => None,
        };
        let stored = StoredGame {
            game: record,
            moves: Vec::new(),
            result: None,
            final_clocks: None,
            chat: Vec::new(),
        };
        let mut session = Session::created(&stored, known, self.now_ms()).map_err(internal)?;
        session.set_ratings(ratings);
        let id = session.id().to_owned();
        tracing::info!(game = %id, variant = %stored.game.spec.variant(), "game created");
        Ok((self.spawn(session, fence), id))
    }

    /// A new game between two named players (quick pairing across nodes), run here.
    pub(crate) async fn make_game(
        self: &Arc<Self>,
        spec: GameSpec,
        players: [Option<Player>; 2],
    ) -> Result<(GameHandle, String), Denied> {
        self.new_game(spec, players, None, true).await
    }

    /// A seat drawn at random.
    pub(crate) fn random_seat(&self) -> Result<Seat, Denied> {
        random_seat()
    }

    /// Creates a game for `conn` in the seat it chose; it gets `Seated` (with the invite) and
    /// the state.
    ///
    /// # Errors
    /// [`Denied`]: a bad spec, or storage failing.
    pub async fn create(
        self: &Arc<Self>,
        spec: GameSpec,
        choice: SeatChoice,
        listed: bool,
        player: Player,
        conn: ConnId,
        outbox: Outbox,
    ) -> Result<(), Denied> {
        check_spec(&spec)?;
        player.may_play(&spec, None)?;
        let seat = match choice {
            SeatChoice::First => Seat::First,
            SeatChoice::Second => Seat::Second,
            SeatChoice::Random => random_seat()?,
        };
        if listed {
            self.admit_challenge(conn).await?;
        }
        self.admit_new_game(&[conn]).await?;
        let mut players = [None, None];
        players[seat.index()] = Some(player);
        let (handle, id) = self.new_game(spec, players, None, listed).await?;
        self.note_seated(&[conn], &id).await;
        if listed {
            self.note_challenge(conn, &id).await;
        }
        into_game(&handle, conn, outbox, Attach::Seat(seat)).await
    }

    /// Pairs `conn` with the first player waiting for the same game and clock, or queues it
    /// (it gets `Seeking`). A new seek replaces the connection's old one.
    ///
    /// # Errors
    /// [`Denied`]: a bad spec, or storage failing.
    pub async fn seek(
        self: &Arc<Self>,
        spec: GameSpec,
        player: Player,
        conn: ConnId,
        outbox: Outbox,
    ) -> Result<(), Denied> {
        let key = check_spec(&spec)?;
        player.may_play(&spec, None)?;
        // Someone who may not have a game made now does not wait for one.
        self.new_game_room(&[conn], false).await?;
        if let Some(cluster) = &self.cluster {
            let node = self.as_node();
            return cluster.pairing().seek(cluster, &node, spec, player, conn, outbox).await;
        }
        let now_ms = self.now_ms();
        let mine = Seeker { conn, key, spec, player, since_ms: now_ms, outbox };
        let partner = {
            let mut state = self.lock();
            state.seeks.retain(|seeker| seeker.conn != conn && !seeker.outbox.is_closed());
            match partner_index(&state, &mine, now_ms) {
                Some(index) => state.seeks.remove(index),
                None => {
                    mine.outbox.send(&ServerMessage::Seeking { spec: mine.spec.clone() });
                    state.seeks.push(mine);
                    return Ok(());
                }
            }
        };
        self.pair(mine, partner).await
    }

    /// Pairs the rated seekers whose windows have widened enough to meet (quick pairing of
    /// rated seeks prefers the nearest rating; see [`crate::rating::partner`]).
    pub async fn pair_waiting(self: &Arc<Self>) {
        let now_ms = self.now_ms();
        loop {
            let pair = {
                let mut state = self.lock();
                state.seeks.retain(|seeker| !seeker.outbox.is_closed());
                let found = (0..state.seeks.len()).find_map(|index| {
                    let seeker = &state.seeks[index];
                    if !seeker.spec.rated {
                        return None;
                    }
                    partner_index(&state, seeker, now_ms).map(|other| (index, other))
                });
                found.map(|(a, b)| {
                    let (first, second) = (a.max(b), a.min(b));
                    let first = state.seeks.remove(first);
                    let second = state.seeks.remove(second);
                    (first, second)
                })
            };
            let Some((mine, partner)) = pair else { return };
            let outbox = mine.outbox.clone();
            if let Err(denied) = self.pair(mine, partner).await {
                outbox.send(&ServerMessage::Error { code: denied.code, detail: denied.detail });
            }
        }
    }

    /// Makes the game of two seekers taken out of the queue.
    async fn pair(self: &Arc<Self>, mine: Seeker, partner: Seeker) -> Result<(), Denied> {
        let Seeker { conn, key, spec, player, since_ms, outbox } = mine;
        // A partner who may no longer have a game made (its address went over a limit while it
        // waited) is told so and leaves the queue; this seeker waits for the next one.
        if let Err(denied) = self.new_game_room(&[partner.conn], false).await {
            partner.outbox.send(&ServerMessage::Error { code: denied.code, detail: denied.detail });
            outbox.send(&ServerMessage::Seeking { spec: spec.clone() });
            self.lock().seeks.push(Seeker { conn, key, spec, player, since_ms, outbox });
            return Ok(());
        }
        let mine = random_seat()?;
        let mut players = [None, None];
        players[mine.index()] = Some(player);
        players[mine.other().index()] = Some(partner.player);
        let made = match self.admit_new_game(&[conn, partner.conn]).await {
            Ok(()) => self.new_game(partner.spec, players, None, true).await,
            Err(denied) => Err(denied),
        };
        let handle = match made {
            Ok((handle, id)) => {
                self.note_seated(&[conn, partner.conn], &id).await;
                handle
            }
            Err(denied) => {
                let error =
                    ServerMessage::Error { code: denied.code, detail: denied.detail.clone() };
                partner.outbox.send(&error);
                return Err(denied);
            }
        };
        into_game(&handle, partner.conn, partner.outbox, Attach::Seat(mine.other())).await?;
        into_game(&handle, conn, outbox, Attach::Seat(mine)).await
    }

    /// Takes `conn` out of the pairing queue.
    pub async fn cancel_seek(&self, conn: ConnId) {
        self.lock().seeks.retain(|seeker| seeker.conn != conn);
        if let Some(cluster) = &self.cluster {
            cluster.pairing().leave(cluster, conn).await;
        }
    }

    /// Starts the rematch both players of a finished game asked for: a new game with the seats
    /// swapped, each player's connections seated in it.
    pub async fn start_rematch(
        self: Arc<Self>,
        plan: RematchPlan,
        outboxes: [Vec<(ConnId, Outbox)>; 2],
    ) {
        let mut seated = plan.players.clone();
        // The ratings the game just ended changed.
        for player in &mut seated {
            if let Some(account) = &player.account
                && let Ok(ratings) = self.storage.ratings(account.clone()).await
            {
                player.ratings = shown_ratings(&ratings, unix_ms());
            }
        }
        let names = seated.map(Some);
        let players: Vec<ConnId> = outboxes.iter().flatten().map(|(conn, _)| *conn).collect();
        let made = match self.admit_new_game(&players).await {
            Ok(()) => self.new_game(plan.spec, names, Some(plan.of), plan.listed).await,
            Err(denied) => Err(denied),
        };
        let handle = match made {
            Ok((handle, id)) => {
                self.note_seated(&players, &id).await;
                handle
            }
            Err(denied) => {
                let error = ServerMessage::Error { code: denied.code, detail: denied.detail };
                for (_, outbox) in outboxes.iter().flatten() {
                    outbox.send(&error);
                }
                return;
            }
        };
        for (seat, conns) in [Seat::First, Seat::Second].into_iter().zip(outboxes) {
            for (conn, outbox) in conns {
                if let Err(denied) = self.make_room(conn, None).await {
                    let error = ServerMessage::Error { code: denied.code, detail: denied.detail };
                    outbox.send(&error);
                    continue;
                }
                let _ = into_game(&handle, conn, outbox, Attach::Seat(seat)).await;
            }
        }
    }
}

impl Hub {
    /// Runs [`Hub::sweep`] every [`Limits::sweep_every`] until `shutdown` is cancelled.
    pub async fn sweep_every(self: Arc<Self>, shutdown: tokio_util::sync::CancellationToken) {
        loop {
            tokio::select! {
                () = shutdown.cancelled() => return,
                () = tokio::time::sleep(self.limits.sweep_every) => {}
            }
            self.sweep().await;
        }
    }

    /// Forgets what no longer matters: the ledgers of addresses that did nothing lately and
    /// hold nothing, seekers whose connection is gone; and deletes from storage the games
    /// aborted, or created and never started, more than [`Limits::retention`] ago (except
    /// games in memory). Returns how many games were deleted.
    pub async fn sweep(&self) -> usize {
        // No game is loaded (and then written to) between listing those in memory and the
        // sweep.
        let _no_loading = self.loading.lock().await;
        let keep: Vec<String> = {
            let now = Instant::now();
            let mut state = self.lock();
            state.ledgers.retain(|_, ledger| {
                let quiet = ledger.created.is_empty_at(now) & ledger.aborted.is_empty_at(now);
                !(quiet && ledger.unfinished.is_empty())
            });
            state.seeks.retain(|seeker| !seeker.outbox.is_closed());
            state.games.keys().cloned().collect()
        };
        // Never an invitation that could still be taken.
        let retention = u64::try_from(self.limits.retention.as_millis())
            .unwrap_or(u64::MAX)
            .max(INVITE_EXPIRY_MS);
        let cutoff = unix_ms().saturating_sub(retention);
        match self.storage.sweep(cutoff, keep).await {
            Ok(deleted) => {
                if deleted > 0 {
                    tracing::info!(deleted, "old aborted and never-started games deleted");
                }
                deleted
            }
            Err(e) => {
                tracing::error!(error = %e, "sweeping storage failed");
                0
            }
        }
    }
}

fn random_seat() -> Result<Seat, Denied> {
    let lot = random_u64().map_err(internal)?;
    Ok(if lot & 1 == 0 { Seat::First } else { Seat::Second })
}

/// Whether `stored` is an invitation nobody took within [`INVITE_EXPIRY_MS`] of its creation:
/// a seat still free, no move, no result.
fn invitation_expired(stored: &StoredGame, now_unix_ms: u64) -> bool {
    stored.result.is_none()
        && stored.moves.is_empty()
        && stored.game.names.iter().any(Option::is_none)
        && now_unix_ms.saturating_sub(stored.game.created_unix_ms) >= INVITE_EXPIRY_MS
}

/// The hub is the cluster's way to this node's games ([`crate::cluster::NodeGames`]).
impl crate::cluster::NodeGames for Hub {
    fn now_ms(&self) -> u64 {
        Hub::now_ms(self)
    }

    fn address(&self, conn: ConnId) -> IpAddr {
        Hub::address(self, conn)
    }

    fn note_address(&self, conn: ConnId, address: IpAddr) {
        Hub::note_address(self, conn, address);
    }

    fn is_in_any_game(&self, conn: ConnId) -> bool {
        Hub::is_in_any_game(self, conn)
    }

    fn make_room<'a>(
        &'a self,
        conn: ConnId,
        id: Option<&'a str>,
    ) -> actor::Boxed<'a, Result<(), Denied>> {
        Box::pin(Hub::make_room(self, conn, id))
    }

    fn disconnect_here(&self, conn: ConnId) -> actor::Boxed<'_, ()> {
        Box::pin(Hub::disconnect_here(self, conn))
    }

    fn loaded(&self, id: &str) -> Option<GameHandle> {
        Hub::loaded(self, id)
    }

    fn loaded_ids(&self) -> Vec<String> {
        Hub::loaded_ids(self)
    }

    fn find<'a>(self: Arc<Self>, id: &'a str) -> actor::Boxed<'a, Option<GameHandle>> {
        Box::pin(async move { Hub::find(&self, id).await })
    }

    fn evict_all(&self) -> actor::Boxed<'_, ()> {
        Box::pin(Hub::evict_all(self))
    }

    fn adopt(self: Arc<Self>, session: Session, fence: u64) {
        Hub::adopt(&self, session, fence);
    }

    fn admit_addresses<'a>(
        &'a self,
        addresses: &'a [IpAddr],
    ) -> actor::Boxed<'a, Result<(), Denied>> {
        Box::pin(Hub::admit_addresses(self, addresses))
    }

    fn random_seat(&self) -> Result<Seat, Denied> {
        Hub::random_seat(self)
    }

    fn make_game(
        self: Arc<Self>,
        spec: GameSpec,
        players: [Option<Player>; 2],
    ) -> actor::Boxed<'static, Result<(GameHandle, String), Denied>> {
        Box::pin(async move { Hub::make_game(&self, spec, players).await })
    }

    fn note_seated_addresses<'a>(
        &'a self,
        addresses: &'a [IpAddr],
        id: &'a str,
    ) -> actor::Boxed<'a, ()> {
        Box::pin(Hub::note_seated_addresses(self, addresses, id))
    }
}

/// The hub is what runs the node's games: their tasks ask it through [`actor::GameHost`].
impl actor::GameHost for Hub {
    fn now_ms(&self) -> u64 {
        Hub::now_ms(self)
    }

    fn idle_stop(&self) -> Duration {
        Hub::idle_stop(self)
    }

    fn lobby(&self) -> &crate::lobby::Lobby {
        Hub::lobby(self)
    }

    fn storage(&self) -> &StorageHandle {
        Hub::storage(self)
    }

    fn metrics(&self) -> &Metrics {
        Hub::metrics(self)
    }

    fn address(&self, conn: ConnId) -> IpAddr {
        Hub::address(self, conn)
    }

    fn lease_lost(&self) -> bool {
        Hub::lease_lost(self)
    }

    fn forget(&self, id: &str, handle: &GameHandle, fence: Option<u64>) {
        Hub::forget(self, id, handle, fence);
    }

    fn note_attached(&self, conn: ConnId, id: &str, going: bool) {
        Hub::note_attached(self, conn, id, going);
    }

    fn note_detached(&self, conn: ConnId, id: &str) {
        Hub::note_detached(self, conn, id);
    }

    fn note_ended(&self, id: &str, conns: &[ConnId]) {
        Hub::note_ended(self, id, conns);
    }

    fn start_rematch(
        self: Arc<Self>,
        plan: RematchPlan,
        outboxes: [Vec<(ConnId, Outbox)>; 2],
    ) -> actor::Boxed<'static, ()> {
        Box::pin(Hub::start_rematch(self, plan, outboxes))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::ManualClock;
    use crate::storage::{MemoryStorage, Storage};
    use qi_protocol::{AnyRules, ClockSpec, EndReason, GameResult};

    fn spec(variant: &str, rules: &str, clock: Option<(u32, u32)>) -> GameSpec {
        let clock =
            clock.map(|(base_secs, increment_secs)| ClockSpec { base_secs, increment_secs });
        let variant = qi_protocol::Variant::parse(variant).unwrap();
        GameSpec { rules: AnyRules::parse(variant, rules).unwrap(), clock, rated: false }
    }

    /// A signed-in chess player rated `rating`.
    fn rated_player(key: &str, rating: u32) -> Player {
        let shown = qi_protocol::ShownRating { rating, provisional: false };
        Player {
            name: key.into(),
            account: Some(key.into()),
            ratings: vec![("chess".into(), shown)],
        }
    }

    /// The game `frames` were seated in, if any.
    fn seated_in(frames: &mut tokio::sync::mpsc::Receiver<Arc<str>>) -> Option<String> {
        let mut game = None;
        while let Ok(frame) = frames.try_recv() {
            if let Ok(ServerMessage::Seated { game: id, .. }) = ServerMessage::parse(&frame) {
                game = Some(id);
            }
        }
        game
    }

    #[tokio::test]
    async fn rated_seeks_pair_the_nearest_rating_and_widen_their_window_as_they_wait() {
        let clock = Arc::new(ManualClock::at(0));
        let hub = Hub::new(StorageHandle::spawn(MemoryStorage::new()).unwrap(), clock.clone());
        let rated = GameSpec { rated: true, ..spec("chess", "", None) };
        let mut frames = Vec::new();
        let mut seek = async |key: &str, rating: u32| {
            let conn = hub.new_connection_from(IpAddr::from([10, 0, 0, frames.len() as u8 + 1]));
            let (outbox, received) = Outbox::new();
            frames.push(received);
            hub.seek(rated.clone(), rated_player(key, rating), conn, outbox).await.unwrap();
        };
        seek("ann", 1500).await;
        seek("bo", 1800).await; // 300 away from Ann: neither window reaches
        seek("ann", 1440).await; // the same account (another tab) is never its own opponent
        seek("cy", 1560).await; // nearest to Ann within 100
        seek("dee", 2000).await; // 200 away from Bo
        let games: Vec<Option<String>> = frames.iter_mut().map(seated_in).collect();
        assert!(games[0].is_some() && games[0] == games[3], "Ann and Cy: {games:?}");
        assert_eq!((&games[1], &games[2], &games[4]), (&None, &None, &None));
        // Casual seekers never meet rated ones.
        let (outbox, mut casual) = Outbox::new();
        let conn = hub.new_connection_from(IpAddr::from([10, 0, 0, 9]));
        hub.seek(spec("chess", "", None), Player::anonymous("Eve".into()), conn, outbox)
            .await
            .unwrap();
        assert!(seated_in(&mut casual).is_none());
        // The windows widen by 50 every 5 s: 150 at 5 s is not enough for Bo and Dee, 200 at
        // 10 s is; the other Ann still waits.
        clock.advance(5_000);
        hub.pair_waiting().await;
        assert!(frames.iter_mut().map(seated_in).all(|g| g.is_none()), "200 apart at 5 s");
        clock.advance(5_000);
        hub.pair_waiting().await;
        let games: Vec<Option<String>> = frames.iter_mut().map(seated_in).collect();
        assert!(games[1].is_some() && games[1] == games[4], "Bo and Dee: {games:?}");
        assert!(games[2].is_none());
    }

    #[test]
    fn seeks_pair_by_the_rules_in_full_and_the_clock() {
        let key = |s: &GameSpec| check_spec(s).unwrap();
        assert_eq!(key(&spec("banqi", "", None)), key(&spec("banqi", "draw=40", None)));
        assert_ne!(key(&spec("banqi", "", None)), key(&spec("banqi", "chain=true", None)));
        assert_ne!(key(&spec("chess", "", Some((60, 0)))), key(&spec("chess", "", Some((60, 1)))));
        assert_ne!(key(&spec("chess", "", None)), key(&spec("chess960", "", None)));
        // (A game that does not exist, or rule options it does not take, are no spec at all:
        // see qi-protocol's tests and the connection's.)
        for bad in [spec("chess", "", Some((0, 0))), spec("gomoku", "", Some((10_801, 0)))] {
            assert_eq!(check_spec(&bad).unwrap_err().code, ErrorCode::BadSpec, "{bad:?}");
        }
    }

    #[tokio::test]
    async fn the_sweeper_deletes_old_aborted_and_unstarted_games_but_not_loaded_ones() {
        let mut storage = MemoryStorage::new();
        let game = AnyGame::new("gomoku", "", &StartFrom::Start { seed: 0 }).unwrap();
        let long_ago = unix_ms() - Limits::default().retention.as_millis() as u64 - 60_000;
        let record = |id: &str, created_unix_ms: u64| GameRecord {
            id: id.into(),
            spec: spec("gomoku", "", None),
            start: game.position(),
            invite_hash: "i".into(),
            token_hashes: ["a".into(), "b".into()],
            names: [Some("Ann".into()), None],
            accounts: [None, None],
            created_unix_ms,
            rematch_of: None,
            listed: false,
            tournament: None,
        };
        let aborted = |id: &str, unix_ms: u64| Write::Finish {
            game: id.into(),
            result: GameResult { winner: None, reason: EndReason::Aborted },
            clocks: None,
            unix_ms,
        };
        storage
            .write(&[
                Write::Create(record("old-aborted", long_ago)),
                aborted("old-aborted", long_ago),
                Write::Create(record("old-unstarted", long_ago)),
                Write::Create(record("old-loaded", long_ago)),
                Write::Create(record("new-aborted", unix_ms())),
                aborted("new-aborted", unix_ms()),
                Write::Create(record("new-unstarted", unix_ms())),
            ])
            .unwrap();
        let hub = Hub::new(StorageHandle::spawn(storage).unwrap(), Arc::new(ManualClock::at(0)));
        let _loaded = hub.find("old-loaded").await.unwrap();
        let _watcher = hub.new_connection();
        assert_eq!(hub.sweep().await, 2);
        for (id, kept) in [
            ("old-aborted", false),
            ("old-unstarted", false),
            ("old-loaded", true),
            ("new-aborted", true),
            ("new-unstarted", true),
        ] {
            let stored = hub.storage().load(id.into()).await.unwrap();
            assert_eq!(stored.is_some(), kept, "{id}");
        }
    }

    #[tokio::test]
    async fn a_game_not_in_memory_is_loaded_from_storage_once() {
        let mut storage = MemoryStorage::new();
        let game = AnyGame::new("gomoku", "", &StartFrom::Start { seed: 0 }).unwrap();
        let record = GameRecord {
            id: "old".into(),
            spec: spec("gomoku", "", None),
            start: game.position(),
            invite_hash: "i".into(),
            token_hashes: ["a".into(), "b".into()],
            names: [Some("Ann".into()), Some("Bo".into())],
            accounts: [None, None],
            created_unix_ms: 0,
            rematch_of: None,
            listed: false,
            tournament: None,
        };
        let result = GameResult { winner: None, reason: EndReason::Agreement };
        let finish = Write::Finish { game: "old".into(), result, clocks: None, unix_ms: 0 };
        storage.write(&[Write::Create(record), finish]).unwrap();
        let hub = Hub::new(StorageHandle::spawn(storage).unwrap(), Arc::new(ManualClock::at(0)));
        assert_eq!(hub.restore().await.unwrap(), 0, "finished games are not resumed");
        let first = hub.find("old").await.unwrap();
        let again = hub.find("old").await.unwrap();
        assert!(first.same_game(&again));
        assert!(hub.find("missing").await.is_none());
    }

    /// Storage whose `Finish` writes always fail, counting them.
    struct NoFinish {
        inner: MemoryStorage,
        finishes: Arc<AtomicU64>,
    }

    impl Storage for NoFinish {
        fn write(&mut self, writes: &[Write]) -> Result<(), StorageError> {
            if writes.iter().any(|w| matches!(w, Write::Finish { .. })) {
                self.finishes.fetch_add(1, Ordering::SeqCst);
                return Err(StorageError::new("disk full"));
            }
            self.inner.write(writes)
        }
        fn load(&mut self, game: &str) -> Result<Option<StoredGame>, StorageError> {
            self.inner.load(game)
        }
        fn unfinished(&mut self) -> Result<Vec<StoredGame>, StorageError> {
            self.inner.unfinished()
        }
        fn sweep(&mut self, cutoff: u64, keep: &[String]) -> Result<usize, StorageError> {
            self.inner.sweep(cutoff, keep)
        }
        crate::storage::delegate_accounts!();
    }

    #[tokio::test]
    async fn a_flag_that_cannot_be_stored_is_retried_after_a_pause() {
        let mut inner = MemoryStorage::new();
        let game = AnyGame::new("gomoku", "", &StartFrom::Start { seed: 0 }).unwrap();
        let id = "flagflagflagflag";
        let record = GameRecord {
            id: id.into(),
            spec: spec("gomoku", "", Some((1, 0))),
            start: game.position(),
            invite_hash: "i".into(),
            token_hashes: ["a".into(), "b".into()],
            names: [Some("Ann".into()), Some("Bo".into())],
            accounts: [None, None],
            created_unix_ms: 0,
            rematch_of: None,
            listed: false,
            tournament: None,
        };
        let mv = |ply: u32, seat: Seat, text: &str| Write::Move {
            game: id.into(),
            mv: crate::storage::MoveRecord {
                ply,
                seat,
                text: text.into(),
                unix_ms: 0,
                remaining_ms: Some([1_000, 1_000]),
            },
        };
        inner
            .write(&[Write::Create(record), mv(0, Seat::First, "h8"), mv(1, Seat::Second, "h9")])
            .unwrap();
        let finishes = Arc::new(AtomicU64::new(0));
        let storage = NoFinish { inner, finishes: Arc::clone(&finishes) };
        let clock = Arc::new(ManualClock::at(0));
        let hub = Hub::new(StorageHandle::spawn(storage).unwrap(), clock.clone());
        assert_eq!(hub.restore().await.unwrap(), 1);
        clock.advance(5_000);
        tokio::time::sleep(Duration::from_millis(1_500)).await;
        let tries = finishes.load(Ordering::SeqCst);
        assert!((1..=2).contains(&tries), "the flag was tried {tries} times in 1.5 s");
        assert!(hub.is_loaded(id));
    }

    #[tokio::test]
    async fn a_restart_loads_only_games_whose_clock_runs_and_the_rest_on_demand() {
        let mut storage = MemoryStorage::new();
        let game = AnyGame::new("gomoku", "", &StartFrom::Start { seed: 0 }).unwrap();
        let record = |id: &str, second: Option<&str>| GameRecord {
            id: id.into(),
            spec: spec("gomoku", "", Some((60, 0))),
            start: game.position(),
            invite_hash: "i".into(),
            token_hashes: ["a".into(), "b".into()],
            names: [Some("Ann".into()), second.map(Into::into)],
            accounts: [None, None],
            created_unix_ms: 0,
            rematch_of: None,
            listed: false,
            tournament: None,
        };
        let mv = |ply: u32, seat: Seat, text: &str| Write::Move {
            game: "runningrunningru".into(),
            mv: crate::storage::MoveRecord {
                ply,
                seat,
                text: text.into(),
                unix_ms: 0,
                remaining_ms: Some([60_000, 60_000]),
            },
        };
        storage
            .write(&[
                Write::Create(record("runningrunningru", Some("Bo"))),
                mv(0, Seat::First, "h8"),
                mv(1, Seat::Second, "h9"),
                Write::Create(record("waitingwaitingwa", None)),
                Write::Create(record("notyetstartednot", Some("Bo"))),
            ])
            .unwrap();
        let hub = Hub::new(StorageHandle::spawn(storage).unwrap(), Arc::new(ManualClock::at(0)));
        assert_eq!(hub.restore().await.unwrap(), 1);
        assert!(hub.is_loaded("runningrunningru"));
        assert!(!hub.is_loaded("waitingwaitingwa"));
        assert!(!hub.is_loaded("notyetstartednot"));
        assert!(hub.find("waitingwaitingwa").await.is_some());
        assert!(hub.find("notyetstartednot").await.is_some());
    }

    #[tokio::test]
    async fn an_invitation_nobody_took_for_a_day_is_aborted_when_looked_up() {
        let mut storage = MemoryStorage::new();
        let game = AnyGame::new("gomoku", "", &StartFrom::Start { seed: 0 }).unwrap();
        let day_ago = unix_ms() - INVITE_EXPIRY_MS;
        let record = |id: &str, second: Option<&str>, created_unix_ms: u64| GameRecord {
            id: id.into(),
            spec: spec("gomoku", "", None),
            start: game.position(),
            invite_hash: "i".into(),
            token_hashes: ["a".into(), "b".into()],
            names: [Some("Ann".into()), second.map(Into::into)],
            accounts: [None, None],
            created_unix_ms,
            rematch_of: None,
            listed: false,
            tournament: None,
        };
        storage
            .write(&[
                Write::Create(record("stale", None, day_ago - 1)),
                Write::Create(record("fresh", None, day_ago + 60_000)),
                Write::Create(record("seated", Some("Bo"), 0)),
            ])
            .unwrap();
        let hub = Hub::new(StorageHandle::spawn(storage).unwrap(), Arc::new(ManualClock::at(0)));
        for id in ["stale", "fresh", "seated"] {
            assert!(hub.find(id).await.is_some(), "{id} still opens");
        }
        let result_of = |id: &'static str| {
            let storage = hub.storage().clone();
            async move { storage.load(id.into()).await.unwrap().unwrap().result }
        };
        let aborted = GameResult { winner: None, reason: EndReason::Aborted };
        assert_eq!(result_of("stale").await, Some(aborted));
        assert_eq!(result_of("fresh").await, None, "under a day old");
        assert_eq!(result_of("seated").await, None, "both seats taken: a game, not an invitation");
    }
}
