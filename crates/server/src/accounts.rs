//! Accounts over HTTP: register, sign in and out (here or everywhere), change the password, the
//! signed-in account and the public profiles. JSON in and out (the types of
//! [`qi_protocol::account`](qi_protocol)); every refusal is an [`AccountError`] naming the rule.
//!
//! # Passwords
//! Hashed with Argon2id (the `argon2` crate, RustCrypto) at its default parameters, OWASP's
//! minimum (19 MiB, 2 passes, 1 lane), each with its own random salt, kept as a PHC string. The
//! hashes run on [`HASHING_AT_ONCE`] dedicated threads, each reusing one 19 MiB block
//! ([`crate::hashing`]), with at most [`HASHING_QUEUE`] requests waiting (past that, "busy, try
//! again" at once), so a flood of sign-ins costs bounded memory that stays bounded after it,
//! and never stalls the games.
//!
//! # Sessions
//! Signing in makes a random token (128 bits or more) sent as the cookie `qi_session`
//! (`HttpOnly`, `SameSite=Lax`, `Path=/`, 30 days; `Secure` when the request came over HTTPS
//! through the proxy); only its hash is stored. Signing out deletes it; "log out everywhere"
//! and a password change delete all of the account's (a password change then signs this
//! browser in anew). A cookie that names no live session counts for nothing, and its page is
//! told to forget it.
//!
//! # Puzzle ratings
//! `GET /api/puzzles` gives the signed-in player's puzzle rating in each game, `POST
//! /api/puzzles` keeps a puzzle's first result and answers with the game's rating after it
//! ([`crate::puzzles`]).
//!
//! # Guessing
//! Sign-in attempts are limited per client address ([`ATTEMPTS_PER_ADDRESS`] in
//! [`ATTEMPT_WINDOW`], registrations and password changes counted too) and per account name
//! ([`ATTEMPTS_PER_ACCOUNT`] in [`ACCOUNT_WINDOW`], whether or not the account exists; each
//! counted before its password is checked, so guesses sent at once are counted too); with several nodes the counts are kept in Redis and hold across them (each node
//! counts on its own while Redis does not answer). "No such user" and "wrong password" get the same answer after the same work: an
//! unknown name is checked against a hash made at start.
//!
//! # Cross-site requests
//! Every POST (signing out too) must be `Content-Type: application/json` (a form on another
//! site cannot send that without the browser asking first) and, when the browser says where it
//! comes from (`Origin`), come from this host (its `Host`, or a trusted proxy's
//! `X-Forwarded-Host`) or an `--allowed-origin`, as the game socket does; `Origin: null` (a
//! sandboxed frame) is refused. With `SameSite=Lax` the cookie is not sent with other sites'
//! POSTs anyway. Account and profile reads are limited to [`READS_PER_MINUTE`] an address.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Router};
use qi_protocol::{
    AccountError, AccountErrorCode, Credentials, PasswordChange, check_password, check_username,
    username_key,
};

use crate::hashing::{HashingError, HashingPool, hash_password_in, verify_password_in};
use crate::limits::{RateWindow, client_address};
use crate::listener::Peer;
use crate::storage::{
    AccountRecord, SESSION_LIFETIME_MS, SessionRecord, StorageHandle, Write, account_view,
    profile_view, unix_ms,
};
use crate::tokens::{hash_token, new_token};

