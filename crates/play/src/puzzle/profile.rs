//! A player's puzzle record in one browser: for each game the puzzle rating, the puzzles tried
//! (the latest [`MAX_TRIED`], for the dashboard and so a puzzle is not offered again soon), the
//! best Streak and Storm scores, and the rated results a signed-in player's server has not
//! confirmed yet (the latest [`MAX_UNSENT`]; sent again until it answers). Kept as text in the
//! browser's storage; the text is untrusted (another version, a hand edit), so a line that is
//! not understood is left out and the rest is read.
//!
//! ```text
//! qi-puzzles 1
//! chess rating 1523.41 110.20 0.060000
//! chess best 12 20
//! chess tried 00sHx + 1512 mate mateIn2
//! chess tried abcde - 1490 fork
//! chess unsent abcde -
//! ```

use std::fmt::Write as _;

use qi_rules::GameKind;

use super::rating::PuzzleRating;
use super::{Puzzle, PuzzleId, Theme};

/// How many tried puzzles are kept for each game (the oldest go first).
pub const MAX_TRIED: usize = 500;

/// How many unconfirmed results are kept for each game (the oldest go first).
pub const MAX_UNSENT: usize = 100;

/// The first line of the text.
const HEADER: &str = "qi-puzzles 1";

/// One puzzle tried.
#[derive(Clone, Debug, PartialEq)]
pub struct Tried {
    /// The puzzle.
    pub id: PuzzleId,
    /// Solved without help.
    pub solved: bool,
    /// Its themes.
    pub themes: Vec<Theme>,
    /// The player's rating after it, as shown.
    pub rating: i32,
}

/// One game's puzzle record.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameProgress {
    /// The puzzle rating.
    pub rating: PuzzleRating,
    /// The puzzles tried, oldest first.
    pub tried: Vec<Tried>,
    /// The longest Streak.
    pub best_streak: u32,
    /// The best Storm score (puzzles solved in one run).
    pub best_storm: u32,
    /// Rated results (the puzzle, solved or not) that the signed-in player's server has not
    /// confirmed, oldest first.
    pub unsent: Vec<(PuzzleId, bool)>,
}

/// How a theme went: puzzles of it solved and failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThemeCount {
    /// The theme.
    pub theme: Theme,
    /// Solved without help.
    pub solved: u32,
    /// Failed (or helped).
    pub failed: u32,
}

impl GameProgress {
    /// How many puzzles were solved and failed.
    #[must_use]
    pub fn totals(&self) -> (u32, u32) {
        let solved = self.tried.iter().filter(|t| t.solved).count() as u32;
        (solved, self.tried.len() as u32 - solved)
    }

    /// Each theme met, with its puzzles solved and failed; the most tried first, then by the
    /// share failed (the ones to work on), then by name.
    #[must_use]
    pub fn by_theme(&self) -> Vec<ThemeCount> {
        let mut counts: Vec<ThemeCount> = Vec::new();
        for tried in &self.tried {
            for theme in &tried.themes {
                let at = match counts.iter().position(|c| c.theme == *theme) {
                    Some(at) => at,
                    None => {
                        counts.push(ThemeCount { theme: theme.clone(), solved: 0, failed: 0 });
                        counts.len() - 1
                    }
                };
                if tried.solved {
                    counts[at].solved += 1;
                } else {
                    counts[at].failed += 1;
                }
            }
        }
        counts.sort_by(|a, b| {
            let total = |c: &ThemeCount| c.solved + c.failed;
            total(b)
                .cmp(&total(a))
                .then((b.failed * total(a)).cmp(&(a.failed * total(b))))
                .then(a.theme.token().cmp(&b.theme.token()))
        });
        counts
    }

    /// The ids of the puzzles tried, latest last.
    #[must_use]
    pub fn recent(&self) -> Vec<PuzzleId> {
        self.tried.iter().map(|t| t.id.clone()).collect()
    }
}

/// A player's puzzle record for the four games.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PuzzleProfile {
    games: [GameProgress; 4],
}

fn index(kind: GameKind) -> usize {
    GameKind::ALL.iter().position(|&k| k == kind).unwrap_or(0)
}

impl PuzzleProfile {
    /// One game's record.
    #[must_use]
    pub fn game(&self, kind: GameKind) -> &GameProgress {
        &self.games[index(kind)]
    }

