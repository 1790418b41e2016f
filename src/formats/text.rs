//! The text layer every format editor sits behind.
//!
//! Parsers disagree about byte-order marks, line endings and final
//! newlines, and a user's file must come back with exactly the bytes it
//! had. So, around every editor:
//!
//! - invalid UTF-8 is refused with the byte position ([`Text::decode`]);
//! - the BOM is taken off before the editor sees the text (a strict JSON
//!   parser rejects it; toml_edit drops it) and put back afterwards;
//! - an editor that splices (JSON, marker blocks) changes nothing outside
//!   its splices, so line endings and the final newline stay as they were
//!   by construction: [`Text::splice_result`] only puts the BOM back. It
//!   must not "repair" line endings either: undoing an edit may rightly
//!   bring back an LF that the edited file, all CRLF by then, lacks;
//! - an editor that rewrites line endings or the final newline (toml_edit)
//!   edits [`Text::lf_body`] and [`Text::restore`] gives its output the
//!   file's conventions back: CRLF on every line of a file whose every line
//!   ended in CRLF, and the final newline exactly when the file had one. A
//!   file with mixed line endings cannot be restored this way; only a
//!   splicing editor keeps such a file exact.
//!
//! Editors also ask this module for the file's indentation and dominant
//! line ending, so that the lines they add look like the lines around them.

use std::ops::Range;

const BOM: &str = "\u{feff}";
/// Spare capacity in a decoded body: more than the fragments coffer splices
/// into one file in a plan (hook entries, servers, an instructions block).
const EDIT_ROOM: usize = 64 * 1024;

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
        let (bom, rest) = match s.strip_prefix(BOM) {
            Some(rest) => (true, rest),
            None => (false, s),
        };
        // Room for coffer's edits, so that splicing them in does not move
        // the body: on a 10 MB file a move copies 10 MB, and an allocator
        // that cannot grow in place holds both copies at once.
        let mut body = String::with_capacity(rest.len() + EDIT_ROOM);
        body.push_str(rest);
        Ok(Text { bom, body })
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
        self.splice_result(&self.body)
    }

    /// The bytes of this file after a splicing editor turned `self.body`
    /// into `edited`: the BOM back in front, nothing else touched.
    pub fn splice_result(&self, edited: &str) -> Vec<u8> {
        let mut out = Vec::with_capacity(edited.len() + 3);
        if self.bom {
            out.extend_from_slice(BOM.as_bytes());
        }
        out.extend_from_slice(edited.as_bytes());
        out
    }

    /// The bytes of this file after a normalising editor turned
    /// [`Text::lf_body`] into `edited`: the BOM back in front, and the line
    /// endings and final newline the file had (see the module docs).
    pub fn restore(&self, edited: &str) -> Vec<u8> {
        let mut body = std::borrow::Cow::Borrowed(edited);
        if line_endings(&self.body) == LineEndings::Crlf && has_bare_lf(&body) {
            body = std::borrow::Cow::Owned(crlf(&body));
        }
        match (ends_with_newline(&self.body), ends_with_newline(&body)) {
            (true, false) if !body.is_empty() => {
                body.to_mut().push_str(line_ending(&self.body));
            }
            (false, true) => {
                let keep = body.len() - if body.ends_with("\r\n") { 2 } else { 1 };
                body.to_mut().truncate(keep);
            }
            _ => {}
        }
        Text {
            bom: self.bom,
            body: body.into_owned(),
        }
        .encode()
    }

    /// The body with CRLF line endings turned into LF, for an editor that
    /// cannot keep CRLF; [`Text::restore`] turns them back. Only a file
    /// whose every line ends in CRLF is converted.
    pub fn lf_body(&self) -> std::borrow::Cow<'_, str> {
        if line_endings(&self.body) == LineEndings::Crlf {
            std::borrow::Cow::Owned(self.body.replace("\r\n", "\n"))
        } else {
            std::borrow::Cow::Borrowed(&self.body)
        }
    }

    /// Byte offset in the original file of an offset in `body`.
    pub fn file_offset(&self, body_offset: usize) -> usize {
        body_offset + if self.bom { BOM.len() } else { 0 }
    }
}

/// How the lines of a text end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineEndings {
    /// No line break at all.
    None,
    Lf,
    Crlf,
    Mixed,
}

/// Counts of `(CRLF, bare LF)` line breaks.
fn count_line_endings(body: &str) -> (usize, usize) {
    let b = body.as_bytes();
    let (mut crlf, mut lf) = (0, 0);
    for i in memchr::memchr_iter(b'\n', b) {
        if i > 0 && b[i - 1] == b'\r' {
            crlf += 1;
        } else {
            lf += 1;
        }
    }
    (crlf, lf)
}

pub fn line_endings(body: &str) -> LineEndings {
    match count_line_endings(body) {
        (0, 0) => LineEndings::None,
        (0, _) => LineEndings::Lf,
        (_, 0) => LineEndings::Crlf,
        _ => LineEndings::Mixed,
    }
}

/// The line ending new text should use: the one most of the file's lines
/// end with (the first line's on a tie), or LF for a file with none yet.
pub fn line_ending(body: &str) -> &'static str {
    let (crlf, lf) = count_line_endings(body);
    let first_is_crlf = || {
        memchr::memchr(b'\n', body.as_bytes())
            .is_some_and(|i| i > 0 && body.as_bytes()[i - 1] == b'\r')
    };
    if crlf > lf || (crlf == lf && crlf > 0 && first_is_crlf()) {
        "\r\n"
    } else {
        "\n"
    }
}

/// Whether the text ends with a line break.
pub fn ends_with_newline(body: &str) -> bool {
    body.ends_with('\n')
}

