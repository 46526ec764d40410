//! The few browser services the app uses: time, secure randomness, storage, the address and the
//! browser's language. Everything here fails soft: a blocked storage or a missing API gives a
//! default, never a panic.

use wasm_bindgen::{JsCast, JsValue};

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

/// Removes a value from localStorage (silently does nothing where storage is blocked).
pub fn remove(key: &str) {
    if let Some(storage) = storage() {
        let _ = storage.remove_item(key);
    }
}

/// Removes the page's loading state (`#qi-loading`, in each index.html) once the app is
/// mounted. Yew empties `<body>` as it mounts, which removes it too; this keeps it gone should
/// the app ever mount elsewhere.
pub fn remove_loading() {
    if let Some(element) =
        web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id("qi-loading"))
    {
        element.remove();
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

/// Goes to `href` (relative to the page), as a link followed would: a new history entry and a
/// fresh page.
pub fn go_to(href: &str) {
    if let Some(window) = web_sys::window() {
        let _ = window.location().assign(href);
    }
}

/// Goes to `href` (relative to the page) in place of the page: the current address leaves
/// the history, so the back button does not come back to a page that would go again.
pub fn replace_with(href: &str) {
    if let Some(window) = web_sys::window() {
        let _ = window.location().replace(href);
    }
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

/// Whether the page is hidden (another tab, a minimised window): the engine then rests.
#[must_use]
pub fn page_hidden() -> bool {
    web_sys::window().and_then(|w| w.document()).is_some_and(|d| d.hidden())
}

/// Calls `changed` whenever the page is hidden or shown again, while the returned guard lives.
pub fn on_visibility_change(changed: impl FnMut() + 'static) -> Option<impl FnOnce()> {
    let document = web_sys::window()?.document()?;
    let closure = wasm_bindgen::closure::Closure::<dyn FnMut()>::new(changed);
    let listener = closure.as_ref().unchecked_ref();
    document.add_event_listener_with_callback("visibilitychange", listener).ok()?;
    Some(move || {
        let _ = document.remove_event_listener_with_callback(
            "visibilitychange",
            closure.as_ref().unchecked_ref(),
        );
        drop(closure);
    })
}

thread_local! {
    /// Whether the battery runs low and is not charging, as the Battery Status API last said
    /// (see [`watch_battery`]); `false` where the browser does not say.
    static BATTERY_LOW: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Below this share of charge, a battery that is not charging counts as low.
const LOW_BATTERY: f64 = 0.2;

/// Starts following the battery (Chromium's `navigator.getBattery`), so [`battery_low`] can
/// say when to spare it. Nothing happens in browsers without the API.
pub fn watch_battery() {
    let Some(navigator) = web_sys::window().map(|w| w.navigator()) else { return };
    let get = js_sys::Reflect::get(&navigator, &JsValue::from_str("getBattery"));
    let Some(get) = get.ok().and_then(|g| g.dyn_into::<js_sys::Function>().ok()) else { return };
    let Some(promise) =
        get.call0(&navigator).ok().and_then(|p| p.dyn_into::<js_sys::Promise>().ok())
    else {
        return;
    };
    wasm_bindgen_futures::spawn_local(async move {
        let Ok(battery) = wasm_bindgen_futures::JsFuture::from(promise).await else { return };
        let read = {
            let battery = battery.clone();
            move || {
                let field = |name| js_sys::Reflect::get(&battery, &JsValue::from_str(name)).ok();
                let charging = field("charging").is_some_and(|c| c.is_truthy());
                let level = field("level").and_then(|l| l.as_f64()).unwrap_or(1.0);
                BATTERY_LOW.with(|low| low.set(!charging && level < LOW_BATTERY));
            }
        };
        read();
        let closure = wasm_bindgen::closure::Closure::<dyn FnMut()>::new(read);
        for event in ["chargingchange", "levelchange"] {
            let target: &web_sys::EventTarget = battery.unchecked_ref();
            let _ =
                target.add_event_listener_with_callback(event, closure.as_ref().unchecked_ref());
        }
        // Followed for the page's whole life.
        closure.forget();
    });
}

/// Whether the battery runs low and is not charging: the engine does not think on the
/// person's time then.
#[must_use]
pub fn battery_low() -> bool {
    BATTERY_LOW.with(std::cell::Cell::get)
}

/// A key that walks the move list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveKey {
    /// ←: one move back.
    Back,
    /// →: one move forward.
    Forward,
    /// ↑ or Home: the start.
    First,
    /// ↓ or End: the end of the line shown.
    Last,
    /// Esc: let go of what the board holds (a picked-up piece, a queued move).
    Cancel,
}

/// Calls `pressed` for ←, →, ↑, ↓, Home, End and Esc pressed anywhere on the page, while the
/// returned guard lives — except where those keys already mean something: in a text field or
/// a list box, inside a dialog, with Ctrl, Alt or Meta held (the browser's own shortcuts), or
/// when something on the page already took the key (the board does, for its arrows, when it
/// was reached with the keyboard).
pub fn on_move_keys(mut pressed: impl FnMut(MoveKey) + 'static) -> Option<impl FnOnce()> {
    let document = web_sys::window()?.document()?;
    let closure = wasm_bindgen::closure::Closure::<dyn FnMut(web_sys::KeyboardEvent)>::new(
        move |event: web_sys::KeyboardEvent| {
            if event.ctrl_key() || event.alt_key() || event.meta_key() || event.default_prevented()
            {
                return;
            }
            let key = match event.key().as_str() {
                "ArrowLeft" => MoveKey::Back,
                "ArrowRight" => MoveKey::Forward,
                "ArrowUp" | "Home" => MoveKey::First,
                "ArrowDown" | "End" => MoveKey::Last,
                "Escape" => MoveKey::Cancel,
                _ => return,
            };
            let target = event.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok());
            if let Some(target) = target {
                let busy = target
                    .closest("input, textarea, select, [contenteditable], dialog, [role=dialog], [aria-modal]")
                    .ok()
                    .flatten()
                    .is_some();
                if busy {
                    return;
                }
            }
            event.prevent_default();
            pressed(key);
        },
    );
    document.add_event_listener_with_callback("keydown", closure.as_ref().unchecked_ref()).ok()?;
    Some(move || {
        let _ = document
            .remove_event_listener_with_callback("keydown", closure.as_ref().unchecked_ref());
        drop(closure);
    })
}

/// Whether the main pointer is coarse (a finger on a touch screen).
#[must_use]
pub fn coarse_pointer() -> bool {
    web_sys::window()
        .and_then(|window| window.match_media("(pointer: coarse)").ok().flatten())
        .is_some_and(|query| query.matches())
}

/// The tab's icon when it is the player's move: the disc with a green dot.
const TURN_ICON: &str = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 64 64'%3E%3Ccircle cx='32' cy='32' r='30' fill='%23f3e2c0' stroke='%23c0392b' stroke-width='4'/%3E%3Ccircle cx='32' cy='32' r='16' fill='%232f6f4f'/%3E%3C/svg%3E";

/// Shows in the tab's icon whether it is the player's move (their own icon otherwise).
pub fn set_turn_icon(yours: bool) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
    let Ok(Some(link)) = document.query_selector("link[rel~='icon']") else { return };
    // The page's own icon is kept beside it, to go back to.
    let own = match link.get_attribute("data-own-icon") {
        Some(own) => own,
        None => {
            let own = link.get_attribute("href").unwrap_or_default();
            let _ = link.set_attribute("data-own-icon", &own);
            own
        }
    };
    let _ = link.set_attribute("href", if yours { TURN_ICON } else { &own });
}

