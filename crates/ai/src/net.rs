//! Efficiently updatable networks: a position's pieces, seen from each side, through one hidden
//! layer to a score — `(inputs → HIDDEN) × 2 → 1` with a squared clipped ReLU, the shape the
//! small Rust engines start from (akimbo, Tcheran, Carp's first nets).
//!
//! Each input is one piece kind on one point *as a side sees the board* (its own pieces and the
//! other's, the board turned for the second player), so one weight table serves both sides. The
//! hidden layer's sums for each side are an [`Accumulator`]; a move changes a few inputs, so the
//! search keeps the sums and adds or takes away a few rows of weights instead of summing all the
//! pieces again ([`Network::add`], [`Network::remove`]). The output layer reads the side to move's
//! sums first, then the other side's.
//!
//! Integer inference, as trained nets are usually run: the first layer's weights and the sums
//! are `i16` (scaled by [`QA`]), the output weights `i16` scaled by [`QB`]. The loops are plain
//! loops over fixed-size arrays so that the compiler turns them into SIMD — SSE2 natively,
//! `simd128` in the browser's worker (built with that target feature).
//!
//! A network may be trained *on top of* a game's hand-written evaluation: its output is then
//! added to that evaluation's score, and it learns only what the hand-written terms miss (the
//! first step where self-play data is still scarce).
//!
//! The file format ([`Network::from_bytes`], [`Network::to_bytes`]): the magic `QINET1`, a
//! zero byte, a flags byte (1: on top of the hand-written evaluation), the number of inputs and the hidden size as little-endian `u16`, then the
//! first layer's weights input by input, its biases, the output weights (side to move, then the
//! other) as little-endian `i16`, and the output bias as a little-endian `i32`. The trainer (the
//! lab's `qi train`) writes it through [`Network::from_floats`].

/// The hidden layer's size for each side.
pub const HIDDEN: usize = 32;
/// The first layer's weights and the hidden sums are stored times this; the activation clips
/// the sums to `0..=QA`.
pub const QA: i32 = 255;
/// The output layer's weights are stored times this.
pub const QB: i32 = 64;
/// The network's output times this is centipawns (the unit the search and the trainer share).
pub const SCALE: i32 = 400;
/// The largest weight a float network may have: times [`QA`], a side's sum of 32 pieces' weights
/// and a bias stays within `i16`, and an output weight times [`QB`] within `i8`'s range.
pub const MOST_WEIGHT: f32 = 1.98;

const MAGIC: &[u8; 8] = b"QINET1\0\0";

/// The hidden sums of one position, one row for each side's view.
#[derive(Clone, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Accumulator {
    /// The sums as the first player sees the board, then as the second does.
    pub sides: [[i16; HIDDEN]; 2],
}

impl Default for Accumulator {
    fn default() -> Self {
        Accumulator { sides: [[0; HIDDEN]; 2] }
    }
}

/// A trained network, ready to evaluate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    /// One row of hidden weights per input.
    rows: Vec<[i16; HIDDEN]>,
    bias: [i16; HIDDEN],
    /// The output weights for the side to move's sums, then the other side's.
    out: [[i16; HIDDEN]; 2],
    out_bias: i32,
    /// Whether the output is added to the game's hand-written evaluation (a network trained
    /// on top of it) rather than replacing it.
    on_top: bool,
}

/// Why bytes are not a network.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetError(pub String);

impl std::fmt::Display for NetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NetError {}

/// A float network as the trainer holds it: what [`Network::from_floats`] quantizes.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNetwork {
    /// `inputs × HIDDEN` first-layer weights, input by input.
    pub rows: Vec<f32>,
    /// `HIDDEN` first-layer biases.
    pub bias: Vec<f32>,
    /// `2 × HIDDEN` output weights: the side to move's sums, then the other side's.
    pub out: Vec<f32>,
    /// The output bias.
    pub out_bias: f32,
    /// Whether the output is added to the hand-written evaluation rather than replacing it.
    pub on_top: bool,
}

impl FloatNetwork {
    /// The number of inputs.
    #[must_use]
    pub fn inputs(&self) -> usize {
        self.rows.len() / HIDDEN
    }

