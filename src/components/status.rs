//! The status panel: whose move, check, the answer to a refused move, and the result.

use qi_rules::any::AnyMove;
use qi_rules::banqi::BanqiMove;
use qi_rules::{GameKind, Side};
use yew::prelude::*;

use crate::state::{
    Action, AppState, EngineAction, GameResult, Mode, Notice, PlayState, ResultReason,
    SearchSummary,
};
use crate::web::now_ms;
use qi_i18n::rules::{end_reason_for, illegal_reason, link_error};
use qi_i18n::text::{Lang, Text, fill, side_name, t};

/// What the status panel shows, worked out from the state by [`status_view`]: the panel
/// re-renders only when this changes, and tests read it without a browser.
#[derive(Clone, Debug, PartialEq)]
pub struct StatusView {
    /// The interface language.
    pub lang: Lang,
    /// The game's end: the sentence and the `data-result` code; `None` while it goes on.
    pub result: Option<(String, &'static str)>,
    /// Whose move it is: the side's colour class and the sentence.
    pub to_move: (&'static str, String),
    /// The side to move is in check.
    pub in_check: bool,
    /// The named opening: its code (may be empty) and its name in the interface language
    /// where the book has one, else in English.
    pub opening: Option<(String, String)>,
    /// Keep the opening's line even before its name is known (see
    /// [`PlayState::holds_opening_line`]); off where no page asks for the names (the embed).
    pub hold_opening_line: bool,
    /// The computer is thinking about its move.
    pub thinking: bool,
    /// What the computer's last search did, where it is shown (not between two people).
    pub search: Option<SearchSummary>,
    /// Stepping through the game: how many moves in, and whether in a variation.
    pub viewing: Option<(usize, bool)>,
    /// The answer to the last attempt, and what its button does, if it has one.
    pub notice: Option<(String, Option<NoticeAction>)>,
    /// Banqi before the first flip: how to begin.
    pub banqi_hint: bool,
    /// What the live region says: the last move of the position shown, in words, and the
    /// result once the game is over (never the engine's figures).
    pub announcement: String,
}

/// What a notice's button does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoticeAction {
    /// Puts back the moves (and notes) the last Undo took.
    RestoreTakenBack,
    /// Asks the computer again for the move its engine did not give.
    AskComputerAgain,
}

/// The status panel's content for `state`.
#[must_use]
pub fn status_view(state: &PlayState) -> StatusView {
    let lang = state.settings.lang;
    let kind = state.game.kind();
    // The position shown: while stepping back, whose move it was there, not now.
    let shown = state.board_game();
    let to_move = shown.side_to_move();
    StatusView {
        lang,
        result: state
            .shown_result()
            .map(|result| (result_text(state, &result), result_code(state, &result))),
        to_move: (side_class(state, to_move), to_move_text(state, shown, to_move)),
        in_check: shown.in_check(),
        opening: None,
        hold_opening_line: state.holds_opening_line(),
        thinking: false,
        search: None,
        viewing: state.viewing.as_ref().map(|path| (path.depth(), !path.is_main_line())),
        notice: state.notice.as_ref().map(|n| {
            let action = match n {
                Notice::NotesTakenBack => Some(NoticeAction::RestoreTakenBack),
                Notice::EngineStopped => Some(NoticeAction::AskComputerAgain),
                _ => None,
            };
            (notice_text(lang, kind, n), action)
        }),
        // Only before the first flip, and only while there is a face-down piece to flip.
        banqi_hint: kind == GameKind::Banqi
            && state.viewing.is_none()
            && state.record.moves.is_empty()
            && shown
                .legal_move_values()
                .iter()
                .any(|mv| matches!(mv, AnyMove::Banqi(BanqiMove::Flip(_)))),
        announcement: announcement(state, shown),
    }
}

/// The main page's status: [`status_view`] with what the engine adds, the opening's name,
/// whether the computer thinks and what its last search found.
#[must_use]
pub fn status_view_with_engine(state: &AppState) -> StatusView {
    let lang = state.settings.lang;
    let opening = state.shown_opening().map(|opening| {
        let name = match lang {
            Lang::Zh => opening.name_zh.as_deref(),
            Lang::Vi => opening.name_vi.as_deref(),
            Lang::En => None,
        }
        .unwrap_or(&opening.name);
        (opening.code.clone(), name.to_owned())
    });
    StatusView {
        opening,
        thinking: matches!(state.engine.thinking, Some((_, false))),
        search: state.engine.last_search.filter(|_| state.settings.mode != Mode::HotSeat),
        ..status_view(&state.play)
    }
}

/// The live region's words for `state` showing `shown`: the answer to the last attempt when
/// there is one (a refused move's reason), else the last move, then the result.
fn announcement(state: &PlayState, shown: &qi_rules::any::AnyGame) -> String {
    let lang = state.settings.lang;
    if let Some(notice) = &state.notice {
        // The same refusal twice is said twice: a zero-width space on every other one changes
        // the text (a live region speaks only a change) and is not read.
        let again = if state.refusals % 2 == 1 { "\u{200B}" } else { "" };
        return format!("{}{again}", notice_text(lang, state.game.kind(), notice));
    }
    let mut words = qi_i18n::speech::last_move_words(lang, shown).unwrap_or_default();
    if state.viewing.is_none()
        && let Some(result) = state.result()
    {
        if !words.is_empty() {
            words.push_str(". ");
        }
        words.push_str(&result_text(state, &result));
    }
    words
}

/// Whose move it is, in words. In a gomoku opening: what the player is to do at this step
/// (which stone to put, a colour to choose, or both), or that the computer is doing its part.
fn to_move_text(state: &PlayState, shown: &qi_rules::any::AnyGame, to_move: Side) -> String {
    if let qi_rules::any::AnyGame::Gomoku(game) = shown
        && let Some(step) = opening_step_text(state, game, to_move)
    {
        return step;
    }
    fill(t(state.settings.lang, Text::ToMove), "side", side_label(state, to_move))
}

/// A gomoku opening's step, in words; `None` once the opening is over.
fn opening_step_text(
    state: &PlayState,
    game: &qi_rules::gomoku::Gomoku,
    seat: Side,
) -> Option<String> {
    use qi_rules::gomoku::Phase;
    let lang = state.settings.lang;
    let phase = game.phase();
    if phase == Phase::Play {
        return None;
    }
    // The computer's own step: the player waits, and is told so.
    if state.viewing.is_none() && state.settings.computer_plays(seat) {
        return Some(t(lang, Text::ComputerOpening).to_owned());
    }
    let text = match phase {
        Phase::FirstThree => {
            let size = qi_rules::Game::rules(game).size();
            let stones = (0..size)
                .flat_map(|file| (0..size).map(move |rank| qi_rules::Cell { file, rank }))
                .filter(|&cell| game.stone_at(cell).is_some())
                .count();
            // The stone's colour from the position shown (a later choice may hand it over).
            let colour = side_name(lang, GameKind::Gomoku, game.colour_to_move(), None);
            qi_i18n::text::fill_all(
                t(lang, Text::PlaceOpeningStone),
                &[("k", &(stones + 1).to_string()), ("colour", colour)],
            )
        }
        Phase::Choose
            if qi_rules::Game::rules(game).opening == qi_rules::gomoku::OpeningRule::Swap2 =>
        {
            t(lang, Text::ChooseColourOrTwoMore).to_owned()
        }
        Phase::Choose | Phase::ChooseAgain | Phase::ChooseAfterFourth => {
            t(lang, Text::ChooseColour).to_owned()
        }
        Phase::Fifth => t(lang, Text::PlaceFifthStone).to_owned(),
        Phase::Fourth => t(lang, Text::PlaceFourthStone).to_owned(),
        Phase::Declare => t(lang, Text::DeclareOffers).to_owned(),
        Phase::Offer => {
            let (k, n) = (game.offers().len() + 1, game.declared_offers());
            qi_i18n::text::fill_all(
                t(lang, Text::OfferFifth),
                &[("k", &k.to_string()), ("n", &n.to_string())],
            )
        }
        Phase::Select => t(lang, Text::PickOffer).to_owned(),
        Phase::Play => return None,
    };
    Some(text)
}

/// The tab's title for `state`: whose move it is against the computer (so a player in another
/// tab sees the reply came), the result once the game is over, else the app's name.
#[must_use]
pub fn page_title(state: &AppState) -> String {
    const NAME: &str = "Qi 棋";
    let lang = state.settings.lang;
    if state.viewing.is_none() {
        if let Some(result) = state.result() {
            return format!("{} · {NAME}", result_text(state, &result));
        }
        let person_moves = matches!(state.settings.mode, Mode::VsComputer { .. })
            && !state.settings.computer_plays(state.game.side_to_move());
        if person_moves && state.engine.thinking.is_none() {
            return format!("● {} · {NAME}", t(lang, Text::YourMove));
        }
    }
    NAME.to_owned()
}

/// Properties of [`Status`].
#[derive(Properties, PartialEq)]
pub struct StatusProps {
    /// What to show.
    pub view: StatusView,
    /// Where the notice's own action goes (putting back what Undo took), where it is offered.
    #[prop_or_default]
    pub dispatch: Option<Callback<Action>>,
}

/// A side's name in the shown game (banqi sides by colour once the first flip decided it).
pub fn side_label(state: &PlayState, side: Side) -> &'static str {
    let lang = state.settings.lang;
    let kind = state.game.kind();
    let banqi_red = match &*state.game {
        qi_rules::any::AnyGame::Banqi(game) => {
            game.colour_of(side).map(|c| c == qi_rules::banqi::Colour::Red)
        }
        _ => None,
    };
    side_name(lang, kind, gomoku_colour(state, side), banqi_red)
}

