//! Any text as the JSON the server keeps or is sent outside the websocket: a game's stored
//! result and chat lines (read back from SQLite or PostgreSQL when a game is loaded), and the
//! account API's request bodies (sign-up, sign-in, password change). Nothing may panic, and a
//! value that reads writes back to JSON that reads to the same value.
#![no_main]

use libfuzzer_sys::fuzz_target;
use qi_protocol::{ChatLine, Credentials, GameResult, PasswordChange};
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
});
