//! Chat in a game: what a line may hold, and the quick messages that each reader sees in their
//! own language.
//!
//! A game has two rooms: the players' and the spectators'. Players write and read the players'
//! room; spectators write and read theirs, so nobody watching can whisper to a player. A line is
//! plain text (the app shows it as text, never as markup) of at most [`CHAT_MAX_CHARS`]
//! characters that all show as themselves, or a [`QuickMessage`] sent as its code.

use serde::{Deserialize, Serialize};
use unicode_normalization::UnicodeNormalization;

use crate::Seat;
use crate::name::{NameError, check_char, check_marks, is_space};

/// The longest chat line, in characters (once composed, NFC).
pub const CHAT_MAX_CHARS: usize = 140;
/// How many lines one connection may write in one game within [`CHAT_RATE_WINDOW_MS`].
pub const CHAT_RATE_MAX: usize = 5;
/// The window of [`CHAT_RATE_MAX`], in milliseconds.
pub const CHAT_RATE_WINDOW_MS: u64 = 10_000;
/// How many lines of a room of one game are shown (the newest); the older ones stay stored.
pub const CHAT_ROOM_MAX_LINES: usize = 300;

/// A message every player can send with one click, shown in the reader's language.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum QuickMessage {
    /// "Hello".
    Hello,
    /// "Good luck".
    GoodLuck,
    /// "Good game".
    GoodGame,
    /// "Thanks".
    Thanks,
    /// "Rematch?".
    Rematch,
    /// A quick message of a newer version: shown as unknown, never sent.
    #[serde(other)]
    Unknown,
}

impl QuickMessage {
    /// Every quick message, in the order the app offers them.
    pub const ALL: [QuickMessage; 5] = [
        QuickMessage::Hello,
        QuickMessage::GoodLuck,
        QuickMessage::GoodGame,
        QuickMessage::Thanks,
        QuickMessage::Rematch,
    ];
}

/// What a chat line says.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ChatBody {
    /// Words as typed (see [`clean_chat`]).
    Text {
        /// The text.
        text: String,
    },
    /// A quick message, by its code.
    Quick {
        /// Which.
        code: QuickMessage,
    },
    /// A kind of line of a newer version: shown as unknown, never sent.
    #[serde(other)]
    Unknown,
}

/// The two rooms of a game's chat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChatRoom {
    /// The players'.
    Players,
    /// The spectators'.
    Spectators,
}

/// One line of chat as readers get it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatLine {
    /// The room it was written in.
    pub room: ChatRoom,
    /// The writer's seat, if a player.
    #[serde(default)]
    pub seat: Option<Seat>,
    /// The writer's display name (may be empty).
    pub name: String,
    /// What it says.
    pub body: ChatBody,
    /// When the server took it (milliseconds since the Unix epoch).
    pub unix_ms: u64,
}

/// Why a chat line was refused. Its `Display` is the English detail the server sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChatError {
    /// Nothing but spaces.
    Empty,
    /// Longer than [`CHAT_MAX_CHARS`].
    TooLong,
    /// A character that does not show as itself (as in names; see [`NameError`]), except that a
    /// line may hold line-free spacing and the zero-width joiner of emoji sequences.
    Char(NameError),
}

impl std::fmt::Display for ChatError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            ChatError::Empty => f.write_str("the message is empty"),
            ChatError::TooLong => write!(f, "messages are at most {CHAT_MAX_CHARS} characters"),
            ChatError::Char(NameError::TooManyMarks) => {
                write!(f, "at most {} combining marks in a row", crate::NAME_MAX_MARKS)
            }
            ChatError::Char(
                NameError::Invisible(c)
                | NameError::Undefined(c)
                | NameError::Space(c)
                | NameError::LoneMark(c),
            ) => write!(
                f,
                "U+{:04X} does not show as itself (invisible, a control, a special space or a \
                 stray mark); messages cannot hold it",
                c as u32
            ),
            ChatError::Char(NameError::TooLong) => {
                write!(f, "messages are at most {CHAT_MAX_CHARS} characters")
            }
        }
    }
}

