//! Rule tables, outcomes and random playouts for gomoku.

use super::*;
use crate::options::RuleSet;

/// White stones far from the action, to make the stone counts fit the side to move.
const PADDING: [&str; 16] = [
    "a1", "c1", "e1", "g1", "i1", "k1", "m1", "o1", "a15", "c15", "e15", "g15", "i15", "k15",
    "m15", "o15",
];

/// A game under `rule` with the given stones, `to_move` to play; White's stones are topped up
/// from [`PADDING`] until the counts fit.
fn setup(rule: WinRule, black: &str, white: &str, to_move: Side) -> Gomoku {
    let rules = GomokuRules::new(15, rule).unwrap();
    let board = Board::empty(15);
    let black = notation::read_points(&board, black).unwrap();
    let mut white = notation::read_points(&board, white).unwrap();
    let wanted_white = if to_move == Side::First { black.len() } else { black.len() - 1 };
    let mut padding = PADDING.iter().map(|p| notation::read_point(&board, p).unwrap());
    while white.len() < wanted_white {
        white.push(padding.next().expect("enough padding"));
    }
    let mut board = board;
    black.iter().for_each(|&p| board.put(p, Stone::Black));
    white.iter().for_each(|&p| board.put(p, Stone::White));
    let text = notation::write_position(&board, to_move);
    Gomoku::from_position(&rules, &text).unwrap()
}

/// What a row of the rule table expects of its move.
#[derive(Debug, PartialEq)]
enum Expect {
    /// Legal, and the game goes on.
    Plays,
    /// Legal, and this side wins.
    Wins(Side),
    /// Illegal for this reason.
    Refused(IllegalReason),
}

use IllegalReason as R;
use Side::{First as B, Second as W};
use WinRule::{Caro, Freestyle, Renju, Standard};

