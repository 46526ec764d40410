use super::*;
use crate::core::IllegalReason as R;
use crate::zobrist::splitmix64;
use proptest::prelude::*;

fn game(fen: &str) -> Xiangqi {
    Xiangqi::from_position(&XiangqiRules::default(), fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn play(game: &mut Xiangqi, moves: &[&str]) {
    for text in moves {
        let mv = game.read_move(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        game.play_unchecked(mv);
    }
}

const S: &str = START_FEN;
const MATED: &str = "3k5/9/9/9/9/9/9/9/r8/r3K4 w";
const STALEMATE: &str = "5k3/4r4/9/9/9/9/9/9/r8/3K5 w";

#[test]
fn one_row_per_rule_and_reason() {
    let rows: &[(&str, &str, Option<R>)] = &[
        (S, "h3e3", None),
        (S, "b3b10", None),
        (S, "h1g3", None),
        (S, "e1e2", None),
        (S, "f1e2", None),
        (S, "g1e3", None),
        (S, "c4c5", None),
        (S, "a1a3", None),
        ("4k4/9/9/9/4P4/9/9/9/9/3K5 w", "e6d6", None),
        (S, "e5e6", Some(R::NoPieceThere)),
        (S, "a10a9", Some(R::NotYourPiece)),
        (S, "a1b1", Some(R::OwnPieceOnTarget)),
        (S, "b1b2", Some(R::WrongMovement)),
        (S, "a1a5", Some(R::PathBlocked)),
        (S, "b3b9", Some(R::PathBlocked)),
        (S, "d1c2", Some(R::LeavesPalace)),
        ("4k4/9/9/9/9/9/9/9/9/3K5 w", "d1c1", Some(R::LeavesPalace)),
        (S, "b1d2", Some(R::HorseLegBlocked)),
        ("3k5/9/9/9/9/9/9/9/3N5/2B1K4 w", "c1e3", Some(R::ElephantEyeBlocked)),
        ("4k4/9/9/9/9/2B6/9/9/9/3K5 w", "c5e7", Some(R::ElephantCannotCrossRiver)),
        ("4k4/9/9/9/9/9/9/9/4N4/4K4 w", "e2c3", Some(R::GeneralsFacing)),
        ("3k5/9/9/9/9/9/9/9/9/4K4 w", "e1d1", Some(R::GeneralsFacing)),
        ("4k4/9/9/9/4P4/9/9/9/9/3K5 w", "e6e5", Some(R::SoldierCannotRetreat)),
        (S, "a4b4", Some(R::SoldierSidewaysBeforeRiver)),
        (S, "b3b8", Some(R::CannonNeedsOneScreen)),
        ("4k4/9/9/9/9/9/4r4/9/4N4/4K4 w", "e2c3", Some(R::LeavesKingInCheck)),
        (MATED, "e1f1", Some(R::GameOver)),
        (S, "R9-1", Some(R::OffBoard)),
        (S, "C2=5", None),
        (S, "R9=8", Some(R::OwnPieceOnTarget)),
        (S, "H8+6", Some(R::HorseLegBlocked)),
    ];
    for &(fen, text, expected) in rows {
        let game = game(fen);
        let got = game.read_move(text);
        match (expected, got) {
            (None, Ok(mv)) => assert!(game.legal_moves().contains(&mv), "{fen} {text}"),
            (Some(reason), Err(MoveError::Illegal(e))) => {
                assert_eq!(e.reason, reason, "{fen} {text}")
            }
            (expected, got) => panic!("{fen} {text}: expected {expected:?}, got {got:?}"),
        }
    }
}

#[test]
fn checkmate_and_stalemate_lose() {
    let mated = game(MATED);
    assert!(mated.in_check());
    assert!(mated.legal_moves().is_empty());
    assert_eq!(mated.outcome(), Some(Outcome::win(Side::Second, EndReason::Checkmate)));
    let stalemated = game(STALEMATE);
    assert!(!stalemated.in_check());
    assert_eq!(stalemated.outcome(), Some(Outcome::win(Side::Second, EndReason::Stalemate)));
}

#[test]
fn threefold_repetition_is_a_draw() {
    let mut game = Xiangqi::start(&XiangqiRules::default(), 0);
    let cycle = ["h1g3", "h10g8", "g3h1", "g8h10"];
    play(&mut game, &cycle);
    play(&mut game, &cycle[..3]);
    assert_eq!(game.outcome(), None);
    play(&mut game, &cycle[3..]);
    assert_eq!(game.outcome(), Some(Outcome::draw(EndReason::Repetition)));
    assert!(game.legal_moves().is_empty());
    assert_eq!(game.check(game.parse_move("h1g3").unwrap()).unwrap_err().reason, R::GameOver);
}

#[test]
fn perpetual_check_loses() {
    let mut game = game("4k4/9/9/9/9/7R1/9/9/9/5K3 w");
    // The position after h5e5 comes back after every four plies; Red checks on every move.
    play(&mut game, &["h5e5", "e10d10"]);
    let cycle = ["e5d5", "d10e10", "d5e5", "e10d10"];
    play(&mut game, &cycle);
    play(&mut game, &cycle[..2]);
    assert_eq!(game.outcome(), None);
    play(&mut game, &cycle[2..3]);
    assert_eq!(game.outcome(), Some(Outcome::win(Side::Second, EndReason::PerpetualCheck)));
}

#[test]
fn natural_limit_draws() {
    let rules = XiangqiRules::parse("natural_limit=4").unwrap();
    let mut game = Xiangqi::start(&rules, 0);
    play(&mut game, &["h1g3", "h10g8", "b1c3"]);
    assert_eq!(game.outcome(), None);
    play(&mut game, &["b10c8"]);
    assert_eq!(game.outcome(), Some(Outcome::draw(EndReason::NoProgress)));
    assert_eq!(XiangqiRules::default().to_list(), "natural_limit=120");
    assert!(XiangqiRules::parse("natural_limit=x").is_err());
    assert!(XiangqiRules::parse("flying=1").is_err());
}

#[test]
fn wxf_notation() {
    let start = Xiangqi::start(&XiangqiRules::default(), 0);
    let cases = [
        ("h3e3", "C2=5"),
        ("h1g3", "H2+3"),
        ("i1i2", "R1+1"),
        ("f1e2", "A4+5"),
        ("g1e3", "E3+5"),
        ("e1e2", "K5+1"),
        ("c4c5", "P7+1"),
    ];
    for (coords, wxf) in cases {
        let mv = start.parse_move(coords).unwrap();
        assert_eq!(start.move_notation(mv), wxf);
        assert_eq!(start.read_move(wxf), Ok(mv));
        assert_eq!(start.move_text(mv), coords);
    }
    let mut black = start.clone();
    play(&mut black, &["h3e3"]);
    let mv = black.parse_move("h10g8").unwrap();
    assert_eq!(black.move_notation(mv), "H8+7");
    assert_eq!(black.read_move("h8+7"), Ok(mv));
    assert_eq!(black.read_move("N8+7"), Ok(mv));
    // Two cannons on one file: front and rear.
    let tandem = game("3k5/9/9/9/9/4C4/9/4C4/9/5K3 w");
    let front = tandem.parse_move("e5d5").unwrap();
    assert_eq!(tandem.move_notation(front), "+C=6");
    assert_eq!(tandem.read_move("C+.6"), Ok(front));
    assert_eq!(tandem.move_notation(tandem.parse_move("e3e2").unwrap()), "-C-1");
    // Three soldiers on one file.
    let pawns = game("3k5/4P4/4P4/4P4/9/9/9/9/9/5K3 w");
    let names: Vec<String> = ["e9d9", "e8d8", "e7d7"]
        .iter()
        .map(|m| pawns.move_notation(pawns.parse_move(m).unwrap()))
        .collect();
    assert_eq!(names, ["+P=6", "P5=6", "-P=6"]);
}

#[test]
fn piece_letters() {
    for piece in Piece::ALL {
        assert_eq!(piece.to_string().parse(), Ok(piece));
        assert_eq!(piece.fen_letter().to_string().parse(), Ok(piece));
    }
    assert_eq!("x".parse::<Piece>(), Err(UnknownPiece));
    assert_eq!("RR".parse::<Piece>(), Err(UnknownPiece));
}

#[test]
fn position_errors() {
    let rules = XiangqiRules::default();
    let bad = [
        "",
        "   ",
        "garbage",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9 w",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNRR w",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN2 w",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - x 1",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 extra",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKAQNR w",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR w",
        "4k4/9/9/9/9/9/9/9/9/K8 w",
        "4k4/9/9/9/9/9/9/9/9/3K1K3 w",
        "4k4/9/9/9/9/9/9/9/A8/3K5 w",
        "4k4/9/9/9/9/9/9/1B7/9/3K5 w",
        "4k4/9/9/9/9/9/1P7/9/9/3K5 w",
        "4k4/9/9/9/9/9/9/9/P8/3K5 w",
        "4k4/9/9/9/9/9/9/9/9/4K4 w",
        "4k4/9/9/9/9/9/9/9/4R4/3K5 w",
        "4k4/9/9/9/9/PPPPPP3/9/9/9/3K5 w",
        "漢字/9/9/9/9/9/9/9/9/3K5 w",
        "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1 ünï",
    ];
    for text in bad {
        assert!(Xiangqi::from_position(&rules, text).is_err(), "{text:?} was accepted");
    }
    let huge = "9/".repeat(3000);
    assert_eq!(
        Xiangqi::from_position(&rules, &huge),
        Err(ParsePositionError::TooLong { len: huge.len() })
    );
    // Accepted alternatives: h/e letters, r for Red, FEN cut after the side.
    let alt = game("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r");
    assert_eq!(alt.position(), START_FEN);
    assert_eq!(alt.hash(), Xiangqi::start(&rules, 0).hash());
}

#[test]
fn move_text_errors() {
    let game = Xiangqi::start(&XiangqiRules::default(), 0);
    for text in ["", "zz", "h3", "h3e3x", "h0e3", "漢字漢字", "C2=0", "X2=5", "C2*5", "h3 e3", "é"]
    {
        assert!(game.parse_move(text).is_err(), "{text:?}");
        assert!(matches!(game.read_move(text), Err(MoveError::Parse(_))), "{text:?}");
    }
    assert_eq!(game.parse_move("j1a1"), Err(ParseMoveError::OffBoard { text: "j1a1".into() }));
    assert_eq!(game.parse_move("a11a1"), Err(ParseMoveError::OffBoard { text: "a11a1".into() }));
    let long = "h3e3".repeat(100);
    assert_eq!(game.read_move(&long), Err(MoveError::Parse(ParseMoveError::TooLong { len: 400 })));
}

/// Checks the game's invariants at its current position.
fn check_invariants(game: &mut Xiangqi, salt: u64) {
    let moves = game.legal_moves();
    let reread = Xiangqi::from_position(game.rules(), &game.position()).unwrap();
    assert_eq!(reread.position(), game.position());
    assert_eq!(reread.hash(), game.hash());
    if game.outcome().is_some() {
        return;
    }
    // `check` agrees with the generator on a sample of from/to pairs.
    for i in 0..40u64 {
        let r = splitmix64(salt ^ i);
        let cell = |x: u64| Cell::new((x % 9) as u8, ((x / 9) % 10) as u8);
        let mv = XiangqiMove::new(cell(r & 0xFFFF), cell(r >> 16 & 0xFFFF)).unwrap();
        assert_eq!(game.check(mv).is_ok(), moves.contains(&mv), "{mv} in {}", game.position());
    }
    // The engine helpers: all moves, the captures among them, and a pass that undoes itself.
    let mut all = Vec::new();
    game.moves_into(&mut all);
    assert_eq!(all, moves);
    let mut captures = Vec::new();
    game.captures_into(&mut captures);
    let expected: Vec<XiangqiMove> =
        moves.iter().copied().filter(|mv| game.piece_at(mv.to()).is_some()).collect();
    assert_eq!(captures, expected);
    let (position, hash) = (game.position(), game.hash());
    if !game.in_check() {
        game.pass_turn();
        assert_ne!(game.hash(), hash);
        assert_ne!(game.side_to_move(), Game::side_to_move(&reread));
        game.pass_turn();
        assert_eq!((game.position(), game.hash()), (position.clone(), hash));
    }
    for &mv in &moves {
        assert_eq!(game.check(mv), Ok(()));
        assert_eq!(game.read_move(&game.move_notation(mv)), Ok(mv), "{}", game.move_notation(mv));
        game.play_unchecked(mv);
        game.undo();
        assert_eq!((game.position(), game.hash()), (position.clone(), hash));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    #[test]
    fn random_playouts_keep_invariants(seed: u64) {
        let mut game = Xiangqi::start(&XiangqiRules::default(), 0);
        let mut state = seed;
        for _ in 0..120 {
            check_invariants(&mut game, state);
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            state = splitmix64(state);
            game.play_unchecked(moves[(state % moves.len() as u64) as usize]);
        }
    }
}

#[test]
fn perft_start_shallow() {
    let mut game = Xiangqi::start(&XiangqiRules::default(), 0);
    assert_eq!(game.perft(1), 44);
    assert_eq!(game.perft(2), 1920);
    assert_eq!(game.perft(3), 79666);
}

/// The published perft lines, as far as `limit` nodes.
fn perft_lines(limit: u64) -> Vec<(String, u32, u64)> {
    include_str!("../../tests/data/xiangqi.perft")
        .lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| {
            let parts: Vec<&str> = line.split('|').map(str::trim).collect();
            (parts[0].to_owned(), parts[1].parse().unwrap(), parts[2].parse().unwrap())
        })
        .filter(|&(_, _, nodes)| nodes <= limit)
        .collect()
}

#[test]
fn perft_published_shallow() {
    for (fen, depth, nodes) in perft_lines(2_000_000) {
        let mut game = Xiangqi::from_position(&XiangqiRules::default(), &fen).unwrap();
        assert_eq!(game.perft(depth), nodes, "{fen} depth {depth}");
    }
}

#[test]
#[ignore = "deep: run with --ignored for the benchmark lines"]
fn perft_published_deep() {
    for (fen, depth, nodes) in perft_lines(u64::MAX) {
        let mut game = Xiangqi::from_position(&XiangqiRules::default(), &fen).unwrap();
        let start = std::time::Instant::now();
        assert_eq!(game.perft(depth), nodes, "{fen} depth {depth}");
        let secs = start.elapsed().as_secs_f64();
        println!("{fen} | {depth} | {nodes} | {secs:.2}s | {:.1} Mnps", nodes as f64 / secs / 1e6);
    }
}

#[test]
#[ignore = "benchmark: perft 5 from the start"]
fn perft_start_benchmark() {
    let mut game = Xiangqi::start(&XiangqiRules::default(), 0);
    let start = std::time::Instant::now();
    let nodes = game.perft(5);
    let secs = start.elapsed().as_secs_f64();
    println!("perft 5: {nodes} nodes in {secs:.3}s = {:.1} Mnps", nodes as f64 / secs / 1e6);
    assert_eq!(nodes, 133_312_995);
}

#[test]
fn wxf_that_fits_two_pieces_is_ambiguous() {
    // Two red horses on file 4 (counted from Red's right); both can make `H4+3`.
    let game = game("4k4/9/9/9/9/9/9/5N3/9/3K1N3 w - - 0 1");
    match game.read_move("H4+3") {
        Err(MoveError::Illegal(e)) => assert_eq!(e.reason, R::Ambiguous),
        other => panic!("expected Ambiguous, got {other:?}"),
    }
    assert_eq!(game.read_move("+H+3").map(|mv| game.move_text(mv)), Ok("f3g5".to_owned()));
    assert_eq!(game.read_move("-H+3").map(|mv| game.move_text(mv)), Ok("f1g3".to_owned()));
}
