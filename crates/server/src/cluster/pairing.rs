//! Quick pairing across nodes: one Redis list per kind of game (`qi:seek:{key}`, the key of
//! [`check_spec`](crate::session::check_spec)), popped or pushed by one script, so two nodes can never
//! hand out the same seeker. The node that pops a partner asks the partner's node whether that
//! seeker still waits ([`Packet::TakeSeeker`]; a cancelled seek, a closed socket or a dead node's
//! stale entry is passed over), checks both addresses' limits, then makes the game (and runs
//! it); the partner hears of it with [`Packet::Paired`] and comes in as a remote player.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::LazyLock;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use qi_protocol::{ErrorCode, GameSpec, Seat, ServerMessage};
use redis::Script;
use serde::{Deserialize, Serialize};

use super::wire::Reply;
use super::{Cluster, NodeGames, Packet};
use crate::actor::AttachReply;
use crate::outbox::Outbox;
use crate::session::{Attach, ConnId, Denied};

/// Pops the first seeker of the queue, or (when it is empty) queues this one.
/// KEYS: the queue. ARGV: this seeker's entry. Returns the partner's entry, or nil.
static POP_OR_PUSH: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
local partner = redis.call('LPOP', KEYS[1])
if partner then return partner end
redis.call('RPUSH', KEYS[1], ARGV[1])
return false",
    )
});

/// For a rated queue: takes the seeker whose rating is nearest this one's among those both
/// windows accept (as [`crate::rating::partner`]: the window starts at
/// [`WINDOW_START`](crate::rating::WINDOW_START) and widens by
/// [`WINDOW_GROWTH`](crate::rating::WINDOW_GROWTH) every
/// [`WINDOW_STEP_MS`](crate::rating::WINDOW_STEP_MS) up to
/// [`WINDOW_MAX`](crate::rating::WINDOW_MAX), at which anyone fits), never the same account;
/// or queues this one when none fits (and ARGV[6] is 1). It looks at the first 200 entries
/// (the oldest, but for those seeking again as their window widened, which go to the back);
/// ties go to the first found. The waits are measured on each node's wall clock.
/// KEYS: the queue. ARGV: this entry, now (ms), its rating, since (ms), its account, whether
/// to queue it, then the window's start, growth, step and most.
static POP_RATED: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
local now, rating, since = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local start, growth, step, most =
    tonumber(ARGV[7]), tonumber(ARGV[8]), tonumber(ARGV[9]), tonumber(ARGV[10])
local function window(waited)
  if waited < 0 then waited = 0 end
  local w = start + math.floor(waited / step) * growth
  if w > most then w = most end
  return w
end
local mine = window(now - since)
local best, best_gap = nil, nil
for _, text in ipairs(redis.call('LRANGE', KEYS[1], 0, 199)) do
  local ok, other = pcall(cjson.decode, text)
  if ok and text ~= ARGV[1] and type(other) == 'table' and other.account ~= ARGV[5]
     and tonumber(other.rating) and tonumber(other.since_ms) then
    local gap = math.abs(tonumber(other.rating) - rating)
    local theirs = window(now - tonumber(other.since_ms))
    if (mine >= most or gap <= mine) and (theirs >= most or gap <= theirs)
       and (best == nil or gap < best_gap) then
      best, best_gap = text, gap
    end
  end
end
if best then
  redis.call('LREM', KEYS[1], 1, best)
  return best
end
if ARGV[6] == '1' then redis.call('RPUSH', KEYS[1], ARGV[1]) end
return false",
    )
});

/// A seeker as queued in Redis.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
struct Entry {
    node: u32,
    conn: ConnId,
    player: crate::session::Player,
    /// The account key (rated queues only; the script reads it).
    #[serde(default)]
    account: Option<String>,
    /// The rating in the game sought (rated queues only).
    #[serde(default)]
    rating: u32,
    /// When it began to wait (milliseconds since the Unix epoch; rated queues only).
    #[serde(default)]
    since_ms: u64,
    address: IpAddr,
    /// Tells two seeks of one socket apart.
    nonce: u64,
}

