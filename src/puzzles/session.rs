//! One puzzle on the board: the play slice ([`PlayState`]) that draws it and takes the player's
//! moves, and the run ([`PuzzleRun`]) that judges them. The board's game is always the run's:
//! after each answer the board is set to the run's moves (the reply shown a moment after the
//! player's move, so it can be seen).

use qi_play::puzzle::{Answer, Puzzle, PuzzleRun, RunState};
use qi_play::record::{GameRecord, Start};
use qi_rules::any::AnyMove;
use qi_rules::{Cell, GameKind};

use crate::state::{Action, PlayState, Settings};

/// Where `mv` goes from and to in `game`; `None` when it is not legal there.
fn move_cells(game: &qi_rules::any::AnyGame, mv: AnyMove) -> Option<(Option<Cell>, Cell)> {
    let mut after = game.clone();
    after.apply(mv).ok()?;
    let cells = after.last_move()?;
    Some((cells.from, cells.to))
}

/// The help asked for on this move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hint {
    /// None.
    None,
    /// The piece to move is circled (the point to play, in gomoku).
    Piece(Cell),
}

/// What the engine said of a wrong move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refutation {
    /// Asked; no answer yet.
    Looking,
    /// The opponent's best answer, in the game's notation, with its cells and whether it wins
    /// (a mate found).
    Found {
        /// The answer as written.
        text: String,
        /// Where it goes from and to.
        cells: (Option<Cell>, Cell),
        /// Whether it wins by force.
        wins: bool,
    },
    /// The engine gave none.
    Unknown,
}

/// What the player did to the puzzle.
#[derive(Clone, Debug, PartialEq)]
pub enum SessionAction {
    /// On the board (a click, a drag, a promotion choice, a typed move).
    Board(Box<Action>),
    /// Time to show the opponent's reply to a right move.
    ShowReply,
    /// A hint: the piece to move.
    Hint,
    /// Take the wrong move back.
    TryAgain,
    /// Play the whole solution.
    ViewSolution,
    /// The engine's answer to the wrong move on the board (`None`: none came).
    Refuted {
        /// The puzzle it was asked for (an answer for another puzzle is dropped).
        puzzle: qi_play::puzzle::PuzzleId,
        /// The wrong move it answers (an answer to an older one is dropped).
        wrong: AnyMove,
        /// The answer and whether it wins.
        answer: Option<(AnyMove, bool)>,
    },
}

/// A puzzle being solved on the board.
#[derive(Clone, Debug)]
pub struct Session {
    /// The board.
    pub play: PlayState,
    /// The judge.
    pub run: PuzzleRun,
    /// A right move was played; the reply waits to be shown.
    pub reply_pending: bool,
    /// The hint on the board.
    pub hint: Hint,
    /// The engine's answer to the wrong move on the board.
    pub refutation: Option<Refutation>,
    /// How the first attempt went, once it is known: solved (`true`) or not (a wrong move, a
    /// hint, the solution asked for). Set once, when it is first known.
    pub result: Option<bool>,
}

impl Session {
    /// Starts `puzzle` with `settings` (language, looks): the opponent's move is on the board.
    #[must_use]
    pub fn new(puzzle: Puzzle, settings: Settings) -> Session {
        let mut settings = settings;
        // Both sides' moves go through the board; the run decides which are the player's.
        settings.mode = qi_settings::Mode::HotSeat;
        settings.clock = None;
        let run = PuzzleRun::new(puzzle);
        let mut session = Session {
            play: PlayState::new(settings, 0),
            run,
            reply_pending: false,
            hint: Hint::None,
            refutation: None,
            result: None,
        };
        session.show_run(true);
        session
    }

    /// The puzzle.
    #[must_use]
    pub fn puzzle(&self) -> &Puzzle {
        self.run.puzzle()
    }

    /// Where the run stands.
    #[must_use]
    pub fn state(&self) -> RunState {
        self.run.state()
    }

    /// Whether the board takes the player's move now.
    #[must_use]
    pub fn takes_moves(&self) -> bool {
        !self.reply_pending && self.run.next_move().is_some()
    }

