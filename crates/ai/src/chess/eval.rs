//! Static evaluation: tapered material and piece-square tables (middlegame and endgame values
//! blended by the material left), light mobility, pawn structure, king safety, threats (pieces
//! attacked by pawns, rooks and queens by minor pieces) and the bishop pair.

use qi_rules::chess::shakmaty::attacks::{
    bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks,
};
use qi_rules::chess::shakmaty::{Bitboard, Board, Color, Role, Square};

/// Material in the middlegame and the endgame, by role (pawn first; the king counts nothing).
const MG_VALUE: [i32; 6] = [82, 337, 365, 477, 1025, 0];
const EG_VALUE: [i32; 6] = [94, 281, 297, 512, 936, 0];
/// How much each role counts towards the middlegame phase (24 at the start).
const PHASE: [i32; 6] = [0, 1, 1, 2, 4, 0];
const FULL_PHASE: i32 = 24;

/// Rough piece values for move ordering and pruning margins, by role (pawn first).
pub const ORDER_VALUE: [i32; 6] = [100, 320, 330, 500, 900, 20_000];

// Piece-square tables from White's side, written as the board is seen: the first row is rank 8.
// Values in the spirit of the well-known PeSTO tables (texel-tuned, public domain).
#[rustfmt::skip]
const MG_PST: [[i32; 64]; 6] = [
    [  0,   0,   0,   0,   0,   0,  0,   0,
      98, 134,  61,  95,  68, 126, 34, -11,
      -6,   7,  26,  31,  65,  56, 25, -20,
     -14,  13,   6,  21,  23,  12, 17, -23,
     -27,  -2,  -5,  12,  17,   6, 10, -25,
     -26,  -4,  -4, -10,   3,   3, 33, -12,
     -35,  -1, -20, -23, -15,  24, 38, -22,
       0,   0,   0,   0,   0,   0,  0,   0],
    [-167, -89, -34, -49,  61, -97, -15, -107,
      -73, -41,  72,  36,  23,  62,   7,  -17,
      -47,  60,  37,  65,  84, 129,  73,   44,
       -9,  17,  19,  53,  37,  69,  18,   22,
      -13,   4,  16,  13,  28,  19,  21,   -8,
      -23,  -9,  12,  10,  19,  17,  25,  -16,
      -29, -53, -12,  -3,  -1,  18, -14,  -19,
     -105, -21, -58, -33, -17, -28, -19,  -23],
    [-29,   4, -82, -37, -25, -42,   7,  -8,
     -26,  16, -18, -13,  30,  59,  18, -47,
     -16,  37,  43,  40,  35,  50,  37,  -2,
      -4,   5,  19,  50,  37,  37,   7,  -2,
      -6,  13,  13,  26,  34,  12,  10,   4,
       0,  15,  15,  15,  14,  27,  18,  10,
       4,  15,  16,   0,   7,  21,  33,   1,
     -33,  -3, -14, -21, -13, -12, -39, -21],
    [ 32,  42,  32,  51, 63,  9,  31,  43,
      27,  32,  58,  62, 80, 67,  26,  44,
      -5,  19,  26,  36, 17, 45,  61,  16,
     -24, -11,   7,  26, 24, 35,  -8, -20,
     -36, -26, -12,  -1,  9, -7,   6, -23,
     -45, -25, -16, -17,  3,  0,  -5, -33,
     -44, -16, -20,  -9, -1, 11,  -6, -71,
     -19, -13,   1,  17, 16,  7, -37, -26],
    [-28,   0,  29,  12,  59,  44,  43,  45,
     -24, -39,  -5,   1, -16,  57,  28,  54,
     -13, -17,   7,   8,  29,  56,  47,  57,
     -27, -27, -16, -16,  -1,  17,  -2,   1,
      -9, -26,  -9, -10,  -2,  -4,   3,  -3,
     -14,   2, -11,  -2,  -5,   2,  14,   5,
     -35,  -8,  11,   2,   8,  15,  -3,   1,
      -1, -18,  -9,  10, -15, -25, -31, -50],
    [-65,  23,  16, -15, -56, -34,   2,  13,
      29,  -1, -20,  -7,  -8,  -4, -38, -29,
      -9,  24,   2, -16, -20,   6,  22, -22,
     -17, -20, -12, -27, -30, -25, -14, -36,
     -49,  -1, -27, -39, -46, -44, -33, -51,
     -14, -14, -22, -46, -44, -30, -15, -27,
       1,   7,  -8, -64, -43, -16,   9,   8,
     -15,  36,  12, -54,   8, -28,  24,  14],
];

