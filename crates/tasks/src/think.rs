//! The computer's thinking as a message to a Web Worker: the request (which game, how strong)
//! and the reply (the move), as plain text, and the worker task that answers it.

use std::sync::atomic::AtomicBool;

use qi_ai::{AnyEngine, Level, Limits, Score};
use yew_agent::prelude::oneshot;

use qi_play::record::GameRecord;

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
pub fn answer(request: &ThinkRequest, now: &dyn Fn() -> f64) -> ThinkReply {
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
        // Text from here on: the reply crosses to the page.
        best: result.best.map(|mv| mv.to_string()),
        depth: info.depth,
        nodes: info.nodes,
        time_ms: info.time_ms.max(0.0).round() as u64,
    }
}

/// What the page asks the worker when analysing: the position (a record whose moves lead to
/// it) searched at full strength for a time, for one or more best lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnalyseRequest {
    /// Which request this is.
    pub id: u64,
    /// Milliseconds of search, for all the lines together.
    pub budget_ms: u32,
    /// How many best lines (1 to [`MAX_LINES`]).
    pub lines: u8,
    /// The game up to the position to analyse.
    pub record: GameRecord,
}

/// The most lines an analysis gives.
pub const MAX_LINES: u8 = 3;

/// Where an analysis request's text starts (so that a text can't be taken for the wrong kind).
pub const ANALYSE_PREFIX: &str = "A|";

impl AnalyseRequest {
    /// The request as text: `A|id|ms|lines|record`.
    #[must_use]
    pub fn encode(&self) -> String {
        format!(
            "{ANALYSE_PREFIX}{}|{}|{}|{}",
            self.id,
            self.budget_ms,
            self.lines,
            self.record.to_text()
        )
    }

    /// Reads [`encode`](AnalyseRequest::encode)'s text.
    #[must_use]
    pub fn decode(text: &str) -> Option<AnalyseRequest> {
        let mut fields = text.strip_prefix(ANALYSE_PREFIX)?.splitn(4, '|');
        let id = fields.next()?.parse().ok()?;
        let budget_ms = fields.next()?.parse().ok()?;
        let lines = fields.next()?.parse().ok()?;
        let record = GameRecord::from_text(fields.next()?)?;
        Some(AnalyseRequest { id, budget_ms, lines, record })
    }
}

/// One line the engine found: how deep, its score, its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineLine {
    /// Depth reached.
    pub depth: u32,
    /// The score for the side to move (centipawns, or a forced win or loss in moves).
    pub score: Score,
    /// The moves, in coordinates, the first being the move this line is about.
    pub moves: Vec<String>,
}

/// The engine's view of a position: its best lines, best first, and how it scores them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// The request answered.
    pub id: u64,
    /// The lines, best first; one line with no moves when the game is over there.
    pub lines: Vec<EngineLine>,
}

impl Analysis {
    /// The best line, when there is one.
    #[must_use]
    pub fn best(&self) -> Option<&EngineLine> {
        self.lines.first()
    }

    /// The reply as text: `id` then, for each line, `|depth:cp:35:e2e4 e7e5` (`mate:-3` for a
    /// mate).
    #[must_use]
    pub fn encode(&self) -> String {
        let mut text = self.id.to_string();
        for line in &self.lines {
            let score = match line.score {
                Score::Cp(cp) => format!("cp:{cp}"),
                Score::Mate(n) => format!("mate:{n}"),
            };
            text += &format!("|{}:{score}:{}", line.depth, line.moves.join(" "));
        }
        text
    }

    /// Reads [`encode`](Analysis::encode)'s text.
    #[must_use]
    pub fn decode(text: &str) -> Option<Analysis> {
        let mut fields = text.split('|');
        let id = fields.next()?.parse().ok()?;
        let lines = fields
            .map(|field| {
                let mut parts = field.splitn(4, ':');
                let depth = parts.next()?.parse().ok()?;
                let score = match (parts.next()?, parts.next()?) {
                    ("cp", n) => Score::Cp(n.parse().ok()?),
                    ("mate", n) => Score::Mate(n.parse().ok()?),
                    _ => return None,
                };
                let moves = parts.next()?.split_whitespace().map(str::to_owned).collect();
                Some(EngineLine { depth, score, moves })
            })
            .collect::<Option<Vec<_>>>()?;
        Some(Analysis { id, lines })
    }
}