/// A seeker of this node.
#[derive(Debug)]
struct Local {
    queue: String,
    entry: String,
    outbox: Outbox,
    /// What it seeks, who it is and since when: a rated seeker seeks again as its window
    /// widens ([`Pairing::retry_rated`]).
    spec: GameSpec,
    player: crate::session::Player,
    since_ms: u64,
}

#[derive(Debug, Default)]
struct Seekers {
    /// Waiting in the queue.
    waiting: HashMap<ConnId, Local>,
    /// Taken by another node's pairing, waiting for its game ([`Packet::Paired`]) or its
    /// refusal ([`Packet::SeekRefused`]).
    taken: HashMap<ConnId, Local>,
}

/// When a seeker began to wait, and whether it was told it waits (a seek again as its window
/// widens is not news to it).
#[derive(Clone, Copy, Debug)]
struct Again {
    since_ms: u64,
    told: bool,
}

/// This node's seekers.
#[derive(Debug, Default)]
pub(crate) struct Pairing {
    seekers: Mutex<Seekers>,
}

fn queue_of(key: &str) -> String {
    format!("qi:seek:{key}")
}

fn unreachable(e: &redis::RedisError) -> Denied {
    tracing::warn!(error = %e, "the pairing queue is unreachable");
    Denied::new(
        ErrorCode::Unexpected,
        "quick pairing is not available right now; try again in a moment",
    )
}

impl Pairing {
    fn lock(&self) -> MutexGuard<'_, Seekers> {
        self.seekers.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Takes `conn` out of the queue (a new seek, a cancel, a closed socket).
    pub(crate) async fn leave(&self, cluster: &Cluster, conn: ConnId) {
        let local = {
            let mut seekers = self.lock();
            seekers.taken.remove(&conn);
            seekers.waiting.remove(&conn)
        };
        let Some(local) = local else { return };
        let mut redis = cluster.redis.clone();
        let removed: Result<i64, _> = redis::cmd("LREM")
            .arg(&local.queue)
            .arg(0)
            .arg(&local.entry)
            .query_async(&mut redis)
            .await;
        if let Err(e) = removed {
            tracing::warn!(error = %e, "leaving the pairing queue failed");
        }
    }

    /// Redis went away with the queue: every seeker here is told to seek again.
    pub(crate) fn interrupted(&self) {
        let seekers = std::mem::take(&mut *self.lock());
        let detail = "quick pairing was interrupted; seek again".to_owned();
        for outbox in
            seekers.waiting.into_values().chain(seekers.taken.into_values()).map(|l| l.outbox)
        {
            outbox.send(&ServerMessage::Error {
                code: ErrorCode::Unexpected,
                detail: detail.clone(),
            });
        }
    }

    /// [`Pairing::take`] for another node's pairing: if that node's game never comes (its
    /// answer came too late for it, or it died), the seeker goes back to the head of the queue.
    pub(crate) fn take_for(&self, cluster: &Arc<Cluster>, conn: ConnId, entry: &str) -> bool {
        if !self.take(conn, entry) {
            return false;
        }
        let cluster = Arc::clone(cluster);
        tokio::spawn(async move {
            tokio::time::sleep(2 * super::ANSWER_WITHIN).await;
            let stranded = cluster.pairing.lock().taken.remove(&conn);
            let Some(local) = stranded else { return };
            if local.outbox.is_closed() {
                return;
            }
            let (queue, entry) = (local.queue.clone(), local.entry.clone());
            cluster.pairing.lock().waiting.insert(conn, local);
            let mut redis = cluster.redis.clone();
            let _: Result<i64, _> =
                redis::cmd("LPUSH").arg(&queue).arg(&entry).query_async(&mut redis).await;
        });
        true
    }

    /// Whether this node's seeker `conn` still waits with `entry`; if so it is taken out of the
    /// queue for a game (its outbox kept for what comes next).
    pub(crate) fn take(&self, conn: ConnId, entry: &str) -> bool {
        let mut seekers = self.lock();
        match seekers.waiting.remove(&conn) {
            Some(local) if local.entry == entry && !local.outbox.is_closed() => {
                seekers.taken.insert(conn, local);
                true
            }
            Some(other) => {
                seekers.waiting.insert(conn, other);
                false
            }
            None => false,
        }
    }

