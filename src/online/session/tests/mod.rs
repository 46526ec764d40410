use qi_protocol::{
    CHAT_ROOM_MAX_LINES, ChatBody, ChatLine, ChatRoom, ClientMessage, Clocks, EndReason, ErrorCode,
    GameResult, GameSpec, GameView, PlayedMove, PlayerView, QuickMessage, Refusal, Seat,
    SeatChoice, ServerMessage, Status, VERSION,
};
use qi_rules::Cell;

use super::*;
use crate::state::{Action, Notice, Settings, TreeAction};
use qi_i18n::text::Lang;

const CHESS_START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

fn cell(name: &str) -> Cell {
    name.parse().unwrap()
}

fn spec(variant: &str) -> GameSpec {
    let variant = qi_protocol::Variant::parse(variant).expect("a variant");
    GameSpec::of(variant)
}

fn played(ply: u32, text: &str) -> PlayedMove {
    PlayedMove { ply, text: text.into(), reveal: None }
}

fn view(game: &str, start: &str, moves: &[&str], you: Option<Seat>) -> GameView {
    GameView {
        game: game.into(),
        spec: spec("chess"),
        start: start.into(),
        moves: moves.iter().enumerate().map(|(i, m)| played(i as u32, m)).collect(),
        from_ply: 0,
        clocks: None,
        players: [
            PlayerView { name: Some("Ann".into()), connected: true, rating: None },
            PlayerView { name: Some("Bo".into()), connected: true, rating: None },
        ],
        you,
        status: Status::Playing,
        watchers: 0,
        draw_offer: None,
        takeback_offer: None,
        chat: Vec::new(),
        deal: None,
        tournament: None,
    }
}

/// A session connected and welcomed, for the address `opening`.
fn ready(opening: Opening) -> (Session, Vec<Effect>) {
    let mut session = Session::new(Settings::new(Lang::En), "Ann", opening);
    session.connecting();
    let hello = session.opened();
    assert_eq!(
        hello,
        [Effect::Send(ClientMessage::Hello { version: VERSION, name: "Ann".into() })]
    );
    let effects = session.receive(ServerMessage::Welcome { version: VERSION, account: None }, 0.0);
    assert_eq!(session.link, Link::Ready);
    (session, effects)
}

/// A session seated as `seat` in game `g` (a chess game with `moves` played).
fn seated(seat: Seat, moves: &[&str]) -> Session {
    let opening = Opening::Game { game: "g".into(), token: Some("tok".into()) };
    let (mut session, effects) = ready(opening);
    assert_eq!(
        effects,
        [Effect::Send(ClientMessage::Resume {
            game: "g".into(),
            token: "tok".into(),
            have_plies: None
        })]
    );
    session.receive(ServerMessage::State { view: view("g", CHESS_START, moves, Some(seat)) }, 0.0);
    assert!(session.game().is_some(), "the state opens the game");
    session
}

fn sent(effects: &[Effect]) -> Vec<ClientMessage> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Send(message) => Some(message.clone()),
            _ => None,
        })
        .collect()
}

fn drop_piece(session: &mut Session, from: &str, to: &str) -> Vec<Effect> {
    let action = Action::Drop { from: cell(from), to: cell(to), now: 0.0 };
    session.intent(Intent::Board(Box::new(action)), 0.0)
}

/// Everything in the session, to check that a message changed nothing.
fn snapshot(session: &Session) -> String {
    format!("{session:?}")
}

#[test]
fn addresses_choose_lobby_join_resume_or_watch() {
    let none = |_: &str| None;
    let kept = |game: &str| (game == "abc").then(|| "tok".to_owned());
    assert_eq!(read_address("", none), Opening::Lobby);
    assert_eq!(
        read_address("?game=abc&invite=inv", none),
        Opening::Join { game: "abc".into(), invite: "inv".into() }
    );
    assert_eq!(
        read_address("?game=abc&invite=inv", kept),
        Opening::Game { game: "abc".into(), token: Some("tok".into()) },
        "a browser that holds the seat goes back to it"
    );
    assert_eq!(read_address("?game=abc", none), Opening::Game { game: "abc".into(), token: None });
    assert_eq!(read_address("?game=a%26b", none), Opening::BadLink);
    assert_eq!(read_address("?game=abc&invite=%3Cb%3E", none), Opening::BadLink);
    assert_eq!(read_address(&format!("?game={}", "x".repeat(200)), none), Opening::BadLink);
}

