//! Training the engines' networks ([`qi_ai::net`]) on self-play data: our own small trainer,
//! floats on the CPU, as the Rust engines' authors train their first nets.
//!
//! Each position becomes the inputs that are on for the side to move and for the other side
//! (the game's own input function, the one the engine evaluates with), the game's result and
//! the search's score, both for the side to move. The network predicts `σ(k · eval)`, `eval` its
//! output in centipawns and `k` fitted first so that the search's own scores predict the
//! results best; the target is `lambda` of the result and the rest the score's probability,
//! and the loss the mean squared difference (the recipe of the tuner, [`crate::tune`]).
//! Mini-batches with Adam, the step size decaying along a cosine, the gradient of a batch
//! shared out among threads; after each step the weights are clipped to what the integer
//! network can hold ([`qi_ai::net::MOST_WEIGHT`]).

use qi_ai::net::{FloatNetwork, HIDDEN, MOST_WEIGHT, SCALE};
use qi_rules::any::AnyGame;
use qi_rules::chess::shakmaty::Position;
use qi_rules::{GameKind, Side};

use crate::data::Wdl;
use crate::tune::sigmoid;

/// Positions as the trainer reads them, in flat arrays (two million chess positions take
/// about 150 MB).
#[derive(Clone, Debug, Default)]
pub struct NetData {
    /// Each position's inputs: the side to move's, then the other side's.
    inputs: Vec<u16>,
    /// Where each position's inputs start in `inputs` (one more entry than positions).
    starts: Vec<u32>,
    /// How many of each position's inputs are the side to move's.
    ours: Vec<u8>,
    /// The result for the side to move: 0, 0.5 or 1.
    results: Vec<f32>,
    /// The search's score for the side to move, in centipawns.
    scores: Vec<f32>,
    /// What the network's output is added to: the hand-written evaluation for the side to
    /// move when training on top of it, else 0.
    bases: Vec<f32>,
    /// What the network is trained towards (set by [`NetData::blend`]).
    targets: Vec<f32>,
}

impl NetData {
    /// Adds a position: the inputs on for the side to move and for the other side, the result
    /// and the search's score for the side to move, and what the output is added to (0, or
    /// the hand-written evaluation for a network on top of it).
    pub fn push(&mut self, ours: &[usize], theirs: &[usize], result: f32, score: f32, base: f32) {
        if self.starts.is_empty() {
            self.starts.push(0);
        }
        self.inputs.extend(ours.iter().chain(theirs).map(|&i| i as u16));
        self.starts.push(self.inputs.len() as u32);
        self.ours.push(ours.len() as u8);
        self.results.push(result);
        self.scores.push(score);
        self.bases.push(base);
        self.targets.push(result);
    }

    /// Adds a position of a game's data, if the game has a network's inputs (chess); the score
    /// and result are the data's, from the first player's side. Returns whether it was added.
    ///
    /// With `mirrored`, the position's mirror image (files a to h turned round, which the
    /// chess network's inputs cannot tell from the position: castling rights are not inputs) is
    /// added too, doubling what a game teaches. With `on_top`, the output is to be added to the
    /// hand-written evaluation (of the position, or of its mirror image).
    pub fn push_game(
        &mut self,
        game: &AnyGame,
        score: i16,
        result: Wdl,
        mirrored: bool,
        on_top: bool,
    ) -> bool {
        let Some((ours, theirs, mover)) = inputs_of(game) else {
            return false;
        };
        let AnyGame::Chess(chess) = game else {
            return false;
        };
        let (result, score) = match mover {
            Side::First => (result.first_score() as f32, f32::from(score)),
            Side::Second => (1.0 - result.first_score() as f32, -f32::from(score)),
        };
        let position = chess.shakmaty_position();
        let hand = |board: &qi_rules::chess::shakmaty::Board| {
            if on_top { qi_ai::chess::eval::evaluate(board, position.turn()) as f32 } else { 0.0 }
        };
        self.push(&ours, &theirs, result, score, hand(position.board()));
        if mirrored {
            let mirror = |inputs: &[usize]| -> Vec<usize> {
                inputs.iter().map(|&i| qi_ai::chess::net::mirror_input(i)).collect()
            };
            let mut board = position.board().clone();
            board.flip_horizontal();
            self.push(&mirror(&ours), &mirror(&theirs), result, score, hand(&board));
        }
        true
    }

