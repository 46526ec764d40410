//! Tournaments on the online page: the lobby's list with the form that creates one
//! ([`TournamentList`]), and a tournament's page ([`TournamentPage`], `online/?tournament=<id>`,
//! where the server sends the short link `/t/<id>`): its standings, the games going and the
//! latest results, joining and withdrawing, the links to share, embed and download it. Framed
//! on another site (`&embed`), the page is the live standings and the games going alone.
//!
//! Both read the server's HTTP API ([`super::account`]) and read it again every few seconds
//! while shown; when the reader's next game is paired the page takes them to it.

use std::cell::Cell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::time::Duration;

use qi_protocol::tournament::{
    Clock, Family, Format, Spec, StandingView, TournamentGameView, TournamentLists,
    TournamentSummary, TournamentView,
};
use qi_protocol::{AccountError, AccountErrorCode, ClockSpec};
use yew::prelude::*;

use super::account;
use super::address::{id_ok, profile_href};
use super::labels::{clock_label, variant_label};
use super::texts::{Words, say, shown_text};
use crate::web;
use qi_i18n::text::{Lang, fill_all};

/// How often a tournament's page reads it again (the API allows 120 reads a minute an address).
const PAGE_POLL_MS: u64 = 3_000;
/// How often the lobby's list is read again.
const LIST_POLL_MS: u64 = 20_000;
/// How many tournaments of each kind the lobby lists.
const LISTED: usize = 8;
/// How many lines of the standings a frame shows.
const FRAMED_LINES: usize = 20;
/// The longest tournament name shown.
const NAME_CHARS: usize = 60;

/// A tournament's format in words: `Arena · 30 min`, `Swiss · 5 × Rounds`, `Round robin`.
fn format_label(lang: Lang, format: &Format) -> String {
    match format {
        Format::Arena { minutes, .. } => {
            format!("{} · {minutes} min", say(lang, Words::FormatArena))
        }
        Format::Swiss { rounds, .. } => {
            format!(
                "{} · {}: {rounds}",
                say(lang, Words::FormatSwiss),
                say(lang, Words::SwissRounds)
            )
        }
        Format::RoundRobin { cycles: 2, .. } => {
            format!("{} × 2", say(lang, Words::FormatRoundRobin))
        }
        Format::RoundRobin { .. } => say(lang, Words::FormatRoundRobin).to_owned(),
    }
}

/// The summary's format name in words (`arena`, `swiss`, `round_robin`).
fn format_name(lang: Lang, name: &str) -> String {
    match name {
        "arena" => say(lang, Words::FormatArena).to_owned(),
        "swiss" => say(lang, Words::FormatSwiss).to_owned(),
        "round_robin" => say(lang, Words::FormatRoundRobin).to_owned(),
        other => other.to_owned(),
    }
}

fn clock_of(clock: Clock) -> Option<ClockSpec> {
    Some(ClockSpec { base_secs: clock.initial_seconds, increment_secs: clock.increment_seconds })
}

/// A time in Unix seconds, as the reader's language writes a date and time.
fn when(lang: Lang, unix_seconds: u64) -> String {
    let date = js_sys::Date::new(&wasm_bindgen::JsValue::from_f64(unix_seconds as f64 * 1000.0));
    date.to_locale_string(lang.tag(), &wasm_bindgen::JsValue::UNDEFINED).into()
}

/// Points as the standings write them: an arena's whole points, else half points (`2½`).
#[must_use]
pub fn points_text(points: u32, halves: bool) -> String {
    if !halves {
        return points.to_string();
    }
    match (points / 2, points % 2) {
        (0, 1) => "½".to_owned(),
        (whole, 1) => format!("{whole}½"),
        (whole, _) => whole.to_string(),
    }
}

