//! Ratings: Glicko-2 (Glickman, "Example of the Glicko-2 system", 2022), one rating per kind of
//! game, updated after each rated game as a rating period of its own (as lichess does), the
//! deviation growing with each whole period a player stays away. The arithmetic is the
//! `skillratings` crate's; what is Qi's is here: the periods, the provisional mark, and the
//! rating window of quick pairing.

use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, decay_deviation, glicko2_rating_period};

/// A new player's rating.
pub const START_RATING: f64 = 1500.0;
/// A new player's deviation (the most it can be).
pub const START_DEVIATION: f64 = 350.0;
/// A new player's volatility.
pub const START_VOLATILITY: f64 = 0.06;
/// A rating whose deviation is above this is provisional, shown with a "?" (as lichess does).
pub const PROVISIONAL_DEVIATION: f64 = 110.0;
/// The length of the rating period by which an absent player's deviation grows.
pub const PERIOD_MS: u64 = 7 * 24 * 60 * 60 * 1000;
/// Glicko-2's τ, the limit on how fast volatility changes (Glickman suggests 0.3 to 1.2).
pub const TAU: f64 = 0.5;

/// The rating a quick-pairing seeker accepts at first, either side of its own.
pub const WINDOW_START: f64 = 100.0;
/// How much the window widens each [`WINDOW_STEP_MS`] a seeker waits.
pub const WINDOW_GROWTH: f64 = 50.0;
/// How often the window widens.
pub const WINDOW_STEP_MS: u64 = 5_000;
/// The window's widest: past it, anyone of the same game.
pub const WINDOW_MAX: f64 = 600.0;

/// The kinds of game rated apart (Chess960 apart from chess).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RatedGame {
    /// Chess from the usual start.
    Chess,
    /// Chess960.
    Chess960,
    /// Xiangqi.
    Xiangqi,
    /// Banqi.
    Banqi,
    /// Gomoku.
    Gomoku,
}

impl RatedGame {
    /// Every one, in the order profiles show them.
    pub const ALL: [RatedGame; 5] = [
        RatedGame::Chess,
        RatedGame::Chess960,
        RatedGame::Xiangqi,
        RatedGame::Banqi,
        RatedGame::Gomoku,
    ];

    /// The kind of a game spec's variant, if it is one.
    #[must_use]
    pub fn of_variant(variant: &str) -> Option<RatedGame> {
        RatedGame::ALL.into_iter().find(|kind| kind.name() == variant)
    }

    /// Its name (the variant's).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            RatedGame::Chess => "chess",
            RatedGame::Chess960 => "chess960",
            RatedGame::Xiangqi => "xiangqi",
            RatedGame::Banqi => "banqi",
            RatedGame::Gomoku => "gomoku",
        }
    }
}

/// How a rated game went for one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Won.
    Win,
    /// Drew.
    Draw,
    /// Lost.
    Loss,
}

/// A player's rating in one kind of game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// The rating.
    pub rating: f64,
    /// Its deviation (how sure the rating is; lower is surer).
    pub deviation: f64,
    /// Its volatility (how erratic the player's results are).
    pub volatility: f64,
    /// When it last changed (milliseconds since the Unix epoch; 0 for never).
    pub updated_unix_ms: u64,
}

impl Default for Rating {
    fn default() -> Self {
        Rating {
            rating: START_RATING,
            deviation: START_DEVIATION,
            volatility: START_VOLATILITY,
            updated_unix_ms: 0,
        }
    }
}

fn glicko(rating: &Rating) -> Glicko2Rating {
    Glicko2Rating {
        rating: rating.rating,
        deviation: rating.deviation,
        volatility: rating.volatility,
    }
}

impl Rating {
    /// Whether the rating is provisional (shown with a "?"): its deviation is still high.
    #[must_use]
    pub fn is_provisional(&self) -> bool {
        self.deviation > PROVISIONAL_DEVIATION
    }

    /// The rating as shown: rounded, with "?" while provisional.
    #[must_use]
    pub fn shown(&self) -> String {
        let mark = if self.is_provisional() { "?" } else { "" };
        format!("{:.0}{mark}", self.rating)
    }

