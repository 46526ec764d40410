//! Games in PostgreSQL, for several `qi-server` nodes sharing one store (see [`crate::cluster`]).
//!
//! The [`Storage`] trait is blocking, and its calls come from the storage thread (which does
//! group commit); [`PgStorage`] keeps a single-threaded Tokio runtime of its own on that thread to
//! drive `tokio-postgres`. A lost connection is opened again on the next call; while the
//! database cannot be reached, calls fail with [`StorageErrorKind::Unavailable`] and nothing is
//! written, so a move waits (the player is told to try again) rather than being lost.
//!
//! # Schema
//! [`SCHEMA_STEPS`] are applied in order at start, each in one transaction together with the new
//! version in `qi_schema`, under a transaction-level advisory lock so that nodes starting
//! together migrate once. Beside the games and moves of the SQLite store there are the lease
//! columns `games.owner` and `games.fence` and the table `qi_nodes`, which [`crate::cluster`]
//! uses.
//!
//! [`StorageErrorKind::Unavailable`]: super::StorageErrorKind::Unavailable

use qi_protocol::{AnyRules, ChatLine, ClockSpec, GameResult, GameSpec, Seat, Variant};
use std::time::Duration;

use tokio_postgres::{Client, NoTls, Row, Transaction};

use super::{
    AccountRecord, GameProgress, GameRecord, MoveRecord, ProfileData, PuzzleResultRecord,
    RatingRecord, RatingStep, SessionRecord, Storage, StorageError, StoredGame, TournamentRecord,
    Write, from_sql_int, rate_finish, rated_kind, sql_int, stored_rules,
};
use crate::names::name_skeleton;
use crate::rating::RatedGame;

/// How long connecting to the database may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(3);
/// How long one storage call may take before it counts as the database not answering.
const CALL_TIMEOUT: Duration = Duration::from_secs(10);

/// The advisory lock under which the schema is migrated (any number, the same on every node).
const MIGRATION_LOCK: i64 = 0x7169_5f73_6368;

/// The schema, one step a version (step `i` brings version `i` to `i + 1`).
pub(crate) const SCHEMA_STEPS: &[&str] = &[
    "
CREATE TABLE qi_nodes (
    num SERIAL PRIMARY KEY,
    name TEXT NOT NULL,
    started_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    heartbeat_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    dead BOOLEAN NOT NULL DEFAULT false
);
CREATE TABLE games (
    id TEXT PRIMARY KEY,
    variant TEXT NOT NULL,
    rules TEXT NOT NULL,
    clock_base_secs INTEGER,
    clock_increment_secs INTEGER,
    start TEXT NOT NULL,
    invite_hash TEXT NOT NULL,
    token_first_hash TEXT NOT NULL,
    token_second_hash TEXT NOT NULL,
    name_first TEXT,
    name_second TEXT,
    created_unix_ms BIGINT NOT NULL,
    rematch_of TEXT,
    result TEXT,
    final_first_ms BIGINT,
    final_second_ms BIGINT,
    ended_unix_ms BIGINT,
    owner INTEGER,
    fence BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX games_unfinished_owner ON games (owner) WHERE result IS NULL;
CREATE INDEX games_created ON games (created_unix_ms);
CREATE INDEX games_ended ON games (ended_unix_ms);
CREATE TABLE moves (
    game TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply INTEGER NOT NULL,
    seat SMALLINT NOT NULL,
    text TEXT NOT NULL,
    unix_ms BIGINT NOT NULL,
    remaining_first_ms BIGINT,
    remaining_second_ms BIGINT,
    PRIMARY KEY (game, ply)
);
",
    "
ALTER TABLE games ADD COLUMN listed BOOLEAN NOT NULL DEFAULT false;
CREATE TABLE chat (
    id BIGSERIAL PRIMARY KEY,
    game TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    line TEXT NOT NULL
);
CREATE INDEX chat_game ON chat (game, id);
",
    "
ALTER TABLE games ADD COLUMN rated BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE games ADD COLUMN account_first TEXT;
ALTER TABLE games ADD COLUMN account_second TEXT;
CREATE INDEX games_account_first ON games (account_first, ended_unix_ms)
    WHERE account_first IS NOT NULL;
CREATE INDEX games_account_second ON games (account_second, ended_unix_ms)
    WHERE account_second IS NOT NULL;
CREATE TABLE accounts (
    key TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    password_hash TEXT NOT NULL,
    created_unix_ms BIGINT NOT NULL
);
CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    account TEXT NOT NULL REFERENCES accounts (key),
    created_unix_ms BIGINT NOT NULL
);
CREATE INDEX sessions_account ON sessions (account);
CREATE TABLE ratings (
    account TEXT NOT NULL REFERENCES accounts (key),
    kind TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    updated_unix_ms BIGINT NOT NULL,
    games INTEGER NOT NULL,
    PRIMARY KEY (account, kind)
);
CREATE TABLE rating_history (
    id BIGSERIAL PRIMARY KEY,
    account TEXT NOT NULL REFERENCES accounts (key),
    kind TEXT NOT NULL,
    game TEXT NOT NULL,
    unix_ms BIGINT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL
);
CREATE INDEX rating_history_account ON rating_history (account, id);
",
    // Each account's look-alike skeleton, unique; filled in by `fill_skeletons`.
    "
ALTER TABLE accounts ADD COLUMN skeleton TEXT;
CREATE UNIQUE INDEX accounts_skeleton ON accounts (skeleton);
",
    // The puzzle results of accounts (the first result on each puzzle).
    "
CREATE TABLE puzzle_results (
    id BIGSERIAL PRIMARY KEY,
    account TEXT NOT NULL REFERENCES accounts (key),
    game TEXT NOT NULL,
    puzzle TEXT NOT NULL,
    rating INTEGER NOT NULL,
    deviation INTEGER NOT NULL,
    solved BOOLEAN NOT NULL,
    unix_ms BIGINT NOT NULL,
    UNIQUE (account, game, puzzle)
);
",
    // Tournaments, each kept whole as one JSON document with a version.
    "
CREATE TABLE tournaments (
    id TEXT PRIMARY KEY,
    creator TEXT NOT NULL,
    stage TEXT NOT NULL,
    starts_at BIGINT NOT NULL,
    created_unix_ms BIGINT NOT NULL,
    version BIGINT NOT NULL,
    document TEXT NOT NULL
);
CREATE INDEX tournaments_by_stage ON tournaments (stage, starts_at);
CREATE INDEX tournaments_by_creator ON tournaments (creator, created_unix_ms);
",
    // The tournament a game is played in (its games are never swept).
    "
ALTER TABLE games ADD COLUMN tournament TEXT;
CREATE INDEX games_by_tournament ON games (tournament) WHERE tournament IS NOT NULL;
",
];

