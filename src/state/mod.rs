//! The app's state and its pure reducer: every change is an [`Action`]; storage, timers and
//! randomness happen in the components' effects and callbacks, which pass in what they found (a
//! seed, the time now).

use std::rc::Rc;

use qi_rules::any::{AnyGame, AnyMove};
use qi_rules::banqi::BanqiMove;
use qi_rules::gomoku::GomokuMove;
use qi_rules::{Cell, EndReason, GameKind, IllegalReason, MoveError, Side};

use qi_play::{Line, Path};

use qi_play::link::LinkError;
use qi_play::record::{EndedBy, Ending, GameRecord, ReplayError};

/// The longest comment kept from the comment box.
pub const MAX_COMMENT_CHARS: usize = 2000;

// The player's settings and how they are stored: their own module, here under their old paths.
pub use qi_settings::{
    ClockConfig, Mode, Settings, SettingsAction, SetupChoice, Theme, WATCH_DELAYS_MS, kind_index,
};

/// What the status panel says about the last thing the player tried.
#[derive(Clone, Debug, PartialEq)]
pub enum Notice {
    /// A move was refused, with the rules' reason.
    Illegal(IllegalReason),
    /// Move text could not be read.
    Unreadable,
    /// A saved or linked game stopped at a move that could not be played (1-based), with the
    /// reason when the move was read but illegal.
    StoppedAt {
        /// The move's number in the game.
        ply: usize,
        /// Why it was refused.
        reason: Option<IllegalReason>,
    },
    /// Something in the page's address was wrong; the game opened as far as it could be read.
    Link(LinkError),
    /// A move was typed while the computer is to move: it is not taken.
    NotYourTurn,
    /// Undo took back moves that carried notes (comments, marks, arrows, variations); they can
    /// be put back ([`Action::RestoreTakenBack`]).
    NotesTakenBack,
    /// The move queued while the computer thought was not legal after its reply, and was
    /// dropped (with the rules' reason; `None` for a move that does not read at all).
    PremoveDropped(Option<IllegalReason>),
    /// The computer's engine stopped (its worker failed, and so did the new one asked again)
    /// and gave no move: the player may ask again ([`EngineAction::AskComputerAgain`]).
    EngineStopped,
}

impl Notice {
    /// Whether this answers one attempt of the player's (a refused or unread move), and so
    /// goes once the player does something else.
    fn answers_an_attempt(&self) -> bool {
        matches!(
            self,
            Notice::Illegal(_)
                | Notice::Unreadable
                | Notice::NotYourTurn
                | Notice::PremoveDropped(_)
        )
    }
}

/// Why a game ended: the rules, or a flag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResultReason {
    /// An ending the rules decide.
    Rules(EndReason),
    /// A clock ran out.
    Time,
    /// A player resigned.
    Resignation,
    /// The players agreed a draw (an imported record or an online game says so).
    Agreement,
    /// An imported record gives this result without saying why.
    Recorded,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// The winner, or `None` for a draw.
    pub winner: Option<Side>,
    /// Why.
    pub reason: ResultReason,
    /// The gomoku winning line.
    pub line: Vec<Cell>,
}

