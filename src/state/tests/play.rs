//! The move input: clicks, drags, promotion, undo, banqi chains, gomoku openings, refusals.

use super::*;

#[test]
fn click_to_move_selects_then_moves() {
    let mut s = state(GameKind::Chess);
    click(&mut s, "e2");
    assert_eq!(s.selected, Some(cell("e2")));
    assert!(s.game.legal_destinations(cell("e2")).contains(&cell("e4")));
    click(&mut s, "e4");
    assert_eq!(s.record.moves, ["e2e4"]);
    assert_eq!(*s.notations, ["e4"]);
    assert_eq!(s.selected, None);
}
#[test]
fn clicking_the_selected_piece_deselects_and_another_piece_reselects() {
    let mut s = state(GameKind::Chess);
    click(&mut s, "e2");
    click(&mut s, "e2");
    assert_eq!(s.selected, None);
    click(&mut s, "e2");
    click(&mut s, "g1");
    assert_eq!(s.selected, Some(cell("g1")));
}
#[test]
fn a_refused_move_keeps_the_position_and_says_why() {
    let mut s = state(GameKind::Xiangqi);
    drag(&mut s, "h3", "h3");
    assert_eq!(s.selected, Some(cell("h3")), "a drop on the origin keeps the piece selected");
    // The horse on b1 cannot jump to d2 (not a horse move), and the elephant cannot leave c1 for e5.
    drag(&mut s, "c1", "e5");
    assert_eq!(s.notice, Some(Notice::Illegal(IllegalReason::WrongMovement)));
    assert!(s.record.moves.is_empty());
    click(&mut s, "e4");
    click(&mut s, "e3");
    assert_eq!(s.notice, Some(Notice::Illegal(IllegalReason::SoldierCannotRetreat)));
}
#[test]
fn drag_and_drop_plays_a_move() {
    let mut s = state(GameKind::Xiangqi);
    drag(&mut s, "h3", "e3");
    assert_eq!(*s.notations, ["C2=5"]);
    assert_eq!(s.game.side_to_move(), Side::Second);
}
#[test]
fn promotion_waits_for_the_piece() {
    let mut s = state(GameKind::Chess);
    Rc::make_mut(&mut s.play_mut().record).start =
        qi_play::record::Start::Position("4k3/P7/8/8/8/8/8/4K3 w - - 0 1".into());
    s.play_mut().game = Rc::new(s.record.start_game());
    drag(&mut s, "a7", "a8");
    assert_eq!(s.promotion.as_ref().map(|p| p.choices.len()), Some(4));
    assert!(s.record.moves.is_empty());
    s.apply(Action::CancelPromotion);
    assert_eq!(s.promotion, None);
    drag(&mut s, "a7", "a8");
    s.apply(Action::Promote { piece: 'n', now: 0.0 });
    assert_eq!(s.record.moves, ["a7a8n"]);
    assert_eq!(*s.notations, ["a8=N"]);
}
#[test]
fn banqi_click_flips_a_face_down_piece() {
    let mut s = state(GameKind::Banqi);
    assert_eq!(s.game.piece_code(cell("c3")).as_deref(), Some("?"));
    click(&mut s, "c3");
    assert_eq!(s.record.moves, ["c3"]);
    assert_ne!(s.game.piece_code(cell("c3")).as_deref(), Some("?"));
}
#[test]
fn gomoku_click_places_a_stone_and_five_wins() {
    let mut s = state(GameKind::Gomoku);
    for point in ["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4", "l8"] {
        click(&mut s, point);
    }
    let result = s.result().expect("five in a row");
    assert_eq!(result.winner, Some(Side::First));
    assert_eq!(result.reason, ResultReason::Rules(EndReason::FiveInARow));
    assert_eq!(result.line.len(), 5);
    assert!(!s.accepts_moves());
    click(&mut s, "m8");
    assert_eq!(s.record.moves.len(), 9, "no move after the end");
    s.apply(Action::CloseOverlay);
    assert!(s.overlay_closed);
    s.apply(Action::Undo { now: 0.0 });
    assert!(s.result().is_none());
    assert!(!s.overlay_closed);
    assert_eq!(s.record.moves.len(), 8);
}
#[test]
fn undo_takes_back_one_move() {
    let mut s = state(GameKind::Chess);
    drag(&mut s, "e2", "e4");
    drag(&mut s, "e7", "e5");
    s.apply(Action::Undo { now: 0.0 });
    assert_eq!(s.record.moves, ["e2e4"]);
    assert_eq!(*s.notations, ["e4"]);
    assert_eq!(s.game.side_to_move(), Side::Second);
    s.apply(Action::Undo { now: 0.0 });
    s.apply(Action::Undo { now: 0.0 });
    assert!(s.record.moves.is_empty());
}
#[test]
fn undo_of_moves_with_notes_says_so_and_can_put_them_back() {
    let mut s = state(GameKind::Chess);
    drag(&mut s, "e2", "e4");
    // Undo of a move without notes: nothing to say.
    s.apply(Action::Undo { now: 0.0 });
    assert_eq!((s.notice.clone(), s.taken_back.is_some()), (None, false));
    drag(&mut s, "e2", "e4");
    drag(&mut s, "e7", "e5");
    s.apply(Action::Tree(TreeAction::SetComment("The open game.".into())));
    s.apply(Action::Tree(TreeAction::ToggleMark(qi_play::Mark(1))));
    let before = s.record.clone();
    s.apply(Action::Undo { now: 0.0 });
    assert_eq!(s.record.moves, ["e2e4"]);
    assert!(!s.record.has_notes());
    assert_eq!(s.notice, Some(Notice::NotesTakenBack));
    s.apply(Action::RestoreTakenBack { now: 0.0 });
    assert_eq!(s.record, before);
    assert_eq!(*s.notations, ["e4", "e5"]);
    assert_eq!(s.game.side_to_move(), Side::First);
    assert_eq!(s.notice, None);
    // Once another move is played, what Undo took stays gone.
    s.apply(Action::Undo { now: 0.0 });
    drag(&mut s, "c7", "c5");
    assert_eq!(s.taken_back, None, "a move lets go of what Undo took");
    s.apply(Action::RestoreTakenBack { now: 0.0 });
    assert_eq!(s.record.moves, ["e2e4", "c7c5"]);
    assert!(!s.record.has_notes());
    assert_eq!(s.taken_back, None);
}
#[test]
fn taken_back_notes_are_not_put_back_after_the_game_ended_and_clocks_follow_them() {
    // Against the clock: Undo, then Resign; putting the notes back is refused and says nothing.
    let mut s = state(GameKind::Chess);
    s.apply(Action::SetClock { config: ClockConfig::custom(1, 0), seed: 0 });
    drag(&mut s, "e2", "e4");
    drag(&mut s, "e7", "e5");
    s.apply(Action::Tree(TreeAction::SetComment("The open game.".into())));
    s.apply(Action::Undo { now: 1_000.0 });
    assert_eq!(s.notice, Some(Notice::NotesTakenBack));
    let mut resigned = s.clone();
    resigned.apply(Action::Resign);
    resigned.apply(Action::RestoreTakenBack { now: 0.0 });
    assert_eq!(resigned.record.moves, ["e2e4"]);
    assert_eq!((resigned.taken_back.is_none(), resigned.notice.clone()), (true, None));
    // Put back with the clocks on: White's move is to come, so White's clock runs.
    assert_eq!(s.clocks.as_ref().and_then(|c| c.running).map(|(side, _)| side), Some(Side::Second));
    s.apply(Action::RestoreTakenBack { now: 2_000.0 });
    assert_eq!(s.record.moves, ["e2e4", "e7e5"]);
    let clocks = s.clocks.as_ref().expect("clocks");
    assert_eq!(clocks.running.map(|(side, _)| side), Some(Side::First));
}
#[test]
fn a_stored_game_resumes_up_to_its_first_bad_move() {
    let mut record = GameRecord::new(GameKind::Chess, "", 0);
    record.moves = ["e2e4", "e7e5", "e1e3", "g1f3"].map(String::from).to_vec();
    let (state, error) = AppState::restore(Settings::new(Lang::En), record);
    assert_eq!(state.record.moves, ["e2e4", "e7e5"]);
    assert_eq!(*state.notations, ["e4", "e5"]);
    assert_eq!(error.map(|e| e.ply), Some(2));
    let stopped = Notice::StoppedAt { ply: 3, reason: Some(IllegalReason::WrongMovement) };
    assert_eq!(state.notice, Some(stopped));
    assert_eq!(state.game.side_to_move(), Side::First);
}
#[test]
fn a_banqi_chain_capture_can_be_ended() {
    // Red chariot on a1 with chain captures on: it takes b1, and could take c1 next.
    let mut settings = Settings::new(Lang::En);
    settings.kind = GameKind::Banqi;
    settings.rules[kind_index(GameKind::Banqi)] = qi_rules::any::rules_with(
        GameKind::Banqi,
        settings.rules_of(GameKind::Banqi),
        "chain",
        "true",
    )
    .unwrap();
    let record = GameRecord::from_parts(
        GameKind::Banqi,
        settings.rules_of(GameKind::Banqi).to_owned(),
        qi_play::record::Start::Position("8/8/8/Rpp4k 1 r 0".into()),
        Vec::new(),
    );
    let (mut s, error) = AppState::restore(settings, record);
    assert!(error.is_none());
    drag(&mut s, "a1", "b1");
    assert!(s.chain_in_progress(), "c1 can be taken next");
    assert_eq!(s.game.side_to_move(), Side::First);
    let mut timed = s.clone();
    s.apply(Action::EndChain { now: 0.0 });
    assert!(!s.chain_in_progress());
    assert_eq!(s.game.side_to_move(), Side::Second);
    assert_eq!(s.record.moves.last().map(String::as_str), Some("stop"));
    // Ending the chain is a move like any other: after the flag fell, the game ends on time.
    timed.clocks = Some(Clocks::new(ClockConfig::custom(1, 0).expect("clock")));
    timed.clocks.as_mut().expect("clocks").running = Some((Side::First, 0.0));
    timed.apply(Action::EndChain { now: 61_000.0 });
    assert_eq!(timed.record.moves.last().map(String::as_str), Some("a1-b1"));
    assert_eq!(
        timed.result().map(|r| (r.winner, r.reason)),
        Some((Some(Side::Second), ResultReason::Time))
    );
}
/// A move is read once into a value and recorded in its canonical coordinates, whichever
/// gesture made it: castling by dropping the king on its rook is `e1g1`, and made again from an
/// earlier position it follows the game instead of starting a variation.
#[test]
fn castling_on_the_rook_is_recorded_as_the_kings_step() {
    let mut s = state(GameKind::Chess);
    for (from, to) in
        [("e2", "e4"), ("e7", "e5"), ("g1", "f3"), ("b8", "c6"), ("f1", "c4"), ("f8", "c5")]
    {
        drag(&mut s, from, to);
    }
    drag(&mut s, "e1", "h1");
    assert_eq!(s.record.moves.last().map(String::as_str), Some("e1g1"));
    assert_eq!(s.notations.last().map(String::as_str), Some("O-O"));
    s.apply(Action::Tree(TreeAction::Go(Path::main(6))));
    drag(&mut s, "e1", "h1");
    assert!(s.record.variations.is_empty(), "{:?}", s.record.variations);
    assert_eq!(s.viewing, None, "back at the game as it stands");
}
/// The reducer makes a new state for every action: the record, the game and its notation are
/// shared with the old one unless the action changes them, so a click or a step through the
/// game copies no move tree and no position.
#[test]
fn actions_share_what_they_do_not_change() {
    let mut s = state(GameKind::Chess);
    drag(&mut s, "e2", "e4");
    drag(&mut s, "e7", "e5");
    let before = s.clone();
    let mut after = before.clone();
    for action in [
        Action::Tree(TreeAction::FlipBoard),
        Action::Tree(TreeAction::StepBack),
        Action::Tree(TreeAction::StepForward),
        Action::Tree(TreeAction::First),
        Action::Tree(TreeAction::View(None)),
    ] {
        after.apply(action);
    }
    assert!(Rc::ptr_eq(&before.record, &after.record));
    assert!(Rc::ptr_eq(&before.game, &after.game));
    assert!(Rc::ptr_eq(&before.notations, &after.notations));
    // A move changes them, and leaves the old state's as they were.
    drag(&mut after, "g1", "f3");
    assert!(!Rc::ptr_eq(&before.record, &after.record));
    assert_eq!(before.record.moves.len(), 2);
    assert_eq!(after.record.moves.len(), 3);
}
#[test]
fn with_confirm_stones_a_first_tap_shows_the_stone_and_a_second_places_it() {
    let mut s = state(GameKind::Gomoku);
    s.apply(Action::Setting(SettingsAction::ConfirmStones(true)));
    click(&mut s, "h8");
    assert_eq!((s.ghost, s.record.moves.len()), (Some(cell("h8")), 0), "shown, not placed");
    let view = crate::board_model::board_view(&s);
    let ghost: Vec<_> = view.cells.iter().filter(|c| c.ghost.is_some()).collect();
    assert_eq!((ghost.len(), ghost[0].cell, ghost[0].ghost.as_deref()), (1, cell("h8"), Some("b")));
    click(&mut s, "j9");
    assert_eq!((s.ghost, s.record.moves.len()), (Some(cell("j9")), 0), "moved elsewhere");
    click(&mut s, "j9");
    assert_eq!((s.ghost, s.record.moves.clone()), (None, vec!["j9".to_owned()]));
    // A tap on a stone shows nothing; Esc takes the ghost away; without the setting, one tap.
    click(&mut s, "j9");
    assert_eq!(s.ghost, None);
    click(&mut s, "h8");
    s.apply(Action::Cancel);
    assert_eq!(s.ghost, None);
    s.apply(Action::Setting(SettingsAction::ConfirmStones(false)));
    click(&mut s, "h8");
    assert_eq!(s.record.moves, ["j9", "h8"]);
    let stored = Settings::from_storage(&s.settings.to_storage(), Lang::En);
    assert!(!stored.confirm_stones);
    s.apply(Action::Setting(SettingsAction::ConfirmStones(true)));
    assert!(Settings::from_storage(&s.settings.to_storage(), Lang::En).confirm_stones);
}
#[test]
fn a_swap2_opening_is_played_with_colour_choices_and_the_status_names_colours() {
    let mut s = state(GameKind::Gomoku);
    s.apply(Action::SetRule { key: "opening".into(), value: "swap2".into(), seed: 0 });
    assert!(s.record.rules.contains("opening=swap2"), "{}", s.record.rules);
    s.play_mut().settings.mode = Mode::HotSeat;
    click(&mut s, "h8");
    // The first player puts the second stone, a white one: the status says what to do.
    let status = crate::components::status::status_view(&s);
    assert_eq!(status.to_move.1, "Place the three opening stones: now stone 2 of 3, White.");
    for point in ["i9", "j10"] {
        click(&mut s, point);
    }
    // The second player is asked: a colour, or two more stones.
    assert!(s.colour_choice_due() && s.stones_instead_of_colour());
    assert_eq!(
        crate::components::status::status_view(&s).to_move.1,
        "Choose your colour, or place two more stones (one white, one black) and let your opponent choose."
    );
    s.apply(Action::TakeColour { colour: Side::First, now: 0.0 });
    assert_eq!(s.record.moves.last().map(String::as_str), Some("black"));
    assert!(!s.colour_choice_due());
    // The first player now plays White: the status says so.
    assert_eq!(s.game.side_to_move(), Side::First);
    assert_eq!(crate::components::status::side_label(&s, Side::First), "White");
    // A colour when none is due changes nothing.
    s.apply(Action::TakeColour { colour: Side::Second, now: 0.0 });
    assert_eq!(s.record.moves.len(), 4);
    // Undo takes the choice back.
    s.apply(Action::Undo { now: 0.0 });
    assert!(s.colour_choice_due());
}
#[test]
fn a_soosorv8_opening_is_played_on_the_board_with_its_declaration_and_offers() {
    use qi_rules::IllegalReason;
    let mut s = state(GameKind::Gomoku);
    s.apply(Action::SetRule { key: "rule".into(), value: "renju".into(), seed: 0 });
    s.apply(Action::SetRule { key: "opening".into(), value: "soosorv8".into(), seed: 0 });
    assert!(s.record.rules.contains("opening=soosorv8"), "{}", s.record.rules);
    s.play_mut().settings.mode = Mode::HotSeat;
    // The first stone goes on the centre: elsewhere it is refused, with the reason.
    click(&mut s, "a1");
    assert_eq!(s.notice, Some(Notice::Illegal(IllegalReason::OutsideOpeningArea)));
    assert!(s.record.moves.is_empty());
    for point in ["h8", "i9", "j10"] {
        click(&mut s, point);
    }
    assert!(s.colour_choice_due() && !s.stones_instead_of_colour());
    s.apply(Action::TakeColour { colour: Side::Second, now: 0.0 });
    click(&mut s, "a1");
    // White declares: the buttons are offered, the status asks.
    assert!(s.offer_count_due() && !s.colour_choice_due());
    let status = |s: &AppState| crate::components::status::status_view(s).to_move.1;
    assert_eq!(status(&s), "How many fifth stones will Black offer? Declare 1 to 8.");
    s.apply(Action::DeclareOffers { count: 2, now: 0.0 });
    assert_eq!(s.record.moves.last().map(String::as_str), Some("offers=2"));
    // Black's holder may swap again; keeping black, it offers two fifth stones by tapping.
    assert!(s.colour_choice_due());
    s.apply(Action::TakeColour { colour: Side::First, now: 0.0 });
    assert_eq!(status(&s), "Black offers fifth stones: 1 of 2.");
    click(&mut s, "g9");
    // i7 mirrors g9 across the diagonal every stone stands on.
    click(&mut s, "i7");
    assert_eq!(s.notice, Some(Notice::Illegal(IllegalReason::OfferMirrored)));
    click(&mut s, "k5");
    assert_eq!(&s.record.moves[s.record.moves.len() - 2..], ["offer=g9", "offer=k5"]);
    assert_eq!(status(&s), "White picks one of the offered fifth stones.");
    // The offers stand on the board, named for a screen reader; no stone is there yet.
    let view = crate::board_model::board_view(&s);
    let find = |name: &str| view.cells.iter().find(|c| c.cell == cell(name)).unwrap().clone();
    assert_eq!((find("k5").offer, find("k5").piece), (Some(2), None));
    assert_eq!(find("g9").label, "g9, offered fifth stone 1");
    click(&mut s, "l12");
    assert_eq!(s.notice, Some(Notice::Illegal(IllegalReason::ChooseOffer)));
    click(&mut s, "k5");
    assert_eq!(s.record.moves.last().map(String::as_str), Some("k5"));
    assert_eq!(s.game.piece_code(cell("k5")).as_deref(), Some("b"));
    assert_eq!(
        crate::board_model::board_view(&s).cells.iter().filter(|c| c.offer.is_some()).count(),
        0
    );
    // White plays the sixth.
    assert_eq!(status(&s), "White to move");
    // Undo walks the steps back one by one.
    s.apply(Action::Undo { now: 0.0 });
    assert_eq!(status(&s), "White picks one of the offered fifth stones.");
}
#[test]
fn a_refused_moves_reason_goes_when_the_player_does_something_else() {
    let stale = |s: &AppState| matches!(s.notice, Some(Notice::Illegal(_)));
    let refused = || {
        let mut s = state(GameKind::Chess);
        click(&mut s, "e2");
        click(&mut s, "e4");
        // The bishop on f8 cannot pass its own pawn.
        drag(&mut s, "f8", "c5");
        assert!(stale(&s), "{:?}", s.notice);
        s
    };
    for action in [
        Action::Resign,
        Action::Engine(EngineAction::StartReview),
        Action::Engine(EngineAction::ToggleAnalysis),
        Action::Engine(EngineAction::StartThinking { id: 1, hint: true }),
        Action::Tree(TreeAction::FlipBoard),
        Action::Tree(TreeAction::StepBack),
        Action::Undo { now: 0.0 },
        Action::NewGame { seed: 1 },
    ] {
        let mut s = refused();
        s.apply(action.clone());
        assert_eq!(s.notice, None, "after {action:?}");
    }
    // What is not the player's doing leaves the answer: the clock, the computer, the worker.
    let mut s = refused();
    s.apply(Action::Tick { now: 5.0 });
    s.apply(Action::Engine(EngineAction::StartThinking { id: 2, hint: false }));
    assert!(stale(&s));
    // The resignation's sentence is the status's only word.
    let mut s = refused();
    s.apply(Action::Resign);
    let view = crate::components::status::status_view(&s);
    assert!(view.notice.is_none() && view.result.is_some(), "{view:?}");
    assert!(!view.announcement.contains("blocks"), "{}", view.announcement);
}
#[test]
fn each_gomoku_opening_step_says_what_the_player_is_to_do() {
    let status = |s: &AppState| crate::components::status::status_view(s).to_move.1;
    // Swap2 against the computer, the person first: the three stones, then the computer's part.
    let mut s = vs_computer(GameKind::Gomoku, Side::First);
    s.apply(Action::SetRule { key: "opening".into(), value: "swap2".into(), seed: 0 });
    assert_eq!(status(&s), "Place the three opening stones: now stone 1 of 3, Black.");
    click(&mut s, "h8");
    assert_eq!(status(&s), "Place the three opening stones: now stone 2 of 3, White.");
    click(&mut s, "i9");
    assert_eq!(status(&s), "Place the three opening stones: now stone 3 of 3, Black.");
    click(&mut s, "j10");
    assert_eq!(status(&s), "The computer is playing its part of the opening.");
    // Two people: the second puts two more stones, then the first chooses.
    let mut s = state(GameKind::Gomoku);
    s.apply(Action::SetRule { key: "opening".into(), value: "swap2".into(), seed: 0 });
    s.play_mut().settings.mode = Mode::HotSeat;
    for point in ["h8", "i9", "j10", "g7"] {
        click(&mut s, point);
    }
    assert_eq!(
        status(&s),
        "Place one more stone, a black one; then your opponent chooses a colour."
    );
    click(&mut s, "f6");
    assert_eq!(status(&s), "Choose your colour.");
    // Swap: three stones, then only a colour.
    let mut s = state(GameKind::Gomoku);
    s.apply(Action::SetRule { key: "opening".into(), value: "swap".into(), seed: 0 });
    s.play_mut().settings.mode = Mode::HotSeat;
    for point in ["h8", "i9", "j10"] {
        click(&mut s, point);
    }
    assert_eq!(status(&s), "Choose your colour.");
    // Soosõrv-8: after the first colour choice, White's fourth stone.
    let mut s = state(GameKind::Gomoku);
    s.apply(Action::SetRule { key: "rule".into(), value: "renju".into(), seed: 0 });
    s.apply(Action::SetRule { key: "opening".into(), value: "soosorv8".into(), seed: 0 });
    s.play_mut().settings.mode = Mode::HotSeat;
    for point in ["h8", "i9", "j10"] {
        click(&mut s, point);
    }
    assert_eq!(status(&s), "Choose your colour.");
    s.apply(Action::TakeColour { colour: Side::First, now: 0.0 });
    assert_eq!(status(&s), "Place the fourth stone, a white one, anywhere on the board.");
    // The words are in each language.
    s.play_mut().settings.lang = Lang::Zh;
    assert_eq!(status(&s), "请下第四子（白子），可下在棋盘任意位置。");
    s.play_mut().settings.lang = Lang::Vi;
    assert_eq!(status(&s), "Hãy đặt quân thứ tư, quân Trắng, ở bất kỳ đâu trên bàn.");
}