/// The columns [`tournament_row`] reads, in its order.
const TOURNAMENT_COLUMNS: &str =
    "id, creator, stage, starts_at, created_unix_ms, version, document";

fn tournament_row(row: &tokio_postgres::Row) -> TournamentRecord {
    TournamentRecord {
        id: row.get(0),
        creator: row.get(1),
        stage: row.get(2),
        starts_at: from_sql_int(row.get(3)),
        created_unix_ms: from_sql_int(row.get(4)),
        version: from_sql_int(row.get(5)),
        document: row.get(6),
    }
}

/// The columns [`game_row`] reads, in its order.
pub(crate) const GAME_COLUMNS: &str = "id, variant, rules, clock_base_secs, clock_increment_secs,
    start, invite_hash, token_first_hash, token_second_hash, name_first, name_second,
    created_unix_ms, rematch_of, result, final_first_ms, final_second_ms, listed, rated,
    account_first, account_second, tournament";

/// A database error as a [`StorageError`]: a connection that is closed or cannot be made is
/// [`Unavailable`](super::StorageErrorKind::Unavailable), anything else failed.
pub(crate) fn pg_error(e: &tokio_postgres::Error) -> StorageError {
    // The connection broke (closed, or an I/O error under it); a server-side timeout
    // (statement_timeout, lock_timeout: SQLSTATE 57014, 55P03) or a server going down
    // (class 57P) is the database not answering now too.
    let io = std::error::Error::source(e).is_some_and(|source| source.is::<std::io::Error>());
    let busy = e.code().is_some_and(|code| {
        let code = code.code();
        code == "57014" || code == "55P03" || code.starts_with("57P") || code.starts_with("08")
    });
    if e.is_closed() || io || busy {
        StorageError::unavailable(format!("the database cannot be reached: {e}"))
    } else {
        StorageError::new(e.to_string())
    }
}

fn seat_number(seat: Seat) -> i16 {
    match seat {
        Seat::First => 0,
        Seat::Second => 1,
    }
}

/// Connects to `url`, driving the connection on the current runtime.
///
/// # Errors
/// [`StorageError`] (unavailable) when the server cannot be reached or refuses us.
pub(crate) async fn connect(url: &str) -> Result<Client, StorageError> {
    let mut config: tokio_postgres::Config =
        url.parse().map_err(|e| StorageError::new(format!("the database URL: {e}")))?;
    // A database that does not answer is noticed in seconds, not in the OS's minutes: at
    // connecting, on an idle connection (keepalives), and in a transaction left open by a
    // node that froze or died in the middle of it (its locks would hold up the takeover).
    if config.get_connect_timeout().is_none() {
        config.connect_timeout(CONNECT_TIMEOUT);
    }
    config.keepalives(true).keepalives_idle(Duration::from_secs(5));
    config.options(
        "-c idle_in_transaction_session_timeout=1000 -c lock_timeout=2000 \
         -c statement_timeout=10000",
    );
    let connecting = config.connect(NoTls);
    let (client, connection) = tokio::time::timeout(CONNECT_TIMEOUT, connecting)
        .await
        .map_err(|_| StorageError::unavailable("the database did not answer within 3 s"))?
        .map_err(|e| StorageError::unavailable(format!("cannot connect to the database: {e}")))?;
    tokio::spawn(async move {
        if let Err(e) = connection.await {
            tracing::warn!(error = %e, "the database connection closed");
        }
    });
    Ok(client)
}

/// The step of [`SCHEMA_STEPS`] that adds the accounts' skeletons.
const SKELETON_STEP: usize = 3;

/// Fills in the skeleton of each account there was before [`SKELETON_STEP`], oldest first; one
/// that looks like an older one keeps its name but has none (logged).
async fn fill_skeletons(tx: &Transaction<'_>) -> Result<(), tokio_postgres::Error> {
    let rows =
        tx.query("SELECT key, name FROM accounts ORDER BY created_unix_ms, key", &[]).await?;
    let mut taken = std::collections::HashSet::new();
    for row in rows {
        let (key, name): (String, String) = (row.get(0), row.get(1));
        let skeleton = name_skeleton(&name);
        if taken.insert(skeleton.clone()) {
            tx.execute("UPDATE accounts SET skeleton = $2 WHERE key = $1", &[&key, &skeleton])
                .await?;
        } else {
            tracing::warn!(account = %key, "an account's name looks like an older one's");
        }
    }
    Ok(())
}

