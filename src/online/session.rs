//! The online page's client as a pure state machine: the server's messages and the player's
//! intents come in, the page's state changes, and [`Effect`]s go out for the component to carry
//! out (messages to send, a connection to open, seat tokens to keep, the address to show). No
//! browser here: the tests drive it natively.
//!
//! Nothing the server sends is trusted: a message for a game this page does not follow, a move
//! for the wrong ply, a move the local rules refuse, an id that could not go in a link: each is
//! ignored (or, for a gap in the moves, answered by asking for the state again), and changes
//! nothing else.

use qi_protocol::{
    ChallengeRow, ChatBody, ClientMessage, DEAD_PEER_MS, GameSpec, LOBBY_KEEP_CHALLENGES,
    LOBBY_MAX_GAMES, LiveRow, LobbyUpdate, NAME_MAX_CHARS, Seat, SeatChoice, ServerMessage, Status,
    VERSION,
};
use qi_protocol::{GameAction, Variant};

pub use super::address::{Opening, id_ok, read_address};
use super::game::{Note, OnlineGame};
use super::texts::{Words, shown_text};
use crate::state::{Action, Settings};
use qi_i18n::text::Lang;

mod intents;
mod replies;

/// The longest server detail text shown.
const DETAIL_MAX_CHARS: usize = 200;
/// The longest wait between two connection attempts, in milliseconds.
const RETRY_MAX_MS: u32 = 30_000;

/// The connection to the server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Link {
    /// A socket is being opened.
    Connecting,
    /// The socket is open and `Hello` sent; waiting for `Welcome`.
    Greeting,
    /// Welcomed: messages flow.
    Ready,
    /// The connection failed or dropped; the next attempt comes after this many ms.
    Retrying {
        /// The wait.
        after_ms: u32,
    },
    /// The server speaks another protocol version: no more attempts.
    Outdated,
}

/// What the component should do.
#[derive(Clone, Debug, PartialEq)]
pub enum Effect {
    /// Send a message.
    Send(ClientMessage),
    /// Close the socket if one is open, and open a new one after this many ms.
    Connect {
        /// The wait.
        after_ms: u32,
    },
    /// Keep a seat token (localStorage `qi.online.seat.<game>`).
    SaveSeat {
        /// The game id.
        game: String,
        /// The token.
        token: String,
    },
    /// Forget a seat token the server does not know.
    ForgetSeat {
        /// The game id.
        game: String,
    },
    /// Show this game's address (`?game=<id>`, in place of the current entry), or the lobby's.
    ShowAddress(Option<String>),
    /// Keep (or forget) that this page mutes the chat of a game.
    SaveMute {
        /// The game id.
        game: String,
        /// Muted.
        muted: bool,
    },
}

/// What the player does.
#[derive(Clone, Debug, PartialEq)]
pub enum Intent {
    /// Change the display name (sent with the next `Hello`).
    SetName(String),
    /// Change the language.
    SetLanguage(Lang),
    /// Create a game and wait for the invited player.
    Create {
        /// The game.
        spec: GameSpec,
        /// The seat wanted.
        seat: SeatChoice,
        /// Listed in the lobby as an open challenge (anyone may accept), or by invite only.
        listed: bool,
    },
    /// Take the free seat of an open challenge in the lobby.
    Accept(String),
    /// Follow the lobby: the game kind shown (none: all) and the game whose quick-pairing
    /// queue to count.
    FollowLobby {
        /// The variant shown.
        variant: Option<Variant>,
        /// The game counted.
        seek: Option<GameSpec>,
    },
    /// Wait to be paired.
    Seek(GameSpec),
    /// Stop waiting.
    CancelSeek,
    /// Take the invite of the address.
    Join,
    /// Something on the board or the move list.
    Board(Box<Action>),
    /// Resign, offer or answer a draw, a takeback or a rematch, abort, claim the win.
    Act(GameAction),
    /// Write in the game's chat.
    Chat(ChatBody),
    /// Hide (or show again) what others write in the game's chat.
    ToggleMute,
    /// Connect now instead of waiting.
    Retry,
}

/// The game the page shows, and this browser's part in it.
#[derive(Clone, Debug)]
pub struct Focus {
    /// The game id.
    pub id: String,
    /// The seat token, when a player.
    pub token: Option<String>,
    /// The invite token for the free seat (for its creator).
    pub invite: Option<String>,
    /// Whether this page asked to join and has no answer yet.
    pub joining: bool,
    /// The seat the server said this browser holds.
    pub seat: Option<Seat>,
    /// The game, once its state came.
    pub game: Option<OnlineGame>,
    /// Whether this page hides what others write in the game's chat.
    pub muted: bool,
}

