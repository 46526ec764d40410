//! Every word Qi shows, in English, 简体中文 and Tiếng Việt: the app's own texts ([`text`]), the
//! rules' reasons for a refused move and a game's end ([`rules`]), and why a record could not
//! be read ([`records`]). Pure Rust over the rules and the records, so the page and the Web
//! Worker (which reads records) share one table.

pub mod fold;
pub mod puzzles;
pub mod records;
pub mod rules;
pub mod speech;
pub mod text;
