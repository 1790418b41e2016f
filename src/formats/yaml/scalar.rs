//! What a plain scalar means when read.
//!
//! Reading follows the YAML 1.2 core schema (what granit-parser and
//! serde-saphyr implement). Hermes reads its config with PyYAML, which
//! follows YAML 1.1, where `yes`, `on`, `0777`, `1_000`, `1:20` and
//! `2001-12-14` are not strings. coffer never re-spells a user's scalar, so
//! the two schemas can only disagree about text coffer writes, which
//! [`super::quote`] quotes whenever either could misread it.

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

/// Whether a plain scalar with this text is a string under the core
/// schema (not null, a boolean, a number, `.inf` or `.nan`).
pub fn is_string(s: &str) -> bool {
    matches!(classify(s), Class::Str)
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
}
