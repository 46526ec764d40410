//! Static evaluation: tapered material and piece-square tables (middlegame and endgame values
//! blended by the material left), mobility, pawn structure, king safety, threats (pieces
//! attacked by pawns, rooks and queens by minor pieces) and the bishop pair.
//!
//! Every number the evaluation adds is a weight of [`super::weights`], counted by the terms of a
//! position: the same code sums the weights for the search ([`evaluate`]) and, for the lab's
//! tuner, lists how often each weight counts ([`terms`] with a [`Terms`] that records), so the
//! fitted weights are the evaluation's own. The layout of the weights is [`GROUPS`].

use qi_rules::chess::shakmaty::attacks::{
    bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks,
};
use qi_rules::chess::shakmaty::{Bitboard, Board, Color, Role, Square};

use super::weights::WEIGHTS;
pub use crate::terms::Terms;

/// How much each role counts towards the middlegame phase (24 at the start).
const PHASE: [i32; 6] = [0, 1, 1, 2, 4, 0];
/// The phase of a full board: the middlegame weights count `phase / FULL_PHASE`, the endgame
/// weights the rest.
pub const FULL_PHASE: i32 = 24;
/// What the side to move gains by moving (not tuned: added after the blend).
pub const TEMPO: i32 = 10;

// The layout of the weights: where each group starts.
const MATERIAL: usize = 0;
const PST: usize = MATERIAL + 6;
const BISHOP_PAIR: usize = PST + 6 * 64;
const DOUBLED: usize = BISHOP_PAIR + 1;
const ISOLATED: usize = DOUBLED + 1;
const PASSED: usize = ISOLATED + 1;
const MOBILITY: usize = PASSED + 8;
/// The most squares a knight, bishop, rook and queen can reach.
const MOST_MOBILITY: [usize; 4] = [8, 13, 14, 27];
const MOBILITY_START: [usize; 4] =
    [MOBILITY, MOBILITY + 9, MOBILITY + 9 + 14, MOBILITY + 9 + 14 + 15];
const ROOK_OPEN: usize = MOBILITY + 9 + 14 + 15 + 28;
const ROOK_HALF_OPEN: usize = ROOK_OPEN + 1;
const THREAT_BY_PAWN: usize = ROOK_HALF_OPEN + 1;
const THREAT_BY_MINOR: usize = THREAT_BY_PAWN + 1;
const SHELTER_THIN: usize = THREAT_BY_MINOR + 1;
const SHELTER_BARE: usize = SHELTER_THIN + 1;
const KING_ATTACK: usize = SHELTER_BARE + 1;
/// Attack units above this count as this many.
const MOST_ATTACK_UNITS: i32 = 63;
/// The number of weights (each a middlegame and an endgame value).
pub const PARAMS: usize = KING_ATTACK + MOST_ATTACK_UNITS as usize + 1;

/// The groups of weights in their order, each with how many it holds: what the tuner writes as
/// comments in `weights.rs`.
pub const GROUPS: &[(&str, usize)] = &[
    ("material (pawn, knight, bishop, rook, queen, king)", 6),
    ("pawn on each square (a8..h8, ..., a1..h1, from White's side)", 64),
    ("knight on each square (a8..h8, ..., a1..h1, from White's side)", 64),
    ("bishop on each square (a8..h8, ..., a1..h1, from White's side)", 64),
    ("rook on each square (a8..h8, ..., a1..h1, from White's side)", 64),
    ("queen on each square (a8..h8, ..., a1..h1, from White's side)", 64),
    ("king on each square (a8..h8, ..., a1..h1, from White's side)", 64),
    ("bishop pair", 1),
    ("doubled pawn (each of the pair)", 1),
    ("isolated pawn", 1),
    ("passed pawn by relative rank (0-7)", 8),
    ("knight mobility by squares reached (0-8)", 9),
    ("bishop mobility by squares reached (0-13)", 14),
    ("rook mobility by squares reached (0-14)", 15),
    ("queen mobility by squares reached (0-27)", 28),
    ("rook on an open file", 1),
    ("rook on a half-open file", 1),
    ("piece attacked by a pawn", 1),
    ("rook or queen attacked by a knight or bishop", 1),
    ("king shelter: a file whose pawn has left the two ranks in front", 1),
    ("king shelter: a file with no pawn in front", 1),
    ("attack on the king by attack units (0-63), with two attackers or more", 64),
];