fn has_bare_lf(body: &str) -> bool {
    count_line_endings(body).1 > 0
}

/// Every bare LF turned into CRLF.
fn crlf(body: &str) -> String {
    let mut out = String::with_capacity(body.len() + body.len() / 16);
    let mut prev = '\0';
    for c in body.chars() {
        if c == '\n' && prev != '\r' {
            out.push('\r');
        }
        out.push(c);
        prev = c;
    }
    out
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
/// A lone CR counts as a line break, as it does in editors and in miette's
/// snippets; `offset` past the end means the end.
pub fn line_col(body: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(body.len());
    while !body.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &body.as_bytes()[..offset];
    let mut line = 1;
    let mut start = 0;
    for i in memchr::memchr2_iter(b'\n', b'\r', before) {
        let crlf = before[i] == b'\r' && body.as_bytes().get(i + 1) == Some(&b'\n');
        if !crlf {
            line += 1;
            start = i + 1;
        }
    }
    let col = body[start..offset].chars().count() + 1;
    (line, col)
}

/// Replace `range` of `text` with `with`.
pub fn splice(text: &mut String, range: Range<usize>, with: &str) {
    text.replace_range(range, with);
}

/// Insert `lines` at `at` (a line start, or the end of a text without a
/// final newline, where the lines go after a new line break and the last
/// one gets none, as the file had none), after a blank line if `blank`.
/// The line editors (TOML, YAML) add whole lines this way.
pub fn insert_lines(text: &mut String, at: usize, lines: &[String], eol: &str, blank: bool) {
    if lines.is_empty() {
        return;
    }
    let open_end = at == text.len() && at > 0 && !text.ends_with('\n');
    let mut s = String::new();
    if open_end {
        s.push_str(eol);
    }
    if blank {
        s.push_str(eol);
    }
    for (i, line) in lines.iter().enumerate() {
        s.push_str(line);
        if !open_end || i + 1 < lines.len() {
            s.push_str(eol);
        }
    }
    text.insert_str(at, &s);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_decoded_body_has_room_for_edits() {
        // Checked on the capacity: whether a reallocation moves the buffer
        // depends on the allocator and on what lies after it.
        let file = format!("{{\"a\": \"{}\"}}\n", "x".repeat(1 << 20));
        for bytes in [
            file.clone().into_bytes(),
            [BOM.as_bytes(), file.as_bytes()].concat(),
        ] {
            let t = Text::decode(&bytes).unwrap();
            assert_eq!(t.body, file);
            assert!(t.body.capacity() - t.body.len() >= EDIT_ROOM);
        }
    }

    #[test]
    fn bom_is_held_aside_and_restored() {
        let bytes = b"\xef\xbb\xbf{}\r\n";
        let t = Text::decode(bytes).unwrap();
        assert!(t.bom);
        assert_eq!(t.body, "{}\r\n");
        assert_eq!(t.encode(), bytes);
    }

    #[test]
    fn restore_puts_back_bom_crlf_and_final_newline() {
        let t = Text::decode(b"\xef\xbb\xbfa = 1\r\nb = 2\r\n").unwrap();
        assert_eq!(t.lf_body(), "a = 1\nb = 2\n");
        // An editor that writes LF and drops the final newline.
        assert_eq!(
            t.restore("a = 1\nb = 2\n[t]\nc = 3"),
            b"\xef\xbb\xbfa = 1\r\nb = 2\r\n[t]\r\nc = 3\r\n"
        );
        // An editor that adds a final newline the file did not have.
        let t = Text::decode(b"a = 1").unwrap();
        assert_eq!(t.restore("a = 1\n[t]\n"), b"a = 1\n[t]");
        assert_eq!(t.restore("a = 1\r\n"), b"a = 1");
    }

    #[test]
    fn restore_leaves_mixed_line_endings_alone() {
        let mixed = "a\r\nb\nc\r\n";
        let t = Text::decode(mixed.as_bytes()).unwrap();
        assert_eq!(line_endings(mixed), LineEndings::Mixed);
        assert_eq!(t.lf_body(), mixed);
        assert_eq!(t.restore("a\r\nb\nx\nc\r\n"), b"a\r\nb\nx\nc\r\n");
        let t = Text::decode(b"{\r\n}").unwrap();
        assert_eq!(t.restore("{\r\n  \"a\": 1\r\n}"), b"{\r\n  \"a\": 1\r\n}");
    }

    #[test]
    fn a_splice_result_keeps_every_line_ending() {
        // Undoing an edit brings back the LF of `{\n\r\n}`, though the
        // edited file was all CRLF.
        let t = Text::decode(b"\xef\xbb\xbf{\r\n  \"a\": 1\r\n}").unwrap();
        assert_eq!(t.splice_result("{\n\r\n}"), b"\xef\xbb\xbf{\n\r\n}");
    }

    #[test]
    fn the_dominant_line_ending_wins() {
        assert_eq!(line_ending("a\nb\r\nc\r\n"), "\r\n");
        assert_eq!(line_ending("a\r\nb\nc\n"), "\n");
        assert_eq!(line_ending("a\r\nb\n"), "\r\n");
        assert_eq!(line_ending("a\nb\r\n"), "\n");
        assert_eq!(line_endings("{}"), LineEndings::None);
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
        assert_eq!(line_col("ab\r\ncé☕x", 9), (2, 3));
        assert_eq!(line_col("a\rb\r\nc", 2), (2, 1));
        assert_eq!(line_col("a\rb\r\nc", 5), (3, 1));
        assert_eq!(line_col("é", 1), (1, 1));
        assert_eq!(line_col("ab", 99), (1, 3));
    }
}