    /// Sets the board to the run's moves (all but a pending reply); `slide` animates the last.
    fn show_run(&mut self, slide: bool) {
        let puzzle = self.run.puzzle();
        let mut moves = self.run.board_moves().to_vec();
        if self.reply_pending {
            moves.pop();
        }
        let texts = qi_play::puzzle::move_texts(&puzzle.start(), &moves);
        let record = GameRecord::from_parts(
            puzzle.rules.kind(),
            puzzle.rules.to_list(),
            Start::Position(puzzle.position.clone()),
            texts,
        );
        let notice = self.play.notice.clone().filter(|_| false);
        self.play.apply(Action::Open {
            record,
            bottom: Some(self.run.solver()),
            at: None,
            notice,
        });
        self.play.computer_moved = slide;
    }

    fn settle(&mut self, solved: bool) {
        if self.result.is_none() {
            self.result = Some(solved);
        }
    }

    /// Applies one action.
    pub fn apply(&mut self, action: SessionAction) {
        match action {
            SessionAction::Board(action) => self.board(*action),
            SessionAction::ShowReply => {
                if self.reply_pending {
                    self.reply_pending = false;
                    self.show_run(true);
                }
            }
            SessionAction::Hint => {
                if self.takes_moves()
                    && let Some(next) = self.run.next_move()
                {
                    let cell = match move_cells(self.run.game(), next) {
                        Some((Some(from), _)) => from,
                        Some((None, to)) => to,
                        None => return,
                    };
                    self.run.note_hint();
                    self.settle(false);
                    self.hint = Hint::Piece(cell);
                }
            }
            SessionAction::TryAgain => {
                if self.run.take_back() {
                    self.refutation = None;
                    self.show_run(false);
                }
            }
            SessionAction::ViewSolution => {
                self.reply_pending = false;
                self.refutation = None;
                self.hint = Hint::None;
                while !self.run.show_next().is_empty() {}
                self.settle(false);
                self.show_run(true);
            }
            SessionAction::Refuted { puzzle, wrong, answer } => {
                if self.run.puzzle().id != puzzle || self.run.wrong_move() != Some(wrong) {
                    return;
                }
                let game = self.run.game();
                self.refutation = Some(match answer.filter(|(mv, _)| game.check(*mv).is_ok()) {
                    Some((mv, wins)) => {
                        let chinese = self.play.settings.lang == qi_i18n::text::Lang::Zh;
                        let text = game
                            .chinese_notation_of(mv)
                            .filter(|_| chinese)
                            .unwrap_or_else(|| game.move_notation(mv));
                        match move_cells(game, mv) {
                            Some(cells) => Refutation::Found { text, cells, wins },
                            None => Refutation::Unknown,
                        }
                    }
                    None => Refutation::Unknown,
                });
            }
        }
    }

    fn board(&mut self, action: Action) {
        if !self.takes_moves() {
            // Stepping through the moves shown is still allowed; nothing else is.
            if matches!(action, Action::Tree(_)) {
                self.play.apply(action);
            }
            return;
        }
        let happened = self.play.apply_with(action, crate::state::Beside::default());
        if happened.moved.is_none() {
            return;
        }
        let Some(mv) = self.play.record.moves.last().and_then(|text| self.run.game().read_move(text).ok())
        else {
            self.show_run(false);
            return;
        };
        self.hint = Hint::None;
        match self.run.answer(mv) {
            Answer::Right { .. } => {
                self.reply_pending = true;
                self.show_run(false);
            }
            Answer::Done => {
                self.settle(self.run.state() == RunState::Solved);
                self.show_run(false);
            }
            Answer::Wrong => {
                self.settle(false);
                self.refutation = Some(Refutation::Looking);
                self.show_run(false);
            }
            Answer::NotNow | Answer::Illegal(_) => self.show_run(false),
        }
    }

