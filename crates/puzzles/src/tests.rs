use std::sync::atomic::AtomicBool;

use qi_ai::search::native_clock;
use qi_rules::any::{AnyGame, StartFrom};

use super::*;

fn judge_of(variant: &str, rules: &str, position: &str, first: &str) -> Result<Found, Rejection> {
    let game = AnyGame::new(variant, rules, &StartFrom::Position(position)).unwrap();
    let first = game.read_move(first).unwrap();
    let clock = native_clock();
    let stop = AtomicBool::new(false);
    let mut judge = Judge::new(game.kind(), &clock, &stop);
    judge.judge(&game, first)
}

/// The moves of `line` (move texts between spaces), each read in turn from `start`.
fn played(start: &AnyGame, line: &str) -> Vec<qi_rules::any::AnyMove> {
    let mut game = start.clone();
    line.split(' ')
        .map(|text| {
            let mv = game.read_move(text).unwrap();
            game.apply(mv).unwrap();
            mv
        })
        .collect()
}

fn texts(found: &Found) -> Vec<String> {
    let mut game = found.before.clone();
    found
        .moves
        .iter()
        .map(|&mv| {
            let text = game.move_text(mv);
            game.apply(mv).unwrap();
            text
        })
        .collect()
}

#[test]
fn a_chess_mate_in_two_is_a_puzzle() {
    // Lichess's puzzle 00sHx: after 1...Kd7, 2.Be6+ Kd8 3.Qf8#.
    let found =
        judge_of("chess", "", "q3k1nr/1pp1nQpp/3p4/1P2p3/4P3/B1PP1b2/B5PP/5K2 b k - 0 17", "e8d7")
            .unwrap();
    assert_eq!(texts(&found), ["e8d7", "a2e6", "d7d8", "f7f8"]);
    assert_eq!(found.goal, Goal::Mate(2));
    // Two solver moves, the first a check: 1000 + 250 + 40 per depth past the first.
    let rating = difficulty::rating(&found);
    assert_eq!(rating, 1250 + 40 * (found.found_at_depth as u16 - 1));
}

#[test]
fn two_ways_to_win_the_queen_are_no_puzzle() {
    // 1...Qd5?? and the knight or the rook takes it: both win.
    let verdict = judge_of("chess", "", "3qk3/8/8/8/8/2N5/8/3RK3 b - - 0 1", "d8d5");
    assert!(matches!(verdict, Err(Rejection::TwoGoodAnswers { .. })), "{verdict:?}");
}

#[test]
fn a_quiet_position_is_no_puzzle() {
    let verdict =
        judge_of("chess", "", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "e2e4");
    assert!(matches!(verdict, Err(Rejection::NotWinning { .. })), "{verdict:?}");
}

#[test]
fn mate_on_the_spot_with_two_rooks_is_one_puzzle() {
    // After 1...Nc4?? either rook mates: any mate on the spot is right, so it is kept.
    let found = judge_of("chess", "", "6k1/5ppp/8/n7/8/8/5PPP/RR4K1 b - - 0 1", "a5c4").unwrap();
    assert_eq!(found.goal, Goal::Mate(1));
    assert_eq!(found.moves.len(), 2);
}

#[test]
fn an_open_three_made_four_either_way_is_no_gomoku_puzzle() {
    // Black (to move after White's h1) has an open three on the 8th row: g8 and k8 both win.
    let mut rows = vec!["15".to_owned(); 15];
    rows[7] = "7xxx5".into();
    rows[0] = "o13o".into();
    let position = format!("{} w", rows.join("/"));
    let verdict = judge_of("gomoku", "", &position, "h1");
    assert!(matches!(verdict, Err(Rejection::TwoGoodAnswers { .. })), "{verdict:?}");
}

#[test]
fn banqi_with_a_face_down_piece_is_no_puzzle() {
    let game = AnyGame::new("banqi", "", &StartFrom::Start { seed: 3 }).unwrap();
    let first = game.legal_move_values()[0];
    let clock = native_clock();
    let stop = AtomicBool::new(false);
    let mut judge = Judge::new(game.kind(), &clock, &stop);
    assert!(matches!(judge.judge(&game, first), Err(Rejection::HiddenPieces)));
}

