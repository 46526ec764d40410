//! The controls: game picker, new game / undo / flip, each game's rule options, clock, language
//! and theme.

use qi_rules::GameKind;
use qi_rules::any::rule_docs;
use wasm_bindgen::JsCast;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use crate::state::EngineAction;
use crate::state::TreeAction;
use crate::state::{
    Action, AppState, ClockConfig, Mode, Settings, SettingsAction, SetupChoice, Theme,
};
use crate::web::{now_ms, random_seed};
use qi_i18n::text::{Lang, Text, game_name, pick, t};
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
    /// Which game this is ([`AppState::game_number`]): a question asked about one game (resign?)
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

/// A rule option's name in `lang`.
pub fn option_label(lang: Lang, key: &str) -> &'static str {
    match key {
        "variant" => pick(lang, ["Variant", "变体", "Biến thể"]),
        "natural_limit" => pick(
            lang,
            [
                "Draw after plies without capture",
                "无吃子自然限着（步）",
                "Hòa sau số nước không ăn quân",
            ],
        ),
        "ranks" => pick(lang, ["Rank order", "大小顺序", "Thứ bậc quân"]),
        "chain" => pick(lang, ["Chain captures", "连吃", "Ăn liên tiếp"]),
        "rush" => pick(lang, ["Chariot rush", "车直冲", "Xe đi xa"]),
        "capture_hidden" => {
            pick(lang, ["Cannon may take face-down pieces", "炮可打暗子", "Pháo ăn được quân úp"])
        }
        "draw" => pick(
            lang,
            [
                "Draw after plies without flip or capture",
                "无翻无吃和棋步数",
                "Hòa sau số nước không lật, không ăn",
            ],
        ),
        "size" => pick(lang, ["Board size", "棋盘大小", "Cỡ bàn cờ"]),
        "rule" => pick(lang, ["Rule set", "规则", "Luật"]),
        "opening" => pick(lang, ["Opening rule", "开局规则", "Luật khai cuộc"]),
        _ => "?",
    }
}

/// A rule value's name in `lang` (numbers as they are).
pub fn value_label(lang: Lang, value: &str) -> String {
    let named = match value {
        "standard" => Some(["Standard", "标准", "Tiêu chuẩn"]),
        "chess960" => Some(["Chess960", "960 随机", "Cờ 960"]),
        "taiwan" => Some(["Taiwan", "台湾规则", "Kiểu Đài Loan"]),
        "hongkong" => Some(["Hong Kong", "香港规则", "Kiểu Hồng Kông"]),
        "true" => Some(["On", "开", "Bật"]),
        "false" => Some(["Off", "关", "Tắt"]),
        "freestyle" => Some(["Freestyle", "无禁手", "Tự do"]),
        "renju" => Some(["Renju", "连珠（禁手）", "Renju"]),
        "none" => Some(["None", "无", "Không"]),
        "swap" => Some(["Swap", "交换（Swap）", "Swap (đổi màu)"]),
        "swap2" => Some(["Swap2", "交换二（Swap2）", "Swap2"]),
        "soosorv8" => Some([
            "Soosõrv-8 (renju tournaments)",
            "Soosõrv-8（连珠比赛规则）",
            "Soosõrv-8 (giải Renju)",
        ]),
        "caro" => Some([
            "Caro (blocked fives don't win)",
            "Caro（两端被堵不算胜）",
            "Cờ caro (chặn hai đầu)",
        ]),
        _ => None,
    };
    named.map_or_else(|| value.to_owned(), |row| pick(lang, row).to_owned())
}

fn select_value(event: &Event) -> Option<String> {
    let target = event.target()?;
    if let Some(select) = target.dyn_ref::<HtmlSelectElement>() {
        return Some(select.value());
    }
    target.dyn_ref::<HtmlInputElement>().map(HtmlInputElement::value)
}

/// Properties of [`SetupFields`].
#[derive(Properties, PartialEq)]
pub struct SetupFieldsProps {
    /// The choices shown (the game's, or the new-game dialog's draft).
    pub settings: Settings,
    /// A choice was made.
    pub on_choose: Callback<SetupChoice>,
}

