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
//! - **soosorv8** (Soosõrv-8, the Renju International Federation's opening rule for the World
//!   Championship since 2017): the first player puts one of the 26 openings (the first stone on
//!   the centre, the second within the 3×3 square around it, the third within the 5×5); the
//!   second player takes a colour. White puts the fourth stone anywhere and declares how many
//!   fifth stones Black will offer (1 to 8, [`GomokuMove::Declare`]); Black's holder may then
//!   take the other colour. Black offers that many fifth stones ([`GomokuMove::Offer`]), no two
//!   of them alike by the board's symmetry; White chooses one of them (a stone on it) and
//!   plays the sixth. The board needs a centre, so the rule is played on 15×15 and 19×19.
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
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "lowercase")
)]
pub enum OpeningRule {
    /// None: Black (the first player) simply starts.
    #[default]
    None,
    /// Three stones by the first player, then the second takes a colour.
    Swap,
    /// Three stones by the first player; the second takes a colour or puts two more, and then
    /// the first takes a colour.
    Swap2,
    /// Soosõrv-8, renju's tournament opening: one of the 26 openings, a colour choice, White's
    /// fourth stone and declared number of fifth-stone offers, a second colour choice, Black's
    /// offers and White's pick among them.
    Soosorv8,
}

/// The most fifth stones Soosõrv-8 lets White ask Black to offer.
pub const MAX_OFFERS: u8 = 8;

impl OpeningRule {
    /// Every opening rule, the default first.
    pub const ALL: [OpeningRule; 4] =
        [OpeningRule::None, OpeningRule::Swap, OpeningRule::Swap2, OpeningRule::Soosorv8];

    /// The name used in `opening=...`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            OpeningRule::None => "none",
            OpeningRule::Swap => "swap",
            OpeningRule::Swap2 => "swap2",
            OpeningRule::Soosorv8 => "soosorv8",
        }
    }

    /// Whether the rule can be played on a board of `size` points a side: Soosõrv-8 starts on
    /// the centre point, which an even board lacks.
    #[must_use]
    pub const fn fits(self, size: u8) -> bool {
        !matches!(self, OpeningRule::Soosorv8) || size % 2 == 1
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
    /// Soosõrv-8: White's holder puts the fourth stone, anywhere.
    Fourth,
    /// Soosõrv-8: White's holder declares how many fifth stones Black offers.
    Declare,
    /// Soosõrv-8: Black's holder may take the other colour.
    ChooseAfterFourth,
    /// Soosõrv-8: Black's holder offers the declared number of fifth stones.
    Offer,
    /// Soosõrv-8: White's holder picks one of the offered fifth stones.
    Select,
    /// The opening is over: the holder of the next stone's colour plays.
    Play,
}

/// Who acts in a phase: a seat named by the phase, or the holder of a colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Actor {
    /// This seat, whatever colour it holds.
    Seat(Side),
    /// The seat holding this colour ([`Side::First`] black).
    Holder(Side),
}

impl Phase {
    /// The phase a game under `rule` starts in, on the empty board.
    pub(crate) const fn start(rule: OpeningRule) -> Phase {
        match rule {
            OpeningRule::None => Phase::Play,
            OpeningRule::Swap | OpeningRule::Swap2 | OpeningRule::Soosorv8 => Phase::FirstThree,
        }
    }

    /// Who acts in this phase: in play, the holder of the next stone's colour.
    pub(crate) const fn actor(self, colour_to_move: Side) -> Actor {
        match self {
            Phase::FirstThree | Phase::ChooseAgain => Actor::Seat(Side::First),
            Phase::Choose | Phase::Fifth => Actor::Seat(Side::Second),
            Phase::Fourth | Phase::Declare | Phase::Select => Actor::Holder(Side::Second),
            Phase::ChooseAfterFourth | Phase::Offer => Actor::Holder(Side::First),
            Phase::Play => Actor::Holder(colour_to_move),
        }
    }

    /// Whether a colour may be taken now.
    pub(crate) const fn takes_colour(self) -> bool {
        matches!(self, Phase::Choose | Phase::ChooseAgain | Phase::ChooseAfterFourth)
    }

