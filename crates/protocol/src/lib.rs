//! The messages between Qi's browser app and its online-play server, shared by both sides.
//!
//! # Wire format
//! Each message is one WebSocket text frame holding one JSON object whose `type` field names the
//! message (`{"type":"move","game":"k3J9...","ply":12,"text":"e2e4"}`). Field and value names
//! are `snake_case`. A client opens with [`ClientMessage::Hello`] carrying [`VERSION`]; the server
//! answers [`ServerMessage::Welcome`], or [`ErrorCode::VersionMismatch`] and closes.
//!
//! A message of a type the receiver does not know parses as the `Unknown` variant, so that a
//! newer peer's message gets an [`ErrorCode::Unexpected`] answer instead of breaking the
//! connection; text that is not a message at all is [`ErrorCode::BadMessage`]. Neither changes
//! anything.
//!
//! # Games, seats and tokens
//! A game is named by its id (unguessable, in links). Each player's seat is held by a seat
//! token (at least 128 random bits, kept by the browser): [`ClientMessage::Resume`] with it puts
//! a reconnecting player back in the seat. The second seat is taken with the invite token of the
//! invite link ([`ClientMessage::Join`]); anyone with the game id may watch.
//!
//! # Values of the rules
//! The variant ([`Variant`], `"chess960"`), why a move was refused ([`IllegalReason`],
//! `"leaves_king_in_check"`) and why the rules ended a game ([`RulesEnd`], `"checkmate"`) are
//! the rules crate's own values, named in `snake_case`: each side words them in its reader's
//! language. A game's rule options are the rules crate's [`AnyRules`], an object tagged by the
//! game whose fields are the options (`{"game":"banqi","chain":true}`, the rest at their
//! defaults); the server refuses values the rules do not take as it would their text. A value
//! this version does not know makes the whole message unreadable, so adding a variant, a rule
//! option, a refusal reason or an end reason raises [`VERSION`].
//!
//! # Moves
//! A move names the ply it is for (0 is the first move of the game). The server applies a move
//! once: the same move for a ply already played is answered with the game's state and changes
//! nothing; a move for any other ply than the next is refused ([`Refusal::WrongPly`]).
//!
//! # Banqi
//! Clients never learn a face-down piece before it is turned up: a banqi [`GameView::start`] is
//! the start position with every face-down piece unknown (`?`, with the pool of what they hide),
//! each [`PlayedMove`] that turns a piece up carries it in [`PlayedMove::reveal`], and the whole
//! deal comes with [`ServerMessage::Ended`].

mod account;
mod chat;
mod lobby;
mod name;
pub mod tournament;

pub use qi_rules::any::{AnyRules, Variant};
pub use qi_rules::{EndReason as RulesEnd, IllegalReason};
use serde::{Deserialize, Serialize};

pub use account::{
    AccountError, AccountErrorCode, AccountView, Credentials, KindRating, PASSWORD_MAX_CHARS,
    PASSWORD_MIN_CHARS, PUZZLE_GAMES, PasswordChange, ProfileGame, ProfileRating, ProfileView,
    PuzzleRatingView, PuzzleResult, RATED_KINDS,
    RatingPoint, START_RATING, ShownRating, USERNAME_MAX_CHARS, USERNAME_MIN_CHARS, UsernameError,
    check_password, check_username, encode_name, username_key,
};
pub use chat::{
    CHAT_MAX_CHARS, CHAT_RATE_MAX, CHAT_RATE_WINDOW_MS, CHAT_ROOM_MAX_LINES, ChatBody, ChatError,
    ChatLine, ChatRoom, QuickMessage, clean_chat,
};
pub use lobby::{
    ChallengeRow, LOBBY_FILTERS, LOBBY_KEEP_CHALLENGES, LOBBY_MAX_CHALLENGES, LOBBY_MAX_GAMES,
    LivePosition, LiveRow, LobbyUpdate,
};
pub use name::{NAME_MAX_MARKS, NameError, clean_name};

