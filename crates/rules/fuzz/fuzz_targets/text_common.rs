//! The body shared by the per-game text targets: the first line of the input is read as a
//! position, every later line as a move, played on that position (or on a start position when the
//! first line is not one). Nothing may panic, and whatever parses must write back the same way.

use qi_rules::{Game, RuleSet};

/// Runs one fuzz input through `G`'s position and move readers.
pub fn exercise<G: Game>(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let mut lines = text.split('\n');
    let first = lines.next().unwrap_or("");
    let rules = G::Rules::default();
    let mut game = match G::from_position(&rules, first) {
        Ok(game) => {
            let again =
                G::from_position(&rules, &game.position()).expect("written position reads back");
            assert_eq!(again.position(), game.position());
            game
        }
        Err(_) => G::start(&rules, u64::from(data.len() as u32)),
    };
    let _ = game.rules().to_list();
    for line in lines {
        if let Ok(mv) = game.read_move(line) {
            let _ = game.move_notation(mv);
            game.apply(mv).expect("a read move is legal");
        }
        let _ = game.outcome();
    }
}