/// In gomoku the colour a seat plays (an opening rule may have given the first player white);
/// the seat itself in the other games.
fn gomoku_colour(state: &PlayState, side: Side) -> Side {
    match &*state.game {
        qi_rules::any::AnyGame::Gomoku(game) => game.colour_of(side),
        _ => side,
    }
}

/// The sentence for a finished game: who won and why, or a draw and why.
pub fn result_text(state: &PlayState, result: &GameResult) -> String {
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
pub fn result_code(state: &PlayState, result: &GameResult) -> &'static str {
    let Some(side) = result.winner else { return "draw" };
    let side = gomoku_colour(state, side);
    let kind = state.game.kind();
    match (kind, side) {
        (GameKind::Chess, Side::First) | (GameKind::Gomoku, Side::Second) => "white",
        (GameKind::Xiangqi, Side::First) => "red",
        (GameKind::Banqi, _) => match &*state.game {
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

/// A notice (a refused move's reason, a link's problem) as the player reads it.
#[must_use]
pub fn notice_text(lang: Lang, kind: GameKind, notice: &Notice) -> String {
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
        Notice::NotYourTurn => t(lang, Text::NotYourTurn).to_owned(),
        Notice::EngineStopped => t(lang, Text::EngineStopped).to_owned(),
        Notice::PremoveDropped(reason) => {
            let dropped = t(lang, Text::PremoveDropped);
            match reason {
                Some(reason) => format!("{dropped} {}", illegal_reason(lang, kind, *reason)),
                None => dropped.to_owned(),
            }
        }
    }
}

/// The status panel.
#[function_component(Status)]
pub fn status(props: &StatusProps) -> Html {
    let view = &props.view;
    let lang = view.lang;
    let main_line = match &view.result {
        Some((text, code)) => html! { <p class="result" data-result={*code}>{ text.clone() }</p> },
        None => html! {
            <p class="to-move">
                <span class={classes!("side-dot", view.to_move.0)}></span>
                { view.to_move.1.clone() }
                if view.in_check {
                    <strong class="in-check">{ " " }{ t(lang, Text::InCheck) }</strong>
                }
            </p>
        },
    };
    let notice = view.notice.as_ref().map(|(text, action)| {
        let button = match (action, &props.dispatch) {
            (Some(action), Some(dispatch)) => {
                let (action, dispatch) = (*action, dispatch.clone());
                let onclick = Callback::from(move |_| {
                    dispatch.emit(match action {
                        NoticeAction::RestoreTakenBack => {
                            Action::RestoreTakenBack { now: now_ms() }
                        }
                        NoticeAction::AskComputerAgain => Action::Engine(EngineAction::AskComputerAgain),
                    })
                });
                let (label, name) = match action {
                    NoticeAction::RestoreTakenBack => {
                        (Text::RestoreTakenBack, "restore-taken-back")
                    }
                    NoticeAction::AskComputerAgain => {
                        (Text::AskComputerAgain, "ask-computer-again")
                    }
                };
                html! {
                    <>{ " " }<button type="button" class="notice-action" data-action={name} {onclick}>
                        { t(lang, label) }
                    </button></>
                }
            }
            _ => Html::default(),
        };
        html! { <p class="notice" data-testid="notice">{ text.clone() }{ button }</p> }
    });
    let viewing = view.viewing.map(|(depth, in_variation)| {
        html! {
            <>
                <p class="viewing">{ fill(t(lang, Text::Viewing), "n", &depth.to_string()) }</p>
                if in_variation {
                    <p class="viewing" data-testid="in-variation">{ t(lang, Text::InVariation) }</p>
                }
            </>
        }
    });
    let thinking = view.thinking.then(|| {
        html! { <p class="thinking" data-testid="thinking"><span class="spinner" aria-hidden="true"></span>{ t(lang, Text::Thinking) }</p> }
    });
    // The search figures are for the curious, not for a casual game: folded away.
    let search = view.search.map(|s| {
        let nps = s.nodes_per_second();
        html! {
            <details class="engine-details" data-testid="engine-details">
                <summary>{ t(lang, Text::EngineDetails) }</summary>
                <p class="engine-info" data-testid="engine-info" data-nodes={s.nodes.to_string()}
                   data-ms={s.time_ms.to_string()} data-nps={nps.to_string()}>
                    { format!("d{} · {} kN · {} kN/s", s.depth, s.nodes / 1000, (nps + 500) / 1000) }
                </p>
            </details>
        }
    });
    // One line, cut with an ellipsis (the whole name in its title), so a long name does not
    // wrap and move what is below it.
    let opening = match &view.opening {
        Some((code, name)) => {
            let title = if code.is_empty() { name.clone() } else { format!("{code} {name}") };
            Some(html! {
                <p class="opening" data-testid="opening" {title}>
                    if !code.is_empty() { <span class="eco">{ code.clone() }</span>{ " " } }
                    { name.clone() }
                </p>
            })
        }
        None if view.hold_opening_line => {
            Some(html! { <p class="opening" aria-hidden="true">{ "\u{a0}" }</p> })
        }
        None => None,
    };
    let banqi_hint =
        view.banqi_hint.then(|| html! { <p class="hint-text">{ t(lang, Text::BanqiHint) }</p> });
    html! {
        <>
            // Not a live region itself: the engine's figures and the spinner change in it.
            <div class="status" data-testid="status">
                { main_line }
                { opening.unwrap_or_default() }
                { thinking.unwrap_or_default() }
                { search.unwrap_or_default() }
                { viewing.unwrap_or_default() }
                { notice.unwrap_or_default() }
                { banqi_hint.unwrap_or_default() }
            </div>
            <p class="sr-only" aria-live="polite" aria-atomic="true" data-testid="announce">{ view.announcement.clone() }</p>
        </>
    }
}

/// A CSS class for a side's colour dot.
pub fn side_class(state: &PlayState, side: Side) -> &'static str {
    match side_label_colour(state, side) {
        Some("red") => "red",
        Some("white") => "white",
        Some(_) => "black",
        None => "unknown",
    }
}

fn side_label_colour(state: &PlayState, side: Side) -> Option<&'static str> {
    let side = gomoku_colour(state, side);
    match (state.game.kind(), side) {
        (GameKind::Chess, Side::First) | (GameKind::Gomoku, Side::Second) => Some("white"),
        (GameKind::Xiangqi, Side::First) => Some("red"),
        (GameKind::Banqi, _) => match &*state.game {
            qi_rules::any::AnyGame::Banqi(game) => game.colour_of(side).map(|c| match c {
                qi_rules::banqi::Colour::Red => "red",
                qi_rules::banqi::Colour::Black => "black",
            }),
            _ => None,
        },
        _ => Some("black"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::{Settings, TreeAction};
    use qi_play::Path;
    use qi_play::record::{GameRecord, default_rules};

    fn opened(kind: GameKind, moves: &[&str], lang: Lang) -> AppState {
        let mut settings = Settings::new(lang);
        settings.kind = kind;
        let mut state = AppState::new(settings, 0);
        let mut record = GameRecord::new(kind, &default_rules(kind), 0);
        record.moves = moves.iter().map(|m| (*m).to_owned()).collect();
        state.apply(Action::Open { record, bottom: None, at: None, notice: None });
        state
    }

    #[test]
    fn the_live_region_says_the_move_the_refusal_and_the_result_not_the_engine() {
        let state = opened(GameKind::Chess, &["e2e4", "d7d5", "e4d5"], Lang::En);
        assert_eq!(status_view(&state).announcement, "White pawn takes d5");
        let mut state = opened(GameKind::Chess, &["f2f3", "e7e5", "g2g4"], Lang::En);
        state.apply(Action::ClickCell { cell: "d8".parse().unwrap(), now: 0.0 });
        state.apply(Action::ClickCell { cell: "d6".parse().unwrap(), now: 0.0 });
        let refused = status_view(&state).announcement;
        assert!(refused.to_lowercase().contains("blocks"), "{refused}");
        state.apply(Action::ClickCell { cell: "d8".parse().unwrap(), now: 0.0 });
        state.apply(Action::ClickCell { cell: "h4".parse().unwrap(), now: 0.0 });
        let view = status_view(&state);
        assert!(
            view.announcement.starts_with("Black queen to h4, checkmate. "),
            "{}",
            view.announcement
        );
        assert!(view.announcement.ends_with(&view.result.expect("over").0));
        // Stepping back says the move of the position shown.
        state.apply(Action::Tree(TreeAction::StepBack));
        assert_eq!(status_view(&state).announcement, "White pawn to g4");
        let zh = opened(GameKind::Xiangqi, &["h3e3"], Lang::Zh);
        assert_eq!(status_view(&zh).announcement, "红方 炮二平五");
    }

    #[test]
    fn whose_move_check_and_result() {
        let view = status_view(&opened(GameKind::Chess, &[], Lang::En));
        assert_eq!(view.to_move, ("white", "White to move".to_owned()));
        assert_eq!((view.result, view.in_check, view.banqi_hint), (None, false, false));
        let check = status_view(&opened(GameKind::Chess, &["e2e4", "f7f6", "d1h5"], Lang::En));
        assert!(check.in_check);
        let mate = ["f2f3", "e7e5", "g2g4", "d8h4"];
        let view = status_view(&opened(GameKind::Chess, &mate, Lang::En));
        assert_eq!(view.result, Some(("Black wins by checkmate".to_owned(), "black")));
        let view = status_view(&opened(GameKind::Xiangqi, &[], Lang::Zh));
        assert_eq!(view.to_move, ("red", "轮到红方走".to_owned()));
        assert!(status_view(&opened(GameKind::Banqi, &[], Lang::En)).banqi_hint);
    }

    #[test]
    fn stepping_back_shows_the_position_shown() {
        // Fool's mate, seen at move 2: White to move there, no result yet, no check.
        let mate = ["f2f3", "e7e5", "g2g4", "d8h4"];
        let mut state = opened(GameKind::Chess, &mate, Lang::En);
        state.apply(Action::Tree(TreeAction::Go(Path::main(2))));
        let view = status_view(&state);
        assert_eq!(view.to_move.1, "White to move");
        assert_eq!((view.result, view.in_check), (None, false));
        state.apply(Action::Tree(TreeAction::Go(Path::main(3))));
        assert_eq!(status_view(&state).to_move.1, "Black to move");
        // At the end, the result.
        state.apply(Action::Tree(TreeAction::View(None)));
        assert!(status_view(&state).result.is_some());
    }

    #[test]
    fn the_tab_title_says_whose_move_against_the_computer() {
        let mut settings = Settings::new(Lang::En);
        settings.mode = Mode::VsComputer { human: Side::First };
        let mut state = AppState::new(settings, 0);
        assert_eq!(page_title(&state), "● Your move · Qi 棋");
        state.apply(Action::Pick { cell: "e2".parse().unwrap() });
        state.apply(Action::Drop {
            from: "e2".parse().unwrap(),
            to: "e4".parse().unwrap(),
            now: 0.0,
        });
        assert_eq!(page_title(&state), "Qi 棋", "the computer's turn");
        // Two players at one board: nothing to call anyone back for.
        assert_eq!(page_title(&opened(GameKind::Chess, &["e2e4"], Lang::Zh)), "Qi 棋");
        let mate = ["f2f3", "e7e5", "g2g4", "d8h4"];
        assert_eq!(
            page_title(&opened(GameKind::Chess, &mate, Lang::En)),
            "Black wins by checkmate · Qi 棋"
        );
    }

    #[test]
    fn the_banqi_tip_only_while_a_flip_is_to_be_made() {
        assert!(status_view(&opened(GameKind::Banqi, &[], Lang::En)).banqi_hint);
        // A position with every piece face up: nothing to flip, no tip.
        let mut settings = Settings::new(Lang::En);
        settings.kind = GameKind::Banqi;
        let mut state = AppState::new(settings, 0);
        let mut record = GameRecord::new(GameKind::Banqi, &default_rules(GameKind::Banqi), 0);
        record.start = qi_play::record::Start::Position("K7/8/8/6k1 1 r 0 - -".into());
        state.apply(Action::Open { record, bottom: None, at: None, notice: None });
        assert!(!status_view(&state).banqi_hint);
    }

    #[test]
    fn stepping_into_a_variation_and_the_undo_notice() {
        let mut state = opened(GameKind::Chess, &["e2e4", "e7e5"], Lang::En);
        state.apply(Action::Tree(TreeAction::SetComment("Symmetry.".into())));
        state.apply(Action::Undo { now: 0.0 });
        let view = status_view(&state);
        let (text, action) = view.notice.expect("a notice");
        assert!(text.starts_with("Taken back"), "{text}");
        assert_eq!(action, Some(NoticeAction::RestoreTakenBack));
        state.apply(Action::RestoreTakenBack { now: 0.0 });
        assert_eq!(status_view(&state).notice, None);
        state.apply(Action::Tree(TreeAction::Go(Path::main(1))));
        assert_eq!(status_view(&state).viewing, Some((1, false)));
        // A different answer to 1. e4 makes a variation, and the status says so.
        state.apply(Action::Drop {
            from: "c7".parse().unwrap(),
            to: "c5".parse().unwrap(),
            now: 0.0,
        });
        assert_eq!(state.record.moves, ["e2e4", "e7e5"], "the game stays");
        assert_eq!(status_view(&state).viewing, Some((2, true)));
    }

    #[test]
    fn an_unchanged_state_gives_an_equal_view() {
        // The panel re-renders only when its view changes: a clock tick or an analysis line
        // must not make a new one.
        let mut state = opened(GameKind::Gomoku, &["h8", "h9"], Lang::Vi);
        state.play_mut().settings.mode = Mode::HotSeat;
        state.apply(Action::Engine(EngineAction::ToggleAnalysis));
        let before = status_view_with_engine(&state);
        state.apply(Action::Tick { now: 5_000.0 });
        let analysis = qi_tasks::think::Analysis { id: 1, nodes: 0, lines: Vec::new() };
        state.apply(Action::Engine(EngineAction::AnalysisAnswer {
            moves: state.shown_moves(),
            analysis,
        }));
        assert!(state.engine.analysis.is_some(), "the answer was taken");
        assert_eq!(status_view_with_engine(&state), before);
        // And a change that matters makes a different view.
        state.apply(Action::Tree(TreeAction::StepBack));
        assert_ne!(status_view_with_engine(&state), before);
    }
}
