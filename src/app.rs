//! The app: the state, the effects that connect it to the browser (storage, the clock timer,
//! the document's language and theme), and the page layout.

use std::cell::RefCell;
use std::rc::Rc;

use qi_rules::{GameKind, Side};
use yew::prelude::*;

use crate::board::Board;
use crate::board_model::board_view;
use crate::components::clocks::{Clocks, clocks_view};
use crate::components::controls::{GameButtons, GamePicker, Options, game_buttons_view};
use crate::components::dialogs::{GameOver, PromotionDialog, game_over_view, promoting_colour};
use crate::components::move_list::MoveList;
use crate::components::records_dialog::RecordsDialog;
use crate::components::share::{Dialog, EmbedDialog, ShareButtons, ShareDialog};
use crate::components::status::{Status, status_view};
use crate::components::{SharedState, StateCell};
use crate::state::EngineAction;
use crate::state::TreeAction;
use crate::state::{
    Action, AppState, Mode, Notice, SearchSummary, Settings, Theme, WATCH_DELAYS_MS,
};
use qi_i18n::text::{Lang, Text, t};
use qi_play::link;
use qi_play::record::{GameRecord, storage_key};
use qi_tasks::review::Evaluation;
use qi_tasks::think::{
    AnalyseRequest, MAX_LINES, PonderRequest, ThinkReply, ThinkRequest, WorkerReply, WorkerRequest,
};

/// The analysis of a position: searches of these many milliseconds (for the three lines
/// together), one after the other. The first answers within half a second; each later one
/// starts from what the worker's engine kept of the last (its transposition table), so it goes
/// deeper; after about 40 s on one position the engine rests (the last answer stays shown). A
/// search for a position no longer shown is cancelled (see [`crate::worker`]).
const ANALYSIS_BUDGETS_MS: [u32; 6] = [400, 1500, 4000, 10_000, 10_000, 10_000];
use crate::web;

/// Where the settings are kept in localStorage.
const SETTINGS_KEY: &str = "qi.settings";
/// Where earlier versions kept the one game in progress (now each game has its own key,
/// [`storage_key`]); still read when the game to show has none.
const OLD_GAME_KEY: &str = "qi.game";
/// How often a running clock is redrawn and checked for a fallen flag.
const CLOCK_TICK_MS: i32 = 100;

/// The settings to start with: stored ones over the browser's language.
fn initial_settings() -> Settings {
    let lang = Lang::from_tag(&web::browser_language());
    let mut settings = match web::load(SETTINGS_KEY) {
        Some(text) => Settings::from_storage(&text, lang),
        None => {
            // A first visit on a touch screen: gomoku stones are placed by a second tap.
            let mut settings = Settings::new(lang);
            settings.confirm_stones = web::coarse_pointer();
            settings
        }
    };
    // `sr=1` in a link turns the screen-reader mode on (and it stays on, as a setting).
    let query = link::Query::parse(&web::location_query());
    if matches!(query.get("sr"), Some("1" | "on" | "true")) {
        settings.screen_reader = true;
    }
    // `lang=` in a link picks the language, as the loading message before the app already
    // does (and the embed's `lang=`); anything else there is ignored.
    if let Some(lang) = query.get("lang").and_then(Lang::from_link) {
        settings.lang = lang;
    }
    settings
}

/// The state to start with: the game in the page's address when it has one (a shared link, or
/// this page before a reload), else the saved game when it is of the game to show, else a new
/// one.
fn initial_state() -> AppState {
    let settings = initial_settings();
    if let Some(action) = open_address(settings.kind) {
        let mut state = AppState::new(settings, 0);
        state.apply(action);
        return state;
    }
    let saved = web::load(&storage_key(settings.kind))
        .or_else(|| web::load(OLD_GAME_KEY))
        .and_then(|text| GameRecord::from_text(&text));
    match saved {
        Some(record)
            if record.kind == settings.kind && record.rules == settings.rules_of(settings.kind) =>
        {
            AppState::restore(settings, record).0
        }
        _ => AppState::new(settings, web::random_seed()),
    }
}

