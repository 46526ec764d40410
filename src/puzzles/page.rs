//! The puzzle page's state and reducer, without the browser: which game and mode, the
//! databases as they load, the puzzle on the board, the player's record, Streak's and Storm's
//! runs, and the puzzles made from the player's own game. The component (`super`) fetches,
//! stores and times; everything it decides is here, and tested natively.

use std::rc::Rc;

use qi_play::puzzle::profile::PuzzleProfile;
use qi_play::puzzle::{Puzzle, PuzzleId, RunState, Theme, pick};
use qi_rules::GameKind;

use super::session::{Session, SessionAction};
use crate::state::Settings;

/// What the page offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Puzzles near the player's rating (of the theme picked), rated.
    Rated,
    /// Harder and harder; one mistake ends it.
    Streak,
    /// Three minutes, as many as can be solved.
    Storm,
    /// The day's puzzle.
    Daily,
    /// Themes solved and failed.
    Dashboard,
    /// The puzzle a link named or carried.
    Linked,
    /// Puzzles made from the player's own game.
    Own,
}

impl Mode {
    /// The modes the page's tabs offer.
    pub const TABS: [Mode; 5] =
        [Mode::Rated, Mode::Streak, Mode::Storm, Mode::Daily, Mode::Dashboard];

    /// Its name in the page's address and `data-mode`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Mode::Rated => "rated",
            Mode::Streak => "streak",
            Mode::Storm => "storm",
            Mode::Daily => "daily",
            Mode::Dashboard => "dashboard",
            Mode::Linked => "linked",
            Mode::Own => "own",
        }
    }

    /// The mode a name gives.
    #[must_use]
    pub fn parse(name: &str) -> Option<Mode> {
        [Mode::Rated, Mode::Streak, Mode::Storm, Mode::Daily, Mode::Dashboard]
            .into_iter()
            .find(|mode| mode.name() == name)
    }
}

/// A game's puzzles as they load.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Database {
    /// Not asked for yet.
    #[default]
    NotLoaded,
    /// On its way.
    Loading,
    /// Here (perhaps empty: banqi has none yet).
    Ready(Rc<Vec<Puzzle>>),
    /// It did not come: why.
    Failed(String),
}

/// A Storm under way (or just over).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StormRun {
    /// When it started (the page's clock, ms).
    pub started: f64,
    /// Puzzles solved.
    pub solved: u32,
    /// Mistakes made.
    pub mistakes: u32,
    /// Whether time ran out.
    pub over: bool,
    /// The time left at the last tick (ms).
    pub left_ms: f64,
}

/// Puzzles from the player's own game: asked for, found, or none.
#[derive(Clone, Debug, PartialEq)]
pub enum OwnPuzzles {
    /// Not asked for.
    None,
    /// The worker is looking.
    Mining,
    /// These were found (perhaps none).
    Found(Rc<Vec<Puzzle>>),
    /// The game could not be read, or the worker failed: why.
    Failed(String),
}

/// What the page shows besides the board: a problem to report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PageNotice {
    /// No puzzle of the picked theme is left.
    NoneLeft,
    /// The game has no puzzles.
    NoPuzzles,
    /// A named puzzle is not in the database.
    NotFound(String),
}

