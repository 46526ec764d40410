//! The play slice's move input: clicks, drags and typed moves played or refused, the
//! premove, undo and what it took back.

use std::rc::Rc;

use qi_play::Line;
use qi_play::record::GameRecord;
use qi_rules::any::{AnyGame, AnyMove};
use qi_rules::banqi::BanqiMove;
use qi_rules::{Cell, GameKind, IllegalReason, MoveError, Side};

use super::{Beside, Mode, Notice, PlayState};

/// A chess promotion waiting for the player to choose the piece.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PendingPromotion {
    /// The pawn's square.
    pub from: Cell,
    /// Its destination.
    pub to: Cell,
    /// The pieces it may become (`q`, `r`, `b`, `n`).
    pub choices: Vec<char>,
}

/// A move queued while the computer thinks (a premove): played the instant it is the
/// person's turn, if it is legal then. `from == to` for a gomoku stone or a banqi flip.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Premove {
    /// The piece's cell (the stone's or flip's cell).
    pub from: Cell,
    /// Where it goes.
    pub to: Cell,
}

impl PlayState {
    pub(super) fn has_piece(&self, cell: Cell) -> bool {
        self.board_game().piece_code(cell).is_some()
    }

    pub(super) fn click(&mut self, cell: Cell, beside: Beside) {
        if !self.accepts_moves() {
            if self.premove_allowed() {
                self.premove_click(cell);
            }
            return;
        }
        match self.board_game().kind() {
            GameKind::Gomoku if self.settings.confirm_stones && self.ghost != Some(cell) => {
                // The first tap shows the stone; a tap elsewhere shows it there instead.
                self.ghost = self.board_game().piece_code(cell).is_none().then_some(cell);
                return;
            }
            GameKind::Gomoku => {
                self.ghost = None;
                return self.try_move(cell, cell, None, beside);
            }
            GameKind::Banqi if self.board_game().piece_code(cell).as_deref() == Some("?") => {
                return self.try_move(cell, cell, None, beside);
            }
            _ => {}
        }
        let Some(from) = self.selected else {
            if self.has_piece(cell) {
                self.selected = Some(cell);
                self.notice = None;
            }
            return;
        };
        if from == cell {
            self.selected = None;
        } else if self.board_game().legal_destinations(from).contains(&cell) {
            self.try_move(from, cell, None, beside);
        } else if !self.board_game().legal_destinations(cell).is_empty() {
            self.selected = Some(cell);
            self.notice = None;
        } else {
            self.try_move(from, cell, None, beside);
        }
    }

    /// Whether the board takes a queued move (premove) now: against the computer, while it is
    /// its turn in the game as it stands.
    #[must_use]
    pub fn premove_allowed(&self) -> bool {
        matches!(self.settings.mode, Mode::VsComputer { .. })
            && self.viewing.is_none()
            && self.promotion.is_none()
            && self.result().is_none()
            && self.settings.computer_plays(self.game.side_to_move())
    }

    /// Whether `cell` holds one of the person's pieces (while the computer is to move).
    pub(super) fn own_piece(&self, cell: Cell) -> bool {
        self.game.owner(cell) == Some(self.human_side())
    }

    /// A click on the computer's turn: it picks one of the person's pieces and queues its
    /// move, a stone or a flip; any click while a move is queued takes the queued move back.
    pub(super) fn premove_click(&mut self, cell: Cell) {
        if self.premove.take().is_some() {
            self.selected = None;
            return;
        }
        let code = self.game.piece_code(cell);
        let placed = match self.game.kind() {
            GameKind::Gomoku => code.is_none(),
            GameKind::Banqi => self.selected.is_none() && code.as_deref() == Some("?"),
            GameKind::Chess | GameKind::Xiangqi => false,
        };
        if placed {
            self.premove = Some(Premove { from: cell, to: cell });
            return;
        }
        match self.selected {
            Some(from) if from == cell => self.selected = None,
            _ if self.own_piece(cell) => self.selected = Some(cell),
            Some(from) => {
                self.selected = None;
                self.premove = Some(Premove { from, to: cell });
            }
            None => {}
        }
    }

