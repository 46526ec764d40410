//! `qi record`: game records on the command line, with the app's own reader and writer
//! (`qi_play::records`).
//!
//! - `qi record check FILE...`: for each file its encoding and its games; for each game its
//!   format, the moves read, and where it stopped and why. Exit status 1 when any game stopped
//!   early, 2 on bad arguments or a file that cannot be read.
//! - `qi record convert --to FORMAT [--encoding LABEL] [--game N] FILE`: the game (the `N`th,
//!   from 1; every game when not given) written in `FORMAT` (`chess-pgn`, `xiangqi-chinese`,
//!   `gomoku-moves`, ...; see `qi record formats`) to standard output, in the encoding `LABEL`
//!   (`utf-8` unless said: `gbk` for old xiangqi tools, `big5`, `utf-16le` ...). A game that
//!   stops early is written as far as it read, and the exit status is 1.

use std::process::ExitCode;

use qi_i18n::text::Lang;
use qi_play::records::{self, Format, GameSpan, Imported, RecordError};

/// The largest file read (the importer's own limit on a text; a file of many games is read
/// game by game under it).
const MAX_FILE_BYTES: u64 = 64 * 1024 * 1024;

const USAGE: &str = "usage: qi record check FILE... | qi record convert --to FORMAT [--encoding LABEL] [--game N] FILE | qi record formats";

/// Runs `qi record ...` and says how it went.
pub fn main(args: &[String]) -> ExitCode {
    let outcome = match args.split_first() {
        Some((command, rest)) if command == "check" => check(rest),
        Some((command, rest)) if command == "convert" => convert(rest),
        Some((command, _)) if command == "formats" => Ok((formats(), Vec::new(), true)),
        Some((command, _)) => Err(format!("record {command}: unknown (check, convert or formats)")),
        None => Err(USAGE.to_owned()),
    };
    match outcome {
        Ok((output, bytes, ok)) => {
            let mut stdout = std::io::stdout().lock();
            let _ = std::io::Write::write_all(&mut stdout, output.as_bytes());
            let _ = std::io::Write::write_all(&mut stdout, &bytes);
            if ok { ExitCode::SUCCESS } else { ExitCode::from(1) }
        }
        Err(message) => {
            eprintln!("qi: {message}");
            ExitCode::from(2)
        }
    }
}

fn formats() -> String {
    let mut text = String::from("formats (for --to):\n");
    for format in Format::ALL {
        text.push_str(&format!("  {:<16} {}\n", format.name(), format.game().name()));
    }
    text
}

/// A file's text, read in the encoding it came in.
/// Reads a record file whole (at most 64 MB), in whatever encoding it came.
pub(crate) fn read(path: &str) -> Result<records::Decoded, String> {
    let metadata = std::fs::metadata(path).map_err(|e| format!("{path}: {e}"))?;
    if metadata.len() > MAX_FILE_BYTES {
        return Err(format!(
            "{path}: {} bytes, more than the {MAX_FILE_BYTES} read",
            metadata.len()
        ));
    }
    let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    Ok(records::decode(&bytes))
}

/// A game's players, result, date and event, as far as its tags say.
fn describe(span: &GameSpan) -> String {
    // PGN's placeholders (`?`, `????.??.??`, a result `*`) say nothing.
    let known =
        |name: &str| span.tag(name).filter(|v| !v.is_empty() && !v.contains('?') && *v != "*");
    let first = known("White").or(known("Red"));
    let second = known("Black");
    let mut parts = Vec::new();
    if first.is_some() || second.is_some() {
        parts.push(format!("{} - {}", first.unwrap_or("?"), second.unwrap_or("?")));
    }
    parts.extend(["Result", "Date", "Event"].into_iter().filter_map(known).map(str::to_owned));
    parts.join(", ")
}

/// The error as the importer words it, with its line counted in the whole file.
fn stopped(error: &RecordError, span: &GameSpan) -> String {
    let mut shifted = error.clone();
    shifted.line += span.line - 1;
    qi_i18n::records::record_error(Lang::En, &shifted)
}

