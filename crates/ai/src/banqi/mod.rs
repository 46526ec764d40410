//! The banqi engine: expectimax with alpha-beta over the face-down pieces.
//!
//! # Never looking at the deal
//! Every search starts from [`Banqi::conceal`]: the engine sees face-up pieces and the counts of
//! the pieces still face down (the pool), never which piece lies where. A flip (or, with
//! `capture_hidden`, a cannon taking a face-down piece) is a chance node: every piece kind left
//! in the pool is played with [`Banqi::apply_revealing`] and weighted by its count. Values below
//! a chance node are capped at [`CAP`] (a sure win), which bounds the expectation so that
//! Star1 pruning can cut a chance node as soon as the remaining outcomes cannot bring it back
//! into the window. Two games that differ only in their face-down pieces get the same move.
//!
//! # Search
//! Iterative deepening, a transposition table keyed by the rules' hash (which ignores face-down
//! identities) mixed with the pool counts and, near the no-progress draw, the plies left; move
//! ordering by the hash move, captures by victim value, killers and history; a capture search
//! at the leaves. Below the root only flips next to a face-up piece (or in a face-up cannon's
//! line) are searched, plus [`LONE_FLIPS`] of the rest, which are much alike. A chain capture is
//! its own ply with the same side to move, so a child's score is negated only when the turn
//! passes. The evaluation is in [`eval`].

mod board;
pub mod eval;
mod greedy;
#[cfg(test)]
mod tests;
mod weights;

use qi_rules::banqi::{Banqi, BanqiMove, Piece, Square};
use qi_rules::{Game, Side, zobrist};

use crate::Engine;
use crate::driver::{self, DriveOptions, History, Killers, SearchInfo, SearchResult, Tree};
use crate::search::{
    Bound, Budget, MATE, Score, TableMove, TranspositionTable, score_from_tt, score_to_tt,
};

use board::{SQUARES, index_of, neighbour, static_value};
pub use greedy::GreedyPlayer;

/// Deepest ply searched (the capture search included).
const MAX_PLY: usize = 96;
/// Values behind a chance node are capped at this: a sure win, whatever the distance.
pub const CAP: i32 = 30_000;
const INF: i32 = MATE + 1;
/// 2^19 entries of 24 bytes.
const TT_BITS: u32 = 19;
/// Flips away from every face-up piece that are searched below the root.
pub const LONE_FLIPS: usize = 2;
/// Plies before the no-progress draw within which the count becomes part of the TT key.
const DRAW_HORIZON: u32 = 32;

static POOL_KEYS: [u64; 14 * 6] = zobrist::keys::<{ 14 * 6 }>(0x000B_A9A1);
static QUIET_KEYS: [u64; DRAW_HORIZON as usize] =
    zobrist::keys::<{ DRAW_HORIZON as usize }>(0x000B_A9A2);

/// A move in 16 bits, for the transposition table and killers (0 is no move).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PackedMove(u16);

impl PackedMove {
    const NONE: PackedMove = PackedMove(0);

    fn new(mv: BanqiMove) -> PackedMove {
        let code = match mv {
            BanqiMove::Stop => 1,
            BanqiMove::Flip(cell) => 2 + index_of(cell),
            BanqiMove::Step { from, to } => 64 + index_of(from) * SQUARES + index_of(to),
        };
        PackedMove(code as u16)
    }
}

impl TableMove for PackedMove {
    #[inline]
    fn to_bits(self) -> u16 {
        self.0
    }

    #[inline]
    fn from_bits(bits: u16) -> PackedMove {
        PackedMove(bits)
    }
}

/// Ordering scores: the hash move, captures, then chance captures and `stop`, killers, history.
const HASH_MOVE: i32 = 1 << 30;
const CAPTURE: i32 = 1 << 24;
const CHANCE_CAPTURE: i32 = 1 << 23;
const STOP: i32 = 1 << 22;
const KILLER: i32 = 1 << 21;

/// Which moves [`BanqiEngine::generate`] makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    All,
    NoFlips,
    Captures,
}

