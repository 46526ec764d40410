//! Any bytes as an opened record file, or text as a pasted record (`qi_play::records::import`: PGN and its xiangqi,
//! banqi and gomoku kin, WXF, ICCS, DhtmlXQ, `.psq`, gomoku move strings, position strings),
//! with the game the app has selected taken from the input's length. Nothing may panic; a record
//! that reads replays to its end, and every format of its game writes it to text that reads back
//! to the same game — the whole tree (variations, comments, marks: every variation that can be
//! replayed), tags and result where the format keeps them, and the same text again when written
//! a second time.
#![no_main]

use libfuzzer_sys::fuzz_target;
use qi_play::Line;
use qi_play::record::GameRecord;
use qi_play::records::{Format, export, import};
use qi_rules::GameKind;

fuzz_target!(|data: &[u8]| {
    // An opened file's bytes are decoded as the app decodes them (UTF-8, UTF-16 by its mark,
    // GB18030 for old Chinese files); pasted text is UTF-8 already and decodes to itself.
    let decoded = qi_play::records::decode(data);
    let text = decoded.text.as_str();
    let hints = [
        None,
        Some(GameKind::Chess),
        Some(GameKind::Xiangqi),
        Some(GameKind::Banqi),
        Some(GameKind::Gomoku),
    ];
    let Ok(imported) = import(text, hints[data.len() % hints.len()]) else { return };
    let record = &imported.record;
    let replayed = record.replay(usize::MAX);
    assert!(replayed.error.is_none(), "an imported record replays: {:?}", replayed.error);
    for &format in Format::for_game(record.kind) {
        let written = export(record, format);
        if format == Format::GomokuPsq && !freestyle(record) {
            // A `.psq` does not say the rule (the tournament does): it reads back as freestyle,
            // where the same stones may end the game differently.
            continue;
        }
        let back = match import(&written, Some(record.kind)) {
            Ok(back) => back.record,
            Err(error) => panic!("{format:?} does not read back: {error}\n{written}"),
        };
        if format.is_position() {
            let end = replayed.game.position();
            assert_eq!(back.start_game().position(), end, "{format:?}\n{written}");
            continue;
        }
        assert_eq!(back.kind, record.kind);
        assert_eq!(back.start_game().position(), record.start_game().position(), "{format:?}");
        if matches!(format, Format::GomokuPsq | Format::XiangqiWxfFile) {
            // The moves alone (a `.psq` keeps the stones, not an opening's choices).
            assert_eq!(stones(&back), stones(record), "{format:?}\n{written}");
            continue;
        }
        assert_eq!(back.moves, record.moves, "{format:?}\n{written}");
        assert_eq!(back.ending, record.ending, "{format:?}\n{written}");
        if format == Format::GomokuMoves {
            continue;
        }
        // The writer puts the standard tags in their customary order: the same tags, not
        // necessarily in the order the text had them.
        assert_eq!(sorted(&back.tags), sorted(&record.tags), "{format:?}\n{written}");
        // A banqi variation that turns up a piece the deal leaves unknown cannot be replayed,
        // and is not written (see `records::tests::hostile`): the tree of what can be played.
        let mut playable = record.clone();
        playable.keep_playable_variations();
        let mut expected = playable.tree();
        as_written(&mut expected);
        assert_eq!(back.tree(), expected, "{format:?}\n{written}");
        assert_eq!(export(&back, format), written, "{format:?}");
    }
});

/// `line` as the PGN writers keep it: a comment holding `}` cannot stand in braces, so it is
/// written as `;` comments, one a line, trimmed, its blank lines left out (`pgn::Wrapper::comment`).
fn as_written(line: &mut Line) {
    line.comments.retain(|_, comment| {
        if comment.contains('}') {
            let lines: Vec<&str> =
                comment.split(['\n', '\r']).map(str::trim).filter(|l| !l.is_empty()).collect();
            *comment = lines.join("\n");
        }
        !comment.is_empty()
    });
    line.variations.retain(|_, variations| {
        variations.iter_mut().for_each(as_written);
        true
    });
}

fn sorted(tags: &[(String, String)]) -> Vec<(String, String)> {
    let mut tags = tags.to_vec();
    tags.sort();
    tags
}

fn freestyle(record: &GameRecord) -> bool {
    qi_rules::any::canonical_rules(record.kind, &record.rules)
        .is_ok_and(|rules| rules.contains("rule=freestyle"))
}

/// The main line's moves that are stones (gomoku) or all of them (the other games).
fn stones(record: &GameRecord) -> Vec<String> {
    match record.kind {
        GameKind::Gomoku => {
            record.moves.iter().filter(|m| m.parse::<qi_rules::Cell>().is_ok()).cloned().collect()
        }
        _ => record.moves.clone(),
    }
}