#[rustfmt::skip]
const EG_PST: [[i32; 64]; 6] = [
    [  0,   0,   0,   0,   0,   0,   0,   0,
     178, 173, 158, 134, 147, 132, 165, 187,
      94, 100,  85,  67,  56,  53,  82,  84,
      32,  24,  13,   5,  -2,   4,  17,  17,
      13,   9,  -3,  -7,  -7,  -8,   3,  -1,
       4,   7,  -6,   1,   0,  -5,  -1,  -8,
      13,   8,   8,  10,  13,   0,   2,  -7,
       0,   0,   0,   0,   0,   0,   0,   0],
    [-58, -38, -13, -28, -31, -27, -63, -99,
     -25,  -8, -25,  -2,  -9, -25, -24, -52,
     -24, -20,  10,   9,  -1,  -9, -19, -41,
     -17,   3,  22,  22,  22,  11,   8, -18,
     -18,  -6,  16,  25,  16,  17,   4, -18,
     -23,  -3,  -1,  15,  10,  -3, -20, -22,
     -42, -20, -10,  -5,  -2, -20, -23, -44,
     -29, -51, -23, -15, -22, -18, -50, -64],
    [-14, -21, -11,  -8, -7,  -9, -17, -24,
      -8,  -4,   7, -12, -3, -13,  -4, -14,
       2,  -8,   0,  -1, -2,   6,   0,   4,
      -3,   9,  12,   9, 14,  10,   3,   2,
      -6,   3,  13,  19,  7,  10,  -3,  -9,
     -12,  -3,   8,  10, 13,   3,  -7, -15,
     -14, -18,  -7,  -1,  4,  -9, -15, -27,
     -23,  -9, -23,  -5, -9, -16,  -5, -17],
    [13, 10, 18, 15, 12,  12,   8,   5,
     11, 13, 13, 11, -3,   3,   8,   3,
      7,  7,  7,  5,  4,  -3,  -5,  -3,
      4,  3, 13,  1,  2,   1,  -1,   2,
      3,  5,  8,  4, -5,  -6,  -8, -11,
     -4,  0, -5, -1, -7, -12,  -8, -16,
     -6, -6,  0,  2, -9,  -9, -11,  -3,
     -9,  2,  3, -1, -5, -13,   4, -20],
    [ -9,  22,  22,  27,  27,  19,  10,  20,
     -17,  20,  32,  41,  58,  25,  30,   0,
     -20,   6,   9,  49,  47,  35,  19,   9,
       3,  22,  24,  45,  57,  40,  57,  36,
     -18,  28,  19,  47,  31,  34,  39,  23,
     -16, -27,  15,   6,   9,  17,  10,   5,
     -22, -23, -30, -16, -16, -23, -36, -32,
     -33, -28, -22, -43,  -5, -32, -20, -41],
    [-74, -35, -18, -18, -11,  15,   4, -17,
     -12,  17,  14,  17,  17,  38,  23,  11,
      10,  17,  23,  15,  20,  45,  44,  13,
      -8,  22,  24,  27,  26,  33,  26,   3,
     -18,  -4,  21,  24,  27,  23,   9, -11,
     -19,  -3,  11,  21,  23,  16,   7,  -9,
     -27, -11,   4,  13,  14,   4,  -5, -17,
     -53, -34, -21, -11, -28, -14, -24, -43],
];

/// Bonus for a passed pawn by how far it has come (relative rank 0-7).
const PASSED_MG: [i32; 8] = [0, 5, 5, 10, 20, 35, 60, 0];
const PASSED_EG: [i32; 8] = [0, 10, 15, 25, 45, 75, 120, 0];
/// Mobility weights per attacked square (knight, bishop, rook, queen), and the count taken as
/// neutral so that the terms stay small.
const MOBILITY_MG: [i32; 4] = [4, 5, 2, 1];
const MOBILITY_EG: [i32; 4] = [4, 5, 4, 2];
const MOBILITY_BASE: [i32; 4] = [4, 6, 6, 12];
/// Weight of each attacker of the squares around the enemy king (knight, bishop, rook, queen).
const KING_ATTACK_WEIGHT: [i32; 4] = [2, 2, 3, 5];

/// A piece of theirs attacked by one of our pawns (middlegame, endgame): it must move.
const THREAT_BY_PAWN: (i32, i32) = (60, 40);
/// A rook or queen of theirs attacked by one of our knights or bishops.
const THREAT_BY_MINOR: (i32, i32) = (35, 25);

const FILE_A: u64 = 0x0101_0101_0101_0101;