#[test]
fn creating_a_game_seats_the_player_and_shows_the_invite() {
    let (mut session, effects) = ready(Opening::Lobby);
    assert!(effects.is_empty());
    let create = Intent::Create { spec: spec("chess"), seat: SeatChoice::First, listed: false };
    assert_eq!(
        sent(&session.intent(create, 0.0)),
        [ClientMessage::Create { spec: spec("chess"), seat: SeatChoice::First }]
    );
    let effects = session.receive(
        ServerMessage::Seated {
            game: "g1".into(),
            token: "t1".into(),
            seat: Seat::First,
            invite: Some("i1".into()),
        },
        0.0,
    );
    assert_eq!(
        effects,
        [
            Effect::SaveSeat { game: "g1".into(), token: "t1".into() },
            Effect::ShowAddress(Some("g1".into()))
        ]
    );
    let focus = session.focus.as_ref().unwrap();
    assert_eq!((focus.id.as_str(), focus.invite.as_deref()), ("g1", Some("i1")));
    let mut waiting = view("g1", CHESS_START, &[], Some(Seat::First));
    waiting.status = Status::Waiting;
    session.receive(ServerMessage::State { view: waiting }, 0.0);
    let game = session.game().unwrap();
    assert_eq!(game.status, Status::Waiting);
    assert!(!game.can_move(), "no moves before the opponent comes");
    // The opponent arrives: the page asks for the game as it now stands.
    let arrived =
        ServerMessage::Presence { game: "g1".into(), seat: Seat::Second, connected: true };
    assert_eq!(
        sent(&session.receive(arrived, 0.0)),
        [ClientMessage::Resume { game: "g1".into(), token: "t1".into(), have_plies: Some(0) }]
    );
    session.receive(
        ServerMessage::State { view: view("g1", CHESS_START, &[], Some(Seat::First)) },
        0.0,
    );
    let game = session.game().unwrap();
    assert_eq!(game.players[1].name.as_deref(), Some("Bo"));
    assert!(game.can_move());
}

#[test]
fn reconnecting_resumes_the_seat_and_resends_the_move() {
    let mut session = seated(Seat::First, &[]);
    drop_piece(&mut session, "e2", "e4");
    assert_eq!(session.closed(), [Effect::Connect { after_ms: 1000 }]);
    assert_eq!(session.closed(), [Effect::Connect { after_ms: 2000 }], "backs off");
    for _ in 0..10 {
        session.closed();
    }
    assert_eq!(session.link, Link::Retrying { after_ms: 30_000 });
    assert_eq!(session.intent(Intent::Retry, 0.0), [Effect::Connect { after_ms: 0 }]);
    session.opened();
    let effects = session.receive(ServerMessage::Welcome { version: VERSION, account: None }, 0.0);
    assert_eq!(
        sent(&effects),
        [
            ClientMessage::Resume { game: "g".into(), token: "tok".into(), have_plies: Some(0) },
            ClientMessage::Move { game: "g".into(), ply: 0, text: "e2e4".into() },
        ]
    );
    assert_eq!(session.closed(), [Effect::Connect { after_ms: 1000 }], "welcome resets");
    // Pings are answered.
    session.opened();
    session.receive(ServerMessage::Welcome { version: VERSION, account: None }, 0.0);
    let effects = session.receive(ServerMessage::Ping { nonce: 77 }, 0.0);
    assert_eq!(sent(&effects), [ClientMessage::Pong { nonce: 77 }]);
    // Another version: no more attempts.
    session.receive(
        ServerMessage::Error { code: ErrorCode::VersionMismatch, detail: "v2".into() },
        0.0,
    );
    assert_eq!(session.link, Link::Outdated);
    assert!(session.closed().is_empty());
}

