//! The sequential probability ratio test that decides whether a change gains, as fishtest and
//! OpenBench run it: games are played in pairs (one opening, each side once), each pair scores
//! 0, ½, 1, 1½ or 2 for the new side, and the five counts (the *pentanomial*) feed a generalised
//! SPRT between two hypotheses, "the change is worth `elo0`" and "it is worth `elo1`" (logistic
//! Elo). The test stops as soon as the log-likelihood ratio leaves the interval its error rates
//! give (Wald's bounds), so a clear gain or loss is decided in few games and a close one in many.
//!
//! The log-likelihood ratio is Michel Van den Bergh's normal approximation of the generalised
//! SPRT (the one fastchess's logistic model and fishtest's early versions use): with `n` pairs
//! whose normalised scores have mean `m` and variance `v`, and `s0`, `s1` the expected scores of
//! the two hypotheses, `LLR = n (s1 − s0) (2m − s0 − s1) / (2v)`. Pairs, not games, are the
//! samples: the two games of a pair share an opening, and counting them apart would understate
//! the variance and stop too early.

/// The five ways a pair of games can end for the side under test, in half-points out of two:
/// index 0 is two losses, 2 is two draws or a win and a loss, 4 is two wins.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u32; 5]);

impl Pentanomial {
    /// Counts a pair from its two games' scores for the side under test (each 0, ½ or 1).
    pub fn add_pair(&mut self, first: f64, second: f64) {
        let half_points = ((first + second) * 2.0).round().clamp(0.0, 4.0) as usize;
        self.0[half_points] += 1;
    }

    /// Pairs counted.
    #[must_use]
    pub fn pairs(&self) -> u32 {
        self.0.iter().sum()
    }

    /// The mean and variance of a pair's score, normalised to 0..1, or `None` before any pair.
    /// A bucket with no pair counts as a thousandth of one, so that a short run of identical
    /// pairs (no variance yet) still gives a finite ratio, as fastchess regularises it.
    #[must_use]
    fn mean_and_variance(&self) -> Option<(f64, f64)> {
        let n = f64::from(self.pairs());
        if n == 0.0 {
            return None;
        }
        let counts = self.0.map(|c| if c == 0 { 1e-3 } else { f64::from(c) });
        let total: f64 = counts.iter().sum();
        let score = |i: usize| i as f64 / 4.0;
        let mean = counts.iter().enumerate().map(|(i, c)| c * score(i)).sum::<f64>() / total;
        let variance =
            counts.iter().enumerate().map(|(i, c)| c * (score(i) - mean).powi(2)).sum::<f64>()
                / total;
        Some((mean, variance))
    }

    /// The Elo difference these pairs show for the side under test, with its 95% error bar
    /// from the pentanomial variance; `None` before any pair.
    #[must_use]
    pub fn elo(&self) -> Option<(f64, f64)> {
        let (mean, variance) = self.mean_and_variance()?;
        let n = f64::from(self.pairs());
        let margin = 1.959_964 * (variance / n).sqrt();
        let low = score_to_elo(mean - margin);
        let high = score_to_elo(mean + margin);
        Some((score_to_elo(mean), (high - low) / 2.0))
    }
}

/// The expected score of a side `elo` (logistic) points stronger.
#[must_use]
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The logistic Elo difference for an expected score (kept inside 0.1%..99.9%).
#[must_use]
pub fn score_to_elo(score: f64) -> f64 {
    let score = score.clamp(0.001, 0.999);
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The fewest pairs a test decides on (see [`Sprt::verdict`]).
pub const MIN_PAIRS: u32 = 20;

/// A test's hypotheses and error rates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// The gain under the null hypothesis (logistic Elo), usually 0.
    pub elo0: f64,
    /// The gain under the alternative, the smallest worth having (say 5).
    pub elo1: f64,
    /// The chance of accepting a change worth `elo0` (a false gain).
    pub alpha: f64,
    /// The chance of rejecting a change worth `elo1` (a missed gain).
    pub beta: f64,
}

/// Where a test stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The ratio crossed the upper bound: the change gains (H1).
    Accepted,
    /// The ratio crossed the lower bound: it does not (H0).
    Rejected,
    /// More pairs are needed.
    Continue,
}

