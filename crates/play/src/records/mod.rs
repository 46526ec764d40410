//! Game records in and out: PGN and FEN for chess, their xiangqi counterparts, a PGN-style record
//! for banqi that carries the whole deal, and gomoku move strings — all to and from
//! [`GameRecord`].
//!
//! # Formats ([`Format`])
//! - **PGN-style records** (every game): a tag section (`[Name "value"]` pairs, the Seven Tag
//!   Roster first on export) and the moves with move numbers, `{...}` and `;` comments and a
//!   result token (`1-0`, `0-1`, `1/2-1/2`, `*`). Chess writes SAN, xiangqi WXF, gomoku points,
//!   banqi squares with each flip's piece (see [`banqi`](self#banqi)). Lines are wrapped at 80
//!   columns. A comment is written `{...}` as it is (line breaks included), or, when it holds a
//!   `}`, as `;` comments, one per line (losing blank lines and white space at line ends).
//!   `White` and `Black` name the first and second player in every game. The tags that describe
//!   the game itself are written from the record and not kept in [`GameRecord::tags`]: `Variant`
//!   (`Chess960`, `xiangqi`, `banqi`, `gomoku`; none for standard chess), `SetUp` and `FEN` (the
//!   start position, when it is not the standard one; always for banqi), `Rules` (the record's
//!   `key=value,...` rule list, for xiangqi, banqi and gomoku), `Format` (`WXF`, xiangqi) and
//!   `Result` and `Termination` (from the game's outcome, else from [`GameRecord::ending`]: `*`
//!   while it goes on; `Termination` is `normal` for a resignation or an agreed draw, `time
//!   forfeit` for a flag, and absent otherwise; on import a result the moves do not reach
//!   becomes the record's ending, see [`Ending::from_pgn`](crate::record::Ending::from_pgn)).
//!   The first player's win is `1-0` in every game
//!   (White, Red, Black in gomoku, the first player in banqi).
//! - **Other programs' layouts**: xiangqi as ICCS coordinates in a PGN-style record
//!   (`[Format "ICCS"]`, `H2-E2`) and in the WXF file layout; gomoku as Gomocup's `.psq`.
//! - **Positions**: chess FEN, xiangqi FEN (as Fairy-Stockfish writes it), the banqi and gomoku
//!   position strings of `qi_rules`. Export writes the position after the last move; import
//!   gives a record that starts there, with no moves.
//! - **Gomoku move strings**: `h8i9j10`; on import also with spaces or commas between points
//!   and in upper case. When the rules are not the defaults, the game does not start on the
//!   empty board, or it ended in a way the moves do not show, export puts a header line of tags
//!   before the moves: `[Variant "gomoku"] [Rules "size=19,rule=renju"]`, with `Result` and
//!   `Termination` for a resignation or a flag. Tags and comments are not written.
//!
//! # Import
//! [`import`] takes pasted or loaded text (at most [`MAX_INPUT`] bytes) and finds the format
//! itself:
//! - text whose first field holds a `/` is a position; the number of ranks tells the game
//!   (8 chess, 10 xiangqi, 4 banqi, 15 or 19 gomoku), else the hint does. The rule options
//!   are the defaults, except where the position needs others: a chess FEN whose castling
//!   rights only Chess960 has, a banqi chain capture in progress (`chain=true`), a gomoku board
//!   of 19 (`size=19`) or one that only `standard` or `renju` allows (an overline);
//! - a chess EPD line reads as its position (the `hmvc` and `fmvn` operations give the clocks);
//! - another program's layout is written out as a PGN-style record first (`foreign.rs`): the WXF
//!   file layout (`FORMAT WXF` ... `START{` ... `}END`, PlayOK's xiangqi export), DhtmlXQ/UBB
//!   blocks (`[DhtmlXQ_movelist]7747...`, with their variations and comments), Gomocup's `.psq`
//!   and gomoku coordinate pairs (`8,8 9,9`); errors and warnings still name the original's
//!   lines and columns;
//! - anything else is read as a PGN-style record (a bare list of moves is one without tags).
//!   PlayOK's gomoku (`[GameType "61,15"]`) names its players by their stones' colour; they are
//!   turned into Qi's first and second player, and a swap's colour choice among the moves
//!   (`black`) is kept as a comment.
//!   The game is the `Variant` tag's (or a `Game "Chinese Chess"` tag's), else the one the `FEN`
//!   tag's shape says, else the first that reads every move among: the caller's hint, gomoku
//!   when the moves are all points and unnumbered, then chess, xiangqi, gomoku and banqi.
//!   When none reads them all, the error is the one that read furthest.
//!
//! What the reader passes over and reads on is in [`Imported::warnings`]: stray characters
//! among the moves (`\\`, `|`, a lone `}`, skipped as python-chess skips them), the rest of a
//! variation whose move does not read, a gomoku opening choice.
//!
//! Only the first game of a file with several is read ([`Imported::more_games`] says there were
//! more; [`games`] lists them). The whole move tree is kept: variations `( ... )` to any depth (up to
//! [`crate::movetext::MAX_DEPTH`] levels; deeper ones are skipped), comments before and after
//! moves (several at one place joined by a line break, each trimmed), NAGs (`$14`) and move-suffix
//! marks (`!?`, kept as their NAG), and lichess's `[%cal Ge2e4]` and `[%csl Rd5]` commands in
//! comments, which become arrows and circles (other commands, `[%eval]`, `[%clk]`, stay in the
//! comment's text). A move a variation can't play skips the rest of that variation; the main line
//! reads on. Export writes the tree back the same way (marks as `$n`, shapes as `[%csl]` and
//! `[%cal]` at the start of the comment), so export then import loses nothing.
//! Move numbers are skipped, not checked. Chess moves may be SAN (also `0-0`, `e8Q`, a
//! missing or extra capture mark) or UCI; xiangqi moves WXF (`C2.5`, `C2=5`, `+C=5`, `33=4`) or
//! coordinates (`h3e3`; with `[Format "ICCS"]`, ICCS as `H2-E2`, ranks from 0). Standard
//! chess `FEN` tags that only Chess960 can read (castling with a rook off the a/h files) make
//! the game Chess960. Placeholder Seven Tag Roster values (`?`, `????.??.??`) are not kept.
//!
//! # Code
//! The PGN syntax and the move tree are shared (`pgn`, `pgn_lexer`, `reader`); what each game
//! adds (how a move word reads, the tags that describe it, a record's default start, banqi's
//! flip annotations and the deal they teach) is its module's `Dialect` (`dialect`), chosen by
//! `for_game`. The reader knows no game; `import` finds the game and drives the reader through
//! the dialect.
//!
//! A problem gives a [`RecordError`] with the line and column of the offending token. When the
//! problem lies in the moves, [`RecordError::partial`] holds the record read so far: the tags,
//! the longest legal prefix of the main line and its comments, for an app that wants to offer it.
//!
//! # Banqi
//! A banqi record is PGN-shaped, and complete: the deal and every move.
//!
//! ```text
//! [Event "?"]
//! [Site "?"]
//! [Date "????.??.??"]
//! [Round "?"]
//! [White "?"]
//! [Black "?"]
//! [Result "*"]
//! [Variant "banqi"]
//! [FEN "*R*b*B*C*B*p*K*P/*N*n*p*c*P*k*p*r/*P*P*C*N*a*b*p*P/*R*p*n*r*a*A*A*c 1 - 0 - -"]
//! [Rules "ranks=taiwan,chain=false,rush=false,capture_hidden=false,draw=40"]
//!
//! 1. a4=R b4=b 2. a4-a3 b3=P 3. a3xb3 ... *
//! ```
//!
//! - `Variant` is `banqi` (any case). `White` and `Black` name the first and second player.
//! - `FEN` is the position at the start, in the six-field position string of `qi_rules::banqi`:
//!   ranks 4 to 1 separated by `/`, files `a` to `h`; a digit for empty squares; a face-up piece
//!   as its letter, `K A B R N C P` (general, advisor, elephant, chariot, horse, cannon, soldier;
//!   red upper case, black lower case); a face-down piece as `*` and its letter; then the side to
//!   move (`1`, `2`), the first player's colour (`r`, `b`, `-` before the first flip), the plies
//!   since the last flip or capture, the pieces behind `?` squares (`-`) and the square of a
//!   chain capture in progress (`-`). Export always writes it with every face-down piece's
//!   identity, so the tag holds the whole deal.
//! - `Rules` is the rule list: `ranks=taiwan|hongkong`, `chain`, `rush`, `capture_hidden`
//!   (`true`/`false`), `draw=<plies>`. Missing keys take their defaults.
//! - The moves, one token per ply: a flip is the square, `=` and the letter of the piece it
//!   turned up: `c3=R`, `d2=k`. A step is `c3-c4`, a capture `c3xc4` (`c3c4` is read too). A
//!   cannon capturing a face-down piece (`capture_hidden=true`) names the piece it took:
//!   `c3xc6=p`. `stop` ends a chain capture; each capture of a chain is its own ply.
//! - Move numbers: `N.` before the first player's turn, `N...` before the second player's ply
//!   when it opens the game or follows a comment; `N` counts the first player's turns from 1. A
//!   turn may hold several plies (a chain). Numbers may be left out; import does not check them.
//! - The result token: `1-0` the first player won, `0-1` the second, `1/2-1/2` a draw, `*` not
//!   over.
//!
//! Import checks every annotation against the deal: a different piece is a
//! [`FlipMismatch`](RecordErrorKind::FlipMismatch), an annotation on a move that turns nothing
//! up is [`NothingRevealed`](RecordErrorKind::NothingRevealed). A deal may leave squares
//! unknown (`?`, with the pool of what they hide): each such square's piece is then taken from
//! the annotation of the move that reveals it (a missing one is an illegal move,
//! `FlipResultUnknown`; one not left in the pool `FlipResultImpossible`), and the imported
//! record's start names it as `*X`. A record with no `FEN` tag starts with every square unknown;
//! the flips then give as much of the deal as the game uncovered.

