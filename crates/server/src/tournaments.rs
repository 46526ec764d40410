//! Tournaments over HTTP: signed-in players create them (`POST /api/tournaments`, a
//! [`Spec`]), everyone lists them (`GET /api/tournaments`) and reads one
//! (`GET /api/tournaments/{id}`: settings, members, standings), members join and withdraw
//! (`POST /api/tournaments/{id}/join`, `…/withdraw`).
//!
//! A tournament is kept whole, as the JSON of a [`Tournament`] with a version
//! ([`Write::Tournament`]): a change reads it, applies the crate's decision and writes the next
//! version, and if another request (on this node or another) wrote meanwhile the write is
//! refused and the change is made again on what is there now — so two joins at once on two
//! nodes both count, and none is lost.
//!
//! The [`driver`] runs them: it starts them on time, creates the games their pairings ask
//! for and reports the results back.

use std::net::IpAddr;

use axum::Extension;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use qi_protocol::AccountErrorCode;
use qi_tournament::event::{EventError, Play, Row, Stage, Tournament};
use qi_tournament::spec::{Format, Refusal, Spec};
use qi_tournament::{Family, tiebreak::Tiebreak};
use serde::{Deserialize, Serialize};

use crate::accounts::{
    AccountRoutes, Refused, client, not_signed_in, peer_ip, refusal, unavailable,
};
use crate::listener::Peer;
use crate::rating::RatedGame;
use crate::storage::{
    AccountRecord, StorageErrorKind, TournamentRecord, Write, stored_rules, unix_ms,
};
use crate::tokens::hash_token;

/// The most unfinished tournaments one account may have created at a time.
pub const MAX_OPEN_CREATED: usize = 3;
pub mod driver;
pub mod export;

pub use qi_protocol::tournament::{
    FINISHED_SHOWN, JoinRequest, MemberView, StandingView, TournamentGameView, TournamentLists,
    TournamentSummary, TournamentView,
};

/// The most tournaments one account may create in a day.
pub const MAX_CREATED_PER_DAY: usize = 10;
/// How many tournaments the list shows.
pub const LIST_LIMIT: usize = 100;
/// How many times a change is made again after another request changed the tournament.
const RETRIES: usize = 32;

/// The rating a player without one in the game joins with.
const UNRATED: i32 = 1500;

/// A game of a tournament, as kept with it: the id is chosen when the pairing is made, and
/// kept in the same write, so the game is created once whatever happens between the two.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TournamentGame {
    /// The game id.
    pub id: String,
    /// White's member index (the first seat).
    pub white: usize,
    /// Black's member index.
    pub black: usize,
    /// The round (Swiss, round robin).
    #[serde(default)]
    pub round: Option<u32>,
    /// When it was paired (Unix seconds).
    pub paired_at: u64,
    /// White's score, once the result is counted: `"1-0"`, `"1/2-1/2"`, `"0-1"`, with `"+"`
    /// or `"-"` for a forfeit's.
    #[serde(default)]
    pub result: Option<String>,
}

/// What is stored of a tournament: the crate's value, and its games.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Kept {
    /// The tournament.
    #[serde(flatten)]
    pub tournament: Tournament,
    /// Its games, oldest first.
    #[serde(default)]
    pub games: Vec<TournamentGame>,
}

fn family_name(family: Family) -> &'static str {
    match family {
        Family::Chess => "chess",
        Family::Xiangqi => "xiangqi",
        Family::Banqi => "banqi",
        Family::Gomoku => "gomoku",
    }
}

fn stage_name(stage: Stage) -> &'static str {
    match stage {
        Stage::Upcoming => "upcoming",
        Stage::Running => "running",
        Stage::Finished => "finished",
        Stage::Cancelled => "cancelled",
    }
}

fn format_name(format: &Format) -> &'static str {
    match format {
        Format::Arena { .. } => "arena",
        Format::Swiss { .. } => "swiss",
        Format::RoundRobin { .. } => "round_robin",
    }
}

fn summary(t: &Tournament) -> TournamentSummary {
    TournamentSummary {
        id: t.id.clone(),
        name: t.spec.name.clone(),
        game: family_name(t.spec.family).to_owned(),
        format: format_name(&t.spec.format).to_owned(),
        starts_at: t.spec.starts_at,
        stage: stage_name(t.stage).to_owned(),
        players: t.active_members() as usize,
        max_players: t.spec.max_players,
        rated: t.spec.rated,
        private: t.spec.password.is_some(),
        clock: t.spec.clock,
    }
}

