//! The page's effects as hooks: each connects one part of the state to the browser (storage,
//! the title, the address, the keys, the clock, the worker's analysis, opening and review).

use yew::prelude::*;

use qi_play::record::{GameRecord, storage_key};
use qi_tasks::review::Evaluation;
use qi_tasks::think::{AnalyseRequest, MAX_LINES, WorkerReply, WorkerRequest};

use super::{ANALYSIS_BUDGETS_MS, CLOCK_TICK_MS, SETTINGS_KEY, address_query, open_address};
use crate::components::StateCell;
use crate::state::{Action, EngineAction, Theme};
use crate::web;

/// The page's state as its hooks take it.
type State = UseReducerHandle<StateCell>;

/// Remember the settings, and tell the document its language and theme.
#[hook]
pub fn use_stored_settings(state: &State) {
    {
        let settings = state.settings.clone();
        use_effect_with(settings, |settings| {
            web::save(SETTINGS_KEY, &settings.to_storage());
            let theme = if settings.theme == Theme::Dark { "dark" } else { "light" };
            web::set_document_attributes(settings.lang.tag(), theme);
            crate::worker::set_threads(settings.engine_threads);
        });
    }
}

/// The tab's title says when it is the person's move, and the result. Keep the game, so a
/// reload goes on with it.
#[hook]
pub fn use_title_and_saved_game(state: &State) {
    {
        let title = crate::components::status::page_title(state);
        use_effect_with(title, |title| {
            web::set_title(title);
            // The icon too: a tab in the background still says whose move it is.
            web::set_turn_icon(title.starts_with('●'));
        });
    }

    {
        let record = state.record.clone();
        use_effect_with(record, |record| web::save(&storage_key(record.kind), &record.to_text()));
    }
}

/// What the address bar shows, for the browser's history.
struct HistorySync {
    /// The game (its [`crate::state::PlayState::game_number`]) whose entry the address is.
    shown: Option<u64>,
    /// Whether the back or forward button opened the game being shown.
    opened_from_history: bool,
}

/// The address carries the game: replaced after every move, a new history entry for a new game,
/// and the back and forward buttons open the game they lead to.
#[hook]
pub fn use_address_sync(state: &State) {
    let history = use_mut_ref(|| HistorySync { shown: None, opened_from_history: false });
    {
        let history = history.clone();
        let key = (state.record.clone(), state.flipped, state.game_number);
        use_effect_with(key, move |(record, flipped, game_number)| {
            let query = address_query(record, *flipped);
            let mut history = history.borrow_mut();
            // The first game of the page, and a game the back or forward button opened, take
            // the entry they are in; another game is a new entry.
            let new_entry = history.shown.is_some_and(|shown| shown != *game_number)
                && !history.opened_from_history;
            let current = web::location_query();
            if current.strip_prefix('?').unwrap_or(&current) != query {
                web::set_query(&query, new_entry);
            }
            history.shown = Some(*game_number);
            history.opened_from_history = false;
        });
    }
    {
        let dispatcher = state.dispatcher();
        let kind = use_mut_ref(|| state.settings.kind);
        *kind.borrow_mut() = state.settings.kind;
        let history = history.clone();
        use_effect_with((), move |()| {
            let stop = web::on_history_change(move || {
                if let Some(action) = open_address(*kind.borrow()) {
                    history.borrow_mut().opened_from_history = true;
                    dispatcher.dispatch(action);
                }
            });
            move || {
                if let Some(stop) = stop {
                    stop();
                }
            }
        });
    }
}

/// ←/→ step through the moves, ↑/↓ and Home/End jump to the start and the end.
#[hook]
pub fn use_move_keys(state: &State) {
    {
        let dispatcher = state.dispatcher();
        use_effect_with((), move |()| {
            let stop = web::on_move_keys(move |key| {
                dispatcher.dispatch(crate::components::move_key_action(key));
            });
            move || {
                if let Some(stop) = stop {
                    stop();
                }
            }
        });
    }
}

/// The person's turn came with a move queued (a premove): play it at once.
#[hook]
pub fn use_premove(state: &State) {
    {
        let ready = state.premove.is_some() && state.viewing.is_none() && state.accepts_moves();
        let dispatcher = state.dispatcher();
        use_effect_with((ready, state.record.moves.len()), move |(ready, _)| {
            if *ready {
                dispatcher.dispatch(Action::PlayPremove { now: web::now_ms() });
            }
        });
    }
}

/// While a clock runs: redraw it and let a flag fall. Returns the time of the last redraw (ms).
#[hook]
pub fn use_clock(state: &State) -> f64 {
    let now = use_state(web::now_ms);
    {
        let running =
            state.clocks.as_ref().is_some_and(|c| c.running.is_some()) && state.result().is_none();
        let dispatcher = state.dispatcher();
        let now = now.clone();
        use_effect_with(running, move |running| {
            let stop = running.then(|| {
                web::interval(CLOCK_TICK_MS, move || {
                    let time = web::now_ms();
                    now.set(time);
                    dispatcher.dispatch(Action::Tick { now: time });
                })
            });
            move || {
                if let Some(Some(stop)) = stop {
                    stop();
                }
            }
        });
    }
    *now
}