/// Brings the database's schema up to date (idempotent; safe with several nodes starting).
///
/// # Errors
/// [`StorageError`]; a database newer than this server is refused.
pub(crate) async fn migrate(client: &mut Client) -> Result<(), StorageError> {
    let err = |e: tokio_postgres::Error| pg_error(&e);
    let tx = client.transaction().await.map_err(err)?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK]).await.map_err(err)?;
    tx.batch_execute("CREATE TABLE IF NOT EXISTS qi_schema (version INTEGER NOT NULL)")
        .await
        .map_err(err)?;
    let version: Option<i32> = tx
        .query_opt("SELECT version FROM qi_schema", &[])
        .await
        .map_err(err)?
        .map(|row| row.get(0));
    let current = usize::try_from(version.unwrap_or(0)).unwrap_or(usize::MAX);
    if current > SCHEMA_STEPS.len() {
        return Err(StorageError::new(format!(
            "the database has schema version {current}, newer than this server's {}",
            SCHEMA_STEPS.len()
        )));
    }
    for step in &SCHEMA_STEPS[current..] {
        tx.batch_execute(step).await.map_err(err)?;
    }
    if current < SKELETON_STEP + 1 {
        fill_skeletons(&tx).await.map_err(err)?;
    }
    let latest = i32::try_from(SCHEMA_STEPS.len()).unwrap_or(i32::MAX);
    if version.is_none() {
        tx.execute("INSERT INTO qi_schema (version) VALUES ($1)", &[&latest]).await.map_err(err)?;
    } else {
        tx.execute("UPDATE qi_schema SET version = $1", &[&latest]).await.map_err(err)?;
    }
    tx.commit().await.map_err(err)
}

/// A game row (without its moves), from the columns of [`GAME_COLUMNS`].
pub(crate) fn game_row(row: &Row) -> Result<StoredGame, StorageError> {
    let get_err = |e: tokio_postgres::Error| StorageError::new(format!("a damaged game row: {e}"));
    let base: Option<i32> = row.try_get(3).map_err(get_err)?;
    let increment: Option<i32> = row.try_get(4).map_err(get_err)?;
    let result: Option<String> = row.try_get(13).map_err(get_err)?;
    // A stored result that does not read would make a finished game resume as if unfinished.
    let result = match result {
        Some(text) => Some(
            serde_json::from_str::<GameResult>(&text)
                .map_err(|e| StorageError::new(format!("a damaged result: {e}")))?,
        ),
        None => None,
    };
    let final_first: Option<i64> = row.try_get(14).map_err(get_err)?;
    let final_second: Option<i64> = row.try_get(15).map_err(get_err)?;
    let clock = base.zip(increment).map(|(base, increment)| ClockSpec {
        base_secs: u32::try_from(base).unwrap_or(0),
        increment_secs: u32::try_from(increment).unwrap_or(0),
    });
    let game = GameRecord {
        id: row.try_get(0).map_err(get_err)?,
        spec: GameSpec {
            rules: stored_rules(row.try_get(1).map_err(get_err)?, row.try_get(2).map_err(get_err)?)
                .map_err(|e| StorageError::new(format!("a damaged game row: {e}")))?,
            clock,
            rated: row.try_get(17).map_err(get_err)?,
        },
        start: row.try_get(5).map_err(get_err)?,
        invite_hash: row.try_get(6).map_err(get_err)?,
        token_hashes: [row.try_get(7).map_err(get_err)?, row.try_get(8).map_err(get_err)?],
        names: [row.try_get(9).map_err(get_err)?, row.try_get(10).map_err(get_err)?],
        created_unix_ms: from_sql_int(row.try_get(11).map_err(get_err)?),
        rematch_of: row.try_get(12).map_err(get_err)?,
        listed: row.try_get(16).map_err(get_err)?,
        accounts: [row.try_get(18).map_err(get_err)?, row.try_get(19).map_err(get_err)?],
        tournament: row.try_get(20).map_err(get_err)?,
    };
    Ok(StoredGame {
        game,
        moves: Vec::new(),
        result,
        final_clocks: final_first
            .zip(final_second)
            .map(|(a, b)| [from_sql_int(a), from_sql_int(b)]),
        chat: Vec::new(),
    })
}

/// The moves of `game`, in order.
pub(crate) async fn moves_of(
    client: &impl tokio_postgres::GenericClient,
    game: &str,
) -> Result<Vec<MoveRecord>, StorageError> {
    let rows = client
        .query(
            "SELECT ply, seat, text, unix_ms, remaining_first_ms, remaining_second_ms
             FROM moves WHERE game = $1 ORDER BY ply",
            &[&game],
        )
        .await
        .map_err(|e| pg_error(&e))?;
    Ok(rows
        .iter()
        .map(|row| {
            let first: Option<i64> = row.get(4);
            let second: Option<i64> = row.get(5);
            MoveRecord {
                ply: u32::try_from(row.get::<_, i32>(0)).unwrap_or(u32::MAX),
                seat: if row.get::<_, i16>(1) == 0 { Seat::First } else { Seat::Second },
                text: row.get(2),
                unix_ms: from_sql_int(row.get(3)),
                remaining_ms: first.zip(second).map(|(a, b)| [from_sql_int(a), from_sql_int(b)]),
            }
        })
        .collect())
}

/// The chat of `game`, oldest first.
pub(crate) async fn chat_of(
    client: &impl tokio_postgres::GenericClient,
    game: &str,
) -> Result<Vec<ChatLine>, StorageError> {
    let rows = client
        .query("SELECT line FROM chat WHERE game = $1 ORDER BY id", &[&game])
        .await
        .map_err(|e| pg_error(&e))?;
    Ok(super::readable_chat(game, rows.iter().map(|row| row.get::<_, String>(0))))
}

/// One game with its moves, if stored.
pub(crate) async fn load_game(
    client: &impl tokio_postgres::GenericClient,
    game: &str,
) -> Result<Option<StoredGame>, StorageError> {
    let sql = format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1");
    let Some(row) = client.query_opt(&sql, &[&game]).await.map_err(|e| pg_error(&e))? else {
        return Ok(None);
    };
    let mut stored = game_row(&row)?;
    stored.moves = moves_of(client, game).await?;
    stored.chat = chat_of(client, game).await?;
    Ok(Some(stored))
}

