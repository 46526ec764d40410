//! Sharing: the buttons under the game, the share dialog (links, the system share sheet, a QR
//! code) and the embed dialog (an `<iframe>` snippet with its preview).

use std::rc::Rc;

use qi_play::Path;
use qi_play::record::GameRecord;
use qi_rules::{GameKind, Side};
use yew::prelude::*;

use super::dialog::Dialog as DialogBox;

use crate::embed::EmbedOptions;
use crate::state::{PlayState, Theme};
use crate::web;
use qi_i18n::text::{Lang, Text, game_name, t};
use qi_play::decimal::{decimal, parse_decimal};
use qi_play::link::{self, View};
use qi_tasks::tasks::{TaskReply, TaskRequest};
use qi_tasks::think::{WorkerReply, WorkerRequest};

/// Which of the sharing dialogs is open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialog {
    /// Links and the QR code.
    Share,
    /// The embed snippet.
    Embed,
    /// Records in and out.
    Records,
    /// The choices of a new game.
    NewGame,
}

/// Properties of [`ShareButtons`].
#[derive(Properties, PartialEq)]
pub struct ShareButtonsProps {
    /// The interface language.
    pub lang: Lang,
    /// Opens a dialog.
    pub open: Callback<Dialog>,
}

/// The buttons that open the sharing dialogs.
#[function_component(ShareButtons)]
pub fn share_buttons(props: &ShareButtonsProps) -> Html {
    let button = |dialog: Dialog, action: &'static str, text: Text| {
        let open = props.open.clone();
        html! {
            <button type="button" data-action={action}
                    onclick={Callback::from(move |_: MouseEvent| open.emit(dialog))}>{ t(props.lang, text) }</button>
        }
    };
    html! {
        <div class="share-buttons">
            { button(Dialog::Share, "share", Text::Share) }
            { button(Dialog::Embed, "embed", Text::Embed) }
            { button(Dialog::Records, "records", Text::Records) }
            <a class="play-online" href="online/" data-action="play-online">{ t(props.lang, Text::PlayOnline) }</a>
        </div>
    }
}

/// The page's address without its query or fragment: where links point.
fn page_base() -> String {
    let href = web::location_href();
    let end = href.find(['?', '#']).unwrap_or(href.len());
    href[..end].to_owned()
}

/// The directory of the page's address (up to its last `/`): where `embed/` is, whether the
/// page was opened as `.../qi/` or `.../qi/index.html`.
fn page_directory() -> String {
    let base = page_base();
    match base.rfind('/') {
        Some(slash) => base[..=slash].to_owned(),
        None => base,
    }
}

/// What the share, embed and records dialogs show of the page: the game, how it is looked at,
/// and the words and look. Only these: a dialog does not draw again when anything else changes
/// (a clock's tick, the engine's analysis).
#[derive(Clone, Debug, PartialEq)]
pub struct ShownGame {
    /// The game (shared with the page's state, not copied).
    pub record: Rc<GameRecord>,
    /// Whether the board is seen from the second side.
    pub flipped: bool,
    /// The position shown, when stepping through the game (see [`PlayState::viewing`]).
    pub viewing: Option<Path>,
    /// The interface language.
    pub lang: Lang,
    /// The theme.
    pub theme: Theme,
}

impl ShownGame {
    /// The dialogs' view of `state`.
    #[must_use]
    pub fn of(state: &PlayState) -> ShownGame {
        ShownGame {
            record: state.record.clone(),
            flipped: state.flipped,
            viewing: state.viewing.clone(),
            lang: state.settings.lang,
            theme: state.settings.theme,
        }
    }

    /// How the game is being looked at: the orientation, and the position when stepping
    /// through it (in a variation too).
    fn view(&self) -> View {
        let bottom = if self.flipped { Side::Second } else { Side::First };
        View { orientation: Some(bottom), at: self.viewing.clone() }
    }
}

/// Properties of the dialogs.
#[derive(Properties, PartialEq)]
pub struct DialogProps {
    /// The game shown.
    pub game: ShownGame,
    /// Closes the dialog.
    pub close: Callback<()>,
}

/// Properties of [`DialogFrame`].
#[derive(Properties, PartialEq)]
pub struct DialogFrameProps {
    /// The interface language.
    pub lang: Lang,
    /// A class for the dialog, for styling and tests.
    pub class: &'static str,
    /// Its heading.
    pub title: Text,
    /// Closes it.
    pub close: Callback<()>,
    /// What it holds.
    pub children: Html,
}