/// Tie-breaks as the standings write them, from quarter points (`BH 7½ · SB 5¼`).
#[must_use]
pub fn tiebreaks_text(tiebreaks: &[(String, u64)]) -> String {
    tiebreaks
        .iter()
        .map(|(name, quarters)| {
            let whole = quarters / 4;
            let part = match quarters % 4 {
                1 => "¼",
                2 => "½",
                3 => "¾",
                _ => "",
            };
            let number = if whole == 0 && !part.is_empty() {
                part.to_owned()
            } else {
                format!("{whole}{part}")
            };
            format!("{name} {number}")
        })
        .collect::<Vec<_>>()
        .join(" · ")
}

/// The stage in words, with its time and round.
fn stage_line(lang: Lang, view: &TournamentView) -> String {
    let summary = &view.summary;
    let mut line = match summary.stage.as_str() {
        "upcoming" => {
            let at = when(lang, summary.starts_at);
            let at = fill_all(say(lang, Words::StartsAt), &[("time", &at)]);
            format!("{} · {at}", say(lang, Words::StageUpcoming))
        }
        "running" => say(lang, Words::StageRunning).to_owned(),
        "cancelled" => say(lang, Words::StageCancelled).to_owned(),
        _ => say(lang, Words::StageFinished).to_owned(),
    };
    if summary.stage == "running"
        && let Some(ends) = view.ends_at
    {
        let ends = fill_all(say(lang, Words::EndsAt), &[("time", &when(lang, ends))]);
        line = format!("{line} · {ends}");
    }
    if let Some((round, rounds)) = view.round.filter(|(round, _)| *round > 0) {
        let (round, rounds) = (round.to_string(), rounds.to_string());
        let said = fill_all(say(lang, Words::RoundOf), &[("r", &round), ("n", &rounds)]);
        line = format!("{line} · {said}");
    }
    line
}

/// Where the links of a framed page go: the online page (the frame is the "watch live" page,
/// `tv/`, on another site).
const ONLINE_FROM_FRAME: &str = "../online/";

/// A game of the tournament, as a list line: `White – Black`, its result, a link to watch it.
fn game_line(lang: Lang, game: &TournamentGameView, framed: bool) -> Html {
    let names = format!(
        "{} – {}",
        shown_text(&game.white, qi_protocol::NAME_MAX_CHARS),
        shown_text(&game.black, qi_protocol::NAME_MAX_CHARS)
    );
    let base = if framed { ONLINE_FROM_FRAME } else { "" };
    let href = id_ok(&game.id).then(|| format!("{base}?game={}", game.id));
    let result = game.result.clone().filter(|r| r.len() <= 8);
    html! {
        <li data-testid="tournament-game" data-game={game.id.clone()} data-result={result.clone()}>
            if let Some(round) = game.round { <span class="round">{ format!("{round}. ") }</span> }
            <span class="names">{ names }</span>
            if let Some(result) = result { <span class="result">{ format!(" {result}") }</span> }
            if let Some(href) = href {
                { " · " }
                <a {href} data-action="watch-game" target={framed.then_some("_top")}>{ say(lang, Words::WatchGame) }</a>
            }
        </li>
    }
}

/// The standings as a table (at most `lines` of it).
fn standings_table(
    lang: Lang,
    standings: &[StandingView],
    arena: bool,
    lines: usize,
    framed: bool,
) -> Html {
    let base = if framed { ONLINE_FROM_FRAME } else { "" };
    let rows = standings.iter().take(lines).map(|row| {
        let name = shown_text(&row.name, qi_protocol::NAME_MAX_CHARS);
        let extra = if arena {
            row.performance.map(|p| p.to_string()).unwrap_or_default()
        } else {
            tiebreaks_text(&row.tiebreaks)
        };
        let fire = say(lang, Words::OnFire);
        html! {
            <tr data-testid="standing" data-name={name.clone()} data-points={row.points.to_string()}
                data-rank={row.rank.to_string()} class={classes!((!row.active).then_some("inactive"))}>
                <td class="rank">{ row.rank }</td>
                <td class="player">
                    <a href={format!("{base}{}", profile_href(&name))} data-action="player-profile" target={framed.then_some("_top")}>{ name.clone() }</a>
                    if row.on_fire { <span class="fire" title={fire} aria-label={fire}>{ " 🔥" }</span> }
                    if !row.active { <span class="muted">{ format!(" ({})", say(lang, Words::NotPlaying)) }</span> }
                </td>
                <td class="points">{ points_text(row.points, row.halves) }</td>
                <td class="tiebreaks">{ extra }</td>
            </tr>
        }
    });
    let last = if arena { Words::ColumnPerformance } else { Words::ColumnTiebreaks };
    html! {
        <div class="profile-games-scroll">
            <table class="standings" data-testid="standings">
                <thead><tr>
                    <th scope="col">{ "#" }</th>
                    <th scope="col">{ say(lang, Words::ColumnPlayer) }</th>
                    <th scope="col">{ say(lang, Words::ColumnPoints) }</th>
                    <th scope="col">{ say(lang, last) }</th>
                </tr></thead>
                <tbody>{ for rows }</tbody>
            </table>
        </div>
    }
}

