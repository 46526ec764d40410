//! Splits PGN-style text into tokens, each with its line and column.
//!
//! Tokens: `[`, `]`, `(`, `)`, a double-quoted string (with `\"` and `\\` escapes, on one
//! line), a `{...}` comment (no nesting: it ends at the first `}`), a `;` comment (to the end
//! of the line), a NAG (`$` and digits), and words: runs of any other characters up to white
//! space or one of `[]{}();"$,`. A comma separates like white space. A line starting with `%`
//! is skipped, as the PGN standard's escape mechanism says.

use super::error::{Pos, RecordError, RecordErrorKind};

/// One token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Token<'a> {
    /// `[`
    TagOpen,
    /// `]`
    TagClose,
    /// A double-quoted string, unescaped.
    Str(String),
    /// `(`
    VariationOpen,
    /// `)`
    VariationClose,
    /// A `{...}` or `;` comment: the text inside.
    Comment(&'a str),
    /// A numeric annotation glyph such as `$1`.
    Nag(&'a str),
    /// Anything else: a move, a move number, a result, a tag name.
    Word(&'a str),
    /// The end of the text.
    End,
}

/// The lexer: a cursor over the text.
pub(crate) struct Lexer<'a> {
    text: &'a str,
    offset: usize,
    pos: Pos,
    /// Where the last token read starts (a byte offset).
    token_offset: usize,
}

fn is_delimiter(c: char) -> bool {
    c.is_whitespace() || matches!(c, '[' | ']' | '{' | '}' | '(' | ')' | ';' | '"' | '$' | ',')
}

impl<'a> Lexer<'a> {
    /// A lexer at the start of `text`.
    pub(crate) fn new(text: &'a str) -> Lexer<'a> {
        Lexer { text, offset: 0, pos: Pos::START, token_offset: 0 }
    }

    /// The byte offset where the last token read starts.
    pub(crate) fn token_offset(&self) -> usize {
        self.token_offset
    }

    fn peek(&self) -> Option<char> {
        self.text[self.offset..].chars().next()
    }

    /// Moves past one character, keeping the line and column.
    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.offset += c.len_utf8();
        match c {
            '\n' => self.pos = Pos { line: self.pos.line + 1, column: 1 },
            // A CR before LF takes no column; a CR alone ends a line.
            '\r' if self.peek() == Some('\n') => {}
            '\r' => self.pos = Pos { line: self.pos.line + 1, column: 1 },
            _ => self.pos.column += 1,
        }
        Some(c)
    }

    /// Skips white space, commas and `%` escape lines.
    fn skip_blank(&mut self) {
        while let Some(c) = self.peek() {
            if c == '%' && self.pos.column == 1 {
                self.skip_line();
            } else if c.is_whitespace() || c == ',' {
                self.bump();
            } else {
                break;
            }
        }
    }

    /// Skips to the end of the line, leaving the newline.
    fn skip_line(&mut self) {
        while let Some(c) = self.peek() {
            if c == '\n' || c == '\r' {
                break;
            }
            self.bump();
        }
    }

    /// The next token and where it starts.
    ///
    /// # Errors
    /// An unterminated comment or string.
    pub(crate) fn next_token(&mut self) -> Result<(Pos, Token<'a>), RecordError> {
        self.skip_blank();
        let start = self.pos;
        self.token_offset = self.offset;
        let Some(c) = self.peek() else { return Ok((start, Token::End)) };
        let simple = match c {
            '[' => Some(Token::TagOpen),
            ']' => Some(Token::TagClose),
            '(' => Some(Token::VariationOpen),
            ')' => Some(Token::VariationClose),
            _ => None,
        };
        if let Some(token) = simple {
            self.bump();
            return Ok((start, token));
        }
        match c {
            '{' => {
                self.bump();
                let from = self.offset;
                let Some(len) = self.text[from..].find('}') else {
                    return Err(RecordError::at(start, RecordErrorKind::UnterminatedComment));
                };
                while self.offset < from + len {
                    self.bump();
                }
                self.bump();
                Ok((start, Token::Comment(&self.text[from..from + len])))
            }
            ';' => {
                self.bump();
                let from = self.offset;
                self.skip_line();
                Ok((start, Token::Comment(&self.text[from..self.offset])))
            }
            '"' => self.string(start).map(|s| (start, Token::Str(s))),
            // `\$14`: a NAG escaped by a study export (as python-chess, read as the NAG).
            '$' | '\\' if c == '$' || self.text[self.offset + 1..].starts_with('$') => {
                if c == '\\' {
                    self.bump();
                }
                self.bump();
                let from = self.offset;
                while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                    self.bump();
                }
                Ok((start, Token::Nag(&self.text[from..self.offset])))
            }
            // A stray `}` is read as a word: it is no move, and the move reader says so.
            _ => {
                let from = self.offset;
                self.bump();
                while self.peek().is_some_and(|c| !is_delimiter(c)) {
                    self.bump();
                }
                Ok((start, Token::Word(&self.text[from..self.offset])))
            }
        }
    }

    /// Whether the line after the line break `end` just read closes the string: it holds a `"`
    /// followed by `]` (a tag's value).
    fn closes_on_next_line(&self, end: char) -> bool {
        let rest = &self.text[self.offset..];
        let rest = if end == '\r' { rest.strip_prefix('\n').unwrap_or(rest) } else { rest };
        let line = rest.split(['\n', '\r']).next().unwrap_or_default();
        line.find('"').is_some_and(|quote| line[quote + 1..].trim_start().starts_with(']'))
    }

    /// Reads a string after its opening quote.
    fn string(&mut self, start: Pos) -> Result<String, RecordError> {
        self.bump();
        let mut value = String::new();
        loop {
            match self.bump() {
                Some('"') => return Ok(value),
                Some('\\') if matches!(self.peek(), Some('"' | '\\')) => {
                    value.extend(self.bump());
                }
                // A value some tools break over two lines (a long event name): it goes on when
                // the next line closes it; the break reads as a space.
                Some(end @ ('\n' | '\r')) if self.closes_on_next_line(end) => {
                    if end == '\r' && self.peek() == Some('\n') {
                        self.bump();
                    }
                    value.push(' ');
                }
                Some('\n' | '\r') | None => {
                    return Err(RecordError::at(start, RecordErrorKind::UnterminatedString));
                }
                // Other control characters (a tab, stray bytes) read as the space the writer
                // writes for them, so a value reads back as it was read (found by fuzzing).
                Some(c) if c.is_control() => value.push(' '),
                Some(c) => value.push(c),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(text: &str) -> Vec<(usize, usize, Token<'_>)> {
        let mut lexer = Lexer::new(text);
        let mut out = Vec::new();
        loop {
            let (pos, token) = lexer.next_token().unwrap();
            if token == Token::End {
                return out;
            }
            out.push((pos.line, pos.column, token));
        }
    }

    #[test]
    fn tokens_carry_their_line_and_column() {
        let text = "[Event \"A \\\"b\\\"\"]\r\n1. e4 {x}\n% skipped (\n é5?! ; rest\n($1)";
        assert_eq!(
            tokens(text),
            [
                (1, 1, Token::TagOpen),
                (1, 2, Token::Word("Event")),
                (1, 8, Token::Str("A \"b\"".into())),
                (1, 17, Token::TagClose),
                (2, 1, Token::Word("1.")),
                (2, 4, Token::Word("e4")),
                (2, 7, Token::Comment("x")),
                (4, 2, Token::Word("é5?!")),
                (4, 7, Token::Comment(" rest")),
                (5, 1, Token::VariationOpen),
                (5, 2, Token::Nag("1")),
                (5, 4, Token::VariationClose),
            ]
        );
    }

    #[test]
    fn unterminated_comments_and_strings_are_errors_where_they_start() {
        let mut lexer = Lexer::new("e4\n  {never closed");
        lexer.next_token().unwrap();
        let error = lexer.next_token().unwrap_err();
        assert_eq!((error.line, error.column), (2, 3));
        assert_eq!(error.kind, RecordErrorKind::UnterminatedComment);
        let error = Lexer::new("\"abc\ndef").next_token().unwrap_err();
        assert_eq!(
            (error.line, error.column, error.kind),
            (1, 1, RecordErrorKind::UnterminatedString)
        );
        // A string the next line does not close as a tag's value is not read on either.
        let error = Lexer::new("\"abc\ndef\" e4").next_token().unwrap_err();
        assert_eq!(error.kind, RecordErrorKind::UnterminatedString);
        // A NAG with a stray backslash before it (a study export) is the NAG.
        let mut lexer = Lexer::new("f3! \\$14 Nf6");
        lexer.next_token().unwrap();
        assert_eq!(lexer.next_token().unwrap(), (Pos { line: 1, column: 5 }, Token::Nag("14")));
        // One it does close is one value, the break read as a space.
        let mut lexer = Lexer::new("\"abc\r\ndef\"]");
        assert_eq!(lexer.next_token().unwrap().1, Token::Str("abc def".into()));
        let mut lexer = Lexer::new("\"1858.??\u{1}\u{f}?\tx\"");
        assert_eq!(lexer.next_token().unwrap().1, Token::Str("1858.??  ? x".into()));
    }
}
