//! The reducer, one test per action (and the interactions that matter between them), by slice.

use super::*;
use qi_i18n::text::Lang;
use qi_play::record::default_rules;

/// A chess move in coordinates (UCI), read without a position: the engine's answer as the
/// worker gives it, legal or not where it lands.
fn chess_move(text: &str) -> AnyMove {
    use qi_rules::chess::ChessMove;
    use qi_rules::chess::shakmaty::uci::UciMove;
    match text.parse::<UciMove>() {
        Ok(UciMove::Normal { from, to, promotion }) => ChessMove { from, to, promotion }.into(),
        other => panic!("not a chess move: {text} ({other:?})"),
    }
}

fn cell(text: &str) -> Cell {
    text.parse().expect("test cell")
}

fn state(kind: GameKind) -> AppState {
    let mut settings = Settings::new(Lang::En);
    settings.kind = kind;
    AppState::new(settings, 0)
}

fn click(state: &mut AppState, text: &str) {
    state.apply(Action::ClickCell { cell: cell(text), now: 0.0 });
}

fn drag(state: &mut AppState, from: &str, to: &str) {
    state.apply(Action::Pick { cell: cell(from) });
    state.apply(Action::Drop { from: cell(from), to: cell(to), now: 0.0 });
}

fn vs_computer(kind: GameKind, human: Side) -> AppState {
    let mut s = state(kind);
    s.apply(Action::SetMode { mode: Mode::VsComputer { human }, seed: 0 });
    s
}

mod computer;
mod game;
mod play;
mod settings;
mod tree;
