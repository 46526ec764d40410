//! What every game's search shares: limits, the budget that enforces them, scores, and a
//! transposition table. The iterative deepening over them is [`crate::driver`].

use std::marker::PhantomData;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// How much a search may do. Every limit given is respected; none given means "until stopped".
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Limits {
    /// Milliseconds of thinking at most: the hard limit, which ends a search wherever it is.
    pub time_ms: Option<f64>,
    /// Milliseconds after which no new depth is started (the soft limit). `None` uses the whole
    /// of `time_ms`: a depth under way when it runs out still gives what it proved.
    pub soft_time_ms: Option<f64>,
    /// Nodes (positions visited).
    pub nodes: Option<u64>,
    /// Plies of iterative deepening.
    pub depth: Option<u32>,
    /// The first depth iterative deepening searches (`None`: 1). For a search that goes on
    /// from an earlier one of the same position whose shallower depths are in the engine's
    /// table (the slices of a ponder), so it spends its nodes deeper, and for helper threads,
    /// which start at staggered depths.
    pub from_depth: Option<u32>,
    /// Whether this search goes on from the engine's previous one, of the same position (the
    /// slices of a ponder after the first). A new search shrinks the engine's history scores
    /// first (old lessons count less, see [`History::age`](crate::driver::History::age)); one
    /// that goes on keeps them.
    pub resumes: bool,
    /// Searches only this share of the root moves (`None`: all of them). Several workers each
    /// searching one share of the same position, their answers compared, is how the browser
    /// uses several cores (see [`RootShare`]).
    pub root_share: Option<RootShare>,
}

/// One of `parts` disjoint shares of a position's root moves, which together are all of them.
///
/// The shares must not depend on what a worker's engine has learnt (its table orders the root
/// moves, and each worker has its own), so a move's share comes from the move itself: the moves
/// are ranked by a fixed hash of the move, and share `part` takes every `parts`-th of them from
/// rank `part`. Each share is within one move of the same size, and the good moves fall into
/// the shares at random rather than all into the first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RootShare {
    part: u8,
    parts: u8,
}

impl RootShare {
    /// The most shares a position is split into.
    pub const MOST_PARTS: u8 = 16;

    /// Share `part` (from 0) of `parts` (clamped to 1..=[`MOST_PARTS`](RootShare::MOST_PARTS));
    /// `None` when `part` is not one of them.
    #[must_use]
    pub fn new(part: u8, parts: u8) -> Option<RootShare> {
        let parts = parts.clamp(1, Self::MOST_PARTS);
        (part < parts).then_some(RootShare { part, parts })
    }

    /// Which share this is (from 0).
    #[must_use]
    pub fn part(self) -> u8 {
        self.part
    }

    /// How many shares there are.
    #[must_use]
    pub fn parts(self) -> u8 {
        self.parts
    }

    /// The moves of `moves` in this share, in their order.
    #[must_use]
    pub fn of<M: std::hash::Hash>(self, moves: Vec<M>) -> Vec<M> {
        if self.parts <= 1 {
            return moves;
        }
        // `DefaultHasher::new` hashes alike in every instance of one build, and the workers
        // run the same build.
        let key = |mv: &M| {
            use std::hash::Hasher;
            let mut hasher = std::hash::DefaultHasher::new();
            mv.hash(&mut hasher);
            hasher.finish()
        };
        let mut ranked: Vec<(u64, usize)> =
            moves.iter().enumerate().map(|(index, mv)| (key(mv), index)).collect();
        ranked.sort_unstable();
        let mut mine = vec![false; moves.len()];
        for (rank, &(_, index)) in ranked.iter().enumerate() {
            mine[index] = rank % usize::from(self.parts) == usize::from(self.part);
        }
        moves.into_iter().zip(mine).filter_map(|(mv, mine)| mine.then_some(mv)).collect()
    }
}

/// A score from the side to move's point of view. Scores order as the side to move prefers
/// them: a loss (the sooner the worse), then centipawns, then a win (the sooner the better).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// In centipawns (chess, xiangqi) or the game's own units (gomoku, banqi: a pawn is 100).
    Cp(i32),
    /// A forced win (positive) or loss (negative) in this many moves (not plies) for the side to move.
    Mate(i32),
}