    /// One game's record, to change.
    pub fn game_mut(&mut self, kind: GameKind) -> &mut GameProgress {
        &mut self.games[index(kind)]
    }

    /// Notes `puzzle` as solved or failed; when `rated`, the game's rating moves (a puzzle of
    /// the database does; one made from the player's own game, or seen already, does not).
    /// Returns the rating's change.
    pub fn note(&mut self, puzzle: &Puzzle, solved: bool, rated: bool) -> i32 {
        let progress = self.game_mut(puzzle.rules.kind());
        let change = if rated {
            let (next, change) = progress.rating.after(puzzle, solved);
            progress.rating = next;
            change
        } else {
            0
        };
        progress.tried.retain(|t| t.id != puzzle.id);
        progress.tried.push(Tried {
            id: puzzle.id.clone(),
            solved,
            themes: puzzle.themes.clone(),
            rating: progress.rating.shown(),
        });
        if progress.tried.len() > MAX_TRIED {
            let extra = progress.tried.len() - MAX_TRIED;
            progress.tried.drain(..extra);
        }
        change
    }

    /// Queues a rated result of `kind` for the signed-in player's server, until
    /// [`PuzzleProfile::sent`] says it was confirmed (a result already queued stays as it was:
    /// the server keeps the first).
    pub fn queue(&mut self, kind: GameKind, id: &PuzzleId, solved: bool) {
        let unsent = &mut self.game_mut(kind).unsent;
        if unsent.iter().any(|(queued, _)| queued == id) {
            return;
        }
        unsent.push((id.clone(), solved));
        if unsent.len() > MAX_UNSENT {
            let extra = unsent.len() - MAX_UNSENT;
            unsent.drain(..extra);
        }
    }

    /// The server confirmed (or refused for good) the result of `id`: it leaves the queue.
    pub fn sent(&mut self, kind: GameKind, id: &PuzzleId) {
        self.game_mut(kind).unsent.retain(|(queued, _)| queued != id);
    }

    /// The next result to send: the oldest of the first game (in [`GameKind::ALL`]'s order)
    /// that has one waiting.
    #[must_use]
    pub fn first_unsent(&self) -> Option<(GameKind, PuzzleId, bool)> {
        GameKind::ALL.into_iter().find_map(|kind| {
            let (id, solved) = self.game(kind).unsent.first()?;
            Some((kind, id.clone(), *solved))
        })
    }

    /// Forgets every unsent result (the player the results were for has signed out: they
    /// must not reach whoever signs in next in this browser).
    pub fn drop_unsent(&mut self) -> bool {
        let had = GameKind::ALL.into_iter().any(|kind| !self.game(kind).unsent.is_empty());
        for kind in GameKind::ALL {
            self.game_mut(kind).unsent.clear();
        }
        had
    }

    /// Whether `id` of `kind` was tried already.
    #[must_use]
    pub fn has_tried(&self, kind: GameKind, id: &PuzzleId) -> bool {
        self.game(kind).tried.iter().any(|t| t.id == *id)
    }

    /// The record as text (see the module documentation).
    #[must_use]
    pub fn to_text(&self) -> String {
        let mut out = format!("{HEADER}\n");
        for kind in GameKind::ALL {
            let game = self.game(kind);
            if *game == GameProgress::default() {
                continue;
            }
            let r = game.rating;
            let _ = writeln!(
                out,
                "{kind} rating {:.2} {:.2} {:.6}",
                r.rating, r.deviation, r.volatility
            );
            let _ = writeln!(out, "{kind} best {} {}", game.best_streak, game.best_storm);
            for tried in &game.tried {
                let _ = write!(
                    out,
                    "{kind} tried {} {} {}",
                    tried.id,
                    if tried.solved { '+' } else { '-' },
                    tried.rating
                );
                for theme in &tried.themes {
                    let _ = write!(out, " {}", theme.token());
                }
                out.push('\n');
            }
            for (id, solved) in &game.unsent {
                let _ = writeln!(out, "{kind} unsent {id} {}", if *solved { '+' } else { '-' });
            }
        }
        out
    }

