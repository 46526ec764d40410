//! The move list in the game's notation, as a tree: the main line in numbered rows, and each
//! move's alternatives right after it, indented, to any depth, with comments and marks. A move
//! shows the position after it; the game can be stepped through (also with ←/→, ↑/↓, Home and
//! End, see [`crate::web::on_move_keys`]) and returned to, and the variation shown can be
//! promoted, made the main line or deleted.

use qi_play::tree::Branch;
use qi_play::{Line, Mark, Path};
use yew::prelude::*;

use crate::board::{Style, piece_image};
use crate::state::{Action, TreeAction, TreeEdit};
use qi_i18n::text::{Lang, Text, piece_name, t};
use qi_play::record::{GameRecord, Notated};
use qi_rules::GameKind;
use std::rc::Rc;

/// Properties of [`MoveList`].
#[derive(Properties, PartialEq)]
pub struct MoveListProps {
    /// The game, shared with the state (`Rc`): cloning the props copies no moves, and an
    /// unchanged record compares equal at once when both sides are the same allocation.
    pub record: Rc<GameRecord>,
    /// The position shown.
    pub current: Path,
    /// Whether that is the game as it stands (not stepping through it).
    pub live: bool,
    /// The interface language.
    pub lang: Lang,
    /// Where actions go.
    pub dispatch: Callback<Action>,
    /// Whether the tree tools, marks and comment box are offered (not online, where the game
    /// is the server's).
    #[prop_or(true)]
    pub editable: bool,
    /// Xiangqi and banqi pieces drawn as symbols, as the board draws them.
    #[prop_or_default]
    pub symbols: bool,
}

/// A path as an attribute value, for tests and tools: `at.index,...:ply` (`:3` on the main
/// line, `1.0:2` for the second move of the first alternative to the second move).
#[must_use]
pub fn path_key(path: &Path) -> String {
    let branches: Vec<String> =
        path.branches.iter().map(|b| format!("{}.{}", b.at, b.index)).collect();
    format!("{}:{}", branches.join(","), path.ply)
}

/// The move number written before a move: `3.` for the first player's, `3…` for the second's
/// when it starts a row or a variation. `depth` is the number of moves before it.
fn number(depth: usize, always: bool) -> Option<String> {
    let number = depth / 2 + 1;
    if depth.is_multiple_of(2) {
        Some(format!("{number}."))
    } else {
        always.then(|| format!("{number}…"))
    }
}

/// Everything needed to draw one move.
struct Ctx<'a> {
    current: &'a Path,
    dispatch: &'a Callback<Action>,
    /// The current move's element, for scrolling it into view.
    current_ref: Option<&'a NodeRef>,
    /// The interface language (a gomoku opening's colour choices are words).
    lang: Lang,
    /// Xiangqi and banqi pieces drawn as symbols, as on the board (a flip shows its piece).
    symbols: bool,
}

