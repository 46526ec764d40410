//! The page as drawn from the session: the header with the connection's state, then the lobby,
//! an invite to take, the game, or the plain message that online play needs the server.

use std::rc::Rc;

use qi_protocol::{ChatRoom, Seat, Status};
use qi_rules::Side;
use yew::prelude::*;

use super::account::AccountState;
use super::account_box::AccountBox;
use super::chat::ChatPanel;
use super::game::{OnlineGame, review_href};
use super::labels::spec_label;
use super::lobby::Lobby;
use super::profile::Profile;
use super::session::{Intent, Link, Session};
use super::texts::{Words, say};
use super::tournament::{TournamentList, TournamentPage};
use super::view::{GameButtons, LinkField, note_text, player_bar_for, status_panel};
use crate::board::Board;
use crate::board_model::board_view;
use crate::components::SharedState;
use crate::components::dialogs::{PromotionDialog, promoting_colour};
use crate::components::move_list::MoveList;
use crate::state::{Action, Theme, TreeAction};
use crate::web;
use qi_i18n::text::{Lang, fill_all};

/// The server's clocks in words (`White 4:58, Black 5:00`), for the screen-reader mode's
/// `clock`; `None` for a game without a clock.
fn online_clocks(game: &OnlineGame, now: f64) -> Option<AttrValue> {
    let said: Vec<String> = [Seat::First, Seat::Second]
        .into_iter()
        .map(|seat| {
            let left = game.remaining_ms(seat, now)?;
            let seconds = (left / 1000.0).max(0.0) as u64;
            let side =
                crate::components::status::side_label(&game.board, super::game::side_of(seat));
            Some(format!("{side} {}:{:02}", seconds / 60, seconds % 60))
        })
        .collect::<Option<_>>()?;
    Some(said.join(", ").into())
}

/// The page's address without its query or fragment: where its links point.
fn page_base() -> String {
    let href = web::location_href();
    let end = href.find(['?', '#']).unwrap_or(href.len());
    href[..end].to_owned()
}

/// Properties of [`RetryIn`].
#[derive(Properties, PartialEq)]
pub struct RetryInProps {
    /// The interface language.
    pub lang: Lang,
    /// What to say, with `{s}` for the seconds.
    pub words: Words,
    /// The wait, in ms.
    pub after_ms: u32,
    /// Which attempt this is (a new one restarts the count).
    pub attempt: u32,
}

/// "Connection lost — trying again in N s" (or the like), counting down.
#[function_component(RetryIn)]
pub fn retry_in(props: &RetryInProps) -> Html {
    let since = use_memo((props.attempt, props.after_ms), |_| web::now_ms());
    let redraw = use_force_update();
    use_effect_with(props.attempt, move |_| {
        let stop = web::interval(500, move || redraw.force_update());
        move || {
            if let Some(stop) = stop {
                stop();
            }
        }
    });
    let left = (f64::from(props.after_ms) - (web::now_ms() - *since)).max(0.0);
    let seconds = ((left / 1000.0).ceil() as u32).to_string();
    html! { <>{ fill_all(say(props.lang, props.words), &[("s", &seconds)]) }</> }
}

/// The connection's state, in the header.
fn connection_badge(session: &Session, lang: Lang) -> Html {
    let (class, text) = match session.link {
        Link::Connecting | Link::Greeting => ("connecting", html! { say(lang, Words::Connecting) }),
        Link::Ready => ("connected", html! { say(lang, Words::Connected) }),
        Link::Retrying { after_ms } => (
            "retrying",
            html! {
                <RetryIn {lang} {after_ms} attempt={session.failures()}
                         words={if session.ever_connected { Words::Reconnecting } else { Words::NoServerYet }} />
            },
        ),
        Link::Outdated => ("outdated", html! { say(lang, Words::Outdated) }),
    };
    html! {
        <p class={classes!("connection", class)} role="status" data-testid="connection" data-state={class}>
            <span class="connection-dot" aria-hidden="true"></span>{ text }
        </p>
    }
}

fn language_picker(lang: Lang, act: &Callback<Intent>) -> Html {
    let onchange = {
        let act = act.clone();
        Callback::from(move |event: Event| {
            if let Some(select) = event.target_dyn_into::<web_sys::HtmlSelectElement>() {
                act.emit(Intent::SetLanguage(Lang::from_tag(&select.value())));
            }
        })
    };
    let options = Lang::ALL.map(|l| {
        html! { <option value={l.tag()} selected={l == lang}>{ l.native_name() }</option> }
    });
    html! {
        <select class="language" aria-label={qi_i18n::text::t(lang, qi_i18n::text::Text::Language)}
                data-testid="language" {onchange}>{ for options }</select>
    }
}

