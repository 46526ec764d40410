//! One game's state and rules of play on the server, with no I/O and no async: each call takes
//! the time (`now`, in [`Clock`](crate::clock::Clock) milliseconds) and returns [`Effects`] — what
//! to store and what to send — for the game's task to carry out, storing before sending.
//!
//! The task applies a call to a copy of the session and keeps the copy only once its writes are
//! stored, so a call that fails (or is refused) changes nothing.

mod chat;
mod listing;
mod play;
#[cfg(test)]
mod tests;

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use qi_protocol::{
    ChatLine, ChatRoom, ErrorCode, GameResult, GameSpec, GameView, PlayedMove, PlayerView, Seat,
    ServerMessage, Status,
};
use qi_rules::any::{AnyGame, StartFrom};
use qi_rules::banqi::{BanqiMove, Square};
use qi_rules::{Game, Side};

use crate::clock::{GameClock, abandonment_grace_ms};
use crate::storage::{StoredGame, Write};
use crate::tokens::{hash_token, invite_for, new_token, token_matches_hash};

pub use listing::Listing;
pub use play::Action;

/// A connection, numbered by the server.
pub type ConnId = u64;

/// How a connection comes into a game.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Attach {
    /// Into a seat the server gives it (the creator's, a pairing's, a rematch's).
    Seat(Seat),
    /// Back into the seat this token holds (the token is sent back as it came).
    Token(String),
    /// Into the free seat, with the invite token and who takes it.
    Invite {
        /// The invite token.
        invite: String,
        /// Who.
        player: Player,
    },
    /// Into the free seat of an open challenge (a listed game).
    Accept {
        /// Who.
        player: Player,
    },
    /// As a spectator.
    Watch,
    /// Into the seat this account holds (a tournament's game, made for two accounts): the
    /// seat's token is handed out, or made anew when this run does not know it; an account
    /// that holds no seat watches. The account is the connection's signed-in one, never a
    /// client's word.
    Account(String),
}

/// Who takes a seat: a display name, and the account when the player is signed in.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Player {
    /// The name shown (a signed-in player's username).
    pub name: String,
    /// The account's key, when signed in.
    #[serde(default)]
    pub account: Option<String>,
    /// The account's ratings as they stood when this was made, by kind (the variant's name).
    #[serde(default)]
    pub ratings: Vec<(String, qi_protocol::ShownRating)>,
}

impl Player {
    /// An anonymous player.
    #[must_use]
    pub fn anonymous(name: String) -> Player {
        Player { name, account: None, ratings: Vec::new() }
    }

    /// The rating in the kind of game `spec` is, when signed in.
    #[must_use]
    pub fn rating_in(&self, spec: &GameSpec) -> Option<qi_protocol::ShownRating> {
        self.account.as_ref()?;
        let found = self.ratings.iter().find(|(kind, _)| *kind == spec.variant().name());
        Some(found.map_or(qi_protocol::START_RATING, |r| r.1))
    }

    /// Why this player may not take a seat in `spec` (a rated game) against `other`, if not.
    ///
    /// # Errors
    /// [`Denied`] with [`ErrorCode::NeedsAccount`].
    pub fn may_play(&self, spec: &GameSpec, other: Option<&str>) -> Result<(), Denied> {
        if !spec.rated {
            return Ok(());
        }
        match &self.account {
            None => Err(Denied::new(
                ErrorCode::NeedsAccount,
                "rated games are between signed-in players: sign in, or play a casual game",
            )),
            Some(key) if Some(key.as_str()) == other => {
                Err(Denied::new(ErrorCode::NeedsAccount, "a rated game is against someone else"))
            }
            Some(_) => Ok(()),
        }
    }
}

/// A message to send, and to whom.
#[derive(Clone, Debug, PartialEq)]
pub enum Outgoing {
    /// To one connection.
    To(ConnId, ServerMessage),
    /// To everyone in the game, players and spectators.
    All(ServerMessage),
    /// To the readers of one chat room: the players, or the spectators.
    Room(ChatRoom, ServerMessage),
    /// The game's state, as that connection may see it, from the ply it has.
    StateTo {
        /// The connection.
        conn: ConnId,
        /// How many moves it has.
        have_plies: Option<u32>,
    },
    /// The whole state to everyone, each as they may see it.
    StateToAll,
}

