//! Zobrist keys from a fixed seed, so every build and every platform hashes the same way.
//!
//! The tables are made on first use rather than at compile time: random keys don't compress, and
//! a compile-time table is carried byte for byte in the browser's download (the xiangqi, banqi
//! and gomoku tables were about 24 KB of the page's compressed wasm). Making them costs a few
//! microseconds once.

use std::sync::OnceLock;

/// One step of SplitMix64: a well-mixed 64-bit value from a counter.
#[must_use]
pub const fn splitmix64(state: u64) -> u64 {
    let mut z = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Key number `index` of the stream that starts at `seed`. Different tables use different seeds.
#[must_use]
pub const fn key(seed: u64, index: usize) -> u64 {
    splitmix64(seed.wrapping_mul(0x1000_0000_0000_0001).wrapping_add(index as u64))
}

/// `N` keys drawn from the stream that starts at `seed`: `key(seed, 0)` to `key(seed, N - 1)`.
#[must_use]
pub const fn keys<const N: usize>(seed: u64) -> [u64; N] {
    let mut out = [0u64; N];
    let mut i = 0;
    while i < N {
        out[i] = key(seed, i);
        i += 1;
    }
    out
}

/// A table of `N` keys, `key(seed, 0..N)`, made the first time it is read.
///
/// Meant for `static`s: the empty table lives in zero-initialised memory, so it adds nothing to
/// the binary's data.
pub struct LazyKeys<const N: usize> {
    seed: u64,
    table: OnceLock<[u64; N]>,
}

impl<const N: usize> LazyKeys<N> {
    /// The table of the stream that starts at `seed`, not made yet.
    #[must_use]
    pub const fn new(seed: u64) -> Self {
        LazyKeys { seed, table: OnceLock::new() }
    }

    /// The whole table (made now if this is the first read). Hot loops can hold on to it.
    #[inline]
    pub fn table(&self) -> &[u64; N] {
        self.table.get_or_init(|| {
            let mut table = [0; N];
            for (index, slot) in table.iter_mut().enumerate() {
                *slot = key(self.seed, index);
            }
            table
        })
    }

    /// Key number `index`.
    ///
    /// # Panics
    /// When `index` is not below `N`, as indexing an array would.
    #[inline]
    pub fn get(&self, index: usize) -> u64 {
        self.table()[index]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lazy_tables_hold_the_same_keys_as_compile_time_ones() {
        const SEED: u64 = 0x5EED;
        static LAZY: LazyKeys<300> = LazyKeys::new(SEED);
        let eager = keys::<300>(SEED);
        assert_eq!(LAZY.table(), &eager);
        assert_eq!(LAZY.get(299), key(SEED, 299));
        // Different seeds give different streams.
        assert_ne!(key(SEED, 0), key(SEED + 1, 0));
    }
}
