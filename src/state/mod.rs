//! The app's state and its pure reducer: every change is an [`Action`]; storage, timers and
//! randomness happen in the components' effects and callbacks, which pass in what they found (a
//! seed, the time now).

use std::rc::Rc;

use qi_rules::any::{AnyGame, AnyMove};
use qi_rules::banqi::BanqiMove;
use qi_rules::gomoku::GomokuMove;
use qi_rules::{BySide, Cell, EndReason, GameKind, IllegalReason, MoveError, Side};

use qi_play::{Line, Path};

use qi_play::link::LinkError;
use qi_play::record::{EndedBy, Ending, GameRecord, ReplayError};

/// The longest comment kept from the comment box.
pub const MAX_COMMENT_CHARS: usize = 2000;

// The player's settings and how they are stored: their own module, here under their old paths.
pub use qi_settings::{
    ClockConfig, Mode, Settings, SettingsAction, SetupChoice, Theme, WATCH_DELAYS_MS, kind_index,
};

/// Both sides' clocks.
#[derive(Clone, Debug, PartialEq)]
pub struct Clocks {
    /// The setting they started from.
    pub config: ClockConfig,
    /// Time left for each side when its clock last stopped, in milliseconds.
    pub remaining_ms: BySide<f64>,
    /// The side whose clock runs and since when (ms); `None` before the first move.
    pub running: Option<(Side, f64)>,
    /// Whether each side's clock has warned it is running low (once a game, a sound).
    pub low_time_warned: BySide<bool>,
}

impl Clocks {
    fn new(config: ClockConfig) -> Clocks {
        let base = f64::from(config.base_secs) * 1000.0;
        Clocks {
            config,
            remaining_ms: BySide::new(base, base),
            running: None,
            low_time_warned: BySide::default(),
        }
    }

    /// Below this much time left (ms), the clock is running low.
    #[must_use]
    pub fn low_time_ms(&self) -> f64 {
        qi_settings::low_time_ms(self.config.base_secs)
    }

    /// Marks `side`'s clock as having warned, the first time its running clock is low at
    /// `now`; returns whether it warned now.
    fn warn_low_time(&mut self, side: Side, now: f64) -> bool {
        let running = self.running.is_some_and(|(running, _)| running == side);
        let low = self.remaining_at(side, now) <= self.low_time_ms();
        let warn = running && low && !self.low_time_warned[side];
        if warn {
            self.low_time_warned[side] = true;
        }
        warn
    }

    /// Time left for `side` at `now`, in milliseconds (never below zero).
    #[must_use]
    pub fn remaining_at(&self, side: Side, now: f64) -> f64 {
        let mut left = self.remaining_ms[side];
        if let Some((running, since)) = self.running
            && running == side
        {
            left -= (now - since).max(0.0);
        }
        left.max(0.0)
    }
}

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

/// Everything the app shows.
#[derive(Clone, Debug)]
pub struct AppState {
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
    /// Hot-seat clocks, when on.
    pub clocks: Option<Clocks>,
    /// Whether the game-over overlay was closed.
    pub overlay_closed: bool,
    /// The engine's slice: requests in flight, hint, analysis, review, opening.
    pub engine: EngineState,
    /// Whether the last move was the computer's (the board animates it).
    pub computer_moved: bool,
    /// Counts the games started or opened in this page: a new number is a new game for the
    /// browser's history (moves within a game replace its entry).
    pub game_number: u64,
    /// The move queued while the computer thinks ([`AppState::premove_allowed`]).
    pub premove: Option<Premove>,
    /// The gomoku point tapped once, showing the stone a second tap places there (see
    /// [`Settings::confirm_stones`]).
    pub ghost: Option<Cell>,
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
    /// Put back the moves (and their notes) the last Undo took back, if nothing changed since.
    RestoreTakenBack {
        /// When it was asked (milliseconds), for the clocks.
        now: f64,
    },
    /// The engine's requests and answers (the engine slice's own actions).
    Engine(EngineAction),
    /// Play these moves (an engine line) from the position shown, into the move tree.
    PlayLine(Vec<String>),
    /// Draw (or take off, or recolour) an arrow or a circle on the position shown.
    ToggleShape(qi_play::Shape),
    /// Put a mark on the move shown, or take it off.
    ToggleMark(qi_play::Mark),
    /// Set the comment after the move shown (blank: none).
    SetComment(String),
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
    /// Take a colour, as a gomoku opening rule asks (see [`AppState::colour_choice_due`]).
    TakeColour {
        /// The colour: [`qi_rules::Side::First`] is black.
        colour: qi_rules::Side,
        /// The time, for the clocks (ms).
        now: f64,
    },
    /// Declare how many fifth stones Black offers, as Soosõrv-8 asks White (see
    /// [`AppState::offer_count_due`]).
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
    /// Play the queued move ([`AppState::premove`]) now that it is the person's turn; dropped,
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

impl AppState {
    /// The state for `settings`, with a new game.
    #[must_use]
    pub fn new(settings: Settings, seed: u64) -> AppState {
        let record = GameRecord::new(settings.kind, settings.rules_of(settings.kind), seed);
        let game = record.start_game();
        let clocks = settings.clock.map(Clocks::new);
        // Against the computer, the person's side is at the bottom.
        let flipped = matches!(settings.mode, Mode::VsComputer { human: Side::Second });
        AppState {
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
            clocks,
            overlay_closed: false,
            engine: EngineState::default(),
            game_number: 0,
            computer_moved: false,
            premove: None,
            ghost: None,
        }
    }

