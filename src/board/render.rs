//! Drawing the board: the cells in a CSS grid, the line drawing under crossing-point boards, the
//! pieces, and the piece that follows the pointer during a drag.

use qi_play::Shape;
use qi_rules::Cell;
use web_sys::KeyboardEvent;
use yew::prelude::*;
use yew::virtual_dom::AttrValue;

use super::geometry::xiangqi_file_number;
use super::interaction::PointerHandlers;
use super::{BoardView, CellView, Geometry, HintEnd, Style};
use crate::pieces::{RIVER_WORDS, disc_svg, piece_svg, symbol_disc_svg};
use qi_play::decimal::decimal;

/// A piece's image: discs on xiangqi and banqi boards (whose black codes read like chess ones),
/// with characters or, when `symbols`, symbols; chess pieces and stones elsewhere.
pub fn piece(code: &str, style: Style, symbols: bool) -> Html {
    let svg = match style {
        Style::XiangqiPoints | Style::Squares if symbols => symbol_disc_svg(code),
        Style::XiangqiPoints | Style::Squares => disc_svg(code),
        Style::Checkered | Style::GomokuPoints => piece_svg(code),
    };
    match svg {
        Some(svg) => Html::from_html_unchecked(AttrValue::Static(svg)),
        None => html! { <span class="piece-text">{ code.to_owned() }</span> },
    }
}

/// The whole board.
#[allow(clippy::too_many_arguments)] // One call site; a struct would only rename these.
pub fn board(
    view: &BoardView,
    grid: &NodeRef,
    ghost: &NodeRef,
    dragging: Option<Cell>,
    dragged_piece: Option<String>,
    roving: Cell,
    handlers: PointerHandlers,
    onkeydown: Callback<KeyboardEvent>,
    onfocusin: Callback<FocusEvent>,
    draws: bool,
    zoom: Option<Zoom>,
) -> Html {
    let geometry = view.geometry;
    let style_class = match geometry.style {
        Style::Checkered => "style-checkered",
        Style::Squares => "style-squares",
        Style::XiangqiPoints => "style-xiangqi",
        Style::GomokuPoints => "style-gomoku",
    };
    let frame_style = format!("--files: {}; --ranks: {};", geometry.files, geometry.ranks);
    let rows = view.cells.chunks(usize::from(geometry.files)).map(|cells| {
        let cells =
            cells.iter().map(|cell| cell_html(cell, geometry, dragging == Some(cell.cell), roving));
        html! { <div class="row" role="row">{ for cells }</div> }
    });
    let zoomed = zoom.as_ref().is_some_and(|zoom| zoom.on);
    let frame = html! {
        <div class={classes!("board-frame", style_class, (!view.interactive).then_some("locked"), zoomed.then_some("zoomed"))}
             style={frame_style}>
            <div class="board" role="grid" aria-label={view.label.clone()} ref={grid.clone()}
                 onpointerdown={handlers.down} onpointermove={handlers.moved}
                 onpointerup={handlers.up} onpointercancel={handlers.cancel} {onkeydown} {onfocusin}
                 oncontextmenu={draws.then(|| Callback::from(|event: MouseEvent| event.prevent_default()))}>
                { underlay(geometry) }
                { for rows }
                { coordinates(view) }
                { shapes(view) }
            </div>
            <div class="ghost" ref={ghost.clone()} hidden={dragged_piece.is_none()} aria-hidden="true">
                { dragged_piece.map(|code| piece(&code, geometry.style, geometry.symbols)).unwrap_or_default() }
            </div>
        </div>
    };
    // Every board has the same elements around its frame, whether or not it can be zoomed (the
    // button's place is empty when it cannot), so when another game's board replaces this one
    // each element keeps its role. (When only gomoku's board had them, switching from chess
    // reused the chess board's drag ghost, with the width a drag had set on it, as gomoku's
    // scrolled area, and the gomoku board shrank to one square.)
    let (area_class, button, scroll_class, scroller) = match zoom {
        Some(zoom) => (
            classes!("board-holder", "board-zoom-area", zoom.big.then_some("big")),
            html! {
                <button type="button" class="board-zoom" data-action="zoom-board"
                        aria-pressed={zoom.on.to_string()} onclick={zoom.toggle}>{ zoom.label }</button>
            },
            classes!("board-scroll", zoom.on.then_some("on")),
            zoom.scroller,
        ),
        None => (
            classes!("board-holder"),
            Html::default(),
            classes!("board-scroll"),
            NodeRef::default(),
        ),
    };
    html! {
        <div class={area_class}>
            { button }
            <div class={scroll_class} ref={scroller}>{ frame }</div>
        </div>
    }
}

