//! The committed puzzle database (`static/puzzles/<game>.csv`) reads whole, holds at least the
//! puzzles it held when last generated, and carries the themes the tagger reads off each line
//! today (after a change to the theme rules: `qi puzzles retag <game>`).

use qi_play::puzzle::{self, Puzzle};
use qi_rules::any::Variant;

/// Each game's file and the fewest puzzles it may hold (what the last generation left; the
/// goal, 1,000 for chess, xiangqi and gomoku and 200 for banqi, is in docs/puzzles.md).
const FLOORS: [(Variant, usize); 4] = [
    (Variant::Chess, 1013),
    (Variant::Xiangqi, 1012),
    (Variant::Gomoku, 1001),
    (Variant::Banqi, 201),
];

fn database(variant: Variant) -> Vec<Puzzle> {
    let path = format!(
        "{}/../../static/puzzles/{}.csv",
        env!("CARGO_MANIFEST_DIR"),
        variant.kind().name()
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let read = puzzle::read_file(variant, &text);
    assert!(read.refused.is_empty(), "{path}: {:?}", read.refused.first());
    read.puzzles
}

#[test]
fn each_database_reads_whole_and_is_as_big_as_it_was() {
    for (variant, floor) in FLOORS {
        let puzzles = database(variant);
        assert!(puzzles.len() >= floor, "{variant}: {} puzzles, fewer than {floor}", puzzles.len());
        for puzzle in &puzzles {
            assert!(
                (600..=2600).contains(&puzzle.rating),
                "{}: rating {}",
                puzzle.id,
                puzzle.rating
            );
            assert!(puzzle.moves.len() >= 2 && puzzle.moves.len() % 2 == 0, "{}", puzzle.id);
        }
    }
}

#[test]
fn each_puzzle_carries_the_themes_its_line_shows() {
    for (variant, _) in FLOORS {
        for puzzle in database(variant) {
            let mut tagged = puzzle.clone();
            qi_puzzles::themes::retag(&mut tagged);
            assert_eq!(
                tagged.themes, puzzle.themes,
                "{variant} {}: run qi puzzles retag",
                puzzle.id
            );
        }
    }
}
