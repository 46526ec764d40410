//! Renju's forbidden points for Black: double three, double four and overline, by the
//! definitions of the Renju International Federation.
//!
//! - A **five** is exactly five black stones in a row. A move that makes one is never forbidden.
//! - An **overline** is six or more in a row.
//! - A **four** is a line that one more stone turns into a five. `.xxxx.` (a straight four)
//!   is one four; `x.xxx.x` and `xx.xx.xx` hold two fours in one line.
//! - A **three** is a line that one more stone turns into a straight four, where that stone
//!   must itself be allowed. Whether it is depends on the same rules, one stone deeper, so
//!   the judgement recurses; the depth is bounded (see [`MAX_DEPTH`]).

use super::board::{Board, DIRECTIONS, Stone};
use crate::core::IllegalReason;

/// How many stones deep a three's completing point is judged. Past this the point is taken as
/// allowed: real positions need two or three levels.
const MAX_DEPTH: u32 = 6;

/// The fewest other black stones near a point that could make it forbidden: a double three and
/// `x.xxx.x` both need four.
const FEWEST_STONES_FOR_A_FOUL: usize = 4;

/// Why Black may not play on the empty point `index`, or `None` when Black may.
pub(crate) fn forbidden(board: &Board, index: usize) -> Option<IllegalReason> {
    if !could_be_forbidden(board, index) {
        return None;
    }
    let mut scratch = board.clone();
    judge(&mut scratch, index, 0)
}

/// A cheap filter: too few black stones on the lines through `index` (within the reach of an
/// overline) to make any foul, so there is no need for the full judgement.
fn could_be_forbidden(board: &Board, index: usize) -> bool {
    let mut black = 0;
    for step in DIRECTIONS {
        for forward in [false, true] {
            let mut at = index;
            for _ in 0..5 {
                at = if forward { at + step } else { at - step };
                match board.at(at) {
                    Stone::Wall => break,
                    Stone::Black => black += 1,
                    Stone::Empty | Stone::White => {}
                }
            }
        }
    }
    black >= FEWEST_STONES_FOR_A_FOUL
}

/// Judges a black stone on the empty point `index`, leaving the board as it was.
fn judge(board: &mut Board, index: usize, depth: u32) -> Option<IllegalReason> {
    board.put(index, Stone::Black);
    let verdict = judge_placed(board, index, depth);
    board.put(index, Stone::Empty);
    verdict
}

/// Judges the black stone just put on `index`.
fn judge_placed(board: &mut Board, index: usize, depth: u32) -> Option<IllegalReason> {
    let lengths = DIRECTIONS.map(|step| board.run(index, step, Stone::Black).1);
    if lengths.contains(&5) {
        return None;
    }
    if lengths.iter().any(|&length| length > 5) {
        return Some(IllegalReason::Overline);
    }
    let fours = DIRECTIONS.map(|step| fours_in_line(board, index, step));
    if fours.iter().sum::<usize>() >= 2 {
        return Some(IllegalReason::DoubleFour);
    }
    let mut threes = 0;
    for (step, fours) in DIRECTIONS.into_iter().zip(fours) {
        if fours == 0 && is_three(board, index, step, depth) {
            threes += 1;
            if threes == 2 {
                return Some(IllegalReason::DoubleThree);
            }
        }
    }
    None
}

/// The empty points within `reach` of `index` along `step`, both ways, up to the first wall or
/// white stone, as (offset, point) with the offset negative behind.
fn empties_near(board: &Board, index: usize, step: usize, reach: isize) -> Vec<(isize, usize)> {
    let mut empties = Vec::with_capacity(8);
    for forward in [false, true] {
        let mut at = index;
        for distance in 1..=reach {
            at = if forward { at + step } else { at - step };
            match board.at(at) {
                Stone::Wall | Stone::White => break,
                Stone::Empty => empties.push((if forward { distance } else { -distance }, at)),
                Stone::Black => {}
            }
        }
    }
    empties
}

/// Whether a black stone on the empty point `at` would make exactly five through `through`.
fn makes_five_through(board: &Board, at: usize, step: usize, through: usize) -> bool {
    let (start, length) = board.run(at, step, Stone::Black);
    length == 5 && (start..start + 5 * step).step_by(step).any(|point| point == through)
}

/// How many fours the black stone on `index` belongs to along `step`: the points that would
/// make a five through it, with the two ends of a straight four counted as one four.
fn fours_in_line(board: &Board, index: usize, step: usize) -> usize {
    let completions: Vec<isize> = empties_near(board, index, step, 4)
        .into_iter()
        .filter(|&(_, at)| makes_five_through(board, at, step, index))
        .map(|(offset, _)| offset)
        .collect();
    let straight = completions.len() == 2 && (completions[1] - completions[0]).abs() == 5;
    completions.len() - usize::from(straight)
}

/// Whether the black stone on `index` is part of a three along `step`: some allowed point
/// turns the line into a straight four through it.
fn is_three(board: &mut Board, index: usize, step: usize, depth: u32) -> bool {
    for (_, at) in empties_near(board, index, step, 3) {
        board.put(at, Stone::Black);
        let straight = makes_straight_four_through(board, at, step, index);
        board.put(at, Stone::Empty);
        if straight && (depth >= MAX_DEPTH || judge(board, at, depth + 1).is_none()) {
            return true;
        }
    }
    false
}

/// Whether the black stone on `at` stands in a straight four (`.xxxx.`, each end making
/// exactly five) that also holds `through`.
fn makes_straight_four_through(board: &Board, at: usize, step: usize, through: usize) -> bool {
    let (start, length) = board.run(at, step, Stone::Black);
    let end = start + 3 * step;
    if length != 4 || through < start || through > end {
        return false;
    }
    let (before, after) = (start - step, end + step);
    board.at(before) == Stone::Empty
        && board.at(after) == Stone::Empty
        && board.at(before - step) != Stone::Black
        && board.at(after + step) != Stone::Black
}
