//! Games in an SQLite file.
//!
//! # Durability
//! The database runs in WAL mode with `synchronous=FULL`: every commit fsyncs the write-ahead
//! log before it returns, so a move that was acknowledged survives a power cut, not only a
//! crashed or killed server (WAL with `NORMAL` would survive `kill -9` but could lose the last
//! commits when the machine loses power). The cost of one fsync per commit is shared by all the
//! writes waiting at that moment: [`StorageHandle`](super::StorageHandle) commits them together.
//!
//! # Schema versions
//! `PRAGMA user_version` says which schema a file has; [`SqliteStorage::open`] brings an older
//! file up to [`VERSION`], each step in one transaction together with the new version number,
//! so a step is done once and wholly or not at all:
//! - 1: the first schema, with tokens in plain text;
//! - 2: tokens stored as hashes ([`hash_token`]): the columns `invite`, `token_first` and
//!   `token_second` became `invite_hash`, `token_first_hash` and `token_second_hash`, and every
//!   value in them was hashed in place;
//! - 3: the chat table, and whether a game is listed in the lobby;
//! - 4: accounts, their sessions and ratings; whether a game is rated and each seat's account;
//! - 5: each account's look-alike skeleton ([`name_skeleton`]), unique (filled in for the
//!   accounts there were, oldest first; one that looks like an older one keeps its name but
//!   has none, and is logged).
//! - 6: puzzle results; 7: tournaments, each one JSON document with a version;
//! - 8: the tournament a game belongs to (its games are never swept).

use std::path::Path;

use qi_protocol::{ChatLine, ClockSpec, GameResult, GameSpec, Seat, Variant};
use rusqlite::{Connection, OptionalExtension, Row, params};

use super::files::{private_file, private_if_there};
use super::{
    AccountRecord, GameProgress, GameRecord, MoveRecord, ProfileData, PuzzleResultRecord,
    RatingRecord, RatingStep, SessionRecord, Storage, StorageError, StoredGame, TournamentRecord,
    Write, from_sql_int, rate_finish, rated_kind, sql_int, stored_rules,
};
use crate::names::name_skeleton;
use crate::rating::{RatedGame, Rating};
use crate::tokens::hash_token;

/// The schema version this code reads and writes.
const VERSION: i64 = 8;

/// The schema of a new database up to version 2 (`user_version` 2); [`MIGRATE_2_TO_3`] and any
/// later step follow, as for an older database, so that each change is written once.
const SCHEMA_2: &str = "
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
    created_unix_ms INTEGER NOT NULL,
    rematch_of TEXT,
    result TEXT,
    final_first_ms INTEGER,
    final_second_ms INTEGER,
    ended_unix_ms INTEGER
);
CREATE INDEX games_unfinished ON games (id) WHERE result IS NULL;
CREATE TABLE moves (
    game TEXT NOT NULL REFERENCES games (id),
    ply INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    text TEXT NOT NULL,
    unix_ms INTEGER NOT NULL,
    remaining_first_ms INTEGER,
    remaining_second_ms INTEGER,
    PRIMARY KEY (game, ply)
) WITHOUT ROWID;
PRAGMA user_version = 2;
";

/// Schema 2 to 3: the chat table, and whether a game is listed in the lobby.
const MIGRATE_2_TO_3: &str = "
ALTER TABLE games ADD COLUMN listed INTEGER NOT NULL DEFAULT 0;
CREATE TABLE chat (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL REFERENCES games (id),
    line TEXT NOT NULL
);
CREATE INDEX chat_game ON chat (game, id);
PRAGMA user_version = 3;
";

/// Schema 3 to 4: accounts, sessions, ratings and their history; games rated or not, and
/// each seat's account.
const MIGRATE_3_TO_4: &str = "
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
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
    created_unix_ms INTEGER NOT NULL
);
CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    account TEXT NOT NULL REFERENCES accounts (key),
    created_unix_ms INTEGER NOT NULL
);
CREATE INDEX sessions_account ON sessions (account);
CREATE TABLE ratings (
    account TEXT NOT NULL REFERENCES accounts (key),
    kind TEXT NOT NULL,
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    volatility REAL NOT NULL,
    updated_unix_ms INTEGER NOT NULL,
    games INTEGER NOT NULL,
    PRIMARY KEY (account, kind)
) WITHOUT ROWID;
CREATE TABLE rating_history (
    id INTEGER PRIMARY KEY,
    account TEXT NOT NULL REFERENCES accounts (key),
    kind TEXT NOT NULL,
    game TEXT NOT NULL,
    unix_ms INTEGER NOT NULL,
    rating REAL NOT NULL,
    deviation REAL NOT NULL
);
CREATE INDEX rating_history_account ON rating_history (account, id);
PRAGMA user_version = 4;
";

/// Schema 4 to 5: each account's look-alike skeleton, unique.
fn migrate_4_to_5(tx: &rusqlite::Transaction<'_>) -> rusqlite::Result<()> {
    tx.execute_batch(
        "ALTER TABLE accounts ADD COLUMN skeleton TEXT;
         CREATE UNIQUE INDEX accounts_skeleton ON accounts (skeleton);",
    )?;
    let accounts: Vec<(String, String)> = tx
        .prepare("SELECT key, name FROM accounts ORDER BY created_unix_ms, key")?
        .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?;
    let mut taken = std::collections::HashSet::new();
    for (key, name) in accounts {
        let skeleton = name_skeleton(&name);
        if taken.insert(skeleton.clone()) {
            tx.execute("UPDATE accounts SET skeleton = ?2 WHERE key = ?1", params![key, skeleton])?;
        } else {
            tracing::warn!(account = %key, "an account's name looks like an older one's");
        }
    }
    tx.execute_batch("PRAGMA user_version = 5;")
}

/// Schema 5 to 6: the puzzle results of accounts (the first result on each puzzle).
const MIGRATE_5_TO_6: &str = "
CREATE TABLE puzzle_results (
    id INTEGER PRIMARY KEY,
    account TEXT NOT NULL REFERENCES accounts (key),
    game TEXT NOT NULL,
    puzzle TEXT NOT NULL,
    rating INTEGER NOT NULL,
    deviation INTEGER NOT NULL,
    solved INTEGER NOT NULL,
    unix_ms INTEGER NOT NULL,
    UNIQUE (account, game, puzzle)
);
PRAGMA user_version = 6;
";

/// Schema 6 to 7: tournaments, each kept whole as one JSON document with a version.
const MIGRATE_6_TO_7: &str = "
CREATE TABLE tournaments (
    id TEXT PRIMARY KEY,
    creator TEXT NOT NULL,
    stage TEXT NOT NULL,
    starts_at INTEGER NOT NULL,
    created_unix_ms INTEGER NOT NULL,
    version INTEGER NOT NULL,
    document TEXT NOT NULL
);
CREATE INDEX tournaments_by_stage ON tournaments (stage, starts_at);
CREATE INDEX tournaments_by_creator ON tournaments (creator, created_unix_ms);
PRAGMA user_version = 7;
";

