use qi_protocol::{
    ClientMessage, Clocks, EndReason, ErrorCode, GameResult, GameSpec, GameView, PlayedMove,
    PlayerView, Refusal, Seat, SeatChoice, ServerMessage, Status, VERSION,
};
use qi_rules::any::{AnyGame, StartFrom};
use qi_rules::banqi::BanqiMove;
use qi_rules::banqi::{Banqi, BanqiRules, Square};
use qi_rules::{Cell, Game, RuleSet};

use super::*;
use crate::i18n::Lang;
use crate::state::{Action, Settings};

const CHESS_START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

fn cell(name: &str) -> Cell {
    name.parse().unwrap()
}

fn spec(variant: &str) -> GameSpec {
    GameSpec { variant: variant.into(), rules: String::new(), clock: None }
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
            PlayerView { name: Some("Ann".into()), connected: true },
            PlayerView { name: Some("Bo".into()), connected: true },
        ],
        you,
        status: Status::Playing,
        watchers: 0,
        draw_offer: None,
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
    let effects = session.receive(ServerMessage::Welcome { version: VERSION }, 0.0);
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
    session.intent(Intent::Board(action), 0.0)
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
    let create = Intent::Create { spec: spec("chess"), seat: SeatChoice::First };
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
    assert_eq!(game.board.notations, ["e4"], "shown before the answer");
    assert!(game.moves.is_empty() && game.pending.is_some());
    assert!(drop_piece(&mut session, "d2", "d4").is_empty(), "one move at a time");
    let clocks = Clocks { remaining_ms: [59_000, 60_000], running: Some(Seat::Second) };
    session.receive(
        ServerMessage::Moved { game: "g".into(), mv: played(0, "e2e4"), clocks: Some(clocks) },
        1000.0,
    );
    let game = session.game().unwrap();
    assert_eq!((game.moves.len(), game.pending.is_none()), (1, true));
    assert_eq!(game.board.notations, ["e4"]);
    assert_eq!(game.remaining_ms(Seat::Second, 3000.0), Some(58_000.0), "counts down locally");
    assert_eq!(game.remaining_ms(Seat::First, 3000.0), Some(59_000.0));
    // Not our turn now: the board takes nothing.
    assert!(drop_piece(&mut session, "d2", "d4").is_empty());
    session.receive(
        ServerMessage::Moved { game: "g".into(), mv: played(1, "e7e5"), clocks: None },
        0.0,
    );
    assert_eq!(session.game().unwrap().board.notations, ["e4", "e5"]);
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
    assert_eq!(game.board.notations, ["e4", "e5", "Nf3"]);
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
    assert_eq!(board.resigned, Some(qi_rules::Side::Second));
    assert!(!board.accepts_moves());
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
    watcher.intent(Intent::Board(Action::FlipBoard), 0.0);
    assert!(watcher.game().unwrap().board.flipped, "spectators may turn the board");
}

#[test]
fn promotions_wait_for_the_piece() {
    let start = "8/P6k/8/8/8/8/8/K7 w - - 0 1";
    let opening = Opening::Game { game: "g".into(), token: Some("tok".into()) };
    let (mut session, _) = ready(opening);
    session.receive(ServerMessage::State { view: view("g", start, &[], Some(Seat::First)) }, 0.0);
    assert!(drop_piece(&mut session, "a7", "a8").is_empty(), "the dialog asks first");
    assert!(session.game().unwrap().board.promotion.is_some());
    let effects = session.intent(Intent::Board(Action::Promote { piece: 'n', now: 0.0 }), 0.0);
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
    let effects = session.receive(ServerMessage::Welcome { version: VERSION }, 0.0);
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
    session.receive(ServerMessage::Welcome { version: VERSION }, 0.0);
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
    let effects = session.receive(ServerMessage::Welcome { version: VERSION }, 0.0);
    assert_eq!(sent(&effects), [ClientMessage::Seek { spec: spec("xiangqi") }]);
    assert_eq!(sent(&session.intent(Intent::CancelSeek, 0.0)), [ClientMessage::CancelSeek]);
    assert!(session.seeking.is_none());
    assert_eq!(clean_name(&"名".repeat(30)).chars().count(), 20);
}