impl std::error::Error for ChatError {}

/// The zero-width joiner: it glues emoji into one (👨‍👩‍👧), and shows as nothing only where
/// it joins nothing.
const ZERO_WIDTH_JOINER: char = '\u{200D}';

/// A chat line as shown: trimmed and composed (NFC); or why it is refused.
///
/// # Errors
/// [`ChatError`] when the line is empty, longer than [`CHAT_MAX_CHARS`] characters, or holds a
/// character that does not show as itself: the same rules as display names, except that a
/// zero-width joiner between two visible characters is allowed (emoji sequences need it).
pub fn clean_chat(text: &str) -> Result<String, ChatError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(ChatError::Empty);
    }
    let composed: String = text.nfc().collect();
    if composed.chars().count() > CHAT_MAX_CHARS {
        return Err(ChatError::TooLong);
    }
    let chars: Vec<char> = text.chars().collect();
    for (index, &c) in chars.iter().enumerate() {
        let previous = index.checked_sub(1).map(|i| chars[i]);
        if c == ZERO_WIDTH_JOINER {
            let next = chars.get(index + 1).copied();
            let joins = |side: Option<char>| side.is_some_and(|s| !is_space(s) && s != c);
            if joins(previous) && joins(next) {
                continue;
            }
        }
        check_char(c, previous).map_err(ChatError::Char)?;
    }
    check_marks(text).map_err(ChatError::Char)?;
    Ok(composed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_trimmed_composed_and_bounded() {
        assert_eq!(clean_chat("  good game!  "), Ok("good game!".into()));
        assert_eq!(clean_chat("Chu\u{0301}c may ma\u{0306}\u{0301}n"), Ok("Chúc may mắn".into()));
        assert_eq!(clean_chat(&"棋".repeat(CHAT_MAX_CHARS)), Ok("棋".repeat(CHAT_MAX_CHARS)));
        assert_eq!(clean_chat(&"棋".repeat(CHAT_MAX_CHARS + 1)), Err(ChatError::TooLong));
        assert_eq!(clean_chat(""), Err(ChatError::Empty));
        assert_eq!(clean_chat(" \u{3000} "), Err(ChatError::Empty));
        assert_eq!(clean_chat("<script>x</script>"), Ok("<script>x</script>".into()));
    }

    #[test]
    fn invisible_and_control_characters_are_refused() {
        for bad in ["a\u{0007}b", "a\nb", "a\u{202E}b", "a\u{200B}b", "\u{200D}a", "a\u{200D}"] {
            let error = clean_chat(bad).expect_err(bad);
            assert!(error.to_string().starts_with("U+"), "{bad:?}: {error}");
        }
        assert_eq!(clean_chat("👨\u{200D}👩\u{200D}👧"), Ok("👨\u{200D}👩\u{200D}👧".into()));
        assert_eq!(clean_chat("❤\u{FE0F}"), Ok("❤\u{FE0F}".into()));
        assert!(clean_chat("e\u{0301}\u{0301}\u{0301}\u{0301}").is_err());
    }

    #[test]
    fn quick_messages_travel_as_codes() {
        let body = ChatBody::Quick { code: QuickMessage::GoodGame };
        assert_eq!(serde_json::to_string(&body).unwrap(), r#"{"kind":"quick","code":"good_game"}"#);
        // A newer peer's codes and kinds read as unknown rather than breaking the message.
        let newer: ChatBody =
            serde_json::from_str(r#"{"kind":"quick","code":"checkmate_soon"}"#).unwrap();
        assert_eq!(newer, ChatBody::Quick { code: QuickMessage::Unknown });
        let sticker: ChatBody = serde_json::from_str(r#"{"kind":"sticker","id":7}"#).unwrap();
        assert_eq!(sticker, ChatBody::Unknown);
    }
}
