//! The move tree: stepping through it, variations, notes on positions.

use super::*;

#[test]
fn stepping_through_the_game_and_back() {
    let mut s = state(GameKind::Chess);
    drag(&mut s, "e2", "e4");
    drag(&mut s, "e7", "e5");
    s.apply(Action::Tree(TreeAction::StepBack));
    assert_eq!(s.viewing_main_ply(), Some(1));
    assert_eq!(s.shown_game().piece_code(cell("e5")), None);
    s.apply(Action::Tree(TreeAction::StepBack));
    s.apply(Action::Tree(TreeAction::StepBack));
    assert_eq!(s.viewing_main_ply(), Some(0));
    s.apply(Action::Tree(TreeAction::StepForward));
    assert_eq!(s.viewing_main_ply(), Some(1));
    s.apply(Action::Tree(TreeAction::StepForward));
    assert_eq!(s.viewing, None, "stepping past the last move returns to the game");
    s.apply(Action::Tree(TreeAction::View(Some(0))));
    s.apply(Action::Tree(TreeAction::View(None)));
    assert!(s.accepts_moves());
    s.apply(Action::Tree(TreeAction::First));
    assert_eq!(s.viewing_main_ply(), Some(0));
    s.apply(Action::Tree(TreeAction::Last));
    assert_eq!(s.viewing, None, "the end of the main line is the game as it stands");
}
#[test]
fn a_move_from_an_earlier_position_makes_a_variation_and_keeps_the_game() {
    let mut s = state(GameKind::Chess);
    for (from, to) in [("e2", "e4"), ("e7", "e5"), ("g1", "f3")] {
        drag(&mut s, from, to);
    }
    s.apply(Action::Tree(TreeAction::View(Some(1))));
    assert!(s.accepts_moves(), "a looked-back position takes moves: they make variations");
    drag(&mut s, "c7", "c5");
    assert_eq!(s.record.moves, ["e2e4", "e7e5", "g1f3"], "the main line stays");
    assert_eq!(*s.notations, ["e4", "e5", "Nf3"]);
    assert_eq!(s.game.piece_code(cell("f3")).as_deref(), Some("wN"), "the game stays");
    let sicilian = s.viewing.clone().expect("in the variation");
    assert_eq!(sicilian.branches.len(), 1);
    assert_eq!(s.shown_game().piece_code(cell("c5")).as_deref(), Some("bP"));
    drag(&mut s, "g1", "f3");
    assert_eq!(s.record.variations[&1][0].moves, ["c7c5", "g1f3"]);
    assert_eq!(s.record.notate_tree().variations[&1][0].notations, ["c5", "Nf3"]);
    // Back out of the variation, then along the main line: the same move follows it.
    s.apply(Action::Tree(TreeAction::StepBack));
    s.apply(Action::Tree(TreeAction::StepBack));
    assert_eq!(s.viewing_main_ply(), Some(1), "before c5 is the branch point on the main line");
    drag(&mut s, "e7", "e5");
    assert_eq!(s.viewing_main_ply(), Some(2));
    assert_eq!(s.record.variations[&1].len(), 1, "no new variation for the main move");
    // The game goes on from its own end; the variation stays in the record.
    s.apply(Action::Tree(TreeAction::View(None)));
    drag(&mut s, "b8", "c6");
    assert_eq!(s.record.moves.len(), 4);
    let text = s.record.to_text();
    assert_eq!(GameRecord::from_text(&text).as_ref(), Some(&*s.record), "{text}");
    // Into the variation with its path, and its end.
    s.apply(Action::Tree(TreeAction::Go(sicilian.clone())));
    assert_eq!(s.viewing.as_ref(), Some(&sicilian));
    s.apply(Action::Tree(TreeAction::Last));
    assert_eq!(s.viewing.as_ref().map(|p| p.ply), Some(2));
    // The embed's autoplay goes along the main line: from the variation's end back to the
    // main line's move it replaced (1... e5), then on to the game's end.
    s.apply(Action::Tree(TreeAction::StepMainLine));
    assert_eq!(s.viewing_main_ply(), Some(2));
    s.apply(Action::Tree(TreeAction::StepMainLine));
    s.apply(Action::Tree(TreeAction::StepMainLine));
    assert_eq!(s.viewing, None, "the end of the game");
}
#[test]
fn variations_are_promoted_made_the_main_line_and_deleted() {
    let mut s = state(GameKind::Xiangqi);
    let hot_seat = |s: &mut AppState, text: &str| {
        let mut game = s.board_game().clone();
        game.play(text).unwrap();
        let cells = game.last_move().unwrap();
        s.apply(Action::Drop { from: cells.from.unwrap(), to: cells.to, now: 0.0 });
    };
    hot_seat(&mut s, "h3e3");
    hot_seat(&mut s, "h10g8");
    s.apply(Action::Tree(TreeAction::View(Some(1))));
    hot_seat(&mut s, "b10c8");
    assert!(!s.viewing.as_ref().unwrap().is_main_line());
    s.apply(Action::Tree(TreeAction::EditTree(TreeEdit::MakeMainLine)));
    assert_eq!(s.record.moves, ["h3e3", "b10c8"]);
    assert_eq!(s.notations.len(), 2);
    assert_eq!(s.viewing, None, "the variation's end is now the game's");
    assert_eq!(s.game.piece_code(cell("c8")).as_deref(), Some("bN"));
    assert_eq!(s.record.variations[&1][0].moves, ["h10g8"], "the old line is a variation");
    s.apply(Action::Tree(TreeAction::Go(qi_play::Path {
        branches: vec![qi_play::tree::Branch { at: 1, index: 0 }],
        ply: 1,
    })));
    s.apply(Action::Tree(TreeAction::EditTree(TreeEdit::Delete)));
    assert!(s.record.variations.is_empty());
    assert_eq!(s.viewing_main_ply(), Some(1));
    s.apply(Action::Tree(TreeAction::EditTree(TreeEdit::Delete)));
    assert_eq!(s.record.moves, Vec::<String>::new(), "deleting a main move cuts the game there");
    assert_eq!(s.viewing, None);
}
#[test]
fn the_main_line_is_not_edited_while_clocks_run_and_the_computer_waits_while_looking_back() {
    let mut s = state(GameKind::Chess);
    s.apply(Action::SetClock { config: Some(ClockConfig::PRESETS[1]), seed: 0 });
    drag(&mut s, "e2", "e4");
    drag(&mut s, "e7", "e5");
    s.apply(Action::Tree(TreeAction::View(Some(1))));
    drag(&mut s, "c7", "c5");
    s.apply(Action::Tree(TreeAction::EditTree(TreeEdit::MakeMainLine)));
    assert_eq!(s.record.moves, ["e2e4", "e7e5"], "no new main line while the clocks run");
    // A side line may still be deleted: the main line stays as it is.
    s.apply(Action::Tree(TreeAction::EditTree(TreeEdit::Delete)));
    assert!(!s.record.variations.contains_key(&1), "the variation is gone");
    assert_eq!(s.record.moves, ["e2e4", "e7e5"]);

    let mut s = state(GameKind::Chess);
    s.apply(Action::SetMode { mode: Mode::VsComputer { human: Side::First }, seed: 0 });
    drag(&mut s, "e2", "e4");
    assert!(s.computer_should_move());
    s.apply(Action::Tree(TreeAction::View(Some(0))));
    assert!(!s.computer_should_move(), "the computer waits while the player looks back");
    drag(&mut s, "d2", "d4");
    assert_eq!(s.record.moves, ["e2e4"]);
    assert!(!s.computer_should_move());
    s.apply(Action::Tree(TreeAction::View(None)));
    assert!(s.computer_should_move());
}
#[test]
fn play_from_here_drops_the_later_moves() {
    let mut s = state(GameKind::Gomoku);
    for point in ["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4", "l8"] {
        click(&mut s, point);
    }
    assert!(s.result().is_some());
    s.apply(Action::Tree(TreeAction::View(Some(4))));
    s.apply(Action::PlayFromHere);
    assert_eq!(s.record.moves.len(), 4);
    assert_eq!(s.notations.len(), 4);
    assert!(s.result().is_none() && s.accepts_moves());
}
#[test]
fn shapes_marks_and_comments_go_on_the_position_shown() {
    use qi_play::{Brush, Mark, Shape};
    let mut s = state(GameKind::Gomoku);
    click(&mut s, "h8");
    click(&mut s, "i9");
    let arrow = Shape { from: cell("h8"), to: cell("j10"), brush: Brush::Red };
    s.apply(Action::Tree(TreeAction::ToggleShape(arrow)));
    s.apply(Action::Tree(TreeAction::ToggleMark(Mark(3))));
    s.apply(Action::Tree(TreeAction::SetComment("  a strong reply  ".into())));
    assert_eq!(s.record.shapes_at(&s.shown_path()), [arrow]);
    assert_eq!(s.record.marks_at(&s.shown_path()), [Mark(3)]);
    assert_eq!(s.record.comment_at(&s.shown_path()), Some("a strong reply"));
    s.apply(Action::Tree(TreeAction::View(Some(1))));
    assert!(s.record.shapes_at(&s.shown_path()).is_empty(), "another position, its own shapes");
    s.apply(Action::Tree(TreeAction::SetComment("x".repeat(5000))));
    assert_eq!(s.record.comments[&1].len(), MAX_COMMENT_CHARS);
    s.apply(Action::Tree(TreeAction::View(None)));
    s.apply(Action::Tree(TreeAction::ToggleShape(arrow)));
    assert!(s.record.shapes.is_empty(), "drawn again: taken off");
    let text = s.record.to_text();
    assert_eq!(GameRecord::from_text(&text).as_ref(), Some(&*s.record));
}
