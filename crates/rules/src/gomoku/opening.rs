//! Opening rules: who places the first stones and who then takes which colour.
//!
//! Freestyle gomoku without an opening rule is a proven win for the first player (Allis, 1994),
//! so tournaments balance the start:
//!
//! - **swap** (PlayOK, Gomocup's swap1 of three stones): the first player puts three stones
//!   (black, white, black); the second player then takes a colour.
//! - **swap2** (Gomocup, most online sites): the first player puts three stones; the second player
//!   takes black, takes white, or puts two more (white, black) and leaves the choice to the first
//!   player, who then takes a colour.
//!
//! The stones' colours alternate as always; the opening only decides which player holds which
//! colour. Seats are [`Side::First`] (the player who put the first stone) and
//! [`Side::Second`]; a colour choice is a move of its own, [`GomokuMove::Take`].

use std::fmt;
use std::str::FromStr;

use crate::core::Side;
use crate::options::{self, RuleError};

#[cfg(doc)]
use super::GomokuMove;

/// Which opening rule the game is played under.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum OpeningRule {
    /// None: Black (the first player) simply starts.
    #[default]
    None,
    /// Three stones by the first player, then the second takes a colour.
    Swap,
    /// Three stones by the first player; the second takes a colour or puts two more, and then
    /// the first takes a colour.
    Swap2,
}

impl OpeningRule {
    /// Every opening rule, the default first.
    pub const ALL: [OpeningRule; 3] = [OpeningRule::None, OpeningRule::Swap, OpeningRule::Swap2];

    /// The name used in `opening=...`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            OpeningRule::None => "none",
            OpeningRule::Swap => "swap",
            OpeningRule::Swap2 => "swap2",
        }
    }
}

impl fmt::Display for OpeningRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for OpeningRule {
    type Err = RuleError;
    fn from_str(text: &str) -> Result<OpeningRule, RuleError> {
        let choices = OpeningRule::ALL.map(|rule| (rule.name(), rule));
        options::choose("opening", text, &choices)
    }
}

/// Where a game stands in its opening.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// The first player puts the first three stones.
    FirstThree,
    /// After three stones the second player takes a colour (swap2: or puts the fourth stone).
    Choose,
    /// Swap2: the second player, having put the fourth stone, puts the fifth.
    Fifth,
    /// Swap2: after five stones the first player takes a colour.
    ChooseAgain,
    /// The opening is over: the holder of the next stone's colour plays.
    Play,
}

impl Phase {
    /// The phase a game under `rule` starts in, on the empty board.
    pub(crate) const fn start(rule: OpeningRule) -> Phase {
        match rule {
            OpeningRule::None => Phase::Play,
            OpeningRule::Swap | OpeningRule::Swap2 => Phase::FirstThree,
        }
    }

    /// The seat that acts in this phase; `None` in play, where the colour decides.
    pub(crate) const fn seat(self) -> Option<Side> {
        match self {
            Phase::FirstThree | Phase::ChooseAgain => Some(Side::First),
            Phase::Choose | Phase::Fifth => Some(Side::Second),
            Phase::Play => None,
        }
    }

    /// Whether a colour may be taken now.
    pub(crate) const fn takes_colour(self) -> bool {
        matches!(self, Phase::Choose | Phase::ChooseAgain)
    }

    /// Whether a stone may be put now under `rule` (not while only a colour choice is due).
    pub(crate) const fn takes_stone(self, rule: OpeningRule) -> bool {
        match self {
            Phase::Choose => matches!(rule, OpeningRule::Swap2),
            Phase::ChooseAgain => false,
            Phase::FirstThree | Phase::Fifth | Phase::Play => true,
        }
    }

    /// The phase after a stone, `stones` being how many stand on the board since the start
    /// (that one included).
    pub(crate) const fn after_stone(self, stones: usize) -> Phase {
        match self {
            Phase::FirstThree if stones >= 3 => Phase::Choose,
            Phase::FirstThree => Phase::FirstThree,
            Phase::Choose => Phase::Fifth,
            Phase::Fifth => Phase::ChooseAgain,
            Phase::ChooseAgain | Phase::Play => Phase::Play,
        }
    }
}

/// The seat that holds black after the seat `chooser` takes `colour` (a colour as a side:
/// [`Side::First`] is black).
pub(crate) const fn black_seat_after(chooser: Side, colour: Side) -> Side {
    match colour {
        Side::First => chooser,
        Side::Second => chooser.other(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_phases_follow_each_rule() {
        assert_eq!(Phase::start(OpeningRule::None), Phase::Play);
        let mut phase = Phase::start(OpeningRule::Swap2);
        for stones in 1..=3 {
            assert_eq!(phase.seat(), Some(Side::First));
            phase = phase.after_stone(stones);
        }
        assert_eq!(phase, Phase::Choose);
        assert!(phase.takes_colour() && phase.takes_stone(OpeningRule::Swap2));
        assert!(!phase.takes_stone(OpeningRule::Swap), "swap: a colour is due, not a stone");
        phase = phase.after_stone(4);
        assert_eq!((phase, phase.seat()), (Phase::Fifth, Some(Side::Second)));
        assert!(!phase.takes_colour());
        phase = phase.after_stone(5);
        assert_eq!((phase, phase.seat()), (Phase::ChooseAgain, Some(Side::First)));
        assert!(!phase.takes_stone(OpeningRule::Swap2));
        assert_eq!(black_seat_after(Side::Second, Side::First), Side::Second);
        assert_eq!(black_seat_after(Side::First, Side::Second), Side::Second);
        assert_eq!("swap2".parse::<OpeningRule>(), Ok(OpeningRule::Swap2));
        assert!("swap3".parse::<OpeningRule>().is_err());
    }
}
