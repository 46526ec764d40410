//! The promotion dialog and the game-over overlay.

use yew::prelude::*;

use super::dialog::Dialog;
use super::status::{result_code, result_text};
use crate::board::Style;
use crate::state::{Action, AppState, EngineAction, PendingPromotion, PlayState};
use crate::web::{now_ms, random_seed};
use qi_i18n::text::{Lang, Text, promotion_name, t};

/// Properties of [`PromotionDialog`].
#[derive(Properties, PartialEq)]
pub struct PromotionProps {
    /// The promotion waiting for its piece, if any.
    pub pending: Option<PendingPromotion>,
    /// The promoting side's colour letter (`w`, `b`), for the pieces' pictures.
    pub colour: char,
    /// The interface language.
    pub lang: Lang,
    /// Where actions go.
    pub dispatch: Callback<Action>,
}

/// The colour letter of the side about to promote in `state` (`w`, `b`): in the position
/// shown, which may be an earlier one or a variation.
#[must_use]
pub fn promoting_colour(state: &PlayState) -> char {
    if state.board_game().side_to_move() == qi_rules::Side::First { 'w' } else { 'b' }
}

/// Asks which piece a pawn becomes.
#[function_component(PromotionDialog)]
pub fn promotion_dialog(props: &PromotionProps) -> Html {
    let Some(pending) = &props.pending else { return Html::default() };
    let (lang, colour) = (props.lang, props.colour);
    let choices = pending.choices.iter().map(|&piece| {
        let dispatch = props.dispatch.clone();
        let onclick = Callback::from(move |_: MouseEvent| {
            dispatch.emit(Action::Promote { piece, now: now_ms() })
        });
        let code = format!("{colour}{}", piece.to_ascii_uppercase());
        html! {
            <button type="button" class="promotion-choice" data-promotion={piece.to_string()}
                    aria-label={promotion_name(lang, piece)} {onclick}>
                { crate::board::piece_image(&code, Style::Checkered, false) }
            </button>
        }
    });
    let cancel = {
        let dispatch = props.dispatch.clone();
        Callback::from(move |_: MouseEvent| dispatch.emit(Action::CancelPromotion))
    };
    // Escape cancels the move, as Cancel does.
    let on_escape = {
        let dispatch = props.dispatch.clone();
        Callback::from(move |()| dispatch.emit(Action::CancelPromotion))
    };
    html! {
        <Dialog class={classes!("dialog", "promotion")} label={t(lang, Text::PromoteTo)} {on_escape}>
            <h2>{ t(lang, Text::PromoteTo) }</h2>
            <div class="choices">{ for choices }</div>
            <button type="button" class="secondary" data-action="cancel-promotion" onclick={cancel}>{ t(lang, Text::Cancel) }</button>
        </Dialog>
    }
}

/// What the game-over box shows, from [`game_over_view`].
#[derive(Clone, Debug, PartialEq)]
pub struct GameOverView {
    /// Who won and why, or a draw and why.
    pub text: String,
    /// The `data-result` code: the winner's colour, or `draw`.
    pub code: &'static str,
    /// Whether to offer the analysis (not on already).
    pub offer_analysis: bool,
    /// Whether to offer a review (the game allows one and none is under way or done).
    pub offer_review: bool,
    /// Which end this is (the game's number and its length): the box takes the focus the
    /// first time it shows it, not again when the player steps back to the end.
    pub end: (u64, usize),
    /// The puzzle page's address that makes puzzles of the player's missed wins in this game
    /// (not for banqi, whose hidden pieces make no puzzle).
    pub puzzles: Option<String>,
}

/// The puzzle page's address for puzzles from `state`'s game, for the person who played it:
/// the side they had against the computer, else the side that lost (or moved first, in a
/// draw). The game goes in its compact link.
#[must_use]
pub fn puzzles_from_game_link(state: &AppState) -> Option<String> {
    if state.game.kind() == qi_rules::GameKind::Banqi || state.record.moves.len() < 2 {
        return None;
    }
    let player = match state.settings.mode {
        qi_settings::Mode::VsComputer { human } => human,
        _ => match state.result().and_then(|r| r.winner) {
            Some(winner) => winner.other(),
            None => qi_rules::Side::First,
        },
    };
    let side = if player == qi_rules::Side::First { "first" } else { "second" };
    let game = qi_play::link::compact(&state.record, &qi_play::link::View::default());
    Some(format!("puzzles/?mine={side}&{game}"))
}

