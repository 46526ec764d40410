//! Gomoku rule options: the board size and which lines win.

use std::fmt;
use std::str::FromStr;

use super::opening::OpeningRule;
use crate::core::Side;
use crate::options::{self, RuleDoc, RuleError, RuleSet};

/// Which rows of stones win, and what Black may not play.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "lowercase")
)]
pub enum WinRule {
    /// Five or more in a row wins, for both sides.
    #[default]
    Freestyle,
    /// Exactly five wins; six or more wins nothing, for either side.
    Standard,
    /// Renju: Black wins with exactly five and may not play a double three, a double four or an
    /// overline; White wins with five or more.
    Renju,
    /// Caro (Vietnam's gomoku): five or more in a row wins, for both sides, unless the
    /// opponent's stones close the row at both ends (the board's edge closes nothing).
    Caro,
}

impl WinRule {
    /// All rule sets, the default first.
    pub const ALL: [WinRule; 4] =
        [WinRule::Freestyle, WinRule::Standard, WinRule::Renju, WinRule::Caro];

    /// The name used in `rule=...`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            WinRule::Freestyle => "freestyle",
            WinRule::Standard => "standard",
            WinRule::Renju => "renju",
            WinRule::Caro => "caro",
        }
    }

    /// Whether a run of `length` stones of `side` wins (under caro, when its ends are not both
    /// closed by the opponent: see [`WinRule::Caro`]).
    #[must_use]
    pub const fn wins(self, side: Side, length: usize) -> bool {
        match (self, side) {
            (WinRule::Freestyle | WinRule::Caro, _) | (WinRule::Renju, Side::Second) => length >= 5,
            (WinRule::Standard, _) | (WinRule::Renju, Side::First) => length == 5,
        }
    }
}

impl fmt::Display for WinRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for WinRule {
    type Err = RuleError;
    fn from_str(text: &str) -> Result<WinRule, RuleError> {
        let choices = WinRule::ALL.map(|rule| (rule.name(), rule));
        options::choose("rule", text, &choices)
    }
}

/// The rule options of a gomoku game: `size=15|19|20`, `rule=freestyle|standard|renju|caro`,
/// `opening=none|swap|swap2|soosorv8` (Soosõrv-8 on 15 or 19 only: it needs a centre point).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(remote = "Self", default, deny_unknown_fields)
)]
pub struct GomokuRules {
    /// Points on each side of the board: 15, 19 or 20.
    size: u8,
    /// Which lines win.
    pub rule: WinRule,
    /// Who puts the first stones and then takes which colour.
    pub opening: OpeningRule,
}

#[cfg(feature = "serde")]
crate::options::checked_serde!(GomokuRules);

impl GomokuRules {
    /// Rules with the given win rule on a board of `size` points a side.
    ///
    /// # Errors
    /// [`RuleError::BadValue`] when `size` is not 15, 19 or 20.
    pub fn new(size: u8, rule: WinRule) -> Result<GomokuRules, RuleError> {
        let mut rules = GomokuRules { rule, ..GomokuRules::default() };
        rules.set("size", &size.to_string())?;
        Ok(rules)
    }

    /// Points on each side of the board (15, 19 or 20).
    #[must_use]
    pub const fn size(&self) -> u8 {
        self.size
    }
}

impl Default for GomokuRules {
    fn default() -> Self {
        GomokuRules { size: 15, rule: WinRule::Freestyle, opening: OpeningRule::None }
    }
}

