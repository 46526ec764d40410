use super::*;
use crate::IllegalReason as R;

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

fn game(fen: &str) -> ChessGame {
    ChessGame::from_position(&ChessRules::default(), fen).expect("test FEN")
}

fn play(game: &mut ChessGame, moves: &str) {
    for text in moves.split_whitespace() {
        let mv = game.read_move(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        game.apply(mv).unwrap();
    }
}

#[test]
fn every_illegal_reason_is_reported() {
    // position, move (UCI or SAN), expected reason
    let table: &[(&str, &str, IllegalReason)] = &[
        (START, "e3e4", R::NoPieceThere),
        (START, "e7e5", R::NotYourPiece),
        (START, "d1d2", R::OwnPieceOnTarget),
        (START, "g1g3", R::WrongMovement),
        (START, "f1c4", R::PathBlocked),
        (START, "e2e5", R::WrongMovement),
        (START, "e2d3", R::WrongMovement),
        ("3rk3/8/8/8/8/8/8/4K3 w - - 0 1", "e1d1", R::LeavesKingInCheck),
        ("4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1", "e2d3", R::LeavesKingInCheck),
        ("4k3/8/8/8/8/4p3/4P3/4K3 w - - 0 1", "e2e3", R::PathBlocked),
        ("4k3/8/8/8/8/4p3/4P3/4K3 w - - 0 1", "e2e4", R::PathBlocked),
        ("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8", R::PromotionRequired),
        ("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8k", R::BadPromotion),
        ("4k3/8/8/8/8/8/P7/4K3 w - - 0 1", "a2a3q", R::BadPromotion),
        ("3rk3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1c1", R::CastlingNotAllowed),
        ("4k3/8/8/8/8/8/8/R3K2R w - - 0 1", "e1g1", R::CastlingNotAllowed),
        ("4k3/8/8/8/8/8/8/RN2K2R w KQ - 0 1", "O-O-O", R::CastlingNotAllowed),
        ("4k3/8/8/8/8/8/4r3/R3K2R w KQ - 0 1", "e1g1", R::CastleOutOfCheck),
        ("4k3/8/8/8/8/8/8/R3K1NR w KQ - 0 1", "O-O", R::CastlingNotAllowed),
        (START, "Nd4", R::WrongMovement),
        (START, "Bc4", R::PathBlocked),
        (START, "Qa4", R::PathBlocked),
        ("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", "Nd2", R::Ambiguous),
        ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "Qd4", R::NoPieceThere),
        ("k7/1R6/1K6/8/8/8/8/8 b - - 0 1", "a8a7", R::GameOver),
        ("8/8/8/KPp4r/8/8/8/7k w - c6 0 1", "b5c6", R::LeavesKingInCheck),
        ("8/8/8/KPp4r/8/8/8/7k w - c6 0 1", "bxc6", R::LeavesKingInCheck),
        ("4k3/8/8/8/8/8/8/4KR2 w - - 0 1", "e1f1", R::OwnPieceOnTarget),
        ("4k3/8/8/8/8/8/5P2/4K3 w - - 0 1", "f5", R::WrongMovement),
    ];
    for &(fen, text, expected) in table {
        let game = game(fen);
        match game.read_move(text) {
            Err(MoveError::Illegal(e)) => assert_eq!(e.reason, expected, "{fen} {text}"),
            other => panic!("{fen} {text}: expected {expected:?}, got {other:?}"),
        }
    }
}

#[test]
fn parse_errors_are_not_illegal_moves() {
    let game = game(START);
    let texts = ["", "e2-", "z9z9", "e2e4e5", "Nf9", "你好", "e2\u{301}e4", "Q@e4", "--", "0000"];
    for text in texts.iter().copied().chain([&*"e".repeat(10_000)]) {
        assert!(matches!(game.read_move(text), Err(MoveError::Parse(_))), "{text:?}");
        assert!(game.parse_move(text).is_err(), "{text:?}");
    }
}

#[test]
fn legal_moves_read_in_uci_and_san() {
    let mut game = game(START);
    play(&mut game, "e4 e7e5 Nf3 Nc6 Bb5 a6 O-O");
    assert_eq!(game.history().len(), 7);
    assert_eq!(
        game.position(),
        "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 1 4"
    );
}

