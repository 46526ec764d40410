//! The app: the state, the effects that connect it to the browser (storage, the clock timer,
//! the document's language and theme), and the page layout.

use std::rc::Rc;

use qi_rules::{GameKind, Side};
use yew::prelude::*;

use crate::board::Board;
use crate::board_model::board_view_with_engine;
use crate::components::clocks::{Clocks, clocks_view};
use crate::components::controls::{GameButtons, GamePicker, Options, game_buttons_view};
use crate::components::dialogs::{GameOver, PromotionDialog, game_over_view, promoting_colour};
use crate::components::move_list::MoveList;
use crate::components::records_dialog::RecordsDialog;
use crate::components::share::{Dialog, EmbedDialog, ShareButtons, ShareDialog, ShownGame};
use crate::components::status::{Status, status_view_with_engine};
use crate::components::{SharedState, StateCell};
use crate::screen_reader::PageClocks;
use crate::state::{Action, AppState, Notice, Settings, Theme, TreeAction};
use qi_i18n::text::{Lang, Text, t};
use qi_play::link;
use qi_play::record::{GameRecord, storage_key};

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

mod computer;
mod hooks;

/// The whole app.
#[function_component(App)]
pub fn app() -> Html {
    use_effect_with((), |()| crate::worker::expose_for_tests());
    html! { <Page /> }
}

/// The page.
#[function_component(Page)]
fn page() -> Html {
    let state = use_reducer(|| StateCell(Rc::new(initial_state())));
    hooks::use_stored_settings(&state);
    // Sounds: each change of the game that calls for one (a move, a capture, check, the end,
    // a refused move), at the chosen volume.
    crate::sound::use_game_sounds(state.0.clone(), true);
    hooks::use_title_and_saved_game(&state);
    hooks::use_address_sync(&state);
    hooks::use_move_keys(&state);
    hooks::use_premove(&state);
    let on_hint = computer::use_computer(&state);
    hooks::use_analysis(&state);
    hooks::use_opening(&state);
    hooks::use_review(&state);
    let now = hooks::use_clock(&state);

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
    let shared = SharedState(state.play.clone());
    let (review, review_sides) = crate::components::review::review_props(&state);
    let lang = state.settings.lang;
    let view = Rc::new(board_view_with_engine(&state));
    let theme = if state.settings.theme == Theme::Dark { "theme-dark" } else { "theme-light" };
    html! {
        <div class={classes!("app", theme, state.settings.slate_boards.then_some("boards-slate"))}
             style={format!("--board-scale: {}", state.settings.board_scale)}
             data-current-game={state.game.kind().name()} lang={lang.tag()}>
            <header class="top">
                <div class="title-row">
                    <h1>{ t(lang, Text::Title) }</h1>
                    // The puzzles are a page of their own (their code and data are not this page's).
                    <a class="puzzles-link" href={format!("puzzles/?game={}", state.settings.kind.name())}
                       data-action="puzzles">{ t(lang, Text::Puzzles) }</a>
                </div>
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
                    <Clocks view={clocks_view(&state)} {now} />
                    <crate::components::tray::BanqiTray view={crate::components::tray::tray_view(&state)} {lang} symbols={state.settings.piece_symbols} />
                    if state.settings.screen_reader {
                        <crate::screen_reader::ScreenReaderPanel state={shared.clone()} dispatch={dispatch.clone()}
                            clocks={state.clocks.clone().map_or(PageClocks::None, PageClocks::Running)} />
                    }
                    <Status view={status_view_with_engine(&state)} dispatch={Some(dispatch.clone())} />
                    <GameButtons view={game_buttons_view(&state)} dispatch={dispatch.clone()} {on_hint}
                        on_new_game={let open = open_dialog.clone(); Callback::from(move |()| open.emit(Dialog::NewGame))} />
                    <ShareButtons {lang} open={open_dialog} />
                    <crate::components::analysis::AnalysisPanel view={crate::components::analysis::analysis_view(&state)} {lang} dispatch={dispatch.clone()} />
                    <crate::components::review::ReviewPanel review={review} sides={review_sides} {lang} dispatch={dispatch.clone()}
                        puzzles={crate::components::dialogs::puzzles_from_game_link(&state)} />
                    <MoveList record={state.record.clone()} current={state.shown_path()} live={state.viewing.is_none()} {lang} symbols={state.settings.piece_symbols} dispatch={dispatch.clone()} />
                    // After the game's own panels: a live game elsewhere never pushes them down.
                    <crate::components::watch::WatchCorner {lang} theme={state.settings.theme} />
                    <Options settings={state.settings.clone()} dispatch={dispatch.clone()} />
                </aside>
            </main>
            {
                match *dialog {
                    Some(Dialog::Share) => html! { <ShareDialog game={ShownGame::of(&state)} close={close_dialog} /> },
                    Some(Dialog::Embed) => html! { <EmbedDialog game={ShownGame::of(&state)} close={close_dialog} /> },
                    Some(Dialog::NewGame) => html! {
                        <crate::components::new_game::NewGameDialog settings={state.settings.clone()}
                            dispatch={dispatch.clone()} close={close_dialog} />
                    },
                    Some(Dialog::Records) => html! {
                        <RecordsDialog game={ShownGame::of(&state)} dispatch={dispatch.clone()} close={close_dialog} />
                    },
                    None => Html::default(),
                }
            }
            <PromotionDialog pending={shared.get().promotion.clone()} colour={promoting_colour(shared.get())} lang={shared.get().settings.lang} {dispatch} />
        </div>
    }
}
