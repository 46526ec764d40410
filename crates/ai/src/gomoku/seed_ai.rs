//! The seed tutorial's strongest gomoku AI ("AIThree", the hard level of PoorMonk's Unity
//! gomoku notes, seed 003), ported faithfully as a sparring partner for our engine. It is not
//! used to play for anyone: the strength match (`qi match-gomoku`) plays against it.
//!
//! What it does, as the tutorial wrote it:
//!
//! - **Pattern scores.** For an empty point and each of the four directions and each colour, it
//!   scans outwards from the point (which counts as an own stone, `a`), left side first and
//!   switching sides at every empty point (`_`), stopping a side at an enemy stone or the edge,
//!   until seven points are read or both sides stopped. The string is looked up in a table of
//!   29 substrings (`"aa___"` 100 ... `"_aaaa_"` 1,000,000, `"aaaaa"` `float.MaxValue`); the
//!   highest-scoring key contained in it counts. A point's score is the sum over both colours
//!   and four directions, in `f32` like the C# `float`s (two fives make infinity).
//! - **Search.** `GetList` keeps four points per node: the first four scanned, then each new
//!   point replaces the *first* of the kept ones it beats (not the weakest). A tree three plies
//!   deep is built over those, and alpha-beta (`Mathf.Max`/`Mathf.Min`) runs over it; the root
//!   point whose own score plus its subtree's value is highest is played (first on ties).
//! - **Its quirks, kept:** every stone the tree places is the AI's own colour (the children
//!   inherit `m_chess`), the opponent's plies only flip the sign of the scores, and the first
//!   stone of a game goes on the centre. The board is scanned `x` (file) outer, `y` (rank) inner.
//!
//! The tutorial hard-codes 15x15 (`x <= 14`); this port takes the board's size, so it runs on
//! 19x19 too. It knows nothing of renju's forbidden points.

use qi_rules::gomoku::Gomoku;
use qi_rules::{Cell, Game, Side};

/// The pattern table of `AITwo.Start` (shared by `AIThree`), in insertion order.
const PATTERNS: [(&[u8], f32); 29] = [
    (b"aa___", 100.0),
    (b"a_a__", 100.0),
    (b"___aa", 100.0),
    (b"__a_a", 100.0),
    (b"a__a_", 100.0),
    (b"_a__a", 100.0),
    (b"a___a", 100.0),
    (b"__aa__", 500.0),
    (b"_a_a_", 500.0),
    (b"_a__a_", 500.0),
    (b"_aa__", 500.0),
    (b"__aa_", 500.0),
    (b"a_a_a", 1000.0),
    (b"aa__a", 1000.0),
    (b"_aa_a", 1000.0),
    (b"a_aa_", 1000.0),
    (b"_a_aa", 1000.0),
    (b"aa_a_", 1000.0),
    (b"aaa__", 1000.0),
    (b"_aa_a_", 9000.0),
    (b"_a_aa_", 9000.0),
    (b"_aaa_", 10000.0),
    (b"a_aaa", 15000.0),
    (b"aaa_a", 15000.0),
    (b"_aaaa", 15000.0),
    (b"aaaa_", 15000.0),
    (b"aa_aa", 15000.0),
    (b"_aaaa_", 1_000_000.0),
    (b"aaaaa", f32::MAX),
];

/// The search depth (`m_deep`).
const DEPTH: u32 = 3;
/// Points kept per node by `GetList`.
const KEPT: usize = 4;

/// The board as the tutorial's `m_grid[x, y]`: 0 empty, 1 and 2 the two colours.
#[derive(Clone)]
struct Grid {
    size: i32,
    cells: Vec<i32>,
}

impl Grid {
    fn at(&self, x: i32, y: i32) -> i32 {
        self.cells[(x * self.size + y) as usize]
    }

    fn set(&mut self, (x, y): (i32, i32), value: i32) {
        self.cells[(x * self.size + y) as usize] = value;
    }

    fn on_board(&self, x: i32, y: i32) -> bool {
        (0..self.size).contains(&x) && (0..self.size).contains(&y)
    }
}

/// `MiniMaxNode`.
struct Node {
    chess: i32,
    pos: (i32, i32),
    children: Vec<Node>,
    value: f32,
}