/// The play slice: the game, its moves and tree, the position shown, what the player does on
/// the board, and the settings. All the online page and the embed hold; the main page's
/// [`AppState`] adds the clocks and the engine.
#[derive(Clone, Debug)]
pub struct PlayState {
    /// The player's choices.
    pub settings: Settings,
    /// The game as a value; shared, so that a new state per action (the reducer's) does not
    /// copy the move tree unless the action changes it.
    pub record: Rc<GameRecord>,
    /// The game after all its moves.
    pub game: Rc<AnyGame>,
    /// Each move in the game's notation.
    pub notations: Rc<Vec<String>>,
    /// The position shown while stepping through the game or its variations; `None` shows the
    /// game as it stands (the end of the main line).
    pub viewing: Option<Path>,
    /// The game at `viewing`, kept so the board and moves played there need no replay.
    pub explored: Option<Rc<AnyGame>>,
    /// The selected (or picked-up) piece.
    pub selected: Option<Cell>,
    /// The answer to the last attempt.
    pub notice: Option<Notice>,
    /// The move tree as it was before the last Undo that took back moves with notes, and the
    /// main line's length that Undo left: [`Action::RestoreTakenBack`] puts the tree back while
    /// the game is still as Undo left it.
    pub taken_back: Option<(usize, Rc<Line>)>,
    /// How many moves the rules have refused in this page (a change is a refusal to sound).
    pub refusals: u32,
    /// A promotion waiting for its piece.
    pub promotion: Option<PendingPromotion>,
    /// Whether the board is seen from the second side.
    pub flipped: bool,
    /// Whether the game-over overlay was closed.
    pub overlay_closed: bool,
    /// Whether the last move was the computer's (the board animates it).
    pub computer_moved: bool,
    /// Counts the games started or opened in this page: a new number is a new game for the
    /// browser's history (moves within a game replace its entry).
    pub game_number: u64,
    /// The move queued while the computer thinks ([`PlayState::premove_allowed`]).
    pub premove: Option<Premove>,
    /// The gomoku point tapped once, showing the stone a second tap places there (see
    /// [`Settings::confirm_stones`]).
    pub ghost: Option<Cell>,
    /// What the action being applied did that the slices beside this one follow (see
    /// [`PlayState::apply_with`]); empty between actions.
    happened: Happened,
}

/// Everything that can happen to the state.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Open a game from outside (a link, the browser's back button, an imported record): its
    /// game and rules become the current ones; the mode stays.
    Open {
        /// The game.
        record: GameRecord,
        /// The side to show at the bottom, when given.
        bottom: Option<Side>,
        /// The position to show, when given (one the game does not have shows the game as it
        /// stands).
        at: Option<Path>,
        /// What to tell the player about it (a problem in the link), if anything.
        notice: Option<Notice>,
    },
    /// A new game of the current kind; the seed picks the banqi deal or Chess960 start.
    NewGame {
        /// The seed (from the browser's secure randomness).
        seed: u64,
    },
    /// Switch to another game: go on with the one of that kind left unfinished, else start one.
    PickGame {
        /// The game.
        kind: GameKind,
        /// The seed for its start.
        seed: u64,
        /// The game of that kind kept in storage, if any: it goes on when it is of this kind,
        /// under the rules set for it, and not over.
        saved: Option<GameRecord>,
    },
    /// A new game with the choices of the new-game dialog (see [`Settings::take_setup`]).
    StartGame {
        /// The choices: the game, who plays, level, speed, clock and the game's rules.
        setup: Box<Settings>,
        /// The seed for its start.
        seed: u64,
    },
    /// Change a rule option of the current game and start a new one under it.
    SetRule {
        /// The option.
        key: String,
        /// Its new value.
        value: String,
        /// The seed for the new game.
        seed: u64,
    },
    /// A cell was clicked (or Enter/Space pressed on it).
    ClickCell {
        /// The cell.
        cell: Cell,
        /// The time, for the clocks (ms).
        now: f64,
    },
    /// A piece was picked up to drag.
    Pick {
        /// Its cell.
        cell: Cell,
    },
    /// A dragged piece was dropped.
    Drop {
        /// Where it came from.
        from: Cell,
        /// Where it was dropped.
        to: Cell,
        /// The time, for the clocks (ms).
        now: f64,
    },
    /// The promotion piece was chosen.
    Promote {
        /// `q`, `r`, `b` or `n`.
        piece: char,
        /// The time, for the clocks (ms).
        now: f64,
    },
    /// The promotion dialog was cancelled.
    CancelPromotion,
    /// Take back the last move.
    Undo {
        /// The time, for the clocks (ms).
        now: f64,
    },
    /// Stepping through the move tree and changing it (the tree's own actions).
    Tree(TreeAction),
    /// Put back the moves (and their notes) the last Undo took back, if nothing changed since.
    RestoreTakenBack {
        /// When it was asked (milliseconds), for the clocks.
        now: f64,
    },
    /// The engine's requests and answers (the engine slice's own actions).
    Engine(EngineAction),
    /// A change to the settings that starts no new game (the settings slice's own action).
    Setting(SettingsAction),
    /// Play a move typed as text, in any notation the game reads (the screen-reader mode's
    /// field): refused with its reason like any other.
    TypeMove {
        /// What was typed.
        text: String,
        /// The time, for the clocks (ms).
        now: f64,
    },
    /// Turn clocks on or off; starts a new game.
    SetClock {
        /// The setting, `None` for no clock.
        config: Option<ClockConfig>,
        /// The seed for the new game.
        seed: u64,
    },
    /// Time passes: a flag may fall.
    Tick {
        /// The time (ms).
        now: f64,
    },
    /// Close the game-over overlay.
    CloseOverlay,
    /// Take a colour, as a gomoku opening rule asks (see [`PlayState::colour_choice_due`]).
    TakeColour {
        /// The colour: [`qi_rules::Side::First`] is black.
        colour: qi_rules::Side,
        /// The time, for the clocks (ms).
        now: f64,
    },
    /// Declare how many fifth stones Black offers, as Soosõrv-8 asks White (see
    /// [`PlayState::offer_count_due`]).
    DeclareOffers {
        /// How many: 1 to [`qi_rules::gomoku::MAX_OFFERS`].
        count: u8,
        /// The time, for the clocks (ms).
        now: f64,
    },
    /// End a banqi chain capture (the capturing piece stops).
    EndChain {
        /// The time, for the clocks (ms).
        now: f64,
    },
    /// Play the queued move ([`PlayState::premove`]) now that it is the person's turn; dropped,
    /// and said so, if it is not legal.
    PlayPremove {
        /// The time, for the clocks (ms).
        now: f64,
    },
    /// Esc: the picked-up piece goes back and a queued move is dropped.
    Cancel,
    /// Choose who plays; starts a new game.
    SetMode {
        /// The new mode.
        mode: Mode,
        /// The seed for the new game.
        seed: u64,
    },
    /// The side to move resigns.
    Resign,
    /// Go on from the position being viewed, dropping the moves after it.
    PlayFromHere,
}

