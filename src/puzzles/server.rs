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
    Reflect::get(object, &JsValue::from_str(name)).ok().filter(|v| !v.is_undefined() && !v.is_null())
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

/// The signed-in player's ratings; `None` when signed out, or when the server gives none.
pub async fn ratings() -> Option<Vec<PuzzleRatingView>> {
    let (status, text) = web::request("/api/puzzles", None).await.ok()?;
    if status != 200 {
        return None;
    }
    let parsed = js_sys::JSON::parse(&text).ok()?;
    if !js_sys::Array::is_array(&parsed) {
        return None;
    }
    Some(js_sys::Array::from(&parsed).iter().filter_map(|item| view_of(&item)).collect())
}

/// Sends a rated result; the game's rating after it, when the server keeps one.
pub async fn send(result: &PuzzleResult) -> Option<PuzzleRatingView> {
    // Checked first: the game is a known name and the id letters and digits, so the text
    // needs no escaping.
    result.check().ok()?;
    let body = format!(
        r#"{{"game":"{}","puzzle":"{}","solved":{}}}"#,
        result.game, result.puzzle, result.solved
    );
    let (status, text) = web::request("/api/puzzles", Some(&body)).await.ok()?;
    if status != 200 {
        return None;
    }
    view_of(&js_sys::JSON::parse(&text).ok()?)
}