impl Score {
    /// The score for an internal search value (`MATE - ply` style for mates).
    #[must_use]
    pub fn from_internal(value: i32) -> Score {
        if value >= MATE_BOUND {
            Score::Mate((MATE - value + 1) / 2)
        } else if value <= -MATE_BOUND {
            Score::Mate(-((MATE + value + 1) / 2))
        } else {
            Score::Cp(value)
        }
    }

    /// The internal search value this score stands for (a mate in `n` moves as the nearest
    /// such value): what orders scores.
    #[must_use]
    pub fn to_internal(self) -> i32 {
        match self {
            Score::Cp(cp) => cp.clamp(-MATE_BOUND + 1, MATE_BOUND - 1),
            Score::Mate(n) if n > 0 => MATE - (2 * n.min(MATE_BOUND) - 1),
            Score::Mate(n) => -MATE + 2 * n.unsigned_abs().min(MATE_BOUND as u32) as i32,
        }
    }
}

impl Ord for Score {
    fn cmp(&self, other: &Score) -> std::cmp::Ordering {
        self.to_internal().cmp(&other.to_internal())
    }
}

impl PartialOrd for Score {
    fn partial_cmp(&self, other: &Score) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// Scores at or beyond this are wins found by search (`MATE - plies`).
pub const MATE: i32 = 1_000_000;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - 1000;

/// Beyond every score.
pub const INFINITY: i32 = MATE + 1;

/// The clock, the stop signal, the limits and the level's noise of one search. Engines call
/// [`Budget::out_of_time`] every so often and stop when it says so.
pub struct Budget<'a> {
    /// The limits.
    pub limits: Limits,
    /// Random evaluation noise for weaker levels, in score units (0 for full strength).
    pub noise: i32,
    /// Seed for the noise and any other random choice, so a search can be replayed.
    pub seed: u64,
    now: &'a dyn Fn() -> f64,
    stop: &'a AtomicBool,
    started: f64,
    nodes: u64,
    stopped: bool,
}

impl<'a> Budget<'a> {
    /// A budget starting now. `now` gives milliseconds (the browser's `performance.now`, or
    /// [`native_clock`]); `stop` may be set from elsewhere (another thread) to end the search.
    pub fn new(limits: Limits, now: &'a dyn Fn() -> f64, stop: &'a AtomicBool) -> Budget<'a> {
        Budget { limits, noise: 0, seed: 0, now, stop, started: now(), nodes: 0, stopped: false }
    }

    /// Counts one node (none once stopped). Returns `true` when the search must stop now (time, nodes or the stop
    /// signal); checks the clock only every 1024 nodes, so calling it at every node is cheap.
    #[inline]
    pub fn tick(&mut self) -> bool {
        // A stopped search visits no more nodes: the count stays within a node limit.
        if self.stopped {
            return true;
        }
        self.nodes += 1;
        if self.limits.nodes.is_some_and(|max| self.nodes >= max) {
            self.stopped = true;
        } else if self.nodes.is_multiple_of(1024) {
            self.stopped = self.stop.load(Ordering::Relaxed)
                || self.limits.time_ms.is_some_and(|max| self.elapsed_ms() >= max);
        }
        self.stopped
    }

    /// Whether the search has been told to stop (by any limit or the signal).
    #[must_use]
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// Whether another depth is worth starting: not stopped, depth left, and the soft time limit
    /// not reached (the hard limit still ends the depth wherever it is).
    #[must_use]
    pub fn may_start_depth(&mut self, depth: u32) -> bool {
        if self.stopped || self.stop.load(Ordering::Relaxed) {
            self.stopped = true;
            return false;
        }
        if self.limits.depth.is_some_and(|max| depth > max) {
            return false;
        }
        let soft = self.limits.soft_time_ms.or(self.limits.time_ms);
        if soft.is_some_and(|soft| self.elapsed_ms() >= soft) {
            return false;
        }
        // With a hard limit, a depth that has almost no time left is not started (it could
        // prove nothing), so the answer comes as soon as it is known.
        !self.limits.time_ms.is_some_and(|max| self.elapsed_ms() >= max * 0.98)
    }

    /// Nodes visited.
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// A budget for a part of this search: `share` of what is left of the time (of the soft
    /// limit, where there is one: the time a move normally takes) and of the nodes (the depth
    /// limit kept), with the same clock, stop signal, noise and seed. Its nodes are counted
    /// here with [`Budget::spent`]. Without a time or node limit the part has none either
    /// (the stop signal still ends it). A part [resumes](Limits::resumes): it is not a new
    /// search, so the history is not aged again for it.
    #[must_use]
    pub fn part(&self, share: f64) -> Budget<'a> {
        let time_left = self.limits.soft_time_ms.or(self.limits.time_ms);
        let time = time_left.map(|t| ((t - self.elapsed_ms()) * share).max(1.0));
        let nodes = self.limits.nodes.map(|n| (n.saturating_sub(self.nodes) as f64 * share) as u64);
        let limits = Limits {
            time_ms: time,
            nodes,
            depth: self.limits.depth,
            resumes: true,
            ..Limits::default()
        };
        Budget { noise: self.noise, seed: self.seed, ..Budget::new(limits, self.now, self.stop) }
    }

    /// Counts the nodes a [part](Budget::part) of the search visited.
    pub fn spent(&mut self, part: &Budget<'_>) {
        self.nodes += part.nodes;
    }

    /// Milliseconds since the start.
    #[must_use]
    pub fn elapsed_ms(&self) -> f64 {
        (self.now)() - self.started
    }

    /// Noise for the position with hash `key`: the same position always gets the same noise in
    /// one search, so the tree stays consistent; zero at full strength.
    #[must_use]
    #[inline]
    pub fn noise_for(&self, key: u64) -> i32 {
        if self.noise == 0 {
            return 0;
        }
        let mixed = qi_rules::zobrist::splitmix64(key ^ self.seed);
        let span = u64::from(self.noise.unsigned_abs()) * 2 + 1;
        (mixed % span) as i32 - self.noise
    }
}

