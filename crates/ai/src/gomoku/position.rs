//! The search's own gomoku board: a padded flat array, the line shape each empty point would
//! make for each side in each direction (kept up to date move by move), and the neighbourhood
//! counts that say which points are worth looking at. The rules crate's game rides along for
//! the Zobrist hash and renju legality.

use std::sync::OnceLock;

use qi_rules::gomoku::{Gomoku, GomokuMove, WinRule};
use qi_rules::{Cell, Game, Side};

/// Wall points around the board: a line shape looks five points each way.
const PAD: usize = 5;
/// Row length of the flat array: the largest board (20) and the walls each side.
pub(crate) const STRIDE: usize = 20 + 2 * PAD;
/// Points in the flat array, walls included.
pub(crate) const POINTS: usize = STRIDE * STRIDE;
/// The four line directions as index steps.
pub(crate) const DIRECTIONS: [usize; 4] = [1, STRIDE, STRIDE + 1, STRIDE - 1];

const EMPTY: u8 = 0;
const WALL: u8 = 3;
/// Words of the candidate set: one bit per array point.
const CANDIDATE_WORDS: usize = POINTS.div_ceil(64);

/// The shape a stone on an empty point would make along one line, weakest first.
pub(crate) mod shape {
    /// Nothing worth naming.
    pub const NONE: u8 = 0;
    /// Two that can still become a (closed) three.
    pub const TWO: u8 = 1;
    /// Two that can become an open three.
    pub const OPEN_TWO: u8 = 2;
    /// Three that can become a four, but not an open one.
    pub const THREE: u8 = 3;
    /// Three that one more stone turns into an open four.
    pub const OPEN_THREE: u8 = 4;
    /// Four with one completing point.
    pub const FOUR: u8 = 5;
    /// Four with two completing points (unstoppable).
    pub const OPEN_FOUR: u8 = 6;
    /// Five: a win.
    pub const FIVE: u8 = 7;
}

/// How the rule judges a row, for the shape tables.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Judge {
    /// Five or more wins.
    Free,
    /// Exactly five wins.
    Exact,
    /// Caro: five or more wins unless the opponent closes both ends (the wall does not).
    Caro,
}

impl Judge {
    /// The states a window point can take: empty, own, blocked (opponent or wall); caro tells
    /// the opponent (2) from the wall (3).
    const fn base(self) -> usize {
        match self {
            Judge::Free | Judge::Exact => 3,
            Judge::Caro => 4,
        }
    }

    /// Entries in the table: `base` to the tenth.
    const fn keys(self) -> usize {
        pow(self.base(), 10)
    }
}

/// Shape lookup tables indexed by the ten points around a point (base 3: empty, own, blocked;
/// base 4 for caro: empty, own, opponent, wall).
struct ShapeTables {
    /// Five or more wins.
    free: Vec<u8>,
    /// Exactly five wins.
    exact: Vec<u8>,
}

fn tables() -> &'static ShapeTables {
    static TABLES: OnceLock<ShapeTables> = OnceLock::new();
    TABLES.get_or_init(|| ShapeTables {
        free: build_table(Judge::Free),
        exact: build_table(Judge::Exact),
    })
}

/// The caro table (a million entries, so built only when a caro game is searched).
fn caro_table() -> &'static [u8] {
    static TABLE: OnceLock<Vec<u8>> = OnceLock::new();
    TABLE.get_or_init(|| build_table(Judge::Caro))
}

/// `base` to the power `i`.
const fn pow(base: usize, i: usize) -> usize {
    let mut p = 1;
    let mut k = 0;
    while k < i {
        p *= base;
        k += 1;
    }
    p
}

/// The value of each of a window key's ten digits (the powers of the base), for the keys in
/// `base`.
const fn places(base: usize) -> [u32; 10] {
    let mut places = [0; 10];
    let mut digit = 0;
    while digit < 10 {
        places[digit] = pow(base, digit) as u32;
        digit += 1;
    }
    places
}

/// The digits' values of the keys of the rules other than caro.
const PLACES: [u32; 10] = places(Judge::Free.base());
/// The digits' values of caro's keys.
const CARO_PLACES: [u32; 10] = places(Judge::Caro.base());