    /// Reads [`PuzzleProfile::to_text`]'s text; lines not understood are left out, and a text
    /// of another kind gives an empty record.
    #[must_use]
    pub fn from_text(text: &str) -> PuzzleProfile {
        let mut profile = PuzzleProfile::default();
        let mut lines = text.lines();
        if lines.next().map(str::trim) != Some(HEADER) {
            return profile;
        }
        for line in lines {
            let _ = profile.read_line(line);
        }
        for kind in GameKind::ALL {
            let game = profile.game_mut(kind);
            if game.tried.len() > MAX_TRIED {
                let extra = game.tried.len() - MAX_TRIED;
                game.tried.drain(..extra);
            }
            if game.unsent.len() > MAX_UNSENT {
                let extra = game.unsent.len() - MAX_UNSENT;
                game.unsent.drain(..extra);
            }
        }
        profile
    }

    fn read_line(&mut self, line: &str) -> Option<()> {
        let mut words = line.split_ascii_whitespace();
        let name = words.next()?;
        let kind = GameKind::ALL.into_iter().find(|k| k.name() == name)?;
        let game = self.game_mut(kind);
        let what = words.next()?;
        let mut number = || words.next()?.parse::<f64>().ok().filter(|n| n.is_finite());
        match what {
            "rating" => {
                let (rating, deviation, volatility) = (number()?, number()?, number()?);
                game.rating = PuzzleRating {
                    rating: rating.clamp(0.0, 4000.0),
                    deviation: deviation.clamp(30.0, 500.0),
                    volatility: volatility.clamp(0.01, 0.2),
                };
            }
            "best" => {
                let mut words = line.split_ascii_whitespace().skip(2);
                game.best_streak = words.next()?.parse().ok()?;
                game.best_storm = words.next()?.parse().ok()?;
            }
            "tried" => {
                let mut words = line.split_ascii_whitespace().skip(2);
                let id = PuzzleId::parse(words.next()?).ok()?;
                let solved = read_solved(words.next()?)?;
                let rating = words.next()?.parse().ok()?;
                let themes = words.filter_map(|w| Theme::parse(w).ok()).collect();
                game.tried.retain(|t| t.id != id);
                game.tried.push(Tried { id, solved, themes, rating });
            }
            "unsent" => {
                let mut words = line.split_ascii_whitespace().skip(2);
                let id = PuzzleId::parse(words.next()?).ok()?;
                let solved = read_solved(words.next()?)?;
                if !game.unsent.iter().any(|(queued, _)| *queued == id) {
                    game.unsent.push((id, solved));
                }
            }
            _ => return None,
        }
        Some(())
    }
}

