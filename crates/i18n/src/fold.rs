//! Folding letters to small ones for matching what a person typed (a search over a record's
//! players, a piece's name in the screen-reader field) in the app's three languages.
//!
//! `str::to_lowercase` would do it for every script, and bring core's Unicode case tables (about
//! 16 KB, 6 KB of it in the page's compressed download) with it. What is typed here is Latin
//! (English, Vietnamese with its tone marks), or Chinese, which has no case; Greek and Cyrillic
//! come along for names in records. Every other character is kept as it is.

/// `c` folded to its small letter where it is a capital of Latin (ASCII, Latin-1, Latin
/// Extended-A, Vietnamese's horned Ơ and Ư, Latin Extended Additional), Greek or Cyrillic;
/// otherwise `c`. Where `char::to_lowercase` gives one letter, this gives the same one.
#[must_use]
pub fn fold_char(c: char) -> char {
    let n = u32::from(c);
    let folded = match n {
        0x41..=0x5A | 0xC0..=0xD6 | 0xD8..=0xDE => n + 0x20,
        // Latin Extended-A: pairs with the capital first, except in the runs after 0x138 and
        // 0x178, where the capital comes second.
        0x100..=0x12F | 0x132..=0x137 | 0x14A..=0x177 if n % 2 == 0 => n + 1,
        0x139..=0x148 | 0x179..=0x17E if n % 2 == 1 => n + 1,
        0x178 => 0xFF,
        // Vietnamese's horned letters, Ơ and Ư (Latin Extended-B).
        0x1A0 | 0x1AF => n + 1,
        // Latin Extended Additional, where Vietnamese's letters with tone marks are: capital
        // first in each pair (0x1E96-0x1E9F are small letters and specials).
        0x1E00..=0x1E95 | 0x1EA0..=0x1EFF if n % 2 == 0 => n + 1,
        // Greek and Cyrillic capitals.
        0x391..=0x3A1 | 0x3A3..=0x3AB | 0x410..=0x42F => n + 0x20,
        0x400..=0x40F => n + 0x50,
        _ => n,
    };
    char::from_u32(folded).unwrap_or(c)
}

/// `text` with every letter folded by [`fold_char`].
#[must_use]
pub fn fold_case(text: &str) -> String {
    text.chars().map(fold_char).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_as_the_standard_library_where_it_folds_and_keeps_the_rest() {
        let mut folded = 0;
        for c in (0..=0x2FFFu32).filter_map(char::from_u32) {
            let mut lower = c.to_lowercase();
            let (Some(single), None) = (lower.next(), lower.next()) else {
                // İ's small form is two characters: kept as it is.
                assert_eq!(fold_char(c), c, "{c:?}");
                continue;
            };
            let ours = fold_char(c);
            if ours != c {
                folded += 1;
                assert_eq!(ours, single, "{c:?} (U+{:04X})", u32::from(c));
            } else if single != c {
                // A capital left alone must be of a script the app's languages do not type.
                let n = u32::from(c);
                let covered = (0x41..=0x24F).contains(&n)
                    || (0x370..=0x45F).contains(&n)
                    || (0x1E00..=0x1EFF).contains(&n);
                let known_gaps = (0x180..=0x24F).contains(&n) && !matches!(n, 0x1A0 | 0x1AF)
                    || (0x370..=0x390).contains(&n)
                    || (0x3CF..=0x3FF).contains(&n)
                    || n == 0x1E9E;
                assert!(!covered || known_gaps, "{c:?} (U+{n:04X}) is not folded");
            }
        }
        // ASCII 26, Latin-1 30, Extended-A 63, Ơ Ư, Extended Additional 128, Greek 26, Cyrillic 48.
        assert_eq!(folded, 317);
    }

    #[test]
    fn folds_the_words_people_type() {
        assert_eq!(fold_case("LÊ VĂN ĐỨC"), "lê văn đức");
        assert_eq!(fold_case("Tướng Ơ Ư Xe"), "tướng ơ ư xe");
        assert_eq!(fold_case("Magnus CARLSEN"), "magnus carlsen");
        assert_eq!(fold_case("许银川 Xu Yinchuan"), "许银川 xu yinchuan");
        assert_eq!(fold_case("ÀÉÎÕÜ ŸŽ"), "àéîõü ÿž");
        assert_eq!(fold_case("ΑΒΓ АБВ ЁЂ"), "αβγ абв ёђ");
    }
}
