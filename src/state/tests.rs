//! The reducer, one test per action (and the interactions that matter between them).

use super::*;
use qi_i18n::text::Lang;
use qi_play::record::default_rules;

fn cell(text: &str) -> Cell {
    text.parse().expect("test cell")
}

fn state(kind: GameKind) -> AppState {
    let mut settings = Settings::new(Lang::En);
    settings.kind = kind;
    AppState::new(settings, 0)
}

fn click(state: &mut AppState, text: &str) {
    state.apply(Action::ClickCell { cell: cell(text), now: 0.0 });
}

fn drag(state: &mut AppState, from: &str, to: &str) {
    state.apply(Action::Pick { cell: cell(from) });
    state.apply(Action::Drop { from: cell(from), to: cell(to), now: 0.0 });
}

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
    Rc::make_mut(&mut s.record).start =
        qi_play::record::Start::Position("4k3/P7/8/8/8/8/8/4K3 w - - 0 1".into());
    s.game = Rc::new(s.record.start_game());
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
fn new_game_and_pick_game_start_over() {
    let mut s = state(GameKind::Chess);
    drag(&mut s, "e2", "e4");
    s.apply(Action::NewGame { seed: 5 });
    assert!(s.record.moves.is_empty());
    s.apply(Action::PickGame { kind: GameKind::Banqi, seed: 7, saved: None });
    assert_eq!(s.settings.kind, GameKind::Banqi);
    assert_eq!(s.record.start, qi_play::record::Start::Seed(7));
    assert_eq!(s.game.board_size(), (8, 4));
}

/// Switching back to a game left unfinished goes on with it; a finished one, or one under
/// other rules, or one of another game, gives a new game.
#[test]
fn picking_a_game_goes_on_with_the_one_left_unfinished() {
    let mut s = state(GameKind::Chess);
    drag(&mut s, "e2", "e4");
    let chess = (*s.record).clone();
    s.apply(Action::PickGame { kind: GameKind::Gomoku, seed: 1, saved: None });
    click(&mut s, "h8");
    let gomoku = (*s.record).clone();
    s.apply(Action::PickGame { kind: GameKind::Chess, seed: 2, saved: Some(chess.clone()) });
    assert_eq!((s.settings.kind, s.record.moves.clone()), (GameKind::Chess, chess.moves.clone()));
    assert!(s.accepts_moves(), "Black to move, the game goes on");
    // The game's own tab starts a new game.
    s.apply(Action::PickGame { kind: GameKind::Chess, seed: 3, saved: Some(chess.clone()) });
    assert!(s.record.moves.is_empty(), "the current tab is a new game");
    let mut mated = chess.clone();
    mated.moves = ["f2f3", "e7e5", "g2g4", "d8h4"].map(String::from).to_vec();
    s.apply(Action::PickGame { kind: GameKind::Xiangqi, seed: 3, saved: None });
    s.apply(Action::PickGame { kind: GameKind::Chess, seed: 3, saved: Some(mated) });
    assert!(s.record.moves.is_empty(), "a finished game is not resumed");
    s.apply(Action::PickGame { kind: GameKind::Xiangqi, seed: 3, saved: None });
    s.apply(Action::PickGame { kind: GameKind::Chess, seed: 4, saved: Some(gomoku.clone()) });
    assert!(s.record.moves.is_empty() && s.settings.kind == GameKind::Chess, "another game");
    s.apply(Action::PickGame { kind: GameKind::Gomoku, seed: 6, saved: Some(gomoku.clone()) });
    assert_eq!(s.record.moves, gomoku.moves, "the gomoku rules were not changed");
    s.apply(Action::SetRule { key: "size".into(), value: "19".into(), seed: 7 });
    s.apply(Action::PickGame { kind: GameKind::Chess, seed: 8, saved: None });
    s.apply(Action::PickGame { kind: GameKind::Gomoku, seed: 9, saved: Some(gomoku) });
    assert!(s.record.moves.is_empty(), "saved under 15x15, wanted 19x19");
    assert_eq!(s.game.board_size(), (19, 19));
    // With clocks on, a game is not resumed: its clocks were not kept, and must not refill.
    let config = ClockConfig { base_secs: 60, increment_secs: 0 };
    s.apply(Action::SetClock { config: Some(config), seed: 10 });
    s.apply(Action::PickGame { kind: GameKind::Chess, seed: 11, saved: Some(chess) });
    assert!(s.record.moves.is_empty() && s.clocks.is_some());
    // Against the computer as the second player, the board is seen from that side.
    s.apply(Action::SetClock { config: None, seed: 12 });
    s.apply(Action::SetMode { mode: Mode::VsComputer { human: Side::Second }, seed: 13 });
    s.apply(Action::PickGame { kind: GameKind::Gomoku, seed: 14, saved: None });
    assert!(s.flipped);
}

