//! Display names: what a player may be called. A name is shown to strangers, so it must show as
//! what it is: no invisible characters, nothing that changes the layout or the direction of the
//! text around it, no piles of combining marks.

use unicode_normalization::UnicodeNormalization;
use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};

use crate::NAME_MAX_CHARS;

/// The most combining marks (nonspacing or enclosing) a name may stack on one character, counted
/// decomposed. Vietnamese needs two (`ự` is `u`, the horn and the dot below), pointed Hebrew with
/// a cantillation mark three; more is "zalgo" text that spills over the lines around it.
pub const NAME_MAX_MARKS: usize = 3;

/// Why a display name was refused. Its `Display` is the English detail the server sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameError {
    /// Longer than [`NAME_MAX_CHARS`] characters (counted once composed, NFC).
    TooLong,
    /// A character that does not show, or that steers the text around it: a control or format
    /// character, one Unicode says to ignore when drawing (Default_Ignorable_Code_Point: zero
    /// width characters, fillers, variation selectors, tags), or a presentation selector that
    /// follows nothing visible.
    Invisible(char),
    /// A private-use or unassigned code point: what it looks like is up to the font, if anything.
    Undefined(char),
    /// A space other than U+0020 (and the ideographic space): tabs, line breaks, no-break and
    /// fixed-width spaces.
    Space(char),
    /// A combining mark with nothing to sit on: at the start, or after a space.
    LoneMark(char),
    /// More than [`NAME_MAX_MARKS`] combining marks in a row.
    TooManyMarks,
}

impl std::fmt::Display for NameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            NameError::TooLong => write!(f, "names are at most {NAME_MAX_CHARS} characters"),
            NameError::Invisible(c) => {
                write!(
                    f,
                    "U+{:04X} is invisible or changes the layout; names cannot hold it",
                    c as u32
                )
            }
            NameError::Undefined(c) => {
                write!(f, "U+{:04X} is private-use or unassigned; names cannot hold it", c as u32)
            }
            NameError::Space(c) => {
                write!(f, "U+{:04X} is a special space; names use plain spaces only", c as u32)
            }
            NameError::LoneMark(c) => write!(
                f,
                "the combining mark U+{:04X} has no letter to go on (at the start or after a space)",
                c as u32
            ),
            NameError::TooManyMarks => {
                write!(f, "at most {NAME_MAX_MARKS} combining marks in a row")
            }
        }
    }
}

impl std::error::Error for NameError {}

/// A display name as shown: trimmed and composed (NFC, so that the same name typed on two
/// systems is the same text); or why it is refused.
///
/// # Errors
/// [`NameError`] when the name is longer than [`NAME_MAX_CHARS`] characters or holds a
/// character that does not show as itself (see its variants).
pub fn clean_name(name: &str) -> Result<String, NameError> {
    let name = name.trim();
    let composed: String = name.nfc().collect();
    if composed.chars().count() > NAME_MAX_CHARS {
        return Err(NameError::TooLong);
    }
    // Each character as typed, so that the detail names the one the player typed.
    let mut previous = None;
    for c in name.chars() {
        check_char(c, previous)?;
        previous = Some(c);
    }
    check_marks(name)?;
    Ok(composed)
}

/// Checks one character given the one before it.
pub(crate) fn check_char(c: char, previous: Option<char>) -> Result<(), NameError> {
    use GeneralCategory as G;
    if is_presentation_selector(c) {
        // Text or emoji style for the character before: harmless there, invisible anywhere else.
        return match previous {
            Some(p) if !is_space(p) && !is_presentation_selector(p) => Ok(()),
            _ => Err(NameError::Invisible(c)),
        };
    }
    let category = c.general_category();
    if c.is_whitespace()
        || matches!(category, G::SpaceSeparator | G::LineSeparator | G::ParagraphSeparator)
    {
        return if is_space(c) { Ok(()) } else { Err(NameError::Space(c)) };
    }
    match category {
        _ if is_default_ignorable(c) => Err(NameError::Invisible(c)),
        G::Control | G::Format | G::Surrogate => Err(NameError::Invisible(c)),
        G::PrivateUse | G::Unassigned => Err(NameError::Undefined(c)),
        G::NonspacingMark | G::EnclosingMark | G::SpacingMark if previous.is_none_or(is_space) => {
            Err(NameError::LoneMark(c))
        }
        _ => Ok(()),
    }
}

