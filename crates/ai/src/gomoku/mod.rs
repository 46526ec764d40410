//! The gomoku engine: line shapes (five, open four, four, open three, three, twos) kept up to
//! date move by move, candidate points near the stones ranked by what they make and what they
//! stop, alpha-beta with iterative deepening, a transposition table, killers and history over
//! those candidates, and a VCF search (victory by continuous fours) at the root and at the
//! leaves. Forced replies are exact: a five is always made, a four is always blocked, two fours
//! or an open four against us is a loss, an open four or a double four of ours is a win.
//!
//! The rule set is respected: in renju Black's forbidden points are skipped through the rules
//! crate's own judgement, and the shape tables count only exact fives where six do not win.
//!
//! [`seed_ai`] is a faithful port of the seed tutorial's strongest AI, the sparring partner of
//! the strength match.

pub mod eval;
mod position;
pub mod seed_ai;
#[cfg(test)]
mod tests;
mod threats;
mod weights;

use qi_rules::Game;
use qi_rules::Side;
use qi_rules::gomoku::{Gomoku, GomokuMove, GomokuRules, MAX_OFFERS, OpeningRule, Phase};

use self::position::{POINTS, Position};
use self::threats::{FailCache, has_four_move, vcf};
use crate::Engine;
use crate::driver::{self, DriveOptions, History, Killers, Line, SearchInfo, SearchResult, Tree};
use crate::search::{
    Bound, Budget, MATE, MATE_BOUND, Score, TranspositionTable, score_from_tt, score_to_tt,
};

/// The deepest ply the search reaches (iterative deepening stops well before).
const MAX_PLY: usize = 64;
/// The deepest node reverse futility may cut.
const FUTILITY_DEPTH: i32 = 3;
/// Reverse futility's margin per ply of depth, in evaluation units.
const FUTILITY_MARGIN: i32 = 120;
/// The deepest node razoring may send to the leaf.
const RAZOR_DEPTH: i32 = 2;
/// Razoring's margin per ply of depth, in evaluation units.
const RAZOR_MARGIN: i32 = 250;
/// Fours a root VCF search may chain.
const ROOT_VCF_DEPTH: u32 = 30;
/// Fours a VCF search at a leaf may chain.
const LEAF_VCF_DEPTH: u32 = 5;
/// Nodes a root VCF search may visit.
const ROOT_VCF_NODES: u64 = 200_000;
/// Nodes one leaf VCF search may visit.
const LEAF_VCF_NODES: u64 = 300;
/// Candidates searched below the root, best ranked first.
const WIDTH: usize = 14;

/// The gomoku engine.
pub struct GomokuEngine {
    tt: TranspositionTable<u16>,
    /// By side and point (`side * POINTS + point`).
    history: History,
    killers: Killers<u16, MAX_PLY>,
    fails: FailCache,
    /// One move list per ply, reused.
    move_lists: Vec<Vec<(i32, u16)>>,
    vcf_line: Vec<u16>,
}

impl Default for GomokuEngine {
    fn default() -> Self {
        Self::new()
    }
}

impl GomokuEngine {
    /// A new engine.
    #[must_use]
    pub fn new() -> Self {
        Self::with_table(TranspositionTable::new(18))
    }

    /// A new engine searching with `tt`; the rest of what it learns is its own.
    fn with_table(tt: TranspositionTable<u16>) -> Self {
        GomokuEngine {
            tt,
            history: History::new(2 * POINTS),
            killers: Killers::default(),
            fails: FailCache::new(),
            move_lists: (0..MAX_PLY).map(|_| Vec::with_capacity(256)).collect(),
            vcf_line: Vec::with_capacity(64),
        }
    }
}

/// What the threats on the board decide before any search: a win, a loss, or the only move.
enum Verdict {
    /// Nothing forced.
    Open,
    /// The side to move wins, in this many plies, starting with the point.
    Win(u16, i32),
    /// The side to move loses however it plays (it may still block one point).
    Loss(Option<u16>),
    /// The side to move must play here (blocking a four).
    Forced(u16),
}

