//! The puzzle page's side of the server's puzzle ratings (`/api/puzzles`, docs/server.md): the
//! signed-in player's ratings, and each rated result sent. JSON is read with the browser's own
//! parser, not serde's, so that the page (which a blog's frame loads) does not carry a JSON
//! library for two small messages.

use js_sys::Reflect;
use qi_protocol::{PuzzleRatingView, PuzzleResult};
use wasm_bindgen::JsValue;

use crate::web;

/// A field of a parsed JSON object.
fn field(object: &JsValue, name: &str) -> Option<JsValue> {
    Reflect::get(object, &JsValue::from_str(name))
        .ok()
        .filter(|v| !v.is_undefined() && !v.is_null())
}

/// One rating, as the server writes it; `None` when it is not one.
fn view_of(object: &JsValue) -> Option<PuzzleRatingView> {
    let number = |name| field(object, name).and_then(|v| v.as_f64()).filter(|n| n.is_finite());
    let count = |name| number(name).map(|n| n.clamp(0.0, f64::from(u32::MAX)) as u32);
    Some(PuzzleRatingView {
        game: field(object, "game")?.as_string()?,
        rating: number("rating")?,
        deviation: number("deviation")?,
        volatility: number("volatility")?,
        tried: count("tried")?,
        solved: count("solved")?,
    })
}

/// What the server said of this browser's player.
pub enum Account {
    /// Signed in: the account's ratings (a game never rated is missing).
    SignedIn(Vec<PuzzleRatingView>),
    /// No one is signed in.
    SignedOut,
}

/// The signed-in player's ratings, or that no one is signed in; `None` when the server gave
/// no answer that says either.
pub async fn ratings() -> Option<Account> {
    let (status, text) = web::request("/api/puzzles", None).await.ok()?;
    if status != 200 {
        return None;
    }
    let parsed = js_sys::JSON::parse(&text).ok()?;
    if parsed.is_null() {
        return Some(Account::SignedOut);
    }
    if !js_sys::Array::is_array(&parsed) {
        return None;
    }
    Some(Account::SignedIn(
        js_sys::Array::from(&parsed).iter().filter_map(|item| view_of(&item)).collect(),
    ))
}

/// How sending a result went.
pub enum Sent {
    /// Kept (or kept before: the first result stays), with the game's rating after it when
    /// the answer carried one.
    Kept(Option<PuzzleRatingView>),
    /// Refused for good (a result the server cannot take, such as a puzzle it does not have).
    Refused,
    /// No one is signed in any more.
    SignedOut,
    /// No answer (offline, or the server failed): to try again later.
    NoAnswer,
}

/// Sends a rated result.
pub async fn send(result: &PuzzleResult) -> Sent {
    // Checked first: the game is a known name and the id letters and digits, so the text
    // needs no escaping.
    if result.check().is_err() {
        return Sent::Refused;
    }
    let body = format!(
        r#"{{"game":"{}","puzzle":"{}","solved":{}}}"#,
        result.game, result.puzzle, result.solved
    );
    match web::request("/api/puzzles", Some(&body)).await {
        Ok((200, text)) => {
            Sent::Kept(js_sys::JSON::parse(&text).ok().and_then(|json| view_of(&json)))
        }
        Ok((401, _)) => Sent::SignedOut,
        // A bad result, or a puzzle this server does not have: sending it again changes nothing.
        Ok((400 | 404 | 413 | 422, _)) => Sent::Refused,
        // Too many requests (the address's limit, or the account's cap), a refused origin, a
        // server error, no answer: kept for later.
        Ok(_) | Err(_) => Sent::NoAnswer,
    }
}
