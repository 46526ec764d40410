//! Piece art drawn for Qi: chess silhouettes, xiangqi/banqi discs, the face-down banqi disc and
//! gomoku stones.
//!
//! Every picture is a complete, self-contained SVG string in a `0 0 100 100` box: no scripts, no
//! external references, no `<style>` blocks, and every `id` starts with `qi-` and is unique per
//! piece code.

/// Wraps a chess silhouette (a macro that expands to SVG shapes) in a styled `<svg>`.
///
/// All shapes inherit fill and stroke from the group, so one drawing serves both colours; detail
/// lines use `fill="none"` and therefore take the stroke colour (dark on white pieces, light on
/// black pieces).
macro_rules! chess_svg {
    ($fill:literal, $stroke:literal, $body:ident) => {
        concat!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">"#,
            r#"<g fill=""#,
            $fill,
            r#"" stroke=""#,
            $stroke,
            r#"" stroke-width="3" stroke-linejoin="round" stroke-linecap="round">"#,
            $body!(),
            "</g></svg>"
        )
    };
}

macro_rules! white {
    ($body:ident) => {
        chess_svg!("#fff", "#222", $body)
    };
}

macro_rules! black {
    ($body:ident) => {
        chess_svg!("#222", "#e8e8e8", $body)
    };
}

macro_rules! king {
    () => {
        concat!(
            r#"<path d="M46 5H54V11H60V18H54V27H46V18H40V11H46Z"/>"#,
            r#"<path d="M31 64L25 46C23 36 35 30 44 37L50 28L56 37C65 30 77 36 75 46L69 64Z"/>"#,
            r#"<path d="M33 67C33 72 29 76 27 80H73C71 76 67 72 67 67Z"/>"#,
            r#"<rect x="29" y="61" width="42" height="8" rx="2"/>"#,
            r#"<path fill="none" d="M50 36V60"/>"#,
            r#"<rect x="22" y="80" width="56" height="11" rx="3"/>"#,
        )
    };
}

macro_rules! queen {
    () => {
        concat!(
            r#"<path d="M31 64L23 32L35 52L37 25L45 49L50 20L55 49L63 25L65 52L77 32L69 64Z"/>"#,
            r#"<path d="M33 67C33 72 29 76 27 80H73C71 76 67 72 67 67Z"/>"#,
            r#"<rect x="29" y="61" width="42" height="8" rx="2"/>"#,
            r#"<circle cx="23" cy="30" r="4.5"/><circle cx="37" cy="23" r="4.5"/>"#,
            r#"<circle cx="50" cy="17" r="4.5"/><circle cx="63" cy="23" r="4.5"/>"#,
            r#"<circle cx="77" cy="30" r="4.5"/>"#,
            r#"<rect x="22" y="80" width="56" height="11" rx="3"/>"#,
        )
    };
}

macro_rules! rook {
    () => {
        concat!(
            r#"<path d="M35 40L37 73H63L65 40Z"/>"#,
            r#"<path d="M27 15H37V22H45V15H55V22H63V15H73V33L66 41H34L27 33Z"/>"#,
            r#"<path fill="none" d="M28 33H72"/>"#,
            r#"<rect x="30" y="72" width="40" height="8" rx="2"/>"#,
            r#"<rect x="22" y="80" width="56" height="11" rx="3"/>"#,
        )
    };
}

macro_rules! bishop {
    () => {
        concat!(
            r#"<path d="M40 52C40 63 34 70 31 75H69C66 70 60 63 60 52Z"/>"#,
            r#"<path d="M50 17C61 25 67 36 63 47Q50 51 37 47C33 36 39 25 50 17Z"/>"#,
            r#"<circle cx="50" cy="12" r="5"/>"#,
            r#"<path fill="none" d="M55 27L47 39"/>"#,
            r#"<rect x="36" y="46" width="28" height="7" rx="3"/>"#,
            r#"<rect x="29" y="73" width="42" height="7" rx="2"/>"#,
            r#"<rect x="22" y="80" width="56" height="11" rx="3"/>"#,
        )
    };
}

