//! Fitting an evaluation's weights to data: gradient descent on win probability, Texel's method
//! in the form the engine authors use today.
//!
//! An evaluation the tuner can fit is linear in its weights once a position is known: each
//! position is a [`Sample`] listing, for the weights it uses, how many times it counts them
//! (its *coefficients*: a tapered evaluation's middlegame and endgame weights count in
//! proportion to the game's phase), times a scale (an ending's drawishness), plus whatever the
//! evaluation adds that is not tuned. The predicted score of the first player is
//! `σ(k · eval)`, with `σ` the logistic function, and the tuner minimises the mean squared
//! difference from each sample's target (the game's result, blended with the search's own
//! score turned into a win probability the same way, as the usual recipe does: results alone
//! are noisy, scores alone inherit the search's blind spots). `k` is chosen first, so that the
//! evaluation as it stands fits best (Texel's step one); then Adam follows the gradient over
//! all samples at once.

/// One position as the tuner sees it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Sample {
    /// `(weight index, coefficient)` for every weight the evaluation of this position uses.
    pub features: Vec<(u32, f32)>,
    /// What multiplies the weighted sum (1, or less in drawish endings).
    pub scale: f32,
    /// The part of the evaluation not tuned, added after the scale.
    pub offset: f32,
    /// The game's result for the side the evaluation is from: 0, 0.5 or 1 (or a probability).
    pub result: f32,
    /// The search's score of the position, from the same side, in the evaluation's units.
    pub score: Option<f32>,
}

/// Many samples, kept in flat arrays (a million positions with sixty weights each fit in
/// under a gigabyte).
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    starts: Vec<usize>,
    indices: Vec<u32>,
    coefficients: Vec<f32>,
    scales: Vec<f32>,
    offsets: Vec<f32>,
    results: Vec<f32>,
    scores: Vec<Option<f32>>,
    targets: Vec<f32>,
}

impl Dataset {
    /// Adds a sample.
    pub fn push(&mut self, sample: &Sample) {
        if self.starts.is_empty() {
            self.starts.push(0);
        }
        for &(index, coefficient) in &sample.features {
            if coefficient != 0.0 {
                self.indices.push(index);
                self.coefficients.push(coefficient);
            }
        }
        self.starts.push(self.indices.len());
        self.scales.push(sample.scale);
        self.offsets.push(sample.offset);
        self.results.push(sample.result);
        self.scores.push(sample.score);
        self.targets.push(sample.result);
    }

    /// Sets what each sample's prediction aims at: `lambda` of the result and the rest of the
    /// search's score as a win probability on the scale `k` (a sample without a score aims at
    /// its result). Until this is called, the results alone.
    pub fn blend(&mut self, lambda: f64, k: f64) {
        for ((target, &result), score) in
            self.targets.iter_mut().zip(&self.results).zip(&self.scores)
        {
            *target = match score {
                Some(score) => {
                    (lambda * f64::from(result) + (1.0 - lambda) * sigmoid(k * f64::from(*score)))
                        as f32
                }
                None => result,
            };
        }
    }

    /// The number of samples.
    #[must_use]
    pub fn len(&self) -> usize {
        self.targets.len()
    }