#![warn(missing_docs)]

mod banqi;
mod chess;
mod dhtmlxq;
mod dialect;
mod encoding;
mod error;
mod foreign;
mod gomoku;
mod import;
mod pgn;
mod pgn_lexer;
mod psq;
mod reader;
/// The move number of the first move: the FEN's for chess and xiangqi, else 1.
pub(crate) fn start_number(start: &qi_rules::any::AnyGame) -> u32 {
    match start.kind() {
        qi_rules::GameKind::Chess | qi_rules::GameKind::Xiangqi => start
            .position()
            .split_whitespace()
            .nth(5)
            .and_then(|n| n.parse().ok())
            .unwrap_or(1)
            .max(1),
        qi_rules::GameKind::Banqi | qi_rules::GameKind::Gomoku => 1,
    }
}

#[cfg(test)]
mod tests;
mod wxf_file;
mod xiangqi;

use qi_rules::GameKind;

pub use encoding::{Decoded, decode, encode};
pub use error::{Pos, RecordError, RecordErrorKind, RecordWarning, RecordWarningKind, TagExpected};

use crate::record::GameRecord;

/// The longest text [`import`] reads, in bytes (1 MiB): one game.
pub const MAX_INPUT: usize = 1 << 20;

/// The largest record file read, in bytes (64 MiB): its games ([`games`]) are read one by one,
/// each under [`MAX_INPUT`].
pub const MAX_FILE: usize = 64 << 20;

