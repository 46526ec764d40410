//! The lobby: the player's name, the game, its rule options, the clock and the seat, then a game
//! with an invite link or a quick pairing.

use qi_protocol::{AnyRules, Variant};
use qi_protocol::{ClockSpec, GameSpec, NAME_MAX_CHARS, SeatChoice};
use qi_rules::any::{rule_docs, rules_with};
use qi_rules::{GameKind, Side};
use yew::prelude::*;

use super::labels::{changed_rules, rule_pairs, spec_label};
use super::session::Intent;
use super::texts::{Words, say};
use crate::components::setup_fields::{option_label, value_label};
use crate::state::kind_index;
use qi_i18n::text::{Lang, Text, fill_all, game_name, side_name, t};
use qi_play::record::default_rules;

/// Where the lobby's choices are kept.
pub const LOBBY_KEY: &str = "qi.online.lobby";

/// The clocks offered: minutes for the game and seconds added per move.
pub const CLOCK_PRESETS: [(u32, u32); 5] = [(1, 0), (3, 2), (5, 3), (10, 5), (15, 10)];

/// The clock chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClockChoice {
    /// No clock.
    Off,
    /// One of [`CLOCK_PRESETS`].
    Preset(usize),
    /// Minutes and increment typed in.
    Custom,
}

/// The lobby's choices.
#[derive(Clone, Debug, PartialEq)]
pub struct Choices {
    /// The game.
    pub kind: GameKind,
    /// Chess only: the shuffled start.
    pub chess960: bool,
    /// Each game's rule options, written out in full (in [`GameKind::ALL`]'s order).
    pub rules: [String; 4],
    /// The clock.
    pub clock: ClockChoice,
    /// The custom clock's minutes, as typed.
    pub minutes: String,
    /// The custom clock's increment in seconds, as typed.
    pub increment: String,
    /// The seat wanted (for a created game).
    pub seat: SeatChoice,
    /// A created game is listed in the lobby (anyone may accept), or by invite only.
    pub listed: bool,
    /// A rated game (taken only while signed in).
    pub rated: bool,
}

impl Default for Choices {
    fn default() -> Self {
        Choices {
            kind: GameKind::Chess,
            chess960: false,
            rules: GameKind::ALL.map(default_rules),
            clock: ClockChoice::Preset(2),
            minutes: "20".into(),
            increment: "10".into(),
            seat: SeatChoice::Random,
            listed: true,
            rated: false,
        }
    }
}

impl Choices {
    /// The choices as kept in localStorage ([`LOBBY_KEY`]): one `key:value` a line.
    #[must_use]
    pub fn to_storage(&self) -> String {
        let clock = match self.clock {
            ClockChoice::Off => "off".to_owned(),
            ClockChoice::Preset(index) => index.to_string(),
            ClockChoice::Custom => "custom".to_owned(),
        };
        let seat = match self.seat {
            SeatChoice::First => "first",
            SeatChoice::Second => "second",
            SeatChoice::Random => "random",
        };
        let mut lines = vec![
            format!("game:{}", self.kind.name()),
            format!("chess960:{}", self.chess960),
            format!("clock:{clock}"),
            format!("minutes:{}", self.minutes),
            format!("increment:{}", self.increment),
            format!("seat:{seat}"),
            format!("listed:{}", self.listed),
            format!("rated:{}", self.rated),
        ];
        for (kind, rules) in GameKind::ALL.iter().zip(&self.rules) {
            lines.push(format!("rules.{}:{rules}", kind.name()));
        }
        lines.join("\n")
    }

