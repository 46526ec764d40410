//! Static exchange evaluation: what a capture wins or loses once both sides have taken back on
//! its square with their cheapest pieces, each free to stop when going on would cost.

use qi_rules::chess::shakmaty::{Bitboard, Board, Color, Move, Role};

use super::eval::order_value;

/// The material `mv` (by `turn`) wins on its square after the best exchange, in centipawns.
#[must_use]
pub fn exchange(board: &Board, turn: Color, mv: &Move) -> i32 {
    let (from, to, victim) = match *mv {
        Move::Normal { from, to, capture, .. } => (from, to, capture.map_or(0, order_value)),
        Move::EnPassant { .. } => return 0,
        Move::Castle { .. } | Move::Put { .. } => return 0,
    };
    let mut gains = [0i32; 32];
    gains[0] = victim;
    let mut occupied = board.occupied() ^ Bitboard::from(from);
    let mut on_square = order_value(mv.promotion().unwrap_or(mv.role()));
    let mut side = turn.other();
    let mut depth = 0;
    while depth < 31 {
        let attackers = board.attacks_to(to, side, occupied) & occupied;
        let Some((square, role)) = Role::ALL
            .iter()
            .find_map(|&role| (attackers & board.by_role(role)).first().map(|sq| (sq, role)))
        else {
            break;
        };
        depth += 1;
        gains[depth] = on_square - gains[depth - 1];
        if gains[depth].max(-gains[depth - 1]) < 0 {
            break;
        }
        occupied ^= Bitboard::from(square);
        on_square = order_value(role);
        side = side.other();
    }
    while depth > 0 {
        gains[depth - 1] = -(-gains[depth - 1]).max(gains[depth]);
        depth -= 1;
    }
    gains[0]
}

#[cfg(test)]
mod tests {
    use qi_rules::chess::shakmaty::fen::Fen;
    use qi_rules::chess::shakmaty::uci::UciMove;
    use qi_rules::chess::shakmaty::{CastlingMode, Chess, Position};

    use super::exchange;

    fn see(fen: &str, uci: &str) -> i32 {
        let position: Chess =
            fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
        let mv = uci.parse::<UciMove>().unwrap().to_move(&position).unwrap();
        exchange(position.board(), position.turn(), &mv)
    }

    #[test]
    fn counts_the_exchanges() {
        // A free pawn; a pawn defended by a pawn taken with the queen; a rook for a knight.
        assert_eq!(see("4k3/8/8/3p4/8/8/8/3QK3 w - - 0 1", "d1d5"), 100);
        assert_eq!(see("4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1", "d1d5"), 100 - 900);
        assert_eq!(see("4k3/8/2p5/3n4/8/8/3R4/3RK3 w - - 0 1", "d2d5"), 320 - 500 + 100);
        // Batteries: the rook behind the rook joins in.
        assert_eq!(see("3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5"), 100);
    }
}
