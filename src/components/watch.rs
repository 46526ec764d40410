//! The app's "watch live" corner: when a Qi server serves the app, a frame with the game its
//! lobby's watchers follow most (the `tv/` page); on a static host, nothing at all.

use yew::prelude::*;

use crate::i18n::Lang;
use crate::settings::Theme;

/// Properties of [`WatchCorner`].
#[derive(Properties, PartialEq)]
pub struct WatchCornerProps {
    /// The interface language (passed to the framed page).
    pub lang: Lang,
    /// The theme (passed to the framed page).
    pub theme: Theme,
}

/// The "watch live" frame, or nothing on a static host.
#[function_component(WatchCorner)]
pub fn watch_corner(props: &WatchCornerProps) -> Html {
    let served = use_memo((), |()| crate::web::served_by_qi_server());
    if !*served {
        return Html::default();
    }
    let theme = if props.theme == Theme::Dark { "dark" } else { "light" };
    let src = format!("tv/?lang={}&theme={theme}", props.lang.tag());
    let title = crate::i18n::t(props.lang, crate::i18n::Text::WatchLive);
    html! {
        <iframe class="watch-corner" data-testid="watch-corner" {src} {title} loading="lazy"></iframe>
    }
}
