//! What a player asks for when creating a tournament, checked before anything is kept: the
//! form comes from outside, so every field gets a clear refusal that says what was wrong.

use crate::Family;
use serde::{Deserialize, Serialize};

/// The longest name, in characters.
pub const MAX_NAME: usize = 60;
/// The most players an arena holds (issue 50's goal: a thousand on three nodes).
pub const MAX_ARENA_PLAYERS: u32 = 1000;
/// The most players a Swiss holds: the Dutch system pairs a round of 300 in about a second
/// on the development machine (`qi swiss bench`), a round of 1,000 in minutes.
pub const MAX_SWISS_PLAYERS: u32 = 300;
/// The furthest ahead a tournament may be scheduled, in seconds (30 days).
pub const MAX_LEAD: u64 = 30 * 24 * 3600;

/// The format and its own settings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "format", rename_all = "snake_case")]
pub enum Format {
    /// lichess's arena: as many games as fit in the time.
    Arena {
        /// How long it runs, in minutes (10 to 720).
        minutes: u32,
        /// Whether players may halve their clock for a bonus point.
        berserk: bool,
        /// Whether two wins in a row double the next scores.
        streaks: bool,
    },
    /// Rounds paired by the Dutch system.
    Swiss {
        /// How many rounds (3 to 15).
        rounds: u32,
        /// Seconds between the end of a round and the start of the next (10 to 86,400).
        pause_seconds: u32,
    },
    /// Everyone meets everyone (2 to 16 players).
    RoundRobin {
        /// 1 (single) or 2 (double, colours reversed).
        cycles: u32,
        /// Hours each round's games have before they are forfeited (1 to 336).
        round_hours: u32,
    },
}

/// The clock of every game: minutes and increment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clock {
    /// Starting time, in seconds (1 second to 3 hours, as the server's games take).
    pub initial_seconds: u32,
    /// Added after each move, in seconds (0 to 60).
    pub increment_seconds: u32,
}

/// A tournament as its creator asked for it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Spec {
    /// Its name, shown in the lobby and on the page.
    pub name: String,
    /// Which game.
    pub family: Family,
    /// The game's rule options, as the rules read them (`renju=on`, `variant=chess960` …):
    /// checked by the server, which knows the rules; kept here as written.
    pub rules: String,
    /// When it starts, in Unix seconds.
    pub starts_at: u64,
    /// The games' clock.
    pub clock: Clock,
    /// The format.
    pub format: Format,
    /// Whether its games count for ratings.
    pub rated: bool,
    /// A password to join, for a club's private event.
    pub password: Option<String>,
    /// The lowest rating admitted.
    pub min_rating: Option<i32>,
    /// The highest rating admitted.
    pub max_rating: Option<i32>,
    /// The most players it takes.
    pub max_players: u32,
}

/// What is wrong with a [`Spec`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SpecError {
    /// The name is empty, too long or holds control characters.
    Name,
    /// It starts in the past or more than 30 days ahead.
    Start,
    /// The clock is zero or too long.
    Clock,
    /// The format's numbers are out of range (the message says which).
    Format(&'static str),
    /// The rating bounds are reversed or absurd.
    RatingBounds,
    /// The password is empty or too long.
    Password,
    /// More players than the format holds, or fewer than two.
    MaxPlayers(u32),
}

impl std::fmt::Display for SpecError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SpecError::Name => {
                write!(f, "the name must be 1 to {MAX_NAME} characters, without line breaks")
            }
            SpecError::Start => write!(f, "the start must be in the next 30 days"),
            SpecError::Clock => {
                write!(f, "the clock must be 1 second to 180 minutes, plus 0 to 60 seconds a move")
            }
            SpecError::Format(what) => write!(f, "{what}"),
            SpecError::RatingBounds => {
                write!(f, "the rating bounds must lie in 500-3500, the lower below the higher")
            }
            SpecError::Password => write!(f, "the password must be 1 to 64 characters"),
            SpecError::MaxPlayers(most) => write!(f, "the number of players must be 2 to {most}"),
        }
    }
}

impl std::error::Error for SpecError {}

