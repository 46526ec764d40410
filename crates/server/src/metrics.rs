//! What `/metrics` tells (Prometheus text format): open connections and game sockets, games in
//! memory, moves relayed, how long relaying a move and committing to storage take, and the
//! requests refused, by [`Limit`].

use std::time::Duration;

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;

use crate::limits::Limit;

/// The label of a refusal.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RefusalLabels {
    limit: String,
}

/// The server's metrics; clones share them.
#[derive(Clone, Debug)]
pub struct Metrics {
    /// Open TCP connections (HTTP and game sockets).
    pub connections: Gauge,
    /// Open game sockets (`/ws`).
    pub sockets: Gauge,
    /// Games whose task runs (in memory).
    pub live_games: Gauge,
    /// Moves played and sent to the players and spectators.
    pub moves_relayed: Counter,
    /// Seconds from a move's arrival to its being queued for everyone in the game (its storage
    /// commit included).
    pub relay_seconds: Histogram,
    /// Seconds one storage commit took (a group of writes with one fsync).
    pub storage_seconds: Histogram,
    refusals: Family<RefusalLabels, Counter>,
}

impl Default for Metrics {
    fn default() -> Self {
        Metrics {
            connections: Gauge::default(),
            sockets: Gauge::default(),
            live_games: Gauge::default(),
            moves_relayed: Counter::default(),
            // 0.1 ms to about 3.3 s.
            relay_seconds: Histogram::new(exponential_buckets(0.0001, 2.0, 16)),
            storage_seconds: Histogram::new(exponential_buckets(0.0001, 2.0, 16)),
            refusals: Family::default(),
        }
    }
}

impl Metrics {
    /// Counts a refusal by `limit`.
    pub fn refused(&self, limit: Limit) {
        self.refusals.get_or_create(&RefusalLabels { limit: limit.name().to_owned() }).inc();
    }

    /// How many refusals `limit` made so far.
    #[must_use]
    pub fn refusals(&self, limit: Limit) -> u64 {
        self.refusals.get_or_create(&RefusalLabels { limit: limit.name().to_owned() }).get()
    }

    /// Records a relay's duration.
    pub fn observe_relay(&self, took: Duration) {
        self.relay_seconds.observe(took.as_secs_f64());
    }

    /// Records a storage commit's duration.
    pub fn observe_storage(&self, took: Duration) {
        self.storage_seconds.observe(took.as_secs_f64());
    }

    /// The metrics in Prometheus text format.
    #[must_use]
    pub fn render(&self) -> String {
        let mut registry = Registry::with_prefix("qi");
        registry.register("connections", "Open TCP connections", self.connections.clone());
        registry.register("sockets", "Open game sockets", self.sockets.clone());
        registry.register("live_games", "Games in memory", self.live_games.clone());
        registry.register("moves_relayed", "Moves played and relayed", self.moves_relayed.clone());
        registry.register(
            "relay_seconds",
            "From a move's arrival to its relay, storage included",
            self.relay_seconds.clone(),
        );
        registry.register(
            "storage_commit_seconds",
            "One storage commit (a group of writes, one fsync)",
            self.storage_seconds.clone(),
        );
        // Every limit appears, at zero until it refuses something.
        for limit in Limit::ALL {
            let _ = self.refusals.get_or_create(&RefusalLabels { limit: limit.name().to_owned() });
        }
        registry.register("refusals", "Requests refused, by limit", self.refusals.clone());
        let mut text = String::new();
        let _ = prometheus_client::encoding::text::encode(&mut text, &registry);
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_names_every_metric_and_limit() {
        let metrics = Metrics::default();
        metrics.sockets.inc();
        metrics.refused(Limit::GamesPerMinute);
        metrics.observe_relay(Duration::from_millis(3));
        let text = metrics.render();
        assert!(text.contains("qi_sockets 1"), "{text}");
        assert!(text.contains("qi_refusals_total{limit=\"games_per_minute\"} 1"), "{text}");
        assert!(text.contains("qi_refusals_total{limit=\"origin\"} 0"), "{text}");
        assert!(text.contains("qi_relay_seconds_count 1"), "{text}");
        assert!(text.contains("qi_storage_commit_seconds_bucket"), "{text}");
        assert!(text.ends_with("# EOF\n"), "{text}");
    }
}