/// The protocol's version; a client of another version is refused.
pub const VERSION: u32 = 3;
/// The largest frame a peer may send, in bytes; a larger one closes the socket (code 1009).
pub const MAX_FRAME_BYTES: usize = 8 * 1024;
/// How many messages a client may send within [`RATE_WINDOW_MS`]; more close the socket
/// (code 1008). Every frame counts (text, binary, ones that are not messages at all) except the
/// keep-alive traffic: [`ClientMessage::Pong`] and WebSocket pings and pongs, which have a limit
/// of their own ([`RATE_MAX_KEEP_ALIVES`]), so that a client answering pings is never closed
/// for it.
pub const RATE_MAX_MESSAGES: usize = 100;
/// How many keep-alive frames ([`ClientMessage::Pong`], WebSocket pings and pongs) a client may
/// send within [`RATE_WINDOW_MS`], apart from [`RATE_MAX_MESSAGES`]; more close the socket (code
/// 1008). The server pings every [`PING_INTERVAL_MS`], so a client that only answers needs two.
pub const RATE_MAX_KEEP_ALIVES: usize = 100;
/// The window of the rate limits, in milliseconds.
pub const RATE_WINDOW_MS: u64 = 20_000;
/// How many messages may wait for a client that does not read before it is dropped.
pub const OUTBOX_MAX: usize = 64;
/// The longest display name, in characters (once composed, NFC); see [`clean_name`] for what
/// else a name may not hold.
pub const NAME_MAX_CHARS: usize = 20;
/// How often the server sends [`ServerMessage::Ping`], in milliseconds.
pub const PING_INTERVAL_MS: u64 = 10_000;
/// How long either side waits without hearing anything from the other before taking it for
/// dead and dropping the connection (a client then reconnects and resumes), in milliseconds.
pub const DEAD_PEER_MS: u64 = 30_000;
/// How long a client may take to say [`ClientMessage::Hello`] after connecting; a socket that
/// has not said it by then is closed with 1008.
pub const HELLO_WITHIN_MS: u64 = 15_000;

/// One of the two seats: the first player (White, Red, Black in gomoku, banqi's first flipper)
/// or the second.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Seat {
    /// Moves first.
    First,
    /// Moves second.
    Second,
}

impl Seat {
    /// The other seat.
    #[must_use]
    pub const fn other(self) -> Seat {
        match self {
            Seat::First => Seat::Second,
            Seat::Second => Seat::First,
        }
    }

    /// 0 for the first seat, 1 for the second.
    #[must_use]
    pub const fn index(self) -> usize {
        match self {
            Seat::First => 0,
            Seat::Second => 1,
        }
    }
}

/// The seat a game's creator asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SeatChoice {
    /// Move first.
    First,
    /// Move second.
    Second,
    /// Either, by lot.
    Random,
}

/// A game clock: minutes (as seconds) for the game and seconds added after each move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ClockSpec {
    /// Time for the whole game, in seconds (1 to 10,800).
    pub base_secs: u32,
    /// Seconds added after each move (0 to 180).
    pub increment_secs: u32,
}

impl ClockSpec {
    /// Whether the values are in range.
    #[must_use]
    pub fn is_valid(self) -> bool {
        (1..=10_800).contains(&self.base_secs) && self.increment_secs <= 180
    }
}

/// What game to play: the rules (the game, and its options as values) and the clock.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct GameSpec {
    /// The game and its rule options: `{"game":"gomoku","size":15,"rule":"renju",...}`; an
    /// option left out takes its default.
    pub rules: AnyRules,
    /// The clock, or none (no time limit; then left out of the JSON).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<ClockSpec>,
    /// Whether the game is rated (between two accounts; no takeback). Casual games leave it
    /// out of the JSON.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rated: bool,
}

impl GameSpec {
    /// A casual game of `variant` with its default rules and no clock.
    #[must_use]
    pub fn of(variant: Variant) -> GameSpec {
        GameSpec { rules: AnyRules::of(variant), clock: None, rated: false }
    }

    /// The variant the rules make (Chess960 for chess with a shuffled back rank).
    #[must_use]
    pub const fn variant(&self) -> Variant {
        self.rules.variant()
    }
}

