//! Where games are kept: a small [`Storage`] trait with SQLite ([`SqliteStorage`]) and in-memory
//! ([`MemoryStorage`]) implementations, and the [`StorageHandle`] through which the async server
//! reaches it on a thread of its own.
//!
//! A game is its record (spec, start position, the hashes of its seat and invite tokens, names),
//! its moves (each with its ply, seat, wall time and both clocks after it) and its result.
//! Everything a game needs to go on after a crash is written before anyone is told of it.
//!
//! No token is stored, only its [`hash_token`](crate::tokens::hash_token): whoever reads the
//! database (a backup, a stolen copy) cannot take anyone's seat with what is in it.
//!
//! # Sweeping
//! Aborted games and games nobody ever played would pile up for ever; [`Storage::sweep`] (and
//! [`StorageHandle::sweep`]) deletes those that ended or were created before a cutoff.

/// The account methods of a test store that wraps another in `self.inner` and passes them on.
#[cfg(test)]
macro_rules! delegate_accounts {
    () => {
        fn register(
            &mut self,
            account: &$crate::storage::AccountRecord,
            session: &$crate::storage::SessionRecord,
        ) -> Result<bool, $crate::storage::StorageError> {
            self.inner.register(account, session)
        }
        fn account(
            &mut self,
            key: &str,
        ) -> Result<Option<$crate::storage::AccountRecord>, $crate::storage::StorageError> {
            self.inner.account(key)
        }
        fn account_named_like(
            &mut self,
            skeleton: &str,
        ) -> Result<Option<String>, $crate::storage::StorageError> {
            self.inner.account_named_like(skeleton)
        }
        fn session(
            &mut self,
            token_hash: &str,
        ) -> Result<
            Option<($crate::storage::SessionRecord, $crate::storage::AccountRecord)>,
            $crate::storage::StorageError,
        > {
            self.inner.session(token_hash)
        }
        fn ratings(
            &mut self,
            account: &str,
        ) -> Result<Vec<$crate::storage::RatingRecord>, $crate::storage::StorageError> {
            self.inner.ratings(account)
        }
        fn profile(
            &mut self,
            account: &str,
            max_games: usize,
        ) -> Result<Option<$crate::storage::ProfileData>, $crate::storage::StorageError> {
            self.inner.profile(account, max_games)
        }
        fn puzzle_results(
            &mut self,
            account: &str,
        ) -> Result<Vec<$crate::storage::PuzzleResultRecord>, $crate::storage::StorageError> {
            self.inner.puzzle_results(account)
        }
        fn tournament(
            &mut self,
            id: &str,
        ) -> Result<Option<$crate::storage::TournamentRecord>, $crate::storage::StorageError> {
            self.inner.tournament(id)
        }
        fn tournaments(
            &mut self,
            limit: usize,
        ) -> Result<Vec<$crate::storage::TournamentRecord>, $crate::storage::StorageError> {
            self.inner.tournaments(limit)
        }
        fn tournaments_created(
            &mut self,
            creator: &str,
            since_unix_ms: u64,
        ) -> Result<Vec<$crate::storage::TournamentRecord>, $crate::storage::StorageError> {
            self.inner.tournaments_created(creator, since_unix_ms)
        }
        fn game_progress(
            &mut self,
            ids: &[String],
        ) -> Result<Vec<$crate::storage::GameProgress>, $crate::storage::StorageError> {
            self.inner.game_progress(ids)
        }
    };
}
#[cfg(test)]
pub(crate) use delegate_accounts;

mod accounts;
mod files;
mod memory;
mod postgres;
mod sqlite;
mod thread;

use qi_protocol::{AnyRules, ChatLine, GameResult, GameSpec, Seat, Variant};

pub use accounts::{
    AccountRecord, ProfileData, PuzzleResultRecord, RatingRecord, RatingStep, SESSION_LIFETIME_MS,
    SessionRecord, account_view, kind_rating, profile_view, rate_finish, rated_kind, shown,
};
pub use files::{private_dir, private_file};
pub use memory::MemoryStorage;
pub use postgres::PgStorage;
pub(crate) use postgres::{
    connect as postgres_connect, load_game as postgres_load, pg_error as postgres_error,
};
pub use sqlite::SqliteStorage;
pub use thread::StorageHandle;

/// What kind of failure a [`StorageError`] is: what the caller can do about it differs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StorageErrorKind {
    /// The write or read failed (a broken constraint, a damaged row, the disk): trying the same
    /// thing again fails the same way.
    Failed,
    /// The store cannot be reached now (the database server is down or restarting): the same
    /// request may succeed in a moment.
    Unavailable,
    /// The game's lease moved to another node ([`Write::Fence`] did not match): this node must
    /// stop acting for the game; nothing was written.
    Fenced,
}

/// Storage failed (the disk, the database); the text says how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StorageError {
    /// What kind of failure.
    pub kind: StorageErrorKind,
    /// How, in words.
    pub detail: String,
}

impl StorageError {
    /// A [`StorageErrorKind::Failed`] error.
    #[must_use]
    pub fn new(detail: impl Into<String>) -> StorageError {
        StorageError { kind: StorageErrorKind::Failed, detail: detail.into() }
    }

