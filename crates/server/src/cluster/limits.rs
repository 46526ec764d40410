//! The limits per client address, shared by every node through Redis: the same limits as one
//! node's (`crate::limits`), with the same words when a request is refused.
//!
//! - New games and aborts a minute: a sorted set per address and kind (`qi:rate:{kind}:{addr}`)
//!   of the times of the last minute's, checked and added to by one script.
//! - Unfinished games held: a set per address (`qi:held:{addr}`) of game ids, and per game the
//!   addresses holding it (`qi:holders:{game}`), so the game's node can let them all go when the
//!   game ends or leaves memory, whichever node counted them.
//! - Open challenges: a set per address (`qi:chal:{addr}`) of the listed games it made that
//!   nobody has taken, and per game its challenger (`qi:challenger:{game}`), so that the
//!   accepting node, or the game's node when it ends or leaves memory, takes it out.
//!
//! When Redis cannot be reached, requests are let through (logged): the limits are there
//! against abuse, and refusing every new game while Redis restarts would hurt everyone else.

use std::net::IpAddr;
use std::sync::LazyLock;

use redis::Script;

use super::Cluster;
use crate::limits::{Limit, Limits};
use crate::limits::{too_many_aborts, too_many_new_games, too_many_unfinished};
use crate::session::Denied;

/// Checks a rate (and the games held), and counts one more if asked and allowed.
/// KEYS: the rate's set, the address's held set. ARGV: (unused), window (ms), most a window,
/// most held, 1 to count, a unique member. The time is Redis's own, so that the nodes' clocks
/// need not agree. Returns -1 (allowed), -2 (too many held), or the
/// milliseconds to wait.
static RATE: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('SCARD', KEYS[2]) >= tonumber(ARGV[4]) then return -2 end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')[2]
  return math.max(1, tonumber(oldest) + window - now)
end
if ARGV[5] == '1' then
  redis.call('ZADD', KEYS[1], now, ARGV[6])
  redis.call('PEXPIRE', KEYS[1], window)
end
return -1",
    )
});

/// The Lua that takes the game ARGV[1] out of its challenger's open challenges, shared by
/// [`RELEASE`] and [`CHALLENGE_GONE`] (a macro, so `concat!` makes each script one literal).
macro_rules! challenge_gone_lua {
    () => {
        r"
local challenger = redis.call('GET', 'qi:challenger:' .. ARGV[1])
if challenger then
  redis.call('SREM', 'qi:chal:' .. challenger, ARGV[1])
  redis.call('DEL', 'qi:challenger:' .. ARGV[1])
end
"
    };
}

/// Lets a game go: takes it out of every holder's set, and out of its challenger's open
/// challenges. KEYS: the game's holders. ARGV: the game.
static RELEASE: LazyLock<Script> = LazyLock::new(|| {
    Script::new(concat!(
        r"
for _, address in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  redis.call('SREM', 'qi:held:' .. address, ARGV[1])
end
redis.call('DEL', KEYS[1])
",
        challenge_gone_lua!(),
        "return 1",
    ))
});

/// A game is no longer an open challenge: out of its challenger's set. ARGV: the game.
static CHALLENGE_GONE: LazyLock<Script> =
    LazyLock::new(|| Script::new(concat!(challenge_gone_lua!(), "return 1")));

/// Counts one more game socket of an address on this node if all live nodes together have
/// fewer than the most. KEYS: the set of live nodes. ARGV: the address, this node, the most.
/// Returns 1 (counted) or 0 (refused).
static SOCKET: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
local total = 0
for _, node in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  total = total + tonumber(redis.call('GET', 'qi:sock:' .. node .. ':' .. ARGV[1]) or '0')
end
if total >= tonumber(ARGV[3]) then return 0 end
local key = 'qi:sock:' .. ARGV[2] .. ':' .. ARGV[1]
redis.call('INCR', key)
-- A node killed with its sockets open leaves its counts behind: they go within a day.
redis.call('PEXPIRE', key, 86400000)
return 1",
    )
});

/// The Redis set of the live nodes' numbers (kept by their heartbeats): a dead node's socket
/// counts stop counting.
pub(crate) const LIVE_NODES: &str = "qi:live";

/// One game socket counted across nodes; dropping it lets its place go.
#[derive(Debug)]
pub struct SharedSocket {
    cluster: std::sync::Arc<Cluster>,
    address: IpAddr,
}

impl Drop for SharedSocket {
    fn drop(&mut self) {
        let mut redis = self.cluster.redis.clone();
        let key = format!("qi:sock:{}:{}", self.cluster.num, self.address);
        tokio::spawn(async move {
            let left: Result<i64, _> = redis::cmd("DECR").arg(&key).query_async(&mut redis).await;
            if let Ok(left) = left
                && left <= 0
            {
                let _: Result<i64, _> = redis::cmd("DEL").arg(&key).query_async(&mut redis).await;
            }
        });
    }
}

