//! A seated game: moves shown at once and confirmed, refusals, the end, offers, takebacks, the clock.

use super::*;
use qi_protocol::GameAction;

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
    // Illegal by the server's rules: the server's reason, a value, worded by the page.
    drop_piece(&mut session, "e2", "e4");
    let reason = Refusal::Illegal { reason: qi_rules::IllegalReason::WrongMovement };
    session.receive(ServerMessage::Refused { game: "g".into(), ply: 0, reason }, 0.0);
    let game = session.game().unwrap();
    assert_eq!(game.note, Some(Note::Rules(qi_rules::IllegalReason::WrongMovement)));
    assert!(game.board.notations.is_empty());
    // A move the server could not read: the page's own words.
    drop_piece(&mut session, "e2", "e4");
    let reason = Refusal::Unreadable;
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
        reason: EndReason::Rules { reason: qi_protocol::RulesEnd::Checkmate },
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
        sent(&session.intent(Intent::Act(GameAction::Rematch), 0.0)),
        [ClientMessage::Act { game: "g".into(), action: GameAction::Rematch }]
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
        (
            Intent::Act(GameAction::OfferDraw),
            ClientMessage::Act { game: "g".into(), action: GameAction::OfferDraw },
        ),
        (
            Intent::Act(GameAction::DeclineDraw),
            ClientMessage::Act { game: "g".into(), action: GameAction::DeclineDraw },
        ),
        (
            Intent::Act(GameAction::Abort),
            ClientMessage::Act { game: "g".into(), action: GameAction::Abort },
        ),
        (
            Intent::Act(GameAction::ClaimWin),
            ClientMessage::Act { game: "g".into(), action: GameAction::ClaimWin },
        ),
        (
            Intent::Act(GameAction::Resign),
            ClientMessage::Act { game: "g".into(), action: GameAction::Resign },
        ),
    ] {
        assert_eq!(sent(&session.intent(intent, 0.0)), [message]);
    }
    assert!(
        session.intent(Intent::Act(GameAction::Rematch), 0.0).is_empty(),
        "no rematch while playing"
    );
    // Spectators send nothing and cannot move.
    let (mut watcher, effects) = ready(Opening::Game { game: "g".into(), token: None });
    assert_eq!(sent(&effects), [ClientMessage::Watch { game: "g".into(), have_plies: None }]);
    watcher.receive(ServerMessage::State { view: view("g", CHESS_START, &[], None) }, 0.0);
    assert!(watcher.intent(Intent::Act(GameAction::Resign), 0.0).is_empty());
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
fn endings_are_worded_in_the_player_s_language() {
    use crate::online::view::result_words;
    let cases = [
        (
            Some(Seat::Second),
            EndReason::Rules { reason: qi_protocol::RulesEnd::Checkmate },
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
        sent(&session.intent(Intent::Act(GameAction::OfferDraw), 0.0)),
        [ClientMessage::Act { game: "g".into(), action: GameAction::OfferDraw }]
    );
    assert_eq!(session.game().unwrap().draw_offer, Some(Seat::First), "the server decides");
    assert_eq!(
        sent(&session.intent(Intent::Act(GameAction::DeclineDraw), 0.0)),
        [ClientMessage::Act { game: "g".into(), action: GameAction::DeclineDraw }]
    );
    assert_eq!(session.game().unwrap().draw_offer, None);
    session.receive(ServerMessage::DrawOffered { game: "g".into(), by: Seat::First }, 0.0);
    session.receive(ServerMessage::DrawDeclined { game: "g".into() }, 0.0);
    assert_eq!(session.game().unwrap().draw_offer, None);
}
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
#[test]
fn takebacks_are_asked_answered_and_lapse() {
    // Black has not moved: nothing of his to take back.
    let mut session = seated(Seat::Second, &["e2e4"]);
    assert_eq!(session.intent(Intent::Act(GameAction::ProposeTakeback), 0.0), []);
    session.receive(ServerMessage::TakebackOffered { game: "g".into(), by: Seat::First }, 0.0);
    assert_eq!(session.game().unwrap().takeback_offer, Some(Seat::First));
    assert_eq!(
        sent(&session.intent(Intent::Act(GameAction::DeclineTakeback), 0.0)),
        [ClientMessage::Act { game: "g".into(), action: GameAction::DeclineTakeback }]
    );
    assert_eq!(session.game().unwrap().takeback_offer, None);
    session.receive(ServerMessage::TakebackOffered { game: "g".into(), by: Seat::First }, 0.0);
    assert_eq!(
        sent(&session.intent(Intent::Act(GameAction::AcceptTakeback), 0.0)),
        [ClientMessage::Act { game: "g".into(), action: GameAction::AcceptTakeback }]
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
        sent(&session.intent(Intent::Act(GameAction::ProposeTakeback), 0.0)),
        [ClientMessage::Act { game: "g".into(), action: GameAction::ProposeTakeback }]
    );
    assert_eq!(
        session.intent(Intent::Act(GameAction::ProposeTakeback), 0.0),
        [],
        "one request at a time"
    );
    assert_eq!(session.intent(Intent::Act(GameAction::AcceptTakeback), 0.0), [], "not her own");
    session.receive(ServerMessage::TakebackDeclined { game: "g".into() }, 0.0);
    let game = session.game().unwrap();
    assert_eq!(game.takeback_offer, None);
    assert!(matches!(game.note, Some(Note::Say(Words::TakebackDeclined))));
    // A refusal from the server says why, in the page's words and the server's detail, and
    // leaves no request standing on the page.
    assert_eq!(
        sent(&session.intent(Intent::Act(GameAction::ProposeTakeback), 0.0)),
        [ClientMessage::Act { game: "g".into(), action: GameAction::ProposeTakeback }]
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