/// A result's mark in the text: `+` solved, `-` not.
fn read_solved(mark: &str) -> Option<bool> {
    match mark {
        "+" => Some(true),
        "-" => Some(false),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use qi_rules::any::{AnyRules, Variant};

    fn puzzle(id: &str, rating: u16, themes: &[Theme]) -> Puzzle {
        let mut puzzle = Puzzle::new(
            PuzzleId::parse(id).unwrap(),
            AnyRules::of(Variant::Chess),
            "6k1/5ppp/8/n7/8/8/5PPP/RR4K1 b - - 0 1",
            &["a5c4", "a1a8"],
        )
        .unwrap();
        puzzle.rating = rating;
        puzzle.deviation = 80;
        puzzle.themes = themes.to_vec();
        puzzle
    }

    #[test]
    fn solving_and_failing_move_the_rating_and_fill_the_dashboard() {
        let mut profile = PuzzleProfile::default();
        let up = profile.note(&puzzle("aaaaa", 1500, &[Theme::Mate, Theme::MateIn(1)]), true, true);
        assert!(up > 0, "a solved puzzle rated as the player raises the rating: {up}");
        let down = profile.note(&puzzle("bbbbb", 1500, &[Theme::Mate, Theme::Fork]), false, true);
        assert!(down < 0);
        assert_eq!(profile.note(&puzzle("ccccc", 1500, &[Theme::Fork]), true, false), 0);
        let chess = profile.game(GameKind::Chess);
        assert_eq!(chess.totals(), (2, 1));
        let themes = chess.by_theme();
        // Two each; the same share failed: by name.
        assert_eq!(themes[0], ThemeCount { theme: Theme::Fork, solved: 1, failed: 1 });
        assert_eq!(themes[1], ThemeCount { theme: Theme::Mate, solved: 1, failed: 1 });
        assert_eq!(themes[2], ThemeCount { theme: Theme::MateIn(1), solved: 1, failed: 0 });
        assert_eq!(themes.len(), 3);
        assert_eq!(profile.game(GameKind::Xiangqi), &GameProgress::default());
        assert!(profile.has_tried(GameKind::Chess, &PuzzleId::parse("bbbbb").unwrap()));
        assert_eq!(chess.recent().len(), 3);
    }

    #[test]
    fn the_record_reads_back_and_bad_lines_are_left_out() {
        let mut profile = PuzzleProfile::default();
        profile.note(
            &puzzle("aaaaa", 1700, &[Theme::Mate, Theme::Other("middlegame".into())]),
            true,
            true,
        );
        profile.note(&puzzle("bbbbb", 1300, &[]), false, true);
        profile.game_mut(GameKind::Gomoku).best_storm = 17;
        let text = profile.to_text();
        let read = PuzzleProfile::from_text(&text);
        assert_eq!(read.to_text(), text);
        assert_eq!(read.game(GameKind::Chess).tried, profile.game(GameKind::Chess).tried);
        assert!(
            (read.game(GameKind::Chess).rating.rating
                - profile.game(GameKind::Chess).rating.rating)
                .abs()
                < 0.01
        );
        assert_eq!(read.game(GameKind::Gomoku).best_storm, 17);

        let noisy = format!(
            "{text}chess tried !!! + 1\nchess rating NaN 1 1\nshogi tried zzzzz + 1500\nchess best x y\n\
             chess tried ddddd ? 1500\nchess rating 99999 1 9\n"
        );
        let read = PuzzleProfile::from_text(&noisy);
        assert_eq!(read.game(GameKind::Chess).tried.len(), 2);
        let rating = read.game(GameKind::Chess).rating;
        assert_eq!(
            (rating.rating, rating.deviation, rating.volatility),
            (4000.0, 30.0, 0.2),
            "clamped"
        );
        assert_eq!(
            PuzzleProfile::from_text("something else\nchess best 1 1\n"),
            PuzzleProfile::default()
        );
    }

    #[test]
    fn unsent_results_wait_in_order_read_back_and_go_when_confirmed() {
        let mut profile = PuzzleProfile::default();
        let id = |text: &str| PuzzleId::parse(text).unwrap();
        assert_eq!(profile.first_unsent(), None);
        profile.queue(GameKind::Xiangqi, &id("xxxxx"), false);
        profile.queue(GameKind::Chess, &id("aaaaa"), true);
        profile.queue(GameKind::Chess, &id("bbbbb"), false);
        // The first result of a puzzle is the one the server keeps.
        profile.queue(GameKind::Chess, &id("aaaaa"), false);
        assert_eq!(profile.first_unsent(), Some((GameKind::Chess, id("aaaaa"), true)));
        let text = profile.to_text();
        assert!(text.contains("chess unsent aaaaa +\nchess unsent bbbbb -\n"), "{text}");
        let noisy =
            format!("{text}chess unsent !!! +\nchess unsent ccccc ?\nchess unsent aaaaa -\n");
        let read = PuzzleProfile::from_text(&noisy);
        assert_eq!(read.to_text(), text);
        let mut read = read;
        read.sent(GameKind::Chess, &id("aaaaa"));
        read.sent(GameKind::Chess, &id("bbbbb"));
        assert_eq!(read.first_unsent(), Some((GameKind::Xiangqi, id("xxxxx"), false)));
        assert!(read.drop_unsent());
        assert_eq!(read.first_unsent(), None);
        assert!(!read.drop_unsent());
        for n in 0..MAX_UNSENT + 3 {
            profile.queue(GameKind::Gomoku, &id(&format!("g{n}")), true);
        }
        assert_eq!(profile.game(GameKind::Gomoku).unsent.len(), MAX_UNSENT);
        assert_eq!(profile.game(GameKind::Gomoku).unsent[0].0, id("g3"));
    }

    #[test]
    fn only_the_latest_tries_are_kept() {
        let mut profile = PuzzleProfile::default();
        for n in 0..MAX_TRIED + 5 {
            profile.note(&puzzle(&format!("p{n}"), 1500, &[]), n % 2 == 0, false);
        }
        let tried = &profile.game(GameKind::Chess).tried;
        assert_eq!(tried.len(), MAX_TRIED);
        assert_eq!(tried[0].id.as_str(), "p5");
        // Trying one again moves it to the end, once.
        profile.note(&puzzle("p10", 1500, &[]), true, false);
        let tried = &profile.game(GameKind::Chess).tried;
        assert_eq!(tried.len(), MAX_TRIED);
        assert_eq!(tried.last().unwrap().id.as_str(), "p10");
    }
}