/// The session cookie's name.
pub const SESSION_COOKIE: &str = "qi_session";
/// Sign-in attempts (and registrations and password changes) one address may make in
/// [`ATTEMPT_WINDOW`].
pub const ATTEMPTS_PER_ADDRESS: usize = 20;
/// The window of [`ATTEMPTS_PER_ADDRESS`].
pub const ATTEMPT_WINDOW: Duration = Duration::from_secs(10 * 60);
/// Password checks one account name may take in [`ACCOUNT_WINDOW`], from all addresses: each
/// is counted before the password is checked (so that guesses sent at once are counted too),
/// whether it turns out right or wrong.
pub const ATTEMPTS_PER_ACCOUNT: usize = 10;
/// The window of [`ATTEMPTS_PER_ACCOUNT`].
pub const ACCOUNT_WINDOW: Duration = Duration::from_secs(15 * 60);
/// Account and profile reads one address may make a minute (each is work for the store that
/// also keeps the moves).
pub const READS_PER_MINUTE: usize = 120;
/// The longest name looked up when signing in: no username is longer (even in its
/// compatibility form), so a longer one is nobody's and is not kept as a count's key.
const LOOKUP_MAX_CHARS: usize = 4 * qi_protocol::USERNAME_MAX_CHARS;
/// How many password hashes are worked out at once: the hashing threads, each keeping one
/// 19 MiB block.
pub const HASHING_AT_ONCE: usize = 2;
/// How many password checks may wait for a hashing thread; past that, a request is told at
/// once to try again (at 20-50 ms a hash on two threads, the last waits a second or so).
pub const HASHING_QUEUE: usize = 64;
/// The most finished games a profile lists.
pub const PROFILE_GAMES: usize = 50;
/// The largest request body read (a password at most 128 characters fits many times over).
const MAX_BODY_BYTES: usize = 64 * 1024;

/// Who is counted: the windows of each address and each account name.
#[derive(Debug, Default)]
struct Counts {
    addresses: HashMap<IpAddr, RateWindow>,
    accounts: HashMap<String, RateWindow>,
    reads: HashMap<IpAddr, RateWindow>,
    /// When the counts were last pruned.
    pruned: Option<Instant>,
}

/// The accounts' side of the server: the hashing, the attempt counts and the store.
#[derive(Debug)]
pub struct Accounts {
    pub(crate) storage: StorageHandle,
    hashing: HashingPool,
    /// A hash of a password nobody has: unknown names are checked against it, so that they
    /// take as long as a wrong password.
    decoy: String,
    counts: Mutex<Counts>,
    trusted: Arc<[IpAddr]>,
    /// The other origins whose pages may post (`--allowed-origin`), as the game socket has.
    origins: Arc<[String]>,
    /// With several nodes, the counts are kept in Redis, so that they hold across the nodes.
    cluster: Option<Arc<crate::cluster::Cluster>>,
    /// The puzzles served, whose ratings rate the players' results.
    puzzles: crate::puzzles::PuzzleBook,
}

/// A refused request: its status and the [`AccountError`] sent.
#[derive(Debug)]
pub struct Refused {
    status: StatusCode,
    error: AccountError,
}

impl IntoResponse for Refused {
    fn into_response(self) -> Response {
        let headers = [(header::CACHE_CONTROL, "no-store")];
        (self.status, headers, axum::Json(self.error)).into_response()
    }
}

pub(crate) fn refusal(
    status: StatusCode,
    code: AccountErrorCode,
    detail: impl Into<String>,
) -> Refused {
    Refused { status, error: AccountError { code, detail: detail.into() } }
}

pub(crate) fn unavailable(error: &impl std::fmt::Display) -> Refused {
    tracing::warn!(%error, "an account request failed in storage");
    refusal(
        StatusCode::SERVICE_UNAVAILABLE,
        AccountErrorCode::Unavailable,
        "accounts cannot be reached right now; try again in a moment",
    )
}

/// The answer when a hash could not be worked out: busy (the queue is full) or broken.
fn not_hashed(error: HashingError) -> Refused {
    match error {
        HashingError::Busy => refusal(
            StatusCode::SERVICE_UNAVAILABLE,
            AccountErrorCode::Unavailable,
            "the server is busy checking passwords; try again in a moment",
        ),
        HashingError::Gone => unavailable(&error),
    }
}

fn wait_text(wait: Duration) -> String {
    format!("too many sign-in attempts; try again in {} s", wait.as_secs().max(1))
}

fn too_many(wait: Duration) -> Refused {
    refusal(StatusCode::TOO_MANY_REQUESTS, AccountErrorCode::TooManyAttempts, wait_text(wait))
}

