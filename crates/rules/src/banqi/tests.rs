//! Banqi unit tests: a table with a row per rule and per illegal-move reason, outcomes, parsers,
//! unknown pieces, perft and a short property test over random playouts.

use proptest::prelude::*;

use super::*;
use crate::core::{
    EndReason, Game, IllegalReason, MAX_POSITION_TEXT, Outcome, ParseMoveError, ParsePositionError,
    Side,
};
use crate::options::RuleSet;

fn game(rules: &str, position: &str) -> Banqi {
    let rules = BanqiRules::parse(rules).expect("rules");
    Banqi::from_position(&rules, position).unwrap_or_else(|e| panic!("{position}: {e}"))
}

fn cell(text: &str) -> Cell {
    text.parse().expect("cell")
}

/// Rule options, position, move, and `None` if legal or the reason it is not.
const TABLE: &[(&str, &str, &str, Option<IllegalReason>)] = {
    use IllegalReason as R;
    &[
        // flips
        ("", "*K7/8/8/8 1 - 0", "a4", None),
        ("", "*K7/8/8/8 1 - 0", "b4", Some(R::NoPieceThere)),
        ("", "K*k6/8/8/7p 1 r 0", "a4", Some(R::AlreadyFaceUp)),
        ("", "K*k6/8/8/7p 1 r 0", "b4", None),
        // moving
        ("", "K*k6/8/8/7p 1 r 0", "a4-a3", None),
        ("", "P*k6/8/8/7p 1 r 0", "b4-c4", Some(R::PieceFaceDown)),
        ("", "Pk6/8/8/8 1 r 0", "b4-c4", Some(R::NotYourPiece)),
        ("", "Pk6/8/8/8 1 r 0", "c4-d4", Some(R::NoPieceThere)),
        ("", "PP6/8/8/7p 1 r 0", "a4-b4", Some(R::OwnPieceOnTarget)),
        ("", "P7/8/8/7p 1 r 0", "a4-b3", Some(R::WrongMovement)),
        ("", "P7/8/8/7p 1 r 0", "a4-c4", Some(R::WrongMovement)),
        ("", "P7/8/8/7p 1 r 0", "a4-a4", Some(R::WrongMovement)),
        ("", "R7/8/8/7p 1 r 0", "a4-c4", Some(R::WrongMovement)),
        ("", "C7/8/8/7p 1 r 0", "a4-c4", Some(R::WrongMovement)),
        // ranks
        ("", "Nn6/8/8/8 1 r 0", "a4xb4", None),
        ("", "Bn6/8/8/8 1 r 0", "a4xb4", None),
        ("", "Pa6/8/8/8 1 r 0", "a4xb4", Some(R::CannotCaptureHigherRank)),
        ("", "Ra6/8/8/8 1 r 0", "a4xb4", Some(R::CannotCaptureHigherRank)),
        ("ranks=hongkong", "Ra6/8/8/8 1 r 0", "a4xb4", None),
        ("ranks=hongkong", "Ar6/8/8/8 1 r 0", "a4xb4", Some(R::CannotCaptureHigherRank)),
        ("", "Kp6/8/8/8 1 r 0", "a4xb4", Some(R::GeneralCannotCaptureSoldier)),
        ("", "Pk6/8/8/8 1 r 0", "a4xb4", None),
        ("", "Kc6/8/8/8 1 r 0", "a4xb4", None),
        ("", "N*n6/8/8/7p 1 r 0", "a4xb4", Some(R::CannotCaptureFaceDown)),
        // the cannon
        ("", "C*pk5/8/8/8 1 r 0", "a4xc4", None),
        ("", "CPk5/8/8/8 1 r 0", "a4xc4", None),
        ("", "C*p2k3/8/8/8 1 r 0", "a4xe4", None),
        ("", "C1k5/8/8/8 1 r 0", "a4xc4", Some(R::CannonNeedsOneScreen)),
        ("", "Cp6/8/8/8 1 r 0", "a4xb4", Some(R::CannonNeedsOneScreen)),
        ("", "C*p*pk4/8/8/8 1 r 0", "a4xd4", Some(R::CannonNeedsOneScreen)),
        ("", "C*p*P5/8/8/7p 1 r 0", "a4xc4", Some(R::CannotCaptureFaceDown)),
        ("", "C*pK5/8/8/7p 1 r 0", "a4xc4", Some(R::OwnPieceOnTarget)),
        ("", "k7/*p7/C7/8 1 r 0", "a2xa4", None),
        ("ranks=hongkong", "Cp6/8/8/8 1 r 0", "a4xb4", None),
        ("ranks=hongkong", "Cn6/8/8/8 1 r 0", "a4xb4", Some(R::CannotCaptureHigherRank)),
        ("capture_hidden=true", "C*p*P5/8/8/7p 1 r 0", "a4xc4", None),
        ("capture_hidden=true", "N*n6/8/8/7p 1 r 0", "a4xb4", Some(R::CannotCaptureFaceDown)),
        // chariot rush
        ("rush=true", "R7/8/8/7p 1 r 0", "a4-h4", None),
        ("rush=true", "R7/8/8/7p 1 r 0", "a4-a1", None),
        ("rush=true", "R7/8/8/7p 1 r 0", "a4-b3", Some(R::WrongMovement)),
        ("rush=true", "R2n4/8/8/8 1 r 0", "a4xd4", None),
        ("rush=true", "R2a4/8/8/8 1 r 0", "a4xd4", Some(R::CannotCaptureHigherRank)),
        ("rush=true", "R1*pn4/8/8/8 1 r 0", "a4xd4", Some(R::PathBlocked)),
        ("rush=true", "R1*pn4/8/8/8 1 r 0", "a4-e4", Some(R::PathBlocked)),
        ("rush=true", "R2*n4/8/8/7p 1 r 0", "a4xd4", Some(R::CannotCaptureFaceDown)),
        // chain captures
        ("chain=true", "1Nn5/8/8/7P 1 r 0 - b4", "b4xc4", None),
        ("chain=true", "1Nn5/8/8/7P 1 r 0 - b4", "stop", None),
        ("chain=true", "1Nn5/8/8/7P 1 r 0 - b4", "b4-a4", Some(R::ChainCaptureOnly)),
        ("chain=true", "1Nn5/8/8/7P 1 r 0 - b4", "h1-g1", Some(R::ChainCaptureOnly)),
        ("chain=true", "1Nn4*p/8/8/7P 1 r 0 - b4", "h4", Some(R::ChainCaptureOnly)),
        ("chain=true", "1Nn5/8/8/7P 1 r 0", "stop", Some(R::NoChainToStop)),
        // game over
        ("", "K6*P/8/8/8 2 r 0", "h4", Some(R::GameOver)),
        ("", "K6k/8/8/8 1 r 40", "a4-a3", Some(R::GameOver)),
    ]
};

