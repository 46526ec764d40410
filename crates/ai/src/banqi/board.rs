//! A flat view of the banqi board for search and evaluation: squares by index, the capture
//! rules of each piece, and piece values. Reads only face-up pieces and the pool counts.

use qi_rules::Cell;
use qi_rules::banqi::{Banqi, BanqiRules, Piece, RankOrder, Role, Square};

/// Number of squares (8 files x 4 ranks).
pub(crate) const SQUARES: usize = 32;

/// The cell of board index `index` (rank * 8 + file).
pub(crate) const fn cell_of(index: usize) -> Cell {
    Cell::new((index % 8) as u8, (index / 8) as u8)
}

/// The board index of an on-board cell.
pub(crate) const fn index_of(cell: Cell) -> usize {
    cell.rank as usize * 8 + cell.file as usize
}

/// The four orthogonal directions as (file, rank) steps.
const DIRECTIONS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

/// The neighbour of `index` one step in `direction`, if on the board.
#[inline]
pub(crate) fn neighbour(index: usize, direction: usize) -> Option<usize> {
    let (df, dr) = DIRECTIONS[direction];
    let file = (index % 8) as i8 + df;
    let rank = (index / 8) as i8 + dr;
    ((0..8).contains(&file) && (0..4).contains(&rank)).then(|| rank as usize * 8 + file as usize)
}

/// The squares on the file or the rank of `index`, as a bit set by board index (bit `i` for
/// index `i`; `index` itself included).
#[inline]
pub(crate) const fn lines_through(index: usize) -> u32 {
    /// Bit `i` for every index `i` on file 0.
    const FILE_A: u32 = 0x0101_0101;
    (FILE_A << (index % 8)) | (0xff << (index / 8 * 8))
}

/// Every square of `game`, by index.
pub(crate) fn squares(game: &Banqi) -> [Square; SQUARES] {
    std::array::from_fn(|index| game.square(cell_of(index)))
}

/// Whether `attacker` may capture `victim` by an adjacent step (or a chariot's rush) by rank.
/// Read from a table: the evaluation asks it for many pairs of pieces at every node.
#[inline]
pub(crate) fn beats(attacker: Role, victim: Role, rules: &BanqiRules) -> bool {
    BEATS[rules.ranks as usize][attacker as usize][victim as usize]
}

/// [`beats`] worked out, under the rank order `ranks`.
const fn beats_by_rank(attacker: Role, victim: Role, ranks: RankOrder) -> bool {
    match (attacker, victim) {
        (Role::Cannon, _) if matches!(ranks, RankOrder::Taiwan) => false,
        (Role::Soldier, Role::General) => true,
        (Role::General, Role::Soldier) => false,
        _ => attacker.rank(ranks) >= victim.rank(ranks),
    }
}

/// [`beats_by_rank`] by rank order, attacker and victim.
static BEATS: [[[bool; 7]; 7]; 2] = {
    let mut table = [[[false; 7]; 7]; 2];
    let mut order = 0;
    while order < RankOrder::ALL.len() {
        let mut attacker = 0;
        while attacker < 7 {
            let mut victim = 0;
            while victim < 7 {
                let ranks = RankOrder::ALL[order];
                table[ranks as usize][attacker][victim] =
                    beats_by_rank(Role::ALL[attacker], Role::ALL[victim], ranks);
                victim += 1;
            }
            attacker += 1;
        }
        order += 1;
    }
    table
};

/// Calls `found` with each face-up enemy square the face-up `piece` on `from` attacks.
pub(crate) fn for_each_capture(
    board: &[Square; SQUARES],
    from: usize,
    piece: Piece,
    rules: &BanqiRules,
    found: &mut impl FnMut(usize),
) {
    let enemy = |square: Square| match square {
        Square::FaceUp(other) if other.colour != piece.colour => Some(other),
        _ => None,
    };
    for direction in 0..4 {
        let Some(first) = neighbour(from, direction) else { continue };
        if let Some(victim) = enemy(board[first])
            && beats(piece.role, victim.role, rules)
        {
            found(first);
        }
        let rushes = piece.role == Role::Chariot && rules.rush && !board[first].is_occupied();
        if piece.role != Role::Cannon && !rushes {
            continue;
        }
        // The cannon jumps the first piece it meets; the rushing chariot slides over empty squares.
        let mut at = first;
        let mut screens = u8::from(board[first].is_occupied());
        while let Some(next) = neighbour(at, direction) {
            at = next;
            if !board[at].is_occupied() {
                continue;
            }
            if piece.role == Role::Cannon && screens == 0 {
                screens = 1;
                continue;
            }
            if let Some(victim) = enemy(board[at])
                && (piece.role == Role::Cannon || beats(piece.role, victim.role, rules))
            {
                found(at);
            }
            break;
        }
    }
}