    /// The rating as it stands at `now`: the deviation grown by every whole rating period
    /// since it last changed (a new rating stays as it is).
    #[must_use]
    pub fn at(&self, now_unix_ms: u64) -> Rating {
        if self.updated_unix_ms == 0 {
            return *self;
        }
        let periods = now_unix_ms.saturating_sub(self.updated_unix_ms) / PERIOD_MS;
        let mut rating = glicko(self);
        // 350 is reached within a few dozen periods at most; no need to count further.
        for _ in 0..periods.min(1_000) {
            rating = decay_deviation(&rating);
            if rating.deviation >= START_DEVIATION {
                break;
            }
        }
        Rating { deviation: rating.deviation, ..*self }
    }

    /// The rating after a rated game against `opponent` (each as it stands at `now`) that
    /// went `score` for this player.
    #[must_use]
    pub fn after(&self, opponent: &Rating, score: Score, now_unix_ms: u64) -> Rating {
        let me = glicko(&self.at(now_unix_ms));
        let them = glicko(&opponent.at(now_unix_ms));
        let outcome = match score {
            Score::Win => Outcomes::WIN,
            Score::Draw => Outcomes::DRAW,
            Score::Loss => Outcomes::LOSS,
        };
        let config = Glicko2Config { tau: TAU, ..Glicko2Config::new() };
        let next = glicko2_rating_period(&me, &[(them, outcome)], &config);
        Rating {
            rating: next.rating,
            deviation: next.deviation,
            volatility: next.volatility,
            updated_unix_ms: now_unix_ms,
        }
    }
}

/// How far from its own rating a seeker who has waited `waited_ms` accepts an opponent.
#[must_use]
pub fn window(waited_ms: u64) -> f64 {
    let steps = (waited_ms / WINDOW_STEP_MS) as f64;
    (WINDOW_START + steps * WINDOW_GROWTH).min(WINDOW_MAX)
}

/// A seeker of a rated game waiting in quick pairing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatedSeeker {
    /// Its rating in the game sought.
    pub rating: f64,
    /// How long it has waited (milliseconds).
    pub waited_ms: u64,
}