fn build_table(judge: Judge) -> Vec<u8> {
    let mut memo = vec![u8::MAX; judge.keys()];
    for key in 0..judge.keys() {
        classify(key, judge, &mut memo);
    }
    memo
}

/// The window of eleven points (the centre, index 5, holds the own stone) for `key`.
fn decode(mut key: usize, base: usize) -> [u8; 11] {
    let mut line = [1u8; 11];
    for i in 0..10 {
        let at = if i < 5 { i } else { i + 1 };
        line[at] = (key % base) as u8;
        key /= base;
    }
    line
}

/// The window index (0..10) of the window point `at` (0..11, not 5).
fn key_index(at: usize) -> usize {
    if at < 5 { at } else { at - 1 }
}

fn is_five(line: &[u8; 11], judge: Judge) -> bool {
    let left = (0..5).rev().take_while(|&i| line[i] == 1).count();
    let right = (6..11).take_while(|&i| line[i] == 1).count();
    let run = 1 + left + right;
    match judge {
        Judge::Free => run >= 5,
        Judge::Exact => run == 5,
        Judge::Caro => {
            // The points just past the run; past the window counts as open.
            let before = (5 - left).checked_sub(1).map_or(0, |i| line[i]);
            let after = line.get(6 + right).copied().unwrap_or(0);
            run >= 5 && !(before == 2 && after == 2)
        }
    }
}

fn classify(key: usize, judge: Judge, memo: &mut [u8]) -> u8 {
    if memo[key] != u8::MAX {
        return memo[key];
    }
    let base = judge.base();
    let mut line = decode(key, base);
    let result = if is_five(&line, judge) {
        shape::FIVE
    } else {
        let mut completions = 0;
        for at in 0..11 {
            if at == 5 || line[at] != 0 {
                continue;
            }
            line[at] = 1;
            completions += usize::from(is_five(&line, judge));
            line[at] = 0;
        }
        match completions {
            0 => (0..11)
                .filter(|&at| at != 5 && line[at] == 0)
                .map(|at| match classify(key + pow(base, key_index(at)), judge, memo) {
                    shape::OPEN_FOUR => shape::OPEN_THREE,
                    shape::FOUR => shape::THREE,
                    shape::OPEN_THREE => shape::OPEN_TWO,
                    shape::THREE => shape::TWO,
                    _ => shape::NONE,
                })
                .max()
                .unwrap_or(shape::NONE),
            1 => shape::FOUR,
            _ => shape::OPEN_FOUR,
        }
    };
    memo[key] = result;
    result
}

/// Position value of one side's shape on a point, for ordering and evaluation.
const SHAPE_VALUE: [i32; 8] = [0, 6, 20, 24, 110, 130, 1200, 20_000];

/// What a stone on a point makes along its four lines together.
#[derive(Clone, Copy)]
struct Combination {
    /// The shapes' values, with a bonus for combinations that win (two fours, a four and an
    /// open three; less for two open threes).
    value: i32,
    /// The strongest of the four shapes.
    best: u8,
    /// An open four, two fours, or a five: a win on the next move.
    winning_four: bool,
}

impl Combination {
    const fn of(shapes: [u8; 4]) -> Combination {
        let mut value = 0;
        let (mut fours, mut threes, mut best) = (0, 0, 0);
        let mut i = 0;
        while i < 4 {
            let x = shapes[i];
            value += SHAPE_VALUE[x as usize];
            fours += (x == shape::FOUR || x == shape::OPEN_FOUR) as i32;
            threes += (x == shape::OPEN_THREE) as i32;
            if x > best {
                best = x;
            }
            i += 1;
        }
        if fours >= 2 || (fours == 1 && threes >= 1) {
            value += 1000;
        } else if threes >= 2 {
            value += 500;
        }
        let winning_four = fours >= 2 || best >= shape::OPEN_FOUR;
        Combination { value, best, winning_four }
    }

    /// The table's index for four shapes (each below 8): their three-bit numbers, the first
    /// direction's lowest.
    #[inline]
    const fn index(shapes: [u8; 4]) -> usize {
        let [a, b, c, d] = shapes;
        a as usize | (b as usize) << 3 | (c as usize) << 6 | (d as usize) << 9
    }
}