#[test]
fn table_of_rules_and_reasons() {
    for &(rules, position, text, expected) in TABLE {
        let game = game(rules, position);
        let mv = game.parse_move(text).expect("move text");
        let got = game.check(mv).err().map(|e| e.reason);
        assert_eq!(got, expected, "{rules} | {position} | {text}");
        assert_eq!(
            game.legal_moves().contains(&mv),
            expected.is_none(),
            "generated iff legal: {rules} | {position} | {text}"
        );
    }
}

#[test]
fn off_board_moves_are_refused() {
    let game = game("", "K6p/8/8/8 1 r 0");
    let off = Cell::new(8, 3);
    for mv in [BanqiMove::Flip(off), BanqiMove::Step { from: cell("a4"), to: off }] {
        assert_eq!(game.check(mv).unwrap_err().reason, IllegalReason::OffBoard);
    }
}

#[test]
fn deal_is_a_full_fixed_shuffle() {
    let rules = BanqiRules::default();
    let a = deal(&rules, 0);
    assert_eq!(a.position(), Banqi::start(&rules, 0).position());
    assert_eq!(a.face_down_pool(), Piece::ALL.map(|p| p.role.count()));
    assert_ne!(a.position(), deal(&rules, 1).position());
    // The deal must not change between platforms or releases: perft data depend on it.
    assert_eq!(a.position(), SEED_0);
}

const SEED_0: &str = include_str!("../../tests/data/banqi_seed0.txt");

#[test]
fn first_flip_decides_colours() {
    let mut game = game("", "*k*K6/8/8/8 1 - 0");
    game.apply(BanqiMove::Flip(cell("a4"))).unwrap();
    assert_eq!(game.colour_of(Side::First), Some(Colour::Black));
    assert_eq!(game.colour_of(Side::Second), Some(Colour::Red));
    assert_eq!(game.side_to_move(), Side::Second);
}

