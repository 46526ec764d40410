//! Feeds arbitrary text to the xiangqi position parser and move parser: the first line is read as
//! a position, every later line as a move, played on that position (or the start position when
//! the first line is not one). Nothing may panic; whatever parses must write back the same way.
#![no_main]

use libfuzzer_sys::fuzz_target;
use qi_rules::xiangqi::Xiangqi;
use qi_rules::{Game, RuleSet};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let mut lines = text.split('\n');
    let first = lines.next().unwrap_or("");
    let rules = Default::default();
    let mut game = match Xiangqi::from_position(&rules, first) {
        Ok(game) => {
            let again = Xiangqi::from_position(&rules, &game.position()).expect("written position reads back");
            assert_eq!(again.position(), game.position());
            game
        }
        Err(_) => Xiangqi::start(&rules, u64::from(data.len() as u32)),
    };
    let _ = game.rules().to_list();
    for line in lines {
        if let Ok(mv) = game.read_move(line) {
            let _ = game.move_notation(mv);
            game.apply(mv).expect("a read move is legal");
        }
        let _ = game.outcome();
    }
});