#[test]
fn rule_options_change_the_game_and_bad_ones_are_ignored() {
    let mut s = state(GameKind::Gomoku);
    s.apply(Action::SetRule { key: "size".into(), value: "19".into(), seed: 0 });
    assert_eq!(s.game.board_size(), (19, 19));
    s.apply(Action::SetRule { key: "rule".into(), value: "renju".into(), seed: 0 });
    assert!(s.settings.rules_of(GameKind::Gomoku).contains("rule=renju"));
    assert!(s.settings.rules_of(GameKind::Gomoku).contains("size=19"), "earlier options stay");
    let before = s.settings.clone();
    s.apply(Action::SetRule { key: "size".into(), value: "99".into(), seed: 0 });
    assert_eq!(s.settings, before);
}

#[test]
fn flip_board_toggles_and_survives_a_new_game() {
    let mut s = state(GameKind::Chess);
    s.apply(Action::Tree(TreeAction::FlipBoard));
    assert!(s.flipped);
    s.apply(Action::NewGame { seed: 0 });
    assert!(s.flipped);
    s.apply(Action::Tree(TreeAction::FlipBoard));
    assert!(!s.flipped);
}

#[test]
fn stepping_through_the_game_and_back() {
    let mut s = state(GameKind::Chess);
    drag(&mut s, "e2", "e4");
    drag(&mut s, "e7", "e5");
    s.apply(Action::Tree(TreeAction::StepBack));
    assert_eq!(s.viewing_main_ply(), Some(1));
    assert_eq!(s.shown_game().piece_code(cell("e5")), None);
    s.apply(Action::Tree(TreeAction::StepBack));
    s.apply(Action::Tree(TreeAction::StepBack));
    assert_eq!(s.viewing_main_ply(), Some(0));
    s.apply(Action::Tree(TreeAction::StepForward));
    assert_eq!(s.viewing_main_ply(), Some(1));
    s.apply(Action::Tree(TreeAction::StepForward));
    assert_eq!(s.viewing, None, "stepping past the last move returns to the game");
    s.apply(Action::Tree(TreeAction::View(Some(0))));
    s.apply(Action::Tree(TreeAction::View(None)));
    assert!(s.accepts_moves());
    s.apply(Action::Tree(TreeAction::First));
    assert_eq!(s.viewing_main_ply(), Some(0));
    s.apply(Action::Tree(TreeAction::Last));
    assert_eq!(s.viewing, None, "the end of the main line is the game as it stands");
}