/// A new game to start with the seats swapped, once both players asked for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RematchPlan {
    /// The finished game.
    pub of: String,
    /// What is played.
    pub spec: GameSpec,
    /// The players in their new seats.
    pub players: [Player; 2],
    /// The players' connections in their new seats.
    pub conns: [Vec<ConnId>; 2],
    /// Whether the rematch is listed in the lobby (as the game it follows).
    pub listed: bool,
}

/// What a call on the session asks for: writes to store first, then messages to send.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Effects {
    /// To store before anything is sent.
    pub writes: Vec<Write>,
    /// To send once stored.
    pub out: Vec<Outgoing>,
    /// A rematch to create.
    pub rematch: Option<RematchPlan>,
}

/// A request that was turned down: the error to send back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Denied {
    /// The code.
    pub code: ErrorCode,
    /// Details for people.
    pub detail: String,
}

impl Denied {
    pub(crate) fn new(code: ErrorCode, detail: impl Into<String>) -> Denied {
        Denied { code, detail: detail.into() }
    }
}

#[derive(Clone, Debug)]
struct SeatState {
    /// The [`hash_token`] of the seat's token, as stored.
    token_hash: String,
    /// The token itself, while the server knows it: only a game created by this run knows its
    /// seats' tokens, and only until its task stops (storage has the hash alone); so does a
    /// seat taken with the invite, whose token is made then.
    token: Option<String>,
    /// `Some` once the seat is taken.
    name: Option<String>,
    /// The player's account key, if signed in when the seat was taken.
    account: Option<String>,
    /// The player's rating in this game's kind then (known to this run only).
    rating: Option<qi_protocol::ShownRating>,
    conns: BTreeSet<ConnId>,
    /// When the last connection left (meaningful while `conns` is empty).
    away_since: u64,
}

/// One game on the server.
#[derive(Clone, Debug)]
pub struct Session {
    id: String,
    spec: GameSpec,
    /// The real game (banqi: with every face-down piece known).
    game: AnyGame,
    /// The start as clients see it (banqi: face-down pieces unknown).
    public_start: String,
    /// Banqi: the real start, sent with the end.
    deal: Option<String>,
    moves: Vec<PlayedMove>,
    movers: Vec<Seat>,
    /// Each move's text as its player sent it (a resend matches it or the canonical text).
    sent: Vec<String>,
    seats: [SeatState; 2],
    /// The [`hash_token`] of the invite.
    invite_hash: String,
    spectators: BTreeSet<ConnId>,
    result: Option<GameResult>,
    clock: Option<GameClock>,
    draw_offer: Option<Seat>,
    /// A takeback request standing, by whom.
    takeback_offer: Option<Seat>,
    /// Whose takeback request was declined since the last move: they may not ask again until
    /// a move is played (one request at a time, no flood).
    takeback_declined: [bool; 2],
    rematch: [bool; 2],
    rematch_started: bool,
    grace_ms: u64,
    /// Whether the game is shown in the lobby.
    listed: bool,
    /// The tournament it is played in, if any.
    tournament: Option<String>,
    /// When it was made (milliseconds since the Unix epoch).
    created_unix_ms: u64,
    /// Both chat rooms, oldest first (the newest [`qi_protocol::CHAT_ROOM_MAX_LINES`] of
    /// each). Shared, so that the copy each command makes of the session does not copy it.
    chat: std::sync::Arc<Vec<ChatLine>>,
    /// When each writer wrote its latest chat lines (for the rate limit).
    chat_times: BTreeMap<chat::Writer, VecDeque<u64>>,
}

/// A spec checked: the clock is one the server runs and the rules set up a game (their values
/// were checked as the message was read). Returns the pairing key: the variant, the rule
/// options written out in full, the clock and whether it is rated.
///
/// # Errors
/// [`ErrorCode::BadSpec`] with the reason.
pub fn check_spec(spec: &GameSpec) -> Result<String, Denied> {
    let bad = |detail: String| Denied::new(ErrorCode::BadSpec, detail);
    if let Some(clock) = spec.clock
        && !clock.is_valid()
    {
        return Err(bad("the clock must be 1 to 10,800 s with 0 to 180 s added".into()));
    }
    let game = AnyGame::with_rules(spec.rules, &StartFrom::Start { seed: 0 })
        .map_err(|e| bad(e.to_string()))?;
    let clock = spec.clock.map(|c| format!("{}+{}", c.base_secs, c.increment_secs));
    let rated = if spec.rated { "|rated" } else { "" };
    Ok(format!("{}|{}|{}{rated}", spec.variant(), game.rules_list(), clock.unwrap_or_default()))
}

