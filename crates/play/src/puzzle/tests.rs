use qi_rules::any::{AnyGame, AnyRules, StartFrom, Variant};

use super::run::RunState;
use super::*;

/// The first row of lichess's puzzle database (CC0), as it comes.
const LICHESS_ROW: &str = "00sHx,q3k1nr/1pp1nQpp/3p4/1P2p3/4P3/B1PP1b2/B5PP/5K2 b k - 0 17,\
e8d7 a2e6 d7d8 f7f8,1760,80,83,72,mate mateIn2 middlegame short,\
https://lichess.org/yyznGmXs/black#34,Italian_Game Italian_Game_Classical_Variation";

/// Black blunders with a5c4 (the knight leaves); a rook mates on the back rank, and either rook does.
fn back_rank() -> Puzzle {
    let rules = AnyRules::of(Variant::Chess);
    let id = PuzzleId::parse("back1").unwrap();
    Puzzle::new(id, rules, "6k1/5ppp/8/n7/8/8/5PPP/RR4K1 b - - 0 1", &["a5c4", "a1a8"]).unwrap()
}

fn chess_move(puzzle: &Puzzle, played: &[&str], text: &str) -> AnyMove {
    let mut game = puzzle.start();
    for mv in played {
        game.play(mv).unwrap();
    }
    game.read_move(text).unwrap()
}

#[test]
fn a_lichess_row_reads_and_writes_back_unchanged() {
    let puzzle = Puzzle::read_row(Variant::Chess, LICHESS_ROW).unwrap();
    assert_eq!(puzzle.id.as_str(), "00sHx");
    assert_eq!(puzzle.moves.len(), 4);
    assert_eq!(puzzle.solver_moves(), 2);
    assert_eq!(
        (puzzle.rating, puzzle.deviation, puzzle.popularity, puzzle.plays),
        (1760, 80, 83, 72)
    );
    assert_eq!(
        puzzle.themes,
        [Theme::Mate, Theme::MateIn(2), Theme::Other("middlegame".into()), Theme::Short]
    );
    assert_eq!(puzzle.to_row(), LICHESS_ROW);
    let file = format!("{CSV_HEADER}\r\n{LICHESS_ROW}\r\n\r\n");
    let read = read_file(Variant::Chess, &file);
    assert!(read.refused.is_empty(), "{:?}", read.refused);
    assert_eq!(write_file(&read.puzzles), format!("{CSV_HEADER}\n{LICHESS_ROW}\n"));
}

#[test]
fn a_puzzle_is_solved_move_by_move() {
    let puzzle = Puzzle::read_row(Variant::Chess, LICHESS_ROW).unwrap();
    let mut run = PuzzleRun::new(puzzle.clone());
    assert_eq!(run.solver(), qi_rules::Side::First);
    assert_eq!(run.state(), RunState::Solving);
    let first = chess_move(&puzzle, &["e8d7"], "a2e6");
    let Answer::Right { reply } = run.answer(first) else { panic!("a2e6 is the answer") };
    assert_eq!(run.game().move_text(reply), "d7d8");
    assert_eq!(run.board_moves(), &puzzle.moves[..3]);
    let last = chess_move(&puzzle, &["e8d7", "a2e6", "d7d8"], "f7f8");
    assert_eq!(run.answer(last), Answer::Done);
    assert_eq!(run.state(), RunState::Solved);
    assert!(run.finished());
    assert_eq!(run.answer(last), Answer::NotNow);
}

