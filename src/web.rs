//! The few browser services the app uses: time, secure randomness, storage, the address and the
//! browser's language. Everything here fails soft: a blocked storage or a missing API gives a
//! default, never a panic.

use wasm_bindgen::JsCast;

/// Milliseconds on the page's monotonic clock.
#[must_use]
pub fn now_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

/// A seed from the browser's secure randomness (`crypto.getRandomValues`), for banqi deals and
/// Chess960 starts.
#[must_use]
pub fn random_seed() -> u64 {
    let mut bytes = [0u8; 8];
    let filled = web_sys::window()
        .and_then(|w| w.crypto().ok())
        .is_some_and(|c| c.get_random_values_with_u8_array(&mut bytes).is_ok());
    if filled {
        u64::from_le_bytes(bytes)
    } else {
        // No Web Crypto (a very old browser): the clock is the best we have.
        (now_ms() * 1000.0) as u64 ^ (js_sys::Date::now() as u64).rotate_left(17)
    }
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

/// A value from localStorage.
#[must_use]
pub fn load(key: &str) -> Option<String> {
    storage()?.get_item(key).ok()?
}

/// Keeps a value in localStorage (silently does nothing where storage is blocked).
pub fn save(key: &str, value: &str) {
    if let Some(storage) = storage() {
        let _ = storage.set_item(key, value);
    }
}

/// The browser's preferred language tag.
#[must_use]
pub fn browser_language() -> String {
    web_sys::window().and_then(|w| w.navigator().language()).unwrap_or_default()
}

/// The query of the page's address, with its `?` (empty when there is none).
#[must_use]
pub fn location_query() -> String {
    web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default()
}

/// Puts `query` (without `?`) in the address bar: a new history entry when `new_entry`, else in
/// place of the current one. The page's path and any `#` part stay.
pub fn set_query(query: &str, new_entry: bool) {
    let Some(window) = web_sys::window() else { return };
    let Ok(history) = window.history() else { return };
    let location = window.location();
    let path = location.pathname().unwrap_or_default();
    let hash = location.hash().unwrap_or_default();
    let url =
        if query.is_empty() { format!("{path}{hash}") } else { format!("{path}?{query}{hash}") };
    let _ = if new_entry {
        history.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url))
    } else {
        history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url))
    };
}

/// The page's address, in full.
#[must_use]
pub fn location_href() -> String {
    web_sys::window().and_then(|w| w.location().href().ok()).unwrap_or_default()
}

/// Calls `changed` whenever the browser's back or forward buttons change the address, while the
/// returned guard lives.
pub fn on_history_change(changed: impl FnMut() + 'static) -> Option<impl FnOnce()> {
    let window = web_sys::window()?;
    let closure = wasm_bindgen::closure::Closure::<dyn FnMut()>::new(changed);
    window.add_event_listener_with_callback("popstate", closure.as_ref().unchecked_ref()).ok()?;
    Some(move || {
        let _ = window
            .remove_event_listener_with_callback("popstate", closure.as_ref().unchecked_ref());
        drop(closure);
    })
}

/// Sets the document's language and colour theme on the root element, for fonts and the
/// browser's own widgets.
pub fn set_document_attributes(lang: &str, theme: &str) {
    let Some(root) =
        web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element())
    else {
        return;
    };
    let _ = root.set_attribute("lang", lang);
    let _ = root.set_attribute("data-theme", theme);
    if let Ok(element) = root.dyn_into::<web_sys::HtmlElement>() {
        let _ = element.style().set_property("color-scheme", theme);
    }
}

/// Runs `tick` every `period` ms while the returned guard lives.
pub fn interval(period: i32, tick: impl FnMut() + 'static) -> Option<impl FnOnce()> {
    let window = web_sys::window()?;
    let closure = wasm_bindgen::closure::Closure::<dyn FnMut()>::new(tick);
    let id = window
        .set_interval_with_callback_and_timeout_and_arguments_0(
            closure.as_ref().unchecked_ref(),
            period,
        )
        .ok()?;
    Some(move || {
        window.clear_interval_with_handle(id);
        drop(closure);
    })
}
