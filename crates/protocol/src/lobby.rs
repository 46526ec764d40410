//! The lobby: the open challenges and the games being played, as a subscriber sees them, kept
//! live by [`LobbyUpdate`]s that carry only what changed among the rows it shows.

use serde::{Deserialize, Serialize};

use crate::{GameSpec, Seat};

/// How many open challenges a subscriber is shown at most (the newest first).
pub const LOBBY_MAX_CHALLENGES: usize = 40;
/// How many games being played a subscriber is shown at most.
pub const LOBBY_MAX_GAMES: usize = 8;

/// A game waiting for an opponent, open to anyone ([`crate::ClientMessage::Accept`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChallengeRow {
    /// The game id.
    pub game: String,
    /// What is played.
    pub spec: GameSpec,
    /// The creator's seat (the one who accepts takes the other).
    pub seat: Seat,
    /// The creator's display name (may be empty).
    pub name: String,
    /// When it was made (milliseconds since the Unix epoch).
    pub created_unix_ms: u64,
}

/// A game being played, for the lobby's "games now".
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LiveRow {
    /// The game id.
    pub game: String,
    /// What is played.
    pub spec: GameSpec,
    /// The players' names, first seat first.
    pub names: [String; 2],
    /// How many watch.
    pub watchers: u32,
    /// The position now, in the game's own format (banqi: every face-down piece unknown, as
    /// on the game page).
    pub position: String,
    /// How many moves were played.
    pub plies: u32,
    /// The last move, in the game's coordinates.
    #[serde(default)]
    pub last: Option<String>,
}

/// What changed in the lobby for one subscriber. The first update after subscribing (or
/// changing the filter) has `reset` set: the rows it carries replace everything.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LobbyUpdate {
    /// Forget every row first.
    #[serde(default)]
    pub reset: bool,
    /// Open challenges new or changed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub challenges: Vec<ChallengeRow>,
    /// Games being played, new or changed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub games: Vec<LiveRow>,
    /// Ids of rows (of either list) no longer shown.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub gone: Vec<String>,
    /// How many wait in quick pairing for the game the subscriber chose, when it changed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub waiting: Option<u32>,
}

impl LobbyUpdate {
    /// Whether it says nothing.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        !self.reset
            && self.challenges.is_empty()
            && self.games.is_empty()
            && self.gone.is_empty()
            && self.waiting.is_none()
    }
}