/// Schema 7 to 8: the tournament a game is played in.
const MIGRATE_7_TO_8: &str = "
ALTER TABLE games ADD COLUMN tournament TEXT;
CREATE INDEX games_by_tournament ON games (tournament) WHERE tournament IS NOT NULL;
PRAGMA user_version = 8;
";

/// Writes a tournament at its version: inserts version 1, else replaces the version before it.
fn put_tournament(
    tx: &rusqlite::Transaction<'_>,
    record: &TournamentRecord,
) -> Result<(), StorageError> {
    if record.version == 1 {
        let inserted = tx
            .prepare_cached(
                "INSERT OR IGNORE INTO tournaments
                 (id, creator, stage, starts_at, created_unix_ms, version, document)
                 VALUES (?1, ?2, ?3, ?4, ?5, 1, ?6)",
            )
            .and_then(|mut statement| {
                statement.execute(params![
                    record.id,
                    record.creator,
                    record.stage,
                    sql_int(record.starts_at),
                    sql_int(record.created_unix_ms),
                    record.document
                ])
            })
            .map_err(failed)?;
        if inserted == 0 {
            return Err(StorageError::new(format!("tournament {} exists", record.id)));
        }
        return Ok(());
    }
    let updated = tx
        .prepare_cached(
            "UPDATE tournaments SET stage = ?2, starts_at = ?3, version = ?4, document = ?5
             WHERE id = ?1 AND version = ?4 - 1",
        )
        .and_then(|mut statement| {
            statement.execute(params![
                record.id,
                record.stage,
                sql_int(record.starts_at),
                sql_int(record.version),
                record.document
            ])
        })
        .map_err(failed)?;
    if updated == 0 {
        return Err(StorageError::fenced(format!("tournament {} changed meanwhile", record.id)));
    }
    Ok(())
}

/// A tournament row, from `id, creator, stage, starts_at, created_unix_ms, version, document`.
fn tournament_row(row: &Row<'_>) -> rusqlite::Result<TournamentRecord> {
    Ok(TournamentRecord {
        id: row.get(0)?,
        creator: row.get(1)?,
        stage: row.get(2)?,
        starts_at: from_sql_int(row.get(3)?),
        created_unix_ms: from_sql_int(row.get(4)?),
        version: from_sql_int(row.get(5)?),
        document: row.get(6)?,
    })
}

const TOURNAMENT_COLUMNS: &str =
    "id, creator, stage, starts_at, created_unix_ms, version, document";

/// Schema 1 to 2: the token columns renamed, and every token and invite replaced by its hash.
///
/// A game waiting for its second player when this runs keeps working for the joiner: the old
/// invite they were sent hashes to what is stored. What its creator loses is the invite echo:
/// that old invite was random, not [`invite_for`](crate::tokens::invite_for) their token, so
/// when they come back the server cannot make it again and their `Seated` has no invite (the
/// link they already shared still works).
fn migrate_1_to_2(tx: &rusqlite::Transaction<'_>) -> rusqlite::Result<()> {
    tx.execute_batch(
        "ALTER TABLE games RENAME COLUMN invite TO invite_hash;
         ALTER TABLE games RENAME COLUMN token_first TO token_first_hash;
         ALTER TABLE games RENAME COLUMN token_second TO token_second_hash;",
    )?;
    let rows = {
        let mut select =
            tx.prepare("SELECT id, invite_hash, token_first_hash, token_second_hash FROM games")?;
        let rows = select.query_map([], |row| {
            Ok((row.get::<_, String>(0)?, [row.get(1)?, row.get(2)?, row.get::<_, String>(3)?]))
        })?;
        rows.collect::<rusqlite::Result<Vec<_>>>()?
    };
    let mut update = tx.prepare(
        "UPDATE games SET invite_hash = ?2, token_first_hash = ?3, token_second_hash = ?4
         WHERE id = ?1",
    )?;
    for (id, plain) in rows {
        let [invite, first, second] = plain.map(|token| hash_token(&token));
        update.execute(params![id, invite, first, second])?;
    }
    tx.execute_batch("PRAGMA user_version = 2;")
}

/// Games in an SQLite database file.
#[derive(Debug)]
pub struct SqliteStorage {
    db: Connection,
}

fn failed(e: rusqlite::Error) -> StorageError {
    StorageError::new(e.to_string())
}

fn seat_number(seat: Seat) -> i64 {
    match seat {
        Seat::First => 0,
        Seat::Second => 1,
    }
}

