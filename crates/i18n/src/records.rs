//! Why an imported record could not be read, in the player's language: the line and column, and
//! the reason worded from [`RecordErrorKind`]'s fields (the rules' own reasons through
//! [`crate::rules`]). Text from the record is inserted as text, never as markup.

use qi_rules::{GameKind, Side};

use crate::rules::illegal_reason;
use crate::text::{Lang, Text, t};
use qi_play::records::{
    RecordError, RecordErrorKind, RecordWarning, RecordWarningKind, TagExpected,
};

/// One text in each language.
const fn pick(lang: Lang, en: &'static str, zh: &'static str, vi: &'static str) -> &'static str {
    match lang {
        Lang::En => en,
        Lang::Zh => zh,
        Lang::Vi => vi,
    }
}

/// `Line {line}, column {column}: {reason}` for an import error, in `lang`.
#[must_use]
pub fn record_error(lang: Lang, error: &RecordError) -> String {
    let kind = error.partial.as_ref().map_or(GameKind::Chess, |record| record.kind);
    crate::text::fill_all(
        t(lang, Text::RecordError),
        &[
            ("line", &error.line.to_string()),
            ("column", &error.column.to_string()),
            ("reason", &reason(lang, kind, &error.kind)),
        ],
    )
}

/// The move's number as the record writes it: `12.` for the first player, `12...` for the second.
fn numbered(number: u32, side: Side) -> String {
    format!("{number}{}", if side == Side::First { "." } else { "..." })
}

/// The reason alone, in `lang`.
#[must_use]
pub fn reason(lang: Lang, kind: GameKind, error: &RecordErrorKind) -> String {
    use RecordErrorKind as K;
    let template = match error {
        K::Empty => pick(lang, "the text is empty.", "内容为空。", "nội dung trống."),
        K::TooLong { .. } => pick(
            lang,
            "the text is too long ({len} bytes; at most {max} are read).",
            "内容太长（{len} 字节，最多读取 {max} 字节）。",
            "nội dung quá dài ({len} byte; chỉ đọc tối đa {max}).",
        ),
        K::TagSyntax { expected: TagExpected::Name } => pick(
            lang,
            "a tag must start with a name, as in [Event \"…\"].",
            "标签必须以名称开头，例如 [Event \"…\"]。",
            "thẻ phải bắt đầu bằng tên, như [Event \"…\"].",
        ),
        K::TagSyntax { expected: TagExpected::Value } => pick(
            lang,
            "a tag's value must be in double quotes.",
            "标签的值必须放在双引号中。",
            "giá trị của thẻ phải nằm trong dấu ngoặc kép.",
        ),
        K::TagSyntax { expected: TagExpected::Close } => {
            pick(lang, "a tag must end with ].", "标签必须以 ] 结尾。", "thẻ phải kết thúc bằng ].")
        }
        K::UnterminatedString => pick(
            lang,
            "a tag value has no closing \" on its line.",
            "标签值在本行没有结尾的 \"。",
            "giá trị thẻ thiếu dấu \" đóng trên dòng của nó.",
        ),
        K::UnterminatedComment => pick(
            lang,
            "a comment { has no closing }.",
            "注释 { 没有结尾的 }。",
            "chú thích { thiếu dấu } đóng.",
        ),
        K::UnterminatedVariation => pick(
            lang,
            "a variation ( has no closing ).",
            "变着 ( 没有结尾的 )。",
            "biến ( thiếu dấu ) đóng.",
        ),
        K::UnmatchedParen => pick(
            lang,
            "a ) closes no variation.",
            "多余的 )，没有对应的变着。",
            "dấu ) không đóng biến nào.",
        ),
        K::UnclosedElement { .. } => pick(
            lang,
            "[{text}] has no closing [/{text}].",
            "[{text}] 没有对应的结束标记 [/{text}]。",
            "[{text}] không có thẻ đóng [/{text}].",
        ),
        K::UnexpectedChar { .. } => pick(
            lang,
            "unexpected “{text}” among the moves.",
            "着法中出现了意外的“{text}”。",
            "ký tự “{text}” không mong đợi trong các nước đi.",
        ),
        K::UnknownVariant { .. } => pick(
            lang,
            "Qi does not play the variant “{text}”.",
            "Qi 不支持变体“{text}”。",
            "Qi không chơi biến thể “{text}”.",
        ),
        K::BadRules { .. } => pick(
            lang,
            "the rule options do not read ({text}).",
            "规则选项无法读取。",
            "không đọc được tùy chọn luật.",
        ),
        K::BadPosition { .. } => pick(
            lang,
            "the position does not read ({text}).",
            "局面无法读取。",
            "không đọc được thế cờ.",
        ),
        K::UnreadableMove { .. } => pick(
            lang,
            "move {n} “{text}” cannot be read.",
            "第 {n} 步“{text}”无法读懂。",
            "không đọc được nước {n} “{text}”.",
        ),
        K::IllegalMove { .. } => pick(
            lang,
            "move {n} “{text}” cannot be played: {reason}",
            "第 {n} 步“{text}”不能走：{reason}",
            "nước {n} “{text}” không đi được: {reason}",
        ),
        K::FlipMismatch { .. } => pick(
            lang,
            "move {n} flips {text}: the record says {written}, but the deal has {dealt} there.",
            "第 {n} 步翻开 {text}：棋谱写的是 {written}，但发牌中那里是 {dealt}。",
            "nước {n} lật {text}: biên bản ghi {written}, nhưng cách chia có {dealt} ở đó.",
        ),
        K::NothingRevealed { .. } => pick(
            lang,
            "move {n} “{text}” turns up no face-down piece, yet names one.",
            "第 {n} 步“{text}”没有翻开暗子，却写了翻出的棋子。",
            "nước {n} “{text}” không lật quân úp nào nhưng lại ghi tên quân.",
        ),
    };
    let (text, n, reason, written, dealt) = match error {
        K::TooLong { len, max } => {
            return crate::text::fill_all(
                template,
                &[("len", &len.to_string()), ("max", &max.to_string())],
            );
        }
        K::UnexpectedChar { found } => (found.to_string(), String::new(), String::new(), ' ', ' '),
        K::UnknownVariant { name } | K::UnclosedElement { name } => {
            (name.clone(), String::new(), String::new(), ' ', ' ')
        }
        // The rules crate words these in English only: other languages leave the detail out.
        K::BadRules { .. } | K::BadPosition { .. } if lang != Lang::En => {
            (String::new(), String::new(), String::new(), ' ', ' ')
        }
        K::BadRules { error } => (error.to_string(), String::new(), String::new(), ' ', ' '),
        K::BadPosition { error, .. } => (error.to_string(), String::new(), String::new(), ' ', ' '),
        K::UnreadableMove { number, side, text, .. }
        | K::NothingRevealed { number, side, text, .. } => {
            (text.clone(), numbered(*number, *side), String::new(), ' ', ' ')
        }
        K::IllegalMove { number, side, text, error, .. } => (
            text.clone(),
            numbered(*number, *side),
            illegal_reason(lang, kind, error.reason).to_owned(),
            ' ',
            ' ',
        ),
        K::FlipMismatch { number, side, cell, written, dealt, .. } => (
            cell.to_string(),
            numbered(*number, *side),
            String::new(),
            written.letter(),
            dealt.letter(),
        ),
        _ => (String::new(), String::new(), String::new(), ' ', ' '),
    };
    crate::text::fill_all(
        template,
        &[
            ("text", &text),
            ("n", &n),
            ("reason", &reason),
            ("written", &written.to_string()),
            ("dealt", &dealt.to_string()),
        ],
    )
}

/// `Line {line}, column {column}: {what}` for something an import skipped and read on, in
/// `lang`.
#[must_use]
pub fn record_warning(lang: Lang, kind: GameKind, warning: &RecordWarning) -> String {
    let what = match &warning.kind {
        RecordWarningKind::StrayText { text } => crate::text::fill(
            pick(
                lang,
                "“{text}” is no move; skipped.",
                "“{text}”不是着法，已跳过。",
                "“{text}” không phải nước đi; đã bỏ qua.",
            ),
            "text",
            text,
        ),
        RecordWarningKind::VariationSkipped { reason: why } => crate::text::fill(
            pick(
                lang,
                "the rest of a variation was left out: {reason}",
                "变着的其余部分已略去：{reason}",
                "phần còn lại của một biến đã bị bỏ qua: {reason}",
            ),
            "reason",
            &reason(lang, kind, why),
        ),
        RecordWarningKind::OpeningChoice { choice } => crate::text::fill(
            pick(
                lang,
                "the opening choice “{text}” is kept as a comment; the stones play on as they were placed.",
                "开局选择“{text}”已作为注释保留；棋子按落子顺序继续。",
                "lựa chọn khai cuộc “{text}” được giữ làm chú thích; các quân tiếp tục theo thứ tự đã đặt.",
            ),
            "text",
            choice,
        ),
    };
    crate::text::fill_all(
        t(lang, Text::RecordError),
        &[
            ("line", &warning.line.to_string()),
            ("column", &warning.column.to_string()),
            ("reason", &what),
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use qi_play::records::import;

    #[test]
    fn every_import_error_is_worded_in_every_language() {
        let bad = [
            "",
            "[Event \"x\"\n1. e4",
            "[Event x]\n1. e4",
            "1. e4 {never closed",
            "1. e4 (1. d4",
            "1. e4 )",
            "[Variant \"checkers\"]\n1. e4",
            "[Variant \"xiangqi\"]\n1. C2.5 Q9.5",
            "1. e4 e5 2. Ke3",
            "1. e4 e5 2. Zz9",
        ];
        for text in bad {
            let error = import(text, Some(GameKind::Chess)).expect_err(text);
            for lang in Lang::ALL {
                let message = record_error(lang, &error);
                assert!(message.contains(&error.line.to_string()), "{message}");
                assert!(!message.contains('{') || text.contains('{'), "{lang:?}: {message}");
                assert!(message.len() > 20, "{message}");
            }
        }
        let read = import("1. e4 \\ e5 |", Some(GameKind::Chess)).unwrap();
        assert_eq!(read.warnings.len(), 2);
        assert_eq!(
            record_warning(Lang::En, GameKind::Chess, &read.warnings[0]),
            "Line 1, column 7: “\\” is no move; skipped."
        );
        // A colour choice no opening rule asks for (after two stones): kept as a comment.
        let read = import("[GameType \"61,15\"]\n1. h8 i9 2. black j10", None).unwrap();
        for lang in Lang::ALL {
            let message = record_warning(lang, GameKind::Gomoku, &read.warnings[0]);
            assert!(message.starts_with("Line 2") || message.contains('2'), "{message}");
            assert!(message.contains("black"), "{message}");
        }
        let error = import("1. e4 e5 2. Ke3", Some(GameKind::Chess)).unwrap_err();
        assert_eq!(
            record_error(Lang::En, &error),
            "Line 1, column 13: move 2. “Ke3” cannot be played: That piece does not move that way."
        );
    }
}
