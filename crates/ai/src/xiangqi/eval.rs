//! Static evaluation of a xiangqi position: tapered material and piece-square tables, light
//! mobility, cannon threats on the general's file, palace safety and pressure near the enemy
//! palace, and a scale-down when the stronger side has nothing left to attack with.
//!
//! The board is the engine's mirror: 90 points by `rank * 9 + file` (rank 0 is Red's back rank),
//! each holding 0 or a piece code `side << 3 | piece + 1`.
//!
//! Every number the evaluation adds is a weight of [`super::weights`], counted by a position's
//! terms (see [`crate::terms`]): [`evaluate`] sums them, [`terms`] reports them to a tuner. The
//! layout of the weights is [`GROUPS`].

use qi_rules::Cell;
use qi_rules::xiangqi::Xiangqi;

pub use crate::terms::Terms;

use super::weights::WEIGHTS;

/// Piece indices (the order of `qi_rules::xiangqi::Piece`).
pub(super) const GENERAL: usize = 0;
pub(super) const ADVISOR: usize = 1;
pub(super) const ELEPHANT: usize = 2;
pub(super) const HORSE: usize = 3;
pub(super) const CHARIOT: usize = 4;
pub(super) const CANNON: usize = 5;
pub(super) const SOLDIER: usize = 6;

/// The mirror's code for `side`'s `piece`.
#[inline]
pub(super) const fn code(side: usize, piece: usize) -> u8 {
    ((side as u8) << 3) | (piece as u8 + 1)
}

/// The side of a non-empty code.
#[inline]
pub(super) const fn side_of(code: u8) -> usize {
    (code >> 3) as usize
}

/// The piece of a non-empty code.
#[inline]
pub(super) const fn piece_of(code: u8) -> usize {
    (code & 7) as usize - 1
}

/// A rough value per piece for move ordering (captures by value).
pub(super) const ORDER_VALUE: [i32; 7] = [5000, 200, 200, 430, 920, 440, 110];

/// Game phase weight: the full set of chariots, horses and cannons is [`MAX_PHASE`].
const PHASE: [i32; 7] = [0, 0, 0, 3, 6, 3, 0];

// The layout of the weights: where each group starts.
const MATERIAL: usize = 0;
const PST: usize = MATERIAL + 7;
/// The points of one piece's table: ten ranks of five files (the right half mirrors the left).
const PST_POINTS: usize = 50;
const CHARIOT_MOBILITY: usize = PST + 7 * PST_POINTS;
const HORSE_MOBILITY: usize = CHARIOT_MOBILITY + 18;
const CANNON_AIM: usize = HORSE_MOBILITY + 9;
const PALACE_ATTACK: usize = CANNON_AIM + 3;
/// The most attackers near the enemy palace counted apart.
const MOST_ATTACKERS: usize = 7;
const MISSING_ADVISOR: usize = PALACE_ATTACK + 4 * (MOST_ATTACKERS + 1);
const MISSING_ELEPHANT: usize = MISSING_ADVISOR + 3;
/// The number of weights (each a middlegame and an endgame value).
pub const PARAMS: usize = MISSING_ELEPHANT + 2;

/// The groups of weights in their order, each with how many it holds: what the tuner writes as
/// comments in `weights.rs`.
pub const GROUPS: &[(&str, usize)] = &[
    ("material (general, advisor, elephant, horse, chariot, cannon, soldier)", 7),
    ("general by point from its own side (rank 1..10, files a..e; f..i mirror d..a)", 50),
    ("advisor by point from its own side (rank 1..10, files a..e; f..i mirror d..a)", 50),
    ("elephant by point from its own side (rank 1..10, files a..e; f..i mirror d..a)", 50),
    ("horse by point from its own side (rank 1..10, files a..e; f..i mirror d..a)", 50),
    ("chariot by point from its own side (rank 1..10, files a..e; f..i mirror d..a)", 50),
    ("cannon by point from its own side (rank 1..10, files a..e; f..i mirror d..a)", 50),
    ("soldier by point from its own side (rank 1..10, files a..e; f..i mirror d..a)", 50),
    ("chariot mobility by points reached (0-17)", 18),
    ("horse mobility by points reached (0-8)", 9),
    ("cannon on the enemy general's file, by pieces between (0-2)", 3),
    ("horse near the enemy palace, by attackers there (0-7)", 8),
    ("chariot near the enemy palace, by attackers there (0-7)", 8),
    ("cannon near the enemy palace, by attackers there (0-7)", 8),
    ("soldier near the enemy palace, by attackers there (0-7)", 8),
    ("a missing advisor, per enemy horse, chariot and crossed soldier", 3),
    ("a missing elephant, per enemy cannon and chariot", 2),
];