    /// The number of positions.
    #[must_use]
    pub fn len(&self) -> usize {
        self.results.len()
    }

    /// Whether there are none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.results.is_empty()
    }

    /// Sets the targets: `lambda` of the result, the rest the search's score as a probability.
    pub fn blend(&mut self, lambda: f64, k: f64) {
        for i in 0..self.len() {
            let score = sigmoid(k * f64::from(self.scores[i]));
            self.targets[i] = (lambda * f64::from(self.results[i]) + (1.0 - lambda) * score) as f32;
        }
    }

    /// The inputs of position `i`: the side to move's and the other side's.
    fn position(&self, i: usize) -> (&[u16], &[u16]) {
        let (start, end) = (self.starts[i] as usize, self.starts[i + 1] as usize);
        let split = start + usize::from(self.ours[i]);
        (&self.inputs[start..split], &self.inputs[split..end])
    }

    /// The `k` with which the search's scores predict the results best (golden-section search).
    #[must_use]
    pub fn score_k(&self) -> f64 {
        let loss = |k: f64| {
            self.scores
                .iter()
                .zip(&self.results)
                .map(|(&s, &r)| (sigmoid(k * f64::from(s)) - f64::from(r)).powi(2))
                .sum::<f64>()
                / self.len().max(1) as f64
        };
        let elo = std::f64::consts::LN_10 / 400.0;
        let (mut low, mut high) = (elo / 20.0, elo * 10.0);
        let ratio = (5f64.sqrt() - 1.0) / 2.0;
        for _ in 0..60 {
            let a = high - ratio * (high - low);
            let b = low + ratio * (high - low);
            if loss(a) < loss(b) {
                high = b;
            } else {
                low = a;
            }
        }
        (low + high) / 2.0
    }
}

/// The network inputs of a position of `game` for the side to move and the other side, and
/// who is to move; `None` for a game that has no network yet.
#[must_use]
pub fn inputs_of(game: &AnyGame) -> Option<(Vec<usize>, Vec<usize>, Side)> {
    use qi_ai::chess::net::inputs;
    match game {
        AnyGame::Chess(chess) => {
            let position = chess.shakmaty_position();
            let turn = position.turn();
            let board = position.board();
            let mover = if turn.is_white() { Side::First } else { Side::Second };
            Some((inputs(board, turn).collect(), inputs(board, !turn).collect(), mover))
        }
        _ => None,
    }
}

/// The number of inputs of `kind`'s network; `None` for a game that has none yet.
#[must_use]
pub fn input_count(kind: GameKind) -> Option<usize> {
    match kind {
        GameKind::Chess => Some(qi_ai::chess::net::INPUTS),
        _ => None,
    }
}

/// How training goes.
#[derive(Clone, Copy, Debug)]
pub struct Training {
    /// Passes over the data.
    pub epochs: usize,
    /// Positions in a mini-batch.
    pub batch: usize,
    /// Adam's first step size (it decays along a cosine to a twentieth).
    pub rate: f32,
    /// Threads computing each batch's gradient.
    pub threads: usize,
    /// The seed of the first weights and of the order of the positions.
    pub seed: u64,
}

impl Default for Training {
    fn default() -> Training {
        Training { epochs: 20, batch: 16_384, rate: 0.001, threads: 2, seed: 1 }
    }
}

fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A uniform number in `(-spread, spread)`.
fn uniform(state: &mut u64, spread: f32) -> f32 {
    ((splitmix(state) >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * spread
}

/// A network of `inputs` inputs with small random weights (`seed`), as training starts.
#[must_use]
pub fn initial_network(inputs: usize, seed: u64) -> FloatNetwork {
    let mut state = seed;
    let first = 1.0 / (inputs as f32).sqrt();
    let second = 1.0 / ((2 * HIDDEN) as f32).sqrt();
    FloatNetwork {
        rows: (0..inputs * HIDDEN).map(|_| uniform(&mut state, first)).collect(),
        bias: (0..HIDDEN).map(|_| uniform(&mut state, first)).collect(),
        out: (0..2 * HIDDEN).map(|_| uniform(&mut state, second)).collect(),
        out_bias: 0.0,
        on_top: false,
    }
}

/// The hidden sums of one side, in floats.
fn hidden(net: &FloatNetwork, inputs: &[u16]) -> [f32; HIDDEN] {
    let mut sums: [f32; HIDDEN] = std::array::from_fn(|h| net.bias[h]);
    for &input in inputs {
        let row = &net.rows[usize::from(input) * HIDDEN..][..HIDDEN];
        for (sum, weight) in sums.iter_mut().zip(row) {
            *sum += weight;
        }
    }
    sums
}

/// The network's output in centipawns for position `i`, with both sides' hidden sums.
fn forward(net: &FloatNetwork, data: &NetData, i: usize) -> (f32, [[f32; HIDDEN]; 2]) {
    let (ours, theirs) = data.position(i);
    let sums = [hidden(net, ours), hidden(net, theirs)];
    let mut out = net.out_bias;
    for (side, sums) in sums.iter().enumerate() {
        for (h, &sum) in sums.iter().enumerate() {
            let active = sum.clamp(0.0, 1.0);
            out += active * active * net.out[side * HIDDEN + h];
        }
    }
    (out * SCALE as f32 + data.bases[i], sums)
}

/// The mean squared error of `net` on `data` against the targets.
#[must_use]
pub fn loss(net: &FloatNetwork, data: &NetData, k: f64, threads: usize) -> f64 {
    let n = data.len();
    if n == 0 {
        return 0.0;
    }
    let chunk = n.div_ceil(threads.max(1));
    let total: f64 = std::thread::scope(|scope| {
        let parts: Vec<_> = (0..n)
            .step_by(chunk)
            .map(|start| {
                scope.spawn(move || {
                    (start..(start + chunk).min(n))
                        .map(|i| {
                            let (eval, _) = forward(net, data, i);
                            let p = sigmoid(k * f64::from(eval));
                            (p - f64::from(data.targets[i])).powi(2)
                        })
                        .sum::<f64>()
                })
            })
            .collect();
        parts.into_iter().map(|part| part.join().unwrap_or(f64::NAN)).sum()
    });
    total / n as f64
}

/// Adds position `i`'s gradient of the squared error to `gradient` (laid out as the network's
/// weights: rows, biases, output weights, output bias).
fn add_gradient(net: &FloatNetwork, data: &NetData, i: usize, k: f32, gradient: &mut [f32]) {
    let (eval, sums) = forward(net, data, i);
    let p = 1.0 / (1.0 + (-k * eval).exp());
    // d loss / d output (the output before it is scaled to centipawns).
    let d_out = 2.0 * (p - data.targets[i]) * p * (1.0 - p) * k * SCALE as f32;
    let rows = net.rows.len();
    let (row_grad, rest) = gradient.split_at_mut(rows);
    let (bias_grad, rest) = rest.split_at_mut(HIDDEN);
    let (out_grad, bias_out) = rest.split_at_mut(2 * HIDDEN);
    bias_out[0] += d_out;
    let (ours, theirs) = data.position(i);
    for (side, inputs) in [ours, theirs].into_iter().enumerate() {
        let mut d_sums = [0f32; HIDDEN];
        for h in 0..HIDDEN {
            let sum = sums[side][h];
            let active = sum.clamp(0.0, 1.0);
            out_grad[side * HIDDEN + h] += d_out * active * active;
            if sum > 0.0 && sum < 1.0 {
                d_sums[h] = d_out * net.out[side * HIDDEN + h] * 2.0 * active;
            }
        }
        for (b, d) in bias_grad.iter_mut().zip(&d_sums) {
            *b += d;
        }
        for &input in inputs {
            let row = &mut row_grad[usize::from(input) * HIDDEN..][..HIDDEN];
            for (g, d) in row.iter_mut().zip(&d_sums) {
                *g += d;
            }
        }
    }
}

/// The network's weights as one flat list, in the gradient's layout.
fn flat(net: &FloatNetwork) -> Vec<f32> {
    let mut weights = net.rows.clone();
    weights.extend(&net.bias);
    weights.extend(&net.out);
    weights.push(net.out_bias);
    weights
}

fn unflat(net: &mut FloatNetwork, weights: &[f32]) {
    let rows = net.rows.len();
    net.rows.copy_from_slice(&weights[..rows]);
    net.bias.copy_from_slice(&weights[rows..rows + HIDDEN]);
    net.out.copy_from_slice(&weights[rows + HIDDEN..rows + 3 * HIDDEN]);
    net.out_bias = weights[rows + 3 * HIDDEN];
}

/// The gradient of the mean squared error over positions `order`, shared out among threads.
fn batch_gradient(
    net: &FloatNetwork,
    data: &NetData,
    order: &[u32],
    k: f32,
    threads: usize,
) -> Vec<f32> {
    let size = net.rows.len() + 3 * HIDDEN + 1;
    let chunk = order.len().div_ceil(threads.max(1)).max(1);
    let parts: Vec<Vec<f32>> = std::thread::scope(|scope| {
        let handles: Vec<_> = order
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    let mut gradient = vec![0f32; size];
                    for &i in part {
                        add_gradient(net, data, i as usize, k, &mut gradient);
                    }
                    gradient
                })
            })
            .collect();
        handles.into_iter().filter_map(|h| h.join().ok()).collect()
    });
    let mut parts = parts.into_iter();
    let mut total = parts.next().unwrap_or_else(|| vec![0f32; size]);
    for part in parts {
        for (t, p) in total.iter_mut().zip(&part) {
            *t += p;
        }
    }
    let scale = 1.0 / order.len().max(1) as f32;
    for g in &mut total {
        *g *= scale;
    }
    total
}