fn tags(
    variant: &str,
    position: &str,
    setup: &[&str],
    line: &[&str],
) -> Vec<qi_play::puzzle::Theme> {
    let start = StartFrom::parse(position).unwrap();
    let mut game = AnyGame::new(variant, "", &start).unwrap();
    for mv in setup {
        game.play(mv).unwrap();
    }
    let before = game.clone();
    let moves: Vec<_> = line
        .iter()
        .map(|text| {
            let mv = game.read_move(text).unwrap();
            game.apply(mv).unwrap();
            mv
        })
        .collect();
    themes::tag(&before, &moves)
}

#[test]
fn chess_themes_are_read_off_the_line() {
    use qi_play::puzzle::Theme;
    let fork =
        tags("chess", "r2k4/8/8/1N6/8/8/8/4K3 b - - 0 1", &[], &["d8e8", "b5c7", "e8e7", "c7a8"]);
    assert!(fork.contains(&Theme::Fork), "{fork:?}");
    let back_rank = tags("chess", "6k1/5ppp/8/n7/8/8/5PPP/RR4K1 b - - 0 1", &[], &["a5c4", "a1a8"]);
    assert!(back_rank.contains(&Theme::BackRankMate), "{back_rank:?}");
    assert!(!back_rank.contains(&Theme::Fork));
    let smothered = tags("chess", "6rk/p5pp/8/6N1/8/8/8/6K1 b - - 0 1", &[], &["a7a6", "g5f7"]);
    assert!(smothered.contains(&Theme::SmotheredMate), "{smothered:?}");
    let promotion = tags("chess", "8/P7/8/8/8/8/k7/4K3 b - - 0 1", &[], &["a2a3", "a7a8q"]);
    assert_eq!(promotion, [Theme::Promotion, Theme::PawnEndgame]);
}

#[test]
fn a_gomoku_line_of_fours_is_a_vcf() {
    use qi_play::puzzle::Theme;
    let setup = ["f8", "e8", "g8", "a15", "h8", "c15", "k5", "e15", "k6", "g15", "k7"];
    let vcf = tags("gomoku", "startpos", &setup, &["a1", "i8", "j8", "k8", "k9", "k4"]);
    assert_eq!(vcf, [Theme::Vcf]);
    // The same win after an open three first: a threat that is not a four makes it a VCT.
    let setup = ["f8", "a14", "g8", "a15", "k5", "c15", "k6", "e15", "k7", "g15", "n1"];
    let vct = tags("gomoku", "startpos", &setup, &["a1", "h8", "i8", "k8", "k9", "k4"]);
    assert_eq!(vct, [Theme::Vct]);
}

#[test]
fn a_gomoku_vcf_found_in_self_play_is_a_puzzle() {
    // The generator's ii1j4: after White's g13, Black wins by fours: g8 (four), g9 forced, f9
    // (four and three), h7 forced, c12 five.
    let position = "15/2o3x8/3x1o1o7/3ox1x8/3xoxx8/4x1x8/3x3o7/2o12/12x2/11o3/10o4/9o5/15/15/15 w";
    let found = judge_of("gomoku", "", position, "g13").unwrap();
    assert_eq!(texts(&found), ["g13", "g8", "g9", "f9", "h7", "c12"]);
    assert_eq!(found.goal, Goal::Mate(3));
    let puzzle = found.puzzle("").unwrap();
    assert!(puzzle.themes.contains(&qi_play::puzzle::Theme::Vcf), "{:?}", puzzle.themes);
    // Its VCF, as the engine's own threat search finds it from the position after g13.
    let mut after = found.before.clone();
    after.apply(found.moves[0]).unwrap();
    let AnyGame::Gomoku(gomoku) = &after else { unreachable!() };
    let clock = native_clock();
    let stop = AtomicBool::new(false);
    let mut budget = qi_ai::Budget::new(qi_ai::Limits::default(), &clock, &stop);
    let vcf = qi_ai::gomoku::find_vcf(gomoku, 12, &mut budget).expect("a VCF");
    assert_eq!(vcf.first().map(|&mv| after.move_text(mv.into())), Some("g8".to_owned()));
}