/// The weights the evaluation uses, `[middlegame, endgame]` for each parameter.
#[must_use]
pub fn weights() -> &'static [[i32; 2]; PARAMS] {
    &WEIGHTS
}

/// The phase of a full board: the middlegame weights count `phase / MAX_PHASE`, the endgame
/// weights the rest.
pub const MAX_PHASE: i32 = 48;
/// What the side to move gains by moving (not tuned: added after the blend).
pub const TEMPO: i32 = 12;
/// What the score of a side ahead that has nothing left to attack with is divided by.
pub const DRAWISH_SCALE: i32 = 16;

/// The table point of a point seen from its owner's side: rank by five files, the right half
/// folded onto the left.
const fn table_point(relative: usize) -> usize {
    let (rank, file) = (relative / 9, relative % 9);
    let file = if file > 4 { 8 - file } else { file };
    rank * 5 + file
}

/// The search's terms: the weights summed, middlegame and endgame apart.
#[derive(Default, Clone, Copy)]
struct Sum {
    mg: i32,
    eg: i32,
}

impl Terms for Sum {
    #[inline]
    fn add(&mut self, param: usize, count: i32) {
        let [mg, eg] = WEIGHTS[param];
        self.mg += mg * count;
        self.eg += eg * count;
    }
}

/// The engine's mirror of `game`'s board (see the module's text).
#[must_use]
pub fn mirror(game: &Xiangqi) -> [u8; 90] {
    let mut board = [0u8; 90];
    for (i, slot) in board.iter_mut().enumerate() {
        if let Some((side, piece)) = game.piece_at(Cell::new((i % 9) as u8, (i / 9) as u8)) {
            *slot = code(side.index(), piece as usize);
        }
    }
    board
}

/// The point seen from the owner's side (Black's ranks are flipped).
#[inline]
const fn relative(side: usize, i: usize) -> usize {
    if side == 0 { i } else { (9 - i / 9) * 9 + i % 9 }
}

/// Walks from `i` by (df, dr) while on the board; `None` when it leaves.
const fn step(i: usize, df: i32, dr: i32) -> Option<usize> {
    let f = (i % 9) as i32 + df;
    let r = (i / 9) as i32 + dr;
    if 0 <= f && f < 9 && 0 <= r && r < 10 { Some((r * 9 + f) as usize) } else { None }
}

/// The board's geometry, worked out once: the evaluation asks it for every piece at every
/// node, and working it out there (divisions by nine, bounds checks at each step) was a good
/// part of the evaluation's time.
struct Geometry {
    /// [`relative`] by side and point.
    relative: [[u8; 90]; 2],
    /// How many points lie between each point and the board's edge, in each of [`ORTHO`]'s
    /// directions.
    ray_lengths: [[u8; 4]; 90],
    /// A horse's moves from each point: its leg (the point that blocks it) and where it lands,
    /// the first `horse_moves[point]` of them.
    horse: [[(u8, u8); 8]; 90],
    horse_moves: [u8; 90],
}

/// The index step of each of [`ORTHO`]'s directions.
const ORTHO_STEPS: [isize; 4] = [1, -1, 9, -9];

static GEOMETRY: Geometry = {
    let mut geometry = Geometry {
        relative: [[0; 90]; 2],
        ray_lengths: [[0; 4]; 90],
        horse: [[(0, 0); 8]; 90],
        horse_moves: [0; 90],
    };
    let mut point = 0;
    while point < 90 {
        geometry.relative[0][point] = relative(0, point) as u8;
        geometry.relative[1][point] = relative(1, point) as u8;
        let mut dir = 0;
        while dir < 4 {
            let (df, dr) = ORTHO[dir];
            let mut length = 0;
            let mut at = point;
            while let Some(next) = step(at, df, dr) {
                length += 1;
                at = next;
            }
            geometry.ray_lengths[point][dir] = length;
            if let Some(leg) = step(point, df, dr) {
                let sides = if df == 0 { [(1, 0), (-1, 0)] } else { [(0, 1), (0, -1)] };
                let mut k = 0;
                while k < 2 {
                    let (sf, sr) = sides[k];
                    if let Some(to) = step(leg, df + sf, dr + sr) {
                        let n = geometry.horse_moves[point] as usize;
                        geometry.horse[point][n] = (leg as u8, to as u8);
                        geometry.horse_moves[point] += 1;
                    }
                    k += 1;
                }
            }
            dir += 1;
        }
        point += 1;
    }
    geometry
};

const ORTHO: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

