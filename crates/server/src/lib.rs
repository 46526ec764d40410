//! Qi's online-play server: games between two browsers over WebSockets, with spectators, clocks,
//! quick pairing and rematches, every move stored (SQLite; or PostgreSQL, with several nodes
//! over Redis: [`cluster`]) before it is acknowledged.
//!
//! The pieces, from the outside in:
//! - [`app`]: the HTTP server (axum): `/ws` for the game protocol, the built app's files for
//!   everything else;
//! - [`connection`]: one WebSocket, generic over `Sink`/`Stream` so tests can drive it with
//!   channels: a send task and a receive task under `select!`, limits on frame size, message
//!   rate and (in [`outbox`]) the queue of messages waiting for a slow reader;
//! - [`hub`]: the registry of games, quick pairing and which connection is in which game;
//! - [`actor`]: one task per game that owns its [`session`] and its timer;
//! - [`session`]: one game's rules of play with no I/O (moves, clocks, draws, rematches);
//! - [`accounts`]: accounts over HTTP (Argon2id passwords on the fixed pool of [`hashing`],
//!   session cookies, profiles) and [`rating`]: Glicko-2 ratings;
//! - [`storage`]: where games, accounts and ratings are kept; [`clock`]: time; [`tokens`]: secrets;
//! - [`cluster`]: several nodes as one site (leases in PostgreSQL, messages over Redis);
//!   `services`: throwaway PostgreSQL and Redis servers for its tests and benchmarks.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod accounts;
pub mod actor;
pub mod app;
pub mod assets;
pub mod clock;
pub mod cluster;
pub mod connection;
pub mod hashing;
pub mod hub;
pub mod limits;
pub mod listener;
pub mod lobby;
pub mod metrics;
pub mod names;
pub mod origins;
pub mod outbox;
pub mod puzzles;
pub mod rating;
#[doc(hidden)]
pub mod services;
pub mod session;
pub mod storage;
pub mod tokens;
pub mod tournaments;
