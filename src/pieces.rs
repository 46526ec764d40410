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

/// Our own drawings of the characters on the traditional discs and in the river: centre-line
/// strokes for the `d` of one `<path>` that is stroked with round caps and joins and not filled,
/// using only `M L H V Q Z` with whole-number coordinates in a 100×100 box. No font is needed, so
/// every machine draws the same pixels. The disc characters keep within about 27..73, inside the
/// disc's inner ring (radius 35), for a stroke 5.5 wide; the river's words use about 22..78 for a
/// stroke 5 wide. A component that recurs in the same place (亻, 包, 氵) is written once.
macro_rules! strokes {
    // 亻, the person radical on the left of 仕, 傌 and 俥.
    ("亻") => {
        "M40 28Q36 41 28 51M35 42V73"
    };
    // 包, the right side of 炮 and 砲: 勹 around 巳.
    ("包") => {
        concat!(
            "M57 28Q55 37 49 43M55 36H72V59Q72 63 67 62M52 45H62V56H52",
            "M52 45V68Q52 73 58 73H68Q73 73 73 67",
        )
    };
    // 帥, the red general: 𠂤 (a short 丿 over two stacked boxes on one upright) and 巾.
    ("帥") => {
        "M39 28L35 36M31 73V36H44V48H31M31 55H45V68H31M50 65V40H71V62Q71 66 66 66M61 28V73"
    };
    // 仕, the red advisor: 亻 and 士.
    ("仕") => {
        concat!(strokes!("亻"), "M44 47H72M59 30V71M47 71H70")
    };
    // 相, the red elephant: 木 and 目.
    ("相") => {
        concat!(
            "M28 41H45M37 28V73M37 42Q34 55 28 62M39 47L45 55M51 72V31H71V72M51 44H71M51 57H71",
            "M51 70H71",
        )
    };
    // 傌, the red horse: 亻 and a narrow 馬.
    ("傌") => {
        concat!(
            strokes!("亻"),
            "M45 56V29H71M57 29V56M45 38H69M45 47H69M45 56H72V69Q72 73 67 73M47 61L44 68",
            "M52 62L53 68M58 62L60 67M63 61L66 65",
        )
    };
    // 俥, the red chariot: 亻 and a narrow 車.
    ("俥") => {
        concat!(strokes!("亻"), "M46 31H70M47 40H69V58H47ZM47 49H69M44 67H72M58 27V73")
    };
    // 炮, the red cannon: 火 and 包.
    ("炮") => {
        concat!(strokes!("包"), "M30 40L29 50M42 37L39 45M36 28V50Q36 63 29 71M37 58L43 66")
    };
    // 兵, the red soldier: 丘 over 八.
    ("兵") => {
        "M67 28Q55 32 37 33V58M37 44H69M58 44V58M28 58H72M43 65Q37 70 30 72M57 65Q64 68 70 72"
    };
    // 將, the black general: 爿, and 夕 over 寸.
    ("將") => {
        concat!(
            "M31 32V46H40M40 27V73M28 56H40M33 56Q33 67 29 72M55 28Q51 36 44 41",
            "M52 34H69Q62 47 45 52M50 41L57 47M45 60H72M65 50V69Q65 73 61 73H58M50 64L55 69",
        )
    };
    // 士, the black advisor (the upper stroke the longer).
    ("士") => {
        "M28 45H72M50 28V71M34 71H66"
    };
    // 象, the black elephant: ⺈ over a box over 豕 (whose 一 is the box's floor).
    ("象") => {
        concat!(
            "M42 27Q37 34 30 38M39 32H56Q51 40 50 49M33 40H67V49H33ZM45 51Q38 56 29 57",
            "M49 50Q59 56 59 65Q59 72 51 72M54 55Q43 62 29 64M58 61Q47 69 30 72M69 51L60 57",
            "M61 57Q65 66 72 71",
        )
    };
    // 馬, the black horse: the frame with its three bars, the hook and four dots.
    ("馬") => {
        concat!(
            "M33 56V29H70M51 29V56M33 38H68M33 47H68M33 56H71V69Q71 73 66 73H63M35 61Q34 67 30 70",
            "M42 62L43 69M50 62L52 68M57 61L61 66",
        )
    };
    // 車, the black chariot.
    ("車") => {
        "M30 31H70M34 40H66V58H34ZM34 49H66M28 67H72M50 27V73"
    };
    // 砲, the black cannon: 石 and 包.
    ("砲") => {
        concat!(strokes!("包"), "M28 33H45M37 33Q35 50 28 58M33 49H44V66H33Z")
    };
    // 卒, the black soldier: 亠 over two 人 over 十.
    ("卒") => {
        concat!(
            "M49 26L51 30M29 36H71M40 42Q37 50 30 55M40 47L46 52M60 42Q57 50 50 55M59 47L69 54",
            "M28 61H72M50 56V73",
        )
    };
    // 氵, the water radical on the left of 河 and 漢 (river size).
    ("氵") => {
        "M24 25L32 31M23 41L31 47M23 76L32 58"
    };
    // 楚 (river size): 林 over 疋.
    ("楚") => {
        concat!(
            "M23 32H46M35 22V51M35 33Q31 43 23 49M37 37L45 45M52 32H77M64 22V51M64 33Q60 43 52 50",
            "M65 35L77 47M25 57H74L70 64M50 57V77M50 67H68M37 63Q34 73 23 79M35 69Q43 78 56 78H78",
        )
    };
    // 河 (river size).
    ("河") => {
        concat!(strokes!("氵"), "M40 29H78M70 29V72Q70 78 64 78H60M46 66V42H61V61H46")
    };
    // 漢 (river size).
    ("漢") => {
        concat!(
            strokes!("氵"),
            "M39 28H78M49 22V36M68 22V36M49 36H68M44 43H73V52H44ZM58 36V66M42 59H75M39 66H78",
            "M58 66Q52 75 40 79M58 66Q64 75 78 79",
        )
    };
    // 界 (river size): 田 over 介.
    ("界") => {
        concat!(
            "M31 24H69V49H31ZM31 36H69M50 24V49M48 50Q40 59 24 63M52 50Q60 59 76 63",
            "M41 62Q41 73 29 79M60 62V79",
        )
    };
}

