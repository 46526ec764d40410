//! The online page (`online/`): live games against other people through the Qi server.
//!
//! The page keeps one WebSocket to the server on its own host (`/ws`). Its logic is the pure
//! [`session::Session`]: the component here only carries out the session's [`Effect`]s (send a
//! message, connect again after a while, keep or forget a seat token, show the game's address)
//! and draws its state ([`page`]). Every few seconds it asks the session whether the server has
//! been silent too long (it pings every 10 s); after 30 s the socket is closed and opened again.
//!
//! # Addresses
//! - `online/`: the lobby (create a game with an invite link, or quick pairing);
//! - `online/?game=<id>&invite=<token>`: an invite: take the free seat (the address then becomes
//!   `online/?game=<id>`, so the token does not stay in the address bar);
//! - `online/?game=<id>`: back to the seat when this browser holds it, else watch;
//! - `online/?player=<name>`: a player's profile (the server sends `online/@/<name>` there);
//! - `online/?tournament=<id>`: a tournament's page (the server sends its short link `/t/<id>`
//!   there; its frame for other sites is `tv/?tournament=<id>`).
//!
//! # Accounts
//! Once the server first welcomes the socket, the page asks `/api/account` whether this browser
//! is signed in ([`account`]); the lobby then shows the account box. Signing in or out opens the socket
//! anew, since the server reads the session cookie when a socket opens.
//!
//! # Storage
//! The display name is kept in localStorage `qi.online.name`, each seat token in
//! `qi.online.seat.<id>`, the lobby's choices in `qi.online.lobby`; the language and theme are
//! the app's (`qi.settings`).

pub mod account;
pub mod account_box;
pub mod address;
pub mod chat;
pub mod featured;
pub mod game;
pub mod labels;
pub mod lobby;
pub mod lobby_lists;
pub mod page;
pub mod profile;
pub mod session;
pub mod socket;
pub mod texts;
pub mod tournament;
pub mod view;

use std::rc::Rc;
use std::time::Duration;

use yew::prelude::*;

use self::account::AccountState;
use self::session::{Effect, Intent, Session, read_address};
use self::socket::{Socket, SocketEvent};
use crate::state::{Settings, Theme};
use crate::web;
use qi_i18n::text::Lang;

/// Where the display name is kept.
pub const NAME_KEY: &str = "qi.online.name";
/// Where the app keeps its settings (the language and theme come from there).
const SETTINGS_KEY: &str = "qi.settings";

/// Where the seat token of game `id` is kept.
#[must_use]
pub fn seat_key(id: &str) -> String {
    format!("qi.online.seat.{id}")
}

/// The localStorage key that says this browser mutes game `id`'s chat.
#[must_use]
pub fn mute_key(id: &str) -> String {
    format!("qi.online.mute.{id}")
}

/// What happens to the page.
pub enum Msg {
    /// An event of the socket opened as the given generation.
    Socket(u64, SocketEvent),
    /// The wait before the given connection attempt is over.
    Connect(u64),
    /// The player did something.
    Act(Intent),
    /// Time to check that the server still speaks.
    Tick,
    /// Time to look at the player's clock (a sound when it runs low).
    ClockCheck,
    /// The server said whether this browser is signed in (when the page opened).
    AccountKnown(AccountState),
    /// The player signed in or out, or changed the password.
    AccountChanged(AccountState),
}

/// How often the page checks that the server still speaks, in ms.
const TICK_MS: u64 = 5_000;

/// How often the page looks at the player's clock, in ms.
const CLOCK_CHECK_MS: u64 = 250;

/// The online page.
pub struct Online {
    session: Session,
    /// The account, as the server's HTTP API says.
    account: AccountState,
    /// Whether the account was asked for (once the first socket was welcomed: a static host,
    /// which has no server, is asked nothing).
    account_asked: bool,
    socket: Option<Socket>,
    /// Counts the sockets opened: events of an older one are ignored.
    socket_generation: u64,
    /// Counts the waits started: only the latest one connects.
    wait_generation: u64,
    /// Keeps the page's keys (←/→ through the moves, Esc) listened to while the page lives.
    _keys: Option<Box<dyn FnOnce()>>,
}

