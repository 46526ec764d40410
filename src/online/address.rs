//! What the online page's address asks for: the lobby, an invite, a game, or a player's profile.

use qi_play::link::Query;

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
    /// A player's profile (`?player=<name>`, where the server sends `online/@/<name>`).
    Profile {
        /// The username, as the address has it (trimmed).
        name: String,
    },
    /// A tournament's page (`?tournament=<id>`, where the server sends its short link
    /// `/t/<id>`; its frame for other sites is the "watch live" page's, `tv/?tournament=<id>`).
    Tournament {
        /// The tournament id.
        id: String,
        /// The game the reader comes back from (`&from=<game>`): not gone to again while the
        /// server has not counted its result yet.
        from: Option<String>,
    },
    /// A game address that cannot be one (ids and tokens are short and URL-safe).
    BadLink,
}

/// The longest name a profile address may carry, in characters (longer is no username).
const PROFILE_NAME_MAX_CHARS: usize = 64;

pub use qi_protocol::encode_name;

/// The query of a player's profile, relative to the online page: `?player=<name>`.
#[must_use]
pub fn profile_href(name: &str) -> String {
    format!("?player={}", encode_name(name))
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
    if query.get("game").is_none()
        && let Some(id) = query.get("tournament")
    {
        if !id_ok(id) {
            return Opening::BadLink;
        }
        let from = query.get("from").filter(|game| id_ok(game)).map(str::to_owned);
        return Opening::Tournament { id: id.to_owned(), from };
    }
    let Some(game) = query.get("game") else {
        return match query.get("player").map(str::trim) {
            Some(name)
                if !name.is_empty()
                    && name.chars().count() <= PROFILE_NAME_MAX_CHARS
                    && !name.chars().any(char::is_control) =>
            {
                Opening::Profile { name: name.to_owned() }
            }
            Some(_) => Opening::BadLink,
            None => Opening::Lobby,
        };
    };
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

#[cfg(test)]
mod tests {
    use super::*;

    fn read(query: &str) -> Opening {
        read_address(query, |_| None)
    }

    #[test]
    fn player_addresses_open_profiles() {
        assert_eq!(read("?player=Ann_1"), Opening::Profile { name: "Ann_1".into() });
        assert_eq!(read("player=%20Ann%20"), Opening::Profile { name: "Ann".into() });
        assert_eq!(read("?player=Nguy%E1%BB%85n"), Opening::Profile { name: "Nguyễn".into() });
        assert_eq!(read("?player="), Opening::BadLink);
        assert_eq!(read("?player=a%0Ab"), Opening::BadLink, "no control characters");
        assert_eq!(read(&format!("?player={}", "x".repeat(65))), Opening::BadLink);
        assert_eq!(read(""), Opening::Lobby);
        assert_eq!(
            read("?game=abc&player=Ann"),
            Opening::Game { game: "abc".into(), token: None },
            "a game comes first"
        );
    }

    #[test]
    fn tournament_addresses_open_its_page() {
        assert_eq!(
            read("?tournament=T1abc"),
            Opening::Tournament { id: "T1abc".into(), from: None }
        );
        assert_eq!(
            read("?tournament=T1abc&from=g1"),
            Opening::Tournament { id: "T1abc".into(), from: Some("g1".into()) }
        );
        assert_eq!(
            read("?tournament=T1abc&from=a%20b"),
            Opening::Tournament { id: "T1abc".into(), from: None },
            "a game id that is none is left out"
        );
        assert_eq!(read("?tournament=a%20b"), Opening::BadLink);
        assert_eq!(read("?tournament="), Opening::BadLink);
        assert_eq!(
            read("?game=g1&tournament=T1"),
            Opening::Game { game: "g1".into(), token: None },
            "a game comes first"
        );
    }

    #[test]
    fn profile_links_read_back() {
        for name in ["Ann", "棋手王", "Nguyễn", "a-b_c.d~e", "x&y=z+w"] {
            assert_eq!(read(&profile_href(name)), Opening::Profile { name: name.into() });
        }
        assert_eq!(encode_name("棋"), "%E6%A3%8B");
        assert_eq!(profile_href("a b"), "?player=a%20b");
    }

    #[test]
    fn games_and_invites_are_read() {
        assert_eq!(
            read("?game=abc&invite=tok"),
            Opening::Join { game: "abc".into(), invite: "tok".into() }
        );
        assert_eq!(read("?game=a%20b"), Opening::BadLink);
        let kept = read_address("?game=abc&invite=tok", |_| Some("seat".into()));
        assert_eq!(kept, Opening::Game { game: "abc".into(), token: Some("seat".into()) });
    }
}
