//! How the values of other crates that the worker's messages hold cross the wire: each has a
//! small serde form of its own here ([`Wire`]), so the rules, the engine and the records need no
//! serde. A move crosses as numbers (its kind and cells), a score as its kind and value, a
//! game's kind and the player's language as their index; a record as its own line form
//! ([`record_to_lines`]), the one text here: a record is a record's edge.
//!
//! Reading a form checks it: a cell off every board, a role that is no piece, an index past the
//! end are refused (the message is unreadable), never a panic. A move read here is still only a
//! move: the page plays it through the rules, which refuse it if it is not legal there.

use qi_ai::Score;
use qi_i18n::text::Lang;
use qi_play::openings::Opening;
use qi_play::record::GameRecord;
use qi_play::records::Format;
use qi_rules::any::AnyMove;
use qi_rules::banqi::BanqiMove;
use qi_rules::chess::ChessMove;
use qi_rules::gomoku::GomokuMove;
use qi_rules::xiangqi::XiangqiMove;
use qi_rules::{Cell, GameKind, Side};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A value with a serde form of its own for the worker's messages.
pub trait Wire: Sized {
    /// What crosses the wire.
    type Form: Serialize + for<'de> Deserialize<'de>;

    /// The value's form.
    fn form(&self) -> Self::Form;

    /// The value a form stands for; `None` when it stands for none.
    fn from_form(form: Self::Form) -> Option<Self>;
}

/// `#[serde(with = "wire::one")]` for a field of a [`Wire`] type.
pub mod one {
    use super::{Deserialize, Deserializer, Serialize, Serializer, Wire};

    /// Writes the value's form.
    ///
    /// # Errors
    /// The serializer's.
    pub fn serialize<T: Wire, S: Serializer>(value: &T, serializer: S) -> Result<S::Ok, S::Error> {
        value.form().serialize(serializer)
    }

    /// Reads a form, refusing one that stands for no value.
    ///
    /// # Errors
    /// The deserializer's, or a custom one for such a form.
    pub fn deserialize<'de, T: Wire, D: Deserializer<'de>>(deserializer: D) -> Result<T, D::Error> {
        super::read(T::Form::deserialize(deserializer)?)
    }
}

/// `#[serde(with = "wire::maybe")]` for an `Option` of a [`Wire`] type.
pub mod maybe {
    use super::{Deserialize, Deserializer, Serialize, Serializer, Wire};

    /// Writes the value's form, or none.
    ///
    /// # Errors
    /// The serializer's.
    pub fn serialize<T: Wire, S: Serializer>(
        value: &Option<T>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        value.as_ref().map(T::form).serialize(serializer)
    }

    /// Reads a form or none.
    ///
    /// # Errors
    /// The deserializer's, or a custom one for a form that stands for no value.
    pub fn deserialize<'de, T: Wire, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<T>, D::Error> {
        Option::<T::Form>::deserialize(deserializer)?.map(super::read).transpose()
    }
}

/// `#[serde(with = "wire::many")]` for a `Vec` of a [`Wire`] type.
pub mod many {
    use super::{Deserialize, Deserializer, Serializer, Wire};

    /// Writes the values' forms.
    ///
    /// # Errors
    /// The serializer's.
    pub fn serialize<T: Wire, S: Serializer>(
        values: &[T],
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(values.iter().map(T::form))
    }

    /// Reads the forms, refusing the whole when one stands for no value.
    ///
    /// # Errors
    /// The deserializer's, or a custom one for such a form.
    pub fn deserialize<'de, T: Wire, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Vec<T>, D::Error> {
        Vec::<T::Form>::deserialize(deserializer)?.into_iter().map(super::read).collect()
    }
}

/// The value of `form`, or the error that says it stands for none (no text: see `codec`).
fn read<T: Wire, E: serde::de::Error>(form: T::Form) -> Result<T, E> {
    T::from_form(form).ok_or_else(|| E::custom("no such value"))
}

/// A move as numbers: which kind of move (see the constants), then up to four bytes — cells as
/// file and rank, a chess square as its index, a promotion as shakmaty's role number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveForm(u8, [u8; 4]);

