//! The account requests to the server (`/api/account/…`, `/api/profile/…`): one typed function
//! a request, each answering the server's JSON or its [`AccountError`]. The session is an
//! HttpOnly cookie the page never sees; the requests go with `credentials: same-origin`.
//!
//! Failures that are not the server's answer (no network, a static host without the API, a body
//! that is not JSON) come back as [`AccountErrorCode::Unavailable`] with an empty detail.

use qi_protocol::{
    AccountError, AccountErrorCode, AccountView, Credentials, PasswordChange, ProfileView,
};
use serde::de::DeserializeOwned;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{Request, RequestCredentials, RequestInit, Response};

use super::address::encode_name;

/// What the server says of this browser's account.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AccountState {
    /// Not asked yet, or no answer yet.
    Unknown,
    /// No account API here (a static host, an older server): no account shown.
    Unavailable,
    /// The API answers, and this browser is not signed in.
    SignedOut,
    /// Signed in.
    SignedIn(AccountView),
}

impl AccountState {
    /// The signed-in username.
    #[must_use]
    pub fn name(&self) -> Option<&str> {
        match self {
            AccountState::SignedIn(view) => Some(&view.name),
            _ => None,
        }
    }
}

/// The error for a failure that is not the server's answer.
fn unavailable() -> AccountError {
    AccountError { code: AccountErrorCode::Unavailable, detail: String::new() }
}

/// Sends a request to `path` (absolute on the page's host): `body` as JSON for a POST, none for
/// a GET. The response, or an error that is not the server's.
async fn send(path: &str, body: Option<String>) -> Result<Response, AccountError> {
    let init = RequestInit::new();
    init.set_credentials(RequestCredentials::SameOrigin);
    init.set_method(if body.is_some() { "POST" } else { "GET" });
    if let Some(body) = &body {
        init.set_body(&JsValue::from_str(body));
    }
    let request = Request::new_with_str_and_init(path, &init).map_err(|_| unavailable())?;
    let headers = request.headers();
    let _ = headers.set("Accept", "application/json");
    if body.is_some() {
        let _ = headers.set("Content-Type", "application/json");
    }
    let window = web_sys::window().ok_or_else(unavailable)?;
    let response = JsFuture::from(window.fetch_with_request(&request)).await;
    response.ok().and_then(|r| r.dyn_into::<Response>().ok()).ok_or_else(unavailable)
}

/// The body of `response` as text.
async fn text_of(response: &Response) -> Result<String, AccountError> {
    let promise = response.text().map_err(|_| unavailable())?;
    JsFuture::from(promise).await.ok().and_then(|text| text.as_string()).ok_or_else(unavailable)
}

/// Reads an answer: `T` on success, the server's [`AccountError`] on a refusal, or
/// [`AccountErrorCode::Unavailable`] for anything else.
async fn answer<T: DeserializeOwned>(response: Response) -> Result<T, AccountError> {
    let text = text_of(&response).await?;
    if response.ok() {
        serde_json::from_str(&text).map_err(|_| unavailable())
    } else {
        Err(serde_json::from_str(&text).unwrap_or_else(|_| unavailable()))
    }
}

/// A request whose success has no body (204).
async fn no_answer(response: Response) -> Result<(), AccountError> {
    if response.ok() { Ok(()) } else { answer::<()>(response).await }
}

/// Whether this browser is signed in: `GET /api/account`.
pub async fn status() -> AccountState {
    let Ok(response) = send("/api/account", None).await else {
        return AccountState::Unavailable;
    };
    match answer::<Option<AccountView>>(response).await {
        Ok(Some(view)) => AccountState::SignedIn(view),
        // `null`: signed out (an older server answered 401).
        Ok(None) | Err(AccountError { code: AccountErrorCode::NotSignedIn, .. }) => {
            AccountState::SignedOut
        }
        Err(_) => AccountState::Unavailable,
    }
}

fn json<T: serde::Serialize>(value: &T) -> Option<String> {
    serde_json::to_string(value).ok()
}

/// Makes an account and signs in: `POST /api/account/register`.
///
/// # Errors
/// The server's refusal (bad username or password, name taken, too many attempts).
pub async fn register(credentials: &Credentials) -> Result<AccountView, AccountError> {
    answer(send("/api/account/register", json(credentials)).await?).await
}

/// Signs in: `POST /api/account/login`.
///
/// # Errors
/// The server's refusal (wrong credentials, too many attempts).
pub async fn login(credentials: &Credentials) -> Result<AccountView, AccountError> {
    answer(send("/api/account/login", json(credentials)).await?).await
}

/// Signs this browser out: `POST /api/account/logout`.
///
/// # Errors
/// The server's refusal, or no answer.
pub async fn logout() -> Result<(), AccountError> {
    no_answer(send("/api/account/logout", Some("{}".to_owned())).await?).await
}

/// Ends every session of the account: `POST /api/account/logout-everywhere`.
///
/// # Errors
/// The server's refusal, or no answer.
pub async fn logout_everywhere() -> Result<(), AccountError> {
    no_answer(send("/api/account/logout-everywhere", Some("{}".to_owned())).await?).await
}

/// Changes the password (other sessions end): `POST /api/account/password`.
///
/// # Errors
/// The server's refusal (wrong old password, a new one that breaks the rules).
pub async fn change_password(change: &PasswordChange) -> Result<AccountView, AccountError> {
    answer(send("/api/account/password", json(change)).await?).await
}

/// A player's public page: `GET /api/profile/<name>`.
///
/// # Errors
/// [`AccountErrorCode::UnknownPlayer`] when there is no such player.
pub async fn profile(name: &str) -> Result<ProfileView, AccountError> {
    answer(send(&format!("/api/profile/{}", encode_name(name)), None).await?).await
}

/// The lobby's tournaments: `GET /api/tournaments`.
///
/// # Errors
/// No answer ([`AccountErrorCode::Unavailable`]: a server without tournaments too).
pub async fn tournaments() -> Result<qi_protocol::tournament::TournamentLists, AccountError> {
    answer(send("/api/tournaments", None).await?).await
}

/// One tournament as this browser's account sees it: `GET /api/tournaments/<id>`.
///
/// # Errors
/// [`AccountErrorCode::NotFound`] when there is no such tournament.
pub async fn tournament(id: &str) -> Result<qi_protocol::tournament::TournamentView, AccountError> {
    answer(send(&format!("/api/tournaments/{id}"), None).await?).await
}

/// Creates a tournament: `POST /api/tournaments`.
///
/// # Errors
/// The server's refusal (a setting out of bounds, the limits per account, signed out).
pub async fn create_tournament(
    spec: &qi_protocol::tournament::Spec,
) -> Result<qi_protocol::tournament::TournamentView, AccountError> {
    answer(send("/api/tournaments", json(spec)).await?).await
}

/// Joins tournament `id` (`password` for a private one), or withdraws from it (an arena:
/// pauses): `POST /api/tournaments/<id>/join` or `…/withdraw`.
///
/// # Errors
/// The server's refusal (the password, the rating bounds, full, closed, signed out).
pub async fn tournament_membership(
    id: &str,
    join: bool,
    password: Option<String>,
) -> Result<qi_protocol::tournament::TournamentView, AccountError> {
    let (what, body) = if join {
        ("join", json(&qi_protocol::tournament::JoinRequest { password }))
    } else {
        ("withdraw", Some("{}".to_owned()))
    };
    answer(send(&format!("/api/tournaments/{id}/{what}"), body).await?).await
}
