//! Rule options as data: every game's options read from and written to `key=value` pairs, so they
//! can be given on the command line (`--rules rule=renju,size=19`), kept with a game and put in links.

use std::fmt;

/// One rule option, for help texts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleDoc {
    /// The key, as written in `key=value`.
    pub key: &'static str,
    /// The values it takes, the default first; a range of numbers is written `10-1000`.
    pub values: &'static [&'static str],
    /// What it means.
    pub help: &'static str,
}

/// A rule option that could not be set.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum RuleError {
    /// No option has that key in this game.
    UnknownKey {
        /// The key.
        key: String,
    },
    /// The option exists but does not take that value.
    BadValue {
        /// The key.
        key: String,
        /// The refused value.
        value: String,
        /// The values it takes.
        expected: String,
    },
    /// An item of the list is not `key=value`.
    Syntax {
        /// The item.
        item: String,
    },
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuleError::UnknownKey { key } => write!(f, "unknown rule option {key:?}"),
            RuleError::BadValue { key, value, expected } => {
                write!(f, "rule option {key} cannot be {value:?} (expected {expected})")
            }
            RuleError::Syntax { item } => write!(f, "rule option {item:?} is not key=value"),
        }
    }
}

impl std::error::Error for RuleError {}

/// Rule options of one game.
pub trait RuleSet: Clone + fmt::Debug + Default + PartialEq + Eq {
    /// The options this game has, for help texts.
    const DOCS: &'static [RuleDoc];

    /// Sets one option.
    ///
    /// # Errors
    /// [`RuleError::UnknownKey`] or [`RuleError::BadValue`].
    fn set(&mut self, key: &str, value: &str) -> Result<(), RuleError>;

    /// Every option and its value, in the order of [`DOCS`](RuleSet::DOCS).
    fn pairs(&self) -> Vec<(&'static str, String)>;

    /// Reads a comma-separated `key=value` list over the defaults. An empty list gives the
    /// defaults.
    ///
    /// # Errors
    /// The first option that could not be set.
    fn parse(list: &str) -> Result<Self, RuleError> {
        let mut rules = Self::default();
        for item in list.split(',').map(str::trim).filter(|item| !item.is_empty()) {
            let Some((key, value)) = item.split_once('=') else {
                return Err(RuleError::Syntax { item: shorten(item) });
            };
            rules.set(key.trim(), value.trim())?;
        }
        Ok(rules)
    }

    /// Writes the options as a `key=value` list that [`parse`](RuleSet::parse) reads back.
    fn to_list(&self) -> String {
        self.pairs().iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(",")
    }
}

/// Reads a value that must be one of `choices`.
///
/// # Errors
/// [`RuleError::BadValue`] naming the choices.
pub fn choose<T: Copy>(key: &str, value: &str, choices: &[(&str, T)]) -> Result<T, RuleError> {
    choices.iter().find(|(name, _)| *name == value).map(|&(_, v)| v).ok_or_else(|| {
        RuleError::BadValue {
            key: key.to_owned(),
            value: shorten(value),
            expected: choices.iter().map(|(name, _)| *name).collect::<Vec<_>>().join(" or "),
        }
    })
}

/// Reads a whole number within `range`.
///
/// # Errors
/// [`RuleError::BadValue`] naming the range.
pub fn number_in(
    key: &str,
    value: &str,
    range: std::ops::RangeInclusive<u32>,
) -> Result<u32, RuleError> {
    value.parse::<u32>().ok().filter(|n| range.contains(n)).ok_or_else(|| RuleError::BadValue {
        key: key.to_owned(),
        value: shorten(value),
        expected: format!("a number from {} to {}", range.start(), range.end()),
    })
}

/// Reads `true`/`false` (also `on`/`off`, `yes`/`no`, `1`/`0`).
///
/// # Errors
/// [`RuleError::BadValue`].
pub fn flag(key: &str, value: &str) -> Result<bool, RuleError> {
    choose(
        key,
        value,
        &[
            ("true", true),
            ("false", false),
            ("on", true),
            ("off", false),
            ("yes", true),
            ("no", false),
            ("1", true),
            ("0", false),
        ],
    )
}

/// Unknown-key error for `key`.
#[must_use]
pub fn unknown(key: &str) -> RuleError {
    RuleError::UnknownKey { key: shorten(key) }
}

/// Cuts untrusted text to a length fit for an error message.
#[must_use]
pub fn shorten(text: &str) -> String {
    const MAX: usize = 40;
    if text.len() <= MAX {
        return text.to_owned();
    }
    let mut end = MAX;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}...", &text[..end])
}

/// `rules` when writing them out and reading them back gives the same rules: every value is one
/// the text reader takes (a size of 15, 19 or 20; counts in their ranges) and the options go
/// together. What serde reads is checked by this, so a value arrives only as the text would.
///
/// # Errors
/// What the text reader says is wrong.
#[cfg(feature = "serde")]
pub(crate) fn checked<R: RuleSet>(rules: R) -> Result<R, String> {
    match R::parse(&rules.to_list()) {
        Ok(back) if back == rules => Ok(rules),
        Ok(_) => Err(format!("rule options {} do not go together", rules.to_list())),
        Err(error) => Err(error.to_string()),
    }
}

/// Serde for a game's rule set, whose derive is `remote = "Self"` (its fields' names and
/// forms): written as derived, read as derived and then [`checked`].
#[cfg(feature = "serde")]
macro_rules! checked_serde {
    ($rules:ty) => {
        impl serde::Serialize for $rules {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                // The derive's own function (the inherent one), not this trait's.
                <$rules>::serialize(self, serializer)
            }
        }

        impl<'de> serde::Deserialize<'de> for $rules {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let rules = <$rules>::deserialize(deserializer)?;
                $crate::options::checked(rules).map_err(serde::de::Error::custom)
            }
        }
    };
}
#[cfg(feature = "serde")]
pub(crate) use checked_serde;