/// Sets the tab's title.
pub fn set_title(title: &str) {
    if let Some(document) = web_sys::window().and_then(|w| w.document()) {
        document.set_title(title);
    }
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

/// Runs `done` once after `delay` ms, unless the returned guard is called first.
pub fn timeout(delay: i32, done: impl FnOnce() + 'static) -> Option<impl FnOnce()> {
    let window = web_sys::window()?;
    let closure = wasm_bindgen::closure::Closure::<dyn FnMut()>::once(done);
    let id = window
        .set_timeout_with_callback_and_timeout_and_arguments_0(
            closure.as_ref().unchecked_ref(),
            delay,
        )
        .ok()?;
    Some(move || {
        window.clear_timeout_with_handle(id);
        drop(closure);
    })
}

/// The `navigator` object, for the APIs that web-sys keeps behind unstable flags.
fn navigator_value() -> Option<wasm_bindgen::JsValue> {
    Some(web_sys::window()?.navigator().into())
}

/// Calls `navigator.<object>.<method>(argument)` (or `navigator.<method>` when `object` is
/// empty) if the browser has it; `None` when it does not.
fn call_navigator(
    object: &str,
    method: &str,
    argument: &wasm_bindgen::JsValue,
) -> Option<js_sys::Promise> {
    let mut target = navigator_value()?;
    if !object.is_empty() {
        target = js_sys::Reflect::get(&target, &object.into()).ok()?;
    }
    let function = js_sys::Reflect::get(&target, &method.into()).ok()?;
    let function = function.dyn_ref::<js_sys::Function>()?;
    function.call1(&target, argument).ok()?.dyn_into::<js_sys::Promise>().ok()
}

/// Copies `text` to the clipboard; resolves to whether it worked.
pub async fn copy_text(text: &str) -> bool {
    let Some(promise) = call_navigator("clipboard", "writeText", &text.into()) else {
        return false;
    };
    wasm_bindgen_futures::JsFuture::from(promise).await.is_ok()
}

/// Whether the browser has a system share sheet (`navigator.share`).
#[must_use]
pub fn can_share() -> bool {
    navigator_value()
        .and_then(|navigator| js_sys::Reflect::get(&navigator, &"share".into()).ok())
        .is_some_and(|share| share.is_function())
}

/// Opens the system share sheet for a link; resolves to whether it was shared.
pub async fn share_link(title: &str, url: &str) -> bool {
    let data = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&data, &"title".into(), &title.into());
    let _ = js_sys::Reflect::set(&data, &"url".into(), &url.into());
    let Some(promise) = call_navigator("", "share", &data.into()) else { return false };
    wasm_bindgen_futures::JsFuture::from(promise).await.is_ok()
}

