//! Arbitrary text through the chess position and move readers (see `text_common.rs`).
#![no_main]

#[path = "text_common.rs"]
mod text_common;

use libfuzzer_sys::fuzz_target;
use qi_rules::chess::ChessGame;

fuzz_target!(|data: &[u8]| text_common::exercise::<ChessGame>(data));