type Outcome = Result<(String, Vec<u8>, bool), String>;

fn check(paths: &[String]) -> Outcome {
    if paths.is_empty() {
        return Err(format!("record check: no file given ({USAGE})"));
    }
    let mut out = String::new();
    let mut all_read = true;
    for path in paths {
        let decoded = read(path)?;
        let spans = records::games(&decoded.text);
        out.push_str(&format!("{path}: {}, {} game(s)\n", decoded.encoding, spans.len()));
        if let Some(problem) = decoded.problem() {
            out.push_str(&format!("  warning: {problem}\n"));
        }
        for (index, span) in spans.iter().enumerate() {
            let text = &decoded.text[span.range.clone()];
            let about = describe(span);
            let about = if about.is_empty() { String::new() } else { format!(" ({about})") };
            match records::import(text, None) {
                Ok(Imported { record, format, warnings, .. }) => {
                    let kind = record.kind;
                    out.push_str(&format!(
                        "  game {} at line {}{about}: {}, {} moves read\n",
                        index + 1,
                        span.line,
                        format.name(),
                        record.moves.len()
                    ));
                    for mut warning in warnings {
                        warning.line += span.line - 1;
                        let said = qi_i18n::records::record_warning(Lang::En, kind, &warning);
                        out.push_str(&format!("    skipped: {said}\n"));
                    }
                }
                Err(error) => {
                    all_read = false;
                    let read = error.partial.as_ref().map_or(0, |partial| partial.moves.len());
                    out.push_str(&format!(
                        "  game {} at line {}{about}: {read} moves read, then stopped: {}\n",
                        index + 1,
                        span.line,
                        stopped(&error, span)
                    ));
                }
            }
        }
    }
    Ok((out, Vec::new(), all_read))
}