    /// A [`StorageErrorKind::Unavailable`] error.
    #[must_use]
    pub fn unavailable(detail: impl Into<String>) -> StorageError {
        StorageError { kind: StorageErrorKind::Unavailable, detail: detail.into() }
    }

    /// A [`StorageErrorKind::Fenced`] error.
    #[must_use]
    pub fn fenced(detail: impl Into<String>) -> StorageError {
        StorageError { kind: StorageErrorKind::Fenced, detail: detail.into() }
    }
}

impl std::fmt::Display for StorageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "storage: {}", self.detail)
    }
}

impl std::error::Error for StorageError {}

/// A count of milliseconds as SQL stores it, in a signed 64-bit integer (values past
/// `i64::MAX` do not occur).
pub(crate) fn sql_int(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// A stored count of milliseconds back (a negative one, which no server writes, as 0).
pub(crate) fn from_sql_int(n: i64) -> u64 {
    u64::try_from(n).unwrap_or(0)
}

/// The chat lines of stored `texts` that read: a line that does not (damaged, or written by a
/// newer server with a quick message this one does not know) is left out and logged, never the
/// reason a game cannot be loaded.
pub(crate) fn readable_chat(game: &str, texts: impl IntoIterator<Item = String>) -> Vec<ChatLine> {
    texts
        .into_iter()
        .filter_map(|text| match serde_json::from_str(&text) {
            Ok(line) => Some(line),
            Err(error) => {
                tracing::warn!(game, %error, "a stored chat line does not read; left out");
                None
            }
        })
        .collect()
}

/// A game's rules from its row: the variant's name and the rule options as a `key=value,...`
/// list, the text forms storage keeps (as records do), read back into a value.
///
/// # Errors
/// What in them does not read.
pub(crate) fn stored_rules(variant: &str, list: &str) -> Result<AnyRules, String> {
    let variant = Variant::parse(variant).map_err(|e| e.to_string())?;
    AnyRules::parse(variant, list).map_err(|e| e.to_string())
}

/// A game as created.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The game id.
    pub id: String,
    /// What is played.
    pub spec: GameSpec,
    /// The real start position (banqi: the whole deal, which clients never see until the end).
    pub start: String,
    /// The [`hash_token`](crate::tokens::hash_token) of the invite for the free seat (of a
    /// random token nobody has when no seat is free).
    pub invite_hash: String,
    /// The [`hash_token`](crate::tokens::hash_token) of each seat's token, first seat first (a
    /// free seat's is of a random token nobody has: its token is made when the seat is taken).
    pub token_hashes: [String; 2],
    /// The players' names; `Some` once the seat is taken.
    pub names: [Option<String>; 2],
    /// The players' accounts (their keys), for those signed in when they took their seat.
    pub accounts: [Option<String>; 2],
    /// When it was created (milliseconds since the Unix epoch).
    pub created_unix_ms: u64,
    /// The game this one is a rematch of.
    pub rematch_of: Option<String>,
    /// Whether the game is shown in the lobby: an open challenge while a seat is free, then
    /// among the games being played. Games made by invitation alone are not.
    pub listed: bool,
    /// The tournament it is played in, if any: such a game is never swept, cannot be aborted
    /// by its players, and its result goes to the tournament.
    pub tournament: Option<String>,
}

/// How a game stands, as a tournament's driver needs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameProgress {
    /// The game id.
    pub id: String,
    /// Its result, once over.
    pub result: Option<GameResult>,
    /// How many moves were played.
    pub plies: u32,
    /// Whether each side has made a move (a game ended before is a forfeit).
    pub both_moved: bool,
    /// When it was created (milliseconds since the Unix epoch).
    pub created_unix_ms: u64,
    /// When its last move was played, if any.
    pub last_move_unix_ms: Option<u64>,
}

/// One move as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRecord {
    /// Which ply (0 is the first move).
    pub ply: u32,
    /// Who played it.
    pub seat: Seat,
    /// The move in canonical coordinates.
    pub text: String,
    /// When it was played (milliseconds since the Unix epoch).
    pub unix_ms: u64,
    /// Both clocks right after it, if the game has a clock.
    pub remaining_ms: Option<[u64; 2]>,
}

/// Everything stored about one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredGame {
    /// The record.
    pub game: GameRecord,
    /// The moves in order.
    pub moves: Vec<MoveRecord>,
    /// How it ended, if it has.
    pub result: Option<GameResult>,
    /// The clocks when it ended, if it has a clock and has ended.
    pub final_clocks: Option<[u64; 2]>,
    /// Its chat, both rooms, oldest first.
    pub chat: Vec<ChatLine>,
}

/// A tournament as kept: its whole state as one JSON document (a
/// [`qi_tournament::event::Tournament`]), and the columns lists sort and filter by.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentRecord {
    /// Its id.
    pub id: String,
    /// The account that created it.
    pub creator: String,
    /// `upcoming`, `running`, `finished` or `cancelled`.
    pub stage: String,
    /// When it starts (Unix seconds).
    pub starts_at: u64,
    /// When it was created (milliseconds since the Unix epoch).
    pub created_unix_ms: u64,
    /// 1 when created, one more at each change.
    pub version: u64,
    /// The tournament, as JSON.
    pub document: String,
}