impl GomokuEngine {
    /// The forced facts of `position` for the side to move, in one pass over the board.
    fn verdict(position: &Position) -> Verdict {
        let me = position.side_to_move();
        let (mut theirs, mut their_fives) = (0, [0u16; 2]);
        let mut winning_four = None;
        for p in position.candidates() {
            let point = p as u16;
            if position.makes_five(me, p) && position.is_legal(p) {
                return Verdict::Win(point, 1);
            }
            if theirs < 2 && position.makes_five(me.other(), p) {
                their_fives[theirs] = point;
                theirs += 1;
            }
            if winning_four.is_none() && position.makes_winning_four(me, p) && position.is_legal(p)
            {
                winning_four = Some(point);
            }
        }
        match (theirs, winning_four) {
            (1, _) if position.is_legal(usize::from(their_fives[0])) => {
                Verdict::Forced(their_fives[0])
            }
            (1.., _) => Verdict::Loss(Some(their_fives[0])),
            (0, Some(point)) => Verdict::Win(point, 3),
            (0, None) => Verdict::Open,
        }
    }

    /// The static value of `position` for the side to move, with the level's noise.
    fn evaluate(position: &Position, budget: &Budget<'_>) -> i32 {
        let value = eval::evaluate_position(position) + budget.noise_for(position.hash());
        value.clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// Fills `moves` with the candidates for the side to move, best first.
    fn order_moves(
        &self,
        position: &Position,
        ply: usize,
        hash_move: u16,
        moves: &mut Vec<(i32, u16)>,
    ) {
        moves.clear();
        let me = position.side_to_move();
        let side = me.index() * POINTS;
        for p in position.candidates() {
            let point = p as u16;
            let mut order = position.point_value(me, p) + position.point_value(me.other(), p);
            order = order * 16 + self.history.get(side + p) / 64;
            if point == hash_move {
                order = i32::MAX;
            } else if self.killers.rank(ply, point) > 0 {
                order += 1 << 24;
            }
            moves.push((order, point));
        }
        moves.sort_unstable_by_key(|m| std::cmp::Reverse(m.0));
    }

    fn leaf(&mut self, position: &mut Position, budget: &mut Budget<'_>, ply: usize) -> i32 {
        if has_four_move(position, position.side_to_move()) {
            self.vcf_line.clear();
            self.fails.allow(LEAF_VCF_NODES);
            let mut line = std::mem::take(&mut self.vcf_line);
            let won = vcf(position, budget, &mut self.fails, LEAF_VCF_DEPTH, &mut line);
            let plies = line.len() as i32;
            self.vcf_line = line;
            if won {
                return MATE - ply as i32 - plies - 2;
            }
        }
        Self::evaluate(position, budget)
    }

    /// Negamax alpha-beta (principal variation search) to `depth` plies.
    fn alpha_beta(
        &mut self,
        position: &mut Position,
        budget: &mut Budget<'_>,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        if budget.tick() {
            return 0;
        }
        if position.is_over() {
            // The last move made five (or filled the board).
            return if position.game().outcome().is_some_and(|o| o.winner.is_some()) {
                -(MATE - ply as i32)
            } else {
                0
            };
        }
        let forced = match Self::verdict(position) {
            Verdict::Win(_, plies) => return MATE - ply as i32 - plies,
            Verdict::Loss(_) => return -(MATE - ply as i32 - 2),
            Verdict::Forced(point) => Some(point),
            Verdict::Open => None,
        };
        if ply + 1 >= MAX_PLY {
            return Self::evaluate(position, budget);
        }
        if depth <= 0 && forced.is_none() {
            return self.leaf(position, budget, ply);
        }
        let hash = position.hash();
        let mut hash_move = 0;
        if let Some(entry) = self.tt.probe(hash) {
            hash_move = entry.best;
            let score = score_from_tt(entry.score, ply as i32);
            if i32::from(entry.depth) >= depth && entry.bound.cuts(score, alpha, beta) {
                return score;
            }
        }
        // Reverse futility: a quiet node outside the principal variation, shallow, whose
        // static value is far above beta is taken to hold (the side to move has no four to
        // answer, and its shapes already count the threats it meets).
        if forced.is_none()
            && beta - alpha == 1
            && depth <= FUTILITY_DEPTH
            && beta.abs() < MATE_BOUND
        {
            let value = Self::evaluate(position, budget);
            if value - FUTILITY_MARGIN * depth >= beta {
                return value;
            }
            // Razoring: one far below alpha goes straight to the leaf's search of fours, and
            // is taken to fail low unless a win by fours turns up.
            if depth <= RAZOR_DEPTH && value + RAZOR_MARGIN * depth <= alpha {
                let leaf = self.leaf(position, budget, ply);
                if leaf <= alpha {
                    return leaf;
                }
            }
        }
        let mut moves = std::mem::take(&mut self.move_lists[ply]);
        match forced {
            Some(point) => {
                moves.clear();
                moves.push((0, point));
            }
            None => {
                self.order_moves(position, ply, hash_move, &mut moves);
                moves.truncate(WIDTH);
            }
        }
        // A forced reply does not use up depth: fours are searched to the end.
        let next_depth = if forced.is_some() { depth } else { depth - 1 };
        let (original_alpha, mut best, mut best_move) = (alpha, -MATE, 0u16);
        let mut searched = 0;
        for &(_, point) in &moves {
            let p = usize::from(point);
            if forced.is_none() && !position.is_legal(p) {
                continue;
            }
            position.play(p);
            let mut score;
            if searched == 0 {
                score = -self.alpha_beta(position, budget, next_depth, ply + 1, -beta, -alpha);
            } else {
                // Late candidates (ranked low by shape, history and killers) are searched a ply
                // shallower first; one that beats alpha is searched again in full.
                let reduction = i32::from(forced.is_none() && depth >= 3 && searched >= 3)
                    + i32::from(forced.is_none() && depth >= 5 && searched >= 8);
                score = -self.alpha_beta(
                    position,
                    budget,
                    next_depth - reduction,
                    ply + 1,
                    -alpha - 1,
                    -alpha,
                );
                if score > alpha && reduction > 0 && !budget.stopped() {
                    score =
                        -self.alpha_beta(position, budget, next_depth, ply + 1, -alpha - 1, -alpha);
                }
                if score > alpha && score < beta && !budget.stopped() {
                    score = -self.alpha_beta(position, budget, next_depth, ply + 1, -beta, -alpha);
                }
            }
            position.undo(p);
            searched += 1;
            if budget.stopped() {
                break;
            }
            if score > best {
                best = score;
                best_move = point;
            }
            if score > alpha {
                alpha = score;
            }
            if alpha >= beta {
                self.reward(position, ply, point, depth);
                break;
            }
        }
        self.move_lists[ply] = moves;
        if budget.stopped() {
            return 0;
        }
        if searched == 0 {
            return Self::evaluate(position, budget);
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(hash, best_move, score_to_tt(best, ply as i32), depth as i16, bound);
        best
    }

    /// A move that cut off: a killer at this ply and history for its point.
    fn reward(&mut self, position: &Position, ply: usize, point: u16, depth: i32) {
        self.killers.record(ply, point);
        let slot = position.side_to_move().index() * POINTS + usize::from(point);
        self.history.reward(slot, &[], depth);
    }

    /// The principal variation from the transposition table, starting with `first`.
    fn principal_variation(&self, position: &mut Position, first: u16, depth: u32) -> Vec<u16> {
        let mut played = Vec::new();
        let mut point = first;
        while played.len() < depth as usize + 1 {
            let p = usize::from(point);
            if p >= POINTS
                || !position.is_empty(p)
                || !position.board_points().contains(&point)
                || position.is_over()
            {
                break;
            }
            position.play(p);
            played.push(p);
            match self.tt.probe(position.hash()) {
                Some(entry) if entry.best != 0 => point = entry.best,
                _ => break,
            }
        }
        let pv = played.iter().map(|&p| p as u16).collect();
        for &p in played.iter().rev() {
            position.undo(p);
        }
        pv
    }

    /// The legal root candidates, best ranked first.
    fn root_moves(&self, position: &Position) -> Vec<(i32, u16)> {
        let mut moves = Vec::new();
        self.order_moves(position, 0, 0, &mut moves);
        moves.retain(|&(_, point)| position.is_legal(usize::from(point)));
        if moves.is_empty() {
            // An empty board, or renju leaving Black nothing near: the first legal point, the
            // centre when there is one.
            let size = position.game().rules().size();
            let centre = qi_rules::Cell::new(size / 2, size / 2);
            let legal = position.game().legal_moves();
            let points: Vec<qi_rules::Cell> = legal.iter().filter_map(|mv| mv.point()).collect();
            let pick = points.iter().find(|&&cell| cell == centre).or(points.first());
            if let Some(&cell) = pick {
                moves.push((0, Position::index_of(cell) as u16));
            }
        }
        moves
    }
}

/// One search: the engine and the position it searches.
struct GomokuTree<'e> {
    engine: &'e mut GomokuEngine,
    position: Position,
}

