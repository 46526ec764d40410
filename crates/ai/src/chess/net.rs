//! The chess network's inputs and the search's stack of hidden sums.
//!
//! The inputs are the 768 of `(own or other's, role, square)` as a side sees the board: White's
//! view as it stands, Black's turned over rank by rank (a black pawn on e7 is, to Black, an own
//! pawn on e2). The search does not tell the stack which move it played: the stack compares the
//! position to be evaluated with the one last evaluated a ply nearer the root, piece kind by
//! piece kind, and adds and takes away the rows of what differs. Castling, en passant,
//! promotions and a null move need no cases of their own, and the sums are right whatever the
//! search did between two evaluations.

use std::sync::LazyLock;

use qi_rules::chess::shakmaty::{Bitboard, Board, Color, Role, Square};

use crate::net::{Accumulator, HIDDEN, Network};

/// The network in `crates/ai/nets/chess.qnn`, as committed.
const NETWORK_FILE: &[u8] = include_bytes!("../../nets/chess.qnn");

/// The network the engine evaluates with: the committed one (read once) when the build has the
/// `chess-net` feature, else `None` and the search uses the hand-written evaluation. A file that
/// is not a network of this build's shape gives `None` too (a unit test reads it).
#[must_use]
pub fn network() -> Option<&'static Network> {
    static NETWORK: LazyLock<Option<Network>> = LazyLock::new(|| {
        if !cfg!(feature = "chess-net") {
            return None;
        }
        Network::from_bytes(NETWORK_FILE).ok().filter(|net| net.inputs() == INPUTS)
    });
    NETWORK.as_ref()
}

/// The number of inputs: 2 colours × 6 roles × 64 squares.
pub const INPUTS: usize = 768;

/// The input for `color`'s `role` on `square` as `view` sees the board.
#[must_use]
pub fn input(view: Color, color: Color, role: Role, square: Square) -> usize {
    let theirs = usize::from(color != view);
    let square = match view {
        Color::White => usize::from(square),
        Color::Black => usize::from(square) ^ 56,
    };
    ((theirs * 6 + (role as usize - 1)) * 64) + square
}

/// The input of the same piece on the square mirrored across the board's middle (a to h).
#[must_use]
pub fn mirror_input(input: usize) -> usize {
    input ^ 7
}

/// The inputs that are on in `board` for `view`.
pub fn inputs(board: &Board, view: Color) -> impl Iterator<Item = usize> + '_ {
    board.iter().map(move |(square, piece)| input(view, piece.color, piece.role, square))
}

/// Both sides' hidden sums of `board`, from nothing.
#[must_use]
pub fn accumulate(net: &Network, board: &Board) -> Accumulator {
    let mut sums = Accumulator::default();
    for (side, view) in [Color::White, Color::Black].into_iter().enumerate() {
        net.refresh(&mut sums.sides[side], inputs(board, view));
    }
    sums
}

/// The score of `board` for `turn` in centipawns, from its sums.
#[must_use]
pub fn score(net: &Network, sums: &Accumulator, turn: Color) -> i32 {
    net.evaluate(sums, usize::from(turn == Color::Black))
}

const COLORS: [Color; 2] = [Color::White, Color::Black];
const ROLES: [Role; 6] =
    [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King];

fn pieces(board: &Board, color: Color, role: Role) -> Bitboard {
    board.by_color(color) & board.by_role(role)
}

/// Moves `sums` from the position `from` to the position `to`, piece kind by piece kind. Returns
/// false (and leaves `sums` as they were) when so much differs that summing `to` afresh is
/// cheaper.
pub fn update(net: &Network, sums: &mut Accumulator, from: &Board, to: &Board) -> bool {
    let mut changed = 0;
    for color in COLORS {
        for role in ROLES {
            changed += (pieces(from, color, role) ^ pieces(to, color, role)).count();
        }
    }
    if changed > to.occupied().count() {
        return false;
    }
    for color in COLORS {
        for role in ROLES {
            let (before, after) = (pieces(from, color, role), pieces(to, color, role));
            for (side, view) in COLORS.into_iter().enumerate() {
                for square in before & !after {
                    net.remove(&mut sums.sides[side], input(view, color, role, square));
                }
                for square in after & !before {
                    net.add(&mut sums.sides[side], input(view, color, role, square));
                }
            }
        }
    }
    true
}

/// The sums of the positions on the search's current line, one slot per ply, each with the
/// board it holds the sums of.
#[derive(Clone, Debug)]
pub struct NetStack {
    slots: Vec<(Accumulator, Option<Board>)>,
}

impl NetStack {
    /// A stack for lines of at most `plies` plies.
    #[must_use]
    pub fn new(plies: usize) -> NetStack {
        NetStack { slots: vec![(Accumulator::default(), None); plies + 1] }
    }

