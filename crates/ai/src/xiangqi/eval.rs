//! Static evaluation of a xiangqi position: tapered material and piece-square tables, light
//! mobility, cannon threats on the general's file, palace safety and pressure near the enemy
//! palace, and a scale-down when the stronger side has nothing left to attack with.
//!
//! The board is the engine's mirror: 90 points by `rank * 9 + file` (rank 0 is Red's back rank),
//! each holding 0 or a piece code `side << 3 | piece + 1`.

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

/// Middle-game and endgame material: the horse gains and the cannon loses as the board empties.
const MATERIAL_MG: [i32; 7] = [0, 200, 200, 400, 900, 470, 100];
const MATERIAL_EG: [i32; 7] = [0, 200, 200, 460, 950, 410, 110];

/// A rough value per piece for move ordering (captures by value).
pub(super) const ORDER_VALUE: [i32; 7] = [5000, 200, 200, 430, 920, 440, 110];

/// Game phase weight: the full set of chariots, horses and cannons is [`MAX_PHASE`].
const PHASE: [i32; 7] = [0, 0, 0, 3, 6, 3, 0];
const MAX_PHASE: i32 = 48;

/// The tables, from the owner's side: `rank` counted from its own back rank.
const fn square_bonus(piece: usize, rank: usize, file: usize, endgame: bool) -> i32 {
    let fc = file.abs_diff(4) as i32;
    let central = 4 - fc;
    let r = rank as i32;
    match piece {
        GENERAL => {
            if endgame {
                if fc == 0 { 10 } else { 0 }
            } else {
                -12 * r - if fc == 0 { 0 } else { 6 }
            }
        }
        ADVISOR => {
            if rank == 1 && file == 4 {
                10
            } else {
                0
            }
        }
        ELEPHANT => {
            if rank == 2 && file == 4 {
                12
            } else if file == 0 || file == 8 {
                -6
            } else {
                0
            }
        }
        HORSE => {
            let by_rank = [-18, -6, 4, 6, 10, 20, 28, 30, 18, 0][rank];
            let edge = if fc == 4 { -16 } else { 0 };
            by_rank + central * 5 + edge
        }
        CHARIOT => {
            let by_rank = [-6, 2, 0, 4, 8, 10, 16, 14, 12, 6][rank];
            by_rank + central * 2
        }
        CANNON => {
            let by_rank = [4, 0, 6, 0, 0, 2, 4, 0, 2, 14][rank];
            let centre = if fc == 0 && !endgame { 16 } else { 0 };
            by_rank + centre
        }
        _ => {
            // Soldiers: worth little at home, much more across the river, most near the palace;
            // the last rank ("old soldier") is worth less again.
            let bonus = match rank {
                0..=2 => 0,
                3 => {
                    if fc == 0 {
                        6
                    } else {
                        0
                    }
                }
                4 => 6 + central * 2,
                5 => 50 + central * 3,
                6 => 62 + central * 8,
                7 => 72 + central * 10,
                8 => 70 + central * 9,
                _ => 25 + central * 4,
            };
            if endgame { bonus * 4 / 3 } else { bonus }
        }
    }
}

const fn table(endgame: bool) -> [[i32; 90]; 7] {
    let mut t = [[0; 90]; 7];
    let mut piece = 0;
    while piece < 7 {
        let mut i = 0;
        while i < 90 {
            let material = if endgame { MATERIAL_EG[piece] } else { MATERIAL_MG[piece] };
            t[piece][i] = material + square_bonus(piece, i / 9, i % 9, endgame);
            i += 1;
        }
        piece += 1;
    }
    t
}

static PST_MG: [[i32; 90]; 7] = table(false);
static PST_EG: [[i32; 90]; 7] = table(true);

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

/// Weight of an attacker standing near the enemy palace.
const ATTACK_WEIGHT: [i32; 7] = [0, 0, 0, 22, 26, 16, 12];
/// Scaling of the summed attack by the number of attackers (percent): one alone does little.
const ATTACK_SCALE: [i32; 8] = [0, 45, 100, 140, 165, 180, 190, 200];

/// The evaluation from the side to move's point of view.
pub(super) fn evaluate(board: &[u8; 90], side_to_move: usize) -> i32 {
    let mut mg = [0i32; 2];
    let mut eg = [0i32; 2];
    let mut count = [[0i32; 7]; 2];
    let mut crossed = [0i32; 2];
    let mut general = [0usize; 2];
    let mut attack = [0i32; 2];
    let mut attackers = [0usize; 2];
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
        count[side][piece] += 1;
        phase += PHASE[piece];
        mg[side] += PST_MG[piece][rel];
        eg[side] += PST_EG[piece][rel];
        match piece {
            GENERAL => general[side] = i,
            CHARIOT => {
                let mobility = chariot_mobility(board, i, side);
                mg[side] += 3 * mobility - 18;
                eg[side] += 4 * mobility - 24;
            }
            HORSE => {
                let mobility = horse_mobility(board, i, side);
                mg[side] += 6 * mobility - 18;
                eg[side] += 6 * mobility - 18;
            }
            CANNON => cannons[side][i / 64] |= 1 << (i % 64),
            SOLDIER if rel / 9 >= 5 => crossed[side] += 1,
            _ => {}
        }
        if ATTACK_WEIGHT[piece] > 0 && near_enemy_palace(side, i) {
            attack[side] += ATTACK_WEIGHT[piece];
            attackers[side] += 1;
        }
    }
    for side in 0..2 {
        let them = side ^ 1;
        // Cannons aiming down the enemy general's file.
        for (word, &set) in cannons[side].iter().enumerate() {
            let mut aiming = set;
            while aiming != 0 {
                let i = word * 64 + aiming.trailing_zeros() as usize;
                aiming &= aiming - 1;
                if i % 9 == general[them] % 9 {
                    let between = pieces_between(board, i, general[them]);
                    let bonus = match between {
                        0 => 55,
                        1 => 25,
                        2 => 18,
                        _ => 0,
                    };
                    mg[side] += bonus;
                    eg[side] += bonus / 2;
                }
            }
        }
        let pressure = attack[side] * ATTACK_SCALE[attackers[side].min(7)] / 100;
        mg[side] += pressure;
        eg[side] += pressure / 2;
        // Palace safety: missing advisors matter against horses, chariots and soldiers; missing
        // elephants against cannons and chariots.
        let missing_advisors = 2 - count[side][ADVISOR];
        let missing_elephants = 2 - count[side][ELEPHANT];
        let penalty = missing_advisors
            * (14 * count[them][HORSE] + 10 * count[them][CHARIOT] + 6 * crossed[them])
            + missing_elephants * (14 * count[them][CANNON] + 6 * count[them][CHARIOT]);
        mg[side] -= penalty;
        eg[side] -= penalty / 2;
    }
    let phase = phase.min(MAX_PHASE);
    let mut score = ((mg[0] - mg[1]) * phase + (eg[0] - eg[1]) * (MAX_PHASE - phase)) / MAX_PHASE;
    // A side with no attacking piece left cannot win, whatever its material.
    let can_attack = |side: usize| {
        count[side][CHARIOT] + count[side][HORSE] + count[side][CANNON] + count[side][SOLDIER] > 0
    };
    if (score > 0 && !can_attack(0)) || (score < 0 && !can_attack(1)) {
        score /= 16;
    }
    let score = if side_to_move == 0 { score } else { -score };
    score + 12
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
