//! Why a move is illegal: the most specific reason, in the same terms as the generator.

use super::board::{Board, EMPTY, OFF, OWN_HALF, PALACE, Piece, file_of, rank_of, side_bit};
use crate::core::IllegalReason as R;

/// The reason `from -> to` may not be played, or `None` when it is legal.
pub(crate) fn illegal_reason(board: &Board, from: u8, to: u8) -> Option<R> {
    let on_board = |sq: u8| board.cells[sq as usize] != OFF;
    if !on_board(from) || !on_board(to) {
        return Some(R::OffBoard);
    }
    let Some((side, piece)) = board.piece_at(from) else {
        return Some(R::NoPieceThere);
    };
    if side != board.us {
        return Some(R::NotYourPiece);
    }
    if board.cells[to as usize] & side_bit(side) != 0 {
        return Some(R::OwnPieceOnTarget);
    }
    if let Some(reason) = movement_reason(board, piece, from, to) {
        return Some(reason);
    }
    let mut after = *board;
    after.make(from, to);
    if after.generals_facing() {
        Some(R::GeneralsFacing)
    } else if after.attacked(side, after.general(side)) {
        Some(R::LeavesKingInCheck)
    } else {
        None
    }
}

/// Why the piece cannot make this move by its own movement rules, ignoring check.
fn movement_reason(board: &Board, piece: Piece, from: u8, to: u8) -> Option<R> {
    let us = board.us;
    let df = i32::from(file_of(to)) - i32::from(file_of(from));
    let dr = i32::from(rank_of(to)) - i32::from(rank_of(from));
    let (adf, adr) = (df.abs(), dr.abs());
    let midpoint = |a: i32, b: i32| square_offset(from, a, b);
    match piece {
        Piece::General | Piece::Advisor => {
            let shape = if piece == Piece::General { adf + adr == 1 } else { adf == 1 && adr == 1 };
            if !shape {
                Some(R::WrongMovement)
            } else if !PALACE[us][to as usize] {
                Some(R::LeavesPalace)
            } else {
                None
            }
        }
        Piece::Elephant => {
            if adf != 2 || adr != 2 {
                Some(R::WrongMovement)
            } else if !OWN_HALF[us][to as usize] {
                Some(R::ElephantCannotCrossRiver)
            } else if board.cells[midpoint(df / 2, dr / 2) as usize] != EMPTY {
                Some(R::ElephantEyeBlocked)
            } else {
                None
            }
        }
        Piece::Horse => {
            if !((adf == 1 && adr == 2) || (adf == 2 && adr == 1)) {
                Some(R::WrongMovement)
            } else if board.cells[midpoint(df / 2, dr / 2) as usize] != EMPTY {
                Some(R::HorseLegBlocked)
            } else {
                None
            }
        }
        Piece::Chariot | Piece::Cannon => line_reason(board, piece, from, to, df, dr),
        Piece::Soldier => soldier_reason(us, from, df, dr),
    }
}

/// The mailbox square `df` files and `dr` ranks away from `sq`.
fn square_offset(sq: u8, df: i32, dr: i32) -> u8 {
    (i32::from(sq) + df + dr * 16) as u8
}

fn line_reason(board: &Board, piece: Piece, from: u8, to: u8, df: i32, dr: i32) -> Option<R> {
    if df != 0 && dr != 0 {
        return Some(R::WrongMovement);
    }
    let steps = df.abs().max(dr.abs());
    let between = (1..steps)
        .filter(|&i| {
            board.cells[square_offset(from, i * df.signum(), i * dr.signum()) as usize] != EMPTY
        })
        .count();
    let capture = board.cells[to as usize] != EMPTY;
    match (piece, capture, between) {
        (_, false, 0) | (Piece::Chariot, true, 0) | (Piece::Cannon, true, 1) => None,
        (Piece::Cannon, true, _) => Some(R::CannonNeedsOneScreen),
        _ => Some(R::PathBlocked),
    }
}

fn soldier_reason(us: usize, from: u8, df: i32, dr: i32) -> Option<R> {
    let forward = if us == 0 { dr } else { -dr };
    if forward < 0 {
        Some(R::SoldierCannotRetreat)
    } else if forward == 0 && df.abs() == 1 && OWN_HALF[us][from as usize] {
        Some(R::SoldierSidewaysBeforeRiver)
    } else if (forward == 1 && df == 0) || (forward == 0 && df.abs() == 1) {
        None
    } else {
        Some(R::WrongMovement)
    }
}