impl Accounts {
    /// The accounts over `storage`; client addresses (and `X-Forwarded-Host` and
    /// `X-Forwarded-Proto`) are read from `trusted` proxies; pages of `origins` may post as this
    /// host's own do; with `cluster`, the attempts are counted across its nodes.
    ///
    /// # Errors
    /// When the hashing threads cannot be started or the decoy hash cannot be made (no
    /// randomness).
    pub fn new(
        storage: StorageHandle,
        trusted: Arc<[IpAddr]>,
        origins: Arc<[String]>,
        cluster: Option<Arc<crate::cluster::Cluster>>,
    ) -> Result<Accounts, String> {
        let hashing = HashingPool::start(HASHING_AT_ONCE, HASHING_QUEUE)
            .map_err(|e| format!("the hashing threads cannot start: {e}"))?;
        // Made here, once, in memory given back when it is done (a mapping of its own), so an
        // idle server does not keep a hashing thread's block before anyone signs in.
        let decoy = hash_password_in(&new_token().map_err(|e| e.to_string())?, &mut Vec::new())?;
        Ok(Accounts {
            storage,
            hashing,
            decoy,
            counts: Mutex::default(),
            trusted,
            origins,
            cluster,
            puzzles: crate::puzzles::PuzzleBook::default(),
        })
    }

    /// The puzzles whose results are rated (none until given: every result is refused).
    #[must_use]
    pub fn with_puzzles(mut self, puzzles: crate::puzzles::PuzzleBook) -> Accounts {
        self.puzzles = puzzles;
        self
    }