impl SqliteStorage {
    /// Opens (or creates) the database at `path` and its tables, bringing an older schema up to
    /// date. The file and SQLite's `-wal` and `-shm` files beside it are made (or set) mode 0600.
    ///
    /// # Errors
    /// [`StorageError`] when the file cannot be opened or set up, or was written by a newer
    /// server.
    pub fn open(path: &Path) -> Result<SqliteStorage, StorageError> {
        private_file(path)?;
        let mut db = Connection::open(path).map_err(failed)?;
        // Another process on the same file (a second server by mistake) waits rather than
        // failing at once.
        db.busy_timeout(std::time::Duration::from_secs(5)).map_err(failed)?;
        let mode: String =
            db.query_row("PRAGMA journal_mode = WAL", [], |row| row.get(0)).map_err(failed)?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(StorageError::new(format!("the database would not use WAL (got {mode})")));
        }
        db.execute_batch("PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;").map_err(failed)?;
        set_up(&mut db)?;
        // The sweeper looks games up by when they were created and ended: without these it
        // would read the whole table while every commit waits behind it.
        db.execute_batch(
            "CREATE INDEX IF NOT EXISTS games_created ON games (created_unix_ms);
             CREATE INDEX IF NOT EXISTS games_ended ON games (ended_unix_ms);",
        )
        .map_err(failed)?;
        // They exist now (WAL mode keeps them while the database is open), from this run or left
        // by an older one.
        for suffix in ["-wal", "-shm"] {
            let mut beside = path.as_os_str().to_owned();
            beside.push(suffix);
            private_if_there(Path::new(&beside))?;
        }
        Ok(SqliteStorage { db })
    }

    fn apply(tx: &rusqlite::Transaction<'_>, write: &Write) -> rusqlite::Result<()> {
        match write {
            Write::Create(g) => {
                let clock = g.spec.clock;
                tx.prepare_cached(
                    "INSERT INTO games (id, variant, rules, clock_base_secs, clock_increment_secs,
                     start, invite_hash, token_first_hash, token_second_hash, name_first, name_second,
                     created_unix_ms, rematch_of, listed, rated, account_first, account_second,
                     tournament)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15,
                     ?16, ?17, ?18)",
                )?
                .execute(params![
                    g.id,
                    g.spec.variant().name(),
                    g.spec.rules.to_list(),
                    clock.map(|c| c.base_secs),
                    clock.map(|c| c.increment_secs),
                    g.start,
                    g.invite_hash,
                    g.token_hashes[0],
                    g.token_hashes[1],
                    g.names[0],
                    g.names[1],
                    sql_int(g.created_unix_ms),
                    g.rematch_of,
                    g.listed,
                    g.spec.rated,
                    g.accounts[0],
                    g.accounts[1],
                    g.tournament,
                ])?;
            }
            Write::TakeSeat { game, seat, name, account, token_hash } => {
                let sql = match seat {
                    Seat::First => {
                        "UPDATE games SET name_first = ?2, token_first_hash = ?3, account_first = ?4
                         WHERE id = ?1"
                    }
                    Seat::Second => {
                        "UPDATE games SET name_second = ?2, token_second_hash = ?3,
                         account_second = ?4 WHERE id = ?1"
                    }
                };
                tx.prepare_cached(sql)?.execute(params![game, name, token_hash, account])?;
            }
            Write::Move { game, mv } => {
                tx.prepare_cached(
                    "INSERT INTO moves (game, ply, seat, text, unix_ms, remaining_first_ms,
                     remaining_second_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                )?
                .execute(params![
                    game,
                    mv.ply,
                    seat_number(mv.seat),
                    mv.text,
                    sql_int(mv.unix_ms),
                    mv.remaining_ms.map(|r| sql_int(r[0])),
                    mv.remaining_ms.map(|r| sql_int(r[1])),
                ])?;
            }
            Write::Finish { game, result: result_value, clocks, unix_ms } => {
                let result = serde_json::to_string(result_value).unwrap_or_default();
                // A game is rated once, when it first gets its result.
                let had_result: bool = tx
                    .prepare_cached("SELECT result IS NOT NULL FROM games WHERE id = ?1")?
                    .query_row([game], |row| row.get(0))
                    .optional()?
                    .unwrap_or(true);
                tx.prepare_cached(
                    "UPDATE games SET result = ?2, final_first_ms = ?3, final_second_ms = ?4,
                     ended_unix_ms = ?5 WHERE id = ?1",
                )?
                .execute(params![
                    game,
                    result,
                    clocks.map(|c| sql_int(c[0])),
                    clocks.map(|c| sql_int(c[1])),
                    sql_int(*unix_ms),
                ])?;
                if !had_result {
                    rate_in(tx, game, result_value, *unix_ms)?;
                }
            }
            Write::Chat { game, line } => {
                let line = serde_json::to_string(line).unwrap_or_default();
                tx.prepare_cached("INSERT INTO chat (game, line) VALUES (?1, ?2)")?
                    .execute(params![game, line])?;
            }
            Write::Takeback { game, plies } => {
                tx.prepare_cached("DELETE FROM moves WHERE game = ?1 AND ply >= ?2")?
                    .execute(params![game, plies])?;
            }
            Write::Clocks { game, ply, remaining_ms } => {
                tx.prepare_cached(
                    "UPDATE moves SET remaining_first_ms = ?3, remaining_second_ms = ?4
                     WHERE game = ?1 AND ply = ?2",
                )?
                .execute(params![
                    game,
                    ply,
                    sql_int(remaining_ms[0]),
                    sql_int(remaining_ms[1])
                ])?;
            }
            Write::Session(session) => {
                tx.prepare_cached(
                    "INSERT INTO sessions (token_hash, account, created_unix_ms) VALUES (?1, ?2, ?3)",
                )?
                .execute(params![
                    session.token_hash,
                    session.account,
                    sql_int(session.created_unix_ms)
                ])?;
            }
            Write::EndSession { token_hash } => {
                tx.prepare_cached("DELETE FROM sessions WHERE token_hash = ?1")?
                    .execute([token_hash])?;
            }
            Write::EndSessions { account } => {
                tx.prepare_cached("DELETE FROM sessions WHERE account = ?1")?.execute([account])?;
            }
            Write::Password { account, password_hash } => {
                let changed = tx
                    .prepare_cached("UPDATE accounts SET password_hash = ?2 WHERE key = ?1")?
                    .execute([account, password_hash])?;
                if changed == 0 {
                    return Err(rusqlite::Error::QueryReturnedNoRows);
                }
            }
            // One server per file: no lease to check.
            Write::PuzzleResult(result) => {
                tx.prepare_cached(
                    "INSERT OR IGNORE INTO puzzle_results
                     (account, game, puzzle, rating, deviation, solved, unix_ms)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                )?
                .execute(params![
                    result.account,
                    result.game,
                    result.puzzle,
                    result.rating,
                    result.deviation,
                    result.solved,
                    sql_int(result.unix_ms)
                ])?;
            }
            Write::Fence { .. } => {}
            // Written by `write`, which can say a version did not match; never here.
            Write::Tournament(_) => {
                return Err(rusqlite::Error::ToSqlConversionFailure(
                    "a tournament is written by SqliteStorage::write".into(),
                ));
            }
        }
        Ok(())
    }

    fn moves(&self, game: &str) -> rusqlite::Result<Vec<MoveRecord>> {
        let mut statement = self.db.prepare_cached(
            "SELECT ply, seat, text, unix_ms, remaining_first_ms, remaining_second_ms
             FROM moves WHERE game = ?1 ORDER BY ply",
        )?;
        let rows = statement.query_map([game], |row| {
            let first: Option<i64> = row.get(4)?;
            let second: Option<i64> = row.get(5)?;
            Ok(MoveRecord {
                ply: row.get(0)?,
                seat: if row.get::<_, i64>(1)? == 0 { Seat::First } else { Seat::Second },
                text: row.get(2)?,
                unix_ms: from_sql_int(row.get(3)?),
                remaining_ms: first.zip(second).map(|(a, b)| [from_sql_int(a), from_sql_int(b)]),
            })
        })?;
        rows.collect()
    }

    fn chat(&self, game: &str) -> rusqlite::Result<Vec<ChatLine>> {
        let mut statement =
            self.db.prepare_cached("SELECT line FROM chat WHERE game = ?1 ORDER BY id")?;
        let texts = statement
            .query_map([game], |row| row.get::<_, String>(0))?
            .collect::<rusqlite::Result<Vec<String>>>()?;
        Ok(super::readable_chat(game, texts))
    }
}

