//! The text of a record file in whatever encoding it came: UTF-8 with or without its byte order
//! mark, UTF-16 (little or big end, with or without the mark), GBK/GB18030 (most xiangqi files on
//! the web: xqbase, ElephantEye, XQStudio), Big5 (Taiwan and Hong Kong tools) and Windows-1252
//! (old chess PGN). The decoding is `encoding_rs`'s (the WHATWG Encoding Standard's, as
//! browsers do it); the guessing is ours, and says what it chose.
//!
//! # How the encoding is chosen
//! 1. A byte order mark says it.
//! 2. Without one, text whose every other byte is mostly zero is UTF-16 (little end when the
//!    zeros come second).
//! 3. Bytes that are valid UTF-8 are UTF-8 (plain ASCII is too).
//! 4. Else each of GB18030, Big5 and Windows-1252 decodes it; one that decodes without error and
//!    reads the most characters of game records (piece names, 进/進 退 平, 红/紅 黑, the
//!    results) wins; GB18030 before Big5 on a tie (GBK files are far more common). Failing
//!    that, text that starts as UTF-8 beyond ASCII and then breaks is UTF-8 with damage (a
//!    file that mixes encodings); else Windows-1252 when neither Chinese reading is plausible.
//! 5. When every choice has errors, the one with the fewest is kept and the result says so
//!    ([`Decoded::replaced`]): the bytes that did not decode show as U+FFFD, and the importer's
//!    error for a move containing one names its line and column.

use encoding_rs::{BIG5, Encoding, GB18030, UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1252};

/// A record file's text and how it was read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoded {
    /// The text (U+FFFD where bytes did not decode).
    pub text: String,
    /// The encoding it was read in, by its WHATWG name (`UTF-8`, `UTF-16LE`, `UTF-16BE`, `gb18030`,
    /// `Big5`, `windows-1252`).
    pub encoding: &'static str,
    /// How many characters could not be decoded and were replaced by U+FFFD.
    pub replaced: usize,
    /// Where the first of them is: line and column (characters), from 1.
    pub first_bad: Option<(usize, usize)>,
}

impl Decoded {
    /// What went wrong, in English, for the importer's warning: `None` when every byte decoded.
    #[must_use]
    pub fn problem(&self) -> Option<String> {
        let (line, column) = self.first_bad?;
        Some(format!(
            "{} byte sequence(s) could not be read as {} (the first at line {line}, column \
             {column}); the file may mix encodings",
            self.replaced, self.encoding
        ))
    }
}

/// Characters that game records in Chinese are full of, in both simplified and traditional
/// forms: the pieces, the moves' verbs, the sides, the results, the numerals.
const RECORD_CHARACTERS: &str = "车車马馬炮砲包兵卒相象仕士帅帥将將进進退平前后後中红紅黑先胜勝负負和局\
     对對一二三四五六七八九十第回合赛賽弈棋谱譜开開编編";

