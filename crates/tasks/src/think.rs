//! The computer's thinking as messages to a Web Worker: the requests (which game, how strong,
//! how long) and the replies (the move, the lines, typed: moves are [`AnyMove`]s, scores
//! [`Score`]s), and the envelopes they travel in ([`ToWorker`], [`FromWorker`]), written by
//! bincode and read by [`crate::codec`]. The worker (crates/worker) answers them.
//!
//! The requests also have a text form (`id|level|seed|record`, ...; [`ThinkRequest::text`]),
//! and the replies one to show ([`ThinkReply::text`]): for the page's test hook
//! (`window.__qiEngine`) and the tools that drive it, not for the wire.

use qi_ai::{Level, Score};
use qi_play::record::GameRecord;
use qi_rules::any::AnyMove;
use serde::{Deserialize, Serialize};

use crate::wire;

/// What the page asks the worker.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ThinkRequest {
    /// Which request this is; the page ignores replies to requests it no longer waits for.
    pub id: u64,
    /// The level, 1 to 6.
    pub level: u8,
    /// The seed of the level's noise.
    pub seed: u64,
    /// The game to move in.
    #[serde(with = "wire::one")]
    pub record: GameRecord,
}

impl ThinkRequest {
    /// The request as text: `id|level|seed|record`.
    #[must_use]
    pub fn text(&self) -> String {
        format!("{}|{}|{}|{}", self.id, self.level, self.seed, self.record.to_text())
    }

    /// Reads [`text`](ThinkRequest::text)'s text; `None` when it is not one.
    #[must_use]
    pub fn from_text(text: &str) -> Option<ThinkRequest> {
        let mut fields = text.splitn(4, '|');
        let id = fields.next()?.parse().ok()?;
        let level = fields.next()?.parse().ok()?;
        let seed = fields.next()?.parse().ok()?;
        let record = GameRecord::from_text(fields.next()?)?;
        Some(ThinkRequest { id, level, seed, record })
    }
}

/// What the worker answers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ThinkReply {
    /// The request answered.
    pub id: u64,
    /// The move; `None` when there is none.
    #[serde(with = "wire::maybe")]
    pub best: Option<AnyMove>,
    /// How deep the search went.
    pub depth: u32,
    /// Nodes it visited.
    pub nodes: u64,
    /// Milliseconds it took, rounded (whole numbers keep float reading out of the page).
    pub time_ms: u64,
    /// The reply the search expects to the move (its line's second move), which the engine
    /// may think about on the person's time; `None` when it sees none.
    #[serde(with = "wire::maybe")]
    pub ponder: Option<AnyMove>,
    /// The move's score for the side to move, which chooses between the answers of several
    /// workers that each searched a share of the moves; `None` with no move.
    #[serde(with = "wire::maybe")]
    pub score: Option<Score>,
}

impl ThinkReply {
    /// A reply with no move.
    #[must_use]
    pub fn none(id: u64) -> ThinkReply {
        ThinkReply { id, best: None, depth: 0, nodes: 0, time_ms: 0, ponder: None, score: None }
    }

    /// The reply as the test hook shows it: `id|move|depth|nodes|ms|ponder|score` (moves in
    /// coordinates, empty for none; the score as `cp:35` or `mate:-2`, empty for none).
    #[must_use]
    pub fn text(&self) -> String {
        let best = self.best.map(|mv| mv.to_string()).unwrap_or_default();
        let ponder = self.ponder.map(|mv| mv.to_string()).unwrap_or_default();
        let score = self.score.map(score_text).unwrap_or_default();
        format!(
            "{}|{best}|{}|{}|{}|{ponder}|{score}",
            self.id, self.depth, self.nodes, self.time_ms
        )
    }
}

/// A score as the test hook shows it: `cp:35`, `mate:-2`.
fn score_text(score: Score) -> String {
    match score {
        Score::Cp(cp) => format!("cp:{cp}"),
        Score::Mate(n) => format!("mate:{n}"),
    }
}

