//! Validation of JSON and JSONC text before any span is trusted.
//!
//! serde_json into `IgnoredAny` is the cheapest strict validator measured
//! (15 ms on 11.5 MB, no allocation beyond the input; DESIGN.md, "Formats"),
//! it passes JSONTestSuite, and it turns deep nesting into an error rather
//! than a stack overflow. JSONC differs from JSON only by comments and
//! trailing commas, so a JSONC file is validated by blanking those to spaces
//! (offsets and lines unchanged) and handing the result to the same parser.

use std::borrow::Cow;

pub use crate::formats::SyntaxError;

pub fn validate(text: &str, jsonc: bool) -> Result<(), SyntaxError> {
    let checked: Cow<str> = if jsonc {
        Cow::Owned(blank_comments_and_trailing_commas(text)?)
    } else {
        Cow::Borrowed(text)
    };
    match serde_json::from_str::<serde::de::IgnoredAny>(&checked) {
        Ok(_) => Ok(()),
        Err(e) => {
            let offset = offset_of(text, e.line(), e.column());
            let message = strip_position(&e.to_string());
            let help = if jsonc {
                None
            } else {
                strict_hint(text, offset)
            };
            Err(SyntaxError {
                offset,
                message,
                help,
            })
        }
    }
}

/// serde_json reports 1-based lines and byte columns; turn them into an offset.
fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let mut start = 0;
    for _ in 1..line {
        match memchr::memchr(b'\n', &text.as_bytes()[start..]) {
            Some(n) => start += n + 1,
            None => break,
        }
    }
    let mut off = (start + column.saturating_sub(1)).min(text.len());
    while !text.is_char_boundary(off) {
        off -= 1;
    }
    off
}

fn strip_position(msg: &str) -> String {
    match msg.rfind(" at line ") {
        Some(i) => msg[..i].to_owned(),
        None => msg.to_owned(),
    }
}

/// Strict files trip most often over comments and trailing commas; say so.
fn strict_hint(text: &str, offset: usize) -> Option<String> {
    let b = text.as_bytes();
    let at = b.get(offset).copied();
    let prev = b[..offset]
        .iter()
        .rev()
        .find(|c| !c.is_ascii_whitespace())
        .copied();
    if at == Some(b'/') {
        Some("this file is read as strict JSON by its agent: comments are not allowed".into())
    } else if matches!(at, Some(b'}') | Some(b']')) && prev == Some(b',') {
        Some("this file is read as strict JSON by its agent: remove the trailing comma".into())
    } else {
        None
    }
}

/// Replace comments and trailing commas with spaces, keeping every line
/// break, so that the result is strict JSON at the same offsets.
pub fn blank_comments_and_trailing_commas(text: &str) -> Result<String, SyntaxError> {
    let b = text.as_bytes();
    let mut out = b.to_vec();
    let mut i = 0;
    let mut pending_comma: Option<usize> = None;
    while i < b.len() {
        match b[i] {
            b'"' => {
                pending_comma = None;
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                let end = memchr::memchr(b'\n', &b[i..]).map_or(b.len(), |n| i + n);
                blank(&mut out, i, end);
                i = end;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let Some(n) = memchr::memmem::find(&b[i + 2..], b"*/") else {
                    return Err(SyntaxError {
                        offset: i,
                        message: "unterminated block comment".into(),
                        help: Some("close the comment with */".into()),
                    });
                };
                let end = i + 2 + n + 2;
                blank(&mut out, i, end);
                i = end;
            }
            b' ' | b'\t' | b'\n' | b'\r' => i += 1,
            c => {
                if let Some(p) = pending_comma.take()
                    && (c == b'}' || c == b']')
                {
                    out[p] = b' ';
                }
                if c == b',' {
                    pending_comma = Some(i);
                }
                i += 1;
            }
        }
    }
    // Only ASCII bytes were replaced, each by an ASCII space, and every
    // replaced run covered whole characters, so the result is still UTF-8.
    String::from_utf8(out).map_err(|e| SyntaxError {
        offset: e.utf8_error().valid_up_to(),
        message: "invalid UTF-8".into(),
        help: None,
    })
}

fn blank(out: &mut [u8], from: usize, to: usize) {
    for c in &mut out[from..to] {
        if *c != b'\n' && *c != b'\r' {
            *c = b' ';
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strict_rejects_comments_with_a_hint() {
        let e = validate("{\n  // no\n  \"a\": 1\n}", false).unwrap_err();
        assert_eq!(e.offset, 4);
        assert!(e.help.unwrap().contains("comments"));
    }

    #[test]
    fn strict_rejects_trailing_comma_at_its_position() {
        let e = validate("{\"a\": 1,}", false).unwrap_err();
        assert_eq!(e.offset, 8);
        assert!(e.help.unwrap().contains("trailing comma"));
    }

    #[test]
    fn jsonc_accepts_comments_and_trailing_commas() {
        validate(
            "// head\n{ /* x */ \"a\": [1, 2,], // t\n \"b\": \"//\",\n}\n",
            true,
        )
        .unwrap();
        assert!(validate("{ /* open", true).is_err());
        assert!(validate("{\"a\": 1,,}", true).is_err());
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let text = "[".repeat(100_000);
        assert!(validate(&text, false).is_err());
    }
}