impl Ctx<'_> {
    fn move_button(
        &self,
        path: Path,
        notation: &str,
        turned_up: Option<&String>,
        marks: &[Mark],
        main: bool,
    ) -> Html {
        let current = *self.current == path;
        let dispatch = self.dispatch.clone();
        let key = path_key(&path);
        let ply = main.then(|| path.ply.to_string());
        let go = path.clone();
        let onclick = Callback::from(move |_: MouseEvent| {
            dispatch.emit(Action::Tree(TreeAction::Go(go.clone())))
        });
        let marks: String = marks.iter().map(ToString::to_string).collect();
        let node = self.current_ref.filter(|_| current).cloned().unwrap_or_default();
        // A gomoku opening's steps are words in records (`black`, `offers=3`, `offer=h9`);
        // shown in the player's language.
        let worded = match notation {
            "black" => Some(t(self.lang, Text::TakeBlack).to_owned()),
            "white" => Some(t(self.lang, Text::TakeWhite).to_owned()),
            other => opening_step_words(self.lang, other),
        };
        // Words are wider than moves: their row takes the list's whole width.
        let step = worded.is_some().then_some("step");
        let notation = worded.as_deref().unwrap_or(notation);
        html! {
            <button type="button" ref={node} class={classes!("move", step, (!main).then_some("variation-move"), current.then_some("current"))}
                    data-ply={ply} data-path={key} aria-current={current.then_some("true")} {onclick}>
                { notation }
                if let Some(code) = turned_up { { self.turned_up(code) } }
                if !marks.is_empty() { <span class="marks">{ marks }</span> }
            </button>
        }
    }

    /// The main line's move `i` (from 0), with its marks and what it turned up.
    fn main_line_move(
        &self,
        record: &GameRecord,
        notated: &Notated,
        i: usize,
        notation: &str,
    ) -> Html {
        let marks = record.marks.get(&(i + 1)).map_or(&[][..], Vec::as_slice);
        self.move_button(Path::main(i + 1), notation, notated.turned_up.get(&i), marks, true)
    }

    /// The piece a banqi flip turned face up, drawn as the board draws it and named for
    /// screen readers ("b3, red cannon").
    fn turned_up(&self, code: &str) -> Html {
        let name = piece_name(self.lang, GameKind::Banqi, code);
        html! {
            <span class="turned-up" role="img" aria-label={format!(", {name}")} title={name}>
                { piece_image(code, Style::Squares, self.symbols) }
            </span>
        }
    }

    /// A variation, inline: its moves with their numbers, comments and nested variations.
    fn variation(
        &self,
        line: &Line,
        notated: &Notated,
        branches: &[Branch],
        before: usize,
    ) -> Html {
        let mut parts: Vec<Html> = Vec::new();
        if let Some(text) = line.comments.get(&0) {
            parts.push(html! { <span class="comment">{ text.clone() }</span> });
        }
        for (i, notation) in notated.notations.iter().enumerate() {
            let depth = before + i;
            // Restated after a comment or a nested variation, as after the line's start.
            let restate = i == 0
                || line.comments.contains_key(&i)
                || i.checked_sub(1).is_some_and(|before| line.variations.contains_key(&before));
            if let Some(number) = number(depth, restate) {
                parts.push(html! { <span class="move-number">{ number }</span> });
            }
            let path = Path { branches: branches.to_vec(), ply: i + 1 };
            let marks = line.marks.get(&(i + 1)).map_or(&[][..], Vec::as_slice);
            parts.push(self.move_button(path, notation, notated.turned_up.get(&i), marks, false));
            if let Some(text) = line.comments.get(&(i + 1)) {
                parts.push(html! { <span class="comment">{ text.clone() }</span> });
            }
            let pairs = line.variations.get(&i).into_iter().flatten();
            let notated_alternatives = notated.variations.get(&i).into_iter().flatten();
            for (index, (alternative, notated)) in pairs.zip(notated_alternatives).enumerate() {
                let mut inner = branches.to_vec();
                inner.push(Branch { at: i, index });
                let nested = self.variation(alternative, notated, &inner, depth);
                parts.push(html! { <span class="nested">{ "(" }{ nested }{ ")" }</span> });
            }
        }
        html! { <>{ for parts }</> }
    }
}

