//! Any text as a websocket message from the server (`ServerMessage::parse`, which the browser runs
//! on every message it gets): nothing may panic, and a message that parses writes back to text
//! that parses to the same message.
#![no_main]

use libfuzzer_sys::fuzz_target;
use qi_protocol::ServerMessage;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(message) = ServerMessage::parse(text) {
        let written = message.to_json();
        let again = ServerMessage::parse(&written).expect("a written message parses");
        assert_eq!(again, message, "{written}");
    }
});
