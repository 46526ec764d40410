//! The promotion dialog and the game-over overlay.

use yew::prelude::*;

use super::SharedState;
use super::status::{result_code, result_text};
use crate::board::Style;
use crate::i18n::{Text, promotion_name, t};
use crate::state::Action;
use crate::web::{now_ms, random_seed};

/// Properties of the dialogs.
#[derive(Properties, PartialEq)]
pub struct DialogProps {
    /// The state shown.
    pub state: SharedState,
    /// Where actions go.
    pub dispatch: Callback<Action>,
}

/// Asks which piece a pawn becomes.
#[function_component(PromotionDialog)]
pub fn promotion_dialog(props: &DialogProps) -> Html {
    let state = props.state.get();
    let Some(pending) = &state.promotion else { return Html::default() };
    let lang = state.settings.lang;
    let colour = if state.game.side_to_move() == qi_rules::Side::First { 'w' } else { 'b' };
    let choices = pending.choices.iter().map(|&piece| {
        let dispatch = props.dispatch.clone();
        let onclick = Callback::from(move |_: MouseEvent| {
            dispatch.emit(Action::Promote { piece, now: now_ms() })
        });
        let code = format!("{colour}{}", piece.to_ascii_uppercase());
        html! {
            <button type="button" class="promotion-choice" data-promotion={piece.to_string()}
                    aria-label={promotion_name(lang, piece)} {onclick}>
                { crate::board::piece_image(&code, Style::Checkered) }
            </button>
        }
    });
    let cancel = {
        let dispatch = props.dispatch.clone();
        Callback::from(move |_: MouseEvent| dispatch.emit(Action::CancelPromotion))
    };
    html! {
        <div class="dialog-backdrop">
            <div class="dialog promotion" role="dialog" aria-modal="true" aria-label={t(lang, Text::PromoteTo)}>
                <h2>{ t(lang, Text::PromoteTo) }</h2>
                <div class="choices">{ for choices }</div>
                <button type="button" class="secondary" onclick={cancel}>{ t(lang, Text::Cancel) }</button>
            </div>
        </div>
    }
}

/// Says who won and why, with a new-game button.
#[function_component(GameOver)]
pub fn game_over(props: &DialogProps) -> Html {
    let state = props.state.get();
    let Some(result) = state.result() else { return Html::default() };
    if state.overlay_closed || state.viewing.is_some() {
        return Html::default();
    }
    let lang = state.settings.lang;
    let new_game = {
        let dispatch = props.dispatch.clone();
        Callback::from(move |_: MouseEvent| dispatch.emit(Action::NewGame { seed: random_seed() }))
    };
    let close = {
        let dispatch = props.dispatch.clone();
        Callback::from(move |_: MouseEvent| dispatch.emit(Action::CloseOverlay))
    };
    // Offered at the end: the engine's view of the final position, and of any earlier one.
    let analyse = (!state.analysing).then(|| {
        let dispatch = props.dispatch.clone();
        let onclick = Callback::from(move |_: MouseEvent| {
            dispatch.emit(Action::ToggleAnalysis);
            dispatch.emit(Action::CloseOverlay);
        });
        html! { <button type="button" class="secondary" data-action="overlay-analyse" {onclick}>{ t(lang, Text::Analyse) }</button> }
    });
    let review = (state.review_allowed() && state.current_review().is_none()).then(|| {
        let dispatch = props.dispatch.clone();
        let onclick = Callback::from(move |_: MouseEvent| {
            dispatch.emit(Action::StartReview);
            dispatch.emit(Action::CloseOverlay);
        });
        html! { <button type="button" class="secondary" data-action="overlay-review" {onclick}>{ t(lang, Text::Review) }</button> }
    });
    html! {
        <div class="game-over" role="dialog" aria-label={result_text(state, &result)} data-testid="game-over">
            <p class="game-over-text" data-result={result_code(state, &result)}>{ result_text(state, &result) }</p>
            <div class="game-over-buttons">
                <button type="button" data-action="overlay-new-game" onclick={new_game}>{ t(lang, Text::NewGame) }</button>
                { analyse.unwrap_or_default() }
                { review.unwrap_or_default() }
                <button type="button" class="secondary" data-action="overlay-close" onclick={close}>{ t(lang, Text::Close) }</button>
            </div>
        </div>
    }
}
