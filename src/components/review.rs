//! The game review on screen: its progress (cancellable), each player's figures, and the
//! evaluation graph under the board (a click on it goes to that move).

use qi_ai::review::Judgement;
use qi_play::Path;
use qi_rules::Side;
use yew::prelude::*;

use super::SharedState;
use super::status::side_label;
use crate::i18n::{Lang, Text, fill, t};
use crate::state::Action;

/// The label of a judgement.
fn judgement_text(lang: Lang, judgement: Judgement) -> &'static str {
    t(
        lang,
        match judgement {
            Judgement::Best => Text::JudgedBest,
            Judgement::Good => Text::JudgedGood,
            Judgement::Inaccuracy => Text::JudgedInaccuracy,
            Judgement::Mistake => Text::JudgedMistake,
            Judgement::Blunder => Text::JudgedBlunder,
        },
    )
}

/// The class a judgement is styled by.
fn judgement_class(judgement: Judgement) -> &'static str {
    match judgement {
        Judgement::Best => "judged-best",
        Judgement::Good => "judged-good",
        Judgement::Inaccuracy => "judged-inaccuracy",
        Judgement::Mistake => "judged-mistake",
        Judgement::Blunder => "judged-blunder",
    }
}

/// Properties of [`ReviewPanel`].
#[derive(Properties, PartialEq)]
pub struct ReviewProps {
    /// The state shown.
    pub state: SharedState,
    /// Where actions go.
    pub dispatch: Callback<Action>,
}

/// The review's progress and summary, in the side panel (only when the game has a review).
#[function_component(ReviewPanel)]
pub fn review_panel(props: &ReviewProps) -> Html {
    let state = &*props.state.0;
    let Some(review) = state.current_review() else { return Html::default() };
    let lang = state.settings.lang;
    let emit = |action: fn() -> Action| {
        let dispatch = props.dispatch.clone();
        Callback::from(move |_: MouseEvent| dispatch.emit(action()))
    };
    let progress = review.progress_percent();
    let under_way = if review.running() {
        html! {
            <div class="review-progress">
                <label>
                    { fill(t(lang, Text::Reviewing), "n", &progress.to_string()) }
                    <progress max="100" value={progress.to_string()}></progress>
                </label>
                <button type="button" data-action="cancel-review" onclick={emit(|| Action::CancelReview)}>
                    { t(lang, Text::Cancel) }
                </button>
            </div>
        }
    } else if !review.finished() {
        html! {
            <div class="review-progress">
                <progress max="100" value={progress.to_string()}></progress>
                <button type="button" data-action="resume-review" onclick={emit(|| Action::StartReview)}>
                    { t(lang, Text::Review) }
                </button>
            </div>
        }
    } else {
        Html::default()
    };
    let [first, second] = review.summaries();
    let accuracy =
        |figure: Option<f64>| figure.map_or("–".to_owned(), |a| format!("{}%", a.round() as u32));
    let rows: Html = Judgement::ALL
        .iter()
        .enumerate()
        .map(|(slot, &judgement)| {
            html! {
                <tr class={judgement_class(judgement)}>
                    <th scope="row">{ judgement_text(lang, judgement) }</th>
                    <td>{ first.counts[slot] }</td>
                    <td>{ second.counts[slot] }</td>
                </tr>
            }
        })
        .collect();
    html! {
        <section class="review" data-testid="review" aria-label={t(lang, Text::Review)}
                 data-progress={progress.to_string()}>
            { under_way }
            <table class="review-summary">
                <thead>
                    <tr>
                        <th></th>
                        <th scope="col">{ side_label(state, Side::First) }</th>
                        <th scope="col">{ side_label(state, Side::Second) }</th>
                    </tr>
                </thead>
                <tbody>
                    <tr class="accuracy">
                        <th scope="row">{ t(lang, Text::Accuracy) }</th>
                        <td data-testid="accuracy-first">{ accuracy(first.accuracy) }</td>
                        <td data-testid="accuracy-second">{ accuracy(second.accuracy) }</td>
                    </tr>
                    { rows }
                </tbody>
            </table>
        </section>
    }
}

/// Properties of [`EvalGraph`]: what it draws, not the whole state.
#[derive(Properties, PartialEq)]
pub struct EvalGraphProps {
    /// The first player's winning chance (percent) after each number of moves, from the start.
    pub chances: Vec<u32>,
    /// What each move was (the `n`-th entry is the `n+1`-th move's), as far as reviewed.
    pub judgements: Vec<Judgement>,
    /// The number of moves of the position shown, when it is on the main line.
    pub shown: Option<usize>,
    /// The language of its label.
    pub lang: Lang,
    /// Where actions go (a click goes to a move).
    pub dispatch: Callback<Action>,
}

/// The graph's width in its own units; its height is 100 (the chance).
const GRAPH_WIDTH: usize = 1000;

/// The evaluation graph: the first player's chance along the game, mistakes and blunders
/// dotted, the position shown marked; a click goes to the nearest position.
#[function_component(EvalGraph)]
pub fn eval_graph(props: &EvalGraphProps) -> Html {
    let positions = props.chances.len();
    if positions < 2 {
        return Html::default();
    }
    let x = |ply: usize| ply * GRAPH_WIDTH / (positions - 1);
    let y = |chance: u32| 100 - chance.min(100);
    let mut area = String::from("M0,100");
    for (ply, &chance) in props.chances.iter().enumerate() {
        area += &format!(" L{},{}", x(ply), y(chance));
    }
    area += &format!(" L{},100 Z", x(positions - 1));
    let dots: Html = props
        .judgements
        .iter()
        .enumerate()
        .filter(|(_, j)| **j >= Judgement::Inaccuracy)
        .filter_map(|(index, &judgement)| {
            let chance = *props.chances.get(index + 1)?;
            let class = judgement_class(judgement);
            // Kept inside the frame at the extremes, where a decisive blunder lands.
            let cy = y(chance).clamp(6, 94);
            Some(html! { <circle {class} cx={x(index + 1).to_string()} cy={cy.to_string()} r="6" /> })
        })
        .collect();
    let shown = props.shown.filter(|&ply| ply < positions).map(|ply| {
        let at = x(ply).to_string();
        html! { <line class="graph-shown" x1={at.clone()} x2={at} y1="0" y2="100" /> }
    });
    // One click target per position, as wide as the space between two.
    let step = (GRAPH_WIDTH / (positions - 1)).max(1);
    let targets: Html = (0..positions)
        .map(|ply| {
            let dispatch = props.dispatch.clone();
            let onclick =
                Callback::from(move |_: MouseEvent| dispatch.emit(Action::Go(Path::main(ply))));
            let left = x(ply).saturating_sub(step / 2);
            html! {
                <rect class="graph-target" data-ply={ply.to_string()} x={left.to_string()} y="0"
                      width={step.to_string()} height="100" {onclick} />
            }
        })
        .collect();
    html! {
        <svg class="eval-graph" data-testid="eval-graph" role="img" aria-label={t(props.lang, Text::EvalGraph)}
             viewBox={format!("0 0 {GRAPH_WIDTH} 100")} preserveAspectRatio="none">
            <rect class="graph-second" x="0" y="0" width={GRAPH_WIDTH.to_string()} height="100" />
            <path class="graph-first" d={area} />
            <line class="graph-middle" x1="0" x2={GRAPH_WIDTH.to_string()} y1="50" y2="50" />
            { shown.unwrap_or_default() }
            { dots }
            { targets }
        </svg>
    }
}
