//! Solving a puzzle: the opponent's move is played, the player answers move by move, each right
//! answer is met by the opponent's reply, a wrong one fails the puzzle.
//!
//! A move other than the solution's is still right when it wins the game at once (a different
//! mate, another five in a row), as lichess accepts any mate on the last move. After a wrong
//! move the board keeps it, so the page can show why it was wrong (the refutation is the
//! engine's business, not this module's); [`PuzzleRun::take_back`] returns to the position
//! before it, where the player may try again (the puzzle stays failed) or
//! [`PuzzleRun::show_next`] plays the solution's next move.

use qi_rules::any::{AnyGame, AnyMove};
use qi_rules::{IllegalMove, Side};

use super::Puzzle;

/// Where a run stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunState {
    /// The player has moves to find and has made no mistake.
    Solving,
    /// Every move found without a mistake.
    Solved,
    /// A mistake was made (the run may go on to the end, but it counts as failed).
    Failed,
}

impl RunState {
    /// Its name for the page's `data-state` (`solving`, `solved`, `failed`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            RunState::Solving => "solving",
            RunState::Solved => "solved",
            RunState::Failed => "failed",
        }
    }
}

/// What came of the player's move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Right; the opponent replied with this move, and the player is to move again.
    Right {
        /// The opponent's reply, already played.
        reply: AnyMove,
    },
    /// Right, and the last move to find: the puzzle is done.
    Done,
    /// Not the solution: it stays on the board until [`PuzzleRun::take_back`].
    Wrong,
    /// No move to make: the line is done, or a wrong move is on the board.
    NotNow,
    /// Not a legal move here; nothing changed.
    Illegal(IllegalMove),
}

/// A puzzle being solved.
#[derive(Clone, Debug)]
pub struct PuzzleRun {
    puzzle: Puzzle,
    game: AnyGame,
    /// How many of the puzzle's moves are on the board (the opponent's first one included).
    played: usize,
    /// The wrong move on the board, if any.
    wrong: Option<AnyMove>,
    failed: bool,
    /// Whether the player needed help (a hint or a shown move); counts as failed for ratings.
    helped: bool,
    /// The moves on the board from the puzzle's position (a winning move other than the
    /// solution's ends the line with itself).
    board: Vec<AnyMove>,
}

impl PuzzleRun {
    /// Starts `puzzle`: its position with the opponent's move played.
    #[must_use]
    pub fn new(puzzle: Puzzle) -> PuzzleRun {
        let mut game = puzzle.start();
        // `Puzzle::new` checked the line; one put together by hand may be empty.
        if let Some(&first) = puzzle.moves.first() {
            let _ = game.apply(first);
        }
        let board = puzzle.moves.first().copied().into_iter().collect();
        PuzzleRun { puzzle, game, played: 1, wrong: None, failed: false, helped: false, board }
    }

    /// The puzzle.
    #[must_use]
    pub fn puzzle(&self) -> &Puzzle {
        &self.puzzle
    }

    /// The game as the board shows it.
    #[must_use]
    pub fn game(&self) -> &AnyGame {
        &self.game
    }

    /// The side the player plays.
    #[must_use]
    pub fn solver(&self) -> Side {
        self.puzzle.start().side_to_move().other()
    }

    /// How far it is.
    #[must_use]
    pub fn state(&self) -> RunState {
        if self.failed || self.helped {
            RunState::Failed
        } else if self.finished() {
            RunState::Solved
        } else {
            RunState::Solving
        }
    }

    /// Whether the whole line is on the board (solved, or shown after a failure).
    #[must_use]
    pub fn finished(&self) -> bool {
        self.wrong.is_none() && self.played >= self.puzzle.moves.len()
    }

    /// The moves on the board from the puzzle's position: the line's moves played so far (the
    /// opponent's first one included), then the wrong move if one is there.
    #[must_use]
    pub fn board_moves(&self) -> &[AnyMove] {
        &self.board
    }

    /// The wrong move on the board, if any.
    #[must_use]
    pub fn wrong_move(&self) -> Option<AnyMove> {
        self.wrong
    }

    /// The solution's next move (a hint; asking for it fails the puzzle for ratings, as
    /// lichess's "view the solution" does). `None` when the line is done or a wrong move is on
    /// the board.
    #[must_use]
    pub fn next_move(&self) -> Option<AnyMove> {
        if self.wrong.is_some() { None } else { self.puzzle.moves.get(self.played).copied() }
    }

    /// The player asked for a hint: the run no longer counts as solved unaided.
    pub fn note_hint(&mut self) {
        self.helped = true;
    }

    /// Plays the player's move.
    pub fn answer(&mut self, mv: AnyMove) -> Answer {
        let Some(expected) = self.next_move() else { return Answer::NotNow };
        if let Err(illegal) = self.game.check(mv) {
            return Answer::Illegal(illegal);
        }
        let solver = self.game.side_to_move();
        let _ = self.game.apply(mv);
        self.board.push(mv);
        let wins_now = self.game.outcome().is_some_and(|outcome| outcome.winner == Some(solver));
        if mv != expected && !wins_now {
            self.wrong = Some(mv);
            self.failed = true;
            return Answer::Wrong;
        }
        if mv != expected {
            // Another win on the spot: the line is done.
            self.played = self.puzzle.moves.len();
            return Answer::Done;
        }
        self.played += 1;
        match self.puzzle.moves.get(self.played).copied() {
            Some(reply) => {
                let _ = self.game.apply(reply);
                self.board.push(reply);
                self.played += 1;
                Answer::Right { reply }
            }
            None => Answer::Done,
        }
    }

    /// Takes the wrong move back; false when there was none.
    pub fn take_back(&mut self) -> bool {
        if self.wrong.take().is_some() {
            self.game.undo_move();
            self.board.pop();
            true
        } else {
            false
        }
    }

    /// Plays the solution's next move for the player, and the opponent's reply (a wrong move on
    /// the board is taken back first); the run counts as failed. Returns the moves played, none
    /// when the line is done.
    pub fn show_next(&mut self) -> Vec<AnyMove> {
        self.take_back();
        let Some(mv) = self.next_move() else { return Vec::new() };
        self.helped = true;
        let mut shown = vec![mv];
        let _ = self.game.apply(mv);
        self.board.push(mv);
        self.played += 1;
        if let Some(&reply) = self.puzzle.moves.get(self.played) {
            let _ = self.game.apply(reply);
            self.board.push(reply);
            self.played += 1;
            shown.push(reply);
        }
        shown
    }
}
