//! The game's panels around the board: the players with their clocks and presence, the status
//! (whose move, the result, offers, what the server refused), the buttons, and the links.

use qi_protocol::GameAction;
use qi_protocol::{EndReason, NAME_MAX_CHARS, Seat, Status};
use yew::prelude::*;

use super::game::{Note, OnlineGame, side_of};
use super::session::Intent;
use super::texts::shown_text;
use super::texts::{Words, say};
use crate::components::clocks::format_time;
use crate::components::status::{result_code, result_text, side_class, side_label};
use crate::state::Notice;
use crate::web;
use qi_i18n::rules::illegal_reason;
use qi_i18n::text::{Lang, Text, fill_all, t};

/// How often a running clock is redrawn.
const CLOCK_TICK_MS: i32 = 200;

/// Properties of [`PlayerBar`].
#[derive(Properties, PartialEq)]
pub struct PlayerBarProps {
    /// The interface language.
    pub lang: Lang,
    /// `first` or `second`, for tests and styling.
    pub seat: &'static str,
    /// The name as shown.
    pub name: String,
    /// The side's name (White, Red...).
    pub side: &'static str,
    /// The side's colour class.
    pub colour: &'static str,
    /// Whether this is the viewer's seat.
    pub you: bool,
    /// Whether the player is connected; `None` for a free seat.
    pub connected: Option<bool>,
    /// Time left (ms) when drawn, and whether it runs.
    pub clock: Option<(f64, bool)>,
    /// The player's rating as shown (`1500?`), when signed in.
    #[prop_or_default]
    pub rating: Option<String>,
}

/// A player above or below the board: presence, name, side and clock.
#[function_component(PlayerBar)]
pub fn player_bar(props: &PlayerBarProps) -> Html {
    let lang = props.lang;
    let drawn = use_memo(props.clock.map(|(left, _)| left.to_bits()), |_| web::now_ms());
    let redraw = use_force_update();
    let running = props.clock.is_some_and(|(_, running)| running);
    use_effect_with(running, move |running| {
        let stop = running.then(|| web::interval(CLOCK_TICK_MS, move || redraw.force_update()));
        move || {
            if let Some(Some(stop)) = stop {
                stop();
            }
        }
    });
    let clock = props.clock.map(|(left, running)| {
        let left = if running { left - (web::now_ms() - *drawn) } else { left };
        html! {
            <span class={classes!("player-clock", running.then_some("running"), (left <= 0.0).then_some("flagged"))}
                  data-clock={props.seat}>{ format_time(left) }</span>
        }
    });
    let (presence, presence_text) = match props.connected {
        Some(true) => ("present", say(lang, Words::Present)),
        Some(false) => ("away", say(lang, Words::Away)),
        None => ("free", say(lang, Words::EmptySeat)),
    };
    html! {
        <div class={classes!("player-bar", props.you.then_some("is-you"))} data-player={props.seat}>
            <span class={classes!("presence", presence)} role="img" title={presence_text} aria-label={presence_text}
                  data-presence={presence}></span>
            <span class={classes!("side-dot", props.colour)} title={props.side}></span>
            <span class="player-name" data-testid={format!("name-{}", props.seat)}>{ props.name.clone() }</span>
            if let Some(rating) = &props.rating {
                <span class="player-rating" data-testid={format!("rating-{}", props.seat)}>{ format!("({rating})") }</span>
            }
            if props.you {
                <span class="you-tag">{ say(lang, Words::You) }</span>
            }
            { clock.unwrap_or_default() }
        </div>
    }
}

/// The bar for `seat` of `game`.
pub fn player_bar_for(game: &OnlineGame, seat: Seat, lang: Lang, now: f64) -> Html {
    let player = &game.players[seat.index()];
    let seated = player.name.is_some() || player.connected;
    let name = match player.name.as_deref().map(|n| shown_text(n.trim(), NAME_MAX_CHARS)) {
        Some(name) if !name.is_empty() => name,
        _ if !seated => say(lang, Words::EmptySeat).to_owned(),
        _ => say(lang, Words::Anonymous).to_owned(),
    };
    let side = side_of(seat);
    let clock = game.remaining_ms(seat, now).map(|left| (left, game.running_clock() == Some(seat)));
    let label = if seat == Seat::First { "first" } else { "second" };
    let rating = player.rating.map(|rating| rating.to_string());
    html! {
        <PlayerBar {lang} seat={label} {name} side={side_label(&game.board, side)}
                   colour={side_class(&game.board, side)} you={game.you == Some(seat)}
                   connected={seated.then_some(player.connected)} {clock} {rating} />
    }
}

