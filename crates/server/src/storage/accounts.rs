//! What the stores keep about accounts: the accounts (a username and its password's Argon2id
//! hash, never the password), their sessions (the hash of each session cookie, never the
//! cookie), a Glicko-2 rating per kind of game and its history after each rated game.
//!
//! A rated game's ratings change in the same commit as its result ([`Write::Finish`]), so a
//! result is never stored without its rating change nor counted twice, on any store; the
//! arithmetic is [`rate_finish`], shared by the stores.
//!
//! [`Write::Finish`]: super::Write::Finish

use qi_protocol::{EndReason, GameResult, GameSpec, Seat};

use super::StoredGame;
use crate::rating::{RatedGame, Rating, Score};

/// How long a session lasts after signing in (30 days).
pub const SESSION_LIFETIME_MS: u64 = 30 * 24 * 60 * 60 * 1000;

/// An account as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccountRecord {
    /// The [`username_key`](qi_protocol::username_key): unique.
    pub key: String,
    /// The username as registered.
    pub name: String,
    /// The password's Argon2id hash, as a PHC string (its salt and parameters in it).
    pub password_hash: String,
    /// When it was made (milliseconds since the Unix epoch).
    pub created_unix_ms: u64,
}

/// A signed-in browser.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionRecord {
    /// The [`hash_token`](crate::tokens::hash_token) of the session cookie's value.
    pub token_hash: String,
    /// The account's key.
    pub account: String,
    /// When it was made (milliseconds since the Unix epoch); it ends
    /// [`SESSION_LIFETIME_MS`] later.
    pub created_unix_ms: u64,
}

impl SessionRecord {
    /// Whether the session still holds at `now_unix_ms`.
    #[must_use]
    pub fn is_live(&self, now_unix_ms: u64) -> bool {
        now_unix_ms < self.created_unix_ms.saturating_add(SESSION_LIFETIME_MS)
    }
}

/// A signed-in player's first result on a puzzle (the puzzle page's; a later result on the
/// same puzzle is not kept). The puzzle rating is worked out from these (`crate::puzzles`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuzzleResultRecord {
    /// The account's key.
    pub account: String,
    /// The game (`chess`, `xiangqi`, `banqi`, `gomoku`).
    pub game: String,
    /// The puzzle's id.
    pub puzzle: String,
    /// The puzzle's rating when it was tried.
    pub rating: u16,
    /// Its deviation then.
    pub deviation: u16,
    /// Solved without help.
    pub solved: bool,
    /// When (milliseconds since the Unix epoch).
    pub unix_ms: u64,
}

/// An account's rating in one kind of game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatingRecord {
    /// The kind.
    pub kind: RatedGame,
    /// The rating as it was last changed (see [`Rating::at`] for now).
    pub rating: Rating,
    /// How many rated games it counts.
    pub games: u32,
}

impl RatingRecord {
    /// A kind never played.
    #[must_use]
    pub fn new(kind: RatedGame) -> RatingRecord {
        RatingRecord { kind, rating: Rating::default(), games: 0 }
    }
}

/// A rating after one rated game, for the profile's graph.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingStep {
    /// The kind.
    pub kind: RatedGame,
    /// The game.
    pub game: String,
    /// When it ended.
    pub unix_ms: u64,
    /// The rating after it.
    pub rating: f64,
    /// Its deviation.
    pub deviation: f64,
}

/// Everything a profile shows.
#[derive(Clone, Debug, PartialEq)]
pub struct ProfileData {
    /// The account.
    pub account: AccountRecord,
    /// Its ratings, kinds never played left out.
    pub ratings: Vec<RatingRecord>,
    /// Every rated game's step, oldest first.
    pub history: Vec<RatingStep>,
    /// Its latest finished games, newest first, each with when it ended.
    pub games: Vec<(StoredGame, u64)>,
}

/// The new ratings of a game's two accounts (first seat first) when the game that just ended
/// as `result` at `unix_ms` is rated: it was made rated, both seats are accounts (two
/// different ones) and it was not aborted. `current` is each seat's rating record before the
/// game (`None`: never played that kind).
#[must_use]
pub fn rate_finish(
    spec: &GameSpec,
    accounts: &[Option<String>; 2],
    result: &GameResult,
    unix_ms: u64,
    current: [Option<RatingRecord>; 2],
) -> Option<[RatingRecord; 2]> {
    let kind = rated_kind(spec, accounts, result)?;
    let [first, second] = current.map(|record| record.unwrap_or(RatingRecord::new(kind)));
    let score = match result.winner {
        Some(Seat::First) => Score::Win,
        Some(Seat::Second) => Score::Loss,
        None => Score::Draw,
    };
    let flipped = match score {
        Score::Win => Score::Loss,
        Score::Loss => Score::Win,
        Score::Draw => Score::Draw,
    };
    let next_first = first.rating.after(&second.rating, score, unix_ms);
    let next_second = second.rating.after(&first.rating, flipped, unix_ms);
    Some([
        RatingRecord { kind, rating: next_first, games: first.games + 1 },
        RatingRecord { kind, rating: next_second, games: second.games + 1 },
    ])
}

/// The kind a finished game is rated in, if it counts (see [`rate_finish`]).
#[must_use]
pub fn rated_kind(
    spec: &GameSpec,
    accounts: &[Option<String>; 2],
    result: &GameResult,
) -> Option<RatedGame> {
    let [Some(first), Some(second)] = accounts else { return None };
    if !spec.rated || first == second || result.reason == EndReason::Aborted {
        return None;
    }
    RatedGame::of_variant(spec.variant().name())
}