/// The seat that plays `side`.
pub(crate) fn seat_of_side(side: Side) -> Seat {
    match side {
        Side::First => Seat::First,
        Side::Second => Seat::Second,
    }
}

/// The piece a move turns up in the real game, if it turns one up: a banqi flip, or a cannon
/// taking a face-down piece. Only the server's game, which knows the deal, can say.
fn reveal_of(game: &AnyGame, text: &str) -> Option<String> {
    let AnyGame::Banqi(banqi) = game else { return None };
    let cell = match banqi.parse_move(text).ok()? {
        BanqiMove::Flip(cell) | BanqiMove::Step { to: cell, .. } => cell,
        BanqiMove::Stop => return None,
    };
    match banqi.square(cell) {
        Square::Hidden(piece) => Some(piece.letter().to_string()),
        _ => None,
    }
}

impl Session {
    /// The session of a stored game (a new one has no moves): the moves are replayed, the
    /// clocks set from the last move's and, if one runs, started at `now` — the time the server
    /// was down is nobody's.
    ///
    /// # Errors
    /// What was wrong with the stored game (it does not set up or a move does not play).
    pub fn restore(stored: &StoredGame, now: u64) -> Result<Session, String> {
        let record = &stored.game;
        let spec = record.spec.clone();
        let start = StartFrom::Position(&record.start);
        let mut game = AnyGame::with_rules(spec.rules, &start).map_err(|e| e.to_string())?;
        let (public_start, deal) = match &game {
            AnyGame::Banqi(banqi) => (banqi.conceal().position(), Some(banqi.position())),
            other => (other.position(), None),
        };
        let mut session_moves = Vec::with_capacity(stored.moves.len());
        for (ply, record) in stored.moves.iter().enumerate() {
            if usize::try_from(record.ply).ok() != Some(ply) {
                return Err(format!("move {} stored as ply {}", ply, record.ply));
            }
            let reveal = reveal_of(&game, &record.text);
            game.play(&record.text).map_err(|e| format!("ply {ply}: {e}"))?;
            session_moves.push(PlayedMove { ply: record.ply, text: record.text.clone(), reveal });
        }
        let seat = |index: usize| SeatState {
            token_hash: record.token_hashes[index].clone(),
            token: None,
            name: record.names[index].clone(),
            account: record.accounts[index].clone(),
            rating: None,
            conns: BTreeSet::new(),
            away_since: now,
        };
        let clock = spec.clock.map(|clock_spec| {
            let stored_remaining = stored.moves.iter().rev().find_map(|mv| mv.remaining_ms);
            match stored.final_clocks.or(stored_remaining) {
                Some(remaining) => GameClock::restored(clock_spec, remaining),
                None => GameClock::new(clock_spec),
            }
        });
        let mut session = Session {
            id: record.id.clone(),
            grace_ms: abandonment_grace_ms(spec.clock),
            spec,
            game,
            public_start,
            deal,
            moves: session_moves,
            movers: stored.moves.iter().map(|mv| mv.seat).collect(),
            sent: stored.moves.iter().map(|mv| mv.text.clone()).collect(),
            seats: [seat(0), seat(1)],
            invite_hash: record.invite_hash.clone(),
            spectators: BTreeSet::new(),
            result: stored.result.clone(),
            clock,
            draw_offer: None,
            takeback_offer: None,
            takeback_declined: [false; 2],
            rematch: [false; 2],
            rematch_started: false,
            chat: std::sync::Arc::new(chat::newest(&stored.chat)),
            chat_times: BTreeMap::new(),
            listed: record.listed,
            tournament: record.tournament.clone(),
            created_unix_ms: record.created_unix_ms,
        };
        if session.result.is_none() {
            session.result = session.rules_result();
        }
        session.start_clock(now);
        Ok(session)
    }