/// Whether a client at `address` may open one more game socket on this node, counting those it
/// has open on every live node ([`Limits::max_sockets_per_address`]); if so, its place. `Ok(None)`
/// when Redis cannot answer (let through, counted on this node alone).
///
/// # Errors
/// `Err(())` when the address has as many as it may.
pub(crate) async fn admit_socket(
    cluster: &std::sync::Arc<Cluster>,
    address: IpAddr,
    max: usize,
) -> Result<Option<SharedSocket>, ()> {
    let answer: Result<i64, _> = SOCKET
        .key(LIVE_NODES)
        .arg(address.to_string())
        .arg(cluster.num)
        .arg(max)
        .invoke_async(&mut cluster.redis.clone())
        .await;
    match answer {
        Ok(1) => Ok(Some(SharedSocket { cluster: std::sync::Arc::clone(cluster), address })),
        Ok(_) => Err(()),
        Err(e) => {
            tracing::warn!(error = %e, "shared limits unreachable");
            Ok(None)
        }
    }
}

/// A rate window shared by every node (sign-in attempts): under `key`, at most `max` events in
/// any `window`, in Redis's own time. Counts one more when `take` and there is room. `None`
/// when Redis cannot answer (the caller falls back on its own count); else `Err` with how long
/// to wait when full.
pub(crate) async fn shared_rate(
    cluster: &Cluster,
    key: &str,
    window: std::time::Duration,
    max: usize,
    take: bool,
) -> Option<Result<(), std::time::Duration>> {
    let member = format!("{}-{}", cluster.num, crate::tokens::random_u64().unwrap_or(0));
    let window_ms = u64::try_from(window.as_millis()).unwrap_or(u64::MAX);
    let answer: Result<i64, _> = RATE
        .key(format!("qi:rate:{key}"))
        // No held set: an empty key counts nothing.
        .key("qi:held:none")
        .arg(0)
        .arg(window_ms)
        .arg(max)
        .arg(usize::MAX >> 8)
        .arg(if take { "1" } else { "0" })
        .arg(member)
        .invoke_async(&mut cluster.redis.clone())
        .await;
    match answer {
        Ok(-1) => Some(Ok(())),
        Ok(wait) => Some(Err(std::time::Duration::from_millis(u64::try_from(wait).unwrap_or(0)))),
        Err(e) => {
            tracing::warn!(error = %e, "shared limits unreachable");
            None
        }
    }
}

/// The limits in Redis, as one node sees them.
pub(crate) struct SharedLimits<'a> {
    pub(crate) cluster: &'a Cluster,
}