macro_rules! knight {
    () => {
        concat!(
            r#"<path d="M31 81C32 70 40 64 44 55C36 59 29 61 24 59C18 57 17 50 21 46"#,
            r#"L35 24L39 10L48 19C65 21 77 40 74 81Z"/>"#,
            r#"<path fill="none" d="M37 33L42 31M22 53L27 54M50 24C62 30 68 46 68 76"/>"#,
            r#"<rect x="22" y="80" width="56" height="11" rx="3"/>"#,
        )
    };
}

macro_rules! pawn {
    () => {
        concat!(
            r#"<path d="M41 50C41 62 34 71 30 80H70C66 71 59 62 59 50Z"/>"#,
            r#"<circle cx="50" cy="32" r="13"/>"#,
            r#"<rect x="36" y="45" width="28" height="7" rx="3"/>"#,
            r#"<rect x="25" y="80" width="50" height="11" rx="3"/>"#,
        )
    };
}

const W_KING: &str = white!(king);
const W_QUEEN: &str = white!(queen);
const W_ROOK: &str = white!(rook);
const W_BISHOP: &str = white!(bishop);
const W_KNIGHT: &str = white!(knight);
const W_PAWN: &str = white!(pawn);
const B_KING: &str = black!(king);
const B_QUEEN: &str = black!(queen);
const B_ROOK: &str = black!(rook);
const B_BISHOP: &str = black!(bishop);
const B_KNIGHT: &str = black!(knight);
const B_PAWN: &str = black!(pawn);

// The discs' drawings, after the chess silhouettes their symbol set is built on (a macro is
// seen by the modules declared after it).
mod discs;
pub use discs::RIVER_WORDS;
use discs::*;

/// Gomoku stones: a flat disc with a soft off-centre radial highlight.
const STONE_BLACK: &str = concat!(
    r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">"#,
    r#"<defs><radialGradient id="qi-stone-b" cx="36%" cy="32%" r="70%">"#,
    r##"<stop offset="0" stop-color="#6a6a6a"/><stop offset="0.45" stop-color="#262626"/>"##,
    r##"<stop offset="1" stop-color="#050505"/></radialGradient></defs>"##,
    r##"<circle cx="50" cy="50" r="46" fill="url(#qi-stone-b)" stroke="#000" "##,
    r#"stroke-width="1.5"/>"#,
    "</svg>"
);

const STONE_WHITE: &str = concat!(
    r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">"#,
    r#"<defs><radialGradient id="qi-stone-w" cx="36%" cy="32%" r="70%">"#,
    r##"<stop offset="0" stop-color="#fff"/><stop offset="0.55" stop-color="#f0f0ec"/>"##,
    r##"<stop offset="1" stop-color="#b8b8b2"/></radialGradient></defs>"##,
    r##"<circle cx="50" cy="50" r="46" fill="url(#qi-stone-w)" stroke="#8a8a84" "##,
    r#"stroke-width="1.5"/>"#,
    "</svg>"
);

/// The SVG markup for a piece code, or None for an unknown code.
///
/// Codes: chess `wK wQ wR wB wN wP bK bQ bR bB bN bP`; xiangqi/banqi red `rK rA rB rN rR rC rP`;
/// the face-down banqi disc `?`; gomoku stones `b` and `w`. The black xiangqi codes
/// `bK bB bN bR bP` are spelled like the black chess pieces, and here the chess piece wins; `bA`
/// and `bC` exist only in xiangqi and give the black discs. For xiangqi and banqi boards call
/// [`disc_svg`], which reads every code as a disc.
#[must_use]
pub fn piece_svg(code: &str) -> Option<&'static str> {
    Some(match code {
        "wK" => W_KING,
        "wQ" => W_QUEEN,
        "wR" => W_ROOK,
        "wB" => W_BISHOP,
        "wN" => W_KNIGHT,
        "wP" => W_PAWN,
        "bK" => B_KING,
        "bQ" => B_QUEEN,
        "bR" => B_ROOK,
        "bB" => B_BISHOP,
        "bN" => B_KNIGHT,
        "bP" => B_PAWN,
        "b" => STONE_BLACK,
        "w" => STONE_WHITE,
        _ => return disc_svg(code),
    })
}