/// Whether `record` lists before `other` in [`Storage::tournaments`]: the unfinished first,
/// soonest start first; then the finished, latest start first.
pub(crate) fn tournament_order(record: &TournamentRecord) -> (bool, i128) {
    let done = matches!(record.stage.as_str(), "finished" | "cancelled");
    let start = i128::from(record.starts_at);
    (done, if done { -start } else { start })
}

/// One change to the stored games.
// A new game's record is the largest by far; writes live briefly in small batches, so it is not
// boxed.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Write {
    /// A new game.
    Create(GameRecord),
    /// A player took the free seat.
    TakeSeat {
        /// The game id.
        game: String,
        /// The seat.
        seat: Seat,
        /// The player's name.
        name: String,
        /// The player's account key, when signed in.
        account: Option<String>,
        /// The [`hash_token`](crate::tokens::hash_token) of the seat's new token.
        token_hash: String,
    },
    /// A move was played.
    Move {
        /// The game id.
        game: String,
        /// The move.
        mv: MoveRecord,
    },
    /// The game ended.
    Finish {
        /// The game id.
        game: String,
        /// How.
        result: GameResult,
        /// The clocks at the end, if any.
        clocks: Option<[u64; 2]>,
        /// When (milliseconds since the Unix epoch).
        unix_ms: u64,
    },
    /// A line of chat.
    Chat {
        /// The game id.
        game: String,
        /// The line.
        line: ChatLine,
    },
    /// Moves taken back: only the first `plies` moves are kept.
    Takeback {
        /// The game id.
        game: String,
        /// How many moves remain.
        plies: u32,
    },
    /// The clocks stored with a move set anew (after a takeback, to what they are now).
    Clocks {
        /// The game id.
        game: String,
        /// The move.
        ply: u32,
        /// Both clocks.
        remaining_ms: [u64; 2],
    },
    /// A browser signed in.
    Session(SessionRecord),
    /// A browser signed out.
    EndSession {
        /// The session's token hash.
        token_hash: String,
    },
    /// Every session of an account ends ("log out everywhere", and a password change).
    EndSessions {
        /// The account key.
        account: String,
    },
    /// A new password.
    Password {
        /// The account key.
        account: String,
        /// Its Argon2id hash.
        password_hash: String,
    },
    /// A puzzle's result for an account; ignored when the account has one for that puzzle
    /// already (the first result is the one that counts).
    PuzzleResult(PuzzleResultRecord),
    /// A tournament, whole: created at version 1 (refused if its id is taken), then each change
    /// replaces version `version - 1`; if the stored one is not that (another request changed
    /// it meanwhile), the whole batch fails with [`StorageErrorKind::Fenced`] and the writer
    /// reads it again.
    Tournament(TournamentRecord),
    /// The rest of the batch is written only if game `game` is still held under `token`, its
    /// lease's fencing token (several nodes: see [`crate::cluster`]); else the whole batch fails
    /// with [`StorageErrorKind::Fenced`]. Stores with one writer (memory, SQLite) have nothing to
    /// check.
    Fence {
        /// The game id.
        game: String,
        /// The fencing token the writer holds.
        token: u64,
    },
}