#[test]
fn outcomes() {
    let no_pieces = Outcome::win(Side::First, EndReason::NoPieces);
    assert_eq!(game("", "K6*P/8/8/8 2 r 0").outcome(), Some(no_pieces.clone()));
    let mut capture = game("", "Kn6/8/8/8 1 r 0");
    capture.apply(capture.parse_move("a4xb4").unwrap()).unwrap();
    assert_eq!(capture.outcome(), Some(no_pieces));

    let stuck = game("", "kP6/P7/8/8 2 r 0");
    assert_eq!(stuck.outcome(), Some(Outcome::win(Side::First, EndReason::NoLegalMoves)));
    assert!(stuck.legal_moves().is_empty());

    let draw = Some(Outcome::draw(EndReason::NoProgress));
    assert_eq!(game("", "K6k/8/8/8 1 r 40").outcome(), draw);
    let mut quiet = game("draw=10", "K6k/8/8/8 1 r 9");
    assert_eq!(quiet.outcome(), None);
    quiet.apply(quiet.parse_move("a4-a3").unwrap()).unwrap();
    assert_eq!(quiet.outcome(), draw);
    assert!(quiet.legal_moves().is_empty());
    assert_eq!(game("", "K6k/8/8/8 1 r 0").outcome(), None);
}

#[test]
fn chain_capture_goes_on_then_passes() {
    let mut chain = game("chain=true", "Nnn5/8/8/7p 1 r 0");
    chain.apply(chain.parse_move("a4xb4").unwrap()).unwrap();
    assert_eq!(chain.side_to_move(), Side::First);
    assert_eq!(chain.chain_square(), Some(cell("b4")));
    assert_eq!(chain.legal_moves().len(), 2, "b4xc4 or stop");
    let round = Banqi::from_position(chain.rules(), &chain.position()).unwrap();
    assert_eq!((round.position(), round.hash()), (chain.position(), chain.hash()));
    chain.apply(BanqiMove::Stop).unwrap();
    assert_eq!((chain.side_to_move(), chain.chain_square()), (Side::Second, None));
    chain.undo();
    chain.apply(chain.parse_move("b4xc4").unwrap()).unwrap();
    assert_eq!(chain.side_to_move(), Side::Second, "no third capture: the turn passes");

    let mut plain = game("", "Nnn5/8/8/7p 1 r 0");
    plain.apply(plain.parse_move("a4xb4").unwrap()).unwrap();
    assert_eq!(plain.side_to_move(), Side::Second);
}

#[test]
fn unknown_pieces() {
    let rules = BanqiRules::default();
    let dealt = deal(&rules, 7);
    let hidden = dealt.conceal();
    assert_eq!(hidden.hash(), dealt.hash());
    assert_eq!(hidden.legal_moves(), dealt.legal_moves());
    assert_eq!(hidden.face_down_pool(), dealt.face_down_pool());
    let text = hidden.position();
    assert!(text.starts_with("????????/"), "{text}");
    assert_eq!(Banqi::from_position(&rules, &text).unwrap().position(), text);

    let later = "R*b*B*C*B*p*KP/Nn*pcP*kp*r/PP*CN*a*b*p*P/1R*n*r*aA*A*c 1 r 0 - -";
    let seen = "R??????P/Nn?cP?p?/PP?N????/1R???A?? 1 r 0 KABBCCPkaabbrrncppp -";
    assert_eq!(game("", later).conceal().position(), seen);
    assert_eq!(game("", seen).hash(), game("", later).hash());

    let mut client = hidden.clone();
    let a1 = cell("a1");
    assert_eq!(client.check(BanqiMove::Flip(a1)), Ok(()));
    let refused = client.apply(BanqiMove::Flip(a1)).unwrap_err().reason;
    assert_eq!(refused, IllegalReason::FlipResultUnknown);
    let Square::Hidden(truth) = dealt.square(a1) else { panic!("dealt face down") };
    let general = Piece::new(Colour::Red, Role::General);
    let mut server = dealt.clone();
    server.apply(BanqiMove::Flip(a1)).unwrap();
    client.apply_flip(a1, truth).unwrap();
    assert_eq!(client.hash(), server.hash());
    assert_eq!(client.square(a1), Square::FaceUp(truth));
    client.undo();
    assert_eq!(client.position(), text, "undo puts the unknown back");
    // Only one red general: once it is face up it cannot come up again.
    let mut one = game("", "K?5p/8/8/8 2 r 0 A");
    let impossible = one.apply_flip(cell("b4"), general).unwrap_err().reason;
    assert_eq!(impossible, IllegalReason::FlipResultImpossible);
    one.apply_flip(cell("b4"), Piece::new(Colour::Red, Role::Advisor)).unwrap();
}

