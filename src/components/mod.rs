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

use crate::state::AppState;

/// The state as a property: equal when it is the same state, which the reducer guarantees by
/// making a new one for every change.
#[derive(Clone)]
pub struct SharedState(pub Rc<AppState>);

impl PartialEq for SharedState {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
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