fn standing(t: &Tournament, row: &Row) -> StandingView {
    StandingView {
        rank: row.rank,
        name: t.members.get(row.member).map(|m| m.name.clone()).unwrap_or_default(),
        points: row.points,
        halves: row.halves,
        tiebreaks: row
            .tiebreaks
            .iter()
            .map(|&(tb, v): &(Tiebreak, u64)| (tb.short_name().to_owned(), v))
            .collect(),
        performance: row.performance,
        on_fire: row.on_fire,
        active: row.active,
    }
}

fn game_view(t: &Tournament, game: &TournamentGame) -> TournamentGameView {
    let name = |i: usize| t.members.get(i).map(|m| m.name.clone()).unwrap_or_default();
    TournamentGameView {
        id: game.id.clone(),
        white: name(game.white),
        black: name(game.black),
        round: game.round,
        result: game.result.clone(),
    }
}

fn view(kept: &Kept, reader: Option<&str>) -> TournamentView {
    let t = &kept.tournament;
    let me = reader.and_then(|account| t.member(account));
    let going = || kept.games.iter().filter(|g| g.result.is_none());
    // Only while it runs: nobody is sent to a game of a tournament that is over.
    let running = t.stage == Stage::Running;
    let my_game =
        me.filter(|_| running).and_then(|i| going().find(|g| g.white == i || g.black == i));
    let mut spec = t.spec.clone();
    spec.password = None;
    TournamentView {
        summary: summary(t),
        spec,
        members: t
            .members
            .iter()
            .map(|m| MemberView { name: m.name.clone(), rating: m.rating })
            .collect(),
        standings: t.standings().iter().map(|row| standing(t, row)).collect(),
        joined: me.is_some(),
        active: me.is_some_and(|i| t.standings().iter().any(|row| row.member == i && row.active)),
        ends_at: t.ends_at(),
        round: match &t.play {
            Play::Swiss { swiss, .. } => Some((swiss.rounds.len() as u32, swiss.total_rounds)),
            Play::RoundRobin(Some(play)) => Some((play.opened as u32, play.schedule.len() as u32)),
            Play::RoundRobin(None) | Play::Arena(_) => None,
        },
        playing: going().map(|g| game_view(t, g)).collect(),
        finished: kept
            .games
            .iter()
            .rev()
            .filter(|g| g.result.is_some())
            .take(FINISHED_SHOWN)
            .map(|g| game_view(t, g))
            .collect(),
        my_game: my_game.map(|g| g.id.clone()),
    }
}

fn record(kept: &Kept, version: u64, created_unix_ms: u64) -> Result<TournamentRecord, Refused> {
    let document = serde_json::to_string(kept).map_err(|e| unavailable(&e))?;
    let t = &kept.tournament;
    Ok(TournamentRecord {
        id: t.id.clone(),
        creator: t.creator.clone(),
        stage: stage_name(t.stage).to_owned(),
        starts_at: t.spec.starts_at,
        created_unix_ms,
        version,
        document,
    })
}

fn parse(record: &TournamentRecord) -> Option<Kept> {
    match serde_json::from_str(&record.document) {
        Ok(t) => Some(t),
        Err(error) => {
            tracing::warn!(tournament = %record.id, %error, "a stored tournament does not read");
            None
        }
    }
}

/// What is kept of a join password: its hash, salted with the tournament's id so that one
/// password gives different hashes in different tournaments.
fn password_hash(id: &str, password: &str) -> String {
    hash_token(&format!("{id}\0{password}"))
}

fn bad(detail: impl Into<String>) -> Refused {
    refusal(StatusCode::BAD_REQUEST, AccountErrorCode::BadRequest, detail)
}

fn not_found() -> Refused {
    refusal(StatusCode::NOT_FOUND, AccountErrorCode::NotFound, "no such tournament")
}

fn event_refusal(error: &EventError) -> Refused {
    match error {
        EventError::Spec(_) => bad(error.to_string()),
        EventError::NotMember | EventError::NoSuchGame => {
            refusal(StatusCode::CONFLICT, AccountErrorCode::Refused, error.to_string())
        }
        EventError::Refused(_) | EventError::Closed => {
            refusal(StatusCode::FORBIDDEN, AccountErrorCode::Refused, error.to_string())
        }
    }
}

/// A tournament id as the server makes them ([`crate::tokens::new_game_id`]: 16 URL-safe
/// characters); anything else names no tournament.
fn checked_id(id: &str) -> Result<&str, Refused> {
    let url_safe = |b: u8| b.is_ascii_alphanumeric() || b == b'-' || b == b'_';
    if id.is_empty() || id.len() > 32 || !id.bytes().all(url_safe) {
        return Err(not_found());
    }
    Ok(id)
}

