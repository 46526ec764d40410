//! Move and position marks: PGN's numeric annotation glyphs (NAGs, `$1` to `$255`) and the
//! symbols players write for the common ones (`!?`, `±`, `+-`).

use std::fmt;

/// One annotation glyph, by its PGN number: `$1` is "!", `$14` is "+=" and so on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Mark(pub u8);

/// What a mark judges, which decides which marks exclude each other: a move has at most one move
/// mark and one position mark.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkKind {
    /// How good the move was: `!`, `?`, `!!`, `??`, `!?`, `?!`, and the forced move `□`.
    Move,
    /// Who stands better after it: `=`, `∞`, `+=`, `=+`, `±`, `∓`, `+-`, `-+`.
    Position,
    /// Anything else PGN numbers (zugzwang, initiative, time trouble, novelty, ...).
    Other,
}

/// Each mark with a symbol of its own: number, the symbol shown, and other ways records write it
/// (ASCII forms first, so that they are the ones written to plain-text formats).
const SYMBOLS: &[(u8, &str, &[&str])] = &[
    (1, "!", &[]),
    (2, "?", &[]),
    (3, "!!", &[]),
    (4, "??", &[]),
    (5, "!?", &[]),
    (6, "?!", &[]),
    (7, "□", &[]),
    (10, "=", &[]),
    (13, "∞", &[]),
    // ⩲ and ⩱ are missing from common fonts: shown the way players type them.
    (14, "+=", &["⩲", "+/="]),
    (15, "=+", &["⩱", "=/+"]),
    (16, "±", &["+/-"]),
    (17, "∓", &["-/+"]),
    (18, "+-", &["+−"]),
    (19, "-+", &["−+"]),
    (22, "⨀", &[]),
    (23, "⨀", &[]),
    (32, "⟳", &[]),
    (33, "⟳", &[]),
    (36, "→", &[]),
    (37, "→", &[]),
    (40, "↑", &[]),
    (41, "↑", &[]),
    (132, "⇆", &[]),
    (133, "⇆", &[]),
    (138, "⊕", &[]),
    (139, "⊕", &[]),
    (140, "∆", &[]),
    (146, "N", &[]),
];

impl Mark {
    /// The move marks a player picks from, in the order menus show them.
    pub const MOVE_MARKS: [Mark; 6] = [Mark(1), Mark(2), Mark(3), Mark(4), Mark(5), Mark(6)];
    /// The position marks a player picks from, from the first player's best to the second's.
    pub const POSITION_MARKS: [Mark; 8] =
        [Mark(18), Mark(16), Mark(14), Mark(10), Mark(13), Mark(15), Mark(17), Mark(19)];

    /// What the mark judges.
    #[must_use]
    pub fn kind(self) -> MarkKind {
        match self.0 {
            1..=7 => MarkKind::Move,
            10..=19 => MarkKind::Position,
            _ => MarkKind::Other,
        }
    }

    /// The symbol shown for it, when it has one (`None` for the rarer numbers: they show as
    /// `$n`).
    #[must_use]
    pub fn symbol(self) -> Option<&'static str> {
        SYMBOLS.iter().find(|(n, ..)| *n == self.0).map(|(_, symbol, _)| *symbol)
    }

    /// The mark a symbol or `$n` stands for: `!?`, `±`, `+/-`, `$14`. `None` for anything else.
    #[must_use]
    pub fn parse(text: &str) -> Option<Mark> {
        if let Some(number) = text.strip_prefix('$') {
            if number.is_empty() || number.len() > 3 || !number.bytes().all(|b| b.is_ascii_digit())
            {
                return None;
            }
            return number.parse().ok().map(Mark);
        }
        SYMBOLS
            .iter()
            .find(|(_, symbol, others)| *symbol == text || others.contains(&text))
            .map(|(n, ..)| Mark(*n))
    }

    /// The plain-ASCII way to write it where a record's format has no glyphs: the move marks as
    /// themselves (`!?`), the rest as `$n`.
    #[must_use]
    pub fn ascii(self) -> String {
        match self.kind() {
            MarkKind::Move if self.0 != 7 => self.symbol().unwrap_or_default().to_owned(),
            _ => format!("${}", self.0),
        }
    }
}

impl fmt::Display for Mark {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.symbol() {
            Some(symbol) => f.write_str(symbol),
            None => write!(f, "${}", self.0),
        }
    }
}

/// `marks` with `mark` toggled: taken off when it is there; otherwise put on, replacing a mark
/// of the same kind (a move is not both "!" and "??"). Kept in number order.
pub fn toggle(marks: &mut Vec<Mark>, mark: Mark) {
    if let Some(at) = marks.iter().position(|&m| m == mark) {
        marks.remove(at);
        return;
    }
    if mark.kind() != MarkKind::Other {
        marks.retain(|m| m.kind() != mark.kind());
    }
    // Inserted in place rather than sorted: a handful of marks, and no sort code in the page.
    let at = marks.iter().position(|&m| m > mark).unwrap_or(marks.len());
    marks.insert(at, mark);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symbols_and_numbers_read_both_ways() {
        for (text, number) in [("!", 1), ("??", 4), ("!?", 5), ("+=", 14), ("⩲", 14), ("±", 16)]
        {
            assert_eq!(Mark::parse(text), Some(Mark(number)), "{text}");
        }
        assert_eq!(Mark::parse("+/-"), Some(Mark(16)));
        assert_eq!(Mark::parse("$146"), Some(Mark(146)));
        assert_eq!(Mark(16).to_string(), "±");
        assert_eq!(Mark(200).to_string(), "$200");
        assert_eq!(Mark(5).ascii(), "!?");
        assert_eq!(Mark(16).ascii(), "$16");
        for bad in ["", "$", "$256", "$1234", "$x", "!!!", "+"] {
            assert_eq!(Mark::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_move_has_one_move_mark_and_one_position_mark() {
        let mut marks = Vec::new();
        toggle(&mut marks, Mark(1));
        toggle(&mut marks, Mark(16));
        toggle(&mut marks, Mark(4));
        assert_eq!(marks, [Mark(4), Mark(16)], "?? replaced !");
        toggle(&mut marks, Mark(146));
        toggle(&mut marks, Mark(16));
        assert_eq!(marks, [Mark(4), Mark(146)], "a second ± takes it off");
    }
}