    /// The session of a game just created and stored, whose seat tokens (those given: a free
    /// seat has none yet) the server knows, so that [`Attach::Seat`] can hand them out.
    ///
    /// # Errors
    /// As [`Session::restore`], or a token that is not the one whose hash was stored.
    pub fn created(
        stored: &StoredGame,
        tokens: [Option<String>; 2],
        now: u64,
    ) -> Result<Session, String> {
        let mut session = Session::restore(stored, now)?;
        for (seat, token) in session.seats.iter_mut().zip(tokens) {
            if let Some(token) = &token
                && !token_matches_hash(token, &seat.token_hash)
            {
                return Err("a seat token does not match its stored hash".into());
            }
            seat.token = token;
        }
        Ok(session)
    }

    /// Sets the ratings the players had when they took their seats (known to this run only:
    /// a game restored from storage shows none).
    pub fn set_ratings(&mut self, ratings: [Option<qi_protocol::ShownRating>; 2]) {
        for (seat, rating) in self.seats.iter_mut().zip(ratings) {
            seat.rating = rating;
        }
    }

    /// The game id.
    #[must_use]
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The number of moves played.
    #[must_use]
    pub fn plies(&self) -> u32 {
        u32::try_from(self.moves.len()).unwrap_or(u32::MAX)
    }

    /// How it ended, if it has.
    #[must_use]
    pub fn result(&self) -> Option<&GameResult> {
        self.result.as_ref()
    }

    /// Whether a seat is still free (nobody took the invitation).
    #[must_use]
    pub fn has_free_seat(&self) -> bool {
        self.seats.iter().any(|seat| seat.name.is_none())
    }

    /// Whether both seats are taken and the game is not over.
    #[must_use]
    pub fn is_playing(&self) -> bool {
        self.result.is_none() && self.seats.iter().all(|seat| seat.name.is_some())
    }

    /// Whether nobody is in the game and no clock runs: its task may stop, and the game is
    /// loaded again from storage when someone asks for it. (A pending draw offer is not stored
    /// and is dropped then.)
    #[must_use]
    pub fn is_idle(&self) -> bool {
        self.next_deadline().is_none()
            && self.spectators.is_empty()
            && self.seats.iter().all(|seat| seat.conns.is_empty())
    }

    /// The seat `conn` holds here, if any.
    #[must_use]
    pub fn seat_of(&self, conn: ConnId) -> Option<Seat> {
        [Seat::First, Seat::Second]
            .into_iter()
            .find(|s| self.seats[s.index()].conns.contains(&conn))
    }

    /// Whether `conn` is in the game (as a player or a spectator).
    #[must_use]
    pub fn has_member(&self, conn: ConnId) -> bool {
        self.spectators.contains(&conn) || self.seat_of(conn).is_some()
    }

    fn status(&self) -> Status {
        match &self.result {
            Some(result) => Status::Ended { result: result.clone() },
            None if self.is_playing() => Status::Playing,
            None => Status::Waiting,
        }
    }

    fn watchers(&self) -> u32 {
        u32::try_from(self.spectators.len()).unwrap_or(u32::MAX)
    }

    fn watchers_message(&self) -> Outgoing {
        Outgoing::All(ServerMessage::Watchers { game: self.id.clone(), count: self.watchers() })
    }

    /// The invite for the holder of `seat`'s `token`, while the other seat is free and the game
    /// not over: then `seat` is the creator's, and the invite is [`invite_for`] their token.
    /// None when that is not the invite stored (a game created before invites were derived).
    fn open_invite(&self, seat: Seat, token: &str) -> Option<String> {
        let free = self.seats[seat.other().index()].name.is_none();
        if !free || self.result.is_some() {
            return None;
        }
        let invite = invite_for(token);
        token_matches_hash(&invite, &self.invite_hash).then_some(invite)
    }