    /// Whether there are none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.targets.is_empty()
    }

    fn features(&self, sample: usize) -> impl Iterator<Item = (usize, f32)> + '_ {
        let (from, to) = (self.starts[sample], self.starts[sample + 1]);
        self.indices[from..to]
            .iter()
            .map(|&i| i as usize)
            .zip(self.coefficients[from..to].iter().copied())
    }

    /// The evaluation of sample `i` under `weights`.
    #[must_use]
    pub fn evaluate(&self, i: usize, weights: &[f64]) -> f64 {
        let sum: f64 = self.features(i).map(|(w, c)| weights[w] * f64::from(c)).sum();
        sum * f64::from(self.scales[i]) + f64::from(self.offsets[i])
    }

    /// The sample ranges each of `parts` threads takes.
    fn chunks(&self, parts: usize) -> Vec<std::ops::Range<usize>> {
        let size = self.len().div_ceil(parts.max(1)).max(1);
        (0..self.len()).step_by(size).map(|from| from..(from + size).min(self.len())).collect()
    }

    /// The mean squared error of the predictions `σ(k · eval)` under `weights`.
    #[must_use]
    pub fn loss(&self, weights: &[f64], k: f64, threads: usize) -> f64 {
        if self.is_empty() {
            return 0.0;
        }
        let total: f64 = std::thread::scope(|scope| {
            let handles: Vec<_> = self
                .chunks(threads)
                .into_iter()
                .map(|range| {
                    scope.spawn(move || {
                        range
                            .map(|i| {
                                let error = sigmoid(k * self.evaluate(i, weights))
                                    - f64::from(self.targets[i]);
                                error * error
                            })
                            .sum::<f64>()
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().expect("a loss thread panicked")).sum::<f64>()
        });
        total / self.len() as f64
    }

    /// The loss's gradient with respect to each weight.
    fn gradient(&self, weights: &[f64], k: f64, threads: usize) -> Vec<f64> {
        let partials: Vec<Vec<f64>> = std::thread::scope(|scope| {
            let handles: Vec<_> = self
                .chunks(threads)
                .into_iter()
                .map(|range| {
                    scope.spawn(move || {
                        let mut gradient = vec![0.0; weights.len()];
                        for i in range {
                            let p = sigmoid(k * self.evaluate(i, weights));
                            let slope = 2.0
                                * (p - f64::from(self.targets[i]))
                                * p
                                * (1.0 - p)
                                * k
                                * f64::from(self.scales[i]);
                            for (w, c) in self.features(i) {
                                gradient[w] += slope * f64::from(c);
                            }
                        }
                        gradient
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().expect("a gradient thread panicked")).collect()
        });
        let mut gradient = vec![0.0; weights.len()];
        for partial in partials {
            for (total, part) in gradient.iter_mut().zip(partial) {
                *total += part;
            }
        }
        let n = self.len().max(1) as f64;
        gradient.iter_mut().for_each(|g| *g /= n);
        gradient
    }
}

/// The logistic function.
#[must_use]
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// A search score (first player's side, the game's units) as a win probability, on the scale
/// where 400 units are ten to one (Elo's), which the fitted `k` then refines.
#[must_use]
pub fn score_probability(score: f64, k: f64) -> f64 {
    sigmoid(k * score)
}

/// Elo's scale: `k` such that 400 units are ten to one.
pub const ELO_K: f64 = std::f64::consts::LN_10 / 400.0;

/// The `k` in `(lowest, highest)` that makes `weights` fit best (golden-section search; the
/// loss is unimodal in `k` in practice).
#[must_use]
pub fn best_k(data: &Dataset, weights: &[f64], threads: usize) -> f64 {
    let (mut low, mut high) = (ELO_K / 20.0, ELO_K * 10.0);
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let mut a = high - ratio * (high - low);
    let mut b = low + ratio * (high - low);
    let (mut fa, mut fb) = (data.loss(weights, a, threads), data.loss(weights, b, threads));
    for _ in 0..40 {
        if fa < fb {
            high = b;
            b = a;
            fb = fa;
            a = high - ratio * (high - low);
            fa = data.loss(weights, a, threads);
        } else {
            low = a;
            a = b;
            fa = fb;
            b = low + ratio * (high - low);
            fb = data.loss(weights, b, threads);
        }
    }
    (low + high) / 2.0
}

/// How the descent goes.
#[derive(Clone, Copy, Debug)]
pub struct Descent {
    /// Passes over the data.
    pub epochs: usize,
    /// Adam's step size, in the weights' units.
    pub rate: f64,
    /// Threads computing the gradient.
    pub threads: usize,
    /// How much each weight's squared distance from where it started adds to the loss (a
    /// prior: the hand-set values are kept unless the data says otherwise, which keeps rarely
    /// seen weights, a pawn on a far square, from chasing a few games' results).
    pub l2: f64,
}

impl Default for Descent {
    fn default() -> Descent {
        Descent { epochs: 500, rate: 1.0, threads: 2, l2: 0.0 }
    }
}

/// Fits `weights` (starting from the values given) to `data` with `k` fixed; weights whose
/// `frozen` entry is true keep their values. `report` hears each epoch and its loss (every
/// tenth and the last, to keep it cheap). Returns the final loss (the data's, without the
/// prior's term).
pub fn fit(
    data: &Dataset,
    weights: &mut [f64],
    frozen: &[bool],
    k: f64,
    descent: Descent,
    report: &mut dyn FnMut(usize, f64),
) -> f64 {
    let (beta1, beta2, epsilon) = (0.9, 0.999, 1e-8);
    let mut first = vec![0.0; weights.len()];
    let mut second = vec![0.0; weights.len()];
    let origin = weights.to_vec();
    for epoch in 1..=descent.epochs {
        let mut gradient = data.gradient(weights, k, descent.threads);
        for ((g, w), o) in gradient.iter_mut().zip(weights.iter()).zip(&origin) {
            *g += 2.0 * descent.l2 * (w - o);
        }
        let t = epoch as i32;
        for w in 0..weights.len() {
            if frozen.get(w).copied().unwrap_or(false) {
                continue;
            }
            first[w] = beta1 * first[w] + (1.0 - beta1) * gradient[w];
            second[w] = beta2 * second[w] + (1.0 - beta2) * gradient[w] * gradient[w];
            let m = first[w] / (1.0 - beta1.powi(t));
            let v = second[w] / (1.0 - beta2.powi(t));
            weights[w] -= descent.rate * m / (v.sqrt() + epsilon);
        }
        if epoch % 10 == 0 || epoch == descent.epochs {
            report(epoch, data.loss(weights, k, descent.threads));
        }
    }
    data.loss(weights, k, descent.threads)
}

#[cfg(test)]
mod tests {
    use super::*;
    use qi_rules::zobrist::splitmix64;

    /// `n` samples of random sparse positions over `truth.len()` weights (as counts of -2..2,
    /// some weights tapered by a random phase), scaled now and then, with a fixed offset part,
    /// whose targets are the win probabilities `truth` gives (or, with `results`, a result drawn
    /// from that probability).
    fn synthetic(truth: &[f64], n: usize, k: f64, results: bool, seed: u64) -> Dataset {
        let mut data = Dataset::default();
        let mut state = seed;
        let mut next = || {
            state = splitmix64(state);
            state
        };
        for _ in 0..n {
            let mut features = Vec::new();
            let phase = (next() % 25) as f32 / 24.0;
            for pair in 0..truth.len() / 2 {
                let r = next();
                if r.is_multiple_of(3) {
                    let count = (r >> 8) as i64 % 5 - 2;
                    features.push(((2 * pair) as u32, count as f32 * phase));
                    features.push(((2 * pair + 1) as u32, count as f32 * (1.0 - phase)));
                }
            }
            let scale = if next().is_multiple_of(10) { 0.25 } else { 1.0 };
            let offset = ((next() % 200) as f32) - 100.0;
            let mut sample = Sample { features, scale, offset, result: 0.0, score: None };
            let mut one = Dataset::default();
            one.push(&sample);
            let p = sigmoid(k * one.evaluate(0, truth));
            sample.result = if results {
                let draw = (next() % 1_000_000) as f64 / 1_000_000.0;
                if draw < p { 1.0 } else { 0.0 }
            } else {
                p as f32
            };
            data.push(&sample);
        }
        data
    }

    fn truth(n: usize) -> Vec<f64> {
        let mut state = 99;
        (0..n)
            .map(|_| {
                state = splitmix64(state);
                (state % 400) as f64 - 200.0
            })
            .collect()
    }

    #[test]
    fn exact_targets_give_back_the_weights_that_made_them() {
        let truth = truth(20);
        let data = synthetic(&truth, 4000, ELO_K, false, 1);
        let mut weights = vec![0.0; truth.len()];
        let frozen = vec![false; truth.len()];
        let descent = Descent { epochs: 3000, rate: 2.0, threads: 2, l2: 0.0 };
        let loss = fit(&data, &mut weights, &frozen, ELO_K, descent, &mut |_, _| {});
        assert!(loss < 1e-6, "loss {loss}");
        for (got, want) in weights.iter().zip(&truth) {
            assert!((got - want).abs() < 2.0, "{got:.1} for {want}: {weights:?}");
        }
    }

    #[test]
    fn drawn_results_give_back_the_weights_roughly_and_k_is_found() {
        let truth = truth(8);
        let k = ELO_K * 1.5;
        let data = synthetic(&truth, 60_000, k, true, 2);
        // With the true weights, the best k is the one that made the results.
        let found = best_k(&data, &truth, 2);
        assert!((found / k - 1.0).abs() < 0.1, "k {found} for {k}");
        let mut weights = vec![0.0; truth.len()];
        let descent = Descent { epochs: 1500, rate: 2.0, threads: 2, l2: 0.0 };
        fit(&data, &mut weights, &[false; 8], k, descent, &mut |_, _| {});
        for (got, want) in weights.iter().zip(&truth) {
            assert!((got - want).abs() < 20.0, "{got:.1} for {want}: {weights:?}");
        }
    }

    #[test]
    fn targets_blend_results_and_scores() {
        let mut data = Dataset::default();
        data.push(&Sample {
            features: vec![(0, 1.0)],
            scale: 1.0,
            offset: 0.0,
            result: 1.0,
            score: Some(0.0),
        });
        data.push(&Sample {
            features: vec![(0, 1.0)],
            scale: 1.0,
            offset: 0.0,
            result: 0.5,
            score: None,
        });
        assert_eq!(data.targets, [1.0, 0.5]);
        data.blend(0.25, ELO_K);
        assert!((data.targets[0] - 0.625).abs() < 1e-6, "{:?}", data.targets);
        assert_eq!(data.targets[1], 0.5);
    }

    #[test]
    fn the_prior_holds_weights_near_where_they_started() {
        let truth = truth(6);
        let data = synthetic(&truth, 2000, ELO_K, false, 5);
        let run = |l2: f64| {
            let mut weights = vec![0.0; 6];
            let descent = Descent { epochs: 1500, rate: 2.0, threads: 1, l2 };
            fit(&data, &mut weights, &[false; 6], ELO_K, descent, &mut |_, _| {});
            weights.iter().map(|w| w.abs()).sum::<f64>()
        };
        let (free, held) = (run(0.0), run(1e-5));
        assert!(held < free * 0.8, "{held} vs {free}");
    }

    #[test]
    fn frozen_weights_keep_their_values() {
        let truth = truth(6);
        let data = synthetic(&truth, 2000, ELO_K, false, 3);
        let mut weights = vec![0.0; 6];
        weights[0] = 17.0;
        let frozen = [true, false, false, false, false, false];
        fit(
            &data,
            &mut weights,
            &frozen,
            ELO_K,
            Descent { epochs: 50, rate: 2.0, threads: 1, l2: 0.0 },
            &mut |_, _| {},
        );
        assert_eq!(weights[0], 17.0);
        assert_ne!(weights[1], 0.0);
    }

    #[test]
    fn the_gradient_is_the_losss_slope() {
        let truth = truth(6);
        let data = synthetic(&truth, 500, ELO_K, true, 4);
        let weights = vec![10.0, -20.0, 30.0, 0.0, 5.0, -5.0];
        let gradient = data.gradient(&weights, ELO_K, 2);
        for w in 0..weights.len() {
            let mut up = weights.clone();
            let mut down = weights.clone();
            up[w] += 0.01;
            down[w] -= 0.01;
            let slope = (data.loss(&up, ELO_K, 1) - data.loss(&down, ELO_K, 1)) / 0.02;
            assert!(
                (slope - gradient[w]).abs() < 1e-6 + 1e-3 * slope.abs(),
                "{w}: {slope} vs {}",
                gradient[w]
            );
        }
    }
}
