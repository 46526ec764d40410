//! Accounts and ratings as the app and the server exchange them over HTTP (JSON bodies under
//! `/api/account/` and `/api/profile/`), and the rules of a username and a password.
//!
//! Accounts are optional: anonymous play stays as it was. An account gives a name that lasts,
//! a rating in each kind of game ([`RATED_KINDS`]) and a profile page (`online/@/<name>`).

use serde::{Deserialize, Serialize};
use unicode_normalization::UnicodeNormalization;
use unicode_properties::{GeneralCategoryGroup, UnicodeGeneralCategory};

use crate::{GameResult, GameSpec, Seat, clean_name};

/// The fewest characters in a username.
pub const USERNAME_MIN_CHARS: usize = 3;
/// The most characters in a username.
pub const USERNAME_MAX_CHARS: usize = 20;
/// The fewest characters in a password.
pub const PASSWORD_MIN_CHARS: usize = 8;
/// The most characters in a password: more is refused before any hashing (a long password
/// costs the server nothing more with Argon2, but a 10,000-character one is not a password).
pub const PASSWORD_MAX_CHARS: usize = 128;

/// The kinds of game rated apart, in the order profiles show them (the variant names; Chess960
/// apart from chess).
pub const RATED_KINDS: [&str; 5] = ["chess", "chess960", "xiangqi", "banqi", "gomoku"];

/// Why a username was refused. Its `Display` is the English detail the server sends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UsernameError {
    /// Fewer than [`USERNAME_MIN_CHARS`] or more than [`USERNAME_MAX_CHARS`] characters.
    Length,
    /// A character other than a letter, a digit, `_` or `-` (spaces included: a username is
    /// part of the profile's address).
    Character(char),
    /// Starts or ends with `_` or `-`.
    Edge,
    /// What [`clean_name`] refuses for every display name.
    Name(crate::NameError),
}

impl std::fmt::Display for UsernameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            UsernameError::Length => write!(
                f,
                "usernames are {USERNAME_MIN_CHARS} to {USERNAME_MAX_CHARS} characters long"
            ),
            UsernameError::Character(c) => write!(
                f,
                "{c:?} (U+{:04X}) cannot be in a username: letters, digits, _ and - only",
                *c as u32
            ),
            UsernameError::Edge => f.write_str("a username starts and ends with a letter or digit"),
            UsernameError::Name(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for UsernameError {}

/// A username as kept (trimmed, NFC), or why it is refused: [`USERNAME_MIN_CHARS`] to
/// [`USERNAME_MAX_CHARS`] letters, digits (of any script), `_` and `-`, starting and ending
/// with a letter or digit, and nothing [`clean_name`] refuses.
///
/// # Errors
/// [`UsernameError`] says what is wrong.
pub fn check_username(name: &str) -> Result<String, UsernameError> {
    let name = clean_name(name).map_err(|e| match e {
        crate::NameError::TooLong => UsernameError::Length,
        other => UsernameError::Name(other),
    })?;
    let count = name.chars().count();
    if !(USERNAME_MIN_CHARS..=USERNAME_MAX_CHARS).contains(&count) {
        return Err(UsernameError::Length);
    }
    for c in name.chars() {
        let group = c.general_category_group();
        let allowed = matches!(group, GeneralCategoryGroup::Letter | GeneralCategoryGroup::Mark)
            || c.general_category() == unicode_properties::GeneralCategory::DecimalNumber
            || c == '_'
            || c == '-';
        if !allowed {
            return Err(UsernameError::Character(c));
        }
    }
    let edge = |c: Option<char>| c.is_some_and(|c| c == '_' || c == '-');
    if edge(name.chars().next()) || edge(name.chars().last()) {
        return Err(UsernameError::Edge);
    }
    Ok(name)
}

/// The key two usernames share when they are the same account: Unicode's compatibility
/// caseless match (D146: NFKD of the case folding of NFKD of the case folding of NFD), kept
/// composed (NFC). So `ｑｉ` and `qi`, `ﬁ` and `fi`, `Straße` and `STRASSE`, `ΣΟΦΟΣ` and `σοφος`
/// are one name. Names are unique by their key.
#[must_use]
pub fn username_key(name: &str) -> String {
    use caseless::Caseless;
    let folded = name.nfd().default_case_fold().nfkd().default_case_fold().nfkd();
    folded.nfc().collect()
}

/// Percent-encodes a username for an address (a query value or a path segment): ASCII letters,
/// digits and `-._~` stay, every other byte of its UTF-8 becomes `%XX`.
#[must_use]
pub fn encode_name(name: &str) -> String {
    use std::fmt::Write as _;
    let mut out = String::with_capacity(name.len());
    for byte in name.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(byte));
        } else {
            let _ = write!(out, "%{byte:02X}");
        }
    }
    out
}

