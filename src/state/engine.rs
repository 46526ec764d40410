//! The engine's slice of the page's state: the computer's request in flight, the hint, the
//! analysis, the review and the named opening, with the actions that change them. What the
//! slice cannot know itself (the moves shown, the game as it stands) the page's reducer passes
//! in; what an answer does to the game (the computer's move, a review's marks) the page's
//! reducer does.

use std::rc::Rc;

use qi_play::openings::Opening;
use qi_play::record::GameRecord;
use qi_rules::any::AnyMove;
use qi_rules::gomoku::GomokuMove;
use qi_tasks::review::{Evaluation, Job, Review};
use qi_tasks::think::Analysis;

use super::{AppState, Mode, Notice, PlayState};

/// What the computer's last search did, for the status panel.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct SearchSummary {
    /// Depth reached.
    pub depth: u32,
    /// Nodes visited.
    pub nodes: u64,
    /// Milliseconds.
    pub time_ms: u64,
}

impl SearchSummary {
    /// Nodes per second (whole numbers: no float formatting in the page's wasm, see `decimal`).
    #[must_use]
    pub fn nodes_per_second(&self) -> u64 {
        self.nodes.saturating_mul(1000) / self.time_ms.max(1)
    }
}

/// A suggested move: where from (none for a gomoku stone) and where to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HintMove {
    /// The starting cell.
    pub from: Option<qi_rules::Cell>,
    /// The destination.
    pub to: qi_rules::Cell,
    /// A gomoku opening's step made with a button, not on the board (a colour, a number of
    /// fifth stones): the button is marked instead.
    pub step: Option<GomokuMove>,
}

/// The engine's slice: what the page asked of the engine and what it answered.
#[derive(Clone, Debug)]
pub struct EngineState {
    /// The computer's request in flight: its id, and whether it is for a hint.
    pub thinking: Option<(u64, bool)>,
    /// Where the computer's engine stopped without giving its move ([`Notice::EngineStopped`]):
    /// the main line's length and the position's hash. The computer is not asked again there
    /// until the player says so ([`EngineAction::AskComputerAgain`]), else a worker that cannot
    /// run would be made again and again. A new or opened game starts without it; any other
    /// position is asked as usual.
    pub stopped_at: Option<(usize, u64)>,
    /// The id the next request gets.
    pub next_request: u64,
    /// The move the hint button suggests, shown on the board.
    pub hint: Option<HintMove>,
    /// Whether the engine analyses the position shown ("Analyse").
    pub analysing: bool,
    /// The engine's latest view of a position, and which position (its moves from the start).
    pub analysis: Option<(Vec<String>, Analysis)>,
    /// The game review under way or done (shown while the main line is the one reviewed).
    pub review: Option<Rc<Review>>,
    /// The named opening the worker found, and the moves it was found for (see
    /// [`PlayState::opening_key`]); `None` in the second place when no position is named.
    pub opening: Option<(Vec<String>, Option<Opening>)>,
    /// The id the next review gets.
    pub next_review: u64,
    /// What the computer's last search did.
    pub last_search: Option<SearchSummary>,
}

impl Default for EngineState {
    fn default() -> EngineState {
        EngineState {
            thinking: None,
            stopped_at: None,
            next_request: 1,
            hint: None,
            analysing: false,
            analysis: None,
            review: None,
            opening: None,
            next_review: 1,
            last_search: None,
        }
    }
}

/// What happens to the engine's slice: the page's requests and the worker's answers.
#[derive(Clone, Debug, PartialEq)]
pub enum EngineAction {
    /// A request to the computer was sent: for its move, or for a hint.
    StartThinking {
        /// The request's id (the slice's `next_request`).
        id: u64,
        /// Whether it is a hint for the player.
        hint: bool,
    },
    /// The computer answered.
    ComputerAnswer {
        /// The request answered.
        id: u64,
        /// Its move.
        best: Option<AnyMove>,
        /// What the search did.
        search: SearchSummary,
        /// The time, for the clocks (ms).
        now: f64,
    },
    /// Ask the computer again for the move its engine did not give ([`Notice::EngineStopped`]).
    AskComputerAgain,
    /// Turn the engine's analysis of the position shown on or off.
    ToggleAnalysis,
    /// The engine's analysis of a position (given by its moves from the start).
    AnalysisAnswer {
        /// The moves from the start to the position analysed.
        moves: Vec<String>,
        /// What the engine found.
        analysis: Analysis,
    },
    /// The named opening of the main line's first moves (`moves`), from the worker.
    OpeningFound {
        /// The moves asked about.
        moves: Vec<String>,
        /// The opening, if a position along them is named.
        opening: Option<Opening>,
    },
    /// Review the game: every position of the main line analysed, each move judged.
    StartReview,
    /// Stop the review under way (what it found so far stays).
    CancelReview,
    /// The engine's evaluation of one position of a review.
    ReviewAnswer {
        /// The review asked for.
        id: u64,
        /// The search answered (a position of the main line, or one a move is checked by).
        job: Job,
        /// What the engine found.
        evaluation: Evaluation,
    },
}