/// Everything that can happen to the page.
#[derive(Clone, Debug, PartialEq)]
pub enum PageAction {
    /// Show another game's puzzles.
    SetKind(GameKind),
    /// Change mode.
    SetMode(Mode),
    /// Pick a theme (`None`: any).
    SetTheme(Option<Theme>),
    /// A game's database arrived (or failed).
    Loaded {
        /// Which.
        kind: GameKind,
        /// The puzzles, or why not.
        puzzles: Result<Rc<Vec<Puzzle>>, String>,
    },
    /// A game's database was asked for.
    Loading(GameKind),
    /// The puzzle on the board.
    Session(SessionAction),
    /// The next puzzle of the mode.
    Next,
    /// Start (or restart) a Storm at this time.
    StartStorm {
        /// The page's clock (ms).
        now: f64,
    },
    /// Start Streak again.
    RestartStreak,
    /// Time passes (Storm's clock).
    Tick {
        /// The page's clock (ms).
        now: f64,
    },
    /// The server's puzzle ratings of the signed-in player (all games, or the one just
    /// rated): they replace the browser's.
    ServerRatings(Vec<qi_protocol::PuzzleRatingView>),
    /// The page is served by a Qi server, which may keep the player's puzzle ratings.
    OnQiServer,
    /// The server says no one is signed in: results waiting to be sent are dropped (they were
    /// another session's).
    SignedOut,
    /// The server kept (or refused for good) a result: it leaves the queue.
    Sent {
        /// The game.
        kind: GameKind,
        /// The puzzle.
        id: PuzzleId,
    },
    /// The worker began looking for puzzles in the player's game.
    Mining,
    /// The worker's puzzles from the player's game.
    Mined(Result<Vec<Puzzle>, String>),
}

/// The page.
#[derive(Clone, Debug)]
pub struct PuzzlePage {
    /// Language and looks, for the board.
    pub settings: Settings,
    /// The game whose puzzles are shown.
    pub kind: GameKind,
    /// The mode.
    pub mode: Mode,
    /// The theme picked (rated mode).
    pub theme: Option<Theme>,
    /// Each game's database, in [`GameKind::ALL`]'s order.
    pub databases: [Database; 4],
    /// The puzzle on the board.
    pub session: Option<Session>,
    /// The player's record (kept in the browser by the component).
    pub profile: PuzzleProfile,
    /// Whether the profile changed since the component last stored it.
    pub profile_changed: u32,
    /// The rating's change from the last rated puzzle.
    pub last_change: Option<i32>,
    /// Streak's count, and whether a mistake ended it.
    pub streak: (u32, bool),
    /// Storm, when one was started.
    pub storm: Option<StormRun>,
    /// The puzzles of this Streak or Storm run so far (not offered twice in a run).
    pub run_seen: Vec<PuzzleId>,
    /// Puzzles from the player's game.
    pub own: OwnPuzzles,
    /// Which of them is on the board.
    pub own_at: usize,
    /// The puzzle a link named (its id, until the database comes) or carried.
    pub linked: Option<Linked>,
    /// A problem to report.
    pub notice: Option<PageNotice>,
    /// A link that could not be read: why, worded. Kept while the page goes on with another
    /// puzzle, so the reader learns why it is not the one sent.
    pub link_error: Option<String>,
    /// Days since 1970 (the daily puzzle's).
    pub day: u64,
    /// Picks among puzzles; moved on after each pick.
    pub seed: u64,
    /// Whether a Qi server keeps this player's puzzle ratings (signed in there).
    pub on_server: bool,
    /// Whether the page is served by a Qi server that may keep them: rated results are
    /// queued for it until it says no one is signed in (a failed first answer does not lose
    /// them; they are sent once it answers).
    pub server_may_keep: bool,
}

/// The puzzle of a link.
#[derive(Clone, Debug, PartialEq)]
pub enum Linked {
    /// Named: to find in the database.
    Named(PuzzleId),
    /// Carried whole.
    Whole(Box<Puzzle>),
}

fn index(kind: GameKind) -> usize {
    GameKind::ALL.iter().position(|&k| k == kind).unwrap_or(0)
}

impl PuzzlePage {
    /// The oldest rated result the signed-in player's server has not confirmed, for the
    /// component to send (none when no server keeps this player's ratings).
    #[must_use]
    pub fn next_to_send(&self) -> Option<qi_protocol::PuzzleResult> {
        let (kind, id, solved) = self.profile.first_unsent().filter(|_| self.on_server)?;
        Some(qi_protocol::PuzzleResult {
            game: kind.name().to_owned(),
            puzzle: id.to_string(),
            solved,
        })
    }