    /// The choices kept by [`Choices::to_storage`]; anything missing or not understood keeps
    /// its default.
    #[must_use]
    pub fn from_storage(text: &str) -> Choices {
        let mut choices = Choices::default();
        for (key, value) in text.lines().filter_map(|line| line.split_once(':')) {
            let value = value.trim();
            let short = |text: &str| text.chars().count() <= 8;
            match key.trim() {
                "game" => {
                    if let Some(&kind) = GameKind::ALL.iter().find(|kind| kind.name() == value) {
                        choices.kind = kind;
                    }
                }
                "chess960" => choices.chess960 = value == "true",
                "clock" => {
                    choices.clock = match value {
                        "off" => ClockChoice::Off,
                        "custom" => ClockChoice::Custom,
                        index => match index.parse() {
                            Ok(index) if index < CLOCK_PRESETS.len() => ClockChoice::Preset(index),
                            _ => choices.clock,
                        },
                    };
                }
                "minutes" if short(value) => choices.minutes = value.to_owned(),
                "increment" if short(value) => choices.increment = value.to_owned(),
                "listed" => choices.listed = value != "false",
                "rated" => choices.rated = value == "true",
                "seat" => {
                    choices.seat = match value {
                        "first" => SeatChoice::First,
                        "second" => SeatChoice::Second,
                        _ => SeatChoice::Random,
                    };
                }
                key => {
                    let kind = key.strip_prefix("rules.").and_then(|name| {
                        GameKind::ALL.iter().copied().find(|kind| kind.name() == name)
                    });
                    let start = qi_rules::any::StartFrom::Start { seed: 0 };
                    if let Some(kind) = kind
                        && let Ok(game) = qi_rules::any::AnyGame::new(kind.name(), value, &start)
                    {
                        choices.rules[kind_index(kind)] = game.rules_list();
                    }
                }
            }
        }
        choices
    }

    /// The rule options of the game chosen, written out in full.
    #[must_use]
    pub fn rules_of(&self) -> &str {
        &self.rules[kind_index(self.kind)]
    }

    /// Sets a rule option of the game chosen; a value the game does not take changes nothing.
    pub fn set_rule(&mut self, key: &str, value: &str) {
        let index = kind_index(self.kind);
        if let Ok(list) = rules_with(self.kind, &self.rules[index], key, value) {
            self.rules[index] = list;
        }
    }

    /// The game asked for; `None` when a custom clock is not a clock (0.5 to 180 minutes, 0 to
    /// 180 seconds per move), or when the stored rule options do not read (they are checked as
    /// they are stored and set, so only a damaged store gets there).
    #[must_use]
    pub fn spec(&self) -> Option<GameSpec> {
        let clock = match self.clock {
            ClockChoice::Off => None,
            ClockChoice::Preset(index) => {
                let (minutes, increment) = *CLOCK_PRESETS.get(index)?;
                Some(ClockSpec { base_secs: minutes * 60, increment_secs: increment })
            }
            ClockChoice::Custom => {
                let minutes: f64 = self.minutes.trim().replace(',', ".").parse().ok()?;
                let increment: u32 = self.increment.trim().parse().ok()?;
                let base = (minutes * 60.0).round();
                if !(30.0..=10_800.0).contains(&base) {
                    return None;
                }
                Some(ClockSpec { base_secs: base as u32, increment_secs: increment })
            }
        };
        if clock.is_some_and(|clock| !clock.is_valid()) {
            return None;
        }
        let variant = match self.kind {
            GameKind::Chess if self.chess960 => Variant::Chess960,
            GameKind::Chess => Variant::Chess,
            GameKind::Xiangqi => Variant::Xiangqi,
            GameKind::Banqi => Variant::Banqi,
            GameKind::Gomoku => Variant::Gomoku,
        };
        // The stored choices' text read over the variant (whose name says Chess960, so the
        // stored `variant=standard` is left out): the settings are a text edge.
        let rules = AnyRules::parse(variant, &changed_rules(self.kind, self.rules_of())).ok()?;
        Some(GameSpec { rules, clock, rated: self.rated })
    }
}

/// Properties of [`Lobby`].
#[derive(Properties, PartialEq)]
pub struct LobbyProps {
    /// The interface language.
    pub lang: Lang,
    /// The display name.
    pub name: String,
    /// The signed-in username: it is the name, and rated games may be asked for.
    pub account: Option<String>,
    /// The account box, shown below the game's choices (empty without accounts).
    pub account_box: Html,
    /// The game sought, while seeking.
    pub seeking: Option<GameSpec>,
    /// The boards' settings, for the previews of games being played.
    pub settings: crate::state::Settings,
    /// The open challenges and games being played, as the server shows them.
    pub rows: super::session::LobbyRows,
    /// Whether messages can go now.
    pub ready: bool,
    /// What the player does.
    pub act: Callback<Intent>,
}

