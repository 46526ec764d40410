//! The lobby, invites, chat and profiles.

use super::*;
use qi_protocol::Variant;

#[test]
fn invites_join_or_fall_back_to_watching() {
    let invite = Opening::Join { game: "g".into(), invite: "inv".into() };
    // No name yet: the page waits for the player.
    let mut session = Session::new(Settings::new(Lang::Vi), "", invite.clone());
    session.opened();
    assert!(
        session.receive(ServerMessage::Welcome { version: VERSION, account: None }, 0.0).is_empty()
    );
    assert_eq!(
        sent(&session.intent(Intent::Join, 0.0)),
        [ClientMessage::Join { game: "g".into(), invite: "inv".into() }]
    );
    // With a name, the invite is taken at once; a taken seat turns into watching.
    let (mut session, effects) = ready(invite);
    assert_eq!(sent(&effects), [ClientMessage::Join { game: "g".into(), invite: "inv".into() }]);
    let taken = ServerMessage::Error { code: ErrorCode::SeatTaken, detail: "taken".into() };
    assert_eq!(
        sent(&session.receive(taken, 0.0)),
        [ClientMessage::Watch { game: "g".into(), have_plies: None }]
    );
    assert!(matches!(session.note, Some(Note::Server(Words::ErrorSeatTaken, _))));
    // A kept seat the server does not know: forgotten, and watched.
    let opening = Opening::Game { game: "g".into(), token: Some("old".into()) };
    let (mut session, _) = ready(opening);
    let bad = ServerMessage::Error { code: ErrorCode::BadToken, detail: String::new() };
    let effects = session.receive(bad, 0.0);
    assert_eq!(effects[0], Effect::ForgetSeat { game: "g".into() });
    assert_eq!(sent(&effects), [ClientMessage::Watch { game: "g".into(), have_plies: None }]);
    // No such game: back to the lobby.
    let unknown = ServerMessage::Error { code: ErrorCode::UnknownGame, detail: String::new() };
    assert!(session.receive(unknown, 0.0).contains(&Effect::ShowAddress(None)));
    assert!(session.focus.is_none());
}
fn chat_line(seat: Option<Seat>, name: &str, body: ChatBody) -> ChatLine {
    let room = if seat.is_some() { ChatRoom::Players } else { ChatRoom::Spectators };
    ChatLine { room, seat, name: name.into(), body, unix_ms: 0 }
}
#[test]
fn chat_lines_go_checked_and_come_bounded() {
    let mut session = seated(Seat::First, &["e2e4"]);
    let hello = ChatBody::Quick { code: QuickMessage::Hello };
    assert_eq!(
        sent(&session.intent(Intent::Chat(hello.clone()), 0.0)),
        [ClientMessage::Chat { game: "g".into(), body: hello }]
    );
    let text = ChatBody::Text { text: "  good luck  ".into() };
    assert_eq!(
        sent(&session.intent(Intent::Chat(text), 0.0)),
        [ClientMessage::Chat {
            game: "g".into(),
            body: ChatBody::Text { text: "good luck".into() }
        }]
    );
    // A line the server would refuse is refused here, with the reason, and not sent.
    let hidden = ChatBody::Text { text: "a\u{202E}b".into() };
    assert_eq!(session.intent(Intent::Chat(hidden), 0.0), []);
    let note = session.game().unwrap().note.clone();
    assert!(
        matches!(note, Some(Note::Server(Words::ErrorBadChat, ref detail)) if detail.contains("U+202E"))
    );
    // What the server says is kept, the oldest going first once the room is full, and an
    // over-long line (no server sends one) is cut.
    let long = ChatBody::Text { text: "x".repeat(500) };
    session.receive(
        ServerMessage::Chat { game: "g".into(), line: chat_line(Some(Seat::Second), "Bo", long) },
        0.0,
    );
    let ChatBody::Text { text } = &session.game().unwrap().chat[0].body else { panic!() };
    assert!(text.chars().count() <= qi_protocol::CHAT_MAX_CHARS + 1);
    for n in 0..CHAT_ROOM_MAX_LINES {
        let body = ChatBody::Text { text: format!("{n}") };
        session.receive(
            ServerMessage::Chat {
                game: "g".into(),
                line: chat_line(Some(Seat::Second), "Bo", body),
            },
            0.0,
        );
    }
    let chat = &session.game().unwrap().chat;
    assert_eq!(chat.len(), CHAT_ROOM_MAX_LINES);
    assert_eq!(chat[0].body, ChatBody::Text { text: "0".into() });
    // Another game's line is not this one's.
    let stray = chat_line(None, "Cy", ChatBody::Text { text: "psst".into() });
    session.receive(ServerMessage::Chat { game: "other".into(), line: stray }, 0.0);
    assert_eq!(session.game().unwrap().chat.len(), CHAT_ROOM_MAX_LINES);
    // Muting is this page's own business.
    assert_eq!(
        session.intent(Intent::ToggleMute, 0.0),
        [Effect::SaveMute { game: "g".into(), muted: true }],
        "kept for this game"
    );
    assert!(session.focus.as_ref().unwrap().muted);
}
fn challenge_row(id: &str, at: u64) -> qi_protocol::ChallengeRow {
    qi_protocol::ChallengeRow {
        game: id.into(),
        spec: spec("chess"),
        seat: Seat::First,
        name: "Ann".into(),
        created_unix_ms: at,
        rating: None,
    }
}
#[test]
fn a_profile_is_not_the_lobby() {
    let (mut session, _) = ready(Opening::Profile { name: "Bob".into() });
    assert_eq!(session.profile.as_deref(), Some("Bob"));
    assert!(!session.in_lobby());
    let follow = Intent::FollowLobby { variant: None, seek: None };
    assert_eq!(sent(&session.intent(follow, 0.0)), [], "no lobby followed from a profile");
}
#[test]
fn the_lobby_is_followed_while_shown_and_its_rows_kept_in_order() {
    let (mut session, _) = ready(Opening::Lobby);
    let follow = Intent::FollowLobby { variant: Some(Variant::Chess), seek: Some(spec("chess")) };
    assert_eq!(
        sent(&session.intent(follow.clone(), 0.0)),
        [ClientMessage::Lobby { variant: Some(Variant::Chess), seek: Some(spec("chess")) }]
    );
    assert_eq!(session.intent(follow, 0.0), [], "the same again sends nothing");
    // A new connection follows again.
    session.closed();
    session.connecting();
    session.opened();
    let effects = session.receive(ServerMessage::Welcome { version: VERSION, account: None }, 0.0);
    assert!(sent(&effects).iter().any(|m| matches!(m, ClientMessage::Lobby { .. })));
    // Rows come, change and go; ids that are not ids are left out.
    let update = qi_protocol::LobbyUpdate {
        reset: true,
        challenges: vec![challenge_row("old", 1), challenge_row("new", 2), challenge_row("<x>", 3)],
        waiting: Some(3),
        ..Default::default()
    };
    session.receive(ServerMessage::Lobby { update }, 0.0);
    let ids: Vec<&str> = session.lobby.challenges.iter().map(|row| row.game.as_str()).collect();
    assert_eq!(ids, ["new", "old"], "newest first");
    assert_eq!(session.lobby.waiting, Some(3));
    let update = qi_protocol::LobbyUpdate { gone: vec!["new".into()], ..Default::default() };
    session.receive(ServerMessage::Lobby { update }, 0.0);
    assert_eq!(session.lobby.challenges.len(), 1);
    assert_eq!(session.lobby.waiting, Some(3), "an update without a count keeps it");
    // Accepting takes the page into the game and out of the lobby.
    let effects = session.intent(Intent::Accept("old".into()), 0.0);
    assert_eq!(
        sent(&effects),
        [ClientMessage::LeaveLobby, ClientMessage::Accept { game: "old".into() }]
    );
    assert!(!session.in_lobby());
    let update = qi_protocol::LobbyUpdate { reset: true, ..Default::default() };
    session.receive(ServerMessage::Lobby { update }, 0.0);
    assert_eq!(session.lobby.challenges.len(), 1, "out of the lobby, updates are not taken");
}

#[test]
fn a_signed_in_page_without_a_kept_seat_comes_in_as_its_account() {
    // A tournament's game is made for two accounts: no browser holds its seat's token.
    let opening = Opening::Game { game: "g".into(), token: None };
    let mut session = Session::new(Settings::new(Lang::En), "Ann", opening);
    session.connecting();
    let _ = session.opened();
    let welcome = ServerMessage::Welcome { version: VERSION, account: Some("Ann_1".into()) };
    let effects = session.receive(welcome, 0.0);
    assert_eq!(sent(&effects), [ClientMessage::Sit { game: "g".into(), have_plies: None }]);
    // The seat comes back with its token, kept like any other.
    let seated = ServerMessage::Seated {
        game: "g".into(),
        token: "tok".into(),
        seat: Seat::Second,
        invite: None,
    };
    let effects = session.receive(seated, 0.0);
    assert!(effects.contains(&Effect::SaveSeat { game: "g".into(), token: "tok".into() }));
    // Signed out, the same address watches.
    let (_, effects) = ready(Opening::Game { game: "g".into(), token: None });
    assert_eq!(sent(&effects), [ClientMessage::Watch { game: "g".into(), have_plies: None }]);
}
