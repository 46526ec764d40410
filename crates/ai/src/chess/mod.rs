//! The chess engine: principal-variation search under the shared driver ([`crate::driver`]:
//! iterative deepening, aspiration windows, several lines), straight on shakmaty positions (a cloned position per move, no undo), with a transposition
//! table, null-move pruning, late-move reductions, check extensions, futility pruning and a
//! quiescence search over captures in MVV-LVA order with delta pruning. Moves are ordered by the
//! hash move, captures, two killers per ply and a history table.
//!
//! Draws: a position that repeats one in the game's history or on the search path scores as a
//! draw, as do the fifty-move rule and insufficient material. Chess960 needs nothing special:
//! shakmaty's castling moves carry the king and the rook.

pub mod eval;
pub mod net;
mod see;
#[cfg(test)]
mod tests;
mod weights;

use std::sync::LazyLock;

use arrayvec::ArrayVec;

use qi_rules::Game;
use qi_rules::chess::shakmaty::zobrist::Zobrist64;
use qi_rules::chess::shakmaty::{Chess, Color, EnPassantMode, Move, MoveList, Position, Role};
use qi_rules::chess::{ChessGame, ChessMove};

use crate::Engine;
use crate::driver::{self, DriveOptions, History, Killers, SearchInfo, SearchResult, Tree};
use crate::net::Network;
use crate::search::{
    Bound, Budget, INFINITY, MATE, MATE_BOUND, ReductionTable, Score, TranspositionTable,
    score_from_tt, score_to_tt,
};
use net::NetStack;

pub use eval::evaluate;

/// Deepest ply the search reaches (extensions included).
const MAX_PLY: usize = 96;
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

/// The history key of a move: the moving piece (colour and role) and its destination.
fn history_key(color: Color, mv: &Move) -> usize {
    (usize::from(color == Color::Black) * 6 + mv.role() as usize - 1) * 64 + mv.to() as usize
}

/// Late-move reduction for `depth` and move number `index` (from [`reduction_formula`],
/// worked out once).
fn reduction(depth: i32, index: usize) -> i32 {
    static TABLE: LazyLock<ReductionTable> =
        LazyLock::new(|| ReductionTable::new(reduction_formula));
    TABLE.get(depth, i32::try_from(index).unwrap_or(i32::MAX))
}

/// The late-move reduction's formula.
fn reduction_formula(depth: i32, index: i32) -> i32 {
    if depth < 3 || index < 3 {
        return 0;
    }
    let r = 0.8 + f64::from(depth).ln() * f64::from(index).ln() / 2.4;
    r as i32
}

/// The chess engine. Keeps its transposition table and history between moves of one game.
pub struct ChessEngine {
    tt: TranspositionTable<Packed>,
    history: History,
    /// The quiet move that last refuted each move (by its history key): tried after killers.
    countermoves: Vec<Packed>,
}

/// No move led here (the root's parent, a null move).
const NO_MOVE: usize = usize::MAX;

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
        Self::with_table(TranspositionTable::new(bits))
    }

    /// Which table this engine searches with: the same number for engines sharing one.
    #[cfg(test)]
    pub(crate) fn table_id(&self) -> usize {
        self.tt.id()
    }

    /// A new engine searching with `tt`, its own history and countermoves.
    fn with_table(tt: TranspositionTable<Packed>) -> Self {
        ChessEngine { tt, history: History::new(12 * 64), countermoves: vec![0; 12 * 64] }
    }

    /// A new engine with a transposition table of about `mb` megabytes (at least 1 MB).
    #[must_use]
    pub fn with_hash_mb(mb: usize) -> Self {
        let entries = (mb.max(1) << 20) / TranspositionTable::<Packed>::ENTRY_BYTES;
        Self::with_table_bits(entries.max(2).ilog2())
    }
}

impl Engine for ChessEngine {
    type Game = ChessGame;

