//! Xiangqi themes: the named mates players train (杀法) that can be read off the final position,
//! and winning material.
//!
//! At a mate, the checking pieces are found, and:
//! - **horseBehindCannon** (马后炮): a cannon checks over the solver's own horse;
//! - **doubleCannon** (重炮): a cannon checks over the solver's other cannon;
//! - **smotheredGeneral** (闷宫): a cannon checks, and each palace square the general could step
//!   to off the line of check is filled by its own pieces;
//! - **ironBolt** (铁门栓): a chariot checks a general off the centre file, while a solver cannon
//!   on the centre file bears on the general's rank there over one screen (the bolt).
//!
//! **winMaterial**: an advantage line that ends with the solver two points or more up on where
//! it started (chariot 9, cannon 4.5, horse 4, elephant and advisor 2, soldier 1).

use qi_play::puzzle::Theme;
use qi_rules::any::AnyGame;
use qi_rules::{Cell, Side};

use super::Line;

/// A piece's owner and letter (`K A B N R C P`).
fn piece(game: &AnyGame, file: i32, rank: i32) -> Option<(Side, char)> {
    if !(0..9).contains(&file) || !(0..10).contains(&rank) {
        return None;
    }
    let code = game.piece_code(Cell::new(file as u8, rank as u8))?;
    let mut chars = code.chars();
    let side = if chars.next()? == 'r' { Side::First } else { Side::Second };
    Some((side, chars.next()?))
}

/// Pieces strictly between two cells on one file or rank.
fn between(game: &AnyGame, a: (i32, i32), b: (i32, i32)) -> Vec<(i32, i32)> {
    let (df, dr) = ((b.0 - a.0).signum(), (b.1 - a.1).signum());
    let mut out = Vec::new();
    let (mut f, mut r) = (a.0 + df, a.1 + dr);
    while (f, r) != b {
        if piece(game, f, r).is_some() {
            out.push((f, r));
        }
        f += df;
        r += dr;
    }
    out
}

fn value(letter: char) -> f64 {
    match letter {
        'R' => 9.0,
        'C' => 4.5,
        'N' => 4.0,
        'B' | 'A' => 2.0,
        'P' => 1.0,
        _ => 0.0,
    }
}

fn material(game: &AnyGame, side: Side) -> f64 {
    (0..9)
        .flat_map(|f| (0..10).map(move |r| (f, r)))
        .filter_map(|(f, r)| piece(game, f, r))
        .filter(|(owner, _)| *owner == side)
        .map(|(_, letter)| value(letter))
        .sum()
}

/// The xiangqi themes of `line` (see the module documentation).
pub(super) fn themes(line: &Line) -> Vec<Theme> {
    let solver = line.games[1].side_to_move();
    let last = line.games.last().expect("a line has positions");
    let mut themes = Vec::new();
    if line.ends_in_mate() {
        themes.extend(mate_patterns(last, solver));
    } else {
        let start = material(&line.games[1], solver) - material(&line.games[1], solver.other());
        let end = material(last, solver) - material(last, solver.other());
        if end - start >= 2.0 {
            themes.push(Theme::WinMaterial);
        }
    }
    themes
}

fn mate_patterns(game: &AnyGame, solver: Side) -> Vec<Theme> {
    let cells = (0..9).flat_map(|f| (0..10).map(move |r| (f, r)));
    let Some(general) =
        cells.clone().find(|&(f, r)| piece(game, f, r) == Some((solver.other(), 'K')))
    else {
        return Vec::new();
    };
    let mut themes = Vec::new();
    for (f, r) in cells.filter(|&(f, r)| f == general.0 || r == general.1) {
        let Some((owner, letter)) = piece(game, f, r) else { continue };
        if owner != solver || (f, r) == general {
            continue;
        }
        let screens = between(game, (f, r), general);
        match (letter, screens.as_slice()) {
            ('C', [screen]) => {
                match piece(game, screen.0, screen.1) {
                    Some((o, 'N')) if o == solver => themes.push(Theme::HorseBehindCannon),
                    Some((o, 'C')) if o == solver => themes.push(Theme::DoubleCannon),
                    _ => {}
                }
                if smothered(game, general, (f, r), solver.other()) {
                    themes.push(Theme::SmotheredGeneral);
                }
            }
            ('R', []) if general.0 != 4 => {
                let bolt = (0..10).any(|rank| {
                    piece(game, 4, rank) == Some((solver, 'C'))
                        && between(game, (4, rank), (4, general.1)).len() == 1
                        && piece(game, 4, general.1).is_none_or(|(o, _)| o == solver.other())
                });
                if bolt {
                    themes.push(Theme::IronBolt);
                }
            }
            _ => {}
        }
    }
    themes
}

/// Whether every palace square the general could step to off the line of check is held by its
/// own pieces.
fn smothered(game: &AnyGame, general: (i32, i32), checker: (i32, i32), side: Side) -> bool {
    let palace_ranks = if side == Side::First { 0..3 } else { 7..10 };
    let along_file = checker.0 == general.0;
    [(1, 0), (-1, 0), (0, 1), (0, -1)]
        .into_iter()
        .filter(|&(df, _)| if along_file { df != 0 } else { df == 0 })
        .map(|(df, dr)| (general.0 + df, general.1 + dr))
        .filter(|&(f, r)| (3..6).contains(&f) && palace_ranks.contains(&r))
        .all(|(f, r)| piece(game, f, r).is_some_and(|(owner, _)| owner == side))
}