impl Tree for GomokuTree<'_> {
    type Move = u16;

    fn search_move(
        &mut self,
        budget: &mut Budget<'_>,
        point: u16,
        _index: usize,
        depth: i32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let p = usize::from(point);
        self.position.play(p);
        let score = -self.engine.alpha_beta(&mut self.position, budget, depth, 1, -beta, -alpha);
        self.position.undo(p);
        score
    }

    fn continuation(&mut self, point: u16) -> Vec<u16> {
        let mut line = self.engine.principal_variation(&mut self.position, point, 24);
        line.remove(0);
        line
    }
}

/// How close to even (in the engine's units) a swap2 position must be for the second player
/// to put two more stones rather than take a colour: near balance either colour is a gamble,
/// so the choice goes back to the first player.
const PUT_TWO_MARGIN: i32 = 40;

impl GomokuEngine {
    /// A move of the opening (see [`OpeningRule`]): a stone that keeps the game balanced while
    /// the opening stones are put, or a colour taken from a search of the position as it
    /// stands — the colour to move when the search likes its move, else the other.
    fn opening_move(
        &mut self,
        game: &Gomoku,
        budget: &mut Budget<'_>,
        on_info: &mut dyn FnMut(&SearchInfo<GomokuMove>),
    ) -> SearchResult<GomokuMove> {
        // The same stones in plain play: what the search understands.
        let mut plain: GomokuRules = *game.rules();
        plain.opening = OpeningRule::None;
        let Ok(probe) = Gomoku::from_position(&plain, &game.position()) else {
            return SearchResult::no_move(Score::Cp(0), budget);
        };
        // Taking the colour to move, the search's move for it follows in the line (a Gomocup
        // manager's `SWAP2BOARD` wants both at once).
        let mut follow = None;
        let chosen = match game.phase() {
            Phase::Choose | Phase::ChooseAgain => {
                let result = self.search_lines(&probe, budget, 1, &mut |_| {});
                follow = result.best;
                let value = score_value(result.info.score);
                let swap2_first_choice =
                    game.phase() == Phase::Choose && game.rules().opening == OpeningRule::Swap2;
                if swap2_first_choice && value.abs() < PUT_TWO_MARGIN {
                    balanced_stone(game, &probe, budget).map(GomokuMove::Stone)
                } else {
                    // The colour to move is the one whose move was searched.
                    let mover = probe.colour_to_move();
                    if value < 0 {
                        follow = None;
                    }
                    Some(GomokuMove::Take(if value >= 0 { mover } else { mover.other() }))
                }
            }
            Phase::ChooseAfterFourth => {
                // Black's fifth is the weakest of the offers White may pick from: Black's
                // value is the declared-th best fifth stone's.
                let mut keep = game.clone();
                let black = keep.apply(GomokuMove::Take(Side::First)).ok().and_then(|()| {
                    let wanted = usize::from(game.declared_offers());
                    best_offers(&keep, &probe, budget, wanted).last().map(|&(value, _)| value)
                });
                black.map(|value| {
                    GomokuMove::Take(if value >= 0 { Side::First } else { Side::Second })
                })
            }
            Phase::Declare => {
                // As many offers as bring Black's fifth stone nearest to even: White's
                // holder hands over a position either player may take.
                let mut offering = game.clone();
                let declared = offering.apply(GomokuMove::Declare(MAX_OFFERS)).is_ok()
                    && offering.apply(GomokuMove::Take(Side::First)).is_ok();
                let values = if declared {
                    best_offers(&offering, &probe, budget, usize::from(MAX_OFFERS))
                } else {
                    Vec::new()
                };
                let nearest = (1..=values.len()).min_by_key(|&n| values[n - 1].0.abs());
                let count = nearest.and_then(|n| u8::try_from(n).ok()).unwrap_or(1);
                Some(GomokuMove::Declare(count))
            }
            Phase::Offer => best_offers(game, &probe, budget, 1)
                .first()
                .map(|&(_, cell)| GomokuMove::Offer(cell)),
            Phase::Select => weakest_offer(game, &probe, budget).map(GomokuMove::Stone),
            Phase::FirstThree | Phase::Fifth | Phase::Fourth | Phase::Play => {
                self.searched_balanced_stone(game, &probe, budget).map(GomokuMove::Stone)
            }
        };
        let info = SearchInfo {
            depth: 1,
            score: Score::Cp(0),
            nodes: budget.nodes(),
            time_ms: budget.elapsed_ms(),
            pv: chosen
                .into_iter()
                .chain(follow.filter(|_| chosen.is_some_and(|m| matches!(m, GomokuMove::Take(_)))))
                .collect(),
            lines: Vec::new(),
        };
        on_info(&info);
        SearchResult { best: chosen, info }
    }
}