/// Decodes `bytes` as the encoding they are most likely in (see the module's text).
#[must_use]
pub fn decode(bytes: &[u8]) -> Decoded {
    if let Some((encoding, bom)) = Encoding::for_bom(bytes) {
        return decode_as(encoding, &bytes[bom..]);
    }
    if let Some(encoding) = utf16_without_mark(bytes) {
        return decode_as(encoding, bytes);
    }
    // UTF-8 with letters beyond ASCII, then bytes that are not: a file that mixes encodings
    // (or a damaged one), unless a Chinese reading below reads it all (GBK's byte pairs often
    // look like UTF-8 for a few characters: 全 is C8 AB, UTF-8's U+022B).
    let mixed = match std::str::from_utf8(bytes) {
        Ok(_) => return decode_as(UTF_8, bytes),
        Err(error) => !bytes[..error.valid_up_to()].is_ascii(),
    };
    let candidates = [GB18030, BIG5, WINDOWS_1252].map(|encoding| decode_as(encoding, bytes));
    let score =
        |decoded: &Decoded| decoded.text.chars().filter(|c| RECORD_CHARACTERS.contains(*c)).count();
    // A reading that needs private-use characters (which GB18030 maps some byte pairs to) is
    // not one a record was written in.
    let private =
        |decoded: &Decoded| decoded.text.chars().any(|c| ('\u{E000}'..='\u{F8FF}').contains(&c));
    let [gb, big5, latin] = candidates;
    let clean: Vec<&Decoded> =
        [&gb, &big5].into_iter().filter(|d| d.replaced == 0 && !private(d)).collect();
    let best_chinese = clean.into_iter().max_by_key(|d| (score(d), d.encoding == "gb18030"));
    match best_chinese {
        Some(chinese) if score(chinese) > 0 => chinese.clone(),
        // Read as UTF-8, the damage shown where it is.
        _ if mixed => decode_as(UTF_8, bytes),
        // No Chinese reading is plausible: a Latin-1 chess file (Windows-1252 decodes every
        // byte) unless a Chinese reading decoded cleanly and Latin-1 would be control noise.
        Some(chinese) if latin.text.chars().any(|c| ('\u{80}'..='\u{9f}').contains(&c)) => {
            chinese.clone()
        }
        Some(_) => latin,
        None => [gb, big5, latin]
            .into_iter()
            .min_by_key(|d| d.replaced)
            .unwrap_or_else(|| decode_as(UTF_8, bytes)),
    }
}

fn decode_as(encoding: &'static Encoding, bytes: &[u8]) -> Decoded {
    let (text, had_errors) = encoding.decode_without_bom_handling(bytes);
    let replaced = if had_errors { text.chars().filter(|&c| c == '\u{FFFD}').count() } else { 0 };
    let first_bad = if had_errors { place_of(&text, '\u{FFFD}') } else { None };
    Decoded { text: text.into_owned(), encoding: encoding.name(), replaced, first_bad }
}

/// The line and column (characters, from 1) of the first `wanted` in `text`.
fn place_of(text: &str, wanted: char) -> Option<(usize, usize)> {
    text.lines().enumerate().find_map(|(index, line)| {
        line.chars().position(|c| c == wanted).map(|column| (index + 1, column + 1))
    })
}

/// UTF-16 without a byte order mark: an even number of bytes, at least 4, with most of the
/// bytes on one side of each pair zero (ASCII text) and few on the other.
fn utf16_without_mark(bytes: &[u8]) -> Option<&'static Encoding> {
    if bytes.len() < 4 || !bytes.len().is_multiple_of(2) {
        return None;
    }
    let pairs = bytes.len() / 2;
    let zero_second = bytes.chunks_exact(2).filter(|pair| pair[1] == 0 && pair[0] != 0).count();
    let zero_first = bytes.chunks_exact(2).filter(|pair| pair[0] == 0 && pair[1] != 0).count();
    // Records are mostly tags, numbers and spaces: in UTF-16 at least a third of the pairs
    // hold an ASCII character.
    if zero_second * 3 >= pairs && zero_first * 10 < pairs {
        Some(UTF_16LE)
    } else if zero_first * 3 >= pairs && zero_second * 10 < pairs {
        Some(UTF_16BE)
    } else {
        None
    }
}