/// The result in words, and the `data-result` code (the winner's colour, `draw`, `aborted`).
#[must_use]
pub fn result_words(game: &OnlineGame, lang: Lang) -> Option<(String, &'static str)> {
    let Status::Ended { result } = &game.status else { return None };
    let board = &game.board;
    let winner_code = |seat: Seat| {
        let side = side_of(seat);
        match side_class(board, side) {
            "red" => "red",
            "white" => "white",
            _ => "black",
        }
    };
    let local = board.result().filter(|local| local.winner == result.winner.map(side_of));
    let words = match (&result.reason, local) {
        (EndReason::Rules { .. } | EndReason::Resignation | EndReason::Timeout, Some(local)) => {
            (result_text(board, &local), result_code(board, &local))
        }
        (EndReason::Agreement, _) => (say(lang, Words::DrawAgreed).to_owned(), "draw"),
        (EndReason::Aborted, _) => (say(lang, Words::Aborted).to_owned(), "aborted"),
        (reason, _) => match result.winner {
            Some(seat) => {
                let template = if *reason == EndReason::Abandoned {
                    say(lang, Words::WonByAbandonment)
                } else {
                    say(lang, Words::Won)
                };
                let side = side_label(board, side_of(seat));
                (fill_all(template, &[("side", side)]), winner_code(seat))
            }
            None => (say(lang, Words::Drawn).to_owned(), "draw"),
        },
    };
    Some(words)
}

/// A note in the player's language.
pub fn note_text(lang: Lang, game: Option<&OnlineGame>, note: &Note) -> Html {
    let kind = game.map_or(qi_rules::GameKind::Chess, |g| g.game.kind());
    match note {
        Note::Rules(reason) => {
            html! { <p class="notice" data-testid="notice">{ illegal_reason(lang, kind, *reason) }</p> }
        }
        Note::Say(words) => {
            html! { <p class="notice" data-testid="notice">{ say(lang, *words) }</p> }
        }
        Note::Server(words, detail) => html! {
            <>
                <p class="notice" data-testid="notice">{ say(lang, *words) }</p>
                if !detail.is_empty() {
                    <p class="server-detail">{ fill_all(say(lang, Words::ServerSays), &[("detail", detail)]) }</p>
                }
            </>
        },
    }
}