/// Answers an analysis request: the position searched at full strength for its budget.
#[must_use]
pub fn analyse(request: &AnalyseRequest, now: &dyn Fn() -> f64) -> Analysis {
    let game = request.record.replay(usize::MAX).game;
    let stop = AtomicBool::new(false);
    let limits =
        Limits { time_ms: Some(f64::from(request.budget_ms.min(30_000))), ..Limits::default() };
    let lines = usize::from(request.lines.clamp(1, MAX_LINES));
    // One engine for all analysis in this worker: its transposition table and history carry
    // over from one request to the next (the same position searched longer, or the next move),
    // so each answer starts from what the last one learnt.
    thread_local! {
        static ANALYST: std::cell::RefCell<AnyEngine> = std::cell::RefCell::new(AnyEngine::default());
    }
    let result =
        ANALYST.with(|engine| engine.borrow_mut().analyse_lines(&game, limits, lines, now, &stop));
    let depth = result.info.depth;
    let lines = if result.info.lines.is_empty() {
        // The game is over there: one line with no moves says so, with its score.
        vec![EngineLine { depth, score: result.info.score, moves: Vec::new() }]
    } else {
        result
            .info
            .lines
            .into_iter()
            .map(|line| EngineLine {
                depth,
                score: line.score,
                moves: line.pv.iter().map(ToString::to_string).collect(),
            })
            .collect()
    };
    Analysis { id: request.id, lines }
}

/// The worker task: one request in, one reply out. Requests for records and QR codes
/// ([`crate::tasks`]) go there; the rest are the computer's.
#[oneshot]
pub async fn Think(request: WorkerRequest) -> WorkerReply {
    let now = || js_sys::Date::now();
    match request {
        WorkerRequest::Think(request) => WorkerReply::Think(answer(&request, &now)),
        WorkerRequest::Analyse(request) => WorkerReply::Analysis(analyse(&request, &now)),
        WorkerRequest::Task(request) => WorkerReply::Task(crate::tasks::answer(request)),
    }
}

/// What the page asks the worker: one typed request. On the wire each is its text form inside
/// bincode's enum (see [`crate::codec`]): text at the edge, types on both sides.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum WorkerRequest {
    /// The computer's move (or a hint).
    Think(ThinkRequest),
    /// The engine's view of a position (analysis, and each position of a review).
    Analyse(AnalyseRequest),
    /// Records, QR codes, opening names.
    Task(crate::tasks::TaskRequest),
}

/// What the worker answers, one for each kind of request.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum WorkerReply {
    /// The computer's move.
    Think(ThinkReply),
    /// The engine's lines.
    Analysis(Analysis),
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

/// Serde for a message by its text form (`encode`, `decode`): a string on the wire, which the
/// page's small reader reads (see [`crate::codec`]).
macro_rules! serde_by_text {
    ($($message:ty),*) => {$(
        impl serde::Serialize for $message {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(&self.encode())
            }
        }

        impl<'de> serde::Deserialize<'de> for $message {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let text = <String as serde::Deserialize>::deserialize(deserializer)?;
                <$message>::decode(&text).ok_or_else(|| serde::de::Error::custom("unreadable"))
            }
        }
    )*};
}

serde_by_text!(
    ThinkRequest,
    ThinkReply,
    AnalyseRequest,
    Analysis,
    crate::tasks::TaskRequest,
    crate::tasks::TaskReply
);

