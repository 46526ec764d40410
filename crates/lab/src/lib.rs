//! Qi's engine lab: what it takes to make the engines stronger by measurement rather than by
//! hand. Self-play data at a fixed node count ([`datagen`]) in a compact file of games
//! ([`data`]), and evaluation weights fitted to it ([`tune`]). The sequential test that decides
//! whether a change gains is `qi sprt`, in the command line crate.
//!
//! Native only: the lab runs on the developers' machines, never in the browser.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod data;
pub mod datagen;
pub mod models;
pub mod nets;
pub mod tune;