/// Applies one write within `tx`.
async fn apply(tx: &Transaction<'_>, write: &Write) -> Result<(), StorageError> {
    let err = |e: tokio_postgres::Error| pg_error(&e);
    match write {
        Write::Create(g) => {
            let clock = g.spec.clock;
            let base = clock.map(|c| i32::try_from(c.base_secs).unwrap_or(i32::MAX));
            let increment = clock.map(|c| i32::try_from(c.increment_secs).unwrap_or(i32::MAX));
            tx.execute(
                "INSERT INTO games (id, variant, rules, clock_base_secs, clock_increment_secs,
                 start, invite_hash, token_first_hash, token_second_hash, name_first,
                 name_second, created_unix_ms, rematch_of, listed, rated, account_first,
                 account_second, tournament)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16,
                 $17, $18)",
                &[
                    &g.id,
                    &g.spec.variant().name(),
                    &g.spec.rules.to_list(),
                    &base,
                    &increment,
                    &g.start,
                    &g.invite_hash,
                    &g.token_hashes[0],
                    &g.token_hashes[1],
                    &g.names[0],
                    &g.names[1],
                    &sql_int(g.created_unix_ms),
                    &g.rematch_of,
                    &g.listed,
                    &g.spec.rated,
                    &g.accounts[0],
                    &g.accounts[1],
                    &g.tournament,
                ],
            )
            .await
            .map_err(err)?;
        }
        Write::TakeSeat { game, seat, name, account, token_hash } => {
            let sql = match seat {
                Seat::First => {
                    "UPDATE games SET name_first = $2, token_first_hash = $3, account_first = $4
                     WHERE id = $1"
                }
                Seat::Second => {
                    "UPDATE games SET name_second = $2, token_second_hash = $3,
                     account_second = $4 WHERE id = $1"
                }
            };
            let changed = tx.execute(sql, &[game, name, token_hash, account]).await.map_err(err)?;
            if changed != 1 {
                return Err(StorageError::new(format!("no game {game}")));
            }
        }
        Write::Move { game, mv } => {
            let ply = i32::try_from(mv.ply).unwrap_or(i32::MAX);
            tx.execute(
                "INSERT INTO moves (game, ply, seat, text, unix_ms, remaining_first_ms,
                 remaining_second_ms) VALUES ($1, $2, $3, $4, $5, $6, $7)",
                &[
                    game,
                    &ply,
                    &seat_number(mv.seat),
                    &mv.text,
                    &sql_int(mv.unix_ms),
                    &mv.remaining_ms.map(|r| sql_int(r[0])),
                    &mv.remaining_ms.map(|r| sql_int(r[1])),
                ],
            )
            .await
            .map_err(err)?;
        }
        Write::Finish { game, result: result_value, clocks, unix_ms } => {
            let result = serde_json::to_string(result_value).unwrap_or_default();
            // A game is rated once, when it first gets its result.
            let had_result: bool = tx
                .query_opt("SELECT result IS NOT NULL FROM games WHERE id = $1", &[game])
                .await
                .map_err(err)?
                .is_none_or(|row| row.get(0));
            let changed = tx
                .execute(
                    "UPDATE games SET result = $2, final_first_ms = $3, final_second_ms = $4,
                     ended_unix_ms = $5 WHERE id = $1",
                    &[
                        game,
                        &result,
                        &clocks.map(|c| sql_int(c[0])),
                        &clocks.map(|c| sql_int(c[1])),
                        &sql_int(*unix_ms),
                    ],
                )
                .await
                .map_err(err)?;
            if changed != 1 {
                return Err(StorageError::new(format!("no game {game}")));
            }
            if !had_result {
                rate_in(tx, game, result_value, *unix_ms).await?;
            }
        }
        Write::Chat { game, line } => {
            let line = serde_json::to_string(line).unwrap_or_default();
            tx.execute("INSERT INTO chat (game, line) VALUES ($1, $2)", &[game, &line])
                .await
                .map_err(err)?;
        }
        Write::Takeback { game, plies } => {
            let plies = i32::try_from(*plies).unwrap_or(i32::MAX);
            tx.execute("DELETE FROM moves WHERE game = $1 AND ply >= $2", &[game, &plies])
                .await
                .map_err(err)?;
        }
        Write::Clocks { game, ply, remaining_ms } => {
            let ply = i32::try_from(*ply).unwrap_or(i32::MAX);
            tx.execute(
                "UPDATE moves SET remaining_first_ms = $3, remaining_second_ms = $4
                 WHERE game = $1 AND ply = $2",
                &[game, &ply, &sql_int(remaining_ms[0]), &sql_int(remaining_ms[1])],
            )
            .await
            .map_err(err)?;
        }
        Write::Session(session) => {
            tx.execute(
                "INSERT INTO sessions (token_hash, account, created_unix_ms) VALUES ($1, $2, $3)",
                &[&session.token_hash, &session.account, &sql_int(session.created_unix_ms)],
            )
            .await
            .map_err(err)?;
        }
        Write::EndSession { token_hash } => {
            tx.execute("DELETE FROM sessions WHERE token_hash = $1", &[token_hash])
                .await
                .map_err(err)?;
        }
        Write::EndSessions { account } => {
            tx.execute("DELETE FROM sessions WHERE account = $1", &[account]).await.map_err(err)?;
        }
        Write::Password { account, password_hash } => {
            let changed = tx
                .execute(
                    "UPDATE accounts SET password_hash = $2 WHERE key = $1",
                    &[account, password_hash],
                )
                .await
                .map_err(err)?;
            if changed != 1 {
                return Err(StorageError::new(format!("no account {account}")));
            }
        }
        Write::PuzzleResult(result) => {
            tx.execute(
                "INSERT INTO puzzle_results
                 (account, game, puzzle, rating, deviation, solved, unix_ms)
                 VALUES ($1, $2, $3, $4, $5, $6, $7)
                 ON CONFLICT (account, game, puzzle) DO NOTHING",
                &[
                    &result.account,
                    &result.game,
                    &result.puzzle,
                    &i32::from(result.rating),
                    &i32::from(result.deviation),
                    &result.solved,
                    &sql_int(result.unix_ms),
                ],
            )
            .await
            .map_err(err)?;
        }
        Write::Tournament(record) => {
            let changed = if record.version == 1 {
                tx.execute(
                    "INSERT INTO tournaments
                     (id, creator, stage, starts_at, created_unix_ms, version, document)
                     VALUES ($1, $2, $3, $4, $5, 1, $6) ON CONFLICT (id) DO NOTHING",
                    &[
                        &record.id,
                        &record.creator,
                        &record.stage,
                        &sql_int(record.starts_at),
                        &sql_int(record.created_unix_ms),
                        &record.document,
                    ],
                )
                .await
                .map_err(err)?
            } else {
                tx.execute(
                    "UPDATE tournaments SET stage = $2, starts_at = $3, version = $4::BIGINT,
                     document = $5 WHERE id = $1 AND version = $4::BIGINT - 1",
                    &[
                        &record.id,
                        &record.stage,
                        &sql_int(record.starts_at),
                        &sql_int(record.version),
                        &record.document,
                    ],
                )
                .await
                .map_err(err)?
            };
            if changed == 0 && record.version == 1 {
                return Err(StorageError::new(format!("tournament {} exists", record.id)));
            }
            if changed == 0 {
                return Err(StorageError::fenced(format!(
                    "tournament {} changed meanwhile",
                    record.id
                )));
            }
        }
        Write::Fence { game, token } => {
            // The row stays locked to the end of the transaction: a takeover (which bumps the
            // fence) waits for this batch, or this batch sees the new fence.
            let row = tx
                .query_opt("SELECT fence FROM games WHERE id = $1 FOR UPDATE", &[game])
                .await
                .map_err(err)?;
            let held: Option<i64> = row.map(|row| row.get(0));
            if held != Some(sql_int(*token)) {
                return Err(StorageError::fenced(format!(
                    "game {game} is held by another node now (fence {held:?}, ours {token})"
                )));
            }
        }
    }
    Ok(())
}

