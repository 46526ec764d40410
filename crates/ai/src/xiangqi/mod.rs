//! The xiangqi engine: principal-variation alpha-beta under the shared driver
//! ([`crate::driver`]: iterative deepening, aspiration windows, several lines), a transposition table on the rules' Zobrist hash, null-move pruning (only while the
//! mover keeps an attacking piece), late-move reductions, check extension, reverse futility and
//! late-move pruning, and a quiescence search over captures (check evasions included) ordered by
//! MVV-LVA. Moves are ordered hash move, captures by value, killers, then history.
//!
//! Repetitions inside the search path (back into the game's own history too) are judged by the
//! rules' perpetual-check law: the side whose every move in the cycle gave check loses, other
//! cycles are draws. So the engine neither walks into a forbidden perpetual nor misses that the
//! opponent's perpetual loses.

pub mod eval;
#[cfg(test)]
mod tests;
mod weights;

use std::sync::LazyLock;

use qi_rules::xiangqi::{Xiangqi, XiangqiMove};
use qi_rules::{Cell, Game};

use crate::Engine;
use crate::driver::{self, DriveOptions, History, Killers, SearchInfo, SearchResult, Tree};
use crate::search::{
    Bound, Budget, INFINITY, MATE, MATE_BOUND, ReductionTable, Score, TableMove,
    TranspositionTable, score_from_tt, score_to_tt,
};
use eval::{CANNON, CHARIOT, HORSE, ORDER_VALUE, piece_of, side_of};

/// Deepest ply searched (extensions included).
const MAX_PLY: usize = 96;
/// What a repetition won by the perpetual-check law is worth: more than any material, less
/// than a mate.
const PERPETUAL_WIN: i32 = 20_000;

#[cfg(not(target_arch = "wasm32"))]
const TT_BITS: u32 = 20;
#[cfg(target_arch = "wasm32")]
const TT_BITS: u32 = 18;

/// A move as two board points (`rank * 9 + file`); `Mv::NONE` (from = to) is no move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Mv {
    from: u8,
    to: u8,
}

impl Mv {
    const NONE: Mv = Mv { from: 0, to: 0 };

    fn of(mv: XiangqiMove) -> Mv {
        Mv { from: point(mv.from()), to: point(mv.to()) }
    }

    fn rules_move(self) -> XiangqiMove {
        let cell = |p: u8| Cell::new(p % 9, p / 9);
        XiangqiMove::new(cell(self.from), cell(self.to)).expect("points are on the board")
    }
}

impl TableMove for Mv {
    #[inline]
    fn to_bits(self) -> u16 {
        u16::from(self.from) | u16::from(self.to) << 8
    }

    #[inline]
    fn from_bits(bits: u16) -> Mv {
        Mv { from: bits as u8, to: (bits >> 8) as u8 }
    }
}

fn point(cell: Cell) -> u8 {
    cell.rank * 9 + cell.file
}

/// One position on the path from the game's start to the current search node.
#[derive(Clone, Copy)]
struct PathEntry {
    hash: u64,
    /// The side to move is in check (the move into it gave check).
    in_check: bool,
    /// The move into it was a capture or a null move: nothing before can repeat.
    reset: bool,
}

/// The xiangqi engine. Keeps its transposition table and history between moves of a game.
pub struct XiangqiEngine {
    tt: TranspositionTable<Mv>,
    /// History of quiet moves by side, piece and destination ([`history_key`]).
    history: History,
}

/// The history key of a quiet move by `side` of `piece` to point `to`.
fn history_key(side: usize, piece: usize, to: u8) -> usize {
    (side * 7 + piece) * 90 + usize::from(to)
}

impl Default for XiangqiEngine {
    fn default() -> Self {
        Self::new()
    }
}

impl XiangqiEngine {
    /// A new engine.
    #[must_use]
    pub fn new() -> Self {
        Self::with_table(TranspositionTable::new(TT_BITS))
    }

    /// A new engine searching with `tt` and its own history.
    fn with_table(tt: TranspositionTable<Mv>) -> Self {
        XiangqiEngine { tt, history: History::new(2 * 7 * 90) }
    }
}

impl Engine for XiangqiEngine {
    type Game = Xiangqi;

