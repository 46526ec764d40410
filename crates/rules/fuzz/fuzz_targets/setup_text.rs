//! Feeds arbitrary text to the command line's game setup: `variant|rules|position|moves...`,
//! as `qi play` reads its arguments. Nothing may panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use qi_rules::any::{AnyGame, StartFrom};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let mut fields = text.split('|');
    let variant = fields.next().unwrap_or("");
    let rules = fields.next().unwrap_or("");
    let position = fields.next().unwrap_or("startpos");
    let Ok(start) = StartFrom::parse(position) else { return };
    let Ok(mut game) = AnyGame::new(variant, rules, &start) else { return };
    for mv in fields {
        let _ = game.play(mv);
    }
    let _ = game.outcome_text();
    let _ = game.legal_moves();
});