/// A finished game's rating change, if it is rated (see [`rate_finish`]), in the transaction
/// that stores its result. Both rating rows are made if missing and then locked, so two games
/// of one player ending at once on two nodes are counted one after the other.
async fn rate_in(
    tx: &Transaction<'_>,
    game: &str,
    result: &GameResult,
    unix_ms: u64,
) -> Result<(), StorageError> {
    let err = |e: tokio_postgres::Error| pg_error(&e);
    let row = tx
        .query_opt(
            "SELECT variant, rated, account_first, account_second,
             (SELECT count(DISTINCT seat) FROM moves WHERE moves.game = games.id) = 2
             FROM games WHERE id = $1",
            &[&game],
        )
        .await
        .map_err(err)?;
    let Some(row) = row else { return Ok(()) };
    // What rating needs of the game: its kind, whether it is rated, and the seats' accounts.
    // A kind that does not read is no rated kind: nothing to rate.
    let Ok(variant) = Variant::parse(row.try_get(0).map_err(err)?) else { return Ok(()) };
    // A game where a side never moved (a tournament's forfeit) is not rated.
    let both_moved: bool = row.try_get(4).map_err(err)?;
    let rated = both_moved && row.try_get::<_, bool>(1).map_err(err)?;
    let spec = GameSpec { rules: AnyRules::of(variant), clock: None, rated };
    let accounts: [Option<String>; 2] =
        [row.try_get(2).map_err(err)?, row.try_get(3).map_err(err)?];
    let Some(kind) = rated_kind(&spec, &accounts, result) else { return Ok(()) };
    let record = RatedSeats { spec, accounts };
    let keys = record.accounts.clone().map(Option::unwrap_or_default);
    let fresh = crate::rating::Rating::default();
    let mut current = [None, None];
    // Locked in one order (by key). Two commits that each rate one game cannot deadlock then;
    // a group commit of several finishes might, and PostgreSQL ends one of them after its
    // deadlock timeout: the storage thread then writes each batch of the group on its own.
    let mut order = [0, 1];
    order.sort_by(|&a, &b| keys[a].cmp(&keys[b]));
    for index in order {
        let key = &keys[index];
        tx.execute(
            "INSERT INTO ratings (account, kind, rating, deviation, volatility, updated_unix_ms,
             games) VALUES ($1, $2, $3, $4, $5, 0, 0) ON CONFLICT (account, kind) DO NOTHING",
            &[key, &kind.name(), &fresh.rating, &fresh.deviation, &fresh.volatility],
        )
        .await
        .map_err(err)?;
        let row = tx
            .query_one(
                "SELECT rating, deviation, volatility, updated_unix_ms, games FROM ratings
                 WHERE account = $1 AND kind = $2 FOR UPDATE",
                &[key, &kind.name()],
            )
            .await
            .map_err(err)?;
        current[index] = Some(RatingRecord {
            kind,
            rating: crate::rating::Rating {
                rating: row.get(0),
                deviation: row.get(1),
                volatility: row.get(2),
                updated_unix_ms: from_sql_int(row.get(3)),
            },
            games: u32::try_from(row.get::<_, i32>(4)).unwrap_or(0),
        });
    }
    let Some(next) = rate_finish(&record.spec, &record.accounts, result, unix_ms, current) else {
        return Ok(());
    };
    for (key, record) in keys.iter().zip(next) {
        let r = record.rating;
        let games = i32::try_from(record.games).unwrap_or(i32::MAX);
        tx.execute(
            "UPDATE ratings SET rating = $3, deviation = $4, volatility = $5,
             updated_unix_ms = $6, games = $7 WHERE account = $1 AND kind = $2",
            &[
                key,
                &kind.name(),
                &r.rating,
                &r.deviation,
                &r.volatility,
                &sql_int(r.updated_unix_ms),
                &games,
            ],
        )
        .await
        .map_err(err)?;
        tx.execute(
            "INSERT INTO rating_history (account, kind, game, unix_ms, rating, deviation)
             VALUES ($1, $2, $3, $4, $5, $6)",
            &[key, &kind.name(), &game, &sql_int(unix_ms), &r.rating, &r.deviation],
        )
        .await
        .map_err(err)?;
    }
    Ok(())
}

