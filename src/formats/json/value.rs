//! The value of a span found in a validated document, for comparing what
//! a file holds with what is desired. Only the found span is parsed, never
//! the whole file (DESIGN.md, "Formats").

use serde_json::Value;

use super::Flavor;
use super::json5::transcode::to_json;
use super::validate::blank_comments_and_trailing_commas;

/// Parse one value of a validated document. `None` when serde_json cannot
/// hold it (nesting deeper than its limit of 128); in JSON5, `Infinity`
/// and `NaN` read as tagged strings (see [`super::json5::transcode`]).
pub fn parse(text: &str, flavor: Flavor) -> Option<Value> {
    match flavor {
        Flavor::Json => serde_json::from_str(text).ok(),
        Flavor::Jsonc => serde_json::from_str(&blank_comments_and_trailing_commas(text).ok()?).ok(),
        Flavor::Json5 => serde_json::from_str(&to_json(text)?).ok(),
    }
}

/// The token a tagged non-finite number stands for, if `v` is one.
pub fn non_finite(v: &Value) -> Option<&str> {
    let token = v
        .as_str()?
        .strip_prefix(super::json5::transcode::NON_FINITE)?;
    let unsigned = token.strip_prefix(['+', '-']).unwrap_or(token);
    matches!(unsigned, "Infinity" | "NaN").then_some(token)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_flavor_reads_its_values() {
        assert_eq!(parse("{\"a\": [1]}", Flavor::Json), Some(json!({"a": [1]})));
        assert_eq!(parse("{\"a\": 1,}", Flavor::Json), None);
        assert_eq!(
            parse("{\"a\": [1,], // c\n}", Flavor::Jsonc),
            Some(json!({"a": [1]}))
        );
        assert_eq!(
            parse("{a: 0x10, 'b': [.5,], c: 'x'}", Flavor::Json5),
            Some(json!({"a": 16, "b": [0.5], "c": "x"}))
        );
        let inf = parse("{t: -Infinity}", Flavor::Json5).unwrap();
        assert_eq!(non_finite(&inf["t"]), Some("-Infinity"));
        assert_eq!(non_finite(&json!("Infinity")), None);
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        assert_eq!(parse(&deep, Flavor::Json5), None);
    }
}
