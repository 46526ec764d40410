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
    ClientMessage, ErrorCode, GameSpec, GameView, NAME_MAX_CHARS, Refusal, Seat, SeatChoice,
    ServerMessage, Status, VERSION,
};

use super::game::{Note, OnlineGame};
use super::texts::Words;
use crate::i18n::Lang;
use crate::link::Query;
use crate::state::{Action, Settings};

/// The longest server detail text shown.
const DETAIL_MAX_CHARS: usize = 200;
/// The longest wait between two connection attempts, in milliseconds.
const RETRY_MAX_MS: u32 = 30_000;

/// What the page's address asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Opening {
    /// The lobby (no game in the address).
    Lobby,
    /// An invite link: take the free seat of the game.
    Join {
        /// The game id.
        game: String,
        /// The invite token.
        invite: String,
    },
    /// A game: back to its seat with the token this browser keeps, else to watch it.
    Game {
        /// The game id.
        game: String,
        /// The seat token, when this browser holds the seat.
        token: Option<String>,
    },
    /// A game address that cannot be one (ids and tokens are short and URL-safe).
    BadLink,
}

/// Whether `text` can be a game id or token: 1 to 128 URL-safe characters (so it can go into a
/// link and a storage key as it is).
#[must_use]
pub fn id_ok(text: &str) -> bool {
    (1..=128).contains(&text.len())
        && text.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~'))
}

/// What an address (its query) asks for; `stored_token` gives the seat token this browser
/// keeps for a game id, if any.
#[must_use]
pub fn read_address(query: &str, stored_token: impl Fn(&str) -> Option<String>) -> Opening {
    let query = Query::parse(query);
    let Some(game) = query.get("game") else { return Opening::Lobby };
    if !id_ok(game) {
        return Opening::BadLink;
    }
    let token = stored_token(game).filter(|token| id_ok(token));
    match (token, query.get("invite")) {
        (Some(token), _) => Opening::Game { game: game.to_owned(), token: Some(token) },
        (None, Some(invite)) if id_ok(invite) => {
            Opening::Join { game: game.to_owned(), invite: invite.to_owned() }
        }
        (None, Some(_)) => Opening::BadLink,
        (None, None) => Opening::Game { game: game.to_owned(), token: None },
    }
}

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
    },
    /// Wait to be paired.
    Seek(GameSpec),
    /// Stop waiting.
    CancelSeek,
    /// Take the invite of the address.
    Join,
    /// Something on the board or the move list.
    Board(Action),
    /// Resign.
    Resign,
    /// Offer a draw, or accept the opponent's offer.
    OfferDraw,
    /// Decline the opponent's offer.
    DeclineDraw,
    /// Abort the game.
    Abort,
    /// Offer or accept a rematch.
    Rematch,
    /// Claim the win from an absent opponent.
    ClaimWin,
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
    /// The game, once its state came.
    pub game: Option<OnlineGame>,
}

impl Focus {
    fn new(id: String, token: Option<String>) -> Focus {
        Focus { id, token, invite: None, joining: false, game: None }
    }
}

/// The whole client.
#[derive(Clone, Debug)]
pub struct Session {
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
    /// The latest thing to tell the player outside a game's moves.
    pub note: Option<Note>,
    /// Requests waiting for the connection.
    queued: Vec<ClientMessage>,
    /// Whether a `Seated` for another game than the one shown is expected (after Create, Seek,
    /// Join or Rematch).
    expecting_seat: bool,
    /// Whether the state was asked for again after a gap, and not received yet.
    resync_asked: bool,
}

/// A display name as sent: trimmed, at most [`NAME_MAX_CHARS`] characters, no control
/// characters.
#[must_use]
pub fn clean_name(name: &str) -> String {
    name.trim().chars().filter(|c| !c.is_control()).take(NAME_MAX_CHARS).collect()
}

/// Text from the server made safe to show: at most `max` characters, no control characters.
#[must_use]
pub fn shown_text(text: &str, max: usize) -> String {
    text.chars().filter(|c| !c.is_control()).take(max).collect()
}