/// An answer of the API, boxed to be asked for again.
type Fetch<T> = Pin<Box<dyn Future<Output = Result<T, AccountError>>>>;

/// Reads `fetch` now and every `period_ms` into `state`, until `done` says the answer will
/// not change any more or the returned function is called (the effect's clean-up). A failed
/// read (a refused one: 120 reads a minute an address) keeps the last answer shown.
fn poll<T: 'static>(
    state: UseStateHandle<Option<Result<T, AccountError>>>,
    period_ms: u64,
    fetch: impl Fn() -> Fetch<T> + 'static,
    done: fn(&T) -> bool,
) -> impl FnOnce() {
    let alive = Rc::new(Cell::new(true));
    let running = Rc::clone(&alive);
    yew::platform::spawn_local(async move {
        let mut shown = false;
        while running.get() {
            let answer = fetch().await;
            if !running.get() {
                break;
            }
            let finished = answer.as_ref().is_ok_and(done);
            if answer.is_ok() || !shown {
                shown |= answer.is_ok();
                state.set(Some(answer));
            }
            if finished {
                break;
            }
            yew::platform::time::sleep(Duration::from_millis(period_ms)).await;
        }
    });
    move || alive.set(false)
}

/// Whether a tournament's page will not change any more.
fn over(view: &TournamentView) -> bool {
    matches!(view.summary.stage.as_str(), "finished" | "cancelled")
}

/// The words of a refusal: the server's detail, else its code's words.
fn refusal_text(lang: Lang, error: &AccountError) -> String {
    if error.detail.is_empty() {
        say(lang, super::account_box::error_words(error.code)).to_owned()
    } else {
        error.detail.clone()
    }
}

/// Properties of [`TournamentPage`].
#[derive(Properties, PartialEq)]
pub struct TournamentPageProps {
    /// The interface language.
    pub lang: Lang,
    /// The tournament.
    pub id: String,
    /// In another site's frame: the standings and games alone.
    pub framed: bool,
    /// Whether this browser is signed in (as the page knows it).
    pub signed_in: bool,
    /// The game the reader comes back from: not gone to again (its result may not be counted
    /// yet).
    #[prop_or_default]
    pub came_from: Option<String>,
}

