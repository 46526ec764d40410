//! The lobby across nodes: each node puts the rows its followers could be shown of its own games
//! ([`Lobby::candidates`]) in Redis (`qi:lobby:{num}`, with a version in `qi:lobby:v:{num}`,
//! both expiring unless renewed), and reads the other live nodes' when their version changed.
//! Challenges are shared within a tick of changing; games being played every two seconds.

use std::collections::HashMap;
use std::sync::Mutex;

use super::Cluster;
use super::limits::LIVE_NODES;
use crate::lobby::{Candidates, Lobby};

/// How long a node's shared rows outlive its last renewal (a dead node's go then).
const SHARED_FOR_MS: u64 = 10_000;

/// What this node shared and has read.
#[derive(Debug, Default)]
pub(crate) struct LobbyShare {
    inner: Mutex<ShareState>,
}

#[derive(Debug, Default)]
struct ShareState {
    version: u64,
    /// The version read of each other node.
    seen: HashMap<u32, String>,
}

fn rows_key(node: u32) -> String {
    format!("qi:lobby:{node}")
}

fn version_key(node: u32) -> String {
    format!("qi:lobby:v:{node}")
}

impl LobbyShare {
    fn lock(&self) -> std::sync::MutexGuard<'_, ShareState> {
        self.inner.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// One tick: shares this node's rows when they changed (or, when `games`, anyway: the
    /// games' rows change with every move, and the keys are renewed), then reads the other
    /// nodes' that changed. Redis failing leaves the lobby as it was (logged).
    pub(crate) async fn tick(&self, cluster: &Cluster, lobby: &Lobby, games: bool) {
        if let Err(e) = self.share(cluster, lobby, games).await {
            tracing::debug!(error = %e, "sharing the lobby failed");
        }
        if let Err(e) = self.read(cluster, lobby).await {
            tracing::debug!(error = %e, "reading the other nodes' lobby failed");
        }
    }

    async fn share(
        &self,
        cluster: &Cluster,
        lobby: &Lobby,
        games: bool,
    ) -> Result<(), redis::RedisError> {
        let Some(candidates) = lobby.candidates(games) else { return Ok(()) };
        let json = serde_json::to_string(&candidates).unwrap_or_default();
        let version = {
            let mut state = self.lock();
            state.version += 1;
            state.version
        };
        let me = cluster.num();
        redis::pipe()
            .cmd("SET")
            .arg(rows_key(me))
            .arg(json)
            .arg("PX")
            .arg(SHARED_FOR_MS)
            .ignore()
            .cmd("SET")
            .arg(version_key(me))
            .arg(version)
            .arg("PX")
            .arg(SHARED_FOR_MS)
            .ignore()
            .query_async::<()>(&mut cluster.redis.clone())
            .await
    }

    async fn read(&self, cluster: &Cluster, lobby: &Lobby) -> Result<(), redis::RedisError> {
        let mut redis = cluster.redis.clone();
        let live: Vec<u32> = redis::cmd("SMEMBERS").arg(LIVE_NODES).query_async(&mut redis).await?;
        let others: Vec<u32> = live.iter().copied().filter(|&node| node != cluster.num()).collect();
        if others.is_empty() {
            lobby.set_remote(HashMap::new(), &live);
            return Ok(());
        }
        let keys: Vec<String> = others.iter().map(|&node| version_key(node)).collect();
        let versions: Vec<Option<String>> =
            redis::cmd("MGET").arg(&keys).query_async(&mut redis).await?;
        // A node without a version shares nothing now (it died without saying, and its rows
        // expired): its rows go.
        let present: Vec<(u32, String)> = others
            .iter()
            .zip(versions)
            .filter_map(|(&node, version)| Some((node, version?)))
            .collect();
        let changed: Vec<(u32, String)> = {
            let mut state = self.lock();
            state.seen.retain(|node, _| present.iter().any(|(n, _)| n == node));
            present
                .iter()
                .filter(|(node, version)| state.seen.get(node) != Some(version))
                .cloned()
                .collect()
        };
        let mut fresh = HashMap::new();
        for (node, version) in changed {
            let json: Option<String> =
                redis::cmd("GET").arg(rows_key(node)).query_async(&mut redis).await?;
            let parsed = json.and_then(|json| serde_json::from_str::<Candidates>(&json).ok());
            let Some(candidates) = parsed else { continue };
            self.lock().seen.insert(node, version);
            fresh.insert(node, candidates);
        }
        let shown: Vec<u32> = present.into_iter().map(|(node, _)| node).collect();
        lobby.set_remote(fresh, &shown);
        Ok(())
    }
}
