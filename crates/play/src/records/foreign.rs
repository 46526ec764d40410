//! Records in layouts other than PGN's, read by writing them out as the PGN-style record the
//! reader takes: the WXF file layout (`FORMAT WXF` ... `START{` ... `}END`, PlayOK's xiangqi
//! export), DhtmlXQ/UBB blocks (`[DhtmlXQ_movelist]7747...`), Gomocup's `.psq` and plain gomoku
//! coordinate pairs (`8,8 9,9`).
//!
//! Each writer keeps, for every line it writes, where that line's text stood in the original
//! ([`Converted::origin`]), so that an error or a warning names the line and column of the
//! player's own file, not of the record written in between.

use super::error::{Pos, RecordError, RecordWarning};
use super::{dhtmlxq, psq, wxf_file};

/// A record written out from another layout, and where its lines came from.
pub(crate) struct Converted {
    /// The PGN-style record.
    pub text: String,
    /// For each line of `text` (from the first), the place in the original where the line's
    /// first character stood; `None` for a line the writer made up (a tag it added).
    pub origin: Vec<Option<Pos>>,
}

impl Converted {
    /// A record whose lines are the original's, line for line.
    pub(crate) fn line_for_line(text: String) -> Converted {
        let lines = text.split('\n').count();
        let origin = (1..=lines).map(|line| Some(Pos { line, column: 1 })).collect();
        Converted { text, origin }
    }

    /// A place in [`text`](Converted::text) as a place in the original.
    pub(crate) fn original(&self, line: usize, column: usize) -> (usize, usize) {
        match self.origin.get(line.wrapping_sub(1)).copied().flatten() {
            Some(start) => (start.line, start.column + column.saturating_sub(1)),
            None => (line, column),
        }
    }

    /// An error in [`text`](Converted::text), placed in the original.
    pub(crate) fn error(&self, mut error: RecordError) -> RecordError {
        (error.line, error.column) = self.original(error.line, error.column);
        error
    }

    /// A warning in [`text`](Converted::text), placed in the original.
    pub(crate) fn warning(&self, mut warning: RecordWarning) -> RecordWarning {
        (warning.line, warning.column) = self.original(warning.line, warning.column);
        warning
    }
}

/// The layout of a text that is not PGN-shaped, if it is one of those read here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Layout {
    /// Gomocup's `.psq`.
    Psq,
    /// The WXF file layout.
    WxfFile,
    /// DhtmlXQ/UBB blocks.
    DhtmlXq,
    /// Gomoku coordinate pairs.
    Pairs,
}

impl Layout {
    /// The layout of `text`, if it has one of these.
    pub(crate) fn of(text: &str) -> Option<Layout> {
        if psq::is_psq(text) {
            Some(Layout::Psq)
        } else if wxf_file::is_wxf_file(text) {
            Some(Layout::WxfFile)
        } else if dhtmlxq::is_dhtmlxq(text) {
            Some(Layout::DhtmlXq)
        } else if psq::is_pairs(text) {
            Some(Layout::Pairs)
        } else {
            None
        }
    }

    /// The export format that writes this layout, where there is one.
    pub(crate) fn format(self) -> Option<super::Format> {
        match self {
            Layout::Psq => Some(super::Format::GomokuPsq),
            Layout::WxfFile => Some(super::Format::XiangqiWxfFile),
            Layout::DhtmlXq | Layout::Pairs => None,
        }
    }

    /// `text` written out as a PGN-style record.
    ///
    /// # Errors
    /// What the layout itself refuses (a board size Qi does not offer, a broken block), placed
    /// in the original.
    pub(crate) fn convert(self, text: &str) -> Result<Converted, RecordError> {
        match self {
            Layout::Psq => psq::as_record(text),
            Layout::WxfFile => Ok(wxf_file::as_record(text)),
            Layout::DhtmlXq => dhtmlxq::as_record(text),
            Layout::Pairs => psq::pairs_as_record(text),
        }
    }

    /// Where the games of a file in this layout are (byte ranges): one, except for a page with
    /// several DhtmlXQ blocks.
    pub(crate) fn games(self, text: &str) -> Vec<std::ops::Range<usize>> {
        match self {
            Layout::DhtmlXq => dhtmlxq::blocks(text),
            _ => std::iter::once(0..text.len()).collect(),
        }
    }
}

/// A tag line `[Name "value"]`, the value escaped and on one line.
pub(crate) fn tag_line(name: &str, value: &str) -> String {
    format!("[{name} \"{}\"]", super::pgn::escape(value.trim()))
}

/// Text made safe inside a `{...}` comment (a `}` would end it).
pub(crate) fn comment_text(text: &str) -> String {
    text.replace('}', ")").replace('{', "(")
}
