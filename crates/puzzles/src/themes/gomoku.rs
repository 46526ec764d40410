//! Gomoku and renju themes, read stone by stone along the four lines through each solver move:
//!
//! - a move **makes a four** when one more stone on one of its lines would complete five (exactly
//!   five where the rule asks it: the standard rule, and Black in renju);
//! - it **makes an open three** when one more stone would make an open four (four in a row with
//!   both ends empty);
//! - **vcf**: every solver move before the last makes a four (victory by continuous fours);
//! - **vct**: every one makes a four or an open three, and some only a three (victory by
//!   continuous threats);
//! - **fourThree**: a move makes a four on one line and an open three on another;
//! - **forbiddenTrap** (renju): after a solver move, a point that would complete the solver's
//!   five is one Black may not play (a forbidden point), so Black cannot block there.

use qi_play::puzzle::Theme;
use qi_rules::any::{AnyGame, AnyRules};
use qi_rules::{Cell, Side};

use super::Line;

const DIRECTIONS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// The stones, as a grid read once.
struct Stones {
    size: i32,
    cells: Vec<Option<Side>>,
    /// Which side wins only with exactly five (the standard rule: both; renju: Black); six or
    /// more is no five for it.
    exact: [bool; 2],
}

impl Stones {
    fn of(game: &AnyGame, exact: [bool; 2]) -> Stones {
        let size = i32::from(game.board_size().0);
        let mut cells = Vec::with_capacity((size * size) as usize);
        for rank in 0..size {
            for file in 0..size {
                let code = game.piece_code(Cell::new(file as u8, rank as u8));
                cells.push(code.map(|c| if c == "b" { Side::First } else { Side::Second }));
            }
        }
        Stones { size, cells, exact }
    }

    fn at(&self, file: i32, rank: i32) -> Option<Option<Side>> {
        if file < 0 || rank < 0 || file >= self.size || rank >= self.size {
            return None;
        }
        Some(self.cells[(rank * self.size + file) as usize])
    }

    /// Stones of `side` in a row through (file, rank) along `d`, counting that point as one.
    fn run(&self, file: i32, rank: i32, d: (i32, i32), side: Side) -> (i32, bool, bool) {
        let mut count = 1;
        let mut ends = [false; 2];
        for (k, sign) in [1, -1].into_iter().enumerate() {
            let (mut f, mut r) = (file + sign * d.0, rank + sign * d.1);
            while self.at(f, r) == Some(Some(side)) {
                count += 1;
                f += sign * d.0;
                r += sign * d.1;
            }
            ends[k] = self.at(f, r) == Some(None);
        }
        (count, ends[0], ends[1])
    }

    /// The empty points within four of (file, rank) along `d`.
    fn near(&self, file: i32, rank: i32, d: (i32, i32)) -> impl Iterator<Item = (i32, i32)> + '_ {
        (-4..=4)
            .filter(|&k| k != 0)
            .map(move |k| (file + k * d.0, rank + k * d.1))
            .filter(|&(f, r)| self.at(f, r) == Some(None))
    }

    /// The points where one more stone of `side` completes five on the line through the stone
    /// at (file, rank) along `d`.
    fn five_points(&self, file: i32, rank: i32, d: (i32, i32), side: Side) -> Vec<(i32, i32)> {
        self.near(file, rank, d)
            .filter(|&(f, r)| self.completes_five(self.run(f, r, d, side).0, side))
            .filter(|&(f, r)| self.aligned(f, r, file, rank, d, side))
            .collect()
    }

    fn completes_five(&self, run: i32, side: Side) -> bool {
        let exact = self.exact[usize::from(side == Side::Second)];
        if exact { run == 5 } else { run >= 5 }
    }

    /// Whether the stone at (file, rank) is in the run through (f, r) along `d`.
    fn aligned(&self, f: i32, r: i32, file: i32, rank: i32, d: (i32, i32), side: Side) -> bool {
        let steps = if d.0 != 0 { (file - f) / d.0 } else { (rank - r) / d.1 };
        let sign = steps.signum();
        (1..steps.abs())
            .all(|k| self.at(f + sign * k * d.0, r + sign * k * d.1) == Some(Some(side)))
    }

    fn makes_four(&self, file: i32, rank: i32, d: (i32, i32), side: Side) -> bool {
        !self.five_points(file, rank, d, side).is_empty()
    }

    fn makes_open_three(&self, file: i32, rank: i32, d: (i32, i32), side: Side) -> bool {
        self.near(file, rank, d).any(|(f, r)| {
            let (count, open_a, open_b) = self.run(f, r, d, side);
            count == 4 && open_a && open_b && self.aligned(f, r, file, rank, d, side)
        })
    }
}

/// The gomoku themes of `line` (see the module documentation).
pub(super) fn themes(line: &Line) -> Vec<Theme> {
    let solver = line.games[1].side_to_move();
    let rules = line.games[0].rules().to_list();
    let renju =
        matches!(line.games[0].rules(), AnyRules::Gomoku(_)) && rules.contains("rule=renju");
    let exact = if rules.contains("rule=standard") { [true, true] } else { [renju, false] };
    let mut themes = Vec::new();
    let (mut all_fours, mut all_threats) = (true, true);
    let last = line.moves.len() - 1;
    for i in line.solver_moves() {
        let Some(cells) = line.games[i].move_cells(line.moves[i]) else { continue };
        let (file, rank) = (i32::from(cells.to.file), i32::from(cells.to.rank));
        let after = Stones::of(&line.games[i + 1], exact);
        let fours: Vec<usize> =
            (0..4).filter(|&k| after.makes_four(file, rank, DIRECTIONS[k], solver)).collect();
        let threes: Vec<usize> =
            (0..4).filter(|&k| after.makes_open_three(file, rank, DIRECTIONS[k], solver)).collect();
        if i < last {
            all_fours &= !fours.is_empty();
            all_threats &= !fours.is_empty() || !threes.is_empty();
            if fours.iter().any(|f| threes.iter().any(|t| t != f)) {
                themes.push(Theme::FourThree);
            }
            if renju && solver == Side::Second {
                let black = &line.games[i + 1];
                let legal = black.legal_move_values();
                let blocked = fours.iter().any(|&k| {
                    after.five_points(file, rank, DIRECTIONS[k], solver).iter().any(|&(f, r)| {
                        let cell = Cell::new(f as u8, r as u8);
                        !legal.iter().any(|&mv| black.move_cells(mv).is_some_and(|c| c.to == cell))
                    })
                });
                if blocked {
                    themes.push(Theme::ForbiddenTrap);
                }
            }
        }
    }
    if line.ends_in_mate() && line.moves.len() > 2 {
        if all_fours {
            themes.push(Theme::Vcf);
        } else if all_threats {
            themes.push(Theme::Vct);
        }
    }
    themes
}