#[test]
fn a_wrong_move_fails_and_another_mate_is_right() {
    let puzzle = back_rank();
    let mut run = PuzzleRun::new(puzzle.clone());
    let wrong = chess_move(&puzzle, &["a5c4"], "g1f1");
    assert_eq!(run.answer(wrong), Answer::Wrong);
    assert_eq!(run.state(), RunState::Failed);
    assert_eq!(run.wrong_move(), Some(wrong));
    // The wrong move stays on the board until taken back; no other move is taken meanwhile.
    assert_eq!(run.game().side_to_move(), qi_rules::Side::Second);
    let mate = chess_move(&puzzle, &["a5c4"], "b1b8");
    assert_eq!(run.answer(mate), Answer::NotNow);
    assert_eq!(run.board_moves(), [puzzle.moves[0], wrong]);
    assert!(run.take_back());
    assert_eq!(run.board_moves(), [puzzle.moves[0]]);
    assert_eq!(run.answer(mate), Answer::Done);
    assert_eq!(run.state(), RunState::Failed, "a failed puzzle stays failed");
    assert_eq!(run.board_moves(), [puzzle.moves[0], mate], "the board keeps the move played");

    let mut fresh = PuzzleRun::new(puzzle.clone());
    assert_eq!(fresh.answer(mate), Answer::Done, "the other rook's mate wins as well");
    assert_eq!(fresh.state(), RunState::Solved);

    let mut helped = PuzzleRun::new(puzzle);
    assert_eq!(helped.show_next().len(), 1);
    assert!(helped.finished());
    assert_eq!(helped.state(), RunState::Failed);
}

#[test]
fn an_illegal_move_changes_nothing() {
    let puzzle = back_rank();
    let mut run = PuzzleRun::new(puzzle.clone());
    let before = run.game().position();
    let illegal = chess_move(&puzzle, &[], "a5c4");
    assert!(matches!(run.answer(illegal), Answer::Illegal(_)));
    assert_eq!(run.game().position(), before);
    assert_eq!(run.state(), RunState::Solving);
}

#[test]
fn bad_rows_say_what_is_wrong_and_the_file_reads_on() {
    let good = back_rank().to_row();
    type Check = fn(&PuzzleError) -> bool;
    let cases: [(&str, Check); 9] = [
        ("a,b,c", |e| matches!(e, PuzzleError::Columns { found: 3 })),
        ("x y,8/8/8/8/8/8/8/8 w - - 0 1,e2e4 e7e5,1,1,1,1,,,", |e| {
            matches!(e, PuzzleError::BadId(_))
        }),
        ("p1,not a position,e2e4 e7e5,1500,80,0,0,,,", |e| matches!(e, PuzzleError::Position(_))),
        ("p2,6k1/5ppp/8/n7/8/8/5PPP/RR4K1 b - - 0 1,a5c4 a1a9,1500,80,0,0,,,", |e| {
            matches!(e, PuzzleError::Move { index: 2, .. })
        }),
        ("p3,6k1/5ppp/8/n7/8/8/5PPP/RR4K1 b - - 0 1,a5c4,1500,80,0,0,,,", |e| {
            matches!(e, PuzzleError::LineShape { moves: 1 })
        }),
        ("p4,6k1/5ppp/8/n7/8/8/5PPP/RR4K1 b - - 0 1,a5c4 a1a8 g8h7 b1b8,1500,80,0,0,,,", |e| {
            matches!(e, PuzzleError::OverEarly { index: 2 })
        }),
        ("p5,6k1/5ppp/8/n7/8/8/5PPP/RR4K1 b - - 0 1,a5c4 a1a8,lots,80,0,0,,,", |e| {
            matches!(e, PuzzleError::Number { column: "Rating", .. })
        }),
        ("p6,6k1/5ppp/8/n7/8/8/5PPP/RR4K1 b - - 0 1,a5c4 a1a8,1500,80,0,0,mate in-one,,", |e| {
            matches!(e, PuzzleError::Theme(_))
        }),
        ("p7,6k1/5ppp/8/n7/8/8/5PPP/RR4K1 b - - 0 1,a5c4 a1a8,1500,80,0,0,mate,\"a,b\",", |e| {
            matches!(e, PuzzleError::Text { column: "GameUrl" })
        }),
    ];
    let mut file = String::from(CSV_HEADER);
    for (row, _) in &cases {
        file.push('\n');
        file.push_str(row);
    }
    file.push('\n');
    file.push_str(&good);
    file.push('\n');
    file.push_str(&good);
    let read = read_file(Variant::Chess, &file);
    assert_eq!(read.puzzles.len(), 1, "the good row is read, the same id again refused");
    assert_eq!(read.refused.len(), cases.len() + 1);
    for ((line, error), (row, check)) in read.refused.iter().zip(&cases) {
        assert!(check(error), "line {line}, {row}: {error}");
        assert!(!error.to_string().is_empty());
    }
    assert_eq!(read.refused.last().unwrap().0, cases.len() + 3);
    assert!(matches!(
        Puzzle::read_row(Variant::Chess, &"x".repeat(MAX_ROW + 1)),
        Err(PuzzleError::TooLong)
    ));
}