#[test]
fn cannon_capturing_an_unknown_piece_needs_its_identity() {
    let mut game = game("capture_hidden=true", "C*p?5/8/8/8 1 r 0 n");
    let mv = game.parse_move("a4xc4").unwrap();
    assert_eq!(game.apply(mv).unwrap_err().reason, IllegalReason::FlipResultUnknown);
    let horse = Piece::new(Colour::Black, Role::Horse);
    game.apply_revealing(mv, horse).unwrap();
    assert_eq!(game.square(cell("c4")), Square::FaceUp(Piece::new(Colour::Red, Role::Cannon)));
}

/// The fuzzer's find (issue 21): `?7/8/8/8 1 - 0 K` then `a4`. Flipping the one unknown piece is
/// legal (check accepts it, it is a legal move), and only its identity makes it playable: `apply`
/// refuses it with `FlipResultUnknown`, changing nothing, and says so beforehand through
/// `reveals_unknown`; `apply_revealing` plays it. The same for a cannon's capture of an unknown
/// piece under `capture_hidden`.
#[test]
fn a_move_turning_up_an_unknown_piece_is_legal_and_needs_its_identity_to_be_played() {
    let mut game = game("", "?7/8/8/8 1 - 0 K");
    let flip = game.read_move("a4").expect("flipping the unknown piece is legal");
    assert!(game.legal_moves().contains(&flip));
    assert!(game.reveals_unknown(flip));
    let before = game.position();
    assert_eq!(game.apply(flip).unwrap_err().reason, IllegalReason::FlipResultUnknown);
    assert_eq!(game.position(), before, "a refused move changes nothing");
    let general = Piece::new(Colour::Red, Role::General);
    game.apply_revealing(flip, general).unwrap();
    assert_eq!(game.square(cell("a4")), Square::FaceUp(general));
    // A known face-down piece, a refused move, a plain step: nothing unknown is turned up.
    let known = game_text_moves("", "*K7/8/8/8 1 - 0");
    assert!(!known.0.reveals_unknown(known.1[0]));
    let off = BanqiMove::Flip(Cell::new(9, 9));
    assert!(!game.reveals_unknown(off));
    let mut cannon = self::game("capture_hidden=true", "C*p?5/8/8/8 1 r 0 n");
    let capture = cannon.parse_move("a4xc4").unwrap();
    assert!(cannon.check(capture).is_ok() && cannon.reveals_unknown(capture));
    assert_eq!(cannon.apply(capture).unwrap_err().reason, IllegalReason::FlipResultUnknown);
    // Without `capture_hidden` the same capture is refused for what it is, and reveals nothing.
    let plain = self::game("", "C*p?5/8/8/8 1 r 0 n");
    let refused = plain.check(capture).unwrap_err().reason;
    assert_eq!(refused, IllegalReason::CannotCaptureFaceDown);
    assert!(!plain.reveals_unknown(capture));
}

/// A game read from `position` and its legal moves.
fn game_text_moves(rules: &str, position: &str) -> (Banqi, Vec<BanqiMove>) {
    let game = game(rules, position);
    let moves = game.legal_moves();
    (game, moves)
}

#[test]
fn hand_counted_perft() {
    let mut start = deal(&BanqiRules::default(), 0);
    assert_eq!((start.perft(1), start.perft(2)), (32, 32 * 31));
    let mut generals = game("", "K6k/8/8/8 1 r 0");
    assert_eq!((generals.perft(1), generals.perft(2)), (2, 4));
    // Cannon on a2: jumps the face-down a3 onto a4 (the general), steps to b2 or a1; one flip.
    let mut cannon = game("", "k7/*p7/C7/8 1 r 0");
    assert_eq!(cannon.perft(1), 1 + 2 + 1);
}

#[test]
fn perft_data_file() {
    for line in include_str!("../../tests/data/banqi.perft").lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split('|').map(str::trim).collect();
        let mut game = game("", fields[0]);
        let depth: u32 = fields[1].parse().unwrap();
        assert_eq!(game.perft(depth), fields[2].parse::<u64>().unwrap(), "{line}");
    }
}

