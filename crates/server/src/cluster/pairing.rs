//! Quick pairing across nodes: one Redis list per kind of game (`qi:seek:{key}`, the key of
//! [`check_spec`](crate::hub::check_spec)), popped or pushed by one script, so two nodes can never
//! hand out the same seeker. The node that pops a partner makes the game (and runs it); a partner
//! on another node hears of it with [`Packet::Paired`] and comes in as a remote player.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::LazyLock;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use qi_protocol::{GameSpec, Seat, ServerMessage};
use redis::Script;
use serde::{Deserialize, Serialize};

use super::{Cluster, Packet};
use crate::actor::AttachReply;
use crate::hub::Hub;
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

/// A seeker as queued in Redis.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
struct Entry {
    node: u32,
    conn: ConnId,
    name: String,
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
}

/// This node's seekers.
#[derive(Debug, Default)]
pub(crate) struct Pairing {
    seekers: Mutex<HashMap<ConnId, Local>>,
}

fn queue_of(key: &str) -> String {
    format!("qi:seek:{key}")
}

impl Pairing {
    fn lock(&self) -> MutexGuard<'_, HashMap<ConnId, Local>> {
        self.seekers.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Takes `conn` out of the queue (a new seek, a cancel, a closed socket).
    pub(crate) async fn leave(&self, cluster: &Cluster, conn: ConnId) {
        let Some(local) = self.lock().remove(&conn) else { return };
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

    /// Pairs `conn` with the first seeker of the same kind on any node, or queues it.
    pub(crate) async fn seek(
        &self,
        cluster: &Arc<Cluster>,
        hub: &Arc<Hub>,
        spec: GameSpec,
        name: String,
        conn: ConnId,
        outbox: Outbox,
    ) -> Result<(), Denied> {
        let key = crate::hub::check_spec(&spec)?;
        self.leave(cluster, conn).await;
        let address = hub.address(conn);
        let queue = queue_of(&key);
        let mine = Entry {
            node: cluster.num,
            conn,
            name,
            address,
            nonce: crate::tokens::random_u64().unwrap_or(0),
        };
        let text = serde_json::to_string(&mine).unwrap_or_default();
        let unreachable = |e: redis::RedisError| {
            tracing::warn!(error = %e, "the pairing queue is unreachable");
            Denied::new(
                qi_protocol::ErrorCode::Unexpected,
                "quick pairing is not available right now; try again in a moment",
            )
        };
        let partner = loop {
            // Recorded first, so a pairing that comes from another node finds it.
            self.lock().insert(
                conn,
                Local { queue: queue.clone(), entry: text.clone(), outbox: outbox.clone() },
            );
            let popped: Option<String> = POP_OR_PUSH
                .key(&queue)
                .arg(&text)
                .invoke_async(&mut cluster.redis.clone())
                .await
                .map_err(unreachable)?;
            let Some(popped) = popped else {
                outbox.send(&ServerMessage::Seeking { spec: spec.clone() });
                return Ok(());
            };
            self.lock().remove(&conn);
            let Ok(partner) = serde_json::from_str::<Entry>(&popped) else { continue };
            if partner.conn == conn || cluster.lock().dead.contains(&partner.node) {
                continue;
            }
            if partner.node == cluster.num {
                // Still seeking here, with that very entry?
                let local = self.lock().remove(&partner.conn);
                match local {
                    Some(local) if local.entry == popped && !local.outbox.is_closed() => {
                        break (partner, Some(local.outbox));
                    }
                    _ => continue,
                }
            }
            break (partner, None);
        };
        let (partner, partner_outbox) = partner;
        if let Err(denied) = hub.admit_addresses(&[address, partner.address]).await {
            // The partner waits on, first in line.
            let mut redis = cluster.redis.clone();
            let _: Result<i64, _> = redis::cmd("LPUSH")
                .arg(&queue)
                .arg(serde_json::to_string(&partner).unwrap_or_default())
                .query_async(&mut redis)
                .await;
            if let Some(outbox) = &partner_outbox {
                self.lock().insert(
                    partner.conn,
                    Local { queue, entry: popped_text(&partner), outbox: outbox.clone() },
                );
            }
            return Err(denied);
        }
        let mine_seat = hub.random_seat()?;
        let mut names = [None, None];
        names[mine_seat.index()] = Some(mine.name.clone());
        names[mine_seat.other().index()] = Some(partner.name.clone());
        let (handle, game) = hub.make_game(spec, names).await?;
        hub.note_seated_addresses(&[address, partner.address], &game).await;
        let theirs = mine_seat.other();
        match partner_outbox {
            Some(partner_outbox) => {
                let _ = crate::hub::into_game(
                    &handle,
                    partner.conn,
                    partner_outbox,
                    Attach::Seat(theirs),
                )
                .await;
            }
            None => {
                let packet = Packet::Paired {
                    owner: cluster.num,
                    game: game.clone(),
                    conn: partner.conn,
                    seat: theirs,
                };
                match cluster.publish(partner.node, &packet).await {
                    Ok(heard) if heard > 0 => {}
                    _ => {
                        tracing::warn!(game, node = partner.node, "a paired seeker's node is gone")
                    }
                }
            }
        }
        crate::hub::into_game(&handle, conn, outbox, Attach::Seat(mine_seat)).await
    }

    /// Another node paired this node's seeker `conn` into `game`: it comes in.
    pub(crate) async fn paired(
        &self,
        cluster: &Arc<Cluster>,
        hub: &Arc<Hub>,
        owner: u32,
        game: String,
        conn: ConnId,
        seat: Seat,
    ) {
        let Some(local) = self.lock().remove(&conn) else {
            tracing::warn!(game, conn, "paired, but the seeker is gone");
            return;
        };
        let handle = match hub.find(&game).await {
            Some(handle) => handle,
            None => super::remote_handle(cluster, owner, &game),
        };
        match handle.attach(conn, local.outbox.clone(), Attach::Seat(seat), None).await {
            AttachReply::Done => {}
            AttachReply::Denied(denied) => {
                local
                    .outbox
                    .send(&ServerMessage::Error { code: denied.code, detail: denied.detail });
            }
            AttachReply::Retry => tracing::warn!(game, "a paired seeker could not come in"),
        }
    }
}

fn popped_text(entry: &Entry) -> String {
    serde_json::to_string(entry).unwrap_or_default()
}