fn account_of(row: &Row) -> AccountRecord {
    AccountRecord {
        key: row.get(0),
        name: row.get(1),
        password_hash: row.get(2),
        created_unix_ms: from_sql_int(row.get(3)),
    }
}

/// What [`rate_in`] reads of a finished game.
struct RatedSeats {
    spec: GameSpec,
    accounts: [Option<String>; 2],
}

/// Games in a PostgreSQL database, shared by every node.
pub struct PgStorage {
    url: String,
    runtime: tokio::runtime::Runtime,
    client: Option<Client>,
}

impl std::fmt::Debug for PgStorage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PgStorage").field("connected", &self.client.is_some()).finish()
    }
}

impl PgStorage {
    /// Connects to the database at `url` (a `postgres://` URL or key=value string) and brings
    /// its schema up to date.
    ///
    /// # Errors
    /// [`StorageError`] when it cannot be reached or migrated.
    pub fn open(url: &str) -> Result<PgStorage, StorageError> {
        // On a thread of its own: the caller may be inside another runtime, where `block_on`
        // is not allowed.
        let url = url.to_owned();
        std::thread::spawn(move || PgStorage::open_here(&url))
            .join()
            .map_err(|_| StorageError::new("opening the database panicked"))?
    }

    fn open_here(url: &str) -> Result<PgStorage, StorageError> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| StorageError::new(format!("cannot start the database runtime: {e}")))?;
        let mut storage = PgStorage { url: url.to_owned(), runtime, client: None };
        storage.runtime.block_on(async {
            let mut client = connect(url).await?;
            migrate(&mut client).await?;
            storage.client = Some(client);
            Ok::<(), StorageError>(())
        })?;
        Ok(storage)
    }

    /// Runs `work` with a connected client (connecting again if the last one closed); a
    /// connection that failed is dropped, so the next call tries a new one.
    fn with_client<T>(
        &mut self,
        work: impl AsyncFnOnce(&mut Client) -> Result<T, StorageError>,
    ) -> Result<T, StorageError> {
        let PgStorage { url, runtime, client } = self;
        runtime.block_on(async {
            if client.as_ref().is_none_or(Client::is_closed) {
                *client = Some(connect(url).await?);
            }
            let Some(connected) = client.as_mut() else {
                return Err(StorageError::unavailable("no database connection"));
            };
            let outcome = tokio::time::timeout(CALL_TIMEOUT, work(connected)).await;
            // A call that timed out may have left the connection mid-transaction: a new one.
            if outcome.is_err() || connected.is_closed() {
                *client = None;
            }
            outcome
                .unwrap_or_else(|_| Err(StorageError::unavailable("the database did not answer")))
        })
    }
}

impl Storage for PgStorage {
    fn write(&mut self, writes: &[Write]) -> Result<(), StorageError> {
        self.with_client(async |client| {
            let tx = client.transaction().await.map_err(|e| pg_error(&e))?;
            for write in writes {
                apply(&tx, write).await?;
            }
            tx.commit().await.map_err(|e| pg_error(&e))
        })
    }

    fn load(&mut self, game: &str) -> Result<Option<StoredGame>, StorageError> {
        self.with_client(async |client| load_game(client, game).await)
    }

    fn unfinished(&mut self) -> Result<Vec<StoredGame>, StorageError> {
        self.with_client(async |client| {
            let sql = format!(
                "SELECT {GAME_COLUMNS} FROM games WHERE result IS NULL
                 AND clock_base_secs IS NOT NULL AND name_first IS NOT NULL
                 AND name_second IS NOT NULL ORDER BY id"
            );
            let rows = client.query(&sql, &[]).await.map_err(|e| pg_error(&e))?;
            let mut games = Vec::with_capacity(rows.len());
            for row in &rows {
                // One damaged row is one game not resumed (logged), not a node that does not
                // start.
                let mut stored = match game_row(row) {
                    Ok(stored) => stored,
                    Err(error) => {
                        tracing::warn!(%error, "an unfinished game's row does not read: skipped");
                        continue;
                    }
                };
                stored.moves = moves_of(client, &stored.game.id).await?;
                stored.chat = chat_of(client, &stored.game.id).await?;
                games.push(stored);
            }
            Ok(games)
        })
    }

    fn sweep(&mut self, cutoff_unix_ms: u64, keep: &[String]) -> Result<usize, StorageError> {
        self.with_client(async |client| {
            let err = |e: tokio_postgres::Error| pg_error(&e);
            let tx = client.transaction().await.map_err(err)?;
            // A game some node holds (its task may still write to it) is never deleted; nor
            // are those in `keep`.
            let deleted = tx
                .execute(
                    "DELETE FROM games
                     WHERE owner IS NULL AND tournament IS NULL AND NOT (id = ANY($2))
                       AND ((result IS NOT NULL AND result::jsonb #>> '{reason,kind}' = 'aborted'
                             AND ended_unix_ms < $1)
                         OR (result IS NULL AND created_unix_ms < $1
                             AND NOT EXISTS (SELECT 1 FROM moves WHERE moves.game = games.id)))",
                    &[&sql_int(cutoff_unix_ms), &keep],
                )
                .await
                .map_err(err)?;
            let expired = sql_int(cutoff_unix_ms.saturating_sub(super::SESSION_LIFETIME_MS));
            tx.execute("DELETE FROM sessions WHERE created_unix_ms < $1", &[&expired])
                .await
                .map_err(err)?;
            tx.commit().await.map_err(err)?;
            Ok(usize::try_from(deleted).unwrap_or(usize::MAX))
        })
    }

    fn register(
        &mut self,
        account: &AccountRecord,
        session: &SessionRecord,
    ) -> Result<bool, StorageError> {
        self.with_client(async |client| {
            let err = |e: tokio_postgres::Error| pg_error(&e);
            let tx = client.transaction().await.map_err(err)?;
            let made = tx
                .execute(
                    "INSERT INTO accounts (key, name, password_hash, created_unix_ms, skeleton)
                     VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING",
                    &[
                        &account.key,
                        &account.name,
                        &account.password_hash,
                        &sql_int(account.created_unix_ms),
                        &name_skeleton(&account.name),
                    ],
                )
                .await
                .map_err(err)?;
            if made == 0 {
                return Ok(false);
            }
            apply(&tx, &Write::Session(session.clone())).await?;
            tx.commit().await.map_err(err)?;
            Ok(true)
        })
    }

