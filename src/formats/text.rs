//! The text layer every format editor sits behind.
//!
//! Parsers disagree about byte-order marks, and a user's file must come back
//! with exactly the bytes it had. So the BOM is taken off before any editor
//! sees the text and put back afterwards, invalid UTF-8 is refused with the
//! byte position, and the editors ask this module which line ending the file
//! uses so that new lines look like the old ones.

use std::ops::Range;

const BOM: &str = "\u{feff}";

/// A file's text with its byte-order mark held aside.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Text {
    pub bom: bool,
    pub body: String,
}

/// The file is not UTF-8; `offset` is the first byte that is not.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the file is not valid UTF-8 (byte {offset})")]
pub struct NotUtf8 {
    pub offset: usize,
}

impl Text {
    pub fn decode(bytes: &[u8]) -> Result<Text, NotUtf8> {
        let s = std::str::from_utf8(bytes).map_err(|e| NotUtf8 {
            offset: e.valid_up_to(),
        })?;
        Ok(match s.strip_prefix(BOM) {
            Some(rest) => Text {
                bom: true,
                body: rest.to_owned(),
            },
            None => Text {
                bom: false,
                body: s.to_owned(),
            },
        })
    }

    /// The file's bytes, reusing the body's buffer: on a 10 MB file a copy
    /// is 10 MB more at the peak.
    pub fn into_bytes(self) -> Vec<u8> {
        if !self.bom {
            return self.body.into_bytes();
        }
        self.encode()
    }

    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.body.len() + 3);
        if self.bom {
            out.extend_from_slice(BOM.as_bytes());
        }
        out.extend_from_slice(self.body.as_bytes());
        out
    }

    /// Byte offset in the original file of an offset in `body`.
    pub fn file_offset(&self, body_offset: usize) -> usize {
        body_offset + if self.bom { BOM.len() } else { 0 }
    }
}

/// The line ending new text should use: the file's first one, or LF for a
/// file that has none yet.
pub fn line_ending(body: &str) -> &'static str {
    match memchr::memchr(b'\n', body.as_bytes()) {
        Some(i) if i > 0 && body.as_bytes()[i - 1] == b'\r' => "\r\n",
        _ => "\n",
    }
}

/// The indentation (spaces and tabs) at the start of the line holding `pos`.
pub fn line_indent(body: &str, pos: usize) -> &str {
    let start = line_start(body, pos);
    let rest = &body[start..];
    let n = rest
        .bytes()
        .take_while(|b| *b == b' ' || *b == b'\t')
        .count();
    &rest[..n]
}

/// Offset of the first byte of the line holding `pos`.
pub fn line_start(body: &str, pos: usize) -> usize {
    memchr::memrchr(b'\n', &body.as_bytes()[..pos]).map_or(0, |i| i + 1)
}

/// Whether only spaces and tabs stand between the line start and `pos`.
pub fn starts_line(body: &str, pos: usize) -> bool {
    body[line_start(body, pos)..pos]
        .bytes()
        .all(|b| b == b' ' || b == b'\t')
}

/// The unit of indentation the file uses: its first indented line's
/// leading whitespace (a tab, or that many spaces), two spaces otherwise.
pub fn indent_unit(body: &str) -> String {
    for line in body.split('\n').skip(1).take(200) {
        let ws: String = line
            .chars()
            .take_while(|c| *c == ' ' || *c == '\t')
            .collect();
        let rest = &line[ws.len()..];
        if ws.is_empty() || rest.trim().is_empty() {
            continue;
        }
        if ws.starts_with('\t') {
            return "\t".into();
        }
        return " ".repeat(ws.len().min(8));
    }
    "  ".into()
}

/// 1-based line and column (in characters) of a byte offset, for messages.
pub fn line_col(body: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(body.len());
    let before = &body.as_bytes()[..offset];
    let line = memchr::memchr_iter(b'\n', before).count() + 1;
    let start = line_start(body, offset);
    let col = String::from_utf8_lossy(&before[start..]).chars().count() + 1;
    (line, col)
}

/// Replace `range` of `text` with `with`.
pub fn splice(text: &mut String, range: Range<usize>, with: &str) {
    text.replace_range(range, with);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bom_is_held_aside_and_restored() {
        let bytes = b"\xef\xbb\xbf{}\r\n";
        let t = Text::decode(bytes).unwrap();
        assert!(t.bom);
        assert_eq!(t.body, "{}\r\n");
        assert_eq!(t.encode(), bytes);
    }

    #[test]
    fn invalid_utf8_names_the_byte() {
        assert_eq!(Text::decode(b"{\"a\xff\"}").unwrap_err().offset, 3);
    }

    #[test]
    fn indent_and_line_endings_follow_the_file() {
        assert_eq!(line_ending("{\r\n}"), "\r\n");
        assert_eq!(line_ending("{}"), "\n");
        assert_eq!(indent_unit("{\n\t\"a\": 1\n}"), "\t");
        assert_eq!(indent_unit("{\n    \"a\": 1\n}"), "    ");
        assert_eq!(indent_unit("{}"), "  ");
        assert_eq!(line_col("ab\ncé\nx", 7), (3, 1));
    }
}
