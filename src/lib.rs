//! Qi's browser app: chess, xiangqi, banqi and gomoku on one page. Two binaries share this
//! library: `qi-app` (the page) and `qi-worker` (crates/worker: the computer's search, in a
//! Web Worker).

pub mod app;
pub mod board;
pub mod board_model;
pub mod codec;
pub mod components;
pub mod decimal;
pub mod embed;
pub mod i18n;
pub mod i18n_records;
pub mod i18n_rules;
pub mod online;
pub mod pieces;
pub mod review;
pub mod state;
pub mod think;
pub mod web;
pub mod worker_tasks;

// The game record, its formats and the link: web-free, in `crates/play`; here under their old names.
pub use qi_play::{link, record, records};