#[rustfmt::skip]
const RULE_TABLE: &[(&str, WinRule, &str, &str, Side, &str, Expect)] = &[
    ("occupied point", Freestyle, "h8", "", W, "h8", Expect::Refused(R::PointOccupied)),
    ("game over", Freestyle, "d8e8f8g8h8", "d9e9f9g9", W, "a9", Expect::Refused(R::GameOver)),
    ("freestyle five wins", Freestyle, "d8e8f8g8", "", B, "h8", Expect::Wins(B)),
    ("freestyle overline wins", Freestyle, "c8d8e8f8h8", "", B, "g8", Expect::Wins(B)),
    ("freestyle white diagonal five", Freestyle, "a3c3e3g3i3", "d4e5f6g7", W, "h8", Expect::Wins(W)),
    ("standard five wins", Standard, "h4h5h6h7", "", B, "h8", Expect::Wins(B)),
    ("standard overline does not win", Standard, "c8d8e8f8h8", "", B, "g8", Expect::Plays),
    ("standard white overline does not win", Standard, "a3c3e3g3i3k3", "c8d8e8f8h8", W, "g8", Expect::Plays),
    ("renju black five wins", Renju, "d8e8f8g8", "", B, "h8", Expect::Wins(B)),
    ("renju black overline forbidden", Renju, "c8d8e8f8h8", "", B, "g8", Expect::Refused(R::Overline)),
    ("renju white overline wins", Renju, "a3c3e3g3i3k3", "c8d8e8f8h8", W, "g8", Expect::Wins(W)),
    ("renju double three", Renju, "i8j8h9h10", "", B, "h8", Expect::Refused(R::DoubleThree)),
    ("renju white may double three", Renju, "a3c3e3g3i3", "i8j8h9h10", W, "h8", Expect::Plays),
    ("caro open five wins", Caro, "d8e8f8g8", "", B, "h8", Expect::Wins(B)),
    ("caro five closed at one end wins", Caro, "d8e8f8g8", "c8", B, "h8", Expect::Wins(B)),
    ("caro five closed at both ends does not win", Caro, "d8e8f8g8", "c8i8", B, "h8", Expect::Plays),
    ("caro five closed at both ends, the last stone in the middle", Caro, "d8e8g8h8", "c8i8", B, "f8", Expect::Plays),
    ("caro five against the edge wins", Caro, "a8b8c8d8", "", B, "e8", Expect::Wins(B)),
    ("caro five against the edge, closed at the other end, wins", Caro, "a8b8c8d8", "f8", B, "e8", Expect::Wins(B)),
    ("caro overline open wins", Caro, "c8d8e8f8h8", "", B, "g8", Expect::Wins(B)),
    ("caro overline closed at both ends does not win", Caro, "c8d8e8f8h8", "b8i8", B, "g8", Expect::Plays),
    ("caro white five closed by black at both ends does not win", Caro, "c3e3g3i3k3c8i8", "d8e8f8g8", W, "h8", Expect::Plays),
    ("caro diagonal closed at both ends does not win", Caro, "d4e5f6g7", "c3i9", B, "h8", Expect::Plays),
    ("caro a closed five leaves the game on; an open one later wins", Caro, "d8e8f8g8d9e9f9g9", "c8i8c9", B, "h9", Expect::Wins(B)),
    ("caro takes no renju restriction", Caro, "i8j8h9h10", "", B, "h8", Expect::Plays),
    ("renju three blocked at one end is no three", Renju, "i8j8h9h10", "k8", B, "h8", Expect::Plays),
    ("renju three blocked by the edge", Renju, "b8c8a9a10", "", B, "a8", Expect::Plays),
    ("renju split three counts", Renju, "j8k8h9h10", "", B, "h8", Expect::Refused(R::DoubleThree)),
    ("renju three needing an overline is no three", Renju, "e8i8j8m8h9h10", "", B, "h8", Expect::Plays),
    ("renju three made by one end only is a three", Renju, "e8i8j8h9h10", "", B, "h8", Expect::Refused(R::DoubleThree)),
    ("renju three whose completions are 4-4 is no three", Renju,
        "i8j8h9h10g9g10g11k9k10k11", "", B, "h8", Expect::Plays),
    ("renju three whose completions are overlines is no three", Renju,
        "i8j8h9h10g6g7g9g10g11k6k7k9k10k11", "", B, "h8", Expect::Plays),
    ("renju three with one end blocked, other end open", Renju, "i8j8h9h10", "l8", B, "h8", Expect::Refused(R::DoubleThree)),
    ("renju three whose only completion is a 4-3-3 is no three", Renju,
        "i8j8h9h10g6g7f9e10", "l8", B, "h8", Expect::Plays),
    ("renju 4-3-3 is a double three", Renju, "e8f8g8h9h10i9j10", "", B, "h8", Expect::Refused(R::DoubleThree)),
    ("renju double four", Renju, "e8f8g8h5h6h7", "", B, "h8", Expect::Refused(R::DoubleFour)),
    ("renju four-three is allowed", Renju, "e8f8g8h9h10", "", B, "h8", Expect::Plays),
    ("renju 4-4 in one line x.xxx.x", Renju, "e8g8i8k8", "", B, "h8", Expect::Refused(R::DoubleFour)),
    ("renju 4-4 in one line xx.xx.xx", Renju, "f8g8j8l8m8", "", B, "i8", Expect::Refused(R::DoubleFour)),
    ("renju straight four is one four", Renju, "e8f8g8", "", B, "h8", Expect::Plays),
    ("renju five that is also 4-4 wins", Renju, "d8e8f8g8h9h10h11i9j10k11", "", B, "h8", Expect::Wins(B)),
    ("renju five beside an overline wins", Renju, "d8e8f8g8h2h3h4h5h6h7", "", B, "h8", Expect::Wins(B)),
];

#[test]
fn rule_table() {
    for (name, rule, black, white, to_move, text, expect) in RULE_TABLE {
        let mut game = setup(*rule, black, white, *to_move);
        let mv = game.parse_move(text).unwrap();
        let generated = game.legal_moves().contains(&mv);
        let got = match game.apply(mv) {
            Err(e) => Expect::Refused(e.reason),
            Ok(()) => match game.outcome() {
                Some(outcome) => Expect::Wins(outcome.winner.unwrap()),
                None => Expect::Plays,
            },
        };
        assert_eq!(got, *expect, "{name}");
        assert_eq!(generated, !matches!(got, Expect::Refused(_)), "{name}: generated");
    }
}