/// A millisecond clock for native builds (the browser passes `performance.now` instead).
#[cfg(not(target_arch = "wasm32"))]
pub fn native_clock() -> impl Fn() -> f64 {
    let start = std::time::Instant::now();
    move || start.elapsed().as_secs_f64() * 1000.0
}

/// Runs `search` under time limits from 20 ms to 500 ms on a clock that moves 1 ms each time it is
/// read, and asserts each search's counted nodes stayed within 10% of its limit. The budget
/// reads the clock once every 1024 nodes (and a few times per iteration), so 1024 nodes stand
/// for a millisecond: the test shows the engine heeds its budget (stops when `tick` says so,
/// does not start an iteration it cannot finish), and it cannot fail because the machine was
/// busy. It cannot see work the engine does without counting nodes, nor a slow machine: those
/// are what the benchmarks measure. At least one limit must fall inside an iteration (the
/// search is cut short rather than declining to start the next depth), so the mid-iteration
/// stop is tested too. Returns the result under the longest limit.
#[cfg(test)]
pub(crate) fn assert_keeps_a_time_limit(
    mut search: impl FnMut(&mut Budget<'_>) -> crate::driver::SearchResult<String>,
) -> crate::driver::SearchResult<String> {
    let mut cut_short = 0;
    let mut last = None;
    for limit in [20_u64, 50, 100, 200, 500] {
        let readings = std::cell::Cell::new(0.0_f64);
        let clock = || {
            let now = readings.get();
            readings.set(now + 1.0);
            now
        };
        let stop = AtomicBool::new(false);
        let limits = Limits { time_ms: Some(limit as f64), ..Limits::default() };
        let mut budget = Budget::new(limits, &clock, &stop);
        let result = search(&mut budget);
        let work_ms = budget.nodes() as f64 / 1024.0;
        assert!(work_ms <= limit as f64 * 1.1, "{} nodes for {limit} ms", budget.nodes());
        cut_short += usize::from(budget.stopped());
        last = Some(result);
    }
    assert!(cut_short > 0, "no limit fell inside an iteration");
    last.expect("five searches")
}

/// What a transposition-table score is: exact, or a bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Bound {
    /// No entry.
    #[default]
    None,
    /// The exact score.
    Exact,
    /// At least this (a beta cut-off).
    Lower,
    /// At most this (no move raised alpha).
    Upper,
}

impl Bound {
    /// Whether a stored `score` of this kind settles a search in the window `alpha..beta`:
    /// exact, at least beta, or at most alpha.
    #[must_use]
    #[inline]
    pub fn cuts(self, score: i32, alpha: i32, beta: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
            Bound::None => false,
        }
    }
}

