//! The move list in the game's notation; a move shows the position after it, and the game can be
//! stepped through and returned to.

use yew::prelude::*;

use super::SharedState;
use crate::i18n::{Text, t};
use crate::state::Action;

/// Properties of [`MoveList`].
#[derive(Properties, PartialEq)]
pub struct MoveListProps {
    /// The state shown.
    pub state: SharedState,
    /// Where actions go.
    pub dispatch: Callback<Action>,
}

/// The move list with its step buttons.
#[function_component(MoveList)]
pub fn move_list(props: &MoveListProps) -> Html {
    let state = &*props.state.0;
    let lang = state.settings.lang;
    let plies = state.notations.len();
    let current = state.viewing.unwrap_or(plies);
    let view = |ply: Option<usize>| {
        let dispatch = props.dispatch.clone();
        Callback::from(move |_: MouseEvent| dispatch.emit(Action::View(ply)))
    };
    let step = |action: Action| {
        let dispatch = props.dispatch.clone();
        Callback::from(move |_: MouseEvent| dispatch.emit(action.clone()))
    };
    let moves = state.notations.chunks(2).enumerate().map(|(pair, notations)| {
        let entries = notations.iter().enumerate().map(|(i, notation)| {
            let ply = pair * 2 + i + 1;
            let target = if ply == plies { None } else { Some(ply) };
            html! {
                <button type="button" class={classes!("move", (ply == current).then_some("current"))}
                        data-ply={ply.to_string()} onclick={view(target)}>{ notation.clone() }</button>
            }
        });
        // Comments after either move of the pair, on a line of their own below it.
        let comments = (0..notations.len()).filter_map(|i| {
            let ply = pair * 2 + i + 1;
            state.record.comments.get(&ply).map(|text| {
                html! { <li class="comment" data-comment-ply={ply.to_string()}>{ text.clone() }</li> }
            })
        });
        html! {
            <>
                <li><span class="move-number">{ format!("{}.", pair + 1) }</span>{ for entries }</li>
                { for comments }
            </>
        }
    });
    html! {
        <section class="move-list" aria-label={t(lang, Text::Moves)}>
            <h2>{ t(lang, Text::Moves) }</h2>
            <div class="steps">
                <button type="button" onclick={view(Some(0))} disabled={current == 0}>{ t(lang, Text::StartPosition) }</button>
                <button type="button" aria-label={t(lang, Text::Previous)} onclick={step(Action::StepBack)}
                        disabled={current == 0}>{ "◀" }</button>
                <button type="button" aria-label={t(lang, Text::Next)} onclick={step(Action::StepForward)}
                        disabled={state.viewing.is_none()}>{ "▶" }</button>
                <button type="button" onclick={view(None)} disabled={state.viewing.is_none()}>{ t(lang, Text::BackToGame) }</button>
            </div>
            if let Some(text) = state.record.comments.get(&0) {
                <p class="comment" data-comment-ply="0">{ text.clone() }</p>
            }
            <ol class="moves">{ for moves }</ol>
        </section>
    }
}
