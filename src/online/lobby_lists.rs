//! The lobby's live lists: the open challenges (one click accepts) and the games being played,
//! each with a small board that follows the game (one click watches).

use qi_protocol::Variant;
use std::rc::Rc;

use qi_protocol::{ChallengeRow, LiveRow, ShownRating};
use qi_rules::any::{AnyGame, StartFrom};
use qi_rules::{Cell, Side};
use yew::prelude::*;

use super::labels::{spec_label, variant_name};
use super::session::{Intent, LobbyRows};
use super::texts::{Words, say};
use crate::board::Board;
use crate::board_model::board_view;
use crate::state::{Action, Mode, PlayState, Settings};
use qi_i18n::text::{Lang, fill_all, side_name};
use qi_play::record::{GameRecord, Start};

/// A filter's label.
fn filter_label(lang: Lang, filter: Option<Variant>) -> String {
    match filter {
        None => say(lang, Words::AllGames).to_owned(),
        Some(variant) => variant_name(lang, variant),
    }
}

/// A player as the lobby shows them: a signed-in player's name marked as an account (a link
/// to their profile where the row is not itself a link) with the rating beside it in its own
/// element, so that a guest who puts "(2800)" in their name does not look rated.
fn who(name: String, rating: Option<ShownRating>, link: bool) -> Html {
    let Some(rating) = rating else { return html! { {name} } };
    let shown = if link {
        html! { <a class="account-name" href={super::address::profile_href(&name)} data-action="profile">{ name }</a> }
    } else {
        html! { <span class="account-name">{ name }</span> }
    };
    html! {
        <>{ shown }{ " " }<span class="rating" data-testid="row-rating">{ format!("({rating})") }</span></>
    }
}

/// The board of `row` as a small picture, from its position (`None` when the position does
/// not set up, which a sound server never sends).
fn preview(settings: &Settings, row: &LiveRow) -> Option<Html> {
    let game = AnyGame::with_rules(row.spec.rules, &StartFrom::Position(&row.position)).ok()?;
    let record = GameRecord::from_parts(
        game.kind(),
        game.rules_list(),
        Start::Position(row.position.clone()),
        Vec::new(),
    );
    let mut state = PlayState::new(Settings { mode: Mode::Watch, ..settings.clone() }, 0);
    state.apply(Action::Open { record, bottom: Some(Side::First), at: None, notice: None });
    let view = Rc::new(board_view(&state));
    let ignore_cell = Callback::from(|_: Cell| {});
    let ignore_drop = Callback::from(|_: (Cell, Cell)| {});
    Some(html! {
        <div class="preview-board" aria-hidden="true" inert=true>
            <Board {view} on_click={ignore_cell.clone()} on_pick={ignore_cell} on_drop={ignore_drop} />
        </div>
    })
}

/// Properties of [`LobbyLists`].
#[derive(Properties, PartialEq)]
pub struct LobbyListsProps {
    /// The boards' settings (language, theme, piece style).
    pub settings: Settings,
    /// The rows.
    pub rows: LobbyRows,
    /// The filter chosen.
    pub filter: Option<Variant>,
    /// Choose a filter.
    pub on_filter: Callback<Option<Variant>>,
    /// Whether messages can go now.
    pub ready: bool,
    /// What the player does.
    pub act: Callback<Intent>,
    /// What goes between the open challenges and the games being played: the lobby's form
    /// (on a phone the challenges come first, so that Accept is on the first screen).
    #[prop_or_default]
    pub between: Html,
}