    /// A page for `kind`'s puzzles in `mode`.
    #[must_use]
    pub fn new(
        settings: Settings,
        kind: GameKind,
        mode: Mode,
        profile: PuzzleProfile,
        day: u64,
        seed: u64,
    ) -> PuzzlePage {
        PuzzlePage {
            settings,
            kind,
            mode,
            theme: None,
            databases: Default::default(),
            session: None,
            profile,
            profile_changed: 0,
            last_change: None,
            streak: (0, false),
            storm: None,
            run_seen: Vec::new(),
            own: OwnPuzzles::None,
            own_at: 0,
            linked: None,
            notice: None,
            link_error: None,
            day,
            seed,
            on_server: false,
            server_may_keep: false,
        }
    }

    /// Puts the first puzzle on the board, when it needs no database (one a link carries);
    /// else the database's arrival does.
    pub fn begin(&mut self) {
        self.start();
    }

    /// Whether the puzzle on the board came whole, in no database: a link's that carried it, or
    /// one made from the player's game.
    #[must_use]
    pub fn carried(&self) -> bool {
        self.mode == Mode::Own
            || (self.mode == Mode::Linked && matches!(self.linked, Some(Linked::Whole(_))))
    }

    /// The shown game's database.
    #[must_use]
    pub fn database(&self) -> &Database {
        &self.databases[index(self.kind)]
    }

    /// Whether the shown mode needs the shown game's database.
    #[must_use]
    pub fn needs_database(&self) -> bool {
        match self.mode {
            Mode::Linked => matches!(self.linked, Some(Linked::Named(_))),
            Mode::Own | Mode::Dashboard => false,
            _ => true,
        }
    }

    /// The themes the shown game's puzzles have, known ones first in their order.
    #[must_use]
    pub fn themes(&self) -> Vec<Theme> {
        let Database::Ready(puzzles) = self.database() else { return Vec::new() };
        qi_play::puzzle::theme::KNOWN
            .iter()
            .filter(|theme| puzzles.iter().any(|p| p.themes.contains(theme)))
            .cloned()
            .collect()
    }