/// The game-over box for `state`: shown once the game is over, unless closed or the player is
/// stepping through the game.
#[must_use]
pub fn game_over_view(state: &AppState) -> Option<GameOverView> {
    let result = state.result()?;
    if state.overlay_closed || state.viewing.is_some() {
        return None;
    }
    Some(GameOverView {
        text: result_text(state, &result),
        code: result_code(state, &result),
        offer_analysis: !state.engine.analysing,
        offer_review: state.review_allowed() && state.current_review().is_none(),
        end: (state.game_number, state.record.moves.len()),
        puzzles: puzzles_from_game_link(state),
    })
}

/// Properties of [`GameOver`].
#[derive(Properties, PartialEq)]
pub struct GameOverProps {
    /// What to show; nothing while the game goes on.
    pub view: Option<GameOverView>,
    /// The interface language.
    pub lang: Lang,
    /// Where actions go.
    pub dispatch: Callback<Action>,
}

/// Says who won and why, with a new-game button.
#[function_component(GameOver)]
pub fn game_over(props: &GameOverProps) -> Html {
    let Some(view) = &props.view else { return Html::default() };
    let lang = props.lang;
    let new_game = {
        let dispatch = props.dispatch.clone();
        Callback::from(move |_: MouseEvent| dispatch.emit(Action::NewGame { seed: random_seed() }))
    };
    let close = {
        let dispatch = props.dispatch.clone();
        Callback::from(move |_: MouseEvent| dispatch.emit(Action::CloseOverlay))
    };
    // Offered at the end: the engine's view of the final position, and of any earlier one.
    let analyse = view.offer_analysis.then(|| {
        let dispatch = props.dispatch.clone();
        let onclick = Callback::from(move |_: MouseEvent| {
            dispatch.emit(Action::Engine(EngineAction::ToggleAnalysis));
            dispatch.emit(Action::CloseOverlay);
        });
        html! { <button type="button" class="secondary" data-action="overlay-analyse" {onclick}>{ t(lang, Text::Analyse) }</button> }
    });
    let review = view.offer_review.then(|| {
        let dispatch = props.dispatch.clone();
        let onclick = Callback::from(move |_: MouseEvent| {
            dispatch.emit(Action::Engine(EngineAction::StartReview));
            dispatch.emit(Action::CloseOverlay);
        });
        html! { <button type="button" class="secondary" data-action="overlay-review" {onclick}>{ t(lang, Text::Review) }</button> }
    });
    let on_escape = {
        let dispatch = props.dispatch.clone();
        Callback::from(move |()| dispatch.emit(Action::CloseOverlay))
    };
    thread_local! {
        /// The last end the box took the focus for.
        static FOCUSED_END: std::cell::Cell<Option<(u64, usize)>> = const { std::cell::Cell::new(None) };
    }
    let take_focus = FOCUSED_END.with(|last| last.replace(Some(view.end)) != Some(view.end));
    html! {
        <Dialog class={classes!("game-over")} label={view.text.clone()} testid="game-over"
                modal={false} {take_focus} {on_escape}>
            <p class="game-over-text" data-result={view.code}>{ view.text.clone() }</p>
            <div class="game-over-buttons">
                <button type="button" data-action="overlay-new-game" onclick={new_game}>{ t(lang, Text::NewGame) }</button>
                { analyse.unwrap_or_default() }
                { review.unwrap_or_default() }
                if let Some(href) = view.puzzles.clone() {
                    <a class="secondary button-link" data-action="overlay-puzzles" {href}>{ t(lang, Text::PuzzlesFromGame) }</a>
                }
                <button type="button" class="secondary" data-action="overlay-close" onclick={close}>{ t(lang, Text::Close) }</button>
            </div>
        </Dialog>
    }
}