/// The zoom of a big gomoku board on a narrow screen: whether it is on, its button's words, what
/// the button does, and the scrolled area.
pub struct Zoom {
    /// Zoomed in.
    pub on: bool,
    /// A 19 or 20 board, whose button shows on wider screens than a 15 board's.
    pub big: bool,
    /// The button's words.
    pub label: &'static str,
    /// Turns the zoom on or off.
    pub toggle: Callback<MouseEvent>,
    /// The scrolled area, to centre it when the zoom comes on.
    pub scroller: NodeRef,
}

fn cell_html(cell: &CellView, geometry: Geometry, dragged: bool, roving: Cell) -> Html {
    let dark = matches!(geometry.style, Style::Checkered) && Geometry::is_dark(cell.cell);
    let classes = classes!(
        "cell",
        dark.then_some("dark"),
        cell.selected.then_some("selected"),
        cell.premove.then_some("premove"),
        cell.check.then_some("check"),
        cell.winning.then_some("winning"),
        cell.last_stone.then_some("last-stone"),
        dragged.then_some("dragged"),
        cell.suggested.is_some().then_some("suggested"),
        match cell.suggested {
            Some(HintEnd::From) => Some("suggested-from"),
            Some(HintEnd::To) => Some("suggested-to"),
            None => None,
        },
        cell.piece.is_some().then_some("occupied"),
    );
    let name = cell.cell.to_string();
    let flag = |on: bool| on.then_some(AttrValue::Static("true"));
    html! {
        <div class={classes} role="gridcell" data-square={name} aria-label={cell.label.clone()}
             tabindex={if cell.cell == roving { "0" } else { "-1" }}
             aria-selected={if cell.selected { "true" } else { "false" }}
             data-hint={flag(cell.hint)} data-last-move={flag(cell.last_move)}
             data-premove={flag(cell.premove)}>
            if let Some(code) = &cell.piece {
                <div class={classes!("piece", cell.arrived_from.is_some().then_some("arrived"))} aria-hidden="true"
                     style={cell.arrived_from.map(|(dx, dy)| format!("--dx: {dx}; --dy: {dy};"))}
                     data-piece={code.clone()}>{ piece(code, geometry.style, geometry.symbols) }</div>
            }
            if let Some(code) = &cell.ghost {
                <div class="piece ghost-stone" aria-hidden="true" data-ghost={code.clone()}>{ piece(code, geometry.style, geometry.symbols) }</div>
            }
            if let Some(number) = cell.offer {
                <div class="piece ghost-stone offered" aria-hidden="true" data-offer={number.to_string()}>{ piece("b", geometry.style, geometry.symbols) }</div>
                <span class="stone-number on-black" aria-hidden="true">{ number }</span>
            }
            if let Some(number) = cell.number {
                <span class={classes!("stone-number", (cell.piece.as_deref() == Some("b")).then_some("on-black"))}
                      aria-hidden="true">{ number }</span>
            }
            if cell.hint {
                <span class={if cell.piece.is_some() { "hint capture" } else { "hint" }} aria-hidden="true"></span>
            }
        </div>
    }
}

/// The coordinates along the edges, in a layer of their own over the cells, hidden from
/// screen readers: each cell's name already says where it is, and text inside a cell would
/// not match its name (WCAG 2.5.3).
fn coordinates(view: &BoardView) -> Html {
    let geometry = view.geometry;
    let (files, ranks) = (usize::from(geometry.files), usize::from(geometry.ranks));
    let boxes = view.cells.iter().enumerate().filter_map(|(index, cell)| {
        let (row, column) = (index / files, index % files);
        let bottom_row = row + 1 == ranks;
        let labels: Vec<Html> = if geometry.file_numbers {
            // Red's numbers on Red's edge, Black's on Black's, whichever is at the bottom.
            let mut labels = Vec::new();
            if bottom_row {
                labels.push(html! { <span class="coord file">{ xiangqi_file_number(cell.cell.file, !geometry.flipped, geometry.chinese_numerals) }</span> });
            }
            if row == 0 {
                labels.push(html! { <span class="coord file top">{ xiangqi_file_number(cell.cell.file, geometry.flipped, geometry.chinese_numerals) }</span> });
            }
            labels
        } else {
            let mut labels = Vec::new();
            if column == 0 {
                labels.push(html! { <span class="coord rank">{ cell.cell.rank + 1 }</span> });
            }
            if bottom_row {
                labels.push(html! { <span class="coord file">{ char::from(b'a' + cell.cell.file) }</span> });
            }
            labels
        };
        if labels.is_empty() {
            return None;
        }
        let dark = matches!(geometry.style, Style::Checkered) && Geometry::is_dark(cell.cell);
        let place = format!("grid-row: {}; grid-column: {};", row + 1, column + 1);
        // On a highlighted square the label takes the colour that stays legible on it.
        let lit = (cell.last_move || cell.selected) && !cell.check;
        let classes =
            classes!("coord-box", dark.then_some("dark"), lit.then_some("lit"), cell.check.then_some("checked"));
        Some(html! {
            <div class={classes} style={place} data-coord-of={cell.cell.to_string()}>{ for labels }</div>
        })
    });
    html! { <div class="coords" aria-hidden="true">{ for boxes }</div> }
}