/// A place to keep games. Implementations must make a write durable before `write` returns.
pub trait Storage: Send + 'static {
    /// Applies `writes` all together or not at all, durably.
    ///
    /// # Errors
    /// [`StorageError`]; nothing was written then.
    fn write(&mut self, writes: &[Write]) -> Result<(), StorageError>;

    /// One game, if stored.
    ///
    /// # Errors
    /// [`StorageError`].
    fn load(&mut self, game: &str) -> Result<Option<StoredGame>, StorageError>;

    /// Every game without a result, to resume after a restart. An implementation may leave out
    /// games whose clock cannot be running (no clock, or a seat still free): only games with a
    /// running clock are resumed at start.
    ///
    /// # Errors
    /// [`StorageError`].
    fn unfinished(&mut self) -> Result<Vec<StoredGame>, StorageError>;

    /// Deletes, with their moves, the games that ended [`Aborted`](qi_protocol::EndReason::Aborted)
    /// before `cutoff_unix_ms` and the games never started (no move, no result) created before
    /// it, except those whose id is in `keep`; returns how many were deleted. Sessions that had
    /// expired by the cutoff (made [`SESSION_LIFETIME_MS`] before it) go too.
    ///
    /// `keep` is meant to be every game loaded in memory, listed while no game can be loaded (so
    /// that no game is deleted under a task that still writes to it). The cutoff is meant to be
    /// at least [`INVITE_EXPIRY_MS`] ago, so that no invitation is deleted before it could have
    /// expired; a link to a deleted game finds no game.
    ///
    /// [`INVITE_EXPIRY_MS`]: crate::hub::INVITE_EXPIRY_MS
    ///
    /// # Errors
    /// [`StorageError`]; nothing was deleted then.
    fn sweep(&mut self, cutoff_unix_ms: u64, keep: &[String]) -> Result<usize, StorageError>;

    /// Makes an account and its first session together, unless its key or its look-alike
    /// skeleton ([`crate::names::name_skeleton`] of its name) is taken: then returns `false`
    /// and writes nothing. Both are unique in the store, so two registrations racing for one
    /// name (or two names that look alike) make one account.
    ///
    /// # Errors
    /// [`StorageError`]; nothing was written then.
    fn register(
        &mut self,
        account: &AccountRecord,
        session: &SessionRecord,
    ) -> Result<bool, StorageError>;

    /// The account with this key, if any.
    ///
    /// # Errors
    /// [`StorageError`].
    fn account(&mut self, key: &str) -> Result<Option<AccountRecord>, StorageError>;

    /// The name of the account whose name has this look-alike skeleton
    /// ([`crate::names::name_skeleton`]), if any.
    ///
    /// # Errors
    /// [`StorageError`].
    fn account_named_like(&mut self, skeleton: &str) -> Result<Option<String>, StorageError>;

    /// The session with this token hash and its account, if stored (live or not: the caller
    /// checks [`SessionRecord::is_live`]).
    ///
    /// # Errors
    /// [`StorageError`].
    fn session(
        &mut self,
        token_hash: &str,
    ) -> Result<Option<(SessionRecord, AccountRecord)>, StorageError>;

    /// An account's ratings (kinds never played left out).
    ///
    /// # Errors
    /// [`StorageError`].
    fn ratings(&mut self, account: &str) -> Result<Vec<RatingRecord>, StorageError>;

    /// An account's puzzle results, oldest first.
    ///
    /// # Errors
    /// [`StorageError`].
    fn puzzle_results(&mut self, account: &str) -> Result<Vec<PuzzleResultRecord>, StorageError>;

    /// A tournament, if there is one with that id.
    ///
    /// # Errors
    /// [`StorageError`].
    fn tournament(&mut self, id: &str) -> Result<Option<TournamentRecord>, StorageError>;

    /// Tournaments for the lobby: every upcoming and running one, soonest first, then the
    /// latest finished (or cancelled); `limit` in all.
    ///
    /// # Errors
    /// [`StorageError`].
    fn tournaments(&mut self, limit: usize) -> Result<Vec<TournamentRecord>, StorageError>;

    /// How each of these games stands (a tournament's driver asks about its games going); a
    /// game not stored is left out.
    ///
    /// # Errors
    /// [`StorageError`].
    fn game_progress(&mut self, ids: &[String]) -> Result<Vec<GameProgress>, StorageError>;

    /// The tournaments `creator` created since `since_unix_ms` (for the limits on creating).
    ///
    /// # Errors
    /// [`StorageError`].
    fn tournaments_created(
        &mut self,
        creator: &str,
        since_unix_ms: u64,
    ) -> Result<Vec<TournamentRecord>, StorageError>;

    /// An account's profile with its latest `max_games` finished games, if the account exists.
    ///
    /// # Errors
    /// [`StorageError`].
    fn profile(
        &mut self,
        account: &str,
        max_games: usize,
    ) -> Result<Option<ProfileData>, StorageError>;
}

