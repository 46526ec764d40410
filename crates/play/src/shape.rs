//! Arrows and circles drawn on the board, as lichess players draw them: a right-drag draws an
//! arrow, a right-click a circle, and a modifier key picks the colour.

use qi_rules::Cell;

/// The colours shapes come in. lichess's four, with its modifier keys: none is green, Shift red,
/// Alt (or Ctrl) blue, Shift with Alt yellow.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Brush {
    /// No modifier.
    Green,
    /// Shift.
    Red,
    /// Alt or Ctrl.
    Blue,
    /// Shift with Alt or Ctrl.
    Yellow,
}

impl Brush {
    /// The brush for the modifier keys held.
    #[must_use]
    pub fn for_modifiers(shift: bool, alt_or_ctrl: bool) -> Brush {
        match (shift, alt_or_ctrl) {
            (false, false) => Brush::Green,
            (true, false) => Brush::Red,
            (false, true) => Brush::Blue,
            (true, true) => Brush::Yellow,
        }
    }

    /// The letter lichess's `[%cal]` and `[%csl]` commands use: `G`, `R`, `B`, `Y`.
    #[must_use]
    pub fn letter(self) -> char {
        match self {
            Brush::Green => 'G',
            Brush::Red => 'R',
            Brush::Blue => 'B',
            Brush::Yellow => 'Y',
        }
    }

    /// The brush a `[%cal]`/`[%csl]` letter stands for.
    #[must_use]
    pub fn from_letter(letter: char) -> Option<Brush> {
        match letter {
            'G' => Some(Brush::Green),
            'R' => Some(Brush::Red),
            'B' => Some(Brush::Blue),
            'Y' => Some(Brush::Yellow),
            _ => None,
        }
    }
}

/// An arrow from one cell to another, or a circle round one cell (`from == to`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Shape {
    /// Where the arrow starts, or the circled cell.
    pub from: Cell,
    /// Where it points; the same cell for a circle.
    pub to: Cell,
    /// Its colour.
    pub brush: Brush,
}

impl Shape {
    /// Whether it is a circle.
    #[must_use]
    pub fn is_circle(self) -> bool {
        self.from == self.to
    }
}

/// `shapes` with `shape` toggled, as drawing works on lichess: drawing the same shape again in
/// the same colour takes it off; in another colour it changes colour.
pub fn toggle(shapes: &mut Vec<Shape>, shape: Shape) {
    if let Some(at) = shapes.iter().position(|s| s.from == shape.from && s.to == shape.to) {
        if shapes[at].brush == shape.brush {
            shapes.remove(at);
        } else {
            shapes[at].brush = shape.brush;
        }
        return;
    }
    shapes.push(shape);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drawing_twice_takes_off_and_another_colour_recolours() {
        let (a, b) = (Cell::new(4, 1), Cell::new(4, 3));
        let mut shapes = Vec::new();
        toggle(&mut shapes, Shape { from: a, to: b, brush: Brush::Green });
        toggle(&mut shapes, Shape { from: a, to: a, brush: Brush::Red });
        toggle(&mut shapes, Shape { from: a, to: b, brush: Brush::Blue });
        assert_eq!(shapes.len(), 2);
        assert_eq!(shapes[0].brush, Brush::Blue);
        assert!(shapes[1].is_circle());
        toggle(&mut shapes, Shape { from: a, to: a, brush: Brush::Red });
        assert_eq!(shapes.len(), 1);
        assert_eq!(Brush::for_modifiers(true, true), Brush::Yellow);
        assert_eq!(Brush::from_letter(Brush::Red.letter()), Some(Brush::Red));
    }
}
