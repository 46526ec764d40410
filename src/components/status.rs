//! The status panel: whose move, check, the answer to a refused move, and the result.

use qi_rules::{GameKind, Side};
use yew::prelude::*;

use super::SharedState;
use crate::i18n::{Lang, Text, fill, side_name, t};
use crate::i18n_rules::{end_reason_for, illegal_reason, link_error};
use crate::state::{Action, AppState, GameResult, Notice, ResultReason};

/// Properties of [`Status`].
#[derive(Properties, PartialEq)]
pub struct StatusProps {
    /// The state shown.
    pub state: SharedState,
    /// Where the notice's own action goes (putting back what Undo took), where it is offered.
    #[prop_or_default]
    pub dispatch: Option<Callback<Action>>,
}

/// A side's name in the shown game (banqi sides by colour once the first flip decided it).
pub fn side_label(state: &AppState, side: Side) -> &'static str {
    let lang = state.settings.lang;
    let kind = state.game.kind();
    let banqi_red = match &state.game {
        qi_rules::any::AnyGame::Banqi(game) => {
            game.colour_of(side).map(|c| c == qi_rules::banqi::Colour::Red)
        }
        _ => None,
    };
    side_name(lang, kind, side, banqi_red)
}

/// The sentence for a finished game: who won and why, or a draw and why.
pub fn result_text(state: &AppState, result: &GameResult) -> String {
    let lang = state.settings.lang;
    let reason = match result.reason {
        ResultReason::Rules(reason) => end_reason_for(lang, state.game.kind(), reason),
        ResultReason::Time => t(lang, Text::OnTime),
        ResultReason::Resignation => t(lang, Text::ByResignation),
        ResultReason::Agreement => t(lang, Text::ByAgreement),
        ResultReason::Recorded => t(lang, Text::AsRecorded),
    };
    match result.winner {
        Some(side) => {
            let text = fill(t(lang, Text::WinsBy), "side", side_label(state, side));
            fill(&text, "reason", reason)
        }
        None => fill(t(lang, Text::DrawBy), "reason", reason),
    }
}

/// The `data-result` value automation reads: the winner's colour, or `draw`.
pub fn result_code(state: &AppState, result: &GameResult) -> &'static str {
    let Some(side) = result.winner else { return "draw" };
    let kind = state.game.kind();
    match (kind, side) {
        (GameKind::Chess, Side::First) | (GameKind::Gomoku, Side::Second) => "white",
        (GameKind::Xiangqi, Side::First) => "red",
        (GameKind::Banqi, _) => match &state.game {
            qi_rules::any::AnyGame::Banqi(game)
                if game.colour_of(side) == Some(qi_rules::banqi::Colour::Red) =>
            {
                "red"
            }
            _ => "black",
        },
        _ => "black",
    }
}

fn notice_text(lang: Lang, kind: GameKind, notice: &Notice) -> String {
    match notice {
        Notice::Illegal(reason) => illegal_reason(lang, kind, *reason).to_owned(),
        Notice::Unreadable => t(lang, Text::Unreadable).to_owned(),
        Notice::StoppedAt { ply, reason } => {
            let stopped = fill(t(lang, Text::StoppedAt), "n", &ply.to_string());
            match reason {
                Some(reason) => format!("{stopped} {}", illegal_reason(lang, kind, *reason)),
                None => stopped,
            }
        }
        Notice::Link(error) => link_error(lang, kind, error),
        Notice::NotesTakenBack => t(lang, Text::NotesTakenBack).to_owned(),
    }
}

