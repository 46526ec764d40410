//! Banqi (暗棋, dark chess): half a xiangqi set dealt face down on a 4 x 8 board.
//!
//! # Rules
//! 32 pieces (per colour 1 general, 2 advisors, 2 elephants, 2 chariots, 2 horses, 2 cannons,
//! 5 soldiers) are dealt face down on `a1`-`h4` by a seeded shuffle ([`deal`]). A turn is one of:
//! - **flip** a face-down piece (either colour). The first flip of the game gives the flipper
//!   (normally [`Side::First`]) that piece's colour; the other side gets the other colour;
//! - **move** one of your face-up pieces one step orthogonally to an empty square;
//! - **capture** an enemy face-up piece one step away whose rank is equal or lower. The soldier
//!   captures the general, and the general cannot capture the soldier. The cannon captures by
//!   jumping exactly one piece (face up or down, either colour) along a rank or file, any
//!   distance, whatever the rank of its victim; under Taiwan rules it cannot capture by a step.
//!
//! You win when the opponent has no pieces left ([`EndReason::NoPieces`]) or is to move with no
//! legal action ([`EndReason::NoLegalMoves`]). After `draw` plies (default 40) with no flip and no
//! capture the game is drawn ([`EndReason::NoProgress`]).
//!
//! # Rule options ([`BanqiRules`], `key=value`)
//! - `ranks=taiwan|hongkong`: Taiwan order general > advisor > elephant > chariot > horse >
//!   cannon > soldier. Hong Kong rules rank the chariot second (general > chariot > advisor >
//!   elephant > horse > cannon > soldier), and there the cannon, besides its jump, may capture an
//!   adjacent piece by rank like every other piece.
//! - `chain=false|true`: after a capture, if the capturing piece can capture again, the same side
//!   stays to move and may only make another capture with that piece or play `stop` to end the
//!   turn. Each capture of a chain is its own ply in the history; the chain's piece is part of
//!   the position (and of the hash). With no further capture the turn passes by itself.
//! - `rush=false|true`: the chariot moves any distance along a clear rank or file, and captures
//!   (by rank) the first piece it meets; a piece between gives [`IllegalReason::PathBlocked`].
//! - `capture_hidden=false|true`: the cannon's jump may also capture a face-down piece, of
//!   either colour (a gamble: it may be one of yours). Only the cannon, because its capture does
//!   not depend on rank, so the legal moves never depend on a face-down piece's identity. The
//!   captured piece is revealed as it leaves the board. Step and rush captures never take
//!   face-down pieces ([`IllegalReason::CannotCaptureFaceDown`]).
//! - `draw=40`: the no-progress count in plies, 10 to 1000.
//!
//! # Unknown face-down pieces
//! A face-down square is either known ([`Square::Hidden`]) or unknown ([`Square::Unknown`]), as
//! an online client sees it; [`Banqi::conceal`] erases every identity (what a server sends). The
//! pieces behind the `?` squares are kept as counts (the pool, [`Banqi::unknown_pool`]). Flipping
//! or (with `capture_hidden`) capturing an unknown piece is legal, but [`Game::apply`] refuses it
//! with [`IllegalReason::FlipResultUnknown`]: [`Banqi::apply_revealing`] (or
//! [`Banqi::apply_flip`]) supplies the identity, refused with
//! [`IllegalReason::FlipResultImpossible`] if no such piece is left in the pool.
//! [`Game::play_unchecked`] of such a move leaves the square unknown (search should not do it).
//! The hash and the legal moves never depend on face-down identities.
//!
//! # Position string
//! Six fields separated by spaces. The deal of seed 0 is
//! `*R*b*B*C*B*p*K*P/*N*n*p*c*P*k*p*r/*P*P*C*N*a*b*p*P/*R*p*n*r*a*A*A*c 1 - 0 - -`; 14 plies
//! later, `R*b*B*C*B*p*KP/Nn*pcP*kp*r/PP*CN*a*b*p*P/1R*n*r*aA*A*c 1 r 0 - -`, which a client
//! sees as `R??????P/Nn?cP?p?/PP?N????/1R???A?? 1 r 0 KABBCCPkaabbrrncppp -`.
//! 1. the board, ranks 4 to 1 separated by `/`, files a to h: a digit 1-8 for that many empty
//!    squares, a face-up piece as a letter `K A B R N C P` (general, advisor, elephant, chariot,
//!    horse, cannon, soldier; red upper case, black lower case), a known face-down piece as `*`
//!    and its letter (`*K`), an unknown face-down piece as `?`;
//! 2. the side to move, `1` (first) or `2` (second);
//! 3. the first player's colour, `r` or `b`, or `-` before the first flip (the second player has
//!    the other colour);
//! 4. the plies since the last flip or capture;
//! 5. the pieces behind the `?` squares, as letters sorted in the order above (red first), or
//!    `-`; there must be exactly one per `?`;
//! 6. the square of the piece in the middle of a chain capture, or `-`.
//!
//! Fields 5 and 6 may be left out when they are `-`.
//!
//! # Move notation
//! A flip is the square, `c3`; a move `c3-c4`; a capture `c3xc4` (`-`, `x` or nothing between
//! the squares are all read); ending a chain capture `stop`. [`Game::move_text`] writes `c3-c4`
//! for every step, [`Game::move_notation`] writes `c3xc4` for a capture.
//!
//! # Deals
//! [`Game::start`] with a seed deals by SplitMix64 and Fisher-Yates, the same on every platform.
//! `qi play banqi startpos` means seed 0; another deal is asked for as `startpos:<seed>`.

