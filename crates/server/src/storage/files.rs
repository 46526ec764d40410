//! The data directory and the database files readable by the server's user alone: the database
//! holds names and games (and hashes of tokens), nothing other users of the machine need.

use std::fs::{DirBuilder, OpenOptions, Permissions};
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::Path;

use super::StorageError;

/// The mode of the data directory: the owner's alone.
pub const DIR_MODE: u32 = 0o700;
/// The mode of the database and of SQLite's `-wal` and `-shm` files beside it.
pub const FILE_MODE: u32 = 0o600;

fn failed(what: &str, path: &Path, e: &std::io::Error) -> StorageError {
    StorageError::new(format!("cannot {what} {}: {e}", path.display()))
}

/// Creates `dir` (and any missing parents) with mode 0700, or sets an existing one to 0700, so
/// that an install made before the modes were set is fixed at its next start.
///
/// # Errors
/// [`StorageError`] when it cannot be created or its mode set.
pub fn private_dir(dir: &Path) -> Result<(), StorageError> {
    DirBuilder::new()
        .recursive(true)
        .mode(DIR_MODE)
        .create(dir)
        .map_err(|e| failed("create", dir, &e))?;
    // The mode given at creation is cut by the umask, and an existing directory keeps its own.
    std::fs::set_permissions(dir, Permissions::from_mode(DIR_MODE))
        .map_err(|e| failed("set the mode of", dir, &e))
}

/// Creates the file `path` (empty) with mode 0600 if it does not exist, and sets it to 0600
/// either way. Made before SQLite opens the database, so the file is never readable by others,
/// not even for a moment; SQLite gives its `-wal` and `-shm` files the database's mode.
///
/// # Errors
/// [`StorageError`] when it cannot be created or its mode set.
pub fn private_file(path: &Path) -> Result<(), StorageError> {
    OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .mode(FILE_MODE)
        .open(path)
        .map_err(|e| failed("create", path, &e))?;
    std::fs::set_permissions(path, Permissions::from_mode(FILE_MODE))
        .map_err(|e| failed("set the mode of", path, &e))
}

/// Sets `path` to 0600 if it exists (SQLite's `-wal` and `-shm` files come and go).
///
/// # Errors
/// [`StorageError`] when it exists and its mode cannot be set.
pub(super) fn private_if_there(path: &Path) -> Result<(), StorageError> {
    match std::fs::set_permissions(path, Permissions::from_mode(FILE_MODE)) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(failed("set the mode of", path, &e))
        }
        _ => Ok(()),
    }
}