/// The status panel.
#[function_component(Status)]
pub fn status(props: &StatusProps) -> Html {
    let state = props.state.get();
    let lang = state.settings.lang;
    let kind = state.game.kind();
    let main_line = match state.result() {
        Some(result) => html! {
            <p class="result" data-result={result_code(state, &result)}>{ result_text(state, &result) }</p>
        },
        None => {
            let to_move =
                fill(t(lang, Text::ToMove), "side", side_label(state, state.game.side_to_move()));
            html! {
                <p class="to-move">
                    <span class={classes!("side-dot", side_class(state, state.game.side_to_move()))}></span>
                    { to_move }
                    if state.game.in_check() {
                        <strong class="in-check">{ " " }{ t(lang, Text::InCheck) }</strong>
                    }
                </p>
            }
        }
    };
    let notice = state.notice.as_ref().map(|n| {
        let restore = match (n, &props.dispatch) {
            (Notice::NotesTakenBack, Some(dispatch)) => {
                let dispatch = dispatch.clone();
                let onclick = Callback::from(move |_| dispatch.emit(Action::RestoreTakenBack));
                html! {
                    <>{ " " }<button type="button" class="restore" data-action="restore-taken-back" {onclick}>
                        { t(lang, Text::RestoreTakenBack) }
                    </button></>
                }
            }
            _ => Html::default(),
        };
        html! { <p class="notice" data-testid="notice">{ notice_text(lang, kind, n) }{ restore }</p> }
    });
    let viewing = state.viewing.as_ref().map(|path| {
        let depth = path.depth().to_string();
        html! {
            <>
                <p class="viewing">{ fill(t(lang, Text::Viewing), "n", &depth) }</p>
                if !path.is_main_line() {
                    <p class="viewing" data-testid="in-variation">{ t(lang, Text::InVariation) }</p>
                }
            </>
        }
    });
    let thinking = matches!(state.thinking, Some((_, false))).then(|| {
        html! { <p class="thinking" data-testid="thinking"><span class="spinner" aria-hidden="true"></span>{ t(lang, Text::Thinking) }</p> }
    });
    let search =
        state.last_search.filter(|_| state.settings.mode != crate::state::Mode::HotSeat).map(|s| {
            let nps = s.nodes_per_second();
            html! {
                <p class="engine-info" data-testid="engine-info" data-nodes={s.nodes.to_string()}
                   data-ms={s.time_ms.to_string()} data-nps={nps.to_string()}>
                    { format!("d{} · {} kN · {} kN/s", s.depth, s.nodes / 1000, (nps + 500) / 1000) }
                </p>
            }
        });
    // The named opening: its code (ECO for chess, ECCO for xiangqi) and its name in the player's
    // language where the book has one (xiangqi), else in English.
    let opening = state.shown_opening().map(|opening| {
        let name = match lang {
            crate::i18n::Lang::Zh => opening.name_zh.as_deref(),
            crate::i18n::Lang::Vi => opening.name_vi.as_deref(),
            crate::i18n::Lang::En => None,
        }
        .unwrap_or(&opening.name);
        html! {
            <p class="opening" data-testid="opening">
                if !opening.code.is_empty() { <span class="eco">{ opening.code.clone() }</span>{ " " } }
                { name.to_owned() }
            </p>
        }
    });
    let banqi_hint = (kind == GameKind::Banqi && state.record.moves.is_empty())
        .then(|| html! { <p class="hint-text">{ t(lang, Text::BanqiHint) }</p> });
    html! {
        <div class="status" role="status" aria-live="polite" data-testid="status">
            { main_line }
            { opening.unwrap_or_default() }
            { thinking.unwrap_or_default() }
            { search.unwrap_or_default() }
            { viewing.unwrap_or_default() }
            { notice.unwrap_or_default() }
            { banqi_hint.unwrap_or_default() }
        </div>
    }
}

/// A CSS class for a side's colour dot.
pub fn side_class(state: &AppState, side: Side) -> &'static str {
    match side_label_colour(state, side) {
        Some("red") => "red",
        Some("white") => "white",
        Some(_) => "black",
        None => "unknown",
    }
}

fn side_label_colour(state: &AppState, side: Side) -> Option<&'static str> {
    match (state.game.kind(), side) {
        (GameKind::Chess, Side::First) | (GameKind::Gomoku, Side::Second) => Some("white"),
        (GameKind::Xiangqi, Side::First) => Some("red"),
        (GameKind::Banqi, _) => match &state.game {
            qi_rules::any::AnyGame::Banqi(game) => game.colour_of(side).map(|c| match c {
                qi_rules::banqi::Colour::Red => "red",
                qi_rules::banqi::Colour::Black => "black",
            }),
            _ => None,
        },
        _ => Some("black"),
    }
}
