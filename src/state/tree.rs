//! The move tree's slice of the page's actions: stepping through the game and its variations,
//! turning the board, and changing the tree (its order, marks, shapes and comments). The
//! position shown lives in [`PlayState::viewing`] and [`PlayState::explored`]; the tree itself in
//! the record.

use std::rc::Rc;

use qi_play::Path;
use qi_rules::any::AnyMove;

use super::{Beside, MAX_COMMENT_CHARS, PlayState};

/// A change to the move tree at the position shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TreeEdit {
    /// The variation shown becomes the main continuation where it branches off.
    Promote,
    /// The variation shown becomes the main line (the game then goes on from it).
    MakeMainLine,
    /// The move that led here goes, with everything after it.
    Delete,
    /// The variation shown moves one place up among its siblings.
    Earlier,
    /// The variation shown moves one place down among its siblings.
    Later,
}

/// What happens to the move tree and the position shown.
#[derive(Clone, Debug, PartialEq)]
pub enum TreeAction {
    /// Turn the board around.
    FlipBoard,
    /// Show the position after `ply` moves, or the game as it stands (`None`).
    View(Option<usize>),
    /// One move back in the move list.
    StepBack,
    /// One move forward in the move list (along the line shown).
    StepForward,
    /// Show a position of the move tree (a move in a variation, say).
    Go(Path),
    /// Show the start position.
    First,
    /// Show the end of the line shown (of the main line: the game as it stands).
    Last,
    /// Change the move tree at the position shown.
    EditTree(TreeEdit),
    /// One move on along the main line (the embed's autoplay): from a variation, the main
    /// line's move that it replaced.
    StepMainLine,
    /// Play these moves (an engine line) from the position shown, into the move tree.
    PlayLine(Vec<AnyMove>),
    /// Draw (or take off, or recolour) an arrow or a circle on the position shown.
    ToggleShape(qi_play::Shape),
    /// Put a mark on the move shown, or take it off.
    ToggleMark(qi_play::Mark),
    /// Set the comment after the move shown (blank: none).
    SetComment(String),
}

impl TreeAction {
    /// Whether this is the player's own act: all of them but a drawn shape (which keeps the
    /// answer to the last move tried on the board it is drawn on).
    pub(super) fn is_players_act(&self) -> bool {
        !matches!(self, TreeAction::ToggleShape(_))
    }
}

impl PlayState {
    /// The tree slice's actions.
    pub(super) fn apply_tree(&mut self, action: TreeAction, beside: Beside) {
        match action {
            TreeAction::FlipBoard => self.flipped = !self.flipped,
            TreeAction::View(ply) => {
                let plies = self.record.moves.len();
                self.set_view(ply.filter(|&p| p < plies).map(Path::main));
            }
            TreeAction::Go(path) => self.set_view(Some(path)),
            TreeAction::StepBack => {
                let shown = self.shown_path();
                let back = self.record.previous(&shown);
                if let Some(back) = back {
                    self.set_view(Some(back));
                }
            }
            TreeAction::StepForward => {
                if let Some(path) = self.viewing.clone() {
                    let next = self.record.next(&path);
                    if let Some(next) = next {
                        self.set_view(Some(next));
                    }
                }
            }
            TreeAction::StepMainLine => {
                // From a variation, back to the main line at the move the variation replaced.
                if let Some(path) = &self.viewing {
                    let ply = path.branches.first().map_or(path.ply, |branch| branch.at);
                    self.set_view(Some(Path::main(ply + 1)));
                }
            }
            TreeAction::First => self.set_view(Some(Path::main(0))),
            TreeAction::Last => {
                let shown = self.shown_path();
                let end = self.record.end_of_line(&shown);
                self.set_view(end);
            }
            TreeAction::EditTree(edit) => self.edit_tree(edit, beside),
            TreeAction::ToggleShape(shape) => {
                // A right-click drops a queued move (as lichess does) instead of drawing.
                if self.premove.take().is_some() {
                    self.selected = None;
                    return;
                }
                let path = self.shown_path();
                self.record_mut().edit_tree(|tree| tree.toggle_shape(&path, shape));
            }
            TreeAction::ToggleMark(mark) => {
                let path = self.shown_path();
                self.record_mut().edit_tree(|tree| tree.toggle_mark(&path, mark));
            }
            TreeAction::SetComment(text) => {
                let path = self.shown_path();
                // Comments are the player's text: bounded, as a record's would be.
                let text: String = text.chars().take(MAX_COMMENT_CHARS).collect();
                self.record_mut().edit_tree(|tree| tree.set_comment(&path, &text));
            }
            TreeAction::PlayLine(moves) => {
                // Into the tree from a past position or a variation; at the game's own end the
                // line is not played for the players.
                if self.explored.is_some() {
                    for mv in moves {
                        // A line that reaches the game as it stands stops there: the rest is
                        // not played for the players.
                        if self.explored.is_none() {
                            break;
                        }
                        let before = self.shown_path();
                        self.play_move(mv, Beside::default());
                        if self.shown_path() == before {
                            break;
                        }
                    }
                }
            }
        }
    }