fn file_mask(file: usize) -> u64 {
    FILE_A << file
}

fn adjacent_files(file: usize) -> u64 {
    let mut mask = 0;
    if file > 0 {
        mask |= file_mask(file - 1);
    }
    if file < 7 {
        mask |= file_mask(file + 1);
    }
    mask
}

/// The squares strictly in front of `sq` for `color` (towards the promotion rank).
fn ahead(color: Color, sq: usize) -> u64 {
    let rank = sq / 8;
    match color {
        Color::White if rank < 7 => !0u64 << ((rank + 1) * 8),
        Color::Black if rank > 0 => !0u64 >> ((8 - rank) * 8),
        _ => 0,
    }
}

/// Middlegame and endgame terms, added up for one side then subtracted for the other.
#[derive(Default, Clone, Copy)]
struct Terms {
    mg: i32,
    eg: i32,
}

impl Terms {
    fn add(&mut self, mg: i32, eg: i32) {
        self.mg += mg;
        self.eg += eg;
    }
}

fn square(index: usize) -> Square {
    Square::new(index as u32)
}

fn bits(board: u64) -> impl Iterator<Item = usize> {
    Bitboard(board).into_iter().map(Square::to_usize)
}

/// The evaluation of `board` in centipawns from `turn`'s point of view.
#[must_use]
pub fn evaluate(board: &Board, turn: Color) -> i32 {
    let mut phase = 0;
    let mut sides = [Terms::default(); 2];
    for color in Color::ALL {
        let terms = &mut sides[usize::from(color == Color::Black)];
        let ours = board.by_color(color).0;
        for (index, role) in Role::ALL.iter().enumerate() {
            for sq in bits(board.by_role(*role).0 & ours) {
                let table_sq = if color == Color::White { sq ^ 56 } else { sq };
                terms.add(
                    MG_VALUE[index] + MG_PST[index][table_sq],
                    EG_VALUE[index] + EG_PST[index][table_sq],
                );
                phase += PHASE[index];
            }
        }
        if (board.bishops().0 & ours).count_ones() >= 2 {
            terms.add(30, 50);
        }
        pawn_structure(board, color, terms);
        pieces_activity(board, color, terms);
    }
    let phase = phase.min(FULL_PHASE);
    let white = sides[0];
    let black = sides[1];
    let mg = white.mg - black.mg;
    let eg = white.eg - black.eg;
    let mut score = (mg * phase + eg * (FULL_PHASE - phase)) / FULL_PHASE;
    score = scale_drawish(board, score);
    let tempo = 10;
    match turn {
        Color::White => score + tempo,
        Color::Black => -score + tempo,
    }
}

/// Endings where the side ahead has no pawns and too little to mate are nearly drawn.
fn scale_drawish(board: &Board, score: i32) -> i32 {
    let strong = if score > 0 { Color::White } else { Color::Black };
    let ours = board.by_color(strong).0;
    if board.pawns().0 & ours != 0 {
        return score;
    }
    let minors = ((board.knights().0 | board.bishops().0) & ours).count_ones();
    let majors = ((board.rooks().0 | board.queens().0) & ours).count_ones();
    if majors == 0 && minors <= 1 { score / 8 } else { score }
}

fn pawn_structure(board: &Board, color: Color, terms: &mut Terms) {
    let ours = board.pawns().0 & board.by_color(color).0;
    let theirs = board.pawns().0 & board.by_color(color.other()).0;
    for sq in bits(ours) {
        let file = sq % 8;
        if (ours & file_mask(file)).count_ones() > 1 {
            terms.add(-5, -10); // each of a doubled pair pays
        }
        if ours & adjacent_files(file) == 0 {
            terms.add(-10, -15);
        }
        let front_span = ahead(color, sq) & (file_mask(file) | adjacent_files(file));
        if theirs & front_span == 0 && ours & ahead(color, sq) & file_mask(file) == 0 {
            let relative_rank = if color == Color::White { sq / 8 } else { 7 - sq / 8 };
            terms.add(PASSED_MG[relative_rank], PASSED_EG[relative_rank]);
        }
    }
}

