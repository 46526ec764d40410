use qi_protocol::{
    CHAT_ROOM_MAX_LINES, ChatBody, ChatLine, ChatRoom, ClientMessage, Clocks, EndReason, ErrorCode,
    GameResult, GameSpec, GameView, PlayedMove, PlayerView, QuickMessage, Refusal, Seat,
    SeatChoice, ServerMessage, Status, VERSION,
};
use qi_rules::Cell;

use super::*;
use crate::state::TreeAction;
use crate::state::{Action, Notice, Settings};
use qi_i18n::text::Lang;

const CHESS_START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

fn cell(name: &str) -> Cell {
    name.parse().unwrap()
}

fn spec(variant: &str) -> GameSpec {
    GameSpec { variant: variant.into(), rules: String::new(), clock: None, rated: false }
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
fn a_move_shows_at_once_and_the_server_confirms_it() {
    let mut session = seated(Seat::First, &[]);
    let effects = drop_piece(&mut session, "e2", "e4");
    assert_eq!(
        sent(&effects),
        [ClientMessage::Move { game: "g".into(), ply: 0, text: "e2e4".into() }]
    );
    let game = session.game().unwrap();
    assert_eq!(*game.board.notations, ["e4"], "shown before the answer");
    assert!(game.moves.is_empty() && game.pending.is_some());
    assert!(drop_piece(&mut session, "d2", "d4").is_empty(), "one move at a time: queued");
    session.intent(Intent::Board(Box::new(Action::Cancel)), 0.0);
    assert_eq!(session.game().unwrap().board.premove, None, "Esc drops the queued move");
    let clocks = Clocks { remaining_ms: [59_000, 60_000], running: Some(Seat::Second) };
    session.receive(
        ServerMessage::Moved { game: "g".into(), mv: played(0, "e2e4"), clocks: Some(clocks) },
        1000.0,
    );
    let game = session.game().unwrap();
    assert_eq!((game.moves.len(), game.pending.is_none()), (1, true));
    assert_eq!(*game.board.notations, ["e4"]);
    assert_eq!(game.remaining_ms(Seat::Second, 3000.0), Some(58_000.0), "counts down locally");
    assert_eq!(game.remaining_ms(Seat::First, 3000.0), Some(59_000.0));
    // Not our turn now: the board sends nothing; the move waits (a premove), shown.
    assert!(drop_piece(&mut session, "d2", "d4").is_empty());
    assert_eq!(*session.game().unwrap().board.notations, ["e4"]);
    assert!(session.game().unwrap().board.premove.is_some());
    // The opponent's move comes, and the queued one goes at once (each heard as a move).
    let before = session.game().unwrap().board.clone();
    let effects = session.receive(
        ServerMessage::Moved { game: "g".into(), mv: played(1, "e7e5"), clocks: None },
        0.0,
    );
    assert_eq!(
        sent(&effects),
        [ClientMessage::Move { game: "g".into(), ply: 2, text: "d2d4".into() }]
    );
    let game = session.game().unwrap();
    assert_eq!(*game.board.notations, ["e4", "e5", "d4"]);
    assert_eq!(game.board.premove, None);
    let sound = crate::sound::sound_for(&before, &game.board);
    assert_eq!(sound, Some(crate::sound::Sound::Move), "the reply and the queued move: heard");
    let mut answered = seated(Seat::First, &["e2e4"]);
    let before = answered.game().unwrap().board.clone();
    answered.receive(
        ServerMessage::Moved { game: "g".into(), mv: played(1, "e7e5"), clocks: None },
        0.0,
    );
    let after = &answered.game().unwrap().board;
    assert_eq!(crate::sound::sound_for(&before, after), Some(crate::sound::Sound::Move));
}

#[test]
fn a_queued_move_the_opponent_made_impossible_is_dropped_and_said_so() {
    let mut session = seated(Seat::First, &["e2e4"]);
    // e4-e5 queued; the opponent's e7-e5 blocks it.
    assert!(drop_piece(&mut session, "e4", "e5").is_empty());
    let effects = session.receive(
        ServerMessage::Moved { game: "g".into(), mv: played(1, "e7e5"), clocks: None },
        0.0,
    );
    assert!(sent(&effects).is_empty(), "nothing is sent");
    let game = session.game().unwrap();
    assert!(
        matches!(game.board.notice, Some(Notice::PremoveDropped(Some(_)))),
        "{:?}",
        game.board.notice
    );
    assert_eq!((game.board.premove, game.pending.is_none()), (None, true));
    // A watcher has nothing to queue.
    let opening = Opening::Game { game: "g".into(), token: None };
    let (mut watcher, _) = ready(opening);
    watcher.receive(ServerMessage::State { view: view("g", CHESS_START, &["e2e4"], None) }, 0.0);
    assert!(drop_piece(&mut watcher, "d2", "d4").is_empty());
    assert_eq!(watcher.game().unwrap().board.premove, None);
}

#[test]
fn a_refused_move_is_taken_back_with_the_reason() {
    let mut session = seated(Seat::First, &[]);
    drop_piece(&mut session, "e2", "e4");
    // A refusal for another ply is not about this move.
    let before = snapshot(&session);
    let other = Refusal::NotYourTurn;
    session.receive(ServerMessage::Refused { game: "g".into(), ply: 3, reason: other }, 0.0);
    assert_eq!(snapshot(&session), before);
    let reason = Refusal::NotYourTurn;
    session.receive(ServerMessage::Refused { game: "g".into(), ply: 0, reason }, 0.0);
    let game = session.game().unwrap();
    assert!(game.board.notations.is_empty() && game.pending.is_none(), "taken back");
    assert_eq!(game.note, Some(Note::Say(Words::RefusedNotYourTurn)));
    assert!(game.can_move());
    // Illegal by the server's rules: worded from the local rules when they know why.
    drop_piece(&mut session, "e2", "e4");
    let game = session.focus.as_mut().unwrap().game.as_mut().unwrap();
    game.pending.as_mut().unwrap().text = "e1e3".into();
    let reason = Refusal::Illegal { detail: "that piece cannot move like that".into() };
    session.receive(ServerMessage::Refused { game: "g".into(), ply: 0, reason }, 0.0);
    let game = session.game().unwrap();
    assert!(matches!(game.note, Some(Note::Rules(_))), "{:?}", game.note);
    assert!(game.board.notations.is_empty());
    // Illegal for a reason the local rules do not see: the page's own words.
    drop_piece(&mut session, "e2", "e4");
    let reason = Refusal::Illegal { detail: "repetition".into() };
    session.receive(ServerMessage::Refused { game: "g".into(), ply: 0, reason }, 0.0);
    assert_eq!(session.game().unwrap().note, Some(Note::Say(Words::RefusedIllegal)));
}

#[test]
fn an_error_instead_of_an_answer_takes_the_pending_move_back() {
    let mut session = seated(Seat::First, &[]);
    drop_piece(&mut session, "e2", "e4");
    assert!(session.game().unwrap().pending.is_some());
    let effects = session
        .receive(ServerMessage::Error { code: ErrorCode::Unexpected, detail: "busy".into() }, 0.0);
    assert_eq!(
        sent(&effects),
        [ClientMessage::Resume { game: "g".into(), token: "tok".into(), have_plies: Some(0) }],
        "asks for the game again, in case the move was played"
    );
    let game = session.game().unwrap();
    assert!(game.pending.is_none() && game.board.notations.is_empty(), "taken back");
    let note = Note::Server(Words::ErrorUnexpected, "busy".into());
    assert_eq!(game.note, Some(note.clone()));
    assert_eq!(session.note, Some(note));
    assert!(game.can_move());
    // The move was played after all: the state says so.
    session.receive(ServerMessage::State { view: view("g", CHESS_START, &["e2e4"], None) }, 0.0);
    assert_eq!(*session.game().unwrap().board.notations, ["e4"]);
    // An error with no move pending takes nothing back and asks for nothing.
    let effects = session
        .receive(ServerMessage::Error { code: ErrorCode::Unexpected, detail: "busy".into() }, 0.0);
    assert!(effects.is_empty());
    assert_eq!(*session.game().unwrap().board.notations, ["e4"]);
}

#[test]
fn duplicates_are_ignored_and_gaps_ask_for_the_state() {
    let mut session = seated(Seat::Second, &["e2e4"]);
    let before = snapshot(&session);
    let effects = session.receive(
        ServerMessage::Moved { game: "g".into(), mv: played(0, "e2e4"), clocks: None },
        0.0,
    );
    assert!(effects.is_empty());
    assert_eq!(snapshot(&session), before, "a move already known changes nothing");
    // Ply 3 while this page has 1: a gap. Asks once, from the moves it has.
    let gap = ServerMessage::Moved { game: "g".into(), mv: played(3, "g1f3"), clocks: None };
    let effects = session.receive(gap.clone(), 0.0);
    assert_eq!(
        sent(&effects),
        [ClientMessage::Resume { game: "g".into(), token: "tok".into(), have_plies: Some(1) }]
    );
    assert!(session.receive(gap, 0.0).is_empty(), "asked once until the state comes");
    assert_eq!(session.game().unwrap().moves.len(), 1);
    // The state from ply 1 fills the gap.
    let mut rest = view("g", CHESS_START, &[], Some(Seat::Second));
    rest.moves = vec![played(1, "e7e5"), played(2, "g1f3")];
    rest.from_ply = 1;
    session.receive(ServerMessage::State { view: rest }, 0.0);
    let game = session.game().unwrap();
    assert_eq!(*game.board.notations, ["e4", "e5", "Nf3"]);
    assert!(game.board.flipped, "the second player sees their side at the bottom");
    assert!(game.can_move());
}

#[test]
fn an_illegal_move_from_the_server_changes_nothing() {
    let mut session = seated(Seat::Second, &["e2e4"]);
    let before = snapshot(&session);
    session.receive(
        ServerMessage::Moved { game: "g".into(), mv: played(1, "e7e2"), clocks: None },
        0.0,
    );
    let after = snapshot(&session);
    assert_eq!(session.game().unwrap().moves.len(), 1);
    assert_eq!(after.replace("resync_asked: true", "resync_asked: false"), before);
}

#[test]
fn the_end_locks_the_board_and_says_why() {
    let mut session = seated(Seat::First, &["f2f3", "e7e5", "g2g4", "d8h4"]);
    let game = session.game().unwrap();
    assert!(!game.can_move(), "checkmate: the local rules know");
    let result = GameResult {
        winner: Some(Seat::Second),
        reason: EndReason::Rules { detail: "checkmate".into() },
    };
    session.receive(ServerMessage::Ended { game: "g".into(), result, deal: None }, 0.0);
    let game = session.game().unwrap();
    assert!(matches!(game.status, Status::Ended { .. }));
    let local = game.board.result().unwrap();
    assert_eq!(local.winner, Some(qi_rules::Side::Second));
    // Resignation: the board's own result says who resigned.
    let mut session = seated(Seat::First, &["e2e4"]);
    let result = GameResult { winner: Some(Seat::First), reason: EndReason::Resignation };
    session.receive(ServerMessage::Ended { game: "g".into(), result, deal: None }, 0.0);
    let board = &session.game().unwrap().board;
    assert_eq!(
        board.result().map(|r| (r.winner, r.reason)),
        Some((Some(qi_rules::Side::First), crate::state::ResultReason::Resignation))
    );
    assert!(!board.accepts_moves());
    // Reviewed in the app, the game keeps its ending.
    let review = session.game().unwrap().review_record().expect("a record to review");
    assert_eq!(review.ending, board.record.ending);
    assert!(review.ending.is_some());
    // After the end: a rematch offer, and our acceptance expects the new seat.
    let offer = ServerMessage::RematchOffered { game: "g".into(), by: Seat::Second };
    session.receive(offer, 0.0);
    assert_eq!(session.game().unwrap().rematch_offer, Some(Seat::Second));
    assert_eq!(
        sent(&session.intent(Intent::Rematch, 0.0)),
        [ClientMessage::Rematch { game: "g".into() }]
    );
    let seat = ServerMessage::Seated {
        game: "g2".into(),
        token: "t2".into(),
        seat: Seat::Second,
        invite: None,
    };
    session.receive(seat, 0.0);
    assert_eq!(session.focus.as_ref().unwrap().id, "g2");
}

#[test]
fn game_buttons_send_their_messages_only_when_they_apply() {
    let mut session = seated(Seat::First, &[]);
    for (intent, message) in [
        (Intent::OfferDraw, ClientMessage::OfferDraw { game: "g".into() }),
        (Intent::DeclineDraw, ClientMessage::DeclineDraw { game: "g".into() }),
        (Intent::Abort, ClientMessage::Abort { game: "g".into() }),
        (Intent::ClaimWin, ClientMessage::ClaimWin { game: "g".into() }),
        (Intent::Resign, ClientMessage::Resign { game: "g".into() }),
    ] {
        assert_eq!(sent(&session.intent(intent, 0.0)), [message]);
    }
    assert!(session.intent(Intent::Rematch, 0.0).is_empty(), "no rematch while playing");
    // Spectators send nothing and cannot move.
    let (mut watcher, effects) = ready(Opening::Game { game: "g".into(), token: None });
    assert_eq!(sent(&effects), [ClientMessage::Watch { game: "g".into(), have_plies: None }]);
    watcher.receive(ServerMessage::State { view: view("g", CHESS_START, &[], None) }, 0.0);
    assert!(watcher.intent(Intent::Resign, 0.0).is_empty());
    assert!(drop_piece(&mut watcher, "e2", "e4").is_empty());
    assert!(watcher.game().unwrap().board.notations.is_empty());
    watcher.intent(Intent::Board(Box::new(Action::Tree(TreeAction::FlipBoard))), 0.0);
    assert!(watcher.game().unwrap().board.flipped, "spectators may turn the board");
    // The move list's clicks and keys step through the game online too.
    watcher.receive(
        ServerMessage::State { view: view("g", CHESS_START, &["e2e4", "e7e5"], None) },
        0.0,
    );
    watcher
        .intent(Intent::Board(Box::new(Action::Tree(TreeAction::Go(qi_play::Path::main(1))))), 0.0);
    assert_eq!(watcher.game().unwrap().board.viewing_main_ply(), Some(1));
    watcher.intent(Intent::Board(Box::new(Action::Tree(TreeAction::First))), 0.0);
    assert_eq!(watcher.game().unwrap().board.viewing_main_ply(), Some(0));
    watcher.intent(Intent::Board(Box::new(Action::Tree(TreeAction::Last))), 0.0);
    assert_eq!(watcher.game().unwrap().board.viewing, None);
}

#[test]
fn promotions_wait_for_the_piece() {
    let start = "8/P6k/8/8/8/8/8/K7 w - - 0 1";
    let opening = Opening::Game { game: "g".into(), token: Some("tok".into()) };
    let (mut session, _) = ready(opening);
    session.receive(ServerMessage::State { view: view("g", start, &[], Some(Seat::First)) }, 0.0);
    assert!(drop_piece(&mut session, "a7", "a8").is_empty(), "the dialog asks first");
    assert!(session.game().unwrap().board.promotion.is_some());
    let effects =
        session.intent(Intent::Board(Box::new(Action::Promote { piece: 'n', now: 0.0 })), 0.0);
    assert_eq!(
        sent(&effects),
        [ClientMessage::Move { game: "g".into(), ply: 0, text: "a7a8n".into() }]
    );
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

#[test]
fn the_server_s_json_is_read() {
    let (mut session, _) = ready(Opening::Game { game: "g7".into(), token: Some("tk".into()) });
    let frames = [
        r#"{"type":"seated","game":"g7","token":"tk","seat":"second"}"#,
        r#"{"type":"state","view":{"game":"g7","spec":{"variant":"xiangqi","clock":{"base_secs":300,"increment_secs":2}},
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
fn endings_are_worded_in_the_player_s_language() {
    use super::super::view::result_words;
    let cases = [
        (
            Some(Seat::Second),
            EndReason::Rules { detail: "checkmate".into() },
            "Black wins by checkmate",
            "black",
        ),
        (Some(Seat::First), EndReason::Resignation, "White wins by resignation", "white"),
        (Some(Seat::Second), EndReason::Timeout, "Black wins by timeout", "black"),
        (None, EndReason::Agreement, "Draw by agreement", "draw"),
        (None, EndReason::Aborted, "The game was aborted.", "aborted"),
        (Some(Seat::First), EndReason::Abandoned, "White wins: the opponent left", "white"),
    ];
    for (winner, reason, text, code) in cases {
        let moves: &[&str] = if matches!(reason, EndReason::Rules { .. }) {
            &["f2f3", "e7e5", "g2g4", "d8h4"]
        } else {
            &["e2e4"]
        };
        let mut session = seated(Seat::First, moves);
        let result = GameResult { winner, reason };
        session.receive(ServerMessage::Ended { game: "g".into(), result, deal: None }, 0.0);
        let game = session.game().unwrap();
        assert_eq!(result_words(game, Lang::En), Some((text.to_owned(), code)));
    }
    let mut session = seated(Seat::First, &["e2e4"]);
    session.intent(Intent::SetLanguage(Lang::Zh), 0.0);
    let result = GameResult { winner: None, reason: EndReason::Agreement };
    session.receive(ServerMessage::Ended { game: "g".into(), result, deal: None }, 0.0);
    assert_eq!(result_words(session.game().unwrap(), Lang::Zh).unwrap().0, "双方同意和棋");
}

#[test]
fn draw_offers_come_and_go() {
    let mut session = seated(Seat::Second, &["e2e4"]);
    session.receive(ServerMessage::DrawOffered { game: "g".into(), by: Seat::First }, 0.0);
    assert_eq!(session.game().unwrap().draw_offer, Some(Seat::First));
    // Accepting is offering back.
    assert_eq!(
        sent(&session.intent(Intent::OfferDraw, 0.0)),
        [ClientMessage::OfferDraw { game: "g".into() }]
    );
    assert_eq!(session.game().unwrap().draw_offer, Some(Seat::First), "the server decides");
    assert_eq!(
        sent(&session.intent(Intent::DeclineDraw, 0.0)),
        [ClientMessage::DeclineDraw { game: "g".into() }]
    );
    assert_eq!(session.game().unwrap().draw_offer, None);
    session.receive(ServerMessage::DrawOffered { game: "g".into(), by: Seat::First }, 0.0);
    session.receive(ServerMessage::DrawDeclined { game: "g".into() }, 0.0);
    assert_eq!(session.game().unwrap().draw_offer, None);
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
fn the_players_own_clock_warns_once_when_it_runs_low() {
    let opening = Opening::Game { game: "g".into(), token: Some("tok".into()) };
    let (mut session, _) = ready(opening);
    let clock = Some(qi_protocol::ClockSpec { base_secs: 60, increment_secs: 0 });
    let clocks = Some(Clocks { remaining_ms: [12_000, 30_000], running: Some(Seat::First) });
    let state = GameView {
        spec: GameSpec { clock, ..spec("chess") },
        clocks,
        ..view("g", CHESS_START, &[], Some(Seat::First))
    };
    session.receive(ServerMessage::State { view: state.clone() }, 0.0);
    let game = session.game_shown_mut().unwrap();
    assert!(!game.warn_low_time(1_000.0), "11 s left: not yet");
    assert!(game.warn_low_time(2_500.0), "under 10 s");
    assert!(!game.warn_low_time(3_000.0), "once");
    // Kept when the game is sent again (a reconnection), and never for the opponent's clock.
    session.receive(ServerMessage::State { view: state }, 4_000.0);
    assert!(!session.game_shown_mut().unwrap().warn_low_time(5_000.0));
    let (mut other, _) = ready(Opening::Game { game: "g".into(), token: Some("tok".into()) });
    let view_black = GameView {
        spec: GameSpec { clock, ..spec("chess") },
        clocks,
        ..view("g", CHESS_START, &[], Some(Seat::Second))
    };
    other.receive(ServerMessage::State { view: view_black }, 0.0);
    assert!(!other.game_shown_mut().unwrap().warn_low_time(5_000.0));
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

#[test]
fn takebacks_are_asked_answered_and_lapse() {
    // Black has not moved: nothing of his to take back.
    let mut session = seated(Seat::Second, &["e2e4"]);
    assert_eq!(session.intent(Intent::ProposeTakeback, 0.0), []);
    session.receive(ServerMessage::TakebackOffered { game: "g".into(), by: Seat::First }, 0.0);
    assert_eq!(session.game().unwrap().takeback_offer, Some(Seat::First));
    assert_eq!(
        sent(&session.intent(Intent::DeclineTakeback, 0.0)),
        [ClientMessage::DeclineTakeback { game: "g".into() }]
    );
    assert_eq!(session.game().unwrap().takeback_offer, None);
    session.receive(ServerMessage::TakebackOffered { game: "g".into(), by: Seat::First }, 0.0);
    assert_eq!(
        sent(&session.intent(Intent::AcceptTakeback, 0.0)),
        [ClientMessage::AcceptTakeback { game: "g".into() }]
    );
    // The server's state after it has the move taken back.
    session.receive(
        ServerMessage::State { view: view("g", CHESS_START, &[], Some(Seat::Second)) },
        0.0,
    );
    assert_eq!(session.game().unwrap().moves.len(), 0);

    // White asks; once declined, she is told.
    let mut session = seated(Seat::First, &["e2e4", "e7e5"]);
    assert_eq!(
        sent(&session.intent(Intent::ProposeTakeback, 0.0)),
        [ClientMessage::ProposeTakeback { game: "g".into() }]
    );
    assert_eq!(session.intent(Intent::ProposeTakeback, 0.0), [], "one request at a time");
    assert_eq!(session.intent(Intent::AcceptTakeback, 0.0), [], "not her own");
    session.receive(ServerMessage::TakebackDeclined { game: "g".into() }, 0.0);
    let game = session.game().unwrap();
    assert_eq!(game.takeback_offer, None);
    assert!(matches!(game.note, Some(Note::Say(Words::TakebackDeclined))));
    // A refusal from the server says why, in the page's words and the server's detail, and
    // leaves no request standing on the page.
    assert_eq!(
        sent(&session.intent(Intent::ProposeTakeback, 0.0)),
        [ClientMessage::ProposeTakeback { game: "g".into() }]
    );
    assert_eq!(session.game().unwrap().takeback_offer, Some(Seat::First));
    session.receive(
        ServerMessage::Error {
            code: ErrorCode::NoTakeback,
            detail: "a move that turned a piece up cannot be taken back".into(),
        },
        0.0,
    );
    assert!(matches!(session.note, Some(Note::Server(Words::ErrorNoTakeback, _))));
    assert_eq!(session.game().unwrap().takeback_offer, None, "asked again, it can be");
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
    let follow = Intent::FollowLobby { variant: Some("chess".into()), seek: Some(spec("chess")) };
    assert_eq!(
        sent(&session.intent(follow.clone(), 0.0)),
        [ClientMessage::Lobby { variant: Some("chess".into()), seek: Some(spec("chess")) }]
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
