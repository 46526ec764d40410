//! Games in an SQLite file.
//!
//! # Durability
//! The database runs in WAL mode with `synchronous=FULL`: every commit fsyncs the write-ahead
//! log before it returns, so a move that was acknowledged survives a power cut, not only a
//! crashed or killed server (WAL with `NORMAL` would survive `kill -9` but could lose the last
//! commits when the machine loses power). The cost of one fsync per commit is shared by all the
//! writes waiting at that moment: [`StorageHandle`](super::StorageHandle) commits them together.

use std::path::Path;

use qi_protocol::{ClockSpec, GameResult, GameSpec, Seat};
use rusqlite::{Connection, OptionalExtension, Row, params};

use super::{GameRecord, MoveRecord, Storage, StorageError, StoredGame, Write};

/// The schema; `user_version` 1.
const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    variant TEXT NOT NULL,
    rules TEXT NOT NULL,
    clock_base_secs INTEGER,
    clock_increment_secs INTEGER,
    start TEXT NOT NULL,
    invite TEXT NOT NULL,
    token_first TEXT NOT NULL,
    token_second TEXT NOT NULL,
    name_first TEXT,
    name_second TEXT,
    created_unix_ms INTEGER NOT NULL,
    rematch_of TEXT,
    result TEXT,
    final_first_ms INTEGER,
    final_second_ms INTEGER,
    ended_unix_ms INTEGER
);
CREATE INDEX IF NOT EXISTS games_unfinished ON games (id) WHERE result IS NULL;
CREATE TABLE IF NOT EXISTS moves (
    game TEXT NOT NULL REFERENCES games (id),
    ply INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    text TEXT NOT NULL,
    unix_ms INTEGER NOT NULL,
    remaining_first_ms INTEGER,
    remaining_second_ms INTEGER,
    PRIMARY KEY (game, ply)
) WITHOUT ROWID;
PRAGMA user_version = 1;
";

/// Games in an SQLite database file.
#[derive(Debug)]
pub struct SqliteStorage {
    db: Connection,
}

fn failed(e: rusqlite::Error) -> StorageError {
    StorageError(e.to_string())
}

