//! The xiangqi and banqi discs: our own strokes for the characters (no font), the symbol set
//! (built on the chess silhouettes of the parent module), the river's words and the face-down
//! disc.

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

pub(super) const R_KING: &str = red!("帥");
pub(super) const R_ADVISOR: &str = red!("仕");
pub(super) const R_ELEPHANT: &str = red!("相");
pub(super) const R_HORSE: &str = red!("傌");
pub(super) const R_CHARIOT: &str = red!("俥");
pub(super) const R_CANNON: &str = red!("炮");
pub(super) const R_SOLDIER: &str = red!("兵");
pub(super) const X_KING: &str = blk!("將");
pub(super) const X_ADVISOR: &str = blk!("士");
pub(super) const X_ELEPHANT: &str = blk!("象");
pub(super) const X_HORSE: &str = blk!("馬");
pub(super) const X_CHARIOT: &str = blk!("車");
pub(super) const X_CANNON: &str = blk!("砲");
pub(super) const X_SOLDIER: &str = blk!("卒");

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

pub(super) const R_KING_SYMBOL: &str = red_symbol!(king);
pub(super) const R_ADVISOR_SYMBOL: &str = red_symbol!(shield);
pub(super) const R_ELEPHANT_SYMBOL: &str = red_symbol!(bishop);
pub(super) const R_HORSE_SYMBOL: &str = red_symbol!(knight);
pub(super) const R_CHARIOT_SYMBOL: &str = red_symbol!(rook);
pub(super) const R_CANNON_SYMBOL: &str = red_symbol!(cannon);
pub(super) const R_SOLDIER_SYMBOL: &str = red_symbol!(pawn);
pub(super) const X_KING_SYMBOL: &str = black_symbol!(king);
pub(super) const X_ADVISOR_SYMBOL: &str = black_symbol!(shield);
pub(super) const X_ELEPHANT_SYMBOL: &str = black_symbol!(bishop);
pub(super) const X_HORSE_SYMBOL: &str = black_symbol!(knight);
pub(super) const X_CHARIOT_SYMBOL: &str = black_symbol!(rook);
pub(super) const X_CANNON_SYMBOL: &str = black_symbol!(cannon);
pub(super) const X_SOLDIER_SYMBOL: &str = black_symbol!(pawn);

/// A face-down banqi disc: dark wood with a plain ring pattern and no character.
pub(super) const FACE_DOWN: &str = concat!(
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