/// Offers `text` as a file to download, named `name`, of type `mime`.
pub fn download(name: &str, mime: &str, text: &str) {
    let parts = js_sys::Array::of1(&text.into());
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    if let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options) {
        offer(name, &blob);
    }
}

/// Offers `bytes` as a file download named `name`.
pub fn download_bytes(name: &str, mime: &str, bytes: &[u8]) {
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes).into());
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    if let Ok(blob) = web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &options) {
        offer(name, &blob);
    }
}

/// Offers a blob as a file download named `name`, through a link clicked for the player.
fn offer(name: &str, blob: &web_sys::Blob) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(blob) else { return };
    if let Ok(anchor) = document.create_element("a")
        && let Ok(anchor) = anchor.dyn_into::<web_sys::HtmlAnchorElement>()
    {
        anchor.set_href(&url);
        anchor.set_download(name);
        anchor.click();
    }
    let _ = web_sys::Url::revoke_object_url(&url);
}

/// The bytes of a file the player chose; `None` if it cannot be read.
pub async fn read_file(file: web_sys::File) -> Option<Vec<u8>> {
    let buffer = wasm_bindgen_futures::JsFuture::from(file.array_buffer()).await.ok()?;
    Some(js_sys::Uint8Array::new(&buffer).to_vec())
}

/// The name of the `Server-Timing` metric by which a Qi server marks the app's pages.
pub const QI_SERVER_MARK: &str = "qi";

/// Whether this page was served by a Qi server: its navigation entry carries the server's
/// `Server-Timing` mark ([`QI_SERVER_MARK`]). On a static host it does not, and nothing that
/// needs the server is tried (a socket that cannot open would only log errors). Read through
/// reflection, so that a browser without the API says no.
#[must_use]
pub fn served_by_qi_server() -> bool {
    use wasm_bindgen::JsValue;
    let Some(performance) = web_sys::window().and_then(|w| w.performance()) else { return false };
    let entry = performance.get_entries_by_type("navigation").get(0);
    let Ok(timings) = js_sys::Reflect::get(&entry, &JsValue::from_str("serverTiming")) else {
        return false;
    };
    if !js_sys::Array::is_array(&timings) {
        return false;
    }
    js_sys::Array::from(&timings).iter().any(|timing| {
        js_sys::Reflect::get(&timing, &JsValue::from_str("name"))
            .ok()
            .and_then(|name| name.as_string())
            .is_some_and(|name| name == QI_SERVER_MARK)
    })
}

/// The text at `path` (relative to the page), fetched with GET; the reason when it does not
/// come (no network, a status other than 2xx).
pub async fn fetch_text(path: &str) -> Result<String, String> {
    use wasm_bindgen_futures::JsFuture;
    let window = web_sys::window().ok_or("no window")?;
    let response =
        JsFuture::from(window.fetch_with_str(path)).await.map_err(|_| "offline".to_owned())?;
    let response: web_sys::Response = response.dyn_into().map_err(|_| "no response".to_owned())?;
    if !response.ok() {
        return Err(format!("HTTP {}", response.status()));
    }
    let text = response.text().map_err(|_| "no text".to_owned())?;
    JsFuture::from(text).await.ok().and_then(|t| t.as_string()).ok_or_else(|| "no text".to_owned())
}

/// Sends a request to `path` (absolute on the page's host) with this site's cookies: `body` as
/// JSON for a POST, none for a GET. The status and the body's text; the reason when no answer
/// came.
pub async fn request(path: &str, body: Option<&str>) -> Result<(u16, String), String> {
    use wasm_bindgen_futures::JsFuture;
    let init = web_sys::RequestInit::new();
    init.set_credentials(web_sys::RequestCredentials::SameOrigin);
    init.set_method(if body.is_some() { "POST" } else { "GET" });
    if let Some(body) = body {
        init.set_body(&JsValue::from_str(body));
    }
    let request =
        web_sys::Request::new_with_str_and_init(path, &init).map_err(|_| "bad request")?;
    let headers = request.headers();
    let _ = headers.set("Accept", "application/json");
    if body.is_some() {
        let _ = headers.set("Content-Type", "application/json");
    }
    let window = web_sys::window().ok_or("no window")?;
    let response =
        JsFuture::from(window.fetch_with_request(&request)).await.map_err(|_| "offline")?;
    let response: web_sys::Response = response.dyn_into().map_err(|_| "no response")?;
    let text = response.text().map_err(|_| "no text")?;
    let text = JsFuture::from(text).await.ok().and_then(|t| t.as_string()).ok_or("no text")?;
    Ok((response.status(), text))
}