/// Mobility of the pieces, rooks on open files, threats (pieces attacked by pawns, rooks and
/// queens by minors) and the attack on the enemy king.
fn pieces_activity(board: &Board, color: Color, terms: &mut Terms) {
    let occupied = board.occupied();
    let ours = board.by_color(color).0;
    let them = color.other();
    let their_pawns = board.pawns().0 & board.by_color(them).0;
    let our_pawns = board.pawns().0 & ours;
    let mut pawn_guarded = 0u64;
    for sq in bits(their_pawns) {
        pawn_guarded |= pawn_attacks(them, square(sq)).0;
    }
    let their_king = board.king_of(them).map_or(0, |k| king_attacks(k).0 | (1u64 << k.to_usize()));
    let mut attack_units = 0;
    let mut attackers = 0;
    let mut minor_attacks = 0u64;
    let kinds = [Role::Knight, Role::Bishop, Role::Rook, Role::Queen];
    for (kind, role) in kinds.into_iter().enumerate() {
        for sq in bits(board.by_role(role).0 & ours) {
            let s = square(sq);
            let attacks = match role {
                Role::Knight => knight_attacks(s),
                Role::Bishop => bishop_attacks(s, occupied),
                Role::Rook => rook_attacks(s, occupied),
                _ => bishop_attacks(s, occupied) | rook_attacks(s, occupied),
            }
            .0;
            if kind < 2 {
                minor_attacks |= attacks;
            }
            let mobility = (attacks & !ours & !pawn_guarded).count_ones() as i32;
            let delta = mobility - MOBILITY_BASE[kind];
            terms.add(delta * MOBILITY_MG[kind], delta * MOBILITY_EG[kind]);
            if attacks & their_king != 0 {
                attackers += 1;
                attack_units +=
                    KING_ATTACK_WEIGHT[kind] * (attacks & their_king).count_ones() as i32;
            }
            if role == Role::Rook {
                let file = file_mask(sq % 8);
                if our_pawns & file == 0 {
                    let open = their_pawns & file == 0;
                    terms.add(if open { 25 } else { 12 }, if open { 10 } else { 5 });
                }
            }
        }
    }
    // Threats: their pieces attacked by our pawns, and their rooks and queens by our minors.
    let mut our_pawn_attacks = 0u64;
    for sq in bits(our_pawns) {
        our_pawn_attacks |= pawn_attacks(color, square(sq)).0;
    }
    let their_pieces = board.by_color(them).0 & !board.pawns().0 & !board.kings().0;
    let by_pawns = (our_pawn_attacks & their_pieces).count_ones() as i32;
    terms.add(THREAT_BY_PAWN.0 * by_pawns, THREAT_BY_PAWN.1 * by_pawns);
    let their_majors = board.by_color(them).0 & (board.rooks().0 | board.queens().0);
    let by_minors = (minor_attacks & their_majors).count_ones() as i32;
    terms.add(THREAT_BY_MINOR.0 * by_minors, THREAT_BY_MINOR.1 * by_minors);
    if attackers >= 2 {
        let bonus = (attack_units * attack_units / 4).min(400);
        terms.add(bonus, bonus / 4);
    }
    if let Some(king) = board.king_of(color) {
        terms.add(-king_shelter_penalty(color, king.to_usize(), our_pawns), 0);
    }
}

/// Missing pawns in front of a castled-looking king (on the wings of its back two ranks).
fn king_shelter_penalty(color: Color, king: usize, our_pawns: u64) -> i32 {
    let relative_rank = if color == Color::White { king / 8 } else { 7 - king / 8 };
    let file = king % 8;
    if relative_rank > 1 || (3..=4).contains(&file) {
        return 0;
    }
    let files = file_mask(file) | adjacent_files(file);
    let shield = ahead(color, king) & files & our_pawns;
    let mut penalty = 0;
    for f in file.saturating_sub(1)..=(file + 1).min(7) {
        let column = shield & file_mask(f);
        let near = column & near_ranks(color, king);
        if near == 0 {
            penalty += if column == 0 { 25 } else { 12 };
        }
    }
    penalty
}

/// The two ranks just in front of the king.
fn near_ranks(color: Color, king: usize) -> u64 {
    let rank = king / 8;
    let mut mask = 0u64;
    for step in 1..=2 {
        let r = if color == Color::White { rank + step } else { rank.wrapping_sub(step) };
        if r < 8 {
            mask |= 0xFFu64 << (r * 8);
        }
    }
    mask
}

/// Whether `color` has a piece other than pawns and the king (null-move pruning is unsafe
/// without: zugzwang).
#[must_use]
pub fn has_pieces(board: &Board, color: Color) -> bool {
    let ours = board.by_color(color).0;
    (board.knights().0 | board.bishops().0 | board.rooks().0 | board.queens().0) & ours != 0
}

/// The value of a role for move ordering.
#[must_use]
pub fn order_value(role: Role) -> i32 {
    ORDER_VALUE[role as usize - 1]
}