    fn account(&mut self, key: &str) -> Result<Option<AccountRecord>, StorageError> {
        self.with_client(async |client| {
            let row = client
                .query_opt(
                    "SELECT key, name, password_hash, created_unix_ms FROM accounts WHERE key = $1",
                    &[&key],
                )
                .await
                .map_err(|e| pg_error(&e))?;
            Ok(row.as_ref().map(account_of))
        })
    }

    fn account_named_like(&mut self, skeleton: &str) -> Result<Option<String>, StorageError> {
        self.with_client(async |client| {
            let row = client
                .query_opt("SELECT name FROM accounts WHERE skeleton = $1", &[&skeleton])
                .await
                .map_err(|e| pg_error(&e))?;
            Ok(row.map(|row| row.get(0)))
        })
    }

    fn session(
        &mut self,
        token_hash: &str,
    ) -> Result<Option<(SessionRecord, AccountRecord)>, StorageError> {
        self.with_client(async |client| {
            let row = client
                .query_opt(
                    "SELECT a.key, a.name, a.password_hash, a.created_unix_ms, s.created_unix_ms
                     FROM sessions s JOIN accounts a ON a.key = s.account
                     WHERE s.token_hash = $1",
                    &[&token_hash],
                )
                .await
                .map_err(|e| pg_error(&e))?;
            Ok(row.map(|row| {
                let account = account_of(&row);
                let session = SessionRecord {
                    token_hash: token_hash.to_owned(),
                    account: account.key.clone(),
                    created_unix_ms: from_sql_int(row.get(4)),
                };
                (session, account)
            }))
        })
    }

    fn ratings(&mut self, account: &str) -> Result<Vec<RatingRecord>, StorageError> {
        self.with_client(async |client| ratings_of(client, account).await)
    }

    fn puzzle_results(&mut self, account: &str) -> Result<Vec<PuzzleResultRecord>, StorageError> {
        self.with_client(async |client| {
            let rows = client
                .query(
                    "SELECT game, puzzle, rating, deviation, solved, unix_ms FROM puzzle_results
                     WHERE account = $1 ORDER BY id",
                    &[&account],
                )
                .await
                .map_err(|e| pg_error(&e))?;
            Ok(rows
                .iter()
                .map(|row| PuzzleResultRecord {
                    account: account.to_owned(),
                    game: row.get(0),
                    puzzle: row.get(1),
                    rating: u16::try_from(row.get::<_, i32>(2)).unwrap_or(0),
                    deviation: u16::try_from(row.get::<_, i32>(3)).unwrap_or(0),
                    solved: row.get(4),
                    unix_ms: from_sql_int(row.get(5)),
                })
                .collect())
        })
    }

    fn tournament(&mut self, id: &str) -> Result<Option<TournamentRecord>, StorageError> {
        self.with_client(async |client| {
            let sql = format!("SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE id = $1");
            let row = client.query_opt(&sql, &[&id]).await.map_err(|e| pg_error(&e))?;
            Ok(row.as_ref().map(tournament_row))
        })
    }

    fn tournaments(&mut self, limit: usize) -> Result<Vec<TournamentRecord>, StorageError> {
        self.with_client(async |client| {
            let limit = i64::try_from(limit).unwrap_or(i64::MAX);
            let sql = format!(
                "SELECT {TOURNAMENT_COLUMNS} FROM tournaments
                 ORDER BY stage IN ('finished', 'cancelled'),
                          CASE WHEN stage IN ('finished', 'cancelled') THEN -starts_at ELSE starts_at END,
                          id
                 LIMIT $1"
            );
            let rows = client.query(&sql, &[&limit]).await.map_err(|e| pg_error(&e))?;
            Ok(rows.iter().map(tournament_row).collect())
        })
    }

    fn tournaments_created(
        &mut self,
        creator: &str,
        since_unix_ms: u64,
    ) -> Result<Vec<TournamentRecord>, StorageError> {
        self.with_client(async |client| {
            let sql = format!(
                "SELECT {TOURNAMENT_COLUMNS} FROM tournaments
                 WHERE creator = $1 AND created_unix_ms >= $2 ORDER BY created_unix_ms"
            );
            let rows = client
                .query(&sql, &[&creator, &sql_int(since_unix_ms)])
                .await
                .map_err(|e| pg_error(&e))?;
            Ok(rows.iter().map(tournament_row).collect())
        })
    }

    fn game_progress(&mut self, ids: &[String]) -> Result<Vec<GameProgress>, StorageError> {
        self.with_client(async |client| {
            let err = |e: tokio_postgres::Error| pg_error(&e);
            let rows = client
                .query(
                    "SELECT id, result, (SELECT count(*) FROM moves WHERE moves.game = games.id),
                     (SELECT count(DISTINCT seat) FROM moves WHERE moves.game = games.id) = 2,
                     created_unix_ms,
                     (SELECT max(unix_ms) FROM moves WHERE moves.game = games.id)
                     FROM games WHERE id = ANY($1)",
                    &[&ids],
                )
                .await
                .map_err(err)?;
            let mut progress = Vec::with_capacity(rows.len());
            for row in &rows {
                let id: String = row.try_get(0).map_err(err)?;
                let result = match row.try_get::<_, Option<String>>(1).map_err(err)? {
                    Some(text) => Some(serde_json::from_str::<GameResult>(&text).map_err(|e| {
                        StorageError::new(format!("game {id}: a result that does not read: {e}"))
                    })?),
                    None => None,
                };
                let plies = u32::try_from(row.try_get::<_, i64>(2).map_err(err)?).unwrap_or(0);
                let both_moved = row.try_get(3).map_err(err)?;
                let created_unix_ms = from_sql_int(row.try_get(4).map_err(err)?);
                let last: Option<i64> = row.try_get(5).map_err(err)?;
                progress.push(GameProgress {
                    id,
                    result,
                    plies,
                    both_moved,
                    created_unix_ms,
                    last_move_unix_ms: last.map(from_sql_int),
                });
            }
            Ok(progress)
        })
    }

