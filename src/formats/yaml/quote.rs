//! How strings and numbers are written so that every reader takes them as
//! that string or that number.
//!
//! Hermes reads with PyYAML (YAML 1.1), coffer with the YAML 1.2 core
//! schema ([`super::scalar`]); a string is written plain only when both
//! read it as that same string. Everything else is double-quoted, the one
//! style that can escape every character.

use serde_json::Number;

use super::scalar;

/// Characters a plain scalar may hold: YAML's printable set, without tab,
/// the byte-order mark and what YAML 1.1 counts as line breaks (U+0085,
/// U+2028, U+2029).
fn plain_char(c: char) -> bool {
    matches!(c, '\u{20}'..='\u{7e}' | '\u{a0}'..='\u{2027}' | '\u{202a}'..='\u{d7ff}'
        | '\u{e000}'..='\u{fefe}' | '\u{ff00}'..='\u{fffd}' | '\u{10000}'..)
}

/// Whether `s` may be written as a plain scalar and still read as that
/// string, under YAML 1.2 and YAML 1.1 readers alike. `flow`: inside `[]`
/// or `{}`, where `,[]{}` end a plain scalar (and older PyYAML also
/// refuses `:` and `?`).
pub fn plain_ok(s: &str, flow: bool) -> bool {
    let mut chars = s.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    let second = chars.next();
    if !s.chars().all(plain_char) || s.starts_with(' ') || s.ends_with(' ') {
        return false;
    }
    if !scalar::is_string(s) || yaml11_non_string(s, first, second) {
        return false;
    }
    if s.starts_with("---") || s.starts_with("...") {
        return false;
    }
    let indicator = "?:,[]{}#&*!|>'\"%@`";
    if indicator.contains(first) || (first == '-' && second.is_none_or(|c| c == ' ')) {
        return false;
    }
    if s.contains(": ") || s.contains(" #") || s.ends_with(':') {
        return false;
    }
    !(flow && s.contains([',', '[', ']', '{', '}', ':', '?', '#']))
}

/// Plain spellings YAML 1.1 reads as booleans, numbers, dates or merge
/// keys. Anything starting with a digit (or a sign or dot and a digit) is
/// quoted rather than matched against 1.1's many number and date forms.
fn yaml11_non_string(s: &str, first: char, second: Option<char>) -> bool {
    let words = ["y", "n", "yes", "no", "on", "off", "<<", "="];
    if words.iter().any(|w| s.eq_ignore_ascii_case(w)) {
        return true;
    }
    first.is_ascii_digit()
        || (matches!(first, '-' | '+' | '.')
            && second.is_some_and(|c| c.is_ascii_digit() || c == '.'))
}

/// `s` as a scalar: plain when [`plain_ok`], otherwise double-quoted with
/// every character a reader could fold, drop or misread escaped.
pub fn string(s: &str, flow: bool) -> String {
    if plain_ok(s, flow) {
        return s.to_owned();
    }
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\0' => out.push_str("\\0"),
            c if c == ' ' || plain_char(c) => out.push(c),
            c if (c as u32) < 0x100 => out.push_str(&format!("\\x{:02X}", c as u32)),
            c if (c as u32) < 0x10000 => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push_str(&format!("\\U{:08X}", c as u32)),
        }
    }
    out.push('"');
    out
}

/// A JSON number as YAML both schemas read back as the same number: a
/// float always has a dot and a signed exponent (`1.0e+300`), which YAML
/// 1.1 requires.
pub fn number(n: &Number) -> String {
    let s = n.to_string();
    if !n.is_f64() {
        return s;
    }
    let (mantissa, exponent) = match s.split_once(['e', 'E']) {
        Some((m, e)) => (m.to_owned(), Some(e.to_owned())),
        None => (s.clone(), None),
    };
    let mut out = mantissa;
    if !out.contains('.') {
        out.push_str(".0");
    }
    if let Some(e) = exponent {
        out.push('e');
        if !e.starts_with(['-', '+']) {
            out.push('+');
        }
        out.push_str(&e);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value as Json, json};

    #[test]
    fn strings_are_quoted_only_when_a_reader_would_misread_them() {
        for plain in [
            "coffer",
            "--stdio",
            "-y",
            "~/x",
            "https://e.com/a",
            "a b",
            "é😀",
            "a#b",
        ] {
            assert_eq!(string(plain, false), plain, "{plain}");
        }
        for quoted in [
            "",
            "yes",
            "No",
            "on",
            "y",
            "~",
            "null",
            "1.0",
            "0777",
            "1:20",
            "2001-12-14",
            "-1",
            ".inf",
            "*a",
            "&a",
            "!a",
            "- a",
            "-",
            "a: b",
            "a #b",
            "a:",
            " a",
            "a ",
            "---x",
            "<<",
            "@x",
            "%x",
            "`x",
            "|",
            ">",
            "'a",
            "\"a",
            "a\nb",
            "a\tb",
            "\u{feff}",
        ] {
            assert!(string(quoted, false).starts_with('"'), "{quoted:?}");
        }
        assert_eq!(string("https://e.com", true), "\"https://e.com\"");
        assert_eq!(string("a,b", true), "\"a,b\"");
        assert_eq!(
            string("a\u{1}\u{85}\u{2028}\"\\", false),
            "\"a\\x01\\x85\\u2028\\\"\\\\\""
        );
    }

    #[test]
    fn floats_keep_a_dot_and_a_signed_exponent() {
        let n = |v: Json| match v {
            Json::Number(n) => number(&n),
            _ => unreachable!(),
        };
        assert_eq!(n(json!(1.0)), "1.0");
        assert_eq!(n(json!(1e300)), "1.0e+300");
        assert_eq!(n(json!(1.5e-7)), "1.5e-7");
        assert_eq!(n(json!(-3)), "-3");
        assert_eq!(scalar::resolve(&n(json!(1e300))), json!(1e300));
    }
}
