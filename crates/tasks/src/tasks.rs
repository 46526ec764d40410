//! Work the page hands to the Web Worker besides the computer's moves: reading and writing game
//! records, and drawing QR codes. Their code (a PGN reader, SAN and WXF, a QR encoder) is
//! large and rarely needed, so it lives in the worker's download, not the page's first load.
//!
//! Requests and replies are typed values, like the computer's ([`crate::think`]); a record
//! crosses in its line form ([`crate::wire::record_to_lines`]).

use qi_rules::GameKind;

use qi_i18n::text::Lang;
use qi_play::openings::Opening;
use qi_play::record::GameRecord;
use qi_play::records::Format;
use serde::{Deserialize, Serialize};

/// One game of a file, as the list to pick from shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameEntry {
    /// Where its text is in the file's (byte offsets).
    pub range: std::ops::Range<usize>,
    /// The line it starts on.
    pub line: usize,
    /// Its tags (players, result, date, event, and any others).
    pub tags: Vec<(String, String)>,
}

impl GameEntry {
    /// A tag's value, unless it is a placeholder (`?`, `????.??.??`).
    #[must_use]
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
            .filter(|v| !v.is_empty() && !v.contains('?'))
    }
}

/// A task for the worker.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TaskRequest {
    /// Read a pasted or loaded record; errors worded in `lang`; `hint` is the game shown.
    Import {
        /// The player's language.
        #[serde(with = "crate::wire::one")]
        lang: Lang,
        /// The game shown, for texts that could be several.
        #[serde(with = "crate::wire::one")]
        hint: GameKind,
        /// The text.
        text: String,
    },
    /// Write a game in a format.
    Export {
        /// The game.
        #[serde(with = "crate::wire::one")]
        record: GameRecord,
        /// The format.
        #[serde(with = "crate::wire::one")]
        format: Format,
    },
    /// The QR code of a text.
    Qr {
        /// The text (a link).
        text: String,
    },
    /// The named opening of a game (chess and xiangqi from their standard starts).
    Opening {
        /// The game.
        #[serde(with = "crate::wire::one")]
        record: GameRecord,
    },
    /// The games of a record file, to pick one from when there are several.
    ListGames {
        /// The file's text.
        text: String,
    },
    /// The text of a record file in whatever encoding it came (see
    /// [`qi_play::records::decode`]): done here, so the page does not carry the encodings'
    /// tables.
    Decode {
        /// The file's bytes.
        bytes: Vec<u8>,
    },
    /// A written record's bytes in an encoding (see [`qi_play::records::encode`]), for a
    /// download old tools read (GBK for xiangqi programs).
    Encode {
        /// The text.
        text: String,
        /// The encoding's label (`utf-8`, `gbk`, `big5`, `utf-16le` ...).
        encoding: String,
    },
    /// Puzzles from a game for one of its players ("Puzzles from this game"): the positions
    /// where they let a win go and one move alone wins (`qi_puzzles::from_own_game`).
    Puzzles {
        /// The game.
        #[serde(with = "crate::wire::one")]
        record: GameRecord,
        /// Whether the player is the side that moves first (else the second).
        first: bool,
    },
}

/// The worker's answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TaskReply {
    /// A record was read.
    Imported {
        /// The game.
        #[serde(with = "crate::wire::one")]
        record: GameRecord,
        /// What was skipped and read on, worded, in the text's order.
        warnings: Vec<String>,
    },
    /// It could not be: why (worded), and the moves before the problem when it was in them.
    Failed {
        /// The message, with line and column.
        message: String,
        /// The game up to the problem.
        #[serde(with = "crate::wire::maybe")]
        partial: Option<GameRecord>,
    },
    /// The written record.
    Exported {
        /// The text.
        text: String,
    },
    /// A QR code: `size` modules a side (quiet zone included) and an SVG path of the dark ones.
    Qr {
        /// Modules a side.
        size: usize,
        /// The SVG path.
        path: String,
    },
    /// A file's games (see [`GameEntry`]).
    Games {
        /// In the file's order.
        games: Vec<GameEntry>,
    },
    /// A file's text and how it was read.
    Decoded {
        /// The text.
        text: String,
        /// The encoding, by its WHATWG name.
        encoding: String,
        /// How many characters could not be read.
        replaced: usize,
        /// Where the first of them is (line and column, from 1).
        first_bad: Option<(usize, usize)>,
    },
    /// A text's bytes in the encoding asked for.
    Encoded {
        /// The bytes.
        bytes: Vec<u8>,
        /// How many characters the encoding lacks (written as `&#...;`).
        unmappable: usize,
    },
    /// The game's opening: the deepest named position along its main line.
    Opening {
        /// The moves that reach it.
        ply: usize,
        /// Its name and code (ECO for chess, xqbase's ECCO for xiangqi).
        #[serde(with = "crate::wire::one")]
        opening: Opening,
    },
    /// The puzzles found in a game, each a row of the puzzle file
    /// ([`qi_play::puzzle::Puzzle::to_row`]); none when no win was let go.
    Puzzles {
        /// The rows.
        rows: Vec<String>,
    },
    /// No QR code (the text is too long for one), no opening, or an unreadable request.
    Nothing,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::tests::sample_record as record;

    #[test]
    fn requests_and_replies_read_back() {
        let requests = [
            TaskRequest::Import {
                lang: Lang::Vi,
                hint: GameKind::Gomoku,
                text: "h8 i9\nj10".into(),
            },
            TaskRequest::Export { record: record(), format: Format::ChessPgn },
            TaskRequest::Qr { text: "https://x.test/?g=AQ".into() },
            TaskRequest::Encode { text: "炮二平五\n".into(), encoding: "gbk".into() },
            TaskRequest::Puzzles { record: record(), first: false },
        ];
        for request in requests {
            assert_eq!(crate::codec::round_trip(&request), Ok(request));
        }
        let replies = [
            TaskReply::Imported { record: record(), warnings: Vec::new() },
            TaskReply::Imported {
                record: record(),
                warnings: vec!["Line 1, column 7: “\\” is no move;\tskipped.".into(), "b".into()],
            },
            TaskReply::Encoded { bytes: vec![0, 0xB7, 0xFF, b'\n'], unmappable: 2 },
            TaskReply::Failed { message: "Line 1\ncolumn".into(), partial: Some(record()) },
            TaskReply::Failed { message: "x".into(), partial: None },
            TaskReply::Exported { text: "[Event \"x\"]\n\n1. e4 *\n".into() },
            TaskReply::Qr { size: 29, path: "M4 4h1v1h-1z".into() },
            TaskReply::Puzzles { rows: vec!["aB3xZ,8/8/8/8/8/8/8/K1k5 w - - 0 1,a1a2 c1c2,1500,300,0,0,,,".into()] },
            TaskReply::Nothing,
        ];
        for reply in replies {
            assert_eq!(crate::codec::round_trip(&reply), Ok(reply));
        }
        assert!(crate::codec::from_bytes::<TaskRequest>(&[42]).is_err(), "no such task");
    }
}