    fn profile(
        &mut self,
        account: &str,
        max_games: usize,
    ) -> Result<Option<ProfileData>, StorageError> {
        let Some(record) = self.account(account)? else { return Ok(None) };
        self.with_client(async |client| {
            let err = |e: tokio_postgres::Error| pg_error(&e);
            let ratings = ratings_of(client, account).await?;
            let history = client
                .query(
                    "SELECT kind, game, unix_ms, rating, deviation FROM rating_history
                     WHERE account = $1 ORDER BY id",
                    &[&account],
                )
                .await
                .map_err(err)?
                .iter()
                .filter_map(|row| {
                    Some(RatingStep {
                        kind: RatedGame::of_variant(row.get(0))?,
                        game: row.get(1),
                        unix_ms: from_sql_int(row.get(2)),
                        rating: row.get(3),
                        deviation: row.get(4),
                    })
                })
                .collect();
            let sql = format!(
                "SELECT {GAME_COLUMNS}, ended_unix_ms FROM games
                 WHERE (account_first = $1 OR account_second = $1) AND result IS NOT NULL
                 ORDER BY ended_unix_ms DESC, id DESC LIMIT $2"
            );
            let limit = i64::try_from(max_games).unwrap_or(i64::MAX);
            let rows = client.query(&sql, &[&account, &limit]).await.map_err(err)?;
            let mut games = Vec::with_capacity(rows.len());
            for row in &rows {
                // A game whose row no longer reads is left out of the list, not the whole
                // profile with it.
                let mut stored = match game_row(row) {
                    Ok(stored) => stored,
                    Err(error) => {
                        let id = row.try_get::<_, String>(0).unwrap_or_default();
                        tracing::error!(game = %id, %error, "a finished game's row does not read");
                        continue;
                    }
                };
                stored.moves = moves_of(client, &stored.game.id).await?;
                let ended: Option<i64> = row.get(21);
                games.push((stored, ended.map_or(0, from_sql_int)));
            }
            Ok(Some(ProfileData { account: record, ratings, history, games }))
        })
    }
}

async fn ratings_of(
    client: &impl tokio_postgres::GenericClient,
    account: &str,
) -> Result<Vec<RatingRecord>, StorageError> {
    let rows = client
        .query(
            "SELECT kind, rating, deviation, volatility, updated_unix_ms, games FROM ratings
             WHERE account = $1 AND games > 0",
            &[&account],
        )
        .await
        .map_err(|e| pg_error(&e))?;
    let mut found: Vec<RatingRecord> = rows
        .iter()
        .filter_map(|row| {
            Some(RatingRecord {
                kind: RatedGame::of_variant(row.get(0))?,
                rating: crate::rating::Rating {
                    rating: row.get(1),
                    deviation: row.get(2),
                    volatility: row.get(3),
                    updated_unix_ms: from_sql_int(row.get(4)),
                },
                games: u32::try_from(row.get::<_, i32>(5)).unwrap_or(0),
            })
        })
        .collect();
    found.sort_by_key(|record| RatedGame::ALL.iter().position(|kind| *kind == record.kind));
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::services::TempPostgres;
    use crate::storage::StorageErrorKind;

    fn server() -> TempPostgres {
        TempPostgres::start().unwrap_or_else(|e| panic!("PostgreSQL is needed here: {e}"))
    }

    #[test]
    fn reads_back_sweeps_and_fences_and_survives_an_outage() {
        let postgres = server();
        let mut db = PgStorage::open(&postgres.url()).unwrap();
        crate::storage::tests::write_read_back_games(&mut db);
        // A second node starting on the same database migrates nothing and reads the same.
        let mut other = PgStorage::open(&postgres.url()).unwrap();
        crate::storage::tests::check_read_back(&mut other);

        // The fence: a batch under a stale token writes nothing.
        let fence = |token| Write::Fence { game: "g1".into(), token };
        let mv = MoveRecord {
            ply: 1,
            seat: Seat::Second,
            text: "e7e5".into(),
            unix_ms: 8,
            remaining_ms: Some([59_000, 60_000]),
        };
        let play = Write::Move { game: "g1".into(), mv: mv.clone() };
        let error = db.write(&[fence(3), play.clone()]).unwrap_err();
        assert_eq!(error.kind, StorageErrorKind::Fenced, "{error}");
        assert_eq!(db.load("g1").unwrap().unwrap().moves.len(), 1);
        db.write(&[fence(0), play.clone()]).unwrap();
        assert_eq!(db.load("g1").unwrap().unwrap().moves[1], mv);

        // The database goes away: calls fail as unavailable, nothing is half-written; when
        // it is back, the same storage goes on.
        postgres.stop().unwrap();
        let mv2 = MoveRecord { ply: 2, text: "g1f3".into(), seat: Seat::First, ..mv };
        let play2 = Write::Move { game: "g1".into(), mv: mv2 };
        let error = db.write(std::slice::from_ref(&play2)).unwrap_err();
        assert_eq!(error.kind, StorageErrorKind::Unavailable, "{error}");
        postgres.restart().unwrap();
        db.write(&[play2]).unwrap();
        assert_eq!(db.load("g1").unwrap().unwrap().moves.len(), 3);
    }

    #[test]
    fn sweeps_like_the_others() {
        let postgres = server();
        let mut db = PgStorage::open(&postgres.url()).unwrap();
        crate::storage::tests::check_sweep(&mut db);
        crate::storage::tests::check_accounts(&mut db);
        crate::storage::tests::check_tournaments(&mut db);
        crate::storage::tests::check_tournament_games(&mut db);
    }
}
