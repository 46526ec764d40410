//! The search driver every game's engine shares: iterative deepening over the root moves,
//! aspiration windows, principal-variation search at the root, several best lines (MultiPV),
//! the time limits (a soft one for starting a depth, a hard one that ends it), the stop on a
//! proven mate, and progress reports. A game supplies a [`Tree`]: how to search below one root
//! move, and the line that search found. Move ordering below the root, pruning and evaluation
//! stay with the game; the ordering tools they share ([`Killers`], [`History`],
//! [`pick_best`]) are here too.
//!
//! A depth cut short by the hard limit is not thrown away: the root moves are searched best
//! first, so a move that beat the previous best at the deeper depth, or the previous best
//! confirmed at it, is better founded than the last complete depth's answer.

use std::fmt;

use crate::search::{Budget, INFINITY, MATE, MATE_BOUND, Score};

/// What a game gives the driver: the search of the tree below one root move.
pub trait Tree {
    /// A move as the engine handles it.
    type Move: Copy + Eq + std::hash::Hash + fmt::Debug;

    /// Plays root move `mv`, searches what follows `depth` more plies (the game's own pruning,
    /// extensions and quiescence) in the window `(alpha, beta)`, takes the move back, and
    /// returns the value for the side to move at the root (fail-soft: outside the window it is
    /// a bound). The driver ignores the value when the budget has stopped. `index` is the
    /// move's place in the root order (0 first): in a null window a game may search a late
    /// move shallower first, as it does below the root, and again in full if it beats `alpha`.
    fn search_move(
        &mut self,
        budget: &mut Budget<'_>,
        mv: Self::Move,
        index: usize,
        depth: i32,
        alpha: i32,
        beta: i32,
    ) -> i32;

    /// The principal variation below `mv` found by the `search_move` just made (without `mv`
    /// itself); empty when the game does not keep one.
    fn continuation(&mut self, mv: Self::Move) -> Vec<Self::Move>;
}

/// How the driver searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DriveOptions {
    /// Best lines wanted (1 for play; the analysis board asks for up to 3). Each line after the
    /// first is the best of the root moves the earlier lines do not start with.
    pub lines: usize,
    /// The deepest iteration.
    pub max_depth: u32,
    /// Aspiration windows from this depth on (below it every depth gets the full window).
    pub aspiration_from: u32,
    /// The first aspiration window's half-width, in score units.
    pub aspiration_window: i32,
    /// Whether every mate score is a proof (gomoku's come from exact threat search), so any
    /// mate ends the deepening; otherwise only a mate within the depth searched does.
    pub mate_is_proof: bool,
}

impl Default for DriveOptions {
    fn default() -> Self {
        DriveOptions {
            lines: 1,
            max_depth: 64,
            aspiration_from: 5,
            aspiration_window: 30,
            mate_is_proof: false,
        }
    }
}

/// One best line: its score and moves, the first being the root move it is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line<M> {
    /// The score for the side to move.
    pub score: Score,
    /// The moves.
    pub pv: Vec<M>,
}

/// One report of a search's progress (after each completed depth) and the last one it gives.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchInfo<M> {
    /// The depth completed.
    pub depth: u32,
    /// The best line's score.
    pub score: Score,
    /// Nodes visited so far.
    pub nodes: u64,
    /// Milliseconds since the search started.
    pub time_ms: f64,
    /// The best line's moves.
    pub pv: Vec<M>,
    /// Every line searched, best first (the first is `score` and `pv` again); one unless
    /// several were asked for.
    pub lines: Vec<Line<M>>,
}

impl<M> SearchInfo<M> {
    /// A report of nothing searched yet.
    #[must_use]
    pub fn empty(score: Score, budget: &Budget<'_>) -> SearchInfo<M> {
        SearchInfo {
            depth: 0,
            score,
            nodes: budget.nodes(),
            time_ms: budget.elapsed_ms(),
            pv: Vec::new(),
            lines: Vec::new(),
        }
    }