/// The answer to a think request searched in shares (one worker each, see [`qi_ai::RootShare`]):
/// the best-scored move of them all (the deeper search, then the first share, on a tie), with
/// the nodes of all. No move when no share had one (the game is over).
#[must_use]
pub fn merge_think(id: u64, shares: &[ThinkReply]) -> ThinkReply {
    let nodes = shares.iter().map(|reply| reply.nodes).sum();
    let time_ms = shares.iter().map(|reply| reply.time_ms).max().unwrap_or(0);
    let best = shares.iter().filter(|reply| reply.best.is_some()).reduce(|best, reply| {
        if (reply.score, reply.depth) > (best.score, best.depth) { reply } else { best }
    });
    match best {
        Some(best) => ThinkReply { id, nodes, time_ms, ..best.clone() },
        None => ThinkReply { nodes, time_ms, ..ThinkReply::none(id) },
    }
}

/// The answer to an analysis searched in shares: the `lines` best lines of them all (each
/// share's lines are the best of its moves, so the best of all are among them), best first.
/// When no share had a move, the first share's answer (its one line says how the game ended).
#[must_use]
pub fn merge_analysis(id: u64, lines: u8, shares: &[Analysis]) -> Analysis {
    let nodes = shares.iter().map(|analysis| analysis.nodes).sum();
    let mut found: Vec<EngineLine> = shares
        .iter()
        .flat_map(|analysis| analysis.lines.iter())
        .filter(|line| !line.moves.is_empty())
        .cloned()
        .collect();
    if found.is_empty() {
        let over = shares.first().map(|analysis| analysis.lines.clone()).unwrap_or_default();
        return Analysis { id, nodes, lines: over };
    }
    // Stable: among equal scores, the deeper line, then the earlier share's, comes first.
    found.sort_by_key(|line| std::cmp::Reverse((line.score, line.depth)));
    found.truncate(usize::from(lines.clamp(1, MAX_LINES)));
    Analysis { id, nodes, lines: found }
}

/// Whether the computer thinks on the person's time at `level` in a game of `kind`: at level 6
/// only, the full-strength level, which is defined by its time (levels 1-5 are defined by nodes,
/// so that each is as strong on a slow phone as on a fast laptop: pondering would make them
/// stronger the faster the device and the slower the person). Never in banqi: the reply the
/// engine expects may turn a piece up, and the engine must not look under it.
#[must_use]
pub fn ponders(kind: qi_rules::GameKind, level: u8) -> bool {
    level >= Level::MAX.number() && kind != qi_rules::GameKind::Banqi
}

/// What the page asks the worker to think about while the person thinks: the game with the
/// reply the engine expects played, searched at the level the computer plays at, so that the
/// search of the person's actual move, when it is that reply (a ponder hit), starts from what
/// this one learnt.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PonderRequest {
    /// Which request this is.
    pub id: u64,
    /// The computer's level.
    pub level: u8,
    /// The seed of the level's noise.
    pub seed: u64,
    /// The game, the expected reply played last.
    #[serde(with = "wire::one")]
    pub record: GameRecord,
}

/// Where a ponder request's text starts.
pub const PONDER_PREFIX: &str = "P|";

impl PonderRequest {
    /// The request as text: `P|id|level|seed|record`.
    #[must_use]
    pub fn text(&self) -> String {
        format!("{PONDER_PREFIX}{}|{}|{}|{}", self.id, self.level, self.seed, self.record.to_text())
    }

    /// Reads [`text`](PonderRequest::text)'s text.
    #[must_use]
    pub fn from_text(text: &str) -> Option<PonderRequest> {
        let mut fields = text.strip_prefix(PONDER_PREFIX)?.splitn(4, '|');
        let id = fields.next()?.parse().ok()?;
        let level = fields.next()?.parse().ok()?;
        let seed = fields.next()?.parse().ok()?;
        let record = GameRecord::from_text(fields.next()?)?;
        Some(PonderRequest { id, level, seed, record })
    }
}