/// The profile's view of a store's data.
#[must_use]
pub fn profile_view(data: &ProfileData, now_unix_ms: u64) -> qi_protocol::ProfileView {
    use qi_protocol::{ProfileGame, ProfileRating, RatingPoint};
    let ratings = RatedGame::ALL
        .into_iter()
        .map(|kind| {
            let record = data
                .ratings
                .iter()
                .find(|record| record.kind == kind)
                .copied()
                .unwrap_or(RatingRecord::new(kind));
            let history = data
                .history
                .iter()
                .filter(|step| step.kind == kind)
                .map(|step| RatingPoint {
                    unix_ms: step.unix_ms,
                    rating: shown(&Rating {
                        rating: step.rating,
                        deviation: step.deviation,
                        ..Rating::default()
                    }),
                })
                .collect();
            ProfileRating { now: kind_rating(&record, now_unix_ms), history }
        })
        .collect();
    let games = data
        .games
        .iter()
        .filter_map(|(stored, ended_unix_ms)| {
            let game = &stored.game;
            let seat = [Seat::First, Seat::Second]
                .into_iter()
                .find(|seat| game.accounts[seat.index()].as_deref() == Some(&data.account.key))?;
            let other = seat.other().index();
            Some(ProfileGame {
                game: game.id.clone(),
                spec: game.spec.clone(),
                seat,
                opponent: game.names[other].clone().unwrap_or_default(),
                opponent_account: game.accounts[other].is_some(),
                result: stored.result.clone()?,
                ended_unix_ms: *ended_unix_ms,
                start: game.start.clone(),
                moves: stored.moves.iter().map(|mv| mv.text.clone()).collect(),
            })
        })
        .collect();
    qi_protocol::ProfileView {
        name: data.account.name.clone(),
        created_unix_ms: data.account.created_unix_ms,
        ratings,
        games,
    }
}

/// A rating as players see it.
#[must_use]
pub fn shown(rating: &Rating) -> qi_protocol::ShownRating {
    qi_protocol::ShownRating {
        rating: rating.rating.round().clamp(0.0, f64::from(u32::MAX)) as u32,
        provisional: rating.is_provisional(),
    }
}

/// One kind's rating as it stands at `now` (its deviation grown by inactivity).
#[must_use]
pub fn kind_rating(record: &RatingRecord, now_unix_ms: u64) -> qi_protocol::KindRating {
    qi_protocol::KindRating {
        kind: record.kind.name().to_owned(),
        rating: shown(&record.rating.at(now_unix_ms)),
        games: record.games,
    }
}

/// The signed-in account's own view: every kind, in profile order.
#[must_use]
pub fn account_view(
    account: &AccountRecord,
    ratings: &[RatingRecord],
    now_unix_ms: u64,
) -> qi_protocol::AccountView {
    let ratings = RatedGame::ALL
        .into_iter()
        .map(|kind| {
            let record = ratings
                .iter()
                .find(|record| record.kind == kind)
                .copied()
                .unwrap_or(RatingRecord::new(kind));
            kind_rating(&record, now_unix_ms)
        })
        .collect();
    qi_protocol::AccountView { name: account.name.clone(), ratings }
}

#[cfg(test)]
mod tests {
    use super::*;
    use qi_protocol::{AnyRules, Variant};

    fn spec(rated: bool) -> GameSpec {
        GameSpec { rules: AnyRules::of(Variant::Gomoku), clock: None, rated }
    }

    fn won(seat: Seat) -> GameResult {
        GameResult { winner: Some(seat), reason: EndReason::Resignation }
    }

    #[test]
    fn a_session_lasts_thirty_days() {
        let session =
            SessionRecord { token_hash: "t".into(), account: "a".into(), created_unix_ms: 1_000 };
        assert!(session.is_live(1_000));
        assert!(session.is_live(1_000 + SESSION_LIFETIME_MS - 1));
        assert!(!session.is_live(1_000 + SESSION_LIFETIME_MS), "expired");
        let far = SessionRecord { created_unix_ms: u64::MAX - 5, ..session };
        assert!(far.is_live(u64::MAX - 1), "no overflow");
    }

    #[test]
    fn only_rated_games_between_two_accounts_that_were_played_count() {
        let both = [Some("ann".to_owned()), Some("bo".to_owned())];
        let now = 1_000;
        let rated = rate_finish(&spec(true), &both, &won(Seat::First), now, [None, None]).unwrap();
        assert!(rated[0].rating.rating > 1500.0 && rated[1].rating.rating < 1500.0);
        assert_eq!((rated[0].games, rated[1].games), (1, 1));
        assert_eq!(rated[0].kind, RatedGame::Gomoku);
        assert!(rate_finish(&spec(false), &both, &won(Seat::First), now, [None, None]).is_none());
        let anonymous = [Some("ann".to_owned()), None];
        assert!(
            rate_finish(&spec(true), &anonymous, &won(Seat::First), now, [None, None]).is_none()
        );
        let same = [Some("ann".to_owned()), Some("ann".to_owned())];
        assert!(rate_finish(&spec(true), &same, &won(Seat::First), now, [None, None]).is_none());
        let aborted = GameResult { winner: None, reason: EndReason::Aborted };
        assert!(rate_finish(&spec(true), &both, &aborted, now, [None, None]).is_none());
        // A draw between equals moves nobody's rating, only their deviations.
        let draw = GameResult { winner: None, reason: EndReason::Agreement };
        let drawn = rate_finish(&spec(true), &both, &draw, now, [None, None]).unwrap();
        assert!((drawn[0].rating.rating - 1500.0).abs() < 1e-9);
        assert!(drawn[0].rating.deviation < 350.0);
    }
}