/// Analysis: the engine searches the position shown, longer each time (the worker's engine
/// keeps its table from one to the next), while the position stays and the page is visible.
#[hook]
pub fn use_analysis(state: &State) {
    let analysis_run = use_mut_ref(|| 0_u64);
    let analysis_seq = use_mut_ref(|| None::<u64>);
    {
        let allowed = state.analysis_allowed();
        let moves = if allowed { state.shown_moves() } else { Vec::new() };
        let key = (allowed, moves);
        let (record, dispatcher, run, seq) =
            (state.record.clone(), state.dispatcher(), analysis_run.clone(), analysis_seq.clone());
        use_effect_with(key, move |(allowed, moves)| {
            // The last position's search is not wanted any more.
            if let Some(seq) = seq.borrow_mut().take() {
                crate::worker::cancel(seq);
            }
            *run.borrow_mut() += 1;
            let this_run = *run.borrow();
            if *allowed {
                let moves = moves.clone();
                let mut position = GameRecord::from_parts(
                    record.kind,
                    record.rules.clone(),
                    record.start.clone(),
                    moves.clone(),
                );
                position.ending = None;
                let run = run.clone();
                yew::platform::spawn_local(async move {
                    for (step, budget_ms) in ANALYSIS_BUDGETS_MS.into_iter().enumerate() {
                        if *run.borrow() != this_run || web::page_hidden() {
                            return;
                        }
                        let id = this_run * 16 + step as u64;
                        let request = AnalyseRequest {
                            id,
                            budget_ms,
                            lines: MAX_LINES,
                            record: position.clone(),
                        };
                        let asked = crate::worker::ask(WorkerRequest::Analyse(request));
                        *seq.borrow_mut() = Some(asked.seq());
                        let reply = asked.answer().await;
                        let Some(analysis) =
                            reply.and_then(WorkerReply::analysis).filter(|a| a.id == id)
                        else {
                            return;
                        };
                        if *run.borrow() != this_run {
                            return;
                        }
                        dispatcher.dispatch(Action::Engine(EngineAction::AnalysisAnswer {
                            moves: moves.clone(),
                            analysis,
                        }));
                    }
                });
            }
        });
    }
}

/// The named opening (chess, xiangqi): the worker holds the books, asked whenever the main
/// line's first moves change (not before the first move, so a fresh page loads no worker).
#[hook]
pub fn use_opening(state: &State) {
    {
        let key = state.opening_key();
        let (record, dispatcher) = (state.record.clone(), state.dispatcher());
        use_effect_with(key, move |key| {
            if let Some(moves) = key.clone() {
                let record = GameRecord::from_parts(
                    record.kind,
                    record.rules.clone(),
                    record.start.clone(),
                    moves.clone(),
                );
                yew::platform::spawn_local(async move {
                    let request = qi_tasks::tasks::TaskRequest::Opening { record };
                    let reply = crate::worker::run(WorkerRequest::Task(request)).await;
                    let opening = match reply.and_then(WorkerReply::task) {
                        Some(qi_tasks::tasks::TaskReply::Opening { opening, .. }) => Some(opening),
                        _ => None,
                    };
                    dispatcher
                        .dispatch(Action::Engine(EngineAction::OpeningFound { moves, opening }));
                });
            }
        });
    }
}

/// A review: one search at a time, the one the review says is due (a position of the main line,
/// or one a doubtful move is checked by). Each answer changes the job due, which runs this
/// again; a cancelled (or replaced) review stops between two searches.
#[hook]
pub fn use_review(state: &State) {
    let review_run = use_mut_ref(|| 0_u64);
    {
        let due = state
            .engine
            .review
            .as_ref()
            .filter(|r| r.running())
            .and_then(|r| Some((r.id, r.next_job()?)));
        let request = due.and_then(|(_, job)| state.engine.review.as_ref()?.request(job));
        let (dispatcher, run) = (state.dispatcher(), review_run.clone());
        use_effect_with(due, move |due| {
            *run.borrow_mut() += 1;
            let this_run = *run.borrow();
            if let (Some((id, job)), Some(request)) = (*due, request) {
                yew::platform::spawn_local(async move {
                    let wanted = request.id;
                    let reply = crate::worker::run(WorkerRequest::Analyse(request)).await;
                    if *run.borrow() != this_run {
                        return;
                    }
                    let Some(evaluation) = reply
                        .and_then(WorkerReply::analysis)
                        .filter(|a| a.id == wanted)
                        .and_then(Evaluation::of)
                    else {
                        return;
                    };
                    dispatcher.dispatch(Action::Engine(EngineAction::ReviewAnswer {
                        id,
                        job,
                        evaluation,
                    }));
                });
            }
        });
    }
}