/// Whether the point `i` is near `side`'s target palace (the enemy's), where attackers count.
#[inline]
fn near_enemy_palace(side: usize, i: usize) -> bool {
    let rel = usize::from(GEOMETRY.relative[side][i]);
    let (rank, file) = (rel / 9, rel % 9);
    rank >= 6 && (2..=6).contains(&file)
}

/// Which pieces count as attackers near the enemy palace, and their group in
/// [`PALACE_ATTACK`] (horse, chariot, cannon, soldier).
const ATTACKER: [Option<usize>; 7] = [None, None, None, Some(0), Some(1), Some(2), Some(3)];

/// What [`terms`] finds besides the terms: the game's phase and which sides can still attack.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    /// From [`MAX_PHASE`] (every chariot, horse and cannon on) down to 0.
    pub phase: i32,
    /// Whether each side (Red first) has a chariot, horse, cannon or soldier left: a side ahead
    /// without one cannot win, whatever its material.
    pub can_attack: [bool; 2],
}

/// Adds each side's terms for `board` (Red's to `sides[0]`, Black's to `sides[1]`).
pub fn terms<T: Terms>(board: &[u8; 90], sides: &mut [T; 2]) -> Shape {
    let mut count = [[0i32; 7]; 2];
    let mut crossed = [0i32; 2];
    let mut general = [0usize; 2];
    // Each side's attackers near the enemy palace, by kind (horse, chariot, cannon, soldier).
    let mut attackers = [[0i32; 4]; 2];
    let mut phase = 0;
    // Each side's cannons, one bit per point (points 0-63 in the first word, 64-89 in the
    // second), for the threats down the generals' files. Not a u128: in wasm a u128 shift by a
    // variable amount is a call to a compiler-builtins routine, once per cannon per evaluation.
    let mut cannons = [[0u64; 2]; 2];
    for (i, &c) in board.iter().enumerate() {
        if c == 0 {
            continue;
        }
        let (side, piece) = (side_of(c), piece_of(c));
        let rel = usize::from(GEOMETRY.relative[side][i]);
        let terms = &mut sides[side];
        count[side][piece] += 1;
        phase += PHASE[piece];
        terms.add(MATERIAL + piece, 1);
        terms.add(PST + piece * PST_POINTS + table_point(rel), 1);
        match piece {
            GENERAL => general[side] = i,
            CHARIOT => terms.add(CHARIOT_MOBILITY + chariot_mobility(board, i, side) as usize, 1),
            HORSE => terms.add(HORSE_MOBILITY + horse_mobility(board, i, side) as usize, 1),
            CANNON => cannons[side][i / 64] |= 1 << (i % 64),
            SOLDIER if rel / 9 >= 5 => crossed[side] += 1,
            _ => {}
        }
        if let Some(kind) = ATTACKER[piece]
            && near_enemy_palace(side, i)
        {
            attackers[side][kind] += 1;
        }
    }
    for side in 0..2 {
        let them = side ^ 1;
        let terms = &mut sides[side];
        // Cannons aiming down the enemy general's file.
        for (word, &set) in cannons[side].iter().enumerate() {
            let mut aiming = set;
            while aiming != 0 {
                let i = word * 64 + aiming.trailing_zeros() as usize;
                aiming &= aiming - 1;
                if i % 9 == general[them] % 9 {
                    let between = pieces_between(board, i, general[them]);
                    if between <= 2 {
                        terms.add(CANNON_AIM + between, 1);
                    }
                }
            }
        }
        // The attack near the enemy palace: each attacker is worth more the more there are.
        let together = (attackers[side].iter().sum::<i32>() as usize).min(MOST_ATTACKERS);
        for (kind, &n) in attackers[side].iter().enumerate() {
            if n > 0 {
                terms.add(PALACE_ATTACK + kind * (MOST_ATTACKERS + 1) + together, n);
            }
        }
        // Palace safety: missing advisors matter against horses, chariots and soldiers; missing
        // elephants against cannons and chariots.
        let missing_advisors = 2 - count[side][ADVISOR];
        let missing_elephants = 2 - count[side][ELEPHANT];
        if missing_advisors > 0 {
            terms.add(MISSING_ADVISOR, missing_advisors * count[them][HORSE]);
            terms.add(MISSING_ADVISOR + 1, missing_advisors * count[them][CHARIOT]);
            terms.add(MISSING_ADVISOR + 2, missing_advisors * crossed[them]);
        }
        if missing_elephants > 0 {
            terms.add(MISSING_ELEPHANT, missing_elephants * count[them][CANNON]);
            terms.add(MISSING_ELEPHANT + 1, missing_elephants * count[them][CHARIOT]);
        }
    }
    let can_attack = [0, 1].map(|side| {
        count[side][CHARIOT] + count[side][HORSE] + count[side][CANNON] + count[side][SOLDIER] > 0
    });
    Shape { phase: phase.min(MAX_PHASE), can_attack }
}

