//! The engine as the Web Worker hosts it: one engine kept from request to request (its
//! transposition table and history carry over while a game goes on, see `Searched`), the
//! answers to the page's think, ponder and analysis requests ([`think`], [`ponder_slice`],
//! [`analyse`], [`respond`]), helper threads where the worker has them, and a whole review run
//! here for `qi review` ([`review_game`]). The requests and replies are `qi_tasks`'s messages.

use std::sync::atomic::AtomicBool;

use qi_ai::{AnyEngine, HelperPool, Level, LevelSettings, Limits, RootShare, SearchResult};
use qi_play::record::GameRecord;
use qi_rules::any::{AnyGame, AnyMove};
use qi_tasks::review::{Budgets, Evaluation, Review};
use qi_tasks::think::{
    AnalyseRequest, Analysis, EngineLine, MAX_LINES, PonderRequest, ThinkReply, ThinkRequest,
    WorkerReply, WorkerRequest,
};

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
    /// move was taken back) or the two lines differing only in their last move (the person
    /// played another move than the one the engine pondered; they share at least one move, so
    /// two one-move games are not taken for one). Anything else — a new game, another game, a
    /// jump to a position off the line — starts afresh.
    fn continued_by(&self, next: &Searched) -> bool {
        let common = self.moves.iter().zip(&next.moves).take_while(|(a, b)| a == b).count();
        let on_the_line = common == self.moves.len().min(next.moves.len());
        let siblings =
            self.moves.len() == next.moves.len() && common >= 1 && common + 1 == next.moves.len();
        self.strength == next.strength
            && self.kind == next.kind
            && self.rules == next.rules
            && self.start == next.start
            && (on_the_line || siblings)
    }
}

/// The worker's engine, kept from one request to the next with what it last searched.
#[derive(Default)]
struct KeptEngine {
    engine: AnyEngine,
    /// The engines helping it on more threads, where the worker has them.
    helpers: HelperPool,
    last: Option<Searched>,
}

/// More threads for the worker's full-strength searches: the threaded worker's (wasm threads
/// sharing one memory) run helpers beside the search (Lazy SMP, see [`AnyEngine::helper`]).
pub trait HelperThreads {
    /// Runs `search` on `engine` (a search of `game`) with helpers from `pool` searching the
    /// same position beside it, stopped when it returns. The answer is [`qi_ai::deepest`] of
    /// the threads' when `pick_deepest`, else the main search's (an analysis of several lines:
    /// a helper searches one).
    fn run(
        &self,
        engine: &mut AnyEngine,
        pool: &mut HelperPool,
        game: &AnyGame,
        pick_deepest: bool,
        search: &mut dyn FnMut(&mut AnyEngine) -> SearchResult<AnyMove>,
    ) -> SearchResult<AnyMove>;
}

thread_local! {
    /// The worker's helper threads, once it has them.
    static HELPER_THREADS: std::cell::RefCell<Option<Box<dyn HelperThreads>>> =
        std::cell::RefCell::new(None);
}

/// Gives the worker's full-strength thinks and analyses helper threads (`None`: none, the
/// default).
pub fn set_helper_threads(threads: Option<Box<dyn HelperThreads>>) {
    HELPER_THREADS.with(|helpers| *helpers.borrow_mut() = threads);
}

/// Runs `search` with the worker's helper threads beside it, when it has them.
fn with_helper_threads(
    engine: &mut AnyEngine,
    pool: &mut HelperPool,
    game: &AnyGame,
    pick_deepest: bool,
    mut search: impl FnMut(&mut AnyEngine) -> SearchResult<AnyMove>,
) -> SearchResult<AnyMove> {
    HELPER_THREADS.with(|helpers| match helpers.borrow().as_ref() {
        Some(helpers) => helpers.run(engine, pool, game, pick_deepest, &mut search),
        None => search(engine),
    })
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
    search: impl FnOnce(&mut AnyEngine, &mut HelperPool) -> T,
) -> T {
    KEPT.with(|kept| {
        let mut kept = kept.borrow_mut();
        let next = Searched::of(record, strength);
        if !kept.last.as_ref().is_some_and(|last| last.continued_by(&next)) {
            kept.engine.new_game();
            kept.helpers.new_game();
        }
        kept.last = Some(next);
        let KeptEngine { engine, helpers, .. } = &mut *kept;
        search(engine, helpers)
    })
}