fn stored_settings() -> Settings {
    let lang = Lang::from_tag(&web::browser_language());
    match web::load(SETTINGS_KEY) {
        Some(text) => Settings::from_storage(&text, lang),
        None => Settings::new(lang),
    }
}

fn show_language(settings: &Settings) {
    let theme = if settings.theme == Theme::Dark { "dark" } else { "light" };
    web::set_document_attributes(settings.lang.tag(), theme);
    if let Some(document) = web_sys::window().and_then(|w| w.document()) {
        document.set_title(texts::say(settings.lang, texts::Words::Title));
    }
}

impl Online {
    /// Opens a new socket (closing the old one).
    fn connect(&mut self, ctx: &Context<Self>) {
        self.socket = None;
        self.socket_generation += 1;
        let generation = self.socket_generation;
        self.session.connecting();
        let report = ctx.link().callback(move |event| Msg::Socket(generation, event));
        self.socket = Socket::open(&report);
        if self.socket.is_none() {
            let effects = self.session.closed();
            self.run(ctx, effects);
        }
    }

    /// Carries out the session's effects.
    fn run(&mut self, ctx: &Context<Self>, effects: Vec<Effect>) {
        for effect in effects {
            match effect {
                Effect::Send(message) => {
                    if let Some(socket) = &self.socket {
                        socket.send(&message.to_json());
                    }
                }
                Effect::Connect { after_ms } => {
                    self.socket = None;
                    self.wait_generation += 1;
                    if after_ms == 0 {
                        self.connect(ctx);
                    } else {
                        let (link, generation) = (ctx.link().clone(), self.wait_generation);
                        yew::platform::spawn_local(async move {
                            yew::platform::time::sleep(Duration::from_millis(u64::from(after_ms)))
                                .await;
                            link.send_message(Msg::Connect(generation));
                        });
                    }
                }
                Effect::SaveSeat { game, token } => web::save(&seat_key(&game), &token),
                Effect::ForgetSeat { game } => web::remove(&seat_key(&game)),
                Effect::ShowAddress(Some(game)) => web::set_query(&format!("game={game}"), false),
                Effect::ShowAddress(None) => web::set_query("", false),
                Effect::SaveMute { game, muted: true } => web::save(&mute_key(&game), "1"),
                Effect::SaveMute { game, muted: false } => web::remove(&mute_key(&game)),
            }
        }
    }

    /// Says what changed on the board: a sound for a move (the opponent's above all: the player
    /// may be looking elsewhere), a capture, check, the end; and the tab's title says whose move
    /// it is.
    fn announce(&self, before: Option<&Rc<crate::state::PlayState>>) {
        let Some(game) = self.session.game() else {
            web::set_title("Qi 棋");
            return;
        };
        if let Some(before) = before
            && !Rc::ptr_eq(before, &game.board)
            && let Some(sound) = crate::sound::sound_for(before, &game.board)
        {
            crate::sound::play(sound, self.session.settings.volume);
        }
        let yours =
            game.you.is_some_and(|seat| game::side_of(seat) == game.board.game.side_to_move())
                && game.board.result().is_none();
        let lang = self.session.settings.lang;
        web::set_turn_icon(yours);
        web::set_title(&if yours {
            format!("● {} · Qi 棋", qi_i18n::text::t(lang, qi_i18n::text::Text::YourMove))
        } else {
            "Qi 棋".to_owned()
        });
    }

    /// Whether the game shown has ended.
    fn game_ended(&self) -> bool {
        self.session
            .game()
            .is_some_and(|game| matches!(game.status, qi_protocol::Status::Ended { .. }))
    }

    /// Asks the server for the account once a socket was first welcomed (and again after a
    /// game ends, for the ratings).
    fn ask_account(&mut self, ctx: &Context<Self>) {
        if self.account_asked || !self.session.ever_connected {
            return;
        }
        self.account_asked = true;
        let link = ctx.link().clone();
        yew::platform::spawn_local(async move {
            link.send_message(Msg::AccountKnown(account::status().await));
        });
    }