/// A dialog frame: a heading, the content and a close button, on the one [dialog
/// primitive](super::dialog::Dialog) (focus held inside, Escape closes, focus given back).
#[function_component(DialogFrame)]
pub fn dialog_frame(props: &DialogFrameProps) -> Html {
    let on_close = {
        let close = props.close.clone();
        Callback::from(move |_: MouseEvent| close.emit(()))
    };
    let lang = props.lang;
    html! {
        <DialogBox class={classes!("dialog", "wide", props.class)} label={t(lang, props.title)}
                on_escape={props.close.clone()}>
            <h2>{ t(lang, props.title) }</h2>
            { props.children.clone() }
            <button type="button" class="secondary" data-action="close-dialog" onclick={on_close}>{ t(lang, Text::Close) }</button>
        </DialogBox>
    }
}

/// Properties of [`CopyField`]: a read-only text with a copy button that says when it copied.
#[derive(Properties, PartialEq)]
pub struct CopyFieldProps {
    /// The interface language.
    pub lang: Lang,
    /// The field's label.
    pub label: Text,
    /// The text.
    pub value: String,
    /// `data-testid` of the text, and (as `copy-<testid>`) the copy button's `data-action`.
    pub testid: &'static str,
    /// A text area rather than a one-line field.
    #[prop_or_default]
    pub multiline: bool,
}

/// A read-only text with a copy button.
#[function_component(CopyField)]
pub fn copy_field(props: &CopyFieldProps) -> Html {
    let copied = use_state(|| false);
    {
        let copied = copied.clone();
        use_effect_with(props.value.clone(), move |_| copied.set(false));
    }
    let on_copy = {
        let (value, copied) = (props.value.clone(), copied.clone());
        Callback::from(move |_: MouseEvent| {
            let (value, copied) = (value.clone(), copied.clone());
            yew::platform::spawn_local(async move { copied.set(web::copy_text(&value).await) });
        })
    };
    let select_all = Callback::from(|event: FocusEvent| {
        if let Some(target) = event.target_dyn_into::<web_sys::HtmlInputElement>() {
            target.select();
        } else if let Some(target) = event.target_dyn_into::<web_sys::HtmlTextAreaElement>() {
            target.select();
        }
    });
    let lang = props.lang;
    html! {
        <label class="copy-field">
            <span>{ t(lang, props.label) }</span>
            <span class="copy-row">
                if props.multiline {
                    <textarea readonly=true rows="4" data-testid={props.testid} value={props.value.clone()} onfocus={select_all} />
                } else {
                    <input readonly=true data-testid={props.testid} value={props.value.clone()} onfocus={select_all} />
                }
                <button type="button" data-action={format!("copy-{}", props.testid)} onclick={on_copy}>
                    { if *copied { t(lang, Text::Copied) } else { t(lang, Text::Copy) } }
                </button>
            </span>
        </label>
    }
}

/// A QR code drawn by the worker ([`qi_tasks::tasks::qr_path`]), as SVG.
fn qr_svg(size: usize, path: &str, label: &str) -> Html {
    html! {
        <svg class="qr" viewBox={format!("0 0 {size} {size}")} role="img" aria-label={label.to_owned()} shape-rendering="crispEdges" data-testid="qr">
            <rect width={size.to_string()} height={size.to_string()} fill="#fff" />
            <path d={path.to_owned()} fill="#000" />
        </svg>
    }
}

/// Links to the game, the system share sheet where there is one, and a QR code.
#[function_component(ShareDialog)]
pub fn share_dialog(props: &DialogProps) -> Html {
    let state = &props.game;
    let lang = state.lang;
    let view = state.view();
    let base = page_base();
    let compact = format!("{base}?{}", link::compact(&state.record, &view));
    let readable = format!("{base}?{}", link::readable(&state.record, &view));
    let title = format!("{} — Qi", game_name(lang, state.record.kind));
    let share = web::can_share().then(|| {
        let (title, url) = (title.clone(), compact.clone());
        let onclick = Callback::from(move |_: MouseEvent| {
            let (title, url) = (title.clone(), url.clone());
            yew::platform::spawn_local(async move {
                web::share_link(&title, &url).await;
            });
        });
        html! { <button type="button" data-action="system-share" {onclick}>{ t(lang, Text::SystemShare) }</button> }
    });
    let warning = (state.record.kind == GameKind::Banqi).then(|| {
        html! { <p class="warning" data-testid="banqi-warning">{ t(lang, Text::BanqiLinkWarning) }</p> }
    });
    let qr = use_state(|| None::<(usize, String)>);
    {
        let qr = qr.clone();
        use_effect_with(compact.clone(), move |link| {
            let request = TaskRequest::Qr { text: link.clone() };
            yew::platform::spawn_local(async move {
                if let Some(TaskReply::Qr { size, path }) =
                    crate::worker::run(WorkerRequest::Task(request))
                        .await
                        .and_then(WorkerReply::task)
                {
                    qr.set(Some((size, path)));
                }
            });
        });
    }
    let qr = qr.as_ref().map(|(size, path)| {
        html! { <figure class="qr-figure">{ qr_svg(*size, path, t(lang, Text::QrCode)) }<figcaption>{ t(lang, Text::QrCode) }</figcaption></figure> }
    });
    let content = html! {
        <>
            { warning.unwrap_or_default() }
            <CopyField {lang} label={Text::ShortLink} value={compact} testid="share-link" />
            <CopyField {lang} label={Text::ReadableLink} value={readable} testid="readable-link" multiline=true />
            { share.unwrap_or_default() }
            { qr.unwrap_or_default() }
        </>
    };
    html! { <DialogFrame {lang} class="share" title={Text::ShareTitle} close={props.close.clone()}>{ content }</DialogFrame> }
}

