//! The xiangqi engine: principal-variation alpha-beta with iterative deepening, aspiration
//! windows, a transposition table on the rules' Zobrist hash, null-move pruning (only while the
//! mover keeps an attacking piece), late-move reductions, check extension, reverse futility and
//! late-move pruning, and a quiescence search over captures (check evasions included) ordered by
//! MVV-LVA. Moves are ordered hash move, captures by value, killers, then history.
//!
//! Repetitions inside the search path (back into the game's own history too) are judged by the
//! rules' perpetual-check law: the side whose every move in the cycle gave check loses, other
//! cycles are draws. So the engine neither walks into a forbidden perpetual nor misses that the
//! opponent's perpetual loses.

mod eval;
#[cfg(test)]
mod tests;

use qi_rules::xiangqi::{Xiangqi, XiangqiMove};
use qi_rules::{Cell, Game};

use crate::Engine;
use crate::search::{
    Bound, Budget, MATE, MATE_BOUND, Score, SearchInfo, SearchResult, TranspositionTable,
    score_from_tt, score_to_tt,
};
use eval::{CANNON, CHARIOT, HORSE, ORDER_VALUE, code, piece_of, side_of};

/// Deepest ply searched (extensions included).
const MAX_PLY: usize = 96;
/// Larger than any score.
const INFINITY: i32 = MATE + 1;
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

    fn is_none(self) -> bool {
        self.from == self.to
    }

    fn rules_move(self) -> XiangqiMove {
        let cell = |p: u8| Cell::new(p % 9, p / 9);
        XiangqiMove::new(cell(self.from), cell(self.to)).expect("points are on the board")
    }

    fn text(self) -> String {
        self.rules_move().to_string()
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
    /// History of quiet moves by side, piece and destination.
    history: Box<[[[i32; 90]; 7]; 2]>,
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
        XiangqiEngine { tt: TranspositionTable::new(TT_BITS), history: Box::new([[[0; 90]; 7]; 2]) }
    }
}

impl Engine for XiangqiEngine {
    type Game = Xiangqi;

    fn search(
        &mut self,
        game: &Xiangqi,
        budget: &mut Budget<'_>,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let mut root_moves = game.legal_moves();
        root_moves.retain(|&mv| !budget.skips_root_move(&game.move_text(mv)));
        let empty_info = |budget: &Budget<'_>| SearchInfo {
            depth: 0,
            score: Score::Cp(0),
            nodes: budget.nodes(),
            time_ms: budget.elapsed_ms(),
            pv: Vec::new(),
        };
        if root_moves.is_empty() {
            let info = empty_info(budget);
            on_info(&info);
            return SearchResult { best: None, info };
        }
        for row in self.history.iter_mut().flatten() {
            for h in row.iter_mut() {
                *h /= 8;
            }
        }
        let mut search = Search::new(game, &mut self.tt, &mut self.history, budget);
        search.iterate(root_moves, on_info)
    }

    fn new_game(&mut self) {
        self.tt.clear();
        *self.history = [[[0; 90]; 7]; 2];
    }
}

/// One search: the game being searched, its mirror board, and the per-ply state.
struct Search<'s, 'b> {
    game: Xiangqi,
    board: [u8; 90],
    tt: &'s mut TranspositionTable<Mv>,
    history: &'s mut [[[i32; 90]; 7]; 2],
    budget: &'s mut Budget<'b>,
    path: Vec<PathEntry>,
    /// Plies without capture before the root, and the rules' limit (0 = none).
    quiet_at_root: u32,
    natural_limit: u32,
    /// The path's length at the root.
    root_len: usize,
    killers: [[Mv; 2]; MAX_PLY + 1],
    pv: Box<[[Mv; MAX_PLY + 1]; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    /// Move buffers per ply, reused.
    moves: Vec<Vec<XiangqiMove>>,
    scores: Vec<Vec<i32>>,
    /// The best root move of the current iteration so far (fully searched), and its score.
    root_best: Option<(Mv, i32)>,
    /// Root moves the budget leaves out (a multi-line analysis's later lines).
    skipped_at_root: Vec<Mv>,
}

impl<'s, 'b> Search<'s, 'b> {
    fn new(
        game: &Xiangqi,
        tt: &'s mut TranspositionTable<Mv>,
        history: &'s mut [[[i32; 90]; 7]; 2],
        budget: &'s mut Budget<'b>,
    ) -> Self {
        let mut board = [0u8; 90];
        for (i, slot) in board.iter_mut().enumerate() {
            if let Some((side, piece)) = game.piece_at(Cell::new((i % 9) as u8, (i / 9) as u8)) {
                *slot = code(side.index(), piece as usize);
            }
        }
        let path = game_path(game);
        let skipped_at_root = game
            .legal_moves()
            .into_iter()
            .filter(|&mv| budget.skips_root_move(&game.move_text(mv)))
            .map(Mv::of)
            .collect();
        Search {
            root_len: path.len(),
            game: game.clone(),
            board,
            tt,
            history,
            budget,
            path,
            quiet_at_root: game.quiet_plies(),
            natural_limit: game.rules().natural_limit,
            killers: [[Mv::NONE; 2]; MAX_PLY + 1],
            pv: Box::new([[Mv::NONE; MAX_PLY + 1]; MAX_PLY + 1]),
            pv_len: [0; MAX_PLY + 1],
            moves: (0..=MAX_PLY).map(|_| Vec::with_capacity(128)).collect(),
            scores: (0..=MAX_PLY).map(|_| Vec::with_capacity(128)).collect(),
            root_best: None,
            skipped_at_root,
        }
    }