#[test]
fn off_board_points_are_refused() {
    let game = Gomoku::start(&GomokuRules::default(), 0);
    let outside = GomokuMove::Stone(Cell::new(15, 7));
    assert_eq!(game.check(outside).unwrap_err().reason, IllegalReason::OffBoard);
    assert!(matches!(game.parse_move("p8"), Err(ParseMoveError::OffBoard { .. })));
    let big = Gomoku::start(&GomokuRules::new(19, WinRule::Freestyle).unwrap(), 0);
    assert_eq!(big.check(outside), Ok(()));
    assert_eq!(big.legal_moves().len(), 361);
}

#[test]
fn twenty_by_twenty_is_a_board_too() {
    let rules = GomokuRules::parse("size=20").unwrap();
    let game = Gomoku::start(&rules, 0);
    assert_eq!(game.legal_moves().len(), 400);
    assert_eq!(game.parse_move("t20").map(|m| m.point()), Ok(Some(Cell::new(19, 19))));
    assert!(matches!(game.parse_move("u1"), Err(ParseMoveError::OffBoard { .. })));
    assert!(matches!(game.parse_move("a21"), Err(ParseMoveError::OffBoard { .. })));
    // A five along the top edge, corner to corner of the last rank.
    let game = Gomoku::from_move_string(&rules, "p20a1q20a2r20a3s20a4t20").unwrap();
    assert_eq!(game.outcome().map(|o| o.winner), Some(Some(Side::First)));
    let position = game.position();
    assert_eq!(Gomoku::from_position(&rules, &position).unwrap().position(), position);
    assert!(position.starts_with("15xxxxx/"), "{position}");
    // A 15 board's position is no 20 board's.
    assert!(
        Gomoku::from_position(&rules, &Gomoku::start(&GomokuRules::default(), 0).position())
            .is_err()
    );
}

#[test]
fn completing_points_of_a_fake_three_are_double_fours() {
    let game = setup(Renju, "h8i8j8g9g10g11k9k10k11", "", W);
    let board = &game.board;
    for point in ["g8", "k8"] {
        let index = notation::read_point(board, point).unwrap();
        assert_eq!(renju::forbidden(board, index), Some(R::DoubleFour), "{point}");
    }
}

#[test]
fn completing_point_of_a_fake_three_is_a_4_3_3() {
    let game = setup(Renju, "h8i8j8h9h10g6g7f9e10", "l8", W);
    let g8 = notation::read_point(&game.board, "g8").unwrap();
    assert_eq!(renju::forbidden(&game.board, g8), Some(R::DoubleThree));
}

#[test]
fn a_win_reports_its_whole_line() {
    let mut game = Gomoku::from_move_string(&GomokuRules::default(), "d8d9e8e9f8f9h8h9").unwrap();
    game.apply(game.parse_move("g8").unwrap()).unwrap();
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.winner, Some(Side::First));
    assert_eq!(outcome.reason, EndReason::FiveInARow);
    let line: Vec<String> = outcome.line.iter().map(Cell::to_string).collect();
    assert_eq!(line, ["d8", "e8", "f8", "g8", "h8"]);
    assert!(game.legal_moves().is_empty());
    assert_eq!(game.check(GomokuMove::Stone(Cell::new(0, 0))).unwrap_err().reason, R::GameOver);
    game.undo();
    assert_eq!(game.outcome(), None);
    assert_eq!(game.legal_moves().len(), 225 - 8);
}

#[test]
fn a_full_board_without_five_is_a_draw() {
    // Stones in pairs along each rank, the pairs shifting each rank: no line longer than two.
    let mut rows = Vec::new();
    for rank in (0..15).rev() {
        let row: String =
            (0..15).map(|file| if (file / 2 + rank) % 2 == 0 { 'x' } else { 'o' }).collect();
        rows.push(row);
    }
    rows[14].replace_range(0..1, "1");
    let text = format!("{} b", rows.join("/"));
    let mut game = Gomoku::from_position(&GomokuRules::default(), &text).unwrap();
    assert_eq!(game.outcome(), None);
    assert_eq!(game.legal_moves(), [GomokuMove::Stone(Cell::new(0, 0))]);
    game.apply(GomokuMove::Stone(Cell::new(0, 0))).unwrap();
    assert_eq!(game.outcome(), Some(Outcome::draw(EndReason::BoardFull)));
    assert!(game.legal_moves().is_empty());
    assert_eq!(game.position().split('/').next(), Some("xxooxxooxxooxxo"));
}