/// The whole tree in one flow of text, as a game viewer prints it: `1. e4 e5 (1... c5 2. Nf3)
/// 2. Nf3 {comment}` — for the embed. `current_ref` gets the current move's element.
pub fn inline_tree(
    record: &GameRecord,
    notated: &Notated,
    current: &Path,
    dispatch: &Callback<Action>,
    current_ref: &NodeRef,
    lang: Lang,
    symbols: bool,
) -> Html {
    let ctx = Ctx { current, dispatch, current_ref: Some(current_ref), lang, symbols };
    let mut parts: Vec<Html> = Vec::new();
    if let Some(text) = record.comments.get(&0) {
        parts.push(comment_span(text));
    }
    let mut restate = false;
    for (i, notation) in notated.notations.iter().enumerate() {
        if let Some(number) = number(i, restate || i == 0) {
            parts.push(html! { <span class="move-number">{ number }</span> });
        }
        parts.push(ctx.main_line_move(record, notated, i, notation));
        restate = false;
        if let Some(text) = record.comments.get(&(i + 1)) {
            parts.push(comment_span(text));
            restate = true;
        }
        let alternatives = record.variations.get(&i).into_iter().flatten();
        let notated_alternatives = notated.variations.get(&i).into_iter().flatten();
        for (index, (alternative, notated)) in alternatives.zip(notated_alternatives).enumerate() {
            let line = ctx.variation(alternative, notated, &[Branch { at: i, index }], i);
            parts.push(html! { <span class="nested variation">{ "(" }{ line }{ ")" }</span> });
            restate = true;
        }
    }
    html! { <>{ for parts }</> }
}

/// A comment in a flow of moves: its start, and the whole in its title.
fn comment_span(text: &str) -> Html {
    const SHOWN: usize = 80;
    let shown: String = text.chars().take(SHOWN).collect();
    let cut = shown.len() < text.len();
    html! {
        <span class="comment" title={cut.then(|| text.to_owned())}>
            { shown }{ if cut { "…" } else { "" } }
        </span>
    }
}

