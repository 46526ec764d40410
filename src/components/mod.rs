//! The panels around the board: status, move list, controls, clocks, and the dialogs.

pub mod analysis;
pub mod clocks;
pub mod controls;
pub mod dialog;
pub mod dialogs;
pub mod move_list;
pub mod new_game;
pub mod records_dialog;
pub mod review;
pub mod setup_fields;
pub mod share;
pub mod status;
pub mod tray;
pub mod watch;

use std::rc::Rc;

use crate::state::{Action, AppState, PlayState, TreeAction};

/// The play slice as a property, shared, not copied: the one in the state the reducer made
/// (the embed's [`StateCell`], the main page's [`AppState::play`]) or one kept behind an `Rc`
/// elsewhere (the online page's board). Equal when it
/// is the same state: the reducer makes a new one for every change (and the old one lives on in
/// the old properties, so its address is not reused), so a component re-renders when, and only
/// when, the state it is given changed.
#[derive(Clone)]
pub struct SharedState(pub Rc<PlayState>);

impl SharedState {
    /// The state.
    #[must_use]
    pub fn get(&self) -> &PlayState {
        &self.0
    }
}

impl PartialEq for SharedState {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

/// A state a page's reducer holds: the main page's [`AppState`], the embed's [`PlayState`].
pub trait PageState: Clone {
    /// Applies one action.
    fn reduce(&mut self, action: Action);
}

impl PageState for AppState {
    fn reduce(&mut self, action: Action) {
        self.apply(action);
    }
}

impl PageState for PlayState {
    fn reduce(&mut self, action: Action) {
        self.apply(action);
    }
}

/// The page's state as its reducer holds it: an `Rc` of the state, so that the state of a
/// render can be handed to components as it is (Yew's reducer handle always reads the newest
/// state, so it cannot tell a component what changed).
#[derive(Clone)]
pub struct StateCell<S = AppState>(pub Rc<S>);

impl<S> std::ops::Deref for StateCell<S> {
    type Target = S;

    fn deref(&self) -> &S {
        &self.0
    }
}

impl<S: PageState> yew::Reducible for StateCell<S> {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut state = (*self.0).clone();
        state.reduce(action);
        Rc::new(StateCell(Rc::new(state)))
    }
}

/// The board's three inputs as the page's actions: a click on a cell, a press that picks a
/// piece up, a drop from one cell on another. `clock` stamps the click and the drop (the page's
/// own clocks run on it; the online page's clocks are the server's, so it passes zero).
pub struct BoardInput {
    /// A click (or tap) on a cell.
    pub on_click: yew::Callback<qi_rules::Cell>,
    /// A piece picked up on a cell, to drag.
    pub on_pick: yew::Callback<qi_rules::Cell>,
    /// A piece dragged from the first cell and dropped on the second.
    pub on_drop: yew::Callback<(qi_rules::Cell, qi_rules::Cell)>,
}

/// The board's inputs for a page whose actions go to `dispatch` (see [`BoardInput`]).
#[must_use]
pub fn board_input(
    dispatch: &yew::Callback<crate::state::Action>,
    clock: fn() -> f64,
) -> BoardInput {
    use crate::state::Action;
    let (click, pick, drop) = (dispatch.clone(), dispatch.clone(), dispatch.clone());
    BoardInput {
        on_click: yew::Callback::from(move |cell| {
            click.emit(Action::ClickCell { cell, now: clock() })
        }),
        on_pick: yew::Callback::from(move |cell| pick.emit(Action::Pick { cell })),
        on_drop: yew::Callback::from(move |(from, to)| {
            drop.emit(Action::Drop { from, to, now: clock() });
        }),
    }
}

/// What a move-list key does (see [`crate::web::on_move_keys`]).
#[must_use]
pub fn move_key_action(key: crate::web::MoveKey) -> crate::state::Action {
    use crate::state::Action;
    use crate::web::MoveKey;
    match key {
        MoveKey::Back => Action::Tree(TreeAction::StepBack),
        MoveKey::Forward => Action::Tree(TreeAction::StepForward),
        MoveKey::First => Action::Tree(TreeAction::First),
        MoveKey::Last => Action::Tree(TreeAction::Last),
        MoveKey::Cancel => Action::Cancel,
    }
}