    /// The score of `board` for `turn`, at `ply` of the line: its sums are those of the slot
    /// a ply nearer the root (or this ply's own, or none) updated to `board`, and kept in this
    /// ply's slot for the plies below.
    pub fn evaluate(&mut self, net: &Network, ply: usize, board: &Board, turn: Color) -> i32 {
        let ply = ply.min(self.slots.len() - 1);
        let (above, here) = self.slots.split_at_mut(ply);
        let slot = &mut here[0];
        let source = match above.last() {
            Some((sums, Some(parent))) => Some((sums, parent)),
            _ => None,
        };
        let fresh = match (source, &slot.1) {
            (Some((sums, parent)), _) => {
                slot.0.clone_from(sums);
                update(net, &mut slot.0, parent, board)
            }
            (None, Some(before)) => {
                let before = before.clone();
                update(net, &mut slot.0, &before, board)
            }
            (None, None) => false,
        };
        if !fresh {
            slot.0 = accumulate(net, board);
        }
        slot.1 = Some(board.clone());
        score(net, &slot.0, turn)
    }
}

// The output layer sums in blocks of 32.
const _: () = assert!(HIDDEN.is_multiple_of(32));

/// Checks the fast path against the straightforward one: a random network (`seed`), `games`
/// random games of up to 120 plies, evaluated along the way by a [`NetStack`] that sometimes
/// skips a ply (a node in check) or goes back up the line (another branch), each score compared
/// with [`Network::reference_evaluate`] of the position's inputs. Returns the positions
/// compared and how many differed (0). The unit tests run it natively; `scripts/test` runs it
/// in wasm with `simd128` (`examples/net_check.rs`), as the browser's worker runs the network.
#[must_use]
pub fn self_check(seed: u64, games: usize) -> (usize, usize) {
    use qi_rules::chess::shakmaty::{Chess, Position};

    let net = Network::from_floats(&crate::net::random_float_network(INPUTS, seed ^ 99))
        .unwrap_or_else(|_| unreachable!("a random network has the right sizes"));
    let mut stack = NetStack::new(64);
    let mut state = seed;
    let mut pick = |n: usize| {
        state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        (state >> 33) as usize % n.max(1)
    };
    let (mut positions, mut mismatches) = (0, 0);
    for _ in 0..games {
        let mut line = vec![Chess::default()];
        for _ in 0..120 {
            let Some(position) = line.last().cloned() else { break };
            let moves = position.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mut child = position;
            child.play_unchecked(moves[pick(moves.len())]);
            if pick(6) == 0 && line.len() > 3 {
                line.truncate(line.len() - 1 - pick(3));
            }
            line.push(child);
            if pick(5) == 0 {
                continue;
            }
            let ply = line.len() - 1;
            let top = &line[ply];
            let (board, turn) = (top.board(), top.turn());
            let ours: Vec<usize> = inputs(board, turn).collect();
            let theirs: Vec<usize> = inputs(board, !turn).collect();
            positions += 1;
            if stack.evaluate(&net, ply, board, turn) != net.reference_evaluate(&ours, &theirs) {
                mismatches += 1;
            }
        }
    }
    (positions, mismatches)
}

#[cfg(test)]
mod tests {
    use qi_rules::chess::shakmaty::{Chess, Position};

    use super::*;
    use crate::net::{Network, random_float_network};

    fn test_network() -> Network {
        Network::from_floats(&random_float_network(INPUTS, 99)).unwrap()
    }

    #[test]
    fn the_committed_network_is_a_chess_network_of_this_shape() {
        let net = Network::from_bytes(NETWORK_FILE).unwrap();
        assert_eq!(net.inputs(), INPUTS);
        assert_eq!(network().is_some(), cfg!(feature = "chess-net"));
    }

    #[test]
    fn black_sees_the_board_turned_over() {
        let e7 = Square::E7;
        assert_eq!(
            input(Color::Black, Color::Black, Role::Pawn, e7),
            input(Color::White, Color::White, Role::Pawn, Square::E2)
        );
        let start = Chess::default();
        let mut white: Vec<usize> = inputs(start.board(), Color::White).collect();
        let mut black: Vec<usize> = inputs(start.board(), Color::Black).collect();
        white.sort_unstable();
        black.sort_unstable();
        assert_eq!(white, black, "the start looks the same to both sides");
        // So the start scores the same for either side to move.
        let net = test_network();
        let sums = accumulate(&net, start.board());
        assert_eq!(score(&net, &sums, Color::White), score(&net, &sums, Color::Black));
    }

    #[test]
    fn the_stack_equals_the_reference_along_random_games_with_jumps() {
        let (positions, mismatches) = self_check(5, 40);
        assert!(positions > 2000, "{positions}");
        assert_eq!(mismatches, 0, "of {positions} positions");
    }
}