impl SharedLimits<'_> {
    fn redis(&self) -> redis::aio::ConnectionManager {
        self.cluster.redis.clone()
    }

    /// Runs [`RATE`]; `None` when Redis could not answer (let through).
    async fn rate(
        &self,
        kind: &str,
        address: IpAddr,
        max: usize,
        held_max: usize,
        take: bool,
    ) -> Option<i64> {
        let member = format!("{}-{}", self.cluster.num, crate::tokens::random_u64().unwrap_or(0));
        let answer: Result<i64, _> = RATE
            .key(format!("qi:rate:{kind}:{address}"))
            .key(format!("qi:held:{address}"))
            .arg(0)
            .arg(60_000)
            .arg(max)
            .arg(held_max)
            .arg(if take { "1" } else { "0" })
            .arg(member)
            .invoke_async(&mut self.redis())
            .await;
        answer.inspect_err(|e| tracing::warn!(error = %e, "shared limits unreachable")).ok()
    }

    /// [`crate::hub::Hub::admit_new_game`] across nodes, for these addresses.
    pub(crate) async fn admit_new_game(
        &self,
        addresses: &[IpAddr],
        take: bool,
        limits: &Limits,
        metrics: &crate::metrics::Metrics,
    ) -> Result<(), Denied> {
        let mut addresses = addresses.to_vec();
        addresses.sort_unstable();
        addresses.dedup();
        // Checked for all first, then counted: a refusal charges nobody.
        let passes: &[bool] = if take { &[false, true] } else { &[false] };
        for &counting in passes {
            for &address in &addresses {
                let max = limits.games_per_minute;
                let held = limits.unfinished_per_address;
                let answer = self.rate("games", address, max, held, counting).await;
                if counting {
                    continue;
                }
                match answer {
                    Some(-2) => {
                        metrics.refused(Limit::UnfinishedGames);
                        return Err(too_many_unfinished(limits));
                    }
                    Some(wait) if wait >= 0 => {
                        metrics.refused(Limit::GamesPerMinute);
                        let wait =
                            std::time::Duration::from_millis(u64::try_from(wait).unwrap_or(0));
                        return Err(too_many_new_games(limits, wait));
                    }
                    _ => {}
                }
            }
        }
        Ok(())
    }

    /// [`crate::hub::Hub::admit_abort`] across nodes (counted if allowed).
    pub(crate) async fn admit_abort(
        &self,
        address: IpAddr,
        limits: &Limits,
        metrics: &crate::metrics::Metrics,
    ) -> Result<(), Denied> {
        match self.rate("aborts", address, limits.aborts_per_minute, usize::MAX >> 8, true).await {
            Some(wait) if wait >= 0 => {
                metrics.refused(Limit::AbortsPerMinute);
                let wait = std::time::Duration::from_millis(u64::try_from(wait).unwrap_or(0));
                Err(too_many_aborts(limits, wait))
            }
            _ => Ok(()),
        }
    }

    /// [`crate::hub::Hub::admit_seat`] across nodes.
    pub(crate) async fn admit_seat(
        &self,
        address: IpAddr,
        limits: &Limits,
        metrics: &crate::metrics::Metrics,
    ) -> Result<(), Denied> {
        // No rate is counted (and none can be reached): only the games held are checked.
        match self
            .rate("seats", address, usize::MAX >> 8, limits.unfinished_per_address, false)
            .await
        {
            Some(-2) => {
                metrics.refused(Limit::UnfinishedGames);
                Err(too_many_unfinished(limits))
            }
            _ => Ok(()),
        }
    }

    /// The clients at `addresses` hold a seat in the unfinished game `game`.
    pub(crate) async fn note_seated(&self, addresses: &[IpAddr], game: &str) {
        let mut pipe = redis::pipe();
        // A game whose node was killed, and nobody asks for again, is let go within a day.
        const DAY_SECS: i64 = 86_400;
        for address in addresses {
            pipe.sadd(format!("qi:held:{address}"), game).ignore();
            pipe.expire(format!("qi:held:{address}"), DAY_SECS).ignore();
            pipe.sadd(format!("qi:holders:{game}"), address.to_string()).ignore();
        }
        pipe.expire(format!("qi:holders:{game}"), DAY_SECS).ignore();
        let done: Result<(), _> = pipe.query_async(&mut self.redis()).await;
        if let Err(e) = done {
            tracing::warn!(error = %e, game, "shared limits unreachable");
        }
    }

    /// Game `game` ended or left memory: nobody holds it any more.
    pub(crate) async fn release(&self, game: &str) {
        let done: Result<i64, _> = RELEASE
            .key(format!("qi:holders:{game}"))
            .arg(game)
            .invoke_async(&mut self.redis())
            .await;
        if let Err(e) = done {
            tracing::warn!(error = %e, game, "shared limits unreachable");
        }
    }

    /// The client at `address` made the open challenge `game`.
    pub(crate) async fn note_challenge(&self, address: IpAddr, game: &str) {
        // A challenge whose node was killed, and nobody asks for again, is let go within a day.
        const DAY_SECS: u64 = 86_400;
        let mut pipe = redis::pipe();
        pipe.sadd(format!("qi:chal:{address}"), game).ignore();
        pipe.expire(format!("qi:chal:{address}"), DAY_SECS as i64).ignore();
        pipe.set_ex(format!("qi:challenger:{game}"), address.to_string(), DAY_SECS).ignore();
        let done: Result<(), _> = pipe.query_async(&mut self.redis()).await;
        if let Err(e) = done {
            tracing::warn!(error = %e, game, "shared limits unreachable");
        }
    }

    /// The game `game` is no longer an open challenge (it was taken).
    pub(crate) async fn challenge_gone(&self, game: &str) {
        let done: Result<i64, _> = CHALLENGE_GONE.arg(game).invoke_async(&mut self.redis()).await;
        if let Err(e) = done {
            tracing::warn!(error = %e, game, "shared limits unreachable");
        }
    }

    /// How many open challenges the client at `address` has, on every node (none counted when
    /// Redis does not answer: let through).
    pub(crate) async fn challenges_of(&self, address: IpAddr) -> usize {
        let mut redis = self.redis();
        redis::cmd("SCARD")
            .arg(format!("qi:chal:{address}"))
            .query_async(&mut redis)
            .await
            .unwrap_or(0)
    }

    /// How many unfinished games the client at `address` holds, on every node.
    pub(crate) async fn held_by(&self, address: IpAddr) -> usize {
        let mut redis = self.redis();
        redis::cmd("SCARD")
            .arg(format!("qi:held:{address}"))
            .query_async(&mut redis)
            .await
            .unwrap_or(0)
    }
}