#[test]
fn a_move_from_an_earlier_position_makes_a_variation_and_keeps_the_game() {
    let mut s = state(GameKind::Chess);
    for (from, to) in [("e2", "e4"), ("e7", "e5"), ("g1", "f3")] {
        drag(&mut s, from, to);
    }
    s.apply(Action::Tree(TreeAction::View(Some(1))));
    assert!(s.accepts_moves(), "a looked-back position takes moves: they make variations");
    drag(&mut s, "c7", "c5");
    assert_eq!(s.record.moves, ["e2e4", "e7e5", "g1f3"], "the main line stays");
    assert_eq!(*s.notations, ["e4", "e5", "Nf3"]);
    assert_eq!(s.game.piece_code(cell("f3")).as_deref(), Some("wN"), "the game stays");
    let sicilian = s.viewing.clone().expect("in the variation");
    assert_eq!(sicilian.branches.len(), 1);
    assert_eq!(s.shown_game().piece_code(cell("c5")).as_deref(), Some("bP"));
    drag(&mut s, "g1", "f3");
    assert_eq!(s.record.variations[&1][0].moves, ["c7c5", "g1f3"]);
    assert_eq!(s.record.notate_tree().variations[&1][0].notations, ["c5", "Nf3"]);
    // Back out of the variation, then along the main line: the same move follows it.
    s.apply(Action::Tree(TreeAction::StepBack));
    s.apply(Action::Tree(TreeAction::StepBack));
    assert_eq!(s.viewing_main_ply(), Some(1), "before c5 is the branch point on the main line");
    drag(&mut s, "e7", "e5");
    assert_eq!(s.viewing_main_ply(), Some(2));
    assert_eq!(s.record.variations[&1].len(), 1, "no new variation for the main move");
    // The game goes on from its own end; the variation stays in the record.
    s.apply(Action::Tree(TreeAction::View(None)));
    drag(&mut s, "b8", "c6");
    assert_eq!(s.record.moves.len(), 4);
    let text = s.record.to_text();
    assert_eq!(GameRecord::from_text(&text).as_ref(), Some(&*s.record), "{text}");
    // Into the variation with its path, and its end.
    s.apply(Action::Tree(TreeAction::Go(sicilian.clone())));
    assert_eq!(s.viewing.as_ref(), Some(&sicilian));
    s.apply(Action::Tree(TreeAction::Last));
    assert_eq!(s.viewing.as_ref().map(|p| p.ply), Some(2));
    // The embed's autoplay goes along the main line: from the variation's end back to the
    // main line's move it replaced (1... e5), then on to the game's end.
    s.apply(Action::Tree(TreeAction::StepMainLine));
    assert_eq!(s.viewing_main_ply(), Some(2));
    s.apply(Action::Tree(TreeAction::StepMainLine));
    s.apply(Action::Tree(TreeAction::StepMainLine));
    assert_eq!(s.viewing, None, "the end of the game");
}

#[test]
fn variations_are_promoted_made_the_main_line_and_deleted() {
    let mut s = state(GameKind::Xiangqi);
    let hot_seat = |s: &mut AppState, text: &str| {
        let mut game = s.board_game().clone();
        game.play(text).unwrap();
        let cells = game.last_move().unwrap();
        s.apply(Action::Drop { from: cells.from.unwrap(), to: cells.to, now: 0.0 });
    };
    hot_seat(&mut s, "h3e3");
    hot_seat(&mut s, "h10g8");
    s.apply(Action::Tree(TreeAction::View(Some(1))));
    hot_seat(&mut s, "b10c8");
    assert!(!s.viewing.as_ref().unwrap().is_main_line());
    s.apply(Action::Tree(TreeAction::EditTree(TreeEdit::MakeMainLine)));
    assert_eq!(s.record.moves, ["h3e3", "b10c8"]);
    assert_eq!(s.notations.len(), 2);
    assert_eq!(s.viewing, None, "the variation's end is now the game's");
    assert_eq!(s.game.piece_code(cell("c8")).as_deref(), Some("bN"));
    assert_eq!(s.record.variations[&1][0].moves, ["h10g8"], "the old line is a variation");
    s.apply(Action::Tree(TreeAction::Go(qi_play::Path {
        branches: vec![qi_play::tree::Branch { at: 1, index: 0 }],
        ply: 1,
    })));
    s.apply(Action::Tree(TreeAction::EditTree(TreeEdit::Delete)));
    assert!(s.record.variations.is_empty());
    assert_eq!(s.viewing_main_ply(), Some(1));
    s.apply(Action::Tree(TreeAction::EditTree(TreeEdit::Delete)));
    assert_eq!(s.record.moves, Vec::<String>::new(), "deleting a main move cuts the game there");
    assert_eq!(s.viewing, None);
}