    /// The game as `conn` may see it, from ply `have_plies` when the client has that many.
    #[must_use]
    pub fn view_for(&self, conn: ConnId, have_plies: Option<u32>, now: u64) -> GameView {
        let from = have_plies.filter(|&n| n <= self.plies()).unwrap_or(0);
        let player = |seat: &SeatState| PlayerView {
            name: seat.name.clone(),
            connected: !seat.conns.is_empty(),
            rating: seat.rating,
        };
        GameView {
            game: self.id.clone(),
            spec: self.spec.clone(),
            start: self.public_start.clone(),
            moves: self.moves.get(from as usize..).unwrap_or_default().to_vec(),
            from_ply: from,
            clocks: self.clock.as_ref().map(|clock| clock.view(now)),
            players: [player(&self.seats[0]), player(&self.seats[1])],
            you: self.seat_of(conn),
            status: self.status(),
            watchers: self.watchers(),
            draw_offer: self.draw_offer,
            takeback_offer: self.takeback_offer,
            chat: self.chat_for(conn),
            // Banqi: the whole deal, once the game is over (as in `Ended`), never before.
            deal: self.result.as_ref().and(self.deal.clone()),
            tournament: self.tournament.clone(),
        }
    }

    /// Every connection in the game.
    #[must_use]
    pub fn members(&self) -> Vec<ConnId> {
        let seated = self.seats.iter().flat_map(|seat| seat.conns.iter());
        seated.chain(self.spectators.iter()).copied().collect()
    }

    /// Brings `conn` into the game.
    ///
    /// # Errors
    /// [`Denied`]: a token that is not the game's, a seat already taken, a second seat.
    pub fn attach(
        &mut self,
        conn: ConnId,
        how: Attach,
        have_plies: Option<u32>,
        now: u64,
    ) -> Result<Effects, Denied> {
        match how {
            Attach::Watch => {
                let mut effects = Effects::default();
                if self.seat_of(conn).is_none() && self.spectators.insert(conn) {
                    effects.out.push(self.watchers_message());
                }
                effects.out.push(Outgoing::StateTo { conn, have_plies });
                Ok(effects)
            }
            Attach::Seat(seat) => {
                let Some(token) = self.seats[seat.index()].token.clone() else {
                    // Only a game this run created is entered this way, and it knows its tokens.
                    return Err(Denied::new(
                        ErrorCode::Unexpected,
                        "that seat's token is not known",
                    ));
                };
                self.seat_connection(conn, seat, token, have_plies, now)
            }
            Attach::Token(token) => {
                let matches: Vec<bool> = self
                    .seats
                    .iter()
                    .map(|seat| token_matches_hash(&token, &seat.token_hash) && seat.name.is_some())
                    .collect();
                let seat = match matches.as_slice() {
                    [true, _] => Seat::First,
                    [_, true] => Seat::Second,
                    _ => return Err(Denied::new(ErrorCode::BadToken, "not a seat of this game")),
                };
                self.seat_connection(conn, seat, token, have_plies, now)
            }
            Attach::Account(account) => {
                let Some(seat) = [Seat::First, Seat::Second]
                    .into_iter()
                    .find(|seat| self.seats[seat.index()].account.as_ref() == Some(&account))
                else {
                    return self.attach(conn, Attach::Watch, have_plies, now);
                };
                let mut writes = Vec::new();
                let token = match self.seats[seat.index()].token.clone() {
                    Some(token) => token,
                    None => {
                        // A game loaded from storage knows only the hash: a new token, stored.
                        let token = new_token().map_err(|e| {
                            Denied::new(ErrorCode::Unexpected, format!("no new token: {e}"))
                        })?;
                        let state = &mut self.seats[seat.index()];
                        state.token = Some(token.clone());
                        state.token_hash = hash_token(&token);
                        writes.push(Write::TakeSeat {
                            game: self.id.clone(),
                            seat,
                            name: state.name.clone().unwrap_or_default(),
                            account: Some(account),
                            token_hash: state.token_hash.clone(),
                        });
                        token
                    }
                };
                let mut effects = self.seat_connection(conn, seat, token, have_plies, now)?;
                effects.writes.extend(writes);
                Ok(effects)
            }
            Attach::Invite { invite, player } => {
                if !token_matches_hash(&invite, &self.invite_hash) {
                    return Err(Denied::new(ErrorCode::BadToken, "not this game's invite"));
                }
                self.take_free_seat(conn, player, now)
            }
            Attach::Accept { player } => {
                if !self.listed {
                    return Err(Denied::new(
                        ErrorCode::BadToken,
                        "this game is not an open challenge: it needs its invite link",
                    ));
                }
                // Only while its creator waits on its page: a challenge left behind is not
                // there to be taken (and then claimed as abandoned).
                if !matches!(self.listing(), Some(Listing::Challenge(_))) {
                    return Err(Denied::new(
                        ErrorCode::SeatTaken,
                        "this challenge is no longer open",
                    ));
                }
                // Nor from another tab of the same account.
                let same_account = player.account.is_some()
                    && self.seats.iter().any(|seat| seat.account == player.account);
                if self.seat_of(conn).is_some() || same_account {
                    return Err(Denied::new(
                        ErrorCode::Unexpected,
                        "you cannot accept your own challenge",
                    ));
                }
                self.take_free_seat(conn, player, now)
            }
        }
    }

