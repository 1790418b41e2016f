//! JSON values as YAML text in one consistent style.
//!
//! In a block context (the usual Hermes config), mappings and lists coffer
//! writes are block collections, one key or item per line, indented by the
//! file's unit; lists follow the file's choice of indented or indentless
//! dashes. Empty collections are `{}` and `[]`, null is `null`. Inside a
//! flow collection (`{ … }` a user wrote), everything is flow, since block
//! text cannot stand there. Strings are plain unless a reader could take
//! them for something else (see [`quote`]).

use serde_json::Value as Json;

use super::layout::Style;
use super::quote;

/// Longest key written: YAML bounds an implicit key at 1024 characters.
const MAX_KEY: usize = 1000;

/// A key as YAML writes it; `Err` when it is too long to be a key.
pub fn key(k: &str, flow: bool) -> Result<String, String> {
    let s = quote::string(k, flow);
    if s.chars().count() > MAX_KEY {
        return Err(format!(
            "a key longer than {MAX_KEY} characters cannot be written"
        ));
    }
    Ok(s)
}

/// Whether `v` is written on its key's line in a block context.
pub fn is_inline(v: &Json) -> bool {
    match v {
        Json::Object(m) => m.is_empty(),
        Json::Array(a) => a.is_empty(),
        _ => true,
    }
}

/// `v` on one line: a scalar, or a flow collection.
pub fn inline(v: &Json, flow: bool) -> Result<String, String> {
    Ok(match v {
        Json::Null => "null".into(),
        Json::Bool(b) => b.to_string(),
        Json::Number(n) => quote::number(n),
        Json::String(s) => quote::string(s, flow),
        Json::Array(items) => {
            let items: Result<Vec<_>, _> = items.iter().map(|i| inline(i, true)).collect();
            format!("[{}]", items?.join(", "))
        }
        Json::Object(map) => {
            let mut parts = Vec::with_capacity(map.len());
            for (k, v) in map {
                parts.push(format!("{}: {}", key(k, true)?, inline(v, true)?));
            }
            format!("{{{}}}", parts.join(", "))
        }
    })
}

/// The lines of a block mapping entry `key: value` at `indent`. `key` is
/// already written (a replaced entry keeps the key text it had).
pub fn entry(key_text: &str, v: &Json, indent: &str, style: &Style) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    if is_inline(v) {
        out.push(format!("{indent}{key_text}: {}", inline(v, false)?));
    } else {
        out.push(format!("{indent}{key_text}:"));
        out.extend(value_lines(v, indent, style)?);
    }
    Ok(out)
}

/// The lines of a block collection that is the value of a key at
/// `indent` (nothing for an inline value).
pub fn value_lines(v: &Json, indent: &str, style: &Style) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    match v {
        Json::Object(map) if !map.is_empty() => {
            let inner = format!("{indent}{}", style.unit);
            for (k, v) in map {
                out.extend(entry(&key(k, false)?, v, &inner, style)?);
            }
        }
        Json::Array(items) if !items.is_empty() => {
            let dash = if style.indentless {
                indent.to_owned()
            } else {
                format!("{indent}{}", style.unit)
            };
            for item in items {
                out.extend(item_lines(item, &dash, style)?);
            }
        }
        _ => {}
    }
    Ok(out)
}

/// `- item` at `dash`; a collection item starts on the dash's line and
/// continues two columns in (`- a: 1` / `  b: 2`).
fn item_lines(v: &Json, dash: &str, style: &Style) -> Result<Vec<String>, String> {
    if is_inline(v) {
        return Ok(vec![format!("{dash}- {}", inline(v, false)?)]);
    }
    let inner = format!("{dash}  ");
    let mut lines = match v {
        Json::Object(map) => {
            let mut lines = Vec::new();
            for (k, v) in map {
                lines.extend(entry(&key(k, false)?, v, &inner, style)?);
            }
            lines
        }
        _ => {
            let nested = Style {
                indentless: true,
                ..style.clone()
            };
            value_lines(v, &inner, &nested)?
        }
    };
    if let Some(first) = lines.first_mut() {
        *first = format!("{dash}- {}", &first[inner.len()..]);
    }
    Ok(lines)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn style(unit: usize, indentless: bool) -> Style {
        Style {
            eol: "\n",
            unit: " ".repeat(unit),
            indentless,
        }
    }

    #[test]
    fn block_collections_nest_by_the_unit() {
        let v = json!({"command": "coffer", "args": ["mcp", "--stdio", {"a": 1, "b": [true, null]}, [1, 2]], "env": {"K": "yes"}, "e": {}, "l": []});
        let got = entry("srv", &v, "  ", &style(2, false)).unwrap().join("\n");
        let want = "  srv:\n    command: coffer\n    args:\n      - mcp\n      - --stdio\n      - a: 1\n        b:\n          - true\n          - null\n      - - 1\n        - 2\n    env:\n      K: \"yes\"\n    e: {}\n    l: []";
        assert_eq!(got, want);
        let got = entry("x", &json!({"l": ["a"]}), "", &style(4, true))
            .unwrap()
            .join("\n");
        assert_eq!(got, "x:\n    l:\n    - a");
    }

    #[test]
    fn flow_text_quotes_what_flow_needs() {
        let v = json!({"url": "https://e/x", "args": ["-y", "a,b"], "num": 1.5, "n": 0});
        assert_eq!(
            inline(&v, true).unwrap(),
            "{url: \"https://e/x\", args: [-y, \"a,b\"], num: 1.5, \"n\": 0}"
        );
    }
}