    /// The output in centipawns for the inputs on for the side to move and for the other side:
    /// the network in floats, as trained (the integer network rounds it).
    #[must_use]
    pub fn evaluate(&self, ours: &[usize], theirs: &[usize]) -> f32 {
        let mut total = self.out_bias;
        for (side, inputs) in [ours, theirs].into_iter().enumerate() {
            for h in 0..HIDDEN {
                let sum =
                    self.bias[h] + inputs.iter().map(|&i| self.rows[i * HIDDEN + h]).sum::<f32>();
                let active = sum.clamp(0.0, 1.0);
                total += active * active * self.out[side * HIDDEN + h];
            }
        }
        total * SCALE as f32
    }
}

/// A random float network (a fixed seed's splitmix sequence) whose hidden sums sit mostly
/// inside the activation's range: what the checks of the fast path run on, where no trained
/// network is wanted.
#[must_use]
pub fn random_float_network(inputs: usize, seed: u64) -> FloatNetwork {
    let mut state = seed;
    let mut next = move |spread: f32| {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        ((z >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * spread
    };
    // Rows small enough that thirty-odd pieces keep most sums between 0 and 1.
    let row_spread = 1.5 / (inputs as f32).sqrt().max(1.0) + 0.05;
    FloatNetwork {
        rows: (0..inputs * HIDDEN).map(|_| next(row_spread)).collect(),
        bias: (0..HIDDEN).map(|_| next(0.3) + 0.3).collect(),
        out: (0..2 * HIDDEN).map(|_| next(1.5)).collect(),
        out_bias: next(0.5),
        on_top: false,
    }
}

fn quantize(value: f32, scale: i32) -> i16 {
    (value.clamp(-MOST_WEIGHT, MOST_WEIGHT) * scale as f32).round() as i16
}

impl Network {
    /// The integer network of a float one (weights clipped to ±[`MOST_WEIGHT`]).
    ///
    /// # Errors
    /// When the float network's tables do not have the sizes of one network.
    pub fn from_floats(float: &FloatNetwork) -> Result<Network, NetError> {
        if float.rows.is_empty()
            || !float.rows.len().is_multiple_of(HIDDEN)
            || float.bias.len() != HIDDEN
            || float.out.len() != 2 * HIDDEN
        {
            return Err(NetError(format!(
                "a float network needs inputs x {HIDDEN} weights, {HIDDEN} biases and {} output weights",
                2 * HIDDEN
            )));
        }
        let rows = float
            .rows
            .chunks_exact(HIDDEN)
            .map(|row| std::array::from_fn(|h| quantize(row[h], QA)))
            .collect();
        Ok(Network {
            rows,
            bias: std::array::from_fn(|h| quantize(float.bias[h], QA)),
            out: std::array::from_fn(|side| {
                std::array::from_fn(|h| quantize(float.out[side * HIDDEN + h], QB))
            }),
            out_bias: (float.out_bias * (QA * QB) as f32).round() as i32,
            on_top: float.on_top,
        })
    }

    /// Reads a network file.
    ///
    /// # Errors
    /// What is wrong: not a network, another hidden size, or cut short.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        let header = MAGIC.len() + 4;
        if bytes.len() < header || bytes[..6] != MAGIC[..6] || bytes[6] != 0 {
            return Err(NetError("not a Qi network (no QINET1 header)".into()));
        }
        if bytes[7] > 1 {
            return Err(NetError(format!("unknown network flags {:#04x}", bytes[7])));
        }
        let on_top = bytes[7] == 1;
        let inputs = usize::from(u16::from_le_bytes([bytes[8], bytes[9]]));
        let hidden = usize::from(u16::from_le_bytes([bytes[10], bytes[11]]));
        if hidden != HIDDEN {
            return Err(NetError(format!(
                "the network's hidden layer has {hidden} sums; this build reads {HIDDEN}"
            )));
        }
        if inputs == 0 {
            return Err(NetError("the network has no inputs".into()));
        }
        let expected = header + 2 * (inputs * HIDDEN + HIDDEN + 2 * HIDDEN) + 4;
        if bytes.len() != expected {
            return Err(NetError(format!(
                "the network should be {expected} bytes for {inputs} inputs, not {}",
                bytes.len()
            )));
        }
        let mut words = bytes[header..expected - 4]
            .chunks_exact(2)
            .map(|pair| i16::from_le_bytes([pair[0], pair[1]]));
        let mut row = || -> [i16; HIDDEN] {
            // The length was checked above: every word is there.
            std::array::from_fn(|_| words.next().unwrap_or(0))
        };
        let rows = (0..inputs).map(|_| row()).collect();
        let bias = row();
        let out = [row(), row()];
        let tail = &bytes[expected - 4..];
        let out_bias = i32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]);
        Ok(Network { rows, bias, out, out_bias, on_top })
    }

    /// The network as its file's bytes.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = MAGIC.to_vec();
        bytes[7] = u8::from(self.on_top);
        // Both fit: inputs come from a u16 on reading, and from small tables on training.
        bytes.extend(u16::try_from(self.rows.len()).unwrap_or(u16::MAX).to_le_bytes());
        bytes.extend(u16::try_from(HIDDEN).unwrap_or(u16::MAX).to_le_bytes());
        for row in self.rows.iter().chain([&self.bias, &self.out[0], &self.out[1]]) {
            bytes.extend(row.iter().flat_map(|w| w.to_le_bytes()));
        }
        bytes.extend(self.out_bias.to_le_bytes());
        bytes
    }

    /// The number of inputs.
    #[must_use]
    pub fn inputs(&self) -> usize {
        self.rows.len()
    }

    /// Whether the output is added to the hand-written evaluation (else it is the evaluation).
    #[must_use]
    pub fn on_top(&self) -> bool {
        self.on_top
    }

    /// Sets one side's sums to the biases plus the rows of `inputs`.
    pub fn refresh(&self, sums: &mut [i16; HIDDEN], inputs: impl IntoIterator<Item = usize>) {
        *sums = self.bias;
        for input in inputs {
            self.add(sums, input);
        }
    }

    /// Adds one input's row to one side's sums (a piece appeared).
    #[inline]
    pub fn add(&self, sums: &mut [i16; HIDDEN], input: usize) {
        for (sum, weight) in sums.iter_mut().zip(&self.rows[input]) {
            *sum = sum.wrapping_add(*weight);
        }
    }

    /// Takes one input's row from one side's sums (a piece left).
    #[inline]
    pub fn remove(&self, sums: &mut [i16; HIDDEN], input: usize) {
        for (sum, weight) in sums.iter_mut().zip(&self.rows[input]) {
            *sum = sum.wrapping_sub(*weight);
        }
    }

    /// The score for the side to move whose inputs are `ours` (the other side's `theirs`),
    /// summed the straightforward way: every row from nothing, one term at a time, in 64-bit
    /// arithmetic. What the fast path ([`Network::refresh`], the updates, [`Network::evaluate`])
    /// must equal; the checks compare the two natively and in the browser's wasm.
    #[must_use]
    pub fn reference_evaluate(&self, ours: &[usize], theirs: &[usize]) -> i32 {
        let mut total = 0i64;
        for (side, inputs) in [ours, theirs].into_iter().enumerate() {
            for h in 0..HIDDEN {
                let mut sum = i64::from(self.bias[h]);
                for &input in inputs {
                    sum += i64::from(self.rows[input][h]);
                }
                let active = sum.clamp(0, i64::from(QA));
                total += active * active * i64::from(self.out[side][h]);
            }
        }
        let raw = total / i64::from(QA) + i64::from(self.out_bias);
        (raw * i64::from(SCALE) / i64::from(QA * QB)) as i32
    }

    /// The score in centipawns for `mover` (0 for the first player, 1 for the second) from the
    /// sums of a position.
    #[must_use]
    pub fn evaluate(&self, sums: &Accumulator, mover: usize) -> i32 {
        let ours = &sums.sides[mover & 1];
        let theirs = &sums.sides[(mover & 1) ^ 1];
        let total = dot(ours, &self.out[0]) + dot(theirs, &self.out[1]);
        // The squares are QA² too large; one QA goes here, the other with QB below.
        let raw = total / i64::from(QA) + i64::from(self.out_bias);
        (raw * i64::from(SCALE) / i64::from(QA * QB)) as i32
    }
}