/// A number as SQLite stores it (values past `i64::MAX` do not occur: they are milliseconds).
fn sql_int(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

fn from_sql_int(n: i64) -> u64 {
    u64::try_from(n).unwrap_or(0)
}

fn seat_number(seat: Seat) -> i64 {
    match seat {
        Seat::First => 0,
        Seat::Second => 1,
    }
}

impl SqliteStorage {
    /// Opens (or creates) the database at `path` and its tables.
    ///
    /// # Errors
    /// [`StorageError`] when the file cannot be opened or set up.
    pub fn open(path: &Path) -> Result<SqliteStorage, StorageError> {
        let db = Connection::open(path).map_err(failed)?;
        // Another process on the same file (a second server by mistake) waits rather than
        // failing at once.
        db.busy_timeout(std::time::Duration::from_secs(5)).map_err(failed)?;
        let mode: String =
            db.query_row("PRAGMA journal_mode = WAL", [], |row| row.get(0)).map_err(failed)?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(StorageError(format!("the database would not use WAL (got {mode})")));
        }
        db.execute_batch("PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;").map_err(failed)?;
        db.execute_batch(SCHEMA).map_err(failed)?;
        Ok(SqliteStorage { db })
    }

    fn apply(tx: &rusqlite::Transaction<'_>, write: &Write) -> rusqlite::Result<()> {
        match write {
            Write::Create(g) => {
                let clock = g.spec.clock;
                tx.prepare_cached(
                    "INSERT INTO games (id, variant, rules, clock_base_secs, clock_increment_secs,
                     start, invite, token_first, token_second, name_first, name_second,
                     created_unix_ms, rematch_of)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
                )?
                .execute(params![
                    g.id,
                    g.spec.variant,
                    g.spec.rules,
                    clock.map(|c| c.base_secs),
                    clock.map(|c| c.increment_secs),
                    g.start,
                    g.invite,
                    g.tokens[0],
                    g.tokens[1],
                    g.names[0],
                    g.names[1],
                    sql_int(g.created_unix_ms),
                    g.rematch_of,
                ])?;
            }
            Write::TakeSeat { game, seat, name } => {
                let sql = match seat {
                    Seat::First => "UPDATE games SET name_first = ?2 WHERE id = ?1",
                    Seat::Second => "UPDATE games SET name_second = ?2 WHERE id = ?1",
                };
                tx.prepare_cached(sql)?.execute(params![game, name])?;
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
            Write::Finish { game, result, clocks, unix_ms } => {
                let result = serde_json::to_string(result).unwrap_or_default();
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
            variant: row.get(1)?,
            rules: row.get(2)?,
            clock: base
                .zip(increment)
                .map(|(base_secs, increment_secs)| ClockSpec { base_secs, increment_secs }),
        },
        start: row.get(5)?,
        invite: row.get(6)?,
        tokens: [row.get(7)?, row.get(8)?],
        names: [row.get(9)?, row.get(10)?],
        created_unix_ms: from_sql_int(row.get(11)?),
        rematch_of: row.get(12)?,
    };
    Ok(StoredGame {
        game,
        moves: Vec::new(),
        result,
        final_clocks: final_first
            .zip(final_second)
            .map(|(a, b)| [from_sql_int(a), from_sql_int(b)]),
    })
}

const GAME_COLUMNS: &str = "id, variant, rules, clock_base_secs, clock_increment_secs, start,
    invite, token_first, token_second, name_first, name_second, created_unix_ms, rematch_of,
    result, final_first_ms, final_second_ms";

impl Storage for SqliteStorage {
    fn write(&mut self, writes: &[Write]) -> Result<(), StorageError> {
        let tx = self.db.transaction().map_err(failed)?;
        for write in writes {
            SqliteStorage::apply(&tx, write).map_err(failed)?;
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
            rows.collect::<rusqlite::Result<Vec<_>>>().map_err(failed)?
        };
        for stored in &mut games {
            stored.moves = self.moves(&stored.game.id).map_err(failed)?;
        }
        Ok(games)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use qi_protocol::EndReason;

    fn record(id: &str) -> GameRecord {
        GameRecord {
            id: id.into(),
            spec: GameSpec {
                variant: "chess".into(),
                rules: String::new(),
                clock: Some(ClockSpec { base_secs: 60, increment_secs: 1 }),
            },
            start: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into(),
            invite: "inv".into(),
            tokens: ["t1".into(), "t2".into()],
            names: [Some("Ann".into()), None],
            created_unix_ms: 5,
            rematch_of: None,
        }
    }

    #[test]
    fn games_moves_and_results_read_back() {
        let dir = std::env::temp_dir().join(format!("qi-sqlite-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("games.sqlite");
        let _ = std::fs::remove_file(&path);
        let mut db = SqliteStorage::open(&path).unwrap();
        let mv = MoveRecord {
            ply: 0,
            seat: Seat::First,
            text: "e2e4".into(),
            unix_ms: 7,
            remaining_ms: Some([60_000, 60_000]),
        };
        db.write(&[
            Write::Create(record("g1")),
            Write::TakeSeat { game: "g1".into(), seat: Seat::Second, name: "Bo".into() },
            Write::Move { game: "g1".into(), mv: mv.clone() },
        ])
        .unwrap();
        db.write(&[Write::Create(record("g2"))]).unwrap();
        // A duplicate ply is refused and the whole batch with it.
        let again = Write::Move { game: "g1".into(), mv: mv.clone() };
        assert!(db.write(&[Write::Create(record("g3")), again]).is_err());
        assert_eq!(db.load("g3").unwrap(), None);

        let result = GameResult { winner: Some(Seat::Second), reason: EndReason::Resignation };
        let finish = Write::Finish {
            game: "g2".into(),
            result: result.clone(),
            clocks: Some([1, 2]),
            unix_ms: 9,
        };
        db.write(&[finish]).unwrap();
        drop(db);

        let mut db = SqliteStorage::open(&path).unwrap();
        let g1 = db.load("g1").unwrap().unwrap();
        assert_eq!(g1.game.names, [Some("Ann".into()), Some("Bo".into())]);
        assert_eq!(g1.moves, vec![mv]);
        assert_eq!(g1.result, None);
        let g2 = db.load("g2").unwrap().unwrap();
        assert_eq!((g2.result, g2.final_clocks), (Some(result), Some([1, 2])));
        let unfinished: Vec<String> =
            db.unfinished().unwrap().into_iter().map(|g| g.game.id).collect();
        assert_eq!(unfinished, vec!["g1".to_owned()]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