    /// The same report with every move turned into another type (the game's move, or text at
    /// a protocol's edge).
    #[must_use]
    pub fn map<N>(self, mut f: impl FnMut(M) -> N) -> SearchInfo<N> {
        SearchInfo {
            depth: self.depth,
            score: self.score,
            nodes: self.nodes,
            time_ms: self.time_ms,
            pv: self.pv.into_iter().map(&mut f).collect(),
            lines: self
                .lines
                .into_iter()
                .map(|line| Line {
                    score: line.score,
                    pv: line.pv.into_iter().map(&mut f).collect(),
                })
                .collect(),
        }
    }
}

impl<M: fmt::Display> SearchInfo<M> {
    /// The best line as the protocols write it: the moves' text, one space apart.
    #[must_use]
    pub fn pv_text(&self) -> String {
        let texts: Vec<String> = self.pv.iter().map(ToString::to_string).collect();
        texts.join(" ")
    }
}

/// What a search returns: the move to play and the last report.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult<M> {
    /// The move chosen; `None` when there is no legal move.
    pub best: Option<M>,
    /// The last report (for a search cut short, the moves and score it stands on).
    pub info: SearchInfo<M>,
}

impl<M> SearchResult<M> {
    /// The same result with every move turned into another type.
    #[must_use]
    pub fn map<N>(self, mut f: impl FnMut(M) -> N) -> SearchResult<N> {
        SearchResult { best: self.best.map(&mut f), info: self.info.map(f) }
    }

    /// The result of a position with no move to make, scored `score`.
    #[must_use]
    pub fn no_move(score: Score, budget: &Budget<'_>) -> SearchResult<M> {
        SearchResult { best: None, info: SearchInfo::empty(score, budget) }
    }
}

/// A root move and what the driver knows of it.
#[derive(Clone, Debug)]
struct RootMove<M> {
    mv: M,
    /// Its value in the last search that reached it (a bound for moves that did not raise alpha).
    score: i32,
    /// Its line, when it was the best of its search.
    pv: Vec<M>,
}

/// One line's search at one depth: its best move and score, and whether it got to the end.
struct LineSearch {
    /// Index (into the candidates) and score of the best move searched to the end.
    best: Option<(usize, i32)>,
    complete: bool,
}

/// Searches `root_moves` (legal, in the game's order, best first) by iterative deepening within
/// `budget`, reporting each completed depth to `on_info`. With no root move it returns at once
/// with `best: None` and a draw score (the caller knows better: see [`SearchResult::no_move`]).
/// Under a [`RootShare`](crate::search::RootShare) in the budget's limits, only that share of
/// `root_moves` is searched (and a share with none of them returns as if there were none).
pub fn iterate<T: Tree>(
    tree: &mut T,
    budget: &mut Budget<'_>,
    root_moves: Vec<T::Move>,
    options: DriveOptions,
    on_info: &mut dyn FnMut(&SearchInfo<T::Move>),
) -> SearchResult<T::Move> {
    // One legal move is played at once, unless several lines or a deeper look were asked for;
    // a share that happens to get one move of several is not forced.
    let forced = root_moves.len() == 1 && options.lines <= 1 && budget.limits.depth.is_none();
    let root_moves = match budget.limits.root_share {
        Some(share) => share.of(root_moves),
        None => root_moves,
    };
    let mut roots: Vec<RootMove<T::Move>> = root_moves
        .into_iter()
        .map(|mv| RootMove { mv, score: -INFINITY, pv: Vec::new() })
        .collect();
    let Some(first) = roots.first().map(|r| r.mv) else {
        return SearchResult::no_move(Score::Cp(0), budget);
    };
    let lines = options.lines.clamp(1, roots.len());
    let mut info = SearchInfo {
        depth: 0,
        score: Score::Cp(0),
        nodes: 0,
        time_ms: 0.0,
        pv: vec![first],
        lines: Vec::new(),
    };
    let mut best = first;
    // The score of each line at the last complete depth, for its aspiration window.
    let mut previous: Vec<i32> = Vec::new();
    let mut depth = budget.limits.from_depth.unwrap_or(1).clamp(1, options.max_depth.max(1));
    'deepening: while depth <= options.max_depth && budget.may_start_depth(depth) {
        let mut found: Vec<Line<T::Move>> = Vec::with_capacity(lines);
        let mut scores = Vec::with_capacity(lines);
        for line in 0..lines {
            let guess = previous.get(line).copied();
            let outcome = aspiration(tree, budget, &mut roots[line..], depth, guess, options);
            match outcome {
                Ok((score, index)) => {
                    // The line's best move goes to the front of the moves it was chosen from.
                    roots[line..].swap(0, index);
                    roots[line..].sort_by_key(|r| std::cmp::Reverse(r.score));
                    let root = &roots[line];
                    let mut pv = vec![root.mv];
                    pv.extend(root.pv.iter().copied());
                    found.push(Line { score: Score::from_internal(score), pv });
                    scores.push(score);
                }
                Err(proven) => {
                    // Cut short: the first line keeps a move the deeper search has proven, and
                    // the report of the last complete depth (its lines led by that move).
                    if line == 0
                        && let Some(index) = proven
                        && roots[index].mv != best
                    {
                        let root = &roots[index];
                        best = root.mv;
                        info.pv = vec![root.mv];
                        info.pv.extend(root.pv.iter().copied());
                        lead_with(&mut info.lines, &info.pv);
                    }
                    break 'deepening;
                }
            }
        }
        best = roots[0].mv;
        previous = scores;
        info = SearchInfo {
            depth,
            score: found[0].score,
            nodes: budget.nodes(),
            time_ms: budget.elapsed_ms(),
            pv: found[0].pv.clone(),
            lines: found,
        };
        on_info(&info);
        let score = previous[0];
        // A mate found within this depth will not get shorter by searching deeper.
        let mate_proven = score.abs() >= MATE_BOUND
            && (options.mate_is_proof || (MATE - score.abs()) < depth as i32);
        if forced || mate_proven {
            break;
        }
        depth += 1;
    }
    info.nodes = budget.nodes();
    info.time_ms = budget.elapsed_ms();
    if info.lines.is_empty() {
        info.lines = vec![Line { score: info.score, pv: info.pv.clone() }];
    }
    SearchResult { best: Some(best), info }
}