#[cfg(test)]
mod tests {
    use super::*;
    use qi_ai::Score;
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
        let analyse = AnalyseRequest {
            id: 3,
            budget_ms: 400,
            lines: 3,
            record: GameRecord::new(GameKind::Chess, "", 0),
        };
        assert_eq!(AnalyseRequest::decode(&analyse.encode()), Some(analyse));
        let line = |depth, score, moves: &[&str]| EngineLine {
            depth,
            score,
            moves: moves.iter().map(|m| (*m).to_owned()).collect(),
        };
        let reply = Analysis {
            id: 9,
            lines: vec![
                line(12, Score::Cp(-35), &["e2e4", "e7e5"]),
                line(11, Score::Mate(3), &["d2d4"]),
                line(10, Score::Mate(-2), &[]),
            ],
        };
        assert_eq!(Analysis::decode(&reply.encode()), Some(reply));
        let over = Analysis { id: 4, lines: Vec::new() };
        assert_eq!(Analysis::decode(&over.encode()), Some(over));
        assert_eq!(Analysis::decode("1|2:elo:3:"), None);
        assert_eq!(Analysis::decode("x|2:cp:3:"), None);
    }

    #[test]
    fn analysis_finds_the_hung_queen_and_the_mate() {
        let clock = qi_ai::search::native_clock();
        let analyse_fen = |fen: &str| {
            let record = GameRecord::from_parts(
                GameKind::Chess,
                String::new(),
                qi_play::record::Start::Position(fen.into()),
                Vec::new(),
            );
            let request = AnalyseRequest { id: 5, budget_ms: 600, lines: 3, record };
            let request = AnalyseRequest::decode(&request.encode()).expect("reads back");
            let reply = Analysis::decode(&analyse(&request, &clock).encode()).expect("a reply");
            assert_eq!(reply.id, 5);
            reply.best().cloned().expect("a line")
        };
        // Black's queen on d5 hangs to the knight on c3.
        let hung = analyse_fen("rnb1kbnr/ppp1pppp/8/3q4/8/2N5/PPPP1PPP/R1BQKBNR w KQkq - 0 3");
        assert_eq!(hung.moves.first().map(String::as_str), Some("c3d5"));
        assert!(matches!(hung.score, Score::Cp(cp) if cp > 500), "{:?}", hung.score);
        let mate = analyse_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
        assert_eq!(mate.moves.first().map(String::as_str), Some("a1a8"));
        assert_eq!(mate.score, Score::Mate(1));
    }

    #[test]
    fn typed_messages_cross_the_wire_as_the_codec_reads_them() {
        let record = GameRecord::new(GameKind::Xiangqi, "", 2);
        let requests = [
            WorkerRequest::Think(ThinkRequest { id: 1, level: 3, seed: 9, record: record.clone() }),
            WorkerRequest::Analyse(AnalyseRequest { id: 2, budget_ms: 400, lines: 3, record }),
            WorkerRequest::Task(crate::tasks::TaskRequest::Qr { text: "https://x.test/".into() }),
        ];
        for request in requests {
            let bytes =
                bincode::serde::encode_to_vec(&request, bincode::config::standard()).unwrap();
            assert_eq!(crate::codec::from_bytes::<WorkerRequest>(&bytes), Ok(request));
        }
        let reply = WorkerReply::Think(ThinkReply::none(7));
        let bytes = bincode::serde::encode_to_vec(&reply, bincode::config::standard()).unwrap();
        assert_eq!(crate::codec::from_bytes::<WorkerReply>(&bytes), Ok(reply));
    }

    #[test]
    fn the_worker_answers_with_a_legal_move() {
        let clock = qi_ai::search::native_clock();
        let record = GameRecord::new(GameKind::Gomoku, "", 0);
        let request = ThinkRequest { id: 1, level: 1, seed: 5, record: record.clone() };
        let reply = ThinkReply::decode(&answer(&request, &clock).encode()).unwrap();
        assert_eq!(reply.id, 1);
        let mut game = record.start_game();
        assert!(game.play(reply.best.as_deref().unwrap()).is_ok());
        assert_eq!(ThinkRequest::decode("nonsense"), None);
    }
}