/// Every combination of four shapes, by [`Combination::index`]: the search asks what each
/// candidate point makes several times at each node (the verdict, the evaluation, the move
/// ordering), and one look-up answers.
static COMBINATIONS: [Combination; 4096] = {
    let mut table = [Combination { value: 0, best: 0, winning_four: false }; 4096];
    let mut index = 0;
    while index < 4096 {
        let shapes = [index & 7, (index >> 3) & 7, (index >> 6) & 7, index >> 9];
        table[index] =
            Combination::of([shapes[0] as u8, shapes[1] as u8, shapes[2] as u8, shapes[3] as u8]);
        index += 1;
    }
    table
};

/// A gomoku position for search.
#[derive(Clone)]
pub(crate) struct Position {
    cells: [u8; POINTS],
    /// `shapes[side][point][direction]`: what a stone of `side` on the empty `point` makes.
    shapes: [[[u8; 4]; POINTS]; 2],
    /// `keys[side][point][direction]`: the shape table's key for the ten points around
    /// `point` along `direction` as `side` sees them (see [`Position::window_keys`]), for every
    /// board point, empty or not. A stone changes one digit of each key within five points of
    /// it, so a move adds (or takes back) forty digits instead of reading the ten points
    /// around each of forty-four points again (that was half the gomoku search's time).
    keys: [[[u32; 4]; POINTS]; 2],
    /// Stones within two points (the 5x5 square) of each point.
    near: [u8; POINTS],
    /// The empty board points near a stone, one bit per array point: the only points the
    /// search looks at. Kept by `play` and `undo` with the `near` counts, so that finding the
    /// candidates costs a few words instead of a pass over every board point (three or four
    /// such passes at each node were 40% of the search's time).
    candidates: [u64; CANDIDATE_WORDS],
    /// The board's points (array indices), bottom rank first.
    board_points: Vec<u16>,
    /// The shape table each side's keys are looked up in (the rule's, chosen once: a stone
    /// updates forty shapes).
    shape_tables: [&'static [u8]; 2],
    /// Stones on the board.
    stones: usize,
    renju: bool,
    caro: bool,
    game: Gomoku,
}

/// The side's index into per-side tables.
const fn side_index(side: Side) -> usize {
    side.index()
}

impl Position {
    /// The search position for `game`.
    pub(crate) fn new(game: &Gomoku) -> Position {
        let size = usize::from(game.rules().size());
        let rule = game.rules().rule;
        let mut position = Position {
            cells: [WALL; POINTS],
            shapes: [[[0; 4]; POINTS]; 2],
            keys: [[[0; 4]; POINTS]; 2],
            near: [0; POINTS],
            candidates: [0; CANDIDATE_WORDS],
            board_points: Vec::with_capacity(size * size),
            shape_tables: Self::shape_tables(rule),
            stones: 0,
            renju: rule == WinRule::Renju,
            caro: rule == WinRule::Caro,
            game: game.clone(),
        };
        for rank in 0..size {
            for file in 0..size {
                let point = Self::index_of(Cell::new(file as u8, rank as u8));
                position.board_points.push(point as u16);
                position.cells[point] = match game.stone_at(Cell::new(file as u8, rank as u8)) {
                    None => EMPTY,
                    Some(side) => 1 + side_index(side) as u8,
                };
            }
        }
        for i in 0..position.board_points.len() {
            let point = usize::from(position.board_points[i]);
            if position.cells[point] != EMPTY {
                position.stones += 1;
                position.add_near(point, true);
            }
        }
        let (base, wall) = position.digits();
        for i in 0..position.board_points.len() {
            let point = usize::from(position.board_points[i]);
            for dir in 0..4 {
                let (black, white) = position.window_keys(point, dir, base, wall);
                position.keys[0][point][dir] = black as u32;
                position.keys[1][point][dir] = white as u32;
            }
            position.update_shapes_at(point);
        }
        position
    }

