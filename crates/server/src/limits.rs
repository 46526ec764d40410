//! What one client may hold and how fast it may ask: the numbers ([`Limits`]), counters of open
//! connections per address ([`AddressCounts`]) and sliding windows of recent events
//! ([`RateWindow`]).
//!
//! A client is known by its IP address: the peer of the TCP connection, or, when that peer is a
//! reverse proxy the server was told to trust, the address the proxy puts in `X-Forwarded-For`
//! ([`client_address`]). Every refusal names its limit ([`Limit`]), for the client's error
//! message and for the refusals counted in `/metrics`.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use qi_protocol::ErrorCode;

use crate::session::Denied;

/// The limits the server enforces. [`Limits::default`] is what `qi-server` runs with unless its
/// flags say otherwise.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// How long a request head may take to arrive, from the connection's start or the end of
    /// the previous response; an idle keep-alive connection is closed after as long.
    pub head_timeout: Duration,
    /// How long a write may stay blocked (a client that stops reading a file) before the
    /// connection is closed.
    pub write_timeout: Duration,
    /// Open TCP connections in all.
    pub max_connections: usize,
    /// Open TCP connections from one address (a trusted proxy's own address is exempt: it
    /// carries many clients).
    pub max_connections_per_address: usize,
    /// Open game sockets (`/ws`) per client address, behind a proxy too.
    pub max_sockets_per_address: usize,
    /// Games created per client address in a minute (created, paired or rematched).
    pub games_per_minute: usize,
    /// Games aborted per client address in a minute.
    pub aborts_per_minute: usize,
    /// Unfinished games one client address may hold a seat in at once.
    pub unfinished_per_address: usize,
    /// Open challenges (listed games waiting for an opponent) one client address may have in
    /// the lobby at once.
    pub open_challenges_per_address: usize,
    /// Games one connection may be attached to at once, finished ones included (as player or
    /// spectator): past it, the finished game it joined longest ago is let go first.
    pub games_per_connection: usize,
    /// How long aborted and never-started games stay in storage.
    pub retention: Duration,
    /// How often the sweeper runs.
    pub sweep_every: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            head_timeout: Duration::from_secs(5),
            write_timeout: Duration::from_secs(30),
            max_connections: 10_000,
            max_connections_per_address: 128,
            max_sockets_per_address: 64,
            // Generous enough for a school or a café behind one address, far below a flood
            // (one address made 55 games a second before these limits).
            games_per_minute: 30,
            aborts_per_minute: 15,
            unfinished_per_address: 64,
            // A handful, as on lichess: enough to offer a few games at once, while the lobby
            // shows 40 rows (one address held 64 open challenges, 30 of those rows).
            open_challenges_per_address: 5,
            games_per_connection: 32,
            retention: Duration::from_secs(7 * 24 * 60 * 60),
            sweep_every: Duration::from_secs(10 * 60),
        }
    }
}

/// A limit a client ran into.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Limit {
    /// [`Limits::max_connections`].
    Connections,
    /// [`Limits::max_connections_per_address`].
    ConnectionsPerAddress,
    /// [`Limits::max_sockets_per_address`].
    SocketsPerAddress,
    /// [`Limits::games_per_minute`].
    GamesPerMinute,
    /// [`Limits::aborts_per_minute`].
    AbortsPerMinute,
    /// [`Limits::unfinished_per_address`].
    UnfinishedGames,
    /// [`Limits::open_challenges_per_address`].
    OpenChallenges,
    /// [`Limits::games_per_connection`] with every game still going.
    GamesPerConnection,
    /// The message rate of one socket.
    MessageRate,
    /// A request head that did not arrive in time.
    HeadTimeout,
    /// A websocket from an origin that is not allowed.
    Origin,
}

impl Limit {
    /// Every limit, for the metrics.
    pub const ALL: [Limit; 11] = [
        Limit::Connections,
        Limit::ConnectionsPerAddress,
        Limit::SocketsPerAddress,
        Limit::GamesPerMinute,
        Limit::AbortsPerMinute,
        Limit::UnfinishedGames,
        Limit::OpenChallenges,
        Limit::GamesPerConnection,
        Limit::MessageRate,
        Limit::HeadTimeout,
        Limit::Origin,
    ];