/// A tournament's page.
#[function_component(TournamentPage)]
pub fn tournament_page(props: &TournamentPageProps) -> Html {
    let lang = props.lang;
    let answer = use_state(|| None::<Result<TournamentView, AccountError>>);
    let refresh = use_state(|| 0_u32);
    let password = use_state(String::new);
    let refused = use_state(|| None::<String>);
    {
        let answer = answer.clone();
        use_effect_with((props.id.clone(), *refresh), move |(id, _)| {
            let id = id.clone();
            let fetch = move || -> Fetch<TournamentView> {
                let id = id.clone();
                Box::pin(async move { account::tournament(&id).await })
            };
            poll(answer, PAGE_POLL_MS, fetch, over)
        });
    }
    // The reader's game, once paired: the page goes to it, in its place (the back button then
    // leads past it, not back to a page that would go to the game again).
    let my_game = answer.as_ref().and_then(|a| a.as_ref().ok()).and_then(|v| v.my_game.clone());
    let my_game = my_game.filter(|game| props.came_from.as_ref() != Some(game));
    {
        let framed = props.framed;
        use_effect_with(my_game, move |game| {
            if let Some(game) = game.as_ref().filter(|g| id_ok(g) && !framed) {
                web::replace_with(&format!("?game={game}"));
            }
        });
    }
    let Some(answer) = answer.as_ref() else {
        return html! {
            <section class="panel tournament" data-testid="tournament" data-state="loading">
                <p>{ say(lang, Words::TournamentLoading) }</p>
            </section>
        };
    };
    let view = match answer {
        Ok(view) => view,
        Err(error) => {
            let words = if error.code == AccountErrorCode::NotFound {
                Words::TournamentNotFound
            } else {
                super::account_box::error_words(error.code)
            };
            return html! {
                <section class="panel tournament" data-testid="tournament" data-state="error">
                    <p class="profile-error" data-testid="tournament-error">{ say(lang, words) }</p>
                    if !props.framed { <p><a href="./" data-action="lobby">{ say(lang, Words::BackToLobby) }</a></p> }
                </section>
            };
        }
    };
    let arena = matches!(view.spec.format, Format::Arena { .. });
    let summary = &view.summary;
    let players = fill_all(say(lang, Words::PlayersCount), &[("n", &summary.players.to_string())]);
    let heading = html! {
        <>
            <h2 data-testid="tournament-name">{ shown_text(&summary.name, NAME_CHARS) }</h2>
            <p class="tournament-facts">
                { variant_label(lang, &summary.game) }{ " · " }{ clock_label(lang, clock_of(summary.clock)) }{ " · " }
                { format_label(lang, &view.spec.format) }{ " · " }
                { say(lang, if summary.rated { Words::Rated } else { Words::Casual }) }
                if summary.private { { " · " }{ say(lang, Words::PrivateTournament) } }
                { " · " }<span data-testid="players" data-count={summary.players.to_string()}>{ players }</span>
            </p>
            <p class="tournament-stage" data-testid="tournament-stage" data-stage={summary.stage.clone()}>{ stage_line(lang, view) }</p>
        </>
    };
    let playing = if view.playing.is_empty() {
        html! { <p class="empty">{ say(lang, Words::NoGamesGoing) }</p> }
    } else {
        let lines = view.playing.iter().map(|g| game_line(lang, g, props.framed));
        html! { <ul class="tournament-games" data-testid="tournament-playing">{ for lines }</ul> }
    };
    let base = web::location_href();
    let base = base.split(['?', '#']).next().unwrap_or_default().to_owned();
    if props.framed {
        let page = format!("{ONLINE_FROM_FRAME}?tournament={}", props.id);
        return html! {
            <section class="panel tournament framed" data-testid="tournament" data-state="shown" data-framed="true">
                { heading }
                { standings_table(lang, &view.standings, arena, FRAMED_LINES, true) }
                <h3>{ say(lang, Words::GamesNow) }</h3>
                { playing }
                <p><a href={page} target="_blank" rel="noopener" data-action="open-on-qi">{ say(lang, Words::OpenOnQi) }</a></p>
            </section>
        };
    }
    let open = matches!(summary.stage.as_str(), "upcoming" | "running");
    let act = |join: bool| {
        let (id, password, refused, refresh) =
            (props.id.clone(), password.clone(), refused.clone(), refresh.clone());
        Callback::from(move |_: MouseEvent| {
            let (id, refused, refresh) = (id.clone(), refused.clone(), refresh.clone());
            let password = Some((*password).clone()).filter(|p| !p.is_empty());
            yew::platform::spawn_local(async move {
                match account::tournament_membership(&id, join, password).await {
                    Ok(_) => {
                        refused.set(None);
                        refresh.set(*refresh + 1);
                    }
                    Err(error) => refused.set(Some(refusal_text(lang, &error))),
                }
            });
        })
    };
    let on_password = {
        let password = password.clone();
        Callback::from(move |event: InputEvent| {
            if let Some(input) = event.target_dyn_into::<web_sys::HtmlInputElement>() {
                password.set(input.value());
            }
        })
    };
    let leave = if arena { Words::PauseTournament } else { Words::WithdrawTournament };
    let membership = html! {
        <div class="tournament-actions">
            if !props.signed_in {
                <p class="muted-note">{ say(lang, Words::SignInToCreate) }</p>
            } else if open && (!view.joined || !view.active) {
                if summary.private {
                    <label class="field"><span>{ say(lang, Words::JoinPassword) }</span>
                        <input type="password" data-testid="tournament-password" oninput={on_password} /></label>
                }
                <button type="button" class="primary" data-action="join-tournament" onclick={act(true)}>{ say(lang, Words::JoinTournament) }</button>
            } else if open && view.joined {
                <button type="button" data-action="withdraw-tournament" onclick={act(false)}>{ say(lang, leave) }</button>
            }
            if let Some(refused) = &*refused {
                <p class="profile-error" role="alert" data-testid="tournament-refused">{ refused.clone() }</p>
            }
        </div>
    };
    let origin = web_sys::window().and_then(|w| w.location().origin().ok()).unwrap_or_default();
    let short = format!("{origin}/t/{}", props.id);
    let title = shown_text(&summary.name, NAME_CHARS).replace('&', "&amp;").replace('"', "&quot;");
    // The frame is the "watch live" page beside this one: the online page may not be framed.
    let tv = base
        .strip_suffix("online/")
        .map_or_else(|| format!("{base}../tv/"), |root| format!("{root}tv/"));
    let embed = format!(
        "<iframe src=\"{tv}?tournament={}\" width=\"420\" height=\"560\" style=\"border:0\" title=\"{title}\"></iframe>",
        props.id
    );
    html! {
        <section class="panel tournament" data-testid="tournament" data-state="shown" data-joined={view.joined.to_string()}>
            { heading }
            { membership }
            if let Some(game) = view.my_game.clone().filter(|g| id_ok(g)) {
                <p class="your-game" data-testid="your-game">
                    { say(lang, Words::YourGameReady) }{ " " }
                    <a href={format!("?game={game}")} data-action="your-game">{ say(lang, Words::PlayYourGame) }</a>
                </p>
            }
            <h3>{ say(lang, Words::Standings) }</h3>
            { standings_table(lang, &view.standings, arena, usize::MAX, false) }
            <h3>{ say(lang, Words::GamesNow) }</h3>
            { playing }
            if !view.finished.is_empty() {
                <h3>{ say(lang, Words::LatestResults) }</h3>
                <ul class="tournament-games" data-testid="tournament-finished">{ for view.finished.iter().map(|g| game_line(lang, g, false)) }</ul>
            }
            <div class="panel links">
                <super::view::LinkField {lang} label={Words::TournamentLink} value={short} testid="tournament-link" />
                <super::view::LinkField {lang} label={Words::EmbedStandings} value={embed} testid="tournament-embed" />
                <p>
                    <a href={format!("/api/tournaments/{}/games", props.id)} download="" data-action="download-games">{ say(lang, Words::DownloadGames) }</a>
                    if matches!(view.spec.format, Format::Swiss { .. }) {
                        { " · " }
                        <a href={format!("/api/tournaments/{}/trf", props.id)} download="" data-action="download-trf">{ say(lang, Words::DownloadTrf) }</a>
                    }
                </p>
            </div>
            <p><a href="./" data-action="lobby">{ say(lang, Words::BackToLobby) }</a></p>
        </section>
    }
}

