//! The embed: a board for other people's pages, in an `<iframe>`. It needs no server and keeps
//! nothing: the game and every option come from its address, and it stores nothing in the
//! browser.
//!
//! # Options in the address
//! The game comes as in any link ([`qi_play::link`]: `g=...`, or `game=`, `fen=`, `moves=`,
//! `result=`, `orientation=`, `ply=`; with `play=1` a game that ended by resignation or on
//! time goes on from its last position). The embed reads these too:
//!
//! | parameter | values | default |
//! |---|---|---|
//! | `play` | `1`: the reader may play on from the last position; `0`: replay only | `0` |
//! | `controls` | `1`: first / previous / play-pause / next / last buttons and the status | `0` |
//! | `movelist` | `1`: a one-line move list | `0` |
//! | `autoplay` | `1`, or seconds per move (0.3 to 30): step through the game from the start | off |
//! | `coords` | `0` hides the coordinates | `1` |
//! | `theme` | `light`, `dark` | `light` |
//! | `lang` | `en`, `zh`, `vi` | the browser's |
//!
//! Without `ply`, a replay opens at the last position, or at the start when `autoplay` is on.

use std::rc::Rc;

use yew::prelude::*;

use crate::board::Board;
use crate::board_model::board_view;
use crate::components::dialogs::{PromotionDialog, promoting_colour};
use crate::components::status::{Status, StatusView, status_view};
use crate::components::{SharedState, StateCell};
use crate::state::{Action, Notice, PlayState, Settings, Theme, TreeAction};
use crate::web;
use qi_i18n::text::{Lang, Text, t};
use qi_play::decimal::{decimal, parse_decimal};
use qi_play::link::{self, LinkError, Query, View};
use qi_play::record::default_rules;

/// Autoplay's pause per move when `autoplay=1`.
const AUTOPLAY_DEFAULT_MS: u32 = 1500;

/// The embed's options (see the module documentation).
#[derive(Clone, Debug, PartialEq)]
pub struct EmbedOptions {
    /// Whether the reader may play moves.
    pub play: bool,
    /// Whether the step buttons and status show.
    pub controls: bool,
    /// Whether the move list shows.
    pub move_list: bool,
    /// The pause between moves when stepping through by itself, if it does.
    pub autoplay_ms: Option<u32>,
    /// Whether coordinates show.
    pub coords: bool,
    /// Light or dark.
    pub theme: Theme,
    /// The language, when the address says.
    pub lang: Option<Lang>,
    /// Whether moves make sounds (off unless asked: the reader's page is someone else's).
    pub sound: bool,
    /// The screen-reader mode's field under the board (`sr=1`): moves typed (with `play=1`)
    /// and commands that read the board.
    pub screen_reader: bool,
}

impl Default for EmbedOptions {
    fn default() -> Self {
        EmbedOptions {
            play: false,
            controls: false,
            move_list: false,
            autoplay_ms: None,
            coords: true,
            theme: Theme::Light,
            lang: None,
            sound: false,
            screen_reader: false,
        }
    }
}

