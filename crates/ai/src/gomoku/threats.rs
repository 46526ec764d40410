//! Threat-space search: victory by continuous fours (VCF). The attacker plays only fours, so
//! each reply is forced (the one point that stops the five); a line of fours that ends in an
//! open four, a double four or a five is a forced win.

use qi_rules::Side;

use super::position::{DIRECTIONS, Position};
use crate::search::Budget;

/// Remembers positions where a VCF search failed, by hash and the depth it was searched to.
/// Also holds how many more nodes the current VCF search may visit, so a deep search at the
/// root cannot eat the whole move's budget.
pub(crate) struct FailCache {
    entries: Vec<(u64, u8)>,
    allowance: u64,
}

impl FailCache {
    pub(crate) fn new() -> FailCache {
        FailCache { entries: vec![(0, 0); 1 << 16], allowance: 0 }
    }

    /// Lets the next searches visit at most `nodes` nodes.
    pub(crate) fn allow(&mut self, nodes: u64) {
        self.allowance = nodes;
    }

    /// Counts one node; `true` when the allowance is spent.
    fn spend(&mut self) -> bool {
        if self.allowance == 0 {
            return true;
        }
        self.allowance -= 1;
        false
    }

    fn failed(&self, hash: u64, depth: u32) -> bool {
        let (key, searched) = self.entries[(hash as usize) & 0xFFFF];
        key == hash && u32::from(searched) >= depth
    }

    fn remember(&mut self, hash: u64, depth: u32) {
        self.entries[(hash as usize) & 0xFFFF] = (hash, depth.min(255) as u8);
    }

    pub(crate) fn clear(&mut self) {
        self.entries.fill((0, 0));
    }
}

/// Where the side `side` could make a five now (array indices): up to two of them, and how many
/// were found (at most two).
pub(crate) fn five_points(position: &Position, side: Side) -> (usize, [u16; 2]) {
    let mut found = [0u16; 2];
    let mut count = 0;
    for p in position.candidates() {
        if position.makes_five(side, p) {
            found[count] = p as u16;
            count += 1;
            if count == 2 {
                break;
            }
        }
    }
    (count, found)
}

/// The point where the side that just played on `point` threatens five (its four's completion).
fn completion_of(position: &Position, side: Side, point: usize) -> Option<usize> {
    for step in DIRECTIONS {
        for k in 1..=4 {
            for at in [point + k * step, point - k * step] {
                if position.is_empty(at) && position.makes_five(side, at) {
                    return Some(at);
                }
            }
        }
    }
    None
}

/// Searches for a victory by continuous fours for the side to move, at most `depth` fours deep.
/// On success `line` holds the attacker's and defender's moves from here, ending with the
/// attacker's winning move; on failure (or when the budget runs out) it returns `false`.
pub(crate) fn vcf(
    position: &mut Position,
    budget: &mut Budget<'_>,
    cache: &mut FailCache,
    depth: u32,
    line: &mut Vec<u16>,
) -> bool {
    let attacker = position.side_to_move();
    let defender = attacker.other();
    let (mine, my_fives) = five_points(position, attacker);
    if mine > 0 && position.is_legal(usize::from(my_fives[0])) {
        line.push(my_fives[0]);
        return true;
    }
    if depth == 0 || cache.failed(position.hash(), depth) {
        return false;
    }
    let (theirs, their_fives) = five_points(position, defender);
    let forced = match theirs {
        0 => None,
        // The attacker must block, and goes on only if the block is a four itself.
        1 if position.makes_four(attacker, usize::from(their_fives[0])) => {
            Some(usize::from(their_fives[0]))
        }
        _ => return false,
    };
    let mut fours: Vec<(i32, u16)> = Vec::new();
    for p in position.candidates() {
        if forced.is_none_or(|f| f == p) && position.makes_four(attacker, p) {
            let order = position.point_value(attacker, p);
            fours.push((order, p as u16));
        }
    }
    fours.sort_unstable_by_key(|m| std::cmp::Reverse(m.0));
    for &(_, point) in &fours {
        let p = usize::from(point);
        if budget.tick() || cache.spend() {
            return false;
        }
        if !position.is_legal(p) {
            continue;
        }
        if position.makes_winning_four(attacker, p) {
            line.push(point);
            return true;
        }
        if try_four(position, budget, cache, depth, line, p) {
            return true;
        }
        if budget.stopped() || cache.allowance == 0 {
            return false;
        }
    }
    if !budget.stopped() && cache.allowance > 0 {
        cache.remember(position.hash(), depth);
    }
    false
}

/// Plays the four on `point`, the forced block, and searches on.
fn try_four(
    position: &mut Position,
    budget: &mut Budget<'_>,
    cache: &mut FailCache,
    depth: u32,
    line: &mut Vec<u16>,
    point: usize,
) -> bool {
    let attacker = position.side_to_move();
    position.play(point);
    let Some(block) = completion_of(position, attacker, point) else {
        position.undo(point);
        return false;
    };
    if !position.is_legal(block) {
        // Renju: Black may not block on a forbidden point, so the four wins.
        position.undo(point);
        line.push(point as u16);
        return true;
    }
    position.play(block);
    line.push(point as u16);
    line.push(block as u16);
    let won = vcf(position, budget, cache, depth - 1, line);
    if !won {
        line.truncate(line.len() - 2);
    }
    position.undo(block);
    position.undo(point);
    won
}

/// Whether `side` has any four on the board to play (a quick filter before [`vcf`]).
pub(crate) fn has_four_move(position: &Position, side: Side) -> bool {
    position.candidates().any(|p| position.makes_four(side, p))
}