    fn search_lines(
        &mut self,
        game: &Xiangqi,
        budget: &mut Budget<'_>,
        lines: usize,
        on_info: &mut dyn FnMut(&SearchInfo<XiangqiMove>),
    ) -> SearchResult<XiangqiMove> {
        let mut moves = if game.outcome().is_some() { Vec::new() } else { game.legal_moves() };
        if moves.is_empty() {
            // No move: checkmate and stalemate both lose; a finished game is what it is.
            let score = if game.outcome().is_some() { Score::Cp(0) } else { Score::Mate(0) };
            return SearchResult::no_move(score, budget);
        }
        // Aged between moves; not between the slices of one search going on (a ponder).
        if !budget.limits.resumes {
            self.history.age();
        }
        let mut search = Search::new(game, &mut self.tt, &mut self.history);
        let hash_move = search.tt.probe(game.hash()).map_or(Mv::NONE, |e| e.best);
        let mut scores = Vec::with_capacity(moves.len());
        search.score_moves(&moves, &mut scores, hash_move, 0);
        let mut order: Vec<(i32, XiangqiMove)> = scores.into_iter().zip(moves.drain(..)).collect();
        order.sort_by_key(|&(score, _)| std::cmp::Reverse(score));
        let root_moves = order.into_iter().map(|(_, mv)| mv).collect();
        let options = DriveOptions {
            lines,
            max_depth: MAX_PLY as u32 - 16,
            aspiration_window: 40,
            ..DriveOptions::default()
        };
        driver::iterate(&mut search, budget, root_moves, options, on_info)
    }

    fn helper(&self) -> Self {
        Self::with_table(self.tt.share())
    }

    fn new_game(&mut self) {
        self.tt.clear();
        self.history.clear();
    }
}

/// One search: the game being searched, its mirror board, and the per-ply state.
struct Search<'s> {
    game: Xiangqi,
    board: [u8; 90],
    tt: &'s mut TranspositionTable<Mv>,
    history: &'s mut History,
    path: Vec<PathEntry>,
    /// Plies without capture before the root, and the rules' limit (0 = none).
    quiet_at_root: u32,
    natural_limit: u32,
    /// The path's length at the root.
    root_len: usize,
    killers: Killers<Mv, { MAX_PLY + 1 }>,
    pv: Box<[[Mv; MAX_PLY + 1]; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    /// The static evaluation at each ply of the current line (`-INFINITY` in check or not
    /// evaluated), for the improving flag.
    static_evals: [i32; MAX_PLY + 1],
    /// Move buffers per ply, reused.
    moves: Vec<Vec<XiangqiMove>>,
    scores: Vec<Vec<i32>>,
}

impl Tree for Search<'_> {
    type Move = XiangqiMove;

    fn search_move(
        &mut self,
        budget: &mut Budget<'_>,
        mv: XiangqiMove,
        index: usize,
        depth: i32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let root_in_check = self.path.last().is_some_and(|e| e.in_check);
        let captured = self.make(mv);
        let gives_check = self.path.last().is_some_and(|e| e.in_check);
        // Late quiet root moves in a null window: shallower first (the root is a PV node).
        let r = if index >= 2
            && depth >= 2
            && beta == alpha + 1
            && captured == 0
            && !gives_check
            && !root_in_check
        {
            (lmr(depth + 1, index as i32) - 1).clamp(0, depth - 1)
        } else {
            0
        };
        let mut score = -self.negamax(budget, depth - r, 1, -beta, -alpha, true);
        if r > 0 && score > alpha && !budget.stopped() {
            score = -self.negamax(budget, depth, 1, -beta, -alpha, true);
        }
        self.unmake(mv, captured);
        score
    }

    fn continuation(&mut self, _mv: XiangqiMove) -> Vec<XiangqiMove> {
        self.pv[1][..self.pv_len[1]].iter().map(|m| m.rules_move()).collect()
    }
}

impl<'s> Search<'s> {
    fn new(game: &Xiangqi, tt: &'s mut TranspositionTable<Mv>, history: &'s mut History) -> Self {
        let board = eval::mirror(game);
        let path = game_path(game);
        Search {
            root_len: path.len(),
            game: game.clone(),
            board,
            tt,
            history,
            path,
            quiet_at_root: game.quiet_plies(),
            natural_limit: game.rules().natural_limit,
            killers: Killers::default(),
            pv: Box::new([[Mv::NONE; MAX_PLY + 1]; MAX_PLY + 1]),
            pv_len: [0; MAX_PLY + 1],
            static_evals: [-INFINITY; MAX_PLY + 1],
            moves: (0..=MAX_PLY).map(|_| Vec::with_capacity(128)).collect(),
            scores: (0..=MAX_PLY).map(|_| Vec::with_capacity(128)).collect(),
        }
    }

    fn evaluate(&self, budget: &Budget<'_>) -> i32 {
        let side = self.game.side_to_move().index();
        eval::evaluate(&self.board, side) + budget.noise_for(self.game.hash())
    }