impl Focus {
    fn new(id: String, token: Option<String>) -> Focus {
        Focus { id, token, invite: None, joining: false, seat: None, game: None, muted: false }
    }
}

/// The lobby as this page has it: the rows the server shows it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LobbyRows {
    /// Open challenges, newest first (the page shows the first
    /// [`qi_protocol::LOBBY_MAX_CHALLENGES`]).
    pub challenges: Vec<ChallengeRow>,
    /// Games being played, most watched first.
    pub games: Vec<LiveRow>,
    /// How many wait in quick pairing for the game chosen.
    pub waiting: Option<u32>,
}

impl LobbyRows {
    /// Takes an update: rows with ids that are not ids, and rows past what the server shows,
    /// are left out; names are cut to what they may be.
    pub fn take(&mut self, update: LobbyUpdate) {
        if update.reset {
            self.challenges.clear();
            self.games.clear();
        }
        self.challenges.retain(|row| !update.gone.contains(&row.game));
        self.games.retain(|row| !update.gone.contains(&row.game));
        for mut row in update.challenges.into_iter().filter(|row| id_ok(&row.game)) {
            row.name = shown_text(&row.name, NAME_MAX_CHARS);
            match self.challenges.iter_mut().find(|known| known.game == row.game) {
                Some(known) => *known = row,
                None => self.challenges.push(row),
            }
        }
        for moved in &update.moved {
            if let Some(row) = self.games.iter_mut().find(|row| row.game == moved.game) {
                moved.apply(row);
            }
        }
        for mut row in update.games.into_iter().filter(|row| id_ok(&row.game)) {
            row.names = row.names.map(|name| shown_text(&name, NAME_MAX_CHARS));
            match self.games.iter_mut().find(|known| known.game == row.game) {
                Some(known) => *known = row,
                None => self.games.push(row),
            }
        }
        self.challenges.sort_by(|a, b| {
            b.created_unix_ms.cmp(&a.created_unix_ms).then_with(|| a.game.cmp(&b.game))
        });
        self.challenges.truncate(LOBBY_KEEP_CHALLENGES);
        self.games.sort_by(|a, b| b.watchers.cmp(&a.watchers).then_with(|| a.game.cmp(&b.game)));
        self.games.truncate(LOBBY_MAX_GAMES);
        if update.waiting.is_some() {
            self.waiting = update.waiting;
        }
    }
}

/// The whole client.
#[derive(Clone, Debug)]
pub struct Session {
    /// The lobby's rows, while the page shows the lobby.
    pub lobby: LobbyRows,
    /// What the lobby follows (sent again on each new connection while in the lobby).
    following: Option<(Option<Variant>, Option<GameSpec>)>,
    /// The language and theme, for the boards.
    pub settings: Settings,
    /// The display name.
    pub name: String,
    /// The name the current connection said `Hello` with.
    hello_name: Option<String>,
    /// The connection.
    pub link: Link,
    /// Whether a connection ever reached `Welcome` (else the server is likely not there).
    pub ever_connected: bool,
    /// Failed attempts since the last `Welcome`.
    failures: u32,
    /// An invite opened from the address, not taken yet.
    pub invite: Option<(String, String)>,
    /// The game shown.
    pub focus: Option<Focus>,
    /// The game sought for pairing.
    pub seeking: Option<GameSpec>,
    /// The username the open connection plays as (the server's `Welcome`), when signed in.
    pub account: Option<String>,
    /// The player whose profile the page shows (`?player=<name>`).
    pub profile: Option<String>,
    /// The tournament whose page the page shows (`?tournament=<id>`), and the game the reader
    /// comes back from.
    pub tournament: Option<(String, Option<String>)>,
    /// The latest thing to tell the player outside a game's moves.
    pub note: Option<Note>,
    /// Requests waiting for the connection.
    queued: Vec<ClientMessage>,
    /// Whether a `Seated` for another game than the one shown is expected (after Create, Seek,
    /// Join or Rematch).
    expecting_seat: bool,
    /// Whether the state was asked for again after a gap, and not received yet.
    resync_asked: bool,
    /// When the open socket last brought a frame (or was first seen open by [`Session::tick`]),
    /// in ms; `None` while no socket is open.
    last_heard: Option<f64>,
}