/// The choices a game starts with: who plays, the level or speed, the game's rules and the
/// clock (the new-game dialog's fields, and the side panel's).
#[function_component(SetupFields)]
pub fn setup_fields(props: &SetupFieldsProps) -> Html {
    let settings = &props.settings;
    let lang = settings.lang;
    let kind = settings.kind;
    let current: Vec<(String, String)> = settings
        .rules_of(kind)
        .split(',')
        .filter_map(|pair| pair.split_once('='))
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
    let rule_fields = rule_docs(kind).iter().map(|doc| {
        // A key the list leaves out (gomoku's `opening` when there is none) has its default,
        // the first documented value.
        let value = current
            .iter()
            .find(|(k, _)| k == doc.key)
            .map(|(_, v)| v.clone())
            .or_else(|| doc.values.first().map(|v| (*v).to_owned()))
            .unwrap_or_default();
        let on_choose = props.on_choose.clone();
        let key = doc.key.to_owned();
        let onchange = Callback::from(move |event: Event| {
            if let Some(value) = select_value(&event) {
                on_choose.emit(SetupChoice::Rule { key: key.clone(), value });
            }
        });
        let range = doc.values.iter().find(|v| v.contains('-') && v.starts_with(|c: char| c.is_ascii_digit()));
        let field = if let Some(range) = range {
            let (min, max) = range.split_once('-').unwrap_or(("0", "1000"));
            html! { <input type="number" min={min.to_owned()} max={max.to_owned()} value={value} {onchange} data-rule={doc.key} /> }
        } else {
            // A value the other choices rule out (Soosõrv-8 on a board without a centre) is
            // shown but cannot be chosen.
            let rules_now = settings.rules_of(kind);
            let choices = doc.values.iter().map(|choice| {
                let wanted = format!("{rules_now},{}={choice}", doc.key);
                let fits = qi_rules::any::canonical_rules(kind, &wanted).is_ok();
                html! { <option value={*choice} selected={*choice == value} disabled={!fits}>{ value_label(lang, choice) }</option> }
            });
            html! { <select {onchange} data-rule={doc.key}>{ for choices }</select> }
        };
        html! { <label class="option"><span>{ option_label(lang, doc.key) }</span>{ field }</label> }
    });
    let clock_change = {
        let on_choose = props.on_choose.clone();
        Callback::from(move |event: Event| {
            let value = select_value(&event);
            let config = match value.as_deref() {
                Some("custom") => Some(ClockConfig::FIRST_CUSTOM),
                _ => value
                    .and_then(|v| v.parse::<usize>().ok())
                    .and_then(|i| ClockConfig::PRESETS.get(i).copied()),
            };
            on_choose.emit(SetupChoice::Clock(config));
        })
    };
    let clock_choices = ClockConfig::PRESETS.iter().enumerate().map(|(i, preset)| {
        html! { <option value={i.to_string()} selected={settings.clock == Some(*preset)}>{ preset.label() }</option> }
    });
    // A clock that is no preset is the player's own: its two numbers can be changed.
    let custom = settings.clock.filter(|clock| !ClockConfig::PRESETS.contains(clock));
    let custom_field = |value: u32, max: u32, min: u32, minutes: bool| {
        let on_choose = props.on_choose.clone();
        let clock = custom.unwrap_or(ClockConfig::FIRST_CUSTOM);
        let onchange = Callback::from(move |event: Event| {
            let Some(input) = event.target_dyn_into::<HtmlInputElement>() else { return };
            let Ok(number) = input.value().trim().parse::<u32>() else { return };
            let (base, increment) = (clock.base_secs / 60, clock.increment_secs);
            let (base, increment) = if minutes { (number, increment) } else { (base, number) };
            if let Some(config) = ClockConfig::custom(base, increment) {
                on_choose.emit(SetupChoice::Clock(Some(config)));
            }
        });
        let name = if minutes { "clock-minutes" } else { "clock-increment" };
        html! {
            <input type="number" inputmode="numeric" min={min.to_string()} max={max.to_string()} step="1"
                   value={value.to_string()} data-setting={name} {onchange} />
        }
    };
    let custom_fields = custom.map(|clock| {
        html! {
            <>
                <label class="option"><span>{ t(lang, Text::ClockMinutes) }</span>
                    { custom_field(clock.base_secs / 60, 180, 1, true) }
                </label>
                <label class="option"><span>{ t(lang, Text::ClockIncrement) }</span>
                    { custom_field(clock.increment_secs, 60, 0, false) }
                </label>
            </>
        }
    });
    let modes = [
        ("hotseat", Mode::HotSeat, Text::TwoPlayers),
        ("computer-second", Mode::VsComputer { human: Side::First }, Text::ComputerSecond),
        ("computer-first", Mode::VsComputer { human: Side::Second }, Text::ComputerFirst),
        ("watch", Mode::Watch, Text::Watch),
    ];
    let mode_change = {
        let on_choose = props.on_choose.clone();
        Callback::from(move |event: Event| {
            let value = select_value(&event).unwrap_or_default();
            if let Some(&(_, mode, _)) = modes.iter().find(|(name, _, _)| *name == value) {
                on_choose.emit(SetupChoice::Opponent(mode));
            }
        })
    };
    let mode_options = modes.iter().map(|(name, mode, text)| {
        html! { <option value={*name} selected={settings.mode == *mode}>{ t(lang, *text) }</option> }
    });
    let level_change = {
        let on_choose = props.on_choose.clone();
        Callback::from(move |event: Event| {
            if let Some(level) = select_value(&event).and_then(|v| v.parse::<u8>().ok()) {
                on_choose.emit(SetupChoice::Level(level));
            }
        })
    };
    // Each level by its name ("2 — Casual"), short enough for the list to show whole on a
    // phone; the chosen level's whole line is under the list.
    let levels = (1..=6u8).map(|level| {
        let text = t(lang, qi_i18n::text::level_text(level));
        let name = text.split([':', '：']).next().unwrap_or(text);
        let line = format!("{level} — {name}");
        html! { <option value={level.to_string()} selected={settings.level == level}>{ line }</option> }
    });
    let speed_change = {
        let on_choose = props.on_choose.clone();
        Callback::from(move |event: Event| {
            if let Some(speed) = select_value(&event).and_then(|v| v.parse::<usize>().ok()) {
                on_choose.emit(SetupChoice::Speed(speed));
            }
        })
    };
    let speeds = [Text::Slow, Text::Normal, Text::Fast].iter().enumerate().map(|(i, text)| {
        html! { <option value={i.to_string()} selected={settings.watch_speed == i}>{ t(lang, *text) }</option> }
    });
    let computer = settings.mode != Mode::HotSeat;
    html! {
        <>
            <label class="option"><span>{ t(lang, Text::Opponent) }</span>
                <select onchange={mode_change} data-setting="mode">{ for mode_options }</select>
            </label>
            if computer {
                <label class="option"><span>{ t(lang, Text::Level) }</span>
                    <select onchange={level_change} data-setting="level">{ for levels }</select>
                </label>
                <p class="level-note" data-testid="level-note">{ t(lang, qi_i18n::text::level_text(settings.level)) }</p>
            }
            if settings.mode == Mode::Watch {
                <label class="option"><span>{ t(lang, Text::Speed) }</span>
                    <select onchange={speed_change} data-setting="speed">{ for speeds }</select>
                </label>
            }
            <h3>{ t(lang, Text::Rules) }</h3>
            { for rule_fields }
            <label class="option"><span>{ t(lang, Text::Clock) }</span>
                <select onchange={clock_change} data-setting="clock">
                    <option value="off" selected={settings.clock.is_none()}>{ t(lang, Text::NoClock) }</option>
                    { for clock_choices }
                    <option value="custom" selected={custom.is_some()}>
                        { custom.map_or_else(|| t(lang, Text::ClockCustom).to_owned(), |c| format!("{} ({})", t(lang, Text::ClockCustom), c.label())) }
                    </option>
                </select>
            </label>
            { custom_fields.unwrap_or_default() }
        </>
    }
}