/// The lobby.
#[function_component(Lobby)]
pub fn lobby(props: &LobbyProps) -> Html {
    let lang = props.lang;
    let choices = use_state(|| {
        crate::web::load(LOBBY_KEY).map(|text| Choices::from_storage(&text)).unwrap_or_default()
    });
    use_effect_with((*choices).clone(), |choices| {
        crate::web::save(LOBBY_KEY, &choices.to_storage());
    });
    let on_name = {
        let act = props.act.clone();
        Callback::from(move |event: InputEvent| {
            if let Some(input) = event.target_dyn_into::<web_sys::HtmlInputElement>() {
                act.emit(Intent::SetName(input.value()));
            }
        })
    };
    let signed_in = props.account.is_some();
    // A rated game only while signed in (the box stays as chosen for the next time).
    let spec = choices.spec().map(|spec| GameSpec { rated: spec.rated && signed_in, ..spec });
    // The lists' filter, and the game whose quick-pairing queue is counted: followed anew
    // whenever either changes.
    let filter = use_state(|| None::<Variant>);
    {
        let act = props.act.clone();
        use_effect_with((*filter, spec.clone()), move |(variant, seek)| {
            act.emit(Intent::FollowLobby { variant: *variant, seek: seek.clone() });
        });
    }
    let on_filter = {
        let filter = filter.clone();
        Callback::from(move |chosen: Option<Variant>| filter.set(chosen))
    };
    let on_create = {
        let (act, spec, seat, listed) =
            (props.act.clone(), spec.clone(), choices.seat, choices.listed);
        Callback::from(move |_: MouseEvent| {
            if let Some(spec) = spec.clone() {
                act.emit(Intent::Create { spec, seat, listed });
            }
        })
    };
    let on_seek = {
        let (act, spec) = (props.act.clone(), spec.clone());
        Callback::from(move |_: MouseEvent| {
            if let Some(spec) = spec.clone() {
                act.emit(Intent::Seek(spec));
            }
        })
    };
    let on_cancel = {
        let act = props.act.clone();
        Callback::from(move |_: MouseEvent| act.emit(Intent::CancelSeek))
    };
    let seeking = props.seeking.as_ref().map(|spec| {
        let text = fill_all(say(lang, Words::Seeking), &[("game", &spec_label(lang, spec))]);
        html! {
            <p class="seeking" data-testid="seeking">
                <span class="spinner" aria-hidden="true"></span>{ text }
                <button type="button" class="secondary" data-action="cancel-seek" onclick={on_cancel}>{ t(lang, Text::Cancel) }</button>
            </p>
        }
    });
    // The account box after the form: it fills in when the server answers, and moves nothing
    // that is on screen then.
    let form = html! {
        <div class="lobby-column">
        <section class="lobby panel" data-testid="lobby">
            if let Some(account) = &props.account {
                <label class="field">
                    <span>{ say(lang, Words::NameIsUsername) }</span>
                    <input type="text" data-testid="name" value={account.clone()} disabled=true />
                </label>
            } else {
                <label class="field">
                    <span>{ say(lang, Words::YourName) }</span>
                    <input type="text" data-testid="name" maxlength={NAME_MAX_CHARS.to_string()} autocomplete="nickname"
                           placeholder={say(lang, Words::Anonymous)} value={props.name.clone()} oninput={on_name} />
                </label>
            }
            { game_fields(lang, &choices) }
            { clock_fields(lang, &choices) }
            { seat_fields(lang, &choices, signed_in) }
            <div class="lobby-buttons">
                <button type="button" class="primary" data-action="create" disabled={spec.is_none()}
                        onclick={on_create}>{ say(lang, Words::CreateGame) }</button>
                <button type="button" data-action="seek" disabled={spec.is_none() || props.seeking.is_some()}
                        onclick={on_seek}>{ say(lang, Words::QuickPairing) }</button>
            </div>
            if let Some(waiting) = props.rows.waiting.filter(|_| spec.is_some()) {
                <p class="waiting-count" data-testid="waiting-count" data-count={waiting.to_string()}>
                    { fill_all(say(lang, Words::WaitingCount), &[("n", &waiting.to_string())]) }
                </p>
            }
            { seeking.unwrap_or_default() }
        </section>
        { props.account_box.clone() }
        </div>
    };
    // The open challenges first, then the form, then the games being played: on a phone the
    // Accept buttons are on the first screen (on a wide screen the form is the left column).
    html! {
        <div class="lobby-page">
        <super::lobby_lists::LobbyLists settings={props.settings.clone()} rows={props.rows.clone()}
                    filter={*filter} {on_filter} ready={props.ready} act={props.act.clone()}
                    between={form} />
        </div>
    }
}

