//! Settings and the clocks.

use super::*;

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