/// The banqi engine (see the module documentation).
pub struct BanqiEngine {
    tt: TranspositionTable<PackedMove>,
    killers: Killers<PackedMove, MAX_PLY>,
    /// By from and to square (`from * SQUARES + to`); a flip counts as from and to its own square.
    history: History,
    /// Moves and ordering scores, one pair of buffers per ply.
    moves: Vec<Vec<BanqiMove>>,
    scores: Vec<Vec<i32>>,
    /// The piece values of the last evaluation, kept while nothing is captured.
    values: eval::ValuesCache,
}

impl Default for BanqiEngine {
    fn default() -> Self {
        Self::new()
    }
}

/// The key of a node: the rules' hash, the pool counts, and the plies left before a draw.
fn node_key(game: &Banqi) -> u64 {
    let mut key = game.hash();
    for (index, count) in game.unknown_pool().iter().enumerate() {
        if *count > 0 {
            key ^= POOL_KEYS[index * 6 + usize::from((*count).min(5))];
        }
    }
    let left = game.rules().draw.saturating_sub(game.quiet_plies());
    if left < DRAW_HORIZON {
        key ^= QUIET_KEYS[left as usize];
    }
    key
}

/// Whether `mv` reveals a face-down piece (a chance node).
fn reveals(game: &Banqi, mv: BanqiMove) -> bool {
    match mv {
        BanqiMove::Flip(_) => true,
        BanqiMove::Step { to, .. } => game.square(to).is_face_down(),
        BanqiMove::Stop => false,
    }
}

/// The score of a finished game for the side to move, `ply` plies from the root.
fn terminal(game: &Banqi, ply: usize) -> i32 {
    let won = MATE - ply as i32;
    match game.outcome().and_then(|outcome| outcome.winner) {
        Some(winner) if winner == game.side_to_move() => won,
        Some(_) => -won,
        None => 0,
    }
}

impl BanqiEngine {
    /// A new engine with an empty table.
    #[must_use]
    pub fn new() -> Self {
        Self::with_table(TranspositionTable::new(TT_BITS))
    }

    /// A new engine searching with `tt`; the rest of what it learns is its own.
    fn with_table(tt: TranspositionTable<PackedMove>) -> Self {
        BanqiEngine {
            tt,
            killers: Killers::default(),
            history: History::new(SQUARES * SQUARES),
            moves: (0..MAX_PLY).map(|_| Vec::with_capacity(64)).collect(),
            scores: (0..MAX_PLY).map(|_| Vec::with_capacity(64)).collect(),
            values: eval::ValuesCache::default(),
        }
    }