/// The embed dialog's choices.
#[derive(Clone, Debug, PartialEq)]
struct EmbedChoices {
    options: EmbedOptions,
    size: u32,
    at_shown_move: bool,
    /// The board turned from how the app shows it.
    turned: bool,
}

/// Autoplay's choices of time per move, in milliseconds.
const AUTOPLAY_CHOICES_MS: [u32; 4] = [1000, 1500, 3000, 5000];

/// The `<iframe>` snippet for a game and options.
#[must_use]
pub fn iframe_snippet(src: &str, size: u32, title: &str) -> String {
    format!(
        "<iframe src=\"{}\" width=\"{size}\" height=\"{size}\" title=\"{}\" loading=\"lazy\" \
         style=\"border:0;max-width:100%\" allowfullscreen></iframe>",
        escape_attribute(src),
        escape_attribute(title)
    )
}

/// Text made safe inside a double-quoted HTML attribute.
fn escape_attribute(text: &str) -> String {
    text.replace('&', "&amp;").replace('"', "&quot;").replace('<', "&lt;").replace('>', "&gt;")
}

/// The embed snippet and its preview.
#[function_component(EmbedDialog)]
pub fn embed_dialog(props: &DialogProps) -> Html {
    let state = &props.game;
    let lang = state.lang;
    let choices = use_state(|| EmbedChoices {
        options: EmbedOptions {
            controls: true,
            move_list: true,
            theme: state.theme,
            lang: Some(lang),
            ..EmbedOptions::default()
        },
        size: 400,
        at_shown_move: state.viewing.is_some(),
        turned: false,
    });
    let mut view = state.view();
    let flipped = state.flipped != choices.turned;
    view.orientation = Some(if flipped { Side::Second } else { Side::First });
    if !choices.at_shown_move {
        view.at = None;
    }
    let src = format!(
        "{}embed/?{}{}",
        page_directory(),
        link::compact(&state.record, &view),
        choices.options.to_params()
    );
    let title = format!("{} — Qi", game_name(lang, state.record.kind));
    let snippet = iframe_snippet(&src, choices.size, &title);
    let toggle = |text: Text,
                  name: &'static str,
                  get: fn(&EmbedChoices) -> bool,
                  set: fn(&mut EmbedChoices, bool)| {
        let checked = get(&choices);
        let choices = choices.clone();
        let onchange = Callback::from(move |event: Event| {
            if let Some(input) = event.target_dyn_into::<web_sys::HtmlInputElement>() {
                let mut next = (*choices).clone();
                set(&mut next, input.checked());
                choices.set(next);
            }
        });
        html! {
            <label class="check">
                <input type="checkbox" data-embed-option={name} {checked} {onchange} />
                { t(lang, text) }
            </label>
        }
    };
    let on_size = {
        let choices = choices.clone();
        Callback::from(move |event: Event| {
            if let Some(input) = event.target_dyn_into::<web_sys::HtmlInputElement>() {
                let mut next = (*choices).clone();
                next.size = input.value().parse::<u32>().unwrap_or(400).clamp(200, 1000);
                input.set_value(&next.size.to_string());
                choices.set(next);
            }
        })
    };
    let select = |name: &'static str,
                  label: Text,
                  entries: Vec<(String, String)>,
                  current: String,
                  set: fn(&mut EmbedChoices, &str)| {
        let choices = choices.clone();
        let onchange = Callback::from(move |event: Event| {
            if let Some(select) = event.target_dyn_into::<web_sys::HtmlSelectElement>() {
                let mut next = (*choices).clone();
                set(&mut next, &select.value());
                choices.set(next);
            }
        });
        let options = entries.into_iter().map(|(value, text)| {
            let selected = value == current;
            html! { <option {value} {selected}>{ text }</option> }
        });
        html! {
            <label class="size">
                { t(lang, label) }
                <select data-embed-option={name} {onchange}>{ for options }</select>
            </label>
        }
    };
    let languages = std::iter::once((String::new(), t(lang, Text::ReadersLanguage).to_owned()))
        .chain(Lang::ALL.map(|l| (l.tag()[..2].to_owned(), l.native_name().to_owned())))
        .collect();
    let current_lang = choices.options.lang.map(|l| l.tag()[..2].to_owned()).unwrap_or_default();
    let seconds = |ms: u32| decimal(i64::from(ms), 3);
    let speeds =
        AUTOPLAY_CHOICES_MS.iter().map(|&ms| (seconds(ms), format!("{} s", seconds(ms)))).collect();
    let current_speed = choices.options.autoplay_ms.map(seconds).unwrap_or_default();
    let warning = (state.record.kind == GameKind::Banqi).then(|| {
        html! { <p class="warning" data-testid="banqi-warning">{ t(lang, Text::BanqiLinkWarning) }</p> }
    });
    let preview_size = choices.size.min(1000);
    // The day's puzzle of this game, solvable in the reader's frame (banqi has none yet).
    let daily = (state.record.kind != GameKind::Banqi).then(|| {
        let lang_param =
            choices.options.lang.map(|l| format!("&lang={}", &l.tag()[..2])).unwrap_or_default();
        let src = format!(
            "{}puzzles/?mode=daily&game={}&embed=1{lang_param}",
            page_directory(),
            state.record.kind.name()
        );
        let snippet = iframe_snippet(&src, 400, &format!("{} — Qi", t(lang, Text::Puzzles)));
        html! { <CopyField {lang} label={Text::EmbedDailyPuzzle} value={snippet} testid="embed-daily-puzzle" multiline=true /> }
    });
    let content = html! {
        <>
            <div class="embed-options">
                { toggle(Text::EmbedPlay, "play", |c| c.options.play, |c, on| c.options.play = on) }
                { toggle(Text::EmbedControls, "controls", |c| c.options.controls, |c, on| c.options.controls = on) }
                { toggle(Text::EmbedMoveList, "movelist", |c| c.options.move_list, |c, on| c.options.move_list = on) }
                { toggle(Text::EmbedAutoplay, "autoplay", |c| c.options.autoplay_ms.is_some(),
                         |c, on| c.options.autoplay_ms = on.then_some(1500)) }
                if choices.options.autoplay_ms.is_some() {
                    { select("autoplay-speed", Text::Speed, speeds, current_speed, |c, value| {
                        let ms = parse_decimal(value, 3).and_then(|ms| u32::try_from(ms).ok());
                        c.options.autoplay_ms = Some(ms.unwrap_or(1500));
                    }) }
                }
                { toggle(Text::FlipBoard, "flip", |c| c.turned, |c, on| c.turned = on) }
                { toggle(Text::EmbedCoords, "coords", |c| c.options.coords, |c, on| c.options.coords = on) }
                { toggle(Text::Sound, "sound", |c| c.options.sound, |c, on| c.options.sound = on) }
                { toggle(Text::Dark, "dark", |c| c.options.theme == Theme::Dark,
                         |c, on| c.options.theme = if on { Theme::Dark } else { Theme::Light }) }
                if state.viewing.is_some() {
                    { toggle(Text::EmbedAtShownMove, "at-shown-move", |c| c.at_shown_move, |c, on| c.at_shown_move = on) }
                }
                { select("lang", Text::Language, languages, current_lang, |c, value| {
                    c.options.lang = (!value.is_empty()).then(|| Lang::from_tag(value));
                }) }
                <label class="size">
                    { t(lang, Text::EmbedSize) }
                    <input type="number" min="200" max="1000" step="10" data-embed-option="size"
                           value={choices.size.to_string()} onchange={on_size} />
                </label>
            </div>
            { warning.unwrap_or_default() }
            <CopyField {lang} label={Text::Snippet} value={snippet} testid="embed-snippet" multiline=true />
            <h3>{ t(lang, Text::Preview) }</h3>
            // Scrolled with the keyboard too, where the preview is wider than the screen.
            <div class="embed-preview" tabindex="0" role="region" aria-label={t(lang, Text::Preview)}>
                <iframe src={src} title={title} width={preview_size.to_string()} height={preview_size.to_string()}
                        loading="lazy" data-testid="embed-preview"></iframe>
            </div>
            { daily.unwrap_or_default() }
        </>
    };
    html! { <DialogFrame {lang} class="embed-dialog" title={Text::EmbedTitle} close={props.close.clone()}>{ content }</DialogFrame> }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_snippet_escapes_what_it_quotes() {
        let snippet =
            iframe_snippet("https://x.test/qi/embed/?g=AQA&play=1", 300, "Chess \"board\" <b>");
        assert!(snippet.contains("src=\"https://x.test/qi/embed/?g=AQA&amp;play=1\""), "{snippet}");
        assert!(snippet.contains("title=\"Chess &quot;board&quot; &lt;b&gt;\""), "{snippet}");
        assert!(snippet.contains("loading=\"lazy\""));
        assert!(snippet.contains("width=\"300\" height=\"300\""));
    }
}
