//! Any text as a link's query (`qi_play::link`: the readable `game=…&moves=…` form and the
//! compact `g=<base64url>` one), as the app reads it from the address bar. Nothing may panic; an
//! accepted link opens a game whose moves replay, and whose own links — readable and compact —
//! open the same game again without error (the compact one with its whole tree and view), and
//! are themselves again when made from the game they open.
#![no_main]

use libfuzzer_sys::fuzz_target;
use qi_play::link::{Query, compact, decode_compact, read, readable};
use qi_rules::GameKind;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let fallback = GameKind::ALL[data.len() % GameKind::ALL.len()];
    // A compact payload on its own, as the fuzzer finds it.
    if let Some((record, _complete)) = decode_compact(text) {
        assert!(record.replay(usize::MAX).error.is_none());
        let again = decode_compact(&qi_play::link::encode_compact(&record)).expect("reads back");
        assert_eq!(again.0.moves, record.moves);
        assert_eq!(again.0.tree(), record.tree());
    }
    let Some(opened) = read(&Query::parse(text), fallback) else { return };
    let record = &opened.record;
    assert!(record.replay(usize::MAX).error.is_none(), "an opened link replays");
    for link in [readable(record, &opened.view), compact(record, &opened.view)] {
        let again = read(&Query::parse(&link), fallback).expect("a written link holds a game");
        assert_eq!(again.error, None, "{link}");
        assert_eq!(again.record.kind, record.kind, "{link}");
        assert_eq!(again.record.start_game().position(), record.start_game().position(), "{link}");
        assert_eq!(again.record.moves, record.moves, "{link}");
        assert_eq!(again.record.ending, record.ending, "{link}");
        if link.starts_with("g=") {
            // The compact link keeps the whole tree and the view; the readable one the main
            // line, and a position in a variation as where it leaves the main line.
            assert_eq!(again.record.tree(), record.tree(), "{link}");
            assert_eq!(again.view, opened.view, "{link}");
        }
        // The link of the game it opens is itself.
        let same = if link.starts_with("g=") {
            compact(&again.record, &again.view)
        } else {
            readable(&again.record, &again.view)
        };
        assert_eq!(same, link);
    }
});