#[test]
fn positions_check_counts_and_wins() {
    let rules = GomokuRules::default();
    let empty = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15";
    assert!(Gomoku::from_position(&rules, &format!("{empty} w")).is_err());
    let one_black = "15/15/15/15/15/15/15/7x7/15/15/15/15/15/15/15";
    assert!(Gomoku::from_position(&rules, &format!("{one_black} b")).is_err());
    let game = Gomoku::from_position(&rules, &format!("{one_black} w")).unwrap();
    assert_eq!(game.position(), format!("{one_black} w"));
    assert_eq!(game.hash(), Gomoku::from_move_string(&rules, "h8").unwrap().hash());
    let black_won = "15/15/15/15/15/15/15/3xxxxx7/3oooo8/15/15/15/15/15/15";
    let won = Gomoku::from_position(&rules, &format!("{black_won} w")).unwrap();
    assert_eq!(won.outcome().map(|o| o.winner), Some(Some(Side::First)));
    assert!(won.legal_moves().is_empty());
    let white_moved_after = "15/15/15/15/15/15/15/3xxxxx7/3oooo7o/15/15/15/15/15/15";
    assert!(Gomoku::from_position(&rules, &format!("{white_moved_after} b")).is_err());
    let both = "15/15/15/15/15/15/15/2xxxxx8/2ooooo8/15/15/15/15/15/x14";
    assert!(Gomoku::from_position(&rules, &format!("{both} w")).is_err());
    let big = GomokuRules::new(19, WinRule::Freestyle).unwrap();
    assert!(Gomoku::from_position(&big, &format!("{one_black} w")).is_err());
}

#[test]
fn move_strings_round_trip() {
    let rules = GomokuRules::parse("rule=renju").unwrap();
    let game = Gomoku::from_move_string(&rules, "H8i9J10a15").unwrap();
    assert_eq!(game.move_string(), "h8i9j10a15");
    assert_eq!(game.stone_at(Cell::new(9, 9)), Some(Side::First));
    assert_eq!(game.stone_at(Cell::new(8, 8)), Some(Side::Second));
    assert_eq!(game.stone_at(Cell::new(20, 8)), None);
    let illegal = Gomoku::from_move_string(&rules, "h8i9h8");
    assert!(matches!(illegal, Err(MoveError::Illegal(e)) if e.reason == R::PointOccupied));
    assert!(matches!(Gomoku::from_move_string(&rules, "h8q1"), Err(MoveError::Parse(_))));
    assert_eq!(game.move_notation(GomokuMove::Stone(Cell::new(7, 7))), "h8");
    assert_eq!(game.move_text(GomokuMove::Stone(Cell::new(14, 14))), "o15");
}

#[test]
fn perft_of_the_empty_board() {
    let mut game = Gomoku::start(&GomokuRules::default(), 0);
    assert_eq!(game.perft(1), 225);
    assert_eq!(game.perft(2), 225 * 224);
}

#[test]
fn perft_files_agree_at_shallow_depths() {
    let files = [
        (WinRule::Freestyle, include_str!("../../tests/data/gomoku.perft")),
        (WinRule::Renju, include_str!("../../tests/data/gomoku-renju.perft")),
    ];
    for (rule, lines) in files {
        for line in lines.lines().filter(|line| !line.trim().is_empty()) {
            let fields: Vec<&str> = line.split('|').map(str::trim).collect();
            let depth: u32 = fields[1].parse().unwrap();
            if depth <= 2 {
                let rules = GomokuRules::new(15, rule).unwrap();
                let mut game = Gomoku::from_position(&rules, fields[0]).unwrap();
                assert_eq!(game.perft(depth).to_string(), fields[2], "{line}");
            }
        }
    }
}

mod playouts {
    use super::*;
    use proptest::prelude::*;

