//! Games started, picked, opened, resigned and their setup.

use super::*;

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
    s.play_mut().settings.mode = Mode::VsComputer { human: Side::First };
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
