//! The board: one component that draws any of the four geometries. It knows no rules: it gets
//! what to show ([`BoardView`]) and says what the player did (pick, drop, click) through
//! callbacks. Input handling is in `interaction`, drawing in `render`.

pub mod geometry;
mod interaction;
mod render;

use std::rc::Rc;

use qi_play::Shape;
use qi_rules::Cell;
use web_sys::{FocusEvent, KeyboardEvent, PointerEvent};
use yew::prelude::*;

pub use self::geometry::{Geometry, Style};
use self::interaction::{DragState, Gesture};
pub use self::render::piece as piece_image;

/// One cell as the board shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellView {
    /// Which cell.
    pub cell: Cell,
    /// The piece code (`wK`, `rC`, `?`, `b`...), if something stands there.
    pub piece: Option<String>,
    /// What a screen reader says: the coordinate and what stands there.
    pub label: String,
    /// A legal destination of the selected piece.
    pub hint: bool,
    /// Part of the last move.
    pub last_move: bool,
    /// A king or general in check.
    pub check: bool,
    /// Part of the winning line.
    pub winning: bool,
    /// The selected piece.
    pub selected: bool,
    /// Part of the move queued for the person's next turn (a premove).
    pub premove: bool,
    /// The stone a second tap places here, shown faintly (gomoku), by its code.
    pub ghost: Option<String>,
    /// The last stone placed (gomoku).
    pub last_stone: bool,
    /// Part of the move the hint button suggests: where it starts or where it goes.
    pub suggested: Option<HintEnd>,
    /// The stone's move number (gomoku, when the player wants numbers on the stones).
    pub number: Option<usize>,
    /// A fifth stone offered here, by its number in the offers (gomoku's Soosõrv-8 opening),
    /// drawn as a faint black stone with the number.
    pub offer: Option<usize>,
    /// The piece just arrived here from this many cells away (columns right, rows down, as on
    /// screen): it slides in.
    pub arrived_from: Option<(i8, i8)>,
}

/// Which end of a suggested move a cell is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HintEnd {
    /// The piece to move.
    From,
    /// Where it goes (or where the stone goes, or the piece to flip).
    To,
}

/// Everything the board shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardView {
    /// Its shape and orientation.
    pub geometry: Geometry,
    /// Every cell, in screen order (rows from the top).
    pub cells: Vec<CellView>,
    /// Whether it takes input now.
    pub interactive: bool,
    /// What a screen reader calls it.
    pub label: String,
    /// The zoom button's words (big gomoku boards), in the player's language.
    pub zoom_label: &'static str,
    /// Arrows and circles drawn on it.
    pub shapes: Vec<Shape>,
    /// The engine's best move, drawn as a grey arrow (a circle for a gomoku stone).
    pub engine_move: Option<(Option<Cell>, Cell)>,
    /// The move a hint suggests, drawn as a bold arrow (a ring on a gomoku point).
    pub hint_move: Option<(Option<Cell>, Cell)>,
}

/// The board's properties.
#[derive(Properties, PartialEq)]
pub struct BoardProps {
    /// What to show.
    pub view: Rc<BoardView>,
    /// A cell was clicked, or Enter/Space pressed on it.
    pub on_click: Callback<Cell>,
    /// A piece was picked up to drag.
    pub on_pick: Callback<Cell>,
    /// A dragged piece was dropped: from, to.
    pub on_drop: Callback<(Cell, Cell)>,
    /// An arrow (right-drag) or a circle (right-click) was drawn, its colour from the modifier
    /// keys; `None` where drawing is not offered (the context menu then stays the browser's).
    #[prop_or_default]
    pub on_shape: Option<Callback<Shape>>,
}

/// How the board got the keyboard focus, which decides what the arrow keys do on it.
struct KeyboardFocus {
    /// Arrow keys move between cells (the board was reached with the keyboard).
    arrows_on_board: bool,
    /// A pointer was pressed on the board and the focus it brings has not arrived yet.
    pointer_pressed: bool,
}