/// `text` in `encoding` (by its WHATWG label: `utf-8`, `gbk`, `gb18030`, `big5`, `utf-16le`
/// ...), for export; `None` for a label that names no encoding the browser's standard has.
/// Characters the encoding lacks are written as HTML numeric references (`&#1234;`), as the
/// standard does.
#[must_use]
pub fn encode(text: &str, label: &str) -> Option<Vec<u8>> {
    let encoding = Encoding::for_label(label.trim().as_bytes())?;
    // The standard's UTF-16 "encoders" write UTF-8; write UTF-16 by hand, with its mark.
    if encoding == UTF_16LE || encoding == UTF_16BE {
        let little = encoding == UTF_16LE;
        let mut out = if little { vec![0xFF, 0xFE] } else { vec![0xFE, 0xFF] };
        for unit in text.encode_utf16() {
            out.extend(if little { unit.to_le_bytes() } else { unit.to_be_bytes() });
        }
        return Some(out);
    }
    let (bytes, _, _) = encoding.encode(text);
    Some(bytes.into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    const RECORD: &str =
        "[Event \"中炮对屏风马\"]\n[Red \"林\"]\n1. 炮二平五 马８进７ 2. 马二进三 车９平８ *\n";
    const TRADITIONAL: &str =
        "[Event \"中炮對屏風馬\"]\n1. 炮二平五 馬８進７ 2. 馬二進三 車９平８ *\n";

    #[test]
    fn utf8_with_and_without_its_mark() {
        let plain = decode(RECORD.as_bytes());
        assert_eq!((plain.text.as_str(), plain.encoding, plain.replaced), (RECORD, "UTF-8", 0));
        assert_eq!(plain.problem(), None);
        let mut marked = vec![0xEF, 0xBB, 0xBF];
        marked.extend_from_slice(RECORD.as_bytes());
        assert_eq!(decode(&marked).text, RECORD, "the mark is not part of the text");
    }

    #[test]
    fn utf16_either_end_with_or_without_its_mark() {
        for label in ["utf-16le", "utf-16be"] {
            let bytes = encode(RECORD, label).unwrap();
            let decoded = decode(&bytes);
            assert_eq!(decoded.text, RECORD, "{label} with its mark");
            let decoded = decode(&bytes[2..]);
            assert_eq!(decoded.text, RECORD, "{label} without it");
            assert_eq!(decoded.encoding.to_ascii_lowercase(), label);
        }
    }

    #[test]
    fn gbk_and_big5_are_told_apart() {
        let gbk = encode(RECORD, "gbk").unwrap();
        assert!(std::str::from_utf8(&gbk).is_err());
        let decoded = decode(&gbk);
        assert_eq!((decoded.text.as_str(), decoded.encoding), (RECORD, "gb18030"));
        let big5 = encode(TRADITIONAL, "big5").unwrap();
        let decoded = decode(&big5);
        assert_eq!((decoded.text.as_str(), decoded.encoding), (TRADITIONAL, "Big5"));
        // Traditional characters in GBK (old Hong Kong tools write them so) stay GBK.
        let gbk_traditional = encode(TRADITIONAL, "gbk").unwrap();
        assert_eq!(decode(&gbk_traditional).text, TRADITIONAL);
    }

    #[test]
    fn latin1_chess_files_read_as_windows_1252() {
        let pgn = "[White \"Réti, Richard\"]\n[Black \"Nimzowitsch, Aron\"]\n1. Nf3 d5 *\n";
        let bytes = encode(pgn, "windows-1252").unwrap();
        let decoded = decode(&bytes);
        assert_eq!((decoded.text.as_str(), decoded.encoding), (pgn, "windows-1252"));
    }

    #[test]
    fn bytes_that_decode_in_nothing_are_replaced_and_counted() {
        // Half UTF-8, half GBK: no single reading decodes all of it.
        let mut mixed = "1. 炮二平五 ".as_bytes().to_vec();
        mixed.extend(encode("马８进７ *", "gbk").unwrap());
        let decoded = decode(&mixed);
        assert_eq!(decoded.encoding, "UTF-8");
        assert!(decoded.text.starts_with("1. 炮二平五 "), "{decoded:?}");
        assert_eq!(decoded.first_bad, Some((1, 9)), "{decoded:?}");
        let problem = decoded.problem().unwrap();
        assert!(problem.contains("line 1, column 9"), "{problem}");
        // Binary noise never panics and always gives some text.
        let noise: Vec<u8> = (0..=255u8).cycle().take(4096).collect();
        let decoded = decode(&noise);
        assert!(!decoded.text.is_empty());
    }

    #[test]
    fn unknown_export_labels_are_refused() {
        assert!(encode("x", "klingon").is_none());
        assert_eq!(encode("炮", "gbk").unwrap(), vec![0xC5, 0xDA]);
        assert_eq!(encode("炮", "utf-8").unwrap(), "炮".as_bytes());
    }
}