#[test]
fn a_gomoku_rule_travels_as_a_theme() {
    let rules = AnyRules::parse(Variant::Gomoku, "rule=renju").unwrap();
    let mut position = vec!["15"; 15];
    position[7] = "7x7";
    let position = format!("{} w", position.join("/"));
    let id = PuzzleId::derive(Variant::Gomoku, &position, &["h9".into(), "i9".into()]);
    let puzzle = Puzzle::new(id, rules, &position, &["h9", "i9"]).unwrap();
    let row = puzzle.to_row();
    assert!(row.contains(",renju,"), "{row}");
    let back = Puzzle::read_row(Variant::Gomoku, &row).unwrap();
    assert_eq!(back.rules, rules);
    assert_eq!(back.themes, [Theme::Renju]);
    assert_eq!(back.to_row(), row);
    let freestyle = Puzzle::read_row(Variant::Gomoku, &row.replace(",renju,", ",vcf,")).unwrap();
    assert_eq!(freestyle.rules, AnyRules::of(Variant::Gomoku));
}

#[test]
fn a_derived_id_is_five_letters_that_depend_on_the_puzzle() {
    let moves = ["a5c4".to_owned(), "a1a8".to_owned()];
    let id = PuzzleId::derive(Variant::Chess, "6k1/5ppp/8/n7/8/8/5PPP/RR4K1 b - - 0 1", &moves);
    assert_eq!(id.as_str().len(), 5);
    assert!(PuzzleId::parse(id.as_str()).is_ok());
    assert_eq!(
        id,
        PuzzleId::derive(Variant::Chess, "6k1/5ppp/8/n7/8/8/5PPP/RR4K1 b - - 0 1", &moves)
    );
    assert_ne!(
        id,
        PuzzleId::derive(Variant::Xiangqi, "6k1/5ppp/8/n7/8/8/5PPP/RR4K1 b - - 0 1", &moves)
    );
}

#[test]
fn a_gomoku_boards_size_travels_in_its_position_and_banqi_shows_no_hidden_piece() {
    let rules = AnyRules::parse(Variant::Gomoku, "size=19,rule=standard").unwrap();
    let mut rows = vec!["19"; 19];
    rows[9] = "9x9";
    let position = format!("{} w", rows.join("/"));
    let id = PuzzleId::parse("big19").unwrap();
    let puzzle = Puzzle::new(id, rules, &position, &["k11", "k12"]).unwrap();
    let back = Puzzle::read_row(Variant::Gomoku, &puzzle.to_row()).unwrap();
    assert_eq!(back.rules, rules);
    assert_eq!(back.themes, [Theme::StandardRule]);

    let dealt = AnyGame::new("banqi", "", &StartFrom::Start { seed: 1 }).unwrap();
    let id = PuzzleId::parse("dark1").unwrap();
    let first = dealt.legal_moves()[0].clone();
    let refused =
        Puzzle::new(id, AnyRules::of(Variant::Banqi), &dealt.position(), &[&first, &first]);
    assert!(matches!(refused, Err(PuzzleError::Position(_))), "{refused:?}");
}

#[test]
fn a_line_of_the_wrong_length_is_refused() {
    let rules = AnyRules::of(Variant::Chess);
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let id = || PuzzleId::parse("len").unwrap();
    let three = Puzzle::new(id(), rules, start, &["g1f3", "g8f6", "f3g1"]);
    assert!(matches!(three, Err(PuzzleError::LineShape { moves: 3 })));
    let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    let long: Vec<&str> = shuffle.iter().cycle().take(MAX_MOVES + 2).copied().collect();
    assert!(matches!(Puzzle::new(id(), rules, start, &long), Err(PuzzleError::LineShape { .. })));
    let longest: Vec<&str> = shuffle.iter().cycle().take(MAX_MOVES).copied().collect();
    // Thirty moves read (the knights' shuffle repeats, so the game may end in a draw first).
    assert!(!matches!(
        Puzzle::new(id(), rules, start, &longest),
        Err(PuzzleError::LineShape { .. })
    ));
}