/// Why a player may not join.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Below the lowest rating admitted.
    RatingTooLow(i32),
    /// Above the highest.
    RatingTooHigh(i32),
    /// The password does not match.
    Password,
    /// Full.
    Full,
    /// The tournament has rating bounds and the player has no rating in the game yet.
    Unrated,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::RatingTooLow(min) => write!(f, "this tournament admits ratings from {min}"),
            Refusal::RatingTooHigh(max) => write!(f, "this tournament admits ratings up to {max}"),
            Refusal::Password => write!(f, "wrong password"),
            Refusal::Full => write!(f, "this tournament is full"),
            Refusal::Unrated => {
                write!(f, "this tournament has rating bounds: play a rated game of it first")
            }
        }
    }
}

impl Spec {
    /// The most players its format holds.
    #[must_use]
    pub fn format_limit(&self) -> u32 {
        match self.format {
            Format::Arena { .. } => MAX_ARENA_PLAYERS,
            Format::Swiss { .. } => MAX_SWISS_PLAYERS,
            Format::RoundRobin { .. } => crate::round_robin::MAX_PLAYERS as u32,
        }
    }

    /// Checks every field, `now` in Unix seconds.
    ///
    /// # Errors
    /// The first field that is wrong.
    pub fn validate(&self, now: u64) -> Result<(), SpecError> {
        let name = self.name.trim();
        if name.is_empty() || name.chars().count() > MAX_NAME || name.chars().any(char::is_control)
        {
            return Err(SpecError::Name);
        }
        if self.starts_at.saturating_add(60) < now || self.starts_at > now.saturating_add(MAX_LEAD)
        {
            return Err(SpecError::Start);
        }
        let Clock { initial_seconds, increment_seconds } = self.clock;
        if initial_seconds == 0 || initial_seconds > 3 * 3600 || increment_seconds > 60 {
            return Err(SpecError::Clock);
        }
        match self.format {
            Format::Arena { minutes, .. } if !(10..=720).contains(&minutes) => {
                return Err(SpecError::Format("an arena lasts 10 to 720 minutes"));
            }
            Format::Swiss { rounds, .. } if !(3..=15).contains(&rounds) => {
                return Err(SpecError::Format("a Swiss has 3 to 15 rounds"));
            }
            Format::Swiss { pause_seconds, .. } if !(10..=86_400).contains(&pause_seconds) => {
                return Err(SpecError::Format("the pause between rounds is 10 seconds to a day"));
            }
            Format::RoundRobin { cycles, .. } if !(1..=2).contains(&cycles) => {
                return Err(SpecError::Format("a round robin is played once or twice"));
            }
            Format::RoundRobin { round_hours, .. } if !(1..=336).contains(&round_hours) => {
                return Err(SpecError::Format("a round robin's round lasts 1 hour to 2 weeks"));
            }
            _ => {}
        }
        let sane = |r: i32| (500..=3500).contains(&r);
        match (self.min_rating, self.max_rating) {
            (Some(lo), Some(hi)) if lo >= hi || !sane(lo) || !sane(hi) => {
                return Err(SpecError::RatingBounds);
            }
            (Some(r), None) | (None, Some(r)) if !sane(r) => return Err(SpecError::RatingBounds),
            _ => {}
        }
        if let Some(password) = &self.password
            && (password.is_empty() || password.chars().count() > 64)
        {
            return Err(SpecError::Password);
        }
        let most = self.format_limit();
        if !(2..=most).contains(&self.max_players) {
            return Err(SpecError::MaxPlayers(most));
        }
        Ok(())
    }