/// A field's change as a change of the choices: `update` takes the field's value (a checkbox's
/// as `true` or `false`).
fn on_change(
    choices: &UseStateHandle<Choices>,
    update: fn(&mut Choices, String),
) -> Callback<Event> {
    let choices = choices.clone();
    Callback::from(move |event: Event| {
        let value = if let Some(select) = event.target_dyn_into::<web_sys::HtmlSelectElement>() {
            select.value()
        } else if let Some(input) = event.target_dyn_into::<web_sys::HtmlInputElement>() {
            if input.type_() == "checkbox" { input.checked().to_string() } else { input.value() }
        } else {
            return;
        };
        let mut next = (*choices).clone();
        update(&mut next, value);
        choices.set(next);
    })
}

/// The game: its tab, Chess960, and its rule options.
fn game_fields(lang: Lang, choices: &UseStateHandle<Choices>) -> Html {
    let games = GameKind::ALL.map(|kind| {
        let choices = choices.clone();
        let current = choices.kind == kind;
        let onclick = Callback::from(move |_: MouseEvent| {
            choices.set(Choices { kind, ..(*choices).clone() });
        });
        html! {
            <button type="button" class={classes!("game-tab", current.then_some("current"))}
                    data-game={kind.name()} aria-pressed={current.to_string()} {onclick}>
                { game_name(lang, kind) }
            </button>
        }
    });
    let rule_fields = rule_docs(choices.kind).iter().filter(|doc| doc.key != "variant").map(|doc| {
        let value = rule_pairs(choices.rules_of())
            .find(|(key, _)| *key == doc.key)
            .map(|(_, value)| value.to_owned())
            .unwrap_or_default();
        let onchange = {
            let (choices, key) = (choices.clone(), doc.key);
            Callback::from(move |event: Event| {
                let value = if let Some(select) =
                    event.target_dyn_into::<web_sys::HtmlSelectElement>()
                {
                    select.value()
                } else if let Some(input) = event.target_dyn_into::<web_sys::HtmlInputElement>() {
                    input.value()
                } else {
                    return;
                };
                let mut next = (*choices).clone();
                next.set_rule(key, value.trim());
                choices.set(next);
            })
        };
        let range = doc.values.iter().find(|v| v.contains('-') && v.starts_with(|c: char| c.is_ascii_digit()));
        let field = if let Some(range) = range {
            let (min, max) = range.split_once('-').unwrap_or(("0", "1000"));
            html! { <input type="number" min={min.to_owned()} max={max.to_owned()} {value} {onchange} data-rule={doc.key} /> }
        } else {
            let options = doc.values.iter().map(|choice| {
                html! { <option value={*choice} selected={*choice == value}>{ value_label(lang, choice) }</option> }
            });
            html! { <select {onchange} data-rule={doc.key}>{ for options }</select> }
        };
        html! { <label class="field"><span>{ option_label(lang, doc.key) }</span>{ field }</label> }
    });
    html! {
        <>
            <div class="field">
                <span>{ t(lang, Text::Game) }</span>
                <div class="game-picker">{ for games }</div>
            </div>
            if choices.kind == GameKind::Chess {
                <label class="check">
                    <input type="checkbox" data-testid="chess960" checked={choices.chess960}
                           onchange={on_change(choices, |c, v| c.chess960 = v == "true")} />
                    { say(lang, Words::Chess960) }
                </label>
            }
            { for rule_fields }
        </>
    }
}