/// The strength of a think request: a level, where full strength (level 6) is the analysis's.
fn strength_of(level: Level) -> Strength {
    if level == Level::MAX { Strength::Full } else { Strength::Level(level.number()) }
}

/// Answers one request: replays the game and searches it at the requested level, with the
/// worker's kept engine. `stop` ends the search early (the page no longer wants the move).
/// Under a `share`, only that share of the moves is searched (see [`qi_tasks::think::merge_think`]).
#[must_use]
pub fn think(
    request: &ThinkRequest,
    share: Option<RootShare>,
    now: &dyn Fn() -> f64,
    stop: &AtomicBool,
) -> ThinkReply {
    let game = request.record.replay(usize::MAX).game;
    let level = Level::new(request.level);
    let mut settings = qi_ai::level::settings(game.kind(), level);
    settings.limits.root_share = share;
    let result = with_kept_engine(&request.record, strength_of(level), |engine, helpers| {
        let search = |engine: &mut AnyEngine| {
            engine.search_with(&game, settings, now, stop, request.seed, &mut |_| {})
        };
        // Levels 1-5 are defined by their nodes: more threads would make them stronger.
        if level == Level::MAX && share.is_none() {
            with_helper_threads(engine, helpers, &game, true, search)
        } else {
            search(engine)
        }
    });
    let info = result.info;
    ThinkReply {
        id: request.id,
        best: result.best,
        depth: info.depth,
        nodes: info.nodes,
        time_ms: info.time_ms.max(0.0).round() as u64,
        ponder: info.pv.get(1).copied(),
        score: result.best.is_some().then_some(info.score),
    }
}

/// How long level 6 ponders, in multiples of its own thinking time.
pub const PONDER_TIME_FACTOR: f64 = 10.0;

/// How far a ponder has gone: its slices together.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Pondered {
    /// The deepest depth a slice completed.
    pub depth: u32,
    /// Nodes, all slices together.
    pub nodes: u64,
    /// Milliseconds, all slices together.
    pub time_ms: f64,
    /// Whether there is nothing more to ponder: the budget is spent, the search reached its
    /// depth limit or a forced result, or it was stopped.
    pub done: bool,
}

/// Ponders `game` (the game of `request`) for one slice of at most `slice_ms` milliseconds, with
/// the worker's kept engine, adding to `so_far`. The worker runs slices one after another and
/// reads its messages between them, so a ponder ends within a slice of the person's move
/// wherever the page is served; each slice starts its search again from the table the earlier
/// ones filled, which takes it back to their depth quickly and on deeper.
pub fn ponder_slice(
    request: &PonderRequest,
    game: &qi_rules::any::AnyGame,
    so_far: &mut Pondered,
    slice_ms: f64,
    now: &dyn Fn() -> f64,
    stop: &AtomicBool,
) {
    let level = Level::new(request.level);
    let settings = qi_ai::level::settings(game.kind(), level);
    let nodes_left = settings.limits.nodes.map(|max| max.saturating_sub(so_far.nodes));
    let time_left =
        settings.limits.time_ms.unwrap_or(3_000.0) * PONDER_TIME_FACTOR - so_far.time_ms;
    if so_far.done || nodes_left == Some(0) || time_left <= 0.0 || game.outcome().is_some() {
        so_far.done = true;
        return;
    }
    let slice_ms = slice_ms.min(time_left);
    let limits = Limits {
        time_ms: Some(slice_ms),
        soft_time_ms: None,
        nodes: nodes_left,
        // The depths the earlier slices completed are in the table: go on from the next.
        from_depth: Some(so_far.depth + 1),
        // The first slice is a new search (its history aged); the others go on from it.
        resumes: so_far.nodes > 0,
        ..settings.limits
    };
    let result = with_kept_engine(&request.record, strength_of(level), |engine, _| {
        let settings = LevelSettings { limits, noise: settings.noise };
        engine.search_with(game, settings, now, stop, request.seed, &mut |_| {})
    });
    so_far.depth = so_far.depth.max(result.info.depth);
    so_far.nodes += result.info.nodes;
    so_far.time_ms += result.info.time_ms.max(0.0);
    // A slice that ended well before its time did not run out of it: the depth limit, the
    // node budget, a forced result or the stop signal ended it, and the next would too.
    so_far.done =
        result.info.time_ms < slice_ms * 0.9 || stop.load(std::sync::atomic::Ordering::Relaxed);
}