#[test]
fn move_parsing() {
    let game = deal(&BanqiRules::default(), 0);
    let step = BanqiMove::Step { from: cell("c3"), to: cell("c4") };
    for text in ["c3-c4", "c3xc4", "c3c4"] {
        assert_eq!(game.parse_move(text), Ok(step));
    }
    assert_eq!(game.parse_move("c3"), Ok(BanqiMove::Flip(cell("c3"))));
    assert_eq!(game.parse_move("stop"), Ok(BanqiMove::Stop));
    for mv in [step, BanqiMove::Flip(cell("h4")), BanqiMove::Stop] {
        assert_eq!(game.parse_move(&game.move_text(mv)), Ok(mv));
        assert_eq!(game.parse_move(&game.move_notation(mv)), Ok(mv));
    }
    assert!(matches!(game.parse_move("i1"), Err(ParseMoveError::OffBoard { .. })));
    assert!(matches!(game.parse_move("a5-a4"), Err(ParseMoveError::OffBoard { .. })));
    assert_eq!(game.parse_move(""), Err(ParseMoveError::Empty));
    assert!(matches!(game.parse_move(&"a".repeat(100)), Err(ParseMoveError::TooLong { .. })));
    for bad in ["a", "a0", "c3--c4", "c3-", "c3xx", "車", "c3-c4é", "é", "A1", "stopp", "a1 a2"]
    {
        assert!(game.parse_move(bad).is_err(), "{bad}");
    }
}

#[test]
fn position_parsing_errors() {
    let rules = BanqiRules::default();
    let bad = [
        "",
        "   ",
        "8/8/8 1 r 0",
        "8/8/8/8",
        "9/8/8/8 1 r 0",
        "7/8/8/8 1 r 0",
        "KKKKKKKKK/8/8/8 1 r 0",
        "K7/8/8/8 3 r 0",
        "K7/8/8/8 1 x 0",
        "K7/8/8/8 1 r -1",
        "K7/8/8/8 1 r 99999999999999999999",
        "K7/8/8/8 1 - 0",
        "KK6/8/8/8 1 r 0",
        "*X7/8/8/8 1 r 0",
        "*7/8/8/8 1 r 0",
        "?7/8/8/8 1 - 0",
        "?7/8/8/8 1 - 0 KK",
        "8/8/8/8 1 r 0 - b4",
        "8/8/8/8 1 - 0",
        "8/8/8/8 2 r 7",
        "K7/8/8/8 1 r 0 - a4",
        "K7/8/8/8 1 r 0 - z9",
        "K7/8/8/8 1 r 0 - - extra",
        "車7/8/8/8 1 r 0",
        "K7/8/8/8 1 r 0 é",
    ];
    for text in bad {
        assert!(Banqi::from_position(&rules, text).is_err(), "{text:?}");
    }
    let huge = "8/".repeat(MAX_POSITION_TEXT);
    assert!(matches!(Banqi::from_position(&rules, &huge), Err(ParsePositionError::TooLong { .. })));
    assert!(Banqi::from_position(&rules, "K7/8/8/8 1 r 0").is_ok());
}

#[test]
fn rule_options_round_trip() {
    let rules =
        BanqiRules::parse("ranks=hongkong,chain=true,rush=on,capture_hidden=1,draw=60").unwrap();
    assert_eq!(BanqiRules::parse(&rules.to_list()), Ok(rules));
    assert_eq!(BanqiRules::parse(&BanqiRules::default().to_list()), Ok(BanqiRules::default()));
    for bad in ["ranks=macau", "draw=5", "draw=100000", "colour=red", "chain"] {
        assert!(BanqiRules::parse(bad).is_err(), "{bad}");
    }
}

/// Every move that can be written on this board: flips, steps along lines, and stop.
fn every_move() -> Vec<BanqiMove> {
    let cells: Vec<Cell> = (0..SQUARES).map(cell_of).collect();
    let mut all: Vec<BanqiMove> = cells.iter().map(|&c| BanqiMove::Flip(c)).collect();
    for &from in &cells {
        for &to in &cells {
            if from.file == to.file || from.rank == to.rank {
                all.push(BanqiMove::Step { from, to });
            }
        }
    }
    all.push(BanqiMove::Stop);
    all
}

