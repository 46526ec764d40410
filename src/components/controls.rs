//! The controls: game picker, new game / undo / flip, and the side panel's options (the game's
//! setup from [`super::setup_fields`], then how moves are put in, how the board looks, and the
//! device's own choices: engine threads, sound, language, theme).

use qi_rules::GameKind;
use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::setup_fields::{SetupFields, select_value, setup_action};
use crate::state::{
    Action, AppState, EngineAction, Mode, Settings, SettingsAction, SetupChoice, Theme, TreeAction,
};
use crate::web::{now_ms, random_seed};
use qi_i18n::text::{Lang, Text, game_name, t};
use qi_play::record::{GameRecord, storage_key};
use qi_rules::Side;
use qi_settings::{BOARD_SCALES, DEFAULT_VOLUME, MOST_ENGINE_THREADS, VOLUME_CHOICES};

/// Properties of [`GamePicker`].
#[derive(Properties, PartialEq)]
pub struct GamePickerProps {
    /// The interface language.
    pub lang: Lang,
    /// The game being played.
    pub current: GameKind,
    /// Where actions go.
    pub dispatch: Callback<Action>,
}

/// The four games, as tabs.
#[function_component(GamePicker)]
pub fn game_picker(props: &GamePickerProps) -> Html {
    let lang = props.lang;
    let buttons = GameKind::ALL.iter().map(|&kind| {
        let dispatch = props.dispatch.clone();
        let onclick = Callback::from(move |_: MouseEvent| {
            let saved =
                crate::web::load(&storage_key(kind)).and_then(|t| GameRecord::from_text(&t));
            dispatch.emit(Action::PickGame { kind, seed: random_seed(), saved });
        });
        let current = props.current == kind;
        html! {
            <button type="button" class={classes!("game-tab", current.then_some("current"))}
                    data-game={kind.name()} aria-pressed={current.to_string()} {onclick}>
                { game_name(lang, kind) }
            </button>
        }
    });
    html! { <nav class="game-picker" aria-label={t(lang, Text::Game)}>{ for buttons }</nav> }
}

/// Which game buttons are offered and how, from [`game_buttons_view`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[allow(clippy::struct_excessive_bools)] // Each is one button's state.
pub struct GameButtonsView {
    /// The interface language.
    pub lang: Lang,
    /// Undo can take a move back (the game as it stands has one, and goes on).
    pub can_undo: bool,
    /// A banqi chain capture may be ended.
    pub end_chain: bool,
    /// A gomoku opening asks the player for a colour; `Some(true)` when a stone may be put
    /// instead (swap2's "two more").
    pub take_colour: Option<bool>,
    /// Soosõrv-8 asks the player how many fifth stones Black offers.
    pub declare_offers: bool,
    /// The opening step the hint suggests, made with one of these buttons (marked).
    pub suggested: Option<qi_rules::gomoku::GomokuMove>,
    /// The player may resign.
    pub resign: bool,
    /// The board takes the player's move, so a hint is offered.
    pub hint: bool,
    /// The computer is busy (a hint waits).
    pub thinking: bool,
    /// "Play from here": a past position is shown, or the game was ended.
    pub play_from_here: bool,
    /// The analysis is on.
    pub analysing: bool,
    /// A review may start.
    pub review: bool,
    /// Which game this is ([`PlayState::game_number`]): a question asked about one game (resign?)
    /// is not carried to the next.
    pub game_number: u64,
    /// Two people share the board: "Play the computer" is offered, at this level.
    pub play_computer: Option<u8>,
}

/// The game buttons for `state`.
#[must_use]
pub fn game_buttons_view(state: &AppState) -> GameButtonsView {
    let live = state.viewing.is_none();
    GameButtonsView {
        lang: state.settings.lang,
        can_undo: !state.record.moves.is_empty() && live && state.record.ending.is_none(),
        end_chain: state.chain_in_progress(),
        take_colour: (state.accepts_moves() && state.colour_choice_due())
            .then(|| state.stones_instead_of_colour()),
        declare_offers: state.accepts_moves() && state.offer_count_due(),
        suggested: state.engine.hint.and_then(|hint| hint.step),
        resign: state.result().is_none() && live && state.settings.mode != Mode::Watch,
        hint: state.accepts_moves(),
        thinking: state.engine.thinking.is_some(),
        play_from_here: !live || state.record.ending.is_some(),
        analysing: state.engine.analysing,
        review: state.review_allowed() && state.current_review().is_none_or(|r| !r.running()),
        game_number: state.game_number,
        // Only where it loses nothing: before the first move, or once the game is over (a
        // click starts a new game against the computer).
        play_computer: (state.settings.mode == Mode::HotSeat
            && (state.record.moves.is_empty() || state.result().is_some()))
        .then_some(state.settings.level),
    }
}

