//! The rules of Qi's four games — chess, xiangqi, banqi and gomoku — behind one [`Game`] trait.
//!
//! No web, no async, no I/O: this crate builds for `wasm32-unknown-unknown` and natively, and is
//! shared by the browser app, the AI, the `qi` command line and the online-play server.
//!
//! ```
//! use qi_rules::{Game, IllegalReason, MoveError, xiangqi::Xiangqi};
//!
//! let mut game = Xiangqi::start(&Default::default(), 0);
//! let central_cannon = game.read_move("h3e3").unwrap();
//! assert_eq!(game.move_notation(central_cannon), "C2=5");
//! game.apply(central_cannon).unwrap();
//!
//! game.apply(game.read_move("h10g8").unwrap()).unwrap();
//!
//! // A soldier may not retreat, and the error says so.
//! match game.read_move("c4c3") {
//!     Err(MoveError::Illegal(e)) => assert_eq!(e.reason, IllegalReason::SoldierCannotRetreat),
//!     other => panic!("{other:?}"),
//! }
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod any;
pub mod banqi;
pub mod chess;
mod core;
pub mod gomoku;
pub mod options;
pub mod xiangqi;
pub mod zobrist;

pub use crate::core::*;
pub use crate::options::{RuleDoc, RuleError, RuleSet};