    /// Whether a POST may be taken: JSON, from this site's own pages (or an allowed origin).
    fn check_post(&self, peer: IpAddr, headers: &HeaderMap) -> Result<(), Refused> {
        let json =
            headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).is_some_and(|v| {
                v.split(';')
                    .next()
                    .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"))
            });
        if !json {
            return Err(refusal(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                AccountErrorCode::BadRequest,
                "account requests are JSON (Content-Type: application/json)",
            ));
        }
        // No `Origin` (not a browser) is let through; `null` (a sandboxed frame) is not.
        if !crate::origins::origin_allowed(headers, &self.origins, self.trusted.contains(&peer)) {
            return Err(refusal(
                StatusCode::FORBIDDEN,
                AccountErrorCode::BadRequest,
                "account requests come from this site's own pages",
            ));
        }
        Ok(())
    }

    /// A POST's body as `T`, once [`Accounts::check_post`] let it through.
    pub(crate) fn read_json<T: serde::de::DeserializeOwned>(
        &self,
        peer: IpAddr,
        headers: &HeaderMap,
        body: &[u8],
    ) -> Result<T, Refused> {
        self.check_post(peer, headers)?;
        serde_json::from_slice(body).map_err(|e| {
            refusal(
                StatusCode::BAD_REQUEST,
                AccountErrorCode::BadRequest,
                format!("not a request: {e}"),
            )
        })
    }

    /// Whether the request came over HTTPS: said by a trusted proxy's `X-Forwarded-Proto`.
    fn over_https(&self, peer: IpAddr, headers: &HeaderMap) -> bool {
        self.trusted.contains(&peer)
            && headers
                .get("x-forwarded-proto")
                .and_then(|v| v.to_str().ok())
                .is_some_and(|proto| proto.trim().eq_ignore_ascii_case("https"))
    }

    /// The session cookie for `token`.
    fn set_cookie(&self, token: &str, peer: IpAddr, headers: &HeaderMap) -> HeaderValue {
        let secure = if self.over_https(peer, headers) { "; Secure" } else { "" };
        let max_age = SESSION_LIFETIME_MS / 1000;
        let text = format!(
            "{SESSION_COOKIE}={token}; Path=/; HttpOnly; SameSite=Lax; Max-Age={max_age}{secure}"
        );
        HeaderValue::from_str(&text).unwrap_or(HeaderValue::from_static(""))
    }

    /// Counts a read (account or profile) from `address`.
    pub(crate) fn read(&self, address: IpAddr) -> Result<(), Refused> {
        let mut counts = self.counts();
        let window = counts
            .reads
            .entry(address)
            .or_insert_with(|| RateWindow::new(READS_PER_MINUTE, Duration::from_secs(60)));
        window.take(Instant::now()).map_err(|wait| {
            refusal(
                StatusCode::TOO_MANY_REQUESTS,
                AccountErrorCode::TooManyAttempts,
                format!("too many requests; try again in {} s", wait.as_secs().max(1)),
            )
        })
    }

    /// The count under `key` across the nodes, if there are several and Redis answers.
    async fn shared(
        &self,
        key: &str,
        window: Duration,
        max: usize,
        take: bool,
    ) -> Option<Result<(), Duration>> {
        let cluster = self.cluster.as_ref()?;
        crate::cluster::shared_rate(cluster, key, window, max, take).await
    }

    fn counts(&self) -> std::sync::MutexGuard<'_, Counts> {
        self.counts.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Counts an attempt from `address`.
    async fn attempt(&self, address: IpAddr) -> Result<(), Refused> {
        let key = format!("sign-in-address:{address}");
        if let Some(answer) = self.shared(&key, ATTEMPT_WINDOW, ATTEMPTS_PER_ADDRESS, true).await {
            return answer.map_err(too_many);
        }
        let now = Instant::now();
        let mut counts = self.counts();
        // Windows that hold nothing recent are forgotten now and then, so the maps stay small.
        if counts.pruned.is_none_or(|at| now.duration_since(at) > ATTEMPT_WINDOW) {
            counts.addresses.retain(|_, window| !window.is_idle(now));
            counts.accounts.retain(|_, window| !window.is_idle(now));
            counts.reads.retain(|_, window| !window.is_idle(now));
            counts.pruned = Some(now);
        }
        counts
            .addresses
            .entry(address)
            .or_insert_with(|| RateWindow::new(ATTEMPTS_PER_ADDRESS, ATTEMPT_WINDOW))
            .take(now)
            .map_err(too_many)
    }

    /// Counts a password check for the account name `key` (before it is made).
    async fn attempt_on(&self, key: &str) -> Result<(), Refused> {
        let shared = format!("sign-in-account:{key}");
        if let Some(answer) = self.shared(&shared, ACCOUNT_WINDOW, ATTEMPTS_PER_ACCOUNT, true).await
        {
            return answer.map_err(too_many);
        }
        let mut counts = self.counts();
        let window = counts
            .accounts
            .entry(key.to_owned())
            .or_insert_with(|| RateWindow::new(ATTEMPTS_PER_ACCOUNT, ACCOUNT_WINDOW));
        window.take(Instant::now()).map_err(too_many)
    }

    /// The hashing pool (for its size).
    #[must_use]
    pub fn hashing_pool(&self) -> &HashingPool {
        &self.hashing
    }

    /// Hashes a new password on the pool.
    async fn hash(&self, password: String) -> Result<String, Refused> {
        match self.hashing.run(move |memory| hash_password_in(&password, memory)).await {
            Ok(Ok(hash)) => Ok(hash),
            Ok(Err(error)) => Err(unavailable(&error)),
            Err(error) => Err(not_hashed(error)),
        }
    }

    /// Checks `password` for the account of `key` (`None`: no such account, checked against
    /// the decoy so that it takes as long).
    ///
    /// # Errors
    /// When the pool is busy or gone.
    async fn password_matches(
        &self,
        account: Option<&AccountRecord>,
        password: &str,
    ) -> Result<bool, Refused> {
        let stored = account.map_or_else(|| self.decoy.clone(), |a| a.password_hash.clone());
        let password = password.to_owned();
        let check =
            move |memory: &mut Vec<argon2::Block>| verify_password_in(&password, &stored, memory);
        let matches = self.hashing.run(check).await.map_err(not_hashed)?;
        Ok(matches && account.is_some())
    }

    /// The live session the request's cookie names, with its account.
    pub(crate) async fn signed_in(
        &self,
        headers: &HeaderMap,
    ) -> Result<Option<(SessionRecord, AccountRecord)>, Refused> {
        let Some(token) = session_cookie(headers) else { return Ok(None) };
        match self.storage.session(hash_token(&token)).await {
            Ok(Some((session, account))) if session.is_live(unix_ms()) => {
                Ok(Some((session, account)))
            }
            Ok(_) => Ok(None),
            Err(e) => Err(unavailable(&e)),
        }
    }

    /// A new session for `account`: its record and the cookie's value.
    fn new_session(account: &AccountRecord) -> Result<(SessionRecord, String), Refused> {
        let token = new_token().map_err(|e| unavailable(&e))?;
        let session = SessionRecord {
            token_hash: hash_token(&token),
            account: account.key.clone(),
            created_unix_ms: unix_ms(),
        };
        Ok((session, token))
    }

    /// The account's own view, with `cookie` set if given.
    async fn view(
        &self,
        account: &AccountRecord,
        cookie: Option<HeaderValue>,
    ) -> Result<Response, Refused> {
        let ratings =
            self.storage.ratings(account.key.clone()).await.map_err(|e| unavailable(&e))?;
        let body = axum::Json(account_view(account, &ratings, unix_ms()));
        let mut response =
            (StatusCode::OK, [(header::CACHE_CONTROL, "no-store")], body).into_response();
        if let Some(cookie) = cookie {
            response.headers_mut().insert(header::SET_COOKIE, cookie);
        }
        Ok(response)
    }
}