/// Creates the tables of a new database, or brings an older one up to [`VERSION`].
fn set_up(db: &mut Connection) -> Result<(), StorageError> {
    // The version is read inside the transaction that changes it, so two servers starting on
    // one file at once cannot both migrate it.
    let tx =
        db.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate).map_err(failed)?;
    let version: i64 = tx.query_row("PRAGMA user_version", [], |row| row.get(0)).map_err(failed)?;
    match version {
        0 => {
            tx.execute_batch(SCHEMA_2).map_err(failed)?;
            tx.execute_batch(MIGRATE_2_TO_3).map_err(failed)?;
            tx.execute_batch(MIGRATE_3_TO_4).map_err(failed)?;
            migrate_4_to_5(&tx).map_err(failed)?;
            tx.execute_batch(MIGRATE_5_TO_6).map_err(failed)?;
            tx.execute_batch(MIGRATE_6_TO_7).map_err(failed)?;
            tx.execute_batch(MIGRATE_7_TO_8).map_err(failed)?;
        }
        1 => {
            migrate_1_to_2(&tx).map_err(failed)?;
            tx.execute_batch(MIGRATE_2_TO_3).map_err(failed)?;
            tx.execute_batch(MIGRATE_3_TO_4).map_err(failed)?;
            migrate_4_to_5(&tx).map_err(failed)?;
            tx.execute_batch(MIGRATE_5_TO_6).map_err(failed)?;
            tx.execute_batch(MIGRATE_6_TO_7).map_err(failed)?;
            tx.execute_batch(MIGRATE_7_TO_8).map_err(failed)?;
        }
        2 => {
            tx.execute_batch(MIGRATE_2_TO_3).map_err(failed)?;
            tx.execute_batch(MIGRATE_3_TO_4).map_err(failed)?;
            migrate_4_to_5(&tx).map_err(failed)?;
            tx.execute_batch(MIGRATE_5_TO_6).map_err(failed)?;
            tx.execute_batch(MIGRATE_6_TO_7).map_err(failed)?;
            tx.execute_batch(MIGRATE_7_TO_8).map_err(failed)?;
        }
        3 => {
            tx.execute_batch(MIGRATE_3_TO_4).map_err(failed)?;
            migrate_4_to_5(&tx).map_err(failed)?;
            tx.execute_batch(MIGRATE_5_TO_6).map_err(failed)?;
            tx.execute_batch(MIGRATE_6_TO_7).map_err(failed)?;
            tx.execute_batch(MIGRATE_7_TO_8).map_err(failed)?;
        }
        4 => {
            migrate_4_to_5(&tx).map_err(failed)?;
            tx.execute_batch(MIGRATE_5_TO_6).map_err(failed)?;
            tx.execute_batch(MIGRATE_6_TO_7).map_err(failed)?;
            tx.execute_batch(MIGRATE_7_TO_8).map_err(failed)?;
        }
        5 => {
            tx.execute_batch(MIGRATE_5_TO_6).map_err(failed)?;
            tx.execute_batch(MIGRATE_6_TO_7).map_err(failed)?;
            tx.execute_batch(MIGRATE_7_TO_8).map_err(failed)?;
        }
        6 => {
            tx.execute_batch(MIGRATE_6_TO_7).map_err(failed)?;
            tx.execute_batch(MIGRATE_7_TO_8).map_err(failed)?;
        }
        7 => tx.execute_batch(MIGRATE_7_TO_8).map_err(failed)?,
        VERSION => {}
        newer => {
            return Err(StorageError::new(format!(
                "the database has schema version {newer}, newer than this server's {VERSION}"
            )));
        }
    }
    tx.commit().map_err(failed)
}