impl Sprt {
    /// Reads `elo0,elo1` or `elo0,elo1,alpha,beta` (alpha and beta default to 0.05).
    ///
    /// # Errors
    /// A message saying what is wrong with the text.
    pub fn parse(text: &str) -> Result<Sprt, String> {
        let numbers: Vec<f64> = text
            .split(',')
            .map(|part| part.trim().parse::<f64>().map_err(|_| format!("{part:?} is not a number")))
            .collect::<Result<_, _>>()
            .map_err(|e| format!("--sprt takes elo0,elo1[,alpha,beta]: {e}"))?;
        let (elo0, elo1, alpha, beta) = match numbers[..] {
            [elo0, elo1] => (elo0, elo1, 0.05, 0.05),
            [elo0, elo1, alpha, beta] => (elo0, elo1, alpha, beta),
            _ => return Err("--sprt takes elo0,elo1[,alpha,beta]".to_owned()),
        };
        if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1 && elo1 - elo0 <= 400.0) {
            return Err("--sprt: elo0 must be below elo1 (and within 400 of it)".to_owned());
        }
        if !(alpha > 0.0 && alpha < 0.5 && beta > 0.0 && beta < 0.5) {
            return Err("--sprt: alpha and beta are error rates between 0 and 0.5".to_owned());
        }
        Ok(Sprt { elo0, elo1, alpha, beta })
    }

    /// Wald's bounds on the log-likelihood ratio: `ln(β/(1−α))` and `ln((1−β)/α)`.
    #[must_use]
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The log-likelihood ratio of H1 against H0 given the pairs so far (0 before any).
    #[must_use]
    pub fn llr(&self, pairs: &Pentanomial) -> f64 {
        let Some((mean, variance)) = pairs.mean_and_variance() else { return 0.0 };
        let s0 = elo_to_score(self.elo0);
        let s1 = elo_to_score(self.elo1);
        f64::from(pairs.pairs()) * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)
    }

    /// Whether the test is decided. Never before [`MIN_PAIRS`] pairs: the variance of a few
    /// pairs is mostly chance (two pairs alike make it nearly zero and the ratio huge), and a
    /// test decided on it errs far more often than its alpha and beta say.
    #[must_use]
    pub fn verdict(&self, pairs: &Pentanomial) -> Verdict {
        if pairs.pairs() < MIN_PAIRS {
            return Verdict::Continue;
        }
        let (lower, upper) = self.bounds();
        let llr = self.llr(pairs);
        if llr >= upper {
            Verdict::Accepted
        } else if llr <= lower {
            Verdict::Rejected
        } else {
            Verdict::Continue
        }
    }

    /// One line: `LLR 1.23 (-2.94, 2.94) [0, 5]  pairs 0/3/10/4/1  Elo +12.3 ± 20.1`.
    #[must_use]
    pub fn summary(&self, pairs: &Pentanomial) -> String {
        let (lower, upper) = self.bounds();
        let counts = pairs.0.map(|c| c.to_string()).join("/");
        let elo = pairs
            .elo()
            .map_or_else(String::new, |(elo, margin)| format!("  Elo {elo:+.1} ± {margin:.1}"));
        format!(
            "LLR {:.2} ({lower:.2}, {upper:.2}) [{}, {}]  pairs {counts}{elo}",
            self.llr(pairs),
            self.elo0,
            self.elo1
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use qi_rules::zobrist::splitmix64;

    #[test]
    fn wald_bounds_are_fishtests() {
        // Fishtest and OpenBench show (-2.94, 2.94) for alpha = beta = 0.05.
        let test = Sprt::parse("0,5").unwrap();
        let (lower, upper) = test.bounds();
        assert!((lower + 2.944_438_979).abs() < 1e-6, "{lower}");
        assert!((upper - 2.944_438_979).abs() < 1e-6, "{upper}");
        let strict = Sprt::parse("0,2,0.01,0.1").unwrap();
        let (lower, upper) = strict.bounds();
        assert!((lower - (0.1f64 / 0.99).ln()).abs() < 1e-12);
        assert!((upper - (0.9f64 / 0.01).ln()).abs() < 1e-12);
    }

    #[test]
    fn the_ratio_is_the_normal_approximation() {
        // 100 pairs: 5 / 20 / 50 / 20 / 5, mean 0.5, variance 2 * (0.05 * 0.25 + 0.2 * 0.0625)
        // = 0.05 (no empty bucket, so nothing from regularisation). Under [0, 5] the ratio is
        // n (s1 - s0)(2m - s0 - s1) / 2v with s0 = 0.5, s1 = elo_to_score(5).
        let pairs = Pentanomial([5, 20, 50, 20, 5]);
        let test = Sprt::parse("0,5").unwrap();
        let s1 = elo_to_score(5.0);
        let expected = 100.0 * (s1 - 0.5) * (1.0 - 0.5 - s1) / (2.0 * 0.05);
        assert!((test.llr(&pairs) - expected).abs() < 1e-9, "{}", test.llr(&pairs));
        assert!(test.llr(&pairs) < 0.0, "an even result leans to H0");
        assert_eq!(Pentanomial::default().elo(), None);
        assert_eq!(test.llr(&Pentanomial::default()), 0.0);
        let (elo, margin) = pairs.elo().unwrap();
        assert!(elo.abs() < 1e-9);
        // 1.96 * sqrt(0.05 / 100) = 0.0438 in score, about ±30.5 Elo.
        assert!((margin - 30.5).abs() < 0.5, "{margin}");
    }

    #[test]
    fn pairs_are_counted_by_their_half_points() {
        let mut pairs = Pentanomial::default();
        pairs.add_pair(1.0, 1.0);
        pairs.add_pair(1.0, 0.0);
        pairs.add_pair(0.5, 0.5);
        pairs.add_pair(0.5, 0.0);
        pairs.add_pair(1.0, 0.5);
        assert_eq!(pairs, Pentanomial([0, 1, 2, 1, 1]));
    }

    #[test]
    fn arguments_are_checked() {
        for bad in ["", "5", "5,0", "0,5,0.05", "0,5,0,0.05", "0,x", "0,1000", "0,5,0.6,0.05"] {
            assert!(Sprt::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(
            Sprt::parse(" -3 , 1 ").unwrap(),
            Sprt { elo0: -3.0, elo1: 1.0, alpha: 0.05, beta: 0.05 }
        );
    }

    /// Runs simulated tests where each game is won, drawn or lost with the chances a side
    /// `true_elo` stronger has at a 40% draw rate; returns how many of `runs` accepted H1.
    fn accepted(test: Sprt, true_elo: f64, runs: u32, seed: u64) -> u32 {
        let expected = elo_to_score(true_elo);
        let draw = 0.4;
        let win = expected - draw / 2.0;
        let mut state = seed;
        let mut random = || {
            state = splitmix64(state);
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        let mut game = || {
            let r = random();
            if r < win {
                1.0
            } else if r < win + draw {
                0.5
            } else {
                0.0
            }
        };
        let mut accepted = 0;
        for _ in 0..runs {
            let mut pairs = Pentanomial::default();
            let verdict = loop {
                pairs.add_pair(game(), game());
                match test.verdict(&pairs) {
                    Verdict::Continue if pairs.pairs() < 200_000 => {}
                    verdict => break verdict,
                }
            };
            accepted += u32::from(verdict == Verdict::Accepted);
        }
        accepted
    }

    #[test]
    fn the_error_rates_hold_in_simulated_matches() {
        // A wide test so that it runs quickly: [0, 40] at alpha = beta = 0.05.
        let test = Sprt::parse("0,40").unwrap();
        let runs = 400;
        let false_gains = accepted(test, 0.0, runs, 1);
        let found_gains = accepted(test, 40.0, runs, 2);
        // Near the nominal 5% each way. These seeds give 28 and 375 of 400 (7% false gains, 94%
        // found): a test this wide decides in a few dozen pairs, where the variance is still
        // an estimate; real tests ([0, 5]) run thousands of pairs.
        assert!(false_gains <= runs * 8 / 100, "{false_gains} of {runs} accepted a null change");
        assert!(found_gains >= runs * 92 / 100, "{found_gains} of {runs} found a 40 Elo gain");
        // A clear gain or loss is decided both ways, never the other.
        assert_eq!(accepted(test, 150.0, 50, 3), 50);
        assert_eq!(accepted(test, -150.0, 50, 4), 0);
    }
}