/// Properties of [`GameButtons`].
#[derive(Properties, PartialEq)]
pub struct GameButtonsProps {
    /// What to offer.
    pub view: GameButtonsView,
    /// Where actions go.
    pub dispatch: Callback<Action>,
    /// Ask the computer for a suggested move.
    pub on_hint: Callback<()>,
    /// Open the new-game dialog.
    pub on_new_game: Callback<()>,
}

/// New game, undo, flip, resign, hint, play from here.
#[function_component(GameButtons)]
pub fn game_buttons(props: &GameButtonsProps) -> Html {
    let view = &props.view;
    let lang = view.lang;
    let emit = |make: fn() -> Action| {
        let dispatch = props.dispatch.clone();
        Callback::from(move |_: MouseEvent| dispatch.emit(make()))
    };
    let can_undo = view.can_undo;
    // Resigning asks first, as the online page does: one slip beside "Hint" must not end the game.
    // The question belongs to the game it was asked in: a new game starts without it.
    let confirming_in = use_state(|| None::<u64>);
    let game_number = view.game_number;
    let resign = if *confirming_in == Some(game_number) {
        let (dispatch, yes, no) =
            (props.dispatch.clone(), confirming_in.clone(), confirming_in.clone());
        let confirm = Callback::from(move |_: MouseEvent| {
            yes.set(None);
            dispatch.emit(Action::Resign);
        });
        let cancel = Callback::from(move |_: MouseEvent| no.set(None));
        html! {
            <>
                <button type="button" data-action="confirm-resign" onclick={confirm}>{ format!("{}?", t(lang, Text::Resign)) }</button>
                <button type="button" class="secondary" data-action="cancel-resign" onclick={cancel}>{ t(lang, Text::Cancel) }</button>
            </>
        }
    } else {
        let ask = {
            let confirming_in = confirming_in.clone();
            Callback::from(move |_: MouseEvent| confirming_in.set(Some(game_number)))
        };
        html! { <button type="button" data-action="resign" onclick={ask}>{ t(lang, Text::Resign) }</button> }
    };
    let end_chain = view.end_chain.then(|| {
        html! {
            <button type="button" data-action="end-chain"
                    onclick={emit(|| Action::EndChain { now: now_ms() })}>{ t(lang, Text::EndChain) }</button>
        }
    });
    let suggested = view.suggested;
    let suggested_class = |colour: Side| {
        classes!(
            (suggested == Some(qi_rules::gomoku::GomokuMove::Take(colour))).then_some("suggested")
        )
    };
    let take_colour = view.take_colour.map(|stones_too| {
        let take = |colour: Side| {
            let dispatch = props.dispatch.clone();
            Callback::from(move |_: MouseEvent| {
                dispatch.emit(Action::TakeColour { colour, now: now_ms() });
            })
        };
        html! {
            <div class="colour-choice" role="group" aria-label={t(lang, Text::ChooseColour)}>
                <p>{ t(lang, if stones_too { Text::ChooseColourOrTwoMore } else { Text::ChooseColour }) }</p>
                <button type="button" data-action="take-black" class={suggested_class(Side::First)} onclick={take(Side::First)}>{ t(lang, Text::TakeBlack) }</button>
                <button type="button" data-action="take-white" class={suggested_class(Side::Second)} onclick={take(Side::Second)}>{ t(lang, Text::TakeWhite) }</button>
            </div>
        }
    });
    let declare_offers = view.declare_offers.then(|| {
        let dispatch = props.dispatch.clone();
        let suggested_count = match suggested {
            Some(qi_rules::gomoku::GomokuMove::Declare(count)) => Some(count),
            _ => None,
        };
        offer_count_buttons(
            lang,
            &Callback::from(move |count| {
                dispatch.emit(Action::DeclareOffers { count, now: now_ms() });
            }),
            suggested_count,
        )
    });
    // The first screen's way to the computer: one click, the player moving first, at the level
    // chosen last (2 at first), which the line under it names.
    let play_computer = view.play_computer.map(|level| {
        let dispatch = props.dispatch.clone();
        let onclick = Callback::from(move |_: MouseEvent| {
            let mode = Mode::VsComputer { human: Side::First };
            dispatch.emit(Action::SetMode { mode, seed: crate::web::random_seed() });
        });
        // A full-width colon in Chinese, as the level's own line has.
        let colon = if lang == Lang::Zh { "：" } else { ": " };
        let note = format!("{} {level}{colon}{}", t(lang, Text::Level), t(lang, qi_i18n::text::level_text(level)));
        html! {
            <div class="play-computer">
                <button type="button" class="primary" data-action="play-computer" {onclick}>{ t(lang, Text::PlayComputer) }</button>
                <span class="level-note" data-testid="play-computer-level">{ note }</span>
            </div>
        }
    });
    html! {
        <div class="game-buttons">
            { play_computer.unwrap_or_default() }
            { take_colour.unwrap_or_default() }
            { declare_offers.unwrap_or_default() }
            <button type="button" data-action="new-game"
                    aria-haspopup="dialog"
                    onclick={let open = props.on_new_game.clone(); Callback::from(move |_: MouseEvent| open.emit(()))}>{ t(lang, Text::NewGame) }</button>
            <button type="button" data-action="undo" disabled={!can_undo}
                    onclick={emit(|| Action::Undo { now: now_ms() })}>{ t(lang, Text::Undo) }</button>
            <button type="button" data-action="flip"
                    onclick={emit(|| Action::Tree(TreeAction::FlipBoard))}>{ t(lang, Text::FlipBoard) }</button>
            { end_chain.unwrap_or_default() }
            if view.resign {
                { resign }
            }
            if view.hint {
                <button type="button" data-action="hint" disabled={view.thinking}
                        onclick={let on_hint = props.on_hint.clone(); Callback::from(move |_: MouseEvent| on_hint.emit(()))}>
                    { t(lang, Text::Hint) }
                </button>
            }
            if view.play_from_here {
                <button type="button" data-action="play-from-here"
                        onclick={emit(|| Action::PlayFromHere)}>{ t(lang, Text::PlayFromHere) }</button>
            }
            <button type="button" data-action="analyse" class={classes!(view.analysing.then_some("on"))}
                    aria-pressed={if view.analysing { "true" } else { "false" }}
                    onclick={emit(|| Action::Engine(EngineAction::ToggleAnalysis))}>{ t(lang, Text::Analyse) }</button>
            if view.review {
                <button type="button" data-action="review"
                        onclick={emit(|| Action::Engine(EngineAction::StartReview))}>{ t(lang, Text::Review) }</button>
            }
        </div>
    }
}