/// A card in place of the lobby or the game.
fn card(class: &'static str, content: Html) -> Html {
    html! { <section class={classes!("panel", "card", class)} data-testid={class}>{ content }</section> }
}

/// The plain message when no server answers.
fn needs_server(session: &Session, lang: Lang, act: &Callback<Intent>) -> Html {
    let retry = {
        let act = act.clone();
        Callback::from(move |_: MouseEvent| act.emit(Intent::Retry))
    };
    card(
        "needs-server",
        html! {
            <>
                <h2>{ say(lang, Words::NeedsServer) }</h2>
                <p>{ say(lang, Words::NeedsServerRetry) }</p>
                <div class="card-buttons">
                    <button type="button" class="primary" data-action="retry" onclick={retry}
                            disabled={!matches!(session.link, Link::Retrying { .. })}>{ say(lang, Words::TryAgain) }</button>
                    <a class="button" href="../">{ say(lang, Words::PlayOnThisDevice) }</a>
                </div>
            </>
        },
    )
}

/// An invite to take: the name, then join.
fn invite_card(session: &Session, lang: Lang, act: &Callback<Intent>) -> Html {
    let on_name = {
        let act = act.clone();
        Callback::from(move |event: InputEvent| {
            if let Some(input) = event.target_dyn_into::<web_sys::HtmlInputElement>() {
                act.emit(Intent::SetName(input.value()));
            }
        })
    };
    let join = {
        let act = act.clone();
        Callback::from(move |_: MouseEvent| act.emit(Intent::Join))
    };
    card(
        "invite",
        html! {
            <>
                <h2>{ say(lang, Words::Invited) }</h2>
                <label class="field">
                    <span>{ say(lang, Words::YourName) }</span>
                    <input type="text" data-testid="name" maxlength="20" autocomplete="nickname"
                           placeholder={say(lang, Words::Anonymous)} value={session.name.clone()} oninput={on_name} />
                </label>
                <div class="card-buttons">
                    <button type="button" class="primary" data-action="join" onclick={join}>{ say(lang, Words::JoinGame) }</button>
                </div>
            </>
        },
    )
}

