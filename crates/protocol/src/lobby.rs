//! The lobby: the open challenges and the games being played, as a subscriber sees them, kept
//! live by [`LobbyUpdate`]s that carry only what changed among the rows it shows.

use serde::{Deserialize, Serialize};

use crate::{GameSpec, Seat, Variant};

/// The filters of the lobby's lists: every game (`None`), then each variant. A node shares the
/// top rows of each with the others.
pub const LOBBY_FILTERS: [Option<Variant>; 6] = [
    None,
    Some(Variant::Chess),
    Some(Variant::Chess960),
    Some(Variant::Xiangqi),
    Some(Variant::Banqi),
    Some(Variant::Gomoku),
];

/// How many open challenges a subscriber is shown at most (the newest first).
pub const LOBBY_MAX_CHALLENGES: usize = 40;
/// How many open challenges a subscriber may be sent: besides the newest
/// [`LOBBY_MAX_CHALLENGES`], rows it already has stay while they are among the newest this
/// many, so that a challenge pushed down by a newer one and back up when that one goes is not
/// sent again.
pub const LOBBY_KEEP_CHALLENGES: usize = 60;
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
    /// The creator's rating in the game's kind, when they are signed in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<crate::ShownRating>,
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
    /// The players' ratings in the game's kind, for those signed in.
    #[serde(default, skip_serializing_if = "no_ratings")]
    pub ratings: [Option<crate::ShownRating>; 2],
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

/// A game being played whose row changed only by its moves: the new position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LivePosition {
    /// The game id.
    pub game: String,
    /// As [`LiveRow::position`].
    pub position: String,
    /// As [`LiveRow::plies`].
    pub plies: u32,
    /// As [`LiveRow::last`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last: Option<String>,
}

impl LivePosition {
    /// Applies it to `row` (of the same game).
    pub fn apply(&self, row: &mut LiveRow) {
        row.position.clone_from(&self.position);
        row.plies = self.plies;
        row.last.clone_from(&self.last);
    }
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
    /// Games being played, new or changed (other than by their moves).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub games: Vec<LiveRow>,
    /// Games being played (already sent) whose moves changed: their positions.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub moved: Vec<LivePosition>,
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
            && self.moved.is_empty()
            && self.gone.is_empty()
            && self.waiting.is_none()
    }
}

fn no_ratings(ratings: &[Option<crate::ShownRating>; 2]) -> bool {
    ratings.iter().all(Option::is_none)
}