/// What a browser sends.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientMessage {
    /// The first message: the protocol version and the player's display name.
    Hello {
        /// [`VERSION`].
        version: u32,
        /// The display name (trimmed; at most [`NAME_MAX_CHARS`] characters; may be empty; see
        /// [`clean_name`] for the characters refused).
        name: String,
    },
    /// Create a game and take a seat in it.
    Create {
        /// The game.
        spec: GameSpec,
        /// The seat wanted.
        seat: SeatChoice,
    },
    /// Create a game listed in the lobby as an open challenge (anyone may accept it) and take
    /// a seat in it; once both seats are taken it is listed among the games being played.
    Challenge {
        /// The game.
        spec: GameSpec,
        /// The seat wanted.
        seat: SeatChoice,
    },
    /// Take the free seat of an open challenge.
    Accept {
        /// The game id.
        game: String,
    },
    /// Follow the lobby (or change what is followed): open challenges and games being played,
    /// of one game kind or all, and how many wait in quick pairing for one game.
    Lobby {
        /// The variant to show; none for all.
        #[serde(default)]
        variant: Option<Variant>,
        /// The game whose quick-pairing queue to count, if any.
        #[serde(default)]
        seek: Option<GameSpec>,
    },
    /// Stop following the lobby.
    LeaveLobby,
    /// Take the free seat of a game through its invite.
    Join {
        /// The game id.
        game: String,
        /// The invite token.
        invite: String,
    },
    /// Come back to a seat (after a reload or a dropped connection).
    Resume {
        /// The game id.
        game: String,
        /// The seat token.
        token: String,
        /// The number of moves the client has; the server sends the rest, or the whole state.
        #[serde(default)]
        have_plies: Option<u32>,
    },
    /// Come into a game as the signed-in account: into the seat it holds (a tournament's
    /// pairing, made for two accounts; the answer is `Seated` with the seat's token, as for
    /// `Resume`), else — or when not signed in — as a spectator, as `Watch`.
    Sit {
        /// The game id.
        game: String,
        /// The number of moves the client has, as in `Resume`.
        #[serde(default)]
        have_plies: Option<u32>,
    },
    /// Watch a game.
    Watch {
        /// The game id.
        game: String,
        /// The number of moves the client has, as in `Resume`.
        #[serde(default)]
        have_plies: Option<u32>,
    },
    /// Wait to be paired with the next player who wants the same game and clock.
    Seek {
        /// The game.
        spec: GameSpec,
    },
    /// Stop waiting to be paired.
    CancelSeek,
    /// Play a move.
    Move {
        /// The game id.
        game: String,
        /// Which ply this move is (0 is the game's first move).
        ply: u32,
        /// The move in the game's coordinates.
        text: String,
    },
    /// Act in a game: resign, offer or answer a draw, a takeback or a rematch, abort, claim the
    /// win (see [`GameAction`]).
    Act {
        /// The game id.
        game: String,
        /// What.
        action: GameAction,
    },
    /// Write in the game's chat: the players' room for a player, the spectators' for a
    /// spectator.
    Chat {
        /// The game id.
        game: String,
        /// What to say.
        body: ChatBody,
    },
    /// The answer to a [`ServerMessage::Ping`].
    Pong {
        /// The ping's nonce.
        nonce: u64,
    },
    /// A message of a type this version does not know.
    #[serde(other)]
    Unknown,
}

/// What a player does in a game besides moving and chatting: each is one [`ClientMessage::Act`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameAction {
    /// Resign.
    Resign,
    /// Offer a draw (or accept the opponent's offer).
    OfferDraw,
    /// Decline the opponent's draw offer.
    DeclineDraw,
    /// Abort the game: only before each side has moved once; nobody wins.
    Abort,
    /// Offer (or accept) a rematch with the seats swapped, once the game is over.
    Rematch,
    /// Claim the win when the opponent has been away past the grace period.
    ClaimWin,
    /// Ask the opponent to take back your last move (and their reply to it, if they have made
    /// one).
    ProposeTakeback,
    /// Accept the opponent's takeback request.
    AcceptTakeback,
    /// Decline the opponent's takeback request.
    DeclineTakeback,
}