    /// Plays `mv` on the game and the mirror; returns the captured code.
    fn make(&mut self, mv: XiangqiMove) -> u8 {
        let m = Mv::of(mv);
        let captured = self.board[m.to as usize];
        self.board[m.to as usize] = self.board[m.from as usize];
        self.board[m.from as usize] = 0;
        self.game.play_unchecked(mv);
        let in_check = self.game.in_check();
        self.path.push(PathEntry { hash: self.game.hash(), in_check, reset: captured != 0 });
        captured
    }

    fn unmake(&mut self, mv: XiangqiMove, captured: u8) {
        let m = Mv::of(mv);
        self.game.undo();
        self.path.pop();
        self.board[m.from as usize] = self.board[m.to as usize];
        self.board[m.to as usize] = captured;
    }

    fn make_null(&mut self) {
        self.game.pass_turn();
        self.path.push(PathEntry { hash: self.game.hash(), in_check: false, reset: true });
    }

    fn unmake_null(&mut self) {
        self.game.pass_turn();
        self.path.pop();
    }

    /// The score of the current node if the path repeats an earlier position, by the
    /// perpetual-check law; also the natural-limit draw.
    fn repetition(&self, ply: usize) -> Option<i32> {
        let n = self.path.len() - 1;
        let current = self.path[n].hash;
        let mut i = n;
        while i >= 2 && !self.path[i].reset && !self.path[i - 1].reset {
            i -= 2;
            if self.path[i].hash == current {
                // Moves into n, n-2, ... were the opponent's; into n-1, n-3, ... ours.
                let all_checks = |start: usize| {
                    (i + 1..=n).rev().skip(start).step_by(2).all(|k| self.path[k].in_check)
                };
                let theirs = all_checks(0);
                let ours = all_checks(1);
                return Some(match (theirs, ours) {
                    (true, false) => PERPETUAL_WIN - ply as i32,
                    (false, true) => -PERPETUAL_WIN + ply as i32,
                    _ => 0,
                });
            }
        }
        let plies_since_root = (n + 1 - self.root_len) as u32;
        if self.natural_limit > 0 && self.quiet_at_root + plies_since_root >= self.natural_limit {
            let last_reset = (0..=n).rev().find(|&k| self.path[k].reset).unwrap_or(0);
            let quiet = if last_reset + 1 >= self.root_len {
                (n - last_reset) as u32
            } else {
                self.quiet_at_root + plies_since_root
            };
            if quiet >= self.natural_limit {
                return Some(0);
            }
        }
        None
    }

    /// Whether the side to move keeps a piece that makes null-move pruning safe (zugzwang is
    /// rare while it has a chariot, or a horse and a cannon).
    fn null_move_safe(&self) -> bool {
        let side = self.game.side_to_move().index();
        let mut heavy = 0;
        for &c in &self.board {
            if c != 0 && side_of(c) == side {
                heavy += match piece_of(c) {
                    CHARIOT => 2,
                    HORSE | CANNON => 1,
                    _ => 0,
                };
            }
        }
        heavy >= 2
    }