/// The game: the board between the players, and the panels beside it.
fn game_screen(session: &Session, game: &OnlineGame, act: &Callback<Intent>) -> Html {
    let lang = session.settings.lang;
    let now = web::now_ms();
    let board = &game.board;
    let mut view = board_view(board);
    // Online the game is the server's: no side lines while stepping back. On the opponent's
    // turn the board takes a move to queue (a premove).
    view.interactive &= (game.can_move() || board.premove_allowed()) && board.viewing.is_none();
    let (files, ranks) = (view.geometry.files, view.geometry.ranks);
    let view = Rc::new(view);
    let dispatch = {
        let act = act.clone();
        Callback::from(move |action: Action| act.emit(Intent::Board(Box::new(action))))
    };
    // The server keeps the clocks: the board's actions carry no time of their own.
    let crate::components::BoardInput { on_click, on_pick, on_drop } =
        crate::components::board_input(&dispatch, || 0.0);
    let flip = {
        let dispatch = dispatch.clone();
        Callback::from(move |()| dispatch.emit(Action::Tree(TreeAction::FlipBoard)))
    };
    let (top, bottom) =
        if board.flipped { (Seat::First, Seat::Second) } else { (Seat::Second, Seat::First) };
    let you = game.you;
    let opponent_away = you.is_some_and(|seat| {
        let other = &game.players[seat.other().index()];
        other.name.is_some() && !other.connected
    });
    let ended = matches!(game.status, Status::Ended { .. });
    let focus = session.focus.as_ref();
    let base = page_base();
    let invite = focus
        .and_then(|f| f.invite.as_ref())
        .filter(|_| game.status == Status::Waiting)
        .map(|invite| format!("{base}?game={}&invite={invite}", game.id));
    let watch = format!("{base}?game={}", game.id);
    let review = game
        .review_record()
        .filter(|_| ended)
        .map(|record| review_href(&record, if board.flipped { Side::Second } else { Side::First }));
    let shared = SharedState(board.clone());
    let buttons = html! {
        <GameButtons {lang} player={you.is_some()} playing={game.status == Status::Playing}
                     waiting={game.status == Status::Waiting} {ended}
                     ready={session.link == Link::Ready} can_abort={!game.both_have_moved()} {opponent_away}
                     draw_offered={game.draw_offer.is_some_and(|by| Some(by) != you)}
                     draw_sent={game.draw_offer.is_some() && game.draw_offer == you}
                     takeback_offered={game.takeback_offer.is_some_and(|by| Some(by) != you)}
                     takeback={!game.spec.rated} can_ask_takeback={game.can_ask_takeback()}
                     rematch_offered={game.rematch_offer.is_some_and(|by| Some(by) != you)}
                     rematch_sent={game.rematch_offer.is_some() && game.rematch_offer == you}
                     act={act.clone()} {flip} />
    };
    html! {
        <main class="play" data-current-game={game.game.kind().name()} data-game-id={game.id.clone()}>
            <section class="board-area">
                <div class="online-board" style={format!("--files: {files}; --ranks: {ranks};")}>
                    { player_bar_for(game, top, lang, now) }
                    <Board {view} {on_click} {on_pick} {on_drop} />
                    { player_bar_for(game, bottom, lang, now) }
                </div>
            </section>
            <aside class="side">
                <p class="game-label">{ spec_label(lang, &game.spec) }</p>
                if shared.get().settings.screen_reader {
                    <crate::screen_reader::ScreenReaderPanel state={shared.clone()} dispatch={dispatch.clone()}
                        clocks={online_clocks(game, now).map_or(crate::screen_reader::PageClocks::None, crate::screen_reader::PageClocks::Said)} />
                }
                { status_panel(game, session.note.as_ref(), lang) }
                if opponent_away && game.status == Status::Playing {
                    <p class="away-note">{ say(lang, Words::OpponentAway) }</p>
                }
                { buttons }
                if game.can_move() && board.colour_choice_due() {
                    <div class="game-buttons"><div class="colour-choice" role="group" aria-label={qi_i18n::text::t(lang, qi_i18n::text::Text::ChooseColour)}>
                        <p>{ qi_i18n::text::t(lang, if board.stones_instead_of_colour() { qi_i18n::text::Text::ChooseColourOrTwoMore } else { qi_i18n::text::Text::ChooseColour }) }</p>
                        { for [(qi_rules::Side::First, "take-black", qi_i18n::text::Text::TakeBlack), (qi_rules::Side::Second, "take-white", qi_i18n::text::Text::TakeWhite)].into_iter().map(|(colour, action, text)| {
                            let dispatch = dispatch.clone();
                            html! {
                                <button type="button" data-action={action}
                                        onclick={Callback::from(move |_: MouseEvent| dispatch.emit(Action::TakeColour { colour, now: 0.0 }))}>
                                    { qi_i18n::text::t(lang, text) }
                                </button>
                            }
                        }) }
                    </div></div>
                }
                if game.can_move() && board.offer_count_due() {
                    <div class="game-buttons">{ crate::components::controls::offer_count_buttons(lang, &{
                        let dispatch = dispatch.clone();
                        Callback::from(move |count| dispatch.emit(Action::DeclareOffers { count, now: 0.0 }))
                    }, None) }</div>
                }
                if game.can_move() && board.chain_in_progress() {
                    <div class="game-buttons"><button type="button" data-action="end-chain" onclick={
                        let dispatch = dispatch.clone();
                        Callback::from(move |_: MouseEvent| dispatch.emit(Action::EndChain { now: 0.0 }))
                    }>{ qi_i18n::text::t(lang, qi_i18n::text::Text::EndChain) }</button></div>
                }
                if let Some(invite) = invite {
                    <div class="panel links">
                        <LinkField {lang} label={Words::InviteLink} value={invite} testid="invite-link" />
                        <LinkField {lang} label={Words::WatchLink} value={watch.clone()} testid="watch-link" />
                    </div>
                }
                <MoveList record={shared.get().record.clone()} current={shared.get().shown_path()} live={shared.get().viewing.is_none()} lang={shared.get().settings.lang} symbols={shared.get().settings.piece_symbols} dispatch={dispatch.clone()} editable={false} />
                <p class="watchers" data-testid="watchers" data-count={game.watchers.to_string()}>
                    { fill_all(say(lang, Words::WatchersCount), &[("n", &game.watchers.to_string())]) }
                    if you.is_none() { { " · " }{ say(lang, Words::Watching) } }
                </p>
                <ChatPanel {lang} room={if you.is_some() { ChatRoom::Players } else { ChatRoom::Spectators }}
                           {you} lines={game.chat.clone()} muted={focus.is_some_and(|f| f.muted)}
                           ready={session.link == Link::Ready} name={session.name.clone()} act={act.clone()} />
                if let Some(review) = review {
                    <a class="button review" href={review} data-action="review">{ say(lang, Words::ReviewInApp) }</a>
                }
                if let Some(tournament) = &game.tournament {
                    <a class="button" href={format!("?tournament={tournament}&from={}", game.id)} data-action="back-to-tournament">{ say(lang, Words::BackToTournament) }</a>
                }
                if let Some(deal) = game.deal.clone().filter(|_| ended) {
                    <p class="deal"><span>{ say(lang, Words::TheDeal) }</span><code>{ deal }</code></p>
                }
                if game.status != Status::Waiting && you.is_some() {
                    <details class="panel links">
                        <summary>{ say(lang, Words::WatchLink) }</summary>
                        <LinkField {lang} label={Words::WatchLink} value={watch} testid="watch-link" />
                    </details>
                }
            </aside>
            <PromotionDialog pending={shared.get().promotion.clone()} colour={promoting_colour(shared.get())} lang={shared.get().settings.lang} {dispatch} />
        </main>
    }
}