/// How many of the statically most even opening stones are searched.
const BALANCE_CANDIDATES: usize = 6;
/// Searched values this close to the most even one count as even too: the seed picks among
/// them, so openings vary from game to game.
const BALANCE_MARGIN: i32 = 25;

impl GomokuEngine {
    /// An opening stone chosen by search: the [statically most even](balanced_stone) few
    /// are each searched with an equal share of the budget, and the stone whose position the
    /// search finds nearest to even is put (the seed picks among near-ties). A stone that
    /// hands the chooser a won game by threats is never chosen, as a static value might.
    fn searched_balanced_stone(
        &mut self,
        game: &Gomoku,
        probe: &Gomoku,
        budget: &mut Budget<'_>,
    ) -> Option<qi_rules::Cell> {
        let mut ranked: Vec<(i32, qi_rules::Cell)> = game
            .legal_moves()
            .iter()
            .filter_map(|mv| mv.point())
            .filter(|&cell| near_play(game, cell, false))
            .filter_map(|cell| value_after(probe, cell, budget).map(|v| (v.abs(), cell)))
            .collect();
        ranked.sort_unstable_by_key(|&(value, cell)| (value, cell));
        ranked.truncate(BALANCE_CANDIDATES);
        if ranked.len() <= 1 {
            return ranked
                .first()
                .map(|&(_, cell)| cell)
                .or_else(|| balanced_stone(game, probe, budget));
        }
        let count = ranked.len();
        let mut searched = Vec::with_capacity(count);
        for (i, &(_, cell)) in ranked.iter().enumerate() {
            let mut after = probe.clone();
            if after.apply(GomokuMove::Stone(cell)).is_err() {
                continue;
            }
            // An equal share of what is left for each stone still to search.
            let mut part = budget.part(0.9 / (count - i) as f64);
            let result = self.search_lines(&after, &mut part, 1, &mut |_| {});
            budget.spent(&part);
            searched.push((score_value(result.info.score).abs(), cell));
        }
        let best = searched.iter().map(|&(value, _)| value).min()?;
        let even: Vec<qi_rules::Cell> = searched
            .iter()
            .filter(|&&(value, _)| value <= best.saturating_add(BALANCE_MARGIN))
            .map(|&(_, cell)| cell)
            .collect();
        let pick = qi_rules::zobrist::splitmix64(budget.seed ^ game.hash()) % even.len() as u64;
        even.get(pick as usize).copied()
    }
}