/// Refuses more than [`NAME_MAX_MARKS`] nonspacing or enclosing marks in a row, counted
/// decomposed (NFD), so that a name is judged alike however it was typed. A spacing mark takes
/// room of its own, as a letter does, and later marks stack on it; a presentation selector is
/// drawn as nothing, so it neither counts nor ends a run.
pub(crate) fn check_marks(name: &str) -> Result<(), NameError> {
    let mut marks = 0;
    for c in name.nfd().filter(|&c| !is_presentation_selector(c)) {
        match c.general_category() {
            GeneralCategory::NonspacingMark | GeneralCategory::EnclosingMark => marks += 1,
            _ => marks = 0,
        }
        if marks > NAME_MAX_MARKS {
            return Err(NameError::TooManyMarks);
        }
    }
    Ok(())
}

/// The spaces a name may hold (not at its ends, which are trimmed). The ideographic space too:
/// Chinese and Japanese input methods type it for the space bar in full-width mode, and it shows
/// as a blank one ideograph wide, as plainly as U+0020 does.
pub(crate) fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\u{3000}')
}

/// U+FE0E and U+FE0F: show the character before as text or as an emoji (`❤️` is U+2764 U+FE0F).
fn is_presentation_selector(c: char) -> bool {
    matches!(c, '\u{FE0E}' | '\u{FE0F}')
}

/// Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt): characters drawn as
/// nothing at all when a font has no glyph for them. Among them the Hangul fillers, which pass
/// for letters yet show as blanks, and the tags and variation selectors.
fn is_default_ignorable(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}'
            | '\u{034F}'
            | '\u{061C}'
            | '\u{115F}'..='\u{1160}'
            | '\u{17B4}'..='\u{17B5}'
            | '\u{180B}'..='\u{180F}'
            | '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{206F}'
            | '\u{3164}'
            | '\u{FE00}'..='\u{FE0F}'
            | '\u{FEFF}'
            | '\u{FFA0}'
            | '\u{FFF0}'..='\u{FFF8}'
            | '\u{1BCA0}'..='\u{1BCA3}'
            | '\u{1D173}'..='\u{1D17A}'
            | '\u{E0000}'..='\u{E0FFF}'
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(name: &str) -> NameError {
        clean_name(name).expect_err(name)
    }

    #[test]
    fn names_are_trimmed_and_bounded() {
        assert_eq!(clean_name("  Ann  "), Ok("Ann".into()));
        assert_eq!(clean_name(""), Ok(String::new()));
        assert_eq!(clean_name("   "), Ok(String::new()));
        assert_eq!(clean_name(&"棋".repeat(20)), Ok("棋".repeat(20)));
        assert_eq!(refused(&"棋".repeat(21)), NameError::TooLong);
        assert_eq!(clean_name("<b>x</b>"), Ok("<b>x</b>".into()), "shown as text by the app");
    }

    #[test]
    fn real_names_pass() {
        for name in [
            "Ann",
            "Nguyễn Thị Ngọc Ánh",
            "Trần Thị Bích Ngọc",
            "Lưu Đức Hạnh",
            "Nguyễn Văn A",
            "棋手小明",
            "王 小明",
            "王\u{3000}小明",
            "アキラ",
            "김민준",
            "प्रियंका शर्मा",
            "अनुष्का",
            "สมชาย ใจดี",
            "น้ำผึ้ง",
            "محمد",
            "יִשְׂרָאֵל",
            "Zoë O'Brien-Łukasz",
            "\u{2764}\u{FE0F}",
            "\u{265F}\u{FE0E} Ann",
            "1\u{FE0F}\u{20E3}",
            "👍🏽 Bo",
            "🐉🐉",
        ] {
            assert_eq!(clean_name(name).as_deref(), Ok(name), "{name:?}");
        }
    }

    #[test]
    fn decomposed_names_pass_and_come_back_composed() {
        let composed = "Nguyễn Thị Ngọc Ánh";
        let decomposed: String = composed.nfd().collect();
        assert_eq!(decomposed.chars().count(), 24, "longer than the limit as typed");
        assert_eq!(clean_name(&decomposed).as_deref(), Ok(composed));
        // The horn and a tone: two marks on one letter, the most Vietnamese needs.
        let decomposed: String = "Lưu Hựu".nfd().collect();
        assert!(decomposed.contains("u\u{31B}\u{323}"));
        assert_eq!(clean_name(&decomposed).as_deref(), Ok("Lưu Hựu"));
    }

    #[test]
    fn controls_and_format_characters_are_refused() {
        assert_eq!(refused("a\u{0}b"), NameError::Invisible('\u{0}'));
        assert_eq!(refused("a\u{7F}b"), NameError::Invisible('\u{7F}'));
        assert_eq!(refused("a\u{9C}b"), NameError::Invisible('\u{9C}'));
        assert_eq!(refused("a\u{FFF9}b"), NameError::Invisible('\u{FFF9}'));
        assert_eq!(refused("a\u{0600}1"), NameError::Invisible('\u{600}'));
        for hidden in ["\u{202E}nimda", "a\u{200B}b", "x\u{2066}y", "\u{FEFF}z", "a\u{00AD}b"] {
            assert!(matches!(refused(hidden), NameError::Invisible(_)), "{hidden:?}");
        }
    }

    #[test]
    fn every_default_ignorable_is_refused() {
        let ranges = [
            ('\u{00AD}', '\u{00AD}'),
            ('\u{034F}', '\u{034F}'),
            ('\u{061C}', '\u{061C}'),
            ('\u{115F}', '\u{1160}'),
            ('\u{17B4}', '\u{17B5}'),
            ('\u{180B}', '\u{180F}'),
            ('\u{200B}', '\u{200F}'),
            ('\u{202A}', '\u{202E}'),
            ('\u{2060}', '\u{206F}'),
            ('\u{3164}', '\u{3164}'),
            ('\u{FE00}', '\u{FE0D}'),
            ('\u{FEFF}', '\u{FEFF}'),
            ('\u{FFA0}', '\u{FFA0}'),
            ('\u{FFF0}', '\u{FFF8}'),
            ('\u{1BCA0}', '\u{1BCA3}'),
            ('\u{1D173}', '\u{1D17A}'),
            ('\u{E0000}', '\u{E0FFF}'),
        ];
        for (first, last) in ranges {
            for c in first..=last {
                for name in
                    [format!("{c}"), format!("a{c}"), format!("a{c}b"), format!("\u{4E00}{c}")]
                {
                    assert!(clean_name(&name).is_err(), "U+{:04X} in {name:?}", c as u32);
                }
            }
        }
    }

    #[test]
    fn fillers_separators_tags_and_joiners_are_refused() {
        for (name, c) in [
            ("\u{3164}", '\u{3164}'),
            ("\u{115F}", '\u{115F}'),
            ("\u{1160}", '\u{1160}'),
            ("\u{FFA0}", '\u{FFA0}'),
            ("Ann\u{3164}", '\u{3164}'),
            ("a\u{E0041}", '\u{E0041}'),
            ("a\u{E007F}", '\u{E007F}'),
            ("a\u{E0100}", '\u{E0100}'),
            ("a\u{034F}b", '\u{034F}'),
            ("\u{034F}", '\u{034F}'),
        ] {
            assert_eq!(refused(name), NameError::Invisible(c), "{name:?}");
        }
        // Flags of England, Scotland and Wales are built of tags: refused with the rest.
        assert!(clean_name("🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}").is_err());
    }

    #[test]
    fn presentation_selectors_only_follow_something_visible() {
        assert_eq!(clean_name("❤\u{FE0F}").as_deref(), Ok("❤\u{FE0F}"));
        assert_eq!(clean_name("♟\u{FE0E}").as_deref(), Ok("♟\u{FE0E}"));
        assert_eq!(refused("\u{FE0F}"), NameError::Invisible('\u{FE0F}'));
        assert_eq!(refused("\u{FE0F}Ann"), NameError::Invisible('\u{FE0F}'));
        assert_eq!(refused("a \u{FE0F}b"), NameError::Invisible('\u{FE0F}'));
        assert_eq!(refused("❤\u{FE0F}\u{FE0F}"), NameError::Invisible('\u{FE0F}'));
        assert_eq!(refused("❤\u{FE0F}\u{FE0E}"), NameError::Invisible('\u{FE0E}'));
        // Other variation selectors are refused even after a character.
        assert_eq!(refused("\u{845B}\u{FE00}"), NameError::Invisible('\u{FE00}'));
    }

    #[test]
    fn only_plain_spaces() {
        for c in [
            '\t', '\n', '\r', '\u{B}', '\u{C}', '\u{85}', '\u{A0}', '\u{1680}', '\u{2000}',
            '\u{2007}', '\u{200A}', '\u{202F}', '\u{205F}', '\u{2028}', '\u{2029}',
        ] {
            assert_eq!(refused(&format!("a{c}b")), NameError::Space(c), "U+{:04X}", c as u32);
        }
        assert_eq!(clean_name("a b c").as_deref(), Ok("a b c"));
        assert_eq!(clean_name("\u{3000}小明\u{3000}").as_deref(), Ok("小明"), "trimmed too");
    }

    #[test]
    fn private_use_and_unassigned_are_refused() {
        for c in ['\u{E000}', '\u{F8FF}', '\u{F0000}', '\u{10FFFD}'] {
            assert_eq!(refused(&format!("a{c}")), NameError::Undefined(c));
        }
        for c in ['\u{0378}', '\u{FFFF}', '\u{FDD0}', '\u{2FFFF}', '\u{E1000}'] {
            assert_eq!(refused(&format!("a{c}")), NameError::Undefined(c));
        }
    }

    #[test]
    fn a_combining_mark_needs_a_letter_under_it() {
        assert_eq!(refused("\u{301}Ann"), NameError::LoneMark('\u{301}'));
        assert_eq!(refused(" \u{301}Ann "), NameError::LoneMark('\u{301}'), "after trimming");
        assert_eq!(refused("Ann \u{301}"), NameError::LoneMark('\u{301}'));
        assert_eq!(refused("Ann\u{3000}\u{20DD}"), NameError::LoneMark('\u{20DD}'));
        assert_eq!(refused("\u{93E}क"), NameError::LoneMark('\u{93E}'), "a spacing mark too");
        assert_eq!(refused("\u{20E3}"), NameError::LoneMark('\u{20E3}'), "an enclosing mark too");
        assert_eq!(clean_name("a\u{20DD}").as_deref(), Ok("a\u{20DD}"));
    }

    #[test]
    fn at_most_three_marks_in_a_row() {
        // No precomposed form for these, so they stay as typed.
        let three = "q\u{300}\u{301}\u{302}";
        assert_eq!(clean_name(three).as_deref(), Ok(three));
        assert_eq!(refused("q\u{300}\u{301}\u{302}\u{303}"), NameError::TooManyMarks);
        // Shin with its dot, a vowel and a cantillation mark.
        let hebrew = "\u{5E9}\u{5B4}\u{5C1}\u{596}\u{5D9}\u{5EA}";
        assert_eq!(clean_name(hebrew).as_deref(), Ok(hebrew));
        // Counted decomposed: a precomposed letter brings its marks along.
        assert_eq!(refused("ễ\u{300}\u{301}"), NameError::TooManyMarks);
        assert_eq!(clean_name("ễ\u{300}").as_deref(), Ok("ễ\u{300}"));
        let zalgo = "Z\u{36B}\u{343}\u{342}\u{30F}\u{316}a\u{352}\u{300}\u{34E}l";
        assert_eq!(refused(zalgo), NameError::TooManyMarks);
        // A run is counted per letter: three on each is fine.
        let each = "q\u{300}\u{301}\u{302}q\u{300}\u{301}\u{302}";
        assert_eq!(clean_name(each).as_deref(), Ok(each));
        // A spacing mark is a letter of its own for the count; a selector is not.
        let spaced = "क\u{941}\u{942}\u{943}\u{93E}\u{941}\u{942}\u{943}";
        assert!(clean_name(spaced).is_ok());
        assert_eq!(refused("q\u{300}\u{301}\u{302}\u{FE0F}\u{303}"), NameError::TooManyMarks);
    }

    #[test]
    fn details_say_what_was_wrong() {
        assert_eq!(NameError::TooLong.to_string(), "names are at most 20 characters");
        assert!(NameError::Invisible('\u{200B}').to_string().contains("U+200B"));
        assert!(NameError::Space('\u{A0}').to_string().contains("U+00A0"));
        assert!(NameError::Undefined('\u{E000}').to_string().contains("U+E000"));
        assert!(NameError::LoneMark('\u{301}').to_string().contains("U+0301"));
        assert!(NameError::TooManyMarks.to_string().contains('3'));
    }
}
