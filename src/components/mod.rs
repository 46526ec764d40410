//! The panels around the board: status, move list, controls, clocks, and the dialogs.

pub mod analysis;
pub mod clocks;
pub mod controls;
pub mod dialogs;
pub mod move_list;
pub mod records_dialog;
pub mod review;
pub mod share;
pub mod status;

use std::rc::Rc;

use yew::UseReducerHandle;

use crate::state::AppState;

/// The state as a property, shared, not copied: the reducer's own handle (the app, the embed)
/// or a value kept behind an `Rc` (the online page's board). Equal when it is the same state:
/// the reducer makes a new one for every change, so a component re-renders when, and only
/// when, the state it is given changed.
#[derive(Clone)]
pub enum SharedState {
    /// The page's reducer.
    Reducer(UseReducerHandle<AppState>),
    /// A state kept elsewhere.
    Value(Rc<AppState>),
}

impl SharedState {
    /// The state.
    #[must_use]
    pub fn get(&self) -> &AppState {
        match self {
            SharedState::Reducer(handle) => handle,
            SharedState::Value(value) => value,
        }
    }
}

impl PartialEq for SharedState {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.get(), other.get())
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
    }
}