    /// Iterative deepening with aspiration windows; returns the best move found.
    fn iterate(
        &mut self,
        root_moves: Vec<XiangqiMove>,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let mut best = Mv::of(root_moves[0]);
        let mut info = SearchInfo {
            depth: 0,
            score: Score::Cp(0),
            nodes: 0,
            time_ms: 0.0,
            pv: vec![best.text()],
        };
        let mut score: i32 = 0;
        let mut depth = 1;
        while depth <= MAX_PLY as u32 - 16 && self.budget.may_start_depth(depth) {
            let mut window = 40;
            let (mut alpha, mut beta) = if depth >= 5 && score.abs() < MATE_BOUND {
                (score - window, score + window)
            } else {
                (-INFINITY, INFINITY)
            };
            let found = loop {
                self.root_best = None;
                let value = self.negamax(depth as i32, 0, alpha, beta, false);
                if self.budget.stopped() {
                    break None;
                }
                if value <= alpha {
                    alpha = (alpha - window).max(-INFINITY);
                } else if value >= beta {
                    beta = (beta + window).min(INFINITY);
                } else {
                    break Some(value);
                }
                window *= 2;
            };
            let Some(value) = found else {
                // Stopped inside the iteration: keep a move it has proven better.
                if let Some((mv, _)) = self.root_best
                    && mv != best
                {
                    best = mv;
                    info.pv = vec![best.text()];
                }
                break;
            };
            score = value;
            if self.pv_len[0] > 0 && !self.pv[0][0].is_none() {
                best = self.pv[0][0];
            }
            info = SearchInfo {
                depth,
                score: Score::from_internal(score),
                nodes: self.budget.nodes(),
                time_ms: self.budget.elapsed_ms(),
                pv: self.pv[0][..self.pv_len[0]].iter().map(|mv| mv.text()).collect(),
            };
            if info.pv.is_empty() {
                info.pv = vec![best.text()];
            }
            on_info(&info);
            if (root_moves.len() == 1 && !self.budget.skips_root_moves())
                || (score.abs() >= MATE_BOUND && depth as i32 > MATE - score.abs() + 2)
            {
                break;
            }
            depth += 1;
        }
        info.nodes = self.budget.nodes();
        info.time_ms = self.budget.elapsed_ms();
        SearchResult { best: Some(best.text()), info }
    }