/// The seed AI's move for the side to move in `game`, or `None` when the game is over.
/// The move may be one renju forbids Black: the tutorial never heard of renju.
#[must_use]
pub fn choose(game: &Gomoku) -> Option<Cell> {
    if game.outcome().is_some() {
        return None;
    }
    let size = i32::from(game.rules().size());
    let mut grid = Grid { size, cells: vec![0; (size * size) as usize] };
    let mut stones = 0;
    for x in 0..size {
        for y in 0..size {
            if let Some(side) = game.stone_at(Cell::new(x as u8, y as u8)) {
                grid.set((x, y), colour(side));
                stones += 1;
            }
        }
    }
    if stones == 0 {
        return Some(Cell::new((size / 2) as u8, (size / 2) as u8));
    }
    let me = colour(game.side_to_move());
    let mut chosen: Option<Node> = None;
    for mut item in get_list(&grid, me, true) {
        create_tree(&mut item, grid.clone(), DEPTH, false);
        let value = alpha_beta(&item, DEPTH, false, f32::MIN, f32::MAX);
        item.value += value;
        if chosen.as_ref().is_none_or(|node| node.value < item.value) {
            chosen = Some(item);
        }
    }
    chosen.map(|node| Cell::new(node.pos.0 as u8, node.pos.1 as u8))
}

fn colour(side: Side) -> i32 {
    match side {
        Side::First => 1,
        Side::Second => 2,
    }
}

/// `GetList`: four points, replacing the first kept one that a new point beats.
fn get_list(grid: &Grid, chess: i32, is_myself: bool) -> Vec<Node> {
    let mut list: Vec<Node> = Vec::with_capacity(KEPT + 1);
    for x in 0..grid.size {
        for y in 0..grid.size {
            if grid.at(x, y) != 0 {
                continue;
            }
            let score = get_score(grid, (x, y));
            let value = if is_myself { score } else { -score };
            let node = Node { chess, pos: (x, y), children: Vec::new(), value };
            if list.len() < KEPT {
                list.push(node);
            } else {
                let beaten = list.iter().position(|item| {
                    if is_myself { node.value > item.value } else { node.value < item.value }
                });
                if let Some(index) = beaten {
                    list.remove(index);
                    list.push(node);
                }
            }
        }
    }
    list
}

/// `CreateTree`: every node places a stone of its own `chess` (the AI's colour throughout).
fn create_tree(node: &mut Node, mut grid: Grid, deep: u32, is_myself: bool) {
    if deep == 0 || node.value == f32::MAX {
        return;
    }
    grid.set(node.pos, node.chess);
    node.children = get_list(&grid, node.chess, !is_myself);
    for child in &mut node.children {
        create_tree(child, grid.clone(), deep - 1, !is_myself);
    }
}

/// `Mathf.Max`.
fn unity_max(a: f32, b: f32) -> f32 {
    if a > b { a } else { b }
}

/// `Mathf.Min`.
fn unity_min(a: f32, b: f32) -> f32 {
    if a < b { a } else { b }
}

/// `AlphaBeta` over the built tree.
fn alpha_beta(node: &Node, deep: u32, is_myself: bool, mut alpha: f32, mut beta: f32) -> f32 {
    if deep == 0 || node.value == f32::MAX || node.value == f32::MIN {
        return node.value;
    }
    if is_myself {
        for child in &node.children {
            alpha = unity_max(alpha, alpha_beta(child, deep - 1, !is_myself, alpha, beta));
            if alpha >= beta {
                return alpha;
            }
        }
        alpha
    } else {
        for child in &node.children {
            beta = unity_min(beta, alpha_beta(child, deep - 1, !is_myself, alpha, beta));
            if alpha >= beta {
                return beta;
            }
        }
        beta
    }
}

/// `GetScore`: both colours, four directions each, summed in the tutorial's order.
fn get_score(grid: &Grid, pos: (i32, i32)) -> f32 {
    let mut score = 0.0f32;
    for chess in [1, 2] {
        for offset in [(1, 0), (0, 1), (1, 1), (1, -1)] {
            score += check_one_line(grid, pos, offset, chess);
        }
    }
    score
}

