//! Validation of JSON, JSONC and JSON5 text before any span is trusted.
//!
//! serde_json into `IgnoredAny` is the cheapest strict validator measured
//! (15 ms on 11.5 MB, no allocation beyond the input; DESIGN.md, "Formats"),
//! it refuses every invalid file of JSONTestSuite, and it never recurses
//! (it skips values with a stack of its own), so no nesting depth can
//! overflow the stack and none is refused. JSONC differs from JSON only by
//! comments and trailing commas, so a JSONC file is validated by blanking
//! those to spaces (offsets and lines unchanged) and handing the result to
//! the same parser. JSON5 changes the tokens themselves (unquoted keys,
//! single quotes, hexadecimal), which no blanking can turn into JSON at the
//! same offsets, so it has a validator of its own
//! ([`super::json5::validate`]), iterative too.

use std::borrow::Cow;

use super::Flavor;
pub use crate::formats::SyntaxError;

pub fn validate(text: &str, flavor: impl Into<Flavor>) -> Result<(), SyntaxError> {
    let flavor = flavor.into();
    if flavor.is_json5() {
        return super::json5::validate::validate(text);
    }
    let jsonc = flavor.lenient();
    let checked: Cow<str> = if jsonc {
        Cow::Owned(blank_comments_and_trailing_commas(text)?)
    } else {
        Cow::Borrowed(text)
    };
    match serde_json::from_str::<serde::de::IgnoredAny>(&checked) {
        Ok(_) => Ok(()),
        Err(e) => {
            let mut offset = offset_of(text, e.line(), e.column());
            // The file ended too soon: say so right after its last token,
            // not on a line of its own after the final newline.
            if e.is_eof() {
                offset = text.trim_end_matches([' ', '\t', '\n', '\r']).len();
            }
            let message = plain(&strip_position(&e.to_string()));
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

/// serde_json's words where they are a parser's rather than a user's.
fn plain(msg: &str) -> String {
    match msg {
        "expected ident" => "expected `true`, `false` or `null`".into(),
        "trailing characters" => "unexpected text after the end of the document".into(),
        "EOF while parsing a list" => "EOF while parsing an array".into(),
        other => other.into(),
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
    // A comma is a trailing comma when a value ends before it and a closing
    // bracket follows it; `[,]`, `{,}` and `1,,` are errors, which serde
    // reports at the offending comma because it is left in place.
    let mut pending_comma: Option<usize> = None;
    let mut after_value = false;
    while i < b.len() {
        match b[i] {
            b'"' => {
                pending_comma = None;
                after_value = true;
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                let end = super::scan::line_comment_end(b, i);
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
                if c == b',' && after_value {
                    pending_comma = Some(i);
                }
                after_value = !matches!(c, b',' | b':' | b'[' | b'{');
                i += 1;
            }
        }
    }
    // Every blanked run covers whole characters (a comment, or one ASCII
    // comma), each byte of it now a space, so the result is still UTF-8.
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
        for lone in ["[,]", "{,}", "{\"a\": [1, /* c */ ,]}", "[1,\n// c\n,]"] {
            let e = validate(lone, true).unwrap_err();
            assert_eq!(e.offset, lone.rfind(',').unwrap(), "{lone}: {e:?}");
        }
        validate("[1, /* c */ ]", true).unwrap();
        validate("{\"a\": {}, \"b\": [],\n}", true).unwrap();
    }

    /// serde_json counts columns in bytes and lines by LF; the offset must
    /// land on the offending character whatever precedes it.
    #[test]
    fn positions_are_exact_after_non_ascii_text_and_crlf() {
        let cases: [(&str, bool, &str); 5] = [
            ("{\r\n  \"é\": 1,\r\n  \"b\" 2\r\n}", false, "2\r\n}"),
            ("{\"☕😀\": tru}", false, "}"),
            ("{\"é\":\r\n\"ü\"\r\n,}", false, "}"),
            ("// ☕ ünïcödé\r\n{\"a\": 1,, }", true, ", }"),
            ("{\"a\": \"😀\\u00e9\", \"b\": [1 2]}", false, "2]}"),
        ];
        for (text, jsonc, at) in cases {
            let e = validate(text, jsonc).unwrap_err();
            assert_eq!(e.offset, text.rfind(at).unwrap(), "{text:?}: {e:?}");
        }
    }

    #[test]
    fn messages_use_a_users_words() {
        assert_eq!(
            validate("{\"a\": nul}", false).unwrap_err().message,
            "expected `true`, `false` or `null`"
        );
        assert_eq!(
            validate("{} {}", false).unwrap_err().message,
            "unexpected text after the end of the document"
        );
    }

    #[test]
    fn a_bom_is_not_json() {
        // The text layer takes the BOM off before validation; if one ever
        // reached the validator it would be refused, not skipped.
        assert_eq!(validate("\u{feff}{}", false).unwrap_err().offset, 0);
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let text = "[".repeat(100_000);
        assert!(validate(&text, false).is_err());
    }

    /// Valid deep nesting is valid: no recursion, so no stack to overflow
    /// (the scanner that follows is iterative too).
    #[test]
    fn deep_nesting_that_closes_is_accepted() {
        let depth = 1_000_000;
        let text = format!("{{\"a\": {}{}}}", "[".repeat(depth), "]".repeat(depth));
        validate(&text, false).unwrap();
        validate(&text, true).unwrap();
    }
}