/// A text format a record can be written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// Chess PGN: tags, SAN moves, comments, result.
    ChessPgn,
    /// Chess FEN of the current position.
    ChessFen,
    /// Xiangqi PGN-style record with WXF moves.
    XiangqiPgn,
    /// Xiangqi PGN-style record with moves in Chinese notation (炮二平五 马８进７).
    XiangqiChinese,
    /// Xiangqi PGN-style record with moves in ICCS coordinates (`H2-E2`), as ElephantEye and
    /// the UCCI tools write them.
    XiangqiIccs,
    /// Xiangqi in the WXF file layout (`FORMAT WXF` ... `START{` ... `}END`), as PlayOK and
    /// XieXie exchange it.
    XiangqiWxfFile,
    /// Xiangqi FEN of the current position.
    XiangqiFen,
    /// Banqi PGN-style record with the deal and annotated flips.
    BanqiPgn,
    /// Banqi position string of the current position (face-down identities included).
    BanqiPosition,
    /// Gomoku PGN-style record.
    GomokuPgn,
    /// Gomoku move string `h8i9j10`, with a header line when needed.
    GomokuMoves,
    /// Gomoku position string of the current position.
    GomokuPosition,
    /// Gomocup's `.psq` (Piskvork's records).
    GomokuPsq,
}