/// Properties of [`Options`].
#[derive(Properties, PartialEq)]
pub struct OptionsProps {
    /// The player's choices, which the panel shows and changes.
    pub settings: Settings,
    /// Where actions go.
    pub dispatch: Callback<Action>,
}

/// The current game's setup (who plays, rules, clock), then how it looks and sounds: language,
/// theme, pieces, labels, sound.
#[function_component(Options)]
pub fn options(props: &OptionsProps) -> Html {
    let (settings, dispatch) = (&props.settings, &props.dispatch);
    let on_choose = {
        let dispatch = dispatch.clone();
        Callback::from(move |choice: SetupChoice| {
            dispatch.emit(setup_action(choice, random_seed()))
        })
    };
    html! {
        <section class="options">
            <SetupFields settings={settings.clone()} {on_choose} />
            { input_fields(settings, dispatch) }
            { look_fields(settings, dispatch) }
            { device_fields(settings, dispatch) }
        </section>
    }
}

/// A list's change as a settings action: `make` reads the value chosen (`None`: nothing to do).
fn on_select(
    dispatch: &Callback<Action>,
    make: impl Fn(&str) -> Option<SettingsAction> + 'static,
) -> Callback<Event> {
    let dispatch = dispatch.clone();
    Callback::from(move |event: Event| {
        if let Some(action) = select_value(&event).as_deref().and_then(&make) {
            dispatch.emit(Action::Setting(action));
        }
    })
}