impl PlayState {
    /// The state for `settings`, with a new game.
    #[must_use]
    pub fn new(settings: Settings, seed: u64) -> PlayState {
        let record = GameRecord::new(settings.kind, settings.rules_of(settings.kind), seed);
        let game = record.start_game();
        // Against the computer, the person's side is at the bottom.
        let flipped = matches!(settings.mode, Mode::VsComputer { human: Side::Second });
        PlayState {
            settings,
            record: Rc::new(record),
            game: Rc::new(game),
            notations: Rc::default(),
            viewing: None,
            explored: None,
            selected: None,
            notice: None,
            taken_back: None,
            refusals: 0,
            promotion: None,
            flipped,
            overlay_closed: false,
            game_number: 0,
            computer_moved: false,
            premove: None,
            ghost: None,
            happened: Happened::default(),
        }
    }

    /// The state for `settings` continuing a recorded game of the current kind: as much of it as
    /// replays (a stored or linked record may be damaged), with the reason it stopped early.
    #[must_use]
    pub fn restore(settings: Settings, record: GameRecord) -> (PlayState, Option<ReplayError>) {
        let mut state = PlayState::new(settings, 0);
        let replayed = record.replay(usize::MAX);
        let error = replayed.error;
        state.record = Rc::new(record);
        Rc::make_mut(&mut state.record).truncate(replayed.notations.len());
        if replayed.game.outcome().is_some() {
            // The moves end the game themselves; a recorded ending cannot contradict them.
            Rc::make_mut(&mut state.record).ending = None;
        }
        state.game = Rc::new(replayed.game);
        state.notations = Rc::new(replayed.notations);
        if let Some(error) = &error {
            let reason = match &error.error {
                MoveError::Illegal(illegal) => Some(illegal.reason),
                MoveError::Parse(_) => None,
            };
            state.notice = Some(Notice::StoppedAt { ply: error.ply + 1, reason });
        }
        (state, error)
    }