/// The value of the session cookie, if the request has one that can be a token.
#[must_use]
pub fn session_cookie(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == SESSION_COOKIE)
        .map(|(_, value)| value.trim().to_owned())
        .filter(|value| {
            (16..=128).contains(&value.len())
                && value.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        })
}

/// The hash of the session the request's cookie names, for the game socket.
#[must_use]
pub fn session_hash(headers: &HeaderMap) -> Option<String> {
    session_cookie(headers).map(|token| hash_token(&token))
}

fn clear_cookie() -> HeaderValue {
    HeaderValue::from_static("qi_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0")
}

/// What the account routes need.
#[derive(Clone, Debug)]
pub struct AccountRoutes {
    pub(crate) accounts: Arc<Accounts>,
}

impl AccountRoutes {
    /// Routes over `accounts`.
    #[must_use]
    pub fn new(accounts: Arc<Accounts>) -> AccountRoutes {
        AccountRoutes { accounts }
    }

    /// The routes: `/api/account…`, `/api/profile/{name}`, `/api/puzzles`, `/online/@/{name}`,
    /// and with `tournaments` the tournament routes ([`crate::tournaments`]).
    pub fn router<S>(self, tournaments: bool) -> Router<S> {
        let mut router = Router::new()
            .route("/api/account", get(me))
            .route("/api/account/register", post(register))
            .route("/api/account/login", post(login))
            .route("/api/account/logout", post(logout))
            .route("/api/account/logout-everywhere", post(logout_everywhere))
            .route("/api/account/password", post(change_password))
            .route("/api/profile/{name}", get(profile))
            .route("/api/puzzles", get(puzzle_ratings).post(puzzle_result))
            .route("/online/@/{name}", get(profile_page));
        if tournaments {
            router = router
                .route(
                    "/api/tournaments",
                    get(crate::tournaments::list).post(crate::tournaments::create),
                )
                .route("/api/tournaments/{id}", get(crate::tournaments::show))
                .route("/api/tournaments/{id}/join", post(crate::tournaments::join))
                .route("/api/tournaments/{id}/withdraw", post(crate::tournaments::withdraw))
                .route("/api/tournaments/{id}/games", get(crate::tournaments::export::games))
                .route("/api/tournaments/{id}/trf", get(crate::tournaments::export::trf))
                .route("/t/{id}", get(crate::tournaments::short_link));
        }
        router.layer(axum::extract::DefaultBodyLimit::max(MAX_BODY_BYTES)).with_state(self)
    }
}

/// The address the request came from (a proxy's, behind one).
pub(crate) fn peer_ip(peer: Option<&Extension<Peer>>) -> IpAddr {
    peer.map_or(IpAddr::from([127, 0, 0, 1]), |Extension(Peer(addr))| addr.ip())
}

