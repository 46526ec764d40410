//! The data directory and the database files are the server's user's alone: made so, and set
//! so at start when an older install left them open to others.

mod common;

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use common::temp_dir;
use qi_server::app::{DATABASE_FILE, open_hub};

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

fn set_mode(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// The database and its `-wal` and `-shm` files (there while the database is open).
fn database_files(data: &Path) -> Vec<std::path::PathBuf> {
    ["", "-wal", "-shm"]
        .iter()
        .map(|suffix| data.join(format!("{DATABASE_FILE}{suffix}")))
        .collect()
}

#[tokio::test]
async fn a_new_data_directory_and_database_are_private() {
    let parent = temp_dir("modes-new");
    let data = parent.join("data");
    let _hub = open_hub(&data).await.unwrap();
    assert_eq!(mode(&data), 0o700);
    for file in database_files(&data) {
        assert_eq!(mode(&file), 0o600, "{}", file.display());
    }
    let _ = std::fs::remove_dir_all(&parent);
}

#[tokio::test]
async fn an_old_install_open_to_others_is_made_private_at_start() {
    let data = temp_dir("modes-old");
    // As an older server left it: the directory 0755, the database 0644.
    set_mode(&data, 0o755);
    std::fs::File::create(data.join(DATABASE_FILE)).unwrap();
    set_mode(&data.join(DATABASE_FILE), 0o644);
    // A connection left open keeps the -wal and -shm files, which SQLite makes with the
    // database's mode.
    let old = rusqlite::Connection::open(data.join(DATABASE_FILE)).unwrap();
    old.query_row("PRAGMA journal_mode = WAL", [], |_| Ok(())).unwrap();
    old.execute_batch("CREATE TABLE scratch (x); INSERT INTO scratch VALUES (1);").unwrap();
    for file in database_files(&data) {
        assert_eq!(mode(&file), 0o644, "{} before", file.display());
    }
    let _hub = open_hub(&data).await.unwrap();
    assert_eq!(mode(&data), 0o700);
    for file in database_files(&data) {
        assert_eq!(mode(&file), 0o600, "{} after", file.display());
    }
    drop(old);
    let _ = std::fs::remove_dir_all(&data);
}
