//! What Qi's page asks its Web Worker, and how the worker answers: the computer's move and the
//! engine's analysis ([`think`]), records read and written and QR codes drawn ([`tasks`]), and
//! the messages' codec ([`codec`]). The page sends the requests; the worker binary
//! (crates/worker) reads the requests and runs the answers ([`think::respond`]). Neither side depends on the
//! other's crate: both depend on this one.

pub mod codec;
pub mod review;
pub mod tasks;
pub mod think;
