//! The game's chat panel: the lines of the reader's room, the quick messages (sent as codes,
//! each reader seeing them in their own language), a line of text, and a per-game mute.

use qi_protocol::{CHAT_MAX_CHARS, ChatBody, ChatLine, ChatRoom, QuickMessage, Seat};
use yew::prelude::*;

use super::session::Intent;
use super::texts::{Words, say};
use qi_i18n::text::Lang;

/// The words of a quick message, in whatever language the reader reads.
#[must_use]
pub fn quick_words(code: QuickMessage) -> Words {
    match code {
        QuickMessage::Hello => Words::QuickHello,
        QuickMessage::GoodLuck => Words::QuickGoodLuck,
        QuickMessage::GoodGame => Words::QuickGoodGame,
        QuickMessage::Thanks => Words::QuickThanks,
        QuickMessage::Rematch => Words::QuickRematch,
        QuickMessage::Unknown => Words::ChatUnknown,
    }
}

/// A quick message's code as the page marks it (`data-quick`), the wire's name.
fn quick_code(code: QuickMessage) -> &'static str {
    match code {
        QuickMessage::Hello => "hello",
        QuickMessage::GoodLuck => "good_luck",
        QuickMessage::GoodGame => "good_game",
        QuickMessage::Thanks => "thanks",
        QuickMessage::Rematch => "rematch",
        QuickMessage::Unknown => "unknown",
    }
}

/// Properties of [`ChatPanel`].
#[derive(Properties, PartialEq)]
pub struct ChatPanelProps {
    /// The interface language (quick messages are shown in it, whoever sent them).
    pub lang: Lang,
    /// The room the reader is in.
    pub room: ChatRoom,
    /// The reader's seat, if a player (their own lines are marked).
    pub you: Option<Seat>,
    /// The lines, oldest first.
    pub lines: Vec<ChatLine>,
    /// Whether the lines are hidden.
    pub muted: bool,
    /// Whether messages can go now.
    pub ready: bool,
    /// The reader's own name (a spectator's lines are told by it).
    pub name: String,
    /// What the reader does.
    pub act: Callback<Intent>,
}

/// Whether `line` was written by the reader.
fn is_own(line: &ChatLine, you: Option<Seat>, name: &str) -> bool {
    match (line.seat, you) {
        (Some(seat), Some(you)) => seat == you,
        (None, None) => line.name == name.trim(),
        _ => false,
    }
}

/// The chat of one game, for one reader.
#[function_component(ChatPanel)]
pub fn chat_panel(props: &ChatPanelProps) -> Html {
    let lang = props.lang;
    let draft = use_state(String::new);
    let send_text = {
        let (draft, act) = (draft.clone(), props.act.clone());
        Callback::from(move |event: SubmitEvent| {
            event.prevent_default();
            if draft.trim().is_empty() {
                return;
            }
            act.emit(Intent::Chat(ChatBody::Text { text: (*draft).clone() }));
            draft.set(String::new());
        })
    };
    let on_input = {
        let draft = draft.clone();
        Callback::from(move |event: InputEvent| {
            if let Some(input) = event.target_dyn_into::<web_sys::HtmlInputElement>() {
                draft.set(input.value());
            }
        })
    };
    let toggle_mute = {
        let act = props.act.clone();
        Callback::from(move |_: MouseEvent| act.emit(Intent::ToggleMute))
    };
    let quick_buttons = QuickMessage::ALL.map(|code| {
        let act = props.act.clone();
        let onclick = Callback::from(move |_: MouseEvent| {
            act.emit(Intent::Chat(ChatBody::Quick { code }));
        });
        html! {
            <button type="button" class="secondary" data-quick={quick_code(code)} disabled={!props.ready} {onclick}>
                { say(lang, quick_words(code)) }
            </button>
        }
    });
    // Muted, the chat shows nothing: lines are told apart by name only (two spectators may
    // share one, or have none), so "only mine" could not be kept reliably.
    let shown: Vec<&ChatLine> = props.lines.iter().filter(|_| !props.muted).collect();
    let lines = shown.iter().map(|line| {
        let own = is_own(line, props.you, &props.name);
        let who = if line.name.is_empty() {
            say(lang, Words::Anonymous).to_owned()
        } else {
            line.name.clone()
        };
        // Text is set as text, never parsed as markup (Yew makes a text node of a string).
        let (said, quick) = match &line.body {
            ChatBody::Text { text } => (text.clone(), None),
            ChatBody::Quick { code } => (say(lang, quick_words(*code)).to_owned(), Some(quick_code(*code))),
            ChatBody::Unknown => (say(lang, Words::ChatUnknown).to_owned(), None),
        };
        html! {
            <li data-testid="chat-line" class={classes!(own.then_some("own"), quick.map(|_| "quick"))} data-quick={quick}>
                <span class="who">{ who }</span>{ ": " }<span class="said">{ said }</span>
            </li>
        }
    });
    let (heading, room) = match props.room {
        ChatRoom::Players => (say(lang, Words::ChatPlayers), "players"),
        ChatRoom::Spectators => (say(lang, Words::ChatSpectators), "spectators"),
    };
    html! {
        <section class="panel chat" data-testid="chat" data-room={room} aria-label={heading}>
            <div class="chat-head">
                <h2>{ heading }</h2>
                <button type="button" class="secondary" data-action="mute" aria-pressed={props.muted.to_string()} onclick={toggle_mute}>
                    { say(lang, if props.muted { Words::Unmute } else { Words::Mute }) }
                </button>
            </div>
            <ol class="chat-lines" aria-live="polite" data-testid="chat-lines">
                { for lines }
            </ol>
            if props.muted {
                <p class="chat-note">{ say(lang, Words::ChatMuted) }</p>
            } else if shown.is_empty() {
                <p class="chat-note">{ say(lang, Words::ChatEmpty) }</p>
            }
            <div class="quick-messages" role="group" aria-label={say(lang, Words::QuickMessages)}>
                { for quick_buttons }
            </div>
            <form class="chat-form" onsubmit={send_text}>
                // `maxlength` counts UTF-16 units: twice the characters lets a line of emoji
                // reach its 140; the check before sending says when a line is too long.
                <input type="text" data-testid="chat-input" maxlength={(2 * CHAT_MAX_CHARS).to_string()}
                       aria-label={say(lang, Words::ChatMessage)} placeholder={say(lang, Words::ChatMessage)}
                       value={(*draft).clone()} oninput={on_input} autocomplete="off" />
                <button type="submit" data-action="send-chat" disabled={!props.ready}>{ say(lang, Words::Send) }</button>
            </form>
        </section>
    }
}