/// A search's score in the engine's units, proven wins and losses at the bounds.
fn score_value(score: Score) -> i32 {
    match score {
        Score::Cp(cp) => cp,
        Score::Mate(n) if n > 0 => MATE_BOUND,
        Score::Mate(_) => -MATE_BOUND,
    }
}

/// Whether `cell` is within two points of the centre (where opening stones go) or, with
/// `around_stones`, of a stone already put (where fifth stones worth offering stand).
fn near_play(game: &Gomoku, cell: qi_rules::Cell, around_stones: bool) -> bool {
    let centre = i32::from(game.rules().size() / 2);
    let (f, r) = (i32::from(cell.file), i32::from(cell.rank));
    let close = |other: qi_rules::Cell| {
        (f - i32::from(other.file)).abs() <= 2 && (r - i32::from(other.rank)).abs() <= 2
    };
    ((f - centre).abs() <= 2 && (r - centre).abs() <= 2)
        || (around_stones && game.history().iter().filter_map(|mv| mv.point()).any(close))
}

/// The static value, for the colour that put it, of a stone on `cell` in `probe` (the same
/// stones in plain play): `None` when it may not go there or ends the game.
fn value_after(probe: &Gomoku, cell: qi_rules::Cell, budget: &Budget<'_>) -> Option<i32> {
    let mut after = probe.clone();
    if after.apply(GomokuMove::Stone(cell)).is_err() || after.outcome().is_some() {
        return None;
    }
    // The value is the side to move's, the opponent of the stone's colour.
    Some(-GomokuEngine::evaluate(&Position::new(&after), budget))
}