    /// Fills the buffers of `ply` with the legal moves of `kind` and their ordering scores.
    /// Below the root, lone flips beyond [`LONE_FLIPS`] are left out. Returns whether a flip
    /// was left out because of `kind`.
    fn generate(&mut self, game: &Banqi, ply: usize, hash_move: PackedMove, kind: Kind) -> bool {
        let captures = kind == Kind::Captures;
        let mut flips_left_out = false;
        let mut moves = std::mem::take(&mut self.moves[ply]);
        let mut scores = std::mem::take(&mut self.scores[ply]);
        moves.clear();
        scores.clear();
        game.legal_moves_into(&mut moves);
        let board = board::squares(game);
        let rules = *game.rules();
        // The squares on a face-up cannon's file or rank, as bits. (A loop over the board for
        // each cannon was vectorised natively but not in wasm: generate ran at 0.6x native speed
        // in the browser, the search as a whole at 0.7x.)
        let mut cannon_lines = 0u32;
        for (index, square) in board.iter().enumerate() {
            if matches!(square, Square::FaceUp(p) if p.role == qi_rules::banqi::Role::Cannon) {
                cannon_lines |= board::lines_through(index);
            }
        }
        let mut lone_flips = 0;
        let mut kept = 0;
        for read in 0..moves.len() {
            let mv = moves[read];
            let packed = PackedMove::new(mv);
            let score = match mv {
                BanqiMove::Step { from, to } => {
                    let (from, to) = (index_of(from), index_of(to));
                    match (board[from], board[to]) {
                        (Square::FaceUp(attacker), Square::FaceUp(victim)) => {
                            CAPTURE + static_value(victim.role, &rules) * 64
                                - static_value(attacker.role, &rules)
                        }
                        _ if captures => continue,
                        (_, Square::Hidden(_) | Square::Unknown) => CHANCE_CAPTURE,
                        _ => self.quiet_score(ply, packed, from, to),
                    }
                }
                _ if captures => continue,
                BanqiMove::Stop => STOP,
                BanqiMove::Flip(_) if kind == Kind::NoFlips => {
                    flips_left_out = true;
                    continue;
                }
                BanqiMove::Flip(cell) => {
                    let at = index_of(cell);
                    let near = cannon_lines & (1 << at) != 0
                        || (0..4)
                            .filter_map(|d| neighbour(at, d))
                            .any(|n| matches!(board[n], Square::FaceUp(_)));
                    if !near && ply > 0 && packed != hash_move {
                        lone_flips += 1;
                        if lone_flips > LONE_FLIPS {
                            continue;
                        }
                    }
                    self.quiet_score(ply, packed, at, at)
                }
            };
            moves[kept] = mv;
            kept += 1;
            scores.push(if packed == hash_move { HASH_MOVE } else { score });
        }
        moves.truncate(kept);
        self.moves[ply] = moves;
        self.scores[ply] = scores;
        flips_left_out
    }

    fn quiet_score(&self, ply: usize, packed: PackedMove, from: usize, to: usize) -> i32 {
        match self.killers.rank(ply, packed) {
            0 => self.history.get(from * SQUARES + to),
            rank => KILLER + rank,
        }
    }

    /// The best-scored move from `start` on in the buffers of `ply`, swapped to `start`.
    fn pick(&mut self, ply: usize, start: usize) -> BanqiMove {
        driver::pick_best(&mut self.moves[ply], &mut self.scores[ply], start)
    }

    /// Remembers a quiet move that caused a cut-off.
    fn reward(&mut self, ply: usize, mv: BanqiMove, depth: i32) {
        let packed = PackedMove::new(mv);
        let (from, to) = match mv {
            BanqiMove::Flip(cell) => (index_of(cell), index_of(cell)),
            BanqiMove::Step { from, to } => (index_of(from), index_of(to)),
            BanqiMove::Stop => return,
        };
        self.killers.record(ply, packed);
        self.history.reward(from * SQUARES + to, &[], depth);
    }