#[test]
fn san_notation_has_check_marks() {
    let mut game = game(START);
    play(&mut game, "f3 e5 g4");
    let mate = game.read_move("d8h4").unwrap();
    assert_eq!(game.move_notation(mate), "Qh4#");
}

#[test]
fn checkmate_stalemate_and_insufficient_material_end_the_game() {
    let mut fools = game(START);
    play(&mut fools, "f3 e5 g4 Qh4");
    let outcome = fools.outcome().unwrap();
    assert_eq!((outcome.winner, outcome.reason), (Some(Side::Second), EndReason::Checkmate));
    assert!(fools.legal_moves().is_empty());

    let stalemate = game("k7/2Q5/1K6/8/8/8/8/8 b - - 0 1").outcome().unwrap();
    assert_eq!((stalemate.winner, stalemate.reason), (None, EndReason::Stalemate));

    let bare_kings = game("k7/8/1K6/8/8/8/8/8 w - - 0 1").outcome().unwrap();
    assert_eq!(bare_kings.reason, EndReason::InsufficientMaterial);
    assert!(game("k7/8/1K6/8/8/8/8/7R w - - 0 1").outcome().is_none());
}

#[test]
fn threefold_repetition_is_a_draw() {
    let mut game = game(START);
    play(&mut game, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1");
    assert!(game.outcome().is_none(), "the start position has occurred twice so far");
    play(&mut game, "Ng8");
    assert_eq!(game.outcome().unwrap().reason, EndReason::Repetition);
    game.undo();
    assert!(game.outcome().is_none());
}

#[test]
fn fifty_moves_without_capture_or_pawn_move_is_a_draw() {
    let mut near = game("4k3/8/8/8/8/8/8/R3K3 w - - 99 80");
    assert!(near.outcome().is_none());
    play(&mut near, "Ra2");
    assert_eq!(near.outcome().unwrap().reason, EndReason::FiftyMoves);
}

#[test]
fn undo_restores_position_and_hash() {
    let mut game = game(START);
    let before = (game.position(), game.hash());
    play(&mut game, "e4 d5 exd5");
    assert_ne!(game.hash(), before.1);
    for _ in 0..3 {
        game.undo();
    }
    assert_eq!((game.position(), game.hash()), before);
    assert!(game.undo().is_none());
}

#[test]
fn legal_destinations_offer_both_castling_gestures() {
    let game = game("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let e1 = Cell::new(4, 0);
    let dests: Vec<String> = game.legal_destinations(e1).iter().map(Cell::to_string).collect();
    for cell in ["g1", "h1", "c1", "a1", "d1", "f1"] {
        assert!(dests.contains(&cell.to_owned()), "{cell} in {dests:?}");
    }
    for gesture in ["e1g1", "e1h1", "e1c1", "e1a1"] {
        assert!(game.read_move(gesture).is_ok(), "{gesture}");
    }
}

#[test]
fn chess960_numbering_follows_scharnagl() {
    use Role::{Bishop as B, King as K, Knight as N, Queen as Q, Rook as R};
    assert_eq!(chess960_back_rank(518), [R, N, B, Q, K, B, N, R]);
    assert_eq!(chess960_back_rank(0), [B, B, Q, N, N, R, K, R]);
    assert_eq!(chess960_back_rank(959), [R, K, R, N, N, Q, B, B]);
    let mut seen = std::collections::HashSet::new();
    for index in 0..960 {
        let rank = chess960_back_rank(index);
        assert!(seen.insert(rank), "index {index} repeats");
        let rules = ChessRules { chess960: true };
        let game = ChessGame::start(&rules, u64::from(index));
        assert!(game.legal_moves().len() >= 18, "{index}");
    }
}

#[test]
fn chess960_castles_king_onto_rook() {
    let rules = ChessRules { chess960: true };
    let mut game = ChessGame::from_position(&rules, "rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1").unwrap();
    let castle = game.read_move("b1h1").unwrap();
    assert_eq!(game.move_notation(castle), "O-O");
    game.apply(castle).unwrap();
    assert!(game.position().starts_with("rk5r/8/8/8/8/8/8/R4RK1 b"));
}

#[test]
fn bad_fens_say_what_is_wrong() {
    let rules = ChessRules::default();
    let cases = [
        ("", "empty"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "board"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "side to move"),
        ("8/8/8/8/8/8/8/8 w - - 0 1", "impossible"),
        ("4k3/8/8/8/8/8/8/4K2R w Q - 0 1", "impossible"),
    ];
    for (fen, expected) in cases {
        let message = ChessGame::from_position(&rules, fen).unwrap_err().to_string();
        assert!(message.contains(expected), "{fen:?}: {message}");
    }
    assert!(ChessGame::from_position(&rules, &"8/".repeat(100_000)).is_err());
}

#[test]
fn capture_marks_are_read_leniently() {
    let mut game = game(START);
    play(&mut game, "Nxf3 d5 e4 Nc6 ed5 e5 Qe2 Be7 Qe5");
    assert_eq!(game.position(), "r1bqk1nr/ppp1bppp/2n5/3PQ3/8/5N2/PPPP1PPP/RNB1KB1R b KQkq - 0 5");
}

#[test]
fn castling_has_one_form_per_mode() {
    let standard = game("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let king_onto_rook = ChessMove { from: Square::E1, to: Square::H1, promotion: None };
    let two_squares = ChessMove { from: Square::E1, to: Square::G1, promotion: None };
    assert_eq!(standard.parse_move("e1h1"), Ok(two_squares), "text is converted");
    assert!(standard.check(two_squares).is_ok());
    assert_eq!(standard.check(king_onto_rook).unwrap_err().reason, R::CastlingNotation);
    assert!(standard.legal_moves().contains(&two_squares));
    assert!(!standard.legal_moves().contains(&king_onto_rook));

    let rules = ChessRules { chess960: true };
    let chess960 =
        ChessGame::from_position(&rules, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
    assert_eq!(chess960.parse_move("e1g1"), Ok(king_onto_rook));
    assert_eq!(chess960.check(two_squares).unwrap_err().reason, R::CastlingNotation);
}

#[test]
fn perft_divide_adds_up_to_perft_even_when_the_game_is_over() {
    for fen in [START, "8/8/8/8/8/8/8/K6k w - - 0 1", "4k3/8/8/8/8/8/8/R3K3 w - - 100 80"] {
        let mut game = game(fen);
        for depth in 1..=3 {
            let total: u64 = game.perft_divide(depth).iter().map(|(_, n)| n).sum();
            assert_eq!(total, game.perft(depth), "{fen} depth {depth}");
        }
    }
}

/// The position hash agrees with shakmaty's Zobrist hash (the reference) on which positions are
/// the same for repetition: over many random games' positions, two hashes are equal exactly when
/// shakmaty's are. Castling rights, a legal en passant capture and the side to move all count.
#[test]
fn position_hash_tells_apart_what_shakmaty_tells_apart() {
    use shakmaty::zobrist::Zobrist64;
    use std::collections::HashMap;

    let mut ours_to_reference: HashMap<u64, u64> = HashMap::new();
    let mut reference_to_ours: HashMap<u64, u64> = HashMap::new();
    let mut state = 7_u64;
    for start in
        ["startpos", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1"]
    {
        for _ in 0..60 {
            let mut game = if start == "startpos" { game(START) } else { game(start) };
            for _ in 0..40 {
                let reference: Zobrist64 =
                    game.shakmaty_position().zobrist_hash(EnPassantMode::Legal);
                let ours = game.hash();
                assert_eq!(*ours_to_reference.entry(ours).or_insert(reference.0), reference.0);
                assert_eq!(*reference_to_ours.entry(reference.0).or_insert(ours), ours);
                let moves = game.legal_moves();
                if moves.is_empty() {
                    break;
                }
                state = crate::zobrist::splitmix64(state);
                game.apply(moves[(state % moves.len() as u64) as usize]).unwrap();
            }
        }
    }
    assert!(ours_to_reference.len() > 3_000, "{} positions", ours_to_reference.len());
}

#[test]
fn position_hash_counts_castling_rights_and_en_passant() {
    let with_rights = game("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").hash();
    let without = game("r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1").hash();
    assert_ne!(with_rights, without);
    // A capturable en passant square counts; one no pawn can take on does not (as in FIDE's rule).
    let capturable = game("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2").hash();
    let no_capture_square = game("4k3/8/8/3pP3/8/8/8/4K3 w - - 0 2").hash();
    assert_ne!(capturable, no_capture_square);
    let not_capturable = game("4k3/8/8/3p4/8/8/4P3/4K3 w - d6 0 2").hash();
    assert_eq!(not_capturable, game("4k3/8/8/3p4/8/8/4P3/4K3 w - - 0 2").hash());
}