/// The board component.
#[function_component(Board)]
pub fn board(props: &BoardProps) -> Html {
    let grid = use_node_ref();
    let ghost = use_node_ref();
    let drag = use_mut_ref(DragState::default);
    let dragging = use_state(|| None::<Cell>);
    let focus = use_state(|| None::<Cell>);
    let view = props.view.clone();
    let geometry = view.geometry;

    // Keep the keyboard focus on the focused cell's element after each render.
    {
        let grid = grid.clone();
        let focused = *focus;
        use_effect_with(focused, move |focused| {
            if let Some(cell) = focused {
                interaction::focus_cell(&grid, *cell);
            }
        });
    }

    let gesture = {
        let (on_click, on_pick, on_drop, on_shape) = (
            props.on_click.clone(),
            props.on_pick.clone(),
            props.on_drop.clone(),
            props.on_shape.clone(),
        );
        let dragging = dragging.clone();
        Callback::from(move |gesture: Gesture| match gesture {
            Gesture::Click(cell) => on_click.emit(cell),
            Gesture::DragStart(cell) => {
                dragging.set(Some(cell));
                on_pick.emit(cell);
            }
            Gesture::Drop(from, to) => {
                dragging.set(None);
                on_drop.emit((from, to));
            }
            Gesture::Cancel => dragging.set(None),
            Gesture::Shape(shape) => {
                if let Some(on_shape) = &on_shape {
                    on_shape.emit(shape);
                }
            }
        })
    };

    // Whether the arrow keys move between cells: when the board was reached with the keyboard
    // (Tab). After a click or a drag they walk the move list instead, as on game sites.
    let keyboard = use_mut_ref(|| KeyboardFocus { arrows_on_board: true, pointer_pressed: false });
    let draws = props.on_shape.is_some();
    let mut handlers = interaction::pointer_handlers(&view, &grid, &ghost, &drag, &gesture, draws);
    handlers.down = {
        let (keyboard, down) = (keyboard.clone(), handlers.down.clone());
        Callback::from(move |event: PointerEvent| {
            *keyboard.borrow_mut() =
                KeyboardFocus { arrows_on_board: false, pointer_pressed: true };
            down.emit(event);
        })
    };
    let onkeydown = {
        let inner = interaction::key_handler(geometry, view.interactive, &focus, &props.on_click);
        let keyboard = keyboard.clone();
        Callback::from(move |event: KeyboardEvent| {
            let arrow = event.key().starts_with("Arrow");
            if arrow && !keyboard.borrow().arrows_on_board {
                return;
            }
            if matches!(event.key().as_str(), "Enter" | " ") {
                // Playing from the keyboard: the arrows move between cells from now on.
                keyboard.borrow_mut().arrows_on_board = true;
            }
            inner.emit(event);
        })
    };
    let roving = focus.unwrap_or_else(|| geometry.cell_at(geometry.ranks - 1, 0));
    let dragged_piece = (*dragging)
        .and_then(|from| view.cells.iter().find(|c| c.cell == from).and_then(|c| c.piece.clone()));
    let onfocusin = {
        let inner = interaction::focus_handler(&focus);
        Callback::from(move |event: FocusEvent| {
            let mut keyboard = keyboard.borrow_mut();
            if keyboard.pointer_pressed {
                keyboard.pointer_pressed = false;
            } else {
                keyboard.arrows_on_board = true;
            }
            inner.emit(event);
        })
    };
    // A gomoku board can be zoomed: on a phone its points are small (about 16 px at 20x20 on
    // 360 px, 21.7 px at 15x15, under the 24 px a finger needs), so the board is drawn at
    // 28 px a point and scrolled, centred when the zoom comes on. The button shows on screens
    // where the points are that small only.
    let zoomed = use_state(|| false);
    let scroller = use_node_ref();
    {
        let scroller = scroller.clone();
        use_effect_with(*zoomed, move |on| {
            if *on && let Some(area) = scroller.cast::<web_sys::Element>() {
                area.set_scroll_left((area.scroll_width() - area.client_width()) / 2);
                area.set_scroll_top((area.scroll_height() - area.client_height()) / 2);
            }
        });
    }
    let zoom = (geometry.style == Style::GomokuPoints).then(|| {
        let zoomed = zoomed.clone();
        render::Zoom {
            on: *zoomed,
            big: geometry.files >= 19,
            label: view.zoom_label,
            toggle: Callback::from(move |_: MouseEvent| zoomed.set(!*zoomed)),
            scroller,
        }
    });
    render::board(
        &view,
        &grid,
        &ghost,
        *dragging,
        dragged_piece,
        roving,
        handlers,
        onkeydown,
        onfocusin,
        draws,
        zoom,
    )
}