/// What the server sends.
// A message is read or written once and dropped, never kept in bulk: boxing the game's view to
// make the small messages smaller would buy nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMessage {
    /// The answer to `Hello`.
    Welcome {
        /// [`VERSION`].
        version: u32,
        /// The account this socket plays as (its username), when the page is signed in (the
        /// session cookie, read when the socket opened); its games then carry that name,
        /// whatever `Hello` said.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        account: Option<String>,
    },
    /// You hold a seat: keep the token to come back.
    Seated {
        /// The game id.
        game: String,
        /// The seat token.
        token: String,
        /// Your seat.
        seat: Seat,
        /// The invite token for the other seat, while it is free (for the creator).
        #[serde(default)]
        invite: Option<String>,
    },
    /// You are waiting to be paired.
    Seeking {
        /// The game sought.
        spec: GameSpec,
    },
    /// A game's whole state, as the receiver may see it.
    State {
        /// The state.
        view: GameView,
    },
    /// A move was played (also sent to its own player, as the acknowledgement).
    Moved {
        /// The game id.
        game: String,
        /// The move.
        mv: PlayedMove,
        /// The clocks after it.
        #[serde(default)]
        clocks: Option<Clocks>,
    },
    /// Your move was not played.
    Refused {
        /// The game id.
        game: String,
        /// The ply it was for.
        ply: u32,
        /// Why.
        reason: Refusal,
    },
    /// A player's connection came or went.
    Presence {
        /// The game id.
        game: String,
        /// The player.
        seat: Seat,
        /// Whether connected now.
        connected: bool,
    },
    /// How many are watching.
    Watchers {
        /// The game id.
        game: String,
        /// The number of spectators.
        count: u32,
    },
    /// A player offers a draw.
    DrawOffered {
        /// The game id.
        game: String,
        /// Who offers.
        by: Seat,
    },
    /// The draw offer was declined (or lapsed with a move).
    DrawDeclined {
        /// The game id.
        game: String,
    },
    /// A player asks to take back their last move.
    TakebackOffered {
        /// The game id.
        game: String,
        /// Who asks.
        by: Seat,
    },
    /// The takeback request was declined (or lapsed with a move). An accepted one is followed
    /// by the game's whole [`ServerMessage::State`], its moves taken back.
    TakebackDeclined {
        /// The game id.
        game: String,
    },
    /// What changed in the lobby the receiver follows.
    Lobby {
        /// The change.
        update: LobbyUpdate,
    },
    /// A line of chat, to the readers of its room.
    Chat {
        /// The game id.
        game: String,
        /// The line.
        line: ChatLine,
    },
    /// A player offers a rematch.
    RematchOffered {
        /// The finished game's id.
        game: String,
        /// Who offers.
        by: Seat,
    },
    /// The game is over.
    Ended {
        /// The game id.
        game: String,
        /// How.
        result: GameResult,
        /// Banqi: the start position with every face-down piece named (the whole deal).
        #[serde(default)]
        deal: Option<String>,
    },
    /// Something the client sent was wrong; nothing changed.
    Error {
        /// What.
        code: ErrorCode,
        /// Details for people (English).
        detail: String,
    },
    /// Are you there? Answer with [`ClientMessage::Pong`]. Sent every [`PING_INTERVAL_MS`]; the
    /// time to the answer measures the connection's lag, which the server gives back on the
    /// clock within a small quota.
    Ping {
        /// Echoed in the pong.
        nonce: u64,
    },
    /// A message of a type this version does not know.
    #[serde(other)]
    Unknown,
}

/// A move as played.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayedMove {
    /// Which ply it was (0 is the first).
    pub ply: u32,
    /// The move in the game's coordinates.
    pub text: String,
    /// Banqi: the piece the move turned up (its letter, red upper case), if it turned one up.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reveal: Option<String>,
}

/// The clocks, as the server has them when it sends them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clocks {
    /// Milliseconds left for the first and second seat.
    pub remaining_ms: [u64; 2],
    /// The seat whose clock runs, if one does.
    #[serde(default)]
    pub running: Option<Seat>,
}

/// A player as others see them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerView {
    /// The display name, once seated (may be empty).
    #[serde(default)]
    pub name: Option<String>,
    /// Whether connected now.
    pub connected: bool,
    /// The player's rating in the game's kind when they took the seat, for a signed-in player
    /// (known to the server that seated them; left out otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<ShownRating>,
}

/// Where a game stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum Status {
    /// Waiting for the second player.
    Waiting,
    /// Being played.
    Playing,
    /// Over.
    Ended {
        /// How.
        result: GameResult,
    },
}

/// A game's state as one receiver may see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameView {
    /// The game id.
    pub game: String,
    /// What is played.
    pub spec: GameSpec,
    /// The start position in the game's own format (banqi: face-down pieces unknown).
    pub start: String,
    /// Every move so far (or from the ply the client said it has).
    pub moves: Vec<PlayedMove>,
    /// The ply of the first move in `moves` (0 unless the client already had some).
    #[serde(default)]
    pub from_ply: u32,
    /// The clocks.
    #[serde(default)]
    pub clocks: Option<Clocks>,
    /// The two players.
    pub players: [PlayerView; 2],
    /// The receiver's seat, if a player.
    #[serde(default)]
    pub you: Option<Seat>,
    /// Where the game stands.
    pub status: Status,
    /// How many are watching.
    pub watchers: u32,
    /// A draw offer standing, by whom.
    #[serde(default)]
    pub draw_offer: Option<Seat>,
    /// A takeback request standing, by whom.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub takeback_offer: Option<Seat>,
    /// The chat the receiver may read (a player the players' room, a spectator the
    /// spectators'), oldest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub chat: Vec<ChatLine>,
    /// Banqi, once the game is over: the start position with every face-down piece named (the
    /// whole deal, as in [`ServerMessage::Ended`]), so a reload or a late spectator gets it too.
    /// Never set while the game goes on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deal: Option<String>,
    /// The tournament the game is played in, if any (its page is `online/?tournament=<id>`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tournament: Option<String>,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameResult {
    /// The winner, or none for a draw or an aborted game.
    #[serde(default)]
    pub winner: Option<Seat>,
    /// Why.
    pub reason: EndReason,
}

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum EndReason {
    /// The rules ended it (checkmate, five in a row, ...).
    Rules {
        /// The rules' reason. Results stored before version 2 wrote it in English under
        /// `detail` (`"threefold repetition"`): they read as the same reason.
        #[serde(alias = "detail", deserialize_with = "rules_end_then_or_now")]
        reason: RulesEnd,
    },
    /// A player resigned.
    Resignation,
    /// A flag fell.
    Timeout,
    /// The players agreed a draw.
    Agreement,
    /// Aborted before it really began.
    Aborted,
    /// A player stayed away past the grace period and the other claimed the win.
    Abandoned,
}

