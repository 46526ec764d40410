//! What each game adds to the records all four share.
//!
//! The PGN syntax, the move tree, comments, marks, arrows and the move numbers are common
//! ([`pgn`](super::pgn), [`reader`](super::reader)); what differs is how a move word is read,
//! which tags describe the game, what a record without a position starts from and, in banqi,
//! the piece each flip turned up. Each game's module implements [`Dialect`] for that, and
//! [`for_game`](super::for_game) picks one. The import loop (`import.rs`) walks the record and
//! hands each move word to the dialect, which plays it into the [`Reader`]; the reader knows no
//! game and no dialect (it never calls one), so a new game adds a dialect and nothing else.

use qi_rules::any::AnyGame;

use super::error::{Pos, RecordError};
use super::reader::Reader;
use crate::record::{GameRecord, Start};

/// One game's part in reading and writing records. A dialect used for reading is made for one
/// record and may keep what that record taught it (banqi: the pieces its flips turned up).
pub(crate) trait Dialect {
    /// Reads one move word of the record (the game's notation, coordinates, or what the game's
    /// programs write) and plays it into `reader`.
    ///
    /// # Errors
    /// The word does not read or is not legal; at `pos`.
    fn read_word(&mut self, reader: &mut Reader, pos: Pos, word: &str) -> Result<(), RecordError>;

    /// A variation begins: what [`read_word`](Dialect::read_word) learns from here on belongs
    /// to it until [`leave_variation`](Dialect::leave_variation).
    fn enter_variation(&mut self) {}

    /// The variation begun last ends: forget what it taught.
    fn leave_variation(&mut self) {}

    /// The start a record with no position tag begins from, under `rules` (canonical).
    fn default_start(&self, _rules: &str) -> Start {
        Start::Seed(0)
    }

    /// The start the imported record keeps, once its moves are read: `start` as the tags gave
    /// it, completed with what the moves showed (banqi: the deal's unknown squares).
    fn finish_start(&self, start: Start, _rules: &str) -> Start {
        start
    }

    /// The tags that describe a record's game (variant, position, rules), from its `start`.
    fn describing_tags(&self, record: &GameRecord, start: &AnyGame) -> Vec<(String, String)>;

    /// What a record writes right after the move `coordinates`, played from `before` (banqi:
    /// `=R`, the piece a flip turned up); nothing in the other games.
    fn after_move(&self, _before: &AnyGame, _coordinates: &str) -> String {
        String::new()
    }
}