/// The partner among `waiting` for a new seeker `me`: the nearest rating that each side's
/// window accepts (the earliest of equals); `None` when no one fits yet.
#[must_use]
pub fn partner(me: RatedSeeker, waiting: &[RatedSeeker]) -> Option<usize> {
    waiting
        .iter()
        .enumerate()
        .filter(|(_, other)| {
            let gap = (other.rating - me.rating).abs();
            let reach = |seeker: &RatedSeeker| {
                let window = window(seeker.waited_ms);
                window >= WINDOW_MAX || gap <= window
            };
            reach(&me) && reach(other)
        })
        .min_by(|(_, a), (_, b)| {
            let (da, db) = ((a.rating - me.rating).abs(), (b.rating - me.rating).abs());
            da.total_cmp(&db).then(b.waited_ms.cmp(&a.waited_ms))
        })
        .map(|(index, _)| index)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rating(rating: f64, deviation: f64) -> Rating {
        Rating { rating, deviation, volatility: START_VOLATILITY, updated_unix_ms: 0 }
    }

    /// Glicko-2 computed step by step as Glickman's paper writes it (steps 2 to 8; the
    /// volatility by the Illinois algorithm of step 5), for a whole rating period: the oracle the
    /// crate is checked against.
    fn paper(player: (f64, f64, f64), games: &[(f64, f64, f64)], tau: f64) -> (f64, f64, f64) {
        const SCALE: f64 = 173.7178;
        let (mu, phi, sigma) = ((player.0 - 1500.0) / SCALE, player.1 / SCALE, player.2);
        let g = |phi: f64| 1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI.powi(2))).sqrt();
        let e = |mu: f64, mu_j: f64, phi_j: f64| 1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp());
        let opponents: Vec<(f64, f64, f64)> =
            games.iter().map(|&(r, rd, s)| ((r - 1500.0) / SCALE, rd / SCALE, s)).collect();
        let v = 1.0
            / opponents
                .iter()
                .map(|&(mu_j, phi_j, _)| {
                    let e = e(mu, mu_j, phi_j);
                    g(phi_j).powi(2) * e * (1.0 - e)
                })
                .sum::<f64>();
        let delta = v * opponents
            .iter()
            .map(|&(mu_j, phi_j, s)| g(phi_j) * (s - e(mu, mu_j, phi_j)))
            .sum::<f64>();
        let a = (sigma * sigma).ln();
        let f = |x: f64| {
            let ex = x.exp();
            ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex).powi(2))
                - (x - a) / (tau * tau)
        };
        let mut big_a = a;
        let mut big_b = if delta * delta > phi * phi + v {
            (delta * delta - phi * phi - v).ln()
        } else {
            let mut k = 1.0;
            while f(a - k * tau) < 0.0 {
                k += 1.0;
            }
            a - k * tau
        };
        let (mut fa, mut fb) = (f(big_a), f(big_b));
        while (big_b - big_a).abs() > 1e-9 {
            let c = big_a + (big_a - big_b) * fa / (fb - fa);
            let fc = f(c);
            if fc * fb <= 0.0 {
                big_a = big_b;
                fa = fb;
            } else {
                fa /= 2.0;
            }
            big_b = c;
            fb = fc;
        }
        let sigma_new = (big_a / 2.0).exp();
        let phi_star = (phi * phi + sigma_new * sigma_new).sqrt();
        let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let mu_new = mu
            + phi_new
                * phi_new
                * opponents
                    .iter()
                    .map(|&(mu_j, phi_j, s)| g(phi_j) * (s - e(mu, mu_j, phi_j)))
                    .sum::<f64>();
        (mu_new * SCALE + 1500.0, phi_new * SCALE, sigma_new)
    }

    #[test]
    fn glickmans_worked_example() {
        // 1500/200/0.06 beats 1400/30, loses to 1550/100 and to 1700/300 in one period, τ 0.5:
        // 1464.06 / 151.52 / 0.05999.
        let (r, rd, sigma) = paper(
            (1500.0, 200.0, 0.06),
            &[(1400.0, 30.0, 1.0), (1550.0, 100.0, 0.0), (1700.0, 300.0, 0.0)],
            0.5,
        );
        assert!((r - 1464.06).abs() < 0.01, "{r}");
        assert!((rd - 151.52).abs() < 0.01, "{rd}");
        assert!((sigma - 0.05999).abs() < 0.00001, "{sigma}");
        // The crate, over the same period.
        let player = Glicko2Rating { rating: 1500.0, deviation: 200.0, volatility: 0.06 };
        let games = [
            (1400.0, 30.0, Outcomes::WIN),
            (1550.0, 100.0, Outcomes::LOSS),
            (1700.0, 300.0, Outcomes::LOSS),
        ]
        .map(|(rating, deviation, outcome)| {
            (Glicko2Rating { rating, deviation, volatility: 0.06 }, outcome)
        });
        let config = Glicko2Config { tau: 0.5, ..Glicko2Config::new() };
        let crate_says = glicko2_rating_period(&player, &games, &config);
        assert!((crate_says.rating - 1464.06).abs() < 0.01, "{crate_says:?}");
        assert!((crate_says.deviation - 151.52).abs() < 0.01, "{crate_says:?}");
        assert!((crate_says.volatility - 0.05999).abs() < 0.00001, "{crate_says:?}");
    }

    #[test]
    fn one_game_updates_agree_with_the_paper_over_many_ratings() {
        // A small generator: the same numbers on every run.
        let mut seed = 0x9E37_79B9_7F4A_7C15_u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % 10_000) as f64 / 10_000.0
        };
        for _ in 0..500 {
            let me = Rating {
                rating: 800.0 + 1600.0 * next(),
                deviation: 40.0 + 310.0 * next(),
                volatility: 0.04 + 0.05 * next(),
                updated_unix_ms: 1,
            };
            let them = rating(800.0 + 1600.0 * next(), 40.0 + 310.0 * next());
            let (score, s) = match (next() * 3.0) as u32 {
                0 => (Score::Loss, 0.0),
                1 => (Score::Draw, 0.5),
                _ => (Score::Win, 1.0),
            };
            let ours = me.after(&them, score, 1);
            let oracle = paper(
                (me.rating, me.deviation, me.volatility),
                &[(them.rating, them.deviation, s)],
                TAU,
            );
            assert!(
                (ours.rating - oracle.0).abs() < 1e-6,
                "{me:?} {them:?} {score:?}: {ours:?} vs {oracle:?}"
            );
            assert!((ours.deviation - oracle.1).abs() < 1e-6);
            assert!((ours.volatility - oracle.2).abs() < 1e-6);
        }
    }

    #[test]
    fn winning_raises_losing_lowers_and_the_deviation_shrinks() {
        let (a, b) = (Rating::default(), Rating::default());
        let won = a.after(&b, Score::Win, 1_000);
        let lost = b.after(&a, Score::Loss, 1_000);
        assert!(won.rating > 1500.0 && lost.rating < 1500.0);
        assert!((won.rating - 1500.0 + (lost.rating - 1500.0)).abs() < 1e-9, "symmetric");
        assert!(won.deviation < START_DEVIATION);
        let drawn = a.after(&b, Score::Draw, 1_000);
        assert!((drawn.rating - 1500.0).abs() < 1e-9);
    }

    #[test]
    fn provisional_until_the_deviation_is_low_and_again_after_a_long_absence() {
        let mut me = Rating::default();
        assert!(me.is_provisional());
        assert_eq!(me.shown(), "1500?");
        let opponent = rating(1500.0, 60.0);
        let mut now = 1_000;
        let mut games = 0;
        while me.is_provisional() {
            me = me.after(&opponent, if games % 2 == 0 { Score::Win } else { Score::Loss }, now);
            now += 60_000;
            games += 1;
            assert!(games < 50, "never settles");
        }
        assert!(!me.shown().ends_with('?'), "{}", me.shown());
        // Away: the deviation grows with each whole period, up to the start's.
        let later = me.at(now + PERIOD_MS / 2);
        assert!((later.deviation - me.deviation).abs() < 1e-9, "less than a period: unchanged");
        let year = me.at(now + 52 * PERIOD_MS);
        assert!(year.deviation > me.deviation);
        assert!(year.is_provisional(), "a year away: provisional again ({})", year.deviation);
        assert!(me.at(now + 10_000 * PERIOD_MS).deviation <= START_DEVIATION);
    }

    #[test]
    fn the_pairing_window_widens_while_waiting_and_the_nearest_fits() {
        assert_eq!(window(0), WINDOW_START);
        assert_eq!(window(WINDOW_STEP_MS * 2), WINDOW_START + 2.0 * WINDOW_GROWTH);
        assert_eq!(window(u64::MAX), WINDOW_MAX);
        let me = RatedSeeker { rating: 1500.0, waited_ms: 0 };
        let far = RatedSeeker { rating: 1800.0, waited_ms: 0 };
        let near = RatedSeeker { rating: 1560.0, waited_ms: 0 };
        let nearer = RatedSeeker { rating: 1480.0, waited_ms: 0 };
        assert_eq!(partner(me, &[far]), None, "300 apart: not yet");
        assert_eq!(partner(me, &[far, near, nearer]), Some(2), "the nearest");
        // Both must accept: a far seeker who waited long enough reaches, but the newcomer's
        // window decides too.
        let patient = RatedSeeker { rating: 1800.0, waited_ms: 60_000 };
        assert_eq!(partner(me, &[patient]), None, "the newcomer's window is still 100");
        let me_later = RatedSeeker { rating: 1500.0, waited_ms: 25_000 };
        assert_eq!(partner(me_later, &[patient]), Some(0), "300 within both windows now");
        // Past the widest window anyone fits.
        let anyone = RatedSeeker { rating: 2500.0, waited_ms: u64::MAX };
        let long = RatedSeeker { rating: 1500.0, waited_ms: u64::MAX };
        assert_eq!(partner(long, &[anyone]), Some(0));
    }

    #[test]
    fn games_are_rated_apart() {
        assert_eq!(RatedGame::of_variant("chess960"), Some(RatedGame::Chess960));
        assert_eq!(RatedGame::of_variant("chess"), Some(RatedGame::Chess));
        assert_eq!(RatedGame::of_variant("go"), None);
        for kind in RatedGame::ALL {
            assert_eq!(RatedGame::of_variant(kind.name()), Some(kind));
        }
    }
}
