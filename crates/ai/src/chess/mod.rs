//! The chess engine: principal-variation search with iterative deepening and aspiration windows,
//! straight on shakmaty positions (a cloned position per move, no undo), with a transposition
//! table, null-move pruning, late-move reductions, check extensions, futility pruning and a
//! quiescence search over captures in MVV-LVA order with delta pruning. Moves are ordered by the
//! hash move, captures, two killers per ply and a history table.
//!
//! Draws: a position that repeats one in the game's history or on the search path scores as a
//! draw, as do the fifty-move rule and insufficient material. Chess960 needs nothing special:
//! shakmaty's castling moves carry the king and the rook.

mod eval;
mod see;
#[cfg(test)]
mod tests;

use qi_rules::Game;
use qi_rules::chess::ChessGame;
use qi_rules::chess::shakmaty::zobrist::Zobrist64;
use qi_rules::chess::shakmaty::{Chess, Color, EnPassantMode, Move, MoveList, Position, Role};

use crate::Engine;
use crate::search::{
    Bound, Budget, MATE, MATE_BOUND, Score, SearchInfo, SearchResult, TranspositionTable,
    score_from_tt, score_to_tt,
};

pub use eval::evaluate;

/// Deepest ply the search reaches (extensions included).
const MAX_PLY: usize = 96;
/// Beyond every score.
const INFINITY: i32 = MATE + 1;
/// Default transposition table: 2^19 entries (12 MB), modest for a browser worker.
const DEFAULT_TT_BITS: u32 = 19;
/// What a draw is worth to the side the engine plays, in centipawns below zero: it plays on
/// in roughly level positions rather than repeat moves (the opponent's draws score the opposite).
pub const CONTEMPT: i32 = 20;
/// Most moves a chess position can have (shakmaty's bound).
const MAX_MOVES: usize = 270;

/// A move packed into 16 bits for the transposition table and killers: from, to (the rook's
/// square for castling) and the promotion role. 0 is "no move" (a1 to a1 is never a move).
type Packed = u16;

fn pack(mv: &Move) -> Packed {
    let (from, to, promotion) = match *mv {
        Move::Normal { from, to, promotion, .. } => (from, to, promotion),
        Move::EnPassant { from, to } => (from, to, None),
        Move::Castle { king, rook } => (king, rook, None),
        Move::Put { .. } => return 0,
    };
    from as u16 | (to as u16) << 6 | promotion.map_or(0, |r| r as u16) << 12
}

fn hash_of(position: &Chess) -> u64 {
    position.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// The hash after `mv`, incrementally where shakmaty can, from scratch otherwise.
fn hash_after(before: &Chess, hash: u64, mv: &Move, after: &Chess) -> u64 {
    before
        .update_zobrist_hash(Zobrist64(hash), *mv, EnPassantMode::Legal)
        .map_or_else(|| hash_of(after), |z| z.0)
}

fn piece_index(color: Color, role: Role) -> usize {
    usize::from(color == Color::Black) * 6 + role as usize - 1
}

/// Late-move reduction for `depth` and move number `index`.
fn reduction(depth: i32, index: usize) -> i32 {
    if depth < 3 || index < 3 {
        return 0;
    }
    let r = 0.8 + f64::from(depth).ln() * (index as f64).ln() / 2.4;
    r as i32
}

/// The chess engine. Keeps its transposition table and history between moves of one game.
pub struct ChessEngine {
    tt: TranspositionTable<Packed>,
    history: Box<[[i32; 64]; 12]>,
}

impl Default for ChessEngine {
    fn default() -> Self {
        Self::new()
    }
}

impl ChessEngine {
    /// A new engine with the default table size.
    #[must_use]
    pub fn new() -> Self {
        Self::with_table_bits(DEFAULT_TT_BITS)
    }

    /// A new engine whose transposition table holds `2^bits` entries.
    #[must_use]
    pub fn with_table_bits(bits: u32) -> Self {
        ChessEngine { tt: TranspositionTable::new(bits), history: Box::new([[0; 64]; 12]) }
    }

    /// A new engine with a transposition table of about `mb` megabytes (at least 1 MB).
    #[must_use]
    pub fn with_hash_mb(mb: usize) -> Self {
        let entries = (mb.max(1) << 20) / size_of::<crate::search::Entry<Packed>>();
        Self::with_table_bits(entries.max(2).ilog2())
    }
}

impl Engine for ChessEngine {
    type Game = ChessGame;

    fn search(
        &mut self,
        game: &ChessGame,
        budget: &mut Budget<'_>,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        for row in self.history.iter_mut() {
            for value in row.iter_mut() {
                *value /= 8;
            }
        }
        let mut search = Searcher::new(self, budget, game);
        search.run(game, on_info)
    }

    fn new_game(&mut self) {
        self.tt.clear();
        *self.history = [[0; 64]; 12];
    }
}