pub(crate) fn client(
    accounts: &Accounts,
    peer: Option<&Extension<Peer>>,
    headers: &HeaderMap,
) -> IpAddr {
    let peer = peer_ip(peer);
    let forwarded: Vec<&str> =
        headers.get_all("x-forwarded-for").iter().filter_map(|v| v.to_str().ok()).collect();
    client_address(peer, &forwarded, &accounts.trusted)
}

/// The signed-in account, or `null` (not a refusal: a signed-out page asks this on every load).
async fn me(
    State(routes): State<AccountRoutes>,
    peer: Option<Extension<Peer>>,
    headers: HeaderMap,
) -> Result<Response, Refused> {
    let accounts = &routes.accounts;
    accounts.read(client(accounts, peer.as_ref(), &headers))?;
    if let Some((_, account)) = accounts.signed_in(&headers).await? {
        return accounts.view(&account, None).await;
    }
    let none: Option<qi_protocol::AccountView> = None;
    let mut response =
        (StatusCode::OK, [(header::CACHE_CONTROL, "no-store")], axum::Json(none)).into_response();
    // A cookie that names no live session is forgotten.
    if session_cookie(&headers).is_some() {
        response.headers_mut().insert(header::SET_COOKIE, clear_cookie());
    }
    Ok(response)
}

pub(crate) fn not_signed_in() -> Refused {
    refusal(StatusCode::UNAUTHORIZED, AccountErrorCode::NotSignedIn, "not signed in")
}

fn wrong_credentials(detail: &str) -> Refused {
    refusal(StatusCode::UNAUTHORIZED, AccountErrorCode::WrongCredentials, detail)
}

