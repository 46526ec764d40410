//! Tournaments as the server's HTTP API shows them (`/api/tournaments…`): the lobby's lists, a
//! tournament's page (settings, standings, games), and what a join sends.

pub use qi_tournament::Family;
pub use qi_tournament::spec::{Clock, Format, Spec};
use serde::{Deserialize, Serialize};

/// A tournament in a list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TournamentSummary {
    /// Its id (its short link is `/t/{id}`).
    pub id: String,
    /// Its name.
    pub name: String,
    /// Which game: `chess`, `xiangqi`, `banqi`, `gomoku`.
    pub game: String,
    /// `arena`, `swiss` or `round_robin`.
    pub format: String,
    /// When it starts (Unix seconds).
    pub starts_at: u64,
    /// `upcoming`, `running`, `finished`, `cancelled`.
    pub stage: String,
    /// How many take part (those who left or withdrew not counted).
    pub players: usize,
    /// The most it takes.
    pub max_players: u32,
    /// Whether its games count for ratings.
    pub rated: bool,
    /// Whether joining needs a password.
    pub private: bool,
    /// The games' clock.
    pub clock: Clock,
}

/// A member in a tournament's view.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemberView {
    /// The name shown.
    pub name: String,
    /// The rating they joined with.
    pub rating: i32,
}

/// A line of the standings, with the member's name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StandingView {
    /// The place.
    pub rank: usize,
    /// The member's name.
    pub name: String,
    /// Arena points, or half points.
    pub points: u32,
    /// Whether `points` counts halves.
    pub halves: bool,
    /// The tie-breaks, by short name, in quarter points.
    pub tiebreaks: Vec<(String, u64)>,
    /// The arena's performance.
    pub performance: Option<i32>,
    /// On fire (arena).
    pub on_fire: bool,
    /// Still playing.
    pub active: bool,
}

/// The lists of `GET /api/tournaments`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TournamentLists {
    /// Not started, soonest first.
    pub upcoming: Vec<TournamentSummary>,
    /// Under way.
    pub running: Vec<TournamentSummary>,
    /// Over (or cancelled), latest first.
    pub finished: Vec<TournamentSummary>,
}

/// The body of a join.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct JoinRequest {
    /// The tournament's password, if it has one.
    #[serde(default)]
    pub password: Option<String>,
}

/// A game in a tournament's view.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TournamentGameView {
    /// The game id (the online page opens it as `online/?game={id}`).
    pub id: String,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// The round, if the format has rounds.
    pub round: Option<u32>,
    /// The result once counted (as [`TournamentGame::result`]).
    pub result: Option<String>,
}

/// A tournament's page data.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TournamentView {
    /// The list's line.
    pub summary: TournamentSummary,
    /// The settings, the password left out.
    pub spec: Spec,
    /// Who joined.
    pub members: Vec<MemberView>,
    /// The standings.
    pub standings: Vec<StandingView>,
    /// Whether the reader is a member.
    pub joined: bool,
    /// Whether the reader is a member still playing (not withdrawn, not paused).
    #[serde(default)]
    pub active: bool,
    /// When it ends (an arena; Unix seconds).
    #[serde(default)]
    pub ends_at: Option<u64>,
    /// The round being played or last played (Swiss, round robin), and how many there are.
    #[serde(default)]
    pub round: Option<(u32, u32)>,
    /// The games going now.
    #[serde(default)]
    pub playing: Vec<TournamentGameView>,
    /// The latest games finished (at most [`FINISHED_SHOWN`]), newest first.
    #[serde(default)]
    pub finished: Vec<TournamentGameView>,
    /// The reader's game going now, if any: the page takes them to it.
    #[serde(default)]
    pub my_game: Option<String>,
}

/// How many finished games a tournament's view lists.
pub const FINISHED_SHOWN: usize = 50;
