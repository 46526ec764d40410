//! The "watch live" page (`tv/`): the lobby's most watched game being played, live on a board,
//! with a link that watches it on the online page. The app frames it in a corner when a Qi
//! server serves the app ([`crate::components::watch`]); on a static host the app never asks
//! for it. The language and theme come in the address (`?lang=vi&theme=dark`).

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

use qi_protocol::{ClientMessage, LiveRow, ServerMessage, VERSION};
use yew::prelude::*;

use super::lobby_lists::live_row;
use super::session::LobbyRows;
use super::socket::{Socket, SocketEvent};
use super::texts::{Words, say};
use crate::state::Settings;
use qi_i18n::text::Lang;
use qi_settings::Theme;

/// How long to wait before connecting again after the socket closed.
const RECONNECT_MS: u64 = 15_000;

/// The language and theme the address asks for (`lang`, `theme`), English and light else.
fn settings_from_address() -> Settings {
    let query = web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default();
    let mut settings = Settings::new(Lang::En);
    for (key, value) in query.trim_start_matches('?').split('&').filter_map(|p| p.split_once('=')) {
        match key {
            "lang" => settings.lang = Lang::from_tag(value),
            "theme" if value == "dark" => settings.theme = Theme::Dark,
            _ => {}
        }
    }
    settings
}

/// Tells the app framing this page (same origin only) whether a game is shown: the app keeps
/// the frame out of sight until one is ([`crate::components::watch`]).
fn tell_the_app(live: bool) {
    let Some(window) = web_sys::window() else { return };
    let (Ok(Some(parent)), Ok(origin)) = (window.parent(), window.location().origin()) else {
        return;
    };
    if parent == window {
        return;
    }
    let news = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&news, &"qiTv".into(), &live.into());
    let _ = parent.post_message(&news, &origin);
}

/// The tournament the address asks to frame (`?tournament=<id>`), if any.
fn tournament_from_address() -> Option<String> {
    let query = web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default();
    let query = qi_play::link::Query::parse(&query);
    query.get("tournament").filter(|id| super::address::id_ok(id)).map(str::to_owned)
}

/// The page: the most watched game, or with `?tournament=<id>` that tournament's live
/// standings and games going, for a blog's frame (the online page may not be framed: it holds
/// seats).
#[function_component(TvPage)]
pub fn tv_page() -> Html {
    let tournament = use_memo((), |()| tournament_from_address());
    match &*tournament {
        Some(id) => {
            let settings = settings_from_address();
            let lang = settings.lang;
            let theme = if settings.theme == Theme::Dark { "theme-dark" } else { "theme-light" };
            html! {
                <main class={classes!("tv-page", "tournament-frame", theme)} lang={lang.tag()} data-testid="tv">
                    <super::tournament::TournamentPage {lang} id={id.clone()} framed=true signed_in=false />
                </main>
            }
        }
        None => html! { <Tv /> },
    }
}

/// The most watched game.
#[function_component(Tv)]
pub fn tv() -> Html {
    let settings = use_memo((), |()| settings_from_address());
    let shown = use_state(|| None::<LiveRow>);
    let heard = use_state(|| false);
    let generation = use_state(|| 0_u32);
    {
        let (shown, heard) = (shown.clone(), heard.clone());
        let reconnect = generation.clone();
        use_effect_with(*generation, move |_| {
            let socket: Rc<RefCell<Option<Socket>>> = Rc::default();
            let held = Rc::clone(&socket);
            let rows = RefCell::new(LobbyRows::default());
            let report = Callback::from(move |event: SocketEvent| {
                let send = |message: &ClientMessage| {
                    if let Some(socket) = held.borrow().as_ref() {
                        socket.send(&message.to_json());
                    }
                };
                match event {
                    SocketEvent::Opened => {
                        send(&ClientMessage::Hello { version: VERSION, name: String::new() });
                    }
                    SocketEvent::Text(text) => match ServerMessage::parse(&text) {
                        Ok(ServerMessage::Welcome { .. }) => {
                            send(&ClientMessage::Lobby { variant: None, seek: None });
                        }
                        Ok(ServerMessage::Ping { nonce }) => send(&ClientMessage::Pong { nonce }),
                        Ok(ServerMessage::Lobby { update }) => {
                            let mut rows = rows.borrow_mut();
                            rows.take(update);
                            shown.set(rows.games.first().cloned());
                            heard.set(true);
                        }
                        _ => {}
                    },
                    SocketEvent::Closed => {
                        shown.set(None);
                        let reconnect = reconnect.clone();
                        yew::platform::spawn_local(async move {
                            yew::platform::time::sleep(Duration::from_millis(RECONNECT_MS)).await;
                            reconnect.set(*reconnect + 1);
                        });
                    }
                }
            });
            *socket.borrow_mut() = Socket::open(&report);
            move || drop(socket.borrow_mut().take())
        });
    }
    use_effect_with(shown.is_some(), |&live| tell_the_app(live));
    let lang = settings.lang;
    let theme = if settings.theme == Theme::Dark { "theme-dark" } else { "theme-light" };
    let content = match shown.as_ref() {
        Some(game) => {
            html! { <ul class="live-list">{ live_row(&settings, game, "../online/", true) }</ul> }
        }
        None if *heard => html! {
            <p class="tv-empty">
                { say(lang, Words::NoGamesNow) }{ " " }
                <a href="../online/" target="_top">{ qi_i18n::text::t(lang, qi_i18n::text::Text::PlayOnline) }</a>
            </p>
        },
        None => Html::default(),
    };
    html! {
        <main class={classes!("tv-page", theme)} lang={lang.tag()} data-testid="tv" data-heard={heard.to_string()}>
            <h1>{ qi_i18n::text::t(lang, qi_i18n::text::Text::WatchLive) }</h1>
            { content }
        </main>
    }
}