    /// The game kind.
    #[must_use]
    pub fn kind(&self) -> GameKind {
        self.run.puzzle().rules.kind()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use qi_i18n::text::Lang;
    use qi_play::puzzle::PuzzleId;
    use qi_rules::any::{AnyRules, Variant};

    /// Lichess's first puzzle: mate in two.
    fn mate_in_two() -> Puzzle {
        Puzzle::new(
            PuzzleId::parse("00sHx").unwrap(),
            AnyRules::of(Variant::Chess),
            "q3k1nr/1pp1nQpp/3p4/1P2p3/4P3/B1PP1b2/B5PP/5K2 b k - 0 17",
            &["e8d7", "a2e6", "d7d8", "f7f8"],
        )
        .unwrap()
    }

    fn typed(text: &str) -> SessionAction {
        SessionAction::Board(Box::new(Action::TypeMove { text: text.into(), now: 0.0 }))
    }

    #[test]
    fn the_opponents_move_is_on_the_board_and_the_solver_sits_at_the_bottom() {
        let session = Session::new(mate_in_two(), Settings::new(Lang::En));
        assert_eq!(session.play.record.moves, ["e8d7"]);
        assert!(!session.play.flipped, "white solves: white at the bottom");
        assert!(session.takes_moves());
        assert_eq!(session.state(), RunState::Solving);
    }

    #[test]
    fn right_moves_bring_the_reply_after_a_moment_and_solve_it() {
        let mut session = Session::new(mate_in_two(), Settings::new(Lang::En));
        session.apply(typed("a2e6"));
        assert!(session.reply_pending);
        assert_eq!(session.play.record.moves, ["e8d7", "a2e6"], "the reply is not shown yet");
        assert!(!session.takes_moves());
        session.apply(typed("f7f8"));
        assert_eq!(session.play.record.moves.len(), 2, "no move while the reply waits");
        session.apply(SessionAction::ShowReply);
        assert_eq!(session.play.record.moves, ["e8d7", "a2e6", "d7d8"]);
        session.apply(typed("f7f8"));
        assert_eq!(session.state(), RunState::Solved);
        assert_eq!(session.result, Some(true));
        assert!(session.play.result().is_some(), "the board shows the mate");
    }

    #[test]
    fn a_wrong_move_fails_asks_for_the_refutation_and_can_be_taken_back() {
        let mut session = Session::new(mate_in_two(), Settings::new(Lang::En));
        session.apply(typed("f7f8"));
        assert_eq!(session.state(), RunState::Failed);
        assert_eq!(session.result, Some(false));
        assert_eq!(session.refutation, Some(Refutation::Looking));
        assert_eq!(session.play.record.moves, ["e8d7", "f7f8"], "the wrong move stays shown");
        let wrong = session.run.wrong_move().unwrap();
        let answer = session.run.game().read_move("a8f8").ok();
        // An answer to another move is dropped.
        let other = session.run.game().legal_move_values().into_iter().find(|&m| Some(m) != answer).unwrap();
        let id = session.puzzle().id.clone();
        session.apply(SessionAction::Refuted { puzzle: id.clone(), wrong: other, answer: None });
        assert_eq!(session.refutation, Some(Refutation::Looking));
        let elsewhere = PuzzleId::parse("other").unwrap();
        session.apply(SessionAction::Refuted { puzzle: elsewhere, wrong, answer: None });
        assert_eq!(session.refutation, Some(Refutation::Looking), "an answer for another puzzle");
        session.apply(SessionAction::Refuted { puzzle: id, wrong, answer: answer.map(|mv| (mv, false)) });
        let Some(Refutation::Found { text, .. }) = &session.refutation else { panic!("found") };
        assert!(text.starts_with("Qxf8"), "in the game's notation: {text}");
        session.apply(SessionAction::TryAgain);
        assert_eq!(session.play.record.moves, ["e8d7"]);
        assert!(session.takes_moves());
        session.apply(typed("a2e6"));
        session.apply(SessionAction::ShowReply);
        session.apply(typed("f7f8"));
        assert_eq!(session.state(), RunState::Failed, "solved after a mistake is still failed");
        assert_eq!(session.result, Some(false), "the first result stays");
    }

    #[test]
    fn a_hint_circles_the_piece_and_the_solution_plays_out() {
        let mut session = Session::new(mate_in_two(), Settings::new(Lang::En));
        session.apply(SessionAction::Hint);
        assert_eq!(session.hint, Hint::Piece(Cell::new(0, 1)), "the bishop on a2");
        assert_eq!(session.result, Some(false));
        session.apply(SessionAction::ViewSolution);
        assert_eq!(session.play.record.moves, ["e8d7", "a2e6", "d7d8", "f7f8"]);
        assert!(session.run.finished());
        assert!(!session.takes_moves());
    }

    #[test]
    fn an_illegal_move_is_refused_with_its_reason_and_changes_nothing() {
        let mut session = Session::new(mate_in_two(), Settings::new(Lang::En));
        session.apply(typed("a2a8"));
        assert_eq!(session.play.record.moves, ["e8d7"]);
        assert_eq!(session.state(), RunState::Solving);
        assert!(session.play.notice.is_some(), "the rules' reason is shown");
    }
}