/// What the page asks the worker when analysing: the position (a record whose moves lead to
/// it) searched at full strength for a time, for one or more best lines.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnalyseRequest {
    /// Which request this is.
    pub id: u64,
    /// Milliseconds of search, for all the lines together.
    pub budget_ms: u32,
    /// How many best lines (1 to [`MAX_LINES`]).
    pub lines: u8,
    /// The game up to the position to analyse.
    #[serde(with = "wire::one")]
    pub record: GameRecord,
}

/// The most lines an analysis gives.
pub const MAX_LINES: u8 = 3;

/// Where an analysis request's text starts (so that a text can't be taken for the wrong kind).
pub const ANALYSE_PREFIX: &str = "A|";

impl AnalyseRequest {
    /// The request as text: `A|id|ms|lines|record`.
    #[must_use]
    pub fn text(&self) -> String {
        format!(
            "{ANALYSE_PREFIX}{}|{}|{}|{}",
            self.id,
            self.budget_ms,
            self.lines,
            self.record.to_text()
        )
    }

    /// Reads [`text`](AnalyseRequest::text)'s text.
    #[must_use]
    pub fn from_text(text: &str) -> Option<AnalyseRequest> {
        let mut fields = text.strip_prefix(ANALYSE_PREFIX)?.splitn(4, '|');
        let id = fields.next()?.parse().ok()?;
        let budget_ms = fields.next()?.parse().ok()?;
        let lines = fields.next()?.parse().ok()?;
        let record = GameRecord::from_text(fields.next()?)?;
        Some(AnalyseRequest { id, budget_ms, lines, record })
    }
}

/// One line the engine found: how deep, its score, its moves.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EngineLine {
    /// Depth reached.
    pub depth: u32,
    /// The score for the side to move (centipawns, or a forced win or loss in moves).
    #[serde(with = "wire::one")]
    pub score: Score,
    /// The moves, the first being the move this line is about.
    #[serde(with = "wire::many")]
    pub moves: Vec<AnyMove>,
}

/// The engine's view of a position: its best lines, best first, and how it scores them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Analysis {
    /// The request answered.
    pub id: u64,
    /// Nodes the search visited (over all its shares, when it was searched in shares).
    pub nodes: u64,
    /// The lines, best first; one line with no moves when the game is over there.
    pub lines: Vec<EngineLine>,
}

impl Analysis {
    /// The best line, when there is one.
    #[must_use]
    pub fn best(&self) -> Option<&EngineLine> {
        self.lines.first()
    }

    /// The reply as the test hook shows it: `id|nodes` then, for each line,
    /// `|depth:cp:35:e2e4 e7e5` (`mate:-3` for a mate).
    #[must_use]
    pub fn text(&self) -> String {
        let mut text = format!("{}|{}", self.id, self.nodes);
        for line in &self.lines {
            let score = score_text(line.score);
            let moves: Vec<String> = line.moves.iter().map(ToString::to_string).collect();
            text += &format!("|{}:{score}:{}", line.depth, moves.join(" "));
        }
        text
    }
}

/// A message from the page to the worker.
// One message at a time, moved once: boxing the request would buy nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ToWorker {
    /// A request, with the page's sequence number for it (its reply comes back with it).
    Ask(u64, WorkerRequest),
    /// A think or an analysis of which this worker searches one share of the moves, the share
    /// numbered from 0 of however many (see [`qi_ai::RootShare`]): the page asks several workers, one
    /// share each, and merges their answers ([`merge_think`], [`merge_analysis`]).
    AskShare(u64, u64, u64, WorkerRequest),
    /// The page no longer wants the answer to this request. A ponder ends at once (its slice
    /// done); a search under way is stopped through the shared stop flags where the page has
    /// them (see the page's worker bridge), else it is not read until the search ends.
    Cancel(u64),
    /// Search full-strength thinks and analyses on this many threads (wasm threads sharing the
    /// engine's table: the worker's threaded build only; the page splits the root moves across
    /// workers instead where it has no such build or is not cross-origin isolated).
    Threads(u64),
}

/// A message from the worker to the page.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum FromWorker {
    /// The worker is listening: the page may send (messages sent earlier could be lost).
    Ready,
    /// The reply to the request with this sequence number.
    Answer(u64, WorkerReply),
    /// Helper threads searched beside the request with this sequence number, visiting this
    /// many nodes in all (the threaded build; the page counts them for its tests).
    Helped(u64, u64),
}

