//! What the Web Worker hosts, as a library: the engine kept from request to request and its
//! answers ([`engine`]), and the chores beside it — records, QR codes, openings ([`chores`]).
//! The worker binary (`main.rs`, wasm) runs them for the page; `qi review` runs a review with
//! them natively. The messages they answer are `qi_tasks`'s: the page depends on that crate,
//! never on this one.

pub mod chores;
pub mod engine;