    /// Seats `conn` in `seat`, whose `token` it is sent.
    fn seat_connection(
        &mut self,
        conn: ConnId,
        seat: Seat,
        token: String,
        have_plies: Option<u32>,
        _now: u64,
    ) -> Result<Effects, Denied> {
        if self.seat_of(conn) == Some(seat.other()) {
            return Err(Denied::new(ErrorCode::Unexpected, "you already hold the other seat"));
        }
        let mut effects = Effects::default();
        if self.spectators.remove(&conn) {
            effects.out.push(self.watchers_message());
        }
        let invite = self.open_invite(seat, &token);
        let state = &mut self.seats[seat.index()];
        let came_back = state.conns.is_empty();
        state.conns.insert(conn);
        let game = self.id.clone();
        effects.out.push(Outgoing::To(conn, ServerMessage::Seated { game, token, seat, invite }));
        if came_back {
            let presence = ServerMessage::Presence { game: self.id.clone(), seat, connected: true };
            effects.out.push(Outgoing::All(presence));
        }
        effects.out.push(Outgoing::StateTo { conn, have_plies });
        Ok(effects)
    }

    fn take_free_seat(
        &mut self,
        conn: ConnId,
        player: Player,
        now: u64,
    ) -> Result<Effects, Denied> {
        let Some(free) = [Seat::First, Seat::Second]
            .into_iter()
            .find(|seat| self.seats[seat.index()].name.is_none())
        else {
            return Err(Denied::new(ErrorCode::SeatTaken, "both seats are taken"));
        };
        if self.result.is_some() {
            return Err(Denied::new(ErrorCode::Unexpected, "the game is over"));
        }
        if self.seat_of(conn).is_some() {
            return Err(Denied::new(ErrorCode::Unexpected, "you already hold a seat here"));
        }
        player.may_play(&self.spec, self.seats[free.other().index()].account.as_deref())?;
        // The seat's token is made now: the one made at creation was never known to anyone, and
        // a game loaded from storage would not know it anyway.
        let token = new_token()
            .map_err(|e| Denied::new(ErrorCode::Unexpected, format!("no new token: {e}")))?;
        let token_hash = hash_token(&token);
        let rating = player.rating_in(&self.spec);
        let Player { name, account, .. } = player;
        let state = &mut self.seats[free.index()];
        state.name = Some(name.clone());
        state.account.clone_from(&account);
        state.rating = rating;
        state.token = Some(token.clone());
        state.token_hash.clone_from(&token_hash);
        let mut effects = self.seat_connection(conn, free, token, None, now)?;
        let take = Write::TakeSeat { game: self.id.clone(), seat: free, name, account, token_hash };
        effects.writes.push(take);
        effects.out.retain(|out| !matches!(out, Outgoing::StateTo { .. }));
        effects.out.push(Outgoing::StateToAll);
        Ok(effects)
    }

    /// Takes `conn` out of the game (its connection closed or was dropped).
    pub fn detach(&mut self, conn: ConnId, now: u64) -> Effects {
        let mut effects = Effects::default();
        if self.spectators.remove(&conn) {
            effects.out.push(self.watchers_message());
        }
        for seat in [Seat::First, Seat::Second] {
            let state = &mut self.seats[seat.index()];
            if state.conns.remove(&conn) && state.conns.is_empty() {
                state.away_since = now;
                // An offer stands only while someone is there to play the rematch.
                self.rematch[seat.index()] = false;
                let presence =
                    ServerMessage::Presence { game: self.id.clone(), seat, connected: false };
                effects.out.push(Outgoing::All(presence));
            }
        }
        effects
    }
}