/// An opening stone that leaves the game as even as the engine can judge: among the points
/// the opening allows near the centre, the one after which the static
/// value is closest to 0 (the level's noise breaks near-ties, so openings vary). `probe` is
/// `game`'s stones in plain play.
fn balanced_stone(game: &Gomoku, probe: &Gomoku, budget: &Budget<'_>) -> Option<qi_rules::Cell> {
    let moves = game.legal_moves();
    let mut best: Option<(i32, qi_rules::Cell)> = None;
    for cell in
        moves.iter().filter_map(|mv| mv.point()).filter(|&cell| near_play(game, cell, false))
    {
        let Some(value) = value_after(probe, cell, budget).map(i32::abs) else { continue };
        if best.is_none_or(|(v, _)| value < v) {
            best = Some((value, cell));
        }
    }
    best.map(|(_, cell)| cell).or_else(|| moves.iter().find_map(|mv| mv.point()))
}

/// Soosõrv-8: Black's `count` best fifth stones that may still be offered in `game` (in its
/// offer phase), best first, each with its static value for Black. Taken one by one, so no
/// two are mirror images of each other.
fn best_offers(
    game: &Gomoku,
    probe: &Gomoku,
    budget: &Budget<'_>,
    count: usize,
) -> Vec<(i32, qi_rules::Cell)> {
    let mut offering = game.clone();
    let mut chosen = Vec::new();
    while chosen.len() < count {
        let mut best: Option<(i32, qi_rules::Cell)> = None;
        for mv in offering.legal_moves() {
            let GomokuMove::Offer(cell) = mv else { continue };
            if !near_play(game, cell, true) {
                continue;
            }
            let Some(value) = value_after(probe, cell, budget) else { continue };
            if best.is_none_or(|(v, _)| value > v) {
                best = Some((value, cell));
            }
        }
        let Some((value, cell)) = best else { break };
        if offering.apply(GomokuMove::Offer(cell)).is_err() {
            break;
        }
        chosen.push((value, cell));
    }
    chosen
}

/// Soosõrv-8: the offered fifth stone White picks, the one worth least to Black.
fn weakest_offer(game: &Gomoku, probe: &Gomoku, budget: &Budget<'_>) -> Option<qi_rules::Cell> {
    game.offers()
        .into_iter()
        .filter_map(|cell| value_after(probe, cell, budget).map(|value| (value, cell)))
        .min_by_key(|&(value, _)| value)
        .map(|(_, cell)| cell)
        .or_else(|| game.offers().first().copied())
}