/// A face-up xiangqi/banqi disc: wooden rim, ivory face, inner ring and the character (see
/// `strokes!`) in the side's colour.
macro_rules! disc {
    ($colour:literal, $ch:tt) => {
        concat!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">"#,
            r##"<circle cx="50" cy="50" r="46" fill="#d8b47c" stroke="#7a5428" "##,
            r#"stroke-width="3"/>"#,
            r##"<circle cx="50" cy="50" r="40" fill="#f3e2c0" stroke="#b08850" "##,
            r#"stroke-width="1.5"/>"#,
            r#"<circle cx="50" cy="50" r="35" fill="none" stroke=""#,
            $colour,
            r#"" stroke-width="2.5"/>"#,
            r#"<path fill="none" stroke=""#,
            $colour,
            r#"" stroke-width="5.5" stroke-linecap="round" stroke-linejoin="round" d=""#,
            strokes!($ch),
            r#""/></svg>"#
        )
    };
}

macro_rules! red {
    ($ch:tt) => {
        disc!("#c0392b", $ch)
    };
}

macro_rules! blk {
    ($ch:tt) => {
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

/// The river's words, 楚 河 on one bank and 漢 界 on the other, in that order: our own strokes
/// (see `strokes!`) for the `d` of a `<path>` in a 100×100 box, drawn within about 22..78 with
/// a stroke about 5 wide, round caps and joins, and no fill.
pub const RIVER_WORDS: [&str; 4] = [strokes!("楚"), strokes!("河"), strokes!("漢"), strokes!("界")];

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
