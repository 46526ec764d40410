//! Qi's browser app: chess, xiangqi, banqi and gomoku on one page. Five binaries share this
//! library: `qi-app` (the page), `qi-embed` (the board alone, for a blog's frame), `qi-online`
//! (online play), `qi-tv` (watching live games) and `qi-puzzles-page` (puzzles, and a puzzle
//! alone for a blog's frame). The computer's search runs beside them in
//! a Web Worker built from crates/worker, which does not use this library. The crates below are
//! used under their own names (`qi_play::record`, `qi_i18n::text`, `qi_tasks::think` ...).

pub mod app;
pub mod board;
pub mod board_model;
pub mod components;
pub mod embed;
pub mod online;
pub mod pieces;
pub mod puzzles;
pub mod screen_reader;
pub mod sound;
pub mod state;
pub mod web;
pub mod worker;
