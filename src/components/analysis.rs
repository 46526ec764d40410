//! The engine's analysis of the position shown: an evaluation bar, the score, the depth and up
//! to three best lines with their scores (a click plays one into the move tree). The engine's best move is also an arrow on
//! the board (see `board_model`).
//!
//! Scores are shown from the first player's side (White, Red, Black in gomoku, banqi's first
//! player). Chess and xiangqi: pawns (`+0.35`) or a forced mate (`#3`, `#-3`). Gomoku and banqi,
//! whose engines count in their own units, show a winning chance for each side instead (the
//! logistic curve chess engines use to turn pawns into chances, scaled per game, see
//! `ten_to_one`), or a forced win in so many moves. The bar is the first player's chance.

use qi_ai::Score;
use qi_ai::review::first_player_chance;
use qi_rules::any::AnyMove;
use qi_rules::{GameKind, Side};
use yew::prelude::*;

use super::status::side_label;
use crate::state::{Action, AppState, TreeAction};
use qi_i18n::text::{Lang, Text, fill, t};
use qi_play::decimal::decimal;

/// A score for the side to move, turned to the first player's side.
#[must_use]
pub fn for_first_player(score: Score, to_move: Side) -> Score {
    match (score, to_move) {
        (s, Side::First) => s,
        (Score::Cp(cp), Side::Second) => Score::Cp(-cp),
        (Score::Mate(n), Side::Second) => Score::Mate(-n),
    }
}

/// The score as a player reads it (see the module docs).
#[must_use]
pub fn score_text(kind: GameKind, score: Score, first: &str, second: &str) -> String {
    match (kind, score) {
        (GameKind::Chess | GameKind::Xiangqi, Score::Cp(cp)) => {
            let sign = if cp > 0 { "+" } else { "" };
            format!("{sign}{}", decimal(i64::from(cp), 2))
        }
        (GameKind::Chess | GameKind::Xiangqi, Score::Mate(n)) => format!("#{n}"),
        (_, Score::Mate(n)) => {
            let (winner, moves) = if n > 0 { (first, n) } else { (second, -n) };
            format!("{winner} +{moves}")
        }
        (_, Score::Cp(_)) => {
            let chance = first_player_chance(kind, score, Side::First);
            format!("{first} {chance}% · {second} {}%", 100 - chance)
        }
    }
}

/// One of the engine's lines, as the panel shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineView {
    /// Its score, as a player reads it.
    pub score: String,
    /// Its moves in the game's notation (Chinese for xiangqi in 简体中文), as far as they replay.
    pub notation: String,
    /// Those moves, to play into the tree.
    pub moves: Vec<AnyMove>,
}

/// What the analysis panel shows, from [`analysis_view`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnalysisView {
    /// The analysis is off: no panel.
    Off,
    /// On, but the computer's own thinking has the engine (the game as it stands, its turn).
    Paused,
    /// On, with no answer yet for the position shown.
    Waiting,
    /// The engine's view of the position shown.
    Shown {
        /// The first player's winning chance, 0-100 (the bar).
        chance: u32,
        /// The evaluation (or the result of a finished position).
        text: String,
        /// The depth reached.
        depth: u32,
        /// The best lines, the best first.
        lines: Vec<LineView>,
        /// Whether a line can be played into the tree (a past position or a variation is shown).
        playable: bool,
    },
}

