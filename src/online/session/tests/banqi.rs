//! Banqi through the server: a concealed start and the pieces each move turns up.

use qi_protocol::{AnyRules, Variant};
use qi_protocol::{EndReason, GameResult, GameSpec, GameView, PlayedMove, Seat, ServerMessage};
use qi_rules::any::{AnyGame, StartFrom};
use qi_rules::banqi::{Banqi, BanqiMove, BanqiRules, Square};
use qi_rules::{Cell, Game, RuleSet};

use super::{cell, ready, sent, snapshot, view};
use crate::online::game::OnlineGame;
use crate::online::session::{Intent, Opening};
use crate::state::Action;
use qi_protocol::ClientMessage;

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
        spec: GameSpec {
            rules: AnyRules::parse(Variant::Banqi, rules).unwrap(),
            ..GameSpec::of(Variant::Banqi)
        },
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
        assert_eq!(replayed.notations, *online.board.notations);
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
    let effects = session.intent(Intent::Board(Box::new(click)), 0.0);
    assert_eq!(
        sent(&effects),
        [ClientMessage::Move { game: "b".into(), ply: 0, text: "c3".into() }]
    );
    let game = session.game().unwrap();
    assert_eq!(game.pending.as_ref().map(|p| p.shown), Some(false));
    assert_eq!(game.board.game.piece_code(cell("c3")).as_deref(), Some("?"));
    assert!(game.board.notice.is_none(), "no complaint about the unknown piece");
    assert_eq!(game.board.refusals, 0, "a flip is no refused move (no refusal sound)");
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

#[test]
fn a_finished_banqi_game_s_view_brings_the_deal() {
    let (full, concealed, moves) = banqi_game("", 21, 30);
    let deal = Banqi::start(&BanqiRules::default(), 21).position();
    let result = GameResult { winner: Some(Seat::First), reason: EndReason::Resignation };
    let ended = GameView {
        status: qi_protocol::Status::Ended { result },
        deal: Some(deal.clone()),
        ..banqi_view("", &concealed, moves.clone())
    };
    // A reload, or a late spectator: the whole game at once.
    let (mut session, _) = ready(Opening::Game { game: "b".into(), token: None });
    session.receive(ServerMessage::State { view: ended.clone() }, 0.0);
    let online = session.game().unwrap();
    assert_eq!(online.deal.as_deref(), Some(deal.as_str()));
    let record = online.review_record().expect("the deal fits");
    assert_eq!(record.replay(usize::MAX).game.position(), AnyGame::Banqi(full).position());
    // A page that had the moves already takes it too.
    let (mut session, _) = ready(Opening::Game { game: "b".into(), token: None });
    session.receive(ServerMessage::State { view: banqi_view("", &concealed, moves) }, 0.0);
    assert_eq!(session.game().unwrap().deal, None, "no deal while it is played");
    session.receive(ServerMessage::State { view: ended }, 0.0);
    assert_eq!(session.game().unwrap().deal.as_deref(), Some(deal.as_str()));
}