fn json<T: Serialize>(status: StatusCode, value: &T) -> Response {
    (status, [(header::CACHE_CONTROL, "no-store")], axum::Json(value)).into_response()
}

fn from(routes: &AccountRoutes, peer: Option<&Extension<Peer>>, headers: &HeaderMap) -> IpAddr {
    client(&routes.accounts, peer, headers)
}

/// `GET /api/tournaments`: upcoming, running and recently finished tournaments.
pub(crate) async fn list(
    State(routes): State<AccountRoutes>,
    peer: Option<Extension<Peer>>,
    headers: HeaderMap,
) -> Result<Response, Refused> {
    routes.accounts.read(from(&routes, peer.as_ref(), &headers))?;
    let records =
        routes.accounts.storage.tournaments(LIST_LIMIT).await.map_err(|e| unavailable(&e))?;
    let mut lists = TournamentLists::default();
    for kept in records.iter().filter_map(parse) {
        let t = &kept.tournament;
        let line = summary(t);
        match t.stage {
            Stage::Upcoming => lists.upcoming.push(line),
            Stage::Running => lists.running.push(line),
            Stage::Finished | Stage::Cancelled => lists.finished.push(line),
        }
    }
    Ok(json(StatusCode::OK, &lists))
}

/// `/t/{id}`: a tournament's short link, to its page on the online page
/// (`online/?tournament={id}`).
pub(crate) async fn short_link(Path(id): Path<String>) -> Response {
    match checked_id(&id) {
        Ok(id) => {
            let location = format!("../online/?tournament={id}");
            (StatusCode::SEE_OTHER, [(header::LOCATION, location)]).into_response()
        }
        Err(refused) => refused.into_response(),
    }
}

/// What every tournament GET does first: a read within the address's limit, of an id as the
/// server makes them, of a tournament that is stored. The id checked, and the tournament.
async fn read_tournament<'a>(
    routes: &AccountRoutes,
    peer: Option<&Extension<Peer>>,
    headers: &HeaderMap,
    id: &'a str,
) -> Result<(&'a str, Kept), Refused> {
    routes.accounts.read(from(routes, peer, headers))?;
    let id = checked_id(id)?;
    let stored =
        routes.accounts.storage.tournament(id.to_owned()).await.map_err(|e| unavailable(&e))?;
    let kept = stored.as_ref().and_then(parse).ok_or_else(not_found)?;
    Ok((id, kept))
}

/// `GET /api/tournaments/{id}`: one tournament's settings, members and standings.
pub(crate) async fn show(
    State(routes): State<AccountRoutes>,
    Path(id): Path<String>,
    peer: Option<Extension<Peer>>,
    headers: HeaderMap,
) -> Result<Response, Refused> {
    let (_, kept) = read_tournament(&routes, peer.as_ref(), &headers, &id).await?;
    let reader = routes.accounts.signed_in(&headers).await?.map(|(_, account)| account.key);
    Ok(json(StatusCode::OK, &view(&kept, reader.as_deref())))
}

/// What every tournament POST checks first: a JSON body from this site, within the address's
/// read limit, from a signed-in player. The body as `T`, and the account.
async fn signed_in_post<T: serde::de::DeserializeOwned>(
    routes: &AccountRoutes,
    peer: Option<&Extension<Peer>>,
    headers: &HeaderMap,
    body: &[u8],
) -> Result<(T, AccountRecord), Refused> {
    let accounts = &routes.accounts;
    let request: T = accounts.read_json(peer_ip(peer), headers, body)?;
    accounts.read(from(routes, peer, headers))?;
    let Some((_, account)) = accounts.signed_in(headers).await? else {
        return Err(not_signed_in());
    };
    Ok((request, account))
}