fn convert(args: &[String]) -> Outcome {
    let (mut to, mut encoding, mut game, mut path) = (None, "utf-8".to_owned(), None, None);
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        let mut value = |name: &str| {
            iter.next().cloned().ok_or_else(|| format!("record convert: {name} needs a value"))
        };
        match arg.as_str() {
            "--to" => to = Some(value("--to")?),
            "--encoding" => encoding = value("--encoding")?,
            "--game" => {
                let n = value("--game")?;
                let n: usize =
                    n.parse().ok().filter(|&n| n >= 1).ok_or_else(|| {
                        format!("record convert: --game {n}: a game number from 1")
                    })?;
                game = Some(n);
            }
            other if other.starts_with("--") => {
                return Err(format!("record convert: {other}: unknown option ({USAGE})"));
            }
            other if path.is_none() => path = Some(other.to_owned()),
            other => return Err(format!("record convert: {other}: one file at a time")),
        }
    }
    let to = to.ok_or_else(|| format!("record convert: --to FORMAT is needed ({USAGE})"))?;
    let format = Format::from_name(&to).ok_or_else(|| {
        format!("record convert: --to {to}: no such format (see qi record formats)")
    })?;
    let path = path.ok_or_else(|| format!("record convert: no file given ({USAGE})"))?;
    if records::encode("", &encoding).is_none() {
        return Err(format!("record convert: --encoding {encoding}: no such encoding"));
    }
    let decoded = read(&path)?;
    let spans = records::games(&decoded.text);
    let chosen: Vec<&GameSpan> = match game {
        Some(n) => vec![spans.get(n - 1).ok_or_else(|| {
            format!("record convert: --game {n}: {path} has {} game(s)", spans.len())
        })?],
        None => spans.iter().collect(),
    };
    let mut text = String::new();
    let mut all_read = true;
    for span in chosen {
        let record = match records::import(&decoded.text[span.range.clone()], None) {
            Ok(imported) => imported.record,
            Err(error) => {
                all_read = false;
                eprintln!("qi: {path}: game at line {}: {}", span.line, stopped(&error, span));
                match error.partial {
                    Some(partial) => *partial,
                    None => continue,
                }
            }
        };
        if record.kind != format.game() {
            return Err(format!(
                "record convert: {path}: a {} game cannot be written as {to}",
                record.kind.name()
            ));
        }
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(&records::export(&record, format));
        if !text.ends_with('\n') {
            text.push('\n');
        }
    }
    let bytes = records::encode(&text, &encoding).unwrap_or_default();
    Ok((String::new(), bytes, all_read))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(name: &str, bytes: &[u8]) -> String {
        let dir = std::env::temp_dir().join(format!("qi-record-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        path.to_string_lossy().into_owned()
    }

    #[test]
    fn check_says_each_games_format_moves_and_where_one_stopped() {
        let pgn = "[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n\
                   [Event \"Bad\"]\n\n1. e4 e5 2. Ke3 *\n";
        let path = file("two.pgn", pgn.as_bytes());
        let (out, _, ok) = check(std::slice::from_ref(&path)).unwrap();
        assert!(!ok, "a game stopped early");
        assert!(out.contains("UTF-8, 2 game(s)"), "{out}");
        assert!(out.contains("game 1 at line 1 (A - B, 1-0): chess-pgn, 2 moves read"), "{out}");
        assert!(out.contains("game 2 at line 7 (Bad): 2 moves read, then stopped: Line 9, column 13: move 2. “Ke3”"), "{out}");
    }

    #[test]
    fn convert_writes_gbk_chinese_notation_from_wxf_and_back() {
        let wxf = "[Variant \"xiangqi\"]\n[Format \"WXF\"]\n\n1. C2.5 H8+7 *\n";
        let path = file("game.pgn", wxf.as_bytes());
        let args: Vec<String> =
            ["--to", "xiangqi-chinese", "--encoding", "gbk", &path].map(String::from).to_vec();
        let (_, bytes, ok) = convert(&args).unwrap();
        assert!(ok);
        let back = records::decode(&bytes);
        assert_eq!(back.encoding, "gb18030");
        assert!(back.text.contains("炮二平五"), "{}", back.text);
        // And that file checks as read through.
        let gbk = file("game-gbk.pgn", &bytes);
        let (out, _, ok) = check(&[gbk]).unwrap();
        assert!(ok && out.contains("gb18030, 1 game(s)") && out.contains("2 moves read"), "{out}");
    }

    #[test]
    fn bad_arguments_are_named() {
        let path = file("one.pgn", b"1. e4 *\n");
        for (args, said) in [
            (vec!["--to", "klingon", path.as_str()], "no such format"),
            (vec!["--to", "chess-pgn", "--encoding", "klingon", path.as_str()], "no such encoding"),
            (vec!["--to", "chess-pgn", "--game", "0", path.as_str()], "a game number from 1"),
            (vec!["--to", "chess-pgn", "--game", "2", path.as_str()], "has 1 game(s)"),
            (vec!["--to", "xiangqi-pgn", path.as_str()], "cannot be written as xiangqi-pgn"),
            (vec!["--to", "chess-pgn"], "no file given"),
            (vec!["--to", "chess-pgn", "/nonexistent/file.pgn"], "/nonexistent/file.pgn"),
        ] {
            let args: Vec<String> = args.into_iter().map(String::from).collect();
            let error = convert(&args).unwrap_err();
            assert!(error.contains(said), "{args:?}: {error}");
        }
        assert!(check(&[]).unwrap_err().contains("no file given"));
    }

    #[test]
    fn a_hundred_megabyte_file_is_refused_unread_and_warnings_are_listed() {
        let path = file("huge.pgn", b"");
        // Sparse: the size is what is checked, before anything is read.
        std::fs::OpenOptions::new().write(true).open(&path).unwrap().set_len(100 << 20).unwrap();
        let error = check(std::slice::from_ref(&path)).unwrap_err();
        assert!(error.contains("104857600 bytes, more than the 67108864 read"), "{error}");
        std::fs::remove_file(&path).unwrap();
        let stray = file("stray.pgn", b"1. e4 | e5 *\n");
        let (out, _, ok) = check(&[stray]).unwrap();
        assert!(ok, "{out}");
        assert!(out.contains("    skipped: Line 1, column 7: “|” is no move; skipped."), "{out}");
    }
}