    /// Plays `choices` (each picks among the legal moves) and checks the game's promises.
    fn play_out(rule: WinRule, opening: OpeningRule, choices: &[usize]) {
        let mut rules = GomokuRules::new(15, rule).unwrap();
        rules.opening = opening;
        let mut game = Gomoku::start(&rules, 0);
        for &choice in choices {
            let moves = game.legal_moves();
            if moves.is_empty() {
                assert!(game.outcome().is_some());
                break;
            }
            assert!(game.outcome().is_none());
            let (position, hash) = (game.position(), game.hash());
            let reread = Gomoku::from_position(game.rules(), &position).unwrap();
            assert_eq!((reread.position(), reread.hash()), (position.clone(), hash));
            // Every kind of move, legal or not: check agrees with the list.
            let cell = Cell::new((choice % 15) as u8, (choice / 15 % 15) as u8);
            for probe in [
                GomokuMove::Stone(cell),
                GomokuMove::Offer(cell),
                GomokuMove::Declare((choice % 10) as u8),
                GomokuMove::Take(if choice % 2 == 0 { Side::First } else { Side::Second }),
            ] {
                assert_eq!(game.check(probe).is_ok(), moves.contains(&probe), "{probe}");
            }
            // Keep to the centre most of the time, so lines (and renju fouls) form.
            let central: Vec<GomokuMove> = moves
                .iter()
                .copied()
                .filter(|m| {
                    m.point().is_some_and(|c| c.file.abs_diff(7) <= 3 && c.rank.abs_diff(7) <= 3)
                })
                .collect();
            let pool = if central.is_empty() { &moves } else { &central };
            let mv = pool[choice % pool.len()];
            game.play_unchecked(mv);
            assert_eq!(game.undo(), Some(mv));
            assert_eq!((game.position(), game.hash()), (position, hash));
            game.apply(mv).unwrap();
        }
        let replay = Gomoku::from_move_string(game.rules(), &game.move_string()).unwrap();
        assert_eq!(replay.hash(), game.hash());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        #[test]
        fn random_playouts_keep_promises(
            rule in prop::sample::select(WinRule::ALL.to_vec()),
            opening in prop::sample::select(OpeningRule::ALL.to_vec()),
            choices in prop::collection::vec(0usize..10_000, 0..80),
        ) {
            play_out(rule, opening, &choices);
        }
    }
}

/// A row of [`OPENING_TABLE`]: name, opening rule, moves before, the move, and then either the
/// seat to act after it and the seat holding black, or why it is refused.
type OpeningRow =
    (&'static str, &'static str, &'static str, &'static str, Result<(Side, Side), IllegalReason>);

/// A game under `opening` after `moves` (points and colour words, apart).
fn opened(opening: &str, moves: &str) -> Gomoku {
    let rules = GomokuRules::parse(&format!("opening={opening}")).unwrap();
    Gomoku::from_move_string(&rules, moves).unwrap_or_else(|e| panic!("{moves}: {e}"))
}

