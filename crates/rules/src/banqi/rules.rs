//! Banqi rule options: rank order, chain captures, chariot rush, capturing face-down pieces and
//! the no-progress draw count.

use std::fmt;

use crate::options::{RuleDoc, RuleError, RuleSet, choose, flag, number_in, unknown};

/// Which rank order (and cannon rule) is played.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "lowercase")
)]
pub enum RankOrder {
    /// General > advisor > elephant > chariot > horse > cannon > soldier; the cannon captures
    /// only by jumping a screen, never by an adjacent step.
    #[default]
    Taiwan,
    /// General > chariot > advisor > elephant > horse > cannon > soldier (the chariot is second);
    /// the cannon may also capture by an adjacent step, by rank, as the other pieces do.
    HongKong,
}

impl RankOrder {
    /// Both orders, the default first.
    pub const ALL: [RankOrder; 2] = [RankOrder::Taiwan, RankOrder::HongKong];

    /// The value written in `ranks=...`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            RankOrder::Taiwan => "taiwan",
            RankOrder::HongKong => "hongkong",
        }
    }
}

impl fmt::Display for RankOrder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The rule options of a banqi game; `BanqiRules::default()` is the Taiwan game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(remote = "Self", default, deny_unknown_fields)
)]
pub struct BanqiRules {
    /// The rank order and cannon rule.
    pub ranks: RankOrder,
    /// Chain captures: after a capture the same piece may go on capturing in the same turn.
    pub chain: bool,
    /// Chariot rush: the chariot moves and captures any distance along a clear rank or file.
    pub rush: bool,
    /// The cannon's jump may capture a face-down piece (of either colour, unseen).
    pub capture_hidden: bool,
    /// Plies without a flip or capture after which the game is drawn.
    pub draw: u32,
}

#[cfg(feature = "serde")]
crate::options::checked_serde!(BanqiRules);

impl BanqiRules {
    /// The default no-progress draw count.
    pub const DEFAULT_DRAW: u32 = 40;
    /// The smallest and largest allowed draw counts.
    pub const DRAW_RANGE: std::ops::RangeInclusive<u32> = 10..=1000;
}

impl Default for BanqiRules {
    fn default() -> Self {
        BanqiRules {
            ranks: RankOrder::Taiwan,
            chain: false,
            rush: false,
            capture_hidden: false,
            draw: Self::DEFAULT_DRAW,
        }
    }
}

impl RuleSet for BanqiRules {
    const DOCS: &'static [RuleDoc] = &[
        RuleDoc {
            key: "ranks",
            values: &["taiwan", "hongkong"],
            help: "rank order: taiwan (general, advisor, elephant, chariot, horse, cannon, \
                   soldier; the cannon captures only by jumping) or hongkong (the chariot ranks \
                   second, and the cannon may also capture an adjacent piece by rank)",
        },
        RuleDoc {
            key: "chain",
            values: &["false", "true"],
            help: "chain captures: after a capture the same piece may capture again in the same \
                   turn, or end the turn with `stop`",
        },
        RuleDoc {
            key: "rush",
            values: &["false", "true"],
            help: "chariot rush: the chariot moves and captures any distance along a clear line",
        },
        RuleDoc {
            key: "capture_hidden",
            values: &["false", "true"],
            help: "the cannon's jump may capture a face-down piece of either colour, unseen",
        },
        RuleDoc {
            key: "draw",
            values: &["40", "10-1000"],
            help: "plies without a flip or a capture after which the game is drawn",
        },
    ];

    fn set(&mut self, key: &str, value: &str) -> Result<(), RuleError> {
        match key {
            "ranks" => {
                self.ranks = choose(
                    key,
                    value,
                    &[("taiwan", RankOrder::Taiwan), ("hongkong", RankOrder::HongKong)],
                )?;
            }
            "chain" => self.chain = flag(key, value)?,
            "rush" => self.rush = flag(key, value)?,
            "capture_hidden" => self.capture_hidden = flag(key, value)?,
            "draw" => self.draw = number_in(key, value, Self::DRAW_RANGE)?,
            _ => return Err(unknown(key)),
        }
        Ok(())
    }

    fn pairs(&self) -> Vec<(&'static str, String)> {
        vec![
            ("ranks", self.ranks.to_string()),
            ("chain", self.chain.to_string()),
            ("rush", self.rush.to_string()),
            ("capture_hidden", self.capture_hidden.to_string()),
            ("draw", self.draw.to_string()),
        ]
    }
}
