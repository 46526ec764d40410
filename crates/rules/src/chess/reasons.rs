//! Why a chess move is illegal. shakmaty only says yes or no; players deserve a reason.

use shakmaty::san::San;
use shakmaty::{Bitboard, Chess, Color, Position, Rank, Role, Square, attacks};

use super::ChessMove;
use crate::IllegalReason;

/// The reason `mv` is not legal in `position`. Call it only for moves that shakmaty refused.
pub(super) fn why_illegal(position: &Chess, mv: ChessMove) -> IllegalReason {
    let board = position.board();
    let us = position.turn();
    let Some(piece) = board.piece_at(mv.from) else { return IllegalReason::NoPieceThere };
    if piece.color != us {
        return IllegalReason::NotYourPiece;
    }
    if mv.from == mv.to {
        return IllegalReason::WrongMovement;
    }
    if piece.role == Role::King && is_castling_gesture(position, mv) {
        return if mv.promotion.is_some() {
            IllegalReason::BadPromotion
        } else if position.is_check() {
            IllegalReason::CastleOutOfCheck
        } else {
            IllegalReason::CastlingNotAllowed
        };
    }
    let last_rank = mv.to.rank() == us.other().backrank();
    if let Some(promotion) = mv.promotion
        && (piece.role != Role::Pawn || !last_rank || matches!(promotion, Role::King | Role::Pawn))
    {
        return IllegalReason::BadPromotion;
    }
    if board.by_color(us).contains(mv.to) {
        return IllegalReason::OwnPieceOnTarget;
    }
    if piece.role == Role::Pawn && last_rank && mv.promotion.is_none() {
        let as_queen = ChessMove { promotion: Some(Role::Queen), ..mv };
        if as_queen.uci().to_move(position).is_ok() {
            return IllegalReason::PromotionRequired;
        }
    }
    if piece.role == Role::Pawn {
        return why_pawn_cannot(position, mv.from, mv.to);
    }
    let occupied = board.occupied();
    if attacks::attacks(mv.from, piece, occupied).contains(mv.to) {
        IllegalReason::LeavesKingInCheck
    } else if attacks::attacks(mv.from, piece, Bitboard::EMPTY).contains(mv.to) {
        IllegalReason::PathBlocked
    } else {
        IllegalReason::WrongMovement
    }
}

/// A king move onto its own rook on the back rank (in Chess960, or onto a rook that still has
/// castling rights), or the standard two-square king step.
fn is_castling_gesture(position: &Chess, mv: ChessMove) -> bool {
    let us = position.turn();
    let back_rank = us.backrank();
    if mv.from.rank() != back_rank || mv.to.rank() != back_rank {
        return false;
    }
    let castles = position.castles();
    let onto_own_rook = position.board().by_piece(Role::Rook.of(us)).contains(mv.to)
        && (castles.mode() == shakmaty::CastlingMode::Chess960
            || castles.castling_rights().contains(mv.to));
    let standard_step =
        mv.from == us.fold_wb(Square::E1, Square::E8) && mv.from.distance(mv.to) == 2;
    onto_own_rook || standard_step
}

fn why_pawn_cannot(position: &Chess, from: Square, to: Square) -> IllegalReason {
    let us = position.turn();
    let forward: i32 = if us == Color::White { 8 } else { -8 };
    let occupied = position.board().occupied();
    let one_step = from.offset(forward);
    let start_rank = us.relative_rank(Rank::Second);
    if one_step == Some(to) {
        return if occupied.contains(to) {
            IllegalReason::PathBlocked
        } else {
            IllegalReason::LeavesKingInCheck
        };
    }
    if from.rank() == start_rank && from.offset(2 * forward) == Some(to) {
        let blocked = one_step.is_some_and(|mid| occupied.contains(mid)) || occupied.contains(to);
        return if blocked { IllegalReason::PathBlocked } else { IllegalReason::LeavesKingInCheck };
    }
    if attacks::pawn_attacks(us, from).contains(to) {
        // `Always`: an en passant capture that would expose the king still counts as a capture
        // here, so its reason is the exposed king.
        let en_passant = position.ep_square(shakmaty::EnPassantMode::Always) == Some(to);
        let capture = position.them().contains(to) || en_passant;
        return if capture {
            IllegalReason::LeavesKingInCheck
        } else {
            IllegalReason::WrongMovement
        };
    }
    IllegalReason::WrongMovement
}

/// How telling a reason is: when several pieces could have meant a SAN move, the most telling
/// reason among them is shown.
fn specificity(reason: IllegalReason) -> u8 {
    match reason {
        IllegalReason::LeavesKingInCheck => 6,
        IllegalReason::PromotionRequired => 5,
        IllegalReason::BadPromotion => 4,
        IllegalReason::PathBlocked => 3,
        IllegalReason::OwnPieceOnTarget => 2,
        _ => 1,
    }
}

/// Whether a pawn on `from` is one a file-less pawn SAN move to `to` can mean: a push on its own
/// file, or (for a capture) from a neighbouring file.
fn pawn_could_mean(from: Square, to: Square, capture: bool) -> bool {
    let files_apart = (i32::from(u8::from(from.file())) - i32::from(u8::from(to.file()))).abs();
    files_apart == i32::from(capture)
}

/// The reason a SAN move names no legal move in `position`.
pub(super) fn why_san_illegal(position: &Chess, san: San) -> IllegalReason {
    let us = position.turn();
    match san {
        San::Castle(_) if position.is_check() => IllegalReason::CastleOutOfCheck,
        San::Castle(_) => IllegalReason::CastlingNotAllowed,
        San::Normal { role, file, rank, capture, to, promotion } => {
            let candidates = position.board().by_piece(role.of(us)).into_iter().filter(|from| {
                file.is_none_or(|f| from.file() == f)
                    && rank.is_none_or(|r| from.rank() == r)
                    && (role != Role::Pawn || file.is_some() || pawn_could_mean(*from, to, capture))
            });
            candidates
                .map(|from| ChessMove { from, to, promotion })
                // A candidate that is legal (only possible through a castling or capture-mark
                // mismatch the caller already tried) tells nothing about why the SAN failed.
                .filter(|&mv| mv.uci().to_move(position).is_err())
                .map(|mv| why_illegal(position, mv))
                .max_by_key(|&reason| specificity(reason))
                .unwrap_or(IllegalReason::NoPieceThere)
        }
        San::Put { .. } | San::Null => IllegalReason::WrongMovement,
    }
}