#[rustfmt::skip]
const OPENING_TABLE: &[OpeningRow] = &[
    // (name, rule, moves before, move, Ok((seat to act after it, seat holding black)) or why not)
    ("swap: the first player puts the first stone", "swap", "", "h8", Ok((B, B))),
    ("swap: and the second and third", "swap", "h8 i9", "j10", Ok((W, B))),
    ("swap: a colour before three stones is refused", "swap", "h8", "black", Err(R::NoChoiceDue)),
    ("swap: a fourth stone instead of a colour is refused", "swap", "h8i9j10", "k11", Err(R::ChoiceDue)),
    ("swap: the second player takes black, the first plays white", "swap", "h8i9j10", "black", Ok((B, W))),
    ("swap: the second player takes white and plays it", "swap", "h8i9j10", "white", Ok((W, B))),
    ("swap: no second choice", "swap", "h8i9j10 white k11", "black", Err(R::NoChoiceDue)),
    ("swap2: the second player may put the fourth stone", "swap2", "h8i9j10", "k11", Ok((W, B))),
    ("swap2: and must put the fifth", "swap2", "h8i9j10k11", "l12", Ok((B, B))),
    ("swap2: no colour between the two stones", "swap2", "h8i9j10k11", "white", Err(R::NoChoiceDue)),
    ("swap2: after five the first player must choose", "swap2", "h8i9j10k11l12", "m13", Err(R::ChoiceDue)),
    ("swap2: the first player takes white and plays the sixth", "swap2", "h8i9j10k11l12", "white", Ok((B, W))),
    ("swap2: the first player takes black, the second plays white", "swap2", "h8i9j10k11l12", "black", Ok((W, B))),
    ("swap2: the second player takes black at once", "swap2", "h8i9j10", "black", Ok((B, W))),
    ("none: colour words are refused", "none", "h8", "white", Err(R::NoChoiceDue)),
    ("none: no offers either", "none", "h8", "offers=3", Err(R::NoOfferDue)),
    ("soosorv8: the first stone goes on the centre", "soosorv8", "", "a1", Err(R::OutsideOpeningArea)),
    ("soosorv8: on h8", "soosorv8", "", "h8", Ok((B, B))),
    ("soosorv8: the second within the 3x3 square", "soosorv8", "h8", "j10", Err(R::OutsideOpeningArea)),
    ("soosorv8: i9 is in it", "soosorv8", "h8", "i9", Ok((B, B))),
    ("soosorv8: the third within the 5x5 square", "soosorv8", "h8i9", "l8", Err(R::OutsideOpeningArea)),
    ("soosorv8: j10 is in it; the second player chooses", "soosorv8", "h8i9", "j10", Ok((W, B))),
    ("soosorv8: a colour, not a fourth stone", "soosorv8", "h8i9j10", "k11", Err(R::ChoiceDue)),
    ("soosorv8: taking white, the second player puts the fourth", "soosorv8", "h8i9j10", "white", Ok((W, B))),
    ("soosorv8: taking black, the first player puts the fourth", "soosorv8", "h8i9j10", "black", Ok((B, W))),
    ("soosorv8: the fourth anywhere, then White declares", "soosorv8", "h8i9j10 white", "a1", Ok((W, B))),
    ("soosorv8: no declaration before the fourth", "soosorv8", "h8i9j10 white", "offers=2", Err(R::NoOfferDue)),
    ("soosorv8: a declaration, not a stone", "soosorv8", "h8i9j10 white a1", "b2", Err(R::OfferCountDue)),
    ("soosorv8: at most eight", "soosorv8", "h8i9j10 white a1", "offers=9", Err(R::OfferCountOutOfRange)),
    ("soosorv8: at least one", "soosorv8", "h8i9j10 white a1", "offers=0", Err(R::OfferCountOutOfRange)),
    ("soosorv8: two declared, Black's holder may swap", "soosorv8", "h8i9j10 white a1", "offers=2", Ok((B, B))),
    ("soosorv8: a colour is due, not an offer", "soosorv8", "h8i9j10 white a1 offers=2", "offer=g9", Err(R::ChoiceDue)),
    ("soosorv8: swapping, the second player offers as Black", "soosorv8", "h8i9j10 white a1 offers=2", "white", Ok((W, W))),
    ("soosorv8: keeping black, the first player offers", "soosorv8", "h8i9j10 white a1 offers=2 black", "offer=g9", Ok((B, B))),
    ("soosorv8: offers, not stones", "soosorv8", "h8i9j10 white a1 offers=2 black offer=g9", "k11", Err(R::OffersDue)),
    ("soosorv8: no offer twice", "soosorv8", "h8i9j10 white a1 offers=2 black offer=g9", "offer=g9", Err(R::OfferMirrored)),
    // Every stone lies on the diagonal a1-o15: i7 is g9's mirror image across it.
    ("soosorv8: no mirror image of an offer", "soosorv8", "h8i9j10 white a1 offers=2 black offer=g9", "offer=i7", Err(R::OfferMirrored)),
    ("soosorv8: the last offer; White picks", "soosorv8", "h8i9j10 white a1 offers=2 black offer=g9", "offer=k5", Ok((W, B))),
    ("soosorv8: no third offer", "soosorv8", "h8i9j10 white a1 offers=2 black offer=g9 offer=k5", "offer=l5", Err(R::ChooseOffer)),
    ("soosorv8: only an offered point", "soosorv8", "h8i9j10 white a1 offers=2 black offer=g9 offer=k5", "l12", Err(R::ChooseOffer)),
    ("soosorv8: the pick is Black's fifth; White plays the sixth", "soosorv8", "h8i9j10 white a1 offers=2 black offer=g9 offer=k5", "k5", Ok((W, B))),
    ("soosorv8: then play goes on", "soosorv8", "h8i9j10 white a1 offers=2 black offer=g9 offer=k5 k5", "l12", Ok((B, B))),
    ("soosorv8: and no more offers", "soosorv8", "h8i9j10 white a1 offers=2 black offer=g9 offer=k5 k5", "offer=l12", Err(R::NoOfferDue)),
];

