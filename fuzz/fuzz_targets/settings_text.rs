//! Any text as the settings the browser's storage gives back (`Settings::from_storage`, which
//! the app reads at every start, from storage any script of the site or the player can edit):
//! nothing may panic, every setting read is one the app offers, and what is read writes back to
//! text that reads to the same settings and writes the same text again.
#![no_main]

use libfuzzer_sys::fuzz_target;
use qi_i18n::text::Lang;
use qi_rules::any::{AnyGame, StartFrom};
use qi_settings::{
    BOARD_SCALES, ClockConfig, MOST_ENGINE_THREADS, Settings, WATCH_DELAYS_MS, kind_index,
};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let read = Settings::from_storage(text, Lang::Vi);
    assert!((1..=6).contains(&read.level), "level {}", read.level);
    assert!(read.volume <= 100, "volume {}", read.volume);
    assert!((BOARD_SCALES.0..=BOARD_SCALES.1).contains(&read.board_scale));
    assert!(read.watch_speed < WATCH_DELAYS_MS.len());
    assert!(read.engine_threads <= MOST_ENGINE_THREADS);
    if let Some(clock) = read.clock {
        let custom = clock.base_secs % 60 == 0
            && ClockConfig::custom(clock.base_secs / 60, clock.increment_secs).is_some();
        assert!(ClockConfig::PRESETS.contains(&clock) || custom, "{clock:?}");
    }
    for kind in qi_rules::GameKind::ALL {
        let rules = &read.rules[kind_index(kind)];
        let start = StartFrom::Start { seed: 0 };
        if let Err(e) = AnyGame::new(kind.name(), rules, &start) {
            panic!("{} rules {rules:?} were kept but do not set up: {e}", kind.name());
        }
    }
    let written = read.to_storage();
    let again = Settings::from_storage(&written, Lang::En);
    assert_eq!(again, read, "{written}");
    assert_eq!(again.to_storage(), written);
});