/// Piece values in score units (a soldier is about 100 at the start), for one position: a
/// piece is worth more the more live enemy pieces it can capture, and the general loses value
/// while enemy soldiers live (they capture it) as soldiers gain while the enemy general lives.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Values {
    by_piece: [i32; 14],
}

impl Values {
    /// The values given how many of each piece is alive (face up or down).
    pub(crate) fn new(alive: &[u8; 14], rules: &BanqiRules) -> Values {
        let mut by_piece = [0; 14];
        for piece in Piece::ALL {
            let enemy = piece.colour.other();
            let count = |role: Role| i32::from(alive[Piece::new(enemy, role).index()]);
            let prey: i32 = Role::ALL
                .iter()
                .filter(|&&victim| piece.role == Role::Cannon || beats(piece.role, victim, rules))
                .map(|&victim| count(victim))
                .sum();
            let base = match piece.role {
                Role::General => 620 - 45 * count(Role::Soldier),
                Role::Soldier => 60 + 50 * count(Role::General),
                Role::Cannon if rules.ranks == RankOrder::Taiwan => 260,
                Role::Cannon => 220,
                Role::Chariot if rules.rush => 60 + rank_value(piece.role, rules),
                role => rank_value(role, rules),
            };
            by_piece[piece.index()] = base + 8 * prey;
        }
        Values { by_piece }
    }

    /// The value of `piece`.
    #[inline]
    pub(crate) fn of(&self, piece: Piece) -> i32 {
        self.by_piece[piece.index()]
    }
}

fn rank_value(role: Role, rules: &BanqiRules) -> i32 {
    match role.rank(rules.ranks) {
        6 => 400,
        5 => 240,
        4 => 170,
        _ => 110,
    }
}

/// A fixed value for a piece, for ordering captures and for the greedy player.
pub(crate) fn static_value(role: Role, rules: &BanqiRules) -> i32 {
    match role {
        Role::General => 600,
        Role::Soldier => 80,
        Role::Cannon => 260,
        _ => rank_value(role, rules),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table answers what the ranks answer, for every pair of roles under both orders, and
    /// the orders' known differences hold.
    #[test]
    fn the_capture_table_is_the_rank_order() {
        for ranks in RankOrder::ALL {
            let rules = BanqiRules { ranks, ..BanqiRules::default() };
            for attacker in Role::ALL {
                for victim in Role::ALL {
                    assert_eq!(
                        beats(attacker, victim, &rules),
                        beats_by_rank(attacker, victim, ranks),
                        "{ranks:?}: {attacker:?} on {victim:?}"
                    );
                }
            }
        }
        let taiwan = BanqiRules { ranks: RankOrder::Taiwan, ..BanqiRules::default() };
        let hong_kong = BanqiRules { ranks: RankOrder::HongKong, ..BanqiRules::default() };
        assert!(beats(Role::Soldier, Role::General, &taiwan));
        assert!(!beats(Role::General, Role::Soldier, &taiwan));
        assert!(!beats(Role::Cannon, Role::Soldier, &taiwan));
        assert!(beats(Role::Cannon, Role::Soldier, &hong_kong));
        assert!(beats(Role::Chariot, Role::Advisor, &hong_kong));
        assert!(!beats(Role::Chariot, Role::Advisor, &taiwan));
    }

    /// Every square's lines are the squares sharing its file or its rank, by cells.
    #[test]
    fn the_lines_through_a_square_are_its_file_and_rank() {
        for index in 0..SQUARES {
            let at = cell_of(index);
            for other in 0..SQUARES {
                let there = cell_of(other);
                let on_line = at.file == there.file || at.rank == there.rank;
                assert_eq!(
                    lines_through(index) & (1 << other) != 0,
                    on_line,
                    "{at:?} and {there:?}"
                );
            }
        }
    }
}