/// The clock: none, a preset, or minutes and an increment of the player's own.
fn clock_fields(lang: Lang, choices: &UseStateHandle<Choices>) -> Html {
    let clock_value = match choices.clock {
        ClockChoice::Off => "off".to_owned(),
        ClockChoice::Preset(index) => index.to_string(),
        ClockChoice::Custom => "custom".to_owned(),
    };
    let clock_options = std::iter::once(("off".to_owned(), t(lang, Text::NoClock).to_owned()))
        .chain(CLOCK_PRESETS.iter().enumerate().map(|(index, &(minutes, increment))| {
            (index.to_string(), format!("{minutes}+{increment}"))
        }))
        .chain(std::iter::once(("custom".to_owned(), say(lang, Words::CustomClock).to_owned())))
        .map(|(value, text)| {
            let selected = value == clock_value;
            html! { <option {value} {selected}>{ text }</option> }
        });
    html! {
        <>
            <label class="field">
                <span>{ t(lang, Text::Clock) }</span>
                <select data-testid="clock" onchange={on_change(choices, |c, v| {
                    c.clock = match v.as_str() {
                        "off" => ClockChoice::Off,
                        "custom" => ClockChoice::Custom,
                        index => index.parse().map(ClockChoice::Preset).unwrap_or(ClockChoice::Off),
                    };
                })}>{ for clock_options }</select>
            </label>
            if choices.clock == ClockChoice::Custom {
                <div class="custom-clock">
                    <label class="field">
                        <span>{ say(lang, Words::Minutes) }</span>
                        <input type="number" min="0.5" max="180" step="0.5" data-testid="minutes"
                               value={choices.minutes.clone()} onchange={on_change(choices, |c, v| c.minutes = v)} />
                    </label>
                    <label class="field">
                        <span>{ say(lang, Words::IncrementSecs) }</span>
                        <input type="number" min="0" max="180" step="1" data-testid="increment"
                               value={choices.increment.clone()} onchange={on_change(choices, |c, v| c.increment = v)} />
                    </label>
                </div>
            }
        </>
    }
}

