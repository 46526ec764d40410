//! A puzzle's themes: what it trains, as lichess's puzzle database names them (camelCase tokens)
//! and, for the games lichess does not have, as Qi names them.

use std::fmt;

/// One theme of a puzzle. The known ones are values; any other token a database brings (lichess
/// has some 60) is kept as [`Theme::Other`], so an imported file is written back as it came.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Theme {
    /// A forced mate.
    Mate,
    /// Mate in this many of the solver's moves (1 to 5).
    MateIn(u8),
    /// One solver move.
    OneMove,
    /// Two solver moves.
    Short,
    /// Three solver moves.
    Long,
    /// Four or more solver moves.
    VeryLong,
    /// The solver ends clearly better (chess, xiangqi, banqi).
    Advantage,
    /// The solver ends winning.
    Crushing,
    /// The solver holds a position that looked lost: a draw is the best either side has
    /// (lichess's `equality`; xiangqi's composition tradition, 排局).
    Equality,
    /// The solver gives up material on the way.
    Sacrifice,
    /// The line wins material.
    WinMaterial,
    /// Chess: a piece attacks two.
    Fork,
    /// Chess: a piece may not move without exposing a more valuable one behind it.
    Pin,
    /// Chess: a valuable piece attacked through to one behind it.
    Skewer,
    /// Chess: a piece moves out of the way of another's attack.
    DiscoveredAttack,
    /// Chess: a pawn promotes.
    Promotion,
    /// Chess: mate on the back rank.
    BackRankMate,
    /// Chess: mate by a knight on a king its own pieces hem in.
    SmotheredMate,
    /// Chess: kings and pawns only.
    PawnEndgame,
    /// Chess: rooks (and pawns) only.
    RookEndgame,
    /// Chess: bishops (and pawns) only.
    BishopEndgame,
    /// Chess: knights (and pawns) only.
    KnightEndgame,
    /// Chess: queens (and pawns) only.
    QueenEndgame,
    /// Chess: queens and rooks (and pawns) only.
    QueenRookEndgame,
    /// Chess: some other ending.
    Endgame,
    /// Xiangqi: 马后炮, the cannon checks with the horse as its screen-side guard.
    HorseBehindCannon,
    /// Xiangqi: 铁门栓, a chariot mates a general off the centre file while a cannon on the
    /// centre file, over one screen, bars the general's way back to it.
    IronBolt,
    /// Xiangqi: 重炮, two cannons on one line, one the other's screen.
    DoubleCannon,
    /// Xiangqi: 闷宫, a cannon mates a general whose palace squares off the line of check are
    /// filled by its own pieces (its advisors, as a rule).
    SmotheredGeneral,
    /// Gomoku: a win by continuous fours (victory by continuous fours).
    Vcf,
    /// Gomoku: a win by continuous threats (fours and open threes).
    Vct,
    /// Gomoku: a four and an open three at once.
    FourThree,
    /// Renju: the defence runs into Black's forbidden point.
    ForbiddenTrap,
    /// Gomoku played under renju's rules (the rule, as a theme: the file names no rules).
    Renju,
    /// Gomoku played under the standard rule (exactly five wins).
    StandardRule,
    /// Gomoku played under caro's rule (five with an open end).
    Caro,
    /// Banqi: one capture after another.
    CaptureChain,
    /// Banqi: a cannon capturing over a screen.
    CannonJump,
    /// Banqi: the soldier that takes the general.
    SoldierTakesGeneral,
    /// A theme Qi does not tag (kept as its token).
    Other(Box<str>),
}

/// The themes with a fixed token, for the theme picker and for reading tokens back.
pub const KNOWN: [Theme; 38] = [
    Theme::Mate,
    Theme::OneMove,
    Theme::Short,
    Theme::Long,
    Theme::VeryLong,
    Theme::Advantage,
    Theme::Crushing,
    Theme::Equality,
    Theme::Sacrifice,
    Theme::WinMaterial,
    Theme::Fork,
    Theme::Pin,
    Theme::Skewer,
    Theme::DiscoveredAttack,
    Theme::Promotion,
    Theme::BackRankMate,
    Theme::SmotheredMate,
    Theme::PawnEndgame,
    Theme::RookEndgame,
    Theme::BishopEndgame,
    Theme::KnightEndgame,
    Theme::QueenEndgame,
    Theme::QueenRookEndgame,
    Theme::Endgame,
    Theme::HorseBehindCannon,
    Theme::IronBolt,
    Theme::DoubleCannon,
    Theme::SmotheredGeneral,
    Theme::Vcf,
    Theme::Vct,
    Theme::FourThree,
    Theme::ForbiddenTrap,
    Theme::Renju,
    Theme::StandardRule,
    Theme::Caro,
    Theme::CaptureChain,
    Theme::CannonJump,
    Theme::SoldierTakesGeneral,
];

