//! The network's fast path checked against the straightforward one inside wasm, as the
//! browser's worker runs it (`qi_ai::chess::net::self_check`). Built by `scripts/test` as a
//! wasm library with `simd128` and called from Node (`scripts/check-wasm-net.mjs`):
//!
//! ```sh
//! RUSTFLAGS="-C target-feature=+simd128" cargo build --release -p qi-ai --example net_check \
//!   --target wasm32-unknown-unknown
//! node scripts/check-wasm-net.mjs target/wasm32-unknown-unknown/release/examples/net_check.wasm
//! ```

/// The positions compared and the mismatches, packed as `positions << 16 | mismatches` (both
/// below 65,536 for up to a few hundred games), for `games` random games from `seed`.
#[unsafe(no_mangle)]
pub extern "C" fn net_check(seed: u32, games: u32) -> u32 {
    let (positions, mismatches) = qi_ai::chess::net::self_check(u64::from(seed), games as usize);
    (positions.min(0xffff) as u32) << 16 | mismatches.min(0xffff) as u32
}