/// The action that makes `choice` in the side panel: at once, a new game where the choice is
/// one a game starts with (the opponent, the clock, a rule).
#[must_use]
pub fn setup_action(choice: SetupChoice, seed: u64) -> Action {
    match choice {
        SetupChoice::Game(kind) => Action::PickGame { kind, seed, saved: None },
        SetupChoice::Opponent(mode) => Action::SetMode { mode, seed },
        SetupChoice::Level(level) => Action::Setting(SettingsAction::Level(level)),
        SetupChoice::Speed(speed) => Action::Setting(SettingsAction::WatchSpeed(speed)),
        SetupChoice::Clock(config) => Action::SetClock { config, seed },
        SetupChoice::Rule { key, value } => Action::SetRule { key, value, seed },
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
    let settings = &props.settings;
    let lang = settings.lang;
    let on_choose = {
        let dispatch = props.dispatch.clone();
        Callback::from(move |choice: SetupChoice| {
            dispatch.emit(setup_action(choice, random_seed()))
        })
    };
    let lang_change = {
        let dispatch = props.dispatch.clone();
        Callback::from(move |event: Event| {
            let tag = select_value(&event).unwrap_or_default();
            dispatch.emit(Action::Setting(SettingsAction::Language(Lang::from_tag(&tag))));
        })
    };
    let languages = Lang::ALL.iter().map(|l| {
        html! { <option value={l.tag()} selected={*l == lang}>{ l.native_name() }</option> }
    });
    let theme_change = {
        let dispatch = props.dispatch.clone();
        Callback::from(move |event: Event| {
            let dark = select_value(&event).as_deref() == Some("dark");
            dispatch.emit(Action::Setting(SettingsAction::Theme(if dark {
                Theme::Dark
            } else {
                Theme::Light
            })));
        })
    };
    let dark = settings.theme == Theme::Dark;
    let file_numbers = settings.file_numbers;
    let labels_change = {
        let dispatch = props.dispatch.clone();
        Callback::from(move |event: Event| {
            dispatch.emit(Action::Setting(SettingsAction::FileNumbers(
                select_value(&event).as_deref() != Some("letters"),
            )));
        })
    };
    let checkbox = |make: fn(bool) -> SettingsAction| {
        let dispatch = props.dispatch.clone();
        Callback::from(move |event: Event| {
            if let Some(input) = event.target_dyn_into::<HtmlInputElement>() {
                dispatch.emit(Action::Setting(make(input.checked())));
            }
        })
    };
    let pieces_change = {
        let dispatch = props.dispatch.clone();
        Callback::from(move |event: Event| {
            dispatch.emit(Action::Setting(SettingsAction::PieceSymbols(
                select_value(&event).as_deref() == Some("symbols"),
            )));
        })
    };
    let boards_change = {
        let dispatch = props.dispatch.clone();
        Callback::from(move |event: Event| {
            dispatch.emit(Action::Setting(SettingsAction::SlateBoards(
                select_value(&event).as_deref() == Some("slate"),
            )));
        })
    };
    let scale_change = {
        let dispatch = props.dispatch.clone();
        Callback::from(move |event: InputEvent| {
            let value = event.target_dyn_into::<HtmlInputElement>().map(|input| input.value());
            if let Some(scale) = value.and_then(|v| v.parse::<u8>().ok()) {
                dispatch.emit(Action::Setting(SettingsAction::BoardScale(scale)));
            }
        })
    };
    let volume_change = {
        let dispatch = props.dispatch.clone();
        Callback::from(move |event: Event| {
            if let Some(volume) = select_value(&event).and_then(|v| v.parse::<u8>().ok()) {
                dispatch.emit(Action::Setting(SettingsAction::Volume(volume)));
            }
        })
    };
    let threads_change = {
        let dispatch = props.dispatch.clone();
        Callback::from(move |event: Event| {
            if let Some(threads) = select_value(&event).and_then(|v| v.parse::<u8>().ok()) {
                dispatch.emit(Action::Setting(SettingsAction::EngineThreads(threads)));
            }
        })
    };
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
    html! {
        <section class="options">
            <SetupFields settings={settings.clone()} {on_choose} />
            if settings.kind == GameKind::Gomoku {
                <label class="option"><span>{ t(lang, Text::StoneNumbers) }</span>
                    <input type="checkbox" data-setting="stone-numbers" checked={settings.stone_numbers}
                           onchange={checkbox(SettingsAction::StoneNumbers)} />
                </label>
                <label class="option"><span>{ t(lang, Text::ConfirmStones) }</span>
                    <input type="checkbox" data-setting="confirm-stones" checked={settings.confirm_stones}
                           onchange={checkbox(SettingsAction::ConfirmStones)} />
                </label>
            }
            <label class="option"><span>{ t(lang, Text::ScreenReader) }</span>
                <input type="checkbox" data-setting="screen-reader" checked={settings.screen_reader}
                       onchange={checkbox(SettingsAction::ScreenReader)} />
            </label>
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
        </section>
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
