//! The choices a game starts with, as the side panel and the new-game dialog show them: who
//! plays (opponent, level, pace), the game's rule options, and the clock.

use qi_rules::Side;
use qi_rules::any::rule_docs;
use wasm_bindgen::JsCast;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use crate::state::{Action, ClockConfig, Mode, Settings, SettingsAction, SetupChoice};
use qi_i18n::text::{Lang, Text, pick, t};

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

pub(super) fn select_value(event: &Event) -> Option<String> {
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
    let (settings, on_choose) = (&props.settings, &props.on_choose);
    html! {
        <>
            { player_fields(settings, on_choose) }
            <h3>{ t(settings.lang, Text::Rules) }</h3>
            { rule_fields(settings, on_choose) }
            { clock_fields(settings, on_choose) }
        </>
    }
}

/// Who plays: the opponent, and the computer's level and pace when it plays.
fn player_fields(settings: &Settings, on_choose: &Callback<SetupChoice>) -> Html {
    let lang = settings.lang;
    let modes = [
        ("hotseat", Mode::HotSeat, Text::TwoPlayers),
        ("computer-second", Mode::VsComputer { human: Side::First }, Text::ComputerSecond),
        ("computer-first", Mode::VsComputer { human: Side::Second }, Text::ComputerFirst),
        ("watch", Mode::Watch, Text::Watch),
    ];
    let mode_change = {
        let on_choose = on_choose.clone();
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
        let on_choose = on_choose.clone();
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
        let on_choose = on_choose.clone();
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
        </>
    }
}

/// The game's rule options, each a list (or a number field for a range) of its values.
fn rule_fields(settings: &Settings, on_choose: &Callback<SetupChoice>) -> Html {
    let (lang, kind) = (settings.lang, settings.kind);
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
        let on_choose = on_choose.clone();
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
    html! { <>{ for rule_fields }</> }
}

/// The clock: none, a preset, or the player's own (minutes and increment).
fn clock_fields(settings: &Settings, on_choose: &Callback<SetupChoice>) -> Html {
    let lang = settings.lang;
    let clock_change = {
        let on_choose = on_choose.clone();
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
        let on_choose = on_choose.clone();
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
    html! {
        <>
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