    /// Applies one action.
    pub fn apply(&mut self, action: PageAction) {
        match action {
            PageAction::SetKind(kind) => {
                if kind != self.kind || self.mode == Mode::Linked || self.mode == Mode::Own {
                    self.kind = kind;
                    if matches!(self.mode, Mode::Linked | Mode::Own) {
                        self.mode = Mode::Rated;
                    }
                    self.theme = None;
                    self.reset_runs();
                    self.start();
                }
            }
            PageAction::SetMode(mode) => {
                self.mode = mode;
                self.reset_runs();
                self.start();
            }
            PageAction::SetTheme(theme) => {
                self.theme = theme;
                self.start();
            }
            PageAction::Loading(kind) => self.databases[index(kind)] = Database::Loading,
            PageAction::Loaded { kind, puzzles } => {
                self.databases[index(kind)] = match puzzles {
                    Ok(puzzles) => Database::Ready(puzzles),
                    Err(why) => Database::Failed(why),
                };
                if kind == self.kind && self.session.is_none() {
                    self.start();
                }
            }
            PageAction::Session(action) => self.on_session(action),
            PageAction::Next => {
                if self.mode == Mode::Own {
                    self.own_at += 1;
                } else if self.mode == Mode::Linked {
                    self.mode = Mode::Rated;
                }
                self.start();
            }
            PageAction::StartStorm { now } => {
                self.mode = Mode::Storm;
                self.run_seen.clear();
                self.storm = Some(StormRun {
                    started: now,
                    solved: 0,
                    mistakes: 0,
                    over: false,
                    left_ms: pick::STORM_MS,
                });
                self.start();
            }
            PageAction::RestartStreak => {
                self.reset_runs();
                self.start();
            }
            PageAction::Tick { now } => {
                if let Some(storm) = &mut self.storm
                    && !storm.over
                {
                    storm.left_ms = pick::storm_left_ms(storm.started, now, storm.mistakes);
                    if storm.left_ms <= 0.0 {
                        self.end_storm();
                    }
                }
            }
            PageAction::ServerRatings(views) => {
                self.on_server = true;
                self.server_may_keep = true;
                for view in views {
                    let Some(kind) = GameKind::ALL.into_iter().find(|k| k.name() == view.game)
                    else {
                        continue;
                    };
                    if view.tried > 0
                        && view.rating.is_finite()
                        && view.deviation.is_finite()
                        && view.volatility.is_finite()
                    {
                        self.profile.game_mut(kind).rating =
                            qi_play::puzzle::rating::PuzzleRating {
                                rating: view.rating.clamp(400.0, 4000.0),
                                deviation: view.deviation.clamp(30.0, 500.0),
                                volatility: view.volatility.clamp(0.01, 0.2),
                            };
                        self.profile_changed += 1;
                    }
                }
            }
            PageAction::OnQiServer => self.server_may_keep = true,
            PageAction::SignedOut => {
                self.on_server = false;
                self.server_may_keep = false;
                if self.profile.drop_unsent() {
                    self.profile_changed += 1;
                }
            }
            PageAction::Sent { kind, id } => {
                self.profile.sent(kind, &id);
                self.profile_changed += 1;
            }
            PageAction::Mining => {
                self.mode = Mode::Own;
                self.own = OwnPuzzles::Mining;
                self.session = None;
            }
            PageAction::Mined(found) => {
                self.own = match found {
                    Ok(puzzles) => OwnPuzzles::Found(Rc::new(puzzles)),
                    Err(why) => OwnPuzzles::Failed(why),
                };
                self.own_at = 0;
                if self.mode == Mode::Own {
                    self.start();
                }
            }
        }
    }

    fn reset_runs(&mut self) {
        // A Storm left before its time is up still counts for the best.
        if self.storm.is_some_and(|storm| !storm.over) {
            self.end_storm();
        }
        self.streak = (0, false);
        self.storm = None;
        self.run_seen.clear();
        self.last_change = None;
        self.notice = None;
    }

    fn end_storm(&mut self) {
        if let Some(storm) = &mut self.storm {
            storm.over = true;
            storm.left_ms = 0.0;
            let best = &mut self.profile.game_mut(self.kind).best_storm;
            *best = (*best).max(storm.solved);
            self.profile_changed += 1;
        }
        self.session = None;
    }

    /// Puts the mode's next puzzle on the board (or says why there is none).
    fn start(&mut self) {
        self.notice = None;
        self.seed = qi_rules::zobrist::splitmix64(self.seed);
        let puzzle = self.next_puzzle();
        self.session = puzzle.map(|puzzle| Session::new(puzzle, self.settings.clone()));
    }