#[test]
fn a_new_name_reconnects_before_the_request() {
    let (mut session, _) = ready(Opening::Lobby);
    session.intent(Intent::SetName("  Bình  ".into()), 0.0);
    let effects = session.intent(Intent::Seek(spec("xiangqi")), 0.0);
    assert_eq!(effects, [Effect::Connect { after_ms: 0 }]);
    assert_eq!(
        session.opened(),
        [Effect::Send(ClientMessage::Hello { version: VERSION, name: "Bình".into() })]
    );
    let effects = session.receive(ServerMessage::Welcome { version: VERSION, account: None }, 0.0);
    assert_eq!(sent(&effects), [ClientMessage::Seek { spec: spec("xiangqi") }]);
    assert_eq!(sent(&session.intent(Intent::CancelSeek, 0.0)), [ClientMessage::CancelSeek]);
    assert!(session.seeking.is_none());
    assert_eq!(clean_name(&"名".repeat(30)).chars().count(), 20);
    assert_eq!(clean_name("Ann \u{7}B "), "Ann B ", "spaces stay while typing");
    // The same name with other spaces around it needs no new connection.
    session.intent(Intent::SetName("Bình ".into()), 0.0);
    let effects = session.intent(
        Intent::Create { spec: spec("gomoku"), seat: SeatChoice::First, listed: false },
        0.0,
    );
    assert_eq!(sent(&effects).len(), 1);
}

/// The server's words when a guest's name is a registered player's (crates/server's `hello`).
const ACCOUNT_NAME: &str = "\"Dora\" is a registered player's name (or looks like one): sign in \
                            to play as Dora, or choose another name";

#[test]
fn a_registered_players_name_has_its_own_words_and_the_page_goes_on_without_it() {
    let hello = |name: &str| ClientMessage::Hello { version: VERSION, name: name.into() };
    let refused =
        |detail: &str| ServerMessage::Error { code: ErrorCode::BadName, detail: detail.into() };
    // The name kept in the browser is an account's: the page says so, forgets the name and
    // says hello without one, so the lobby opens and another name can be chosen.
    let mut session = Session::new(Settings::new(Lang::En), "Dora", Opening::Lobby);
    session.connecting();
    assert_eq!(sent(&session.opened()), [hello("Dora")]);
    assert_eq!(sent(&session.receive(refused(ACCOUNT_NAME), 0.0)), [hello("")]);
    assert!(
        matches!(&session.note, Some(Note::Server(Words::ErrorNameTaken, d)) if d.contains("Dora"))
    );
    assert_eq!(session.name, "");
    session.receive(ServerMessage::Welcome { version: VERSION, account: None }, 0.0);
    assert_eq!(session.link, Link::Ready);
    assert!(session.ever_connected && session.in_lobby(), "the lobby shows");
    // Another name, then a game: a new connection says hello with it, and the game is asked.
    session.intent(Intent::SetName("Dorothy".into()), 0.0);
    let create = Intent::Create { spec: spec("gomoku"), seat: SeatChoice::First, listed: true };
    assert_eq!(session.intent(create.clone(), 0.0), [Effect::Connect { after_ms: 0 }]);
    assert_eq!(sent(&session.opened()), [hello("Dorothy")]);
    let effects = session.receive(ServerMessage::Welcome { version: VERSION, account: None }, 0.0);
    assert!(matches!(sent(&effects)[..], [ClientMessage::Challenge { .. }]));
    // A name typed in the lobby and refused: the game asked under it is not asked later.
    let (mut session, _) = ready(Opening::Lobby);
    session.intent(Intent::SetName("dora".into()), 0.0);
    session.intent(create, 0.0);
    session.opened();
    assert_eq!(sent(&session.receive(refused(ACCOUNT_NAME), 0.0)), [hello("")]);
    let effects = session.receive(ServerMessage::Welcome { version: VERSION, account: None }, 0.0);
    assert!(sent(&effects).is_empty(), "nothing asked under the refused name");
    // An invite taken under it goes back to its card; other refused names keep their words.
    let invite = Opening::Join { game: "g".into(), invite: "inv".into() };
    let mut session = Session::new(Settings::new(Lang::Vi), "Dora", invite);
    session.opened();
    session.receive(refused("U+3164 is invisible"), 0.0);
    assert!(matches!(session.note, Some(Note::Server(Words::ErrorBadName, _))));
    assert_eq!(session.invite, Some(("g".into(), "inv".into())));
    assert!(session.focus.is_none(), "the invite's card shows, with the name to type");
}