/// Puts the line of `pv` first among `lines` (a report of several lines), keeping their number
/// and each move once: the line of the same move goes, or else the last line, and the new first
/// line has the old first line's score (its move was proven at least as good).
fn lead_with<M: Copy + PartialEq>(lines: &mut Vec<Line<M>>, pv: &[M]) {
    let Some(&first) = pv.first() else { return };
    let Some(score) = lines.first().map(|leader| leader.score) else { return };
    match lines.iter().position(|line| line.pv.first() == Some(&first)) {
        Some(at) => {
            lines.remove(at);
        }
        None => {
            lines.pop();
        }
    }
    lines.insert(0, Line { score, pv: pv.to_vec() });
}

/// One line at one depth in a window around `guess`, widened until the score falls inside.
/// Returns the score and the index of the best move; when the budget runs out first, the index
/// of a move this depth has proven better than the window's floor, if any (the first searched
/// move's deeper score, a move that beat it, or one that failed high).
fn aspiration<T: Tree>(
    tree: &mut T,
    budget: &mut Budget<'_>,
    roots: &mut [RootMove<T::Move>],
    depth: u32,
    guess: Option<i32>,
    options: DriveOptions,
) -> Result<(i32, usize), Option<usize>> {
    let mut delta = options.aspiration_window;
    let (mut alpha, mut beta) = match guess {
        Some(g) if depth >= options.aspiration_from && g.abs() < MATE_BOUND => {
            ((g - delta).max(-INFINITY), (g + delta).min(INFINITY))
        }
        _ => (-INFINITY, INFINITY),
    };
    let mut failed_high = None;
    loop {
        let search = root_search(tree, budget, roots, depth as i32, alpha, beta);
        if !search.complete {
            return Err(match search.best {
                Some((index, score)) if score > alpha => Some(index),
                _ => failed_high,
            });
        }
        let (index, score) = search.best.unwrap_or((0, alpha));
        if score <= alpha && alpha > -INFINITY {
            alpha = (score - delta).max(-INFINITY);
            failed_high = None;
        } else if score >= beta && beta < INFINITY {
            beta = (score + delta).min(INFINITY);
            // The move that failed high goes first in the wider search.
            roots.swap(0, index);
            failed_high = Some(0);
        } else {
            return Ok((score, index));
        }
        delta = delta.saturating_mul(2);
        if delta > 1000 {
            (alpha, beta) = (-INFINITY, INFINITY);
        }
    }
}

