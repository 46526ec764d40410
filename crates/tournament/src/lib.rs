//! Tournaments for Qi's four games, as pure decisions over typed values: who plays whom next,
//! with which colour, and who stands where.
//!
//! - [`event`]: a tournament as the server runs it — settings, members, the format's state —
//!   moved on by the clock and by finished games, asking for games to start.
//! - [`arena`]: lichess's arena — a timed pool where finished players are paired again at once,
//!   scored by lichess's sheet (wins 2, two wins in a row put a player "on fire" for double
//!   points, berserk's extra point, early draws and draw streaks scoring nothing).
//! - [`swiss`]: rounds paired by FIDE's Dutch system ([`swiss::dutch`]), with byes, late joining,
//!   withdrawals and forbidden pairings; its results written as FIDE's TRF ([`swiss::trf`]).
//! - [`round_robin`]: everyone meets everyone, scheduled by FIDE's Berger tables.
//! - [`spec`]: what a creator asks for (name, start, clock, format, rating bounds, password),
//!   checked field by field.
//! - [`tiebreak`]: Buchholz, Sonneborn–Berger, direct encounter, wins — and each game's customary
//!   order of them.
//!
//! The crate knows no rules of the games and no storage: the server feeds it results and keeps
//! what it decides.

pub mod arena;
pub mod event;
pub mod round_robin;
pub mod spec;
pub mod swiss;
pub mod tiebreak;

use serde::{Deserialize, Serialize};

/// A side of the board: the first player (White in chess, Red in xiangqi, Black in gomoku, the
/// one who turns the first piece in banqi) or the second.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Colour {
    /// The side that moves first.
    White,
    /// The side that moves second.
    Black,
}

impl Colour {
    /// The other side.
    #[must_use]
    pub fn opposite(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }
}

/// How a game ended, for one of its two players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Outcome {
    /// This player won.
    Win,
    /// Neither won.
    Draw,
    /// This player lost.
    Loss,
}

impl Outcome {
    /// What the opponent got from the same game.
    #[must_use]
    pub fn reversed(self) -> Outcome {
        match self {
            Outcome::Win => Outcome::Loss,
            Outcome::Draw => Outcome::Draw,
            Outcome::Loss => Outcome::Win,
        }
    }

    /// The game's points in halves: 2 for a win, 1 for a draw, 0 for a loss (1, ½, 0).
    #[must_use]
    pub fn half_points(self) -> u32 {
        match self {
            Outcome::Win => 2,
            Outcome::Draw => 1,
            Outcome::Loss => 0,
        }
    }
}

/// Which of Qi's four games a tournament plays (for its customary tie-breaks).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Family {
    /// International chess, and its variants.
    Chess,
    /// Xiangqi.
    Xiangqi,
    /// Banqi.
    Banqi,
    /// Gomoku, renju and caro.
    Gomoku,
}