/// The action that opens the game in the page's address, if it holds one.
fn open_address(fallback: GameKind) -> Option<Action> {
    let query = link::Query::parse(&web::location_query());
    let mut opened = link::read(&query, fallback)?;
    // The address carries the moves; this browser may keep the same game with its variations
    // and comments.
    if let Some(saved) =
        web::load(&storage_key(opened.record.kind)).and_then(|text| GameRecord::from_text(&text))
    {
        opened.record.adopt_notes(saved);
    }
    Some(Action::Open {
        record: opened.record,
        bottom: opened.view.orientation,
        at: opened.view.at,
        notice: opened.error.map(Notice::Link),
    })
}

/// The address-bar query for a game: the compact link and the side at the bottom.
fn address_query(record: &GameRecord, flipped: bool) -> String {
    let bottom = if flipped { Side::Second } else { Side::First };
    link::compact(record, &link::View { orientation: Some(bottom), at: None })
}

/// What the address bar shows, for the browser's history.
struct HistorySync {
    /// The game (its [`AppState::game_number`]) whose entry the address is.
    shown: Option<u64>,
    /// Whether the back or forward button opened the game being shown.
    opened_from_history: bool,
}

/// The whole app.
#[function_component(App)]
pub fn app() -> Html {
    use_effect_with((), |()| crate::worker::expose_for_tests());
    html! { <Page /> }
}

/// What the page has asked the engine and may take back: the computer's move (or a hint), and
/// the ponder after the computer's move.
#[derive(Default)]
struct EngineAsks {
    /// Counts the changes of the game that make earlier asks stale (see the computer's turn
    /// effect): an ask made after a pause checks it has not moved meanwhile.
    turn: u64,
    /// The request for the computer's move or a hint, while it may be unanswered.
    move_seq: Option<u64>,
    /// The ponder under way.
    ponder_seq: Option<u64>,
    /// What to ponder once the computer's move is on the board: the game with the reply the
    /// engine expects played last, at the level it played.
    expected: Option<PonderRequest>,
}

/// Sends a request to the worker and dispatches its answer; in watch mode after a pause, so
/// the moves can be followed.
fn ask_computer(state: &UseReducerHandle<StateCell>, asks: &Rc<RefCell<EngineAsks>>, hint: bool) {
    let id = state.engine.next_request;
    state.dispatch(Action::Engine(EngineAction::StartThinking { id, hint }));
    let level = if hint { 5 } else { state.settings.level };
    let request =
        ThinkRequest { id, level, seed: web::random_seed(), record: (*state.record).clone() };
    let watching = state.settings.mode == Mode::Watch;
    let pause = if watching && !hint {
        WATCH_DELAYS_MS[state.settings.watch_speed.min(WATCH_DELAYS_MS.len() - 1)]
    } else {
        0
    };
    // Against a person, a low level still takes a moment (see `least_answer_ms`).
    let least = if hint || watching { 0 } else { qi_settings::least_answer_ms(level) };
    // The engine thinks on the person's time against the person only.
    let may_ponder = !hint
        && matches!(state.settings.mode, Mode::VsComputer { .. })
        && qi_tasks::think::ponders(state.record.kind, level);
    let (dispatcher, asks) = (state.dispatcher(), asks.clone());
    let turn = asks.borrow().turn;
    yew::platform::spawn_local(async move {
        if pause > 0 {
            yew::platform::time::sleep(std::time::Duration::from_millis(u64::from(pause))).await;
            if asks.borrow().turn != turn {
                // The game changed during the pause: this move is not wanted. (An answer with
                // no move frees the state if it still waits for this one.)
                let search = SearchSummary { depth: 0, nodes: 0, time_ms: 0 };
                let now = web::now_ms();
                dispatcher.dispatch(Action::Engine(EngineAction::ComputerAnswer {
                    id,
                    best: None,
                    search,
                    now,
                }));
                return;
            }
        }
        let asked_at = web::now_ms();
        let record = request.record.clone();
        let mut reply = None;
        // No answer, and not cancelled (a cancel takes `move_seq` first): the worker failed (it
        // trapped, or could not load) and was dropped. A new one is asked once more, so a
        // worker's fault does not leave the computer's turn waiting for ever.
        for _ in 0..2 {
            let asked = crate::worker::ask(WorkerRequest::Think(request.clone()));
            let seq = asked.seq();
            asks.borrow_mut().move_seq = Some(seq);
            let answer = asked.answer().await;
            let failed = answer.is_none() && asks.borrow().move_seq == Some(seq);
            reply = answer.and_then(WorkerReply::think);
            if !failed {
                break;
            }
        }
        let reply = reply.unwrap_or(ThinkReply::none(id));
        let left = f64::from(least) - (web::now_ms() - asked_at);
        if left >= 1.0 {
            yew::platform::time::sleep(std::time::Duration::from_millis(left as u64)).await;
        }
        if may_ponder && let (Some(best), Some(expected)) = (&reply.best, &reply.ponder) {
            let mut record = record;
            record.moves.extend([best.clone(), expected.clone()]);
            record.ending = None;
            let seed = web::random_seed();
            asks.borrow_mut().expected = Some(PonderRequest { id, level, seed, record });
        }
        let search =
            SearchSummary { depth: reply.depth, nodes: reply.nodes, time_ms: reply.time_ms };
        dispatcher.dispatch(Action::Engine(EngineAction::ComputerAnswer {
            id,
            best: reply.best,
            search,
            now: web::now_ms(),
        }));
    });
}