    fn next_puzzle(&mut self) -> Option<Puzzle> {
        match self.mode {
            Mode::Dashboard => return None,
            Mode::Own => {
                let OwnPuzzles::Found(puzzles) = &self.own else { return None };
                return puzzles.get(self.own_at).cloned();
            }
            Mode::Linked => {
                if let Some(Linked::Whole(puzzle)) = &self.linked {
                    return Some((**puzzle).clone());
                }
            }
            Mode::Storm if self.storm.is_none_or(|s| s.over) => return None,
            Mode::Streak if self.streak.1 => return None,
            _ => {}
        }
        let Database::Ready(puzzles) = self.database() else { return None };
        let puzzles = Rc::clone(puzzles);
        if puzzles.is_empty() {
            self.notice = Some(PageNotice::NoPuzzles);
            return None;
        }
        let progress = self.profile.game(self.kind);
        let found = match self.mode {
            Mode::Linked => {
                let Some(Linked::Named(id)) = &self.linked else { return None };
                let found = puzzles.iter().find(|p| p.id == *id);
                if found.is_none() {
                    self.notice = Some(PageNotice::NotFound(id.to_string()));
                }
                found
            }
            Mode::Daily => pick::daily(&puzzles, self.day),
            Mode::Streak | Mode::Storm => {
                let n = self.run_seen.len();
                pick::ladder(&puzzles, n, &self.run_seen, self.seed)
            }
            _ => {
                let recent = progress.recent();
                let found = pick::next(
                    &puzzles,
                    progress.rating.rating,
                    self.theme.as_ref(),
                    &recent,
                    self.seed,
                )
                // Every one tried: the least recent of the theme comes back.
                .or_else(|| {
                    pick::next(
                        &puzzles,
                        progress.rating.rating,
                        self.theme.as_ref(),
                        &[],
                        self.seed,
                    )
                });
                if found.is_none() {
                    self.notice = Some(PageNotice::NoneLeft);
                }
                found
            }
        };
        let puzzle = found.cloned();
        if let Some(puzzle) = &puzzle
            && matches!(self.mode, Mode::Streak | Mode::Storm)
        {
            self.run_seen.push(puzzle.id.clone());
        }
        puzzle
    }

    fn on_session(&mut self, action: SessionAction) {
        let Some(session) = &mut self.session else { return };
        let before = session.result;
        session.apply(action);
        let (Some(first), None) = (session.result, before) else {
            // No new result; a Streak puzzle solved after its replies goes on below.
            return;
        };
        let puzzle = session.puzzle().clone();
        let kind = puzzle.rules.kind();
        match self.mode {
            Mode::Rated | Mode::Daily | Mode::Linked => {
                // A puzzle seen before, or one from a link that is not in the database (its
                // rating is the link's word), moves no rating.
                let from_database =
                    !matches!(self.linked, Some(Linked::Whole(_))) || self.mode != Mode::Linked;
                let rated = from_database && !self.profile.has_tried(kind, &puzzle.id);
                let change = self.profile.note(&puzzle, first, rated);
                self.last_change = rated.then_some(change);
                if rated && self.server_may_keep {
                    // Kept with the browser's record until the server confirms it, so a result
                    // made while the server is out of reach is sent when it answers again.
                    self.profile.queue(kind, &puzzle.id, first);
                }
            }
            Mode::Own => {
                self.profile.note(&puzzle, first, false);
            }
            Mode::Streak => {
                self.profile.note(&puzzle, first, false);
                if first {
                    self.streak.0 += 1;
                } else {
                    self.streak.1 = true;
                }
                let best = &mut self.profile.game_mut(kind).best_streak;
                *best = (*best).max(self.streak.0);
            }
            Mode::Storm => {
                self.profile.note(&puzzle, first, false);
                if let Some(storm) = &mut self.storm {
                    if first {
                        storm.solved += 1;
                    } else {
                        storm.mistakes += 1;
                    }
                }
                // Storm moves straight on: a mistake costs time, not the run.
                self.start();
            }
            Mode::Dashboard => {}
        }
        self.profile_changed += 1;
    }