    /// Replaces the game with `record` (see [`Action::Open`]).
    fn open(
        &mut self,
        record: GameRecord,
        bottom: Option<Side>,
        at: Option<Path>,
        notice: Option<Notice>,
    ) {
        let mut settings = self.settings.clone();
        settings.kind = record.kind;
        settings.rules[kind_index(record.kind)] = record.rules.clone();
        let (mut opened, _) = PlayState::restore(settings, record);
        if let Some(bottom) = bottom {
            opened.flipped = bottom == Side::Second;
        }
        opened.set_view(at);
        opened.notice = notice.or(opened.notice);
        opened.game_number = self.game_number + 1;
        opened.refusals = self.refusals;
        *self = opened;
        self.happened.new_game = true;
    }

    /// How the game ended, if it has.
    #[must_use]
    pub fn result(&self) -> Option<GameResult> {
        if let Some(ending) = self.record.ending {
            let reason = match ending.by {
                EndedBy::Resignation => ResultReason::Resignation,
                EndedBy::Time => ResultReason::Time,
                EndedBy::Agreement => ResultReason::Agreement,
                EndedBy::Recorded => ResultReason::Recorded,
            };
            return Some(GameResult { winner: ending.winner, reason, line: Vec::new() });
        }
        let outcome = self.game.outcome()?;
        Some(GameResult {
            winner: outcome.winner,
            reason: ResultReason::Rules(outcome.reason),
            line: outcome.line,
        })
    }

    /// The result as the position shown has it: while stepping through the game, only an end
    /// the rules see in that position (a mate in a variation, the final position); otherwise
    /// the game's [`result`](PlayState::result).
    #[must_use]
    pub fn shown_result(&self) -> Option<GameResult> {
        let Some(explored) = &self.explored else { return self.result() };
        let outcome = explored.outcome()?;
        Some(GameResult {
            winner: outcome.winner,
            reason: ResultReason::Rules(outcome.reason),
            line: outcome.line,
        })
    }

    /// The side whose flag fell, if the game ended on time.
    #[must_use]
    pub fn flagged(&self) -> Option<Side> {
        let ending = self.record.ending.filter(|e| e.by == EndedBy::Time)?;
        ending.winner.map(Side::other)
    }

    /// Ends the game with a win for `winner` that the moves do not show (a resignation, a
    /// flag); the record keeps it, so exports, storage and reloads keep it too.
    fn end(&mut self, winner: Side, by: EndedBy) {
        self.record_mut().ending = Some(Ending { winner: Some(winner), by });
        self.happened.stop_thinking = true;
        self.selected = None;
        self.promotion = None;
    }

    /// Does `change` outside an action of this slice (for the main page: its clock falling,
    /// the computer's move), and returns what it did.
    fn reporting(&mut self, change: impl FnOnce(&mut PlayState)) -> Happened {
        self.happened = Happened::default();
        change(self);
        std::mem::take(&mut self.happened)
    }

    /// Whether the board takes moves now: the game's own, or, while an earlier position or a
    /// variation is shown, moves that make or follow a variation there (whoever's turn it is).
    #[must_use]
    pub fn accepts_moves(&self) -> bool {
        if self.promotion.is_some() {
            return false;
        }
        match &self.explored {
            Some(explored) => explored.outcome().is_none(),
            None => {
                self.result().is_none() && !self.settings.computer_plays(self.game.side_to_move())
            }
        }
    }

    /// The game the board shows and takes moves on: the game as it stands, or the one at the
    /// position being viewed.
    #[must_use]
    pub fn board_game(&self) -> &AnyGame {
        self.explored.as_ref().unwrap_or(&self.game)
    }

    /// The game as it stands, told apart from any other: its length and its position's hash.
    fn position_key(&self) -> (usize, u64) {
        (self.record.moves.len(), self.game.hash())
    }

    /// Whether it is the computer's move now (its turn, the game on, nothing in the way).
    #[must_use]
    pub fn computers_turn(&self) -> bool {
        self.viewing.is_none()
            && self.promotion.is_none()
            && self.result().is_none()
            && self.settings.computer_plays(self.game.side_to_move())
    }