/// The evaluation from the side to move's point of view.
pub fn evaluate(board: &[u8; 90], side_to_move: usize) -> i32 {
    let mut sides = [Sum::default(); 2];
    let shape = terms(board, &mut sides);
    let [red, black] = sides;
    let phase = shape.phase;
    let mut score =
        ((red.mg - black.mg) * phase + (red.eg - black.eg) * (MAX_PHASE - phase)) / MAX_PHASE;
    if (score > 0 && !shape.can_attack[0]) || (score < 0 && !shape.can_attack[1]) {
        score /= DRAWISH_SCALE;
    }
    let score = if side_to_move == 0 { score } else { -score };
    score + TEMPO
}

fn chariot_mobility(board: &[u8; 90], from: usize, side: usize) -> i32 {
    let mut n = 0;
    for (&length, step) in GEOMETRY.ray_lengths[from].iter().zip(ORTHO_STEPS) {
        let mut at = from;
        for _ in 0..length {
            at = at.wrapping_add_signed(step);
            let c = board[at];
            if c == 0 {
                n += 1;
                continue;
            }
            if side_of(c) != side {
                n += 1;
            }
            break;
        }
    }
    n
}

fn horse_mobility(board: &[u8; 90], from: usize, side: usize) -> i32 {
    let moves = &GEOMETRY.horse[from][..usize::from(GEOMETRY.horse_moves[from])];
    let mut n = 0;
    for &(leg, to) in moves {
        if board[usize::from(leg)] != 0 {
            continue;
        }
        let c = board[usize::from(to)];
        if c == 0 || side_of(c) != side {
            n += 1;
        }
    }
    n
}

/// Pieces strictly between two points on one file.
fn pieces_between(board: &[u8; 90], a: usize, b: usize) -> usize {
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    (lo + 9..hi).step_by(9).filter(|&i| board[i] != 0).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A chariot's mobility worked out by walking the board point by point.
    fn walked_chariot_mobility(board: &[u8; 90], from: usize, side: usize) -> i32 {
        let mut n = 0;
        for (df, dr) in ORTHO {
            let mut at = from;
            while let Some(next) = step(at, df, dr) {
                at = next;
                n += i32::from(board[at] == 0 || side_of(board[at]) != side);
                if board[at] != 0 {
                    break;
                }
            }
        }
        n
    }

    /// A horse's mobility worked out from its leg and its two landings in each direction.
    fn walked_horse_mobility(board: &[u8; 90], from: usize, side: usize) -> i32 {
        let mut n = 0;
        for (df, dr) in ORTHO {
            let Some(leg) = step(from, df, dr).filter(|&leg| board[leg] == 0) else { continue };
            let sides = if df == 0 { [(1, 0), (-1, 0)] } else { [(0, 1), (0, -1)] };
            for (sf, sr) in sides {
                if let Some(to) = step(leg, df + sf, dr + sr) {
                    n += i32::from(board[to] == 0 || side_of(board[to]) != side);
                }
            }
        }
        n
    }

    /// The geometry tables give what walking the board gives, from every point, on boards from
    /// empty to crowded.
    #[test]
    fn mobility_from_the_tables_is_mobility_walked() {
        let mut state = 3u64;
        for crowd in [0, 8, 24, 45, 70] {
            let mut board = [0u8; 90];
            for _ in 0..crowd {
                state = qi_rules::zobrist::splitmix64(state);
                let (point, side, piece) =
                    ((state % 90) as usize, (state >> 8) as usize & 1, (state >> 16) as usize % 7);
                board[point] = code(side, piece);
            }
            for from in 0..90 {
                assert_eq!(usize::from(GEOMETRY.relative[1][from]), relative(1, from));
                for side in 0..2 {
                    let context = format!("{crowd} pieces, from {from}, side {side}");
                    assert_eq!(
                        chariot_mobility(&board, from, side),
                        walked_chariot_mobility(&board, from, side),
                        "{context}"
                    );
                    assert_eq!(
                        horse_mobility(&board, from, side),
                        walked_horse_mobility(&board, from, side),
                        "{context}"
                    );
                }
            }
        }
        // A horse in the corner has two moves, in the middle eight; a chariot always has 17
        // points on an empty board.
        assert_eq!((GEOMETRY.horse_moves[0], GEOMETRY.horse_moves[40]), (2, 8));
        assert!((0..90).all(|p| GEOMETRY.ray_lengths[p].iter().sum::<u8>() == 17));
    }
}