/// The English each end reason was stored in by protocol version 1 (what
/// [`RulesEnd::describe`] said then), frozen here: the rules may reword their descriptions,
/// stored games keep these.
const VERSION_1_RULES_ENDS: [(&str, RulesEnd); 11] = [
    ("checkmate", RulesEnd::Checkmate),
    ("stalemate", RulesEnd::Stalemate),
    ("no legal moves", RulesEnd::NoLegalMoves),
    ("no pieces left", RulesEnd::NoPieces),
    ("threefold repetition", RulesEnd::Repetition),
    ("perpetual check", RulesEnd::PerpetualCheck),
    ("fifty-move rule", RulesEnd::FiftyMoves),
    ("insufficient material", RulesEnd::InsufficientMaterial),
    ("no capture or flip for too long", RulesEnd::NoProgress),
    ("five in a row", RulesEnd::FiveInARow),
    ("board full", RulesEnd::BoardFull),
];

/// Reads a rules' end reason by its name (`"five_in_a_row"`), or by the English stored games
/// of version 1 hold (`"five in a row"`, [`VERSION_1_RULES_ENDS`]).
fn rules_end_then_or_now<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<RulesEnd, D::Error> {
    let text = String::deserialize(deserializer)?;
    let by_name = serde_json::from_value::<RulesEnd>(serde_json::Value::String(text.clone()));
    by_name.or_else(|_| {
        VERSION_1_RULES_ENDS
            .into_iter()
            .find(|(english, _)| *english == text)
            .map(|(_, reason)| reason)
            .ok_or_else(|| serde::de::Error::custom(format!("no such end of a game: {text}")))
    })
}

/// Why a move was not played.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Refusal {
    /// The rules forbid it.
    Illegal {
        /// The rules' reason.
        reason: IllegalReason,
    },
    /// The text is not a move.
    Unreadable,
    /// It is the other player's turn.
    NotYourTurn,
    /// The move is for another ply than the next.
    WrongPly {
        /// The next ply.
        expected: u32,
    },
    /// The game is over, or not begun.
    NotPlaying,
    /// The sender holds no seat in the game.
    NotAPlayer,
}

/// What was wrong with a client's message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// Not a message (not JSON, or missing fields).
    BadMessage,
    /// A message that does not fit now (or of an unknown type).
    Unexpected,
    /// Another protocol version.
    VersionMismatch,
    /// A display name that is too long or holds a character that does not show as itself
    /// (see [`clean_name`]).
    BadName,
    /// No such game.
    UnknownGame,
    /// A seat or invite token that is not the game's.
    BadToken,
    /// The seat is already taken.
    SeatTaken,
    /// An unknown variant, bad rule options or an impossible clock.
    BadSpec,
    /// Too many games at once for one connection.
    TooManyGames,
    /// A limit on one client address (new games or aborts a minute, unfinished games): the
    /// detail names the limit and, for a rate, when to try again.
    RateLimited,
    /// A chat line not taken: empty, too long, holding a character that does not show as
    /// itself (see [`clean_chat`]), written faster than [`CHAT_RATE_MAX`] lines in
    /// [`CHAT_RATE_WINDOW_MS`], or to the spectators' room of a finished game. The detail says
    /// which.
    BadChat,
    /// A takeback that cannot be asked or answered now (in a rated game never): the detail
    /// says why.
    NoTakeback,
    /// A rated game asked for by or of a player who is not signed in, or against oneself.
    NeedsAccount,
    /// An error of a newer version (the detail says what).
    #[serde(other)]
    Other,
}

/// A message that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError(pub String);

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ParseError {}

impl ClientMessage {
    /// Reads a client's frame.
    ///
    /// # Errors
    /// A [`ParseError`] saying what was wrong, when the text is not a message.
    pub fn parse(text: &str) -> Result<ClientMessage, ParseError> {
        serde_json::from_str(text).map_err(|e| ParseError(e.to_string()))
    }