    /// The game as shown: the game as it stands, or a past position while stepping through it.
    #[must_use]
    pub fn shown_game(&self) -> AnyGame {
        self.board_game().clone()
    }

    fn restart(&mut self, seed: u64) {
        let settings = self.settings.clone();
        let flipped = self.flipped;
        let game_number = self.game_number + 1;
        // The count of refusals goes on too: a new game is not a refused move (a sound).
        let refusals = self.refusals;
        *self = PlayState::new(settings, seed);
        self.flipped = flipped;
        self.game_number = game_number;
        self.refusals = refusals;
        self.happened.new_game = true;
    }
}

impl Action {
    /// Whether this is the player doing something other than trying a move (a button, a step
    /// through the game, a note): what makes the answer to their last attempt stale. Moves
    /// tried answer for themselves; the computer's and the worker's answers and the clock's
    /// ticks are not the player's.
    fn is_players_act(&self) -> bool {
        matches!(
            self,
            Action::NewGame { .. }
                | Action::PickGame { .. }
                | Action::StartGame { .. }
                | Action::SetMode { .. }
                | Action::Undo { .. }
                | Action::RestoreTakenBack { .. }
                | Action::Resign
                | Action::PlayFromHere
                | Action::TakeColour { .. }
                | Action::DeclareOffers { .. }
                | Action::EndChain { .. }
        ) || match self {
            Action::Engine(action) => action.is_players_act(),
            Action::Tree(action) => action.is_players_act(),
            _ => false,
        }
    }
}

impl PlayState {
    /// Applies one action with nothing beside the slice (no clocks, no engine): the online
    /// page's and the embed's reducer.
    pub fn apply(&mut self, action: Action) {
        self.apply_with(action, Beside::default());
    }

    /// The answer to the last attempt (a refused move) is stale once the player does
    /// something else: it must not follow them into a resignation, a review or a hint.
    fn forget_stale_notice(&mut self, action: &Action) {
        if self.notice_goes_with(action) {
            self.notice = None;
        }
    }

    /// Whether `action` makes the notice stale (see [`PlayState::forget_stale_notice`]).
    fn notice_goes_with(&self, action: &Action) -> bool {
        action.is_players_act() && self.notice.as_ref().is_some_and(Notice::answers_an_attempt)
    }

    /// Applies one action of the play slice (the engine's actions and the clock's ticks are
    /// [`AppState`]'s and change nothing here), with what the slices beside it say; returns
    /// what it did that they follow.
    pub fn apply_with(&mut self, action: Action, beside: Beside) -> Happened {
        self.forget_stale_notice(&action);
        self.happened = Happened::default();
        self.act(action, beside);
        std::mem::take(&mut self.happened)
    }