    /// A seeker of this node taken for a game that could not be made: it hears why.
    pub(crate) fn refused(&self, conn: ConnId, code: ErrorCode, detail: String) {
        if let Some(local) = self.lock().taken.remove(&conn) {
            local.outbox.send(&ServerMessage::Error { code, detail });
        }
    }

    /// Whether `partner` (popped from the queue) still waits, asking its node if it is
    /// another; if so it is taken.
    async fn take_partner(&self, cluster: &Cluster, partner: &Entry, popped: &str) -> bool {
        if cluster.lock().dead.contains(&partner.node) {
            return false;
        }
        if partner.node == cluster.num {
            return self.take(partner.conn, popped);
        }
        let (from, conn, entry) = (cluster.num, partner.conn, popped.to_owned());
        let answer =
            cluster.ask(partner.node, |req| Packet::TakeSeeker { req, from, conn, entry }).await;
        answer == Reply::Done
    }

    /// Tells the taken `partner` that no game was made for it.
    async fn refuse_partner(&self, cluster: &Cluster, partner: &Entry, denied: &Denied) {
        if partner.node == cluster.num {
            self.refused(partner.conn, denied.code, denied.detail.clone());
        } else {
            let packet = Packet::SeekRefused {
                conn: partner.conn,
                code: denied.code,
                detail: denied.detail.clone(),
            };
            let _ = cluster.publish(partner.node, &packet).await;
        }
    }

    /// Pairs `conn` with the first seeker of the same kind on any node, or queues it.
    pub(crate) async fn seek(
        &self,
        cluster: &Arc<Cluster>,
        hub: &Arc<dyn NodeGames>,
        spec: GameSpec,
        player: crate::session::Player,
        conn: ConnId,
        outbox: Outbox,
    ) -> Result<(), Denied> {
        self.leave(cluster, conn).await;
        let again = Again { since_ms: crate::storage::unix_ms(), told: false };
        self.seek_since(cluster, hub, spec, player, conn, outbox, again).await
    }

