//! Chess themes, on shakmaty's boards (lichess's `cook.py` names them; these are its ideas,
//! simplified):
//!
//! - **fork**: a solver move (not the last) after which the moved piece, not a king, attacks
//!   two or more enemy pieces that are each the king, worth more than it, or undefended — and
//!   the solver later takes one of them;
//! - **pin**: the moved piece, a bishop, rook or queen, pins an enemy piece to one worth more
//!   behind it (or the king), and the solver later takes the pinned piece;
//! - **skewer**: the moved slider attacks the king or a piece worth more than the one behind it
//!   on the same line, and the solver later takes the one behind;
//! - **discoveredAttack**: a move that opens another solver slider's line onto the king (a
//!   discovered check) or onto a piece the solver then takes;
//! - **sacrifice**: after one of the defender's replies (before the last solver move) the
//!   solver is two points or more down on where it started;
//! - **promotion**: a solver move promotes;
//! - **backRankMate**: mate with a rook or queen checking along the mated king's back rank, its
//!   way forward blocked by its own pieces; **smotheredMate**: mate with a knight checking, every
//!   square around the king held by its own pieces (the checkers, not the piece that moved: a
//!   discovered mate counts by its checker);
//! - **endgames** by what is on the board after the opponent's move: kings and pawns only
//!   (pawnEndgame), rooks only (rookEndgame), bishops, knights, queens, queens and rooks; any
//!   other position with four pieces or fewer besides kings and pawns is an endgame.

use qi_play::puzzle::Theme;
use qi_rules::any::AnyGame;
use qi_rules::chess::shakmaty::{
    Bitboard, Board, Color, Piece, Position, Rank, Role, Square, attacks,
};

use super::Line;

/// Pawn 1, knight and bishop 3, rook 5, queen 9; the king beyond all.
fn value(role: Role) -> i32 {
    match role {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 100,
    }
}

fn board(game: &AnyGame) -> Option<Board> {
    match game {
        AnyGame::Chess(g) => Some(g.shakmaty_position().board().clone()),
        _ => None,
    }
}

fn material(board: &Board, color: Color) -> i32 {
    board
        .by_color(color)
        .into_iter()
        .filter_map(|sq| board.piece_at(sq))
        .filter(|piece| piece.role != Role::King)
        .map(|piece| value(piece.role))
        .sum()
}

fn square(cell: qi_rules::Cell) -> Square {
    Square::from_coords(
        qi_rules::chess::shakmaty::File::new(u32::from(cell.file)),
        Rank::new(u32::from(cell.rank)),
    )
}

/// The chess themes of `line` (see the module documentation).
pub(super) fn themes(line: &Line) -> Vec<Theme> {
    let Some(boards) = line.games.iter().map(board).collect::<Option<Vec<Board>>>() else {
        return Vec::new();
    };
    let solver = if line.games[1].side_to_move() == qi_rules::Side::First {
        Color::White
    } else {
        Color::Black
    };
    let mut themes = Vec::new();
    // What the solver takes later in the line: the squares of its captures, by move index.
    let captures: Vec<(usize, Square)> = line
        .solver_moves()
        .filter(|&i| line.games[i].takes_piece(line.moves[i]))
        .filter_map(|i| line.games[i].move_cells(line.moves[i]).map(|c| (i, square(c.to))))
        .collect();
    let taken_later =
        |after: usize, sq: Square| captures.iter().any(|&(i, s)| i > after && s == sq);
    let last = line.moves.len() - 1;
    let start_balance = material(&boards[1], solver) - material(&boards[1], !solver);
    for i in line.solver_moves() {
        let Some(cells) = line.games[i].move_cells(line.moves[i]) else { continue };
        let (Some(from), to) = (cells.from.map(square), square(cells.to)) else { continue };
        let before = &boards[i];
        let after = &boards[i + 1];
        let Some(moved) = after.piece_at(to) else { continue };
        if before.piece_at(from).is_some_and(|p| p.role == Role::Pawn) && moved.role != Role::Pawn {
            themes.push(Theme::Promotion);
        }
        if i < last {
            if fork(after, to, moved, solver, |sq| taken_later(i, sq)) {
                themes.push(Theme::Fork);
            }
            if let Some(theme) = pin_or_skewer(after, to, moved, solver, |sq| taken_later(i, sq)) {
                themes.push(theme);
            }
            if discovered(before, after, from, to, solver, |sq| taken_later(i, sq)) {
                themes.push(Theme::DiscoveredAttack);
            }
            // After the defender's reply to this move: has the solver given material?
            if let Some(reply) = boards.get(i + 2)
                && material(reply, solver) - material(reply, !solver) <= start_balance - 2
            {
                themes.push(Theme::Sacrifice);
            }
        }
    }
    if line.ends_in_mate() {
        let final_board = boards.last().expect("a line has positions");
        themes.extend(mate_pattern(final_board, !solver));
    }
    themes.extend(endgame(&boards[1]));
    themes
}