mod moves;
mod notation;
mod rules;
mod state;
#[cfg(test)]
mod tests;

use std::fmt;

use crate::core::{Cell, Side};
#[cfg(doc)]
use crate::core::{EndReason, Game, IllegalReason};

pub use rules::{BanqiRules, RankOrder};
pub use state::{Banqi, deal};

/// Board width (files a-h).
pub const FILES: u8 = 8;
/// Board height (ranks 1-4).
pub const RANKS: u8 = 4;
/// Number of squares.
pub const SQUARES: usize = 32;

/// The colour of a piece; the first flip decides which one each side plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Colour {
    /// Red, written in upper case.
    Red,
    /// Black, written in lower case.
    Black,
}

impl Colour {
    /// Both colours.
    pub const ALL: [Colour; 2] = [Colour::Red, Colour::Black];

    /// The other colour.
    #[must_use]
    pub const fn other(self) -> Colour {
        match self {
            Colour::Red => Colour::Black,
            Colour::Black => Colour::Red,
        }
    }

    /// 0 for red, 1 for black.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Colour::Red => "red",
            Colour::Black => "black",
        })
    }
}

/// The kind of a piece, highest Taiwan rank first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// General (帥/將), `K`.
    General,
    /// Advisor (仕/士), `A`.
    Advisor,
    /// Elephant (相/象), `B`.
    Elephant,
    /// Chariot (俥/車), `R`.
    Chariot,
    /// Horse (傌/馬), `N`.
    Horse,
    /// Cannon (炮/包), `C`.
    Cannon,
    /// Soldier (兵/卒), `P`.
    Soldier,
}

impl Role {
    /// All seven, in letter order `K A B R N C P`.
    pub const ALL: [Role; 7] = [
        Role::General,
        Role::Advisor,
        Role::Elephant,
        Role::Chariot,
        Role::Horse,
        Role::Cannon,
        Role::Soldier,
    ];

    /// The upper-case letter.
    #[must_use]
    pub const fn letter(self) -> char {
        match self {
            Role::General => 'K',
            Role::Advisor => 'A',
            Role::Elephant => 'B',
            Role::Chariot => 'R',
            Role::Horse => 'N',
            Role::Cannon => 'C',
            Role::Soldier => 'P',
        }
    }

    /// How many of this role each colour has.
    #[must_use]
    pub const fn count(self) -> u8 {
        match self {
            Role::General => 1,
            Role::Soldier => 5,
            _ => 2,
        }
    }

