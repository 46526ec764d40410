//! Properties every game must have, checked over random playouts of all four games under every
//! combination of their rule options: every generated move is accepted by the legality check and
//! every move the check accepts is generated; `apply` plays what `check` accepts and refuses what
//! it refuses, with the same reason, changing nothing (the rules' contract: see `Game`), banqi's
//! moves that turn up an unknown piece excepted and played with their result instead; apply then
//! undo restores the position and its hash; writing a position and reading it back gives the
//! same position and hash.

use proptest::prelude::*;
use qi_rules::banqi::{Banqi, BanqiRules, Square};
use qi_rules::chess::{ChessGame, ChessRules};
use qi_rules::gomoku::{Gomoku, GomokuRules};
use qi_rules::xiangqi::{Xiangqi, XiangqiRules};
use qi_rules::{Cell, Game, GameKind, IllegalReason, RuleSet};

/// Candidate move texts around a cell pair, in every shape any game's parser reads, so that
/// moves no generator produced are tried too.
fn candidate_texts(from: Cell, to: Cell) -> [String; 5] {
    [
        format!("{from}{to}"),
        format!("{from}-{to}"),
        format!("{from}x{to}"),
        format!("{from}"),
        format!("{from}{to}q"),
    ]
}

fn check_position<G: Game>(game: &G, probes: &[(u8, u8, u8, u8)]) -> Result<(), TestCaseError> {
    let legal = game.legal_moves();
    for &mv in &legal {
        prop_assert!(game.check(mv).is_ok(), "generated move {} refused", game.move_text(mv));
        prop_assert_eq!(game.parse_move(&game.move_text(mv)).ok(), Some(mv));
    }
    for &(ff, fr, tf, tr) in probes {
        for text in candidate_texts(Cell::new(ff, fr), Cell::new(tf, tr)) {
            if let Ok(mv) = game.parse_move(&text) {
                prop_assert_eq!(
                    game.check(mv).is_ok(),
                    legal.contains(&mv),
                    "{} in {}: check and generation disagree",
                    text,
                    game.position()
                );
                check_apply_agrees(game, mv)?;
            }
        }
    }
    for &mv in &legal {
        check_apply_agrees(game, mv)?;
    }
    let reread = G::from_position(game.rules(), &game.position())
        .map_err(|e| TestCaseError::fail(format!("{}: {e}", game.position())))?;
    prop_assert_eq!(reread.position(), game.position());
    prop_assert_eq!(reread.hash(), game.hash());
    Ok(())
}

/// The contract between `check` and `apply` for one move: what `check` accepts `apply` plays
/// (undo then restores the position), unless the move turns up an unknown piece, which `apply`
/// refuses with `FlipResultUnknown`; what `check` refuses `apply` refuses with the same reason.
/// A refused move changes nothing.
fn check_apply_agrees<G: Game>(game: &G, mv: G::Move) -> Result<(), TestCaseError> {
    let mut played = game.clone();
    let text = game.move_text(mv);
    let before = (game.position(), game.hash());
    let refused = match (game.check(mv), played.apply(mv)) {
        (Ok(()), Ok(())) => {
            prop_assert!(!game.reveals_unknown(mv), "{} in {}: played blind", text, before.0);
            prop_assert_eq!(played.undo(), Some(mv));
            None
        }
        (Ok(()), Err(error)) => {
            prop_assert!(game.reveals_unknown(mv), "{} in {}: {}", text, before.0, error);
            prop_assert_eq!(error.reason, IllegalReason::FlipResultUnknown);
            Some(error.reason)
        }
        (Err(checked), Err(applied)) => {
            prop_assert_eq!(checked.reason, applied.reason, "{} in {}", text, before.0);
            prop_assert!(!game.reveals_unknown(mv));
            Some(applied.reason)
        }
        (Err(checked), Ok(())) => {
            return Err(TestCaseError::fail(format!(
                "{text} in {}: check refuses ({checked}) but apply played it",
                before.0
            )));
        }
    };
    prop_assert_eq!((played.position(), played.hash()), before, "{} ({:?})", text, refused);
    Ok(())
}

/// Plays a random game, choosing each move by the next number in `choices`, and checks the
/// properties at every position; then takes every move back.
fn random_playout<G: Game>(
    mut game: G,
    choices: &[u16],
    probes: &[(u8, u8, u8, u8)],
) -> Result<(), TestCaseError> {
    let mut trail = vec![(game.position(), game.hash())];
    for &choice in choices {
        check_position(&game, probes)?;
        let legal = game.legal_moves();
        if legal.is_empty() {
            prop_assert!(game.outcome().is_some(), "no moves but no outcome: {}", game.position());
            break;
        }
        let mv = legal[usize::from(choice) % legal.len()];
        let before = (game.position(), game.hash());
        game.apply(mv).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(game.undo(), Some(mv));
        prop_assert_eq!((game.position(), game.hash()), before.clone());
        game.apply(mv).map_err(|e| TestCaseError::fail(e.to_string()))?;
        trail.push((game.position(), game.hash()));
    }
    trail.pop();
    while let Some(expected) = trail.pop() {
        prop_assert!(game.undo().is_some());
        prop_assert_eq!((game.position(), game.hash()), expected);
    }
    prop_assert!(game.undo().is_none());
    Ok(())
}