    fn search_lines(
        &mut self,
        game: &ChessGame,
        budget: &mut Budget<'_>,
        lines: usize,
        on_info: &mut dyn FnMut(&SearchInfo<ChessMove>),
    ) -> SearchResult<ChessMove> {
        // Aged between moves; not between the slices of one search going on (a ponder).
        if !budget.limits.resumes {
            self.history.age();
        }
        let root = game.shakmaty_position();
        if game.outcome().is_some() || root.legal_moves().is_empty() {
            let score = if root.is_checkmate() { Score::Mate(0) } else { Score::Cp(0) };
            return SearchResult::no_move(score, budget);
        }
        let mut tree = Searcher::new(self, game, budget.noise != 0);
        let mut moves = root.legal_moves();
        let scores = tree.order(root, &moves, 0, 0);
        let mut order: Vec<(i32, Move)> = scores.into_iter().zip(moves.drain(..)).collect();
        order.sort_by_key(|&(score, _)| std::cmp::Reverse(score));
        let root_moves = order.into_iter().map(|(_, mv)| mv).collect();
        let options =
            DriveOptions { lines, max_depth: MAX_PLY as u32 - 2, ..DriveOptions::default() };
        let mut report =
            |info: &SearchInfo<Move>| on_info(&info.clone().map(|m| game.chess_move(m)));
        driver::iterate(&mut tree, budget, root_moves, options, &mut report)
            .map(|m| game.chess_move(m))
    }

    fn helper(&self) -> Self {
        Self::with_table(self.tt.share())
    }

    fn new_game(&mut self) {
        self.tt.clear();
        self.history.clear();
        self.countermoves.fill(0);
    }
}

/// The state of one search.
struct Searcher<'e> {
    tt: &'e mut TranspositionTable<Packed>,
    history: &'e mut History,
    countermoves: &'e mut [Packed],
    /// The history key of the move that led to each ply ([`NO_MOVE`] for none).
    played: [usize; MAX_PLY + 2],
    /// The static evaluation at each ply of the current line (`-INFINITY` in check).
    static_evals: [i32; MAX_PLY + 2],
    killers: Killers<Packed, { MAX_PLY + 1 }>,
    /// Hashes of the game's reversible history, then of the search path; the current one last.
    path: Vec<u64>,
    /// Triangular principal-variation table.
    pv: Box<[[Packed; MAX_PLY + 1]; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    /// The position searched and its hash.
    root: Chess,
    root_hash: u64,
    /// The side the engine plays (to move at the root), for the contempt.
    root_turn: Color,
    /// Whether the level's noise is on (then draws are taken at face value).
    noisy: bool,
    /// The network that evaluates (the hand-written evaluation where there is none) and its
    /// hidden sums along the current line.
    net: Option<&'static Network>,
    sums: NetStack,
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

impl Tree for Searcher<'_> {
    type Move = Move;

    fn search_move(
        &mut self,
        budget: &mut Budget<'_>,
        mv: Move,
        index: usize,
        depth: i32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let root = self.root.clone();
        let mut child = root.clone();
        child.play_unchecked(mv);
        let child_hash = hash_after(&root, self.root_hash, &mv, &child);
        let extension = i32::from(child.is_check());
        let new_depth = depth + extension;
        let quiet = mv.capture().is_none() && mv.promotion().is_none();
        // Late quiet root moves in a null window: one ply less first (the root is a PV node).
        let r = if index > 0 && beta == alpha + 1 && quiet && extension == 0 {
            (reduction(depth + 1, index) - 1).min(new_depth - 1).max(0)
        } else {
            0
        };
        self.played[1] = history_key(root.turn(), &mv);
        self.path.push(child_hash);
        let mut score =
            -self.negamax(budget, &child, child_hash, new_depth - r, -beta, -alpha, 1, false);
        if r > 0 && score > alpha && !budget.stopped() {
            score = -self.negamax(budget, &child, child_hash, new_depth, -beta, -alpha, 1, false);
        }
        self.path.pop();
        score
    }

    fn continuation(&mut self, mv: Move) -> Vec<Move> {
        let mut position = self.root.clone();
        position.play_unchecked(mv);
        let mut line = Vec::new();
        for &packed in &self.pv[1][1..self.pv_len[1]] {
            let Some(next) = position.legal_moves().into_iter().find(|m| pack(m) == packed) else {
                break;
            };
            line.push(next);
            position.play_unchecked(next);
        }
        line
    }
}