#[test]
fn a_win_the_player_let_go_becomes_their_puzzle() {
    // Black's 1...Qa2 left the back rank open; White played 2.h3 instead of 2.Rb8# and lost the
    // rook to 2...Qxb1+.
    let position = "6k1/5ppp/8/3q4/8/8/5PPP/1R4K1 b - - 0 1";
    let start = AnyGame::new("chess", "", &StartFrom::Position(position)).unwrap();
    let moves = played(&start, "d5a2 h2h3 a2b1 g1h2");
    let clock = native_clock();
    let stop = AtomicBool::new(false);
    let mut judge = Judge::new(start.kind(), &clock, &stop);
    let found = from_own_game(&mut judge, &start, &moves, qi_rules::Side::First);
    assert_eq!(found.len(), 1);
    assert_eq!(texts(&found[0]), ["d5a2", "b1b8"]);
    // Black let nothing go that makes a puzzle.
    assert!(from_own_game(&mut judge, &start, &moves, qi_rules::Side::Second).is_empty());
}

/// The themes of a line from a position.
fn line_tags(variant: &str, position: &str, line: &str) -> Vec<qi_play::puzzle::Theme> {
    let moves: Vec<&str> = line.split(' ').collect();
    tags(variant, position, &[], &moves)
}

#[test]
fn chess_tactics_found_in_self_play_are_named() {
    use qi_play::puzzle::Theme;
    // gbAOx: 15.Bc4 pins the queen to the king; 16.Bxd5.
    let pin = line_tags(
        "chess",
        "r1bq1rk1/ppp3pp/8/3PP3/P7/1P2P3/2QN2PP/2R1KB1n b - - 1 14",
        "d8d5 f1c4 c8e6 c4d5",
    );
    assert!(pin.contains(&Theme::Pin), "{pin:?}");
    // 64zaJ: 39.Qd8+ and 40.Qa8+, the queen taken behind the king.
    let skewer = line_tags(
        "chess",
        "6Q1/4k3/1p2r3/6B1/1P6/5qP1/3K1P1P/8 b - - 7 38",
        "e7d7 g8d8 d7c6 d8a8 c6b5 a8f3",
    );
    assert!(skewer.contains(&Theme::Skewer), "{skewer:?}");
    // VrBEF: the knight checks with the queen's line opening behind it, gives up the queen on
    // g1, and mates on f2 with the king hemmed in.
    let smothered = line_tags(
        "chess",
        "7Q/p4kp1/4p3/2q5/2b2P2/3n2P1/6BP/2R4K w - - 1 40",
        "c1a1 d3f2 h1g1 f2h3 g1h1 c5g1 a1g1 h3f2",
    );
    for theme in [Theme::SmotheredMate, Theme::DiscoveredAttack, Theme::Sacrifice] {
        assert!(smothered.contains(&theme), "{theme:?} in {smothered:?}");
    }
    assert!(!smothered.contains(&Theme::BackRankMate));
    // HIQlw: 21...Nd2, the knight on d2 attacking the king's rook square and the queen.
    let fork = line_tags(
        "chess",
        "r1b1k2r/pp2p3/2n4p/2pp1q2/4n2P/NBP5/PP1BN1P1/RQ2K2R w kq - 5 20",
        "h1f1 f5f1 e1f1 e4d2 f1g1 d2b1",
    );
    assert!(fork.contains(&Theme::Fork), "{fork:?}");
}

#[test]
fn an_advantage_line_goes_on_while_each_answer_is_the_only_one() {
    // gbAOx, as the generator kept it: 15.Bc4 pinning the queen, 15...Be6, 16.Bxd5.
    let found =
        judge_of("chess", "", "r1bq1rk1/ppp3pp/8/3PP3/P7/1P2P3/2QN2PP/2R1KB1n b - - 1 14", "d8d5")
            .unwrap();
    assert_eq!(found.goal, Goal::Advantage);
    assert_eq!(texts(&found), ["d8d5", "f1c4", "c8e6", "c4d5"]);
    assert_eq!(found.moves.len() % 2, 0, "the line ends on the solver's move");
}

