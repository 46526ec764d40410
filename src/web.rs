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

/// A parameter of the page's address (`?game=xiangqi`).
#[must_use]
pub fn query_param(name: &str) -> Option<String> {
    let search = web_sys::window()?.location().search().ok()?;
    let params = web_sys::UrlSearchParams::new_with_str(&search).ok()?;
    params.get(name)
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
