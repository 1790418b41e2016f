//! Scalars both ways: what a plain scalar means when read, and how a
//! string must be written so that every reader takes it as that string.
//!
//! Reading follows the YAML 1.2 core schema (what granit-parser and
//! serde-saphyr implement). Hermes reads its config with PyYAML, which
//! follows YAML 1.1, where `yes`, `on`, `0777`, `1_000`, `1:20` and
//! `2001-12-14` are not strings. coffer never re-spells a user's scalar, so
//! the two schemas can only disagree about text coffer writes, and that text
//! is quoted whenever either schema could read it as something else.

use serde_json::{Number, Value as Json};

/// What a plain scalar is, before it becomes JSON.
enum Class {
    Null,
    Bool(bool),
    Int(Json),
    Float(f64),
    /// `.inf`, `-.inf`, `.nan`: floats JSON cannot hold.
    Special,
    Str,
}

fn classify(s: &str) -> Class {
    match s {
        "" | "~" | "null" | "Null" | "NULL" => return Class::Null,
        "true" | "True" | "TRUE" => return Class::Bool(true),
        "false" | "False" | "FALSE" => return Class::Bool(false),
        _ => {}
    }
    if let Some(i) = int(s) {
        return Class::Int(i);
    }
    let unsigned = s.strip_prefix(['-', '+']).unwrap_or(s);
    if matches!(unsigned, ".inf" | ".Inf" | ".INF") || matches!(s, ".nan" | ".NaN" | ".NAN") {
        return Class::Special;
    }
    match float(s) {
        Some(f) => Class::Float(f),
        None => Class::Str,
    }
}

/// A plain scalar's meaning under the core schema. JSON has no infinity or
/// NaN, so those stay strings (as in the TOML editor).
pub fn resolve(s: &str) -> Json {
    match classify(s) {
        Class::Null => Json::Null,
        Class::Bool(b) => Json::Bool(b),
        Class::Int(i) => i,
        Class::Float(f) => float_json(f, s),
        Class::Special | Class::Str => Json::String(s.to_owned()),
    }
}

/// A scalar under an explicit core tag (`!!int "12"`), or `None` when its
/// text is not of that type: coffer does not guess what a mismatched tag
/// was meant to say.
pub fn resolve_tagged(s: &str, core: &str) -> Option<Json> {
    match (core, classify(s)) {
        ("str", _) => Some(Json::String(s.to_owned())),
        ("null", Class::Null) => Some(Json::Null),
        ("bool", Class::Bool(b)) => Some(Json::Bool(b)),
        ("int", Class::Int(i)) => Some(i),
        ("float", Class::Float(f)) => Some(float_json(f, s)),
        ("float", Class::Int(i)) => Some(float_json(i.as_f64()?, s)),
        ("float", Class::Special) => Some(Json::String(s.to_owned())),
        _ => None,
    }
}

fn float_json(f: f64, s: &str) -> Json {
    Number::from_f64(f).map_or_else(|| Json::String(s.to_owned()), Json::Number)
}

/// `[-+]?[0-9]+`, `0o[0-7]+`, `0x[0-9a-fA-F]+`. Integers beyond 64 bits
/// become floats, as most readers make them.
fn int(s: &str) -> Option<Json> {
    let radix = |digits: &str, r: u32| {
        (!digits.is_empty() && digits.chars().all(|c| c.is_digit(r)))
            .then(|| u64::from_str_radix(digits, r).ok().map(Json::from))
            .flatten()
    };
    if let Some(h) = s.strip_prefix("0x") {
        return radix(h, 16);
    }
    if let Some(o) = s.strip_prefix("0o") {
        return radix(o, 8);
    }
    let digits = s.strip_prefix(['-', '+']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if let Ok(i) = s.parse::<i64>() {
        return Some(Json::from(i));
    }
    if let Ok(u) = digits.parse::<u64>()
        && !s.starts_with('-')
    {
        return Some(Json::from(u));
    }
    s.parse::<f64>()
        .ok()
        .and_then(Number::from_f64)
        .map(Json::Number)
}

/// `[-+]? ( \. [0-9]+ | [0-9]+ ( \. [0-9]* )? ) ( [eE] [-+]? [0-9]+ )?`
fn float(s: &str) -> Option<f64> {
    let b = s.as_bytes();
    let mut i = usize::from(matches!(b.first(), Some(b'-' | b'+')));
    let digits = |i: &mut usize| {
        let from = *i;
        while b.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i - from
    };
    let whole = digits(&mut i);
    let mut frac = 0;
    if b.get(i) == Some(&b'.') {
        i += 1;
        frac = digits(&mut i);
    }
    if whole == 0 && frac == 0 {
        return None;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'-' | b'+')) {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return None;
        }
    }
    if i != b.len() {
        return None;
    }
    s.parse().ok()
}

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
    if !matches!(classify(s), Class::Str) || yaml11_non_string(s, first, second) {
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
    use serde_json::json;

    #[test]
    fn plain_scalars_resolve_by_the_core_schema() {
        assert_eq!(resolve("~"), Json::Null);
        assert_eq!(resolve(""), Json::Null);
        assert_eq!(resolve("True"), json!(true));
        assert_eq!(resolve("yes"), json!("yes"));
        assert_eq!(resolve("0x1F"), json!(31));
        assert_eq!(resolve("0o17"), json!(15));
        assert_eq!(resolve("-12"), json!(-12));
        assert_eq!(resolve("1.5e3"), json!(1500.0));
        assert_eq!(resolve(".5"), json!(0.5));
        assert_eq!(resolve("1."), json!(1.0));
        assert_eq!(resolve("-.inf"), json!("-.inf"));
        assert_eq!(resolve("1e"), json!("1e"));
        assert_eq!(resolve("18446744073709551615"), json!(u64::MAX));
        assert_eq!(resolve("v1.0"), json!("v1.0"));
        assert_eq!(resolve_tagged("12", "int"), Some(json!(12)));
        assert_eq!(resolve_tagged("1", "float"), Some(json!(1.0)));
        assert_eq!(resolve_tagged("x", "int"), None);
    }

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
        assert_eq!(resolve(&n(json!(1e300))), json!(1e300));
    }
}