impl EngineAction {
    /// Whether this is the player's own act (a button), not the engine's answer.
    pub(super) fn is_players_act(&self) -> bool {
        matches!(
            self,
            EngineAction::ToggleAnalysis
                | EngineAction::StartReview
                | EngineAction::StartThinking { hint: true, .. }
        )
    }
}

impl EngineState {
    /// The slice for a new game: request ids keep counting, so an answer meant for the old
    /// game is never taken.
    #[must_use]
    pub fn after(&self) -> EngineState {
        EngineState { next_request: self.next_request, ..EngineState::default() }
    }

    /// Takes a request's answer: the hint (and whether the request was for one), when it is the
    /// request in flight; `None` for any other.
    fn take_answer(&mut self, id: u64, search: SearchSummary) -> Option<bool> {
        let (waiting, hint) = self.thinking?;
        if waiting != id {
            return None;
        }
        self.thinking = None;
        self.last_search = Some(search);
        Some(hint)
    }

    /// The named opening, when it was found for the first moves of `key` (see
    /// [`PlayState::shown_opening`]).
    fn opening_along(&self, key: Option<&[String]>) -> Option<&Opening> {
        let (moves, opening) = self.opening.as_ref()?;
        key.is_some_and(|key| key.starts_with(moves)).then_some(opening.as_ref()).flatten()
    }

    /// The review of `moves`, when there is one.
    fn review_of(&self, moves: &[String]) -> Option<&Review> {
        self.review.as_deref().filter(|review| review.moves == moves)
    }

    /// Starts a review of `record` (or goes on with a cancelled one of the same moves).
    fn start_review(&mut self, record: &GameRecord) {
        if self.review_of(&record.moves).is_some_and(Review::running) {
            return;
        }
        // A cancelled review of this game goes on from where it stopped.
        let unfinished = |r: &Rc<Review>| r.moves == record.moves && !r.finished();
        if let Some(review) = self.review.as_mut().filter(|r| unfinished(r)) {
            Rc::make_mut(review).cancelled = false;
            return;
        }
        let Some(review) = Review::of(self.next_review, record) else { return };
        self.next_review += 1;
        self.review = Some(Rc::new(review));
    }

    /// Takes a review's answer; returns the review when this answer finished it.
    fn take_review_answer(&mut self, id: u64, job: Job, evaluation: Evaluation) -> Option<&Review> {
        // Copied (if shared) only when the answer is taken.
        let review =
            self.review.as_mut().filter(|r| r.id == id && r.running()).map(Rc::make_mut)?;
        review.record(job, evaluation);
        review.finished().then_some(&*review)
    }
}

impl AppState {
    /// The engine slice's actions, with what they do to the game.
    pub(super) fn apply_engine(&mut self, action: EngineAction) {
        match action {
            EngineAction::StartThinking { id, hint } => {
                self.engine.thinking = Some((id, hint));
                self.engine.next_request = self.engine.next_request.max(id + 1);
            }
            EngineAction::ComputerAnswer { id, best, search, now } => {
                self.answer(id, best, search, now);
            }
            EngineAction::AskComputerAgain => {
                self.engine.stopped_at = None;
                if self.notice == Some(Notice::EngineStopped) {
                    self.play_mut().notice = None;
                }
            }
            EngineAction::ToggleAnalysis => {
                self.engine.analysing = !self.engine.analysing;
                self.engine.analysis = None;
            }
            EngineAction::AnalysisAnswer { moves, analysis } => {
                if self.engine.analysing && moves == self.play.shown_moves() {
                    self.engine.analysis = Some((moves, analysis));
                }
            }
            EngineAction::OpeningFound { moves, opening } => {
                if self.play.opening_key().as_ref() == Some(&moves) {
                    self.engine.opening = Some((moves, opening));
                }
            }
            EngineAction::StartReview => {
                if self.review_allowed() {
                    self.engine.start_review(&self.play.record);
                }
            }
            EngineAction::CancelReview => {
                if let Some(review) = &mut self.engine.review {
                    Rc::make_mut(review).cancelled = true;
                }
            }
            EngineAction::ReviewAnswer { id, job, evaluation } => {
                self.review_answer(id, job, evaluation);
            }
        }
    }

    /// Whether the computer is to be asked for its move now: it should move, and its engine
    /// did not stop without a move here ([`EngineState::stopped_at`]).
    #[must_use]
    pub fn computer_to_be_asked(&self) -> bool {
        self.computer_should_move() && self.engine.stopped_at != Some(self.position_key())
    }