    /// The main-line ply shown, when the position shown is on the main line (`None` for the
    /// game as it stands and for a variation).
    #[must_use]
    pub fn viewing_main_ply(&self) -> Option<usize> {
        self.viewing.as_ref().filter(|p| p.is_main_line()).map(|p| p.ply)
    }

    /// Plays on from the position shown: a past one (the later moves go), or the last one of a
    /// game that ended by resignation or on time.
    pub(super) fn play_from_here(&mut self) {
        let last = self.record.ending.map(|_| Path::main(self.record.moves.len()));
        let Some(path) = self.viewing.clone().or(last) else { return };
        // From a variation: it becomes the main line first.
        let Some(path) = self.record_mut().edit_tree(|tree| tree.make_main_line(&path)) else {
            return;
        };
        self.record_mut().truncate(path.ply);
        // Playing on from the last position of a resigned or flagged game is playing on too.
        self.record_mut().ending = None;
        let replayed = self.record.replay(usize::MAX);
        self.game = Rc::new(replayed.game);
        self.notations = Rc::new(replayed.notations);
        self.set_view(None);
        self.happened.stop_thinking = true;
        self.happened.clear_hint = true;
        self.overlay_closed = false;
        self.happened.restart_clocks = true;
    }

    /// Shows the position at `path` (`None`, or the end of the main line: the game as it
    /// stands). A path the tree does not have changes nothing.
    pub(super) fn set_view(&mut self, path: Option<Path>) {
        let path = path.map(Path::normalized).filter(|p| *p != Path::main(self.record.moves.len()));
        let explored = match &path {
            Some(path) => match self.record.game_at(path) {
                Some(replayed) => Some(replayed.game),
                None => return,
            },
            None => None,
        };
        self.viewing = path;
        self.explored = explored.map(Rc::new);
        self.selected = None;
        self.promotion = None;
        self.happened.clear_hint = true;
        self.premove = None;
        self.ghost = None;
    }

    /// The moves from the start to the position shown.
    #[must_use]
    pub fn shown_moves(&self) -> Vec<String> {
        self.record
            .moves_to(&self.shown_path())
            .map(|moves| moves.into_iter().map(str::to_owned).collect())
            .unwrap_or_default()
    }

    /// The position shown, as a path (the end of the main line when the game is shown as it
    /// stands).
    #[must_use]
    pub fn shown_path(&self) -> Path {
        self.viewing.clone().unwrap_or_else(|| Path::main(self.record.moves.len()))
    }

    /// Plays `mv` from the past position or variation shown: it follows the tree where the
    /// move is there, else makes a variation.
    pub(super) fn explore(&mut self, mv: AnyMove) {
        let Some(explored) = &mut self.explored else { return };
        let text = explored.move_text(mv);
        match Rc::make_mut(explored).apply(mv) {
            Ok(()) => {
                let path = self.shown_path();
                let next = self.record_mut().edit_tree(|tree| tree.add_move(&path, &text));
                self.notice = None;
                self.computer_moved = false;
                self.set_view(next);
            }
            Err(illegal) => self.refuse(illegal.reason),
        }
    }

    /// Whether editing the tree may change the main line now: not while clocks run.
    pub(super) fn may_change_main_line(&self, beside: Beside) -> bool {
        !beside.clocks_running || self.result().is_some()
    }

    /// An edit of the move tree at the position shown (promote, make main line, delete). When
    /// the edit changes the main line, the game is replayed from it; the position stays shown.
    pub(super) fn edit_tree(&mut self, edit: TreeEdit, beside: Beside) {
        let path = self.shown_path();
        let changes_main_line = match edit {
            TreeEdit::Promote => path.branches.len() == 1,
            TreeEdit::MakeMainLine => !path.is_main_line(),
            // Deleting a variation, even from its first move, leaves the main line as it is.
            TreeEdit::Delete => path.is_main_line(),
            TreeEdit::Earlier | TreeEdit::Later => false,
        };
        if changes_main_line && !self.may_change_main_line(beside) {
            return;
        }
        let next = self.record_mut().edit_tree(|tree| match edit {
            TreeEdit::Promote => tree.promote(&path),
            TreeEdit::MakeMainLine => tree.make_main_line(&path),
            TreeEdit::Delete => tree.delete(&path),
            TreeEdit::Earlier => tree.reorder(&path, true),
            TreeEdit::Later => tree.reorder(&path, false),
        });
        let Some(next) = next else { return };
        if changes_main_line {
            let replayed = self.record.replay(usize::MAX);
            if replayed.notations != *self.notations {
                // Another main line is another game: the old one's recorded ending goes.
                self.record_mut().ending = None;
            }
            self.game = Rc::new(replayed.game);
            self.notations = Rc::new(replayed.notations);
            self.happened.stop_thinking = true;
            self.happened.clear_hint = true;
            self.overlay_closed = false;
            // A new main line starts its clocks afresh, as "Play from here" does.
            self.happened.restart_clocks = true;
        }
        self.viewing = None;
        self.explored = None;
        self.set_view(Some(next));
    }
}