#[test]
fn opening_rules_table() {
    for (name, rule, before, mv, expect) in OPENING_TABLE {
        let mut game = opened(rule, before);
        let position = game.position();
        let parsed = game.parse_move(mv).unwrap();
        let generated = game.legal_moves().contains(&parsed);
        match expect {
            Ok((acts, black)) => {
                game.apply(parsed).unwrap_or_else(|e| panic!("{name}: {e}"));
                assert!(generated, "{name}: generated");
                assert_eq!(game.side_to_move(), *acts, "{name}: who acts next");
                assert_eq!(game.colour_of(B) == B, *black == B, "{name}: black's seat");
                assert_eq!(game.undo(), Some(parsed), "{name}: undo");
                assert_eq!(game.position(), position, "{name}");
            }
            Err(reason) => {
                let refused = game.apply(parsed).unwrap_err();
                assert_eq!(refused.reason, *reason, "{name}");
                assert!(!generated, "{name}: not generated");
                assert_eq!(game.position(), position, "{name}: unchanged");
            }
        }
    }
}

#[test]
fn the_seat_holding_the_winning_colour_wins() {
    // Swap: the second player takes black, so the first player plays White; Black's five is
    // the second player's win.
    let game = opened("swap", "h8 a1 i8 black a2 j8 a3 k8 a4 l8");
    let outcome = game.outcome().expect("five");
    assert_eq!(outcome.winner, Some(W));
    assert_eq!(game.move_string(), "h8a1i8 black a2j8a3k8a4l8");
    // Written and read back, choices included.
    let back = opened("swap", &game.move_string());
    assert_eq!(back.history(), game.history());
    // A position read under an opening rule is past the opening.
    let rules = GomokuRules::parse("opening=swap2").unwrap();
    let mid = Gomoku::from_position(&rules, &opened("none", "h8i9").position()).unwrap();
    assert_eq!((mid.phase(), mid.side_to_move()), (Phase::Play, B));
}

#[test]
fn a_soosorv8_opening_writes_reads_and_undoes() {
    let moves = "h8i9j10 black a1 offers=3 white offer=g9 offer=k5 offer=l12 l12 m13";
    let mut game = opened("soosorv8", moves);
    // Points run together again once the words are over.
    assert_eq!(game.move_string(), moves.replace("l12 m13", "l12m13"));
    assert_eq!(game.phase(), Phase::Play);
    assert_eq!(game.declared_offers(), 3);
    let offers: Vec<String> = game.offers().iter().map(ToString::to_string).collect();
    assert_eq!(offers, ["g9", "k5", "l12"]);
    // The pick is a black stone; the offers not picked leave no stone.
    let cell = |text: &str| game.parse_move(text).unwrap().point().unwrap();
    assert_eq!(game.stone_at(cell("l12")), Some(B));
    assert_eq!(game.stone_at(cell("g9")), None);
    // The second player took black, the first then took it back: the first holds black.
    assert_eq!(game.colour_of(B), B);
    assert_eq!(game.parse_move("OFFER=H9"), Ok(GomokuMove::Offer(cell("h9"))));
    assert!(game.parse_move("offers=x").is_err());
    assert!(game.parse_move("offer=z99").is_err());
    let start = Gomoku::start(game.rules(), 0);
    while game.undo().is_some() {}
    assert_eq!(
        (game.position(), game.phase(), game.offers().len()),
        (start.position(), Phase::FirstThree, 0)
    );
    assert_eq!(game.declared_offers(), 0);
}