    /// The computer's answer: a hint is shown, a move is played (when the computer should
    /// still move).
    fn answer(&mut self, id: u64, best: Option<AnyMove>, search: SearchSummary, now: f64) {
        let Some(hint) = self.engine.take_answer(id, search) else { return };
        let Some(mv) = best else {
            // No move for a move that is due: the engine failed (the page already asked a new
            // one once). Without a word the computer's turn would wait for ever.
            if !hint && self.computer_should_move() {
                self.play_mut().notice = Some(Notice::EngineStopped);
                self.engine.stopped_at = Some(self.play.position_key());
            }
            return;
        };
        if hint {
            self.engine.hint = self.play.cells_of(mv);
        } else if self.computer_should_move() {
            let before = self.record.moves.len();
            // Through the rules like any move: one they refuse is said, not played.
            let beside = self.beside(Some(now));
            let happened = self.play_mut().reporting(|play| play.play_move(mv, beside));
            self.follow(happened, Some(now));
            self.play_mut().computer_moved = self.record.moves.len() > before;
        }
    }
}

impl PlayState {
    /// The main line's first moves, up to the deepest a named opening goes, for the games that
    /// name their openings (chess, xiangqi); `None` before the first move.
    #[must_use]
    pub fn opening_key(&self) -> Option<Vec<String>> {
        /// Deeper than any line of the books (lichess's longest is 36 plies).
        const BOOK_PLIES: usize = 40;
        let named =
            matches!(self.record.kind, qi_rules::GameKind::Chess | qi_rules::GameKind::Xiangqi);
        (named && !self.record.moves.is_empty())
            .then(|| self.record.moves.iter().take(BOOK_PLIES).cloned().collect())
    }

    /// Whether the status keeps a line for the opening's name: in the games that name their
    /// openings, from the first move on, named yet or not. The line is there in the same frame
    /// as the move, so the name, which comes from the worker a moment later, moves nothing below
    /// it (a button about to be clicked, say).
    #[must_use]
    pub fn holds_opening_line(&self) -> bool {
        self.opening_key().is_some()
    }

    /// Whether the game may be reviewed now: it has moves, and the computer is not playing it
    /// (the game is over, or two players share the device).
    #[must_use]
    pub fn review_allowed(&self) -> bool {
        !self.record.moves.is_empty()
            && (self.result().is_some() || self.settings.mode == Mode::HotSeat)
    }

    /// Where a move starts and ends on the board; `None` when it is not a move here.
    pub(super) fn cells_of(&self, mv: AnyMove) -> Option<HintMove> {
        let mut game = (*self.game).clone();
        game.apply(mv).ok()?;
        let cells = game.last_move()?;
        let step = match mv {
            AnyMove::Gomoku(step @ (GomokuMove::Take(_) | GomokuMove::Declare(_))) => Some(step),
            _ => None,
        };
        Some(HintMove { from: cells.from, to: cells.to, step })
    }
}

impl AppState {
    /// Whether the engine may analyse now: turned on, and not competing with the computer's own
    /// thinking (a past position, a variation, a finished game, or two players on one device).
    #[must_use]
    pub fn analysis_allowed(&self) -> bool {
        self.engine.analysing
            && (self.viewing.is_some()
                || self.result().is_some()
                || self.settings.mode == Mode::HotSeat)
    }

    /// The analysis of the position shown, when there is one.
    #[must_use]
    pub fn shown_analysis(&self) -> Option<&Analysis> {
        let (moves, analysis) = self.engine.analysis.as_ref()?;
        (self.analysis_allowed() && *moves == self.shown_moves()).then_some(analysis)
    }

    /// The named opening of the game as it stands, when the worker has found one. While the
    /// worker is asked about the latest move, the name it gave for the line before it stays (a
    /// line that goes on keeps its name until a deeper one is found), so the name does not
    /// blink out at every move; after an undo, the longer line's name is not shown.
    #[must_use]
    pub fn shown_opening(&self) -> Option<&Opening> {
        self.engine.opening_along(self.play.opening_key().as_deref())
    }

    /// The review of the game as it stands, when there is one (a review of a main line that has
    /// since changed is not shown).
    #[must_use]
    pub fn current_review(&self) -> Option<&Review> {
        self.engine.review_of(&self.record.moves)
    }

    /// Takes a review's answer; when it is the last, the weak moves get their marks (`?!`, `?`,
    /// `??`) where the player put no move mark of their own.
    fn review_answer(&mut self, id: u64, job: Job, evaluation: Evaluation) {
        let Some(review) = self.engine.take_review_answer(id, job, evaluation) else { return };
        if review.moves != self.play.record.moves {
            return;
        }
        let marks: Vec<(usize, qi_play::Mark)> = review
            .judgements()
            .iter()
            .enumerate()
            .filter_map(|(index, judged)| {
                Some((index + 1, qi_tasks::review::mark_for(judged.judgement)?))
            })
            .collect();
        for (ply, mark) in marks {
            let marks = self.play_mut().record_mut().marks.entry(ply).or_default();
            if !marks.iter().any(|m| m.kind() == qi_play::MarkKind::Move) {
                qi_play::mark::toggle(marks, mark);
            }
        }
    }
}
