//! Input on the board: pointer events (mouse, touch and pen alike) become clicks and drags, and
//! the arrow keys, Enter and Space play from the keyboard. What a gesture means is the caller's
//! business.

use std::cell::RefCell;
use std::rc::Rc;

use qi_play::{Brush, Shape};
use qi_rules::Cell;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement, KeyboardEvent, PointerEvent};
use yew::prelude::*;

use super::{BoardView, Geometry};
use qi_play::decimal::decimal;

/// How far (in CSS pixels) a pointer must travel before a press becomes a drag.
const DRAG_THRESHOLD: f64 = 4.0;

/// What the player did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gesture {
    /// Pressed and released without dragging.
    Click(Cell),
    /// Started dragging the piece on a cell.
    DragStart(Cell),
    /// Dropped a dragged piece: from, to (the origin when dropped off the board).
    Drop(Cell, Cell),
    /// The drag was interrupted.
    Cancel,
    /// A right-drag (an arrow) or right-click (a circle) drew a shape.
    Shape(Shape),
}

/// A press in progress.
#[derive(Clone, Copy, Debug)]
struct Press {
    from: Cell,
    pointer: i32,
    start: (f64, f64),
    has_piece: bool,
    dragging: bool,
}

/// The press in progress, if any, and the cell a right-button press started on; kept outside
/// the render cycle so pointer moves cost nothing.
#[derive(Default, Debug)]
pub struct DragState(Option<Press>, Option<(Cell, i32)>);

/// The board's pointer event handlers.
pub struct PointerHandlers {
    pub down: Callback<PointerEvent>,
    pub moved: Callback<PointerEvent>,
    pub up: Callback<PointerEvent>,
    pub cancel: Callback<PointerEvent>,
}

/// The cell under the pointer, if it is over the board.
fn cell_under(grid: &NodeRef, geometry: Geometry, event: &PointerEvent) -> Option<Cell> {
    let rect = grid.cast::<Element>()?.get_bounding_client_rect();
    if rect.width() <= 0.0 || rect.height() <= 0.0 {
        return None;
    }
    let x = (f64::from(event.client_x()) - rect.left()) / rect.width();
    let y = (f64::from(event.client_y()) - rect.top()) / rect.height();
    geometry.cell_under(x, y)
}

/// Puts the dragged piece's image under the pointer, sized like a cell.
fn move_ghost(ghost: &NodeRef, grid: &NodeRef, geometry: Geometry, x: f64, y: f64) {
    let (Some(ghost), Some(grid)) = (ghost.cast::<HtmlElement>(), grid.cast::<Element>()) else {
        return;
    };
    let size = grid.get_bounding_client_rect().width() / f64::from(geometry.files);
    let style = ghost.style();
    let _ = style.set_property("width", &px(size));
    let _ = style.set_property("height", &px(size));
    let _ = style.set_property(
        "transform",
        &format!("translate({}, {})", px(x - size / 2.0), px(y - size / 2.0)),
    );
}

/// A CSS length in pixels, to a hundredth (see [`decimal`] for why not `f64`'s `Display`).
fn px(pixels: f64) -> String {
    format!("{}px", decimal((pixels * 100.0).round() as i64, 2))
}