    /// Alpha-beta over `game`'s concealed tree; the score is for the side to move.
    fn negamax(
        &mut self,
        game: &mut Banqi,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        budget: &mut Budget<'_>,
    ) -> i32 {
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.quiesce(game, ply, alpha, beta, budget);
        }
        if budget.tick() {
            return 0;
        }
        let key = node_key(game);
        let mut hash_move = PackedMove::NONE;
        if let Some(entry) = self.tt.probe(key) {
            hash_move = entry.best;
            let score = score_from_tt(entry.score, ply as i32);
            if i32::from(entry.depth) >= depth && entry.bound.cuts(score, alpha, beta) {
                return score;
            }
        }
        // One ply from the horizon a flip is not expanded (14 outcomes, each a capture search):
        // it counts as a quiet move worth the static evaluation.
        let kind = if depth == 1 && ply > 0 { Kind::NoFlips } else { Kind::All };
        let flips_left_out = self.generate(game, ply, hash_move, kind);
        let count = self.moves[ply].len();
        let (mut best, mut best_move) = (-INF, PackedMove::NONE);
        let original_alpha = alpha;
        if flips_left_out {
            best = eval::evaluate_cached(game, &mut self.values) + budget.noise_for(game.hash());
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
        } else if count == 0 {
            return terminal(game, ply);
        }
        for index in 0..count {
            let mv = self.pick(ply, index);
            let value = self.child_value(game, mv, depth - 1, ply, alpha, beta, budget);
            if budget.stopped() {
                return 0;
            }
            if value > best {
                best = value;
                best_move = PackedMove::new(mv);
                alpha = alpha.max(value);
                if value >= beta {
                    if !is_capture(game, mv) {
                        self.reward(ply, mv, depth);
                    }
                    break;
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(key, best_move, score_to_tt(best, ply as i32), depth as i16, bound);
        best
    }

    /// The value of playing `mv` for the side to move now, searched `depth` more plies.
    #[allow(clippy::too_many_arguments)]
    fn child_value(
        &mut self,
        game: &mut Banqi,
        mv: BanqiMove,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        budget: &mut Budget<'_>,
    ) -> i32 {
        if reveals(game, mv) {
            return self.chance(game, mv, depth, ply, alpha, beta, budget);
        }
        let side = game.side_to_move();
        game.play_unchecked(mv);
        let value = self.after_move(game, side, depth, ply + 1, alpha, beta, budget);
        game.undo();
        value
    }

    /// Searches the position after a move by `side`: negated if the turn passed, as is if
    /// `side` goes on with a chain capture.
    #[allow(clippy::too_many_arguments)]
    fn after_move(
        &mut self,
        game: &mut Banqi,
        side: Side,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        budget: &mut Budget<'_>,
    ) -> i32 {
        if game.side_to_move() == side {
            self.negamax(game, depth, ply, alpha, beta, budget)
        } else {
            -self.negamax(game, depth, ply, -beta, -alpha, budget)
        }
    }

    /// A chance node: the expectation over the pool of the values of `mv` revealing each piece,
    /// with Star1 cut-offs once the outcomes left cannot bring it back into `(alpha, beta)`.
    #[allow(clippy::too_many_arguments)]
    fn chance(
        &mut self,
        game: &mut Banqi,
        mv: BanqiMove,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        budget: &mut Budget<'_>,
    ) -> i32 {
        let side = game.side_to_move();
        let pool = game.unknown_pool();
        let total: i64 = pool.iter().map(|&n| i64::from(n)).sum();
        if total == 0 {
            return 0;
        }
        let (lo, hi) = (i64::from(-CAP), i64::from(CAP));
        let alpha = i64::from(alpha).clamp(lo, hi);
        let beta = i64::from(beta).clamp(lo, hi);
        let (mut sum, mut left) = (0i64, total);
        for (index, &count) in pool.iter().enumerate() {
            if count == 0 {
                continue;
            }
            let count = i64::from(count);
            left -= count;
            // The child values that would put the expectation outside the window, widened by one
            // so the bounds the child returns stay on the safe side of the rounding.
            let child_beta = ((beta * total - sum - left * lo) / count + 1).min(hi);
            let child_alpha =
                ((alpha * total - sum - left * hi) / count - 1).max(lo).min(child_beta - 1);
            let value = if game.apply_revealing(mv, Piece::ALL[index]).is_ok() {
                let value = self.after_move(
                    game,
                    side,
                    depth,
                    ply + 1,
                    child_alpha as i32,
                    child_beta as i32,
                    budget,
                );
                game.undo();
                i64::from(value).clamp(lo, hi)
            } else {
                0
            };
            if budget.stopped() {
                return 0;
            }
            sum += count * value;
            if sum + left * hi <= alpha * total {
                return ((sum + left * hi) / total) as i32;
            }
            if sum + left * lo >= beta * total {
                return ((sum + left * lo) / total) as i32;
            }
        }
        (sum / total) as i32
    }

    /// The capture search: stand pat on the evaluation, or capture a face-up piece.
    fn quiesce(
        &mut self,
        game: &mut Banqi,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        budget: &mut Budget<'_>,
    ) -> i32 {
        if budget.tick() {
            return 0;
        }
        if game.outcome().is_some() {
            return terminal(game, ply);
        }
        let stand = eval::evaluate_cached(game, &mut self.values) + budget.noise_for(game.hash());
        if stand >= beta || ply >= MAX_PLY - 1 {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut best = stand;
        self.generate(game, ply, PackedMove::NONE, Kind::Captures);
        for index in 0..self.moves[ply].len() {
            let mv = self.pick(ply, index);
            let side = game.side_to_move();
            game.play_unchecked(mv);
            let value = if game.side_to_move() == side {
                self.quiesce(game, ply + 1, alpha, beta, budget)
            } else {
                -self.quiesce(game, ply + 1, -beta, -alpha, budget)
            };
            game.undo();
            if budget.stopped() {
                return 0;
            }
            if value > best {
                best = value;
                alpha = alpha.max(value);
                if value >= beta {
                    break;
                }
            }
        }
        best
    }

    /// The principal variation from the table, up to the first chance move.
    fn principal_variation(
        &self,
        game: &mut Banqi,
        first: BanqiMove,
        depth: u32,
    ) -> Vec<BanqiMove> {
        let mut pv = vec![first];
        if reveals(game, first) {
            return pv;
        }
        game.play_unchecked(first);
        let mut played = 1;
        while (played as u32) < depth {
            let Some(entry) = self.tt.probe(node_key(game)) else { break };
            let Some(mv) =
                game.legal_moves().into_iter().find(|&m| PackedMove::new(m) == entry.best)
            else {
                break;
            };
            pv.push(mv);
            if reveals(game, mv) {
                break;
            }
            game.play_unchecked(mv);
            played += 1;
        }
        for _ in 0..played {
            game.undo();
        }
        pv
    }
}

fn is_capture(game: &Banqi, mv: BanqiMove) -> bool {
    matches!(mv, BanqiMove::Step { to, .. } if game.square(to).is_occupied())
}

/// One search: the engine and the concealed game it searches.
struct BanqiTree<'e> {
    engine: &'e mut BanqiEngine,
    game: Banqi,
}

impl Tree for BanqiTree<'_> {
    type Move = BanqiMove;

    fn search_move(
        &mut self,
        budget: &mut Budget<'_>,
        mv: BanqiMove,
        _index: usize,
        depth: i32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        self.engine.child_value(&mut self.game, mv, depth, 0, alpha, beta, budget)
    }

    fn continuation(&mut self, mv: BanqiMove) -> Vec<BanqiMove> {
        let mut line = self.engine.principal_variation(&mut self.game, mv, 16);
        line.remove(0);
        line
    }
}

impl Engine for BanqiEngine {
    type Game = Banqi;