    /// Keeps what the player chose: the name, the language.
    fn remember(&self, intent: &Intent) {
        match intent {
            Intent::SetName(_) => web::save(NAME_KEY, &self.session.name),
            Intent::SetLanguage(lang) => {
                let mut settings = stored_settings();
                settings.lang = *lang;
                web::save(SETTINGS_KEY, &settings.to_storage());
                show_language(&self.session.settings);
            }
            _ => {}
        }
    }
}

impl Component for Online {
    type Message = Msg;
    type Properties = ();

    fn create(ctx: &Context<Self>) -> Self {
        let settings = stored_settings();
        show_language(&settings);
        let name = web::load(NAME_KEY).unwrap_or_default();
        let opening = read_address(&web::location_query(), |game| web::load(&seat_key(game)));
        let mut page = Online {
            session: Session::new(settings, &name, opening),
            account: AccountState::Unknown,
            account_asked: false,
            socket: None,
            socket_generation: 0,
            wait_generation: 0,
            _keys: None,
        };
        // A game this browser muted stays muted (a reload, another visit).
        if let Some(focus) = &mut page.session.focus {
            focus.muted = web::load(&mute_key(&focus.id)).is_some();
        }
        let keys = ctx.link().clone();
        page._keys = web::on_move_keys(move |key| {
            let action = crate::components::move_key_action(key);
            keys.send_message(Msg::Act(Intent::Board(Box::new(action))));
        })
        .map(|stop| Box::new(stop) as Box<dyn FnOnce()>);
        page.connect(ctx);
        let link = ctx.link().clone();
        yew::platform::spawn_local(async move {
            loop {
                yew::platform::time::sleep(Duration::from_millis(TICK_MS)).await;
                link.send_message(Msg::Tick);
            }
        });
        let link = ctx.link().clone();
        yew::platform::spawn_local(async move {
            loop {
                yew::platform::time::sleep(Duration::from_millis(CLOCK_CHECK_MS)).await;
                link.send_message(Msg::ClockCheck);
            }
        });
        page
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Msg) -> bool {
        let now = web::now_ms();
        let board_before = self.session.game().map(|game| game.board.clone());
        let effects = match msg {
            Msg::Socket(generation, _) if generation != self.socket_generation => return false,
            Msg::Socket(_, SocketEvent::Opened) => self.session.opened(),
            Msg::Socket(_, SocketEvent::Text(text)) => {
                let ended_before = self.game_ended();
                let name_before = self.session.name.len();
                let effects = self.session.receive_text(&text, now);
                // A name the server refused is cleared (a registered player's): kept so too.
                if self.session.name.len() != name_before {
                    web::save(NAME_KEY, &self.session.name);
                }
                // A game that ended may have changed the ratings the account box shows.
                if !ended_before
                    && self.game_ended()
                    && matches!(self.account, AccountState::SignedIn(_))
                {
                    self.account_asked = false;
                }
                effects
            }
            Msg::Socket(_, SocketEvent::Closed) => {
                self.socket = None;
                self.session.closed()
            }
            Msg::Connect(generation) if generation != self.wait_generation => return false,
            Msg::Connect(_) => {
                self.connect(ctx);
                Vec::new()
            }
            Msg::ClockCheck => {
                let volume = self.session.settings.volume;
                if let Some(game) = self.session.game_shown_mut()
                    && game.warn_low_time(now)
                {
                    crate::sound::play(crate::sound::Sound::LowTime, volume);
                }
                return false;
            }
            Msg::Tick => {
                let effects = self.session.tick(now);
                if effects.is_empty() {
                    return false;
                }
                effects
            }
            Msg::AccountKnown(state) => {
                self.account = state;
                return true;
            }
            Msg::AccountChanged(state) => {
                let same = self.account.name() == state.name();
                self.account = state;
                if same {
                    return true;
                }
                self.session.account_changed()
            }
            Msg::Act(intent) => {
                let effects = self.session.intent(intent.clone(), now);
                self.remember(&intent);
                effects
            }
        };
        self.run(ctx, effects);
        self.ask_account(ctx);
        self.announce(board_before.as_ref());
        true
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let on_account = ctx.link().callback(Msg::AccountChanged);
        page::page(&self.session, &self.account, &on_account, &ctx.link().callback(Msg::Act))
    }
}