const CHESS: u8 = 0;
const XIANGQI: u8 = 1;
const BANQI_FLIP: u8 = 2;
const BANQI_STEP: u8 = 3;
const BANQI_STOP: u8 = 4;
const GOMOKU_STONE: u8 = 5;
const GOMOKU_TAKE: u8 = 6;
const GOMOKU_DECLARE: u8 = 7;
const GOMOKU_OFFER: u8 = 8;

impl Wire for AnyMove {
    type Form = MoveForm;

    fn form(&self) -> MoveForm {
        let cells = |a: Cell, b: Cell| [a.file, a.rank, b.file, b.rank];
        let cell = |a: Cell| [a.file, a.rank, 0, 0];
        match *self {
            AnyMove::Chess(mv) => {
                let promotion = mv.promotion.map_or(0, |role| role as u8);
                MoveForm(CHESS, [u8::from(mv.from), u8::from(mv.to), promotion, 0])
            }
            AnyMove::Xiangqi(mv) => MoveForm(XIANGQI, cells(mv.from(), mv.to())),
            AnyMove::Banqi(BanqiMove::Flip(at)) => MoveForm(BANQI_FLIP, cell(at)),
            AnyMove::Banqi(BanqiMove::Step { from, to }) => MoveForm(BANQI_STEP, cells(from, to)),
            AnyMove::Banqi(BanqiMove::Stop) => MoveForm(BANQI_STOP, [0; 4]),
            AnyMove::Gomoku(GomokuMove::Stone(at)) => MoveForm(GOMOKU_STONE, cell(at)),
            AnyMove::Gomoku(GomokuMove::Take(side)) => {
                MoveForm(GOMOKU_TAKE, [u8::from(side == Side::Second), 0, 0, 0])
            }
            AnyMove::Gomoku(GomokuMove::Declare(offers)) => {
                MoveForm(GOMOKU_DECLARE, [offers, 0, 0, 0])
            }
            AnyMove::Gomoku(GomokuMove::Offer(at)) => MoveForm(GOMOKU_OFFER, cell(at)),
        }
    }

    fn from_form(MoveForm(kind, [a, b, c, d]): MoveForm) -> Option<AnyMove> {
        // Wider than any board (gomoku's largest is 20 a side): the rules refuse a cell off the
        // game's own board, and a promotion to a king or a pawn, when the move is played.
        let cell = |file: u8, rank: u8| (file < 26 && rank < 26).then(|| Cell::new(file, rank));
        let mv = match kind {
            CHESS => {
                let square = |index: u8| qi_rules::chess::shakmaty::Square::try_from(index).ok();
                let promotion = match c {
                    0 => None,
                    role => Some(qi_rules::chess::shakmaty::Role::try_from(role).ok()?),
                };
                AnyMove::Chess(ChessMove { from: square(a)?, to: square(b)?, promotion })
            }
            XIANGQI => AnyMove::Xiangqi(XiangqiMove::new(cell(a, b)?, cell(c, d)?)?),
            BANQI_FLIP => AnyMove::Banqi(BanqiMove::Flip(cell(a, b)?)),
            BANQI_STEP => AnyMove::Banqi(BanqiMove::Step { from: cell(a, b)?, to: cell(c, d)? }),
            BANQI_STOP => AnyMove::Banqi(BanqiMove::Stop),
            GOMOKU_STONE => AnyMove::Gomoku(GomokuMove::Stone(cell(a, b)?)),
            GOMOKU_TAKE => {
                let side = match a {
                    0 => Side::First,
                    1 => Side::Second,
                    _ => return None,
                };
                AnyMove::Gomoku(GomokuMove::Take(side))
            }
            GOMOKU_DECLARE => AnyMove::Gomoku(GomokuMove::Declare(a)),
            GOMOKU_OFFER => AnyMove::Gomoku(GomokuMove::Offer(cell(a, b)?)),
            _ => return None,
        };
        Some(mv)
    }
}

/// A score: centipawns or a mate, with its number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ScoreForm {
    /// [`Score::Cp`].
    Cp(i32),
    /// [`Score::Mate`].
    Mate(i32),
}

impl Wire for Score {
    type Form = ScoreForm;

    fn form(&self) -> ScoreForm {
        match *self {
            Score::Cp(cp) => ScoreForm::Cp(cp),
            Score::Mate(moves) => ScoreForm::Mate(moves),
        }
    }