#[test]
fn xiangqi_mates_and_banqi_captures_are_named() {
    use qi_play::puzzle::Theme;
    // 重炮: the cannon from a7 lands on e7 and the e5 cannon mates over it (the chariots hold
    // d10 and f10).
    let double = line_tags("xiangqi", "4k4/9/9/C7p/9/4C4/9/9/9/3RKR3 b - - 0 1", "i7i6 a7e7");
    assert_eq!(double, [Theme::DoubleCannon]);
    // 马后炮: the horse is the screen.
    let horse = line_tags("xiangqi", "4k4/9/9/8p/2N6/4C4/9/9/9/3RKR3 b - - 0 1", "i7i6 c6e7");
    assert_eq!(horse, [Theme::HorseBehindCannon]);
    // Banqi: the black cannon takes the chariot over the soldier, then the soldier takes the
    // general.
    let banqi = line_tags("banqi", "K6R/p7/7P/B6c 1 r 0 - -", "a1b1 h1xh4 b1c1 a3xa4");
    assert_eq!(banqi, [Theme::CaptureChain, Theme::CannonJump, Theme::SoldierTakesGeneral]);
}

#[test]
fn a_banqi_cannon_jump_found_in_self_play_is_a_puzzle() {
    // Found by `qi puzzles generate banqi` (seed 2): after Red's a2-b2 Black's cannon on e4
    // jumps the e3 advisor to take the e2 horse, and nothing else wins as much.
    let found =
        judge_of("banqi", "", "RAABC1NP/PcPrkNpp/aCKnab1c/nPrB1Rbp 1 b 1 - -", "a2-b2").unwrap();
    assert_eq!(texts(&found), ["a2-b2", "e4-e2"]);
    assert_eq!(found.goal, Goal::Advantage);
    let puzzle = found.puzzle("").unwrap();
    assert!(puzzle.themes.contains(&qi_play::puzzle::Theme::CannonJump), "{:?}", puzzle.themes);
}

#[test]
fn banqi_pieces_taken_either_way_are_no_puzzle() {
    // Red's horses on a2 and a3 cannot get away from the chariot: taking them now or a move
    // later wins alike.
    let verdict = judge_of("banqi", "", "b6K/Na6/1N6/r6k 1 r 0 - -", "b2-a2");
    assert!(matches!(verdict, Err(Rejection::TwoGoodAnswers { .. })), "{verdict:?}");
}

#[test]
fn a_xiangqi_move_that_alone_holds_the_draw_is_a_puzzle() {
    // Found by `qi puzzles generate xiangqi` in self-play: Red's cannon has taken the horse on
    // b10 and Red brings the chariot up; only taking the cannon back keeps Black level, every
    // other move leaves Black a piece down.
    let found = judge_of(
        "xiangqi",
        "",
        "rCba1a1nr/4k4/1c5cb/p1p1p1p1p/9/9/P1P1P1P1P/8C/9/RNBAKABNR w - - 1 3",
        "a1a3",
    )
    .unwrap();
    assert_eq!(texts(&found), ["a1a3", "a10b10"]);
    assert_eq!(found.goal, Goal::Hold);
    let puzzle = found.puzzle("").unwrap();
    assert!(puzzle.themes.contains(&qi_play::puzzle::Theme::Equality), "{:?}", puzzle.themes);
}

#[test]
fn a_gomoku_win_by_fours_is_a_candidate_at_each_move_while_it_lasts() {
    // A self-play game (the generator found sGnhv in it): Black wins by fours from ply 11 on,
    // and White blocks twice. Where the win first appears Black has a second move nearly as
    // good; two blocks later the four-three alone wins, and that is the puzzle.
    let empty = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 b";
    let start = AnyGame::new("gomoku", "", &StartFrom::Position(empty)).unwrap();
    let moves =
        played(&start, "h13 f15 i12 h12 g11 f11 g10 f9 i10 i11 g8 g7 g12 g9 g14 g13 j11 k10 h9");
    let clock = native_clock();
    let stop = AtomicBool::new(false);
    let mut engine = AnyEngine::default();
    let plies = mine::mistakes_in(&start, &moves, &mut engine, &clock, &stop);
    assert_eq!(plies, [11, 13, 15]);
    let mut judge = Judge::new(start.kind(), &clock, &stop);
    let verdicts: Vec<_> = plies
        .iter()
        .map(|&ply| {
            let mut before = start.clone();
            for &mv in &moves[..ply] {
                before.apply(mv).unwrap();
            }
            judge.judge(&before, moves[ply]).map(|found| texts(&found))
        })
        .collect();
    assert!(matches!(verdicts[0], Err(Rejection::TwoGoodAnswers { .. })), "{verdicts:?}");
    assert!(matches!(verdicts[1], Err(Rejection::TwoGoodAnswers { .. })), "{verdicts:?}");
    assert_eq!(
        verdicts[2],
        Ok(["g13", "j11", "k10", "h9", "f7", "k12"].map(String::from).to_vec())
    );
}

