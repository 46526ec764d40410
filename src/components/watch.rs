//! The app's "watch live" corner: when a Qi server serves the app, a frame with the game its
//! lobby's watchers follow most (the `tv/` page), shown only while a game is being played there;
//! on a static host, offline or when the server does not answer, nothing at all.
//!
//! The frame is loaded a moment after the page (not to slow the first load) and kept out of
//! sight until the `tv/` page, which asks the server's lobby, tells this page that it shows a
//! game (a `{"qiTv": true}` message from the same origin); `false` hides it again.

use wasm_bindgen::JsCast;
use yew::prelude::*;

use qi_i18n::text::Lang;
use qi_settings::Theme;

/// How long after the page opens the frame is asked for: the first load comes first.
const DELAY_MS: i32 = 2_000;

/// Properties of [`WatchCorner`].
#[derive(Properties, PartialEq)]
pub struct WatchCornerProps {
    /// The interface language (passed to the framed page).
    pub lang: Lang,
    /// The theme (passed to the framed page).
    pub theme: Theme,
}

/// Whether `event` is the `tv/` page's word from this origin, and what it says.
fn live_news(event: &web_sys::Event) -> Option<bool> {
    let get =
        |target: &wasm_bindgen::JsValue, key: &str| js_sys::Reflect::get(target, &key.into()).ok();
    let origin = web_sys::window()?.location().origin().ok()?;
    if get(event.as_ref(), "origin")?.as_string()? != origin {
        return None;
    }
    get(&get(event.as_ref(), "data")?, "qiTv")?.as_bool()
}

/// Listens for the `tv/` page's word while the returned guard lives.
fn on_live_news(mut heard: impl FnMut(bool) + 'static) -> Option<impl FnOnce()> {
    let window = web_sys::window()?;
    let closure = wasm_bindgen::closure::Closure::<dyn FnMut(web_sys::Event)>::new(
        move |e: web_sys::Event| {
            if let Some(live) = live_news(&e) {
                heard(live);
            }
        },
    );
    window.add_event_listener_with_callback("message", closure.as_ref().unchecked_ref()).ok()?;
    Some(move || {
        let _ =
            window.remove_event_listener_with_callback("message", closure.as_ref().unchecked_ref());
        drop(closure);
    })
}

/// The "watch live" frame while a game is being played on the server, or nothing.
#[function_component(WatchCorner)]
pub fn watch_corner(props: &WatchCornerProps) -> Html {
    let served = use_memo((), |()| crate::web::served_by_qi_server());
    let asked = use_state(|| false);
    let live = use_state(|| false);
    {
        let (asked, live, served) = (asked.clone(), live.clone(), *served);
        use_effect_with((), move |()| {
            let listening = served.then(|| on_live_news(move |news| live.set(news))).flatten();
            let waiting =
                served.then(|| crate::web::timeout(DELAY_MS, move || asked.set(true))).flatten();
            move || {
                if let Some(stop) = listening {
                    stop();
                }
                if let Some(stop) = waiting {
                    stop();
                }
            }
        });
    }
    if !*served || !*asked {
        return Html::default();
    }
    let theme = if props.theme == Theme::Dark { "dark" } else { "light" };
    let src = format!("tv/?lang={}&theme={theme}", props.lang.tag());
    let title = qi_i18n::text::t(props.lang, qi_i18n::text::Text::WatchLive);
    // Out of sight (and out of the Tab order) until a game is there to watch.
    let waiting = (!*live).then_some("watch-waiting");
    html! {
        <iframe class={classes!("watch-corner", waiting)} data-testid="watch-corner"
            data-live={live.to_string()} tabindex={(!*live).then_some("-1")}
            aria-hidden={(!*live).then_some("true")} {src} {title}></iframe>
    }
}