/// A checkbox's change as a settings action.
fn on_check(dispatch: &Callback<Action>, make: fn(bool) -> SettingsAction) -> Callback<Event> {
    let dispatch = dispatch.clone();
    Callback::from(move |event: Event| {
        if let Some(input) = event.target_dyn_into::<HtmlInputElement>() {
            dispatch.emit(Action::Setting(make(input.checked())));
        }
    })
}

/// How moves are put in: gomoku's stone numbers and second tap, the screen-reader mode.
fn input_fields(settings: &Settings, dispatch: &Callback<Action>) -> Html {
    let lang = settings.lang;
    html! {
        <>
            if settings.kind == GameKind::Gomoku {
                <label class="option"><span>{ t(lang, Text::StoneNumbers) }</span>
                    <input type="checkbox" data-setting="stone-numbers" checked={settings.stone_numbers}
                           onchange={on_check(dispatch, SettingsAction::StoneNumbers)} />
                </label>
                <label class="option"><span>{ t(lang, Text::ConfirmStones) }</span>
                    <input type="checkbox" data-setting="confirm-stones" checked={settings.confirm_stones}
                           onchange={on_check(dispatch, SettingsAction::ConfirmStones)} />
                </label>
            }
            <label class="option"><span>{ t(lang, Text::ScreenReader) }</span>
                <input type="checkbox" data-setting="screen-reader" checked={settings.screen_reader}
                       onchange={on_check(dispatch, SettingsAction::ScreenReader)} />
            </label>
        </>
    }
}

/// How the board looks: the piece set, xiangqi's labels, the boards' colours and size.
fn look_fields(settings: &Settings, dispatch: &Callback<Action>) -> Html {
    let lang = settings.lang;
    let pieces_change =
        on_select(dispatch, |value| Some(SettingsAction::PieceSymbols(value == "symbols")));
    let labels_change =
        on_select(dispatch, |value| Some(SettingsAction::FileNumbers(value != "letters")));
    let boards_change =
        on_select(dispatch, |value| Some(SettingsAction::SlateBoards(value == "slate")));
    let scale_change = {
        let dispatch = dispatch.clone();
        Callback::from(move |event: InputEvent| {
            let value = event.target_dyn_into::<HtmlInputElement>().map(|input| input.value());
            if let Some(scale) = value.and_then(|v| v.parse::<u8>().ok()) {
                dispatch.emit(Action::Setting(SettingsAction::BoardScale(scale)));
            }
        })
    };
    let file_numbers = settings.file_numbers;
    html! {
        <>
            if matches!(settings.kind, GameKind::Xiangqi | GameKind::Banqi) {
                <label class="option"><span>{ t(lang, Text::PieceSet) }</span>
                    <select onchange={pieces_change} data-setting="pieces">
                        <option value="characters" selected={!settings.piece_symbols}>{ t(lang, Text::PieceCharacters) }</option>
                        <option value="symbols" selected={settings.piece_symbols}>{ t(lang, Text::PieceSymbols) }</option>
                    </select>
                </label>
            }
            if settings.kind == GameKind::Xiangqi {
                <label class="option"><span>{ t(lang, Text::BoardLabels) }</span>
                    <select onchange={labels_change} data-setting="board-labels">
                        <option value="numbers" selected={file_numbers}>{ t(lang, Text::FileNumbers) }</option>
                        <option value="letters" selected={!file_numbers}>{ t(lang, Text::FileLetters) }</option>
                    </select>
                </label>
            }
            <label class="option"><span>{ t(lang, Text::BoardColours) }</span>
                <select onchange={boards_change} data-setting="boards">
                    <option value="wood" selected={!settings.slate_boards}>{ t(lang, Text::BoardsWood) }</option>
                    <option value="slate" selected={settings.slate_boards}>{ t(lang, Text::BoardsSlate) }</option>
                </select>
            </label>
            <label class="option wide-only"><span>{ t(lang, Text::BoardSize) }</span>
                <input type="range" min={BOARD_SCALES.0.to_string()} max={BOARD_SCALES.1.to_string()} step="5"
                       value={settings.board_scale.to_string()} data-setting="board-size" oninput={scale_change} />
            </label>
        </>
    }
}