#[test]
fn the_main_line_is_not_edited_while_clocks_run_and_the_computer_waits_while_looking_back() {
    let mut s = state(GameKind::Chess);
    s.apply(Action::SetClock { config: Some(ClockConfig::PRESETS[1]), seed: 0 });
    drag(&mut s, "e2", "e4");
    drag(&mut s, "e7", "e5");
    s.apply(Action::Tree(TreeAction::View(Some(1))));
    drag(&mut s, "c7", "c5");
    s.apply(Action::Tree(TreeAction::EditTree(TreeEdit::MakeMainLine)));
    assert_eq!(s.record.moves, ["e2e4", "e7e5"], "no new main line while the clocks run");
    // A side line may still be deleted: the main line stays as it is.
    s.apply(Action::Tree(TreeAction::EditTree(TreeEdit::Delete)));
    assert!(!s.record.variations.contains_key(&1), "the variation is gone");
    assert_eq!(s.record.moves, ["e2e4", "e7e5"]);

    let mut s = state(GameKind::Chess);
    s.apply(Action::SetMode { mode: Mode::VsComputer { human: Side::First }, seed: 0 });
    drag(&mut s, "e2", "e4");
    assert!(s.computer_should_move());
    s.apply(Action::Tree(TreeAction::View(Some(0))));
    assert!(!s.computer_should_move(), "the computer waits while the player looks back");
    drag(&mut s, "d2", "d4");
    assert_eq!(s.record.moves, ["e2e4"]);
    assert!(!s.computer_should_move());
    s.apply(Action::Tree(TreeAction::View(None)));
    assert!(s.computer_should_move());
}

#[test]
fn language_and_theme_are_settings() {
    let mut s = state(GameKind::Chess);
    s.apply(Action::Setting(SettingsAction::Language(Lang::Vi)));
    s.apply(Action::Setting(SettingsAction::Theme(Theme::Dark)));
    assert_eq!((s.settings.lang, s.settings.theme), (Lang::Vi, Theme::Dark));
}

#[test]
fn clocks_start_with_the_first_move_add_increments_and_flag() {
    let mut s = state(GameKind::Chess);
    let config = ClockConfig { base_secs: 60, increment_secs: 2 };
    s.apply(Action::SetClock { config: Some(config), seed: 0 });
    s.apply(Action::Tick { now: 1_000_000.0 });
    assert_eq!(s.flagged(), None, "no clock runs before the first move");
    s.apply(Action::Drop { from: cell("e2"), to: cell("e4"), now: 0.0 });
    s.apply(Action::Drop { from: cell("e7"), to: cell("e5"), now: 10_000.0 });
    let clocks = s.clocks.as_ref().unwrap();
    assert_eq!(clocks.remaining_at(Side::Second, 10_000.0), 52_000.0, "60 s - 10 s used + 2 s");
    assert_eq!(clocks.remaining_at(Side::First, 15_000.0), 55_000.0);
    s.apply(Action::Tick { now: 30_000.0 });
    assert_eq!(s.flagged(), None);
    s.apply(Action::Tick { now: 70_001.0 });
    assert_eq!(s.flagged(), Some(Side::First));
    let result = s.result().unwrap();
    assert_eq!((result.winner, result.reason), (Some(Side::Second), ResultReason::Time));
    s.apply(Action::SetClock { config: None, seed: 0 });
    assert!(s.clocks.is_none() && s.flagged().is_none());
}

#[test]
fn a_move_after_the_flag_fell_is_not_played() {
    let mut s = state(GameKind::Chess);
    let config = ClockConfig { base_secs: 1, increment_secs: 0 };
    s.apply(Action::SetClock { config: Some(config), seed: 0 });
    s.apply(Action::Drop { from: cell("e2"), to: cell("e4"), now: 0.0 });
    s.apply(Action::Drop { from: cell("e7"), to: cell("e5"), now: 5_000.0 });
    assert_eq!(s.flagged(), Some(Side::Second));
    assert_eq!(s.record.moves.len(), 1);
}

#[test]
fn settings_survive_storage_and_bad_storage_keeps_defaults() {
    let mut settings = Settings::new(Lang::Zh);
    settings.kind = GameKind::Gomoku;
    settings.theme = Theme::Dark;
    settings.clock = Some(ClockConfig::PRESETS[2]);
    settings.rules[kind_index(GameKind::Gomoku)] = "size=19,rule=renju".into();
    let text = settings.to_storage();
    assert_eq!(Settings::from_storage(&text, Lang::En), settings);

    let hostile =
        "game=checkers\nlang=<b>\ntheme=neon\nclock=9999+1\nrules.gomoku=size=99\nrules.x=1\n\u{0}";
    let read = Settings::from_storage(hostile, Lang::Vi);
    assert_eq!(read.kind, GameKind::Chess);
    assert_eq!(read.lang, Lang::En, "an unknown tag reads as English");
    assert_eq!(read.theme, Theme::Light);
    assert_eq!(read.clock, None);
    assert_eq!(read.rules_of(GameKind::Gomoku), default_rules(GameKind::Gomoku));
}