/// A display name as typed and kept: at most [`NAME_MAX_CHARS`] characters, no control
/// characters. It is trimmed when sent ([`Session::sent_name`]), not while being typed.
#[must_use]
pub fn clean_name(name: &str) -> String {
    name.chars().filter(|c| !c.is_control()).take(NAME_MAX_CHARS).collect()
}

impl Session {
    /// A session for what the address asks, with the boards in `settings`' language and theme.
    /// An invite is taken at once when the player has a name; else it waits for [`Intent::Join`].
    #[must_use]
    pub fn new(settings: Settings, name: &str, opening: Opening) -> Session {
        let mut session = Session {
            lobby: LobbyRows::default(),
            following: None,
            settings,
            name: clean_name(name),
            hello_name: None,
            link: Link::Connecting,
            ever_connected: false,
            failures: 0,
            invite: None,
            focus: None,
            seeking: None,
            account: None,
            profile: None,
            tournament: None,
            note: None,
            queued: Vec::new(),
            expecting_seat: false,
            resync_asked: false,
            last_heard: None,
        };
        match opening {
            Opening::Lobby => {}
            Opening::BadLink => session.note = Some(Note::Say(Words::BadLink)),
            Opening::Profile { name } => session.profile = Some(name),
            Opening::Tournament { id, from } => session.tournament = Some((id, from)),
            Opening::Game { game, token } => session.focus = Some(Focus::new(game, token)),
            Opening::Join { game, invite } => {
                session.invite = Some((game, invite));
                if !session.sent_name().is_empty() {
                    let _ = session.intent(Intent::Join, 0.0);
                }
            }
        }
        session
    }

    /// Whether the page shows the lobby (no game, no invite, no profile).
    #[must_use]
    pub fn in_lobby(&self) -> bool {
        self.focus.is_none()
            && self.invite.is_none()
            && self.profile.is_none()
            && self.tournament.is_none()
    }

    /// The account changed (signed in or out): the server reads the session cookie when a
    /// socket opens, so the socket is opened anew at once.
    pub fn account_changed(&mut self) -> Vec<Effect> {
        if self.link == Link::Outdated {
            return Vec::new();
        }
        self.account = None;
        self.link = Link::Connecting;
        self.hello_name = None;
        self.resync_asked = false;
        self.last_heard = None;
        vec![Effect::Connect { after_ms: 0 }]
    }

    /// The message that follows the lobby as this page wants, while it shows the lobby.
    /// How this page comes into its game: back to its seat with the token it keeps; else,
    /// signed in, as its account (into the seat the account holds — a tournament's pairing is
    /// made for two accounts, with no token in any browser — or to watch); else to watch.
    fn enter_message(
        &self,
        game: String,
        token: Option<&String>,
        have_plies: Option<u32>,
    ) -> ClientMessage {
        match token {
            Some(token) => ClientMessage::Resume { game, token: token.clone(), have_plies },
            None if self.account.is_some() => ClientMessage::Sit { game, have_plies },
            None => ClientMessage::Watch { game, have_plies },
        }
    }

    fn follow_message(&self) -> Option<ClientMessage> {
        let (variant, seek) = self.following.clone().filter(|_| self.in_lobby())?;
        Some(ClientMessage::Lobby { variant, seek })
    }

    /// The game shown, once its state came.
    #[must_use]
    pub fn game(&self) -> Option<&OnlineGame> {
        self.focus.as_ref()?.game.as_ref()
    }

    /// The game shown, to change what only the page keeps (a clock's warning).
    pub fn game_shown_mut(&mut self) -> Option<&mut OnlineGame> {
        self.focus.as_mut()?.game.as_mut()
    }

    fn game_mut(&mut self, id: &str) -> Option<&mut OnlineGame> {
        self.focus.as_mut().filter(|focus| focus.id == id)?.game.as_mut()
    }

    /// The name as `Hello` sends it: trimmed.
    #[must_use]
    pub fn sent_name(&self) -> String {
        self.name.trim().to_owned()
    }

    /// Failed connection attempts since the last `Welcome`.
    #[must_use]
    pub fn failures(&self) -> u32 {
        self.failures
    }

    /// A socket is being opened.
    pub fn connecting(&mut self) {
        if self.link != Link::Outdated {
            self.link = Link::Connecting;
        }
        self.last_heard = None;
    }