    fn evaluate(&self) -> i32 {
        let side = self.game.side_to_move().index();
        eval::evaluate(&self.board, side) + self.budget.noise_for(self.game.hash())
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
        mut depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        allow_null: bool,
    ) -> i32 {
        if self.budget.tick() {
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
            return self.evaluate();
        }
        let in_check = self.path.last().is_some_and(|e| e.in_check);
        if in_check {
            depth += 1;
        }
        if depth <= 0 {
            return self.quiesce(ply, alpha, beta);
        }
        let hash = self.game.hash();
        let mut hash_move = Mv::NONE;
        if let Some(entry) = self.tt.probe(hash) {
            hash_move = entry.best;
            if !pv_node && i32::from(entry.depth) >= depth {
                let score = score_from_tt(entry.score, ply as i32);
                let cut = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                    Bound::None => false,
                };
                if cut {
                    return score;
                }
            }
        }
        let static_eval = if in_check { -INFINITY } else { self.evaluate() };
        if !pv_node && !in_check && beta.abs() < MATE_BOUND {
            if depth <= 3 && static_eval - 90 * depth >= beta {
                return static_eval;
            }
            if allow_null && depth >= 2 && static_eval >= beta && self.null_move_safe() {
                let reduction = 3 + depth / 5;
                self.make_null();
                let score = -self.negamax(depth - 1 - reduction, ply + 1, -beta, -beta + 1, false);
                self.unmake_null();
                if self.budget.stopped() {
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
        if ply == 0 && !self.skipped_at_root.is_empty() {
            moves.retain(|&mv| !self.skipped_at_root.contains(&Mv::of(mv)));
        }
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
            let mv = pick(&mut moves, &mut scores, index);
            let m = Mv::of(mv);
            let is_capture = self.board[m.to as usize] != 0;
            let is_killer = self.killers[ply].contains(&m);
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
                -self.negamax(new_depth, ply + 1, -beta, -alpha, true)
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
                    reduction = reduction.clamp(0, new_depth - 1);
                }
                let mut score =
                    -self.negamax(new_depth - reduction, ply + 1, -alpha - 1, -alpha, true);
                if score > alpha && reduction > 0 {
                    score = -self.negamax(new_depth, ply + 1, -alpha - 1, -alpha, true);
                }
                if score > alpha && score < beta {
                    score = -self.negamax(new_depth, ply + 1, -beta, -alpha, true);
                }
                score
            };
            self.unmake(mv, captured);
            if self.budget.stopped() {
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
                    if ply == 0 {
                        self.root_best = Some((m, score));
                    }
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
    fn quiesce(&mut self, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        if self.budget.tick() {
            return 0;
        }
        self.pv_len[ply] = 0;
        if ply >= MAX_PLY - 2 {
            return self.evaluate();
        }
        let in_check = self.path.last().is_some_and(|e| e.in_check);
        let stand_pat = if in_check { -INFINITY } else { self.evaluate() };
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
            let mv = pick(&mut moves, &mut scores, index);
            let m = Mv::of(mv);
            let victim = self.board[m.to as usize];
            if !in_check && victim != 0 && stand_pat + ORDER_VALUE[piece_of(victim)] + 150 <= alpha
            {
                continue;
            }
            let captured = self.make(mv);
            let score = -self.quiesce(ply + 1, -beta, -alpha);
            self.unmake(mv, captured);
            if self.budget.stopped() {
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
        if self.budget.stopped() {
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
            } else if m == self.killers[ply][0] {
                (1 << 25) + 1
            } else if m == self.killers[ply][1] {
                1 << 25
            } else {
                self.history[side][attacker][m.to as usize]
            };
            scores.push(key);
        }
    }

    fn history_of(&self, m: Mv) -> i32 {
        let side = self.game.side_to_move().index();
        self.history[side][piece_of(self.board[m.from as usize])][m.to as usize]
    }

    /// A quiet move refuted the position: killer, history bonus, and a malus for the quiet
    /// moves tried before it.
    fn reward_quiet(&mut self, m: Mv, depth: i32, ply: usize, tried: &[Mv]) {
        if self.killers[ply][0] != m {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = m;
        }
        let side = self.game.side_to_move().index();
        let bonus = (depth * depth).min(400) * 16;
        let board = &self.board;
        let history = &mut self.history[side];
        let mut update = |mv: Mv, delta: i32| {
            let piece = piece_of(board[mv.from as usize]);
            let h = &mut history[piece][mv.to as usize];
            *h += delta - *h * delta.abs() / 16_384;
        };
        update(m, bonus);
        for &other in tried {
            update(other, -bonus);
        }
    }

    fn update_pv(&mut self, ply: usize, m: Mv) {
        let child_len = if ply < MAX_PLY { self.pv_len[ply + 1].min(MAX_PLY - ply) } else { 0 };
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply][0] = m;
        head[ply][1..=child_len].copy_from_slice(&tail[0][..child_len]);
        self.pv_len[ply] = child_len + 1;
    }
}

/// Brings the best-scored remaining move to `index` (selection sort, one step per move tried).
fn pick(moves: &mut [XiangqiMove], scores: &mut [i32], index: usize) -> XiangqiMove {
    let mut best = index;
    for i in index + 1..moves.len() {
        if scores[i] > scores[best] {
            best = i;
        }
    }
    moves.swap(index, best);
    scores.swap(index, best);
    moves[index]
}

/// The late-move reduction for a move at `depth`, the `searched`-th tried.
fn lmr(depth: i32, searched: i32) -> i32 {
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