/// A move small enough for a table entry: 16 bits, 0 being "no move".
pub trait TableMove: Copy + Default {
    /// The move as 16 bits.
    fn to_bits(self) -> u16;
    /// The move back from [`TableMove::to_bits`].
    fn from_bits(bits: u16) -> Self;
}

impl TableMove for u16 {
    #[inline]
    fn to_bits(self) -> u16 {
        self
    }

    #[inline]
    fn from_bits(bits: u16) -> u16 {
        bits
    }
}

/// One remembered position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Entry<M: Copy + Default> {
    /// The position's hash.
    pub key: u64,
    /// The best (or refuting) move found.
    pub best: M,
    /// The score.
    pub score: i32,
    /// The depth it was searched to.
    pub depth: i16,
    /// What the score is.
    pub bound: Bound,
}

/// One slot of a [`TranspositionTable`]: an entry's data in one word and its key mixed with the
/// data in the other ("lockless hashing", Hyatt and Mann). Threads sharing a table read and
/// write the two words without a lock; a slot two of them wrote at once has a key that matches
/// neither position, and is read as empty.
#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// Scores are kept in 30 bits (mates are about a million).
const SCORE_BITS: u32 = 30;

impl Bound {
    fn to_bits(self) -> u64 {
        match self {
            Bound::None => 0,
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        }
    }

    fn from_bits(bits: u64) -> Bound {
        match bits & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => Bound::None,
        }
    }
}

/// An entry's data word: the move in bits 0-15, the depth in 16-31, the score in 32-61, the
/// bound in 62-63.
fn pack_entry(best: u16, score: i32, depth: i16, bound: Bound) -> u64 {
    let score_field = u64::from(score as u32 & ((1 << SCORE_BITS) - 1));
    u64::from(best)
        | u64::from(depth as u16) << 16
        | score_field << 32
        | bound.to_bits() << (32 + SCORE_BITS)
}

fn unpack_entry<M: TableMove>(key: u64, data: u64) -> Entry<M> {
    let score_field = (data >> 32) as u32;
    // Sign-extend the 30-bit score.
    let score = ((score_field << (32 - SCORE_BITS)) as i32) >> (32 - SCORE_BITS);
    Entry {
        key,
        best: M::from_bits(data as u16),
        score,
        depth: (data >> 16) as u16 as i16,
        bound: Bound::from_bits(data >> (32 + SCORE_BITS)),
    }
}

/// A transposition table: positions by hash, replaced when the new search is at least as deep.
///
/// Several searches may share one table ([`TranspositionTable::share`]), one per thread: that
/// is how threads help each other (each finds in the table what the others have searched).
/// Alone, a search reads and writes it as plain memory (relaxed atomics compile to ordinary
/// loads and stores).
pub struct TranspositionTable<M: TableMove> {
    slots: Arc<[Slot]>,
    mask: usize,
    moves: PhantomData<fn() -> M>,
}

impl<M: TableMove> TranspositionTable<M> {
    /// The bytes one entry takes.
    pub const ENTRY_BYTES: usize = size_of::<Slot>();

    /// A table of `2^bits` entries (at most `2^26`).
    #[must_use]
    pub fn new(bits: u32) -> Self {
        let size = 1usize << bits.min(26);
        let slots: Arc<[Slot]> = (0..size).map(|_| Slot::default()).collect();
        TranspositionTable { slots, mask: size - 1, moves: PhantomData }
    }

    /// Another handle on the same entries, for a search in another thread.
    #[must_use]
    pub fn share(&self) -> Self {
        TranspositionTable { slots: Arc::clone(&self.slots), mask: self.mask, moves: PhantomData }
    }

    /// Which entries this handle reads: the same number for handles sharing them.
    #[cfg(test)]
    pub(crate) fn id(&self) -> usize {
        self.slots.as_ptr() as usize
    }

    /// The entry for `key`, if it is there.
    #[must_use]
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry<M>> {
        let slot = &self.slots[(key as usize) & self.mask];
        let data = slot.data.load(Ordering::Relaxed);
        let check = slot.check.load(Ordering::Relaxed);
        if check ^ data != key {
            return None;
        }
        let entry = unpack_entry(key, data);
        (entry.bound != Bound::None).then_some(entry)
    }