/// Whether `piece` on `at` forks (see the module documentation).
fn fork(
    board: &Board,
    at: Square,
    piece: Piece,
    solver: Color,
    taken: impl Fn(Square) -> bool,
) -> bool {
    if piece.role == Role::King {
        return false;
    }
    let targets: Vec<Square> = (attacks::attacks(at, piece, board.occupied())
        & board.by_color(!solver))
    .into_iter()
    .filter(|&sq| {
        board.piece_at(sq).is_some_and(|target| {
            target.role == Role::King
                || value(target.role) > value(piece.role)
                || board.attacks_to(sq, !solver, board.occupied()).is_empty()
        })
    })
    .collect();
    targets.len() >= 2 && targets.iter().any(|&sq| taken(sq))
}

/// A pin or a skewer by the slider `piece` on `at` (see the module documentation).
fn pin_or_skewer(
    board: &Board,
    at: Square,
    piece: Piece,
    solver: Color,
    taken: impl Fn(Square) -> bool,
) -> Option<Theme> {
    if !matches!(piece.role, Role::Bishop | Role::Rook | Role::Queen) {
        return None;
    }
    let enemies = board.by_color(!solver);
    for front in attacks::attacks(at, piece, board.occupied()) & enemies {
        let front_piece = board.piece_at(front)?;
        for back in attacks::ray(at, front) & board.occupied() {
            let beyond_front = attacks::between(at, back).contains(front);
            if !beyond_front || !(attacks::between(front, back) & board.occupied()).is_empty() {
                continue;
            }
            let Some(back_piece) = board.piece_at(back).filter(|p| p.color != solver) else {
                continue;
            };
            if value(back_piece.role) > value(front_piece.role) && taken(front) {
                return Some(Theme::Pin);
            }
            if value(front_piece.role) > value(back_piece.role) && taken(back) {
                return Some(Theme::Skewer);
            }
        }
    }
    None
}

/// Whether moving from `from` opened another solver slider's line (see the module documentation).
fn discovered(
    before: &Board,
    after: &Board,
    from: Square,
    to: Square,
    solver: Color,
    taken: impl Fn(Square) -> bool,
) -> bool {
    for slider in after.by_color(solver) {
        if slider == to {
            continue;
        }
        let Some(piece) = after.piece_at(slider) else { continue };
        if !matches!(piece.role, Role::Bishop | Role::Rook | Role::Queen) {
            continue;
        }
        let now = attacks::attacks(slider, piece, after.occupied()) & after.by_color(!solver);
        let then = attacks::attacks(slider, piece, before.occupied());
        for target in now & !then {
            if !attacks::between(slider, target).contains(from) {
                continue;
            }
            let is_king = after.piece_at(target).is_some_and(|p| p.role == Role::King);
            if is_king || taken(target) {
                return true;
            }
        }
    }
    false
}

/// Back-rank and smothered mates of the king of `mated` on the final board, by the pieces that
/// give the check (a discovered mate's checker is not the piece that moved).
fn mate_pattern(board: &Board, mated: Color) -> Vec<Theme> {
    let Some(king) = (board.by_color(mated) & board.kings()).first() else { return Vec::new() };
    let checkers = board.attacks_to(king, !mated, board.occupied());
    let around = attacks::king_attacks(king);
    let own = board.by_color(mated);
    let mut themes = Vec::new();
    let role_of = |sq: Square| board.piece_at(sq).map(|p| p.role);
    if checkers.into_iter().any(|sq| role_of(sq) == Some(Role::Knight))
        && (around & !own).is_empty()
    {
        themes.push(Theme::SmotheredMate);
    }
    let (back, front_rank) = if mated == Color::White {
        (Rank::First, Rank::Second)
    } else {
        (Rank::Eighth, Rank::Seventh)
    };
    let along_back_rank = checkers
        .into_iter()
        .any(|sq| sq.rank() == back && matches!(role_of(sq), Some(Role::Rook | Role::Queen)));
    if king.rank() == back && along_back_rank {
        let front: Bitboard = around & Bitboard::from_rank(front_rank);
        if (front & !own).is_empty() {
            themes.push(Theme::BackRankMate);
        }
    }
    themes
}

/// The endgame kinds of `board` (see the module documentation).
fn endgame(board: &Board) -> Option<Theme> {
    let pieces: Vec<Role> = board
        .occupied()
        .into_iter()
        .filter_map(|sq| board.piece_at(sq))
        .map(|p| p.role)
        .filter(|role| !matches!(role, Role::King | Role::Pawn))
        .collect();
    let only = |roles: &[Role]| pieces.iter().all(|r| roles.contains(r));
    let has = |role: Role| pieces.contains(&role);
    Some(if pieces.is_empty() {
        Theme::PawnEndgame
    } else if only(&[Role::Rook]) {
        Theme::RookEndgame
    } else if only(&[Role::Bishop]) {
        Theme::BishopEndgame
    } else if only(&[Role::Knight]) {
        Theme::KnightEndgame
    } else if only(&[Role::Queen]) {
        Theme::QueenEndgame
    } else if only(&[Role::Queen, Role::Rook]) && has(Role::Queen) && has(Role::Rook) {
        Theme::QueenRookEndgame
    } else if pieces.len() <= 4 {
        Theme::Endgame
    } else {
        return None;
    })
}