impl Format {
    /// Every format.
    pub const ALL: [Format; 13] = [
        Format::ChessPgn,
        Format::ChessFen,
        Format::XiangqiPgn,
        Format::XiangqiChinese,
        Format::XiangqiIccs,
        Format::XiangqiWxfFile,
        Format::XiangqiFen,
        Format::BanqiPgn,
        Format::BanqiPosition,
        Format::GomokuPgn,
        Format::GomokuMoves,
        Format::GomokuPosition,
        Format::GomokuPsq,
    ];

    /// The formats a game's records can be exported in, the full record first.
    #[must_use]
    pub fn for_game(kind: GameKind) -> &'static [Format] {
        match kind {
            GameKind::Chess => &[Format::ChessPgn, Format::ChessFen],
            GameKind::Xiangqi => &[
                Format::XiangqiPgn,
                Format::XiangqiChinese,
                Format::XiangqiIccs,
                Format::XiangqiWxfFile,
                Format::XiangqiFen,
            ],
            GameKind::Banqi => &[Format::BanqiPgn, Format::BanqiPosition],
            GameKind::Gomoku => {
                &[Format::GomokuPgn, Format::GomokuMoves, Format::GomokuPsq, Format::GomokuPosition]
            }
        }
    }

    /// The game the format is for.
    #[must_use]
    pub const fn game(self) -> GameKind {
        match self {
            Format::ChessPgn | Format::ChessFen => GameKind::Chess,
            Format::XiangqiPgn
            | Format::XiangqiChinese
            | Format::XiangqiIccs
            | Format::XiangqiWxfFile
            | Format::XiangqiFen => GameKind::Xiangqi,
            Format::BanqiPgn | Format::BanqiPosition => GameKind::Banqi,
            Format::GomokuPgn
            | Format::GomokuMoves
            | Format::GomokuPosition
            | Format::GomokuPsq => GameKind::Gomoku,
        }
    }

    /// A stable short name, for settings and links: `chess-pgn`, `chess-fen`, `xiangqi-pgn`,
    /// `xiangqi-chinese`, `xiangqi-iccs`, `xiangqi-wxf`, `xiangqi-fen`, `banqi-pgn`,
    /// `banqi-position`, `gomoku-pgn`, `gomoku-moves`, `gomoku-psq`, `gomoku-position`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Format::ChessPgn => "chess-pgn",
            Format::ChessFen => "chess-fen",
            Format::XiangqiPgn => "xiangqi-pgn",
            Format::XiangqiChinese => "xiangqi-chinese",
            Format::XiangqiIccs => "xiangqi-iccs",
            Format::XiangqiWxfFile => "xiangqi-wxf",
            Format::XiangqiFen => "xiangqi-fen",
            Format::BanqiPgn => "banqi-pgn",
            Format::BanqiPosition => "banqi-position",
            Format::GomokuPgn => "gomoku-pgn",
            Format::GomokuMoves => "gomoku-moves",
            Format::GomokuPosition => "gomoku-position",
            Format::GomokuPsq => "gomoku-psq",
        }
    }

    /// The format with this [`name`](Format::name).
    #[must_use]
    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|format| format.name() == name)
    }

    /// The file name extension, without the dot: `pgn`, `fen`, `psq` or `txt`.
    #[must_use]
    pub const fn extension(self) -> &'static str {
        match self {
            Format::ChessPgn
            | Format::XiangqiPgn
            | Format::XiangqiChinese
            | Format::XiangqiIccs
            | Format::BanqiPgn
            | Format::GomokuPgn => "pgn",
            Format::ChessFen | Format::XiangqiFen => "fen",
            Format::GomokuPsq => "psq",
            Format::XiangqiWxfFile
            | Format::BanqiPosition
            | Format::GomokuMoves
            | Format::GomokuPosition => "txt",
        }
    }

    /// The MIME type for a download: `application/x-chess-pgn` for the PGN-style records (they
    /// share PGN's syntax), `text/plain` for the others.
    #[must_use]
    pub const fn mime_type(self) -> &'static str {
        match self.extension().as_bytes() {
            b"pgn" => "application/x-chess-pgn",
            _ => "text/plain",
        }
    }

    /// Whether the format is a position (the game's current position, no moves).
    #[must_use]
    pub const fn is_position(self) -> bool {
        matches!(
            self,
            Format::ChessFen | Format::XiangqiFen | Format::BanqiPosition | Format::GomokuPosition
        )
    }
}