/// A victory by continuous fours for the side to move in `game`, at most `depth` fours deep,
/// within `budget` (its node limit bounds this search too): the line — the attacker's fours and
/// the defender's forced blocks in turn, ending with the attacker's winning move (a five, an
/// open four or a double four) — or `None` when none is found. Renju's forbidden points are
/// respected: Black may not four on one, and a four whose only block is forbidden to Black wins.
/// The puzzle generator's check of gomoku puzzles.
pub fn find_vcf(game: &Gomoku, depth: u32, budget: &mut Budget<'_>) -> Option<Vec<GomokuMove>> {
    if game.outcome().is_some() || game.phase() != Phase::Play {
        return None;
    }
    let mut position = Position::new(game);
    let mut cache = FailCache::new();
    cache.allow(budget.limits.nodes.unwrap_or(u64::MAX));
    let mut line = Vec::new();
    vcf(&mut position, budget, &mut cache, depth, &mut line)
        .then(|| line.into_iter().map(stone).collect())
}

/// The move at `point`.
fn stone(point: u16) -> GomokuMove {
    GomokuMove::Stone(Position::cell_of(usize::from(point)))
}

/// A result found before any search (a win by threats): one line, depth 1.
fn proven(point_line: Vec<u16>, score: i32, budget: &Budget<'_>) -> SearchResult<GomokuMove> {
    let pv: Vec<GomokuMove> = point_line.into_iter().map(stone).collect();
    let score = Score::from_internal(score);
    SearchResult {
        best: pv.first().copied(),
        info: SearchInfo {
            depth: 1,
            score,
            nodes: budget.nodes(),
            time_ms: budget.elapsed_ms(),
            pv: pv.clone(),
            lines: vec![Line { score, pv }],
        },
    }
}

impl Engine for GomokuEngine {
    type Game = Gomoku;

    fn search_lines(
        &mut self,
        game: &Gomoku,
        budget: &mut Budget<'_>,
        lines: usize,
        on_info: &mut dyn FnMut(&SearchInfo<GomokuMove>),
    ) -> SearchResult<GomokuMove> {
        if game.phase() != Phase::Play && game.outcome().is_none() {
            return self.opening_move(game, budget, on_info);
        }
        let mut position = Position::new(game);
        let mut root_moves =
            if game.outcome().is_some() { Vec::new() } else { self.root_moves(&position) };
        if root_moves.is_empty() {
            return SearchResult::no_move(Score::Cp(0), budget);
        }
        // Aged between moves; not between the slices of one search going on (a ponder).
        if !budget.limits.resumes {
            self.history.age();
        }
        // Threats decide first when one move is wanted: a five, a block, a winning four, a
        // VCF. (Several lines are searched in full: the win comes first among them.)
        if lines == 1 {
            match Self::verdict(&position) {
                Verdict::Win(point, plies) => {
                    let result = proven(vec![point], MATE - plies, budget);
                    on_info(&result.info);
                    return result;
                }
                Verdict::Loss(Some(point)) | Verdict::Forced(point) => {
                    root_moves.retain(|m| m.1 == point);
                    if root_moves.is_empty() {
                        root_moves.push((0, point));
                    }
                }
                Verdict::Loss(None) | Verdict::Open => {}
            }
            if root_moves.len() > 1 && has_four_move(&position, position.side_to_move()) {
                self.fails.clear();
                self.fails.allow(ROOT_VCF_NODES);
                let mut line = Vec::new();
                if vcf(&mut position, budget, &mut self.fails, ROOT_VCF_DEPTH, &mut line) {
                    let score = MATE - line.len() as i32 - 2;
                    let result = proven(line, score, budget);
                    on_info(&result.info);
                    return result;
                }
            }
        }
        self.fails.clear();
        let root_moves = root_moves.into_iter().map(|(_, point)| point).collect();
        let options = DriveOptions {
            lines,
            max_depth: MAX_PLY as u32 - 8,
            mate_is_proof: true,
            ..DriveOptions::default()
        };
        let mut tree = GomokuTree { engine: self, position };
        let mut report = |info: &SearchInfo<u16>| on_info(&info.clone().map(stone));
        driver::iterate(&mut tree, budget, root_moves, options, &mut report).map(stone)
    }

    fn helper(&self) -> Self {
        Self::with_table(self.tt.share())
    }

    fn new_game(&mut self) {
        self.tt.clear();
        self.history.clear();
        self.killers.clear();
        self.fails.clear();
    }
}