/// The SVG markup for a xiangqi/banqi disc: red `rK rA rB rN rR rC rP`, black
/// `bK bA bB bN bR bC bP` (general, advisor, elephant, horse, chariot, cannon, soldier), or `?` for
/// a face-down banqi piece. None for any other code.
#[must_use]
pub fn disc_svg(code: &str) -> Option<&'static str> {
    Some(match code {
        "rK" => R_KING,
        "rA" => R_ADVISOR,
        "rB" => R_ELEPHANT,
        "rN" => R_HORSE,
        "rR" => R_CHARIOT,
        "rC" => R_CANNON,
        "rP" => R_SOLDIER,
        "bK" => X_KING,
        "bA" => X_ADVISOR,
        "bB" => X_ELEPHANT,
        "bN" => X_HORSE,
        "bR" => X_CHARIOT,
        "bC" => X_CANNON,
        "bP" => X_SOLDIER,
        "?" => FACE_DOWN,
        _ => return None,
    })
}

/// The symbol set's disc for a xiangqi/banqi code (see [`disc_svg`] for the codes): drawn with
/// shapes only, no text, so it looks the same on every machine. `?` is the face-down disc.
#[must_use]
pub fn symbol_disc_svg(code: &str) -> Option<&'static str> {
    Some(match code {
        "rK" => R_KING_SYMBOL,
        "rA" => R_ADVISOR_SYMBOL,
        "rB" => R_ELEPHANT_SYMBOL,
        "rN" => R_HORSE_SYMBOL,
        "rR" => R_CHARIOT_SYMBOL,
        "rC" => R_CANNON_SYMBOL,
        "rP" => R_SOLDIER_SYMBOL,
        "bK" => X_KING_SYMBOL,
        "bA" => X_ADVISOR_SYMBOL,
        "bB" => X_ELEPHANT_SYMBOL,
        "bN" => X_HORSE_SYMBOL,
        "bR" => X_CHARIOT_SYMBOL,
        "bC" => X_CANNON_SYMBOL,
        "bP" => X_SOLDIER_SYMBOL,
        "?" => FACE_DOWN,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::{RIVER_WORDS, disc_svg, piece_svg, symbol_disc_svg};

    /// The symbol set needs no font: no text at all, and fourteen different pictures.
    #[test]
    fn symbols_are_drawn_without_text() {
        let codes =
            ["rK", "rA", "rB", "rN", "rR", "rC", "rP", "bK", "bA", "bB", "bN", "bR", "bC", "bP"];
        let mut seen = std::collections::HashSet::new();
        for code in codes {
            let svg = symbol_disc_svg(code).unwrap_or_else(|| panic!("{code}"));
            assert!(!svg.contains("<text"), "{code}");
            assert!(seen.insert(svg), "{code} looks like another piece");
        }
        assert_eq!(symbol_disc_svg("?"), disc_svg("?"));
        assert_eq!(symbol_disc_svg("wK"), None);
    }

    const CHESS: [&str; 12] =
        ["wK", "wQ", "wR", "wB", "wN", "wP", "bK", "bQ", "bR", "bB", "bN", "bP"];
    const RED: [(&str, &str); 7] = [
        ("rK", "帥"),
        ("rA", "仕"),
        ("rB", "相"),
        ("rN", "傌"),
        ("rR", "俥"),
        ("rC", "炮"),
        ("rP", "兵"),
    ];
    const BLACK: [(&str, &str); 7] = [
        ("bK", "將"),
        ("bA", "士"),
        ("bB", "象"),
        ("bN", "馬"),
        ("bR", "車"),
        ("bC", "砲"),
        ("bP", "卒"),
    ];

    /// Every picture either function can return.
    fn all_svgs() -> Vec<(&'static str, &'static str)> {
        let mut out = Vec::new();
        for code in CHESS.iter().copied().chain(["b", "w", "?"]).chain(RED.iter().map(|(c, _)| *c))
        {
            out.push((
                code,
                piece_svg(code).unwrap_or_else(|| panic!("piece_svg({code:?}) is None")),
            ));
        }
        for code in RED.iter().chain(BLACK.iter()).map(|(c, _)| *c).chain(["?"]) {
            out.push((
                code,
                disc_svg(code).unwrap_or_else(|| panic!("disc_svg({code:?}) is None")),
            ));
        }
        out
    }

    #[test]
    fn pieces_every_listed_code_has_art() {
        assert_eq!(all_svgs().len(), 12 + 3 + 7 + 15);
        // The two black xiangqi codes that no chess piece shares also work through piece_svg.
        assert_eq!(piece_svg("bA"), disc_svg("bA"));
        assert_eq!(piece_svg("bC"), disc_svg("bC"));
    }

    #[test]
    fn pieces_unknown_codes_are_none() {
        for code in ["", "xK", "wk", "<script>", "K", "bb", "wK ", "rQ", "bQx", "??"] {
            assert_eq!(piece_svg(code), None, "piece_svg({code:?})");
            assert_eq!(disc_svg(code), None, "disc_svg({code:?})");
        }
        for code in CHESS.iter().filter(|c| c.starts_with('w')).chain(&["bQ", "b", "w"]) {
            assert_eq!(disc_svg(code), None, "disc_svg({code:?})");
        }
    }

    #[test]
    fn pieces_svgs_are_well_formed_and_inert() {
        for (code, svg) in all_svgs() {
            assert!(
                svg.starts_with(
                    "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 100 100\""
                ),
                "{code}"
            );
            assert!(svg.ends_with("</svg>"), "{code}");
            assert_eq!(
                svg.matches('<').count(),
                svg.matches('>').count(),
                "{code}: unbalanced < >"
            );
            assert_eq!(svg.matches('"').count() % 2, 0, "{code}: odd number of quotes");
            let lower = svg.to_ascii_lowercase();
            for banned in
                ["<script", "href", "<style", "javascript:", "<image", "<foreignobject", "@import"]
            {
                assert!(!lower.contains(banned), "{code}: contains {banned}");
            }
            for (i, _) in svg.match_indices(" id=\"") {
                assert!(svg[i + 5..].starts_with("qi-"), "{code}: id without the qi- prefix");
            }
        }
    }

    #[test]
    fn pieces_ids_are_unique_per_code() {
        let mut seen: Vec<(&str, &str)> = Vec::new();
        for (code, svg) in all_svgs() {
            for (i, _) in svg.match_indices(" id=\"") {
                let rest = &svg[i + 5..];
                let id = &rest[..rest.find('"').expect("closed id")];
                if let Some((other, _)) = seen.iter().find(|(o, s)| *s == id && *o != code) {
                    panic!("id {id} is used by both {other} and {code}");
                }
                seen.push((code, id));
            }
        }
    }

    /// The `d` of a traditional disc's one `<path>`: the character's strokes.
    fn strokes_of(svg: &str) -> &str {
        assert_eq!(svg.matches("<path").count(), 1, "one path for the character");
        let rest = &svg[svg.find(" d=\"").expect("the path has a d") + 4..];
        &rest[..rest.find('"').expect("closed d")]
    }

    /// Checks a stroke string: only `M L H V Q Z` with the right count of whole numbers, every
    /// number within `lo..=hi` and every point a stroke reaches within `reach` of the centre
    /// (50, 50), starting with a move. Returns how many subpaths it has.
    fn check_strokes(name: &str, d: &str, lo: u32, hi: u32, reach: u32) -> usize {
        assert!(d.starts_with('M'), "{name}: starts with a move");
        let (mut subpaths, mut at, mut start) = (0, (50, 50), (50, 50));
        let mut rest = d;
        while let Some(command) = rest.chars().next() {
            let end =
                rest[1..].find(|c: char| c.is_ascii_uppercase()).map_or(rest.len(), |i| i + 1);
            let n: Vec<u32> = rest[1..end]
                .split(' ')
                .filter(|n| !n.is_empty())
                .map(|n| n.parse().unwrap_or_else(|_| panic!("{name}: {n:?} in {d}")))
                .collect();
            assert!(n.iter().all(|n| (lo..=hi).contains(n)), "{name}: {n:?} leaves {lo}..={hi}");
            let arity = match command {
                'M' | 'L' => 2,
                'H' | 'V' => 1,
                'Q' => 4,
                'Z' => 0,
                _ => panic!("{name}: unexpected {command:?} in {d}"),
            };
            assert_eq!(n.len(), arity, "{name}: {command} takes {arity} numbers: {d}");
            at = match command {
                'M' | 'L' => (n[0], n[1]),
                'H' => (n[0], at.1),
                'V' => (at.0, n[0]),
                'Q' => (n[2], n[3]),
                _ => start,
            };
            if command == 'M' {
                subpaths += 1;
                start = at;
            }
            let (dx, dy) = (at.0.abs_diff(50), at.1.abs_diff(50));
            assert!(dx * dx + dy * dy <= reach * reach, "{name}: {at:?} is too far out");
            rest = &rest[end..];
        }
        subpaths
    }

    /// The traditional discs and the river's words need no font: no text, nothing but ASCII, and
    /// each character is one path of strokes. A disc's strokes (5.5 wide) keep inside its inner
    /// ring (radius 35, 2.5 wide): no end point is more than 31 from the centre.
    #[test]
    fn pieces_xiangqi_characters_are_drawn_without_text() {
        for (code, ch) in RED.iter().chain(&BLACK) {
            let svg = disc_svg(code).unwrap();
            assert!(!svg.contains("<text"), "{code} ({ch}) is drawn with paths, not a font");
            assert!(svg.is_ascii(), "{code} ({ch}) is all ASCII");
            let subpaths = check_strokes(ch, strokes_of(svg), 26, 74, 31);
            assert!(subpaths >= 3, "{code} ({ch}) has {subpaths} strokes");
            assert!(svg.len() < 1024, "{code} is {} bytes", svg.len());
        }
        for (word, ch) in RIVER_WORDS.iter().zip(["楚", "河", "漢", "界"]) {
            assert!(word.is_ascii(), "{ch}");
            assert!(!word.contains('<') && !word.contains('"'), "{ch}: only path data");
            assert!(check_strokes(ch, word, 20, 80, 43) >= 5, "{ch} has too few strokes");
        }
        let back = disc_svg("?").unwrap();
        assert!(!back.contains("<text"), "the face-down disc shows no character");
    }

    /// Fourteen different drawings on one disc: every piece's character differs from every other
    /// (車 from 俥 too), and apart from that a disc differs from the others only in its colour.
    #[test]
    fn pieces_xiangqi_characters_are_fourteen_drawings() {
        let mut drawings = std::collections::HashSet::new();
        let mut frame = None;
        for (code, ch) in RED.iter().chain(&BLACK) {
            let svg = disc_svg(code).unwrap();
            let d = strokes_of(svg);
            assert!(drawings.insert(d), "{code} ({ch}) is drawn like another piece");
            let (colour, other) =
                if code.starts_with('r') { ("#c0392b", "#222") } else { ("#222", "#c0392b") };
            assert!(!svg.contains(other), "{code} has no {other}");
            assert_eq!(
                svg.matches(&format!("stroke=\"{colour}\"")).count(),
                2,
                "{code}: ring, strokes"
            );
            let rest = svg.replace(d, "D").replace(colour, "C");
            assert_eq!(frame.get_or_insert_with(|| rest.clone()), &rest, "{code}: the same frame");
        }
        for (code, _) in RED {
            assert_eq!(piece_svg(code), disc_svg(code), "{code}");
        }
        let river: std::collections::HashSet<_> = RIVER_WORDS.iter().collect();
        assert_eq!(river.len(), 4, "four different words");
    }

    #[test]
    fn pieces_chess_art_is_drawn_and_small() {
        for code in CHESS {
            let svg = piece_svg(code).unwrap();
            assert!(!svg.contains("<text"), "{code} is drawn with paths, not a font");
            assert!(svg.len() < 1536, "{code} is {} bytes", svg.len());
            let (fill, stroke) =
                if code.starts_with('w') { ("#fff", "#222") } else { ("#222", "#e8e8e8") };
            assert!(
                svg.contains(&format!("fill=\"{fill}\" stroke=\"{stroke}\"")),
                "{code} colours"
            );
        }
    }
}
