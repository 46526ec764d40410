//! The messages between Qi's page and its Web Worker: the computer's move, ponders and the
//! engine's analysis ([`think`]), records read and written, QR codes and openings ([`tasks`]),
//! and their codec ([`codec`], with the wire forms of other crates' values in [`wire`]); and a game review as a plan of searches ([`review`]), which the
//! page runs one search at a time. The page sends the requests; the worker (crates/worker)
//! answers them. Neither side depends on the other's crate: both depend on this one.

pub mod codec;
pub mod review;
pub mod tasks;
pub mod think;
pub mod wire;