/// The move list with its step buttons and tree tools.
#[function_component(MoveList)]
pub fn move_list(props: &MoveListProps) -> Html {
    let lang = props.lang;
    let record = &props.record;
    // The notation of every variation move: replayed only when the tree changes.
    // Xiangqi in Chinese for the 简体中文 interface (炮二平五), else the game's notation.
    let chinese = lang == qi_i18n::text::Lang::Zh;
    let notated = {
        let record = record.clone();
        use_memo((record, chinese), |(record, chinese)| record.notate_tree_in(*chinese))
    };
    let current = props.current.clone();
    let ctx = Ctx {
        current: &current,
        dispatch: &props.dispatch,
        current_ref: None,
        lang,
        symbols: props.symbols,
    };
    let act = |action: Action| {
        let dispatch = props.dispatch.clone();
        Callback::from(move |_: MouseEvent| dispatch.emit(action.clone()))
    };

    let mut rows: Vec<Html> = Vec::new();
    let mut row: Vec<Html> = Vec::new();
    let close = |row: &mut Vec<Html>, rows: &mut Vec<Html>| {
        if !row.is_empty() {
            let cells = std::mem::take(row);
            rows.push(html! { <li>{ for cells }</li> });
        }
    };
    for (i, notation) in notated.notations.iter().enumerate() {
        if i % 2 == 0 {
            close(&mut row, &mut rows);
        }
        if let Some(number) = number(i, row.is_empty()) {
            row.push(html! { <span class="move-number">{ number }</span> });
        }
        row.push(ctx.main_line_move(record, &notated, i, notation));
        let comment = record.comments.get(&(i + 1));
        let alternatives = record.variations.get(&i);
        if comment.is_some() || alternatives.is_some() {
            close(&mut row, &mut rows);
        }
        if let Some(text) = comment {
            let ply = (i + 1).to_string();
            rows.push(html! { <li class="comment" data-comment-ply={ply}>{ text.clone() }</li> });
        }
        let notated_alternatives = notated.variations.get(&i).into_iter().flatten();
        for (index, (alternative, notated)) in
            alternatives.into_iter().flatten().zip(notated_alternatives).enumerate()
        {
            let inner = [Branch { at: i, index }];
            let line = ctx.variation(alternative, notated, &inner, i);
            rows.push(html! { <li class="variation">{ line }</li> });
        }
    }
    close(&mut row, &mut rows);

    let at_start = current == Path::main(0);
    let live = props.live;
    let in_variation = !current.is_main_line();
    // Marks and a comment for the move shown.
    let notes = (props.editable && current.ply > 0).then(|| {
        let marks = record.marks_at(&current);
        let mark_buttons = Mark::MOVE_MARKS.iter().chain(&Mark::POSITION_MARKS[..]).map(|&mark| {
            let on = marks.contains(&mark);
            let symbol = mark.to_string();
            html! {
                <button type="button" class={classes!("mark", on.then_some("on"))}
                        aria-pressed={if on { "true" } else { "false" }} data-mark={mark.0.to_string()}
                        onclick={act(Action::Tree(TreeAction::ToggleMark(mark)))}>{ symbol }</button>
            }
        });
        let comment = record.comment_at(&current).unwrap_or_default().to_owned();
        let on_comment = {
            let dispatch = props.dispatch.clone();
            Callback::from(move |event: Event| {
                let Some(area) = event.target_dyn_into::<web_sys::HtmlTextAreaElement>() else { return };
                dispatch.emit(Action::Tree(TreeAction::SetComment(area.value())));
            })
        };
        html! {
            <div class="move-notes">
                <div class="marks-row" role="group" aria-label={t(lang, Text::Marks)}>{ for mark_buttons }</div>
                <textarea class="comment-box" data-testid="comment-box" rows="2"
                          aria-label={t(lang, Text::CommentLabel)} placeholder={t(lang, Text::CommentLabel)}
                          maxlength="2000" value={comment} onchange={on_comment} />
            </div>
        }
    });
    let tools = (props.editable && !live).then(|| {
        html! {
            <div class="tree-tools">
                if in_variation {
                    <button type="button" data-testid="promote" onclick={act(Action::Tree(TreeAction::EditTree(TreeEdit::Promote)))}>{ t(lang, Text::PromoteVariation) }</button>
                    <button type="button" data-testid="make-main-line" onclick={act(Action::Tree(TreeAction::EditTree(TreeEdit::MakeMainLine)))}>{ t(lang, Text::MakeMainLine) }</button>
                }
                if !at_start {
                    <button type="button" data-testid="delete-from-here" onclick={act(Action::Tree(TreeAction::EditTree(TreeEdit::Delete)))}>{ t(lang, Text::DeleteFromHere) }</button>
                }
            </div>
        }
    });
    html! {
        <section class="move-list" aria-label={t(lang, Text::Moves)}>
            <h2>{ t(lang, Text::Moves) }</h2>
            <div class="steps">
                <button type="button" onclick={act(Action::Tree(TreeAction::First))} disabled={at_start}>{ t(lang, Text::StartPosition) }</button>
                <button type="button" aria-label={t(lang, Text::Previous)} onclick={act(Action::Tree(TreeAction::StepBack))}
                        disabled={at_start}>{ "◀" }</button>
                <button type="button" aria-label={t(lang, Text::Next)} onclick={act(Action::Tree(TreeAction::StepForward))}
                        disabled={live}>{ "▶" }</button>
                <button type="button" onclick={act(Action::Tree(TreeAction::View(None)))} disabled={live}>{ t(lang, Text::BackToGame) }</button>
            </div>
            if let Some(text) = record.comments.get(&0) {
                <p class="comment" data-comment-ply="0">{ text.clone() }</p>
            }
            <ol class="moves">{ for rows }</ol>
            { tools.unwrap_or_default() }
            { notes.unwrap_or_default() }
        </section>
    }
}

/// Soosõrv-8's declaration (`offers=3`) and offers (`offer=h9`) in words; `None` for any other
/// move.
fn opening_step_words(lang: Lang, notation: &str) -> Option<String> {
    if let Some(count) = notation.strip_prefix("offers=") {
        return Some(qi_i18n::text::fill(t(lang, Text::OfferCount), "n", count));
    }
    let point = notation.strip_prefix("offer=")?;
    Some(qi_i18n::text::fill(t(lang, Text::OfferMove), "point", point))
}