/// The state of one search.
struct Searcher<'e, 'b, 'c> {
    tt: &'e mut TranspositionTable<Packed>,
    history: &'e mut [[i32; 64]; 12],
    budget: &'b mut Budget<'c>,
    killers: [[Packed; 2]; MAX_PLY + 1],
    /// Hashes of the game's reversible history, then of the search path; the current one last.
    path: Vec<u64>,
    /// Triangular principal-variation table.
    pv: Box<[[Packed; MAX_PLY + 1]; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    /// The best root move of the iteration under way, once one has been searched fully.
    root_best: Option<(Move, i32)>,
    /// The best move of the last completed iteration, searched first in the next.
    previous_best: Packed,
    /// The side the engine plays (to move at the root), for the contempt.
    root_turn: Color,
    /// Root moves the budget leaves out (a multi-line analysis's later lines).
    skipped_at_root: Vec<Packed>,
}

/// The hashes of the positions since the last capture or pawn move, oldest first, the current
/// one last.
fn reversible_history(game: &ChessGame) -> Vec<u64> {
    let halfmoves = game.shakmaty_position().halfmoves() as usize;
    let mut replay = game.clone();
    let mut hashes = vec![hash_of(replay.shakmaty_position())];
    for _ in 0..halfmoves {
        if replay.undo().is_none() {
            break;
        }
        hashes.push(hash_of(replay.shakmaty_position()));
    }
    hashes.reverse();
    hashes
}

impl<'e, 'b, 'c> Searcher<'e, 'b, 'c> {
    fn new(engine: &'e mut ChessEngine, budget: &'b mut Budget<'c>, game: &ChessGame) -> Self {
        let mut path = reversible_history(game);
        path.reserve(MAX_PLY + 2);
        Searcher {
            tt: &mut engine.tt,
            history: &mut engine.history,
            budget,
            killers: [[0; 2]; MAX_PLY + 1],
            path,
            pv: Box::new([[0; MAX_PLY + 1]; MAX_PLY + 1]),
            pv_len: [0; MAX_PLY + 1],
            root_best: None,
            previous_best: 0,
            root_turn: game.shakmaty_position().turn(),
            skipped_at_root: Vec::new(),
        }
    }

    /// Iterative deepening to the budget; returns the best move found.
    fn run(&mut self, game: &ChessGame, on_info: &mut dyn FnMut(&SearchInfo)) -> SearchResult {
        let root = game.shakmaty_position().clone();
        // shakmaty's Zobrist hash, which it updates move by move (not the rules' own `hash()`).
        let root_hash = hash_of(&root);
        let mut legal = if game.outcome().is_some() { MoveList::new() } else { root.legal_moves() };
        if self.budget.skips_root_moves() {
            let skipped =
                |m: &Move| self.budget.skips_root_move(&game.move_text(game.chess_move(*m)));
            self.skipped_at_root = legal.iter().filter(|m| skipped(m)).map(pack).collect();
            legal.retain(|m| !self.skipped_at_root.contains(&pack(m)));
        }
        let mut info =
            SearchInfo { depth: 0, score: Score::Cp(0), nodes: 0, time_ms: 0.0, pv: Vec::new() };
        let Some(first) = legal.first() else {
            info.score = if root.is_checkmate() { Score::Mate(0) } else { Score::Cp(0) };
            return SearchResult { best: None, info };
        };
        let mut best = *first;
        let mut score = 0;
        let mut depth = 1;
        while depth < MAX_PLY as u32 && self.budget.may_start_depth(depth) {
            self.root_best = None;
            let value = self.aspiration(&root, root_hash, depth as i32, score);
            if self.budget.stopped() {
                // A move that beat the previous best in the unfinished iteration is still news.
                if let Some((mv, _)) = self.root_best.take()
                    && pack(&mv) != pack(&best)
                {
                    best = mv;
                    info.pv = vec![game.move_text(game.chess_move(best))];
                }
                break;
            }
            score = value;
            if let Some((mv, _)) = self.root_best.take() {
                best = mv;
            }
            self.previous_best = pack(&best);
            info = SearchInfo {
                depth,
                score: Score::from_internal(score),
                nodes: self.budget.nodes(),
                time_ms: self.budget.elapsed_ms(),
                pv: self.pv_texts(game),
            };
            on_info(&info);
            // A forced mate found within this depth will not get shorter by searching deeper.
            if score.abs() >= MATE_BOUND && (MATE - score.abs()) < depth as i32 {
                break;
            }
            depth += 1;
        }
        if info.pv.is_empty() {
            info.pv = vec![game.move_text(game.chess_move(best))];
        }
        info.nodes = self.budget.nodes();
        info.time_ms = self.budget.elapsed_ms();
        SearchResult { best: Some(game.move_text(game.chess_move(best))), info }
    }