#[test]
fn banqi_capture_chains_are_puzzles() {
    use qi_play::puzzle::Theme;
    // After Black's b2-c2 the advisor takes that soldier, and the general, left alone beside
    // Red's soldier, falls to it: mate in two by a chain of captures.
    let mate = judge_of("banqi", "", "k7/1P6/1p1A4/8 2 r 0 - -", "b2-c2").unwrap();
    assert_eq!(texts(&mate), ["b2-c2", "d2-c2", "a4-b4", "b3-b4"]);
    assert_eq!(mate.goal, Goal::Mate(2));
    let themes = mate.puzzle("").unwrap().themes;
    assert!(themes.contains(&Theme::CaptureChain), "{themes:?}");
    assert!(themes.contains(&Theme::SoldierTakesGeneral), "{themes:?}");
    // Black's elephant takes Red's on h1; Red's general takes Black's general, then the cannon
    // beside it: two captures, each the only good move.
    let gain = judge_of("banqi", "", "7C/4a3/R3K2c/4kcbB 2 r 0 - -", "g1-h1").unwrap();
    assert_eq!(texts(&gain), ["g1-h1", "e2-e1", "h1-g1", "e1-f1"]);
    assert!(matches!(gain.goal, Goal::Advantage), "{:?}", gain.goal);
    let themes = gain.puzzle("").unwrap().themes;
    assert!(themes.contains(&Theme::CaptureChain), "{themes:?}");
}

#[test]
fn a_banqi_position_too_crowded_to_search_is_refused() {
    // Just after the pieces were turned up in a self-play game (seed 2004): with every cannon
    // able to take over a screen, a depth-4 search of the next position visits 44 million
    // nodes. The judge gives up at its cap instead of judging on half a search.
    let verdict = judge_of("banqi", "", "PPppPnbp/raKPp1CR/AkbrancN/BARP1cBC 1 r 1 - -", "c3-b3");
    assert_eq!(verdict.unwrap_err(), Rejection::TooComplex);
}

#[test]
fn banqi_endings_give_tasks_and_a_piece_walked_into_capture_is_no_puzzle() {
    // Black to move with ten pieces on the board, standing a fair chance: the moves that would
    // hand Red a winning answer are tasks there.
    let sparse =
        AnyGame::new("banqi", "", &StartFrom::Position("2p5/1b5P/k4R2/1n2BnRC 1 b 5 - -")).unwrap();
    let moves = [sparse.read_move("c4-d4").unwrap()];
    let clock = native_clock();
    let stop = AtomicBool::new(false);
    let mut engine = AnyEngine::default();
    let tasks = mine::banqi_endgame_tasks(&sparse, &moves, &mut engine, &clock, &stop);
    assert!(!tasks.is_empty() && tasks.len() <= mine::TASKS_PER_POSITION, "{tasks:?}");
    assert!(tasks.iter().all(|&(ply, _)| ply == 0));
    // A crowded board gives none.
    let crowded = "PPppPnbp/raKPp1CR/AkbrancN/BARP1cBC 1 r 1 - -";
    let crowded = AnyGame::new("banqi", "", &StartFrom::Position(crowded)).unwrap();
    let moves = [crowded.read_move("c3-b3").unwrap()];
    assert!(mine::banqi_endgame_tasks(&crowded, &moves, &mut engine, &clock, &stop).is_empty());
    // Red's rook walks to f3 beside Black's chariot, which takes it: no puzzle worth keeping.
    let walked = judge_of("banqi", "", "1b1p1R2/k6P/3Bnr2/n4PRC 1 b 0 - -", "f2-f3").unwrap();
    assert_eq!(texts(&walked), ["f2-f3", "f4-f3"]);
    assert!(mine::takes_what_just_moved(&walked));
    // Black's general steps to b2 and Red's answer is elsewhere: a puzzle.
    let elsewhere = judge_of("banqi", "", "2p5/1b5P/k4R2/1n2BnRC 1 b 5 - -", "a2-b2").unwrap();
    assert!(!mine::takes_what_just_moved(&elsewhere));
}