fn rules_strategy() -> impl Strategy<Value = BanqiRules> {
    (any::<bool>(), any::<bool>(), any::<bool>(), any::<bool>()).prop_map(
        |(hong_kong, chain, rush, capture_hidden)| BanqiRules {
            ranks: if hong_kong { RankOrder::HongKong } else { RankOrder::Taiwan },
            chain,
            rush,
            capture_hidden,
            draw: 20,
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn random_playouts_keep_their_promises(
        rules in rules_strategy(),
        seed in any::<u64>(),
        picks in proptest::collection::vec(any::<usize>(), 1..80),
    ) {
        let mut game = deal(&rules, seed);
        let every = every_move();
        for pick in picks {
            let legal = game.legal_moves();
            for &mv in &every {
                prop_assert_eq!(game.check(mv).is_ok(), legal.contains(&mv), "{:?}", mv);
            }
            prop_assert_eq!(game.hash(), game.full_hash());
            let concealed = game.conceal();
            prop_assert_eq!(concealed.hash(), game.hash());
            prop_assert_eq!(concealed.legal_moves(), legal.clone());
            let read = Banqi::from_position(&rules, &game.position()).unwrap();
            prop_assert_eq!((read.position(), read.hash()), (game.position(), game.hash()));
            if legal.is_empty() {
                prop_assert!(game.outcome().is_some());
                break;
            }
            let mv = legal[pick % legal.len()];
            let (before, hash) = (game.position(), game.hash());
            game.play_unchecked(mv);
            game.undo();
            prop_assert_eq!((game.position(), game.hash()), (before, hash));
            game.apply(mv).unwrap();
        }
    }
}

#[test]
#[ignore = "prints the data for tests/data"]
fn print_perft_data() {
    let rules = BanqiRules::default();
    for (seed, plies, step) in [(0u64, 0usize, 1usize), (0, 14, 7), (3, 40, 5), (11, 70, 3)] {
        let mut game = deal(&rules, seed);
        for i in 0..plies {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            game.play_unchecked(moves[(i * step) % moves.len()]);
        }
        let mut game = Banqi::from_position(&rules, &game.position()).unwrap();
        for depth in 1..=4 {
            println!("PERFT {} | {depth} | {}", game.position(), game.perft(depth));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]
    #[test]
    fn any_text_reads_without_panicking(text in "\\PC{0,80}", board in "[KABRNCPkabrncp*?1-8/]{0,40}") {
        let game = deal(&BanqiRules::default(), 0);
        let _ = game.parse_move(&text);
        let _ = Banqi::from_position(&BanqiRules::default(), &text);
        let _ = Banqi::from_position(&BanqiRules::default(), &format!("{board} 1 r 0"));
        let _ = Banqi::from_position(&BanqiRules::default(), &format!("{board} 2 - 3 {board}"));
    }
}

/// What has left the board: the full set less the pieces on it, face up or down; a capture
/// adds to it, a flip does not.
#[test]
fn captured_pieces_are_the_set_less_the_board() {
    let start = deal(&BanqiRules::default(), 7);
    assert_eq!(start.captured(), [0; 14]);
    // Two generals and a red soldier face up, a black horse face down: the rest is gone.
    let few = game("", "K*n6/8/8/6Pk 1 r 0 - -");
    let captured = few.captured();
    let index = |letter| Piece::from_letter(letter).unwrap().index();
    assert_eq!(captured[index('K')], 0);
    assert_eq!(captured[index('k')], 0);
    assert_eq!(captured[index('P')], 4);
    assert_eq!(captured[index('n')], 1);
    assert_eq!(captured[index('R')], 2);
    assert_eq!(captured.iter().map(|&n| u32::from(n)).sum::<u32>(), 32 - 4);
    // Random playouts: the count only grows, and by one exactly when a move takes a piece.
    let mut rng = 11u64;
    for seed in 0..20 {
        let mut banqi = deal(&BanqiRules::default(), seed);
        for _ in 0..200 {
            let moves = banqi.legal_moves();
            if moves.is_empty() {
                break;
            }
            rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1);
            let mv = moves[usize::try_from(rng >> 33).unwrap() % moves.len()];
            let before: u32 = banqi.captured().iter().map(|&n| u32::from(n)).sum();
            let on_board = |b: &Banqi| {
                (0..4u8)
                    .flat_map(|rank| (0..8u8).map(move |file| Cell::new(file, rank)))
                    .filter(|&c| b.square(c) != Square::Empty)
                    .count()
            };
            let pieces = on_board(&banqi);
            banqi.apply(mv).expect("a legal move");
            let after: u32 = banqi.captured().iter().map(|&n| u32::from(n)).sum();
            let taken = pieces - on_board(&banqi);
            assert_eq!(after - before, u32::try_from(taken).unwrap());
        }
    }
}
