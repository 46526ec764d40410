//! A game as a player keeps it, beside the rules: the moves as a tree (the main line and its
//! variations, to any depth), comments before and after moves, move and position marks, and
//! arrows and circles drawn on the board; the game record that holds the tree
//! ([`record::GameRecord`]), the record formats players exchange ([`records`]: PGN with
//! variations and lichess's commands, WXF and Chinese xiangqi notation, FEN, gomoku and banqi
//! records), the game in a link ([`link`]) and the names of chess and xiangqi openings
//! ([`openings`]). Pure Rust, no web, no I/O: the app, the worker and the command line share
//! it.
//!
//! Moves are kept in coordinate notation (what [`qi_rules::any::AnyGame::play`] takes); whether
//! they are legal is the rules' business when a line is replayed.

pub mod decimal;
pub mod link;
pub mod mark;
pub mod movetext;
pub mod openings;
pub mod puzzle;
pub mod record;
pub mod records;
pub mod shape;
pub mod sparse;
pub mod tree;

pub use mark::{Mark, MarkKind};
pub use openings::{BookError, Opening, OpeningBook};
pub use shape::{Brush, Shape};
pub use sparse::Sparse;
pub use tree::{Line, Path};