/// The weights the evaluation uses, `[middlegame, endgame]` for each parameter.
#[must_use]
pub fn weights() -> &'static [[i32; 2]; PARAMS] {
    &WEIGHTS
}

/// Rough piece values for move ordering and pruning margins, by role (pawn first).
pub const ORDER_VALUE: [i32; 6] = [100, 320, 330, 500, 900, 20_000];

/// Weight of each attacker of the squares around the enemy king (knight, bishop, rook, queen),
/// in attack units.
const KING_ATTACK_WEIGHT: [i32; 4] = [2, 2, 3, 5];

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

fn square(index: usize) -> Square {
    Square::new(index as u32)
}

fn bits(board: u64) -> impl Iterator<Item = usize> {
    Bitboard(board).into_iter().map(Square::to_usize)
}

/// Adds each side's terms for `board` (White's to `sides[0]`, Black's to `sides[1]`) and
/// returns the game's phase, from [`FULL_PHASE`] (all pieces on) down to 0.
pub fn terms<T: Terms>(board: &Board, sides: &mut [T; 2]) -> i32 {
    let mut phase = 0;
    for color in Color::ALL {
        let terms = &mut sides[usize::from(color == Color::Black)];
        let ours = board.by_color(color).0;
        for (index, role) in Role::ALL.iter().enumerate() {
            for sq in bits(board.by_role(*role).0 & ours) {
                let table_sq = if color == Color::White { sq ^ 56 } else { sq };
                terms.add(MATERIAL + index, 1);
                terms.add(PST + index * 64 + table_sq, 1);
                phase += PHASE[index];
            }
        }
        if (board.bishops().0 & ours).count_ones() >= 2 {
            terms.add(BISHOP_PAIR, 1);
        }
        pawn_structure(board, color, terms);
        pieces_activity(board, color, terms);
    }
    phase.min(FULL_PHASE)
}

/// The evaluation of `board` in centipawns from `turn`'s point of view.
#[must_use]
pub fn evaluate(board: &Board, turn: Color) -> i32 {
    let mut sides = [Sum::default(); 2];
    let phase = terms(board, &mut sides);
    let [white, black] = sides;
    let mg = white.mg - black.mg;
    let eg = white.eg - black.eg;
    let mut score = (mg * phase + eg * (FULL_PHASE - phase)) / FULL_PHASE;
    if score != 0 && drawish(board, if score > 0 { Color::White } else { Color::Black }) {
        score /= DRAWISH_SCALE;
    }
    match turn {
        Color::White => score + TEMPO,
        Color::Black => -score + TEMPO,
    }
}

/// `score`, a score for `turn`, divided by [`DRAWISH_SCALE`] when the side ahead has too little
/// to win ([`drawish`]): what [`evaluate`] does to its own score, for the network's.
#[must_use]
pub fn scale_drawish(board: &Board, turn: Color, score: i32) -> i32 {
    let strong = if score > 0 { turn } else { !turn };
    if score != 0 && drawish(board, strong) { score / DRAWISH_SCALE } else { score }
}

/// What a drawish ending's score is divided by.
pub const DRAWISH_SCALE: i32 = 8;

/// Whether `strong`, the side ahead, has no pawns and too little to mate: the ending is nearly
/// drawn.
#[must_use]
pub fn drawish(board: &Board, strong: Color) -> bool {
    let ours = board.by_color(strong).0;
    if board.pawns().0 & ours != 0 {
        return false;
    }
    let minors = ((board.knights().0 | board.bishops().0) & ours).count_ones();
    let majors = ((board.rooks().0 | board.queens().0) & ours).count_ones();
    majors == 0 && minors <= 1
}