impl Session {
    /// A session for what the address asks, with the boards in `settings`' language and theme.
    /// An invite is taken at once when the player has a name; else it waits for [`Intent::Join`].
    #[must_use]
    pub fn new(settings: Settings, name: &str, opening: Opening) -> Session {
        let mut session = Session {
            settings,
            name: clean_name(name),
            hello_name: None,
            link: Link::Connecting,
            ever_connected: false,
            failures: 0,
            invite: None,
            focus: None,
            seeking: None,
            note: None,
            queued: Vec::new(),
            expecting_seat: false,
            resync_asked: false,
        };
        match opening {
            Opening::Lobby => {}
            Opening::BadLink => session.note = Some(Note::Say(Words::BadLink)),
            Opening::Game { game, token } => session.focus = Some(Focus::new(game, token)),
            Opening::Join { game, invite } => {
                session.invite = Some((game, invite));
                if !session.name.is_empty() {
                    let _ = session.intent(Intent::Join, 0.0);
                }
            }
        }
        session
    }

    /// The game shown, once its state came.
    #[must_use]
    pub fn game(&self) -> Option<&OnlineGame> {
        self.focus.as_ref()?.game.as_ref()
    }

    fn game_mut(&mut self, id: &str) -> Option<&mut OnlineGame> {
        self.focus.as_mut().filter(|focus| focus.id == id)?.game.as_mut()
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
    }

    /// The socket opened: say hello.
    pub fn opened(&mut self) -> Vec<Effect> {
        self.link = Link::Greeting;
        self.hello_name = Some(self.name.clone());
        vec![Effect::Send(ClientMessage::Hello { version: VERSION, name: self.name.clone() })]
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
        vec![Effect::Connect { after_ms }]
    }

    /// A text frame from the server. Anything that is not a message changes nothing.
    pub fn receive_text(&mut self, text: &str, now: f64) -> Vec<Effect> {
        match ServerMessage::parse(text) {
            Ok(message) => self.receive(message, now),
            Err(_) => Vec::new(),
        }
    }

