//! `AnyGame` tests: rule lists, and typed moves ([`AnyMove`]) against the text API they sit
//! beside, checked over random playouts of all four games and on chess's special moves.

use shakmaty::{Role, Square};

use super::*;
use crate::zobrist::splitmix64;

#[test]
fn rule_options_have_one_canonical_form() {
    // Changes in any order, over the defaults, come out in full and in the game's order.
    let gomoku = canonical_rules(GameKind::Gomoku, "rule=renju,size=19").unwrap();
    assert_eq!(gomoku, "size=19,rule=renju");
    assert_eq!(canonical_rules(GameKind::Gomoku, "size=19,rule=renju").unwrap(), gomoku);
    assert_eq!(default_rules(GameKind::Gomoku), "size=15,rule=freestyle");
    assert_eq!(canonical_rules(GameKind::Gomoku, &gomoku).unwrap(), gomoku, "a fixed point");
    for kind in GameKind::ALL {
        let defaults = default_rules(kind);
        assert!(!defaults.is_empty());
        assert_eq!(canonical_rules(kind, "").unwrap(), defaults);
    }
    assert!(canonical_rules(GameKind::Chess, "castling=maybe").is_err());
    assert_eq!(
        rules_with(GameKind::Gomoku, "", "rule", "renju").unwrap(),
        canonical_rules(GameKind::Gomoku, "rule=renju").unwrap()
    );
}

#[test]
fn rules_are_one_value_that_makes_its_variant_and_its_game() {
    for variant in Variant::ALL {
        let rules = AnyRules::of(variant);
        assert_eq!((rules.variant(), rules.kind()), (variant, variant.kind()));
        assert_eq!(AnyRules::parse(variant, ""), Ok(rules));
        // The text form reads back to the same value, under the variant it makes.
        assert_eq!(AnyRules::parse(rules.variant(), &rules.to_list()), Ok(rules));
        let game = AnyGame::with_rules(rules, &StartFrom::Start { seed: 7 }).unwrap();
        assert_eq!((game.rules(), game.kind()), (rules, variant.kind()));
        assert_eq!(game.rules_list(), rules.to_list());
    }
    // A variant's name implies options; the list may change them after it.
    assert_eq!(
        AnyRules::parse(Variant::Chess, "variant=chess960"),
        Ok(AnyRules::of(Variant::Chess960))
    );
    assert_eq!(
        AnyRules::parse(Variant::Chess960, "variant=standard"),
        Ok(AnyRules::of(Variant::Chess))
    );
    let renju = AnyRules::parse(Variant::Gomoku, "rule=renju,size=19").unwrap();
    assert_eq!(renju.to_list(), canonical_rules(GameKind::Gomoku, "size=19,rule=renju").unwrap());
    let game = AnyGame::new("gomoku", "rule=renju,size=19", &StartFrom::Start { seed: 0 }).unwrap();
    assert_eq!(game.rules(), renju);
    assert!(AnyRules::parse(Variant::Gomoku, "size=17").is_err());
    assert!(AnyRules::parse(Variant::Banqi, "chain").is_err());
}

fn game(variant: &str, rules: &str, start: &str) -> AnyGame {
    let from = StartFrom::parse(start).expect("start");
    AnyGame::new(variant, rules, &from).unwrap_or_else(|e| panic!("{variant} {start}: {e}"))
}

fn cell(text: &str) -> Cell {
    text.parse().expect("cell")
}

fn chess_cell(square: Square) -> Cell {
    Cell::new(u8::from(square.file()), u8::from(square.rank()))
}

/// The board gesture that makes `mv` (what `move_between` takes), from the move alone; `None`
/// for a banqi chain stop, which no gesture makes.
fn gesture(mv: AnyMove) -> Option<(Cell, Cell, Option<char>)> {
    match mv {
        AnyMove::Chess(mv) => {
            Some((chess_cell(mv.from), chess_cell(mv.to), mv.promotion.map(Role::char)))
        }
        AnyMove::Xiangqi(mv) => Some((mv.from(), mv.to(), None)),
        AnyMove::Banqi(BanqiMove::Flip(cell)) => Some((cell, cell, None)),
        AnyMove::Banqi(BanqiMove::Step { from, to }) => Some((from, to, None)),
        AnyMove::Banqi(BanqiMove::Stop) => None,
        AnyMove::Gomoku(mv) => mv.point().map(|cell| (cell, cell, None)),
    }
}