/// The device's own choices: the engine's cores, the sound, the language and the theme.
fn device_fields(settings: &Settings, dispatch: &Callback<Action>) -> Html {
    let lang = settings.lang;
    let threads_change =
        on_select(dispatch, |value| value.parse().ok().map(SettingsAction::EngineThreads));
    let volume_change = on_select(dispatch, |value| value.parse().ok().map(SettingsAction::Volume));
    let lang_change =
        on_select(dispatch, |value| Some(SettingsAction::Language(Lang::from_tag(value))));
    let theme_change = on_select(dispatch, |value| {
        Some(SettingsAction::Theme(if value == "dark" { Theme::Dark } else { Theme::Light }))
    });
    let automatic = qi_i18n::text::fill(
        t(lang, Text::ThreadsAutomatic),
        "n",
        &crate::worker::automatic_threads().to_string(),
    );
    let thread_choices = (1..=MOST_ENGINE_THREADS).map(|n| {
        html! { <option value={n.to_string()} selected={settings.engine_threads == n}>{ n }</option> }
    });
    let volume_names = [Text::SoundOff, Text::SoundQuiet, Text::Normal, Text::SoundLoud];
    // The stored volume may be any 0-100: the nearest choice is shown as chosen.
    let nearest = VOLUME_CHOICES
        .iter()
        .copied()
        .min_by_key(|&v| v.abs_diff(settings.volume))
        .unwrap_or(DEFAULT_VOLUME);
    let volumes = VOLUME_CHOICES.iter().zip(volume_names).map(|(&volume, text)| {
        html! { <option value={volume.to_string()} selected={volume == nearest}>{ t(lang, text) }</option> }
    });
    let languages = Lang::ALL.iter().map(|l| {
        html! { <option value={l.tag()} selected={*l == lang}>{ l.native_name() }</option> }
    });
    let dark = settings.theme == Theme::Dark;
    html! {
        <>
            <label class="option"><span>{ t(lang, Text::EngineThreads) }</span>
                <select onchange={threads_change} data-setting="threads">
                    <option value="0" selected={settings.engine_threads == 0}>{ automatic }</option>
                    { for thread_choices }
                </select>
            </label>
            <label class="option"><span>{ t(lang, Text::Sound) }</span>
                <select onchange={volume_change} data-setting="sound">{ for volumes }</select>
            </label>
            <label class="option"><span>{ t(lang, Text::Language) }</span>
                <select onchange={lang_change} data-setting="language">{ for languages }</select>
            </label>
            <label class="option"><span>{ t(lang, Text::Theme) }</span>
                <select onchange={theme_change} data-setting="theme">
                    <option value="light" selected={!dark}>{ t(lang, Text::Light) }</option>
                    <option value="dark" selected={dark}>{ t(lang, Text::Dark) }</option>
                </select>
            </label>
        </>
    }
}

/// Soosõrv-8's declaration: a button for each number of fifth stones White may ask Black to
/// offer, 1 to 8; `on_count` gets the number; the hint's number, if any, is marked.
pub fn offer_count_buttons(lang: Lang, on_count: &Callback<u8>, suggested: Option<u8>) -> Html {
    let buttons = (1..=qi_rules::gomoku::MAX_OFFERS).map(|count| {
        let on_count = on_count.clone();
        let label = qi_i18n::text::fill(t(lang, Text::OfferCount), "n", &count.to_string());
        let class = classes!((suggested == Some(count)).then_some("suggested"));
        html! {
            <button type="button" data-action="declare-offers" data-count={count.to_string()} {class}
                    aria-label={label} onclick={Callback::from(move |_: MouseEvent| on_count.emit(count))}>
                { count }
            </button>
        }
    });
    html! {
        <div class="colour-choice offer-count" role="group" aria-label={t(lang, Text::DeclareOffers)}>
            <p>{ t(lang, Text::DeclareOffers) }</p>
            { for buttons }
        </div>
    }
}