/// How many requests the shared stop flags tell apart: the page writes a request's sequence
/// number into slot `seq % STOP_SLOTS` to stop it, and the worker's search reads its slot.
pub const STOP_SLOTS: u32 = 64;

/// The stop slot of the request with sequence number `seq`, and the value that stops it there
/// (its sequence number in the slot's 32 bits).
#[must_use]
pub fn stop_slot(seq: u64) -> (u32, i32) {
    ((seq % u64::from(STOP_SLOTS)) as u32, seq as u32 as i32)
}

/// What the page asks the worker: one typed request.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum WorkerRequest {
    /// The computer's move (or a hint).
    Think(ThinkRequest),
    /// The engine's view of a position (analysis, and each position of a review).
    Analyse(AnalyseRequest),
    /// Think on the person's time about the reply the engine expects.
    Ponder(PonderRequest),
    /// Records, QR codes, opening names.
    Task(crate::tasks::TaskRequest),
}

/// What the worker answers, one for each kind of request.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum WorkerReply {
    /// The computer's move.
    Think(ThinkReply),
    /// The engine's lines.
    Analysis(Analysis),
    /// A ponder's end: how deep it went (no move).
    Pondered(ThinkReply),
    /// A task's answer.
    Task(crate::tasks::TaskReply),
}

impl WorkerReply {
    /// The computer's move, when that is what this is.
    #[must_use]
    pub fn think(self) -> Option<ThinkReply> {
        if let WorkerReply::Think(reply) = self { Some(reply) } else { None }
    }

    /// The engine's lines, when that is what this is.
    #[must_use]
    pub fn analysis(self) -> Option<Analysis> {
        if let WorkerReply::Analysis(reply) = self { Some(reply) } else { None }
    }

