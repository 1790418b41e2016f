//! Registry templates: JSON values with `${placeholder}` strings.
//!
//! Agents spell the same MCP server or provider differently; the registry
//! says how with a template, and this fills it in. A string that is
//! exactly one placeholder takes the placeholder's value whatever its type
//! (an array of args, a map of env); a placeholder inside a longer string
//! is replaced by text. A member or element whose placeholder has no value
//! (or an empty one) is dropped, so optional fields simply vanish.

use serde_json::{Map, Value};

/// Fill `template` from `lookup`.
pub fn fill(template: &Value, lookup: &dyn Fn(&str) -> Option<Value>) -> Option<Value> {
    match template {
        Value::String(s) => fill_str(s, lookup),
        Value::Array(items) => Some(Value::Array(
            items.iter().filter_map(|v| fill(v, lookup)).collect(),
        )),
        Value::Object(m) => {
            // Keys may be placeholders too (opencode names models by key).
            let key = |k: &str| match fill_str(k, lookup) {
                Some(Value::String(s)) => Some(s),
                _ => None,
            };
            let out: Map<String, Value> = m
                .iter()
                .filter_map(|(k, v)| Some((key(k)?, fill(v, lookup)?)))
                .collect();
            Some(Value::Object(out))
        }
        other => Some(other.clone()),
    }
}

fn fill_str(s: &str, lookup: &dyn Fn(&str) -> Option<Value>) -> Option<Value> {
    if let Some(name) = whole_placeholder(s) {
        return lookup(name).filter(|v| !is_empty(v));
    }
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find("${") {
        let Some(end) = rest[i..].find('}') else {
            break;
        };
        out.push_str(&rest[..i]);
        match lookup(&rest[i + 2..i + end]).filter(|v| !is_empty(v))? {
            Value::String(v) => out.push_str(&v),
            other => out.push_str(&other.to_string()),
        }
        rest = &rest[i + end + 1..];
    }
    out.push_str(rest);
    Some(Value::String(out))
}

fn whole_placeholder(s: &str) -> Option<&str> {
    let inner = s.strip_prefix("${")?.strip_suffix('}')?;
    (!inner.contains(['$', '{', '}'])).then_some(inner)
}

fn is_empty(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(m) => m.is_empty(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn fills_whole_and_inline_placeholders_and_drops_missing() {
        let t = json!({"type": "stdio", "command": "${command}", "args": "${args}", "env": "${env}", "x": "v=${command}", "y": "${nope}", "${command}": {}, "${nope}": 1});
        let lookup = |k: &str| match k {
            "command" => Some(json!("npx")),
            "args" => Some(json!(["-y", "srv"])),
            "env" => Some(json!({})),
            _ => None,
        };
        assert_eq!(
            fill(&t, &lookup).unwrap(),
            json!({"type": "stdio", "command": "npx", "args": ["-y", "srv"], "x": "v=npx", "npx": {}})
        );
    }
}