    fn act(&mut self, action: Action, beside: Beside) {
        match action {
            Action::Open { record, bottom, at, notice } => self.open(record, bottom, at, notice),
            Action::NewGame { seed } => self.restart(seed),
            Action::PickGame { kind, seed, saved } => {
                // The game's own tab starts a new game, as it always did. A game left on the
                // clock is not resumed: the clocks are not kept, and a switch and back must not
                // refill them.
                let switching = kind != self.settings.kind && self.settings.clock.is_none();
                self.settings.kind = kind;
                let rules = self.settings.rules_of(kind).to_owned();
                let resumable = saved
                    .filter(|record| switching && record.kind == kind && record.rules == rules);
                let unfinished = resumable
                    .map(|record| PlayState::restore(self.settings.clone(), record).0)
                    .filter(|s| s.result().is_none());
                match unfinished {
                    Some(resumed) => self.open((*resumed.record).clone(), None, None, None),
                    None => self.restart(seed),
                }
                // Whichever it is, the board is seen from the person's side.
                self.flipped =
                    matches!(self.settings.mode, Mode::VsComputer { human: Side::Second });
            }
            Action::SetRule { key, value, seed } => {
                if self.settings.choose(SetupChoice::Rule { key, value }) {
                    self.restart(seed);
                }
            }
            Action::StartGame { setup, seed } => {
                self.settings.take_setup(&setup);
                self.restart(seed);
                self.flipped =
                    matches!(self.settings.mode, Mode::VsComputer { human: Side::Second });
            }
            Action::ClickCell { cell, now: _ } => self.click(cell, beside),
            Action::Pick { cell } => {
                if self.accepts_moves() && self.has_piece(cell) {
                    self.selected = Some(cell);
                    self.notice = None;
                } else if self.premove_allowed() && self.own_piece(cell) {
                    // A new premove replaces the one queued.
                    self.premove = None;
                    self.selected = Some(cell);
                }
            }
            Action::Drop { from, to, now: _ } => {
                if !self.accepts_moves() {
                    if self.premove_allowed() && self.own_piece(from) {
                        self.selected = (from == to).then_some(from);
                        self.premove = (from != to).then_some(Premove { from, to });
                    }
                    return;
                }
                if from == to {
                    self.selected = Some(from);
                } else {
                    self.try_move(from, to, None, beside);
                }
            }
            Action::Promote { piece, now: _ } => {
                if let Some(pending) = self.promotion.take()
                    && pending.choices.contains(&piece)
                {
                    self.try_move(pending.from, pending.to, Some(piece), beside);
                }
            }
            Action::CancelPromotion => self.promotion = None,
            Action::Undo { now: _ } => self.undo(),
            Action::RestoreTakenBack { now: _ } => self.restore_taken_back(),
            Action::Tree(action) => self.apply_tree(action, beside),
            Action::Setting(change) => {
                if matches!(change, SettingsAction::ConfirmStones(_)) {
                    // The stone shown by a first tap goes with the way it was placed.
                    self.ghost = None;
                }
                self.settings.apply(change);
            }
            Action::TypeMove { text, now: _ } => {
                if self.accepts_moves() {
                    self.play_text(&text, beside);
                } else if self.result().is_some() && self.explored.is_none() {
                    self.notice = Some(Notice::Illegal(IllegalReason::GameOver));
                } else if self.promotion.is_none() {
                    // Said, not dropped: the screen-reader mode has no board to see it on.
                    self.notice = Some(Notice::NotYourTurn);
                }
            }
            Action::SetClock { config, seed } => {
                self.settings.clock = config;
                self.restart(seed);
            }
            Action::CloseOverlay => self.overlay_closed = true,
            Action::SetMode { mode, seed } => {
                self.settings.mode = mode;
                self.flipped = matches!(mode, Mode::VsComputer { human: Side::Second });
                self.restart(seed);
            }
            Action::Resign => {
                if self.result().is_none() && self.viewing.is_none() {
                    self.end(self.human_side().other(), EndedBy::Resignation);
                }
            }
            Action::PlayFromHere => self.play_from_here(),
            // The slices beside this one: see `AppState::apply`.
            Action::Tick { .. } | Action::Engine(_) => {}
            Action::TakeColour { colour, now: _ } => {
                if self.accepts_moves() && self.colour_choice_due() {
                    self.play_move(AnyMove::Gomoku(GomokuMove::Take(colour)), beside);
                }
            }
            Action::DeclareOffers { count, now: _ } => {
                if self.accepts_moves() && self.offer_count_due() {
                    self.play_move(AnyMove::Gomoku(GomokuMove::Declare(count)), beside);
                }
            }
            Action::EndChain { now: _ } => {
                if self.accepts_moves() && self.chain_in_progress() {
                    self.play_move(AnyMove::Banqi(BanqiMove::Stop), beside);
                }
            }
            Action::PlayPremove { now: _ } => self.play_premove(beside),
            Action::Cancel => {
                self.selected = None;
                self.premove = None;
                self.ghost = None;
            }
        }
    }
}

mod clocks;
mod engine;
mod page;
pub use page::{AppState, Beside, Happened};
mod play;
pub use clocks::Clocks;
pub use play::{PendingPromotion, Premove};
mod tree;
pub use engine::{EngineAction, EngineState, HintMove, SearchSummary};
pub use tree::{TreeAction, TreeEdit};

#[cfg(test)]
mod tests;