    fn negamax(
        &mut self,
        budget: &mut Budget<'_>,
        mut depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        allow_null: bool,
    ) -> i32 {
        if budget.tick() {
            return 0;
        }
        self.pv_len[ply] = 0;
        let pv_node = beta - alpha > 1;
        if ply > 0 {
            if let Some(score) = self.repetition(ply) {
                return score;
            }
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        if ply >= MAX_PLY - 2 {
            return self.evaluate(budget);
        }
        let in_check = self.path.last().is_some_and(|e| e.in_check);
        if in_check {
            depth += 1;
        }
        if depth <= 0 {
            return self.quiesce(budget, ply, alpha, beta);
        }
        let hash = self.game.hash();
        let mut hash_move = Mv::NONE;
        if let Some(entry) = self.tt.probe(hash) {
            hash_move = entry.best;
            let score = score_from_tt(entry.score, ply as i32);
            if !pv_node && i32::from(entry.depth) >= depth && entry.bound.cuts(score, alpha, beta) {
                return score;
            }
        }
        let static_eval = if in_check { -INFINITY } else { self.evaluate(budget) };
        self.static_evals[ply] = static_eval;
        // Whether our evaluation got better since our last move (against the last one not in
        // check): reverse futility trusts it more, and late moves are reduced less. With
        // nothing to compare, it counts as improving.
        let improving = driver::improving(&self.static_evals, ply, in_check, -INFINITY);
        if !pv_node && !in_check && beta.abs() < MATE_BOUND {
            if depth <= 6 && static_eval - 90 * (depth - i32::from(improving)) >= beta {
                return static_eval;
            }
            if allow_null && depth >= 2 && static_eval >= beta && self.null_move_safe() {
                let reduction = 3 + depth / 5;
                self.make_null();
                let score =
                    -self.negamax(budget, depth - 1 - reduction, ply + 1, -beta, -beta + 1, false);
                self.unmake_null();
                if budget.stopped() {
                    return 0;
                }
                if score >= beta {
                    return if score >= MATE_BOUND { beta } else { score };
                }
            }
        }

        let mut moves = std::mem::take(&mut self.moves[ply]);
        let mut scores = std::mem::take(&mut self.scores[ply]);
        moves.clear();
        self.game.moves_into(&mut moves);
        if moves.is_empty() {
            self.moves[ply] = moves;
            self.scores[ply] = scores;
            // Checkmate and stalemate both lose.
            return -MATE + ply as i32;
        }
        self.score_moves(&moves, &mut scores, hash_move, ply);

        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let mut best_move = Mv::NONE;
        let mut searched = 0;
        let mut quiets_tried: [Mv; 64] = [Mv::NONE; 64];
        let mut quiet_count = 0;
        for index in 0..moves.len() {
            let mv = driver::pick_best(&mut moves, &mut scores, index);
            let m = Mv::of(mv);
            let is_capture = self.board[m.to as usize] != 0;
            let is_killer = self.killers.rank(ply, m) > 0;
            let history = if is_capture { 0 } else { self.history_of(m) };
            let captured = self.make(mv);
            let gives_check = self.path.last().is_some_and(|e| e.in_check);
            let quiet = !is_capture && !gives_check;
            // Late-move and futility pruning of quiet moves near the leaves.
            if !pv_node
                && !in_check
                && quiet
                && searched > 0
                && best_score > -MATE_BOUND
                && depth <= 3
                && (searched >= 3 + depth * depth * 3 || static_eval + 110 * depth <= alpha)
            {
                self.unmake(mv, captured);
                continue;
            }
            let new_depth = depth - 1;
            let score = if searched == 0 {
                -self.negamax(budget, new_depth, ply + 1, -beta, -alpha, true)
            } else {
                let mut reduction = 0;
                if depth >= 3 && searched >= 2 && quiet && !in_check && !is_killer {
                    reduction = lmr(depth, searched);
                    if pv_node {
                        reduction -= 1;
                    }
                    if history > 4000 {
                        reduction -= 1;
                    }
                    if !improving {
                        reduction += 1;
                    }
                    reduction = reduction.clamp(0, new_depth - 1);
                }
                let mut score =
                    -self.negamax(budget, new_depth - reduction, ply + 1, -alpha - 1, -alpha, true);
                if score > alpha && reduction > 0 {
                    score = -self.negamax(budget, new_depth, ply + 1, -alpha - 1, -alpha, true);
                }
                if score > alpha && score < beta {
                    score = -self.negamax(budget, new_depth, ply + 1, -beta, -alpha, true);
                }
                score
            };
            self.unmake(mv, captured);
            if budget.stopped() {
                self.moves[ply] = moves;
                self.scores[ply] = scores;
                return 0;
            }
            searched += 1;
            if score > best_score {
                best_score = score;
                best_move = m;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, m);
                    if score >= beta {
                        if !is_capture {
                            self.reward_quiet(m, depth, ply, &quiets_tried[..quiet_count]);
                        }
                        break;
                    }
                }
            }
            if !is_capture && quiet_count < quiets_tried.len() {
                quiets_tried[quiet_count] = m;
                quiet_count += 1;
            }
        }
        self.moves[ply] = moves;
        self.scores[ply] = scores;
        if searched == 0 {
            // Every move was pruned: fall back on the static evaluation.
            return static_eval.max(alpha);
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(hash, best_move, score_to_tt(best_score, ply as i32), depth as i16, bound);
        best_score
    }