    /// Whether the component should move on to the next puzzle by itself after a moment:
    /// Streak, once a puzzle is solved.
    #[must_use]
    pub fn advances_by_itself(&self) -> bool {
        self.mode == Mode::Streak
            && !self.streak.1
            && self.session.as_ref().is_some_and(|s| s.state() == RunState::Solved)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use qi_i18n::text::Lang;
    use qi_play::puzzle::read_file;
    use qi_rules::any::Variant;

    fn chess_database() -> Rc<Vec<Puzzle>> {
        let text = include_str!("../../static/puzzles/chess.csv");
        Rc::new(read_file(Variant::Chess, text).puzzles)
    }

    fn page(mode: Mode) -> PuzzlePage {
        let mut page = PuzzlePage::new(
            Settings::new(Lang::En),
            GameKind::Chess,
            mode,
            PuzzleProfile::default(),
            20_000,
            7,
        );
        page.apply(PageAction::Loaded { kind: GameKind::Chess, puzzles: Ok(chess_database()) });
        page
    }

    /// Plays the solution's moves from the board as a player would, until the run ends.
    fn solve(page: &mut PuzzlePage) {
        let id = page.session.as_ref().map(|s| s.puzzle().id.clone());
        for _ in 0..20 {
            let Some(session) = &page.session else { return };
            if session.run.finished() || Some(&session.puzzle().id) != id.as_ref() {
                return;
            }
            if session.reply_pending {
                page.apply(PageAction::Session(SessionAction::ShowReply));
                continue;
            }
            let next = session.run.next_move().unwrap();
            let text = session.run.game().move_text(next);
            page.apply(PageAction::Session(SessionAction::Board(Box::new(
                crate::state::Action::TypeMove { text, now: 0.0 },
            ))));
        }
    }

    /// Plays a legal move that is not the solution's (and does not win at once).
    fn blunder(page: &mut PuzzlePage) {
        let session = page.session.as_ref().unwrap();
        let game = session.run.game();
        let next = session.run.next_move().unwrap();
        let wrong = game
            .legal_move_values()
            .into_iter()
            .find(|&mv| {
                let mut after = game.clone();
                mv != next && after.apply(mv).is_ok() && after.outcome().is_none()
            })
            .unwrap();
        let text = game.move_text(wrong);
        page.apply(PageAction::Session(SessionAction::Board(Box::new(
            crate::state::Action::TypeMove { text, now: 0.0 },
        ))));
    }

    #[test]
    fn a_rated_puzzle_solved_raises_the_rating_and_the_next_is_another() {
        let mut page = page(Mode::Rated);
        let first = page.session.as_ref().unwrap().puzzle().id.clone();
        solve(&mut page);
        assert_eq!(page.session.as_ref().unwrap().state(), RunState::Solved);
        assert!(page.last_change.unwrap() > 0);
        assert_eq!(page.profile.game(GameKind::Chess).totals(), (1, 0));
        page.apply(PageAction::Next);
        assert_ne!(page.session.as_ref().unwrap().puzzle().id, first);
        blunder(&mut page);
        assert!(page.last_change.unwrap() < 0);
        assert_eq!(page.profile.game(GameKind::Chess).totals(), (1, 1));
    }

    #[test]
    fn a_rated_result_is_queued_for_the_server_until_it_confirms_and_its_ratings_win() {
        let view = |game: &str, rating: f64, tried: u32| qi_protocol::PuzzleRatingView {
            game: game.into(),
            rating,
            deviation: 90.0,
            volatility: 0.06,
            tried,
            solved: tried,
        };
        // Not on a Qi server: nothing is queued.
        let mut alone = page(Mode::Rated);
        solve(&mut alone);
        assert_eq!(alone.next_to_send(), None);
        assert_eq!(alone.profile.first_unsent(), None);
        // On one whose first answer has not come (or failed): queued, not sent yet.
        let mut page = page(Mode::Rated);
        page.apply(PageAction::OnQiServer);
        let first = page.session.as_ref().unwrap().puzzle().id.clone();
        solve(&mut page);
        assert_eq!(page.next_to_send(), None);
        assert_eq!(page.profile.first_unsent().map(|(_, id, _)| id), Some(first.clone()));
        page.apply(PageAction::ServerRatings(vec![
            view("chess", 1812.5, 40),
            view("gomoku", 1900.0, 0),
            view("shogi", 1.0, 3),
        ]));
        assert!(page.on_server);
        assert_eq!(page.profile.game(GameKind::Chess).rating.shown(), 1813);
        assert_eq!(
            page.profile.game(GameKind::Gomoku).rating.shown(),
            1500,
            "never tried there: the browser's stays"
        );
        let result = page.next_to_send().unwrap();
        assert_eq!(
            (result.game.as_str(), result.puzzle.as_str(), result.solved),
            ("chess", first.as_str(), true)
        );
        assert_eq!(result.check(), Ok(()));
        // The server is out of reach: the next result waits behind it, and both are in the
        // text the browser keeps.
        page.apply(PageAction::Next);
        let second = page.session.as_ref().unwrap().puzzle().id.clone();
        blunder(&mut page);
        assert_eq!(page.next_to_send().unwrap().puzzle, first.as_str());
        let kept = PuzzleProfile::from_text(&page.profile.to_text());
        assert_eq!(
            kept.game(GameKind::Chess).unsent,
            [(first.clone(), true), (second.clone(), false)]
        );
        page.apply(PageAction::Sent { kind: GameKind::Chess, id: first });
        assert_eq!(page.next_to_send().unwrap().puzzle, second.as_str());
        // Signed out since: the rest is dropped, not sent to whoever signs in next.
        page.apply(PageAction::SignedOut);
        assert!(!page.on_server);
        assert_eq!(page.profile.first_unsent(), None);
        // Nor is anything queued after that.
        page.apply(PageAction::Next);
        solve(&mut page);
        assert_eq!(page.profile.first_unsent(), None);
        // Streak is not rated: nothing to send.
        let mut streak = self::page(Mode::Streak);
        streak.apply(PageAction::ServerRatings(Vec::new()));
        solve(&mut streak);
        assert_eq!(streak.next_to_send(), None);
    }

    #[test]
    fn the_theme_picker_gives_puzzles_of_that_theme() {
        let mut page = page(Mode::Rated);
        assert!(page.themes().contains(&Theme::Fork), "{:?}", page.themes());
        page.apply(PageAction::SetTheme(Some(Theme::Fork)));
        for _ in 0..5 {
            assert!(page.session.as_ref().unwrap().puzzle().themes.contains(&Theme::Fork));
            page.apply(PageAction::Next);
        }
    }

    #[test]
    fn a_mistake_ends_the_streak_and_the_best_is_kept() {
        let mut page = page(Mode::Streak);
        let mut ratings = Vec::new();
        for _ in 0..3 {
            ratings.push(page.session.as_ref().unwrap().puzzle().rating);
            solve(&mut page);
            assert!(page.advances_by_itself());
            page.apply(PageAction::Next);
        }
        assert_eq!(page.streak, (3, false));
        blunder(&mut page);
        assert_eq!(page.streak, (3, true));
        assert!(!page.advances_by_itself());
        assert_eq!(page.profile.game(GameKind::Chess).best_streak, 3);
        page.apply(PageAction::Next);
        assert!(page.session.is_none(), "an ended streak offers no puzzle until restarted");
        page.apply(PageAction::RestartStreak);
        assert_eq!(page.streak, (0, false));
        assert!(page.session.is_some());
    }

    #[test]
    fn storm_counts_solved_and_mistakes_and_ends_on_time() {
        let mut page = page(Mode::Storm);
        assert!(page.session.is_none(), "Storm waits for its start");
        page.apply(PageAction::StartStorm { now: 1000.0 });
        solve(&mut page);
        blunder(&mut page);
        let storm = page.storm.unwrap();
        assert_eq!((storm.solved, storm.mistakes), (1, 1));
        assert!(page.session.is_some(), "a mistake moves on to the next puzzle");
        page.apply(PageAction::Tick { now: 1000.0 + 100_000.0 });
        assert!(!page.storm.unwrap().over);
        assert!((page.storm.unwrap().left_ms - 70_000.0).abs() < 1.0, "a mistake took 10 s");
        page.apply(PageAction::Tick { now: 1000.0 + 170_000.0 });
        assert!(page.storm.unwrap().over);
        assert!(page.session.is_none());
        assert_eq!(page.profile.game(GameKind::Chess).best_storm, 1);

        // A Storm left before its time counts for the best too.
        let mut left = self::page(Mode::Storm);
        left.apply(PageAction::StartStorm { now: 0.0 });
        solve(&mut left);
        solve(&mut left);
        left.apply(PageAction::SetMode(Mode::Rated));
        assert_eq!(left.profile.game(GameKind::Chess).best_storm, 2);
        assert!(left.storm.is_none());
    }

    #[test]
    fn a_bad_links_reason_stays_when_the_database_comes() {
        let mut page = PuzzlePage::new(
            Settings::new(Lang::En),
            GameKind::Chess,
            Mode::Rated,
            PuzzleProfile::default(),
            1,
            1,
        );
        page.link_error = Some("the link is broken".into());
        page.begin();
        page.apply(PageAction::Loaded { kind: GameKind::Chess, puzzles: Ok(chess_database()) });
        assert!(page.session.is_some(), "another puzzle to solve meanwhile");
        assert_eq!(page.link_error.as_deref(), Some("the link is broken"));
        assert!(!page.carried());
    }

    #[test]
    fn the_daily_puzzle_is_the_days_and_a_named_link_finds_its_puzzle() {
        let daily = page(Mode::Daily);
        let again = page(Mode::Daily);
        let id = daily.session.as_ref().unwrap().puzzle().id.clone();
        assert_eq!(again.session.as_ref().unwrap().puzzle().id, id);

        let mut linked = PuzzlePage::new(
            Settings::new(Lang::En),
            GameKind::Chess,
            Mode::Linked,
            PuzzleProfile::default(),
            1,
            1,
        );
        linked.linked = Some(Linked::Named(id.clone()));
        assert!(linked.needs_database());
        linked.apply(PageAction::Loaded { kind: GameKind::Chess, puzzles: Ok(chess_database()) });
        assert_eq!(linked.session.as_ref().unwrap().puzzle().id, id);

        let mut whole = PuzzlePage::new(
            Settings::new(Lang::En),
            GameKind::Chess,
            Mode::Linked,
            PuzzleProfile::default(),
            1,
            1,
        );
        let carried = chess_database()[3].clone();
        whole.linked = Some(Linked::Whole(Box::new(carried.clone())));
        assert!(!whole.needs_database(), "a link that carries its puzzle needs no database");
        whole.begin();
        assert_eq!(whole.session.as_ref().unwrap().puzzle(), &carried);

        let mut missing = PuzzlePage::new(
            Settings::new(Lang::En),
            GameKind::Chess,
            Mode::Linked,
            PuzzleProfile::default(),
            1,
            1,
        );
        missing.linked = Some(Linked::Named(PuzzleId::parse("nosuch").unwrap()));
        missing.apply(PageAction::Loaded { kind: GameKind::Chess, puzzles: Ok(chess_database()) });
        assert_eq!(missing.notice, Some(PageNotice::NotFound("nosuch".into())));
        assert!(missing.session.is_none());
    }

    #[test]
    fn puzzles_from_the_players_game_go_one_after_another_unrated() {
        let mut page = page(Mode::Rated);
        let mine: Vec<Puzzle> = chess_database().iter().take(2).cloned().collect();
        page.apply(PageAction::Mining);
        assert!(page.session.is_none());
        page.apply(PageAction::Mined(Ok(mine.clone())));
        assert_eq!(page.session.as_ref().unwrap().puzzle().id, mine[0].id);
        let rating = page.profile.game(GameKind::Chess).rating;
        solve(&mut page);
        assert_eq!(page.profile.game(GameKind::Chess).rating, rating, "not rated");
        page.apply(PageAction::Next);
        assert_eq!(page.session.as_ref().unwrap().puzzle().id, mine[1].id);
        page.apply(PageAction::Next);
        assert!(page.session.is_none(), "the last one done");
    }
}
