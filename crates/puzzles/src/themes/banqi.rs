//! Banqi themes: **captureChain** (the solver takes twice or more), **cannonJump** (a solver's
//! cannon takes over a screen), **soldierTakesGeneral** (a solver's soldier takes the general,
//! the one piece that may).

use qi_play::puzzle::Theme;

use super::Line;

/// The banqi themes of `line` (see the module documentation).
pub(super) fn themes(line: &Line) -> Vec<Theme> {
    let mut themes = Vec::new();
    let mut captures = 0;
    for i in line.solver_moves() {
        let (game, mv) = (&line.games[i], line.moves[i]);
        if !game.takes_piece(mv) {
            continue;
        }
        captures += 1;
        let Some(cells) = game.move_cells(mv) else { continue };
        let mover = cells.from.and_then(|from| game.piece_code(from));
        let taken = game.piece_code(cells.to);
        let letter = |code: &Option<String>| code.as_ref().and_then(|c| c.chars().nth(1));
        match (letter(&mover), letter(&taken)) {
            (Some('C'), _) => themes.push(Theme::CannonJump),
            (Some('P'), Some('K')) => themes.push(Theme::SoldierTakesGeneral),
            _ => {}
        }
    }
    if captures >= 2 {
        themes.push(Theme::CaptureChain);
    }
    themes
}