impl EmbedOptions {
    /// Reads the options of a query; a value that means nothing is ignored and reported.
    #[must_use]
    pub fn read(query: &Query) -> (EmbedOptions, Vec<LinkError>) {
        let mut options = EmbedOptions::default();
        let mut errors = Vec::new();
        let mut flag = |name: &str, target: &mut bool| {
            if let Some(value) = query.get(name) {
                match value.trim() {
                    "1" | "true" | "yes" | "on" => *target = true,
                    "0" | "false" | "no" | "off" => *target = false,
                    _ => errors.push(link::bad_option(name, value)),
                }
            }
        };
        flag("play", &mut options.play);
        flag("controls", &mut options.controls);
        flag("movelist", &mut options.move_list);
        flag("coords", &mut options.coords);
        flag("sound", &mut options.sound);
        flag("sr", &mut options.screen_reader);
        if let Some(value) = query.get("autoplay") {
            options.autoplay_ms = match value.trim() {
                "0" | "false" | "off" => None,
                "1" | "true" | "on" => Some(AUTOPLAY_DEFAULT_MS),
                text => match parse_decimal(text, 3).and_then(|ms| u32::try_from(ms).ok()) {
                    Some(ms) if (300..=30_000).contains(&ms) => Some(ms),
                    _ => {
                        errors.push(link::bad_option("autoplay", value));
                        None
                    }
                },
            };
        }
        if let Some(value) = query.get("theme") {
            match value.trim() {
                "light" => options.theme = Theme::Light,
                "dark" => options.theme = Theme::Dark,
                _ => errors.push(link::bad_option("theme", value)),
            }
        }
        if let Some(value) = query.get("lang") {
            match Lang::from_link(value) {
                Some(lang) => options.lang = Some(lang),
                None => errors.push(link::bad_option("lang", value)),
            }
        }
        (options, errors)
    }

    /// The options as query parameters (each with a leading `&`), defaults left out.
    #[must_use]
    pub fn to_params(&self) -> String {
        let mut out = String::new();
        let defaults = EmbedOptions::default();
        for (name, on, default) in [
            ("play", self.play, defaults.play),
            ("controls", self.controls, defaults.controls),
            ("movelist", self.move_list, defaults.move_list),
            ("coords", self.coords, defaults.coords),
            ("sound", self.sound, defaults.sound),
            ("sr", self.screen_reader, defaults.screen_reader),
        ] {
            if on != default {
                out.push_str(&format!("&{name}={}", u8::from(on)));
            }
        }
        if let Some(ms) = self.autoplay_ms {
            if ms == AUTOPLAY_DEFAULT_MS {
                out.push_str("&autoplay=1");
            } else {
                out.push_str(&format!("&autoplay={}", decimal(i64::from(ms), 3)));
            }
        }
        if self.theme == Theme::Dark {
            out.push_str("&theme=dark");
        }
        if let Some(lang) = self.lang {
            out.push_str(&format!("&lang={}", &lang.tag()[..2]));
        }
        out
    }
}

/// The embed's starting state for a query: the game, and the options.
#[must_use]
pub fn initial(query: &Query, browser_lang: Lang) -> (PlayState, EmbedOptions) {
    let (options, mut errors) = EmbedOptions::read(query);
    let mut settings = Settings::new(options.lang.unwrap_or(browser_lang));
    settings.theme = options.theme;
    let mut state = PlayState::new(settings, 0);
    let opened = link::read(query, state.settings.kind);
    let (mut record, view) = match opened {
        Some(opened) => {
            errors.splice(0..0, opened.error);
            (opened.record, opened.view)
        }
        None => {
            let kind = state.settings.kind;
            (qi_play::record::GameRecord::new(kind, &default_rules(kind), 0), View::default())
        }
    };
    if options.play {
        // The reader plays on: a resignation or a flag in the link does not stop that.
        record.ending = None;
    }
    let at = match view.at {
        Some(path) => Some(path),
        None if options.autoplay_ms.is_some() => Some(qi_play::Path::main(0)),
        None => None,
    };
    state.apply(Action::Open {
        record,
        bottom: view.orientation,
        at,
        notice: errors.into_iter().next().map(Notice::Link),
    });
    (state, options)
}