#[test]
fn custom_clocks_are_kept_within_their_bounds() {
    let mut settings = Settings::new(Lang::En);
    settings.clock = ClockConfig::custom(7, 4);
    settings.volume = 30;
    settings.piece_symbols = true;
    assert_eq!(Settings::from_storage(&settings.to_storage(), Lang::En), settings);
    assert_eq!(ClockConfig::custom(0, 0), None);
    assert_eq!(ClockConfig::custom(181, 0), None);
    assert_eq!(ClockConfig::custom(3, 61), None);
    for bad in
        ["clock=61+0", "clock=10800+61", "clock=11400+0", "clock=-60+0", "volume=101", "volume=x"]
    {
        let read = Settings::from_storage(bad, Lang::En);
        assert_eq!((read.clock, read.volume), (None, qi_settings::DEFAULT_VOLUME), "{bad}");
    }
    assert_eq!(
        Settings::from_storage("clock=10800+60", Lang::En).clock,
        ClockConfig::custom(180, 60)
    );
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

fn vs_computer(kind: GameKind, human: Side) -> AppState {
    let mut s = state(kind);
    s.apply(Action::SetMode { mode: Mode::VsComputer { human }, seed: 0 });
    s
}

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

/// The computer (asked at once) answers `best`.
fn computer_answers(s: &mut AppState, best: &str) {
    let id = s.engine.next_request;
    s.apply(Action::Engine(EngineAction::StartThinking { id, hint: false }));
    let search = SearchSummary::default();
    s.apply(Action::Engine(EngineAction::ComputerAnswer {
        id,
        best: Some(best.into()),
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
        best: Some("e7e5".into()),
        search: SearchSummary::default(),
        now: 0.0,
    }));
    assert_eq!(s.record.moves.len(), 1, "an answer to another request is ignored");
    s.apply(Action::Engine(EngineAction::ComputerAnswer {
        id,
        best: Some("e7e5".into()),
        search: SearchSummary::default(),
        now: 0.0,
    }));
    assert_eq!(s.record.moves, ["e2e4", "e7e5"]);
    assert!(s.computer_moved);
    assert_eq!(s.engine.thinking, None);
    s.apply(Action::Engine(EngineAction::ComputerAnswer {
        id,
        best: Some("g8f6".into()),
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
        best: Some("e7e5".into()),
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
        best: Some("d7d5".into()),
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
        best: Some("g1f3".into()),
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
    s.settings.mode = Mode::HotSeat;
    for point in ["h8", "i9", "j10"] {
        click(&mut s, point);
    }
    let id = s.engine.next_request;
    s.apply(Action::Engine(EngineAction::StartThinking { id, hint: true }));
    let search = SearchSummary::default();
    s.apply(Action::Engine(EngineAction::ComputerAnswer {
        id,
        best: Some("white".into()),
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
fn resign_ends_the_game_for_the_person() {
    let mut s = vs_computer(GameKind::Xiangqi, Side::First);
    s.apply(Action::Resign);
    let result = s.result().unwrap();
    assert_eq!((result.winner, result.reason), (Some(Side::Second), ResultReason::Resignation));
    let mut hot = state(GameKind::Chess);
    drag(&mut hot, "e2", "e4");
    hot.apply(Action::Resign);
    assert_eq!(hot.result().unwrap().winner, Some(Side::First), "Black, to move, resigned");
}

/// A resignation or a flag is part of the record: storage, every record format and the way
/// back in give the same result; playing on from the end takes it away.
#[test]
fn an_ending_the_moves_do_not_show_survives_storage_and_records() {
    let mut resigned = state(GameKind::Gomoku);
    click(&mut resigned, "h8");
    resigned.apply(Action::Resign);
    let mut flagged = state(GameKind::Chess);
    flagged.apply(Action::SetClock {
        config: Some(ClockConfig { base_secs: 1, increment_secs: 0 }),
        seed: 0,
    });
    flagged.apply(Action::Drop { from: cell("e2"), to: cell("e4"), now: 0.0 });
    flagged.apply(Action::Drop { from: cell("e7"), to: cell("e5"), now: 0.0 });
    flagged.apply(Action::Tick { now: 5_000.0 });
    for s in [resigned, flagged] {
        let result = s.result().expect("ended");
        let stored = GameRecord::from_text(&s.record.to_text()).expect("reads back");
        let (back, _) = AppState::restore(s.settings.clone(), stored);
        assert_eq!(back.result(), Some(result.clone()), "from storage");
        for &format in qi_play::records::Format::for_game(s.record.kind) {
            // Positions have no moves; a `.psq` and a WXF file are other programs' layouts,
            // with no place for how a game ended (a WXF file says the result alone).
            let other_programs = matches!(
                format,
                qi_play::records::Format::GomokuPsq | qi_play::records::Format::XiangqiWxfFile
            );
            if format.is_position() || other_programs {
                continue;
            }
            let text = qi_play::records::export(&s.record, format);
            let imported = qi_play::records::import(&text, None).expect("imports");
            let mut opened = state(GameKind::Xiangqi);
            opened.apply(Action::Open {
                record: imported.record,
                bottom: None,
                at: None,
                notice: None,
            });
            assert_eq!(opened.result(), Some(result.clone()), "{format:?}:\n{text}");
            assert!(!opened.accepts_moves());
            let plies = opened.record.moves.len();
            opened.apply(Action::PlayFromHere);
            assert_eq!(opened.record.moves.len(), plies, "every move is kept");
            assert_eq!(opened.result(), None, "playing on from the end");
        }
    }
}

#[test]
fn play_from_here_drops_the_later_moves() {
    let mut s = state(GameKind::Gomoku);
    for point in ["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4", "l8"] {
        click(&mut s, point);
    }
    assert!(s.result().is_some());
    s.apply(Action::Tree(TreeAction::View(Some(4))));
    s.apply(Action::PlayFromHere);
    assert_eq!(s.record.moves.len(), 4);
    assert_eq!(s.notations.len(), 4);
    assert!(s.result().is_none() && s.accepts_moves());
}

#[test]
fn level_and_watch_speed_are_settings_and_survive_storage() {
    let mut s = state(GameKind::Banqi);
    s.apply(Action::Setting(SettingsAction::Level(9)));
    assert_eq!(s.settings.level, 6);
    s.apply(Action::Setting(SettingsAction::WatchSpeed(7)));
    assert_eq!(s.settings.watch_speed, WATCH_DELAYS_MS.len() - 1);
    s.apply(Action::SetMode { mode: Mode::Watch, seed: 1 });
    assert!(s.computer_should_move());
    let read = Settings::from_storage(&s.settings.to_storage(), Lang::En);
    assert_eq!(read, s.settings);
}

#[test]
fn a_new_state_faces_the_person_against_the_computer() {
    let mut settings = Settings::new(Lang::En);
    settings.mode = Mode::VsComputer { human: Side::Second };
    assert!(AppState::new(settings.clone(), 0).flipped);
    settings.mode = Mode::HotSeat;
    assert!(!AppState::new(settings, 0).flipped);
}

#[test]
fn open_replaces_the_game_and_keeps_the_mode() {
    let mut s = state(GameKind::Chess);
    s.settings.mode = Mode::VsComputer { human: Side::First };
    s.engine.next_request = 9;
    let before = s.game_number;
    let mut record = GameRecord::new(GameKind::Xiangqi, &default_rules(GameKind::Xiangqi), 0);
    record.moves = ["h3e3", "h10g8", "b1c3"].map(String::from).to_vec();
    record.comments.insert(1, "central cannon".into());
    s.apply(Action::Open {
        record: record.clone(),
        bottom: Some(Side::Second),
        at: Some(Path::main(1)),
        notice: None,
    });
    assert_eq!(s.settings.kind, GameKind::Xiangqi);
    assert_eq!(s.settings.rules_of(GameKind::Xiangqi), record.rules);
    assert_eq!(s.settings.mode, Mode::VsComputer { human: Side::First }, "the mode stays");
    assert_eq!(*s.record, record, "tags and comments come along");
    assert_eq!(s.notations.len(), 3);
    assert_eq!(s.viewing_main_ply(), Some(1));
    assert!(s.flipped);
    assert_eq!(s.engine.next_request, 9, "request ids keep counting");
    assert!(s.game_number > before, "a new game for the history");

    // A ply at or past the end shows the game as it stands; no orientation keeps the mode's.
    s.apply(Action::Open {
        record: record.clone(),
        bottom: None,
        at: Some(Path::main(3)),
        notice: None,
    });
    assert_eq!(s.viewing, None);
    assert!(!s.flipped);

    // A bad move: the legal prefix, and the notice says where it stopped unless the caller
    // has a better one.
    let mut bad = record.clone();
    bad.moves.insert(1, "a1a9".into());
    s.apply(Action::Open { record: bad.clone(), bottom: None, at: None, notice: None });
    assert_eq!(s.record.moves, ["h3e3"]);
    assert!(matches!(s.notice, Some(Notice::StoppedAt { ply: 2, .. })));
    let told = Notice::Link(qi_play::link::LinkError::BadCompact);
    s.apply(Action::Open { record: bad, bottom: None, at: None, notice: Some(told.clone()) });
    assert_eq!(s.notice, Some(told));
}

#[test]
fn shapes_marks_and_comments_go_on_the_position_shown() {
    use qi_play::{Brush, Mark, Shape};
    let mut s = state(GameKind::Gomoku);
    click(&mut s, "h8");
    click(&mut s, "i9");
    let arrow = Shape { from: cell("h8"), to: cell("j10"), brush: Brush::Red };
    s.apply(Action::Tree(TreeAction::ToggleShape(arrow)));
    s.apply(Action::Tree(TreeAction::ToggleMark(Mark(3))));
    s.apply(Action::Tree(TreeAction::SetComment("  a strong reply  ".into())));
    assert_eq!(s.record.shapes_at(&s.shown_path()), [arrow]);
    assert_eq!(s.record.marks_at(&s.shown_path()), [Mark(3)]);
    assert_eq!(s.record.comment_at(&s.shown_path()), Some("a strong reply"));
    s.apply(Action::Tree(TreeAction::View(Some(1))));
    assert!(s.record.shapes_at(&s.shown_path()).is_empty(), "another position, its own shapes");
    s.apply(Action::Tree(TreeAction::SetComment("x".repeat(5000))));
    assert_eq!(s.record.comments[&1].len(), MAX_COMMENT_CHARS);
    s.apply(Action::Tree(TreeAction::View(None)));
    s.apply(Action::Tree(TreeAction::ToggleShape(arrow)));
    assert!(s.record.shapes.is_empty(), "drawn again: taken off");
    let text = s.record.to_text();
    assert_eq!(GameRecord::from_text(&text).as_ref(), Some(&*s.record));
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
fn the_new_game_dialogs_choices_start_one_game_and_keep_the_rest() {
    let mut s = state(GameKind::Chess);
    s.apply(Action::Setting(SettingsAction::Language(Lang::Vi)));
    drag(&mut s, "e2", "e4");
    // A draft: the dialog's choices change nothing until the game starts.
    let mut draft = s.settings.clone();
    assert!(draft.choose(SetupChoice::Game(GameKind::Gomoku)));
    assert!(draft.choose(SetupChoice::Opponent(Mode::VsComputer { human: Side::Second })));
    assert!(draft.choose(SetupChoice::Level(9)));
    assert_eq!(draft.level, 6, "brought into range");
    assert!(draft.choose(SetupChoice::Rule { key: "rule".into(), value: "renju".into() }));
    assert!(!draft.choose(SetupChoice::Rule { key: "rule".into(), value: "chess".into() }));
    assert!(draft.choose(SetupChoice::Clock(ClockConfig::custom(2, 5))));
    assert_eq!((s.settings.kind, s.record.moves.len()), (GameKind::Chess, 1));
    draft.lang = Lang::En;
    draft.volume = 0;
    s.apply(Action::StartGame { setup: Box::new(draft), seed: 3 });
    assert_eq!(s.settings.kind, GameKind::Gomoku);
    assert!(s.record.moves.is_empty());
    assert_eq!(s.settings.mode, Mode::VsComputer { human: Side::Second });
    assert!(s.flipped, "the person's side at the bottom");
    assert_eq!(s.settings.level, 6);
    assert!(s.settings.rules_of(GameKind::Gomoku).contains("rule=renju"));
    assert_eq!(s.clocks.as_ref().map(|c| c.config), ClockConfig::custom(2, 5));
    assert_eq!(
        (s.settings.lang, s.settings.volume),
        (Lang::Vi, qi_settings::DEFAULT_VOLUME),
        "not setup"
    );
    assert!(s.computer_should_move(), "the computer plays first");
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
fn board_colours_and_size_are_settings_kept_in_bounds() {
    let mut s = state(GameKind::Chess);
    s.apply(Action::Setting(SettingsAction::SlateBoards(true)));
    s.apply(Action::Setting(SettingsAction::BoardScale(30)));
    assert_eq!((s.settings.slate_boards, s.settings.board_scale), (true, 60));
    s.apply(Action::Setting(SettingsAction::BoardScale(85)));
    let stored = Settings::from_storage(&s.settings.to_storage(), Lang::En);
    assert_eq!((stored.slate_boards, stored.board_scale), (true, 85));
    let damaged = Settings::from_storage("boards=granite\nboard-size=250", Lang::En);
    assert_eq!((damaged.slate_boards, damaged.board_scale), (false, 100));
    let garbage = Settings::from_storage("board-size=x", Lang::En);
    assert_eq!(garbage.board_scale, 100);
}

#[test]
fn the_engines_threads_are_a_setting_kept_in_bounds() {
    let mut s = state(GameKind::Chess);
    assert_eq!(s.settings.engine_threads, 1, "one worker by default");
    s.apply(Action::Setting(SettingsAction::EngineThreads(3)));
    let stored = Settings::from_storage(&s.settings.to_storage(), Lang::En);
    assert_eq!(stored.engine_threads, 3);
    s.apply(Action::Setting(SettingsAction::EngineThreads(0)));
    let stored = Settings::from_storage(&s.settings.to_storage(), Lang::En);
    assert_eq!(stored.engine_threads, 0);
    s.apply(Action::Setting(SettingsAction::EngineThreads(99)));
    assert_eq!(s.settings.engine_threads, qi_settings::MOST_ENGINE_THREADS);
    for damaged in ["threads=99", "threads=0", "threads=-1", "threads=two", "threads=Auto"] {
        assert_eq!(Settings::from_storage(damaged, Lang::En).engine_threads, 1, "{damaged}");
    }
}

#[test]
fn a_swap2_opening_is_played_with_colour_choices_and_the_status_names_colours() {
    let mut s = state(GameKind::Gomoku);
    s.apply(Action::SetRule { key: "opening".into(), value: "swap2".into(), seed: 0 });
    assert!(s.record.rules.contains("opening=swap2"), "{}", s.record.rules);
    s.settings.mode = Mode::HotSeat;
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
    s.settings.mode = Mode::HotSeat;
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
    s.settings.mode = Mode::HotSeat;
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
    s.settings.mode = Mode::HotSeat;
    for point in ["h8", "i9", "j10"] {
        click(&mut s, point);
    }
    assert_eq!(status(&s), "Choose your colour.");
    // Soosõrv-8: after the first colour choice, White's fourth stone.
    let mut s = state(GameKind::Gomoku);
    s.apply(Action::SetRule { key: "rule".into(), value: "renju".into(), seed: 0 });
    s.apply(Action::SetRule { key: "opening".into(), value: "soosorv8".into(), seed: 0 });
    s.settings.mode = Mode::HotSeat;
    for point in ["h8", "i9", "j10"] {
        click(&mut s, point);
    }
    assert_eq!(status(&s), "Choose your colour.");
    s.apply(Action::TakeColour { colour: Side::First, now: 0.0 });
    assert_eq!(status(&s), "Place the fourth stone, a white one, anywhere on the board.");
    // The words are in each language.
    s.settings.lang = Lang::Zh;
    assert_eq!(status(&s), "请下第四子（白子），可下在棋盘任意位置。");
    s.settings.lang = Lang::Vi;
    assert_eq!(status(&s), "Hãy đặt quân thứ tư, quân Trắng, ở bất kỳ đâu trên bàn.");
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