fn probes() -> impl Strategy<Value = Vec<(u8, u8, u8, u8)>> {
    prop::collection::vec((0u8..20, 0u8..20, 0u8..20, 0u8..20), 8)
}

fn choices(max_plies: usize) -> impl Strategy<Value = Vec<u16>> {
    prop::collection::vec(any::<u16>(), 0..max_plies)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn chess_playouts(seed in 0u64..960, chess960 in any::<bool>(), choices in choices(120), probes in probes()) {
        let game = ChessGame::start(&ChessRules { chess960 }, seed);
        random_playout(game, &choices, &probes)?;
    }

    #[test]
    fn xiangqi_playouts(rules in rules_of::<XiangqiRules>(GameKind::Xiangqi), choices in choices(120), probes in probes()) {
        random_playout(Xiangqi::start(&rules, 0), &choices, &probes)?;
    }

    #[test]
    fn banqi_playouts(seed in any::<u64>(), rules in rules_of::<BanqiRules>(GameKind::Banqi), choices in choices(160), probes in probes()) {
        random_playout(Banqi::start(&rules, seed), &choices, &probes)?;
    }

    /// A client's board (`Banqi::conceal`: the face-down identities unknown) at every point of
    /// a random game keeps the same contract, and playing a move there with the piece it turns
    /// up gives the client's board of the game after that move.
    #[test]
    fn banqi_concealed_playouts(seed in any::<u64>(), rules in rules_of::<BanqiRules>(GameKind::Banqi), choices in choices(160), probes in probes()) {
        let mut game = Banqi::start(&rules, seed);
        for &choice in &choices {
            let client = game.conceal();
            check_position(&client, &probes)?;
            let legal = game.legal_moves();
            prop_assert_eq!(&client.legal_moves(), &legal, "{}", game.position());
            let Some(&mv) = legal.get(usize::from(choice) % legal.len().max(1)) else { break };
            let mut after = client.clone();
            if client.reveals_unknown(mv) {
                let cell = game.move_cells(mv).to;
                let Square::Hidden(piece) = game.square(cell) else {
                    return Err(TestCaseError::fail(format!("{cell} is not face down")));
                };
                after.apply_revealing(mv, piece).map_err(|e| TestCaseError::fail(e.to_string()))?;
            } else {
                after.apply(mv).map_err(|e| TestCaseError::fail(e.to_string()))?;
            }
            game.apply(mv).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(after.conceal().position(), game.conceal().position());
            prop_assert_eq!(after.hash(), game.hash());
        }
    }

    #[test]
    fn gomoku_playouts(rules in rules_of::<GomokuRules>(GameKind::Gomoku), choices in choices(120), probes in probes()) {
        random_playout(Gomoku::start(&rules, 0), &choices, &probes)?;
    }
}

/// Every combination of a game's rule options, read through its own `RuleSet`.
fn all_rule_lists(kind: GameKind) -> Vec<String> {
    let mut lists = vec![String::new()];
    for doc in qi_rules::any::rule_docs(kind) {
        // A documented range (`10-1000`) stands for its numbers; its default is listed before it.
        let is_range = |value: &&&str| value.contains('-') && value.starts_with(char::is_numeric);
        lists = lists
            .iter()
            .flat_map(|list| {
                doc.values.iter().filter(move |v| !is_range(v)).map(move |value| {
                    let sep = if list.is_empty() { "" } else { "," };
                    format!("{list}{sep}{}={value}", doc.key)
                })
            })
            .collect();
    }
    lists
}

/// Every combination of the documented values of a game's rule options, as its rules. The few
/// combinations a game refuses (Soosõrv-8 on the 20×20 board, which has no centre) are left out,
/// and checked to be only those.
fn rules_of<R: RuleSet + 'static>(kind: GameKind) -> impl Strategy<Value = R> {
    let (lists, refused): (Vec<String>, Vec<String>) =
        all_rule_lists(kind).into_iter().partition(|list| R::parse(list).is_ok());
    for list in &refused {
        assert!(list.contains("size=20") && list.contains("opening=soosorv8"), "{list}");
    }
    assert!(!lists.is_empty());
    prop::sample::select(lists).prop_map(|list| R::parse(&list).expect("parsed above"))
}

/// Moves built by hand (as a server might from a client's numbers) may name cells off the board:
/// they are refused with a reason, never a panic.
#[test]
fn hand_built_moves_off_the_board_are_refused() {
    use qi_rules::IllegalReason;
    use qi_rules::banqi::BanqiMove;
    use qi_rules::gomoku::GomokuMove;
    let far = [Cell::new(200, 0), Cell::new(0, 200), Cell::new(255, 255), Cell::new(8, 3)];
    let banqi = Banqi::start(&BanqiRules::default(), 3);
    let gomoku = Gomoku::start(&GomokuRules::default(), 0);
    for cell in far {
        let refused = banqi.check(BanqiMove::Flip(cell)).unwrap_err();
        assert_eq!(refused.reason, IllegalReason::OffBoard, "{cell}");
        let step = BanqiMove::Step { from: Cell::new(0, 0), to: cell };
        assert!(banqi.check(step).is_err(), "{cell}");
        if cell.file >= 15 || cell.rank >= 15 {
            let refused = gomoku.check(GomokuMove::Stone(cell)).unwrap_err();
            assert_eq!(refused.reason, IllegalReason::OffBoard, "{cell}");
        }
    }
    assert_eq!(Cell::new(200, 0).to_string(), "(200,0)");
}
