//! Move generation and judging. Both go through [`Banqi::capture_verdict`], so a move is
//! generated exactly when [`Banqi::judge`] accepts it.

use crate::core::{Cell, IllegalReason};

use super::state::Banqi;
use super::{
    BanqiMove, FILES, Piece, RANKS, RankOrder, Role, SQUARES, Square, cell_of, index_of, on_board,
};

/// No neighbour in that direction.
const NONE: u8 = u8::MAX;

/// The neighbour of each square east, west, north and south (`NONE` off the board).
const NEIGHBOURS: [[u8; 4]; SQUARES] = {
    let mut table = [[NONE; 4]; SQUARES];
    let mut i = 0;
    while i < SQUARES {
        let (file, rank) = ((i % 8) as u8, (i / 8) as u8);
        if file + 1 < FILES {
            table[i][0] = (i + 1) as u8;
        }
        if file > 0 {
            table[i][1] = (i - 1) as u8;
        }
        if rank + 1 < RANKS {
            table[i][2] = (i + 8) as u8;
        }
        if rank > 0 {
            table[i][3] = (i - 8) as u8;
        }
        i += 1;
    }
    table
};

fn neighbour(index: usize, direction: usize) -> Option<usize> {
    let next = NEIGHBOURS[index][direction];
    (next != NONE).then_some(usize::from(next))
}

/// How a capturing piece reaches its victim.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reach {
    /// One orthogonal step.
    Step,
    /// The cannon's jump over exactly one screen.
    Jump,
    /// The rushing chariot's slide over empty squares.
    Slide,
}

/// Whether a piece of role `attacker` may capture one of role `victim` by rank.
fn rank_verdict(attacker: Role, victim: Role, order: RankOrder) -> Result<(), IllegalReason> {
    match (attacker, victim) {
        (Role::Soldier, Role::General) => Ok(()),
        (Role::General, Role::Soldier) => Err(IllegalReason::GeneralCannotCaptureSoldier),
        _ if attacker.rank(order) >= victim.rank(order) => Ok(()),
        _ => Err(IllegalReason::CannotCaptureHigherRank),
    }
}

fn step(from: usize, to: usize) -> BanqiMove {
    BanqiMove::Step { from: cell_of(from), to: cell_of(to) }
}

impl Banqi {
    /// Whether `attacker` may capture what stands on `victim`, reaching it by `reach`.
    fn capture_verdict(
        &self,
        attacker: Piece,
        victim: Square,
        reach: Reach,
    ) -> Result<(), IllegalReason> {
        match victim {
            Square::Empty => Ok(()),
            Square::FaceUp(piece) if piece.colour == attacker.colour => {
                Err(IllegalReason::OwnPieceOnTarget)
            }
            Square::FaceUp(piece) => match reach {
                Reach::Jump => Ok(()),
                Reach::Step
                    if attacker.role == Role::Cannon && self.rules.ranks == RankOrder::Taiwan =>
                {
                    Err(IllegalReason::CannonNeedsOneScreen)
                }
                Reach::Step | Reach::Slide => {
                    rank_verdict(attacker.role, piece.role, self.rules.ranks)
                }
            },
            Square::Hidden(_) | Square::Unknown => {
                if reach == Reach::Jump && self.rules.capture_hidden {
                    Ok(())
                } else {
                    Err(IllegalReason::CannotCaptureFaceDown)
                }
            }
        }
    }

    /// Calls `found` with every square the face-up `piece` on `from` may move or capture to.
    fn for_each_target(
        &self,
        from: usize,
        piece: Piece,
        captures_only: bool,
        found: &mut impl FnMut(usize),
    ) {
        for direction in 0..4 {
            let Some(first) = neighbour(from, direction) else {
                continue;
            };
            let square = self.board[first];
            if square.is_occupied() {
                if self.capture_verdict(piece, square, Reach::Step).is_ok() {
                    found(first);
                }
            } else if !captures_only {
                found(first);
            }
            match piece.role {
                Role::Cannon => self.cannon_jump(first, direction, piece, found),
                Role::Chariot if self.rules.rush && !square.is_occupied() => {
                    self.chariot_rush(first, direction, piece, captures_only, found);
                }
                _ => {}
            }
        }
    }

    /// The cannon's capture: the first piece from `first` on is the screen, the next the victim.
    fn cannon_jump(
        &self,
        first: usize,
        direction: usize,
        cannon: Piece,
        found: &mut impl FnMut(usize),
    ) {
        let mut at = first;
        while !self.board[at].is_occupied() {
            let Some(next) = neighbour(at, direction) else {
                return;
            };
            at = next;
        }
        while let Some(next) = neighbour(at, direction) {
            at = next;
            let square = self.board[at];
            if square.is_occupied() {
                if self.capture_verdict(cannon, square, Reach::Jump).is_ok() {
                    found(at);
                }
                return;
            }
        }
    }

    /// The rushing chariot beyond its first (empty) step: empty squares, then the first piece.
    fn chariot_rush(
        &self,
        first: usize,
        direction: usize,
        chariot: Piece,
        captures_only: bool,
        found: &mut impl FnMut(usize),
    ) {
        let mut at = first;
        while let Some(next) = neighbour(at, direction) {
            at = next;
            let square = self.board[at];
            if !square.is_occupied() {
                if !captures_only {
                    found(at);
                }
                continue;
            }
            if self.capture_verdict(chariot, square, Reach::Slide).is_ok() {
                found(at);
            }
            return;
        }
    }