/// Trains `net` on `data` (targets set by [`NetData::blend`]) with `k` fixed. `report` hears
/// each epoch's number, the training loss and the network as it stands. Returns the final
/// training loss.
pub fn train(
    net: &mut FloatNetwork,
    data: &NetData,
    k: f64,
    training: Training,
    report: &mut dyn FnMut(usize, f64, &FloatNetwork),
) -> f64 {
    let (beta1, beta2, epsilon) = (0.9f32, 0.999f32, 1e-8f32);
    let mut weights = flat(net);
    let mut first = vec![0f32; weights.len()];
    let mut second = vec![0f32; weights.len()];
    let mut order: Vec<u32> = (0..data.len() as u32).collect();
    let mut state = training.seed ^ 0x5eed;
    let batches = data.len().div_ceil(training.batch.max(1)).max(1);
    let steps = (training.epochs * batches).max(1);
    let mut step = 0usize;
    for epoch in 1..=training.epochs {
        // A new order each epoch (Fisher–Yates).
        for i in (1..order.len()).rev() {
            let j = (splitmix(&mut state) % (i as u64 + 1)) as usize;
            order.swap(i, j);
        }
        for batch in order.chunks(training.batch.max(1)) {
            step += 1;
            unflat(net, &weights);
            let gradient = batch_gradient(net, data, batch, k as f32, training.threads);
            let progress = step as f32 / steps as f32;
            let rate = training.rate
                * (0.05 + 0.95 * 0.5 * (1.0 + (std::f32::consts::PI * progress).cos()));
            let t = step as i32;
            let (c1, c2) = (1.0 - beta1.powi(t), 1.0 - beta2.powi(t));
            for (w, ((g, m), v)) in
                weights.iter_mut().zip(gradient.iter().zip(&mut first).zip(&mut second))
            {
                *m = beta1 * *m + (1.0 - beta1) * g;
                *v = beta2 * *v + (1.0 - beta2) * g * g;
                *w -= rate * (*m / c1) / ((*v / c2).sqrt() + epsilon);
                *w = w.clamp(-MOST_WEIGHT, MOST_WEIGHT);
            }
        }
        unflat(net, &weights);
        report(epoch, loss(net, data, k, training.threads), net);
    }
    unflat(net, &weights);
    loss(net, data, k, training.threads)
}