/// The side to play, who may join, and whether the game is rated (signed in only).
fn seat_fields(lang: Lang, choices: &UseStateHandle<Choices>, signed_in: bool) -> Html {
    let seat_value = match choices.seat {
        SeatChoice::First => "first",
        SeatChoice::Second => "second",
        SeatChoice::Random => "random",
    };
    let seat_options = [
        ("first", side_name(lang, choices.kind, Side::First, None)),
        ("second", side_name(lang, choices.kind, Side::Second, None)),
        ("random", say(lang, Words::SeatRandom)),
    ]
    .map(
        |(value, text)| html! { <option {value} selected={value == seat_value}>{ text }</option> },
    );
    html! {
        <>
            <label class="field">
                <span>{ say(lang, Words::YourSide) }</span>
                <select data-testid="seat" onchange={on_change(choices, |c, v| {
                    c.seat = match v.as_str() {
                        "first" => SeatChoice::First,
                        "second" => SeatChoice::Second,
                        _ => SeatChoice::Random,
                    };
                })}>{ for seat_options }</select>
            </label>
            <label class="field">
                <span>{ say(lang, Words::WhoMayJoin) }</span>
                <select data-testid="listed" onchange={on_change(choices, |c, v| c.listed = v == "anyone")}>
                    <option value="anyone" selected={choices.listed}>{ say(lang, Words::JoinAnyone) }</option>
                    <option value="invite" selected={!choices.listed}>{ say(lang, Words::JoinInvite) }</option>
                </select>
            </label>
            <label class={classes!("check", (!signed_in).then_some("disabled"))}>
                <input type="checkbox" data-testid="rated" checked={choices.rated && signed_in} disabled={!signed_in}
                       aria-describedby={(!signed_in).then_some("rated-hint")}
                       onchange={on_change(choices, |c, v| c.rated = v == "true")} />
                { say(lang, Words::RatedGame) }
                if !signed_in {
                    <span class="muted-note" id="rated-hint">{ say(lang, Words::RatedNeedsAccount) }</span>
                }
            </label>
        </>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game's rules with the changes of `list` (chess: standard chess's).
    fn rules_of(kind: GameKind, list: &str) -> AnyRules {
        let variant = Variant::ALL.into_iter().find(|variant| variant.kind() == kind).unwrap();
        AnyRules::parse(variant, list).unwrap()
    }

    #[test]
    fn choices_make_the_spec() {
        let mut choices = Choices::default();
        let spec = choices.spec().unwrap();
        assert_eq!(spec.variant(), Variant::Chess);
        assert_eq!(spec.clock, Some(ClockSpec { base_secs: 300, increment_secs: 3 }));
        choices.chess960 = true;
        choices.clock = ClockChoice::Off;
        assert_eq!(choices.spec().unwrap().variant(), Variant::Chess960);
        assert_eq!(choices.spec().unwrap().clock, None);
        choices.kind = GameKind::Banqi;
        assert_eq!(choices.spec().unwrap().variant(), Variant::Banqi, "Chess960 is for chess only");
        choices.clock = ClockChoice::Custom;
        choices.minutes = "2,5".into();
        choices.increment = "7".into();
        assert_eq!(
            choices.spec().unwrap().clock,
            Some(ClockSpec { base_secs: 150, increment_secs: 7 })
        );
        for (minutes, increment) in
            [("0", "1"), ("181", "0"), ("x", "1"), ("5", "181"), ("5", "-1")]
        {
            choices.minutes = minutes.into();
            choices.increment = increment.into();
            assert_eq!(choices.spec(), None, "{minutes}+{increment}");
        }
    }

    #[test]
    fn choices_are_kept_and_read_back() {
        let mut choices = Choices {
            kind: GameKind::Gomoku,
            chess960: true,
            clock: ClockChoice::Custom,
            minutes: "2.5".into(),
            increment: "4".into(),
            seat: SeatChoice::Second,
            listed: false,
            rated: true,
            ..Choices::default()
        };
        choices.set_rule("rule", "renju");
        choices.kind = GameKind::Banqi;
        choices.set_rule("chain", "true");
        assert_eq!(Choices::from_storage(&choices.to_storage()), choices);
        assert_eq!(Choices::from_storage(""), Choices::default());
        let odd = "game:go\nclock:9\nminutes:123456789\nrules.banqi:chain=maybe\nnonsense";
        assert_eq!(Choices::from_storage(odd), Choices::default(), "nonsense keeps the defaults");
        let partial = Choices::from_storage("rules.gomoku:rule=renju\nclock:off");
        assert_eq!(partial.rules[kind_index(GameKind::Gomoku)], {
            let mut c = Choices { kind: GameKind::Gomoku, ..Choices::default() };
            c.set_rule("rule", "renju");
            c.rules_of().to_owned()
        });
        assert_eq!(partial.clock, ClockChoice::Off);
    }

    #[test]
    fn rule_options_go_in_the_spec_when_changed() {
        let mut choices = Choices { kind: GameKind::Banqi, ..Choices::default() };
        assert_eq!(choices.spec().unwrap().rules, rules_of(choices.kind, ""));
        choices.set_rule("chain", "true");
        choices.set_rule("draw", "77");
        choices.set_rule("ranks", "nonsense");
        assert_eq!(choices.spec().unwrap().rules, rules_of(choices.kind, "chain=true,draw=77"));
        choices.kind = GameKind::Gomoku;
        assert_eq!(
            choices.spec().unwrap().rules,
            rules_of(choices.kind, ""),
            "each game keeps its own"
        );
        choices.set_rule("rule", "renju");
        assert_eq!(choices.spec().unwrap().rules, rules_of(choices.kind, "rule=renju"));
        choices.kind = GameKind::Banqi;
        assert_eq!(choices.spec().unwrap().rules, rules_of(choices.kind, "chain=true,draw=77"));
        choices.kind = GameKind::Chess;
        choices.chess960 = true;
        let spec = choices.spec().unwrap();
        assert_eq!(spec.rules, AnyRules::of(Variant::Chess960));
        let game = qi_rules::any::AnyGame::new(
            "banqi",
            "chain=true,draw=77",
            &qi_rules::any::StartFrom::Start { seed: 1 },
        );
        assert!(game.is_ok(), "the server takes the list");
    }
}