    /// Sends `message` now, or keeps it for when the connection is ready.
    fn request(&mut self, message: ClientMessage) -> Vec<Effect> {
        if self.link == Link::Ready && self.hello_name.as_deref() == Some(self.name.as_str()) {
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
    fn welcome(&mut self, version: u32) -> Vec<Effect> {
        if version != VERSION {
            self.link = Link::Outdated;
            return Vec::new();
        }
        self.link = Link::Ready;
        self.failures = 0;
        self.ever_connected = true;
        if !self.queued.is_empty() && self.hello_name.as_deref() != Some(self.name.as_str()) {
            self.link = Link::Connecting;
            return vec![Effect::Connect { after_ms: 0 }];
        }
        let mut out = Vec::new();
        if let Some(focus) = &self.focus {
            let have_plies = focus.game.as_ref().map(|g| g.moves.len() as u32);
            let game = focus.id.clone();
            if let Some(token) = &focus.token {
                out.push(ClientMessage::Resume { game, token: token.clone(), have_plies });
            } else if !focus.joining {
                out.push(ClientMessage::Watch { game, have_plies });
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
        let game = focus.id.clone();
        let message = match &focus.token {
            Some(token) => ClientMessage::Resume { game, token: token.clone(), have_plies },
            None => ClientMessage::Watch { game, have_plies },
        };
        self.send_now(message)
    }

    /// A message from the server.
    pub fn receive(&mut self, message: ServerMessage, now: f64) -> Vec<Effect> {
        match message {
            ServerMessage::Welcome { version } => self.welcome(version),
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
                        Vec::new()
                    }
                    _ => self.resync(),
                }
            }
            ServerMessage::Refused { game, ply, reason } => self.refused(&game, ply, reason),
            ServerMessage::Presence { game, seat, connected } => {
                if let Some(online) = self.game_mut(&game) {
                    online.players[seat.index()].connected = connected;
                }
                Vec::new()
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

    fn seated(
        &mut self,
        game: String,
        token: String,
        seat: Seat,
        invite: Option<String>,
    ) -> Vec<Effect> {
        let current = self.focus.as_ref().is_some_and(|focus| focus.id == game);
        if !id_ok(&game) || !id_ok(&token) || !(current || self.expecting_seat) {
            return Vec::new();
        }
        self.expecting_seat = false;
        self.seeking = None;
        self.invite = None;
        self.note = None;
        if !current {
            self.focus = Some(Focus::new(game.clone(), None));
        }
        if let Some(focus) = &mut self.focus {
            focus.token = Some(token.clone());
            focus.invite = invite.filter(|invite| id_ok(invite));
            focus.joining = false;
            if let Some(online) = &mut focus.game
                && online.you != Some(seat)
            {
                online.you = Some(seat);
                online.board.flipped = seat == Seat::Second;
                online.sync_board();
            }
        }
        vec![Effect::SaveSeat { game: game.clone(), token }, Effect::ShowAddress(Some(game))]
    }

    fn state(&mut self, view: &GameView, now: f64) -> Vec<Effect> {
        let settings = self.settings.clone();
        let Some(focus) = self.focus.as_mut().filter(|focus| focus.id == view.game) else {
            return Vec::new();
        };
        let taken = match &mut focus.game {
            Some(online) => online.merge_view(view, now),
            None if view.from_ply == 0 => match OnlineGame::from_view(view, &settings, now) {
                Some(online) => {
                    focus.game = Some(online);
                    true
                }
                None => false,
            },
            None => {
                // Moves from a ply this page does not have: ask for the whole game.
                self.resync_asked = false;
                let have = None;
                let game = view.game.clone();
                let message = match &focus.token {
                    Some(token) => {
                        ClientMessage::Resume { game, token: token.clone(), have_plies: have }
                    }
                    None => ClientMessage::Watch { game, have_plies: have },
                };
                return self.send_now(message);
            }
        };
        if taken {
            self.resync_asked = false;
            if let Some(focus) = &mut self.focus {
                focus.joining = false;
            }
        } else {
            self.note = Some(Note::Say(Words::ServerNonsense));
        }
        Vec::new()
    }

    fn refused(&mut self, game: &str, ply: u32, reason: Refusal) -> Vec<Effect> {
        let Some(online) = self.game_mut(game) else { return Vec::new() };
        let known = online.moves.len();
        if online.pending.as_ref().is_none_or(|p| p.ply as u64 != u64::from(ply)) {
            return Vec::new();
        }
        let (words, illegal) = match &reason {
            Refusal::Illegal { .. } => (Words::RefusedIllegal, true),
            Refusal::Unreadable => (Words::RefusedIllegal, false),
            Refusal::NotYourTurn => (Words::RefusedNotYourTurn, false),
            Refusal::WrongPly { .. } => (Words::RefusedWrongPly, false),
            Refusal::NotPlaying => (Words::RefusedNotPlaying, false),
            Refusal::NotAPlayer => (Words::RefusedNotAPlayer, false),
        };
        online.take_back(Note::Say(words), illegal);
        match reason {
            Refusal::WrongPly { expected } if u64::from(expected) != known as u64 => self.resync(),
            _ => Vec::new(),
        }
    }

    fn error(&mut self, code: ErrorCode, detail: &str) -> Vec<Effect> {
        let words = match code {
            ErrorCode::VersionMismatch => {
                self.link = Link::Outdated;
                return Vec::new();
            }
            ErrorCode::BadMessage => Words::ErrorBadMessage,
            ErrorCode::Unexpected => Words::ErrorUnexpected,
            ErrorCode::BadName => Words::ErrorBadName,
            ErrorCode::UnknownGame => Words::ErrorUnknownGame,
            ErrorCode::BadToken => Words::ErrorBadToken,
            ErrorCode::SeatTaken => Words::ErrorSeatTaken,
            ErrorCode::BadSpec => Words::ErrorBadSpec,
            ErrorCode::TooManyGames => Words::ErrorTooManyGames,
        };
        self.note = Some(Note::Server(words, shown_text(detail, DETAIL_MAX_CHARS)));
        let mut out = Vec::new();
        if let Some(focus) = &mut self.focus
            && focus.game.is_none()
        {
            let game = focus.id.clone();
            match code {
                // No such game: back to the lobby.
                ErrorCode::UnknownGame => {
                    if focus.token.is_some() {
                        out.push(Effect::ForgetSeat { game });
                    }
                    self.focus = None;
                    self.expecting_seat = false;
                    out.push(Effect::ShowAddress(None));
                }
                // The invite or the kept seat is not good: watch instead.
                ErrorCode::BadToken | ErrorCode::SeatTaken
                    if focus.joining || focus.token.is_some() =>
                {
                    if focus.token.take().is_some() {
                        out.push(Effect::ForgetSeat { game: game.clone() });
                    }
                    focus.joining = false;
                    self.expecting_seat = false;
                    out.extend(self.send_now(ClientMessage::Watch { game, have_plies: None }));
                }
                _ => {}
            }
        }
        out
    }

    /// Something the player did.
    pub fn intent(&mut self, intent: Intent, _now: f64) -> Vec<Effect> {
        match intent {
            Intent::SetName(name) => {
                self.name = clean_name(&name);
                Vec::new()
            }
            Intent::SetLanguage(lang) => {
                self.settings.lang = lang;
                if let Some(game) = self.focus.as_mut().and_then(|focus| focus.game.as_mut()) {
                    game.board.settings.lang = lang;
                }
                Vec::new()
            }
            Intent::Create { spec, seat } => {
                self.note = None;
                self.expecting_seat = true;
                self.request(ClientMessage::Create { spec, seat })
            }
            Intent::Seek(spec) => {
                self.note = None;
                self.expecting_seat = true;
                self.seeking = Some(spec.clone());
                self.request(ClientMessage::Seek { spec })
            }
            Intent::CancelSeek => {
                self.seeking = None;
                self.expecting_seat = false;
                self.queued.retain(|m| !matches!(m, ClientMessage::Seek { .. }));
                self.send_now(ClientMessage::CancelSeek)
            }
            Intent::Join => {
                let Some((game, invite)) = self.invite.take() else { return Vec::new() };
                let mut focus = Focus::new(game.clone(), None);
                focus.joining = true;
                self.focus = Some(focus);
                self.expecting_seat = true;
                self.request(ClientMessage::Join { game, invite })
            }
            Intent::Board(action) => {
                let ready = self.link == Link::Ready;
                let Some(online) = self.focus.as_mut().and_then(|f| f.game.as_mut()) else {
                    return Vec::new();
                };
                let Some(text) = online.board_action(action) else { return Vec::new() };
                let ply = online.moves.len() as u32;
                let message = ClientMessage::Move { game: online.id.clone(), ply, text };
                // Not connected: the move goes when the connection is back (see `welcome`).
                if ready { vec![Effect::Send(message)] } else { Vec::new() }
            }
            Intent::Resign
            | Intent::OfferDraw
            | Intent::DeclineDraw
            | Intent::Abort
            | Intent::Rematch
            | Intent::ClaimWin => self.game_intent(&intent),
            Intent::Retry => match self.link {
                Link::Retrying { .. } => {
                    self.link = Link::Connecting;
                    vec![Effect::Connect { after_ms: 0 }]
                }
                _ => Vec::new(),
            },
        }
    }

    fn game_intent(&mut self, intent: &Intent) -> Vec<Effect> {
        let ready = self.link == Link::Ready;
        let Some(online) = self.focus.as_mut().and_then(|f| f.game.as_mut()) else {
            return Vec::new();
        };
        let Some(you) = online.you else { return Vec::new() };
        if !ready {
            return Vec::new();
        }
        let game = online.id.clone();
        let playing = online.status == Status::Playing;
        let message = match intent {
            Intent::Resign if playing => ClientMessage::Resign { game },
            Intent::OfferDraw if playing => {
                if online.draw_offer.is_none() {
                    online.draw_offer = Some(you);
                }
                ClientMessage::OfferDraw { game }
            }
            Intent::DeclineDraw if playing => {
                online.draw_offer = None;
                ClientMessage::DeclineDraw { game }
            }
            Intent::Abort if playing || online.status == Status::Waiting => {
                ClientMessage::Abort { game }
            }
            Intent::ClaimWin if playing => ClientMessage::ClaimWin { game },
            Intent::Rematch if matches!(online.status, Status::Ended { .. }) => {
                if online.rematch_offer.is_none() {
                    online.rematch_offer = Some(you);
                }
                self.expecting_seat = true;
                ClientMessage::Rematch { game }
            }
            _ => return Vec::new(),
        };
        vec![Effect::Send(message)]
    }
}

#[cfg(test)]
#[path = "session_tests.rs"]
mod tests;
