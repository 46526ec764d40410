//! Any text as the JSON the server keeps or is sent outside the websocket: a game's stored
//! result and chat lines (read back from SQLite or PostgreSQL when a game is loaded), the
//! account API's request bodies (sign-up, sign-in, password change), and a tournament's
//! settings as a creator posts them and its whole stored document. Nothing may panic, and a
//! value that reads writes back to JSON that reads to the same value; settings that read are
//! checked (each fault named) and joining is asked of them.
#![no_main]

use libfuzzer_sys::fuzz_target;
use qi_protocol::{ChatLine, Credentials, GameResult, PasswordChange};
use qi_tournament::event::Tournament;
use qi_tournament::spec::Spec;
use serde::Serialize;
use serde::de::DeserializeOwned;

/// `text` read as a `T`, if it reads, written and read again to the same value.
fn round_trip<T: Serialize + DeserializeOwned + PartialEq + std::fmt::Debug>(text: &str) {
    if let Ok(value) = serde_json::from_str::<T>(text) {
        let written = serde_json::to_string(&value).expect("a read value writes");
        let again = serde_json::from_str::<T>(&written).expect("a written value reads");
        assert_eq!(again, value, "{written}");
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    round_trip::<GameResult>(text);
    round_trip::<ChatLine>(text);
    round_trip::<Credentials>(text);
    round_trip::<PasswordChange>(text);
    round_trip::<Tournament>(text);
    round_trip::<Spec>(text);
    if let Ok(spec) = serde_json::from_str::<Spec>(text) {
        let now = 1_800_000_000;
        if let Err(fault) = spec.validate(now) {
            assert!(!fault.to_string().is_empty());
        } else if let Ok(mut t) = Tournament::new("f", spec.clone(), "creator", now) {
            let _ = t.join("a", "A", 1500, spec.password.as_deref());
            let _ = t.join("b", "B", 1700, None);
            let _ = t.tick(spec.starts_at);
            let _ = t.standings();
        }
    }
});