/// The arrows and circles drawn on the board, over the pieces, in cell units.
fn shapes(view: &BoardView) -> Html {
    if view.shapes.is_empty() && view.engine_move.is_none() && view.hint_move.is_none() {
        return Html::default();
    }
    let geometry = view.geometry;
    // Centres in half cells (whole numbers): column * 2 + 1, row * 2 + 1.
    let centre = |cell: Cell| {
        let (row, column) = geometry.position_of(cell);
        (u32::from(column) * 2 + 1, u32::from(row) * 2 + 1)
    };
    // The engine's move first, under what the player drew.
    let engine = view.engine_move.map(|(from, to)| {
        (Shape { from: from.unwrap_or(to), to, brush: qi_play::Brush::Green }, "engine")
    });
    // The hint over the engine's move: what the player asked for.
    let hint = view.hint_move.map(|(from, to)| {
        (Shape { from: from.unwrap_or(to), to, brush: qi_play::Brush::Blue }, "hint")
    });
    let ours = engine.into_iter().chain(hint);
    let drawn = ours.chain(view.shapes.iter().map(|&s| (s, ""))).map(|(shape, kind)| {
        let shape = &shape;
        let brush = match (kind, shape.brush) {
            ("engine", _) => "engine",
            ("hint", _) => "hint",
            (_, qi_play::Brush::Green) => "green",
            (_, qi_play::Brush::Red) => "red",
            (_, qi_play::Brush::Blue) => "blue",
            (_, qi_play::Brush::Yellow) => "yellow",
        };
        let (fx, fy) = centre(shape.from);
        let label = if shape.is_circle() {
            shape.from.to_string()
        } else {
            format!("{}-{}", shape.from, shape.to)
        };
        if shape.is_circle() {
            let (cx, cy) = (half_cells(fx), half_cells(fy));
            return html! {
                <circle class={classes!("shape", brush)} {cx} {cy} r="0.45" data-shape={label} />
            };
        }
        let (tx, ty) = centre(shape.to);
        // Stop short of the target's centre so the head sits inside its cell: in 1/20 cells.
        let (dx, dy) = (f64::from(tx) - f64::from(fx), f64::from(ty) - f64::from(fy));
        let length = dx.hypot(dy);
        let back = if length > 0.0 { 0.5 / length } else { 0.0 };
        let end = |from: u32, d: f64| {
            decimal(((f64::from(from) + d * (1.0 - back)) * 50.0).round() as i64, 2)
        };
        let (x1, y1) = (half_cells(fx), half_cells(fy));
        let (x2, y2) = (end(fx, dx), end(fy, dy));
        html! {
            <line class={classes!("shape", brush)} {x1} {y1} {x2} {y2}
                  marker-end={format!("url(#arrowhead-{brush})")} data-shape={label} />
        }
    });
    let (files, ranks) = (geometry.files, geometry.ranks);
    let heads = ["green", "red", "blue", "yellow", "engine", "hint"].map(|brush| {
        html! {
            <marker id={format!("arrowhead-{brush}")} class={classes!("arrowhead", brush)}
                    viewBox="0 0 10 10" refX="3" refY="5" markerWidth="3" markerHeight="3" orient="auto">
                <path d="M0,0 L10,5 L0,10 z" />
            </marker>
        }
    });
    html! {
        <svg class="shapes" viewBox={format!("0 0 {files} {ranks}")} preserveAspectRatio="none"
             aria-hidden="true" data-testid="shapes">
            <defs>{ for heads }</defs>
            { for drawn }
        </svg>
    }
}

