//! JSON5 text as JSON text, so that serde_json can read a found value.
//!
//! coffer compares what a file holds with what is desired as
//! `serde_json::Value`s. A JSON5 value is rewritten token by token into
//! JSON (comments and trailing commas dropped, keys and strings decoded
//! and re-quoted, numbers spelled as JSON spells them) and handed to
//! serde_json, whose nesting limit then applies as it does to JSON.
//!
//! `Infinity` and `NaN` have no JSON value. They become the string
//! [`NON_FINITE`] followed by the token as written (`-Infinity`), which the
//! renderer writes back as that token in a JSON5 file. So a member holding
//! one is present (never taken for absent, so never overwritten as if it
//! were missing), equals no desired value (none holds that string), and an
//! adopted one comes back as the number it was.

use super::decode;
use super::{identifier_end, line_comment_end, string_end, whitespace_len};

/// What a non-finite number reads as: this, then its token.
pub const NON_FINITE: &str = "\u{0}json5:";

/// The JSON for a validated JSON5 value; `None` if it is not one.
pub fn to_json(text: &str) -> Option<String> {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len() + 8);
    // For each open container, whether it is an object.
    let mut objects: Vec<bool> = Vec::new();
    let mut expect_key = false;
    let mut comma = false;
    let mut i = 0;
    loop {
        i = skip_trivia(text, i);
        let Some(&c) = b.get(i) else {
            return Some(out);
        };
        if !matches!(c, b',' | b'}' | b']' | b':') && std::mem::take(&mut comma) {
            out.push(',');
        }
        match c {
            b'{' | b'[' => {
                objects.push(c == b'{');
                expect_key = c == b'{';
                out.push(c as char);
                i += 1;
            }
            b'}' | b']' => {
                objects.pop();
                comma = false;
                expect_key = false;
                out.push(c as char);
                i += 1;
            }
            b',' => {
                comma = true;
                expect_key = objects.last() == Some(&true);
                i += 1;
            }
            b':' => {
                out.push(':');
                i += 1;
            }
            _ if expect_key => {
                expect_key = false;
                let end = if matches!(c, b'"' | b'\'') {
                    string_end(b, i)
                } else {
                    identifier_end(text, i).ok()?
                };
                push_string(&mut out, &decode::key(&text[i..end])?);
                i = end;
            }
            b'"' | b'\'' => {
                let end = string_end(b, i);
                push_string(&mut out, &decode::string(&text[i..end])?);
                i = end;
            }
            _ => {
                let mut end = i;
                while b.get(end).copied().is_some_and(super::is_scalar_byte) {
                    end += 1;
                }
                if end == i {
                    return None;
                }
                number_or_literal(&text[i..end], &mut out)?;
                i = end;
            }
        }
    }
}

fn skip_trivia(s: &str, mut i: usize) -> usize {
    let b = s.as_bytes();
    loop {
        let n = whitespace_len(s, i);
        if n > 0 {
            i += n;
        } else if b.get(i) == Some(&b'/') && b.get(i + 1) == Some(&b'/') {
            i = line_comment_end(s, i);
        } else if b.get(i) == Some(&b'/') && b.get(i + 1) == Some(&b'*') {
            i = memchr::memmem::find(&b[i + 2..], b"*/").map_or(b.len(), |n| i + 2 + n + 2);
        } else {
            return i;
        }
    }
}

fn push_string(out: &mut String, s: &str) {
    out.push_str(&serde_json::to_string(s).expect("a string always serialises"));
}

/// A JSON5 number or literal token written as JSON.
fn number_or_literal(token: &str, out: &mut String) -> Option<()> {
    if matches!(token, "true" | "false" | "null") {
        out.push_str(token);
        return Some(());
    }
    let (minus, unsigned) = match token.as_bytes()[0] {
        b'-' => (true, &token[1..]),
        b'+' => (false, &token[1..]),
        _ => (false, token),
    };
    if matches!(unsigned, "Infinity" | "NaN") {
        push_string(out, &format!("{NON_FINITE}{token}"));
        return Some(());
    }
    if minus {
        out.push('-');
    }
    if let Some(hex) = unsigned
        .strip_prefix("0x")
        .or_else(|| unsigned.strip_prefix("0X"))
    {
        match u64::from_str_radix(hex, 16) {
            Ok(n) => out.push_str(&n.to_string()),
            // Wider than 64 bits: a float, as JavaScript reads it.
            Err(_) => {
                let f = hex.bytes().fold(0f64, |f, d| {
                    f * 16.0 + f64::from((d as char).to_digit(16).unwrap_or(0))
                });
                out.push_str(&format!("{f:e}"));
            }
        }
        return Some(());
    }
    // `.5` and `5.` are `0.5` and `5.0`; `5.e3` is `5.0e3`.
    if unsigned.starts_with('.') {
        out.push('0');
    }
    match unsigned.find('.') {
        Some(dot) if !unsigned[dot + 1..].starts_with(|c: char| c.is_ascii_digit()) => {
            out.push_str(&unsigned[..=dot]);
            out.push('0');
            out.push_str(&unsigned[dot + 1..]);
        }
        _ => out.push_str(unsigned),
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(t: &str) -> String {
        to_json(t).unwrap()
    }

    #[test]
    fn every_json5_form_becomes_json() {
        assert_eq!(
            json("{a: 1, 'b': \"x\", \"c\": 'y\\'', $d_: [1, 2,], /* c */ e: {}, // x\n}"),
            r#"{"a":1,"b":"x","c":"y'","$d_":[1,2],"e":{}}"#
        );
        assert_eq!(
            json("[0x1F, -0XaB, +1, .5, 5., -.5e3, 5.e-2, 1E+2, 0, -0]"),
            "[31,-171,1,0.5,5.0,-0.5e3,5.0e-2,1E+2,0,-0]"
        );
        assert_eq!(
            json("[Infinity, -Infinity, +NaN]"),
            r#"["\u0000json5:Infinity","\u0000json5:-Infinity","\u0000json5:+NaN"]"#
        );
        assert_eq!(
            json("{true: null, null: false}"),
            r#"{"true":null,"null":false}"#
        );
        assert_eq!(json("{\\u0061b: 'l\\\nc'}"), r#"{"ab":"lc"}"#);
        assert_eq!(json("\u{feff}\u{a0}{\u{2028}a\u{3000}:1}"), r#"{"a":1}"#);
        let v: serde_json::Value = serde_json::from_str(&json("0xFFFFFFFFFFFFFFFFFFFF")).unwrap();
        assert_eq!(v.as_f64(), Some(1.2089258196146292e24));
    }
}
