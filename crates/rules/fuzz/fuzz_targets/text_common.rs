//! The body shared by the per-game text targets: the first line of the input is read as a
//! position, optionally after rule options and a `|` (`capture_hidden=true|C*p?5/8/8/8 1 r 0 n`),
//! and every later line as a move, played on that position (or on a start position when the
//! first line is not one). Nothing may panic; whatever parses must write back the same way; a
//! move the reader accepts is played by `apply` — except one that turns up a face-down banqi
//! piece the position does not know, which `apply` must refuse with `FlipResultUnknown` and
//! leave the game as it was (the rules' contract: see `Game`); a target may then play it with a
//! piece the position allows (banqi's `apply_revealing`).

use qi_rules::{Game, IllegalReason, RuleSet};

/// Runs one fuzz input through `G`'s position and move readers.
#[allow(dead_code)] // Each target uses one of the two.
pub fn exercise<G: Game>(data: &[u8]) {
    exercise_revealing::<G>(data, |_, _| {});
}

/// As [`exercise`], with `reveal` playing each move that turns up an unknown piece, once `apply`
/// has refused it.
pub fn exercise_revealing<G: Game>(data: &[u8], reveal: impl Fn(&mut G, G::Move)) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let mut lines = text.split('\n');
    let first = lines.next().unwrap_or("");
    let (rules, first) = match first.split_once('|') {
        Some((list, position)) => match G::Rules::parse(list) {
            Ok(rules) => (rules, position),
            Err(_) => return,
        },
        None => (G::Rules::default(), first),
    };
    let read_back = G::Rules::parse(&rules.to_list()).expect("written rules read back");
    assert_eq!(read_back, rules);
    let mut game = match G::from_position(&rules, first) {
        Ok(game) => {
            let again =
                G::from_position(&rules, &game.position()).expect("written position reads back");
            assert_eq!(again.position(), game.position());
            game
        }
        Err(_) => G::start(&rules, u64::from(data.len() as u32)),
    };
    for line in lines {
        if let Ok(mv) = game.read_move(line) {
            let _ = game.move_notation(mv);
            if game.reveals_unknown(mv) {
                let before = game.position();
                let refused = game.apply(mv).expect_err("a move turning up the unknown is refused");
                assert_eq!(refused.reason, IllegalReason::FlipResultUnknown);
                assert_eq!(game.position(), before, "a refused move changes nothing");
                reveal(&mut game, mv);
            } else {
                game.apply(mv).expect("a read move is legal");
            }
        }
        let _ = game.outcome();
    }
}
