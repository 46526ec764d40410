//! What the online page's address asks for: the lobby, an invite, or a game.

use crate::link::Query;

/// What the page's address asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Opening {
    /// The lobby (no game in the address).
    Lobby,
    /// An invite link: take the free seat of the game.
    Join {
        /// The game id.
        game: String,
        /// The invite token.
        invite: String,
    },
    /// A game: back to its seat with the token this browser keeps, else to watch it.
    Game {
        /// The game id.
        game: String,
        /// The seat token, when this browser holds the seat.
        token: Option<String>,
    },
    /// A game address that cannot be one (ids and tokens are short and URL-safe).
    BadLink,
}

/// Whether `text` can be a game id or token: 1 to 128 URL-safe characters (so it can go into a
/// link and a storage key as it is).
#[must_use]
pub fn id_ok(text: &str) -> bool {
    (1..=128).contains(&text.len())
        && text.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~'))
}

/// What an address (its query) asks for; `stored_token` gives the seat token this browser
/// keeps for a game id, if any.
#[must_use]
pub fn read_address(query: &str, stored_token: impl Fn(&str) -> Option<String>) -> Opening {
    let query = Query::parse(query);
    let Some(game) = query.get("game") else { return Opening::Lobby };
    if !id_ok(game) {
        return Opening::BadLink;
    }
    let token = stored_token(game).filter(|token| id_ok(token));
    match (token, query.get("invite")) {
        (Some(token), _) => Opening::Game { game: game.to_owned(), token: Some(token) },
        (None, Some(invite)) if id_ok(invite) => {
            Opening::Join { game: game.to_owned(), invite: invite.to_owned() }
        }
        (None, Some(_)) => Opening::BadLink,
        (None, None) => Opening::Game { game: game.to_owned(), token: None },
    }
}