/// The analysis panel's content for `state`.
#[must_use]
pub fn analysis_view(state: &AppState) -> AnalysisView {
    if !state.engine.analysing {
        return AnalysisView::Off;
    }
    if !state.analysis_allowed() {
        return AnalysisView::Paused;
    }
    let Some(analysis) = state.shown_analysis() else { return AnalysisView::Waiting };
    let game = state.board_game();
    let kind = game.kind();
    let (first, second) = (side_label(state, Side::First), side_label(state, Side::Second));
    let to_move = game.side_to_move();
    // A finished position has no score to read, but its result.
    let outcome = game.outcome();
    let result_text = outcome.as_ref().map(|outcome| {
        let result = crate::state::GameResult {
            winner: outcome.winner,
            reason: crate::state::ResultReason::Rules(outcome.reason),
            line: Vec::new(),
        };
        super::status::result_text(state, &result)
    });
    let Some(best) = analysis.best() else {
        // An answer without a line: the position has no move to make. A finished position
        // shows its result; anything else has nothing to show (not "Thinking" for ever).
        let (Some(outcome), Some(text)) = (outcome, result_text) else { return AnalysisView::Off };
        let chance = match outcome.winner {
            Some(Side::First) => 100,
            Some(Side::Second) => 0,
            None => 50,
        };
        return AnalysisView::Shown { chance, text, depth: 0, lines: Vec::new(), playable: false };
    };
    let text = result_text
        .unwrap_or_else(|| score_text(kind, for_first_player(best.score, to_move), first, second));
    let chinese = state.settings.lang == qi_i18n::text::Lang::Zh;
    let lines = analysis
        .lines
        .iter()
        .filter(|line| !line.moves.is_empty())
        .map(|line| {
            // The line in the game's notation, as far as it replays.
            let mut replay = game.clone();
            let notations: Vec<String> = line
                .moves
                .iter()
                .map_while(|&mv| {
                    replay.check(mv).ok()?;
                    let in_chinese = if chinese { replay.chinese_notation_of(mv) } else { None };
                    let notation = in_chinese.unwrap_or_else(|| replay.move_notation(mv));
                    replay.apply(mv).ok()?;
                    Some(notation)
                })
                .collect();
            LineView {
                score: score_text(kind, for_first_player(line.score, to_move), first, second),
                moves: line.moves[..notations.len()].to_vec(),
                notation: notations.join(" "),
            }
        })
        .collect();
    AnalysisView::Shown {
        chance: first_player_chance(kind, best.score, to_move),
        text,
        depth: best.depth,
        lines,
        playable: state.explored.is_some(),
    }
}

/// Properties of [`AnalysisPanel`].
#[derive(Properties, PartialEq)]
pub struct AnalysisProps {
    /// What to show.
    pub view: AnalysisView,
    /// The interface language.
    pub lang: Lang,
    /// Where actions go.
    pub dispatch: Callback<Action>,
}