    /// Whether a player of `rating` who gives `password` may join, with `players` in already.
    ///
    /// # Errors
    /// Why not.
    pub fn admits(&self, rating: i32, password: Option<&str>, players: u32) -> Result<(), Refusal> {
        if let Some(expected) = &self.password {
            // Compared in full whatever the first difference, so timing tells nothing.
            let given = password.unwrap_or("").as_bytes();
            let same = given.len() == expected.len()
                && given.iter().zip(expected.as_bytes()).fold(0u8, |acc, (a, b)| acc | (a ^ b))
                    == 0;
            if !same {
                return Err(Refusal::Password);
            }
        }
        if let Some(min) = self.min_rating
            && rating < min
        {
            return Err(Refusal::RatingTooLow(min));
        }
        if let Some(max) = self.max_rating
            && rating > max
        {
            return Err(Refusal::RatingTooHigh(max));
        }
        if players >= self.max_players {
            return Err(Refusal::Full);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: u64 = 1_800_000_000;

    fn arena() -> Spec {
        Spec {
            name: "Friday blitz".into(),
            family: Family::Xiangqi,
            rules: String::new(),
            starts_at: NOW + 600,
            clock: Clock { initial_seconds: 180, increment_seconds: 2 },
            format: Format::Arena { minutes: 60, berserk: true, streaks: true },
            rated: true,
            password: None,
            min_rating: None,
            max_rating: None,
            max_players: 1000,
        }
    }

    #[test]
    fn a_sound_spec_passes() {
        assert_eq!(arena().validate(NOW), Ok(()));
    }

    #[test]
    fn each_bad_field_is_named() {
        type Change = Box<dyn Fn(&mut Spec)>;
        let cases: Vec<(Change, SpecError)> = vec![
            (Box::new(|s| s.name = "  ".into()), SpecError::Name),
            (Box::new(|s| s.name = "a\nb".into()), SpecError::Name),
            (Box::new(|s| s.name = "x".repeat(61)), SpecError::Name),
            (Box::new(|s| s.starts_at = NOW - 3600), SpecError::Start),
            (Box::new(|s| s.starts_at = NOW + MAX_LEAD + 1), SpecError::Start),
            (
                Box::new(|s| s.clock = Clock { initial_seconds: 0, increment_seconds: 5 }),
                SpecError::Clock,
            ),
            (Box::new(|s| s.clock.increment_seconds = 61), SpecError::Clock),
            (
                Box::new(|s| {
                    s.format = Format::Arena { minutes: 5, berserk: false, streaks: false }
                }),
                SpecError::Format("an arena lasts 10 to 720 minutes"),
            ),
            (
                Box::new(|s| s.format = Format::Swiss { rounds: 20, pause_seconds: 60 }),
                SpecError::Format("a Swiss has 3 to 15 rounds"),
            ),
            (
                Box::new(|s| s.format = Format::RoundRobin { cycles: 3, round_hours: 24 }),
                SpecError::Format("a round robin is played once or twice"),
            ),
            (
                Box::new(|s| (s.min_rating, s.max_rating) = (Some(2000), Some(1800))),
                SpecError::RatingBounds,
            ),
            (Box::new(|s| s.min_rating = Some(100)), SpecError::RatingBounds),
            (Box::new(|s| s.password = Some(String::new())), SpecError::Password),
            (Box::new(|s| s.max_players = 1001), SpecError::MaxPlayers(1000)),
            (
                Box::new(|s| {
                    s.format = Format::RoundRobin { cycles: 1, round_hours: 24 };
                    s.max_players = 17;
                }),
                SpecError::MaxPlayers(16),
            ),
        ];
        for (k, (change, expected)) in cases.into_iter().enumerate() {
            let mut spec = arena();
            change(&mut spec);
            assert_eq!(spec.validate(NOW), Err(expected.clone()), "case {k}");
            assert!(!expected.to_string().is_empty());
        }
    }

    #[test]
    fn joining_checks_password_ratings_and_room() {
        let mut spec = arena();
        spec.password = Some("club".into());
        spec.min_rating = Some(1200);
        spec.max_rating = Some(1800);
        spec.max_players = 3;
        assert_eq!(spec.admits(1500, Some("club"), 0), Ok(()));
        assert_eq!(spec.admits(1500, Some("clu"), 0), Err(Refusal::Password));
        assert_eq!(spec.admits(1500, None, 0), Err(Refusal::Password));
        assert_eq!(spec.admits(1100, Some("club"), 0), Err(Refusal::RatingTooLow(1200)));
        assert_eq!(spec.admits(1900, Some("club"), 0), Err(Refusal::RatingTooHigh(1800)));
        assert_eq!(spec.admits(1500, Some("club"), 3), Err(Refusal::Full));
        assert_eq!(
            Refusal::RatingTooLow(1200).to_string(),
            "this tournament admits ratings from 1200"
        );
    }

    #[test]
    fn a_spec_travels_as_json_with_its_format_tagged() {
        let text = serde_json::to_string(&arena()).unwrap();
        assert!(text.contains(r#""format":"arena""#), "{text}");
        let back: Spec = serde_json::from_str(&text).unwrap();
        assert_eq!(back, arena());
    }
}