/// Principal-variation search over `roots` in `(alpha, beta)`: the first move with the whole
/// window, the others with a null window first. Each move's `score` is set; the best one
/// found keeps its line.
fn root_search<T: Tree>(
    tree: &mut T,
    budget: &mut Budget<'_>,
    roots: &mut [RootMove<T::Move>],
    depth: i32,
    mut alpha: i32,
    beta: i32,
) -> LineSearch {
    let mut best: Option<(usize, i32)> = None;
    for root in roots.iter_mut() {
        root.score = -INFINITY;
    }
    for (index, root) in roots.iter_mut().enumerate() {
        let mv = root.mv;
        let mut score = if index == 0 {
            tree.search_move(budget, mv, index, depth - 1, alpha, beta)
        } else {
            tree.search_move(budget, mv, index, depth - 1, alpha, alpha + 1)
        };
        if index > 0 && score > alpha && score < beta && !budget.stopped() {
            score = tree.search_move(budget, mv, index, depth - 1, alpha, beta);
        }
        if budget.stopped() {
            return LineSearch { best, complete: false };
        }
        root.score = score;
        if best.is_none_or(|(_, b)| score > b) {
            best = Some((index, score));
            if score > alpha {
                root.pv = tree.continuation(mv);
                alpha = score;
                if score >= beta {
                    break;
                }
            }
        }
    }
    LineSearch { best, complete: true }
}

/// Two killer moves per ply: quiet moves that refuted a sibling, tried early.
pub struct Killers<M: Copy + Eq, const PLIES: usize> {
    slots: [[Option<M>; 2]; PLIES],
}

impl<M: Copy + Eq, const PLIES: usize> Default for Killers<M, PLIES> {
    fn default() -> Self {
        Killers { slots: [[None; 2]; PLIES] }
    }
}

impl<M: Copy + Eq, const PLIES: usize> Killers<M, PLIES> {
    /// Remembers `mv` as the newest killer at `ply`.
    #[inline]
    pub fn record(&mut self, ply: usize, mv: M) {
        let slot = &mut self.slots[ply];
        if slot[0] != Some(mv) {
            slot[1] = slot[0];
            slot[0] = Some(mv);
        }
    }

    /// 2 for the newest killer at `ply`, 1 for the older, 0 otherwise.
    #[inline]
    #[must_use]
    pub fn rank(&self, ply: usize, mv: M) -> i32 {
        let slot = &self.slots[ply];
        if slot[0] == Some(mv) {
            2
        } else if slot[1] == Some(mv) {
            1
        } else {
            0
        }
    }

    /// Forgets every killer (a new search).
    pub fn clear(&mut self) {
        self.slots = [[None; 2]; PLIES];
    }
}

/// The history heuristic: a score per move key (the game chooses the key: piece and square,
/// from and to) that grows when the move refutes a position and shrinks when a move tried
/// before a refutation did not. Updates are "gravity" updates, so scores stay within
/// ±[`History::LIMIT`] without periodic halving.
pub struct History {
    scores: Vec<i32>,
}

impl History {
    /// The bound of every score.
    pub const LIMIT: i32 = 16_384;

    /// A table of `size` keys, all zero.
    #[must_use]
    pub fn new(size: usize) -> History {
        History { scores: vec![0; size] }
    }

    /// The score of `key`.
    #[inline]
    #[must_use]
    pub fn get(&self, key: usize) -> i32 {
        self.scores[key]
    }

    /// Moves `key`'s score towards `bonus`'s sign, the less the closer it already is.
    #[inline]
    pub fn update(&mut self, key: usize, bonus: i32) {
        let bonus = bonus.clamp(-Self::LIMIT, Self::LIMIT);
        let slot = &mut self.scores[key];
        *slot += bonus - *slot * bonus.abs() / Self::LIMIT;
    }

    /// A refutation at `depth`: `refuting` gains, the quiet moves `tried` before it lose.
    pub fn reward(&mut self, refuting: usize, tried: &[usize], depth: i32) {
        let bonus = (depth * depth * 32).min(Self::LIMIT / 2);
        self.update(refuting, bonus);
        for &key in tried {
            self.update(key, -bonus);
        }
    }

    /// Shrinks every score (between moves of a game: old lessons count less).
    pub fn age(&mut self) {
        for score in &mut self.scores {
            *score /= 8;
        }
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.scores.fill(0);
    }
}