/// The output layer's sum for one side: `Σ clamp(sum, 0, QA)² × weight`, in blocks small enough
/// that an `i32` cannot overflow (32 terms of at most 255² × 127 each), which keeps the loop
/// in 32-bit lanes the compiler vectorises.
fn dot(sums: &[i16; HIDDEN], weights: &[i16; HIDDEN]) -> i64 {
    const BLOCK: usize = 32;
    let mut total = 0i64;
    for (sums, weights) in sums.chunks_exact(BLOCK).zip(weights.chunks_exact(BLOCK)) {
        let mut block = 0i32;
        for (&sum, &weight) in sums.iter().zip(weights) {
            let active = i32::from(sum).clamp(0, QA);
            // Weight times activation fits i16's range (|weight| ≤ 127): the product by the
            // activation again stays within i32.
            block += (active * i32::from(weight)) * active;
        }
        total += i64::from(block);
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_network_round_trips_through_its_bytes() {
        let net = Network::from_floats(&random_float_network(20, 1)).unwrap();
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), 12 + 2 * (20 * HIDDEN + 3 * HIDDEN) + 4);
        assert_eq!(Network::from_bytes(&bytes).unwrap(), net);
    }

    #[test]
    fn damaged_bytes_are_refused_with_a_reason() {
        let bytes = Network::from_floats(&random_float_network(4, 2)).unwrap().to_bytes();
        assert!(Network::from_bytes(b"nope").unwrap_err().0.contains("QINET1"));
        let short = Network::from_bytes(&bytes[..bytes.len() - 1]).unwrap_err();
        assert!(short.0.contains("bytes"), "{short}");
        let mut other_size = bytes.clone();
        other_size[10] = 64;
        assert!(Network::from_bytes(&other_size).unwrap_err().0.contains("hidden"));
        let mut flags = bytes.clone();
        flags[7] = 9;
        assert!(Network::from_bytes(&flags).unwrap_err().0.contains("flags"));
        let mut on_top = bytes.clone();
        on_top[7] = 1;
        assert!(Network::from_bytes(&on_top).unwrap().on_top());
        assert_eq!(Network::from_bytes(&on_top).unwrap().to_bytes(), on_top);
        let mut no_inputs = bytes;
        no_inputs[8] = 0;
        no_inputs[9] = 0;
        assert!(Network::from_bytes(&no_inputs).is_err());
    }

    #[test]
    fn integer_inference_equals_the_reference_and_follows_the_float_network() {
        let float = random_float_network(50, 3);
        let net = Network::from_floats(&float).unwrap();
        let mut state = 7u64;
        let mut pick = |n: usize| {
            state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            (state >> 33) as usize % n
        };
        let mut drift = 0.0f32;
        let cases = 300;
        for _ in 0..cases {
            let ours: Vec<usize> = (0..1 + pick(12)).map(|_| pick(50)).collect();
            let theirs: Vec<usize> = (0..1 + pick(12)).map(|_| pick(50)).collect();
            let mut sums = Accumulator::default();
            net.refresh(&mut sums.sides[0], ours.iter().copied());
            net.refresh(&mut sums.sides[1], theirs.iter().copied());
            assert_eq!(net.evaluate(&sums, 0), net.reference_evaluate(&ours, &theirs));
            assert_eq!(net.evaluate(&sums, 1), net.reference_evaluate(&theirs, &ours));
            drift += (float.evaluate(&ours, &theirs) - net.evaluate(&sums, 0) as f32).abs();
        }
        // Rounding each weight to 1/255 or 1/64 moves the output by some centipawns, at random.
        let mean = drift / cases as f32;
        assert!(mean < 25.0, "the integer network is {mean} cp from the float one on average");
    }

    #[test]
    fn adding_then_removing_gives_the_sums_back() {
        let net = Network::from_floats(&random_float_network(30, 4)).unwrap();
        let mut sums = [0i16; HIDDEN];
        net.refresh(&mut sums, [1, 2, 3]);
        let before = sums;
        net.add(&mut sums, 17);
        net.remove(&mut sums, 2);
        net.add(&mut sums, 2);
        net.remove(&mut sums, 17);
        assert_eq!(sums, before);
        let mut direct = [0i16; HIDDEN];
        net.refresh(&mut direct, [3, 2, 1]);
        assert_eq!(direct, before, "the order of the inputs does not matter");
    }
}