#[test]
fn invites_join_or_fall_back_to_watching() {
    let invite = Opening::Join { game: "g".into(), invite: "inv".into() };
    // No name yet: the page waits for the player.
    let mut session = Session::new(Settings::new(Lang::Vi), "", invite.clone());
    session.opened();
    assert!(session.receive(ServerMessage::Welcome { version: VERSION }, 0.0).is_empty());
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
fn hostile_messages_change_nothing() {
    let mut session = seated(Seat::First, &["e2e4", "e7e5"]);
    let long = "x".repeat(100_000);
    let texts = [
        "",
        "null",
        "{",
        "[1,2]",
        r#"{"type":"moved"}"#,
        r#"{"type":"moved","game":"g","mv":{"ply":-1,"text":"e2e4"}}"#,
        r#"{"type":"moved","game":"g","mv":{"ply":99999999999,"text":"e2e4"}}"#,
        r#"{"type":"state","view":{}}"#,
        r#"{"type":"teleport","to":"e8"}"#,
        r#"{"type":"presence","game":"g","seat":"third","connected":true}"#,
        "\u{0}\u{ffff}",
        &long,
    ];
    let before = snapshot(&session);
    for text in texts {
        assert!(session.receive_text(text, 0.0).is_empty(), "{text:.40}");
        assert_eq!(snapshot(&session), before, "{text:.40}");
    }
    let other = "elsewhere".to_owned();
    let messages = [
        ServerMessage::Moved { game: other.clone(), mv: played(2, "g1f3"), clocks: None },
        ServerMessage::Refused { game: other.clone(), ply: 2, reason: Refusal::NotAPlayer },
        ServerMessage::Ended {
            game: other.clone(),
            result: GameResult { winner: None, reason: EndReason::Agreement },
            deal: None,
        },
        ServerMessage::Presence { game: other.clone(), seat: Seat::First, connected: false },
        ServerMessage::Watchers { game: other.clone(), count: u32::MAX },
        ServerMessage::DrawOffered { game: other.clone(), by: Seat::Second },
        ServerMessage::State { view: view(&other, CHESS_START, &[], None) },
        // Not expected: a seat in some game nobody asked for.
        ServerMessage::Seated {
            game: other.clone(),
            token: "t".into(),
            seat: Seat::First,
            invite: None,
        },
        // Our game, but nonsense: a start that does not set up, moves that do not play.
        ServerMessage::State { view: view("g", "not a position", &[], Some(Seat::First)) },
        ServerMessage::State { view: view("g", CHESS_START, &["e2e4", "e2e4"], Some(Seat::First)) },
        ServerMessage::State {
            view: GameView { from_ply: 40, ..view("g", CHESS_START, &["a2a3"], Some(Seat::First)) },
        },
        ServerMessage::RematchOffered { game: "g".into(), by: Seat::Second },
        ServerMessage::Refused { game: "g".into(), ply: u32::MAX, reason: Refusal::NotPlaying },
        ServerMessage::Seeking { spec: spec("chess") },
        ServerMessage::Unknown,
    ];
    for message in messages {
        let shown = format!("{message:?}");
        let effects = session.receive(message, 0.0);
        assert!(effects.is_empty(), "{shown}: {effects:?}");
        let after = snapshot(&session).replace("note: Some(Say(ServerNonsense))", "note: None");
        assert_eq!(after, before, "{shown}");
    }
    // Ids that could not go into a link are never taken.
    let (mut lobby, _) = ready(Opening::Lobby);
    lobby.intent(Intent::Create { spec: spec("chess"), seat: SeatChoice::Random }, 0.0);
    let sneaky = ServerMessage::Seated {
        game: "a&invite=x".into(),
        token: "t".into(),
        seat: Seat::First,
        invite: None,
    };
    assert!(lobby.receive(sneaky, 0.0).is_empty());
    assert!(lobby.focus.is_none());
}

/// A banqi game with its whole deal, played with moves picked by a small generator, and the
/// same game as a client sees it: the concealed start and the reveals.
fn banqi_game(rules: &str, seed: u64, plies: usize) -> (Banqi, String, Vec<PlayedMove>) {
    let rules = BanqiRules::parse(rules).unwrap();
    let mut full = Banqi::start(&rules, seed);
    let concealed = full.conceal().position();
    let mut moves = Vec::new();
    let mut state = seed | 1;
    for ply in 0..plies {
        let legal = full.legal_moves();
        if legal.is_empty() {
            break;
        }
        state =
            state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        let mv = legal[(state >> 33) as usize % legal.len()];
        let text = full.move_text(mv);
        let target = match mv {
            BanqiMove::Flip(cell) | BanqiMove::Step { to: cell, .. } => Some(cell),
            BanqiMove::Stop => None,
        };
        let reveal = match target.map(|cell| full.square(cell)) {
            Some(Square::Hidden(piece)) => Some(piece.letter().to_string()),
            _ => None,
        };
        full.apply(mv).unwrap();
        moves.push(PlayedMove { ply: ply as u32, text, reveal });
    }
    (full, concealed, moves)
}

fn banqi_view(rules: &str, start: &str, moves: Vec<PlayedMove>) -> GameView {
    GameView {
        spec: GameSpec { variant: "banqi".into(), rules: rules.into(), clock: None },
        moves,
        ..view("b", start, &[], Some(Seat::First))
    }
}

fn assert_same_board(online: &OnlineGame, full: &Banqi) {
    let full = AnyGame::Banqi(full.clone());
    for rank in 0..4 {
        for file in 0..8 {
            let cell = Cell::new(file, rank);
            assert_eq!(online.board.game.piece_code(cell), full.piece_code(cell), "{cell}");
            assert_eq!(online.game.piece_code(cell), full.piece_code(cell), "{cell}");
        }
    }
    assert_eq!(online.board.game.side_to_move(), full.side_to_move());
    assert_eq!(online.board.game.outcome(), full.outcome());
}

#[test]
fn banqi_reveals_rebuild_the_game() {
    for (rules, seed) in [("", 7), ("chain=true,capture_hidden=true", 11), ("rush=true", 3)] {
        let (full, concealed, moves) = banqi_game(rules, seed, 120);
        assert!(concealed.contains('?'), "{concealed}");
        assert!(moves.iter().any(|m| m.reveal.is_some()));
        // The whole game in one state.
        let opening = Opening::Game { game: "b".into(), token: Some("t".into()) };
        let (mut session, _) = ready(opening.clone());
        let state = banqi_view(rules, &concealed, moves.clone());
        session.receive(ServerMessage::State { view: state }, 0.0);
        let online = session.game().expect("the state replays");
        assert_eq!(online.board.record.moves.len(), moves.len());
        assert_same_board(online, &full);
        // Move by move.
        let (mut session, _) = ready(opening);
        session
            .receive(ServerMessage::State { view: banqi_view(rules, &concealed, Vec::new()) }, 0.0);
        for mv in &moves {
            session.receive(
                ServerMessage::Moved { game: "b".into(), mv: mv.clone(), clocks: None },
                0.0,
            );
        }
        let online = session.game().unwrap();
        assert_eq!(online.moves.len(), moves.len());
        assert_same_board(online, &full);
        // The board's record replays with the rules alone, as the app would.
        let replayed = online.board.record.replay(usize::MAX);
        assert!(replayed.error.is_none());
        assert_eq!(replayed.notations, online.board.notations);
    }
}

#[test]
fn banqi_reveals_that_do_not_fit_are_refused() {
    let (_, concealed, moves) = banqi_game("", 5, 6);
    let (mut session, _) = ready(Opening::Game { game: "b".into(), token: Some("t".into()) });
    session.receive(ServerMessage::State { view: banqi_view("", &concealed, Vec::new()) }, 0.0);
    let before = snapshot(&session);
    let first = &moves[0];
    for reveal in [None, Some("X".to_owned()), Some("RR".to_owned()), Some(String::new())] {
        let mv = PlayedMove { reveal, ..first.clone() };
        session.receive(ServerMessage::Moved { game: "b".into(), mv, clocks: None }, 0.0);
        let after = snapshot(&session).replace("resync_asked: true", "resync_asked: false");
        assert_eq!(after, before);
    }
}

#[test]
fn a_banqi_flip_waits_for_the_server_to_say_what_it_turned_up() {
    let (_, concealed, _) = banqi_game("", 9, 0);
    let (mut session, _) = ready(Opening::Game { game: "b".into(), token: Some("t".into()) });
    session.receive(ServerMessage::State { view: banqi_view("", &concealed, Vec::new()) }, 0.0);
    let click = Action::ClickCell { cell: cell("c3"), now: 0.0 };
    let effects = session.intent(Intent::Board(click), 0.0);
    assert_eq!(
        sent(&effects),
        [ClientMessage::Move { game: "b".into(), ply: 0, text: "c3".into() }]
    );
    let game = session.game().unwrap();
    assert_eq!(game.pending.as_ref().map(|p| p.shown), Some(false));
    assert_eq!(game.board.game.piece_code(cell("c3")).as_deref(), Some("?"));
    assert!(game.board.notice.is_none(), "no complaint about the unknown piece");
    let mv = PlayedMove { ply: 0, text: "c3".into(), reveal: Some("n".into()) };
    session.receive(ServerMessage::Moved { game: "b".into(), mv, clocks: None }, 0.0);
    let game = session.game().unwrap();
    assert_eq!(game.board.game.piece_code(cell("c3")).as_deref(), Some("bN"));
    assert!(game.pending.is_none());
    // The end brings the deal; a deal that fits makes a record for the app.
    let result = GameResult { winner: None, reason: EndReason::Aborted };
    let deal = "no deal".to_owned();
    session.receive(ServerMessage::Ended { game: "b".into(), result, deal: Some(deal) }, 0.0);
    assert!(session.game().unwrap().review_record().is_none(), "a deal that does not set up");
}

#[test]
fn the_review_record_of_a_banqi_game_uses_the_deal() {
    let (full, concealed, moves) = banqi_game("", 21, 30);
    let (mut session, _) = ready(Opening::Game { game: "b".into(), token: None });
    session.receive(ServerMessage::State { view: banqi_view("", &concealed, moves.clone()) }, 0.0);
    let rules = BanqiRules::default();
    let deal = Banqi::start(&rules, 21).position();
    let result = GameResult { winner: Some(Seat::First), reason: EndReason::Resignation };
    session
        .receive(ServerMessage::Ended { game: "b".into(), result, deal: Some(deal.clone()) }, 0.0);
    let record = session.game().unwrap().review_record().expect("the deal fits");
    let game = record.replay(usize::MAX).game;
    assert_eq!(game.position(), AnyGame::Banqi(full).position(), "every piece known");
    let start = StartFrom::Position(&deal);
    assert!(AnyGame::new("banqi", "", &start).is_ok());
}