    /// A task's answer, when that is what this is.
    #[must_use]
    pub fn task(self) -> Option<crate::tasks::TaskReply> {
        if let WorkerReply::Task(reply) = self { Some(reply) } else { None }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::round_trip;
    use qi_rules::GameKind;

    #[test]
    fn requests_and_replies_read_back() {
        let mut record = GameRecord::new(GameKind::Xiangqi, "natural_limit=120", 3);
        record.moves = vec!["h3e3".into()];
        let request = ThinkRequest { id: 7, level: 2, seed: 99, record: record.clone() };
        assert_eq!(ThinkRequest::from_text(&request.text()), Some(request.clone()));
        assert_eq!(round_trip(&request), Ok(request));
        let reply = ThinkReply {
            id: 7,
            best: Some(moves(&record, &["h10g8"])[0]),
            depth: 9,
            nodes: 12345,
            time_ms: 250,
            ponder: Some(moves(&record, &["h10g8", "h1g3"])[1]),
            score: Some(Score::Mate(-4)),
        };
        assert_eq!(reply.text(), "7|h10g8|9|12345|250|h1g3|mate:-4");
        assert_eq!(round_trip(&reply), Ok(reply));
        let ponder = PonderRequest {
            id: 5,
            level: 6,
            seed: 1,
            record: GameRecord::new(GameKind::Gomoku, "size=20", 0),
        };
        assert_eq!(PonderRequest::from_text(&ponder.text()), Some(ponder.clone()));
        assert_eq!(round_trip(&ponder), Ok(ponder.clone()));
        assert_eq!(ThinkRequest::from_text(&ponder.text()), None, "not taken for a think");
        let none = ThinkReply::none(8);
        assert_eq!(none.text(), "8||0|0|0||");
        assert_eq!(round_trip(&none), Ok(none));
        assert_eq!(ThinkRequest::from_text("garbage"), None);
        let chess = GameRecord::new(GameKind::Chess, "", 0);
        let analyse = AnalyseRequest { id: 3, budget_ms: 400, lines: 3, record: chess.clone() };
        assert_eq!(AnalyseRequest::from_text(&analyse.text()), Some(analyse.clone()));
        assert_eq!(round_trip(&analyse), Ok(analyse));
        let line =
            |depth, score, line: &[&str]| EngineLine { depth, score, moves: moves(&chess, line) };
        let reply = Analysis {
            id: 9,
            nodes: 123_456,
            lines: vec![
                line(12, Score::Cp(-35), &["e2e4", "e7e5"]),
                line(11, Score::Mate(3), &["d2d4"]),
                line(10, Score::Mate(-2), &[]),
            ],
        };
        assert_eq!(reply.text(), "9|123456|12:cp:-35:e2e4 e7e5|11:mate:3:d2d4|10:mate:-2:");
        assert_eq!(round_trip(&reply), Ok(reply));
        let over = Analysis { id: 4, nodes: 0, lines: Vec::new() };
        assert_eq!(round_trip(&over), Ok(over));
    }

    /// The moves `texts`, played one after another from where `record` leaves the game.
    fn moves(record: &GameRecord, texts: &[&str]) -> Vec<AnyMove> {
        let mut game = record.replay(usize::MAX).game;
        texts
            .iter()
            .map(|text| {
                let mv = game.read_move(text).expect("a legal move");
                game.apply(mv).expect("it plays");
                mv
            })
            .collect()
    }

    #[test]
    fn typed_messages_cross_the_wire_as_the_codec_reads_them() {
        let record = GameRecord::new(GameKind::Xiangqi, "", 2);
        let requests = [
            WorkerRequest::Think(ThinkRequest { id: 1, level: 3, seed: 9, record: record.clone() }),
            WorkerRequest::Analyse(AnalyseRequest {
                id: 2,
                budget_ms: 400,
                lines: 3,
                record: record.clone(),
            }),
            WorkerRequest::Ponder(PonderRequest { id: 3, level: 5, seed: 2, record }),
            WorkerRequest::Task(crate::tasks::TaskRequest::Qr { text: "https://x.test/".into() }),
        ];
        for request in requests {
            let bytes =
                bincode::serde::encode_to_vec(&request, bincode::config::standard()).unwrap();
            assert_eq!(crate::codec::from_bytes::<WorkerRequest>(&bytes), Ok(request));
        }
        let reply = WorkerReply::Think(ThinkReply::none(7));
        let bytes = bincode::serde::encode_to_vec(&reply, bincode::config::standard()).unwrap();
        assert_eq!(crate::codec::from_bytes::<WorkerReply>(&bytes), Ok(reply.clone()));
        // The envelopes too.
        let asked = ToWorker::Ask(
            u64::MAX,
            WorkerRequest::Task(crate::tasks::TaskRequest::Qr { text: "棋".into() }),
        );
        let share = ToWorker::AskShare(
            9,
            1,
            2,
            WorkerRequest::Think(ThinkRequest {
                id: 3,
                level: 6,
                seed: 0,
                record: GameRecord::new(GameKind::Chess, "", 0),
            }),
        );
        for message in [asked, share, ToWorker::Cancel(70_000), ToWorker::Threads(3)] {
            let bytes =
                bincode::serde::encode_to_vec(&message, bincode::config::standard()).unwrap();
            assert_eq!(crate::codec::from_bytes::<ToWorker>(&bytes), Ok(message));
        }
        for message in [FromWorker::Ready, FromWorker::Helped(4, 99), FromWorker::Answer(3, reply)]
        {
            let bytes =
                bincode::serde::encode_to_vec(&message, bincode::config::standard()).unwrap();
            assert_eq!(crate::codec::from_bytes::<FromWorker>(&bytes), Ok(message));
        }
    }

    #[test]
    fn only_full_strength_ponders_and_never_in_banqi() {
        assert!(ponders(GameKind::Chess, 6) && ponders(GameKind::Xiangqi, 6));
        assert!(ponders(GameKind::Gomoku, 6));
        assert!(!ponders(GameKind::Banqi, 6), "a pondered flip would look under the piece");
        assert!((1..=5).all(|level| !ponders(GameKind::Chess, level)), "levels 1-5: by nodes");
    }
}