/// The rating every kind starts at, before its first rated game: 1500, provisional (the
/// server's Glicko-2 start, deviation 350).
pub const START_RATING: ShownRating = ShownRating { rating: 1500, provisional: true };

/// Whether a password may be set: [`PASSWORD_MIN_CHARS`] to [`PASSWORD_MAX_CHARS`] characters.
///
/// # Errors
/// The English detail.
pub fn check_password(password: &str) -> Result<(), String> {
    let count = password.chars().count();
    if count < PASSWORD_MIN_CHARS {
        return Err(format!("a password is at least {PASSWORD_MIN_CHARS} characters"));
    }
    if count > PASSWORD_MAX_CHARS {
        return Err(format!("a password is at most {PASSWORD_MAX_CHARS} characters"));
    }
    Ok(())
}

/// A rating as shown: rounded, and whether it is still provisional (shown with a "?").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShownRating {
    /// The rating, rounded.
    pub rating: u32,
    /// Whether its deviation is still high.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub provisional: bool,
}

impl std::fmt::Display for ShownRating {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}{}", self.rating, if self.provisional { "?" } else { "" })
    }
}

/// A username and a password: to register or to sign in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Credentials {
    /// The username.
    pub name: String,
    /// The password.
    pub password: String,
}

/// A change of password.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PasswordChange {
    /// The password now.
    pub old: String,
    /// The new one.
    pub new: String,
}

/// One kind of game's rating of an account.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KindRating {
    /// The kind ([`RATED_KINDS`]).
    pub kind: String,
    /// The rating now.
    pub rating: ShownRating,
    /// Rated games played in that kind.
    pub games: u32,
}

/// The signed-in account, as its own pages show it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AccountView {
    /// The username as registered.
    pub name: String,
    /// A rating for each kind of game, in [`RATED_KINDS`] order (1500? for one never played).
    pub ratings: Vec<KindRating>,
}

/// A rating after one rated game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RatingPoint {
    /// When the game ended (milliseconds since the Unix epoch).
    pub unix_ms: u64,
    /// The rating after it.
    pub rating: ShownRating,
}

/// A kind of game's rating and its history on a profile.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProfileRating {
    /// The rating now.
    #[serde(flatten)]
    pub now: KindRating,
    /// After each rated game, oldest first.
    pub history: Vec<RatingPoint>,
}

/// A finished game on a profile.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProfileGame {
    /// The game id (its page is `online/<id>`).
    pub game: String,
    /// What was played (rated or not).
    pub spec: GameSpec,
    /// The profile owner's seat.
    pub seat: Seat,
    /// The opponent's name.
    pub opponent: String,
    /// Whether the opponent has an account (their name then opens their profile).
    #[serde(default)]
    pub opponent_account: bool,
    /// How it ended.
    pub result: GameResult,
    /// When it ended (milliseconds since the Unix epoch).
    pub ended_unix_ms: u64,
    /// The start position, in the game's own format.
    pub start: String,
    /// The moves, in the game's coordinates.
    pub moves: Vec<String>,
}

/// A player's public page.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProfileView {
    /// The username as registered.
    pub name: String,
    /// When the account was made (milliseconds since the Unix epoch).
    pub created_unix_ms: u64,
    /// Each kind of game, in [`RATED_KINDS`] order.
    pub ratings: Vec<ProfileRating>,
    /// The latest finished games, newest first.
    pub games: Vec<ProfileGame>,
}

/// What went wrong with an account request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AccountErrorCode {
    /// Not a request (not JSON, or missing fields).
    BadRequest,
    /// A username that breaks the rules ([`check_username`]).
    BadUsername,
    /// The username, or one the same but for case or compatibility forms, is taken.
    NameTaken,
    /// A password that breaks the rules ([`check_password`]).
    BadPassword,
    /// No such user, or the wrong password: the same answer for both.
    WrongCredentials,
    /// Too many sign-in attempts from the address or for the account: the detail says when
    /// to try again.
    TooManyAttempts,
    /// No session, or one that expired, was ended or was never made.
    NotSignedIn,
    /// No such player.
    UnknownPlayer,
    /// The server could not do it now (storage failing): try again.
    Unavailable,
    /// No such thing (a tournament).
    NotFound,
    /// Refused as asked (a tournament full, closed, or its password wrong): the detail says why.
    Refused,
    /// An error of a newer version.
    #[serde(other)]
    Other,
}

/// An account request's refusal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AccountError {
    /// What kind of refusal.
    pub code: AccountErrorCode,
    /// In English, what was wrong.
    pub detail: String,
}

