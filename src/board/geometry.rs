//! Board geometry as data: size, whether pieces stand on squares or on line crossings, the
//! river and palaces, and the mapping between screen rows/columns and cells for either
//! orientation. Nothing here knows a rule.

use qi_rules::Cell;

/// How a board is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// Chequered squares (chess).
    Checkered,
    /// Plain squares with lines between them (banqi).
    Squares,
    /// Pieces on the crossings of lines, with river and palaces (xiangqi).
    XiangqiPoints,
    /// Stones on the crossings of lines, with star points (gomoku).
    GomokuPoints,
}

/// A board's shape and how it is seen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Geometry {
    /// Cells across.
    pub files: u8,
    /// Cells up.
    pub ranks: u8,
    /// How it is drawn.
    pub style: Style,
    /// Seen from the second side (rank 1 at the top).
    pub flipped: bool,
    /// Xiangqi's files labelled the traditional way, each side's from its own right (Red's
    /// 一 to 九 along the bottom, Black's 1 to 9 along the top, as printed boards and the
    /// notation 炮二平五 count them) instead of letters and rank numbers.
    pub file_numbers: bool,
    /// Red's file numbers as Chinese numerals (一…九, the 简体中文 interface) rather than the
    /// digits WXF notation uses (and every font has).
    pub chinese_numerals: bool,
    /// Xiangqi and banqi pieces drawn as symbols (a king, a rook...) rather than characters.
    pub symbols: bool,
}

/// The traditional label of xiangqi file `file` (0 is the a-file, Red's left) for the side
/// whose edge it is: Red counts from its right (the i-file), in Chinese numerals 一 to 九 when
/// `chinese`, else in digits as WXF does; Black counts 1 to 9 from its right (the a-file).
#[must_use]
pub fn xiangqi_file_number(file: u8, red: bool, chinese: bool) -> &'static str {
    const NUMERALS: [&str; 9] = ["九", "八", "七", "六", "五", "四", "三", "二", "一"];
    const DIGITS: [&str; 9] = ["1", "2", "3", "4", "5", "6", "7", "8", "9"];
    let file = usize::from(file).min(8);
    match (red, chinese) {
        (true, true) => NUMERALS[file],
        (true, false) => DIGITS[8 - file],
        (false, _) => DIGITS[file],
    }
}

impl Geometry {
    /// The cell shown at screen `row` (0 at the top) and `column` (0 at the left).
    #[must_use]
    pub fn cell_at(self, row: u8, column: u8) -> Cell {
        if self.flipped {
            Cell::new(self.files - 1 - column, row)
        } else {
            Cell::new(column, self.ranks - 1 - row)
        }
    }

    /// The screen row and column of `cell`.
    #[must_use]
    pub fn position_of(self, cell: Cell) -> (u8, u8) {
        if self.flipped {
            (cell.rank, self.files - 1 - cell.file)
        } else {
            (self.ranks - 1 - cell.rank, cell.file)
        }
    }

    /// Every cell in screen order: rows from the top, each from the left.
    pub fn cells_in_screen_order(self) -> impl Iterator<Item = Cell> {
        (0..self.ranks).flat_map(move |row| (0..self.files).map(move |col| self.cell_at(row, col)))
    }

    /// The cell under a point given as fractions (0..1) of the board's width and height, or
    /// `None` outside the board.
    #[must_use]
    pub fn cell_under(self, x: f64, y: f64) -> Option<Cell> {
        if !(0.0..1.0).contains(&x) || !(0.0..1.0).contains(&y) {
            return None;
        }
        let column = (x * f64::from(self.files)) as u8;
        let row = (y * f64::from(self.ranks)) as u8;
        Some(self.cell_at(row.min(self.ranks - 1), column.min(self.files - 1)))
    }

    /// The cell one step from `cell` in a screen direction (`dx` right, `dy` down), staying on
    /// the board.
    #[must_use]
    pub fn step(self, cell: Cell, dx: i8, dy: i8) -> Cell {
        let (row, column) = self.position_of(cell);
        let row = (i16::from(row) + i16::from(dy)).clamp(0, i16::from(self.ranks) - 1);
        let column = (i16::from(column) + i16::from(dx)).clamp(0, i16::from(self.files) - 1);
        self.cell_at(row as u8, column as u8)
    }

    /// Whether this square is a dark one (chess colouring).
    #[must_use]
    pub fn is_dark(cell: Cell) -> bool {
        (cell.file + cell.rank).is_multiple_of(2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chess(flipped: bool) -> Geometry {
        Geometry {
            files: 8,
            ranks: 8,
            style: Style::Checkered,
            flipped,
            file_numbers: false,
            chinese_numerals: false,
            symbols: false,
        }
    }

    #[test]
    fn white_sees_a1_bottom_left_and_black_top_right() {
        assert_eq!(chess(false).cell_at(7, 0).to_string(), "a1");
        assert_eq!(chess(false).cell_at(0, 7).to_string(), "h8");
        assert_eq!(chess(true).cell_at(0, 7).to_string(), "a1");
        assert_eq!(chess(true).cell_at(7, 0).to_string(), "h8");
    }

    #[test]
    fn xiangqi_files_are_counted_from_each_sides_right() {
        // 炮二平五: Red's cannon on its second file from the right (h) to the fifth (e).
        assert_eq!(xiangqi_file_number(7, true, true), "二");
        assert_eq!(xiangqi_file_number(4, true, true), "五");
        assert_eq!(xiangqi_file_number(0, true, true), "九");
        // WXF's C2=5 is the same move, in digits.
        assert_eq!(xiangqi_file_number(7, true, false), "2");
        assert_eq!(xiangqi_file_number(0, true, false), "9");
        // 炮８平５: Black's eighth file from its right is the h-file too.
        assert_eq!(xiangqi_file_number(7, false, true), "8");
        assert_eq!(xiangqi_file_number(0, false, false), "1");
    }

    #[test]
    fn positions_and_cells_agree_both_ways() {
        for flipped in [false, true] {
            let xiangqi = Geometry {
                files: 9,
                ranks: 10,
                style: Style::XiangqiPoints,
                flipped,
                file_numbers: true,
                chinese_numerals: true,
                symbols: false,
            };
            for cell in xiangqi.cells_in_screen_order() {
                let (row, column) = xiangqi.position_of(cell);
                assert_eq!(xiangqi.cell_at(row, column), cell);
            }
            assert_eq!(xiangqi.cells_in_screen_order().count(), 90);
        }
    }

    #[test]
    fn points_under_the_pointer() {
        let board = chess(false);
        assert_eq!(board.cell_under(0.01, 0.99).map(|c| c.to_string()), Some("a1".into()));
        assert_eq!(board.cell_under(0.55, 0.55).map(|c| c.to_string()), Some("e4".into()));
        assert_eq!(board.cell_under(1.2, 0.5), None);
        assert_eq!(board.cell_under(-0.1, 0.5), None);
    }

    #[test]
    fn arrow_steps_follow_the_screen() {
        let board = chess(true);
        let e4: Cell = "e4".parse().unwrap();
        assert_eq!(
            board.step(e4, 0, -1).to_string(),
            "e3",
            "up on a flipped board is towards rank 1"
        );
        assert_eq!(board.step(e4, 1, 0).to_string(), "d4");
        assert_eq!(chess(false).step("h8".parse().unwrap(), 1, -1).to_string(), "h8");
    }
}
