use proptest::prelude::*;

use super::*;
use crate::shape::Brush;
use qi_rules::Cell;

fn moves(line: &Line, path: &Path) -> Vec<String> {
    line.moves_to(path).expect("path in tree").into_iter().map(str::to_owned).collect()
}

fn words(text: &str) -> Vec<String> {
    text.split_whitespace().map(str::to_owned).collect()
}

/// 1. e4 e5 2. Nf3, with 1... c5 2. Nf3 (2. c3) and 1... e6 as alternatives.
fn sample() -> (Line, Path, Path, Path) {
    let mut tree = Line::of_moves(words("e2e4 e7e5 g1f3"));
    let sicilian = tree.add_move(&Path::main(1), "c7c5").unwrap();
    let nf3 = tree.add_move(&sicilian, "g1f3").unwrap();
    let c3 = tree.add_move(&sicilian, "c2c3").unwrap();
    let french = tree.add_move(&Path::main(1), "e7e6").unwrap();
    assert_eq!(nf3, Path { branches: vec![Branch { at: 1, index: 0 }], ply: 2 });
    (tree, c3, french, nf3)
}

#[test]
fn playing_from_an_earlier_position_makes_a_variation_and_keeps_the_main_line() {
    let (tree, c3, french, nf3) = sample();
    assert_eq!(tree.moves, words("e2e4 e7e5 g1f3"), "main line kept");
    assert_eq!(moves(&tree, &c3), words("e2e4 c7c5 c2c3"));
    assert_eq!(moves(&tree, &french), words("e2e4 e7e6"));
    assert_eq!(moves(&tree, &nf3), words("e2e4 c7c5 g1f3"));
    assert_eq!(c3.branches.len(), 2, "an alternative inside a variation nests");
    assert_eq!(tree.variations[&1].len(), 2);
}

#[test]
fn playing_a_move_that_is_already_there_follows_it() {
    let (mut tree, _, french, nf3) = sample();
    let before = tree.clone();
    assert_eq!(tree.add_move(&Path::main(0), "e2e4"), Some(Path::main(1)));
    assert_eq!(tree.add_move(&Path::main(1), "e7e6"), Some(french));
    let sicilian = tree.previous(&nf3).unwrap();
    assert_eq!(tree.add_move(&sicilian, "g1f3"), Some(nf3));
    assert_eq!(tree, before);
}

#[test]
fn stepping_walks_into_and_out_of_variations() {
    let (tree, c3, ..) = sample();
    let back = tree.previous(&c3).unwrap();
    assert_eq!(moves(&tree, &back), words("e2e4 c7c5"));
    let out = tree.previous(&back).unwrap();
    assert_eq!(out, Path::main(1), "before a variation's first move is its branch point");
    assert_eq!(tree.previous(&Path::main(0)), None);
    assert_eq!(tree.next(&Path::main(3)), None);
    assert_eq!(tree.end_of_line(&back).unwrap().ply, 2);
    assert_eq!(tree.paths().len(), 1 + 3 + 2 + 1 + 1);
}

#[test]
fn promoting_swaps_a_variation_with_the_line_it_leaves() {
    let (mut tree, c3, ..) = sample();
    tree.set_comment(&Path::main(3), "the main line");
    tree.toggle_mark(&Path::main(2), Mark(1));
    let promoted = tree.promote(&c3).unwrap();
    assert_eq!(moves(&tree, &promoted), words("e2e4 c7c5 c2c3"), "the same position");
    // 2. c3 is now the Sicilian's main move, 2. Nf3 its alternative.
    assert_eq!(promoted.branches.len(), 1);
    let main = tree.make_main_line(&promoted).unwrap();
    assert_eq!(main, Path::main(3));
    assert_eq!(tree.moves, words("e2e4 c7c5 c2c3"));
    let old_main = &tree.variations[&1][0];
    assert_eq!(old_main.moves, words("e7e5 g1f3"), "the old main line is the first alternative");
    assert_eq!(old_main.comments.get(&2).map(String::as_str), Some("the main line"));
    assert_eq!(old_main.marks[&1], [Mark(1)], "marks travel with their moves");
    let alternatives: Vec<_> = tree.variations[&1].iter().map(|v| v.moves[0].as_str()).collect();
    assert_eq!(alternatives, ["e7e5", "e7e6"]);
    assert_eq!(tree.variations[&2][0].moves, words("g1f3"));
    assert_eq!(tree.promote(&main), None, "the main line has nowhere to go");
}

#[test]
fn deleting_a_main_move_lets_its_first_alternative_take_its_place() {
    let (mut tree, c3, french, _) = sample();
    let back = tree.delete(&Path::main(2)).unwrap();
    assert_eq!(back, Path::main(1));
    assert_eq!(tree.moves, words("e2e4 c7c5 g1f3"));
    assert_eq!(tree.variations[&1].len(), 1, "1... e6 stays an alternative");
    assert_eq!(tree.variations[&2][0].moves, words("c2c3"), "2. c3 stays beside 2. Nf3");
    // Paths found before the edit are stale; a variation is deleted whole from its first move.
    let _ = (c3, french);
    let e6 = Path { branches: vec![Branch { at: 1, index: 0 }], ply: 1 };
    assert_eq!(tree.delete(&e6), Some(Path::main(1)));
    assert!(!tree.variations.contains_key(&1));
    assert_eq!(tree.delete(&Path::main(0)), None);
}

