//! The computer's thinking as a message to a Web Worker: the request (which game, how strong)
//! and the reply (the move), as plain text, and the worker task that answers it.

use std::sync::atomic::AtomicBool;

use qi_ai::{AnyEngine, Level};
use yew_agent::prelude::oneshot;

use crate::record::GameRecord;

/// What the page asks the worker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThinkRequest {
    /// Which request this is; the page ignores replies to requests it no longer waits for.
    pub id: u64,
    /// The level, 1 to 6.
    pub level: u8,
    /// The seed of the level's noise.
    pub seed: u64,
    /// The game to move in.
    pub record: GameRecord,
}

impl ThinkRequest {
    /// The request as text: `id|level|seed|record`.
    #[must_use]
    pub fn encode(&self) -> String {
        format!("{}|{}|{}|{}", self.id, self.level, self.seed, self.record.to_text())
    }

    /// Reads [`encode`](ThinkRequest::encode)'s text; `None` when it is not one.
    #[must_use]
    pub fn decode(text: &str) -> Option<ThinkRequest> {
        let mut fields = text.splitn(4, '|');
        let id = fields.next()?.parse().ok()?;
        let level = fields.next()?.parse().ok()?;
        let seed = fields.next()?.parse().ok()?;
        let record = GameRecord::from_text(fields.next()?)?;
        Some(ThinkRequest { id, level, seed, record })
    }
}

/// What the worker answers.
#[derive(Clone, Debug, PartialEq)]
pub struct ThinkReply {
    /// The request answered.
    pub id: u64,
    /// The move, in coordinates; `None` when there is none (or the request was unreadable).
    pub best: Option<String>,
    /// How deep the search went.
    pub depth: u32,
    /// Nodes it visited.
    pub nodes: u64,
    /// Milliseconds it took, rounded (whole numbers keep float reading out of the page).
    pub time_ms: u64,
}

impl ThinkReply {
    /// A reply with no move.
    #[must_use]
    pub fn none(id: u64) -> ThinkReply {
        ThinkReply { id, best: None, depth: 0, nodes: 0, time_ms: 0 }
    }

    /// The reply as text: `id|move|depth|nodes|ms` (empty move for none).
    #[must_use]
    pub fn encode(&self) -> String {
        let best = self.best.as_deref().unwrap_or("");
        format!("{}|{best}|{}|{}|{}", self.id, self.depth, self.nodes, self.time_ms)
    }

    /// Reads [`encode`](ThinkReply::encode)'s text.
    #[must_use]
    pub fn decode(text: &str) -> Option<ThinkReply> {
        let mut fields = text.split('|');
        let id = fields.next()?.parse().ok()?;
        let best = fields.next().filter(|b| !b.is_empty()).map(str::to_owned);
        let depth = fields.next()?.parse().ok()?;
        let nodes = fields.next()?.parse().ok()?;
        let time_ms = fields.next()?.parse().ok()?;
        Some(ThinkReply { id, best, depth, nodes, time_ms })
    }
}

/// Answers one request: replays the game and searches it at the requested level.
#[must_use]
pub fn answer(request: &str, now: &dyn Fn() -> f64) -> String {
    let Some(request) = ThinkRequest::decode(request) else {
        return ThinkReply::none(0).encode();
    };
    let game = request.record.replay(usize::MAX).game;
    let stop = AtomicBool::new(false);
    let result = AnyEngine::default().think(
        &game,
        Level::new(request.level),
        now,
        &stop,
        request.seed,
        &mut |_| {},
    );
    let info = result.info;
    ThinkReply {
        id: request.id,
        best: result.best,
        depth: info.depth,
        nodes: info.nodes,
        time_ms: info.time_ms.max(0.0).round() as u64,
    }
    .encode()
}

/// The worker task: one request in, one reply out. Requests for records and QR codes
/// ([`crate::worker_tasks`]) go there; the rest are the computer's.
#[oneshot]
pub async fn Think(request: String) -> String {
    if request.starts_with(crate::worker_tasks::PREFIX) {
        return crate::worker_tasks::answer(&request);
    }
    answer(&request, &|| js_sys::Date::now())
}

#[cfg(test)]
mod tests {
    use super::*;
    use qi_rules::GameKind;

    #[test]
    fn requests_and_replies_read_back() {
        let mut record = GameRecord::new(GameKind::Xiangqi, "natural_limit=120", 3);
        record.moves = vec!["h3e3".into()];
        let request = ThinkRequest { id: 7, level: 2, seed: 99, record };
        assert_eq!(ThinkRequest::decode(&request.encode()), Some(request));
        let reply =
            ThinkReply { id: 7, best: Some("h10g8".into()), depth: 9, nodes: 12345, time_ms: 250 };
        assert_eq!(ThinkReply::decode(&reply.encode()), Some(reply));
        let none = ThinkReply::none(8);
        assert_eq!(ThinkReply::decode(&none.encode()), Some(none));
        assert_eq!(ThinkRequest::decode("garbage"), None);
    }

    #[test]
    fn the_worker_answers_with_a_legal_move() {
        let clock = qi_ai::search::native_clock();
        let record = GameRecord::new(GameKind::Gomoku, "", 0);
        let request = ThinkRequest { id: 1, level: 1, seed: 5, record: record.clone() };
        let reply = ThinkReply::decode(&answer(&request.encode(), &clock)).unwrap();
        assert_eq!(reply.id, 1);
        let mut game = record.start_game();
        assert!(game.play(reply.best.as_deref().unwrap()).is_ok());
        assert_eq!(ThinkReply::decode(&answer("nonsense", &clock)).unwrap().best, None);
    }
}
