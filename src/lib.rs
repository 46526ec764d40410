//! Qi's browser app: chess, xiangqi, banqi and gomoku on one page. Two binaries share this
//! library: `qi-app` (the page) and `qi-worker` (crates/worker: the computer's search, in a
//! Web Worker).

pub mod app;
pub mod board;
pub mod board_model;
pub mod components;
pub mod embed;
pub mod online;
pub mod pieces;
pub mod screen_reader;
pub mod sound;
pub mod state;
pub mod web;
pub mod worker;

// The game record, its formats and the link (crates/play), the words in three languages
// (crates/i18n) and what the page asks the worker (crates/tasks): web-free crates, here under
// the names the app's modules use.
pub use qi_i18n::records as i18n_records;
pub use qi_i18n::rules as i18n_rules;
pub use qi_i18n::text as i18n;
pub use qi_play::{decimal, link, record, records};
pub use qi_settings as settings;
pub use qi_tasks::tasks as worker_tasks;
pub use qi_tasks::{codec, review, think};
