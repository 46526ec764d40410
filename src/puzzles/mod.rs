//! The puzzle page (`puzzles/`): a puzzle a click away for each game, rated near the player;
//! Streak, Storm, the daily puzzle, a theme picker and a dashboard; puzzles made from the
//! player's own game by the worker; and, with `embed=1`, a puzzle alone for a blog's frame.
//! The databases (`data/<game>.csv`, lichess's format) are fetched when first needed, never
//! with the page.
//!
//! # The address
//! | parameter | meaning |
//! |---|---|
//! | `game` | `chess`, `xiangqi`, `banqi`, `gomoku` (default: the app's game, else chess) |
//! | `mode` | `rated`, `streak`, `storm`, `daily`, `dashboard` |
//! | `puzzle=<game>:<id>` | a puzzle of the database; with `row=` the puzzle itself ([`qi_play::puzzle::link`]) |
//! | `mine=first\|second` with a game's link (`g=`, or `game=`/`moves=`...) | puzzles from that game for that side |
//! | `embed=1` | the board and its buttons alone (with `puzzle=`, or `mode=daily`) |
//! | `lang`, `theme` | as in the app |
//!
//! The state and its reducer are [`page`]'s; one puzzle on the board is a [`session::Session`].
//! The element `data-testid="puzzle-status"` carries `data-state="solving|solved|failed"`.

pub mod page;
pub mod server;
pub mod session;

use std::rc::Rc;

use qi_i18n::puzzles::{PuzzleText as P, pt, puzzle_error, theme_name};
use qi_i18n::text::{Lang, fill, fill_all, game_name, side_name};
use qi_play::link::{self, Query};
use qi_play::puzzle::profile::PuzzleProfile;
use qi_play::puzzle::{Puzzle, PuzzleId, RunState, Theme};
use qi_play::{Brush, Shape};
use qi_rules::GameKind;
use qi_rules::any::Variant;
use yew::prelude::*;

use self::page::{Database, Linked, Mode, OwnPuzzles, PageAction, PageNotice, PuzzlePage};
use self::session::{Hint, Refutation, SessionAction};
use crate::board::Board;
use crate::board_model::board_view;
use crate::components::dialogs::{PromotionDialog, promoting_colour};
use crate::state::{Action, Settings, Theme as Looks};
use crate::web;

/// Where the player's puzzle record is kept in the browser.
/// Where the browser keeps the player's puzzle record ([`PuzzleProfile`]'s text).
pub const PROFILE_KEY: &str = "qi.puzzles";

/// Forgets the puzzle results waiting for the server (the player signs out: they must not
/// reach whoever signs in next in this browser).
pub fn forget_unsent_results() {
    if let Some(text) = web::load(PROFILE_KEY) {
        let mut profile = PuzzleProfile::from_text(&text);
        if profile.drop_unsent() {
            web::save(PROFILE_KEY, &profile.to_text());
        }
    }
}
/// The app's settings (language, looks), read here too.
const SETTINGS_KEY: &str = "qi.settings";
/// How long the opponent's reply waits after a right move, so both are seen.
const REPLY_DELAY_MS: i32 = 500;
/// How long a solved Streak puzzle stays before the next.
const STREAK_NEXT_MS: i32 = 1200;
/// The engine's level for the answer to a wrong move (a second and a half at most).
const REFUTATION_LEVEL: u8 = 5;

/// The page's options that are not its state.
#[derive(Clone, Debug, PartialEq)]
struct Options {
    /// The board alone, for another site's frame.
    embed: bool,
    /// A game to make puzzles from, and whether the player moved first.
    own_game: Option<(qi_play::record::GameRecord, bool)>,
    /// The page's looks.
    looks: Looks,
    /// The address's own choices (`lang=`, `theme=`), kept as the address follows the puzzle.
    keep: String,
}

/// The reducer's cell.
#[derive(Clone)]
struct PageCell(Rc<PuzzlePage>);

impl Reducible for PageCell {
    type Action = PageAction;
    fn reduce(self: Rc<Self>, action: PageAction) -> Rc<Self> {
        let mut page = (*self.0).clone();
        page.apply(action);
        Rc::new(PageCell(Rc::new(page)))
    }
}