/// The position and its hash, to compare before and after.
fn snapshot(game: &AnyGame) -> (String, u64) {
    (game.position(), game.hash())
}

/// Everything the typed moves promise, at one position: the typed and text lists agree, every
/// legal move round-trips through its text, its notation and its board gesture, and playing it
/// (typed or as text) then taking it back restores the position and its hash. `rng` drives
/// gestures at random cells, legal or not, which must agree with playing their text.
fn check_position(game: &AnyGame, rng: &mut u64) {
    let at = game.position();
    let values = game.legal_move_values();
    let texts: Vec<String> = values.iter().map(|&mv| game.move_text(mv)).collect();
    assert_eq!(game.legal_moves(), texts, "{at}");
    for &mv in &values {
        let text = game.move_text(mv);
        assert_eq!(mv.kind(), game.kind(), "{text} in {at}");
        assert_eq!(mv.to_string(), text, "Display is move_text, in {at}");
        assert_eq!(game.read_move(&text), Ok(mv), "{text} in {at}");
        assert_eq!(game.canonical_move(&text).as_ref(), Ok(&text), "{text} in {at}");
        let notation = game.move_notation(mv);
        assert_eq!(game.read_move(&notation), Ok(mv), "{notation} ({text}) in {at}");
        assert_eq!(game.check(mv), Ok(()), "{text} in {at}");
        if let Some((from, to, promotion)) = gesture(mv) {
            assert_eq!(game.move_between(from, to, promotion), Ok(mv), "{text} in {at}");
        }

        let mut typed = game.clone();
        typed.apply(mv).unwrap_or_else(|e| panic!("{e} in {at}"));
        assert_eq!(typed.last_played(), Some(mv), "{text} in {at}");
        let mut by_text = game.clone();
        assert_eq!(by_text.play(&text).as_ref(), Ok(&notation), "{text} in {at}");
        assert_eq!(snapshot(&by_text), snapshot(&typed), "{text} in {at}");
        assert_eq!(typed.undo_move(), Some(mv), "{text} in {at}");
        assert_eq!(snapshot(&typed), snapshot(game), "undo of {text} in {at}");
        assert_eq!(typed.last_played(), game.last_played(), "undo of {text} in {at}");
    }

    // Gestures anywhere, a cell beyond the board included: a move exactly when the gesture's
    // text plays, and then the move it plays.
    let (width, height) = game.board_size();
    for _ in 0..24 {
        *rng = splitmix64(*rng);
        let [a, b, c, d, p] = std::array::from_fn(|i| (*rng >> (i * 8)) as u8);
        let from = Cell::new(a % (width + 1), b % (height + 1));
        let to = if c % 4 == 0 { from } else { Cell::new(c % (width + 1), d % (height + 1)) };
        let promotion = [None, Some('q'), Some('n'), Some('k')][usize::from(p % 4)];
        let between = game.move_between(from, to, promotion);
        let text = game.move_text_between(from, to, promotion);
        // The typed gesture and its text agree, the rules' reason included; a cell off the
        // board is unreadable both ways (the messages differ).
        match (&between, game.read_move(&text)) {
            (Err(MoveError::Parse(_)), Err(MoveError::Parse(_))) => {}
            (between, read) => assert_eq!(between, &read, "{text} in {at}"),
        }
        let mut played = game.clone();
        let ok = played.play(&text).is_ok();
        assert_eq!(between.is_ok(), ok, "{text} in {at}");
        if let Ok(mv) = between {
            assert!(values.contains(&mv), "{text} in {at}");
            assert_eq!(played.last_played(), Some(mv), "{text} in {at}");
        }
    }
}

/// Plays `games` random games of up to `plies` plies from `start`, checking every position on
/// the way, then takes every move back, checking the positions and hashes come back in order.
fn random_playouts(start: &AnyGame, games: usize, plies: usize, mut rng: u64) -> usize {
    let mut checked = 0;
    for _ in 0..games {
        let mut game = start.clone();
        let mut trail = vec![(snapshot(&game), game.last_played())];
        for _ in 0..plies {
            check_position(&game, &mut rng);
            checked += 1;
            let moves = game.legal_move_values();
            if moves.is_empty() {
                assert!(game.outcome().is_some(), "no moves, no outcome: {}", game.position());
                break;
            }
            rng = splitmix64(rng);
            let mv = moves[(rng % moves.len() as u64) as usize];
            game.apply(mv).unwrap();
            trail.push((snapshot(&game), Some(mv)));
        }
        while let Some((expected, last)) = trail.pop() {
            assert_eq!(snapshot(&game), expected);
            assert_eq!(game.last_played(), last);
            let undone = game.undo_move();
            assert_eq!(undone, last, "undo_move gives back what last_played said");
        }
        assert_eq!(snapshot(&game), snapshot(start));
    }
    checked
}