    /// One iteration in a window around the last score, widened on a fail.
    fn aspiration(&mut self, root: &Chess, hash: u64, depth: i32, guess: i32) -> i32 {
        if depth < 5 || guess.abs() >= MATE_BOUND {
            return self.negamax(root, hash, depth, -INFINITY, INFINITY, 0, false);
        }
        let mut delta = 30;
        let (mut alpha, mut beta) = (guess - delta, guess + delta);
        loop {
            let value = self.negamax(root, hash, depth, alpha, beta, 0, false);
            if self.budget.stopped() {
                return value;
            }
            if value <= alpha {
                alpha = (value - delta).max(-INFINITY);
                // A root move from a failed-low search is no better founded than the old one.
                self.root_best = None;
            } else if value >= beta {
                beta = (value + delta).min(INFINITY);
            } else {
                return value;
            }
            delta *= 2;
            if delta > 1000 {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    fn pv_texts(&self, game: &ChessGame) -> Vec<String> {
        let mut position = game.shakmaty_position().clone();
        let mut texts = Vec::new();
        for &packed in &self.pv[0][..self.pv_len[0]] {
            let Some(mv) = position.legal_moves().into_iter().find(|m| pack(m) == packed) else {
                break;
            };
            texts.push(game.chess_move(mv).to_string());
            position.play_unchecked(mv);
        }
        texts
    }

    /// Whether the current position (last on the path) occurred before since the last
    /// irreversible move, in the game or in the search.
    fn repeated(&self, halfmoves: u32) -> bool {
        let n = self.path.len();
        let current = self.path[n - 1];
        let window = (halfmoves as usize).min(n - 1);
        (4..=window).step_by(2).any(|back| self.path[n - 1 - back] == current)
    }

    /// A draw's score for `turn`: below zero for the engine's side, unless noise weakens it.
    fn draw_score(&self, turn: Color) -> i32 {
        let contempt = if self.budget.noise == 0 { CONTEMPT } else { 0 };
        if turn == self.root_turn { -contempt } else { contempt }
    }

    fn evaluate(&self, position: &Chess, hash: u64) -> i32 {
        eval::evaluate(position.board(), position.turn()) + self.budget.noise_for(hash)
    }

    fn update_pv(&mut self, ply: usize, mv: Packed) {
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        self.pv[ply][ply] = mv;
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }

    /// Ordering scores for `moves`: hash move, captures by MVV-LVA, killers, then history.
    fn order(
        &self,
        position: &Chess,
        moves: &MoveList,
        hash_move: Packed,
        ply: usize,
    ) -> [i32; MAX_MOVES] {
        let mut scores = [0; MAX_MOVES];
        let turn = position.turn();
        for (score, mv) in scores.iter_mut().zip(moves.iter()) {
            let packed = pack(mv);
            *score = if packed == hash_move {
                4_000_000
            } else if let Some(victim) = mv.capture() {
                let mvv_lva = eval::order_value(victim) * 16 - eval::order_value(mv.role()) / 16
                    + mv.promotion().map_or(0, eval::order_value);
                // Captures that lose material on the exchange go after the quiet moves.
                let losing = eval::order_value(mv.role()) > eval::order_value(victim)
                    && see::exchange(position.board(), turn, mv) < 0;
                if losing { -1_000_000 + mvv_lva } else { 2_000_000 + mvv_lva }
            } else if let Some(promotion) = mv.promotion() {
                1_900_000 + eval::order_value(promotion)
            } else if packed == self.killers[ply][0] {
                1_800_000
            } else if packed == self.killers[ply][1] {
                1_700_000
            } else {
                self.history[piece_index(turn, mv.role())][mv.to() as usize]
            };
        }
        scores
    }

    /// The next move to try: the best-scored one left, swapped to position `index`.
    fn pick(moves: &mut MoveList, scores: &mut [i32; MAX_MOVES], index: usize) {
        let mut best = index;
        for i in index + 1..moves.len() {
            if scores[i] > scores[best] {
                best = i;
            }
        }
        moves.swap(index, best);
        scores.swap(index, best);
    }

    fn reward_quiet(&mut self, turn: Color, mv: &Move, depth: i32, ply: usize, tried: &[Move]) {
        let packed = pack(mv);
        if self.killers[ply][0] != packed {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = packed;
        }
        let bonus = (depth * depth).min(400);
        let mut update = |mv: &Move, delta: i32| {
            let slot = &mut self.history[piece_index(turn, mv.role())][mv.to() as usize];
            *slot += delta - *slot * delta.abs() / 16_384;
        };
        update(mv, bonus * 32);
        for other in tried {
            update(other, -bonus * 32);
        }
    }

    #[allow(clippy::too_many_arguments, clippy::too_many_lines)]
    fn negamax(
        &mut self,
        position: &Chess,
        hash: u64,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        after_null: bool,
    ) -> i32 {
        self.pv_len[ply] = ply;
        if self.budget.stopped() || self.budget.tick() {
            return 0;
        }
        let in_check = position.is_check();
        if ply > 0 {
            if position.halfmoves() >= 100 {
                let mated = in_check && position.legal_moves().is_empty();
                return if mated { -(MATE - ply as i32) } else { self.draw_score(position.turn()) };
            }
            if self.repeated(position.halfmoves()) || position.is_insufficient_material() {
                return self.draw_score(position.turn());
            }
            // Mate-distance pruning: no line from here beats a mate already found nearer the root.
            alpha = alpha.max(-(MATE - ply as i32));
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.quiesce(position, hash, alpha, beta, ply);
        }
        let pv_node = beta - alpha > 1;

        let mut hash_move = 0;
        if let Some(entry) = self.tt.probe(hash) {
            hash_move = entry.best;
            let score = score_from_tt(entry.score, ply as i32);
            if !pv_node && i32::from(entry.depth) >= depth {
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
        if ply == 0 && self.previous_best != 0 {
            hash_move = self.previous_best;
        }

        let static_eval = if in_check { -INFINITY } else { self.evaluate(position, hash) };
        if !pv_node && !in_check && beta.abs() < MATE_BOUND {
            // Reverse futility: far above beta with little depth left, a quiet move will not undo it.
            if depth <= 6 && static_eval - 85 * depth >= beta {
                return static_eval;
            }
            // Null move: if passing still beats beta, a real move will too (not in zugzwang).
            if !after_null
                && depth >= 3
                && static_eval >= beta
                && eval::has_pieces(position.board(), position.turn())
            {
                let r = 3 + depth / 5 + ((static_eval - beta) / 200).min(2);
                if let Ok(null) = position.clone().swap_turn() {
                    let null_hash = hash_of(&null);
                    self.path.push(null_hash);
                    let score = -self.negamax(
                        &null,
                        null_hash,
                        depth - 1 - r,
                        -beta,
                        -beta + 1,
                        ply + 1,
                        true,
                    );
                    self.path.pop();
                    if self.budget.stopped() {
                        return 0;
                    }
                    if score >= beta {
                        return if score >= MATE_BOUND { beta } else { score };
                    }
                }
            }
        }
        // Internal iterative reduction: without a hash move, ordering is poor; search less.
        if hash_move == 0 && depth >= 6 && !in_check {
            depth -= 1;
        }

        let mut moves = position.legal_moves();
        if ply == 0 && !self.skipped_at_root.is_empty() {
            moves.retain(|m| !self.skipped_at_root.contains(&pack(m)));
        }
        if moves.is_empty() {
            return if in_check { -(MATE - ply as i32) } else { self.draw_score(position.turn()) };
        }
        let mut scores = self.order(position, &moves, hash_move, ply);
        let turn = position.turn();
        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let mut best_move: Packed = 0;
        let mut quiets_tried: [Move; 32] =
            [Move::Put { role: Role::Pawn, to: qi_rules::chess::shakmaty::Square::A1 }; 32];
        let mut quiet_count = 0;
        let futile = !pv_node && !in_check && depth <= 3 && static_eval + 120 * depth <= alpha;

        for index in 0..moves.len() {
            Self::pick(&mut moves, &mut scores, index);
            let mv = moves[index];
            let quiet = mv.capture().is_none() && mv.promotion().is_none();
            let mut child = position.clone();
            child.play_unchecked(mv);
            let gives_check = child.is_check();
            if quiet && !gives_check && index > 0 && best_score > -MATE_BOUND {
                // Futility and late-move pruning of quiet moves near the leaves.
                if futile
                    || (!pv_node
                        && !in_check
                        && depth <= 3
                        && quiet_count >= 3 + 3 * depth as usize)
                {
                    continue;
                }
            }
            let child_hash = hash_after(position, hash, &mv, &child);
            let extension = i32::from(gives_check);
            let new_depth = depth - 1 + extension;
            self.path.push(child_hash);
            let score = if index == 0 {
                -self.negamax(&child, child_hash, new_depth, -beta, -alpha, ply + 1, false)
            } else {
                let mut r = 0;
                if quiet && !in_check && !gives_check {
                    r = reduction(depth, index);
                    if pv_node {
                        r -= 1;
                    }
                    if scores[index] >= 1_700_000 {
                        r -= 1;
                    }
                    r = r.min(new_depth - 1).max(0);
                }
                let mut s = -self.negamax(
                    &child,
                    child_hash,
                    new_depth - r,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    false,
                );
                if s > alpha && r > 0 {
                    s = -self.negamax(
                        &child,
                        child_hash,
                        new_depth,
                        -alpha - 1,
                        -alpha,
                        ply + 1,
                        false,
                    );
                }
                if s > alpha && s < beta {
                    s = -self.negamax(&child, child_hash, new_depth, -beta, -alpha, ply + 1, false);
                }
                s
            };
            self.path.pop();
            if self.budget.stopped() {
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = pack(&mv);
                    alpha = score;
                    self.update_pv(ply, best_move);
                    if ply == 0 {
                        self.root_best = Some((mv, score));
                    }
                    if score >= beta {
                        if quiet {
                            let tried = &quiets_tried[..quiet_count.min(32)];
                            self.reward_quiet(turn, &mv, depth, ply, tried);
                        }
                        break;
                    }
                }
            }
            if quiet {
                if quiet_count < 32 {
                    quiets_tried[quiet_count] = mv;
                }
                quiet_count += 1;
            }
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if alpha > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let stored_move = if best_move == 0 { hash_move } else { best_move };
        self.tt.store(hash, stored_move, score_to_tt(best_score, ply as i32), depth as i16, bound);
        best_score
    }

    /// Captures (and queen promotions) until the position is quiet; every move when in check.
    fn quiesce(
        &mut self,
        position: &Chess,
        hash: u64,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        self.pv_len[ply] = ply;
        if self.budget.stopped() || self.budget.tick() {
            return 0;
        }
        let in_check = position.is_check();
        if ply >= MAX_PLY - 1 {
            return if in_check { 0 } else { self.evaluate(position, hash) };
        }
        let mut best_score;
        let stand_pat;
        if in_check {
            best_score = -(MATE - ply as i32);
            stand_pat = -INFINITY;
        } else {
            stand_pat = self.evaluate(position, hash);
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best_score = stand_pat;
        }
        let mut moves = position.legal_moves();
        if !in_check {
            moves.retain(|mv| mv.is_capture() || mv.promotion() == Some(Role::Queen));
        }
        let mut scores = self.order(position, &moves, 0, ply);
        for index in 0..moves.len() {
            Self::pick(&mut moves, &mut scores, index);
            let mv = moves[index];
            if !in_check {
                let gain = mv.capture().map_or(0, eval::order_value)
                    + mv.promotion().map_or(0, |r| eval::order_value(r) - 100);
                // Delta pruning: even winning the piece for free would not reach alpha.
                if stand_pat + gain + 200 <= alpha {
                    continue;
                }
                // A capture that loses material on the exchange.
                if scores[index] < 0 {
                    continue;
                }
            }
            let mut child = position.clone();
            child.play_unchecked(mv);
            let child_hash = hash_after(position, hash, &mv, &child);
            let score = -self.quiesce(&child, child_hash, -beta, -alpha, ply + 1);
            if self.budget.stopped() {
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, pack(&mv));
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best_score
    }
}