/// Milliseconds since the Unix epoch, for records (never for clocks).
#[must_use]
pub fn unix_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// What every [`Storage`] must do, as checks that each implementation's tests run on it.
#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use qi_protocol::{ChatBody, ChatRoom, ClockSpec, EndReason, QuickMessage};

    fn chat_line(text: &str) -> ChatLine {
        ChatLine {
            room: ChatRoom::Players,
            seat: Some(Seat::First),
            name: "Ann".into(),
            body: ChatBody::Text { text: text.into() },
            unix_ms: 8,
        }
    }

    /// e2e4 with the clocks as they stand after a takeback of the move that followed it.
    fn e2e4_after_takeback() -> MoveRecord {
        MoveRecord { remaining_ms: Some([59_000, 58_000]), ..e2e4() }
    }

    fn record(id: &str, created_unix_ms: u64, second: Option<&str>) -> GameRecord {
        GameRecord {
            id: id.into(),
            spec: GameSpec::of(Variant::Gomoku),
            start: String::new(),
            invite_hash: "i".into(),
            token_hashes: ["a".into(), "b".into()],
            names: [Some("Ann".into()), second.map(Into::into)],
            accounts: [None, None],
            created_unix_ms,
            rematch_of: None,
            listed: false,
            tournament: None,
        }
    }

    pub(crate) fn first_move(game: &str) -> Write {
        let mv = MoveRecord {
            ply: 0,
            seat: Seat::First,
            text: "h8".into(),
            unix_ms: 0,
            remaining_ms: None,
        };
        Write::Move { game: game.into(), mv }
    }

    /// The second seat's reply to [`first_move`].
    pub(crate) fn second_move(game: &str) -> Write {
        let mv = MoveRecord {
            ply: 1,
            seat: Seat::Second,
            text: "a1".into(),
            unix_ms: 0,
            remaining_ms: None,
        };
        Write::Move { game: game.into(), mv }
    }

    fn finish(game: &str, reason: EndReason, unix_ms: u64) -> Write {
        let result = GameResult { winner: None, reason };
        Write::Finish { game: game.into(), result, clocks: None, unix_ms }
    }

    /// A chess game with a clock, the second seat free.
    fn clocked_record(id: &str) -> GameRecord {
        GameRecord {
            id: id.into(),
            spec: GameSpec {
                rules: AnyRules::of(Variant::Chess),
                clock: Some(ClockSpec { base_secs: 60, increment_secs: 1 }),
                rated: false,
            },
            start: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into(),
            invite_hash: "inv".into(),
            token_hashes: ["t1".into(), "t2".into()],
            names: [Some("Ann".into()), None],
            accounts: [None, None],
            created_unix_ms: 5,
            rematch_of: None,
            listed: false,
            tournament: None,
        }
    }

    fn e2e4() -> MoveRecord {
        MoveRecord {
            ply: 0,
            seat: Seat::First,
            text: "e2e4".into(),
            unix_ms: 7,
            remaining_ms: Some([60_000, 60_000]),
        }
    }

    /// Writes games g1 (seat taken, a move) and g2 (finished), and checks that a batch with a
    /// write that fails (a ply played twice) leaves nothing behind; then
    /// [`check_read_back`] must hold.
    pub(crate) fn write_read_back_games(storage: &mut impl Storage) {
        storage
            .write(&[
                Write::Create(clocked_record("g1")),
                Write::TakeSeat {
                    game: "g1".into(),
                    seat: Seat::Second,
                    name: "Bo".into(),
                    account: None,
                    token_hash: "t3".into(),
                },
                Write::Move { game: "g1".into(), mv: e2e4() },
            ])
            .unwrap();
        // A reply, then taken back, with the clocks as they stand stored on the move kept; chat
        // in both rooms, in order.
        let reply = MoveRecord {
            ply: 1,
            seat: Seat::Second,
            text: "e7e5".into(),
            unix_ms: 8,
            remaining_ms: Some([60_000, 58_000]),
        };
        let spectator = ChatLine {
            room: ChatRoom::Spectators,
            seat: None,
            name: String::new(),
            body: ChatBody::Quick { code: QuickMessage::GoodLuck },
            unix_ms: 9,
        };
        storage
            .write(&[
                Write::Chat { game: "g1".into(), line: chat_line("hi <b>") },
                Write::Move { game: "g1".into(), mv: reply },
                Write::Chat { game: "g1".into(), line: spectator },
            ])
            .unwrap();
        storage
            .write(&[
                Write::Takeback { game: "g1".into(), plies: 1 },
                Write::Clocks { game: "g1".into(), ply: 0, remaining_ms: [59_000, 58_000] },
            ])
            .unwrap();
        storage.write(&[Write::Create(clocked_record("g2"))]).unwrap();
        // A duplicate ply is refused and the whole batch with it.
        let again = Write::Move { game: "g1".into(), mv: e2e4() };
        assert!(storage.write(&[Write::Create(clocked_record("g3")), again]).is_err());
        assert_eq!(storage.load("g3").unwrap(), None);
        let finish = Write::Finish {
            game: "g2".into(),
            result: resignation(),
            clocks: Some([1, 2]),
            unix_ms: 9,
        };
        storage.write(&[finish]).unwrap();
        check_read_back(storage);
    }

    fn resignation() -> GameResult {
        GameResult { winner: Some(Seat::Second), reason: EndReason::Resignation }
    }

    /// What [`write_read_back_games`] wrote reads back whole (also after a restart, for
    /// stores that outlive the process).
    pub(crate) fn check_read_back(storage: &mut impl Storage) {
        let g1 = storage.load("g1").unwrap().unwrap();
        assert_eq!(g1.game.names, [Some("Ann".into()), Some("Bo".into())]);
        assert_eq!(g1.game.token_hashes, ["t1".to_owned(), "t3".to_owned()]);
        assert_eq!(g1.game.spec, clocked_record("g1").spec);
        assert_eq!(g1.game.start, clocked_record("g1").start);
        assert_eq!(g1.moves, vec![e2e4_after_takeback()]);
        assert_eq!(g1.result, None);
        assert_eq!(g1.chat.len(), 2);
        assert_eq!(g1.chat[0], chat_line("hi <b>"));
        assert_eq!(g1.chat[1].room, ChatRoom::Spectators);
        let g2 = storage.load("g2").unwrap().unwrap();
        assert_eq!((g2.result, g2.final_clocks), (Some(resignation()), Some([1, 2])));
        assert_eq!(storage.load("g3").unwrap(), None);
        let unfinished: Vec<String> =
            storage.unfinished().unwrap().into_iter().map(|g| g.game.id).collect();
        assert_eq!(unfinished, vec!["g1".to_owned()]);
    }

    fn account(key: &str, name: &str) -> AccountRecord {
        AccountRecord {
            key: key.into(),
            name: name.into(),
            password_hash: format!("hash of {name}"),
            created_unix_ms: 3,
        }
    }

    fn session(token_hash: &str, account: &str) -> SessionRecord {
        SessionRecord { token_hash: token_hash.into(), account: account.into(), created_unix_ms: 4 }
    }

    /// A rated gomoku game between the accounts `first` and `second`, both seats taken.
    pub(crate) fn rated_game(id: &str, first: &str, second: &str, rated: bool) -> GameRecord {
        GameRecord {
            id: id.into(),
            spec: GameSpec { rules: AnyRules::of(Variant::Gomoku), clock: None, rated },
            start: String::new(),
            invite_hash: "i".into(),
            token_hashes: ["a".into(), "b".into()],
            names: [Some(first.into()), Some(second.into())],
            accounts: [Some(first.to_lowercase()), None],
            created_unix_ms: 10,
            rematch_of: None,
            listed: true,
            tournament: None,
        }
    }

    /// Accounts, sessions and ratings: a name taken once whatever its case (the key); sessions
    /// made and ended one or all at once; a new password; a rated game's result rates both
    /// accounts in the same commit, an aborted or casual one nobody; the profile lists the
    /// finished games newest first with the ratings' history.
    pub(crate) fn check_accounts(storage: &mut impl Storage) {
        assert!(storage.register(&account("ann", "Ann"), &session("s1", "ann")).unwrap());
        assert!(!storage.register(&account("ann", "ANN"), &session("s9", "ann")).unwrap());
        assert!(storage.register(&account("bo", "Bo"), &session("s2", "bo")).unwrap());
        // Look-alikes are one name: "роре" is all Cyrillic, "pοpe" has a Greek ο.
        assert!(storage.register(&account("pope", "pope"), &session("s5", "pope")).unwrap());
        for look_alike in ["роре", "pοpe"] {
            let refused =
                storage.register(&account(look_alike, look_alike), &session("s6", look_alike));
            assert!(!refused.unwrap(), "{look_alike}");
        }
        assert!(storage.session("s6").unwrap().is_none(), "a refused registration wrote nothing");
        for (name, like) in [("PОPE", Some("pope")), ("ANN", Some("Ann")), ("Cy", None)] {
            let skeleton = crate::names::name_skeleton(name);
            assert_eq!(storage.account_named_like(&skeleton).unwrap().as_deref(), like, "{name}");
        }
        assert_eq!(storage.account("ann").unwrap().unwrap().name, "Ann");
        assert!(storage.account("cy").unwrap().is_none());
        // Puzzle results: the first on each puzzle is kept, in order; another account's apart.
        let puzzle = |account: &str, game: &str, id: &str, solved: bool| {
            Write::PuzzleResult(PuzzleResultRecord {
                account: account.into(),
                game: game.into(),
                puzzle: id.into(),
                rating: 1600,
                deviation: 80,
                solved,
                unix_ms: 5,
            })
        };
        storage.write(&[puzzle("ann", "chess", "00sHx", true)]).unwrap();
        storage
            .write(&[
                puzzle("ann", "chess", "00sHx", false),
                puzzle("ann", "gomoku", "00sHx", false),
            ])
            .unwrap();
        storage.write(&[puzzle("bo", "xiangqi", "x1", true)]).unwrap();
        let kept = storage.puzzle_results("ann").unwrap();
        assert_eq!(
            kept.iter().map(|r| (r.game.as_str(), r.solved)).collect::<Vec<_>>(),
            [("chess", true), ("gomoku", false)]
        );
        assert_eq!(kept[0].rating, 1600);
        assert_eq!(storage.puzzle_results("bo").unwrap().len(), 1);
        assert!(storage.puzzle_results("cy").unwrap().is_empty());
        assert!(storage.write(&[puzzle("nobody", "chess", "a", true)]).is_err(), "no such account");
        let (found, owner) = storage.session("s1").unwrap().unwrap();
        assert_eq!((found.account.as_str(), owner.name.as_str()), ("ann", "Ann"));
        assert!(storage.session("s9").unwrap().is_none(), "a refused registration wrote nothing");
        storage.write(&[Write::Session(session("s3", "ann"))]).unwrap();
        storage.write(&[Write::EndSession { token_hash: "s1".into() }]).unwrap();
        assert!(storage.session("s1").unwrap().is_none());
        assert!(storage.session("s3").unwrap().is_some());
        storage
            .write(&[
                Write::Password { account: "ann".into(), password_hash: "new".into() },
                Write::EndSessions { account: "ann".into() },
            ])
            .unwrap();
        assert!(storage.session("s3").unwrap().is_none(), "logged out everywhere");
        assert!(storage.session("s2").unwrap().is_some(), "another account's session stays");
        // A session expired before a sweep's cutoff is deleted by the sweep; a live one stays.
        let old = SessionRecord { created_unix_ms: 1, ..session("s-old", "bo") };
        storage.write(&[Write::Session(old)]).unwrap();
        storage.sweep(SESSION_LIFETIME_MS + 2, &[]).unwrap();
        assert!(storage.session("s-old").unwrap().is_none());
        assert!(storage.session("s2").unwrap().is_some());
        assert_eq!(storage.account("ann").unwrap().unwrap().password_hash, "new");
        // A session for no account is refused, with its batch.
        assert!(storage.write(&[Write::Session(session("s4", "nobody"))]).is_err());

        // Three games: rated and won by Ann, rated and aborted, casual and won by Bo.
        for (id, rated) in [("r1", true), ("r2", true), ("c1", false)] {
            storage
                .write(&[
                    Write::Create(rated_game(id, "Ann", "Bo", rated)),
                    Write::TakeSeat {
                        game: id.into(),
                        seat: Seat::Second,
                        name: "Bo".into(),
                        account: Some("bo".into()),
                        token_hash: "b2".into(),
                    },
                    // Both sides move: a game where one never did is not rated.
                    first_move(id),
                    second_move(id),
                ])
                .unwrap();
        }
        let won = |seat| GameResult { winner: Some(seat), reason: EndReason::Resignation };
        let finish = |game: &str, result, unix_ms| Write::Finish {
            game: game.into(),
            result,
            clocks: None,
            unix_ms,
        };
        storage.write(&[finish("r1", won(Seat::First), 1_000)]).unwrap();
        storage
            .write(&[finish("r2", GameResult { winner: None, reason: EndReason::Aborted }, 2_000)])
            .unwrap();
        storage.write(&[finish("c1", won(Seat::Second), 3_000)]).unwrap();
        // A result written again (a retried write) rates nobody a second time.
        storage.write(&[finish("r1", won(Seat::First), 1_000)]).unwrap();
        let ann = storage.ratings("ann").unwrap();
        let bo = storage.ratings("bo").unwrap();
        assert_eq!((ann.len(), bo.len()), (1, 1), "one kind played");
        assert_eq!((ann[0].games, bo[0].games), (1, 1), "the aborted and casual games count not");
        assert!(ann[0].rating.rating > 1600.0 && bo[0].rating.rating < 1400.0);
        assert_eq!(ann[0].rating.updated_unix_ms, 1_000);
        assert!(storage.ratings("cy").unwrap().is_empty());

        let profile = storage.profile("ann", 10).unwrap().unwrap();
        assert_eq!(profile.account.name, "Ann");
        let ids: Vec<&str> = profile.games.iter().map(|(g, _)| g.game.id.as_str()).collect();
        assert_eq!(ids, ["c1", "r2", "r1"], "newest first");
        assert_eq!(profile.games[2].1, 1_000);
        assert_eq!(profile.history.len(), 1);
        assert_eq!(profile.history[0].game, "r1");
        assert!((profile.history[0].rating - ann[0].rating.rating).abs() < 1e-9);
        assert_eq!(storage.profile("ann", 1).unwrap().unwrap().games.len(), 1);
        assert!(storage.profile("cy", 10).unwrap().is_none());
        // The game's accounts read back with it.
        let r1 = storage.load("r1").unwrap().unwrap();
        assert_eq!(r1.game.accounts, [Some("ann".into()), Some("bo".into())]);
        assert!(r1.game.spec.rated);
    }

    /// Sweeps at 1,000 ms a store holding one game of each kind; checks what is left.
    pub(crate) fn check_sweep(storage: &mut impl Storage) {
        // Id, created, both seats taken, a move played, ended how and when.
        let aborted = |at: u64| Some((EndReason::Aborted, at));
        let games = [
            // Deleted: aborted before the cutoff (with a move or not), never started before it.
            ("aborted-old", 100, true, false, aborted(999)),
            ("aborted-moved", 100, true, true, aborted(999)),
            ("waiting-old", 100, false, false, None),
            ("paired-old", 100, true, false, None),
            // Kept: in memory, aborted at the cutoff, ended otherwise, started, new.
            ("aborted-loaded", 100, true, true, aborted(999)),
            ("waiting-loaded", 100, false, false, None),
            ("aborted-new", 100, true, false, aborted(1_000)),
            ("resigned-old", 100, true, true, Some((EndReason::Resignation, 999))),
            ("playing-old", 100, true, true, None),
            ("waiting-new", 1_000, false, false, None),
        ];
        let mut writes = Vec::new();
        for (id, created, paired, moved, end) in games.clone() {
            writes.push(Write::Create(record(id, created, paired.then_some("Bo"))));
            if moved {
                writes.push(first_move(id));
                writes.push(Write::Chat { game: id.into(), line: chat_line("gl") });
            }
            if let Some((reason, at)) = end {
                writes.push(finish(id, reason, at));
            }
        }
        storage.write(&writes).unwrap();
        let keep = ["aborted-loaded".to_owned(), "waiting-loaded".to_owned()];
        assert_eq!(storage.sweep(1_000, &keep).unwrap(), 4);
        for (id, ..) in games {
            let gone = ["aborted-old", "aborted-moved", "waiting-old", "paired-old"].contains(&id);
            assert_eq!(storage.load(id).unwrap().is_none(), gone, "{id}");
        }
        assert_eq!(storage.sweep(1_000, &keep).unwrap(), 0, "nothing more to sweep");
        // A game made again under a swept id has none of the old one's moves.
        storage.write(&[Write::Create(record("aborted-moved", 2_000, None))]).unwrap();
        let again = storage.load("aborted-moved").unwrap().unwrap();
        assert_eq!((again.moves, again.chat), (vec![], vec![]));
        storage.write(&[first_move("aborted-moved")]).unwrap();
    }

    fn tournament(id: &str, stage: &str, starts_at: u64, version: u64) -> TournamentRecord {
        TournamentRecord {
            id: id.into(),
            creator: "acc-a".into(),
            stage: stage.into(),
            starts_at,
            created_unix_ms: 1_000 * starts_at,
            version,
            document: format!("{{\"v\":{version}}}"),
        }
    }

    /// Tournaments: created once, each change replacing the version before it (a stale writer
    /// is refused and writes nothing), listed unfinished-soonest then finished-latest.
    pub(crate) fn check_tournaments(storage: &mut impl Storage) {
        storage.write(&[Write::Tournament(tournament("t-late", "upcoming", 300, 1))]).unwrap();
        storage.write(&[Write::Tournament(tournament("t-soon", "upcoming", 200, 1))]).unwrap();
        storage.write(&[Write::Tournament(tournament("t-old", "finished", 100, 1))]).unwrap();
        storage.write(&[Write::Tournament(tournament("t-older", "cancelled", 50, 1))]).unwrap();
        let twice = storage.write(&[Write::Tournament(tournament("t-soon", "upcoming", 200, 1))]);
        assert_eq!(twice.unwrap_err().kind, StorageErrorKind::Failed, "an id is taken once");
        storage.write(&[Write::Tournament(tournament("t-soon", "running", 200, 2))]).unwrap();
        // A writer who read version 1 is too late; nothing of its batch is written.
        let stale = storage.write(&[
            Write::Tournament(tournament("t-late", "running", 300, 2)),
            Write::Tournament(tournament("t-soon", "finished", 200, 2)),
        ]);
        assert_eq!(stale.unwrap_err().kind, StorageErrorKind::Fenced);
        assert_eq!(storage.tournament("t-late").unwrap().unwrap().version, 1);
        let soon = storage.tournament("t-soon").unwrap().unwrap();
        assert_eq!(
            (soon.stage.as_str(), soon.version, soon.document.as_str()),
            ("running", 2, "{\"v\":2}")
        );
        assert_eq!(storage.tournament("nope").unwrap(), None);
        let ids: Vec<String> = storage.tournaments(10).unwrap().into_iter().map(|t| t.id).collect();
        assert_eq!(ids, ["t-soon", "t-late", "t-old", "t-older"]);
        assert_eq!(storage.tournaments(2).unwrap().len(), 2);
        let mine = storage.tournaments_created("acc-a", 150_000).unwrap();
        assert_eq!(mine.len(), 2);
        assert!(storage.tournaments_created("acc-b", 0).unwrap().is_empty());
    }

    /// Tournament games: how each stands ([`Storage::game_progress`]), never swept, and one
    /// where a side never moved (a forfeit) unrated.
    pub(crate) fn check_tournament_games(storage: &mut impl Storage) {
        assert!(storage.register(&account("ta", "TA"), &session("s-ta", "ta")).unwrap());
        assert!(storage.register(&account("tb", "TB"), &session("s-tb", "tb")).unwrap());
        let game = |id: &str| GameRecord {
            accounts: [Some("ta".into()), Some("tb".into())],
            tournament: Some("t".into()),
            created_unix_ms: 100,
            ..rated_game(id, "TA", "TB", true)
        };
        let won = |game: &str| Write::Finish {
            game: game.into(),
            result: GameResult { winner: Some(Seat::First), reason: EndReason::Abandoned },
            clocks: None,
            unix_ms: 999,
        };
        storage
            .write(&[
                Write::Create(game("tg-forfeit")),
                first_move("tg-forfeit"),
                won("tg-forfeit"),
                Write::Create(game("tg-waiting")),
                Write::Create(game("tg-aborted")),
                finish("tg-aborted", EndReason::Aborted, 999),
            ])
            .unwrap();
        assert!(storage.ratings("ta").unwrap().is_empty(), "a forfeit is not rated");
        storage
            .write(&[
                Write::Create(game("tg-played")),
                first_move("tg-played"),
                second_move("tg-played"),
                won("tg-played"),
            ])
            .unwrap();
        assert_eq!(storage.ratings("ta").unwrap().len(), 1, "a game played is");
        let ids = ["tg-forfeit", "tg-waiting", "tg-played", "nope"].map(String::from);
        let mut progress = storage.game_progress(&ids).unwrap();
        progress.sort_by(|a, b| a.id.cmp(&b.id));
        let seen: Vec<_> = progress
            .iter()
            .map(|p| (p.id.as_str(), p.result.as_ref().map(|r| r.winner), p.plies, p.both_moved))
            .collect();
        assert!(progress.iter().all(|p| p.created_unix_ms == 100));
        let last: Vec<_> = progress.iter().map(|p| p.last_move_unix_ms).collect();
        assert_eq!(last, [Some(0), Some(0), None], "the moves' times (0 in these records)");
        assert_eq!(
            seen,
            [
                ("tg-forfeit", Some(Some(Seat::First)), 1, false),
                ("tg-played", Some(Some(Seat::First)), 2, true),
                ("tg-waiting", None, 0, false),
            ]
        );
        assert_eq!(storage.sweep(1_000, &[]).unwrap(), 0, "a tournament's games are kept");
        assert!(storage.load("tg-waiting").unwrap().is_some());
    }

    #[test]
    fn memory_storage_sweeps() {
        check_sweep(&mut MemoryStorage::new());
        check_accounts(&mut MemoryStorage::new());
        check_tournaments(&mut MemoryStorage::new());
        check_tournament_games(&mut MemoryStorage::new());
    }

    #[test]
    fn memory_storage_reads_back_and_writes_all_or_nothing() {
        write_read_back_games(&mut MemoryStorage::new());
    }
}