    /// Remembers a search result.
    #[inline]
    pub fn store(&self, key: u64, best: M, score: i32, depth: i16, bound: Bound) {
        let slot = &self.slots[(key as usize) & self.mask];
        let old_data = slot.data.load(Ordering::Relaxed);
        let old_key = slot.check.load(Ordering::Relaxed) ^ old_data;
        let old_depth = (old_data >> 16) as u16 as i16;
        let old_bound = Bound::from_bits(old_data >> (32 + SCORE_BITS));
        if old_bound == Bound::None || old_key != key || depth >= old_depth || bound == Bound::Exact
        {
            let data = pack_entry(best.to_bits(), score, depth, bound);
            slot.data.store(data, Ordering::Relaxed);
            slot.check.store(key ^ data, Ordering::Relaxed);
        }
    }

    /// Forgets everything (a new game), for every search sharing the table.
    pub fn clear(&mut self) {
        for slot in self.slots.iter() {
            slot.data.store(0, Ordering::Relaxed);
            slot.check.store(0, Ordering::Relaxed);
        }
    }
}

/// Late-move reductions by depth and move number, worked out once from an engine's formula.
///
/// The formulas take logarithms, and in the browser `ln` is a software routine (WebAssembly
/// has no instruction for it): computed at every move it took 1.4% of the worker's time in a
/// chess search (0.9% natively). Inside the table (depths below 100, move numbers below 256)
/// the answer is the formula's, exactly; outside it the formula is asked.
pub struct ReductionTable {
    formula: fn(i32, i32) -> i32,
    cells: Box<[u8]>,
}

impl ReductionTable {
    const DEPTHS: usize = 100;
    const MOVES: usize = 256;

    /// The table of `formula(depth, move_number)` for depths and move numbers from 0.
    ///
    /// # Panics
    /// If the formula gives a reduction outside 0..=255 inside the table (a formula a
    /// search would not use).
    #[must_use]
    pub fn new(formula: fn(i32, i32) -> i32) -> Self {
        let cells = (0..Self::DEPTHS * Self::MOVES)
            .map(|cell| {
                let (depth, number) = (cell / Self::MOVES, cell % Self::MOVES);
                let r = formula(depth as i32, number as i32);
                u8::try_from(r).expect("a late-move reduction between 0 and 255")
            })
            .collect();
        ReductionTable { formula, cells }
    }

    /// The reduction for the `number`-th move at `depth` (what the formula gives).
    #[must_use]
    #[inline]
    pub fn get(&self, depth: i32, number: i32) -> i32 {
        match (usize::try_from(depth), usize::try_from(number)) {
            (Ok(d), Ok(n)) if d < Self::DEPTHS && n < Self::MOVES => {
                i32::from(self.cells[d * Self::MOVES + n])
            }
            _ => (self.formula)(depth, number),
        }
    }
}

/// Mate scores are stored relative to the node, so they stay right when the same position is
/// reached at another ply.
#[must_use]
#[inline]
pub fn score_to_tt(score: i32, ply: i32) -> i32 {
    if score >= MATE_BOUND {
        score + ply
    } else if score <= -MATE_BOUND {
        score - ply
    } else {
        score
    }
}