    /// The socket opened: say hello.
    pub fn opened(&mut self) -> Vec<Effect> {
        self.link = Link::Greeting;
        self.hello_name = Some(self.sent_name());
        vec![Effect::Send(ClientMessage::Hello { version: VERSION, name: self.sent_name() })]
    }

    /// The socket closed (or never opened): try again later, waiting longer each time.
    pub fn closed(&mut self) -> Vec<Effect> {
        if self.link == Link::Outdated {
            return Vec::new();
        }
        self.failures = self.failures.saturating_add(1);
        let after_ms = 1000u32.saturating_mul(1 << self.failures.min(6).saturating_sub(1));
        let after_ms = after_ms.min(RETRY_MAX_MS);
        self.link = Link::Retrying { after_ms };
        self.hello_name = None;
        self.resync_asked = false;
        self.last_heard = None;
        vec![Effect::Connect { after_ms }]
    }

    /// Called every few seconds: once the open socket has brought nothing for
    /// [`DEAD_PEER_MS`] (the server pings far more often), the server is taken for gone: the
    /// socket is closed and a new one opened, as when it drops.
    pub fn tick(&mut self, now: f64) -> Vec<Effect> {
        if !matches!(self.link, Link::Greeting | Link::Ready) {
            return Vec::new();
        }
        let heard = *self.last_heard.get_or_insert(now);
        #[allow(clippy::cast_precision_loss)]
        if now - heard >= DEAD_PEER_MS as f64 { self.closed() } else { Vec::new() }
    }

    /// A text frame from the server. Anything that is not a message changes nothing.
    pub fn receive_text(&mut self, text: &str, now: f64) -> Vec<Effect> {
        self.last_heard = Some(now);
        match ServerMessage::parse(text) {
            Ok(message) => self.receive(message, now),
            Err(_) => Vec::new(),
        }
    }

    /// Sends `message` now, or keeps it for when the connection is ready.
    fn request(&mut self, message: ClientMessage) -> Vec<Effect> {
        if self.link == Link::Ready && self.hello_name == Some(self.sent_name()) {
            return vec![Effect::Send(message)];
        }
        self.queued.push(message);
        if self.link == Link::Ready {
            // The name changed since `Hello`, which alone carries it: connect again.
            self.link = Link::Connecting;
            return vec![Effect::Connect { after_ms: 0 }];
        }
        Vec::new()
    }

    /// Sends `message` when the connection is ready; drops it otherwise.
    fn send_now(&self, message: ClientMessage) -> Vec<Effect> {
        if self.link == Link::Ready { vec![Effect::Send(message)] } else { Vec::new() }
    }

    /// What to send on `Welcome`: back into the game shown, the pending move again (the server
    /// plays a move only once), the seek again, and the requests that waited.
    fn welcome(&mut self, version: u32, account: Option<String>) -> Vec<Effect> {
        if version != VERSION {
            self.link = Link::Outdated;
            return Vec::new();
        }
        self.account = account.map(|name| shown_text(&name, NAME_MAX_CHARS));
        self.link = Link::Ready;
        self.failures = 0;
        self.ever_connected = true;
        if !self.queued.is_empty() && self.hello_name != Some(self.sent_name()) {
            self.link = Link::Connecting;
            return vec![Effect::Connect { after_ms: 0 }];
        }
        let mut out = Vec::new();
        if let Some(focus) = &self.focus {
            let have_plies = focus.game.as_ref().map(|g| g.moves.len() as u32);
            let game = focus.id.clone();
            if focus.token.is_some() || !focus.joining {
                out.push(self.enter_message(game, focus.token.as_ref(), have_plies));
            }
            if let Some(game) = &focus.game
                && let Some(pending) = &game.pending
            {
                let (game, ply) = (game.id.clone(), pending.ply as u32);
                out.push(ClientMessage::Move { game, ply, text: pending.text.clone() });
            }
        }
        if let Some(spec) = &self.seeking {
            self.queued.retain(|m| !matches!(m, ClientMessage::Seek { .. }));
            out.push(ClientMessage::Seek { spec: spec.clone() });
        }
        out.extend(self.follow_message());
        out.append(&mut self.queued);
        out.into_iter().map(Effect::Send).collect()
    }