    /// The state for `settings` continuing a recorded game of the current kind: as much of it as
    /// replays (a stored or linked record may be damaged), with the reason it stopped early.
    #[must_use]
    pub fn restore(settings: Settings, record: GameRecord) -> (AppState, Option<ReplayError>) {
        let mut state = AppState::new(settings, 0);
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
        let (mut opened, _) = AppState::restore(settings, record);
        if let Some(bottom) = bottom {
            opened.flipped = bottom == Side::Second;
        }
        opened.set_view(at);
        opened.notice = notice.or(opened.notice);
        opened.engine.next_request = self.engine.next_request;
        opened.game_number = self.game_number + 1;
        opened.refusals = self.refusals;
        *self = opened;
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
    /// the game's [`result`](AppState::result).
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
        self.engine.thinking = None;
        self.selected = None;
        self.promotion = None;
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

    /// The main-line ply shown, when the position shown is on the main line (`None` for the
    /// game as it stands and for a variation).
    #[must_use]
    pub fn viewing_main_ply(&self) -> Option<usize> {
        self.viewing.as_ref().filter(|p| p.is_main_line()).map(|p| p.ply)
    }

    /// The game as it stands, told apart from any other: its length and its position's hash.
    fn position_key(&self) -> (usize, u64) {
        (self.record.moves.len(), self.game.hash())
    }

    /// Whether the computer should move now (its turn, the game on, nothing in the way), and no
    /// request for it is in flight.
    #[must_use]
    pub fn computer_should_move(&self) -> bool {
        self.viewing.is_none()
            && self.promotion.is_none()
            && self.result().is_none()
            && self.settings.computer_plays(self.game.side_to_move())
            && !matches!(self.engine.thinking, Some((_, false)))
    }

    /// The game as shown: the game as it stands, or a past position while stepping through it.
    #[must_use]
    pub fn shown_game(&self) -> AnyGame {
        self.board_game().clone()
    }

    fn restart(&mut self, seed: u64) {
        let settings = self.settings.clone();
        let flipped = self.flipped;
        // Request ids keep counting, so an answer meant for the old game is never taken.
        let next_request = self.engine.next_request;
        let game_number = self.game_number + 1;
        // The count of refusals goes on too: a new game is not a refused move (a sound).
        let refusals = self.refusals;
        *self = AppState::new(settings, seed);
        self.flipped = flipped;
        self.engine.next_request = next_request;
        self.game_number = game_number;
        self.refusals = refusals;
    }

    /// Plays on from the position shown: a past one (the later moves go), or the last one of a
    /// game that ended by resignation or on time.
    fn play_from_here(&mut self) {
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
        self.engine.thinking = None;
        self.engine.hint = None;
        self.overlay_closed = false;
        if let Some(config) = self.settings.clock {
            self.clocks = Some(Clocks::new(config));
        }
    }

    fn has_piece(&self, cell: Cell) -> bool {
        self.board_game().piece_code(cell).is_some()
    }

    fn click(&mut self, cell: Cell, now: f64) {
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
                return self.try_move(cell, cell, None, now);
            }
            GameKind::Banqi if self.board_game().piece_code(cell).as_deref() == Some("?") => {
                return self.try_move(cell, cell, None, now);
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
            self.try_move(from, cell, None, now);
        } else if !self.board_game().legal_destinations(cell).is_empty() {
            self.selected = Some(cell);
            self.notice = None;
        } else {
            self.try_move(from, cell, None, now);
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
    fn own_piece(&self, cell: Cell) -> bool {
        self.game.owner(cell) == Some(self.human_side())
    }

    /// A click on the computer's turn: it picks one of the person's pieces and queues its
    /// move, a stone or a flip; any click while a move is queued takes the queued move back.
    fn premove_click(&mut self, cell: Cell) {
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
    fn play_premove(&mut self, now: f64) {
        if self.viewing.is_some() || !self.accepts_moves() {
            return;
        }
        let Some(Premove { from, to }) = self.premove.take() else { return };
        self.selected = None;
        let promotion = self.game.promotion_choices(from, to).contains(&'q').then_some('q');
        if self.flag_fell(now) {
            return;
        }
        let text = self.game.move_text_between(from, to, promotion);
        match self.game.read_move(&text) {
            Ok(mv) => self.play_move(mv, now),
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

    fn try_move(&mut self, from: Cell, to: Cell, promotion: Option<char>, now: f64) {
        self.selected = None;
        if promotion.is_none() {
            let choices = self.board_game().promotion_choices(from, to);
            if !choices.is_empty() {
                self.promotion = Some(PendingPromotion { from, to, choices });
                return;
            }
        }
        let text = self.board_game().move_text_between(from, to, promotion);
        self.play_text(&text, now);
    }

    /// Plays move text from outside the state (the board's gesture, the computer's answer, a
    /// line from the engine): read once into a move, then played as one, so the record keeps
    /// the move's canonical coordinates whichever gesture made it (a standard-chess king
    /// dropped on its rook is `e1g1`).
    fn play_text(&mut self, text: &str, now: f64) {
        if self.flag_fell(now) {
            return;
        }
        match self.board_game().read_move(text) {
            Ok(mv) => self.play_move(mv, now),
            Err(MoveError::Illegal(illegal)) => self.refuse(illegal.reason),
            Err(MoveError::Parse(_)) => self.notice = Some(Notice::Unreadable),
        }
    }

    /// Plays a move on the position shown: the game's next move, or a move into the tree from
    /// a past position or a variation.
    fn play_move(&mut self, mv: AnyMove, now: f64) {
        if self.explored.is_some() {
            return self.explore(mv);
        }
        if self.flag_fell(now) {
            return;
        }
        let mover = self.game.side_to_move();
        let (text, notation) = (self.game.move_text(mv), self.game.move_notation(mv));
        match Rc::make_mut(&mut self.game).apply(mv) {
            Ok(()) => {
                self.record_mut().moves.push(text);
                Rc::make_mut(&mut self.notations).push(notation);
                self.notice = None;
                self.engine.hint = None;
                self.computer_moved = false;
                // The game moved on: what the last Undo took back can no longer be put back.
                self.taken_back = None;
                self.ghost = None;
                self.press_clock(mover, now);
            }
            Err(illegal) => self.refuse(illegal.reason),
        }
    }

    /// Whether the mover's clock had run out before a move of the game as it stands (moves
    /// into the tree from an earlier position are not timed): the game then ends on time, and
    /// the move is not played.
    fn flag_fell(&mut self, now: f64) -> bool {
        if self.explored.is_some() {
            return false;
        }
        let mover = self.game.side_to_move();
        let fell = self.clock_has_run_out(mover, now);
        if fell {
            self.end(mover.other(), EndedBy::Time);
        }
        fell
    }

    /// A move the rules refused: says why, and counts it (each refusal is a sound, even the
    /// same one twice).
    fn refuse(&mut self, reason: IllegalReason) {
        self.notice = Some(Notice::Illegal(reason));
        self.refusals = self.refusals.wrapping_add(1);
    }

    fn clock_has_run_out(&self, side: Side, now: f64) -> bool {
        self.clocks
            .as_ref()
            .is_some_and(|c| c.running.is_some() && c.remaining_at(side, now) <= 0.0)
    }

    /// Stops the mover's clock (adding the increment) and starts the opponent's. The clocks
    /// start with the first move.
    fn press_clock(&mut self, mover: Side, now: f64) {
        let Some(clocks) = &mut self.clocks else { return };
        if clocks.running.is_some() {
            clocks.remaining_ms[mover] =
                clocks.remaining_at(mover, now) + f64::from(clocks.config.increment_secs) * 1000.0;
        }
        clocks.running = Some((self.game.side_to_move(), now));
    }

    fn undo(&mut self, now: f64) {
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
        self.engine.thinking = None;
        self.engine.hint = None;
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
        self.hand_clock_to_side_to_move(now);
    }

    /// After moves were taken back or put back: the running clock stops (the time used stays
    /// used) and the side to move now has the clock.
    fn hand_clock_to_side_to_move(&mut self, now: f64) {
        let to_move = self.game.side_to_move();
        if let Some(clocks) = &mut self.clocks
            && let Some((running, _)) = clocks.running
        {
            clocks.remaining_ms[running] = clocks.remaining_at(running, now);
            clocks.running = Some((to_move, now));
        }
    }

    /// The record, to change: shared with earlier states until it changes (see
    /// [`AppState::record`]).
    fn record_mut(&mut self) -> &mut GameRecord {
        Rc::make_mut(&mut self.record)
    }

    /// Puts back what the last Undo took back (see [`AppState::taken_back`]), when the game is
    /// still as that Undo left it.
    fn restore_taken_back(&mut self, now: f64) {
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
        self.engine.hint = None;
        self.selected = None;
        self.promotion = None;
        // A request in flight was for the shorter game; the computer looks again if it is its
        // turn now.
        self.engine.thinking = None;
        self.computer_moved = false;
        // The clocks go on for the side to move now: the time used so far stays used.
        self.hand_clock_to_side_to_move(now);
    }

    /// Shows the position at `path` (`None`, or the end of the main line: the game as it
    /// stands). A path the tree does not have changes nothing.
    fn set_view(&mut self, path: Option<Path>) {
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
        self.engine.hint = None;
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
    fn explore(&mut self, mv: AnyMove) {
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
    fn may_change_main_line(&self) -> bool {
        self.clocks.as_ref().is_none_or(|c| c.running.is_none()) || self.result().is_some()
    }

    /// An edit of the move tree at the position shown (promote, make main line, delete). When
    /// the edit changes the main line, the game is replayed from it; the position stays shown.
    fn edit_tree(&mut self, edit: TreeEdit) {
        let path = self.shown_path();
        let changes_main_line = match edit {
            TreeEdit::Promote => path.branches.len() == 1,
            TreeEdit::MakeMainLine => !path.is_main_line(),
            // Deleting a variation, even from its first move, leaves the main line as it is.
            TreeEdit::Delete => path.is_main_line(),
            TreeEdit::Earlier | TreeEdit::Later => false,
        };
        if changes_main_line && !self.may_change_main_line() {
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
            self.engine.thinking = None;
            self.engine.hint = None;
            self.overlay_closed = false;
            // A new main line starts its clocks afresh, as "Play from here" does.
            if let Some(config) = self.settings.clock {
                self.clocks = Some(Clocks::new(config));
            }
        }
        self.viewing = None;
        self.explored = None;
        self.set_view(Some(next));
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
                | Action::FlipBoard
                | Action::View(_)
                | Action::Go(_)
                | Action::StepBack
                | Action::StepForward
                | Action::StepMainLine
                | Action::First
                | Action::Last
                | Action::EditTree(_)
                | Action::ToggleMark(_)
                | Action::SetComment(_)
                | Action::Resign
                | Action::PlayFromHere
                | Action::PlayLine(_)
                | Action::TakeColour { .. }
                | Action::DeclareOffers { .. }
                | Action::EndChain { .. }
        ) || matches!(self, Action::Engine(action) if action.is_players_act())
    }
}

impl AppState {
    /// Applies one action (the reducer's body, callable without `Rc` in tests).
    pub fn apply(&mut self, action: Action) {
        if action.is_players_act() && self.notice.as_ref().is_some_and(Notice::answers_an_attempt) {
            // The answer to the last attempt (a refused move) is stale once the player does
            // something else: it must not follow them into a resignation, a review or a hint.
            self.notice = None;
        }
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
                    .map(|record| AppState::restore(self.settings.clone(), record).0)
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
            Action::ClickCell { cell, now } => self.click(cell, now),
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
            Action::Drop { from, to, now } => {
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
                    self.try_move(from, to, None, now);
                }
            }
            Action::Promote { piece, now } => {
                if let Some(pending) = self.promotion.take()
                    && pending.choices.contains(&piece)
                {
                    self.try_move(pending.from, pending.to, Some(piece), now);
                }
            }
            Action::CancelPromotion => self.promotion = None,
            Action::Undo { now } => self.undo(now),
            Action::RestoreTakenBack { now } => self.restore_taken_back(now),
            Action::FlipBoard => self.flipped = !self.flipped,
            Action::View(ply) => {
                let plies = self.record.moves.len();
                self.set_view(ply.filter(|&p| p < plies).map(Path::main));
            }
            Action::Go(path) => self.set_view(Some(path)),
            Action::StepBack => {
                let shown = self.shown_path();
                let back = self.record.previous(&shown);
                if let Some(back) = back {
                    self.set_view(Some(back));
                }
            }
            Action::StepForward => {
                if let Some(path) = self.viewing.clone() {
                    let next = self.record.next(&path);
                    if let Some(next) = next {
                        self.set_view(Some(next));
                    }
                }
            }
            Action::StepMainLine => {
                // From a variation, back to the main line at the move the variation replaced.
                if let Some(path) = &self.viewing {
                    let ply = path.branches.first().map_or(path.ply, |branch| branch.at);
                    self.set_view(Some(Path::main(ply + 1)));
                }
            }
            Action::First => self.set_view(Some(Path::main(0))),
            Action::Last => {
                let shown = self.shown_path();
                let end = self.record.end_of_line(&shown);
                self.set_view(end);
            }
            Action::EditTree(edit) => self.edit_tree(edit),
            Action::ToggleShape(shape) => {
                // A right-click drops a queued move (as lichess does) instead of drawing.
                if self.premove.take().is_some() {
                    self.selected = None;
                    return;
                }
                let path = self.shown_path();
                self.record_mut().edit_tree(|tree| tree.toggle_shape(&path, shape));
            }
            Action::ToggleMark(mark) => {
                let path = self.shown_path();
                self.record_mut().edit_tree(|tree| tree.toggle_mark(&path, mark));
            }
            Action::SetComment(text) => {
                let path = self.shown_path();
                // Comments are the player's text: bounded, as a record's would be.
                let text: String = text.chars().take(MAX_COMMENT_CHARS).collect();
                self.record_mut().edit_tree(|tree| tree.set_comment(&path, &text));
            }
            Action::Setting(change) => {
                if matches!(change, SettingsAction::ConfirmStones(_)) {
                    // The stone shown by a first tap goes with the way it was placed.
                    self.ghost = None;
                }
                self.settings.apply(change);
            }
            Action::TypeMove { text, now } => {
                if self.accepts_moves() {
                    self.play_text(&text, now);
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
            Action::Tick { now } => {
                if self.result().is_none() {
                    let to_move = self.game.side_to_move();
                    if self.clock_has_run_out(to_move, now) {
                        self.end(to_move.other(), EndedBy::Time);
                    } else if !self.settings.computer_plays(to_move)
                        && let Some(clocks) = &mut self.clocks
                    {
                        // The person's clock running low: warned once (a sound).
                        clocks.warn_low_time(to_move, now);
                    }
                }
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
            Action::Engine(action) => self.apply_engine(action),
            Action::PlayLine(moves) => {
                // Into the tree from a past position or a variation; at the game's own end the
                // line is not played for the players.
                if self.explored.is_some() {
                    for text in moves {
                        // A line that reaches the game as it stands stops there: the rest is
                        // not played for the players.
                        if self.explored.is_none() {
                            break;
                        }
                        let before = self.shown_path();
                        self.play_text(&text, 0.0);
                        if self.shown_path() == before {
                            break;
                        }
                    }
                }
            }
            Action::TakeColour { colour, now } => {
                if self.accepts_moves() && self.colour_choice_due() {
                    self.play_move(AnyMove::Gomoku(GomokuMove::Take(colour)), now);
                }
            }
            Action::DeclareOffers { count, now } => {
                if self.accepts_moves() && self.offer_count_due() {
                    self.play_move(AnyMove::Gomoku(GomokuMove::Declare(count)), now);
                }
            }
            Action::EndChain { now } => {
                if self.accepts_moves() && self.chain_in_progress() {
                    self.play_move(AnyMove::Banqi(BanqiMove::Stop), now);
                }
            }
            Action::PlayPremove { now } => self.play_premove(now),
            Action::Cancel => {
                self.selected = None;
                self.premove = None;
                self.ghost = None;
            }
        }
    }
}

/// Whether `line` has notes (comments, marks, arrows, variations) on or after its move
/// `plies + 1`: what taking its moves back to `plies` would lose.
fn notes_after(line: &Line, plies: usize) -> bool {
    line.comments.keys().chain(line.marks.keys()).chain(line.shapes.keys()).any(|&k| k > plies)
        || line.variations.keys().any(|&at| at >= plies)
}

mod engine;
pub use engine::{EngineAction, EngineState, HintMove, SearchSummary};

#[cfg(test)]
mod tests;