    /// Plays the queued move, if there is one and it is the person's turn in the game as it
    /// stands. A pawn reaching the last rank becomes a queen (as on the big sites).
    pub(super) fn play_premove(&mut self, beside: Beside) {
        if self.viewing.is_some() || !self.accepts_moves() {
            return;
        }
        let Some(Premove { from, to }) = self.premove.take() else { return };
        self.selected = None;
        let promotion = self.game.promotion_choices(from, to).contains(&'q').then_some('q');
        if self.flag_fell(beside) {
            return;
        }
        match self.game.move_between(from, to, promotion) {
            Ok(mv) => self.play_move(mv, beside),
            Err(MoveError::Illegal(illegal)) => {
                self.notice = Some(Notice::PremoveDropped(Some(illegal.reason)));
            }
            Err(MoveError::Parse(_)) => self.notice = Some(Notice::PremoveDropped(None)),
        }
    }

    /// The side that resigns: the person's side against the computer, else the side to move.
    #[must_use]
    pub fn human_side(&self) -> Side {
        match self.settings.mode {
            Mode::VsComputer { human } => human,
            Mode::HotSeat | Mode::Watch => self.game.side_to_move(),
        }
    }

    /// Whether a gomoku opening rule asks the player to act for a colour now (take black or
    /// white).
    #[must_use]
    pub fn colour_choice_due(&self) -> bool {
        use qi_rules::Game;
        use qi_rules::gomoku::Phase;
        // The phase says it: no move list to build on every render.
        matches!(&self.board_game(), AnyGame::Gomoku(game)
            if game.outcome().is_none()
                && matches!(game.phase(), Phase::Choose | Phase::ChooseAgain | Phase::ChooseAfterFourth))
    }

    /// Whether Soosõrv-8 asks the player to declare how many fifth stones Black offers.
    #[must_use]
    pub fn offer_count_due(&self) -> bool {
        use qi_rules::Game;
        use qi_rules::gomoku::Phase;
        matches!(&self.board_game(), AnyGame::Gomoku(game)
            if game.outcome().is_none() && game.phase() == Phase::Declare)
    }

    /// Whether a gomoku opening rule lets the player put a stone instead of taking a colour
    /// now (swap2's "two more").
    #[must_use]
    pub fn stones_instead_of_colour(&self) -> bool {
        use qi_rules::gomoku::{OpeningRule, Phase};
        self.colour_choice_due()
            && matches!(&self.board_game(), AnyGame::Gomoku(game)
                if game.phase() == Phase::Choose && qi_rules::Game::rules(game).opening == OpeningRule::Swap2)
    }

    /// Whether a banqi chain capture waits for another capture or its end.
    #[must_use]
    pub fn chain_in_progress(&self) -> bool {
        let game = self.board_game();
        game.legal_move_values().contains(&AnyMove::Banqi(BanqiMove::Stop))
    }

    pub(super) fn try_move(
        &mut self,
        from: Cell,
        to: Cell,
        promotion: Option<char>,
        beside: Beside,
    ) {
        self.selected = None;
        if promotion.is_none() {
            let choices = self.board_game().promotion_choices(from, to);
            if !choices.is_empty() {
                self.promotion = Some(PendingPromotion { from, to, choices });
                return;
            }
        }
        if self.flag_fell(beside) {
            return;
        }
        // The gesture is found as a typed move (both castling gestures give the castling
        // move, so the record keeps its canonical coordinates), not written as text and read.
        let found = self.board_game().move_between(from, to, promotion);
        self.play_found(found, beside);
    }

    /// Plays move text typed in the screen-reader field: read once into a move, then played as
    /// one.
    pub(super) fn play_text(&mut self, text: &str, beside: Beside) {
        if self.flag_fell(beside) {
            return;
        }
        let found = self.board_game().read_move(text);
        self.play_found(found, beside);
    }

    /// Plays a move found from a gesture or text, or says why there is none.
    fn play_found(&mut self, found: Result<AnyMove, MoveError>, beside: Beside) {
        match found {
            Ok(mv) => self.play_move(mv, beside),
            Err(MoveError::Illegal(illegal)) => self.refuse(illegal.reason),
            Err(MoveError::Parse(_)) => self.notice = Some(Notice::Unreadable),
        }
    }