/// The whole page; `account` is the account as the server's HTTP API says, and `on_account`
/// takes its changes.
pub fn page(
    session: &Session,
    account: &AccountState,
    on_account: &Callback<AccountState>,
    act: &Callback<Intent>,
) -> Html {
    let lang = session.settings.lang;
    let theme = if session.settings.theme == Theme::Dark { "theme-dark" } else { "theme-light" };
    let focus = session.focus.as_ref();
    let in_lobby = session.in_lobby();
    let signed_in = session.account.is_some() || account.name().is_some();
    let content = if let Some(name) = &session.profile {
        html! { <Profile {lang} name={name.clone()} /> }
    } else if let Some((id, from)) = &session.tournament {
        html! { <TournamentPage {lang} id={id.clone()} framed=false {signed_in} came_from={from.clone()} /> }
    } else if !session.ever_connected && matches!(session.link, Link::Retrying { .. }) {
        needs_server(session, lang, act)
    } else if session.link == Link::Outdated {
        card("outdated", html! { <h2>{ say(lang, Words::Outdated) }</h2> })
    } else if let Some(game) = session.game() {
        game_screen(session, game, act)
    } else if !session.ever_connected && !in_lobby {
        card("connecting", html! { <p>{ say(lang, Words::Connecting) }</p> })
    } else if focus.is_some() {
        card("opening", html! { <p>{ say(lang, Words::OpeningGame) }</p> })
    } else if session.invite.is_some() {
        invite_card(session, lang, act)
    } else {
        let account_box = html! {
            <AccountBox {lang} state={account.clone()} on_change={on_account.clone()} />
        };
        // Signed in: the username is the name (the socket's word first, then the API's).
        let signed_in = session.account.clone().or_else(|| account.name().map(str::to_owned));
        let signed_in_now = signed_in.is_some();
        html! {
            <>
                <Lobby {lang} name={session.name.clone()} account={signed_in} {account_box} seeking={session.seeking.clone()}
                       settings={session.settings.clone()} rows={session.lobby.clone()}
                       ready={session.link == Link::Ready} act={act.clone()} />
                <TournamentList {lang} signed_in={signed_in_now} />
            </>
        }
    };
    // Outside a game, what the server said shows above the content.
    let note = session.note.as_ref().filter(|_| session.game().is_none());
    html! {
        <div class={classes!("app", "online", theme)} lang={lang.tag()}>
            <header class="top">
                <h1>{ say(lang, Words::Title) }</h1>
                <nav class="online-nav">
                    <a href="../" data-action="local">{ say(lang, Words::PlayOnThisDevice) }</a>
                    if !in_lobby {
                        <a href="./" data-action="lobby">{ say(lang, Words::Lobby) }</a>
                    }
                    { language_picker(lang, act) }
                </nav>
                { connection_badge(session, lang) }
            </header>
            if let Some(note) = note {
                <div class="page-note">{ note_text(lang, None, note) }</div>
            }
            // A game is its own `<main>`; the lobby and the other pages get one here.
            if session.game().is_some() {
                { content }
            } else {
                <main class="online-main">{ content }</main>
            }
        </div>
    }
}
