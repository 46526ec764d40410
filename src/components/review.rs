//! The game review on screen: its progress (cancellable), each player's figures, and the
//! evaluation graph under the board (a click on it goes to that move).

use qi_ai::review::Judgement;
use qi_play::Path;
use qi_rules::Side;
use yew::prelude::*;

use std::rc::Rc;

use super::status::side_label;
use crate::state::{Action, AppState, EngineAction, TreeAction};
use qi_i18n::text::{Lang, Text, fill, t};
use qi_tasks::review::Review;

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

/// The review panel's review (the game's, if it has one) and the sides' names, for `state`.
#[must_use]
pub fn review_props(state: &AppState) -> (Option<Rc<Review>>, [&'static str; 2]) {
    let review = state.engine.review.clone().filter(|_| state.current_review().is_some());
    (review, [side_label(state, Side::First), side_label(state, Side::Second)])
}

/// Properties of [`ReviewPanel`].
#[derive(Properties, PartialEq)]
pub struct ReviewProps {
    /// The game's review, when it has one (shared with the state: compared by pointer first).
    pub review: Option<Rc<Review>>,
    /// The two sides' names, the first player's first.
    pub sides: [&'static str; 2],
    /// The interface language.
    pub lang: Lang,
    /// Where actions go.
    pub dispatch: Callback<Action>,
    /// The puzzle page's address that makes puzzles of the wins let go in this game, offered
    /// once the review is done ([`crate::components::dialogs::puzzles_from_game_link`]).
    #[prop_or_default]
    pub puzzles: Option<String>,
}

/// The review's progress and summary, in the side panel (only when the game has a review).
#[function_component(ReviewPanel)]
pub fn review_panel(props: &ReviewProps) -> Html {
    let Some(review) = &props.review else { return Html::default() };
    let lang = props.lang;
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
                <button type="button" data-action="cancel-review" onclick={emit(|| Action::Engine(EngineAction::CancelReview))}>
                    { t(lang, Text::Cancel) }
                </button>
            </div>
        }
    } else if !review.finished() {
        html! {
            <div class="review-progress">
                <progress max="100" value={progress.to_string()}></progress>
                <button type="button" data-action="resume-review" onclick={emit(|| Action::Engine(EngineAction::StartReview))}>
                    { t(lang, Text::Review) }
                </button>
            </div>
        }
    } else if let Some(href) = props.puzzles.clone() {
        // Done: the wins let go, as puzzles to solve.
        html! {
            <a class="button-link review-puzzles" data-action="review-puzzles" {href}>{ t(lang, Text::PuzzlesFromGame) }</a>
        }
    } else {
        Html::default()
    };
    let [first, second] = review.summaries();
    let accuracy =
        |figure: Option<f64>| figure.map_or("–".to_owned(), |a| format!("{}%", a.round() as u32));
    // The table as markup text (see `EvalGraph` for why); its words are the app's own.
    let mut table = format!(
        "<table class=\"review-summary\"><thead><tr><th></th><th scope=\"col\">{}</th><th scope=\"col\">{}</th></tr></thead>\
         <tbody><tr class=\"accuracy\"><th scope=\"row\">{}</th>\
         <td data-testid=\"accuracy-first\">{}</td><td data-testid=\"accuracy-second\">{}</td></tr>",
        escape(props.sides[0]),
        escape(props.sides[1]),
        escape(t(lang, Text::Accuracy)),
        accuracy(first.accuracy),
        accuracy(second.accuracy),
    );
    for (slot, &judgement) in Judgement::ALL.iter().enumerate() {
        table += &format!(
            "<tr class=\"{}\"><th scope=\"row\">{}</th><td>{}</td><td>{}</td></tr>",
            judgement_class(judgement),
            escape(judgement_text(lang, judgement)),
            first.counts[slot],
            second.counts[slot],
        );
    }
    table += "</tbody></table>";
    html! {
        <section class="review" data-testid="review" aria-label={t(lang, Text::Review)}
                 data-progress={progress.to_string()}>
            { under_way }
            { Html::from_html_unchecked(AttrValue::from(table)) }
        </section>
    }
}

/// Text made safe to put in markup.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
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
/// dotted, the position shown marked; a click goes to the nearest position. Drawn as markup
/// text (numbers and fixed class names only) with one click handler on the whole graph: a
/// virtual node per point would cost the page's download more than the graph is worth.
#[function_component(EvalGraph)]
pub fn eval_graph(props: &EvalGraphProps) -> Html {
    let positions = props.chances.len();
    if positions < 2 {
        return Html::default();
    }
    let x = |ply: usize| ply * GRAPH_WIDTH / (positions - 1);
    let y = |chance: u32| 100 - chance.min(100);
    let mut svg = format!(
        "<rect class=\"graph-second\" x=\"0\" y=\"0\" width=\"{GRAPH_WIDTH}\" height=\"100\"/>\
         <path class=\"graph-first\" d=\"M0,100"
    );
    for (ply, &chance) in props.chances.iter().enumerate() {
        svg += &format!(" L{},{}", x(ply), y(chance));
    }
    svg += &format!(
        " L{},100 Z\"/><line class=\"graph-middle\" x1=\"0\" x2=\"{GRAPH_WIDTH}\" y1=\"50\" y2=\"50\"/>",
        x(positions - 1)
    );
    if let Some(ply) = props.shown.filter(|&ply| ply < positions) {
        svg += &format!(
            "<line class=\"graph-shown\" x1=\"{0}\" x2=\"{0}\" y1=\"0\" y2=\"100\"/>",
            x(ply)
        );
    }
    for (index, &judgement) in props.judgements.iter().enumerate() {
        let Some(&chance) = props.chances.get(index + 1) else { break };
        if judgement >= Judgement::Inaccuracy {
            // Kept inside the frame at the extremes, where a decisive blunder lands.
            let (cx, cy) = (x(index + 1), y(chance).clamp(6, 94));
            let class = judgement_class(judgement);
            svg += &format!("<circle class=\"{class}\" cx=\"{cx}\" cy=\"{cy}\" r=\"6\"/>");
        }
    }
    // One click target per position, as wide as the space between two.
    let step = (GRAPH_WIDTH / (positions - 1)).max(1);
    for ply in 0..positions {
        let left = x(ply).saturating_sub(step / 2);
        svg += &format!(
            "<rect class=\"graph-target\" data-ply=\"{ply}\" x=\"{left}\" y=\"0\" width=\"{step}\" height=\"100\"/>"
        );
    }
    let onclick = {
        let dispatch = props.dispatch.clone();
        Callback::from(move |event: MouseEvent| {
            let ply = event
                .target_dyn_into::<web_sys::Element>()
                .and_then(|target| target.get_attribute("data-ply"))
                .and_then(|ply| ply.parse().ok());
            if let Some(ply) = ply {
                dispatch.emit(Action::Tree(TreeAction::Go(Path::main(ply))));
            }
        })
    };
    let label = t(props.lang, Text::EvalGraph);
    html! {
        <svg class="eval-graph" data-testid="eval-graph" role="img" aria-label={label}
             viewBox={format!("0 0 {GRAPH_WIDTH} 100")} preserveAspectRatio="none" {onclick}>
            { Html::from_html_unchecked(AttrValue::from(svg)) }
        </svg>
    }
}