async fn register(
    State(routes): State<AccountRoutes>,
    peer: Option<Extension<Peer>>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, Refused> {
    let accounts = &routes.accounts;
    let from = peer_ip(peer.as_ref());
    let credentials: Credentials = accounts.read_json(from, &headers, &body)?;
    accounts.attempt(client(accounts, peer.as_ref(), &headers)).await?;
    let name = check_username(&credentials.name).map_err(|e| {
        refusal(StatusCode::BAD_REQUEST, AccountErrorCode::BadUsername, e.to_string())
    })?;
    crate::names::check_single_script(&name).map_err(|detail| {
        refusal(StatusCode::BAD_REQUEST, AccountErrorCode::BadUsername, detail)
    })?;
    check_password(&credentials.password).map_err(|detail| {
        refusal(StatusCode::BAD_REQUEST, AccountErrorCode::BadPassword, detail)
    })?;
    let password_hash = accounts.hash(credentials.password).await?;
    let account =
        AccountRecord { key: username_key(&name), name, password_hash, created_unix_ms: unix_ms() };
    let (session, token) = Accounts::new_session(&account)?;
    match accounts.storage.register(account.clone(), session).await {
        Ok(true) => {
            tracing::info!(account = %account.key, "account registered");
            accounts.view(&account, Some(accounts.set_cookie(&token, from, &headers))).await
        }
        Ok(false) => Err(refusal(
            StatusCode::CONFLICT,
            AccountErrorCode::NameTaken,
            "that username, or one that differs only in case, form or letters that look alike, \
             is taken",
        )),
        Err(e) => Err(unavailable(&e)),
    }
}

async fn login(
    State(routes): State<AccountRoutes>,
    peer: Option<Extension<Peer>>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, Refused> {
    let accounts = &routes.accounts;
    let from = peer_ip(peer.as_ref());
    let credentials: Credentials = accounts.read_json(from, &headers, &body)?;
    accounts.attempt(client(accounts, peer.as_ref(), &headers)).await?;
    // A name longer than any username is nobody's: looked up (and counted) cut short.
    let name: String = credentials.name.trim().chars().take(LOOKUP_MAX_CHARS).collect();
    let key = username_key(&name);
    accounts.attempt_on(&key).await?;
    // A password longer than any that can be set is checked against nothing, not hashed.
    let plausible = credentials.password.chars().count() <= qi_protocol::PASSWORD_MAX_CHARS;
    let account = accounts
        .storage
        .account(key.clone())
        .await
        .map_err(|e| unavailable(&e))?
        .filter(|_| plausible);
    let password = if plausible { credentials.password.as_str() } else { "" };
    if !accounts.password_matches(account.as_ref(), password).await? {
        return Err(wrong_credentials("wrong username or password"));
    }
    let Some(account) = account else { return Err(unavailable(&"no account")) };
    let (session, token) = Accounts::new_session(&account)?;
    accounts.storage.write(vec![Write::Session(session)]).await.map_err(|e| unavailable(&e))?;
    accounts.view(&account, Some(accounts.set_cookie(&token, from, &headers))).await
}

async fn logout(
    State(routes): State<AccountRoutes>,
    peer: Option<Extension<Peer>>,
    headers: HeaderMap,
) -> Result<Response, Refused> {
    routes.accounts.check_post(peer_ip(peer.as_ref()), &headers)?;
    if let Some(token) = session_cookie(&headers) {
        let end = Write::EndSession { token_hash: hash_token(&token) };
        routes.accounts.storage.write(vec![end]).await.map_err(|e| unavailable(&e))?;
    }
    Ok((StatusCode::NO_CONTENT, [(header::SET_COOKIE, clear_cookie())]).into_response())
}

async fn logout_everywhere(
    State(routes): State<AccountRoutes>,
    peer: Option<Extension<Peer>>,
    headers: HeaderMap,
) -> Result<Response, Refused> {
    let accounts = &routes.accounts;
    accounts.check_post(peer_ip(peer.as_ref()), &headers)?;
    let Some((_, account)) = accounts.signed_in(&headers).await? else {
        return Err(not_signed_in());
    };
    let end = Write::EndSessions { account: account.key };
    accounts.storage.write(vec![end]).await.map_err(|e| unavailable(&e))?;
    Ok((StatusCode::NO_CONTENT, [(header::SET_COOKIE, clear_cookie())]).into_response())
}

async fn change_password(
    State(routes): State<AccountRoutes>,
    peer: Option<Extension<Peer>>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, Refused> {
    let accounts = &routes.accounts;
    let from = peer_ip(peer.as_ref());
    let change: PasswordChange = accounts.read_json(from, &headers, &body)?;
    let Some((_, account)) = accounts.signed_in(&headers).await? else {
        return Err(not_signed_in());
    };
    accounts.attempt(client(accounts, peer.as_ref(), &headers)).await?;
    accounts.attempt_on(&account.key).await?;
    check_password(&change.new).map_err(|detail| {
        refusal(StatusCode::BAD_REQUEST, AccountErrorCode::BadPassword, detail)
    })?;
    let plausible = change.old.chars().count() <= qi_protocol::PASSWORD_MAX_CHARS;
    if !plausible || !accounts.password_matches(Some(&account), &change.old).await? {
        return Err(wrong_credentials("that is not the password now"));
    }
    let password_hash = accounts.hash(change.new).await?;
    let (session, token) = Accounts::new_session(&account)?;
    let writes = vec![
        Write::Password { account: account.key.clone(), password_hash },
        Write::EndSessions { account: account.key.clone() },
        Write::Session(session),
    ];
    accounts.storage.write(writes).await.map_err(|e| unavailable(&e))?;
    accounts.view(&account, Some(accounts.set_cookie(&token, from, &headers))).await
}

async fn profile(
    State(routes): State<AccountRoutes>,
    peer: Option<Extension<Peer>>,
    headers: HeaderMap,
    Path(name): Path<String>,
) -> Result<Response, Refused> {
    let accounts = &routes.accounts;
    accounts.read(client(accounts, peer.as_ref(), &headers))?;
    let name: String = name.trim().chars().take(LOOKUP_MAX_CHARS).collect();
    let key = username_key(&name);
    let data = routes.accounts.storage.profile(key, PROFILE_GAMES).await;
    let Some(data) = data.map_err(|e| unavailable(&e))? else {
        return Err(refusal(
            StatusCode::NOT_FOUND,
            AccountErrorCode::UnknownPlayer,
            format!("no player is called {name:?}"),
        ));
    };
    let view = profile_view(&data, unix_ms());
    Ok((StatusCode::OK, [(header::CACHE_CONTROL, "no-cache")], axum::Json(view)).into_response())
}

/// The signed-in player's puzzle ratings, one per game ([`crate::puzzles`]); `null` when signed
/// out (not a refusal: the puzzle page asks on every load).
async fn puzzle_ratings(
    State(routes): State<AccountRoutes>,
    peer: Option<Extension<Peer>>,
    headers: HeaderMap,
) -> Result<Response, Refused> {
    let accounts = &routes.accounts;
    accounts.read(client(accounts, peer.as_ref(), &headers))?;
    let views = match accounts.signed_in(&headers).await? {
        Some((_, account)) => {
            let results =
                accounts.storage.puzzle_results(account.key).await.map_err(|e| unavailable(&e))?;
            Some(crate::puzzles::ratings(&results))
        }
        None => None,
    };
    Ok((StatusCode::OK, [(header::CACHE_CONTROL, "no-store")], axum::Json(views)).into_response())
}

/// A puzzle's first result for the signed-in player: kept (a later one on the same puzzle is
/// not), and the game's puzzle rating after it returned.
async fn puzzle_result(
    State(routes): State<AccountRoutes>,
    peer: Option<Extension<Peer>>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, Refused> {
    let accounts = &routes.accounts;
    let from = peer_ip(peer.as_ref());
    let result: qi_protocol::PuzzleResult = accounts.read_json(from, &headers, &body)?;
    accounts.read(client(accounts, peer.as_ref(), &headers))?;
    let Some((_, account)) = accounts.signed_in(&headers).await? else {
        return Err(not_signed_in());
    };
    let bad =
        |detail: String| refusal(StatusCode::BAD_REQUEST, AccountErrorCode::BadRequest, detail);
    result.check().map_err(bad)?;
    // The puzzle's rating is the served database's, never the request's.
    let Some((rating, deviation)) = accounts.puzzles.rating_of(&result.game, &result.puzzle) else {
        return Err(bad(format!("no {} puzzle {:?} here", result.game, result.puzzle)));
    };
    let storage = &accounts.storage;
    let mut results =
        storage.puzzle_results(account.key.clone()).await.map_err(|e| unavailable(&e))?;
    let seen = results.iter().any(|r| r.game == result.game && r.puzzle == result.puzzle);
    if !seen {
        if results.len() >= crate::puzzles::MAX_RESULTS {
            return Err(refusal(
                StatusCode::TOO_MANY_REQUESTS,
                AccountErrorCode::TooManyAttempts,
                "this account has rated as many puzzles as it may",
            ));
        }
        let record = crate::storage::PuzzleResultRecord {
            account: account.key.clone(),
            game: result.game.clone(),
            puzzle: result.puzzle,
            rating,
            deviation,
            solved: result.solved,
            unix_ms: unix_ms(),
        };
        // The store keeps the first result on a puzzle even if another tab's came meanwhile;
        // the answer counts this one as the list read plus it.
        storage
            .write(vec![Write::PuzzleResult(record.clone())])
            .await
            .map_err(|e| unavailable(&e))?;
        results.push(record);
    }
    let view = crate::puzzles::ratings(&results).into_iter().find(|v| v.game == result.game);
    Ok((StatusCode::OK, [(header::CACHE_CONTROL, "no-store")], axum::Json(view)).into_response())
}

/// `online/@/<name>`: the online page's profile view of that player (`online/?player=`).
async fn profile_page(Path(name): Path<String>) -> Response {
    let query = qi_protocol::encode_name(&name);
    let location = format!("../?player={query}");
    match HeaderValue::from_str(&location) {
        Ok(location) => (StatusCode::SEE_OTHER, [(header::LOCATION, location)]).into_response(),
        Err(_) => (StatusCode::BAD_REQUEST, "not a name\n").into_response(),
    }
}