fn challenge_row(lang: Lang, row: &ChallengeRow, ready: bool, act: &Callback<Intent>) -> Html {
    // This browser's own challenge (from another tab): it holds the seat, so it goes back to
    // the game rather than playing itself.
    let own = crate::web::load(&super::seat_key(&row.game)).is_some();
    let side =
        side_name(lang, row.spec.variant().kind(), crate::online::game::side_of(row.seat), None);
    let name =
        if row.name.is_empty() { say(lang, Words::Anonymous).to_owned() } else { row.name.clone() };
    let creator = who(name, row.rating, true);
    let onclick = {
        let (act, game) = (act.clone(), row.game.clone());
        Callback::from(move |_: MouseEvent| act.emit(Intent::Accept(game.clone())))
    };
    html! {
        <li class={classes!("challenge", row.spec.rated.then_some("rated"))} data-testid="challenge" data-game={row.game.clone()}
            data-variant={row.spec.variant().name()} data-rated={row.spec.rated.to_string()}>
            <span class="challenge-who">{ creator }</span>
            <span class="challenge-game">{ spec_label(lang, &row.spec) }</span>
            <span class="challenge-side">{ fill_all(say(lang, Words::PlaysSide), &[("side", side)]) }</span>
            if own {
                <a class="button" href={format!("?game={}", row.game)} data-action="open-own">{ say(lang, Words::YourChallenge) }</a>
            } else {
                <button type="button" class="primary" data-action="accept" disabled={!ready} {onclick}>{ say(lang, Words::Accept) }</button>
            }
        </li>
    }
}

/// A game being played as a list item: its board, players, game and watchers, linking to
/// `page` (the online page's address, relative) to watch it — in the whole window when `framed`
/// (the "watch live" page, framed by the app).
pub fn live_row(settings: &Settings, row: &LiveRow, page: &str, framed: bool) -> Html {
    let lang = settings.lang;
    let name = |name: &String| {
        if name.is_empty() { say(lang, Words::Anonymous).to_owned() } else { name.clone() }
    };
    html! {
        <li class="live-game" data-testid="live-game" data-game={row.game.clone()} data-variant={row.spec.variant().name()} data-rated={row.spec.rated.to_string()}>
            <a href={format!("{page}?game={}", row.game)} data-action="watch-game" target={framed.then_some("_top")}>
                { preview(settings, row).unwrap_or_default() }
                <span class="live-players">
                    { who(name(&row.names[0]), row.ratings[0], false) }{ " – " }{ who(name(&row.names[1]), row.ratings[1], false) }
                </span>
                <span class="live-game-label">{ spec_label(lang, &row.spec) }</span>
                <span class="live-watchers">{ fill_all(say(lang, Words::WatchersCount), &[("n", &row.watchers.to_string())]) }</span>
            </a>
        </li>
    }
}

/// The open challenges and the games being played.
#[function_component(LobbyLists)]
pub fn lobby_lists(props: &LobbyListsProps) -> Html {
    let lang = props.settings.lang;
    let filters = qi_protocol::LOBBY_FILTERS.map(|filter| {
        let current = props.filter == filter;
        let onclick = {
            let on_filter = props.on_filter.clone();
            Callback::from(move |_: MouseEvent| on_filter.emit(filter))
        };
        html! {
            <button type="button" class={classes!("game-tab", current.then_some("current"))}
                    data-filter={filter.map_or("all", Variant::name)} aria-pressed={current.to_string()} {onclick}>
                { filter_label(lang, filter) }
            </button>
        }
    });
    let challenges = props
        .rows
        .challenges
        .iter()
        .take(qi_protocol::LOBBY_MAX_CHALLENGES)
        .map(|row| challenge_row(lang, row, props.ready, &props.act));
    let games = props.rows.games.iter().map(|row| live_row(&props.settings, row, "", false));
    html! {
        <>
            <section class="panel lobby-lists open-challenges" data-testid="challenges" aria-labelledby="challenges-heading">
                <h2 id="challenges-heading">{ say(lang, Words::OpenChallenges) }</h2>
                <div class="game-picker lobby-filter" role="group">{ for filters }</div>
                // A box of its own height, whatever the rows: the form below does not move as
                // challenges come and go (a longer list scrolls inside).
                <div class="challenge-box">
                    if props.rows.challenges.is_empty() {
                        <p class="empty">{ say(lang, Words::NoChallenges) }</p>
                    } else {
                        <ul class="challenge-list">{ for challenges }</ul>
                    }
                </div>
            </section>
            { props.between.clone() }
            <section class="panel lobby-lists games-now" data-testid="games-now" aria-labelledby="games-now-heading">
                <h2 id="games-now-heading">{ say(lang, Words::GamesNow) }</h2>
                if props.rows.games.is_empty() {
                    <p class="empty">{ say(lang, Words::NoGamesNow) }</p>
                } else {
                    <ul class="live-list">{ for games }</ul>
                }
            </section>
        </>
    }
}