    fn search_lines(
        &mut self,
        game: &Banqi,
        budget: &mut Budget<'_>,
        lines: usize,
        on_info: &mut dyn FnMut(&SearchInfo<BanqiMove>),
    ) -> SearchResult<BanqiMove> {
        // The one place the real game is looked at: everything below sees the concealed copy.
        let game = game.conceal();
        self.killers.clear();
        // Aged between moves; not between the slices of one search going on (a ponder).
        if !budget.limits.resumes {
            self.history.age();
        }
        self.generate(&game, 0, PackedMove::NONE, Kind::All);
        let mut root: Vec<(BanqiMove, i32)> =
            self.moves[0].iter().copied().zip(self.scores[0].iter().copied()).collect();
        root.sort_by_key(|&(_, score)| std::cmp::Reverse(score));
        if root.is_empty() {
            budget.tick();
            return SearchResult::no_move(Score::from_internal(terminal(&game, 0)), budget);
        }
        let root_moves = root.into_iter().map(|(mv, _)| mv).collect();
        let options =
            // No aspiration windows: the expectations of flips move too much between depths.
            DriveOptions {
                lines,
                max_depth: MAX_PLY as u32 - 8,
                aspiration_from: u32::MAX,
                ..DriveOptions::default()
            };
        let mut tree = BanqiTree { engine: self, game };
        driver::iterate(&mut tree, budget, root_moves, options, on_info)
    }

    fn helper(&self) -> Self {
        Self::with_table(self.tt.share())
    }

    fn new_game(&mut self) {
        self.tt.clear();
        self.history.clear();
    }
}