/// A length of `halves` half cells, as an SVG number in cell units.
fn half_cells(halves: u32) -> String {
    decimal(i64::from(halves) * 5, 1)
}

/// The lines under a board whose pieces stand on crossings, in cell units (each cell is 1x1,
/// the crossing at its centre).
fn underlay(geometry: Geometry) -> Html {
    // Coordinates in half cells, so that every one is a whole number.
    let (files, ranks) = (u32::from(geometry.files) * 2, u32::from(geometry.ranks) * 2); // in halves
    let line = |x1: u32, y1: u32, x2: u32, y2: u32| {
        let [x1, y1, x2, y2] = [x1, y1, x2, y2].map(half_cells);
        html! { <line {x1} {y1} {x2} {y2} /> }
    };
    let mut lines: Vec<Html> = Vec::new();
    match geometry.style {
        Style::XiangqiPoints => {
            for rank in 0..geometry.ranks {
                let y = u32::from(rank) * 2 + 1;
                lines.push(line(1, y, files - 1, y));
            }
            for file in 0..geometry.files {
                let x = u32::from(file) * 2 + 1;
                if file == 0 || file + 1 == geometry.files {
                    lines.push(line(x, 1, x, ranks - 1));
                } else {
                    lines.push(line(x, 1, x, 9));
                    lines.push(line(x, 11, x, ranks - 1));
                }
            }
            for (top, bottom) in [(1, 5), (15, 19)] {
                lines.push(line(7, top, 11, bottom));
                lines.push(line(11, top, 7, bottom));
            }
        }
        Style::GomokuPoints => {
            for i in 0..geometry.files {
                let at = u32::from(i) * 2 + 1;
                lines.push(line(1, at, files - 1, at));
                lines.push(line(at, 1, at, ranks - 1));
            }
        }
        Style::Checkered | Style::Squares => return Html::default(),
    }
    let stars = star_points(geometry).into_iter().map(|(x, y)| {
        let (cx, cy) = (half_cells(u32::from(x) * 2 + 1), half_cells(u32::from(y) * 2 + 1));
        html! { <circle {cx} {cy} r="0.09" /> }
    });
    // The river's words are characters too, drawn with our own strokes like the discs (no font
    // needed); with the symbol set, which shows no characters, the river stays plain.
    let river = (geometry.style == Style::XiangqiPoints && !geometry.symbols).then(|| {
        let words = RIVER_WORDS.iter().zip(RIVER_PLACES).map(|(d, transform)| {
            html! { <path d={*d} {transform} /> }
        });
        html! {
            <g class="river">
                { for words }
            </g>
        }
    });
    html! {
        <svg class="underlay" viewBox={format!("0 0 {} {}", geometry.files, geometry.ranks)} preserveAspectRatio="none"
             aria-hidden="true">
            <g class="lines">{ for lines }</g>
            <g class="stars">{ for stars }</g>
            { river.unwrap_or_default() }
        </svg>
    }
}

/// Where the river's words go: each word's 100-unit box scaled by 0.009, so that its strokes
/// (about 20..80) take about 0.54 of a cell, centred on the river's middle line (y 5); 楚 河 side
/// by side around x 2.5 and 漢 界 around x 6.5, as the words were set when they were text.
const RIVER_PLACES: [&str; 4] = [
    "translate(1.68 4.55) scale(0.009)",
    "translate(2.42 4.55) scale(0.009)",
    "translate(5.68 4.55) scale(0.009)",
    "translate(6.42 4.55) scale(0.009)",
];

/// The gomoku board's star points (screen row/column, symmetric so orientation does not matter).
fn star_points(geometry: Geometry) -> Vec<(u8, u8)> {
    if geometry.style != Style::GomokuPoints {
        return Vec::new();
    }
    let n = geometry.files;
    let edge = 3;
    let far = n - 1 - edge;
    let mid = n / 2;
    // An even board (Gomocup's 20×20) has no middle point: its corners' stars alone.
    if n.is_multiple_of(2) {
        return vec![(edge, edge), (edge, far), (far, edge), (far, far)];
    }
    let mut points = vec![(edge, edge), (edge, far), (far, edge), (far, far), (mid, mid)];
    if n >= 19 {
        points.extend([(edge, mid), (mid, edge), (far, mid), (mid, far)]);
    }
    points
}