/// Whether the side to move's static evaluation got better since its last move: `static_evals`
/// holds the line's evaluations by ply (`not_evaluated` where the side was in check), and the
/// one at `ply` is compared with the last one evaluated two or four plies up. With nothing to
/// compare, it counts as improving; in check it is not.
#[must_use]
pub fn improving(static_evals: &[i32], ply: usize, in_check: bool, not_evaluated: i32) -> bool {
    let earlier = [2, 4]
        .into_iter()
        .filter(|&back| ply >= back)
        .map(|back| static_evals[ply - back])
        .find(|&e| e != not_evaluated);
    !in_check && earlier.is_none_or(|e| static_evals[ply] > e)
}

/// Brings the best-scored of `moves[index..]` to `index` (a selection sort's step: cut-offs come
/// early, so most lists are never sorted to the end) and returns it.
#[inline]
pub fn pick_best<M: Copy>(moves: &mut [M], scores: &mut [i32], index: usize) -> M {
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

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use super::*;
    use crate::search::Limits;

    /// A made-up game tree: a root move's value is fixed, found only from a given depth on
    /// (before that it looks like `shallow`), and each search costs nodes.
    struct Scripted {
        moves: Vec<(u8, i32, i32, u32)>,
        nodes_per_search: u64,
    }

    impl Tree for Scripted {
        type Move = u8;

        fn search_move(
            &mut self,
            budget: &mut Budget<'_>,
            mv: u8,
            _index: usize,
            depth: i32,
            _alpha: i32,
            _beta: i32,
        ) -> i32 {
            for _ in 0..self.nodes_per_search {
                if budget.tick() {
                    return 0;
                }
            }
            let &(_, deep, shallow, from) = self.moves.iter().find(|m| m.0 == mv).unwrap();
            if depth + 1 >= from as i32 { deep } else { shallow }
        }

        fn continuation(&mut self, mv: u8) -> Vec<u8> {
            vec![mv + 100]
        }
    }

    fn run(tree: &mut Scripted, limits: Limits, lines: usize) -> SearchResult<u8> {
        let stop = AtomicBool::new(false);
        let clock = || 0.0;
        let mut budget = Budget::new(limits, &clock, &stop);
        let moves = tree.moves.iter().map(|m| m.0).collect();
        let options = DriveOptions { lines, max_depth: 20, ..DriveOptions::default() };
        iterate(tree, &mut budget, moves, options, &mut |_| {})
    }

    #[test]
    fn lines_come_best_first_with_their_own_scores() {
        let mut tree = Scripted {
            moves: vec![(1, 10, 10, 0), (2, 50, 50, 0), (3, -20, -20, 0), (4, 30, 30, 0)],
            nodes_per_search: 1,
        };
        let result = run(&mut tree, Limits { depth: Some(4), ..Limits::default() }, 3);
        assert_eq!(result.best, Some(2));
        let lines: Vec<(u8, Score)> =
            result.info.lines.iter().map(|l| (l.pv[0], l.score)).collect();
        assert_eq!(lines, vec![(2, Score::Cp(50)), (4, Score::Cp(30)), (1, Score::Cp(10))]);
        assert_eq!(result.info.lines[0].pv, vec![2, 102]);
        assert_eq!(result.info.pv, result.info.lines[0].pv);
        assert_eq!(result.info.depth, 4);
    }

    #[test]
    fn a_proven_mate_stops_the_deepening() {
        // Move 2 mates in 2 moves (3 plies): found at depth 3, no deeper search follows.
        let mut tree =
            Scripted { moves: vec![(1, 0, 0, 0), (2, MATE - 3, 0, 3)], nodes_per_search: 1 };
        let mut depths = Vec::new();
        let stop = AtomicBool::new(false);
        let clock = || 0.0;
        let mut budget = Budget::new(Limits::default(), &clock, &stop);
        let result =
            iterate(&mut tree, &mut budget, vec![1, 2], DriveOptions::default(), &mut |i| {
                depths.push(i.depth);
            });
        assert_eq!(result.best, Some(2));
        assert_eq!(result.info.score, Score::Mate(2));
        assert_eq!(depths, vec![1, 2, 3, 4]);
    }

    #[test]
    fn a_deeper_find_in_a_depth_cut_short_is_played() {
        // Move 2 shows its worth from depth 6. Every search costs 100 nodes. After depth 5 the
        // order is 1, 3, 2 (by score); depth 6 searches 1 and 3, then 2 fails high over the
        // aspiration window (300 nodes in) and is searched first again with a wider one. A node
        // limit inside that re-search ends depth 6 there: move 2 has been proven better.
        let mut tree = Scripted {
            moves: vec![(1, 0, 0, 0), (2, 300, -10, 6), (3, -5, -5, 0)],
            nodes_per_search: 100,
        };
        let full = run(&mut tree, Limits { depth: Some(6), ..Limits::default() }, 1);
        assert_eq!(full.best, Some(2));
        let five = run(&mut tree, Limits { depth: Some(5), ..Limits::default() }, 1);
        assert_eq!(five.best, Some(1));
        let limit = |extra| Limits { nodes: Some(five.info.nodes + extra), ..Limits::default() };
        let cut = run(&mut tree, limit(350), 1);
        assert_eq!(cut.best, Some(2), "{cut:?}");
        assert_eq!(cut.info.depth, 5, "the report is of the last complete depth");
        assert_eq!(cut.info.pv.first(), Some(&2), "and its line begins with the move played");
        assert_eq!(cut.info.lines[0].pv.first(), Some(&2), "{cut:?}");
        // Cut before move 2 was searched at depth 6: nothing new is proven.
        let early = run(&mut tree, limit(150), 1);
        assert_eq!(early.best, Some(1), "{early:?}");
        // With two lines the first line's search is the same: move 2 leads the report, once.
        let five = run(&mut tree, Limits { depth: Some(5), ..Limits::default() }, 2);
        let cut =
            run(&mut tree, Limits { nodes: Some(five.info.nodes + 350), ..Limits::default() }, 2);
        assert_eq!(cut.best, Some(2), "{cut:?}");
        let firsts: Vec<u8> =
            cut.info.lines.iter().filter_map(|line| line.pv.first().copied()).collect();
        assert_eq!(firsts, [2, 1], "{cut:?}");
    }

    #[test]
    fn a_proven_move_leads_the_lines_each_move_once() {
        let line = |score: i32, pv: &[u8]| Line { score: Score::Cp(score), pv: pv.to_vec() };
        let mut lines = vec![line(10, &[1, 7]), line(5, &[2, 8]), line(0, &[3])];
        lead_with(&mut lines, &[2, 9]);
        assert_eq!(lines, [line(10, &[2, 9]), line(10, &[1, 7]), line(0, &[3])]);
        lead_with(&mut lines, &[4]);
        assert_eq!(lines, [line(10, &[4]), line(10, &[2, 9]), line(10, &[1, 7])]);
        let mut none: Vec<Line<u8>> = Vec::new();
        lead_with(&mut none, &[4]);
        assert!(none.is_empty());
    }

    #[test]
    fn one_legal_move_is_answered_after_one_depth() {
        let mut tree = Scripted { moves: vec![(7, 0, 0, 0)], nodes_per_search: 1 };
        let result = run(&mut tree, Limits::default(), 1);
        assert_eq!(result.best, Some(7));
        assert_eq!(result.info.depth, 1);
    }

    #[test]
    fn killers_and_history_remember_refutations() {
        let mut killers: Killers<u16, 4> = Killers::default();
        killers.record(1, 5);
        killers.record(1, 9);
        killers.record(1, 9);
        assert_eq!((killers.rank(1, 9), killers.rank(1, 5), killers.rank(1, 3)), (2, 1, 0));
        assert_eq!(killers.rank(2, 9), 0);
        let mut history = History::new(8);
        for _ in 0..1000 {
            history.reward(3, &[4, 5], 20);
        }
        assert!(history.get(3) > 0 && history.get(3) <= History::LIMIT);
        assert!(history.get(4) < 0 && history.get(4) >= -History::LIMIT);
        history.age();
        assert!(history.get(3) <= History::LIMIT / 8);
        let mut moves = [1, 2, 3];
        let mut scores = [5, 9, 7];
        assert_eq!(pick_best(&mut moves, &mut scores, 0), 2);
        assert_eq!(pick_best(&mut moves, &mut scores, 1), 3);
    }
}