#[test]
fn chess_moves_round_trip_over_random_games() {
    let starts = [
        game("chess", "", "startpos"),
        // Castling both ways, en passant, promotions.
        game("chess", "", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
        game("chess", "", "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1"),
        game("chess960", "", "startpos:0"),
        game("chess960", "", "startpos:959"),
        game("chess960", "", "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1"),
    ];
    for (i, start) in starts.iter().enumerate() {
        assert!(random_playouts(start, 3, 60, i as u64) > 3, "{}", start.position());
    }
}

#[test]
fn xiangqi_moves_round_trip_over_random_games() {
    let start = game("xiangqi", "", "startpos");
    assert!(random_playouts(&start, 4, 80, 11) > 4);
}

#[test]
fn banqi_moves_round_trip_over_random_games() {
    for (i, rules) in
        ["", "chain=true", "ranks=hongkong,rush=true,capture_hidden=true,chain=true,draw=20"]
            .into_iter()
            .enumerate()
    {
        for seed in [0, 5] {
            let start = game("banqi", rules, &format!("startpos:{seed}"));
            assert!(random_playouts(&start, 2, 120, seed + i as u64) > 2, "{rules}");
        }
    }
}

#[test]
fn gomoku_moves_round_trip_over_random_games() {
    for (i, rules) in ["", "rule=renju", "size=19", "size=20", "rule=caro"].into_iter().enumerate()
    {
        let start = game("gomoku", rules, "startpos");
        assert!(random_playouts(&start, 2, 30, i as u64) > 2, "{rules}");
    }
}

/// One move of each game, each legal at its game's start.
fn one_move_of_each() -> [AnyMove; 4] {
    let chess = ChessMove { from: Square::E2, to: Square::E4, promotion: None };
    let xiangqi = XiangqiMove::new(cell("h3"), cell("e3")).unwrap();
    [
        AnyMove::from(chess),
        AnyMove::from(xiangqi),
        AnyMove::from(BanqiMove::Flip(cell("a1"))),
        AnyMove::from(GomokuMove::Stone(cell("h8"))),
    ]
}

#[test]
fn a_move_of_another_game_is_refused_not_a_panic() {
    let moves = one_move_of_each();
    let games = GameKind::ALL.map(|kind| game(kind.name(), "", "startpos"));
    for mut game in games {
        for mv in moves {
            if mv.kind() == game.kind() {
                assert_eq!(game.check(mv), Ok(()), "{mv} at {}'s start", game.kind());
                continue;
            }
            let before = snapshot(&game);
            let expected = IllegalMove::new(
                IllegalReason::WrongGame { move_kind: mv.kind(), game_kind: game.kind() },
                mv.to_string(),
            );
            assert_eq!(game.check(mv), Err(expected.clone()));
            assert_eq!(game.apply(mv), Err(expected));
            assert_eq!(snapshot(&game), before, "nothing changes");
            assert_eq!(game.last_played(), None);
            // Written all the same, so a message can show it.
            assert_eq!(game.move_text(mv), mv.to_string());
            assert_eq!(game.move_notation(mv), mv.to_string());
        }
    }

    let mut xiangqi = game("xiangqi", "", "startpos");
    let refused = xiangqi.apply(moves[0]).unwrap_err();
    assert_eq!(refused.to_string(), "illegal move e2e4: a chess move in a xiangqi game");
    assert_eq!(MoveError::from(refused.clone()).to_string(), refused.to_string());
    assert_eq!(refused.reason.describe(), "the move belongs to another game");
    let refused = game("gomoku", "", "startpos").check(moves[2]).unwrap_err();
    assert_eq!(refused.to_string(), "illegal move a1: a banqi move in a gomoku game");
}

#[test]
fn moves_print_as_their_coordinates() {
    let texts = one_move_of_each().map(|mv| mv.to_string());
    assert_eq!(texts, ["e2e4", "h3e3", "a1", "h8"]);
    let step = AnyMove::Banqi(BanqiMove::Step { from: cell("c3"), to: cell("c4") });
    assert_eq!(step.to_string(), "c3-c4");
    assert_eq!(AnyMove::Banqi(BanqiMove::Stop).to_string(), "stop");
    assert_eq!(one_move_of_each().map(AnyMove::kind), GameKind::ALL);
}

#[test]
fn chess_promotion_is_a_move_with_its_piece() {
    let mut game = game("chess", "", "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    let (a7, a8, b8) = (cell("a7"), cell("a8"), cell("b8"));
    assert_eq!(game.move_between(a7, a8, None).ok(), None, "the piece must be named");
    assert_eq!(game.move_between(a7, a8, Some('k')).ok(), None);
    let queen = ChessMove { from: Square::A7, to: Square::A8, promotion: Some(Role::Queen) };
    assert_eq!(game.move_between(a7, a8, Some('q')).ok(), Some(AnyMove::Chess(queen)));
    assert_eq!(game.promotion_choices(a7, a8), ['q', 'r', 'b', 'n']);
    let knight_takes = game.move_between(a7, b8, Some('n')).unwrap();
    assert_eq!(game.move_text(knight_takes), "a7b8n");
    assert_eq!(game.move_notation(knight_takes), "axb8=N");
    assert_eq!(game.read_move("axb8=N"), Ok(knight_takes));

    let mv = AnyMove::Chess(queen);
    assert_eq!((game.move_text(mv), game.move_notation(mv)), ("a7a8q".into(), "a8=Q".into()));
    let without_piece = AnyMove::Chess(ChessMove { promotion: None, ..queen });
    assert_eq!(game.check(without_piece).unwrap_err().reason, IllegalReason::PromotionRequired);
    let before = snapshot(&game);
    game.apply(mv).unwrap();
    assert!(game.position().starts_with("Qn2k3/8/"), "{}", game.position());
    assert_eq!(game.undo_move(), Some(mv));
    assert_eq!(snapshot(&game), before);
    assert_eq!(game.undo_move(), None, "a game read from a position has no earlier moves");
}

#[test]
fn chess_castling_is_one_move_for_both_gestures() {
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let (e1, g1, h1, c1, a1) = (cell("e1"), cell("g1"), cell("h1"), cell("c1"), cell("a1"));
    let step = |to| AnyMove::Chess(ChessMove { from: Square::E1, to, promotion: None });

    // Standard chess: the king's two-square step, whichever square the king is dropped on.
    let standard = game("chess", "", fen);
    assert_eq!(standard.move_between(e1, g1, None).ok(), Some(step(Square::G1)));
    assert_eq!(standard.move_between(e1, h1, None).ok(), Some(step(Square::G1)));
    assert_eq!(standard.move_between(e1, a1, None).ok(), Some(step(Square::C1)));
    assert_eq!(standard.move_text_between(e1, h1, None), "e1h1", "the gesture as made");
    assert_eq!(standard.read_move("O-O"), Ok(step(Square::G1)));
    assert_eq!(standard.move_text(step(Square::G1)), "e1g1");
    assert_eq!(step(Square::G1).to_string(), "e1g1");
    assert_eq!(standard.move_notation(step(Square::C1)), "O-O-O");
    let other_form = standard.check(step(Square::H1)).unwrap_err().reason;
    assert_eq!(other_form, IllegalReason::CastlingNotation);

    // Chess960: the king onto its rook, and that is what the move prints as.
    let chess960 = game("chess960", "", fen);
    assert_eq!(chess960.move_between(e1, g1, None).ok(), Some(step(Square::H1)));
    assert_eq!(chess960.move_between(e1, h1, None).ok(), Some(step(Square::H1)));
    assert_eq!(chess960.move_between(e1, c1, None).ok(), Some(step(Square::A1)));
    assert_eq!(chess960.read_move("O-O"), Ok(step(Square::H1)));
    assert_eq!(chess960.move_text(step(Square::H1)), "e1h1");
    assert_eq!(step(Square::H1).to_string(), "e1h1");
    assert_eq!(chess960.move_notation(step(Square::H1)), "O-O");
    let other_form = chess960.check(step(Square::G1)).unwrap_err().reason;
    assert_eq!(other_form, IllegalReason::CastlingNotation);

    // A Chess960 start where the king castles short from b1.
    let mut shuffled = game("chess960", "", "rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1");
    let castle = shuffled.move_between(cell("b1"), h1, None).unwrap();
    assert_eq!(castle.to_string(), "b1h1");
    assert_eq!(shuffled.move_notation(castle), "O-O");
    let before = snapshot(&shuffled);
    shuffled.apply(castle).unwrap();
    assert!(shuffled.position().starts_with("rk5r/8/8/8/8/8/8/R4RK1 b"));
    assert_eq!(shuffled.last_played(), Some(castle));
    assert_eq!(shuffled.undo_move(), Some(castle));
    assert_eq!(snapshot(&shuffled), before);
}

#[test]
fn banqi_flip_of_an_unknown_piece_is_legal_but_needs_its_identity() {
    // A client's view: the pieces behind `?` are unknown, so only the server can play a flip.
    let seen = "R??????P/Nn?cP?p?/PP?N????/1R???A?? 1 r 0 KABBCCPkaabbrrncppp -";
    let mut client = game("banqi", "", seen);
    let b4 = cell("b4");
    let flip = client.move_between(b4, b4, None).expect("a legal gesture");
    assert_eq!(flip, AnyMove::Banqi(BanqiMove::Flip(b4)));
    assert!(client.legal_move_values().contains(&flip));
    assert_eq!(client.check(flip), Ok(()));
    assert!(client.reveals_unknown(flip), "the contract's exception, named beforehand");
    let before = snapshot(&client);
    let refused = client.apply(flip).unwrap_err().reason;
    assert_eq!(refused, IllegalReason::FlipResultUnknown);
    assert_eq!(snapshot(&client), before);
    // A face-up piece's step, and a move of another game, turn nothing up.
    let step = AnyMove::Banqi(BanqiMove::Step { from: cell("a4"), to: cell("a3") });
    assert!(!client.reveals_unknown(step));
    assert!(!client.reveals_unknown(AnyMove::Gomoku(GomokuMove::Stone(b4))));
}

#[test]
fn last_played_and_undo_move_follow_the_game() {
    let mut game = game("xiangqi", "", "startpos");
    assert_eq!((game.last_played(), game.undo_move()), (None, None));
    let cannon = game.read_move("C2=5").unwrap();
    game.apply(cannon).unwrap();
    let horse = game.read_move("h10g8").unwrap();
    game.apply(horse).unwrap();
    assert_eq!(game.last_played(), Some(horse));
    assert_eq!(game.undo(), Some("h10g8".to_owned()), "the text undo is the typed one, written");
    assert_eq!(game.last_played(), Some(cannon));
    assert_eq!(game.undo_move(), Some(cannon));
    assert_eq!(game.last_played(), None);
}

#[test]
fn owner_is_the_side_of_the_piece_on_a_cell() {
    let chess = game("chess", "", "startpos");
    assert_eq!(chess.owner(cell("e2")), Some(Side::First));
    assert_eq!(chess.owner(cell("d8")), Some(Side::Second));
    assert_eq!((chess.owner(cell("e4")), chess.owner(Cell::new(9, 9))), (None, None));
    let xiangqi = game("xiangqi", "", "startpos");
    assert_eq!(xiangqi.owner(cell("h3")), Some(Side::First));
    assert_eq!(xiangqi.owner(cell("h8")), Some(Side::Second));
    let mut gomoku = game("gomoku", "", "startpos");
    gomoku.play("h8").unwrap();
    gomoku.play("h9").unwrap();
    assert_eq!(
        (gomoku.owner(cell("h8")), gomoku.owner(cell("h9"))),
        (Some(Side::First), Some(Side::Second))
    );
    // Banqi: face-down pieces are no one's; the first flip gives its colour to the flipper.
    let mut banqi = game("banqi", "", "startpos");
    assert!((0..8).all(|f| banqi.owner(Cell::new(f, 0)).is_none()));
    let mut flipped = banqi.clone();
    flipped.play("a1").unwrap();
    assert_eq!(flipped.owner(cell("a1")), Some(Side::First));
    banqi.play("b1").unwrap();
    assert_eq!(banqi.owner(cell("b1")), Some(Side::First));
}