/// The games a puzzle result may be of (`PuzzleResult::game`), as the puzzle page names them.
pub const PUZZLE_GAMES: [&str; 4] = ["chess", "xiangqi", "banqi", "gomoku"];

/// A puzzle's first result for a signed-in player, sent by the puzzle page
/// (`POST /api/puzzles`): the server rates the player against the puzzle (at the rating its
/// own database gives it), as lichess does, and keeps only the first result for a puzzle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PuzzleResult {
    /// The game (one of [`PUZZLE_GAMES`]).
    pub game: String,
    /// The puzzle's id (1 to 16 letters and digits): one of the server's (its rating is the
    /// server's database's).
    pub puzzle: String,
    /// Solved without help.
    pub solved: bool,
}

impl PuzzleResult {
    /// Whether the result makes sense; what is wrong when it does not.
    ///
    /// # Errors
    /// The first field out of bounds, said.
    pub fn check(&self) -> Result<(), String> {
        if !PUZZLE_GAMES.contains(&self.game.as_str()) {
            return Err(format!(
                "no puzzles of {:?}",
                self.game.chars().take(20).collect::<String>()
            ));
        }
        if self.puzzle.is_empty()
            || self.puzzle.len() > 16
            || !self.puzzle.bytes().all(|b| b.is_ascii_alphanumeric())
        {
            return Err("a puzzle's id is 1 to 16 letters and digits".into());
        }
        Ok(())
    }
}

/// A player's puzzle rating in one game (`GET /api/puzzles`, and the answer to a result).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PuzzleRatingView {
    /// The game.
    pub game: String,
    /// The Glicko-2 rating.
    pub rating: f64,
    /// Its deviation.
    pub deviation: f64,
    /// Its volatility.
    pub volatility: f64,
    /// Puzzles rated.
    pub tried: u32,
    /// Of which solved.
    pub solved: u32,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usernames_follow_the_rules() {
        assert_eq!(check_username("  Ann_1 ").unwrap(), "Ann_1");
        assert_eq!(check_username("Nguyễn").unwrap(), "Nguyễn");
        assert_eq!(check_username("棋手王"), Ok("棋手王".to_owned()));
        assert_eq!(check_username("ab"), Err(UsernameError::Length));
        assert_eq!(check_username(&"a".repeat(21)), Err(UsernameError::Length));
        assert_eq!(check_username("a b c"), Err(UsernameError::Character(' ')));
        assert_eq!(check_username("a/b/c"), Err(UsernameError::Character('/')));
        assert_eq!(check_username("_ann"), Err(UsernameError::Edge));
        assert!(matches!(check_username("an\u{200b}n"), Err(UsernameError::Name(_))));
        assert!(check_username("a<b>c").is_err());
    }

    #[test]
    fn keys_ignore_case_and_compatibility_forms() {
        assert_eq!(username_key("Ann"), username_key("aNN"));
        assert_eq!(username_key("ｑｉ_ｆａｎ"), username_key("QI_fan"));
        assert_eq!(username_key("ﬁsh"), username_key("FISH"));
        assert_eq!(username_key("Straße"), username_key("STRASSE"));
        assert_eq!(username_key("ΣΟΦΟΣ"), username_key("σοφος"));
        assert_eq!(username_key("σοφος"), username_key("σοφοσ"));
        assert_ne!(username_key("Ann"), username_key("Anne"));
        // Already composed and decomposed forms are one name.
        assert_eq!(username_key("Nguye\u{302}\u{303}n"), username_key("Nguyễn"));
    }

    #[test]
    fn puzzle_results_are_checked() {
        let good = PuzzleResult { game: "chess".into(), puzzle: "00sHx".into(), solved: true };
        assert_eq!(good.check(), Ok(()));
        for bad in [
            PuzzleResult { game: "shogi".into(), ..good.clone() },
            PuzzleResult { puzzle: String::new(), ..good.clone() },
            PuzzleResult { puzzle: "a/b".into(), ..good.clone() },
            PuzzleResult { puzzle: "x".repeat(17), ..good.clone() },
        ] {
            assert!(bad.check().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn passwords_have_bounds() {
        assert!(check_password("").is_err());
        assert!(check_password("1234567").is_err());
        assert!(check_password("12345678").is_ok());
        assert!(check_password(&"x".repeat(10_000)).is_err());
    }

    #[test]
    fn shown_ratings_mark_provisional_ones() {
        assert_eq!(ShownRating { rating: 1500, provisional: true }.to_string(), "1500?");
        assert_eq!(ShownRating { rating: 1712, provisional: false }.to_string(), "1712");
        let json = serde_json::to_string(&ShownRating { rating: 1712, provisional: false });
        assert_eq!(json.unwrap(), r#"{"rating":1712}"#);
    }
}