/// Why a theme token was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadTheme(pub String);

impl fmt::Display for BadTheme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "“{}” is not a theme (letters and digits, at most 40)", self.0)
    }
}

/// The longest theme token read.
const MAX_TOKEN: usize = 40;

impl Theme {
    /// The theme's token in the database (`mateIn2`, `fork`, `horseBehindCannon`).
    #[must_use]
    pub fn token(&self) -> std::borrow::Cow<'static, str> {
        use std::borrow::Cow::Borrowed;
        Borrowed(match self {
            Theme::Mate => "mate",
            Theme::MateIn(n) => return format!("mateIn{n}").into(),
            Theme::OneMove => "oneMove",
            Theme::Short => "short",
            Theme::Long => "long",
            Theme::VeryLong => "veryLong",
            Theme::Advantage => "advantage",
            Theme::Crushing => "crushing",
            Theme::Equality => "equality",
            Theme::Sacrifice => "sacrifice",
            Theme::WinMaterial => "winMaterial",
            Theme::Fork => "fork",
            Theme::Pin => "pin",
            Theme::Skewer => "skewer",
            Theme::DiscoveredAttack => "discoveredAttack",
            Theme::Promotion => "promotion",
            Theme::BackRankMate => "backRankMate",
            Theme::SmotheredMate => "smotheredMate",
            Theme::PawnEndgame => "pawnEndgame",
            Theme::RookEndgame => "rookEndgame",
            Theme::BishopEndgame => "bishopEndgame",
            Theme::KnightEndgame => "knightEndgame",
            Theme::QueenEndgame => "queenEndgame",
            Theme::QueenRookEndgame => "queenRookEndgame",
            Theme::Endgame => "endgame",
            Theme::HorseBehindCannon => "horseBehindCannon",
            Theme::IronBolt => "ironBolt",
            Theme::DoubleCannon => "doubleCannon",
            Theme::SmotheredGeneral => "smotheredGeneral",
            Theme::Vcf => "vcf",
            Theme::Vct => "vct",
            Theme::FourThree => "fourThree",
            Theme::ForbiddenTrap => "forbiddenTrap",
            Theme::Renju => "renju",
            Theme::StandardRule => "standardRule",
            Theme::Caro => "caro",
            Theme::CaptureChain => "captureChain",
            Theme::CannonJump => "cannonJump",
            Theme::SoldierTakesGeneral => "soldierTakesGeneral",
            Theme::Other(token) => return token.to_string().into(),
        })
    }

    /// Reads a token: a known theme, `mateInN`, or any other token of letters and digits.
    ///
    /// # Errors
    /// [`BadTheme`] for an empty or over-long token or one with other characters.
    pub fn parse(token: &str) -> Result<Theme, BadTheme> {
        if token.is_empty()
            || token.len() > MAX_TOKEN
            || !token.bytes().all(|b| b.is_ascii_alphanumeric())
        {
            return Err(BadTheme(token.chars().take(MAX_TOKEN).collect()));
        }
        if let Some(n) = token.strip_prefix("mateIn").and_then(|n| n.parse::<u8>().ok())
            && (1..=5).contains(&n)
        {
            return Ok(Theme::MateIn(n));
        }
        Ok(KNOWN
            .iter()
            .find(|theme| theme.token() == token)
            .cloned()
            .unwrap_or_else(|| Theme::Other(token.into())))
    }

    /// The gomoku rule (`rule=` value) this theme names, for the rule themes.
    #[must_use]
    pub const fn gomoku_rule(&self) -> Option<&'static str> {
        match self {
            Theme::Renju => Some("renju"),
            Theme::StandardRule => Some("standard"),
            Theme::Caro => Some("caro"),
            _ => None,
        }
    }

    /// The theme naming a gomoku rule (`renju`, `standard`, `caro`); none for freestyle, the
    /// default.
    #[must_use]
    pub fn of_gomoku_rule(rule: &str) -> Option<Theme> {
        [Theme::Renju, Theme::StandardRule, Theme::Caro]
            .into_iter()
            .find(|theme| theme.gomoku_rule() == Some(rule))
    }
}

impl fmt::Display for Theme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.token())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_token_reads_back_as_its_theme() {
        for theme in KNOWN.iter().cloned().chain((1..=5).map(Theme::MateIn)) {
            assert_eq!(Theme::parse(&theme.token()), Ok(theme));
        }
        assert_eq!(Theme::parse("attraction"), Ok(Theme::Other("attraction".into())));
        assert_eq!(Theme::parse("mateIn9"), Ok(Theme::Other("mateIn9".into())));
        assert!(Theme::parse("").is_err());
        assert!(Theme::parse("two words").is_err());
        assert!(Theme::parse(&"x".repeat(41)).is_err());
    }
}