/// Properties of [`TournamentList`].
#[derive(Properties, PartialEq)]
pub struct TournamentListProps {
    /// The interface language.
    pub lang: Lang,
    /// Whether this browser is signed in.
    pub signed_in: bool,
}

/// One of the list's sections.
fn list_section(lang: Lang, words: Words, lines: &[TournamentSummary], stage: &str) -> Html {
    let line = |t: &TournamentSummary| {
        let players = fill_all(say(lang, Words::PlayersCount), &[("n", &t.players.to_string())]);
        let facts = format!(
            " · {} · {} · {} · {players}",
            variant_label(lang, &t.game),
            format_name(lang, &t.format),
            clock_label(lang, clock_of(t.clock))
        );
        html! {
            <li data-testid="tournament-row" data-id={t.id.clone()}>
                <a href={format!("?tournament={}", t.id)} data-action="open-tournament">{ shown_text(&t.name, NAME_CHARS) }</a>
                <span class="muted">{ facts }</span>
            </li>
        }
    };
    html! {
        <div class="tournament-section" data-testid={format!("tournaments-{stage}")}>
            <h4>{ say(lang, words) }</h4>
            if lines.is_empty() {
                <p class="empty">{ say(lang, Words::NoTournaments) }</p>
            } else {
                <ul>{ for lines.iter().filter(|t| id_ok(&t.id)).take(LISTED).map(line) }</ul>
            }
        </div>
    }
}