    /// The message as a frame.
    #[must_use]
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

impl ServerMessage {
    /// Reads a server's frame.
    ///
    /// # Errors
    /// A [`ParseError`] saying what was wrong, when the text is not a message.
    pub fn parse(text: &str) -> Result<ServerMessage, ParseError> {
        serde_json::from_str(text).map_err(|e| ParseError(e.to_string()))
    }

    /// The message as a frame.
    #[must_use]
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_read_back() {
        let spec = GameSpec {
            rules: AnyRules::parse(Variant::Banqi, "chain=true").unwrap(),
            clock: Some(ClockSpec { base_secs: 300, increment_secs: 2 }),
            rated: true,
        };
        let client = [
            ClientMessage::Hello { version: VERSION, name: "棋手".into() },
            ClientMessage::Create { spec: spec.clone(), seat: SeatChoice::Random },
            ClientMessage::Join { game: "g".into(), invite: "i".into() },
            ClientMessage::Resume { game: "g".into(), token: "t".into(), have_plies: Some(4) },
            ClientMessage::Watch { game: "g".into(), have_plies: None },
            ClientMessage::Sit { game: "g".into(), have_plies: Some(2) },
            ClientMessage::Seek { spec: spec.clone() },
            ClientMessage::CancelSeek,
            ClientMessage::Move { game: "g".into(), ply: 3, text: "c3-c4".into() },
            ClientMessage::Pong { nonce: 9 },
            ClientMessage::Act { game: "g".into(), action: GameAction::ProposeTakeback },
            ClientMessage::Chat {
                game: "g".into(),
                body: ChatBody::Quick { code: QuickMessage::Hello },
            },
            ClientMessage::Chat { game: "g".into(), body: ChatBody::Text { text: "gg".into() } },
            ClientMessage::Act { game: "g".into(), action: GameAction::AcceptTakeback },
            ClientMessage::Act { game: "g".into(), action: GameAction::DeclineTakeback },
            ClientMessage::Challenge {
                spec: GameSpec::of(Variant::Gomoku),
                seat: SeatChoice::First,
            },
            ClientMessage::Accept { game: "g".into() },
            ClientMessage::Lobby { variant: Some(Variant::Xiangqi), seek: Some(spec.clone()) },
            ClientMessage::LeaveLobby,
        ];
        for message in client {
            assert_eq!(ClientMessage::parse(&message.to_json()), Ok(message));
        }
        let view = GameView {
            game: "g".into(),
            spec: spec.clone(),
            start: "????????/????????/????????/???????? 1 - 0 KAABBCCNNPPPPPRRkaabbccnnppppprr -"
                .into(),
            moves: vec![PlayedMove { ply: 0, text: "c3".into(), reveal: Some("R".into()) }],
            from_ply: 0,
            clocks: Some(Clocks { remaining_ms: [300_000, 299_000], running: Some(Seat::Second) }),
            players: [
                PlayerView {
                    name: Some("a".into()),
                    connected: true,
                    rating: Some(ShownRating { rating: 1612, provisional: false }),
                },
                PlayerView::default(),
            ],
            you: Some(Seat::First),
            status: Status::Playing,
            watchers: 2,
            draw_offer: None,
            takeback_offer: Some(Seat::Second),
            chat: vec![ChatLine {
                room: ChatRoom::Players,
                seat: Some(Seat::First),
                name: "a".into(),
                body: ChatBody::Quick { code: QuickMessage::GoodLuck },
                unix_ms: 1,
            }],
            deal: None,
            tournament: Some("t1".into()),
        };
        let server = [
            ServerMessage::Welcome { version: VERSION, account: Some("Ann".into()) },
            ServerMessage::State { view },
            ServerMessage::Refused {
                game: "g".into(),
                ply: 2,
                reason: Refusal::WrongPly { expected: 1 },
            },
            ServerMessage::Ended {
                game: "g".into(),
                result: GameResult { winner: None, reason: EndReason::Agreement },
                deal: Some("*R...".into()),
            },
            ServerMessage::Error { code: ErrorCode::BadMessage, detail: "x".into() },
            ServerMessage::Refused {
                game: "g".into(),
                ply: 7,
                reason: Refusal::Illegal { reason: IllegalReason::LeavesKingInCheck },
            },
            ServerMessage::Ended {
                game: "g".into(),
                result: GameResult {
                    winner: Some(Seat::Second),
                    reason: EndReason::Rules { reason: RulesEnd::PerpetualCheck },
                },
                deal: None,
            },
            ServerMessage::TakebackOffered { game: "g".into(), by: Seat::Second },
            ServerMessage::TakebackDeclined { game: "g".into() },
            ServerMessage::Chat {
                game: "g".into(),
                line: ChatLine {
                    room: ChatRoom::Spectators,
                    seat: None,
                    name: "Cy".into(),
                    body: ChatBody::Text { text: "<b>go</b>".into() },
                    unix_ms: 5,
                },
            },
            ServerMessage::Lobby {
                update: LobbyUpdate {
                    reset: true,
                    challenges: vec![ChallengeRow {
                        game: "c".into(),
                        spec: spec.clone(),
                        seat: Seat::First,
                        name: "Ann".into(),
                        rating: Some(ShownRating { rating: 1500, provisional: true }),
                        created_unix_ms: 9,
                    }],
                    games: vec![LiveRow {
                        game: "l".into(),
                        spec: spec.clone(),
                        names: ["A".into(), "B".into()],
                        ratings: [None, Some(ShownRating { rating: 1800, provisional: false })],
                        watchers: 3,
                        position: "?".into(),
                        plies: 2,
                        last: Some("a1".into()),
                    }],
                    moved: vec![LivePosition {
                        game: "l".into(),
                        position: "?".into(),
                        plies: 3,
                        last: None,
                    }],
                    gone: vec!["x".into()],
                    waiting: Some(4),
                },
            },
        ];
        for message in server {
            assert_eq!(ServerMessage::parse(&message.to_json()), Ok(message));
        }
    }