/// Answers an analysis request: the position searched at full strength for its budget (under
/// a `share`, that share of the moves: see [`qi_tasks::think::merge_analysis`]).
#[must_use]
pub fn analyse(
    request: &AnalyseRequest,
    share: Option<RootShare>,
    now: &dyn Fn() -> f64,
    stop: &AtomicBool,
) -> Analysis {
    let game = request.record.replay(usize::MAX).game;
    let limits = Limits {
        time_ms: Some(f64::from(request.budget_ms.min(30_000))),
        root_share: share,
        ..Limits::default()
    };
    let lines = usize::from(request.lines.clamp(1, MAX_LINES));
    // The worker's one engine: its transposition table and history carry over from one
    // request to the next (the same position searched longer, the next move, the review's
    // next position), so each answer starts from what the last one learnt.
    let result = with_kept_engine(&request.record, Strength::Full, |engine, helpers| {
        let search = |engine: &mut AnyEngine| engine.analyse_lines(&game, limits, lines, now, stop);
        if share.is_none() {
            with_helper_threads(engine, helpers, &game, lines == 1, search)
        } else {
            search(engine)
        }
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
            .map(|line| EngineLine { depth, score: line.score, moves: line.pv })
            .collect()
    };
    Analysis { id: request.id, nodes: result.info.nodes, lines }
}

/// Answers a request that is one search or one task (a ponder is answered slice by slice: see
/// [`ponder_slice`]). `stop` ends a search early; a think or an analysis searches only `share`
/// of the moves when given one.
#[must_use]
pub fn respond(
    request: WorkerRequest,
    share: Option<RootShare>,
    now: &dyn Fn() -> f64,
    stop: &AtomicBool,
) -> WorkerReply {
    match request {
        WorkerRequest::Think(request) => WorkerReply::Think(think(&request, share, now, stop)),
        WorkerRequest::Analyse(request) => {
            WorkerReply::Analysis(analyse(&request, share, now, stop))
        }
        WorkerRequest::Ponder(request) => {
            // One go, for callers that do not slice (the worker does).
            let game = request.record.replay(usize::MAX).game;
            let mut so_far = Pondered::default();
            while !so_far.done {
                ponder_slice(&request, &game, &mut so_far, 1_000.0, now, stop);
            }
            WorkerReply::Pondered(pondered_reply(request.id, &so_far))
        }
        WorkerRequest::Task(request) => WorkerReply::Task(crate::chores::answer(request)),
    }
}

/// A ponder's reply: its depth, nodes and time (no move: the page asks for that with the
/// person's actual move).
#[must_use]
pub fn pondered_reply(id: u64, pondered: &Pondered) -> ThinkReply {
    ThinkReply {
        id,
        best: None,
        depth: pondered.depth,
        nodes: pondered.nodes,
        time_ms: pondered.time_ms.round() as u64,
        ponder: None,
        score: None,
    }
}

/// Runs a whole review here, one search after another (the page runs the same jobs in its
/// worker): for `qi review` and the tests. `now` is a clock in milliseconds; `None` when a
/// move of the record does not replay.
#[must_use]
pub fn review_game(record: &GameRecord, budgets: Budgets, now: &dyn Fn() -> f64) -> Option<Review> {
    let mut review = Review::of(0, record)?;
    review.budgets = budgets;
    let stop = AtomicBool::new(false);
    while let Some(job) = review.next_job() {
        let request = review.request(job)?;
        let evaluation = Evaluation::of(analyse(&request, None, now, &stop))?;
        review.record(job, evaluation);
    }
    Some(review)
}

#[cfg(test)]
mod tests {
    use super::*;
    use qi_ai::Score;
    use qi_rules::GameKind;
    use qi_tasks::codec::round_trip;
    use qi_tasks::think::{merge_analysis, merge_think};

    /// A move's coordinates, for comparing with the moves a position is known for.
    fn text(mv: Option<&AnyMove>) -> Option<String> {
        mv.map(ToString::to_string)
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
            let request = round_trip(&request).expect("reads back");
            let stop = AtomicBool::new(false);
            let reply = round_trip(&analyse(&request, None, &clock, &stop)).expect("a reply");
            assert_eq!(reply.id, 5);
            assert!(reply.nodes > 0, "no nodes counted");
            reply.best().cloned().expect("a line")
        };
        // Black's queen on d5 hangs to the knight on c3.
        let hung = analyse_fen("rnb1kbnr/ppp1pppp/8/3q4/8/2N5/PPPP1PPP/R1BQKBNR w KQkq - 0 3");
        assert_eq!(text(hung.moves.first()).as_deref(), Some("c3d5"));
        assert!(matches!(hung.score, Score::Cp(cp) if cp > 500), "{:?}", hung.score);
        let mate = analyse_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
        assert_eq!(text(mate.moves.first()).as_deref(), Some("a1a8"));
        assert_eq!(mate.score, Score::Mate(1));
    }

    #[test]
    fn a_search_in_shares_answers_the_best_move_of_them_all() {
        let clock = qi_ai::search::native_clock();
        let stop = AtomicBool::new(false);
        // Black's queen on d5 hangs to the knight on c3: whichever share has the capture, the
        // merged answer is it, as a think and as an analysis.
        let record = GameRecord::from_parts(
            GameKind::Chess,
            String::new(),
            qi_play::record::Start::Position(
                "rnb1kbnr/ppp1pppp/8/3q4/8/2N5/PPPP1PPP/R1BQKBNR w KQkq - 0 3".into(),
            ),
            Vec::new(),
        );
        for parts in [2, 3] {
            let request = ThinkRequest { id: 4, level: 4, seed: 1, record: record.clone() };
            let replies: Vec<ThinkReply> = (0..parts)
                .map(|part| {
                    let reply = think(&request, RootShare::new(part, parts), &clock, &stop);
                    round_trip(&reply).expect("reads back")
                })
                .collect();
            let merged = merge_think(4, &replies);
            assert_eq!(text(merged.best.as_ref()).as_deref(), Some("c3d5"), "{replies:?}");
            assert_eq!(merged.nodes, replies.iter().map(|r| r.nodes).sum::<u64>());
            let others =
                replies.iter().filter(|r| text(r.best.as_ref()).as_deref() != Some("c3d5"));
            assert!(others.into_iter().all(|r| r.score < merged.score), "{replies:?}");
            let request =
                AnalyseRequest { id: 6, budget_ms: 300, lines: 3, record: record.clone() };
            let analyses: Vec<Analysis> = (0..parts)
                .map(|part| analyse(&request, RootShare::new(part, parts), &clock, &stop))
                .collect();
            let merged = merge_analysis(6, 3, &analyses);
            assert_eq!(merged.nodes, analyses.iter().map(|a| a.nodes).sum::<u64>());
            let firsts: Vec<String> = merged.lines.iter().map(|l| l.moves[0].to_string()).collect();
            assert_eq!(firsts.len(), 3);
            assert_eq!(firsts[0], "c3d5");
            assert!(merged.lines.windows(2).all(|w| w[0].score >= w[1].score), "{merged:?}");
        }
        // A share with no move (one legal move in all) gives way to the one that has it; no
        // share with one is the game's end.
        let escape = record.replay(usize::MAX).game.legal_move_values()[0];
        let with =
            ThinkReply { best: Some(escape), score: Some(Score::Cp(-900)), ..ThinkReply::none(1) };
        let merged = merge_think(9, &[ThinkReply::none(1), with]);
        assert_eq!((merged.id, merged.best), (9, Some(escape)));
        assert_eq!(merge_think(9, &[ThinkReply::none(1), ThinkReply::none(2)]).best, None);
        let over = Analysis {
            id: 1,
            nodes: 1,
            lines: vec![EngineLine { depth: 0, score: Score::Mate(0), moves: Vec::new() }],
        };
        assert_eq!(merge_analysis(2, 1, &[over.clone(), over.clone()]).lines, over.lines);
    }

    #[test]
    fn the_worker_answers_with_a_legal_move() {
        let clock = qi_ai::search::native_clock();
        let record = GameRecord::new(GameKind::Gomoku, "", 0);
        let request = ThinkRequest { id: 1, level: 1, seed: 5, record: record.clone() };
        let stop = AtomicBool::new(false);
        let reply = round_trip(&think(&request, None, &clock, &stop)).unwrap();
        assert_eq!(reply.id, 1);
        let mut game = record.start_game();
        assert!(game.apply(reply.best.unwrap()).is_ok());
    }

    /// The kept engine's nodes for a search of `record` to `depth` plies at `strength`.
    fn nodes_to_depth(record: &GameRecord, strength: Strength, depth: u32) -> u64 {
        let clock = qi_ai::search::native_clock();
        let stop = AtomicBool::new(false);
        let game = record.replay(usize::MAX).game;
        let limits = Limits { depth: Some(depth), ..Limits::default() };
        with_kept_engine(record, strength, |engine, _| {
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

    /// A clock that moves `step` milliseconds each time it is read: searches as long as the
    /// nodes they visit, whatever the machine.
    fn stepping_clock(step: f64) -> impl Fn() -> f64 {
        let at = std::cell::Cell::new(0.0);
        move || {
            at.set(at.get() + step);
            at.get()
        }
    }

    fn chess_game(moves: &[&str]) -> GameRecord {
        let mut record = GameRecord::new(GameKind::Chess, "", 0);
        record.moves = moves.iter().map(|m| (*m).to_owned()).collect();
        record
    }

    /// Level 5's search of `record` with the kept engine (no time limit in effect).
    fn level_five(record: &GameRecord) -> ThinkReply {
        let stop = AtomicBool::new(false);
        let request = ThinkRequest { id: 1, level: 5, seed: 3, record: record.clone() };
        think(&request, None, &stepping_clock(1e-6), &stop)
    }

    #[test]
    fn a_ponder_hit_searches_deeper_and_a_ponder_never_outgrows_its_level() {
        let (before, expected) = (["e2e4", "c7c5", "g1f3"], "d7d6");
        let hit = chess_game(&[before.as_slice(), &[expected]].concat());
        let other = chess_game(&["d2d4"]);
        // Level 5 without pondering (another game first, so the engine starts empty).
        level_five(&other);
        let fresh = level_five(&hit);
        // Level 5 after pondering the expected reply, in 30 ms slices as the worker runs them.
        level_five(&other);
        let request = PonderRequest { id: 2, level: 5, seed: 3, record: hit.clone() };
        let game = hit.replay(usize::MAX).game;
        let (clock, stop) = (stepping_clock(1.0), AtomicBool::new(false));
        let mut pondered = Pondered::default();
        let mut slices = 0;
        while !pondered.done {
            ponder_slice(&request, &game, &mut pondered, 30.0, &clock, &stop);
            slices += 1;
        }
        assert!(slices > 10, "pondered in slices: {slices}");
        // Level 5 ponders one search's worth of nodes, no more.
        let budget = qi_ai::level::settings(GameKind::Chess, Level::new(5)).limits.nodes.unwrap();
        assert!(pondered.nodes <= budget, "{} nodes pondered", pondered.nodes);
        assert!(pondered.nodes > budget / 2, "{} nodes pondered", pondered.nodes);
        let after = level_five(&hit);
        assert!(
            after.depth > fresh.depth,
            "after pondering: depth {} against {} fresh",
            after.depth,
            fresh.depth
        );
    }

    #[test]
    fn a_ponder_miss_keeps_the_table_and_a_jump_clears_it() {
        let searched = |moves: &[&str], strength| Searched::of(&chess_game(moves), strength);
        let pondered = searched(&["e2e4", "c7c5", "g1f3", "d7d6"], Strength::Full);
        let played = searched(&["e2e4", "c7c5", "g1f3", "b8c6"], Strength::Full);
        assert!(pondered.continued_by(&played), "the person played another reply");
        assert!(played.continued_by(&searched(&["e2e4", "c7c5"], Strength::Full)), "taken back");
        assert!(
            !pondered.continued_by(&searched(&["e2e4", "e7e5", "g1f3", "d7d6"], Strength::Full))
        );
        assert!(!pondered.continued_by(&searched(&["d2d4"], Strength::Full)), "another game");
        assert!(
            !searched(&["e2e4"], Strength::Full).continued_by(&searched(&["d2d4"], Strength::Full)),
            "two one-move games are two games"
        );
        assert!(
            !pondered
                .continued_by(&searched(&["e2e4", "c7c5", "g1f3", "d7d6"], Strength::Level(5)))
        );
    }

    #[test]
    fn a_ponder_ends_at_a_levels_depth_limit() {
        // Level 3 searches to depth 4: slices that would start past it end the ponder.
        let record = chess_game(&["e2e4", "e7e5"]);
        let request = PonderRequest { id: 1, level: 3, seed: 2, record: record.clone() };
        let game = record.replay(usize::MAX).game;
        let (clock, stop) = (stepping_clock(1.0), AtomicBool::new(false));
        let mut pondered = Pondered::default();
        for _ in 0..100 {
            if pondered.done {
                break;
            }
            ponder_slice(&request, &game, &mut pondered, 30.0, &clock, &stop);
        }
        assert!(pondered.done, "{pondered:?}");
        assert!(pondered.depth <= 4, "{pondered:?}");
        // A game that is over has nothing to ponder.
        let mate = chess_game(&["f2f3", "e7e5", "g2g4", "d8h4"]);
        let request = PonderRequest { id: 2, level: 6, seed: 2, record: mate.clone() };
        let mut pondered = Pondered::default();
        ponder_slice(&request, &mate.replay(usize::MAX).game, &mut pondered, 30.0, &clock, &stop);
        assert!(pondered.done && pondered.nodes == 0, "{pondered:?}");
    }

    #[test]
    fn a_stopped_search_answers_at_once_and_a_stopped_ponder_is_done() {
        let stop = AtomicBool::new(true);
        let record = chess_game(&["e2e4"]);
        let request = ThinkRequest { id: 4, level: 6, seed: 1, record: record.clone() };
        let clock = qi_ai::search::native_clock();
        let reply = think(&request, None, &clock, &stop);
        assert!(reply.nodes < 5_000, "{} nodes after the stop", reply.nodes);
        let request = PonderRequest { id: 5, level: 6, seed: 1, record: record.clone() };
        let mut pondered = Pondered::default();
        ponder_slice(&request, &record.replay(usize::MAX).game, &mut pondered, 30.0, &clock, &stop);
        assert!(pondered.done);
    }

    #[test]
    fn the_engine_reviews_a_game_and_confirms_a_hung_queen() {
        let start = std::time::Instant::now();
        let now = move || start.elapsed().as_secs_f64() * 1000.0;
        let budgets = Budgets { position_ms: 100, check_ms: 200 };
        let record = chess_game(&["e2e4", "e7e5", "g1f3", "d8g5", "f3g5"]);
        let review = review_game(&record, budgets, &now).unwrap();
        assert!(review.finished());
        assert_eq!(review.evaluations.len(), 6);
        let judged = review.judgements();
        assert_eq!(judged.len(), 5);
        assert_eq!(judged[3].judgement, qi_ai::review::Judgement::Blunder, "{judged:?}");
        let check = review.checks[3].as_ref().expect("the blunder was checked");
        assert!(check.played.is_some() && check.engine.is_some());
        assert_eq!(check.engine_choice, review.evaluations[3].best);
    }
}
