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
pub mod share;
pub mod status;
pub mod tray;
pub mod watch;

use std::rc::Rc;

use crate::state::AppState;

/// The state as a property, shared, not copied: the very state the reducer made (see
/// [`StateCell`]) or one kept behind an `Rc` elsewhere (the online page's board). Equal when it
/// is the same state: the reducer makes a new one for every change (and the old one lives on in
/// the old properties, so its address is not reused), so a component re-renders when, and only
/// when, the state it is given changed.
#[derive(Clone)]
pub struct SharedState(pub Rc<AppState>);

impl SharedState {
    /// The state.
    #[must_use]
    pub fn get(&self) -> &AppState {
        &self.0
    }
}

impl PartialEq for SharedState {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

/// The page's state as its reducer holds it: an `Rc` of the state, so that the state of a
/// render can be handed to components as it is (Yew's reducer handle always reads the newest
/// state, so it cannot tell a component what changed).
#[derive(Clone)]
pub struct StateCell(pub Rc<AppState>);

impl std::ops::Deref for StateCell {
    type Target = AppState;

    fn deref(&self) -> &AppState {
        &self.0
    }
}

impl yew::Reducible for StateCell {
    type Action = crate::state::Action;

    fn reduce(self: Rc<Self>, action: Self::Action) -> Rc<Self> {
        let mut state = (*self.0).clone();
        state.apply(action);
        Rc::new(StateCell(Rc::new(state)))
    }
}

/// What a move-list key does (see [`crate::web::on_move_keys`]).
#[must_use]
pub fn move_key_action(key: crate::web::MoveKey) -> crate::state::Action {
    use crate::state::Action;
    use crate::web::MoveKey;
    match key {
        MoveKey::Back => Action::StepBack,
        MoveKey::Forward => Action::StepForward,
        MoveKey::First => Action::First,
        MoveKey::Last => Action::Last,
        MoveKey::Cancel => Action::Cancel,
    }
}