/// The lobby's tournaments, and the form that creates one.
#[function_component(TournamentList)]
pub fn tournament_list(props: &TournamentListProps) -> Html {
    let lang = props.lang;
    let lists = use_state(|| None::<Result<TournamentLists, AccountError>>);
    {
        let lists = lists.clone();
        use_effect_with((), move |()| {
            poll(lists, LIST_POLL_MS, || Box::pin(account::tournaments()), |_| false)
        });
    }
    // A server without tournaments (or one that does not answer): nothing shown.
    let content = match lists.as_ref() {
        None | Some(Err(_)) => return Html::default(),
        Some(Ok(lists)) => html! {
            <>
                { list_section(lang, Words::TournamentsRunning, &lists.running, "running") }
                { list_section(lang, Words::TournamentsUpcoming, &lists.upcoming, "upcoming") }
                { list_section(lang, Words::TournamentsFinished, &lists.finished, "finished") }
                if props.signed_in {
                    <CreateTournament {lang} />
                } else {
                    <p class="muted-note">{ say(lang, Words::SignInToCreate) }</p>
                }
            </>
        },
    };
    html! {
        <section class="panel tournaments" data-testid="tournaments">
            <h3>{ say(lang, Words::Tournaments) }</h3>
            { content }
        </section>
    }
}

/// Properties of [`CreateTournament`].
#[derive(Properties, PartialEq)]
pub struct CreateTournamentProps {
    /// The interface language.
    pub lang: Lang,
}

/// What the creation form holds.
#[derive(Clone, Debug, PartialEq)]
struct Form {
    name: String,
    family: Family,
    format: &'static str,
    /// An arena's minutes, or a Swiss's rounds.
    length: u32,
    starts_in_minutes: u32,
    clock_minutes: u32,
    increment: u32,
    max_players: u32,
    rated: bool,
    password: String,
}

impl Default for Form {
    fn default() -> Form {
        Form {
            name: String::new(),
            family: Family::Chess,
            format: "swiss",
            length: 5,
            starts_in_minutes: 5,
            clock_minutes: 5,
            increment: 3,
            max_players: 64,
            rated: true,
            password: String::new(),
        }
    }
}

impl Form {
    /// The settings the server is asked for (it checks each, and names what it refuses).
    fn spec(&self, now_seconds: u64) -> Spec {
        let format = match self.format {
            "arena" => Format::Arena { minutes: self.length, berserk: true, streaks: true },
            "round_robin" => Format::RoundRobin { cycles: 1, round_hours: 24 },
            _ => Format::Swiss { rounds: self.length, pause_seconds: 30 },
        };
        Spec {
            name: self.name.trim().to_owned(),
            family: self.family,
            rules: String::new(),
            starts_at: now_seconds + u64::from(self.starts_in_minutes) * 60,
            clock: Clock {
                initial_seconds: self.clock_minutes.saturating_mul(60),
                increment_seconds: self.increment,
            },
            format,
            rated: self.rated,
            password: Some(self.password.clone()).filter(|p| !p.is_empty()),
            min_rating: None,
            max_rating: None,
            max_players: self.max_players,
        }
    }
}