/// The status panel: the result or whose move it is, the pending move, offers and notices.
pub fn status_panel(game: &OnlineGame, session_note: Option<&Note>, lang: Lang) -> Html {
    let board = &game.board;
    let main = if let Some((text, code)) = result_words(game, lang) {
        html! { <p class="result" data-result={code}>{ text }</p> }
    } else if game.status == Status::Waiting {
        html! { <p class="waiting">{ say(lang, Words::WaitingForOpponent) }</p> }
    } else {
        let to_move = board.game.side_to_move();
        let line = if game.can_move() {
            say(lang, Words::YourMove).to_owned()
        } else {
            qi_i18n::text::fill(t(lang, Text::ToMove), "side", side_label(board, to_move))
        };
        html! {
            <p class="to-move">
                <span class={classes!("side-dot", side_class(board, to_move))}></span>
                { line }
                if board.game.in_check() {
                    <strong class="in-check">{ " " }{ t(lang, Text::InCheck) }</strong>
                }
            </p>
        }
    };
    let you = game.you;
    // An offer as the viewer reads it: their own, the opponent's, or (for spectators, where
    // there are words for it) whose.
    let offer =
        |by: Option<Seat>, theirs: Words, mine: Words, spectators: Option<Words>| match (by, you) {
            (Some(by), Some(you)) if by == you => Some(say(lang, mine).to_owned()),
            (Some(_), Some(_)) => Some(say(lang, theirs).to_owned()),
            (Some(by), None) => spectators.map(|words| {
                fill_all(say(lang, words), &[("side", side_label(board, side_of(by)))])
            }),
            _ => None,
        };
    let draw = offer(
        game.draw_offer,
        Words::DrawOffered,
        Words::DrawOfferSent,
        Some(Words::DrawOfferedBy),
    );
    let takeback = offer(
        game.takeback_offer,
        Words::TakebackOffered,
        Words::TakebackSent,
        Some(Words::TakebackOfferedBy),
    );
    let rematch = offer(game.rematch_offer, Words::RematchOffered, Words::RematchSent, None);
    let you_play = you.filter(|_| game.status != Status::Waiting).map(|seat| {
        fill_all(say(lang, Words::YouPlay), &[("side", side_label(board, side_of(seat)))])
    });
    let local_notice = match &board.notice {
        Some(Notice::Illegal(reason)) => Some(illegal_reason(lang, board.game.kind(), *reason)),
        Some(Notice::Unreadable) => Some(t(lang, Text::Unreadable)),
        _ => None,
    };
    html! {
        <div class="status" role="status" aria-live="polite" data-testid="status">
            // The last move in words, for screen readers (both players' and the spectators').
            <p class="sr-only" data-testid="announce">{ qi_i18n::speech::last_move_words(lang, board.board_game()).unwrap_or_default() }</p>
            { main }
            if let Some(you_play) = you_play { <p class="you-play">{ you_play }</p> }
            if game.pending.is_some() {
                <p class="sending" data-testid="sending">{ say(lang, Words::Sending) }</p>
            }
            if let Some(ply) = board.viewing_main_ply() {
                <p class="viewing">{ qi_i18n::text::fill(t(lang, Text::Viewing), "n", &ply.to_string()) }</p>
            }
            if let Some(text) = draw { <p class="offer" data-testid="draw-offer">{ text }</p> }
            if let Some(text) = takeback { <p class="offer" data-testid="takeback-offer">{ text }</p> }
            if let Some(text) = rematch { <p class="offer" data-testid="rematch-offer">{ text }</p> }
            if let Some(text) = local_notice { <p class="notice" data-testid="notice">{ text }</p> }
            if let Some(note) = &game.note { { note_text(lang, Some(game), note) } }
            if let Some(note) = session_note { { note_text(lang, Some(game), note) } }
        </div>
    }
}

/// Properties of [`GameButtons`].
#[derive(Properties, PartialEq)]
pub struct GameButtonsProps {
    /// The interface language.
    pub lang: Lang,
    /// Whether the viewer holds a seat.
    pub player: bool,
    /// Whether the game is being played.
    pub playing: bool,
    /// Whether it waits for the second player.
    pub waiting: bool,
    /// Whether it is over.
    pub ended: bool,
    /// Whether messages can go now.
    pub ready: bool,
    /// Whether the game may still be aborted.
    pub can_abort: bool,
    /// Whether the opponent is away (the win may be claimed).
    pub opponent_away: bool,
    /// A draw offer by the opponent.
    pub draw_offered: bool,
    /// The viewer's own draw offer stands.
    pub draw_sent: bool,
    /// Whether takebacks may be asked for at all (never in a rated game).
    pub takeback: bool,
    /// A takeback request by the opponent.
    pub takeback_offered: bool,
    /// Whether the viewer may ask to take back a move now.
    pub can_ask_takeback: bool,
    /// A rematch offer by the opponent.
    pub rematch_offered: bool,
    /// The viewer's own rematch offer stands.
    pub rematch_sent: bool,
    /// What the player does.
    pub act: Callback<Intent>,
    /// Turns the board.
    pub flip: Callback<()>,
}

