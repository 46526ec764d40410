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

/// A face-up xiangqi/banqi disc: wooden rim, ivory face, inner ring and the character in the
/// side's colour.
macro_rules! disc {
    ($colour:literal, $ch:literal) => {
        concat!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">"#,
            r##"<circle cx="50" cy="50" r="46" fill="#d8b47c" stroke="#7a5428" "##,
            r#"stroke-width="3"/>"#,
            r##"<circle cx="50" cy="50" r="40" fill="#f3e2c0" stroke="#b08850" "##,
            r#"stroke-width="1.5"/>"#,
            r#"<circle cx="50" cy="50" r="35" fill="none" stroke=""#,
            $colour,
            r#"" stroke-width="2.5"/>"#,
            r#"<text x="50" y="50" text-anchor="middle" dominant-baseline="central" "#,
            r#"font-family="&quot;Noto Serif CJK SC&quot;,&quot;Noto Sans CJK SC&quot;,"#,
            r#"&quot;Source Han Serif SC&quot;,KaiTi,STKaiti,SimSun,serif" "#,
            r#"font-size="52" font-weight="bold" fill=""#,
            $colour,
            r#"">"#,
            $ch,
            "</text></svg>"
        )
    };
}

macro_rules! red {
    ($ch:literal) => {
        disc!("#c0392b", $ch)
    };
}

macro_rules! blk {
    ($ch:literal) => {
        disc!("#222", $ch)
    };
}

const R_KING: &str = red!("帥");
const R_ADVISOR: &str = red!("仕");
const R_ELEPHANT: &str = red!("相");
const R_HORSE: &str = red!("傌");
const R_CHARIOT: &str = red!("俥");
const R_CANNON: &str = red!("炮");
const R_SOLDIER: &str = red!("兵");
const X_KING: &str = blk!("將");
const X_ADVISOR: &str = blk!("士");
const X_ELEPHANT: &str = blk!("象");
const X_HORSE: &str = blk!("馬");
const X_CHARIOT: &str = blk!("車");
const X_CANNON: &str = blk!("砲");
const X_SOLDIER: &str = blk!("卒");

/// The advisor of the symbol set: a guard's shield with a cross.
macro_rules! shield {
    () => {
        concat!(
            r#"<path d="M50 12L82 23V48C82 69 68 82 50 91C32 82 18 69 18 48V23Z"/>"#,
            r#"<path fill="none" d="M50 28V76M34 46H66"/>"#,
        )
    };
}

/// The cannon of the symbol set: a barrel on a wheeled carriage.
macro_rules! cannon {
    () => {
        concat!(
            r#"<path d="M22 60L80 26L88 40L32 74Z"/>"#,
            r#"<circle cx="36" cy="72" r="14"/>"#,
            r#"<circle fill="none" cx="36" cy="72" r="5"/>"#,
            r#"<rect x="14" y="84" width="62" height="8" rx="3"/>"#,
        )
    };
}

/// A xiangqi/banqi disc with a symbol instead of a character (the symbol set, for players who
/// don't read the characters, and drawn without any font): the chess king for the general, the
/// rook for the chariot, the knight for the horse, the bishop for the elephant (both move
/// diagonally), the pawn for the soldier, a shield for the advisor and a cannon for the cannon.
macro_rules! symbol_disc {
    ($fill:literal, $stroke:literal, $rim:literal, $body:ident) => {
        concat!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">"#,
            r##"<circle cx="50" cy="50" r="46" fill="#d8b47c" stroke="#7a5428" "##,
            r#"stroke-width="3"/>"#,
            r##"<circle cx="50" cy="50" r="40" fill="#f3e2c0" stroke="#b08850" "##,
            r#"stroke-width="1.5"/>"#,
            r#"<circle cx="50" cy="50" r="35" fill="none" stroke=""#,
            $rim,
            r#"" stroke-width="2.5"/>"#,
            r#"<g transform="translate(22 21) scale(0.56)" fill=""#,
            $fill,
            r#"" stroke=""#,
            $stroke,
            r#"" stroke-width="4" stroke-linejoin="round" stroke-linecap="round">"#,
            $body!(),
            "</g></svg>"
        )
    };
}

macro_rules! red_symbol {
    ($body:ident) => {
        symbol_disc!("#c0392b", "#5c130b", "#c0392b", $body)
    };
}

macro_rules! black_symbol {
    ($body:ident) => {
        symbol_disc!("#222", "#f3e2c0", "#222", $body)
    };
}

const R_KING_SYMBOL: &str = red_symbol!(king);
const R_ADVISOR_SYMBOL: &str = red_symbol!(shield);
const R_ELEPHANT_SYMBOL: &str = red_symbol!(bishop);
const R_HORSE_SYMBOL: &str = red_symbol!(knight);
const R_CHARIOT_SYMBOL: &str = red_symbol!(rook);
const R_CANNON_SYMBOL: &str = red_symbol!(cannon);
const R_SOLDIER_SYMBOL: &str = red_symbol!(pawn);
const X_KING_SYMBOL: &str = black_symbol!(king);
const X_ADVISOR_SYMBOL: &str = black_symbol!(shield);
const X_ELEPHANT_SYMBOL: &str = black_symbol!(bishop);
const X_HORSE_SYMBOL: &str = black_symbol!(knight);
const X_CHARIOT_SYMBOL: &str = black_symbol!(rook);
const X_CANNON_SYMBOL: &str = black_symbol!(cannon);
const X_SOLDIER_SYMBOL: &str = black_symbol!(pawn);

/// A face-down banqi disc: dark wood with a plain ring pattern and no character.
const FACE_DOWN: &str = concat!(
    r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">"#,
    r#"<defs><radialGradient id="qi-back-wood" cx="40%" cy="35%" r="70%">"#,
    r##"<stop offset="0" stop-color="#a8703a"/><stop offset="1" stop-color="#6e4620"/>"##,
    "</radialGradient></defs>",
    r##"<circle cx="50" cy="50" r="46" fill="url(#qi-back-wood)" stroke="#4a2e12" "##,
    r#"stroke-width="3"/>"#,
    r##"<g fill="none" stroke="#c79358" stroke-opacity="0.55">"##,
    r#"<circle cx="50" cy="50" r="38" stroke-width="2.5"/>"#,
    r#"<circle cx="50" cy="50" r="29" stroke-width="1.5"/>"#,
    r#"<circle cx="50" cy="50" r="20" stroke-width="1.5"/>"#,
    r#"<circle cx="50" cy="50" r="11" stroke-width="1.5"/>"#,
    "</g>",
    r##"<circle cx="50" cy="50" r="4" fill="#c79358" fill-opacity="0.6"/>"##,
    "</svg>"
);

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
    use super::{disc_svg, piece_svg, symbol_disc_svg};

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

    #[test]
    fn pieces_xiangqi_characters_are_right() {
        for (code, ch) in RED {
            let svg = disc_svg(code).unwrap();
            assert_eq!(piece_svg(code), Some(svg), "{code}");
            assert!(svg.contains(&format!(">{ch}</text>")), "{code} should show {ch}");
            assert!(svg.contains("fill=\"#c0392b\">"), "{code} is drawn in red");
        }
        for (code, ch) in BLACK {
            let svg = disc_svg(code).unwrap();
            assert!(svg.contains(&format!(">{ch}</text>")), "{code} should show {ch}");
            assert!(svg.contains("fill=\"#222\">"), "{code} is drawn in black");
            assert!(!svg.contains("#c0392b"), "{code} has no red");
        }
        let back = disc_svg("?").unwrap();
        assert!(!back.contains("<text"), "the face-down disc shows no character");
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