    /// Quiescence: stand pat, then captures by MVV-LVA; all evasions when in check.
    fn quiesce(&mut self, budget: &mut Budget<'_>, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        if budget.tick() {
            return 0;
        }
        self.pv_len[ply] = 0;
        if ply >= MAX_PLY - 2 {
            return self.evaluate(budget);
        }
        let in_check = self.path.last().is_some_and(|e| e.in_check);
        let stand_pat = if in_check { -INFINITY } else { self.evaluate(budget) };
        if stand_pat >= beta {
            return stand_pat;
        }
        alpha = alpha.max(stand_pat);
        let mut moves = std::mem::take(&mut self.moves[ply]);
        let mut scores = std::mem::take(&mut self.scores[ply]);
        moves.clear();
        if in_check {
            self.game.moves_into(&mut moves);
        } else {
            self.game.captures_into(&mut moves);
        }
        if in_check && moves.is_empty() {
            self.moves[ply] = moves;
            self.scores[ply] = scores;
            return -MATE + ply as i32;
        }
        self.score_moves(&moves, &mut scores, Mv::NONE, ply);
        let mut best = stand_pat;
        for index in 0..moves.len() {
            let mv = driver::pick_best(&mut moves, &mut scores, index);
            let m = Mv::of(mv);
            let victim = self.board[m.to as usize];
            if !in_check && victim != 0 && stand_pat + ORDER_VALUE[piece_of(victim)] + 150 <= alpha
            {
                continue;
            }
            let captured = self.make(mv);
            let score = -self.quiesce(budget, ply + 1, -beta, -alpha);
            self.unmake(mv, captured);
            if budget.stopped() {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, m);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.moves[ply] = moves;
        self.scores[ply] = scores;
        if budget.stopped() {
            return 0;
        }
        best
    }

    /// Ordering keys: hash move, captures (most valuable victim, least valuable attacker),
    /// killers, then history.
    fn score_moves(&self, moves: &[XiangqiMove], scores: &mut Vec<i32>, hash_move: Mv, ply: usize) {
        scores.clear();
        let side = self.game.side_to_move().index();
        for &mv in moves {
            let m = Mv::of(mv);
            let victim = self.board[m.to as usize];
            let attacker = piece_of(self.board[m.from as usize]);
            let key = if m == hash_move {
                1 << 30
            } else if victim != 0 {
                (1 << 26) + ORDER_VALUE[piece_of(victim)] * 16 - ORDER_VALUE[attacker] / 8
            } else {
                match self.killers.rank(ply, m) {
                    0 => self.history.get(history_key(side, attacker, m.to)),
                    rank => (1 << 25) + rank,
                }
            };
            scores.push(key);
        }
    }

    fn history_of(&self, m: Mv) -> i32 {
        let side = self.game.side_to_move().index();
        self.history.get(history_key(side, piece_of(self.board[m.from as usize]), m.to))
    }

    /// A quiet move refuted the position: killer, history bonus, and a malus for the quiet
    /// moves tried before it.
    fn reward_quiet(&mut self, m: Mv, depth: i32, ply: usize, tried: &[Mv]) {
        self.killers.record(ply, m);
        let side = self.game.side_to_move().index();
        let key = |mv: Mv| history_key(side, piece_of(self.board[mv.from as usize]), mv.to);
        let mut keys = [0; 64];
        for (slot, &other) in keys.iter_mut().zip(tried) {
            *slot = key(other);
        }
        self.history.reward(key(m), &keys[..tried.len()], depth);
    }

    fn update_pv(&mut self, ply: usize, m: Mv) {
        let child_len = if ply < MAX_PLY { self.pv_len[ply + 1].min(MAX_PLY - ply) } else { 0 };
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply][0] = m;
        head[ply][1..=child_len].copy_from_slice(&tail[0][..child_len]);
        self.pv_len[ply] = child_len + 1;
    }
}

/// The late-move reduction for a move at `depth`, the `searched`-th tried (from
/// [`lmr_formula`], worked out once).
fn lmr(depth: i32, searched: i32) -> i32 {
    static TABLE: LazyLock<ReductionTable> = LazyLock::new(|| ReductionTable::new(lmr_formula));
    TABLE.get(depth, searched)
}

/// The late-move reduction's formula.
fn lmr_formula(depth: i32, searched: i32) -> i32 {
    let d = f64::from(depth.max(1)).ln();
    let n = f64::from(searched.max(1)).ln();
    (0.5 + d * n / 2.2) as i32
}

/// The path of positions from the game's start (or last capture) to its current position.
fn game_path(game: &Xiangqi) -> Vec<PathEntry> {
    let moves = game.history();
    let mut replay = game.clone();
    for _ in &moves {
        replay.undo();
    }
    let mut path = Vec::with_capacity(moves.len() + MAX_PLY + 2);
    path.push(PathEntry { hash: replay.hash(), in_check: replay.in_check(), reset: true });
    for mv in moves {
        let capture = replay.piece_at(mv.to()).is_some();
        replay.play_unchecked(mv);
        path.push(PathEntry { hash: replay.hash(), in_check: replay.in_check(), reset: capture });
    }
    path
}