/// A record read by [`import`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Imported {
    /// The game.
    pub record: GameRecord,
    /// The format the text was found to be in.
    pub format: Format,
    /// Whether the text held more games after the one read (only the first is read).
    pub more_games: bool,
    /// What was passed over and read on, in the order of the text.
    pub warnings: Vec<RecordWarning>,
}

/// Writes `record` in `format`, ending with a line break. A format of another game than the
/// record's gives that game's PGN-style record. Moves are written as far as they can be
/// replayed: a record from storage whose moves stop being legal is written up to there.
#[must_use]
pub fn export(record: &GameRecord, format: Format) -> String {
    let format =
        if format.game() == record.kind { format } else { Format::for_game(record.kind)[0] };
    if format.is_position() {
        let mut text = record.replay(usize::MAX).game.position();
        text.push('\n');
        return text;
    }
    match format {
        Format::GomokuMoves => return gomoku::export_moves(record),
        Format::GomokuPsq => return psq::export(record).unwrap_or_default(),
        Format::XiangqiWxfFile => return wxf_file::export(record),
        _ => {}
    }
    let notation = match format {
        Format::XiangqiChinese => pgn::Notation::Chinese,
        Format::XiangqiIccs => pgn::Notation::Iccs,
        _ => pgn::Notation::Own,
    };
    let dialect = for_game(record.kind, false);
    pgn::export(record, pgn::Style { dialect: &*dialect, notation })
}

/// Writes several games as one file — a tournament's games, an opening's collection — each
/// as [`export`] writes it, a blank line between. Only PGN-style formats hold several games:
/// any other `format` (a position, a move list, `.psq`) gives each game's PGN-style record.
/// [`games`] lists them back, each with its tags.
#[must_use]
pub fn export_all(records: &[GameRecord], format: Format) -> String {
    let mut text = String::new();
    for record in records {
        let own = if format.game() == record.kind { format } else { Format::for_game(record.kind)[0] };
        let holds_several = own.extension() == "pgn";
        let own = if holds_several { own } else { Format::for_game(record.kind)[0] };
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(&export(record, own));
    }
    text
}

/// The dialect of `kind`'s records, fresh for one record; `iccs`: xiangqi coordinates count
/// ranks from 0.
fn for_game(kind: GameKind, iccs: bool) -> Box<dyn dialect::Dialect> {
    match kind {
        GameKind::Chess => Box::new(chess::ChessDialect),
        GameKind::Xiangqi => Box::new(xiangqi::XiangqiDialect { iccs }),
        GameKind::Banqi => Box::<banqi::BanqiDialect>::default(),
        GameKind::Gomoku => Box::new(gomoku::GomokuDialect),
    }
}