/// `POST /api/tournaments`: a signed-in player creates one from a [`Spec`].
pub(crate) async fn create(
    State(routes): State<AccountRoutes>,
    peer: Option<Extension<Peer>>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, Refused> {
    let accounts = &routes.accounts;
    let (spec, account): (Spec, _) =
        signed_in_post(&routes, peer.as_ref(), &headers, &body).await?;
    // The rule options must be the game's own.
    stored_rules(family_name(spec.family), &spec.rules).map_err(|e| bad(format!("rules: {e}")))?;
    let now_ms = unix_ms();
    let day_ago = now_ms.saturating_sub(24 * 3600 * 1000);
    // Everything this account created: the open ones count whenever they were made.
    let created = accounts
        .storage
        .tournaments_created(account.key.clone(), 0)
        .await
        .map_err(|e| unavailable(&e))?;
    let open =
        created.iter().filter(|r| matches!(r.stage.as_str(), "upcoming" | "running")).count();
    let today = created.iter().filter(|r| r.created_unix_ms >= day_ago).count();
    if open >= MAX_OPEN_CREATED || today >= MAX_CREATED_PER_DAY {
        return Err(refusal(
            StatusCode::TOO_MANY_REQUESTS,
            AccountErrorCode::TooManyAttempts,
            format!(
                "an account may have {MAX_OPEN_CREATED} tournaments open and create {MAX_CREATED_PER_DAY} a day"
            ),
        ));
    }
    let id = crate::tokens::new_game_id().map_err(|e| unavailable(&e))?;
    let mut t =
        Tournament::new(&id, spec, &account.key, now_ms / 1000).map_err(|e| event_refusal(&e))?;
    // Only the password's hash is kept (salted with the tournament's id); a join's password
    // is hashed the same way before the comparison.
    t.spec.password = t.spec.password.as_deref().map(|p| password_hash(&id, p));
    let kept = Kept { tournament: t, games: Vec::new() };
    accounts
        .storage
        .write(vec![Write::Tournament(record(&kept, 1, now_ms)?)])
        .await
        .map_err(|e| unavailable(&e))?;
    Ok(json(StatusCode::CREATED, &view(&kept, Some(&account.key))))
}

/// Reads tournament `id`, applies `change`, writes the next version; again from the top when
/// another request wrote meanwhile.
async fn change(
    routes: &AccountRoutes,
    id: &str,
    mut change: impl FnMut(&mut Tournament) -> Result<(), EventError>,
) -> Result<Kept, Refused> {
    let storage = &routes.accounts.storage;
    for _ in 0..RETRIES {
        let stored = storage.tournament(id.to_owned()).await.map_err(|e| unavailable(&e))?;
        let Some(stored) = stored else { return Err(not_found()) };
        let mut kept = parse(&stored).ok_or_else(not_found)?;
        change(&mut kept.tournament).map_err(|e| event_refusal(&e))?;
        let next = record(&kept, stored.version + 1, stored.created_unix_ms)?;
        match storage.write(vec![Write::Tournament(next)]).await {
            Ok(()) => return Ok(kept),
            Err(e) if e.kind == StorageErrorKind::Fenced => {}
            Err(e) => return Err(unavailable(&e)),
        }
    }
    Err(unavailable(&"the tournament kept changing"))
}

/// `POST /api/tournaments/{id}/join`: the signed-in player joins, with their rating in the game.
pub(crate) async fn join(
    State(routes): State<AccountRoutes>,
    Path(id): Path<String>,
    peer: Option<Extension<Peer>>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, Refused> {
    let accounts = &routes.accounts;
    let (request, account): (JoinRequest, _) =
        signed_in_post(&routes, peer.as_ref(), &headers, &body).await?;
    let id = checked_id(&id)?.to_owned();
    let ratings =
        accounts.storage.ratings(account.key.clone()).await.map_err(|e| unavailable(&e))?;
    let now_ms = unix_ms();
    let kept = change(&routes, &id, |t| {
        let kind = RatedGame::of_variant(family_name(t.spec.family));
        let rating = ratings.iter().find(|r| Some(r.kind) == kind).map_or(UNRATED, |r| {
            i32::try_from(crate::storage::kind_rating(r, now_ms).rating.rating).unwrap_or(UNRATED)
        });
        let password = request.password.as_deref().map(|p| password_hash(&t.id, p));
        // The password first: a stranger learns nothing else of a private tournament.
        if t.spec.password.is_some() && t.spec.password != password {
            return Err(EventError::Refused(Refusal::Password));
        }
        let known = ratings.iter().any(|r| Some(r.kind) == kind);
        if (t.spec.min_rating.is_some() || t.spec.max_rating.is_some()) && !known {
            return Err(EventError::Refused(Refusal::Unrated));
        }
        t.join(&account.key, &account.name, rating, password.as_deref()).map(|_| ())
    })
    .await?;
    Ok(json(StatusCode::OK, &view(&kept, Some(&account.key))))
}

/// `POST /api/tournaments/{id}/withdraw`: the signed-in member leaves (or pauses, in an arena).
pub(crate) async fn withdraw(
    State(routes): State<AccountRoutes>,
    Path(id): Path<String>,
    peer: Option<Extension<Peer>>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, Refused> {
    let (_, account): (serde::de::IgnoredAny, _) =
        signed_in_post(&routes, peer.as_ref(), &headers, &body).await?;
    let id = checked_id(&id)?.to_owned();
    let kept = change(&routes, &id, |t| t.withdraw(&account.key)).await?;
    Ok(json(StatusCode::OK, &view(&kept, Some(&account.key))))
}