    fn from_form(form: ScoreForm) -> Option<Score> {
        Some(match form {
            ScoreForm::Cp(cp) => Score::Cp(cp),
            ScoreForm::Mate(moves) => Score::Mate(moves),
        })
    }
}

/// Wire forms by index in a list of every value (`GameKind::ALL`, `Lang::ALL`).
macro_rules! by_index {
    ($($type:ty),*) => {$(
        impl Wire for $type {
            type Form = u8;

            fn form(&self) -> u8 {
                <$type>::ALL.iter().position(|value| value == self).unwrap_or(0) as u8
            }

            fn from_form(index: u8) -> Option<$type> {
                <$type>::ALL.get(usize::from(index)).copied()
            }
        }
    )*};
}

by_index!(GameKind, Lang);

/// A format by its name (`Format::name`), which records and the CLI use too.
impl Wire for Format {
    type Form = String;

    fn form(&self) -> String {
        self.name().to_owned()
    }

    fn from_form(name: String) -> Option<Format> {
        Format::from_name(&name)
    }
}

/// A whole record (its tags, comments, marks, variations and ending too) in its line form.
impl Wire for GameRecord {
    type Form = String;

    fn form(&self) -> String {
        record_to_lines(self)
    }

    fn from_form(lines: String) -> Option<GameRecord> {
        record_from_lines(&lines)
    }
}

/// An opening's code and names.
impl Wire for Opening {
    type Form = (String, String, Option<String>, Option<String>);

    fn form(&self) -> Self::Form {
        (self.code.clone(), self.name.clone(), self.name_zh.clone(), self.name_vi.clone())
    }

    fn from_form((code, name, name_zh, name_vi): Self::Form) -> Option<Opening> {
        Some(Opening { code, name, name_zh, name_vi })
    }
}

/// Escapes a field for the line format: `\`, line breaks and tabs.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c => out.push(c),
        }
    }
    out
}

fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('t') => out.push('\t'),
            Some(other) => out.push(other),
            None => {}
        }
    }
    out
}

/// A whole record (tags and comments too) as lines: [`GameRecord::to_text`], then `T` lines
/// for tags and `C` lines for comments, tab-separated and escaped.
#[must_use]
pub fn record_to_lines(record: &GameRecord) -> String {
    let mut out = escape(&record.to_text());
    for (name, value) in &record.tags {
        out.push_str(&format!("\nT\t{}\t{}", escape(name), escape(value)));
    }
    for (ply, comment) in &record.comments {
        out.push_str(&format!("\nC\t{ply}\t{}", escape(comment)));
    }
    out
}