impl PartialEq for PageCell {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

/// The page and its options from the address, the stored settings and the stored record.
fn initial(query: &Query) -> (PuzzlePage, Options) {
    let browser = Lang::from_tag(&web::browser_language());
    let mut settings = match web::load(SETTINGS_KEY) {
        Some(text) => Settings::from_storage(&text, browser),
        None => Settings::new(browser),
    };
    if let Some(lang) = query.get("lang").and_then(Lang::from_link) {
        settings.lang = lang;
    }
    match query.get("theme") {
        Some("dark") => settings.theme = Looks::Dark,
        Some("light") => settings.theme = Looks::Light,
        _ => {}
    }
    let embed = matches!(query.get("embed"), Some("1" | "true"));
    // The embed keeps nothing in the reader's browser: its record starts empty each time.
    let profile = if embed {
        PuzzleProfile::default()
    } else {
        web::load(PROFILE_KEY).map(|text| PuzzleProfile::from_text(&text)).unwrap_or_default()
    };
    let mut kind = query
        .get("game")
        .and_then(|name| GameKind::ALL.into_iter().find(|k| k.name() == name))
        .unwrap_or(if settings.kind == GameKind::Banqi { GameKind::Chess } else { settings.kind });
    let mut mode = query.get("mode").and_then(Mode::parse).unwrap_or(Mode::Rated);
    let day = (js_sys::Date::now() / 86_400_000.0) as u64;
    let mut linked = None;
    let mut notice = None;
    match qi_play::puzzle::link::read(query) {
        Some(Ok(qi_play::puzzle::link::PuzzleLink::Named { variant, id })) => {
            kind = variant.kind();
            mode = Mode::Linked;
            linked = Some(Linked::Named(id));
        }
        Some(Ok(qi_play::puzzle::link::PuzzleLink::Whole(puzzle))) => {
            kind = puzzle.rules.kind();
            mode = Mode::Linked;
            linked = Some(Linked::Whole(puzzle));
        }
        Some(Err(error)) => {
            notice = Some(fill(
                pt(settings.lang, P::BadLink),
                "why",
                &puzzle_error(settings.lang, kind, &error),
            ));
        }
        None => {}
    }
    let mut own_game = None;
    if let Some(side) = query.get("mine") {
        match link::read(query, kind) {
            Some(opened) if opened.error.is_none() => {
                kind = opened.record.kind;
                own_game = Some((opened.record, side != "second"));
            }
            Some(opened) => {
                let why = opened
                    .error
                    .map(|e| qi_i18n::rules::link_error(settings.lang, kind, &e))
                    .unwrap_or_default();
                notice = Some(fill(pt(settings.lang, P::NoGame), "why", &why));
            }
            None => {
                notice = Some(fill(pt(settings.lang, P::NoGame), "why", "—"));
            }
        }
    }
    let looks = settings.theme;
    let keep: String = ["lang", "theme"]
        .iter()
        .filter_map(|name| {
            query.get(name).map(|value| format!("&{name}={}", link::encode_component(value)))
        })
        .collect();
    let mut page = PuzzlePage::new(settings, kind, mode, profile, day, web::random_seed());
    page.linked = linked;
    if own_game.is_some() {
        page.apply(PageAction::Mining);
    } else {
        page.begin();
    }
    page.link_error = notice;
    (page, Options { embed, own_game, looks, keep })
}

/// The game's variant of a database: its standard rules (a row carries any other as a theme).
fn variant_of(kind: GameKind) -> Variant {
    match kind {
        GameKind::Chess => Variant::Chess,
        GameKind::Xiangqi => Variant::Xiangqi,
        GameKind::Banqi => Variant::Banqi,
        GameKind::Gomoku => Variant::Gomoku,
    }
}

/// The path of a game's database, relative to the page.
fn database_path(kind: GameKind) -> String {
    format!("data/{}.csv", kind.name())
}

/// The page.
#[function_component(PuzzlesApp)]
pub fn puzzles_app() -> Html {
    let start = use_memo((), |()| initial(&Query::parse(&web::location_query())));
    let options = start.1.clone();
    let state = {
        let first = start.0.clone();
        use_reducer(move || PageCell(Rc::new(first)))
    };
    let page = state.0.clone();
    let lang = page.settings.lang;
    let dispatch = {
        let state = state.clone();
        Callback::from(move |action: PageAction| state.dispatch(action))
    };

    // The document's language and looks.
    {
        let theme = if options.looks == Looks::Dark { "dark" } else { "light" };
        use_effect_with(lang, move |lang| {
            web::set_document_attributes(lang.tag(), theme);
            web::set_title(&format!("{} · Qi", pt(*lang, P::Puzzles)));
        });
    }

    // The database, the first time the page needs it.
    {
        let wanted = page.needs_database() && *page.database() == Database::NotLoaded;
        let kind = page.kind;
        let dispatch = dispatch.clone();
        use_effect_with((wanted, kind), move |&(wanted, kind)| {
            if wanted {
                dispatch.emit(PageAction::Loading(kind));
                wasm_bindgen_futures::spawn_local(async move {
                    let puzzles = web::fetch_text(&database_path(kind)).await.map(|text| {
                        Rc::new(qi_play::puzzle::read_file(variant_of(kind), &text).puzzles)
                    });
                    dispatch.emit(PageAction::Loaded { kind, puzzles });
                });
            }
        });
    }

    // The player's record, kept after each change (not by the embed).
    {
        let profile = page.profile.clone();
        let embed = options.embed;
        use_effect_with(page.profile_changed, move |changed| {
            if *changed > 0 && !embed {
                web::save(PROFILE_KEY, &profile.to_text());
            }
        });
    }

    // On a Qi server, a signed-in player's puzzle ratings are the server's: asked for once,
    // and each rated result sent (signed out, or on a static host, the browser's alone).
    {
        let dispatch = dispatch.clone();
        let embed = options.embed;
        use_effect_with((), move |()| {
            if !embed && web::served_by_qi_server() {
                dispatch.emit(PageAction::OnQiServer);
                wasm_bindgen_futures::spawn_local(async move {
                    match server::ratings().await {
                        Some(server::Account::SignedIn(views)) => {
                            dispatch.emit(PageAction::ServerRatings(views));
                        }
                        Some(server::Account::SignedOut) => dispatch.emit(PageAction::SignedOut),
                        None => {}
                    }
                });
            }
        });
    }
    {
        // The oldest result the server has not confirmed, one at a time: each confirmation
        // brings the next; with no answer the rest wait for the next result or the next visit.
        let dispatch = dispatch.clone();
        let waiting: usize =
            GameKind::ALL.into_iter().map(|kind| page.profile.game(kind).unsent.len()).sum();
        use_effect_with((page.next_to_send(), waiting), move |(result, _)| {
            if let Some(result) = result.clone() {
                wasm_bindgen_futures::spawn_local(async move {
                    let Some(kind) = GameKind::ALL.into_iter().find(|k| k.name() == result.game)
                    else {
                        return;
                    };
                    let Ok(id) = PuzzleId::parse(&result.puzzle) else { return };
                    match server::send(&result).await {
                        server::Sent::Kept(view) => {
                            dispatch.emit(PageAction::Sent { kind, id });
                            if let Some(view) = view {
                                dispatch.emit(PageAction::ServerRatings(vec![view]));
                            }
                        }
                        server::Sent::Refused => dispatch.emit(PageAction::Sent { kind, id }),
                        server::Sent::SignedOut => dispatch.emit(PageAction::SignedOut),
                        server::Sent::NoAnswer => {}
                    }
                });
            }
        });
    }

    // The opponent's reply, a moment after a right move.
    {
        let pending = page.session.as_ref().is_some_and(|s| s.reply_pending);
        let dispatch = dispatch.clone();
        use_effect_with(pending, move |&pending| {
            let stop = pending.then(|| {
                web::timeout(REPLY_DELAY_MS, move || {
                    dispatch.emit(PageAction::Session(SessionAction::ShowReply));
                })
            });
            move || {
                if let Some(Some(stop)) = stop {
                    stop();
                }
            }
        });
    }

    // Streak's next puzzle, a moment after one is solved.
    {
        let advance = page.advances_by_itself();
        let dispatch = dispatch.clone();
        use_effect_with(advance, move |&advance| {
            let stop = advance
                .then(|| web::timeout(STREAK_NEXT_MS, move || dispatch.emit(PageAction::Next)));
            move || {
                if let Some(Some(stop)) = stop {
                    stop();
                }
            }
        });
    }

    // Storm's clock.
    {
        let running = page.storm.is_some_and(|s| !s.over);
        let dispatch = dispatch.clone();
        use_effect_with(running, move |&running| {
            let stop = running.then(|| {
                web::interval(250, move || dispatch.emit(PageAction::Tick { now: web::now_ms() }))
            });
            move || {
                if let Some(Some(stop)) = stop {
                    stop();
                }
            }
        });
    }

    // The engine's answer to a wrong move.
    {
        let looking = page.session.as_ref().and_then(|s| {
            (s.refutation == Some(Refutation::Looking))
                .then(|| (s.puzzle().id.clone(), s.run.wrong_move(), (*s.play.record).clone()))
        });
        let dispatch = dispatch.clone();
        use_effect_with(looking, move |looking| {
            if let Some((puzzle, Some(wrong), record)) = looking.clone() {
                wasm_bindgen_futures::spawn_local(async move {
                    let request = qi_tasks::think::ThinkRequest {
                        id: 1,
                        level: REFUTATION_LEVEL,
                        seed: 1,
                        record,
                    };
                    let reply =
                        crate::worker::run(qi_tasks::think::WorkerRequest::Think(request)).await;
                    let answer = reply.and_then(|r| r.think()).and_then(|r| {
                        let wins = matches!(r.score, Some(qi_ai::Score::Mate(n)) if n > 0);
                        r.best.map(|best| (best, wins))
                    });
                    dispatch.emit(PageAction::Session(SessionAction::Refuted {
                        puzzle,
                        wrong,
                        answer,
                    }));
                });
            }
        });
    }

    // Puzzles from the player's game, once, by the worker.
    {
        let own_game = options.own_game.clone();
        let dispatch = dispatch.clone();
        use_effect_with((), move |()| {
            if let Some((record, first)) = own_game {
                wasm_bindgen_futures::spawn_local(async move {
                    let kind = record.kind;
                    let request = qi_tasks::tasks::TaskRequest::Puzzles { record, first };
                    let reply =
                        crate::worker::run(qi_tasks::think::WorkerRequest::Task(request)).await;
                    let found = match reply.and_then(|r| r.task()) {
                        Some(qi_tasks::tasks::TaskReply::Puzzles { rows }) => Ok(rows
                            .iter()
                            .filter_map(|row| Puzzle::read_row(variant_of(kind), row).ok())
                            .collect()),
                        _ => Err("the engine did not answer".to_owned()),
                    };
                    dispatch.emit(PageAction::Mined(found));
                });
            }
        });
    }

    // The address follows the puzzle on the board, so a reload or a copied address opens it;
    // in Streak, Storm, the daily puzzle and the dashboard it names the mode instead (a reload
    // starts the mode again, not one of its puzzles alone).
    {
        let address = match page.mode {
            Mode::Rated | Mode::Linked | Mode::Own => {
                page.session.as_ref().map(|s| puzzle_address(s.puzzle(), page.carried()))
            }
            mode => Some(format!("game={}&mode={}", page.kind.name(), mode.name())),
        };
        let embed = options.embed;
        let keep = options.keep.clone();
        use_effect_with(address, move |address| {
            if let Some(address) = address
                && !embed
            {
                web::set_query(&format!("{address}{keep}"), false);
            }
        });
    }

    if options.embed {
        return html! { <PuzzleEmbed page={state.clone()} dispatch={dispatch} looks={options.looks} /> };
    }
    let theme_class = if options.looks == Looks::Dark { "theme-dark" } else { "theme-light" };
    html! {
        <div class={classes!("app", "puzzles-page", theme_class)} lang={lang.tag()}
             data-current-game={page.kind.name()} data-mode={page.mode.name()}>
            <header class="top">
                <h1><a href="../" class="home-link">{ "Qi" }</a>{ " · " }{ pt(lang, P::Puzzles) }</h1>
                <GameTabs {lang} current={page.kind} dispatch={dispatch.clone()} />
            </header>
            <ModeTabs {lang} current={page.mode} dispatch={dispatch.clone()} />
            if page.mode == Mode::Dashboard {
                <Dashboard page={state.clone()} />
            } else {
                <main class="play">
                    <section class="board-area">
                        <PuzzleBoard page={state.clone()} dispatch={dispatch.clone()} />
                    </section>
                    <aside class="side">
                        <PuzzlePanel page={state.clone()} dispatch={dispatch.clone()} embed={false} />
                    </aside>
                </main>
            }
        </div>
    }
}

/// The address of a puzzle on the page: its name for a database puzzle, the whole puzzle for
/// one that came whole (a link's, or one made from the player's game, which no database holds).
fn puzzle_address(puzzle: &Puzzle, carried: bool) -> String {
    let address = if carried {
        qi_play::puzzle::link::whole(puzzle)
    } else {
        qi_play::puzzle::link::named(puzzle)
    };
    address.trim_start_matches('?').to_owned()
}

/// Properties of the page's parts.
#[derive(Properties, PartialEq)]
struct PartProps {
    page: UseReducerHandle<PageCell>,
    #[prop_or_default]
    dispatch: Callback<PageAction>,
    #[prop_or_default]
    embed: bool,
}

/// The four games, as tabs.
#[derive(Properties, PartialEq)]
struct TabProps<T: PartialEq> {
    lang: Lang,
    current: T,
    dispatch: Callback<PageAction>,
}

#[function_component(GameTabs)]
fn game_tabs(props: &TabProps<GameKind>) -> Html {
    let lang = props.lang;
    let buttons = GameKind::ALL.iter().map(|&kind| {
        let dispatch = props.dispatch.clone();
        let current = props.current == kind;
        html! {
            <button type="button" class={classes!("game-tab", current.then_some("current"))}
                    data-game={kind.name()} aria-pressed={current.to_string()}
                    onclick={Callback::from(move |_: MouseEvent| dispatch.emit(PageAction::SetKind(kind)))}>
                { game_name(lang, kind) }
            </button>
        }
    });
    html! { <nav class="game-picker" aria-label={qi_i18n::text::t(lang, qi_i18n::text::Text::Game)}>{ for buttons }</nav> }
}

#[function_component(ModeTabs)]
fn mode_tabs(props: &TabProps<Mode>) -> Html {
    let lang = props.lang;
    let buttons = Mode::TABS.iter().map(|&mode| {
        let dispatch = props.dispatch.clone();
        let current = props.current == mode;
        let label = match mode {
            Mode::Rated => P::Rated,
            Mode::Streak => P::Streak,
            Mode::Storm => P::Storm,
            Mode::Daily => P::Daily,
            _ => P::Dashboard,
        };
        html! {
            <button type="button" class={classes!("mode-tab", current.then_some("current"))}
                    data-mode={mode.name()} aria-pressed={current.to_string()}
                    onclick={Callback::from(move |_: MouseEvent| dispatch.emit(PageAction::SetMode(mode)))}>
                { pt(lang, label) }
            </button>
        }
    });
    let own = (props.current == Mode::Own).then(|| {
        html! {
            <span class="mode-tab current" data-mode="own">{ pt(lang, P::FromYourGame) }</span>
        }
    });
    html! { <nav class="puzzle-modes">{ for buttons }{ own }</nav> }
}

/// The board with the puzzle on it, the hint's circle and the refutation's arrow.
#[function_component(PuzzleBoard)]
fn puzzle_board(props: &PartProps) -> Html {
    let page = &props.page.0;
    let board_dispatch = {
        let dispatch = props.dispatch.clone();
        Callback::from(move |action: Action| {
            dispatch.emit(PageAction::Session(SessionAction::Board(Box::new(action))))
        })
    };
    let crate::components::BoardInput { on_click, on_pick, on_drop } =
        crate::components::board_input(&board_dispatch, web::now_ms);
    let Some(session) = &page.session else {
        return html! { <div class="board puzzle-placeholder" aria-hidden="true"></div> };
    };
    let mut view = board_view(&session.play);
    view.interactive = session.takes_moves();
    if let Hint::Piece(cell) = session.hint {
        view.shapes.push(Shape { from: cell, to: cell, brush: Brush::Green });
    }
    if let Some(Refutation::Found { cells: (Some(from), to), .. }) = &session.refutation {
        view.shapes.push(Shape { from: *from, to: *to, brush: Brush::Red });
    } else if let Some(Refutation::Found { cells: (None, to), .. }) = &session.refutation {
        view.shapes.push(Shape { from: *to, to: *to, brush: Brush::Red });
    }
    let view = Rc::new(view);
    let play = &session.play;
    html! {
        <>
            <Board {view} {on_click} {on_pick} {on_drop} />
            <PromotionDialog pending={play.promotion.clone()} colour={promoting_colour(play)}
                             lang={play.settings.lang} dispatch={board_dispatch} />
        </>
    }
}

/// What the player reads and the buttons beside the board.
#[function_component(PuzzlePanel)]
fn puzzle_panel(props: &PartProps) -> Html {
    let page = &props.page.0;
    let lang = page.settings.lang;
    let act = |action: PageAction| {
        let dispatch = props.dispatch.clone();
        Callback::from(move |_: MouseEvent| dispatch.emit(action.clone()))
    };
    let mut blocks: Vec<Html> = Vec::new();

    // A link that could not be read, and what stops a puzzle from showing.
    if let Some(why) = &page.link_error {
        blocks.push(html! {
            <p class="puzzle-notice" role="alert" data-testid="puzzle-link-error">{ why.clone() }</p>
        });
    }
    if let Some(notice) = &page.notice {
        let text = match notice {
            PageNotice::NoneLeft => pt(lang, P::NoneLeft).to_owned(),
            PageNotice::NoPuzzles => {
                fill(pt(lang, P::NoPuzzles), "game", game_name(lang, page.kind))
            }
            PageNotice::NotFound(id) => {
                fill_all(pt(lang, P::NotFound), &[("id", id), ("game", game_name(lang, page.kind))])
            }
        };
        blocks.push(html! { <p class="puzzle-notice" role="alert" data-testid="puzzle-notice">{ text }</p> });
    }
    if page.needs_database() && page.session.is_none() {
        match page.database() {
            Database::Loading | Database::NotLoaded => {
                blocks.push(
                    html! { <p class="puzzle-loading" role="status">{ pt(lang, P::Loading) }</p> },
                );
            }
            Database::Failed(why) => {
                blocks.push(html! { <p class="puzzle-notice" role="alert">{ fill(pt(lang, P::LoadFailed), "why", why) }</p> });
            }
            Database::Ready(_) => {}
        }
    }

    // The mode's own lines: Streak's count, Storm's clock, the daily heading, the own game.
    match page.mode {
        Mode::Streak => {
            let (count, over) = page.streak;
            let best = page.profile.game(page.kind).best_streak;
            let text = if over {
                fill_all(
                    pt(lang, P::StreakOver),
                    &[("n", &count.to_string()), ("best", &best.to_string())],
                )
            } else {
                fill(pt(lang, P::StreakScore), "n", &count.to_string())
            };
            blocks.push(html! {
                <div class="puzzle-run" data-testid="streak" data-count={count.to_string()} data-over={over.to_string()}>
                    <p class="run-score">{ text }</p>
                    if over {
                        <button type="button" class="primary" data-action="restart-streak" onclick={act(PageAction::RestartStreak)}>{ pt(lang, P::StartAgain) }</button>
                    } else {
                        <p class="run-rule">{ pt(lang, P::StreakRule) }</p>
                    }
                </div>
            });
        }
        Mode::Storm => {
            let dispatch = props.dispatch.clone();
            let start = Callback::from(move |_: MouseEvent| {
                dispatch.emit(PageAction::StartStorm { now: web::now_ms() })
            });
            let best = page.profile.game(page.kind).best_storm;
            let body = match page.storm {
                None => html! {
                    <>
                        <p class="run-rule">{ pt(lang, P::StormRule) }</p>
                        <button type="button" class="primary" data-action="start-storm" onclick={start}>{ pt(lang, P::StartStorm) }</button>
                    </>
                },
                Some(storm) if storm.over => html! {
                    <>
                        <p class="run-score">{ fill_all(pt(lang, P::StormOver), &[("n", &storm.solved.to_string()), ("best", &best.to_string())]) }</p>
                        <button type="button" class="primary" data-action="start-storm" onclick={start}>{ pt(lang, P::StartAgain) }</button>
                    </>
                },
                Some(storm) => {
                    let seconds = (storm.left_ms / 1000.0).ceil() as u32;
                    html! {
                        <>
                            <p class="storm-clock" data-testid="storm-clock">{ format!("{}:{:02}", seconds / 60, seconds % 60) }</p>
                            <p class="run-score">{ fill_all(pt(lang, P::StormScore), &[("n", &storm.solved.to_string()), ("m", &storm.mistakes.to_string())]) }</p>
                        </>
                    }
                }
            };
            let (solved, over) = page.storm.map_or((0, false), |s| (s.solved, s.over));
            blocks.push(html! {
                <div class="puzzle-run" data-testid="storm" data-solved={solved.to_string()} data-over={over.to_string()}>{ body }</div>
            });
        }
        Mode::Daily => {
            blocks.push(html! { <h2 class="puzzle-heading">{ fill(pt(lang, P::DailyOf), "game", game_name(lang, page.kind)) }</h2> });
        }
        Mode::Own => {
            let text = match &page.own {
                OwnPuzzles::Mining | OwnPuzzles::None => pt(lang, P::Mining).to_owned(),
                OwnPuzzles::Found(found) if found.is_empty() => pt(lang, P::NoneInGame).to_owned(),
                OwnPuzzles::Found(found) => format!(
                    "{} {}",
                    fill(pt(lang, P::FoundInGame), "n", &found.len().to_string()),
                    fill_all(
                        pt(lang, P::NumberOf),
                        &[
                            ("i", &(page.own_at + 1).min(found.len()).to_string()),
                            ("n", &found.len().to_string())
                        ]
                    )
                ),
                OwnPuzzles::Failed(why) => fill(pt(lang, P::NoGame), "why", why),
            };
            let state = match &page.own {
                OwnPuzzles::Found(found) => format!("found-{}", found.len()),
                OwnPuzzles::Failed(_) => "failed".into(),
                _ => "mining".into(),
            };
            blocks.push(html! { <p class="puzzle-own" role="status" data-testid="own-puzzles" data-state={state}>{ text }</p> });
        }
        _ => {}
    }

    if let Some(session) = &page.session {
        blocks.push(session_panel(page, session, &props.dispatch, props.embed));
    }

    // The rating and the theme picker (rated puzzles).
    if !props.embed && matches!(page.mode, Mode::Rated | Mode::Daily | Mode::Linked) {
        let rating = page.profile.game(page.kind).rating;
        let shown = format!("{}{}", rating.shown(), if rating.provisional() { "?" } else { "" });
        let change = page.last_change.map(|c| {
            let text = fill(pt(lang, P::RatingChange), "change", &format!("{c:+}"));
            html! { <span class={classes!("rating-change", if c >= 0 { "up" } else { "down" })}>{ text }</span> }
        });
        blocks.push(html! {
            <p class="puzzle-rating" data-testid="puzzle-rating" data-rating={rating.shown().to_string()}
               data-on-server={page.on_server.to_string()}>
                { pt(lang, P::YourRating) }{ ": " }<strong>{ shown }</strong>{ " " }{ change }
            </p>
        });
    }
    if !props.embed && page.mode == Mode::Rated {
        let themes = page.themes();
        let current = page.theme.as_ref().map(|t| t.token().into_owned()).unwrap_or_default();
        let dispatch = props.dispatch.clone();
        let onchange = Callback::from(move |event: Event| {
            let value = event
                .target_dyn_into::<web_sys::HtmlSelectElement>()
                .map(|select| select.value())
                .unwrap_or_default();
            dispatch.emit(PageAction::SetTheme(
                Theme::parse(&value).ok().filter(|_| !value.is_empty()),
            ));
        });
        let choices = themes.iter().map(|theme| {
            let token = theme.token().into_owned();
            html! { <option value={token.clone()} selected={token == current}>{ theme_name(lang, theme) }</option> }
        });
        blocks.push(html! {
            <label class="theme-picker">{ pt(lang, P::Theme) }{ " " }
                <select data-testid="theme-picker" {onchange}>
                    <option value="" selected={current.is_empty()}>{ pt(lang, P::AnyTheme) }</option>
                    { for choices }
                </select>
            </label>
        });
    }
    html! { <div class="puzzle-panel">{ for blocks }</div> }
}

/// The status line and the buttons of the puzzle on the board.
fn session_panel(
    page: &PuzzlePage,
    session: &session::Session,
    dispatch: &Callback<PageAction>,
    embed: bool,
) -> Html {
    let lang = page.settings.lang;
    let kind = session.kind();
    let state = session.state();
    let act = |action: SessionAction| {
        let dispatch = dispatch.clone();
        Callback::from(move |_: MouseEvent| dispatch.emit(PageAction::Session(action.clone())))
    };
    let solver = side_name(lang, kind, session.run.solver(), None);
    let mut lines: Vec<Html> = Vec::new();
    let wrong_on_board = session.run.wrong_move().is_some();
    let status = if wrong_on_board {
        pt(lang, P::Wrong).to_owned()
    } else if session.run.finished() && state == RunState::Solved {
        pt(lang, P::Solved).to_owned()
    } else if session.run.finished() {
        pt(lang, P::Failed).to_owned()
    } else if session.reply_pending
        || session.run.board_moves().len() > 1 && session.result != Some(false)
    {
        pt(lang, P::BestMove).to_owned()
    } else {
        fill(pt(lang, P::FindTheMove), "side", solver)
    };
    lines.push(html! {
        <p class="puzzle-status" data-testid="puzzle-status" data-state={state.name()} role="status" aria-live="polite">{ status }</p>
    });
    if wrong_on_board {
        let text = match &session.refutation {
            Some(Refutation::Found { text, wins: true, .. }) => {
                fill(pt(lang, P::RefutedByWin), "move", text)
            }
            Some(Refutation::Found { text, .. }) => fill(pt(lang, P::RefutedBy), "move", text),
            Some(Refutation::Looking) => pt(lang, P::LookingForAnswer).to_owned(),
            _ => String::new(),
        };
        lines.push(html! { <p class="refutation" data-testid="refutation">{ text }</p> });
    }
    if let Some(notice) = &session.play.notice {
        lines.push(html! {
            <p class="notice" role="alert" data-testid="illegal">{ crate::components::status::notice_text(lang, kind, notice) }</p>
        });
    }
    if let Hint::Piece(_) = session.hint {
        let text = if kind == GameKind::Gomoku { P::HintPoint } else { P::HintPiece };
        lines.push(html! { <p class="hint-text">{ pt(lang, text) }</p> });
    }
    let mut buttons: Vec<Html> = Vec::new();
    let storm = page.mode == Mode::Storm;
    if wrong_on_board && !storm && page.mode != Mode::Streak {
        buttons.push(html! { <button type="button" data-action="try-again" onclick={act(SessionAction::TryAgain)}>{ pt(lang, P::TryAgain) }</button> });
    }
    if session.takes_moves() && !storm && page.mode != Mode::Streak && session.hint == Hint::None {
        buttons.push(html! { <button type="button" data-action="hint" onclick={act(SessionAction::Hint)}>{ pt(lang, P::Hint) }</button> });
    }
    let open = !session.run.finished();
    if open && !storm && (session.result == Some(false) || page.mode != Mode::Streak) {
        buttons.push(html! { <button type="button" data-action="solution" onclick={act(SessionAction::ViewSolution)}>{ pt(lang, P::ViewSolution) }</button> });
    }
    let more = match page.mode {
        Mode::Own => matches!(&page.own, OwnPuzzles::Found(f) if page.own_at + 1 < f.len()),
        Mode::Rated | Mode::Linked => !embed,
        _ => false,
    };
    if more && session.result.is_some() {
        let dispatch = dispatch.clone();
        buttons.push(html! {
            <button type="button" class="primary" data-action="next-puzzle"
                    onclick={Callback::from(move |_: MouseEvent| dispatch.emit(PageAction::Next))}>{ pt(lang, P::NextPuzzle) }</button>
        });
    }
    let puzzle = session.puzzle();
    let about = {
        let themes: Vec<String> = puzzle
            .themes
            .iter()
            .filter(|t| t.gomoku_rule().is_none() && !matches!(t, Theme::Other(_)))
            .map(|t| theme_name(lang, t))
            .collect();
        let show_themes = session.result.is_some() && !themes.is_empty();
        html! {
            <p class="puzzle-about">
                <span data-testid="puzzle-id" data-id={puzzle.id.to_string()}>{ fill(pt(lang, P::PuzzleName), "id", puzzle.id.as_str()) }</span>
                { " · " }{ fill(pt(lang, P::PuzzleRated), "rating", &puzzle.rating.to_string()) }
                if show_themes { <br />{ themes.join(", ") } }
            </p>
        }
    };
    let share = (!embed).then(|| html! { <PuzzleShare puzzle={puzzle.clone()} {lang} daily={page.mode == Mode::Daily} /> });
    html! {
        <div class="puzzle-session">
            { for lines }
            <div class="puzzle-buttons">{ for buttons }</div>
            { about }
            { share }
        </div>
    }
}

/// Properties of [`PuzzleShare`].
#[derive(Properties, PartialEq)]
struct ShareProps {
    puzzle: Puzzle,
    lang: Lang,
    daily: bool,
}

/// The puzzle's link (which carries it whole) and the embed codes: this puzzle, or the day's.
#[function_component(PuzzleShare)]
fn puzzle_share(props: &ShareProps) -> Html {
    let lang = props.lang;
    let open = use_state(|| false);
    let copied = use_state(|| None::<&'static str>);
    let toggle = {
        let open = open.clone();
        Callback::from(move |_: MouseEvent| open.set(!*open))
    };
    if !*open {
        return html! {
            <button type="button" class="share-puzzle" data-action="share-puzzle" onclick={toggle}>
                { pt(lang, P::SharePuzzle) }{ " · " }{ pt(lang, P::EmbedThis) }
            </button>
        };
    }
    let here = web::location_href();
    let base = here.split(['?', '#']).next().unwrap_or_default().to_owned();
    let link = format!("{base}{}", qi_play::puzzle::link::whole(&props.puzzle));
    let lang_param = format!("&lang={}", &lang.tag()[..2]);
    let frame = |src: String| {
        format!(
            "<iframe src=\"{}\" width=\"400\" height=\"520\" style=\"border:0;max-width:100%\" title=\"Qi puzzle\" loading=\"lazy\"></iframe>",
            src.replace('&', "&amp;").replace('"', "&quot;")
        )
    };
    let this_embed =
        frame(format!("{base}{}&embed=1{lang_param}", qi_play::puzzle::link::whole(&props.puzzle)));
    let daily_embed = frame(format!(
        "{base}?mode=daily&game={}&embed=1{lang_param}",
        props.puzzle.rules.kind().name()
    ));
    let row = |name: &'static str, label: P, text: String| {
        let done = *copied == Some(name);
        let copied = copied.clone();
        let value = text.clone();
        let onclick = Callback::from(move |_: MouseEvent| {
            let copied = copied.clone();
            let value = value.clone();
            wasm_bindgen_futures::spawn_local(async move {
                if web::copy_text(&value).await {
                    copied.set(Some(name));
                }
            });
        });
        html! {
            <div class="share-row" data-share={name}>
                <label>{ pt(lang, label) }
                    <textarea readonly=true rows="3" data-testid={format!("share-{name}")} value={text} />
                </label>
                <button type="button" {onclick}>{ if done { pt(lang, P::Copied) } else { pt(lang, P::Copy) } }</button>
            </div>
        }
    };
    html! {
        <div class="puzzle-share" data-testid="puzzle-share">
            { row("link", P::SharePuzzle, link) }
            { row("embed", P::EmbedThis, this_embed) }
            { row("daily", P::EmbedDaily, daily_embed) }
            <button type="button" onclick={toggle}>{ pt(lang, P::Close) }</button>
        </div>
    }
}

/// The dashboard: the rating, totals, bests, and each theme's puzzles solved and failed.
#[function_component(Dashboard)]
fn dashboard(props: &PartProps) -> Html {
    let page = &props.page.0;
    let lang = page.settings.lang;
    let progress = page.profile.game(page.kind);
    let (solved, failed) = progress.totals();
    let rating = progress.rating;
    let rows = progress.by_theme().into_iter().filter(|c| !matches!(c.theme, Theme::Other(_))).map(|count| {
        let total = count.solved + count.failed;
        let share = (count.solved * 100).checked_div(total).unwrap_or(0);
        html! {
            <tr data-theme={count.theme.token().into_owned()}>
                <th scope="row">{ theme_name(lang, &count.theme) }</th>
                <td>{ count.solved }</td>
                <td>{ count.failed }</td>
                <td><span class="bar" role="img" style={format!("--share: {share}%")} aria-label={format!("{share}%")}></span></td>
            </tr>
        }
    });
    html! {
        <main class="dashboard" data-testid="dashboard">
            <h2>{ game_name(lang, page.kind) }</h2>
            <p class="puzzle-rating">{ pt(lang, P::YourRating) }{ ": " }<strong>{ rating.shown() }{ if rating.provisional() { "?" } else { "" } }</strong></p>
            <p>{ fill_all(pt(lang, P::Totals), &[("solved", &solved.to_string()), ("failed", &failed.to_string())]) }</p>
            <p>{ fill_all(pt(lang, P::Bests), &[("streak", &progress.best_streak.to_string()), ("storm", &progress.best_storm.to_string())]) }</p>
            if progress.tried.is_empty() {
                <p>{ pt(lang, P::NothingTried) }</p>
            } else {
                <table class="theme-table">
                    <thead><tr><th scope="col">{ pt(lang, P::Theme) }</th><th scope="col">{ pt(lang, P::SolvedColumn) }</th><th scope="col">{ pt(lang, P::FailedColumn) }</th><th></th></tr></thead>
                    <tbody>{ for rows }</tbody>
                </table>
            }
        </main>
    }
}

/// Properties of [`PuzzleEmbed`].
#[derive(Properties, PartialEq)]
struct EmbedProps {
    page: UseReducerHandle<PageCell>,
    dispatch: Callback<PageAction>,
    looks: Looks,
}

/// The puzzle alone, for a blog's frame: the board, the status and the buttons, solved in
/// place; a link to more puzzles on Qi.
#[function_component(PuzzleEmbed)]
fn puzzle_embed(props: &EmbedProps) -> Html {
    let page = &props.page.0;
    let lang = page.settings.lang;
    let theme = if props.looks == Looks::Dark { "theme-dark" } else { "theme-light" };
    let more = format!(
        "./?game={}{}",
        page.kind.name(),
        page.session
            .as_ref()
            .map(|s| format!("&{}", puzzle_address(s.puzzle(), page.carried())))
            .unwrap_or_default()
    );
    html! {
        <main class={classes!("embed", "puzzle-embed", theme)} lang={lang.tag()} data-current-game={page.kind.name()} style="--chrome: 7.5rem">
            <h1 class="sr-only">{ pt(lang, P::Puzzles) }{ " · Qi" }</h1>
            <div class="embed-board"><PuzzleBoard page={props.page.clone()} dispatch={props.dispatch.clone()} /></div>
            <div class="embed-puzzle-panel">
                <PuzzlePanel page={props.page.clone()} dispatch={props.dispatch.clone()} embed={true} />
                <a class="embed-open" href={more} target="_blank" rel="noopener">{ pt(lang, P::OpenOnQi) }{ " ↗" }</a>
            </div>
        </main>
    }
}