    #[test]
    fn the_wire_form_is_plain_json_with_a_type() {
        let json =
            ClientMessage::Move { game: "abc".into(), ply: 0, text: "e2e4".into() }.to_json();
        assert_eq!(json, r#"{"type":"move","game":"abc","ply":0,"text":"e2e4"}"#);
        let parsed = ClientMessage::parse(r#"{"type":"hello","version":1,"name":" Ann "}"#);
        assert_eq!(parsed, Ok(ClientMessage::Hello { version: 1, name: " Ann ".into() }));
    }

    #[test]
    fn unknown_types_and_garbage_are_told_apart() {
        assert_eq!(
            ClientMessage::parse(r#"{"type":"teleport","to":"e8"}"#),
            Ok(ClientMessage::Unknown)
        );
        assert_eq!(ServerMessage::parse(r#"{"type":"confetti"}"#), Ok(ServerMessage::Unknown));
        for bad in [
            "",
            "{",
            "null",
            "[]",
            r#"{"type":"move"}"#,
            r#"{"ply":1}"#,
            r#"{"type":"move","game":"g","ply":-1,"text":"x"}"#,
        ] {
            assert!(ClientMessage::parse(bad).is_err(), "{bad}");
        }
    }

    /// The fuzzers' seeds are messages of this version: a seed the reader refuses would start
    /// the fuzzer outside the messages it is meant to explore.
    #[test]
    fn the_fuzz_seeds_are_messages_of_this_version() {
        let seeds = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/seeds");
        let mut read = 0;
        type Reader = fn(&str) -> Result<(), ParseError>;
        let readers: [(&str, Reader); 2] = [
            ("client_message", |text: &str| ClientMessage::parse(text).map(drop)),
            ("server_message", |text: &str| ServerMessage::parse(text).map(drop)),
        ];
        for (folder, parse) in readers {
            for entry in std::fs::read_dir(seeds.join(folder)).unwrap() {
                let path = entry.unwrap().path();
                let text = std::fs::read_to_string(&path).unwrap();
                assert_eq!(parse(&text), Ok(()), "{}", path.display());
                read += 1;
            }
        }
        assert!(read >= 20, "only {read} seeds");
    }

    #[test]
    fn a_spec_carries_its_rules_as_values_and_refuses_what_the_rules_do_not_take() {
        let plain = GameSpec::of(Variant::Chess);
        assert_eq!(
            serde_json::to_string(&plain).unwrap(),
            r#"{"rules":{"game":"chess","variant":"standard"}}"#
        );
        // Options left out take their defaults.
        assert_eq!(
            serde_json::from_str::<GameSpec>(r#"{"rules":{"game":"chess"}}"#).unwrap(),
            plain
        );
        let renju = GameSpec {
            rules: AnyRules::parse(Variant::Gomoku, "size=19,rule=renju,opening=soosorv8").unwrap(),
            clock: None,
            rated: false,
        };
        let json = serde_json::to_string(&renju).unwrap();
        assert_eq!(
            json,
            r#"{"rules":{"game":"gomoku","size":19,"rule":"renju","opening":"soosorv8"}}"#
        );
        assert_eq!(serde_json::from_str::<GameSpec>(&json).unwrap(), renju);
        let banqi = r#"{"rules":{"game":"banqi","ranks":"hongkong","chain":true,"draw":60}}"#;
        assert_eq!(
            serde_json::from_str::<GameSpec>(banqi).unwrap().rules,
            AnyRules::parse(Variant::Banqi, "ranks=hongkong,chain=on,draw=60").unwrap()
        );
        // What the rules' text reader refuses, the value's reader refuses too.
        for bad in [
            r#"{"rules":{"game":"gomoku","size":17}}"#,
            r#"{"rules":{"game":"gomoku","rule":"pente"}}"#,
            r#"{"rules":{"game":"banqi","draw":3}}"#,
            r#"{"rules":{"game":"xiangqi","natural_limit":5000}}"#,
            r#"{"rules":{"game":"chess","castling":"never"}}"#,
            r#"{"rules":{"game":"chess","variant":"crazyhouse"}}"#,
            r#"{"rules":{"game":"chess","chess960":true}}"#,
            r#"{"rules":{"game":"gomoku","size":20,"opening":"soosorv8"}}"#,
            r#"{"rules":{"game":"checkers"}}"#,
            r#"{"rules":"size=15"}"#,
            r#"{"variant":"chess"}"#,
        ] {
            assert!(serde_json::from_str::<GameSpec>(bad).is_err(), "{bad}");
        }
        // An error code of a newer version reads as "other".
        let error = ServerMessage::parse(r#"{"type":"error","code":"too_sleepy","detail":"z"}"#);
        assert_eq!(error, Ok(ServerMessage::Error { code: ErrorCode::Other, detail: "z".into() }));
    }

    #[test]
    fn the_rules_values_travel_by_name_and_old_results_still_read() {
        let act = ClientMessage::Act { game: "g".into(), action: GameAction::ClaimWin };
        assert_eq!(act.to_json(), r#"{"type":"act","game":"g","action":"claim_win"}"#);
        let refused = Refusal::Illegal { reason: IllegalReason::HorseLegBlocked };
        assert_eq!(
            serde_json::to_string(&refused).unwrap(),
            r#"{"kind":"illegal","reason":"horse_leg_blocked"}"#
        );
        let spec = GameSpec::of(Variant::Chess960);
        assert_eq!(spec.variant(), Variant::Chess960);
        assert_eq!(
            serde_json::to_string(&spec).unwrap(),
            r#"{"rules":{"game":"chess","variant":"chess960"}}"#
        );
        // A result as version 1 stored it, in English, and as version 2 writes it.
        for (stored, reason) in [
            (
                r#"{"winner":"first","reason":{"kind":"rules","detail":"checkmate"}}"#,
                RulesEnd::Checkmate,
            ),
            (
                r#"{"winner":null,"reason":{"kind":"rules","detail":"threefold repetition"}}"#,
                RulesEnd::Repetition,
            ),
            (
                r#"{"winner":null,"reason":{"kind":"rules","reason":"board_full"}}"#,
                RulesEnd::BoardFull,
            ),
        ] {
            let result: GameResult = serde_json::from_str(stored).unwrap();
            assert_eq!(result.reason, EndReason::Rules { reason }, "{stored}");
        }
        let bad = r#"{"winner":null,"reason":{"kind":"rules","detail":"boredom"}}"#;
        assert!(serde_json::from_str::<GameResult>(bad).is_err());
        // Every end reason's version-1 English reads back as itself.
        for (english, reason) in VERSION_1_RULES_ENDS {
            let old = format!(r#"{{"kind":"rules","detail":"{english}"}}"#);
            assert_eq!(
                serde_json::from_str::<EndReason>(&old).unwrap(),
                EndReason::Rules { reason }
            );
        }
        // The names a peer of this version knows: adding one (a variant, an end) changes what
        // an older page can read, so VERSION goes up with it.
        let names = |values: Vec<String>| values.join(" ");
        assert_eq!(
            names(Variant::ALL.iter().map(|v| serde_json::to_string(v).unwrap()).collect()),
            r#""chess" "chess960" "xiangqi" "banqi" "gomoku""#
        );
        let ends = VERSION_1_RULES_ENDS.map(|(_, reason)| serde_json::to_string(&reason).unwrap());
        assert_eq!(
            names(ends.to_vec()),
            concat!(
                r#""checkmate" "stalemate" "no_legal_moves" "no_pieces" "repetition" "#,
                r#""perpetual_check" "fifty_moves" "insufficient_material" "no_progress" "#,
                r#""five_in_a_row" "board_full""#
            )
        );
    }

    #[test]
    fn clocks_are_checked() {
        assert!(ClockSpec { base_secs: 180, increment_secs: 2 }.is_valid());
        assert!(!ClockSpec { base_secs: 0, increment_secs: 2 }.is_valid());
        assert!(!ClockSpec { base_secs: 60, increment_secs: 500 }.is_valid());
    }
}