/// `CheckOneLine`: the alternating scan and the table lookup.
fn check_one_line(grid: &Grid, pos: (i32, i32), offset: (i32, i32), chess: i32) -> f32 {
    // The string grows at both ends: at most 7 characters, built in the middle of 16.
    let mut text = [0u8; 16];
    let (mut start, mut end) = (8usize, 9usize);
    text[8] = b'a';
    let mut all_num = 1;
    let (mut l_stop, mut r_stop, mut l_first) = (false, false, true);
    let (mut rx, mut ry) = (pos.0 + offset.0, pos.1 + offset.1);
    let (mut lx, mut ly) = (pos.0 - offset.0, pos.1 - offset.1);
    while all_num < 7 && (!l_stop || !r_stop) {
        if l_first {
            if grid.on_board(lx, ly) && !l_stop {
                let cell = grid.at(lx, ly);
                if cell == chess {
                    all_num += 1;
                    start -= 1;
                    text[start] = b'a';
                } else if cell == 0 {
                    all_num += 1;
                    start -= 1;
                    text[start] = b'_';
                    if !r_stop {
                        l_first = false;
                    }
                } else {
                    if !r_stop {
                        l_first = false;
                    }
                    l_stop = true;
                }
                lx -= offset.0;
                ly -= offset.1;
            } else {
                if !r_stop {
                    l_first = false;
                }
                l_stop = true;
            }
        } else if grid.on_board(rx, ry) && !l_first && !r_stop {
            let cell = grid.at(rx, ry);
            if cell == chess {
                all_num += 1;
                text[end] = b'a';
                end += 1;
            } else if cell == 0 {
                all_num += 1;
                text[end] = b'_';
                end += 1;
                if !l_stop {
                    l_first = true;
                }
            } else {
                if !l_stop {
                    l_first = true;
                }
                r_stop = true;
            }
            rx += offset.0;
            ry += offset.1;
        } else {
            if !l_stop {
                l_first = true;
            }
            r_stop = true;
        }
    }
    let text = &text[start..end];
    let mut chosen: Option<f32> = None;
    for &(key, score) in &PATTERNS {
        if contains(text, key) && chosen.is_none_or(|best| score > best) {
            chosen = Some(score);
        }
    }
    chosen.unwrap_or(0.0)
}

fn contains(text: &[u8], key: &[u8]) -> bool {
    text.windows(key.len()).any(|window| window == key)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(moves: &str) -> Gomoku {
        Gomoku::from_move_string(&Default::default(), moves).unwrap()
    }

    #[test]
    fn opens_in_the_centre() {
        assert_eq!(choose(&game("")), Some(Cell::new(7, 7)));
    }

    #[test]
    fn the_scan_reads_like_the_tutorial() {
        // Black h8 i8 j8; scanning g8 for Black: left first, "_" switches sides.
        let g = game("h8a1i8a2j8");
        let mut grid = Grid { size: 15, cells: vec![0; 225] };
        for x in 0..15 {
            for y in 0..15 {
                if let Some(side) = g.stone_at(Cell::new(x as u8, y as u8)) {
                    grid.set((x, y), colour(side));
                }
            }
        }
        // g8 with h8 i8 j8 to its right: "_aaaa_" -> an open four's score.
        assert_eq!(check_one_line(&grid, (6, 7), (1, 0), 1), 1_000_000.0);
        // So does k8 from the other side; for White it is nothing ("a" between walls of black).
        assert_eq!(check_one_line(&grid, (10, 7), (1, 0), 1), 1_000_000.0);
        assert_eq!(check_one_line(&grid, (10, 7), (1, 0), 2), 0.0);
    }

    #[test]
    fn completes_its_five_and_blocks_a_four() {
        // White (to move) has four in a row on rank 2 with the right end open.
        let g = game("h8a2h9b2h10c2i11d2j12");
        assert_eq!(g.side_to_move(), Side::Second);
        assert_eq!(choose(&g), Some(Cell::new(4, 1)));
        // White to move must stop Black's open four on the h file.
        let g = game("h8a2h9b2h10c2h11");
        assert!(matches!(choose(&g), Some(c) if c == Cell::new(7, 11) || c == Cell::new(7, 6)));
    }
}