    /// The limit's name in metrics labels and logs.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Limit::Connections => "connections",
            Limit::ConnectionsPerAddress => "connections_per_address",
            Limit::SocketsPerAddress => "sockets_per_address",
            Limit::GamesPerMinute => "games_per_minute",
            Limit::AbortsPerMinute => "aborts_per_minute",
            Limit::UnfinishedGames => "unfinished_games",
            Limit::OpenChallenges => "open_challenges",
            Limit::GamesPerConnection => "games_per_connection",
            Limit::MessageRate => "message_rate",
            Limit::HeadTimeout => "head_timeout",
            Limit::Origin => "origin",
        }
    }
}

/// Open connections counted per address, with a cap per address and in all. A [`Slot`] is held
/// for each open connection and gives its place back when dropped.
#[derive(Debug)]
pub struct AddressCounts {
    inner: Mutex<CountsInner>,
    per_address: usize,
    total: usize,
}

#[derive(Debug, Default)]
struct CountsInner {
    by_address: HashMap<IpAddr, usize>,
    total: usize,
}

/// One open connection's place in [`AddressCounts`]; dropping it frees the place.
#[derive(Debug)]
pub struct Slot {
    counts: Arc<AddressCounts>,
    /// `None`: counted in the total only.
    address: Option<IpAddr>,
}