/// The analysis panel (only while "Analyse" is on).
#[function_component(AnalysisPanel)]
pub fn analysis_panel(props: &AnalysisProps) -> Html {
    let lang = props.lang;
    let waiting = |content: Html| {
        html! {
            <section class="analysis" data-testid="analysis">
                <p class="analysis-waiting">{ content }</p>
            </section>
        }
    };
    let (chance, text, depth, lines, playable) = match &props.view {
        AnalysisView::Off => return Html::default(),
        AnalysisView::Paused => return waiting(html! { { t(lang, Text::AnalysisPaused) } }),
        AnalysisView::Waiting => {
            return waiting(html! {
                <><span class="spinner" aria-hidden="true"></span>{ t(lang, Text::Thinking) }</>
            });
        }
        AnalysisView::Shown { chance, text, depth, lines, playable } => {
            (*chance, text, *depth, lines, *playable)
        }
    };
    let lines: Html = lines
        .iter()
        .map(|line| {
            let onclick = {
                let dispatch = props.dispatch.clone();
                let moves = line.moves.clone();
                Callback::from(move |_: MouseEvent| dispatch.emit(Action::Tree(TreeAction::PlayLine(moves.clone()))))
            };
            // A line the player can play into the tree is a button; one that cannot be played
            // (the game's live position: it would move for the players) is the same words as
            // plain text, not a greyed-out button that looks broken.
            let words = html! {
                <>
                    <strong class="line-score">{ line.score.clone() }</strong>{ " " }
                    <span class="line-moves">{ line.notation.clone() }</span>
                </>
            };
            if playable {
                html! {
                    <li>
                        <button type="button" class="analysis-line" data-testid="analysis-line"
                                title={t(lang, Text::PlayLine)} {onclick}>{ words }</button>
                    </li>
                }
            } else {
                html! { <li><span class="analysis-line" data-testid="analysis-line">{ words }</span></li> }
            }
        })
        .collect();
    let depth = fill(t(lang, Text::Depth), "n", &depth.to_string());
    html! {
        <section class="analysis" data-testid="analysis" aria-label={t(lang, Text::Analysis)}>
            <div class="eval-bar" role="meter" aria-valuemin="0" aria-valuemax="100"
                 aria-valuenow={chance.to_string()} aria-label={text.clone()}>
                <div class="eval-fill" style={format!("width: {chance}%")}></div>
            </div>
            <p class="eval"><strong data-testid="eval">{ text.clone() }</strong>{ " · " }{ depth }</p>
            <ol class="analysis-lines">{ lines }</ol>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::EngineAction;

    #[test]
    fn the_panel_shows_the_lines_of_the_position_shown() {
        use crate::state::Settings;
        use qi_tasks::think::{Analysis, EngineLine};
        let mut settings = Settings::new(Lang::En);
        settings.mode = crate::state::Mode::HotSeat;
        let mut state = AppState::new(settings, 0);
        assert_eq!(analysis_view(&state), AnalysisView::Off);
        state.apply(Action::Engine(EngineAction::ToggleAnalysis));
        assert_eq!(analysis_view(&state), AnalysisView::Waiting);
        // The moves read one after another from the start.
        let start = state.game.as_ref().clone();
        let read = |moves: &[&str]| {
            let mut game = start.clone();
            let read_and_play = |text: &&str| {
                let mv = game.read_move(text).unwrap();
                game.apply(mv).unwrap();
                mv
            };
            moves.iter().map(read_and_play).collect::<Vec<_>>()
        };
        let line = |score, moves: Vec<_>| EngineLine { depth: 9, score, moves };
        let second = [read(&["d2d4"]), read(&["e2e4"])].concat();
        let analysis = Analysis {
            id: 1,
            nodes: 5_000,
            // The second line's last move does not replay: shown and played as far as it goes.
            lines: vec![line(Score::Cp(30), read(&["e2e4", "e7e5"])), line(Score::Cp(10), second)],
        };
        state.apply(Action::Engine(EngineAction::AnalysisAnswer { moves: Vec::new(), analysis }));
        let AnalysisView::Shown { chance, text, depth, lines, playable } = analysis_view(&state)
        else {
            panic!("the analysis: {:?}", analysis_view(&state));
        };
        assert_eq!((text.as_str(), depth, playable), ("+0.3", 9, false));
        assert!(chance > 50, "{chance}");
        assert_eq!(
            lines[0],
            LineView {
                score: "+0.3".into(),
                notation: "e4 e5".into(),
                moves: read(&["e2e4", "e7e5"])
            }
        );
        assert_eq!((lines[1].notation.as_str(), lines[1].moves.len()), ("d4", 1));
    }

    #[test]
    fn an_answer_without_lines_shows_the_result_or_nothing() {
        use crate::state::Settings;
        use qi_tasks::think::Analysis;
        let mut settings = Settings::new(Lang::En);
        settings.mode = crate::state::Mode::HotSeat;
        let mut state = AppState::new(settings, 0);
        state.apply(Action::Engine(EngineAction::ToggleAnalysis));
        let empty = Analysis { id: 1, nodes: 0, lines: Vec::new() };
        state.apply(Action::Engine(EngineAction::AnalysisAnswer {
            moves: Vec::new(),
            analysis: empty.clone(),
        }));
        assert_eq!(analysis_view(&state), AnalysisView::Off, "nothing to show, not thinking");
        // Fool's mate: the finished position shows its result, Black's full chance.
        for (from, to) in [("f2", "f3"), ("e7", "e5"), ("g2", "g4"), ("d8", "h4")] {
            let cell = |text: &str| text.parse().expect("cell");
            state.apply(Action::Drop { from: cell(from), to: cell(to), now: 0.0 });
        }
        assert!(state.result().is_some());
        let moves = state.shown_moves();
        state.apply(Action::Engine(EngineAction::AnalysisAnswer { moves, analysis: empty }));
        let AnalysisView::Shown { chance, text, lines, .. } = analysis_view(&state) else {
            panic!("the result: {:?}", analysis_view(&state));
        };
        assert_eq!((chance, lines.len()), (0, 0));
        assert!(text.contains("Black"), "{text}");
    }

    #[test]
    fn scores_read_as_players_read_them() {
        let text = |kind, score| score_text(kind, score, "Black", "White");
        assert_eq!(text(GameKind::Chess, Score::Cp(35)), "+0.35");
        assert_eq!(text(GameKind::Xiangqi, Score::Cp(-120)), "-1.2");
        assert_eq!(text(GameKind::Chess, Score::Mate(-3)), "#-3");
        assert_eq!(text(GameKind::Gomoku, Score::Cp(0)), "Black 50% · White 50%");
        assert_eq!(text(GameKind::Gomoku, Score::Cp(1000)), "Black 91% · White 9%");
        assert_eq!(text(GameKind::Banqi, Score::Cp(100)), "Black 64% · White 36%");
        assert_eq!(text(GameKind::Banqi, Score::Mate(-4)), "White +4");
        assert_eq!(for_first_player(Score::Cp(80), Side::Second), Score::Cp(-80));
        assert_eq!(for_first_player(Score::Mate(2), Side::Second), Score::Mate(-2));
    }
}