#[cfg(test)]
mod tests {
    use super::*;
    use qi_ai::net::Network;

    /// Data made by a known network: training a fresh one on it comes close to the truth.
    #[test]
    fn training_learns_what_a_known_network_says() {
        let inputs = 24;
        let mut state = 3u64;
        let truth = {
            let mut net = initial_network(inputs, 77);
            for w in &mut net.rows {
                *w *= 3.0;
            }
            for w in &mut net.out {
                *w *= 4.0;
            }
            net
        };
        let mut data = NetData::default();
        for _ in 0..4000 {
            let mut pick = |n: u64| (splitmix(&mut state) % n) as usize;
            let ours: Vec<usize> = (0..2 + pick(5)).map(|_| pick(inputs as u64)).collect();
            let theirs: Vec<usize> = (0..2 + pick(5)).map(|_| pick(inputs as u64)).collect();
            let score = truth.evaluate(&ours, &theirs);
            data.push(&ours, &theirs, 0.5, score, 0.0);
        }
        let k = std::f64::consts::LN_10 / 400.0;
        data.blend(0.0, k);
        let mut net = initial_network(inputs, 1);
        let before = loss(&net, &data, k, 2);
        let training = Training { epochs: 60, batch: 256, rate: 0.01, threads: 2, seed: 1 };
        let after = train(&mut net, &data, k, training, &mut |_, _, _| {});
        assert!(after < before / 10.0, "loss {before} -> {after}");
        // The quantised network agrees with the trained floats.
        let quantised = Network::from_floats(&net).unwrap();
        let (ours, theirs) = data.position(0);
        let (ours, theirs): (Vec<usize>, Vec<usize>) = (
            ours.iter().map(|&i| usize::from(i)).collect(),
            theirs.iter().map(|&i| usize::from(i)).collect(),
        );
        let mut sums = qi_ai::net::Accumulator::default();
        quantised.refresh(&mut sums.sides[0], ours.iter().copied());
        quantised.refresh(&mut sums.sides[1], theirs.iter().copied());
        let float = net.evaluate(&ours, &theirs);
        assert!((float - quantised.evaluate(&sums, 0) as f32).abs() < 20.0 + float.abs() * 0.05);
    }

    #[test]
    fn the_gradient_is_the_slope_of_the_loss() {
        let inputs = 10;
        let mut data = NetData::default();
        data.push(&[1, 4, 7], &[2, 3], 1.0, 120.0, 30.0);
        data.push(&[0, 9], &[5, 6, 8], 0.0, -40.0, 0.0);
        let k = 0.004;
        data.blend(0.5, k);
        let net = initial_network(inputs, 9);
        let order = [0u32, 1];
        let gradient = batch_gradient(&net, &data, &order, k as f32, 1);
        let base = flat(&net);
        // A few weights of each kind: a row weight of an input that is on, a bias, an output
        // weight, the output bias.
        for index in
            [4 * HIDDEN + 3, inputs * HIDDEN + 5, inputs * HIDDEN + HIDDEN + 7, base.len() - 1]
        {
            let h = 1e-3f32;
            let mut moved = net.clone();
            let mut weights = base.clone();
            weights[index] += h;
            unflat(&mut moved, &weights);
            let up = loss(&moved, &data, k, 1);
            weights[index] -= 2.0 * h;
            unflat(&mut moved, &weights);
            let down = loss(&moved, &data, k, 1);
            let slope = ((up - down) / (2.0 * f64::from(h))) as f32;
            assert!(
                (slope - gradient[index]).abs() < 1e-4 + slope.abs() * 0.02,
                "weight {index}: slope {slope}, gradient {}",
                gradient[index]
            );
        }
    }
}