/// The family a select's value names.
fn family_of(value: &str) -> Family {
    match value {
        "xiangqi" => Family::Xiangqi,
        "banqi" => Family::Banqi,
        "gomoku" => Family::Gomoku,
        _ => Family::Chess,
    }
}

/// A number typed in a field, or what was there.
fn typed(value: &str, before: u32) -> u32 {
    value.trim().parse().unwrap_or(before)
}

/// The form that creates a tournament; the page then goes to it.
#[function_component(CreateTournament)]
pub fn create_tournament(props: &CreateTournamentProps) -> Html {
    let lang = props.lang;
    let form = use_state(Form::default);
    let refused = use_state(|| None::<String>);
    // Text and numbers are taken as they are typed (a change event comes only on leaving the
    // field, and the submit that leaves it would read the form before it).
    let typing = |change: fn(&mut Form, String)| {
        let form = form.clone();
        Callback::from(move |event: InputEvent| {
            let Some(input) = event.target_dyn_into::<web_sys::HtmlInputElement>() else { return };
            let mut next = (*form).clone();
            change(&mut next, input.value());
            form.set(next);
        })
    };
    let set = |change: fn(&mut Form, String)| {
        let form = form.clone();
        Callback::from(move |event: Event| {
            let value = if let Some(input) = event.target_dyn_into::<web_sys::HtmlInputElement>() {
                if input.type_() == "checkbox" {
                    input.checked().to_string()
                } else {
                    input.value()
                }
            } else if let Some(select) = event.target_dyn_into::<web_sys::HtmlSelectElement>() {
                select.value()
            } else {
                return;
            };
            let mut next = (*form).clone();
            change(&mut next, value);
            form.set(next);
        })
    };
    let submit = {
        let (form, refused) = (form.clone(), refused.clone());
        Callback::from(move |event: SubmitEvent| {
            event.prevent_default();
            let spec = form.spec((js_sys::Date::now() / 1000.0) as u64);
            let refused = refused.clone();
            yew::platform::spawn_local(async move {
                match account::create_tournament(&spec).await {
                    Ok(view) if id_ok(&view.summary.id) => {
                        web::go_to(&format!("?tournament={}", view.summary.id));
                    }
                    Ok(_) => refused.set(Some(say(lang, Words::TournamentNotFound).to_owned())),
                    Err(error) => refused.set(Some(refusal_text(lang, &error))),
                }
            });
        })
    };
    let families = ["chess", "xiangqi", "banqi", "gomoku"].map(|name| {
        let selected = form.family == family_of(name);
        html! { <option value={name} {selected}>{ variant_label(lang, name) }</option> }
    });
    let formats = [
        ("swiss", Words::FormatSwiss),
        ("arena", Words::FormatArena),
        ("round_robin", Words::FormatRoundRobin),
    ]
    .map(|(value, words)| {
        html! { <option {value} selected={form.format == value}>{ say(lang, words) }</option> }
    });
    let length_words =
        if form.format == "arena" { Words::ArenaMinutes } else { Words::SwissRounds };
    html! {
        <details class="create-tournament" data-testid="create-tournament">
            <summary data-action="create-tournament-open">{ say(lang, Words::CreateTournament) }</summary>
            <form onsubmit={submit}>
                <label class="field"><span>{ say(lang, Words::TournamentName) }</span>
                    <input type="text" data-testid="tournament-name-input" maxlength="60" required=true
                           value={form.name.clone()} oninput={typing(|f, v| f.name = v)} /></label>
                <label class="field"><span>{ say(lang, Words::ColumnGame) }</span>
                    <select data-testid="tournament-game" onchange={set(|f, v| f.family = family_of(&v))}>{ for families }</select></label>
                <label class="field"><span>{ say(lang, Words::TournamentFormat) }</span>
                    <select data-testid="tournament-format" onchange={set(|f, v| {
                        f.format = match v.as_str() { "arena" => "arena", "round_robin" => "round_robin", _ => "swiss" };
                        f.length = if f.format == "arena" { 30 } else { 5 };
                    })}>{ for formats }</select></label>
                if form.format != "round_robin" {
                    <label class="field"><span>{ say(lang, length_words) }</span>
                        <input type="number" data-testid="tournament-length" min="1" value={form.length.to_string()}
                               oninput={typing(|f, v| f.length = typed(&v, f.length))} /></label>
                }
                <label class="field"><span>{ say(lang, Words::StartsInMinutes) }</span>
                    <input type="number" data-testid="tournament-starts-in" min="0" value={form.starts_in_minutes.to_string()}
                           oninput={typing(|f, v| f.starts_in_minutes = typed(&v, f.starts_in_minutes))} /></label>
                <label class="field"><span>{ say(lang, Words::ClockMinutes) }</span>
                    <input type="number" data-testid="tournament-minutes" min="1" max="180" value={form.clock_minutes.to_string()}
                           oninput={typing(|f, v| f.clock_minutes = typed(&v, f.clock_minutes))} /></label>
                <label class="field"><span>{ say(lang, Words::ClockIncrement) }</span>
                    <input type="number" data-testid="tournament-increment" min="0" max="60" value={form.increment.to_string()}
                           oninput={typing(|f, v| f.increment = typed(&v, f.increment))} /></label>
                <label class="field"><span>{ say(lang, Words::MaxPlayers) }</span>
                    <input type="number" data-testid="tournament-max-players" min="2" value={form.max_players.to_string()}
                           oninput={typing(|f, v| f.max_players = typed(&v, f.max_players))} /></label>
                <label class="check"><input type="checkbox" data-testid="tournament-rated" checked={form.rated}
                           onchange={set(|f, v| f.rated = v == "true")} />{ " " }{ say(lang, Words::Rated) }</label>
                <label class="field"><span>{ say(lang, Words::TournamentPassword) }</span>
                    <input type="text" data-testid="tournament-password-input" maxlength="64" value={form.password.clone()}
                           oninput={typing(|f, v| f.password = v)} /></label>
                <button type="submit" class="primary" data-action="create-tournament">{ say(lang, Words::CreateTournament) }</button>
                if let Some(refused) = &*refused {
                    <p class="profile-error" role="alert" data-testid="create-refused">{ refused.clone() }</p>
                }
            </form>
        </details>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_and_tiebreaks_are_written_as_players_read_them() {
        assert_eq!(points_text(5, true), "2½");
        assert_eq!(points_text(1, true), "½");
        assert_eq!(points_text(4, true), "2");
        assert_eq!(points_text(7, false), "7");
        let tiebreaks = [("BH".to_owned(), 30), ("SB".to_owned(), 21), ("WON".to_owned(), 8)];
        assert_eq!(tiebreaks_text(&tiebreaks), "BH 7½ · SB 5¼ · WON 2");
        assert_eq!(tiebreaks_text(&[("BH".to_owned(), 1)]), "BH ¼");
    }

    #[test]
    fn the_form_asks_for_what_it_shows() {
        let form =
            Form { name: "  Friday  ".into(), format: "arena", length: 45, ..Form::default() };
        let spec = form.spec(1_000);
        assert_eq!(spec.name, "Friday");
        assert_eq!(spec.starts_at, 1_000 + 5 * 60);
        assert_eq!(spec.clock, Clock { initial_seconds: 300, increment_seconds: 3 });
        assert!(matches!(spec.format, Format::Arena { minutes: 45, .. }));
        assert_eq!(spec.password, None);
        let swiss = Form { format: "swiss", length: 7, password: "club".into(), ..Form::default() };
        let spec = swiss.spec(0);
        assert!(matches!(spec.format, Format::Swiss { rounds: 7, .. }));
        assert_eq!(spec.password.as_deref(), Some("club"));
        let named = Form { name: "Club".into(), ..Form::default() };
        assert!(named.spec(0).validate(0).is_ok(), "the form's defaults are a valid tournament");
        assert_eq!(family_of("gomoku"), Family::Gomoku);
        assert_eq!(typed(" 12 ", 3), 12);
        assert_eq!(typed("x", 3), 3);
    }
}