    /// Whether a stone may be put now under `rule` (not while only a colour choice, a
    /// declaration or an offer is due; in [`Phase::Select`] only on an offered point).
    pub(crate) const fn takes_stone(self, rule: OpeningRule) -> bool {
        match self {
            Phase::Choose => matches!(rule, OpeningRule::Swap2),
            Phase::ChooseAgain | Phase::Declare | Phase::ChooseAfterFourth | Phase::Offer => false,
            Phase::FirstThree | Phase::Fifth | Phase::Fourth | Phase::Select | Phase::Play => true,
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
            Phase::Fourth => Phase::Declare,
            Phase::ChooseAgain
            | Phase::Declare
            | Phase::ChooseAfterFourth
            | Phase::Offer
            | Phase::Select
            | Phase::Play => Phase::Play,
        }
    }

    /// The phase after a colour is taken under `rule`.
    pub(crate) const fn after_take(self, rule: OpeningRule) -> Phase {
        match (self, rule) {
            (Phase::Choose, OpeningRule::Soosorv8) => Phase::Fourth,
            (Phase::ChooseAfterFourth, _) => Phase::Offer,
            _ => Phase::Play,
        }
    }
}

/// Soosõrv-8: how far (in points, along files and ranks) the `nth` opening stone (from 1)
/// may stand from the centre: the 26 openings put the second stone within the 3×3 square and
/// the third within the 5×5.
pub(crate) const fn opening_reach(nth: usize) -> usize {
    nth.saturating_sub(1)
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
            assert_eq!(phase.actor(Side::First), Actor::Seat(Side::First));
            phase = phase.after_stone(stones);
        }
        assert_eq!(phase, Phase::Choose);
        assert!(phase.takes_colour() && phase.takes_stone(OpeningRule::Swap2));
        assert!(!phase.takes_stone(OpeningRule::Swap), "swap: a colour is due, not a stone");
        phase = phase.after_stone(4);
        assert_eq!((phase, phase.actor(Side::Second)), (Phase::Fifth, Actor::Seat(Side::Second)));
        assert!(!phase.takes_colour());
        phase = phase.after_stone(5);
        assert_eq!(
            (phase, phase.actor(Side::First)),
            (Phase::ChooseAgain, Actor::Seat(Side::First))
        );
        assert!(!phase.takes_stone(OpeningRule::Swap2));
        assert_eq!(black_seat_after(Side::Second, Side::First), Side::Second);
        assert_eq!(black_seat_after(Side::First, Side::Second), Side::Second);
        assert_eq!("swap2".parse::<OpeningRule>(), Ok(OpeningRule::Swap2));
        assert!("swap3".parse::<OpeningRule>().is_err());
    }

    #[test]
    fn soosorv8_phases_alternate_the_colour_holders() {
        let rule = OpeningRule::Soosorv8;
        let mut phase = Phase::start(rule);
        for stones in 1..=3 {
            phase = phase.after_stone(stones);
        }
        assert_eq!(phase, Phase::Choose);
        assert!(!phase.takes_stone(rule), "Soosõrv-8: a colour, not a fourth stone");
        phase = phase.after_take(rule);
        assert_eq!(
            (phase, phase.actor(Side::Second)),
            (Phase::Fourth, Actor::Holder(Side::Second))
        );
        phase = phase.after_stone(4);
        assert_eq!(phase, Phase::Declare);
        assert!(!phase.takes_stone(rule) && !phase.takes_colour());
        assert_eq!(phase.after_take(rule), Phase::Play, "a declaration moves on by itself");
        assert_eq!(Phase::ChooseAfterFourth.after_take(rule), Phase::Offer);
        assert_eq!(Phase::Offer.actor(Side::First), Actor::Holder(Side::First));
        assert_eq!(Phase::Select.after_stone(5), Phase::Play);
        assert!(OpeningRule::Soosorv8.fits(15) && !OpeningRule::Soosorv8.fits(20));
        assert!(OpeningRule::Swap2.fits(20));
        assert_eq!((opening_reach(1), opening_reach(3)), (0, 2));
    }
}