/// Resign (asked twice), draw, abort, claim, rematch and flip.
#[function_component(GameButtons)]
pub fn game_buttons(props: &GameButtonsProps) -> Html {
    let lang = props.lang;
    let confirm = use_state(|| false);
    let button = |action: &'static str, text: &str, intent: Intent, enabled: bool| {
        let act = props.act.clone();
        let confirm = confirm.clone();
        let onclick = Callback::from(move |_: MouseEvent| {
            confirm.set(false);
            act.emit(intent.clone());
        });
        html! {
            <button type="button" data-action={action} disabled={!enabled || !props.ready} {onclick}>{ text.to_owned() }</button>
        }
    };
    let on_flip = {
        let flip = props.flip.clone();
        Callback::from(move |_: MouseEvent| flip.emit(()))
    };
    let resign = if *confirm {
        let cancel = {
            let confirm = confirm.clone();
            Callback::from(move |_: MouseEvent| confirm.set(false))
        };
        html! {
            <>
                { button("confirm-resign", &format!("{}?", t(lang, Text::Resign)), Intent::Act(GameAction::Resign), true) }
                <button type="button" class="secondary" data-action="cancel-resign" onclick={cancel}>{ t(lang, Text::Cancel) }</button>
            </>
        }
    } else {
        let ask = {
            let confirm = confirm.clone();
            Callback::from(move |_: MouseEvent| confirm.set(true))
        };
        html! { <button type="button" data-action="resign" disabled={!props.ready} onclick={ask}>{ t(lang, Text::Resign) }</button> }
    };
    html! {
        <div class="game-buttons">
            if props.player && props.playing {
                { resign }
                if props.draw_offered {
                    { button("accept-draw", say(lang, Words::AcceptDraw), Intent::Act(GameAction::OfferDraw), true) }
                    { button("decline-draw", say(lang, Words::DeclineDraw), Intent::Act(GameAction::DeclineDraw), true) }
                } else {
                    { button("offer-draw", say(lang, Words::OfferDraw), Intent::Act(GameAction::OfferDraw), !props.draw_sent) }
                }
                if !props.takeback {
                } else if props.takeback_offered {
                    { button("accept-takeback", say(lang, Words::AcceptTakeback), Intent::Act(GameAction::AcceptTakeback), true) }
                    { button("decline-takeback", say(lang, Words::DeclineTakeback), Intent::Act(GameAction::DeclineTakeback), true) }
                } else {
                    { button("takeback", say(lang, Words::AskTakeback), Intent::Act(GameAction::ProposeTakeback), props.can_ask_takeback) }
                }
                if props.can_abort {
                    { button("abort", say(lang, Words::Abort), Intent::Act(GameAction::Abort), true) }
                }
                if props.opponent_away {
                    { button("claim-win", say(lang, Words::ClaimWin), Intent::Act(GameAction::ClaimWin), true) }
                }
            }
            if props.player && props.waiting {
                { button("abort", say(lang, Words::Abort), Intent::Act(GameAction::Abort), true) }
            }
            if props.player && props.ended {
                if props.rematch_offered {
                    { button("rematch", say(lang, Words::AcceptRematch), Intent::Act(GameAction::Rematch), true) }
                } else {
                    { button("rematch", say(lang, Words::Rematch), Intent::Act(GameAction::Rematch), !props.rematch_sent) }
                }
            }
            <button type="button" data-action="flip" onclick={on_flip}>{ t(lang, Text::FlipBoard) }</button>
        </div>
    }
}

/// Properties of [`LinkField`].
#[derive(Properties, PartialEq)]
pub struct LinkFieldProps {
    /// The interface language.
    pub lang: Lang,
    /// The label.
    pub label: Words,
    /// The link.
    pub value: String,
    /// `data-testid` of the field; the copy button's `data-action` is `copy-<testid>`.
    pub testid: &'static str,
}

/// A link with a copy button that says when it copied.
#[function_component(LinkField)]
pub fn link_field(props: &LinkFieldProps) -> Html {
    let copied = use_state(|| false);
    let on_copy = {
        let (value, copied) = (props.value.clone(), copied.clone());
        Callback::from(move |_: MouseEvent| {
            let (value, copied) = (value.clone(), copied.clone());
            yew::platform::spawn_local(async move { copied.set(web::copy_text(&value).await) });
        })
    };
    let select_all = Callback::from(|event: FocusEvent| {
        if let Some(input) = event.target_dyn_into::<web_sys::HtmlInputElement>() {
            input.select();
        }
    });
    let lang = props.lang;
    html! {
        <label class="copy-field">
            <span>{ say(lang, props.label) }</span>
            <span class="copy-row">
                <input readonly=true data-testid={props.testid} value={props.value.clone()} onfocus={select_all} />
                <button type="button" data-action={format!("copy-{}", props.testid)} onclick={on_copy}>
                    { say(lang, if *copied { Words::Copied } else { Words::Copy }) }
                </button>
            </span>
        </label>
    }
}