    /// Seeks again every rated seeker of this node still waiting, with the window it has
    /// now (a pairing found leaves both out of the queue; else each is queued again as it was).
    pub(crate) async fn retry_rated(&self, cluster: &Arc<Cluster>, hub: &Arc<dyn NodeGames>) {
        let rated: Vec<ConnId> = self
            .lock()
            .waiting
            .iter()
            .filter(|(_, local)| local.spec.rated && !local.outbox.is_closed())
            .map(|(conn, _)| *conn)
            .collect();
        for conn in rated {
            // Taken out under the lock: another node's pairing that pops its entry meanwhile
            // finds it gone and passes over it; one that took it already left nothing here.
            let Some(local) = self.lock().waiting.remove(&conn) else { continue };
            let mut redis = cluster.redis.clone();
            let removed: Result<i64, _> = redis::cmd("LREM")
                .arg(&local.queue)
                .arg(0)
                .arg(&local.entry)
                .query_async(&mut redis)
                .await;
            if let Err(e) = removed {
                tracing::warn!(error = %e, "seeking again: leaving the pairing queue failed");
            }
            let Local { outbox, spec, player, since_ms, .. } = local;
            let answer = outbox.clone();
            let again = Again { since_ms, told: true };
            if let Err(denied) =
                self.seek_since(cluster, hub, spec, player, conn, outbox, again).await
            {
                answer.send(&ServerMessage::Error { code: denied.code, detail: denied.detail });
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    async fn seek_since(
        &self,
        cluster: &Arc<Cluster>,
        hub: &Arc<dyn NodeGames>,
        spec: GameSpec,
        player: crate::session::Player,
        conn: ConnId,
        outbox: Outbox,
        again: Again,
    ) -> Result<(), Denied> {
        let Again { since_ms, told } = again;
        let key = crate::session::check_spec(&spec)?;
        let address = hub.address(conn);
        let queue = queue_of(&key);
        let rating = player.rating_in(&spec).unwrap_or(qi_protocol::START_RATING).rating;
        let mine = Entry {
            node: cluster.num,
            conn,
            account: player.account.clone(),
            player: player.clone(),
            rating,
            since_ms,
            address,
            nonce: crate::tokens::random_u64().unwrap_or(0),
        };
        let text = serde_json::to_string(&mine).unwrap_or_default();
        let partner = loop {
            // Recorded first, so that a pairing from another node finds it at once.
            self.lock().waiting.insert(
                conn,
                Local {
                    queue: queue.clone(),
                    entry: text.clone(),
                    outbox: outbox.clone(),
                    spec: spec.clone(),
                    player: player.clone(),
                    since_ms,
                },
            );
            let popped: Option<String> = if spec.rated {
                POP_RATED
                    .key(&queue)
                    .arg(&text)
                    .arg(crate::storage::unix_ms())
                    .arg(rating)
                    .arg(since_ms)
                    .arg(player.account.clone().unwrap_or_default())
                    .arg(1)
                    .arg(crate::rating::WINDOW_START)
                    .arg(crate::rating::WINDOW_GROWTH)
                    .arg(crate::rating::WINDOW_STEP_MS)
                    .arg(crate::rating::WINDOW_MAX)
                    .invoke_async(&mut cluster.redis.clone())
                    .await
            } else {
                POP_OR_PUSH.key(&queue).arg(&text).invoke_async(&mut cluster.redis.clone()).await
            }
            .map_err(|e| unreachable(&e))?;
            let Some(popped) = popped else {
                // Seeking again as the window widens: the player was told already.
                if !told {
                    outbox.send(&ServerMessage::Seeking { spec: spec.clone() });
                }
                return Ok(());
            };
            self.lock().waiting.remove(&conn);
            let Ok(partner) = serde_json::from_str::<Entry>(&popped) else { continue };
            // A stale entry (a cancelled seek, a closed socket, a dead node) is passed over.
            if partner.conn != conn && self.take_partner(cluster, &partner, &popped).await {
                break partner;
            }
        };
        // Both addresses may have one more game made (each counted once).
        let mut addresses = vec![address, partner.address];
        addresses.sort_unstable();
        addresses.dedup();
        if let Err(denied) = hub.admit_addresses(&addresses).await {
            self.refuse_partner(cluster, &partner, &denied).await;
            return Err(denied);
        }
        let mine_seat = hub.random_seat()?;
        let mut players = [None, None];
        players[mine_seat.index()] = Some(mine.player.clone());
        players[mine_seat.other().index()] = Some(partner.player.clone());
        let (handle, game) = match Arc::clone(hub).make_game(spec, players).await {
            Ok(made) => made,
            Err(denied) => {
                self.refuse_partner(cluster, &partner, &denied).await;
                return Err(denied);
            }
        };
        hub.note_seated_addresses(&addresses, &game).await;
        let theirs = mine_seat.other();
        if partner.node == cluster.num {
            let partner_outbox = self.lock().taken.remove(&partner.conn).map(|l| l.outbox);
            if let Some(partner_outbox) = partner_outbox {
                let _ = crate::actor::into_game(
                    &handle,
                    partner.conn,
                    partner_outbox,
                    Attach::Seat(theirs),
                )
                .await;
            }
        } else {
            let packet = Packet::Paired {
                owner: cluster.num,
                game: game.clone(),
                conn: partner.conn,
                seat: theirs,
            };
            match cluster.publish(partner.node, &packet).await {
                Ok(heard) if heard > 0 => {}
                // It was there a moment ago; if its node went since, the partner resumes with
                // its token when it reconnects, or the game ends as abandoned.
                _ => tracing::warn!(game, node = partner.node, "a paired seeker's node is gone"),
            }
        }
        crate::actor::into_game(&handle, conn, outbox, Attach::Seat(mine_seat)).await
    }

    /// Another node paired this node's seeker `conn` into `game`: it comes in.
    pub(crate) async fn paired(
        &self,
        cluster: &Arc<Cluster>,
        hub: &Arc<dyn NodeGames>,
        owner: u32,
        game: String,
        conn: ConnId,
        seat: Seat,
    ) {
        let Some(outbox) = self.lock().taken.remove(&conn).map(|l| l.outbox) else {
            tracing::warn!(game, conn, "paired, but the seeker is gone");
            return;
        };
        // A slow answer (a busy node) is asked again, the game looked up afresh each time.
        for _ in 0..3 {
            let handle = match Arc::clone(hub).find(&game).await {
                Some(handle) => handle,
                None => super::remote_handle(cluster, owner, &game),
            };
            match handle.attach(conn, outbox.clone(), Attach::Seat(seat), None).await {
                AttachReply::Done => return,
                AttachReply::Denied(denied) => {
                    let error = ServerMessage::Error { code: denied.code, detail: denied.detail };
                    outbox.send(&error);
                    return;
                }
                AttachReply::Retry => {}
            }
        }
        let detail = "the paired game could not be reached; seek again".to_owned();
        outbox.send(&ServerMessage::Error { code: ErrorCode::Unexpected, detail });
    }
}

impl Pairing {
    /// How many entries each of the queues `keys` holds (a stale entry — a cancelled seek whose
    /// removal failed, a dead node's — counts until a pairing passes over it).
    pub(crate) async fn waiting(
        &self,
        cluster: &Cluster,
        keys: &[String],
    ) -> std::collections::HashMap<String, u32> {
        let mut pipe = redis::pipe();
        for key in keys {
            pipe.cmd("LLEN").arg(queue_of(key));
        }
        let counts: Vec<u32> =
            pipe.query_async(&mut cluster.redis.clone()).await.unwrap_or_default();
        keys.iter().cloned().zip(counts).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rating::{RatedSeeker, partner};

    /// A small deterministic random source.
    struct Dice(u64);

    impl Dice {
        fn below(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 % n
        }
    }

    #[tokio::test]
    async fn the_rated_script_picks_whom_rating_partner_picks() {
        let server = crate::services::TempRedis::start()
            .unwrap_or_else(|e| panic!("Redis is needed here: {e}"));
        let client = redis::Client::open(server.url()).unwrap();
        let mut redis = redis::aio::ConnectionManager::new(client).await.unwrap();
        let mut dice = Dice(0x9e37_79b9_7f4a_7c15);
        let now: u64 = 10_000_000;
        let mut paired = 0;
        for round in 0..300 {
            let queue = format!("qi:test:{round}");
            let count = dice.below(7);
            // Oldest first, as a queue fills; some entries are this account's other tabs.
            let mut waits: Vec<u64> = (0..count).map(|_| dice.below(70_000)).collect();
            waits.sort_unstable_by(|a, b| b.cmp(a));
            let mut others = Vec::new();
            for (index, waited) in waits.into_iter().enumerate() {
                let account =
                    if dice.below(6) == 0 { "me".to_owned() } else { format!("p{index}") };
                let rating = 1200 + u32::try_from(dice.below(700)).unwrap();
                let text = serde_json::json!({
                    "account": account, "rating": rating, "since_ms": now - waited, "n": index,
                })
                .to_string();
                let _: i64 = redis::cmd("RPUSH")
                    .arg(&queue)
                    .arg(&text)
                    .query_async(&mut redis)
                    .await
                    .unwrap();
                others.push((
                    account,
                    RatedSeeker { rating: f64::from(rating), waited_ms: waited },
                    text,
                ));
            }
            let mine = RatedSeeker {
                rating: f64::from(1200 + u32::try_from(dice.below(700)).unwrap()),
                waited_ms: dice.below(70_000),
            };
            let popped: Option<String> = POP_RATED
                .key(&queue)
                .arg("mine")
                .arg(now)
                .arg(mine.rating)
                .arg(now - mine.waited_ms)
                .arg("me")
                .arg(0)
                .arg(crate::rating::WINDOW_START)
                .arg(crate::rating::WINDOW_GROWTH)
                .arg(crate::rating::WINDOW_STEP_MS)
                .arg(crate::rating::WINDOW_MAX)
                .invoke_async(&mut redis)
                .await
                .unwrap();
            let eligible: Vec<&(String, RatedSeeker, String)> =
                others.iter().filter(|(account, _, _)| account != "me").collect();
            let seekers: Vec<RatedSeeker> = eligible.iter().map(|(_, seeker, _)| *seeker).collect();
            let expected = partner(mine, &seekers).map(|index| eligible[index].2.clone());
            assert_eq!(popped, expected, "round {round}: me {mine:?}, waiting {others:?}");
            paired += usize::from(expected.is_some());
        }
        assert!(paired > 50 && paired < 250, "both outcomes are tried: {paired} of 300 paired");
    }
}