    /// The shape tables of Black's and White's keys under `rule`: in standard gomoku both
    /// sides' fives must be exact, in renju only Black's; in caro a closed five does not count.
    fn shape_tables(rule: WinRule) -> [&'static [u8]; 2] {
        if rule == WinRule::Caro {
            return [caro_table(); 2];
        }
        let tables = tables();
        let table = |exact: bool| if exact { &tables.exact[..] } else { &tables.free[..] };
        [table(rule != WinRule::Freestyle), table(rule == WinRule::Standard)]
    }

    /// The array index of a cell on the board.
    pub(crate) const fn index_of(cell: Cell) -> usize {
        (cell.rank as usize + PAD) * STRIDE + cell.file as usize + PAD
    }

    /// The cell of an array index.
    pub(crate) const fn cell_of(point: usize) -> Cell {
        Cell::new((point % STRIDE - PAD) as u8, (point / STRIDE - PAD) as u8)
    }

    /// The rules crate's move for an array index.
    pub(crate) const fn move_of(point: usize) -> GomokuMove {
        GomokuMove::Stone(Self::cell_of(point))
    }

    pub(crate) fn game(&self) -> &Gomoku {
        &self.game
    }

    pub(crate) fn hash(&self) -> u64 {
        self.game.hash()
    }

    /// The colour to move (black is [`Side::First`]): the search knows stones, not seats.
    pub(crate) fn side_to_move(&self) -> Side {
        self.game.colour_to_move()
    }

    pub(crate) fn board_points(&self) -> &[u16] {
        &self.board_points
    }

    pub(crate) fn is_empty(&self, point: usize) -> bool {
        self.cells[point] == EMPTY
    }

    /// The empty points near a stone (within the 5x5 square), in the order of
    /// [`Position::board_points`] (array order: bottom rank first).
    pub(crate) fn candidates(&self) -> Candidates<'_> {
        Candidates { words: &self.candidates, word: 0, bits: self.candidates[0] }
    }

    /// Marks the empty `point` as a candidate or not.
    fn mark_candidate(&mut self, point: usize, candidate: bool) {
        let bit = 1u64 << (point % 64);
        if candidate {
            self.candidates[point / 64] |= bit;
        } else {
            self.candidates[point / 64] &= !bit;
        }
    }

    /// Whether the side to move may play on the empty `point` (renju forbids Black some).
    pub(crate) fn is_legal(&self, point: usize) -> bool {
        if self.renju && self.side_to_move() == Side::First {
            self.game.check(Self::move_of(point)).is_ok()
        } else {
            true
        }
    }

    /// Whether the game has ended (a five was made or the board is full).
    pub(crate) fn is_over(&self) -> bool {
        self.game.outcome().is_some()
    }

    /// The shapes a stone of `side` on the empty `point` makes in the four directions.
    #[inline]
    pub(crate) fn shapes(&self, side: Side, point: usize) -> [u8; 4] {
        self.shapes[side_index(side)][point]
    }

    /// The index of the four shapes a stone of `side` on `point` makes, three bits each, the
    /// first direction's lowest (below 4096).
    #[inline]
    pub(crate) fn shape_index(&self, side: Side, point: usize) -> usize {
        Combination::index(self.shapes(side, point))
    }

    /// Stones on the board.
    pub(crate) fn stones(&self) -> usize {
        self.stones
    }