/// A game row (without its moves), from the columns of [`GAME_COLUMNS`].
fn game_row(row: &Row<'_>) -> rusqlite::Result<StoredGame> {
    let base: Option<u32> = row.get(3)?;
    let increment: Option<u32> = row.get(4)?;
    let result: Option<String> = row.get(13)?;
    // A stored result that does not read would make a finished game resume as if unfinished:
    // treat the row as damaged instead.
    let result = match result {
        Some(text) => Some(serde_json::from_str::<GameResult>(&text).map_err(|error| {
            rusqlite::Error::FromSqlConversionFailure(
                13,
                rusqlite::types::Type::Text,
                Box::new(error),
            )
        })?),
        None => None,
    };
    let final_first: Option<i64> = row.get(14)?;
    let final_second: Option<i64> = row.get(15)?;
    let game = GameRecord {
        id: row.get(0)?,
        spec: GameSpec {
            rules: stored_rules(&row.get::<_, String>(1)?, &row.get::<_, String>(2)?).map_err(
                |error| {
                    rusqlite::Error::FromSqlConversionFailure(
                        2,
                        rusqlite::types::Type::Text,
                        error.into(),
                    )
                },
            )?,
            clock: base
                .zip(increment)
                .map(|(base_secs, increment_secs)| ClockSpec { base_secs, increment_secs }),
            rated: row.get(17)?,
        },
        start: row.get(5)?,
        invite_hash: row.get(6)?,
        token_hashes: [row.get(7)?, row.get(8)?],
        names: [row.get(9)?, row.get(10)?],
        created_unix_ms: from_sql_int(row.get(11)?),
        rematch_of: row.get(12)?,
        listed: row.get(16)?,
        accounts: [row.get(18)?, row.get(19)?],
        tournament: row.get(20)?,
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

const GAME_COLUMNS: &str = "id, variant, rules, clock_base_secs, clock_increment_secs, start,
    invite_hash, token_first_hash, token_second_hash, name_first, name_second, created_unix_ms, rematch_of,
    result, final_first_ms, final_second_ms, listed, rated, account_first, account_second, tournament";

impl Storage for SqliteStorage {
    fn write(&mut self, writes: &[Write]) -> Result<(), StorageError> {
        let tx = self.db.transaction().map_err(failed)?;
        for write in writes {
            if let Write::Tournament(record) = write {
                put_tournament(&tx, record)?;
            } else {
                SqliteStorage::apply(&tx, write).map_err(failed)?;
            }
        }
        tx.commit().map_err(failed)
    }

    fn load(&mut self, game: &str) -> Result<Option<StoredGame>, StorageError> {
        let sql = format!("SELECT {GAME_COLUMNS} FROM games WHERE id = ?1");
        let stored = self
            .db
            .prepare_cached(&sql)
            .and_then(|mut statement| statement.query_row([game], game_row).optional())
            .map_err(failed)?;
        let Some(mut stored) = stored else { return Ok(None) };
        stored.moves = self.moves(game).map_err(failed)?;
        stored.chat = self.chat(game).map_err(failed)?;
        Ok(Some(stored))
    }

    fn unfinished(&mut self) -> Result<Vec<StoredGame>, StorageError> {
        let sql = format!(
            "SELECT {GAME_COLUMNS} FROM games WHERE result IS NULL
            AND clock_base_secs IS NOT NULL AND name_first IS NOT NULL AND name_second IS NOT NULL"
        );
        let mut games = {
            let mut statement = self.db.prepare(&sql).map_err(failed)?;
            let rows = statement.query_map([], game_row).map_err(failed)?;
            let mut games = Vec::new();
            for row in rows {
                match row {
                    Ok(game) => games.push(game),
                    // One damaged row is one game not resumed (logged), not a server that does
                    // not start.
                    Err(error @ rusqlite::Error::FromSqlConversionFailure(..)) => {
                        tracing::warn!(%error, "an unfinished game's row does not read: skipped");
                    }
                    Err(error) => return Err(failed(error)),
                }
            }
            games
        };
        for stored in &mut games {
            stored.moves = self.moves(&stored.game.id).map_err(failed)?;
            stored.chat = self.chat(&stored.game.id).map_err(failed)?;
        }
        Ok(games)
    }

    fn sweep(&mut self, cutoff_unix_ms: u64, keep: &[String]) -> Result<usize, StorageError> {
        let tx = self.db.transaction().map_err(failed)?;
        let deleted = sweep_in(&tx, sql_int(cutoff_unix_ms), keep).map_err(failed)?;
        let expired = sql_int(cutoff_unix_ms.saturating_sub(super::SESSION_LIFETIME_MS));
        tx.execute("DELETE FROM sessions WHERE created_unix_ms < ?1", [expired]).map_err(failed)?;
        tx.commit().map_err(failed)?;
        Ok(deleted)
    }

    fn register(
        &mut self,
        account: &AccountRecord,
        session: &SessionRecord,
    ) -> Result<bool, StorageError> {
        let tx = self.db.transaction().map_err(failed)?;
        let made = tx
            .execute(
                "INSERT INTO accounts (key, name, password_hash, created_unix_ms, skeleton)
                 VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT DO NOTHING",
                params![
                    account.key,
                    account.name,
                    account.password_hash,
                    sql_int(account.created_unix_ms),
                    name_skeleton(&account.name)
                ],
            )
            .map_err(failed)?;
        if made == 0 {
            return Ok(false);
        }
        SqliteStorage::apply(&tx, &Write::Session(session.clone())).map_err(failed)?;
        tx.commit().map_err(failed)?;
        Ok(true)
    }

    fn account(&mut self, key: &str) -> Result<Option<AccountRecord>, StorageError> {
        self.db
            .prepare_cached(
                "SELECT key, name, password_hash, created_unix_ms FROM accounts WHERE key = ?1",
            )
            .and_then(|mut statement| statement.query_row([key], account_row).optional())
            .map_err(failed)
    }

    fn account_named_like(&mut self, skeleton: &str) -> Result<Option<String>, StorageError> {
        self.db
            .prepare_cached("SELECT name FROM accounts WHERE skeleton = ?1")
            .and_then(|mut statement| statement.query_row([skeleton], |row| row.get(0)).optional())
            .map_err(failed)
    }

    fn session(
        &mut self,
        token_hash: &str,
    ) -> Result<Option<(SessionRecord, AccountRecord)>, StorageError> {
        self.db
            .prepare_cached(
                "SELECT a.key, a.name, a.password_hash, a.created_unix_ms, s.created_unix_ms
                 FROM sessions s JOIN accounts a ON a.key = s.account WHERE s.token_hash = ?1",
            )
            .and_then(|mut statement| {
                statement
                    .query_row([token_hash], |row| {
                        let account = account_row(row)?;
                        let session = SessionRecord {
                            token_hash: token_hash.to_owned(),
                            account: account.key.clone(),
                            created_unix_ms: from_sql_int(row.get(4)?),
                        };
                        Ok((session, account))
                    })
                    .optional()
            })
            .map_err(failed)
    }

    fn ratings(&mut self, account: &str) -> Result<Vec<RatingRecord>, StorageError> {
        let mut statement = self
            .db
            .prepare_cached(
                "SELECT rating, deviation, volatility, updated_unix_ms, games, kind FROM ratings
                 WHERE account = ?1",
            )
            .map_err(failed)?;
        let rows = statement
            .query_map([account], |row| {
                let kind: String = row.get(5)?;
                Ok(RatedGame::of_variant(&kind).map(|kind| rating_row(row, kind)))
            })
            .map_err(failed)?;
        let mut found = Vec::new();
        for row in rows {
            if let Some(record) = row.map_err(failed)? {
                found.push(record.map_err(failed)?);
            }
        }
        found.sort_by_key(|record| RatedGame::ALL.iter().position(|kind| *kind == record.kind));
        Ok(found)
    }

    fn puzzle_results(&mut self, account: &str) -> Result<Vec<PuzzleResultRecord>, StorageError> {
        let mut statement = self
            .db
            .prepare_cached(
                "SELECT game, puzzle, rating, deviation, solved, unix_ms FROM puzzle_results
                 WHERE account = ?1 ORDER BY id",
            )
            .map_err(failed)?;
        let rows = statement
            .query_map([account], |row| {
                Ok(PuzzleResultRecord {
                    account: account.to_owned(),
                    game: row.get(0)?,
                    puzzle: row.get(1)?,
                    rating: row.get(2)?,
                    deviation: row.get(3)?,
                    solved: row.get(4)?,
                    unix_ms: from_sql_int(row.get(5)?),
                })
            })
            .map_err(failed)?;
        rows.collect::<rusqlite::Result<Vec<_>>>().map_err(failed)
    }

    fn tournament(&mut self, id: &str) -> Result<Option<TournamentRecord>, StorageError> {
        let sql = format!("SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE id = ?1");
        self.db
            .prepare_cached(&sql)
            .and_then(|mut statement| statement.query_row([id], tournament_row).optional())
            .map_err(failed)
    }

    fn tournaments(&mut self, limit: usize) -> Result<Vec<TournamentRecord>, StorageError> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let sql = format!(
            "SELECT {TOURNAMENT_COLUMNS} FROM tournaments
             ORDER BY stage IN ('finished', 'cancelled'),
                      CASE WHEN stage IN ('finished', 'cancelled') THEN -starts_at ELSE starts_at END,
                      id
             LIMIT ?1"
        );
        let mut statement = self.db.prepare_cached(&sql).map_err(failed)?;
        let rows = statement.query_map([limit], tournament_row).map_err(failed)?;
        rows.collect::<rusqlite::Result<Vec<_>>>().map_err(failed)
    }

    fn tournaments_created(
        &mut self,
        creator: &str,
        since_unix_ms: u64,
    ) -> Result<Vec<TournamentRecord>, StorageError> {
        let sql = format!(
            "SELECT {TOURNAMENT_COLUMNS} FROM tournaments
             WHERE creator = ?1 AND created_unix_ms >= ?2 ORDER BY created_unix_ms"
        );
        let mut statement = self.db.prepare_cached(&sql).map_err(failed)?;
        let rows = statement
            .query_map(params![creator, sql_int(since_unix_ms)], tournament_row)
            .map_err(failed)?;
        rows.collect::<rusqlite::Result<Vec<_>>>().map_err(failed)
    }

    fn game_progress(&mut self, ids: &[String]) -> Result<Vec<GameProgress>, StorageError> {
        let mut statement = self
            .db
            .prepare_cached(
                "SELECT result, (SELECT count(*) FROM moves WHERE moves.game = games.id),
                 (SELECT count(DISTINCT seat) FROM moves WHERE moves.game = games.id) = 2,
                 created_unix_ms, (SELECT max(unix_ms) FROM moves WHERE moves.game = games.id)
                 FROM games WHERE id = ?1",
            )
            .map_err(failed)?;
        let mut progress = Vec::with_capacity(ids.len());
        for id in ids {
            let row = statement
                .query_row([id], |row| {
                    let times: (i64, Option<i64>) = (row.get(3)?, row.get(4)?);
                    Ok((
                        row.get::<_, Option<String>>(0)?,
                        row.get::<_, i64>(1)?,
                        row.get(2)?,
                        times,
                    ))
                })
                .optional()
                .map_err(failed)?;
            let Some((result, plies, both_moved, (created, last))) = row else { continue };
            let result = match result {
                Some(text) => Some(serde_json::from_str::<GameResult>(&text).map_err(|e| {
                    StorageError::new(format!("game {id}: a result that does not read: {e}"))
                })?),
                None => None,
            };
            let plies = u32::try_from(plies).unwrap_or(0);
            progress.push(GameProgress {
                id: id.clone(),
                result,
                plies,
                both_moved,
                created_unix_ms: from_sql_int(created),
                last_move_unix_ms: last.map(from_sql_int),
            });
        }
        Ok(progress)
    }

    fn profile(
        &mut self,
        account: &str,
        max_games: usize,
    ) -> Result<Option<ProfileData>, StorageError> {
        let Some(record) = self.account(account)? else { return Ok(None) };
        let ratings = self.ratings(account)?;
        let history = {
            let mut statement = self
                .db
                .prepare_cached(
                    "SELECT kind, game, unix_ms, rating, deviation FROM rating_history
                     WHERE account = ?1 ORDER BY id",
                )
                .map_err(failed)?;
            let rows = statement
                .query_map([account], |row| {
                    let kind: String = row.get(0)?;
                    Ok(RatedGame::of_variant(&kind).map(|kind| -> rusqlite::Result<RatingStep> {
                        Ok(RatingStep {
                            kind,
                            game: row.get(1)?,
                            unix_ms: from_sql_int(row.get(2)?),
                            rating: row.get(3)?,
                            deviation: row.get(4)?,
                        })
                    }))
                })
                .map_err(failed)?;
            let mut steps = Vec::new();
            for row in rows {
                if let Some(step) = row.map_err(failed)? {
                    steps.push(step.map_err(failed)?);
                }
            }
            steps
        };
        let sql = format!(
            "SELECT {GAME_COLUMNS}, ended_unix_ms FROM games
             WHERE (account_first = ?1 OR account_second = ?1) AND result IS NOT NULL
             ORDER BY ended_unix_ms DESC, id DESC LIMIT ?2"
        );
        let mut games = {
            let mut statement = self.db.prepare_cached(&sql).map_err(failed)?;
            let limit = i64::try_from(max_games).unwrap_or(i64::MAX);
            let rows = statement
                .query_map(params![account, limit], |row| {
                    let ended = from_sql_int(row.get::<_, Option<i64>>(21)?.unwrap_or(0));
                    // A game whose row no longer reads is left out of the list, not the
                    // whole profile with it.
                    Ok(game_row(row).map(|game| (game, ended)).map_err(|error| {
                        let id = row.get::<_, String>(0).unwrap_or_default();
                        tracing::error!(game = %id, %error, "a finished game's row does not read");
                    }))
                })
                .map_err(failed)?;
            let rows = rows.collect::<rusqlite::Result<Vec<_>>>().map_err(failed)?;
            rows.into_iter().flatten().collect::<Vec<_>>()
        };
        for (stored, _) in &mut games {
            stored.moves = self.moves(&stored.game.id).map_err(failed)?;
        }
        Ok(Some(ProfileData { account: record, ratings, history, games }))
    }
}

/// A finished game's rating change, if it is rated (see [`rate_finish`]), in the transaction
/// that stores its result.
fn rate_in(
    tx: &rusqlite::Transaction<'_>,
    game: &str,
    result: &GameResult,
    unix_ms: u64,
) -> rusqlite::Result<()> {
    // What rating needs of the game: its kind, whether it is rated, and the seats' accounts
    // (not the whole row: rule options that no longer read must not stop a result stored).
    // A kind that does not read is no rated kind: nothing to rate.
    let row = tx
        .prepare_cached(
            "SELECT variant, rated, account_first, account_second,
             (SELECT count(DISTINCT seat) FROM moves WHERE moves.game = games.id) = 2
             FROM games WHERE id = ?1",
        )?
        .query_row([game], |row| {
            let variant: String = row.get(0)?;
            let both_moved: bool = row.get(4)?;
            Ok((variant, row.get::<_, bool>(1)? && both_moved, [row.get(2)?, row.get(3)?]))
        })
        .optional()?;
    // A game where a side never moved (a tournament's forfeit) is not rated.
    let Some((variant, rated, accounts)) = row else { return Ok(()) };
    let Ok(variant) = Variant::parse(&variant) else { return Ok(()) };
    let spec: GameSpec = GameSpec { rated, ..GameSpec::of(variant) };
    let accounts: [Option<String>; 2] = accounts;
    let Some(kind) = rated_kind(&spec, &accounts, result) else { return Ok(()) };
    let keys = accounts.clone().map(Option::unwrap_or_default);
    let mut current = [None, None];
    for (slot, key) in current.iter_mut().zip(&keys) {
        *slot = tx
            .prepare_cached(
                "SELECT rating, deviation, volatility, updated_unix_ms, games FROM ratings
                 WHERE account = ?1 AND kind = ?2",
            )?
            .query_row(params![key, kind.name()], |row| rating_row(row, kind))
            .optional()?;
    }
    let Some(next) = rate_finish(&spec, &accounts, result, unix_ms, current) else {
        return Ok(());
    };
    for (key, record) in keys.iter().zip(next) {
        let r = record.rating;
        tx.prepare_cached(
            "INSERT INTO ratings (account, kind, rating, deviation, volatility, updated_unix_ms,
             games) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
             ON CONFLICT (account, kind) DO UPDATE SET rating = ?3, deviation = ?4,
             volatility = ?5, updated_unix_ms = ?6, games = ?7",
        )?
        .execute(params![
            key,
            kind.name(),
            r.rating,
            r.deviation,
            r.volatility,
            sql_int(r.updated_unix_ms),
            record.games
        ])?;
        tx.prepare_cached(
            "INSERT INTO rating_history (account, kind, game, unix_ms, rating, deviation)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        )?
        .execute(params![
            key,
            kind.name(),
            game,
            sql_int(unix_ms),
            r.rating,
            r.deviation
        ])?;
    }
    Ok(())
}

fn rating_row(row: &Row<'_>, kind: RatedGame) -> rusqlite::Result<RatingRecord> {
    Ok(RatingRecord {
        kind,
        rating: Rating {
            rating: row.get(0)?,
            deviation: row.get(1)?,
            volatility: row.get(2)?,
            updated_unix_ms: from_sql_int(row.get(3)?),
        },
        games: row.get(4)?,
    })
}

fn account_row(row: &Row<'_>) -> rusqlite::Result<AccountRecord> {
    Ok(AccountRecord {
        key: row.get(0)?,
        name: row.get(1)?,
        password_hash: row.get(2)?,
        created_unix_ms: from_sql_int(row.get(3)?),
    })
}

/// [`Storage::sweep`] within `tx`.
fn sweep_in(
    tx: &rusqlite::Transaction<'_>,
    cutoff: i64,
    keep: &[String],
) -> rusqlite::Result<usize> {
    // The result is stored as the protocol's JSON (`{"winner":null,"reason":{"kind":"aborted"}}`);
    // the sweep tests write it through `Write::Finish`, so a change of that form shows there.
    // `keep` is left out in Rust rather than in SQL: it may be long, and SQLite limits the
    // number of parameters.
    let candidates: Vec<String> = {
        let mut select = tx.prepare(
            "SELECT id FROM games
             WHERE tournament IS NULL
               AND ((result IS NOT NULL AND json_extract(result, '$.reason.kind') = 'aborted'
                     AND ended_unix_ms < ?1)
                 OR (result IS NULL AND created_unix_ms < ?1
                     AND NOT EXISTS (SELECT 1 FROM moves WHERE moves.game = games.id)))",
        )?;
        let rows = select.query_map([cutoff], |row| row.get(0))?;
        rows.collect::<rusqlite::Result<_>>()?
    };
    let keep: std::collections::HashSet<&str> = keep.iter().map(String::as_str).collect();
    let mut delete_moves = tx.prepare("DELETE FROM moves WHERE game = ?1")?;
    let mut delete_chat = tx.prepare("DELETE FROM chat WHERE game = ?1")?;
    let mut delete_game = tx.prepare("DELETE FROM games WHERE id = ?1")?;
    let mut deleted = 0;
    for id in candidates.iter().filter(|id| !keep.contains(id.as_str())) {
        delete_moves.execute([id])?;
        delete_chat.execute([id])?;
        deleted += delete_game.execute([id])?;
    }
    Ok(deleted)
}

#[cfg(test)]
mod tests {
    use super::*;
    /// A new directory for one test.
    fn test_dir(tag: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("qi-sqlite-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn games_moves_and_results_read_back() {
        let dir = test_dir("read-back");
        let path = dir.join("games.sqlite");
        let _ = std::fs::remove_file(&path);
        let mut db = SqliteStorage::open(&path).unwrap();
        crate::storage::tests::write_read_back_games(&mut db);
        drop(db);
        // And after a restart.
        let mut db = SqliteStorage::open(&path).unwrap();
        crate::storage::tests::check_read_back(&mut db);
        // A chat line that does not read (damaged, or from a newer server) is left out; the
        // game still loads with the rest.
        db.db
            .execute(
                "INSERT INTO chat (game, line) VALUES ('g1', ?1)",
                ["{\"room\":\"players\",\"name\":"],
            )
            .unwrap();
        assert_eq!(db.load("g1").unwrap().unwrap().chat.len(), 2);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Schema 1 as the first servers wrote it, tokens in plain text.
    const SCHEMA_1: &str = "
        CREATE TABLE games (
            id TEXT PRIMARY KEY, variant TEXT NOT NULL, rules TEXT NOT NULL,
            clock_base_secs INTEGER, clock_increment_secs INTEGER, start TEXT NOT NULL,
            invite TEXT NOT NULL, token_first TEXT NOT NULL, token_second TEXT NOT NULL,
            name_first TEXT, name_second TEXT, created_unix_ms INTEGER NOT NULL, rematch_of TEXT,
            result TEXT, final_first_ms INTEGER, final_second_ms INTEGER, ended_unix_ms INTEGER
        );
        CREATE INDEX games_unfinished ON games (id) WHERE result IS NULL;
        CREATE TABLE moves (
            game TEXT NOT NULL REFERENCES games (id), ply INTEGER NOT NULL, seat INTEGER NOT NULL,
            text TEXT NOT NULL, unix_ms INTEGER NOT NULL, remaining_first_ms INTEGER,
            remaining_second_ms INTEGER, PRIMARY KEY (game, ply)
        ) WITHOUT ROWID;
        PRAGMA user_version = 1;
        INSERT INTO games (id, variant, rules, start, invite, token_first, token_second,
            name_first, created_unix_ms)
        VALUES ('w', 'gomoku', '', 'x', 'old-invite', 'old-first', 'old-second', 'Ann', 1),
               ('p', 'gomoku', '', 'x', 'p-invite', 'p-first', 'p-second', 'Bo', 2);
        INSERT INTO moves (game, ply, seat, text, unix_ms) VALUES ('p', 0, 0, 'h8', 3);
    ";

    fn user_version(path: &Path) -> i64 {
        let db = Connection::open(path).unwrap();
        db.query_row("PRAGMA user_version", [], |row| row.get(0)).unwrap()
    }

    #[test]
    fn schema_1_tokens_are_hashed_in_place_once() {
        let dir = test_dir("migrate");
        let path = dir.join("games.sqlite");
        Connection::open(&path).unwrap().execute_batch(SCHEMA_1).unwrap();
        let mut db = SqliteStorage::open(&path).unwrap();
        let hashed = |invite: &str, first: &str, second: &str| {
            (hash_token(invite), [hash_token(first), hash_token(second)])
        };
        let w = db.load("w").unwrap().unwrap();
        assert_eq!(
            (w.game.invite_hash, w.game.token_hashes),
            hashed("old-invite", "old-first", "old-second")
        );
        assert_eq!(w.game.names, [Some("Ann".into()), None]);
        let p = db.load("p").unwrap().unwrap();
        assert_eq!(p.game.token_hashes, hashed("p-invite", "p-first", "p-second").1);
        assert_eq!(p.moves.len(), 1, "the rest of the data is as it was");
        drop(db);
        assert_eq!(user_version(&path), VERSION);
        // Opened again: not hashed a second time.
        let mut db = SqliteStorage::open(&path).unwrap();
        let w = db.load("w").unwrap().unwrap();
        assert_eq!(w.game.invite_hash, hash_token("old-invite"));
        // No plain token is left anywhere in the file's tables.
        let plain: i64 = db
            .db
            .query_row(
                "SELECT count(*) FROM games WHERE invite_hash LIKE '%invite'
                 OR token_first_hash LIKE '%first' OR token_second_hash LIKE '%second'",
                [],
                |row| row.get(0),
            )
            .unwrap();
        assert_eq!(plain, 0);
        drop(db);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn schema_4_accounts_get_their_skeletons_oldest_first() {
        let dir = test_dir("migrate-skeleton");
        let path = dir.join("games.sqlite");
        let old = Connection::open(&path).unwrap();
        old.execute_batch(SCHEMA_2).unwrap();
        old.execute_batch(MIGRATE_2_TO_3).unwrap();
        old.execute_batch(MIGRATE_3_TO_4).unwrap();
        // Two look-alikes registered before skeletons were kept: "роре" is Cyrillic.
        old.execute_batch(
            "INSERT INTO accounts VALUES ('роре', 'роре', 'h2', 2);
             INSERT INTO accounts VALUES ('pope', 'pope', 'h1', 1);",
        )
        .unwrap();
        drop(old);
        let mut db = SqliteStorage::open(&path).unwrap();
        assert_eq!(user_version(&path), VERSION);
        assert_eq!(db.account_named_like(&name_skeleton("POPE")).unwrap().as_deref(), Some("pope"));
        assert_eq!(db.account("роре").unwrap().unwrap().password_hash, "h2", "kept");
        let again = AccountRecord {
            key: "pοpe".into(),
            name: "pοpe".into(),
            password_hash: "h3".into(),
            created_unix_ms: 3,
        };
        let session =
            SessionRecord { token_hash: "s".into(), account: "pοpe".into(), created_unix_ms: 3 };
        assert!(!db.register(&again, &session).unwrap());
        drop(db);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_migration_that_fails_leaves_schema_1_whole() {
        let dir = test_dir("migrate-fails");
        let path = dir.join("games.sqlite");
        let old = Connection::open(&path).unwrap();
        old.execute_batch(SCHEMA_1).unwrap();
        // A column the migration renames to already exists: the renaming fails midway.
        old.execute_batch("ALTER TABLE games ADD COLUMN token_second_hash TEXT").unwrap();
        drop(old);
        assert!(SqliteStorage::open(&path).is_err());
        assert_eq!(user_version(&path), 1);
        let old = Connection::open(&path).unwrap();
        let kept: (String, String) = old
            .query_row("SELECT invite, token_first FROM games WHERE id = 'w'", [], |row| {
                Ok((row.get(0)?, row.get(1)?))
            })
            .unwrap();
        assert_eq!(kept, ("old-invite".to_owned(), "old-first".to_owned()));
        drop(old);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_newer_schema_is_refused() {
        let dir = test_dir("newer");
        let path = dir.join("games.sqlite");
        Connection::open(&path)
            .unwrap()
            .execute_batch(&format!("PRAGMA user_version = {}", VERSION + 1))
            .unwrap();
        let error = SqliteStorage::open(&path).unwrap_err();
        assert!(error.detail.contains("newer"), "{error}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn sweeping_deletes_old_aborted_and_unstarted_games_with_their_moves() {
        let dir = test_dir("sweep");
        let path = dir.join("games.sqlite");
        let mut db = SqliteStorage::open(&path).unwrap();
        crate::storage::tests::check_sweep(&mut db);
        crate::storage::tests::check_accounts(&mut db);
        crate::storage::tests::check_tournaments(&mut db);
        crate::storage::tests::check_tournament_games(&mut db);
        let orphans: i64 = db
            .db
            .query_row(
                "SELECT count(*) FROM moves WHERE game NOT IN (SELECT id FROM games)",
                [],
                |row| row.get(0),
            )
            .unwrap();
        assert_eq!(orphans, 0, "the deleted games' moves went with them");
        // A finished game whose rule options no longer read (a damaged row, or a check a later
        // rules crate tightened) is left out of its players' profiles, not the profile with it.
        let listed = |db: &mut SqliteStorage| -> Vec<String> {
            let profile = db.profile("ann", 10).unwrap().unwrap();
            profile.games.into_iter().map(|(game, _)| game.game.id).collect()
        };
        assert!(listed(&mut db).contains(&"r2".to_owned()));
        db.db.execute("UPDATE games SET rules = 'size=17' WHERE id = 'r2'", []).unwrap();
        assert_eq!(listed(&mut db), ["c1", "r1"]);
        // And a rated game with such a row is still rated when it ends.
        let games = |db: &mut SqliteStorage| db.ratings("ann").unwrap()[0].games;
        let before = games(&mut db);
        let take_seat = Write::TakeSeat {
            game: "r3".into(),
            seat: Seat::Second,
            name: "Bo".into(),
            account: Some("bo".into()),
            token_hash: "b3".into(),
        };
        let r3 = crate::storage::tests::rated_game("r3", "Ann", "Bo", true);
        let moves =
            [crate::storage::tests::first_move("r3"), crate::storage::tests::second_move("r3")];
        db.write(&[Write::Create(r3), take_seat]).unwrap();
        db.write(&moves).unwrap();
        db.db.execute("UPDATE games SET rules = 'size=17' WHERE id = 'r3'", []).unwrap();
        let result =
            GameResult { winner: Some(Seat::First), reason: qi_protocol::EndReason::Resignation };
        db.write(&[Write::Finish { game: "r3".into(), result, clocks: None, unix_ms: 9_000 }])
            .unwrap();
        assert_eq!(games(&mut db), before + 1);
        drop(db);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_database_files_are_made_and_set_0600() {
        use std::os::unix::fs::PermissionsExt;
        let mode = |path: &Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
        let dir = test_dir("modes");
        let path = dir.join("games.sqlite");
        let db = SqliteStorage::open(&path).unwrap();
        for file in ["games.sqlite", "games.sqlite-wal", "games.sqlite-shm"] {
            assert_eq!(mode(&dir.join(file)), 0o600, "{file} when new");
        }
        drop(db);
        // An old install: the database 0644, and so its -wal and -shm (kept by an open
        // connection, as SQLite removes them when the last one closes).
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        let old = Connection::open(&path).unwrap();
        old.query_row("PRAGMA journal_mode = WAL", [], |_| Ok(())).unwrap();
        old.execute_batch("CREATE TABLE scratch (x); INSERT INTO scratch VALUES (1);").unwrap();
        for file in ["games.sqlite", "games.sqlite-wal", "games.sqlite-shm"] {
            assert_eq!(mode(&dir.join(file)), 0o644, "{file} before");
        }
        let _db = SqliteStorage::open(&path).unwrap();
        for file in ["games.sqlite", "games.sqlite-wal", "games.sqlite-shm"] {
            assert_eq!(mode(&dir.join(file)), 0o600, "{file} after");
        }
        drop(old);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
