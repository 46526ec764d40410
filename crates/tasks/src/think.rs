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

/// The strength an engine searched at: a level, or full strength (analysis).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Strength {
    Level(u8),
    Full,
}

/// What the worker's engine last searched: the strength and the game (its kind, rules and
/// start, and the moves to the position searched).
#[derive(Clone, Debug, PartialEq)]
struct Searched {
    strength: Strength,
    kind: qi_rules::GameKind,
    rules: String,
    start: qi_play::record::Start,
    moves: Vec<String>,
}

impl Searched {
    fn of(record: &GameRecord, strength: Strength) -> Searched {
        Searched {
            strength,
            kind: record.kind,
            rules: record.rules.clone(),
            start: record.start.clone(),
            moves: record.moves.clone(),
        }
    }

    /// Whether a search of `next` may use what a search of `self` learnt: the same strength
    /// (a weaker level must not inherit a stronger search's knowledge, or levels would change
    /// meaning) and the same game, one position on the other's line (the game went on, or a
    /// move was taken back). Anything else — a new game, another game, a jump to a position
    /// off the line — starts afresh.
    fn continued_by(&self, next: &Searched) -> bool {
        let (short, long) = if self.moves.len() <= next.moves.len() {
            (&self.moves, &next.moves)
        } else {
            (&next.moves, &self.moves)
        };
        self.strength == next.strength
            && self.kind == next.kind
            && self.rules == next.rules
            && self.start == next.start
            && long.starts_with(short)
    }
}

/// The worker's engine, kept from one request to the next with what it last searched.
#[derive(Default)]
struct KeptEngine {
    engine: AnyEngine,
    last: Option<Searched>,
}

thread_local! {
    /// One engine for the whole worker (the page's games, hints and analysis), so its
    /// transposition table and history survive between the moves of a game instead of being
    /// allocated and cleared for every request.
    static KEPT: std::cell::RefCell<KeptEngine> = std::cell::RefCell::new(KeptEngine::default());
}

/// Runs `search` with the worker's engine for a search of `record` at `strength`: the engine
/// as the last search left it when this one continues that game (see
/// [`Searched::continued_by`]), else cleared first.
fn with_kept_engine<T>(
    record: &GameRecord,
    strength: Strength,
    search: impl FnOnce(&mut AnyEngine) -> T,
) -> T {
    KEPT.with(|kept| {
        let mut kept = kept.borrow_mut();
        let next = Searched::of(record, strength);
        if !kept.last.as_ref().is_some_and(|last| last.continued_by(&next)) {
            kept.engine.new_game();
        }
        kept.last = Some(next);
        search(&mut kept.engine)
    })
}

/// The strength of a think request: a level, where full strength (level 6) is the analysis's.
fn strength_of(level: Level) -> Strength {
    if level == Level::MAX { Strength::Full } else { Strength::Level(level.number()) }
}

/// Answers one request: replays the game and searches it at the requested level, with the
/// worker's kept engine.
#[must_use]
pub fn answer(request: &ThinkRequest, now: &dyn Fn() -> f64) -> ThinkReply {
    let game = request.record.replay(usize::MAX).game;
    let stop = AtomicBool::new(false);
    let level = Level::new(request.level);
    let result = with_kept_engine(&request.record, strength_of(level), |engine| {
        engine.think(&game, level, now, &stop, request.seed, &mut |_| {})
    });
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
    // The worker's one engine: its transposition table and history carry over from one
    // request to the next (the same position searched longer, the next move, the review's
    // next position), so each answer starts from what the last one learnt.
    let result = with_kept_engine(&request.record, Strength::Full, |engine| {
        engine.analyse_lines(&game, limits, lines, now, &stop)
    });
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

    /// The kept engine's nodes for a search of `record` to `depth` plies at `strength`.
    fn nodes_to_depth(record: &GameRecord, strength: Strength, depth: u32) -> u64 {
        let clock = qi_ai::search::native_clock();
        let stop = AtomicBool::new(false);
        let game = record.replay(usize::MAX).game;
        let limits = Limits { depth: Some(depth), ..Limits::default() };
        with_kept_engine(record, strength, |engine| {
            engine.analyse_lines(&game, limits, 1, &clock, &stop).info.nodes
        })
    }

    #[test]
    fn the_engine_is_kept_through_a_game_and_cleared_for_another() {
        let game = |moves: &[&str]| {
            let mut record = GameRecord::new(GameKind::Chess, "", 0);
            record.moves = moves.iter().map(|m| (*m).to_owned()).collect();
            record
        };
        let (first, next, other) =
            (game(&["e2e4", "e7e5"]), game(&["e2e4", "e7e5", "g1f3"]), game(&["d2d4"]));
        // Fresh searches (another game in between clears the engine), node for node the same.
        nodes_to_depth(&other, Strength::Full, 1);
        let fresh = nodes_to_depth(&first, Strength::Full, 6);
        nodes_to_depth(&other, Strength::Full, 1);
        assert_eq!(nodes_to_depth(&first, Strength::Full, 6), fresh, "cleared for a new game");
        nodes_to_depth(&other, Strength::Full, 1);
        let next_fresh = nodes_to_depth(&next, Strength::Full, 6);
        // The same position again: the table answers most of it.
        nodes_to_depth(&other, Strength::Full, 1);
        nodes_to_depth(&first, Strength::Full, 6);
        let again = nodes_to_depth(&first, Strength::Full, 6);
        assert!(again * 2 < fresh, "kept: {again} nodes after {fresh}");
        // The game goes on: the next position's lines were searched already.
        let next_kept = nodes_to_depth(&next, Strength::Full, 6);
        assert!(next_kept < next_fresh, "kept through the game: {next_kept} < {next_fresh}");
        // A weaker level never inherits what full strength learnt.
        nodes_to_depth(&first, Strength::Full, 6);
        assert_eq!(nodes_to_depth(&first, Strength::Level(3), 6), fresh, "cleared for a level");
    }
}