    /// Asks for the game's state again, from the moves this page has (once until it comes).
    fn resync(&mut self) -> Vec<Effect> {
        let Some(focus) = &self.focus else { return Vec::new() };
        if self.resync_asked {
            return Vec::new();
        }
        self.resync_asked = true;
        let have_plies = focus.game.as_ref().map(|g| g.moves.len() as u32);
        let message = self.enter_message(focus.id.clone(), focus.token.as_ref(), have_plies);
        self.send_now(message)
    }

    /// A message from the server.
    pub fn receive(&mut self, message: ServerMessage, now: f64) -> Vec<Effect> {
        self.last_heard = Some(now);
        match message {
            ServerMessage::Welcome { version, account } => self.welcome(version, account),
            ServerMessage::Ping { nonce } => self.send_now(ClientMessage::Pong { nonce }),
            ServerMessage::Seated { game, token, seat, invite } => {
                self.seated(game, token, seat, invite)
            }
            ServerMessage::Seeking { spec } => {
                if self.seeking.is_some() {
                    self.seeking = Some(spec);
                }
                Vec::new()
            }
            ServerMessage::State { view } => self.state(&view, now),
            ServerMessage::Moved { game, mv, clocks } => {
                let Some(online) = self.game_mut(&game) else { return Vec::new() };
                let known = online.moves.len();
                match usize::try_from(mv.ply) {
                    Ok(ply) if ply < known => Vec::new(),
                    Ok(ply) if ply == known && online.play(&mv) => {
                        if let Some(clocks) = clocks {
                            online.clocks = Some((clocks, now));
                        }
                        // The player's turn, with a move queued: it goes at once.
                        let queued = online.can_move() && online.board.premove.is_some();
                        if queued {
                            let premove = Box::new(Action::PlayPremove { now });
                            return self.intent(Intent::Board(premove), now);
                        }
                        Vec::new()
                    }
                    _ => self.resync(),
                }
            }
            ServerMessage::Refused { game, ply, reason } => self.refused(&game, ply, reason),
            ServerMessage::Presence { game, seat, connected } => {
                let Some(online) = self.game_mut(&game) else { return Vec::new() };
                online.players[seat.index()].connected = connected;
                // Someone came to the free seat: the game begins; ask for it, with the name
                // (a state the server sends anyway is taken the same way).
                let arrived = connected
                    && online.status == Status::Waiting
                    && online.you.is_some_and(|you| you != seat);
                if arrived { self.resync() } else { Vec::new() }
            }
            ServerMessage::Watchers { game, count } => {
                if let Some(online) = self.game_mut(&game) {
                    online.watchers = count;
                }
                Vec::new()
            }
            ServerMessage::DrawOffered { game, by } => {
                if let Some(online) = self.game_mut(&game).filter(|g| g.status == Status::Playing) {
                    online.draw_offer = Some(by);
                }
                Vec::new()
            }
            ServerMessage::DrawDeclined { game } => {
                if let Some(online) = self.game_mut(&game) {
                    online.draw_offer = None;
                }
                Vec::new()
            }
            ServerMessage::TakebackOffered { game, by } => {
                if let Some(online) = self.game_mut(&game).filter(|g| g.status == Status::Playing) {
                    online.takeback_offer = Some(by);
                }
                Vec::new()
            }
            ServerMessage::TakebackDeclined { game } => {
                if let Some(online) = self.game_mut(&game) {
                    // The player's own request answered no (a move lapses it too).
                    if online.takeback_offer.is_some() && online.takeback_offer == online.you {
                        online.note = Some(Note::Say(Words::TakebackDeclined));
                    }
                    online.takeback_offer = None;
                }
                Vec::new()
            }
            ServerMessage::Lobby { update } => {
                if self.in_lobby() {
                    self.lobby.take(update);
                }
                Vec::new()
            }
            ServerMessage::Chat { game, line } => {
                if let Some(online) = self.game_mut(&game) {
                    online.hear(line);
                }
                Vec::new()
            }
            ServerMessage::RematchOffered { game, by } => {
                if let Some(online) = self.game_mut(&game)
                    && matches!(online.status, Status::Ended { .. })
                {
                    online.rematch_offer = Some(by);
                }
                Vec::new()
            }
            ServerMessage::Ended { game, result, deal } => {
                if let Some(online) = self.game_mut(&game) {
                    online.end(result, deal, now);
                }
                Vec::new()
            }
            ServerMessage::Error { code, detail } => self.error(code, &detail),
            ServerMessage::Unknown => Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests;
