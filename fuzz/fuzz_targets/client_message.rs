//! Any text as a websocket message from a browser (`ClientMessage::parse`, which the server runs
//! on every message any client sends): nothing may panic, and a message that parses writes back
//! to text that parses to the same message.
#![no_main]

use libfuzzer_sys::fuzz_target;
use qi_protocol::ClientMessage;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(message) = ClientMessage::parse(text) {
        let written = message.to_json();
        let again = ClientMessage::parse(&written).expect("a written message parses");
        assert_eq!(again, message, "{written}");
    }
});