/// The embedded board.
#[function_component(Embed)]
pub fn embed() -> Html {
    let start = use_memo((), |()| {
        let query = Query::parse(&web::location_query());
        initial(&query, Lang::from_tag(&web::browser_language()))
    });
    let options = start.1.clone();
    let state = {
        let first = start.0.clone();
        use_reducer(move || StateCell(Rc::new(first)))
    };
    let playing = use_state(|| options.autoplay_ms.is_some());

    {
        let lang = state.settings.lang;
        let theme = if options.theme == Theme::Dark { "dark" } else { "light" };
        use_effect_with(lang, move |lang| web::set_document_attributes(lang.tag(), theme));
    }

    // Autoplay: a step along the main line every so often, until the last move (from a
    // variation the reader clicked, back to the main line).
    {
        let at_end = state.viewing.is_none();
        if *playing && at_end {
            playing.set(false);
        }
        let dispatcher = state.dispatcher();
        let period = options.autoplay_ms.unwrap_or(AUTOPLAY_DEFAULT_MS);
        use_effect_with(*playing, move |playing| {
            let stop = playing.then(|| {
                web::interval(period as i32, move || {
                    dispatcher.dispatch(Action::Tree(TreeAction::StepMainLine))
                })
            });
            move || {
                if let Some(Some(stop)) = stop {
                    stop();
                }
            }
        });
    }

    // Sounds, only when the embedding page asked for them (`sound=1`).
    crate::sound::use_game_sounds(state.0.clone(), options.sound);

    // ←/→ step, ↑/↓ and Home/End jump, as in the app (the reader's page may hold other
    // embeds: the keys act only when focus is inside this one's frame).
    {
        let dispatcher = state.dispatcher();
        let playing = playing.clone();
        use_effect_with((), move |()| {
            let stop = web::on_move_keys(move |key| {
                playing.set(false);
                dispatcher.dispatch(crate::components::move_key_action(key));
            });
            move || {
                if let Some(stop) = stop {
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

    let mut view = board_view(&state);
    view.interactive &= options.play;
    let view = Rc::new(view);
    let lang = state.settings.lang;
    let theme = if options.theme == Theme::Dark { "theme-dark" } else { "theme-light" };
    // Rows of chrome under the board, for its size: each bar is 2.25rem.
    let bars = u8::from(options.controls) + u8::from(options.move_list);
    let style = format!("--chrome: {}rem", decimal(50 + 225 * i64::from(bars), 2));
    let shared = SharedState(state.0.clone());
    html! {
        <main class={classes!("embed", theme, (!options.coords).then_some("no-coords"))}
             {style} lang={lang.tag()} data-current-game={state.game.kind().name()}>
            // A page of its own (in an iframe): its landmark and heading for screen readers.
            <h1 class="sr-only">{ format!("{} · Qi", qi_i18n::text::game_name(lang, state.game.kind())) }</h1>
            <div class="embed-board"><Board {view} {on_click} {on_pick} {on_drop} /></div>
            // Without the controls bar (whose status says it), the moves are said here.
            if options.screen_reader && !options.controls {
                <p class="sr-only" aria-live="polite" aria-atomic="true" data-testid="announce">{ status_view(&state).announcement }</p>
            }
            if options.screen_reader {
                // Typed moves only where the board takes moves (`play=1`); commands always.
                <crate::screen_reader::ScreenReaderPanel state={shared.clone()} dispatch={{
                    let (dispatch, play) = (dispatch.clone(), options.play);
                    Callback::from(move |action: Action| {
                        if play || !matches!(action, Action::TypeMove { .. }) {
                            dispatch.emit(action);
                        }
                    })
                }} />
            }
            if options.move_list {
                <EmbedMoves state={shared.clone()} dispatch={dispatch.clone()} />
            }
            if options.controls {
                <EmbedControls state={shared.clone()} dispatch={dispatch.clone()}
                               playing={*playing} on_play={
                                   let playing = playing.clone();
                                   let dispatch = dispatch.clone();
                                   let at_end = state.viewing.is_none();
                                   Callback::from(move |()| {
                                       if !*playing && at_end {
                                           dispatch.emit(Action::Tree(TreeAction::View(Some(0))));
                                       }
                                       playing.set(!*playing);
                                   })
                               } />
            } else if state.notice.is_some() {
                <div class="embed-notice"><Status view={embed_status(&state)} /></div>
            }
            if options.play && state.chain_in_progress() {
                <button type="button" class="embed-end-chain" data-action="end-chain"
                        onclick={
                            let dispatch = dispatch.clone();
                            Callback::from(move |_: MouseEvent| dispatch.emit(Action::EndChain { now: web::now_ms() }))
                        }>{ t(lang, Text::EndChain) }</button>
            }
            <PromotionDialog pending={shared.get().promotion.clone()} colour={promoting_colour(shared.get())} lang={shared.get().settings.lang} {dispatch} />
        </main>
    }
}

/// Properties of the embed's bars.
#[derive(Properties, PartialEq)]
struct BarProps {
    state: SharedState,
    dispatch: Callback<Action>,
}

/// The one-line move list.
#[function_component(EmbedMoves)]
fn embed_moves(props: &BarProps) -> Html {
    let state = props.state.get();
    let current = state.shown_path();
    let current_ref = use_node_ref();
    {
        let current_ref = current_ref.clone();
        use_effect_with(current.clone(), move |_| {
            if let Some(element) = current_ref.cast::<web_sys::Element>() {
                element.scroll_into_view_with_bool(false);
            }
        });
    }
    // The notation of every variation move: replayed only when the tree changes.
    let chinese = state.settings.lang == Lang::Zh;
    let notated = {
        let record = state.record.clone();
        use_memo((record, chinese), |(record, chinese)| record.notate_tree_in(*chinese))
    };
    let moves = crate::components::move_list::inline_tree(
        &state.record,
        &notated,
        &current,
        &props.dispatch,
        &current_ref,
        state.settings.lang,
        state.settings.piece_symbols,
    );
    html! {
        <div class="embed-moves" aria-label={t(state.settings.lang, Text::Moves)}>{ moves }</div>
    }
}

/// Properties of [`EmbedControls`].
#[derive(Properties, PartialEq)]
struct ControlProps {
    state: SharedState,
    dispatch: Callback<Action>,
    playing: bool,
    on_play: Callback<()>,
}

/// First / previous / play / next / last, the status, and a link to the full app.
#[function_component(EmbedControls)]
fn embed_controls(props: &ControlProps) -> Html {
    let state = props.state.get();
    let lang = state.settings.lang;
    let plies = state.notations.len();
    let current = state.viewing_main_ply().unwrap_or(plies);
    let act = |action: Action| {
        let dispatch = props.dispatch.clone();
        Callback::from(move |_: MouseEvent| dispatch.emit(action.clone()))
    };
    let on_play = {
        let on_play = props.on_play.clone();
        Callback::from(move |_: MouseEvent| on_play.emit(()))
    };
    let full_app = format!(
        "../?{}",
        link::compact(
            &state.record,
            &View {
                orientation: state.flipped.then_some(qi_rules::Side::Second),
                at: state.viewing.clone()
            }
        )
    );
    let play_label = if props.playing { t(lang, Text::Pause) } else { t(lang, Text::Autoplay) };
    html! {
        <nav class="embed-controls">
            <button type="button" data-action="first" aria-label={t(lang, Text::StartPosition)}
                    onclick={act(Action::Tree(TreeAction::View(Some(0))))} disabled={current == 0}>{ icon(FIRST) }</button>
            <button type="button" data-action="previous" aria-label={t(lang, Text::Previous)}
                    onclick={act(Action::Tree(TreeAction::StepBack))} disabled={current == 0}>{ icon(PREVIOUS) }</button>
            <button type="button" data-action="autoplay" aria-label={play_label}
                    onclick={on_play} disabled={plies == 0}>{ icon(if props.playing { PAUSE } else { PLAY }) }</button>
            <button type="button" data-action="next" aria-label={t(lang, Text::Next)}
                    onclick={act(Action::Tree(TreeAction::StepForward))} disabled={state.viewing.is_none()}>{ icon(NEXT) }</button>
            <button type="button" data-action="last" aria-label={t(lang, Text::BackToGame)}
                    onclick={act(Action::Tree(TreeAction::View(None)))} disabled={state.viewing.is_none()}>{ icon(LAST) }</button>
            <div class="embed-status"><Status view={embed_status(props.state.get())} /></div>
            <a class="embed-open" href={full_app} target="_blank" rel="noopener"
               title={t(lang, Text::OpenInQi)}>{ "Qi ↗" }</a>
        </nav>
    }
}

/// Button icons as SVG paths on a 16-unit square (the arrow characters are missing from many
/// fonts).
const FIRST: &str = "M3 3h2v10H3zM13 3v10L6 8z";
const PREVIOUS: &str = "M11 3v10L4 8z";
const PLAY: &str = "M5 3v10l8-5z";
const PAUSE: &str = "M4 3h3v10H4zM9 3h3v10H9z";
const NEXT: &str = "M5 3v10l7-5z";
const LAST: &str = "M11 3h2v10h-2zM3 3v10l7-5z";

fn icon(path: &'static str) -> Html {
    html! {
        <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true"><path d={path} fill="currentColor" /></svg>
    }
}

/// The status as the embed shows it: the embed does not ask the worker for openings' names, so
/// it keeps no line for one.
fn embed_status(state: &PlayState) -> StatusView {
    StatusView { hold_opening_line: false, ..status_view(state) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use qi_rules::{GameKind, Side};

    fn options(query: &str) -> (EmbedOptions, Vec<LinkError>) {
        EmbedOptions::read(&Query::parse(query))
    }

    #[test]
    fn options_read_and_write_back() {
        let (read, errors) = options(
            "play=1&controls=1&movelist=1&autoplay=2.5&coords=0&theme=dark&lang=vi&sound=1&sr=1",
        );
        assert!(errors.is_empty());
        let expected = EmbedOptions {
            play: true,
            controls: true,
            move_list: true,
            autoplay_ms: Some(2500),
            coords: false,
            theme: Theme::Dark,
            lang: Some(Lang::Vi),
            sound: true,
            screen_reader: true,
        };
        assert_eq!(read, expected);
        assert_eq!(options(&expected.to_params()).0, expected);
        assert_eq!(options("").0, EmbedOptions::default());
        assert_eq!(EmbedOptions::default().to_params(), "");
        assert_eq!(options("autoplay=1").0.autoplay_ms, Some(AUTOPLAY_DEFAULT_MS));
    }

    #[test]
    fn nonsense_options_are_ignored_and_reported() {
        let (read, errors) = options("play=maybe&autoplay=1000&theme=<b>&lang=fr");
        assert_eq!(read, EmbedOptions::default());
        assert_eq!(errors.len(), 4);
    }

    #[test]
    fn the_embed_opens_the_linked_game_at_the_asked_ply() {
        let query = Query::parse("game=chess&moves=e2e4+e7e5+g1f3&ply=1&orientation=black");
        let (state, options) = initial(&query, Lang::En);
        assert!(!options.play);
        assert_eq!(state.record.moves.len(), 3);
        assert_eq!(state.viewing_main_ply(), Some(1));
        assert!(state.flipped);
        let (state, _) = initial(&Query::parse("game=xiangqi&moves=h3e3&autoplay=1"), Lang::Zh);
        assert_eq!(state.viewing_main_ply(), Some(0), "autoplay starts from the start");
        assert_eq!(state.settings.lang, Lang::Zh);
        let (state, _) = initial(&Query::parse("game=gomoku&moves=h8+i9"), Lang::En);
        assert_eq!(state.viewing, None, "a replay opens at the end");
        assert_eq!(state.game.side_to_move(), Side::First);
        // No game in the address: an empty chess board; a bad one: the reason.
        let (state, _) = initial(&Query::parse(""), Lang::En);
        assert_eq!(state.game.kind(), GameKind::Chess);
        let (state, _) = initial(&Query::parse("game=chess&moves=e2e5&theme=pink"), Lang::En);
        assert!(matches!(state.notice, Some(Notice::Link(LinkError::BadMove { ply: 1, .. }))));
    }
}