    /// Capture strength under `order`: a piece captures pieces of equal or lower rank (apart
    /// from the general and soldier exception).
    #[must_use]
    pub const fn rank(self, order: RankOrder) -> u8 {
        match (order, self) {
            (_, Role::General) => 7,
            (RankOrder::Taiwan, Role::Advisor) | (RankOrder::HongKong, Role::Chariot) => 6,
            (RankOrder::Taiwan, Role::Elephant) | (RankOrder::HongKong, Role::Advisor) => 5,
            (RankOrder::Taiwan, Role::Chariot) | (RankOrder::HongKong, Role::Elephant) => 4,
            (_, Role::Horse) => 3,
            (_, Role::Cannon) => 2,
            (_, Role::Soldier) => 1,
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// A piece: a colour and a role.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Piece {
    /// Its colour.
    pub colour: Colour,
    /// Its role.
    pub role: Role,
}

impl Piece {
    /// All 14 pieces, red first, each colour in letter order; [`Piece::index`] is the position.
    pub const ALL: [Piece; 14] = {
        let mut all = [Piece { colour: Colour::Red, role: Role::General }; 14];
        let mut i = 0;
        while i < 14 {
            let colour = if i < 7 { Colour::Red } else { Colour::Black };
            all[i] = Piece { colour, role: Role::ALL[i % 7] };
            i += 1;
        }
        all
    };

    /// A piece of `colour` and `role`.
    #[must_use]
    pub const fn new(colour: Colour, role: Role) -> Piece {
        Piece { colour, role }
    }

    /// 0-13: red pieces 0-6, black 7-13, each in letter order.
    #[must_use]
    pub const fn index(self) -> usize {
        self.colour.index() * 7 + self.role as usize
    }

    /// The letter: upper case for red, lower case for black.
    #[must_use]
    pub const fn letter(self) -> char {
        let upper = self.role.letter();
        match self.colour {
            Colour::Red => upper,
            Colour::Black => upper.to_ascii_lowercase(),
        }
    }

    /// The piece written as `letter`, if any.
    #[must_use]
    pub fn from_letter(letter: char) -> Option<Piece> {
        Piece::ALL.into_iter().find(|piece| piece.letter() == letter)
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// What a square holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Square {
    /// Nothing.
    #[default]
    Empty,
    /// A face-up piece.
    FaceUp(Piece),
    /// A face-down piece whose identity this state knows.
    Hidden(Piece),
    /// A face-down piece whose identity this state does not know (a client's view).
    Unknown,
}

impl Square {
    /// Whether a piece (face up or down) stands here.
    #[must_use]
    pub const fn is_occupied(self) -> bool {
        !matches!(self, Square::Empty)
    }

    /// Whether a face-down piece (known or not) stands here.
    #[must_use]
    pub const fn is_face_down(self) -> bool {
        matches!(self, Square::Hidden(_) | Square::Unknown)
    }
}

/// One banqi action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BanqiMove {
    /// Turn the face-down piece on this square face up.
    Flip(Cell),
    /// Move a face-up piece, or capture with it.
    Step {
        /// Where the piece stands.
        from: Cell,
        /// Where it goes (empty, or the captured piece's square).
        to: Cell,
    },
    /// End a chain capture (with `chain=true`) instead of capturing again.
    Stop,
}

/// Written as [`Game::move_text`] writes it (`c3`, `c3-c4`, `stop`): the text depends on the move
/// alone, like the other games' moves, so a move can be printed without its game.
impl fmt::Display for BanqiMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text(false))
    }
}

/// Whether `cell` is on the 8 x 4 board.
#[must_use]
pub const fn on_board(cell: Cell) -> bool {
    cell.file < FILES && cell.rank < RANKS
}

/// The board index of an on-board cell (rank * 8 + file).
pub(crate) const fn index_of(cell: Cell) -> usize {
    cell.rank as usize * FILES as usize + cell.file as usize
}

/// The cell of a board index below 32.
pub(crate) const fn cell_of(index: usize) -> Cell {
    Cell::new((index % FILES as usize) as u8, (index / FILES as usize) as u8)
}

/// The colour `side` plays, given the first player's colour.
pub(crate) const fn colour_of(side: Side, first: Colour) -> Colour {
    match side {
        Side::First => first,
        Side::Second => first.other(),
    }
}