/// The inverse of [`score_to_tt`].
#[must_use]
#[inline]
pub fn score_from_tt(score: i32, ply: i32) -> i32 {
    if score >= MATE_BOUND {
        score - ply
    } else if score <= -MATE_BOUND {
        score + ply
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_gives_back_what_it_was_given_at_every_extreme() {
        let scores = [0, 1, -1, MATE, -MATE, INFINITY, -INFINITY, (1 << 29) - 1, -(1 << 29)];
        let bounds = [Bound::Exact, Bound::Lower, Bound::Upper];
        for (i, score) in scores.into_iter().enumerate() {
            for (j, bound) in bounds.into_iter().enumerate() {
                for depth in [i16::MIN, -1, 0, 1, 99, i16::MAX] {
                    let best = [0, 1, 0x8001, u16::MAX][(i + j) % 4];
                    let key = qi_rules::zobrist::splitmix64(i as u64 * 3 + j as u64) | 1;
                    let want = Entry { key, best, score, depth, bound };
                    let mut fresh = TranspositionTable::<u16>::new(4);
                    fresh.store(key, best, score, depth, bound);
                    assert_eq!(fresh.probe(key), Some(want));
                    assert_eq!(fresh.probe(key ^ 1 << 40), None, "another key in the slot");
                    fresh.clear();
                    assert_eq!(fresh.probe(key), None);
                }
            }
        }
        // An empty slot answers no key, 0 included.
        assert_eq!(TranspositionTable::<u16>::new(4).probe(0), None);
    }

    #[test]
    fn a_shallower_result_does_not_replace_a_deeper_one_of_the_same_position() {
        let mut table = TranspositionTable::<u16>::new(8);
        table.store(77, 5, 10, 6, Bound::Lower);
        table.store(77, 6, 20, 3, Bound::Upper);
        assert_eq!(table.probe(77).map(|e| (e.best, e.depth)), Some((5, 6)));
        table.store(77, 7, 30, 3, Bound::Exact);
        assert_eq!(table.probe(77).map(|e| (e.best, e.depth)), Some((7, 3)), "exact wins");
        // Another position in the same slot replaces it whatever its depth.
        table.store(77 + 256, 8, 40, 1, Bound::Lower);
        assert_eq!(table.probe(77), None);
        assert_eq!(table.probe(77 + 256).map(|e| e.best), Some(8));
        // A shared handle sees the same entries, and a clear through either empties both.
        let other = table.share();
        assert_eq!(other.probe(77 + 256).map(|e| e.best), Some(8));
        other.store(1, 9, 0, 2, Bound::Exact);
        assert_eq!(table.probe(1).map(|e| e.best), Some(9));
        table.clear();
        assert_eq!(other.probe(1), None);
    }

    #[test]
    fn threads_writing_one_table_at_once_never_read_a_mixed_entry() {
        // Two threads write their own key into the same slot over and over, each with its own
        // move; a read that finds a key must find that key's move, never the other's (which
        // a slot half written by one thread and half by the other would give).
        let table = TranspositionTable::<u16>::new(0);
        let keys = [0x1234_5678_9abc_def1_u64, 0x0fed_cba9_8765_4321];
        let start = std::sync::Barrier::new(2);
        let found = AtomicU64::new(0);
        std::thread::scope(|scope| {
            for writer in 0..2 {
                let table = table.share();
                let (start, found) = (&start, &found);
                scope.spawn(move || {
                    start.wait();
                    for n in 0..3_000_000_i32 {
                        table.store(keys[writer], writer as u16 + 1, n, 1, Bound::Exact);
                        for (owner, key) in keys.into_iter().enumerate() {
                            if let Some(entry) = table.probe(key) {
                                assert_eq!(entry.best, owner as u16 + 1, "a mixed entry");
                                found.fetch_add(1, Ordering::Relaxed);
                            }
                        }
                    }
                });
            }
        });
        assert!(found.load(Ordering::Relaxed) > 0);
    }

    #[test]
    fn reduction_table_answers_what_its_formula_does() {
        // Any formula giving 0..=255 inside the table (the engines' own are tested with them).
        fn formula(depth: i32, number: i32) -> i32 {
            (depth * 7 + number).rem_euclid(11)
        }
        let table = ReductionTable::new(formula);
        for depth in -2..130 {
            for number in -2..300 {
                assert_eq!(table.get(depth, number), formula(depth, number), "{depth} {number}");
            }
        }
        assert!(table.get(20, 40) > 0, "the table is not all zeros");
    }

    #[test]
    fn root_shares_are_disjoint_nearly_equal_and_together_every_move() {
        for count in [0_usize, 1, 2, 3, 7, 20, 44] {
            let moves: Vec<u32> = (0..count as u32).map(|m| m * 37 + 5).collect();
            for parts in 1..=5_u8 {
                let shares: Vec<Vec<u32>> = (0..parts)
                    .map(|part| RootShare::new(part, parts).unwrap().of(moves.clone()))
                    .collect();
                let mut all: Vec<u32> = shares.concat();
                all.sort_unstable();
                assert_eq!(all, moves, "{count} moves in {parts} shares");
                let sizes: Vec<usize> = shares.iter().map(Vec::len).collect();
                let (least, most) = (sizes.iter().min(), sizes.iter().max());
                assert!(most.unwrap() - least.unwrap() <= 1, "{sizes:?}");
                // Each share keeps the order it was given, and the same moves in another
                // order (another worker's table) make the same shares.
                for share in &shares {
                    assert!(share.windows(2).all(|w| w[0] < w[1]), "{share:?}");
                }
                let reversed: Vec<u32> = moves.iter().rev().copied().collect();
                for (part, share) in shares.iter().enumerate() {
                    let mut again = RootShare::new(part as u8, parts).unwrap().of(reversed.clone());
                    again.reverse();
                    assert_eq!(&again, share);
                }
            }
        }
        assert_eq!(RootShare::new(2, 2), None);
        assert_eq!(RootShare::new(0, 0).map(RootShare::parts), Some(1));
    }

    #[test]
    fn scores_order_as_the_side_to_move_prefers_them() {
        let ladder = [
            Score::Mate(0),
            Score::Mate(-1),
            Score::Mate(-9),
            Score::Cp(-900),
            Score::Cp(0),
            Score::Cp(35),
            Score::Mate(12),
            Score::Mate(2),
            Score::Mate(1),
        ];
        assert!(ladder.windows(2).all(|w| w[0] < w[1]), "{ladder:?}");
        for score in ladder {
            assert_eq!(Score::from_internal(score.to_internal()), score);
        }
    }

    #[test]
    fn node_limits_stop_exactly() {
        let stop = AtomicBool::new(false);
        let clock = || 0.0;
        let mut budget =
            Budget::new(Limits { nodes: Some(10), ..Limits::default() }, &clock, &stop);
        let ticks = (0..100).take_while(|_| !budget.tick()).count();
        assert_eq!(ticks, 9);
        assert!(budget.stopped());
    }

    #[test]
    fn the_stop_signal_stops() {
        let stop = AtomicBool::new(false);
        let clock = || 0.0;
        let mut budget = Budget::new(Limits::default(), &clock, &stop);
        assert!(budget.may_start_depth(1));
        stop.store(true, Ordering::Relaxed);
        assert!(!budget.may_start_depth(2));
    }

    #[test]
    fn no_depth_starts_past_the_soft_limit_and_the_hard_limit_ends_one() {
        let now = std::cell::Cell::new(0.0_f64);
        let clock = || now.get();
        let stop = AtomicBool::new(false);
        let limits =
            Limits { time_ms: Some(300.0), soft_time_ms: Some(100.0), ..Limits::default() };
        let mut budget = Budget::new(limits, &clock, &stop);
        now.set(99.0);
        assert!(budget.may_start_depth(5));
        now.set(100.0);
        assert!(!budget.may_start_depth(6), "the soft limit stops new depths");
        // A depth under way goes on to the hard limit (the clock is read every 1024 nodes).
        assert!(!(0..2048).any(|_| budget.tick()));
        now.set(300.0);
        assert!((0..1024).any(|_| budget.tick()));
        assert!(budget.stopped());
        // Without a soft limit the whole time is there for new depths, but not its last 2%.
        let whole = Limits { time_ms: Some(100.0), ..Limits::default() };
        now.set(0.0);
        let mut budget = Budget::new(whole, &clock, &stop);
        now.set(97.0);
        assert!(budget.may_start_depth(9));
        now.set(98.5);
        assert!(!budget.may_start_depth(10));
    }

    #[test]
    fn mate_scores_convert() {
        assert_eq!(Score::from_internal(MATE - 1), Score::Mate(1));
        assert_eq!(Score::from_internal(MATE - 3), Score::Mate(2));
        assert_eq!(Score::from_internal(-(MATE - 2)), Score::Mate(-1));
        assert_eq!(Score::from_internal(35), Score::Cp(35));
        assert_eq!(score_from_tt(score_to_tt(MATE - 5, 3), 3), MATE - 5);
    }

    #[test]
    fn noise_is_bounded_and_repeatable() {
        let stop = AtomicBool::new(false);
        let clock = || 0.0;
        let mut budget = Budget::new(Limits::default(), &clock, &stop);
        budget.noise = 50;
        for key in 0..1000 {
            let n = budget.noise_for(key);
            assert!((-50..=50).contains(&n));
            assert_eq!(n, budget.noise_for(key));
        }
    }
}