impl RuleSet for GomokuRules {
    const DOCS: &'static [RuleDoc] = &[
        RuleDoc {
            key: "size",
            values: &["15", "19", "20"],
            help: "points on each side of the board",
        },
        RuleDoc {
            key: "rule",
            values: &["freestyle", "standard", "renju", "caro"],
            help: "freestyle: five or more wins; standard: exactly five wins; renju: Black wins \
                   with exactly five and may not make 3-3, 4-4 or six, White wins with five or \
                   more; caro: five or more wins unless the opponent closes both ends",
        },
        RuleDoc {
            key: "opening",
            values: &["none", "swap", "swap2", "soosorv8"],
            help: "none: Black starts; swap: the first player puts three stones, the second \
                   takes a colour; swap2: the first player puts three stones, the second takes a \
                   colour or puts two more and the first takes a colour; soosorv8 (renju's \
                   tournament rule, 15 or 19 only): one of the 26 openings, a colour choice, \
                   White's fourth stone and 1-8 fifth stones declared, a colour choice, Black \
                   offers them and White picks one",
        },
    ];

    fn set(&mut self, key: &str, value: &str) -> Result<(), RuleError> {
        // Set on a copy: a refused value leaves the rules as they were.
        let mut next = *self;
        match key {
            "size" => {
                next.size = options::choose(key, value, &[("15", 15), ("19", 19), ("20", 20)])?;
            }
            "rule" => next.rule = value.parse()?,
            "opening" => next.opening = value.parse()?,
            _ => return Err(options::unknown(key)),
        }
        // Checked whichever of the two comes last in a list.
        if !next.opening.fits(next.size) {
            return Err(RuleError::BadValue {
                key: key.to_owned(),
                value: value.to_owned(),
                expected: format!(
                    "{} starts on the centre point: a 15x15 or 19x19 board, not {size}x{size}",
                    next.opening,
                    size = next.size
                ),
            });
        }
        *self = next;
        Ok(())
    }

    fn pairs(&self) -> Vec<(&'static str, String)> {
        let mut pairs = vec![("size", self.size.to_string()), ("rule", self.rule.to_string())];
        // Written only when there is one: lists (stored games, links, records) from before
        // opening rules stay as they were.
        if self.opening != OpeningRule::None {
            pairs.push(("opening", self.opening.to_string()));
        }
        pairs
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_read_and_write_back() {
        let rules = GomokuRules::parse("rule=renju, size=19").unwrap();
        assert_eq!(rules.size(), 19);
        assert_eq!(rules.rule, WinRule::Renju);
        assert_eq!(GomokuRules::parse(&rules.to_list()).unwrap(), rules);
        assert_eq!(GomokuRules::parse("opening=none").unwrap().to_list(), "size=15,rule=freestyle");
        assert_eq!(
            GomokuRules::parse("opening=swap").unwrap().to_list(),
            "size=15,rule=freestyle,opening=swap"
        );
        assert_eq!(GomokuRules::parse("opening=swap2").unwrap().opening, OpeningRule::Swap2);
        assert!(GomokuRules::parse("size=17").is_err());
        assert!(GomokuRules::parse("size=21").is_err());
        assert_eq!(GomokuRules::parse("size=20,rule=caro").unwrap().size(), 20);
        assert!(GomokuRules::parse("rule=gomoku").is_err());
        assert!(GomokuRules::parse("colour=red").is_err());
        assert!(GomokuRules::new(13, WinRule::Standard).is_err());
        let renju = GomokuRules::parse("rule=renju,opening=soosorv8").unwrap();
        assert_eq!(renju.opening, OpeningRule::Soosorv8);
        assert!(GomokuRules::parse("size=19,opening=soosorv8").is_ok());
        for even in ["size=20,opening=soosorv8", "opening=soosorv8,size=20"] {
            let error = GomokuRules::parse(even).unwrap_err().to_string();
            assert!(error.contains("centre"), "{even}: {error}");
        }
    }

    #[test]
    fn win_lengths_per_rule() {
        use Side::{First as Black, Second as White};
        assert!(WinRule::Freestyle.wins(Black, 6));
        assert!(!WinRule::Standard.wins(White, 6));
        assert!(!WinRule::Renju.wins(Black, 6));
        assert!(WinRule::Renju.wins(White, 6));
        assert!(!WinRule::Freestyle.wins(White, 4));
    }
}
