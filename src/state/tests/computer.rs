//! Playing the computer: its answers, premoves, hints, a stopped engine, opening names.

use super::*;

#[test]
fn against_the_computer_the_person_moves_only_their_side() {
    let mut s = vs_computer(GameKind::Chess, Side::First);
    assert!(!s.flipped, "White's view for the player of White");
    assert!(!s.computer_should_move());
    drag(&mut s, "e2", "e4");
    assert!(s.computer_should_move(), "Black is the computer's");
    assert!(!s.accepts_moves(), "the board takes no move for the computer's side");
    drag(&mut s, "e7", "e5");
    assert_eq!(s.record.moves.len(), 1);

    let black = vs_computer(GameKind::Xiangqi, Side::Second);
    assert!(black.flipped, "the player of Black sees the board from Black's side");
    assert!(black.computer_should_move());
}
/// The computer (asked at once) answers `best`, a move of the position.
fn computer_answers(s: &mut AppState, best: &str) {
    let best = s.game.read_move(best).expect("a move of the position");
    let id = s.engine.next_request;
    s.apply(Action::Engine(EngineAction::StartThinking { id, hint: false }));
    let search = SearchSummary::default();
    s.apply(Action::Engine(EngineAction::ComputerAnswer {
        id,
        best: Some(best),
        search,
        now: 0.0,
    }));
}
#[test]
fn a_move_made_on_the_computers_turn_is_queued_and_played_after_its_reply() {
    let mut s = vs_computer(GameKind::Chess, Side::First);
    drag(&mut s, "e2", "e4");
    assert!(s.premove_allowed());
    drag(&mut s, "g1", "f3");
    assert_eq!(s.premove, Some(Premove { from: cell("g1"), to: cell("f3") }));
    assert_eq!(s.record.moves, ["e2e4"], "queued, not played");
    assert!(crate::board_model::board_view(&s).interactive, "the board takes the premove");
    // Not played before the person's turn.
    s.apply(Action::PlayPremove { now: 0.0 });
    assert_eq!(s.record.moves, ["e2e4"]);
    computer_answers(&mut s, "e7e5");
    assert_eq!(s.record.moves, ["e2e4", "e7e5"]);
    s.apply(Action::PlayPremove { now: 0.0 });
    assert_eq!(s.record.moves, ["e2e4", "e7e5", "g1f3"]);
    assert_eq!(s.premove, None);
    assert!(s.computer_should_move(), "and the computer answers that");

    // By clicks; a move that the reply made impossible is dropped and said so (no refusal).
    click(&mut s, "f3");
    assert_eq!(s.selected, Some(cell("f3")));
    click(&mut s, "e5");
    assert_eq!(s.premove, Some(Premove { from: cell("f3"), to: cell("e5") }));
    computer_answers(&mut s, "b8c6");
    s.apply(Action::PlayPremove { now: 0.0 });
    assert_eq!(s.record.moves.last().map(String::as_str), Some("f3e5"), "Nxe5 is legal");
    let refusals = s.refusals;
    drag(&mut s, "e4", "e5");
    computer_answers(&mut s, "c6e5");
    s.apply(Action::PlayPremove { now: 0.0 });
    assert!(
        matches!(s.notice, Some(Notice::PremoveDropped(Some(_)))),
        "a pawn can't take straight ahead: {:?}",
        s.notice
    );
    assert_eq!((s.premove, s.refusals), (None, refusals));
}
#[test]
fn a_queued_move_is_cancelled_by_a_click_a_right_click_or_esc() {
    let mut s = vs_computer(GameKind::Chess, Side::First);
    drag(&mut s, "e2", "e4");
    let queue = |s: &mut AppState| {
        drag(s, "d2", "d4");
        assert!(s.premove.is_some());
    };
    queue(&mut s);
    click(&mut s, "h5");
    assert_eq!((s.premove, s.selected), (None, None), "a click elsewhere");
    queue(&mut s);
    let shape = qi_play::Shape { from: cell("a1"), to: cell("a3"), brush: qi_play::Brush::Green };
    s.apply(Action::Tree(TreeAction::ToggleShape(shape)));
    assert_eq!(s.premove, None, "a right-click");
    assert!(s.record.shapes_at(&s.shown_path()).is_empty(), "and draws nothing");
    queue(&mut s);
    s.apply(Action::Cancel);
    assert_eq!(s.premove, None, "Esc");
    // The computer's pieces are not the person's to queue; nor is anything after the end.
    drag(&mut s, "e7", "e5");
    assert_eq!(s.premove, None);
    queue(&mut s);
    s.apply(Action::Resign);
    assert!(!s.premove_allowed());
    computer_answers(&mut s, "e7e5");
    s.apply(Action::PlayPremove { now: 0.0 });
    assert_eq!(s.record.moves, ["e2e4"]);
}
#[test]
fn stones_flips_and_promotions_can_be_queued() {
    let mut gomoku = vs_computer(GameKind::Gomoku, Side::First);
    click(&mut gomoku, "h8");
    click(&mut gomoku, "j9");
    assert_eq!(gomoku.premove, Some(Premove { from: cell("j9"), to: cell("j9") }));
    computer_answers(&mut gomoku, "j9");
    gomoku.apply(Action::PlayPremove { now: 0.0 });
    assert!(matches!(gomoku.notice, Some(Notice::PremoveDropped(_))), "the point was taken");
    assert_eq!(gomoku.record.moves, ["h8", "j9"]);

    // A banqi flip, queued on a face-down piece.
    let mut banqi = vs_computer(GameKind::Banqi, Side::First);
    click(&mut banqi, "a1");
    assert_eq!(banqi.record.moves.len(), 1);
    click(&mut banqi, "h4");
    assert_eq!(banqi.premove, Some(Premove { from: cell("h4"), to: cell("h4") }));
    let reply = banqi.game.legal_moves().into_iter().find(|m| !m.contains("h4")).expect("a reply");
    computer_answers(&mut banqi, &reply);
    banqi.apply(Action::PlayPremove { now: 0.0 });
    assert_eq!(banqi.record.moves.last().map(String::as_str), Some("h4"));

    // A pawn queued onto the last rank becomes a queen.
    let record = GameRecord::from_parts(
        GameKind::Chess,
        default_rules(GameKind::Chess),
        qi_play::record::Start::Position("7k/P7/8/8/8/8/8/K7 b - - 0 1".into()),
        Vec::new(),
    );
    let mut settings = Settings::new(Lang::En);
    settings.mode = Mode::VsComputer { human: Side::First };
    let (mut chess, _) = AppState::restore(settings, record);
    drag(&mut chess, "a7", "a8");
    computer_answers(&mut chess, "h8g8");
    chess.apply(Action::PlayPremove { now: 0.0 });
    assert_eq!(chess.record.moves.last().map(String::as_str), Some("a7a8q"));
}
#[test]
fn the_computers_answer_is_played_once_and_stale_answers_are_ignored() {
    let mut s = vs_computer(GameKind::Chess, Side::First);
    drag(&mut s, "e2", "e4");
    let id = s.engine.next_request;
    s.apply(Action::Engine(EngineAction::StartThinking { id, hint: false }));
    assert_eq!(s.engine.thinking, Some((id, false)));
    assert!(!s.computer_should_move(), "one request at a time");
    s.apply(Action::Engine(EngineAction::ComputerAnswer {
        id: id + 7,
        best: Some(chess_move("e7e5")),
        search: SearchSummary::default(),
        now: 0.0,
    }));
    assert_eq!(s.record.moves.len(), 1, "an answer to another request is ignored");
    s.apply(Action::Engine(EngineAction::ComputerAnswer {
        id,
        best: Some(chess_move("e7e5")),
        search: SearchSummary::default(),
        now: 0.0,
    }));
    assert_eq!(s.record.moves, ["e2e4", "e7e5"]);
    assert!(s.computer_moved);
    assert_eq!(s.engine.thinking, None);
    s.apply(Action::Engine(EngineAction::ComputerAnswer {
        id,
        best: Some(chess_move("g8f6")),
        search: SearchSummary::default(),
        now: 0.0,
    }));
    assert_eq!(s.record.moves.len(), 2, "the same answer twice is played once");
}
#[test]
fn undo_against_the_computer_returns_to_the_persons_turn() {
    let mut s = vs_computer(GameKind::Chess, Side::First);
    drag(&mut s, "e2", "e4");
    let id = s.engine.next_request;
    s.apply(Action::Engine(EngineAction::StartThinking { id, hint: false }));
    s.apply(Action::Engine(EngineAction::ComputerAnswer {
        id,
        best: Some(chess_move("e7e5")),
        search: SearchSummary::default(),
        now: 0.0,
    }));
    s.apply(Action::Undo { now: 0.0 });
    assert!(s.record.moves.is_empty(), "the reply and the person's move are taken back");
    drag(&mut s, "d2", "d4");
    let id = s.engine.next_request;
    s.apply(Action::Engine(EngineAction::StartThinking { id, hint: false }));
    s.apply(Action::Undo { now: 0.0 });
    assert!(s.record.moves.is_empty() && s.engine.thinking.is_none(), "undo while it thinks");
    s.apply(Action::Engine(EngineAction::ComputerAnswer {
        id,
        best: Some(chess_move("d7d5")),
        search: SearchSummary::default(),
        now: 0.0,
    }));
    assert!(s.record.moves.is_empty(), "the cancelled answer is dropped");
}
#[test]
fn a_hint_is_shown_not_played() {
    let mut s = state(GameKind::Chess);
    let id = s.engine.next_request;
    s.apply(Action::Engine(EngineAction::StartThinking { id, hint: true }));
    s.apply(Action::Engine(EngineAction::ComputerAnswer {
        id,
        best: Some(chess_move("g1f3")),
        search: SearchSummary::default(),
        now: 0.0,
    }));
    assert!(s.record.moves.is_empty());
    assert_eq!(
        s.engine.hint,
        Some(HintMove { from: Some(cell("g1")), to: cell("f3"), step: None })
    );
    drag(&mut s, "e2", "e4");
    assert_eq!(s.engine.hint, None, "a move clears the hint");
}
#[test]
fn a_hint_to_take_a_colour_marks_the_button_not_the_board() {
    let mut s = state(GameKind::Gomoku);
    s.apply(Action::SetRule { key: "opening".into(), value: "swap".into(), seed: 0 });
    s.play_mut().settings.mode = Mode::HotSeat;
    for point in ["h8", "i9", "j10"] {
        click(&mut s, point);
    }
    let id = s.engine.next_request;
    s.apply(Action::Engine(EngineAction::StartThinking { id, hint: true }));
    let search = SearchSummary::default();
    s.apply(Action::Engine(EngineAction::ComputerAnswer {
        id,
        best: Some(AnyMove::Gomoku(GomokuMove::Take(Side::Second))),
        search,
        now: 0.0,
    }));
    let view = crate::board_model::board_view(&s);
    assert_eq!(view.hint_move, None, "no ring on the last stone");
    assert!(view.cells.iter().all(|c| c.suggested.is_none()));
    let buttons = crate::components::controls::game_buttons_view(&s);
    assert_eq!(buttons.suggested, Some(GomokuMove::Take(Side::Second)));
}
#[test]
fn an_engine_that_gives_no_move_is_said_and_can_be_asked_again() {
    let mut s = vs_computer(GameKind::Chess, Side::First);
    drag(&mut s, "e2", "e4");
    let no_move = |s: &mut AppState, hint: bool| {
        let id = s.engine.next_request;
        s.apply(Action::Engine(EngineAction::StartThinking { id, hint }));
        let search = SearchSummary::default();
        s.apply(Action::Engine(EngineAction::ComputerAnswer { id, best: None, search, now: 0.0 }));
    };
    assert!(s.computer_to_be_asked());
    no_move(&mut s, false);
    assert_eq!(s.notice, Some(Notice::EngineStopped), "the player is told");
    assert!(s.computer_should_move(), "the computer's turn is still due");
    assert!(!s.computer_to_be_asked(), "but not asked again by itself");
    s.apply(Action::Engine(EngineAction::AskComputerAgain));
    assert_eq!(s.notice, None);
    assert!(s.computer_to_be_asked(), "asked again");
    // The new answer is played as usual.
    computer_answers(&mut s, "e7e5");
    assert_eq!(s.record.moves, ["e2e4", "e7e5"]);
    // Undo moves away from the move it stopped at: the computer is asked as usual.
    drag(&mut s, "d2", "d4");
    no_move(&mut s, false);
    assert!(!s.computer_to_be_asked());
    s.apply(Action::Undo { now: 0.0 });
    drag(&mut s, "c2", "c4");
    assert!(s.computer_to_be_asked(), "after Undo and another move");
    // A new game starts without it.
    no_move(&mut s, false);
    s.apply(Action::NewGame { seed: 1 });
    assert_eq!(s.engine.stopped_at, None);
    // A hint that does not come says nothing: the hint button is there to press again.
    let mut s = vs_computer(GameKind::Chess, Side::First);
    no_move(&mut s, true);
    assert_eq!(s.notice, None);
}
fn named(code: &str, name: &str) -> Option<qi_play::openings::Opening> {
    Some(qi_play::openings::Opening {
        code: code.into(),
        name: name.into(),
        name_zh: None,
        name_vi: None,
    })
}
#[test]
fn an_opening_name_stays_while_the_next_move_is_looked_up_and_its_line_is_held_from_the_first_move()
{
    let mut s = state(GameKind::Chess);
    assert!(!s.holds_opening_line(), "no line before the first move");
    drag(&mut s, "e2", "e4");
    assert!(s.holds_opening_line(), "the line is there with the move");
    assert_eq!(s.shown_opening(), None, "not named yet");
    s.apply(Action::Engine(EngineAction::OpeningFound {
        moves: vec!["e2e4".into()],
        opening: named("B00", "King's Pawn"),
    }));
    assert_eq!(s.shown_opening().map(|o| o.name.as_str()), Some("King's Pawn"));
    // The next move is being looked up: the line's name stays.
    drag(&mut s, "e7", "e5");
    assert_eq!(s.shown_opening().map(|o| o.name.as_str()), Some("King's Pawn"));
    // A late answer for a line that is no longer the game's is not taken.
    s.apply(Action::Engine(EngineAction::OpeningFound {
        moves: vec!["e2e4".into()],
        opening: named("B00", "Stale"),
    }));
    assert_eq!(s.shown_opening().map(|o| o.name.as_str()), Some("King's Pawn"));
    let both = vec!["e2e4".to_owned(), "e7e5".to_owned()];
    s.apply(Action::Engine(EngineAction::OpeningFound {
        moves: both,
        opening: named("C20", "King's Pawn Game"),
    }));
    assert_eq!(s.shown_opening().map(|o| o.code.as_str()), Some("C20"));
    // Back a move: the longer line's name is not this line's.
    s.apply(Action::Undo { now: 0.0 });
    assert_eq!(s.record.moves, ["e2e4"]);
    assert_eq!(s.shown_opening(), None);
    assert!(s.holds_opening_line());
    s.apply(Action::Undo { now: 0.0 });
    assert!(!s.holds_opening_line());
    // Banqi and gomoku name no openings, so they keep no line.
    let mut g = state(GameKind::Gomoku);
    click(&mut g, "h8");
    assert!(!g.holds_opening_line());
}
#[test]
fn play_the_computer_is_offered_only_where_it_loses_no_game() {
    use crate::components::controls::game_buttons_view;
    // Two players, nothing played yet: one click to the computer.
    let mut s = state(GameKind::Chess);
    assert!(game_buttons_view(&s).play_computer.is_some());
    // A two-player game under way would be replaced: not offered.
    drag(&mut s, "e2", "e4");
    assert_eq!(game_buttons_view(&s).play_computer, None);
    // Once it is over, it is offered again.
    s.apply(Action::Resign);
    assert!(s.result().is_some());
    assert!(game_buttons_view(&s).play_computer.is_some());
}
#[test]
fn an_answer_the_rules_refuse_is_said_not_played_and_shows_no_hint() {
    // A typed move still goes through the rules: a confused engine cannot move for Black twice
    // or put a hint on a move that is not there.
    let mut s = vs_computer(GameKind::Chess, Side::First);
    drag(&mut s, "e2", "e4");
    let id = s.engine.next_request;
    s.apply(Action::Engine(EngineAction::StartThinking { id, hint: false }));
    let search = SearchSummary::default();
    let best = Some(chess_move("e4e5"));
    s.apply(Action::Engine(EngineAction::ComputerAnswer { id, best, search, now: 0.0 }));
    assert_eq!(s.record.moves, ["e2e4"]);
    assert!(matches!(s.notice, Some(Notice::Illegal(_))), "{:?}", s.notice);
    let mut s = state(GameKind::Chess);
    let id = s.engine.next_request;
    s.apply(Action::Engine(EngineAction::StartThinking { id, hint: true }));
    let best = Some(chess_move("e2e5"));
    s.apply(Action::Engine(EngineAction::ComputerAnswer { id, best, search, now: 0.0 }));
    assert_eq!((s.engine.hint, s.record.moves.len()), (None, 0));
}