fn pawn_structure(board: &Board, color: Color, terms: &mut impl Terms) {
    let ours = board.pawns().0 & board.by_color(color).0;
    let theirs = board.pawns().0 & board.by_color(color.other()).0;
    for sq in bits(ours) {
        let file = sq % 8;
        if (ours & file_mask(file)).count_ones() > 1 {
            terms.add(DOUBLED, 1); // each of a doubled pair pays
        }
        if ours & adjacent_files(file) == 0 {
            terms.add(ISOLATED, 1);
        }
        let front_span = ahead(color, sq) & (file_mask(file) | adjacent_files(file));
        if theirs & front_span == 0 && ours & ahead(color, sq) & file_mask(file) == 0 {
            let relative_rank = if color == Color::White { sq / 8 } else { 7 - sq / 8 };
            terms.add(PASSED + relative_rank, 1);
        }
    }
}

/// Mobility of the pieces, rooks on open files, threats (pieces attacked by pawns, rooks and
/// queens by minors) and the attack on the enemy king.
fn pieces_activity(board: &Board, color: Color, terms: &mut impl Terms) {
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
            let mobility = (attacks & !ours & !pawn_guarded).count_ones() as usize;
            terms.add(MOBILITY_START[kind] + mobility.min(MOST_MOBILITY[kind]), 1);
            if attacks & their_king != 0 {
                attackers += 1;
                attack_units +=
                    KING_ATTACK_WEIGHT[kind] * (attacks & their_king).count_ones() as i32;
            }
            if role == Role::Rook {
                let file = file_mask(sq % 8);
                if our_pawns & file == 0 {
                    let open = their_pawns & file == 0;
                    terms.add(if open { ROOK_OPEN } else { ROOK_HALF_OPEN }, 1);
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
    terms.add(THREAT_BY_PAWN, by_pawns);
    let their_majors = board.by_color(them).0 & (board.rooks().0 | board.queens().0);
    let by_minors = (minor_attacks & their_majors).count_ones() as i32;
    terms.add(THREAT_BY_MINOR, by_minors);
    if attackers >= 2 {
        terms.add(KING_ATTACK + attack_units.min(MOST_ATTACK_UNITS) as usize, 1);
    }
    if let Some(king) = board.king_of(color) {
        king_shelter(color, king.to_usize(), our_pawns, terms);
    }
}

/// Missing pawns in front of a castled-looking king (on the wings of its back two ranks): for
/// each file by the king, its pawn gone from the two ranks in front, or gone altogether.
fn king_shelter(color: Color, king: usize, our_pawns: u64, terms: &mut impl Terms) {
    let relative_rank = if color == Color::White { king / 8 } else { 7 - king / 8 };
    let file = king % 8;
    if relative_rank > 1 || (3..=4).contains(&file) {
        return;
    }
    let files = file_mask(file) | adjacent_files(file);
    let shield = ahead(color, king) & files & our_pawns;
    for f in file.saturating_sub(1)..=(file + 1).min(7) {
        let column = shield & file_mask(f);
        let near = column & near_ranks(color, king);
        if near == 0 {
            terms.add(if column == 0 { SHELTER_BARE } else { SHELTER_THIN }, 1);
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_groups_are_the_layout() {
        assert_eq!(GROUPS.iter().map(|(_, n)| n).sum::<usize>(), PARAMS);
        let starts: Vec<usize> = GROUPS
            .iter()
            .scan(0, |at, (_, n)| {
                let start = *at;
                *at += n;
                Some(start)
            })
            .collect();
        for (start, group) in [
            (MATERIAL, 0),
            (PST, 1),
            (BISHOP_PAIR, 7),
            (PASSED, 10),
            (MOBILITY_START[0], 11),
            (MOBILITY_START[3], 14),
            (ROOK_OPEN, 15),
            (SHELTER_BARE, 20),
            (KING_ATTACK, 21),
        ] {
            assert_eq!(starts[group], start, "{}", GROUPS[group].0);
        }
        for (kind, most) in MOST_MOBILITY.iter().enumerate() {
            assert_eq!(GROUPS[11 + kind].1, most + 1);
        }
    }
}