#[test]
fn the_server_s_json_is_read() {
    let (mut session, _) = ready(Opening::Game { game: "g7".into(), token: Some("tk".into()) });
    let frames = [
        r#"{"type":"seated","game":"g7","token":"tk","seat":"second"}"#,
        r#"{"type":"state","view":{"game":"g7","spec":{"rules":{"game":"xiangqi"},"clock":{"base_secs":300,"increment_secs":2}},
            "start":"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            "moves":[{"ply":0,"text":"h3e3"}],"clocks":{"remaining_ms":[299000,300000],"running":"second"},
            "players":[{"name":"红","connected":true},{"name":"","connected":false}],"you":"second",
            "status":{"state":"playing"},"watchers":3}}"#,
        r#"{"type":"presence","game":"g7","seat":"second","connected":true}"#,
        r#"{"type":"draw_offered","game":"g7","by":"first"}"#,
        r#"{"type":"moved","game":"g7","mv":{"ply":1,"text":"h10g8"},"clocks":{"remaining_ms":[299000,298500],"running":"first"}}"#,
        r#"{"type":"draw_declined","game":"g7"}"#,
        r#"{"type":"ended","game":"g7","result":{"winner":"first","reason":{"kind":"timeout"}}}"#,
    ];
    for frame in frames {
        session.receive_text(frame, 10.0);
    }
    let game = session.game().expect("the state was read");
    assert_eq!(*game.board.notations, ["C2=5", "H8+7"]);
    assert_eq!((game.you, game.watchers, game.players[1].connected), (Some(Seat::Second), 3, true));
    assert_eq!(game.draw_offer, None);
    assert_eq!(game.board.flagged(), Some(qi_rules::Side::Second));
    assert_eq!(game.remaining_ms(Seat::Second, 99_999.0), Some(298_500.0), "stopped at the end");
}

#[test]
fn a_silent_server_is_taken_for_gone_and_the_game_resumed() {
    let mut session = seated(Seat::First, &["e2e4"]);
    assert!(session.tick(29_999.0).is_empty(), "heard at 0");
    assert_eq!(
        sent(&session.receive(ServerMessage::Ping { nonce: 7 }, 20_000.0)),
        [ClientMessage::Pong { nonce: 7 }]
    );
    assert!(session.tick(49_999.0).is_empty(), "a ping is a sign of life");
    assert_eq!(session.tick(50_000.0), [Effect::Connect { after_ms: 1000 }]);
    assert!(matches!(session.link, Link::Retrying { .. }));
    assert!(session.tick(200_000.0).is_empty(), "no socket: nothing to give up on");
    session.connecting();
    assert!(session.tick(300_000.0).is_empty(), "still opening");
    session.opened();
    assert!(session.tick(400_000.0).is_empty(), "the silence counts from the first tick");
    assert_eq!(session.tick(430_000.0), [Effect::Connect { after_ms: 2000 }], "no welcome");
    session.connecting();
    session.opened();
    assert_eq!(
        sent(
            &session.receive(ServerMessage::Welcome { version: VERSION, account: None }, 500_000.0)
        ),
        [ClientMessage::Resume { game: "g".into(), token: "tok".into(), have_plies: Some(1) }]
    );
    assert!(session.tick(529_999.0).is_empty());
}

mod banqi;
mod hostile;

#[test]
fn signing_in_or_out_opens_the_socket_anew() {
    let (mut session, _) = ready(Opening::Lobby);
    assert_eq!(session.account, None);
    assert_eq!(session.account_changed(), [Effect::Connect { after_ms: 0 }]);
    assert_eq!(session.link, Link::Connecting);
    session.connecting();
    let _ = session.opened();
    let welcome = ServerMessage::Welcome { version: VERSION, account: Some("Ann_1".into()) };
    let _ = session.receive(welcome, 0.0);
    assert_eq!(session.link, Link::Ready);
    assert_eq!(session.account.as_deref(), Some("Ann_1"), "the socket plays as the username");
    let _ = session.account_changed();
    assert_eq!(session.account, None, "until the next welcome says again");
}

mod lobby;
mod moves;