/// Reads [`record_to_lines`]'s text.
#[must_use]
pub fn record_from_lines(text: &str) -> Option<GameRecord> {
    let mut lines = text.split('\n');
    let mut record = GameRecord::from_text(&unescape(lines.next()?))?;
    let mut comments = qi_play::Sparse::new();
    for line in lines {
        let mut fields = line.splitn(3, '\t');
        match (fields.next()?, fields.next()?, fields.next()?) {
            ("T", name, value) => record.tags.push((unescape(name), unescape(value))),
            ("C", ply, comment) => {
                comments.insert(ply.parse().ok()?, unescape(comment));
            }
            _ => return None,
        }
    }
    record.comments = comments;
    Some(record)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Every legal move of a few positions of each game, through its form and back.
    #[test]
    fn every_kind_of_move_crosses_and_comes_back_the_same() {
        let mut seen = std::collections::BTreeSet::new();
        for (kind, rules, moves) in [
            (GameKind::Chess, "", &["e2e4", "d7d5", "e4d5", "g8f6", "f1b5", "c7c6"][..]),
            (
                GameKind::Chess,
                "",
                &["g2g4", "h7h5", "g4h5", "g7g6", "h5g6", "a7a6", "g6g7", "a6a5"],
            ),
            (GameKind::Xiangqi, "", &["h3e3", "h10g8"]),
            (GameKind::Banqi, "", &["b2"]),
            (GameKind::Gomoku, "", &["h8"]),
            (GameKind::Gomoku, "opening=swap2", &[]),
            (GameKind::Gomoku, "opening=soosorv8", &["h8", "h9", "i9", "j10"]),
        ] {
            let mut record = GameRecord::new(kind, rules, 7);
            record.moves = moves.iter().map(|m| (*m).to_owned()).collect();
            let game = record.replay(usize::MAX).game;
            for mv in game.legal_move_values() {
                seen.insert(mv.form().0);
                assert_eq!(AnyMove::from_form(mv.form()), Some(mv), "{kind} {mv}");
            }
        }
        assert!(seen.len() >= 5, "kinds of moves seen: {seen:?}");
        for mv in [
            AnyMove::Banqi(BanqiMove::Stop),
            AnyMove::Banqi(BanqiMove::Step { from: Cell::new(1, 1), to: Cell::new(1, 2) }),
            AnyMove::Gomoku(GomokuMove::Take(Side::Second)),
            AnyMove::Gomoku(GomokuMove::Declare(4)),
            AnyMove::Gomoku(GomokuMove::Offer(Cell::new(7, 8))),
        ] {
            assert_eq!(AnyMove::from_form(mv.form()), Some(mv));
        }
    }

    #[test]
    fn a_reply_holding_a_form_of_no_move_is_refused_whole() {
        use crate::think::ThinkReply;
        // A think reply's fields in order (bincode writes a struct as its fields), the best
        // move a form of no kind.
        let forged = (7_u64, Some(MoveForm(9, [0; 4])), 1_u32, 2_u64, 3_u64, None::<MoveForm>);
        let mut bytes = bincode::serde::encode_to_vec(forged, bincode::config::standard()).unwrap();
        bytes.push(0); // no score
        assert!(crate::codec::from_bytes::<ThinkReply>(&bytes).is_err());
        // The same with a move of a kind it knows reads.
        let e2e4 = AnyMove::Chess(ChessMove {
            from: qi_rules::chess::shakmaty::Square::E2,
            to: qi_rules::chess::shakmaty::Square::E4,
            promotion: None,
        });
        let fair = (7_u64, Some(e2e4.form()), 1_u32, 2_u64, 3_u64, None::<MoveForm>);
        let mut bytes = bincode::serde::encode_to_vec(fair, bincode::config::standard()).unwrap();
        bytes.push(0);
        let reply = crate::codec::from_bytes::<ThinkReply>(&bytes).expect("a reply");
        assert_eq!((reply.id, reply.best, reply.time_ms), (7, Some(e2e4), 3));
    }

    #[test]
    fn forms_that_stand_for_no_move_are_refused() {
        for form in [
            MoveForm(CHESS, [64, 0, 0, 0]),
            MoveForm(CHESS, [12, 28, 9, 0]),
            MoveForm(XIANGQI, [0, 0, 9, 12]),
            MoveForm(BANQI_FLIP, [200, 0, 0, 0]),
            MoveForm(GOMOKU_TAKE, [2, 0, 0, 0]),
            MoveForm(9, [0; 4]),
        ] {
            assert_eq!(AnyMove::from_form(form), None, "{form:?}");
        }
        assert_eq!(GameKind::from_form(4), None);
        assert_eq!(Lang::from_form(3), None);
        assert_eq!(Format::from_form("nonsense".into()), None);
    }

    /// A game with what a record's lines must carry besides its moves: a tag, comments with
    /// line breaks, tabs and backslashes, and an ending the moves do not show.
    pub(crate) fn sample_record() -> GameRecord {
        let mut record = GameRecord::new(GameKind::Chess, "", 0);
        record.moves = ["e2e4", "e7e5"].map(String::from).to_vec();
        record.tags.push(("Event".into(), "A\tB \\ C\nD".into()));
        record.comments.insert(0, "before\nall".into());
        record.comments.insert(2, "{odd} \\n".into());
        record.ending = Some(qi_play::record::Ending {
            winner: Some(qi_rules::Side::Second),
            by: qi_play::record::EndedBy::Resignation,
        });
        record
    }

    #[test]
    fn records_travel_whole() {
        let mut record = sample_record();
        record.comments.insert(1, "carriage\r\nreturn\t\\".into());
        assert_eq!(record_from_lines(&record_to_lines(&record)), Some(record));
    }
}