/// One game of a file that may hold several: where its text is, and its tags.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSpan {
    /// Where its text starts and ends (byte offsets).
    pub range: std::ops::Range<usize>,
    /// The line it starts on (from 1).
    pub line: usize,
    /// Its tags, as written.
    pub tags: Vec<(String, String)>,
}

impl GameSpan {
    /// A tag's value, if the game has it.
    #[must_use]
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

/// The most games [`games`] lists.
pub const MAX_GAMES: usize = 100_000;

/// The games of a record file, in order: one for anything but a PGN file with several (a
/// position, a move list, a `.psq`), each with its text's range and tags. A game whose text does
/// not read is listed to the end of the file, so that importing it names the problem.
#[must_use]
pub fn games(text: &str) -> Vec<GameSpan> {
    if let Some(layout) = foreign::Layout::of(text) {
        // Lines counted as the blocks go, once over the text; tags read from blocks a game may
        // be (the importer refuses larger ones, and says so when picked).
        let (mut line, mut counted) = (1, 0);
        return layout
            .games(text)
            .into_iter()
            .take(MAX_GAMES)
            .map(|range| {
                line += text[counted..range.start].matches('\n').count();
                counted = range.start;
                let block = &text[range.clone()];
                let tags = if block.len() > MAX_INPUT {
                    Vec::new()
                } else {
                    layout.convert(block).ok().map_or_else(Vec::new, |c| {
                        pgn::parse(&c.text).map_or_else(
                            |_| Vec::new(),
                            |parsed| parsed.tags.into_iter().map(|t| (t.name, t.value)).collect(),
                        )
                    })
                };
                GameSpan { range, line, tags }
            })
            .collect();
    }
    let mut spans = Vec::new();
    let (mut start, mut line) = (0, 1);
    while start < text.len() && spans.len() < MAX_GAMES {
        let rest = &text[start..];
        let (tags, next) = match pgn::parse(rest) {
            Ok(parsed) => {
                let tags = parsed.tags.iter().map(|t| (t.name.clone(), t.value.clone())).collect();
                (tags, parsed.next_game.filter(|&next| next > 0))
            }
            Err(_) => (Vec::new(), None),
        };
        let end = next.map_or(text.len(), |next| start + next);
        spans.push(GameSpan { range: start..end, line, tags });
        line += text[start..end].matches('\n').count();
        start = end;
        if next.is_none() {
            break;
        }
    }
    if spans.is_empty() {
        spans.push(GameSpan { range: 0..text.len(), line: 1, tags: Vec::new() });
    }
    spans
}

/// Reads a record, a position or a move list; `hint` is the game the caller expects (the one
/// selected in the app), used when the text itself does not say (see the module docs).
///
/// # Errors
/// A [`RecordError`] at the first problem; with [`RecordError::partial`] when it lies in the
/// moves.
pub fn import(text: &str, hint: Option<GameKind>) -> Result<Imported, RecordError> {
    if text.len() > MAX_INPUT {
        let kind = RecordErrorKind::TooLong { len: text.len(), max: MAX_INPUT };
        return Err(RecordError::at(Pos::START, kind));
    }
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.trim().is_empty() {
        return Err(RecordError::at(Pos::START, RecordErrorKind::Empty));
    }
    // Another layout (a `.psq`, a WXF file, a DhtmlXQ block, gomoku pairs), written out as
    // the record the reader takes; errors and warnings placed back in the original.
    if let Some(layout) = foreign::Layout::of(text) {
        let converted = layout.convert(text)?;
        return match import::import_pgn(&converted.text, hint) {
            Ok(mut imported) => {
                imported.warnings =
                    imported.warnings.into_iter().map(|w| converted.warning(w)).collect();
                imported.format = layout.format().unwrap_or(imported.format);
                Ok(imported)
            }
            Err(error) => Err(converted.error(error)),
        };
    }
    if let Some(imported) = import::import_position(text, hint) {
        return imported;
    }
    import::import_pgn(text, hint)
}