    /// What a stone of `side` on `point` makes along its four lines together.
    #[inline]
    fn combination(&self, side: Side, point: usize) -> &'static Combination {
        &COMBINATIONS[Combination::index(self.shapes(side, point))]
    }

    /// The strongest shape of `side` at `point`.
    #[inline]
    pub(crate) fn best_shape(&self, side: Side, point: usize) -> u8 {
        self.combination(side, point).best
    }

    /// Whether a stone of `side` on `point` makes a five.
    #[inline]
    pub(crate) fn makes_five(&self, side: Side, point: usize) -> bool {
        self.best_shape(side, point) == shape::FIVE
    }

    /// Whether a stone of `side` on `point` wins by force next move: an open four, two fours,
    /// or a five.
    #[inline]
    pub(crate) fn makes_winning_four(&self, side: Side, point: usize) -> bool {
        self.combination(side, point).winning_four
    }

    /// Whether a stone of `side` on `point` makes at least a four.
    #[inline]
    pub(crate) fn makes_four(&self, side: Side, point: usize) -> bool {
        self.best_shape(side, point) >= shape::FOUR
    }

    /// The value of `point` for `side`: its shapes, with a bonus for combinations that win.
    #[inline]
    pub(crate) fn point_value(&self, side: Side, point: usize) -> i32 {
        self.combination(side, point).value
    }

    /// Puts a stone of the side to move on the empty `point`.
    pub(crate) fn play(&mut self, point: usize) {
        let side = self.side_to_move();
        self.game.play_unchecked(Self::move_of(point));
        self.cells[point] = 1 + side_index(side) as u8;
        self.stones += 1;
        self.add_near(point, true);
        self.mark_candidate(point, false);
        self.update_keys(point, side, true);
        self.update_lines(point);
    }

    /// Takes back the stone on `point`, the last one played.
    pub(crate) fn undo(&mut self, point: usize) {
        let side = if self.cells[point] == 1 { Side::First } else { Side::Second };
        self.game.undo();
        self.cells[point] = EMPTY;
        self.stones -= 1;
        self.add_near(point, false);
        self.update_keys(point, side, false);
        self.update_lines(point);
    }

    fn add_near(&mut self, point: usize, add: bool) {
        for dr in 0..5 {
            for df in 0..5 {
                let at = point + dr * STRIDE + df - 2 * STRIDE - 2;
                if add {
                    self.near[at] += 1;
                } else {
                    self.near[at] -= 1;
                }
                // The point being taken back is empty again here, and is marked too.
                if self.cells[at] == EMPTY {
                    self.mark_candidate(at, self.near[at] > 0);
                }
            }
        }
    }

    /// Recomputes the shapes of the empty points within five of `point` along its four lines.
    fn update_lines(&mut self, point: usize) {
        for (dir, &step) in DIRECTIONS.iter().enumerate() {
            for k in 0..=10 {
                let at = point + k * step - 5 * step;
                if self.cells[at] == EMPTY {
                    self.update_shape(at, dir);
                }
            }
        }
    }

    fn update_shapes_at(&mut self, point: usize) {
        if self.cells[point] == EMPTY {
            for dir in 0..4 {
                self.update_shape(point, dir);
            }
        }
    }

    /// The digits of a window key: its base, and the wall's digit (an opponent's stone is 2,
    /// one's own 1, empty 0).
    fn digits(&self) -> (usize, usize) {
        if self.caro { (Judge::Caro.base(), 3) } else { (Judge::Free.base(), 2) }
    }

    /// Adds (or, taking it back, removes) a stone of `side` on `point` to the keys of the
    /// board points within five of it along each line.
    fn update_keys(&mut self, point: usize, side: Side, add: bool) {
        let place = if self.caro { &CARO_PLACES } else { &PLACES };
        let own = side_index(side);
        for (dir, &step) in DIRECTIONS.iter().enumerate() {
            // The key's digits run from five points before to five after; `point` is the
            // `k`-th after a point `k` before it (digit 4 + k) and the `k`-th before a point
            // `k` after it (digit 5 - k).
            for k in 1..=5 {
                for (at, digit) in [(point - k * step, 4 + k), (point + k * step, 5 - k)] {
                    if self.cells[at] == WALL {
                        continue;
                    }
                    for viewer in 0..2 {
                        let change = place[digit] * if viewer == own { 1 } else { 2 };
                        let key = &mut self.keys[viewer][at][dir];
                        *key = if add { *key + change } else { *key - change };
                    }
                }
            }
        }
    }

    fn update_shape(&mut self, point: usize, dir: usize) {
        for side in 0..2 {
            let key = self.keys[side][point][dir] as usize;
            self.shapes[side][point][dir] = self.shape_tables[side][key];
        }
    }

    /// The window keys of the ten points around `point` along `dir`, for Black and for White:
    /// each point a digit in `base` (0 empty, 1 own, 2 the opponent's, `wall` off the board).
    fn window_keys(&self, point: usize, dir: usize, base: usize, wall: usize) -> (usize, usize) {
        let step = DIRECTIONS[dir];
        let (mut black, mut white) = (0usize, 0usize);
        let mut pow = 1;
        for k in (1..=5).rev().map(|k| point - k * step).chain((1..=5).map(|k| point + k * step)) {
            let (b, w) = match self.cells[k] {
                EMPTY => (0, 0),
                1 => (1, 2),
                2 => (2, 1),
                _ => (wall, wall),
            };
            black += b * pow;
            white += w * pow;
            pow *= base;
        }
        (black, white)
    }
}