/// Asks the worker to ponder `expected` if it is still the game (the computer's move is the last
/// on the board) against a person at a level that ponders, the page is visible and the battery
/// is not low.
fn start_pondering(
    state: &UseReducerHandle<StateCell>,
    asks: &Rc<RefCell<EngineAsks>>,
    expected: PonderRequest,
) {
    let still = matches!(state.settings.mode, Mode::VsComputer { .. })
        && state.settings.level == expected.level
        && qi_tasks::think::ponders(state.record.kind, expected.level);
    let on_board = still
        && state.viewing.is_none()
        && state.result().is_none()
        && expected.record.moves.len() == state.record.moves.len() + 1
        && expected.record.moves.starts_with(&state.record.moves)
        && expected.record.start == state.record.start;
    if on_board && !web::page_hidden() && !web::battery_low() {
        let asked = crate::worker::ask(WorkerRequest::Ponder(expected));
        asks.borrow_mut().ponder_seq = Some(asked.seq());
        // Its answer says only how deep it went: nothing to wait for.
        drop(asked);
    }
}

/// The page.
#[function_component(Page)]
fn page() -> Html {
    let state = use_reducer(|| StateCell(Rc::new(initial_state())));
    let now = use_state(web::now_ms);

    // Remember the settings, and tell the document its language and theme.
    {
        let settings = state.settings.clone();
        use_effect_with(settings, |settings| {
            web::save(SETTINGS_KEY, &settings.to_storage());
            let theme = if settings.theme == Theme::Dark { "dark" } else { "light" };
            web::set_document_attributes(settings.lang.tag(), theme);
            crate::worker::set_threads(settings.engine_threads);
        });
    }

    // Sounds: each change of the game that calls for one (a move, a capture, check, the end,
    // a refused move), at the chosen volume.
    crate::sound::use_game_sounds(state.0.clone(), true);

    // The tab's title says when it is the person's move, and the result.
    {
        let title = crate::components::status::page_title(&state);
        use_effect_with(title, |title| {
            web::set_title(title);
            // The icon too: a tab in the background still says whose move it is.
            web::set_turn_icon(title.starts_with('●'));
        });
    }

    // Keep the game, so a reload goes on with it.
    {
        let record = state.record.clone();
        use_effect_with(record, |record| web::save(&storage_key(record.kind), &record.to_text()));
    }

    // The address carries the game: replaced after every move, a new history entry for a new
    // game, and the back and forward buttons open the game they lead to.
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

    // ←/→ step through the moves, ↑/↓ and Home/End jump to the start and the end.
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

    // The person's turn came with a move queued (a premove): play it at once.
    {
        let ready = state.premove.is_some() && state.viewing.is_none() && state.accepts_moves();
        let dispatcher = state.dispatcher();
        use_effect_with((ready, state.record.moves.len()), move |(ready, _)| {
            if *ready {
                dispatcher.dispatch(Action::PlayPremove { now: web::now_ms() });
            }
        });
    }

    // The computer's turn: ask the worker. Any change of the game or the mode takes back what
    // was asked (a move no longer wanted, a ponder); the person's turn after the computer's
    // move starts a ponder at the levels that ponder.
    let asks = use_mut_ref(EngineAsks::default);
    {
        // The game, the mode or the result changed: what was asked for the game as it was
        // is not wanted any more.
        let game = (
            state.record.moves.len(),
            state.record.start.clone(),
            state.settings.mode,
            state.result().is_some(),
        );
        let asks = asks.clone();
        use_effect_with(game, move |_| {
            let (move_seq, ponder_seq) = {
                let mut asks = asks.borrow_mut();
                asks.turn += 1;
                (asks.move_seq.take(), asks.ponder_seq.take())
            };
            for seq in move_seq.into_iter().chain(ponder_seq) {
                crate::worker::cancel(seq);
            }
        });
    }
    {
        let should = state.computer_to_be_asked();
        let trigger =
            (should, state.record.moves.len(), state.record.start.clone(), state.settings.mode);
        let (state, asks) = (state.clone(), asks.clone());
        use_effect_with(trigger, move |(should, ..)| {
            let expected = asks.borrow_mut().expected.take();
            if *should {
                ask_computer(&state, &asks, false);
            } else if let Some(expected) = expected {
                start_pondering(&state, &asks, expected);
            }
        });
    }
    // A hidden page does not ponder.
    {
        let asks = asks.clone();
        use_effect_with((), move |()| {
            web::watch_battery();
            let stop = web::on_visibility_change(move || {
                if web::page_hidden()
                    && let Some(seq) = asks.borrow_mut().ponder_seq.take()
                {
                    crate::worker::cancel(seq);
                }
            });
            move || {
                if let Some(stop) = stop {
                    stop();
                }
            }
        });
    }
    // Analysis: the engine searches the position shown, longer each time (the worker's engine
    // keeps its table from one to the next), while the position stays and the page is visible.
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

    // The named opening (chess, xiangqi): the worker holds the books, asked whenever the main
    // line's first moves change (not before the first move, so a fresh page loads no worker).
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

    // A review: one search at a time, the one the review says is due (a position of the main
    // line, or one a doubtful move is checked by). Each answer changes the job due, which runs
    // this again; a cancelled (or replaced) review stops between two searches.
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

    let on_hint = {
        let (state, asks) = (state.clone(), asks.clone());
        Callback::from(move |()| ask_computer(&state, &asks, true))
    };

    // While a clock runs: redraw it and let a flag fall.
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

    let dispatch = {
        let state = state.clone();
        Callback::from(move |action: Action| state.dispatch(action))
    };
    let crate::components::BoardInput { on_click, on_pick, on_drop } =
        crate::components::board_input(&dispatch, web::now_ms);

    let on_shape = {
        let dispatch = dispatch.clone();
        Some(Callback::from(move |shape: qi_play::Shape| {
            dispatch.emit(Action::Tree(TreeAction::ToggleShape(shape)))
        }))
    };

    let dialog = use_state(|| None::<Dialog>);
    let open_dialog = {
        let dialog = dialog.clone();
        Callback::from(move |which: Dialog| dialog.set(Some(which)))
    };
    let close_dialog = {
        let dialog = dialog.clone();
        Callback::from(move |()| dialog.set(None))
    };

    let eval_graph = state.current_review().map(|review| {
        let shown = state
            .viewing
            .as_ref()
            .map_or(Some(state.record.moves.len()), |path| path.branches.is_empty().then_some(path.ply));
        let judgements = review.judgements().iter().map(|r| r.judgement).collect::<Vec<_>>();
        html! {
            <crate::components::review::EvalGraph chances={review.first_player_chances()} {judgements}
                {shown} lang={state.settings.lang} dispatch={dispatch.clone()} />
        }
    });
    let shared = SharedState(state.0.clone());
    let (review, review_sides) = crate::components::review::review_props(&state);
    let lang = state.settings.lang;
    let view = Rc::new(board_view(&state));
    let theme = if state.settings.theme == Theme::Dark { "theme-dark" } else { "theme-light" };
    html! {
        <div class={classes!("app", theme, state.settings.slate_boards.then_some("boards-slate"))}
             style={format!("--board-scale: {}", state.settings.board_scale)}
             data-current-game={state.game.kind().name()} lang={lang.tag()}>
            <header class="top">
                <h1>{ t(lang, Text::Title) }</h1>
                <GamePicker {lang} current={state.settings.kind} dispatch={dispatch.clone()} />
            </header>
            <main class="play">
                <section class="board-area">
                    <Board {view} {on_click} {on_pick} {on_drop} {on_shape} />
                    { eval_graph }
                </section>
                <aside class="side">
                    // First in the side panel: beside the board on a wide screen, just under it on
                    // a phone, so the board stays in view (it takes the focus without scrolling).
                    <GameOver view={game_over_view(&state)} {lang} dispatch={dispatch.clone()} />
                    <Clocks view={clocks_view(&state)} now={*now} />
                    <crate::components::tray::BanqiTray view={crate::components::tray::tray_view(&state)} {lang} symbols={state.settings.piece_symbols} />
                    if state.settings.screen_reader {
                        <crate::screen_reader::ScreenReaderPanel state={shared.clone()} dispatch={dispatch.clone()} />
                    }
                    <Status view={status_view(&state)} dispatch={Some(dispatch.clone())} />
                    <GameButtons view={game_buttons_view(&state)} dispatch={dispatch.clone()} {on_hint}
                        on_new_game={let open = open_dialog.clone(); Callback::from(move |()| open.emit(Dialog::NewGame))} />
                    <ShareButtons {lang} open={open_dialog} />
                    <crate::components::analysis::AnalysisPanel view={crate::components::analysis::analysis_view(&state)} {lang} dispatch={dispatch.clone()} />
                    <crate::components::review::ReviewPanel review={review} sides={review_sides} {lang} dispatch={dispatch.clone()} />
                    <MoveList record={state.record.clone()} current={state.shown_path()} live={state.viewing.is_none()} {lang} symbols={state.settings.piece_symbols} dispatch={dispatch.clone()} />
                    // After the game's own panels: a live game elsewhere never pushes them down.
                    <crate::components::watch::WatchCorner {lang} theme={state.settings.theme} />
                    <Options settings={state.settings.clone()} dispatch={dispatch.clone()} />
                </aside>
            </main>
            {
                match *dialog {
                    Some(Dialog::Share) => html! { <ShareDialog state={shared.clone()} close={close_dialog} /> },
                    Some(Dialog::Embed) => html! { <EmbedDialog state={shared.clone()} close={close_dialog} /> },
                    Some(Dialog::NewGame) => html! {
                        <crate::components::new_game::NewGameDialog settings={state.settings.clone()}
                            dispatch={dispatch.clone()} close={close_dialog} />
                    },
                    Some(Dialog::Records) => html! {
                        <RecordsDialog state={shared.clone()} dispatch={dispatch.clone()} close={close_dialog} />
                    },
                    None => Html::default(),
                }
            }
            <PromotionDialog pending={shared.get().promotion.clone()} colour={promoting_colour(shared.get())} lang={shared.get().settings.lang} {dispatch} />
        </div>
    }
}