    /// Appends every legal move, not looking at whether the game is over.
    pub(super) fn generate(&self, moves: &mut Vec<BanqiMove>) {
        if let Some(chain) = self.chain {
            let from = usize::from(chain);
            if let Square::FaceUp(piece) = self.board[from] {
                self.for_each_target(from, piece, true, &mut |to| moves.push(step(from, to)));
            }
            moves.push(BanqiMove::Stop);
            return;
        }
        for (index, square) in self.board.iter().enumerate() {
            if square.is_face_down() {
                moves.push(BanqiMove::Flip(cell_of(index)));
            }
        }
        let Some(mine) = self.colour_of(self.side) else {
            return;
        };
        for from in 0..SQUARES {
            if let Square::FaceUp(piece) = self.board[from]
                && piece.colour == mine
            {
                self.for_each_target(from, piece, false, &mut |to| moves.push(step(from, to)));
            }
        }
    }

    /// Whether the side to move has any legal move (not looking at whether the game is over).
    pub(super) fn has_legal_move(&self) -> bool {
        if self.chain.is_some() || self.board.iter().any(|square| square.is_face_down()) {
            return true;
        }
        let Some(mine) = self.colour_of(self.side) else {
            return false;
        };
        let mut any = false;
        for from in 0..SQUARES {
            if let Square::FaceUp(piece) = self.board[from]
                && piece.colour == mine
            {
                self.for_each_target(from, piece, false, &mut |_| any = true);
                if any {
                    return true;
                }
            }
        }
        false
    }

    /// Whether the face-up piece on `from` can capture something now (chain captures).
    pub(super) fn can_capture_from(&self, from: u8) -> bool {
        let from = usize::from(from);
        let Square::FaceUp(piece) = self.board[from] else {
            return false;
        };
        let mut any = false;
        self.for_each_target(from, piece, true, &mut |_| any = true);
        any
    }

    /// Why `mv` may not be played, not looking at whether the game is over.
    pub(super) fn judge(&self, mv: BanqiMove) -> Result<(), IllegalReason> {
        match mv {
            BanqiMove::Stop if self.chain.is_some() => Ok(()),
            BanqiMove::Stop => Err(IllegalReason::NoChainToStop),
            BanqiMove::Flip(cell) if !on_board(cell) => Err(IllegalReason::OffBoard),
            BanqiMove::Flip(_) if self.chain.is_some() => Err(IllegalReason::ChainCaptureOnly),
            BanqiMove::Flip(cell) => match self.board[index_of(cell)] {
                Square::Empty => Err(IllegalReason::NoPieceThere),
                Square::FaceUp(_) => Err(IllegalReason::AlreadyFaceUp),
                Square::Hidden(_) | Square::Unknown => Ok(()),
            },
            BanqiMove::Step { from, to } => self.judge_step(from, to),
        }
    }

    fn judge_step(&self, from: Cell, to: Cell) -> Result<(), IllegalReason> {
        if !on_board(from) || !on_board(to) {
            return Err(IllegalReason::OffBoard);
        }
        let (from_index, to_index) = (index_of(from), index_of(to));
        if self.chain.is_some_and(|chain| usize::from(chain) != from_index) {
            return Err(IllegalReason::ChainCaptureOnly);
        }
        let piece = match self.board[from_index] {
            Square::Empty => return Err(IllegalReason::NoPieceThere),
            Square::Hidden(_) | Square::Unknown => return Err(IllegalReason::PieceFaceDown),
            Square::FaceUp(piece) => piece,
        };
        if self.colour_of(self.side) != Some(piece.colour) {
            return Err(IllegalReason::NotYourPiece);
        }
        if from == to {
            return Err(IllegalReason::WrongMovement);
        }
        let target = self.board[to_index];
        if matches!(target, Square::FaceUp(other) if other.colour == piece.colour) {
            return Err(IllegalReason::OwnPieceOnTarget);
        }
        let reach = self.reach(piece, from, to, target.is_occupied())?;
        if !target.is_occupied() {
            return if self.chain.is_some() {
                Err(IllegalReason::ChainCaptureOnly)
            } else {
                Ok(())
            };
        }
        self.capture_verdict(piece, target, reach)
    }

    /// How `piece` could get from `from` to `to` (different squares), or why it cannot.
    fn reach(
        &self,
        piece: Piece,
        from: Cell,
        to: Cell,
        capture: bool,
    ) -> Result<Reach, IllegalReason> {
        if from.file != to.file && from.rank != to.rank {
            return Err(IllegalReason::WrongMovement);
        }
        let distance = from.file.abs_diff(to.file) + from.rank.abs_diff(to.rank);
        if distance == 1 {
            return Ok(Reach::Step);
        }
        let between = self.pieces_between(from, to);
        match piece.role {
            Role::Cannon if capture && between == 1 => Ok(Reach::Jump),
            Role::Cannon if capture => Err(IllegalReason::CannonNeedsOneScreen),
            Role::Chariot if self.rules.rush && between > 0 => Err(IllegalReason::PathBlocked),
            Role::Chariot if self.rules.rush => Ok(Reach::Slide),
            _ => Err(IllegalReason::WrongMovement),
        }
    }

    /// Pieces strictly between two squares on one rank or file.
    fn pieces_between(&self, from: Cell, to: Cell) -> usize {
        let (a, b) = (index_of(from), index_of(to));
        let (low, high) = (a.min(b), a.max(b));
        let stride = if from.rank == to.rank { 1 } else { FILES as usize };
        (low + stride..high).step_by(stride).filter(|&i| self.board[i].is_occupied()).count()
    }
}