impl<'e> Searcher<'e> {
    fn new(engine: &'e mut ChessEngine, game: &ChessGame, noisy: bool) -> Self {
        let mut path = reversible_history(game);
        path.reserve(MAX_PLY + 2);
        let root = game.shakmaty_position().clone();
        let mut searcher = Searcher {
            tt: &mut engine.tt,
            history: &mut engine.history,
            countermoves: &mut engine.countermoves,
            played: [NO_MOVE; MAX_PLY + 2],
            static_evals: [-INFINITY; MAX_PLY + 2],
            killers: Killers::default(),
            path,
            pv: Box::new([[0; MAX_PLY + 1]; MAX_PLY + 1]),
            pv_len: [0; MAX_PLY + 1],
            root_hash: hash_of(&root),
            root_turn: root.turn(),
            root,
            noisy,
            net: net::network(),
            sums: NetStack::new(MAX_PLY + 1),
        };
        // The root's own evaluation, so that ply 2 has something to compare with.
        if !searcher.root.is_check() {
            let root = searcher.root.clone();
            searcher.static_evals[0] = searcher.static_eval(&root, 0);
        }
        searcher
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
        let contempt = if self.noisy { 0 } else { CONTEMPT };
        if turn == self.root_turn { -contempt } else { contempt }
    }

    /// The static evaluation of `position`, at `ply` of the line, for the side to move: the
    /// network's when there is one (added to the hand-written evaluation if it was trained on
    /// top of it), with drawish endings scaled down as the hand-written evaluation does.
    fn static_eval(&mut self, position: &Chess, ply: usize) -> i32 {
        let (board, turn) = (position.board(), position.turn());
        match self.net {
            Some(network) => {
                let score = self.sums.evaluate(network, ply, board, turn);
                debug_assert_eq!(
                    score,
                    net::score(network, &net::accumulate(network, board), turn)
                );
                if network.on_top() {
                    eval::evaluate(board, turn) + score
                } else {
                    eval::scale_drawish(board, turn, score)
                }
            }
            None => eval::evaluate(board, turn),
        }
    }

    /// The static evaluation with the level's noise.
    fn evaluate(&mut self, budget: &Budget<'_>, position: &Chess, hash: u64, ply: usize) -> i32 {
        self.static_eval(position, ply) + budget.noise_for(hash)
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
    ) -> ArrayVec<i32, MAX_MOVES> {
        let turn = position.turn();
        let previous = self.played[ply];
        let countermove = if previous == NO_MOVE { 0 } else { self.countermoves[previous] };
        let score = |mv: &Move| {
            let packed = pack(mv);
            if packed == hash_move {
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
            } else {
                match self.killers.rank(ply, packed) {
                    2 => 1_800_000,
                    1 => 1_700_000,
                    _ if countermove == packed => 1_600_000,
                    _ => self.history.get(history_key(turn, mv)),
                }
            }
        };
        moves.iter().map(score).collect()
    }

    fn reward_quiet(&mut self, turn: Color, mv: &Move, depth: i32, ply: usize, tried: &[Move]) {
        self.killers.record(ply, pack(mv));
        if self.played[ply] != NO_MOVE {
            self.countermoves[self.played[ply]] = pack(mv);
        }
        let mut keys = [0; 32];
        for (key, other) in keys.iter_mut().zip(tried) {
            *key = history_key(turn, other);
        }
        self.history.reward(history_key(turn, mv), &keys[..tried.len().min(32)], depth);
    }