/// The points of [`Position::candidates`], lowest array index first.
pub(crate) struct Candidates<'a> {
    words: &'a [u64; CANDIDATE_WORDS],
    word: usize,
    /// The bits of `words[word]` not given yet.
    bits: u64,
}

impl Iterator for Candidates<'_> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.bits == 0 {
            self.word += 1;
            self.bits = *self.words.get(self.word)?;
        }
        let bit = self.bits.trailing_zeros() as usize;
        self.bits &= self.bits - 1;
        Some(self.word * 64 + bit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table answers for every four shapes what working them out answers: its index and
    /// its building agree, and winning combinations are what the search counts on.
    #[test]
    fn combinations_are_looked_up_by_their_shapes() {
        use shape::{FIVE, FOUR, NONE, OPEN_FOUR, OPEN_THREE, THREE, TWO};
        for index in 0..4096u16 {
            let shapes = [0, 3, 6, 9].map(|shift| ((index >> shift) & 7) as u8);
            let (looked_up, worked_out) =
                (&COMBINATIONS[Combination::index(shapes)], Combination::of(shapes));
            assert_eq!(looked_up.value, worked_out.value, "{shapes:?}");
            assert_eq!(looked_up.best, worked_out.best, "{shapes:?}");
            assert_eq!(looked_up.winning_four, worked_out.winning_four, "{shapes:?}");
        }
        let of = |shapes| Combination::of(shapes);
        assert!(of([FOUR, NONE, FOUR, NONE]).winning_four);
        assert!(of([NONE, NONE, NONE, OPEN_FOUR]).winning_four);
        assert!(!of([FOUR, OPEN_THREE, TWO, NONE]).winning_four);
        assert_eq!(of([TWO, FIVE, THREE, NONE]).best, FIVE);
        assert_eq!(of([FOUR, OPEN_THREE, NONE, NONE]).value, 130 + 110 + 1000);
        assert_eq!(of([OPEN_THREE, OPEN_THREE, TWO, NONE]).value, 110 * 2 + 6 + 500);
    }

    /// The keys, shapes and candidates a position keeps up to date move by move are the ones
    /// it would compute afresh (the candidates: the empty points near a stone, board order), through play and undo, under every rule and on the largest board
    /// (whose edge is nearest the array's end).
    #[test]
    fn kept_keys_shapes_and_candidates_match_a_fresh_position() {
        use qi_rules::gomoku::GomokuRules;
        let same = |kept: &Position, context: &str| {
            let fresh = Position::new(kept.game());
            let near = |p: usize| kept.near[p] > 0;
            let defined: Vec<usize> = kept
                .board_points()
                .iter()
                .map(|&p| usize::from(p))
                .filter(|&p| kept.is_empty(p) && near(p))
                .collect();
            assert_eq!(kept.candidates().collect::<Vec<_>>(), defined, "{context}: candidates");
            assert_eq!(fresh.candidates().collect::<Vec<_>>(), defined, "{context}: fresh");
            for &point in kept.board_points() {
                let p = usize::from(point);
                assert_eq!(kept.keys[0][p], fresh.keys[0][p], "{context}: black's keys at {p}");
                assert_eq!(kept.keys[1][p], fresh.keys[1][p], "{context}: white's keys at {p}");
                if kept.is_empty(p) {
                    for side in [Side::First, Side::Second] {
                        assert_eq!(kept.shapes(side, p), fresh.shapes(side, p), "{context}: {p}");
                    }
                }
            }
        };
        let mut state = 7u64;
        for rule in [WinRule::Freestyle, WinRule::Standard, WinRule::Renju, WinRule::Caro] {
            for size in [15u8, 20] {
                let game = Gomoku::start(&GomokuRules::new(size, rule).unwrap(), 0);
                let mut position = Position::new(&game);
                let mut played = Vec::new();
                while played.len() < 40 && !position.is_over() {
                    state = qi_rules::zobrist::splitmix64(state);
                    // Mostly near the middle, some on the edges.
                    let (file, rank) = if state.is_multiple_of(4) {
                        ((state >> 8) % u64::from(size), (state >> 16) % 2 * u64::from(size - 1))
                    } else {
                        (4 + (state >> 8) % 7, 4 + (state >> 16) % 7)
                    };
                    let point = Position::index_of(Cell::new(file as u8, rank as u8));
                    if !position.is_empty(point) || !position.is_legal(point) {
                        continue;
                    }
                    position.play(point);
                    played.push(point);
                    same(&position, &format!("{rule:?} {size} after {} stones", played.len()));
                }
                assert!(played.len() >= 20, "{rule:?} {size}: only {} stones", played.len());
                while let Some(point) = played.pop() {
                    position.undo(point);
                    same(&position, &format!("{rule:?} {size} taken back to {}", played.len()));
                }
            }
        }
    }

    fn shape_of(line: &str, exact: bool) -> u8 {
        // `line` has 11 characters; the centre is where the stone goes.
        let mut key = 0;
        let mut pow = 1;
        for (i, c) in line.bytes().enumerate() {
            if i == 5 {
                continue;
            }
            key += pow
                * match c {
                    b'x' => 1,
                    b'.' => 0,
                    _ => 2,
                };
            pow *= 3;
        }
        if exact { tables().exact[key] } else { tables().free[key] }
    }

    /// A caro window: `x` own, `.` empty, `o` opponent, `|` wall.
    fn caro_shape_of(line: &str) -> u8 {
        let mut key = 0;
        let mut pow = 1;
        for (i, c) in line.bytes().enumerate() {
            if i == 5 {
                continue;
            }
            key += pow
                * match c {
                    b'x' => 1,
                    b'.' => 0,
                    b'o' => 2,
                    _ => 3,
                };
            pow *= 4;
        }
        caro_table()[key]
    }

    #[test]
    fn caro_shapes_know_a_closed_five_from_one_against_the_wall() {
        assert_eq!(caro_shape_of("...xx*xx..."), shape::FIVE);
        assert_eq!(caro_shape_of("..oxx*xxo.."), shape::NONE, "closed at both ends");
        assert_eq!(caro_shape_of("..|xx*xxo.."), shape::FIVE, "the wall closes nothing");
        assert_eq!(caro_shape_of("..oxx*xx..."), shape::FIVE, "closed at one end");
        // A four whose only five would be closed at both ends is no four.
        assert_eq!(caro_shape_of("..ox.*xxo.."), shape::NONE);
        assert_eq!(caro_shape_of("...ox*xx..."), shape::FOUR);
        assert_eq!(caro_shape_of("....x*xx..."), shape::OPEN_FOUR);
        assert_eq!(caro_shape_of("..|.x*xx.o."), shape::OPEN_FOUR);
    }

    #[test]
    fn shapes_are_classified() {
        assert_eq!(shape_of("...xx*xx...", false), shape::FIVE);
        assert_eq!(shape_of("...xx*xx...", true), shape::FIVE);
        assert_ne!(shape_of("..xxx*xx...", true), shape::FIVE);
        assert_eq!(shape_of("....x*xx...", false), shape::OPEN_FOUR);
        assert_eq!(shape_of("...ox*xx...", false), shape::FOUR);
        assert_eq!(shape_of("...xx*.x...", false), shape::FOUR);
        assert_eq!(shape_of(".....*xx...", false), shape::OPEN_THREE);
        assert_eq!(shape_of("....o*xx...", false), shape::THREE);
        assert_eq!(shape_of("....x*.x...", false), shape::OPEN_THREE);
        assert_eq!(shape_of("...x.*x....", false), shape::OPEN_THREE);
        assert_eq!(shape_of(".....*x....", false), shape::OPEN_TWO);
        assert_eq!(shape_of("....o*x....", false), shape::TWO);
        assert_eq!(shape_of("ooooo*ooooo", false), shape::NONE);
    }
}