    /// Plays a move on the position shown: the game's next move, or a move into the tree from
    /// a past position or a variation.
    pub(super) fn play_move(&mut self, mv: AnyMove, beside: Beside) {
        if self.explored.is_some() {
            return self.explore(mv);
        }
        if self.flag_fell(beside) {
            return;
        }
        let mover = self.game.side_to_move();
        let (text, notation) = (self.game.move_text(mv), self.game.move_notation(mv));
        match Rc::make_mut(&mut self.game).apply(mv) {
            Ok(()) => {
                self.record_mut().moves.push(text);
                Rc::make_mut(&mut self.notations).push(notation);
                self.notice = None;
                self.happened.clear_hint = true;
                self.computer_moved = false;
                // The game moved on: what the last Undo took back can no longer be put back.
                self.taken_back = None;
                self.ghost = None;
                self.happened.moved = Some(mover);
            }
            Err(illegal) => self.refuse(illegal.reason),
        }
    }

    /// A move the rules refused: says why, and counts it (each refusal is a sound, even the
    /// same one twice).
    pub(super) fn refuse(&mut self, reason: IllegalReason) {
        self.notice = Some(Notice::Illegal(reason));
        self.refusals = self.refusals.wrapping_add(1);
    }

    pub(super) fn undo(&mut self) {
        if self.viewing.is_some() || self.record.ending.is_some() {
            return;
        }
        // Moves with notes are kept aside, so the notice can offer to put them back.
        let before = self.record.has_notes().then(|| self.record.tree());
        // Against the computer, take back to the person's own turn (the computer's reply and
        // the person's move), so the computer does not simply play again.
        let mut undone = 0;
        while Rc::make_mut(&mut self.game).undo().is_some() {
            let plies = self.record.moves.len().saturating_sub(1);
            self.record_mut().truncate(plies);
            Rc::make_mut(&mut self.notations).pop();
            undone += 1;
            let to_move = self.game.side_to_move();
            if !self.settings.computer_plays(to_move) || self.settings.mode == Mode::Watch {
                break;
            }
        }
        if undone == 0 {
            return;
        }
        self.happened.stop_thinking = true;
        self.happened.clear_hint = true;
        self.premove = None;
        self.ghost = None;
        self.computer_moved = false;
        self.selected = None;
        self.notice = None;
        let plies = self.record.moves.len();
        self.taken_back =
            before.filter(|tree| notes_after(tree, plies)).map(|tree| (plies, Rc::new(tree)));
        if self.taken_back.is_some() {
            self.notice = Some(Notice::NotesTakenBack);
        }
        self.promotion = None;
        self.overlay_closed = false;
        self.happened.hand_clock = true;
    }

    /// The record, to change: shared with earlier states until it changes (see
    /// [`PlayState::record`]).
    pub(super) fn record_mut(&mut self) -> &mut GameRecord {
        Rc::make_mut(&mut self.record)
    }

    /// Puts back what the last Undo took back (see [`PlayState::taken_back`]), when the game is
    /// still as that Undo left it.
    pub(super) fn restore_taken_back(&mut self) {
        let Some((plies, before)) = &self.taken_back else { return };
        let mut left = Line::clone(before);
        left.truncate(*plies);
        // Only onto the game exactly as Undo left it: not after a resignation or a flag, not
        // while stepping back, not once anything else changed.
        let still_as_left =
            self.viewing.is_none() && self.record.ending.is_none() && self.record.tree() == left;
        let Some((_, before)) = self.taken_back.take() else { return };
        if self.notice == Some(Notice::NotesTakenBack) {
            self.notice = None;
        }
        if !still_as_left {
            return;
        }
        self.record_mut().put_tree(Line::clone(&before));
        let replayed = self.record.replay(usize::MAX);
        self.game = Rc::new(replayed.game);
        self.notations = Rc::new(replayed.notations);
        self.happened.clear_hint = true;
        self.selected = None;
        self.promotion = None;
        // A request in flight was for the shorter game; the computer looks again if it is its
        // turn now.
        self.happened.stop_thinking = true;
        self.computer_moved = false;
        // The clocks go on for the side to move now: the time used so far stays used.
        self.happened.hand_clock = true;
    }
}

/// Whether `line` has notes (comments, marks, arrows, variations) on or after its move
/// `plies + 1`: what taking its moves back to `plies` would lose.
fn notes_after(line: &Line, plies: usize) -> bool {
    line.comments.keys().chain(line.marks.keys()).chain(line.shapes.keys()).any(|&k| k > plies)
        || line.variations.keys().any(|&at| at >= plies)
}
