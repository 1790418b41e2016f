//! Validating JSON5 in one pass, without recursion.
//!
//! The open containers are a stack of bytes, so nesting costs one byte per
//! level and no depth can overflow the call stack; like the JSON validator
//! (serde_json's `IgnoredAny`) and the reference JavaScript parser, which
//! keeps its own stack too, a document that closes what it opens is valid
//! at any depth, and one that does not is refused where it ends. Every
//! error names the byte where the text stops being JSON5.

use super::{identifier_end, is_id_continue, line_comment_end, whitespace_len};
use crate::formats::SyntaxError;

fn err(offset: usize, message: &str, help: Option<&str>) -> SyntaxError {
    SyntaxError {
        offset,
        message: message.into(),
        help: help.map(Into::into),
    }
}

pub fn validate(text: &str) -> Result<(), SyntaxError> {
    Validator { s: text }.run()
}

struct Validator<'a> {
    s: &'a str,
}

impl Validator<'_> {
    fn at(&self, i: usize) -> Option<u8> {
        self.s.as_bytes().get(i).copied()
    }

    /// Where the document ended too soon: right after its last token (or
    /// comment), not on a line of its own after the final newline.
    fn eof(&self, what: &str) -> SyntaxError {
        let mut end = self.s.len();
        while let Some(c) = self.s[..end].chars().next_back() {
            if whitespace_len(self.s, end - c.len_utf8()) == 0 {
                break;
            }
            end -= c.len_utf8();
        }
        err(end, &format!("EOF while parsing {what}"), None)
    }

    fn run(&self) -> Result<(), SyntaxError> {
        let mut stack: Vec<u8> = Vec::new();
        let mut i = self.trivia(0)?;
        loop {
            // A value starts at `i`.
            i = match self.at(i) {
                Some(open @ (b'{' | b'[')) => {
                    stack.push(open);
                    let j = self.trivia(i + 1)?;
                    match (open, self.at(j)) {
                        (b'{', Some(b'}')) | (b'[', Some(b']')) => {
                            stack.pop();
                            j + 1
                        }
                        (b'{', _) => {
                            i = self.member_name(j)?;
                            continue;
                        }
                        _ => {
                            i = j;
                            continue;
                        }
                    }
                }
                Some(_) => self.scalar(i)?,
                None => return Err(self.eof("a value")),
            };
            // After a value: a comma, the end of its container, or the end.
            loop {
                i = self.trivia(i)?;
                let Some(&open) = stack.last() else {
                    return match self.at(i) {
                        None => Ok(()),
                        Some(_) => Err(err(
                            i,
                            "unexpected text after the end of the document",
                            None,
                        )),
                    };
                };
                let (close, what) = match open {
                    b'{' => (b'}', "an object"),
                    _ => (b']', "an array"),
                };
                match self.at(i) {
                    Some(b',') => {
                        let j = self.trivia(i + 1)?;
                        if self.at(j) == Some(close) {
                            stack.pop();
                            i = j + 1;
                            continue;
                        }
                        i = if open == b'{' {
                            self.member_name(j)?
                        } else {
                            j
                        };
                        break;
                    }
                    Some(c) if c == close => {
                        stack.pop();
                        i += 1;
                    }
                    None => return Err(self.eof(what)),
                    Some(_) => {
                        let msg = format!("expected `,` or `{}`", close as char);
                        return Err(err(i, &msg, None));
                    }
                }
            }
        }
    }

    /// Skip whitespace and comments from `i`.
    fn trivia(&self, mut i: usize) -> Result<usize, SyntaxError> {
        loop {
            let n = whitespace_len(self.s, i);
            if n > 0 {
                i += n;
                continue;
            }
            if self.at(i) != Some(b'/') {
                return Ok(i);
            }
            i = match self.at(i + 1) {
                Some(b'/') => line_comment_end(self.s, i),
                Some(b'*') => match memchr::memmem::find(&self.s.as_bytes()[i + 2..], b"*/") {
                    Some(n) => i + 2 + n + 2,
                    None => {
                        return Err(err(
                            i,
                            "unterminated block comment",
                            Some("close the comment with */"),
                        ));
                    }
                },
                _ => return Err(err(i, "a lone `/` is not a comment", None)),
            };
        }
    }

    /// A member name at `i` and its colon; the offset of its value.
    fn member_name(&self, i: usize) -> Result<usize, SyntaxError> {
        let end = match self.at(i) {
            Some(b'"' | b'\'') => self.string(i)?,
            None => return Err(self.eof("an object")),
            Some(_) => match identifier_end(self.s, i) {
                Ok(end) if end > i => end,
                Ok(_) => {
                    return Err(err(
                        i,
                        "expected a key: a string, or a name of letters, digits, `$` and `_` that does not start with a digit",
                        None,
                    ));
                }
                Err(at) => {
                    return Err(err(
                        at,
                        "invalid escape in a key: only `\\u` escapes of characters a name may hold are allowed",
                        Some("quote the key to use other characters"),
                    ));
                }
            },
        };
        let j = self.trivia(end)?;
        // `ctx-plugin: 1`: a name that runs into a character no name may
        // hold is most likely a key that needed quotes.
        let unquoted = j == end && !matches!(self.at(i), Some(b'"' | b'\''));
        match self.at(j) {
            Some(b':') => self.trivia(j + 1),
            None => Err(self.eof("an object")),
            Some(_) => Err(err(
                j,
                "expected `:`",
                unquoted.then_some(
                    "a key holding characters other than letters, digits, `$` and `_` must be quoted",
                ),
            )),
        }
    }

    /// A string, number or literal at `i`; the offset after it.
    fn scalar(&self, i: usize) -> Result<usize, SyntaxError> {
        let end = match self.at(i) {
            Some(b'"' | b'\'') => return self.string(i),
            Some(b't') => self.word(i, "true")?,
            Some(b'f') => self.word(i, "false")?,
            Some(b'n') => self.word(i, "null")?,
            Some(b'0'..=b'9' | b'+' | b'-' | b'.' | b'I' | b'N') => self.number(i)?,
            _ => return Err(err(i, "expected a value", None)),
        };
        // ECMAScript: no letter or digit may touch a number or literal.
        match self.s[end..].chars().next() {
            Some(c) if is_id_continue(c) || c == '\\' => {
                Err(err(end, &format!("unexpected `{c}` after a value"), None))
            }
            _ => Ok(end),
        }
    }

    fn word(&self, i: usize, word: &str) -> Result<usize, SyntaxError> {
        if self.s[i..].starts_with(word) {
            Ok(i + word.len())
        } else {
            Err(err(i, "expected `true`, `false` or `null`", None))
        }
    }

    fn digits(&self, mut i: usize, hex: bool) -> usize {
        while self
            .at(i)
            .is_some_and(|b| b.is_ascii_digit() || (hex && b.is_ascii_hexdigit()))
        {
            i += 1;
        }
        i
    }

    fn number(&self, i: usize) -> Result<usize, SyntaxError> {
        let mut j = i;
        if matches!(self.at(j), Some(b'+' | b'-')) {
            j += 1;
        }
        for word in ["Infinity", "NaN"] {
            if self.s[j..].starts_with(word) {
                return Ok(j + word.len());
            }
        }
        if self.at(j) == Some(b'0') && matches!(self.at(j + 1), Some(b'x' | b'X')) {
            let end = self.digits(j + 2, true);
            if end == j + 2 {
                return Err(err(end, "expected hexadecimal digits after `0x`", None));
            }
            return Ok(end);
        }
        let int_end = self.digits(j, false);
        if int_end > j + 1 && self.at(j) == Some(b'0') {
            return Err(err(
                j,
                "a number may not start with 0 followed by digits",
                Some("JSON5 has no octal numbers; write the number in decimal or as 0x…"),
            ));
        }
        let mut end = int_end;
        if self.at(end) == Some(b'.') {
            end = self.digits(end + 1, false);
        }
        if int_end == j && end <= int_end + 1 {
            let what = if j > i {
                format!("expected a number after `{}`", self.s.as_bytes()[i] as char)
            } else {
                "expected a value".to_owned()
            };
            return Err(err(j, &what, None));
        }
        if matches!(self.at(end), Some(b'e' | b'E')) {
            let mut k = end + 1;
            if matches!(self.at(k), Some(b'+' | b'-')) {
                k += 1;
            }
            let exp_end = self.digits(k, false);
            if exp_end == k {
                return Err(err(k, "expected digits in the exponent", None));
            }
            end = exp_end;
        }
        Ok(end)
    }

    /// A string of either quote at `i`; the offset after it.
    fn string(&self, i: usize) -> Result<usize, SyntaxError> {
        let b = self.s.as_bytes();
        let q = b[i];
        let mut j = i + 1;
        loop {
            match b.get(j) {
                None => {
                    return Err(err(
                        i,
                        "unterminated string",
                        Some(&format!("close the string with {}", q as char)),
                    ));
                }
                Some(&c) if c == q => return Ok(j + 1),
                Some(b'\\') => j = self.escape(j)?,
                Some(b'\n' | b'\r') => {
                    return Err(err(
                        j,
                        "line break in a string",
                        Some(
                            "write it as \\n, or end the line with a backslash to continue the string on the next",
                        ),
                    ));
                }
                Some(_) => j += 1,
            }
        }
    }

    /// The escape whose backslash is at `j`; the offset after it.
    fn escape(&self, j: usize) -> Result<usize, SyntaxError> {
        let Some(c) = self.s[j + 1..].chars().next() else {
            return Err(self.eof("a string"));
        };
        let hex = |n: usize, what: &str| {
            if self.s.as_bytes()[j + 2..]
                .iter()
                .take(n)
                .filter(|b| b.is_ascii_hexdigit())
                .count()
                == n
            {
                Ok(j + 2 + n)
            } else {
                Err(err(j, what, None))
            }
        };
        match c {
            '0' if !self.at(j + 2).is_some_and(|b| b.is_ascii_digit()) => Ok(j + 2),
            '0'..='9' => Err(err(
                j,
                "octal escapes are not allowed",
                Some("write the character itself, or \\xHH or \\uHHHH"),
            )),
            'x' => hex(2, "`\\x` must be followed by two hexadecimal digits"),
            'u' => hex(4, "`\\u` must be followed by four hexadecimal digits"),
            '\r' if self.at(j + 2) == Some(b'\n') => Ok(j + 3),
            other => Ok(j + 1 + other.len_utf8()),
        }
    }
}
