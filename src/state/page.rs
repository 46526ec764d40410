//! What the play slice is told and reports ([`Beside`], [`Happened`]), and the main page's
//! state: the play slice with the two slices only that page has, the hot-seat
//! clocks and the engine, and its reducer, which hands the play slice its actions and has the
//! clocks and the engine follow what it reports.

use std::rc::Rc;

use qi_play::record::{GameRecord, ReplayError};

use super::Settings;
use super::{Action, Clocks, EngineState, PlayState, Side};

/// What the slices beside the play slice (the main page's clocks) tell it for one action.
/// The online page and the embed have none: [`Beside::default`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Beside {
    /// The side to move, when its clock had run out at the action's time: a move it tries
    /// ends the game on time instead.
    pub out_of_time: Option<Side>,
    /// Whether clocks run: the main line may not change under them.
    pub clocks_running: bool,
}

/// What one action of the play slice did that the slices beside it follow: the clocks and the
/// engine of the main page ([`AppState::apply`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[allow(clippy::struct_excessive_bools)] // Independent facts, any of them together.
pub struct Happened {
    /// A new game began (or one was opened): the engine forgets the old one's requests and
    /// the clocks start afresh.
    pub new_game: bool,
    /// A move of the game as it stands was played by this side: its clock stops.
    pub moved: Option<Side>,
    /// The game changed under the engine (moves taken back or put back, another main line, an
    /// end): a request in flight is for another game.
    pub stop_thinking: bool,
    /// The hint shown no longer fits the position.
    pub clear_hint: bool,
    /// Moves were taken back or put back: the side to move now has the clock.
    pub hand_clock: bool,
    /// A new main line: the clocks start afresh.
    pub restart_clocks: bool,
}

/// The main page's state: the play slice, and beside it the hot-seat clocks and the engine's
/// slice, which only this page has. The online page and the embed hold a [`PlayState`] alone.
///
/// It reads as its play slice ([`Deref`](std::ops::Deref)), so that the page and its views
/// read the game as `state.game`; changes go through [`AppState::apply`].
#[derive(Clone, Debug)]
pub struct AppState {
    /// The game, its moves and what the player does on the board.
    pub play: Rc<PlayState>,
    /// Hot-seat clocks, when on.
    pub clocks: Option<Clocks>,
    /// The engine's slice: requests in flight, hint, analysis, review, opening.
    pub engine: EngineState,
}

impl std::ops::Deref for AppState {
    type Target = PlayState;

    fn deref(&self) -> &PlayState {
        &self.play
    }
}

impl Action {
    /// The time the action carries, for the clocks.
    fn now(&self) -> Option<f64> {
        match self {
            Action::ClickCell { now, .. }
            | Action::Drop { now, .. }
            | Action::Promote { now, .. }
            | Action::Undo { now }
            | Action::RestoreTakenBack { now }
            | Action::TypeMove { now, .. }
            | Action::Tick { now }
            | Action::TakeColour { now, .. }
            | Action::DeclareOffers { now, .. }
            | Action::EndChain { now }
            | Action::PlayPremove { now } => Some(*now),
            // Listed, not a wildcard: a new action that moves must say whether it has a time,
            // or its move would stop no clock.
            Action::Open { .. }
            | Action::NewGame { .. }
            | Action::PickGame { .. }
            | Action::StartGame { .. }
            | Action::SetRule { .. }
            | Action::Pick { .. }
            | Action::CancelPromotion
            | Action::Tree(_)
            | Action::Engine(_)
            | Action::Setting(_)
            | Action::SetClock { .. }
            | Action::CloseOverlay
            | Action::Cancel
            | Action::SetMode { .. }
            | Action::Resign
            | Action::PlayFromHere => None,
        }
    }
}

impl AppState {
    /// The state for `settings`, with a new game.
    #[must_use]
    pub fn new(settings: Settings, seed: u64) -> AppState {
        AppState::of(PlayState::new(settings, seed))
    }

    /// The main page's state around a play slice: its clocks as the settings ask, an engine
    /// that has been asked nothing.
    #[must_use]
    pub fn of(play: PlayState) -> AppState {
        let clocks = play.settings.clock.map(Clocks::new);
        AppState { play: Rc::new(play), clocks, engine: EngineState::default() }
    }

    /// The state for `settings` continuing a recorded game (see [`PlayState::restore`]).
    #[must_use]
    pub fn restore(settings: Settings, record: GameRecord) -> (AppState, Option<ReplayError>) {
        let (play, error) = PlayState::restore(settings, record);
        (AppState::of(play), error)
    }

    /// The play slice, to change (shared with earlier states until it changes).
    pub fn play_mut(&mut self) -> &mut PlayState {
        Rc::make_mut(&mut self.play)
    }

    /// Applies one action: the engine's and the clock's here, the rest by the play slice,
    /// whose report the clocks and the engine then follow.
    pub fn apply(&mut self, action: Action) {
        let now = action.now();
        if matches!(action, Action::Engine(_)) && self.play.notice_goes_with(&action) {
            // The play slice forgets it for its own actions; the engine's are applied here.
            self.play_mut().notice = None;
        }
        match action {
            Action::Engine(action) => self.apply_engine(action),
            Action::Tick { now } => self.tick(now),
            action => {
                let beside = self.beside(now);
                let happened = self.play_mut().apply_with(action, beside);
                self.follow(happened, now);
            }
        }
    }

    /// What the clocks tell the play slice at `now`.
    pub(super) fn beside(&self, now: Option<f64>) -> Beside {
        let to_move = self.game.side_to_move();
        let out = now.is_some_and(|now| self.clock_has_run_out(to_move, now));
        Beside {
            out_of_time: out.then_some(to_move),
            clocks_running: self.clocks.as_ref().is_some_and(|c| c.running.is_some()),
        }
    }

    /// The clocks and the engine follow what the play slice did.
    pub(super) fn follow(&mut self, happened: Happened, now: Option<f64>) {
        debug_assert!(
            now.is_some() || (happened.moved.is_none() && !happened.hand_clock),
            "a move or a takeback without the time: {happened:?}"
        );
        if happened.new_game {
            // Request ids keep counting, so an answer meant for the old game is never taken.
            self.engine = self.engine.after();
            self.clocks = self.settings.clock.map(Clocks::new);
            return;
        }
        if happened.stop_thinking {
            self.engine.thinking = None;
        }
        if happened.clear_hint {
            self.engine.hint = None;
        }
        if happened.restart_clocks {
            self.clocks = self.settings.clock.map(Clocks::new);
        }
        if let Some(now) = now {
            if let Some(mover) = happened.moved {
                self.press_clock(mover, now);
            }
            if happened.hand_clock {
                self.hand_clock_to_side_to_move(now);
            }
        }
    }

    /// Whether the computer should move now (its turn, the game on, nothing in the way), and no
    /// request for it is in flight.
    #[must_use]
    pub fn computer_should_move(&self) -> bool {
        self.computers_turn() && !matches!(self.engine.thinking, Some((_, false)))
    }
}
