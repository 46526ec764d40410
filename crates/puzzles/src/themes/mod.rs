//! Themes read off a puzzle's line, for each game: what a player would name the idea.
//!
//! Each game's module looks at the positions of the line (the start, then after each move) and
//! names the patterns it recognises; [`tag`] adds them to the themes every puzzle has (mate and
//! its length or the advantage, the line's length: [`crate::Found::puzzle`]). The rules of
//! recognition are each module's documentation; they follow lichess's `cook.py` where lichess
//! has the theme, and the players' own definitions where it has not.

mod banqi;
mod chess;
mod gomoku;
mod xiangqi;

use qi_play::puzzle::Theme;
use qi_rules::GameKind;
use qi_rules::any::{AnyGame, AnyMove};

/// A puzzle's line, position by position.
pub(crate) struct Line {
    /// `games[i]` is the game before `moves[i]`; the last is after the last move.
    pub games: Vec<AnyGame>,
    /// The opponent's move, then the solution.
    pub moves: Vec<AnyMove>,
}

impl Line {
    fn new(before: &AnyGame, moves: &[AnyMove]) -> Line {
        let mut games = vec![before.clone()];
        let mut game = before.clone();
        for &mv in moves {
            let _ = game.apply(mv);
            games.push(game.clone());
        }
        Line { games, moves: moves.to_vec() }
    }

    /// The indices of the solver's moves (1, 3, ...).
    fn solver_moves(&self) -> impl Iterator<Item = usize> + '_ {
        (1..self.moves.len()).step_by(2)
    }

    /// The final position, and whether it is a win for the side that made the last move.
    fn ends_in_mate(&self) -> bool {
        let last = self.games.last().expect("a line has a start");
        last.outcome().is_some_and(|outcome| outcome.winner.is_some())
    }
}

/// The themes of the line `moves` from `before` that the game's own patterns show (see each
/// game's module), in a fixed order, without repeats.
#[must_use]
pub fn tag(before: &AnyGame, moves: &[AnyMove]) -> Vec<Theme> {
    if moves.len() < 2 {
        return Vec::new();
    }
    let line = Line::new(before, moves);
    let mut themes = match before.kind() {
        GameKind::Chess => chess::themes(&line),
        GameKind::Xiangqi => xiangqi::themes(&line),
        GameKind::Gomoku => gomoku::themes(&line),
        GameKind::Banqi => banqi::themes(&line),
    };
    themes.sort();
    themes.dedup();
    themes
}

/// Tags `puzzle` anew: its game's own themes are replaced by what [`tag`] reads off its line
/// now; the themes of every game (mate, its length, advantage, the line's length, a gomoku
/// rule) and tokens Qi does not know are kept.
pub fn retag(puzzle: &mut qi_play::puzzle::Puzzle) {
    let common = |theme: &Theme| {
        matches!(
            theme,
            Theme::Mate
                | Theme::MateIn(_)
                | Theme::OneMove
                | Theme::Short
                | Theme::Long
                | Theme::VeryLong
                | Theme::Advantage
                | Theme::Crushing
                | Theme::Equality
                | Theme::Renju
                | Theme::StandardRule
                | Theme::Caro
                | Theme::Other(_)
        )
    };
    puzzle.themes.retain(common);
    let found = tag(&puzzle.start(), &puzzle.moves);
    let at = puzzle
        .themes
        .iter()
        .position(|t| matches!(t, Theme::OneMove | Theme::Short | Theme::Long | Theme::VeryLong));
    let at = at.unwrap_or(puzzle.themes.len());
    puzzle.themes.splice(at..at, found);
}