    #[allow(clippy::too_many_arguments, clippy::too_many_lines)]
    fn negamax(
        &mut self,
        budget: &mut Budget<'_>,
        position: &Chess,
        hash: u64,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        after_null: bool,
    ) -> i32 {
        self.pv_len[ply] = ply;
        if budget.stopped() || budget.tick() {
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
            return self.quiesce(budget, position, hash, alpha, beta, ply);
        }
        let pv_node = beta - alpha > 1;

        let mut hash_move = 0;
        if let Some(entry) = self.tt.probe(hash) {
            hash_move = entry.best;
            let score = score_from_tt(entry.score, ply as i32);
            if !pv_node && i32::from(entry.depth) >= depth && entry.bound.cuts(score, alpha, beta) {
                return score;
            }
        }

        let static_eval =
            if in_check { -INFINITY } else { self.evaluate(budget, position, hash, ply) };
        self.static_evals[ply] = static_eval;
        // Whether our evaluation got better since our last move (against the last one not in
        // check): reverse futility then trusts it more, late-move pruning and reductions are
        // gentler. With nothing to compare, it counts as improving.
        let improving = driver::improving(&self.static_evals, ply, in_check, -INFINITY);
        if !pv_node && !in_check && beta.abs() < MATE_BOUND {
            // Reverse futility: far above beta with little depth left, a quiet move will not undo it.
            if depth <= 6 && static_eval - 85 * (depth - i32::from(improving)) >= beta {
                return static_eval;
            }
            // Razoring: far below alpha near the leaves, only a capture can help.
            if depth <= 2 && static_eval + 250 * depth <= alpha {
                let score = self.quiesce(budget, position, hash, alpha, alpha + 1, ply);
                if score <= alpha {
                    return score;
                }
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
                    self.played[ply + 1] = NO_MOVE;
                    self.path.push(null_hash);
                    let score = -self.negamax(
                        budget,
                        &null,
                        null_hash,
                        depth - 1 - r,
                        -beta,
                        -beta + 1,
                        ply + 1,
                        true,
                    );
                    self.path.pop();
                    if budget.stopped() {
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
            let mv = driver::pick_best(&mut moves, &mut scores, index);
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
                        && quiet_count >= (3 + 3 * depth as usize) / (2 - usize::from(improving)))
                {
                    continue;
                }
            }
            // Moves that lose material on their square, near the leaves: a quiet move into
            // a losing exchange, a capture that gives back more than it takes.
            if !pv_node
                && !in_check
                && !gives_check
                && index > 0
                && depth <= 4
                && best_score > -MATE_BOUND
                && mv.promotion().is_none()
            {
                let margin = if quiet { -60 * depth * depth } else { -100 * depth };
                if see::exchange(position.board(), turn, &mv) < margin {
                    continue;
                }
            }
            let child_hash = hash_after(position, hash, &mv, &child);
            let extension = i32::from(gives_check);
            let new_depth = depth - 1 + extension;
            self.played[ply + 1] = history_key(turn, &mv);
            self.path.push(child_hash);
            let score = if index == 0 {
                -self.negamax(budget, &child, child_hash, new_depth, -beta, -alpha, ply + 1, false)
            } else {
                let mut r = 0;
                if quiet && !in_check && !gives_check && reduction(depth, index) > 0 {
                    r = reduction(depth, index);
                    if pv_node {
                        r -= 1;
                    }
                    if scores[index] >= 1_600_000 {
                        r -= 1;
                    } else {
                        // Moves that often refuted others are reduced less, rarely good ones more.
                        r -= scores[index] / 6_000;
                    }
                    if !improving {
                        r += 1;
                    }
                    r = r.min(new_depth - 1).max(0);
                }
                let mut s = -self.negamax(
                    budget,
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
                        budget,
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
                    s = -self.negamax(
                        budget,
                        &child,
                        child_hash,
                        new_depth,
                        -beta,
                        -alpha,
                        ply + 1,
                        false,
                    );
                }
                s
            };
            self.path.pop();
            if budget.stopped() {
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = pack(&mv);
                    alpha = score;
                    self.update_pv(ply, best_move);
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
        budget: &mut Budget<'_>,
        position: &Chess,
        hash: u64,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        self.pv_len[ply] = ply;
        if budget.stopped() || budget.tick() {
            return 0;
        }
        let in_check = position.is_check();
        if ply >= MAX_PLY - 1 {
            return if in_check { 0 } else { self.evaluate(budget, position, hash, ply) };
        }
        // Any search's result is deep enough here (razoring calls this at depth 1-2 too, where
        // the entry was just found too shallow for the main search: razoring is a guess
        // anyway). The table is read, never written, so that the many quiescence nodes do not
        // push out the main search's entries.
        if beta - alpha == 1
            && let Some(entry) = self.tt.probe(hash)
        {
            let score = score_from_tt(entry.score, ply as i32);
            if entry.bound.cuts(score, alpha, beta) {
                return score;
            }
        }
        let mut best_score;
        let stand_pat;
        if in_check {
            best_score = -(MATE - ply as i32);
            stand_pat = -INFINITY;
        } else {
            stand_pat = self.evaluate(budget, position, hash, ply);
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
            let mv = driver::pick_best(&mut moves, &mut scores, index);
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
            // The countermove slot read below this node (a quiet evasion) is this move's.
            self.played[ply + 1] = history_key(position.turn(), &mv);
            let score = -self.quiesce(budget, &child, child_hash, -beta, -alpha, ply + 1);
            if budget.stopped() {
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
