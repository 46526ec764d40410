//! The one dialog every dialog is built on (share, embed, records, promotion, game over, new
//! game): it takes the keyboard focus when it opens, keeps Tab and Shift+Tab inside, closes
//! with Escape, gives the focus back to the control that opened it, and makes the page behind
//! it inert (neither clicked, focused nor read by a screen reader) while it is open. The
//! game-over box is the one dialog that is not modal (see [`DialogProps::modal`]).

use wasm_bindgen::JsCast;
use yew::prelude::*;

/// Properties of [`Dialog`].
#[derive(Properties, PartialEq)]
pub struct DialogProps {
    /// The dialog's classes (`dialog`, `wide`, and its own, for styling and tests).
    pub class: Classes,
    /// What a screen reader calls it.
    pub label: AttrValue,
    /// Escape: closes it (the promotion chooser cancels the move).
    pub on_escape: Callback<()>,
    /// `data-testid` of the dialog.
    #[prop_or_default]
    pub testid: Option<AttrValue>,
    /// Whether it is modal: on a dimmed backdrop, Tab kept inside and the page behind inert.
    /// The game-over box is not: it stands over the board, and the player may step through
    /// the game or take a move back with it open (it still takes the focus, closes with
    /// Escape and gives the focus back).
    #[prop_or(true)]
    pub modal: bool,
    /// Whether it takes the focus when it appears (the game-over box only the first time it
    /// shows a game's end, not again each time the player steps back to it).
    #[prop_or(true)]
    pub take_focus: bool,
    /// What it holds.
    pub children: Html,
}

/// What can take the focus inside a dialog, in the order Tab visits it.
const FOCUSABLE: &str = "button:not([disabled]), [href], input:not([disabled]), \
    select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex='-1'])";

/// `element.focus({ preventScroll: true })`.
fn focus_without_scrolling(element: &web_sys::HtmlElement) {
    let options = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&options, &"preventScroll".into(), &true.into());
    if let Ok(focus) = js_sys::Reflect::get(element, &"focus".into())
        && let Some(focus) = focus.dyn_ref::<js_sys::Function>()
    {
        let _ = focus.call1(element, &options);
    }
}

/// The elements of `root` that Tab visits, in order (visible ones only).
fn focusable(root: &web_sys::Element) -> Vec<web_sys::HtmlElement> {
    let Ok(list) = root.query_selector_all(FOCUSABLE) else { return Vec::new() };
    (0..list.length())
        .filter_map(|i| list.item(i)?.dyn_into::<web_sys::HtmlElement>().ok())
        .filter(|element| element.offset_parent().is_some())
        .collect()
}

/// Makes every element of the page outside `dialog`'s branch inert; returns them, to be made
/// live again when the dialog closes. Elements already inert are left alone (and not returned).
fn make_page_inert(dialog: &web_sys::Element) -> Vec<web_sys::Element> {
    let mut made = Vec::new();
    let mut node = dialog.clone();
    while let Some(parent) = node.parent_element() {
        let children = parent.children();
        for i in 0..children.length() {
            let Some(sibling) = children.item(i) else { continue };
            let skip = sibling == node
                || sibling.has_attribute("inert")
                || matches!(sibling.tag_name().as_str(), "SCRIPT" | "STYLE" | "LINK");
            if !skip && sibling.set_attribute("inert", "").is_ok() {
                made.push(sibling);
            }
        }
        if parent.tag_name() == "BODY" {
            break;
        }
        node = parent;
    }
    made
}

/// A modal dialog: see the module docs.
#[function_component(Dialog)]
pub fn dialog(props: &DialogProps) -> Html {
    let node = use_node_ref();
    let (modal, take_focus) = (props.modal, props.take_focus);
    {
        let node = node.clone();
        use_effect_with((), move |()| {
            let document = web_sys::window().and_then(|w| w.document());
            // The control that opened it, to give the focus back to.
            let opener = document
                .as_ref()
                .and_then(web_sys::Document::active_element)
                .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok());
            // A box that is not modal leaves the focus where a modal dialog or a text field
            // holds it (the game ending while Import/export is open, or while a move is typed).
            let held = opener
                .as_ref()
                .and_then(|o| {
                    o.closest("[aria-modal='true'], input, textarea, select").ok().flatten()
                })
                .is_some();
            let mut inert = Vec::new();
            if let Some(element) = node.cast::<web_sys::HtmlElement>()
                && (modal || (take_focus && !held))
            {
                if modal {
                    inert = make_page_inert(&element);
                }
                // The first control inside, else the dialog itself (its label is read).
                let first = focusable(&element).into_iter().next();
                let target = first.as_ref().unwrap_or(&element);
                if modal {
                    let _ = target.focus();
                } else {
                    // A box in the page (the game over) takes the focus where it stands: the
                    // page must not scroll the board away to bring it into view.
                    focus_without_scrolling(target);
                }
            }
            move || {
                for element in inert {
                    let _ = element.remove_attribute("inert");
                }
                // Back to the opener, unless the player has already put the focus somewhere
                // else (a click on a move, Undo): only when it was lost with the dialog.
                let lost = web_sys::window()
                    .and_then(|w| w.document())
                    .and_then(|d| d.active_element())
                    .is_none_or(|active| {
                        active.tag_name() == "BODY"
                            || node.get().is_some_and(|n| n.contains(Some(&active)))
                    });
                if lost && let Some(opener) = opener.filter(|o| o.is_connected()) {
                    let _ = opener.focus();
                }
            }
        });
    }
    let on_key = {
        let (node, on_escape) = (node.clone(), props.on_escape.clone());
        Callback::from(move |event: KeyboardEvent| match event.key().as_str() {
            "Escape" => {
                event.prevent_default();
                event.stop_propagation();
                on_escape.emit(());
            }
            "Tab" if modal => {
                let Some(root) = node.cast::<web_sys::Element>() else { return };
                let inside = focusable(&root);
                let (Some(first), Some(last)) = (inside.first(), inside.last()) else {
                    event.prevent_default();
                    return;
                };
                let active =
                    web_sys::window().and_then(|w| w.document()).and_then(|d| d.active_element());
                let at = |element: &web_sys::HtmlElement| {
                    active
                        .as_ref()
                        .is_some_and(|a| a == element.unchecked_ref::<web_sys::Element>())
                };
                let on_dialog = active.as_ref().is_some_and(|a| a == &root);
                if event.shift_key() && (at(first) || on_dialog) {
                    event.prevent_default();
                    let _ = last.focus();
                } else if !event.shift_key() && at(last) {
                    event.prevent_default();
                    let _ = first.focus();
                }
            }
            _ => {}
        })
    };
    let dialog = html! {
        <div ref={node} tabindex="-1" class={props.class.clone()} role="dialog"
             aria-modal={if modal { "true" } else { "false" }}
             aria-label={props.label.clone()} data-testid={props.testid.clone()} onkeydown={on_key}>
            { props.children.clone() }
        </div>
    };
    if modal {
        html! { <div class="dialog-backdrop">{ dialog }</div> }
    } else {
        dialog
    }
}