impl AddressCounts {
    /// Counters allowing `per_address` connections from one address and `total` in all.
    #[must_use]
    pub fn new(per_address: usize, total: usize) -> Arc<AddressCounts> {
        Arc::new(AddressCounts { inner: Mutex::default(), per_address, total })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, CountsInner> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Takes a place for a connection from `address` (`None`: exempt from the per-address cap,
    /// as a trusted proxy is).
    ///
    /// # Errors
    /// The [`Limit`] that is full.
    pub fn admit(self: &Arc<Self>, address: Option<IpAddr>) -> Result<Slot, Limit> {
        let mut inner = self.lock();
        if inner.total >= self.total {
            return Err(Limit::Connections);
        }
        if let Some(address) = address {
            let count = inner.by_address.entry(address).or_insert(0);
            if *count >= self.per_address {
                return Err(Limit::ConnectionsPerAddress);
            }
            *count += 1;
        }
        inner.total += 1;
        Ok(Slot { counts: Arc::clone(self), address })
    }

    /// Connections open now, in all.
    #[must_use]
    pub fn total(&self) -> usize {
        self.lock().total
    }

    /// Connections open now from `address`.
    #[must_use]
    pub fn from_address(&self, address: IpAddr) -> usize {
        self.lock().by_address.get(&address).copied().unwrap_or(0)
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut inner = self.counts.lock();
        inner.total = inner.total.saturating_sub(1);
        if let Some(address) = self.address
            && let Some(count) = inner.by_address.get_mut(&address)
        {
            *count -= 1;
            if *count == 0 {
                inner.by_address.remove(&address);
            }
        }
    }
}

/// At most `max` events in any `per`: the times of the recent ones.
#[derive(Clone, Debug)]
pub struct RateWindow {
    times: VecDeque<Instant>,
    per: Duration,
    max: usize,
}

impl RateWindow {
    /// A window of `max` events per `per`.
    #[must_use]
    pub fn new(max: usize, per: Duration) -> RateWindow {
        RateWindow { times: VecDeque::new(), per, max }
    }

    fn forget_old(&mut self, now: Instant) {
        while self.times.front().is_some_and(|&at| now.saturating_duration_since(at) >= self.per) {
            self.times.pop_front();
        }
    }

    /// Counts an event at `now` if there is room.
    ///
    /// # Errors
    /// How long until there is room again.
    pub fn take(&mut self, now: Instant) -> Result<(), Duration> {
        self.forget_old(now);
        if self.times.len() >= self.max {
            let oldest = self.times.front().copied().unwrap_or(now);
            return Err(self.per.saturating_sub(now.saturating_duration_since(oldest)));
        }
        self.times.push_back(now);
        Ok(())
    }

    /// Whether no event is recent at `now` (the window can be forgotten).
    pub fn is_idle(&mut self, now: Instant) -> bool {
        self.forget_old(now);
        self.times.is_empty()
    }

    /// Whether an event at `now` would fit, without counting it.
    ///
    /// # Errors
    /// How long until there is room again.
    pub fn check(&mut self, now: Instant) -> Result<(), Duration> {
        self.forget_old(now);
        let mut copy = self.clone();
        copy.take(now)
    }

    /// Whether the window holds nothing at `now` (and can be dropped).
    #[must_use]
    pub fn is_empty_at(&mut self, now: Instant) -> bool {
        self.forget_old(now);
        self.times.is_empty()
    }
}

/// The address limits are kept by: an IPv4 address as it is (an IPv4-mapped IPv6 address as
/// the IPv4 one), an IPv6 address by its /64 network, since one home or host is commonly given
/// a whole /64 and could otherwise take a fresh address for every connection.
#[must_use]
pub fn address_key(address: IpAddr) -> IpAddr {
    match address.to_canonical() {
        IpAddr::V6(v6) => {
            let bits = u128::from(v6) & !((1u128 << 64) - 1);
            IpAddr::V6(std::net::Ipv6Addr::from(bits))
        }
        v4 => v4,
    }
}

/// The client's address (as [`address_key`] keeps it): `peer`, or, when `peer` is one of `trusted` proxies, the last address
/// in `X-Forwarded-For` that is not itself a trusted proxy (each proxy appends the address it
/// heard from, so the entries to the left of the last untrusted one are the client's own
/// claims and are not believed). A header that does not read gives `peer`.
#[must_use]
pub fn client_address(peer: IpAddr, forwarded_for: &[&str], trusted: &[IpAddr]) -> IpAddr {
    address_key(forwarded_client(peer.to_canonical(), forwarded_for, trusted))
}

fn forwarded_client(peer: IpAddr, forwarded_for: &[&str], trusted: &[IpAddr]) -> IpAddr {
    if !trusted.contains(&peer) {
        return peer;
    }
    let entries = forwarded_for.iter().flat_map(|value| value.split(',')).map(str::trim);
    let mut client = peer;
    for entry in entries.collect::<Vec<_>>().into_iter().rev() {
        let Some(address) = parse_forwarded_address(entry) else { return client };
        client = address.to_canonical();
        if !trusted.contains(&address) {
            break;
        }
    }
    client
}

/// An address as proxies write it in `X-Forwarded-For`: `1.2.3.4`, `2001:db8::1`, `[2001:db8::1]`,
/// or with a port (`1.2.3.4:5678`, `[2001:db8::1]:5678`).
fn parse_forwarded_address(entry: &str) -> Option<IpAddr> {
    if let Ok(address) = entry.parse::<IpAddr>() {
        return Some(address);
    }
    if let Ok(socket) = entry.parse::<std::net::SocketAddr>() {
        return Some(socket.ip());
    }
    entry.strip_prefix('[')?.strip_suffix(']')?.parse().ok()
}

/// The refusal past [`Limits::unfinished_per_address`].
pub(crate) fn too_many_unfinished(limits: &Limits) -> Denied {
    Denied::new(
        ErrorCode::RateLimited,
        format!(
            "too many unfinished games from one address: at most {}; finish or abort one first",
            limits.unfinished_per_address
        ),
    )
}

/// The refusal past [`Limits::open_challenges_per_address`].
pub(crate) fn too_many_challenges(limits: &Limits) -> Denied {
    Denied::new(
        ErrorCode::RateLimited,
        format!(
            "too many open challenges from one address: at most {}; cancel one or wait for it \
             to be accepted",
            limits.open_challenges_per_address
        ),
    )
}

/// The refusal past [`Limits::games_per_minute`], with the wait.
pub(crate) fn too_many_new_games(limits: &Limits, wait: Duration) -> Denied {
    Denied::new(
        ErrorCode::RateLimited,
        format!(
            "too many new games from one address: at most {} a minute; try again in {} s",
            limits.games_per_minute,
            wait.as_secs().max(1)
        ),
    )
}

/// The refusal past [`Limits::aborts_per_minute`], with the wait.
pub(crate) fn too_many_aborts(limits: &Limits, wait: Duration) -> Denied {
    Denied::new(
        ErrorCode::RateLimited,
        format!(
            "too many aborted games from one address: at most {} a minute; try again in {} s",
            limits.aborts_per_minute,
            wait.as_secs().max(1)
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn counts_cap_each_address_and_the_total_and_free_on_drop() {
        let counts = AddressCounts::new(2, 3);
        let a = counts.admit(Some(ip("10.0.0.1"))).unwrap();
        let _b = counts.admit(Some(ip("10.0.0.1"))).unwrap();
        assert_eq!(counts.admit(Some(ip("10.0.0.1"))).unwrap_err(), Limit::ConnectionsPerAddress);
        let _c = counts.admit(None).unwrap();
        assert_eq!(counts.admit(Some(ip("10.0.0.2"))).unwrap_err(), Limit::Connections);
        drop(a);
        assert_eq!(counts.from_address(ip("10.0.0.1")), 1);
        let _d = counts.admit(Some(ip("10.0.0.1"))).unwrap();
        assert_eq!(counts.total(), 3);
    }

    #[test]
    fn a_window_refuses_past_its_max_and_says_when_there_is_room() {
        let start = Instant::now();
        let mut window = RateWindow::new(2, Duration::from_secs(60));
        window.take(start).unwrap();
        window.take(start + Duration::from_secs(10)).unwrap();
        assert_eq!(window.check(start + Duration::from_secs(20)), Err(Duration::from_secs(40)));
        assert_eq!(window.take(start + Duration::from_secs(20)), Err(Duration::from_secs(40)));
        window.take(start + Duration::from_secs(60)).unwrap();
        assert!(!window.is_empty_at(start + Duration::from_secs(61)));
        assert!(window.is_empty_at(start + Duration::from_secs(200)));
    }

    #[test]
    fn ipv6_clients_are_kept_by_their_64_network() {
        assert_eq!(address_key(ip("2001:db8:1:2:aaaa::1")), ip("2001:db8:1:2::"));
        assert_eq!(address_key(ip("2001:db8:1:2:bbbb::7")), ip("2001:db8:1:2::"));
        assert_ne!(address_key(ip("2001:db8:1:3::1")), ip("2001:db8:1:2::"));
        assert_eq!(address_key(ip("::ffff:1.2.3.4")), ip("1.2.3.4"));
        assert_eq!(address_key(ip("1.2.3.4")), ip("1.2.3.4"));
    }

    #[test]
    fn forwarded_for_is_believed_only_from_a_trusted_proxy() {
        let proxy = ip("10.0.0.9");
        let trusted = [proxy];
        assert_eq!(client_address(ip("1.2.3.4"), &["9.9.9.9"], &trusted), ip("1.2.3.4"));
        assert_eq!(client_address(proxy, &["9.9.9.9"], &trusted), ip("9.9.9.9"));
        // The client's own claim (left) is not believed; the proxy's entry (right) is.
        assert_eq!(client_address(proxy, &["6.6.6.6, 9.9.9.9"], &trusted), ip("9.9.9.9"));
        assert_eq!(client_address(proxy, &["6.6.6.6", "9.9.9.9:1234"], &trusted), ip("9.9.9.9"));
        assert_eq!(client_address(proxy, &["[2001:db8::1]:80"], &trusted), ip("2001:db8::"));
        // A proxy's IPv4 address mapped into IPv6 (a server listening on `[::]`) is the same.
        assert_eq!(client_address(ip("::ffff:10.0.0.9"), &["9.9.9.9"], &trusted), ip("9.9.9.9"));
        // Two proxies in a row: the first untrusted address from the right.
        let two = [proxy, ip("10.0.0.8")];
        assert_eq!(client_address(proxy, &["9.9.9.9, 10.0.0.8"], &two), ip("9.9.9.9"));
        // Nothing readable: the proxy itself.
        assert_eq!(client_address(proxy, &[], &trusted), proxy);
        assert_eq!(client_address(proxy, &["garbage"], &trusted), proxy);
    }
}