/// The pointer handlers for a board showing `view`.
pub fn pointer_handlers(
    view: &Rc<BoardView>,
    grid: &NodeRef,
    ghost: &NodeRef,
    drag: &Rc<RefCell<DragState>>,
    gesture: &Callback<Gesture>,
    draws: bool,
) -> PointerHandlers {
    let geometry = view.geometry;
    let down = {
        let (view, grid, drag) = (view.clone(), grid.clone(), drag.clone());
        Callback::from(move |event: PointerEvent| {
            if draws && event.button() == 2 {
                // Drawing works whether or not the board takes moves (a finished game too).
                drag.borrow_mut().1 =
                    cell_under(&grid, geometry, &event).map(|cell| (cell, event.pointer_id()));
                return;
            }
            if !view.interactive || event.button() != 0 {
                return;
            }
            let Some(from) = cell_under(&grid, geometry, &event) else { return };
            let has_piece = view.cells.iter().any(|c| c.cell == from && c.piece.is_some());
            if let Some(element) = grid.cast::<Element>() {
                let _ = element.set_pointer_capture(event.pointer_id());
            }
            let start = (f64::from(event.client_x()), f64::from(event.client_y()));
            drag.borrow_mut().0 = Some(Press {
                from,
                pointer: event.pointer_id(),
                start,
                has_piece,
                dragging: false,
            });
        })
    };
    let moved = {
        let (grid, ghost, drag, gesture) =
            (grid.clone(), ghost.clone(), drag.clone(), gesture.clone());
        Callback::from(move |event: PointerEvent| {
            let (x, y) = (f64::from(event.client_x()), f64::from(event.client_y()));
            let mut state = drag.borrow_mut();
            let Some(press) = state.0.as_mut().filter(|p| p.pointer == event.pointer_id()) else {
                return;
            };
            if !press.dragging {
                let travelled = (x - press.start.0).hypot(y - press.start.1);
                if !press.has_piece || travelled < DRAG_THRESHOLD {
                    return;
                }
                press.dragging = true;
                let from = press.from;
                drop(state);
                gesture.emit(Gesture::DragStart(from));
            }
            move_ghost(&ghost, &grid, geometry, x, y);
        })
    };
    let up = {
        let (grid, drag, gesture) = (grid.clone(), drag.clone(), gesture.clone());
        Callback::from(move |event: PointerEvent| {
            if event.button() == 2 {
                let started = drag.borrow_mut().1.take();
                if let Some((from, pointer)) = started.filter(|&(_, p)| p == event.pointer_id())
                    && let Some(to) = cell_under(&grid, geometry, &event)
                {
                    let alt = event.alt_key() || event.ctrl_key() || event.meta_key();
                    let brush = Brush::for_modifiers(event.shift_key(), alt);
                    let _ = pointer;
                    gesture.emit(Gesture::Shape(Shape { from, to, brush }));
                }
                return;
            }
            let Some(press) = drag.borrow_mut().0.take() else { return };
            let here = cell_under(&grid, geometry, &event);
            if press.dragging {
                gesture.emit(Gesture::Drop(press.from, here.unwrap_or(press.from)));
            } else if let Some(cell) = here {
                gesture.emit(Gesture::Click(cell));
            }
        })
    };
    let cancel = {
        let (drag, gesture) = (drag.clone(), gesture.clone());
        Callback::from(move |_: PointerEvent| {
            if drag.borrow_mut().0.take().is_some_and(|p| p.dragging) {
                gesture.emit(Gesture::Cancel);
            }
        })
    };
    PointerHandlers { down, moved, up, cancel }
}

/// Arrow keys move the focus over the cells as they appear on screen; Enter and Space act on the
/// focused cell like a click (pick up, then drop).
pub fn key_handler(
    geometry: Geometry,
    interactive: bool,
    focus: &UseStateHandle<Option<Cell>>,
    on_click: &Callback<Cell>,
) -> Callback<KeyboardEvent> {
    let (focus, on_click) = (focus.clone(), on_click.clone());
    Callback::from(move |event: KeyboardEvent| {
        let current = focus.unwrap_or_else(|| geometry.cell_at(geometry.ranks - 1, 0));
        let step = match event.key().as_str() {
            "ArrowUp" => Some((0, -1)),
            "ArrowDown" => Some((0, 1)),
            "ArrowLeft" => Some((-1, 0)),
            "ArrowRight" => Some((1, 0)),
            "Enter" | " " => {
                event.prevent_default();
                if interactive {
                    on_click.emit(current);
                }
                return;
            }
            _ => None,
        };
        if let Some((dx, dy)) = step {
            event.prevent_default();
            focus.set(Some(geometry.step(current, dx, dy)));
        }
    })
}

/// Moves the browser's focus to the element of `cell`.
pub fn focus_cell(grid: &NodeRef, cell: Cell) {
    let Some(grid) = grid.cast::<Element>() else { return };
    let selector = format!("[data-square=\"{cell}\"]");
    if let Ok(Some(element)) = grid.query_selector(&selector)
        && let Ok(element) = element.dyn_into::<HtmlElement>()
    {
        let _ = element.focus();
    }
}

/// The cell whose element received the focus (a click or Tab), so arrow keys go on from there.
pub fn focus_handler(focus: &UseStateHandle<Option<Cell>>) -> Callback<FocusEvent> {
    let focus = focus.clone();
    Callback::from(move |event: FocusEvent| {
        let cell = event
            .target()
            .and_then(|t| t.dyn_into::<Element>().ok())
            .and_then(|e| e.get_attribute("data-square"))
            .and_then(|text| text.parse::<Cell>().ok());
        if let Some(cell) = cell
            && *focus != Some(cell)
        {
            focus.set(Some(cell));
        }
    })
}