#[test]
fn variations_reorder_among_themselves() {
    let (mut tree, _, french, _) = sample();
    let moved = tree.reorder(&french, true).unwrap();
    assert_eq!(moved.branches[0].index, 0);
    assert_eq!(tree.variations[&1][0].moves, words("e7e6"));
    assert_eq!(tree.reorder(&moved, true), None, "already first");
    assert_eq!(tree.reorder(&Path::main(2), true), None, "the main line is not a variation");
}

#[test]
fn comments_marks_and_shapes_go_with_positions() {
    let (mut tree, c3, ..) = sample();
    assert!(tree.set_comment(&Path::main(0), "before the first move"));
    assert!(tree.set_comment(&c3, "solid"));
    assert_eq!(tree.comment(&c3), Some("solid"));
    assert!(tree.set_comment(&c3, "  "));
    assert_eq!(tree.comment(&c3), None, "a blank comment removes it");
    assert!(tree.toggle_mark(&c3, Mark(5)));
    assert!(!tree.toggle_mark(&Path::main(0), Mark(5)), "no move leads to the start");
    assert_eq!(tree.marks(&c3), [Mark(5)]);
    let arrow = Shape { from: Cell::new(4, 1), to: Cell::new(4, 3), brush: Brush::Green };
    assert!(tree.toggle_shape(&Path::main(0), arrow));
    assert_eq!(tree.shapes(&Path::main(0)), [arrow]);
    assert!(!tree.toggle_shape(&Path::main(9), arrow));
    tree.clear_shapes(&Path::main(0));
    assert!(tree.shapes(&Path::main(0)).is_empty());
}

/// An edit to a random tree, by the index of a position in [`Line::paths`].
#[derive(Clone, Debug)]
enum Edit {
    Add(usize, u8),
    Promote(usize),
    MainLine(usize),
    Delete(usize),
    Reorder(usize, bool),
    Comment(usize),
    Mark(usize, u8),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        4 => (any::<usize>(), 0..4u8).prop_map(|(p, m)| Edit::Add(p, m)),
        1 => any::<usize>().prop_map(Edit::Promote),
        1 => any::<usize>().prop_map(Edit::MainLine),
        1 => any::<usize>().prop_map(Edit::Delete),
        1 => (any::<usize>(), any::<bool>()).prop_map(|(p, e)| Edit::Reorder(p, e)),
        1 => any::<usize>().prop_map(Edit::Comment),
        1 => (any::<usize>(), 1..20u8).prop_map(|(p, m)| Edit::Mark(p, m)),
    ]
}

/// The tree's shape is sound: no empty variation, no alternative to a variation's first move,
/// no alternative that repeats the move it replaces or another alternative.
fn assert_sound(line: &Line, is_variation: bool) {
    if is_variation {
        assert!(!line.is_empty(), "an empty variation");
        assert!(!line.variations.contains_key(&0), "alternatives inside a variation's first move");
    }
    for (&at, alternatives) in &line.variations {
        assert!(at < line.len(), "a variation past the end of its line");
        assert!(!alternatives.is_empty());
        let mut firsts: Vec<&str> = alternatives.iter().map(|v| v.moves[0].as_str()).collect();
        firsts.push(&line.moves[at]);
        let count = firsts.len();
        firsts.sort_unstable();
        firsts.dedup();
        assert_eq!(firsts.len(), count, "two lines start with the same move");
        for variation in alternatives {
            assert_sound(variation, true);
        }
    }
}

proptest! {
    #[test]
    fn edits_keep_the_tree_sound_and_positions_where_they_were(
        edits in proptest::collection::vec(edit(), 1..60)
    ) {
        let mut tree = Line::default();
        for edit in edits {
            let paths = tree.paths();
            let pick = |i: usize| paths[i % paths.len()].clone();
            match edit {
                Edit::Add(p, m) => {
                    let from = pick(p);
                    let to = tree.add_move(&from, &format!("m{m}")).unwrap();
                    let mut expected = moves(&tree, &from);
                    expected.push(format!("m{m}"));
                    prop_assert_eq!(moves(&tree, &to), expected);
                }
                Edit::Promote(p) | Edit::MainLine(p) => {
                    let path = pick(p);
                    let before = moves(&tree, &path);
                    let after = if matches!(edit, Edit::Promote(_)) {
                        tree.promote(&path)
                    } else {
                        tree.make_main_line(&path)
                    };
                    match after {
                        Some(after) => prop_assert_eq!(moves(&tree, &after), before),
                        None => prop_assert!(path.is_main_line()),
                    }
                }
                Edit::Delete(p) => {
                    let path = pick(p);
                    let before = moves(&tree, &path);
                    if let Some(back) = tree.delete(&path) {
                        prop_assert_eq!(moves(&tree, &back), &before[..before.len() - 1]);
                    }
                }
                Edit::Reorder(p, earlier) => {
                    let path = pick(p);
                    let before = moves(&tree, &path);
                    if let Some(after) = tree.reorder(&path, earlier) {
                        prop_assert_eq!(moves(&tree, &after), before);
                    }
                }
                Edit::Comment(p) => {
                    let path = pick(p);
                    prop_assert!(tree.set_comment(&path, "c"));
                    prop_assert_eq!(tree.comment(&path), Some("c"));
                }
                Edit::Mark(p, m) => {
                    let path = pick(p);
                    tree.toggle_mark(&path, Mark(m));
                }
            }
            assert_sound(&tree, false);
            for path in tree.paths() {
                prop_assert!(tree.contains(&path));
                if let Some(back) = tree.previous(&path) {
                    prop_assert_eq!(back.depth() + 1, path.depth());
                }
            }
        }
    }
}
